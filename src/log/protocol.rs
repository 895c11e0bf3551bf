//! Protocol checks of a chain of entries (DESIGN §2.2–§2.5): signatures, game id, seq/prev,
//! seats and keys fixed at genesis, joins, chain anchors and reveals, `dice_from`.
//! Nothing here knows any game's rules; `engine::game` adds those.
//!
//! Rules enforced here (DESIGN §2.4–2.5, with the choices the design leaves open):
//! - Entry 0 is a genesis: seq 0, no game/prev/reveal/dice_from; its `seat` is one of its
//!   `seats` and its signature verifies with that seat's key; seat names unique, seat and
//!   side names 1..=[`MAX_NAME_CHARS`] characters without control characters; keys valid and not weak (several seats may share a key); at least two
//!   sides; `chain_length` in 1..=[`MAX_CHAIN_LENGTH`]; `scenario.sha256` is the SHA-256 of
//!   `scenario.text`; its `chain` is the proposer's anchor.
//! - Before play (some seat has not joined) only `join` entries are accepted, one per
//!   unjoined seat, carrying `chain`, with no `reveal` and no `dice_from`.
//! - In play, every entry carries `reveal` with `H(reveal)` equal to the seat's last chain
//!   value (refused once the seat has revealed `chain_length` values) and `dice_from`
//!   naming a seat of another side. No second genesis, no join.
//! - [`ProtocolState::accept`] leaves the state unchanged on error.

use std::collections::{BTreeMap, BTreeSet};

use ed25519_dalek::VerifyingKey;

use super::entry::{Entry, Kind, RulesetRef, ScenarioRef};
use crate::crypto::chain::reveal_follows;
use crate::crypto::keys::parse_public_text;
use crate::crypto::{Hash, sha256};

/// Default chain length `L`.
pub const DEFAULT_CHAIN_LENGTH: u64 = 65_536;
/// Longest chain accepted from a genesis (computing a reveal costs `L` hashes).
pub const MAX_CHAIN_LENGTH: u64 = 1 << 20;
/// Longest seat or side name, in characters. Names hold no control characters (no NUL:
/// the seal-for key separates the two seat names with a zero byte).
pub const MAX_NAME_CHARS: usize = 64;

/// Largest `body.note`, in bytes (free text for the opponent; a letter, not a book).
pub const MAX_NOTE_BYTES: usize = 16 * 1024;

/// Most YAML values (scalars, sequences, mappings, counted recursively) in an entry's
/// `body.orders`: bounds the work of validating one entry whatever the ruleset (a full
/// Glory's End turn is a few hundred).
pub const MAX_ORDER_VALUES: usize = 20_000;

/// Most items in each of `body.commit`, `body.open` and `body.sealed_for`.
pub const MAX_BODY_LIST: usize = 1_000;

/// The engine's bounds on a body, beyond its shape (`Body::check_shape`).
fn check_limits(b: &super::entry::Body) -> Result<(), String> {
    if let Some(n) = &b.note
        && n.len() > MAX_NOTE_BYTES
    {
        return Err(format!("body.note is {} bytes, over the {MAX_NOTE_BYTES}-byte limit; shorten it", n.len()));
    }
    if let Some(o) = &b.orders {
        let n = count_values(o, MAX_ORDER_VALUES + 1);
        if n > MAX_ORDER_VALUES {
            return Err(format!("body.orders holds more than {MAX_ORDER_VALUES} values; split the orders over several entries"));
        }
    }
    for (name, len) in [
        ("commit", b.commit.as_ref().map(Vec::len)),
        ("open", b.open.as_ref().map(Vec::len)),
        ("sealed_for", b.sealed_for.as_ref().map(Vec::len)),
    ] {
        if let Some(len) = len
            && len > MAX_BODY_LIST
        {
            return Err(format!("body.{name} has {len} items, over the limit of {MAX_BODY_LIST}"));
        }
    }
    Ok(())
}

