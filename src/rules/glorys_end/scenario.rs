//! Glory's End scenarios: the raw file ([`ScenarioFile`], what a YAML scenario deserialises
//! into; a JSON Schema is generated from it) and the checked [`Scenario`] the rules run on.
//!
//! [`Scenario::from_text`] parses and validates in one go and reports every problem it finds
//! as a plain message naming the item at fault (a unit id, a hex, a list entry).
//!
//! Unit ids are `NAT-DESIG`: the nationality code, a hyphen and the designation with the
//! rulebook's abbreviations (GE 2.6) glued on, e.g. `DE-7`, `DE-GD`, `DE-10R`, `DE-1C`,
//! `FR-9`, `FR-42D`, `FR-4RG`, `GB-1`, `GB-4D`, `GB-19B`, `GB-1CD`. See the docs
//! (`docs/glorys-end/map-and-scenario.md`) for the whole scheme.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use super::map::Side;
use super::map::{Edge, Map, MapFile, VpHex};
use crate::geo::hex::HexId;

/// The bundled Battle of the Marne scenario (GE 16).
pub const MARNE_YAML: &str = include_str!("../../../scenarios/glorys-end/marne.yaml");

/// The bundled Short Historical Campaign (GE 17), on the representative campaign map.
pub const SHORT_CAMPAIGN_YAML: &str = include_str!("../../../scenarios/glorys-end/short-campaign.yaml");

/// The bundled Historical Campaign (GE 3.2, 3.3: 30 turns), on the same map.
pub const CAMPAIGN_YAML: &str = include_str!("../../../scenarios/glorys-end/campaign.yaml");
/// The bundled Free Deployment Campaign (GE 3.5, 3.6).
pub const FREE_DEPLOYMENT_YAML: &str = include_str!("../../../scenarios/glorys-end/free-deployment.yaml");

/// Nationality (GE 2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub enum Nationality {
    DE,
    FR,
    GB,
    BE,
}

impl Nationality {
    /// The side the nationality fights for.
    pub fn side(self) -> Side {
        match self {
            Nationality::DE => Side::German,
            _ => Side::Allied,
        }
    }
    /// The two-letter code.
    pub fn code(self) -> &'static str {
        match self {
            Nationality::DE => "DE",
            Nationality::FR => "FR",
            Nationality::GB => "GB",
            Nationality::BE => "BE",
        }
    }
}

impl std::fmt::Display for Nationality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Unit type (GE 2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitType {
    Infantry,
    NavalInfantry,
    /// Fortress infantry.
    Fortress,
    Cavalry,
    SiegeGun,
}

/// Unit size (GE 2.8). A bracketed ad hoc group has the size it approximates and
/// `group: true`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitSize {
    Corps,
    Division,
    Brigade,
    Battalion,
    /// No size symbol (fortress counters, siege guns).
    None,
}

impl UnitSize {
    /// The NATO size symbol: `XXX`, `XX`, `X`, `I`.
    pub fn symbol(self) -> &'static str {
        match self {
            UnitSize::Corps => "XXX",
            UnitSize::Division => "XX",
            UnitSize::Brigade => "X",
            UnitSize::Battalion => "I",
            UnitSize::None => "",
        }
    }
}

/// Cavalry's bracketed factors, used when the opposing force is cavalry only (GE 13.24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VsCav {
    pub attack: u32,
    pub defence: u32,
}

/// A unit's printed values at one strength level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlValues {
    pub attack: u32,
    pub defence: u32,
    pub movement: u32,
    /// Cavalry only: the bracketed factors against a cavalry-only force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_cav: Option<VsCav>,
}

impl SlValues {
    /// Attack factor against a force that is (`true`) or is not cavalry only.
    pub fn attack_vs(&self, cavalry_only: bool) -> u32 {
        match (cavalry_only, self.vs_cav) {
            (true, Some(v)) => v.attack,
            _ => self.attack,
        }
    }
    /// Defence factor against a force that is (`true`) or is not cavalry only.
    pub fn defence_vs(&self, cavalry_only: bool) -> u32 {
        match (cavalry_only, self.vs_cav) {
            (true, Some(v)) => v.defence,
            _ => self.defence,
        }
    }
}

impl std::fmt::Display for SlValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(v) = self.vs_cav {
            if v.attack == v.defence && self.attack == self.defence {
                return write!(f, "({}){}-{}", v.attack, self.attack, self.movement);
            }
            write!(f, "({}-{})", v.attack, v.defence)?;
        }
        write!(f, "{}-{}-{}", self.attack, self.defence, self.movement)
    }
}

