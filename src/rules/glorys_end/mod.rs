//! 1914: Glory's End (GMT), Western Front 1914 — ruleset `glorys-end`.
//!
//! The Battle of the Marne (GE-16) with operational movement, march and prepared assaults,
//! stacking, control, replacements, command & control and VP. Rules are found by section
//! number: `movement` (GE-12), `combat` (GE-13), `stacking` (GE-6), `supply` (GE-7 basics),
//! `replacements` (GE-8.6, 8.7), `command` (GE-10), `vp` (GE-4.7/16.4), `turn` (GE-5 sequence
//! and the action dispatcher), `tables` (CRT, odds); `board` indexes the scenario's `map`.
//! Players' docs: `docs/glorys-end/rules.md`.

pub mod attrition;
pub mod board;
pub mod campaign;
pub mod cases;
pub mod combat;
pub mod command;
pub mod counters;
pub mod deploy;
pub mod dummies;
pub mod entrench;
pub mod fortified;
pub mod hentsch;
pub mod lead;
pub mod legal;
pub mod map;
pub mod movement;
pub mod naval;
pub mod neutrality;
pub mod orders;
pub mod reinforce;
pub mod render;
pub mod replacements;
pub mod scenario;
pub mod secret;
pub mod setup;
pub mod siege;
pub mod stacking;
pub mod standing;
pub mod state;
pub mod strategic;
pub mod supply;
pub mod tables;
pub mod turn;
pub mod unit_list;
pub mod view;
pub mod vp;
pub mod withdrawal;

use crate::dice::Dice;
use crate::engine::{Event, Expectation, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo, Violation};

pub use orders::Orders;
use state::Stage;
pub use state::State;

/// The ruleset.
pub struct GlorysEnd;

/// Check every action of an entry in order against a copy of the state; an illegal action
/// is reported and skipped, later actions are checked as if the legal ones had been applied.
pub fn check(state: &State, seat: &str, orders: &Orders) -> Vec<Violation> {
    let mut errs = Vec::new();
    let Some(side) = state.side_of(seat) else {
        return vec![Violation::new("GE 3.1", format!("{seat} is not a seat of this game"))];
    };
    if orders.actions.is_empty() {
        return vec![Violation::new("GE 5.1", "the orders hold no action")];
    }
    if secret::in_progress(state) {
        return secret::check_entry(state, side, orders);
    }
    // Legality is checked on the real units this replay knows (GE 13.8, `counters.rs`).
    let mut s = counters::unmasked(state);
    let mut stopped = false;
    for (i, a) in orders.actions.iter().enumerate() {
        // Standing instructions may be filed whoever is to act (standing.rs).
        if matches!(a.0, orders::ActionKind::Standing(_)) {
            if let Err(e) = turn::step(&mut s, side, &a.0) {
                errs.extend(e.into_iter().map(|mut v| {
                    v.message = format!("action {}: {}", i + 1, v.message);
                    v
                }));
            }
            continue;
        }
        if stopped {
            continue;
        }
        // The end-of-game openings (GE 13.8): a game can end with a battle still waiting for
        // its roll (an automatic victory), and nothing will roll it; the openings owed must
        // still go through.
        if closing(&s, &a.0) {
            if let Err(e) = turn::step(&mut s, side, &a.0) {
                errs.extend(e.into_iter().map(|mut v| {
                    v.message = format!("action {}: {}", i + 1, v.message);
                    v
                }));
            }
            continue;
        }
        if s.battle.as_ref().is_some_and(|b| b.stage == Stage::Roll) || (s.battle.is_some() && turn::actor(&s) != Some(side)) {
            errs.push(Violation::new(
                "GE 13.3",
                format!("action {} comes after a battle that awaits a roll or the opponent's decision: the entry must end there", i + 1),
            ));
            stopped = true;
            continue;
        }
        if let Err(e) = turn::step(&mut s, side, &a.0) {
            errs.extend(e.into_iter().map(|mut v| {
                v.message = format!("action {}: {}", i + 1, v.message);
                v
            }));
        }
        // Units hidden by this action are checked as what they are from the next one on.
        if matches!(a.0, orders::ActionKind::Hide(_)) {
            s = counters::unmasked(&s);
        }
    }
    if let Some(c) = s.counters.as_ref().filter(|c| !c.fresh.is_empty()) {
        let ids: Vec<&str> = c.fresh.iter().map(|(id, _)| id.as_str()).collect();
        errs.push(Violation::new("GE 13.8", format!("the entry commits counters no hide uses: {}", ids.join(", "))));
    }
    errs
}

