//! Rule cases (DESIGN §5): the public conformance suite's file format and a generic runner.
//!
//! One case per YAML file under `tests/cases/<ruleset>/`. A case names the rule it tests,
//! starts from a small prestate written in the ruleset's own compact format, applies one or
//! more orders entries (forced dice resolve any pending roll before the next entry, exactly
//! as the engine does), and states what must follow: violations with their rule citations,
//! events in order, and facts about the final state. Facts are substrings of lines of
//! [`Ruleset::describe`], so the format stays the same for every ruleset.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::engine::{Event, Ruleset, Violation};

/// One rule case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleCase {
    /// The rule section tested, as the rulebook numbers it: `"GE 13.11"`.
    pub rule: String,
    /// One line: what the case shows.
    pub about: String,
    /// Registry id of the ruleset: `"glorys-end"`.
    pub ruleset: String,
    /// Which reading of an ambiguous rule the case takes, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// The prestate, in the ruleset's compact case format.
    #[schemars(with = "serde_json::Value")]
    pub state: yaml_serde::Value,
    /// The seat sending `orders` (and the default seat of `entries`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// One entry's orders (sent by `seat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub orders: Option<yaml_serde::Value>,
    /// Several entries, applied in sequence after `orders`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<CaseEntry>,
    /// Forced die results in the game's numbering (a d6 shows 1..=6), used in order
    /// whenever a pending roll is resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<u32>,
    /// What must follow.
    pub expect: CaseExpect,
}

/// One entry of a case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseEntry {
    /// The seat sending it (default: the case's `seat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// Its orders; absent for an `ack` (an entry that only resolves pending dice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub orders: Option<yaml_serde::Value>,
}

/// What a case expects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseExpect {
    /// The last entry is refused, and each of these violations is among the reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<ExpectedViolation>,
    /// Substrings of event texts that must appear, in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// Substrings that must each appear in some line of the final `describe`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<String>,
    /// Substrings that must appear in no line of the final `describe`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
    /// Substring of the final pending-roll description (`pending_roll`), if one must be pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
}

impl CaseExpect {
    /// Whether the case asserts anything at all.
    pub fn asserts_something(&self) -> bool {
        !self.violations.is_empty()
            || !self.events.is_empty()
            || !self.state.is_empty()
            || !self.absent.is_empty()
            || self.pending.is_some()
    }
}

/// A violation a case expects: the rule must match exactly; unit and hex when given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectedViolation {
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

impl ExpectedViolation {
    fn matches(&self, v: &Violation) -> bool {
        v.rule == self.rule
            && self.unit.as_ref().is_none_or(|u| v.unit.as_deref() == Some(u.as_str()))
            && self.hex.as_ref().is_none_or(|h| v.hex.as_deref() == Some(h.as_str()))
    }
}

/// A ruleset that can build a case prestate.
pub trait CaseRuleset: Ruleset {
    /// The state a case's `state` describes.
    fn case_state(value: &yaml_serde::Value) -> Result<Self::State, String>;
    /// Face indices (0-based) for the forced dice of a case, from game numbering.
    fn case_faces(dice: &[u32]) -> Vec<u32>;
}

/// Resolve the pending roll with the remaining forced faces (`faces` is reversed: the next
/// face is last). A resolution may roll several dice (a combat of The First World War rolls
/// one per side); only the faces it used are consumed.
fn resolve_forced<R: CaseRuleset>(state: &mut R::State, faces: &mut Vec<u32>, forced: &mut dyn FnMut(Vec<u32>) -> Dice) -> Vec<Event> {
    let in_order: Vec<u32> = faces.iter().rev().copied().collect();
    let mut dice = forced(in_order);
    let before = dice.forced_remaining();
    let events = R::resolve(state, &mut dice);
    let used = before - dice.forced_remaining();
    faces.truncate(faces.len() - used.min(faces.len()));
    events
}

