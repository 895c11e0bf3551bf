//! Shapes: terrain polygons (simple, possibly concave) and model footprints (round figure
//! bases and oriented rectangles), with exact distance, overlap and containment tests.
//!
//! **Boundary rules.** A polygon contains the points of its boundary. Two footprints are
//! "within R" when the shortest distance between them is ≤ R (0 if they touch or overlap,
//! digest D.1 "Distance tests"); they *overlap* only when their interiors share a point, so
//! bases in contact do not overlap.

use std::cmp::Ordering;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::angle::Heading;
use super::num::{round_div, sat_i32};
use super::point::{Point, Vector, orient};
use super::segment::{RatPoint, cmp_dist_sq, crossing, meeting_params, on_segment, point_segment_dist_sq, point_segment_within};
use super::trig::TRIG_SCALE;

/// Why a polygon was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("a polygon needs at least 3 vertices, got {0}")]
    TooFewVertices(usize),
    #[error("vertex {0} is outside the table limits (±{limit} mm)", limit = super::point::MAX_COORD)]
    OutOfRange(usize),
    #[error("the polygon has no area")]
    NoArea,
    #[error("edges {0} and {1} of the polygon meet (it must be simple)")]
    NotSimple(usize, usize),
}

/// A simple polygon with integer vertices (an area terrain element's base, digest B.3).
/// Either winding is accepted; the boundary belongs to the polygon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "Vec<Point>", into = "Vec<Point>")]
pub struct Polygon {
    vertices: Vec<Point>,
}

impl TryFrom<Vec<Point>> for Polygon {
    type Error = ShapeError;
    fn try_from(v: Vec<Point>) -> Result<Polygon, ShapeError> {
        Polygon::new(v)
    }
}

impl From<Polygon> for Vec<Point> {
    fn from(p: Polygon) -> Vec<Point> {
        p.vertices
    }
}

