//! The game state: units on the table with their status markers and damage, the turn and
//! manoeuvre counters, the tokens, and what the rules wait for.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::data::{self, Card};
use super::scenario::{self, Scenario};
use crate::engine::Outcome;
use crate::geo::table::{Footprint, Heading, Point};

/// One squad-level unit (SLU).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub side: String,
    pub platoon: String,
    pub card: String,
    pub army: String,
    pub at: Point,
    pub heading: Heading,
    /// Crew or squad figures alive.
    pub figures: u32,
    /// Leaders alive among them: the card's highest-ranked ones, as leaders die from the
    /// lowest rank up (AMB-30).
    pub leaders: u32,
    /// ST-1: moved this (or, until it acts again, the last) turn.
    pub moving: bool,
    /// SW-MOV-1: that move was a vehicle reversing, so an immobilising hit while Moving runs
    /// it on backwards (DAM-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reversing: bool,
    /// ST-1: fired (the Firing marker).
    pub fired: bool,
    /// MAN-3: acted in this turn's manoeuvre phase.
    pub acted: bool,
    pub panic: bool,
    /// 0 none, 1 short, 2 cautious, 3 track or wheel lost, 4 immobilised (E.28).
    pub mobility: u8,
    pub gun_jammed: bool,
    /// Armament line indices destroyed (DAM-2/3).
    pub lost_weapons: Vec<usize>,
    /// A hull weapon result with no weapon left, marked for escalation (DAM-2).
    pub weapon_mark: bool,
    pub destroyed: bool,
    pub burning: bool,
    pub exploded: bool,
    /// Dispersed (PAN-4) or wiped out: off the table.
    pub eliminated: bool,
    /// EMB-3: the vehicle this squad rides in. While aboard it has no place of its own on
    /// the table (its `at` is stale and read by nothing); it reappears where it dismounts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
    /// EMB-1/2, a transport: figures it took aboard this turn (at most 15; it stays still).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub boarded: u32,
    /// MOR-1: the NoFire marker of a failed SF test (TEST-SF, HW-7): no fire until the end of
    /// this turn's manoeuvre phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_fire: bool,
    /// EMB-4, a transport: passengers got off it this turn, so it moves at most Short.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unloaded: bool,
    /// SW-BLDM: the building (and floor) this squad is in; its base lies wholly within the
    /// building's outline. Outside, a base never lies partly on a building (all in or all out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside: Option<Inside>,
}

/// Where an occupant of a building is (SW-BLDM-2/3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inside {
    /// The building's area id.
    pub building: String,
    /// 0 = the ground floor.
    pub floor: u8,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Unit {
    pub fn card(&self) -> &'static Card {
        data::data().card(&self.army, &self.card).expect("checked at setup")
    }
    pub fn footprint(&self) -> Footprint {
        scenario::footprint(self.card(), self.at, self.heading)
    }
    /// On the table and able to act: not destroyed, not eliminated, with crew.
    pub fn alive(&self) -> bool {
        !self.destroyed && !self.eliminated && self.figures > 0
    }
    /// A model that blocks sight (LOS-5, WRECK-1): a vehicle or gun, wrecks included.
    /// Standing on the table as a base or model: not eliminated and not riding in a
    /// vehicle (EMB-3). Only such units are seen, fired on, obstruct or are drawn.
    pub fn on_table(&self) -> bool {
        !self.eliminated && self.aboard.is_none()
    }
    pub fn is_model(&self) -> bool {
        !self.eliminated && self.card().kind != "infantry"
    }
    pub fn is_vehicle(&self) -> bool {
        self.card().kind == "vehicle"
    }
    pub fn is_infantry(&self) -> bool {
        self.card().kind == "infantry"
    }
    pub fn armoured(&self) -> bool {
        self.card().armoured
    }
    /// Its status as enemy spotting and fire read it (ST-1, BLDM-3): figures inside a
    /// building always count as not moving there, whatever they did inside.
    pub fn seen_moving(&self) -> bool {
        self.moving && self.inside.is_none()
    }
    /// CV of the best leader alive (AMB-2). Leaders die from the lowest rank up (AMB-30),
    /// so the `leaders` alive are the card's highest-ranked ones, whatever the card's order.
    pub fn cv(&self) -> u32 {
        self.leader_cvs().first().copied().unwrap_or(0)
    }
    /// CVs of the leaders alive, highest first: the card's `leaders` best ranks (AMB-30).
    pub fn leader_cvs(&self) -> Vec<u32> {
        let Some(crew) = &self.card().crew else { return vec![] };
        let mut cvs: Vec<u32> = crew.leaders.iter().map(|r| rank_cv(r)).collect();
        cvs.sort_unstable_by(|a, b| b.cmp(a));
        cvs.truncate(self.leaders as usize);
        cvs
    }
    pub fn crew_size(&self) -> u32 {
        self.card().crew.as_ref().map(|c| c.count).unwrap_or(1)
    }
    /// Counts as destroyed for victory: destroyed, eliminated, or abandoned (no crew, AMB-26).
    pub fn lost(&self) -> bool {
        self.destroyed || self.eliminated || self.figures == 0
    }
}

