//! The game state: units, turn and phase, hex control, the VP ledger and a battle in progress.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::tables::{CrtResult, Odds};
use crate::engine::Outcome;
use crate::geo::hex::HexId;

/// The two sides (GE-3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideId {
    Allied,
    German,
}

impl SideId {
    /// The other side.
    pub fn other(self) -> SideId {
        match self {
            SideId::Allied => SideId::German,
            SideId::German => SideId::Allied,
        }
    }
    /// `"allied"` / `"german"`.
    pub fn name(self) -> &'static str {
        match self {
            SideId::Allied => "allied",
            SideId::German => "german",
        }
    }
    /// `"Allied"` / `"German"`.
    pub fn title(self) -> &'static str {
        match self {
            SideId::Allied => "Allied",
            SideId::German => "German",
        }
    }
    /// From `"allied"` / `"german"`.
    pub fn parse(s: &str) -> Option<SideId> {
        match s.to_ascii_lowercase().as_str() {
            "allied" | "allies" => Some(SideId::Allied),
            "german" | "germany" => Some(SideId::German),
            _ => None,
        }
    }
}

/// Unit type (GE-2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Infantry,
    Cavalry,
    /// A fortress counter: works and garrison, 1 SL (GE-14.2).
    Fortress,
    /// A German siege gun (GE-14.7): no combat factors and no SL of its own (it carries a
    /// nominal 1 SL that never counts, absorbs or scores); its calibre is in `State::siege`.
    SiegeGun,
}

/// Unit size (GE-2.8). Bracketed groups count as their size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Corps,
    Division,
    Brigade,
    None,
}

impl Size {
    /// The printed symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Size::Corps => "XXX",
            Size::Division => "XX",
            Size::Brigade => "X",
            Size::None => "",
        }
    }
}

/// Combat and movement values at one SL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Values {
    pub attack: u32,
    pub defence: u32,
    pub movement: u32,
    /// Cavalry: (attack, defence) against a cavalry-only force (GE-13.24).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_cavalry: Option<(u32, u32)>,
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// On the map.
    Hex(HexId),
    /// Waiting to enter from the given turn.
    Reinforcement(u8),
    /// Eliminated (counts for VP).
    Eliminated,
    /// Retreated off the map: out of play, not eliminated (GE-16.1).
    OffMap,
    /// An initial-army unit waiting for its side's secret placement to be opened (GE 3.3).
    Unplaced,
}

/// How far a unit is in the current operational movement phase (GE-12.2, 12.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MoveState {
    #[default]
    NotMoved,
    /// Part of the unit or group now moving.
    Moving,
    /// Finished for this phase.
    Done,
}

