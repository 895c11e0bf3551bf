//! Orders as players write them (`body.orders`): a list of actions, applied in order.
//!
//! ```yaml
//! actions:
//!   - enter: {unit: RU-1S, hex: "3112"}        # a reinforcement (WEF 10.2)
//!   - move: {units: [DE-1, DE-17], path: ["2515", "2616"]}   # one unit or a stacked group (12.x)
//!   - attack: {target: "2617", units: [DE-1, DE-17]}         # ends the entry: the roll follows (13.20)
//!   - rail: {unit: DE-GR, to: "2314"}                       # strategic movement (WEF 11)
//!   - restore: {unit: RU-3}                                  # 1 replacement SL (WEF 10.11)
//!   - rebuild: {unit: RU-4, hex: "3112", sl: 2}              # 1 or 2 SL (WEF 10.12)
//!   - withdraw: {unit: DE-FR}                                # a withdrawal due (WEF 10.15)
//!   - end_phase
//!   - event_withdraw: {event: D, units: [DE-17]}          # an event's withdrawal (WEF 7.2)
//!   - ammunition: {units: [RU-3, RU-4]}                    # ammunition markers (WEF 9.11)
//!   - brusilov                                             # declare the offensive (WEF 15.1)
//!   - deploy: {units: {RU-3: "2712"}}                     # Free Setup deployment (WEF 3.9)
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::geo::hex::HexId;

/// One entry's orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Applied in order; each written as a one-key map (`{move: {...}}`) or a word (`end_phase`).
    #[serde(with = "yaml_serde::with::singleton_map_recursive")]
    #[schemars(with = "Vec<Action>")]
    pub actions: Vec<Action>,
}

/// One action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Bring a reinforcement onto the map in a New Units phase (10.2).
    Enter(Enter),
    /// Move one unit, or a group that starts stacked, hex by hex (12.x).
    Move(Move),
    /// Attack one hex with units adjacent to it (13.3); the entry ends here.
    Attack(Attack),
    /// Finish the current phase (5.1: a finished phase is not taken back).
    EndPhase,
    /// Strategic movement by rail to a friendly town or city (11.2–11.6), in the side's SM phase.
    Rail(Rail),
    /// Spend 1 replacement SL to bring a reduced 2-SL unit on the map back to full strength (10.11).
    Restore(Restore),
    /// Spend 1 or 2 replacement SL to bring an eliminated unit back as a reinforcement (10.12).
    Rebuild(Rebuild),
    /// Set a unit aside for a withdrawal due this turn (10.15–10.17).
    Withdraw(Withdraw),
    /// A battle's decision, by the side whose turn it is to decide (13.22-13.27).
    Decide(Decide),
    /// Place STAVKA on a supplied Russian unit's hex at the start of the Russian Combat
    /// phase (14.2).
    Stavka(HexId),
    /// Place OberOst on a hex of supplied German units at the start of the CP Combat phase
    /// (14.3).
    Oberost(HexId),
    /// Remove these units of the opponent's overstacked hex (8.3).
    RemoveOverstack(Vec<String>),
    /// CP: turn units of one stack face down under counters (13.7; `fog.rs`).
    Hide(super::fog::Hide),
    /// CP: the entry that opens a stack the Russian attacked (13.7); the openings travel
    /// with the entry, added by the author's tool.
    Reveal,
    /// Withdraw the units a random event demands, in the side's New Units phase (7.2, 10.18).
    EventWithdraw(EventWithdraw),
    /// Place this side's ammunition-shortage markers on Russian units (9.11).
    Ammunition(AmmoMarkers),
    /// Russian: declare the Brusilov offensive at the start of his Combat phase, once, in
    /// turns 15-18 (15.1).
    Brusilov,
    /// Free Setup: place this side's starting units before turn 1 (3.9; `deploy.rs`).
    Deploy(super::deploy::Deploy),
}

/// A strategic move: the engine finds the railroad route (11.2), off the map and back along
/// the same friendly edge if need be (11.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rail {
    pub unit: String,
    /// The friendly town or city where the move ends.
    pub to: HexId,
}

/// A restoration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Restore {
    pub unit: String,
}

/// A rebuild: the unit enters at `hex` as a reinforcement of its nation would (10.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rebuild {
    pub unit: String,
    pub hex: HexId,
    /// Strength levels it returns with, each costing one replacement SL: 1 (reduced) or 2 (full).
    pub sl: u8,
}

/// A withdrawal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Withdraw {
    pub unit: String,
}

/// A decision in a battle (13.22-13.27). The defender may list his step losses and retreat;
/// the attacker lists his step losses and advances; lone cavalry retreats before the roll
/// (`retreat`) or stands (no `retreat`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Decide {
    /// One entry per step lost (a 2-SL unit listed twice loses both). May be left out when
    /// only one allocation is possible.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<String>,
    /// The defender's retreat hex (13.22, 13.27).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<HexId>,
    /// The attacker's advances (13.25) or breakthrough moves (13.26), each a group with the
    /// hexes it enters, the attacked hex first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advance: Vec<Move>,
}

/// The units withdrawn for one event (7.2 D, F, J, K).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventWithdraw {
    /// The event letter.
    pub event: char,
    pub units: Vec<String>,
}

/// Ammunition-shortage markers, one per unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmmoMarkers {
    pub units: Vec<String>,
}

/// A reinforcement's entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Enter {
    pub unit: String,
    pub hex: HexId,
}

/// A move: the hexes entered, in order (the start hex is not written).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub units: Vec<String>,
    pub path: Vec<HexId>,
}

/// An attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub target: HexId,
    pub units: Vec<String>,
}
