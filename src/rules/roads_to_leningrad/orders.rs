//! Orders as a seat writes them (`body.orders`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::crt::Table;
use super::state::Os;
use crate::geo::hex::HexId;

/// One entry's orders.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// RTL-7.14 as the Second Player writes it: the AMs he puts in his cup. His tool turns
    /// them into one commitment per slot and never sends the list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cup_choice: Vec<String>,
    /// RTL-7.14 as the log carries it: how many AMs went into the cup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cup: Option<u8>,
    /// RTL-7.15: the AM the First Player picks for the scenario's first OS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub am: Option<String>,
    /// RTL-7.31: with an AM in the pool, play the one just `drawn` (the default) or the
    /// `pooled` one (the other takes its place in the pool), or `combine` the two (7.33,
    /// two different formations, 7.32): the roll ends the entry, the other side's next entry
    /// settles it, and your next entry plays the sequence (`os`, written now, binds both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Play>,
    /// RTL-7.33b, with `play: combine`: which of the two AMs is turned face up (`drawn` or
    /// `pooled`); its Combination Value goes with the roll, and it activates whatever the
    /// roll. The other stays face down in the pool unless the roll succeeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_up: Option<Play>,
    /// RTL-15.33d, 7.33c, with `play: combine`: a leader of yours adding his CPs to the
    /// combination roll (+1 a CP). He must be within his range of an HQ of the face-up AM's
    /// formation (15.25b) and flips whatever the roll. Only a leader: never an HQ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combine_leader: Option<String>,
    /// RTL-7.21: the sequence chosen for the activated formation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os: Option<Os>,
    /// RTL-12.11 (digest G.4 standing instruction): from this entry on, these of your
    /// artillery units support the defence of any hex they are eligible for (12.13c), each
    /// in the first combat of a Combat Phase that it can reach; `[]` withdraws them all.
    /// Kept until changed. Artillery in the defending hex needs no instruction (12.23).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_artillery: Option<Vec<String>>,
    /// RTL-13.24a (standing instruction; reading): from this entry on, these of your air
    /// units, in this order, fly defensive CAS for your defending hexes: in each declared
    /// attack (never an overrun) the first two listed that are Ready and may reach the hex
    /// (a non-Disrupted HQ of yours within 4 hexes of it, 13.14) are committed; `[]`
    /// withdraws them all. Kept until changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_air: Option<Vec<String>>,
    /// RTL-9.4 (digest G.4 standing instruction): from this entry on, try No Retreat in
    /// each of these hexes of your strongpoints whenever one is a defending hex (9.41: it
    /// needs two steps there then; 9.42: the lead unit's ER check); `[]` withdraws it.
    /// Kept until changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_retreat: Option<Vec<HexId>>,
    /// RTL-14.26c: remove these strongpoints of yours, each with no unit in its hex; the
    /// markers can be used again at once (14.26d).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_strongpoints: Vec<HexId>,
    /// RTL-14.25a: in the Construction Phase of this Assault sequence, start a strongpoint
    /// under each of these units (before any move). A builder that later moves, retreats or
    /// attacks loses it (14.26b).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub build: Vec<String>,
    /// RTL-16.22, 16.23: in the Construction Phase of this Assault sequence (its first entry,
    /// before any move) or with `os: pass` (7.21c: a Pass does nothing else), put each of
    /// these bridge units of yours in a hex next to a stream or river, bridging one of its
    /// hexsides, within 4 hexes of an HQ of yours and not in an enemy ZOC (not in swamp
    /// unless a road, railway or trail crosses that hexside, 16.24); or take it off the map.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bridges: Vec<BridgeOrder>,
    /// RTL-7.45: first in the Movement Phase, try to activate these Army units outside the
    /// active formation's command range, each by an ER check. The checks end the entry (the
    /// other side's next entry rolls them) and your next entry goes on with the Movement
    /// Phase. Each try uses up an activation (7.42, 7.43), pass or fail.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub army_attempts: Vec<String>,
    /// RTL-9.2, in your Enemy Reaction Phase entry (the one the game asks of you after the
    /// enemy declares attacks you may answer): try Combat Refusal in these defending hexes,
    /// in this order. Each try is an ER check of the hex's lead unit with no DRM, rolled with
    /// the combats; a pass retreats the hex's units two hexes and cancels that attack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refuse: Vec<HexId>,
    /// RTL-9.3, in the same entry: Reaction moves of units near the defending hexes, unit by
    /// unit in this order, each made only if its own ER check passes (after every refusal)
    /// and its path is still open then; up to half its MA.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub react: Vec<Move>,
    /// RTL-15.3: HQs and leaders spending their command points, each on one check it names,
    /// before that check's die. With `army_attempts` or the attack declarations of this
    /// entry: `army` (an active HQ only), `ground`, `artillery`, `air` (an HQ of the active
    /// formation, or a leader); in your Enemy Reaction Phase entry: `react`, `no_retreat`,
    /// `defensive_artillery`, `defensive_air`. One HQ plus one leader per attack or defending
    /// hex (15.33). Each flips to "CPs used" until the Reorganization Phase (15.32, 15.34).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_points: Vec<CpOrder>,
    /// Moves then attack declarations, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "yaml_serde::with::singleton_map_recursive")]
    #[schemars(with = "Vec<Action>")]
    pub actions: Vec<Action>,
}

