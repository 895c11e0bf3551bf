//! `umpire robot`: two players, each with a robot and a scripted human, play a whole Marne
//! game by mail; hostile mail (forged, foreign, huge, repeated, equivocating entries, entries
//! that leave a decision) never makes a robot sign; a robot killed at each named point and
//! started again loses nothing and sends nothing twice.
//!
//! The ordinary tests use Maildirs (each robot reads its own and delivers into the other's).
//! `dovecot_and_aiosmtpd_whole_game` (ignored; `.ci/run` runs it) plays the same game through
//! a real IMAP server (Debian's Dovecot, IMAPS and STARTTLS with the test certificate) and a
//! real SMTP server (Debian's aiosmtpd) on loopback ports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use umpire::crypto::keys::SecretKey;
use umpire::engine::auto::automatic_reply;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::log::entry::{Entry, Kind};
use umpire::log::store;

mod support;
use support::{TIME, marne_between, ok, players_with_keys, text, umpire_env};

/// One player: a directory with `game.log`, a key, a Maildir inbox and a robot config.
#[derive(Clone)]
struct Side {
    dir: PathBuf,
    seat: &'static str,
    key: &'static str,
    addr: &'static str,
    inbox: PathBuf,
}

fn maildir(p: &Path) {
    for s in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(p.join(s)).unwrap();
    }
}

/// Alice (german) and bob (allied) in a started Marne game, each with an inbox and a robot
/// that delivers into the other's inbox.
fn two_players(root: &Path, extra: &str) -> (Side, Side) {
    let (a, b) = players_with_keys(root);
    marne_between(&a, &b);
    let alice = Side { dir: a.clone(), seat: "german", key: "alice.key", addr: "alice@example.org", inbox: a.join("Maildir") };
    let bob = Side { dir: b.clone(), seat: "allied", key: "bob.key", addr: "bob@example.org", inbox: b.join("Maildir") };
    for (me, other) in [(&alice, &bob), (&bob, &alice)] {
        maildir(&me.inbox);
        let cfg = format!(
            "from: \"{seat} <{addr}>\"\nstate_dir: state\n{extra}mailbox:\n  maildir: Maildir\nsend:\n  maildir: {out}\ngames:\n  - log: game.log\n    seat: {seat}\n    key: {key}\n    to: [\"{to}\"]\n",
            seat = me.seat,
            addr = me.addr,
            out = other.inbox.display(),
            key = me.key,
            to = other.addr,
        );
        std::fs::write(me.dir.join("robot.yaml"), cfg).unwrap();
    }
    (alice, bob)
}

fn robot_env(side: &Side, env: &[(&str, &str)]) -> Output {
    umpire_env(&side.dir, &["robot", "--config", "robot.yaml", "--once"], None, env)
}

/// One pass of the side's robot, which must succeed; its output.
fn robot(side: &Side) -> String {
    let o = robot_env(side, &[]);
    assert!(o.status.success(), "robot of {} failed: {}", side.seat, text(&o));
    text(&o)
}

fn game_of(side: &Side) -> Game {
    Game::replay(&store::read_log(&side.dir.join("game.log")).unwrap()).map_err(|(_, e)| e).unwrap()
}

fn key_of(side: &Side) -> SecretKey {
    SecretKey::read_file(&side.dir.join(side.key)).unwrap()
}

/// Put a message into a Maildir as a delivery agent does (tmp, then rename into new).
fn deliver(inbox: &Path, name: &str, bytes: &[u8]) {
    let tmp = inbox.join("tmp").join(name);
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, inbox.join("new").join(name)).unwrap();
}

/// A plain message with the entry pasted in its text (as a person forwarding it would).
fn pasted(entry: &[u8], subject: &str) -> Vec<u8> {
    let mut m =
        format!("From: alice@example.org\nTo: bob@example.org\nSubject: {subject}\nMessage-ID: <{subject}@example.org>\n\n").into_bytes();
    m.extend_from_slice(entry);
    m
}

fn messages_in(inbox: &Path) -> usize {
    ["new", "cur"].iter().map(|s| std::fs::read_dir(inbox.join(s)).map(|d| d.count()).unwrap_or(0)).sum()
}

