//! The sequence of play (GE-5.2) as played in this slice, and the dispatcher that checks and
//! applies each action of an entry in order.
//!
//! Per player turn: A (replacements, `replacements.rs`; reinforcements are placed at the start
//! of E), C (the command & control roll from `command_from`, `command.rs`), E (operational
//! movement with march assaults), F (prepared assaults), G (attrition, `attrition.rs`) and H
//! (victory check) are played, and B (entrenchment from T10, `entrench.rs`) and D (strategic
//! movement, `strategic.rs`: a window at the start of E, before any unit moves).

use super::campaign;
use super::combat::{self, RetreatTo};
use super::command;
use super::movement;
use super::orders::{ActionKind, Decide, PhaseName};
use super::replacements;
use super::state::{BattleKind, CommandStage, MoveState, Phase, RetreatNeed, SideId, Stage, State};
use super::supply;
use super::vp;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// The side that must act now (a decision, or the phasing player), `None` when a roll is
/// pending or the game is over.
pub fn actor(state: &State) -> Option<SideId> {
    if state.outcome.is_some() {
        return None;
    }
    if let Some(CommandStage::Pick { .. }) = state.command {
        return Some(state.player.other());
    }
    match &state.battle {
        Some(b) => match b.stage {
            Stage::Roll => None,
            Stage::Defender { .. } | Stage::Withdraw | Stage::Opening { .. } => Some(b.attacker.other()),
            Stage::Attacker { .. } => Some(b.attacker),
        },
        None => Some(state.player),
    }
}

/// Check one action against `state` and, if legal, apply it; in a campaign, with the
/// campaign's checks before and its bookkeeping after (`campaign.rs`).
pub fn step(state: &mut State, side: SideId, action: &ActionKind) -> Result<Vec<Event>, Vec<Violation>> {
    let hidden = super::counters::check_action(state, action);
    if !hidden.is_empty() {
        return Err(hidden);
    }
    if state.campaign.is_none() {
        return step_rules(state, side, action);
    }
    campaign::before_step(state, side, action)?;
    super::withdrawal::before(state, side, action)?;
    super::hentsch::before(state, side, action)?;
    let target = state.battle.as_ref().map(|b| b.target);
    let plan = match action {
        ActionKind::Attack(a) if campaign::plan_xvii_qualifies(state, side, a.target, &a.units) => Some(a.target),
        ActionKind::MarchAssault(a) if campaign::plan_xvii_qualifies(state, side, a.target, &a.units) => Some(a.target),
        _ => None,
    };
    let mut ev = step_rules(state, side, action)?;
    if let Some(t) = plan {
        ev.extend(campaign::plan_xvii(state, t));
    }
    let advanced = match action {
        ActionKind::Decide(d) if !d.advance.is_empty() => target,
        _ => None,
    };
    ev.extend(super::withdrawal::after(state, action));
    ev.extend(campaign::after_step(state, advanced));
    Ok(ev)
}