/// Parse a counter value string: `"6-7-4"` (attack-defence-movement), `"(2)1-6"` (cavalry:
/// bracketed factor vs cavalry, plain factor vs others, both used for attack and defence;
/// then movement) or `"(2-3)1-2-6"` (cavalry with separate attack and defence figures).
pub fn parse_values(s: &str) -> Result<SlValues, String> {
    let bad = || format!("{s:?} is not a value string like 6-7-4 or (2)1-6");
    let t = s.trim();
    let (cav, rest) = if let Some(r) = t.strip_prefix('(') {
        let (inner, rest) = r.split_once(')').ok_or_else(bad)?;
        let nums: Vec<u32> = inner.split('-').map(|x| x.trim().parse::<u32>()).collect::<Result<_, _>>().map_err(|_| bad())?;
        let v = match nums[..] {
            [c] => VsCav { attack: c, defence: c },
            [a, d] => VsCav { attack: a, defence: d },
            _ => return Err(bad()),
        };
        (Some(v), rest)
    } else {
        (None, t)
    };
    let nums: Vec<u32> = rest.split('-').map(|x| x.trim().parse::<u32>()).collect::<Result<_, _>>().map_err(|_| bad())?;
    match (cav, &nums[..]) {
        (_, [a, d, m]) => Ok(SlValues { attack: *a, defence: *d, movement: *m, vs_cav: cav }),
        (Some(_), [n, m]) => Ok(SlValues { attack: *n, defence: *n, movement: *m, vs_cav: cav }),
        _ => Err(bad()),
    }
}

/// How a reinforcement arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryMode {
    /// By strategic movement (GE 11), counting against rail capacity.
    Strategic,
    /// By operational movement from the entry hex.
    Operational,
}

/// Where a reinforcement enters. Written `north`, `south`, `east`, `west` (any hex of that
/// map edge), `paris` (any Paris hex) or a hex id (`3130`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "EntryRepr", into = "String")]
#[schemars(with = "EntryRepr")]
pub enum Entry {
    /// Any hex of a map edge.
    Edge(Edge),
    /// A given hex.
    Hex(HexId),
    /// Any Paris hex.
    Paris,
    /// Any Allied-controlled port free of German units; the west edge if the German holds
    /// them all (GE 8.3, British reinforcements).
    Port,
    /// Any supplied, Allied-controlled French city (GE 8.4 errata, French 2nd Cavalry Corps).
    City,
}

/// How an [`Entry`] is written.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum EntryRepr {
    /// A hex id as an integer.
    Int(u64),
    /// `north`, `south`, `east`, `west`, `paris`, `port`, `city` or a hex id.
    Str(String),
}

impl TryFrom<EntryRepr> for Entry {
    type Error = String;
    fn try_from(r: EntryRepr) -> Result<Self, Self::Error> {
        let s = match r {
            EntryRepr::Int(n) => format!("{n:04}"),
            EntryRepr::Str(s) => s,
        };
        Ok(match s.to_ascii_lowercase().as_str() {
            "north" => Entry::Edge(Edge::North),
            "south" => Entry::Edge(Edge::South),
            "east" => Entry::Edge(Edge::East),
            "west" => Entry::Edge(Edge::West),
            "paris" => Entry::Paris,
            "port" => Entry::Port,
            "city" => Entry::City,
            _ => Entry::Hex(s.parse().map_err(|_| format!("entry {s:?}: use north, south, east, west, paris, port, city or a hex id"))?),
        })
    }
}

impl From<Entry> for String {
    fn from(e: Entry) -> String {
        match e {
            Entry::Edge(Edge::North) => "north".into(),
            Entry::Edge(Edge::South) => "south".into(),
            Entry::Edge(Edge::East) => "east".into(),
            Entry::Edge(Edge::West) => "west".into(),
            Entry::Paris => "paris".into(),
            Entry::Port => "port".into(),
            Entry::City => "city".into(),
            Entry::Hex(h) => h.to_string(),
        }
    }
}

/// A reinforcement's arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arrival {
    pub turn: u32,
    pub entry: Entry,
    pub mode: EntryMode,
}

/// Where a unit starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// On the map at setup.
    Hex(HexId),
    /// Arrives later.
    Reinforcement(Arrival),
}

/// One unit of the roster, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpec {
    /// Short id used in orders: `DE-7`.
    pub id: String,
    /// Display name: `DE 7 XXX`.
    pub name: String,
    pub side: Side,
    pub nationality: Nationality,
    pub unit_type: UnitType,
    pub size: UnitSize,
    /// A bracketed ad hoc group.
    pub group: bool,
    pub max_sl: u8,
    /// Printed values, index `sl - 1` (so `values[max_sl - 1]` is full strength).
    pub values: Vec<SlValues>,
    /// SL at the start of the scenario or on arrival.
    pub start_sl: u8,
    pub placement: Placement,
    /// The army it starts with (GE 3.3, 3.4): `None` for units of no army.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<u8>,
}

