//! Heavy fire at and into buildings (SW-BLDF-1..5, the original's "Fuoco diretto di armi
//! pesanti contro edifici e postazioni") and indirect fire through a roof (SW-IMP-4, "Punto
//! di impatto su edifici e postazioni").
//!
//! - **Target** (BLDF-1, HW-1): a building may be fired on by heavy weapons only while it
//!   holds an enemy squad the firer spots. The aim is the centre of the wall facing the
//!   firer (at half the building's height), or the sill of one opening facing it.
//! - **Hit** (HW-3): TIRO's green section, `wall` or `opening`, row die + AD (a building
//!   stands still). A miss scatters D10 cm on the wall's vertical plane (D.1): off the
//!   wall's outline it has no effect; on it, it is a wall hit at the new point.
//! - **Wall** (BLDF-2): the penetration chart's material column (L, M, C), the angle between
//!   the line of fire and the wall's plane read as for a plate. A bounce does nothing inside;
//!   an HE round still bursts outside, its fragments reaching those out of doors. A round that
//!   perforates the wall bursts inside (BLDF-4: AP counts as HE).
//! - **Opening** (BLDF-3/4): AP through a civilian door or window kills one figure of every
//!   base its line passes over on that floor and leaves by the far side; HE bursts 2 cm
//!   behind the sill along the line of fire.
//! - **Inside** (BLDF-5): a D10 on E.29 (row by calibre, column by material) gives the radius
//!   of the devastated area around the burst on that floor; every squad with its base even
//!   partly in it dies, with no fragment roll; an `R` cell makes the building ruins.
//! - **From above** (IMP-4): an indirect shell landing on a (not ruined) building goes through
//!   the roof and bursts on the top floor, as above; then its fragments reach those out of
//!   doors within its radius.
//!
//! Bunkers and casemates (material B) are not built: the battle has none.

use serde::{Deserialize, Serialize};

use super::data;
use super::fire::{self, HeavyLine, Plan};
use super::indirect::Loss;
use super::scenario::Area;
use super::state::{State, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::table::impact::plane_impact_at_least;
use crate::geo::table::{Footprint, Heading, Point, WallPoint, along_wall, deviate, scatter_heading, wall_scatter};

/// What a fire at a building aims at (HW-1), fixed when the order is read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aim {
    pub building: String,
    /// The opening aimed at, if any (else the wall).
    pub opening: Option<String>,
    /// The wall's two ends on the ground, in the outline's order.
    pub wall: (Point, Point),
    /// The aim on the wall's plane: mm along it from its first end, mm above the ground.
    pub along: i32,
    pub up: i32,
    /// The wall material (E.22): L, M or C.
    pub material: char,
}

/// A building that heavy fire can reach: its area, floors and material.
pub struct Target<'a> {
    pub area: &'a Area,
    pub floors: u8,
    pub material: char,
}

fn material_of(kind: &str) -> Option<char> {
    data::data().terrain.get(kind).and_then(|r| r.material)
}

/// The building (not ruined, not a bunker or casemate) of area `id`, if any.
pub fn target<'a>(s: &'a State, id: &str) -> Option<Target<'a>> {
    let area = s.scenario.area(id)?;
    let material = material_of(&area.kind).filter(|&m| m != 'B')?;
    if s.ruins.iter().any(|r| r == id) {
        return None;
    }
    let floors = s.scenario.building(id).map(|b| b.floors).unwrap_or(1).max(1);
    Some(Target { area, floors, material })
}

/// The building whose outline holds `p` (boundary included), as [`target`].
pub fn target_at(s: &State, p: Point) -> Option<Target<'_>> {
    let id = s.scenario.areas.iter().find(|a| material_of(&a.kind).is_some() && a.polygon.contains(p))?.id.clone();
    target(s, &id)
}

/// The squads inside `building` (on `floor`, or any floor), in id order.
fn occupants(s: &State, building: &str, floor: Option<u8>) -> Vec<String> {
    let mut v: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.alive() && u.figures > 0)
        .filter(|u| u.inside.as_ref().is_some_and(|i| i.building == building && floor.is_none_or(|f| i.floor == f)))
        .map(|u| u.id.clone())
        .collect();
    v.sort();
    v
}

fn v(rule: &str, msg: String) -> Violation {
    Violation::new(rule, msg)
}

fn xy(p: Point) -> String {
    format!("({}, {})", p.x, p.y)
}

