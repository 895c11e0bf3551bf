//! Operational movement (GE-12.1–12.9) and reinforcement entry (GE-16.3 reading).

use super::stacking;
use super::state::{Kind, MoveState, Phase, Place, SideId, State};
use super::unit_list::{self, ListRules};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// Check a move and, if legal, perform it.
pub fn step_move(state: &mut State, side: SideId, units: &[String], path: &[HexId]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    if state.phase != Phase::Movement {
        return Err(vec![v("GE 12.1", "units move only in their own operational movement phase")]);
    }
    if units.is_empty() {
        return Err(vec![v("GE 12.1", "a move needs at least one unit")]);
    }
    let mut start = None;
    let rules = ListRules {
        twice: ("GE 12.5", "a unit is listed twice"),
        unknown: "GE 12.1",
        foreign: ("GE 12.1", "you may move only your own units"),
        off_map: ("GE 12.1", "the unit is not on the map"),
    };
    for (u, h) in unit_list::check(state, side, units, &rules, &unit_list::no_extra, &mut errs) {
        let id = &u.id;
        if u.kind == Kind::Fortress {
            errs.push(v("GE 14.2", "a fortress never moves").unit(id));
        }
        if u.entrenching {
            errs.push(v("GE 9.2", "a unit that is entrenching may not move this player turn").unit(id));
        }
        if u.strategic.is_some() {
            errs.push(v("GE 12.2", "a unit that used strategic movement does nothing else this player turn").unit(id));
        } else if u.replaced {
            errs.push(v("GE 8.7", "a unit that received replacements this turn may not move").unit(id));
        } else if u.attacked {
            errs.push(v("GE 13.23", "a unit that attacked may not move further this player turn").unit(id));
        } else if u.move_state == MoveState::Done {
            errs.push(v("GE 12.6", "the unit finished its move: another unit or group has moved since").unit(id));
        }
        match start {
            None => start = Some(h),
            Some(s) if s != h => errs.push(v("GE 12.5", format!("units of one group must be in the same hex ({s} and {h})")).unit(id)),
            _ => {}
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let Some(start) = start else { return Err(vec![v("GE 12.1", "nothing to move")]) };
    // GE-12.5, 12.6: either all units are of the group now moving, or all have not moved yet
    // (then they start the phase in this hex, i.e. stacked together).
    let moving: Vec<bool> = units.iter().map(|id| state.unit(id).is_some_and(|u| u.move_state == MoveState::Moving)).collect();
    let continuing = moving.iter().all(|m| *m);
    if !continuing && moving.iter().any(|m| *m) {
        return Err(vec![
            v("GE 12.5", "units that did not start the phase stacked together cannot move as one group").hex(start.to_string()),
        ]);
    }
    let mut path: Vec<HexId> = path.to_vec();
    if path.first() == Some(&start) {
        path.remove(0);
    }
    if path.is_empty() {
        return Err(vec![v("GE 12.1", "the path enters no hex")]);
    }
    let cavalry_in = units.iter().any(|id| state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry));
    // Walk the path.
    let fresh = units.iter().all(|id| state.unit(id).is_some_and(|u| u.mp_spent == 0));
    let mut spent = 0u32;
    let mut prev = start;
    let min_left = units.iter().filter_map(|id| state.unit(id)).map(|u| u.mp_left()).min().unwrap_or(0);
    // What each hex entered cost, and why: the refusal for movement points lists them.
    let mut costs: Vec<String> = Vec::new();
    for (i, &h) in path.iter().enumerate() {
        let hs = h.to_string();
        // Closed countries are on the map but not in play: their own rules (GE 3.2) say why.
        if !state.board.map().contains(h) {
            errs.push(v("GE 12.1", format!("{h} is not a hex of this map")).hex(&hs));
            break;
        }
        if !prev.is_adjacent(h) {
            errs.push(v("GE 12.1", format!("{h} is not adjacent to {prev}")).hex(&hs));
            break;
        }
        let Some(cost) = state.board.entry_cost(prev, h) else {
            errs.push(v("GE 12.3", format!("{h} cannot be entered from {prev}")).hex(&hs));
            break;
        };
        // GE-14.7: enemy siege guns alone do not stop a move (they are eliminated).
        if state.occupant(h) == Some(side.other()) && !super::siege::lone_enemy_guns(state, h, side) {
            errs.push(v("GE 12.4", format!("{h} holds enemy units and cannot be entered")).hex(&hs));
            break;
        }
        // GE-14.3: an ungarrisoned enemy fortified zone takes infantry only, and stops it.
        if super::fortified::ungarrisoned_enemy(state, h, side) {
            if let Some((rule, msg)) = super::fortified::entry_refusal(state, h, side, units) {
                errs.push(v(rule, msg).hex(&hs));
                break;
            }
            if i + 1 < path.len() {
                errs.push(v("GE 14.3", format!("units entering the enemy fortified zone in {h} must stop there")).hex(&hs));
                break;
            }
        }
        if cavalry_in && state.trenches.get(&h).is_some_and(|t| t.side != side) {
            errs.push(v("GE 9.4", format!("cavalry may not enter the enemy trench hex {h}")).hex(&hs));
            break;
        }
        spent += cost;
        costs.push(cost_text(state, prev, h, cost));
        // GE-12.3: a fresh unit may always move one hex with all its MP.
        let minimum = fresh && i == 0 && path.len() == 1;
        if spent > min_left && !minimum {
            let slowest = units.iter().filter_map(|id| state.unit(id)).min_by_key(|u| u.mp_left());
            let slow = slowest.map(|u| u.id.clone()).unwrap_or_default();
            let why = slowest.map(allowance_text).unwrap_or_default();
            errs.push(
                v(
                    if state.board.river(prev, h).is_some() { "GE 12.9" } else { "GE 12.8" },
                    format!(
                        "entering {h} brings the move to {spent} MP ({}); the group has {min_left} MP left (slowest unit {slow}: {why}; GE 12.7)",
                        costs.join(", ")
                    ),
                )
                .unit(slow)
                .hex(&hs),
            );
            break;
        }
        errs.extend(stacking::can_pass(state, h, side, units));
        if !errs.is_empty() {
            break;
        }
        prev = h;
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let end = prev;
    if cavalry_in && state.trenches.get(&end).is_some_and(|t| t.side == side) {
        return Err(vec![v("GE 9.4", format!("cavalry may not end its move in the friendly trench hex {end}")).hex(end.to_string())]);
    }
    let e = stacking::can_end(state, end, side, units);
    if !e.is_empty() {
        return Err(e);
    }
    // Legal: finish the previous group if a new one starts (GE-12.2, 12.6).
    if !continuing {
        for u in state.units.iter_mut().filter(|u| u.move_state == MoveState::Moving) {
            u.move_state = MoveState::Done;
        }
    }
    let cav_only = units.iter().all(|id| state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry));
    let minimum = fresh && path.len() == 1 && spent > min_left;
    // GE-14.3: entering an enemy fortified zone ends the move.
    let stopped = super::fortified::ungarrisoned_enemy(state, end, side);
    for id in units {
        if let Some(u) = state.unit_mut(id) {
            u.move_state = MoveState::Moving;
            u.moved = true;
            if minimum {
                u.mp_spent = u.allowance().max(spent)
            } else {
                u.mp_spent += spent
            }
            u.place = Place::Hex(end);
        }
    }
    let mut overrun = Vec::new();
    for &h in &path {
        overrun.extend(super::siege::overrun(state, h, side));
        state.entered(h, side, cav_only);
    }
    if stopped {
        for id in units {
            if let Some(u) = state.unit_mut(id) {
                u.move_state = MoveState::Done;
            }
        }
        overrun.push(Event::rule(
            "GE 14.3",
            format!("{} enter the enemy fortified zone in {end}: it is removed and they stop", units.join(", ")),
        ));
    }
    let mut trail = vec![start.to_string()];
    trail.extend(path.iter().map(|h| h.to_string()));
    let note = if minimum { " — minimum move, all MP (GE 12.3)" } else { "" };
    let mut ev = vec![Event::rule("GE 12.1", format!("{} move {} ({spent} MP){note}", units.join(", "), trail.join(" → ")))];
    ev.extend(overrun);
    Ok(ev)
}

/// The cost of entering `to` from `from`, with its parts: `3328 forest 2` or
/// `3329 clear 1 + 1 across the Marne (major river)` (GE 12.8, 12.9).
fn cost_text(state: &State, from: HexId, to: HexId, cost: u32) -> String {
    let map = state.board.map();
    let Some(info) = map.hex(to) else { return format!("{to} {cost} MP") };
    let terrain = format!("{:?}", info.terrain).to_lowercase();
    let mut t = format!("{to} {terrain} {}", info.terrain.mp());
    if let Some(side) = map.hexside(from, to)
        && side.extra_mp() > 0
    {
        let name = map.river_name(from, to).map(|n| format!("the {n} (major river)")).unwrap_or_else(|| "a major river".into());
        t.push_str(&format!(" + {} across {name}", side.extra_mp()));
    }
    t
}

/// A unit's movement allowance this phase and why it differs from the printed one: forced
/// march (GE 12.10) adds 1, out of command (GE 10.2) halves, MP already spent are gone.
fn allowance_text(u: &super::state::Unit) -> String {
    let mut t = format!("{} MP allowance", u.now().movement);
    if u.forced_march {
        t.push_str(", +1 forced march (GE 12.10)");
    }
    if u.ooc {
        t.push_str(", halved out of command (GE 10.2)");
    }
    if u.mp_spent > 0 {
        t.push_str(&format!(", {} already spent", u.mp_spent));
    }
    t
}

/// Place a reinforcement at its entry before any unit moves this phase (GE-8.5). On the Marne
/// (GE 16.3) the reinforcements enter by strategic movement: phase D's rail move from the
/// supply edge to a town or city, within rail capacity, after which the unit does nothing
/// else this player turn (11.1; `strategic::entry_violations`).
pub fn step_enter(state: &mut State, side: SideId, id: &str, hex: HexId) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(u) = state.unit(id) else { return Err(vec![v("GE 8.5", super::unit_list::no_such_unit(state, side, id)).unit(id)]) };
    if u.side != side {
        return Err(vec![v("GE 8.5", "you may bring in only your own reinforcements").unit(id)]);
    }
    let Place::Reinforcement(turn) = u.place else { return Err(vec![v("GE 8.5", "the unit is not a waiting reinforcement").unit(id)]) };
    let mut errs = Vec::new();
    if turn > state.turn {
        errs.push(v("GE 16.3", format!("the unit arrives on turn {turn}")).unit(id));
    }
    if super::strategic::enters_by_sm(state, id) {
        if state.phase != Phase::Movement {
            errs.push(v("GE 5.1", "reinforcements enter by strategic movement in phase D").unit(id));
        }
        errs.extend(super::strategic::entry_violations(state, side, id, hex));
        if !errs.is_empty() {
            return Err(errs);
        }
        return Ok(super::strategic::enter(state, side, id, hex));
    }
    if state.phase != Phase::Movement || state.units.iter().any(|u| u.side == side && u.moved) {
        errs.push(v("GE 8.1", "reinforcements enter at the start of the player turn, before any unit moves").unit(id));
    }
    // GE-8.2–8.5: the unit's entry code decides where (`reinforce.rs`).
    if state.occupant(hex) != Some(side.other()) && !super::reinforce::entry_hexes(state, id).contains(&hex) {
        let (rule, msg) = super::reinforce::entry_rule(state, id);
        errs.push(v(rule, msg).unit(id).hex(hex.to_string()));
    } else if state.occupant(hex) == Some(side.other()) {
        errs.push(v("GE 8.5", "the entry hex holds enemy units").unit(id).hex(hex.to_string()));
    } else {
        errs.extend(stacking::can_end(state, hex, side, &[id.to_string()]));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let cav = state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry);
    if let Some(u) = state.unit_mut(id) {
        u.place = Place::Hex(hex);
    }
    state.entered(hex, side, cav);
    Ok(vec![Event::rule("GE 16.3", format!("{id} enters at {hex}"))])
}
