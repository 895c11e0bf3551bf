//! The game state of When Eagles Fight: units, the turn and phase, control, and the battle
//! waiting for its roll. The map and charts ride along, shared (`Arc`), so a log replays from
//! its own scenario text.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::Board;
use super::scenario::Charts;
use crate::engine::Outcome;
use crate::geo::hex::HexId;

/// The two sides (WEF 3.1): the Central Powers (German, A-H, the Turkish corps) and Russia
/// (with Romania).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Central,
    Russian,
}

impl Side {
    /// The side's id as seats name it.
    pub fn id(self) -> &'static str {
        match self {
            Side::Central => "central",
            Side::Russian => "russian",
        }
    }
    /// From a side id.
    pub fn from_id(s: &str) -> Option<Side> {
        match s {
            "central" => Some(Side::Central),
            "russian" => Some(Side::Russian),
            _ => None,
        }
    }
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Central => Side::Russian,
            Side::Russian => Side::Central,
        }
    }
    /// For players: `"Central Powers"`, `"Russian"`.
    pub fn title(self) -> &'static str {
        match self {
            Side::Central => "Central Powers",
            Side::Russian => "Russian",
        }
    }
}

/// Nationality (WEF 2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Nat {
    /// German.
    DE,
    /// Austro-Hungarian.
    AH,
    /// Turkish: counts as German for everything but its entry point (2.5, 10.2).
    TU,
    /// Russian.
    RU,
    /// Romanian.
    RO,
}

impl Nat {
    /// The side the nation plays on.
    pub fn side(self) -> Side {
        match self {
            Nat::DE | Nat::AH | Nat::TU => Side::Central,
            Nat::RU | Nat::RO => Side::Russian,
        }
    }
    /// German for the rules (the Turkish corps counts as German, 2.5).
    pub fn german(self) -> bool {
        matches!(self, Nat::DE | Nat::TU)
    }
}

/// Unit type (WEF 2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Infantry,
    /// A German active corps (13.19).
    Active,
    Cavalry,
    /// Fortress infantry: garrison and works at once (13.15).
    Fortress,
    /// German heavy artillery battalion (13.18).
    Heavy,
}

/// Unit size (WEF 2.8), for stacking (8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Corps,
    Division,
    Battalion,
    /// Fortress infantry prints no size.
    None,
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Hex(HexId),
    /// On the turn track: enters on that turn (3.1).
    Track(u8),
    /// Waits for its condition (REG: event G; B+n: the Brusilov declaration), which puts it
    /// on the turn track.
    Waiting,
    Eliminated,
    /// Not part of this scenario (Free Setup or Schlieffen East counters).
    Out,
    /// A reinforcement that did not enter on its turn (10.6).
    Lost,
    /// Withdrawn from the map for good (10.15, 10.16).
    Withdrawn,
}

/// A unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub name: String,
    pub nat: Nat,
    pub kind: Kind,
    pub size: Size,
    /// Attack, defence, movement at full strength.
    pub full: [u8; 3],
    /// The back of a 2-SL unit.
    pub reduced: Option<[u8; 3]>,
    /// Non-replaceable (`*`).
    pub star: bool,
    /// The A-H army number (`/2`).
    pub army: Option<u8>,
    /// Strength levels now (2-SL units: 2 full, 1 reduced).
    pub sl: u8,
    pub place: Place,
    /// The conditional entry code, if any (`REG`, `B+1`…).
    pub when: Option<String>,
    /// The back of an A-H unit: the factors it has for good once rebuilt (2.12).
    #[serde(default)]
    pub rebuilt: Option<[u8; 3]>,
}

impl Unit {
    /// The side.
    pub fn side(&self) -> Side {
        self.nat.side()
    }
    /// Strength levels at full strength: A-H units have one (2.12), others two when they
    /// print a back.
    pub fn max_sl(&self) -> u8 {
        if self.reduced.is_some() { 2 } else { 1 }
    }
    /// The factors showing now.
    pub fn factors(&self) -> [u8; 3] {
        match (self.sl, self.reduced) {
            (1, Some(r)) if self.max_sl() == 2 => r,
            _ => self.full,
        }
    }
    /// On the map at `h`.
    pub fn at(&self, h: HexId) -> bool {
        self.place == Place::Hex(h)
    }
    /// The hex, if on the map.
    pub fn hex(&self) -> Option<HexId> {
        match self.place {
            Place::Hex(h) => Some(h),
            _ => None,
        }
    }
    /// Stacking value in half-corps (8.1, 8.5): a corps 2, a division 1; fortress infantry
    /// and heavy artillery stack free.
    pub fn stack_halves(&self) -> u32 {
        match (self.kind, self.size) {
            (Kind::Fortress | Kind::Heavy, _) => 0,
            (_, Size::Corps) => 2,
            (_, Size::Division) => 1,
            _ => 0,
        }
    }
    /// At full strength with 2 SL (13.19 needs it of an active corps).
    pub fn full_strength(&self) -> bool {
        self.sl == self.max_sl()
    }
    /// `"DE-1 (1 XXX)"`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.id, self.name)
    }
}