/// Values in `v` (itself included), counting no further than `stop`.
fn count_values(v: &yaml_serde::Value, stop: usize) -> usize {
    let mut n = 0;
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        n += 1;
        if n >= stop {
            return n;
        }
        match v {
            yaml_serde::Value::Sequence(s) => todo.extend(s.iter()),
            yaml_serde::Value::Mapping(m) => {
                for (k, x) in m {
                    todo.push(k);
                    todo.push(x);
                }
            }
            yaml_serde::Value::Tagged(t) => todo.push(&t.value),
            _ => {}
        }
    }
    n
}

/// A protocol violation, located at an entry.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("entry {seq}: {problem}")]
pub struct ProtocolError {
    pub seq: u64,
    pub problem: Problem,
}

/// What is wrong.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum Problem {
    #[error("not a valid genesis (entry 0): {0}")]
    BadGenesis(String),
    #[error("entry belongs to game {found}, not {expected}")]
    WrongGame { expected: Hash, found: Hash },
    #[error("seq is {found}, expected {expected}")]
    WrongSeq { expected: u64, found: u64 },
    #[error("prev is {found}, but entry {seq_before} has hash {expected}")]
    WrongPrev { expected: Hash, found: Hash, seq_before: u64 },
    #[error("seat {0:?} is not a seat of this game")]
    UnknownSeat(String),
    #[error("signature does not verify with the key of seat {0:?} fixed at genesis")]
    BadSignature(String),
    #[error("seat {seat:?}: {why}")]
    BadReveal { seat: String, why: String },
    #[error("seat {0:?} has used its whole hash chain and cannot sign more entries")]
    ChainExhausted(String),
    #[error("seat {0:?} has already joined")]
    AlreadyJoined(String),
    #[error("{0}")]
    BadJoin(String),
    #[error("play has not started: seats still to join: {0:?}")]
    NotStarted(Vec<String>),
    #[error("dice_from: {0}")]
    BadDiceFrom(String),
    #[error("body: {0}")]
    BadBody(String),
}

/// A seat as fixed at genesis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub seat: String,
    pub side: String,
    pub key: VerifyingKey,
}

/// The facts fixed by entry 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Genesis {
    /// Hash of entry 0.
    pub game_id: Hash,
    pub ruleset: RulesetRef,
    pub engine: String,
    pub scenario: ScenarioRef,
    pub options: Option<yaml_serde::Value>,
    pub seats: Vec<Seat>,
    pub nonce: Hash,
    pub chain_length: u64,
    /// The seat that signed entry 0.
    pub proposer: String,
}

impl Genesis {
    /// The seat declaration named `seat`.
    pub fn seat(&self, seat: &str) -> Option<&Seat> {
        self.seats.iter().find(|s| s.seat == seat)
    }
    /// The side of a seat.
    pub fn side_of(&self, seat: &str) -> Option<&str> {
        self.seat(seat).map(|s| s.side.as_str())
    }
}

/// A seat's chain progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChain {
    /// `c_0`, from the seat's first entry.
    pub anchor: Hash,
    /// The latest value published (`c_n`).
    pub last: Hash,
    /// `n`: how many reveals so far.
    pub revealed: u64,
}

/// An `orders`/`ack` entry whose dice are not fixed yet: it waits for the next
/// `orders`/`ack` entry of its `dice_from` seat (DESIGN §2.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsettled {
    pub seq: u64,
    pub seat: String,
    pub reveal: Hash,
    pub dice_from: String,
}

/// The latest `orders`/`ack` entry of a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revealed {
    pub seq: u64,
    pub hash: Hash,
    pub seat: String,
    pub reveal: Hash,
}

