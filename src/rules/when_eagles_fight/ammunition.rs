//! Russian ammunition shortage (WEF 9.9–9.13): the d6 roll at the start of every Russian
//! Combat phase, its modifiers (9.12), the table by modified roll and turn band (data, E.6),
//! the markers each player places (9.11, the Russian first) and their effect: the marked
//! units fight at half their factors for the rest of the game turn (9.10).
//!
//! Turn flow. The roll follows the Russian's choices of his movement phase and STAVKA's
//! placement, which 9.9 puts before it, so it is an ordinary roll: the Russian entry that ends
//! IV.A ends with it (`brusilov` and `stavka` may follow that entry's `end_phase`:
//! [`before_roll`]), and the CP's next entry (an acknowledgement: the Russian
//! places first) fixes it. Then the Russian places his half, the CP his, and the Russian
//! attacks; a side with nothing to place is passed over.
//!
//! Readings (docs/when-eagles-fight/rules.md): "Russian units" are those of Russian
//! nationality (not the Romanian army); a "supplied city in Russia proper" protects units
//! that trace a 9.5 line to a 9.6 source there; halved factors are pooled with the
//! out-of-supply ones (9.3) and halved once (`combat::compute`); a unit short and out of
//! supply is halved once (9.10); units in or next to STAVKA take no marker (9.11, 14.2).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::board::Country;
use super::orders::{Action, AmmoMarkers};
use super::state::{Kind, Nat, Side, State, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

/// The shortage of the current game turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Ammo {
    /// The roll of this Russian Combat phase is still to be made (9.9).
    pub roll_due: bool,
    /// This game turn's roll was made: what 9.9 puts before it is closed.
    pub rolled: bool,
    /// Markers the Russian still places (he places first, and the odd one, 9.11).
    pub russian_left: u32,
    /// Markers the CP still places.
    pub central_left: u32,
    /// Units short of ammunition until the end of the game turn (9.10).
    pub short: BTreeSet<String>,
}

/// Whether `a` may still be taken while the roll is due: the Brusilov declaration (15.1) and
/// STAVKA (9.9) open the Combat phase before the roll, so they ride on the Russian entry that
/// ends his movement phase, after its `end_phase`.
pub fn before_roll(s: &State, a: &Action) -> bool {
    s.ammo.roll_due && matches!(a, Action::Stavka(_) | Action::Brusilov)
}

/// The start of the Russian Combat phase: the roll is due (9.9).
pub fn begin(s: &mut State) {
    s.ammo.roll_due = true;
}

/// A new game turn: the markers come off (9.10 "for the rest of the game turn").
pub fn new_turn(s: &mut State) {
    s.ammo = Ammo::default();
}

/// The roll waiting for its die, described.
pub fn roll_due(s: &State) -> Option<String> {
    (s.ammo.roll_due && s.outcome.is_none()).then(|| format!("Russian ammunition shortage of turn {}: d6 (WEF 9.9)", s.turn))
}

/// The 9.12 modifiers in force, with their reasons.
pub fn modifiers(s: &State) -> Vec<(i32, &'static str)> {
    let mut v = Vec::new();
    let odessa = s.board.named("Odessa").is_some_and(|h| super::control::controller(s, h) == Some(Side::Russian));
    if s.events.gallipoli && odessa {
        v.push((-2, "Gallipoli won and Odessa held (H)"));
    }
    // 15.8: from B+3, the third turn after the declaration.
    if super::events::brusilov_declared(s).is_some_and(|b| s.turn >= b + 3) {
        v.push((1, "the Brusilov offensive is over (15.8)"));
    }
    v.extend(super::variants::ammunition_modifier(s));
    v
}

/// Units short for a modified roll on a turn (checklist 90; E.6 data): the band holding the
/// turn, its first cell for rolls of 0 or less, its last for rolls beyond.
pub fn lookup(s: &State, turn: u8, modified: i32) -> Option<u32> {
    let band = s.charts.ammunition.iter().find(|b| b.turns[0] <= turn && turn <= b.turns[1])?;
    let last = band.units.len().checked_sub(1)?;
    let i = usize::try_from(modified.max(0)).unwrap_or(0).min(last);
    band.units.get(i).copied()
}

/// Roll for the shortage and share out the markers (9.9, 9.11).
pub fn roll(s: &mut State, die: u32) -> Vec<Event> {
    if roll_due(s).is_none() {
        return vec![];
    }
    s.ammo.roll_due = false;
    s.ammo.rolled = true;
    let mods = modifiers(s);
    let modified = die as i32 + mods.iter().map(|(m, _)| m).sum::<i32>();
    let n = lookup(s, s.turn, modified).unwrap_or(0);
    let why: String = mods.iter().map(|(m, w)| format!(" {m:+} ({w})")).collect();
    let mut ev = vec![
        Event::roll(format!("ammunition shortage of turn {}", s.turn), "d6", die),
        Event::rule("WEF 9.9", format!("{die}{why} = {modified} in turn {}: {n} Russian units short of ammunition", s.turn)),
    ];
    s.ammo.russian_left = n.div_ceil(2);
    s.ammo.central_left = n / 2;
    ev.extend(settle(s));
    ev
}

