//! Advance after combat (WEF 13.25) and the breakthrough advance (13.26), part of the
//! attacker's decision after a battle (`retreat`).
//!
//! * 13.25: surviving attackers may enter the emptied hex, any of them, within stacking; no MP.
//! * 13.26 (a B result): every attacker may advance up to 3 hexes, and friendly units stacked
//!   with or adjacent to the attackers that have not attacked this phase up to 2 (they then
//!   may not attack in it); the first hex is the attacked one; a unit stops in the first
//!   swamp or mountain hex it enters (a pass hex entered along its route does not stop it).
//!   Reading: frozen Jan/Feb swamps still stop it (digest G.15).
//! * 13.18: heavy artillery moves at most 1 hex, and only with non-artillery units of its hex.
//!
//! Every hex entered obeys what binds a move (12.4, 12.11, 3.2, 6.3, 6.4, 8.1, 8.5) except the
//! MP cost, and takes control (3.8) as a move does.

use std::collections::BTreeSet;

use super::board::{Country, Terrain};
use super::movement::{self, AH_NORTH_LIMIT};
use super::orders::Move;
use super::retreat::{Decision, Stage};
use super::state::{Kind, Nat, Place, Side, State, Unit};
use super::{combat, control, stacking};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// Whether entering `to` from `from` ends a breakthrough advance (13.26).
fn stops(s: &State, from: HexId, to: HexId) -> bool {
    match s.board.get(to).map(|i| i.terrain) {
        Some(Terrain::Swamp | Terrain::Mountain) => true,
        Some(Terrain::Pass) => !s.board.along_route(from, to),
        _ => false,
    }
}

/// The units that may take part in the breakthrough of decision `d` without having attacked
/// (13.26): on the attacker's side, not attacked this phase, able to move, stacked with or
/// adjacent to an attacker's hex (`attacker_hexes`, before the battle).
pub fn neighbours(s: &State, d: &Decision, attacker_hexes: &BTreeSet<HexId>) -> Vec<String> {
    let b = &d.battle;
    if !matches!(d.stage, Stage::Attacker { breakthrough: true, .. }) {
        return vec![];
    }
    s.units
        .iter()
        .filter(|u| u.side() == b.attacker && !b.attackers.contains(&u.id) && !s.attacked.contains(&u.id) && u.factors()[2] > 0)
        .filter(|u| !super::variants::frozen(s, u))
        .filter(|u| u.hex().is_some_and(|h| attacker_hexes.iter().any(|&a| a == h || a.is_adjacent(h))))
        .map(|u| u.id.clone())
        .collect()
}

