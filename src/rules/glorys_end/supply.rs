//! Supply, the basics (GE-7.2, 7.3, 16.1): a line of at most five hexes to the side's
//! supply edge of the scenario map (Marne: German north edge, Allied south edge), crossing
//! passable hexsides and entering no hex with enemy units. The source hex counts, the unit's
//! own hex does not. A friendly-controlled town or city that itself traces a path of any length
//! to that edge is a source too (7.3; reading: control as it is now, not at the start of the
//! turn). Fortress supply for defence is in `combat.rs`; coastal and port supply (7.8, 7.9) are
//! not yet implemented.
//!
//! [`Supply::of`] traces once for a whole side (two floods over the board's dense index) and
//! then answers per hex in constant time; use it whenever several units are asked about in one
//! state.

use super::map::Edge;
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

/// The supply of one side in one state: which hexes are sources, and which hexes a unit of
/// the side could trace from.
pub struct Supply<'a> {
    state: &'a State,
    /// Per dense hex: distance in hexes to the nearest source (`u32::MAX` if beyond reach).
    dist: Vec<u32>,
    source: Vec<bool>,
}

impl<'a> Supply<'a> {
    /// Trace the supply of `side` now.
    pub fn of(state: &'a State, side: SideId) -> Supply<'a> {
        let b = &state.board;
        let n = b.len();
        let mut enemy = vec![false; n];
        let mut occupied_by_friend = vec![false; n];
        for u in &state.units {
            if let Some(i) = u.hex().and_then(|h| b.index(h)) {
                if u.side != side {
                    enemy[i] = true;
                } else {
                    occupied_by_friend[i] = true;
                }
            }
        }
        let edge = supply_edge(side);
        // Sources: edge hexes free of enemy units, and friendly towns linked to them (7.3).
        let mut source = vec![false; n];
        let mut seen = vec![false; n];
        let mut frontier: Vec<usize> = Vec::new();
        for i in 0..n {
            if b.on_edge_ix(i, edge) && !enemy[i] {
                source[i] = true;
                seen[i] = true;
                frontier.push(i);
            }
        }
        let ids = b.hex_ids();
        while let Some(i) = frontier.pop() {
            // Control now (GE-4.7): the occupant, else the last entry.
            if b.is_town_ix(i) && (occupied_by_friend[i] || state.control.get(&ids[i]) == Some(&side)) {
                source[i] = true;
            }
            for &j in b.neighbours_ix(i) {
                let j = j as usize;
                if !enemy[j] && !seen[j] {
                    seen[j] = true;
                    frontier.push(j);
                }
            }
        }
        // Lines: breadth-first from every source through hexes without enemy units.
        let mut dist = vec![u32::MAX; n];
        let mut ring: Vec<usize> = (0..n).filter(|&i| source[i]).collect();
        for &i in &ring {
            dist[i] = 0;
        }
        for d in 1..=LINE {
            let mut next = Vec::new();
            for i in ring {
                for &j in b.neighbours_ix(i) {
                    let j = j as usize;
                    if dist[j] == u32::MAX {
                        dist[j] = d;
                        // A line continues only through hexes free of enemy units.
                        if !enemy[j] {
                            next.push(j);
                        }
                    }
                }
            }
            ring = next;
        }
        Supply { state, dist, source }
    }
    /// Whether a unit of the side at `h` can trace supply.
    pub fn at(&self, h: HexId) -> bool {
        self.state.board.index(h).is_some_and(|i| self.dist[i] <= LINE)
    }
    /// Whether `h` is a supply source.
    pub fn is_source(&self, h: HexId) -> bool {
        self.state.board.index(h).is_some_and(|i| self.source[i])
    }
}

/// Whether a unit of `side` at `from` can trace supply (one question; see [`Supply`]).
pub fn supplied_at(state: &State, side: SideId, from: HexId) -> bool {
    Supply::of(state, side).at(from)
}

/// Whether a unit (by id) is supplied where it stands.
pub fn supplied(state: &State, id: &str) -> bool {
    state.unit(id).is_some_and(|u| u.hex().is_some_and(|h| supplied_at(state, u.side, h)))
}

/// Mark the phasing side's units out of supply at the start of the movement phase (GE-7.5).
pub fn mark_start_of_movement(state: &mut State) {
    let side = state.player;
    let oos: Vec<bool> = {
        let sup = Supply::of(state, side);
        state.units.iter().map(|u| u.side == side && u.hex().is_some_and(|h| !sup.at(h))).collect()
    };
    for (u, o) in state.units.iter_mut().zip(oos) {
        if u.side == side && u.hex().is_some() {
            u.oos_at_start = o;
        }
    }
}
