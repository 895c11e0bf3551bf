//! What `protocol_entries` does, in a module that `tests/fuzz_regressions.rs` also includes
//! (to replay kept inputs without the fuzz toolchain).

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use umpire::crypto::keys::SecretKey;
use umpire::engine::game::Game;
use umpire::log::Entry;
use umpire::log::entry::{SIG_PREFIX, SIGNED_PREFIX};
use umpire::log::protocol::{Agreement, Genesis, ProtocolState, compare};

/// A real protocol-2 log.
pub struct Base {
    pub bytes: Vec<Vec<u8>>,
    pub entries: Vec<Entry>,
    /// Seat → secret key.
    pub keys: BTreeMap<String, SecretKey>,
    /// Protocol state after entry i (the vectors: their ruleset is a test one, so no game).
    pub protocol: Vec<ProtocolState>,
    /// Game after entry i (bot games; empty for the vectors).
    pub game_after: Vec<Game>,
}

const VECTORS: &[u8] = include_bytes!("../../tests/vectors/game.log");

fn vectors() -> Base {
    let parts = umpire::log::store::split_log(VECTORS);
    let entries: Vec<Entry> = parts.iter().map(|p| Entry::parse(p).unwrap()).collect();
    let mut keys = BTreeMap::new();
    for (seat, name, b) in [("red", "alice", 1u8), ("blue", "bob", 2), ("green", "carol", 3)] {
        keys.insert(seat.to_string(), SecretKey::from_seed(name, [b; 32]));
    }
    let mut st = ProtocolState::from_genesis(&entries[0]).unwrap();
    let mut protocol = vec![st.clone()];
    for e in &entries[1..] {
        st.accept(e).unwrap();
        protocol.push(st.clone());
    }
    Base { bytes: entries.iter().map(|e| e.bytes.clone()).collect(), entries, keys, protocol, game_after: Vec::new() }
}

/// The first `n` entries of a bot game of the bundled scenario `name`.
fn bot_game(name: &str, n: u64) -> Base {
    let b = umpire::scenarios::find(name).unwrap();
    let seats = umpire::scenarios::seats(b);
    let (mut game, mut players) = umpire::engine::bot::start_game(b, &seats, 7, 64, "2026-01-01T00:00:00Z").unwrap();
    let mut clock = || "2026-01-01T00:00:00Z".to_string();
    let _ = umpire::engine::bot::play_out(&mut game, &mut players, 7, n, &mut clock, &mut |_, _| Ok(()));
    let entries = game.entries.clone();
    let mut keys = BTreeMap::new();
    for (seat, _) in &seats {
        keys.insert(seat.to_string(), players.key(seat).unwrap().clone());
    }
    let mut g = Game::from_genesis(&entries[0]).unwrap();
    let mut game_after = vec![g.clone()];
    for e in &entries[1..] {
        g.apply(e).unwrap();
        game_after.push(g.clone());
    }
    Base { bytes: entries.iter().map(|e| e.bytes.clone()).collect(), entries, keys, protocol: Vec::new(), game_after }
}

/// The vectors, then the start of a four-player First World War game and of a Glory's End
/// game (Marne), built once.
pub fn bases() -> &'static [Base] {
    static B: OnceLock<Vec<Base>> = OnceLock::new();
    B.get_or_init(|| vec![vectors(), bot_game("first-world-war/standard", 14), bot_game("glorys-end/marne", 12)])
}

/// Replace the signature line of `bytes` (or add one) with `key`'s signature of the rest.
pub fn resign(bytes: &[u8], key: &SecretKey) -> Vec<u8> {
    let body_end = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let sig_start = body_end.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0);
    let unsigned = if body_end[sig_start..].starts_with(b"sig: ") { &bytes[..sig_start] } else { bytes };
    let mut unsigned = unsigned.to_vec();
    if unsigned.last().is_some_and(|&b| b != b'\n') {
        unsigned.push(b'\n');
    }
    let mut msg = SIGNED_PREFIX.to_vec();
    msg.extend(&unsigned);
    let sig = key.sign(&msg).to_bytes();
    unsigned.extend(SIG_PREFIX.as_bytes());
    unsigned.extend(STANDARD.encode(sig).as_bytes());
    unsigned.push(b'\n');
    unsigned
}

/// Lines of `b`, each with its LF.
fn lines(b: &[u8]) -> Vec<&[u8]> {
    b.split_inclusive(|&c| c == b'\n').collect()
}

