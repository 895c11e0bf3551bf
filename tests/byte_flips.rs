//! Byte flips of signed protocol-2 logs, counted (docs/security.md quotes the figures).
//!
//! A flip is *tried* on a copy of a log; it is *refused* when the copy does not verify, *harmless*
//! when it verifies and reads as exactly the same entries (a flip can only do that by turning an
//! LF into CRLF, which a receiving tool accepts, DESIGN §2.2), and *missed* when it verifies
//! with any entry changed. Every test asserts that nothing is missed and prints its tally:
//!
//! ```sh
//! cargo test --release --test byte_flips -- --nocapture --test-threads 1
//! ```

use std::path::Path;

use umpire::crypto::Hash;
use umpire::log::Entry;
use umpire::log::protocol::ProtocolState;
use umpire::log::store::{join_log, parse_log};

#[derive(Default)]
struct Tally {
    tried: u64,
    refused: u64,
    harmless: u64,
    missed: Vec<String>,
}

impl Tally {
    /// Record one tried copy: `verified` is `Some(entries)` when it verified.
    fn record(&mut self, good: &[Hash], verified: Option<Vec<Entry>>, what: impl FnOnce() -> String) {
        self.tried += 1;
        match verified {
            None => self.refused += 1,
            Some(es) if es.iter().map(|e| e.hash).eq(good.iter().copied()) => self.harmless += 1,
            Some(_) => self.missed.push(what()),
        }
    }
    fn report(&self, name: &str) {
        println!(
            "byte flips, {name}: tried {}, refused {}, harmless (same entries) {}, missed {}",
            self.tried,
            self.refused,
            self.harmless,
            self.missed.len()
        );
        assert!(self.missed.is_empty(), "{name}: flips that verified with a changed entry: {:?}", self.missed);
        assert_eq!(self.tried, self.refused + self.harmless + self.missed.len() as u64);
    }
}

/// The protocol checks alone (the vectors' ruleset is a test one): parse, then every entry
/// through [`ProtocolState`] from the genesis.
fn protocol_verify(bytes: &[u8]) -> Option<Vec<Entry>> {
    let entries = parse_log(Path::new("log"), bytes).ok()?;
    let mut st = ProtocolState::from_genesis(entries.first()?).ok()?;
    for e in &entries[1..] {
        st.accept(e).ok()?;
    }
    Some(entries)
}

/// The whole `umpire verify` path (`cli::verify_bytes`: signatures, chain, rules, and the
/// omniscient pass when due).
fn full_verify(bytes: &[u8]) -> Option<Vec<Entry>> {
    if !umpire::cli::verify_bytes(bytes) {
        return None;
    }
    parse_log(Path::new("log"), bytes).ok()
}

/// Every bit of every byte of the protocol-2 test vector log (parallel joins, a leading
/// roll, reveals, `dice_from`, a padded sealed note), through the protocol checks.
#[test]
fn every_bit_of_the_vector_log() {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/game.log")).unwrap();
    let good: Vec<Hash> = protocol_verify(&bytes).expect("the vector log verifies").iter().map(|e| e.hash).collect();
    let mut t = Tally::default();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            t.record(&good, protocol_verify(&b), || format!("byte {i} bit {bit}"));
        }
    }
    t.report("vector log (protocol checks), every bit of every byte");
    assert_eq!(t.tried, 8 * bytes.len() as u64);
}

/// The start of a bot game of Glory's End (Marne): genesis, join, and play with hidden
/// dummies and sealed notes.
fn marne_log(entries: u64) -> Vec<u8> {
    let b = umpire::scenarios::find("glorys-end/marne").unwrap();
    let seats = umpire::scenarios::seats(b);
    let (mut game, mut players) = umpire::engine::bot::start_game(b, &seats, 3, 64, "2026-01-01T00:00:00Z").unwrap();
    let mut clock = || "2026-01-01T00:00:00Z".to_string();
    let _ = umpire::engine::bot::play_out(&mut game, &mut players, 3, entries, &mut clock, &mut |_, _| Ok(()));
    join_log(&game.entries)
}

/// Positions of the lines `---` that start entries.
fn entry_starts(bytes: &[u8]) -> Vec<usize> {
    (0..bytes.len()).filter(|&i| bytes[i..].starts_with(b"---\n") && (i == 0 || bytes[i - 1] == b'\n')).collect()
}

/// A real game through the whole verify path: three bits (0x01, 0x20, 0x80) of every byte of
/// entries 1.., and of one byte in 61 of the genesis (it holds the 20 KB scenario text, and
/// each copy costs a full replay, so the test stays under a minute).
#[test]
fn three_bits_of_every_byte_of_a_real_game_start() {
    let bytes = marne_log(8);
    let good: Vec<Hash> = full_verify(&bytes).expect("the bot game verifies").iter().map(|e| e.hash).collect();
    assert!(good.len() >= 6, "{} entries", good.len());
    let genesis_end = entry_starts(&bytes)[1];
    let mut positions: Vec<usize> = (genesis_end..bytes.len()).collect();
    positions.extend((0..genesis_end).step_by(61));
    let mut t = Tally::default();
    for &i in &positions {
        for bit in [0, 5, 7] {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            t.record(&good, full_verify(&b), || format!("byte {i} bit {bit}"));
        }
    }
    t.report(&format!("Glory's End game start, {} entries (full verify), bits 0, 5, 7 of each byte", good.len()));
}

/// Random changes of one to four bytes anywhere in the same game (a fixed seed, so the
/// figure is the same at every run).
#[test]
fn random_byte_changes_of_a_real_game_start() {
    let bytes = marne_log(8);
    let good: Vec<Hash> = full_verify(&bytes).expect("the bot game verifies").iter().map(|e| e.hash).collect();
    let mut dice = umpire::dice::Dice::from_seed(&umpire::crypto::sha256(b"byte flips"));
    let mut t = Tally::default();
    for _ in 0..1000 {
        let mut b = bytes.clone();
        let n = 1 + dice.roll(4);
        for _ in 0..n {
            let at = dice.roll(b.len() as u32) as usize;
            b[at] = dice.roll(256) as u8;
        }
        if b == bytes {
            continue;
        }
        t.record(&good, full_verify(&b), || format!("{n} random bytes"));
    }
    t.report("Glory's End game start, 1 to 4 random bytes set to random values (full verify)");
}
