//! The entry parser: any bytes give an entry or a typed error, never a panic; an entry that
//! parses re-parses from its own bytes to the same thing.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(e) = umpire::log::Entry::parse(data) {
        let again = umpire::log::Entry::parse(&e.bytes).expect("an accepted entry re-parses");
        assert_eq!(again.draft, e.draft);
        assert_eq!(again.hash, e.hash);
    }
});
