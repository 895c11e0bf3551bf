//! Regular movement (WEF 12), with the stacking (8.1, 8.2, 8.5), cooperation (6.3),
//! neutrality (3.2) and first-turn (3.5) limits that bind a move, and the control (3.8) and
//! instant victory (4.2) a move can cause.

use super::board::{Country, Terrain};
use super::orders::Move;
use super::state::{Kind, Nat, Place, Side, State, Unit};
use super::{control, stacking};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The hex row (last two digits) north of which A-H units need German company (6.3).
pub const AH_NORTH_LIMIT: u8 = 20;

/// MP to enter `to` from `from` in regular movement (12.8, 12.10), or why it cannot be
/// entered (12.4 is checked by the caller, which knows the moving side).
pub fn step_cost(s: &State, from: HexId, to: HexId) -> Result<u32, Violation> {
    if !from.is_adjacent(to) {
        return Err(Violation::new("WEF 12.1", format!("{from} → {to}: units move from hex to adjacent hex")).hex(to.to_string()));
    }
    let Some(info) = s.board.get(to) else {
        return Err(
            Violation::new("WEF 12.11", format!("{to} is not a land hex of the map (there is no sea movement)")).hex(to.to_string())
        );
    };
    if s.board.sea_side(from, to) {
        return Err(Violation::new("WEF 12.11", format!("{from} → {to} crosses an all-sea hexside")).hex(to.to_string()));
    }
    if s.board.lake(from, to) && !s.winter() {
        return Err(Violation::new(
            "WEF 12.11",
            format!("{from} → {to} crosses a lake hexside, open to regular movement only in Jan/Feb turns"),
        )
        .hex(to.to_string()));
    }
    let tec = &s.charts.tec;
    Ok(match info.terrain {
        Terrain::Clear => tec.clear.mp,
        Terrain::Forest => tec.forest.mp,
        Terrain::Swamp => {
            if s.winter() {
                tec.swamp.winter_mp.unwrap_or(tec.swamp.mp)
            } else {
                tec.swamp.mp
            }
        }
        Terrain::Mountain => tec.mountain.mp,
        Terrain::Pass => {
            if s.board.along_route(from, to) {
                tec.pass.route_mp.unwrap_or(tec.pass.mp)
            } else {
                tec.pass.mp
            }
        }
    })
}

/// The movement allowance a unit has left this phase.
fn left(s: &State, u: &Unit) -> u32 {
    u32::from(u.factors()[2]).saturating_sub(s.spent.get(&u.id).copied().unwrap_or(0))
}

/// Whether `u` may still start or continue a move this phase (12.2, 12.6).
fn may_move(s: &State, u: &Unit) -> bool {
    !s.spent.contains_key(&u.id) || s.moving.contains(&u.id)
}

