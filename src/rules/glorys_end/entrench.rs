//! Entrenchment (GE-9, 14.4, 14.5 for trenches), phase B from T10.
//!
//! The entrenchment roll opens the phasing player's entry from T10, before the command &
//! control roll (both are its leading roll, `lead.rs`). On 1–3 that entry (or a later one,
//! before any unit moves) may name one supplied infantry unit to dig (`entrench: [ID]`). Units that start the phase next to
//! an enemy unit in a completed enemy trench may dig whatever the roll, without rolling. Digging
//! units neither move nor attack this player turn; their trench is completed at the end of the
//! same player turn's prepared-assault phase. A friendly trench with no infantry SL is removed at
//! the end of a friendly PA phase; an empty trench is removed when an enemy unit enters its hex
//! (`State::entered`); defenders retreating out of a trench destroy it (14.5).

use serde::{Deserialize, Serialize};

use super::state::{Kind, MoveState, Phase, SideId, State};
use super::supply;
use super::unit_list;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// First turn with entrenchment (GE-9: T10–T30).
pub const FROM_TURN: u8 = 10;

/// A trench marker (GE-9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trench {
    pub side: SideId,
    /// Completed (works in combat) or under construction.
    pub complete: bool,
}

/// This player turn's entrenchment roll, once made (GE-9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Roll {
    /// Rolled; `used` once the roll's unit has been named.
    Rolled { die: u32, used: bool },
}

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// A completed trench of `side` in `h` holding units of that side: the hex is "entrenched".
pub fn entrenched(state: &State, h: HexId, side: SideId) -> bool {
    state.trenches.get(&h).is_some_and(|t| t.side == side && t.complete) && state.units_at(h).any(|u| u.side == side)
}

/// Phase B is open: T10 or later, start of the player turn (phase C, or phase E before any of
/// the side's units has moved).
fn window(state: &State, side: SideId) -> Result<(), Vec<Violation>> {
    if state.turn < FROM_TURN {
        return Err(vec![v("GE 9.1", format!("entrenchment begins on turn {FROM_TURN}"))]);
    }
    if side != state.player {
        return Err(vec![v("GE 9.1", "only the phasing player entrenches")]);
    }
    let started = state.units.iter().any(|u| u.side == side && (u.moved || u.move_state != MoveState::NotMoved || u.attacked));
    if state.phase == Phase::Combat || started {
        return Err(vec![v("GE 5.2", "phase B (entrenchment) comes at the start of the player turn, before any unit moves")]);
    }
    Ok(())
}

/// The entrenchment roll's die.
pub fn roll(state: &mut State, die: u32) -> Vec<Event> {
    state.entrench = Some(Roll::Rolled { die, used: false });
    let what = if die <= 3 { "one supplied infantry unit may entrench" } else { "no unit entrenches by the roll" };
    vec![Event::roll("entrenchment roll (GE 9.1)", "d6", die), Event::rule("GE 9.1", format!("entrenchment roll {die}: {what}"))]
}

/// Whether `h` is next to an enemy unit in a completed enemy trench (free entrenchment, 9.1).
fn next_to_enemy_trench(state: &State, h: HexId, side: SideId) -> bool {
    state.board.neighbours(h).iter().any(|&n| entrenched(state, n, side.other()))
}

