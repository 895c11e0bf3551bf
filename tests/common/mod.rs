//! Helpers shared by integration tests: a Marne game started between two bot players.

use std::collections::BTreeMap;

use umpire::crypto::keys::SecretKey;
use umpire::crypto::{sha256, tagged_hash};
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::log::entry::{Body, Draft, Kind, RulesetRef, ScenarioRef, SeatDecl};

/// Fixed entry time for tests.
pub const TIME: &str = "2026-11-23T12:00:00Z";

/// A Marne game after genesis (german, alice) and join (allied, bob), keys from `seed`.
pub fn started_marne(seed: u64, chain_length: u64) -> (Game, Players) {
    let key = |name: &str| SecretKey::from_seed(name, tagged_hash("test-key", &[name.as_bytes(), &seed.to_be_bytes()]).0);
    let (a, b) = (key("alice"), key("bob"));
    let text = umpire::scenarios::find("glorys-end/marne").unwrap().text;
    let nonce = tagged_hash("test-nonce", &[&seed.to_be_bytes()]);
    let anchor = |k: &SecretKey, seat: &str| {
        let s = umpire::crypto::chain::chain_seed(&k.seed(), nonce.as_bytes(), seat);
        umpire::crypto::chain::chain_value(&s, chain_length, 0).unwrap()
    };
    let mut body = Body::new(Kind::Genesis);
    body.ruleset = Some(RulesetRef { id: "glorys-end".into(), version: "0.1.0".into() });
    body.engine = Some("test".into());
    body.scenario = Some(ScenarioRef { name: "glorys-end/marne".into(), sha256: sha256(text.as_bytes()), text: text.into() });
    body.seats = Some(vec![
        SeatDecl { seat: "german".into(), side: "german".into(), key: a.public().to_text() },
        SeatDecl { seat: "allied".into(), side: "allied".into(), key: b.public().to_text() },
    ]);
    body.nonce = Some(nonce);
    body.chain_length = Some(chain_length);
    body.chain = Some(anchor(&a, "german"));
    let g = Draft { game: None, seq: 0, prev: None, seat: "german".into(), reveal: None, dice_from: None, time: TIME.into(), body }.sign(&a);
    let mut game = Game::from_genesis(&g).unwrap();
    let mut keys = BTreeMap::new();
    keys.insert("german".to_string(), a);
    keys.insert("allied".to_string(), b.clone());
    let mut players = Players::new(keys);
    let mut join = Body::new(Kind::Join);
    join.chain = Some(anchor(&b, "allied"));
    let j = bot::sign_body(&game, "allied", &mut players, join, TIME.into()).unwrap();
    game.apply(&j).unwrap();
    (game, players)
}