/// The seat an entry names (`seat: X`).
fn seat_of(b: &[u8]) -> Option<String> {
    lines(b).into_iter().find_map(|l| l.strip_prefix(b"seat: ")).map(|s| String::from_utf8_lossy(s).trim().trim_matches('\'').to_string())
}

/// Fields worth crossing between entries (top-level and body keys).
const FIELDS: [&[u8]; 16] = [
    b"game:",
    b"seq:",
    b"prev:",
    b"seat:",
    b"reveal:",
    b"dice_from:",
    b"time:",
    b"  kind:",
    b"  lead:",
    b"  sealed:",
    b"  agree:",
    b"  chain:",
    b"  orders:",
    b"  commit:",
    b"  open:",
    b"sig:",
];

/// An edit program over a log's entries.
pub struct Edits<'a> {
    pub entries: Vec<Vec<u8>>,
    pub pool: Vec<&'a [u8]>,
    pub keys: BTreeMap<&'a str, &'a SecretKey>,
    pub prog: &'a [u8],
    pub pos: usize,
}

impl Edits<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.prog.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn index(&mut self, len: usize) -> Option<usize> {
        let b = self.byte() as usize;
        (len > 0).then(|| b % len)
    }
    fn entry(&mut self) -> Option<usize> {
        self.index(self.entries.len())
    }

    pub fn run(&mut self) {
        // At most 16 edits: enough to cross, splice and re-sign; keeps every run short.
        let mut n = 0;
        while self.pos < self.prog.len() && n < 16 {
            n += 1;
            let op = self.byte() % 12;
            match op {
                0 => {
                    if let Some(k) = self.entry() {
                        self.entries.remove(k);
                    }
                }
                1 => {
                    if let (Some(k), Some(l)) = (self.entry(), self.entry()) {
                        self.entries.swap(k, l);
                    }
                }
                2 => {
                    let j = self.index(self.pool.len()).unwrap_or(0);
                    let k = self.byte() as usize % (self.entries.len() + 1);
                    self.entries.insert(k, self.pool[j].to_vec());
                }
                3 => {
                    let (k, hi, lo, x) = (self.entry(), self.byte(), self.byte(), self.byte());
                    if let Some(k) = k {
                        let e = &mut self.entries[k];
                        if !e.is_empty() {
                            let at = (usize::from(hi) << 8 | usize::from(lo)) % e.len();
                            e[at] ^= x.max(1);
                        }
                    }
                }
                4 => {
                    // Line i of entry k becomes line j of pool entry m.
                    let (k, i, m, j) = (self.entry(), self.byte(), self.index(self.pool.len()), self.byte());
                    if let (Some(k), Some(m)) = (k, m) {
                        let theirs = lines(self.pool[m]);
                        let mut mine: Vec<Vec<u8>> = lines(&self.entries[k]).into_iter().map(<[u8]>::to_vec).collect();
                        if !theirs.is_empty() && !mine.is_empty() {
                            let i = usize::from(i) % mine.len();
                            mine[i] = theirs[usize::from(j) % theirs.len()].to_vec();
                            self.entries[k] = mine.concat();
                        }
                    }
                }
                5 => {
                    // A field of entry k takes the value it has in pool entry m (or is
                    // dropped if m has none, or added if k has none).
                    let (k, f, m) = (self.entry(), self.byte(), self.index(self.pool.len()));
                    if let (Some(k), Some(m)) = (k, m) {
                        let field = FIELDS[usize::from(f) % FIELDS.len()];
                        let theirs = lines(self.pool[m]).into_iter().find(|l| l.starts_with(field)).map(<[u8]>::to_vec);
                        let mut mine: Vec<Vec<u8>> = lines(&self.entries[k]).into_iter().map(<[u8]>::to_vec).collect();
                        match (mine.iter().position(|l| l.starts_with(field)), theirs) {
                            (Some(i), Some(t)) => mine[i] = t,
                            (Some(i), None) => {
                                mine.remove(i);
                            }
                            (None, Some(t)) => {
                                let at = mine.len().saturating_sub(1);
                                mine.insert(at, t);
                            }
                            (None, None) => {}
                        }
                        self.entries[k] = mine.concat();
                    }
                }
                6 => {
                    // Insert a short line of the program's own bytes.
                    let (k, i, len) = (self.entry(), self.byte(), self.byte() % 48);
                    let start = self.pos.min(self.prog.len());
                    let end = (start + usize::from(len)).min(self.prog.len());
                    let mut text = self.prog[start..end].to_vec();
                    self.pos = end;
                    text.push(b'\n');
                    if let Some(k) = k {
                        let mut mine: Vec<Vec<u8>> = lines(&self.entries[k]).into_iter().map(<[u8]>::to_vec).collect();
                        let i = usize::from(i) % (mine.len() + 1);
                        mine.insert(i, text);
                        self.entries[k] = mine.concat();
                    }
                }
                7 => {
                    let (k, i) = (self.entry(), self.byte());
                    if let Some(k) = k {
                        let mut mine: Vec<&[u8]> = lines(&self.entries[k]);
                        if !mine.is_empty() {
                            let i = usize::from(i) % mine.len();
                            mine.remove(i);
                            self.entries[k] = mine.concat();
                        }
                    }
                }
                8 => {
                    // Re-sign with the key of the seat the entry names: a valid signature,
                    // so the protocol and rules checks are what must refuse it.
                    if let Some(k) = self.entry()
                        && let Some(key) = seat_of(&self.entries[k]).and_then(|s| self.keys.get(s.as_str()).copied())
                    {
                        self.entries[k] = resign(&self.entries[k], key);
                    }
                }
                9 => {
                    // Re-sign with some seat's key, whatever seat the entry names.
                    let (k, s) = (self.entry(), self.byte());
                    if let Some(k) = k {
                        let keys: Vec<&SecretKey> = self.keys.values().copied().collect();
                        let key = keys[usize::from(s) % keys.len()];
                        self.entries[k] = resign(&self.entries[k], key);
                    }
                }
                10 => {
                    let k = self.byte() as usize;
                    self.entries.truncate(k % (self.entries.len() + 1));
                }
                _ => {
                    if let Some(k) = self.entry() {
                        let crlf: Vec<u8> =
                            self.entries[k].iter().flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] }).collect();
                        self.entries[k] = crlf;
                    }
                }
            }
        }
    }
}

