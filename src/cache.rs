//! A cache of the replayed game next to its log (`game.log.cache`), so that `umpire apply`
//! and `umpire status` do not parse and replay a long log from genesis every time.
//!
//! **What it holds.** The public-mode [`Game`] after some head entry: the protocol progress
//! (chains, last hash and seq), the rules state, pending dice, ending, draw offer,
//! commitments, amendments, the step records without their events, and every entry up to the
//! head as parsed without its orders (header, body, signature, hash; not the bytes, which come
//! from the log; see [`write`] for what is left out and why). A version tag names the cache
//! format and the umpire version: rules change between versions, so a cache from another
//! build is ignored.
//!
//! **When it is used.** Only if the log's first `n` entries are byte-for-byte those the cache
//! was made from: the log is split, and the SHA-256 of each of its first `n` entries must be
//! the hash the cache recorded for that seq, the last one being the head hash. Checking the
//! head hash alone would not do: it commits to the whole prefix through the `prev` links only
//! for entries whose links were checked, and an edited older entry in the file would leave
//! the head unchanged. Re-hashing every entry is cheap (a megabyte of SHA-256 is a few ms),
//! and it is what makes the cached entries stand for the file's bytes. Entries after the
//! head (appended by something that did not update the cache) are parsed and applied as
//! usual. Anything wrong — no file, unreadable, another version, another log, a shorter log,
//! an entry that does not apply on top — and the cache is ignored silently and the log is
//! replayed from genesis.
//!
//! **What it is not.** `umpire verify` never reads it: an audit replays from genesis. A
//! cache only saves work on the machine that wrote it; a player who edits it fools only
//! their own tool, and the entries it then signs are still checked by every other tool.
//!
//! **Writing.** A temporary file in the same directory, renamed over the cache: a reader
//! sees the old cache or the new one. It is not fsynced: a cache lost or torn by a crash is
//! simply not used (it no longer parses, or no longer matches the log).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::crypto::{Hash, sha256};
use crate::engine::amend::{AmendmentRecord, OpenAmendment};
use crate::engine::game::{CommitRecord, Ending, Game, PendingDice, StepRecord};
use crate::engine::registry::AnyState;
use crate::log::entry::{Body, Draft, Entry};
use crate::log::protocol::SeatChain;
use crate::log::store::{self, StoreError};

/// The cache format and the build it belongs to.
pub const VERSION: &str = concat!("umpire-cache/5 umpire ", env!("CARGO_PKG_VERSION"));

/// Largest cache file read (a cache is a few times its log's size at most).
const MAX_CACHE_BYTES: u64 = 4 * store::MAX_LOG_BYTES;

/// The cache file next to `log`: `<log>.cache`.
pub fn path_for(log: &Path) -> PathBuf {
    let mut s = log.as_os_str().to_owned();
    s.push(".cache");
    PathBuf::from(s)
}

#[derive(Deserialize)]
struct CachedEntry {
    game: Option<Hash>,
    seq: u64,
    prev: Option<Hash>,
    seat: String,
    reveal: Option<Hash>,
    dice_from: Option<String>,
    time: String,
    body: Body,
    /// The entry's orders were left out of `body` ([`Entry::shed_orders`]): they are read
    /// again from its bytes when asked.
    shed: bool,
    sig: String,
    hash: Hash,
}

/// Rules states by ruleset (a ruleset without an entry here is simply not cached).
#[derive(Deserialize)]
enum CachedState {
    GlorysEnd(crate::rules::glorys_end::State),
}

#[derive(Deserialize)]
struct CacheFile {
    version: String,
    head_seq: u64,
    head_hash: Hash,
    entries: Vec<CachedEntry>,
    chains: Vec<(String, SeatChainOut)>,
    last_hash: Hash,
    last_seq: u64,
    all_joined: bool,
    /// Protocol 2's dice bookkeeping: entries whose dice wait for a reveal, and the latest
    /// orders/ack of each side (leading rolls). Without them a restored game refused the
    /// very entry that reveals the dice it owes.
    unsettled: Vec<UnsettledOut>,
    latest: Vec<(String, RevealedOut)>,
    state: CachedState,
    pending: Option<PendingDice>,
    ending: Option<Ending>,
    draw_offer: Option<(u64, String, Hash)>,
    commitments: Vec<((String, String), CommitRecord)>,
    steps: Vec<StepRecord>,
    amendment: Option<OpenAmendment>,
    amendments: Vec<AmendmentRecord>,
}