/// What one accepted entry means at the protocol level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub seq: u64,
    pub hash: Hash,
    pub seat: String,
    pub kind: Kind,
    /// The reveal this entry published (verified): `orders` and `ack` entries only.
    pub reveal: Option<Hash>,
    /// True once every seat has joined, from the entry after the last join on.
    pub in_play: bool,
    /// The entries whose dice this entry fixed (it is their F), with their seeds.
    pub settles: Vec<(u64, Hash)>,
}

/// Incremental protocol checker: feed entries in order.
#[derive(Clone, Debug)]
pub struct ProtocolState {
    pub genesis: Genesis,
    /// Per seat; absent until the seat's first entry (genesis or join).
    pub chains: BTreeMap<String, SeatChain>,
    /// Hash of the last accepted entry, or, right after the joins, the joins digest (the
    /// `prev` of the first entry of play, DESIGN §2.4).
    pub last_hash: Hash,
    /// Seq of the last accepted entry (the highest join's seq before play).
    pub last_seq: u64,
    /// True when every seat has joined.
    pub all_joined: bool,
    /// Join hashes by seq (DESIGN §2.4: joins may come in any order before play).
    pub joins: BTreeMap<u64, Hash>,
    /// `orders`/`ack` entries whose revealer has not answered yet.
    pub unsettled: Vec<Unsettled>,
    /// The latest `orders`/`ack` entry of each side.
    pub latest: BTreeMap<String, Revealed>,
    /// Entries whose signatures were already checked (`verify_strict`, the genesis key of
    /// their seat) by [`Presigned::check`], e.g. on another core ahead of the replay.
    /// Shared, not copied: the game snapshots this state before every entry.
    pub presigned: Option<std::sync::Arc<Presigned>>,
}

/// Hashes of entries whose signature verified with the key their seat has in one game's
/// genesis. Sound to skip the check for: an entry hash is SHA-256 of every byte of the entry,
/// so an entry with a listed hash is byte-for-byte the checked entry (same seat, same signed
/// message, same signature), and the key is fixed by the genesis named by `game_id`.
#[derive(Clone, Debug)]
pub struct Presigned {
    /// The game whose genesis keys were used.
    pub game_id: Hash,
    /// Entries (by hash) whose signature verified.
    pub ok: std::collections::HashSet<Hash>,
}

impl Presigned {
    /// Check the signatures of `entries` (entry 0 must be the genesis of `genesis`; the
    /// others may be any subset of the game, in any order) against the genesis keys.
    /// Entries that fail, or name an unknown seat, are simply not listed: the replay then
    /// checks them itself and reports the problem with the entry's seq.
    pub fn check(genesis: &Genesis, entries: &[Entry]) -> Presigned {
        let mut ok = std::collections::HashSet::with_capacity(entries.len());
        for e in entries {
            if let Some(seat) = genesis.seat(&e.draft.seat)
                && e.verify_signature(&seat.key)
            {
                ok.insert(e.hash);
            }
        }
        Presigned { game_id: genesis.game_id, ok }
    }
    /// Was this entry's signature checked for this game?
    fn covers(&self, game_id: &Hash, entry: &Entry) -> bool {
        self.game_id == *game_id && self.ok.contains(&entry.hash)
    }
}

/// `SHA-256("umpire/joins/2\0" ‖ hash(join 1) ‖ … ‖ hash(join K))`: the `prev` of the first
/// entry after the joins (DESIGN §2.4).
pub fn joins_digest(joins: &[Hash]) -> Hash {
    let parts: Vec<&[u8]> = joins.iter().map(|h| h.as_bytes().as_slice()).collect();
    crate::crypto::tagged_hash("umpire/joins/2", &parts)
}

impl Genesis {
    /// The seq of `seat`'s join: its position among the non-proposing seats, from 1
    /// (DESIGN §2.4). `None` for the proposer or an unknown seat.
    pub fn join_seq(&self, seat: &str) -> Option<u64> {
        self.seats.iter().filter(|s| s.seat != self.proposer).position(|s| s.seat == seat).map(|i| i as u64 + 1)
    }
}

