//! The bot: random legal orders for what is expected now. Every action is tried on a copy
//! of the state with the same code that validates orders, so the result always validates.

use super::combat::{self, RetreatTo};
use super::orders::{Action, ActionKind, Assault, Decide, Enter, Loss, Move, Orders, PhaseName};
use super::state::{BattleKind, Kind, MoveState, Phase, Place, SideId, Stage, State};
use super::supply;
use super::tables::Odds;
use super::turn;
use super::vp;
use crate::dice::Dice;
use crate::geo::hex::HexId;

fn pick<T: Clone>(d: &mut Dice, v: &[T]) -> Option<T> {
    if v.is_empty() { None } else { Some(v[d.roll(v.len() as u32) as usize].clone()) }
}

fn try_push(s: &mut State, side: SideId, acts: &mut Vec<Action>, a: ActionKind) -> bool {
    let mut probe = s.clone();
    if turn::step(&mut probe, side, &a).is_ok() {
        *s = probe;
        acts.push(Action(a));
        true
    } else {
        false
    }
}

fn random_losses(state: &State, units: &[String], lp: u32, d: &mut Dice) -> Vec<Loss> {
    if combat::forced_allocation(state, units, lp).is_some() {
        return vec![];
    }
    let mut left: Vec<(String, u32)> = units.iter().filter_map(|id| state.unit(id)).filter(|u| u.mobile()).map(|u| (u.id.clone(), u.sl as u32)).collect();
    let mut out: Vec<Loss> = Vec::new();
    let mut due = lp;
    while due > 0 {
        let avail: Vec<usize> = (0..left.len()).filter(|&i| left[i].1 > 0).collect();
        let Some(i) = pick(d, &avail) else { break };
        left[i].1 -= 1;
        due -= 1;
        match out.iter_mut().find(|l| l.unit == left[i].0) {
            Some(l) => l.sl += 1,
            None => out.push(Loss { unit: left[i].0.clone(), sl: 1 }),
        }
    }
    out
}

fn decision(state: &State, side: SideId, d: &mut Dice) -> Option<ActionKind> {
    let b = state.battle.as_ref()?;
    let mut cands: Vec<Decide> = Vec::new();
    match b.stage {
        Stage::Defender { lp, .. } => {
            let live = combat::live_defenders(state);
            let losses = random_losses(state, &live, lp, d);
            let mut probe = state.clone();
            for l in &losses {
                vp::lose(&mut probe, &l.unit, l.sl);
            }
            let surv: Vec<String> = combat::live_defenders(&probe).into_iter().filter(|id| probe.unit(id).is_some_and(|u| u.mobile())).collect();
            let opts: Vec<HexId> = if surv.is_empty() { vec![] } else { combat::retreat_options(&probe, b.target, side, &surv).into_iter().filter_map(|o| if let RetreatTo::Hex(h) = o { Some(h) } else { None }).collect() };
            let retreat = if d.roll(2) == 0 { pick(d, &opts) } else { opts.first().copied() };
            cands.push(Decide { losses: losses.clone(), retreat, advance: vec![] });
            cands.push(Decide { losses: losses.clone(), retreat: None, advance: vec![] });
            for h in opts {
                cands.push(Decide { losses: losses.clone(), retreat: Some(h), advance: vec![] });
            }
        }
        Stage::Attacker { lp } => {
            let live = combat::live_attackers(state);
            let losses = random_losses(state, &live, lp, d);
            let mut probe = state.clone();
            for l in &losses {
                vp::lose(&mut probe, &l.unit, l.sl);
            }
            let surv = combat::live_attackers(&probe);
            let adv: Vec<String> = surv.iter().filter(|_| d.roll(2) == 0).cloned().collect();
            cands.push(Decide { losses: losses.clone(), retreat: None, advance: adv });
            if let Some(first) = surv.first() {
                cands.push(Decide { losses: losses.clone(), retreat: None, advance: vec![first.clone()] });
            }
            cands.push(Decide { losses, retreat: None, advance: vec![] });
        }
        Stage::Roll => return None,
    }
    for c in cands {
        let a = ActionKind::Decide(c);
        let mut probe = state.clone();
        if turn::step(&mut probe, side, &a).is_ok() {
            return Some(a);
        }
    }
    None
}

fn random_path(s: &State, from: HexId, len: usize, side: SideId, d: &mut Dice) -> Vec<HexId> {
    let mut path = Vec::new();
    let mut at = from;
    for _ in 0..len {
        let ns: Vec<HexId> = s.board.neighbours(at).iter().copied().filter(|n| s.occupant(*n) != Some(side.other()) && !path.contains(n) && *n != from).collect();
        let Some(n) = pick(d, &ns) else { break };
        path.push(n);
        at = n;
    }
    path
}

