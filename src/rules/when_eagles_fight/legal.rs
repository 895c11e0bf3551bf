//! Legal orders generated from the state: the bot's random play (`umpire demo`, soak tests)
//! and the search for an A-H attack that 3.6 still demands.

use super::orders::{Action, Attack, Decide, Enter, Move, Orders, Rail, Rebuild, Restore, Withdraw};
use super::state::{Kind, Nat, Phase, Side, State, Unit};
use super::{combat, crt, reinforce, replacements, strategic, turn, withdrawals};
use crate::dice::Dice;
use crate::geo::hex::HexId;

/// Units of `side` that may still attack `t` this phase (adjacent, not yet used, not frozen,
/// not across water).
fn available_against(s: &State, side: Side, t: HexId) -> Vec<&Unit> {
    s.units
        .iter()
        .filter(|u| u.side() == side && !s.attacked.contains(&u.id))
        .filter(|u| u.hex().is_some_and(|h| h.is_adjacent(t) && !s.board.lake(h, t) && !s.board.sea_side(h, t)))
        .filter(|u| !super::variants::frozen(s, u))
        .filter(|u| !s.logistics.off_map.contains(&u.id))
        .filter(|u| super::command::may_attack(s, u))
        .collect()
}

/// Hexes holding units of the side opposed to `side` that nobody attacked yet this phase.
fn targets(s: &State, side: Side) -> Vec<HexId> {
    let mut v: Vec<HexId> = s.units.iter().filter(|u| u.side() != side).filter_map(Unit::hex).filter(|h| !s.targets.contains(h)).collect();
    v.sort();
    v.dedup();
    v
}

/// An A-H-only attack at 2:1 or better the CP can still make (3.6), if any.
pub fn ah_qualifying_attack(s: &State) -> Option<Attack> {
    if s.phase != Phase::CentralCombat {
        return None;
    }
    let two_to_one = crt::columns(&s.charts.crt).ok()?.worst as usize;
    targets(s, Side::Central).into_iter().find_map(|t| {
        let units: Vec<String> =
            available_against(s, Side::Central, t).into_iter().filter(|u| u.nat == Nat::AH).map(|u| u.id.clone()).collect();
        if units.is_empty() {
            return None;
        }
        let a = Attack { target: t, units };
        let b = combat::declare(s, Side::Central, &a).ok()?;
        b.column.is_some_and(|c| c >= two_to_one).then_some(a)
    })
}

/// A random attack at 1:1 or better, if one is legal.
fn random_attack(s: &State, side: Side, ch: &mut Dice) -> Option<Attack> {
    let mut ts = targets(s, side);
    ch.shuffle(&mut ts);
    let one_to_one = crt::columns(&s.charts.crt).ok()?.worst as usize - 1;
    for t in ts {
        let all = available_against(s, side, t);
        // Try everyone, then each nationality alone (6.4 may forbid the mix).
        let groups: Vec<Vec<String>> = vec![
            all.iter().map(|u| u.id.clone()).collect(),
            all.iter().filter(|u| u.nat.german() || u.kind == Kind::Heavy).map(|u| u.id.clone()).collect(),
            all.iter().filter(|u| !u.nat.german() && u.kind != Kind::Heavy).map(|u| u.id.clone()).collect(),
        ];
        for units in groups.into_iter().filter(|g| !g.is_empty()) {
            let a = Attack { target: t, units };
            if let Ok(b) = combat::declare(s, side, &a)
                && b.column.is_some_and(|c| c >= one_to_one)
            {
                return Some(a);
            }
        }
    }
    None
}

