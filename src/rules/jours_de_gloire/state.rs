//! The game state: the checked scenario, the units where they stand, the turn and its
//! phase, this turn's tactical groups and their orders, the cup.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::scenario::{Face, Kind, Scenario, UnitData};
use crate::engine::Outcome;
use crate::geo::facing::Facing;
use crate::geo::hex::HexId;

/// A combat unit in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub side: String,
    pub formation: String,
    pub kind: Kind,
    /// `None` once eliminated, or while it waits to enter as a reinforcement (`arrives`).
    pub hex: Option<HexId>,
    /// The vertex faced, 0..6 (JDG 6.1.1).
    pub facing: u8,
    /// On its disordered face (JDG 10.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disordered: bool,
    /// Under a Rout marker (JDG 10.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub routed: bool,
    /// In square (JDG 4.2): six front hexes, no ZOC, immobile.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub square: bool,
    /// A reinforcement not yet on the map (JDG 5.2): the first turn it may enter. It moves
    /// on a turn when it could have entered and did not (5.2.2: the next turn's first
    /// marker brings it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u8>,
    /// Carries a Reinforcement marker (JDG 5.2.1): OR whatever its group's orders, forced
    /// march allowed (at night and in fog too, 12); lost within 5 hexes of an enemy unit or
    /// by its owner's choice in phase A.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub marker: bool,
    /// Entered with an enemy 5 hexes or less from its entry hex (the exception of JDG
    /// 5.2.1): OR for that turn only, the turn held here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub or_turn: Option<u8>,
    /// Stopped its rout move in a town, village or castle (JDG 10.4): it stays there in
    /// later phases E while its owner's policy is `stop`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sheltered: bool,
}

impl Unit {
    /// The facing as the shared geometry reads it.
    pub fn face(&self) -> Facing {
        Facing::Vertex(self.facing)
    }
}

/// A group's orders for the turn (JDG 2.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Status {
    /// Ordres Reçus: in command.
    OR,
    /// Sans Ordres: out of command.
    SO,
}

impl Status {
    /// The two letters as written in orders and commitment values.
    pub fn code(self) -> &'static str {
        match self {
            Status::OR => "OR",
            Status::SO => "SO",
        }
    }
    /// From the two letters.
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "OR" => Some(Status::OR),
            "SO" => Some(Status::SO),
            _ => None,
        }
    }
}

/// A tactical group of one turn (JDG 2.3.1), fixed in phase A.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// `<formation>-<k>`, k counted from 1 in the order of each group's first unit id.
    pub id: String,
    pub turn: u8,
    pub side: String,
    pub formation: String,
    pub units: Vec<String>,
    /// At least one unit within the C-in-C's command distance in phase A (JDG 2.3.2).
    pub in_reach: bool,
    /// The order potential of the general who commanded the side in phase A (JDG 2.3.2):
    /// the openings of this turn are held to it even if another general took over since
    /// (2.5.2).
    #[serde(default)]
    pub potential: u8,
    /// Its commitment is in the log.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub committed: bool,
    /// The orders, once opened (JDG 2.4); `None` while secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

/// An activation marker: an ordinary one (JDG 2.1.1), formation and number (1 or 2); or a
/// combined one, CAM (2.1.2), the CAM's id with number 0, written `<id>/C`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Am {
    pub formation: String,
    pub n: u8,
}

impl Am {
    /// From `formation/n` or `cam/C`, as orders and cases write a marker.
    pub fn parse(s: &str) -> Option<Am> {
        let (f, n) = s.split_once('/')?;
        let n: u8 = if n == "C" { 0 } else { n.parse().ok().filter(|n| *n >= 1)? };
        (!f.is_empty()).then(|| Am { formation: f.to_string(), n })
    }
    /// The CAM `id`'s marker (JDG 2.1.2).
    pub fn cam(id: &str) -> Am {
        Am { formation: id.to_string(), n: 0 }
    }
    /// Whether it is a CAM.
    pub fn is_cam(&self) -> bool {
        self.n == 0
    }
}

impl std::fmt::Display for Am {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_cam() { write!(f, "{}/C", self.formation) } else { write!(f, "{}/{}", self.formation, self.n) }
    }
}

