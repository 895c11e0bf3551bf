//! The mail robot: one pass reads a player's mailbox, applies every entry of the player's
//! games to the right log, answers what needs no decision ([`automatic_reply`], the one place
//! that says what that is), mails the answer, and reports the decisions due to the human.
//!
//! What it will never do: sign anything but what [`automatic_reply`] names (acks, and orders
//! the rules leave no choice in: never orders with a choice, no acceptance of a draw or an
//! amendment, no resignation); sign on the basis of
//! an entry that does not verify (every entry goes through [`Game::apply`], which checks the
//! signature, the chain and the rules, and a refused entry leaves the game as it was); settle a
//! fork (two entries at one seq are reported to the human with both hashes).
//!
//! Crash safety (see [`super::journal`]): log first, then journal; journal before sending,
//! journal after. A robot killed at any point and started again reads again the messages it
//! had not recorded (their entries are already in the log: skipped), appends an entry it had
//! signed but not appended (the same bytes), and sends again an entry whose sending it had not
//! recorded (the same bytes; the same `Message-ID`, so a mail client shows it once).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::journal::{Journal, JournalError, Record};
use super::source::{MailSource, MessageRef};
use super::{Addressing, MailError, SmtpSettings};
use crate::crypto::keys::SecretKey;
use crate::engine::auto::{AutoReply, automatic_reply};
use crate::engine::game::{Game, GameError};
use crate::log::entry::Entry;
use crate::log::protocol::Agreement;
use crate::log::store::{LockedLog, StoreError};

/// One game the robot looks after: the player's log, seat and key, and who gets the answers.
pub struct GameSeat {
    pub log: PathBuf,
    pub seat: String,
    pub key: SecretKey,
    /// The other players' addresses.
    pub to: Vec<String>,
    /// The seat's standing instructions, kept here and never sent (`Ruleset::standing_orders`):
    /// the robot answers the decisions they settle.
    pub standing: Option<yaml_serde::Value>,
}

/// Where the robot's answers go.
pub trait Outbox {
    fn describe(&self) -> String;
    /// Hand one message over; the server's reply (or where it was written) on success.
    fn send(&mut self, message: &lettre::Message) -> Result<String, MailError>;
}

/// SMTP (STARTTLS or implicit TLS), as `umpire mail` sends.
pub struct SmtpOutbox(pub SmtpSettings);

impl Outbox for SmtpOutbox {
    fn describe(&self) -> String {
        format!("SMTP {}:{}", self.0.host, self.0.port)
    }
    fn send(&mut self, message: &lettre::Message) -> Result<String, MailError> {
        super::send_smtp(&self.0, message)
    }
}

/// A local sendmail program.
pub struct SendmailOutbox {
    pub program: PathBuf,
    pub timeout: Duration,
}

impl Outbox for SendmailOutbox {
    fn describe(&self) -> String {
        format!("sendmail {}", self.program.display())
    }
    fn send(&mut self, message: &lettre::Message) -> Result<String, MailError> {
        super::send_sendmail(&self.program, message, self.timeout)?;
        Ok(format!("handed to {}", self.program.display()))
    }
}

/// Delivery straight into a Maildir (the other player's, on a shared machine, or a folder a
/// person sends from). The file is named after the message, so a message delivered twice is
/// one file: this outbox delivers exactly once.
pub struct MaildirOutbox {
    pub dir: PathBuf,
}

impl Outbox for MaildirOutbox {
    fn describe(&self) -> String {
        format!("Maildir {}", self.dir.display())
    }
    fn send(&mut self, message: &lettre::Message) -> Result<String, MailError> {
        let bytes = message.formatted();
        let err = |e: std::io::Error| MailError::Source { what: self.describe(), why: e.to_string() };
        let id = message
            .headers()
            .get_raw("Message-ID")
            .map(|v| crate::crypto::sha256(v.as_bytes()).short(24))
            .unwrap_or_else(|| crate::crypto::sha256(&bytes).short(24));
        for sub in ["tmp", "new", "cur"] {
            std::fs::create_dir_all(self.dir.join(sub)).map_err(err)?;
        }
        let name = format!("umpire.{id}");
        let tmp = self.dir.join("tmp").join(&name);
        std::fs::write(&tmp, &bytes).map_err(err)?;
        std::fs::File::open(&tmp).and_then(|f| f.sync_all()).map_err(err)?;
        let target = self.dir.join("new").join(&name);
        std::fs::rename(&tmp, &target).map_err(err)?;
        Ok(format!("delivered to {}", target.display()))
    }
}

