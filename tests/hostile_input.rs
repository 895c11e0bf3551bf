//! Hostile inputs (issue 16, items 10–14): each test performs an attack through the real
//! binary and checks the defence. See docs/security.md for what each one is about.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{MARNE_NEW, failing, marne_between, marne_by_email, ok, players_with_keys, propose_and_join, text, umpire_env, umpire_in};

use umpire::crypto::keys::SecretKey;
use umpire::crypto::{Hash, sha256};
use umpire::log::entry::{Body, Draft, Entry, Kind, RulesetRef, ScenarioRef, SeatDecl};

/// A signed genesis written by hand, as a hostile player's own tool could: the body is
/// whatever `edit` makes of a sound Glory's End genesis. Written as `game.log` and
/// `genesis.yaml` in `dir`; alice (german) signs, bob is allied. Returns the entry.
fn hostile_genesis(dir: &Path, edit: impl FnOnce(&mut Body)) -> Entry {
    let alice = SecretKey::from_seed("alice", [1; 32]);
    let bob = SecretKey::from_seed("bob", [2; 32]);
    if !dir.join("bob.key").exists() {
        bob.write_file(&dir.join("bob.key")).unwrap();
        alice.public().write_file(&dir.join("alice.pub")).unwrap();
    }
    let text = umpire::scenarios::find("glorys-end/marne").unwrap().text.to_string();
    let mut b = Body::new(Kind::Genesis);
    b.ruleset = Some(RulesetRef { id: "glorys-end".into(), version: "0.1.0".into() });
    b.engine = Some("umpire 0.1.0".into());
    b.scenario = Some(ScenarioRef { name: "glorys-end/marne".into(), sha256: sha256(text.as_bytes()), text });
    b.seats = Some(vec![
        SeatDecl { seat: "german".into(), side: "german".into(), key: alice.public().to_text() },
        SeatDecl { seat: "allied".into(), side: "allied".into(), key: bob.public().to_text() },
    ]);
    b.nonce = Some(Hash([3; 32]));
    b.chain_length = Some(1000);
    b.chain = Some(Hash([4; 32]));
    edit(&mut b);
    let draft =
        Draft { game: None, seq: 0, prev: None, seat: "german".into(), reveal: None, dice_from: None, time: support::TIME.into(), body: b };
    let e = draft.sign(&alice);
    std::fs::write(dir.join("genesis.yaml"), &e.bytes).unwrap();
    let mut log = b"---\n".to_vec();
    log.extend_from_slice(&e.bytes);
    std::fs::write(dir.join("game.log"), log).unwrap();
    e
}

fn set_scenario_text(b: &mut Body, text: String) {
    let s = b.scenario.as_mut().unwrap();
    s.sha256 = sha256(text.as_bytes());
    s.text = text;
}

/// `[` nested `depth` deep, closed again.
fn deep_flow(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth) + "\n"
}

/// `{a: ` nested `depth` deep, closed again: before the depth bound, libyaml took time
/// quadratic in the depth for this one (36 s for 80,000 levels).
fn deep_map(depth: usize) -> String {
    "{a: ".repeat(depth) + &"}".repeat(depth) + "\n"
}