/// The phases this ruleset plays (WEF 5.2), in order within a game turn. Phases the rules
/// built so far do not play (random events, OberOst) are
/// listed in the docs as not implemented; the sequence passes over them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// II.A: Russian reinforcements.
    RussianNewUnits,
    /// II.B: CP reinforcements.
    CentralNewUnits,
    /// III.A: Russian strategic movement (11).
    RussianStrategic,
    /// III.B: CP strategic movement (11).
    CentralStrategic,
    /// IV.A.
    RussianMovement,
    /// IV.B.
    RussianCombat,
    /// V.A.
    CentralMovement,
    /// V.B.
    CentralCombat,
    /// V.C: German units OberOst commands attack again (14.3); played only in a turn OberOst
    /// was placed.
    #[serde(rename = "oberost_combat")]
    OberOstCombat,
    /// VI: the victory check, waiting for its revolution roll (4.4).
    VictoryCheck,
}

impl Phase {
    /// The side that acts in this phase.
    pub fn side(self) -> Side {
        match self {
            Phase::RussianNewUnits | Phase::RussianMovement | Phase::RussianCombat => Side::Russian,
            Phase::RussianStrategic => Side::Russian,
            Phase::CentralStrategic => Side::Central,
            // The CP rolls the revolution die (digest G recommendation).
            Phase::CentralNewUnits | Phase::CentralMovement | Phase::CentralCombat | Phase::VictoryCheck => Side::Central,
            Phase::OberOstCombat => Side::Central,
        }
    }
    /// For players: `"IV.A Russian Regular Movement"`.
    pub fn title(self) -> &'static str {
        match self {
            Phase::RussianNewUnits => "II.A Russian New Units",
            Phase::CentralNewUnits => "II.B Central Powers New Units",
            Phase::RussianStrategic => "III.A Russian Strategic Movement",
            Phase::CentralStrategic => "III.B Central Powers Strategic Movement",
            Phase::RussianMovement => "IV.A Russian Regular Movement",
            Phase::RussianCombat => "IV.B Russian Combat",
            Phase::CentralMovement => "V.A Central Powers Regular Movement",
            Phase::CentralCombat => "V.B Central Powers Combat",
            Phase::OberOstCombat => "V.C German OberOst Combat",
            Phase::VictoryCheck => "VI Victory Check",
        }
    }
    /// The phase after this one, or `None` at the end of the game turn.
    pub fn next(self) -> Option<Phase> {
        match self {
            Phase::RussianNewUnits => Some(Phase::CentralNewUnits),
            Phase::CentralNewUnits => Some(Phase::RussianStrategic),
            Phase::RussianStrategic => Some(Phase::CentralStrategic),
            Phase::CentralStrategic => Some(Phase::RussianMovement),
            Phase::RussianMovement => Some(Phase::RussianCombat),
            Phase::RussianCombat => Some(Phase::CentralMovement),
            Phase::CentralMovement => Some(Phase::CentralCombat),
            Phase::CentralCombat => Some(Phase::VictoryCheck),
            Phase::OberOstCombat => Some(Phase::VictoryCheck),
            Phase::VictoryCheck => None,
        }
    }
    /// A movement phase.
    pub fn movement(self) -> bool {
        matches!(self, Phase::RussianMovement | Phase::CentralMovement)
    }
    /// A combat phase.
    pub fn combat(self) -> bool {
        matches!(self, Phase::RussianCombat | Phase::CentralCombat | Phase::OberOstCombat)
    }
    /// A new-units phase.
    pub fn new_units(self) -> bool {
        matches!(self, Phase::RussianNewUnits | Phase::CentralNewUnits)
    }
    /// A strategic movement phase (11).
    pub fn strategic(self) -> bool {
        matches!(self, Phase::RussianStrategic | Phase::CentralStrategic)
    }
}

