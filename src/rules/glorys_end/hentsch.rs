//! The optional Lt. Col. Hentsch rule (GE 10.4), when both players agree (game option
//! `hentsch: true`; the scenario must allow it, `special.hentsch_optional`): the campaigns and
//! the Marne (16.3 lets its players use 10.4 by agreement).
//!
//! The first German command & control roll of 6 made while a German unit stands inside the
//! Paris in Danger perimeter triggers it, on top of the usual out-of-command picks: for the
//! rest of that player turn every German unit that was inside must move out, by as direct a
//! path as possible, and may not march-assault; no German unit may move or attack into the
//! perimeter. If the German already controls a Paris hex at that moment the rule is void for
//! the rest of the game. It happens once.
//!
//! Reading of "as direct a path as possible" (G.4 item 23): every hex such a unit enters
//! must be nearer (in hexes) to the nearest hex outside the perimeter than the hex it leaves,
//! and it must keep going until it is outside: the movement phase cannot end while one of
//! them is still inside, may still move, and has a legal step nearer the outside. Which of
//! several equally near hexes is the owner's choice. The units must use OM, so they make no
//! prepared assault either.

use serde::{Deserialize, Serialize};

use super::orders::{ActionKind, PhaseName};
use super::state::{MoveState, SideId, State};
use crate::engine::{Event, ScenarioError, Violation};
use crate::geo::hex::HexId;

/// Where the rule stands in the game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hentsch {
    /// Not agreed (the default).
    #[default]
    Off,
    /// Agreed, not yet triggered.
    Armed,
    /// Triggered in the German player turn of `turn`: `units` were inside the perimeter.
    Active { turn: u8, units: Vec<String> },
    /// Played out.
    Spent,
    /// The German held a Paris hex when it triggered: ignored for the rest of the game.
    Void,
}

impl Hentsch {
    /// Not in use (for serde's `skip_serializing_if`).
    pub fn is_off(&self) -> bool {
        *self == Hentsch::Off
    }
}

fn v(msg: impl Into<String>) -> Violation {
    Violation::new("GE 10.4", msg)
}

/// The game options: `hentsch: true` arms the rule (the scenario must allow it).
pub fn apply_options(state: &mut State, scenario_text: &str, options: Option<&yaml_serde::Value>) -> Result<(), ScenarioError> {
    let wanted = options.and_then(|o| o.get("hentsch")).and_then(|h| h.as_bool()).unwrap_or(false);
    if !wanted {
        return Ok(());
    }
    let allowed = super::scenario::Scenario::from_text(scenario_text).is_ok_and(|sc| sc.special.hentsch_optional);
    if !allowed {
        return Err(ScenarioError { problems: vec!["GE 10.4: this scenario does not offer the optional Hentsch rule".into()] });
    }
    state.hentsch = Hentsch::Armed;
    Ok(())
}

/// Hexes from `h` to the nearest hex outside the Paris in Danger perimeter (0 outside).
pub fn distance_out(state: &State, h: HexId) -> u32 {
    let b = &state.board;
    if !b.in_paris_danger_zone(h) {
        return 0;
    }
    let mut seen = vec![h];
    let mut ring = vec![h];
    let mut k = 0;
    while !ring.is_empty() {
        k += 1;
        let mut next = Vec::new();
        for x in ring {
            for &n in b.neighbours(x) {
                if seen.contains(&n) {
                    continue;
                }
                if !b.in_paris_danger_zone(n) {
                    return k;
                }
                seen.push(n);
                next.push(n);
            }
        }
        ring = next;
    }
    u32::MAX
}

/// The units bound by the rule now (German player turn of the trigger), if it is in force.
pub fn active(state: &State) -> Option<&[String]> {
    match &state.hentsch {
        Hentsch::Active { turn, units } if *turn == state.turn && state.player == SideId::German => Some(units),
        _ => None,
    }
}