/// CV by rank (E.4).
pub fn rank_cv(rank: &str) -> u32 {
    match rank {
        "sergeant" | "sergeant_major" => 1,
        "lieutenant" | "second_lt" => 2,
        "captain" => 3,
        "major" => 4,
        _ => 0,
    }
}

/// What the rules wait for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// SEQ-1: `side` declares a platoon (or plays a token).
    Declare {
        side: String,
    },
    /// SEQ-1: `side` opposes the declared platoon with one of its own (or a token).
    Oppose {
        side: String,
        declared: Option<String>,
    },
    /// SEQ-2/4: the SLUs act one at a time, the head of `queue` next; with `free` (a token,
    /// TOK-3/SEQ-6) their owner picks the order.
    Act {
        queue: Vec<String>,
        free: bool,
    },
    /// Phase 2 (IFP): `side` may request indirect fire from its batteries.
    Request {
        side: String,
    },
    /// Phase 4 (IF-1): `side` opens the targets of its batteries due to fire, and they fire.
    Barrage {
        side: String,
    },
    Over,
}

/// A random action waiting for the dice of the entry that made it (DESIGN §2.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "roll", rename_all = "snake_case")]
pub enum Pending {
    /// SEQ-2: the IT rolls of both platoons, the first declarer's SLUs first, each platoon in
    /// unit-id order (G.1).
    Initiative { units: Vec<String>, declarer: String },
    /// An SLU's fire, every shot planned (G.1 consumption order).
    Fire(super::fire::Plan),
    /// PAN-2: the recovery tests of a panicked unit.
    Recovery { unit: String },
    /// IFP-2: the IFR test of an observer ordering an off-table battery's fire.
    Ifr { plan: String },
    /// IF-1/IMP-1: every shot of `side`'s batteries due to fire this phase 4.
    Barrage { side: String },
    /// ASL-0/1/3: an assault's fire, its CT, the move into contact and the first close combat.
    Assault(super::assault::Plan),
    /// ASL-4: the CT of an assaulted squad still in contact, and the new round if it passes.
    Melee { defender: String },
    /// OPP-3/4: the opportunity fire declared on a move, shot by shot in path order.
    Opportunity(super::opportunity::Volley),
    /// DUR-1: the end roll after turn 8, a D6 per side (seat order), which fixes the last turn.
    EndRoll,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub scenario: Scenario,
    /// side → seat.
    pub seats: BTreeMap<String, String>,
    pub turn: u32,
    /// 1-based manoeuvre of the turn.
    pub manoeuvre: u32,
    /// The side that declares the current manoeuvre (MAN-2, alternating, AMB-3).
    pub declarer: String,
    pub tokens: BTreeMap<String, u32>,
    /// Platoons that have manoeuvred this turn.
    pub manoeuvred: Vec<String>,
    pub units: Vec<Unit>,
    pub phase: Phase,
    pub pending: Option<Pending>,
    pub outcome: Option<Outcome>,
    /// Indirect-fire plans (IFP-5), made and not yet fired.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plans: Vec<super::indirect::IfPlan>,
    /// The last turn as the end roll after turn 8 fixed it (DUR-1); until then the
    /// scenario's `turns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_turn: Option<u32>,
    /// Sides already asked in this turn's phase 2.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asked: Vec<String>,
    /// Phase-4 losses held until the end of the phase (IF-1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<super::indirect::Loss>,
    /// SW-IFP-1: the units that have made their one communication test (DFR or IFR) this
    /// turn, in the order they made it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comm_tests: Vec<String>,
    /// Buildings an E.29 `R` result has turned into ruins (BLDF-5): no longer fired on as
    /// buildings, and a shell landing on one bursts in the open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruins: Vec<String>,
    /// Melees standing after an assault (ASL-4): the assaulted squad's only action is its CT.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub melees: Vec<super::assault::Melee>,
    /// The commitments of the entry being applied (`Ruleset::hidden` → its orders): id and
    /// value when this replay knows it. Always empty between entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fresh: Vec<(String, Option<String>)>,
    /// A simple Move announced and open to opportunity fire (OPP-3): the mover's enemy
    /// fires or passes next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<super::opportunity::Window>,
}

