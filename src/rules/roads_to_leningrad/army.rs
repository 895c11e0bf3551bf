//! Army units outside command range (RTL-7.45): at the start of the Movement Phase the
//! active formation may try to activate them, each by an ER check with its Disrupted and
//! Out of Supply reductions. The try uses up an activation whatever the roll (the First or
//! Final Activation marker, 7.42–7.43).
//!
//! By mail the checks are rolls after a choice, so they end the entry (DESIGN §2.5): the
//! other side's next entry (an `ack`) rolls them, and the mover's following entry goes on
//! with the same Movement Phase, as after an overrun.

use super::combat::d10;
use super::scenario::Kind;
use super::state::{Os, State};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The command range of a formation's HQs (RTL-15.15: 4 hexes).
pub const COMMAND_RANGE: u32 = 4;

/// Whether `h` is within command range of an HQ of `formation` (RTL-7.44b, 15.15).
pub fn in_range(s: &State, formation: &str, h: HexId) -> bool {
    s.units
        .iter()
        .filter(|u| u.formation == formation && s.data(&u.id).is_some_and(|d| d.kind == Kind::Headquarters))
        .filter_map(|u| u.hex)
        .any(|q| q.distance(h) <= COMMAND_RANGE)
}

/// How many activations an Army unit has in a turn (RTL-7.42: red box twice, 7.43 others once).
pub fn limit(s: &State, id: &str) -> u8 {
    if s.data(id).is_some_and(|d| d.red_box()) { 2 } else { 1 }
}

/// Why `id` may not try now, if it may not.
fn why_not(s: &State, side: &str, id: &str) -> Option<(&'static str, String)> {
    let Some(act) = &s.active else { return Some(("RTL-7.45", "no formation is active".into())) };
    let Some(u) = s.unit(id) else { return Some(("RTL-7.45", format!("no unit {id}"))) };
    if u.side != side || u.formation != "army" {
        return Some(("RTL-7.41", format!("{id} is not one of your Army units")));
    }
    let Some(h) = u.hex else { return Some(("RTL-7.45", format!("{id} is not on the map"))) };
    if act.army.contains(&u.id) {
        return Some(("RTL-7.44", format!("{id} is within command range and already active with {} (7.44)", act.names())));
    }
    if u.activations >= limit(s, id) {
        return Some((
            if limit(s, id) == 2 { "RTL-7.42" } else { "RTL-7.43" },
            format!("{id} has its Final Activation marker: no more activations this turn"),
        ));
    }
    if act.formations().iter().any(|f| in_range(s, f, h)) {
        return Some(("RTL-7.45", format!("{id} is within command range of {}: it activates automatically or not at all", act.names())));
    }
    None
}

/// Declare the attempts (RTL-7.45): the first thing of the Movement Phase, once per
/// sequence, never in a Pass; each unit takes its activation marker now.
pub fn attempt(s: &mut State, side: &str, ids: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    let err = |msg: &str| Err(vec![Violation::new("RTL-7.45", msg)]);
    let Some(act) = s.active.clone() else {
        return err("Army units are activated by an active formation (7.41): not in a Pass sequence");
    };
    if act.os == Os::Pass {
        return err("Army units are activated by an active formation (7.41): not in a Pass sequence");
    }
    if act.tried || !s.moved.is_empty() || s.group.is_some() {
        return err("the attempts open the Movement Phase, once per sequence (Expanded Sequence A.1a, B.2a)");
    }
    let mut errs = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            errs.push(Violation::new("RTL-7.45", format!("{id} is named twice")).unit(id.clone()));
        } else if let Some((rule, msg)) = why_not(s, side, id) {
            errs.push(Violation::new(rule, msg).unit(id.clone()));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for id in ids {
        if let Some(u) = s.unit_mut(id) {
            u.activations += 1;
        }
    }
    if let Some(a) = s.active.as_mut() {
        a.tried = true;
    }
    s.army_attempts = ids.to_vec();
    Ok(vec![Event::rule(
        "RTL-7.45",
        format!(
            "{} try to activate with {} (each takes its activation marker; the other side's next entry rolls the ER checks)",
            ids.join(", "),
            act.names()
        ),
    )])
}

/// ", DRM −n" for a CP DRM, nothing without one.
pub fn drm_words(cp: i32) -> String {
    if cp == 0 { String::new() } else { format!(", DRM {cp:+}") }
}

/// Roll the attempts: d10 ≤ the current ER activates the unit for this sequence (7.46).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let formation = s.active.as_ref().map(|a| a.names()).unwrap_or_default();
    for id in std::mem::take(&mut s.army_attempts) {
        let Some(u) = s.unit(&id) else { continue };
        let er = s.er(u);
        let cp = super::command::take(s, &super::command::Check::Army(id.clone()), &id, &mut ev);
        let r = d10(dice);
        ev.push(Event::roll(format!("RTL-7.45: activation check of {id} (ER {er}{})", drm_words(cp)), "d10", r));
        if r as i32 + cp <= er as i32 {
            if let Some(a) = s.active.as_mut() {
                a.army.push(id.clone());
            }
            ev.push(Event::rule("RTL-7.46", format!("{id} activates with {formation} for this sequence")));
        } else {
            ev.push(Event::rule("RTL-7.45", format!("{id} fails: it neither moves nor attacks in this sequence")));
        }
    }
    ev
}
