//! Cavalry refusing a melee (JDG 8.8) by a standing policy of the defending seat.
//!
//! The refusal is the inactive seat's choice between the melee declaration and the
//! attacker's engagement tests (digest F.1 #14). By mail it is a **standing policy**
//! (digest F.4): each seat's orders may carry `refuse: never | one_hex | two_hexes` in its
//! phase-A or activation entries; the policy in force for a melee is the one in the state
//! when the melee is resolved, which is before the orders of the entry whose dice resolve
//! it (the defender's settling entry cannot change it for that melee: its author knows the
//! dice). A live answer would need an extra round trip per declaration. Default `never`.
//!
//! When the policy says so, a defending hex holding only cavalry refuses before the ETs if
//! the attack is one 8.8 allows (infantry among the attackers; or, for a hex without heavy
//! cavalry, heavy cavalry among cavalry attackers); every unit of it takes a CT (+1 for one
//! hex, −2 for two, none against cavalry alone, 8.8.2), a failure one disorder; then the
//! stack moves by the default path policy (away from the attackers, fewest extra
//! disorders, then the lowest hex ids): a hex costing 3 MP or more and each enemy front-ZOC
//! hex entered cost one disorder each, never from one hex of an enemy unit's ZOC into
//! another of the same unit's. The melee against that hex is void; its units count as
//! attacked. When every defender of the combat refused and the declaration asked for it
//! (`advance_after_refusal: true`, a standing choice made before any die), the attacker
//! advances into the hex the cavalry left as after a melee (8.7.1: one unit, or its stack
//! when several stacks attacked, one vertex of turn, terrain disorder), infantry first, and
//! the artillery stacked with the advancing infantry goes with it (`follow`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::disorder::disorder;
use super::movement::{has_zoc, side_cost, stack_problem, zoc_sources};
use super::scenario::Kind;
use super::state::State;
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::hex::HexId;

/// The rule.
pub const RULE: &str = "JDG 8.8.1";

/// A seat's standing refusal policy (JDG 8.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Cavalry fights every melee.
    #[default]
    Never,
    /// Cavalry refuses by one hex when it may.
    OneHex,
    /// Cavalry refuses by two hexes when it may.
    TwoHexes,
}

impl Refusal {
    /// Hexes of the move.
    fn hexes(self) -> usize {
        match self {
            Refusal::Never => 0,
            Refusal::OneHex => 1,
            Refusal::TwoHexes => 2,
        }
    }
}

/// The policy of a side.
pub fn policy(s: &State, side: &str) -> Refusal {
    s.refusal.get(side).copied().unwrap_or_default()
}

/// Whether the defending hex `d` may refuse the attack of the units in `from` (8.8.1,
/// 8.8.2), and if so whether its units take a CT.
fn allowed(s: &State, side: &str, from: &[HexId], d: HexId) -> Option<bool> {
    let def: Vec<_> = s.units_at(d).filter(|u| u.side != side).collect();
    if def.is_empty() || def.iter().any(|u| u.kind != Kind::Cavalry || u.routed || s.refused.contains(&u.id)) {
        return None;
    }
    let att: Vec<_> = from.iter().flat_map(|a| super::melee::fighters(s, *a)).collect();
    let heavy = |id: &str| s.data(id).is_some_and(|x| x.heavy);
    if att.iter().any(|u| u.kind == Kind::Infantry) {
        return Some(true);
    }
    (att.iter().any(|u| heavy(&u.id)) && !def.iter().any(|u| heavy(&u.id))).then_some(false)
}

