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
        rolls += game.steps.iter().filter_map(|s| s.resolved.as_ref()).map(|r| r.rolls.len()).sum::<usize>();
        match game.outcome().unwrap() {
            umpire::engine::Outcome::Win { side, .. } => *wins.entry(side).or_insert(0) += 1,
            umpire::engine::Outcome::Draw { .. } => draws += 1,
        }
    }
    eprintln!("{n} games, {entries} entries, {rolls} dice rolled; wins {wins:?}, draws {draws}");
    assert!(rolls > 0);
}
