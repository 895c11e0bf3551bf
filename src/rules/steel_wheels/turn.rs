//! The sequence of play (SW-TURN): tokens (TOK), manoeuvres declared and opposed (MAN,
//! SEQ-1), the IT queue (SEQ-2) or a token's free order (TOK-3), each SLU's one action
//! (SEQ-4, C.4), the end of the turn and the victory count (SW-VIC).

use super::assault;
use super::buildings;
use super::fire;
use super::indirect;
use super::movement::{self, Speed};
use super::opportunity;
use super::orders::{Action, Orders};
use super::state::{Pending, Phase, State};
use super::transport;
use crate::dice::Dice;
use crate::engine::{Event, Outcome, Violation};

/// Begin turn `s.turn`: tokens from the platoon counts (TOK-1/2), the attacker declares
/// first (MAN-2, advance and assault).
pub fn start_turn(s: &mut State) -> Vec<Event> {
    s.manoeuvre = 1;
    s.manoeuvred.clear();
    s.asked.clear();
    s.comm_tests.clear();
    for u in s.units.iter_mut() {
        u.acted = false;
        u.boarded = 0;
        u.unloaded = false;
        u.no_fire = false;
    }
    let (a, b) = (s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone());
    let (na, nb) = (s.live_platoons(&a), s.live_platoons(&b));
    s.tokens.clear();
    s.tokens.insert(a.clone(), nb.saturating_sub(na) as u32);
    s.tokens.insert(b.clone(), na.saturating_sub(nb) as u32);
    let mut ev = vec![Event::rule(
        "SW-TOK-2",
        format!("turn {}: {a} has {na} platoons, {b} {nb}: tokens {a} {}, {b} {}", s.turn, s.tokens[&a], s.tokens[&b]),
    )];
    s.declarer = s.scenario.attacker.clone();
    ev.extend(phase2(s));
    ev
}

/// Phase 2 (IFP): each side with a battery it may ask for fire is asked once, the attacker
/// first; then the manoeuvres begin.
pub fn phase2(s: &mut State) -> Vec<Event> {
    let first = s.scenario.attacker.clone();
    let second = s.scenario.other(&first).to_string();
    for side in [first, second] {
        if !s.asked.contains(&side) && !indirect::can_request(s, &side).is_empty() {
            s.phase = Phase::Request { side };
            return vec![];
        }
    }
    next_manoeuvre(s)
}

/// Open the next manoeuvre (or end the turn when no platoon is left to act, MAN-1).
fn next_manoeuvre(s: &mut State) -> Vec<Event> {
    let d = s.declarer.clone();
    let o = s.scenario.other(&d).to_string();
    if s.open_platoons(&d).is_empty() && s.open_platoons(&o).is_empty() {
        let mut ev = firing_markers(s);
        // MOR-1: NoFire markers come off at the end of the manoeuvre phase.
        for u in s.units.iter_mut().filter(|u| u.no_fire) {
            u.no_fire = false;
            ev.push(Event::rule("SW-MOR-1", format!("{}'s NoFire marker comes off: the manoeuvre phase is over", u.id)));
        }
        ev.extend(end_turn(s));
        return ev;
    }
    if s.open_platoons(&d).is_empty() {
        // AMB-4: nothing to declare is played as a token; the other platoon acts alone.
        s.phase = Phase::Oppose { side: o, declared: None };
        return vec![Event::rule("SW-TOK-4", format!("{d} has no platoon left to declare: the opposing platoon acts alone (AMB-4)"))];
    }
    s.phase = Phase::Declare { side: d };
    vec![]
}

/// The pair is complete: IT rolls (SEQ-2) or a free order (TOK-3).
fn pair(s: &mut State, declared: Option<String>, opposed: Option<String>) -> Vec<Event> {
    let mut ev = Vec::new();
    for p in declared.iter().chain(opposed.iter()) {
        s.manoeuvred.push(p.clone());
    }
    let units_of = |s: &State, p: &str| -> Vec<String> {
        let mut v: Vec<String> = s.units.iter().filter(|u| u.platoon == p && u.alive() && !u.acted).map(|u| u.id.clone()).collect();
        v.sort();
        v
    };
    match (declared, opposed) {
        (Some(a), Some(b)) => {
            let mut units = units_of(s, &a);
            units.extend(units_of(s, &b));
            s.pending = Some(Pending::Initiative { units, declarer: s.declarer.clone() });
            ev.push(Event::rule("SW-SEQ-2", format!("{a} against {b}: every SLU rolls IT")));
        }
        (Some(p), None) | (None, Some(p)) => {
            let q = units_of(s, &p);
            ev.push(Event::rule("SW-TOK-3", format!("{p} acts alone, in any order, without IT")));
            s.phase = Phase::Act { queue: q, free: true };
        }
        (None, None) => ev.extend(after_manoeuvre(s)),
    }
    ev
}

