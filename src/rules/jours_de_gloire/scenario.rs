//! The scenario file (`scenarios/jours-de-gloire/*.yaml`): parsed into [`RawScenario`]
//! (what the YAML says), then checked into [`Scenario`] (what the rules may rely on). The
//! two differ: a raw scenario may name a formation that does not exist or put a unit off
//! the map; a [`Scenario`] never does.
//!
//! Every value the rules read is here, so a published battle's data replaces the
//! representative file without a change to the code (DESIGN §3, "rule data is data").

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::ScenarioError;
use crate::geo::hex::HexId;

/// Unit types (JDG 0.3). Foot and horse artillery are treated alike by the series rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Infantry,
    Cavalry,
    Artillery,
}

impl Kind {
    /// A letter for the picture and the position lists.
    pub fn letter(self) -> char {
        match self {
            Kind::Infantry => 'I',
            Kind::Cavalry => 'C',
            Kind::Artillery => 'A',
        }
    }
}

/// Hex terrain named by the rules (digest B.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Clear,
    Town,
    Village,
    Castle,
    Woods,
    Orchard,
    Oasis,
    Rough,
    /// The reduced rate for following a road (not a hex terrain of its own).
    Road,
}

/// Hexside features named by the rules (digest B.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    Slope,
    SteepSlope,
    Crest,
    River,
    Ford,
    Bridge,
    Wall,
    Fortification,
    Impassable,
}

/// A cost in half MP, or `no` (not allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawCost {
    Half(u8),
    Word(NoWord),
}

/// The word `no`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoWord {
    No,
}

impl RawCost {
    /// The cost in half MP; `None` when not allowed.
    pub fn half(self) -> Option<u8> {
        match self {
            RawCost::Half(n) => Some(n),
            RawCost::Word(_) => None,
        }
    }
}

/// One row of the Terrain Table: a cost per unit type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    pub inf: RawCost,
    pub cav: RawCost,
    pub art: RawCost,
    /// Six front hexes for a unit here (JDG 6.1.1: town, village, castle).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_round: bool,
    /// Charges may not start in, cross or target this terrain (JDG 9.1, table E.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_charge: bool,
}

impl Costs {
    /// The cost for `kind` in half MP; `None` when not allowed.
    pub fn for_kind(&self, kind: Kind) -> Option<u8> {
        match kind {
            Kind::Infantry => self.inf,
            Kind::Cavalry => self.cav,
            Kind::Artillery => self.art,
        }
        .half()
    }
}

/// One face of a counter: `[SP, cohesion, engagement, MP]` (JDG 0.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u8; 4]", into = "[u8; 4]")]
pub struct Face {
    pub sp: u8,
    pub cohesion: u8,
    pub engagement: u8,
    pub mp: u8,
}

impl From<[u8; 4]> for Face {
    fn from(a: [u8; 4]) -> Face {
        Face { sp: a[0], cohesion: a[1], engagement: a[2], mp: a[3] }
    }
}

impl From<Face> for [u8; 4] {
    fn from(f: Face) -> [u8; 4] {
        [f.sp, f.cohesion, f.engagement, f.mp]
    }
}

/// An army commander counter (JDG 2.5.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Commander {
    pub id: String,
    pub name: String,
    pub hex: HexId,
    /// Added to strategic initiative, subtracted from leader initiative (JDG 3, 2.4.3).
    pub drm: u8,
    /// Most groups given orders per turn (JDG 2.3.2).
    pub order_potential: u8,
    /// In hexes, never blocked (JDG 2.5.1).
    pub command_distance: u8,
}

/// A further army general (JDG 2.5.1 "uno o più generali", 2.5.2 "ulteriori generali
/// d'armata"): not a counter in play until he takes command when the commander-in-chief, or
/// the general who took over from him, is eliminated. He then stands with `unit` (if it is
/// on the map) or in `hex` (if no enemy unit holds it), with his own values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct General {
    pub id: String,
    pub name: String,
    /// Added to strategic initiative, subtracted from leader initiative (JDG 3, 2.4.3).
    pub drm: u8,
    /// Most groups given orders per turn (JDG 2.3.2).
    pub order_potential: u8,
    /// In hexes, never blocked (JDG 2.5.1).
    pub command_distance: u8,
    /// The unit of his side he rides with until he takes command (exactly one of `unit`
    /// and `hex`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The hex where he waits to take command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
}

/// A side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideData {
    pub id: String,
    pub name: String,
    pub commander: Commander,
    /// The army's further generals, in the order they take command (JDG 2.5.2); none in a
    /// battle that gives the army one general.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generals: Vec<General>,
}