/// Where the turn stands (JDG 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A: this side commits its groups' orders.
    Orders { side: String },
    /// B: this side's next entry opens with both strategic-initiative rolls (a leading
    /// roll, JDG 3); a tie goes on to the first cup draw with the same dice.
    Initiative { side: String },
    /// B: this side won the strategic initiative and picks its first marker or declines.
    Pick { side: String },
    /// B: the first side's entry, opened by the phase-B dice, opens its committed CAM
    /// choice (JDG 2.1.2); then the cup is filled and phase B goes on (a pick by this side
    /// in the same entry when it won).
    Reveal { side: String },
    /// D.1: this side's next entry opens with the cup draw (a leading roll).
    Draw { side: String },
    /// D.2-D.3: the drawn formation acts.
    Activation { am: Am, side: String },
    /// The battle is over.
    Over,
}

/// A fire declared and awaiting its die (JDG 7.5): the entry ends with it and the other
/// side's next entry settles it (DESIGN §2.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fire {
    pub side: String,
    /// The firing battery, or the two stacked ones firing combined (7.3).
    pub units: Vec<String>,
    pub from: HexId,
    pub target: HexId,
    /// The fire capacity used (the higher one when combined).
    pub capacity: i32,
    /// The sum of the DRMs, and their list in words.
    pub drm: i32,
    pub drms: Vec<String>,
}

/// One unit's rally attempt, waiting for its die (JDG 11.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RallyTry {
    pub unit: String,
    /// The vertex it faces if it rallies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
}

/// The rallies that close an activation, waiting for their dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rally {
    pub side: String,
    pub tries: Vec<RallyTry>,
}

/// One leader-initiative test (JDG 2.4.3) declared and waiting for its die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderTest {
    /// The SO group tested.
    pub group: String,
    /// The C-in-C's DRM subtracted from the die (0 when no unit of the group is within
    /// command distance).
    pub drm: i32,
    /// The initiative printed on the drawn marker.
    pub initiative: i32,
}

/// The leader-initiative tests of one entry, waiting for their dice (JDG 2.4.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderTests {
    pub side: String,
    pub tests: Vec<LeaderTest>,
}

