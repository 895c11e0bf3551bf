//! The sequence of play (WEF 5.2) as far as it is built, and the action dispatcher.
//!
//! A game turn here: II.A Russian New Units, II.B CP New Units, III.A Russian and III.B CP
//! Strategic Movement, IV.A Russian Regular
//! Movement, IV.B Russian Combat, V.A CP Regular Movement, V.B CP Combat, VI Victory Check
//! (check turns only); the Attrition phases IV.C and V.D close each side's combat phase.
//! Phases not built yet (I Random Events, V.C OberOst Combat) are
//! passed over; the docs list them.

use super::logistics::{self, Step};
use super::orders::Action;
use super::state::{Phase, Side, State};
use super::{ammunition, combat, events, movement, reinforce, replacements, strategic, victory, withdrawals};
use crate::engine::{Await, Event, Expectation, Violation};

/// Apply one action of `side`, or say why it is illegal (nothing changes then).
pub fn step(s: &mut State, side: Side, a: &Action) -> Result<Vec<Event>, Vec<Violation>> {
    // 13.7: the CP's answer to an attack on a hidden stack comes in the Russian's phase.
    if let Action::Reveal = a {
        return super::fog::step_reveal(s, side);
    }
    if s.outcome.is_some() {
        return Err(vec![Violation::new("WEF 4.1", "the game is over")]);
    }
    // 3.9: before turn 1 of a Free Setup game the sides deploy.
    if super::deploy::active(s) {
        return super::deploy::step(s, side, a);
    }
    if must_end(s, a) {
        return Err(vec![Violation::new("WEF 13.20", "a roll is pending: the entry must end there")]);
    }
    // A battle's decision (13.21-13.27), then an overstacked hex (8.3), come before all else.
    if let Some(d) = &s.decision {
        return match a {
            Action::Decide(dc) if d.decider() == side => super::retreat::decide(s, side, dc),
            _ => Err(vec![Violation::new("WEF 13.21", format!("first the {} player's decision: {}", d.decider().title(), d.words()))]),
        };
    }
    if let Some((h, who)) = super::overstack::pending(s) {
        return match a {
            Action::RemoveOverstack(ids) if who == side => super::overstack::remove(s, side, ids),
            _ => {
                Err(vec![Violation::new("WEF 8.3", format!("{h} is overstacked: first the {} player removes units from it", who.title()))])
            }
        };
    }
    if acting_side(s) != side {
        return Err(vec![Violation::new("WEF 5.2", format!("it is the {} player's {}", acting_side(s).title(), s.phase.title()))]);
    }
    if ammunition::placing(s) == Some(side) && !matches!(a, Action::Ammunition(_)) {
        return Err(vec![Violation::new("WEF 9.11", "place the ammunition-shortage markers first")]);
    }
    if let Some(v) = strategic::barred(s, a) {
        return Err(vec![v]);
    }
    match a {
        Action::Enter(e) => {
            if let Some(v) = replacements::too_late(s, Step::Reinforcements).filter(|_| s.phase.new_units()) {
                return Err(vec![v.unit(e.unit.clone())]);
            }
            let errs = reinforce::check(s, side, e);
            if !errs.is_empty() {
                return Err(errs);
            }
            s.logistics.entered.insert(e.unit.clone());
            Ok(reinforce::apply(s, side, e))
        }
        Action::Move(m) => {
            let errs = movement::check(s, side, m);
            if errs.is_empty() { Ok(movement::apply(s, side, m)) } else { Err(errs) }
        }
        Action::Attack(at) if !super::fog::counters_at(s, at.target).is_empty() => super::fog::declare_blind(s, side, at),
        Action::Attack(at) => {
            let b = combat::declare(s, side, at)?;
            Ok(combat::start(s, b))
        }
        Action::EndPhase => end_phase(s, side),
        Action::Rail(r) => {
            let off_map = strategic::check(s, side, r)?;
            Ok(strategic::apply(s, r, off_map))
        }
        Action::Restore(r) => {
            let errs = replacements::check_restore(s, side, r);
            if errs.is_empty() { Ok(replacements::restore(s, r)) } else { Err(errs) }
        }
        Action::Rebuild(r) => {
            let errs = replacements::check_rebuild(s, side, r);
            if errs.is_empty() { Ok(replacements::rebuild(s, side, r)) } else { Err(errs) }
        }
        Action::Withdraw(w) => {
            let errs = withdrawals::check(s, side, w);
            if errs.is_empty() { Ok(withdrawals::apply(s, w)) } else { Err(errs) }
        }
        Action::Decide(_) => Err(vec![Violation::new("WEF 13.21", "no battle waits for a decision")]),
        Action::RemoveOverstack(_) => Err(vec![Violation::new("WEF 8.3", "no hex is overstacked")]),
        Action::Stavka(h) => super::command::place_stavka(s, side, *h),
        Action::Oberost(h) => super::command::place_oberost(s, side, *h),
        Action::Hide(h) => super::fog::step_hide(s, side, h),
        Action::Reveal => super::fog::step_reveal(s, side),
        Action::EventWithdraw(w) => {
            let errs = events::check_withdraw(s, side, w);
            if errs.is_empty() { Ok(events::apply_withdraw(s, side, w)) } else { Err(errs) }
        }
        Action::Brusilov => super::brusilov::declare(s, side),
        Action::Ammunition(p) => {
            let errs = ammunition::check(s, side, p);
            if errs.is_empty() { Ok(ammunition::apply(s, side, p)) } else { Err(errs) }
        }
        Action::Deploy(_) => Err(vec![Violation::new("WEF 3.9", "units deploy only before turn 1 of a Free Setup game")]),
    }
}

