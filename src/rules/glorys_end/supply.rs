//! Supply, the basics (GE-7.2, 7.3, 16.1): a line of at most five hexes to the side's
//! supply edge of the scenario map (Marne: German north edge, Allied south edge), crossing
//! passable hexsides and entering no hex with enemy units. The source hex counts, the unit's
//! own hex does not. A friendly-controlled town or city that itself traces a path of any length
//! to that edge is a source too (7.3; reading: control as it is now, not at the start of the
//! turn). Fortress supply for defence is in `combat.rs`; coastal and port supply (7.8, 7.9) are
//! not yet implemented.

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

/// Index of a hex in a flat table of all ids (fast sets in debug builds).
fn ix(h: HexId) -> usize {
    h.row as usize * 100 + h.col as usize
}

/// Enemy occupation of every hex, as a flat table.
fn enemy_table(state: &State, side: SideId) -> Vec<bool> {
    let mut t = vec![false; 10_000];
    for u in &state.units {
        if u.side != side
            && let Some(h) = u.hex()
        {
            t[ix(h)] = true;
        }
    }
    t
}

/// Every hex that is a supply source for `side` now: its free edge hexes, and friendly towns
/// and cities linked to them by a path of any length free of enemy units (GE-7.3).
pub fn sources(state: &State, side: SideId) -> BTreeSet<HexId> {
    let edge = supply_edge(side);
    let enemy = enemy_table(state, side);
    let edges: Vec<HexId> = state.board.hexes.keys().copied().filter(|h| state.board.on_edge(*h, edge) && !enemy[ix(*h)]).collect();
    let mut out: BTreeSet<HexId> = edges.iter().copied().collect();
    // Flood from the edge through hexes without enemy units.
    let mut seen = vec![false; 10_000];
    for h in &edges {
        seen[ix(*h)] = true;
    }
    let mut frontier = edges;
    let mut towns = Vec::new();
    while let Some(h) = frontier.pop() {
        if state.board.hex(h).is_some_and(|i| i.name.is_some()) {
            towns.push(h);
        }
        for n in state.board.neighbours(h) {
            if !enemy[ix(n)] && !seen[ix(n)] {
                seen[ix(n)] = true;
                frontier.push(n);
            }
        }
    }
    for h in towns {
        if state.control(h) == Some(side) {
            out.insert(h);
        }
    }
    out
}

/// Whether a unit of `side` at `from` can trace supply.
pub fn supplied_at(state: &State, side: SideId, from: HexId) -> bool {
    supplied_with(state, side, from, &sources(state, side))
}

/// Supply against a precomputed source set.
pub fn supplied_with(state: &State, side: SideId, from: HexId, sources: &BTreeSet<HexId>) -> bool {
    if sources.contains(&from) {
        return true;
    }
    let enemy = |h: HexId| state.occupant(h) == Some(side.other());
    let mut seen = vec![from];
    let mut frontier = vec![from];
    for _ in 0..LINE {
        let mut next = Vec::new();
        for h in frontier {
            for n in state.board.neighbours(h) {
                if seen.contains(&n) || enemy(n) {
                    continue;
                }
                seen.push(n);
                if sources.contains(&n) {
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
