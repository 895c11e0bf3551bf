//! Orders as a seat writes them (`body.orders`): phase A's secret orders per tactical group,
//! and the actions of an activated formation.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::state::Status;
use crate::geo::hex::HexId;

/// One entry's orders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Phase A as the player writes it: every tactical group of the side with its orders,
    /// `OR` or `SO` (JDG 2.3.2). The tool turns this into commitments and never sends it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assign: BTreeMap<String, Status>,
    /// Phase A as the log carries it: the groups whose orders the entry commits to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// Phase A (JDG 1.A, 2.1.2): the CAMs the player puts into the cup this turn, among those
    /// the battle lets him choose (a required one goes in unnamed). The first side's tool
    /// commits to them and never sends them; the second side states them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cams: Vec<String>,
    /// Phase B (JDG 2.1.2): the first side's entry after the phase-B dice opens its committed
    /// CAM choice; `open_cams: true` says so (the tool adds the opening).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_cams: bool,
    /// Phase A (JDG 1.A, 5.2.1): units whose Reinforcement marker the player takes off; they
    /// follow their group's orders from now on. Public, not committed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop: Vec<String>,
    /// The seat's standing refusal policy for its cavalry from this entry on (JDG 8.8), in a
    /// phase-A or activation entry: `never`, `one_hex` or `two_hexes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refuse: Option<super::refusal::Refusal>,
    /// The seat's standing counter-attack policy from this entry on (JDG 8.7.2), in a
    /// phase-A or activation entry: `never`, `hold` or `advance`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_attack: Option<super::counter::CounterAttack>,
    /// The seat's standing counter-battery policy from this entry on (JDG 7.1), in a
    /// phase-A or activation entry: `never` or `always`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_battery: Option<super::reaction::CounterBattery>,
    /// The seat's standing reaction-fire policy from this entry on (JDG 7.1, 8.3.3), in a
    /// phase-A or activation entry: `never`, `top` (the top unit of the attacking stack) or
    /// `under_guns` (the infantry or cavalry under the guns of a mixed stack, 5.1.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction_fire: Option<super::reaction::ReactionFire>,
    /// The seat's standing pursuit policy for its attacked cavalry from this entry on (JDG
    /// 9.4, 9.5.1), in a phase-A or activation entry: `never` or `always` (pursue an
    /// attacker that left its hex on a PUR result or after a successful counter-charge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pursue: Option<super::charge::Pursuit>,
    /// The seat's standing evasion policy for its commander-in-chief from this entry on
    /// (JDG 2.5.2), in a phase-A or activation entry: `alone` (only the compulsory evasion,
    /// when no friendly unit shares his hex) or `always` (when stacked too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chief_evasion: Option<super::chief::Evasion>,
    /// The seat's standing rout policy from this entry on (JDG 10.4), in a phase-A or
    /// activation entry: `stop` (in the first town, village or castle a rout move enters,
    /// and stay there) or `run`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rout: Option<super::rout::RoutPolicy>,
    /// Phase B, by the strategic-initiative winner (JDG 3): the marker that acts first,
    /// `formation/n` (kept out of the cup; its actions follow in `actions`), or `decline`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Phase D: the activated formation's actions in order, the last one `end_activation`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "yaml_serde::with::singleton_map_recursive")]
    #[schemars(with = "Vec<Action>")]
    pub actions: Vec<Action>,
}

/// One action of an activation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Artillery fire (JDG 7): the entry ends with it; the other side's next entry settles
    /// its die.
    Fire(super::fire::FireOrder),
    /// Leader-initiative tests of SO groups (JDG 2.4.3), before any unit acts: the entry's
    /// last action; the other side's next entry rolls their dice, then the activation goes
    /// on (a group that passed acts as OR, one that failed may only rally).
    Initiative(super::initiative::InitiativeOrder),
    /// Every melee of the activation (JDG 8.3.1): the entry's last action; the other side's
    /// next entry rolls its dice, then the activation goes on (rally or end).
    Melee(super::melee::MeleeOrder),
    /// The units that try to rally (JDG 11.1): the entry's last action, it ends the
    /// activation once the other side's next entry has rolled its dice.
    Rally(super::rally::RallyOrder),
    /// A cavalry charge (JDG 9): the entry's last action; the other side's next entry rolls
    /// its dice (engagement test, square, counter-charge, combat, pursuit, end test), then
    /// the activation goes on.
    Charge(super::charge::ChargeOrder),
    /// Form a square with the infantry (and the artillery) of a hex (JDG 4.2).
    Square(SquareOrder),
    /// Move one unit along a path of adjacent hexes (JDG 4), ending with a facing.
    Move(Move),
    /// Bring one stack of reinforcements on by its entry hex and move it (JDG 5.2).
    Enter(super::reinforce::EnterOrder),
    /// Turn the infantry or cavalry (or the artillery) of a hex without moving (JDG 6.1.2).
    Face(Turn),
    /// Move the commander-in-chief (JDG 2.5.1).
    Chief(ChiefMove),
    /// The formation is done: the marker is set aside (JDG 2.2).
    EndActivation,
}

/// A unit's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub unit: String,
    /// Hexes entered, in order (the start hex left out).
    pub path: Vec<HexId>,
    /// The vertex faced at the end, 0..5; default: as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
    /// Forced march: double MA, far from the enemy (JDG 4.1.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
}

/// A change of facing in place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub unit: String,
    pub facing: u8,
}

/// The commander-in-chief's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChiefMove {
    pub path: Vec<HexId>,
}

/// Forming a square (JDG 4.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareOrder {
    /// The hex whose infantry (and the artillery with it) forms square.
    pub hex: HexId,
}