impl UnitSpec {
    /// Values at a strength level (1..=max_sl); `None` for 0 or above max.
    pub fn at(&self, sl: u8) -> Option<&SlValues> {
        if sl == 0 { None } else { self.values.get(sl as usize - 1) }
    }
    /// Corps-size for stacking and VP (GE 6.1): corps, including corps-size groups.
    pub fn is_corps(&self) -> bool {
        self.size == UnitSize::Corps
    }
    pub fn is_division(&self) -> bool {
        self.size == UnitSize::Division
    }
    pub fn is_cavalry(&self) -> bool {
        self.unit_type == UnitType::Cavalry
    }
    /// The setup hex, if it starts on the map.
    pub fn start_hex(&self) -> Option<HexId> {
        match self.placement {
            Placement::Hex(h) => Some(h),
            Placement::Reinforcement(_) => None,
        }
    }
    /// The arrival, if it is a reinforcement.
    pub fn arrival(&self) -> Option<&Arrival> {
        match &self.placement {
            Placement::Reinforcement(a) => Some(a),
            Placement::Hex(_) => None,
        }
    }
}

/// A fortress counter (GE 14.2): works and garrison in one, 1 intrinsic SL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fort {
    pub id: String,
    pub name: String,
    pub nationality: Nationality,
    pub hex: HexId,
    pub defence: u32,
    /// Modern forts' modifier to the siege-gun roll (GE 14.10); 0 if none printed.
    #[serde(default)]
    pub siege_modifier: i32,
}

/// A fortified zone marker (GE 14.3): never built or rebuilt, so every zone is placed here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneSpec {
    /// Whose zone it is.
    pub nationality: Nationality,
    pub hex: HexId,
    /// What it stands for (`"Thionville position"`), for the reader.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// A German siege gun (GE 14.7): no combat factors, no SL, a calibre for the Siege Gun Table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SiegeGunSpec {
    pub id: String,
    pub name: String,
    /// 305 or 420 (mm): picks the Siege Gun Table row (E.2).
    pub calibre: u32,
    /// Setup hex.
    pub hex: HexId,
    /// Operational movement allowance (the rulebook does not give it: GE 14.7 gap).
    pub movement: u32,
}

/// Turn span of the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turns {
    pub first: u32,
    pub last: u32,
    /// Who moves first in each game turn (in Glory's End the Allied player).
    pub first_player: Side,
}

/// Who controls what at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControlFile {
    /// The side controlling every hex not listed and not occupied.
    pub default: Side,
    #[serde(default)]
    pub german: Vec<HexId>,
    #[serde(default)]
    pub allied: Vec<HexId>,
    /// Whether a hex holding a side's units at start is that side's (default true).
    #[serde(default = "yes")]
    pub occupied_hexes_are_occupiers: bool,
    /// Countries whose hexes start under a side's control (GE 4.7: Germany is German),
    /// unless a marker or an occupant says otherwise.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_country: BTreeMap<super::map::Country, Side>,
}

fn yes() -> bool {
    true
}

/// Checked starting control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitialControl {
    pub default: Side,
    /// Control markers (explicit hexes).
    pub markers: BTreeMap<HexId, Side>,
    pub occupied_hexes_are_occupiers: bool,
    /// Countries whose hexes start under a side's control.
    #[serde(default)]
    pub by_country: BTreeMap<super::map::Country, Side>,
}

/// A VP town: the side scoring it and its value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VpTown {
    /// A place name from the map.
    pub name: String,
    /// Its hex; if given it must be where the map puts the place; if left out, the map's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
    /// Who scores it by holding it.
    pub side: Side,
    pub value: u32,
    /// A conditional VP hex (GE 4.3): scores only at the end of the full campaign.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub conditional: bool,
}

/// What an elimination award counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VpPer {
    /// Each corps-size unit (corps-size groups included), any type.
    Corps,
    /// Each division-size unit, any type.
    Division,
    /// Each SL eliminated.
    Sl,
}

/// VP for eliminating enemy units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EliminationVp {
    /// Who scores.
    pub scorer: Side,
    /// Whose units count.
    pub victims: Vec<Nationality>,
    pub per: VpPer,
    pub value: u32,
}

/// VP for units deep in enemy territory at the end (Marne: German supplied units south of
/// row 31).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitsBeyondRowVp {
    pub side: Side,
    /// Units in rows at least this number count.
    pub min_row: u8,
    pub value: u32,
    #[serde(default = "yes")]
    pub supplied_only: bool,
}

/// The VP schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VpSchedule {
    #[serde(default)]
    pub start: BTreeMap<Side, i32>,
    #[serde(default)]
    pub towns: Vec<VpTown>,
    #[serde(default)]
    pub eliminations: Vec<EliminationVp>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units_beyond_row: Vec<UnitsBeyondRowVp>,
}

