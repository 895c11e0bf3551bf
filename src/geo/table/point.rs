//! Points and vectors in integer millimetres.
//!
//! Table coordinates: origin at a table corner, x along a long side, y across it; a
//! heading of 0 points along +x and headings grow counter-clockwise (see [`super::angle`]).
//! Every product is computed in `i128`, and every function is exact for points within
//! ±[`MAX_COORD`] mm.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::angle::Heading;
use super::num::{ceil_sqrt, round_div, sat_i32, sat_u32};
use super::trig::TRIG_SCALE;

/// The largest coordinate (in mm, either sign) for which every function of
/// [`super`] is exact: 100 m, fifty times the longest Steel Wheels table. Products of
/// lengths, cross products and rational crossing parameters all stay inside `i128` below
/// this bound. Positions read from players must be checked with [`Point::checked`].
pub const MAX_COORD: i32 = 100_000;

/// A point on the table, in whole millimetres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

/// A displacement in millimetres (or, for directions, at scale 10⁶).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vector {
    pub x: i64,
    pub y: i64,
}

impl Vector {
    pub const fn new(x: i64, y: i64) -> Vector {
        Vector { x, y }
    }

    /// Dot product, exact.
    pub fn dot(self, o: Vector) -> i128 {
        self.x as i128 * o.x as i128 + self.y as i128 * o.y as i128
    }

    /// Cross product `self × o` (z component), exact; positive when `o` lies
    /// counter-clockwise of `self`.
    pub fn cross(self, o: Vector) -> i128 {
        self.x as i128 * o.y as i128 - self.y as i128 * o.x as i128
    }

    /// Squared length, exact.
    pub fn len_sq(self) -> i128 {
        self.dot(self)
    }

    pub fn is_zero(self) -> bool {
        self.x == 0 && self.y == 0
    }

    /// The unit direction of a heading at scale 10⁶ (from the pinned table).
    pub fn of_heading(h: Heading) -> Vector {
        let (c, s) = super::trig::dir(h.tenths() as i32);
        Vector::new(c, s)
    }
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// A point from player input, if both coordinates are within ±[`MAX_COORD`].
    pub fn checked(x: i64, y: i64) -> Option<Point> {
        let lim = MAX_COORD as i64;
        ((-lim..=lim).contains(&x) && (-lim..=lim).contains(&y)).then_some(Point::new(x as i32, y as i32))
    }

    /// Whether both coordinates are within ±[`MAX_COORD`].
    pub fn in_range(self) -> bool {
        Point::checked(self.x as i64, self.y as i64).is_some()
    }

    /// The vector from `self` to `to`.
    pub fn to(self, to: Point) -> Vector {
        Vector::new(to.x as i64 - self.x as i64, to.y as i64 - self.y as i64)
    }

    /// `self + v` (saturating at the `i32` range).
    pub fn plus(self, v: Vector) -> Point {
        Point::new(sat_i32(self.x as i128 + v.x as i128), sat_i32(self.y as i128 + v.y as i128))
    }

    /// Squared distance in mm², exact.
    pub fn distance_sq(self, other: Point) -> i128 {
        self.to(other).len_sq()
    }

    /// Distance in whole mm, rounded **up**: the least `L` with `L² ≥ dx² + dy²`
    /// (digest D.1 "Lengths"). 3-4-5 gives 5; a squared distance of 26 gives 6.
    pub fn distance_mm(self, other: Point) -> u32 {
        sat_u32(ceil_sqrt(self.distance_sq(other).unsigned_abs()))
    }

    /// "Within `r_mm`" between two points: `dx² + dy² ≤ r²`, exact and inclusive.
    pub fn within(self, other: Point, r_mm: u32) -> bool {
        let r = r_mm as i128;
        self.distance_sq(other) <= r * r
    }

    /// The point `length_mm` away along `heading` (deviation, scatter, run-on):
    /// `(x + round_div(L·cos θ, 10⁶), y + round_div(L·sin θ, 10⁶))`, halves away from zero
    /// (digest D.1 "Rounding", IMP-1). A negative length moves backwards.
    pub fn offset(self, length_mm: i32, heading: Heading) -> Point {
        let d = Vector::of_heading(heading);
        let l = length_mm as i128;
        let s = TRIG_SCALE as i128;
        Point::new(sat_i32(self.x as i128 + round_div(l * d.x as i128, s)), sat_i32(self.y as i128 + round_div(l * d.y as i128, s)))
    }
}

/// Orientation of `c` relative to the directed line `a → b`: `> 0` left
/// (counter-clockwise), `< 0` right, `0` collinear. Exact.
pub fn orient(a: Point, b: Point, c: Point) -> i128 {
    a.to(b).cross(a.to(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_four_five() {
        let o = Point::new(0, 0);
        assert_eq!(o.distance_sq(Point::new(3, 4)), 25);
        assert_eq!(o.distance_mm(Point::new(3, 4)), 5);
        assert_eq!(o.distance_mm(Point::new(30, 40)), 50);
        assert!(o.within(Point::new(3, 4), 5));
        assert!(!o.within(Point::new(3, 4), 4));
    }

    #[test]
    fn next_to_perfect_squares() {
        let o = Point::new(0, 0);
        // 20 (just under 25) → 5, rounded up; 26 = 25 + 1 → 6.
        assert_eq!(o.distance_mm(Point::new(2, 4)), 5);
        assert_eq!(o.distance_mm(Point::new(1, 5)), 6); // 26 → 6
        assert_eq!(o.distance_mm(Point::new(5, 0)), 5);
        assert_eq!(o.distance_mm(Point::new(1, 1)), 2); // √2 → 2
        // "within" is exact: (1, 5) is within 6 but not within 5.
        assert!(o.within(Point::new(1, 5), 6));
        assert!(!o.within(Point::new(1, 5), 5));
        // 80 mm (8 cm) boundary, both sides.
        assert!(o.within(Point::new(48, 64), 80));
        assert!(!o.within(Point::new(48, 65), 80));
    }

    #[test]
    fn checked_limits() {
        assert!(Point::checked(100_000, -100_000).is_some());
        assert!(Point::checked(100_001, 0).is_none());
        assert!(Point::checked(0, i64::MIN).is_none());
    }

    #[test]
    fn offset_rounds_half_away() {
        let o = Point::new(0, 0);
        assert_eq!(o.offset(100, Heading::new(0)), Point::new(100, 0));
        assert_eq!(o.offset(100, Heading::new(900)), Point::new(0, 100));
        assert_eq!(o.offset(100, Heading::new(1800)), Point::new(-100, 0));
        // 100·cos 30° = 86.6025 → 87; 100·sin 30° = 50.
        assert_eq!(o.offset(100, Heading::new(300)), Point::new(87, 50));
        // 1·0.5 = 0.5 → 1 (half away from zero), also negative: −0.5 → −1.
        assert_eq!(o.offset(1, Heading::new(600)), Point::new(1, 1));
        assert_eq!(o.offset(1, Heading::new(2400)), Point::new(-1, -1));
        assert_eq!(o.offset(-100, Heading::new(0)), Point::new(-100, 0));
    }

    #[test]
    fn orientation_signs() {
        let (a, b) = (Point::new(0, 0), Point::new(10, 0));
        assert!(orient(a, b, Point::new(5, 1)) > 0);
        assert!(orient(a, b, Point::new(5, -1)) < 0);
        assert_eq!(orient(a, b, Point::new(20, 0)), 0);
    }
}
