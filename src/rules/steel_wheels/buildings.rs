//! Infantry in buildings (SW-BLDM-1/2/3/5, the original's "Movimento di fanteria negli
//! edifici e nelle strutture difensive"): a squad comes in only when its leader ends his
//! path wholly inside an access point of the ground floor, and is then set anywhere on that
//! floor; its base is all in or all out; inside it climbs one floor or goes down two a turn
//! and may be rearranged freely, counting as Stationary for the enemy's spotting and fire;
//! it leaves with its leader stepping out through a ground-floor access point. No vehicle
//! or gun ever enters, and a building held by the enemy is entered only by assault.
//!
//! A squad is one base (the slice's reading, see the docs): the leader's path is the base's
//! reference point, and "the leader wholly inside the access point" is the leader's round
//! base (the data's `leader_base_radius_mm`) wholly inside the opening's zone.

use super::data;
use super::movement::{self, Door, Moved, Speed};
use super::orders::{InBuilding, Move};
use super::scenario::{Building, Opening, OpeningKind, footprint, point};
use super::state::{Inside, State, Unit};
use crate::engine::{Event, Violation};
use crate::geo::table::segment::{RatPoint, meeting_params};
use crate::geo::table::{Footprint, Heading, Path, Point, Polygon};

fn v(rule: &str, u: &Unit, msg: String) -> Violation {
    Violation::new(rule, msg).unit(u.id.clone())
}

/// Whether a base or model lies on `poly` at all (partly or wholly).
pub fn on_area(poly: &Polygon, fp: &Footprint) -> bool {
    poly.contains(fp.centre()) || poly.edges().any(|(a, b)| fp.meets_segment(a, b)) || poly.vertices().iter().any(|&p| fp.contains(p))
}

fn in_convex(zone: &Polygon, x: &RatPoint) -> bool {
    zone.convex_contains_rat(x)
}

/// BLDM-4 (TEXT): how many figures may fire through one opening: two at a window or a
/// loophole, three at a door, four at a gate. The rule names no gap ("buca"); it is read as
/// the smallest opening, two.
pub fn firers_per(kind: OpeningKind) -> u32 {
    match kind {
        OpeningKind::Window | OpeningKind::Loophole | OpeningKind::Gap => 2,
        OpeningKind::Door => 3,
        OpeningKind::Gate => 4,
    }
}

/// BLDM-4: the openings on occupant `u`'s floor that face `target`: the line from the
/// middle of the opening's zone to the target meets the building's outline only inside that
/// zone, so the figures at the opening fire out through it and not across the building.
/// Empty when `u` is not inside a building.
pub fn facing_openings<'a>(s: &'a State, u: &Unit, target: Point) -> Vec<&'a Opening> {
    let Some(i) = &u.inside else { return vec![] };
    let (Some(b), Some(area)) = (s.scenario.building(&i.building), s.scenario.area(&i.building)) else { return vec![] };
    b.openings.iter().filter(|o| o.floor == i.floor && area.polygon.meets_boundary_only_in(o.zone.centroid(), target, &o.zone)).collect()
}

/// The ground-floor access point of `b` that holds the leader standing at `p` wholly, if any.
pub fn access_at(b: &Building, p: Point) -> Option<&Opening> {
    let leader = Footprint::circle(p, data::data().leader_base_radius_mm);
    b.openings.iter().find(|o| o.floor == 0 && o.kind.is_access() && o.zone.contains_footprint(&leader))
}

