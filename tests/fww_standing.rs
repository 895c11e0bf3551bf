//! The First World War's standing instructions (issue 17, `rules::first_world_war::standing`):
//! at every combat step, discard and replacement of real bot games, the orders the
//! instructions give are legal and are the choice they name (the best chit, the strongest lead,
//! …) among every legal choice; a seat the step is not for, or instructions that do not cover
//! the step, get nothing; and instructions that are not the ruleset's are refused.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::registry::AnyState;
use umpire::rules::first_world_war::State;
use umpire::rules::first_world_war::legal::ok;
use umpire::rules::first_world_war::orders::{Action, Orders};
use umpire::rules::first_world_war::standing::{self, Instructions};
use umpire::rules::first_world_war::state::{CombatStep, Stage};

const TIME: &str = "2026-11-23T12:00:00Z";
const FOUR: &[(&str, &str)] =
    &[("germany", "central_powers"), ("western_allies", "allies"), ("eastern_allies", "allies"), ("german_allies", "central_powers")];

fn instructions(text: &str) -> Instructions {
    Instructions::parse(&yaml_serde::from_str(text).expect("YAML")).expect("valid instructions")
}

fn fww(state: &AnyState) -> &State {
    match state {
        AnyState::FirstWorldWar(s) => s,
        _ => panic!("not a First World War state"),
    }
}

/// A 4-player game with open chits (every hand in the public state) played by bots deciding
/// by hand; `check` sees the state before every entry.
fn walk(seed: u64, check: &mut dyn FnMut(&State, &str)) {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    let options = yaml_serde::from_str("{open_chits: true}").unwrap();
    let (mut game, mut players): (Game, Players) = bot::start_game_with(scenario, FOUR, seed, 4096, TIME, Some(options)).expect("start");
    players.instructions.clear();
    while game.outcome().is_none() && game.next_seq() < 3000 {
        let seat = game.waiting_for()[0].0.clone();
        if game.pending.is_none() {
            check(fww(&game.state), &seat);
        }
        let mut ch = bot::chooser(seed, &seat, game.next_seq());
        let body = bot::next_body(&game, &seat, &mut players, &mut ch).expect("bot").expect("the awaited seat moves");
        let e = bot::sign_body(&game, &seat, &mut players, body, TIME.into()).expect("sign");
        bot::apply_signed(&mut game, &mut players, e).expect("apply");
    }
}

/// Whether `seat` makes a hidden chit draw with its next orders (6.2).
fn owes_draw(s: &State, seat: &str) -> bool {
    s.chits.hidden && s.chits.owed.iter().any(|o| o.seat == seat)
}

/// The chit of a chit action (`None`: no chit).
fn chit_of(o: &Orders) -> Option<Option<String>> {
    o.actions.iter().find_map(|a| match a {
        Action::Chit(c) => Some(c.clone()),
        _ => None,
    })
}

/// The lead, and whether the orders decline a chit draw (6.2, at their head).
fn lead_of(o: &Orders) -> Option<(String, bool)> {
    let declines = matches!(o.actions.first(), Some(Action::Draw(false)));
    o.actions.iter().find_map(|a| match a {
        Action::Lead { army } => Some((army.clone(), declines)),
        _ => None,
    })
}

fn chit_value(s: &State, c: &Option<String>) -> i32 {
    c.as_ref().and_then(|id| s.data.chit(id)).map(|i| s.data.chits[i].value).unwrap_or(i32::MIN)
}

fn army_value(s: &State, id: &str) -> u32 {
    s.data.army(id).map(|a| s.data.armies[a].value).unwrap_or(0)
}

