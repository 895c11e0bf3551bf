//! Random Events (WEF 7.1–7.3): the 2d6 roll that opens every game turn from T5, the table
//! by period (data, E.7), each event's conditions and effects, the withdrawals events demand
//! (with 10.15 and 10.19), and the No Verdun marker that can shorten the game (7.3). The
//! revolution modifiers of events A, B and L (4.5) are read by `victory`.
//!
//! Turn flow. Phase I comes before anything the Central Powers choose in the game turn, so the
//! roll is an ordinary roll of the entry that starts the turn (the CP entry that ends the
//! previous one, or the ack that settles a victory check) and is fixed by the Russian's next
//! entry, which then plays II.A with the event known: no entry is spent on the phase. The
//! choices inside an event (which units go) are made by the side concerned in its own New
//! Units & Withdrawals phase (10.18: event withdrawals follow 10.15), so F's corps goes in
//! II.A and the German or A-H units of D, J and K go in II.B.
//!
//! Readings (docs/when-eagles-fight/rules.md):
//! * an event whose conditions fail is "no event" (A without its cities too);
//! * D's return delay is rolled with the event (it precedes any choice), not when the units
//!   leave;
//! * an event's "n SL" is met with whole units totalling exactly n (10.17 asks it of the
//!   Balkans withdrawal), every unit supplied as 10.15 asks: a line to a 9.6 source, whose
//!   railroad leads to a friendly edge (or the sea link); a fortress or capital does not do;
//! * a second K, and J in 1917, are no event;
//! * the heavy artillery "in play" of 7.3 is the one on the map, less any the roll's event
//!   has just ordered withdrawn; the marker never moves before the current turn.
//!
//! Effects other rules apply: the replacement cuts of C, D, E, J and K ([`replacements`],
//! [`german_accumulation_allowed`]) in the replacement grant (10.8), the STAVKA removal of A
//! ([`stavka_removed`]) in STAVKA's placement (14.2). The Brusilov declaration (15.1,
//! `brusilov`) is read through [`brusilov_declared`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::control::controller;
use super::orders::{Action, EventWithdraw};
use super::state::{Kind, Nat, Place, Side, Size, State, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Outcome, Violation};

/// The first turn with a Random Events phase (7.1).
pub const FIRST_TURN: u8 = 5;
/// The first turn read on the second column of the table (7.1, "T12–24").
pub const LATE_FROM: u8 = 12;
/// The Verdun window (7.2 K).
pub const VERDUN: std::ops::RangeInclusive<u8> = 12..=15;
/// German SL already withdrawn that spare a D withdrawal (7.2 D).
pub const D_SPARED_AT: u32 = 12;

/// How an event cuts a nationality's replacements this turn (7.2 C, D, E, J, K).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// Halved, rounded down (3 → 1); the lost SL are gone.
    Halved,
    /// None this turn.
    Lost,
}

/// What an event makes a side withdraw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Need {
    /// Whole German infantry units totalling exactly this many SL (D, K).
    GermanInfantry(u8),
    /// One German heavy artillery unit (D after T15 without Verdun, K).
    Heavy,
    /// Any one infantry corps of the side (F: Russian, J: A-H).
    InfantryCorps,
}

/// When withdrawn units come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Return {
    /// As a reinforcement on this turn (D).
    Turn(u8),
    /// With the B+1 group of the Brusilov offensive (J).
    Brusilov,
    /// If event G comes later (F).
    CaucasusVictory,
    /// Never (K, the heavy artillery of D).
    Never,
}

/// A withdrawal an event demands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owed {
    pub side: Side,
    /// The event letter.
    pub event: char,
    /// The turn whose New Units & Withdrawals phase it falls in.
    pub turn: u8,
    /// Written `{german_infantry: 2}` or `heavy` (a one-key map, as in orders).
    #[serde(with = "yaml_serde::with::singleton_map")]
    pub need: Need,
    /// Written `{turn: 11}` or `never`.
    #[serde(with = "yaml_serde::with::singleton_map")]
    pub returns: Return,
}

/// An event marker on the turn track.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub turn: u8,
    /// The letter the dice gave.
    pub rolled: char,
    /// The event that took effect (C or D may act as K or D), or `None`: no event.
    pub effect: Option<char>,
}