/// One unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Order id: `DE-7`.
    pub id: String,
    /// Printed designation: `DE 7 XXX`.
    pub name: String,
    pub side: SideId,
    /// `DE`, `FR`, `GB`, `BE`.
    pub nation: String,
    pub kind: Kind,
    pub size: Size,
    pub max_sl: u8,
    /// Values per SL: `values[sl - 1]`.
    pub values: Vec<Values>,
    /// SL at the start of the scenario (for the VP ledger).
    pub start_sl: u8,
    pub sl: u8,
    pub place: Place,
    // ---- per player turn ----
    /// Out of command (GE-10.2); cleared at the end of the player turn.
    #[serde(default)]
    pub ooc: bool,
    /// Moved (OM) this player turn (GE-13.22).
    #[serde(default)]
    pub moved: bool,
    /// Attacked (MA or PA) this player turn (GE-13.6, 13.22).
    #[serde(default)]
    pub attacked: bool,
    /// Was attacked as a defender in the current combat phase (GE-13.6).
    #[serde(default)]
    pub defended: bool,
    /// Retreated in the current combat phase (GE-13.18).
    #[serde(default)]
    pub retreated: bool,
    /// Received a replacement SL this player turn: no other action (GE-8.7).
    #[serde(default)]
    pub replaced: bool,
    /// Digging a trench this player turn: no move, no attack (GE-9.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entrenching: bool,
    /// SL restored by replacements so far (for the VP ledger).
    #[serde(default)]
    pub gained: u8,
    /// Out of supply at the start of this movement phase (GE-7.5).
    #[serde(default)]
    pub oos_at_start: bool,
    #[serde(default)]
    pub move_state: MoveState,
    /// MP spent this phase.
    #[serde(default)]
    pub mp_spent: u32,
    /// Where a reinforcement may enter (GE 8.2–8.5); `None`: its side's supply edge (Marne).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<super::scenario::Entry>,
    /// Moved by strategic movement this player turn, and how: nothing else this turn (GE-11.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategic: Option<super::strategic::Mode>,
    /// Force-marching this player turn: +1 MP, no march assault (GE-12.10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced_march: bool,
    /// Times the unit was rebuilt after elimination (GE-8.7), so the VP ledger still counts
    /// those eliminations.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rebuilt: u8,
    /// British naval infantry (GE 2.7: the Naval Brigade, the Naval Division): stacks and
    /// attacks with any Allied nationality (6.2, 13.26); see `naval.rs`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub naval: bool,
    /// A placeholder under a hidden counter (GE 13.8; `counters.rs`): the batch of units it
    /// may be. The other fields are the placeholder's, not a real unit's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<u32>,
    /// A dummy counter's record (GE 15; `counters.rs`): it exists only in a counter batch, and
    /// as the real unit `counters::unmasked` puts in its placeholder's place.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dummy: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Unit {
    /// A unit at full strength (`max_sl`), fresh for the player turn.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: &str,
        name: &str,
        side: SideId,
        nation: &str,
        kind: Kind,
        size: Size,
        max_sl: u8,
        values: Vec<Values>,
        place: Place,
    ) -> Unit {
        Unit {
            id: id.to_string(),
            name: name.to_string(),
            side,
            nation: nation.to_string(),
            kind,
            size,
            max_sl,
            values,
            start_sl: max_sl,
            sl: max_sl,
            place,
            ooc: false,
            moved: false,
            attacked: false,
            defended: false,
            retreated: false,
            replaced: false,
            entrenching: false,
            gained: 0,
            oos_at_start: false,
            move_state: MoveState::NotMoved,
            mp_spent: 0,
            entry: None,
            strategic: None,
            forced_march: false,
            rebuilt: 0,
            naval: false,
            hidden: None,
            dummy: false,
        }
    }
    /// The hex, if on the map.
    pub fn hex(&self) -> Option<HexId> {
        match self.place {
            Place::Hex(h) => Some(h),
            _ => None,
        }
    }
    /// Values at the current SL.
    pub fn now(&self) -> Values {
        let i = (self.sl.max(1) as usize - 1).min(self.values.len().saturating_sub(1));
        self.values.get(i).copied().unwrap_or_default()
    }
    /// Movement allowance this phase: halved (rounded down) when OOC (GE-10.2); +1 when
    /// force-marching (GE-12.10).
    pub fn allowance(&self) -> u32 {
        let m = self.now().movement + self.forced_march as u32;
        if self.ooc { m / 2 } else { m }
    }
    /// MP left.
    pub fn mp_left(&self) -> u32 {
        self.allowance().saturating_sub(self.mp_spent)
    }
    /// A corps-size unit for stacking (GE-6.1).
    pub fn is_corps(&self) -> bool {
        self.size == Size::Corps && self.kind != Kind::Fortress
    }
    /// SL that count for stacking (fortresses and siege guns are free, GE-14.2, 6.1).
    pub fn stack_sl(&self) -> u32 {
        if matches!(self.kind, Kind::Fortress | Kind::SiegeGun) { 0 } else { self.sl as u32 }
    }
    /// Mobile: a combat unit with SL of its own (not a fortress, not a siege gun, GE-14.3, 14.7).
    pub fn mobile(&self) -> bool {
        !matches!(self.kind, Kind::Fortress | Kind::SiegeGun)
    }
    /// `DE-7 (DE 7 XXX)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.id, self.name)
    }
}

