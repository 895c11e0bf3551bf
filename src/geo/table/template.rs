//! Area effects: circle templates (fragments, SPL-1), the flamethrower triangle and the
//! Molotov square (INC-1), and deviation of a point (scatter, IMP-1).
//!
//! A footprint is hit when it meets the template, **partial overlap counting and the
//! boundary included** (a base whose edge just touches the template is hit).

use super::angle::Heading;
use super::num::{round_div, sat_i32};
use super::point::Point;
use super::shape::{Footprint, Solid};
use super::trig::TRIG_SCALE;

/// A template laid on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    solid: Solid,
}

impl Template {
    /// A circle of `radius_mm` about `centre` (a burst's fragment radius).
    pub fn circle(centre: Point, radius_mm: u32) -> Template {
        Template { solid: Solid::Disc { centre, radius: radius_mm as i128 } }
    }

    /// The flamethrower's isosceles triangle: apex at `apex`, axis along `heading`,
    /// `length_mm` long with a `base_mm` wide far side (150 × 50 mm in Steel Wheels). The far
    /// corners are `apex + round_div(2L·c ∓ B·s, 2·10⁶), round_div(2L·s ± B·c, 2·10⁶)`,
    /// halves away from zero.
    pub fn flame(apex: Point, heading: Heading, length_mm: u32, base_mm: u32) -> Template {
        let (c, s) = super::trig::dir(heading.tenths() as i32);
        let (l, b, k) = (length_mm as i128, base_mm as i128, 2 * TRIG_SCALE as i128);
        let corner = |side: i128| {
            Point::new(
                sat_i32(apex.x as i128 + round_div(2 * l * c as i128 - side * b * s as i128, k)),
                sat_i32(apex.y as i128 + round_div(2 * l * s as i128 + side * b * c as i128, k)),
            )
        };
        Template { solid: Solid::convex(vec![apex, corner(-1), corner(1)]) }
    }

    /// A square of side `side_mm` centred on `centre`, two sides parallel to `heading` (the
    /// Molotov's 50 × 50 mm). Corners as for a rectangular footprint.
    pub fn square(centre: Point, heading: Heading, side_mm: u32) -> Template {
        let corners = Footprint::rect(centre, heading, side_mm, side_mm).corners();
        Template { solid: Solid::convex(corners) }
    }

    /// The template's vertices (empty for a circle).
    pub fn vertices(&self) -> Vec<Point> {
        self.solid.edges().map(|(a, _)| a).collect()
    }

    /// Whether a footprint meets the template (partly inside or touching counts).
    pub fn covers(&self, fp: &Footprint) -> bool {
        self.solid.within(&fp.solid(), 0)
    }

    /// The indices of the footprints the template covers.
    pub fn hits(&self, footprints: &[Footprint]) -> Vec<usize> {
        (0..footprints.len()).filter(|&i| self.covers(&footprints[i])).collect()
    }
}

/// Displaces `p` by `distance_mm` along `heading` (scatter, DAM-5 run-on), rounding each
/// coordinate half away from zero (digest D.1 "Scatter"). A distance ≤ 0 leaves the point
/// where it is (IMP-1: a result ≤ 0 lands exactly on the planned point).
pub fn deviate(p: Point, distance_mm: i32, heading: Heading) -> Point {
    if distance_mm <= 0 { p } else { p.offset(distance_mm, heading) }
}

/// A point of a wall's vertical plane: the wall runs from `a` to `b` on the ground, `along`
/// is the distance from `a` along it in mm and `up` the height above the ground in mm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallPoint {
    pub along: i32,
    pub up: i32,
}

/// Scatter on a wall's vertical plane (digest D.1 "Scatter", BLDF-1): the two offsets of a
/// ground scatter of `distance_mm` at `heading` (its x and y, each `round_div(d·COS,
/// 10⁶)`) are laid along the wall and upwards. Returns the new wall point when it lies on the
/// wall's outline (`0 ≤ along ≤ length_mm`, `0 ≤ up ≤ height_mm`, bounds included), `None`
/// off it (the shot flies past and has no effect).
pub fn wall_scatter(from: WallPoint, distance_mm: i32, heading: Heading, length_mm: i32, height_mm: i32) -> Option<WallPoint> {
    let moved = deviate(Point::new(from.along, from.up), distance_mm, heading);
    let p = WallPoint { along: moved.x, up: moved.y };
    ((0..=length_mm).contains(&p.along) && (0..=height_mm).contains(&p.up)).then_some(p)
}