/// What the events have done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Events {
    /// The 2d6 roll of this turn's Random Events phase is still to be made (7.1).
    pub roll_due: bool,
    /// Every roll, in order.
    pub track: Vec<Marker>,
    /// A: the Tsar took command.
    pub tsar_command: bool,
    /// B: the Tsar decreed reforms.
    pub reforms: bool,
    /// L: the "Peace, Bread, Land!" marker is out, and the turn it came.
    pub peace_bread_land: Option<u8>,
    /// The turn L last came (once between check turns).
    pub last_l: Option<u8>,
    /// I: Italy stays neutral.
    pub italy_neutral: bool,
    /// H: the Allies won at Gallipoli.
    pub gallipoli: bool,
    /// F came (once per game).
    pub caucasus_defeat: bool,
    /// G came (once per game).
    pub caucasus_victory: bool,
    /// Turns in which J came (once in 1915, once in 1916).
    pub italy_offensives: Vec<u8>,
    /// The turn of Verdun (K).
    pub verdun: Option<u8>,
    /// The box of the "No Verdun – Final Victory Check" marker (7.3).
    pub no_verdun: Option<u8>,
    /// This turn's cut of German replacements.
    pub german_cut: Option<Cut>,
    /// This turn's cut of A-H replacements.
    pub ah_cut: Option<Cut>,
    /// K: no German replacement SL may be kept from turn to turn any more.
    pub no_german_accumulation: bool,
    /// Withdrawals still owed.
    pub owed: Vec<Owed>,
    /// German units withdrawn by events or by 10.17, with the SL they took away (D's 12-SL limit).
    pub away: BTreeMap<String, u8>,
}

/// The turn the Brusilov offensive was declared (15.1), for the conditions that name it (J,
/// 4.5, 9.12, 15.9).
pub fn brusilov_declared(s: &State) -> Option<u8> {
    super::brusilov::declared(s)
}

/// A: STAVKA is gone for good once the Tsar takes command (14.2 refuses it from then on).
pub fn stavka_removed(s: &State) -> bool {
    s.events.tsar_command
}

/// The replacement SL a nationality receives this turn out of `base`, after C, D, E, J, K
/// (for the replacement rules, 10.8, when built). The Turkish corps counts as German.
pub fn replacements(s: &State, nat: Nat, base: u32) -> u32 {
    let cut = if nat.german() {
        s.events.german_cut
    } else if nat == Nat::AH {
        s.events.ah_cut
    } else {
        None
    };
    match cut {
        None => base,
        Some(Cut::Halved) => base / 2,
        Some(Cut::Lost) => 0,
    }
}

/// K: whether German replacement SL may still be carried over (10.9).
pub fn german_accumulation_allowed(s: &State) -> bool {
    !s.events.no_german_accumulation
}

/// The year of a turn, read from its box on the track (`"Jan/Feb 1915"`).
fn year(s: &State, turn: u8) -> Option<u16> {
    s.charts.turns.iter().find(|t| t.turn == turn)?.date.split_whitespace().last()?.parse().ok()
}

/// The start of a game turn: last turn's cuts are spent; from T5 the events roll is due (7.1).
pub fn new_turn(s: &mut State) -> Vec<Event> {
    s.events.german_cut = None;
    s.events.ah_cut = None;
    s.events.roll_due = s.turn >= FIRST_TURN;
    vec![]
}

/// The events roll waiting for its dice, described.
pub fn roll_due(s: &State) -> Option<String> {
    (s.events.roll_due && s.outcome.is_none()).then(|| format!("random events of turn {}: 2d6 (WEF 7.1)", s.turn))
}

/// The event letter a 2d6 sum gives on this turn's column (checklist 89; E.7 data).
pub fn lookup(s: &State, sum: u8) -> Option<char> {
    let column = if s.turn >= LATE_FROM { &s.charts.random_events.late } else { &s.charts.random_events.early };
    column.get(&sum).and_then(|l| l.chars().next())
}