/// Check one action against `state` and, if legal, apply it.
fn step_rules(state: &mut State, side: SideId, action: &ActionKind) -> Result<Vec<Event>, Vec<Violation>> {
    if state.outcome.is_some() {
        return Err(vec![v("GE 16.4", "the game is over")]);
    }
    if let ActionKind::Standing(st) = action {
        return file_standing(state, side, st);
    }
    // Both sides open their counters when the game is over, in any order (GE 13.8).
    if let ActionKind::OpenCounters(_) = action {
        return super::counters::step_open_counters(state, side);
    }
    if let Some(b) = &state.battle
        && b.stage == Stage::Roll
    {
        return Err(vec![v("GE 13.3", format!("the {} awaits its die roll: the entry ends at its first random action", b.kind.name()))]);
    }
    if let Some(what) = super::lead::due(state) {
        return Err(vec![v(
            if what.starts_with("entrenchment") { "GE 9.1" } else { "GE 10.1" },
            format!("the player turn opens with its {what}: umpire rolls it before the entry's orders (a leading roll)"),
        )]);
    }
    let Some(who) = actor(state) else { return Err(vec![v("GE 5.1", "nothing is expected now")]) };
    if who != side {
        let what = if state.battle.is_some() { "a combat decision" } else { "orders" };
        return Err(vec![v("GE 5.1", format!("it is the {} player's turn to send {what}", who.title()))]);
    }
    if let Some(CommandStage::Pick { count }) = state.command {
        let ActionKind::OutOfCommand(hexes) = action else {
            return Err(vec![v(
                "GE 10.1",
                format!("name {count} stacks of the {} player to go out of command first (out_of_command)", state.player.title()),
            )]);
        };
        return command::pick(state, count, hexes);
    }
    if state.battle.is_some() {
        let ActionKind::Decide(d) = action else {
            return Err(vec![v("GE 13.17", "the battle's results must be decided first (a decide action)")]);
        };
        return decide(state, side, d);
    }
    // A hex number that is not on this map is named as such, before any rule about it.
    let named: Vec<(&str, HexId)> = match action {
        ActionKind::Move(m) => m.path.iter().map(|h| ("GE 12.1", *h)).collect(),
        ActionKind::MarchAssault(a) | ActionKind::Attack(a) => vec![("GE 13.4", a.target)],
        ActionKind::Enter(e) => vec![("GE 8.5", e.hex)],
        ActionKind::Strategic(sm) => vec![("GE 11.1", sm.to)],
        ActionKind::OutOfCommand(hexes) => hexes.iter().map(|h| ("GE 10.1", *h)).collect(),
        _ => vec![],
    };
    let off: Vec<Violation> = named
        .into_iter()
        .filter(|(_, h)| !state.board.map().contains(*h))
        .map(|(rule, h)| v(rule, format!("{h} is not a hex of this map")).hex(h.to_string()))
        .collect();
    if !off.is_empty() {
        return Err(off);
    }
    match action {
        ActionKind::Decide(_) => Err(vec![v("GE 13.17", "there is no combat decision to make")]),
        ActionKind::OutOfCommand(_) => Err(vec![v("GE 10.1", "no command & control roll of 6 awaits your choice")]),
        ActionKind::Deploy(_) => Err(vec![v("GE 3.3", "there is no secret setup in progress")]),
        ActionKind::Hide(h) => super::counters::step_hide(state, side, h),
        ActionKind::OpenCounters(_) => super::counters::step_open_counters(state, side),
        ActionKind::Entrench(units) => super::entrench::step_entrench(state, side, units),
        ActionKind::Enter(e) => movement::step_enter(state, side, &e.unit, e.hex),
        ActionKind::Replace(r) => replacements::step_replace(state, side, &r.unit, r.hex),
        ActionKind::Withdraw(w) => super::withdrawal::step(state, side, w),
        ActionKind::Move(m) => movement::step_move(state, side, &m.units, &m.path),
        ActionKind::MarchAssault(a) => {
            if state.phase != Phase::Movement {
                return Err(vec![v("GE 13.23", "march assaults are made in the operational movement phase")]);
            }
            let mut errs = Vec::new();
            if !a.siege.is_empty() {
                errs.push(v("GE 14.7", "siege guns fire only in a prepared assault"));
            }
            let mut hex = None;
            for id in &a.units {
                if let Some(u) = state.unit(id) {
                    if u.strategic.is_some() {
                        errs.push(v("GE 13.22", "a unit that used strategic movement does not attack this player turn").unit(id));
                    }
                    if u.forced_march {
                        errs.push(v("GE 12.10", "a unit that force-marched may not march-assault this player turn").unit(id));
                    }
                    if u.move_state == MoveState::Done && !u.attacked {
                        errs.push(v("GE 13.23", "only the unit or group moving now may march-assault").unit(id));
                    }
                    if let Some(h) = u.hex() {
                        if hex.is_some_and(|x| x != h) {
                            errs.push(v("GE 13.23", "the march-assaulting units must be stacked together").unit(id));
                        }
                        hex = Some(h);
                        // GE-13.23: enough MP left to enter the target as if it were empty.
                        if h.is_adjacent(a.target) && u.side == side {
                            match state.board.entry_cost(h, a.target) {
                                Some(c) if c <= u.mp_left() => {}
                                Some(c) => errs.push(
                                    v("GE 13.23", format!("entering {} would cost {c} MP; the unit has {} left", a.target, u.mp_left()))
                                        .unit(id)
                                        .hex(a.target.to_string()),
                                ),
                                None => errs.push(v("GE 13.23", format!("{} cannot be entered from {h}", a.target)).unit(id)),
                            }
                        }
                    }
                }
            }
            let moving_now: Vec<String> =
                state.units.iter().filter(|u| u.move_state == MoveState::Moving && u.side == side).map(|u| u.id.clone()).collect();
            let all_moving = a.units.iter().all(|id| moving_now.contains(id));
            let any_moving = a.units.iter().any(|id| moving_now.contains(id));
            if any_moving && !all_moving {
                errs.push(v("GE 13.23", "the march-assaulting force is exactly the moving unit or group"));
            }
            let battle = combat::declare(state, BattleKind::March, side, a.target, &a.units);
            if let Err(e) = &battle {
                errs.extend(e.iter().cloned());
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            let Ok(battle) = battle else { return Err(errs) };
            if !any_moving {
                for u in state.units.iter_mut().filter(|u| u.move_state == MoveState::Moving) {
                    u.move_state = MoveState::Done;
                }
            }
            Ok(combat::start(state, battle))
        }
        ActionKind::Attack(a) => {
            if state.phase != Phase::Combat {
                return Err(vec![v("GE 13.1", "prepared assaults are made in the prepared assault phase (end the movement phase first)")]);
            }
            let sm = combat::moved_strategically(state, &a.units);
            if !sm.is_empty() {
                return Err(sm);
            }
            if !a.siege.is_empty() {
                return super::siege::step_attack(state, side, a);
            }
            let battle = combat::declare(state, BattleKind::Prepared, side, a.target, &a.units)?;
            Ok(combat::start(state, battle))
        }
        ActionKind::Attacks(list) => combat::declare_batch(state, side, list),
        ActionKind::EndPhase(p) => end_phase(state, *p),
        ActionKind::Standing(st) => file_standing(state, side, st),
        ActionKind::Strategic(sm) => super::strategic::step(state, side, sm),
        ActionKind::ForcedMarch(units) => super::strategic::step_forced_march(state, side, units),
    }
}

/// File standing instructions (`standing.rs`); a decision of this side that is waiting now
/// is answered by them at once if they cover it.
fn file_standing(state: &mut State, side: SideId, st: &super::standing::Standing) -> Result<Vec<Event>, Vec<Violation>> {
    let errs = super::standing::check(state, side, st);
    if !errs.is_empty() {
        return Err(errs);
    }
    if st.is_empty() {
        state.standing.remove(&side);
    } else {
        state.standing.insert(side, st.clone());
    }
    let mut ev = vec![Event::say(format!("{} standing instructions: {}", side.title(), st.describe()))];
    if let Some(CommandStage::Pick { count }) = state.command
        && actor(state) == Some(side)
        && let Some(hexes) = super::standing::ooc_picks(state, count)
    {
        ev.extend(command::pick(state, count, &hexes)?);
    }
    if state.battle.is_some() && actor(state) == Some(side) {
        let was_withdraw = state.battle.as_ref().is_some_and(|b| b.stage == Stage::Withdraw);
        ev.extend(combat::advance_stages(state));
        mark_stood(state, was_withdraw);
    }
    Ok(ev)
}

/// The defender answered a waiting 13.25 choice by standing in his own entry: the roll is
/// that entry's, revealed by the attacker's next entry.
fn mark_stood(state: &mut State, was_withdraw: bool) {
    if was_withdraw
        && let Some(b) = state.battle.as_mut()
        && b.stage == Stage::Roll
    {
        b.stood = true;
    }
}

/// The loss allocation to apply (the forced one when none is given, GE-13.20) and the state
/// after it; a refused allocation adds its violations to `errs`.
fn allocate(state: &State, live: &[String], lp: u32, losses: &[(String, u32)], errs: &mut Vec<Violation>) -> (Vec<(String, u32)>, State) {
    let alloc = match combat::forced_allocation(state, live, lp) {
        Some(f) if losses.is_empty() => f,
        _ => {
            errs.extend(combat::check_allocation(state, live, lp, losses));
            losses.to_vec()
        }
    };
    let mut probe = state.clone();
    for (id, sl) in &alloc {
        vp::lose(&mut probe, id, *sl);
    }
    (alloc, probe)
}

fn decide(state: &mut State, side: SideId, d: &Decide) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(b) = state.battle.clone() else { return Err(vec![v("GE 13.17", "there is no combat decision to make")]) };
    let losses: Vec<(String, u32)> = d.losses.iter().map(|l| (l.unit.clone(), l.sl)).collect();
    let mut errs = Vec::new();
    match b.stage {
        Stage::Withdraw => {
            if !d.advance.is_empty() || !d.losses.is_empty() {
                errs.push(v("GE 13.25", "before combat the cavalry only withdraws (retreat: HEX) or stands (no retreat)"));
            }
            let opts = combat::withdraw_options(state).map(|(_, o)| o).unwrap_or_default();
            if let Some(h) = d.retreat
                && !opts.contains(&RetreatTo::Hex(h))
            {
                let hexes: Vec<String> =
                    opts.iter().filter_map(|o| if let RetreatTo::Hex(h) = o { Some(h.to_string()) } else { None }).collect();
                errs.push(
                    v("GE 13.25", format!("{h} is not a legal withdrawal hex (13.19's best tier); choose {}", hexes.join(" or ")))
                        .hex(h.to_string()),
                );
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            let ev = match d.retreat {
                Some(h) => combat::withdraw(state, h),
                None => {
                    let mut ev = vec![Event::rule("GE 13.25", format!("the {} cavalry stands and fights", side.title()))];
                    ev.extend(combat::fight(state));
                    mark_stood(state, true);
                    ev
                }
            };
            Ok(ev)
        }
        Stage::Defender { lp, retreat } => {
            if !d.advance.is_empty() {
                errs.push(v("GE 13.21", "defenders never advance after combat"));
            }
            let live = combat::live_defenders(state);
            // GE 14.5: retreating out of a fortress destroys it, and its own SL count toward
            // the loss: the mobile units take only the rest.
            let credit = if d.retreat.is_some() && retreat != RetreatNeed::None { combat::fortress_credit(state, &live) } else { 0 };
            let (alloc, probe) = if credit > 0 {
                let (mobile, rest_lp, rest) = combat::fortress_retreat_losses(state, &live, lp, &losses, &mut errs);
                allocate(state, &mobile, rest_lp, &rest, &mut errs)
            } else {
                allocate(state, &live, lp, &losses, &mut errs)
            };
            // Retreat options for the survivors of this allocation.
            let survivors: Vec<String> =
                combat::live_defenders(&probe).into_iter().filter(|id| probe.unit(id).is_some_and(|u| u.mobile())).collect();
            let opts = if survivors.is_empty() { vec![] } else { combat::retreat_options(&probe, b.target, side, &survivors) };
            let hexes: Vec<String> =
                opts.iter().filter_map(|o| if let RetreatTo::Hex(h) = o { Some(h.to_string()) } else { None }).collect();
            let chosen = match (d.retreat, retreat) {
                (Some(_), _) if survivors.is_empty() => {
                    errs.push(v("GE 13.18", "no defending unit survives to retreat"));
                    None
                }
                (Some(_), RetreatNeed::None) => {
                    errs.push(v("GE 13.18", "the result allows no retreat (no R and no defender loss)"));
                    None
                }
                (Some(h), _) => {
                    if opts.contains(&RetreatTo::Hex(h)) {
                        Some(RetreatTo::Hex(h))
                    } else {
                        errs.push(
                            v(
                                "GE 13.19",
                                format!(
                                    "{h} is not a legal retreat hex of the best preference; choose {}",
                                    if hexes.is_empty() { "none (no retreat possible)".to_string() } else { hexes.join(" or ") }
                                ),
                            )
                            .hex(h.to_string()),
                        );
                        None
                    }
                }
                (None, RetreatNeed::Mandatory) if !survivors.is_empty() => {
                    if opts.len() == 1 {
                        Some(opts[0].clone())
                    } else if opts.is_empty() {
                        None
                    } else {
                        errs.push(v("GE 13.18", format!("the retreat is mandatory: choose {}", hexes.join(" or "))));
                        None
                    }
                }
                (None, _) => None,
            };
            if !errs.is_empty() {
                return Err(errs);
            }
            let mut ev = Vec::new();
            if credit > 0 && chosen.is_some() {
                ev.push(Event::rule("GE 14.5", format!("the fortress's own {credit} SL count toward the {lp} LP")));
            }
            ev.extend(combat::apply_defender(state, &alloc, chosen, retreat == RetreatNeed::Mandatory));
            ev.extend(combat::advance_stages(state));
            Ok(ev)
        }
        Stage::Attacker { lp } => {
            if d.retreat.is_some() {
                errs.push(v("GE 13.18", "attackers never retreat"));
            }
            let (alloc, probe) = allocate(state, &combat::live_attackers(state), lp, &losses, &mut errs);
            if !d.advance.is_empty() {
                if probe.occupant(b.target) == Some(side.other()) {
                    errs.push(v("GE 13.21", "the defending hex is not empty: no advance").hex(b.target.to_string()));
                }
                let surv = combat::live_attackers(&probe);
                for (i, id) in d.advance.iter().enumerate() {
                    if !surv.contains(id) || d.advance[..i].contains(id) {
                        errs.push(v("GE 13.21", "only surviving attackers of this battle advance, once each").unit(id));
                    }
                }
                if probe.trenches.get(&b.target).is_some_and(|t| t.side != side) {
                    for id in d.advance.iter().filter(|id| probe.unit(id).is_some_and(|u| u.kind == super::state::Kind::Cavalry)) {
                        errs.push(v("GE 9.4", "cavalry may not advance into an enemy trench hex").unit(id).hex(b.target.to_string()));
                    }
                }
                if errs.is_empty() {
                    errs.extend(super::stacking::can_end(&probe, b.target, side, &d.advance));
                }
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            Ok(combat::apply_attacker(state, &alloc, &d.advance))
        }
        Stage::Roll => Err(vec![v("GE 13.3", "the die has not been rolled yet")]),
        Stage::Opening { .. } => Err(vec![super::counters::opening_refusal(state)]),
    }
}

/// End phase E or F (GE-5.1: strictly in order).
pub fn end_phase(state: &mut State, p: PhaseName) -> Result<Vec<Event>, Vec<Violation>> {
    match (state.phase, p) {
        (_, PhaseName::Command) => {
            Err(vec![v("GE 10.1", "phase C needs no order: the command & control roll opens the player turn by itself (a leading roll)")])
        }
        (Phase::Command, _) => Err(vec![v("GE 10.1", "the out-of-command stacks of phase C are named first")]),
        (Phase::Movement, PhaseName::Movement) => {
            for u in state.units.iter_mut() {
                u.move_state = MoveState::Done;
                u.defended = false;
                u.retreated = false;
            }
            state.phase = Phase::Combat;
            Ok(vec![Event::rule("GE 5.2", format!("{} player: end of phase E; phase F: prepared assault", state.player.title()))])
        }
        (Phase::Combat, PhaseName::Combat) => {
            let mut ev = super::entrench::end_of_pa(state);
            ev.extend(end_player_turn(state));
            Ok(ev)
        }
        (Phase::Movement, PhaseName::Combat) => Err(vec![v("GE 5.1", "end the movement phase first (end_phase: movement)")]),
        (Phase::Combat, PhaseName::Movement) => Err(vec![v("GE 5.1", "the movement phase is over; phases cannot be replayed")]),
    }
}

/// Phases G and H, then the next player turn (or the end of the scenario).
pub fn end_player_turn(state: &mut State) -> Vec<Event> {
    let mut ev = super::attrition::phase(state);
    ev.push(Event::rule("GE 4.1", "phase H: victory check"));
    if state.player == SideId::German
        && let Some(o) = vp::german_auto_win(state)
    {
        ev.push(Event::rule("GE 16.4", crate::engine::game::describe_outcome(&o)));
        state.outcome = Some(o);
        return ev;
    }
    if let Some(o) = campaign::victory_check(state) {
        ev.push(Event::rule("GE 4.1", crate::engine::game::describe_outcome(&o)));
        state.outcome = Some(o);
        return ev;
    }
    for u in state.units.iter_mut() {
        u.ooc = false;
        u.replaced = false;
        u.entrenching = false;
        u.moved = false;
        u.attacked = false;
        u.defended = false;
        u.retreated = false;
        u.move_state = MoveState::NotMoved;
        u.mp_spent = 0;
        u.strategic = None;
        u.forced_march = false;
    }
    state.towns_changed.clear();
    if state.player == SideId::German {
        // GE 7.3: the game turn ends with the German player turn.
        state.towns_changed_turn.clear();
    }
    state.ma_targets.clear();
    state.entrench = None;
    if state.player == SideId::German {
        if state.turn >= state.last_turn {
            let o = vp::final_outcome(state);
            ev.push(Event::rule("GE 16.4", format!("the scenario ends: {}", crate::engine::game::describe_outcome(&o))));
            state.outcome = Some(o);
            super::counters::mark_final_count(state);
            return ev;
        }
        state.turn += 1;
        state.player = SideId::Allied;
    } else {
        state.player = SideId::German;
    }
    ev.extend(start_player_turn(state));
    ev
}

/// Start a player turn: skipped phases, supply at the start of movement.
pub fn start_player_turn(state: &mut State) -> Vec<Event> {
    state.phase = Phase::Movement;
    let side = state.player;
    // GE 7.3, 4.8: towns held by cavalry presence alone, before anyone moves.
    state.note_towns_at_start();
    supply::mark_start_of_movement(state);
    let mut ev = vec![Event::rule("GE 5.2", format!("{}, {} player turn", state.turn_text(), side.title()))];
    ev.extend(replacements::income(state));
    let b = if state.turn >= super::entrench::FROM_TURN {
        "phase B: entrenchment (the roll opens the entry; entrench: [ID] before any unit moves)"
    } else {
        "phase B: no entrenchment before turn 10 (GE 9)"
    };
    if state.turn >= state.command_from {
        state.phase = Phase::Command;
        ev.push(Event::rule(
            "GE 5.2",
            format!(
                "phase A: replacements (reinforcements are placed in phase E); {b}; phase C: command & control, rolled as the player's next entry opens"
            ),
        ));
    } else {
        ev.extend([
            Event::rule("GE 5.2", format!("phase A: reinforcements (placed in phase E, see docs) and replacements are given with the movement orders; {b}; phase C: no command & control roll this turn (GE 16.3)")),
            super::strategic::phase_d(state),
        ]);
    }
    ev
}