/// The scripted human: if the side's seat must decide now (its entry is due and the robot
/// would not answer it), play the bot's orders for it, sign them into the log and return the
/// new entry's seq. The caller mails it.
fn human_decides(side: &Side, seed: u64) -> Option<u64> {
    let mut game = game_of(side);
    if game.outcome().is_some() || !game.waiting_for().iter().any(|(s, _)| s == side.seat) {
        return None;
    }
    let key = key_of(side);
    let reveal = bot::next_reveal(&game, side.seat, &key).unwrap();
    if automatic_reply(&game, side.seat, reveal.as_ref(), None).is_some() {
        return None; // the robot's to answer
    }
    let mut players = Players::new(BTreeMap::from([(side.seat.to_string(), key)]));
    let mut ch = bot::chooser(seed, side.seat, game.next_seq());
    let body = bot::next_body(&game, side.seat, &mut players, &mut ch).unwrap()?;
    assert_ne!(body.kind, Kind::Ack, "the human is asked only for decisions");
    let e = bot::sign_body(&game, side.seat, &mut players, body, TIME.into()).unwrap();
    let e = bot::apply_signed(&mut game, &mut players, e).unwrap();
    let (mut locked, _) = store::LockedLog::open(&side.dir.join("game.log")).unwrap();
    locked.append(std::slice::from_ref(&e)).unwrap();
    Some(e.seq())
}

/// `YOUR DECISION (seat, entry N)` lines in a robot's output.
fn decisions(out: &str, seat: &str) -> BTreeSet<u64> {
    let tag = format!("YOUR DECISION ({seat}, entry ");
    out.lines().filter_map(|l| l.split(&tag).nth(1)?.split(')').next()?.parse().ok()).collect()
}

fn answered(out: &str) -> usize {
    out.lines().filter(|l| l.contains(": answered with entry")).count()
}

/// Play a whole game: each round, each side's robot takes its mail and answers, then its
/// human decides if a decision is due and mails the entry with `mail_turn`. Ends when both
/// logs hold the same finished game. Returns the number of acks the robots sent.
fn play_whole_game(alice: &Side, bob: &Side, mail_turn: &dyn Fn(&Side, &Side, u64)) -> usize {
    let mut told: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    let mut acks = 0;
    let mut by_humans: BTreeSet<u64> = BTreeSet::new();
    for round in 0..2000 {
        let mut moved = false;
        for (me, other) in [(alice, bob), (bob, alice)] {
            let out = robot(me);
            acks += answered(&out);
            moved |= answered(&out) > 0 || out.contains(": applied entry");
            told.entry(me.seat).or_default().extend(decisions(&out, me.seat));
            if let Some(seq) = human_decides(me, round) {
                assert!(told[me.seat].contains(&seq), "{}'s robot did not say that entry {seq} was a decision: {out}", me.seat);
                mail_turn(me, other, seq);
                by_humans.insert(seq);
                moved = true;
            }
        }
        let (ga, gb) = (game_of(alice), game_of(bob));
        if ga.outcome().is_some() && ga.entries.len() == gb.entries.len() {
            let la = std::fs::read(alice.dir.join("game.log")).unwrap();
            let lb = std::fs::read(bob.dir.join("game.log")).unwrap();
            assert!(la == lb, "the two logs differ");
            for s in [alice, bob] {
                let out = ok(&s.dir, &["verify", "game.log"]);
                assert!(out.contains("OK"), "{out}");
            }
            // Every entry of play the humans did not sign was the robots' answer, sent once:
            // acks, and orders with no choice in them (engine::auto).
            let by_robots =
                ga.entries.iter().filter(|e| !matches!(e.kind(), Kind::Genesis | Kind::Join) && !by_humans.contains(&e.seq())).count();
            assert_eq!(by_robots, acks, "every entry the humans did not sign was the robots' (and each was sent once)");
            let acks_in_log = ga.entries.iter().filter(|e| e.kind() == Kind::Ack).count();
            assert!(acks_in_log <= acks, "every ack in the log was the robots'");
            return acks;
        }
        assert!(moved, "round {round}: nobody moved; alice at {}, bob at {}", ga.next_seq(), gb.next_seq());
    }
    panic!("no result after 2000 rounds");
}

