//! The game state: where every army and dummy is, cities, VP and SP, chit cups and hands,
//! the stage of the sequence of play (TFWW 4.2) and a combat in progress (6.1).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::scenario::{Data, Faction, GA_FRONTS};
use crate::engine::Outcome;

/// Where an army is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Where {
    /// On the Turn track, to be deployed on this turn (reinforcement or replacement).
    Track(u8),
    /// On a front.
    Front(u8),
    /// Eliminated, waiting for a replacement (4.2/4).
    Eliminated,
    /// Not in this game (rule cases only).
    Out,
    /// On the map face down (a piece of `State::pieces`): where it stands is hidden.
    Hidden,
}

/// One dummy piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dummy {
    pub faction: Faction,
    /// `None` while off the map (waiting for the next deployment, 4.2/1) or face down.
    pub front: Option<u8>,
    /// On the map face down (a piece of `State::pieces`), not off the map.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
}

/// Optional rules agreed before play (TFWW 9.0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// 9.1 Schlieffen Plan.
    pub schlieffen: bool,
    /// 9.3 historical setup.
    pub historical_setup: bool,
    /// Play every chit hand in the open (no private draws, no face-down chits); the rule
    /// cases use it for chit rules that do not depend on hiding.
    pub open_chits: bool,
    /// Pieces the rules turn face down (4.2/1, 6.0) may stay face up: nobody is made to turn
    /// them down. The rule cases use it to play face-up pieces across those points; a real
    /// game leaves it off, and its tools turn the pieces down (`pieces::due_down`).
    pub open_pieces: bool,
    /// 9.2 variable deployment and round order, from turn 2 (`order.rs`).
    pub variable_order: bool,
    /// F.8: what a cheat found by `verify`'s omniscient pass means (`forfeit` by default).
    pub violation_policy: ViolationPolicy,
}

/// F.8 violation policy, fixed in the game config before play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationPolicy {
    /// The violating faction's alliance forfeits: its opponents win.
    #[default]
    Forfeit,
    /// The cheat is reported; the result on the board stands.
    Report,
}

/// Where the sequence of play stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// 4.2/1: the faction at this index of the deployment order deploys.
    Deploy(usize),
    /// 4.2/2: the active faction of `State::round` acts.
    Round,
    /// 6.1: a combat awaits a decision or its roll (`State::combat`).
    Combat,
    /// 6.2.1: these seats must return a previously held chit (the chit drawn is kept).
    Discard(Vec<(String, usize)>),
    /// 4.2/3 step 4: surrender rolls await their dice.
    Surrender,
    /// 8.1: Germany may offer the treaty.
    PeaceOffer,
    /// 8.1: EA answers (4 players).
    PeaceAnswer,
    /// 4.2/4: the faction at this index of the deployment order chooses replacements.
    Replace(usize),
    /// The game is over.
    Over,
    /// 4.2/3: every piece is turned face up before the victory check; the seats that hid
    /// face-down pieces open them.
    Reveal,
    /// 9.2: the order rolls of the new turn await their dice.
    OrderRoll,
    /// 9.2: the factions pick their deployment and round slots, highest roll first.
    OrderPick,
    /// 4.2/3 with 6.4: at the victory check these factions, in order, choose the city they
    /// capture on an unopposed front where more than one is in reach (Fronts 10 and 11).
    Capture(Vec<(Faction, u8)>),
}

/// Steps of one combat (6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatStep {
    /// 6.1/1: the defender places a chit or none.
    DefenderChit,
    /// 6.1/1-2: the attacker places a chit or none and names its lead.
    AttackerChitLead,
    /// 6.1/2: the defender names its lead; then the dice.
    DefenderLead,
    /// 6.0: face-down pieces of the defending alliance on the front are being turned up;
    /// the seats that hid them open them, then the combat is engaged.
    Reveal,
    /// 6.1/4: the dice are due.
    Roll,
    /// 6.2 (open chits): the side first in `Combat::draws_due` rolled S and says whether it
    /// draws, now that it has seen the die.
    Draw,
    /// 6.2 (open chits): that side draws; the die picking the chit is due.
    DrawRoll,
}

