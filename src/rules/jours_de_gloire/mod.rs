//! Jours de Gloire (Vae Victis series rules, version 2021), Napoleonic battles — ruleset
//! `jours-de-gloire`. A tenth slice (issue 23).
//!
//! Built: the scenario data (`scenario`, representative Marengo battle), tactical groups
//! and their secret orders as commitments opened at the formation's first activation
//! (`command`, JDG 2.3–2.4, digest F.4), the activation cup drawn one marker at a time as a
//! leading roll of the drawing seat's entry (`turn`, JDG 1, 2.2; DESIGN §2.5), movement
//! with terrain, roads, facing, stacking and ZOC (`movement`, JDG 4, 5.1, 6), the
//! commander-in-chief's move, and VP victory (JDG 13); artillery fire (`fire`, JDG 7),
//! disorder, rout, fall back and the rout retreat (`disorder`, JDG 10), rally and
//! demoralisation (`rally`, JDG 11); melee with its engagement tests (`melee`, JDG 8, 0.4.2,
//! 5.1.3, 6.1.2); cavalry charges and pursuit with the square test, recall and
//! counter-charge (`charge`, JDG 9) and squares (`movement`, JDG 4.2); the strategic
//! initiative of phase B and the leader-initiative test (`initiative`, JDG 3, 2.4.3);
//! reinforcements (`reinforce`, JDG 5.2); cavalry refusal by standing policy (`refusal`,
//! JDG 8.8); the counter-attack by standing policy (`counter`, JDG 8.7.2); rout moves in
//! phase E and instead of a routed unit's cohesion test (`rout`, JDG 10.4), with the tests
//! of the units they pass through (JDG 10.5); the breakthrough (`melee`, JDG 8.7.2);
//! counter-battery and reaction fire by standing policies (`reaction`, JDG 7.1, 8.3.3); the
//! commander-in-chief's evasion by standing policy, his following a retreat or rout and his
//! elimination (`chief`, JDG 2.5.2); the attacked cavalry's pursuit by standing policy
//! (`charge::answer`, JDG 9.4, 9.5.1); the battle's combined activation markers, chosen in
//! phase A (the first side's choice committed), drawn like any marker and activating their
//! formations together (`cam`, JDG 2.1.2, 2.2); a further general taking command when the
//! commander-in-chief falls (`chief`, JDG 2.5.2). Not built: a charge combined with a melee;
//! `docs/jours-de-gloire/rules.md` lists every checklist item with its case
//! or the reason it is missing.
//!
//! Turn flow by mail: phase A, each seat in turn commits its groups' orders; the first
//! side's next entry opens with the strategic-initiative dice (a leading roll) and the winner
//! picks the first marker or declines; then every draw opens the entry of the side that did not act last (its leading roll, fixed by the
//! other side's latest reveal), and that entry carries the activation when the drawn
//! formation is its own; otherwise it is a bare draw and the owner acts next.

pub mod cam;
pub mod cases;
pub mod charge;
pub mod chief;
pub mod command;
pub mod counter;
pub mod disorder;
pub mod fire;
pub mod initiative;
pub mod legal;
pub mod melee;
pub mod movement;
pub mod orders;
pub mod rally;
pub mod reaction;
pub mod refusal;
pub mod reinforce;
pub mod rout;
pub mod scenario;
pub mod state;
pub mod turn;
pub mod view;

use crate::dice::Dice;
use crate::engine::{Await, Event, Expectation, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo, Violation};

pub use orders::Orders;
pub use state::State;
use state::{Chief, Phase, Unit};

/// The ruleset.
pub struct JoursDeGloire;

/// Build the starting state.
fn setup(text: &str, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
    let sc = scenario::Scenario::from_text(text)?;
    let by_side = crate::engine::one_seat_per_side(seats, sc.sides.iter().map(|s| s.id.as_str()))?;
    let units = sc
        .units
        .iter()
        .map(|u| Unit {
            id: u.id.clone(),
            side: sc.formation(&u.formation).map(|f| f.side.clone()).unwrap_or_default(),
            formation: u.formation.clone(),
            kind: u.kind,
            hex: u.hex,
            facing: u.facing,
            disordered: false,
            routed: false,
            square: false,
            arrives: if u.hex.is_none() { sc.schedule_of(&u.id).map(|r| r.turn) } else { None },
            marker: false,
            or_turn: None,
            sheltered: false,
        })
        .collect();
    let chiefs = sc
        .sides
        .iter()
        .map(|d| Chief { side: d.id.clone(), hex: d.commander.hex, moved: false, near: vec![], alone: false, general: None })
        .collect();
    let holder = sc.victory.holder.clone();
    let mut s = State {
        scenario: sc,
        seats: by_side,
        turn: 1,
        phase: Phase::Over,
        units,
        chiefs,
        groups: vec![],
        cup: vec![],
        aside: vec![],
        acted: vec![],
        fire: None,
        rally: None,
        melee: None,
        charge: None,
        leader: None,
        tested: vec![],
        initiative: None,
        trail: vec![],
        melee_done: false,
        meleed: vec![],
        fired: vec![],
        fire_closed: false,
        demoralised: vec![],
        column: 0,
        refusal: std::collections::BTreeMap::new(),
        refused: vec![],
        counter: std::collections::BTreeMap::new(),
        rout: std::collections::BTreeMap::new(),
        passed: vec![],
        phase_e: false,
        broke: vec![],
        joined: vec![],
        counter_battery: std::collections::BTreeMap::new(),
        reaction: std::collections::BTreeMap::new(),
        reacted: vec![],
        evasion: std::collections::BTreeMap::new(),
        fallen: vec![],
        lost: vec![],
        pursuit: std::collections::BTreeMap::new(),
        chosen: vec![],
        sealed_cams: vec![],
        activated: vec![],
        holder,
        outcome: None,
    };
    // Artillery on top of its stack from the start (5.1.2).
    s.units.sort_by_key(|u| u.kind == scenario::Kind::Artillery);
    for h in s.units.iter().filter_map(|u| u.hex).collect::<std::collections::BTreeSet<_>>() {
        if let Some(p) = movement::stack_problem(&s, h).or_else(|| movement::facing_problem(&s, h)) {
            return Err(ScenarioError { problems: vec![format!("the set-up breaks the rules in {h}: {p}")] });
        }
    }
    // 5.2.3: nobody sets up on an enemy entry hex or next to it.
    if let Some(u) = s.units.iter().find(|u| u.hex.is_some_and(|h| reinforce::closed(&s, &u.side, h))) {
        return Err(ScenarioError {
            problems: vec![format!("{} sets up on or next to an enemy reinforcement entry hex (JDG 5.2.3)", u.id)],
        });
    }
    for side in s.scenario.sides.iter().map(|d| d.id.clone()).collect::<Vec<_>>() {
        chief::settle(&mut s, &side);
    }
    turn::start_turn(&mut s);
    Ok(s)
}