impl State {
    /// EMB-5: the squads riding in `vehicle` with figures left, in unit-id order.
    pub fn passengers(&self, vehicle: &str) -> Vec<&Unit> {
        self.units.iter().filter(|u| u.aboard.as_deref() == Some(vehicle) && !u.eliminated && u.figures > 0).collect()
    }
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }
    pub fn seat_of(&self, side: &str) -> String {
        self.seats.get(side).cloned().unwrap_or_default()
    }
    pub fn side_of(&self, seat: &str) -> Option<&str> {
        self.seats.iter().find(|(_, s)| s.as_str() == seat).map(|(side, _)| side.as_str())
    }
    pub fn ad(&self, side: &str) -> u32 {
        self.scenario.side(side).map(|s| s.ad).unwrap_or(0)
    }
    /// Platoons of `side` with a unit that may still act this turn.
    pub fn open_platoons(&self, side: &str) -> Vec<String> {
        self.scenario
            .platoons
            .iter()
            .filter(|p| p.side == side && !self.manoeuvred.contains(&p.id))
            .filter(|p| self.units.iter().any(|u| u.platoon == p.id && u.alive() && !u.acted))
            .map(|p| p.id.clone())
            .collect()
    }
    /// Platoons of `side` with a unit on the table (TOK-2 counts).
    pub fn live_platoons(&self, side: &str) -> usize {
        self.scenario.platoons.iter().filter(|p| p.side == side && self.units.iter().any(|u| u.platoon == p.id && u.alive())).count()
    }
    /// The turn after which the battle ends: the scenario's length, or what the end roll
    /// after turn 8 made of it (DUR-1).
    pub fn final_turn(&self) -> u32 {
        self.last_turn.unwrap_or(self.scenario.turns)
    }
    pub fn phase_text(&self) -> String {
        // While the end roll is owed the phase still names the turn's last phase, which is
        // over: say what the game waits for instead.
        if self.pending == Some(Pending::EndRoll) {
            return format!("turn {}/{} is over: the end roll (SW-DUR-1) is due", self.turn, self.final_turn());
        }
        if let Some(w) = &self.window {
            return format!(
                "turn {}/{}, manoeuvre {}: {} may fire on {}'s move or pass (SW-OPP-3)",
                self.turn,
                self.final_turn(),
                self.manoeuvre,
                w.side,
                w.mover
            );
        }
        let head = format!("turn {}/{}, manoeuvre {}", self.turn, self.final_turn(), self.manoeuvre);
        match &self.phase {
            Phase::Declare { side } => format!("{head}: {side} declares a platoon or plays a token (SW-SEQ-1)"),
            Phase::Oppose { side, declared } => format!(
                "{head}: {side} opposes {} with a platoon or a token (SW-SEQ-1)",
                declared.clone().unwrap_or_else(|| "a token".into())
            ),
            Phase::Act { queue, free } => {
                format!(
                    "{head}: activations{} ({})",
                    if *free { " in any order (token, SW-TOK-3)" } else { " in IT order" },
                    queue.join(", ")
                )
            }
            Phase::Request { side } => format!("turn {}, phase 2: {side} may request indirect fire (SW-IFP)", self.turn),
            Phase::Barrage { side } => format!("turn {}, phase 4: {side} opens its fire plans and its batteries fire (SW-IF-1)", self.turn),
            Phase::Over => "the battle is over".into(),
        }
    }
}