/// Random legal orders for `seat`, or `None` when nothing is expected of it.
pub fn random_orders(s: &State, seat: &str, ch: &mut Dice) -> Option<Orders> {
    let side = s.side_of(seat)?;
    if s.outcome.is_none() && s.battle.is_none() {
        if let Some(d) = &s.decision {
            return (d.decider() == side).then(|| Orders { actions: vec![Action::Decide(random_decision(s, side, ch))] });
        }
        if let Some((h, who)) = super::overstack::pending(s) {
            let ids = super::overstack::minimum(s, h).1;
            return (who == side).then_some(Orders { actions: vec![Action::RemoveOverstack(ids)] });
        }
    }
    if s.outcome.is_some() || s.battle.is_some() || s.phase == Phase::VictoryCheck || turn::rolling(s) || turn::actor(s) != side {
        return None;
    }
    if let Some(o) = super::deploy::bot_orders(s, side, ch) {
        return Some(o);
    }
    if super::ammunition::placing(s) == Some(side) {
        return Some(Orders { actions: vec![super::ammunition::bot_place(s, side, ch)] });
    }
    let mut work = s.clone();
    let mut actions = Vec::new();
    let push = |work: &mut State, a: Action, actions: &mut Vec<Action>| {
        if turn::step(work, side, &a).is_ok() {
            actions.push(a);
        }
    };
    match s.phase {
        Phase::RussianNewUnits | Phase::CentralNewUnits => {
            let due: Vec<String> = reinforce::due(s, side).iter().map(|u| u.id.clone()).collect();
            for id in due {
                let Some(u) = work.unit(&id) else { continue };
                let opts = reinforce::options(&work, u);
                if opts.is_empty() {
                    continue;
                }
                let hex = opts[ch.roll(opts.len() as u32) as usize];
                push(&mut work, Action::Enter(Enter { unit: id, hex }), &mut actions);
            }
            new_units(&mut work, side, ch, &mut actions);
            for a in super::events::bot_withdrawals(&work, side, ch) {
                push(&mut work, a, &mut actions);
            }
        }
        Phase::RussianStrategic | Phase::CentralStrategic => {
            for _ in 0..3 {
                let opts = strategic::options(&work, side);
                if opts.is_empty() || ch.roll(2) == 0 {
                    break;
                }
                let (unit, tos) = &opts[ch.roll(opts.len() as u32) as usize];
                let to = tos[ch.roll(tos.len() as u32) as usize];
                push(&mut work, Action::Rail(Rail { unit: unit.clone(), to }), &mut actions);
            }
        }
        Phase::RussianMovement | Phase::CentralMovement => {
            let mut ids: Vec<String> =
                s.units.iter().filter(|u| u.side() == side && u.hex().is_some() && u.factors()[2] > 0).map(|u| u.id.clone()).collect();
            ch.shuffle(&mut ids);
            for id in ids.into_iter().take(12) {
                if ch.roll(3) != 0 {
                    continue;
                }
                let Some(from) = work.unit(&id).and_then(Unit::hex) else { continue };
                let mut path = Vec::new();
                let mut at = from;
                for _ in 0..=ch.roll(2) {
                    let nbrs: Vec<HexId> = at.neighbours().into_iter().map(|(_, h)| h).filter(|h| work.board.get(*h).is_some()).collect();
                    if nbrs.is_empty() {
                        break;
                    }
                    at = nbrs[ch.roll(nbrs.len() as u32) as usize];
                    path.push(at);
                }
                while !path.is_empty() {
                    let m = Move { units: vec![id.clone()], path: path.clone() };
                    if turn::step(&mut work.clone(), side, &Action::Move(m.clone())).is_ok() {
                        push(&mut work, Action::Move(m), &mut actions);
                        break;
                    }
                    path.pop();
                }
            }
        }
        Phase::RussianCombat | Phase::CentralCombat | Phase::OberOstCombat => {
            // 14.2, 14.3: now and then a headquarters marker opens the phase.
            if s.attacked.is_empty() && s.targets.is_empty() && ch.roll(2) == 0 {
                headquarters(&mut work, side, ch, &mut actions);
            }
            let s = &work;
            let attack = if super::variants::rigid_planning(s) && side == Side::Central && s.ah_good_attacks < 3 {
                ah_qualifying_attack(s)
            } else {
                None
            };
            let attack = attack.or_else(|| if ch.roll(2) == 0 { random_attack(s, side, ch) } else { None });
            if let Some(a) = attack {
                actions.push(Action::Attack(a));
                return Some(Orders { actions });
            }
        }
        Phase::VictoryCheck => return None,
    }
    // 13.7: the CP turns some of his stacks face down before leaving a movement phase.
    if s.phase == Phase::CentralMovement {
        actions.extend(super::fog::bot_hides(&work, ch));
    }
    actions.push(Action::EndPhase);
    // 9.9: STAVKA goes down before the ammunition roll, so after the movement phase's end.
    // 15.1 and 9.9: the Brusilov declaration and then STAVKA open the Combat phase before the
    // ammunition roll, so they follow the movement phase's end in the same entry.
    if s.phase == Phase::RussianMovement && turn::step(&mut work, side, &Action::EndPhase).is_ok() {
        if super::brusilov::check(&work, side).is_empty() && ch.roll(3) == 0 {
            push(&mut work, Action::Brusilov, &mut actions);
        }
        if ch.roll(2) == 0 {
            headquarters(&mut work, side, ch, &mut actions);
        }
    }
    Some(Orders { actions })
}