/// `umpire mail` writes the entry's message; it is delivered into the other's Maildir.
fn mail_by_maildir(me: &Side, other: &Side, seq: u64) {
    let name = format!("turn-{}-{seq}.eml", me.seat);
    let seq_s = seq.to_string();
    ok(&me.dir, &["mail", "game.log", &seq_s, "--to", other.addr, "--from", me.addr, "--eml-out", &name]);
    deliver(&other.inbox, &name, &std::fs::read(me.dir.join(&name)).unwrap());
}

#[test]
fn two_robots_and_two_humans_play_a_whole_game_through_maildirs() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = two_players(t.path(), "");
    let acks = play_whole_game(&alice, &bob, &mail_by_maildir);
    assert!(acks > 0, "a Marne game has rolls the robots answer");
    // The journal says what was sent, once each.
    let j = std::fs::read_to_string(bob.dir.join("state/journal")).unwrap();
    let sent: Vec<&str> = j.lines().filter(|l| l.contains("\"t\":\"sent\"")).collect();
    let unique: BTreeSet<&str> = sent.iter().copied().collect();
    assert_eq!(sent.len(), unique.len());
}

// ---------------------------------------------------------------------------------------
// Positions for the hostile and crash tests
// ---------------------------------------------------------------------------------------

/// Play bot moves into both logs until the next entry (by either seat) satisfies `want`,
/// judged on the game after it; that entry is signed and appended to its author's log only
/// and returned, with its author's side.
fn advance_until(alice: &Side, bob: &Side, want: &dyn Fn(&Game, &Entry, &Game, &mut Players) -> bool) -> (Entry, Side) {
    let mut game = game_of(alice);
    let mut players = Players::new(BTreeMap::from([("german".to_string(), key_of(alice)), ("allied".to_string(), key_of(bob))]));
    for _ in 0..400 {
        let seat = game.waiting_for()[0].0.clone();
        let mut ch = bot::chooser(11, &seat, game.next_seq());
        let body = bot::next_body(&game, &seat, &mut players, &mut ch).unwrap().unwrap();
        let e = bot::sign_body(&game, &seat, &mut players, body, TIME.into()).unwrap();
        let before = game.clone();
        let e = bot::apply_signed(&mut game, &mut players, e).unwrap();
        let author = if seat == "german" { alice } else { bob };
        let (mut l, _) = store::LockedLog::open(&author.dir.join("game.log")).unwrap();
        l.append(std::slice::from_ref(&e)).unwrap();
        if want(&before, &e, &game, &mut players) {
            return (e, author.clone());
        }
        let other = if seat == "german" { bob } else { alice };
        let (mut l, _) = store::LockedLog::open(&other.dir.join("game.log")).unwrap();
        l.append(std::slice::from_ref(&e)).unwrap();
    }
    panic!("no such position in 400 entries");
}

/// The next german entry leaves allied owing dice with nothing to decide: bob's robot acks it.
fn owed_ack(_: &Game, e: &Entry, after: &Game, players: &mut Players) -> bool {
    let r = players.next_reveal(after, "allied").unwrap();
    e.seat() == "german" && after.pending.is_some() && automatic_reply(after, "allied", r.as_ref(), None).is_some()
}

/// The next german entry leaves allied a decision (its entry is due, no ack will do).
fn owed_decision(_: &Game, e: &Entry, after: &Game, players: &mut Players) -> bool {
    let r = players.next_reveal(after, "allied").unwrap();
    e.seat() == "german"
        && after.waiting_for().iter().any(|(s, _)| s == "allied")
        && automatic_reply(after, "allied", r.as_ref(), None).is_none()
}

fn log_len(side: &Side) -> usize {
    store::read_log(&side.dir.join("game.log")).unwrap().len()
}

// ---------------------------------------------------------------------------------------
// Hostile mail
// ---------------------------------------------------------------------------------------