/// `check` and `apply_steps` in one pass, where that is the same as running both: each
/// action checked and applied once on one copy of the state, instead of stepped on an
/// unmasked copy to check it and again on the state to apply it. `None` (and the state left
/// as it was) wherever the two could differ, for the caller to take the two-pass way: the
/// secret setup, hidden counters this replay knows (the check steps the unmasked units),
/// hides (after one, the check unmasks again), and any violation (its report is `check`'s).
fn apply_once(state: &State, side: state::SideId, orders: &Orders) -> Option<(State, Vec<Event>)> {
    if !one_pass_fits(state, orders) {
        return None;
    }
    let mut s = state.clone();
    let ev = steps_once(&mut s, side, orders)?;
    Some((s, ev))
}

/// Whether [`apply_once`] may be tried at all (see there): decided before any action runs.
fn one_pass_fits(state: &State, orders: &Orders) -> bool {
    !(orders.actions.is_empty()
        || secret::in_progress(state)
        || state.counters.as_ref().is_some_and(|c| !c.known.is_empty())
        || orders.actions.iter().any(|a| matches!(a.0, orders::ActionKind::Hide(_))))
}

/// The one pass of [`apply_once`] on `s` itself: the events, or `None` where the two-pass way
/// must decide (`s` is then half-changed).
fn steps_once(s: &mut State, side: state::SideId, orders: &Orders) -> Option<Vec<Event>> {
    let mut ev = Vec::new();
    // `apply_steps` skips the actions after a battle that awaits its roll; `check` refuses
    // them: legal orders have none, and any other case goes the two-pass way.
    let mut rolled = false;
    for a in &orders.actions {
        let standing = matches!(a.0, orders::ActionKind::Standing(_));
        rolled = rolled || s.battle.as_ref().is_some_and(|b| b.stage == Stage::Roll);
        if !standing && !closing(s, &a.0) {
            let waits = s.battle.as_ref().is_some_and(|b| b.stage == Stage::Roll) || (s.battle.is_some() && turn::actor(s) != Some(side));
            if rolled || waits {
                return None;
            }
        }
        ev.extend(turn::step(s, side, &a.0).ok()?);
    }
    if s.counters.as_ref().is_some_and(|c| !c.fresh.is_empty()) {
        return None;
    }
    ev.extend(counters::hold_outcome(s));
    Some(ev)
}

/// `open_counters` once the result is held for the end-of-game openings (GE 13.8).
fn closing(s: &State, a: &orders::ActionKind) -> bool {
    matches!(a, orders::ActionKind::OpenCounters(_)) && s.counters.as_ref().is_some_and(|c| c.pending_outcome.is_some())
}

/// Apply an entry's actions in order; one the masked state refuses is skipped (the same in
/// every replay, since rule effects run on placeholders, `counters.rs`).
fn apply_steps(state: &mut State, side: state::SideId, orders: &Orders) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut stopped = false;
    for a in &orders.actions {
        let standing = matches!(a.0, orders::ActionKind::Standing(_));
        stopped = stopped || state.battle.as_ref().is_some_and(|b| b.stage == Stage::Roll);
        if stopped && !standing && !closing(state, &a.0) {
            continue;
        }
        match turn::step(state, side, &a.0) {
            Ok(e) => ev.extend(e),
            Err(v) => ev.extend(v.into_iter().map(|v| Event::rule(v.rule.clone(), format!("skipped: {v}")))),
        }
    }
    ev
}