/// The two phases played in this slice (GE-5.2 E and F).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A and C: replacements, then the command & control roll (from `command_from`).
    Command,
    /// E: operational movement and march assaults.
    Movement,
    /// F: prepared assaults.
    Combat,
}

/// March or prepared assault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleKind {
    March,
    Prepared,
}

impl BattleKind {
    /// `"march assault"` / `"prepared assault"`.
    pub fn name(self) -> &'static str {
        match self {
            BattleKind::March => "march assault",
            BattleKind::Prepared => "prepared assault",
        }
    }
}

/// Whether and how the defender retreats (GE-13.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatNeed {
    None,
    Optional,
    Mandatory,
}

/// Where a battle stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Waiting for the die.
    Roll,
    /// Waiting for the defender's loss allocation and retreat.
    Defender { lp: u32, retreat: RetreatNeed },
    /// Waiting for the attacker's loss allocation and advance.
    Attacker { lp: u32 },
    /// Cavalry alone attacked by a force without cavalry: waiting for the defender to
    /// withdraw before combat or stand (GE-13.25).
    Withdraw,
    /// Waiting for the defender's entry to open the hidden counters in the attacked hex
    /// (GE 13.8: the defenders are seen when the odds are computed). `die` is the CRT roll
    /// already made, kept until then; `None` when no die was rolled because the defenders
    /// may turn out to be cavalry alone (GE 13.25).
    Opening { die: Option<u32> },
}

impl Stage {
    /// Where the battle stands, in players' words (`"the defender allocates 1 loss point and may retreat"`).
    pub fn words(&self) -> String {
        let lp = |n: u32| if n == 1 { "1 loss point".to_string() } else { format!("{n} loss points") };
        match self {
            Stage::Roll => "waiting for the die".into(),
            Stage::Defender { lp: n, retreat } => format!(
                "the defender allocates {}{}",
                lp(*n),
                match retreat {
                    RetreatNeed::None => ", no retreat",
                    RetreatNeed::Optional => " and may retreat",
                    RetreatNeed::Mandatory => " and must retreat",
                }
            ),
            Stage::Attacker { lp: n } => format!("the attacker allocates {} and may advance", lp(*n)),
            Stage::Withdraw => "the defending cavalry may withdraw before combat (GE 13.25)".into(),
            Stage::Opening { die: Some(d) } => format!("the defender opens the attacked counters (GE 13.8); the die was {d}"),
            Stage::Opening { die: None } => "the defender opens the attacked counters (GE 13.8) before the die".into(),
        }
    }
}

/// A battle in progress: everything certain is fixed at declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub kind: BattleKind,
    pub attacker: SideId,
    pub target: HexId,
    pub attackers: Vec<String>,
    pub defenders: Vec<String>,
    /// Units in the hex that retreated there this phase: no defence, die if LP are taken.
    pub stragglers: Vec<String>,
    pub attack: u32,
    pub defence: u32,
    pub odds: Odds,
    pub odds_text: String,
    pub drm: i32,
    pub drm_parts: Vec<String>,
    /// A fortress defends: +2 attacker LP in a PA (GE-14.2).
    pub fortress: bool,
    pub stage: Stage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<CrtResult>,
    /// The defending cavalry withdrew before combat: no result; in a PA the attackers may
    /// attack again (GE-13.25).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
    /// The defender chose to stand in his own entry (GE-13.25), so the roll is that entry's
    /// and the attacker's next entry reveals it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stood: bool,
    /// Siege guns firing at the target's fortress, each with a roll still to make before the
    /// CRT roll (GE-14.9; `siege.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub siege: Vec<String>,
    /// Hidden counters defend the target (GE 13.8): attack, defence, odds and DRM are fixed
    /// only when the defender opens them (`combat::after_opening`); until then they are not
    /// shown.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opening: bool,
    /// Only dummies defended the target (GE 15.2): they are removed and there is no result; a
    /// march-assaulting force moves on, a prepared-assaulting force may advance and, if every
    /// attacker advanced, attack again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dummies: bool,
}

