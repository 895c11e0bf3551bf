//! The German Eastern Front withdrawal (GE 8.8; 4.4; G.4 item 3: turn 5, not 4).
//!
//! In his turn-5 R&R phase the German either sends two supplied full-strength infantry corps
//! with an attack factor of 5 or more to the east (they leave play for good, not eliminated)
//! together with 1 SL of a supplied cavalry corps, or declines; all or nothing, and it cannot
//! be put off. Declining raises the Allied Eastern Front award of the T30 check from 15 to 20.
//!
//! Readings: the decision closes with the R&R window, i.e. with the first German move, march
//! assault or the end of the movement phase: a German who has not decided by then has
//! declined (8.8: no postponing). Reinforcements (placed at the start of phase E here) and
//! replacements come before it (8.1): after the decision neither may be placed that turn. A
//! German without two eligible corps and an eligible cavalry corps can only decline (digest's
//! recommendation). A cavalry corps at 1 SL may be the one reduced; it is then eliminated.

use super::orders::{ActionKind, PhaseName, Withdraw};
use super::state::{Kind, Phase, Place, SideId, Size, State, Unit};
use super::supply;
use super::vp;
use crate::engine::{Event, Violation};

/// The game turn of the withdrawal (8.1, 8.8; G.4 item 3).
pub const TURN: u8 = 5;
/// Infantry corps withdrawn.
pub const CORPS: usize = 2;
/// Minimum attack factor of a withdrawn corps (at full strength).
pub const MIN_ATTACK: u32 = 5;
/// Allied Eastern Front VP at the T30 check when the German made the withdrawal (4.4).
pub const EASTERN_FRONT_WITHDRAWN: i32 = 15;
/// ... and when he declined it (4.4).
pub const EASTERN_FRONT_DECLINED: i32 = 20;

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// The decision is owed now: a campaign, German turn 5, undecided.
pub fn due(state: &State) -> bool {
    state.player == SideId::German
        && state.turn == TURN
        && state.outcome.is_none()
        && state.campaign.as_deref().is_some_and(|c| c.withdrawal.is_none())
}

/// The decision was taken this player turn (so reinforcements and replacements are over, 8.1).
pub fn decided_now(state: &State) -> bool {
    state.player == SideId::German && state.turn == TURN && state.campaign.as_deref().is_some_and(|c| c.withdrawal.is_some())
}

/// The Allied Eastern Front VP at the T30 check (4.4).
pub fn eastern_front_vp(state: &State) -> i32 {
    if state.campaign.as_deref().is_some_and(|c| c.withdrawal == Some(true)) { EASTERN_FRONT_WITHDRAWN } else { EASTERN_FRONT_DECLINED }
}

/// A corps that may go east: German infantry corps, on the map, full strength, attack >= 5 at
/// full strength, supplied.
pub fn corps_eligible(state: &State, u: &Unit) -> bool {
    u.side == SideId::German
        && u.kind == Kind::Infantry
        && u.size == Size::Corps
        && u.hex().is_some()
        && u.sl == u.max_sl
        && u.now().attack >= MIN_ATTACK
        && supply::unit_supplied(state, &u.id, supply::Use::General)
}

/// A cavalry corps that may give the SL: German cavalry corps on the map, supplied.
pub fn cavalry_eligible(state: &State, u: &Unit) -> bool {
    u.side == SideId::German
        && u.kind == Kind::Cavalry
        && u.size == Size::Corps
        && u.hex().is_some()
        && supply::unit_supplied(state, &u.id, supply::Use::General)
}

/// Whether the German can make the withdrawal at all.
pub fn possible(state: &State) -> bool {
    state.units.iter().filter(|u| corps_eligible(state, u)).count() >= CORPS && state.units.iter().any(|u| cavalry_eligible(state, u))
}

