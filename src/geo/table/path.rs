//! Paths (polylines of waypoints): lengths, the parts lying inside terrain areas, costs
//! through areas with integer per-mille multipliers, linear features crossed, and corridors.
//!
//! **Rounding.** A segment's length is its exact length rounded **up** to the mm. Where a
//! segment is cut (at area boundaries), each cut point is placed at its distance from the
//! segment's start rounded **up** ([`Ratio::mm_along`]); a piece's length is the difference of
//! its two ends, so the pieces of a segment always add up to the segment's length.
//!
//! **Inside an area** means in its open interior: a path running exactly along an area's
//! edge, or touching it at a point, is not inside it.

use serde::{Deserialize, Serialize};

use super::point::Point;
use super::segment::{RatPoint, Ratio, point_segment_dist_sq, segments_within};
use super::shape::{Footprint, Polygon, Solid};

/// Why a path or line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("a path needs at least {need} point(s), got {got}")]
    TooFewPoints { need: usize, got: usize },
    #[error("point {0} is outside the table limits (±{limit} mm)", limit = super::point::MAX_COORD)]
    OutOfRange(usize),
}

/// A polyline of waypoints (a move, a leader's path, or the line of a linear feature).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "Vec<Point>", into = "Vec<Point>")]
pub struct Path {
    points: Vec<Point>,
}

impl TryFrom<Vec<Point>> for Path {
    type Error = PathError;
    fn try_from(v: Vec<Point>) -> Result<Path, PathError> {
        Path::new(v)
    }
}

impl From<Path> for Vec<Point> {
    fn from(p: Path) -> Vec<Point> {
        p.points
    }
}

/// The maximal runs `[t0, t1]` of segment `a b` lying in the open interior of `poly`.
pub(super) fn inside_runs(a: Point, b: Point, poly: &Polygon) -> Vec<(Ratio, Ratio)> {
    let mut ts = vec![Ratio::ZERO, Ratio::ONE];
    for (c, d) in poly.edges() {
        ts.extend(super::segment::meeting_params(a, b, c, d));
    }
    ts.sort();
    ts.dedup();
    let mut runs: Vec<(Ratio, Ratio)> = Vec::new();
    for w in ts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        if !poly.contains_rat_strictly(&RatPoint::at(a, b, t0.mid(t1))) {
            continue;
        }
        match runs.last_mut() {
            Some(last) if last.1 == t0 => last.1 = t1,
            _ => runs.push((t0, t1)),
        }
    }
    runs
}

/// The length in mm of segment `a b` inside the open interior of `poly` (cut points rounded
/// up, see the module notes).
pub fn segment_inside_mm(a: Point, b: Point, poly: &Polygon) -> u32 {
    let s = a.distance_sq(b);
    inside_runs(a, b, poly).iter().map(|(t0, t1)| t1.mm_along(s) - t0.mm_along(s)).sum()
}

impl Path {
    /// A path of at least one point, all within the table limits.
    pub fn new(points: Vec<Point>) -> Result<Path, PathError> {
        if points.is_empty() {
            return Err(PathError::TooFewPoints { need: 1, got: 0 });
        }
        if let Some(i) = points.iter().position(|p| !p.in_range()) {
            return Err(PathError::OutOfRange(i));
        }
        Ok(Path { points })
    }

    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The straight segments between consecutive waypoints.
    pub fn segments(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        self.points.windows(2).map(|w| (w[0], w[1]))
    }

    /// Total length: the sum of the segments' lengths, each rounded up to the mm
    /// (digest D.1 "Lengths").
    pub fn length_mm(&self) -> u32 {
        self.segments().map(|(a, b)| a.distance_mm(b)).sum()
    }

