//! Orders as players write them (`body.orders`): a list of actions, applied in order.
//!
//! ```yaml
//! actions:
//!   - enter: {unit: RU-1S, hex: "3112"}        # a reinforcement (WEF 10.2)
//!   - move: {units: [DE-1, DE-17], path: ["2515", "2616"]}   # one unit or a stacked group (12.x)
//!   - attack: {target: "2617", units: [DE-1, DE-17]}         # ends the entry: the roll follows (13.20)
//!   - end_phase
//!   - event_withdraw: {event: D, units: [DE-17]}          # an event's withdrawal (WEF 7.2)
//!   - ammunition: {units: [RU-3, RU-4]}                    # ammunition markers (WEF 9.11)
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
    /// Withdraw the units a random event demands, in the side's New Units phase (7.2, 10.18).
    EventWithdraw(EventWithdraw),
    /// Place this side's ammunition-shortage markers on Russian units (9.11).
    Ammunition(AmmoMarkers),
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
