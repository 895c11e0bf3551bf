//! The Free Setup deployment (WEF 3.9), before turn 1 of a Free Setup, Plan 19 or
//! Schlieffen East game.
//!
//! The Russian deploys first, in the open: one entry, `deploy: {units: {RU-3: "2712", …}}`
//! then `end_phase`. The CP deploys next, in one entry too; what he puts face down goes in
//! `hidden` (unit → hex, as he writes it): his tool turns each into a counter commitment
//! exactly as a 13.7 `hide` does (`fog.rs`), so the entry carries counter → hex and the
//! Russian learns only the top units. Each nationality's face-down counters form one public
//! batch: "one of the units of that nationality not deployed face up".
//!
//! Every starting unit but fortress infantry, and the FS (and SEV) counters, go on any land
//! hex of their own nation (reading of "own nation", F.2: Russians in Russia or Russian
//! Poland, Germans in Germany, A-H in A-H); fortress infantry stays on its printed hex and is
//! never named here. Stacking (8.1, 8.5) holds when the side ends its deployment; 3.2 keeps
//! everyone out of Romania. Reinforcements still come by the turn track. Readings: only
//! infantry and active corps go face down (as for `hide`), and a hex with counters keeps a
//! unit shown on top.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::Country;
use super::fog;
use super::orders::{Action, Orders};
use super::state::{Nat, Phase, Place, Side, State, Unit};
use crate::engine::hidden::IdOrder;
use crate::engine::{Await, Event, Expectation, Violation};
use crate::geo::hex::HexId;

/// The rule every refusal here names.
pub const RULE: &str = "WEF 3.9";

/// A deployment: units placed face up and, for the CP, face down (13.7).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deploy {
    /// Unit → hex, face up.
    #[serde(default)]
    pub units: BTreeMap<String, HexId>,
    /// CP only: unit → hex face down as the author writes it; counter → hex once his tool
    /// has committed each unit (13.7).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hidden: BTreeMap<String, HexId>,
}

fn v(msg: impl Into<String>) -> Violation {
    Violation::new(RULE, msg)
}

/// The deployment is under way.
pub fn active(s: &State) -> bool {
    s.variant.deploying.is_some()
}

/// Whether `nat` may deploy in `c` (3.9 "own nation"; F.2 reading).
pub fn home(nat: Nat, c: Country) -> bool {
    match nat {
        Nat::RU => c.russian(),
        Nat::DE | Nat::TU => c == Country::Germany,
        Nat::AH => c == Country::AustriaHungary,
        Nat::RO => c == Country::Romania,
    }
}

fn country_words(nat: Nat) -> &'static str {
    match nat {
        Nat::RU => "Russia or Russian Poland",
        Nat::DE | Nat::TU => "Germany",
        Nat::AH => "Austria-Hungary",
        Nat::RO => "Romania",
    }
}

/// A side acting out of its turn in the deployment: the Russian deploys first (3.9).
pub fn out_of_turn(s: &State, side: Side) -> Option<Violation> {
    let now = s.variant.deploying?;
    (now != side).then(|| match now {
        Side::Russian => v("the Russian deploys all his units first; the Central Powers deploy after him"),
        Side::Central => v("the Russian has deployed; the Central Powers deploy now"),
    })
}

/// Units of `side` still to deploy.
pub fn pending(s: &State, side: Side) -> Vec<&Unit> {
    s.variant.to_deploy.keys().filter_map(|id| s.unit(id)).filter(|u| u.side() == side).collect()
}

/// One action in the deployment.
pub fn step(s: &mut State, side: Side, a: &Action) -> Result<Vec<Event>, Vec<Violation>> {
    if let Some(x) = out_of_turn(s, side) {
        return Err(vec![x]);
    }
    match a {
        Action::Deploy(d) => {
            let mut w = s.clone();
            let ev = apply(&mut w, side, d)?;
            *s = w;
            Ok(ev)
        }
        Action::EndPhase => finish(s, side),
        _ => Err(vec![v("before turn 1 the sides deploy: only `deploy` and `end_phase` (face-down units go in `deploy`'s `hidden`)")]),
    }
}