/// Run one case. `forced` builds a dice stream yielding the given 0-based face indices.
/// Returns the transcript on success, the reason on failure.
pub fn run_case<R: CaseRuleset>(case: &RuleCase, forced: &mut dyn FnMut(Vec<u32>) -> Dice) -> Result<String, String> {
    if case.ruleset != R::ID {
        return Err(format!("case is for ruleset {:?}, not {:?}", case.ruleset, R::ID));
    }
    if !case.expect.asserts_something() {
        return Err("the case asserts nothing".into());
    }
    let mut state = R::case_state(&case.state)?;
    let mut entries: Vec<CaseEntry> = Vec::new();
    if let Some(o) = &case.orders {
        entries.push(CaseEntry { seat: case.seat.clone(), orders: Some(o.clone()) });
    }
    entries.extend(case.entries.iter().cloned());
    if entries.is_empty() {
        return Err("the case has no orders and no entries".into());
    }
    let mut faces = R::case_faces(&case.dice);
    faces.reverse();
    let mut events: Vec<Event> = Vec::new();
    let mut rejected: Option<Vec<Violation>> = None;
    let last = entries.len() - 1;
    for (i, entry) in entries.iter().enumerate() {
        if R::pending_roll(&state).is_some() {
            if faces.is_empty() {
                return Err("a roll is pending but the case has no dice left".into());
            }
            events.extend(resolve_forced::<R>(&mut state, &mut faces, forced));
        }
        let seat = entry.seat.clone().or_else(|| case.seat.clone()).ok_or(format!("entry {i} has no seat"))?;
        let Some(o) = &entry.orders else { continue };
        let orders: R::Orders = yaml_serde::from_value(o.clone()).map_err(|e| format!("entry {i}: orders do not parse: {e}"))?;
        match R::validate(&state, &seat, orders) {
            Ok(legal) => events.extend(R::apply(&mut state, &seat, legal)),
            Err(rej) => {
                if i != last || case.expect.violations.is_empty() {
                    let list: Vec<String> = rej.violations.iter().map(|v| v.to_string()).collect();
                    return Err(format!("entry {i} refused: {}", list.join(" | ")));
                }
                rejected = Some(rej.violations);
            }
        }
        R::check_invariants(&state).map_err(|e| format!("invariant broken after entry {i}: {e}"))?;
    }
    if R::pending_roll(&state).is_some() && !faces.is_empty() && case.expect.pending.is_none() {
        events.extend(resolve_forced::<R>(&mut state, &mut faces, forced));
        R::check_invariants(&state).map_err(|e| format!("invariant broken after the last roll: {e}"))?;
    }
    let mut problems = Vec::new();
    if !case.expect.violations.is_empty() {
        match &rejected {
            None => problems.push("expected the last entry to be refused, but it was accepted".to_string()),
            Some(vs) => {
                for ev in &case.expect.violations {
                    if !vs.iter().any(|v| ev.matches(v)) {
                        problems.push(format!(
                            "missing violation {} (unit {:?}, hex {:?}); got: {}",
                            ev.rule,
                            ev.unit,
                            ev.hex,
                            vs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" | ")
                        ));
                    }
                }
            }
        }
    }
    let texts: Vec<&str> = events.iter().map(|e| e.text.as_str()).collect();
    let mut at = 0;
    for want in &case.expect.events {
        match texts[at..].iter().position(|t| t.contains(want.as_str())) {
            Some(p) => at += p + 1,
            None => problems.push(format!("event {want:?} not found (in order)")),
        }
    }
    let described = R::describe(&state);
    for want in &case.expect.state {
        if !described.lines().any(|l| l.contains(want.as_str())) {
            problems.push(format!("state fact {want:?} not found"));
        }
    }
    for not in &case.expect.absent {
        if described.lines().any(|l| l.contains(not.as_str())) {
            problems.push(format!("state fact {not:?} present but must not be"));
        }
    }
    if let Some(p) = &case.expect.pending {
        match R::pending_roll(&state) {
            Some(d) if d.contains(p.as_str()) => {}
            other => problems.push(format!("pending roll {p:?} expected, found {other:?}")),
        }
    }
    let transcript = format!("events:\n  {}\nstate:\n{described}", texts.join("\n  "));
    if problems.is_empty() { Ok(transcript) } else { Err(format!("{}\n--- transcript ---\n{transcript}", problems.join("\n"))) }
}