/// One HQ's or leader's spend of its command points (RTL-15.33): who spends and exactly one
/// check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CpOrder {
    /// The HQ, or a leader (RTL-15.31: 1 or 2 CPs, all spent at once, 15.32; a leader within
    /// his own range, 15.25).
    pub hq: String,
    /// The activation check of this Army unit, tried in this entry (15.33c: an active HQ,
    /// at any distance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    /// The ground coordination check of this entry's attack on this hex (15.33a2, 10.44b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground: Option<HexId>,
    /// The artillery coordination check of this entry's attack on this hex (15.33a2, 10.42b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery: Option<HexId>,
    /// The Reaction check of this unit, moved in this entry's `react` (15.33b1, 9.33a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub react: Option<String>,
    /// The No Retreat check in this defending hex (15.33b1, 9.42).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_retreat: Option<HexId>,
    /// The defensive artillery coordination check for this defending hex (15.33b4, 10.42b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_artillery: Option<HexId>,
    /// The CAS coordination check of this entry's attack on this hex (15.33a2, 10.41b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air: Option<HexId>,
    /// The defensive CAS coordination check for this defending hex (15.33b4, 10.41b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_air: Option<HexId>,
}

/// One bridge unit's placement (RTL-16.22, 16.23).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BridgeOrder {
    /// The bridge unit.
    pub unit: String,
    /// The hex it goes in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
    /// The neighbour of `hex` across the stream or river hexside it bridges (the counter's
    /// arrow, 16.21).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toward: Option<HexId>,
    /// Take it off the map instead (16.23: kept off as long as its owner likes).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub off_map: bool,
}

/// Which marker an OS plays (RTL-7.31): the drawn one, the pooled one, or both combined
/// (7.33; as `face_up`, only `drawn` or `pooled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Play {
    Drawn,
    Pooled,
    Combine,
}

/// One action of an operations sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Move one unit along adjacent hexes (RTL-8).
    Move(Move),
    /// Move a stack and overrun an enemy hex (RTL-8.6): the entry's last action, its
    /// dice rolled by the other side's next entry.
    Overrun(OverrunOrder),
    /// Declare an attack on one hex (RTL-9.1) with its standing instructions.
    Attack(AttackOrder),
}

/// An overrun (RTL-8.6): the stack moves along `path` as one, then tries to clear `hex`.
/// After the roll, a stack that cleared the hex stands in it and its units may go on
/// (`move` or another `overrun`) in the next entry with the MP they have left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverrunOrder {
    /// The overrunning stack: units that started the Movement Phase together in one hex
    /// (RTL-8.62b), or the stack of the last successful overrun going on.
    pub units: Vec<String>,
    /// Hexes entered, in order, before the overrun (none when it starts next to `hex`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<HexId>,
    /// The defending hex, next to the end of `path`.
    pub hex: HexId,
    /// The overrun's lead unit (RTL-8.67b); default the first unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<String>,
    /// One German type-A air unit giving it CAS (RTL-8.66, 13.22); its coordination check
    /// is rolled with the overrun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air: Option<String>,
}

/// A unit's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub unit: String,
    /// Hexes entered, in order.
    pub path: Vec<HexId>,
}

/// An attack declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackOrder {
    /// The defending hex.
    pub hex: HexId,
    /// The attacking units (adjacent).
    pub units: Vec<String>,
    /// The attacker's lead unit (RTL-3.43); default: the first unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<String>,
    /// The CRT (RTL-10.3); default Assault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crt: Option<Table>,
    /// Advance into the hex if it is emptied (RTL-11.6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advance: bool,
    /// Artillery units named to support the attack (RTL-10.42a, 12.11, 12.13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artillery: Vec<String>,
    /// The lead unit of the artillery coordination check (RTL-10.42a): one of `artillery`
    /// not adjacent to the defending hex; default the first such.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery_lead: Option<String>,
    /// Up to two Ready air units committed to its CAS (RTL-10.41a, 13.21).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub air: Vec<String>,
    /// The lead air unit of the CAS coordination check (RTL-10.41b); default the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air_lead: Option<String>,
}
