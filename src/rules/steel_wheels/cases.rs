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
//!   manoeuvred: [us-tanks]       # platoons done this turn; units may be `acted: true`, `destroyed: true`
//! ```
//! Dice are written as the faces shown (1..n) and read 0-based by the rules.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::SteelWheels;
use super::scenario::{CROSSROADS_YAML, Xy, point};
use super::state::{Phase, State};
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
    /// Platoons that have manoeuvred this turn.
    #[serde(default)]
    manoeuvred: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    at: Xy,
    #[serde(default)]
    heading: u16,
    #[serde(default)]
    figures: Option<u32>,
    #[serde(default)]
    moving: bool,
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
        if let Some(units) = c.units {
            let named: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
            if let Some(bad) = named.iter().find(|id| s.unit(id).is_none()) {
                return Err(format!("case state: no unit {bad}"));
            }
            // Units not named are not in the battle at all (they count for nothing).
            s.units.retain(|u| named.contains(&u.id));
            for cu in units {
                let u = s.unit_mut(&cu.id).ok_or_else(|| format!("case state: no unit {}", cu.id))?;
                u.at = point(cu.at).ok_or("case state: a bad point")?;
                u.heading = Heading::try_from(i64::from(cu.heading)).map_err(|e| format!("case state: {e}"))?;
                if let Some(f) = cu.figures {
                    u.figures = f;
                    u.leaders = u.leaders.min(f);
                }
                u.moving = cu.moving;
                u.fired = cu.fired;
                u.panic = cu.panic;
                u.mobility = cu.mobility;
                u.acted = cu.acted;
                u.destroyed = cu.destroyed;
            }
        }
        s.manoeuvred.extend(c.manoeuvred);
        if !c.tokens.is_empty() {
            s.tokens.extend(c.tokens);
        }
        if let Some(q) = c.act {
            s.phase = Phase::Act { queue: q, free: c.free };
        } else if let Some(side) = c.declare {
            s.declarer = side.clone();
            s.phase = Phase::Declare { side };
        }
        SteelWheels::check_invariants(&s).map_err(|e| format!("case state: {e}"))?;
        Ok(s)
    }
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        dice.iter().map(|d| d.saturating_sub(1)).collect()
    }
}
