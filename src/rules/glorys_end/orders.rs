//! Orders as players write them (parsed, not yet legal). The JSON Schema of [`Orders`] is
//! `schemas/orders-glorys-end.json`.
//!
//! An entry's orders is a list of actions applied in order:
//!
//! ```yaml
//! actions:
//!   - enter: {unit: FR-7, hex: 3640}               # reinforcement on the supply edge
//!   - replace: {unit: FR-9}                        # 1 replacement SL (phase A)
//!   - replace: {unit: DE-7, hex: 2710}             # rebuild an eliminated corps (campaigns)
//!   - withdraw: {corps: [DE-3, DE-9], cavalry: DE-2C}   # German T5 (or {decline: true})
//!   - out_of_command: [3131, 3232, 3030]           # opponent, after a C&C roll of 6
//!   - move: {units: [DE-7, DE-9], path: [3131, 3231, 3331]}
//!   - march_assault: {units: [DE-7, DE-9], target: 3332}
//!   - end_phase: movement
//!   - attack: {target: 3230, units: [DE-2, DE-4]}
//!   - attack: {target: 1621, units: [DE-9, DE-10], siege: [DE-420]}   # siege guns fire first
//!   - decide: {losses: [{unit: FR-9, sl: 1}], retreat: 3331}
//!   - decide: {losses: [{unit: DE-7, sl: 1}], advance: [DE-9]}
//!   - end_phase: combat
//!   - standing: {losses: [spread], retreat: [toward-supply], cavalry_withdraws: always}
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::geo::hex::HexId;

/// One entry's orders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Applied in order; the entry ends at its first random action.
    pub actions: Vec<Action>,
}

/// One action, written as a one-key map: `{move: {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Action(
    #[serde(with = "yaml_serde::with::singleton_map")]
    #[schemars(with = "ActionKind")]
    pub ActionKind,
);

/// What an action does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionKind {
    /// Place a reinforcement on the owner's supply edge (start of the player turn).
    Enter(Enter),
    /// Spend one replacement SL on a reduced infantry unit (phase A, GE-8.7).
    Replace(Replace),
    /// Operational movement of one unit or group (GE-12).
    Move(Move),
    /// March assault by the unit or group that just moved (GE-13.23).
    MarchAssault(Assault),
    /// Prepared assault (GE-13).
    Attack(Assault),
    /// Several prepared assaults declared at once (a batch, DESIGN §2.5), resolved one after
    /// the other (GE-13.2) with the entry's dice, every decision after each roll taken from
    /// both sides' standing instructions (`combat::declare_batch`).
    Attacks(Vec<Assault>),
    /// A decision after a combat roll: losses, retreat, advance (GE-13.18–13.21).
    Decide(Decide),
    /// After the opponent's command & control roll of 6: the hexes of his stacks that go out
    /// of command (GE-10.1).
    #[schemars(with = "Vec<u32>")]
    OutOfCommand(Vec<crate::geo::hex::HexId>),
    /// End the movement phase or the combat phase (which ends the player turn).
    EndPhase(PhaseName),
    /// Phase B: these units dig a trench (the roll's unit after a 1–3, and units next to an
    /// enemy trench, GE-9.1, 9.2).
    Entrench(Vec<String>),
    /// Standing instructions for the decisions the opponent's turn brings (loss allocation,
    /// retreats, cavalry withdrawal); they replace earlier ones and are kept until changed.
    /// Allowed in any entry of the side, whoever is to act.
    Standing(super::standing::Standing),
    /// Phase D: strategic movement by rail or (Allied, from T8) by sea (GE-11), before any
    /// unit makes its operational move.
    Strategic(super::strategic::Strategic),
    /// German, T2–T6: these infantry units force-march (+1 MP, no march assault, GE-12.10).
    ForcedMarch(Vec<String>),
    /// German turn 5, phase A (GE-8.8): make the Eastern Front withdrawal (two corps and a
    /// cavalry corps) or decline it.
    Withdraw(Withdraw),
    /// Secret setup (GE 3.3, 3.5): commit the placement (`{plan: ...}`, which the author's
    /// tool turns into a commitment) or open it (`{reveal: true}`).
    Deploy(super::secret::Deploy),
    /// Hidden stacks (option `hidden_counters`, GE 13.8): turn these own units of one hex face
    /// down under fresh counters; one unit of the stack stays shown as its top.
    Hide(super::counters::Hide),
    /// The game is over: open every own hidden counter so the result can be declared (the
    /// author's tool adds the openings).
    OpenCounters(bool),
}

