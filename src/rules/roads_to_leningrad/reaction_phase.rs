//! The Enemy Reaction Phase by mail (RTL-9.2–9.4, Expanded Sequence A.2, B.3): the window
//! in which the defender answers the declared attacks.
//!
//! Reading (docs/roads-to-leningrad/rules.md, "The Enemy Reaction Phase by mail"): when the
//! attacker's declaring entry E leaves the defender a Combat Refusal or a Reaction move he
//! could try, E rolls nothing; the defender's next entry F names his tries (or none). Their
//! ER checks, the No Retreat checks and the combats are all F's dice (DESIGN §2.5), settled
//! by the attacker's next entry G: nobody can foresee them when choosing (F's author lacks
//! G's reveal, E's and G's author chose everything before F), and withholding G only stalls
//! the game in plain sight. When the defender has no option, nothing changes: the combats
//! are E's dice, as before.

use super::orders::Orders;
use super::state::{Reaction, State};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The defender of the declared batch: the side not in its operations sequence.
pub fn defender(s: &State) -> Option<String> {
    s.active.as_ref().map(|a| s.scenario.other(&a.side))
}

/// After the declarations: open the window if the defender has anything he could try.
pub fn open(s: &mut State) -> Vec<Event> {
    let Some(side) = defender(s) else { return vec![] };
    let hexes = super::refusal::options(s);
    let units = super::reaction::options(s);
    let cps = super::command::defender_options(s, &side);
    if hexes.is_empty() && units.is_empty() && cps.is_empty() {
        return vec![];
    }
    s.reaction = Some(Reaction { due: true, ..Reaction::default() });
    let list = |v: Vec<String>| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    vec![Event::rule(
        "RTL-9.2",
        format!(
            "the {side} player's Enemy Reaction Phase: Combat Refusal possible at {}; Reaction Movement possible for {}{}; his next entry names his tries, or none",
            list(hexes.iter().map(HexId::to_string).collect()),
            list(units),
            if cps.is_empty() { String::new() } else { format!("; command points possible: {}", cps.join(", ")) }
        ),
    )]
}

/// The defender's Enemy Reaction Phase entry: his Combat Refusal tries and Reaction moves,
/// checked now against the state the declarations left; their dice come later. He may also
/// renew his standing No Retreat and defensive-artillery orders here, the book's moment for
/// those choices (9.42, 12.11).
pub fn entry(s: &mut State, side: &str, o: &Orders) -> Result<Vec<Event>, Vec<Violation>> {
    let stray = o.os.is_some()
        || o.am.is_some()
        || o.play.is_some()
        || o.face_up.is_some()
        || o.combine_leader.is_some()
        || !o.cup_choice.is_empty()
        || o.cup.is_some()
        || !o.actions.is_empty()
        || !o.army_attempts.is_empty()
        || !o.build.is_empty()
        || !o.remove_strongpoints.is_empty();
    super::bridges::refuse(
        &o.bridges,
        "this entry is your Enemy Reaction Phase: bridges are placed only in your own Assault or Pass sequence's Construction Phase",
    )?;
    if stray {
        return Err(vec![Violation::new(
            "RTL-9.2",
            "this entry is your Enemy Reaction Phase: it names only `refuse`, `react`, `command_points` (and your standing `no_retreat`, `defensive_artillery` or `defensive_air`); your own operations come later",
        )]);
    }
    let mut ev = Vec::new();
    if let Some(list) = &o.defensive_artillery {
        ev.extend(super::artillery::set_defensive(s, side, list)?);
    }
    if let Some(list) = &o.defensive_air {
        ev.extend(super::air::set_defensive(s, side, list)?);
    }
    if let Some(list) = &o.no_retreat {
        ev.extend(super::no_retreat::set(s, side, list)?);
    }
    let mut errs = Vec::new();
    for (i, &h) in o.refuse.iter().enumerate() {
        if o.refuse[..i].contains(&h) {
            errs.push(Violation::new("RTL-9.21", format!("{h} is named twice")).hex(h.to_string()));
        } else if s.units_at(h).next().is_some_and(|u| u.side != side) {
            errs.push(
                Violation::new("RTL-9.21", format!("{h} holds the enemy's units: you refuse combat only where you defend"))
                    .hex(h.to_string()),
            );
        } else if let Some((rule, why)) = super::refusal::why_not(s, h) {
            errs.push(Violation::new(rule, why).hex(h.to_string()));
        }
    }
    errs.extend(super::reaction::check(s, side, &o.refuse, &o.react));
    if !errs.is_empty() {
        return Err(errs);
    }
    let reacting: Vec<String> = o.react.iter().map(|m| m.unit.clone()).collect();
    ev.extend(super::command::name_defender(s, side, &o.command_points, &reacting)?);
    if o.refuse.is_empty() && o.react.is_empty() {
        ev.push(Event::rule("RTL-9.2", format!("the {side} player tries neither Combat Refusal nor Reaction Movement")));
    }
    if !o.refuse.is_empty() {
        let hs: Vec<String> = o.refuse.iter().map(HexId::to_string).collect();
        ev.push(Event::rule("RTL-9.21", format!("the {side} player tries Combat Refusal at {}", hs.join(", "))));
    }
    if !o.react.is_empty() {
        let us: Vec<String> = o.react.iter().map(|m| m.unit.clone()).collect();
        ev.push(Event::rule("RTL-9.3", format!("the {side} player tries Reaction Movement with {}", us.join(", "))));
    }
    s.reaction = Some(Reaction { due: false, refuse: o.refuse.clone(), react: o.react.clone() });
    Ok(ev)
}

/// Roll the phase's tries: every Combat Refusal, then every Reaction move (9.3 comes after
/// all refusals). The No Retreat checks and the combats follow in `combat::resolve`.
pub fn resolve(s: &mut State, dice: &mut crate::dice::Dice) -> Vec<Event> {
    let Some(r) = s.reaction.take() else { return vec![] };
    let mut ev = super::refusal::resolve(s, &r.refuse, dice);
    ev.extend(super::reaction::resolve(s, &r.react, dice));
    ev
}
