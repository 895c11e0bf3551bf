//! The compact prestate of a rule case (DESIGN §5, `tests/cases/roads-to-leningrad/`): the
//! bundled Soltsy scenario with what a case names.
//!
//! ```yaml
//! state:
//!   turn: 3                        # index on the track (default 1)
//!   weather: rain                  # default dry
//!   units:                         # when given, only these units are on the map
//!     - {id: 10-8pz, hex: "2214", reduced: true, disrupted: true, supply: out}
//!     - {id: I-80ar, hex: "2213", fired: true}   # artillery on its Fired face
//!     - {id: AA269, hex: "3030", activations: 1}   # an Army unit's First Activation marker
//!     - {id: HQ-8pz, hex: "2214", cp_used: true}   # an HQ on its "CPs used" face (RTL-15.32)
//!   bridges:                       # bridge units placed (RTL-16.2); the others stay as set up (off the map)
//!     - {id: Br-G, hex: "2114", toward: "2015"}   # in 2114, bridging its hexside to 2015
//!   leaders:                       # when given (or with `units`), only these leaders are on the map
//!     - {id: vManstein, hex: "2214", cp_used: true}   # RTL-15.2; CPs used (15.32)
//!   active: {formation: 8pz, os: mobile}   # an OS of that formation in progress
//!   active: {formation: 8pz, second: 3mot, os: mobile}   # two formations combined (RTL-7.33d)
//!   strategic: true                # the strategic rolls are due
//!   cup_phase: soviet              # this side fills its cup (the other side is First Player)
//!   draw: german                   # this side's OS, its entry opens with the draw
//!   cups: {german: [8pz/1, 3mot]}  # public markers in the cups
//!   pool: {german: 3mot}           # a public marker in the pool
//!   first: german                  # First Player (default german)
//!   last_passes: {soviet: 2}
//!   control: {"2214": soviet}
//!   defensive_artillery: {soviet: [110-gap]}   # a standing instruction (RTL-12.11)
//!   strongpoints:                  # completed, or under construction by `builder` (RTL-14)
//!     - {hex: "3223", side: soviet}
//!     - {hex: "1817", side: soviet, builder: 835-rr}
//!   no_retreat: {soviet: ["3223"]} # a standing instruction (RTL-9.4)
//!   refused: [5-tr]                # units that tried Combat Refusal earlier this turn (RTL-9.26)
//!   air_flown: [Ju88-1]            # air units in the Flown box (RTL-13.11)
//!   ocmr: {german: 0}              # Offensive CAS Missions Remaining (RTL-13.24b)
//!   cas_formations: [237rd]        # formations that had their one offensive mission (13.24b3)
//!   defensive_air: {soviet: [SB-1]}   # a standing instruction (RTL-13.24a)
//!   vp: 0
//! ```
//! Forced dice are written in game numbering: a d10 shows 1..10; a cup draw a position
//! counted from 1.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::RoadsToLeningrad;
use super::scenario::SOLTSY_YAML;
use super::state::{Active, Marker, Os, Phase, State, Strongpoint, Supply, Weather};
use crate::engine::cases::CaseRuleset;
use crate::engine::{Ruleset, SeatInfo};
use crate::geo::hex::HexId;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseState {
    #[serde(default)]
    turn: Option<u16>,
    #[serde(default)]
    weather: Option<Weather>,
    #[serde(default)]
    units: Option<Vec<CaseUnit>>,
    /// The leaders on the map (RTL-15.2); with `units` and without this, none.
    #[serde(default)]
    leaders: Option<Vec<CaseLeader>>,
    /// Bridge units on the map (RTL-16.2); the others stay as the scenario sets them up.
    #[serde(default)]
    bridges: Vec<CaseBridge>,
    #[serde(default)]
    active: Option<CaseActive>,
    #[serde(default)]
    strategic: bool,
    #[serde(default)]
    cup_phase: Option<String>,
    #[serde(default)]
    draw: Option<String>,
    #[serde(default)]
    cups: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pool: BTreeMap<String, String>,
    #[serde(default)]
    first: Option<String>,
    #[serde(default)]
    last_passes: BTreeMap<String, u8>,
    #[serde(default)]
    control: BTreeMap<HexId, String>,
    #[serde(default)]
    vp: i32,
    #[serde(default)]
    defensive_artillery: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    strongpoints: Vec<Strongpoint>,
    #[serde(default)]
    no_retreat: BTreeMap<String, Vec<HexId>>,
    #[serde(default)]
    refused: Vec<String>,
    /// Air units in the Flown box (RTL-13.11); the others that have arrived are Ready.
    #[serde(default)]
    air_flown: Vec<String>,
    /// Offensive CAS Missions Remaining (RTL-13.24b), per side, instead of the turn's.
    #[serde(default)]
    ocmr: BTreeMap<String, u32>,
    /// Formations that have had their one offensive CAS mission this turn (13.24b3).
    #[serde(default)]
    cas_formations: Vec<String>,
    #[serde(default)]
    defensive_air: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    hex: HexId,
    #[serde(default)]
    reduced: bool,
    #[serde(default)]
    disrupted: bool,
    #[serde(default)]
    supply: Supply,
    #[serde(default)]
    fired: bool,
    #[serde(default)]
    activations: u8,
    #[serde(default)]
    cp_used: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseLeader {
    id: String,
    hex: HexId,
    #[serde(default)]
    cp_used: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseActive {
    formation: String,
    /// A second formation combined with it (RTL-7.33d).
    #[serde(default)]
    second: Option<String>,
    os: Os,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseBridge {
    id: String,
    hex: HexId,
    toward: HexId,
}

/// The seats of a case: one per side, named after it.
pub fn case_seats() -> Vec<SeatInfo> {
    vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "soviet".into(), side: "soviet".into() }]
}

fn public(am: &str) -> Marker {
    Marker { slot: None, am: Some(am.to_string()), open: true }
}

impl CaseRuleset for RoadsToLeningrad {
    fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
        let c: CaseState = yaml_serde::from_value(value.clone()).map_err(|e| format!("case state: {e}"))?;
        let mut s = RoadsToLeningrad::setup(SOLTSY_YAML, None, &case_seats()).map_err(|e| e.to_string())?;
        if let Some(t) = c.turn {
            s.turn = t;
        }
        if let Some(w) = c.weather {
            s.weather = w;
        }
        if c.units.is_some() || c.leaders.is_some() {
            for l in &mut s.leaders {
                l.hex = None;
            }
        }
        for cl in c.leaders.unwrap_or_default() {
            let l = s.leader_mut(&cl.id).ok_or_else(|| format!("case state: no leader {}", cl.id))?;
            l.hex = Some(cl.hex);
            l.cp_used = cl.cp_used;
        }
        if let Some(units) = c.units {
            for u in &mut s.units {
                u.hex = None;
            }
            for cu in units {
                let u = s.unit_mut(&cu.id).ok_or_else(|| format!("case state: no unit {}", cu.id))?;
                u.hex = Some(cu.hex);
                u.reduced = cu.reduced;
                u.disrupted = cu.disrupted;
                u.supply = cu.supply;
                u.fired = cu.fired;
                u.activations = cu.activations;
                u.cp_used = cu.cp_used;
            }
        }
        for cb in c.bridges {
            let b = s.bridges.iter_mut().find(|b| b.id == cb.id).ok_or_else(|| format!("case state: no bridge unit {}", cb.id))?;
            b.hex = Some(cb.hex);
            b.toward = Some(cb.toward);
        }
        s.first = c.first.unwrap_or_else(|| "german".into());
        for (side, list) in c.cups {
            s.cups.insert(side, list.iter().map(|a| public(a)).collect());
        }
        for (side, am) in c.pool {
            s.pool.insert(side, public(&am));
        }
        s.last_passes = c.last_passes;
        s.control.extend(c.control);
        s.vp = c.vp;
        s.defensive_fire = c.defensive_artillery;
        s.strongpoints = c.strongpoints;
        s.no_retreat = c.no_retreat;
        s.refused = c.refused;
        // The turn named decides which air units have arrived (5.24); a case at the start of
        // a turn leaves that to its strategic roll.
        if !c.strategic {
            let _ = super::air::readiness(&mut s);
        }
        for id in c.air_flown {
            match s.air.get_mut(&id) {
                Some(b) => *b = super::state::AirBox::Flown,
                None => return Err(format!("case state: no air unit {id} in play")),
            }
        }
        s.ocmr.extend(c.ocmr);
        s.cas_formations = c.cas_formations;
        s.defensive_air = c.defensive_air;
        if c.strategic {
            s.phase = Phase::Strategic;
        } else if let Some(side) = c.cup_phase {
            s.first = s.scenario.other(&side);
            let n = super::turn::available(&s, &s.first.clone());
            s.cups.insert(s.first.clone(), n.iter().map(|a| public(a)).collect());
            s.cups.insert(side.clone(), vec![]);
            s.phase = Phase::Cup { side };
        } else if let Some(side) = c.draw {
            s.choose_first = false;
            s.phase = Phase::Os { side };
        } else if let Some(a) = c.active {
            let side = s.scenario.formation(&a.formation).ok_or_else(|| format!("case state: no formation {}", a.formation))?.side.clone();
            let mut army = super::turn::army_for(&s, &side, &a.formation);
            if let Some(f2) = &a.second {
                if s.scenario.formation(f2).is_none_or(|f| f.side != side) {
                    return Err(format!("case state: no formation {f2} of the {side} side"));
                }
                for id in super::turn::army_for(&s, &side, f2) {
                    if !army.contains(&id) {
                        army.push(id);
                    }
                }
            }
            s.choose_first = false;
            s.phase = Phase::Os { side: side.clone() };
            s.active = Some(Active { side, formation: a.formation, os: a.os, army, constructed: false, tried: false, second: a.second });
        }
        RoadsToLeningrad::check_invariants(&s).map_err(|e| format!("case state: {e}"))?;
        Ok(s)
    }
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        dice.iter().map(|d| d.saturating_sub(1)).collect()
    }
}

/// The state of a rule case written as YAML (the `state:` of a case file), with every unit of
/// the scenario's roster first rewritten by `change`: for unit tests of rules whose units
/// the representative roster lacks (cavalry, heavy equipment, other movement boxes).
#[cfg(test)]
pub(crate) fn state_with_roster(text: &str, change: impl Fn(&mut super::scenario::UnitData)) -> State {
    let v: yaml_serde::Value = yaml_serde::from_str(text).expect("yaml");
    let mut s = RoadsToLeningrad::case_state(&v).expect("case state");
    s.scenario.raw.units.iter_mut().for_each(change);
    s
}
