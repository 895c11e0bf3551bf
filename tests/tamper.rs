//! Hostile logs: every entry dropped, swapped with its neighbour, duplicated, cut short,
//! re-signed by the wrong key, or carried into another game — each one refused.

mod common;

use umpire::cli::verify_bytes;
use umpire::engine::bot;
use umpire::engine::game::Game;
use umpire::log::entry::Entry;
use umpire::log::store::join_log;

fn finished(seed: u64) -> Game {
    let (mut game, mut players) = common::started_marne(seed, 4096);
    let mut clock = || common::TIME.to_string();
    let mut keep = |_: &Entry, _: &Game| Ok(());
    bot::play_out(&mut game, &mut players, seed, 3000, &mut clock, &mut keep).unwrap();
    game
}

#[test]
fn every_structural_tampering_is_refused() {
    let game = finished(21);
    let es = &game.entries;
    assert!(verify_bytes(&join_log(es)), "the untouched log verifies");
    let mut refused = 0;
    let mut check = |what: String, entries: Vec<Entry>| {
        assert!(!verify_bytes(&join_log(&entries)), "accepted: {what}");
        refused += 1;
    };
    for i in 0..es.len() - 1 {
        // Dropping the last entry leaves a valid prefix (an older copy), so it is not tampering.
        let mut v = es.clone();
        v.remove(i);
        check(format!("entry {i} dropped"), v);
        let mut v = es.clone();
        v.swap(i, i + 1);
        check(format!("entries {i} and {} swapped", i + 1), v);
    }
    for i in 0..es.len() {
        let mut v = es.clone();
        v.insert(i, es[i].clone());
        check(format!("entry {i} duplicated"), v);
    }
    // Re-signed by the other seat's key (the protocol fixes each seat's key at genesis).
    let (_, players) = common::started_marne(21, 4096);
    for (i, e) in es.iter().enumerate() {
        let other = if e.seat() == "german" { "allied" } else { "german" };
        let forged = e.draft.clone().sign(players.key(other).unwrap());
        let mut v = es.clone();
        v[i] = forged;
        check(format!("entry {i} re-signed by {other}'s key"), v);
    }
    eprintln!("{refused} tampered logs refused");
    assert!(refused > 3 * es.len());
}

#[test]
fn a_log_cut_mid_entry_is_refused() {
    let game = finished(22);
    let bytes = join_log(&game.entries[..6]);
    let mut refused = 0;
    for cut in (1..bytes.len()).filter(|&c| bytes[c - 1] != b'\n' || c % 7 == 0) {
        let v = &bytes[..cut];
        // Cutting exactly at an entry boundary leaves a valid shorter log.
        if v.ends_with(b"\n") && bytes[cut..].starts_with(b"---\n") {
            continue;
        }
        assert!(!verify_bytes(v), "a log cut at byte {cut} verified");
        refused += 1;
    }
    eprintln!("{refused} truncations refused");
}

#[test]
fn entries_of_one_game_are_refused_in_another() {
    let a = finished(23);
    let b = finished(24);
    let mut refused = 0;
    for i in 1..a.entries.len().min(b.entries.len()) {
        let mut v = b.entries[..i].to_vec();
        v.push(a.entries[i].clone());
        let mut g = Game::replay(&b.entries[..i]).unwrap();
        assert!(g.apply(&a.entries[i]).is_err(), "entry {i} of game A applied to game B");
        assert!(!verify_bytes(&join_log(&v)));
        refused += 1;
    }
    eprintln!("{refused} cross-game entries refused");
}
