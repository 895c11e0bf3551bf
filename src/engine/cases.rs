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
use crate::engine::hidden::{Committed, HiddenActs, Opened};
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
    /// whenever a pending roll is resolved or a private draw is settled. Every die the case
    /// rolls must be listed: a case that rolls more fails.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<u32>,
    /// What the replay knows of hidden values (DESIGN §2.6): `omniscient` (the default) or
    /// `public`.
    #[serde(default, skip_serializing_if = "CaseKnowledge::is_default")]
    pub knowledge: CaseKnowledge,
    /// What must follow.
    pub expect: CaseExpect,
}

/// What a case's replay knows of committed values and private draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaseKnowledge {
    /// Every committed value is known when it is committed; private draws are settled with
    /// their dice (as the drawer and `verify`'s omniscient pass see them).
    #[default]
    Omniscient,
    /// Only opened values are known: committed values reach `hidden` as unknown and private
    /// draws are settled without dice (as anyone holding the log sees them).
    Public,
}

impl CaseKnowledge {
    fn is_default(&self) -> bool {
        *self == CaseKnowledge::Omniscient
    }
}

/// A value an entry of a case commits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseCommit {
    /// The commitment id.
    pub id: String,
    /// The committed value (given to the ruleset only under `knowledge: omniscient`).
    pub value: String,
}

/// A commitment an entry of a case opens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseOpen {
    /// The commitment id.
    pub id: String,
    /// The opened value.
    pub value: String,
    /// For a private draw settled earlier without its dice: the faces (game numbering) its
    /// dice show, handed to the ruleset as [`Opened::draw`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faces: Option<Vec<u32>>,
}

/// One entry of a case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseEntry {
    /// The seat sending it (default: the case's `seat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// Its orders; absent for an `ack` (an entry that only resolves pending dice or private
    /// draws, or only commits or opens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub orders: Option<yaml_serde::Value>,
    /// Values the entry commits (DESIGN §2.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commit: Vec<CaseCommit>,
    /// Commitments the entry opens.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open: Vec<CaseOpen>,
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

/// A case's forced dice as the run consumes them.
struct CaseDice {
    /// The faces still to give, reversed: the next face is last.
    faces: Vec<u32>,
    /// Rolls made after the faces ran out, from the forced dice's fallback stream. A case
    /// must list every die it rolls: one that passes on fallback rolls would pass whatever
    /// those rolls decided, so the run fails it.
    beyond: u64,
}

impl CaseDice {
    fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }
}

/// Run `roll` on dice yielding the remaining forced faces and consume only the faces it used:
/// a resolution may roll several dice (a combat of The First World War rolls one per side), a
/// draw one. Rolls past the last face are counted in `beyond`.
fn with_forced<T>(faces: &mut CaseDice, forced: &mut dyn FnMut(Vec<u32>) -> Dice, roll: impl FnOnce(&mut Dice) -> T) -> T {
    let in_order: Vec<u32> = faces.faces.iter().rev().copied().collect();
    let mut dice = forced(in_order);
    let before = dice.forced_remaining();
    let out = roll(&mut dice);
    let used = before - dice.forced_remaining();
    faces.beyond += dice.rolls().saturating_sub(used as u64);
    let left = faces.faces.len() - used.min(faces.faces.len());
    faces.faces.truncate(left);
    out
}

/// Resolve the pending roll with the remaining forced faces.
fn resolve_forced<R: CaseRuleset>(state: &mut R::State, faces: &mut CaseDice, forced: &mut dyn FnMut(Vec<u32>) -> Dice) -> Vec<Event> {
    with_forced(faces, forced, |dice| R::resolve(state, dice))
}

/// Settle the owed private draws: with the next forced faces when the case is omniscient,
/// without dice when it is public (the ruleset then learns them when `r` is opened).
fn settle_owed<R: CaseRuleset>(
    state: &mut R::State,
    owed: &mut Vec<(String, String)>,
    faces: &mut CaseDice,
    knowledge: CaseKnowledge,
    forced: &mut dyn FnMut(Vec<u32>) -> Dice,
) -> Vec<Event> {
    let mut events = Vec::new();
    for (seat, draw) in std::mem::take(owed) {
        events.extend(match knowledge {
            CaseKnowledge::Public => R::settle_draw(state, &seat, &draw, None),
            CaseKnowledge::Omniscient => with_forced(faces, forced, |dice| R::settle_draw(state, &seat, &draw, Some(dice))),
        });
    }
    events
}

/// The commitments and openings of one case entry, as the engine would hand them over.
fn case_acts<R: CaseRuleset>(entry: &CaseEntry, knowledge: CaseKnowledge, forced: &mut dyn FnMut(Vec<u32>) -> Dice) -> HiddenActs {
    HiddenActs {
        committed: entry
            .commit
            .iter()
            .map(|c| Committed { id: c.id.clone(), value: (knowledge == CaseKnowledge::Omniscient).then(|| c.value.clone()) })
            .collect(),
        opened: entry
            .open
            .iter()
            .map(|o| Opened { id: o.id.clone(), value: o.value.clone(), draw: o.faces.as_ref().map(|f| forced(R::case_faces(f))) })
            .collect(),
    }
}

