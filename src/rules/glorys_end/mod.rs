//! 1914: Glory's End (GMT), Western Front 1914 — ruleset `glorys-end`.
//!
//! CONTRACT (skeleton): the ruleset work replaces the bodies and the placeholder types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::engine::{Event, Expectation, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo};

/// The ruleset.
pub struct GlorysEnd;

/// Placeholder game state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {}

/// Placeholder orders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Orders {}

impl Ruleset for GlorysEnd {
    type State = State;
    type Orders = Orders;
    const ID: &'static str = "glorys-end";
    const VERSION: &'static str = "0.1.0";

    fn setup(_: &str, _: Option<&yaml_serde::Value>, _: &[SeatInfo]) -> Result<State, ScenarioError> {
        todo!()
    }
    fn expect(_: &State) -> Expectation {
        todo!()
    }
    fn validate(_: &State, _: &str, _: Orders) -> Result<Legal<Orders>, Rejected<Orders>> {
        todo!()
    }
    fn apply(_: &mut State, _: &str, _: Legal<Orders>) -> Vec<Event> {
        todo!()
    }
    fn pending_roll(_: &State) -> Option<String> {
        todo!()
    }
    fn resolve(_: &mut State, _: &mut Dice) -> Vec<Event> {
        todo!()
    }
    fn outcome(_: &State) -> Option<Outcome> {
        todo!()
    }
    fn view(_: &State, _: &str) -> State {
        todo!()
    }
    fn random_orders(_: &State, _: &str, _: &mut Dice) -> Option<Orders> {
        todo!()
    }
    fn template(_: &State, _: &str) -> String {
        todo!()
    }
    fn preview(_: &State, _: &str, _: &Orders) -> Vec<String> {
        todo!()
    }
    fn describe(_: &State) -> String {
        todo!()
    }
    fn check_invariants(_: &State) -> Result<(), String> {
        todo!()
    }
}