/// The ground point `along` mm from `a` towards `b` (rounded half away from zero).
pub fn along_wall(a: Point, b: Point, along: i32) -> Point {
    let v = a.to(b);
    let len = super::num::ceil_sqrt(v.len_sq() as u128) as i128;
    if len == 0 {
        return a;
    }
    let x = a.x as i128 + super::num::round_div(v.x as i128 * along as i128, len);
    let y = a.y as i128 + super::num::round_div(v.y as i128 * along as i128, len);
    Point::new(super::num::sat_i32(x), super::num::sat_i32(y))
}

/// The scatter direction from a 3600-face die read 1..=3600: face `f` is heading `f − 1`
/// tenths (the face index, digest AMB-13). `None` for a face outside 1..=3600.
pub fn scatter_heading(face: u32) -> Option<Heading> {
    (1..=3600).contains(&face).then(|| Heading::new(face as i32 - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_plane_scatter() {
        let mid = WallPoint { along: 40, up: 60 };
        // 5 cm straight "east" runs along the wall: 40 + 50 = 90 > 80, off the wall.
        assert_eq!(wall_scatter(mid, 50, Heading::new(0), 80, 120), None);
        // 3 cm "north" goes up the wall: 60 + 30 = 90, still on it.
        assert_eq!(wall_scatter(mid, 30, Heading::new(900), 80, 120), Some(WallPoint { along: 40, up: 90 }));
        // Exactly to the wall's top edge counts as on it.
        assert_eq!(wall_scatter(mid, 60, Heading::new(900), 80, 120), Some(WallPoint { along: 40, up: 120 }));
        // 7 cm down goes below the ground: off.
        assert_eq!(wall_scatter(mid, 70, Heading::new(2700), 80, 120), None);
        assert_eq!(along_wall(Point::new(900, 540), Point::new(980, 540), 25), Point::new(925, 540));
    }

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn circle_template_partial_overlap() {
        let burst = Template::circle(p(0, 0), 50);
        let figs = [
            Footprint::circle(p(59, 0), 9),                      // touches: 59 = 50 + 9
            Footprint::circle(p(60, 0), 9),                      // 1 mm clear
            Footprint::circle(p(33, 44), 9),                     // centre 55 away: partly inside
            Footprint::rect(p(80, 0), Heading::new(0), 60, 30),  // near side x = 50: touches
            Footprint::rect(p(0, 0), Heading::new(0), 200, 200), // contains the burst
        ];
        assert_eq!(burst.hits(&figs), vec![0, 2, 3, 4]);
    }

    #[test]
    fn flame_triangle() {
        let t = Template::flame(p(0, 0), Heading::new(0), 150, 50);
        let v = t.vertices();
        assert!(v.contains(&p(0, 0)) && v.contains(&p(150, 25)) && v.contains(&p(150, -25)));
        assert!(t.covers(&Footprint::circle(p(100, 0), 5)));
        // The triangle's side passes (60, 10): (60, 15) is 4.93 mm from it, (60, 16) 5.92.
        assert!(t.covers(&Footprint::circle(p(60, 15), 5)));
        assert!(!t.covers(&Footprint::circle(p(60, 16), 5)));
        assert!(!t.covers(&Footprint::circle(p(-6, 0), 5)));
        assert!(t.covers(&Footprint::circle(p(-5, 0), 5)));
        let north = Template::flame(p(0, 0), Heading::new(900), 150, 50);
        assert!(north.vertices().contains(&p(-25, 150)));
    }

    #[test]
    fn molotov_square() {
        let t = Template::square(p(100, 100), Heading::new(0), 50);
        assert_eq!(t.vertices().len(), 4);
        assert!(t.covers(&Footprint::circle(p(134, 100), 9)));
        assert!(!t.covers(&Footprint::circle(p(135, 100), 9)));
    }

    #[test]
    fn deviation() {
        assert_eq!(deviate(p(10, 10), 0, Heading::new(123)), p(10, 10));
        assert_eq!(deviate(p(10, 10), -5, Heading::new(123)), p(10, 10));
        assert_eq!(deviate(p(0, 0), 150, Heading::new(0)), p(150, 0));
        // 150 mm at 120°: (−75, 129.9) → (−75, 130).
        assert_eq!(deviate(p(0, 0), 150, Heading::new(1200)), p(-75, 130));
        assert_eq!(scatter_heading(1), Some(Heading::new(0)));
        assert_eq!(scatter_heading(3600), Some(Heading::new(3599)));
        assert_eq!(scatter_heading(0), None);
        assert_eq!(scatter_heading(3601), None);
    }
}
