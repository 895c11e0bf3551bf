//! Victory (S1.0–S1.3; digest E.7): only the German scores. Step losses count when they
//! happen (S1.31); locations count at each check for the side that last controlled them
//! (S1.22, RTL-3.12: last to occupy or move through).

use super::state::{Phase, State, Unit};
use crate::engine::{Event, Outcome};
use crate::geo::hex::HexId;

/// A unit of `side` enters or passes `h`: a VP location there is now `side`'s.
pub fn note_control(s: &mut State, h: HexId, side: &str) {
    if s.scenario.raw.victory.locations.iter().any(|l| l.hex == h) {
        s.control.insert(h, side.to_string());
    }
}

/// VP for one step of `u` lost (digest E.7).
pub fn step_vp(s: &State, u: &Unit) -> i32 {
    let Some(d) = s.data(&u.id) else { return 0 };
    let Some(t) = s.scenario.raw.victory.step_vp.get(&u.side) else { return 0 };
    if d.kind == super::scenario::Kind::Headquarters {
        t.hq
    } else if d.tank_or_artillery() {
        t.tank_or_artillery
    } else {
        0
    }
}

/// Location VP at a check named by turn (`15AM`).
pub fn location_vp(s: &State, check: &str) -> i32 {
    let v = &s.scenario.raw.victory;
    v.locations.iter().filter(|l| s.control.get(&l.hex) == Some(&v.scorer)).map(|l| l.vp.get(check).copied().unwrap_or(0)).sum()
}

/// Victory determination at the end of a turn (Reorganization C3).
pub fn check(s: &mut State) -> Vec<Event> {
    let name = s.turn_name();
    let v = s.scenario.raw.victory.clone();
    let mut ev = Vec::new();
    for c in v.checks.iter().filter(|c| c.turn == name) {
        let loc = location_vp(s, &name);
        let total = s.vp + loc;
        let other = s.scenario.other(&v.scorer);
        ev.push(Event::rule("S1.22", format!("victory check at the end of {name}: {} VP + {loc} location VP = {total}", s.vp)));
        if total >= c.at_least {
            s.outcome = Some(Outcome::Win {
                side: v.scorer.clone(),
                reason: format!("{total} VP at the end of {name}, at least {} (S1)", c.at_least),
            });
        } else if c.last {
            s.outcome = Some(Outcome::Win { side: other, reason: format!("{total} VP at the end of {name}, below {} (S1)", c.at_least) });
        }
        if s.outcome.is_some() {
            s.phase = Phase::Over;
            return ev;
        }
    }
    ev
}
