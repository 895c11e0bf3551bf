//! The game state: the checked scenario, the units, the turn with its weather and
//! initiative, the cups and activation pools, the active formation and the combats
//! waiting for their dice, VP and control.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::crt::Table;
use super::scenario::{Face, Scenario, UnitData};
use crate::engine::Outcome;
use crate::geo::hex::HexId;

/// Weather (RTL-5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Weather {
    Dry,
    Cloudy,
    Rain,
}

/// Supply status (RTL-6.12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Supply {
    #[default]
    In,
    Emergency,
    Out,
}

/// The three operations sequences (RTL-7.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Os {
    Mobile,
    Assault,
    Pass,
}

/// Where an air unit is on the Air Display (RTL-13.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirBox {
    Ready,
    Flown,
}

/// A unit in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub side: String,
    pub formation: String,
    /// `None` once eliminated.
    pub hex: Option<HexId>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reduced: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disrupted: bool,
    #[serde(default)]
    pub supply: Supply,
    /// Army-unit activations this turn (RTL-7.42/7.43).
    #[serde(default)]
    pub activations: u8,
    /// Artillery on its Fired face (RTL-3.62, 12.19).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fired: bool,
    /// An HQ on its "CPs used" face until the Reorganization Phase (RTL-15.32, 15.34b).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cp_used: bool,
}

/// A leader in play (RTL-15.2). Kept apart from the units: it has no strength, stacking
/// value or ZOC, is never a step loss, never Disrupted or OoS, and a hex holding only
/// leaders holds no unit to attack or to stop a move (15.22, 15.23, 3.22, 3.31, 9.11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    pub id: String,
    pub side: String,
    /// `None` only when its side has no unit left to join (15.22).
    pub hex: Option<HexId>,
    /// On its "CPs used" face until the Reorganization Phase (RTL-15.32, 15.33d, 15.34b),
    /// or flipped by a displacement (15.22).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cp_used: bool,
}

/// A bridge unit (RTL-16.2) as it stands: in `hex` spanning the hexside toward `toward`
/// (16.21), or off the map (both `None`, 16.23). The scenario's set-up entry is the same
/// record, so the state starts with a copy of the scenario's list.
pub type Bridge = super::scenario::BridgeData;

/// An activation marker in a cup or pool: public (the First Player's, named) or one of the
/// Second Player's committed slots, whose AM is known once opened (DESIGN §2.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// The commitment id of a hidden slot (`cup-15AM-3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    /// The AM id, when public or known to the replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub am: Option<String>,
    /// Opened in the log (always true for a public marker).
    pub open: bool,
}

impl Marker {
    /// How the public names it.
    pub fn public_name(&self) -> String {
        match (&self.slot, self.open, &self.am) {
            (_, true, Some(a)) => a.clone(),
            (Some(s), _, _) => format!("hidden slot {s}"),
            _ => "?".into(),
        }
    }
}

/// A declared attack with its standing instructions (RTL-9.1, 10; digest G.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub target: HexId,
    pub units: Vec<String>,
    pub lead: String,
    pub table: Table,
    pub advance: bool,
    /// The attacker's artillery named to support it (RTL-10.42a, 12.11).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artillery: Vec<String>,
    /// The lead unit of its coordination check (RTL-10.42a); default the first named
    /// artillery unit not adjacent to the defending hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery_lead: Option<String>,
    /// The attacker's air units committed to its CAS (RTL-10.41a, 13.21: at most two).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub air: Vec<String>,
    /// The lead air unit of its CAS coordination check (RTL-10.41b); default the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air_lead: Option<String>,
    /// The defending hex passed its No Retreat check in the Enemy Reaction Phase (RTL-9.42b):
    /// the marker lives only while the batch is resolved, so it is never in a saved state.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_retreat: bool,
}

/// A strongpoint marker on the map (RTL-14): completed, or under construction while its
/// builder stays put (14.25).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strongpoint {
    pub hex: HexId,
    /// The side that built it. Its effects serve that side only (reading of RTL-14.1 and
    /// the TEC's "enemy strongpoint" row): to the other side it is an enemy strongpoint.
    pub side: String,
    /// The unit building it while under construction; `None` once completed (14.25c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builder: Option<String>,
}

/// An overrun waiting for its dice (RTL-8.67): the stack stands next to the defending
/// hex, its MP already paid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overrun {
    pub target: HexId,
    /// The hex the stack overruns from.
    pub from: HexId,
    pub units: Vec<String>,
    pub lead: String,
    /// Half MPs each unit has spent, the overrun's cost included.
    pub spent: BTreeMap<String, u32>,
    /// The German type-A air unit supporting it (RTL-8.66, 13.22).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air: Option<String>,
}

/// The stack of a successful overrun, which may go on moving (RTL-8.67h–i).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub units: Vec<String>,
    pub hex: HexId,
    /// Half MPs each unit has spent.
    pub spent: BTreeMap<String, u32>,
    /// The hex it entered is in another enemy ZOC: it overruns the unit exerting it or
    /// stops (RTL-8.67i).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub must_overrun: bool,
}