/// The Random Events phase: roll two dice, read the letter, apply the event (7.1, 7.2), then
/// place or move the No Verdun marker (7.3).
pub fn roll(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    if roll_due(s).is_none() {
        return vec![];
    }
    s.events.roll_due = false;
    let (a, b) = (dice.d6(), dice.d6());
    let sum = (a + b) as u8;
    let column = if s.turn >= LATE_FROM { "T12-24" } else { "T5-11" };
    let mut ev = vec![
        Event::roll(format!("random events of turn {}: first die", s.turn), "d6", a),
        Event::roll(format!("random events of turn {}: second die", s.turn), "d6", b),
    ];
    let Some(letter) = lookup(s, sum) else {
        ev.push(Event::rule("WEF 7.1", format!("{sum} on the {column} column: the table gives no event")));
        return ev;
    };
    ev.push(Event::rule("WEF 7.1", format!("{sum} on the {column} column: event {letter}")));
    let (effect, e) = event(s, letter, dice);
    ev.extend(e);
    s.events.track.push(Marker { turn: s.turn, rolled: letter, effect });
    ev.extend(no_verdun(s));
    ev
}

fn none(letter: char, why: &str) -> (Option<char>, Vec<Event>) {
    (None, vec![Event::rule("WEF 7.2", format!("event {letter}: {why}: no event"))])
}

/// Event `letter` takes effect, as `what` says.
fn fired(letter: char, what: impl std::fmt::Display) -> (Option<char>, Vec<Event>) {
    (Some(letter), vec![Event::rule("WEF 7.2", format!("event {letter}: {what}"))])
}

