//! The Brusilov Offensive and Romania (WEF 15.1–15.9, 10.4, 10.5).
//!
//! * 15.1: the Russian may declare the offensive once a game, in a turn from 15 to 18, at the
//!   start of his Combat phase (before any attack; the ammunition roll that opens the phase
//!   comes first, as for STAVKA). Turn B is the turn of the declaration; the offensive runs
//!   through B+2.
//! * 15.2: during the offensive a Russian attack on a hex holding A-H units only, at the 1:1
//!   or 2:1 column, gets +3 in B, +2 in B+1, +1 in B+2; STAVKA's DRM is not added to it.
//! * 15.3: while the Tsar commands (event A), one Russian attack in all north of hex row xx20
//!   during the three turns. Readings: "in all" (not one a turn), an attack is "north of xx20"
//!   when its target hex is, and the limit lapses for the rest of the offensive once the CP
//!   has made two or more attacks north of xx20 in one turn of it.
//! * 15.4 / 6.4: the German units allowed in combined stacks rise by one a turn after the
//!   declaration: B+1 4, B+2 5, from B+3 6. Reading: 6.4's schedule ("each following turn")
//!   is taken over 15.4's "at once", which is read as "with no further condition".
//! * 15.5 / 10.5, 10.4: the declaration puts the conditional units (`when: B+n`, the German
//!   seven and an A-H corps event J sent away) on the turn track for B+n; the Romanian army
//!   enters in B+3, at Jassy 3532 only. Ordinary 10.6 applies: not entered, lost.
//! * 15.6 / 3.2: Romania is closed to every unit until B+3; from then on it is open, Jassy is
//!   a Russian supply source while the CP does not hold it, and the Romanian army never enters
//!   a hex north of row xx29.
//! * 15.7 and 15.8 live where the rolls are (`events::revolution_drm`, `ammunition::modifiers`)
//!   and read [`declared`].
//! * 15.9: after Verdun (K) with no offensive declared, events C and D do nothing from T19
//!   (`events`), and in T22 one German heavy artillery unit the events sent away (or, failing
//!   one, an eliminated one) is put on the track as a CP reinforcement of that turn.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::board::Country;
use super::state::{Battle, Kind, Nat, Phase, Place, Side, State, Unit};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The first and last turn the offensive may be declared (15.1).
pub const TURNS: std::ops::RangeInclusive<u8> = 15..=18;
/// North of this hex row (last two digits) the Tsar limits Russian attacks (15.3).
pub const TSAR_NORTH_LIMIT: u8 = 20;
/// North of this hex row the Romanian army never goes (15.6).
pub const ROMANIA_NORTH_LIMIT: u8 = 29;
/// The turn a German heavy artillery unit returns after Verdun without Brusilov (15.9).
pub const HEAVY_RETURN_TURN: u8 = 22;

/// The offensive's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Brusilov {
    /// The turn of the declaration (B).
    pub declared: Option<u8>,
    /// Russian attacks made north of row xx20 during the offensive (15.3).
    pub russian_north: u8,
    /// CP attacks north of row xx20 in each turn of the offensive (15.3's lapse).
    pub central_north: BTreeMap<u8, u8>,
}

/// The turn the offensive was declared (B), if it was.
pub fn declared(s: &State) -> Option<u8> {
    s.brusilov.declared
}

/// The offensive's turn now: 0 in B, 1 in B+1, 2 in B+2; `None` outside it.
pub fn offensive_turn(s: &State) -> Option<u8> {
    declared(s).and_then(|b| s.turn.checked_sub(b)).filter(|n| *n <= 2)
}

/// Romania is in the war (15.6): from B+3.
pub fn romania_at_war(s: &State) -> bool {
    declared(s).is_some_and(|b| s.turn >= b + 3)
}

/// Whether `h` is in Romania while it is still neutral (3.2): no unit enters, attacks or
/// traces into it.
pub fn neutral(s: &State, h: HexId) -> bool {
    s.board.get(h).is_some_and(|i| i.country == Country::Romania) && !romania_at_war(s)
}

/// Whether the Romanian army `u` would go north of row xx29 by entering `h` (15.6).
pub fn romanian_too_far_north(u: &Unit, h: HexId) -> bool {
    u.nat == Nat::RO && h.col < ROMANIA_NORTH_LIMIT
}

