//! What the subcommands share: errors and exit codes, the clock, reading inputs with limits,
//! loading a game, and signing + appending an entry.

use std::path::{Path, PathBuf};

use super::term::say;
use crate::crypto::Hash;
use crate::crypto::chain::{chain_seed, chain_value};
use crate::crypto::keys::{KeyError, SecretKey};
use crate::engine::game::{Game, GameError};
use crate::log::entry::{Body, Entry, EntryError, MAX_ENTRY_BYTES};
use crate::log::store::{self, LockedLog, StoreError};

/// A command failure. `Usage` exits 2, everything else 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line is wrong (exit 2).
    #[error("{0}")]
    Usage(String),
    /// A key problem.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// A log file problem.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The log or an entry breaks the protocol or the rules.
    #[error(transparent)]
    Game(#[from] GameError),
    /// Anything else, with context.
    #[error("{0}")]
    Other(String),
}

impl CliError {
    /// 2 for usage, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }
}

/// Shorthand for an error with a message.
pub fn fail<T>(msg: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Other(msg.into()))
}

/// Now, RFC 3339 UTC to the second. `UMPIRE_FIXED_TIME` pins it (tests, reproducible demos).
pub fn now() -> String {
    if let Ok(t) = std::env::var("UMPIRE_FIXED_TIME") {
        return t;
    }
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Read a file of at most `limit` bytes.
pub fn read_limited(path: &Path, limit: usize) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin().take(limit as u64 + 1).read_to_end(&mut buf).map_err(|e| CliError::Other(format!("standard input: {e}")))?;
        if buf.len() > limit {
            return fail(format!("standard input is over the {limit}-byte limit"));
        }
        return Ok(buf);
    }
    let f = store::open_regular(path).map_err(|e| CliError::Other(format!("{}: {e}", path.display())))?;
    let mut buf = Vec::new();
    f.take(limit as u64 + 1).read_to_end(&mut buf).map_err(|e| CliError::Other(format!("{}: {e}", path.display())))?;
    if buf.len() > limit {
        return fail(format!("{}: over the {limit}-byte limit", path.display()));
    }
    Ok(buf)
}

/// Largest orders file accepted.
pub const MAX_ORDERS_BYTES: usize = 1024 * 1024;

/// Read a log and replay it, from the cache next to it when that matches the log (as `apply`
/// and `status` do: `crate::cache` re-hashes every cached entry against the file, and
/// anything amiss replays from genesis, so the game is the same either way). A log that
/// fails to replay is an error naming the entry.
pub fn load_game(path: &Path) -> Result<Game, CliError> {
    let bytes = store::read_log_bytes(path)?;
    match crate::cache::parse_with_cache(path, &bytes)? {
        crate::cache::Parsed::Cached(r) => Ok(r.game),
        crate::cache::Parsed::Fresh(entries) => replay_entries(&entries, path),
    }
}

/// Replay parsed entries into a game.
pub fn replay_entries(entries: &[Entry], path: &Path) -> Result<Game, CliError> {
    Game::replay(entries).map_err(|(_, e)| {
        CliError::Other(format!("{}: {e}\n  (run `umpire verify {}` for the full audit)", path.display(), path.display()))
    })
}

/// Read entry files: a single entry, or several in log form (each after a `---` line).
pub fn read_entry_file(path: &Path) -> Result<Vec<Entry>, CliError> {
    let bytes = read_limited(path, store::MAX_LOG_BYTES as usize)?;
    parse_entries(&bytes).map_err(|(i, e)| CliError::Other(format!("{}: entry {} in the file: {e}", path.display(), i + 1)))
}

/// Parse one entry or a `---`-separated run of entries.
pub fn parse_entries(bytes: &[u8]) -> Result<Vec<Entry>, (usize, EntryError)> {
    let text_starts_with_sep = bytes.starts_with(b"---\n") || bytes.starts_with(b"---\r\n");
    if text_starts_with_sep {
        store::split_log(bytes).into_iter().enumerate().map(|(i, b)| Entry::parse(b).map_err(|e| (i, e))).collect()
    } else {
        if bytes.len() > MAX_ENTRY_BYTES {
            return Err((0, EntryError::TooLarge { size: bytes.len(), limit: MAX_ENTRY_BYTES }));
        }
        Entry::parse(bytes).map(|e| vec![e]).map_err(|e| (0, e))
    }
}