/// The values a side's general in command gives it (JDG 2.5.1): the commander-in-chief's,
/// or those of the general who took over from him (2.5.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: String,
    pub name: String,
    pub drm: u8,
    pub order_potential: u8,
    pub command_distance: u8,
}

impl SideData {
    /// The values of the general `id` of this side (`None`: the commander-in-chief).
    pub fn command(&self, id: Option<&str>) -> Option<Command> {
        let c = &self.commander;
        match id {
            None => Some(Command {
                id: c.id.clone(),
                name: c.name.clone(),
                drm: c.drm,
                order_potential: c.order_potential,
                command_distance: c.command_distance,
            }),
            Some(id) => self.generals.iter().find(|g| g.id == id).map(|g| Command {
                id: g.id.clone(),
                name: g.name.clone(),
                drm: g.drm,
                order_potential: g.order_potential,
                command_distance: g.command_distance,
            }),
        }
    }
}

/// The problems of a side's further generals (JDG 2.5.2): ids unique, each with one place
/// (a unit of his side or a map hex). `side_of_unit` gives a unit's side, `on_map` a hex's
/// presence.
pub fn general_problems(s: &SideData, side_of_unit: &dyn Fn(&str) -> Option<String>, on_map: &dyn Fn(&HexId) -> bool) -> Vec<String> {
    let mut p = Vec::new();
    let mut ids = BTreeSet::from([s.commander.id.clone()]);
    for g in &s.generals {
        if !ids.insert(g.id.clone()) {
            p.push(format!("general {} of {} is listed twice (or shares the commander's id)", g.id, s.id));
        }
        match (&g.unit, &g.hex) {
            (Some(u), None) => match side_of_unit(u) {
                Some(x) if x == s.id => {}
                Some(_) => p.push(format!("general {} rides with {u}, a unit of the other side", g.id)),
                None => p.push(format!("general {} rides with {u}, which is not a unit of the battle", g.id)),
            },
            (None, Some(h)) if on_map(h) => {}
            (None, Some(h)) => p.push(format!("general {} waits in {h}, off the map", g.id)),
            _ => p.push(format!("general {} needs exactly one of `unit` and `hex`", g.id)),
        }
    }
    p
}

/// A formation and its activation markers (JDG 2.1.1): the leader's initiative on each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Formation {
    pub id: String,
    pub side: String,
    pub name: String,
    pub initiative: Vec<u8>,
}

/// A combined activation marker, CAM (JDG 2.1.2, code **C**): its effect comes from the
/// battle's special rules. The one effect this format knows: drawn from the cup, it
/// activates the named formations of its side together, as one activation under the
/// CAM's initiative value. It goes into the cup in phase A on the turns the battle
/// requires it (`required`) or lets its side's player choose it (`choice`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cam {
    /// Written `<id>/C` in orders and events.
    pub id: String,
    pub name: String,
    pub side: String,
    /// The initiative value printed on the marker (JDG 2.1, 2.4.3).
    pub initiative: u8,
    /// The formations of `side` it activates together.
    pub formations: Vec<String>,
    /// Turns it goes into the cup without being chosen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<u8>,
    /// Turns its player may choose to put it into the cup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choice: Vec<u8>,
}

/// The problems of a battle's CAMs (JDG 2.1.2): ids unique among CAMs and formations, each
/// of a side, activating formations of its side, on turns of the battle, each turn either
/// required or a choice.
pub fn cam_problems(cams: &[Cam], formations: &[Formation], sides: &[&str], turns: u8) -> Vec<String> {
    let mut p = Vec::new();
    let mut seen = BTreeSet::new();
    for c in cams {
        if !valid_id(&c.id) || !seen.insert(c.id.clone()) || formations.iter().any(|f| f.id == c.id) {
            p.push(format!("CAM {:?}: an id of letters, digits and '-', used once and by no formation", c.id));
        }
        if !sides.contains(&c.side.as_str()) {
            p.push(format!("CAM {} belongs to no side ({})", c.id, c.side));
        }
        if c.initiative > 9 {
            p.push(format!("CAM {}: initiative 0..9", c.id));
        }
        if c.formations.is_empty() {
            p.push(format!("CAM {} activates no formation", c.id));
        }
        for (i, f) in c.formations.iter().enumerate() {
            match formations.iter().find(|x| &x.id == f) {
                Some(x) if x.side == c.side && !c.formations[..i].contains(f) => {}
                Some(x) if x.side != c.side => p.push(format!("CAM {} activates {f}, a formation of the other side", c.id)),
                Some(_) => p.push(format!("CAM {} names {f} twice", c.id)),
                None => p.push(format!("CAM {} activates {f}, which is not a formation", c.id)),
            }
        }
        for t in c.required.iter().chain(&c.choice) {
            if *t == 0 || *t > turns {
                p.push(format!("CAM {}: turn {t} is not a turn of the battle", c.id));
            }
        }
        if c.required.iter().any(|t| c.choice.contains(t)) {
            p.push(format!("CAM {}: a turn is either required or a choice", c.id));
        }
    }
    p
}