/// Now and then STAVKA (14.2) or OberOst (14.3) on a hex of the side's where it may go.
fn headquarters(work: &mut State, side: Side, ch: &mut Dice, actions: &mut Vec<Action>) {
    let mut hexes: Vec<HexId> = work.units.iter().filter(|u| u.side() == side).filter_map(Unit::hex).collect();
    hexes.sort();
    hexes.dedup();
    ch.shuffle(&mut hexes);
    for h in hexes.into_iter().take(12) {
        let a = if side == Side::Russian { Action::Stavka(h) } else { Action::Oberost(h) };
        if turn::step(work, side, &a).is_ok() {
            actions.push(a);
            return;
        }
    }
}

/// The bot's replacements and withdrawals (10.8–10.17): now and then a restoration or a
/// rebuild while SL last, then every withdrawal due, with units picked at random.
fn new_units(work: &mut State, side: Side, ch: &mut Dice, actions: &mut Vec<Action>) {
    let push = |work: &mut State, a: Action, actions: &mut Vec<Action>| {
        if turn::step(work, side, &a).is_ok() {
            actions.push(a);
        }
    };
    let mut reduced: Vec<String> = work
        .units
        .iter()
        .filter(|u| u.side() == side && u.hex().is_some() && u.max_sl() == 2 && u.sl == 1 && !u.star)
        .map(|u| u.id.clone())
        .collect();
    ch.shuffle(&mut reduced);
    for id in reduced.into_iter().take(3) {
        if ch.roll(2) == 0 {
            push(work, Action::Restore(Restore { unit: id }), actions);
        }
    }
    let mut dead: Vec<String> = work
        .units
        .iter()
        .filter(|u| u.side() == side && u.place == super::state::Place::Eliminated && !u.star)
        .map(|u| u.id.clone())
        .collect();
    ch.shuffle(&mut dead);
    for id in dead.into_iter().take(2) {
        let sl = work.unit(&id).map(|u| u.max_sl()).unwrap_or(1);
        let sl = if sl == 2 && ch.roll(2) == 0 { 1 } else { sl };
        let hexes = replacements::rebuild_hexes(work, &id, sl);
        if hexes.is_empty() {
            continue;
        }
        let hex = hexes[ch.roll(hexes.len() as u32) as usize];
        push(work, Action::Rebuild(Rebuild { unit: id, hex, sl }), actions);
    }
    while let Some((nat, _)) = withdrawals::outstanding(work, side).into_iter().next() {
        let c: Vec<String> = withdrawals::candidates(work, side, nat).iter().map(|u| u.id.clone()).collect();
        if c.is_empty() {
            break;
        }
        let unit = c[ch.roll(c.len() as u32) as usize].clone();
        let before = actions.len();
        push(work, Action::Withdraw(Withdraw { unit }), actions);
        if actions.len() == before {
            break;
        }
    }
}

/// A random allocation of `lp` steps among `units` (13.23).
fn random_losses(s: &State, units: &[String], lp: u32, ch: &mut Dice) -> Vec<String> {
    let mut left: Vec<(String, u8)> = units.iter().filter_map(|id| s.unit(id)).map(|u| (u.id.clone(), u.sl)).collect();
    let mut out = Vec::new();
    for _ in 0..lp {
        let open: Vec<usize> = (0..left.len()).filter(|&i| left[i].1 > 0).collect();
        if open.is_empty() {
            break;
        }
        let i = open[ch.roll(open.len() as u32) as usize];
        left[i].1 -= 1;
        out.push(left[i].0.clone());
    }
    out
}

