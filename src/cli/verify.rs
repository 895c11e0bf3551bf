//! `umpire verify`: the referee's audit of a log from genesis.

use std::path::PathBuf;

use serde::Serialize;

use super::common::{self, CliError};
use super::term::{one_line, say};
use crate::engine::game::{Cheat, Game, GameError, RandomEvent, describe_outcome};
use crate::log::entry::{Entry, Kind};
use crate::log::protocol::{Agreement, Presigned, compare};
use crate::log::store::{self, StoreError};
use crate::log::stream::LogFile;

/// Arguments of `umpire verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks every signature (verify_strict), hash link, game id, seq/prev, chain reveal, dice seed,\ncommitment opening and rules verdict, recomputed from genesis. Exit 0 only if all holds."
)]
pub struct VerifyArgs {
    /// The game log; several logs (a tournament) are verified on every core, one line each.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// Other copies of the same game (logs or entry files) to compare: forks and
    /// equivocations are reported with both hashes. One log only.
    #[arg(long = "against", value_name = "FILE")]
    pub against: Vec<PathBuf>,
    /// Machine-readable report.
    #[arg(long)]
    pub json: bool,
    /// Print every event, not only the random ones.
    #[arg(long, short)]
    pub verbose: bool,
    /// Run the omniscient pass (every hidden move re-checked knowing every opened value)
    /// even if the game is not over or some commitments were never opened; those are listed.
    #[arg(long)]
    pub hidden: bool,
    /// Logs verified at once, when there are several (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
}

/// The audit report.
#[derive(Debug, Serialize)]
pub struct Report {
    pub ok: bool,
    pub game: Option<String>,
    pub ruleset: Option<String>,
    pub scenario: Option<String>,
    pub entries: usize,
    pub entries_checked: usize,
    pub random_events: Vec<RandomEvent>,
    pub reveals: Vec<String>,
    pub deviations: Vec<String>,
    pub problems: Vec<String>,
    pub outcome: Option<String>,
    pub status: Option<String>,
    /// The omniscient pass (DESIGN §2.6): what it did, or why it did not run.
    pub hidden_pass: Option<String>,
    /// Hidden moves the omniscient pass found illegal, each naming its entry.
    pub cheats: Vec<Cheat>,
    /// What the game's violation policy makes of the first cheat (e.g. a forfeit), if the
    /// ruleset says ([`crate::engine::Ruleset::cheat_verdict`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
}

/// Audit the first log of `a` (and the copies `--against`); never fails for a bad log: the
/// report says so.
pub fn audit(a: &VerifyArgs) -> Result<(Report, Option<Game>), CliError> {
    let log = a.logs.first().ok_or_else(|| CliError::Usage("no log to verify".into()))?;
    // The steps' events are printed only with --verbose; otherwise they are dropped as the
    // replay goes (issue 20's memory: about a third of what a long game holds).
    let events = if a.verbose { StepEvents::Keep } else { StepEvents::Drop };
    Ok(audit_log(log, &a.against, a.hidden, Pipeline::TwoThreads, events))
}

/// Whether a replay keeps each step's events (what `--verbose`, `show` and the replay page
/// print) or drops them once the step is recorded; its dice and openings are kept either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepEvents {
    /// Every step keeps its events.
    Keep,
    /// Each step's events are dropped as soon as it is recorded.
    Drop,
}

/// Whether one log's replay gets a thread of its own for parsing and signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pipeline {
    /// Parse and check signatures on a second thread ahead of the rules (one log, two cores).
    TwoThreads,
    /// Everything on the calling thread: a tournament already keeps every core busy with
    /// one log each, and a second thread per log would only add hand-overs.
    OneThread,
}

