//! Bot games of the Short Historical Campaign (GE 17) through the whole protocol: every entry
//! signed and applied with the rules, the invariants checked after each (Game does it), and
//! each finished log replayed from scratch as `verify` would. Every game must reach its
//! victory check (an instant win, sudden death or the end of T10).
//! `UMPIRE_CAMPAIGN_GAMES` sets the count (default 3; the bar is 100). The 30-turn
//! Historical Campaign is played the same way (`UMPIRE_FULL_CAMPAIGN_GAMES`, default 1).

use std::collections::BTreeMap;
use std::time::Instant;

use umpire::engine::bot;
use umpire::engine::game::Game;

const TIME: &str = "2026-11-23T12:00:00Z";

fn play(name: &str, seed: u64) -> Game {
    let sc = umpire::scenarios::find(name).expect("bundled");
    let (mut game, mut players) = bot::start_game(sc, &[("german", "german"), ("allied", "allied")], seed, 16384, TIME).expect("genesis");
    let mut clock = || TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 12000, &mut clock, &mut keep) {
        panic!("campaign game {seed}: {e}");
    }
    game
}

#[test]
fn short_campaign_games_play_out_and_verify() {
    soak("glorys-end/short-campaign", "UMPIRE_CAMPAIGN_GAMES", 3);
}

/// The 30-turn Historical Campaign: `UMPIRE_FULL_CAMPAIGN_GAMES` games (default 1).
#[test]
fn full_campaign_games_play_out_and_verify() {
    soak("glorys-end/campaign", "UMPIRE_FULL_CAMPAIGN_GAMES", 1);
}

fn soak(name: &str, var: &str, default: u64) {
    let n: u64 = std::env::var(var).ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let start = Instant::now();
    let (mut entries, mut rolls, mut wins, mut draws) = (0usize, 0usize, BTreeMap::new(), 0);
    let mut moves = [0usize; 3];
    for seed in 0..n {
        let game = play(name, seed);
        let replayed = Game::replay(&game.entries).unwrap_or_else(|(_, e)| panic!("campaign game {seed} does not verify: {e}"));
        assert_eq!(replayed.state, game.state, "campaign game {seed}: replay reproduces the state");
        assert_eq!(replayed.outcome(), game.outcome());
        entries += game.entries.len();
        rolls += game.steps.iter().flat_map(|s| &s.resolved).map(|r| r.rolls.len()).sum::<usize>();
        // GE 11 and 12.10: the bots use strategic movement and (German, T2-T6) forced march.
        for (k, what) in [(0, " move by rail "), (1, " move by sea "), (2, " force-march: ")] {
            moves[k] += game.steps.iter().flat_map(|s| s.events.iter()).filter(|e| e.text.contains(what)).count();
        }
        match game.outcome().expect("played out") {
            umpire::engine::Outcome::Win { side, reason } => {
                eprintln!("game {seed}: {side} wins: {reason}");
                *wins.entry(side).or_insert(0) += 1
            }
            umpire::engine::Outcome::Draw { reason } => {
                eprintln!("game {seed}: draw: {reason}");
                draws += 1
            }
        }
    }
    eprintln!("{name}: {n} games in {:.1?}, {entries} entries, {rolls} dice rolled; wins {wins:?}, draws {draws}", start.elapsed());
    eprintln!("{name}: {} moves by rail, {} by sea, {} forced marches", moves[0], moves[1], moves[2]);
    assert!(n == 0 || rolls > 0);
    // Forced march needs a German unit west of the Meuse on T2-T6, which a game may not bring.
    assert!(n == 0 || moves[0] > 0, "the bots never used strategic movement");
}