/// The refusal for a hex of still-neutral Romania (3.2).
pub fn neutral_violation(h: HexId) -> Violation {
    Violation::new("WEF 3.2", format!("{h} is in Romania, neutral until it enters the war (15.6)")).hex(h.to_string())
}

/// The refusal for the Romanian army north of xx29 (15.6).
pub fn north_violation(u: &Unit, h: HexId) -> Violation {
    Violation::new("WEF 15.6", format!("the Romanian army never goes north of hex row xx{ROMANIA_NORTH_LIMIT} ({h})"))
        .unit(u.id.clone())
        .hex(h.to_string())
}

/// What the offensive adds to the 6.4 combined-stack limit (15.4): one a turn after B, three
/// at most.
pub fn combined_bonus(s: &State) -> usize {
    declared(s).and_then(|b| s.turn.checked_sub(b)).map_or(0, |n| usize::from(n.min(3)))
}

/// Jassy, a Russian supply source once Romania is at war and while the CP does not hold it
/// (9.6, 15.6).
pub fn jassy_source(s: &State) -> Option<HexId> {
    let j = s.board.named("Jassy")?;
    (romania_at_war(s) && super::control::controller(s, j) != Some(Side::Central)).then_some(j)
}

/// The 15.2 DRM of a battle, if it applies: a Russian attack during the offensive on a hex
/// of A-H units only, at the 1:1 or 2:1 column.
pub fn drm(s: &State, side: Side, defenders: &[&Unit], column: Option<usize>) -> Option<i32> {
    let n = offensive_turn(s)?;
    if side != Side::Russian || defenders.is_empty() || !defenders.iter().all(|u| u.nat == Nat::AH) {
        return None;
    }
    let label = s.charts.crt.columns.get(column?)?;
    if label != "1:1" && label != "2:1" {
        return None;
    }
    Some(3 - i32::from(n))
}

/// 15.3: the Tsar's limit on a Russian attack against `target`, if it refuses it.
pub fn tsar_limit(s: &State, side: Side, target: HexId) -> Option<Violation> {
    offensive_turn(s)?;
    if side != Side::Russian || !s.events.tsar_command || target.col >= TSAR_NORTH_LIMIT || s.brusilov.russian_north == 0 {
        return None;
    }
    if lapsed(s) {
        return None;
    }
    Some(
        Violation::new(
            "WEF 15.3",
            format!(
                "the Tsar commands: only one Russian attack north of hex row xx{TSAR_NORTH_LIMIT} during the Brusilov offensive, and it was made"
            ),
        )
        .hex(target.to_string()),
    )
}

/// 15.3: the Tsar's limit lapses once the CP has attacked north of xx20 more than once in a
/// turn of the offensive.
pub fn lapsed(s: &State) -> bool {
    s.brusilov.central_north.values().any(|n| *n > 1)
}

/// Record a battle for 15.3 as it starts.
pub fn record(s: &mut State, b: &Battle) {
    if offensive_turn(s).is_none() || b.target.col >= TSAR_NORTH_LIMIT {
        return;
    }
    match b.attacker {
        Side::Russian => s.brusilov.russian_north += 1,
        Side::Central => *s.brusilov.central_north.entry(s.turn).or_default() += 1,
    }
}

/// Whether the Russian may declare now (15.1), or why not.
pub fn check(s: &State, side: Side) -> Vec<Violation> {
    let mut errs = Vec::new();
    let start = s.attacked.is_empty() && s.targets.is_empty() && s.battle.is_none() && s.decision.is_none();
    if side != Side::Russian || s.phase != Phase::RussianCombat || !start {
        errs.push(Violation::new(
            "WEF 15.1",
            "the Russian declares the Brusilov offensive at the start of his Combat phase, before any attack",
        ));
    }
    if s.ammo.rolled {
        errs.push(Violation::new(
            "WEF 15.1",
            "the Brusilov offensive is declared before the ammunition roll (5.2 IV.B), in the entry that ends the movement phase",
        ));
    }
    if !TURNS.contains(&s.turn) {
        errs.push(Violation::new(
            "WEF 15.1",
            format!("the Brusilov offensive may be declared in turns {} to {} only; now turn {}", TURNS.start(), TURNS.end(), s.turn),
        ));
    }
    if let Some(b) = declared(s) {
        errs.push(Violation::new("WEF 15.1", format!("the Brusilov offensive was declared in turn {b}: once a game")));
    }
    errs
}

