//! Running the real `umpire` binary from integration tests: a fixed clock, a private HOME, no
//! stray environment, and a time limit so a hung command fails instead of blocking CI.
#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The fixed clock every command runs with.
pub const TIME: &str = "2026-11-23T12:00:00Z";

pub fn umpire_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    umpire_env(dir, args, stdin, &[])
}

pub fn umpire_env(dir: &Path, args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args(args)
        .current_dir(dir)
        .env("UMPIRE_FIXED_TIME", TIME)
        .env("HOME", dir) // no stray ~/.config/umpire/mail.yaml
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("UMPIRE_SMTP_PASSWORD")
        .env_remove("UMPIRE_TEST_CRASH")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run umpire");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    // Never hang: a command that takes a minute is a failure.
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("umpire {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

pub fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

pub fn ok(dir: &Path, args: &[&str]) -> String {
    let o = umpire_in(dir, args, None);
    assert!(o.status.success(), "umpire {args:?} failed: {}", text(&o));
    text(&o)
}

pub fn failing(dir: &Path, args: &[&str]) -> String {
    let o = umpire_in(dir, args, None);
    assert_eq!(o.status.code(), Some(1), "umpire {args:?} should fail with exit 1: {}", text(&o));
    text(&o)
}

/// Alice's and bob's directories under `root`, each with its own key (`umpire key new`) and
/// the other's public key copied in, as two players start.
pub fn players_with_keys(root: &Path) -> (PathBuf, PathBuf) {
    let alice = root.join("alice");
    let bob = root.join("bob");
    std::fs::create_dir_all(&alice).unwrap();
    std::fs::create_dir_all(&bob).unwrap();
    ok(&alice, &["key", "new", "alice"]);
    ok(&bob, &["key", "new", "bob"]);
    std::fs::copy(alice.join("alice.pub"), bob.join("alice.pub")).unwrap();
    std::fs::copy(bob.join("bob.pub"), alice.join("bob.pub")).unwrap();
    (alice, bob)
}

/// Alice's `umpire new` of a Marne game against bob (keys from [`players_with_keys`]).
pub const MARNE_NEW: [&str; 13] = [
    "new",
    "--scenario",
    "glorys-end/marne",
    "--seat",
    "german=alice.pub",
    "--seat",
    "allied=bob.pub",
    "--as",
    "german",
    "--key",
    "alice.key",
    "-o",
    "game.log",
];

/// A Marne game between alice (german) and bob (allied), as the README starts one: alice
/// proposes it, bob joins from the genesis entry file, alice applies the join. Returns their
/// directories, each with `game.log`.
pub fn marne_by_email(root: &Path) -> (PathBuf, PathBuf) {
    let (alice, bob) = players_with_keys(root);
    marne_between(&alice, &bob);
    (alice, bob)
}

/// [`marne_by_email`] between players whose keys are already made.
pub fn marne_between(alice: &Path, bob: &Path) {
    propose_and_join(alice, bob);
    ok(alice, &["apply", "game.log", "game.log.1.yaml"]);
}

/// Alice proposes the Marne game and bob joins it; bob's join (`game.log.1.yaml`) is copied
/// to alice's directory, not yet applied there.
pub fn propose_and_join(alice: &Path, bob: &Path) {
    let out = ok(alice, &MARNE_NEW);
    assert!(out.contains("umpire join"), "{out}");
    std::fs::copy(alice.join("game.log.0.yaml"), bob.join("game.log.0.yaml")).unwrap();
    let out = ok(bob, &["join", "game.log.0.yaml", "--as", "allied", "--key", "bob.key", "-o", "game.log"]);
    assert!(out.contains("play starts"), "{out}");
    std::fs::copy(bob.join("game.log.1.yaml"), alice.join("game.log.1.yaml")).unwrap();
}

/// Copy entry file `name` from one player's directory to the other's.
pub fn send(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

/// Write a game's entries as `dir/game.log` and `seat`'s key as `dir/<seat>.key` (owner-only,
/// as `umpire` requires of key files), for `show --as SEAT --key <seat>.key`.
pub fn write_log_and_key(dir: &Path, entries: &[umpire::log::Entry], seat: &str, key: &umpire::crypto::keys::SecretKey) {
    umpire::log::store::create_log(&dir.join("game.log"), entries).unwrap();
    let kf = dir.join(format!("{seat}.key"));
    std::fs::write(&kf, key.to_file_text()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&kf, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}
