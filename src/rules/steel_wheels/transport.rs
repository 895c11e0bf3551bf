//! Embarking, dismounting and passengers (SW-EMB, digest D.3; the original's "Imbarcare e
//! sbarcare dai veicoli" and the C.4 actions "Imbarcarsi", "Appiedare", "Caricare e
//! sparare", "Scaricare e muovere").
//!
//! - **Boarding** (EMB-1/2/3): a squad's simple Move (Tactical, or no move at all) whose base
//!   ends within 8 cm (AMB-6) of a friendly transport's sides or rear, never ahead of its
//!   front plate; no fire. The transport must not have moved this turn and stays still for
//!   the rest of it (it may still fire, Stationary); the squad must fit in the card's
//!   capacity and at most 15 figures board one transport a turn. Aboard, the squad has no
//!   place on the table: nothing sees, fires at or bumps into it; the vehicle carries it.
//! - **Getting off** (EMB-4): the transport sets its passengers down in its own action,
//!   standing still (Stationary shots; half of them, rounded up, within 16 cm of its sides or
//!   rear, the rest within 8 cm) or with a Short move (Moving shots; all within 8 cm of
//!   where it starts or ends); or a passenger gets off by itself ("Appiedare"), within 8 cm,
//!   while its vehicle has not moved this turn, after which the vehicle moves at most Short.
//!   A squad that got off has acted (Moving) and does not fire that turn; one that acted
//!   already this turn stays aboard. Bases may be set down inside area terrain, not in a
//!   building or impassable ground.
//! - **Passengers** (EMB-5): they count as crew when a heavy weapon hits the vehicle (the
//!   E.28 deaths are taken from crew and passengers together, AMB-30; its CT is theirs
//!   too; an explosion kills them all); light fire may hit them inside an open-topped armoured
//!   vehicle, behind medium cover. The survivors of a destroyed vehicle get out at once
//!   within 8 cm (AMB-29).

use super::data::{self, MoveCode};
use super::movement;
use super::orders::{Place, Unload};
use super::scenario::{footprint, point};
use super::state::{State, Unit};
use crate::engine::{Event, Violation};
use crate::geo::table::segment::{point_segment_within, segments_within};
use crate::geo::table::{Footprint, Heading, Point, Vector};

/// AMB-6: a boarding squad's base ends within 8 cm of the vehicle's sides or rear.
pub const BOARD_MM: u32 = 80;
/// EMB-4: set down within 8 cm when the vehicle moves in the manoeuvre (and C.4 "Appiedare").
pub const NEAR_MM: u32 = 80;
/// EMB-4: within 16 cm when the vehicle stands still (half the squads at most).
pub const FAR_MM: u32 = 160;
/// EMB-1: figures one transport takes aboard in one turn.
pub const LOAD_PER_TURN: u32 = 15;

fn v(rule: &str, unit: &str, msg: String) -> Violation {
    Violation::new(rule, msg).unit(unit.to_string())
}

/// Whether base `fp` comes within `r_mm` of the sides or rear of the vehicle standing as
/// `vfp`, its centre not ahead of the vehicle's front plate (AMB-6, EMB-4).
pub fn beside_or_behind(vfp: &Footprint, fp: &Footprint, r_mm: u32) -> bool {
    let Footprint::Rect { centre, heading, length_mm, .. } = *vfp else { return false };
    let c = vfp.corners();
    if c.len() != 4 {
        return false;
    }
    // The unit heading vector is at scale 10⁶: ahead means past half the length.
    if centre.to(fp.centre()).dot(Vector::of_heading(heading)) > i128::from(length_mm) * 500_000 {
        return false;
    }
    // Corners run front-right, front-left, rear-left, rear-right: left side, rear, right side.
    let faces = [(c[1], c[2]), (c[2], c[3]), (c[3], c[0])];
    let r = i128::from(r_mm);
    let e = fp.corners();
    faces.iter().any(|&(a, b)| {
        if e.is_empty() {
            point_segment_within(fp.centre(), a, b, r)
        } else {
            (0..e.len()).any(|i| segments_within(e[i], e[(i + 1) % e.len()], a, b, r))
        }
    })
}

/// EMB-1: the figures `boarded` already this turn plus `more` stay within 15 and the
/// figures aboard within the card's capacity.
pub fn load_problem(capacity: u32, aboard: u32, boarded: u32, more: u32) -> Option<String> {
    if aboard + more > capacity {
        return Some(format!("it carries {capacity} men and has {aboard} aboard: {more} more do not fit"));
    }
    if boarded + more > LOAD_PER_TURN {
        return Some(format!(
            "{boarded} men boarded it this turn: {more} more would pass the {LOAD_PER_TURN} a transport loads in a turn (board the rest next turn)"
        ));
    }
    None
}

