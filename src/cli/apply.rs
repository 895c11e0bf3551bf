//! `umpire apply`: take entries received from other players.

use std::path::{Path, PathBuf};

use super::common::{self, CliError, fail};
use super::term::{one_line, say, say_err};
use crate::engine::game::Game;
use crate::log::entry::Entry;
use crate::log::protocol::Agreement;
use crate::log::store;

/// Arguments of `umpire apply`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each input may be an entry file, entries in log form, an email message (.eml, with the entry\nattached or pasted in the text), an mbox mailbox, or `-` for a message piped from a mail\nclient; the kind is judged by content. Entries are applied in seq order.\nEntries already in the log are skipped, so applying the same file twice is harmless.\nA different entry with a seq already in the log is a fork: both hashes are printed as proof."
)]
pub struct ApplyArgs {
    /// The game log.
    pub log: PathBuf,
    /// What was received: entry files, logs, email messages, mbox files, or `-` (standard input).
    #[arg(required = true)]
    pub entries: Vec<PathBuf>,
    /// Then, if you owe dice and have nothing to decide, answer with an ack (needs --as, --key).
    #[arg(long, requires_all = ["seat", "key"])]
    pub ack: bool,
    /// Your seat (for --ack, and to preview dice you owe).
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// Your secret key (for --ack, and to preview dice you owe).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
}

/// `umpire apply`.
pub fn run(a: ApplyArgs) -> Result<i32, CliError> {
    // The lock is held from reading the log to appending: concurrent applies serialise.
    // The cache next to the log (`crate::cache`) spares the replay from genesis when it
    // matches the log's first entries byte for byte; otherwise it is ignored.
    let (mut locked, parsed) = store::LockedLog::open_with(&a.log, |bytes, _| crate::cache::parse_with_cache(&a.log, bytes))?;
    if let Some(p) = crash_point_from_env() {
        locked.set_crash_point(Some(p));
    }
    let (mut game, from_cache) = match parsed {
        crate::cache::Parsed::Cached(r) => (r.game, Some(r.cached)),
        crate::cache::Parsed::Fresh(entries) => (common::replay_entries(&entries, &a.log)?, None),
    };
    let mut received = Vec::new();
    for path in &a.entries {
        received.extend(read_input(path, &game)?);
    }
    // Messages and mailboxes come in any order: apply by seq (stable, so entry files keep
    // their order among equals and a fork is still reported against the first copy).
    received.sort_by_key(|(_, e)| e.seq());
    let mut new = Vec::new();
    let mut rewrite = !game.in_play();
    for (origin, entry) in received {
        let seq = entry.seq();
        if let Some(mine) = game.entry(seq) {
            if mine.hash == entry.hash {
                say!("{origin}: entry {seq} is already in the log; skipped");
                continue;
            }
            // Two entries at one seq: proof of something only if both verify (DESIGN §2.3).
            match crate::log::protocol::compare(game.genesis(), &game.entries, std::slice::from_ref(&entry)) {
                Agreement::DifferentGames => return fail(format!("{origin}: entry {seq} is FOREIGN: it belongs to another game")),
                Agreement::Unverified { why, .. } => {
                    return fail(format!("{origin}: entry {seq} is FORGED OR CORRUPTED ({why}); it proves nothing and was not applied"));
                }
                Agreement::Fork { crossed: true, .. } if gives_way(&game, mine, &entry) && seq + 1 == game.next_seq() => {
                    // Honest crossed mail: our out-of-turn entry gives way to theirs.
                    // The log is written whole once theirs is applied (`rewrite`).
                    let ours = mine.clone();
                    let mut entries = game.entries.clone();
                    entries.pop();
                    game = common::replay_entries(&entries, &a.log)?;
                    rewrite = true;
                    say!(
                        "{origin}: entry {seq} crossed in the mail with your {} ({}); yours gives way (DESIGN §2.3): it was not \
                         applied by the others, sign it again if you still want it",
                        crate::log::entry::kind_name(ours.kind()),
                        ours.hash.short(16)
                    );
                }
                Agreement::Fork { crossed: true, .. } => {
                    say!(
                        "{origin}: entry {seq} by {} crossed in the mail with {} by {}, which stands; theirs gives way (DESIGN §2.3)",
                        entry.seat(),
                        crate::log::entry::kind_name(mine.kind()),
                        mine.seat()
                    );
                    continue;
                }
                Agreement::Fork { equivocation, .. } => {
                    return fail(format!(
                        "{origin}: FORK at entry {seq}: the log has {} (by {}), the file has {} (by {}); both signatures verify{}",
                        mine.hash,
                        mine.seat(),
                        entry.hash,
                        entry.seat(),
                        if equivocation { " — an EQUIVOCATION: the same seat signed two different entries" } else { "" }
                    ));
                }
                // `compare` only answers Prefix for equal entries, skipped above.
                Agreement::Prefix => continue,
            }
        }
        if game.in_play() && seq > game.next_seq() {
            let have = game.next_seq();
            return fail(format!(
                "{origin}: entry {seq} comes too early: the log ends at entry {}; apply entries {have}..{} first",
                have - 1,
                seq - 1
            ));
        }
        let step = game.apply(&entry).map_err(|e| CliError::Other(format!("{origin}: {e}")))?.clone();
        say!("entry {seq} by {} ({:?}) {}", one_line(&step.seat), step.kind, step.hash.short(16));
        if let Some(n) = &step.note {
            say!("    note: {}", one_line(n));
        }
        common::print_events(&step.events);
        if let Some(p) = &step.pending {
            say!("    awaiting the dice: {p}");
        }
        new.push(entry);
    }
    if !new.is_empty() {
        if rewrite {
            // Joins come in any order (DESIGN §2.4) and a crossed entry may have given way:
            // the log is written whole, in seq order.
            locked.replace(&game.entries)?;
        } else {
            locked.append(&new)?;
        }
        say!("appended {} entr{} to {}", new.len(), if new.len() == 1 { "y" } else { "ies" }, a.log.display());
    }
    // Still under the lock, so caches are written in the order of the logs they describe:
    // after a replay from genesis or a rewrite (whose reordered prefix no longer matches the
    // cache), or once the cache lags `cache::SLACK` entries behind (see there).
    let stale = from_cache.is_none_or(|cached| game.entries.len() >= cached + crate::cache::SLACK);
    if (rewrite && !new.is_empty()) || stale {
        crate::cache::write(&a.log, &mut game);
    }
    if let Some(o) = game.outcome() {
        say!("GAME OVER: {}", crate::engine::game::describe_outcome(&o));
        // The process ends here: freeing a long game's every entry is the OS's job, not ours.
        std::mem::forget(game);
        return Ok(0);
    }
    for (seat, what) in game.waiting_for() {
        say!("waiting for {seat}: {what}");
    }
    if let (Some(seat), Some(key)) = (&a.seat, &a.key) {
        super::status::preview_owed(&game, seat, key)?;
        if a.ack {
            let k = common::key_for_seat(&game, seat, key)?;
            let reveal = common::next_reveal(&game, seat, &k)?;
            let hidden = !game.commitments.is_empty() || !game.draws.is_empty();
            let view = if hidden { Some(game.seat_view(seat, k.clone())?) } else { None };
            // The same judgement as the bot's and the robot's (`engine::auto`).
            match crate::engine::auto::automatic_reply(view.as_ref().unwrap_or(&game), seat, reveal.as_ref(), None) {
                Some(auto) => {
                    common::sign_append_write(&mut locked, &game, seat, &k, auto.body(), None, None)?;
                }
                None if game.pending.as_ref().is_some_and(|p| &p.dice_from == seat) => {
                    say!("not acking: you have a decision to make after the roll (see above); write orders instead");
                }
                None => {}
            }
        }
    }
    std::mem::forget(game);
    Ok(0)
}