/// When an automatic victory is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AutoWinWhen {
    /// At the end of each of that side's player turns.
    EndOfOwnPlayerTurn,
}

/// An automatic victory for holding any one of some hexes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AutoWin {
    pub side: Side,
    pub hexes: Vec<HexId>,
    pub when: AutoWinWhen,
}

/// A recurring replacement grant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementGrant {
    pub nationality: Nationality,
    pub from_turn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_turn: Option<u32>,
    pub per_turn: u32,
}

/// Replacement track values (GE 8.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Replacements {
    /// On the track at start.
    #[serde(default)]
    pub start: BTreeMap<Nationality, u32>,
    #[serde(default)]
    pub grants: Vec<ReplacementGrant>,
    /// May eliminated units be rebuilt (GE 16.3: no, in the Marne)?
    #[serde(default = "yes")]
    pub rebuild_eliminated: bool,
}

impl Replacements {
    /// SL a nationality receives on `turn` (sum over grants).
    pub fn grant(&self, nat: Nationality, turn: u32) -> u32 {
        self.grants
            .iter()
            .filter(|g| g.nationality == nat && turn >= g.from_turn && g.to_turn.is_none_or(|t| turn <= t))
            .map(|g| g.per_turn)
            .sum()
    }
}

/// Scenario-specific switches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialRules {
    /// The first player turn skips its C&C phase (already rolled; GE 16.3).
    #[serde(default)]
    pub skip_first_command_check: bool,
    /// Units forced off these edges count as eliminated for VP (GE 16.1: German, east and
    /// west). Other off-map retreats remove units without VP.
    #[serde(default)]
    pub off_map_eliminated: BTreeMap<Side, Vec<Edge>>,
    /// Optional rule GE 10.4 (Hentsch) allowed by agreement.
    #[serde(default)]
    pub hentsch_optional: bool,
    /// Belgium counts as violated (GE 8.7, 11.2 pre-T10 restrictions).
    #[serde(default)]
    pub belgium_violated: bool,
}

/// A unit as written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitFile {
    /// Short id: `DE-7`.
    pub id: String,
    /// Display name: `DE 7 XXX`.
    pub name: String,
    pub side: Side,
    pub nationality: Nationality,
    #[serde(rename = "type")]
    pub unit_type: UnitType,
    pub size: UnitSize,
    #[serde(default)]
    pub group: bool,
    pub max_sl: u8,
    /// One value string per SL, lowest first: `["2-3-4", "4-4-4", "5-6-4", "6-7-4"]`.
    pub values: Vec<String>,
    /// SL at start (or on arrival).
    pub sl: u8,
    /// Setup hex; give either this or `arrives`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<Arrival>,
    /// The army it is set up with (GE 3.3; army-0 units carry the army they were assigned,
    /// GE 3.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<u8>,
}

/// A mobilization marker (GE 3.3): the hex an army sets up around.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mobilization {
    pub side: Side,
    pub army: u8,
    pub hex: HexId,
}

/// Campaign rules (GE 3, 4, 7, 8, 17) switched on for a campaign scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    /// The Short Historical Campaign's special rules and victory (GE 17).
    #[serde(default)]
    pub short: bool,
    /// How the initial-army units are set up (GE 3.3, 3.5).
    #[serde(default, skip_serializing_if = "Deployment::is_fixed")]
    pub deployment: Deployment,
}

/// How a campaign's initial-army units are set up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Deployment {
    /// At the scenario's setup hexes (the genesis option `secret_setup: true` turns it into
    /// `secret`).
    #[default]
    Fixed,
    /// Each side's placement committed in secret, then opened (GE 3.3).
    Secret,
    /// Free deployment: markers and placement committed in secret, then opened (GE 3.5, 3.6).
    Free,
}

impl Deployment {
    /// The default.
    pub fn is_fixed(&self) -> bool {
        *self == Deployment::Fixed
    }
}

/// A Glory's End scenario file as written (YAML).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Short name: `marne`.
    pub name: String,
    pub title: String,
    /// Where the data comes from; what is representative.
    #[serde(default)]
    pub source: String,
    pub turns: Turns,
    pub map: MapFile,
    pub units: Vec<UnitFile>,
    #[serde(default)]
    pub forts: Vec<Fort>,
    pub control: ControlFile,
    /// Hexes whose stacks start out of command.
    #[serde(default)]
    pub out_of_command: Vec<HexId>,
    pub victory: VpSchedule,
    #[serde(default)]
    pub auto_win: Vec<AutoWin>,
    /// Primary supply edges per side.
    pub supply_edges: BTreeMap<Side, Vec<Edge>>,
    pub replacements: Replacements,
    #[serde(default)]
    pub special: SpecialRules,
    /// Mobilization markers (GE 3.3); a campaign's setup is checked against them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mobilization: Vec<Mobilization>,
    /// Campaign rules; absent for the Marne.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignFile>,
    /// Fortified zone markers (GE 14.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fortified_zones: Vec<ZoneSpec>,
    /// German siege guns (GE 14.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub siege_guns: Vec<SiegeGunSpec>,
}

