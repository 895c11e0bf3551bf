//! Protocol checks of a chain of entries (DESIGN §2.2–§2.5): signatures, game id, seq/prev,
//! seats and keys fixed at genesis, joins, chain anchors and reveals, `dice_from`.
//! Nothing here knows any game's rules; `engine::game` adds those.
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use std::collections::BTreeMap;

use ed25519_dalek::VerifyingKey;

use super::entry::{Entry, Kind, RulesetRef, ScenarioRef};
use crate::crypto::Hash;

/// Default chain length `L`.
pub const DEFAULT_CHAIN_LENGTH: u64 = 65_536;
/// Longest chain accepted from a genesis (computing a reveal costs `L` hashes).
pub const MAX_CHAIN_LENGTH: u64 = 1 << 20;

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
    #[error("the first entry must be a genesis with seq 0 and no game/prev/reveal/dice_from")]
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

/// What one accepted entry means at the protocol level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub seq: u64,
    pub hash: Hash,
    pub seat: String,
    pub kind: Kind,
    /// The reveal this entry published (verified), if any.
    pub reveal: Option<Hash>,
    /// True once every seat has joined, from the entry after the last join on.
    pub in_play: bool,
}

/// Incremental protocol checker: feed entries in order.
#[derive(Clone, Debug)]
pub struct ProtocolState {
    pub genesis: Genesis,
    /// Per seat; absent until the seat's first entry (genesis or join).
    pub chains: BTreeMap<String, SeatChain>,
    /// Hash of the last accepted entry.
    pub last_hash: Hash,
    /// Seq of the last accepted entry.
    pub last_seq: u64,
    /// True when every seat has joined.
    pub all_joined: bool,
}

impl ProtocolState {
    /// Start from entry 0: checks it is a well-formed genesis and that its signature
    /// verifies with the key of its own seat as declared inside it.
    pub fn from_genesis(entry: &Entry) -> Result<ProtocolState, ProtocolError> {
        todo!()
    }
    /// Check and accept the next entry. On error the state is unchanged.
    ///
    /// Checks: game, seq, prev, seat known, signature (verify_strict with the genesis key),
    /// join rules (only before play, once per seat, carries `chain`, no reveal), reveal
    /// (absent in a seat's first entry; else `H(reveal) == last`; exhausted chains refused),
    /// `dice_from` (absent before play; present after the last join, naming a seat of
    /// another side), body shape for its kind.
    pub fn accept(&mut self, entry: &Entry) -> Result<Step, ProtocolError> {
        todo!()
    }
    /// Seats that have not joined yet.
    pub fn unjoined(&self) -> Vec<String> {
        todo!()
    }
}

/// How two copies of one game's log relate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// One is a prefix of the other (or they are equal).
    Prefix,
    /// Different signed entries with the same game and seq.
    Fork {
        seq: u64,
        hash_a: Hash,
        hash_b: Hash,
        seat_a: String,
        seat_b: String,
        /// Both signed by the same seat.
        equivocation: bool,
    },
    /// Not the same game.
    DifferentGames,
}

/// Compare two copies of a log.
pub fn compare(a: &[Entry], b: &[Entry]) -> Agreement {
    todo!()
}