/// A point at which the robot can be made to stop dead (crash tests): `UMPIRE_ROBOT_CRASH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashAt {
    /// Entries applied to the log, their message not yet recorded as seen.
    AfterApply,
    /// An answer signed and journaled, not yet in the log.
    AfterSigned,
    /// The answer in the log, not yet sent.
    AfterAppend,
    /// The answer sent, its sending not yet journaled.
    AfterSend,
}

impl CrashAt {
    pub fn parse(s: &str) -> Option<CrashAt> {
        match s {
            "after-apply" => Some(CrashAt::AfterApply),
            "after-signed" => Some(CrashAt::AfterSigned),
            "after-append" => Some(CrashAt::AfterAppend),
            "after-send" => Some(CrashAt::AfterSend),
            _ => None,
        }
    }
}

/// What a pass did, for the person who runs the robot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// An entry of another player went into the log.
    Applied { log: PathBuf, seq: u64, seat: String, kind: String, origin: String },
    /// An entry that does not verify or is not allowed; nothing was done on its basis.
    Refused { log: PathBuf, seq: u64, origin: String, why: String },
    /// Two different entries at one seq: for the human to settle (`umpire apply` says more).
    Conflict { log: PathBuf, seq: u64, origin: String, why: String },
    /// A message the robot did not read (too large, not a message, no entry of a watched game).
    Skipped { origin: String, why: String },
    /// The robot signed and sent an answer.
    Answered { log: PathBuf, seq: u64, why: String, to: Vec<String>, via: String },
    /// The human must decide: the seat's entry is due and it needs a choice.
    Decision { log: PathBuf, seat: String, seq: u64, what: String },
    /// Something failed that the next pass retries (a send, a mailbox read).
    Retry { what: String },
}

impl Report {
    /// One line for the terminal.
    pub fn line(&self) -> String {
        match self {
            Report::Applied { log, seq, seat, kind, origin } => {
                format!("{}: applied entry {seq} by {seat} ({kind}) from {origin}", log.display())
            }
            Report::Refused { log, seq, origin, why } => format!("{}: REFUSED entry {seq} from {origin}: {why}", log.display()),
            Report::Conflict { log, seq, origin, why } => {
                format!(
                    "{}: CONFLICT at entry {seq} from {origin}: {why} (settle it by hand: `umpire apply {} MESSAGE`)",
                    log.display(),
                    log.display()
                )
            }
            Report::Skipped { origin, why } => format!("skipped {origin}: {why}"),
            Report::Answered { log, seq, why, to, via } => {
                format!("{}: answered with entry {seq} ({why}), sent to {} via {via}", log.display(), to.join(", "))
            }
            Report::Decision { log, seat, seq, what } => format!("{}: YOUR DECISION ({seat}, entry {seq}): {what}", log.display()),
            Report::Retry { what } => format!("will retry: {what}"),
        }
    }
}

/// Why a pass stopped.
#[derive(Debug, thiserror::Error)]
pub enum RobotError {
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{log}: {err}\n  hint: run `umpire verify {log}`")]
    Game { log: String, err: GameError },
    #[error(transparent)]
    Mail(#[from] MailError),
    #[error("{log}: {why}")]
    Setup { log: String, why: String },
}

/// The clock, read by the command line (the library reads none).
pub struct Clock {
    /// RFC 3339, for the entry's `time`.
    pub time: String,
    /// For the message's `Date:`.
    pub date: SystemTime,
}

/// The robot, for one pass at a time.
pub struct Robot<'a> {
    pub games: Vec<GameSeat>,
    pub from: String,
    pub max_message_bytes: usize,
    pub journal: Journal,
    pub source: &'a mut dyn MailSource,
    pub outbox: &'a mut dyn Outbox,
    pub crash_at: Option<CrashAt>,
}

