//! Random legal orders (the bot, selfplay): a platoon at random (a token now and then);
//! a squad assaults an enemy squad or gun within 16 cm now and then; an assaulted squad still
//! in contact takes its CT; each SLU fires at a spotted enemy when it can, else moves a short step toward the
//! objective or the nearest enemy, else holds. Every candidate is checked by the rules.

use super::orders::{Action, Fire, InBuilding, Move, OppFire, Orders, Place, Unload};
use super::state::{Phase, State};
use super::transport;
use super::turn;
use crate::dice::Dice;
use crate::geo::table::{Heading, Point};

pub fn random_orders(s: &State, seat: &str, ch: &mut Dice) -> Option<Orders> {
    let side = s.side_of(seat)?.to_string();
    if s.pending.is_some() || turn::due_side(s).as_deref() != Some(side.as_str()) {
        return None;
    }
    if s.window.is_some() {
        return Some(opportunity_orders(s, seat, ch));
    }
    match &s.phase {
        Phase::Declare { .. } | Phase::Oppose { .. } => {
            let open = s.open_platoons(&side);
            let token = Orders { token: true, ..Orders::default() };
            if s.tokens.get(&side).copied().unwrap_or(0) > 0 && ch.roll(3) == 0 && turn::run(s, seat, &token).is_ok() {
                return Some(token);
            }
            let p = open.get(ch.roll(open.len().max(1) as u32) as usize)?.clone();
            Some(Orders { platoon: Some(p), ..Orders::default() })
        }
        Phase::Act { queue, free } => {
            let id = if *free { queue.get(ch.roll(queue.len() as u32) as usize)?.clone() } else { queue.first()?.clone() };
            let u = s.unit(&id)?;
            let try_one = |a: Action| -> Option<Orders> {
                let o = Orders { actions: vec![a], ..Orders::default() };
                turn::run(s, seat, &o).ok().map(|_| o)
            };
            // ASL-4: a squad assaulted and still in contact has only its CT.
            if super::assault::as_defender(s, &id).is_some() {
                return try_one(Action { unit: id.clone(), melee: true, ..Action::default() });
            }
            if u.panic {
                return try_one(Action { unit: id.clone(), recover: true, ..Action::default() });
            }
            if let Some(o) = transport_orders(s, &id, ch, &try_one) {
                return Some(o);
            }
            if u.aboard.is_some() {
                return try_one(Action { unit: id, ..Action::default() });
            }
            if let Some(o) = building_orders(s, &id, ch, &try_one) {
                return Some(o);
            }
            let mut enemies: Vec<_> = s.units.iter().filter(|e| e.side != side && e.alive() && e.on_table()).collect();
            enemies.sort_by_key(|e| e.at.distance_sq(u.at));
            let fire_first = ch.roll(2) == 0;
            // An assault on an enemy squad or gun within reach, more often than not (ASL-1).
            if u.is_infantry() && ch.roll(3) != 0 {
                for e in enemies.iter().filter(|e| !e.is_vehicle()).take(2) {
                    if u.footprint().gap_mm(&e.footprint()) > super::assault::REACH_MM {
                        continue;
                    }
                    if let Some(o) = try_one(Action {
                        unit: id.clone(),
                        assault: Some(Fire { target: e.id.clone(), aim: None, relayed_by: None }),
                        ..Action::default()
                    }) {
                        return Some(o);
                    }
                }
                // Otherwise, now and then, close in on the nearest enemy squad or gun at a full
                // Tactical move, so that assaults happen.
                if ch.roll(2) == 0
                    && let Some(e) = enemies.iter().find(|e| !e.is_vehicle())
                    && let Some(h) = Heading::between(u.at, e.at)
                {
                    // Terrain may cap the move (MOV-3): the longest step the rules allow.
                    let most = e.at.distance_mm(u.at) as i32 - 80;
                    for len in [160, 120, 80, 40].into_iter().map(|l: i32| l.min(most)).filter(|&l| l >= 20) {
                        let to = u.at.offset(len, h);
                        if let Some(o) = try_one(Action {
                            unit: id.clone(),
                            movement: Some(Move { path: vec![[to.x, to.y]], heading: Some(h.tenths()), reverse: false }),
                            ..Action::default()
                        }) {
                            return Some(o);
                        }
                    }
                }
            }
            // BLDF: a heavy weapon now and then fires at the building a spotted enemy holds,
            // at its wall or, one time in two, at one of its openings that faces the firer.
            if let Some((bid, _)) = super::building_fire::bot_plan(s, u)
                && ch.roll(2) == 0
            {
                let openings: Vec<String> =
                    s.scenario.building(&bid).map(|b| b.openings.iter().map(|o| o.id.clone()).collect()).unwrap_or_default();
                let mut aims: Vec<Option<String>> = Vec::new();
                if !openings.is_empty() && ch.roll(2) == 0 {
                    let k = ch.roll(openings.len() as u32) as usize;
                    aims.push(openings.get(k).cloned());
                }
                aims.push(None);
                for aim in aims {
                    if let Some(o) = try_one(Action {
                        unit: id.clone(),
                        fire: Some(Fire { target: bid.clone(), aim, relayed_by: None }),
                        ..Action::default()
                    }) {
                        return Some(o);
                    }
                }
            }
            for e in enemies.iter().take(4) {
                if ch.roll(5) == 0 {
                    break;
                }
                let f = Action {
                    unit: id.clone(),
                    fire: Some(Fire { target: e.id.clone(), aim: None, relayed_by: None }),
                    ..Action::default()
                };
                if let Some(o) = try_one(f) {
                    // Now and then a complex action: a short step as well.
                    if ch.roll(3) == 0
                        && let Some(m) = step(s, &id, ch, 2)
                        && let Some(o2) = try_one(Action {
                            unit: id.clone(),
                            movement: Some(m),
                            fire: Some(Fire { target: e.id.clone(), aim: None, relayed_by: None }),
                            fire_first,
                            ..Action::default()
                        })
                    {
                        return Some(o2);
                    }
                    return Some(o);
                }
            }
            // MOV-1: now and then a vehicle backs straight away, at most Cautious, so that
            // selfplay reverses (and opportunity fire meets a reversing target).
            if u.is_vehicle()
                && ch.roll(6) == 0
                && let Some(tac) = u.card().movement.as_ref().and_then(|m| m.first()).and_then(|v| v.as_u64())
            {
                for len in [tac as i32 * 10 / 4, 40, 20] {
                    let to = u.at.offset(len, u.heading.reversed());
                    let back = Move { path: vec![[to.x, to.y]], heading: None, reverse: true };
                    if let Some(o) = try_one(Action { unit: id.clone(), movement: Some(back), ..Action::default() }) {
                        return Some(o);
                    }
                }
            }
            for _ in 0..6 {
                if let Some(m) = step(s, &id, ch, 1)
                    && let Some(o) = try_one(Action { unit: id.clone(), movement: Some(m), ..Action::default() })
                {
                    return Some(o);
                }
            }
            try_one(Action { unit: id, ..Action::default() })
        }
        Phase::Request { .. } => Some(super::indirect::bot_request(s, &side, ch)),
        Phase::Barrage { .. } => Some(Orders { barrage: true, ..Orders::default() }),
        Phase::Over => None,
    }
}