impl CombatStep {
    /// The step in players' words.
    pub fn words(self) -> &'static str {
        match self {
            CombatStep::DefenderChit => "next: the defender places a chit or none (6.1/1)",
            CombatStep::AttackerChitLead => "next: the attacker places a chit or none and names its lead (6.1/1-2)",
            CombatStep::DefenderLead => "next: the defender names its lead (6.1/2)",
            CombatStep::Reveal => "next: the face-down pieces are turned up (6.0, 5.1)",
            CombatStep::Roll => "next: the dice (6.1/4)",
            CombatStep::Draw => "next: the side whose die showed S says whether it draws a chit (6.2)",
            CombatStep::DrawRoll => "next: the die that picks the chit drawn (6.2)",
        }
    }
}

/// A combat in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub front: u8,
    pub attacker: Faction,
    /// The defending faction that places the chit and names the lead (AMB-19).
    pub defender: Faction,
    /// Participating armies (indices into the roster).
    pub attackers: Vec<usize>,
    pub defenders: Vec<usize>,
    pub step: CombatStep,
    /// The attacker has placed its chit (or none).
    pub attacker_placed: bool,
    pub attacker_chit: Option<usize>,
    pub defender_chit: Option<usize>,
    pub attacker_lead: Option<usize>,
    pub defender_lead: Option<usize>,
    /// 6.2 (open chits): the sides (`true`: the attacker) whose die showed S and that have
    /// yet to say whether they draw, attacker first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draws_due: Vec<bool>,
    /// 6.2 (open chits): the chits drawn after this combat's S, by seat (6.2.1 applies when
    /// the combat ends).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawn: Vec<(String, usize)>,
    /// 5.1 (3-4 players): face-down pieces the attacker named that its partner hid (German
    /// armies under German-Allies control): the partner turns them up before the combat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partner_pieces: Vec<String>,
    /// What those pieces turned out to be, as they are opened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partner_opened: Vec<(String, Option<usize>)>,
    /// The attacker's standing capture preference (cities, best first; F.5 C1).
    pub capture: Vec<String>,
    /// F.8: the attacker's (`.0`) or defender's (`.1`) chit, opened face up, broke a rule of
    /// its use (role or lead): it counts as 0; the violation is in the record.
    #[serde(default, skip_serializing_if = "is_unset")]
    pub void_chit: (bool, bool),
}

fn is_unset(v: &(bool, bool)) -> bool {
    !v.0 && !v.1
}

impl Combat {
    /// F.8: whether the attacker's (`true`) or defender's chit is void (counts as 0).
    pub fn chit_void(&self, attacker: bool) -> bool {
        if attacker { self.void_chit.0 } else { self.void_chit.1 }
    }
    /// A combat just declared (6.0): nothing placed or named yet, both sides may draw.
    pub fn declared(
        front: u8,
        attacker: Faction,
        defender: Faction,
        attackers: Vec<usize>,
        defenders: Vec<usize>,
        step: CombatStep,
        capture: &[String],
    ) -> Combat {
        Combat {
            front,
            attacker,
            defender,
            attackers,
            defenders,
            step,
            attacker_placed: false,
            attacker_chit: None,
            defender_chit: None,
            attacker_lead: None,
            defender_lead: None,
            draws_due: Vec::new(),
            drawn: Vec::new(),
            partner_pieces: Vec::new(),
            partner_opened: Vec::new(),
            capture: capture.to_vec(),
            void_chit: (false, false),
        }
    }
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The scenario data (constant during a game; not serialised with each state).
    #[serde(skip)]
    pub data: Arc<Data>,
    /// Which seat plays each faction.
    pub seats: BTreeMap<Faction, String>,
    /// Number of distinct seats (2, 3 or 4).
    pub players: usize,
    pub options: Options,
    pub turn: u8,
    /// 1..=16 during the rounds.
    pub round: u8,
    pub stage: Stage,
    /// By roster index.
    pub armies: Vec<Where>,
    /// German pieces under German-Allies control (5.1), by roster index.
    pub ga_control: BTreeSet<usize>,
    pub dummies: Vec<Dummy>,
    /// German dummies under GA control, by dummy index.
    pub ga_dummies: BTreeSet<usize>,
    /// By city index: a marker is on the city (captured by its `by` faction).
    pub captured: Vec<bool>,
    pub vp: BTreeMap<Faction, u32>,
    pub sp: BTreeMap<Faction, u32>,
    /// (faction, front) already charged an SP this turn (6.5.2).
    pub sp_charged: BTreeSet<(Faction, u8)>,
    /// Chit hands by seat (AMB-12: the limit is per player).
    pub hands: BTreeMap<String, Vec<usize>>,
    /// Cups by alliance.
    pub cups: BTreeMap<String, Vec<usize>>,
    /// Mandatory chits played (out of the game, 6.2.2).
    pub removed_chits: Vec<usize>,
    pub combat: Option<Combat>,
    pub brest_litovsk: bool,
    pub outcome: Option<Outcome>,
    /// Hidden chits: draws, face-down placements, returns, the end-of-game reveal.
    #[serde(default)]
    pub chits: super::chits::ChitBook,
    /// Face-down pieces on the map (DESIGN §2.6, digest H-1): see `pieces.rs`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<super::pieces::Piece>,
    /// Number of the next piece commitment id (`piece-<n>`), public.
    #[serde(default)]
    pub next_piece: u32,
    /// Piece commitments made by the entry being applied, by id, with their identity when
    /// this replay knows it; each must be used by the entry's orders.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub fresh: BTreeMap<String, Option<super::pieces::Ident>>,
    /// Seats still to send their `reveal` in a reveal step (6.0 combat, 4.2/3), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealing: Vec<String>,
    /// 9.2: this turn's rolled order and chosen slots (`None`: the printed orders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<super::order::PlayOrder>,
    /// Face-up pieces the rules have turned face down (4.2/1, 6.0) that their controller has
    /// not committed yet (`pieces::Up`); public.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub down_due: std::collections::BTreeSet<super::pieces::Up>,
}