/// A checked scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub name: String,
    pub title: String,
    pub source: String,
    pub turns: Turns,
    /// The map, with `vp_hexes` filled from the VP towns.
    pub map: Map,
    /// The roster in file order.
    pub units: Vec<UnitSpec>,
    pub forts: Vec<Fort>,
    pub control: InitialControl,
    pub out_of_command: BTreeSet<HexId>,
    pub victory: VpSchedule,
    pub auto_win: Vec<AutoWin>,
    pub supply_edges: BTreeMap<Side, Vec<Edge>>,
    pub replacements: Replacements,
    pub special: SpecialRules,
    pub mobilization: Vec<Mobilization>,
    pub campaign: Option<CampaignFile>,
    /// Fortified zones (GE 14.3).
    pub fortified_zones: Vec<ZoneSpec>,
    /// German siege guns (GE 14.7).
    pub siege_guns: Vec<SiegeGunSpec>,
}

/// Stacking limits at setup (GE 6.1).
pub const MAX_SL_PER_HEX: u32 = 9;
pub const MAX_CORPS_PER_HEX: usize = 2;

impl Scenario {
    /// The bundled Marne scenario (panics only if the bundled file is broken, which a test
    /// rules out).
    pub fn marne() -> Scenario {
        Scenario::from_text(MARNE_YAML).expect("bundled marne.yaml is valid")
    }

    /// Parse and check a scenario. Errors are plain messages naming the offending item.
    pub fn from_text(text: &str) -> Result<Scenario, Vec<String>> {
        let raw: ScenarioFile = crate::log::yamlscan::from_str(text).map_err(|e| vec![format!("cannot parse the scenario: {e}")])?;
        Scenario::from_file(raw)
    }