/// A combat unit's printed data and starting position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitData {
    pub id: String,
    pub name: String,
    pub formation: String,
    pub kind: Kind,
    /// Heavy cavalry (the `L` on the counter).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub heavy: bool,
    #[schemars(with = "[u8; 4]")]
    pub good: Face,
    #[schemars(with = "[u8; 4]")]
    pub disordered: Face,
    /// Artillery: effective and maximum range in hexes (JDG 7.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[u8; 2]>,
    /// Where it sets up; none for a unit that arrives as a reinforcement (JDG 5.2, named in
    /// a `reinforcements` schedule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
    /// The vertex faced, 0..6 (JDG 6.1.1, `geo::facing`); a reinforcement takes the facing
    /// its entry order gives.
    pub facing: u8,
}

/// A reinforcement schedule (JDG 5.2): a formation's units that enter the map at `entry`,
/// from turn `turn` on, when one of the formation's markers is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    pub formation: String,
    /// The turn the formation is due (JDG 5.2.1: one marker in the cup that turn).
    pub turn: u8,
    /// The hex the units enter by, in column (JDG 5.2.2); closed to the enemy with its
    /// neighbours until every reinforcement of the side is in (5.2.3).
    pub entry: HexId,
    /// The units that arrive (each without a set-up hex).
    pub units: Vec<String>,
}

/// A rout direction a scenario gives a side (JDG 10.4): a map edge, or a hex the routers
/// head for (a rout move that reaches it ends there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoutDirection {
    /// Straight toward that edge of the map (its perpendicular).
    Edge(Edge),
    /// Straight toward that hex.
    Hex(HexId),
}

/// A map edge (the shared hex-map edges).
pub use crate::geo::hex::Edge;

/// A hexside feature between two adjacent hexes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub a: HexId,
    pub b: HexId,
    pub feature: Feature,
}

/// The map as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMap {
    pub rows: [u8; 2],
    pub cols: [u8; 2],
    pub default: Terrain,
    #[serde(default)]
    pub hexes: BTreeMap<Terrain, Vec<HexId>>,
    #[serde(default)]
    pub hexsides: Vec<RawSide>,
    #[serde(default)]
    pub roads: Vec<Vec<HexId>>,
    #[serde(default)]
    pub places: BTreeMap<HexId, String>,
    #[serde(default)]
    pub vp: BTreeMap<HexId, u8>,
    /// Elevation levels of the hexes above the plain (JDG 7.4.1, 7.4.3); a hex not listed
    /// is at level 0, so a map written before levels existed still loads.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub levels: BTreeMap<HexId, u8>,
}

/// Victory conditions (JDG 13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// 13.1: holding every VP hex at the end of a turn wins at once.
    #[serde(default)]
    pub automatic_all_vp: bool,
    /// Who holds each VP hex before any unit stands in it.
    pub holder: BTreeMap<HexId, String>,
}

/// A scenario as the YAML says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    /// The data version (tables and counters), pinned by the log through the scenario text.
    pub data: String,
    pub turns: u8,
    #[serde(default)]
    pub night: Vec<u8>,
    #[serde(default)]
    pub fog: Vec<u8>,
    pub group_link: u8,
    pub sides: Vec<SideData>,
    pub first: String,
    pub map: RawMap,
    pub victory: Victory,
    pub terrain: BTreeMap<Terrain, Costs>,
    pub hexsides: BTreeMap<Feature, Costs>,
    pub road_override: u8,
    /// The Fire Table (E.5), rows by modified total; PROVISIONAL data.
    pub fire_table: Vec<FireRow>,
    /// The fire DRMs (E.6); PROVISIONAL values.
    pub fire_drm: FireDrm,
    /// The Melee and Charge Table (E.8), rows by modified total; PROVISIONAL data.
    pub melee_table: Vec<MeleeRow>,
    /// The Force Ratio Table (E.7): its columns with their DRMs.
    pub force_ratio: Vec<RatioColumn>,
    /// The other melee DRMs (E.9) and the terrain's (E.4); PROVISIONAL values.
    pub melee_drm: MeleeDrm,
    pub formations: Vec<Formation>,
    pub units: Vec<UnitData>,
    /// The reinforcement schedule (JDG 5.2), one entry per arriving formation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<Reinforcement>,
    /// The battle's combined activation markers (JDG 2.1.2); none in a battle without.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cams: Vec<Cam>,
    /// The rout directions of each side (JDG 10.4), by side id, in the order the default
    /// policy tries them; every side has at least one.
    #[serde(with = "yaml_serde::with::singleton_map_recursive")]
    #[schemars(with = "BTreeMap<String, Vec<RoutDirection>>")]
    pub rout: BTreeMap<String, Vec<RoutDirection>>,
}

