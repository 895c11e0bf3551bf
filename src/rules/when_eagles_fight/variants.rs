//! The scenarios beside the historical game: Free Setup (WEF 3.9), Russian Plan 19 (16) and
//! Schlieffen East (17), as the few switches the rest of the ruleset asks about.
//!
//! * Free Setup: the deployment (`deploy.rs`) comes before turn 1; 3.4 (the game opening at
//!   the CP movement), 3.5 (the frozen A-H 2nd Army) and 3.6 (the A-H attack quota) are off,
//!   so turn 1 is played in full from phase II; 3.3 and 3.7 still hold.
//! * Plan 19 (on top of Free Setup): only the fortress infantry of Kronstadt, Riga, Warsaw
//!   and Odessa; +2 Russian replacement SL in turns 2–6; −1 on the Russian ammunition roll in
//!   turns 2–6 (reading: the rule text, not the aid card's "1–6", which the original's card
//!   also prints; the rule is the more specific of the two); STAVKA from turn 1 and every turn
//!   to turn 6, then the alternation again (used on 6, next on 8).
//! * Schlieffen East (a Free Setup): the German start changes (data: the scenario's `sev`
//!   lists), the CP player turn (V) comes before the Russian one (IV) in every game turn
//!   (reading: the joint phases II and III keep their printed order), no CP reinforcements and
//!   no fortress conversions, OberOst every turn; the game ends after turn 3 with one victory
//!   check (data: the scenario's turn track) which the CP loses unless the Tsar falls.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::state::{Kind, Nat, Phase, Place, Side, State, Unit};
use crate::geo::hex::HexId;

/// The fortresses Plan 19 keeps (16, item 1), by the place names of their printed hexes.
pub const PLAN_19_FORTRESSES: [&str; 4] = ["Kronstadt", "Riga", "Warsaw", "Odessa"];
/// Plan 19's extra Russian replacement SL per turn (16, item 2).
pub const PLAN_19_REPLACEMENTS: u32 = 2;
/// The turns Plan 19's replacements, ammunition modifier and free STAVKA cover (16).
pub const PLAN_19_TURNS: std::ops::RangeInclusive<u8> = 2..=6;
/// The last turn Plan 19 lets STAVKA be used every turn (16, item 4).
pub const PLAN_19_STAVKA_LAST: u8 = 6;

/// Which scenario rules are in force, and the deployment under way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// Free Setup (3.9): also true under Plan 19 and Schlieffen East.
    #[serde(default)]
    pub free_setup: bool,
    /// Russian Plan 19 (16).
    #[serde(default)]
    pub plan_19: bool,
    /// Schlieffen East (17).
    #[serde(default)]
    pub schlieffen_east: bool,
    /// The side deploying now (3.9): the Russian, then the CP; `None` once play begins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploying: Option<Side>,
    /// The units still to deploy, with the hex printed on the counter (the bot's first
    /// choice; none for the FS and SEV counters).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub to_deploy: BTreeMap<String, Option<HexId>>,
}

impl Variant {
    /// The historical game: nothing to record.
    pub fn is_historical(&self) -> bool {
        *self == Variant::default()
    }
}

/// The rules of the historical first turn (3.4–3.6) hold: not in a Free Setup game.
pub fn historical_first_turn(s: &State) -> bool {
    s.turn == 1 && !s.variant.free_setup
}

/// 3.5: the A-H 2nd Army may neither move nor attack in turn 1 of the historical game.
pub fn frozen(s: &State, u: &Unit) -> bool {
    historical_first_turn(s) && u.nat == Nat::AH && u.army == Some(2)
}

/// 3.6: the T1 A-H attack quota binds (historical game only).
pub fn rigid_planning(s: &State) -> bool {
    historical_first_turn(s)
}

/// The phase after `p` in this scenario: Schlieffen East plays the CP player turn (V) before
/// the Russian one (IV); the joint phases II and III keep their order (reading, F.4).
pub fn next_phase(s: &State, p: Phase) -> Option<Phase> {
    if !s.variant.schlieffen_east {
        return p.next();
    }
    match p {
        Phase::CentralStrategic => Some(Phase::CentralMovement),
        Phase::CentralCombat | Phase::OberOstCombat => Some(Phase::RussianMovement),
        Phase::RussianCombat => Some(Phase::VictoryCheck),
        other => other.next(),
    }
}