    /// The point `d_mm` along the path, measuring each segment by its rounded-up length.
    /// Inside a segment `a b` of exact length `√S`, the point is `a + v·d/√S` with each
    /// coordinate rounded half away from zero (exactly, by integer square roots). Past the
    /// end: `None`.
    pub fn point_at(&self, d_mm: u32) -> Option<Point> {
        let mut left = d_mm;
        if self.points.len() == 1 {
            return (d_mm == 0).then_some(self.points[0]);
        }
        for (a, b) in self.segments() {
            let len = a.distance_mm(b);
            if left <= len {
                let v = a.to(b);
                let s = v.len_sq();
                let d = left as i128;
                if d * d >= s {
                    return Some(b);
                }
                // round(|c|·d/√S) = (⌊√(4c²d²/S)⌋ + 1) / 2, then the sign of c.
                let step = |c: i64| {
                    let c2 = c as i128 * c as i128;
                    let twice = ((4 * c2 * d * d) / s) as u128;
                    let r = twice.isqrt().div_ceil(2) as i128;
                    if c < 0 { -r } else { r }
                };
                return Some(Point::new(super::num::sat_i32(a.x as i128 + step(v.x)), super::num::sat_i32(a.y as i128 + step(v.y))));
            }
            left -= len;
        }
        None
    }

    /// Samples every `step_mm` from the start (0, step, 2·step, …) plus the end point, for
    /// the opportunity-fire intervals (OPP, D.1: every 10 mm). A step of 0 is taken as 1.
    pub fn samples(&self, step_mm: u32) -> Vec<Point> {
        let step = step_mm.max(1);
        let total = self.length_mm();
        let mut out: Vec<Point> = (0..=total / step).filter_map(|k| self.point_at(k * step)).collect();
        if !total.is_multiple_of(step) || out.is_empty() {
            out.extend(self.points.last().copied());
        }
        out
    }

    /// A vehicle's move given as steps `(turn, length_mm)` (MOV-5, digest D.1 "Turns on a
    /// path"): each turn is in signed tenths relative to the current heading (+ = left), and
    /// each step then runs straight. Each waypoint is the previous one moved by
    /// [`Point::offset`] (coordinates rounded half away from zero), so the path's *allowance*
    /// is the exact sum of the step lengths, not the length of the rounded polyline.
    /// Returns the path and the final heading; refuses waypoints outside the table limits.
    pub fn from_steps(
        start: Point,
        heading: super::angle::Heading,
        steps: &[(i32, u32)],
    ) -> Result<(Path, super::angle::Heading), PathError> {
        let mut h = heading;
        let mut points = vec![start];
        let mut at = start;
        for &(turn, len) in steps {
            h = h.turned(turn);
            at = at.offset(super::num::sat_i32(len as i128), h);
            points.push(at);
        }
        Ok((Path::new(points)?, h))
    }

    /// The length of the path inside the open interior of `area`, in mm.
    pub fn inside_mm(&self, area: &Polygon) -> u32 {
        self.segments().map(|(a, b)| segment_inside_mm(a, b, area)).sum()
    }

    /// The indices of the areas whose interior the path passes through (for MOV-3, the
    /// most restrictive terrain crossed caps the move).
    pub fn areas_entered(&self, areas: &[&Polygon]) -> Vec<usize> {
        (0..areas.len())
            .filter(|&i| {
                self.segments().any(|(a, b)| !inside_runs(a, b, areas[i]).is_empty())
                    || (self.points.len() == 1 && areas[i].contains_strictly(self.points[0]))
            })
            .collect()
    }

    /// The cost of the path in **per-mille millimetres**: each piece of each segment counts
    /// its length (mm) times the multiplier (per mille, 1000 = normal) of the area it lies
    /// in, `open_permille` outside every area. Where areas overlap, the **highest**
    /// multiplier applies. Exact; divide by 1000 with the ruleset's own rounding, or compare
    /// `cost ≤ 1000·allowance` directly. [`Path::cost_mm`] rounds up.
    pub fn cost_permille(&self, areas: &[(&Polygon, u32)], open_permille: u32) -> u64 {
        let mut total: u64 = 0;
        for (a, b) in self.segments() {
            let mut ts = vec![Ratio::ZERO, Ratio::ONE];
            for (poly, _) in areas {
                for (c, d) in poly.edges() {
                    ts.extend(super::segment::meeting_params(a, b, c, d));
                }
            }
            ts.sort();
            ts.dedup();
            let s = a.distance_sq(b);
            for w in ts.windows(2) {
                let mid = RatPoint::at(a, b, w[0].mid(w[1]));
                let rate =
                    areas.iter().filter(|(poly, _)| poly.contains_rat_strictly(&mid)).map(|&(_, r)| r).max().unwrap_or(open_permille);
                let len = (w[1].mm_along(s) - w[0].mm_along(s)) as u64;
                total = total.saturating_add(len.saturating_mul(rate as u64));
            }
        }
        total
    }