impl Battle {
    /// `"prepared assault on 3230 at 3:1, DRM -1"`.
    pub fn describe(&self) -> String {
        if self.opening {
            let die = match self.stage {
                Stage::Opening { die: Some(d) } => format!("; die {d} kept"),
                _ => String::new(),
            };
            return format!(
                "{} on {}: odds when the defenders {} are shown (GE 13.8){die}",
                self.kind.name(),
                self.target,
                self.defenders.iter().chain(&self.stragglers).cloned().collect::<Vec<_>>().join(", ")
            );
        }
        let odds = match self.odds {
            Odds::Automatic => format!("{} (automatic 2/0)", self.odds_text),
            Odds::Column { .. } => self.odds_text.clone(),
        };
        let siege = if self.siege.is_empty() { String::new() } else { format!("; siege guns {} fire first", self.siege.join(", ")) };
        format!("{} on {} at {}, DRM {:+}{siege}", self.kind.name(), self.target, odds, self.drm)
    }
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The play area: shared, never changed during play, so copies of the state are cheap.
    #[serde(with = "shared")]
    pub board: std::sync::Arc<Board>,
    pub units: Vec<Unit>,
    /// Seat names by side.
    pub seats: BTreeMap<SideId, String>,
    pub turn: u8,
    pub first_turn: u8,
    pub last_turn: u8,
    /// The phasing side.
    pub player: SideId,
    pub phase: Phase,
    /// Permanent control by entry (GE-4.7); occupation overrides it (see `control`).
    pub control: BTreeMap<HexId, SideId>,
    /// Control at the start, for `describe`.
    #[serde(with = "shared")]
    pub initial_control: std::sync::Arc<BTreeMap<HexId, SideId>>,
    /// VP from eliminations (GE-16.4), kept as a ledger.
    pub vp: BTreeMap<SideId, i32>,
    /// Hexes already march-assaulted in this movement phase (GE-13.6 reading).
    #[serde(default)]
    pub ma_targets: Vec<HexId>,
    /// VP for eliminations, from the scenario's schedule (GE-16.4).
    #[serde(default = "marne_eliminations")]
    pub elim_vp: Vec<ElimVp>,
    /// VP awarded for holding a town at the end: (hex, side, points).
    pub town_vp: Vec<(HexId, SideId, i32)>,
    /// Hexes whose control at the end of a German player turn wins for the German (GE-16.4).
    pub german_auto_win: Vec<HexId>,
    /// Row: German supplied units south of it score at the end (GE-16.4).
    pub south_row: u8,
    /// Replacement SL on the track, by nationality (GE-8.6).
    #[serde(default)]
    pub replacements: BTreeMap<String, u32>,
    /// Replacement income (GE-8.6; Marne 16.3).
    #[serde(default)]
    pub replacement_grants: Vec<Grant>,
    /// Belgium violated: no German replacements in France west of the Meuse before T10 (GE-8.7).
    #[serde(default)]
    pub belgium_violated: bool,
    /// First turn with command & control rolls (GE-10.1; Marne: T9).
    #[serde(default = "nine")]
    pub command_from: u8,
    /// The command & control roll in progress (GE-10.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandStage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<Battle>,
    /// A batch of prepared assaults being resolved (`combat::declare_batch`): the attacks
    /// still to make after the current battle; `None` when no batch is under way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<Vec<super::orders::Assault>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The campaign rules' state (GE 3, 4, 7, 17); `None` on the Marne.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<Box<super::campaign::Campaign>>,
    /// Trench markers (GE-9, 14.4).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub trenches: BTreeMap<HexId, super::entrench::Trench>,
    /// This player turn's entrenchment roll (GE-9.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrench: Option<super::entrench::Roll>,
    /// Standing instructions per side, kept until replaced (`standing.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub standing: BTreeMap<SideId, super::standing::Standing>,
    /// Fortified zones still standing (GE-14.3; `fortified.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fortified: BTreeMap<HexId, super::fortified::Zone>,
    /// Siege gun calibres and the modern forts' siege modifiers (GE-14.7, 14.10; `siege.rs`).
    #[serde(default, skip_serializing_if = "super::siege::SiegeData::is_empty")]
    pub siege: super::siege::SiegeData,
    /// The secret setup (GE 3.3, 3.5), when the game has one (`secret.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<Box<super::secret::SecretSetup>>,
    /// The optional Hentsch rule (GE 10.4), in the campaigns and, by agreement, on the
    /// Marne (16.3).
    #[serde(default, skip_serializing_if = "super::hentsch::Hentsch::is_off")]
    pub hentsch: super::hentsch::Hentsch,
    /// Towns whose control changed this player turn, each with its controller at the start
    /// of the player turn (GE 7.3, G.4 item 11: a town is a supply source only if its side
    /// held it then; 11.2: SM starts in a town its side held then); cleared when a player
    /// turn ends. Also the towns held at the start by occupation alone (4.8), noted by
    /// [`State::note_towns_at_start`]. Coastal hexes are kept like towns: the Naval Brigade's
    /// sea moves start there (11.5). See [`State::town_held_at_start`].
    ///
    /// (An older field, `sm_fresh`, held the hexes reinforcements took this player turn for
    /// 11.2; this list covers them. States serialized with it still load: serde ignores the
    /// unknown field.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub towns_changed: Vec<(HexId, Option<SideId>)>,
    /// The same record kept for the whole game turn (both player turns), each town with its
    /// controller at the start of the game turn: GE 7.3 counts a town as a supply source
    /// only if its side held it at the start of the game turn ("all'inizio del turno …
    /// durante quel turno di gioco"); 11.2 keeps the player turn (`towns_changed`). Cleared
    /// when the game turn ends. See [`State::town_held_at_turn_start`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub towns_changed_turn: Vec<(HexId, Option<SideId>)>,
    /// Hidden stacks (GE 13.8, option `hidden_counters`; `counters.rs`), when the game has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters: Option<Box<super::counters::Counters>>,
}

