//! The First World War scenario texts: a playable state or a clear error, never a panic.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use umpire::engine::{RulesetId, SeatInfo};

#[path = "support.rs"]
mod support;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    static SEATS: OnceLock<Vec<SeatInfo>> = OnceLock::new();
    let seats = SEATS.get_or_init(|| support::seats("first-world-war/standard"));
    if let Ok(s) = RulesetId::FirstWorldWar.setup(text, None, seats) {
        let _ = s.check_invariants();
        let _ = s.expect();
        let _ = s.describe();
    }
});