/// Run one case. `forced` builds a dice stream yielding the given 0-based face indices.
/// Returns the transcript on success, the reason on failure.
///
/// Each entry goes through the engine's steps in the engine's order: owed private draws are
/// settled, a pending public roll is resolved, a leading roll that opens the entry is
/// rolled, the entry's commitments and openings reach
/// [`Ruleset::hidden`], its orders are validated and applied, and the private draws it made
/// become owed. A refused entry leaves the state as it was. Draws still owed after the last
/// entry are settled too (with dice only while forced faces remain).
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
        entries.push(CaseEntry { seat: case.seat.clone(), orders: Some(o.clone()), commit: Vec::new(), open: Vec::new() });
    }
    entries.extend(case.entries.iter().cloned());
    if entries.is_empty() {
        return Err("the case has no orders and no entries".into());
    }
    let mut faces = R::case_faces(&case.dice);
    faces.reverse();
    let mut faces = CaseDice { faces, beyond: 0 };
    let mut events: Vec<Event> = Vec::new();
    let mut rejected: Option<Vec<Violation>> = None;
    let mut owed: Vec<(String, String)> = Vec::new();
    let last = entries.len() - 1;
    for (i, entry) in entries.iter().enumerate() {
        events.extend(settle_owed::<R>(&mut state, &mut owed, &mut faces, case.knowledge, forced));
        if R::pending_roll(&state).is_some() {
            if faces.is_empty() {
                return Err("a roll is pending but the case has no dice left".into());
            }
            events.extend(resolve_forced::<R>(&mut state, &mut faces, forced));
        }
        let seat = entry.seat.clone().or_else(|| case.seat.clone()).ok_or(format!("entry {i} has no seat"))?;
        // A leading roll opens the seat's entry before its orders are read (DESIGN §2.5).
        let lead_rolled = R::leading_roll(&state).is_some_and(|(s, _)| s == seat);
        if lead_rolled {
            if faces.is_empty() {
                return Err(format!("entry {i} opens with a leading roll but the case has no dice left"));
            }
            events.extend(with_forced(&mut faces, forced, |dice| R::resolve_lead(&mut state, dice)));
        }
        let before = state.clone();
        let mut entry_events = Vec::new();
        let mut refusal: Option<Vec<Violation>> = None;
        if entry.orders.is_some() || !entry.commit.is_empty() || !entry.open.is_empty() {
            let mut acts = case_acts::<R>(entry, case.knowledge, forced);
            match R::hidden(&mut state, &seat, &mut acts) {
                Ok(evs) => entry_events.extend(evs),
                Err(vs) => refusal = Some(vs),
            }
        }
        // After a leading roll that hands the decision to the other side, the entry's
        // orders are empty and nothing is validated (as the engine does).
        let lead_only = lead_rolled
            && entry.orders.as_ref().is_some_and(crate::engine::game::empty_orders)
            && !R::expect(&state).awaits.iter().any(|a| a.seat == seat);
        if refusal.is_none()
            && !lead_only
            && let Some(o) = &entry.orders
        {
            let orders: R::Orders = yaml_serde::from_value(o.clone()).map_err(|e| format!("entry {i}: orders do not parse: {e}"))?;
            match R::validate(&state, &seat, orders) {
                Ok(legal) => entry_events.extend(R::apply(&mut state, &seat, legal)),
                Err(rej) => refusal = Some(rej.violations),
            }
        }
        match refusal {
            None => {
                events.extend(entry_events);
                owed.extend(R::private_draws(&mut state).into_iter().map(|d| (seat.clone(), d)));
            }
            Some(vs) => {
                if i != last || case.expect.violations.is_empty() {
                    let list: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
                    return Err(format!("entry {i} refused: {}", list.join(" | ")));
                }
                state = before;
                rejected = Some(vs);
            }
        }
        R::check_invariants(&state).map_err(|e| format!("invariant broken after entry {i}: {e}"))?;
    }
    if !owed.is_empty() && (case.knowledge == CaseKnowledge::Public || !faces.is_empty()) {
        events.extend(settle_owed::<R>(&mut state, &mut owed, &mut faces, case.knowledge, forced));
        R::check_invariants(&state).map_err(|e| format!("invariant broken after settling the last draws: {e}"))?;
    }
    if R::pending_roll(&state).is_some() && !faces.is_empty() && case.expect.pending.is_none() {
        events.extend(resolve_forced::<R>(&mut state, &mut faces, forced));
        R::check_invariants(&state).map_err(|e| format!("invariant broken after the last roll: {e}"))?;
    }
    let mut problems = Vec::new();
    if faces.beyond > 0 {
        problems.push(format!(
            "the case rolled {} die/dice more than its `dice` list holds: list every die it rolls (unlisted rolls came from a fallback stream, so the case would pass whatever they showed)",
            faces.beyond
        ));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toy::{Toy, ToyState};

    impl CaseRuleset for Toy {
        fn case_state(value: &yaml_serde::Value) -> Result<ToyState, String> {
            yaml_serde::from_value(value.clone()).map_err(|e| e.to_string())
        }
        fn case_faces(dice: &[u32]) -> Vec<u32> {
            dice.iter().map(|d| d - 1).collect()
        }
    }

    /// A toy game at its start: the hider has not committed yet.
    const START: &str = "
state: {partners: false, hider: h, seeker: s, phase: Set, round: 1, piece: 0, number_id: null, number: null,
        opened: false, chits: [], new_draws: [], guesses: [], outcome: null}
";

    fn run(body: &str) -> Result<String, String> {
        let case: RuleCase =
            yaml_serde::from_str(&format!("rule: TOY 2\nabout: test\nruleset: toy-hidden\n{START}{body}")).expect("case parses");
        run_case::<Toy>(&case, &mut |faces| Dice::forced(faces))
    }

    #[test]
    fn a_committed_value_reaches_the_rules_when_the_case_is_omniscient() {
        let out = run("
entries:
  - {seat: h, orders: {}, commit: [{id: number@1, value: '2'}]}
  - {seat: h, orders: {step: 2}}
expect:
  violations: [{rule: TOY 2}]
");
        assert!(out.is_ok(), "{out:?}");
        // Without the violation expected, the same entries fail the case: the refusal is real.
        let refused = run("
entries:
  - {seat: h, orders: {}, commit: [{id: number@1, value: '2'}]}
  - {seat: h, orders: {step: 2}}
expect:
  state: ['piece at 2']
");
        assert!(refused.is_err_and(|e| e.contains("entry 1 refused")));
    }

    #[test]
    fn a_public_case_does_not_know_the_value_until_it_is_opened() {
        let out = run("
knowledge: public
entries:
  - {seat: h, orders: {}, commit: [{id: number@1, value: '2'}]}
  - {seat: h, orders: {step: 2}}
  - {seat: s, orders: {guess: 5}}
  - {seat: h, open: [{id: number@1, value: '2'}]}
expect:
  events: ['the piece steps to 2', 'the hidden number was 2']
  state: ['piece at 2', 'number 2']
");
        assert!(out.is_ok(), "{out:?}");
    }

    #[test]
    fn private_draws_settle_with_the_forced_faces_or_at_their_opening() {
        let seen = run("
dice: [5]
entries:
  - {seat: h, orders: {}, commit: [{id: number@1, value: '9'}]}
  - {seat: h, orders: {step: 1, draw: true}}
  - {seat: s, orders: {guess: 3}}
expect:
  events: ['h draws chit@1: 5']
  state: ['chits chit@1=5']
");
        assert!(seen.is_ok(), "{seen:?}");
        let public = run("
knowledge: public
entries:
  - {seat: h, orders: {}, commit: [{id: number@1, value: '9'}]}
  - {seat: h, orders: {step: 1, draw: true}}
  - {seat: s, orders: {guess: 3}}
  - {seat: h, open: [{id: chit@1, value: 'ab', faces: [4]}]}
expect:
  events: ['h draws chit@1 (hidden)', 'chit@1 was Some(4)']
  state: ['chits chit@1=4']
");
        assert!(public.is_ok(), "{public:?}");
    }

    /// A case whose rolls outrun its `dice` list fails, whatever the fallback stream showed:
    /// it would otherwise pass on dice nobody chose.
    #[test]
    fn a_case_that_rolls_more_dice_than_it_lists_fails() {
        let body = |dice: &str, chit: &str| {
            format!(
                "
dice: {dice}
entries:
  - {{seat: h, orders: {{}}, commit: [{{id: number@1, value: '9'}}]}}
  - {{seat: h, orders: {{step: 1, draw: true}}}}
  - {{seat: s, orders: {{guess: 3}}}}
expect:
  events: ['h draws chit@1']
  state: ['chits chit@1={chit}']
"
            )
        };
        assert!(run(&body("[5]", "5")).is_ok());
        let short = run(&body("[]", "")).expect_err("the draw rolled a die the case does not list");
        assert!(short.contains("rolled 1 die/dice more than its `dice` list holds"), "{short}");
    }

    #[test]
    fn a_refused_opening_leaves_the_state_as_it_was() {
        let out = run("
entries:
  - {seat: h, orders: {}, commit: [{id: number@1, value: '2'}]}
  - {seat: h, open: [{id: number@1, value: '12'}], orders: {step: 1}}
expect:
  violations: [{rule: TOY 1}]
  state: ['piece at 0', 'number 2']
");
        assert!(out.is_ok(), "{out:?}");
    }
}