/// Audit one log (and copies); the same checks and report whatever the `pipeline`. The game
/// handed back has given its steps' dice (`resolved`) to the report.
pub fn audit_log(
    log: &std::path::Path,
    against: &[PathBuf],
    hidden: bool,
    pipeline: Pipeline,
    events: StepEvents,
) -> (Report, Option<Game>) {
    let mut r = Report {
        ok: false,
        game: None,
        ruleset: None,
        scenario: None,
        entries: 0,
        entries_checked: 0,
        random_events: Vec::new(),
        reveals: Vec::new(),
        deviations: Vec::new(),
        problems: Vec::new(),
        outcome: None,
        status: None,
        hidden_pass: None,
        cheats: Vec::new(),
        verdict: None,
    };
    // Without copies to compare or steps to print, the entries need not be held once the
    // rules took them (issue 20's memory); a log that turns out to need them is replayed
    // again holding them (`replay_lean`).
    let lean = against.is_empty() && !hidden && events == StepEvents::Drop;
    let replayed = if lean {
        replay_lean(log, pipeline)
    } else {
        store::read_log_bytes(log).and_then(|bytes| replay_log_keeping(log, &bytes, pipeline, events))
    };
    let replayed = match replayed {
        Ok(x) => x,
        Err(e) => {
            r.problems.push(e.to_string());
            return (r, None);
        }
    };
    r.entries = replayed.count();
    let applied = replayed.applied;
    let LogReplay { replayed: replay, all, mut dice, .. } = replayed;
    let (mut game, error) = match replay {
        Ok(g) => (Some(g), None),
        Err((g, e)) => (g.map(|g| *g), Some(e)),
    };
    if let Some(g) = &mut game {
        // The report takes the dice from the steps rather than copying them: nothing after
        // the audit reads a step's dice, and two copies of every roll would be held at the
        // peak (issue 20's memory).
        for s in &mut g.steps {
            r.random_events.append(&mut s.resolved);
        }
        r.random_events.append(&mut dice);
        r.game = Some(g.id().to_hex());
        r.ruleset = Some(format!("{} {}", g.genesis().ruleset.id, g.genesis().ruleset.version));
        r.scenario = Some(g.genesis().scenario.name.clone());
        r.entries_checked = applied.unwrap_or(g.entries.len());
        for s in &g.steps {
            for o in &s.opened {
                r.reveals.push(format!("entry {}: opened {o}", s.seq));
            }
        }
        r.deviations = g.amendments.iter().map(|a| a.describe()).collect();
        if g.result_waits_for_openings() {
            let mut owed: Vec<String> = g.owed_openings().iter().map(|(s, ids)| format!("{s} owes {}", ids.join(", "))).collect();
            owed.extend(g.waiting_for().into_iter().map(|(s, w)| format!("{s}: {w}")));
            let result = match &g.ending {
                Some(end) => format!("at entry {} ({})", end.seq, describe_outcome(&end.outcome)),
                None => "and hold the result".to_string(),
            };
            r.problems.push(format!(
                "INCOMPLETE: the rules ended the game {result}, but openings are owed: {}; the game is not over until they come \
                 (DESIGN §2.6)",
                owed.join("; ")
            ));
            r.status = Some(format!("incomplete: openings owed ({})", owed.join("; ")));
        } else if let Some(end) = &g.ending {
            r.outcome = Some(format!("{} (entry {})", describe_outcome(&end.outcome), end.seq));
            for (seat, id, seq) in g.unopened() {
                r.problems.push(format!("entry {seq}: {seat} committed to {id:?} and never opened it before the game ended"));
            }
        } else {
            let w: Vec<_> = g.waiting_for().into_iter().map(|(s, w)| format!("{s}: {w}")).collect();
            r.status = Some(format!("in progress; waiting for {}", w.join("; ")));
        }
    }
    if let Some(e) = &error {
        r.problems.push(e.to_string());
        if r.entries_checked + 1 < r.entries {
            r.problems.push(format!(
                "entries {}..{} were not checked: they depend on the broken entry",
                r.entries_checked + 1,
                r.entries - 1
            ));
        }
    }
    let entries: &[Entry] = match (&all, &game) {
        (Some(all), _) => all,
        (None, Some(g)) => &g.entries,
        (None, None) => &[],
    };
    for other in against {
        let Some(genesis) = game.as_ref().map(|g| g.genesis().clone()) else {
            r.problems.push(format!("{}: not compared: this log's own genesis does not verify", other.display()));
            continue;
        };
        match common::read_entry_file(other) {
            Ok(theirs) => match compare(&genesis, entries, &theirs) {
                Agreement::Prefix => {}
                Agreement::DifferentGames => r.problems.push(format!("{}: FOREIGN: not an entry of this game", other.display())),
                Agreement::Unverified { seq, hash, why } => r.problems.push(format!(
                    "{}: FORGED OR CORRUPTED entry {seq} ({hash}): {why}; it proves nothing about any seat",
                    other.display()
                )),
                Agreement::Fork { seq, hash_a, hash_b, seat_a, seat_b, equivocation, crossed } => r.problems.push(format!(
                    "{}: {} at entry {seq}: this log has {hash_a} (by {seat_a}), the other has {hash_b} (by {seat_b}); both signatures verify",
                    other.display(),
                    if equivocation {
                        "EQUIVOCATION (one seat signed two different entries)"
                    } else if crossed {
                        "CROSSED MAIL (an out-of-turn entry gives way; sign it again after the other)"
                    } else {
                        "FORK"
                    }
                )),
            },
            Err(e) => r.problems.push(e.to_string()),
        }
    }
    if error.is_none()
        && let Some(g) = &game
    {
        hidden_pass(&mut r, g, hidden);
    }
    r.ok = r.problems.is_empty() && game.is_some();
    (r, game)
}

/// The omniscient pass, after a public pass that went through: when the game is over and
/// every commitment was opened, or when asked (`--hidden`). A game with nothing hidden needs
/// none (it would replay exactly as the public pass did).
fn hidden_pass(r: &mut Report, game: &Game, asked: bool) {
    let unopened = game.unopened();
    let complete = game.ending.is_some() && unopened.is_empty();
    if game.commitments.is_empty() && !asked {
        return;
    }
    if !complete && !asked {
        r.hidden_pass = Some(if game.ending.is_none() {
            "not run: the game is not over (hidden moves are re-checked once every value is opened; --hidden runs it now)".into()
        } else {
            "not run: some commitments were never opened".into()
        });
        return;
    }
    let mut note = format!("{} hidden value(s) known from their commitment on", game.opened_values().len());
    if !unopened.is_empty() {
        let list: Vec<_> = unopened.iter().map(|(s, id, seq)| format!("{s}/{id} (entry {seq})")).collect();
        note.push_str(&format!("; never opened, so not checked: {}", list.join(", ")));
    }
    match game.replay_omniscient() {
        Ok(_) => r.hidden_pass = Some(format!("every hidden move re-checked: no cheat ({note})")),
        Err(cheats) => {
            for c in &cheats {
                r.problems.push(format!("CHEAT at entry {} by {} ({}): {}: {}", c.seq, c.seat, c.hash.short(16), c.rule, c.message));
            }
            r.hidden_pass = Some(format!("{} cheat(s) found ({note})", cheats.len()));
            r.verdict = cheats.first().and_then(|c| game.state.cheat_verdict(&c.seat));
            r.cheats = cheats;
        }
    }
}

/// `umpire verify`.
pub fn run(a: VerifyArgs) -> Result<i32, CliError> {
    if a.logs.len() > 1 {
        return tournament(&a);
    }
    let (r, game) = audit(&a)?;
    let log = &a.logs[0];
    if a.json {
        say!("{}", serde_json::to_string_pretty(&r).map_err(|e| CliError::Other(e.to_string()))?);
        return Ok(if r.ok { 0 } else { 1 });
    }
    say!("verify {}", log.display());
    if let Some(g) = &r.game {
        say!("  game {g}");
        say!("  ruleset {}, scenario {}", r.ruleset.as_deref().unwrap_or("?"), one_line(r.scenario.as_deref().unwrap_or("?")));
    }
    say!(
        "  {} entries, {} checked: signatures (verify_strict), hash chain, seq/prev, reveals, dice seeds, rules",
        r.entries,
        r.entries_checked
    );
    if a.verbose
        && let Some(g) = &game
    {
        for s in &g.steps {
            say!("  entry {} {} {:?} {}", s.seq, one_line(&s.seat), s.kind, s.hash.short(16));
            common::print_events(&s.events);
        }
    }
    say!("  random events: {}", r.random_events.len());
    for re in &r.random_events {
        let rolls: Vec<_> = re.rolls.iter().map(|x| format!("{} {}={}", x.purpose, x.die, x.result)).collect();
        say!(
            "    entry {} (revealed by {}), seed {}: {}",
            re.entry,
            re.revealed_by,
            re.seed.short(16),
            if rolls.is_empty() { re.what.clone() } else { rolls.join("; ") }
        );
    }
    say!("  hidden values opened: {}", r.reveals.len());
    for x in &r.reveals {
        say!("    {x}");
    }
    say!("  deviations (amendments): {}", r.deviations.len());
    for x in &r.deviations {
        say!("    {x}");
    }
    if let Some(h) = &r.hidden_pass {
        say!("  omniscient pass: {h}");
    }
    if let Some(v) = &r.verdict {
        say!("  verdict: {v}");
    }
    if let Some(o) = &r.outcome {
        say!("  result: {o}");
    } else if let Some(s) = &r.status {
        say!("  {s}");
    }
    if r.ok {
        say!("OK: the log verifies");
        Ok(0)
    } else {
        say!("FAILED: {} problem(s)", r.problems.len());
        for p in &r.problems {
            say!("  {p}");
        }
        Ok(1)
    }
}