/// Apply one event's conditions and effects; returns the event that took effect.
fn event(s: &mut State, letter: char, dice: &mut Dice) -> (Option<char>, Vec<Event>) {
    let t = s.turn;
    let verdun_window = VERDUN.contains(&t) && s.events.verdun.is_none();
    let after_verdun_window = t > *VERDUN.end() && s.events.verdun.is_none();
    // 15.9: after Verdun, without Brusilov, C and D do nothing from T19.
    let quiet_west = s.events.verdun.is_some() && brusilov_declared(s).is_none() && t >= 19;
    match letter {
        'A' => {
            if s.events.reforms {
                return none('A', "the Tsar has decreed reforms (B)");
            }
            if s.events.tsar_command {
                return none('A', "the Tsar already commands");
            }
            let cp = |name: &str| s.board.named(name).is_some_and(|h| controller(s, h) == Some(Side::Central));
            if !(cp("Warsaw") && (cp("Vilna") || cp("Brest-Litovsk"))) {
                return none('A', "the CP does not hold Warsaw and Vilna or Brest-Litovsk");
            }
            s.events.tsar_command = true;
            fired('A', "the Tsar takes command: STAVKA is removed for good; +1 to every later revolution roll")
        }
        'B' => {
            if s.events.tsar_command {
                return none('B', "the Tsar has taken command (A)");
            }
            if s.events.reforms {
                return none('B', "the reforms are already decreed");
            }
            s.events.reforms = true;
            fired('B', "the Tsar decrees reforms: -1 to every later revolution roll")
        }
        'C' if verdun_window => {
            let (e, mut ev) = event(s, 'K', dice);
            ev.insert(0, Event::rule("WEF 7.2", "event C in the Verdun window: it acts as K"));
            (e, ev)
        }
        'C' if after_verdun_window => {
            let (e, mut ev) = event(s, 'D', dice);
            ev.insert(0, Event::rule("WEF 7.2", "event C after turn 15 without Verdun: it acts as D"));
            (e, ev)
        }
        'C' if quiet_west => none('C', "Verdun was fought and Brusilov not declared (15.9)"),
        'C' => {
            s.events.german_cut = Some(Cut::Halved);
            fired('C', "German replacements this turn are halved, rounded down")
        }
        'D' if verdun_window => {
            let (e, mut ev) = event(s, 'K', dice);
            ev.insert(0, Event::rule("WEF 7.2", "event D in the Verdun window: it acts as K"));
            (e, ev)
        }
        'D' if quiet_west => none('D', "Verdun was fought and Brusilov not declared (15.9)"),
        'D' => {
            s.events.german_cut = Some(Cut::Halved);
            let mut ev = vec![Event::rule("WEF 7.2", "event D: German replacements this turn are halved, rounded down")];
            let away = withdrawn_german_sl(s);
            if away >= D_SPARED_AT {
                ev.push(Event::rule("WEF 7.2", format!("event D: {away} German SL are already withdrawn: none more go")));
            } else {
                let delay = dice.d6() as u8;
                ev.push(Event::roll(format!("event D of turn {t}: turns until the withdrawn units return"), "d6", u32::from(delay)));
                let back = t.saturating_add(delay);
                s.events.owed.push(Owed {
                    side: Side::Central,
                    event: 'D',
                    turn: t,
                    need: Need::GermanInfantry(2),
                    returns: Return::Turn(back),
                });
                ev.push(Event::rule(
                    "WEF 7.2",
                    format!("event D: the CP withdraws 2 German infantry SL in this turn's New Units phase; they return in turn {back}"),
                ));
            }
            if after_verdun_window {
                s.events.owed.push(Owed { side: Side::Central, event: 'D', turn: t, need: Need::Heavy, returns: Return::Never });
                ev.push(Event::rule(
                    "WEF 7.2",
                    "event D after turn 15 without Verdun: the CP also removes one heavy artillery unit for good",
                ));
            }
            (Some('D'), ev)
        }
        'E' => {
            if t == FIRST_TURN {
                return none('E', "not in turn 5");
            }
            if s.events.italy_neutral {
                return none('E', "Italy stays neutral (I)");
            }
            s.events.ah_cut = Some(Cut::Halved);
            fired('E', "A-H replacements this turn are halved, rounded down")
        }
        'F' => {
            if s.events.caucasus_victory {
                return none('F', "the Caucasus was won (G)");
            }
            if s.events.caucasus_defeat {
                return none('F', "it comes once per game");
            }
            s.events.caucasus_defeat = true;
            s.events.owed.push(Owed {
                side: Side::Russian,
                event: 'F',
                turn: t,
                need: Need::InfantryCorps,
                returns: Return::CaucasusVictory,
            });
            fired('F', "the Russian withdraws one infantry corps in this turn's New Units phase; it returns if G comes")
        }
        'G' => {
            if s.events.caucasus_victory {
                return none('G', "it comes once per game");
            }
            s.events.caucasus_victory = true;
            let next = t.saturating_add(1);
            let mut names = Vec::new();
            for u in
                s.units.iter_mut().filter(|u| u.side() == Side::Russian && u.place == Place::Waiting && u.when.as_deref() == Some("REG"))
            {
                u.place = Place::Track(next);
                u.sl = u.max_sl();
                names.push(u.id.clone());
            }
            let list = if names.is_empty() { "no unit".to_string() } else { names.join(", ") };
            fired('G', format!("decisive victory in the Caucasus: {list} enter in turn {next} (10.3)"))
        }
        'H' => {
            if t < 11 {
                return none('H', "not before turn 11");
            }
            if s.events.gallipoli {
                return none('H', "the Allies already won at Gallipoli");
            }
            s.events.gallipoli = true;
            fired('H', "Allied victory at Gallipoli: -2 to the Russian ammunition roll while he holds Odessa")
        }
        'I' => {
            if !(FIRST_TURN..=FIRST_TURN + 1).contains(&t) {
                return none('I', "only in turns 5 and 6");
            }
            s.events.italy_neutral = true;
            fired('I', "Italy stays neutral: E and J are no event for the rest of the game")
        }
        'J' => {
            if t < 8 {
                return none('J', "not in turns 5 to 7");
            }
            if s.events.italy_neutral {
                return none('J', "Italy stays neutral (I)");
            }
            if s.board.named("Lemberg").is_none_or(|h| controller(s, h) != Some(Side::Central)) {
                return none('J', "the CP does not hold Lemberg");
            }
            if brusilov_declared(s).is_some_and(|b| t <= b + 2) {
                return none('J', "the Brusilov offensive is under way");
            }
            let y = year(s, t);
            if !matches!(y, Some(1915 | 1916)) {
                return none('J', "it comes only in 1915 and 1916");
            }
            if s.events.italy_offensives.iter().any(|&o| year(s, o) == y) {
                return none('J', "it already came this year");
            }
            s.events.italy_offensives.push(t);
            s.events.ah_cut = Some(Cut::Lost);
            s.events.owed.push(Owed { side: Side::Central, event: 'J', turn: t, need: Need::InfantryCorps, returns: Return::Brusilov });
            fired(
                'J',
                "A-H offensive in Italy: no A-H replacements this turn; the CP withdraws one A-H infantry corps in this turn's New Units phase (it returns with the B+1 group)",
            )
        }
        'K' if after_verdun_window => {
            let (e, mut ev) = event(s, 'D', dice);
            ev.insert(0, Event::rule("WEF 7.2", "event K after turn 15 without Verdun: it acts as D"));
            (e, ev)
        }
        'K' => {
            if !VERDUN.contains(&t) {
                return none('K', "only in turns 12 to 15");
            }
            if s.events.verdun.is_some() {
                return none('K', "Verdun was already fought");
            }
            s.events.verdun = Some(t);
            s.events.german_cut = Some(Cut::Lost);
            s.events.no_german_accumulation = true;
            for turn in [t, t.saturating_add(1)] {
                s.events.owed.push(Owed { side: Side::Central, event: 'K', turn, need: Need::GermanInfantry(6), returns: Return::Never });
                s.events.owed.push(Owed { side: Side::Central, event: 'K', turn, need: Need::Heavy, returns: Return::Never });
            }
            fired(
                'K',
                format!(
                    "Verdun: in this turn and in turn {} the CP withdraws 6 German infantry SL and 1 heavy artillery unit, none to return; every German replacement SL on hand is lost and none may be kept from now on",
                    t + 1
                ),
            )
        }
        'L' => {
            let held = super::victory::russian_cities_held(s);
            if held < 3 {
                return none('L', &format!("the CP holds {held} Russian cities, not 3"));
            }
            if s.events.last_l.is_some_and(|l| !check_between(s, l, t)) {
                return none('L', "it already came since the last victory check");
            }
            s.events.last_l = Some(t);
            s.events.peace_bread_land = Some(t);
            fired('L', "\"Peace, Bread, Land!\": +1 to the next revolution roll")
        }
        other => none(other, "the rules know no such event"),
    }
}

