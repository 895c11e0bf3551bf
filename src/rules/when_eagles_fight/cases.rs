//! The compact prestate of a rule case (DESIGN §5, `tests/cases/when-eagles-fight/`): the
//! bundled Historical scenario's map, roster and charts, with the turn, the phase and the
//! units a case names.
//!
//! ```yaml
//! state:
//!   turn: 3                      # default 1
//!   phase: central_combat        # default: where the scenario starts (3.4)
//!   units:                       # when given, only these units are in play
//!     - {id: DE-1, hex: "2616"}  # sl: 1 for a reduced 2-SL unit
//!     - {id: DE-11, turn: 3}     # on the turn track
//!     - {id: AH-1, when: "B+1"}  # waiting for a conditional entry (10.5)
//!   control: {"2419": central}   # control changed before the case
//!   fallen_forts: ["2617"]
//!   pools: {RU: 3}               # replacement SL on hand (10.8)
//!   # a unit eliminated before the case: {id: RU-4, eliminated: true}
//!   hq: {stavka: "2417", stavka_turn: 2}   # markers already placed (WEF 14)
//!   brusilov: {declared: 15}     # the offensive declared before the case (WEF 15.1)
//!   scenario: free-setup         # another bundled scenario (3.9, 16, 17); default historical
//!   # in a deployment, a unit still to place: {id: RU-3, deploy: true}
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use super::WhenEaglesFight;
use super::scenario::HISTORICAL_YAML;
use super::state::{Phase, Place, Side, State};
use crate::engine::cases::CaseRuleset;
use crate::engine::{Ruleset, SeatInfo};
use crate::geo::hex::HexId;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseState {
    /// A bundled scenario of this ruleset by its short name (`free-setup`).
    #[serde(default)]
    scenario: Option<String>,
    #[serde(default)]
    turn: Option<u8>,
    #[serde(default)]
    phase: Option<Phase>,
    #[serde(default)]
    units: Option<Vec<CaseUnit>>,
    #[serde(default)]
    control: BTreeMap<HexId, Side>,
    #[serde(default)]
    fallen_forts: Vec<HexId>,
    /// Replacement SL on hand by pool (`DE`, `AH`, `RU`).
    #[serde(default)]
    pools: BTreeMap<super::state::Nat, u32>,
    /// STAVKA and OberOst as placed before the case (`{stavka: "2417", stavka_turn: 2}`).
    #[serde(default)]
    hq: Option<super::command::Hq>,
    /// The last turn, when the No Verdun marker brought it forward (7.3).
    #[serde(default)]
    last_turn: Option<u8>,
    /// What random events left in force (7.2), as the state holds it.
    #[serde(default)]
    events: Option<super::events::Events>,
    /// Units already short of ammunition this turn (9.10).
    #[serde(default)]
    short: Vec<String>,
    /// The Brusilov offensive as declared before the case (`{declared: 15}`, 15.1).
    #[serde(default)]
    brusilov: Option<super::brusilov::Brusilov>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    #[serde(default)]
    hex: Option<HexId>,
    #[serde(default)]
    turn: Option<u8>,
    #[serde(default)]
    sl: Option<u8>,
    /// Eliminated before the case (for rebuilds).
    #[serde(default)]
    eliminated: bool,
    /// Waiting for a conditional entry (`B+1`, `REG`; 10.3-10.5).
    #[serde(default)]
    when: Option<String>,
    /// Still to be placed in the Free Setup deployment (3.9).
    #[serde(default)]
    deploy: bool,
}

/// The seats of a case: one per side, named after it.
pub fn case_seats() -> Vec<SeatInfo> {
    vec![SeatInfo { seat: "central".into(), side: "central".into() }, SeatInfo { seat: "russian".into(), side: "russian".into() }]
}

impl CaseRuleset for WhenEaglesFight {
    fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
        let c: CaseState = yaml_serde::from_value(value.clone()).map_err(|e| format!("case state: {e}"))?;
        let text = match &c.scenario {
            None => HISTORICAL_YAML,
            Some(n) => {
                crate::scenarios::find(&format!("when-eagles-fight/{n}"))
                    .ok_or_else(|| format!("case state: no bundled scenario {n}"))?
                    .text
            }
        };
        let mut s = WhenEaglesFight::setup(text, None, &case_seats()).map_err(|e| e.to_string())?;
        if let Some(t) = c.turn {
            s.turn = t;
        }
        if let Some(p) = c.phase {
            s.phase = p;
            // A case set in a phase of play is past the Free Setup deployment (3.9).
            s.variant.deploying = None;
            s.variant.to_deploy.clear();
        }
        if let Some(units) = c.units {
            for u in &mut s.units {
                u.place = Place::Out;
            }
            let deploy: Vec<String> = units.iter().filter(|u| u.deploy).map(|u| u.id.clone()).collect();
            s.variant.to_deploy.retain(|id, _| deploy.contains(id));
            for cu in units {
                let u = s.unit_mut(&cu.id).ok_or_else(|| format!("case state: no unit {}", cu.id))?;
                u.place = match (cu.hex, cu.turn) {
                    (None, None) if cu.deploy => Place::Out,
                    (None, None) if cu.eliminated => Place::Eliminated,
                    (None, None) if cu.when.is_some() => Place::Waiting,
                    (Some(h), None) => Place::Hex(h),
                    (None, Some(t)) => Place::Track(t),
                    _ => return Err(format!("case state: unit {} needs a hex or a turn", cu.id)),
                };
                if let Some(sl) = cu.sl {
                    u.sl = sl;
                }
                if cu.eliminated {
                    u.sl = 0;
                }
                if cu.when.is_some() {
                    u.when = cu.when;
                }
            }
        }
        s.control.extend(c.control);
        s.fallen_forts.extend(c.fallen_forts);
        s.logistics.pools.extend(c.pools);
        if let Some(hq) = c.hq {
            s.hq = hq;
        }
        if let Some(t) = c.last_turn {
            s.last_turn = t;
        }
        if let Some(e) = c.events {
            s.events = e;
        }
        s.ammo.short.extend(c.short);
        if let Some(b) = c.brusilov {
            s.brusilov = b;
        }
        WhenEaglesFight::check_invariants(&s).map_err(|e| format!("case state: {e}"))?;
        Ok(s)
    }
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        dice.iter().map(|d| d.saturating_sub(1)).collect()
    }
}