/// One game of a tournament in `umpire verify A.log B.log … --json`.
#[derive(Debug, Serialize)]
pub struct GameReport {
    /// The log, as given.
    pub log: String,
    /// Its audit, as `umpire verify LOG --json` prints it.
    #[serde(flatten)]
    pub report: Report,
}

/// `umpire verify A.log B.log … --json`: every game, then the totals.
#[derive(Debug, Serialize)]
pub struct TournamentReport {
    /// Every game verifies.
    pub ok: bool,
    /// Logs verified.
    pub logs: usize,
    /// Logs that verify.
    pub verified: usize,
    /// Logs with at least one problem.
    pub failed: usize,
    /// Entries of all the logs.
    pub entries: usize,
    /// Each game, in the order the logs were given.
    pub games: Vec<GameReport>,
}

/// The short form of a game's standing: its result, or where it stands.
fn standing(r: &Report) -> String {
    match (&r.outcome, &r.status) {
        (Some(o), _) => format!("result: {o}"),
        (None, Some(s)) => s.clone(),
        (None, None) => "not replayed".into(),
    }
}

/// Many logs: each audited on its own (one thread per log, as many at once as `--jobs`, by
/// default the cores), printed in the order given as soon as it and those before it are done.
fn tournament(a: &VerifyArgs) -> Result<i32, CliError> {
    if !a.against.is_empty() {
        return Err(CliError::Usage("--against compares copies of one game: give one log with it".into()));
    }
    if a.verbose {
        return Err(CliError::Usage("--verbose prints one game's events: give one log with it".into()));
    }
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let jobs = a.jobs.unwrap_or(cores).clamp(1, a.logs.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<Option<Report>> = (0..a.logs.len()).map(|_| None).collect();
    let mut printed = 0;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Report)>();
        for _ in 0..jobs {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(log) = a.logs.get(i) else { return };
                    // The game itself is not kept: only its report is printed.
                    let (r, _) = audit_log(log, &[], a.hidden, Pipeline::OneThread, StepEvents::Drop);
                    if tx.send((i, r)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            done[i] = Some(r);
            while let Some(Some(r)) = done.get(printed) {
                if !a.json {
                    print_game_line(&a.logs[printed], r);
                }
                printed += 1;
            }
        }
    });
    let reports: Vec<Report> = done.into_iter().map(|r| r.expect("every log is audited")).collect();
    let verified = reports.iter().filter(|r| r.ok).count();
    let t = TournamentReport {
        ok: verified == reports.len(),
        logs: reports.len(),
        verified,
        failed: reports.len() - verified,
        entries: reports.iter().map(|r| r.entries).sum(),
        games: a.logs.iter().zip(reports).map(|(l, report)| GameReport { log: l.display().to_string(), report }).collect(),
    };
    if a.json {
        say!("{}", serde_json::to_string_pretty(&t).map_err(|e| CliError::Other(e.to_string()))?);
    } else if t.ok {
        say!("OK: all {} logs verify ({} entries)", t.logs, t.entries);
    } else {
        say!("FAILED: {} of {} logs have problems ({} verify; {} entries)", t.failed, t.logs, t.verified, t.entries);
    }
    Ok(if t.ok { 0 } else { 1 })
}

/// A tournament's line for one game: verdict, log, entries, standing, problems (each problem
/// on a line of its own below, so a failure can be read without running it again).
fn print_game_line(log: &std::path::Path, r: &Report) {
    let verdict = if r.ok { "OK    " } else { "FAILED" };
    let problems = match r.problems.len() {
        0 => String::new(),
        1 => ", 1 problem".into(),
        n => format!(", {n} problems"),
    };
    // A log broken part-way: the partial game's standing would mislead.
    let standing = if r.entries_checked < r.entries { format!("{} checked", r.entries_checked) } else { standing(r) };
    say!("{verdict} {}: {} entries, {}{problems}", log.display(), r.entries, one_line(&standing));
    for p in &r.problems {
        say!("    {}", one_line(p));
    }
}

/// Does this log text verify from genesis (every entry parses, signatures, chain, rules,
/// and the omniscient pass of a finished game with every commitment opened)?
/// The same checks as `umpire verify`, without the report; for tests and tools.
pub fn verify_bytes(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"---\n") {
        return false;
    }
    match replay_log(std::path::Path::new("log"), bytes).map(|r| r.replayed) {
        // A finished game with every commitment opened must also pass the omniscient pass.
        Ok(Ok(g)) if g.ending.is_some() && !g.commitments.is_empty() && g.unopened().is_empty() => g.replay_omniscient().is_ok(),
        Ok(Ok(_)) => true,
        _ => false,
    }
}

/// What [`Game::replay`] returns.
pub type Replayed = Result<Game, (Option<Box<Game>>, GameError)>;

/// Entries parsed and signature-checked per message to the replaying thread: large enough
/// to make the hand-over cheap, small enough that the replay starts at once.
const CHUNK: usize = 64;