#[test]
fn forged_and_tampered_entries_change_nothing_and_are_never_answered() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = two_players(t.path(), "");
    let (real, _) = advance_until(&alice, &bob, &owed_ack);
    let before = log_len(&bob);
    // The same draft signed by a key that is not german's.
    let forger = SecretKey::from_seed("german", [7; 32]);
    let forged = real.draft.clone().try_sign(&forger).unwrap();
    deliver(&bob.inbox, "forged", &pasted(&forged.bytes, "forged"));
    // The real entry with one byte of its time changed after signing.
    let text_e = String::from_utf8(real.bytes.clone()).unwrap().replacen("time: ", "time:  ", 1);
    deliver(&bob.inbox, "tampered", &pasted(text_e.as_bytes(), "tampered"));
    let out = robot(&bob);
    assert!(out.contains("REFUSED"), "{out}");
    assert_eq!(log_len(&bob), before, "nothing applied");
    assert_eq!(messages_in(&alice.inbox), 0, "nothing answered: {out}");
    // The real one then goes in and is answered, once.
    deliver(&bob.inbox, "real", &pasted(&real.bytes, "real"));
    let out = robot(&bob);
    assert_eq!(answered(&out), 1, "{out}");
    assert_eq!(log_len(&bob), before + 2);
    assert_eq!(messages_in(&alice.inbox), 1);
    // Everything read is recorded: the next pass does nothing.
    let out = robot(&bob);
    assert!(!out.contains("applied") && answered(&out) == 0, "{out}");
}

#[test]
fn foreign_huge_and_repeated_mail() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = two_players(t.path(), "max_message_bytes: 200000\n");
    // Another game between the same players: its entries are not this game's.
    let other = t.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    for f in ["alice.key", "alice.pub", "bob.pub"] {
        std::fs::copy(alice.dir.join(f), other.join(f)).unwrap();
    }
    ok(&other, &support::MARNE_NEW);
    let foreign = std::fs::read(other.join("game.log.0.yaml")).unwrap();
    deliver(&bob.inbox, "foreign", &pasted(&foreign, "foreign"));
    // A message far over the limit.
    let mut huge = pasted(b"", "huge");
    huge.extend(std::iter::repeat_n(b'x', 300_000));
    deliver(&bob.inbox, "huge", &huge);
    let out = robot(&bob);
    assert!(out.contains("no entry of a game this robot watches"), "{out}");
    assert!(out.contains("skipped") && out.contains("limit"), "{out}");
    // The same entry in three messages: applied once, answered once.
    let (real, _) = advance_until(&alice, &bob, &owed_ack);
    let before = log_len(&bob);
    for n in 0..3 {
        deliver(&bob.inbox, &format!("copy{n}"), &pasted(&real.bytes, &format!("copy{n}")));
    }
    let out = robot(&bob);
    assert_eq!(answered(&out), 1, "{out}");
    assert_eq!(log_len(&bob), before + 2);
    deliver(&bob.inbox, "copy-late", &pasted(&real.bytes, "copy-late"));
    let out = robot(&bob);
    assert_eq!(answered(&out), 0, "{out}");
    assert_eq!(messages_in(&alice.inbox), 1);
}