/// Which phase to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    /// Phase C: ends with the command & control roll (from T9 on the Marne).
    Command,
    Movement,
    Combat,
}

/// A reinforcement entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Enter {
    pub unit: String,
    #[schemars(with = "u32")]
    pub hex: HexId,
}

/// A replacement: the unit regains 1 SL from its nationality's track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Replace {
    pub unit: String,
    /// Rebuilding an eliminated infantry corps (GE-8.7): the hex where it enters at 1 SL
    /// (German east edge, British Allied-controlled port, French south edge in France).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<u32>")]
    pub hex: Option<HexId>,
}

/// The German Eastern Front withdrawal of turn 5 (GE-8.8): all or nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Withdraw {
    /// The two supplied full-strength infantry corps (attack 5 or more) that leave for good.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corps: Vec<String>,
    /// The supplied cavalry corps that gives up 1 SL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cavalry: Option<String>,
    /// Decline the withdrawal instead (the Allies then get 20 Eastern Front VP, not 15, GE-4.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decline: bool,
}

/// A move: the hexes entered in order (the path may start with the current hex).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub units: Vec<String>,
    #[schemars(with = "Vec<u32>")]
    pub path: Vec<HexId>,
}

/// An attack on one hex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Assault {
    #[schemars(with = "u32")]
    pub target: HexId,
    pub units: Vec<String>,
    /// Prepared assault only: German siege guns stacked with attacking infantry that fire at
    /// the target's fortress or fortified zone first (GE-14.7–14.9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub siege: Vec<String>,
}

/// SL a unit gives up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Loss {
    pub unit: String,
    pub sl: u32,
}

/// A combat decision.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Decide {
    /// Loss allocation (GE-13.20).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<Loss>,
    /// Defender: the retreat hex (GE-13.18, 13.19); omit to stay when retreat is optional.
    /// Before combat (GE-13.25): the hex the cavalry withdraws to; omit to stand and fight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<u32>")]
    pub retreat: Option<HexId>,
    /// Attacker: units advancing into the emptied hex (GE-13.21).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advance: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_the_example() {
        let o: Orders = yaml_serde::from_str("actions:\n  - move: {units: [DE-7], path: [3131, 3231]}\n  - end_phase: movement\n  - decide: {losses: [{unit: FR-9, sl: 1}], retreat: 3331}\n").unwrap();
        assert_eq!(o.actions.len(), 3);
        let back = yaml_serde::to_string(&o).unwrap();
        let again: Orders = yaml_serde::from_str(&back).unwrap();
        assert_eq!(o, again);
    }
}

#[cfg(test)]
mod schema_tests {
    use crate::engine::Ruleset;
    use crate::rules::glorys_end::GlorysEnd;

    #[test]
    fn schema_names_the_actions() {
        let s = serde_json::to_string(&GlorysEnd::orders_schema()).expect("schema");
        for k in ["move", "march_assault", "attack", "decide", "end_phase", "enter"] {
            assert!(s.contains(&format!("\"{k}\"")), "schema lacks {k}");
        }
    }

    #[test]
    fn json_orders_parse_too() {
        let o: super::Orders =
            serde_json::from_str(r#"{"actions":[{"move":{"units":["DE-7"],"path":[3131,"3231"]}},{"end_phase":"movement"}]}"#)
                .expect("json");
        assert_eq!(o.actions.len(), 2);
    }
}