/// Parse and replay log text exactly as `store::parse_log` then [`Game::replay`] would (same
/// results, same errors), on both cores: the entries are parsed and their signatures checked
/// (`verify_strict`, see [`Presigned`]) chunk by chunk by a helper thread and, whenever it
/// would otherwise wait, by this thread, which replays the rules in log order
/// ([`super::ahead`]). A parse error anywhere is the error (as with
/// `parse_log`); otherwise every entry is returned with the replay's result. An entry whose
/// signature fails is not skipped: the replay checks it again and names it.
pub fn replay_log(path: &std::path::Path, bytes: &[u8]) -> Result<LogReplay, StoreError> {
    replay_log_with(path, bytes, Pipeline::TwoThreads)
}

/// [`replay_log`], with the parsing and signatures on a thread of their own or on this one;
/// the same chunks, checks and results either way.
pub fn replay_log_with(path: &std::path::Path, bytes: &[u8], pipeline: Pipeline) -> Result<LogReplay, StoreError> {
    replay_log_keeping(path, bytes, pipeline, StepEvents::Keep)
}

/// [`replay_log_with`], keeping the steps' events or not; the same results otherwise.
pub fn replay_log_keeping(path: &std::path::Path, bytes: &[u8], pipeline: Pipeline, events: StepEvents) -> Result<LogReplay, StoreError> {
    if bytes.is_empty() {
        return Ok(LogReplay::empty());
    }
    if !(bytes.starts_with(b"---\n") || bytes.starts_with(b"---\r\n")) {
        return Err(StoreError::NotALog { path: path.to_path_buf() });
    }
    replay_holding(path, store::split_log(bytes), pipeline, events)
}

/// The replay of a log's entries (non-empty, split from its text) holding every one of them.
fn replay_holding(path: &std::path::Path, parts: Vec<&[u8]>, pipeline: Pipeline, events: StepEvents) -> Result<LogReplay, StoreError> {
    let replayed = replay(path, &Source::Text(parts), pipeline, events, false)?;
    Ok(replayed.expect("a replay holding its entries never needs them again"))
}

/// [`replay_log_keeping`] with the steps' events dropped, for a report alone: the log is
/// read from its file a chunk of entries at a time ([`LogFile`]), and each entry is let go
/// with its step as soon as the rules took it, so neither the text nor the entries are held:
/// the game ends up holding its state and the entries and steps of the genesis and joins
/// alone ([`LogReplay::count`] still says how many entries there were, and the let-go steps'
/// dice are kept for the report). What would need the entries again — a take-back (it
/// replays a prefix), a commitment or private draw (the omniscient pass replays them all), a
/// refused entry (the careful replay) — makes this replay start over on the whole text,
/// with the same result as [`replay_log_keeping`].
fn replay_lean(path: &std::path::Path, pipeline: Pipeline) -> Result<LogReplay, StoreError> {
    let log = LogFile::open(path)?;
    if log.is_empty() {
        return Ok(LogReplay::empty());
    }
    match replay(path, &Source::File(&log), pipeline, StepEvents::Drop, true)? {
        Some(replayed) => Ok(replayed),
        None => {
            // The entries found when the file was opened, on its text read whole (which
            // `read_all` checks splits the same way): the text is not split a second time.
            let bytes = log.read_all()?;
            let parts = log.entries_of(&bytes);
            drop(log);
            replay_holding(path, parts, pipeline, StepEvents::Drop)
        }
    }
}

/// Where a replay reads its entries' bytes: log text in memory, or a log file a chunk of
/// entries at a time.
enum Source<'a> {
    Text(Vec<&'a [u8]>),
    File(&'a LogFile),
}

impl Source<'_> {
    fn len(&self) -> usize {
        match self {
            Source::Text(parts) => parts.len(),
            Source::File(log) => log.len(),
        }
    }

    /// `f` on the bytes of entries `range`, one slice each.
    fn with_entries<T>(&self, range: std::ops::Range<usize>, f: impl FnOnce(&[&[u8]]) -> T) -> Result<T, StoreError> {
        match self {
            Source::Text(parts) => Ok(f(&parts[range])),
            Source::File(log) => log.with_entries(range, f),
        }
    }
}