/// A victory check was held at the end of a turn from `from` (included) to `to` (excluded).
fn check_between(s: &State, from: u8, to: u8) -> bool {
    s.charts.turns.iter().any(|b| b.check.is_some() && b.turn >= from && b.turn < to)
}

/// German SL that withdrawals (events, and the Balkans of 10.17) have taken off the map and
/// that are not back (D's limit: "for any reason"). A unit back and then lost is not away.
pub fn withdrawn_german_sl(s: &State) -> u32 {
    s.events
        .away
        .iter()
        .filter(|(id, _)| s.unit(id).is_some_and(|u| !matches!(u.place, Place::Hex(_) | Place::Eliminated | Place::Lost)))
        .map(|(_, &sl)| u32::from(sl))
        .sum()
}

/// German heavy artillery in play after this turn's roll (7.3): on the map, less the units
/// the roll's event has just ordered withdrawn.
pub fn heavy_in_play(s: &State) -> usize {
    let on_map = s.units.iter().filter(|u| u.kind == Kind::Heavy && u.hex().is_some()).count();
    let going = s.events.owed.iter().filter(|o| o.turn == s.turn && o.need == Need::Heavy).count();
    on_map.saturating_sub(going)
}

/// 7.3: without Verdun by the end of the T15 roll, the marker goes in the last box; from
/// T16 it moves one box earlier in each turn the CP still has heavy artillery in play, never
/// before the current turn. Its box is the last turn of the game.
fn no_verdun(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    if s.turn == *VERDUN.end() && s.events.verdun.is_none() && s.events.no_verdun.is_none() {
        s.events.no_verdun = Some(s.last_turn);
        ev.push(Event::rule("WEF 7.3", format!("no Verdun by turn {}: the No Verdun marker goes in box {}", s.turn, s.last_turn)));
    }
    if s.turn > *VERDUN.end()
        && let Some(b) = s.events.no_verdun
    {
        let guns = heavy_in_play(s);
        if guns > 0 && b > s.turn {
            s.events.no_verdun = Some(b - 1);
            s.last_turn = b - 1;
            ev.push(Event::rule(
                "WEF 7.3",
                format!(
                    "the CP keeps {guns} heavy artillery in play: the No Verdun marker moves to box {}, the last turn of the game",
                    b - 1
                ),
            ));
        }
    }
    ev
}