/// BLDF-1 / HW-1: plan heavy fire from `firer` (standing at `at`) at building `b`, aimed at
/// the wall facing it or at opening `aim`.
pub fn plan(s: &State, firer: &Unit, at: Point, moving: bool, b: &Target, aim: Option<&str>) -> Result<Plan, Vec<Violation>> {
    let d = data::data();
    let id = &b.area.id;
    if firer.inside.is_some() {
        return Err(vec![v("SW-BLDF-1", format!("{} is inside a building: it fires at units, not at buildings", firer.id))]);
    }
    // BLDF-1: only a building that holds enemies the firer spots.
    let held: Vec<&Unit> = occupants(s, id, None).iter().filter_map(|o| s.unit(o)).filter(|o| o.side != firer.side).collect::<Vec<_>>();
    if !held.iter().any(|o| fire::spots(s, firer, at, o).is_ok()) {
        let why = if held.is_empty() { "it holds no enemy" } else { "none of the enemies in it is spotted by the firer" };
        return Err(vec![v(
            "SW-BLDF-1",
            format!("{} may not fire at {id}: {why} (a building is a target only while it holds spotted enemies)", firer.id),
        )]);
    }
    let fh = d.floor_height_mm as i32;
    let poly = &b.area.polygon;
    let ccw = poly.area2() > 0;
    // The walls the firer stands outside of (it is on their outer side).
    let facing = |p: Point, q: Point| {
        let o = crate::geo::table::point::orient(p, q, at);
        if ccw { o < 0 } else { o > 0 }
    };
    let len = |p: Point, q: Point| crate::geo::table::num::ceil_sqrt(p.to(q).len_sq() as u128) as i32;
    let aim = match aim {
        None | Some("wall") => {
            // HW-1: the centre of the most exposed wall, read as the facing wall whose middle
            // is nearest the firer (ties in outline order), at half the building's height.
            let Some((p, q)) = poly
                .edges()
                .filter(|&(p, q)| facing(p, q))
                .min_by_key(|&(p, q)| at.distance_sq(Point::new((p.x + q.x).div_euclid(2), (p.y + q.y).div_euclid(2))))
            else {
                return Err(vec![v("SW-BLDF-1", format!("{} faces no wall of {id}", firer.id))]);
            };
            Aim {
                building: id.clone(),
                opening: None,
                wall: (p, q),
                along: len(p, q) / 2,
                up: i32::from(b.floors) * fh / 2,
                material: b.material,
            }
        }
        Some(o) => {
            let Some(op) = s.scenario.building(id).and_then(|bd| bd.openings.iter().find(|x| x.id == o)) else {
                return Err(vec![v("SW-HW-1", format!("{o} is no opening of {id}"))]);
            };
            let sill = op.zone.centroid();
            // HW-1: a visible opening: it faces the firer (its line leaves through it).
            if !poly.meets_boundary_only_in(sill, at, &op.zone) {
                return Err(vec![v("SW-HW-1", format!("{o} of {id} does not face {}: its line to the firer crosses the walls", firer.id))]);
            }
            let Some((p, q)) = poly.edges().min_by_key(|&(p, q)| crate::geo::table::segment::point_segment_dist_sq(sill, p, q)) else {
                return Err(vec![v("SW-HW-1", format!("{id} has no wall"))]);
            };
            let along = {
                let v = p.to(q);
                let l = len(p, q).max(1) as i128;
                crate::geo::table::num::round_div(p.to(sill).dot(v), l) as i32
            };
            Aim {
                building: id.clone(),
                opening: Some(o.to_string()),
                wall: (p, q),
                along,
                up: i32::from(op.floor) * fh + fh / 2,
                material: b.material,
            }
        }
    };
    let point = along_wall(aim.wall.0, aim.wall.1, aim.along);
    let ffp = super::scenario::footprint(firer.card(), at, firer.heading);
    let spot = Footprint::circle(point, 0);
    let gap = ffp.gap_mm(&spot);
    let one_survivor = firer.figures <= 1 && firer.crew_size() > 1;
    let mut heavy = Vec::new();
    let mut why = Vec::new();
    for (i, per, band) in fire::lines_in_reach(d, firer, at, &spot, gap, moving, fire::Lines::Heavy, &mut why) {
        let line = &firer.card().armament[i];
        let w = &d.weapons[&line.w];
        if one_survivor || (i == fire::main_gun(firer) && firer.gun_jammed) {
            why.push(format!("{} cannot fire (CREW-1, DAM-3)", line.w));
            continue;
        }
        // HE where the weapon has it (a building is no armour), else AP.
        let ap = !w.ammo.iter().any(|a| fire::is_he(a));
        let cal = w.cal.map(|c| c.0).unwrap_or(0);
        heavy.push(HeavyLine { weapon: line.w.clone(), shots: per * line.n, band, shoulder: w.shoulder, ap, cal_tenths: cal });
    }
    if heavy.is_empty() {
        let mut msg =
            format!("no heavy weapon of {} can fire at {id} (light weapons fire at the squads inside, not at the building)", firer.id);
        if !why.is_empty() {
            msg.push_str(&format!(": {}", why.join("; ")));
        }
        return Err(vec![v("SW-WPN-1", msg)]);
    }
    Ok(Plan {
        firer: firer.id.clone(),
        target: id.clone(),
        from: at,
        heavy,
        light: Vec::new(),
        target_moving: false,
        cover: 'S',
        through: None,
        aim: Some(aim),
        relay: None,
    })
}