/// `entrench: [ids]`: the units dig (GE-9.1, 9.2).
pub fn step_entrench(state: &mut State, side: SideId, units: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    window(state, side)?;
    let mut errs = Vec::new();
    let sup = supply::Supply::of(state, side);
    let mut by_roll: Vec<String> = Vec::new();
    let rules = unit_list::ListRules {
        twice: ("GE 9.1", "a unit is listed twice"),
        unknown: "GE 9.1",
        foreign: ("GE 9.1", "you may entrench only your own units"),
        off_map: ("GE 9.1", "the unit is not on the map"),
    };
    for (u, h) in unit_list::check(state, side, units, &rules, &unit_list::no_extra, &mut errs) {
        let id = &u.id;
        if u.kind != Kind::Infantry {
            errs.push(v("GE 9.1", "only infantry entrenches").unit(id));
        }
        if !sup.at(h) {
            errs.push(v("GE 9.1", "only a supplied unit entrenches").unit(id));
        }
        if u.replaced {
            errs.push(v("GE 9.2", "a unit that received replacements this turn may not entrench").unit(id));
        }
        if u.entrenching {
            errs.push(v("GE 9.2", "the unit is already entrenching").unit(id));
        }
        if state.units_at(h).any(|f| f.kind == Kind::Fortress) {
            errs.push(v("GE 9.2", "no trench is built in a fortress hex").unit(id).hex(h.to_string()));
        }
        if state.fortified.contains_key(&h) {
            errs.push(v("GE 9.2", "no trench is built in a fortified zone hex").unit(id).hex(h.to_string()));
        }
        if !next_to_enemy_trench(state, h, side) {
            by_roll.push(id.clone());
        }
    }
    if !by_roll.is_empty() {
        match state.entrench {
            Some(Roll::Rolled { die, used: false }) if die <= 3 && by_roll.len() == 1 => {}
            Some(Roll::Rolled { die, used: false }) if die <= 3 => errs.push(v(
                "GE 9.1",
                format!(
                    "the roll lets one unit entrench, not {} ({}); only units next to an enemy trench dig free",
                    by_roll.len(),
                    by_roll.join(", ")
                ),
            )),
            Some(Roll::Rolled { used: true, .. }) => {
                errs.push(v("GE 9.1", "the roll's unit has already been named; others dig only next to an enemy trench"))
            }
            Some(Roll::Rolled { die, .. }) => {
                errs.push(v("GE 9.1", format!("the entrenchment roll was {die} (1–3 needed); only units next to an enemy trench dig free")))
            }
            _ => errs.push(v(
                "GE 9.1",
                "no entrenchment roll this player turn (it opens the turn from T10); only units next to an enemy trench dig without it",
            )),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    if !by_roll.is_empty()
        && let Some(Roll::Rolled { die, .. }) = state.entrench
    {
        state.entrench = Some(Roll::Rolled { die, used: true });
    }
    let mut ev = Vec::new();
    for id in units {
        let Some(h) = state.unit(id).and_then(|u| u.hex()) else { continue };
        if let Some(u) = state.unit_mut(id) {
            u.entrenching = true;
        }
        state.trenches.entry(h).or_insert(Trench { side, complete: false });
        let how = if by_roll.contains(id) { "by the roll" } else { "free, next to an enemy trench" };
        ev.push(Event::rule("GE 9.2", format!("{id} entrenches in {h} ({how}): it may not move or attack this player turn")));
    }
    Ok(ev)
}

/// End of the phasing player's PA phase: his trenches are completed (9.2), then those without
/// friendly infantry SL are removed (9.3).
pub fn end_of_pa(state: &mut State) -> Vec<Event> {
    let side = state.player;
    let mut ev = Vec::new();
    let hexes: Vec<HexId> = state.trenches.iter().filter(|(_, t)| t.side == side).map(|(h, _)| *h).collect();
    // With dummies (GE 15) a hidden counter may be one, and dummies keep no trench (9.3): only
    // shown infantry counts (`counters::trench_keepers` opens one).
    let dummies = super::counters::dummies_on(state);
    for h in hexes {
        let infantry = state.units_at(h).any(|u| u.side == side && u.kind == Kind::Infantry && !(dummies && super::counters::is_hidden(u)));
        if !infantry {
            state.trenches.remove(&h);
            ev.push(Event::rule("GE 9.3", format!("the {} trench in {h} holds no infantry and is removed", side.title())));
        } else if let Some(t) = state.trenches.get_mut(&h)
            && !t.complete
        {
            t.complete = true;
            ev.push(Event::rule("GE 9.2", format!("the {} trench in {h} is completed", side.title())));
        }
    }
    ev
}