    /// Check a parsed scenario file.
    pub fn from_file(raw: ScenarioFile) -> Result<Scenario, Vec<String>> {
        let mut p: Vec<String> = Vec::new();
        let map = match Map::from_file(&raw.map) {
            Ok(m) => Some(m),
            Err(e) => {
                p.extend(e);
                None
            }
        };
        let on_map = |h: HexId| map.as_ref().is_none_or(|m| m.contains(h));

        if raw.name.trim().is_empty() {
            p.push("name: must not be empty".into());
        }
        if raw.turns.first == 0 || raw.turns.first > raw.turns.last {
            p.push(format!("turns: first ({}) must be at least 1 and not after last ({})", raw.turns.first, raw.turns.last));
        }

        // Units.
        let mut ids = BTreeSet::new();
        let mut names = BTreeSet::new();
        let mut units = Vec::new();
        for u in &raw.units {
            let who = format!("unit {}", if u.id.is_empty() { &u.name } else { &u.id });
            if !valid_id(&u.id) {
                p.push(format!("{who}: id {:?} must look like DE-7 (nationality, hyphen, letters and digits)", u.id));
            } else if !u.id.starts_with(&format!("{}-", u.nationality.code())) {
                p.push(format!("{who}: id must start with its nationality {}-", u.nationality.code()));
            }
            if !ids.insert(u.id.clone()) {
                p.push(format!("{who}: duplicate unit id"));
            }
            if u.name.trim().is_empty() {
                p.push(format!("{who}: display name is empty"));
            } else if !names.insert(u.name.clone()) {
                p.push(format!("{who}: duplicate display name {:?}", u.name));
            }
            if u.side != u.nationality.side() {
                p.push(format!("{who}: nationality {} fights on the {} side, not {}", u.nationality, u.nationality.side(), u.side));
            }
            if !(1..=4).contains(&u.max_sl) {
                p.push(format!("{who}: max_sl {} must be 1 to 4 (GE 2.11)", u.max_sl));
            }
            if u.sl == 0 || u.sl > u.max_sl {
                p.push(format!("{who}: starting SL {} must be 1 to max_sl {}", u.sl, u.max_sl));
            }
            if u.values.len() != u.max_sl as usize {
                p.push(format!("{who}: {} value strings for max_sl {} (one per SL, lowest first)", u.values.len(), u.max_sl));
            }
            let mut values = Vec::new();
            for (i, v) in u.values.iter().enumerate() {
                match parse_values(v) {
                    Ok(sv) => {
                        if sv.movement == 0 && u.unit_type != UnitType::Fortress {
                            p.push(format!("{who}: SL {} has movement 0", i + 1));
                        }
                        if u.unit_type == UnitType::Cavalry && sv.vs_cav.is_none() {
                            p.push(format!("{who}: cavalry SL {} needs a bracketed vs-cavalry factor like (2)1-6", i + 1));
                        }
                        if u.unit_type != UnitType::Cavalry && sv.vs_cav.is_some() {
                            p.push(format!("{who}: only cavalry has a bracketed vs-cavalry factor (SL {})", i + 1));
                        }
                        values.push(sv);
                    }
                    Err(e) => p.push(format!("{who}: SL {}: {e}", i + 1)),
                }
            }
            for w in values.windows(2) {
                if w[1].attack < w[0].attack || w[1].defence < w[0].defence {
                    p.push(format!("{who}: values must not fall as SL rises ({} then {})", w[0], w[1]));
                    break;
                }
            }
            let placement = match (u.hex, u.arrives) {
                (Some(h), None) => {
                    if !on_map(h) {
                        p.push(format!("{who}: setup hex {h} is not on the map"));
                    } else if let Some(m) = &map
                        && m.hex(h).is_some_and(|i| i.country.out_of_play())
                    {
                        p.push(format!("{who}: setup hex {h} is in a neutral country that may not be entered (GE 3.2)"));
                    }
                    Some(Placement::Hex(h))
                }
                (None, Some(a)) => {
                    if a.turn < raw.turns.first || a.turn > raw.turns.last {
                        p.push(format!("{who}: arrives on turn {} outside turns {}..{}", a.turn, raw.turns.first, raw.turns.last));
                    }
                    if let Entry::Hex(h) = a.entry
                        && !on_map(h)
                    {
                        p.push(format!("{who}: entry hex {h} is not on the map"));
                    }
                    Some(Placement::Reinforcement(a))
                }
                (Some(_), Some(_)) => {
                    p.push(format!("{who}: give either a setup hex or an arrival, not both"));
                    None
                }
                (None, None) => {
                    p.push(format!("{who}: needs a setup hex or an arrival"));
                    None
                }
            };
            if let Some(placement) = placement {
                units.push(UnitSpec {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    side: u.side,
                    nationality: u.nationality,
                    unit_type: u.unit_type,
                    size: u.size,
                    group: u.group,
                    max_sl: u.max_sl,
                    values,
                    start_sl: u.sl,
                    placement,
                    army: u.army,
                });
            }
        }

        // Setup stacking (GE 6.1-6.3).
        let mut stacks: BTreeMap<(HexId, Side), Vec<&UnitSpec>> = BTreeMap::new();
        for u in &units {
            if let Some(h) = u.start_hex() {
                stacks.entry((h, u.side)).or_default().push(u);
            }
        }
        for ((h, side), list) in &stacks {
            let counted: Vec<&&UnitSpec> = list.iter().filter(|u| u.unit_type != UnitType::SiegeGun).collect();
            let sl: u32 = counted.iter().map(|u| u.start_sl as u32).sum();
            if sl > MAX_SL_PER_HEX {
                p.push(format!("hex {h}: {side} setup is overstacked: {sl} SL (at most {MAX_SL_PER_HEX}, GE 6.1)"));
            }
            let corps = counted.iter().filter(|u| u.is_corps()).count();
            if corps > MAX_CORPS_PER_HEX {
                p.push(format!("hex {h}: {side} setup is overstacked: {corps} corps (at most {MAX_CORPS_PER_HEX}, GE 6.1)"));
            }
            let nats: BTreeSet<Nationality> =
                list.iter().filter(|u| u.unit_type != UnitType::NavalInfantry).map(|u| u.nationality).collect();
            if nats.len() > 1 {
                let n: Vec<&str> = nats.iter().map(|n| n.code()).collect();
                p.push(format!("hex {h}: Allied nationalities may not stack ({}; GE 6.2)", n.join(", ")));
            }
            if let Some(m) = &map
                && m.is_paris(*h)
            {
                for u in list.iter().filter(|u| u.nationality != Nationality::FR) {
                    p.push(format!("unit {}: only French units may end in Paris hex {h} (GE 6.3)", u.id));
                }
            }
        }
        let mut other_side_hexes: BTreeMap<HexId, BTreeSet<Side>> = BTreeMap::new();
        for (h, side) in stacks.keys() {
            other_side_hexes.entry(*h).or_default().insert(*side);
        }
        for (h, sides) in &other_side_hexes {
            if sides.len() > 1 {
                p.push(format!("hex {h}: units of both sides set up in the same hex"));
            }
        }

        // Forts.
        let mut fort_ids = BTreeSet::new();
        for f in &raw.forts {
            if !valid_id(&f.id) {
                p.push(format!("fort {}: id must look like FR-PF1", f.id));
            }
            if !fort_ids.insert(f.id.clone()) || ids.contains(&f.id) {
                p.push(format!("fort {}: duplicate id", f.id));
            }
            if !on_map(f.hex) {
                p.push(format!("fort {}: hex {} is not on the map", f.id, f.hex));
            }
            if f.defence == 0 {
                p.push(format!("fort {}: defence must be at least 1", f.id));
            }
            if let Some(list) = stacks.get(&(f.hex, f.nationality.side().other())) {
                p.push(format!("fort {}: hex {} holds enemy units ({})", f.id, f.hex, list[0].id));
            }
        }

        // Fortified zones and siege guns (GE 14.3, 14.7).
        let mut zone_hexes = BTreeSet::new();
        for z in &raw.fortified_zones {
            let who = format!("fortified zone {}", z.hex);
            if !on_map(z.hex) {
                p.push(format!("{who}: not on the map"));
            } else if let Some(m) = &map
                && m.hex(z.hex).is_some_and(|i| i.country.out_of_play())
            {
                p.push(format!("{who}: in a neutral country that may not be entered (GE 3.2)"));
            }
            if !zone_hexes.insert(z.hex) {
                p.push(format!("{who}: two zones in one hex"));
            }
            if raw.forts.iter().any(|f| f.hex == z.hex) {
                p.push(format!("{who}: a fortress hex is not also a fortified zone"));
            }
            if let Some(list) = stacks.get(&(z.hex, z.nationality.side().other())) {
                p.push(format!("{who}: holds enemy units ({})", list[0].id));
            }
        }
        for g in &raw.siege_guns {
            let who = format!("siege gun {}", g.id);
            if !valid_id(&g.id) {
                p.push(format!("{who}: id must look like DE-420"));
            }
            if !fort_ids.insert(g.id.clone()) || ids.contains(&g.id) {
                p.push(format!("{who}: duplicate id"));
            }
            if !g.id.starts_with("DE-") {
                p.push(format!("{who}: siege guns are German (GE 14.7): the id starts with DE-"));
            }
            if g.calibre != 305 && g.calibre != 420 {
                p.push(format!("{who}: calibre {} must be 305 or 420 (GE 14.7, E.2)", g.calibre));
            }
            if g.movement == 0 {
                p.push(format!("{who}: movement must be at least 1"));
            }
            if !on_map(g.hex) {
                p.push(format!("{who}: hex {} is not on the map", g.hex));
            }
            if let Some(list) = stacks.get(&(g.hex, Side::Allied)) {
                p.push(format!("{who}: hex {} holds enemy units ({})", g.hex, list[0].id));
            }
        }

        // Control.
        let mut markers = BTreeMap::new();
        for (side, list) in [(Side::German, &raw.control.german), (Side::Allied, &raw.control.allied)] {
            for h in list {
                if !on_map(*h) {
                    p.push(format!("control: {side} marker hex {h} is not on the map"));
                }
                if markers.insert(*h, side).is_some() {
                    p.push(format!("control: hex {h} is listed twice"));
                }
                if stacks.contains_key(&(*h, side.other())) {
                    p.push(format!("control: {side} marker hex {h} holds {} units", side.other()));
                }
            }
        }
        let mut ooc = BTreeSet::new();
        for h in &raw.out_of_command {
            if !ooc.insert(*h) {
                p.push(format!("out_of_command: hex {h} is listed twice"));
            }
            if !stacks.keys().any(|(x, _)| x == h) {
                p.push(format!("out_of_command: hex {h} holds no units at setup"));
            }
        }

        // Victory.
        let mut vp_hexes = BTreeMap::new();
        let mut seen_vp = BTreeSet::new();
        for t in &raw.victory.towns {
            let found = map.as_ref().map(|m| m.place_hexes(&t.name));
            let hex = match (&found, t.hex) {
                (Some(f), _) if f.is_empty() => {
                    p.push(format!("victory town {:?}: no such place on the map", t.name));
                    None
                }
                (Some(f), Some(h)) if !f.contains(&h) => {
                    p.push(format!("victory town {:?}: hex {h} is not where the map puts it ({})", t.name, f[0]));
                    None
                }
                (Some(_), Some(h)) => Some(h),
                (Some(f), None) if f.len() > 1 => {
                    p.push(format!("victory town {:?}: spans several hexes; say which with hex", t.name));
                    None
                }
                (Some(f), None) => Some(f[0]),
                (None, h) => h,
            };
            // A hex may score for both sides (GE 4.2: Lille), but once per side.
            if let Some(h) = hex {
                if !seen_vp.insert((h, t.side)) {
                    p.push(format!("victory town {:?}: hex {h} is listed twice for the {} side", t.name, t.side));
                }
                vp_hexes.entry(h).or_insert(VpHex { name: t.name.clone(), side: t.side, value: t.value });
            }
        }
        for e in &raw.victory.eliminations {
            if e.victims.iter().any(|n| n.side() == e.scorer) {
                p.push(format!("victory: {} cannot score for eliminating its own units", e.scorer));
            }
        }
        for a in &raw.auto_win {
            for h in &a.hexes {
                if !on_map(*h) {
                    p.push(format!("auto_win: hex {h} is not on the map"));
                }
            }
        }
        for side in [Side::German, Side::Allied] {
            if raw.supply_edges.get(&side).is_none_or(|v| v.is_empty()) {
                p.push(format!("supply_edges: no supply edge for the {side} side"));
            }
            if let Some(m) = &map {
                for e in raw.supply_edges.get(&side).into_iter().flatten() {
                    if m.edge_hexes(*e).next().is_none() {
                        p.push(format!("supply_edges: the {side} edge {e:?} has no hexes"));
                    }
                }
            }
        }

        if let Some(m) = &map
            && !raw.mobilization.is_empty()
        {
            p.extend(super::deploy::check(m, &units, &raw.mobilization));
        }

        if !p.is_empty() {
            return Err(p);
        }
        let mut map = map.expect("no problems means the map was built");
        map.vp_hexes = vp_hexes;
        Ok(Scenario {
            name: raw.name,
            title: raw.title,
            source: raw.source,
            turns: raw.turns,
            map,
            units,
            forts: raw.forts,
            control: InitialControl {
                default: raw.control.default,
                markers,
                occupied_hexes_are_occupiers: raw.control.occupied_hexes_are_occupiers,
                by_country: raw.control.by_country,
            },
            out_of_command: ooc,
            victory: raw.victory,
            auto_win: raw.auto_win,
            supply_edges: raw.supply_edges,
            replacements: raw.replacements,
            special: raw.special,
            mobilization: raw.mobilization,
            campaign: raw.campaign,
            fortified_zones: raw.fortified_zones,
            siege_guns: raw.siege_guns,
        })
    }

