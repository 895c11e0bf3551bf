//! Straight lines between hex centres on a hex grid, for lines of fire and sight.
//!
//! The line from `A` to `B` (distance `n`) is sampled at the `n − 1` interior points
//! `A + (B − A)·i/n`, each rounded to the hex holding it. A line that runs exactly along a
//! hexside (or through a vertex) has samples that sit on the boundary between two hexes; it
//! is traced twice, nudged a tiny amount to either side, so every sample gives a **pair** of
//! hexes: the same hex twice when the line crosses that hex's interior, two neighbours when
//! it runs along the edge between them. Games read the pairs (Jours de Gloire 7.4.2: one
//! blocking hex beside the line does not block, two, one on each side, do).
//!
//! Integer arithmetic only: cube coordinates are scaled by `n·M` and nudged by `±(1, 2, −3)`,
//! with `M = 12`, so the nudge (at most `3/(n·M) = 1/(4n)`) breaks exact ties but never
//! changes a rounding that was not a tie (sample coordinates are multiples of `1/n`).

use super::hex::HexId;

/// Scale of the nudge (see the module).
const M: i64 = 12;

/// Round `p / q` (q > 0) to the nearest integer; exact halves cannot occur after the nudge.
fn round_div(p: i64, q: i64) -> i64 {
    (2 * p + q).div_euclid(2 * q)
}

/// The hex holding the sample `i` of `n` from cube `a` to cube `b`, nudged by `sign`.
fn sample(a: (i64, i64, i64), b: (i64, i64, i64), i: i64, n: i64, sign: i64) -> (i64, i64) {
    let q = n * M;
    let px = (a.0 * (n - i) + b.0 * i) * M + sign;
    let py = (a.1 * (n - i) + b.1 * i) * M + 2 * sign;
    let pz = (a.2 * (n - i) + b.2 * i) * M - 3 * sign;
    let (mut rx, mut ry, mut rz) = (round_div(px, q), round_div(py, q), round_div(pz, q));
    let (dx, dy, dz) = ((px - rx * q).abs(), (py - ry * q).abs(), (pz - rz * q).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    } else {
        rz = -rx - ry;
    }
    let _ = rz;
    (rx, ry)
}

/// The hexes strictly between `a` and `b` along the straight line joining their centres,
/// in order from `a`: one pair per sample, `(left, right)` traces (equal when the line
/// crosses that hex, two neighbours when it runs along their common hexside). Empty for
/// adjacent hexes or `a == b`. Samples off the id range 00..99 are left out.
pub fn between(a: HexId, b: HexId) -> Vec<(HexId, HexId)> {
    let n = i64::from(a.distance(b));
    let cube = |h: HexId| {
        let (q, r, s) = h.cube();
        (i64::from(q), i64::from(r), i64::from(s))
    };
    let (ca, cb) = (cube(a), cube(b));
    let mut out = Vec::new();
    for i in 1..n {
        let (q1, r1) = sample(ca, cb, i, n, 1);
        let (q2, r2) = sample(ca, cb, i, n, -1);
        let h1 = HexId::from_axial(q1 as i32, r1 as i32);
        let h2 = HexId::from_axial(q2 as i32, r2 as i32);
        if let (Some(h1), Some(h2)) = (h1, h2) {
            out.push((h1, h2));
        }
    }
    out
}

/// The hexes each of the two traces passes through, from `a` to `b` inclusive: the
/// hexsides a trace crosses are those between consecutive hexes of its list.
pub fn traces(a: HexId, b: HexId) -> [Vec<HexId>; 2] {
    let mid = between(a, b);
    let mut one = vec![a];
    let mut two = vec![a];
    for (x, y) in mid {
        one.push(x);
        two.push(y);
    }
    one.push(b);
    two.push(b);
    [one, two]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> HexId {
        s.parse().expect("hex")
    }

    #[test]
    fn a_straight_row_crosses_each_hex() {
        // Along one row: columns 02..06 of row 04.
        let m = between(h("0402"), h("0406"));
        assert_eq!(m, vec![(h("0403"), h("0403")), (h("0404"), h("0404")), (h("0405"), h("0405"))]);
    }

    #[test]
    fn a_line_along_a_hexside_gives_two_neighbours() {
        // Two steps in the directions 0 and 1 together: the line runs between the two.
        let a = h("0505");
        let b = a.neighbour(0).and_then(|x| x.neighbour(1)).expect("hex");
        let m = between(a, b);
        assert_eq!(m.len(), 1);
        let (x, y) = m[0];
        assert_ne!(x, y);
        assert!(x.is_adjacent(a) && y.is_adjacent(a) && x.is_adjacent(b) && y.is_adjacent(b));
    }

    #[test]
    fn adjacent_hexes_have_nothing_between() {
        assert!(between(h("0505"), h("0506")).is_empty());
        let [one, two] = traces(h("0505"), h("0506"));
        assert_eq!(one, vec![h("0505"), h("0506")]);
        assert_eq!(two, one);
    }

    #[test]
    fn every_trace_steps_to_neighbours() {
        let a = h("0505");
        for r in 0..11u8 {
            for c in 0..11u8 {
                let b = HexId::new(r, c);
                for t in traces(a, b) {
                    for w in t.windows(2) {
                        assert!(w[0] == w[1] || w[0].is_adjacent(w[1]), "{a} to {b}: {:?}", t);
                    }
                }
            }
        }
    }
}
