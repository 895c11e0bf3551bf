//! The sequence of play (JDG 1): phase A orders, B the strategic initiative (JDG 3,
//! `initiative`), C the cup, D the activations, F the end of the turn with its victory check
//! (JDG 13). Phase E makes the rout moves (JDG 10.4, `rout`), then checks demoralisation
//! (JDG 11.2).

use super::command::{self, groups_of};
use super::initiative;
use super::movement;
use super::orders::{Action, Orders};
use super::state::{Am, Phase, State};
use crate::dice::Dice;
use crate::engine::{Event, Outcome, Violation};
use crate::geo::hex::HexId;

/// Begin turn `s.turn`: groups fixed (2.3.1), the first side to commit its orders.
pub fn start_turn(s: &mut State) -> Vec<Event> {
    command::compute_groups(s);
    s.aside.clear();
    s.activated.clear();
    s.acted.clear();
    s.tested.clear();
    s.initiative = None;
    s.chosen.clear();
    s.sealed_cams.clear();
    let first = s.scenario.sides[0].id.clone();
    let mut ev = vec![Event::rule("JDG 1.A", format!("turn {} begins: the tactical groups are fixed (JDG 2.3.1)", s.turn))];
    ev.extend(orders_phase(s, first));
    ev
}

/// Phase A for `side`, skipped when it has no group (nothing to order).
fn orders_phase(s: &mut State, side: String) -> Vec<Event> {
    if groups_of(s, &side).next().is_some() {
        s.phase = Phase::Orders { side };
        return vec![];
    }
    after_orders(s, &side)
}

/// After `side` committed its orders: the other side, or phase C.
fn after_orders(s: &mut State, side: &str) -> Vec<Event> {
    if side == s.scenario.sides[0].id {
        let other = s.scenario.sides[1].id.clone();
        return orders_phase(s, other);
    }
    // Phase B: the first side's next entry opens with both initiative dice (JDG 3), a
    // leading roll fixed by the second side's phase-A entry.
    let first = s.scenario.sides[0].id.clone();
    s.phase = Phase::Initiative { side: first };
    vec![]
}

/// Phase C (JDG 1.C, 2.1.1): every AM of a formation with a unit on the map goes into the
/// cup, and those of the reinforcements due (5.2.1), in canonical order (digest F.4). The
/// initiative winner takes his pick out of it.
pub fn fill_cup(s: &mut State) -> Vec<Event> {
    let mut cup = Vec::new();
    for f in &s.scenario.formations {
        if !s.units.iter().any(|u| u.formation == f.id && u.hex.is_some()) {
            // 5.2.1: a reinforcing formation not yet on the map.
            cup.extend(super::reinforce::due_markers(s, f).into_iter().map(|n| Am { formation: f.id.clone(), n }));
            continue;
        }
        // 11.2: a demoralised formation keeps one marker, the lower initiative (the first
        // when equal).
        let keep =
            (f.initiative.len() == 2 && s.demoralised.contains(&f.id)).then(|| if f.initiative[1] < f.initiative[0] { 2 } else { 1 });
        for n in 1..=f.initiative.len() {
            if keep.is_none_or(|k| k == n) {
                cup.push(Am { formation: f.id.clone(), n: n as u8 });
            }
        }
    }
    // 2.1.2: the CAMs required this turn and those chosen (and public) by now.
    cup.extend(super::cam::into_cup(s));
    cup.sort();
    s.cup = cup;
    let list: Vec<String> = s.cup.iter().map(|a| a.to_string()).collect();
    vec![Event::rule("JDG 1.C", format!("the cup holds {} markers: {}", s.cup.len(), list.join(", ")))]
}