#[test]
fn every_answer_is_legal_and_the_named_choice() {
    let best = instructions("{chit: best, lead: strongest, draw: false, discard: weakest, replace: strongest}");
    let none = instructions("{chit: none, lead: weakest}");
    let (mut steps, mut with_chit, mut without, mut replaced) = (0, 0, 0, 0);
    for seed in [1, 2, 3] {
        walk(seed, &mut |s, seat| {
            // Nobody else's step is answered.
            for other in FOUR.iter().map(|(x, _)| *x).filter(|x| *x != seat) {
                assert_eq!(standing::orders(s, other, &best), None, "{other} answered for {seat}'s step");
            }
            let hand: Vec<Option<String>> =
                std::iter::once(None).chain(s.hands.get(seat).into_iter().flatten().map(|&c| Some(s.chit_name(c).to_string()))).collect();
            let Some(c) = s.combat.as_ref().filter(|_| s.stage == Stage::Combat) else {
                if let Stage::Replace(_) = s.stage {
                    let o = standing::orders(s, seat, &best).expect("replacements are answered");
                    let Some(Action::Replace(list)) = o.actions.last() else { panic!("not a replacement: {o:?}") };
                    replaced += list.len();
                }
                return;
            };
            match c.step {
                CombatStep::DefenderChit | CombatStep::AttackerChitLead => {
                    let leads: Vec<String> = if c.step == CombatStep::DefenderChit {
                        vec![]
                    } else {
                        c.attackers.iter().map(|&a| s.name(a).to_string()).collect()
                    };
                    // Every legal (chit, lead) written by hand.
                    let legal: Vec<(Option<String>, Option<String>)> = hand
                        .iter()
                        .flat_map(|h| {
                            let with_leads: Vec<Option<String>> =
                                if leads.is_empty() { vec![None] } else { leads.iter().cloned().map(Some).collect() };
                            with_leads.into_iter().map(move |l| (h.clone(), l))
                        })
                        .filter(|(h, l)| {
                            let mut acts = vec![Action::Chit(h.clone())];
                            if let Some(l) = l {
                                acts.push(Action::Lead { army: l.clone() });
                            }
                            ok(s, seat, acts).is_some()
                        })
                        .collect();
                    steps += 1;
                    let o = standing::orders(s, seat, &best).expect("a legal choice exists");
                    assert!(ok(s, seat, o.actions.clone()).is_some(), "illegal: {o:?}");
                    let chosen = chit_of(&o).expect("a chit step names a chit or none");
                    let top = legal.iter().map(|(h, _)| chit_value(s, h)).max().expect("legal choices");
                    if legal.iter().any(|(h, _)| h.is_some()) {
                        assert_eq!(chit_value(s, &chosen), top, "`best` placed {chosen:?} though a better chit was legal");
                        with_chit += 1;
                    } else {
                        assert_eq!(chosen, None);
                    }
                    if let Some((army, declines)) = lead_of(&o) {
                        // Hidden chits: `draw: false` declines a draw this entry makes, and only then.
                        assert_eq!(declines, owes_draw(s, seat), "draw: false declines the draw owed, and nothing else");
                        let strongest =
                            legal.iter().filter(|(h, _)| *h == chosen).filter_map(|(_, l)| l.as_ref()).map(|l| army_value(s, l)).max();
                        assert_eq!(Some(army_value(s, &army)), strongest, "`strongest` led with {army}");
                    }
                    let o = standing::orders(s, seat, &none).expect("a legal choice exists");
                    if legal.iter().any(|(h, _)| h.is_none()) {
                        assert_eq!(chit_of(&o), Some(None), "`none` placed a chit though none was legal");
                        without += 1;
                    }
                    // A chit step the instructions leave open is the person's.
                    assert_eq!(standing::orders(s, seat, &instructions("{lead: strongest}")), None);
                }
                CombatStep::DefenderLead => {
                    steps += 1;
                    let o = standing::orders(s, seat, &none).expect("a defender can always lead");
                    let (army, declines) = lead_of(&o).expect("a lead");
                    assert!(!declines, "without `draw` a draw owed is made");
                    let weakest = c
                        .defenders
                        .iter()
                        .map(|&a| s.name(a).to_string())
                        .filter(|l| ok(s, seat, vec![Action::Lead { army: l.clone() }]).is_some())
                        .map(|l| army_value(s, &l))
                        .min();
                    assert_eq!(Some(army_value(s, &army)), weakest, "`weakest` led with {army}");
                    assert_eq!(standing::orders(s, seat, &instructions("{chit: best}")), None, "no `lead`: the person's");
                }
                CombatStep::Draw => {
                    // Open chits: the answer to an S is the instructions' `draw`.
                    let o = standing::orders(s, seat, &best).expect("draw: false answers");
                    assert_eq!(o.actions, vec![Action::Draw(false)]);
                    assert_eq!(standing::orders(s, seat, &none), None, "no `draw`: the person's");
                }
                CombatStep::Roll | CombatStep::DrawRoll | CombatStep::Reveal => assert_eq!(standing::orders(s, seat, &best), None),
            }
        });
    }
    assert!(
        steps > 30 && with_chit > 5 && without > 5,
        "the games reach the cases: {steps} steps, {with_chit} with a chit, {without} without"
    );
    assert!(replaced > 0, "some replacements were made");
}

#[test]
fn instructions_that_are_not_the_rulesets_are_refused() {
    let bad: yaml_serde::Value = yaml_serde::from_str("{chit: best, retreat: never}").unwrap();
    let e = Instructions::parse(&bad).unwrap_err();
    assert!(e.contains("retreat") && e.contains("chit: best|none"), "{e}");
    let bad: yaml_serde::Value = yaml_serde::from_str("{lead: tallest}").unwrap();
    assert!(Instructions::parse(&bad).is_err());
    // Glory's End files its instructions in the game, not with the robot.
    let scenario = umpire::scenarios::find("glorys-end/marne").expect("bundled");
    let (game, _) = bot::start_game(scenario, &[("german", "german"), ("allied", "allied")], 1, 64, TIME).unwrap();
    let some: yaml_serde::Value = yaml_serde::from_str("{losses: [spread]}").unwrap();
    let e = game.state.standing_orders("allied", &some).unwrap_err();
    assert!(e.contains("`standing` action"), "{e}");
    assert_eq!(game.state.standing_orders("allied", &yaml_serde::Value::Null), Ok(None));
}