impl State {
    /// The seat that plays `f`.
    pub fn seat_of(&self, f: Faction) -> &str {
        self.seats.get(&f).map(String::as_str).unwrap_or("")
    }
    /// The factions a seat plays.
    pub fn factions_of(&self, seat: &str) -> Vec<Faction> {
        self.seats.iter().filter(|(_, s)| s.as_str() == seat).map(|(f, _)| *f).collect()
    }
    /// The faction whose round it is.
    pub fn active(&self) -> Faction {
        let order = self.round_order();
        order[usize::from(self.round.max(1) - 1) % order.len()]
    }
    /// This turn's deployment (and replacement) order: the slots chosen under 9.2 once every
    /// faction has picked, else the printed order (4.2/1).
    /// (Borrowed from the scenario unless 9.2 chose one: `active` asks on every round.)
    pub fn deployment_order(&self) -> Cow<'_, [Faction]> {
        self.order.as_ref().and_then(|o| o.chosen(&o.deploy)).map_or(Cow::Borrowed(&self.data.deployment_order[..]), Cow::Owned)
    }
    /// This turn's round order: chosen under 9.2, else printed (4.2/2); it repeats every cycle.
    pub fn round_order(&self) -> Cow<'_, [Faction]> {
        self.order.as_ref().and_then(|o| o.chosen(&o.rounds)).map_or(Cow::Borrowed(&self.data.round_order[..]), Cow::Owned)
    }
    /// Who acts for an army now (5.1: German pieces on 5-6, 9-11 at round start act for GA).
    pub fn controller(&self, army: usize) -> Faction {
        if self.ga_control.contains(&army) { Faction::GermanAllies } else { self.data.armies[army].faction }
    }
    /// Who acts for a dummy now.
    pub fn dummy_controller(&self, d: usize) -> Faction {
        if self.ga_dummies.contains(&d) { Faction::GermanAllies } else { self.dummies[d].faction }
    }
    /// Armies on a front.
    pub fn armies_on(&self, front: u8) -> Vec<usize> {
        (0..self.armies.len()).filter(|&i| self.armies[i] == Where::Front(front)).collect()
    }
    /// Dummies on a front.
    pub fn dummies_on(&self, front: u8) -> Vec<usize> {
        (0..self.dummies.len()).filter(|&i| self.dummies[i].front == Some(front)).collect()
    }
    /// Who holds a city now.
    pub fn holder(&self, city: usize) -> Faction {
        let c = &self.data.cities[city];
        if self.captured[city] { c.by } else { c.owner }
    }
    /// Army id for messages.
    pub fn name(&self, army: usize) -> &str {
        &self.data.armies[army].id
    }
    /// Chit id for messages.
    pub fn chit_name(&self, chit: usize) -> &str {
        &self.data.chits[chit].id
    }
    /// Whether an army may be on (deploy to, move into) a front now: its list (2.1), Italy
    /// from turn 4 for BR, FR, DE (5.3), Front 11 for MEF and OR only while EA holds
    /// Monastir (5.4).
    pub fn may_enter(&self, army: usize, front: u8) -> bool {
        let a = &self.data.armies[army];
        if !self.data.listed(army, front) {
            return false;
        }
        if (front == 5 || front == 6) && ["BR", "FR", "DE"].contains(&a.nat.as_str()) && self.turn < 4 {
            return false;
        }
        if front == 11 && (a.id == "BR-MEF" || a.id == "FR-OR") && !self.ea_holds_monastir() {
            return false;
        }
        true
    }
    /// 5.4: EA controls Monastir.
    pub fn ea_holds_monastir(&self) -> bool {
        self.data.city("Monastir").is_none_or(|c| self.holder(c) == Faction::EasternAllies)
    }
    /// Whether a dummy of `f` may be on a front: where some army of `f` may operate (4.2/1, 5.0).
    pub fn dummy_may_enter(&self, f: Faction, front: u8) -> bool {
        (0..self.data.armies.len()).any(|i| self.data.armies[i].faction == f && self.may_enter(i, front))
    }
    /// 5.1: control of German pieces, evaluated at the start of every round.
    pub fn update_control(&mut self) {
        let ga = |w: Option<u8>| w.is_some_and(|f| GA_FRONTS.contains(&f));
        self.ga_control = (0..self.armies.len())
            .filter(|&i| {
                self.data.armies[i].faction == Faction::Germany && ga(if let Where::Front(f) = self.armies[i] { Some(f) } else { None })
            })
            .collect();
        self.ga_dummies =
            (0..self.dummies.len()).filter(|&i| self.dummies[i].faction == Faction::Germany && ga(self.dummies[i].front)).collect();
        super::pieces::update_control(self);
    }
    /// Real armies controlled by `f` on a front.
    pub fn real_of(&self, f: Faction, front: u8) -> Vec<usize> {
        self.armies_on(front).into_iter().filter(|&i| self.controller(i) == f).collect()
    }
    /// Real armies of an alliance on a front.
    pub fn alliance_real(&self, alliance: &str, front: u8) -> Vec<usize> {
        self.armies_on(front).into_iter().filter(|&i| self.data.armies[i].faction.alliance() == alliance).collect()
    }
    /// The alliance cup of a faction.
    pub fn cup_of(&self, f: Faction) -> &str {
        f.alliance()
    }
    /// Apply a VP change with the floor of 0 (8.0).
    pub fn add_vp(&mut self, f: Faction, delta: i32) {
        let v = self.vp.entry(f).or_insert(0);
        *v = if delta < 0 { v.saturating_sub(delta.unsigned_abs()) } else { *v + delta.unsigned_abs() };
    }
    /// Whether a chit may go with this lead army (6.2: the army's nation uses the chit). The
    /// named EA extras (ITB, MEF, OR) use no chit of their nation: the chits of those nations
    /// belong to the Western Allies' set (reading R-1, after the 6.2.1 example).
    pub fn chit_suits(&self, chit: usize, army: usize) -> bool {
        let a = &self.data.armies[army];
        !a.named && self.data.chits[chit].nations.contains(&a.nat)
    }
    /// The value shown by a die face index (S = 0).
    pub fn face(&self, index: u32) -> u32 {
        self.data.die_faces.get(index as usize).copied().unwrap_or(0)
    }
}

/// A die face as printed: `S` for 0.
pub fn show_face(face: u32) -> String {
    if face == 0 { "S".into() } else { face.to_string() }
}

/// A roll of the special die for the resolution record (result 0 = S).
pub fn die_event(purpose: String, face: u32) -> crate::engine::Event {
    let text = format!("{purpose}: rolled {}", show_face(face));
    crate::engine::Event { text, rule: None, roll: Some(crate::engine::Roll { purpose, die: "TFWW d6 (S,1-5)".into(), result: face }) }
}
