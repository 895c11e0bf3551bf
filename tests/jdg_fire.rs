//! Jours de Gloire fire, retreats and rallies seen by a hostile player (issue 23): bot games
//! played entry by entry, each fire and rally checked where its die comes from and what
//! is left for either side to decide after it.

mod common;

use common::{any_step, started_marengo};

fn other(seat: &str) -> &'static str {
    if seat == "french" { "austrian" } else { "french" }
}

/// The firer cannot foresee or bias a fire die, nor a rally die: the entry that declares
/// the fire or the rally carries no roll for it; the die is rolled with the other side's
/// next entry, which the engine names before it is written (DESIGN §2.5). And the target's
/// owner has nothing to withhold after the roll: the rout retreat is part of the resolution
/// (default path policy), so the game never waits for him to choose it.
#[test]
fn fire_and_rally_dice_come_from_the_other_side() {
    let mut fires = 0;
    let mut rallies = 0;
    for seed in 0..6u64 {
        let (mut game, mut players) = started_marengo(seed);
        while game.outcome().is_none() && game.next_seq() < 400 {
            let before = game.steps.len();
            any_step(&mut game, &mut players, seed);
            let step = game.steps[before..].last().expect("a step").clone();
            let declared = step.pending.as_deref().unwrap_or("");
            if declared.starts_with("JDG 7.5") || declared.starts_with("JDG 11.1") {
                if declared.starts_with("JDG 7.5") {
                    fires += 1;
                } else {
                    rallies += 1;
                }
                // No die of the firer's own entry is read by it.
                assert!(
                    !step
                        .events
                        .iter()
                        .any(|e| e.roll.as_ref().is_some_and(|r| r.purpose.starts_with("JDG 7.5") || r.purpose.starts_with("JDG 11.1"))),
                    "entry {} rolled its own fire or rally: {:?}",
                    step.seq,
                    step.events
                );
                let p = game.pending.clone().expect("the roll waits");
                assert_eq!(p.dice_from, other(&step.seat), "the other side rolls entry {}'s dice", step.seq);
                // The next entry is the other side's, and it carries the roll.
                any_step(&mut game, &mut players, seed);
                let next = game.steps.last().expect("a step").clone();
                assert_eq!(next.seat, other(&step.seat), "after entry {} the other side writes", step.seq);
                // (When the roll ends the activation, the same entry then opens with the next
                // cup draw, and `resolved` records that leading roll: read the events.)
                let settled = format!("dice of entry {} revealed by {}", step.seq, next.seat);
                assert!(
                    next.events.iter().any(|e| e.text.starts_with(&settled)),
                    "entry {} settles the dice of entry {}",
                    next.seq,
                    step.seq
                );
                assert!(
                    next.events
                        .iter()
                        .any(|e| e.roll.as_ref().is_some_and(|x| x.purpose.starts_with("JDG 7.5") || x.purpose.starts_with("JDG 11.1"))),
                    "entry {} rolls the fire or rally of entry {}",
                    next.seq,
                    step.seq
                );
                // A retreat asks nothing of anyone: after a fire the activation goes on
                // with the firer (or the game moves on); the target's side is not awaited.
                if declared.starts_with("JDG 7.5") && game.outcome().is_none() && game.pending.is_none() {
                    let waits: Vec<String> = game.state.expect().awaits.into_iter().map(|a| a.seat).collect();
                    assert!(
                        !waits.contains(&next.seat) || waits.contains(&step.seat),
                        "entry {}: the target side is asked for a decision",
                        next.seq
                    );
                }
            }
        }
        assert!(game.outcome().is_some(), "seed {seed}: the game ends");
    }
    assert!(fires > 0, "the bot fired in six games");
    let _ = rallies;
}