/// EMB: a passenger gets off one time in two; a transport sets all its passengers down one
/// time in three (standing still, behind and beside it); a squad by a friendly transport
/// with room boards it one time in two, and now and then walks toward one, so that the
/// soak boards and unloads.
fn transport_orders(s: &State, id: &str, ch: &mut Dice, try_one: &dyn Fn(Action) -> Option<Orders>) -> Option<Orders> {
    let u = s.unit(id)?;
    if let Some(vid) = &u.aboard {
        if ch.roll(2) != 0 {
            return None;
        }
        let t = s.unit(vid)?;
        return transport::spots_around(t, u, 20).into_iter().find_map(|p| {
            try_one(Action { unit: id.to_string(), dismount: Some(Place { at: [p.x, p.y], heading: None }), ..Action::default() })
        });
    }
    if u.is_vehicle() {
        let riders = s.passengers(id);
        if riders.is_empty() || ch.roll(3) != 0 {
            return None;
        }
        let spots = transport::spots_around(u, riders[0], 20);
        let list: Vec<Unload> =
            riders.iter().zip(spots.iter()).map(|(p, q)| Unload { unit: p.id.clone(), at: [q.x, q.y], heading: None }).collect();
        return try_one(Action { unit: id.to_string(), unload: list, ..Action::default() });
    }
    if !u.is_infantry() || ch.roll(2) != 0 {
        return None;
    }
    let mut transports: Vec<_> = s
        .units
        .iter()
        .filter(|t| t.side == u.side && t.is_vehicle() && t.alive() && t.on_table())
        .filter(|t| transport::carried(s, &t.id) + u.figures <= t.card().capacity)
        .collect();
    transports.sort_by_key(|t| t.at.distance_sq(u.at));
    let t = transports.first()?;
    let mut spots = transport::spots_around(t, u, 20);
    spots.sort_by_key(|p| p.distance_sq(u.at));
    for p in spots {
        let dist = p.distance_mm(u.at);
        let movement = (dist >= 20).then(|| Move { path: vec![[p.x, p.y]], heading: Some(t.heading.tenths()), reverse: false });
        if dist <= 160
            && let Some(o) = try_one(Action { unit: id.to_string(), movement, embark: Some(t.id.clone()), ..Action::default() })
        {
            return Some(o);
        }
    }
    // Too far: now and then walk toward the transport.
    let p = spots.first()?;
    let h = Heading::between(u.at, *p)?;
    let len = (p.distance_mm(u.at) as i32).min(160);
    if ch.roll(2) != 0 || len < 20 {
        return None;
    }
    let to = u.at.offset(len, h);
    try_one(Action {
        unit: id.to_string(),
        movement: Some(Move { path: vec![[to.x, to.y]], heading: Some(h.tenths()), reverse: false }),
        ..Action::default()
    })
}

