//! The compact prestate of a rule case (`tests/cases/steel-wheels/`): the bundled
//! Crossroads battle with what a case names.
//!
//! ```yaml
//! state:
//!   units:                       # when given, only these units are on the table
//!     - {id: us-t1, at: [500, 500], heading: 0, figures: 5, moving: true, fired: false, panic: false, mobility: 0}
//!   act: [us-t1, de-t1]          # phase Act with this queue (IT order); `free: true` for a token
//!   free: false
//!   declare: us                  # or phase Declare for that side
//!   tokens: {us: 1}
//!   turn: 2
//!   turns: 10                    # the battle's planned length (Crossroads: 6)
//!   last_turn: 9                 # as an end roll after turn 8 fixed it (DUR-1)
//!   manoeuvred: [us-tanks]       # platoons done this turn; units may be `acted: true`, `destroyed: true`
//!   plans:                       # fire plans already made (IFP-5), committed earlier
//!     - {battery: us-b1, planned: 1, markers: [[..], [..], [..], [..]], real: 2, ordered: true}
//!   barrage: us                  # phase 4 (IF-1) of `turn` for that side
//!   # a unit may give `aboard: us-ht` (EMB-3: its `at` is then ignored); a transport
//!   # `boarded: 3` (men taken aboard this turn) and `unloaded: true` (EMB-4); a squad
//!   # `inside: {building: farmhouse, floor: 1}` (SW-BLDM, its base wholly inside); a
//!   # vehicle `moving: true, reversing: true` (its last move backed, MOV-1, DAM-5)
//!   melees:                      # standing after an assault (ASL-4); units may give `leaders: 0`
//!     - {attacker: us-r1, defender: de-g1, engaged: 2}
//!   comm_tests: [us-t2]          # made their DFR or IFR test this turn (SW-IFP-1)
//! ```
//! With neither `act`, `declare` nor `barrage`, phase 2 is decided afresh for the units as
//! the case places them (a side is asked only if its observer can order fire).
//! Dice are written as the faces shown (1..n) and read 0-based by the rules.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::SteelWheels;
use super::indirect::{self, IfPlan};
use super::scenario::{CROSSROADS_YAML, Xy, point};
use super::state::{Phase, State};
use super::turn;
use crate::engine::cases::CaseRuleset;
use crate::engine::{Ruleset, SeatInfo};
use crate::geo::table::Heading;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseState {
    #[serde(default)]
    units: Option<Vec<CaseUnit>>,
    #[serde(default)]
    act: Option<Vec<String>>,
    #[serde(default)]
    free: bool,
    #[serde(default)]
    declare: Option<String>,
    #[serde(default)]
    tokens: BTreeMap<String, u32>,
    #[serde(default)]
    turn: Option<u32>,
    /// The battle's planned length, for the Crossroads battle's 6 (SW-DUR).
    #[serde(default)]
    turns: Option<u32>,
    /// The last turn as an end roll already fixed it (DUR-1).
    #[serde(default)]
    last_turn: Option<u32>,
    /// Platoons that have manoeuvred this turn.
    #[serde(default)]
    manoeuvred: Vec<String>,
    #[serde(default)]
    plans: Vec<CasePlan>,
    #[serde(default)]
    barrage: Option<String>,
    /// Melees standing after an assault (ASL-4).
    #[serde(default)]
    melees: Vec<CaseMelee>,
    /// Units that have made their communication test (DFR or IFR) this turn (SW-IFP-1).
    #[serde(default)]
    comm_tests: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseMelee {
    attacker: String,
    defender: String,
    engaged: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasePlan {
    battery: String,
    planned: u32,
    markers: Vec<Xy>,
    /// The real marker, as the owner's own replay knows it (omit for a public replay).
    #[serde(default)]
    real: Option<u8>,
    #[serde(default = "yes")]
    ordered: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    /// Another card of the unit's army for it (a model the battle does not field); its
    /// crew is then the card's.
    #[serde(default)]
    card: Option<String>,
    at: Xy,
    #[serde(default)]
    heading: u16,
    #[serde(default)]
    figures: Option<u32>,
    /// Leaders alive (at most `figures`); default: the card's, as many as figures allow.
    #[serde(default)]
    leaders: Option<u32>,
    #[serde(default)]
    moving: bool,
    /// SW-MOV-1: its last move was a vehicle reversing (with `moving`).
    #[serde(default)]
    reversing: bool,
    #[serde(default)]
    fired: bool,
    #[serde(default)]
    panic: bool,
    #[serde(default)]
    mobility: u8,
    #[serde(default)]
    acted: bool,
    #[serde(default)]
    destroyed: bool,
    /// A wreck on fire (E.28 "burning"): it hides what lies beyond and over it (LOS-6).
    #[serde(default)]
    burning: bool,
    /// An exploded wreck (E.28 "exploded", destroyed too): it hides like a fire (WRECK-2).
    #[serde(default)]
    exploded: bool,
    /// MOR-1: marked NoFire (a failed SF test this turn).
    #[serde(default)]
    no_fire: bool,
    /// EMB-3: riding in this vehicle (its `at` is then ignored).
    #[serde(default)]
    aboard: Option<String>,
    /// EMB-1: men a transport took aboard this turn.
    #[serde(default)]
    boarded: u32,
    /// EMB-4: a transport whose passengers got off this turn.
    #[serde(default)]
    unloaded: bool,
    /// SW-BLDM: in this building, on this floor (its `at` then lies wholly inside).
    #[serde(default)]
    inside: Option<CaseInside>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseInside {
    building: String,
    #[serde(default)]
    floor: u8,
}

/// The seats of a case: one per side, named after it.
pub fn case_seats() -> Vec<SeatInfo> {
    vec![SeatInfo { seat: "us".into(), side: "us".into() }, SeatInfo { seat: "de".into(), side: "de".into() }]
}

impl CaseRuleset for SteelWheels {
    fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
        let c: CaseState = yaml_serde::from_value(value.clone()).map_err(|e| format!("case state: {e}"))?;
        let mut s = SteelWheels::setup(CROSSROADS_YAML, None, &case_seats()).map_err(|e| e.to_string())?;
        if let Some(t) = c.turn {
            s.turn = t;
        }
        if let Some(t) = c.turns {
            s.scenario.turns = t;
        }
        s.last_turn = c.last_turn;
        if let Some(units) = c.units {
            let named: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
            if let Some(bad) = named.iter().find(|id| s.unit(id).is_none()) {
                return Err(format!("case state: no unit {bad}"));
            }
            // Units not named are not in the battle at all (they count for nothing).
            s.units.retain(|u| named.contains(&u.id));
            for cu in units {
                let u = s.unit_mut(&cu.id).ok_or_else(|| format!("case state: no unit {}", cu.id))?;
                if let Some(card) = &cu.card {
                    let c =
                        super::data::data().card(&u.army, card).ok_or_else(|| format!("case state: no card {card} in {}'s army", cu.id))?;
                    u.card = card.clone();
                    (u.figures, u.leaders) = c.crew.as_ref().map(|c| (c.count, c.leaders.len() as u32)).unwrap_or((1, 0));
                }
                u.at = point(cu.at).ok_or("case state: a bad point")?;
                u.heading = Heading::try_from(i64::from(cu.heading)).map_err(|e| format!("case state: {e}"))?;
                if let Some(f) = cu.figures {
                    u.figures = f;
                    u.leaders = u.leaders.min(f);
                }
                if let Some(l) = cu.leaders {
                    u.leaders = l.min(u.leaders);
                }
                u.moving = cu.moving;
                u.reversing = cu.reversing;
                u.fired = cu.fired;
                u.panic = cu.panic;
                u.mobility = cu.mobility;
                u.acted = cu.acted;
                u.destroyed = cu.destroyed;
                u.burning = cu.burning;
                u.exploded = cu.exploded;
                u.destroyed = u.destroyed || cu.exploded;
                u.aboard = cu.aboard;
                u.no_fire = cu.no_fire;
                u.boarded = cu.boarded;
                u.unloaded = cu.unloaded;
                u.inside = cu.inside.map(|i| super::state::Inside { building: i.building, floor: i.floor });
            }
        }
        s.manoeuvred.extend(c.manoeuvred);
        s.comm_tests = c.comm_tests;
        for m in c.melees {
            s.melees.push(super::assault::Melee { attacker: m.attacker, defender: m.defender, engaged: m.engaged });
        }
        if !c.tokens.is_empty() {
            s.tokens.extend(c.tokens);
        }
        for cp in c.plans {
            let b = s.scenario.batteries.iter().find(|b| b.id == cp.battery).cloned().ok_or("case state: no such battery")?;
            let obs = s.unit(&b.observer).ok_or("case state: the observer is not in the case")?;
            let markers = cp.markers.iter().map(|&m| point(m)).collect::<Option<Vec<_>>>().ok_or("case state: a bad marker")?;
            s.plans.push(IfPlan {
                id: indirect::plan_id(cp.planned, &b.id),
                battery: b.id.clone(),
                side: b.side.clone(),
                observer: b.observer.clone(),
                planned: cp.planned,
                fires: cp.planned + 1,
                hq_marker: obs.at,
                markers,
                real: cp.real,
                opened: false,
                ordered: Some(cp.ordered),
            });
        }
        if let Some(q) = c.act {
            s.phase = Phase::Act { queue: q, free: c.free };
        } else if let Some(side) = c.declare {
            s.declarer = side.clone();
            s.phase = Phase::Declare { side };
        } else if let Some(side) = c.barrage {
            s.manoeuvred = s.scenario.platoons.iter().map(|p| p.id.clone()).collect();
            s.phase = Phase::Barrage { side };
        } else {
            s.asked.clear();
            turn::phase2(&mut s);
        }
        SteelWheels::check_invariants(&s).map_err(|e| format!("case state: {e}"))?;
        Ok(s)
    }
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        dice.iter().map(|d| d.saturating_sub(1)).collect()
    }
}
