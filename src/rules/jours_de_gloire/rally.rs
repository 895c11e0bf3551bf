//! Rally (JDG 11.1) and formation demoralisation (JDG 11.2, table E.14).
//!
//! **Rally** closes an activation: the `rally` action names the units that try, each with
//! the vertex it will face if it succeeds (the facing is free on a success; giving it in
//! advance is the conditional instruction of digest F.4, so no decision follows the roll).
//! It is the entry's last action and ends the activation: its dice are the entry's own, so
//! the other side's next entry rolls them (DESIGN §2.5); the activation ends as they are
//! applied, and that same entry then opens with the next cup draw. A unit may try if it is
//! disordered and neither moved, turned nor fired in the activation, or if it is routed;
//! never next to an enemy unit; whatever its group's orders. d10 (+1 routed) against the
//! cohesion of the disordered face: at most that, a disordered unit returns to good order,
//! a routed unit loses its Rout marker and stays disordered. At night a disordered unit
//! rallies without a roll and a routed one rolls −3 instead of +1 (JDG 12.1, digest F.5).
//!
//! **Demoralisation** is checked in phase E of every turn: a formation whose infantry and
//! cavalry are all disordered, routed or eliminated is demoralised. Its units may not enter
//! an enemy ZOC (`movement`), and from the next turn it puts only one marker in the cup, the
//! one with the lower initiative (the first when equal). It recovers at a later phase E.

use super::movement::{facing_problem, stack_problem};
use super::scenario::Kind;
use super::state::{Phase, RallyTry, State};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

/// A `rally` action: the units that try, with their facing on success.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RallyOrder {
    pub units: Vec<RallyUnit>,
}

/// One unit's rally attempt.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RallyUnit {
    pub unit: String,
    /// The vertex it faces if it rallies; default: as it stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
}

/// Check a `rally` action and leave it pending (JDG 11.1).
pub fn step_rally(s: &mut State, side: &str, r: &RallyOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let Phase::Activation { am, .. } = s.phase.clone() else {
        return Err(vec![Violation::new("JDG 11.1", "units rally at the end of their own activation")]);
    };
    let mut errs = Vec::new();
    let mut tries = Vec::new();
    if r.units.is_empty() {
        errs.push(Violation::new("JDG 11.1", "name the units that try to rally"));
    }
    for ru in &r.units {
        let bad = |msg: String| Violation::new("JDG 11.1", msg).unit(&ru.unit);
        let Some(u) = s.unit(&ru.unit).cloned() else {
            errs.push(bad("no such unit".into()));
            continue;
        };
        let Some(h) = u.hex else {
            errs.push(bad("the unit is not on the map".into()));
            continue;
        };
        if u.side != side || !s.activates(&am, &u.formation) {
            errs.push(bad(format!("only units of the activated formation {} rally", s.am_label(&am))));
            continue;
        }
        if tries.iter().any(|t: &RallyTry| t.unit == u.id) {
            errs.push(bad("named twice".into()));
            continue;
        }
        if !u.disordered && !u.routed {
            errs.push(bad("the unit is in good order".into()));
            continue;
        }
        if !u.routed && (s.acted.contains(&u.id) || s.fired.contains(&u.id)) {
            errs.push(bad("a disordered unit that moved, turned or fired in this activation does not rally".into()));
            continue;
        }
        if h.neighbours().iter().any(|(_, n)| s.units_at(*n).any(|e| e.side != side)) {
            errs.push(bad("a unit next to an enemy unit does not rally".into()).hex(h.to_string()));
            continue;
        }
        if u.routed && s.units_at(h).filter(|x| x.routed).count() > 1 {
            errs.push(Violation::new("JDG 10.4", "two routed units in one hex cannot rally").unit(&u.id).hex(h.to_string()));
            continue;
        }
        if let Some(f) = ru.facing.filter(|f| *f > 5) {
            errs.push(bad(format!("vertex {f}: a unit faces a vertex 0..5")));
            continue;
        }
        // Its new face and facing must suit its stack (5.1.1 note, 6.1.1).
        let mut w = s.clone();
        if let Some(x) = w.unit_mut(&u.id) {
            if x.routed {
                x.routed = false;
            } else {
                x.disordered = false;
            }
            if let Some(f) = ru.facing {
                x.facing = f;
            }
        }
        if let Some(p) = stack_problem(&w, h).or_else(|| facing_problem(&w, h)) {
            errs.push(Violation::new("JDG 5.1.1", format!("rallied, it would break its stack: {p}")).unit(&u.id).hex(h.to_string()));
            continue;
        }
        tries.push(RallyTry { unit: u.id.clone(), facing: ru.facing });
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let names: Vec<String> = tries.iter().map(|t| t.unit.clone()).collect();
    // At night, disordered units rally without a roll (12.1): nothing waits for dice.
    if s.night() && tries.iter().all(|t| s.unit(&t.unit).is_some_and(|u| !u.routed)) {
        let mut ev = vec![Event::rule("JDG 11.1", format!("{} try to rally", names.join(", ")))];
        ev.extend(settle(s, side, &tries, None));
        return Ok(ev);
    }
    s.rally = Some(super::state::Rally { side: side.to_string(), tries });
    Ok(vec![Event::rule("JDG 11.1", format!("{} try to rally; the activation ends with the roll", names.join(", ")))])
}

/// What the pending rally waits for.
pub fn pending(s: &State) -> Option<String> {
    let r = s.rally.as_ref()?;
    let names: Vec<&str> = r.tries.iter().map(|t| t.unit.as_str()).collect();
    Some(format!("JDG 11.1: rally of {}", names.join(", ")))
}

/// Roll the pending rallies, then end the activation (JDG 11.1, D.4).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(r) = s.rally.take() else { return vec![] };
    settle(s, &r.side, &r.tries, Some(dice))
}