/// Figures riding in `vehicle`.
pub fn carried(s: &State, vehicle: &str) -> u32 {
    s.passengers(vehicle).iter().map(|p| p.figures).sum()
}

/// A vehicle moved in this turn's manoeuvre phase (its action this turn set it Moving).
fn moved_this_turn(t: &Unit) -> bool {
    t.acted && t.moving
}

/// EMB-1/2: may `u` board `vehicle` with its base at `fp` (after its move, or where it
/// stands)? Every problem, each citing its rule.
pub fn check_board(s: &State, u: &Unit, vehicle: &str, fp: &Footprint) -> Result<(), Vec<Violation>> {
    if !u.is_infantry() {
        return Err(vec![v("SW-EMB-1", &u.id, format!("{} is not an infantry squad: only squads board transports", u.id))]);
    }
    let Some(t) = s.unit(vehicle) else { return Err(vec![v("SW-EMB-1", &u.id, format!("there is no unit {vehicle}"))]) };
    let cap = t.card().capacity;
    if t.side != u.side || !t.is_vehicle() || cap == 0 {
        return Err(vec![v("SW-EMB-1", &u.id, format!("{vehicle} is not a transport of yours (a vehicle whose card carries men)"))]);
    }
    if !t.alive() || !t.on_table() {
        return Err(vec![v("SW-EMB-1", &u.id, format!("{vehicle} is out of the fight: nobody boards a wreck"))]);
    }
    let mut errs = Vec::new();
    if moved_this_turn(t) {
        errs.push(v(
            "SW-EMB-2",
            &u.id,
            format!("{vehicle} moved this turn: a transport stands still in the manoeuvre it takes men aboard (board it next turn)"),
        ));
    }
    if let Some(p) = load_problem(cap, carried(s, vehicle), t.boarded, u.figures) {
        errs.push(v("SW-EMB-1", &u.id, format!("{} cannot board {vehicle}: {p}", u.id)));
    }
    if !beside_or_behind(&t.footprint(), fp, BOARD_MM) {
        errs.push(v(
            "SW-EMB-2",
            &u.id,
            format!(
                "{}'s base must end within {} cm of {vehicle}'s sides or rear, not ahead of it (AMB-6): move it there first",
                u.id,
                BOARD_MM / 10
            ),
        ));
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// EMB-3: `id` boards `vehicle` (checked): off the table, Moving, carried by the vehicle,
/// which stands still for the rest of the turn.
pub fn board(s: &mut State, id: &str, vehicle: &str) -> Vec<Event> {
    let n = s.unit(id).map(|u| u.figures).unwrap_or(0);
    if let Some(u) = s.unit_mut(id) {
        u.aboard = Some(vehicle.to_string());
        u.moving = true;
        u.fired = false;
    }
    if let Some(t) = s.unit_mut(vehicle) {
        t.boarded += n;
    }
    let cap = s.unit(vehicle).map(|t| t.card().capacity).unwrap_or(0);
    vec![Event::rule("SW-EMB-3", format!("{id} boards {vehicle} ({n} men; {} of {cap} aboard)", carried(s, vehicle)))]
}

/// Where a passenger's base may be set down: `at`/`heading` checked, within `r_mm` of the
/// sides or rear of one of `from` (the vehicle where it stands, or where it starts and ends
/// a move), on the table, on no other base or model, not in a building or impassable ground.
fn check_place(
    s: &State,
    p: &Unit,
    from: &[Footprint],
    r_mm: u32,
    at: [i32; 2],
    heading: Option<u16>,
    veh: &Unit,
) -> Result<(Point, Heading), Violation> {
    let Some(to) = point(at) else { return Err(v("SW-GEO-1", &p.id, format!("{at:?} is out of range"))) };
    let h = match heading {
        Some(h) => Heading::try_from(i64::from(h)).map_err(|e| v("SW-GEO-1", &p.id, e))?,
        None => veh.heading,
    };
    let fp = footprint(p.card(), to, h);
    if !from.iter().any(|vfp| beside_or_behind(vfp, &fp, r_mm)) {
        return Err(v(
            "SW-EMB-4",
            &p.id,
            format!("{} must be set down within {} cm of {}'s sides or rear (not ahead of it)", p.id, r_mm / 10, veh.id),
        ));
    }
    let mut placed = p.clone();
    placed.at = to;
    placed.heading = h;
    placed.aboard = None;
    // "Straight into area terrain" stops at buildings: a squad enters one only by an access
    // point (BLDM-2), never by being set down in it.
    let d = data::data();
    for a in &s.scenario.areas {
        let Some(row) = d.terrain.get(&a.kind) else { continue };
        let touched = fp.samples().iter().any(|q| a.polygon.contains_strictly(*q));
        if touched && matches!(row.moves[0], MoveCode::Impassable | MoveCode::Building) {
            return Err(v(
                "SW-EMB-4",
                &p.id,
                format!("{} may be set down inside area terrain, but not in {} ({}): set it down outside", p.id, a.id, a.kind),
            ));
        }
    }
    if let Some(e) = movement::end_problem(s, &placed, &fp) {
        return Err(e);
    }
    Ok((to, h))
}

/// Put passenger `id` on the table at `to`: Moving, its manoeuvre of the turn spent; its
/// vehicle has unloaded this turn (EMB-4 rule 1: it moves at most Short).
fn set_down(s: &mut State, id: &str, to: Point, h: Heading) -> Option<String> {
    let u = s.unit_mut(id)?;
    let vehicle = u.aboard.take()?;
    u.at = to;
    u.heading = h;
    u.moving = true;
    u.fired = false;
    u.acted = true;
    if let Some(t) = s.unit_mut(&vehicle) {
        t.unloaded = true;
    }
    if let super::state::Phase::Act { queue, .. } = &mut s.phase {
        queue.retain(|x| x != id);
    }
    Some(vehicle)
}

/// C.4 "Appiedare": passenger `p` gets off by itself, within 8 cm of its vehicle's sides or
/// rear, while the vehicle has not moved this turn.
pub fn dismount(s: &mut State, p: &Unit, place: &Place) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(vid) = p.aboard.clone() else {
        return Err(vec![v("SW-EMB-4", &p.id, format!("{} is not aboard a vehicle", p.id))]);
    };
    let Some(t) = s.unit(&vid).cloned() else { return Err(vec![v("SW-EMB-4", &p.id, format!("there is no unit {vid}"))]) };
    if moved_this_turn(&t) && !t.destroyed {
        return Err(vec![v(
            "SW-EMB-4",
            &p.id,
            format!("{vid} moved this turn: its passengers get off in its own action (unload) or next turn"),
        )]);
    }
    let (to, h) = check_place(s, p, &[t.footprint()], NEAR_MM, place.at, place.heading, &t).map_err(|e| vec![e])?;
    set_down(s, &p.id, to, h);
    Ok(vec![Event::rule("SW-EMB-4", format!("{} gets off {vid} at ({}, {}) and will not fire this turn", p.id, to.x, to.y))])
}

/// EMB-4: transport `t` sets down `list`; `start` is where it stood before a move of this
/// action (`None`: it stands still). Applied to `s` one squad at a time, so each base is
/// checked against those set down before it.
pub fn unload(s: &mut State, t: &Unit, list: &[Unload], start: Option<&Footprint>) -> Result<Vec<Event>, Vec<Violation>> {
    let mut ev = Vec::new();
    let mut errs = Vec::new();
    let still = start.is_none();
    let mut from = vec![s.unit(&t.id).map(|x| x.footprint()).unwrap_or_else(|| t.footprint())];
    if let Some(fp) = start {
        from.push(*fp);
    }
    // EMB-4 rule 3: of the squads set down together, half (rounded up) may use the 16 cm band.
    let far_allowed = if still { list.len().div_ceil(2) } else { 0 };
    let mut far = 0usize;
    for (i, l) in list.iter().enumerate() {
        let Some(p) = s.unit(&l.unit).cloned() else {
            errs.push(v("SW-EMB-4", &t.id, format!("there is no unit {}", l.unit)));
            continue;
        };
        if p.aboard.as_deref() != Some(t.id.as_str()) || p.eliminated {
            errs.push(v("SW-EMB-4", &p.id, format!("{} is not aboard {}", p.id, t.id)));
            continue;
        }
        if list[..i].iter().any(|o| o.unit == l.unit) {
            errs.push(v("SW-EMB-4", &p.id, format!("{} is named twice", p.id)));
            continue;
        }
        if p.acted {
            errs.push(v("SW-MAN-3", &p.id, format!("{} has acted this turn (it boarded or held): it stays aboard until next turn", p.id)));
            continue;
        }
        let placed = match check_place(s, &p, &from, NEAR_MM, l.at, l.heading, t) {
            Ok(x) => Ok(x),
            Err(_) if still => match check_place(s, &p, &from, FAR_MM, l.at, l.heading, t) {
                Ok(x) if far < far_allowed => {
                    far += 1;
                    Ok(x)
                }
                Ok(_) => Err(v(
                    "SW-EMB-4",
                    &p.id,
                    format!(
                        "of {} squads set down together only {far_allowed} may go beyond 8 cm (half, rounded up): set {} down within 8 cm",
                        list.len(),
                        p.id
                    ),
                )),
                Err(far_e) => Err(far_e),
            },
            Err(e) if e.rule == "SW-EMB-4" => Err(v(
                "SW-EMB-4",
                &p.id,
                format!("{} moves in this action: {} is set down within 8 cm of where it starts or ends", t.id, p.id),
            )),
            Err(e) => Err(e),
        };
        match placed {
            Ok((to, h)) => {
                set_down(s, &p.id, to, h);
                ev.push(Event::rule(
                    "SW-EMB-4",
                    format!("{} sets {} down at ({}, {}); it will not fire this turn", t.id, p.id, to.x, to.y),
                ));
            }
            Err(e) => errs.push(e),
        }
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Three spots for squad `p`'s base by vehicle `t`, `gap_mm` clear of it: behind it, beside
/// its left, beside its right (the bail-out order of AMB-29; the bot's choices too).
pub fn spots_around(t: &Unit, p: &Unit, gap_mm: i32) -> [Point; 3] {
    let (l, w) = match t.footprint() {
        Footprint::Rect { length_mm, width_mm, .. } => (length_mm as i32, width_mm as i32),
        Footprint::Circle { radius_mm, .. } => (2 * radius_mm as i32, 2 * radius_mm as i32),
    };
    let (pl, pw) = match footprint(p.card(), t.at, t.heading) {
        Footprint::Rect { length_mm, width_mm, .. } => (length_mm as i32, width_mm as i32),
        Footprint::Circle { radius_mm, .. } => (2 * radius_mm as i32, 2 * radius_mm as i32),
    };
    [
        t.at.offset(-(l / 2 + pl / 2 + gap_mm), t.heading),
        t.at.offset(w / 2 + pw / 2 + gap_mm, t.heading.turned(900)),
        t.at.offset(w / 2 + pw / 2 + gap_mm, t.heading.turned(-900)),
    ]
}

/// AMB-29: the surviving passengers of a vehicle destroyed by fire get out at once, each
/// behind it, else beside it (left, then right), within 8 cm; one that finds no room stays
/// in the wreck and gets off by itself at its next action.
pub fn bail_out(s: &mut State, vehicle: &str) -> Vec<Event> {
    let Some(t) = s.unit(vehicle).cloned() else { return vec![] };
    let mut ev = Vec::new();
    let ids: Vec<String> = s.passengers(vehicle).iter().map(|p| p.id.clone()).collect();
    for id in ids {
        let Some(p) = s.unit(&id).cloned() else { continue };
        let spot =
            spots_around(&t, &p, 10).into_iter().find_map(|q| check_place(s, &p, &[t.footprint()], NEAR_MM, [q.x, q.y], None, &t).ok());
        match spot {
            Some((to, h)) => {
                if let Some(u) = s.unit_mut(&id) {
                    u.aboard = None;
                    u.at = to;
                    u.heading = h;
                    u.moving = true;
                }
                ev.push(Event::rule("SW-EMB-5", format!("{id} gets out of the wreck of {vehicle} at ({}, {}) (AMB-29)", to.x, to.y)));
            }
            None => ev.push(Event::rule(
                "SW-EMB-5",
                format!("{id} finds no room to get out of the wreck of {vehicle}: it stays inside and gets off at its next action"),
            )),
        }
    }
    ev
}

/// EMB-5: the cover of passengers against light fire: medium inside an open-topped vehicle,
/// none riding outside a closed one.
pub fn passenger_cover(vehicle: &Unit) -> char {
    if vehicle.card().open_topped { 'M' } else { 'S' }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// EMB-1: capacity and the 15 men a turn (no roster card carries more than 10, so no rule
    /// case reaches the second bound).
    #[test]
    fn load_bounds() {
        assert!(load_problem(10, 8, 0, 2).is_none());
        assert!(load_problem(10, 8, 0, 3).is_some());
        assert!(load_problem(20, 0, 12, 3).is_none());
        assert!(load_problem(20, 0, 12, 4).is_some());
    }
}