#[test]
fn an_equivocation_is_reported_and_answered_at_most_once() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = two_players(t.path(), "");
    let (real, _) = advance_until(&alice, &bob, &owed_ack);
    // Alice's key signs a second entry at the same seq (same reveal, other time).
    let mut d = real.draft.clone();
    d.time = "2026-11-23T12:00:01Z".into();
    let twin = d.try_sign(&key_of(&alice)).unwrap();
    assert_ne!(twin.hash, real.hash);
    deliver(&bob.inbox, "a-real", &pasted(&real.bytes, "real"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    deliver(&bob.inbox, "b-twin", &pasted(&twin.bytes, "twin"));
    let out = robot(&bob);
    assert!(out.contains("CONFLICT") && out.contains("EQUIVOCATION"), "{out}");
    assert_eq!(answered(&out), 1, "{out}");
    assert_eq!(messages_in(&alice.inbox), 1);
}

#[test]
fn a_decision_is_never_signed_only_reported_once() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = two_players(t.path(), "");
    let (e, _) = advance_until(&alice, &bob, &owed_decision);
    let before = log_len(&bob);
    deliver(&bob.inbox, "turn", &pasted(&e.bytes, "turn"));
    let notes = t.path().join("notes.txt");
    let cmd = format!("cat >> {}; echo \"$UMPIRE_SEAT $UMPIRE_SEQ\" >> {}", notes.display(), notes.display());
    let o = umpire_env(&bob.dir, &["robot", "--config", "robot.yaml", "--once", "--notify", &cmd], None, &[]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("YOUR DECISION (allied"), "{out}");
    assert_eq!(answered(&out), 0, "{out}");
    assert_eq!(log_len(&bob), before + 1, "only the received entry");
    assert_eq!(messages_in(&alice.inbox), 0);
    let n = std::fs::read_to_string(&notes).unwrap();
    assert!(n.contains("YOUR DECISION") && n.contains(&format!("allied {}", before + 1)), "{n}");
    // Said once: the next pass is quiet.
    let out = robot(&bob);
    assert!(!out.contains("YOUR DECISION"), "{out}");
    // A draw offer is the human's too: reported, never accepted.
    ok(&alice.dir, &["offer-draw", "game.log", "--as", "german", "--key", "alice.key"]);
    let offer = store::read_log(&alice.dir.join("game.log")).unwrap().last().unwrap().clone();
    assert_eq!(offer.kind(), Kind::OfferDraw);
    deliver(&bob.inbox, "offer", &pasted(&offer.bytes, "offer"));
    let out = robot(&bob);
    assert!(out.contains("offered a draw"), "{out}");
    assert_eq!(answered(&out), 0);
    assert!(!std::fs::read_to_string(bob.dir.join("game.log")).unwrap().contains("accept-draw"));
}

// ---------------------------------------------------------------------------------------
// Crash points
// ---------------------------------------------------------------------------------------

#[test]
fn killed_at_each_point_the_robot_loses_nothing_and_sends_nothing_twice() {
    for point in ["after-apply", "after-signed", "after-append", "after-send"] {
        let t = tempfile::tempdir().unwrap();
        let (alice, bob) = two_players(t.path(), "");
        let (real, _) = advance_until(&alice, &bob, &owed_ack);
        let before = log_len(&bob);
        deliver(&bob.inbox, "turn", &pasted(&real.bytes, "turn"));
        let o = robot_env(&bob, &[("UMPIRE_ROBOT_CRASH", point)]);
        assert!(!o.status.success(), "{point}: the robot should have stopped dead: {}", text(&o));
        let o = robot_env(&bob, &[]);
        let out = text(&o);
        assert!(o.status.success(), "{point}: the restarted robot failed: {out}");
        let out2 = robot(&bob);
        let log = store::read_log(&bob.dir.join("game.log")).unwrap();
        assert_eq!(log.len(), before + 2, "{point}: the entry and one ack: {out}");
        assert_eq!(log[before].hash, real.hash);
        assert_eq!(log[before + 1].kind(), Kind::Ack);
        assert_eq!(messages_in(&alice.inbox), 1, "{point}: {out}");
        assert_eq!(answered(&out2), 0, "{point}: {out2}");
        let j = std::fs::read_to_string(bob.dir.join("state/journal")).unwrap();
        let signed = j.lines().filter(|l| l.contains("\"t\":\"signed\"")).count();
        assert_eq!(signed, 1, "{point}: one ack signed, never a second one with the same reveal: {j}");
        // Alice takes it and both logs agree.
        let msg = std::fs::read_dir(alice.inbox.join("new")).unwrap().next().unwrap().unwrap().path();
        ok(&alice.dir, &["apply", "game.log", msg.to_str().unwrap()]);
        assert_eq!(std::fs::read(alice.dir.join("game.log")).unwrap(), std::fs::read(bob.dir.join("game.log")).unwrap());
    }
}

