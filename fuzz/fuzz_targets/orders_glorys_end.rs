//! Glory's End orders of any shape, checked against the Marne start and a mid-game state:
//! never a panic, only "cannot parse" or violations or legal.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use umpire::engine::registry::AnyState;

fn states() -> &'static Vec<AnyState> {
    static S: OnceLock<Vec<AnyState>> = OnceLock::new();
    S.get_or_init(|| {
        let marne = umpire::scenarios::find("glorys-end/marne").unwrap();
        let (mut game, mut players) = umpire::engine::bot::start_game(marne, &[("german", "german"), ("allied", "allied")], 1, 256, "t").unwrap();
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
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(value) = yaml_serde::from_str::<yaml_serde::Value>(text) else { return };
    for s in states() {
        for seat in ["german", "allied", "nobody"] {
            let _ = s.check(seat, &value);
            let mut t = s.clone();
            if t.apply(seat, &value).is_ok() {
                assert!(t.check_invariants().is_ok(), "legal orders broke an invariant");
            }
        }
    }
});