fn nine() -> u8 {
    9
}

/// Where the command & control roll stands (GE-10.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandStage {
    /// A 6: the opponent names this many of the phasing player's stacks.
    Pick { count: u32 },
}

/// Replacement income of one nationality: `per_turn` SL in each of its side's player turns
/// from `from` to `to` (GE-8.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    pub nation: String,
    pub from: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u8>,
    pub per_turn: u32,
}

/// The side of a nationality code.
pub fn nation_side(nation: &str) -> SideId {
    if nation == "DE" { SideId::German } else { SideId::Allied }
}

/// What an elimination award counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Per {
    /// Each corps-size unit eliminated.
    Corps,
    /// Each division-size unit eliminated.
    Division,
    /// Each SL lost.
    Sl,
}

/// One line of the elimination VP schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElimVp {
    pub scorer: SideId,
    /// Nationalities whose losses score (`DE`, `FR`, `GB`).
    pub victims: Vec<String>,
    pub per: Per,
    pub value: i32,
}

/// The Marne schedule (GE-16.4), the default for rule cases.
pub fn marne_eliminations() -> Vec<ElimVp> {
    let e = |scorer, victim: &str, per, value| ElimVp { scorer, victims: vec![victim.to_string()], per, value };
    vec![
        e(SideId::Allied, "DE", Per::Corps, 2),
        e(SideId::German, "GB", Per::Sl, 1),
        e(SideId::German, "FR", Per::Corps, 2),
        e(SideId::German, "FR", Per::Division, 1),
    ]
}

/// The Marne replacement income (GE-16.3), the default for rule cases.
pub fn marne_grants() -> Vec<Grant> {
    ["FR", "DE"].into_iter().map(|n| Grant { nation: n.to_string(), from: 9, to: None, per_turn: 3 }).collect()
}

/// Calendar: T8 = 4–6 Sep, 3 days a turn (digest E.4).
pub fn dates(turn: u8) -> String {
    // Day of year-ish counting from 14 Aug = T1.
    let start = 14 + 3 * (turn as u32).saturating_sub(1);
    let fmt = |d: u32| {
        if d <= 31 {
            format!("{d} Aug")
        } else if d <= 61 {
            format!("{} Sep", d - 31)
        } else if d <= 92 {
            format!("{} Oct", d - 61)
        } else {
            format!("{} Nov", d - 92)
        }
    };
    let a = fmt(start);
    let b = fmt(start + 2);
    let (ad, am) = a.split_once(' ').unwrap_or(("", ""));
    let (_, bm) = b.split_once(' ').unwrap_or(("", ""));
    if am == bm { format!("{ad}–{b}") } else { format!("{a}–{b}") }
}

