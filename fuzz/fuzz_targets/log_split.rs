//! The log splitter and every entry it yields: never a panic, whatever the bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parts = umpire::log::store::split_log(data);
    for p in parts {
        let _ = umpire::log::Entry::parse(p);
    }
    let _ = umpire::cli::verify_bytes(data);
});