#[derive(Serialize, Deserialize)]
struct UnsettledOut {
    seq: u64,
    seat: String,
    reveal: Hash,
    dice_from: String,
}

#[derive(Serialize, Deserialize)]
struct RevealedOut {
    seq: u64,
    hash: Hash,
    seat: String,
    reveal: Hash,
}

#[derive(Serialize, Deserialize)]
struct SeatChainOut {
    anchor: Hash,
    last: Hash,
    revealed: u64,
}

/// [`CacheFile`] as written: borrowed from the game, field for field, so that writing a
/// cache copies nothing (issue 20: it cloned every entry's body and every step first).
#[derive(Serialize)]
struct CacheFileOut<'a> {
    version: &'a str,
    head_seq: u64,
    head_hash: Hash,
    entries: Vec<CachedEntryOut<'a>>,
    chains: Vec<(&'a str, SeatChainOut)>,
    last_hash: Hash,
    last_seq: u64,
    all_joined: bool,
    unsettled: Vec<UnsettledOut>,
    latest: Vec<(&'a str, RevealedOut)>,
    state: CachedStateOut<'a>,
    pending: &'a Option<PendingDice>,
    ending: &'a Option<Ending>,
    draw_offer: &'a Option<(u64, String, Hash)>,
    commitments: Vec<(&'a (String, String), &'a CommitRecord)>,
    steps: &'a [StepRecord],
    amendment: &'a Option<OpenAmendment>,
    amendments: &'a [AmendmentRecord],
}

/// [`CachedEntry`] as written.
#[derive(Serialize)]
struct CachedEntryOut<'a> {
    game: Option<Hash>,
    seq: u64,
    prev: Option<Hash>,
    seat: &'a str,
    reveal: Option<Hash>,
    dice_from: &'a Option<String>,
    time: &'a str,
    body: &'a Body,
    shed: bool,
    sig: String,
    hash: Hash,
}

/// [`CachedState`] as written.
#[derive(Serialize)]
enum CachedStateOut<'a> {
    GlorysEnd(&'a crate::rules::glorys_end::State),
}

fn snapshot(game: &Game) -> Option<CacheFileOut<'_>> {
    // Hidden-information progress (values learnt, private draws owed or settled unknown) is
    // not in the cache format: such a game is simply not cached, and replays from genesis.
    if game.knowledge.mode() != crate::engine::hidden::Mode::Public
        || !game.knowledge.values().is_empty()
        || !game.draws.is_empty()
        || !game.unsettled.is_empty()
    {
        return None;
    }
    #[allow(unreachable_patterns)]
    let state = match &game.state {
        AnyState::GlorysEnd(s) => CachedStateOut::GlorysEnd(s),
        _ => return None,
    };
    let head = game.entries.last()?;
    Some(CacheFileOut {
        version: VERSION,
        head_seq: head.seq(),
        head_hash: head.hash,
        entries: game
            .entries
            .iter()
            .map(|e| CachedEntryOut {
                game: e.draft.game,
                seq: e.draft.seq,
                prev: e.draft.prev,
                seat: &e.draft.seat,
                reveal: e.draft.reveal,
                dice_from: &e.draft.dice_from,
                time: &e.draft.time,
                body: &e.draft.body,
                shed: e.orders_shed,
                sig: hex::encode(e.sig),
                hash: e.hash,
            })
            .collect(),
        chains: game
            .protocol
            .chains
            .iter()
            .map(|(s, c)| (s.as_str(), SeatChainOut { anchor: c.anchor, last: c.last, revealed: c.revealed }))
            .collect(),
        last_hash: game.protocol.last_hash,
        last_seq: game.protocol.last_seq,
        all_joined: game.protocol.all_joined,
        unsettled: game
            .protocol
            .unsettled
            .iter()
            .map(|u| UnsettledOut { seq: u.seq, seat: u.seat.clone(), reveal: u.reveal, dice_from: u.dice_from.clone() })
            .collect(),
        latest: game
            .protocol
            .latest
            .iter()
            .map(|(side, r)| (side.as_str(), RevealedOut { seq: r.seq, hash: r.hash, seat: r.seat.clone(), reveal: r.reveal }))
            .collect(),
        state,
        pending: &game.pending,
        ending: &game.ending,
        draw_offer: &game.draw_offer,
        commitments: game.commitments.iter().collect(),
        steps: &game.steps,
        amendment: &game.amendment,
        amendments: &game.amendments,
    })
}