/// Run umpire without waiting forever: a command still running after `limit` is killed and
/// the test fails (a hang is the bug these tests look for; the time is generous, no timing
/// is asserted). Returns (exit code, output).
fn run_bounded(dir: &Path, args: &[&str], limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .current_dir(dir)
        .env("UMPIRE_FIXED_TIME", support::TIME)
        .env("HOME", dir)
        .env_remove("UMPIRE_TEST_CRASH")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("umpire {args:?} was still running after {limit:?}: it blocked instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    (o.status.code(), text(&o))
}

// ---- item 10: deep nesting ----------------------------------------------------------------

/// A signed genesis whose scenario text nests `[` (or `{a: `) 80,000 deep: `verify`, `show`,
/// `status`, `replay` and `join` refuse it, naming the depth limit, and promptly.
#[test]
fn deep_nesting_in_a_signed_genesis_scenario_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    for deep in [deep_flow(80_000), format!("a: {}", deep_flow(80_000)), deep_map(80_000)] {
        hostile_genesis(dir, |b| set_scenario_text(b, deep));
        for args in [
            &["verify", "game.log"][..],
            &["show", "game.log"],
            &["status", "game.log"],
            &["replay", "game.log"],
            &["join", "genesis.yaml", "--as", "allied", "--key", "bob.key", "-o", "bob.log"],
        ] {
            let (code, out) = run_bounded(dir, args, Duration::from_secs(60));
            assert_eq!(code, Some(1), "{args:?}: {out}");
            assert!(out.contains("nested deeper than 64"), "{args:?}: {out}");
        }
        assert!(!dir.join("bob.log").exists(), "join made no log of a game that cannot start");
    }
    // The same for a deep block mapping (indentation, not brackets) and The First World War.
    hostile_genesis(dir, |b| {
        let deep: String = (0..1_000).map(|i| format!("{}k:\n", " ".repeat(i))).collect::<String>() + &" ".repeat(1_000) + "x\n";
        set_scenario_text(b, deep);
    });
    let out = failing(dir, &["verify", "game.log"]);
    assert!(out.contains("nested deeper than 64"), "{out}");
    hostile_genesis(dir, |b| {
        b.ruleset = Some(RulesetRef { id: "first-world-war".into(), version: "0.1.0".into() });
        set_scenario_text(b, deep_flow(80_000));
    });
    let out = failing(dir, &["verify", "game.log"]);
    assert!(out.contains("nested deeper than 64"), "{out}");
}

/// An orders file nested 80,000 deep is refused by `orders check` and `orders sign` (the log is
/// untouched), and a scenario file and key file nested as deep by `new` and `key show`.
#[test]
fn deep_nesting_in_orders_scenario_and_key_files_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let (alice, _bob) = marne_by_email(t.path());
    std::fs::write(alice.join("deep.yaml"), format!("actions: {}", deep_map(80_000))).unwrap();
    // Key files are read up to 64 KB.
    std::fs::write(alice.join("deepkey.yaml"), format!("umpire: {}", deep_map(10_000))).unwrap();
    let before = std::fs::read(alice.join("game.log")).unwrap();
    for args in [
        &["orders", "check", "game.log", "deep.yaml", "--as", "allied"][..],
        &["orders", "sign", "game.log", "deep.yaml", "--as", "german", "--key", "alice.key"],
        &[
            "new",
            "--scenario-file",
            "deep.yaml",
            "--ruleset",
            "glorys-end",
            "--seat",
            "german=alice.pub",
            "--seat",
            "allied=bob.pub",
            "--as",
            "german",
            "--key",
            "alice.key",
            "-o",
            "deep.log",
        ],
        &[
            "new",
            "--scenario-file",
            "deep.yaml",
            "--ruleset",
            "first-world-war",
            "--seat",
            "germany@central_powers=alice.pub",
            "--seat",
            "western_allies@allies=bob.pub",
            "--as",
            "germany",
            "--key",
            "alice.key",
            "-o",
            "deep.log",
        ],
        &["key", "show", "deepkey.yaml"],
    ] {
        let (code, out) = run_bounded(&alice, args, Duration::from_secs(60));
        assert_eq!(code, Some(1), "{args:?}: {out}");
        assert!(out.contains("nested deeper than 64"), "{args:?}: {out}");
    }
    assert_eq!(std::fs::read(alice.join("game.log")).unwrap(), before, "the log is untouched");
    assert!(!alice.join("deep.log").exists());
}

/// The bound is on nesting only: 64 levels still parse (and are then judged on their merits).
#[test]
fn nesting_at_the_limit_is_only_judged_on_its_merits() {
    let t = tempfile::tempdir().unwrap();
    let (alice, _bob) = marne_by_email(t.path());
    std::fs::write(alice.join("o.yaml"), format!("actions: {}", deep_flow(63))).unwrap();
    let o = umpire_in(&alice, &["orders", "check", "game.log", "o.yaml", "--as", "allied"], None);
    assert!(!text(&o).contains("nested deeper"), "{}", text(&o));
}

