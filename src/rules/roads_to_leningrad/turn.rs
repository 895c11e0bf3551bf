//! The sequence of play (RTL-4.21): the Strategic Segment (weather, initiative and the cups,
//! RTL-5.1, 7.1), the Operational Segment's alternating operations sequences driven by the
//! activation markers drawn from the cups (RTL-7.2), and the Reorganization Segment
//! (disruption removal 3.75, victory determination, the turn marker).
//!
//! By mail: the roller's (German) entry opens each turn with the weather and initiative
//! rolls as a leading roll (DESIGN §2.5); the Second Player's entry commits his cup
//! (`cup`); then every OS entry opens with the cup draw as a leading roll of the drawing
//! seat, so the draw costs no round trip. An OS with attacks ends its entry; the other
//! side's next entry rolls them and opens that side's own OS.

use super::combat;
use super::movement::{self, in_ezoc};
use super::orders::{Action, Orders, Play};
use super::state::{Active, Marker, Os, Phase, State, Weather};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

/// The AMs a side may use this turn: its formations whose AM is in play (S3.23) and that
/// still have a unit on the map (RTL-4.38).
pub fn available(s: &State, side: &str) -> Vec<String> {
    markers(s, side, true)
}

/// The AMs of a side's formations in play this turn; with `on_map`, only those with a unit
/// on the map. A cupped AM whose formation is wiped out later in the turn is still played
/// (RTL-7.24: it picks a sequence and does nothing).
pub fn markers(s: &State, side: &str, on_map: bool) -> Vec<String> {
    let idx = |t: &str| s.scenario.raw.turns.iter().position(|x| x == t).map(|i| i as u16 + 1).unwrap_or(0);
    let mut out: Vec<String> = s
        .scenario
        .raw
        .formations
        .iter()
        .filter(|f| f.side == side)
        .filter(|f| f.from.as_deref().is_none_or(|t| idx(t) <= s.turn))
        .filter(|f| !on_map || s.units.iter().any(|u| u.formation == f.id && u.hex.is_some()))
        .flat_map(|f| s.scenario.ams_of(f))
        .collect();
    out.sort();
    out
}

/// Begin turn `s.turn`: the Supply Determination Phase (skipped on the first turn, digest
/// G.5 29), then the strategic rolls are due.
pub fn start_turn(s: &mut State) -> Vec<Event> {
    let mut ev = vec![Event::rule("RTL-4.21", format!("turn {} begins", s.turn_name()))];
    if s.turn > 1 {
        ev.extend(super::supply::determine(s));
    }
    for u in s.units.iter_mut() {
        u.activations = 0;
    }
    s.played.clear();
    s.refused.clear();
    s.phase = Phase::Strategic;
    ev
}