/// Apply the rally attempts, rolling where a roll is due (`dice` is `None` only when none
/// is), then end the activation.
fn settle(s: &mut State, side: &str, tries: &[RallyTry], mut dice: Option<&mut Dice>) -> Vec<Event> {
    let mut ev = Vec::new();
    for t in tries {
        let Some(u) = s.unit(&t.unit).cloned() else { continue };
        if u.hex.is_none() {
            continue;
        }
        let c = i32::from(s.face(&u).cohesion);
        let ok = if s.night() && !u.routed {
            ev.push(Event::rule("JDG 12.1", format!("{} rallies without a roll at night", u.id)));
            true
        } else {
            let die = dice.as_mut().map(|d| d.roll(10)).unwrap_or(9);
            let drm = match (u.routed, s.night()) {
                (true, true) => -3,
                (true, false) => 1,
                _ => 0,
            };
            ev.push(Event::roll(format!("JDG 11.1: rally of {}", u.id), "d10", die));
            let ok = die as i32 + drm <= c;
            ev.push(Event::rule(
                "JDG 11.1",
                format!(
                    "{} {}: {die}{} against cohesion {c}",
                    u.id,
                    if ok { "rallies" } else { "fails to rally" },
                    if drm != 0 { format!(" {drm:+}") } else { String::new() }
                ),
            ));
            ok
        };
        if ok && let Some(x) = s.unit_mut(&u.id) {
            x.sheltered = false;
            if x.routed {
                x.routed = false;
            } else {
                x.disordered = false;
            }
            if let Some(f) = t.facing {
                x.facing = f;
            }
        }
    }
    ev.extend(super::turn::finish_activation(s, side));
    ev
}

/// Phase E (JDG 11.2): which formations are demoralised now.
pub fn check_demoralisation(s: &mut State) -> Vec<Event> {
    let mut now = Vec::new();
    for f in &s.scenario.formations {
        // Reinforcements still off the map do not count (digest F.5): they are not eliminated.
        let foot: Vec<_> = s.units.iter().filter(|u| u.formation == f.id && u.kind != Kind::Artillery && u.arrives.is_none()).collect();
        if foot.is_empty() {
            continue;
        }
        if foot.iter().all(|u| u.hex.is_none() || u.disordered || u.routed) {
            now.push(f.id.clone());
        }
    }
    let mut ev = Vec::new();
    for f in &now {
        if !s.demoralised.contains(f) {
            ev.push(Event::rule("JDG 11.2", format!("formation {f} is demoralised: it loses a marker from the next turn")));
        }
    }
    for f in &s.demoralised {
        if !now.contains(f) {
            ev.push(Event::rule("JDG 11.2", format!("formation {f} is no longer demoralised: its marker returns next turn")));
        }
    }
    s.demoralised = now;
    ev
}