/// Resolve a planned fire at a building: per line and shot, the hit die, then (a miss) the
/// scatter distance and direction, or (a wall hit) the penetration die, then E.29 or the
/// fragments; then the CTs and SF tests of the squads that lost figures (G.1).
pub fn resolve(s: &mut State, p: &Plan, aim: &Aim, dice: &mut Dice) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let Some(firer) = s.unit(&p.firer).cloned() else { return ev };
    let ad = s.ad(&firer.side);
    let fh = d.floor_height_mm as i32;
    let Some(floors) = target(s, &aim.building).map(|t| t.floors) else { return ev };
    let (a, b) = aim.wall;
    let wall_len = crate::geo::table::num::ceil_sqrt(a.to(b).len_sq() as u128) as i32;
    let mut ct = Vec::new();
    for line in &p.heavy {
        let frag_mm = d.weapons.get(&line.weapon).and_then(|w| w.frag).unwrap_or(0) * 10;
        for shot in 1..=line.shots {
            if target(s, &aim.building).is_none() {
                ev.push(Event::rule("SW-BLDF-5", format!("{} holds its remaining shots: {} is ruins", p.firer, aim.building)));
                break;
            }
            let die = if line.shoulder { 10 } else { line.band.die() };
            let roll = fire::face(dice.roll(die));
            let what = aim.opening.as_deref().unwrap_or("wall");
            ev.push(Event::roll(
                format!("{} {} shot {shot} at {} ({what}): hit", p.firer, line.weapon, aim.building),
                format!("d{die}"),
                roll,
            ));
            let row = (roll + ad).clamp(1, 15) as usize;
            let col = if aim.opening.is_some() { "opening" } else { "wall" };
            let word = d.tiro_green.get(col).map(|c| c[row].clone()).unwrap_or_else(|| "miss".into());
            let at = WallPoint { along: aim.along, up: aim.up };
            match word.as_str() {
                "through" => {
                    ev.push(Event::rule("SW-HW-3", format!("row {row} on TIRO ({col}): the round goes through {what}")));
                    ev.extend(through(s, p, aim, line, dice, &mut ct));
                }
                "hit" => {
                    ev.push(Event::rule("SW-HW-3", format!("row {row} on TIRO ({col}): the shot strikes the wall")));
                    ev.extend(wall_hit(s, p, aim, at, line, frag_mm, floors, dice));
                }
                _ => {
                    // BLDF-1: a miss scatters on the wall's plane (E.31: D10 cm, a d3600 direction).
                    let cm = fire::face(dice.roll(10));
                    let f = fire::face(dice.roll(3600));
                    ev.push(Event::roll(format!("{} shot {shot} scatter on the wall: D10 cm", p.firer), "d10", cm));
                    ev.push(Event::roll(format!("{} shot {shot} scatter direction", p.firer), "d3600", f));
                    let h = scatter_heading(f).unwrap_or(Heading::new(0));
                    match wall_scatter(at, cm as i32 * 10, h, wall_len, i32::from(floors) * fh) {
                        None => ev.push(Event::rule(
                            "SW-BLDF-1",
                            format!(
                                "row {row} on TIRO ({col}): a miss, {cm} cm at heading {} on the wall's plane: off {}'s outline, no effect",
                                h.tenths(),
                                aim.building
                            ),
                        )),
                        Some(w) => {
                            ev.push(Event::rule(
                                "SW-BLDF-1",
                                format!(
                                    "row {row} on TIRO ({col}): a miss, {cm} cm at heading {}: it strikes the wall {} mm along, {} mm up",
                                    h.tenths(),
                                    w.along,
                                    w.up
                                ),
                            ));
                            ev.extend(wall_hit(s, p, aim, w, line, frag_mm, floors, dice));
                        }
                    }
                }
            }
        }
    }
    for id in ct.clone() {
        ev.extend(fire::courage(s, &id, dice, "SW-TEST-CT"));
    }
    for id in ct {
        ev.extend(fire::skip_fire(s, &id, dice));
    }
    ev
}

