//! Artillery (RTL-12, with 3.54a, 3.55, 6.14d, 10.27–10.28, 10.42, 11.13): who may support
//! which combat, the attacker's named support and the defender's standing one, the two
//! coordination checks (digest E.4), the halvings, the cap at the side's own ground
//! strength, and the Fired face until an in-supply Reorganization.
//!
//! Readings (docs/roads-to-leningrad/rules.md): the attacker names his supporting artillery
//! in the declaration (RTL-10.42a, 12.11); the defender's support outside the defending hex
//! comes from his standing list (`defensive_artillery`, digest G.4: none until he writes
//! one), each listed unit firing in the first combat of a Combat Phase that it is eligible
//! for, in resolution order; inside the defending hex one artillery unit supports by itself
//! when the hex also holds a non-artillery combat unit (12.23), the highest support, ties
//! by id. Every check is an ordinary die of the entry that declared the combat, rolled
//! before the ground coordination and the combat roll, attacker first (10.4, 10.42b).

use super::combat::{d10, defending_lead};
use super::movement::{active_unit, in_ezoc};
use super::scenario::{Gun, Kind, Terrain};
use super::state::{Attack, Os, State, Supply, Weather};
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::hex::HexId;

/// The gun of an artillery unit.
pub fn gun(s: &State, id: &str) -> Option<Gun> {
    s.data(id).and_then(|d| d.gun)
}

/// Why `id` cannot support `side`'s attack on `target` now, with the rule it breaks
/// (RTL-12.13a, b, d; 12.14), or `None` when it can.
pub fn attack_ineligible(s: &State, side: &str, id: &str, target: HexId) -> Option<(&'static str, String)> {
    let (Some(u), Some(g)) = (s.unit(id), gun(s, id)) else {
        return Some(("RTL-12.0", format!("{id} is not an artillery unit")));
    };
    if u.side != side {
        return Some(("RTL-12.0", format!("{id} is not one of your artillery units")));
    }
    let Some(h) = u.hex else { return Some(("RTL-12.13", format!("{id} is not on the map"))) };
    if !active_unit(s, u) {
        return Some(("RTL-12.13", format!("{id} is neither of the active formation nor an Army unit activated with it (12.13b)")));
    }
    if u.fired {
        return Some(("RTL-12.13", format!("{id} has Fired this turn (12.13d, 12.19)")));
    }
    if u.disrupted {
        return Some(("RTL-12.13", format!("{id} is Disrupted (12.13d)")));
    }
    if h.distance(target) > g.range {
        return Some(("RTL-12.13", format!("{target} is {} hexes from {id}, beyond its range {} (12.13a)", h.distance(target), g.range)));
    }
    if in_ezoc(s, h, side) && !h.is_adjacent(target) {
        return Some(("RTL-12.14", format!("{id} stands in an enemy ZOC: it supports only an attack on a hex next to it")));
    }
    None
}

/// Whether `id` may support the defence of `target` now (RTL-12.0 "A", 12.13a, c, d;
/// 12.14 and 12.25: artillery in an enemy ZOC, however it got there, supports only its own
/// hex). `lead_formation` is the formation of the defending lead unit (12.13c).
pub fn defence_eligible(s: &State, id: &str, target: HexId, lead_formation: Option<&str>) -> bool {
    let (Some(u), Some(g)) = (s.unit(id), gun(s, id)) else { return false };
    let Some(h) = u.hex else { return false };
    if g.offensive_only || u.fired || u.disrupted || h.distance(target) > g.range {
        return false;
    }
    if u.formation != "army" && Some(u.formation.as_str()) != lead_formation {
        return false;
    }
    h == target || !in_ezoc(s, h, &u.side)
}