/// BLDM-2/5 on a path: it meets the building's outline only inside ground-floor access
/// points, no waypoint but the door end (`door_end`: the last point entering, the first
/// leaving) lies within the walls, and only the segment at that end runs inside them.
pub fn path_through_door(path: &Path, area: &Polygon, b: &Building, entering: bool) -> bool {
    let zones: Vec<&Polygon> = b.openings.iter().filter(|o| o.floor == 0 && o.kind.is_access()).map(|o| &o.zone).collect();
    let pts = path.points();
    let n = pts.len();
    let door_end = if entering { n - 1 } else { 0 };
    if pts.iter().enumerate().any(|(i, p)| i != door_end && area.contains_strictly(*p)) {
        return false;
    }
    let door_seg = if entering { n.saturating_sub(2) } else { 0 };
    for (i, (a, c)) in path.segments().enumerate() {
        if i != door_seg && crate::geo::table::path::segment_inside_mm(a, c, area) > 0 {
            return false;
        }
        for (p, q) in area.edges() {
            for t in meeting_params(a, c, p, q) {
                let x = RatPoint::at(a, c, t);
                if !zones.iter().any(|z| in_convex(z, &x)) {
                    return false;
                }
            }
        }
    }
    true
}

/// Where a squad may stand inside `b` on `floor`: its base wholly within the outline and on
/// no other base of that floor.
fn placement_problem(s: &State, u: &Unit, b: &Building, floor: u8, fp: &Footprint) -> Option<Violation> {
    let area = s.scenario.area(&b.area)?;
    if !area.polygon.contains_footprint(fp) {
        return Some(v("SW-BLDM-2", u, format!("{}'s base must lie wholly inside {} (all the figures in, or all out)", u.id, b.area)));
    }
    for o in s.units.iter().filter(|o| o.id != u.id && o.on_table()) {
        let same_floor = o.inside.as_ref().is_some_and(|i| i.building == b.area && i.floor == floor);
        if same_floor && o.footprint().overlaps(fp) {
            return Some(v("SW-BLDM-2", u, format!("{} would stand on {} on floor {floor} of {}", u.id, o.id, b.area)));
        }
    }
    None
}

/// A squad's action in or at a building, checked: where it ends, and the path measured
/// (for the status, the opportunity window and the fire position).
#[derive(Clone, Debug)]
pub struct Via {
    /// Where the base ends and how it faces.
    pub to: Point,
    pub heading: Heading,
    /// The path the leader walks out of doors (entering: up to the access point; leaving:
    /// from it), with its check; none for a move within the building.
    pub walk: Option<(Path, Moved)>,
    /// Where the squad is once the action is done.
    pub inside: Option<Inside>,
}

/// BLDM-1/2/3/5: check a squad's move that enters, leaves or stays within a building.
/// `None` when neither the squad nor its orders have to do with a building.
pub fn check(s: &State, u: &Unit, m: Option<&Move>, inb: Option<&InBuilding>, speed: Speed) -> Option<Result<Via, Vec<Violation>>> {
    match (&u.inside, m, inb) {
        (None, _, None) => None,
        (None, m, Some(inb)) => Some(enter(s, u, m, inb, speed)),
        (Some(_), None, Some(inb)) => Some(within(s, u, inb)),
        (Some(_), Some(m), None) => Some(leave(s, u, m, speed)),
        (Some(i), Some(_), Some(_)) => Some(Err(vec![v(
            "SW-BLDM-5",
            u,
            format!("{} is in {}: it either moves inside it (building: ...) or leaves it (move: ...), not both at once", u.id, i.building),
        )])),
        (Some(_), None, None) => None,
    }
}

fn heading_of(u: &Unit, h: Option<u16>, default: Heading) -> Result<Heading, Vec<Violation>> {
    match h {
        Some(h) => Heading::try_from(i64::from(h)).map_err(|e| vec![v("SW-GEO-1", u, e)]),
        None => Ok(default),
    }
}

fn building_named<'a>(s: &'a State, u: &Unit, id: &str) -> Result<&'a Building, Vec<Violation>> {
    s.scenario.building(id).ok_or_else(|| {
        let what = if s.scenario.area(id).is_some() { "has no access point: nobody enters it" } else { "is no building of this battle" };
        vec![v("SW-BLDM-2", u, format!("{id} {what}"))]
    })
}