/// A commander-in-chief in play (JDG 2.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chief {
    pub side: String,
    pub hex: HexId,
    /// Moved this turn (flipped; back at the end of the turn, a reading of a gap).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
    /// The enemy units in contact with him at the last check, accepted (JDG 2.5.2): only a
    /// unit not listed here brings on an evasion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub near: Vec<String>,
    /// The further general who took command after the commander-in-chief fell (JDG 2.5.2);
    /// none: the commander-in-chief himself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general: Option<String>,
    /// He was alone in his hex at the last check (JDG 2.5.2): a commander left alone in
    /// contact must evade.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alone: bool,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    /// Side id → seat.
    pub seats: BTreeMap<String, String>,
    pub turn: u8,
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub chiefs: Vec<Chief>,
    /// This turn's groups, and earlier turns' groups whose orders are still secret.
    pub groups: Vec<Group>,
    /// AMs in the cup, sorted: the canonical order a draw picks from (digest F.4).
    pub cup: Vec<Am>,
    /// AMs played or set aside this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aside: Vec<Am>,
    /// Units that moved or turned in the current activation (JDG 4.4.1, 6.2.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted: Vec<String>,
    /// The fire waiting for its die, if any (JDG 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire: Option<Fire>,
    /// The rallies waiting for their dice, if any (JDG 11.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rally: Option<Rally>,
    /// The melees declared and waiting for their dice, if any (JDG 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melee: Option<super::melee::Pending>,
    /// The charge declared and waiting for its dice, if any (JDG 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<super::charge::Pending>,
    /// The hexes units entered by fall back or rout retreat in the resolution under way, in
    /// order (what a pursuit follows, JDG 9.5.2); emptied after every resolution.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trail: Vec<(String, HexId)>,
    /// The leader-initiative tests waiting for their dice, if any (JDG 2.4.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<LeaderTests>,
    /// The groups tested in the current activation and whether each passed (JDG 2.4.3): a
    /// pass makes the group OR for this activation only, a failure leaves it rally only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tested: Vec<(String, bool)>,
    /// The strategic initiative of this turn (JDG 3): the winning side, none on a tie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<String>,
    /// The melees of the current activation are declared: no more fire, moves or melees.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub melee_done: bool,
    /// Enemy units attacked in melee in the current activation (JDG 8.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meleed: Vec<String>,
    /// Artillery that fired in the current activation (JDG 4.4.2, 11.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fired: Vec<String>,
    /// The fire segment of the current activation is over: something moved or turned (JDG 7.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fire_closed: bool,
    /// Formations found demoralised at the last phase E (JDG 11.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub demoralised: Vec<String>,
    /// Reinforcement stacks that entered the map in the current activation: the next one
    /// pays one more time the entry hex's cost (JDG 5.2.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u8,
    /// Each side's standing refusal policy for its cavalry (JDG 8.8); none: never.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refusal: BTreeMap<String, super::refusal::Refusal>,
    /// Cavalry units that refused a melee in the current activation (JDG 8.8.1: once).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
    /// Each side's standing counter-attack policy (JDG 8.7.2); none: never.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counter: BTreeMap<String, super::counter::CounterAttack>,
    /// Each side's standing rout policy (JDG 10.4): stop in a town, village or castle, or
    /// run on; a side not listed stops.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rout: BTreeMap<String, super::rout::RoutPolicy>,
    /// Units a retreat or rout move passed through, waiting for their cohesion test or
    /// rout move (JDG 10.5), in the order they were passed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed: Vec<super::rout::Passed>,
    /// Phase E waits for the dice of those tests before the turn ends (JDG 10.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub phase_e: bool,
    /// Each side's standing counter-battery policy (JDG 7.1); none: never.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counter_battery: BTreeMap<String, super::reaction::CounterBattery>,
    /// Each side's standing reaction-fire policy (JDG 7.1, 8.3.3); none: never.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reaction: BTreeMap<String, super::reaction::ReactionFire>,
    /// Each side's standing evasion policy for its commander-in-chief (JDG 2.5.2); none:
    /// only when alone.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evasion: BTreeMap<String, super::chief::Evasion>,
    /// Each side's standing pursuit policy for its attacked cavalry (JDG 9.4, 9.5.1); none:
    /// never.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pursuit: BTreeMap<String, super::charge::Pursuit>,
    /// Sides whose commander-in-chief was eliminated (JDG 2.5.2): their groups receive no
    /// orders from the next phase A to the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallen: Vec<String>,
    /// Generals eliminated (the commander-in-chief's id, or a further general's who took
    /// over from him, JDG 2.5.2): none of them takes command again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<String>,
    /// Batteries that made their counter-battery or reaction fire in the current activation
    /// (JDG 7.1: one of the two, once).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reacted: Vec<String>,
    /// Units that made a breakthrough or counter-attack in the current activation (JDG
    /// 8.7.2: one each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub broke: Vec<String>,
    /// Infantry whose melee combined with a charge in the current activation (JDG 9.2): it
    /// has made its attack and attacks no more.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<String>,
    /// The CAMs put into the cup by choice this turn (JDG 2.1.2), once public: stated by
    /// the second side, opened by the first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chosen: Vec<String>,
    /// Sides whose phase-A CAM choice of this turn is committed and not yet opened (the
    /// first side's, digest F.4 reading 19).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sealed_cams: Vec<String>,
    /// Formations that have activated this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activated: Vec<String>,
    /// Who holds each VP hex (the side whose unit last stood in it).
    pub holder: BTreeMap<HexId, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl State {
    /// The side of a seat.
    pub fn side_of(&self, seat: &str) -> Option<&str> {
        self.seats.iter().find(|(_, s)| s.as_str() == seat).map(|(side, _)| side.as_str())
    }
    /// The seat of a side.
    pub fn seat_of(&self, side: &str) -> String {
        self.seats.get(side).cloned().unwrap_or_default()
    }
    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }
    /// A unit by id, to change.
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }
    /// Units in a hex, in stacking order (bottom first).
    pub fn units_at(&self, h: HexId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.hex == Some(h))
    }
    /// A unit's printed data.
    pub fn data(&self, id: &str) -> Option<&UnitData> {
        self.scenario.unit(id)
    }
    /// The face a unit shows now.
    pub fn face(&self, u: &Unit) -> Face {
        let d = self.data(&u.id);
        match d {
            Some(d) if u.disordered || u.routed => d.disordered,
            Some(d) => d.good,
            None => Face { sp: 0, cohesion: 0, engagement: 0, mp: 0 },
        }
    }
    /// A side's commander-in-chief.
    pub fn chief(&self, side: &str) -> Option<&Chief> {
        self.chiefs.iter().find(|c| c.side == side)
    }
    /// The CAM a marker is, if it is one (JDG 2.1.2).
    pub fn cam_of(&self, am: &Am) -> Option<&super::scenario::Cam> {
        if am.is_cam() { self.scenario.cam(&am.formation) } else { None }
    }
    /// The formations a marker activates: its own, or the CAM's (JDG 2.1.2).
    pub fn am_formations(&self, am: &Am) -> Vec<String> {
        match self.cam_of(am) {
            Some(c) => c.formations.clone(),
            None if am.is_cam() => vec![],
            None => vec![am.formation.clone()],
        }
    }
    /// Whether a marker activates `formation`.
    pub fn activates(&self, am: &Am, formation: &str) -> bool {
        match self.cam_of(am) {
            Some(c) => c.formations.iter().any(|f| f == formation),
            None => !am.is_cam() && am.formation == formation,
        }
    }
    /// What a marker activates, in words: the formation's id, or the CAM's formations.
    pub fn am_label(&self, am: &Am) -> String {
        match self.cam_of(am) {
            Some(c) => format!("{} (CAM {})", c.formations.join(" and "), c.name),
            None => am.formation.clone(),
        }
    }
    /// The side a marker belongs to.
    pub fn am_side(&self, am: &Am) -> String {
        match self.cam_of(am) {
            Some(c) => c.side.clone(),
            None => self.scenario.formation(&am.formation).map(|f| f.side.clone()).unwrap_or_default(),
        }
    }
    /// The initiative value printed on a marker (JDG 2.1, 2.4.3).
    pub fn am_initiative(&self, am: &Am) -> i32 {
        match self.cam_of(am) {
            Some(c) => i32::from(c.initiative),
            None => self
                .scenario
                .formation(&am.formation)
                .and_then(|f| f.initiative.get(usize::from(am.n).saturating_sub(1)).copied())
                .map(i32::from)
                .unwrap_or(0),
        }
    }
    /// The name of general `id` of `side` (`None`: the commander-in-chief).
    pub fn command_name(&self, side: &str, id: Option<&str>) -> String {
        self.scenario.side(side).and_then(|d| d.command(id)).map(|c| c.name).unwrap_or_default()
    }
    /// The values of the general commanding `side` now (JDG 2.5.1): the commander-in-chief's,
    /// or those of the general who took over from him (2.5.2); `None` when the army has no
    /// general left.
    pub fn command(&self, side: &str) -> Option<super::scenario::Command> {
        let c = self.chief(side)?;
        self.scenario.side(side)?.command(c.general.as_deref())
    }
    /// The group of this turn holding a unit.
    pub fn group_of(&self, unit: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.turn == self.turn && g.units.iter().any(|u| u == unit))
    }
    /// Whether the turn is a night turn (JDG 12.1).
    pub fn night(&self) -> bool {
        self.scenario.night.contains(&self.turn)
    }
    /// Whether the turn is a fog turn (JDG 12.2).
    pub fn fog(&self) -> bool {
        self.scenario.fog.contains(&self.turn)
    }
    /// The phase in words.
    pub fn phase_text(&self) -> String {
        let weather = if self.night() {
            " (night)"
        } else if self.fog() {
            " (fog)"
        } else {
            ""
        };
        let p = match &self.phase {
            Phase::Orders { side } => format!("phase A: the {side} orders"),
            Phase::Initiative { side } => format!("phase B: the {side} player rolls the strategic initiative"),
            Phase::Pick { side } => format!("phase B: the {side} player won the strategic initiative and picks the first marker"),
            Phase::Reveal { side } => format!("phase B: the {side} player opens his CAM choice (JDG 2.1.2)"),
            Phase::Draw { side } => format!("phase D: the {side} player draws from the cup"),
            Phase::Activation { am, side } => format!("phase D: {side} activation of {am}"),
            Phase::Over => "the battle is over".into(),
        };
        format!("Turn {} of {}{weather}, {p}", self.turn, self.scenario.turns)
    }
}
