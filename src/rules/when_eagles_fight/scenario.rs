//! The scenario file (`scenarios/when-eagles-fight/*.yaml`): the map, the roster and the
//! charts, as data (DESIGN §3 "rule data is data"). Most of it is representative (the file
//! header says which parts); replacing it with the published data needs no code change.
//!
//! A parsed [`Scenario`] is not yet a playable one: [`Scenario::problems`] checks what the
//! rules need (every hex on the grid, factors that fit their kind, a CRT of the right shape).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The bundled Historical game (WEF 3.1–3.8).
pub const HISTORICAL_YAML: &str = include_str!("../../../scenarios/when-eagles-fight/historical.yaml");

/// A scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name (`historical`).
    pub name: String,
    /// One line for people.
    pub title: String,
    /// Version of the map, roster and charts: a log pins it through the scenario text.
    pub data_version: String,
    /// Free Setup (WEF 3.9): the sides deploy before turn 1, which is played in full.
    #[serde(default)]
    pub free_setup: bool,
    /// Russian Plan 19 (WEF 16), on a Free Setup scenario (also the option `plan_19: true`).
    #[serde(default)]
    pub plan_19: bool,
    /// Schlieffen East (WEF 17), on a Free Setup scenario: the German start's changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schlieffen_east: Option<super::variants::SevData>,
    pub charts: Charts,
    pub map: MapData,
    pub units: Vec<UnitData>,
}

/// The player-aid charts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Charts {
    /// The turn track, T1..T24 in order (E.1).
    pub turns: Vec<TurnBox>,
    pub crt: CrtData,
    pub tec: Tec,
    pub drm: DrmData,
    /// Replacement SL by nationality and turn band (E.10). Kept for the replacement rules.
    pub replacements: Vec<ReplacementBand>,
    /// Random events by 2d6 sum (E.7). Kept for the random-event rules.
    pub random_events: RandomEvents,
    /// Ammunition shortage by modified roll and turn band (E.6). Kept for 9.9.
    pub ammunition: Vec<AmmoBand>,
    /// Strategic movement limits by turn band (E.5, 11.3–11.5); the rules' figures when absent.
    #[serde(default = "sm_limits_of_the_rules")]
    pub sm_limits: Vec<SmBand>,
    /// German fortress garrison conversions (10.14).
    #[serde(default)]
    pub conversions: Vec<ConversionData>,
    /// Withdrawals printed on the turn track (10.16, 10.17).
    #[serde(default)]
    pub withdrawals: Vec<WithdrawalData>,
    /// The Guards (G) units, by id: they never take an ammunition marker (9.11).
    #[serde(default)]
    pub guards: Vec<String>,
}

/// Units each nationality may move by SM in one game turn, for a band of turns (11.3–11.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct SmBand {
    pub turns: [u8; 2],
    pub DE: u32,
    pub AH: u32,
    pub RU: u32,
    /// German SM units that may start or end in Russia or Russian Poland (11.3); no cap when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub DE_in_russia: Option<u32>,
}

/// The figures of 11.3–11.5 (E.5): Germans 6 in 1914–15 (3 of them in Russia), 5 from 1916;
/// A-H 4; Russians 5, 4, then 3.
pub fn sm_limits_of_the_rules() -> Vec<SmBand> {
    vec![
        SmBand { turns: [1, 4], DE: 6, AH: 4, RU: 5, DE_in_russia: Some(3) },
        SmBand { turns: [5, 13], DE: 6, AH: 4, RU: 4, DE_in_russia: Some(3) },
        SmBand { turns: [14, 24], DE: 5, AH: 4, RU: 3, DE_in_russia: None },
    ]
}

/// A fortress garrison converted in place into new units on a turn (10.14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConversionData {
    pub turn: u8,
    /// The fortress infantry unit replaced.
    pub fortress: String,
    /// The units that take its place (the new fortress infantry and the Landwehr corps).
    pub into: Vec<String>,
}

