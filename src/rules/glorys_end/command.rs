//! Command & control (GE-10.1–10.3): at the end of phase C the phasing player rolls 1 d6; on a
//! 6 the opponent names three of his stacks (a unit alone is a stack), whose units are out of
//! command until the end of the player turn (10.2 effects: `Unit::allowance`, `combat::declare`).
//! On the Marne the rolls start on T9 (GE-16.3: the T8 roll is already made).
//!
//! Turn flow (DESIGN §2.5): the roll opens the phasing player's entry as a leading roll
//! (`lead.rs`); on a 6 the opponent names the stacks (`out_of_command`, or his standing
//! instructions do at once).

use super::state::{CommandStage, Phase, State};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Stacks the opponent names on a 6 (GE-10.1).
pub const STACKS: u32 = 3;

/// The pending roll, described.
pub fn describe(state: &State) -> String {
    format!(
        "command & control roll of the {} player (GE 10.1): on a 6 the {} player puts {STACKS} of his stacks out of command",
        state.player.title(),
        state.player.other().title()
    )
}

fn to_movement(state: &mut State) -> Event {
    state.command = None;
    state.phase = Phase::Movement;
    super::strategic::phase_d(state)
}

/// Roll the pending die.
pub fn roll(state: &mut State, die: u32) -> Vec<Event> {
    let mut ev = vec![Event::roll(format!("command & control of the {} player", state.player.title()), "d6", die)];
    let stacks = state.command_stacks().len() as u32;
    if die == 6 && stacks > 0 {
        ev.extend(super::hentsch::on_six(state));
        let count = STACKS.min(stacks);
        state.command = Some(CommandStage::Pick { count });
        ev.push(Event::rule(
            "GE 10.1",
            format!("a 6: the {} player names {count} {} stacks to go out of command", state.player.other().title(), state.player.title()),
        ));
        if let Some(hexes) = super::standing::ooc_picks(state, count) {
            let list: Vec<String> = hexes.iter().map(|h| h.to_string()).collect();
            ev.push(Event::rule(
                "GE 10.1",
                format!("standing instructions of the {} player: out of command {}", state.player.other().title(), list.join(", ")),
            ));
            match pick(state, count, &hexes) {
                Ok(e) => ev.extend(e),
                Err(e) => ev.extend(e.into_iter().map(|v| Event::rule(v.rule.clone(), format!("standing instructions not applied: {v}")))),
            }
        }
    } else {
        ev.push(Event::rule("GE 10.1", "no effect"));
        ev.push(to_movement(state));
    }
    ev
}

/// The opponent's choice after a 6.
pub fn pick(state: &mut State, count: u32, hexes: &[HexId]) -> Result<Vec<Event>, Vec<Violation>> {
    let stacks = state.command_stacks();
    let mut errs = Vec::new();
    for (i, h) in hexes.iter().enumerate() {
        if hexes[..i].contains(h) {
            errs.push(Violation::new("GE 10.1", "a stack is named twice").hex(h.to_string()));
        } else if !stacks.contains(h) {
            errs.push(Violation::new("GE 10.1", format!("{h} holds no {} stack", state.player.title())).hex(h.to_string()));
        }
    }
    if hexes.len() as u32 != count {
        errs.push(Violation::new("GE 10.1", format!("name exactly {count} stacks (named {})", hexes.len())));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let side = state.player;
    let mut ev = Vec::new();
    for u in state.units.iter_mut().filter(|u| u.side == side && u.mobile() && u.hex().is_some_and(|h| hexes.contains(&h))) {
        u.ooc = true;
        ev.push(Event::rule("GE 10.2", format!("{} is out of command", u.label())));
    }
    ev.push(to_movement(state));
    Ok(ev)
}
