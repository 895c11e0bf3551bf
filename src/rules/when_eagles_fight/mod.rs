//! When Eagles Fight (GMT, 2014), the Eastern Front 1914–1917 — ruleset `when-eagles-fight`.
//!
//! The second game of the 1914 box: its own map, counters, CRT and sequence of play. Rules
//! by section: `setup` (3.1–3.8), `turn` (5.2 sequence, 3.6), `movement` (12, 6.3, 3.2, 3.5),
//! `stacking` (8), `combat` (13, 6.4, 3.3), `crt` (13.8–13.12, 13.20), `reinforce` (10.1,
//! 10.2, 10.6), `supply` (9.3–9.7), `control` (3.8, 4.2), `victory` (4), `strategic` (11, 9.2,
//! 10.7), `replacements` (10.8–10.14), `withdrawals` (10.15–10.19), `logistics` (their record),
//! `fog` (13.7, the CP's hidden stacks as DESIGN §2.6 commitments). The data file (`scenario`, `board`) holds
//! the representative map, roster and charts. The odds procedure and the concentric
//! geometry are the ones Glory's End uses (`engine::odds`, `geo::hex::concentric`).
//!
//! Much of the game is not built yet; `docs/when-eagles-fight/rules.md` lists every rule of
//! the digest's checklist with its case or the reason it is missing.

pub mod advance;
pub mod ammunition;
pub mod board;
pub mod brusilov;
pub mod cases;
pub mod combat;
pub mod command;
pub mod contribution;
pub mod control;
pub mod crt;
pub mod deploy;
pub mod events;
pub mod fog;
pub mod legal;
pub mod logistics;
pub mod movement;
pub mod orders;
pub mod overstack;
pub mod reinforce;
pub mod replacements;
pub mod retreat;
pub mod scenario;
pub mod setup;
pub mod stacking;
pub mod state;
pub mod strategic;
pub mod supply;
pub mod turn;
pub mod variants;
pub mod victory;
pub mod view;
pub mod withdrawals;

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
    // 13.7: legality is judged with the counters this replay knows as their real units.
    let mut w = fog::unmasked(s);
    let mut errs = Vec::new();
    for (i, a) in orders.actions.iter().enumerate() {
        // 13.7: the fog's own conditions; `reveal` answers in the Russian's phase.
        let fogged = if matches!(a, orders::Action::Reveal) {
            turn::step(&mut w, side, a).err().unwrap_or_default()
        } else {
            fog::check_action(&w, side, a)
        };
        if !fogged.is_empty() || matches!(a, orders::Action::Reveal) {
            let stop = !fogged.is_empty() && fog::blind_pending(&w);
            errs.extend(fogged.into_iter().map(|mut v| {
                v.message = format!("action {}: {}", i + 1, v.message);
                v
            }));
            if stop {
                break;
            }
            continue;
        }
        if turn::must_end(&w, a) {
            errs.push(Violation::new("WEF 13.20", format!("action {} comes after a roll: the entry must end there", i + 1)));
            break;
        }
        if w.outcome.is_some() {
            errs.push(Violation::new("WEF 4.1", format!("action {} comes after the end of the game", i + 1)));
            break;
        }
        // 3.9: the Russian deploys first, then the CP.
        if let Some(v) = deploy::out_of_turn(&w, side) {
            errs.push(Violation::new(v.rule, format!("action {}: {}", i + 1, v.message)));
            break;
        }
        if let Some(p) = ammunition::placing(&w).filter(|&p| p != side) {
            errs.push(Violation::new("WEF 9.11", format!("action {}: the {} player places his ammunition markers now", i + 1, p.title())));
            break;
        }
        if turn::actor(&w) != side {
            errs.push(Violation::new(
                "WEF 5.2",
                format!("action {}: the phase has passed to the {} player", i + 1, turn::actor(&w).title()),
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
        deploy::expect(state).or_else(|| fog::expect(state)).unwrap_or_else(|| turn::expect(state))
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
        if fog::blind_pending(state) {
            return fog::pending_roll(state);
        }
        if let Some(b) = &state.battle {
            return Some(format!("combat at {}: CRT roll ({} column, DRM {:+})", b.target, combat::column_label(state, b), b.drm));
        }
        (state.phase == Phase::VictoryCheck && state.outcome.is_none())
            .then(|| format!("revolution roll at the victory check of turn {} (WEF 4.4)", state.turn))
            .or_else(|| events::roll_due(state))
            .or_else(|| ammunition::roll_due(state))
    }
    fn resolve(state: &mut State, dice: &mut Dice) -> Vec<Event> {
        if fog::pending_roll(state).is_some() {
            let die = dice.d6();
            return fog::keep_die(state, die);
        }
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
    /// 13.7: the Russian never sees what the CP's counters are (`fog.rs`).
    fn view(state: &State, seat: &str) -> State {
        let mut v = state.clone();
        fog::view(&mut v, seat);
        v
    }
    /// The bot plays on its counters as the units they are (its own view knows them).
    fn random_orders(state: &State, seat: &str, chooser: &mut Dice) -> Option<Orders> {
        if let Some(o) = fog::automatic_orders(state, seat) {
            return Some(o);
        }
        if fog::blind_pending(state) {
            return None;
        }
        legal::random_orders(&fog::unmasked(state), seat, chooser)
    }
    fn automatic_orders(state: &State, seat: &str) -> Option<Orders> {
        fog::automatic_orders(state, seat)
    }
    fn hidden(state: &mut State, seat: &str, acts: &mut crate::engine::HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        fog::hidden(state, seat, acts)
    }
    fn conceal(
        state: &State,
        seat: &str,
        orders: Orders,
        order: &crate::engine::IdOrder,
    ) -> Result<crate::engine::Concealed<Orders>, Vec<Violation>> {
        Ok(fog::conceal(state, seat, orders, order))
    }
    fn committed_value_bound(_state: &State, id: &str) -> usize {
        fog::value_bound(id)
    }
    fn template(state: &State, seat: &str) -> String {
        view::template(state, seat)
    }
    fn preview(state: &State, seat: &str, orders: &Orders) -> Vec<String> {
        let Some(side) = state.side_of(seat) else { return vec![] };
        let mut s = state.clone();
        let mut out = Vec::new();
        for a in &orders.actions {
            if turn::must_end(&s, a) {
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
