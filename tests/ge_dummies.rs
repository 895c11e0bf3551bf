//! Glory's End dummy counters (GE 15) through the whole protocol: bot games of a free
//! deployment with hidden stacks and dummies place dummies in their secret plans, see dummies
//! removed when attacked or opened, and pass `verify`'s omniscient pass.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::registry::AnyState;
use umpire::rules::glorys_end::State;
use umpire::rules::glorys_end::counters;

mod common;
use common::TIME;
const SEATS: &[(&str, &str)] = &[("german", "german"), ("allied", "allied")];

fn play(scenario: &str, seed: u64, options: &str) -> (Game, Players) {
    let sc = umpire::scenarios::find(scenario).expect("bundled");
    let opts = Some(yaml_serde::from_str(options).expect("options"));
    let (mut game, mut players) = bot::start_game_with(sc, SEATS, seed, 16384, TIME, opts).expect("start");
    let mut clock = || TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 20_000, &mut clock, &mut keep) {
        panic!("{scenario} game {seed}: {e}");
    }
    (game, players)
}

fn ge(state: &AnyState) -> &State {
    match state {
        AnyState::GlorysEnd(s) => s,
        _ => panic!("not a Glory's End state"),
    }
}

#[test]
fn explore() {
    let (game, _) = play("glorys-end/free-deployment", 1, "{hidden_counters: true, dummies: true}");
    for st in &game.steps {
        for e in &st.events {
            if e.text.contains("dumm") || e.rule.as_deref().is_some_and(|r| r.starts_with("GE 15")) {
                println!("{:?} {}", e.rule, e.text);
            }
        }
    }
    let s = ge(&game.state);
    assert!(!s.units.iter().any(counters::is_hidden));
    println!("{:?}", game.outcome());
}
