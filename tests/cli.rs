//! CLI transcript tests: the real binary, a fixed clock and fixed seeds.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;
use support::{text, umpire_in};

fn umpire(dir: &Path, args: &[&str]) -> std::process::Output {
    umpire_in(dir, args, None)
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "command failed: {}", text(o));
    text(o)
}

/// A finished demo game in a fresh temp dir: (tempdir guard, dir, log path).
fn demo(seed: u64) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("demo");
    let o = umpire(t.path(), &["demo", "--dir", dir.to_str().unwrap(), "--seed", &seed.to_string()]);
    let out = ok(&o);
    assert!(out.contains("verify: OK"), "{out}");
    let log = dir.join("game.log");
    (t, dir, log)
}

#[test]
fn usage_errors_exit_2() {
    let t = tempfile::tempdir().unwrap();
    let o = umpire(t.path(), &["new"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = umpire(t.path(), &["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = umpire(t.path(), &["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o).contains("umpire demo"));
}

#[test]
fn keys_are_made_private_and_shown() {
    let t = tempfile::tempdir().unwrap();
    let out = ok(&umpire(t.path(), &["key", "new", "alice"]));
    assert!(out.contains("alice.key"), "{out}");
    let key = t.path().join("alice.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let shown = ok(&umpire(t.path(), &["key", "show", "alice.pub"]));
    assert!(shown.contains("name:   alice") && shown.contains("ed25519:") && shown.contains("key id:"), "{shown}");
    let shown2 = ok(&umpire(t.path(), &["key", "show", "alice.key"]));
    assert_eq!(shown, shown2, "secret and public files show the same key");
    // A second `key new` never overwrites.
    let o = umpire(t.path(), &["key", "new", "alice"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let o = umpire(t.path(), &["key", "show", "alice.key"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o).contains("chmod 600"), "{}", text(&o));
    }
}

#[test]
fn demo_is_reproducible_and_verifies() {
    let (_t1, _d1, log1) = demo(7);
    let (_t2, _d2, log2) = demo(7);
    let a = std::fs::read(&log1).unwrap();
    let b = std::fs::read(&log2).unwrap();
    assert_eq!(a, b, "same seed and clock give the same log, byte for byte");
    let dir = log1.parent().unwrap();
    let v = ok(&umpire(dir, &["verify", "game.log"]));
    assert!(v.contains("OK: the log verifies"), "{v}");
    let j = ok(&umpire(dir, &["verify", "game.log", "--json"]));
    let report: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(report["ok"], true);
    assert!(!report["random_events"].as_array().unwrap().is_empty(), "a whole game rolls dice");
    assert!(!report["outcome"].as_str().unwrap().is_empty());
    // replay and show run on it.
    let r = ok(&umpire(dir, &["replay", "game.log", "--to", "6"]));
    assert!(r.contains("== entry 6"), "{r}");
    assert!(!r.contains("== entry 7"));
    ok(&umpire(dir, &["show", "game.log", "--at", "3"]));
    let s = ok(&umpire(dir, &["status", "game.log"]));
    assert!(s.contains("GAME OVER"), "{s}");
}

#[test]
fn demo_twice_in_one_dir_replaces_the_previous_one_but_nothing_else() {
    let (t, dir, _log) = demo(3);
    ok(&umpire(t.path(), &["demo", "--dir", dir.to_str().unwrap(), "--seed", "4"]));
    let other = t.path().join("not-a-demo");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("precious.txt"), "x").unwrap();
    let o = umpire(t.path(), &["demo", "--dir", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(other.join("precious.txt").exists());
}

/// Every single-byte change to a log makes it fail verification.
#[test]
fn any_single_byte_change_fails_verify() {
    let (_t, dir, log) = demo(11);
    let bytes = std::fs::read(&log).unwrap();
    // A short prefix of the game (a valid log in itself) keeps this exhaustive test quick:
    // every byte of entries 1..=6 and a spread of bytes of the genesis.
    let starts: Vec<usize> =
        bytes.windows(4).enumerate().filter(|(_, w)| *w == b"---\n").map(|(i, _)| i).filter(|&i| i == 0 || bytes[i - 1] == b'\n').collect();
    let end = starts.get(7).copied().unwrap_or(bytes.len());
    let prefix = &bytes[..end];
    let genesis_end = starts[1];
    let mut positions: Vec<usize> = (genesis_end..end).collect();
    positions.extend((0..genesis_end).step_by(97));
    positions.push(genesis_end - 1);
    let prefix_path = dir.join("prefix.log");
    std::fs::write(&prefix_path, prefix).unwrap();
    assert!(umpire(&dir, &["verify", "prefix.log"]).status.success(), "the untouched prefix verifies");
    let mut failures_missed = Vec::new();
    for &p in &positions {
        for delta in [1u8, 0x20] {
            let mut m = prefix.to_vec();
            m[p] ^= delta;
            if m == prefix {
                continue;
            }
            if umpire::cli::verify_bytes(&m) {
                failures_missed.push((p, delta));
            }
        }
    }
    assert!(failures_missed.is_empty(), "changes that still verified: {failures_missed:?}");
}

#[test]
fn concurrent_applies_lose_and_duplicate_nothing() {
    let (_t, dir, log) = demo(5);
    let full = std::fs::read(&log).unwrap();
    // A copy holding only entries 0..=1, and the rest as entry files.
    let log_text = String::from_utf8(full.clone()).unwrap();
    let parts: Vec<&str> = log_text.split("---\n").filter(|s| !s.is_empty()).collect();
    let n = parts.len().min(40);
    let copy = dir.join("copy.log");
    std::fs::write(&copy, format!("---\n{}---\n{}", parts[0], parts[1])).unwrap();
    let mut files = Vec::new();
    for (i, p) in parts.iter().enumerate().take(n).skip(2) {
        let f = dir.join(format!("e{i}.yaml"));
        std::fs::write(&f, p).unwrap();
        files.push(f.to_string_lossy().to_string());
    }
    // Eight processes at once, each applying every entry: the lock serialises them; the
    // later ones find the entries already there and skip them.
    let mut children = Vec::new();
    for _ in 0..8 {
        let mut args = vec!["apply".to_string(), "copy.log".to_string()];
        args.extend(files.iter().cloned());
        children.push(
            Command::new(env!("CARGO_BIN_EXE_umpire")).args(&args).current_dir(&dir).env_remove("UMPIRE_TEST_CRASH").output().unwrap(),
        );
    }
    let _ = children.iter().map(|c| assert!(c.status.success(), "{}", text(c))).count();
    let got = std::fs::read_to_string(&copy).unwrap();
    let want: String = parts.iter().take(n).map(|p| format!("---\n{p}")).collect();
    assert_eq!(got, want, "every entry exactly once, in order");
}

#[test]
fn a_crash_mid_append_leaves_the_old_log() {
    let (_t, dir, log) = demo(9);
    let log_text = std::fs::read_to_string(&log).unwrap();
    let parts: Vec<&str> = log_text.split("---\n").filter(|s| !s.is_empty()).collect();
    let copy = dir.join("copy.log");
    let old = format!("---\n{}---\n{}", parts[0], parts[1]);
    std::fs::write(&copy, &old).unwrap();
    std::fs::write(dir.join("e2.yaml"), parts[2]).unwrap();
    for point in ["after-temp-write", "after-rename"] {
        std::fs::write(&copy, &old).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(["apply", "copy.log", "e2.yaml"])
            .current_dir(&dir)
            .env("UMPIRE_TEST_CRASH", point)
            .output()
            .unwrap();
        assert!(!o.status.success(), "the process was made to abort at {point}");
        let now = std::fs::read_to_string(&copy).unwrap();
        let new = format!("{old}---\n{}", parts[2]);
        assert!(now == old || now == new, "after a crash at {point} the log is the old or the new one, never torn");
        if point == "after-temp-write" {
            assert_eq!(now, old, "the rename had not happened");
        }
        // And the next apply works normally.
        ok(&umpire(&dir, &["apply", "copy.log", "e2.yaml"]));
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), new);
        ok(&umpire(&dir, &["verify", "copy.log"]));
    }
}

#[test]
fn bad_input_is_refused_and_the_log_is_untouched() {
    let (_t, dir, log) = demo(13);
    let log_text = std::fs::read_to_string(&log).unwrap();
    let parts: Vec<&str> = log_text.split("---\n").filter(|s| !s.is_empty()).collect();
    let copy = dir.join("copy.log");
    let old = format!("---\n{}---\n{}---\n{}", parts[0], parts[1], parts[2]);
    let reset = || std::fs::write(&copy, &old).unwrap();
    let check_refused = |file: &str, content: &[u8], needle: &str| {
        reset();
        std::fs::write(dir.join(file), content).unwrap();
        let o = umpire(&dir, &["apply", "copy.log", file]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", text(&o));
        assert!(text(&o).contains(needle), "{file}: want {needle:?} in: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{}", text(&o));
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), old, "{file}: the log was not touched");
    };
    check_refused("garbage.yaml", b"\x00\x01 not yaml {{{", "entry");
    check_refused("empty.yaml", b"", "sig");
    check_refused("huge.yaml", &vec![b'a'; 300 * 1024 * 1024 / 64], "");
    // Entry 4 before entry 3: too early.
    check_refused("early.yaml", parts[4].as_bytes(), "too early");
    // An entry with a flipped byte in its signature.
    let mut bad_sig = parts[3].as_bytes().to_vec();
    let at = bad_sig.len() - 10;
    bad_sig[at] = if bad_sig[at] == b'A' { b'B' } else { b'A' };
    check_refused("badsig.yaml", &bad_sig, "entry 3");
    // An entry of another game.
    let (_t2, _d2, other) = demo(14);
    let other_text = std::fs::read_to_string(&other).unwrap();
    let other_parts: Vec<&str> = other_text.split("---\n").filter(|s| !s.is_empty()).collect();
    check_refused("othergame.yaml", other_parts[3].as_bytes(), "game");
    // A different entry 2: a fork, both hashes printed.
    check_refused("fork.yaml", other_parts[2].as_bytes(), "");
    // Applying an entry already in the log is harmless.
    reset();
    std::fs::write(dir.join("dup.yaml"), parts[2]).unwrap();
    let out = ok(&umpire(&dir, &["apply", "copy.log", "dup.yaml"]));
    assert!(out.contains("already in the log"), "{out}");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), old);
}