    /// The bundled Short Historical Campaign (panics only if the bundled file is broken,
    /// which a test rules out).
    pub fn short_campaign() -> Scenario {
        Scenario::from_text(SHORT_CAMPAIGN_YAML).expect("bundled short-campaign.yaml is valid")
    }

    /// A unit by id (case-insensitive) or by display name.
    pub fn unit(&self, id: &str) -> Option<&UnitSpec> {
        self.units.iter().find(|u| u.id.eq_ignore_ascii_case(id) || u.name == id)
    }
    /// A side's units.
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = &UnitSpec> {
        self.units.iter().filter(move |u| u.side == side)
    }
    /// Units on the map at setup.
    pub fn starting_units(&self) -> impl Iterator<Item = &UnitSpec> {
        self.units.iter().filter(|u| u.start_hex().is_some())
    }
    /// Units arriving on a turn.
    pub fn reinforcements_on(&self, turn: u32) -> impl Iterator<Item = &UnitSpec> {
        self.units.iter().filter(move |u| u.arrival().is_some_and(|a| a.turn == turn))
    }
    /// Units set up in a hex.
    pub fn units_at_start(&self, hex: HexId) -> Vec<&UnitSpec> {
        self.units.iter().filter(|u| u.start_hex() == Some(hex)).collect()
    }
    /// Who controls a hex at the start: a control marker, else the side whose units are in
    /// it (if `occupied_hexes_are_occupiers`), else its country's side (`by_country`), else
    /// the default.
    pub fn initial_controller(&self, hex: HexId) -> Side {
        if let Some(s) = self.control.markers.get(&hex) {
            return *s;
        }
        if self.control.occupied_hexes_are_occupiers
            && let Some(u) = self.units.iter().find(|u| u.start_hex() == Some(hex))
        {
            return u.side;
        }
        if let Some(s) = self.map.hex(hex).and_then(|i| self.control.by_country.get(&i.country)) {
            return *s;
        }
        self.control.default
    }
    /// The fort in a hex.
    pub fn fort_at(&self, hex: HexId) -> Option<&Fort> {
        self.forts.iter().find(|f| f.hex == hex)
    }
    /// Is `hex` on one of `side`'s supply edges?
    pub fn is_supply_edge(&self, side: Side, hex: HexId) -> bool {
        self.supply_edges.get(&side).is_some_and(|es| es.iter().any(|e| self.map.is_edge(hex, *e)))
    }
    /// Do `side`'s units forced off `edge` count as eliminated?
    pub fn off_map_counts_as_eliminated(&self, side: Side, edge: Edge) -> bool {
        self.special.off_map_eliminated.get(&side).is_some_and(|v| v.contains(&edge))
    }
}

fn valid_id(id: &str) -> bool {
    let Some((nat, rest)) = id.split_once('-') else { return false };
    nat.len() == 2
        && nat.bytes().all(|b| b.is_ascii_uppercase())
        && !rest.is_empty()
        && rest.len() <= 8
        && rest.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The JSON Schema of the scenario file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(ScenarioFile)
}

#[cfg(test)]
mod tests;
