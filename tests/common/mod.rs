//! Helpers shared by integration tests.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::hidden::Knowledge;
use umpire::engine::registry::AnyState;
use umpire::rules::glorys_end::{State, counters};

/// Fixed entry time for tests.
pub const TIME: &str = "2026-11-23T12:00:00Z";

/// A Marne game after genesis (german) and join (allied), keys from `seed`.
#[allow(dead_code)]
pub fn started_marne(seed: u64, chain_length: u64) -> (Game, Players) {
    let marne = umpire::scenarios::find("glorys-end/marne").unwrap();
    bot::start_game(marne, &[("german", "german"), ("allied", "allied")], seed, chain_length, TIME).unwrap()
}

/// A Jours de Gloire Marengo game after genesis (french) and join (austrian), keys from `seed`.
#[allow(dead_code)]
pub fn started_marengo(seed: u64) -> (Game, Players) {
    let marengo = umpire::scenarios::find("jours-de-gloire/marengo").expect("bundled");
    bot::start_game(marengo, &[("french", "french"), ("austrian", "austrian")], seed, 400, TIME).expect("start")
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

/// The Glory's End state of a game.
#[allow(dead_code)]
pub fn ge(state: &AnyState) -> &State {
    match state {
        AnyState::GlorysEnd(s) => s,
        _ => panic!("not a Glory's End state"),
    }
}

/// GE 13.8: the public facts of the counters after every entry, in a replay of `game` with
/// this knowledge.
#[allow(dead_code)]
pub fn facts_by_entry(game: &Game, knowledge: Knowledge) -> Vec<Vec<String>> {
    let mut g = Game::from_genesis_with(&game.entries[0], knowledge).expect("genesis");
    let mut out = vec![counters::public_facts(ge(&g.state))];
    for e in &game.entries[1..] {
        g.apply(e).unwrap_or_else(|err| panic!("entry {}: {err}", e.seq()));
        out.push(counters::public_facts(ge(&g.state)));
    }
    out
}

/// GE 13.8: the public facts after every entry are the same in the public, both seats' and
/// the omniscient replays of a Glory's End game.
#[allow(dead_code)]
pub fn facts_agree(game: &Game, players: &Players) {
    let public = facts_by_entry(game, Knowledge::public());
    let modes = [
        ("german", Knowledge::seat("german", players.key("german").expect("key").clone())),
        ("allied", Knowledge::seat("allied", players.key("allied").expect("key").clone())),
        ("omniscient", Knowledge::omniscient(game.opened_values())),
    ];
    for (name, k) in modes {
        let other = facts_by_entry(game, k);
        assert_eq!(other.len(), public.len());
        for (i, (a, b)) in public.iter().zip(&other).enumerate() {
            assert_eq!(a, b, "entry {i}: the {name} replay's public facts differ from the public replay's");
        }
    }
}

/// A finished Glory's End game with hidden values checked as `verify` checks its log: a
/// result, every commitment opened and nothing left hidden, the public replay reproduces the
/// state, and the omniscient pass finds no cheat and the same result. `what` names the game.
#[allow(dead_code)]
pub fn assert_hidden_game_verifies(game: &Game, what: &str) {
    assert!(game.outcome().is_some(), "{what}: a result");
    assert_eq!(game.unopened(), vec![], "{what}: every commitment is opened by the end");
    assert!(!ge(&game.state).units.iter().any(counters::is_hidden), "{what}: nothing is hidden at the end");
    let replayed = Game::replay(&game.entries).unwrap_or_else(|(_, e)| panic!("{what}: public replay: {e}"));
    assert_eq!(replayed.state, game.state, "{what}: the replay reproduces the state");
    // verify's omniscient pass re-checks every hidden move with the units' real values.
    let omni = game.replay_omniscient().unwrap_or_else(|c| panic!("{what}: cheats {c:?}"));
    assert_eq!(omni.outcome(), game.outcome());
}

/// The body the author's tool makes of `orders` for `seat`'s next entry (its own view).
#[allow(dead_code)]
pub fn body_of<O: serde::Serialize>(game: &Game, players: &mut Players, seat: &str, orders: &O) -> umpire::log::entry::Body {
    use umpire::log::entry::{Body, Kind};
    let reveal = players.next_reveal(game, seat).unwrap();
    let key = players.key(seat).unwrap().clone();
    let view = players.view(game, seat).unwrap().cloned().unwrap_or_else(|| game.clone());
    let mut b = Body::new(Kind::Orders);
    b.orders = Some(yaml_serde::to_value(orders).unwrap());
    umpire::engine::author::complete_body(&view, seat, &key, reveal.as_ref(), b).expect("the tool completes the body")
}