impl ProtocolState {
    /// Start from entry 0: checks it is a well-formed genesis and that its signature
    /// verifies with the key of its own seat as declared inside it.
    pub fn from_genesis(entry: &Entry) -> Result<ProtocolState, ProtocolError> {
        let err = |problem| ProtocolError { seq: entry.seq(), problem };
        let bad = |why: &str| err(Problem::BadGenesis(why.to_string()));
        let d = &entry.draft;
        if d.seq != 0 {
            return Err(bad("seq is not 0"));
        }
        if d.game.is_some() || d.prev.is_some() || d.reveal.is_some() || d.dice_from.is_some() {
            return Err(bad("entry 0 carries game, prev, reveal or dice_from"));
        }
        if d.body.kind != Kind::Genesis {
            return Err(bad("entry 0 is not of kind genesis"));
        }
        d.body.check_shape().map_err(|e| err(Problem::BadBody(e)))?;
        check_limits(&d.body).map_err(|e| err(Problem::BadBody(e)))?;
        let b = &d.body;
        let (Some(ruleset), Some(engine), Some(scenario), Some(decls), Some(nonce), Some(chain_length), Some(chain)) =
            (&b.ruleset, &b.engine, &b.scenario, &b.seats, b.nonce, b.chain_length, b.chain)
        else {
            return Err(bad("missing genesis fields"));
        };
        if sha256(scenario.text.as_bytes()) != scenario.sha256 {
            return Err(bad("scenario.sha256 is not the SHA-256 of scenario.text"));
        }
        if !(1..=MAX_CHAIN_LENGTH).contains(&chain_length) {
            return Err(err(Problem::BadGenesis(format!("chain_length {chain_length} is not in 1..={MAX_CHAIN_LENGTH}"))));
        }
        let mut seats = Vec::with_capacity(decls.len());
        let mut names = BTreeSet::new();
        for decl in decls {
            for name in [&decl.seat, &decl.side] {
                if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
                    return Err(err(Problem::BadGenesis(format!(
                        "seat and side names are 1 to {MAX_NAME_CHARS} characters without control characters: {name:?}"
                    ))));
                }
            }
            if !names.insert(decl.seat.as_str()) {
                return Err(err(Problem::BadGenesis(format!("seat {:?} is declared twice", decl.seat))));
            }
            let key = parse_public_text(&decl.key).map_err(|e| err(Problem::BadGenesis(format!("seat {:?}: {e}", decl.seat))))?;
            seats.push(Seat { seat: decl.seat.clone(), side: decl.side.clone(), key });
        }
        let sides: BTreeSet<&str> = seats.iter().map(|s| s.side.as_str()).collect();
        if sides.len() != 2 {
            return Err(err(Problem::BadGenesis(format!(
                "a game has exactly two sides (DESIGN §2.4); this genesis declares {}",
                sides.len()
            ))));
        }
        let Some(own) = seats.iter().find(|s| s.seat == d.seat) else {
            return Err(err(Problem::UnknownSeat(d.seat.clone())));
        };
        if !entry.verify_signature(&own.key) {
            return Err(err(Problem::BadSignature(d.seat.clone())));
        }
        let genesis = Genesis {
            game_id: entry.hash,
            ruleset: ruleset.clone(),
            engine: engine.clone(),
            scenario: scenario.clone(),
            options: b.options.clone(),
            seats,
            nonce,
            chain_length,
            proposer: d.seat.clone(),
        };
        let mut chains = BTreeMap::new();
        chains.insert(d.seat.clone(), SeatChain { anchor: chain, last: chain, revealed: 0 });
        Ok(ProtocolState {
            genesis,
            chains,
            last_hash: entry.hash,
            last_seq: 0,
            all_joined: false,
            joins: BTreeMap::new(),
            unsettled: Vec::new(),
            latest: BTreeMap::new(),
            presigned: None,
        })
    }

    /// Number of joins the game needs (every seat but the proposer).
    pub fn joins_needed(&self) -> u64 {
        self.genesis.seats.len() as u64 - 1
    }

    /// Check and accept the next entry. On error the state is unchanged.
    ///
    /// Checks: game, seq, prev, seat known, signature (verify_strict with the genesis key),
    /// join rules (only before play, once per seat, at its own seq with `prev` = game id,
    /// carries `chain`, no reveal), reveal (only in `orders`/`ack`: `H(reveal) == last`;
    /// exhausted chains refused; absent elsewhere), `dice_from` (exactly in `orders`/`ack`
    /// in play, naming a seat of the other side; an entry of a side whose dice another
    /// entry awaits comes from the seat that entry named), body shape for its kind.
    pub fn accept(&mut self, entry: &Entry) -> Result<Step, ProtocolError> {
        let d = &entry.draft;
        let err = |problem| ProtocolError { seq: d.seq, problem };
        match d.game {
            Some(g) if g == self.genesis.game_id => {}
            Some(g) => return Err(err(Problem::WrongGame { expected: self.genesis.game_id, found: g })),
            None => return Err(err(Problem::BadBody("entry carries no `game`".to_string()))),
        }
        let Some(seat) = self.genesis.seat(&d.seat) else {
            return Err(err(Problem::UnknownSeat(d.seat.clone())));
        };
        let kind = d.body.kind;
        if !self.all_joined {
            // Before play: joins only, each at its own seq, in any order (DESIGN §2.4).
            if kind != Kind::Join {
                return Err(err(Problem::NotStarted(self.unjoined())));
            }
            if self.chains.contains_key(&d.seat) {
                return Err(err(Problem::AlreadyJoined(d.seat.clone())));
            }
            let want = self.genesis.join_seq(&d.seat).unwrap_or(0);
            if d.seq != want {
                return Err(err(Problem::WrongSeq { expected: want, found: d.seq }));
            }
            if d.prev != Some(self.genesis.game_id) {
                return Err(err(Problem::BadJoin(format!("a join's prev is the game id {} (DESIGN §2.4)", self.genesis.game_id))));
            }
        } else {
            let expected_seq = self.last_seq + 1;
            if d.seq != expected_seq {
                return Err(err(Problem::WrongSeq { expected: expected_seq, found: d.seq }));
            }
            match d.prev {
                Some(p) if p == self.last_hash => {}
                Some(p) => {
                    return Err(err(Problem::WrongPrev { expected: self.last_hash, found: p, seq_before: self.last_seq }));
                }
                None => return Err(err(Problem::BadBody("entry carries no `prev`".to_string()))),
            }
        }
        let checked = self.presigned.as_ref().is_some_and(|p| p.covers(&self.genesis.game_id, entry));
        if !checked && !entry.verify_signature(&seat.key) {
            return Err(err(Problem::BadSignature(d.seat.clone())));
        }
        // An entry that shed its parsed orders (`Entry::shed_orders`) did so once a game had
        // applied it, so its body passed both checks, which read the body alone; its bytes,
        // covered by its hash, are unchanged since.
        if !entry.orders_shed {
            d.body.check_shape().map_err(|e| err(Problem::BadBody(e)))?;
            check_limits(&d.body).map_err(|e| err(Problem::BadBody(e)))?;
        }
        if kind == Kind::Genesis {
            return Err(err(Problem::BadBody("a second genesis".to_string())));
        }
        if !self.all_joined {
            if d.reveal.is_some() {
                return Err(err(Problem::BadJoin(format!("the join of seat {:?} is its first entry and carries no reveal", d.seat))));
            }
            if d.dice_from.is_some() {
                return Err(err(Problem::BadDiceFrom("no dice before play starts (a join has no dice_from)".to_string())));
            }
            let Some(anchor) = d.body.chain else {
                return Err(err(Problem::BadJoin("a join carries the seat's `chain` anchor".to_string())));
            };
            // Accept: mutate only now.
            self.chains.insert(d.seat.clone(), SeatChain { anchor, last: anchor, revealed: 0 });
            self.joins.insert(d.seq, entry.hash);
            self.all_joined = self.joins.len() as u64 == self.joins_needed();
            self.last_seq = self.last_seq.max(d.seq);
            self.last_hash = entry.hash;
            if self.all_joined {
                self.last_seq = self.joins_needed();
                self.last_hash = joins_digest(&self.joins.values().copied().collect::<Vec<_>>());
            }
            return Ok(Step {
                seq: d.seq,
                hash: entry.hash,
                seat: d.seat.clone(),
                kind,
                reveal: None,
                in_play: false,
                settles: Vec::new(),
            });
        }
        // In play.
        if kind == Kind::Join {
            return Err(err(Problem::BadJoin("play has started; no more joins".to_string())));
        }
        let carries_reveal = kind.reveals();
        if !carries_reveal {
            // DESIGN §2.5: only orders and ack reveal; the rest may cross in the mail.
            if d.reveal.is_some() {
                return Err(err(Problem::BadReveal {
                    seat: d.seat.clone(),
                    why: format!("a `{}` entry carries no reveal (only orders and ack do)", super::entry::kind_name(kind)),
                }));
            }
            if d.dice_from.is_some() {
                return Err(err(Problem::BadDiceFrom(format!(
                    "a `{}` entry has no dice and names no dice_from",
                    super::entry::kind_name(kind)
                ))));
            }
            self.last_hash = entry.hash;
            self.last_seq = d.seq;
            return Ok(Step { seq: d.seq, hash: entry.hash, seat: d.seat.clone(), kind, reveal: None, in_play: true, settles: Vec::new() });
        }
        let Some(chain) = self.chains.get(&d.seat) else {
            // Unreachable once all have joined; kept for safety.
            return Err(err(Problem::NotStarted(self.unjoined())));
        };
        if chain.revealed >= self.genesis.chain_length {
            return Err(err(Problem::ChainExhausted(d.seat.clone())));
        }
        let Some(reveal) = d.reveal else {
            return Err(err(Problem::BadReveal {
                seat: d.seat.clone(),
                why: format!("missing reveal (value {} of the chain is due)", chain.revealed + 1),
            }));
        };
        if !reveal_follows(&reveal, &chain.last) {
            return Err(err(Problem::BadReveal {
                seat: d.seat.clone(),
                why: format!("H(reveal) is not the seat's previous chain value (reveal {} of the chain)", chain.revealed + 1),
            }));
        }
        let Some(from) = &d.dice_from else {
            return Err(err(Problem::BadDiceFrom("missing: every orders/ack entry in play names a seat of the other side".to_string())));
        };
        match self.genesis.side_of(from) {
            None => return Err(err(Problem::BadDiceFrom(format!("{from:?} is not a seat of this game")))),
            Some(side) if side == seat.side => {
                return Err(err(Problem::BadDiceFrom(format!(
                    "{from:?} is on the author's own side {side:?}; name a seat of the other side"
                ))));
            }
            Some(_) => {}
        }
        // This entry is F for every unsettled entry that named this seat. Deviation from
        // DESIGN §2.5 (docs/engine.md): another seat of this side may send first; the engine
        // refuses that only while a random action waits for these dice, which is when the
        // order matters (the rules of a game with several seats per side cannot always name,
        // when E is signed, which partner moves first).
        let mut settles = Vec::new();
        for u in self.unsettled.iter().filter(|u| u.dice_from == d.seat) {
            settles.push((u.seq, crate::dice::dice_seed(&u.reveal, &reveal)));
        }
        let side = seat.side.clone();
        let me = d.seat.clone();
        self.unsettled.retain(|u| u.dice_from != me);
        self.unsettled.push(Unsettled { seq: d.seq, seat: d.seat.clone(), reveal, dice_from: from.clone() });
        self.latest.insert(side, Revealed { seq: d.seq, hash: entry.hash, seat: d.seat.clone(), reveal });
        let chain = self.chains.get_mut(&d.seat).expect("checked above");
        chain.last = reveal;
        chain.revealed += 1;
        self.last_hash = entry.hash;
        self.last_seq = d.seq;
        Ok(Step { seq: d.seq, hash: entry.hash, seat: d.seat.clone(), kind, reveal: Some(reveal), in_play: true, settles })
    }
    /// Seats that have not joined yet.
    pub fn unjoined(&self) -> Vec<String> {
        self.genesis.seats.iter().filter(|s| !self.chains.contains_key(&s.seat)).map(|s| s.seat.clone()).collect()
    }
    /// The latest `orders`/`ack` entry of any side other than `side`.
    pub fn latest_of_other_side(&self, side: &str) -> Option<&Revealed> {
        self.latest.iter().filter(|(s, _)| s.as_str() != side).map(|(_, r)| r).max_by_key(|r| r.seq)
    }
}

