//! Segments: exact intersection (with the collinear cases), distances compared exactly,
//! and rational positions along a segment.

use std::cmp::Ordering;

use super::num::{ceil_div, ceil_sqrt, sat_u32};
use super::point::{Point, Vector, orient};

/// How two closed segments meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// No common point.
    Disjoint,
    /// They cross at a single point interior to both.
    Proper,
    /// They share a single point that is an endpoint of at least one of them.
    Touch,
    /// They are collinear and share more than one point.
    Overlap,
}

impl Crossing {
    /// Whether the segments share at least one point.
    pub fn meets(self) -> bool {
        self != Crossing::Disjoint
    }
}

fn sign(v: i128) -> i32 {
    v.signum() as i32
}

/// Whether `p`, known to be collinear with `a b`, lies on the closed segment `a b`.
fn on_collinear(a: Point, b: Point, p: Point) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// Whether `p` lies on the closed segment `a b`.
pub fn on_segment(a: Point, b: Point, p: Point) -> bool {
    orient(a, b, p) == 0 && on_collinear(a, b, p)
}

/// How the closed segments `a b` and `c d` meet, with exact orientation signs.
pub fn crossing(a: Point, b: Point, c: Point, d: Point) -> Crossing {
    let (o1, o2) = (sign(orient(a, b, c)), sign(orient(a, b, d)));
    let (o3, o4) = (sign(orient(c, d, a)), sign(orient(c, d, b)));
    if o1 == 0 && o2 == 0 {
        // Collinear (or a degenerate segment): overlap of the projections.
        let shared = [c, d].iter().filter(|&&p| on_collinear(a, b, p)).count() + [a, b].iter().filter(|&&p| on_collinear(c, d, p)).count();
        if shared == 0 {
            return Crossing::Disjoint;
        }
        // A single shared point happens only when the segments just touch end to end.
        let pts: Vec<Point> = [a, b, c, d].into_iter().filter(|&p| on_collinear(a, b, p) && on_collinear(c, d, p)).collect();
        let distinct = pts.iter().any(|&p| p != pts[0]);
        return if distinct { Crossing::Overlap } else { Crossing::Touch };
    }
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return Crossing::Proper;
    }
    let touches = (o1 == 0 && on_collinear(a, b, c))
        || (o2 == 0 && on_collinear(a, b, d))
        || (o3 == 0 && on_collinear(c, d, a))
        || (o4 == 0 && on_collinear(c, d, b));
    if touches { Crossing::Touch } else { Crossing::Disjoint }
}

/// Squared distance from `p` to the closed segment `a b`, as an exact fraction
/// `(numerator, denominator)` with a positive denominator (digest D.1 "Distance tests").
pub fn point_segment_dist_sq(p: Point, a: Point, b: Point) -> (i128, i128) {
    let v = a.to(b);
    let w = a.to(p);
    let t = w.dot(v);
    let vv = v.len_sq();
    if t <= 0 || vv == 0 {
        (w.len_sq(), 1)
    } else if t >= vv {
        (b.to(p).len_sq(), 1)
    } else {
        (w.len_sq() * vv - t * t, vv)
    }
}

/// Compares an exact squared distance `(num, den)` with `r²`.
pub fn cmp_dist_sq(d: (i128, i128), r: i128) -> Ordering {
    d.0.cmp(&(r * r * d.1))
}

/// Whether `p` is within `r` mm of the closed segment `a b` (inclusive).
pub fn point_segment_within(p: Point, a: Point, b: Point, r: i128) -> bool {
    cmp_dist_sq(point_segment_dist_sq(p, a, b), r) != Ordering::Greater
}

/// Whether the closed segments `a b` and `c d` come within `r` mm of each other.
pub fn segments_within(a: Point, b: Point, c: Point, d: Point, r: i128) -> bool {
    crossing(a, b, c, d).meets()
        || point_segment_within(a, c, d, r)
        || point_segment_within(b, c, d, r)
        || point_segment_within(c, a, b, r)
        || point_segment_within(d, a, b, r)
}

/// Whether the point `p` is within `r` mm of the ray from `o` along `dir` (any non-zero
/// vector; the ray includes `o`).
pub fn ray_point_within(o: Point, dir: Vector, p: Point, r: i128) -> bool {
    let w = o.to(p);
    let t = w.dot(dir);
    if t <= 0 { w.len_sq() <= r * r } else { w.len_sq() * dir.len_sq() - t * t <= r * r * dir.len_sq() }
}