/// `umpire verify A.log B.log …`: a tournament in one command (issue 20). One line per game in
/// the order given, a summary, exit 1 if any game has a problem, `--json` for scripts, and the
/// same verdicts one by one.
#[test]
fn verify_of_many_logs_is_a_tournament() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    for r in ["glorys-end", "first-world-war", "when-eagles-fight"] {
        let d = dir.join(format!("d-{r}"));
        ok(&umpire(dir, &["demo", "--dir", d.to_str().unwrap(), "--ruleset", r, "--seed", "5"]));
        std::fs::copy(d.join("game.log"), dir.join(format!("{r}.log"))).unwrap();
    }
    // A copy of the Glory's End game with entry 5 renumbered: broken from there on.
    let good = std::fs::read_to_string(dir.join("glorys-end.log")).unwrap();
    let bad = good.replacen("\nseq: 5\n", "\nseq: 6\n", 1);
    assert_ne!(bad, good);
    std::fs::write(dir.join("broken.log"), bad).unwrap();

    let all = ["glorys-end.log", "first-world-war.log", "when-eagles-fight.log"];
    let out = ok(&umpire(dir, &["verify", all[0], all[1], all[2]]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (line, log) in lines.iter().zip(all) {
        assert!(line.starts_with(&format!("OK     {log}: ")) && line.contains(" entries, result: "), "{out}");
    }
    assert!(lines[3].starts_with("OK: all 3 logs verify ("), "{out}");
    // One worker gives the same output: the order is the order given, not of finishing.
    assert_eq!(ok(&umpire(dir, &["verify", "--jobs", "1", all[0], all[1], all[2]])), out);

    let o = umpire(dir, &["verify", all[0], "broken.log", all[2]]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("OK     glorys-end.log"), "{out}");
    assert!(lines[1].starts_with("FAILED broken.log: ") && lines[1].contains(" checked, 2 problems"), "{out}");
    assert!(lines[2].starts_with("    entry ") && lines[2].contains("seq is 6, expected 5"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("OK     when-eagles-fight.log")), "{out}");
    assert!(out.lines().last().unwrap().starts_with("FAILED: 1 of 3 logs have problems (2 verify; "), "{out}");

    // --json: the totals, and each game's report as `verify LOG --json` prints it.
    let o = umpire(dir, &["verify", "--json", all[0], "broken.log", all[2]]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["ok"].as_bool(), j["logs"].as_u64(), j["verified"].as_u64(), j["failed"].as_u64()),
        (Some(false), Some(3), Some(2), Some(1))
    );
    assert_eq!(j["games"][1]["log"], "broken.log");
    assert_eq!(j["games"][1]["ok"], false);
    for (i, log) in [(0, all[0]), (2, all[2])] {
        let single: serde_json::Value = serde_json::from_str(&ok(&umpire(dir, &["verify", "--json", log]))).unwrap();
        let mut game = j["games"][i].clone();
        game.as_object_mut().unwrap().remove("log");
        assert_eq!(game, single, "{log}: the tournament's report is the single report");
    }
    let entries: u64 = j["games"].as_array().unwrap().iter().map(|g| g["entries"].as_u64().unwrap()).sum();
    assert_eq!(j["entries"].as_u64(), Some(entries));

    // One log prints the full report as before; --against and --verbose take one log.
    let single = ok(&umpire(dir, &["verify", all[0]]));
    assert!(single.starts_with("verify glorys-end.log\n  game ") && single.ends_with("OK: the log verifies\n"), "{single}");
    for flag in [&["--against", all[1]][..], &["--verbose"][..]] {
        let mut args = vec!["verify", all[0], all[2]];
        args.extend_from_slice(flag);
        assert_eq!(umpire(dir, &args).status.code(), Some(2), "{flag:?}");
    }
}

/// `UMPIRE_PEAK_REPORT` (what `umpire bench` measures verify's memory with): the process
/// writes its peak resident memory in KiB to the named file as it ends, whatever it ran.
#[cfg(target_os = "linux")]
#[test]
fn the_peak_memory_report_names_the_process_own_peak() {
    let (_t, dir, log) = demo(5);
    let report = dir.join("peak.kib");
    let o = Command::new(env!("CARGO_BIN_EXE_umpire")).arg("verify").arg(&log).env("UMPIRE_PEAK_REPORT", &report).output().unwrap();
    ok(&o);
    let kib: u64 = std::fs::read_to_string(&report).unwrap().trim().parse().expect("a number of KiB");
    // More than the start-up of a process, less than anything a verify of a demo could need.
    assert!((1024..512 * 1024).contains(&kib), "{kib} KiB");
    // Without the variable nothing is written.
    std::fs::remove_file(&report).unwrap();
    ok(&Command::new(env!("CARGO_BIN_EXE_umpire")).arg("verify").arg(&log).output().unwrap());
    assert!(!report.exists());
}
