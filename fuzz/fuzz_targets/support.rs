//! What the orders and scenario targets share: states along a bot game of a bundled scenario,
//! and the seats its games use.
#![allow(dead_code)] // each target uses its own part
use umpire::engine::SeatInfo;
use umpire::engine::registry::AnyState;

/// The seats of the bundled scenario `name`, as the ruleset sees them.
pub fn seats(name: &str) -> Vec<SeatInfo> {
    let b = umpire::scenarios::find(name).unwrap();
    umpire::scenarios::seats(b).into_iter().map(|(seat, side)| SeatInfo { seat: seat.into(), side: side.into() }).collect()
}

/// The start of a bot game of `name` and every tenth state after it, up to 200 entries.
pub fn states(name: &str) -> Vec<AnyState> {
    let b = umpire::scenarios::find(name).unwrap();
    let seats = umpire::scenarios::seats(b);
    let (mut game, mut players) = umpire::engine::bot::start_game(b, &seats, 1, 256, "t").unwrap();
    let mut out = vec![game.state.clone()];
    let mut clock = || "t".to_string();
    let mut n = 0;
    let mut keep = |_: &umpire::log::Entry, g: &umpire::engine::game::Game| {
        n += 1;
        if n % 10 == 0 {
            out.push(g.state.clone());
        }
        Ok(())
    };
    let _ = umpire::engine::bot::play_out(&mut game, &mut players, 1, 200, &mut clock, &mut keep);
    out
}

/// Orders of any shape against one state and seat (a seat that does not exist included),
/// chosen by the input's first byte; the rest is the orders' YAML. Never a panic, and legal
/// orders never break an invariant. (One state and seat per run, not all of them: a run
/// then costs one check and one apply, so a target makes millions of runs.)
pub fn check_orders(states: &[AnyState], seats: &[SeatInfo], data: &[u8]) {
    let Some((&pick, yaml)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(yaml) else { return };
    let Ok(value) = yaml_serde::from_str::<yaml_serde::Value>(text) else { return };
    let s = &states[usize::from(pick) % states.len()];
    let who = usize::from(pick) / states.len() % (seats.len() + 1);
    let seat = seats.get(who).map(|s| s.seat.as_str()).unwrap_or("nobody");
    let _ = s.check(seat, &value);
    let mut t = s.clone();
    if t.apply(seat, &value).is_ok() {
        assert!(t.check_invariants().is_ok(), "legal orders broke an invariant");
    }
}