impl GlorysEnd {
    /// What `seat` may see of `state` ([`Ruleset::view`]): the secret setup, hidden counters
    /// and the units under the top of enemy stacks stay hidden (GE 3.3, 13.8).
    pub fn view_for(state: &State, seat: &str) -> State {
        let mut v = state.clone();
        secret::view(&mut v, seat);
        counters::view(&mut v, seat);
        view::hide_stacks(&mut v, seat);
        v
    }
}

impl Ruleset for GlorysEnd {
    type State = State;
    type Orders = Orders;
    const ID: &'static str = "glorys-end";
    const VERSION: &'static str = "0.1.0";

    fn setup(text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
        let mut st = setup::from_text_with(text, options, seats)?;
        hentsch::apply_options(&mut st, text, options)?;
        counters::apply_options(&mut st, options)?;
        Ok(st)
    }
    fn expect(state: &State) -> Expectation {
        view::expect(state)
    }
    fn awaited_seats(state: &State) -> Vec<String> {
        // `expect`'s seats, without its heading or its sentences.
        view::awaited_seats(state)
    }
    fn validate(state: &State, seat: &str, orders: Orders) -> Result<Legal<Orders>, Rejected<Orders>> {
        let errs = check(state, seat, &orders);
        if errs.is_empty() { Ok(Legal::accepted(orders)) } else { Err(Rejected { orders, violations: errs }) }
    }
    fn validate_and_apply(state: &mut State, seat: &str, orders: Orders) -> Result<Vec<Event>, Rejected<Orders>> {
        if let Some(side) = state.side_of(seat)
            && let Some((after, events)) = apply_once(state, side, &orders)
        {
            *state = after;
            return Ok(events);
        }
        let legal = Self::validate(state, seat, orders)?;
        Ok(Self::apply(state, seat, legal))
    }
    /// The one pass of `validate_and_apply` without its copy of the state: a straight replay
    /// (`verify`) copied the whole state for every entry only to keep it when nothing failed.
    fn validate_and_apply_in_place(state: &mut State, seat: &str, orders: Orders) -> Result<Vec<Event>, Rejected<Orders>> {
        match state.side_of(seat) {
            Some(side) if one_pass_fits(state, &orders) => steps_once(state, side, &orders).ok_or_else(|| Rejected {
                orders,
                // Not the verdict: the caller replays again with rollback to learn it.
                violations: vec![Violation::new("GE 5.1", "refused by the one-pass replay; the state is spoiled")],
            }),
            _ => Self::validate_and_apply(state, seat, orders),
        }
    }
    fn apply(state: &mut State, seat: &str, orders: Legal<Orders>) -> Vec<Event> {
        let Some(side) = state.side_of(seat) else { return vec![] };
        if secret::in_progress(state) {
            return secret::apply_entry(state, side, orders.get());
        }
        let mut ev = apply_steps(state, side, orders.get());
        ev.extend(counters::hold_outcome(state));
        ev
    }
    fn pending_roll(state: &State) -> Option<String> {
        state.battle.as_ref().filter(|b| b.stage == Stage::Roll).map(|b| b.describe())
    }
    fn resolve(state: &mut State, dice: &mut Dice) -> Vec<Event> {
        let mut ev = Vec::new();
        // One roll, or one per battle of a batch (GE 13.2, `combat::declare_batch`), each
        // battle settled before the next is declared; the bound only guards the loop.
        for _ in 0..=state.units.len() {
            if Self::pending_roll(state).is_none() {
                break;
            }
            let die = dice.roll(6) + 1;
            ev.extend(if siege::pending(state) { siege::roll(state, die, dice) } else { combat::roll(state, die) });
            ev.extend(campaign::after_step(state, None));
            ev.extend(counters::hold_outcome(state));
            ev.extend(combat::next_of_batch(state));
        }
        ev
    }
    /// Glory's End has no hidden choice to keep from the log: its standing instructions are
    /// filed in the game with a `standing` action, where both sides' tools apply them.
    fn standing_orders(_: &State, _: &str, instructions: &yaml_serde::Value) -> Result<Option<Orders>, String> {
        if instructions.is_null() {
            Ok(None)
        } else {
            Err("Glory's End keeps standing instructions in the game: file them with a `standing` action in your orders (docs/glorys-end/rules.md)".into())
        }
    }
    /// GE 13.8: opening every hidden counter once the game is over.
    fn automatic_orders(state: &State, seat: &str) -> Option<Orders> {
        let side = state.side_of(seat)?;
        counters::awaited(state).contains(&side).then(|| Orders { actions: vec![orders::Action(orders::ActionKind::OpenCounters(true))] })
    }
    /// Standing instructions may be filed in any entry a side sends (standing.rs), also the
    /// one that only answers the opponent's dice.
    fn files_out_of_turn(orders: &Orders) -> bool {
        !orders.actions.is_empty() && orders.actions.iter().all(|a| matches!(a.0, orders::ActionKind::Standing(_)))
    }
    fn game_turn(state: &State) -> u32 {
        u32::from(state.turn)
    }
    /// GE 9.1 and 10.1: the rolls that open a player turn (`lead.rs`).
    fn leading_roll(state: &State) -> Option<(String, String)> {
        lead::due(state).map(|what| (state.seat(state.player), what))
    }
    fn resolve_lead(state: &mut State, dice: &mut Dice) -> Vec<Event> {
        if !lead::is_due(state) {
            return vec![];
        }
        let mut ev = lead::roll(state, dice);
        ev.extend(campaign::after_step(state, None));
        ev.extend(counters::hold_outcome(state));
        ev
    }
    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }
    /// GE 13.8: the result waits for every side's `open_counters`.
    fn result_held(state: &State) -> bool {
        state.counters.as_ref().is_some_and(|c| c.pending_outcome.is_some())
    }
    /// What a seat may see: the other side's secret plan only once opened (GE 3.3) and only
    /// the top unit of each enemy stack not under attack (GE 13.8; `view.rs`).
    fn view(state: &State, seat: &str) -> State {
        Self::view_for(state, seat)
    }
    fn random_orders(state: &State, seat: &str, chooser: &mut Dice) -> Option<Orders> {
        legal::random_orders(state, seat, chooser)
    }
    fn template(state: &State, seat: &str) -> String {
        view::template(state, seat)
    }
    fn preview(state: &State, seat: &str, orders: &Orders) -> Vec<String> {
        view::preview(state, seat, orders)
    }
    fn describe(state: &State) -> String {
        view::describe(state)
    }
    fn picture(state: &State) -> crate::render::Picture {
        render::picture(state)
    }
    fn check_invariants(state: &State) -> Result<(), String> {
        view::check_invariants(state)
    }
    fn hidden(state: &mut State, seat: &str, acts: &mut crate::engine::HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        // Counter ids go to `counters.rs`, the rest to the secret setup.
        let mut mine = crate::engine::HiddenActs::default();
        (mine.committed, acts.committed) = std::mem::take(&mut acts.committed).into_iter().partition(|x| counters::is_counter_id(&x.id));
        (mine.opened, acts.opened) = std::mem::take(&mut acts.opened).into_iter().partition(|x| counters::is_counter_id(&x.id));
        // Counters first: a sealed setup plan is opened at the end, after its units (`counters.rs`).
        let mut ev = counters::hidden(state, seat, &mine)?;
        ev.extend(secret::hidden(state, seat, acts)?);
        // GE 13.8: the attacked hex's counters are open: the battle's odds, and its kept die.
        let shown = combat::after_opening(state);
        if !shown.is_empty() {
            ev.extend(shown);
            ev.extend(campaign::after_step(state, None));
        }
        ev.extend(counters::hold_outcome(state));
        Ok(ev)
    }
    /// Counters hold short values, setup plans long ones (`counters::value_bound`).
    fn committed_value_bound(state: &State, id: &str) -> usize {
        counters::value_bound(state, id)
    }
    fn conceal(
        state: &State,
        seat: &str,
        orders: Orders,
        order: &crate::engine::IdOrder,
    ) -> Result<crate::engine::Concealed<Orders>, Vec<Violation>> {
        let c = secret::conceal(state, seat, orders, order)?;
        let h = counters::conceal(state, seat, c.orders, order);
        Ok(crate::engine::Concealed { orders: h.orders, commit: [c.commit, h.commit].concat(), open: [c.open, h.open].concat() })
    }
}
