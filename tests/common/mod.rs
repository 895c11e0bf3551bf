//! Helpers shared by integration tests.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;

/// Fixed entry time for tests.
pub const TIME: &str = "2026-11-23T12:00:00Z";

/// A Marne game after genesis (german) and join (allied), keys from `seed`.
pub fn started_marne(seed: u64, chain_length: u64) -> (Game, Players) {
    let marne = umpire::scenarios::find("glorys-end/marne").unwrap();
    bot::start_game(marne, &[("german", "german"), ("allied", "allied")], seed, chain_length, TIME).unwrap()
}