/// D.1 or D.4: another draw while more than one AM is left, the draw opening `side`'s next
/// entry; else the last AM is set aside unplayed and the turn ends (JDG 2.2).
pub fn next_draw(s: &mut State, side: String) -> Vec<Event> {
    s.acted.clear();
    s.tested.clear();
    s.fired.clear();
    s.fire_closed = false;
    s.melee_done = false;
    s.meleed.clear();
    s.column = 0;
    s.refused.clear();
    s.broke.clear();
    s.joined.clear();
    s.reacted.clear();
    if s.cup.len() >= 2 {
        s.phase = Phase::Draw { side };
        return vec![];
    }
    let mut ev = Vec::new();
    if let Some(last) = s.cup.pop() {
        let what = if last.is_cam() {
            format!("the CAM is not played: {} do not activate with it", s.am_formations(&last).join(" and "))
        } else {
            "its formation does not activate".to_string()
        };
        ev.push(Event::rule("JDG 2.2", format!("{last} is the last marker in the cup: it is set aside and {what}")));
        s.aside.push(last);
    }
    ev.extend(end_turn(s));
    ev
}

/// The cup draw (D.1): one die with as many faces as markers left, read against the cup's
/// canonical order; the drawn formation's owner acts next.
pub fn draw(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let n = s.cup.len();
    if n < 2 {
        return vec![];
    }
    let i = dice.roll(n as u32) as usize;
    let am = s.cup.remove(i.min(n - 1));
    let side = s.am_side(&am);
    let mut ev = vec![Event::roll(format!("JDG 2.2: cup draw among {n} markers (position from 0)"), format!("d{n}"), i as u32)];
    if let Some(c) = s.cam_of(&am) {
        // 2.1.2: the CAM's effect, its formations activated together.
        let fresh: Vec<String> = c.formations.iter().filter(|f| !s.activated.contains(f)).cloned().collect();
        ev.push(Event::rule(
            super::cam::RULE,
            format!(
                "{am} ({}) is drawn: the {side} formations {} activate together, initiative {}{}",
                c.name,
                c.formations.join(" and "),
                c.initiative,
                if fresh.is_empty() { String::new() } else { format!(" (the orders of {} open now, JDG 2.4)", fresh.join(" and ")) }
            ),
        ));
        s.activated.extend(fresh);
    } else {
        let first = !s.activated.contains(&am.formation);
        ev.push(Event::rule(
            "JDG 2.2",
            format!(
                "{am} is drawn: the {side} formation {} activates{}",
                am.formation,
                if first { " (its orders open now, JDG 2.4)" } else { "" }
            ),
        ));
        if first {
            s.activated.push(am.formation.clone());
        }
    }
    s.acted.clear();
    s.phase = Phase::Activation { am, side };
    ev
}

/// One action of the active side.
pub fn step(s: &mut State, side: &str, a: &Action) -> Result<Vec<Event>, Vec<Violation>> {
    if let Some(u) = actors(s, a).into_iter().find(|u| initiative::held(s, u)) {
        return Err(vec![Violation::new(
            initiative::LEADER,
            format!("{u}'s group failed its leader-initiative test: its units may only try to rally in this activation"),
        )]);
    }
    let mut ev = step_action(s, side, a)?;
    ev.extend(super::reinforce::sweep(s));
    ev.extend(super::chief::sweep(s));
    Ok(ev)
}

/// One action, before the Reinforcement markers are checked (JDG 5.2.1).
fn step_action(s: &mut State, side: &str, a: &Action) -> Result<Vec<Event>, Vec<Violation>> {
    match a {
        Action::Initiative(o) => initiative::step_test(s, side, o),
        Action::Fire(f) => super::fire::step_fire(s, side, f),
        Action::Melee(m) => super::melee::step_melee(s, side, m),
        Action::Charge(c) => super::charge::step_charge(s, side, c),
        Action::Move(_) | Action::Enter(_) | Action::Face(_) | Action::Chief(_) | Action::Square(_) if s.melee_done => {
            Err(vec![Violation::new("JDG 8.3.1", "the melee segment follows movement: nothing moves after the melees (JDG 1.D.3)")])
        }
        Action::Move(m) => {
            s.fire_closed = true;
            movement::step_move(s, side, m)
        }
        Action::Enter(o) => {
            s.fire_closed = true;
            super::reinforce::step_enter(s, side, o)
        }
        Action::Face(t) => {
            s.fire_closed = true;
            movement::step_face(s, side, t)
        }
        Action::Square(q) => {
            s.fire_closed = true;
            movement::step_square(s, side, q)
        }
        Action::Chief(c) => {
            s.fire_closed = true;
            movement::step_chief(s, side, c)
        }
        Action::Rally(r) => {
            s.fire_closed = true;
            super::rally::step_rally(s, side, r)
        }
        Action::EndActivation => Ok(end_activation(s, side)),
    }
}