/// Pass over a side that has nothing left to mark (9.13: markers that cannot be placed are
/// not used).
fn settle(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let room = eligible(s).len() as u32;
    if s.ammo.russian_left > room {
        ev.push(Event::rule("WEF 9.13", format!("{} Russian markers find no unit to go on and are not used", s.ammo.russian_left - room)));
        s.ammo.russian_left = room;
    }
    if s.ammo.russian_left == 0 && s.ammo.central_left > room {
        ev.push(Event::rule("WEF 9.13", format!("{} CP markers find no unit to go on and are not used", s.ammo.central_left - room)));
        s.ammo.central_left = room;
    }
    ev
}

/// Why `u` may not take a marker (9.11), or `None` when it may.
pub fn barred(s: &State, u: &Unit) -> Option<&'static str> {
    let Some(h) = u.hex() else { return Some("it is not on the map") };
    if u.nat != Nat::RU {
        return Some("markers go on Russian units");
    }
    if s.ammo.short.contains(&u.id) {
        return Some("it already has a marker (9.13)");
    }
    if s.fortress_at(h) {
        return Some("it is in an intact Russian fortress");
    }
    if s.board.named("Petrograd") == Some(h) {
        return Some("it is in Petrograd");
    }
    let russia = s.board.get(h).is_some_and(|i| i.country == Country::Russia);
    if russia && s.board.city(h) {
        let src = super::supply::sources(s, Side::Russian);
        if super::supply::status(s, u, &src) == super::supply::Status::Supplied {
            return Some("it is in a supplied city of Russia proper");
        }
    }
    if u.kind == Kind::Cavalry {
        return Some("it is cavalry");
    }
    if s.charts.guards.contains(&u.id) {
        return Some("it is a Guards unit");
    }
    if super::command::stavka(s).is_some_and(|x| x == h || x.is_adjacent(h)) {
        return Some("it is in or next to STAVKA's hex");
    }
    None
}

/// Russian units that may take a marker now.
pub fn eligible(s: &State) -> Vec<&Unit> {
    s.units.iter().filter(|u| u.hex().is_some() && barred(s, u).is_none()).collect()
}

/// The side that must place markers now, if any.
pub fn placing(s: &State) -> Option<Side> {
    if s.ammo.roll_due || s.outcome.is_some() {
        None
    } else if s.ammo.russian_left > 0 {
        Some(Side::Russian)
    } else if s.ammo.central_left > 0 {
        Some(Side::Central)
    } else {
        None
    }
}

/// How many markers `side` places now.
fn left(s: &State, side: Side) -> u32 {
    match side {
        Side::Russian => s.ammo.russian_left,
        Side::Central => s.ammo.central_left,
    }
}

/// Check a placement: the side's whole share (or as many as can go), on units 9.11 allows.
pub fn check(s: &State, side: Side, p: &AmmoMarkers) -> Vec<Violation> {
    if placing(s) != Some(side) {
        return vec![Violation::new("WEF 9.11", format!("the {} player has no ammunition markers to place now", side.title()))];
    }
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for id in &p.units {
        if !seen.insert(id) {
            errs.push(Violation::new("WEF 9.13", "one marker per unit").unit(id.clone()));
            continue;
        }
        match s.unit(id) {
            None => errs.push(Violation::new("WEF 9.11", format!("no unit {id}")).unit(id.clone())),
            Some(u) => {
                if let Some(why) = barred(s, u) {
                    errs.push(Violation::new("WEF 9.11", format!("no ammunition marker on {}: {why}", u.label())).unit(id.clone()));
                }
            }
        }
    }
    let n = left(s, side).min(eligible(s).len() as u32);
    if p.units.len() as u32 != n {
        errs.push(Violation::new(
            "WEF 9.11",
            format!("the {} player places {n} ammunition markers; {} named", side.title(), p.units.len()),
        ));
    }
    errs
}

/// Place the markers.
pub fn apply(s: &mut State, side: Side, p: &AmmoMarkers) -> Vec<Event> {
    s.ammo.short.extend(p.units.iter().cloned());
    match side {
        Side::Russian => s.ammo.russian_left = 0,
        Side::Central => s.ammo.central_left = 0,
    }
    let mut ev = vec![Event::rule("WEF 9.11", format!("the {} player marks {} short of ammunition", side.title(), p.units.join(", ")))];
    ev.extend(settle(s));
    ev
}

/// Whether `u` is short of ammunition this game turn (9.10).
pub fn short(s: &State, u: &Unit) -> bool {
    s.ammo.short.contains(&u.id)
}

/// The bot's placement: random eligible units.
pub fn bot_place(s: &State, side: Side, ch: &mut Dice) -> Action {
    let mut c: Vec<String> = eligible(s).into_iter().map(|u| u.id.clone()).collect();
    ch.shuffle(&mut c);
    c.truncate(left(s, side) as usize);
    Action::Ammunition(AmmoMarkers { units: c })
}

/// Lines for `describe`.
pub fn describe(s: &State) -> Vec<String> {
    let a = &s.ammo;
    let mut out = Vec::new();
    if a.roll_due {
        out.push("ammunition roll due".to_string());
    }
    if a.russian_left + a.central_left > 0 {
        out.push(format!("ammunition markers to place: russian {}, central {}", a.russian_left, a.central_left));
    }
    for id in &a.short {
        out.push(format!("short of ammunition {id}"));
    }
    out
}
