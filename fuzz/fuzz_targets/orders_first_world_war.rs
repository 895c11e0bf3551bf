//! The First World War orders of any shape, against the 4-player start and states along a bot game:
//! never a panic, only "cannot parse" or violations or legal.
#![no_main]
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use umpire::engine::SeatInfo;
use umpire::engine::registry::AnyState;

#[path = "support.rs"]
mod support;

fn fixture() -> &'static (Vec<AnyState>, Vec<SeatInfo>) {
    static S: OnceLock<(Vec<AnyState>, Vec<SeatInfo>)> = OnceLock::new();
    S.get_or_init(|| (support::states("first-world-war/standard"), support::seats("first-world-war/standard")))
}

fuzz_target!(|data: &[u8]| {
    let (states, seats) = fixture();
    support::check_orders(states, seats, data);
});