/// Resolve the IT rolls (E.6): D6 + AD + CV, or 1 + AD + CV with no roll once any crew is
/// dead (CREW-1); descending; ties: the first declarer's SLU first, then unit id (SEQ-3's
/// secret markers are not built).
pub fn roll_initiative(s: &mut State, units: &[String], declarer: &str, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut scored = Vec::new();
    for id in units {
        let Some(u) = s.unit(id) else { continue };
        let base = s.ad(&u.side) + u.cv();
        let it = if u.figures < u.crew_size() {
            ev.push(Event::rule("SW-CREW-1", format!("{id} has crew losses: IT {} with no roll", 1 + base)));
            1 + base
        } else {
            let r = dice.roll(6) + 1;
            ev.push(Event::roll(format!("{id} IT"), "d6", r));
            r + base
        };
        scored.push((it, u.side != declarer, id.clone()));
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let queue: Vec<String> = scored.iter().map(|x| x.2.clone()).collect();
    ev.push(Event::rule(
        "SW-SEQ-2",
        format!("IT order: {}", scored.iter().map(|(it, _, id)| format!("{id} {it}")).collect::<Vec<_>>().join(", ")),
    ));
    s.phase = Phase::Act { queue, free: false };
    ev.extend(skip_dead(s));
    ev
}

/// Drop from the queue units that can no longer act; end the manoeuvre when it is empty.
fn skip_dead(s: &mut State) -> Vec<Event> {
    let Phase::Act { queue, free } = s.phase.clone() else { return vec![] };
    let q: Vec<String> = queue.into_iter().filter(|id| s.unit(id).is_some_and(|u| u.alive() && !u.acted)).collect();
    if q.is_empty() {
        return after_manoeuvre(s);
    }
    s.phase = Phase::Act { queue: q, free };
    vec![]
}

/// MAN-2/AMB-3: the declarer alternates every manoeuvre.
fn after_manoeuvre(s: &mut State) -> Vec<Event> {
    s.manoeuvre += 1;
    s.declarer = s.scenario.other(&s.declarer).to_string();
    next_manoeuvre(s)
}

/// ST-1, at the end of the manoeuvre phase: a unit keeps its Firing marker only while some
/// live enemy that is not panicked can spot it (E.23, the marker itself still counting, so the
/// farthest column); when every such spotter was destroyed, panicked or lost sight of it, the
/// marker comes off. Earlier in the phase the marker stays whatever befalls the spotters.
fn firing_markers(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let firing: Vec<String> = s.units.iter().filter(|u| u.fired && u.alive()).map(|u| u.id.clone()).collect();
    for id in firing {
        let Some(u) = s.unit(&id) else { continue };
        let seen = s.units.iter().any(|e| e.side != u.side && e.alive() && !e.panic && super::fire::spots(s, e, e.at, u).is_ok());
        if !seen && let Some(m) = s.unit_mut(&id) {
            m.fired = false;
            ev.push(Event::rule(
                "SW-ST-1",
                format!("{id} loses its Firing marker: no enemy able to spot it is left on its feet (destroyed, panicked or out of sight)"),
            ));
        }
    }
    ev
}

/// The turn whose end brings the end roll (DUR-1).
pub const END_ROLL_AFTER: u32 = 8;

/// Phase 5 and the victory check at the last turn (SW-DUR): the scenario's length, which a
/// battle planned longer than 8 turns has cut by the end roll after turn 8 (DUR-1).
fn end_turn(s: &mut State) -> Vec<Event> {
    // Phase 4 (IF-1): each side with plans due opens them and fires; the losses wait.
    if let Some(side) = indirect::due_side(s) {
        s.phase = Phase::Barrage { side: side.clone() };
        return vec![Event::rule("SW-IF-1", format!("turn {}, phase 4: {side} has fire plans due", s.turn))];
    }
    let mut ev = if s.held.is_empty() { vec![] } else { indirect::apply_held(s) };
    ev.push(Event::rule("SW-TURN-1", format!("turn {} ends: unused tokens are lost (TOK-4)", s.turn)));
    let (a, b) = (s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone());
    let wiped = |side: &str| s.units.iter().filter(|u| u.side == side).all(|u| u.lost());
    if s.turn >= s.final_turn() || wiped(&a) || wiped(&b) {
        ev.extend(end_battle(s));
        return ev;
    }
    if s.turn == END_ROLL_AFTER && s.last_turn.is_none() {
        // The roll waits for the other side's entry, like every roll (G.1).
        s.pending = Some(Pending::EndRoll);
        ev.push(Event::rule(
            "SW-DUR-1",
            format!(
                "turn {END_ROLL_AFTER} is over: each side rolls a D6 and the sum fixes the last turn (2-4: this one, 5-8: 9, 9-12: 10)"
            ),
        ));
        return ev;
    }
    s.turn += 1;
    ev.extend(start_turn(s));
    ev
}

/// The victory count (SW-VIC) and the end of the battle.
fn end_battle(s: &mut State) -> Vec<Event> {
    let o = victory(s);
    let ev = vec![Event::rule("SW-VIC-3", outcome_text(&o))];
    s.outcome = Some(o);
    s.phase = Phase::Over;
    ev
}

/// DUR-1: a D6 per side, in seat order (G.1), summed: 2-4 ends the battle with turn 8, 5-8
/// after turn 9, 9-12 after turn 10; never past the scenario's own length.
fn end_roll(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut sum = 0;
    for side in [s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone()] {
        let r = dice.roll(6) + 1;
        ev.push(Event::roll(format!("{side} end roll"), "d6", r));
        sum += r;
    }
    let rolled = match sum {
        ..=4 => END_ROLL_AFTER,
        5..=8 => END_ROLL_AFTER + 1,
        _ => END_ROLL_AFTER + 2,
    };
    let last = rolled.min(s.scenario.turns);
    s.last_turn = Some(last);
    ev.push(Event::rule("SW-DUR-1", format!("end roll {sum}: the battle ends after turn {last}")));
    if s.turn >= last {
        ev.extend(end_battle(s));
    } else {
        s.turn += 1;
        ev.extend(start_turn(s));
    }
    ev
}

/// The result in words.
pub fn outcome_text(o: &Outcome) -> String {
    match o {
        Outcome::Win { side, reason } => format!("{side} wins: {reason}"),
        Outcome::Draw { reason } => format!("Draw: {reason}"),
    }
}

/// Points lost by `side`: the full cost of its destroyed, dispersed and abandoned units
/// (AMB-17; the E.15/E.16 VP of damaged survivors are not built).
pub fn losses(s: &State, side: &str) -> u32 {
    let ad = s.ad(side) as usize;
    s.units.iter().filter(|u| u.side == side && u.lost()).map(|u| u.card().points.get(ad).copied().unwrap_or(0)).sum()
}

/// Objectives held by `side` (SW-VIC-2): a non-panicked unit of its own within 10 cm of
/// the element, no non-panicked enemy within 20 cm.
pub fn held(s: &State, side: &str) -> usize {
    let near = |who: &str, r: u32, poly: &crate::geo::table::Polygon| {
        s.units.iter().filter(|u| u.side == who && u.alive() && u.on_table() && !u.panic).any(|u| {
            let fp = u.footprint();
            poly.contains_footprint(&fp)
                || fp.corners().iter().any(|c| poly.contains(*c))
                || poly.vertices().iter().any(|p| fp.within_point(*p, r))
                || poly.edges().any(|(p, q)| fp.within_point(p, r) || fp.within_point(q, r) || fp.meets_segment(p, q))
        })
    };
    let other = s.scenario.other(side).to_string();
    s.scenario
        .objectives
        .iter()
        .filter_map(|o| s.scenario.area(o))
        .filter(|a| near(side, 100, &a.polygon) && !near(&other, 200, &a.polygon))
        .count()
}

/// SW-VIC-1..3 (AMB-22: a draw when the loss difference is under 10% of the larger).
pub fn victory(s: &State) -> Outcome {
    let (a, b) = (s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone());
    let (la, lb) = (losses(s, &a), losses(s, &b));
    let destruction = if !s.scenario.victory.destruction || 10 * la.abs_diff(lb) < la.max(lb) || la == lb {
        None
    } else if la < lb {
        Some(a.clone())
    } else {
        Some(b.clone())
    };
    let (ha, hb) = (held(s, &a), held(s, &b));
    let conquest = if !s.scenario.victory.conquest || ha == hb {
        None
    } else if ha > hb {
        Some(a.clone())
    } else {
        Some(b.clone())
    };
    let reason = format!("losses {a} {la} points, {b} {lb}; objectives held {a} {ha}, {b} {hb}");
    let both = s.scenario.victory.destruction && s.scenario.victory.conquest;
    match (destruction, conquest) {
        (Some(x), Some(y)) if x == y => Outcome::Win { side: x, reason: format!("decisive victory: {reason} (SW-VIC-3)") },
        (Some(x), None) | (None, Some(x)) => {
            Outcome::Win { side: x, reason: format!("{} victory: {reason} (SW-VIC-3)", if both { "marginal" } else { "a" }) }
        }
        _ => Outcome::Draw { reason: format!("{reason} (SW-VIC-3)") },
    }
}

/// One SLU's action (C.4, SEQ-4). `Ok(true)` when it left a random action pending.
fn act(s: &mut State, side: &str, a: &Action) -> Result<(Vec<Event>, bool), Vec<Violation>> {
    let Phase::Act { queue, free } = s.phase.clone() else { return Err(vec![Violation::new("SW-SEQ-4", "no SLU is due to act")]) };
    let Some(u) = s.unit(&a.unit).cloned() else { return Err(vec![Violation::new("SW-SEQ-4", format!("there is no unit {}", a.unit))]) };
    if u.side != side {
        return Err(vec![Violation::new("SW-SEQ-4", format!("{} is not yours", a.unit))]);
    }
    let due = if free { queue.contains(&a.unit) } else { queue.first() == Some(&a.unit) };
    if !due {
        let want = if free { format!("one of {}", queue.join(", ")) } else { queue.first().cloned().unwrap_or_default() };
        return Err(vec![
            Violation::new(if free { "SW-TOK-3" } else { "SW-SEQ-2" }, format!("{} is not due to act: {want} is", a.unit))
                .unit(a.unit.clone()),
        ]);
    }
    let mut ev = Vec::new();
    let mut pending = false;
    let melee = assault::as_defender(s, &u.id).cloned();
    if let Some(m) = melee {
        // ASL-4: after a melee the assaulted squad can only take its CT, even if panicked.
        if !a.melee || a.movement.is_some() || a.fire.is_some() || a.recover || a.assault.is_some() || transport_parts(a) {
            return Err(vec![
                Violation::new(
                    "SW-ASL-4",
                    format!("{} was assaulted and is still in contact with {}: its only action is its CT (melee: true)", u.id, m.attacker),
                )
                .unit(u.id.clone()),
            ]);
        }
        ev.push(Event::rule("SW-ASL-4", format!("{} takes its CT after the melee with {}", u.id, m.attacker)));
        s.pending = Some(Pending::Melee { defender: u.id.clone() });
        pending = true;
    } else if a.melee {
        return Err(vec![Violation::new("SW-ASL-4", format!("{} is in no melee as the assaulted squad", u.id)).unit(u.id.clone())]);
    } else if u.panic {
        if a.movement.is_some() || a.fire.is_some() || !a.recover || transport_parts(a) {
            return Err(vec![
                Violation::new("SW-PAN-1", format!("{} is panicked: recovery is its only action (recover: true)", u.id)).unit(u.id.clone()),
            ]);
        }
        s.pending = Some(Pending::Recovery { unit: u.id.clone() });
        pending = true;
    } else if a.recover {
        return Err(vec![Violation::new("SW-PAN-2", format!("{} is not panicked", u.id)).unit(u.id.clone())]);
    } else if u.aboard.is_some() {
        // EMB-3: a passenger has no place on the table; it holds, or gets off by itself.
        let alone = a.movement.is_none()
            && a.fire.is_none()
            && !a.fire_first
            && a.assault.is_none()
            && a.embark.is_none()
            && a.unload.is_empty()
            && a.building.is_none();
        if !alone {
            return Err(vec![
                Violation::new(
                    "SW-EMB-3",
                    format!(
                        "{} rides in {}: it holds (no orders) or gets off (dismount: {{at: [x, y]}}), nothing else",
                        u.id,
                        u.aboard.clone().unwrap_or_default()
                    ),
                )
                .unit(u.id.clone()),
            ]);
        }
        match &a.dismount {
            Some(place) => ev.extend(transport::dismount(s, &u, place)?),
            None => ev.push(Event::rule("SW-ACT", format!("{} holds aboard {}", u.id, u.aboard.clone().unwrap_or_default()))),
        }
    } else if a.dismount.is_some() {
        return Err(vec![Violation::new("SW-EMB-4", format!("{} is not aboard a vehicle", u.id)).unit(u.id.clone())]);
    } else if let Some(vid) = &a.embark {
        if let Some(i) = &u.inside {
            return Err(vec![
                Violation::new("SW-BLDM-5", format!("{} is in {}: it leaves the building before it boards {vid}", u.id, i.building))
                    .unit(u.id.clone()),
            ]);
        }
        if a.fire.is_some() || a.fire_first || a.assault.is_some() || !a.unload.is_empty() || a.building.is_some() {
            return Err(vec![
                Violation::new("SW-EMB-2", format!("{} boards {vid}: boarding is a Move alone, and the squad does not fire", u.id))
                    .unit(u.id.clone()),
            ]);
        }
        let moved = match &a.movement {
            Some(m) => Some(movement::check(s, &u, m, Speed::Tactical)?),
            None => None,
        };
        let fp = match &moved {
            Some(mv) => super::scenario::footprint(u.card(), mv.to, mv.heading),
            None => u.footprint(),
        };
        transport::check_board(s, &u, vid, &fp)?;
        // OPP-2: boarding is the simple Move action, open to opportunity fire.
        let announce = match (&moved, &a.movement) {
            (Some(mv), Some(m)) => {
                let pts: Vec<_> = std::iter::once(u.at).chain(m.path.iter().filter_map(|&xy| super::scenario::point(xy))).collect();
                crate::geo::table::Path::new(pts).ok().and_then(|path| opportunity::window(s, &u, &path, mv))
            }
            _ => None,
        };
        if let Some(mut win) = announce {
            win.embark = Some(vid.clone());
            ev.push(announced(&u.id, &win, &format!(" to board {vid}")));
            s.window = Some(win);
            pending = true;
        } else {
            if let (Some(mv), Some(m)) = (&moved, s.unit_mut(&u.id)) {
                m.at = mv.to;
                m.heading = mv.heading;
                ev.push(Event::rule(
                    "SW-MOV-1",
                    format!("{} moves {} mm to ({}, {}) heading {}", u.id, mv.length_mm, mv.to.x, mv.to.y, mv.heading.tenths()),
                ));
            }
            ev.extend(transport::board(s, &u.id, vid));
        }
    } else if let Some(target) = &a.assault {
        // ASL-2 (buildings in an assault) is not built: no assault goes into or out of one.
        let held = [Some(&u), s.unit(&target.target)].into_iter().flatten().find_map(|x| x.inside.as_ref().map(|i| (x.id.clone(), i)));
        if let Some((who, i)) = held {
            return Err(vec![
                Violation::new(
                    "SW-ASL-2",
                    format!("{who} is in {}: assaults into or out of buildings (ASL-2) are not built; fire at it instead", i.building),
                )
                .unit(u.id.clone()),
            ]);
        }
        if a.movement.is_some() || a.fire.is_some() || a.fire_first || !a.unload.is_empty() || a.building.is_some() {
            return Err(vec![
                Violation::new(
                    "SW-ASL-0",
                    "an assault is one action, fire then move into contact (never the reverse): give it no move, fire or fire_first",
                )
                .unit(u.id.clone()),
            ]);
        }
        if target.aim.is_some() {
            return Err(vec![
                Violation::new("SW-ASL-0", "an assault goes at a unit: it takes no aim (an aim is for fire at a building, BLDF)")
                    .unit(u.id.clone()),
            ]);
        }
        if target.relayed_by.is_some() {
            return Err(vec![
                Violation::new(
                    "SW-OBS-4",
                    "a DFR relay serves a Fire action: an assault goes at a unit its squad spots itself (relayed assaults are not built)",
                )
                .unit(u.id.clone()),
            ]);
        }
        let p = assault::plan(s, &u, &target.target)?;
        let m = s.unit_mut(&u.id).expect("exists");
        // C.4: Moving + Firing once in contact; until the dice, it has fired and not moved.
        m.fired = true;
        m.moving = false;
        ev.push(Event::rule(
            "SW-ASL-0",
            format!("{} fires at {} with its Moving shots and assaults it (contact at {} mm if its CT passes)", u.id, p.target, p.moved_mm),
        ));
        s.pending = Some(Pending::Assault(p));
        pending = true;
    } else {
        let complex = (a.movement.is_some() || a.building.is_some()) && a.fire.is_some();
        // ACT-2: no complex actions after losing half the crew.
        if complex && 2 * (u.crew_size() - u.figures) >= u.crew_size() {
            return Err(vec![
                Violation::new("SW-ACT-2", format!("{} has lost half its crew: no complex actions", u.id)).unit(u.id.clone()),
            ]);
        }
        if !a.unload.is_empty() && !u.is_vehicle() {
            return Err(vec![Violation::new("SW-EMB-4", format!("{} is no transport: it has nobody to unload", u.id)).unit(u.id.clone())]);
        }
        // EMB-2: a transport that took men aboard this turn stands still.
        if a.movement.is_some() && u.boarded > 0 {
            return Err(vec![
                Violation::new(
                    "SW-EMB-2",
                    format!("{} took men aboard this turn: it stands still in that manoeuvre (it may fire, Stationary)", u.id),
                )
                .unit(u.id.clone()),
            ]);
        }
        // EMB-4 rule 1: a transport moving in the manoeuvre it unloads moves Short.
        let unloading = !a.unload.is_empty() || u.unloaded;
        let speed = if complex || (unloading && u.is_vehicle()) { Speed::Short } else { Speed::Tactical };
        // SW-BLDM: a move into, within or out of a building.
        let via = match buildings::check(s, &u, a.movement.as_ref(), a.building.as_ref(), speed) {
            Some(r) => Some(r?),
            None => None,
        };
        let moved = match (&via, &a.movement) {
            (Some(vi), _) => Some(movement::Moved {
                to: vi.to,
                heading: vi.heading,
                length_mm: vi.walk.as_ref().map(|(_, mv)| mv.length_mm).unwrap_or(0),
                reverse: false,
            }),
            (None, Some(m)) => Some(movement::check(s, &u, m, speed)?),
            (None, None) => None,
        };
        let fire_at = match (&moved, a.fire_first) {
            (Some(m), false) => m.to,
            _ => u.at,
        };
        let plan = match &a.fire {
            Some(f) => {
                // Fire from where the unit stands when it fires; its status is Moving in a
                // complex action (EFF-1).
                let mut w = s.clone();
                if let (Some(m), false) = (&moved, a.fire_first)
                    && let Some(x) = w.unit_mut(&u.id)
                {
                    x.at = m.to;
                    x.heading = m.heading;
                    if let Some(vi) = &via {
                        x.inside = vi.inside.clone();
                    }
                }
                let firer = w.unit(&u.id).cloned().unwrap_or(u.clone());
                Some(fire::plan_order(&w, &firer, fire_at, complex, f)?)
            }
            None => None,
        };
        // OPP-1/2: a simple Move that some enemy unit may fire on is announced, not made;
        // the entry ends and the enemy fires or passes (G.1 "Move and opportunity fire").
        let announce = match (&plan, &moved, &a.movement) {
            (None, Some(mv), Some(m)) if a.unload.is_empty() => match &via {
                Some(vi) => vi.walk.as_ref().and_then(|(path, _)| opportunity::window(s, &u, path, mv)).map(|mut w| {
                    w.enter = vi.inside.clone();
                    w
                }),
                None => {
                    let pts: Vec<_> = std::iter::once(u.at).chain(m.path.iter().filter_map(|&xy| super::scenario::point(xy))).collect();
                    crate::geo::table::Path::new(pts).ok().and_then(|path| opportunity::window(s, &u, &path, mv))
                }
            },
            _ => None,
        };
        if let Some(win) = announce {
            ev.push(announced(&u.id, &win, ""));
            s.window = Some(win);
            // The entry ends here; the move is made when the window closes
            // (opportunity::complete on a pass, opportunity::resolve after the fire).
            pending = true;
        } else {
            let m = s.unit_mut(&u.id).expect("exists");
            // ST-1: status from this action (infantry moving ≤ 4 cm stays Stationary).
            m.moving = match &moved {
                Some(mv) => m.card().kind == "vehicle" || mv.length_mm > 40,
                None => false,
            };
            m.reversing = m.moving && moved.as_ref().is_some_and(|mv| mv.reverse);
            m.fired = plan.is_some();
            if let Some(mv) = &moved {
                m.at = mv.to;
                m.heading = mv.heading;
                match &via {
                    Some(vi) => {
                        m.inside = vi.inside.clone();
                        ev.push(buildings::moved_event(&u, vi, mv.length_mm));
                    }
                    None => ev.push(mv.event(&u.id)),
                }
            }
            if !a.unload.is_empty() {
                let start = moved.as_ref().map(|_| u.footprint());
                ev.extend(transport::unload(s, &u, &a.unload, start.as_ref())?);
            }
            if let Some(p) = plan {
                if let Some(sender) = &p.relay {
                    // IFP-1: the sender's one communication test of the turn, passed or not.
                    s.comm_tests.push(sender.clone());
                    ev.push(Event::rule(
                        "SW-OBS-4",
                        format!("{sender} passes {} to {} (its DFR test opens the fire's dice, SW-TEST-DFR)", p.target, u.id),
                    ));
                }
                ev.push(Event::rule(
                    "SW-FIRE-1",
                    format!(
                        "{} fires at {}: {}{}",
                        u.id,
                        p.target,
                        p.heavy.iter().map(|h| format!("{} ×{} ({:?})", h.weapon, h.shots, h.band)).collect::<Vec<_>>().join(", "),
                        p.light.iter().map(|g| format!(" light {} shots ({:?})", g.shots, g.band)).collect::<String>()
                    ),
                ));
                s.pending = Some(Pending::Fire(p));
                pending = true;
            } else if moved.is_none() && a.unload.is_empty() {
                ev.push(Event::rule("SW-ACT", format!("{} holds", u.id)));
            }
        }
    }
    if let Some(m) = s.unit_mut(&u.id) {
        m.acted = true;
    }
    if let Phase::Act { queue, free } = &mut s.phase {
        queue.retain(|x| x != &u.id);
        let _ = free;
    }
    // A squad that walked away from a melee ends it.
    assault::prune(s);
    if !pending {
        ev.extend(skip_dead(s));
    }
    Ok((ev, pending))
}

/// Whether an action names any part of boarding or getting off (EMB), or a place in a
/// building (BLDM): none of them is open to a passenger, a panicked or an assaulted squad.
fn transport_parts(a: &Action) -> bool {
    a.embark.is_some() || a.dismount.is_some() || !a.unload.is_empty() || a.building.is_some()
}

/// After dice: PAN-2..4 recovery, one CT per leader alive; all failing disperses foot units
/// and crews (a vehicle's retreat is not built: it stays panicked).
pub fn recover(s: &mut State, id: &str, dice: &mut Dice) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    let tests = u.leaders.max(1);
    let ad = s.ad(&u.side);
    let mut ev = Vec::new();
    let mut ok = false;
    for i in 0..tests {
        let a = dice.roll(6) + 1;
        let b = dice.roll(8) + 1;
        ev.push(Event::roll(format!("{id} recovery CT {}: D6", i + 1), "d6", a));
        ev.push(Event::roll(format!("{id} recovery CT {}: D8", i + 1), "d8", b));
        if a + ad + u.cv() >= b {
            ok = true;
        }
    }
    let m = s.unit_mut(id).expect("exists");
    if ok {
        m.panic = false;
        ev.push(Event::rule("SW-PAN-3", format!("{id} recovers")));
    } else if !m.is_vehicle() {
        m.eliminated = true;
        ev.push(Event::rule("SW-PAN-4", format!("{id} fails every test and disperses")));
    } else {
        ev.push(Event::rule("SW-PAN-4", format!("{id} fails every test and stays panicked (the retreat is not built)")));
    }
    ev
}

