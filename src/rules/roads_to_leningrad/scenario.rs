//! Scenario data (RTL-4.1, play booklet S2–S3; digest B, E.5–E.7, F): the map (terrain,
//! hexsides, routes, places), the formations and their activation markers, the units with
//! both faces, supply sources, the turn track, the weather and initiative tables and the
//! victory schedule. Everything the rules read comes from the scenario file, so a
//! published map and setup card replace the REPRESENTATIVE data without code changes.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::engine::ScenarioError;
use crate::geo::hex::HexId;

/// The bundled Battle of Soltsy (scenario #1, REPRESENTATIVE map and setup).
pub const SOLTSY_YAML: &str = include_str!("../../../scenarios/roads-to-leningrad/soltsy.yaml");

/// Base terrain of a hex (TEC, digest E.5). Woods, towns and cities are overlays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Open,
    Rough,
    Hills,
    Marsh,
    Swamp,
}

/// A hexside feature (TEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Water {
    Stream,
    River,
    Lake,
}

/// A route through hexsides (RTL-8.33, 8.35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    PrimaryRoad,
    SecondaryRoad,
    Trail,
    Railroad,
}

/// Movement class (RTL-3.14): plain MA, red box (motorized), orange circle (heavy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Plain,
    Mot,
    Heavy,
}

/// Unit type (digest B.3), as far as this slice's rules read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Infantry,
    MotorizedInfantry,
    Motorcycle,
    Recon,
    Engineer,
    Cavalry,
    /// Tanks: vehicle silhouette, red attack (RTL-3.15).
    Armor,
    /// Silhouette, not armor (RTL-3.15).
    ArmoredCar,
    AntiTank,
    Artillery,
    Headquarters,
}

/// One face of a counter: attack (support for artillery), defense, MA, ER, stacking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Face {
    pub attack: u32,
    pub defense: u32,
    pub ma: u32,
    pub er: u32,
    pub stacking: u32,
}

/// A formation and its activation markers (RTL-4.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Formation {
    pub id: String,
    pub side: String,
    pub name: String,
    /// Number of AMs (RTL-4.36): 1 or 2.
    #[serde(default = "one")]
    pub ams: u8,
    /// Combination value printed on the AM (RTL-4.35, 7.33).
    #[serde(default = "one")]
    pub combination: u8,
    /// The first turn its AM is available (S3.23: the 70th RD from 14AM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// A German armored or motorized formation (RTL-13.24b2): its attacks may take
    /// offensive CAS as often as the side's OCMR allows; every other formation at most once
    /// a turn (13.24b3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub motorized: bool,
}

fn one() -> u8 {
    1
}

/// A unit of the roster, with its set-up hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitData {
    pub id: String,
    pub side: String,
    /// The formation, or `army` for a white-boxed Army unit (RTL-4.33, 7.4).
    pub formation: String,
    pub kind: Kind,
    pub class: Class,
    pub front: Face,
    /// The reduced face; `None` for a one-step unit (RTL-3.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Face>,
    /// Yellow band: exerts no ZOC (RTL-3.23).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_zoc: bool,
    pub hex: HexId,
    /// Starts on its reduced face (S2.2's black triangle).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reduced: bool,
    /// Artillery only (RTL-3.16, 12.0): its support value and range; its faces print no
    /// attack strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gun: Option<Gun>,
    /// HQ only (RTL-15.31): the Command Points printed on its front, 1 or 2; its back shows
    /// none (15.32).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_points: Option<u32>,
    /// A German artillery command HQ, "Arko" (RTL-16.31): its CPs go only to artillery
    /// coordination, and it may be a second HQ on one attack or defending hex (16.32).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub arko: bool,
}

/// A bridge unit (RTL-16.2): a non-combat counter with no strength, MA, stacking value or
/// ZOC (16.26), spanning one stream or river hexside of its hex (16.21).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BridgeData {
    pub id: String,
    pub side: String,
    /// The set-up hex; absent: the bridge starts off the map (16.23).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
    /// The neighbour of `hex` across the spanned hexside (the counter's arrow, 16.21).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toward: Option<HexId>,
}