/// How two copies of one game's log relate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// One is a prefix of the other (or they are equal).
    Prefix,
    /// Two different entries with the same game and seq, each validly signed by a seat of
    /// the game's genesis (DESIGN §2.3): proof that both were signed.
    Fork {
        seq: u64,
        hash_a: Hash,
        hash_b: Hash,
        seat_a: String,
        seat_b: String,
        /// Both signed by the same seat.
        equivocation: bool,
        /// One of them carries no reveal (an out-of-turn entry): honest crossed mail.
        crossed: bool,
    },
    /// Not the same game.
    DifferentGames,
    /// An entry of the other copy does not verify with the genesis key of the seat it
    /// names (or names no seat of the game): forged or corrupted. It proves nothing about
    /// anyone.
    Unverified { seq: u64, hash: Hash, why: String },
}

/// Compare the other copy `b` of a game with `a`, a log already checked from its genesis
/// (`genesis`). Entries are matched by `seq`. Every entry of `b` that differs from `a` is
/// checked first: it must name this game and verify (`verify_strict`) with the genesis key
/// of its seat; one that does not is reported as [`Agreement::Unverified`] (or
/// [`Agreement::DifferentGames`] when it names another game), never as a fork.
pub fn compare(genesis: &Genesis, a: &[Entry], b: &[Entry]) -> Agreement {
    let by_seq: BTreeMap<u64, &Entry> = a.iter().map(|e| (e.seq(), e)).collect();
    for eb in b {
        let game = if eb.seq() == 0 { Some(eb.hash) } else { eb.draft.game };
        let mine = by_seq.get(&eb.seq());
        if mine.is_some_and(|m| m.hash == eb.hash) {
            continue;
        }
        if game != Some(genesis.game_id) {
            return Agreement::DifferentGames;
        }
        let why = match genesis.seat(eb.seat()) {
            None => Some(format!("it names seat {:?}, which this game does not have", eb.seat())),
            Some(s) if !eb.verify_signature(&s.key) => {
                Some(format!("its signature does not verify with the genesis key of seat {:?}", eb.seat()))
            }
            Some(_) => None,
        };
        if let Some(why) = why {
            return Agreement::Unverified { seq: eb.seq(), hash: eb.hash, why };
        }
        let Some(ea) = mine else { continue };
        let no_reveal = |e: &Entry| !e.kind().reveals();
        return Agreement::Fork {
            seq: ea.seq(),
            hash_a: ea.hash,
            hash_b: eb.hash,
            seat_a: ea.seat().to_string(),
            seat_b: eb.seat().to_string(),
            equivocation: ea.seat() == eb.seat(),
            crossed: ea.seat() != eb.seat() && (no_reveal(ea) || no_reveal(eb)),
        };
    }
    Agreement::Prefix
}

#[cfg(test)]
mod tests;