/// A checked scenario: every reference resolves, every unit stands on the map, the two
/// sides are distinct, every hex has a terrain row and every feature a hexside row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub name: String,
    pub data: String,
    pub turns: u8,
    pub night: BTreeSet<u8>,
    pub fog: BTreeSet<u8>,
    pub group_link: u8,
    /// Exactly two, the first to commit its orders first.
    pub sides: [SideData; 2],
    pub terrain_of: BTreeMap<HexId, Terrain>,
    /// Hexside features, each pair stored lowest hex first.
    pub sides_of: BTreeMap<(HexId, HexId), Feature>,
    /// Road links, each pair stored lowest hex first.
    pub roads: BTreeSet<(HexId, HexId)>,
    pub places: BTreeMap<HexId, String>,
    pub vp: BTreeMap<HexId, u8>,
    /// Elevation levels above 0, each of a map hex (JDG 7.4).
    pub levels: BTreeMap<HexId, u8>,
    pub victory: Victory,
    pub terrain: BTreeMap<Terrain, Costs>,
    pub hexsides: BTreeMap<Feature, Costs>,
    pub road_override: u8,
    pub fire_table: Vec<FireRow>,
    pub fire_drm: FireDrm,
    pub melee_table: Vec<MeleeRow>,
    pub force_ratio: Vec<RatioColumn>,
    pub melee_drm: MeleeDrm,
    pub formations: Vec<Formation>,
    pub units: Vec<UnitData>,
    /// Every unit without a set-up hex is in exactly one schedule, of its own formation,
    /// entering by a map hex.
    pub reinforcements: Vec<Reinforcement>,
    /// The combined activation markers (JDG 2.1.2), checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cams: Vec<Cam>,
    /// Every side's rout directions (JDG 10.4), at least one each, in the scenario's order.
    pub rout: BTreeMap<String, Vec<RoutDirection>>,
}

/// One effect of a Melee Table cell (E.8); a cell's effects apply left to right (JDG 8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MeleeEffect {
    /// `1`: fall back one hex (JDG 10).
    FallBack,
    /// `D`: one level of disorder.
    Disorder,
    /// `CT`: a cohesion test, one level of disorder on a failure.
    Ct,
}

/// A flag of a Melee Table row (E.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MeleeFlag {
    /// `BT`: the attacker may break through (JDG 8.7.2).
    Breakthrough,
    /// `CA`: the defender may counter-attack (JDG 8.7.2).
    CounterAttack,
    /// `PUR`: an attacked cavalry defender may pursue (JDG 9.5.1).
    Pursuit,
}

/// One row of the Melee and Charge Table: the modified totals it covers, inclusive, and
/// each side's effects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeleeRow {
    pub total: [i32; 2],
    #[serde(default)]
    pub attacker: Vec<MeleeEffect>,
    #[serde(default)]
    pub defender: Vec<MeleeEffect>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<MeleeFlag>,
}

/// A column of the Force Ratio Table (E.7): `ratio` attacker to defender as two whole
/// numbers (1.5:1 is `[3, 2]`), and its DRM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatioColumn {
    pub ratio: [u32; 2],
    pub drm: i32,
}

/// Melee DRMs (E.9) and the terrain's melee DRMs (E.4), as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeleeDrm {
    /// By the terrain of the defending hex.
    #[serde(default)]
    pub terrain: BTreeMap<Terrain, i32>,
    /// By the hexside the attack crosses.
    #[serde(default)]
    pub hexside: BTreeMap<Feature, i32>,
    /// Every defending unit is routed (JDG 10.2).
    pub defender_routed: i32,
    /// An attacker in a hex with six front hexes (JDG 6.1.2).
    pub six_front: i32,
    /// Cavalry in melee, not charging (JDG 9.1).
    pub cavalry: i32,
    /// An attacker in a rear hex of the defender (JDG 6.1.2).
    pub rear: i32,
    /// The charge bonus of light or medium cavalry (JDG 9.2, E.9).
    pub charge_light: i32,
    /// The charge bonus when a heavy cavalry unit charges (JDG 9.2, E.9).
    pub charge_heavy: i32,
    /// A charge against a square, instead of the charge bonus (JDG 9.3.2).
    pub vs_square: i32,
    /// Per pursuit charge after the first (JDG 9.5.2): the n-th pursuit charge gets
    /// `(n − 1) × pursuit`.
    pub pursuit: i32,
}

