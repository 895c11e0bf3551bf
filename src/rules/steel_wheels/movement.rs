//! Movement on the table (SW-MOV, digest D.2): the allowance of the action, the worst
//! terrain crossed, the road rule in integers (MOV-4, AMB-5), vehicle turns (MOV-5), the
//! 2 cm minimum, and where a unit may end; a vehicle reversing at Cautious (MOV-1), and the
//! run-on of a vehicle immobilised while Moving (DAM-5).

use super::data::{self, MoveCode};
use super::orders::Move;
use super::scenario::{footprint, point};
use super::state::{State, Unit};
use crate::engine::{Event, Violation};
use crate::geo::table::{Footprint, Heading, Path, Point};

/// Tactical for a simple Move, Short for a complex action (MOV-1, C.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    Tactical,
    Short,
}

/// The checked result of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub to: Point,
    pub heading: Heading,
    pub length_mm: u32,
    /// MOV-1: the vehicle backed along the path, facing away from where it went.
    pub reverse: bool,
}

impl Moved {
    /// The event of `unit` making this move out of doors (a move into or within a building
    /// has its own, `buildings::moved_event`).
    pub fn event(&self, unit: &str) -> Event {
        Event::rule(
            "SW-MOV-1",
            format!(
                "{unit} moves {} mm to ({}, {}) heading {}{}",
                self.length_mm,
                self.to.x,
                self.to.y,
                self.heading.tenths(),
                if self.reverse { ", reversing" } else { "" }
            ),
        )
    }
}

/// Column of E.22 for a card's locomotion.
fn loco_col(u: &Unit) -> Option<usize> {
    let c = u.card();
    match (c.kind.as_str(), c.locomotion.as_deref()) {
        ("infantry", _) | (_, Some("foot")) => Some(0),
        (_, Some("manhandled")) => Some(1),
        (_, Some("wheeled")) => Some(2),
        (_, Some("halftracked")) => Some(3),
        (_, Some("tracked")) => Some(4),
        _ => None,
    }
}

/// Tactical allowance in mm from the card (MOV-1: 16 cm for foot figures).
fn tactical_mm(u: &Unit) -> Option<u32> {
    let m = u.card().movement.as_ref()?;
    m.first()?.as_u64().map(|cm| cm as u32 * 10)
}

/// The allowance in mm of a speed, `tac` being the Tactical one: the card's own Short or
/// Cautious value when it gives one, else halved in mm and rounded down (MOV-1, D.1).
fn allowance_mm(u: &Unit, tac: u32, code: MoveCode) -> u32 {
    let card = |i: usize| u.card().movement.as_ref().and_then(|m| m.get(i)).and_then(|v| v.as_u64()).map(|cm| cm as u32 * 10);
    let short = card(1).unwrap_or(tac / 2);
    match code {
        MoveCode::Tactical => tac,
        MoveCode::Short => short,
        _ => card(2).unwrap_or(short / 2),
    }
}

fn v(rule: &str, u: &Unit, msg: String) -> Violation {
    Violation::new(rule, msg).unit(u.id.clone())
}

