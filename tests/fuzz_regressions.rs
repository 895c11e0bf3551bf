//! Inputs kept from fuzzing (`fuzz/`, see docs/fuzzing.md), replayed on every `cargo test`
//! without the fuzz toolchain: each must give a result or a typed error, never a panic.

use std::path::Path;

use umpire::engine::{RulesetId, SeatInfo};

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions").join(target);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok).map(|e| (e.file_name().to_string_lossy().to_string(), std::fs::read(e.path()).unwrap())).collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn log_split_inputs() {
    for (name, data) in inputs("log_split") {
        for p in umpire::log::store::split_log(&data) {
            let _ = umpire::log::Entry::parse(p);
        }
        assert!(!umpire::cli::verify_bytes(&data) || data.starts_with(b"---\n"), "{name}");
    }
}

#[test]
fn entry_parse_inputs() {
    for (name, data) in inputs("entry_parse") {
        if let Ok(e) = umpire::log::Entry::parse(&data) {
            let again = umpire::log::Entry::parse(&e.bytes).unwrap_or_else(|err| panic!("{name}: accepted entry does not re-parse: {err}"));
            assert_eq!(again.draft, e.draft, "{name}");
        }
    }
}

#[test]
fn orders_inputs() {
    let marne = umpire::scenarios::find("glorys-end/marne").unwrap();
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let state = RulesetId::GlorysEnd.setup(marne.text, None, &seats).unwrap();
    for (name, data) in inputs("orders_glorys_end") {
        let Ok(value) = yaml_serde::from_str::<yaml_serde::Value>(&String::from_utf8_lossy(&data)) else { continue };
        for seat in ["german", "allied", "nobody"] {
            let mut s = state.clone();
            if s.apply(seat, &value).is_ok() {
                assert!(s.check_invariants().is_ok(), "{name}: legal orders broke an invariant");
            }
        }
    }
}

/// The First World War: orders against the four-player start, and scenario texts.
#[test]
fn first_world_war_inputs() {
    let standard = umpire::scenarios::find("first-world-war/standard").unwrap();
    let seats: Vec<SeatInfo> =
        umpire::scenarios::seats(standard).into_iter().map(|(seat, side)| SeatInfo { seat: seat.into(), side: side.into() }).collect();
    let state = RulesetId::FirstWorldWar.setup(standard.text, None, &seats).unwrap();
    let orders = inputs("orders_first_world_war");
    assert!(!orders.is_empty());
    for (name, data) in orders {
        let Ok(value) = yaml_serde::from_str::<yaml_serde::Value>(&String::from_utf8_lossy(&data)) else { continue };
        for seat in seats.iter().map(|s| s.seat.as_str()).chain(["nobody"]) {
            let mut s = state.clone();
            if s.apply(seat, &value).is_ok() {
                assert!(s.check_invariants().is_ok(), "{name}: legal orders broke an invariant");
            }
        }
    }
    for (name, data) in inputs("scenario_first_world_war") {
        assert!(
            RulesetId::FirstWorldWar.setup(&String::from_utf8_lossy(&data), None, &seats).is_err(),
            "{name}: a broken scenario is refused"
        );
    }
}

#[test]
fn scenario_inputs() {
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    for (_, data) in inputs("scenario_glorys_end") {
        if let Ok(s) = RulesetId::GlorysEnd.setup(&String::from_utf8_lossy(&data), None, &seats) {
            let _ = s.check_invariants();
            let _ = s.describe();
        }
    }
}

#[path = "../fuzz/fuzz_targets/protocol_support.rs"]
#[allow(dead_code)]
mod protocol_support;

#[path = "../fuzz/fuzz_targets/mail_support.rs"]
#[allow(dead_code)]
mod mail_support;

/// Protocol-2 edit programs (the `protocol_entries` target): the seeds, and anything kept.
/// Each is run exactly as the fuzz target runs it, properties included (fork evidence only
/// from genesis keys, an accepted log verifies from its own bytes).
#[test]
fn protocol_entries_inputs() {
    let mut all = inputs("protocol_entries");
    all.extend(seeds("protocol_entries"));
    assert!(!all.is_empty());
    for (_, data) in all {
        protocol_support::check(&data);
    }
}

/// Mail messages (the `mail_message` target): the seeds, and anything kept. A message built
/// around entries finds every one; nothing is found that is not within one part.
#[test]
fn mail_message_inputs() {
    let mut all = inputs("mail_message");
    all.extend(seeds("mail_message"));
    assert!(!all.is_empty());
    for (_, data) in all {
        mail_support::check_input(&data);
    }
}

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds").join(target);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| (e.path().display().to_string(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    out
}