/// What an artillery counter prints besides its faces (RTL-12.0, digest B.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gun {
    /// Support strength, added to a friendly attack or defence (RTL-10.51, 12.0).
    pub support: u32,
    /// Range in hexes, counting the defending hex but not its own (RTL-12.13a).
    pub range: u32,
    /// The "A" after the support value: offensive support only (RTL-12.0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offensive_only: bool,
}

impl UnitData {
    /// Motorized or heavy: the TEC's Mot column (RTL-3.14, 8.5).
    pub fn mot_column(&self) -> bool {
        self.class != Class::Plain
    }
    /// Red box (not heavy): may continue through EZOC, advance two hexes (RTL-8.22, 11.61).
    pub fn red_box(&self) -> bool {
        self.class == Class::Mot
    }
    /// Armor (RTL-3.15).
    pub fn armor(&self) -> bool {
        self.kind == Kind::Armor
    }
    /// Vehicle silhouette (RTL-8.36c).
    pub fn vehicle(&self) -> bool {
        matches!(self.kind, Kind::Armor | Kind::ArmoredCar)
    }
    /// Artillery (RTL-3.16): it has a range.
    pub fn artillery(&self) -> bool {
        self.kind == Kind::Artillery
    }
    /// Tank or artillery, for step-loss VP (digest E.7).
    pub fn tank_or_artillery(&self) -> bool {
        matches!(self.kind, Kind::Armor | Kind::Artillery)
    }
    /// A CAB partner (RTL-10.61f2).
    pub fn cab_partner(&self) -> bool {
        matches!(self.kind, Kind::Motorcycle | Kind::MotorizedInfantry | Kind::Recon) || (self.kind == Kind::Engineer && self.red_box())
    }
    /// May build strongpoints: the "@" types of the counter legend, infantry, motorized
    /// infantry, engineers and motorized engineers (RTL-14.23; no bicycle unit in this
    /// roster). Road-construction battalions are not engineers (digest G.5 28).
    pub fn is_sp_builder(&self) -> bool {
        matches!(self.kind, Kind::Infantry | Kind::MotorizedInfantry | Kind::Engineer)
    }
    /// AT for CAB (RTL-16.11/16.12).
    pub fn anti_tank(&self) -> bool {
        matches!(self.kind, Kind::AntiTank | Kind::Armor)
    }
}

/// A hexside feature as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub a: HexId,
    pub b: HexId,
    pub water: Water,
    /// A printed bridge symbol (RTL-8.36b).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bridge: bool,
}

/// The map as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMap {
    pub rows: [u8; 2],
    pub cols: [u8; 2],
    pub default: Terrain,
    #[serde(default)]
    pub hexes: BTreeMap<Terrain, Vec<HexId>>,
    #[serde(default)]
    pub woods: Vec<HexId>,
    #[serde(default)]
    pub towns: BTreeMap<HexId, String>,
    #[serde(default)]
    pub cities: BTreeMap<HexId, String>,
    #[serde(default)]
    pub hexsides: Vec<RawSide>,
    /// Each route as paths of adjacent hexes.
    #[serde(default)]
    pub routes: BTreeMap<Route, Vec<Vec<HexId>>>,
}

/// A VP location (digest E.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub hex: HexId,
    pub name: String,
    /// VP by the turn of the check (`15AM`, `17PM`).
    pub vp: BTreeMap<String, i32>,
}

/// A victory check: at the end of `turn`, the German wins with at least `at_least`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub turn: String,
    pub at_least: i32,
    /// The game ends here whatever the total (the final check).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last: bool,
}

/// VP per step lost by a side's units (digest E.7; S1.31).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepVp {
    pub tank_or_artillery: i32,
    pub hq: i32,
}

/// The victory rules (S1, digest E.7): only the German scores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub scorer: String,
    pub locations: Vec<Location>,
    pub checks: Vec<Check>,
    pub step_vp: BTreeMap<String, StepVp>,
    /// Who controls each location at the start.
    pub control: BTreeMap<HexId, String>,
}

/// Weather and initiative (RTL-5.11, 7.11; digest E.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strategic {
    /// The side whose entry opens each turn with the rolls (the German rolls weather).
    pub roller: String,
    /// The initiative dice order: first rolls first (RTL-7.11: Soviet then German).
    pub initiative_order: [String; 2],
    /// Highest d10 for Dry, then for Cloudy; above: Rain (representative, E.6).
    pub dry_max: u32,
    pub cloudy_max: u32,
    /// Turns whose weather the scenario fixes.
    #[serde(default)]
    pub weather: BTreeMap<String, crate::rules::roads_to_leningrad::state::Weather>,
    /// Turns whose initiative the scenario fixes.
    #[serde(default)]
    pub initiative: BTreeMap<String, String>,
}