/// A withdrawal of the turn track: either `sl` infantry SL of a nationality in whole units
/// (10.17), or one named unit at full strength (10.16).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawalData {
    pub turn: u8,
    pub nat: super::state::Nat,
    /// Infantry SL to withdraw (whole units).
    #[serde(default)]
    pub sl: u32,
    /// The one unit to withdraw, at full strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The turn the withdrawn units come back as reinforcements; never when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<u8>,
    /// Units that never arrive when the named unit cannot be withdrawn (10.16).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancels: Vec<String>,
}

/// One box of the turn track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnBox {
    pub turn: u8,
    /// `"Aug 1914"`.
    pub date: String,
    /// A Jan/Feb turn (12.8 frozen swamps, 12.11 lakes).
    #[serde(default)]
    pub winter: bool,
    /// The victory check held at the end of this turn (4.1), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckBox>,
}

/// The figures of a victory-check box: "Russian Victory N/3, Rev R".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckBox {
    /// A-H victory hexes the Russian must control (4.3.2).
    pub ah_victory_hexes: u32,
    /// German cities the Russian must control (4.3.1).
    pub german_cities: u32,
    /// The revolution number (4.4).
    pub rev: u32,
}

/// The CRT as printed: one row per modified roll 1..9, one column per odds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrtData {
    /// Column labels, worst first: `["1:2", …, "5:1"]`.
    pub columns: Vec<String>,
    /// The result for odds worse than the first column (13.10): `"E/0"`.
    pub worse_than_worst: String,
    /// `rows[roll − 1][column]`, cells like `"1/3"`, `"1/E"`, `"B/E"`.
    pub rows: Vec<Vec<String>>,
}

/// Terrain effects (E.4): MP to enter and the defender's DRM.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tec {
    pub clear: TerrainCost,
    pub forest: TerrainCost,
    pub swamp: TerrainCost,
    pub mountain: TerrainCost,
    pub pass: TerrainCost,
    /// DRM of a river hex (13.13).
    pub river: i32,
    /// DRM of a city (13.14).
    pub city: i32,
    /// DRM of a city in Russia proper defended by Russians (13.14).
    pub russian_city_in_russia: i32,
    /// City hexes that give no city DRM (Kovno 2913, 13.14).
    #[serde(default)]
    pub no_city_drm: Vec<String>,
    /// DRM of an intact fortress (13.15).
    pub fortress: i32,
}

/// One terrain type's costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainCost {
    /// MP to enter.
    pub mp: u32,
    /// MP to enter in a Jan/Feb turn, when it differs (frozen swamp, 12.8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winter_mp: Option<u32>,
    /// MP to enter along a pass route (12.10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_mp: Option<u32>,
    /// The defender's DRM in this terrain.
    pub drm: i32,
}

/// The attacker's DRMs that are not terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrmData {
    /// Concentric assault on anyone but an all-German stack (13.16).
    pub concentric: i32,
    /// Concentric assault on an all-German stack (13.16).
    pub concentric_all_german: i32,
    /// A full-strength German active corps in the battle (13.19), for the CP.
    pub active_corps: i32,
}

/// Replacements for a band of turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct ReplacementBand {
    pub turns: [u8; 2],
    pub DE: u32,
    pub AH: u32,
    pub RU: u32,
}

/// The Random Events table by period.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomEvents {
    /// T5–T11, by 2d6 sum.
    pub early: BTreeMap<u8, String>,
    /// T12–T24, by 2d6 sum.
    pub late: BTreeMap<u8, String>,
}

/// Ammunition shortage for a band of turns: units short for modified rolls ≤0, 1, …, 6, ≥7.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmmoBand {
    pub turns: [u8; 2],
    pub units: Vec<u32>,
}