/// Refusals of the defending hexes of one combat before its ETs; returns the events and
/// the hexes that refused (the melee against them is void).
pub fn refuse(s: &mut State, side: &str, from: &[HexId], at: &[HexId], dice: &mut Dice) -> (Vec<Event>, Vec<HexId>) {
    let mut ev = Vec::new();
    let mut gone = Vec::new();
    for &d in at {
        let Some(owner) = s.units_at(d).find(|u| u.side != side).map(|u| u.side.clone()) else { continue };
        let p = policy(s, &owner);
        if p == Refusal::Never {
            continue;
        }
        let Some(ct) = allowed(s, side, from, d) else { continue };
        let ids: Vec<String> = s.units_at(d).map(|u| u.id.clone()).collect();
        let n = p.hexes();
        let Some((extra, path)) = path(s, &owner, &ids, d, n, from) else {
            ev.push(Event::rule(RULE, format!("{} in {d} cannot refuse by {n} hex(es): no way out; they fight", ids.join(", "))));
            continue;
        };
        let end = *path.last().unwrap_or(&d);
        ev.push(Event::rule(
            RULE,
            format!("refusal of the melee by {} ({owner} standing policy): {n} hex(es), {d} → {}", ids.join(", "), fmt(&path)),
        ));
        s.meleed.extend(ids.iter().cloned());
        s.refused.extend(ids.iter().cloned());
        // 8.8.1: the CT comes first, before anything the move causes.
        let drm = if n == 1 { 1 } else { -2 };
        let weather = if s.night() {
            2
        } else if s.fog() {
            1
        } else {
            0
        };
        let mut fails = Vec::new();
        if ct {
            for id in &ids {
                let die = dice.roll(10);
                let c = s.unit(id).map(|u| i32::from(s.face(u).cohesion)).unwrap_or(0);
                let total = die as i32 + drm + weather;
                ev.push(Event::roll(format!("{RULE}: cohesion test of {id} refusing"), "d10", die));
                ev.push(Event::rule(
                    RULE,
                    format!(
                        "{id} {} its refusal test: {die} {drm:+}{} against cohesion {c}",
                        if total > c { "fails" } else { "passes" },
                        if weather != 0 { format!(" {weather:+} (JDG 12)") } else { String::new() }
                    ),
                ));
                if total > c {
                    fails.push(id.clone());
                }
            }
        } else {
            ev.push(Event::rule("JDG 8.8.2", "a refusal before heavy cavalry takes no cohesion test"));
        }
        // 6.1.1: joining friends, the stack takes their facing.
        let conform = s.units_at(end).find(|u| u.kind != Kind::Artillery && !u.routed).map(|u| u.facing);
        if let Some(first) = ids.first() {
            ev.extend(super::chief::follow(s, &owner, first, d, Some(end)));
        }
        for id in &ids {
            if let Some(i) = s.units.iter().position(|x| x.id == *id) {
                let mut x = s.units.remove(i);
                x.hex = Some(end);
                if let Some(f) = conform {
                    x.facing = f;
                }
                s.units.insert(0, x);
            }
        }
        super::turn::note_holder(s, end, &owner);
        for id in &ids {
            let times = usize::from(extra) + usize::from(fails.contains(id));
            for _ in 0..times {
                ev.extend(disorder(s, id, false, &[d]));
            }
        }
        gone.push(d);
    }
    (ev, gone)
}

/// The attacker's advance into the hex the refusing cavalry left (8.8.1), when the
/// declaration asked for it; `gone` the refused hexes, the first one entered.
pub fn follow(s: &mut State, side: &str, c: &super::melee::Combat, gone: &[HexId]) -> Vec<Event> {
    if !c.advance_after_refusal {
        return vec![Event::rule(RULE, "the declaration asked for no advance after a refusal: nobody enters the hex the cavalry left")];
    }
    let from: Vec<HexId> = c.from.iter().copied().filter(|a| super::melee::fighters(s, *a).any(|u| u.side == side)).collect();
    let empty: Vec<HexId> = gone.iter().copied().filter(|d| s.units_at(*d).next().is_none()).collect();
    super::melee::advance(s, side, c, &from, &empty, true)
}

fn fmt(path: &[HexId]) -> String {
    path.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" → ")
}

/// The refusal path of the stack `ids` of `side` from `d`, `n` hexes, by the default path
/// policy; with its extra disorders (3-MP hexes, enemy front-ZOC hexes).
fn path(s: &State, side: &str, ids: &[String], d: HexId, n: usize, attackers: &[HexId]) -> Option<(u8, Vec<HexId>)> {
    let mut best: Option<(u8, Vec<HexId>)> = None;
    let mut stack = vec![(vec![d], 0u8)];
    while let Some((p, extra)) = stack.pop() {
        let at = *p.last().unwrap_or(&d);
        if p.len() == n + 1 {
            let mut w = s.clone();
            for id in ids {
                if let Some(x) = w.unit_mut(id) {
                    x.hex = Some(at);
                }
            }
            if stack_problem(&w, at).is_some() {
                continue;
            }
            let key = (extra, p[1..].to_vec());
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
            continue;
        }
        for (_, b) in at.neighbours() {
            // Away from every attacker at each step: a 2-hex refusal takes the unit 2 hexes
            // further from them (8.8.1).
            if !attackers.iter().all(|a| b.distance(*a) > at.distance(*a)) {
                continue;
            }
            if p.contains(&b) || !s.scenario.terrain_of.contains_key(&b) || s.units_at(b).any(|x| x.side != side) {
                continue;
            }
            if super::reinforce::closed(s, side, b) || side_cost(s, Kind::Cavalry, at, b).is_none() {
                continue;
            }
            let Some(cost) = s.scenario.terrain_of.get(&b).and_then(|t| s.scenario.terrain.get(t)).and_then(|c| c.for_kind(Kind::Cavalry))
            else {
                continue;
            };
            // 6.2.2: never from one ZOC hex of an enemy unit into another of the same unit.
            let here: Vec<String> = zoc_sources(s, side, at).map(|e| e.id.clone()).collect();
            if zoc_sources(s, side, b).any(|e| here.contains(&e.id)) {
                continue;
            }
            let heavy_ground = u8::from(u32::from(cost) + u32::from(side_cost(s, Kind::Cavalry, at, b).unwrap_or(0)) >= 6);
            let front = u8::from(s.units.iter().any(|e| {
                e.side != side
                    && has_zoc(e)
                    && e.hex.is_some_and(|eh| eh.is_adjacent(b) && e.face().front_hex(eh, b, s.scenario.all_round(eh)))
            }));
            let mut q = p.clone();
            q.push(b);
            stack.push((q, extra + heavy_ground + front));
        }
    }
    best
}