fn enter(s: &State, u: &Unit, m: Option<&Move>, inb: &InBuilding, speed: Speed) -> Result<Via, Vec<Violation>> {
    if !u.is_infantry() {
        return Err(vec![v("SW-BLDM-2", u, format!("{} is no infantry squad: vehicles and guns never enter a building (E.22 B)", u.id))]);
    }
    let b = building_named(s, u, &inb.building)?;
    let Some(m) = m else {
        return Err(vec![v(
            "SW-BLDM-2",
            u,
            format!("{} is outside {}: it enters with a move whose last point is one of its ground-floor access points", u.id, b.area),
        )]);
    };
    let mut errs = Vec::new();
    // BLDM-1: an enemy-held building is entered only by assault.
    if let Some(e) = s.units.iter().find(|e| e.side != u.side && e.alive() && e.inside.as_ref().is_some_and(|i| i.building == b.area)) {
        errs.push(v("SW-BLDM-1", u, format!("{} holds {}: a building held by the enemy is entered only by assault", e.id, b.area)));
    }
    if inb.floor.unwrap_or(0) != 0 {
        errs.push(v("SW-BLDM-2", u, format!("a squad that enters {} is set on its ground floor (floor 0)", b.area)));
    }
    let walked = movement::check_door(s, u, m, speed, Door::Enter(&b.area));
    let door = walked.as_ref().ok().map(|mv| mv.to);
    if let Some(to) = door
        && access_at(b, to).is_none()
    {
        errs.push(v(
            "SW-BLDM-2",
            u,
            format!(
                "{}'s leader must end his path wholly inside an access point (door, window or gap) of {}'s ground floor; ({}, {}) is not",
                u.id, b.area, to.x, to.y
            ),
        ));
    }
    let moved = match walked {
        Ok(mv) => Some(mv),
        Err(vs) => {
            errs.extend(vs);
            None
        }
    };
    let Some(at) = point(inb.at) else {
        errs.push(v("SW-GEO-1", u, format!("{:?} is out of range", inb.at)));
        return Err(errs);
    };
    let heading = heading_of(u, inb.heading, moved.as_ref().map(|mv| mv.heading).unwrap_or(u.heading))?;
    let fp = footprint(u.card(), at, heading);
    if let Some(p) = placement_problem(s, u, b, 0, &fp) {
        errs.push(p);
    }
    let (Some(moved), true) = (moved, errs.is_empty()) else { return Err(errs) };
    let pts: Vec<Point> = std::iter::once(u.at).chain(m.path.iter().filter_map(|&xy| point(xy))).collect();
    let path = Path::new(pts).map_err(|e| vec![v("SW-MOV-5", u, format!("the path is not a chain of straight segments: {e:?}"))])?;
    Ok(Via { to: at, heading, walk: Some((path, moved)), inside: Some(Inside { building: b.area.clone(), floor: 0 }) })
}