/// Declare the offensive: B is now; the conditional units go on the track (10.4, 10.5).
pub fn declare(s: &mut State, side: Side) -> Result<Vec<Event>, Vec<Violation>> {
    let errs = check(s, side);
    if !errs.is_empty() {
        return Err(errs);
    }
    let b = s.turn;
    s.brusilov.declared = Some(b);
    let mut ev =
        vec![Event::rule("WEF 15.1", format!("the Russian declares the Brusilov offensive in turn {b}: it runs through turn {}", b + 2))];
    for u in s.units.iter_mut().filter(|u| u.place == Place::Waiting) {
        let Some(n) = u.when.as_deref().and_then(|w| w.strip_prefix("B+")).and_then(|n| n.parse::<u8>().ok()) else { continue };
        u.place = Place::Track(b + n);
        u.sl = u.max_sl();
        let rule = if u.nat == Nat::RO { "WEF 10.4" } else { "WEF 10.5" };
        let at = if u.nat == Nat::RO { " at Jassy" } else { "" };
        ev.push(Event::rule(rule, format!("{} enters{at} in turn {} (B+{n})", u.label(), b + n)));
    }
    Ok(ev)
}

/// A new game turn: Romania's entry into the war is announced (15.6); in T22 after Verdun
/// without Brusilov a German heavy artillery unit comes back (15.9).
pub fn new_turn(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    if declared(s).is_some_and(|b| s.turn == b + 3) {
        ev.push(Event::rule(
            "WEF 15.6",
            "Romania enters the war on the Russian side: its territory is open and Jassy is a Russian supply source",
        ));
    }
    if s.turn == HEAVY_RETURN_TURN && s.events.verdun.is_some() && declared(s).is_none() {
        let heavy = |u: &&Unit| u.nat == Nat::DE && u.kind == Kind::Heavy;
        let sent =
            s.units.iter().filter(heavy).find(|u| s.events.away.contains_key(&u.id) && matches!(u.place, Place::Out | Place::Withdrawn));
        let id = sent.or_else(|| s.units.iter().filter(heavy).find(|u| u.place == Place::Eliminated)).map(|u| u.id.clone());
        let turn = s.turn;
        match id.and_then(|id| s.unit_mut(&id)) {
            Some(u) => {
                u.place = Place::Track(turn);
                u.sl = u.max_sl();
                ev.push(Event::rule("WEF 15.9", format!("Verdun without Brusilov: {} returns as a CP reinforcement this turn", u.label())));
            }
            None => ev.push(Event::rule("WEF 15.9", "Verdun without Brusilov: no German heavy artillery is out of play to return")),
        }
    }
    ev
}

#[cfg(test)]
mod tests {
    use super::super::WhenEaglesFight;
    use super::super::cases::case_seats;
    use super::super::orders::Action;
    use super::super::scenario::HISTORICAL_YAML;
    use super::super::state::Phase;
    use crate::dice::Dice;
    use crate::engine::Ruleset;

    /// The bot declares the offensive now and then, so self-play reaches these rules.
    #[test]
    fn bot_declares_sometimes() {
        let mut s = WhenEaglesFight::setup(HISTORICAL_YAML, None, &case_seats()).expect("setup");
        s.turn = 16;
        // The bot declares after ending its movement phase, before the ammunition roll.
        s.phase = Phase::RussianMovement;
        let declared = (0u8..40)
            .filter(|i| {
                let mut ch = Dice::from_seed(&crate::crypto::Hash([*i; 32]));
                let o = super::super::legal::random_orders(&s, "russian", &mut ch);
                o.is_some_and(|o| o.actions.contains(&Action::Brusilov))
            })
            .count();
        assert!(declared > 0 && declared < 40, "declared in {declared} of 40");
        s.brusilov.declared = Some(15);
        let mut ch = Dice::from_seed(&crate::crypto::Hash([1; 32]));
        let o = super::super::legal::random_orders(&s, "russian", &mut ch);
        assert!(o.is_none_or(|o| !o.actions.contains(&Action::Brusilov)));
    }
}
