//! The engine refuses entries that are out of turn, whatever the ruleset says of their orders.

mod common;

use umpire::crypto::sha256;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::{Game, GameError};
use umpire::log::entry::{Body, Kind};

fn started() -> (Game, Players) {
    common::started_marne(0, 64)
}

fn orders(yaml: &str) -> Body {
    let mut b = Body::new(Kind::Orders);
    b.orders = Some(yaml_serde::from_str(yaml).unwrap());
    b
}

#[test]
fn orders_from_the_seat_not_awaited_are_out_of_turn() {
    let (mut game, mut players) = started();
    // The Allies move first on the Marne; a German entry now is out of turn.
    let e = bot::sign_body(&game, "german", &mut players, orders("actions: [{end_phase: movement}]"), "t".into()).unwrap();
    let before = game.entries.len();
    match game.apply(&e) {
        Err(GameError::OutOfTurn { seq, seat, why }) => {
            assert_eq!((seq, seat.as_str()), (2, "german"));
            assert!(why.contains("allied"), "{why}");
        }
        other => panic!("want out of turn, got {other:?}"),
    }
    assert_eq!(game.entries.len(), before, "a refused entry changes nothing");
}

#[test]
fn an_ack_needs_owed_dice() {
    let (mut game, mut players) = started();
    let e = bot::sign_body(&game, "allied", &mut players, Body::new(Kind::Ack), "t".into()).unwrap();
    assert!(matches!(game.apply(&e), Err(GameError::OutOfTurn { .. })));
}

#[test]
fn owed_dice_block_everyone_but_the_revealer() {
    let (mut game, mut players) = started();
    let attack = orders("actions: [{end_phase: movement}, {attack: {target: 3232, units: [FR-1, FR-10]}}]");
    let e = bot::sign_body(&game, "allied", &mut players, attack, "t".into()).unwrap();
    game.apply(&e).unwrap();
    let p = game.pending.clone().expect("the attack waits for its die");
    assert_eq!(p.dice_from, "german");
    // The attacker cannot go on before the die is known.
    let more = bot::sign_body(&game, "allied", &mut players, orders("actions: [{end_phase: combat}]"), "t".into()).unwrap();
    assert!(matches!(game.apply(&more), Err(GameError::OutOfTurn { .. })));
    // The revealer's ack resolves it, with the seed of DESIGN §2.5.
    let reveal = players.next_reveal(&game, "german").unwrap().unwrap();
    let ack = bot::sign_body(&game, "german", &mut players, Body::new(Kind::Ack), "t".into()).unwrap();
    let step = game.apply(&ack).unwrap().clone();
    let r = step.resolved.expect("the ack resolved the dice");
    assert_eq!(r.seed, umpire::dice::dice_seed(&p.reveal, &reveal));
    assert_eq!(r.rolls.len(), 1);
    assert!(r.rolls[0].purpose.contains("3232"), "{:?}", r.rolls);
    assert!((1..=6).contains(&r.rolls[0].result));
}

#[test]
fn a_bad_reveal_is_refused() {
    let (mut game, mut players) = started();
    let mut e = bot::sign_body(&game, "allied", &mut players, orders("actions: [{end_phase: movement}]"), "t".into()).unwrap();
    // Re-sign the same entry with a reveal that does not hash to the anchor.
    let mut d = e.draft.clone();
    d.reveal = Some(sha256(b"not my chain"));
    e = d.sign(players.key("allied").unwrap());
    assert!(matches!(game.apply(&e), Err(GameError::Protocol(_))));
}

#[test]
fn resign_ends_the_game_and_nothing_follows() {
    let (mut game, mut players) = started();
    let e = bot::sign_body(&game, "german", &mut players, Body::new(Kind::Resign), "t".into()).unwrap();
    game.apply(&e).unwrap();
    assert!(matches!(game.outcome(), Some(umpire::engine::Outcome::Win { ref side, .. }) if side == "allied"));
    let e = bot::sign_body(&game, "allied", &mut players, Body::new(Kind::OfferDraw), "t".into()).unwrap();
    assert!(matches!(game.apply(&e), Err(GameError::Over { .. })));
}

#[test]
fn a_draw_needs_the_offer_named() {
    let (mut game, mut players) = started();
    let offer = bot::sign_body(&game, "allied", &mut players, Body::new(Kind::OfferDraw), "t".into()).unwrap();
    game.apply(&offer).unwrap();
    let mut wrong = Body::new(Kind::AcceptDraw);
    wrong.agree = Some(sha256(b"some other entry"));
    let e = bot::sign_body(&game, "german", &mut players, wrong, "t".into()).unwrap();
    assert!(game.apply(&e).is_err());
    let mut right = Body::new(Kind::AcceptDraw);
    right.agree = Some(offer.hash);
    let e = bot::sign_body(&game, "german", &mut players, right, "t".into()).unwrap();
    game.apply(&e).unwrap();
    assert!(matches!(game.outcome(), Some(umpire::engine::Outcome::Draw { .. })));
}
