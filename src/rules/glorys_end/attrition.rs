//! The attrition phase G (GE-7.12): at the end of his player turn, each of the phasing side's
//! units that is out of supply loses one SL. Fortresses, and mobile units of the fortress's
//! nationality stacked with it (7.7), are supplied for attrition. Coastal (7.8) and port (7.9)
//! supply, which also protect from attrition, do not exist on the Marne map; supply is traced
//! with `supply.rs` as it stands at the start of the phase (one trace for the whole side, so
//! losses inside the phase do not change who is supplied).

use super::state::{Kind, State};
use super::supply;
use super::vp;
use crate::engine::Event;

/// Apply phase G for the phasing side.
pub fn phase(state: &mut State) -> Vec<Event> {
    let side = state.player;
    let sup = supply::Supply::of(state, side);
    let victims: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == side && u.mobile())
        .filter_map(|u| u.hex().map(|h| (u, h)))
        .filter(|(u, h)| !sup.at(*h) && !state.units_at(*h).any(|f| f.kind == Kind::Fortress && f.nation == u.nation))
        .map(|(u, _)| u.id.clone())
        .collect();
    let mut ev = Vec::new();
    if victims.is_empty() {
        ev.push(Event::rule("GE 7.12", format!("phase G (attrition): every {} unit is supplied", side.title())));
        return ev;
    }
    for id in victims {
        ev.push(Event::rule("GE 7.12", format!("phase G (attrition): {id} is out of supply and loses 1 SL")));
        ev.extend(vp::lose(state, &id, 1));
    }
    ev
}