/// The side whose action is due: the one deciding for a battle (13.21-13.27), the one
/// removing from an overstacked hex (8.3), else the one placing ammunition markers (9.11),
/// else the phasing side.
pub fn actor(s: &State) -> Side {
    super::retreat::decider(s).or_else(|| super::overstack::pending(s).map(|(_, who)| who)).unwrap_or_else(|| acting_side(s))
}

/// Finish the current phase and move to the next one the rules play.
pub fn end_phase(s: &mut State, side: Side) -> Result<Vec<Event>, Vec<Violation>> {
    if super::variants::rigid_planning(s)
        && s.phase == Phase::CentralCombat
        && let Some(v) = rigid_planning(s)
    {
        return Err(vec![v]);
    }
    if s.phase.new_units()
        && let Some(v) = withdrawals::unmet(s, side)
    {
        return Err(vec![v]);
    }
    // 14.3: after the CP Combat phase of a turn OberOst was placed, the OberOst Combat phase.
    if let Some(e) = super::command::oberost_phase(s) {
        return Ok(e);
    }
    let mut ev = vec![Event::say(format!("{} ends {}", side.title(), s.phase.title()))];
    if s.phase.new_units() {
        // 7.2, 10.19: an event's withdrawal comes before the end of the phase.
        ev.extend(events::end_new_units(s, side)?);
        if s.outcome.is_some() {
            return Ok(ev);
        }
        ev.extend(reinforce::lose_missed(s, side));
        // 5.2: the steps left (the CP's conversions among them) are passed through in order.
        ev.extend(replacements::reach(s, Step::Withdrawals));
        ev.extend(withdrawals::finish(s, side));
        ev.extend(replacements::carry_over(s, side));
    }
    // IV.C and V.D: the attrition of the side that just fought (9.4).
    if s.phase.combat() {
        ev.extend(super::supply::attrition(s, side));
    }
    s.spent.clear();
    s.moving.clear();
    s.attacked.clear();
    s.targets.clear();
    s.retreated.clear();
    super::command::oberost_done(s);
    // 17: Schlieffen East plays the CP player turn first.
    match super::variants::next_phase(s, s.phase) {
        Some(Phase::VictoryCheck) => {
            let (e, rolling) = victory::end_of_turn(s);
            ev.extend(e);
            if !rolling && s.outcome.is_none() {
                ev.extend(next_turn(s));
            }
        }
        Some(p) => {
            s.phase = p;
            ev.extend(logistics::phase_start(s));
            // 9.9: the ammunition roll opens the Russian Combat phase.
            if p == Phase::RussianCombat {
                ammunition::begin(s);
            }
        }
        None => ev.extend(next_turn(s)),
    }
    Ok(ev)
}

/// Start the next game turn.
pub fn next_turn(s: &mut State) -> Vec<Event> {
    s.turn += 1;
    s.phase = Phase::RussianNewUnits;
    s.ah_good_attacks = 0;
    logistics::new_turn(s);
    ammunition::new_turn(s);
    let mut ev = vec![Event::say(format!("{} begins", s.turn_text()))];
    ev.extend(events::new_turn(s));
    ev.extend(super::brusilov::new_turn(s));
    ev.extend(logistics::phase_start(s));
    ev
}