/// The artillery in the defending hex that supports it (RTL-12.21–12.23): only with a
/// non-artillery, non-HQ combat unit there; among the eligible ones the highest support,
/// ties by id (the owner's choice of 12.17, made for him).
pub fn in_hex_supporter(s: &State, target: HexId) -> Option<String> {
    let mixed = s.units_at(target).any(|u| s.data(&u.id).is_some_and(|d| !d.artillery() && d.kind != Kind::Headquarters));
    if !mixed {
        return None;
    }
    let lead = defending_lead(s, target).and_then(|l| s.unit(&l).map(|u| u.formation.clone()));
    let mut guns: Vec<(u32, String)> = s
        .units_at(target)
        .filter(|u| defence_eligible(s, &u.id, target, lead.as_deref()))
        .filter_map(|u| gun(s, &u.id).map(|g| (g.support, u.id.clone())))
        .collect();
    guns.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    guns.into_iter().next().map(|(_, id)| id)
}

/// The defence of a hex before support: every unit's defense, except the artillery unit
/// that supports it instead (RTL-12.15, 12.23).
pub fn defense_without(s: &State, target: HexId, supporter: Option<&str>) -> u32 {
    s.units_at(target).filter(|u| Some(u.id.as_str()) != supporter).map(|u| s.face(u).defense).sum()
}

/// The artillery support a combat receives, worked out when it is resolved.
#[derive(Debug, Default)]
pub struct Support {
    /// Support added to the attack (RTL-10.51), after halvings and the cap.
    pub attack: u32,
    /// Support added to the defence, after halvings and the cap.
    pub defence: u32,
    /// The artillery of the defending hex that uses its support, not its defense (12.23).
    pub in_hex: Option<String>,
    /// The attacker's supporting artillery next to the defending hex: it shares the
    /// attackers' results (12.16); the others never suffer any (11.13).
    pub adjacent: Vec<String>,
}

/// Coordination result (RTL-10.42c, digest E.4).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Coord {
    Full,
    Half,
    None,
}

/// One side's check: lead, roll, outcome, with its events (RTL-10.42b–c; digest E.4 DRMs:
/// Mobile +1, Assault −1, woods in the defending hex +2; the CPs named for it, 15.33). The
/// check `cp` names the defending hex.
fn check(s: &mut State, side: &str, lead: &str, os: Os, cp: super::command::Check, dice: &mut Dice, ev: &mut Vec<Event>) -> Coord {
    // Both callers name an attack's or a defending hex's check, which always has its hex.
    let Some(target) = cp.hex() else { return Coord::None };
    let mut drm = match os {
        Os::Mobile => 1,
        _ => -1,
    } + super::command::take(s, &cp, lead, ev);
    if s.scenario.woods.contains(&target) {
        drm += 2;
    }
    let er = s.unit(lead).map(|u| s.er(u)).unwrap_or(1);
    let r = d10(dice);
    let m = r as i32 + drm;
    let c = if m >= 10 {
        Coord::None
    } else if m <= er as i32 {
        Coord::Full
    } else {
        Coord::Half
    };
    ev.push(Event::roll(format!("RTL-10.42: {side} artillery coordination of {lead} (ER {er}, DRM {drm:+})"), "d10", r));
    let w = match c {
        Coord::Full => "passed: full support",
        Coord::Half => "above the ER: support halved",
        Coord::None => "10 or more: no support",
    };
    ev.push(Event::rule("RTL-10.42", format!("{side} artillery coordination {w} (modified roll {m})")));
    c
}

/// One side's total: each unit halved on its own (3.54a) for a half coordination, then for
/// a swamp defending hex or a marsh one in Rain (3.55, 10.28), never below 1; then capped
/// at the side's own ground strength (10.42e, 12.13f).
fn total(s: &State, units: &[(String, Coord)], target: HexId, cap: u32, side: &str, ev: &mut Vec<Event>) -> u32 {
    if units.is_empty() {
        return 0;
    }
    let t = s.scenario.terrain.get(&target).copied();
    let boggy = t == Some(Terrain::Swamp) || (t == Some(Terrain::Marsh) && s.weather == Weather::Rain);
    let mut sum = 0;
    let mut parts = Vec::new();
    for (id, c) in units {
        let mut v = gun(s, id).map(|g| g.support).unwrap_or(0);
        match c {
            Coord::None => v = 0,
            Coord::Half => v = (v / 2).max(1),
            Coord::Full => {}
        }
        if boggy && v > 0 {
            v = (v / 2).max(1);
        }
        sum += v;
        parts.push(format!("{id} {v}"));
    }
    let capped = sum.min(cap);
    ev.push(Event::rule(
        "RTL-10.42",
        format!(
            "{side} artillery support {capped} ({}{}{})",
            parts.join(", "),
            if boggy { "; halved: swamp, or marsh in Rain, 10.28" } else { "" },
            if capped < sum { format!("; capped at the ground strength {cap}, 12.13f") } else { String::new() }
        ),
    ));
    capped
}

