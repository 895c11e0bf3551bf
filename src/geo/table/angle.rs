//! Headings in tenths of a degree, bearings, and arcs of fire or observation.
//!
//! A [`Heading`] is `0..3600` tenths: 0 points along +x (the table's long side), and headings
//! grow **counter-clockwise** (900 = +y). This is the digest's D.1 convention.
//!
//! Bearings are computed with integers only, by binary search on exact cross products
//! against the pinned direction table, and **round down** to the tenth (towards the
//! clockwise neighbour). Arc membership never uses a rounded bearing: it compares the target
//! with the arc's two edge directions by exact cross products.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::point::{Point, Vector};
use super::shape::{Footprint, Solid};

/// A heading in tenths of a degree, `0..3600`, counter-clockwise from +x.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "i64", into = "u16")]
pub struct Heading(u16);

impl TryFrom<i64> for Heading {
    type Error = String;
    /// Player input must already be in `0..3600`.
    fn try_from(t: i64) -> Result<Heading, String> {
        if (0..3600).contains(&t) { Ok(Heading(t as u16)) } else { Err(format!("heading {t} is not in 0..3600 tenths of a degree")) }
    }
}

impl From<Heading> for u16 {
    fn from(h: Heading) -> u16 {
        h.0
    }
}

impl Heading {
    /// A heading from any number of tenths, normalised modulo 3600 (−900 → 2700).
    pub const fn new(tenths: i32) -> Heading {
        Heading(tenths.rem_euclid(3600) as u16)
    }

    /// Tenths of a degree, `0..3600`.
    pub fn tenths(self) -> u16 {
        self.0
    }

    /// The heading turned by `delta` tenths (positive = counter-clockwise, to the left).
    pub fn turned(self, delta: i32) -> Heading {
        Heading::new(self.0 as i32 + delta)
    }

    /// The opposite heading.
    pub fn reversed(self) -> Heading {
        self.turned(1800)
    }

    /// The signed turn from `self` to `to`, in `(−1800, 1800]` tenths; positive is
    /// counter-clockwise. An exact about-face is `+1800`.
    pub fn diff(self, to: Heading) -> i32 {
        let d = (to.0 as i32 - self.0 as i32).rem_euclid(3600);
        if d > 1800 { d - 3600 } else { d }
    }

    /// The unsigned angle between two headings, `0..=1800`.
    pub fn angle_to(self, to: Heading) -> u16 {
        self.diff(to).unsigned_abs() as u16
    }

    /// The heading of a non-zero vector, **rounded down** to the tenth: the `t` with
    /// `dir(t) × v ≥ 0` and `dir(t + 1) × v < 0` inside `v`'s quadrant (digest D.1
    /// "Heading of a vector"). `None` for the zero vector.
    pub fn of_vector(v: Vector) -> Option<Heading> {
        if v.is_zero() {
            return None;
        }
        // Quadrants are half-open so that each axis belongs to the quadrant it starts.
        let q: i32 = if v.x > 0 && v.y >= 0 {
            0
        } else if v.x <= 0 && v.y > 0 {
            1
        } else if v.x < 0 && v.y <= 0 {
            2
        } else {
            3
        };
        // Largest t in [900q, 900q + 899] with dir(t) × v ≥ 0 (true at t = 900q).
        let (mut lo, mut hi) = (q * 900, q * 900 + 899);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            if Vector::of_heading(Heading::new(mid)).cross(v) >= 0 {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Some(Heading::new(lo))
    }

    /// The bearing from `from` to `to` (rounded down, see [`Heading::of_vector`]); `None`
    /// if the points coincide.
    pub fn between(from: Point, to: Point) -> Option<Heading> {
        Heading::of_vector(from.to(to))
    }
}

/// Whether the angle between `u` and `w` is at most `a` tenths (`0..=1800`), by the
/// digest's exact cosine comparison (D.1 "Angles"): with `d = u·w`,
/// `d ≥ 0 ∧ d²·10¹² ≥ COS[a]²·|u|²·|w|²` when `COS[a] ≥ 0`, else `d ≥ 0 ∨ d²·10¹² ≤ …`.
/// A zero vector is within any angle. Vectors must be table-sized (mm, ≤ 2·[`super::MAX_COORD`]).
pub fn angle_within(u: Vector, w: Vector, a: u16) -> bool {
    if u.is_zero() || w.is_zero() || a >= 1800 {
        return true;
    }
    let (c, _) = super::trig::dir(a as i32);
    let d = u.dot(w);
    let lhs = d * d * 1_000_000_000_000;
    let rhs = (c as i128 * c as i128) * u.len_sq() * w.len_sq();
    if c >= 0 { d >= 0 && lhs >= rhs } else { d >= 0 || lhs <= rhs }
}

/// An arc (sector) centred on a facing, `half_width` tenths either side (a 90° front arc is
/// `half_width = 450`). `half_width ≥ 1800` is the whole circle.
///
/// **Boundary rule:** a target exactly on an edge of the arc is **inside** (bounds are
/// inclusive, digest AMB-31), and so is a target at the apex. The edges are the pinned
/// table directions `dir(facing ± half_width)`; membership is decided by exact cross
/// products against them, never by a rounded bearing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Arc {
    pub facing: Heading,
    pub half_width: u16,
}

