//! SIGKILL crash loop (issue 7, DESIGN §2.3): start the real `umpire apply` a few hundred times
//! and kill it at pseudo-random moments spread over its whole run (start-up, replay, writing the
//! temporary file, fsync, rename, directory fsync, cache write). After every kill the log must be
//! byte-for-byte the old or the new one, and it must verify.
//!
//! `UMPIRE_CRASH_KILLS` sets the number of kills (default 300: 26–33 s measured on 2 cores that
//! other builds kept busy, load average about 9; less on an idle machine).

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::umpire_in;

fn umpire(dir: &Path, args: &[&str]) -> std::process::Output {
    umpire_in(dir, args, None)
}

/// splitmix64: a fixed, dependency-free sequence of delays.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[test]
fn sigkill_during_apply_leaves_the_old_or_the_new_log() {
    let kills: usize = std::env::var("UMPIRE_CRASH_KILLS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let t = tempfile::tempdir().unwrap();
    let demo = t.path().join("demo");
    let o = umpire(t.path(), &["demo", "--dir", demo.to_str().unwrap(), "--seed", "9"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let full = std::fs::read_to_string(demo.join("game.log")).unwrap();
    let parts: Vec<&str> = full.split("---\n").filter(|s| !s.is_empty()).collect();
    // A mid-game prefix: long enough for a real replay, short enough for hundreds of runs.
    let k = parts.len().min(60) - 1;
    let old: String = parts[..k].iter().map(|p| format!("---\n{p}")).collect();
    let new = format!("{old}---\n{}", parts[k]);
    let dir = t.path().join("kill");
    std::fs::create_dir(&dir).unwrap();
    let log = dir.join("game.log");
    std::fs::write(dir.join("entry.yaml"), parts[k]).unwrap();
    assert!(umpire::cli::verify_bytes(old.as_bytes()) && umpire::cli::verify_bytes(new.as_bytes()));

    let reset = || {
        std::fs::write(&log, &old).unwrap();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                std::fs::remove_file(p).unwrap();
            }
        }
    };
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(["apply", "game.log", "entry.yaml"])
            .current_dir(&dir)
            .env_remove("UMPIRE_TEST_CRASH")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn umpire apply")
    };

    // The length of an undisturbed run, so the kills are spread over all of it.
    let mut runs = Vec::new();
    for _ in 0..5 {
        reset();
        let start = Instant::now();
        assert!(spawn().wait().unwrap().success());
        runs.push(start.elapsed());
        assert_eq!(std::fs::read_to_string(&log).unwrap(), new);
    }
    runs.sort();
    let span = runs[runs.len() / 2].mul_f64(1.2);

    let mut rng = Rng(0x5EED_0007);
    let (mut stayed_old, mut became_new, mut finished) = (0usize, 0usize, 0usize);
    for i in 0..kills {
        reset();
        let delay = Duration::from_nanos(rng.next() % span.as_nanos() as u64);
        let mut child = spawn();
        std::thread::sleep(delay);
        // SAFETY: kill(2) on our own child's pid; it is not reaped yet, so the pid is still ours.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
        let status = child.wait().unwrap();
        if status.success() {
            finished += 1;
        }
        let now = std::fs::read(&log).unwrap();
        if now == old.as_bytes() {
            stayed_old += 1;
        } else if now == new.as_bytes() {
            became_new += 1;
        } else {
            panic!("kill {i} after {delay:?}: the log is torn ({} bytes; old {}, new {})", now.len(), old.len(), new.len());
        }
        assert!(umpire::cli::verify_bytes(&now), "kill {i}: the log does not verify");
    }
    // And the log is usable after a kill: a normal apply completes it.
    reset();
    let mut child = spawn();
    std::thread::sleep(span / 2);
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
    child.wait().unwrap();
    assert!(umpire(&dir, &["apply", "game.log", "entry.yaml"]).status.success());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), new);
    assert!(umpire(&dir, &["verify", "game.log"]).status.success());
    // That apply left a cache of the game next to the log; `status` from it says what a
    // replay from genesis says.
    assert!(dir.join("game.log.cache").exists());
    let with_cache = umpire(&dir, &["status", "game.log"]);
    std::fs::remove_file(dir.join("game.log.cache")).unwrap();
    let without = umpire(&dir, &["status", "game.log"]);
    assert!(with_cache.status.success() && without.status.success());
    assert_eq!(with_cache.stdout, without.stdout);

    println!(
        "{kills} SIGKILLs over a {span:?} window (undisturbed run {:?}): {stayed_old} left the old log, {became_new} the new one \
         ({finished} of those had already exited); 0 torn",
        runs[runs.len() / 2]
    );
    assert_eq!(stayed_old + became_new, kills);
    assert!(stayed_old > 0 && became_new > 0, "the kills must land both before and after the rename");
}