/// Resolve the pending roll. A roll that ends turn 8 is followed by the end roll, on the
/// same entry's dice (the rules' next step, not a new decision: DUR-1).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = resolve_one(s, dice);
    if s.pending == Some(Pending::EndRoll) {
        s.pending = None;
        ev.extend(end_roll(s, dice));
    }
    ev
}

fn resolve_one(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(p) = s.pending.take() else { return vec![] };
    let was = movement::mobilities(s);
    let boom = super::fragments::exploded(s);
    let mut ev = match p {
        Pending::EndRoll => return end_roll(s, dice),
        Pending::Initiative { units, declarer } => return roll_initiative(s, &units, &declarer, dice),
        Pending::Fire(plan) => fire::resolve(s, &plan, dice),
        Pending::Recovery { unit } => recover(s, &unit, dice),
        Pending::Assault(plan) => assault::resolve(s, &plan, dice),
        Pending::Melee { defender } => assault::resolve_melee(s, &defender, dice),
        Pending::Opportunity(v) => opportunity::resolve(s, &v, dice),
        Pending::Ifr { plan } => {
            let mut ev = indirect::resolve_ifr(s, &plan, dice);
            ev.extend(phase2(s));
            return ev;
        }
        Pending::Barrage { side } => {
            let mut ev = indirect::resolve_barrage(s, &side, dice);
            // IF-1: the last barrage of the phase applies every held loss; DAM-5 then runs
            // on the vehicles those losses immobilised, on this entry's dice (end_turn
            // finds nothing left to apply).
            if indirect::due_side(s).is_none() && !s.held.is_empty() {
                ev.extend(indirect::apply_held(s));
                ev.extend(super::fragments::explosions(s, &boom, dice));
                ev.extend(movement::run_on_all(s, &was, dice));
            }
            ev.extend(end_turn(s));
            return ev;
        }
    };
    // SPL-1: once the action's dice are spent, what it made explode throws its fragments;
    // DAM-5: then the vehicles immobilised while Moving run on.
    ev.extend(super::fragments::explosions(s, &boom, dice));
    ev.extend(movement::run_on_all(s, &was, dice));
    assault::prune(s);
    // A side wiped out ends the battle at once.
    let (a, b) = (s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone());
    if s.units.iter().filter(|u| u.side == a).all(|u| u.lost()) || s.units.iter().filter(|u| u.side == b).all(|u| u.lost()) {
        let o = victory(s);
        ev.push(Event::rule("SW-VIC-3", format!("a side has nothing left on the table: {}", outcome_text(&o))));
        s.outcome = Some(o);
        s.phase = Phase::Over;
        return ev;
    }
    ev.extend(skip_dead(s));
    ev
}

