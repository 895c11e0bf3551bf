//! Legal orders generated from the state: the bot's random play (`umpire demo`, soak tests)
//! and the search for an A-H attack that 3.6 still demands.

use super::orders::{Action, Attack, Enter, Move, Orders};
use super::state::{Kind, Nat, Phase, Side, State, Unit};
use super::{combat, crt, reinforce, turn};
use crate::dice::Dice;
use crate::geo::hex::HexId;

/// Units of `side` that may still attack `t` this phase (adjacent, not yet used, not frozen,
/// not across water).
fn available_against(s: &State, side: Side, t: HexId) -> Vec<&Unit> {
    s.units
        .iter()
        .filter(|u| u.side() == side && !s.attacked.contains(&u.id))
        .filter(|u| u.hex().is_some_and(|h| h.is_adjacent(t) && !s.board.lake(h, t) && !s.board.sea_side(h, t)))
        .filter(|u| !(s.turn == 1 && u.nat == Nat::AH && u.army == Some(2)))
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
    if s.outcome.is_some() || s.battle.is_some() || s.phase == Phase::VictoryCheck || turn::rolling(s) || turn::acting_side(s) != side {
        return None;
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
            for a in super::events::bot_withdrawals(&work, side, ch) {
                push(&mut work, a, &mut actions);
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
        Phase::RussianCombat | Phase::CentralCombat => {
            let attack = if s.turn == 1 && side == Side::Central && s.ah_good_attacks < 3 { ah_qualifying_attack(s) } else { None };
            let attack = attack.or_else(|| if ch.roll(2) == 0 { random_attack(s, side, ch) } else { None });
            if let Some(a) = attack {
                return Some(Orders { actions: vec![Action::Attack(a)] });
            }
        }
        Phase::VictoryCheck => return None,
    }
    actions.push(Action::EndPhase);
    Some(Orders { actions })
}
