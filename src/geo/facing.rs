//! Facing on a hex grid: which of a unit's six hexsides are its front, flank and rear.
//!
//! Two conventions exist among hex wargames, and both are here:
//!
//! - **Vertex facing** ([`Facing::Vertex`]): the counter's top points at a corner of its hex.
//!   Vertex `v` is the corner shared by the neighbours in directions `v` and `v + 1`
//!   ([`crate::geo::hex::Direction`], clockwise), so those two are the **front**; the next
//!   ones round either way (`v − 1`, `v + 2`) are the **flank** and the two opposite the
//!   front (`v + 3`, `v + 4`) the **rear**. A game that knows only front and rear (Jours de
//!   Gloire 6.1.1: two front hexes, four rear) asks [`Facing::is_front`] and treats every
//!   other hexside as rear.
//! - **Side facing** ([`Facing::Side`]): the top points at hexside `d`; the front is `d − 1`,
//!   `d`, `d + 1`, the flank `d ± 2` and the rear `d + 3`.
//!
//! Some rules give a unit six front hexes (a square, a village): that is a property of the
//! unit's situation, not of its facing, so callers pass it as `all_round` where it matters.
//!
//! The **fire cone** of a vertex facing ([`in_cone`]) is the 60° wedge between the two
//! straight hex rows that start at the front hexes, boundaries included: the hexes `T` with
//! `T − A = a·e_v + b·e_(v+1)` for integers `a, b ≥ 0`, not both zero (`e_d` the axial step
//! of direction `d`). The two steps are a basis of the axial lattice (their determinant is
//! ±1), so `a` and `b` are whole numbers for every hex and no rounding is involved.
//!
//! Turning is counted in steps of 60° ([`turn_steps`]), the shorter way round; what a turn
//! costs is each game's business.

use serde::{Deserialize, Serialize};

use super::hex::{Direction, HexId};

/// Axial steps (Δq, Δr) of the six directions, as [`HexId::neighbour`] takes them.
const STEPS: [(i32, i32); 6] = [(0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1)];

/// Where a unit's top points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facing {
    /// At vertex `v` (0..6): the corner between directions `v` and `v + 1`.
    Vertex(u8),
    /// At hexside `d` (0..6).
    Side(u8),
}

/// Which part of a unit's surroundings a hexside belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Arc {
    Front,
    Flank,
    Rear,
}

/// `d + k` round the six directions (k may be negative).
pub fn rotate(d: Direction, k: i32) -> Direction {
    (i32::from(d % 6) + k).rem_euclid(6) as Direction
}

impl Facing {
    /// The facing's number (vertex or hexside), always in 0..6.
    pub fn index(self) -> u8 {
        match self {
            Facing::Vertex(v) | Facing::Side(v) => v % 6,
        }
    }

    /// The arc direction `d` falls in.
    pub fn arc(self, d: Direction) -> Arc {
        // Offset of `d` from the facing, 0..6, counted clockwise.
        let k = (i32::from(d % 6) - i32::from(self.index())).rem_euclid(6);
        match self {
            Facing::Vertex(_) => match k {
                0 | 1 => Arc::Front,
                2 | 5 => Arc::Flank,
                _ => Arc::Rear,
            },
            Facing::Side(_) => match k {
                0 | 1 | 5 => Arc::Front,
                2 | 4 => Arc::Flank,
                _ => Arc::Rear,
            },
        }
    }

    /// Whether direction `d` is a front hexside. With `all_round` every hexside is.
    pub fn is_front(self, d: Direction, all_round: bool) -> bool {
        all_round || self.arc(d) == Arc::Front
    }

    /// The front directions, clockwise from the facing.
    pub fn front(self) -> Vec<Direction> {
        (0..6u8).map(|k| rotate(self.index(), i32::from(k))).filter(|&d| self.arc(d) == Arc::Front).collect()
    }

    /// Whether hex `other`, adjacent to `at`, is a front hex of a unit at `at`. Not adjacent:
    /// false.
    pub fn front_hex(self, at: HexId, other: HexId, all_round: bool) -> bool {
        at.direction_to(other).is_some_and(|d| self.is_front(d, all_round))
    }

    /// The same kind of facing turned `k` steps clockwise (negative: anticlockwise).
    pub fn turned(self, k: i32) -> Facing {
        match self {
            Facing::Vertex(v) => Facing::Vertex(rotate(v, k)),
            Facing::Side(d) => Facing::Side(rotate(d, k)),
        }
    }
}

/// The 60° steps between two facings numbered `a` and `b`, the shorter way round (0..=3).
pub fn turn_steps(a: u8, b: u8) -> u8 {
    let k = (i32::from(b % 6) - i32::from(a % 6)).rem_euclid(6) as u8;
    k.min(6 - k)
}