/// Whether the ray from `o` along `dir` meets the closed segment `a b`. Exact.
pub fn ray_meets_segment(o: Point, dir: Vector, a: Point, b: Point) -> bool {
    let s = a.to(b);
    let q = o.to(a);
    let den = dir.cross(s);
    if den == 0 {
        if q.cross(dir) != 0 {
            return false; // parallel, not collinear
        }
        // Collinear: some endpoint ahead of (or at) the origin.
        return q.dot(dir) >= 0 || o.to(b).dot(dir) >= 0;
    }
    // o + t·dir = a + u·s with t = q×s / den ≥ 0 and u = q×dir / den in [0, 1].
    let (mut tn, mut un, mut d) = (q.cross(s), q.cross(dir), den);
    if d < 0 {
        tn = -tn;
        un = -un;
        d = -d;
    }
    tn >= 0 && un >= 0 && un <= d
}

/// A position along a segment as an exact fraction `num / den` of its length, with
/// `den > 0` and `0 ≤ num ≤ den` for positions on the segment.
#[derive(Clone, Copy, Debug)]
pub struct Ratio {
    pub num: i128,
    pub den: i128,
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    fn new(num: i128, den: i128) -> Ratio {
        if den < 0 { Ratio { num: -num, den: -den } } else { Ratio { num, den } }
    }

    fn in_unit(self) -> bool {
        self.num >= 0 && self.num <= self.den
    }

    /// The midpoint of two positions.
    pub fn mid(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.den + o.num * self.den, 2 * self.den * o.den)
    }

    /// The distance in whole mm from the segment's start to this position on a segment of
    /// squared length `len_sq`, rounded **up**: `⌈√len_sq · num/den⌉`. Monotone in the
    /// position, and equal to the segment's own rounded-up length at the end, so the pieces
    /// of a segment cut at such positions add up exactly to its length.
    pub fn mm_along(self, len_sq: i128) -> u32 {
        if self.num <= 0 {
            return 0;
        }
        let x = ceil_div(len_sq * self.num * self.num, self.den * self.den);
        sat_u32(ceil_sqrt(x.max(0) as u128))
    }
}

impl PartialEq for Ratio {
    fn eq(&self, o: &Ratio) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Ratio {}
impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Ratio) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ratio {
    fn cmp(&self, o: &Ratio) -> Ordering {
        (self.num * o.den).cmp(&(o.num * self.den))
    }
}

/// A point at a rational position `a + (b − a)·t` on a segment, with the exact tests the
/// crossing-number algorithm needs (no scaled coordinates are ever formed, so the products
/// stay inside `i128` for table-sized inputs).
#[derive(Clone, Copy, Debug)]
pub struct RatPoint {
    pub a: Point,
    pub v: Vector,
    pub t: Ratio,
}

impl RatPoint {
    pub fn at(a: Point, b: Point, t: Ratio) -> RatPoint {
        RatPoint { a, v: a.to(b), t }
    }

    pub fn exact(p: Point) -> RatPoint {
        RatPoint { a: p, v: Vector::new(0, 0), t: Ratio::ZERO }
    }

    /// Sign of `x − c` along one axis.
    fn cmp_axis(&self, base: i32, step: i64, c: i32) -> Ordering {
        ((base as i128 - c as i128) * self.t.den + step as i128 * self.t.num).cmp(&0)
    }

    pub fn cmp_x(&self, c: i32) -> Ordering {
        self.cmp_axis(self.a.x, self.v.x, c)
    }

    pub fn cmp_y(&self, c: i32) -> Ordering {
        self.cmp_axis(self.a.y, self.v.y, c)
    }

    /// Sign of the orientation of this point relative to the directed line `p → q`.
    pub fn orient(&self, p: Point, q: Point) -> i32 {
        let e = p.to(q);
        sign(e.cross(p.to(self.a)) * self.t.den + e.cross(self.v) * self.t.num)
    }

    /// Whether this point lies on the closed segment `p q`.
    pub fn on_segment(&self, p: Point, q: Point) -> bool {
        self.orient(p, q) == 0
            && self.cmp_x(p.x.min(q.x)) != Ordering::Less
            && self.cmp_x(p.x.max(q.x)) != Ordering::Greater
            && self.cmp_y(p.y.min(q.y)) != Ordering::Less
            && self.cmp_y(p.y.max(q.y)) != Ordering::Greater
    }
}