/// The strategic leading roll: the disruption checks the last Reorganization Phase left
/// (3.75b, units in EZOC), the weather (5.11) and the initiative (7.11–7.13); then the
/// Second Player fills his cup.
pub fn strategic(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let ids: Vec<String> = s.units.iter().filter(|u| u.disrupted && u.hex.is_some()).map(|u| u.id.clone()).collect();
    for id in ids {
        let Some(u) = s.unit(&id) else { continue };
        let er = s.er(u);
        let cp = super::command::reorganization_drm(s, &id, &mut ev);
        let r = combat::d10(dice);
        ev.push(Event::roll(
            format!("RTL-3.75: {id} tries to shed its Disrupted marker (ER {er}{})", super::army::drm_words(cp)),
            "d10",
            r,
        ));
        if r as i32 + cp <= er as i32
            && let Some(x) = s.unit_mut(&id)
        {
            x.disrupted = false;
        }
    }
    // 15.34b: after the disruption checks, every HQ shows its CPs again.
    ev.extend(super::command::flip_back(s));
    let name = s.turn_name();
    let st = s.scenario.raw.strategic.clone();
    s.weather = match st.weather.get(&name) {
        Some(w) => {
            ev.push(Event::rule("S3.21", format!("the weather of {name} is fixed: {w:?}")));
            *w
        }
        None => {
            let r = combat::d10(dice);
            let w = if r <= st.dry_max {
                Weather::Dry
            } else if r <= st.cloudy_max {
                Weather::Cloudy
            } else {
                Weather::Rain
            };
            ev.push(Event::roll(format!("RTL-5.11: weather of {name} (representative table: {w:?})"), "d10", r));
            w
        }
    };
    // The Air Readiness Phase (A4) comes after the weather it reads (13.12 reading).
    ev.extend(super::air::readiness(s));
    match st.initiative.get(&name) {
        Some(side) => {
            s.first = side.clone();
            ev.push(Event::rule("S3.21", format!("the {side} player has the initiative in {name}")));
        }
        None => {
            let mut rolls = Vec::new();
            for side in &st.initiative_order {
                let other = s.scenario.other(side);
                let drm = i32::from(s.last_passes.get(&other).copied().unwrap_or(0));
                let r = combat::d10(dice);
                ev.push(Event::roll(format!("RTL-7.11: {side} initiative (DRM {drm:+})"), "d10", r));
                rolls.push((side.clone(), r as i32 + drm));
            }
            if rolls[0].1 != rolls[1].1 {
                s.first = if rolls[0].1 > rolls[1].1 { rolls[0].0.clone() } else { rolls[1].0.clone() };
            }
            ev.push(Event::rule("RTL-7.12", format!("the {} player is First Player (a tie keeps last turn's)", s.first)));
        }
    }
    let first = s.first.clone();
    let mine: Vec<Marker> = available(s, &first).into_iter().map(|am| Marker { slot: None, am: Some(am), open: true }).collect();
    ev.push(Event::rule("RTL-7.14", format!("the {first} player puts all his {} AMs in his cup: {}", mine.len(), names(&mine))));
    s.cups.insert(first.clone(), mine);
    let second = s.scenario.other(&first);
    s.cups.insert(second.clone(), vec![]);
    if available(s, &second).is_empty() {
        ev.push(Event::rule("RTL-7.14", format!("the {second} player has no AM this turn")));
        ev.extend(first_os(s));
    } else {
        s.phase = Phase::Cup { side: second };
    }
    ev
}

fn names(m: &[Marker]) -> String {
    m.iter().map(|x| x.public_name()).collect::<Vec<_>>().join(", ")
}

/// The most AMs the Second Player may cup: N + 1 (7.14), N the First Player's.
pub fn cup_limit(s: &State, second: &str) -> usize {
    (s.cups.get(&s.first).map(Vec::len).unwrap_or(0) + 1).min(available(s, second).len())
}

fn first_os(s: &mut State) -> Vec<Event> {
    s.choose_first = s.turn == 1;
    s.phase = Phase::Os { side: s.first.clone() };
    vec![]
}

/// Whether a side still has an AM to play this turn.
pub fn has_ams(s: &State, side: &str) -> bool {
    s.cups.get(side).is_some_and(|c| !c.is_empty()) || s.pool.contains_key(side)
}

/// Whether the next entry of the side in OS opens with a draw.
pub fn draw_due(s: &State) -> Option<String> {
    match &s.phase {
        Phase::Os { side } if !s.choose_first && s.drawn.is_none() && s.active.is_none() && s.attacks.is_empty() => {
            s.cups.get(side).is_some_and(|c| !c.is_empty()).then(|| side.clone())
        }
        _ => None,
    }
}

/// The cup draw (RTL-4.35, 7.21): one die over the markers left, read against the cup's
/// canonical order.
pub fn draw(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(side) = draw_due(s) else { return vec![] };
    let Some(cup) = s.cups.get_mut(&side) else { return vec![] };
    let n = cup.len();
    let i = (dice.roll(n as u32) as usize).min(n - 1);
    let m = cup.remove(i);
    let ev = vec![
        Event::roll(format!("RTL-4.35: {side} cup draw among {n} markers (position from 0)"), format!("d{n}"), i as u32),
        Event::rule("RTL-4.35", format!("the {side} player draws {}", m.public_name())),
    ];
    s.drawn = Some(m);
    ev
}

/// The formation of an opened marker.
pub fn formation_of(s: &State, m: &Marker) -> Option<String> {
    let am = m.am.as_ref()?;
    s.scenario.am_formation(am).map(|f| f.id.clone())
}