/// A declared battle waiting for its die (13.20).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub attacker: Side,
    pub target: HexId,
    pub attackers: Vec<String>,
    pub defenders: Vec<String>,
    pub attack: u32,
    pub defence: u32,
    /// CRT column (0 = the worst), or `None` for an automatic result (13.10).
    pub column: Option<usize>,
    /// The summed DRM.
    pub drm: i32,
    /// How odds and DRM were reached, for the record.
    pub summary: String,
    /// The defending lone cavalry chose to stand (13.27) in its own entry, so the roll is
    /// that entry's, settled by the attacker's next one.
    #[serde(default)]
    pub stood: bool,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The map: shared, never changed in play.
    #[serde(with = "shared")]
    pub board: Arc<Board>,
    /// The charts: shared, never changed in play.
    #[serde(with = "shared")]
    pub charts: Arc<Charts>,
    /// The data version of the scenario (`wef-representative-1`).
    pub data_version: String,
    /// Seat names by side.
    pub seats: BTreeMap<Side, String>,
    pub turn: u8,
    pub last_turn: u8,
    pub phase: Phase,
    pub units: Vec<Unit>,
    /// Control of towns, cities and victory hexes, as last set by entry (3.8). A hex held
    /// by cavalry in an enemy country is controlled only while the cavalry stays
    /// (`control::controller`).
    pub control: BTreeMap<HexId, Side>,
    /// Hexes whose fortress was destroyed: no longer fortress hexes (13.15).
    #[serde(default)]
    pub fallen_forts: BTreeSet<HexId>,
    /// MP spent this phase by each unit that moved (12.2, 12.7).
    #[serde(default)]
    pub spent: BTreeMap<String, u32>,
    /// The group moving now: only its units may move on (12.2, 12.6); every other unit that
    /// has moved is done for the phase.
    #[serde(default)]
    pub moving: BTreeSet<String>,
    /// Units that attacked this combat phase (13.4).
    #[serde(default)]
    pub attacked: BTreeSet<String>,
    /// Hexes whose units were attacked this combat phase (13.4).
    #[serde(default)]
    pub targets: BTreeSet<HexId>,
    /// A-H attacks made at 2:1 or better in the T1 CP combat phase (3.6).
    #[serde(default)]
    pub ah_good_attacks: u8,
    /// The battle waiting for its roll.
    #[serde(default)]
    pub battle: Option<Battle>,
    /// The game's result.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// Replacement pools and the game turn's new-units and strategic-movement record (10, 11).
    #[serde(default)]
    pub logistics: super::logistics::Logistics,
    /// A battle between declaration and its end waiting for a player's decision: the lone
    /// cavalry's retreat before combat (13.27), or each side's losses, retreat and advance
    /// after the roll (13.22-13.26) (`retreat`).
    #[serde(default)]
    pub decision: Option<super::retreat::Decision>,
    /// Units that retreated this combat phase into a hex holding other friendly units: they
    /// add nothing to its defence and die if it takes losses (13.22).
    #[serde(default)]
    pub retreated: BTreeSet<String>,
    /// The headquarters markers: STAVKA (14.2) and OberOst (14.3) (`command`).
    #[serde(default)]
    pub hq: super::command::Hq,
    /// The CP's hidden stacks (13.7, `fog.rs`).
    #[serde(default, skip_serializing_if = "super::fog::Fog::is_unused")]
    pub fog: super::fog::Fog,
    /// Random events and what they left in force (7).
    #[serde(default)]
    pub events: super::events::Events,
    /// The Russian ammunition shortage of this game turn (9.9–9.13).
    #[serde(default)]
    pub ammo: super::ammunition::Ammo,
    /// The Brusilov offensive (15).
    #[serde(default)]
    pub brusilov: super::brusilov::Brusilov,
    /// Free Setup, Plan 19, Schlieffen East and the deployment (3.9, 16, 17; `variants.rs`).
    #[serde(default, skip_serializing_if = "super::variants::Variant::is_historical")]
    pub variant: super::variants::Variant,
}

impl State {
    /// The side a seat plays.
    pub fn side_of(&self, seat: &str) -> Option<Side> {
        self.seats.iter().find(|(_, s)| *s == seat).map(|(side, _)| *side)
    }
    /// The seat of a side.
    pub fn seat(&self, side: Side) -> &str {
        self.seats.get(&side).map(String::as_str).unwrap_or("")
    }
    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }
    /// A unit by id, to change.
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }
    /// Units on hex `h`.
    pub fn units_at(&self, h: HexId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.at(h))
    }
    /// The side occupying `h`, if any.
    pub fn occupant(&self, h: HexId) -> Option<Side> {
        self.units_at(h).next().map(Unit::side)
    }
    /// The turn-track box of the current turn.
    pub fn turn_box(&self) -> Option<&super::scenario::TurnBox> {
        self.charts.turns.iter().find(|t| t.turn == self.turn)
    }
    /// A Jan/Feb turn (12.8, 12.11).
    pub fn winter(&self) -> bool {
        self.turn_box().is_some_and(|t| t.winter)
    }
    /// An intact fortress unit stands on `h` (13.15).
    pub fn fortress_at(&self, h: HexId) -> bool {
        !self.fallen_forts.contains(&h) && self.units_at(h).any(|u| u.kind == Kind::Fortress)
    }
    /// `"Turn 3 (Oct 1914)"`.
    pub fn turn_text(&self) -> String {
        match self.turn_box() {
            Some(b) => format!("Turn {} ({})", self.turn, b.date),
            None => format!("Turn {}", self.turn),
        }
    }
}

/// Serialise an `Arc<T>` as `T`.
mod shared {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, T: Serialize>(b: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        b.as_ref().serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Arc<T>, D::Error> {
        T::deserialize(d).map(Arc::new)
    }
}
