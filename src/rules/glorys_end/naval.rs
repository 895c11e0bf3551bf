//! British naval infantry (GE 2.7): the Naval Brigade and the Naval Division.
//!
//! What sets them apart from other infantry:
//! * they may stack with units of any Allied nationality (6.2) and join prepared and march
//!   assaults of any Allied nationality (13.26): they are left out when the nationalities of
//!   a stack or an attack are counted;
//! * the Naval Brigade (not the Division) may land as a reinforcement in any coastal hex
//!   free of German units instead of entering at a port (8.3);
//! * the Naval Brigade (not the Division) may make its naval move (11.5) from a coastal hex
//!   to a coastal hex instead of port to port.
//!
//! A unit is naval infantry when its roster type is `naval_infantry` (`Unit::naval`); the
//! Naval Brigade is the naval infantry unit of brigade size (the Division is a division).
//! The bundled campaigns carry the Brigade as `GB-NB` and, in the 30-turn campaigns, the
//! Division as `GB-ND` (both representative data, `scenarios/glorys-end/campaign.yaml`).

use super::state::{SideId, Size, State, Unit};
use crate::geo::hex::HexId;

/// Whether the unit counts when the Allied nationalities of a stack or an attack are
/// compared (GE 6.2, 13.26): every mobile unit but naval infantry.
pub fn counts_for_nationality(u: &Unit) -> bool {
    !u.naval
}

/// Whether the unit is the British Naval Brigade (GE 8.3, 11.5).
pub fn is_naval_brigade(u: &Unit) -> bool {
    u.naval && u.size == Size::Brigade
}

/// Whether `h` is a coastal hex in play (GE 8.3, 11.5: land hexes touching the sea).
pub fn coastal(state: &State, h: HexId) -> bool {
    state.board.in_play(h) && state.board.hex(h).is_some_and(|i| i.coastal)
}

/// The coastal hexes where the Naval Brigade may land now: in play, with no German unit
/// (GE 8.3; reading: German control of an empty hex does not bar the landing, only German
/// units do, as the rule says).
pub fn landing_hexes(state: &State) -> Vec<HexId> {
    state.board.hex_ids().iter().copied().filter(|&h| coastal(state, h) && state.occupant(h) != Some(SideId::German)).collect()
}