    /// [`Path::cost_permille`] divided by 1000, rounded **up**.
    pub fn cost_mm(&self, areas: &[(&Polygon, u32)], open_permille: u32) -> u64 {
        self.cost_permille(areas, open_permille).div_ceil(1000)
    }

    /// Whether the path crosses (meets) a linear feature: some segment comes within half the
    /// feature's thickness of its line, exactly (`4·d² ≤ thickness²`); a feature of
    /// thickness 0 must be touched.
    pub fn crosses(&self, feature: &LinearFeature) -> bool {
        self.segments().any(|(a, b)| feature.meets_segment(a, b))
    }

    /// The indices of the linear features the path crosses.
    pub fn crossings(&self, features: &[LinearFeature]) -> Vec<usize> {
        (0..features.len()).filter(|&i| self.crosses(&features[i])).collect()
    }

    /// Whether a footprint comes within `r_mm` of the path (the overrun corridor of OVR-1:
    /// `r` = half the vehicle's width; a figure's base counts if any part is within).
    pub fn within_footprint(&self, fp: &Footprint, r_mm: u32) -> bool {
        let r = r_mm as i128;
        let solid = fp.solid();
        if self.points.len() == 1 {
            return fp.within_point(self.points[0], r_mm);
        }
        self.segments().any(|(a, b)| match &solid {
            Solid::Disc { centre, radius } => super::segment::point_segment_within(*centre, a, b, r + radius),
            Solid::Convex(_) => solid.meets_segment(a, b) || solid.edges().any(|(c, d)| segments_within(a, b, c, d, r)),
        })
    }
}

/// A linear terrain feature (wall, hedge, barricade, river): a polyline with a thickness
/// (digest B.3, D.1). Its footprint is every point within `thickness_mm / 2` of the line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LinearFeature {
    pub line: Path,
    pub thickness_mm: u32,
    /// Whether it blocks sight lines (walls, hedges, rocks, barricades: LOS-4).
    pub blocks_sight: bool,
}

impl LinearFeature {
    /// Whether the closed segment `a b` meets the feature's footprint (exact; the half
    /// thickness is compared as `4·d² ≤ thickness²`).
    pub fn meets_segment(&self, a: Point, b: Point) -> bool {
        let t = self.thickness_mm as i128;
        let near = |d: (i128, i128)| 4 * d.0 <= t * t * d.1;
        let pts = self.line.points();
        if pts.len() == 1 {
            return near(point_segment_dist_sq(pts[0], a, b));
        }
        self.line.segments().any(|(c, d)| {
            super::segment::crossing(a, b, c, d).meets()
                || near(point_segment_dist_sq(a, c, d))
                || near(point_segment_dist_sq(b, c, d))
                || near(point_segment_dist_sq(c, a, b))
                || near(point_segment_dist_sq(d, a, b))
        })
    }