/// What happened to one entry found in mail.
enum Fate {
    /// Newly applied to the game: to be written to the log.
    Applied,
    /// Skipped (already there), refused or in conflict: nothing to write.
    Done,
    /// Its seq is beyond the log's end: the message is read again at the next pass.
    TooEarly,
}

fn crash(at: Option<CrashAt>, here: CrashAt) {
    if at == Some(here) {
        // A test stands in for a power cut: no destructors, no flushing.
        std::process::abort();
    }
}

fn game_err(log: &Path, err: GameError) -> RobotError {
    RobotError::Game { log: log.display().to_string(), err }
}

/// Lock and replay a log from its genesis. Not through `crate::cache`: a robot signs on
/// what it replays, so it trusts nothing but the log itself.
fn open_game(log: &Path) -> Result<(LockedLog, Game), RobotError> {
    let (locked, entries) = LockedLog::open(log)?;
    let game = Game::replay(&entries).map_err(|(_, e)| game_err(log, e))?;
    Ok((locked, game))
}

impl Robot<'_> {
    /// One pass: finish what an earlier run left half done, read the mailbox, apply, answer,
    /// and report decisions due.
    pub fn pass(&mut self, clock: &dyn Fn() -> Clock) -> Result<Vec<Report>, RobotError> {
        let mut reports = Vec::new();
        for i in 0..self.games.len() {
            self.resume(i, clock, &mut reports)?;
        }
        self.read_mail(&mut reports)?;
        for i in 0..self.games.len() {
            self.answer(i, clock, &mut reports)?;
        }
        Ok(reports)
    }

    /// Entries signed by an earlier run and not recorded as sent: into the log if they are
    /// not there (the same bytes), then out by mail.
    fn resume(&mut self, i: usize, clock: &dyn Fn() -> Clock, reports: &mut Vec<Report>) -> Result<(), RobotError> {
        let log = self.games[i].log.clone();
        let (mut locked, mut game) = open_game(&log)?;
        let gid = game.id().to_hex();
        for (seq, hash, bytes) in self.journal.unsent(&gid) {
            let in_log = game.entry(seq).map(|e| e.hash.to_hex());
            if in_log.as_deref() != Some(hash.as_str()) {
                let entry = Entry::parse(&bytes).ok();
                let fits = in_log.is_none() && seq == game.next_seq();
                match entry {
                    Some(e) if fits && game.apply(&e).is_ok() => {
                        locked.append(std::slice::from_ref(&e))?;
                    }
                    _ => {
                        // Never appended, so never sent: nobody saw its reveal, and the next
                        // answer is signed afresh on the game as it now stands.
                        let why = "the log moved on before it was appended".to_string();
                        self.journal.add(Record::Void { game: gid.clone(), seq, hash, why })?;
                        continue;
                    }
                }
            }
            self.send(i, &game, seq, &hash, "an answer signed before a restart", clock, reports)?;
        }
        Ok(())
    }

    /// Read every message not yet handled and apply the entries of watched games.
    fn read_mail(&mut self, reports: &mut Vec<Report>) -> Result<(), RobotError> {
        let listed = match self.source.list() {
            Ok(l) => l,
            Err(e) => {
                reports.push(Report::Retry { what: format!("reading {}: {e}", self.source.describe()) });
                return Ok(());
            }
        };
        // (message id, label, entries) for every message still to handle.
        let mut inbox: Vec<(MessageRef, String, Vec<Entry>)> = Vec::new();
        for m in listed {
            if self.journal.seen(&m.id) {
                continue;
            }
            let bytes = match self.source.fetch(&m, self.max_message_bytes) {
                Ok(b) => b,
                Err(e @ MailError::TooLarge { .. }) => {
                    let why = format!("{e}; not read (an entry is at most 4 MiB: a message this large is no turn)");
                    reports.push(Report::Skipped { origin: m.id.clone(), why: why.clone() });
                    self.journal.add(Record::Seen { msg: m.id.clone(), note: why })?;
                    continue;
                }
                Err(e) => {
                    reports.push(Report::Retry { what: format!("fetching {}: {e}", m.id) });
                    continue;
                }
            };
            let label = format!("message {}", m.id);
            let found = match super::entries_in_message(&bytes, &label) {
                Ok(f) => f,
                Err(e) => {
                    reports.push(Report::Skipped { origin: label, why: e.to_string() });
                    self.journal.add(Record::Seen { msg: m.id.clone(), note: e.to_string() })?;
                    continue;
                }
            };
            let ours: Vec<Entry> = found.entries.into_iter().map(|f| f.entry).filter(|e| game_of(e).is_some()).collect();
            let label = found_label(&bytes).map(|s| format!("{label} ({s:?})")).unwrap_or(label);
            inbox.push((m, label, ours));
        }
        // Apply game by game, each under its log's lock, in seq order across messages (they
        // arrive in any order).
        let mut early: std::collections::BTreeSet<String> = Default::default();
        let mut used: std::collections::BTreeSet<String> = Default::default();
        for i in 0..self.games.len() {
            let log = self.games[i].log.clone();
            let (mut locked, mut game) = open_game(&log)?;
            let gid = game.id();
            let mut todo: Vec<(u64, String, String, Entry)> = Vec::new();
            for (m, label, entries) in &inbox {
                for e in entries.iter().filter(|e| game_of(e) == Some(gid)) {
                    todo.push((e.seq(), m.id.clone(), label.clone(), e.clone()));
                    used.insert(m.id.clone());
                }
            }
            todo.sort_by_key(|t| t.0);
            let was_in_play = game.in_play();
            let mut new = Vec::new();
            for (_, msg, label, entry) in todo {
                match self.take(&mut game, &log, &entry, &label, reports) {
                    Fate::Applied => new.push(entry),
                    Fate::Done => {}
                    Fate::TooEarly => {
                        early.insert(msg);
                    }
                }
            }
            if !new.is_empty() {
                if was_in_play {
                    locked.append(&new)?;
                } else {
                    // Joins come in any order (DESIGN §2.4): the log is written whole.
                    locked.replace(&game.entries)?;
                }
            }
        }
        crash(self.crash_at, CrashAt::AfterApply);
        for (m, label, _) in &inbox {
            if early.contains(&m.id) {
                continue;
            }
            if !used.contains(&m.id) {
                reports.push(Report::Skipped { origin: label.clone(), why: "no entry of a game this robot watches".into() });
            }
            self.journal.add(Record::Seen { msg: m.id.clone(), note: label.clone() })?;
        }
        Ok(())
    }

    /// Apply one received entry to `game` (not yet written), reporting what came of it.
    fn take(&self, game: &mut Game, log: &Path, entry: &Entry, origin: &str, reports: &mut Vec<Report>) -> Fate {
        let seq = entry.seq();
        if let Some(mine) = game.entry(seq) {
            if mine.hash == entry.hash {
                return Fate::Done;
            }
            let why = match crate::log::protocol::compare(game.genesis(), &game.entries, std::slice::from_ref(entry)) {
                Agreement::Unverified { why, .. } => {
                    reports.push(Report::Refused {
                        log: log.into(),
                        seq,
                        origin: origin.into(),
                        why: format!("forged or corrupted: {why}"),
                    });
                    return Fate::Done;
                }
                Agreement::DifferentGames => "it belongs to another game".to_string(),
                Agreement::Fork { equivocation, crossed, seat_a, seat_b, hash_a, hash_b, .. } => format!(
                    "the log has {hash_a} by {seat_a}, the message {hash_b} by {seat_b}{}",
                    if equivocation {
                        " — an EQUIVOCATION: one seat signed two entries"
                    } else if crossed {
                        " — crossed in the mail"
                    } else {
                        ""
                    }
                ),
                Agreement::Prefix => return Fate::Done,
            };
            reports.push(Report::Conflict { log: log.into(), seq, origin: origin.into(), why });
            return Fate::Done;
        }
        if game.in_play() && seq > game.next_seq() {
            return Fate::TooEarly;
        }
        match game.apply(entry) {
            Ok(step) => {
                reports.push(Report::Applied {
                    log: log.into(),
                    seq,
                    seat: step.seat.clone(),
                    kind: crate::log::entry::kind_name(step.kind).to_string(),
                    origin: origin.into(),
                });
                Fate::Applied
            }
            Err(e) => {
                reports.push(Report::Refused { log: log.into(), seq, origin: origin.into(), why: e.to_string() });
                Fate::Done
            }
        }
    }

    /// Answer what needs no decision; report the decision due otherwise.
    fn answer(&mut self, i: usize, clock: &dyn Fn() -> Clock, reports: &mut Vec<Report>) -> Result<(), RobotError> {
        let log = self.games[i].log.clone();
        let seat = self.games[i].seat.clone();
        // Bounded: each round signs one entry, and one received entry leaves at most a few
        // acks due (a roll, then an opening).
        for _ in 0..8 {
            let (mut locked, game) = open_game(&log)?;
            if game.genesis().seat(&seat).map(|d| d.key) != Some(self.games[i].key.public().key) {
                return Err(RobotError::Setup {
                    log: log.display().to_string(),
                    why: format!("the key given is not the key of seat {seat}"),
                });
            }
            let key = self.games[i].key.clone();
            let reveal = crate::engine::bot::next_reveal(&game, &seat, &key).ok().flatten();
            let hidden = !game.commitments.is_empty() || !game.draws.is_empty();
            let view = if hidden { Some(game.seat_view(&seat, key.clone()).map_err(|e| game_err(&log, e))?) } else { None };
            let view_ref = view.as_ref().unwrap_or(&game);
            let standing = self.games[i].standing.clone();
            if let Some(st) = &standing
                && let Err(why) = view_ref.state.standing_orders(&seat, st)
            {
                return Err(RobotError::Setup { log: log.display().to_string(), why: format!("standing instructions: {why}") });
            }
            let Some(auto) = automatic_reply(view_ref, &seat, reveal.as_ref(), standing.as_ref()) else {
                drop(locked);
                self.tell(i, &game, reports)?;
                return Ok(());
            };
            let c = clock();
            let entry = sign_reply(&game, view_ref, &seat, &key, &auto, c.time).map_err(|e| game_err(&log, e))?;
            use base64::Engine as _;
            self.journal.add(Record::Signed {
                game: game.id().to_hex(),
                seq: entry.seq(),
                hash: entry.hash.to_hex(),
                entry: base64::engine::general_purpose::STANDARD.encode(&entry.bytes),
                why: auto.describe(),
            })?;
            crash(self.crash_at, CrashAt::AfterSigned);
            let mut after = game;
            after.apply(&entry).map_err(|e| game_err(&log, e))?;
            locked.append(std::slice::from_ref(&entry))?;
            drop(locked);
            crash(self.crash_at, CrashAt::AfterAppend);
            self.send(i, &after, entry.seq(), &entry.hash.to_hex(), &auto.describe(), clock, reports)?;
        }
        Ok(())
    }

    /// Mail entry `seq` of the game (which holds it) and journal the sending. A failure is
    /// reported and retried at the next pass: the entry stays `signed` in the journal.
    #[allow(clippy::too_many_arguments)]
    fn send(
        &mut self,
        i: usize,
        game: &Game,
        seq: u64,
        hash: &str,
        why: &str,
        clock: &dyn Fn() -> Clock,
        reports: &mut Vec<Report>,
    ) -> Result<(), RobotError> {
        let g = &self.games[i];
        let log = g.log.clone();
        let log_name = log.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "game.log".into());
        // The message describes the game right after the entry: a replay up to it unless it
        // is the newest entry (the usual case).
        let turn = if seq + 1 == game.entries.len() as u64 {
            super::compose(game, seq, &log_name, None)
        } else {
            let upto = Game::replay(&game.entries[..=seq as usize]).map_err(|(_, e)| game_err(&log, e))?;
            super::compose(&upto, seq, &log_name, None)
        };
        // The same entry is the same message (`entry_message_id`): a re-send after a crash
        // carries the same Message-ID, and mail clients show it once.
        let addressing = Addressing { from: self.from.clone(), to: g.to.clone(), date: clock().date };
        let message = super::build_message(&turn, &addressing)?;
        match self.outbox.send(&message) {
            Ok(_) => {
                crash(self.crash_at, CrashAt::AfterSend);
                self.journal.add(Record::Sent { game: game.id().to_hex(), seq, hash: hash.to_string(), to: g.to.clone() })?;
                reports.push(Report::Answered { log, seq, why: why.to_string(), to: g.to.clone(), via: self.outbox.describe() });
            }
            Err(e) => reports.push(Report::Retry { what: format!("sending entry {seq} of {}: {e}", log.display()) }),
        }
        Ok(())
    }

    /// Report the decision due from this seat, once per seq.
    fn tell(&mut self, i: usize, game: &Game, reports: &mut Vec<Report>) -> Result<(), RobotError> {
        let g = &self.games[i];
        let seq = game.next_seq();
        let mut due: Vec<String> = game.waiting_for().into_iter().filter(|(s, _)| *s == g.seat).map(|(_, w)| w).collect();
        if let Some((at, by, _)) = &game.draw_offer
            && !game.opponents(by).is_empty()
            && game.genesis().side_of(by) != game.genesis().side_of(&g.seat)
        {
            due.push(format!("{by} offered a draw at entry {at}: `umpire accept-draw` or play on"));
        }
        if let Some(p) = &game.amendment
            && game.genesis().side_of(&p.seat) != game.genesis().side_of(&g.seat)
        {
            due.push(format!("{} proposed an amendment at entry {} ({}): `umpire agree-amend` or play on", p.seat, p.seq, p.reason));
        }
        let gid = game.id().to_hex();
        for what in due {
            if self.journal.notified(&gid, seq, &what) {
                continue;
            }
            self.journal.add(Record::Notified { game: gid.clone(), seq, what: what.clone() })?;
            reports.push(Report::Decision { log: g.log.clone(), seat: g.seat.clone(), seq, what });
        }
        Ok(())
    }
}