/// The units an action sets to work (those a failed leader-initiative test holds back, JDG
/// 2.4.3): the named units, and every unit of the hexes a hex-wide action names.
fn actors(s: &State, a: &Action) -> Vec<String> {
    let at = |h: HexId| s.units_at(h).map(|u| u.id.clone()).collect::<Vec<_>>();
    match a {
        Action::Fire(f) => std::iter::once(f.unit.clone()).chain(f.with.clone()).collect(),
        Action::Move(m) => vec![m.unit.clone()],
        Action::Enter(o) => o.units.clone(),
        Action::Face(t) => s.unit(&t.unit).and_then(|u| u.hex).map(at).unwrap_or_else(|| vec![t.unit.clone()]),
        Action::Square(q) => at(q.hex),
        Action::Charge(c) => std::iter::once(c.from).chain(c.with.iter().copied()).flat_map(at).collect(),
        Action::Melee(m) => m.combats.iter().flat_map(|c| c.from.iter().flat_map(|h| at(*h))).collect(),
        Action::Chief(_) | Action::Rally(_) | Action::EndActivation | Action::Initiative(_) => vec![],
    }
}

/// The activation ends after its rallies are rolled (JDG 11.1, D.4).
pub fn finish_activation(s: &mut State, side: &str) -> Vec<Event> {
    end_activation(s, side)
}

/// D.4: the AM is set aside; the other side draws next.
fn end_activation(s: &mut State, side: &str) -> Vec<Event> {
    let Phase::Activation { am, .. } = s.phase.clone() else { return vec![] };
    s.aside.push(am.clone());
    let mut ev = super::reinforce::delay(s, &am.formation);
    ev.push(Event::rule("JDG 2.2", format!("{am} is set aside")));
    let other = s.scenario.other(side).to_string();
    ev.extend(next_draw(s, other));
    ev
}

/// Check a whole entry's orders on a copy of the state, returning the copy and the events.
pub fn run(s: &State, seat: &str, o: &Orders) -> Result<(State, Vec<Event>), Vec<Violation>> {
    let Some(side) = s.side_of(seat).map(str::to_string) else {
        return Err(vec![Violation::new("JDG 1", format!("{seat} is not a seat of this battle"))]);
    };
    let mut w = s.clone();
    // 8.8: a standing refusal policy takes effect after this entry's own resolution (which
    // came before its orders), so its author cannot fit it to dice it already knows; the
    // counter-attack (8.7.2), rout (10.4), counter-battery and reaction-fire (7.1) policies
    // likewise.
    let policies = [
        o.refuse.map(|p| set_policy(&mut w.refusal, &side, p, super::refusal::RULE, "refusal")),
        o.counter_attack.map(|p| set_policy(&mut w.counter, &side, p, super::counter::RULE, "counter-attack")),
        o.rout.map(|p| set_policy(&mut w.rout, &side, p, super::rout::RULE, "rout")),
        o.counter_battery.map(|p| set_policy(&mut w.counter_battery, &side, p, super::reaction::RULE, "counter-battery")),
        o.reaction_fire.map(|p| set_policy(&mut w.reaction, &side, p, super::reaction::RULE, "reaction-fire")),
        o.pursue.map(|p| set_policy(&mut w.pursuit, &side, p, super::charge::ANSWER, "pursuit")),
        o.chief_evasion.map(|p| set_policy(&mut w.evasion, &side, p, super::chief::RULE, "commander's evasion")),
    ];
    let r = run_phase(s, w, &side, o);
    r.map(|(w, mut ev)| {
        ev.extend(policies.into_iter().flatten());
        (w, ev)
    })
}

/// Record a standing policy of `side` (`what` names it in the event, under `rule`).
fn set_policy<P: Copy + std::fmt::Debug>(
    map: &mut std::collections::BTreeMap<String, P>,
    side: &str,
    p: P,
    rule: &str,
    what: &str,
) -> Event {
    map.insert(side.to_string(), p);
    Event::rule(rule, format!("the {side} player's standing {what} policy is now {p:?}"))
}