/// SW-BLDM: a squad near a building's access point walks in one time in two; inside, it
/// changes floor (or is rearranged) one time in four and walks out one time in five, so
/// that the soak enters, climbs and leaves.
fn building_orders(s: &State, id: &str, ch: &mut Dice, try_one: &dyn Fn(Action) -> Option<Orders>) -> Option<Orders> {
    let u = s.unit(id)?;
    if !u.is_infantry() {
        return None;
    }
    let spots = |area: &str| -> Vec<(Point, u16)> {
        let Some(a) = s.scenario.area(area) else { return vec![] };
        let c = a.polygon.centroid();
        let mut out = Vec::new();
        for (dx, dy) in [(0, 0), (0, 18), (0, -18), (10, 15), (-10, -15), (10, -15), (-10, 15)] {
            for h in [0u16, 900] {
                out.push((Point::new(c.x + dx, c.y + dy), h));
            }
        }
        out
    };
    if let Some(cur) = u.inside.clone() {
        let b = s.scenario.building(&cur.building)?;
        let roll = ch.roll(20);
        if roll < 5 {
            let floor = ch.roll(u32::from(b.floors)) as u8;
            let mut places = spots(&b.area);
            let k = ch.roll(places.len().max(1) as u32) as usize;
            places.rotate_left(k);
            return places.into_iter().find_map(|(p, h)| {
                try_one(Action {
                    unit: id.to_string(),
                    building: Some(InBuilding { building: b.area.clone(), floor: Some(floor), at: [p.x, p.y], heading: Some(h) }),
                    ..Action::default()
                })
            });
        }
        if roll < 9 {
            let centre = s.scenario.area(&b.area)?.polygon.centroid();
            return b.openings.iter().filter(|o| o.floor == 0 && o.kind.is_access()).find_map(|o| {
                let door = o.zone.centroid();
                let out = Heading::between(centre, door)?;
                let to = door.offset(70, out);
                try_one(Action {
                    unit: id.to_string(),
                    movement: Some(Move { path: vec![[door.x, door.y], [to.x, to.y]], heading: Some(out.tenths()), reverse: false }),
                    ..Action::default()
                })
            });
        }
        return None;
    }
    // Only a squad within reach of a door rolls, so the bot's other choices (and the games
    // other tests replay) draw the same dice as before buildings were built.
    let near = |o: &super::scenario::Opening| (20..=160).contains(&o.zone.centroid().distance_mm(u.at));
    if !s.scenario.buildings.iter().any(|b| b.openings.iter().any(|o| o.floor == 0 && o.kind.is_access() && near(o))) || ch.roll(2) != 0 {
        return None;
    }
    for b in &s.scenario.buildings {
        for o in b.openings.iter().filter(|o| o.floor == 0 && o.kind.is_access() && near(o)) {
            let door = o.zone.centroid();
            let got = spots(&b.area).into_iter().find_map(|(p, h)| {
                try_one(Action {
                    unit: id.to_string(),
                    movement: Some(Move { path: vec![[door.x, door.y]], heading: None, reverse: false }),
                    building: Some(InBuilding { building: b.area.clone(), floor: None, at: [p.x, p.y], heading: Some(h) }),
                    ..Action::default()
                })
            });
            if got.is_some() {
                return got;
            }
        }
    }
    None
}