/// 3.6: in the T1 CP combat phase the CP must make three A-H attacks at 2:1 or better. The
/// penalty is not given; reading (digest): the phase cannot end while such an attack (A-H
/// units only) is still possible and fewer than three were made.
pub fn rigid_planning(s: &State) -> Option<Violation> {
    if s.ah_good_attacks >= 3 {
        return None;
    }
    let possible = super::legal::ah_qualifying_attack(s)?;
    Some(Violation::new(
        "WEF 3.6",
        format!(
            "only {} A-H attacks at 2:1 or better in turn 1, and another is possible ({} against {}): make it before ending the phase",
            s.ah_good_attacks,
            possible.units.join(", "),
            possible.target
        ),
    ))
}

/// Who must send what.
pub fn expect(s: &State) -> Expectation {
    let when = format!("{}, {}", s.turn_text(), s.phase.title());
    if s.outcome.is_some() {
        return Expectation { when, awaits: vec![] };
    }
    let awaits = if let Some(d) = &s.decision {
        vec![Await { seat: s.seat(d.decider()).into(), what: d.words() }]
    } else if s.battle.is_none()
        && let Some((h, who)) = super::overstack::pending(s)
    {
        vec![Await { seat: s.seat(who).into(), what: format!("remove the fewest units from the overstacked {h} (WEF 8.3)") }]
    } else if let Some(b) = &s.battle {
        // The roll is the entry's that made it: the attack's, or the standing cavalry's (13.27).
        let d = if b.stood { b.attacker } else { b.attacker.other() };
        vec![Await {
            seat: s.seat(d).into(),
            what: format!("acknowledge: your entry rolls the die of the attack on {} (WEF 13.20)", b.target),
        }]
    } else if s.phase == Phase::VictoryCheck {
        vec![Await {
            seat: s.seat(Side::Russian).into(),
            what: format!("acknowledge: your entry rolls the revolution die of turn {} (WEF 4.4)", s.turn),
        }]
    } else if events::roll_due(s).is_some() {
        // The Russian's next entry fixes the CP's events roll and then plays II.A with the
        // event known (7.1).
        vec![Await {
            seat: s.seat(Side::Russian).into(),
            what: format!("your entry rolls the random events of turn {} (WEF 7.1); then your New Units phase", s.turn),
        }]
    } else if ammunition::roll_due(s).is_some() {
        vec![Await {
            seat: s.seat(Side::Central).into(),
            what: format!("acknowledge: your entry rolls the Russian ammunition shortage of turn {} (WEF 9.9)", s.turn),
        }]
    } else if let Some(side) = ammunition::placing(s) {
        vec![Await { seat: s.seat(side).into(), what: "place your ammunition-shortage markers on Russian units (WEF 9.11)".into() }]
    } else {
        let side = s.phase.side();
        let what = match s.phase {
            Phase::RussianNewUnits | Phase::CentralNewUnits => {
                let due: Vec<String> = reinforce::due(s, side).iter().map(|u| u.id.clone()).collect();
                let owed: Vec<String> = events::due(s, side).iter().map(|o| format!("event {}", o.event)).collect();
                let withdraw = if owed.is_empty() { String::new() } else { format!("withdraw for {}, ", owed.join(", ")) };
                let mut w = if due.is_empty() {
                    format!("{withdraw}end the phase (no reinforcements due)")
                } else {
                    format!("{withdraw}enter reinforcements ({}), then end the phase", due.join(", "))
                };
                for (nat, left) in withdrawals::outstanding(s, side) {
                    w.push_str(&format!("; withdraw {left} {nat:?} infantry SL (WEF 10.17)"));
                }
                w
            }
            Phase::RussianMovement | Phase::CentralMovement => "move units, then end the phase".into(),
            Phase::RussianStrategic | Phase::CentralStrategic => "move units by rail (WEF 11), then end the phase".into(),
            _ => "attack, or end the phase".into(),
        };
        vec![Await { seat: s.seat(side).into(), what }]
    };
    Expectation { when, awaits }
}

/// Whether the entry must have ended before `a`: a roll is pending, unless `a` is one of the
/// actions 9.9 puts before the ammunition roll.
pub fn must_end(s: &State, a: &Action) -> bool {
    s.battle.is_some() || s.phase == Phase::VictoryCheck || (rolling(s) && !ammunition::before_roll(s, a))
}

/// A roll that ends the entry is waiting: the events roll (7.1) or the ammunition roll (9.9),
/// besides a battle's and the revolution's.
pub fn rolling(s: &State) -> bool {
    events::roll_due(s).is_some() || ammunition::roll_due(s).is_some()
}

/// The side that acts now: the phase's, except while the CP places its ammunition markers
/// in the Russian Combat phase (9.11).
pub fn acting_side(s: &State) -> Side {
    ammunition::placing(s).unwrap_or(s.phase.side())
}