/// A building a move goes into or out of through an access point (SW-BLDM-2/5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Door<'a> {
    None,
    /// The path ends in an access point of this building (the caller places the base inside).
    Enter(&'a str),
    /// The path starts in an access point of this building.
    Exit(&'a str),
}

/// Check a move of `u` at `speed`; every problem is named with its rule.
pub fn check(s: &State, u: &Unit, m: &Move, speed: Speed) -> Result<Moved, Vec<Violation>> {
    check_door(s, u, m, speed, Door::None)
}

/// [`check`], for a path that may go in or out of one building by its access points.
pub fn check_door(s: &State, u: &Unit, m: &Move, speed: Speed, door: Door<'_>) -> Result<Moved, Vec<Violation>> {
    let d = data::data();
    let mut errs = Vec::new();
    let Some(col) = loco_col(u) else {
        return Err(vec![v("SW-ARTM-1", u, format!("{} cannot move by itself: a towed gun needs a vehicle (towing is not built)", u.id))]);
    };
    let Some(tac) = tactical_mm(u) else {
        return Err(vec![v("SW-ARTM-1", u, format!("{}'s card gives no movement", u.id))]);
    };
    if u.mobility >= 4 {
        return Err(vec![v("SW-DAM-1", u, format!("{} is immobilised", u.id))]);
    }
    // DAM-1 (E.28 "Cingolo spezzato"): a tracked or half-tracked vehicle with a broken track
    // moves no more (it may pivot towards the broken side; pivoting is not built). A wheeled
    // vehicle's lost wheel keeps the Cautious cap below (wheels by axles are not built).
    let tracks = u.card().locomotion.as_deref().is_some_and(|l| l == "tracked" || l == "halftracked");
    if u.mobility == 3 && tracks {
        return Err(vec![v("SW-DAM-1", u, format!("{}'s track is broken: it no longer moves (E.28)", u.id))]);
    }
    // MOV-1: Cautious is the speed "for vehicles in reverse"; nothing else backs.
    if m.reverse && !u.is_vehicle() {
        return Err(vec![v(
            "SW-MOV-1",
            u,
            format!("{} is no vehicle: only vehicles reverse (MOV-1); a squad or gun turns and moves", u.id),
        )]);
    }
    let mut pts = vec![u.at];
    for &xy in &m.path {
        match point(xy) {
            Some(p) => pts.push(p),
            None => return Err(vec![v("SW-GEO-1", u, format!("waypoint {xy:?} is out of range"))]),
        }
    }
    let path = match Path::new(pts.clone()) {
        Ok(p) => p,
        Err(e) => return Err(vec![v("SW-MOV-5", u, format!("the path is not a chain of straight segments: {e:?}"))]),
    };
    let length = path.length_mm();
    // MOV-2: moving is optional, but a move is at least 2 cm.
    if length < 20 {
        errs.push(v("SW-MOV-2", u, format!("a move is at least 20 mm; this path is {length} mm")));
    }
    // MOV-1 speed of the action, capped by damage (E.28 short/cautious, track: cautious).
    let mut cap = match speed {
        Speed::Tactical => MoveCode::Tactical,
        Speed::Short => MoveCode::Short,
    };
    let damage_cap = match u.mobility {
        1 => MoveCode::Short,
        2 | 3 => MoveCode::Cautious,
        _ => MoveCode::Tactical,
    };
    cap = cap.max(damage_cap);
    // MOV-1: a reversing vehicle goes at most Cautious for the whole move.
    if m.reverse {
        cap = cap.max(MoveCode::Cautious);
    }
    // MOV-3: the worst terrain crossed caps the whole move; roads count only on the road.
    let mut road_polys = Vec::new();
    for a in &s.scenario.areas {
        let Some(row) = d.terrain.get(&a.kind) else { continue };
        let code = row.moves[col];
        let touched = path.inside_mm(&a.polygon) > 0 || pts.iter().any(|p| a.polygon.contains_strictly(*p));
        if !touched {
            continue;
        }
        match code {
            MoveCode::Road => road_polys.push(&a.polygon),
            MoveCode::Building => {
                // BLDM-2/5: foot figures go in and out only through the access points.
                let entering = match door {
                    Door::Enter(b) if b == a.id => Some(true),
                    Door::Exit(b) if b == a.id => Some(false),
                    _ => None,
                };
                let through = entering
                    .zip(s.scenario.building(&a.id))
                    .is_some_and(|(inward, b)| super::buildings::path_through_door(&path, &a.polygon, b, inward));
                if !through {
                    errs.push(v(
                        "SW-BLDM-2",
                        u,
                        format!(
                            "{} ({}) is entered and left only through its access points (E.22 B, BLDM-2/5): this path runs through its walls",
                            a.id, a.kind
                        ),
                    ));
                }
            }
            MoveCode::Impassable => {
                errs.push(v("SW-MOV-3", u, format!("{} ({}) is impassable to {} here (E.22)", a.id, a.kind, u.id)));
            }
            c => cap = cap.max(c),
        }
    }
    for l in &s.scenario.linears {
        if path.crosses(&l.feature) {
            let code = d.terrain.get(&l.kind).map(|r| r.moves[col]).unwrap_or(MoveCode::Tactical);
            match code {
                MoveCode::Impassable | MoveCode::Building | MoveCode::Road => {
                    errs.push(v("SW-MOV-3", u, format!("{} ({}) cannot be crossed by {} (E.22)", l.id, l.kind, u.id)))
                }
                c => cap = cap.max(c),
            }
        }
    }
    let cap_mm = allowance_mm(u, tac, cap);
    // MOV-5: turns. Vehicles pay for turns over 15°; foot units turn freely. Reversing, the
    // hull faces away from each segment's direction (D.1: the steps run backwards along
    // the heading), and the turns are those of the hull.
    let headings: Vec<Heading> =
        path.segments().filter_map(|(a, b)| Heading::between(a, b)).map(|h| if m.reverse { h.reversed() } else { h }).collect();
    let last = headings.last().copied().unwrap_or(u.heading);
    let end_heading = match m.heading {
        Some(h) => match Heading::try_from(i64::from(h)) {
            Ok(h) => h,
            Err(e) => {
                errs.push(v("SW-GEO-1", u, e));
                last
            }
        },
        None => last,
    };
    let mut turn_cost = 0u32;
    let loco = u.card().locomotion.clone().unwrap_or_default();
    if u.is_vehicle() {
        let mut seq = vec![u.heading];
        seq.extend(headings.iter().copied());
        seq.push(end_heading);
        let seg_len: Vec<u32> = path.segments().map(|(a, b)| a.distance_mm(b)).collect();
        let mut last_free_side = 0i32;
        let mut since_costed: Option<u32> = None;
        for (i, w) in seq.windows(2).enumerate() {
            let t = w[0].diff(w[1]);
            let a = t.unsigned_abs();
            if a == 0 {
                last_free_side = 0;
            } else if a <= 150 {
                let side = t.signum();
                if side == last_free_side {
                    errs.push(v("SW-MOV-5", u, format!("two free turns in a row to the same side at waypoint {i}")));
                }
                last_free_side = side;
            } else {
                last_free_side = 0;
                if loco != "tracked" && a > 900 {
                    errs.push(v(
                        "SW-MOV-5",
                        u,
                        format!("a wheeled or half-tracked vehicle turns at most 90° at once; {}° at waypoint {i}", a / 10),
                    ));
                }
                if loco != "tracked"
                    && let Some(run) = since_costed
                    && run < 40
                {
                    errs.push(v(
                        "SW-MOV-5",
                        u,
                        format!("wheeled and half-tracked vehicles move 4 cm straight between turns; {run} mm at waypoint {i}"),
                    ));
                }
                turn_cost += 40;
                since_costed = Some(0);
            }
            if let Some(len) = seg_len.get(i) {
                since_costed = since_costed.map(|r| r + len);
            }
        }
    }
    // MOV-4 in integers (AMB-5): k·(off-road + turn costs) + road ≤ k·cap. The road rule
    // holds for a reversing vehicle too: Cautious is its cap, as a wood's Short is (MOV-3).
    let k: u64 = match loco.as_str() {
        "wheeled" => 3,
        "tracked" | "halftracked" => 2,
        _ => 1,
    };
    let road_mm: u32 = road_polys.iter().map(|p| path.inside_mm(p)).sum::<u32>().min(length);
    let off = u64::from(length - road_mm) + u64::from(turn_cost);
    // DAM-1 (E.28 "Solo movimento breve/cauto"): the damaged vehicle never goes beyond that
    // distance "a prescindere dal tipo di terreno che attraversa": the road multiplies
    // nothing under the damage cap, so the whole path and its turns fit in it.
    let damage_mm = (damage_cap != MoveCode::Tactical).then(|| allowance_mm(u, tac, damage_cap));
    if let Some(dmg) = damage_mm
        && u64::from(length) + u64::from(turn_cost) > u64::from(dmg)
    {
        errs.push(v(
            "SW-DAM-1",
            u,
            format!(
                "{} is damaged ({damage_cap:?} only, E.28): it goes at most {dmg} mm whatever the ground, the road too; this path is {length} mm + {turn_cost} mm of turns",
                u.id
            ),
        ));
    } else if m.reverse && k * off + u64::from(road_mm) > k * u64::from(cap_mm) {
        errs.push(v(
            "SW-MOV-1",
            u,
            format!(
                "a vehicle reverses at most Cautious ({cap_mm} mm): this path costs {} mm off road + {turn_cost} mm of turns + {road_mm} mm of road (×1/{k})",
                length - road_mm
            ),
        ));
    } else if k * off + u64::from(road_mm) > k * u64::from(cap_mm) {
        errs.push(v(
            "SW-MOV-4",
            u,
            format!(
                "the path costs {} mm off road + {} mm of turns + {} mm of road (×1/{k}); the allowance is {cap_mm} mm ({cap:?}, the worst terrain crossed and the action, MOV-1/3)",
                length - road_mm,
                turn_cost,
                road_mm
            ),
        ));
    }
    // Vehicles, guns and wrecks obstruct every action (LOS-5, WRECK-1): a path may not run
    // through another model. Figures do not stop a move in this slice (overrun is not built).
    for o in s.units.iter().filter(|o| o.id != u.id && o.is_model()) {
        let fp = o.footprint();
        if path.segments().any(|(a, b)| fp.meets_segment(a, b)) {
            errs.push(v("SW-WRECK-1", u, format!("the path of {} runs through {} (models and wrecks obstruct, LOS-5)", u.id, o.id)));
        }
    }
    let to = *pts.last().unwrap_or(&u.at);
    let fp = footprint(u.card(), to, end_heading);
    // Entering, the leader ends in the doorway and the caller sets the base inside.
    if !matches!(door, Door::Enter(_))
        && let Some(p) = end_problem(s, u, &fp)
    {
        errs.push(p);
    }
    if errs.is_empty() { Ok(Moved { to, heading: end_heading, length_mm: length, reverse: m.reverse }) } else { Err(errs) }
}

/// DAM-5: how far `u` runs on from where it stands, straight along its heading (backwards
/// if `backwards`), trying up to `want_mm`: it stops at the last whole mm before anything it
/// could not drive into or stand on (impassable ground, a building, an uncrossable linear
/// element, a model in its way, a base it would end on, the table's edge). It may end
/// touching another model or base, never touching a building (BLDM-2). Returns the distance
/// and, when it stopped short, what stopped it.
pub fn run_on(s: &State, u: &Unit, want_mm: u32, backwards: bool) -> (u32, Option<String>) {
    let d = data::data();
    let Some(col) = loco_col(u) else { return (0, Some("it cannot move".into())) };
    let dir = if backwards { u.heading.reversed() } else { u.heading };
    for k in 1..=want_mm {
        let to = u.at.offset(k as i32, dir);
        let Ok(path) = Path::new(vec![u.at, to]) else { return (k - 1, Some("the table's limits".into())) };
        let area = s.scenario.areas.iter().find(|a| {
            let code = d.terrain.get(&a.kind).map(|r| r.moves[col]);
            matches!(code, Some(MoveCode::Impassable | MoveCode::Building))
                && (path.inside_mm(&a.polygon) > 0 || a.polygon.contains_strictly(to))
        });
        if let Some(a) = area {
            return (k - 1, Some(format!("{} ({})", a.id, a.kind)));
        }
        let linear = s.scenario.linears.iter().find(|l| {
            let code = d.terrain.get(&l.kind).map(|r| r.moves[col]).unwrap_or(MoveCode::Tactical);
            matches!(code, MoveCode::Impassable | MoveCode::Building | MoveCode::Road) && path.crosses(&l.feature)
        });
        if let Some(l) = linear {
            return (k - 1, Some(format!("{} ({})", l.id, l.kind)));
        }
        if let Some(o) = s.units.iter().find(|o| o.id != u.id && o.is_model() && o.on_table() && o.footprint().meets_segment(u.at, to)) {
            return (k - 1, Some(o.id.clone()));
        }
        if let Some(p) = end_problem(s, u, &footprint(u.card(), to, u.heading)) {
            return (k - 1, Some(p.message));
        }
    }
    (want_mm, None)
}

/// Where a unit may stand out of doors: wholly on the table, not on another model, and
/// not on a building at all (BLDM-2: a squad is all in or all out, and only an access
/// point lets it in; a model never stands on one).
pub fn end_problem(s: &State, u: &Unit, fp: &Footprint) -> Option<Violation> {
    if !s.scenario.table().contains_footprint(fp) {
        return Some(v("SW-MOV-2", u, format!("{} would end off the table", u.id)));
    }
    if let Some(a) = s.scenario.building_areas().find(|a| super::buildings::on_area(&a.polygon, fp)) {
        let violation = if u.is_infantry() {
            v(
                "SW-BLDM-2",
                u,
                format!(
                    "{} would stand partly on {} ({}): a squad is all inside a building or all out, and enters only by an access point",
                    u.id, a.id, a.kind
                ),
            )
        } else {
            v(
                "SW-MOV-3",
                u,
                format!(
                    "{} would stand on {} ({}): a vehicle or gun never enters a building nor stands even partly on one (E.22 B)",
                    u.id, a.id, a.kind
                ),
            )
        };
        return Some(violation);
    }
    for o in &s.units {
        if o.id != u.id && o.on_table() && o.footprint().overlaps(fp) {
            return Some(v("SW-MOV-2", u, format!("{} would end on {}", u.id, o.id)));
        }
    }
    None
}

/// Each vehicle's mobility (E.28), to tell afterwards which ones a resolution immobilised.
pub fn mobilities(s: &State) -> Vec<(String, u8)> {
    s.units.iter().filter(|u| u.is_vehicle()).map(|u| (u.id.clone(), u.mobility)).collect()
}

/// DAM-5 after a resolution: every vehicle on the table that `was` shows mobile and that is
/// now immobilised, not a wreck, and Moving (ST-1) rolls a D6 and runs on that many cm, in
/// unit-id order (G.1), backwards if its move was a reverse. A wreck stays where it was
/// destroyed; a lost track or wheel stops the vehicle where it is (E.28, DAM-1).
pub fn run_on_all(s: &mut State, was: &[(String, u8)], dice: &mut crate::dice::Dice) -> Vec<crate::engine::Event> {
    let mut ids: Vec<String> = was
        .iter()
        .filter(|(id, before)| *before < 4 && s.unit(id).is_some_and(|u| u.mobility >= 4 && u.moving && !u.destroyed && u.on_table()))
        .map(|(id, _)| id.clone())
        .collect();
    ids.sort();
    let mut ev = Vec::new();
    for id in ids {
        let Some(u) = s.unit(&id).cloned() else { continue };
        let roll = dice.roll(6) + 1;
        ev.push(crate::engine::Event::roll(format!("{id} run-on (immobilised while Moving)"), "d6", roll));
        let (mm, stop) = run_on(s, &u, roll * 10, u.reversing);
        let to = u.at.offset(mm as i32, if u.reversing { u.heading.reversed() } else { u.heading });
        if let Some(m) = s.unit_mut(&id) {
            m.at = to;
        }
        let way = if u.reversing { "backwards" } else { "ahead" };
        let text = match stop {
            None => format!("{id} runs on {mm} mm {way} to ({}, {}) and stops for good", to.x, to.y),
            Some(why) => format!("{id} runs on {way} but stops after {mm} mm of {} at ({}, {}): {why}", roll * 10, to.x, to.y),
        };
        ev.push(crate::engine::Event::rule("SW-DAM-5", text));
    }
    ev
}