// ---- item 11: terminal injection ----------------------------------------------------------

const HOSTILE: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\rGAME OVER: allied wins\u{202e}";

fn assert_clean(what: &str, out: &str) {
    for c in ['\u{1b}', '\r', '\u{7}', '\u{202e}'] {
        assert!(!out.contains(c), "{what}: a raw {c:?} reached the terminal: {out:?}");
    }
}

/// Bob's join carries a note with ESC, BEL, `\r` and a right-to-left override: alice's
/// `apply`, `replay`, `status` and `verify` show it escaped, on one line.
#[test]
fn a_hostile_note_reaches_the_terminal_escaped() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = players_with_keys(t.path());
    ok(
        &alice,
        &[
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
        ],
    );
    std::fs::copy(alice.join("game.log.0.yaml"), bob.join("genesis.yaml")).unwrap();
    ok(&bob, &["join", "genesis.yaml", "--as", "allied", "--key", "bob.key", "--out", "join.yaml", "--note", HOSTILE]);
    std::fs::copy(bob.join("join.yaml"), alice.join("join.yaml")).unwrap();
    let out = ok(&alice, &["apply", "game.log", "join.yaml"]);
    assert_clean("apply", &out);
    assert!(out.contains("note: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\rGAME OVER: allied wins\\u{202e}"), "{out}");
    let out = ok(&alice, &["replay", "game.log"]);
    assert_clean("replay", &out);
    assert!(out.contains("\\u{1b}[2J\\rGAME OVER"), "{out}");
    for args in [&["status", "game.log"][..], &["verify", "game.log"], &["show", "game.log"]] {
        assert_clean(args[0], &ok(&alice, args));
    }
}

/// A scenario file whose name carries escapes (the name is the file's stem) and a public key
/// whose `name` does: what `new`, `status`, `verify` and `key show` print is escaped.
#[test]
fn hostile_scenario_and_key_names_are_escaped() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = players_with_keys(t.path());
    let evil = format!("marne{HOSTILE}");
    std::fs::write(alice.join(format!("{evil}.yaml")), umpire::scenarios::find("glorys-end/marne").unwrap().text).unwrap();
    let file = format!("{evil}.yaml");
    let out = ok(
        &alice,
        &[
            "new",
            "--scenario-file",
            &file,
            "--ruleset",
            "glorys-end",
            "--seat",
            "german=alice.pub",
            "--seat",
            "allied=bob.pub",
            "--as",
            "german",
            "--key",
            "alice.key",
        ],
    );
    assert_clean("new", &out);
    for args in [&["status", "game.log"][..], &["verify", "game.log"], &["replay", "game.log"]] {
        let out = ok(&alice, args);
        assert_clean(args[0], &out);
        assert!(out.contains("marne\\u{1b}]0;pwned"), "{args:?}: {out}");
    }
    let pubkey = std::fs::read_to_string(bob.join("bob.pub")).unwrap().replace("name: bob", "name: \"bob\\e[31m\\r\"");
    std::fs::write(alice.join("evil.pub"), pubkey).unwrap();
    let out = ok(&alice, &["key", "show", "evil.pub"]);
    assert_clean("key show", &out);
    assert!(out.contains("bob\\u{1b}[31m\\r"), "{out}");
}

// ---- item 12: --out EXISTING ----------------------------------------------------------------