#[test]
fn robot_help_teaches_and_a_password_in_the_settings_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let out = ok(t.path(), &["robot", "--help"]);
    assert!(out.contains("Examples:") && out.contains("password_command") && out.contains("--once"), "{out}");
    std::fs::write(t.path().join("r.yaml"), "from: a@b\nmailbox:\n  imap:\n    host: h\n    user: u\n    password: hunter2\n").unwrap();
    let o = umpire_env(t.path(), &["robot", "--config", "r.yaml", "--once"], None, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("password_command"), "{}", text(&o));
}

/// Standing instructions the ruleset does not take from the robot stop it with the reason
/// before it signs anything (Glory's End files its own in the game).
#[test]
fn standing_instructions_a_ruleset_does_not_take_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let (alice, _bob) = two_players(t.path(), "");
    let cfg = alice.dir.join("robot.yaml");
    let text_before = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, format!("{text_before}    standing: {{chit: best}}\n")).unwrap();
    let before = log_len(&alice);
    let o = robot_env(&alice, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("standing instructions") && text(&o).contains("`standing` action"), "{}", text(&o));
    assert_eq!(log_len(&alice), before, "nothing was signed");
}

// ---------------------------------------------------------------------------------------
// Dovecot and aiosmtpd
// ---------------------------------------------------------------------------------------

/// A server process stopped when the test ends, however it ends.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_port(port: u16, what: &str, log: &Path) {
    let start = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed().as_secs() < 20, "{what} did not listen on {port}: {}", std::fs::read_to_string(log).unwrap_or_default());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail").join(name).display().to_string()
}

