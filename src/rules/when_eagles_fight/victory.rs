//! Victory (WEF 4): the checks at the end of T2, T6, T11, T15, T20 and T24 (4.1), the
//! Russian conditions first (4.3), then the revolution roll (4.4); the capitals (4.2) are in
//! `control`.
//!
//! The revolution DRMs of 4.5 come from the events (A, B, L) and the Brusilov offensive;
//! the No Verdun shortening of 7.3 is placed by the events module.

use super::board::Country;
use super::control::controller;
use super::state::{Phase, Side, State};
use crate::engine::{Event, Outcome};

/// German cities the Russian controls (4.3.1).
pub fn german_cities(s: &State) -> u32 {
    s.board.hexes().filter(|(h, i)| i.country == Country::Germany && s.board.city(*h) && controller(s, *h) == Some(Side::Russian)).count()
        as u32
}

/// A-H victory hexes the Russian controls (4.3.2).
pub fn ah_victory_hexes(s: &State) -> u32 {
    s.board.ah_victory_hexes().into_iter().filter(|h| controller(s, *h) == Some(Side::Russian)).count() as u32
}

/// Cities of Russia and Russian Poland the CP controls (4.4).
pub fn russian_cities_held(s: &State) -> u32 {
    s.board.hexes().filter(|(h, i)| i.country.russian() && s.board.city(*h) && controller(s, *h) == Some(Side::Central)).count() as u32
}

/// The end of the CP Combat phase: a check turn checks the Russian conditions and leaves the
/// revolution roll pending; any other turn goes on. Returns the events and whether a roll
/// is pending.
pub fn end_of_turn(s: &mut State) -> (Vec<Event>, bool) {
    let Some(check) = check_box(s) else { return (vec![], false) };
    let mut ev = Vec::new();
    let (gc, ah) = (german_cities(s), ah_victory_hexes(s));
    ev.push(Event::rule(
        "WEF 4.1",
        format!(
            "victory check of turn {}: the Russian holds {gc} German cities (needs {}) and {ah} A-H victory hexes (needs {})",
            s.turn, check.german_cities, check.ah_victory_hexes
        ),
    ));
    if gc >= check.german_cities || ah >= check.ah_victory_hexes {
        let why = if gc >= check.german_cities { format!("{gc} German cities") } else { format!("{ah} A-H victory hexes") };
        let o = Outcome::Win {
            side: Side::Russian.id().into(),
            reason: format!("the Russian holds {why} at the check of turn {} (WEF 4.3)", s.turn),
        };
        ev.push(Event::rule("WEF 4.3", crate::engine::game::describe_outcome(&o)));
        s.outcome = Some(o);
        return (ev, false);
    }
    s.phase = Phase::VictoryCheck;
    (ev, true)
}

/// The revolution roll (4.4): d6 + CP-held Russian cities ≥ the Rev number wins for the CP;
/// otherwise the game goes on, or ends with the Tsar standing after T24 (4.3.3).
pub fn revolution(s: &mut State, die: u32) -> Vec<Event> {
    let Some(check) = check_box(s) else { return vec![] };
    let cities = russian_cities_held(s);
    // 4.5: the modifiers events (and Brusilov) leave in force.
    let drm = super::events::revolution_drm(s);
    let total = (die + cities) as i32 + drm.iter().map(|(m, _)| m).sum::<i32>();
    let mods: String = drm.iter().map(|(m, why)| format!(" {m:+} ({why})")).collect();
    let mut ev = vec![
        Event::roll(format!("victory check of turn {}: revolution roll", s.turn), "d6", die),
        Event::rule("WEF 4.4", format!("{die} + {cities} Russian cities held by the CP{mods} = {total} against Rev {}", check.rev)),
    ];
    if total >= check.rev as i32 {
        let o = Outcome::Win {
            side: Side::Central.id().into(),
            reason: format!("revolution in Russia at the end of turn {}: the Tsar falls (WEF 4.4)", s.turn),
        };
        ev.push(Event::rule("WEF 4.4", crate::engine::game::describe_outcome(&o)));
        s.outcome = Some(o);
    } else if s.turn >= s.last_turn {
        let o = Outcome::Win {
            side: Side::Russian.id().into(),
            reason: format!("the Tsar still stands at the end of turn {} (WEF 4.3)", s.turn),
        };
        ev.push(Event::rule("WEF 4.3", crate::engine::game::describe_outcome(&o)));
        s.outcome = Some(o);
    } else {
        ev.push(Event::rule("WEF 4.4", "the Tsar survives"));
        ev.extend(super::events::tsar_survives(s));
    }
    ev
}

/// The figures of the check held at the end of this turn: its own box, or on a last turn the
/// No Verdun marker brought forward (7.3), the latest check box before it (reading: that
/// turn prints none).
pub fn check_box(s: &State) -> Option<super::scenario::CheckBox> {
    if let Some(c) = s.turn_box().and_then(|b| b.check) {
        return Some(c);
    }
    if s.turn != s.last_turn {
        return None;
    }
    s.charts.turns.iter().filter(|b| b.turn < s.turn).filter_map(|b| b.check).next_back()
}
