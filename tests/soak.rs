//! Bot games through the whole protocol: every entry signed, applied with the rules, the
//! invariants checked after each (Game does it), and each finished log replayed from scratch
//! as `verify` would. `UMPIRE_SOAK_GAMES` sets the count (default 1000).

mod common;

use std::collections::BTreeMap;

use umpire::engine::bot;
use umpire::engine::game::Game;

fn play(seed: u64) -> Game {
    let (mut game, mut players) = common::started_marne(seed, 4096);
    let mut clock = || common::TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 3000, &mut clock, &mut keep) {
        panic!("game {seed}: {e}");
    }
    game
}

#[test]
fn a_thousand_marne_games_play_out_and_verify() {
    let n: u64 = std::env::var("UMPIRE_SOAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let (mut entries, mut rolls, mut wins, mut draws) = (0usize, 0usize, BTreeMap::new(), 0);
    for seed in 0..n {
        let game = play(seed);
        // The referee's view: replay the signed entries from scratch.
        let replayed = Game::replay(&game.entries).unwrap_or_else(|(_, e)| panic!("game {seed} does not verify: {e}"));
        assert_eq!(replayed.state, game.state, "game {seed}: replay reproduces the state");
        assert_eq!(replayed.outcome(), game.outcome());
        entries += game.entries.len();
        rolls += game.steps.iter().flat_map(|s| &s.resolved).map(|r| r.rolls.len()).sum::<usize>();
        match game.outcome().unwrap() {
            umpire::engine::Outcome::Win { side, .. } => *wins.entry(side).or_insert(0) += 1,
            umpire::engine::Outcome::Draw { .. } => draws += 1,
        }
    }
    eprintln!("{n} games, {entries} entries, {rolls} dice rolled; wins {wins:?}, draws {draws}");
    assert!(rolls > 0);
}

/// A bot game of `scenario` with these genesis `options`, played out and checked as `verify`
/// checks a log with hidden values (`common::assert_hidden_game_verifies`).
fn play_hidden(scenario: &str, options: &yaml_serde::Value, seed: u64, chain: u64, limit: u64) -> Game {
    let sc = umpire::scenarios::find(scenario).unwrap();
    let (mut game, mut players) =
        bot::start_game_with(sc, &[("german", "german"), ("allied", "allied")], seed, chain, common::TIME, Some(options.clone())).unwrap();
    let mut clock = || common::TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, limit, &mut clock, &mut keep) {
        panic!("{scenario} game {seed}: {e}");
    }
    common::assert_hidden_game_verifies(&game, &format!("{scenario} game {seed}"));
    game
}

/// GE 13.8: a tenth as many Marne games with hidden stacks (`hidden_counters: true`): the bots
/// hide stacks and open every counter at the end; each log passes the public replay and
/// `verify`'s omniscient pass, which re-checks every hidden move with the real units.
#[test]
fn hidden_counter_marne_games_play_out_and_verify() {
    let n: u64 = std::env::var("UMPIRE_SOAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000) / 10;
    let options: yaml_serde::Value = yaml_serde::from_str("{hidden_counters: true}").unwrap();
    let mut counters = 0;
    for seed in 0..n.max(1) {
        let game = play_hidden("glorys-end/marne", &options, seed, 4096, 3000);
        counters += game.commitments.keys().filter(|(_, id)| umpire::rules::glorys_end::counters::is_counter_id(id)).count();
    }
    eprintln!("{} hidden-counter games, {counters} counters hidden", n.max(1));
    assert!(counters > 0, "the bots hide stacks");
}

/// GE 15: a hundredth as many free-deployment games (each several times longer than a Marne
/// game) with hidden stacks and dummies (`dummies: true`): the bots place dummies in their
/// secret plans, move them, see some removed, and open every counter at the end; each log
/// passes the public replay and `verify`'s omniscient pass.
#[test]
fn dummy_free_deployment_games_play_out_and_verify() {
    let n: u64 = std::env::var("UMPIRE_SOAK_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000) / 100;
    let options: yaml_serde::Value = yaml_serde::from_str("{hidden_counters: true, dummies: true}").unwrap();
    let (mut dummies, mut removed) = (0, 0);
    for seed in 0..n.max(1) {
        let game = play_hidden("glorys-end/free-deployment", &options, seed, 8192, 6000);
        dummies += game.opened_values().values().filter(|v| v.starts_with("dummy:")).count();
        removed += game.steps.iter().flat_map(|s| &s.events).filter(|e| e.text.contains(" dummy, removed")).count();
    }
    eprintln!("{} dummy games, {dummies} dummies placed, {removed} opened and removed (attacked, or at the end)", n.max(1));
    assert!(dummies > 0, "the bots place dummies");
}
