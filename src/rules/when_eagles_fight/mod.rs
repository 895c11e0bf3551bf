//! When Eagles Fight (GMT, 2014), the Eastern Front 1914–1917 — ruleset `when-eagles-fight`.
//!
//! The second game of the 1914 box: its own map, counters, CRT and sequence of play. Rules
//! by section: `setup` (3.1–3.8), `turn` (5.2 sequence, 3.6), `movement` (12, 6.3, 3.2, 3.5),
//! `stacking` (8), `combat` (13, 6.4, 3.3), `crt` (13.8–13.12, 13.20), `reinforce` (10.1,
//! 10.2, 10.6), `supply` (9.3–9.7), `control` (3.8, 4.2), `victory` (4). The data file (`scenario`, `board`) holds
//! the representative map, roster and charts. The odds procedure and the concentric
//! geometry are the ones Glory's End uses (`engine::odds`, `geo::hex::concentric`).
//!
//! Much of the game is not built yet; `docs/when-eagles-fight/rules.md` lists every rule of
//! the digest's checklist with its case or the reason it is missing.

pub mod ammunition;
pub mod board;
pub mod cases;
pub mod combat;
pub mod control;
pub mod crt;
pub mod events;
pub mod legal;
pub mod movement;
pub mod orders;
pub mod reinforce;
pub mod scenario;
pub mod setup;
pub mod stacking;
pub mod state;
pub mod supply;
pub mod turn;
pub mod victory;
pub mod view;

use crate::dice::Dice;
use crate::engine::{Event, Expectation, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo, Violation};

pub use orders::Orders;
use state::Phase;
pub use state::State;

/// The ruleset.
pub struct WhenEaglesFight;

/// Check every action of an entry in order on a copy of the state: an illegal action is
/// reported and skipped, later ones are checked as if the legal ones had been applied.
pub fn check(s: &State, seat: &str, orders: &Orders) -> Vec<Violation> {
    let Some(side) = s.side_of(seat) else { return vec![Violation::new("WEF 3.1", format!("{seat} is not a seat of this game"))] };
    if orders.actions.is_empty() {
        return vec![Violation::new("WEF 5.2", "the orders hold no action")];
    }
    let mut w = s.clone();
    let mut errs = Vec::new();
    for (i, a) in orders.actions.iter().enumerate() {
        if w.battle.is_some() || w.phase == Phase::VictoryCheck || turn::rolling(&w) {
            errs.push(Violation::new("WEF 13.20", format!("action {} comes after a roll: the entry must end there", i + 1)));
            break;
        }
        if w.outcome.is_some() {
            errs.push(Violation::new("WEF 4.1", format!("action {} comes after the end of the game", i + 1)));
            break;
        }
        if let Some(p) = ammunition::placing(&w).filter(|&p| p != side) {
            errs.push(Violation::new("WEF 9.11", format!("action {}: the {} player places his ammunition markers now", i + 1, p.title())));
            break;
        }
        if turn::acting_side(&w) != side {
            errs.push(Violation::new(
                "WEF 5.2",
                format!("action {}: the phase has passed to the {} player", i + 1, turn::acting_side(&w).title()),
            ));
            break;
        }
        if let Err(e) = turn::step(&mut w, side, a) {
            errs.extend(e.into_iter().map(|mut v| {
                v.message = format!("action {}: {}", i + 1, v.message);
                v
            }));
        }
    }
    errs
}

impl Ruleset for WhenEaglesFight {
    type State = State;
    type Orders = Orders;
    const ID: &'static str = "when-eagles-fight";
    const VERSION: &'static str = "0.1.0";

    fn setup(text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
        setup::from_text(text, options, seats)
    }
    fn expect(state: &State) -> Expectation {
        turn::expect(state)
    }
    fn validate(state: &State, seat: &str, orders: Orders) -> Result<Legal<Orders>, Rejected<Orders>> {
        let errs = check(state, seat, &orders);
        if errs.is_empty() { Ok(Legal::accepted(orders)) } else { Err(Rejected { orders, violations: errs }) }
    }
    fn apply(state: &mut State, seat: &str, orders: Legal<Orders>) -> Vec<Event> {
        let Some(side) = state.side_of(seat) else { return vec![] };
        let mut ev = Vec::new();
        for a in &orders.get().actions {
            match turn::step(state, side, a) {
                Ok(e) => ev.extend(e),
                Err(v) => ev.extend(v.into_iter().map(|v| Event::rule(v.rule.clone(), format!("skipped: {v}")))),
            }
        }
        ev
    }
    fn pending_roll(state: &State) -> Option<String> {
        if let Some(b) = &state.battle {
            return Some(format!("combat at {}: CRT roll ({} column, DRM {:+})", b.target, combat::column_label(state, b), b.drm));
        }
        (state.phase == Phase::VictoryCheck && state.outcome.is_none())
            .then(|| format!("revolution roll at the victory check of turn {} (WEF 4.4)", state.turn))
            .or_else(|| events::roll_due(state))
            .or_else(|| ammunition::roll_due(state))
    }
    fn resolve(state: &mut State, dice: &mut Dice) -> Vec<Event> {
        if state.battle.is_some() {
            let die = dice.d6();
            return combat::roll(state, die);
        }
        if state.phase == Phase::VictoryCheck {
            let die = dice.d6();
            let mut ev = victory::revolution(state, die);
            if state.outcome.is_none() {
                ev.extend(turn::next_turn(state));
                // The turn that begins may open with its events roll: the same dice (7.1).
                ev.extend(events::roll(state, dice));
            }
            return ev;
        }
        if events::roll_due(state).is_some() {
            return events::roll(state, dice);
        }
        if ammunition::roll_due(state).is_some() {
            let die = dice.d6();
            return ammunition::roll(state, die);
        }
        vec![]
    }
    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }
    fn game_turn(state: &State) -> u32 {
        u32::from(state.turn)
    }
    /// Nothing is hidden yet: the CP's concealed stacks (13.7) are not built (docs).
    fn view(state: &State, _seat: &str) -> State {
        state.clone()
    }
    fn random_orders(state: &State, seat: &str, chooser: &mut Dice) -> Option<Orders> {
        legal::random_orders(state, seat, chooser)
    }
    fn template(state: &State, seat: &str) -> String {
        view::template(state, seat)
    }
    fn preview(state: &State, seat: &str, orders: &Orders) -> Vec<String> {
        let Some(side) = state.side_of(seat) else { return vec![] };
        let mut s = state.clone();
        let mut out = Vec::new();
        for a in &orders.actions {
            if s.battle.is_some() || s.phase == Phase::VictoryCheck || turn::rolling(&s) {
                out.push("then the dice decide".into());
                break;
            }
            match turn::step(&mut s, side, a) {
                Ok(ev) => out.extend(ev.into_iter().map(|e| e.text)),
                Err(v) => out.extend(v.into_iter().map(|v| v.to_string())),
            }
        }
        out
    }
    fn describe(state: &State) -> String {
        view::describe(state)
    }
    fn picture(state: &State) -> crate::render::Picture {
        view::picture(state)
    }
    fn check_invariants(state: &State) -> Result<(), String> {
        view::check_invariants(state)
    }
}