/// BLDF-2: a shot on the wall at wall point `w`: penetration on the material column, then a
/// burst inside (E.29) or, bouncing, HE fragments outside.
#[allow(clippy::too_many_arguments)]
fn wall_hit(s: &mut State, p: &Plan, aim: &Aim, w: WallPoint, line: &HeavyLine, frag_mm: u32, floors: u8, dice: &mut Dice) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let (a, b) = aim.wall;
    let ground = along_wall(a, b, w.along);
    let floor = u8::try_from(w.up / d.floor_height_mm as i32).unwrap_or(0).min(floors - 1);
    let ge75 = plane_impact_at_least(a.to(b), p.from.to(ground), 750);
    let pdie = if line.shoulder { 10 } else { line.band.die() };
    let proll = fire::face(dice.roll(pdie));
    ev.push(Event::roll(
        format!("{} penetration: {}'s wall ({}), {}", p.firer, aim.building, aim.material, if ge75 { ">= 75°" } else { "< 75°" }),
        format!("d{pdie}"),
        proll,
    ));
    let cell = d.pen_material_cell(line.ap, ge75, line.cal_tenths, aim.material);
    match cell {
        Some(need) if need <= proll => {
            ev.push(Event::rule(
                "SW-BLDF-4",
                format!(
                    "needs {need}: the round perforates the wall at {} on floor {floor} and bursts inwards (AP counts as HE)",
                    xy(ground)
                ),
            ));
            ev.extend(devastate(s, &aim.building, floor, ground, line.cal_tenths, false, dice, "SW-BLDF-5"));
        }
        _ => {
            let need = cell.map(|n| n.to_string()).unwrap_or_else(|| "X".into());
            ev.push(Event::rule(
                "SW-BLDF-2",
                format!("needs {need}: the shot bounces off {}'s wall: nothing inside is harmed", aim.building),
            ));
            if !line.ap && frag_mm > 0 {
                ev.push(Event::rule("SW-BLDF-2", format!("the HE round bursts outside the wall at {}", xy(ground))));
                let inside = occupants(s, &aim.building, None);
                ev.extend(super::fragments::burst(s, ground, frag_mm, line.cal_tenths, &[], &inside, 1, false, dice));
                ev.extend(super::indirect::apply_losses(s));
            }
        }
    }
    ev
}

/// BLDF-3/4: a shot through the opening aimed at.
fn through(s: &mut State, p: &Plan, aim: &Aim, line: &HeavyLine, dice: &mut Dice, ct: &mut Vec<String>) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(op) =
        s.scenario.building(&aim.building).and_then(|b| b.openings.iter().find(|o| Some(&o.id) == aim.opening.as_ref())).cloned()
    else {
        return ev;
    };
    let sill = op.zone.centroid();
    let Some(h) = Heading::between(p.from, sill) else { return ev };
    if line.ap {
        // BLDF-3: through a civilian door or window an AP round kills the figures whose bases
        // its line passes over on that floor (inner walls ignored) and leaves by the far side.
        // A squad is one base: one figure of each base crossed.
        let span = s
            .scenario
            .area(&aim.building)
            .map(|a| a.polygon.vertices().iter().map(|v| v.distance_mm(sill)).max().unwrap_or(0))
            .unwrap_or(0);
        let far = deviate(sill, span as i32 + 1, h);
        let mut hit = Vec::new();
        for id in occupants(s, &aim.building, Some(op.floor)) {
            if s.unit(&id).is_some_and(|u| u.footprint().meets_segment(sill, far))
                && let Some(u) = s.unit_mut(&id)
            {
                fire::kill(u, 1);
                fire::push_ct(ct, &id);
                hit.push(id);
            }
        }
        let who = if hit.is_empty() { "no one".to_string() } else { format!("one figure of {}", hit.join(", ")) };
        ev.push(Event::rule(
            "SW-BLDF-3",
            format!("the AP round goes through {} on floor {}: it kills {who} on its line and leaves without bursting", op.id, op.floor),
        ));
    } else {
        // BLDF-4: HE through an opening bursts 2 cm behind the sill along the line of fire.
        let at = deviate(sill, BEHIND_THE_SILL_MM, h);
        ev.push(Event::rule(
            "SW-BLDF-4",
            format!("the HE round goes through {} and bursts 2 cm behind its sill, at {} on floor {}", op.id, xy(at), op.floor),
        ));
        ev.extend(devastate(s, &aim.building, op.floor, at, line.cal_tenths, false, dice, "SW-BLDF-5"));
    }
    ev
}

