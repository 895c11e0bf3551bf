//! Jours de Gloire initiative seen by a hostile player (issue 23): bot games played entry by
//! entry, checking where the strategic-initiative dice (JDG 3) and the leader-initiative
//! dice (JDG 2.4.3) come from and who is asked what after them.

mod common;

use common::{any_step, started_marengo};

fn other(seat: &str) -> &'static str {
    if seat == "french" { "austrian" } else { "french" }
}

fn rolls_for<'a>(events: &'a [umpire::engine::Event], purpose: &'a str) -> impl Iterator<Item = u32> + 'a {
    events.iter().filter_map(move |e| e.roll.as_ref().filter(|r| r.purpose.starts_with(purpose)).map(|r| r.result))
}

/// Phase B costs no entry of its own: both initiative dice open the first side's entry right
/// after the second side's phase-A entry, as a leading roll that entry's author could not
/// foresee (its seed waits for the other side's reveal, DESIGN §2.5); the winner then picks
/// in the entry the game expects of him anyway (the roller's own, or the loser's bare entry
/// and then the winner's), and only a decline adds an entry.
#[test]
fn strategic_initiative_rides_on_the_first_entry_after_phase_a() {
    let mut turns = 0;
    let mut picks = 0;
    for seed in 0..5u64 {
        let (mut game, mut players) = started_marengo(seed);
        while game.outcome().is_none() && game.next_seq() < 500 {
            let before = game.steps.len();
            any_step(&mut game, &mut players, seed);
            let step = game.steps[before..].last().expect("a step").clone();
            let dice: Vec<u32> = rolls_for(&step.events, "JDG 3:").collect();
            if dice.is_empty() {
                continue;
            }
            turns += 1;
            assert_eq!(dice.len(), 2, "entry {}: one die per side", step.seq);
            assert_eq!(step.seat, "french", "entry {}: the first side rolls", step.seq);
            assert!(
                step.events.iter().any(|e| e.text.starts_with(&format!("leading roll of entry {}", step.seq))),
                "entry {}: the initiative dice are a leading roll",
                step.seq
            );
            // The entry before it is the other side's phase-A entry.
            let prev = &game.steps[before - 1];
            assert_eq!(prev.seat, "austrian", "entry {} follows the austrian orders", step.seq);
            let texts: Vec<&str> = step.events.iter().map(|e| e.text.as_str()).collect();
            let won = |side: &str| texts.iter().any(|t| t.starts_with(&format!("the {side} player wins the strategic initiative")));
            if won("french") {
                // The roller won: his own entry carries the pick (or the decline).
                assert!(
                    texts.iter().any(|t| t.contains("the french player picks") || t.contains("the french player declines")),
                    "entry {}: the french winner picks in the rolling entry",
                    step.seq
                );
                picks += 1;
            } else if won("austrian") {
                // The roller lost: his entry is bare, and the winner is the only seat asked.
                let waits: Vec<String> = game.state.expect().awaits.into_iter().map(|a| a.seat).collect();
                assert_eq!(waits, vec!["austrian".to_string()], "entry {}: only the winner is asked", step.seq);
                any_step(&mut game, &mut players, seed);
                let next = game.steps.last().expect("a step");
                assert!(
                    next.events
                        .iter()
                        .any(|e| e.text.contains("the austrian player picks") || e.text.contains("the austrian player declines")),
                    "entry {}: the austrian winner picks next",
                    next.seq
                );
                picks += 1;
            } else {
                assert!(texts.iter().any(|t| t.contains("a tie")), "entry {}: no winner means a tie", step.seq);
                // On a tie the first draw is the next roll of the same stream, unless this
                // entry opened the first side's sealed CAM choice (JDG 2.1.2): the cup is
                // filled after the dice, so the other side's next entry draws.
                let deferred = texts.iter().any(|t| t.contains("CAM choice opens"));
                assert_eq!(
                    rolls_for(&step.events, "JDG 2.2").count(),
                    usize::from(!deferred),
                    "entry {}: the tie draws at once (or next, after a CAM choice)",
                    step.seq
                );
            }
        }
        assert!(game.outcome().is_some(), "seed {seed}: the game ends");
    }
    assert!(turns >= 10, "only {turns} initiative rolls seen");
    assert!(picks > 0, "no initiative was won");
}

/// A leader-initiative test is declared alone and ends its entry; its dice are rolled by the
/// other side's next entry, whose author then has nothing to decide (the tester acts next).
#[test]
fn leader_tests_are_rolled_by_the_other_side() {
    let mut tests = 0;
    for seed in 0..8u64 {
        let (mut game, mut players) = started_marengo(seed);
        while game.outcome().is_none() && game.next_seq() < 500 {
            let before = game.steps.len();
            any_step(&mut game, &mut players, seed);
            let step = game.steps[before..].last().expect("a step").clone();
            if !step.pending.as_deref().unwrap_or("").starts_with("JDG 2.4.3") {
                continue;
            }
            tests += 1;
            assert_eq!(rolls_for(&step.events, "JDG 2.4.3").count(), 0, "entry {} rolled its own test", step.seq);
            let p = game.pending.clone().expect("the test waits");
            assert_eq!(p.dice_from, other(&step.seat), "the other side rolls entry {}'s test", step.seq);
            any_step(&mut game, &mut players, seed);
            let next = game.steps.last().expect("a step").clone();
            assert_eq!(next.seat, other(&step.seat));
            assert!(rolls_for(&next.events, "JDG 2.4.3").count() > 0, "entry {} rolls the test of entry {}", next.seq, step.seq);
            if game.outcome().is_none() {
                let waits: Vec<String> = game.state.expect().awaits.into_iter().map(|a| a.seat).collect();
                assert_eq!(waits, vec![step.seat.clone()], "after the test, the tester acts on");
            }
        }
    }
    assert!(tests > 0, "the bot never tested a leader's initiative");
}

/// JDG 2.1.2 by mail: on the turns Marengo lets the French choose their CAM, the bot's
/// French phase-A entry commits to its choice, and the entry the phase-B dice open (a
/// leading roll of the French) opens it before the cup is filled; every game still ends.
#[test]
fn cam_choice_opens_in_the_phase_b_entry() {
    let mut opened = 0;
    for seed in 0..5u64 {
        let (mut game, mut players) = started_marengo(seed);
        while game.outcome().is_none() && game.next_seq() < 500 {
            any_step(&mut game, &mut players, seed);
            let step = game.steps.last().expect("a step").clone();
            let texts: Vec<&str> = step.events.iter().map(|e| e.text.as_str()).collect();
            if !texts.iter().any(|t| t.starts_with("the french player's CAM choice opens")) {
                continue;
            }
            opened += 1;
            assert_eq!(step.seat, "french", "entry {}: the first side opens its own choice", step.seq);
            assert_eq!(rolls_for(&step.events, "JDG 3:").count(), 2, "entry {}: the opening rides on the phase-B dice", step.seq);
            let open = texts.iter().position(|t| t.starts_with("the french player's CAM choice opens"));
            let cup = texts.iter().position(|t| t.starts_with("the cup holds"));
            assert!(open < cup, "entry {}: the cup is filled after the opening", step.seq);
        }
        assert!(game.outcome().is_some(), "seed {seed}: the game ends");
    }
    assert!(opened > 0, "no bot game reached a turn with a CAM choice");
}