/// Dovecot in the foreground with a config in `root`: users alice and bob (passwords
/// `alice-pass`, `bob-pass`), Maildirs under `root/mail/USER/Maildir`, IMAPS and IMAP with
/// STARTTLS on loopback ports, the test certificate. Returns the server and the two ports.
fn start_dovecot(root: &Path) -> (Server, u16, u16) {
    let dovecot = std::env::var("UMPIRE_DOVECOT").unwrap_or_else(|_| "/usr/sbin/dovecot".into());
    let uid = unsafe { libc::geteuid() };
    let gid = unsafe { libc::getegid() };
    let me = std::str::from_utf8(&std::process::Command::new("id").arg("-un").output().unwrap().stdout).unwrap().trim().to_string();
    // Dovecot never serves mail as root nor runs its login process as root: as root, the
    // mail belongs to `nobody`.
    let (mail_uid, mail_gid, login_user) = if uid == 0 { (65534, 65534, "nobody".to_string()) } else { (uid, gid, me.clone()) };
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut users = String::new();
    for u in ["alice", "bob"] {
        let home = root.join("mail").join(u);
        maildir(&home.join("Maildir"));
        users.push_str(&format!("{u}:{{PLAIN}}{u}-pass:{mail_uid}:{mail_gid}::{}\n", home.display()));
        if uid == 0 {
            for d in [home.clone(), home.join("Maildir"), home.join("Maildir/new"), home.join("Maildir/cur"), home.join("Maildir/tmp")] {
                std::os::unix::fs::chown(&d, Some(mail_uid), Some(mail_gid)).unwrap();
            }
        }
    }
    std::fs::set_permissions(root.join("mail"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(root.join("users"), users).unwrap();
    let (imap, imaps) = (free_port(), free_port());
    let conf = format!(
        "base_dir = {root}/run\nstate_dir = {root}/state\ninstance_name = umpire-test-{pid}\nprotocols = imap\nlisten = 127.0.0.1\n\
         ssl = required\nssl_cert = <{cert}\nssl_key = <{key}\ndisable_plaintext_auth = yes\nauth_mechanisms = plain login\n\
         passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%n {root}/users\n}}\n\
         userdb {{\n  driver = passwd-file\n  args = username_format=%n {root}/users\n}}\n\
         mail_location = maildir:~/Maildir\ndefault_login_user = {login_user}\ndefault_internal_user = {me}\n\
         first_valid_uid = 1\nfirst_valid_gid = 0\nlog_path = {root}/dovecot.log\n\
         service imap-login {{\n  chroot =\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {imap}\n  }}\n  inet_listener imaps {{\n    address = 127.0.0.1\n    port = {imaps}\n    ssl = yes\n  }}\n}}\n\
         service anvil {{\n  chroot =\n}}\n",
        root = root.display(),
        pid = std::process::id(),
        cert = fixture("test-cert.pem"),
        key = fixture("test-key.pem"),
    );
    std::fs::write(root.join("dovecot.conf"), conf).unwrap();
    let child = std::process::Command::new(&dovecot)
        .args(["-F", "-c"])
        .arg(root.join("dovecot.conf"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(root.join("dovecot.stderr")).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {dovecot}: {e} (apt-get install dovecot-imapd)"));
    let server = Server(child);
    wait_port(imaps, "dovecot", &root.join("dovecot.stderr"));
    wait_port(imap, "dovecot", &root.join("dovecot.stderr"));
    (server, imap, imaps)
}

/// aiosmtpd (Debian's python3), STARTTLS with the test certificate, delivering each
/// recipient's mail into the Dovecot Maildir of the recipient's local part.
fn start_aiosmtpd(root: &Path) -> (Server, u16) {
    let python = std::env::var("UMPIRE_AIOSMTPD_PYTHON").unwrap_or_else(|_| "/usr/bin/python3".into());
    let portfile = root.join("smtp-port");
    let template = format!("{}/mail/{{user}}/Maildir", root.display());
    let child = std::process::Command::new(&python)
        .arg(fixture("aiosmtpd_server.py"))
        .arg(&template)
        .arg(&portfile)
        .arg(fixture("test-cert.pem"))
        .arg(fixture("test-key.pem"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(root.join("aiosmtpd.stderr")).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {python}: {e} (apt-get install python3-aiosmtpd)"));
    let server = Server(child);
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&portfile).map(|s| s.is_empty()).unwrap_or(true) {
        assert!(
            start.elapsed().as_secs() < 20,
            "aiosmtpd did not start: {}",
            std::fs::read_to_string(root.join("aiosmtpd.stderr")).unwrap_or_default()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let port = std::fs::read_to_string(&portfile).unwrap().trim().parse().unwrap();
    (server, port)
}

/// A whole game between two robots and two scripted humans, every message through aiosmtpd
/// (SMTP with STARTTLS) into Dovecot, read back over IMAP: alice's robot over IMAPS, bob's
/// over STARTTLS. Run: `UMPIRE_DOVECOT=/usr/sbin/dovecot cargo test --release --test robot -- --ignored dovecot`.
#[test]
#[ignore = "needs Dovecot and aiosmtpd (Debian packages dovecot-imapd, python3-aiosmtpd); .ci/run runs it"]
fn dovecot_and_aiosmtpd_whole_game() {
    let t = tempfile::tempdir().unwrap();
    let servers = t.path().join("servers");
    std::fs::create_dir_all(&servers).unwrap();
    let (_dovecot, imap, imaps) = start_dovecot(&servers);
    let (_smtp, smtp) = start_aiosmtpd(&servers);
    let (alice, bob) = two_players(t.path(), "");
    let cert = fixture("test-cert.pem");
    for (me, other, user, port, tls) in [(&alice, &bob, "alice", imaps, "implicit"), (&bob, &alice, "bob", imap, "starttls")] {
        let cfg = format!(
            "from: \"{seat} <{addr}>\"\nstate_dir: state\nmailbox:\n  imap:\n    host: 127.0.0.1\n    port: {port}\n    tls: {tls}\n    user: {user}\n    password_command: \"printf %s {user}-pass\"\n    ca_file: {cert}\n\
             send:\n  smtp_host: 127.0.0.1\n  smtp_port: {smtp}\n  tls: starttls\n  ca_file: {cert}\n\
             games:\n  - log: game.log\n    seat: {seat}\n    key: {key}\n    to: [\"{to}\"]\n",
            seat = me.seat,
            addr = me.addr,
            key = me.key,
            to = other.addr,
        );
        std::fs::write(me.dir.join("robot.yaml"), cfg).unwrap();
    }
    let smtp_s = smtp.to_string();
    let mail_turn = |me: &Side, other: &Side, seq: u64| {
        let seq_s = seq.to_string();
        let args = [
            "mail",
            "game.log",
            &seq_s,
            "--to",
            other.addr,
            "--from",
            me.addr,
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            &smtp_s,
            "--tls",
            "starttls",
            "--smtp-ca-file",
            &cert,
        ];
        ok(&me.dir, &args);
    };
    let start = std::time::Instant::now();
    let acks = play_whole_game(&alice, &bob, &mail_turn);
    assert!(acks > 0);
    eprintln!("whole game through Dovecot and aiosmtpd: {acks} acks by the robots, {:?}", start.elapsed());
    // Every message went through the servers: the Dovecot Maildirs hold them.
    let held = messages_in(&servers.join("mail/bob/Maildir")) + messages_in(&servers.join("mail/alice/Maildir"));
    assert!(held >= acks, "{held} messages in Dovecot");
}

// ---------------------------------------------------------------------------------------
// Mail that fits a real mailbox (issue 17, item 4)
// ---------------------------------------------------------------------------------------

fn header(eml: &[u8], name: &str) -> String {
    let msg = mail_parser::MessageParser::default().parse(eml).expect("a message");
    msg.header_raw(name).unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One thread per game (Message-ID from the entry, In-Reply-To the previous entry,
/// References the genesis), `join` straight from the piped message, `orders sign` saying
/// how to mail, and the sender taken from a key named after an address.
#[test]
fn one_thread_per_game_and_join_from_a_message() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = players_with_keys(t.path());
    ok(&alice, &["key", "new", "alice@example.org"]);
    ok(&alice, &support::MARNE_NEW);
    ok(&alice, &["mail", "game.log", "--to", "bob@example.org", "--key", "alice@example.org.key", "--eml-out", "0.eml"]);
    let eml0 = std::fs::read(alice.join("0.eml")).unwrap();
    assert!(header(&eml0, "From").contains("alice@example.org"), "{}", header(&eml0, "From"));
    assert!(header(&eml0, "Subject").starts_with("[umpire] glorys-end/marne "), "a subject to filter on: {}", header(&eml0, "Subject"));
    let root = header(&eml0, "Message-ID");
    assert!(root.starts_with("<umpire.0.") && root.contains("umpire.invalid"), "{root}");
    assert!(header(&eml0, "In-Reply-To").is_empty());
    // Bob joins from the message itself, piped from his mail client.
    let o = support::umpire_in(&bob, &["join", "-", "--as", "allied", "--key", "bob.key", "-o", "game.log"], Some(&eml0));
    assert!(o.status.success() && text(&o).contains("play starts"), "{}", text(&o));
    ok(&bob, &["mail", "game.log", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "1.eml"]);
    let eml1 = std::fs::read(bob.join("1.eml")).unwrap();
    assert_eq!(header(&eml1, "In-Reply-To"), root);
    assert_eq!(header(&eml1, "References"), root);
    ok(&alice, &["apply", "game.log", bob.join("1.eml").to_str().unwrap()]);
    // Orders: signing says how to mail them; the message answers entry 1 in the same thread.
    std::fs::write(bob.join("orders.yaml"), "actions:\n  - move: {units: [FR-11], path: [3329, 3328]}\n  - end_phase: movement\n").unwrap();
    let out = ok(&bob, &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key"]);
    assert!(out.contains("umpire mail game.log 2 --to"), "{out}");
    ok(&bob, &["mail", "game.log", "2", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "2.eml"]);
    let eml2 = std::fs::read(bob.join("2.eml")).unwrap();
    let id1 = header(&eml1, "Message-ID");
    assert_eq!(header(&eml2, "In-Reply-To"), id1);
    assert_eq!(header(&eml2, "References"), format!("{root} {id1}"));
    // The same entry mailed again is the same message.
    ok(&bob, &["mail", "game.log", "2", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "2b.eml"]);
    assert_eq!(header(&std::fs::read(bob.join("2b.eml")).unwrap(), "Message-ID"), header(&eml2, "Message-ID"));
    // A key not named after an address is no sender.
    let o = support::umpire_in(&bob, &["mail", "game.log", "--to", "alice@example.org", "--key", "bob.key", "--eml-out", "x.eml"], None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
