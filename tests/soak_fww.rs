//! The First World War by bots through the whole protocol, with 2, 3 and 4 players: every
//! entry signed and applied under the rules (the engine checks the invariants after each), every
//! finished log replayed from scratch as `verify` would, every commitment opened by the end,
//! and the omniscient pass (every hidden piece and chit known from its commitment on) finding
//! no cheat. Bot seats answer combat steps from their standing instructions (`standing.rs`);
//! every third game one seat decides them by hand. `UMPIRE_SOAK_GAMES` sets the count per player count (default 20, to keep
//! `cargo test` quick; the acceptance run uses 1000). The 3-player set and the games with the
//! optional rule 9.2 (variable order) play a tenth of that count (at least 2), so the CI run
//! of 1000 stays within its time.

use std::collections::BTreeMap;

use umpire::engine::bot;
use umpire::engine::game::Game;

const TIME: &str = "2026-11-23T12:00:00Z";

const FOUR: &[(&str, &str)] =
    &[("germany", "central_powers"), ("western_allies", "allies"), ("eastern_allies", "allies"), ("german_allies", "central_powers")];
const TWO: &[(&str, &str)] = &[("central_powers", "central_powers"), ("allies", "allies")];
const THREE: &[(&str, &str)] = &[("germany", "central_powers"), ("allies", "allies"), ("german_allies", "central_powers")];

fn play(seats: &[(&str, &str)], seed: u64, options: Option<&str>) -> Game {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    let options = options.map(|o| yaml_serde::from_str(o).expect("options are YAML"));
    let (mut game, mut players) = bot::start_game_with(scenario, seats, seed, 4096, TIME, options).expect("start");
    // Every third game one seat keeps no standing instructions and decides each combat step,
    // discard and replacement by hand (the bot's random choices), so both ways are played.
    if seed % 3 == 1 {
        players.instructions.remove(seats[(seed / 3) as usize % seats.len()].0);
    }
    let mut clock = || TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 3000, &mut clock, &mut keep) {
        panic!("game {seed} ({} seats): {e}", seats.len());
    }
    game
}

/// The games per player count: `UMPIRE_SOAK_GAMES` (default 20).
fn count() -> u64 {
    std::env::var("UMPIRE_SOAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(20)
}

/// A tenth of [`count`], at least 2 (the smaller sets).
fn tenth() -> u64 {
    (count() / 10).max(2)
}

/// `n` games with these seats and genesis options; `check` sees every finished game.
fn soak(seats: &[(&str, &str)], n: u64, options: Option<&str>, check: &dyn Fn(u64, &Game)) {
    let (mut entries, mut rolls, mut hidden, mut wins) = (0usize, 0usize, 0usize, BTreeMap::new());
    for seed in 0..n {
        let game = play(seats, seed, options);
        let replayed = Game::replay(&game.entries).unwrap_or_else(|(_, e)| panic!("game {seed} does not verify: {e}"));
        assert_eq!(replayed.state, game.state, "game {seed}: replay reproduces the state");
        assert_eq!(replayed.outcome(), game.outcome());
        assert!(game.unopened().is_empty(), "game {seed}: commitments never opened: {:?}", game.unopened());
        let omniscient = game.replay_omniscient().unwrap_or_else(|c| panic!("game {seed}: the omniscient pass finds {c:?}"));
        assert_eq!(omniscient.outcome(), game.outcome(), "game {seed}: knowing every hidden value changes no result");
        hidden += game.commitments.len();
        entries += game.entries.len();
        rolls += game.steps.iter().flat_map(|s| &s.resolved).map(|r| r.rolls.len()).sum::<usize>();
        let key = match game.outcome().expect("played to a result") {
            umpire::engine::Outcome::Win { side, .. } => side,
            umpire::engine::Outcome::Draw { .. } => "draw".into(),
        };
        *wins.entry(key).or_insert(0) += 1;
        check(seed, &game);
    }
    eprintln!(
        "{} seats{}: {n} games, {entries} entries, {rolls} dice rolled, {hidden} commitments; results {wins:?}",
        seats.len(),
        options.map(|o| format!(" ({o})")).unwrap_or_default()
    );
    assert!(n == 0 || (rolls > 0 && hidden > 0));
}

#[test]
fn four_player_games_play_out_and_verify() {
    soak(FOUR, count(), None, &|_, _| {});
}

#[test]
fn two_player_games_play_out_and_verify() {
    soak(TWO, count(), None, &|_, _| {});
}

#[test]
fn three_player_games_play_out_and_verify() {
    soak(THREE, tenth(), None, &|_, _| {});
}

/// Optional rule 9.2 (variable order) on: every game that reaches turn 2 rolls and picks
/// the play order at the start of each later turn, and the bots pick their slots.
fn variable_order(seats: &[(&str, &str)]) {
    soak(seats, tenth(), Some("{variable_order: true}"), &|seed, game| {
        let texts: Vec<&str> = game.steps.iter().flat_map(|s| s.events.iter()).map(|e| e.text.as_str()).collect();
        let turns = texts.iter().filter(|t| t.contains("begins: every piece is turned face down")).count();
        let orders = texts.iter().filter(|t| t.contains("picking order:")).count();
        let chosen = texts.iter().filter(|t| t.contains(" order: deployment ")).count();
        assert_eq!(orders, turns, "game {seed}: one order roll per turn from turn 2");
        assert_eq!(chosen, turns, "game {seed}: the order is chosen every turn from turn 2");
    });
}

#[test]
fn four_player_games_with_variable_order_play_out_and_verify() {
    variable_order(FOUR);
}

#[test]
fn two_player_games_with_variable_order_play_out_and_verify() {
    variable_order(TWO);
}