/// The map as written: one text line per column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapData {
    /// Where the map comes from (`"representative, …"`).
    pub source: String,
    pub columns: Span,
    pub rows: Span,
    /// Per column (`"24"`), one letter per row: `.` clear, `f` forest, `s` swamp, `m`
    /// mountain, `p` mountain pass, `~` sea.
    pub terrain: BTreeMap<String, String>,
    /// Per column, one letter per row: `G` Germany, `A` Austria-Hungary, `P` Russian Poland,
    /// `R` Russia proper, `N` Romania, `~` sea.
    pub country: BTreeMap<String, String>,
    /// River hexes (12.9).
    #[serde(default)]
    pub rivers: Vec<String>,
    /// Lake hexsides, `"2513/2514"` (12.11).
    #[serde(default)]
    pub lake_sides: Vec<String>,
    /// All-sea hexsides between land hexes (12.11).
    #[serde(default)]
    pub sea_sides: Vec<String>,
    /// Mountain pass routes, hex by hex (12.10).
    #[serde(default)]
    pub pass_routes: Vec<Vec<String>>,
    pub places: Vec<PlaceData>,
    /// A-H victory hexes besides the A-H cities (4.3).
    #[serde(default)]
    pub victory_hexes: Vec<String>,
    /// Railroad lines, hex by hex (9.6, 11.2).
    #[serde(default)]
    pub rail: Vec<Vec<String>>,
}

/// A first..last range of map column or row numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Span {
    pub first: u8,
    pub last: u8,
}

/// A town or city.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceData {
    pub hex: String,
    pub name: String,
    pub kind: PlaceKind,
}

/// How big a place is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    Town,
    City,
    /// A national capital (4.2, 9.7); also a city.
    Capital,
}

/// One counter of the roster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitData {
    pub id: String,
    pub name: String,
    pub nat: super::state::Nat,
    pub kind: super::state::Kind,
    pub size: super::state::Size,
    /// Attack, defence, movement at full strength.
    pub factors: [u8; 3],
    /// The back of a 2-SL unit (WEF 2.11); absent for a 1-SL unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<[u8; 3]>,
    /// The back of an A-H unit: its values once rebuilt (WEF 2.12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuilt: Option<[u8; 3]>,
    /// Non-replaceable (`*`, WEF 10.10).
    #[serde(default)]
    pub star: bool,
    /// The A-H army number when the counter prints one (`/2`, WEF 3.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<u8>,
    /// Setup hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// Entry turn of a reinforcement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u8>,
    /// A conditional entry code: `REG`, `B+1`..`B+3`, `FS`, `SEV` (WEF 2.14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
}

/// The JSON Schema of a scenario file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(Scenario)
}

/// Parse a scenario text.
pub fn parse(text: &str) -> Result<Scenario, String> {
    crate::log::yamlscan::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::{Scenario, parse};

    fn bundled(name: &str) -> Scenario {
        let b = crate::scenarios::find(&format!("when-eagles-fight/{name}")).expect("bundled");
        parse(b.text).expect("parses")
    }

    /// The variant files repeat the historical map, roster and charts (each file is whole, so a
    /// game's genesis pins all its data). This keeps the copies from drifting apart: they differ
    /// from the historical file only where their rules say (17: the SEV counters and the
    /// three-turn track).
    #[test]
    fn variant_scenarios_carry_the_historical_data() {
        let h = bundled("historical");
        for name in ["free-setup", "plan-19", "schlieffen-east"] {
            let v = bundled(name);
            assert_eq!(v.data_version, h.data_version, "{name}");
            assert!(v.map == h.map, "{name}: the map differs from historical.yaml's");
            let (mut hc, mut vc) = (h.charts.clone(), v.charts.clone());
            if name == "schlieffen-east" {
                assert_eq!(v.charts.turns.len(), 3, "17: three turns");
                for (a, b) in v.charts.turns.iter().zip(&h.charts.turns) {
                    assert_eq!(a.date, b.date, "{name}: turn {}", a.turn);
                }
                hc.turns.clear();
                vc.turns.clear();
            }
            assert!(vc == hc, "{name}: the charts differ from historical.yaml's");
            let own: Vec<_> = v.units.iter().filter(|u| u.when.as_deref() != Some("SEV")).cloned().collect();
            assert!(own == h.units, "{name}: the roster differs from historical.yaml's");
            let sev = v.units.len() - own.len();
            assert_eq!(sev, if name == "schlieffen-east" { 17 } else { 0 }, "{name}: SEV counters");
        }
    }
}