/// The replay of a non-empty log that starts with a `---` line, holding its entries (`lean`
/// false) or letting them go ([`replay_lean`]); `None` when a lean replay met what needs
/// them (see there).
fn replay(
    path: &std::path::Path,
    src: &Source,
    pipeline: Pipeline,
    events: StepEvents,
    lean: bool,
) -> Result<Option<LogReplay>, StoreError> {
    let parse_err = |index: usize, source| StoreError::Entry { path: path.to_path_buf(), index, source };
    let n = src.len();
    let first = src.with_entries(0..1, |p| Entry::parse(p[0]))?.map_err(|e| parse_err(0, e))?;
    // The keys, for the signatures, come from the genesis entry alone; the game itself (the
    // scenario read and set up, the longest step before any entry can be replayed) is made
    // on this thread while the helper already parses and checks the first chunks.
    let genesis = match crate::log::protocol::ProtocolState::from_genesis(&first) {
        Ok(p) => p.genesis,
        Err(e) => return no_game(src, first, e.into(), parse_err).map(Some),
    };
    let mut game: Option<Game> = None;
    let made = |game: &mut Option<Game>| -> Result<(), GameError> {
        if game.is_none() {
            let mut g = Game::from_genesis(&first)?;
            // Room for every entry at once: growing by doubling would copy them and, at the
            // peak, hold up to half as many again unused. A lean replay holds none.
            if !lean {
                g.entries.reserve_exact(n.saturating_sub(g.entries.len()));
            }
            g.steps.reserve_exact(n.saturating_sub(g.steps.len()));
            *game = Some(g);
        }
        Ok(())
    };
    // The first entry the straight replay refuses and every one after it (the game holds
    // those before); none if it refuses nothing. Otherwise the log is replayed again with
    // rollback, for exactly `Game::replay`'s partial game and error.
    let mut rest: Vec<Entry> = Vec::new();
    // Entries a lean replay let go once applied, and the dice their steps resolved.
    let mut let_go = 0_usize;
    let mut let_go_dice: Vec<RandomEvent> = Vec::new();
    // Chunk `c` of the entries after the genesis: parsed, and their signatures checked, or
    // the first read or parse error.
    let chunks = (n - 1).div_ceil(CHUNK);
    let prepare = |c: usize| -> Result<(Vec<Entry>, Presigned), StoreError> {
        let from = 1 + c * CHUNK;
        let es: Vec<Entry> = src.with_entries(from..n.min(from + CHUNK), |chunk| {
            chunk.iter().enumerate().map(|(j, b)| Entry::parse(b).map_err(|e| parse_err(from + j, e))).collect::<Result<_, _>>()
        })??;
        let pre = Presigned::check(&genesis, &es);
        Ok((es, pre))
    };
    // The rules on one chunk, in log order.
    let mut take = |msg: Result<(Vec<Entry>, Presigned), StoreError>| -> Result<(), Stop> {
        made(&mut game).map_err(Stop::Genesis)?;
        let game = game.as_mut().expect("made above");
        let (chunk, pre) = msg.map_err(Stop::Store)?;
        game.protocol.presigned = Some(std::sync::Arc::new(pre));
        for e in chunk {
            if !rest.is_empty() {
                rest.push(e);
                continue;
            }
            let hash = e.hash;
            // A take-back replays the entries before it: a lean replay has let them go.
            if lean && matches!(e.kind(), Kind::ProposeAmend | Kind::AgreeAmend) {
                return Err(Stop::NeedsEntries);
            }
            match game.apply_owned_or_spoil(e) {
                // Applied: its orders' parsed tree is no longer needed (issue 20's memory).
                Ok(()) => {
                    if lean && game.protocol.all_joined {
                        // Hidden values send the report to the omniscient pass, which replays
                        // every entry; open amendments read earlier ones.
                        if !game.commitments.is_empty() || !game.draws.is_empty() || game.amendment.is_some() {
                            return Err(Stop::NeedsEntries);
                        }
                        // The report wants a let-go entry's dice alone; the rules read neither
                        // the entry nor its step again.
                        if game.entries.last().is_some_and(|k| k.hash == hash)
                            && let Some(mut step) = game.steps.pop_if(|s| s.hash == hash)
                        {
                            game.entries.pop();
                            let_go_dice.append(&mut step.resolved);
                            let_go += 1;
                            continue;
                        }
                    }
                    if let Some(kept) = game.entries.iter_mut().rev().find(|k| k.hash == hash) {
                        kept.shed_orders();
                    }
                    if events == StepEvents::Drop
                        && let Some(step) = game.steps.iter_mut().rev().find(|s| s.hash == hash)
                    {
                        step.events = Vec::new();
                    }
                }
                // The careful replay that names the refusal replays every entry.
                Err(_) if lean => return Err(Stop::NeedsEntries),
                Err(refused) => rest.push(refused.0),
            }
        }
        Ok(())
    };
    let run = match pipeline {
        Pipeline::OneThread => (0..chunks).try_for_each(|c| take(prepare(c))),
        Pipeline::TwoThreads => super::ahead::prepare_ahead(chunks, prepare, |m| m.is_err(), take),
    };
    // A log of the genesis alone made no chunk.
    let run = run.and_then(|()| made(&mut game).map_err(Stop::Genesis));
    let mut game = match run {
        Ok(()) => game.expect("made above"),
        Err(Stop::Store(e)) => return Err(e),
        Err(Stop::Genesis(e)) => return no_game(src, first, e, parse_err).map(Some),
        Err(Stop::NeedsEntries) => return Ok(None),
    };
    let applied = lean.then(|| game.entries.len() + let_go);
    // The shortcut served this replay only; a game handed on checks signatures itself.
    game.protocol.presigned = None;
    let mut out = if rest.is_empty() {
        LogReplay { replayed: Ok(game), all: None, applied, dice: let_go_dice }
    } else {
        let mut all = std::mem::take(&mut game.entries);
        all.append(&mut rest);
        // The game is spoiled by the refused entry: replay again with rollback, which stops
        // before the first entry the rules really refuse. To the end, not only to the refused
        // entry: the straight replay may refuse entries the rules accept
        // (`Ruleset::validate_and_apply_in_place`).
        let replayed = Game::replay_carefully(&all, crate::engine::hidden::Knowledge::public(), None);
        LogReplay { replayed, all: Some(all), applied: None, dice: Vec::new() }
    };
    // The genesis step's, and those of a careful replay, which keeps them as it goes.
    if events == StepEvents::Drop {
        let game = match &mut out.replayed {
            Ok(g) => Some(g),
            Err((g, _)) => g.as_deref_mut(),
        };
        for s in game.into_iter().flat_map(|g| g.steps.iter_mut()) {
            s.events = Vec::new();
        }
    }
    Ok(Some(out))
}

/// Why [`replay_log_with`] stopped before the end of the log.
enum Stop {
    /// An entry does not parse.
    Store(StoreError),
    /// The genesis does not make a game.
    Genesis(GameError),
    /// A lean replay met what needs the entries it let go.
    NeedsEntries,
}

/// A log whose genesis makes no game: no keys to check against, so the rest is only
/// parsed, for `parse_log`'s errors; then the genesis's error.
fn no_game(
    src: &Source,
    first: Entry,
    error: GameError,
    parse_err: impl Fn(usize, crate::log::entry::EntryError) -> StoreError,
) -> Result<LogReplay, StoreError> {
    let mut entries = vec![first];
    let rest = src.with_entries(1..src.len(), |parts| {
        parts.iter().enumerate().map(|(i, b)| Entry::parse(b).map_err(|e| parse_err(1 + i, e))).collect::<Result<Vec<_>, _>>()
    })??;
    entries.extend(rest);
    Ok(LogReplay { replayed: Err((None, error)), all: Some(entries), applied: None, dice: Vec::new() })
}

/// A log replayed by [`replay_log`]: the replay's result, and the log's entries.
pub struct LogReplay {
    /// The game after every entry, or the error and the game before the refused entry.
    pub replayed: Replayed,
    /// Every entry of the log when the replay failed; `None` when the game holds them all
    /// (one copy of each entry, not two, in a long audit).
    all: Option<Vec<Entry>>,
    /// How many entries the game applied, when a lean replay let them go
    /// ([`replay_lean`]); `None` when the game holds them.
    applied: Option<usize>,
    /// The dice of the entries a lean replay let go, in log order (their steps are let go
    /// too); they come after those of the steps the game holds.
    dice: Vec<RandomEvent>,
}