/// Random legal orders for `seat`, or `None` if nothing is expected of it.
pub fn random_orders(state: &State, seat: &str, d: &mut Dice) -> Option<Orders> {
    let side = state.side_of(seat)?;
    if turn::actor(state) != Some(side) {
        return None;
    }
    let mut s = state.clone();
    let mut acts = Vec::new();
    if s.battle.is_some() {
        let a = decision(&s, side, d)?;
        try_push(&mut s, side, &mut acts, a);
        // The attacker may go on after his decision; keep it simple and stop here.
        return Some(Orders { actions: acts });
    }
    match s.phase {
        Phase::Movement => {
            let waiting: Vec<String> = s.units.iter().filter(|u| u.side == side && matches!(u.place, Place::Reinforcement(t) if t <= s.turn)).map(|u| u.id.clone()).collect();
            let edge = supply::supply_edge(side);
            let edge_hexes: Vec<HexId> = s.board.hexes.keys().copied().filter(|h| s.board.on_edge(*h, edge)).collect();
            if !s.units.iter().any(|u| u.side == side && u.moved) {
                for id in waiting {
                    for _ in 0..6 {
                        let Some(h) = pick(d, &edge_hexes) else { break };
                        if try_push(&mut s, side, &mut acts, ActionKind::Enter(Enter { unit: id.clone(), hex: h })) {
                            break;
                        }
                    }
                }
            }
            let n = 1 + d.roll(4);
            for _ in 0..n {
                let movable: Vec<String> = s.units.iter().filter(|u| u.side == side && u.move_state == MoveState::NotMoved && !u.attacked && u.kind != Kind::Fortress && u.hex().is_some()).map(|u| u.id.clone()).collect();
                let Some(id) = pick(d, &movable) else { break };
                let Some(from) = s.unit(&id).and_then(|u| u.hex()) else { continue };
                // Sometimes the whole stack moves as a group.
                let group: Vec<String> = if d.roll(3) == 0 { s.units_at(from).filter(|u| u.side == side && u.move_state == MoveState::NotMoved && u.kind != Kind::Fortress).map(|u| u.id.clone()).collect() } else { vec![id.clone()] };
                let len = 1 + d.roll(3) as usize;
                let path = random_path(&s, from, len, side, d);
                let mut moved = false;
                for l in (1..=path.len()).rev() {
                    if try_push(&mut s, side, &mut acts, ActionKind::Move(Move { units: group.clone(), path: path[..l].to_vec() })) {
                        moved = true;
                        break;
                    }
                }
                if !moved {
                    continue;
                }
                // Sometimes a march assault at good odds: that ends the entry.
                if d.roll(2) == 0 {
                    let Some(at) = s.unit(&group[0]).and_then(|u| u.hex()) else { continue };
                    let targets: Vec<HexId> = s.board.neighbours(at).iter().copied().filter(|n| s.occupant(*n) == Some(side.other())).collect();
                    if let Some(t) = pick(d, &targets)
                        && let Ok(b) = combat::declare(&s, BattleKind::March, side, t, &group)
                        && matches!(b.odds, Odds::Column { column, .. } if column >= 2)
                        && try_push(&mut s, side, &mut acts, ActionKind::MarchAssault(Assault { target: t, units: group.clone() }))
                    {
                        return Some(Orders { actions: acts });
                    }
                }
            }
            try_push(&mut s, side, &mut acts, ActionKind::EndPhase(PhaseName::Movement));
        }
        Phase::Combat => {
            // Look at a few enemy hexes; attack the first with good enough odds.
            let enemy_hexes: Vec<HexId> = s.units.iter().filter(|u| u.side == side.other()).filter_map(|u| u.hex()).collect();
            let min_column = if d.roll(3) == 0 { 1 } else { 2 };
            for _ in 0..8 {
                let Some(t) = pick(d, &enemy_hexes) else { break };
                let mut units: Vec<String> = s.units.iter().filter(|u| u.side == side && !u.moved && !u.attacked && !u.ooc && u.kind != Kind::Fortress && u.hex().is_some_and(|h| h.is_adjacent(t))).map(|u| u.id.clone()).collect();
                if side == SideId::Allied
                    && let Some(first) = units.first().and_then(|id| s.unit(id)).map(|u| u.nation.clone())
                {
                    units.retain(|id| s.unit(id).is_some_and(|u| u.nation == first));
                }
                if !units.is_empty()
                    && let Ok(b) = combat::declare(&s, BattleKind::Prepared, side, t, &units)
                    && matches!(b.odds, Odds::Column { column, .. } if column >= min_column)
                    && try_push(&mut s, side, &mut acts, ActionKind::Attack(Assault { target: t, units }))
                {
                    return Some(Orders { actions: acts });
                }
            }
            try_push(&mut s, side, &mut acts, ActionKind::EndPhase(PhaseName::Combat));
        }
    }
    if acts.is_empty() { None } else { Some(Orders { actions: acts }) }
}
