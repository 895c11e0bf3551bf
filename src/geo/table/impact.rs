//! The struck face of a rectangular part and the impact-angle test (digest D.1 "Impact face
//! and angle", PEN-1).

use super::angle::Heading;
use super::point::{Point, Vector};
use super::segment::{Crossing, crossing};
use super::shape::Footprint;

/// A face of a rectangular part, relative to its heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    Front,
    Left,
    Rear,
    Right,
}

/// Where a line of fire from outside reaches a part's centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Struck {
    /// Through a single face.
    Face(Face),
    /// Exactly through a corner: the ruleset picks the face with the larger impact angle,
    /// then the thicker plate (D.1).
    Corner(Face, Face),
}

/// The face crossed by the segment from the barrel base `from` to the centre of `part` (a
/// [`Footprint::Rect`]). `None` for a round footprint or when `from` is on the part.
pub fn struck_face(from: Point, part: &Footprint) -> Option<Struck> {
    let Footprint::Rect { centre, .. } = *part else { return None };
    if part.contains(from) {
        return None;
    }
    let c = part.corners();
    // Corners run front-right, front-left, rear-left, rear-right (counter-clockwise).
    let faces = [(Face::Front, c[0], c[1]), (Face::Left, c[1], c[2]), (Face::Rear, c[2], c[3]), (Face::Right, c[3], c[0])];
    let hit: Vec<Face> =
        faces.iter().filter(|(_, a, b)| crossing(from, centre, *a, *b) != Crossing::Disjoint).map(|&(f, _, _)| f).collect();
    match hit.as_slice() {
        [f] => Some(Struck::Face(*f)),
        [Face::Front, Face::Right] => Some(Struck::Corner(Face::Right, Face::Front)),
        [f, g] => Some(Struck::Corner(*f, *g)),
        _ => None,
    }
}

impl Face {
    /// Whether the line of fire `w` (barrel base → part centre) meets this face of a part
    /// with heading `part_heading` at an angle of **at least** `a` tenths (`0..=900`), the
    /// angle being measured between the line and the face's plane. Exact against the pinned
    /// table: `(w × e)²·10¹² ≥ COS[900 − a]²·|w|²·|e|²`, with `e` along the face
    /// (`e = (−sin θ, cos θ)` for the front and rear, `dir(θ)` for the sides). For Steel
    /// Wheels' "≥ 75°", `a = 750` and `COS[150] = sin 75°`.
    pub fn impact_at_least(self, part_heading: Heading, w: Vector, a: u16) -> bool {
        let d = Vector::of_heading(part_heading);
        let e = match self {
            Face::Front | Face::Rear => Vector::new(-d.y, d.x),
            Face::Left | Face::Right => d,
        };
        plane_impact_at_least(e, w, a)
    }
}

/// Whether the line of fire `w` meets a vertical plane running along `e` (a plate, or a
/// building's wall seen from above, BLDF-2) at an angle of **at least** `a` tenths
/// (`0..=900`), measured between the line and the plane: `(w × e)²·10¹² ≥ COS[900 −
/// a]²·|w|²·|e|²`, exact in integers. False for a zero vector.
pub fn plane_impact_at_least(e: Vector, w: Vector, a: u16) -> bool {
    if w.is_zero() || e.is_zero() {
        return false;
    }
    let (s, _) = super::trig::dir(900 - a.min(900) as i32);
    let x = w.cross(e);
    x * x * 1_000_000_000_000 >= (s as i128 * s as i128) * w.len_sq() * e.len_sq()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn faces() {
        let tank = Footprint::rect(p(0, 0), Heading::new(0), 60, 30); // front faces +x
        assert_eq!(struck_face(p(500, 0), &tank), Some(Struck::Face(Face::Front)));
        assert_eq!(struck_face(p(-500, 10), &tank), Some(Struck::Face(Face::Rear)));
        assert_eq!(struck_face(p(10, 500), &tank), Some(Struck::Face(Face::Left)));
        assert_eq!(struck_face(p(10, -500), &tank), Some(Struck::Face(Face::Right)));
        // Exactly through the front-left corner (30, 15).
        assert_eq!(struck_face(p(60, 30), &tank), Some(Struck::Corner(Face::Front, Face::Left)));
        assert_eq!(struck_face(p(60, -30), &tank), Some(Struck::Corner(Face::Right, Face::Front)));
        assert_eq!(struck_face(p(10, 0), &tank), None);
        assert_eq!(struck_face(p(10, 0), &Footprint::circle(p(0, 0), 9)), None);
    }

    #[test]
    fn seventy_five_degrees() {
        let h = Heading::new(0);
        // Head-on into the front: 90°.
        assert!(Face::Front.impact_at_least(h, Vector::new(-100, 0), 750));
        // 15° off the normal is exactly 75°: the table direction dir(150) reversed is ≥ 75°.
        let (c, s) = crate::geo::table::trig::dir(150);
        assert!(Face::Front.impact_at_least(h, Vector::new(-c, -s + 1), 750));
        // 30° off the normal is 60°: not ≥ 75°.
        assert!(!Face::Front.impact_at_least(h, Vector::new(-866, 500), 750));
        // The side of the same tank, fired at from abeam.
        assert!(Face::Left.impact_at_least(h, Vector::new(0, -100), 750));
        assert!(!Face::Left.impact_at_least(h, Vector::new(-100, -100), 750));
    }

    #[test]
    fn wall_planes() {
        // A wall along x, fired at square on, at 45° and along its own line.
        let wall = Vector::new(80, 0);
        assert!(plane_impact_at_least(wall, Vector::new(0, 100), 750));
        assert!(!plane_impact_at_least(wall, Vector::new(100, 100), 750));
        assert!(!plane_impact_at_least(wall, Vector::new(100, 0), 750));
        assert!(!plane_impact_at_least(Vector::new(0, 0), Vector::new(0, 100), 750));
    }
}