/// Army units activated with a formation (RTL-7.42–7.44): those within 4 hexes of one of its
/// HQs, under their activation limit (red box twice a turn, others once).
pub fn army_for(s: &State, side: &str, formation: &str) -> Vec<String> {
    let hqs: Vec<_> = s
        .units
        .iter()
        .filter(|u| u.formation == formation && s.data(&u.id).is_some_and(|d| d.kind == super::scenario::Kind::Headquarters))
        .filter_map(|u| u.hex)
        .collect();
    s.units
        .iter()
        .filter(|u| u.side == side && u.formation == "army")
        .filter(|u| {
            let limit = if s.data(&u.id).is_some_and(|d| d.red_box()) { 2 } else { 1 };
            u.activations < limit && u.hex.is_some_and(|h| hqs.iter().any(|q| q.distance(h) <= 4))
        })
        .map(|u| u.id.clone())
        .collect()
}

/// Start the OS: which marker, which sequence (RTL-7.15, 7.21, 7.22, 7.31).
pub fn begin_os(s: &mut State, side: &str, o: &Orders) -> Result<Vec<Event>, Vec<Violation>> {
    let err = |rule: &str, msg: String| Err(vec![Violation::new(rule, msg)]);
    let Some(os) = o.os else { return err("RTL-7.21", "choose the sequence: os: mobile, assault or pass".into()) };
    if o.play == Some(Play::Combine) {
        return super::combine::declare(s, side, o, os);
    }
    if o.face_up.is_some() {
        return err("RTL-7.33", "face_up names the AM turned up in a combination: write it with play: combine".into());
    }
    let mut ev = Vec::new();
    let pooled_before = s.pool.contains_key(side);
    let marker = if s.choose_first {
        let Some(am) = &o.am else { return err("RTL-7.15", "the first OS of the scenario: name your AM (am: ...)".into()) };
        let cup = s.cups.entry(side.to_string()).or_default();
        let Some(i) = cup.iter().position(|m| m.am.as_ref() == Some(am) && m.open) else {
            return err("RTL-7.15", format!("{am} is not in your cup"));
        };
        ev.push(Event::rule("RTL-7.15", format!("the {side} player picks {am} for the first OS of the scenario")));
        cup.remove(i)
    } else {
        if o.am.is_some() {
            return err("RTL-7.15", "only the first OS of the scenario picks its AM; this one is drawn".into());
        }
        match (s.drawn.take(), o.play.unwrap_or(Play::Drawn)) {
            (Some(d), Play::Drawn | Play::Combine) => d,
            (Some(d), Play::Pooled) => {
                let Some(p) = s.pool.insert(side.to_string(), d) else { return err("RTL-7.31", "your Activation Pool is empty".into()) };
                p
            }
            (None, _) => {
                let Some(p) = s.pool.remove(side) else { return err("RTL-7.23", "you have no AM to play".into()) };
                p
            }
        }
    };
    s.choose_first = false;
    if os == Os::Pass {
        // 7.22: the pool holds one marker at the end of a sequence.
        if pooled_before || s.pool.contains_key(side) {
            return err("RTL-7.22", "a Pass puts the AM in the Activation Pool, which already holds one".into());
        }
        if !o.actions.is_empty() {
            return err("RTL-7.21", "a Pass sequence moves and attacks with nothing".into());
        }
        ev.push(Event::rule("RTL-7.21", format!("the {side} player passes: the AM goes face down to his Activation Pool")));
        s.pool.insert(side.to_string(), marker);
        *s.passes.entry(side.to_string()).or_default() += 1;
        return Ok(ev);
    }
    if !marker.open {
        return err("RTL-7.21", format!("open {} to play it in a Mobile or Assault sequence", marker.public_name()));
    }
    let Some(formation) = formation_of(s, &marker) else { return err("RTL-4.35", "the marker names no formation of yours".into()) };
    let army = army_for(s, side, &formation);
    for id in &army {
        if let Some(u) = s.unit_mut(id) {
            u.activations += 1;
        }
    }
    ev.push(Event::rule(
        "RTL-7.21",
        format!(
            "{} activates for a {os:?} sequence{}",
            marker.public_name(),
            if army.is_empty() { String::new() } else { format!(", with Army units {}", army.join(", ")) }
        ),
    ));
    s.played.push(marker.public_name());
    s.active = Some(Active { side: side.to_string(), formation, os, army, constructed: false, tried: false, second: None });
    Ok(ev)
}