impl LogReplay {
    /// The replay of an empty log (a log of no entries).
    fn empty() -> LogReplay {
        LogReplay { replayed: Game::replay(&[]), all: Some(Vec::new()), applied: None, dice: Vec::new() }
    }

    /// Every entry of the log, in log order.
    pub fn entries(&self) -> &[Entry] {
        match (&self.all, &self.replayed) {
            (Some(all), _) => all,
            (None, Ok(g)) => &g.entries,
            (None, Err(_)) => &[],
        }
    }

    /// How many entries the log has (the same as `entries().len()` unless a lean replay let
    /// them go).
    pub fn count(&self) -> usize {
        self.applied.unwrap_or_else(|| self.entries().len())
    }
}

#[cfg(test)]
mod hidden_tests {
    #[test]
    fn the_cli_author_path_conceals_and_verify_reports_the_cheat() {
        use super::{VerifyArgs, audit, verify_bytes};
        use crate::engine::toy::ToyOrders;
        use crate::engine::toy::tests::{lying_game, scripted, start};
        use crate::log::entry::Body;
        use crate::log::entry::Kind;
        // Signing through the CLI's author path: the number is committed and sealed.
        let (g, p) = start(4);
        let mut b = Body::new(Kind::Orders);
        b.orders = Some(yaml_serde::to_value(ToyOrders { number: Some(6), ..Default::default() }).unwrap());
        let e = super::super::common::sign_as_author(&g, "hider", p.key("hider").unwrap(), b, None).unwrap();
        assert!(e.draft.body.commit.is_some() && e.draft.body.sealed.is_some());
        assert_eq!(e.draft.body.orders, Some(yaml_serde::to_value(ToyOrders::default()).unwrap()));
        g.clone().apply(&e).unwrap();

        let dir = tempfile::tempdir().unwrap();
        let args = |log: &std::path::Path, hidden: bool| VerifyArgs {
            logs: vec![log.to_path_buf()],
            against: vec![],
            json: true,
            verbose: false,
            hidden,
            jobs: None,
        };
        // An honest finished game: both passes clean.
        let (honest, _, _) = scripted();
        let path = dir.path().join("honest.log");
        crate::log::store::create_log(&path, &honest.entries).unwrap();
        let (r, _) = audit(&args(&path, false)).unwrap();
        assert!(r.ok, "{:?}", r.problems);
        assert!(r.hidden_pass.as_deref().unwrap().starts_with("every hidden move re-checked"), "{:?}", r.hidden_pass);
        assert!(verify_bytes(&std::fs::read(&path).unwrap()));
        // Unfinished: not run unless asked; asked, it lists what was never opened.
        let path = dir.path().join("half.log");
        crate::log::store::create_log(&path, &honest.entries[..5]).unwrap();
        let (r, _) = audit(&args(&path, false)).unwrap();
        assert!(r.ok && r.hidden_pass.as_deref().unwrap().starts_with("not run"), "{:?}", r.hidden_pass);
        let (r, _) = audit(&args(&path, true)).unwrap();
        assert!(r.ok && r.hidden_pass.as_deref().unwrap().contains("hider/number@1 (entry 2)"), "{:?}", r.hidden_pass);
        // The lying game: exit 1, the cheat names the entry.
        let (lying, lie) = lying_game();
        let path = dir.path().join("lying.log");
        crate::log::store::create_log(&path, &lying.entries).unwrap();
        let (r, _) = audit(&args(&path, false)).unwrap();
        assert!(!r.ok);
        assert_eq!(r.cheats.len(), 1);
        assert_eq!((r.cheats[0].seq, r.cheats[0].hash), (lie.seq(), lie.hash));
        assert!(r.problems.iter().any(|p| p.starts_with(&format!("CHEAT at entry {} by hider", lie.seq()))), "{:?}", r.problems);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["cheats"][0]["rule"], "TOY 2");
        assert!(!verify_bytes(&std::fs::read(&path).unwrap()));
    }
}

/// `verify`'s fast path (parse and signatures ahead of the rules, on a second thread or on
/// the same one; orders checked and applied in one pass where the ruleset can) against the
/// straightforward path (`store::parse_log`, then [`Game::replay`] entry by entry with a
/// rollback copy, each entry's orders validated then applied, then the omniscient pass), on
/// bot games of every
/// bundled ruleset: the same entries, steps, state, ending and omniscient verdict, and the
/// same report whichever pipeline. Speed work must leave all of it unchanged (issue 20).
#[cfg(test)]
mod same_results_tests {
    use super::{Pipeline, StepEvents, audit_log, replay_lean, replay_log_keeping, replay_log_with};
    use crate::engine::bot;
    use crate::engine::game::Game;
    use crate::log::store;

    /// Everything a replay decides, as text to compare.
    fn digest(g: &Game) -> String {
        let entries: Vec<String> = g.entries.iter().map(|e| e.hash.to_hex()).collect();
        // YAML, not JSON: some rulesets' states have maps keyed by non-strings (hexes).
        yaml_serde::to_string(&(entries, &g.steps, &g.state, &g.ending, &g.pending, g.unopened())).expect("serialises")
    }

    fn bot_log(scenario: &str, seed: u64, options: Option<&str>, max: u64) -> Vec<u8> {
        let s = crate::scenarios::find(scenario).expect("bundled");
        let seats = crate::scenarios::seats(s);
        let options = options.map(|o| yaml_serde::from_str(o).expect("options"));
        let (mut game, mut players) = bot::start_game_with(s, &seats, seed, 4096, "2000-01-01T00:00:00Z", options).expect("starts");
        let mut clock = || "2000-01-01T00:00:00Z".to_string();
        let mut keep = |_: &crate::log::Entry, _: &Game| Ok(());
        match bot::play_out(&mut game, &mut players, seed, max, &mut clock, &mut keep) {
            Ok(()) | Err(bot::BotError::TooLong(_)) => {}
            Err(e) => panic!("{scenario} seed {seed}: {e}"),
        }
        store::join_log(&game.entries)
    }