/// A German command & control roll of 6: the rule triggers if armed and a German unit is
/// inside the perimeter.
pub fn on_six(state: &mut State) -> Vec<Event> {
    if state.player != SideId::German {
        return vec![];
    }
    if !matches!(state.hentsch, Hentsch::Armed | Hentsch::Active { .. }) {
        return vec![];
    }
    // An earlier trigger's turn is over: played out.
    if matches!(state.hentsch, Hentsch::Active { .. }) {
        state.hentsch = Hentsch::Spent;
        return vec![];
    }
    let inside: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == SideId::German && u.mobile() && u.hex().is_some_and(|h| state.board.in_paris_danger_zone(h)))
        .map(|u| u.id.clone())
        .collect();
    if inside.is_empty() {
        return vec![];
    }
    let held: Vec<String> =
        state.board.paris_hexes().into_iter().filter(|h| state.control(*h) == Some(SideId::German)).map(|h| h.to_string()).collect();
    let (next, ev) = if held.is_empty() {
        let ev = Event::rule(
            "GE 10.4",
            format!(
                "Lt. Col. Hentsch: the German units inside the Paris perimeter ({}) must move out by the most direct path this turn, without march assaults; no German unit may move or attack into the perimeter",
                inside.join(", ")
            ),
        );
        (Hentsch::Active { turn: state.turn, units: inside }, ev)
    } else {
        let ev = Event::rule(
            "GE 10.4",
            format!("Lt. Col. Hentsch: the German holds Paris ({}): the rule is ignored for the rest of the game", held.join(", ")),
        );
        (Hentsch::Void, ev)
    };
    state.hentsch = next;
    vec![ev]
}

/// Checks on German actions while the rule is in force.
pub fn before(state: &State, side: SideId, action: &ActionKind) -> Result<(), Vec<Violation>> {
    if side != SideId::German {
        return Ok(());
    }
    let Some(bound) = active(state) else { return Ok(()) };
    let zone = |h: HexId| state.board.in_paris_danger_zone(h);
    let mut errs = Vec::new();
    match action {
        ActionKind::Move(m) => {
            let Some(from) = m.units.first().and_then(|id| state.unit(id)).and_then(|u| u.hex()) else { return Ok(()) };
            let mut prev = distance_out(state, from);
            for &h in m.path.iter().skip_while(|h| **h == from) {
                let d = distance_out(state, h);
                if d > 0 && prev == 0 {
                    errs.push(v("no German unit may move into the Paris perimeter this turn").hex(h.to_string()));
                    break;
                }
                if d > 0 && d >= prev {
                    errs.push(
                        v(format!("units inside the Paris perimeter leave it by the most direct path: {h} is no nearer the outside"))
                            .hex(h.to_string()),
                    );
                    break;
                }
                prev = d;
            }
        }
        ActionKind::MarchAssault(a) | ActionKind::Attack(a) => {
            if zone(a.target) {
                errs.push(v("no German unit may attack into the Paris perimeter this turn").hex(a.target.to_string()));
            }
            for id in a.units.iter().filter(|id| bound.contains(id)) {
                errs.push(v("the units leaving the Paris perimeter may not attack this turn").unit(id));
            }
        }
        ActionKind::EndPhase(PhaseName::Movement) => {
            for id in bound {
                if let Some(step) = step_out(state, id) {
                    errs.push(v(format!("{id} must go on leaving the Paris perimeter (it can still move to {step})")).unit(id));
                }
            }
        }
        _ => {}
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// A legal one-hex move of unit `id` nearer the outside of the perimeter, if it is still
/// inside and may still move.
pub fn step_out(state: &State, id: &str) -> Option<HexId> {
    let u = state.unit(id)?;
    let h = u.hex()?;
    if u.move_state == MoveState::Done || !state.board.in_paris_danger_zone(h) {
        return None;
    }
    let here = distance_out(state, h);
    let ids = vec![id.to_string()];
    state.board.neighbours(h).iter().copied().filter(|&n| distance_out(state, n) < here).find(|&n| {
        let mut probe = state.clone();
        super::movement::step_move(&mut probe, SideId::German, &ids, &[n]).is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ruleset, SeatInfo};

    fn seats() -> Vec<SeatInfo> {
        vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }]
    }

    /// GE 16.3: the Marne's players may agree to use the optional rule 10.4.
    #[test]
    fn the_marne_accepts_the_hentsch_option() {
        let opts: yaml_serde::Value = yaml_serde::from_str("hentsch: true").unwrap();
        let st = <super::super::GlorysEnd as Ruleset>::setup(super::super::scenario::MARNE_YAML, Some(&opts), &seats()).unwrap();
        assert_eq!(st.hentsch, Hentsch::Armed);
        let st = <super::super::GlorysEnd as Ruleset>::setup(super::super::scenario::MARNE_YAML, None, &seats()).unwrap();
        assert_eq!(st.hentsch, Hentsch::Off);
    }
}