/// The OS is over: the next one goes to the other side if it has an AM, else to this side
/// again (7.25); with none left, the Reorganization Segment.
pub fn end_os(s: &mut State) -> Vec<Event> {
    let side = match &s.phase {
        Phase::Os { side } => side.clone(),
        _ => return vec![],
    };
    s.active = None;
    s.drawn = None;
    s.combine = None;
    // CPs named for a check that was never rolled (a refused attack) stay spent (15.32).
    s.cp_spends.clear();
    s.moved.clear();
    s.group = None;
    let other = s.scenario.other(&side);
    if has_ams(s, &other) {
        s.phase = Phase::Os { side: other };
        vec![]
    } else if has_ams(s, &side) {
        s.phase = Phase::Os { side };
        vec![]
    } else {
        end_turn(s)
    }
}

/// The Reorganization Segment: the Construction Phase (strongpoints removed and completed,
/// RTL-14.25c, 14.26a), disruption off units outside EZOC (3.75a; those in EZOC roll with
/// the next turn's strategic dice), victory determination, the turn marker.
fn end_turn(s: &mut State) -> Vec<Event> {
    // The Construction Phase comes first, while Disrupted markers are still on (C.1, 3.72f).
    let mut ev = super::strongpoints::reorganize(s);
    let ids: Vec<String> = s.units.iter().filter(|u| u.disrupted && u.hex.is_some()).map(|u| u.id.clone()).collect();
    for id in ids {
        let Some(u) = s.unit(&id) else { continue };
        let (Some(h), side) = (u.hex, u.side.clone()) else { continue };
        if !in_ezoc(s, h, &side)
            && let Some(x) = s.unit_mut(&id)
        {
            x.disrupted = false;
            ev.push(Event::rule("RTL-3.75", format!("{id} is no longer Disrupted (not in an enemy ZOC)")));
        }
    }
    ev.extend(super::artillery::reorganize(s));
    s.pool.clear();
    ev.extend(super::victory::check(s));
    if s.outcome.is_some() {
        return ev;
    }
    if usize::from(s.turn) >= s.scenario.raw.turns.len() {
        // The scenario's last check ends it; a track without one would end here undecided.
        s.phase = Phase::Over;
        s.outcome = Some(crate::engine::Outcome::Draw { reason: "the turn track ran out".into() });
        return ev;
    }
    s.last_passes = std::mem::take(&mut s.passes);
    s.turn += 1;
    ev.extend(start_turn(s));
    ev
}