/// The orders of the phase, on the working copy `w`.
fn run_phase(s: &State, mut w: State, side: &str, o: &Orders) -> Result<(State, Vec<Event>), Vec<Violation>> {
    let side = side.to_string();
    match s.phase.clone() {
        Phase::Orders { side: due } if due == side => {
            if !o.actions.is_empty() {
                return Err(vec![Violation::new("JDG 1.A", "phase A gives orders; units act in phase D")]);
            }
            if o.first.is_some() {
                return Err(vec![Violation::new(initiative::STRATEGIC, "the first marker is picked in phase B, by the initiative winner")]);
            }
            let mut errs = Vec::new();
            if !o.assign.is_empty() {
                errs.extend(command::check_assign(s, &side, o));
            } else {
                let mut want: Vec<String> = groups_of(s, &side).map(|g| g.id.clone()).collect();
                want.sort();
                let mut got = o.groups.clone();
                got.sort();
                if got != want {
                    errs.push(Violation::new(command::RULE, format!("phase A names each of your groups once: {}", want.join(", "))));
                }
            }
            // Every group's orders are committed (checked by `hidden`, before these orders).
            if groups_of(s, &side).any(|g| !g.committed) && o.assign.is_empty() {
                errs.push(Violation::new(command::RULE, "the orders of your groups travel as commitments (sign with your key)"));
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            let n = groups_of(s, &side).count();
            let mut ev = super::cam::state_choice(&mut w, &side, &o.cams)?;
            ev.extend(super::reinforce::drop_markers(&mut w, &side, &o.drop)?);
            ev.push(Event::rule("JDG 2.3.2", format!("the {side} player gives secret orders to his {n} tactical groups")));
            ev.extend(after_orders(&mut w, &side));
            Ok((w, ev))
        }
        Phase::Reveal { side: due } if due == side => {
            // 2.1.2: `hidden` opened the CAM choice before these orders.
            if w.sealed_cams.contains(&side) {
                return Err(vec![Violation::new(super::cam::RULE, "this entry opens your phase-A CAM choice")]);
            }
            if !o.assign.is_empty() || !o.groups.is_empty() || !o.drop.is_empty() || !o.cams.is_empty() {
                return Err(vec![Violation::new("JDG 1.A", "orders and CAMs are given in phase A")]);
            }
            let mut ev = initiative::after_reveal(&mut w);
            match w.phase.clone() {
                // The winner's pick rides on this entry (no entry of its own).
                Phase::Pick { side: p } if p == side => {
                    if o.first.is_none() {
                        return Err(vec![Violation::new(
                            initiative::STRATEGIC,
                            "you won the strategic initiative: in this entry name the marker that acts first (`first: formation/n`) or `first: decline`",
                        )]);
                    }
                    let (w, more) = run_phase(&w.clone(), w, &side, o)?;
                    ev.extend(more);
                    Ok((w, ev))
                }
                _ if o.first.is_some() || !o.actions.is_empty() => Err(vec![Violation::new(
                    initiative::STRATEGIC,
                    "you did not win the strategic initiative: this entry only opens your CAM choice",
                )]),
                _ => Ok((w, ev)),
            }
        }
        Phase::Pick { side: due } if due == side => {
            if !o.cams.is_empty() {
                return Err(vec![Violation::new(super::cam::RULE, "CAMs go into the cup in phase A")]);
            }
            if !o.assign.is_empty() || !o.groups.is_empty() || !o.drop.is_empty() {
                return Err(vec![Violation::new("JDG 1.A", "orders are given in phase A")]);
            }
            let Some(first) = o.first.as_deref() else {
                return Err(vec![Violation::new(
                    initiative::STRATEGIC,
                    "you won the strategic initiative: name the marker that acts first (`first: formation/n`) or `first: decline`",
                )]);
            };
            let am = initiative::parse_pick(s, &side, first).map_err(|v| vec![v])?;
            // Nothing has activated yet this turn: only the picked formation's orders open.
            let early: Vec<String> = s
                .groups
                .iter()
                .filter(|g| g.turn == s.turn && g.status.is_some() && am.as_ref().is_none_or(|a| a.formation != g.formation))
                .map(command::commit_id)
                .collect();
            if !early.is_empty() {
                return Err(vec![Violation::new(
                    "JDG 2.4",
                    format!("{}: a group's orders are revealed at its formation's first activation", early.join(", ")),
                )]);
            }
            let other = s.scenario.other(&side).to_string();
            match am {
                None => {
                    if !o.actions.is_empty() {
                        return Err(vec![Violation::new(initiative::STRATEGIC, "a winner who declines has no marker to act with")]);
                    }
                    let mut ev = vec![Event::rule(
                        initiative::STRATEGIC,
                        format!("the {side} player declines the strategic initiative: the first marker is drawn from the cup"),
                    )];
                    ev.extend(next_draw(&mut w, other));
                    Ok((w, ev))
                }
                Some(am) => {
                    w.cup.retain(|a| *a != am);
                    w.activated.push(am.formation.clone());
                    w.phase = Phase::Activation { am: am.clone(), side: side.clone() };
                    let ev = vec![Event::rule(
                        initiative::STRATEGIC,
                        format!(
                            "the {side} player picks {am}: the {side} formation {} activates first, its marker kept out of the cup (its orders open now, JDG 2.4)",
                            am.formation
                        ),
                    )];
                    activation(w, &side, &am, o, ev)
                }
            }
        }
        Phase::Activation { am, side: due } if due == side => {
            if !o.cams.is_empty() {
                return Err(vec![Violation::new(super::cam::RULE, "CAMs go into the cup in phase A")]);
            }
            if !o.assign.is_empty() || !o.groups.is_empty() || !o.drop.is_empty() {
                return Err(vec![Violation::new("JDG 1.A", "orders are given in phase A")]);
            }
            if o.first.is_some() {
                return Err(vec![Violation::new(initiative::STRATEGIC, "the first marker is picked in phase B, by the initiative winner")]);
            }
            activation(w, &side, &am, o, Vec::new())
        }
        Phase::Over => Err(vec![Violation::new("JDG 13", "the battle is over")]),
        _ => Err(vec![Violation::new("JDG 1", format!("not your turn to order: {}", s.phase_text()))]),
    }
}

/// The actions of an activation entry, on the working copy `w` (whose phase is already the
/// activation of `am`), after the events `ev` of the entry so far.
fn activation(mut w: State, side: &str, am: &Am, o: &Orders, mut ev: Vec<Event>) -> Result<(State, Vec<Event>), Vec<Violation>> {
    let closed: Vec<String> = w
        .groups
        .iter()
        .filter(|g| g.turn == w.turn && w.activates(am, &g.formation) && g.status.is_none())
        .map(command::commit_id)
        .collect();
    if !closed.is_empty() {
        return Err(vec![Violation::new("JDG 2.4", format!("open the orders of {} before the formation acts", closed.join(", ")))]);
    }
    // An entry ends with its activation, or with an action whose dice the other side's next
    // entry rolls; the activation goes on after them (DESIGN §2.5).
    let ends_with_dice =
        matches!(o.actions.last(), Some(Action::Fire(_) | Action::Rally(_) | Action::Melee(_) | Action::Charge(_) | Action::Initiative(_)));
    if !matches!(o.actions.last(), Some(Action::EndActivation)) && !ends_with_dice {
        return Err(vec![Violation::new(
            "JDG 2.2",
            "an activation ends with `end_activation`, its last action, or an entry with a `fire`, `charge`, `melee`, `rally` or `initiative` (their dice end it)",
        )]);
    }
    let mut errs = Vec::new();
    for (i, a) in o.actions.iter().enumerate() {
        let last = i + 1 == o.actions.len();
        let stop = match a {
            Action::EndActivation if !last => Some(("JDG 2.2", "`end_activation` comes last".to_string())),
            Action::Rally(_) if !last => {
                Some(("JDG 11.1", "the rally closes the activation; nothing follows it (its dice end the entry)".to_string()))
            }
            Action::Melee(_) if !last => {
                Some(("JDG 8.3.1", "the melees end the entry; their dice come with the other side's next entry (DESIGN §2.5)".to_string()))
            }
            Action::Charge(_) if !last => {
                Some(("JDG 9.1", "a charge ends the entry; its dice come with the other side's next entry (DESIGN §2.5)".to_string()))
            }
            Action::Fire(_) if !last => {
                Some(("JDG 7.5", "a fire ends the entry; its die comes with the other side's next entry (DESIGN §2.5)".to_string()))
            }
            Action::Initiative(_) if !last => Some((
                initiative::LEADER,
                "the initiative tests end the entry; their dice come with the other side's next entry (DESIGN §2.5)".to_string(),
            )),
            _ => None,
        };
        if let Some((rule, why)) = stop {
            errs.push(Violation::new(rule, format!("action {}: {why}", i + 1)));
            break;
        }
        match step(&mut w, side, a) {
            Ok(e) => ev.extend(e),
            Err(v) => errs.extend(v.into_iter().map(|mut v| {
                v.message = format!("action {}: {}", i + 1, v.message);
                v
            })),
        }
    }
    if errs.is_empty() { Ok((w, ev)) } else { Err(errs) }
}

/// A unit of `side` stands in `h`: a VP hex there is now held by `side`.
pub fn note_holder(s: &mut State, h: HexId, side: &str) {
    if s.scenario.vp.contains_key(&h) {
        s.holder.insert(h, side.to_string());
    }
}

/// VP of a side: the hexes it holds.
pub fn vp(s: &State, side: &str) -> u32 {
    s.scenario.vp.iter().filter(|(h, _)| s.holder.get(h).is_some_and(|x| x == side)).map(|(_, v)| u32::from(*v)).sum()
}

/// Phases E and F (JDG 1.E, 1.F, 13): rout moves and demoralisation, automatic victory,
/// then the next turn or the end-of-game count.
fn end_turn(s: &mut State) -> Vec<Event> {
    // Phase E: the rout moves (10.4); the units they passed through test with the next
    // dice (10.5): the turn then waits for them (`JoursDeGloire::resolve`).
    let mut ev = super::rout::phase_e(s);
    if !s.passed.is_empty() {
        s.phase_e = true;
        return ev;
    }
    ev.extend(after_phase_e(s));
    ev
}

/// The rest of phase E (demoralisation, JDG 11.2) and phase F.
pub fn after_phase_e(s: &mut State) -> Vec<Event> {
    let mut ev = super::rally::check_demoralisation(s);
    if s.scenario.victory.automatic_all_vp && !s.scenario.vp.is_empty() {
        for side in [s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone()] {
            if s.scenario.vp.keys().all(|h| s.holder.get(h) == Some(&side)) {
                s.outcome = Some(Outcome::Win {
                    side: side.clone(),
                    reason: format!("holds every VP hex at the end of turn {} (JDG 13.1)", s.turn),
                });
                s.phase = Phase::Over;
                ev.push(Event::rule("JDG 13.1", format!("the {side} player holds every VP hex: automatic victory")));
                return ev;
            }
        }
    }
    for c in s.chiefs.iter_mut() {
        c.moved = false;
    }
    if s.turn >= s.scenario.turns {
        let (a, b) = (s.scenario.sides[0].id.clone(), s.scenario.sides[1].id.clone());
        let (va, vb) = (vp(s, &a), vp(s, &b));
        let reason = format!("{a} {va} VP, {b} {vb} VP at the end of turn {} (JDG 13.2)", s.turn);
        s.outcome = Some(match va.cmp(&vb) {
            std::cmp::Ordering::Greater => Outcome::Win { side: a, reason },
            std::cmp::Ordering::Less => Outcome::Win { side: b, reason },
            std::cmp::Ordering::Equal => Outcome::Draw { reason },
        });
        s.phase = Phase::Over;
        ev.push(Event::rule("JDG 13.2", "the last turn is over: the VP decide"));
        return ev;
    }
    s.turn += 1;
    ev.push(Event::rule("JDG 1.F", format!("turn {} ends", s.turn - 1)));
    ev.extend(start_turn(s));
    ev
}