/// The 4.5 modifiers the events give a revolution roll, with their reasons. Brusilov's +1
/// counts from the turn of the declaration: that turn's roll comes after it (15.7).
pub fn revolution_drm(s: &State) -> Vec<(i32, &'static str)> {
    let mut v = Vec::new();
    if s.events.tsar_command {
        v.push((1, "the Tsar commands (A)"));
    }
    if brusilov_declared(s).is_some_and(|b| s.turn >= b) {
        v.push((1, "the Brusilov offensive (15.7)"));
    }
    if s.events.peace_bread_land.is_some() {
        v.push((1, "Peace, Bread, Land! (L)"));
    }
    if s.events.reforms {
        v.push((-1, "the Tsar's reforms (B)"));
    }
    v
}

/// The Tsar survived a check: the L marker comes off (4.5).
pub fn tsar_survives(s: &mut State) -> Vec<Event> {
    if s.events.peace_bread_land.take().is_some() {
        vec![Event::rule("WEF 4.5", "the \"Peace, Bread, Land!\" marker is removed")]
    } else {
        vec![]
    }
}

/// Withdrawals of `side` due in this turn's New Units phase.
pub fn due(s: &State, side: Side) -> Vec<&Owed> {
    s.events.owed.iter().filter(|o| o.side == side && o.turn == s.turn).collect()
}

/// Supplied as 10.15 asks: a line to a 9.6 source (reading in the module doc).
fn edge_supplied(s: &State, u: &Unit) -> bool {
    let src = super::supply::sources(s, u.side());
    super::supply::status(s, u, &src) == super::supply::Status::Supplied
}

/// Whether `u` can go to meet `need` of `side` (10.15 and the event's words).
fn fits(s: &State, side: Side, need: Need, u: &Unit) -> bool {
    if u.side() != side || u.hex().is_none() {
        return false;
    }
    let infantry = matches!(u.kind, Kind::Infantry | Kind::Active);
    let kind = match need {
        Need::GermanInfantry(_) => u.nat.german() && infantry,
        Need::Heavy => u.kind == Kind::Heavy,
        Need::InfantryCorps => infantry && u.size == Size::Corps && if side == Side::Russian { u.nat == Nat::RU } else { u.nat == Nat::AH },
    };
    kind && edge_supplied(s, u)
}

/// Units that could meet `need` now.
pub fn candidates(s: &State, side: Side, need: Need) -> Vec<&Unit> {
    s.units.iter().filter(|u| fits(s, side, need, u)).collect()
}

/// Whether `need` can be met now: SL needs are met exactly with 1- and 2-SL units whenever
/// the candidates hold enough (the needs are even).
fn can_meet(s: &State, side: Side, need: Need) -> bool {
    let c = candidates(s, side, need);
    match need {
        Need::GermanInfantry(n) => c.iter().map(|u| u32::from(u.sl)).sum::<u32>() >= u32::from(n),
        Need::Heavy | Need::InfantryCorps => !c.is_empty(),
    }
}