/// Check and apply a whole entry's orders on a copy of the state.
pub fn run(s: &State, seat: &str, o: &Orders) -> Result<(State, Vec<Event>), Vec<Violation>> {
    let Some(side) = s.side_of(seat).map(str::to_string) else {
        return Err(vec![Violation::new("RTL-1.0", format!("{seat} is not a seat of this game"))]);
    };
    let mut w = s.clone();
    match s.phase.clone() {
        Phase::Cup { side: due } if due == side => {
            if o.os.is_some()
                || !o.army_attempts.is_empty()
                || o.am.is_some()
                || o.play.is_some()
                || o.face_up.is_some()
                || o.combine_leader.is_some()
                || !o.actions.is_empty()
                || o.defensive_artillery.is_some()
                || o.defensive_air.is_some()
                || o.no_retreat.is_some()
                || !o.build.is_empty()
                || !o.bridges.is_empty()
                || !o.remove_strongpoints.is_empty()
                || !o.command_points.is_empty()
            {
                return Err(vec![Violation::new("RTL-7.14", "this entry fills your cup; operations come later")]);
            }
            let n = s.cups.get(&side).map(Vec::len).unwrap_or(0);
            let limit = cup_limit(s, &side);
            if !o.cup_choice.is_empty() {
                // The author's own check; the tool turns the list into commitments and
                // never sends it, so a list in plain text reaching the rules is refused.
                super::cup::check_choice(s, &side, &o.cup_choice)?;
                return Err(vec![Violation::new(
                    "RTL-7.14",
                    "the cup choice is legal; it travels only as commitments (sign with your key), never in plain text",
                )]);
            }
            if o.cup != Some(n as u8) {
                return Err(vec![Violation::new(
                    "RTL-7.14",
                    format!("your cup holds the {n} AMs committed by this entry: write cup: {n} (sign with your key to commit them)"),
                )]);
            }
            if n > limit {
                return Err(vec![Violation::new("RTL-7.14", format!("{n} AMs: the Second Player cups at most {limit}"))]);
            }
            let mut ev = vec![Event::rule("RTL-7.14", format!("the {side} player puts {n} AMs in his cup, face down"))];
            ev.extend(first_os(&mut w));
            Ok((w, ev))
        }
        Phase::Os { side: due }
            if due == side
                && s.attacks.is_empty()
                && s.overrun.is_none()
                && s.army_attempts.is_empty()
                && s.combine.as_ref().is_none_or(|c| c.open_due) =>
        {
            if !o.cup_choice.is_empty() || o.cup.is_some() {
                return Err(vec![Violation::new("RTL-7.14", "the cups are filled in the Initiative Phase")]);
            }
            // The standing instruction for defensive artillery comes first: it is in force
            // for the combats this entry's declarations bring (RTL-12.11, digest G.4).
            let mut ev = match &o.defensive_artillery {
                Some(list) => super::artillery::set_defensive(&mut w, &side, list)?,
                None => vec![],
            };
            // So is No Retreat's (RTL-9.4); the owner's removals free markers for this
            // entry's construction (14.26c, d).
            if let Some(list) = &o.defensive_air {
                ev.extend(super::air::set_defensive(&mut w, &side, list)?);
            }
            if let Some(list) = &o.no_retreat {
                ev.extend(super::no_retreat::set(&mut w, &side, list)?);
            }
            ev.extend(super::strongpoints::remove(&mut w, &side, &o.remove_strongpoints)?);
            // After a successful combination, the second AM opens and its formation joins
            // (RTL-7.33d).
            if w.combine.as_ref().is_some_and(|c| c.open_due) {
                ev.extend(super::combine::join(&mut w, &side)?);
            }
            // 15.33d: a leader's CPs on the combination roll go with its declaration, at the
            // start of the sequence, and nowhere else.
            if o.combine_leader.is_some() && (o.play != Some(Play::Combine) || w.active.is_some()) {
                return Err(vec![Violation::new(
                    "RTL-15.33",
                    "combine_leader names a leader for the combination roll: write it with play: combine, in the entry that declares it",
                )]);
            }
            // A Pass's Construction Phase places bridges only (RTL-7.21c, 16.22).
            let passing = w.active.is_none() && o.os == Some(Os::Pass) && o.play != Some(Play::Combine);
            // A case may start inside an OS already begun (its marker played).
            if w.active.is_none() {
                ev.extend(begin_os(&mut w, &side, o)?);
            }
            // A declared combination's roll ends the entry (RTL-7.33, DESIGN §2.5).
            if w.combine.is_some() {
                super::combine::check_declaring_entry(o)?;
                return Ok((w, ev));
            }
            // The Construction Phase opens an Assault sequence (RTL-14.25), once: the Army
            // activation rolls may split the sequence over two entries.
            match w.active.as_ref().map(|a| (a.os, a.constructed)) {
                Some((Os::Assault, false)) => {
                    ev.extend(super::strongpoints::construction(&mut w, &side, &o.build)?);
                    ev.extend(super::bridges::place(&mut w, &side, &o.bridges)?);
                    if let Some(a) = w.active.as_mut() {
                        a.constructed = true;
                    }
                }
                Some((Os::Assault, true)) if !o.build.is_empty() => {
                    return Err(vec![Violation::new("RTL-14.25", "this sequence's Construction Phase is over: build in its first entry")]);
                }
                Some((Os::Assault, true)) => super::bridges::refuse(
                    &o.bridges,
                    "this sequence's Construction Phase is over: place bridges in its first entry, before any move",
                )?,
                None if passing => {
                    super::strongpoints::refuse_outside_assault(&o.build)?;
                    ev.extend(super::bridges::place(&mut w, &side, &o.bridges)?);
                }
                _ => {
                    super::strongpoints::refuse_outside_assault(&o.build)?;
                    super::bridges::refuse(
                        &o.bridges,
                        "bridges are placed only in the Construction Phase of an Assault or a Pass sequence (a Mobile sequence has none, 7.21a)",
                    )?;
                }
            }
            // The Movement Phase opens with the Army activation attempts (RTL-7.45), whose
            // rolls end the entry.
            if !o.army_attempts.is_empty() {
                ev.extend(super::army::attempt(&mut w, &side, &o.army_attempts)?);
                ev.extend(super::command::name_mover(&mut w, &side, &o.command_points)?);
                if !o.actions.is_empty() {
                    return Err(vec![Violation::new(
                        "RTL-7.45",
                        "the activation attempts end the entry: write the moves and attacks in your next entry, after their rolls",
                    )]);
                }
                return Ok((w, ev));
            }
            let mut errs = Vec::new();
            let mut attacking = false;
            for (i, a) in o.actions.iter().enumerate() {
                let r = match a {
                    // An overrun's dice end the entry (DESIGN §2.5): what follows it is
                    // written once it is rolled.
                    _ if w.overrun.is_some() => Err(vec![Violation::new(
                        "RTL-8.67",
                        "an overrun is the entry's last action: the next entry, after its roll, goes on with the Movement Phase",
                    )]),
                    Action::Move(_) | Action::Overrun(_) if attacking => {
                        Err(vec![Violation::new("RTL-9.11", "moves come before the attack declarations (end of the Movement Phase)")])
                    }
                    Action::Move(m) => movement::step_move(&mut w, &side, m),
                    Action::Overrun(x) => super::overrun::declare(&mut w, &side, x),
                    Action::Attack(x) => {
                        attacking = true;
                        combat::declare(&mut w, &side, x)
                    }
                };
                // 14.26b: a builder that moves, overruns or attacks gives up its strongpoint.
                let (movers, what): (&[String], &str) = match a {
                    Action::Move(m) => (std::slice::from_ref(&m.unit), "moves"),
                    Action::Overrun(x) => (&x.units, "moves to overrun"),
                    Action::Attack(x) => (&x.units, "attacks"),
                };
                match r {
                    Ok(e) => {
                        ev.extend(e);
                        for id in movers {
                            ev.extend(super::strongpoints::abandon(&mut w, id, what));
                        }
                    }
                    Err(v) => errs.extend(v.into_iter().map(|mut v| {
                        v.message = format!("action {}: {}", i + 1, v.message);
                        v
                    })),
                }
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            // The CPs for this entry's checks, named with them (RTL-15.33a, c).
            ev.extend(super::command::name_mover(&mut w, &side, &o.command_points)?);
            // 15.22: moves and overruns may have entered a leader's hex.
            ev.extend(super::leaders::displace(&mut w));
            // 16.26: and a bridge's hex.
            ev.extend(super::bridges::sweep(&mut w));
            if w.attacks.is_empty() && w.overrun.is_none() {
                ev.extend(end_os(&mut w));
            } else if !w.attacks.is_empty() {
                // The Enemy Reaction Phase (RTL-9.2, 9.3): the defender's entry comes first
                // when he has anything to try.
                ev.extend(super::reaction_phase::open(&mut w));
            }
            Ok((w, ev))
        }
        Phase::Os { side: due } if due != side && s.reaction.as_ref().is_some_and(|r| r.due) => {
            let ev = super::reaction_phase::entry(&mut w, &side, o)?;
            Ok((w, ev))
        }
        Phase::Over => Err(vec![Violation::new("S1.0", "the game is over")]),
        _ => Err(vec![Violation::new("RTL-4.21", format!("not your turn to order: {}", s.phase_text()))]),
    }
}
