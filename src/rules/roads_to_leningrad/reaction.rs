//! Reaction Movement (RTL-9.3): not built yet; every Reaction move is refused.

use super::orders::Move;
use super::state::State;
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The units that could Reaction-move now (none until RTL-9.3 is built).
pub fn options(_s: &State) -> Vec<String> {
    vec![]
}

/// The Reaction moves of the defender's entry, checked.
pub fn check(_s: &State, _side: &str, _refuse: &[HexId], react: &[Move]) -> Vec<Violation> {
    react.iter().map(|m| Violation::new("RTL-9.3", "Reaction Movement is not built yet").unit(m.unit.clone())).collect()
}

/// Roll and make the Reaction moves.
pub fn resolve(_s: &mut State, _react: &[Move], _dice: &mut Dice) -> Vec<Event> {
    vec![]
}