/// The formation(s) acting now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Active {
    pub side: String,
    pub formation: String,
    pub os: Os,
    /// Army units activated with it (RTL-7.44, 7.46).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub army: Vec<String>,
    /// Its Construction Phase is over (RTL-14.25): an Assault sequence split by the Army
    /// activation rolls does not build twice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub constructed: bool,
    /// It has tried to activate Army units outside command range (RTL-7.45): once, at the
    /// start of its Movement Phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tried: bool,
    /// The second formation of a combination that succeeded (RTL-7.33d): it acts with
    /// `formation` under the same sequence (7.21).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<String>,
}

impl Active {
    /// Whether `formation` is one of the active formations (one, or two combined, RTL-7.33).
    pub fn has(&self, formation: &str) -> bool {
        self.formation == formation || self.second.as_deref() == Some(formation)
    }
    /// The active formations, the face-up one first.
    pub fn formations(&self) -> Vec<String> {
        std::iter::once(self.formation.clone()).chain(self.second.clone()).collect()
    }
    /// The active formations in words.
    pub fn names(&self) -> String {
        self.formations().join(" + ")
    }
}

/// A combination of two AMs (RTL-7.33): declared by the mover's entry, whose dice roll it
/// (settled by the other side's next entry); on a success with the second AM still face
/// down, the mover's next entry opens it and the second formation joins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combine {
    /// The face-up AM and its Combination Value (7.33b, c).
    pub am: String,
    pub value: u8,
    /// The leader adding its CPs to the roll (RTL-15.33d, 7.33c), already flipped, and
    /// those CPs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<(String, u32)>,
    /// The roll succeeded; the pooled AM is to be opened by the mover's next entry.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_due: bool,
}

/// The Enemy Reaction Phase of a declared batch (RTL-9.2, 9.3; reading in
/// docs/roads-to-leningrad/rules.md): while `due`, the defender's entry naming his Combat
/// Refusal and Reaction Movement attempts (or none) is awaited; once it is made, the attempts
/// wait with the combats for the dice that entry owes, settled by the attacker's next entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reaction {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub due: bool,
    /// Defending hexes whose defenders try Combat Refusal, in the order written (RTL-9.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refuse: Vec<HexId>,
    /// Reaction moves, unit by unit in the order written (RTL-9.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub react: Vec<super::orders::Move>,
}

