//! The bookkeeping of new units and strategic movement (WEF 10, 11): the replacement pools
//! that last from turn to turn, and what a game turn's New Units and SM phases have done so
//! far. The rules themselves live in `replacements`, `withdrawals` and `strategic`.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::state::{Nat, Phase, State};
use crate::engine::Event;

/// Where a New Units phase stands (10.1, 5.2): reinforcements, then (for the CP) the
/// conversions, then replacements, then withdrawals. A step once left is not gone back to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    #[default]
    Reinforcements,
    Replacements,
    Withdrawals,
}

impl Step {
    /// For players.
    pub fn title(self) -> &'static str {
        match self {
            Step::Reinforcements => "reinforcements",
            Step::Replacements => "replacements",
            Step::Withdrawals => "withdrawals",
        }
    }
}

/// The record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Logistics {
    /// Replacement SL on hand by pool: `DE` (the Turkish corps draws on it), `AH`, `RU`
    /// (10.8, 10.9).
    #[serde(default)]
    pub pools: BTreeMap<Nat, u32>,
    /// The step the current New Units phase has reached.
    #[serde(default)]
    pub step: Step,
    /// Whether the conversions of this turn were made (or missed) (10.14).
    #[serde(default)]
    pub converted: bool,
    /// Units that entered as reinforcements (or were rebuilt) this game turn (10.7).
    #[serde(default)]
    pub entered: BTreeSet<String>,
    /// Units that used SM this game turn, each with whether it started or ended in Russia or
    /// Russian Poland (11.3).
    #[serde(default)]
    pub rail: BTreeMap<String, bool>,
    /// Russian units that went off the map by SM this game turn: they neither move nor fight
    /// in their player turn (11.6).
    #[serde(default)]
    pub off_map: BTreeSet<String>,
    /// Infantry SL withdrawn this game turn by pool (10.17).
    #[serde(default)]
    pub withdrawn: BTreeMap<Nat, u32>,
}

/// The replacement pool a nationality draws on (10.8): German for the Turkish corps (2.5);
/// Russian for the Romanian army (reading: it counts as Russian, 15.6).
pub fn pool(nat: Nat) -> Nat {
    match nat {
        Nat::DE | Nat::TU => Nat::DE,
        Nat::AH => Nat::AH,
        Nat::RU | Nat::RO => Nat::RU,
    }
}

/// A new game turn: the record of the last one goes, the pools stay.
pub fn new_turn(s: &mut State) {
    let pools = std::mem::take(&mut s.logistics.pools);
    s.logistics = Logistics { pools, ..Logistics::default() };
}

/// What happens as a phase begins: a New Units phase opens at its first step and brings the
/// side's replacements (10.8).
pub fn phase_start(s: &mut State) -> Vec<Event> {
    match s.phase {
        Phase::RussianNewUnits | Phase::CentralNewUnits => {
            s.logistics.step = Step::Reinforcements;
            super::replacements::grant(s, s.phase.side())
        }
        _ => vec![],
    }
}