/// Check and carry out the advances `groups` on `w` (a working copy the caller drops on an
/// error).
pub fn advance(w: &mut State, d: &Decision, attacker_hexes: &BTreeSet<HexId>, groups: &[Move]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut ev = Vec::new();
    if groups.is_empty() {
        return Ok(ev);
    }
    let b = &d.battle;
    let (t, side) = (b.target, b.attacker);
    let breakthrough = matches!(d.stage, Stage::Attacker { breakthrough: true, .. });
    let rule = if breakthrough { "WEF 13.26" } else { "WEF 13.25" };
    if w.occupant(t) == Some(side.other()) {
        return Err(vec![v("WEF 13.25", format!("{t} still holds defenders: nobody advances")).hex(t.to_string())]);
    }
    let extra = neighbours(w, d, attacker_hexes);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut guns: Vec<(String, HexId)> = Vec::new();
    let mut movers: Vec<(String, HexId)> = Vec::new();
    let mut fresh: Vec<String> = Vec::new();
    for g in groups {
        let at = ev.len();
        let mut errs = Vec::new();
        if g.units.is_empty() || g.path.is_empty() {
            return Err(vec![v(rule, "an advance names its units and the hexes it enters")]);
        }
        if g.path[0] != t {
            errs.push(v(rule, format!("an advance enters the attacked hex {t} first")).hex(g.path[0].to_string()));
        }
        let mut reach = 3usize;
        let mut group: Vec<Unit> = Vec::new();
        for id in &g.units {
            let Some(u) = w.unit(id).filter(|u| u.side() == side && u.hex().is_some()) else {
                errs.push(v(rule, "not a unit of the attacker on the map").unit(id.clone()));
                continue;
            };
            if !seen.insert(id.clone()) {
                errs.push(v(rule, "a unit advances once").unit(id.clone()));
                continue;
            }
            let h = u.hex().expect("on the map");
            let max = if b.attackers.contains(id) {
                if breakthrough { 3 } else { 1 }
            } else if extra.contains(id) {
                fresh.push(id.clone());
                2
            } else {
                errs.push(
                    v(
                        rule,
                        if breakthrough {
                            "only the attackers and unengaged units stacked with or adjacent to them break through"
                        } else {
                            "only surviving attackers of this battle advance"
                        },
                    )
                    .unit(id.clone()),
                );
                continue;
            };
            if u.factors()[2] == 0 {
                errs.push(v(rule, "a unit without movement allowance does not advance").unit(id.clone()));
            }
            let max = if u.kind == Kind::Heavy {
                guns.push((id.clone(), h));
                1
            } else {
                movers.push((id.clone(), h));
                max
            };
            reach = reach.min(max);
            group.push(u.clone());
        }
        if g.path.len() > reach {
            errs.push(v(
                if reach == 1 && group.iter().any(|u| u.kind == Kind::Heavy) { "WEF 13.18" } else { rule },
                format!("the group may advance {reach} hex(es), not {}", g.path.len()),
            ));
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        let ids: Vec<String> = group.iter().map(|u| u.id.clone()).collect();
        let german = group.iter().any(|u| u.nat.german() && u.kind != Kind::Heavy);
        let ah = group.iter().any(|u| u.nat == Nat::AH);
        let mut prev: Option<HexId> = None;
        for (i, &to) in g.path.iter().enumerate() {
            let froms: Vec<HexId> = match prev {
                Some(p) => vec![p],
                None => group.iter().filter_map(|u| w.unit(&u.id).and_then(Unit::hex)).collect(),
            };
            for &f in &froms {
                movement::step_cost(w, f, to).map_err(|e| vec![e])?;
            }
            if w.occupant(to) == Some(side.other()) && !(side == Side::Russian && w.units_at(to).all(|u| u.kind == Kind::Heavy)) {
                return Err(vec![v("WEF 12.4", format!("{to} holds enemy units")).hex(to.to_string())]);
            }
            let country = w.board.get(to).map(|i| i.country);
            if super::brusilov::neutral(w, to) {
                return Err(vec![super::brusilov::neutral_violation(to)]);
            }
            if let Some(u) = group.iter().find(|u| super::brusilov::romanian_too_far_north(u, to)) {
                return Err(vec![super::brusilov::north_violation(u, to)]);
            }
            if ah && country == Some(Country::Germany) {
                return Err(vec![v("WEF 6.3", format!("A-H units never enter Germany ({to})")).hex(to.to_string())]);
            }
            if ah && to.col < AH_NORTH_LIMIT && !german {
                return Err(vec![
                    v("WEF 6.3", format!("north of hex row xx{AH_NORTH_LIMIT} an A-H unit moves only stacked with a German unit ({to})"))
                        .hex(to.to_string()),
                ]);
            }
            let refs: Vec<&Unit> = group.iter().collect();
            stacking::room(w, to, &refs).map_err(|e| vec![e])?;
            let combined = combat::combined_germans(w, &ids, Some(to));
            if combined > combat::combined_limit(w) && combined > combat::combined_germans(w, &[], None) {
                return Err(vec![
                    v(
                        "WEF 6.4",
                        format!("{combined} German units would stand in combined stacks; the limit is {}", combat::combined_limit(w)),
                    )
                    .hex(to.to_string()),
                ]);
            }
            if i + 1 < g.path.len() && froms.iter().any(|&f| stops(w, f, to)) {
                return Err(vec![
                    v("WEF 13.26", format!("the advance stops on entering the swamp or mountain hex {to}")).hex(to.to_string()),
                ]);
            }
            // 13.18: Russians entering lone German heavy artillery destroy it.
            let caught: Vec<String> = w.units_at(to).filter(|u| u.side() != side).map(|u| u.id.clone()).collect();
            for c in caught {
                if let Some(u) = w.unit_mut(&c) {
                    u.place = Place::Eliminated;
                    u.sl = 0;
                }
                ev.push(Event::rule("WEF 13.18", format!("{c} is caught alone in {to} and destroyed")));
            }
            for id in &ids {
                if let Some(u) = w.unit_mut(id) {
                    u.place = Place::Hex(to);
                }
            }
            let cav = control::all_cavalry(w, &ids);
            ev.extend(control::enter(w, to, side, cav));
            if w.outcome.is_none()
                && let Some(o) = control::capital_win(w, to, side)
            {
                ev.push(Event::rule("WEF 4.2", crate::engine::game::describe_outcome(&o)));
                w.outcome = Some(o);
            }
            prev = Some(to);
        }
        let trail: Vec<String> = g.path.iter().map(HexId::to_string).collect();
        ev.insert(at, Event::rule(rule, format!("{} advance {}", ids.join(", "), trail.join(" → "))));
    }
    // 13.18: the guns go only with non-artillery units leaving their hex.
    for (g, h) in &guns {
        if !movers.iter().any(|(_, m)| m == h) {
            return Err(vec![
                v("WEF 13.18", format!("heavy artillery advances only with non-artillery units leaving {h}")).unit(g.clone()),
            ]);
        }
    }
    // 13.26: the unengaged units that broke through may not attack this phase.
    w.attacked.extend(fresh);
    Ok(ev)
}