/// Decode the program and edit a copy of base `b`'s entries.
fn edited(all: &[Base], b: usize, prog: &[u8]) -> Vec<Vec<u8>> {
    let pool: Vec<&[u8]> = all.iter().flat_map(|x| x.bytes.iter().map(|v| v.as_slice())).collect();
    let keys: BTreeMap<&str, &SecretKey> = all.iter().rev().flat_map(|x| x.keys.iter().map(|(s, k)| (s.as_str(), k))).collect();
    let mut ed = Edits { entries: all[b].bytes.clone(), pool, keys, prog, pos: 0 };
    ed.run();
    ed.entries
}

/// Two entries that `compare` calls a fork: both must be proof (DESIGN §2.3).
fn check_fork(genesis: &Genesis, a: &[Entry], b: &[Entry], agreement: &Agreement) {
    let Agreement::Fork { seq, hash_a, hash_b, seat_a, seat_b, equivocation, .. } = agreement else { return };
    assert_ne!(hash_a, hash_b, "a fork of two equal entries");
    for (side, list, hash, seat) in [("a", a, hash_a, seat_a), ("b", b, hash_b, seat_b)] {
        let e = list.iter().find(|e| e.hash == *hash).unwrap_or_else(|| panic!("fork names an entry not in copy {side}"));
        assert_eq!(e.seq(), *seq);
        assert_eq!(e.seat(), seat.as_str());
        let game = if e.seq() == 0 { Some(e.hash) } else { e.draft.game };
        assert_eq!(game, Some(genesis.game_id), "a fork with an entry of another game (copy {side})");
        let s = genesis.seat(e.seat()).unwrap_or_else(|| panic!("a fork with an entry by no seat of the game (copy {side})"));
        assert!(
            e.verify_signature(&s.key),
            "a fork with an entry whose signature does not verify (copy {side}): a forged copy as evidence"
        );
    }
    assert_eq!(*equivocation, seat_a == seat_b);
}

/// `compare` both ways between a checked copy (`good`, entries accepted from `genesis`) and
/// any other parsed copy.
fn check_compare(genesis: &Genesis, good: &[Entry], other: &[Entry]) {
    let ag = compare(genesis, good, other);
    check_fork(genesis, good, other, &ag);
}