/// `join --out FILE` and `orders sign --out FILE` where FILE holds something else: refused
/// before anything is appended (the log is byte for byte as it was, FILE untouched); the
/// same command with a free path then works. `new` likewise never creates a log whose
/// genesis file it could not write.
#[test]
fn out_existing_is_refused_before_the_log_changes() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = players_with_keys(t.path());
    std::fs::write(alice.join("game.log.0.yaml"), "precious\n").unwrap();
    let out = failing(&alice, &MARNE_NEW);
    assert!(out.contains("exists with other content"), "{out}");
    assert!(!alice.join("game.log").exists(), "no log without its genesis file");
    assert_eq!(std::fs::read_to_string(alice.join("game.log.0.yaml")).unwrap(), "precious\n");
    std::fs::remove_file(alice.join("game.log.0.yaml")).unwrap();
    marne_between(&alice, &bob);

    // The allied player moves first on the Marne: bob signs orders with --out on a taken file.
    std::fs::write(bob.join("orders.yaml"), "actions:\n  - end_phase: movement\n").unwrap();
    std::fs::write(bob.join("taken.yaml"), "mine\n").unwrap();
    let before = std::fs::read(bob.join("game.log")).unwrap();
    let o =
        umpire_in(&bob, &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key", "--out", "taken.yaml"], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("taken.yaml exists with other content"), "{out}");
    assert_eq!(std::fs::read(bob.join("game.log")).unwrap(), before, "nothing was appended");
    assert_eq!(std::fs::read_to_string(bob.join("taken.yaml")).unwrap(), "mine\n");
    // An --out in a missing directory: refused the same way.
    let o = umpire_in(
        &bob,
        &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key", "--out", "no/such/dir.yaml"],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(std::fs::read(bob.join("game.log")).unwrap(), before, "nothing was appended");
    // With a free path the same orders sign, and the log and the entry file agree.
    let out = ok(&bob, &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key", "--out", "free.yaml"]);
    assert!(out.contains("free.yaml"), "{out}");
    let log = std::fs::read(bob.join("game.log")).unwrap();
    assert!(log.ends_with(&std::fs::read(bob.join("free.yaml")).unwrap()));
}

// ---- item 13: genesis errors say why ------------------------------------------------------

/// Hand-made geneses that break one rule each: `verify` names the rule broken.
#[test]
fn a_bad_genesis_says_what_is_wrong() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    // A small-order point (the identity) as a seat key.
    let weak = format!("ed25519:{}", {
        use base64::Engine as _;
        let mut b = [0u8; 32];
        b[0] = 1;
        base64::engine::general_purpose::STANDARD.encode(b)
    });
    type Edit = Box<dyn FnOnce(&mut Body)>;
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|b| b.chain_length = Some(0)), "chain_length 0 is not in 1..=1048576"),
        (Box::new(|b| b.chain_length = Some((1 << 20) + 1)), "chain_length 1048577 is not in"),
        (
            Box::new(|b| {
                let s = b.seats.as_mut().unwrap();
                let dup = s[1].clone();
                s.push(dup);
            }),
            "seat \"allied\" is declared twice",
        ),
        (Box::new(move |b| b.seats.as_mut().unwrap()[1].key = weak), "weak"),
        (Box::new(|b| b.seats.as_mut().unwrap()[1].side = "frogs".into()), "which Glory's End does not have"),
    ];
    for (edit, want) in cases {
        hostile_genesis(dir, edit);
        let out = failing(dir, &["verify", "game.log"]);
        assert!(out.contains(want), "want {want:?} in: {out}");
        assert!(!out.contains("the first entry must be"), "{out}");
    }
}

/// `new` refuses a game of one seat, seats the scenario does not have, and a public key
/// given as --key, each with a message that says what to do.
#[test]
fn new_refuses_games_that_cannot_be_played() {
    let t = tempfile::tempdir().unwrap();
    let (alice, _bob) = players_with_keys(t.path());
    let o = umpire_in(
        &alice,
        &["new", "--scenario", "glorys-end/marne", "--seat", "german=alice.pub", "--as", "german", "--key", "alice.key"],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("at least two sides") && text(&o).contains("only one seat"), "{}", text(&o));

    let out = failing(
        &alice,
        &[
            "new",
            "--scenario",
            "glorys-end/marne",
            "--seat",
            "german=alice.pub",
            "--seat",
            "frogs=bob.pub",
            "--as",
            "german",
            "--key",
            "alice.key",
        ],
    );
    assert!(out.contains("\"frogs\"") && out.contains("german and allied"), "{out}");
    assert!(!alice.join("game.log").exists() && !alice.join("game.log.0.yaml").exists());

    let out = failing(
        &alice,
        &[
            "new",
            "--scenario",
            "first-world-war/standard",
            "--seat",
            "central@central_powers=alice.pub",
            "--seat",
            "allies@allies=bob.pub",
            "--seat",
            "frogs@allies=bob.pub",
            "--as",
            "central",
            "--key",
            "alice.key",
        ],
    );
    assert!(out.contains("seat \"frogs\"") && out.contains("plays no faction"), "{out}");

    let mut with_pub = MARNE_NEW;
    with_pub[10] = "alice.pub";
    let out = failing(&alice, &with_pub);
    assert!(out.contains("this is a public key; give the secret key file"), "{out}");
    assert!(!out.contains("chmod"), "{out}");
}

