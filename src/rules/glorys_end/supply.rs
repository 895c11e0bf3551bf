//! Supply, the basics (GE-7.2, 7.3, 16.1): a line of at most five hexes to the side's
//! supply edge of the scenario map (Marne: German north edge, Allied south edge), crossing
//! passable hexsides and entering no hex with enemy units. The source hex counts, the unit's
//! own hex does not. Town sources (7.3), fortress, coastal and port supply (7.7–7.9) are not
//! yet implemented.

use std::collections::BTreeSet;

use super::board::Edge;
use super::state::{SideId, State};
use crate::geo::hex::HexId;

/// Longest supply line, in hexes (GE-7.2).
pub const LINE: u32 = 5;

/// The supply edge of a side in the Marne scenario (GE-16.1).
pub fn supply_edge(side: SideId) -> Edge {
    match side {
        SideId::German => Edge::North,
        SideId::Allied => Edge::South,
    }
}

/// Whether a unit of `side` at `from` can trace supply.
pub fn supplied_at(state: &State, side: SideId, from: HexId) -> bool {
    let edge = supply_edge(side);
    let enemy = |h: HexId| state.occupant(h) == Some(side.other());
    let source = |h: HexId| state.board.on_edge(h, edge) && !enemy(h);
    if source(from) {
        return true;
    }
    let mut seen = BTreeSet::from([from]);
    let mut frontier = vec![from];
    for _ in 0..LINE {
        let mut next = Vec::new();
        for h in frontier {
            for n in state.board.neighbours(h) {
                if enemy(n) || !seen.insert(n) {
                    continue;
                }
                if source(n) {
                    return true;
                }
                next.push(n);
            }
        }
        frontier = next;
    }
    false
}

/// Whether a unit (by id) is supplied where it stands.
pub fn supplied(state: &State, id: &str) -> bool {
    match state.unit(id) {
        Some(u) => match u.hex() {
            Some(h) => supplied_at(state, u.side, h),
            None => false,
        },
        None => false,
    }
}
