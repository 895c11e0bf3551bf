//! Where reinforcements may enter (GE 8.2–8.5; Marne 16.3).
//!
//! A unit's entry code comes from the scenario: an edge (German `east` 8.2, French `south`
//! 8.4), a printed hex (Cologne 1415 for German units, 8.2; French printed hexes, 8.4), `paris`
//! (any Paris hex, 8.4), `port` (British: any Allied-controlled port, or the west edge when the
//! German holds every port, 8.3; the Naval Brigade may also land in any coastal hex free of
//! German units, `naval.rs`) or `city` (the French 2nd Cavalry Corps errata: any supplied,
//! Allied-controlled French city, 8.4). A unit with no code (the Marne, rule cases) enters by
//! strategic movement (16.3: rail from its side's supply edge to a town or city,
//! `strategic::entry_violations`). Edge hexes with enemy units are closed (8.5); a
//! printed hex that is enemy-controlled, or (a city that is not a port) out of supply, keeps the
//! unit waiting; stacking is checked when the unit is placed. While Britain is not at war
//! (GE 3.7: Belgium left neutral in the free deployment) no British unit may enter.

use super::map::{Country, Edge};
use super::scenario::Entry;
use super::state::{SideId, State};
use super::supply;
use crate::geo::hex::HexId;

/// The hexes where unit `id` may enter now (empty if none or no such unit).
pub fn entry_hexes(state: &State, id: &str) -> Vec<HexId> {
    let Some(u) = state.unit(id) else { return vec![] };
    let side = u.side;
    // GE 3.7: no British unit enters before Britain is at war.
    if u.nation == "GB" && !super::campaign::britain_at_war(state) {
        return vec![];
    }
    let b = &state.board;
    let free = |h: &HexId| state.occupant(*h) != Some(side.other());
    let edge = |e: Edge| -> Vec<HexId> {
        b.hex_ids()
            .iter()
            .copied()
            .filter(|h| b.on_edge(*h, e))
            .filter(|h| side == SideId::German || b.hex(*h).is_some_and(|i| i.country == Country::France) || state.campaign.is_none())
            .filter(free)
            .collect()
    };
    match u.entry {
        // GE 16.3: the Marne's reinforcements enter by strategic movement, at a town or city.
        None if super::strategic::enters_by_sm(state, id) => b
            .hex_ids()
            .iter()
            .copied()
            .filter(|&h| b.is_town(h) && super::strategic::entry_violations(state, side, id, h).is_empty())
            .collect(),
        None => b.hex_ids().iter().copied().filter(|h| supply::on_supply_edge(state, side, *h)).filter(free).collect(),
        Some(Entry::Edge(e)) => edge(e),
        Some(Entry::Hex(h)) => {
            let city_oos = b.place(h).is_some() && !b.hex(h).is_some_and(|i| i.port) && !supply::supplied_at(state, side, h);
            if state.control(h) == Some(side.other()) || city_oos || !b.in_play(h) { vec![] } else { vec![h] }
        }
        Some(Entry::Paris) => b.paris_hexes().into_iter().filter(free).filter(|h| state.control(*h) != Some(side.other())).collect(),
        Some(Entry::Port) => {
            let ports: Vec<HexId> = b
                .hex_ids()
                .iter()
                .copied()
                .filter(|h| b.hex(*h).is_some_and(|i| i.port) && state.control(*h) == Some(SideId::Allied))
                .filter(free)
                .collect();
            let mut hexes = if ports.is_empty() { edge(Edge::West) } else { ports };
            // GE 8.3: the Naval Brigade may instead land in any coastal hex free of German units.
            if super::naval::is_naval_brigade(u) {
                hexes.extend(super::naval::landing_hexes(state));
                hexes.sort();
                hexes.dedup();
            }
            hexes
        }
        Some(Entry::City) => {
            let sup = supply::Supply::of(state, side);
            b.hex_ids()
                .iter()
                .copied()
                .filter(|h| {
                    b.hex(*h).is_some_and(|i| {
                        i.country == Country::France && i.place.as_ref().is_some_and(|p| p.kind == super::map::PlaceKind::City)
                    })
                })
                .filter(|h| state.control(*h) == Some(side) && sup.at(*h))
                .filter(free)
                .collect()
        }
    }
}

/// The rule behind a unit's entry code, for messages.
pub fn entry_rule(state: &State, id: &str) -> (&'static str, String) {
    let Some(u) = state.unit(id) else { return ("GE 8.5", "no such unit".into()) };
    if u.nation == "GB" && !super::campaign::britain_at_war(state) {
        return (
            "GE 3.7",
            "Britain is not at war yet (Belgium is neutral): British units enter from the Allied player turn after the German first reaches 20 VP".into(),
        );
    }
    match u.entry {
        None if super::strategic::enters_by_sm(state, id) => {
            ("GE 16.3", "the unit enters by strategic movement: rail from the supply edge to a town or city (GE 11.1, 11.2)".into())
        }
        None => ("GE 16.3", format!("reinforcements enter on the {} supply edge", u.side.title()).to_lowercase()),
        Some(Entry::Edge(e)) => ("GE 8.5", format!("the unit enters on the {e:?} edge, in a hex free of enemy units").to_lowercase()),
        Some(Entry::Hex(h)) => {
            ("GE 8.5", format!("the unit enters only at {h}, while it is not enemy-controlled (nor, a city, out of supply)"))
        }
        Some(Entry::Paris) => ("GE 8.4", "the unit enters in a Paris hex".into()),
        Some(Entry::Port) if super::naval::is_naval_brigade(u) => {
            ("GE 8.3", "the Naval Brigade lands in a coastal hex with no German units or enters at an Allied-controlled port".into())
        }
        Some(Entry::Port) => ("GE 8.3", "British reinforcements enter at an Allied-controlled port (the west edge if none is left)".into()),
        Some(Entry::City) => ("GE 8.4", "the unit enters in a supplied, Allied-controlled French city".into()),
    }
}
