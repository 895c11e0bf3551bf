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
    let [r] = &step.resolved[..] else { panic!("the ack resolved the dice: {:?}", step.resolved) };
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

/// Play a bot Marne game until the first entry that opens with a leading roll (GE 10.1:
/// the command & control roll opens the phasing player's entry from T9).
fn up_to_a_leading_roll() -> (Game, Players, u64) {
    let (mut game, mut players) = started();
    for _ in 0..400 {
        let seq = game.next_seq();
        let waiting: Vec<String> = game.waiting_for().into_iter().map(|(s, _)| s).collect();
        let seat = waiting.first().expect("someone is awaited").clone();
        let reveal = players.next_reveal(&game, &seat).unwrap();
        if game.lead_for(&seat, reveal.as_ref()).is_some() {
            return (game, players, seq);
        }
        let mut ch = bot::chooser(7, &seat, seq);
        let body = bot::next_body(&game, &seat, &mut players, &mut ch).unwrap().expect("the awaited seat writes");
        let e = bot::sign_body(&game, &seat, &mut players, body, "t".into()).unwrap();
        bot::apply_signed(&mut game, &mut players, e).unwrap();
    }
    panic!("no leading roll in 400 entries");
}

/// DESIGN §2.5: the state alone says that an entry opens with a leading roll; its author can
/// neither drop `lead` (making the roll ordinary) nor send an ack in its place, and no other
/// entry may carry one.
#[test]
fn a_seat_cannot_make_the_command_roll_ordinary_or_the_reverse() {
    let (game, mut players, seq) = up_to_a_leading_roll();
    let seat = game.waiting_for()[0].0.clone();
    let mut ch = bot::chooser(7, &seat, seq);
    let body = bot::next_body(&game, &seat, &mut players, &mut ch).unwrap().unwrap();
    let p = game.lead_for(&seat, players.next_reveal(&game, &seat).unwrap().as_ref()).expect("a leading roll opens it");
    // As the tool writes it (`lead` = P): accepted, and the record shows the leading roll
    // with seed_lead.
    let e = bot::sign_body(&game, &seat, &mut players, body, "t".into()).unwrap();
    assert_eq!(e.draft.body.lead, Some(p));
    let mut ok = game.clone();
    let step = ok.apply(&e).expect("the entry with its leading roll applies").clone();
    let [r] = &step.resolved[..] else { panic!("the leading roll is recorded: {:?}", step.resolved) };
    let pe = game.entries.iter().find(|x| x.hash == p).unwrap();
    assert_eq!(r.seed, umpire::dice::lead_seed(&pe.draft.reveal.unwrap(), &e.draft.reveal.unwrap()));
    assert!(r.what.contains("command & control"), "{}", r.what);
    // Without `lead`: refused, the roll cannot be made an ordinary one.
    let mut d = e.draft.clone();
    d.body.lead = None;
    let bare = d.try_sign(players.key(&seat).unwrap()).unwrap();
    assert!(matches!(game.clone().apply(&bare), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("lead")));
    // An ack in its place: refused too.
    let mut d = e.draft.clone();
    d.body = Body::new(Kind::Ack);
    let ack = d.try_sign(players.key(&seat).unwrap()).unwrap();
    assert!(matches!(game.clone().apply(&ack), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("leading roll")));
    // And the next entry, which no leading roll opens, cannot claim one.
    let mut after = ok.clone();
    let next = after.waiting_for()[0].0.clone();
    let mut ch = bot::chooser(7, &next, after.next_seq());
    if let Some(b) = bot::next_body(&after, &next, &mut players, &mut ch).unwrap() {
        let mut b2 = b.clone();
        b2.lead = Some(p);
        let bad = bot::sign_body(&after, &next, &mut players, b2, "t".into()).unwrap();
        assert!(matches!(after.apply(&bad), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("lead")));
    }
}