/// The vertex facings that have direction `d` in front: `d − 1` and `d` (vertex `v` fronts
/// directions `v` and `v + 1`).
pub fn vertices_fronting(d: Direction) -> [u8; 2] {
    [rotate(d, -1), d % 6]
}

/// Whether `target` lies in the fire cone of a unit at `at` facing vertex `v` (see the
/// module): the wedge between the rows of its two front hexes, boundaries included. The
/// unit's own hex is not in its cone.
pub fn in_cone(at: HexId, v: u8, target: HexId) -> bool {
    let (q0, r0) = at.axial();
    let (q1, r1) = target.axial();
    let (x, y) = (q1 - q0, r1 - r0);
    if (x, y) == (0, 0) {
        return false;
    }
    let (ax, ay) = STEPS[usize::from(v % 6)];
    let (bx, by) = STEPS[usize::from(rotate(v, 1))];
    // Solve a·(ax, ay) + b·(bx, by) = (x, y) by Cramer's rule; det is ±1 for neighbours.
    let det = ax * by - ay * bx;
    if det == 0 {
        return false;
    }
    let a = (x * by - y * bx) / det;
    let b = (ax * y - ay * x) / det;
    a >= 0 && b >= 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> HexId {
        s.parse().expect("hex")
    }

    #[test]
    fn vertex_facing_has_two_front_two_flank_two_rear() {
        let f = Facing::Vertex(0);
        assert_eq!(f.front(), vec![0, 1]);
        assert_eq!((0..6u8).map(|d| f.arc(d)).collect::<Vec<_>>(), [Arc::Front, Arc::Front, Arc::Flank, Arc::Rear, Arc::Rear, Arc::Flank]);
        // Vertex 5 wraps round: NW and NE are its front.
        assert_eq!(Facing::Vertex(5).front(), vec![5, 0]);
        assert!(Facing::Vertex(5).is_front(0, false) && !Facing::Vertex(5).is_front(2, false));
        assert!(Facing::Vertex(5).is_front(2, true));
    }

    #[test]
    fn side_facing_has_three_front_one_rear() {
        let f = Facing::Side(0);
        assert_eq!(f.front(), vec![0, 1, 5]);
        assert_eq!(f.arc(3), Arc::Rear);
        assert_eq!(f.arc(2), Arc::Flank);
        assert_eq!(f.arc(4), Arc::Flank);
    }

    #[test]
    fn front_hexes_are_the_neighbours_sharing_the_vertex() {
        let at = h("1010");
        let f = Facing::Vertex(1);
        for (d, n) in at.neighbours() {
            assert_eq!(f.front_hex(at, n, false), d == 1 || d == 2, "direction {d}");
        }
        assert!(!f.front_hex(at, h("1212"), false), "not adjacent");
    }

    #[test]
    fn turning_counts_the_shorter_way() {
        assert_eq!(turn_steps(0, 1), 1);
        assert_eq!(turn_steps(0, 5), 1);
        assert_eq!(turn_steps(1, 4), 3);
        assert_eq!(turn_steps(2, 2), 0);
        assert_eq!(Facing::Vertex(0).turned(-1), Facing::Vertex(5));
        assert_eq!(vertices_fronting(0), [5, 0]);
        for d in 0..6u8 {
            for v in vertices_fronting(d) {
                assert!(Facing::Vertex(v).is_front(d, false));
            }
        }
    }

    #[test]
    fn the_cone_is_the_wedge_between_the_front_rows() {
        let at = h("1010");
        for v in 0..6u8 {
            let f = Facing::Vertex(v);
            // Both front hexes and the rows out of them are in; the hex itself is not.
            for d in f.front() {
                let mut x = at;
                for _ in 0..4 {
                    x = x.neighbour(d).expect("on the grid");
                    assert!(in_cone(at, v, x), "vertex {v}, row {d}, {x}");
                }
            }
            assert!(!in_cone(at, v, at));
            // The hex two steps out between the rows is in; the rear hexes are out.
            let mid = at.neighbour(v).and_then(|n| n.neighbour(rotate(v, 1))).expect("on the grid");
            assert!(in_cone(at, v, mid));
            for d in (0..6u8).filter(|&d| f.arc(d) != Arc::Front) {
                assert!(!in_cone(at, v, at.neighbour(d).expect("on the grid")), "vertex {v}, direction {d}");
            }
        }
    }

    #[test]
    fn rotation_wraps_both_ways() {
        assert_eq!(rotate(0, -1), 5);
        assert_eq!(rotate(5, 1), 0);
        assert_eq!(rotate(3, -9), 0);
    }
}