/// Strongpoint data (RTL-14, 2.24, S3.27).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrongpointData {
    /// SP markers per side, completed and under construction together (RTL-2.24: unlike
    /// other markers, the counter mix limits them). A side not listed has no limit.
    #[serde(default)]
    pub markers: BTreeMap<String, u32>,
    /// Formations that start no strongpoint before the named turn (S3.27: the 202nd
    /// Division builds none in 13AM and 13PM).
    #[serde(default)]
    pub no_build_before: BTreeMap<String, String>,
}

/// The two aircraft types (RTL-2.23): A ground attack, B bomber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum AirType {
    A,
    B,
}

/// An air unit of the Air Display (RTL-2.23, 13.0, digest B.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirUnit {
    pub id: String,
    pub side: String,
    /// The aircraft printed on the counter (Ju 88, I-153 …).
    pub model: String,
    /// A (ground attack) or B (bomber), RTL-2.23.
    #[serde(rename = "type")]
    pub kind: AirType,
    /// Its CAS value, 1 or 2 (RTL-13.23: −value for the attacker, +value for the defender).
    pub cas: u32,
    /// Its Efficiency Rating, for the CAS coordination check (RTL-13.16, 10.41b).
    pub er: u32,
    /// The turn it arrives in the Ready box (RTL-5.24); at start when absent (4.14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// Air units and the Offensive CAS Missions Remaining (RTL-13, S3.28).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirData {
    #[serde(default)]
    pub units: Vec<AirUnit>,
    /// Per side, the OCMR set at the start of each turn from the named turn on (S3.28).
    #[serde(default)]
    pub ocmr: BTreeMap<String, BTreeMap<String, u32>>,
}

/// A leader (RTL-15.2): a non-combat counter with Command Points, a command range and an
/// MA, but no strength, stacking value or ZOC, and no formation (15.21, 15.22, 3.22, 3.31).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderData {
    pub id: String,
    pub side: String,
    /// The name printed on the counter.
    pub name: String,
    /// Its Command Points, 1 or 2 (RTL-15.31).
    pub command_points: u32,
    /// Its command range in hexes (RTL-15.25: Voroshilov 4, von Manstein 8).
    pub range: u32,
    /// Its movement allowance (RTL-15.22).
    pub ma: u32,
    /// The set-up hex.
    pub hex: HexId,
}

/// The scenario as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    pub data: String,
    /// Turn names in order (`13AM` …).
    pub turns: Vec<String>,
    /// Side ids: the scorer (German) first.
    pub sides: Vec<SideData>,
    pub map: RawMap,
    pub supply: BTreeMap<String, Vec<HexId>>,
    pub strategic: Strategic,
    pub formations: Vec<Formation>,
    pub units: Vec<UnitData>,
    pub victory: Victory,
    /// Strongpoint markers and building restrictions (RTL-14); none by default.
    #[serde(default)]
    pub strongpoints: StrongpointData,
    /// Air units and the per-turn OCMR (RTL-13, S3.28); none by default.
    #[serde(default)]
    pub air: AirData,
    /// Leaders (RTL-15.2); none by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaders: Vec<LeaderData>,
    /// Bridge units (RTL-16.2); none by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bridges: Vec<BridgeData>,
}

/// A side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideData {
    pub id: String,
    pub name: String,
}

/// The checked scenario with its lookups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub raw: RawScenario,
    pub terrain: BTreeMap<HexId, Terrain>,
    pub woods: BTreeSet<HexId>,
    /// Hexside water, keyed by the ordered pair.
    pub water: BTreeMap<(HexId, HexId), (Water, bool)>,
    /// Route hexsides, keyed by the ordered pair.
    pub routes: BTreeMap<(HexId, HexId), BTreeSet<Route>>,
    /// Hexes any route passes through.
    pub route_hexes: BTreeMap<HexId, BTreeSet<Route>>,
}

