//! `validate`, `apply` and `validate_and_apply` for a ruleset whose whole entry is one pure
//! step: `run` takes the state, the seat and its orders, and gives the state after them with
//! their events, or every rule they break (Jours de Gloire, Steel Wheels). The step runs on
//! a copy, so a refused entry leaves the state untouched.

use super::{Event, Legal, Rejected, Violation};

/// The shape of such a step.
pub type Step<S, O> = fn(&S, &str, &O) -> Result<(S, Vec<Event>), Vec<Violation>>;

/// [`super::Ruleset::validate`]: the orders are legal when the step runs.
pub fn validate<S, O>(run: Step<S, O>, s: &S, seat: &str, orders: O) -> Result<Legal<O>, Rejected<O>> {
    match run(s, seat, &orders) {
        Ok(_) => Ok(Legal::accepted(orders)),
        Err(violations) => Err(Rejected { orders, violations }),
    }
}

/// [`super::Ruleset::apply`]: legal orders step the state; should the step refuse them after
/// all, the state stays and each violation is reported as skipped.
pub fn apply<S, O>(run: Step<S, O>, s: &mut S, seat: &str, orders: Legal<O>) -> Vec<Event> {
    match run(s, seat, orders.get()) {
        Ok((next, ev)) => {
            *s = next;
            ev
        }
        Err(v) => v.into_iter().map(|v| Event::rule(v.rule.clone(), format!("skipped: {v}"))).collect(),
    }
}

/// [`super::Ruleset::validate_and_apply`]: one run of the step both checks and applies.
pub fn validate_and_apply<S, O>(run: Step<S, O>, s: &mut S, seat: &str, orders: O) -> Result<Vec<Event>, Rejected<O>> {
    match run(s, seat, &orders) {
        Ok((next, ev)) => {
            *s = next;
            Ok(ev)
        }
        Err(violations) => Err(Rejected { orders, violations }),
    }
}

/// [`super::Ruleset::preview`]: the events the step would give, or the rules it breaks, as
/// lines of text.
pub fn preview<S, O>(run: Step<S, O>, s: &S, seat: &str, orders: &O) -> Vec<String> {
    match run(s, seat, orders) {
        Ok((_, ev)) => ev.into_iter().map(|e| e.text).collect(),
        Err(v) => v.into_iter().map(|v| v.to_string()).collect(),
    }
}