/// A fire result (JDG 7.5, table E.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FireResult {
    None,
    /// A cohesion test for each unit hit.
    Ct,
    /// One level of disorder for each unit hit.
    Disorder,
    /// Each unit hit routs at once.
    Rout,
}

/// One row of the Fire Table: the modified totals it covers, inclusive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireRow {
    pub total: [i32; 2],
    pub result: FireResult,
}

/// The fire DRMs (table E.6) as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireDrm {
    /// Two stacked batteries of one formation firing together (JDG 7.3).
    pub combined: i32,
    /// A target hex holding `massed_units` units or more (normal fire only, JDG 7.1).
    pub massed_target: i32,
    pub massed_units: u8,
    /// Target beyond effective range, up to the maximum (JDG 7.3).
    pub beyond_effective: i32,
    /// Reaction fire (JDG 7.1, 8.3.3; the text's "normal -1", 9.3.2).
    pub reaction: i32,
    /// Reaction fire by a battery stacked with infantry in square, on top of `reaction`
    /// (JDG 9.3.2).
    pub reaction_square: i32,
}

/// A hex pair in stored order.
pub fn pair(a: HexId, b: HexId) -> (HexId, HexId) {
    if a <= b { (a, b) } else { (b, a) }
}

impl Scenario {
    /// Parse and check a scenario text.
    pub fn from_text(text: &str) -> Result<Scenario, ScenarioError> {
        let raw: RawScenario =
            crate::log::yamlscan::from_str(text).map_err(|e| ScenarioError { problems: vec![format!("cannot read the scenario: {e}")] })?;
        Scenario::check(raw)
    }