/// Check an `event_withdraw`: in the side's New Units phase, for an event it owes this turn,
/// with units that meet every withdrawal of that event exactly.
pub fn check_withdraw(s: &State, side: Side, w: &EventWithdraw) -> Vec<Violation> {
    if !(s.phase.new_units() && s.phase.side() == side) {
        return vec![Violation::new(
            "WEF 10.18",
            format!("event withdrawals are made in the side's New Units phase; now: {}", s.phase.title()),
        )];
    }
    let owed: Vec<&Owed> = due(s, side).into_iter().filter(|o| o.event == w.event).collect();
    if owed.is_empty() {
        return vec![Violation::new(
            "WEF 7.2",
            format!("no event {} withdrawal is owed by the {} player this turn", w.event, side.title()),
        )];
    }
    let mut errs = Vec::new();
    let mut seen = Vec::new();
    let mut sl = 0u32;
    let (mut heavy, mut corps) = (0usize, 0usize);
    for id in &w.units {
        if seen.contains(&id) {
            errs.push(Violation::new("WEF 7.2", "a unit is named twice").unit(id.clone()));
            continue;
        }
        seen.push(id);
        let Some(u) = s.unit(id) else {
            errs.push(Violation::new("WEF 7.2", format!("no unit {id}")).unit(id.clone()));
            continue;
        };
        let Some(need) = owed.iter().map(|o| o.need).find(|&n| fits(s, side, n, u)) else {
            let why = if u.side() == side && u.hex().is_some() && !edge_supplied(s, u) {
                ("WEF 10.15", "a withdrawn unit must be supplied from a friendly map-edge source".to_string())
            } else {
                ("WEF 7.2", format!("{} is not a unit event {} withdraws", u.label(), w.event))
            };
            errs.push(Violation::new(why.0, why.1).unit(id.clone()));
            continue;
        };
        match need {
            Need::GermanInfantry(_) => sl += u32::from(u.sl),
            Need::Heavy => heavy += 1,
            Need::InfantryCorps => corps += 1,
        }
    }
    for o in &owed {
        match o.need {
            Need::GermanInfantry(n) if sl != u32::from(n) => errs.push(Violation::new(
                "WEF 7.2",
                format!("event {} withdraws whole German infantry units of exactly {n} SL; these hold {sl}", o.event),
            )),
            // 10.19: a heavy artillery unit cut off or destroyed is simply not withdrawn.
            Need::Heavy if heavy != usize::from(can_meet(s, side, Need::Heavy)) => errs.push(Violation::new(
                "WEF 7.2",
                format!("event {} withdraws one heavy artillery unit (when one is supplied); {heavy} named", o.event),
            )),
            Need::InfantryCorps if corps != 1 => {
                errs.push(Violation::new("WEF 7.2", format!("event {} withdraws exactly one infantry corps; {corps} named", o.event)))
            }
            _ => {}
        }
    }
    errs
}

/// Withdraw the units (10.15: set aside, no movement) and record how they come back.
pub fn apply_withdraw(s: &mut State, side: Side, w: &EventWithdraw) -> Vec<Event> {
    let owed: Vec<Owed> = s.events.owed.iter().filter(|o| o.side == side && o.turn == s.turn && o.event == w.event).cloned().collect();
    s.events.owed.retain(|o| !(o.side == side && o.turn == s.turn && o.event == w.event));
    let mut ev = Vec::new();
    for id in &w.units {
        let Some(u) = s.unit(id) else { continue };
        let Some(o) = owed.iter().find(|o| fits(s, side, o.need, u)) else { continue };
        let (returns, german, sl) = (o.returns, u.nat.german(), u.sl);
        if german {
            s.events.away.insert(id.clone(), sl);
        }
        let Some(u) = s.unit_mut(id) else { continue };
        let back = match returns {
            Return::Turn(t) => {
                u.place = Place::Track(t);
                format!("returns as a reinforcement in turn {t}")
            }
            Return::Brusilov => {
                u.place = Place::Waiting;
                u.when = Some("B+1".into());
                "returns with the B+1 group of the Brusilov offensive".to_string()
            }
            Return::CaucasusVictory => {
                u.place = Place::Waiting;
                u.when = Some("REG".into());
                "returns if event G comes".to_string()
            }
            Return::Never => {
                u.place = Place::Out;
                "never returns".to_string()
            }
        };
        // 10.7: a reinforcement enters at full strength.
        u.sl = u.max_sl();
        ev.push(Event::rule("WEF 10.15", format!("{} is withdrawn (event {}) and {back}", u.label(), w.event)));
    }
    // 10.19: heavy artillery cut off or destroyed is not withdrawn, without penalty.
    let heavy_named = w.units.iter().any(|id| s.unit(id).is_some_and(|u| u.kind == Kind::Heavy));
    if owed.iter().any(|o| o.need == Need::Heavy) && !heavy_named {
        ev.push(Event::rule("WEF 10.19", format!("event {}: no heavy artillery can be withdrawn: no effect", w.event)));
    }
    ev
}

