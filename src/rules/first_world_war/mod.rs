//! The First World War (Phalanx, 2004) — ruleset `first-world-war`, 2 to 4 players.
//!
//! Factions are seats, alliances are sides (DESIGN §2). Rules by section: `turn` (4.2
//! sequence, deployment and garrisons, Move, Strategic Transfer, replacements, Brest-Litovsk),
//! `combat` (6.0-6.3), `victory` (6.4-6.6, 4.2/3, 6.5 surrender, 8.0), `setup` (3.0, 9.3),
//! `scenario` (the data file). Players' docs: `docs/first-world-war/rules.md`.
//!
//! Hidden information (DESIGN §2.6): face-down pieces are commitments (`pieces`); chit
//! hands, draws, placements and returns are hidden (`chits`). See the docs, "Status".

pub mod cases;
pub mod chits;
pub mod combat;
pub mod legal;
pub mod order;
pub mod orders;
pub mod pieces;
pub mod scenario;
pub mod setup;
pub mod standing;
pub mod state;
pub mod turn;
pub mod victory;
pub mod view;

use crate::dice::Dice;
use crate::engine::{
    Await, Concealed, Event, Expectation, HiddenActs, IdOrder, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo, Violation,
};

pub use orders::Orders;
pub use state::State;
use state::{CombatStep, Stage};

/// The ruleset.
pub struct FirstWorldWar;

/// Whether the state waits for dice (an entry must end there).
pub fn rolling(s: &State) -> bool {
    s.stage == Stage::Surrender
        || s.stage == Stage::OrderRoll
        || (s.stage == Stage::Combat && s.combat.as_ref().is_some_and(|c| c.step == CombatStep::Roll) && chits::ready(s))
        || (s.stage == Stage::Combat && s.combat.as_ref().is_some_and(|c| c.step == CombatStep::DrawRoll))
}

/// Check every action of an entry in order on a copy of the state.
pub fn check(state: &State, seat: &str, orders: &Orders) -> Vec<Violation> {
    if !state.seats.values().any(|s| s == seat) {
        return vec![Violation::new("TFWW 1.0", format!("{seat} is not a seat of this game"))];
    }
    if orders.actions.is_empty() {
        return vec![Violation::new("TFWW 4.2", "the orders hold no action")];
    }
    let mut s = state.clone();
    if chits::pending_reveal(&s) {
        return chits::reveal(&mut s, seat, orders).err().unwrap_or_default();
    }
    // Pieces the rules turned face down before this entry (not those a combat it ends turns
    // down: those wait for the seat's next entry).
    let due = if matches!(s.stage, Stage::Deploy(_) | Stage::Round) { pieces::due_down(&s, seat) } else { vec![] };
    let mut errs = Vec::new();
    // 6.2: the S-draw is decided before anything else the seat does (what its tool writes,
    // `hide` and `back`, may come before it).
    let late = orders.actions.iter().enumerate().find(|(i, a)| {
        matches!(a, orders::Action::Draw(_))
            && orders.actions[..*i].iter().any(|b| !matches!(b, orders::Action::Hide(_) | orders::Action::Back { .. }))
    });
    if let Some((i, _)) = late {
        return vec![Violation::new("TFWW 6.2", format!("action {}: `draw` comes first in the entry", i + 1))];
    }
    for (i, a) in orders.actions.iter().enumerate() {
        if rolling(&s) || s.outcome.is_some() {
            errs.push(Violation::new("TFWW 6.1/4", format!("action {} comes after a roll: the entry must end there", i + 1)));
            break;
        }
        if let Err(e) = step(&mut s, seat, a) {
            errs.extend(e.into_iter().map(|mut v| {
                v.message = format!("action {}: {}", i + 1, v.message);
                v
            }));
            break;
        }
    }
    if errs.is_empty() {
        errs.extend(chits::finish(&s, seat));
        errs.extend(pieces::unused(&s));
        errs.extend(pieces::left_face_up(&s, seat, orders, &due));
    }
    errs
}

/// The longest value a commitment of this ruleset holds (sealed notes are padded to it).
pub const COMMITTED_VALUE_BOUND: usize = 64;

/// One action: the hidden-chit actions first (`chits::step`), else the sequence of play.
fn step(s: &mut State, seat: &str, a: &orders::Action) -> Result<Vec<Event>, Vec<Violation>> {
    chits::step(s, seat, a).unwrap_or_else(|| turn::step(s, seat, a))
}

impl Ruleset for FirstWorldWar {
    type State = State;
    type Orders = Orders;
    const ID: &'static str = "first-world-war";
    const VERSION: &'static str = "0.1.0";