/// Where the turn stands (RTL-4.21).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A1, A5: the roller's entry opens with the weather and initiative rolls.
    Strategic,
    /// A5: the Second Player chooses, secretly, the AMs for his cup (RTL-7.14).
    Cup { side: String },
    /// B: `side`'s operations sequence; its entry opens with the cup draw (a leading roll)
    /// unless the first OS of the scenario (RTL-7.15) or an empty cup.
    Os { side: String },
    /// The game is over.
    Over,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    /// Side id → seat.
    pub seats: BTreeMap<String, String>,
    /// 1-based index on the turn track.
    pub turn: u16,
    pub phase: Phase,
    pub weather: Weather,
    /// The First Player this turn (initiative holder).
    pub first: String,
    /// Pass sequences made this turn and last turn, per side (RTL-7.13).
    #[serde(default)]
    pub passes: BTreeMap<String, u8>,
    #[serde(default)]
    pub last_passes: BTreeMap<String, u8>,
    /// Each side's cup, in canonical order (public AMs sorted, slots by id).
    #[serde(default)]
    pub cups: BTreeMap<String, Vec<Marker>>,
    /// Each side's Activation Pool: one slot (RTL-7.22).
    #[serde(default)]
    pub pool: BTreeMap<String, Marker>,
    /// The marker just drawn for this OS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn: Option<Marker>,
    /// The first OS of the scenario: the First Player picks his AM (RTL-7.15).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub choose_first: bool,
    /// Markers played this turn (named).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<String>,
    /// Units that moved in this OS (RTL-8.13: once per Movement Phase).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<Active>,
    /// Declared attacks waiting for their dice (RTL-10; DESIGN §2.5 batch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacks: Vec<Attack>,
    /// The Enemy Reaction Phase of the declared attacks, when the defender has a choice in it
    /// (RTL-9.2, 9.3); `None` when he has none, and the combats' dice are then the
    /// declaring entry's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Reaction>,
    /// Units that tried Combat Refusal this turn: they may not Reaction-move again this turn
    /// (RTL-9.26, 9.32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
    /// Army units whose activation checks wait for their dice (RTL-7.45).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub army_attempts: Vec<String>,
    /// An overrun waiting for its dice (RTL-8.67).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrun: Option<Overrun>,
    /// A combination of AMs waiting for its roll or for its second AM's opening (RTL-7.33).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combine: Option<Combine>,
    /// The stack of the last successful overrun of this Movement Phase (RTL-8.67i).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Group>,
    pub units: Vec<Unit>,
    /// The leaders (RTL-15.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaders: Vec<Leader>,
    /// The bridge units (RTL-16.2): each on the map spanning a hexside, or off it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bridges: Vec<Bridge>,
    /// The German VP total from steps and actions (S1.31); locations count at the checks.
    pub vp: i32,
    /// Each side's standing instruction for defensive artillery (RTL-12.11, digest G.4):
    /// the artillery units that support the defence of any hex they are eligible for.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defensive_fire: BTreeMap<String, Vec<String>>,
    /// Strongpoints on the map, completed or under construction (RTL-14).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strongpoints: Vec<Strongpoint>,
    /// Each side's standing No Retreat instruction (RTL-9.4, digest G.4): the hexes of its
    /// strongpoints where it tries No Retreat whenever they are attacked.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub no_retreat: BTreeMap<String, Vec<HexId>>,
    /// Command points named for checks not rolled yet (RTL-15.33); the HQs are already
    /// flipped (15.32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cp_spends: Vec<super::command::Spend>,
    /// The Air Display (RTL-13.11): the air units that have arrived, Ready or Flown.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub air: BTreeMap<String, AirBox>,
    /// Offensive CAS Missions Remaining this turn, per side (RTL-13.24b1, S3.28).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ocmr: BTreeMap<String, u32>,
    /// Formations that have had their one offensive CAS mission this turn (RTL-13.24b3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cas_formations: Vec<String>,
    /// Each side's standing instruction for defensive CAS (RTL-13.24a; reading): the air
    /// units, in order, that fly for any defending hex of its that they may reach.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defensive_air: BTreeMap<String, Vec<String>>,
    /// Who last controlled each VP location (S1.22).
    pub control: BTreeMap<HexId, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
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
    /// A leader by id (RTL-15.2).
    pub fn leader(&self, id: &str) -> Option<&Leader> {
        self.leaders.iter().find(|l| l.id == id)
    }
    /// A leader by id, to change.
    pub fn leader_mut(&mut self, id: &str) -> Option<&mut Leader> {
        self.leaders.iter_mut().find(|l| l.id == id)
    }
    /// A unit's printed data.
    pub fn data(&self, id: &str) -> Option<&UnitData> {
        self.scenario.unit(id)
    }
    /// The face a unit shows now.
    pub fn face(&self, u: &Unit) -> Face {
        match self.data(&u.id) {
            Some(d) if u.reduced => d.back.unwrap_or(d.front),
            Some(d) => d.front,
            None => Face { attack: 0, defense: 1, ma: 0, er: 1, stacking: 0 },
        }
    }
    /// Steps left (RTL-3.6).
    pub fn steps(&self, u: &Unit) -> u32 {
        match self.data(&u.id) {
            Some(d) if d.back.is_some() && !u.reduced => 2,
            _ => 1,
        }
    }
    /// Current ER: Disrupted −2, OoS −1, never below 1 (RTL-3.44).
    pub fn er(&self, u: &Unit) -> u32 {
        let mut er = self.face(u).er;
        if u.disrupted {
            er = er.saturating_sub(2);
        }
        if u.supply == Supply::Out {
            er = er.saturating_sub(1);
        }
        er.max(1)
    }
    /// Units of any side in a hex.
    pub fn units_at(&self, h: HexId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.hex == Some(h))
    }
    /// Whether `side` has a unit in `h`.
    /// Water on a hexside, with whether it is bridged: by a printed bridge (RTL-8.36b) or by
    /// a bridge unit spanning it (16.21, either side's: a bridge serves whoever crosses).
    pub fn water(&self, a: HexId, b: HexId) -> Option<(super::scenario::Water, bool)> {
        let (w, printed) = self.scenario.water(a, b)?;
        let unit = self
            .bridges
            .iter()
            .any(|x| matches!((x.hex, x.toward), (Some(h), Some(n)) if super::scenario::pair(h, n) == super::scenario::pair(a, b)));
        Some((w, printed || (unit && w != super::scenario::Water::Lake)))
    }
    pub fn occupied_by(&self, h: HexId, side: &str) -> bool {
        self.units_at(h).any(|u| u.side == side)
    }
    /// The strongpoint marker in a hex, completed or not (RTL-14.22: one a hex).
    pub fn strongpoint(&self, h: HexId) -> Option<&Strongpoint> {
        self.strongpoints.iter().find(|p| p.hex == h)
    }
    /// Whether `h` holds a completed strongpoint of `side` (only a completed one has
    /// effects: RTL-6.21c, 8.64c, 10.61f5).
    pub fn completed_sp(&self, h: HexId, side: &str) -> bool {
        self.strongpoint(h).is_some_and(|p| p.side == side && p.builder.is_none())
    }
    /// The name of the current turn.
    pub fn turn_name(&self) -> String {
        self.scenario.turn_name(self.turn)
    }
    /// The phase in words.
    pub fn phase_text(&self) -> String {
        let p = match &self.phase {
            Phase::Strategic => "strategic segment: weather and initiative".to_string(),
            Phase::Cup { side } => format!("initiative phase: the {side} player fills his cup"),
            Phase::Os { side } => match &self.active {
                Some(a) => format!("operations: {side} {:?} sequence of {}", a.os, a.names()),
                None => format!("operations: the {side} player's sequence"),
            },
            Phase::Over => "the game is over".into(),
        };
        format!("Turn {} ({} of {}), {:?}, {p}", self.turn_name(), self.turn, self.scenario.raw.turns.len(), self.weather)
    }
}