/// The `withdraw` action.
pub fn step(state: &mut State, side: SideId, w: &Withdraw) -> Result<Vec<Event>, Vec<Violation>> {
    if state.campaign.is_none() {
        return Err(vec![v("GE 8.8", "the Eastern Front withdrawal belongs to the campaigns")]);
    }
    if side != SideId::German {
        return Err(vec![v("GE 8.1", "only the German withdraws units")]);
    }
    if state.turn != TURN {
        return Err(vec![v("GE 8.8", format!("the withdrawal is made on turn {TURN} only (G.4 item 3), not on turn {}", state.turn))]);
    }
    if !due(state) {
        return Err(vec![v("GE 8.8", "the withdrawal has already been decided")]);
    }
    if !matches!(state.phase, Phase::Command | Phase::Movement) || state.units.iter().any(|u| u.side == side && u.moved) {
        return Err(vec![v("GE 8.1", "the withdrawal is decided in phase A, before any unit moves")]);
    }
    if w.decline {
        if !w.corps.is_empty() || w.cavalry.is_some() {
            return Err(vec![v("GE 8.8", "either name the units or decline, not both")]);
        }
        return Ok(decline(state, "the German declines the Eastern Front withdrawal"));
    }
    let mut errs = Vec::new();
    if w.corps.len() != CORPS {
        errs.push(v(
            "GE 8.8",
            format!("name exactly {CORPS} infantry corps (named {}), or decline: the withdrawal is all or nothing", w.corps.len()),
        ));
    }
    for (i, id) in w.corps.iter().enumerate() {
        if w.corps[..i].contains(id) {
            errs.push(v("GE 8.8", "a corps is named twice").unit(id));
            continue;
        }
        match state.unit(id) {
            None => errs.push(v("GE 8.8", format!("there is no unit {id}")).unit(id)),
            Some(u) if u.side != SideId::German || u.kind != Kind::Infantry || u.size != Size::Corps => {
                errs.push(v("GE 8.8", "only German infantry corps are withdrawn").unit(id))
            }
            Some(u) if u.hex().is_none() => errs.push(v("GE 8.8", "the corps must be on the map").unit(id)),
            Some(u) if u.sl < u.max_sl => {
                errs.push(v("GE 8.8", format!("the corps must be at full strength ({}/{} SL)", u.sl, u.max_sl)).unit(id))
            }
            Some(u) if u.now().attack < MIN_ATTACK => errs
                .push(v("GE 8.8", format!("the corps needs an attack factor of {MIN_ATTACK} or more (has {})", u.now().attack)).unit(id)),
            Some(u) if !supply::unit_supplied(state, id, supply::Use::General) => {
                errs.push(v("GE 8.8", "the corps must be in supply").unit(id).hex(u.hex().map(|h| h.to_string()).unwrap_or_default()))
            }
            Some(_) => {}
        }
    }
    match w.cavalry.as_deref() {
        None => errs.push(v("GE 8.8", "name the cavalry corps that gives up 1 SL: the withdrawal is all or nothing")),
        Some(id) => match state.unit(id) {
            None => errs.push(v("GE 8.8", format!("there is no unit {id}")).unit(id)),
            Some(u) if u.side != SideId::German || u.kind != Kind::Cavalry || u.size != Size::Corps => {
                errs.push(v("GE 8.8", "the SL comes from a German cavalry corps").unit(id))
            }
            Some(u) if u.hex().is_none() => errs.push(v("GE 8.8", "the cavalry corps must be on the map").unit(id)),
            Some(_) if !supply::unit_supplied(state, id, supply::Use::General) => {
                errs.push(v("GE 8.8", "the cavalry corps must be in supply").unit(id))
            }
            Some(_) => {}
        },
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut ev =
        vec![Event::rule("GE 8.8", "the German makes the Eastern Front withdrawal (the Allied Eastern Front award at T30 will be 15 VP)")];
    for id in &w.corps {
        if let Some(u) = state.unit_mut(id) {
            let from = u.hex().map(|h| h.to_string()).unwrap_or_default();
            u.place = Place::OffMap;
            ev.push(Event::rule("GE 8.8", format!("{} leaves {from} for the Eastern Front (out of play)", u.label())));
        }
    }
    if let Some(id) = &w.cavalry {
        let label = state.unit(id).map(|u| u.label()).unwrap_or_default();
        ev.push(Event::rule("GE 8.8", format!("{label} gives up 1 SL to the Eastern Front")));
        ev.extend(vp::lose(state, id, 1));
    }
    if let Some(c) = state.campaign.as_deref_mut() {
        c.withdrawal = Some(true);
    }
    Ok(ev)
}

fn decline(state: &mut State, why: &str) -> Vec<Event> {
    if let Some(c) = state.campaign.as_deref_mut() {
        c.withdrawal = Some(false);
    }
    vec![Event::rule("GE 8.8", format!("{why}: the Allied Eastern Front award at T30 will be 20 VP (GE 4.4)"))]
}

/// GE 8.1, 8.8: reinforcements and replacements come before the withdrawal; once it is
/// decided they are over for the turn.
pub fn before(state: &State, side: SideId, action: &ActionKind) -> Result<(), Vec<Violation>> {
    if side == SideId::German && decided_now(state) && matches!(action, ActionKind::Enter(_) | ActionKind::Replace(_)) {
        return Err(vec![v("GE 8.1", "reinforcements and replacements come before the Eastern Front withdrawal (already decided)")]);
    }
    Ok(())
}

/// After an action: a German who moves or ends his movement phase without deciding has
/// declined (8.8: it cannot be put off).
pub fn after(state: &mut State, action: &ActionKind) -> Vec<Event> {
    let closes =
        matches!(action, ActionKind::Move(_) | ActionKind::MarchAssault(_) | ActionKind::EndPhase(PhaseName::Movement | PhaseName::Combat));
    if !closes || !due(state) {
        return vec![];
    }
    if possible(state) {
        decline(state, "the German has moved without making the Eastern Front withdrawal: he declined it")
    } else {
        decline(state, "the German cannot make the Eastern Front withdrawal (not enough eligible units): it counts as declined")
    }
}