/// The ordered key of a hexside.
pub fn pair(a: HexId, b: HexId) -> (HexId, HexId) {
    if a <= b { (a, b) } else { (b, a) }
}

impl Scenario {
    /// Parse and check a scenario text.
    pub fn from_text(text: &str) -> Result<Scenario, ScenarioError> {
        let raw: RawScenario = crate::log::yamlscan::from_str(text).map_err(|e| ScenarioError { problems: vec![e.to_string()] })?;
        Scenario::check(raw)
    }

    /// Check a parsed scenario; every problem is listed.
    pub fn check(raw: RawScenario) -> Result<Scenario, ScenarioError> {
        let mut p = Vec::new();
        let m = &raw.map;
        let terrain = crate::geo::hex::terrain_grid(m.rows, m.cols, m.default, &m.hexes, &mut p);
        let on = |h: &HexId| terrain.contains_key(h);
        for h in m.woods.iter().chain(m.towns.keys()).chain(m.cities.keys()) {
            if !on(h) {
                p.push(format!("hex {h} is off the map"));
            }
        }
        let mut water = BTreeMap::new();
        for s in &m.hexsides {
            if !s.a.is_adjacent(s.b) {
                p.push(format!("hexside {}-{} joins hexes that do not touch", s.a, s.b));
            }
            water.insert(pair(s.a, s.b), (s.water, s.bridge));
        }
        let mut routes: BTreeMap<(HexId, HexId), BTreeSet<Route>> = BTreeMap::new();
        let mut route_hexes: BTreeMap<HexId, BTreeSet<Route>> = BTreeMap::new();
        for (r, paths) in &m.routes {
            for path in paths {
                for h in path {
                    if !on(h) {
                        p.push(format!("{r:?} passes {h}, off the map"));
                    }
                    route_hexes.entry(*h).or_default().insert(*r);
                }
                for w in path.windows(2) {
                    if !w[0].is_adjacent(w[1]) {
                        p.push(format!("{r:?} jumps from {} to {}", w[0], w[1]));
                    }
                    routes.entry(pair(w[0], w[1])).or_default().insert(*r);
                }
            }
        }
        if raw.sides.len() != 2 {
            p.push("a battle has two sides".into());
        }
        let side_ok = |s: &str| raw.sides.iter().any(|d| d.id == s);
        let mut ids = BTreeSet::new();
        for f in &raw.formations {
            if !side_ok(&f.side) {
                p.push(format!("formation {} has unknown side {}", f.id, f.side));
            }
            if !(1..=2).contains(&f.ams) {
                p.push(format!("formation {} has {} AMs (1 or 2, RTL-4.36)", f.id, f.ams));
            }
            if f.from.as_ref().is_some_and(|t| !raw.turns.contains(t)) {
                p.push(format!("formation {}: turn {:?} is not on the track", f.id, f.from));
            }
            if f.id == "army" || !ids.insert(f.id.clone()) {
                p.push(format!("formation id {} is reserved or repeated", f.id));
            }
        }
        let mut uids = BTreeSet::new();
        for u in &raw.units {
            if !uids.insert(u.id.clone()) {
                p.push(format!("unit {} is listed twice", u.id));
            }
            if !side_ok(&u.side) {
                p.push(format!("unit {} has unknown side {}", u.id, u.side));
            }
            if u.formation != "army" && !raw.formations.iter().any(|f| f.id == u.formation && f.side == u.side) {
                p.push(format!("unit {}: no formation {} of its side", u.id, u.formation));
            }
            if !on(&u.hex) {
                p.push(format!("unit {} sets up off the map at {}", u.id, u.hex));
            }
            if u.front.defense == 0 || u.back.is_some_and(|b| b.defense == 0) {
                p.push(format!("unit {}: defense is always at least 1 (digest B.1)", u.id));
            }
            if u.reduced && u.back.is_none() {
                p.push(format!("unit {} starts reduced but has one step", u.id));
            }
            // RTL-3.16, 3.62, 12.0: artillery has a range and a support value, no attack
            // strength, and one step; nothing else has a range.
            match (u.kind == Kind::Artillery, u.gun) {
                (true, None) => p.push(format!("artillery {} needs `gun: {{support, range}}` (RTL-12.0)", u.id)),
                (false, Some(_)) => p.push(format!("unit {} has a gun but is not artillery (RTL-3.16)", u.id)),
                (true, Some(g)) => {
                    if g.range == 0 || u.front.attack != 0 || u.back.is_some() {
                        p.push(format!("artillery {}: range at least 1, attack 0, one step (RTL-3.62, 12.0)", u.id));
                    }
                }
                (false, None) => {}
            }
            // RTL-15.31: every HQ has one or two CPs; nothing else has any.
            match (u.kind == Kind::Headquarters, u.command_points) {
                (true, Some(1 | 2)) | (false, None) => {}
                (true, _) => p.push(format!("HQ {} needs `command_points: 1` or `2` (RTL-15.31)", u.id)),
                (false, Some(_)) => p.push(format!("unit {} has command points but is not an HQ (RTL-15.31)", u.id)),
            }
            if u.arko && u.kind != Kind::Headquarters {
                p.push(format!("unit {} is an Arko but not an HQ (RTL-16.31)", u.id));
            }
        }
        // RTL-16.21: a bridge spans a stream or river hexside of its own hex; its id is
        // unique among every counter an order may name.
        for b in &raw.bridges {
            if !side_ok(&b.side) {
                p.push(format!("bridge {} has unknown side {}", b.id, b.side));
            }
            match (b.hex, b.toward) {
                (None, None) => {}
                (Some(h), Some(n)) => {
                    if !on(&h) || !on(&n) || !matches!(water.get(&pair(h, n)), Some((Water::Stream | Water::River, _))) {
                        p.push(format!("bridge {} must span a stream or river hexside of {h} on the map (RTL-16.21)", b.id));
                    }
                }
                _ => p.push(format!("bridge {}: give both `hex` and `toward`, or neither (off the map)", b.id)),
            }
            if raw.units.iter().any(|u| u.id == b.id)
                || raw.air.units.iter().any(|a| a.id == b.id)
                || raw.leaders.iter().any(|l| l.id == b.id)
                || raw.bridges.iter().filter(|c| c.id == b.id).count() > 1
            {
                p.push(format!("bridge {}: its id is taken", b.id));
            }
        }
        for (side, hs) in &raw.supply {
            if !side_ok(side) {
                p.push(format!("supply of unknown side {side}"));
            }
            for h in hs {
                if !on(h) {
                    p.push(format!("supply source {h} is off the map"));
                }
            }
        }
        for side in raw.strongpoints.markers.keys() {
            if !side_ok(side) {
                p.push(format!("strongpoint markers of unknown side {side}"));
            }
        }
        // RTL-2.23, 13.23: an air unit is A or B with a CAS value of 1 or 2; ids are unique
        // among ground and air units alike (orders name both).
        for a in &raw.air.units {
            if !side_ok(&a.side) || !matches!(a.cas, 1 | 2) || a.er == 0 {
                p.push(format!("air unit {}: a known side, CAS 1 or 2, ER at least 1 (RTL-13.23)", a.id));
            }
            if raw.units.iter().any(|u| u.id == a.id) || raw.air.units.iter().filter(|b| b.id == a.id).count() > 1 {
                p.push(format!("air unit {}: its id is taken", a.id));
            }
            if a.from.as_ref().is_some_and(|t| !raw.turns.contains(t)) {
                p.push(format!("air unit {}: arrives on a turn not on the track", a.id));
            }
        }
        // RTL-15.31, 15.25: a leader has 1 or 2 CPs and a range; its id is unique among every
        // counter an order may name.
        for l in &raw.leaders {
            if !side_ok(&l.side) || !matches!(l.command_points, 1 | 2) || l.range == 0 || !on(&l.hex) {
                p.push(format!("leader {}: a known side, 1 or 2 CPs, a range, a set-up hex on the map (RTL-15.25, 15.31)", l.id));
            }
            if raw.units.iter().any(|u| u.id == l.id)
                || raw.air.units.iter().any(|a| a.id == l.id)
                || raw.leaders.iter().filter(|m| m.id == l.id).count() > 1
            {
                p.push(format!("leader {}: its id is taken", l.id));
            }
        }
        for (side, by_turn) in &raw.air.ocmr {
            if !side_ok(side) || by_turn.keys().any(|t| !raw.turns.contains(t)) {
                p.push(format!("ocmr: side {side} and its turns must exist (S3.28)"));
            }
        }
        for (f, t) in &raw.strongpoints.no_build_before {
            if !raw.formations.iter().any(|x| &x.id == f) || !raw.turns.contains(t) {
                p.push(format!("strongpoints: no_build_before names formation {f} and turn {t}: both must exist (S3.27)"));
            }
        }
        let v = &raw.victory;
        if !side_ok(&v.scorer) {
            p.push("the VP scorer is not a side".into());
        }
        for c in &v.checks {
            if !raw.turns.contains(&c.turn) {
                p.push(format!("victory check at unknown turn {}", c.turn));
            }
        }
        if !v.checks.iter().any(|c| c.last) {
            p.push("one victory check ends the game (last: true)".into());
        }
        for l in &v.locations {
            if !on(&l.hex) {
                p.push(format!("location {} at {} is off the map", l.name, l.hex));
            }
        }
        let st = &raw.strategic;
        if !side_ok(&st.roller) || !st.initiative_order.iter().all(|s| side_ok(s)) {
            p.push("strategic: unknown side".into());
        }
        if st.dry_max > st.cloudy_max || st.cloudy_max > 10 {
            p.push("strategic: weather ranges must rise within 1..10".into());
        }
        if raw.turns.is_empty() || raw.turns.len() > 200 {
            p.push("the turn track needs 1 to 200 turns".into());
        }
        if !p.is_empty() {
            return Err(ScenarioError { problems: p });
        }
        Ok(Scenario { woods: m.woods.iter().copied().collect(), terrain, water, routes, route_hexes, raw })
    }