fn within(s: &State, u: &Unit, inb: &InBuilding) -> Result<Via, Vec<Violation>> {
    let Some(cur) = &u.inside else { return Err(vec![]) };
    if inb.building != cur.building {
        return Err(vec![v(
            "SW-BLDM-5",
            u,
            format!("{} is in {}: it leaves it by a ground-floor access point before it enters {}", u.id, cur.building, inb.building),
        )]);
    }
    let b = building_named(s, u, &cur.building)?;
    let floor = inb.floor.unwrap_or(cur.floor);
    let mut errs = Vec::new();
    // BLDM-3: up one floor or down two in a turn (one action a turn, MAN-3).
    if floor >= b.floors {
        errs.push(v("SW-BLDM-3", u, format!("{} has {} floors (0 to {})", b.area, b.floors, b.floors - 1)));
    } else if floor > cur.floor + 1 {
        errs.push(v("SW-BLDM-3", u, format!("{} climbs at most one floor a turn: from {} to {} at most", u.id, cur.floor, cur.floor + 1)));
    } else if floor + 2 < cur.floor {
        errs.push(v(
            "SW-BLDM-3",
            u,
            format!("{} goes down at most two floors a turn: from {} to {} at least", u.id, cur.floor, cur.floor - 2),
        ));
    }
    let Some(at) = point(inb.at) else {
        errs.push(v("SW-GEO-1", u, format!("{:?} is out of range", inb.at)));
        return Err(errs);
    };
    let heading = heading_of(u, inb.heading, u.heading)?;
    if let Some(p) = placement_problem(s, u, b, floor, &footprint(u.card(), at, heading)) {
        errs.push(p);
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(Via { to: at, heading, walk: None, inside: Some(Inside { building: b.area.clone(), floor }) })
}

fn leave(s: &State, u: &Unit, m: &Move, speed: Speed) -> Result<Via, Vec<Violation>> {
    let Some(cur) = &u.inside else { return Err(vec![]) };
    let b = building_named(s, u, &cur.building)?;
    if cur.floor != 0 {
        return Err(vec![v(
            "SW-BLDM-5",
            u,
            format!("{} is on floor {} of {}: a squad leaves only from the ground floor (come down first)", u.id, cur.floor, b.area),
        )]);
    }
    // BLDM-5: the leader steps out through a ground-floor access point; his path is
    // measured from there (inside, the figures move freely).
    let Some(door) = m.path.first().and_then(|&xy| point(xy)) else {
        return Err(vec![v("SW-MOV-2", u, format!("{} leaves {} with a path that starts at an access point", u.id, b.area))]);
    };
    if access_at(b, door).is_none() {
        return Err(vec![v(
            "SW-BLDM-5",
            u,
            format!(
                "{} leaves {} only through a ground-floor access point: its path must start with the leader wholly inside one, ({}, {}) is not",
                u.id, b.area, door.x, door.y
            ),
        )]);
    }
    let mut out = u.clone();
    out.at = door;
    out.inside = None;
    let rest = Move { path: m.path[1..].to_vec(), heading: m.heading, reverse: m.reverse };
    let moved = movement::check_door(s, &out, &rest, speed, Door::Exit(&b.area))?;
    let pts: Vec<Point> = m.path.iter().filter_map(|&xy| point(xy)).collect();
    let path = Path::new(pts).map_err(|e| vec![v("SW-MOV-5", u, format!("the path is not a chain of straight segments: {e:?}"))])?;
    Ok(Via { to: moved.to, heading: moved.heading, walk: Some((path, moved)), inside: None })
}

/// The event of a move into, within or out of a building.
pub fn moved_event(u: &Unit, via: &Via, walked_mm: u32) -> Event {
    let at = format!("({}, {}) heading {}", via.to.x, via.to.y, via.heading.tenths());
    match (&u.inside, &via.inside) {
        (None, Some(i)) => Event::rule(
            "SW-BLDM-2",
            format!("{} walks {walked_mm} mm to an access point and enters {}: ground floor, base at {at}", u.id, i.building),
        ),
        (Some(_), Some(i)) => Event::rule("SW-BLDM-3", format!("{} moves within {} to floor {}, base at {at}", u.id, i.building, i.floor)),
        (Some(i), None) => Event::rule(
            "SW-BLDM-5",
            format!("{} leaves {} by a ground-floor access point and moves {walked_mm} mm to {at}", u.id, i.building),
        ),
        (None, None) => Event::rule("SW-MOV-1", format!("{} moves {walked_mm} mm to {at}", u.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(v: &[(i32, i32)]) -> Polygon {
        Polygon::new(v.iter().map(|&(x, y)| Point::new(x, y)).collect()).expect("polygon")
    }

    #[test]
    fn overlap_of_a_base_and_an_area() {
        let house = poly(&[(0, 0), (100, 0), (100, 100), (0, 100)]);
        let h = Heading::try_from(0).expect("heading");
        assert!(on_area(&house, &Footprint::rect(Point::new(50, 50), h, 20, 10)));
        assert!(on_area(&house, &Footprint::rect(Point::new(105, 50), h, 20, 10)));
        assert!(!on_area(&house, &Footprint::rect(Point::new(120, 50), h, 20, 10)));
        // A base wider than the house around it still lies on it.
        assert!(on_area(&house, &Footprint::rect(Point::new(50, 50), h, 300, 300)));
    }
}