impl Ruleset for JoursDeGloire {
    type State = State;
    type Orders = Orders;
    const ID: &'static str = "jours-de-gloire";
    const VERSION: &'static str = "0.1.0";

    fn setup(text: &str, _options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
        setup(text, seats)
    }
    fn expect(s: &State) -> Expectation {
        let awaits = match &s.phase {
            Phase::Orders { side } => {
                let n = command::groups_of(s, side).count();
                vec![Await { seat: s.seat_of(side), what: format!("give secret orders (OR/SO) to your {n} tactical groups (JDG 2.3.2)") }]
            }
            Phase::Initiative { side } => vec![Await {
                seat: s.seat_of(side),
                what: "your entry opens with the strategic-initiative dice (JDG 3); if you win, pick your first marker or decline".into(),
            }],
            Phase::Pick { side } => vec![Await {
                seat: s.seat_of(side),
                what: "you won the strategic initiative (JDG 3): `first: formation/n` and act with it, or `first: decline`".into(),
            }],
            Phase::Reveal { side } => vec![Await {
                seat: s.seat_of(side),
                what: match &s.initiative {
                    Some(w) if w == side => "open your phase-A CAM choice (`open_cams: true`, JDG 2.1.2) and, as the strategic-initiative winner, `first: formation/n` and act with it, or `first: decline` (JDG 3)".into(),
                    _ => "open your phase-A CAM choice (`open_cams: true`, JDG 2.1.2)".into(),
                },
            }],
            Phase::Draw { side } => vec![Await {
                seat: s.seat_of(side),
                what: format!("draw an activation marker from the cup ({} left, JDG 2.2); act with it if it is yours", s.cup.len()),
            }],
            Phase::Activation { am, side } => {
                vec![Await { seat: s.seat_of(side), what: format!("act with {} ({am}), then end_activation (JDG 2.4, 4)", s.am_label(am)) }]
            }
            Phase::Over => vec![],
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
        initiative::pending(s)
            .or_else(|| fire::pending(s))
            .or_else(|| melee::pending(s))
            .or_else(|| charge::pending(s))
            .or_else(|| rally::pending(s))
            .or_else(|| rout::pending(s))
    }
    fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
        let ev = if s.leader.is_some() {
            initiative::resolve(s, dice)
        } else if s.fire.is_some() {
            fire::resolve(s, dice)
        } else if s.melee.is_some() {
            melee::resolve(s, dice)
        } else if s.charge.is_some() {
            charge::resolve(s, dice)
        } else {
            rally::resolve(s, dice)
        };
        let mut ev = ev;
        // 10.5: the units passed through test (or rout-move) once the resolution is over;
        // a phase E that waited for them goes on.
        ev.extend(rout::pass_tests(s, dice));
        if s.phase_e {
            s.phase_e = false;
            ev.extend(turn::after_phase_e(s));
        }
        s.trail.clear();
        ev.extend(reinforce::sweep(s));
        ev.extend(chief::sweep(s));
        ev
    }
    fn leading_roll(s: &State) -> Option<(String, String)> {
        match &s.phase {
            Phase::Draw { side } => Some((s.seat_of(side), format!("JDG 2.2: the cup draw among {} markers", s.cup.len()))),
            Phase::Initiative { side } => Some((s.seat_of(side), initiative::lead_text(s))),
            _ => None,
        }
    }
    fn resolve_lead(s: &mut State, dice: &mut Dice) -> Vec<Event> {
        match s.phase {
            Phase::Draw { .. } => turn::draw(s, dice),
            Phase::Initiative { .. } => initiative::roll_strategic(s, dice),
            _ => vec![],
        }
    }
    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }
    fn game_turn(s: &State) -> u32 {
        u32::from(s.turn)
    }
    /// Nothing secret lives in the state: the orders are in the seats' sealed notes until
    /// opened, so every seat sees the whole state.
    fn view(s: &State, _seat: &str) -> State {
        s.clone()
    }
    fn random_orders(s: &State, seat: &str, chooser: &mut Dice) -> Option<Orders> {
        legal::random_orders(s, seat, chooser)
    }
    fn hidden(s: &mut State, seat: &str, acts: &mut crate::engine::HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        command::hidden(s, seat, acts)
    }
    fn conceal(
        s: &State,
        seat: &str,
        orders: Orders,
        order: &crate::engine::IdOrder,
    ) -> Result<crate::engine::Concealed<Orders>, Vec<Violation>> {
        command::conceal(s, seat, orders, order)
    }
    fn committed_value_bound(s: &State, id: &str) -> usize {
        command::value_bound(s, id)
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
