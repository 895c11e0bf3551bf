//! The attrition phase G (GE-7.12): at the end of his player turn, each of the phasing side's
//! units that is out of supply loses one SL. "Supplied" is supply for attrition
//! (`supply::Use::Attrition`): general supply (Belgian units through Brussels, 7.10), or
//! fortress (7.7), Allied coastal (7.8) or port supply (7.9, French units included). Supply is
//! traced once at the start of the phase, so losses inside the phase do not change who is
//! supplied.

use super::state::State;
use super::supply;
use super::vp;
use crate::engine::Event;

/// Apply phase G for the phasing side.
pub fn phase(state: &mut State) -> Vec<Event> {
    let side = state.player;
    let sup = supply::SupplyAll::of(state);
    let oos: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == side && u.mobile() && u.hex().is_some())
        .filter(|u| !sup.unit(u, supply::Use::Attrition))
        .map(|u| u.id.clone())
        .collect();
    // GE 15 with hidden stacks: counters left hidden here are declared dummies (`counters.rs`).
    let dummies = super::counters::dummies_on(state);
    let (claimed, victims): (Vec<String>, Vec<String>) =
        oos.into_iter().partition(|id| dummies && state.unit(id).is_some_and(super::counters::is_hidden));
    let mut ev = super::counters::claim_dummies(state, &claimed);
    if victims.is_empty() && claimed.is_empty() {
        ev.push(Event::rule("GE 7.12", format!("phase G (attrition): every {} unit is supplied", side.title())));
        return ev;
    }
    for id in victims {
        ev.push(Event::rule("GE 7.12", format!("phase G (attrition): {id} is out of supply and loses 1 SL")));
        ev.extend(vp::lose(state, &id, 1));
    }
    ev
}