/// The positions along `a b` (in `[0, 1]`) where it meets the closed segment `c d`: one
/// for a crossing or touch, the ends of the shared part for a collinear overlap.
pub fn meeting_params(a: Point, b: Point, c: Point, d: Point) -> Vec<Ratio> {
    let v = a.to(b);
    let s = c.to(d);
    let q = a.to(c);
    let den = v.cross(s);
    if v.is_zero() {
        return Vec::new();
    }
    if den == 0 {
        if q.cross(v) != 0 {
            return Vec::new();
        }
        let vv = v.len_sq();
        let mut out: Vec<Ratio> = [c, d].iter().map(|&p| Ratio::new(a.to(p).dot(v), vv)).filter(|t| t.in_unit()).collect();
        // The ends of a b inside c d are breakpoints too.
        if on_collinear(c, d, a) {
            out.push(Ratio::ZERO);
        }
        if on_collinear(c, d, b) {
            out.push(Ratio::ONE);
        }
        return out;
    }
    let t = Ratio::new(q.cross(s), den);
    let u = Ratio::new(q.cross(v), den);
    if t.in_unit() && u.in_unit() { vec![t] } else { Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn crossing_cases() {
        assert_eq!(crossing(p(0, 0), p(10, 10), p(0, 10), p(10, 0)), Crossing::Proper);
        assert_eq!(crossing(p(0, 0), p(10, 0), p(5, 0), p(5, 5)), Crossing::Touch);
        assert_eq!(crossing(p(0, 0), p(10, 0), p(10, 0), p(20, 0)), Crossing::Touch);
        assert_eq!(crossing(p(0, 0), p(10, 0), p(5, 0), p(20, 0)), Crossing::Overlap);
        assert_eq!(crossing(p(0, 0), p(10, 0), p(11, 0), p(20, 0)), Crossing::Disjoint);
        assert_eq!(crossing(p(0, 0), p(10, 0), p(0, 1), p(10, 1)), Crossing::Disjoint);
        assert_eq!(crossing(p(0, 0), p(10, 0), p(5, 1), p(5, 5)), Crossing::Disjoint);
        // A degenerate segment (a point) on another.
        assert_eq!(crossing(p(3, 0), p(3, 0), p(0, 0), p(10, 0)), Crossing::Touch);
        // Nearly parallel long segments: exact arithmetic still separates them.
        assert_eq!(crossing(p(-100_000, 0), p(100_000, 1), p(-100_000, 1), p(100_000, 2)), Crossing::Disjoint);
    }

    #[test]
    fn point_segment_distances() {
        let (a, b) = (p(0, 0), p(100, 0));
        assert!(point_segment_within(p(50, 30), a, b, 30));
        assert!(!point_segment_within(p(50, 31), a, b, 30));
        // Beyond an end, the distance is to the end point: (103, 4) is 5 from (100, 0).
        assert!(point_segment_within(p(103, 4), a, b, 5));
        assert!(!point_segment_within(p(103, 4), a, b, 4));
        // Diagonal segment, perpendicular distance √2 = 1.41…: within 2, not within 1.
        assert!(point_segment_within(p(0, 2), p(0, 0), p(10, 10), 2));
        assert!(!point_segment_within(p(0, 2), p(0, 0), p(10, 10), 1));
    }

    #[test]
    fn rays() {
        let o = p(0, 0);
        let east = Vector::new(1_000_000, 0);
        assert!(ray_meets_segment(o, east, p(50, -5), p(50, 5)));
        assert!(ray_meets_segment(o, east, p(50, 0), p(50, 5))); // endpoint on the ray
        assert!(!ray_meets_segment(o, east, p(-50, -5), p(-50, 5)));
        assert!(!ray_meets_segment(o, east, p(-5, 0), p(-1, 0)));
        assert!(ray_meets_segment(o, east, p(-5, 0), p(3, 0)));
        assert!(ray_point_within(o, east, p(-3, 4), 5));
        assert!(!ray_point_within(o, east, p(-3, 4), 4));
        assert!(ray_point_within(o, east, p(1000, 4), 4));
    }

    #[test]
    fn ratios_and_lengths() {
        assert!(Ratio { num: 1, den: 3 } < Ratio { num: 1, den: 2 });
        assert_eq!(Ratio { num: 2, den: 4 }, Ratio { num: 1, den: 2 });
        // Along a 3-4-5 segment scaled to 50 mm, half way is 25 mm.
        assert_eq!(Ratio { num: 1, den: 2 }.mm_along(2500), 25);
        // A third of 10 mm is 3.33 → 4 (rounded up); the end is the full ceil length.
        assert_eq!(Ratio { num: 1, den: 3 }.mm_along(100), 4);
        assert_eq!(Ratio::ONE.mm_along(26), 6);
        assert_eq!(Ratio::ZERO.mm_along(26), 0);
    }

    #[test]
    fn meeting_parameters() {
        let ts = meeting_params(p(0, 0), p(100, 0), p(25, -10), p(25, 10));
        assert_eq!(ts, vec![Ratio { num: 1, den: 4 }]);
        let mut ts = meeting_params(p(0, 0), p(100, 0), p(20, 0), p(150, 0));
        ts.sort();
        assert_eq!(ts, vec![Ratio { num: 1, den: 5 }, Ratio::ONE]);
        assert!(meeting_params(p(0, 0), p(100, 0), p(0, 1), p(100, 1)).is_empty());
    }
}