    fn check_same(what: &str, bytes: &[u8]) {
        let path = std::path::Path::new("log");
        // The reference: every entry's orders validated, then applied (two passes).
        crate::engine::registry::REFERENCE_PATH.with(|on| on.set(true));
        let reference = Game::replay(&store::parse_log(path, bytes).expect("parses"));
        let reference_hidden = reference.as_ref().ok().map(|g| g.replay_omniscient().map(|g| digest(&g)).map_err(|c| format!("{c:?}")));
        crate::engine::registry::REFERENCE_PATH.with(|on| on.set(false));
        let reference = reference.unwrap_or_else(|(_, e)| panic!("{what}: {e}"));
        let reference_hidden = reference_hidden.expect("replayed");
        for pipeline in [Pipeline::TwoThreads, Pipeline::OneThread] {
            let replay = replay_log_with(path, bytes, pipeline).expect("parses");
            assert_eq!(replay.entries().len(), reference.entries.len(), "{what} {pipeline:?}");
            let fast = replay.replayed.unwrap_or_else(|(_, e)| panic!("{what} {pipeline:?}: {e}"));
            assert_eq!(digest(&fast), digest(&reference), "{what} {pipeline:?}: the replay differs");
            let hidden = fast.replay_omniscient().map(|g| digest(&g)).map_err(|c| format!("{c:?}"));
            assert_eq!(hidden, reference_hidden, "{what} {pipeline:?}: the omniscient pass differs");
            // Dropping the steps' events (`verify` without --verbose) drops them and nothing else.
            let lean = replay_log_keeping(path, bytes, pipeline, StepEvents::Drop).expect("parses");
            let lean = lean.replayed.unwrap_or_else(|(_, e)| panic!("{what} {pipeline:?}: {e}"));
            assert!(lean.steps.iter().all(|s| s.events.is_empty()), "{what} {pipeline:?}: events kept");
            let mut wordless = reference.clone();
            wordless.steps.iter_mut().for_each(|s| s.events.clear());
            assert_eq!(digest(&lean), digest(&wordless), "{what} {pipeline:?}: dropping events changed more");
        }
        // The reports of one log (two threads) and of a tournament's game (one thread).
        let dir = tempfile::tempdir().expect("tempdir");
        let log = dir.path().join("game.log");
        std::fs::write(&log, bytes).expect("writes");
        let (a, _) = audit_log(&log, &[], false, Pipeline::TwoThreads, StepEvents::Drop);
        let (b, _) = audit_log(&log, &[], false, Pipeline::OneThread, StepEvents::Keep);
        assert!(a.ok, "{what}: {:?}", a.problems);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap(), "{what}: the reports differ");
        // The lean replay (a report alone): the same steps and state as the reference with
        // its events dropped; it let the entries go unless something hidden needs them again.
        for pipeline in [Pipeline::TwoThreads, Pipeline::OneThread] {
            let lean = replay_lean(&log, pipeline).expect("parses");
            assert_eq!(lean.count(), reference.entries.len(), "{what} {pipeline:?}");
            let lean_dice = lean.dice;
            let lean = lean.replayed.unwrap_or_else(|(_, e)| panic!("{what} {pipeline:?}: {e}"));
            let mut wordless = reference.clone();
            wordless.steps.iter_mut().for_each(|s| s.events.clear());
            let held = !reference.commitments.is_empty() || !reference.draws.is_empty();
            if held {
                assert_eq!(digest(&lean), digest(&wordless), "{what} {pipeline:?}: the lean replay's fallback differs");
            } else {
                // Held: the genesis and the joins before the last (play starts with it).
                let held = lean.entries.len();
                assert_eq!(lean.steps.len(), held, "{what} {pipeline:?}");
                assert!(held <= reference.genesis().seats.len() + 1, "{what} {pipeline:?}: {held} entries held after the joins");
                let dice: Vec<_> = wordless.steps[held..].iter().flat_map(|s| s.resolved.iter().cloned()).collect();
                assert_eq!(lean_dice, dice, "{what} {pipeline:?}: the let-go steps' dice differ");
                wordless.entries.truncate(held);
                wordless.steps.truncate(held);
                assert_eq!(digest(&lean), digest(&wordless), "{what} {pipeline:?}: the lean replay differs");
            }
        }
    }

    #[test]
    fn every_bundled_ruleset_verifies_the_same_on_the_fast_path() {
        let games: &[(&str, Option<&str>, u64)] = &[
            ("glorys-end/marne", None, 2_000),
            ("glorys-end/marne", Some("{hidden_counters: true}"), 2_000),
            ("glorys-end/free-deployment", None, 2_000),
            ("glorys-end/free-deployment", Some("{hidden_counters: true, dummies: true}"), 2_000),
            ("glorys-end/short-campaign", None, 400),
            ("first-world-war/standard", None, 2_000),
            ("when-eagles-fight/historical", None, 2_000),
            ("jours-de-gloire/marengo", None, 2_000),
            ("steel-wheels/crossroads", None, 2_000),
            ("roads-to-leningrad/soltsy", None, 2_000),
        ];
        for &(scenario, options, max) in games {
            for seed in 1..=2 {
                let what = format!("{scenario} {options:?} seed {seed}");
                check_same(&what, &bot_log(scenario, seed, options, max));
            }
        }
    }

    /// A straight replay applies Glory's End orders to the state itself and gives up at the
    /// first action it cannot take (`Ruleset::validate_and_apply_in_place`): the state is then
    /// spoiled, and the verdict must come from the careful replay, word for word the
    /// reference's (the one-pass refusal says nothing of the rule).
    #[test]
    fn orders_refused_halfway_fail_the_same_on_the_fast_path() {
        use crate::crypto::tagged_hash;
        use crate::engine::game::GameError;
        let seed = 3;
        let bytes = bot_log("glorys-end/marne", seed, None, 300);
        let entries = store::parse_log(std::path::Path::new("log"), &bytes).expect("parses");
        let path = std::path::Path::new("log");
        let reference = |log: &[u8]| {
            crate::engine::registry::REFERENCE_PATH.with(|on| on.set(true));
            let r = Game::replay(&store::parse_log(path, log).unwrap());
            crate::engine::registry::REFERENCE_PATH.with(|on| on.set(false));
            r
        };
        let mut tried = 0;
        for k in 5..entries.len() {
            // Orders whose last action is given twice: the repeat is refused after the
            // actions before it changed the state.
            let Some(orders) = entries[k].draft.body.orders.as_ref() else { continue };
            let Some(actions) = orders.get("actions").and_then(|a| a.as_sequence()).filter(|a| a.len() >= 2) else { continue };
            let mut doubled = actions.clone();
            doubled.push(actions.last().unwrap().clone());
            let mut draft = entries[k].draft.clone();
            let mut o = orders.clone();
            o.as_mapping_mut().unwrap().insert("actions".into(), yaml_serde::Value::Sequence(doubled));
            draft.body.orders = Some(o);
            let seat = draft.seat.clone();
            let key = crate::crypto::keys::SecretKey::from_seed(
                &seat,
                tagged_hash("umpire/bot-key/1", &[seat.as_bytes(), &seed.to_be_bytes()]).0,
            );
            let mut log = entries[..k].to_vec();
            log.push(draft.sign(&key));
            let bytes = store::join_log(&log);
            let Err((g_ref, e_ref)) = reference(&bytes) else { continue };
            assert!(matches!(e_ref, GameError::Orders { .. }), "entry {k}: {e_ref}");
            tried += 1;
            for pipeline in [Pipeline::TwoThreads, Pipeline::OneThread] {
                let replay = replay_log_with(path, &bytes, pipeline).unwrap();
                let (g, e) = replay.replayed.expect_err("refused");
                assert_eq!(e, e_ref, "entry {k} {pipeline:?}");
                assert_eq!(g.map(|g| digest(&g)), g_ref.as_ref().map(|g| digest(g)), "entry {k} {pipeline:?}");
            }
            // The same through `Game::replay`'s own straight replay.
            let (g, e) = Game::replay(&log).expect_err("refused");
            assert_eq!(e, e_ref, "entry {k}");
            assert_eq!(g.map(|g| digest(&g)), g_ref.as_ref().map(|g| digest(g)), "entry {k}");
            if tried == 5 {
                break;
            }
        }
        assert_eq!(tried, 5, "five entries refused halfway were tried");
    }

    #[test]
    fn a_log_that_does_not_parse_or_start_reports_the_same_read_whole_or_in_chunks() {
        // A game past its second chunk of entries (64 a chunk): a campaign runs long, where a
        // Marne game seldom passes 80 entries (one seed in several hundred).
        let bytes = bot_log("glorys-end/short-campaign", 1, None, 120);
        assert!(store::split_log(&bytes).len() > 80, "a long game");
        let mut parts: Vec<Vec<u8>> = store::split_log(&bytes).into_iter().map(<[u8]>::to_vec).collect();
        let at = parts.len() - 3;
        let dir = tempfile::tempdir().expect("tempdir");
        let report = |parts: &[Vec<u8>], name: &str| {
            let log = dir.path().join(name);
            let text: Vec<u8> = parts.iter().flat_map(|p| b"---\n".iter().chain(p)).copied().collect();
            std::fs::write(&log, text).expect("writes");
            // Lean (read from the file in chunks) and holding everything (read whole).
            let (a, _) = audit_log(&log, &[], false, Pipeline::TwoThreads, StepEvents::Drop);
            let (b, _) = audit_log(&log, &[], false, Pipeline::OneThread, StepEvents::Keep);
            assert!(!a.ok, "{name}");
            assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap(), "{name}: the reports differ");
            a
        };
        // An entry past the first chunks that is not YAML: the parse error names it.
        let kept = parts[at].clone();
        parts[at] = b"seq: [unclosed\n".to_vec();
        let a = report(&parts, "unparsable.log");
        assert!(a.problems.iter().any(|p| p.contains(&format!("entry {at}"))), "{:?}", a.problems);
        // A genesis that makes no game: the rest is parsed for its errors, then the genesis's.
        parts[at] = kept;
        let g = String::from_utf8(parts[0].clone()).unwrap().replacen("ruleset:", "rulesett:", 1);
        parts[0] = g.into_bytes();
        report(&parts, "genesis.log");
    }

    #[test]
    fn a_broken_log_fails_the_same_on_the_fast_path() {
        let bytes = bot_log("glorys-end/marne", 3, None, 200);
        // Entry 20's signature spoiled (one base64 digit): it parses, and fails verify_strict.
        let parts = store::split_log(&bytes);
        let mut entries = store::parse_log(std::path::Path::new("log"), &bytes).expect("parses");
        assert!(parts.len() > 25);
        let mut spoiled = entries[20].bytes.clone();
        let at = spoiled.windows(crate::log::entry::SIG_PREFIX.len()).position(|w| w == crate::log::entry::SIG_PREFIX.as_bytes()).unwrap()
            + crate::log::entry::SIG_PREFIX.len();
        spoiled[at] = if spoiled[at] == b'A' { b'B' } else { b'A' };
        entries[20] = crate::log::Entry::parse(&spoiled).expect("still parses");
        let bytes = store::join_log(&entries);
        let path = std::path::Path::new("log");
        crate::engine::registry::REFERENCE_PATH.with(|on| on.set(true));
        let reference = Game::replay(&store::parse_log(path, &bytes).unwrap());
        crate::engine::registry::REFERENCE_PATH.with(|on| on.set(false));
        let (g_ref, e_ref) = reference.expect_err("refused");
        for pipeline in [Pipeline::TwoThreads, Pipeline::OneThread] {
            let replay = replay_log_with(path, &bytes, pipeline).unwrap();
            assert_eq!(replay.entries(), &entries[..], "{pipeline:?}: every entry of the log is handed back");
            let (g, e) = replay.replayed.expect_err("refused");
            assert_eq!(e, e_ref, "{pipeline:?}");
            assert_eq!(g.map(|g| digest(&g)), g_ref.as_ref().map(|g| digest(g)), "{pipeline:?}");
        }
        // The report alone (the lean replay gives up at the refusal and starts over holding
        // the entries) says what the full one says.
        let dir = tempfile::tempdir().expect("tempdir");
        let log = dir.path().join("game.log");
        std::fs::write(&log, &bytes).expect("writes");
        let (a, _) = audit_log(&log, &[], false, Pipeline::TwoThreads, StepEvents::Drop);
        let (b, _) = audit_log(&log, &[], false, Pipeline::OneThread, StepEvents::Keep);
        assert!(!a.ok && a.entries_checked == 20 && a.entries == entries.len(), "{:?}", a.problems);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap(), "the reports differ");
    }
}
