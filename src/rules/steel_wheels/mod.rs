//! WWII Steel Wheels (Ruote d'Acciaio II G.M. v2.5), miniatures on a continuous table —
//! ruleset `steel-wheels`. A first, partial slice (issue 24).
//!
//! Built: the representative charts and roster as versioned data (`data`), a representative
//! battle (`scenario`), the manoeuvre sequence with tokens, IT and free order (`turn`),
//! movement on the integer table geometry (`movement`, `src/geo/table/`), spotting, line of
//! sight and direct fire with penetration, damage, escalation, CTs and the skip-fire test
//! (`fire`), panic
//! recovery, indirect fire pre-planned on a target hidden among decoys as DESIGN §2.6
//! commitments (`indirect`), infantry assault and close combat (`assault`), opportunity fire
//! on a simple Move (`opportunity`), embarking, dismounting and passengers (`transport`),
//! infantry entering, climbing in and leaving buildings (`buildings`), and
//! destruction/conquest victory. `docs/steel-wheels/rules.md` lists every
//! checklist item with its rule case or why it is not built.
//!
//! Dice: every roll is an ordinary roll of the entry that made it (DESIGN §2.5), resolved
//! by the other seat's next entry; an entry ends at its first random action.

pub mod assault;
pub mod building_fire;
pub mod buildings;
pub mod cases;
pub mod data;
pub mod fire;
pub mod fragments;
pub mod indirect;
pub mod legal;
pub mod movement;
pub mod opportunity;
pub mod orders;
pub mod scenario;
pub mod state;
pub mod transport;
pub mod turn;
pub mod view;

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::{Await, Event, Expectation, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo};

pub use orders::Orders;
pub use state::State;
use state::{Phase, Unit};

/// The ruleset.
pub struct SteelWheels;

fn setup(text: &str, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
    let sc = scenario::Scenario::from_text(text)?;
    let by_side = crate::engine::one_seat_per_side(seats, sc.sides.iter().map(|s| s.id.as_str()))?;
    let units: Vec<Unit> = sc
        .units
        .iter()
        .map(|u| {
            let army = sc.side(&u.side).map(|s| s.army.clone()).unwrap_or_default();
            let card = data::data().card(&army, &u.card).expect("checked");
            let (figures, leaders) = card.crew.as_ref().map(|c| (c.count, c.leaders.len() as u32)).unwrap_or((1, 0));
            Unit {
                id: u.id.clone(),
                side: u.side.clone(),
                platoon: u.platoon.clone(),
                card: u.card.clone(),
                army,
                at: u.at,
                heading: u.heading,
                figures,
                leaders,
                moving: false,
                reversing: false,
                fired: false,
                acted: false,
                panic: false,
                mobility: 0,
                gun_jammed: false,
                lost_weapons: vec![],
                weapon_mark: false,
                destroyed: false,
                burning: false,
                exploded: false,
                eliminated: false,
                aboard: None,
                no_fire: false,
                boarded: 0,
                unloaded: false,
                inside: None,
            }
        })
        .collect();
    let mut s = State {
        declarer: sc.attacker.clone(),
        scenario: sc,
        seats: by_side,
        turn: 1,
        manoeuvre: 1,
        tokens: BTreeMap::new(),
        manoeuvred: vec![],
        units,
        phase: Phase::Over,
        pending: None,
        outcome: None,
        plans: vec![],
        last_turn: None,
        asked: vec![],
        held: vec![],
        comm_tests: vec![],
        ruins: vec![],
        melees: vec![],
        fresh: vec![],
        window: None,
    };
    for u in &s.units {
        if let Some(p) = movement::end_problem(&s, u, &u.footprint()) {
            return Err(ScenarioError { problems: vec![format!("the set-up breaks the rules: {p}")] });
        }
    }
    turn::start_turn(&mut s);
    Ok(s)
}

impl Ruleset for SteelWheels {
    type State = State;
    type Orders = Orders;
    const ID: &'static str = "steel-wheels";
    const VERSION: &'static str = "0.1.0";