/// BLDF-4 (TEXT): HE through an opening bursts 2 cm behind the threshold.
const BEHIND_THE_SILL_MM: i32 = 20;

/// BLDF-5 / IMP-4: a burst at `at` on `floor` of `building`: a D10 on E.29 gives the
/// devastated area's radius; every squad on that floor with its base even partly in it loses
/// all its figures (held to the end of phase 4 when `held`); an `R` cell makes the building
/// ruins.
#[allow(clippy::too_many_arguments)]
pub fn devastate(s: &mut State, building: &str, floor: u8, at: Point, cal: u32, held: bool, dice: &mut Dice, rule: &str) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let Some(material) = target(s, building).map(|t| t.material) else { return ev };
    let roll = fire::face(dice.roll(10));
    ev.push(Event::roll(format!("burst inside {building} floor {floor}: E.29"), "d10", roll));
    let be = &d.building_effects;
    let row = be.row(roll, cal);
    let cell = be.cell(row, material).unwrap_or(data::Devastation { radius_cm: 0, ruins: false });
    let mut dead = Vec::new();
    if cell.radius_cm > 0 {
        for id in occupants(s, building, Some(floor)) {
            if s.unit(&id).is_some_and(|u| u.footprint().within_point(at, cell.radius_cm * 10)) {
                if held {
                    s.held.push(Loss::All { unit: id.clone() });
                } else if let Some(u) = s.unit_mut(&id) {
                    let n = u.figures;
                    fire::kill(u, n);
                }
                dead.push(id);
            }
        }
    }
    let who = if dead.is_empty() { "no squad".to_string() } else { dead.join(", ") };
    let when = if held && !dead.is_empty() { " (at the end of the phase)" } else { "" };
    ev.push(Event::rule(
        rule,
        format!(
            "row {row} (D10 {roll} {:+}, column {material}): devastated area {} cm around {}: every figure of {who} there dies{when}",
            be.modifier(cal),
            cell.radius_cm,
            xy(at)
        ),
    ));
    if cell.ruins {
        s.ruins.push(building.to_string());
        ev.push(Event::rule("SW-BLDF-5", format!("{building} collapses: it is ruins from now on")));
    }
    ev
}

/// IMP-4: an indirect shell of calibre `cal` landing at `at` on building `id` goes through the
/// roof and bursts on the top floor (losses held, IF-1); then its fragments reach the units out
/// of doors within `frag_mm`.
pub fn shell_through_roof(s: &mut State, id: &str, at: Point, cal: u32, frag_mm: u32, n: usize, dice: &mut Dice) -> Vec<Event> {
    let Some(top) = target(s, id).map(|t| t.floors - 1) else { return vec![] };
    let mut ev =
        vec![Event::rule("SW-IMP-4", format!("shot {n} goes through the roof of {id} and bursts on its top floor ({top}) at {}", xy(at)))];
    ev.extend(devastate(s, id, top, at, cal, true, dice, "SW-IMP-4"));
    if frag_mm > 0 {
        let inside = occupants(s, id, None);
        ev.extend(super::fragments::burst(s, at, frag_mm, cal, &[], &inside, n, true, dice));
    }
    ev
}

/// The bot's aim: a heavy weapon's fire at the building an enemy it spots stands in, the wall
/// facing it. `None` when no such fire is allowed.
pub fn bot_plan(s: &State, firer: &Unit) -> Option<(String, Plan)> {
    let mut ids: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.side != firer.side && u.alive())
        .filter_map(|u| u.inside.as_ref().map(|i| i.building.clone()))
        .collect();
    ids.sort();
    ids.dedup();
    ids.into_iter().find_map(|id| {
        let t = target(s, &id)?;
        plan(s, firer, firer.at, false, &t, None).ok().map(|p| (id, p))
    })
}