fn apply(s: &mut State, side: Side, d: &Deploy) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    if d.units.is_empty() && d.hidden.is_empty() {
        return Err(vec![v("deploy names no unit")]);
    }
    let check_place = |s: &State, id: &str, h: HexId, errs: &mut Vec<Violation>| -> Option<Nat> {
        let Some(u) = s.unit(id) else {
            errs.push(v(format!("there is no unit {id}")).unit(id));
            return None;
        };
        if u.side() != side {
            errs.push(v(format!("{id} is not a unit of the {} player", side.title())).unit(id));
            return None;
        }
        if !s.variant.to_deploy.contains_key(id) {
            let why = if u.kind == super::state::Kind::Fortress && u.hex().is_some() {
                format!("{id} is fortress infantry: it stays on its printed hex")
            } else if u.hex().is_some() {
                format!("{id} is deployed already")
            } else {
                format!("{id} is not a starting unit of this scenario (reinforcements come by the turn track)")
            };
            errs.push(v(why).unit(id));
            return None;
        }
        match s.board.get(h) {
            None => errs.push(v(format!("{h} is not a land hex of the map")).unit(id).hex(h.to_string())),
            Some(i) if !home(u.nat, i.country) => errs.push(
                v(format!("{id} deploys in its own nation ({}); {h} is in {:?}", country_words(u.nat), i.country))
                    .unit(id)
                    .hex(h.to_string()),
            ),
            _ => {}
        }
        Some(u.nat)
    };
    for (id, &h) in &d.units {
        check_place(s, id, h, &mut errs);
    }
    let mut ev = Vec::new();
    if !d.hidden.is_empty() {
        match hide(s, side, d) {
            Ok(e) => ev.extend(e),
            Err(e) => errs.extend(e),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for (id, &h) in &d.units {
        if let Some(u) = s.unit_mut(id) {
            u.place = Place::Hex(h);
        }
        s.variant.to_deploy.remove(id);
    }
    // 8.1, 8.5: stacking holds at all times, in the deployment too.
    let w = fog::unmasked(s);
    let mut hexes: Vec<HexId> = d.units.values().chain(d.hidden.values()).copied().collect();
    hexes.sort();
    hexes.dedup();
    let over: Vec<Violation> = hexes.iter().filter_map(|&h| super::stacking::room(&w, h, &[]).err()).collect();
    if !over.is_empty() {
        return Err(over);
    }
    let mut by_hex: BTreeMap<HexId, Vec<&str>> = BTreeMap::new();
    for (id, h) in &d.units {
        by_hex.entry(*h).or_default().push(id);
    }
    let list: Vec<String> = by_hex.iter().map(|(h, ids)| format!("{} in {h}", ids.join(", "))).collect();
    if !list.is_empty() {
        ev.insert(0, Event::rule(RULE, format!("{} deploys {}", side.title(), list.join("; "))));
    }
    Ok(ev)
}

/// The CP's face-down deployment: the entry's fresh commitments become counters placed on
/// the map, one public batch per nationality (13.7).
fn hide(s: &mut State, side: Side, d: &Deploy) -> Result<Vec<Event>, Vec<Violation>> {
    let f = |m: String| Violation::new(fog::RULE, m);
    if side != Side::Central {
        return Err(vec![f("only the Central Powers deploy face down: Russian stacks are open to the CP at any time".into())]);
    }
    let n = d.hidden.len();
    let fresh: Vec<(String, Option<String>)> = s.fog.fresh.iter().take(n).cloned().collect();
    let fresh_ids: BTreeSet<&str> = fresh.iter().map(|(c, _)| c.as_str()).collect();
    let keys: BTreeSet<&str> = d.hidden.keys().map(String::as_str).collect();
    if fresh.len() < n || fresh_ids != keys {
        return Err(vec![f(format!(
            "the face-down units must be the entry's fresh counters ({}) placed by counter id: the author's tool commits one per unit",
            fresh.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>().join(", ")
        ))]);
    }
    let mut errs = Vec::new();
    // Each counter's nationality is its hex's country: German in Germany, A-H in A-H.
    let group = |c: Country| match c {
        Country::Germany => Some(Nat::DE),
        Country::AustriaHungary => Some(Nat::AH),
        _ => None,
    };
    let mut counters: BTreeMap<Nat, Vec<(String, Option<String>, HexId)>> = BTreeMap::new();
    for (cid, value) in &fresh {
        let h = d.hidden[cid];
        match s.board.get(h).and_then(|i| group(i.country)) {
            Some(g) => counters.entry(g).or_default().push((cid.clone(), value.clone(), h)),
            None => errs.push(f(format!("{cid}: a CP unit deploys in Germany or Austria-Hungary; {h} is neither")).hex(h.to_string())),
        }
    }
    let same = |g: Nat, u: &Unit| if g == Nat::DE { u.nat.german() } else { u.nat == g };
    let mut batches = Vec::new();
    for (g, cs) in &counters {
        let rest: Vec<Unit> = pending(s, side).into_iter().filter(|u| same(*g, u) && !d.units.contains_key(&u.id)).cloned().collect();
        if rest.len() != cs.len() {
            errs.push(f(format!(
                "{} {:?} units are not deployed face up, and {} counters go face down: one counter for each of them",
                rest.len(),
                g,
                cs.len()
            )));
        }
        for u in rest.iter().filter(|u| !fog::hideable(u)) {
            errs.push(f(format!("{} deploys face up: only infantry and active corps go face down", u.id)).unit(u.id.clone()));
        }
        let mut seen = BTreeSet::new();
        for (cid, value, _) in cs {
            let Some(value) = value else { continue };
            match fog::parse_value(value) {
                Some((uid, sl)) if rest.iter().any(|u| u.id == uid && u.sl == sl) && seen.insert(uid.clone()) => {}
                _ => errs.push(f(format!("{cid} commits {value:?}, not one of the {g:?} units deployed face down at its SL"))),
            }
        }
        batches.push((rest, cs.clone()));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    s.fog.fresh.drain(..n);
    let mut ev = Vec::new();
    for (rest, cs) in batches {
        let b = s.fog.batches.len();
        s.fog.issued += cs.len() as u32;
        let ids: Vec<String> = rest.iter().map(|u| u.id.clone()).collect();
        s.fog.batches.push(rest.clone());
        s.units.retain(|u| !ids.contains(&u.id));
        for id in &ids {
            s.variant.to_deploy.remove(id);
        }
        for (cid, value, h) in &cs {
            if let Some((uid, _)) = value.as_deref().and_then(fog::parse_value) {
                s.fog.known.insert(cid.clone(), uid);
            }
            s.fog.counters.insert(cid.clone(), b);
            let mut p = fog::placeholder(&rest[0], cid);
            p.place = Place::Hex(*h);
            s.units.push(p);
        }
        let at: Vec<String> = cs.iter().map(|(c, _, h)| format!("{c} in {h}")).collect();
        ev.push(Event::rule(fog::RULE, format!("face down, one each of {}: {}", ids.join(", "), at.join(", "))));
    }
    Ok(ev)
}

/// `end_phase` in the deployment: the side's units are all placed and stacked legally; the
/// Russian's end hands over to the CP, the CP's opens turn 1 at phase II (3.9 sets 3.4 aside).
fn finish(s: &mut State, side: Side) -> Result<Vec<Event>, Vec<Violation>> {
    let left: Vec<String> = pending(s, side).iter().map(|u| u.id.clone()).collect();
    if !left.is_empty() {
        return Err(vec![v(format!("deploy every unit before ending the deployment; left: {}", left.join(", ")))]);
    }
    let w = fog::unmasked(s);
    let mut hexes: Vec<HexId> = w.units.iter().filter(|u| u.side() == side).filter_map(Unit::hex).collect();
    hexes.sort();
    hexes.dedup();
    let mut errs: Vec<Violation> = hexes.iter().filter_map(|&h| super::stacking::room(&w, h, &[]).err()).collect();
    for &h in &hexes {
        if w.units_at(h).all(|u| fog::is_hidden(s, &u.id)) {
            errs.push(Violation::new(fog::RULE, format!("the top unit of the stack in {h} stays shown: deploy one unit there face up")));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut ev = vec![Event::say(format!("{} ends the deployment", side.title()))];
    match side {
        Side::Russian => {
            s.variant.deploying = Some(Side::Central);
            s.phase = Phase::CentralNewUnits;
        }
        Side::Central => {
            s.variant.deploying = None;
            s.variant.to_deploy.clear();
            s.phase = Phase::RussianNewUnits;
            ev.push(Event::rule(RULE, format!("{} begins with the Russian New Units phase: turn 1 is played in full", s.turn_text())));
            ev.extend(super::logistics::phase_start(s));
        }
    }
    Ok(ev)
}

/// Who deploys what.
pub fn expect(s: &State) -> Option<Expectation> {
    let side = s.variant.deploying?;
    let n = pending(s, side).len();
    let what = match side {
        Side::Russian => format!("deploy your {n} units in Russia or Russian Poland, in the open, then end_phase (WEF 3.9)"),
        Side::Central => format!(
            "deploy your {n} units in Germany and Austria-Hungary (face down under a shown top unit if you like, WEF 13.7), then end_phase (WEF 3.9)"
        ),
    };
    Some(Expectation { when: "Free Setup deployment, before turn 1".into(), awaits: vec![Await { seat: s.seat(side).into(), what }] })
}

/// The bot's deployment: each unit on its printed hex when that is legal, else on the
/// nearest legal hex of its nation (a unit without a printed hex starts its search at the
/// first of its nation's printed hexes); the CP turns some stacks face down.
pub fn bot_orders(s: &State, side: Side, ch: &mut crate::dice::Dice) -> Option<Orders> {
    if s.variant.deploying != Some(side) {
        return None;
    }
    let (mut units, w) = default_places(s, side)?;
    let mut hidden = BTreeMap::new();
    if side == Side::Central {
        for a in fog::bot_hides(&w, ch) {
            if let Action::Hide(h) = a {
                for id in h.units {
                    if let Some(x) = units.remove(&id) {
                        hidden.insert(id, x);
                    }
                }
            }
        }
    }
    Some(Orders { actions: vec![Action::Deploy(Deploy { units, hidden }), Action::EndPhase] })
}

/// Every unit `side` still deploys on its printed hex when that is legal, else on the
/// nearest legal hex of its nation (a unit without a printed hex starts its search at the
/// first of its nation's printed hexes), with the state they make; `None` if one finds no room.
fn default_places(s: &State, side: Side) -> Option<(BTreeMap<String, HexId>, State)> {
    let mut w = s.clone();
    let mut units = BTreeMap::new();
    let ids: Vec<String> = pending(s, side).iter().map(|u| u.id.clone()).collect();
    for id in ids {
        let u = w.unit(&id)?.clone();
        let start = s.variant.to_deploy.get(&id).copied().flatten().or_else(|| {
            s.variant.to_deploy.iter().filter_map(|(o, h)| Some((s.unit(o)?, (*h)?))).find(|(o, _)| o.nat == u.nat).map(|(_, h)| h)
        });
        let h = nearest(&w, &u, start)?;
        if let Some(x) = w.unit_mut(&id) {
            x.place = Place::Hex(h);
        }
        units.insert(id, h);
    }
    Some((units, w))
}

/// The orders template of a deployment: every unit still to place with a legal default hex
/// (its printed one when free), to keep or change; the CP's face-down choice as a comment.
pub fn template(s: &State, side: Side, head: &str) -> String {
    let mut t = format!(
        "{head}# every unit with a legal hex to keep or change: its printed hex, else the nearest free one of its nation\nactions:\n  - deploy:\n      units:\n"
    );
    let places = default_places(s, side).map(|(p, _)| p).unwrap_or_default();
    for u in pending(s, side) {
        let [a, d, m] = u.factors();
        let hex = places.get(&u.id).map(|h| h.to_string()).unwrap_or_else(|| "????".into());
        let printed = s.variant.to_deploy.get(&u.id).copied().flatten().map(|h| format!(", printed {h}")).unwrap_or_default();
        t.push_str(&format!("        {}: \"{hex}\"   # {} {a}-{d}-{m}{printed}\n", u.id, u.name));
    }
    if side == Side::Central {
        t.push_str("      # hidden: {ID: \"HEX\", ...}   # face down under a unit shown on top (WEF 13.7); move the line here\n");
    }
    t.push_str("  - end_phase\n");
    t
}

/// The nearest hex to `start` (by rings) where `u` may deploy with the units placed so far.
fn nearest(s: &State, u: &Unit, start: Option<HexId>) -> Option<HexId> {
    let ok = |h: HexId| {
        s.board.get(h).is_some_and(|i| home(u.nat, i.country)) && s.units_at(h).all(|o| o.side() == u.side()) && {
            let mut moved = u.clone();
            moved.place = Place::Hex(h);
            super::stacking::room(s, h, &[&moved]).is_ok()
        }
    };
    if let Some(st) = start {
        let mut seen = BTreeSet::from([st]);
        let mut ring = vec![st];
        while !ring.is_empty() {
            let mut found: Vec<HexId> = ring.iter().copied().filter(|&h| ok(h)).collect();
            if !found.is_empty() {
                found.sort();
                return found.first().copied();
            }
            let mut next = Vec::new();
            for h in ring {
                for (_, n) in h.neighbours() {
                    if s.board.get(n).is_some() && seen.insert(n) {
                        next.push(n);
                    }
                }
            }
            ring = next;
        }
    }
    s.board.hexes().map(|(h, _)| h).find(|&h| ok(h))
}

/// `Ruleset::conceal` for a CP `deploy`: each face-down unit becomes a commitment
/// `unit:<id>:<SL>` under the next counter id, numbered hex by hex in the author's secret
/// order of the values (never the order written), and the entry names counters only.
pub fn conceal(s: &State, d: &mut Deploy, order: &IdOrder, next: &mut u32, commit: &mut Vec<(String, String)>) {
    let mut by_hex: BTreeMap<HexId, Vec<String>> = BTreeMap::new();
    for (id, h) in &d.hidden {
        if let Some(u) = s.unit(id) {
            by_hex.entry(*h).or_default().push(fog::value_of(u));
        }
    }
    let mut hidden = BTreeMap::new();
    for (h, mut values) in by_hex {
        order.sort(&mut values, |x| x.clone());
        for val in values {
            let cid = format!("{}{next}", fog::PREFIX);
            *next += 1;
            hidden.insert(cid.clone(), h);
            commit.push((cid, val));
        }
    }
    d.hidden = hidden;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::Hash;
    use crate::engine::Ruleset;

    /// The bot deploys both sides of the bundled Free Setup game; the CP's face-down units
    /// become commitments and counters (13.7), and turn 1 opens at II.A.
    #[test]
    fn bot_deploys_both_sides_with_hidden_stacks() {
        let text = crate::scenarios::find("when-eagles-fight/free-setup").expect("bundled").text;
        let mut s = super::super::WhenEaglesFight::setup(text, None, &super::super::cases::case_seats()).expect("setup");
        let mut ch = crate::dice::Dice::from_seed(&Hash([7; 32]));
        let ru = bot_orders(&s, Side::Russian, &mut ch).expect("russian orders");
        for a in &ru.actions {
            super::super::turn::step(&mut s, Side::Russian, a).expect("russian deployment");
        }
        assert_eq!(s.variant.deploying, Some(Side::Central));
        let cp = bot_orders(&s, Side::Central, &mut ch).expect("cp orders");
        let c = fog::conceal(&s, "central", cp, &IdOrder::trial());
        assert!(!c.commit.is_empty(), "the bot hides some CP stacks");
        s.fog.fresh = c.commit.iter().map(|(id, v)| (id.clone(), Some(v.clone()))).collect();
        for a in &c.orders.actions {
            super::super::turn::step(&mut s, Side::Central, a).expect("cp deployment");
        }
        assert_eq!((s.variant.deploying, s.turn, s.phase), (None, 1, Phase::RussianNewUnits));
        assert_eq!(s.fog.counters.len(), c.commit.len());
        // The FS counters are in play: shown, or under a counter of their batch.
        let shown = |id: &str| s.unit(id).is_some_and(|u| u.hex().is_some());
        let hidden = |id: &str| s.fog.batches.iter().flatten().any(|u| u.id == id);
        assert!(["AH-FS1", "RU-SWF"].iter().all(|id| shown(id) || hidden(id)));
    }

    /// Each side's template holds a complete legal deployment: sent as it stands, it is
    /// accepted and hands the deployment on; the other side's template says it waits.
    #[test]
    fn the_deployment_templates_are_legal_as_they_stand() {
        use crate::engine::Ruleset;
        type W = super::super::WhenEaglesFight;
        let text = crate::scenarios::find("when-eagles-fight/free-setup").expect("bundled").text;
        let mut s = W::setup(text, None, &super::super::cases::case_seats()).expect("setup");
        for side in [Side::Russian, Side::Central] {
            let t = W::template(&s, s.seat(side));
            assert!(t.contains("- deploy:") && t.contains("(WEF 3.9)"), "{t}");
            let other = W::template(&s, s.seat(side.other()));
            assert!(other.contains("nothing is expected"), "{other}");
            let o: Orders = yaml_serde::from_str(&t).expect("the template parses as orders");
            for a in &o.actions {
                super::super::turn::step(&mut s, side, a).unwrap_or_else(|e| panic!("{side:?}: {e:?}\n{t}"));
            }
        }
        assert_eq!((s.variant.deploying, s.turn, s.phase), (None, 1, Phase::RussianNewUnits));
    }
}
