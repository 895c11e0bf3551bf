//! Reinforcements (WEF 10.1, 10.2, 10.6): units of the turn track enter in their side's New
//! Units phase at their nation's entry hexes; one not entered in its turn is lost.
//!
//! The conditional units (REG, B+n) are put on the track by what triggers them (events G,
//! `brusilov`); the Romanian army enters at Jassy only (10.4).

use super::board::Country;
use super::orders::Enter;
use super::state::{Nat, Place, Side, State, Unit};
use super::{control, stacking};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Whether `u` may enter at `h` (10.2), ignoring stacking.
pub fn entry_hex(s: &State, u: &Unit, h: HexId) -> Result<(), String> {
    let Some(info) = s.board.get(h) else { return Err(format!("{h} is not a land hex of the map")) };
    if s.occupant(h) == Some(u.side().other()) {
        return Err(format!("{h} holds enemy units"));
    }
    let ours = control::controller(s, h) == Some(u.side());
    match u.nat {
        // 10.4, 15.6: the Romanian army enters at Jassy only, Romania's own source.
        Nat::RO => {
            if s.board.named("Jassy") != Some(h) {
                return Err(format!("the Romanian army enters at Jassy 3532 (10.4, 15.6); {h} is not Jassy"));
            }
        }
        Nat::RU => {
            if !(s.board.city(h) && info.country == Country::Russia && ours) {
                return Err(format!("Russians enter at a Russian-controlled city of Russia proper (not Russian Poland); {h} is not one"));
            }
            if !super::supply::traced(s, Side::Russian, h, &super::supply::sources(s, Side::Russian)) {
                return Err(format!("{h} has no supply line (9.5, 9.6)"));
            }
        }
        Nat::DE => {
            let konigsberg = s.board.named("Konigsberg") == Some(h) && ours;
            if !(h.row == s.board.west_column() || konigsberg) {
                return Err(format!("Germans enter on the west map edge or at a German-held Konigsberg; {h} is neither"));
            }
        }
        Nat::TU => {
            if !(h.col == s.board.south_row() && info.country == Country::AustriaHungary) {
                return Err(format!("the Turkish corps enters on the south map edge in Austria-Hungary; {h} is not there"));
            }
        }
        Nat::AH => {
            if !(s.board.city(h) && info.country == Country::AustriaHungary && ours) {
                return Err(format!("A-H units enter at a CP-controlled A-H city; {h} is not one"));
            }
            if !super::supply::traced(s, Side::Central, h, &super::supply::sources(s, Side::Central)) {
                return Err(format!("{h} has no supply line (9.5, 9.6)"));
            }
        }
    }
    Ok(())
}

/// Units of `side` due to enter this turn and still off the map.
pub fn due(s: &State, side: Side) -> Vec<&Unit> {
    s.units.iter().filter(|u| u.side() == side && u.place == Place::Track(s.turn)).collect()
}

/// Check an entry.
pub fn check(s: &State, side: Side, e: &Enter) -> Vec<Violation> {
    if !(s.phase.new_units() && s.phase.side() == side) {
        return vec![Violation::new("WEF 10.1", format!("reinforcements enter in their side's New Units phase; now: {}", s.phase.title()))];
    }
    let Some(u) = s.unit(&e.unit) else { return vec![Violation::new("WEF 10.2", format!("no unit {}", e.unit)).unit(e.unit.clone())] };
    if u.side() != side {
        return vec![Violation::new("WEF 10.2", "not your unit").unit(e.unit.clone())];
    }
    if u.place != Place::Track(s.turn) {
        return vec![Violation::new("WEF 10.2", format!("the unit is not a reinforcement of turn {}", s.turn)).unit(e.unit.clone())];
    }
    let mut errs = Vec::new();
    if let Err(m) = entry_hex(s, u, e.hex) {
        let rule = if u.nat == Nat::RO { "WEF 10.4" } else { "WEF 10.2" };
        errs.push(Violation::new(rule, m).unit(e.unit.clone()).hex(e.hex.to_string()));
    } else if let Err(v) = stacking::room(s, e.hex, &[u]) {
        errs.push(v.unit(e.unit.clone()));
    } else if super::combat::combined_germans(s, std::slice::from_ref(&e.unit), Some(e.hex))
        > super::combat::combined_limit(s).max(super::combat::combined_germans(s, &[], None))
    {
        errs.push(
            Violation::new("WEF 6.4", format!("too many German units in combined stacks with A-H units in turn {}", s.turn))
                .unit(e.unit.clone())
                .hex(e.hex.to_string()),
        );
    }
    errs
}

/// Carry out a checked entry.
pub fn apply(s: &mut State, side: Side, e: &Enter) -> Vec<Event> {
    let cavalry = control::all_cavalry(s, std::slice::from_ref(&e.unit));
    if let Some(u) = s.unit_mut(&e.unit) {
        u.place = Place::Hex(e.hex);
    }
    let mut ev = vec![Event::rule("WEF 10.2", format!("{} enters at {}", e.unit, e.hex))];
    ev.extend(control::enter(s, e.hex, side, cavalry));
    ev
}

/// End of a New Units phase: what did not enter is lost (10.6).
pub fn lose_missed(s: &mut State, side: Side) -> Vec<Event> {
    let turn = s.turn;
    let mut ev = Vec::new();
    for u in s.units.iter_mut().filter(|u| u.side() == side && u.place == Place::Track(turn)) {
        u.place = Place::Lost;
        ev.push(Event::rule("WEF 10.6", format!("{} did not enter in turn {turn} and is lost", u.label())));
    }
    ev
}

/// Every hex where `u` could enter now, stacking included.
pub fn options(s: &State, u: &Unit) -> Vec<HexId> {
    s.board.hexes().map(|(h, _)| h).filter(|&h| entry_hex(s, u, h).is_ok() && stacking::room(s, h, &[u]).is_ok()).collect()
}