/// Plan 19's extra Russian replacement SL this turn (16, item 2).
pub fn extra_replacements(s: &State, nat: Nat) -> u32 {
    if s.variant.plan_19 && nat == Nat::RU && PLAN_19_TURNS.contains(&s.turn) { PLAN_19_REPLACEMENTS } else { 0 }
}

/// Plan 19's −1 on the Russian ammunition roll (16, item 3; 9.12).
pub fn ammunition_modifier(s: &State) -> Option<(i32, &'static str)> {
    (s.variant.plan_19 && PLAN_19_TURNS.contains(&s.turn)).then_some((-1, "Plan 19, turns 2-6 (16)"))
}

/// The first turn STAVKA may be used: turn 1 under Plan 19 (16, item 4), else 2 (14.2).
pub fn stavka_from(s: &State) -> u8 {
    if s.variant.plan_19 { 1 } else { super::command::STAVKA_FROM }
}

/// Whether STAVKA's use in the turn before bars it now (14.2): under Plan 19 not through
/// turn 6; a use on turn 6 still bars turn 7 (16, item 4).
pub fn stavka_rests(s: &State) -> bool {
    !(s.variant.plan_19 && s.turn <= PLAN_19_STAVKA_LAST)
}

/// Whether OberOst's use in the turn before bars it now (14.3): never in Schlieffen East (17).
pub fn oberost_rests(s: &State) -> bool {
    !s.variant.schlieffen_east
}

/// The Schlieffen East German start, from the scenario's data (17).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SevData {
    /// Starting units set aside (17: the 1st and 8th Cavalry and the 3R Infantry divisions).
    pub remove: Vec<String>,
    /// Reinforcements taken off the turn track into the starting force (17: twelve units).
    pub add: Vec<String>,
}

/// Turn a freshly built historical state into the scenario's: which units deploy, which are
/// out, and the deployment's first stage. Returns the problems of the data.
pub fn prepare(s: &mut State, plan_19: bool, sev: Option<&SevData>) -> Vec<String> {
    let mut problems = Vec::new();
    if !s.variant.free_setup {
        if plan_19 || sev.is_some() {
            problems.push("Plan 19 (WEF 16) and Schlieffen East (WEF 17) are played on a Free Setup (WEF 3.9) scenario".into());
        }
        return problems;
    }
    s.variant.plan_19 = plan_19;
    s.variant.schlieffen_east = sev.is_some();
    if plan_19 && sev.is_some() {
        problems.push("Plan 19 (WEF 16) and Schlieffen East (WEF 17) are two different scenarios".into());
    }
    let places: BTreeMap<HexId, String> = s.board.hexes().filter_map(|(h, i)| i.place.as_ref().map(|p| (h, p.0.clone()))).collect();
    let mut to_deploy = BTreeMap::new();
    for u in s.units.iter_mut() {
        let printed = u.hex();
        let starts = printed.is_some() || u.when.as_deref() == Some("FS");
        let sev_unit = u.when.as_deref() == Some("SEV");
        if let Some(sev) = sev {
            if sev.remove.contains(&u.id) {
                u.place = Place::Out;
                continue;
            }
            if sev.add.contains(&u.id) || sev_unit {
                u.when = None;
                to_deploy.insert(u.id.clone(), None);
                u.place = Place::Out;
                continue;
            }
            // 17: no CP reinforcements (and the conversions are cleared by the caller's data).
            if u.side() == Side::Central && matches!(u.place, Place::Track(_) | Place::Waiting) && u.when.as_deref() != Some("CONV") {
                u.place = Place::Out;
                continue;
            }
        }
        if u.kind == Kind::Fortress && printed.is_some() {
            // 16.1: under Plan 19 only four Russian fortresses are used.
            let keep = !plan_19
                || u.nat != Nat::RU
                || printed.and_then(|h| places.get(&h)).is_some_and(|n| PLAN_19_FORTRESSES.contains(&n.as_str()));
            if !keep {
                u.place = Place::Out;
            }
            continue;
        }
        if starts {
            if u.when.as_deref() == Some("FS") {
                u.when = None;
            }
            to_deploy.insert(u.id.clone(), printed);
            u.place = Place::Out;
        }
    }
    if let Some(sev) = sev {
        for id in sev.remove.iter().chain(&sev.add) {
            if s.unit(id).is_none() {
                problems.push(format!("Schlieffen East (WEF 17): there is no unit {id}"));
            }
        }
    }
    s.variant.to_deploy = to_deploy;
    s.variant.deploying = Some(Side::Russian);
    s.phase = Phase::RussianNewUnits;
    problems
}
