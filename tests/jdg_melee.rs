//! Jours de Gloire melee seen by a hostile player (issue 23): bot games played entry by
//! entry, each melee declaration checked for where its dice come from and for what is left
//! for either side to decide after them.

mod common;

use common::{any_step, started_marengo};

fn other(seat: &str) -> &'static str {
    if seat == "french" { "austrian" } else { "french" }
}

/// A roll of the melee segment: an engagement test, a melee, or a test its result calls for.
fn melee_roll(purpose: &str) -> bool {
    purpose.starts_with("JDG 8.5") || purpose.starts_with("JDG 0.4.2")
}

/// The attacker cannot foresee or bias his engagement tests or his melee dice: the entry
/// that declares the melees holds no roll of its own (a cup draw that opens it is a leading
/// roll fixed before he wrote a word); every test and melee die is rolled with the other
/// side's next entry, which the engine names before it is written (DESIGN §2.5). And the
/// defender has nothing to withhold after the roll: the terrain choices, the fall backs and
/// the advance are part of the resolution, so nobody is waited on twice.
#[test]
fn melee_dice_come_from_the_other_side() {
    let mut melees = 0;
    let mut rolled = 0;
    for seed in 0..8u64 {
        let (mut game, mut players) = started_marengo(seed);
        while game.outcome().is_none() && game.next_seq() < 400 {
            let before = game.steps.len();
            any_step(&mut game, &mut players, seed);
            let step = game.steps[before..].last().expect("a step").clone();
            let declared = step.pending.as_deref().unwrap_or("");
            if !declared.starts_with("JDG 8.5") {
                continue;
            }
            melees += 1;
            // Nothing is rolled in the declaring entry once the melees are declared (what it
            // rolled before, the other side's owed dice and its leading cup draw, was fixed
            // before its author wrote a word).
            let at = step.events.iter().position(|e| e.text.starts_with("melee declared")).expect("the declaration");
            let own: Vec<_> = step.events[at..].iter().filter_map(|e| e.roll.as_ref()).collect();
            assert!(own.is_empty(), "entry {} rolled dice of its own: {:?}", step.seq, own);
            let p = game.pending.clone().expect("the melee waits");
            assert_eq!(p.dice_from, other(&step.seat), "the other side rolls entry {}'s dice", step.seq);
            any_step(&mut game, &mut players, seed);
            let next = game.steps.last().expect("a step").clone();
            assert_eq!(next.seat, other(&step.seat), "after entry {} the other side writes", step.seq);
            let settled = format!("dice of entry {} revealed by {}", step.seq, next.seat);
            assert!(next.events.iter().any(|e| e.text.starts_with(&settled)), "entry {} settles the dice of entry {}", next.seq, step.seq);
            if next.events.iter().any(|e| e.roll.as_ref().is_some_and(|r| melee_roll(&r.purpose))) {
                rolled += 1;
            }
            // After the melees the activation goes on with the attacker (or the game moves
            // on); the defender is not asked for anything.
            if game.outcome().is_none() && game.pending.is_none() {
                let waits: Vec<String> = game.state.expect().awaits.into_iter().map(|a| a.seat).collect();
                assert!(waits.contains(&step.seat), "entry {}: after the melees the attacker acts, the defender is not asked", next.seq);
            }
        }
        assert!(game.outcome().is_some(), "seed {seed}: the game ends");
    }
    assert!(melees > 0, "the bot declared melees in eight games");
    assert!(rolled > 0, "some melee dice were rolled");
}
