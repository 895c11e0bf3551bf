//! Steel Wheels' end roll after turn 8 (SW-DUR-1) through the whole protocol: the bundled
//! Crossroads battle planned for 10 turns instead of 6, played by the bots. The entry that
//! ends turn 8 leaves the roll pending and the other side's entry supplies its dice; the
//! battle then ends with the turn the roll fixed, and the log verifies in public and
//! omniscient replays alike.

mod common;

use common::{TIME, any_step};
use umpire::engine::bot;
use umpire::engine::game::Game;
use umpire::engine::registry::AnyState;
use umpire::rules::steel_wheels::state::State;

fn sw(game: &Game) -> &State {
    match &game.state {
        AnyState::SteelWheels(s) => s,
        _ => unreachable!("a Steel Wheels game"),
    }
}

/// Crossroads with the standard battle's 10 turns.
fn ten_turns() -> umpire::scenarios::Bundled {
    let sc = umpire::scenarios::find("steel-wheels/crossroads").expect("bundled");
    assert!(sc.text.contains("\nturns: 6\n"), "the bundled battle's length moved: update this test");
    let text: &'static str = Box::leak(sc.text.replace("\nturns: 6\n", "\nturns: 10\n").into_boxed_str());
    umpire::scenarios::Bundled { text, ..*sc }
}

#[test]
fn a_ten_turn_battle_ends_with_the_turn_its_end_roll_fixed() {
    let sc = ten_turns();
    let (mut rolled, mut waited) = (0, 0);
    for seed in 0..6 {
        let (mut game, mut players) = bot::start_game(&sc, &[("us", "us"), ("de", "de")], seed, 4096, TIME).expect("start");
        let mut seen_pending = false;
        while game.outcome().is_none() && game.next_seq() < 4000 {
            any_step(&mut game, &mut players, seed);
            let s = sw(&game);
            if game.pending.as_ref().is_some_and(|p| p.what.contains("SW-DUR-1")) {
                // The roll waits for the other side, whose entry is awaited.
                let p = game.pending.as_ref().expect("pending");
                assert_eq!(s.turn, 8, "seed {seed}: the end roll comes after turn 8");
                assert_ne!(p.dice_from, p.seat, "seed {seed}: the other side supplies the dice");
                assert!(game.waiting_for().iter().any(|(w, _)| *w == p.dice_from), "seed {seed}: {:?}", game.waiting_for());
                // What `status` says meanwhile: the turn is over and the roll due, not the
                // turn's last phase (which is over).
                let when = game.state.expect().when;
                assert!(when.contains("is over: the end roll (SW-DUR-1) is due"), "seed {seed}: status says {when:?}");
                seen_pending = true;
            }
        }
        waited += usize::from(seen_pending);
        assert!(game.outcome().is_some(), "seed {seed}: a result");
        let s = sw(&game);
        match s.last_turn {
            Some(last) => {
                rolled += 1;
                assert!((8..=10).contains(&last), "seed {seed}: last turn {last}");
                assert!(s.turn <= last, "seed {seed}: turn {} played past the last, {last}", s.turn);
            }
            None => assert!(s.turn <= 8 && !seen_pending, "seed {seed}: turn {} with no end roll", s.turn),
        }
        assert_eq!(game.unopened(), vec![], "seed {seed}: every commitment opened");
        let replayed = Game::replay(&game.entries).unwrap_or_else(|(_, e)| panic!("seed {seed}: public replay: {e}"));
        assert_eq!(replayed.state, game.state, "seed {seed}");
        let omni = game.replay_omniscient().unwrap_or_else(|c| panic!("seed {seed}: cheats {c:?}"));
        assert_eq!(omni.outcome(), game.outcome(), "seed {seed}");
    }
    eprintln!("{rolled} of 6 games rolled the end roll, {waited} of them on the other side's entry");
    assert!(rolled > 0, "no game reached the end of turn 8: the test shows nothing of DUR-1");
    assert!(waited > 0, "no end roll waited for the other side's entry: the pending path went untested");
}