    /// A unit's printed data.
    pub fn unit(&self, id: &str) -> Option<&UnitData> {
        self.raw.units.iter().find(|u| u.id == id)
    }
    /// A bridge unit's data (RTL-16.2).
    pub fn bridge(&self, id: &str) -> Option<&BridgeData> {
        self.raw.bridges.iter().find(|b| b.id == id)
    }
    /// A leader's printed data (RTL-15.2).
    pub fn leader(&self, id: &str) -> Option<&LeaderData> {
        self.raw.leaders.iter().find(|l| l.id == id)
    }
    /// A formation.
    pub fn formation(&self, id: &str) -> Option<&Formation> {
        self.raw.formations.iter().find(|f| f.id == id)
    }
    /// The other side.
    pub fn other(&self, side: &str) -> String {
        self.raw.sides.iter().find(|s| s.id != side).map(|s| s.id.clone()).unwrap_or_default()
    }
    /// Water on a hexside, with whether it is bridged.
    pub fn water(&self, a: HexId, b: HexId) -> Option<(Water, bool)> {
        self.water.get(&pair(a, b)).copied()
    }
    /// Routes crossing a hexside.
    pub fn routes(&self, a: HexId, b: HexId) -> Option<&BTreeSet<Route>> {
        self.routes.get(&pair(a, b))
    }
    /// A city hex (RTL-10.32).
    pub fn city(&self, h: HexId) -> bool {
        self.raw.map.cities.contains_key(&h)
    }
    /// A town hex.
    pub fn town(&self, h: HexId) -> bool {
        self.raw.map.towns.contains_key(&h)
    }
    /// The name of turn `t` (1-based).
    pub fn turn_name(&self, t: u16) -> String {
        self.raw.turns.get(usize::from(t).wrapping_sub(1)).cloned().unwrap_or_else(|| format!("T{t}"))
    }
    /// The AM ids of a formation (`8pz`, or `8pz/1`, `8pz/2`).
    pub fn ams_of(&self, f: &Formation) -> Vec<String> {
        if f.ams == 1 { vec![f.id.clone()] } else { (1..=f.ams).map(|n| format!("{}/{n}", f.id)).collect() }
    }
    /// The formation of an AM id.
    pub fn am_formation(&self, am: &str) -> Option<&Formation> {
        let f = am.split('/').next().unwrap_or(am);
        self.formation(f).filter(|x| self.ams_of(x).iter().any(|a| a == am))
    }
}

/// The JSON Schema of the scenario file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(RawScenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_battle_is_valid() {
        let s = Scenario::from_text(SOLTSY_YAML).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.raw.turns.len(), 10);
    }
}