/// The end of a New Units phase: a withdrawal still owed that can be made refuses the end;
/// one that cannot is 10.19's loss of the game, except for heavy artillery, which lapses.
pub fn end_new_units(s: &mut State, side: Side) -> Result<Vec<Event>, Vec<Violation>> {
    let owed: Vec<Owed> = due(s, side).into_iter().cloned().collect();
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    let mut lost = None;
    for o in &owed {
        if can_meet(s, side, o.need) {
            errs.push(Violation::new(
                "WEF 7.2",
                format!("event {} owes a withdrawal ({}): make it before ending the phase", o.event, need_text(o.need)),
            ));
        } else if o.need == Need::Heavy {
            ev.push(Event::rule("WEF 10.19", format!("event {}: no heavy artillery can be withdrawn: no effect", o.event)));
        } else {
            lost = Some(o.clone());
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    s.events.owed.retain(|o| !(o.side == side && o.turn == s.turn));
    if let Some(o) = lost {
        let out = Outcome::Win {
            side: side.other().id().into(),
            reason: format!(
                "the {} player cannot make the withdrawal event {} demands ({}), WEF 10.19",
                side.title(),
                o.event,
                need_text(o.need)
            ),
        };
        ev.push(Event::rule("WEF 10.19", crate::engine::game::describe_outcome(&out)));
        s.outcome = Some(out);
    }
    Ok(ev)
}

fn need_text(n: Need) -> String {
    match n {
        Need::GermanInfantry(sl) => format!("{sl} German infantry SL"),
        Need::Heavy => "1 heavy artillery unit".into(),
        Need::InfantryCorps => "1 infantry corps".into(),
    }
}

/// The bot's withdrawals for this phase: random candidates meeting each owed need exactly,
/// one event after the other (two events may owe in one turn: K's second round and a D).
pub fn bot_withdrawals(state: &State, side: Side, ch: &mut Dice) -> Vec<Action> {
    let mut s = state.clone();
    let mut letters: Vec<char> = due(&s, side).iter().map(|o| o.event).collect();
    letters.dedup();
    let mut out = Vec::new();
    for letter in letters {
        let mut units: Vec<String> = Vec::new();
        for o in due(&s, side).into_iter().filter(|o| o.event == letter) {
            let mut c: Vec<&Unit> = candidates(&s, side, o.need);
            ch.shuffle(&mut c);
            match o.need {
                Need::GermanInfantry(n) => {
                    // Exactly n SL (n is even): 2-SL units first, then 1-SL ones.
                    c.sort_by_key(|u| std::cmp::Reverse(u.sl));
                    let mut left = u32::from(n);
                    for u in &c {
                        if u32::from(u.sl) <= left {
                            left -= u32::from(u.sl);
                            units.push(u.id.clone());
                        }
                    }
                }
                Need::Heavy | Need::InfantryCorps => units.extend(c.first().map(|u| u.id.clone())),
            }
        }
        let w = EventWithdraw { event: letter, units };
        if check_withdraw(&s, side, &w).is_empty() {
            apply_withdraw(&mut s, side, &w);
        }
        out.push(Action::EventWithdraw(w));
    }
    out
}

/// Lines for `describe`.
pub fn describe(s: &State) -> Vec<String> {
    let e = &s.events;
    let mut out = Vec::new();
    if e.roll_due {
        out.push(format!("random events roll due in turn {}", s.turn));
    }
    for m in &e.track {
        let took = match m.effect {
            Some(x) if x == m.rolled => format!("event {x}"),
            Some(x) => format!("event {} acting as {x}", m.rolled),
            None => format!("event {}: no event", m.rolled),
        };
        out.push(format!("random events turn {}: {took}", m.turn));
    }
    let flags = [
        (e.tsar_command, "Tsar in command (A)"),
        (e.reforms, "Tsar's reforms (B)"),
        (e.peace_bread_land.is_some(), "Peace, Bread, Land! marker (L)"),
        (e.italy_neutral, "Italy neutral (I)"),
        (e.gallipoli, "Gallipoli won (H)"),
        (e.no_german_accumulation, "no German replacement accumulation (K)"),
    ];
    for (on, what) in flags {
        if on {
            out.push(format!("in effect {what}"));
        }
    }
    if let Some(t) = e.verdun {
        out.push(format!("Verdun in turn {t}"));
    }
    if let Some(b) = e.no_verdun {
        out.push(format!("No Verdun marker in box {b}"));
    }
    if let Some(c) = e.german_cut {
        out.push(format!("German replacements this turn {c:?}"));
    }
    if let Some(c) = e.ah_cut {
        out.push(format!("A-H replacements this turn {c:?}"));
    }
    for o in &e.owed {
        out.push(format!("owed {} withdraws {} in turn {} (event {})", o.side.id(), need_text(o.need), o.turn, o.event));
    }
    out
}
