//! The First World War scenario texts: a playable state or a clear error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use umpire::engine::RulesetId;

#[path = "support.rs"]
mod support;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let seats = support::seats("first-world-war/standard");
    if let Ok(s) = RulesetId::FirstWorldWar.setup(text, None, &seats) {
        let _ = s.check_invariants();
        let _ = s.expect();
        let _ = s.describe();
    }
});