    fn setup(text: &str, _options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
        setup(text, seats)
    }
    fn expect(s: &State) -> Expectation {
        let awaits = match (turn::due_side(s), &s.phase) {
            (Some(side), _) if s.window.is_some() => vec![Await { seat: s.seat_of(&side), what: s.phase_text() }],
            (Some(side), Phase::Act { queue, free }) => vec![Await {
                seat: s.seat_of(&side),
                what: if *free {
                    format!("act with one of {} (SW-TOK-3)", queue.join(", "))
                } else {
                    format!("act with {} (SW-SEQ-4)", queue.first().cloned().unwrap_or_default())
                },
            }],
            (Some(side), _) => vec![Await { seat: s.seat_of(&side), what: s.phase_text() }],
            _ => vec![],
        };
        Expectation { when: s.phase_text(), awaits }
    }
    fn validate(s: &State, seat: &str, orders: Orders) -> Result<Legal<Orders>, Rejected<Orders>> {
        crate::engine::pure_step::validate(turn::run, s, seat, orders)
    }
    fn apply(s: &mut State, seat: &str, orders: Legal<Orders>) -> Vec<Event> {
        crate::engine::pure_step::apply(turn::run, s, seat, orders)
    }
    fn validate_and_apply(s: &mut State, seat: &str, orders: Orders) -> Result<Vec<Event>, Rejected<Orders>> {
        crate::engine::pure_step::validate_and_apply(turn::run, s, seat, orders)
    }
    fn pending_roll(s: &State) -> Option<String> {
        s.pending.as_ref().map(|p| match p {
            state::Pending::Initiative { units, .. } => format!("SW-SEQ-2: IT rolls of {}", units.join(", ")),
            state::Pending::Fire(f) => format!("SW-FIRE-1: {} fires at {}", f.firer, f.target),
            state::Pending::Recovery { unit } => format!("SW-PAN-2: {unit} tries to recover"),
            state::Pending::Ifr { plan } => format!("SW-IFP-2: the IFR test of {plan}"),
            state::Pending::Barrage { side } => format!("SW-IF-1: the shots of {side}'s batteries"),
            state::Pending::Assault(a) => format!("SW-ASL-1: {} assaults {}", a.attacker, a.target),
            state::Pending::Melee { defender } => format!("SW-ASL-4: the CT of {defender}, assaulted and still in contact"),
            state::Pending::EndRoll => format!("SW-DUR-1: the end roll after turn {}, a D6 per side", s.turn),
            state::Pending::Opportunity(v) => format!(
                "SW-OPP-3: opportunity fire on {} by {}",
                v.window.mover,
                v.shots.iter().map(|s| s.plan.firer.as_str()).collect::<Vec<_>>().join(", ")
            ),
        })
    }
    fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
        turn::resolve(s, dice)
    }
    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }
    fn game_turn(s: &State) -> u32 {
        s.turn
    }
    /// Positions are not hidden (G.2): spotting only limits targeting. Which marker of an
    /// enemy fire plan is real is hidden until it is opened (IFP-5).
    fn view(s: &State, seat: &str) -> State {
        let mut v = s.clone();
        let side = s.side_of(seat).map(str::to_string);
        for p in v.plans.iter_mut() {
            if !p.opened && Some(&p.side) != side.as_ref() {
                p.real = None;
            }
        }
        v
    }
    fn hidden(s: &mut State, seat: &str, acts: &mut crate::engine::HiddenActs) -> Result<Vec<Event>, Vec<crate::engine::Violation>> {
        indirect::hidden(s, seat, acts)
    }
    fn conceal(
        s: &State,
        seat: &str,
        orders: Orders,
        order: &crate::engine::IdOrder,
    ) -> Result<crate::engine::Concealed<Orders>, Vec<crate::engine::Violation>> {
        indirect::conceal(s, seat, orders, order)
    }
    fn committed_value_bound(_s: &State, id: &str) -> usize {
        indirect::value_bound(id)
    }
    /// Phase 4 leaves no choice: open the plans due and fire; nor does the CT of a squad
    /// still in a melee (ASL-4).
    fn automatic_orders(s: &State, seat: &str) -> Option<Orders> {
        // OPP-3: firing on a move or passing is a choice.
        if s.window.is_some() {
            return None;
        }
        match &s.phase {
            Phase::Barrage { side } if s.pending.is_none() && s.seat_of(side) == seat => {
                Some(Orders { barrage: true, ..Orders::default() })
            }
            // ASL-4: the squad due is assaulted and still in contact; its CT is its only action.
            Phase::Act { queue, free: false } if s.pending.is_none() => {
                let id = queue.first()?;
                let u = s.unit(id)?;
                (s.seat_of(&u.side) == seat && assault::as_defender(s, id).is_some()).then(|| Orders {
                    actions: vec![orders::Action { unit: id.clone(), melee: true, ..Default::default() }],
                    ..Orders::default()
                })
            }
            _ => None,
        }
    }
    fn random_orders(s: &State, seat: &str, chooser: &mut Dice) -> Option<Orders> {
        legal::random_orders(s, seat, chooser)
    }
    fn template(s: &State, seat: &str) -> String {
        view::template(s, seat)
    }
    fn preview(s: &State, seat: &str, orders: &Orders) -> Vec<String> {
        crate::engine::pure_step::preview(turn::run, s, seat, orders)
    }
    fn describe(s: &State) -> String {
        view::describe(s)
    }
    fn picture(s: &State) -> crate::render::Picture {
        view::picture(s)
    }
    fn check_invariants(s: &State) -> Result<(), String> {
        view::check_invariants(s)
    }
}
