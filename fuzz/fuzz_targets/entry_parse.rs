//! The entry parser: any bytes give an entry or a typed error, never a panic; an entry that
//! parses re-parses from its own bytes to the same thing; and the one-pass read (the strict
//! scan's events deserialised, `log::yamlevents`) gives exactly what `yaml_serde`'s read of
//! the text gives, verdict and error included.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let one = umpire::log::Entry::parse(data);
    let two = umpire::log::Entry::parse_two_pass(data);
    match (&one, &two) {
        (Ok(a), Ok(b)) => assert_eq!((&a.draft, a.hash), (&b.draft, b.hash)),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("one-pass {one:?} against two-pass {two:?}"),
    }
    if let Ok(e) = one {
        let again = umpire::log::Entry::parse(&e.bytes).expect("an accepted entry re-parses");
        assert_eq!(again.draft, e.draft);
        assert_eq!(again.hash, e.hash);
    }
});
