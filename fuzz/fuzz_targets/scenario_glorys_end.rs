//! Scenario texts: a playable state or a clear error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use umpire::engine::{RulesetId, SeatInfo};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    if let Ok(s) = RulesetId::GlorysEnd.setup(text, None, &seats) {
        let _ = s.check_invariants();
        let _ = s.expect();
        let _ = s.describe();
    }
});