impl State {
    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }
    /// A unit by id, mutably.
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }
    /// Units in a hex.
    pub fn units_at(&self, h: HexId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.place == Place::Hex(h))
    }
    /// The side occupying a hex, if any.
    pub fn occupant(&self, h: HexId) -> Option<SideId> {
        self.units_at(h).next().map(|u| u.side)
    }
    /// Which side occupies each occupied hex.
    pub fn occupancy(&self) -> BTreeMap<HexId, SideId> {
        self.units.iter().filter_map(|u| u.hex().map(|h| (h, u.side))).collect()
    }
    /// Effective control (GE-4.7, 4.8): the occupying side, else the last side whose
    /// non-cavalry unit entered. Cavalry alone therefore controls only while present.
    pub fn control(&self, h: HexId) -> Option<SideId> {
        self.occupant(h).or_else(|| self.control.get(&h).copied())
    }
    /// Whether `side` held town `h` at the start of the current player turn (GE 7.3, G.4
    /// item 11; 11.2): its recorded controller if control changed since, else control now.
    /// Also for coastal hexes (the Naval Brigade's sea moves, 11.5).
    pub fn town_held_at_start(&self, h: HexId, side: SideId) -> bool {
        match self.towns_changed.iter().find(|(t, _)| *t == h) {
            Some((_, before)) => *before == Some(side),
            None => self.control(h) == Some(side),
        }
    }
    /// Whether `side` held town `h` at the start of the current game turn (GE 7.3: a town
    /// supply source counts during a game turn only if controlled when it began).
    pub fn town_held_at_turn_start(&self, h: HexId, side: SideId) -> bool {
        self.town_held_at_turn_start_occupied(h, side, self.occupant(h))
    }
    /// [`State::town_held_at_turn_start`] given `h`'s [`State::occupant`], for callers that
    /// already know every hex's occupant (a supply trace asks about every town).
    pub fn town_held_at_turn_start_occupied(&self, h: HexId, side: SideId, occupant: Option<SideId>) -> bool {
        match self.towns_changed_turn.iter().find(|(t, _)| *t == h) {
            Some((_, before)) => *before == Some(side),
            None => occupant.or_else(|| self.control.get(&h).copied()) == Some(side),
        }
    }
    /// Record `h`'s controller `before` a change, once per player turn and once per game
    /// turn (the first record is the earliest).
    fn note_town(&mut self, h: HexId, before: Option<SideId>) {
        if !self.towns_changed.iter().any(|(t, _)| *t == h) {
            self.towns_changed.push((h, before));
        }
        if !self.towns_changed_turn.iter().any(|(t, _)| *t == h) {
            self.towns_changed_turn.push((h, before));
        }
    }
    /// At the start of a player turn, note each town held then by occupation alone: occupied
    /// by a side other than the one that last entered it with non-cavalry units (cavalry
    /// control, GE 4.8). Its occupant is its controller at the start (7.3, G.4 item 11), and
    /// nothing else would remember it once the occupant leaves during the turn (retreat,
    /// withdrawal, elimination): the town would then look held by the other side all along.
    pub fn note_towns_at_start(&mut self) {
        for (h, side) in self.occupancy() {
            if self.keeps_start_control(h) && self.control.get(&h) != Some(&side) {
                self.note_town(h, Some(side));
            }
        }
    }
    /// Whether control at the start of the player turn is kept for `h` in `towns_changed`:
    /// towns (supply sources, 7.3; SM ends, 11.2) and coastal hexes (the Naval Brigade's sea
    /// moves, 11.5). Other hexes never ask.
    fn keeps_start_control(&self, h: HexId) -> bool {
        self.board.is_town(h) || self.board.hex(h).is_some_and(|i| i.coastal)
    }
    /// Units enter a hex: non-cavalry entry takes permanent control (GE-4.7, 4.8).
    pub fn entered(&mut self, h: HexId, side: SideId, cavalry_only: bool) {
        // GE 7.3 (G.4 item 11): remember who held a town when the player turn began. The
        // map's record, not `control()`: the entering unit already stands there. Cavalry
        // too: it controls the town while it stays (4.8), and that control is new.
        let before = self.control.get(&h).copied();
        if before != Some(side) && self.keeps_start_control(h) {
            self.note_town(h, before);
        }
        if !cavalry_only {
            self.control.insert(h, side);
        }
        // GE-9.3, 14.4: an empty enemy trench is removed when a unit enters its hex.
        if self.trenches.get(&h).is_some_and(|t| t.side != side) && !self.units_at(h).any(|u| u.side != side) {
            self.trenches.remove(&h);
        }
        // GE-14.3: so is an enemy fortified zone without mobile defenders.
        super::fortified::entered(self, h, side);
    }
    /// The seat of a side.
    pub fn seat(&self, side: SideId) -> String {
        self.seats.get(&side).cloned().unwrap_or_else(|| side.name().to_string())
    }
    /// The side of a seat.
    pub fn side_of(&self, seat: &str) -> Option<SideId> {
        self.seats.iter().find(|(_, s)| s.as_str() == seat).map(|(k, _)| *k).or_else(|| SideId::parse(seat))
    }
    /// Stacking totals of a side in a hex: (SL, corps).
    pub fn stack(&self, h: HexId, side: SideId, except: &[String]) -> (u32, u32) {
        let mut sl = 0;
        let mut corps = 0;
        for u in self.units_at(h).filter(|u| u.side == side && !except.contains(&u.id)) {
            sl += super::counters::stack_sl(self, u);
            corps += u.is_corps() as u32;
        }
        (sl, corps)
    }
    /// Hexes holding the phasing player's mobile units: the stacks the opponent may put out of
    /// command (GE-10.1; a unit alone is a stack).
    pub fn command_stacks(&self) -> Vec<HexId> {
        let mut v: Vec<HexId> = self.units.iter().filter(|u| u.side == self.player && u.mobile()).filter_map(|u| u.hex()).collect();
        v.sort();
        v.dedup();
        v
    }
    /// `"Turn 8 (4–6 Sep)"`.
    pub fn turn_text(&self) -> String {
        format!("Turn {} ({})", self.turn, dates(self.turn))
    }
    /// `"phase E: operational movement"`.
    pub fn phase_text(&self) -> &'static str {
        match self.phase {
            Phase::Command => "phase C: command & control",
            Phase::Movement => "phase E: operational movement",
            Phase::Combat => "phase F: prepared assault",
        }
    }
}

/// Serialise what the copies of a state share (the board, the setup control) as plain data.
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

#[cfg(test)]
mod tests {
    use super::State;
    use crate::engine::{Ruleset, SeatInfo};
    use crate::rules::glorys_end::{GlorysEnd, scenario};

    /// A state serialized while it still had `sm_fresh` (GE 11.2 now reads `towns_changed`)
    /// loads, as JSON (the cache) and as YAML, and the old field is simply dropped.
    #[test]
    fn state_with_old_sm_fresh_field_loads() {
        let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
        let s = GlorysEnd::setup(scenario::MARNE_YAML, None, &seats).expect("setup");
        let mut v = serde_json::to_value(&s).expect("json");
        v.as_object_mut().expect("a state is a map").insert("sm_fresh".into(), serde_json::json!([3133]));
        let back: State = serde_json::from_value(v.clone()).expect("json with sm_fresh loads");
        assert_eq!(back, s);
        // A top-level key appended at column 0 (the YAML form of enums differs from JSON's).
        let yaml = yaml_serde::to_string(&s).expect("yaml") + "sm_fresh: [3133]\n";
        let back: State = yaml_serde::from_str(&yaml).expect("yaml with sm_fresh loads");
        assert_eq!(back, s);
    }
}