/// A straight step toward the objective or the nearest enemy, a random fraction of the
/// allowance (`div` 2 for the Short speed of complex actions).
fn step(s: &State, id: &str, ch: &mut Dice, div: u32) -> Option<Move> {
    let u = s.unit(id)?;
    let goal: Point = if ch.roll(2) == 0 {
        s.scenario.objectives.first().and_then(|o| s.scenario.area(o)).map(|a| a.polygon.centroid())?
    } else {
        s.units.iter().filter(|e| e.side != u.side && e.alive() && e.on_table()).min_by_key(|e| e.at.distance_sq(u.at))?.at
    };
    let want = Heading::between(u.at, goal)?;
    // Vehicles keep within the free 15° or pay one costed turn; a little jitter.
    let jitter = ch.roll(61) as i32 - 30;
    let h = want.turned(jitter);
    let tac = u.card().movement.as_ref()?.first()?.as_u64()? as i32 * 10;
    let len = (tac / div as i32) * (2 + ch.roll(7) as i32) / 10;
    let len = len.max(25) - 45;
    if len < 20 {
        return None;
    }
    let to = u.at.offset(len, h);
    Some(Move { path: vec![[to.x, to.y]], heading: Some(h.tenths()), reverse: false })
}

/// OPP-3: on an announced move, pass one time in three; otherwise each unit that may fire
/// joins with even odds, at a firing point drawn from the second half of what it sees.
/// The rules check the whole set; if it is refused, the first unit that fires alone does.
fn opportunity_orders(s: &State, seat: &str, ch: &mut Dice) -> Orders {
    let pass = Orders { opportunity: Some(vec![]), ..Orders::default() };
    let Some(w) = &s.window else { return pass };
    if ch.roll(3) == 0 {
        return pass;
    }
    let mut fire = Vec::new();
    for sh in &w.shooters {
        let points = sh.firing_points();
        if points.is_empty() || (!fire.is_empty() && ch.roll(2) == 0) {
            continue;
        }
        let Some(&at_mm) = points.get(ch.roll(points.len() as u32) as usize) else { continue };
        fire.push(OppFire { shooter: sh.unit.clone(), at_mm });
    }
    let all = Orders { opportunity: Some(fire.clone()), ..Orders::default() };
    if turn::run(s, seat, &all).is_ok() {
        return all;
    }
    for f in fire {
        let one = Orders { opportunity: Some(vec![f]), ..Orders::default() };
        if turn::run(s, seat, &one).is_ok() {
            return one;
        }
    }
    pass
}