/// Check a move; every violation found.
pub fn check(s: &State, side: Side, m: &Move) -> Vec<Violation> {
    let mut errs = Vec::new();
    if !(s.phase.movement() && s.phase.side() == side) {
        return vec![Violation::new("WEF 12.1", format!("units move only in their own Regular Movement phase; now: {}", s.phase.title()))];
    }
    if m.units.is_empty() || m.path.is_empty() {
        return vec![Violation::new("WEF 12.1", "a move names at least one unit and one hex to enter")];
    }
    let mut start: Option<HexId> = None;
    let mut group: Vec<&Unit> = Vec::new();
    for id in &m.units {
        let Some(u) = s.unit(id) else {
            errs.push(Violation::new("WEF 12.1", format!("no unit {id}")).unit(id.clone()));
            continue;
        };
        if group.iter().any(|g| g.id == u.id) {
            errs.push(Violation::new("WEF 12.5", "a unit is named twice").unit(id.clone()));
            continue;
        }
        if u.side() != side {
            errs.push(Violation::new("WEF 12.1", "not your unit").unit(id.clone()));
            continue;
        }
        let Some(h) = u.hex() else {
            errs.push(Violation::new("WEF 12.1", "the unit is not on the map").unit(id.clone()));
            continue;
        };
        if u.factors()[2] == 0 {
            errs.push(Violation::new("WEF 12.1", "the unit has no movement allowance").unit(id.clone()));
        }
        if !may_move(s, u) {
            errs.push(
                Violation::new("WEF 12.2", "the unit has finished its move: another unit or group has moved since (12.6)").unit(id.clone()),
            );
        }
        if super::variants::frozen(s, u) {
            errs.push(Violation::new("WEF 3.5", "the A-H 2nd Army may not move in turn 1").unit(id.clone()));
        }
        match start {
            None => start = Some(h),
            Some(st) if st != h => {
                errs.push(Violation::new("WEF 12.5", format!("a group moves from one hex; the unit is in {h}, not {st}")).unit(id.clone()))
            }
            _ => {}
        }
        group.push(u);
    }
    if !errs.is_empty() {
        return errs;
    }
    let start = start.expect("a unit");
    // 12.7: the group moves at the rate of its slowest unit.
    let allowance = group.iter().map(|u| left(s, u)).min().unwrap_or(0);
    let fresh = group.iter().all(|u| !s.spent.contains_key(&u.id));
    let german_in_group = group.iter().any(|u| u.nat.german());
    let ah: Vec<&&Unit> = group.iter().filter(|u| u.nat == Nat::AH).collect();
    let mut spent = 0;
    let mut at = start;
    for (i, &to) in m.path.iter().enumerate() {
        let cost = match step_cost(s, at, to) {
            Ok(c) => c,
            Err(v) => {
                errs.push(v);
                break;
            }
        };
        // 12.3: a unit that has not moved may always enter one adjacent hex, spending all it has.
        let minimum = fresh && i == 0 && m.path.len() == 1;
        if spent + cost > allowance && !minimum {
            errs.push(
                Violation::new(
                    "WEF 12.1",
                    format!("entering {to} costs {cost} MP, and the group has {} of {allowance} left", allowance - spent),
                )
                .hex(to.to_string()),
            );
            break;
        }
        spent += cost;
        if let Some(enemy) = s.occupant(to).filter(|o| *o != side) {
            let lone_guns = s.units_at(to).all(|u| u.kind == Kind::Heavy);
            if !(lone_guns && side == Side::Russian && enemy == Side::Central) {
                errs.push(Violation::new("WEF 12.4", format!("{to} holds enemy units")).hex(to.to_string()));
                break;
            }
        }
        let country = s.board.get(to).map(|i| i.country);
        if super::brusilov::neutral(s, to) {
            errs.push(super::brusilov::neutral_violation(to));
            break;
        }
        if let Some(u) = group.iter().find(|u| super::brusilov::romanian_too_far_north(u, to)) {
            errs.push(super::brusilov::north_violation(u, to));
            break;
        }
        if let Some(u) = ah.first().filter(|_| country == Some(Country::Germany)) {
            errs.push(Violation::new("WEF 6.3", format!("A-H units never enter Germany ({to})")).unit(u.id.clone()).hex(to.to_string()));
            break;
        }
        if let Some(u) = ah.first().filter(|_| to.col < AH_NORTH_LIMIT && !german_in_group) {
            errs.push(
                Violation::new(
                    "WEF 6.3",
                    format!("north of hex row xx{AH_NORTH_LIMIT} an A-H unit moves only stacked with a German unit ({to})"),
                )
                .unit(u.id.clone())
                .hex(to.to_string()),
            );
            break;
        }
        if let Err(v) = stacking::room(s, to, &group) {
            errs.push(v);
            break;
        }
        let combined = super::combat::combined_germans(s, &m.units, Some(to));
        if combined > super::combat::combined_limit(s) && combined > super::combat::combined_germans(s, &[], None) {
            errs.push(
                Violation::new(
                    "WEF 6.4",
                    format!(
                        "{combined} German units would stand in combined stacks with A-H units; the limit in turn {} is {}",
                        s.turn,
                        super::combat::combined_limit(s)
                    ),
                )
                .hex(to.to_string()),
            );
            break;
        }
        at = to;
    }
    // 6.3: German units may not leave A-H units alone north of xx20.
    if errs.is_empty() && start.col < AH_NORTH_LIMIT && german_in_group {
        let left_behind: Vec<&Unit> = s.units_at(start).filter(|u| !m.units.contains(&u.id)).collect();
        let german_stays = left_behind.iter().any(|u| u.nat.german() && u.kind != Kind::Heavy);
        if let Some(u) = left_behind.iter().find(|u| u.nat == Nat::AH).filter(|_| !german_stays) {
            errs.push(
                Violation::new("WEF 6.3", format!("the move would leave A-H units alone north of hex row xx{AH_NORTH_LIMIT} in {start}"))
                    .unit(u.id.clone())
                    .hex(start.to_string()),
            );
        }
    }
    errs
}

/// Carry out a checked move.
pub fn apply(s: &mut State, side: Side, m: &Move) -> Vec<Event> {
    let mut ev = Vec::new();
    let start = s.unit(&m.units[0]).and_then(Unit::hex).expect("checked");
    // 12.2, 12.6: a new group starts; every unit that moved before is done.
    if !m.units.iter().all(|id| s.moving.contains(id)) {
        s.moving = m.units.iter().cloned().collect();
    } else {
        s.moving.retain(|id| m.units.contains(id));
    }
    let allowance = m.units.iter().filter_map(|id| s.unit(id)).map(|u| left(s, u)).min().unwrap_or(0);
    let cavalry_only = control::all_cavalry(s, &m.units);
    let mut at = start;
    let mut spent = 0;
    let mut trail = vec![start.to_string()];
    for &to in &m.path {
        spent += step_cost(s, at, to).unwrap_or(0);
        // 13.18: Russians entering a hex of lone German heavy artillery destroy it.
        let guns: Vec<String> = s.units_at(to).filter(|u| u.side() != side && u.kind == Kind::Heavy).map(|u| u.id.clone()).collect();
        for g in guns {
            if let Some(u) = s.unit_mut(&g) {
                u.place = Place::Eliminated;
                u.sl = 0;
            }
            ev.push(Event::rule("WEF 13.18", format!("{g} is caught alone in {to} and destroyed")));
        }
        for id in &m.units {
            if let Some(u) = s.unit_mut(id) {
                u.place = Place::Hex(to);
            }
        }
        trail.push(to.to_string());
        ev.extend(control::enter(s, to, side, cavalry_only));
        if s.outcome.is_none()
            && let Some(o) = control::capital_win(s, to, side)
        {
            ev.push(Event::rule("WEF 4.2", crate::engine::game::describe_outcome(&o)));
            s.outcome = Some(o);
        }
        at = to;
    }
    for id in &m.units {
        let ma = s.unit(id).map(|u| u32::from(u.factors()[2])).unwrap_or(0);
        let e = s.spent.entry(id.clone()).or_insert(0);
        // 12.3: a minimum move uses the whole allowance.
        *e = if spent > allowance { ma } else { *e + spent };
    }
    ev.insert(0, Event::say(format!("{} move {} ({spent} MP)", m.units.join(", "), trail.join(" → "))));
    ev
}