impl Arc {
    pub fn new(facing: Heading, half_width: u16) -> Arc {
        Arc { facing, half_width: half_width.min(1800) }
    }

    /// Right (clockwise) and left (counter-clockwise) edge directions, scale 10⁶.
    fn edges(self) -> (Vector, Vector) {
        let h = self.half_width as i32;
        (Vector::of_heading(self.facing.turned(-h)), Vector::of_heading(self.facing.turned(h)))
    }

    /// Whether the direction `w` (from the apex) is in the arc.
    pub fn contains_vector(self, w: Vector) -> bool {
        if w.is_zero() || self.half_width >= 1800 {
            return true;
        }
        let (r, l) = self.edges();
        if self.half_width < 900 {
            // Convex wedge: left of the right edge and right of the left edge, and ahead
            // (needed only when the wedge is a single ray).
            r.cross(w) >= 0 && w.cross(l) >= 0 && Vector::of_heading(self.facing).dot(w) >= 0
        } else {
            // The complement is the open convex wedge from the left edge to the right edge.
            !(l.cross(w) > 0 && w.cross(r) > 0)
        }
    }

    /// Whether the point `p` is in the arc with its apex at `apex` (the barrel base).
    pub fn contains(self, apex: Point, p: Point) -> bool {
        self.contains_vector(apex.to(p))
    }