/// A random legal decision of `side` in the waiting battle (13.22-13.27); the plainest one
/// (no retreat, no advance, steps in a fixed order) when the random tries fail.
fn random_decision(s: &State, side: Side, ch: &mut Dice) -> Decide {
    use super::retreat::{self, Stage};
    let Some(d) = &s.decision else { return Decide::default() };
    let t = d.battle.target;
    let ok = |dc: &Decide| retreat::decide(&mut s.clone(), side, dc).is_ok();
    let mut tries: Vec<Decide> = Vec::new();
    let plain = match d.stage {
        Stage::Cavalry => {
            if let Some((_, opts)) = retreat::cavalry_may_retreat(s, &d.battle)
                && ch.roll(2) == 0
            {
                tries.push(Decide { retreat: Some(opts[ch.roll(opts.len() as u32) as usize]), ..Decide::default() });
            }
            Decide::default()
        }
        Stage::Defender { lp } => {
            let takers = retreat::step_takers(
                s,
                &d.battle.defenders.iter().filter(|id| s.unit(id).is_some_and(|u| u.at(t))).cloned().collect::<Vec<_>>(),
            );
            if lp > 0 && ch.roll(2) == 0 {
                let losses = random_losses(s, &takers, lp - 1, ch);
                let mut probe = s.clone();
                for id in &losses {
                    if let Some(u) = probe.unit_mut(id) {
                        u.sl = u.sl.saturating_sub(1);
                        if u.sl == 0 {
                            u.place = super::state::Place::Eliminated;
                        }
                    }
                }
                let going: Vec<String> = d.battle.defenders.iter().filter(|id| probe.unit(id).is_some_and(|u| u.at(t))).cloned().collect();
                let opts = retreat::retreat_options(&probe, side, t, &going);
                if !opts.is_empty() {
                    tries.push(Decide { losses, retreat: Some(opts[ch.roll(opts.len() as u32) as usize]), advance: vec![] });
                }
            }
            tries.push(Decide { losses: random_losses(s, &takers, lp, ch), ..Decide::default() });
            Decide { losses: retreat::default_losses(s, &takers, lp), ..Decide::default() }
        }
        Stage::Attacker { lp, breakthrough } => {
            let live: Vec<String> = d.battle.attackers.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex().is_some())).cloned().collect();
            let takers = retreat::step_takers(s, &live);
            let losses = random_losses(s, &takers, lp, ch);
            let going: Vec<String> = live.iter().filter(|_| ch.roll(2) == 0).cloned().collect();
            if !going.is_empty() && ch.roll(3) != 0 {
                let mut path = vec![t];
                if breakthrough {
                    let mut at = t;
                    for _ in 0..ch.roll(3) {
                        let nbrs: Vec<HexId> = at.neighbours().into_iter().map(|(_, h)| h).filter(|h| s.board.get(*h).is_some()).collect();
                        if nbrs.is_empty() {
                            break;
                        }
                        at = nbrs[ch.roll(nbrs.len() as u32) as usize];
                        path.push(at);
                    }
                }
                let mut advance = vec![Move { units: going.clone(), path: path.clone() }];
                if breakthrough {
                    let hexes = live.iter().filter_map(|id| s.unit(id)).filter_map(Unit::hex).collect();
                    let extra = super::advance::neighbours(s, d, &hexes);
                    if let Some(n) = extra.first() {
                        advance.push(Move { units: vec![n.clone()], path: vec![t] });
                    }
                }
                tries.push(Decide { losses: losses.clone(), advance, ..Decide::default() });
                tries.push(Decide { losses: losses.clone(), advance: vec![Move { units: going, path: vec![t] }], ..Decide::default() });
            }
            tries.push(Decide { losses, ..Decide::default() });
            Decide { losses: retreat::default_losses(s, &takers, lp), ..Decide::default() }
        }
    };
    tries.into_iter().find(|dc| ok(dc)).unwrap_or(plain)
}
