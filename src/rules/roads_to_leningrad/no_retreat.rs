//! No Retreat (RTL-9.4, 11.4): the defender's choice to hold a strongpoint instead of
//! retreating, at the price of an extra step.
//!
//! By mail (reading, DESIGN §2.5, digest G.4): the choice belongs to the Enemy Reaction
//! Phase, after the declarations and before the rolls, but the defender sends nothing
//! between the attacker's declaring entry and the entry that settles its dice, and that
//! entry's author would already know the rolls. So the choice is a standing instruction,
//! `no_retreat: [hexes]`, written in any of his operations entries and kept until changed.
//! When a listed hex is a defending hex and qualifies (9.41), the lead unit's ER check is
//! rolled in the Reaction Phase: all these checks, in declaration order, come before the
//! first combat's dice.

use super::combat::{d10, defending_lead};
use super::state::{Attack, State};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Set a side's standing instruction. Every hex must hold a strongpoint of the side
/// (completed or under construction): a No Retreat elsewhere could never be tried (9.41),
/// so naming one is a mistake the player hears about now.
pub fn set(s: &mut State, side: &str, hexes: &[HexId]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    let mut list: Vec<HexId> = Vec::new();
    for &h in hexes {
        match s.strongpoint(h) {
            Some(p) if p.side == side => {
                if !list.contains(&h) {
                    list.push(h);
                }
            }
            Some(_) => errs.push(
                Violation::new("RTL-9.41", format!("the strongpoint at {h} is the enemy's: No Retreat is tried in your own strongpoints"))
                    .hex(h.to_string()),
            ),
            None => {
                errs.push(Violation::new("RTL-9.41", format!("{h} holds no strongpoint of yours: No Retreat needs one")).hex(h.to_string()))
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    list.sort();
    let words = if list.is_empty() { "none".to_string() } else { list.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ") };
    if list.is_empty() {
        s.no_retreat.remove(side);
    } else {
        s.no_retreat.insert(side.to_string(), list);
    }
    Ok(vec![Event::rule("RTL-9.4", format!("the {side} player's standing No Retreat hexes: {words}"))])
}

/// Whether the defenders of `h` may try No Retreat (RTL-9.41, 14.13d): at least two steps
/// in the hex and a completed strongpoint of theirs.
pub fn may_try(s: &State, h: HexId) -> bool {
    let steps: u32 = s.units_at(h).map(|u| s.steps(u)).sum();
    steps >= 2 && super::strongpoints::defended(s, h)
}

/// The Enemy Reaction Phase's No Retreat checks (RTL-9.42): for each defending hex on the
/// defender's standing list that qualifies, an ER check of its lead unit (OoS and
/// Disrupted reductions included; the CPs named in the Enemy Reaction Phase entry, 15.33b1). A pass puts the marker on the hex.
pub fn reaction(s: &mut State, attacks: &mut [Attack], dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    for a in attacks.iter_mut() {
        let Some(side) = s.units_at(a.target).next().map(|u| u.side.clone()) else { continue };
        if !s.no_retreat.get(&side).is_some_and(|l| l.contains(&a.target)) {
            continue;
        }
        if !may_try(s, a.target) {
            ev.push(Event::rule(
                "RTL-9.41",
                format!("no No Retreat at {}: it needs two steps and a strongpoint of the defender", a.target),
            ));
            continue;
        }
        let Some(lead) = defending_lead(s, a.target) else { continue };
        let er = s.unit(&lead).map(|u| s.er(u)).unwrap_or(1);
        let cp = super::command::take(s, &super::command::Check::NoRetreat(a.target), &lead, &mut ev);
        let r = d10(dice);
        ev.push(Event::roll(
            format!("RTL-9.42: No Retreat check at {} of {lead} (ER {er}{})", a.target, super::army::drm_words(cp)),
            "d10",
            r,
        ));
        if r as i32 + cp <= er as i32 {
            a.no_retreat = true;
            ev.push(Event::rule("RTL-9.42", format!("No Retreat marker on {}", a.target)));
        } else {
            ev.push(Event::rule("RTL-9.42", format!("the No Retreat check fails: {} retreats as the result says", a.target)));
        }
    }
    ev
}