/// Check and apply a whole entry on a copy.
pub fn run(s: &State, seat: &str, o: &Orders) -> Result<(State, Vec<Event>), Vec<Violation>> {
    let Some(side) = s.side_of(seat).map(str::to_string) else {
        return Err(vec![Violation::new("SW-TURN-1", format!("{seat} is not a seat of this battle"))]);
    };
    if s.pending.is_some() {
        return Err(vec![Violation::new("SW-PBEM-1", "a roll is pending")]);
    }
    let requesting = matches!(&s.phase, Phase::Request { side: d } if *d == side) && o.indirect.is_some();
    if !s.fresh.is_empty() && !requesting {
        let ids: Vec<&str> = s.fresh.iter().map(|(id, _)| id.as_str()).collect();
        return Err(vec![Violation::new(
            "SW-PBEM-2",
            format!("this entry commits to {}: only a request for indirect fire commits, to its real marker", ids.join(", ")),
        )]);
    }
    let mut w = s.clone();
    w.fresh.clear();
    let mut ev = Vec::new();
    if let Some(win) = &s.window {
        // OPP-3: the enemy of the mover fires on the announced move or passes, and nothing else.
        let Some(fire) = &o.opportunity else {
            return Err(vec![Violation::new(
                "SW-OPP-3",
                format!(
                    "{} announced a move: {} fires on it (opportunity: [{{shooter, at_mm}}]) or passes (opportunity: [])",
                    win.mover, win.side
                ),
            )]);
        };
        if o.platoon.is_some() || o.token || !o.actions.is_empty() || o.indirect.is_some() || o.barrage {
            return Err(vec![Violation::new(
                "SW-OPP-3",
                "opportunity fire is declared alone: no platoon, token, action or indirect fire with it",
            )]);
        }
        if fire.is_empty() {
            if win.side != side {
                return Err(vec![Violation::new("SW-OPP-3", format!("only {} may fire on {}'s move or pass", win.side, win.mover))]);
            }
            ev.push(Event::rule("SW-OPP-3", format!("{side} passes: no opportunity fire on {}", win.mover)));
            ev.extend(opportunity::complete(&mut w, win));
            w.window = None;
            // A squad that walked away from a melee ends it.
            assault::prune(&mut w);
            ev.extend(skip_dead(&mut w));
            return Ok((w, ev));
        }
        let vol = opportunity::declare(s, &side, fire)?;
        for shot in &vol.shots {
            if let Some(u) = w.unit_mut(&shot.plan.firer) {
                // OPP-5: Stationary and Firing at once; this replaces its manoeuvre.
                u.moving = false;
                u.reversing = false;
                u.fired = true;
                u.acted = true;
            }
            ev.push(Event::rule(
                "SW-OPP-5",
                format!(
                    "{} fires on {} at {} mm of its path ({} shots, the target moving): {}{}",
                    shot.plan.firer,
                    vol.window.mover,
                    shot.sample.at_mm,
                    if vol.window.shooters.iter().any(|x| x.unit == shot.plan.firer && x.whole) { "Stationary" } else { "Moving" },
                    shot.plan.heavy.iter().map(|h| format!("{} ×{} ({:?})", h.weapon, h.shots, h.band)).collect::<Vec<_>>().join(", "),
                    shot.plan.light.iter().map(|g| format!(" light {} shots ({:?})", g.shots, g.band)).collect::<String>()
                ),
            ));
        }
        w.window = None;
        w.pending = Some(Pending::Opportunity(vol));
        return Ok((w, ev));
    }
    if o.opportunity.is_some() {
        return Err(vec![Violation::new(
            "SW-OPP-3",
            "no move is open to opportunity fire now: opportunity fire answers an announced simple Move",
        )]);
    }
    if !matches!(s.phase, Phase::Request { .. } | Phase::Barrage { .. }) && (o.indirect.is_some() || o.barrage) {
        return Err(vec![Violation::new("SW-IFP-1", "indirect fire is requested in phase 2 and fired in phase 4 only")]);
    }
    match s.phase.clone() {
        Phase::Request { side: due } if due == side => {
            let (e, pending) = indirect::request(&mut w, &side, o, &s.fresh)?;
            ev.extend(e);
            if !pending {
                ev.extend(phase2(&mut w));
            }
            Ok((w, ev))
        }
        Phase::Barrage { side: due } if due == side => {
            let (e, pending) = indirect::barrage(&mut w, &side, o)?;
            ev.extend(e);
            if !pending {
                ev.extend(end_turn(&mut w));
            }
            Ok((w, ev))
        }
        Phase::Declare { side: due } | Phase::Oppose { side: due, .. } if due == side => {
            if !o.actions.is_empty() {
                return Err(vec![Violation::new("SW-SEQ-1", "declare a platoon or play a token first; units act after")]);
            }
            let open = s.open_platoons(&side);
            let other = s.scenario.other(&side).to_string();
            let choice = match (&o.platoon, o.token) {
                (Some(_), true) | (None, false) => {
                    return Err(vec![Violation::new("SW-SEQ-1", format!("name one platoon ({}) or play a token", open.join(", ")))]);
                }
                (Some(p), false) => {
                    if !open.contains(p) {
                        return Err(vec![Violation::new(
                            "SW-MAN-3",
                            format!("{p} is not a platoon of yours still to manoeuvre ({})", open.join(", ")),
                        )]);
                    }
                    Some(p.clone())
                }
                (None, true) => {
                    if s.tokens.get(&side).copied().unwrap_or(0) == 0 {
                        return Err(vec![Violation::new("SW-TOK-4", "you have no token left: commit a platoon")]);
                    }
                    let declared_token = matches!(&s.phase, Phase::Oppose { declared: None, .. });
                    if declared_token || (matches!(s.phase, Phase::Declare { .. }) && s.open_platoons(&other).is_empty()) {
                        return Err(vec![Violation::new("SW-TOK-3", "a token answers an enemy platoon; there is none to answer")]);
                    }
                    *w.tokens.entry(side.clone()).or_insert(1) -= 1;
                    None
                }
            };
            ev.push(Event::rule(
                "SW-SEQ-1",
                match &choice {
                    Some(p) => format!("{side} commits {p}"),
                    None => format!("{side} plays a token"),
                },
            ));
            match s.phase.clone() {
                Phase::Declare { .. } => {
                    if w.open_platoons(&other).is_empty() {
                        ev.push(Event::rule("SW-TOK-4", format!("{other} has no platoon left to oppose with (AMB-4)")));
                        ev.extend(pair(&mut w, choice, None));
                    } else {
                        w.phase = Phase::Oppose { side: other, declared: choice };
                    }
                }
                Phase::Oppose { declared, .. } => ev.extend(pair(&mut w, declared, choice)),
                _ => {}
            }
            Ok((w, ev))
        }
        Phase::Act { .. } => {
            if o.platoon.is_some() || o.token || o.actions.is_empty() {
                return Err(vec![Violation::new("SW-SEQ-4", "give the action of the SLU due to act")]);
            }
            for (i, a) in o.actions.iter().enumerate() {
                if w.pending.is_some() {
                    return Err(vec![Violation::new(
                        "SW-PBEM-1",
                        format!("action {} follows a random action: an entry ends at its first roll (G.1)", i + 1),
                    )]);
                }
                if let Some(win) = &w.window {
                    return Err(vec![Violation::new(
                        "SW-OPP-3",
                        format!(
                            "action {} follows {}'s move, which {} may fire on: the entry ends there (G.1)",
                            i + 1,
                            win.mover,
                            win.side
                        ),
                    )]);
                }
                if w.outcome.is_some() || matches!(w.phase, Phase::Declare { .. } | Phase::Oppose { .. } | Phase::Over) {
                    return Err(vec![Violation::new("SW-SEQ-7", format!("action {}: the manoeuvre is over", i + 1))]);
                }
                let (e, _) = act(&mut w, &side, a)?;
                ev.extend(e);
            }
            Ok((w, ev))
        }
        Phase::Over => Err(vec![Violation::new("SW-VIC-3", "the battle is over")]),
        _ => Err(vec![Violation::new("SW-SEQ-1", format!("it is not {side}'s turn to send orders"))]),
    }
}

/// Who must act now: the side due, or the owner of the SLU at the head of the queue.
pub fn due_side(s: &State) -> Option<String> {
    if let Some(w) = &s.window {
        return Some(w.side.clone());
    }
    match &s.phase {
        Phase::Declare { side } | Phase::Oppose { side, .. } | Phase::Request { side } | Phase::Barrage { side } => Some(side.clone()),
        Phase::Act { queue, .. } => queue.first().and_then(|id| s.unit(id)).map(|u| u.side.clone()),
        Phase::Over => None,
    }
}

/// The event of a move announced to the enemy's opportunity fire (SW-OPP-3); `purpose` is
/// added after where the move ends (a boarding names its transport).
fn announced(unit: &str, win: &super::opportunity::Window, purpose: &str) -> Event {
    Event::rule(
        "SW-OPP-3",
        format!(
            "{unit} announces a move of {} mm to ({}, {}){purpose}: {} may fire on it ({})",
            win.length_mm,
            win.to.x,
            win.to.y,
            win.side,
            win.shooters.iter().map(|x| x.unit.as_str()).collect::<Vec<_>>().join(", ")
        ),
    )
}