    /// Whether a footprint is within `r_mm` of the feature's footprint (e.g. "in contact with
    /// the obstacle", ≤ 10 mm, LOS-4). The half thickness is rounded up here.
    pub fn within_footprint(&self, fp: &Footprint, r_mm: u32) -> bool {
        self.line.within_footprint(fp, r_mm.saturating_add(self.thickness_mm.div_ceil(2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::table::Heading;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    fn sq(x0: i32, y0: i32, side: i32) -> Polygon {
        Polygon::new(vec![p(x0, y0), p(x0 + side, y0), p(x0 + side, y0 + side), p(x0, y0 + side)]).unwrap()
    }

    fn ell() -> Polygon {
        Polygon::new(vec![p(0, 0), p(100, 0), p(100, 50), p(50, 50), p(50, 100), p(0, 100)]).unwrap()
    }

    #[test]
    fn lengths() {
        let path = Path::new(vec![p(0, 0), p(30, 40), p(30, 41), p(31, 42)]).unwrap();
        assert_eq!(path.length_mm(), 50 + 1 + 2);
        assert_eq!(Path::new(vec![p(5, 5)]).unwrap().length_mm(), 0);
        assert!(Path::new(vec![]).is_err());
        assert_eq!(Path::new(vec![p(0, 0), p(0, 100_001)]), Err(PathError::OutOfRange(1)));
    }

    #[test]
    fn sampling() {
        let path = Path::new(vec![p(0, 0), p(30, 40), p(30, 60)]).unwrap();
        assert_eq!(path.length_mm(), 70);
        assert_eq!(path.point_at(0), Some(p(0, 0)));
        assert_eq!(path.point_at(25), Some(p(15, 20)));
        assert_eq!(path.point_at(50), Some(p(30, 40)));
        assert_eq!(path.point_at(60), Some(p(30, 50)));
        assert_eq!(path.point_at(71), None);
        // 7 mm along a 45° diagonal: (4.95, 4.95) → (5, 5); 3 mm: 2.12 → 2.
        let diag = Path::new(vec![p(0, 0), p(100, 100)]).unwrap();
        assert_eq!(diag.point_at(7), Some(p(5, 5)));
        assert_eq!(diag.point_at(3), Some(p(2, 2)));
        let back = Path::new(vec![p(0, 0), p(-100, -100)]).unwrap();
        assert_eq!(back.point_at(7), Some(p(-5, -5)));
        let s = path.samples(10);
        assert_eq!(s.len(), 8);
        assert_eq!(s[7], p(30, 60));
        let s = Path::new(vec![p(0, 0), p(25, 0)]).unwrap().samples(10);
        assert_eq!(s, vec![p(0, 0), p(10, 0), p(20, 0), p(25, 0)]);
        assert_eq!(Path::new(vec![p(3, 3)]).unwrap().samples(10), vec![p(3, 3)]);
    }

    #[test]
    fn vehicle_steps() {
        // About-face of a half-track (MOV-5 example): 90° left, 40 mm, 90° left.
        let (path, h) = Path::from_steps(p(0, 0), Heading::new(0), &[(0, 100), (900, 40), (900, 100)]).unwrap();
        assert_eq!(path.points(), &[p(0, 0), p(100, 0), p(100, 40), p(0, 40)]);
        assert_eq!(h, Heading::new(1800));
        // A free 15° turn to the right.
        let (path, h) = Path::from_steps(p(0, 0), Heading::new(0), &[(-150, 100)]).unwrap();
        assert_eq!(path.points()[1], p(97, -26)); // (96.59, −25.88)
        assert_eq!(h, Heading::new(3450));
        assert!(Path::from_steps(p(99_990, 0), Heading::new(0), &[(0, 20)]).is_err());
    }

    #[test]
    fn inside_an_area() {
        let wood = sq(100, -50, 100); // x 100..200
        assert_eq!(segment_inside_mm(p(0, 0), p(300, 0), &wood), 100);
        assert_eq!(segment_inside_mm(p(150, 0), p(300, 0), &wood), 50);
        assert_eq!(segment_inside_mm(p(0, 0), p(99, 0), &wood), 0);
        // Along the edge is not inside.
        assert_eq!(segment_inside_mm(p(0, -50), p(300, -50), &wood), 0);
        // Through a corner only.
        assert_eq!(segment_inside_mm(p(90, -40), p(110, -60), &wood), 0);
        // Diagonal: from (100, 0) to (150, 50)… inside from x = 100 to x = 150: 70.71 → 71.
        assert_eq!(segment_inside_mm(p(50, -50), p(150, 50), &wood), 71);
        // A concave area entered twice: the L's two arms along y = 75 and then x = 75.
        let l = ell();
        assert_eq!(segment_inside_mm(p(-10, 75), p(110, 75), &l), 50);
        let path = Path::new(vec![p(-10, 75), p(75, 75), p(75, -10)]).unwrap();
        assert_eq!(path.inside_mm(&l), 50 + 50);
    }

    #[test]
    fn pieces_add_up() {
        // Property: inside + outside = the segment's rounded-up length, for a fixed set of
        // awkward segments through the L.
        let l = ell();
        let mut seed: u64 = 17;
        for _ in 0..300 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let c = |k: u32| ((seed >> k) % 161) as i32 - 30;
            let (a, b) = (p(c(5), c(15)), p(c(25), c(35)));
            let path = Path::new(vec![a, b]).unwrap();
            let inside = path.inside_mm(&l) as u64;
            // With the L at 3000‰ and open ground at 1000‰: cost = 1000·len + 2000·inside.
            let cost = path.cost_permille(&[(&l, 3000)], 1000);
            assert_eq!(cost, 1000 * path.length_mm() as u64 + 2000 * inside, "{a:?} {b:?}");
            assert!(inside <= path.length_mm() as u64);
        }
    }

    #[test]
    fn costs() {
        let wood = sq(100, -50, 100);
        let path = Path::new(vec![p(0, 0), p(300, 0)]).unwrap();
        // 200 mm open at 1000‰ and 100 mm of wood at 2000‰.
        assert_eq!(path.cost_permille(&[(&wood, 2000)], 1000), 200_000 + 200_000);
        assert_eq!(path.cost_mm(&[(&wood, 2000)], 1000), 400);
        // Overlapping areas: the higher multiplier applies where they overlap.
        let swamp = sq(150, -50, 100); // x 150..250
        assert_eq!(path.cost_permille(&[(&wood, 2000), (&swamp, 3000)], 1000), 50 * 2000 + 100 * 3000 + 150 * 1000);
        // Road-like discount (500‰): rounding up of the per-mille total.
        let short = Path::new(vec![p(0, 0), p(3, 0)]).unwrap();
        assert_eq!(short.cost_mm(&[], 500), 2);
        assert_eq!(path.areas_entered(&[&wood, &swamp, &sq(0, 10, 5)]), vec![0, 1]);
    }

    #[test]
    fn linear_crossings() {
        let wall = LinearFeature { line: Path::new(vec![p(50, -100), p(50, 100)]).unwrap(), thickness_mm: 4, blocks_sight: true };
        let hedge =
            LinearFeature { line: Path::new(vec![p(200, -100), p(200, 0), p(300, 0)]).unwrap(), thickness_mm: 0, blocks_sight: true };
        let path = Path::new(vec![p(0, 0), p(100, 0)]).unwrap();
        assert_eq!(path.crossings(&[wall.clone(), hedge.clone()]), vec![0]);
        // Stopping 2 mm short of the wall's line touches its 4 mm thickness; 3 mm does not.
        assert!(Path::new(vec![p(0, 0), p(48, 0)]).unwrap().crosses(&wall));
        assert!(!Path::new(vec![p(0, 0), p(47, 0)]).unwrap().crosses(&wall));
        // The hedge has no thickness: its corner must be touched.
        assert!(Path::new(vec![p(250, 50), p(200, 0)]).unwrap().crosses(&hedge));
        assert!(!Path::new(vec![p(250, 50), p(201, 1)]).unwrap().crosses(&hedge));
        let fig = Footprint::circle(p(60, 50), 5);
        assert!(wall.within_footprint(&fig, 3) && !wall.within_footprint(&fig, 2));
    }

    #[test]
    fn corridor() {
        let path = Path::new(vec![p(0, 0), p(200, 0)]).unwrap();
        // A 30 mm wide vehicle: half width 15. A 9 mm base centred 24 away touches it.
        assert!(path.within_footprint(&Footprint::circle(p(100, 24), 9), 15));
        assert!(!path.within_footprint(&Footprint::circle(p(100, 25), 9), 15));
        // Beyond the start the corridor is rounded: (−20, 15) is 25 from (0, 0), over 24.
        assert!(!path.within_footprint(&Footprint::circle(p(-20, 15), 9), 15));
        assert!(path.within_footprint(&Footprint::circle(p(-15, 18), 9), 15));
        let tank = Footprint::rect(p(100, 40), Heading::new(0), 60, 30); // y 25..55
        assert!(path.within_footprint(&tank, 25) && !path.within_footprint(&tank, 24));
    }
}