/// Parse each edited entry; an entry left as it is in one of the logs is taken parsed from
/// there (`Entry::parse` is a pure function of the bytes; a genesis is 20 KB of YAML).
fn parse_all(edited: &[Vec<u8>]) -> Vec<Option<Entry>> {
    static KNOWN: OnceLock<HashMap<Vec<u8>, Entry>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| bases().iter().flat_map(|b| b.entries.iter().map(|e| (e.bytes.clone(), e.clone()))).collect());
    edited.iter().map(|b| known.get(b).cloned().or_else(|| Entry::parse(b).ok())).collect()
}

/// The vectors: protocol checks only.
fn run_protocol(base: &Base, edited: &[Vec<u8>]) {
    let parsed = parse_all(edited);
    let others: Vec<Entry> = parsed.iter().flatten().cloned().collect();
    let honest = &base.entries;
    let genesis = &base.protocol[0].genesis;
    check_compare(genesis, honest, &others);
    let Some(Some(first)) = parsed.first() else { return };
    let Ok(mut st) = ProtocolState::from_genesis(first) else { return };
    let mut accepted = vec![first.clone()];
    let mut all = true;
    for e in &parsed[1..] {
        match e {
            Some(e) if st.accept(e).is_ok() => accepted.push(e.clone()),
            _ => {
                all = false;
                break;
            }
        }
    }
    check_compare(&st.genesis, &accepted, honest);
    check_compare(&st.genesis, &accepted, &others);
    if all && parsed.len() > 1 {
        // Accepted: again from its own bytes, split and parsed as a log.
        let bytes = umpire::log::store::join_log(&accepted);
        let again = umpire::log::store::parse_log(std::path::Path::new("log"), &bytes).expect("an accepted log re-parses");
        let mut st2 = ProtocolState::from_genesis(&again[0]).expect("an accepted genesis re-verifies");
        for e in &again[1..] {
            st2.accept(e).expect("an accepted entry re-verifies from its own bytes");
        }
        assert_eq!(st2.last_hash, st.last_hash);
    }
}

/// A bot game: the whole replay (protocol and rules). Games after each honest prefix are
/// kept, so only the entries from the first edited one on are replayed.
fn run_game(base: &Base, edited: &[Vec<u8>]) {
    let parsed = parse_all(edited);
    let others: Vec<Entry> = parsed.iter().flatten().cloned().collect();
    let honest = &base.entries;
    let genesis = base.game_after[0].genesis();
    check_compare(genesis, honest, &others);
    // The first entry that differs from the honest log.
    let same = edited.iter().zip(&base.bytes).take_while(|(a, b)| a == b).count();
    if same == edited.len() {
        return; // an honest prefix: verified when the fixture was built
    }
    let mut game = if same == 0 {
        let Some(Some(first)) = parsed.first() else { return };
        // Another log's genesis: its game is kept too (a setup parses the whole scenario).
        if let Some(g) = bases().iter().find(|x| x.game_after.first().is_some_and(|g| g.entries[0].bytes == first.bytes)) {
            g.game_after[0].clone()
        } else {
            let Ok(g) = Game::from_genesis(first) else { return };
            g
        }
    } else {
        base.game_after[same - 1].clone()
    };
    let mut all = true;
    for e in &parsed[same.max(1)..] {
        match e {
            Some(e) if game.apply(e).is_ok() => {}
            _ => {
                all = false;
                break;
            }
        }
    }
    let accepted = game.entries.clone();
    check_compare(game.genesis(), &accepted, honest);
    check_compare(game.genesis(), &accepted, &others);
    if all {
        // An edited log that replays: the real verify path must accept it from its bytes
        // (this also runs the omniscient pass when the game is over).
        let bytes = umpire::log::store::join_log(&accepted);
        if game.ending.is_none() || game.commitments.is_empty() || !game.unopened().is_empty() {
            assert!(umpire::cli::verify_bytes(&bytes), "an accepted log does not verify from its own bytes");
        }
    }
}

/// Run one input: decode the program, edit, verify, check the properties (panics if one fails).
pub fn check(data: &[u8]) {
    let all = bases();
    let Some((&which, prog)) = data.split_first() else { return };
    let b = which as usize % all.len();
    let edited = edited(all, b, prog);
    if all[b].game_after.is_empty() {
        run_protocol(&all[b], &edited);
    } else {
        run_game(&all[b], &edited);
    }
}