    /// Check a raw scenario, listing every problem.
    pub fn check(raw: RawScenario) -> Result<Scenario, ScenarioError> {
        let mut p = Vec::new();
        let terrain_of = crate::geo::hex::terrain_grid(raw.map.rows, raw.map.cols, raw.map.default, &raw.map.hexes, &mut p);
        for t in terrain_of.values().collect::<BTreeSet<_>>() {
            if !raw.terrain.contains_key(t) {
                p.push(format!("the terrain table has no row for {t:?}"));
            }
        }
        let on_map = |h: &HexId| terrain_of.contains_key(h);
        let mut sides_of = BTreeMap::new();
        for s in &raw.map.hexsides {
            if !on_map(&s.a) || !on_map(&s.b) || !s.a.is_adjacent(s.b) {
                p.push(format!("hexside {}-{} is not between two adjacent map hexes", s.a, s.b));
            }
            if !raw.hexsides.contains_key(&s.feature) {
                p.push(format!("the hexside table has no row for {:?}", s.feature));
            }
            sides_of.insert(pair(s.a, s.b), s.feature);
        }
        let mut roads = BTreeSet::new();
        if !raw.map.roads.is_empty() && !raw.terrain.contains_key(&Terrain::Road) {
            p.push("the map has roads but the terrain table no `road` row".into());
        }
        for road in &raw.map.roads {
            for w in road.windows(2) {
                if !on_map(&w[0]) || !on_map(&w[1]) || !w[0].is_adjacent(w[1]) {
                    p.push(format!("road step {}-{} is not between two adjacent map hexes", w[0], w[1]));
                }
                roads.insert(pair(w[0], w[1]));
            }
        }
        for h in raw.map.places.keys().chain(raw.map.vp.keys()) {
            if !on_map(h) {
                p.push(format!("place or VP hex {h} is off the map"));
            }
        }
        for h in raw.map.levels.keys() {
            if !on_map(h) {
                p.push(format!("elevation level of hex {h}, which is off the map"));
            }
        }
        let side_ids: Vec<&str> = raw.sides.iter().map(|s| s.id.as_str()).collect();
        if raw.sides.len() != 2 || side_ids[0] == side_ids[1] {
            p.push("a battle has exactly two sides".into());
        }
        if !side_ids.contains(&raw.first.as_str()) {
            p.push(format!("first side {} is not a side", raw.first));
        }
        for s in &raw.sides {
            if !on_map(&s.commander.hex) {
                p.push(format!("commander {} stands off the map", s.commander.id));
            }
            let side_of_unit = |u: &str| {
                let f = raw.units.iter().find(|x| x.id == u)?;
                raw.formations.iter().find(|x| x.id == f.formation).map(|x| x.side.clone())
            };
            p.extend(general_problems(s, &side_of_unit, &on_map));
        }
        for h in raw.map.vp.keys() {
            match raw.victory.holder.get(h) {
                Some(s) if side_ids.contains(&s.as_str()) => {}
                _ => p.push(format!("VP hex {h} has no starting holder among the sides")),
            }
        }
        let mut seen = BTreeSet::new();
        for f in &raw.formations {
            if !seen.insert(f.id.clone()) {
                p.push(format!("formation {} is listed twice", f.id));
            }
            if !side_ids.contains(&f.side.as_str()) {
                p.push(format!("formation {} belongs to no side ({})", f.id, f.side));
            }
            if f.initiative.is_empty() || f.initiative.len() > 2 || f.initiative.iter().any(|&i| i > 9) {
                p.push(format!("formation {}: one or two activation markers, initiative 0..9", f.id));
            }
            if !valid_id(&f.id) {
                p.push(format!("formation id {:?}: letters, digits and '-' only", f.id));
            }
        }
        let mut ids = BTreeSet::new();
        for u in &raw.units {
            if !ids.insert(u.id.clone()) {
                p.push(format!("unit {} is listed twice", u.id));
            }
            if !valid_id(&u.id) {
                p.push(format!("unit id {:?}: letters, digits and '-' only", u.id));
            }
            if !raw.formations.iter().any(|f| f.id == u.formation) {
                p.push(format!("unit {} belongs to no formation ({})", u.id, u.formation));
            }
            match u.hex {
                Some(h) if !on_map(&h) => p.push(format!("unit {} stands off the map at {h}", u.id)),
                Some(_) => {}
                None => match raw.reinforcements.iter().filter(|r| r.units.contains(&u.id)).count() {
                    1 => {}
                    0 => p.push(format!("unit {} has no set-up hex and arrives in no reinforcement schedule", u.id)),
                    _ => p.push(format!("unit {} arrives in two reinforcement schedules", u.id)),
                },
            }
            if u.facing > 5 {
                p.push(format!("unit {} faces vertex {}; vertices are 0..5", u.id, u.facing));
            }
            if (u.kind == Kind::Artillery) != u.range.is_some() {
                p.push(format!("unit {}: artillery, and only artillery, has a range", u.id));
            }
            if u.heavy && u.kind != Kind::Cavalry {
                p.push(format!("unit {}: only cavalry is heavy", u.id));
            }
        }
        let mut scheduled = BTreeSet::new();
        for r in &raw.reinforcements {
            if !scheduled.insert(r.formation.clone()) {
                p.push(format!("formation {} has two reinforcement schedules", r.formation));
            }
            if !raw.formations.iter().any(|f| f.id == r.formation) {
                p.push(format!("reinforcement schedule of {}: no such formation", r.formation));
            }
            if !on_map(&r.entry) {
                p.push(format!("reinforcement entry hex {} of {} is off the map", r.entry, r.formation));
            }
            if r.turn == 0 || r.turn > raw.turns {
                p.push(format!("reinforcements of {} are due on turn {}, not a turn of the battle", r.formation, r.turn));
            }
            if r.units.is_empty() {
                p.push(format!("the reinforcement schedule of {} names no unit", r.formation));
            }
            for id in &r.units {
                match raw.units.iter().find(|u| &u.id == id) {
                    None => p.push(format!("reinforcement {id} of {}: no such unit", r.formation)),
                    Some(u) if u.formation != r.formation => {
                        p.push(format!("reinforcement {id} belongs to {}, not to {}", u.formation, r.formation))
                    }
                    Some(u) if u.hex.is_some() => p.push(format!("reinforcement {id} also has a set-up hex")),
                    Some(_) => {}
                }
            }
        }
        let mut rows: Vec<&FireRow> = raw.fire_table.iter().collect();
        rows.sort_by_key(|r| r.total[0]);
        if rows.is_empty() || rows.iter().any(|r| r.total[0] > r.total[1]) || rows.windows(2).any(|w| w[1].total[0] != w[0].total[1] + 1) {
            p.push("the fire table's rows are ranges of totals that follow each other without gap or overlap".into());
        }
        let mut rows: Vec<&MeleeRow> = raw.melee_table.iter().collect();
        rows.sort_by_key(|r| r.total[0]);
        if rows.is_empty() || rows.iter().any(|r| r.total[0] > r.total[1]) || rows.windows(2).any(|w| w[1].total[0] != w[0].total[1] + 1) {
            p.push("the melee table's rows are ranges of totals that follow each other without gap or overlap".into());
        }
        if raw.force_ratio.is_empty() || raw.force_ratio.iter().any(|c| c.ratio[0] == 0 || c.ratio[1] == 0) {
            p.push("the force ratio table has columns, each two whole numbers above 0".into());
        }
        if raw.turns == 0 {
            p.push("a battle lasts one turn at least".into());
        }
        for s in &raw.sides {
            if raw.rout.get(&s.id).is_none_or(|d| d.is_empty()) {
                p.push(format!("side {} has no rout direction (JDG 10.4: `rout: {{{}: [{{edge: south}}]}}`)", s.id, s.id));
            }
        }
        for side in raw.rout.keys() {
            if !raw.sides.iter().any(|s| &s.id == side) {
                p.push(format!("rout directions for {side}: no such side"));
            }
        }
        p.extend(cam_problems(&raw.cams, &raw.formations, &side_ids, raw.turns));
        if !p.is_empty() {
            return Err(ScenarioError { problems: p });
        }
        let mut sides = raw.sides.into_iter();
        let (Some(a), Some(b)) = (sides.next(), sides.next()) else {
            return Err(ScenarioError { problems: vec!["a battle has exactly two sides".into()] });
        };
        let sides = if a.id == raw.first { [a, b] } else { [b, a] };
        Ok(Scenario {
            name: raw.name,
            data: raw.data,
            turns: raw.turns,
            night: raw.night.into_iter().collect(),
            fog: raw.fog.into_iter().collect(),
            group_link: raw.group_link,
            sides,
            terrain_of,
            sides_of,
            roads,
            places: raw.map.places,
            vp: raw.map.vp,
            levels: raw.map.levels.into_iter().filter(|(_, l)| *l > 0).collect(),
            victory: raw.victory,
            terrain: raw.terrain,
            hexsides: raw.hexsides,
            road_override: raw.road_override,
            fire_table: raw.fire_table,
            fire_drm: raw.fire_drm,
            melee_table: raw.melee_table,
            force_ratio: raw.force_ratio,
            melee_drm: raw.melee_drm,
            formations: raw.formations,
            units: raw.units,
            reinforcements: raw.reinforcements,
            cams: raw.cams,
            rout: raw.rout,
        })
    }