/// The game an entry belongs to (a genesis is its own game).
fn game_of(e: &Entry) -> Option<crate::crypto::Hash> {
    match e.draft.game {
        Some(g) => Some(g),
        None if e.seq() == 0 => Some(e.hash),
        None => None,
    }
}

/// The subject of a message, for reports.
fn found_label(bytes: &[u8]) -> Option<String> {
    mail_parser::MessageParser::default().parse_headers(bytes).and_then(|m| m.subject().map(|s| s.chars().take(120).collect()))
}

/// Sign the automatic reply as its author's tool does (DESIGN §2.6): on the seat's view, the
/// body completed with whatever the protocol makes it carry (openings owed, sealed notes),
/// then checked on the public game.
fn sign_reply(game: &Game, view: &Game, seat: &str, key: &SecretKey, auto: &AutoReply, time: String) -> Result<Entry, GameError> {
    let reveal = crate::engine::bot::next_reveal(game, seat, key)
        .map_err(|e| GameError::Unsupported { seq: game.next_seq(), why: e.to_string() })?;
    let body = crate::engine::author::complete_body(view, seat, key, reveal.as_ref(), auto.body())
        .map_err(|e| GameError::Unsupported { seq: game.next_seq(), why: e.to_string() })?;
    let (entry, _) = view.sign_for(seat, key, body, reveal, None, time).map_err(|e| match e {
        crate::engine::game::SignError::Game(g) => g,
        other => GameError::Unsupported { seq: game.next_seq(), why: other.to_string() },
    })?;
    if !game.commitments.is_empty() {
        game.clone().apply(&entry)?;
    }
    Ok(entry)
}

/// Make sure the robot's state directory can be used by this user only (it names the games
/// and holds entries before they are sent).
pub fn prepare_state_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Take the robot's lock in `dir`: two robots on one state would each think the other's
/// half-done work was theirs. The lock lasts as long as the returned file is open.
pub fn lock_state_dir(dir: &Path) -> Result<std::fs::File, String> {
    let path = dir.join("lock");
    let f =
        std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!("another robot is running on {} (its lock is held)", dir.display())),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{}: {e}", path.display())),
    }
}