impl Polygon {
    /// A polygon from its vertices in order: at least 3, within the table limits, with
    /// non-zero area, and simple (no two edges meet except neighbours at their shared vertex).
    pub fn new(vertices: Vec<Point>) -> Result<Polygon, ShapeError> {
        let n = vertices.len();
        if n < 3 {
            return Err(ShapeError::TooFewVertices(n));
        }
        if let Some(i) = vertices.iter().position(|p| !p.in_range()) {
            return Err(ShapeError::OutOfRange(i));
        }
        let poly = Polygon { vertices };
        if poly.area2() == 0 {
            return Err(ShapeError::NoArea);
        }
        let e: Vec<(Point, Point)> = poly.edges().collect();
        for i in 0..n {
            for j in i + 1..n {
                let adjacent = j == i + 1 || (i == 0 && j == n - 1);
                let c = crossing(e[i].0, e[i].1, e[j].0, e[j].1);
                let bad = if adjacent {
                    // Neighbours share one vertex; they may not fold back over each other.
                    c == super::segment::Crossing::Overlap
                } else {
                    c.meets()
                };
                if bad {
                    return Err(ShapeError::NotSimple(i, j));
                }
            }
        }
        Ok(poly)
    }

    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The edges `(vᵢ, vᵢ₊₁)`, closing back to the first vertex.
    pub fn edges(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (self.vertices[i], self.vertices[(i + 1) % n]))
    }

    /// Twice the signed area (positive for counter-clockwise winding), exact.
    pub fn area2(&self) -> i128 {
        self.edges().map(|(a, b)| Vector::new(a.x as i64, a.y as i64).cross(Vector::new(b.x as i64, b.y as i64))).sum()
    }

    /// Whether `p` is in the polygon, **boundary included**. Exact crossing-number test.
    pub fn contains(&self, p: Point) -> bool {
        self.contains_rat(&RatPoint::exact(p))
    }

    /// Whether `p` is on the boundary.
    pub fn on_boundary(&self, p: Point) -> bool {
        self.edges().any(|(a, b)| on_segment(a, b, p))
    }

    /// Whether `p` is inside and not on the boundary.
    pub fn contains_strictly(&self, p: Point) -> bool {
        self.contains(p) && !self.on_boundary(p)
    }

    /// Whether a point at a rational position lies in this polygon, taken as **convex**
    /// (boundary included): on the inner side of every edge or on it.
    pub fn convex_contains_rat(&self, x: &RatPoint) -> bool {
        let ccw = self.area2() > 0;
        self.edges().all(|(p, q)| {
            let o = x.orient(p, q);
            o == 0 || (o > 0) == ccw
        })
    }

    /// Whether the segment `a b` meets this polygon's boundary only inside the convex
    /// `zone` (boundary included): every crossing, touch or shared stretch of the two lies
    /// in the zone. A segment that never meets the boundary passes.
    pub fn meets_boundary_only_in(&self, a: Point, b: Point, zone: &Polygon) -> bool {
        self.edges().all(|(p, q)| meeting_params(a, b, p, q).into_iter().all(|t| zone.convex_contains_rat(&RatPoint::at(a, b, t))))
    }

    /// Crossing number (ray towards +x) for a point at a rational position; the boundary
    /// counts as inside.
    pub(super) fn contains_rat(&self, x: &RatPoint) -> bool {
        let mut inside = false;
        for (a, b) in self.edges() {
            if x.on_segment(a, b) {
                return true;
            }
            let a_above = x.cmp_y(a.y) == Ordering::Less; // a.y > x.y
            let b_above = x.cmp_y(b.y) == Ordering::Less;
            if a_above != b_above {
                let o = x.orient(a, b);
                // Upward edge: the crossing is to the right of x iff x is left of the edge.
                if (b.y > a.y) == (o > 0) {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Whether a rational point is in the open interior.
    pub(super) fn contains_rat_strictly(&self, x: &RatPoint) -> bool {
        self.contains_rat(x) && !self.edges().any(|(a, b)| x.on_segment(a, b))
    }

    /// Whether `p` is inside and **more than** `r_mm` from every edge ("more than 5 cm inside
    /// woods", IFP-6). Exact.
    pub fn deeper_than(&self, p: Point, r_mm: u32) -> bool {
        self.contains_strictly(p)
            && self.edges().all(|(a, b)| cmp_dist_sq(point_segment_dist_sq(p, a, b), r_mm as i128) == Ordering::Greater)
    }

    /// The centroid (shoelace formula), each coordinate rounded half away from zero
    /// (digest D.1 "Centre of an element", IFP-5).
    pub fn centroid(&self) -> Point {
        let mut a2 = self.area2();
        let (mut sx, mut sy) = (0i128, 0i128);
        for (p, q) in self.edges() {
            let c = Vector::new(p.x as i64, p.y as i64).cross(Vector::new(q.x as i64, q.y as i64));
            sx += (p.x as i128 + q.x as i128) * c;
            sy += (p.y as i128 + q.y as i128) * c;
        }
        if a2 < 0 {
            a2 = -a2;
            sx = -sx;
            sy = -sy;
        }
        Point::new(sat_i32(round_div(sx, 3 * a2)), sat_i32(round_div(sy, 3 * a2)))
    }

    /// Whether a footprint lies **wholly** on this polygon (boundary included), the test for
    /// an area element's effects (digest B.3, SW-TERR-1).
    pub fn contains_footprint(&self, fp: &Footprint) -> bool {
        match fp.solid() {
            Solid::Disc { centre, radius } => {
                self.contains(centre)
                    && self.edges().all(|(a, b)| cmp_dist_sq(point_segment_dist_sq(centre, a, b), radius) != Ordering::Less)
            }
            solid @ Solid::Convex(_) => {
                // The footprint's centre is interior to it; if no edge of the polygon enters
                // the footprint's interior, the footprint is wholly in or wholly out.
                self.contains(fp.centre()) && self.edges().all(|(a, b)| !solid.segment_enters(a, b))
            }
        }
    }
}

/// A model's or figure's footprint on the table (digest D.1 "Footprints").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Footprint {
    /// A round figure base: radius 9, 8 or 5 mm for bases of 18, 16 or 10 mm.
    Circle { centre: Point, radius_mm: u32 },
    /// A rectangle: `length_mm` along `heading`, `width_mm` across it, centred on `centre`.
    /// Corners are rounded from the pinned table (see [`Footprint::corners`]).
    Rect { centre: Point, heading: Heading, length_mm: u32, width_mm: u32 },
}

/// A footprint or template reduced to what the tests need: a disc, or a convex polygon in
/// counter-clockwise order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Solid {
    Disc { centre: Point, radius: i128 },
    Convex(Vec<Point>),
}

impl Footprint {
    pub fn circle(centre: Point, radius_mm: u32) -> Footprint {
        Footprint::Circle { centre, radius_mm }
    }

    pub fn rect(centre: Point, heading: Heading, length_mm: u32, width_mm: u32) -> Footprint {
        Footprint::Rect { centre, heading, length_mm, width_mm }
    }

    pub fn centre(&self) -> Point {
        match *self {
            Footprint::Circle { centre, .. } | Footprint::Rect { centre, .. } => centre,
        }
    }

    /// The four corners of a rectangle, counter-clockwise from front-right; empty for a
    /// circle. With `(c, s) = dir(heading)` (scale 10⁶), `L` the length and `W` the width,
    /// the corner `(a, b)` with `a, b = ±1` is the centre plus
    /// `round_div(a·L·c − b·W·s, 2·10⁶)`, `round_div(a·L·s + b·W·c, 2·10⁶)`, halves away
    /// from zero. The rounding is odd, so the corners are symmetric about the centre and
    /// the footprint is a parallelogram within ½ mm of the true rectangle.
    pub fn corners(&self) -> Vec<Point> {
        match *self {
            Footprint::Circle { .. } => Vec::new(),
            Footprint::Rect { centre, heading, length_mm, width_mm } => {
                let (c, s) = super::trig::dir(heading.tenths() as i32);
                let (l, w) = (length_mm.max(1) as i128, width_mm.max(1) as i128);
                let k = 2 * TRIG_SCALE as i128;
                [(1, -1), (1, 1), (-1, 1), (-1, -1)]
                    .into_iter()
                    .map(|(a, b): (i128, i128)| {
                        let dx = round_div(a * l * c as i128 - b * w * s as i128, k);
                        let dy = round_div(a * l * s as i128 + b * w * c as i128, k);
                        Point::new(sat_i32(centre.x as i128 + dx), sat_i32(centre.y as i128 + dy))
                    })
                    .collect()
            }
        }
    }

    /// Sample points for sight: the corners and the centre of a rectangle (digest D.1
    /// "Visible fractions"), or the centre of a round base.
    pub fn samples(&self) -> Vec<Point> {
        let mut s = self.corners();
        s.push(self.centre());
        s
    }

    pub(super) fn solid(&self) -> Solid {
        match *self {
            Footprint::Circle { centre, radius_mm } => Solid::Disc { centre, radius: radius_mm as i128 },
            Footprint::Rect { centre, .. } => {
                let c = self.corners();
                if (Polygon { vertices: c.clone() }).area2() == 0 { Solid::Disc { centre, radius: 0 } } else { Solid::Convex(c) }
            }
        }
    }

    /// Whether the shortest distance between the two footprints is at most `r_mm`
    /// (0 when they touch or overlap). Exact.
    pub fn within(&self, other: &Footprint, r_mm: u32) -> bool {
        self.solid().within(&other.solid(), r_mm as i128)
    }

    /// Whether a point is within `r_mm` of this footprint (0 inside it).
    pub fn within_point(&self, p: Point, r_mm: u32) -> bool {
        self.solid().within(&Solid::Disc { centre: p, radius: 0 }, r_mm as i128)
    }

    /// Edge-to-edge distance in whole mm, rounded **up**: the least `R` for which
    /// [`Footprint::within`] holds. 0 for touching or overlapping footprints.
    pub fn gap_mm(&self, other: &Footprint) -> u32 {
        let (a, b) = (self.solid(), other.solid());
        let (mut lo, mut hi) = (0u32, self.centre().distance_mm(other.centre()));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if a.within(&b, mid as i128) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// Whether the interiors overlap (bases merely in contact do not).
    pub fn overlaps(&self, other: &Footprint) -> bool {
        self.solid().overlaps(&other.solid())
    }

    /// Whether the point is on the footprint (boundary included).
    pub fn contains(&self, p: Point) -> bool {
        self.solid().contains(p)
    }

    /// Whether the closed segment `a b` meets the footprint.
    pub fn meets_segment(&self, a: Point, b: Point) -> bool {
        self.solid().meets_segment(a, b)
    }
}

impl Solid {
    /// A convex polygon from its vertices in either order (made counter-clockwise).
    pub(super) fn convex(mut pts: Vec<Point>) -> Solid {
        if (Polygon { vertices: pts.clone() }).area2() < 0 {
            pts.reverse();
        }
        Solid::Convex(pts)
    }

    pub(super) fn edges(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        let pts: &[Point] = match self {
            Solid::Disc { .. } => &[],
            Solid::Convex(p) => p,
        };
        let n = pts.len();
        (0..n).map(move |i| (pts[i], pts[(i + 1) % n]))
    }

    /// Closed containment.
    pub(super) fn contains(&self, p: Point) -> bool {
        match self {
            Solid::Disc { centre, radius } => centre.distance_sq(p) <= radius * radius,
            Solid::Convex(_) => self.edges().all(|(a, b)| orient(a, b, p) >= 0),
        }
    }

    fn contains_strictly(&self, p: Point) -> bool {
        match self {
            Solid::Disc { centre, radius } => centre.distance_sq(p) < radius * radius,
            Solid::Convex(_) => self.edges().all(|(a, b)| orient(a, b, p) > 0),
        }
    }

    fn vertices(&self) -> &[Point] {
        match self {
            Solid::Disc { .. } => &[],
            Solid::Convex(p) => p,
        }
    }

    /// Shortest distance ≤ r (0 if they meet).
    pub(super) fn within(&self, o: &Solid, r: i128) -> bool {
        match (self, o) {
            (Solid::Disc { centre: c1, radius: r1 }, Solid::Disc { centre: c2, radius: r2 }) => {
                let s = r + r1 + r2;
                c1.distance_sq(*c2) <= s * s
            }
            (Solid::Disc { centre, radius }, poly @ Solid::Convex(_)) | (poly @ Solid::Convex(_), Solid::Disc { centre, radius }) => {
                poly.contains(*centre) || poly.edges().any(|(a, b)| point_segment_within(*centre, a, b, r + radius))
            }
            (Solid::Convex(_), Solid::Convex(_)) => {
                self.vertices().iter().any(|&p| o.contains(p))
                    || o.vertices().iter().any(|&p| self.contains(p))
                    || self.edges().any(|(a, b)| {
                        o.edges().any(|(c, d)| {
                            crossing(a, b, c, d).meets() || point_segment_within(a, c, d, r) || point_segment_within(c, a, b, r)
                        })
                    })
            }
        }
    }

    /// Interiors share a point.
    pub(super) fn overlaps(&self, o: &Solid) -> bool {
        match (self, o) {
            (Solid::Disc { centre: c1, radius: r1 }, Solid::Disc { centre: c2, radius: r2 }) => {
                let s = r1 + r2;
                c1.distance_sq(*c2) < s * s
            }
            (Solid::Disc { centre, radius }, poly @ Solid::Convex(_)) | (poly @ Solid::Convex(_), Solid::Disc { centre, radius }) => {
                poly.contains_strictly(*centre)
                    || poly.edges().any(|(a, b)| cmp_dist_sq(point_segment_dist_sq(*centre, a, b), *radius) == Ordering::Less)
            }
            (Solid::Convex(_), Solid::Convex(_)) => {
                // Separating-axis test on the edges of both (exact): some edge has every
                // vertex of the other polygon on its outer closed side.
                let separated = |p: &Solid, q: &Solid| p.edges().any(|(a, b)| q.vertices().iter().all(|&v| orient(a, b, v) <= 0));
                !separated(self, o) && !separated(o, self)
            }
        }
    }

    /// Whether the closed segment `a b` meets this solid.
    pub(super) fn meets_segment(&self, a: Point, b: Point) -> bool {
        match self {
            Solid::Disc { centre, radius } => point_segment_within(*centre, a, b, *radius),
            Solid::Convex(_) => self.contains(a) || self.contains(b) || self.edges().any(|(c, d)| crossing(a, b, c, d).meets()),
        }
    }

    /// Whether the segment `a b` meets the open interior of a convex solid: no separating
    /// line among the solid's edges and the segment's own line (exact SAT).
    fn segment_enters(&self, a: Point, b: Point) -> bool {
        let by_edge = self.edges().any(|(c, d)| orient(c, d, a) <= 0 && orient(c, d, b) <= 0);
        let by_line = if a == b {
            false
        } else {
            self.vertices().iter().all(|&v| orient(a, b, v) >= 0) || self.vertices().iter().all(|&v| orient(a, b, v) <= 0)
        };
        !by_edge && !by_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    fn square(x0: i32, y0: i32, side: i32) -> Polygon {
        Polygon::new(vec![p(x0, y0), p(x0 + side, y0), p(x0 + side, y0 + side), p(x0, y0 + side)]).unwrap()
    }

    /// An L-shaped (concave) wood: the 100 mm square minus its top-right quarter.
    fn ell() -> Polygon {
        Polygon::new(vec![p(0, 0), p(100, 0), p(100, 50), p(50, 50), p(50, 100), p(0, 100)]).unwrap()
    }

    #[test]
    fn polygon_validation() {
        assert_eq!(Polygon::new(vec![p(0, 0), p(1, 1)]), Err(ShapeError::TooFewVertices(2)));
        assert_eq!(Polygon::new(vec![p(0, 0), p(1, 1), p(2, 2)]), Err(ShapeError::NoArea));
        assert_eq!(Polygon::new(vec![p(0, 0), p(200_000, 0), p(0, 5)]), Err(ShapeError::OutOfRange(1)));
        // A bow tie is not simple.
        assert!(matches!(Polygon::new(vec![p(0, 0), p(10, 10), p(10, 0), p(0, 20)]), Err(ShapeError::NotSimple(_, _))));
        assert!(serde_json::from_str::<Polygon>(r#"[{"x":0,"y":0},{"x":5,"y":0},{"x":0,"y":5}]"#).is_ok());
        assert!(serde_json::from_str::<Polygon>(r#"[{"x":0,"y":0},{"x":5,"y":0}]"#).is_err());
    }

    #[test]
    fn point_in_polygon_boundary_inclusive() {
        let l = ell();
        assert!(l.contains(p(25, 25)));
        assert!(l.contains(p(0, 0))); // vertex
        assert!(l.contains(p(50, 75))); // on an edge
        assert!(l.contains(p(75, 50))); // on the inner edge
        assert!(!l.contains(p(75, 75))); // the notch
        assert!(!l.contains(p(101, 25)));
        assert!(l.contains_strictly(p(25, 25)));
        assert!(!l.contains_strictly(p(50, 75)));
        // The ray from (−10, 50) passes exactly through the vertex (50, 50) and (100, 50).
        assert!(!l.contains(p(-10, 50)));
        assert!(!l.contains(p(110, 50)));
        assert!(l.contains(p(10, 50)));
        // Clockwise winding gives the same answers.
        let mut v = l.vertices().to_vec();
        v.reverse();
        let cw = Polygon::new(v).unwrap();
        for q in [p(25, 25), p(75, 75), p(50, 75), p(-10, 50), p(10, 50)] {
            assert_eq!(cw.contains(q), l.contains(q));
        }
    }

    #[test]
    fn depth_inside() {
        let wood = square(0, 0, 200);
        assert!(wood.deeper_than(p(51, 100), 50));
        assert!(!wood.deeper_than(p(50, 100), 50));
        assert!(!wood.deeper_than(p(-51, 100), 50));
        assert!(wood.deeper_than(p(100, 100), 99) && !wood.deeper_than(p(100, 100), 100));
    }

    #[test]
    fn centroid_rounds_half_away() {
        assert_eq!(square(0, 0, 100).centroid(), p(50, 50));
        assert_eq!(square(0, 0, 3).centroid(), p(2, 2)); // 1.5 → 2
        assert_eq!(square(-3, -3, 3).centroid(), p(-2, -2)); // −1.5 → −2
        // The L: area 7500, centroid (41.67, 41.67) → 42.
        assert_eq!(ell().centroid(), p(42, 42));
    }

    #[test]
    fn rect_corners() {
        let r = Footprint::rect(p(0, 0), Heading::new(0), 60, 30);
        assert_eq!(r.corners(), vec![p(30, -15), p(30, 15), p(-30, 15), p(-30, -15)]);
        let r = Footprint::rect(p(100, 100), Heading::new(900), 60, 30);
        assert_eq!(r.corners(), vec![p(115, 130), p(85, 130), p(85, 70), p(115, 70)]);
        // 30°: front-right = (30·0.866 + 15·0.5, 30·0.5 − 15·0.866) = (33.48, 2.01) → (33, 2).
        let r = Footprint::rect(p(0, 0), Heading::new(300), 60, 30);
        let c = r.corners();
        assert_eq!(c[0], p(33, 2));
        // Symmetric about the centre.
        assert_eq!(c[2], p(-33, -2));
        // Odd sizes: 5 × 3 at 0° → ±2.5 → ±3, ±1.5 → ±2.
        assert_eq!(Footprint::rect(p(0, 0), Heading::new(0), 5, 3).corners()[1], p(3, 2));
    }

    #[test]
    fn distances_between_footprints() {
        let a = Footprint::circle(p(0, 0), 9);
        let b = Footprint::circle(p(30, 40), 9);
        // Centres 50 apart, radii 9 + 9: gap 32.
        assert!(a.within(&b, 32));
        assert!(!a.within(&b, 31));
        assert_eq!(a.gap_mm(&b), 32);
        let tank = Footprint::rect(p(100, 0), Heading::new(0), 60, 30); // x 70..130, y −15..15
        assert_eq!(a.gap_mm(&tank), 61);
        assert!(a.within(&tank, 61) && !a.within(&tank, 60));
        let t2 = Footprint::rect(p(100, 50), Heading::new(0), 60, 30); // y 35..65
        assert_eq!(tank.gap_mm(&t2), 20);
        // Corner to corner along a diagonal: (130, −15) to (133, −19) is 5.
        let t3 = Footprint::rect(p(163, -34), Heading::new(0), 60, 30);
        assert_eq!(tank.gap_mm(&t3), 5);
        assert!(tank.within(&t3, 5) && !tank.within(&t3, 4));
        // Point within.
        assert!(tank.within_point(p(100, 25), 10) && !tank.within_point(p(100, 26), 10));
        assert!(tank.within_point(p(100, 0), 0));
    }

    #[test]
    fn overlap_and_contact() {
        let tank = Footprint::rect(p(0, 0), Heading::new(0), 60, 30);
        let touching = Footprint::rect(p(60, 0), Heading::new(0), 60, 30);
        assert!(!tank.overlaps(&touching));
        assert!(tank.within(&touching, 0));
        let over = Footprint::rect(p(59, 0), Heading::new(0), 60, 30);
        assert!(tank.overlaps(&over));
        let rotated = Footprint::rect(p(0, 0), Heading::new(450), 60, 30);
        assert!(tank.overlaps(&rotated));
        let fig = Footprint::circle(p(39, 0), 9);
        assert!(!tank.overlaps(&fig) && tank.within(&fig, 0));
        assert!(tank.overlaps(&Footprint::circle(p(38, 0), 9)));
        assert!(Footprint::circle(p(0, 0), 9).overlaps(&Footprint::circle(p(17, 0), 9)));
        assert!(!Footprint::circle(p(0, 0), 9).overlaps(&Footprint::circle(p(18, 0), 9)));
    }

    #[test]
    fn gap_properties() {
        // Property over a deterministic family of footprints: the gap is symmetric, exact
        // (within the gap, not within one less), and overlapping footprints have gap 0.
        let mut seed: u64 = 99;
        let mut next = |m: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut fps = Vec::new();
        for _ in 0..24 {
            let c = p(next(400) as i32 - 200, next(400) as i32 - 200);
            if next(2) == 0 {
                fps.push(Footprint::circle(c, [5, 8, 9][next(3) as usize]));
            } else {
                fps.push(Footprint::rect(c, Heading::new(next(3600) as i32), 20 + next(60) as u32, 10 + next(30) as u32));
            }
        }
        for a in &fps {
            for b in &fps {
                let g = a.gap_mm(b);
                assert_eq!(g, b.gap_mm(a));
                assert!(a.within(b, g));
                if g > 0 {
                    assert!(!a.within(b, g - 1));
                    assert!(!a.overlaps(b));
                }
                if a.overlaps(b) {
                    assert_eq!(g, 0);
                }
            }
        }
    }

    #[test]
    fn wholly_on_an_area() {
        let l = ell();
        assert!(l.contains_footprint(&Footprint::circle(p(20, 20), 9)));
        assert!(l.contains_footprint(&Footprint::circle(p(9, 9), 9))); // touching two sides
        assert!(!l.contains_footprint(&Footprint::circle(p(8, 20), 9)));
        // In the arm of the L but reaching into the notch.
        assert!(!l.contains_footprint(&Footprint::circle(p(45, 60), 9)));
        assert!(l.contains_footprint(&Footprint::circle(p(41, 60), 9)));
        let tank = Footprint::rect(p(30, 25), Heading::new(0), 60, 30); // x 0..60, y 10..40
        assert!(l.contains_footprint(&tank));
        // Straddling the inner corner (50, 50): every corner inside, yet it covers the notch.
        let rot = Footprint::rect(p(50, 50), Heading::new(450), 20, 20);
        assert!(!l.contains_footprint(&rot));
        let big = Footprint::rect(p(50, 25), Heading::new(0), 120, 30);
        assert!(!l.contains_footprint(&big));
    }

    #[test]
    fn footprint_is_serialisable() {
        let f = Footprint::rect(p(1, 2), Heading::new(900), 60, 30);
        let s = serde_json::to_string(&f).unwrap();
        assert_eq!(serde_json::from_str::<Footprint>(&s).unwrap(), f);
        assert!(
            serde_json::from_str::<Footprint>(r#"{"shape":"rect","centre":{"x":0,"y":0},"heading":4000,"length_mm":5,"width_mm":5}"#)
                .is_err()
        );
    }
}