/// Load a secret key and check it is the key of `seat` in this game.
pub fn key_for_seat(game: &Game, seat: &str, key_path: &Path) -> Result<SecretKey, CliError> {
    let key = SecretKey::read_file(key_path)?;
    let Some(decl) = game.genesis().seat(seat) else {
        let seats: Vec<_> = game.genesis().seats.iter().map(|s| s.seat.as_str()).collect();
        return Err(CliError::Usage(format!("there is no seat {seat:?} in this game (seats: {})", seats.join(", "))));
    };
    if decl.key != key.public().key {
        return fail(format!(
            "{} is not the key of seat {seat:?} (that seat's key id is {}, this key's is {})",
            key_path.display(),
            crate::crypto::keys::key_id(&decl.key),
            key.public().id()
        ));
    }
    Ok(key)
}

/// The chain value `seat` reveals in its next entry, if it already has an anchor.
pub fn next_reveal(game: &Game, seat: &str, key: &SecretKey) -> Result<Option<Hash>, CliError> {
    let Some(ch) = game.protocol.chains.get(seat) else { return Ok(None) };
    let g = game.genesis();
    let n = ch.revealed + 1;
    if n > g.chain_length {
        return fail(format!("seat {seat} has used all {} values of its hash chain and cannot sign more entries", g.chain_length));
    }
    let s = chain_seed(&key.seed(), g.nonce.as_bytes(), seat);
    let v = chain_value(&s, g.chain_length, n).ok_or_else(|| CliError::Other("chain value out of range".into()))?;
    Ok(Some(v))
}

/// Check a `--dice-from` the player gave: a seat of the other side. The engine names the
/// seat the rules imply (DESIGN §2.5); the flag only matters where they cannot say.
pub fn check_dice_from(game: &Game, seat: &str, asked: Option<&str>) -> Result<(), CliError> {
    let opp = game.opponents(seat);
    match asked {
        Some(a) if !opp.iter().any(|o| o == a) => {
            Err(CliError::Usage(format!("--dice-from {a}: not a seat of the other side (choose one of: {})", opp.join(", "))))
        }
        _ => Ok(()),
    }
}

/// Build, sign and check an entry for `seat` on top of `game` (nothing is written).
pub fn sign_next(game: &Game, seat: &str, key: &SecretKey, body: Body, dice_from: Option<&str>) -> Result<Entry, CliError> {
    check_dice_from(game, seat, dice_from)?;
    let reveal = if body.kind.reveals() { next_reveal(game, seat, key)? } else { None };
    // `try_sign` re-parses the bytes, and the entry is applied to a copy of the game: what
    // the opponent's tool reads is what we checked, and we never write an entry it refuses.
    let (entry, _) = game.sign_for(seat, key, body, reveal, dice_from, now()).map_err(|e| match e {
        crate::engine::game::SignError::Game(g) => CliError::from(g),
        other => CliError::Other(other.to_string()),
    })?;
    Ok(entry)
}

/// Sign `body` as its author does (DESIGN §2.6): on the seat's own view (seat mode with its
/// key), orders concealed and hidden values committed, opened and sealed
/// ([`crate::engine::author::complete_body`]), then checked on that view, and on the public
/// game when something is hidden (what the other tools will see).
pub fn sign_as_author(game: &Game, seat: &str, key: &SecretKey, body: Body, dice_from: Option<&str>) -> Result<Entry, CliError> {
    let view = game.seat_view(seat, key.clone())?;
    let reveal = if body.kind.reveals() { next_reveal(game, seat, key)? } else { None };
    let body = crate::engine::author::complete_body(&view, seat, key, reveal.as_ref(), body)
        .map_err(|e| CliError::Other(format!("entry {} ({seat}): {e}", game.next_seq())))?;
    let entry = sign_next(&view, seat, key, body, dice_from)?;
    if !game.commitments.is_empty() || entry.draft.body.commit.is_some() {
        game.clone().apply(&entry)?;
    }
    Ok(entry)
}

/// Lock a log and replay it: the lock is held until the returned [`LockedLog`] is dropped,
/// so nothing can change the log between reading it and appending to it.
pub fn lock_game(path: &Path) -> Result<(LockedLog, Game), CliError> {
    let (mut locked, entries) = LockedLog::open(path)?;
    if let Some(p) = crash_point_from_env() {
        locked.set_crash_point(Some(p));
    }
    let game = replay_entries(&entries, path)?;
    Ok((locked, game))
}