    fn setup(text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
        setup::from_text(text, options, seats)
    }
    fn expect(state: &State) -> Expectation {
        if chits::pending_reveal(state) {
            return chits::expect_reveal(state);
        }
        let mut e = view::expect(state);
        if let Some(seat) = chits::opener(state) {
            // The roll waits for every chit face up: the opener is the one seat expected
            // (DESIGN §2.5, one seat at a time).
            e.awaits = vec![Await { seat: seat.clone(), what: format!("{seat}: turn your chit face up (`open_chit`, TFWW 6.1/5)") }];
        }
        e
    }
    fn validate(state: &State, seat: &str, orders: Orders) -> Result<Legal<Orders>, Rejected<Orders>> {
        let mut errs = chits::plain_names(state, &orders);
        errs.extend(check(state, seat, &orders));
        if errs.is_empty() { Ok(Legal::accepted(orders)) } else { Err(Rejected { orders, violations: errs }) }
    }
    fn apply(state: &mut State, seat: &str, orders: Legal<Orders>) -> Vec<Event> {
        let mut ev = Vec::new();
        if chits::pending_reveal(state) {
            return chits::reveal(state, seat, orders.get()).unwrap_or_default();
        }
        // A seat that plays several factions (2 or 3 players, TFWW 1.0) acts for whichever is
        // due at each action: the record says which, so `[pass, pass]` is never silent.
        let several = state.factions_of(seat).len() > 1;
        let mut first = None;
        for (i, a) in orders.get().actions.iter().enumerate() {
            if rolling(state) || state.outcome.is_some() {
                break;
            }
            if several && let Some((_, f, _)) = turn::awaited(state).filter(|(who, _, _)| who == seat) {
                if first.is_some_and(|g| g != f) {
                    ev.push(Event::say(format!("action {} is taken for {}, the faction of {seat} due now", i + 1, f.code())));
                }
                first.get_or_insert(f);
            }
            match step(state, seat, a) {
                Ok(e) => ev.extend(e),
                Err(v) => ev.extend(v.into_iter().map(|v| Event::rule(v.rule.clone(), format!("skipped: {v}")))),
            }
        }
        chits::on_outcome(state);
        ev
    }
    fn pending_roll(state: &State) -> Option<String> {
        if state.stage == Stage::Surrender {
            return Some(format!("surrender rolls at the victory check of turn {}", state.turn));
        }
        if state.stage == Stage::OrderRoll {
            return Some(format!("play order rolls for turn {} (TFWW 9.2)", state.turn));
        }
        rolling(state).then(|| combat::describe_roll(state))
    }
    fn resolve(state: &mut State, dice: &mut Dice) -> Vec<Event> {
        let mut ev = Vec::new();
        if state.stage == Stage::Combat && rolling(state) {
            if state.combat.as_ref().is_some_and(|c| c.step == CombatStep::DrawRoll) {
                ev.extend(combat::draw_roll(state, dice));
            } else {
                ev.extend(combat::roll(state, dice));
            }
        }
        if state.stage == Stage::Surrender {
            ev.extend(victory::surrender_rolls(state, dice));
        }
        ev.extend(turn::advance(state));
        // RND-5: the new turn's 9.2 order rolls come from the same entry's dice.
        if state.stage == Stage::OrderRoll {
            ev.extend(order::roll(state, dice));
            ev.extend(turn::advance(state));
        }
        chits::on_outcome(state);
        ev
    }
    /// TFWW 6.0 and 4.2/3: turning up the face-down pieces due; 6.1/1: no defence chit from
    /// an empty hand; at the end, the chit reveal.
    fn automatic_orders(state: &State, seat: &str) -> Option<Orders> {
        let action = if chits::pending_reveal(state) {
            state.chits.reveal_due.first().filter(|s| *s == seat).map(|_| orders::Action::RevealChits)?
        } else if let Some(opener) = chits::opener(state) {
            // 6.1/5: the attacker turns up the chit it placed; nothing to choose.
            if opener != seat {
                return None;
            }
            orders::Action::OpenChit
        } else {
            let (due, _, _) = turn::awaited(state)?;
            if due != seat {
                return None;
            }
            let empty_hand = state.hands.get(seat).is_none_or(|h| h.is_empty());
            match (&state.stage, &state.combat) {
                (state::Stage::Reveal, _) => orders::Action::Reveal(vec![]),
                (state::Stage::Combat, Some(c)) if c.step == state::CombatStep::Reveal => orders::Action::Reveal(vec![]),
                (state::Stage::Combat, Some(c)) if c.step == state::CombatStep::DefenderChit && empty_hand => orders::Action::Chit(None),
                _ => return None,
            }
        };
        // A chit return owed at the hand limit (6.2.1) is a choice unless one chit is held;
        // and the orders must pass the rules as the author's tool will write them.
        let ways = chits::with_limit_return(state, seat, vec![action]);
        match ways.as_slice() {
            [one] => legal::ok(state, seat, one.clone()),
            _ => None,
        }
    }
    /// Combat steps, the discard and the replacements by the seat's own instructions
    /// (`standing.rs`).
    fn standing_orders(state: &State, seat: &str, instructions: &yaml_serde::Value) -> Result<Option<Orders>, String> {
        let i = standing::Instructions::parse(instructions)?;
        Ok(standing::orders(state, seat, &i))
    }
    /// A bot seat keeps instructions for every step they cover, as a player sparing mail
    /// does (the soak tests also play seats that decide each step by hand).
    fn bot_instructions(_seat: &str, chooser: &mut Dice) -> Option<yaml_serde::Value> {
        let chit = if chooser.roll(4) == 0 { "none" } else { "best" };
        let lead = if chooser.roll(4) == 0 { "weakest" } else { "strongest" };
        let draw = chooser.roll(6) != 0;
        let text = format!("{{chit: {chit}, lead: {lead}, draw: {draw}, discard: weakest, replace: strongest}}");
        yaml_serde::from_str(&text).ok()
    }
    fn game_turn(state: &State) -> u32 {
        u32::from(state.turn)
    }
    fn outcome(state: &State) -> Option<Outcome> {
        // The engine holds the result until every commitment is open (DESIGN §2.6), so the
        // rules' `reveal_chits` (and any opening left) come before it stands.
        state.outcome.clone()
    }
    /// Other alliances' chit hands (`chits::view`) and other seats' face-down pieces (but
    /// partners', 3-4 players; `pieces::strip`) are hidden.
    fn view(state: &State, seat: &str) -> State {
        let mut v = chits::view(state, seat);
        pieces::strip(&mut v, seat);
        v
    }
    fn random_orders(state: &State, seat: &str, chooser: &mut Dice) -> Option<Orders> {
        if chits::pending_reveal(state) {
            return chits::bot_orders(state, seat, None);
        }
        if chits::opener(state).as_deref() == Some(seat) {
            return Some(Orders { actions: vec![orders::Action::OpenChit] });
        }
        let o = legal::random_orders(state, seat, chooser);
        chits::bot_orders(state, seat, o)
    }
    fn template(state: &State, seat: &str) -> String {
        if chits::pending_reveal(state) && state.chits.reveal_due.contains(seat) {
            return "# the game is over: open every chit draw and return\nactions:\n  - reveal_chits\n".into();
        }
        if chits::opener(state).as_deref() == Some(seat) {
            return "# turn your placed chit face up (TFWW 6.1/5)\nactions:\n  - open_chit\n".into();
        }
        view::template(state, seat)
    }
    fn preview(state: &State, seat: &str, orders: &Orders) -> Vec<String> {
        let mut s = state.clone();
        let mut out = Vec::new();
        let several = s.factions_of(seat).len() > 1;
        for (i, a) in orders.actions.iter().enumerate() {
            if rolling(&s) {
                out.push("then the dice decide".into());
                break;
            }
            // Which of the seat's factions each action is taken for (TFWW 1.0).
            let tag = match turn::awaited(&s) {
                Some((who, f, _)) if several && who == seat => format!("action {} for {}: ", i + 1, f.code()),
                _ => String::new(),
            };
            match turn::step(&mut s, seat, a) {
                Ok(ev) => out.extend(ev.into_iter().map(|e| format!("{tag}{}", e.text))),
                Err(v) => {
                    // Marked as a refusal, so `orders check` never lists it as what happens.
                    out.extend(v.into_iter().map(|v| format!("refused: {v}")));
                    break;
                }
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

    /// Pieces (`piece-<n>`) and chits (`chit@…`, `draw@…`) each take their own ids.
    fn hidden(state: &mut State, seat: &str, acts: &mut HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        let pieces = pieces::hidden(state, seat, acts);
        let chits = chits::hidden(state, seat, acts);
        match (pieces, chits) {
            (Ok(mut a), Ok(b)) => {
                a.extend(b);
                Ok(a)
            }
            (Err(mut a), Err(b)) => {
                a.extend(b);
                Err(a)
            }
            (Err(a), _) | (_, Err(a)) => Err(a),
        }
    }
    /// Chit values first, then piece identities, on the same orders.
    fn conceal(state: &State, seat: &str, orders: Orders, order: &IdOrder) -> Result<Concealed<Orders>, Vec<Violation>> {
        let c = chits::conceal(state, seat, orders)?;
        let mut p = pieces::conceal(state, seat, c.orders, order)?;
        p.commit.splice(0..0, c.commit);
        p.open.splice(0..0, c.open);
        Ok(p)
    }
    /// Every value this ruleset commits is `army:<id>`, `dummy` or `chit:<id>`, all far
    /// shorter (`tests::every_committed_value_fits_its_bound`); private draws are the engine's.
    fn committed_value_bound(_state: &State, _id: &str) -> usize {
        COMMITTED_VALUE_BOUND
    }
    fn private_draws(state: &mut State) -> Vec<String> {
        chits::take_draws(state)
    }
    fn settle_draw(state: &mut State, seat: &str, draw_id: &str, dice: Option<&mut Dice>) -> Vec<Event> {
        chits::settle(state, seat, draw_id, dice)
    }
    /// With 3 or 4 players the partners of an alliance read each other's sealed values: one
    /// cup (docs: "Partners") and German armies under German-Allies control (`pieces`).
    fn partners_share(state: &State) -> bool {
        pieces::partners_share(state)
    }
    /// F.8: under the `forfeit` policy (the default) the cheating seat's alliance forfeits.
    fn cheat_verdict(state: &State, seat: &str) -> Option<String> {
        victory::cheat_verdict(state, seat)
    }
}