    /// Whether **any part** of a footprint is in the arc (edges and apex inclusive).
    pub fn meets(self, apex: Point, fp: &Footprint) -> bool {
        if self.half_width >= 1800 {
            return true;
        }
        let solid = fp.solid();
        let (r, l) = self.edges();
        if self.half_width < 900 {
            match &solid {
                Solid::Disc { centre, radius } => {
                    self.contains(apex, *centre)
                        || super::segment::ray_point_within(apex, r, *centre, *radius)
                        || super::segment::ray_point_within(apex, l, *centre, *radius)
                }
                Solid::Convex(pts) => {
                    pts.iter().any(|&p| self.contains(apex, p))
                        || solid.contains(apex)
                        || solid.edges().any(|(a, b)| {
                            super::segment::ray_meets_segment(apex, r, a, b) || super::segment::ray_meets_segment(apex, l, a, b)
                        })
                }
            }
        } else {
            // In the arc unless wholly inside the open complementary wedge.
            let strictly_out = |w: Vector| !w.is_zero() && l.cross(w) > 0 && w.cross(r) > 0;
            match &solid {
                Solid::Disc { centre, radius } => {
                    !(strictly_out(apex.to(*centre))
                        && !super::segment::ray_point_within(apex, r, *centre, *radius)
                        && !super::segment::ray_point_within(apex, l, *centre, *radius))
                }
                Solid::Convex(pts) => !pts.iter().all(|&p| strictly_out(apex.to(p))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: i64, y: i64) -> Vector {
        Vector::new(x, y)
    }

    #[test]
    fn normalise_and_diff() {
        assert_eq!(Heading::new(-900).tenths(), 2700);
        assert_eq!(Heading::new(3600).tenths(), 0);
        assert_eq!(Heading::new(7201).tenths(), 1);
        assert_eq!(Heading::new(100).diff(Heading::new(3500)), -200);
        assert_eq!(Heading::new(3500).diff(Heading::new(100)), 200);
        assert_eq!(Heading::new(0).diff(Heading::new(1800)), 1800);
        assert_eq!(Heading::new(1800).diff(Heading::new(0)), 1800);
        assert_eq!(Heading::new(0).diff(Heading::new(1801)), -1799);
        assert_eq!(Heading::new(450).angle_to(Heading::new(3150)), 900);
        assert_eq!(Heading::new(10).reversed().tenths(), 1810);
    }

    #[test]
    fn serde_refuses_out_of_range() {
        assert!(serde_json::from_str::<Heading>("3600").is_err());
        assert!(serde_json::from_str::<Heading>("-1").is_err());
        assert_eq!(serde_json::from_str::<Heading>("1234").ok(), Some(Heading::new(1234)));
        assert_eq!(serde_json::to_string(&Heading::new(5)).ok().as_deref(), Some("5"));
    }

    #[test]
    fn bearings_on_axes_and_diagonals() {
        assert_eq!(Heading::of_vector(v(0, 0)), None);
        assert_eq!(Heading::of_vector(v(5, 0)).map(Heading::tenths), Some(0));
        assert_eq!(Heading::of_vector(v(0, 5)).map(Heading::tenths), Some(900));
        assert_eq!(Heading::of_vector(v(-5, 0)).map(Heading::tenths), Some(1800));
        assert_eq!(Heading::of_vector(v(0, -5)).map(Heading::tenths), Some(2700));
        // The table's 45° direction (707107, 707107) is exactly diagonal.
        assert_eq!(Heading::of_vector(v(7, 7)).map(Heading::tenths), Some(450));
        assert_eq!(Heading::of_vector(v(-7, -7)).map(Heading::tenths), Some(2250));
        // Just clockwise of the diagonal rounds down to 449.
        assert_eq!(Heading::of_vector(v(1000, 999)).map(Heading::tenths), Some(449));
        // Just below the +x axis is in the fourth quadrant: 3599.
        assert_eq!(Heading::of_vector(v(100_000, -1)).map(Heading::tenths), Some(3599));
        assert_eq!(Heading::between(Point::new(10, 10), Point::new(10, 20)).map(Heading::tenths), Some(900));
    }

    #[test]
    fn bearing_of_every_table_direction_is_itself() {
        // Property: for every heading t the table direction has bearing t, and a vector a
        // hair clockwise of it has bearing t − 1 (rounding down).
        for t in 0..3600 {
            let d = Vector::of_heading(Heading::new(t));
            assert_eq!(Heading::of_vector(d).map(Heading::tenths), Some(t as u16), "t={t}");
            let (nx, ny) = (d.x * 1000 + d.y / 1000, d.y * 1000 - d.x / 1000);
            let below = Heading::of_vector(v(nx, ny)).map(Heading::tenths);
            assert_eq!(below, Some(Heading::new(t - 1).tenths()), "below t={t}");
        }
    }

    #[test]
    fn angle_within_thresholds() {
        // 15° SPG arc, compared against the pinned COS[150]: just inside and just outside
        // the table's own direction.
        let fwd = v(1_000_000, 0);
        let (c, s) = super::super::trig::dir(150);
        assert!(angle_within(fwd, v(c, s - 1), 150));
        assert!(!angle_within(fwd, v(c, s + 1), 150));
        assert!(angle_within(fwd, v(0, 10), 900));
        assert!(!angle_within(fwd, v(-1, 10), 900));
        assert!(angle_within(fwd, v(-10, 1), 1790));
        assert!(!angle_within(fwd, v(-1000, 1), 1790));
        assert!(angle_within(fwd, v(-10, 0), 1800));
    }

    #[test]
    fn arc_edges_are_inside() {
        // 90° front arc facing +x: edges at ±45°.
        let arc = Arc::new(Heading::new(0), 450);
        let o = Point::new(0, 0);
        assert!(arc.contains(o, Point::new(100, 100))); // on the left edge
        assert!(arc.contains(o, Point::new(100, -100))); // on the right edge
        assert!(!arc.contains(o, Point::new(100, 101)));
        assert!(!arc.contains(o, Point::new(100, -101)));
        assert!(arc.contains(o, o)); // the apex
        assert!(!arc.contains(o, Point::new(-100, 0)));
        // A single-ray arc (jammed weapon) does not include the backwards ray.
        let ray = Arc::new(Heading::new(0), 0);
        assert!(ray.contains(o, Point::new(50, 0)));
        assert!(!ray.contains(o, Point::new(-50, 0)));
        assert!(!ray.contains(o, Point::new(50, 1)));
    }

    #[test]
    fn any_part_of_a_footprint() {
        let o = Point::new(0, 0);
        let spg = Arc::new(Heading::new(0), 150); // ±15°
        let fp = |x, y, l, w| Footprint::rect(Point::new(x, y), Heading::new(0), l, w);
        assert!(spg.meets(o, &fp(100, 40, 60, 30))); // a corner inside
        // A long wall across the arc: no corner inside, but it crosses the arc.
        assert!(spg.meets(o, &fp(100, 0, 10, 200)));
        assert!(!spg.meets(o, &fp(100, 60, 20, 20)));
        assert!(spg.meets(o, &fp(0, 0, 20, 20))); // the apex is on it
        // A round base 7.93 mm from the 15° edge is touched by it; 9.86 mm is not.
        assert!(spg.meets(o, &Footprint::circle(Point::new(100, 35), 9)));
        assert!(!spg.meets(o, &Footprint::circle(Point::new(100, 37), 9)));
        // Wide arc (±135°): only the rear quarter is out.
        let wide = Arc::new(Heading::new(0), 1350);
        assert!(!wide.meets(o, &Footprint::circle(Point::new(-100, 0), 9)));
        assert!(wide.meets(o, &Footprint::circle(Point::new(-100, 95), 9)));
        assert!(!wide.meets(o, &fp(-100, 0, 20, 20)));
        assert!(wide.meets(o, &fp(-100, 0, 20, 220)));
        assert!(Arc::new(Heading::new(0), 1800).meets(o, &fp(-100, 0, 20, 20)));
    }

    #[test]
    fn wide_arcs() {
        let o = Point::new(0, 0);
        // 180° arc (±90°) facing +y: the x axis is on the edges, hence inside.
        let half = Arc::new(Heading::new(900), 900);
        assert!(half.contains(o, Point::new(10, 0)));
        assert!(half.contains(o, Point::new(-10, 0)));
        assert!(!half.contains(o, Point::new(0, -1)));
        // 270° arc (±135°) facing +x: only the rear 90° is outside.
        let wide = Arc::new(Heading::new(0), 1350);
        assert!(wide.contains(o, Point::new(0, -10)));
        assert!(wide.contains(o, Point::new(-10, 10))); // on the edge
        assert!(!wide.contains(o, Point::new(-10, 9)));
        assert!(Arc::new(Heading::new(0), 1800).contains(o, Point::new(-10, 0)));
    }

    #[test]
    fn arc_consistent_with_angle_within() {
        // Property over a deterministic set of directions and half-widths: the edge test
        // agrees with the cosine test except exactly on the rounded edges.
        let mut seed: u64 = 0x2545_f491;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = ((seed >> 33) % 2001) as i64 - 1000;
            let y = ((seed >> 13) % 2001) as i64 - 1000;
            let facing = Heading::new(((seed >> 45) % 3600) as i32);
            for a in [150u16, 220, 450, 900, 1350] {
                let w = v(x, y);
                let arc = Arc::new(facing, a);
                let by_arc = arc.contains_vector(w);
                let by_cos = angle_within(Vector::of_heading(facing), w, a);
                if by_arc != by_cos {
                    // Only allowed within a tenth of the edge.
                    let b = Heading::of_vector(w).map(|h| facing.angle_to(h)).unwrap_or(0);
                    assert!((b as i32 - a as i32).abs() <= 1, "w={w:?} facing={facing:?} a={a}");
                }
            }
        }
    }
}