/// Between two crossed entries at one seq, does `mine` give way to `theirs`? The one
/// without a reveal gives way; between two without, the later seat in the genesis list.
fn gives_way(game: &Game, mine: &Entry, theirs: &Entry) -> bool {
    let no_reveal = |e: &Entry| !e.kind().reveals();
    match (no_reveal(mine), no_reveal(theirs)) {
        (true, false) => true,
        (false, _) => false,
        (true, true) => {
            let pos = |s: &str| game.genesis().seats.iter().position(|x| x.seat == s).unwrap_or(usize::MAX);
            pos(mine.seat()) > pos(theirs.seat())
        }
    }
}

/// The entries of one input, each with where it came from. Entry files and logs are read as
/// before; messages, mailboxes and text are searched (see [`crate::mail`]).
fn read_input(path: &Path, game: &Game) -> Result<Vec<(String, Entry)>, CliError> {
    let name = if path == Path::new("-") { "standard input".to_string() } else { path.display().to_string() };
    let bytes = common::read_limited(path, store::MAX_LOG_BYTES as usize)?;
    let found = crate::mail::entries_in_input(&bytes, &name).map_err(|e| CliError::Other(e.to_string()))?;
    let Some(found) = found else {
        let entries =
            common::parse_entries(&bytes).map_err(|(i, e)| CliError::Other(format!("{name}: entry {} in the file: {e}", i + 1)))?;
        return Ok(entries.into_iter().map(|e| (name.clone(), e)).collect());
    };
    for p in &found.problems {
        say_err!("umpire: warning: {p}");
    }
    let mut out = Vec::new();
    for f in found.entries {
        // A mailbox may hold several games: take this game's entries, say what was left.
        let of_this_game = match f.entry.draft.game {
            Some(g) => g == game.id(),
            None => f.entry.hash == game.id(),
        };
        if !of_this_game {
            say!("{}: entry {} belongs to another game; skipped", f.origin, f.entry.seq());
            continue;
        }
        out.push((f.origin, f.entry));
    }
    if out.is_empty() {
        return fail(format!("{name}: no entry of this game (game {}) in it", game.id().short(16)));
    }
    Ok(out)
}

/// Test hook, as for the other writing commands: `UMPIRE_TEST_CRASH=after-temp-write|after-rename`
/// aborts mid-append.
fn crash_point_from_env() -> Option<store::CrashPoint> {
    match std::env::var("UMPIRE_TEST_CRASH").ok()?.as_str() {
        "after-temp-write" => Some(store::CrashPoint::AfterTempWrite),
        "after-rename" => Some(store::CrashPoint::AfterRename),
        _ => None,
    }
}
