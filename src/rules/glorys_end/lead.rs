//! The rolls that open a player turn, as one leading roll (DESIGN §2.5): from T10 the
//! entrenchment roll of phase B (GE-9.1: the phasing player "rolls a die at the start of his
//! entrenchment phase"), then the command & control roll of phase C (GE-10.1). The phasing
//! player chooses nothing before either, so both come from the seed of his entry's leading
//! roll, and his tool shows him the outcome before he writes the rest of the entry.
//!
//! Reading (docs/glorys-end/rules.md "Turn flow"): the choices of phases A and B
//! (replacements, the unit that entrenches) are made after both dice are known, as they were
//! before leading rolls existed (they are taken before the first move of phase E). Neither
//! die changes what those choices may be: 9.1's 1–3 permits one unit whatever the command
//! roll, and a stack put out of command still receives replacements and may entrench (10.2).

use super::command;
use super::entrench;
use super::state::{Phase, State};
use crate::dice::Dice;
use crate::engine::Event;

/// The leading roll due, described, when the phasing player's next entry opens a player
/// turn with one: phase C has not been rolled yet (the state reaches it only at the start of
/// a player turn from `command_from` on) and nothing else is under way.
pub fn due(state: &State) -> Option<String> {
    if !is_due(state) {
        return None;
    }
    let entrench = if needs_entrenchment_roll(state) { "entrenchment roll (GE 9.1), then " } else { "" };
    Some(format!("{entrench}{}", command::describe(state)))
}

/// Whether a leading roll is due ([`due`] without its words).
pub fn is_due(state: &State) -> bool {
    state.outcome.is_none()
        && state.battle.is_none()
        && state.phase == Phase::Command
        && state.command.is_none()
        && !super::secret::in_progress(state)
        && state.counters.as_ref().is_none_or(|c| c.pending_outcome.is_none())
}

fn needs_entrenchment_roll(state: &State) -> bool {
    state.turn >= entrench::FROM_TURN && state.entrench.is_none()
}

/// Roll them: the entrenchment die first (from T10), then the command & control die.
pub fn roll(state: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    if needs_entrenchment_roll(state) {
        ev.extend(entrench::roll(state, dice.roll(6) + 1));
    }
    ev.extend(command::roll(state, dice.roll(6) + 1));
    ev
}