    /// The hexside feature between two adjacent hexes, if any.
    pub fn feature(&self, a: HexId, b: HexId) -> Option<Feature> {
        self.sides_of.get(&pair(a, b)).copied()
    }

    /// The elevation level of a hex (JDG 7.4): 0 unless the map raises it.
    pub fn level(&self, h: HexId) -> u8 {
        self.levels.get(&h).copied().unwrap_or(0)
    }

    /// Whether a road links two adjacent hexes.
    pub fn road(&self, a: HexId, b: HexId) -> bool {
        self.roads.contains(&pair(a, b))
    }

    /// The formation of that id.
    pub fn formation(&self, id: &str) -> Option<&Formation> {
        self.formations.iter().find(|f| f.id == id)
    }

    /// The CAM of that id (JDG 2.1.2).
    pub fn cam(&self, id: &str) -> Option<&Cam> {
        self.cams.iter().find(|c| c.id == id)
    }

    /// The side data of that id.
    pub fn side(&self, id: &str) -> Option<&SideData> {
        self.sides.iter().find(|s| s.id == id)
    }

    /// The other side's id.
    pub fn other(&self, side: &str) -> &str {
        if self.sides[0].id == side { &self.sides[1].id } else { &self.sides[0].id }
    }

    /// A unit's printed data.
    pub fn unit(&self, id: &str) -> Option<&UnitData> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The reinforcement schedule of a formation, if it arrives (JDG 5.2).
    pub fn schedule(&self, formation: &str) -> Option<&Reinforcement> {
        self.reinforcements.iter().find(|r| r.formation == formation)
    }

    /// The reinforcement schedule a unit arrives by, if any.
    pub fn schedule_of(&self, unit: &str) -> Option<&Reinforcement> {
        self.reinforcements.iter().find(|r| r.units.iter().any(|u| u == unit))
    }

    /// The Fire Table's result for a modified total (E.5): below the first row nothing,
    /// above the last row the last row's result.
    pub fn fire_result(&self, total: i32) -> FireResult {
        let mut rows: Vec<&FireRow> = self.fire_table.iter().collect();
        rows.sort_by_key(|r| r.total[0]);
        match rows.iter().find(|r| r.total[0] <= total && total <= r.total[1]) {
            Some(r) => r.result,
            None if rows.first().is_some_and(|r| total < r.total[0]) => FireResult::None,
            None => rows.last().map(|r| r.result).unwrap_or(FireResult::None),
        }
    }

    /// The Melee Table's row for a modified total (E.8): beyond the ends, the end rows.
    pub fn melee_row(&self, total: i32) -> Option<&MeleeRow> {
        let mut rows: Vec<&MeleeRow> = self.melee_table.iter().collect();
        rows.sort_by_key(|r| r.total[0]);
        rows.iter()
            .find(|r| r.total[0] <= total && total <= r.total[1])
            .or_else(|| if rows.first().is_some_and(|r| total < r.total[0]) { rows.first() } else { rows.last() })
            .copied()
    }