/// Work out both sides' artillery support for `a`, rolling the coordination checks
/// (attacker first), and flip every committed unit to Fired (RTL-10.42d, 12.19).
/// `ground` is the attackers' halved ground strength (the attacker's cap).
pub fn support(s: &mut State, a: &Attack, os: Os, ground: u32, dice: &mut Dice) -> (Support, Vec<Event>) {
    let mut ev = Vec::new();
    let mut out = Support::default();
    let side = s.unit(&a.lead).map(|u| u.side.clone()).unwrap_or_default();
    let enemy = s.scenario.other(&side);
    // The attacker's named artillery that can still fire (an earlier combat of the phase may
    // have put an enemy next to it, 12.14).
    let mut mine = Vec::new();
    for id in &a.artillery {
        match attack_ineligible(s, &side, id, a.target) {
            None => mine.push(id.clone()),
            Some((rule, why)) => ev.push(Event::rule(rule, format!("{why}: it does not support the attack on {}", a.target))),
        }
    }
    let near = |s: &State, id: &str| s.unit(id).and_then(|u| u.hex).is_some_and(|h| h.is_adjacent(a.target));
    out.adjacent = mine.iter().filter(|id| near(s, id)).cloned().collect();
    let far: Vec<String> = mine.iter().filter(|id| !near(s, id)).cloned().collect();
    // The defender's: the hex's own gun (12.23) and the standing list's eligible units.
    out.in_hex = in_hex_supporter(s, a.target);
    let lead_f = defending_lead(s, a.target).and_then(|l| s.unit(&l).map(|u| u.formation.clone()));
    // The defender's cap: the defense of his non-artillery units in the hex (12.13f); a hex
    // of artillery alone gets no support from outside, so none is spent on it.
    let cap: u32 = s.units_at(a.target).filter(|u| !s.data(&u.id).is_some_and(|d| d.artillery())).map(|u| s.face(u).defense).sum();
    let theirs: Vec<String> = if cap == 0 {
        vec![]
    } else {
        s.defensive_fire
            .get(&enemy)
            .map(|l| {
                l.iter()
                    .filter(|id| s.unit(id).is_some_and(|u| u.side == enemy && u.hex.is_some_and(|h| h != a.target)))
                    .filter(|id| defence_eligible(s, id, a.target, lead_f.as_deref()))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    // Checks: attacker first; only units that are not automatic roll (12.17).
    let mut att: Vec<(String, Coord)> = out.adjacent.iter().map(|id| (id.clone(), Coord::Full)).collect();
    if !far.is_empty() {
        let lead = a.artillery_lead.clone().filter(|l| far.contains(l)).unwrap_or_else(|| far[0].clone());
        let c = check(s, &side, &lead, os, super::command::Check::Artillery(a.target), dice, &mut ev);
        att.extend(far.iter().map(|id| (id.clone(), c)));
    }
    let mut def: Vec<(String, Coord)> = out.in_hex.iter().map(|id| (id.clone(), Coord::Full)).collect();
    if !theirs.is_empty() {
        let mut by_er = theirs.clone();
        by_er.sort_by(|x, y| {
            let (ex, ey) = (s.unit(x).map(|u| s.er(u)).unwrap_or(0), s.unit(y).map(|u| s.er(u)).unwrap_or(0));
            ey.cmp(&ex).then(x.cmp(y))
        });
        let c = check(s, &enemy, &by_er[0].clone(), os, super::command::Check::DefensiveArtillery(a.target), dice, &mut ev);
        def.extend(theirs.iter().map(|id| (id.clone(), c)));
    }
    out.attack = total(s, &att, a.target, ground, &side, &mut ev);
    out.defence = total(s, &def, a.target, cap, &enemy, &mut ev);
    let fired: Vec<String> = att.iter().chain(&def).map(|(id, _)| id.clone()).collect();
    if !fired.is_empty() {
        for id in &fired {
            if let Some(u) = s.unit_mut(id) {
                u.fired = true;
            }
        }
        ev.push(Event::rule("RTL-12.19", format!("{} Fired", fired.join(", "))));
    }
    (out, ev)
}

/// RTL-12.24: after the combat, every surviving artillery unit that defended the hex is
/// Fired (wherever a retreat took it).
pub fn fire_in_hex(s: &mut State, defenders: &[String]) -> Vec<Event> {
    let ids: Vec<String> = defenders
        .iter()
        .filter_map(|id| s.unit(id))
        .filter(|u| u.hex.is_some() && !u.fired && s.data(&u.id).is_some_and(|d| d.artillery()))
        .map(|u| u.id.clone())
        .collect();
    for id in &ids {
        if let Some(u) = s.unit_mut(id) {
            u.fired = true;
        }
    }
    if ids.is_empty() { vec![] } else { vec![Event::rule("RTL-12.24", format!("{} in the defending hex Fired", ids.join(", ")))] }
}

/// RTL-12.19, 6.14d: in the Reorganization Phase artillery in supply turns back to its
/// firing face; artillery out of supply or on Emergency supply stays Fired.
pub fn reorganize(s: &mut State) -> Vec<Event> {
    let mut back = Vec::new();
    let mut kept = Vec::new();
    for u in s.units.iter_mut().filter(|u| u.fired && u.hex.is_some()) {
        if u.supply == Supply::In {
            u.fired = false;
            back.push(u.id.clone());
        } else {
            kept.push(u.id.clone());
        }
    }
    let mut ev = Vec::new();
    if !back.is_empty() {
        ev.push(Event::rule("RTL-12.19", format!("{} ready to fire again (in supply)", back.join(", "))));
    }
    if !kept.is_empty() {
        ev.push(Event::rule("RTL-6.14", format!("{} stay Fired: not in supply (12.13e)", kept.join(", "))));
    }
    ev
}

/// The side's standing list for defensive artillery (RTL-12.11; digest G.4), checked.
pub fn set_defensive(s: &mut State, side: &str, ids: &[String]) -> Result<Vec<Event>, Vec<crate::engine::Violation>> {
    let mut errs = Vec::new();
    let mut list: Vec<String> = Vec::new();
    for id in ids {
        match (s.unit(id), gun(s, id)) {
            (Some(u), Some(g)) if u.side == side => {
                if g.offensive_only {
                    errs.push(crate::engine::Violation::new("RTL-12.0", format!("{id} is marked A: it supports attacks only")));
                } else if !list.contains(id) {
                    list.push(id.clone());
                }
            }
            _ => errs.push(crate::engine::Violation::new("RTL-12.11", format!("{id} is not one of your artillery units"))),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(vec![set_standing(&mut s.defensive_fire, side, list, "RTL-12.11", "defensive artillery")])
}

/// Store `side`'s checked standing list in `lists` (an empty list removes it) and say so:
/// the defensive artillery (RTL-12.11) and the defensive CAS (RTL-13.24a) are kept alike.
pub(super) fn set_standing(
    lists: &mut std::collections::BTreeMap<String, Vec<String>>,
    side: &str,
    list: Vec<String>,
    rule: &str,
    what: &str,
) -> Event {
    let words = if list.is_empty() { "none".to_string() } else { list.join(", ") };
    if list.is_empty() {
        lists.remove(side);
    } else {
        lists.insert(side.to_string(), list);
    }
    Event::rule(rule, format!("the {side} standing instruction for {what}: {words}"))
}
