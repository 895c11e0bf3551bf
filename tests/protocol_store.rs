//! Concurrency and crash tests of the log store (DESIGN §2.3).
//!
//! Child processes are this test binary itself, re-run with `UMPIRE_TEST_STORE_CHILD`
//! set (read only here, in the test) and filtered to the `child_*` tests.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire::crypto::keys::SecretKey;
use umpire::log::entry::{Body, Draft, Entry, Kind};
use umpire::log::store::{CrashPoint, LockedLog, create_log, read_log};

const CHILD_ENV: &str = "UMPIRE_TEST_STORE_CHILD";

fn entry(writer: &str, n: u64) -> Entry {
    let mut b = Body::new(Kind::Ack);
    b.note = Some(format!("{writer}/{n}"));
    Draft { game: None, seq: 0, prev: None, seat: writer.into(), reveal: None, dice_from: None, time: "t".into(), body: b }
        .sign(&SecretKey::from_seed("k", [1; 32]))
}

fn notes(path: &Path) -> Vec<String> {
    read_log(path).unwrap().into_iter().map(|e| e.draft.body.note.unwrap()).collect()
}

fn append_many(path: &Path, writer: &str, count: u64) {
    for n in 0..count {
        let (mut l, entries) = LockedLog::open(path).unwrap();
        let before = entries.len();
        assert_eq!(l.len(), before);
        l.append(&[entry(writer, n)]).unwrap();
        assert_eq!(l.len(), before + 1);
    }
}

fn check_all(path: &Path, writers: &[String], count: u64) {
    let got = notes(path);
    assert_eq!(got.len() as u64, 1 + writers.len() as u64 * count, "lost or duplicated entries");
    let mut sorted = got.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), got.len(), "duplicates");
    for w in writers {
        // Each writer's entries appear once each, in its own order.
        let mine: Vec<_> = got.iter().filter(|n| n.starts_with(&format!("{w}/"))).cloned().collect();
        let want: Vec<_> = (0..count).map(|n| format!("{w}/{n}")).collect();
        assert_eq!(mine, want);
    }
    // No temporary file left behind.
    let dir = path.parent().unwrap();
    let names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

fn new_log(dir: &Path) -> PathBuf {
    let p = dir.join("game.log");
    create_log(&p, &[entry("genesis", 0)]).unwrap();
    p
}

#[test]
fn threads_append_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let p = new_log(dir.path());
    let writers: Vec<String> = (0..8).map(|i| format!("t{i}")).collect();
    let count = 25;
    std::thread::scope(|s| {
        for w in &writers {
            let p = &p;
            s.spawn(move || append_many(p, w, count));
        }
    });
    check_all(&p, &writers, count);
}

fn child(test: &str, env: String) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, env)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Child side of `processes_append_concurrently`: `append\t<path>\t<writer>\t<count>`.
#[test]
fn child_append() {
    let Ok(spec) = std::env::var(CHILD_ENV) else { return };
    let parts: Vec<&str> = spec.split('\t').collect();
    if parts[0] != "append" {
        return;
    }
    append_many(Path::new(parts[1]), parts[2], parts[3].parse().unwrap());
}

/// Child side of the crash tests: `crash\t<path>\t<point>`.
#[test]
fn child_crash() {
    let Ok(spec) = std::env::var(CHILD_ENV) else { return };
    let parts: Vec<&str> = spec.split('\t').collect();
    if parts[0] != "crash" {
        return;
    }
    let (mut l, _) = LockedLog::open(Path::new(parts[1])).unwrap();
    l.set_crash_point(Some(match parts[2] {
        "after-temp-write" => CrashPoint::AfterTempWrite,
        _ => CrashPoint::AfterRename,
    }));
    l.append(&[entry("crasher", 0)]).unwrap();
    unreachable!("the append should have aborted");
}

#[test]
fn processes_append_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let p = new_log(dir.path());
    let writers: Vec<String> = (0..4).map(|i| format!("p{i}")).collect();
    let count = 15;
    let mut kids: Vec<_> = writers.iter().map(|w| child("child_append", format!("append\t{}\t{w}\t{count}", p.display()))).collect();
    // And threads of this process at the same time.
    let local: Vec<String> = (0..2).map(|i| format!("local{i}")).collect();
    std::thread::scope(|s| {
        for w in &local {
            let p = &p;
            s.spawn(move || append_many(p, w, count));
        }
    });
    for k in &mut kids {
        assert!(k.wait().unwrap().success());
    }
    let all: Vec<String> = writers.iter().chain(&local).cloned().collect();
    check_all(&p, &all, count);
}

fn entries_of_dir(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn crash_after_temp_write_leaves_old_log() {
    let dir = tempfile::tempdir().unwrap();
    let p = new_log(dir.path());
    append_many(&p, "w", 2);
    let before = std::fs::read(&p).unwrap();
    let status = child("child_crash", format!("crash\t{}\tafter-temp-write", p.display())).wait().unwrap();
    assert!(!status.success());
    assert_eq!(std::fs::read(&p).unwrap(), before, "the old log must be intact");
    assert_eq!(read_log(&p).unwrap().len(), 3);
    // A stray temporary file may remain; it is never read.
    assert_eq!(entries_of_dir(dir.path()), 2);
    // The log is still usable (the crashed child's lock died with it).
    append_many(&p, "after", 1);
    assert_eq!(read_log(&p).unwrap().len(), 4);
}

#[test]
fn crash_after_rename_leaves_new_log() {
    let dir = tempfile::tempdir().unwrap();
    let p = new_log(dir.path());
    let status = child("child_crash", format!("crash\t{}\tafter-rename", p.display())).wait().unwrap();
    assert!(!status.success());
    let n = notes(&p);
    assert_eq!(n, vec!["genesis/0".to_string(), "crasher/0".to_string()]);
    append_many(&p, "after", 1);
    assert_eq!(read_log(&p).unwrap().len(), 3);
}
