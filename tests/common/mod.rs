//! Helpers shared by integration tests.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;

/// Fixed entry time for tests.
pub const TIME: &str = "2026-11-23T12:00:00Z";

/// A Marne game after genesis (german) and join (allied), keys from `seed`.
#[allow(dead_code)]
pub fn started_marne(seed: u64, chain_length: u64) -> (Game, Players) {
    let marne = umpire::scenarios::find("glorys-end/marne").unwrap();
    bot::start_game(marne, &[("german", "german"), ("allied", "allied")], seed, chain_length, TIME).unwrap()
}

/// One bot entry for `seat` (its own view, the author path), applied; `false` when the bot has
/// nothing to send.
#[allow(dead_code)]
pub fn bot_step(game: &mut Game, players: &mut Players, seed: u64, seat: &str) -> bool {
    let mut ch = bot::chooser(seed, seat, game.next_seq());
    let Some(body) = bot::next_body(game, seat, players, &mut ch).expect("bot body") else { return false };
    let e = bot::sign_body(game, seat, players, body, TIME.into()).expect("sign");
    game.apply(&e).expect("apply");
    true
}

/// One entry by whoever the game waits for.
#[allow(dead_code)]
pub fn any_step(game: &mut Game, players: &mut Players, seed: u64) {
    let waiting: Vec<String> = game.waiting_for().into_iter().map(|(s, _)| s).collect();
    for seat in waiting {
        if bot_step(game, players, seed, &seat) {
            return;
        }
    }
    panic!("stuck at entry {}", game.next_seq());
}