/// Write the cache for `game`, the game replayed from `log`. Best effort: a cache that
/// cannot be written is no error (the next command replays from genesis).
///
/// What the cache leaves out, it first takes out of `game` (so that writing copies nothing):
/// - every entry's parsed orders ([`Entry::shed_orders`]): only the entry being applied has
///   its orders read, and a later reader (a take-back's replay) parses them again from the
///   entry's bytes;
/// - every step's events, the sentences printed when the entry was applied: they were two
///   thirds of the cache and reading them back most of a cached `apply` (issue 20). Commands
///   print the events of the entries they apply, never those of a restored step; `replay`,
///   `mail` and `verify` replay from genesis.
pub fn write(log: &Path, game: &mut Game) {
    game.entries.iter_mut().for_each(Entry::shed_orders);
    game.steps.iter_mut().for_each(|s| s.events = Vec::new());
    let Some(file) = snapshot(game) else { return };
    let Ok(bytes) = serde_json::to_vec(&file) else { return };
    let target = path_for(log);
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, &bytes).and_then(|()| {
        // The cache tells as much as the log: give it the log's permissions.
        if let Ok(m) = std::fs::metadata(log) {
            std::fs::set_permissions(&tmp, m.permissions())?;
        }
        std::fs::rename(&tmp, &target)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The game after the cached head and the entries it covers, if the cache next to `log`
/// matches the first entries of `parts` (the log split into entries) byte for byte.
fn restore(log: &Path, parts: &[&[u8]]) -> Option<Game> {
    use std::io::Read as _;
    let f = std::fs::File::open(path_for(log)).ok()?;
    let mut buf = Vec::new();
    f.take(MAX_CACHE_BYTES + 1).read_to_end(&mut buf).ok()?;
    if buf.len() as u64 > MAX_CACHE_BYTES {
        return None;
    }
    let c: CacheFile = serde_json::from_slice(&buf).ok()?;
    let n = c.entries.len();
    if c.version != VERSION || n == 0 || n > parts.len() || c.head_seq + 1 != n as u64 || c.entries[n - 1].hash != c.head_hash {
        return None;
    }
    // Every cached entry must be the file's entry at that seq, byte for byte.
    let mut entries = Vec::with_capacity(parts.len());
    for (i, (ce, bytes)) in c.entries.into_iter().zip(parts).enumerate() {
        if ce.seq != i as u64 || sha256(bytes) != ce.hash {
            return None;
        }
        let sig: [u8; 64] = hex::decode(&ce.sig).ok()?.try_into().ok()?;
        let draft = Draft {
            game: ce.game,
            seq: ce.seq,
            prev: ce.prev,
            seat: ce.seat,
            reveal: ce.reveal,
            dice_from: ce.dice_from,
            time: ce.time,
            body: ce.body,
        };
        entries.push(Entry::from_parts(draft, sig, bytes.to_vec(), ce.hash, ce.shed));
    }
    // A fresh game from the genesis (so every field has its genesis value), then the
    // cached progress over it.
    let state = match c.state {
        CachedState::GlorysEnd(s) => AnyState::GlorysEnd(s),
    };
    let mut game = Game::from_genesis_and_state(&entries[0], state).ok()?;
    game.protocol.chains = c
        .chains
        .into_iter()
        .map(|(s, x)| (s, SeatChain { anchor: x.anchor, last: x.last, revealed: x.revealed }))
        .collect::<BTreeMap<_, _>>();
    game.protocol.last_hash = c.last_hash;
    game.protocol.last_seq = c.last_seq;
    game.protocol.all_joined = c.all_joined;
    game.protocol.unsettled = c
        .unsettled
        .into_iter()
        .map(|u| crate::log::protocol::Unsettled { seq: u.seq, seat: u.seat, reveal: u.reveal, dice_from: u.dice_from })
        .collect();
    game.protocol.latest = c
        .latest
        .into_iter()
        .map(|(side, r)| (side, crate::log::protocol::Revealed { seq: r.seq, hash: r.hash, seat: r.seat, reveal: r.reveal }))
        .collect();
    game.pending = c.pending;
    game.ending = c.ending;
    game.draw_offer = c.draw_offer;
    game.commitments = c.commitments.into_iter().collect();
    game.steps = c.steps;
    game.amendment = c.amendment;
    game.amendments = c.amendments;
    game.entries = entries;
    if game.protocol.last_hash != c.head_hash || game.steps.len() != game.entries.len() {
        return None;
    }
    Some(game)
}

/// Entries a cache may lag behind its log before `umpire apply` writes it again. Writing
/// the cache is a copy of the whole game (about as costly as reading it), so it is written
/// once per this many entries; the entries after its head are parsed and applied on every
/// read, a few hundred microseconds at most.
pub const SLACK: usize = 16;

/// A game restored from the cache and the log entries after it.
pub struct Restored {
    /// The game after every entry of the log.
    pub game: Game,
    /// How many of the log's entries the cache held (the rest were parsed and applied).
    pub cached: usize,
}

/// A log read with [`parse_with_cache`].
pub enum Parsed {
    /// The cache held: the game after every entry of the log (the entries are its own).
    Cached(Box<Restored>),
    /// The cache was of no use (absent, stale, or an entry after it does not apply): the
    /// log's entries, for the caller to replay from genesis.
    Fresh(Vec<Entry>),
}

/// Parse a log's bytes into its game, using the cache where it holds: the cached prefix is
/// restored, the rest parsed and applied. Otherwise the log's entries (parse errors as
/// [`store::parse_log`] reports them), for the caller to replay from genesis.
pub fn parse_with_cache(log: &Path, bytes: &[u8]) -> Result<Parsed, StoreError> {
    if bytes.is_empty() || !(bytes.starts_with(b"---\n") || bytes.starts_with(b"---\r\n")) {
        return Ok(Parsed::Fresh(store::parse_log(log, bytes)?));
    }
    let parts = store::split_log(bytes);
    let Some(mut game) = restore(log, &parts) else {
        return Ok(Parsed::Fresh(store::parse_log(log, bytes)?));
    };
    let cached = game.entries.len();
    // The entries from the first one that does not apply on: then the replay from genesis
    // gives the exact error.
    let mut refused: Option<Vec<Entry>> = None;
    for (i, b) in parts.iter().enumerate().skip(cached) {
        let e = Entry::parse(b).map_err(|source| StoreError::Entry { path: log.to_path_buf(), index: i, source })?;
        match &mut refused {
            Some(rest) => rest.push(e),
            None => {
                if game.apply(&e).is_err() {
                    refused = Some(vec![e]);
                }
            }
        }
    }
    Ok(match refused {
        None => Parsed::Cached(Box::new(Restored { game, cached })),
        Some(mut rest) => {
            // A refused entry leaves the game as it was: it holds every entry before.
            let mut all = std::mem::take(&mut game.entries);
            all.append(&mut rest);
            Parsed::Fresh(all)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bot;

    fn bot_game(seed: u64, budget: u64) -> Game {
        let marne = crate::scenarios::find("glorys-end/marne").unwrap();
        let seats = crate::scenarios::seats(marne);
        let (mut game, mut players) = bot::start_game(marne, &seats, seed, 4096, "2000-01-01T00:00:00Z").unwrap();
        let mut clock = || "2000-01-01T00:00:00Z".to_string();
        let mut keep = |_: &Entry, _: &Game| Ok(());
        let _ = bot::play_out(&mut game, &mut players, seed, budget, &mut clock, &mut keep);
        game
    }

    fn same(a: &Game, b: &Game) {
        assert_eq!(a.entries, b.entries);
        assert_eq!(a.state, b.state);
        assert_eq!(a.protocol.chains, b.protocol.chains);
        assert_eq!((&a.protocol.unsettled, &a.protocol.latest), (&b.protocol.unsettled, &b.protocol.latest));
        assert_eq!(
            (a.protocol.last_hash, a.protocol.last_seq, a.protocol.all_joined),
            (b.protocol.last_hash, b.protocol.last_seq, b.protocol.all_joined)
        );
        assert_eq!((&a.pending, &a.ending, &a.draw_offer), (&b.pending, &b.ending, &b.draw_offer));
        assert_eq!(a.commitments, b.commitments);
        // The events of a restored step are not cached (see `write`); the rest of it is.
        let wordless = |g: &Game| g.steps.iter().map(|s| StepRecord { events: Vec::new(), ..s.clone() }).collect::<Vec<_>>();
        assert_eq!(wordless(a), wordless(b));
    }

    /// The entries of a log the cache was of no use for.
    fn fresh(p: Parsed) -> Option<Vec<Entry>> {
        match p {
            Parsed::Fresh(entries) => Some(entries),
            Parsed::Cached(_) => None,
        }
    }

    #[test]
    fn a_cache_restores_the_replayed_game_and_a_stale_one_is_ignored() {
        let mut game = bot_game(3, 60);
        let n = game.entries.len();
        assert!(n > 30, "a game of some length ({n})");
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game.log");
        let head = 20;
        let mut prefix = Game::replay(&game.entries[..head]).unwrap();
        write(&log, &mut prefix);
        let bytes = store::join_log(&game.entries);

        // The cache at entry 19 plus the rest of the log gives the full replay.
        let Parsed::Cached(restored) = parse_with_cache(&log, &bytes).unwrap() else { panic!("the cache matches") };
        assert_eq!(restored.game.entries, game.entries);
        assert_eq!(restored.cached, head, "the cache held the first {head} entries, the rest were applied");
        same(&restored.game, &game);
        // The cache holds no orders: the restored entries read theirs again from their bytes,
        // and give what the entries parsed from the log give; a replay of the restored
        // entries (as a take-back makes) is the game itself.
        assert!(restored.game.entries[..head].iter().all(|e| e.draft.body.orders.is_none()));
        assert!(restored.game.entries[..head].iter().any(|e| e.orders_shed), "orders entries were shed");
        for (r, e) in restored.game.entries.iter().zip(&game.entries) {
            assert_eq!(r.orders(), e.orders(), "entry {}", e.seq());
        }
        same(&Game::replay(&restored.game.entries).unwrap(), &game);
        // The steps restored carry no events; those applied after the cache's head do.
        assert!(restored.game.steps[..head].iter().all(|s| s.events.is_empty()));
        assert_eq!(restored.game.steps[head..], game.steps[head..]);

        // A shorter log than the cache: ignored.
        let short = store::join_log(&game.entries[..head - 1]);
        assert!(fresh(parse_with_cache(&log, &short).unwrap()).is_some());
        // One byte changed in an entry before the head (not the head itself): ignored.
        let mut edited = bytes.clone();
        let at = store::join_log(&game.entries[..5]).len() + 40;
        edited[at] ^= 1;
        let parsed = parse_with_cache(&log, &edited);
        assert!(parsed.map(|p| fresh(p).is_some()).unwrap_or(true), "an edited prefix is never served from the cache");
        // Another version, garbage, a torn file: ignored.
        let text = std::fs::read_to_string(path_for(&log)).unwrap();
        std::fs::write(path_for(&log), text.replace(VERSION, "umpire-cache/0")).unwrap();
        assert_eq!(fresh(parse_with_cache(&log, &bytes).unwrap()).as_ref(), Some(&game.entries));
        std::fs::write(path_for(&log), &text[..text.len() / 2]).unwrap();
        assert_eq!(fresh(parse_with_cache(&log, &bytes).unwrap()).as_ref(), Some(&game.entries));
        // No cache at all.
        std::fs::remove_file(path_for(&log)).unwrap();
        assert_eq!(fresh(parse_with_cache(&log, &bytes).unwrap()).as_ref(), Some(&game.entries));
        // A cache of the whole game round-trips.
        write(&log, &mut game);
        let Parsed::Cached(whole) = parse_with_cache(&log, &bytes).unwrap() else { panic!("the whole game's cache matches") };
        same(&whole.game, &game);
    }
}