// ---- item 14: FIFOs and stale temporary files ---------------------------------------------

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(st.success());
}

/// A FIFO, a device and a directory given as a key, an entry or an orders file: each command
/// exits with an error instead of waiting for a writer or reading forever.
#[test]
fn non_regular_files_are_refused_promptly() {
    let t = tempfile::tempdir().unwrap();
    let (alice, _bob) = marne_by_email(t.path());
    mkfifo(&alice.join("fifo"));
    std::fs::create_dir(alice.join("adir")).unwrap();
    let bad = ["fifo", "/dev/zero", "adir"];
    for b in bad {
        let seat = format!("german={b}");
        let cases: Vec<Vec<&str>> = vec![
            vec!["key", "show", b],
            vec!["orders", "check", "game.log", "game.log.1.yaml", "--as", "german", "--key", b],
            vec!["resign", "game.log", "--as", "german", "--key", b],
            vec![
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
                b,
                "-o",
                "other.log",
            ],
            vec![
                "new",
                "--scenario",
                "glorys-end/marne",
                "--seat",
                &seat,
                "--seat",
                "allied=bob.pub",
                "--as",
                "german",
                "--key",
                "alice.key",
                "-o",
                "other.log",
            ],
            vec!["apply", "game.log", b],
            vec!["orders", "check", "game.log", b, "--as", "allied"],
            vec!["verify", b],
        ];
        for args in cases {
            let (code, out) = run_bounded(&alice, &args, Duration::from_secs(30));
            assert_eq!(code, Some(1), "{args:?}: {out}");
            assert!(!out.contains("panicked"), "{args:?}: {out}");
        }
    }
    let (_, out) = run_bounded(&alice, &["key", "show", "fifo"], Duration::from_secs(30));
    assert!(out.contains("not a regular file"), "{out}");
    assert!(!alice.join("other.log").exists());
}

fn temp_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    v.sort();
    v
}

/// A writer killed after writing its temporary file leaves it beside the log; the next
/// append (under the lock) removes it, and any other leftover of a process that is gone, but
/// nothing that is not one of the log's temporary files.
#[test]
fn stale_temporary_files_are_removed_at_the_next_append() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = players_with_keys(t.path());
    propose_and_join(&alice, &bob);
    let o = umpire_env(&alice, &["apply", "game.log", "game.log.1.yaml"], None, &[("UMPIRE_TEST_CRASH", "after-temp-write")]);
    assert!(!o.status.success(), "the writer was made to abort");
    let left = temp_files(&alice);
    assert_eq!(left.len(), 1, "the crash left its temporary file: {left:?}");
    // A leftover of a process id that cannot exist (above any pid_max), one that is not ours
    // by its name, and one of another log.
    std::fs::write(alice.join(".game.log.2147483646.7.tmp"), "stale").unwrap();
    std::fs::write(alice.join(".game.log.notes.tmp"), "not ours").unwrap();
    std::fs::write(alice.join(".other.log.2147483646.0.tmp"), "another log's").unwrap();
    ok(&alice, &["apply", "game.log", "game.log.1.yaml"]);
    assert_eq!(temp_files(&alice), [".game.log.notes.tmp", ".other.log.2147483646.0.tmp"]);
    ok(&alice, &["verify", "game.log"]);
}