/// Test hook: `UMPIRE_TEST_CRASH=after-temp-write|after-rename` aborts mid-append.
fn crash_point_from_env() -> Option<store::CrashPoint> {
    match std::env::var("UMPIRE_TEST_CRASH").ok()?.as_str() {
        "after-temp-write" => Some(store::CrashPoint::AfterTempWrite),
        "after-rename" => Some(store::CrashPoint::AfterRename),
        _ => None,
    }
}

/// Default file for sending entry `seq` of `log`: `LOG.SEQ.yaml`.
pub fn default_entry_path(log: &Path, seq: u64) -> PathBuf {
    let mut s = log.as_os_str().to_owned();
    s.push(format!(".{seq}.yaml"));
    PathBuf::from(s)
}

/// The file an entry will be written to, claimed before the log changes, so that a path that
/// cannot take the entry (it holds something else, its directory is missing, it is not
/// writable) is refused while the log is still as it was: the log and the entry file never
/// disagree. Dropped without [`EntryOut::write`], it removes the empty file it created.
pub struct EntryOut {
    path: PathBuf,
    /// The empty file created for the entry; `None` when the path already holds exactly
    /// this entry (writing again is a no-op), or once written.
    file: Option<std::fs::File>,
}

impl EntryOut {
    /// Claim `path` for `entry`: create it empty (never replacing a file), or accept it if it
    /// already holds exactly this entry.
    pub fn claim(path: &Path, entry: &Entry) -> Result<EntryOut, CliError> {
        match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(file) => Ok(EntryOut { path: path.to_path_buf(), file: Some(file) }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let same = store::open_regular(path)
                    .ok()
                    .and_then(|f| {
                        use std::io::Read as _;
                        let mut buf = Vec::new();
                        f.take(entry.bytes.len() as u64 + 1).read_to_end(&mut buf).ok().map(|_| buf)
                    })
                    .is_some_and(|b| b == entry.bytes);
                if same {
                    return Ok(EntryOut { path: path.to_path_buf(), file: None });
                }
                fail(format!("{} exists with other content; choose another --out (nothing was signed or appended)", path.display()))
            }
            Err(e) => fail(format!("{}: {e} (nothing was signed or appended; choose another --out)", path.display())),
        }
    }
    /// Write the entry into the claimed file.
    pub fn write(mut self, entry: &Entry) -> Result<(), CliError> {
        use std::io::Write as _;
        if let Some(mut f) = self.file.take() {
            f.write_all(&entry.bytes).and_then(|()| f.sync_all()).map_err(|e| {
                CliError::Other(format!(
                    "{}: {e} (the entry is already in the log, after its last `---` line: send that text)",
                    self.path.display()
                ))
            })?;
        }
        Ok(())
    }
}

impl Drop for EntryOut {
    fn drop(&mut self) {
        // Claimed but never written: the log did not change, so the empty file goes too.
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Print events as indented lines.
pub fn print_events(events: &[crate::engine::Event]) {
    for e in events {
        match &e.rule {
            Some(r) => say!("    {} [{r}]", e.text),
            None => say!("    {}", e.text),
        }
    }
}

/// Sign `body` for `seat`, append it to the log and write the entry file. Returns the entry.
pub fn sign_append_write(
    locked: &mut LockedLog,
    game: &Game,
    seat: &str,
    key: &SecretKey,
    body: Body,
    dice_from: Option<&str>,
    out: Option<&Path>,
) -> Result<Entry, CliError> {
    let log = locked.path().to_path_buf();
    let log = log.as_path();
    let entry = sign_as_author(game, seat, key, body, dice_from)?;
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| default_entry_path(log, entry.seq()));
    // Claim the entry file first: if it cannot be written, the log is left as it was.
    let claimed = EntryOut::claim(&out, &entry)?;
    if game.in_play() {
        locked.append(std::slice::from_ref(&entry))?;
    } else {
        // A join goes at its seat's seq (DESIGN §2.4), which may come before joins already
        // here: the log is written whole, in seq order.
        let mut all = game.entries.clone();
        let at = all.iter().position(|e| e.seq() > entry.seq()).unwrap_or(all.len());
        all.insert(at, entry.clone());
        locked.replace(&all)?;
    }
    claimed.write(&entry)?;
    say!("signed entry {} ({:?}) as {seat}: {}", entry.seq(), entry.kind(), entry.hash.short(16));
    say!("appended to {}; send {} to the other players", log.display(), out.display());
    say!(
        "  by email: umpire mail {} {} --to THEIR@ADDRESS   (settings: ~/.config/umpire/mail.yaml; see docs/mail.md)",
        log.display(),
        entry.seq()
    );
    Ok(entry)
}