    /// The Force Ratio column for `att` SP against `def` SP (JDG 8.6.1, E.7), rounded in
    /// the defender's favour: the best column a:b with att × b ≥ def × a (whole numbers
    /// only), or the worst column when none fits.
    pub fn force_column(&self, att: u32, def: u32) -> Option<&RatioColumn> {
        let mut cols: Vec<&RatioColumn> = self.force_ratio.iter().collect();
        // Ascending by a/b, compared as a1 × b2 against a2 × b1.
        cols.sort_by(|x, y| (x.ratio[0] * y.ratio[1]).cmp(&(y.ratio[0] * x.ratio[1])));
        cols.iter().rev().find(|c| att * c.ratio[1] >= def * c.ratio[0]).or(cols.first()).copied()
    }

    /// Six front hexes in this hex (JDG 6.1.1).
    pub fn no_charge(&self, h: HexId) -> bool {
        self.terrain_of.get(&h).and_then(|t| self.terrain.get(t)).is_none_or(|c| c.no_charge)
    }
    /// Whether a charge may cross the hexside between `a` and `b` (JDG 9.1: never a bridge,
    /// slope, steep slope, crest or fortification).
    pub fn charge_side_ok(&self, a: HexId, b: HexId) -> bool {
        !matches!(
            self.feature(a, b),
            Some(Feature::Bridge | Feature::Slope | Feature::SteepSlope | Feature::Crest | Feature::Fortification)
        )
    }
    /// Whether a unit in `h` has six front hexes by the terrain (JDG 6.1.1).
    pub fn all_round(&self, h: HexId) -> bool {
        self.terrain_of.get(&h).and_then(|t| self.terrain.get(t)).is_some_and(|c| c.all_round)
    }
}

/// The JSON Schema of a scenario file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(RawScenario)
}

/// Ids go into commitment ids and values: keep them to letters, digits and `-`.
fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 24 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The bundled representative battle.
pub const MARENGO_YAML: &str = include_str!("../../../scenarios/jours-de-gloire/marengo.yaml");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_battle_is_valid() {
        let s = Scenario::from_text(MARENGO_YAML).expect("valid");
        assert_eq!(s.sides[0].id, "french");
        assert!(s.all_round("0506".parse().expect("hex")));
        assert!(s.road("0506".parse().expect("hex"), "0606".parse().expect("hex")));
    }

    #[test]
    fn raw_problems_are_all_listed() {
        let bad = MARENGO_YAML
            .replace("formation: boudet, kind: infantry, good: [4, 7", "formation: nobody, kind: infantry, good: [4, 7")
            .replace("first: french", "first: prussian");
        let e = Scenario::from_text(&bad).expect_err("invalid");
        assert!(e.problems.iter().any(|p| p.contains("belongs to no formation")), "{e}");
        assert!(e.problems.iter().any(|p| p.contains("first side")), "{e}");
    }

    /// JDG 2.5.2: further generals load (a battle without them loads unchanged), and a
    /// forged list is refused: a general riding with the enemy's unit, one with no place,
    /// one off the map, one sharing the commander's id.
    #[test]
    fn further_generals_are_checked() {
        let with = |g: &str| {
            MARENGO_YAML.replace(
                "command_distance: 6}\n",
                &format!("command_distance: 6}}\n    generals:\n      - {{id: FR-DES, name: Desaix, drm: 1, order_potential: 1, command_distance: 4, {g}}}\n"),
            )
        };
        let s = Scenario::from_text(&with("unit: FR-19L")).expect("valid");
        assert_eq!(s.sides[0].generals.len(), 1);
        assert!(s.sides[1].generals.is_empty());
        assert!(Scenario::from_text(&with("hex: \"0809\"")).is_ok());
        for (g, why) in [
            ("unit: AU-WAL", "a unit of the other side"),
            ("unit: FR-NOBODY", "not a unit of the battle"),
            ("hex: \"2020\"", "off the map"),
            ("unit: FR-19L, hex: \"0809\"", "exactly one of"),
        ] {
            let e = Scenario::from_text(&with(g)).expect_err(g);
            assert!(e.problems.iter().any(|p| p.contains(why)), "{g}: {e}");
        }
        let twice = with("unit: FR-19L").replace("id: FR-DES", "id: FR-CinC");
        let e = Scenario::from_text(&twice).expect_err("shared id");
        assert!(e.problems.iter().any(|p| p.contains("listed twice")), "{e}");
    }
}
