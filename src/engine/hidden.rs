//! Hidden information (DESIGN §2.6): what the engine tells a ruleset about commitments and
//! openings ([`HiddenActs`]), what an author's tool adds to its orders ([`Concealed`]), and
//! what a replay knows beyond the public log ([`Knowledge`]).
//!
//! Three ways of knowing (see `docs/engine.md`, "Hidden information"):
//! - **public**: values opened in the log so far;
//! - **seat**: public + the seat's own committed values (read back from its sealed notes with
//!   its key), values a partner sealed for it, and its private-draw secrets;
//! - **omniscient**: every value opened anywhere in the log, known from the moment it was
//!   committed (`verify`'s second pass).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::crypto::keys::SecretKey;
use crate::crypto::seal::{PAD_BLOCK, seq_nonce};
use crate::crypto::{Hash, draw, tagged_hash};
use crate::dice::Dice;

/// A value committed by the entry being applied; `value` is `Some` when the knowledge has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committed {
    /// The commitment id (chosen by the ruleset, never reused by a seat).
    pub id: String,
    /// The committed value, when the replay knows it.
    pub value: Option<String>,
}

/// A commitment opened by the entry being applied (already checked against its digest).
pub struct Opened {
    /// The commitment id.
    pub id: String,
    /// The opened value.
    pub value: String,
    /// `Some(dice)` when `id` is a private draw that was settled earlier without its value
    /// (public mode): the dice of that draw, computable now that `r` is known.
    pub draw: Option<Dice>,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened")
            .field("id", &self.id)
            .field("value", &self.value)
            .field("draw", &self.draw.as_ref().map(|_| "dice"))
            .finish()
    }
}

/// The commitments and openings of one entry, as [`super::Ruleset::hidden`] receives them.
#[derive(Debug, Default)]
pub struct HiddenActs {
    /// Values committed by the entry, in the entry's order.
    pub committed: Vec<Committed>,
    /// Commitments opened by the entry, in the entry's order.
    pub opened: Vec<Opened>,
}

impl HiddenActs {
    /// Nothing committed, nothing opened.
    pub fn is_empty(&self) -> bool {
        self.committed.is_empty() && self.opened.is_empty()
    }
}

/// What an author's tool must add to an entry besides its public orders
/// ([`super::Ruleset::conceal`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Concealed<O> {
    /// The orders the log carries (no hidden value in plain text).
    pub orders: O,
    /// Values to commit: `(id, value)`. Ids are never reused (e.g. `piece-7@41`).
    pub commit: Vec<(String, String)>,
    /// Ids of the seat's own commitments to open now.
    pub open: Vec<String>,
}

impl<O> Concealed<O> {
    /// Orders with nothing hidden.
    pub fn plain(orders: O) -> Concealed<O> {
        Concealed { orders, commit: Vec::new(), open: Vec::new() }
    }
    /// The same commitments and openings around other orders (e.g. the YAML form).
    pub fn map<P>(self, f: impl FnOnce(O) -> P) -> Concealed<P> {
        Concealed { orders: f(self.orders), commit: self.commit, open: self.open }
    }
}

/// The order in which an author's tool assigns commitment ids (DESIGN §2.6, "Ids say
/// nothing"): values sorted by `SHA-256("umpire/id-order/2\0" ‖ secret_seed ‖ game_id ‖
/// seq (12 bytes big-endian) ‖ value)`. Only the author can compute it, and it is fresh at
/// every seq, so ids numbered in this order tell nothing about which value each holds, nor
/// the order the player wrote them in, nor which pieces hidden together twice are which.
///
/// [`super::Ruleset::conceal`] receives one: a ruleset sorts every set of values whose ids
/// the public cannot tell apart (pieces hidden on one front, counters of one stack) with
/// [`IdOrder::sort`] before numbering them, and lists the public side (names, ids) sorted on
/// its own, never paired.
#[derive(Clone)]
pub struct IdOrder {
    // Private: a ruleset can sort with it but never read the seed.
    seed: [u8; 32],
    game: Hash,
    seq: u64,
}

impl std::fmt::Debug for IdOrder {
    // Never print the seed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdOrder").field("seq", &self.seq).finish_non_exhaustive()
    }
}

impl IdOrder {
    /// The order of the author with `secret_seed` for its entry `seq` of game `game_id`.
    pub fn new(secret_seed: &[u8; 32], game_id: &Hash, seq: u64) -> IdOrder {
        IdOrder { seed: *secret_seed, game: *game_id, seq }
    }
    /// An order for trials that are never signed (the bot checking a candidate, tests): a
    /// fixed all-zero seed, so it hides nothing and must not number a real entry.
    pub fn trial() -> IdOrder {
        IdOrder { seed: [0; 32], game: Hash([0; 32]), seq: 0 }
    }
    /// The sort key of `value`.
    pub fn key(&self, value: &str) -> Hash {
        tagged_hash("umpire/id-order/2", &[&self.seed, self.game.as_bytes(), &seq_nonce(self.seq), value.as_bytes()])
    }
    /// Sort `items` by the key of their values (equal values, whose order cannot matter,
    /// stay as they were).
    pub fn sort<T>(&self, items: &mut [T], value: impl Fn(&T) -> String) {
        items.sort_by_cached_key(|t| self.key(&value(t)).0);
    }
}

/// Which of the three ways of knowing a [`Knowledge`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only what the log has opened so far.
    Public,
    /// What this seat knows with its key.
    Seat(String),
    /// Every value opened anywhere in the log.
    Omniscient,
}

/// What a replay knows beyond the public log: a map `(seat, commitment id) -> value`, and in
/// seat mode the reader's key (to open its sealed notes and derive its draw secrets).
#[derive(Clone, Default)]
pub struct Knowledge {
    values: BTreeMap<(String, String), String>,
    reader: Option<(String, SecretKey)>,
    omniscient: bool,
}

impl std::fmt::Debug for Knowledge {
    // Never print the key; the values are what the replay knows anyway.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Knowledge").field("mode", &self.mode()).field("values", &self.values.len()).finish()
    }
}

impl Knowledge {
    /// Public mode: only values opened in the log.
    pub fn public() -> Knowledge {
        Knowledge::default()
    }
    /// Seat mode: `seat`'s view with its secret key.
    pub fn seat(seat: &str, key: SecretKey) -> Knowledge {
        Knowledge { values: BTreeMap::new(), reader: Some((seat.to_string(), key)), omniscient: false }
    }
    /// Omniscient mode: `values` (every opening of a log, by `(seat, id)`) known from the
    /// moment each was committed.
    pub fn omniscient(values: BTreeMap<(String, String), String>) -> Knowledge {
        Knowledge { values, reader: None, omniscient: true }
    }
    /// Which way of knowing this is.
    pub fn mode(&self) -> Mode {
        match (&self.reader, self.omniscient) {
            (_, true) => Mode::Omniscient,
            (Some((s, _)), false) => Mode::Seat(s.clone()),
            (None, false) => Mode::Public,
        }
    }
    /// The seat reading, in seat mode.
    pub fn reader(&self) -> Option<&str> {
        self.reader.as_ref().map(|(s, _)| s.as_str())
    }
    /// The reader's key, in seat mode.
    pub fn key(&self) -> Option<&SecretKey> {
        self.reader.as_ref().map(|(_, k)| k)
    }
    /// The value of `seat`'s commitment `id`, if known.
    pub fn value(&self, seat: &str, id: &str) -> Option<&str> {
        self.values.get(&(seat.to_string(), id.to_string())).map(String::as_str)
    }
    /// Every known value.
    pub fn values(&self) -> &BTreeMap<(String, String), String> {
        &self.values
    }
    /// Record a value (an opening, a sealed note read).
    pub fn learn(&mut self, seat: &str, id: &str, value: &str) {
        self.values.insert((seat.to_string(), id.to_string()), value.to_string());
    }
    /// The secret `r` of `seat`'s private draw `draw_id`, if known: from a known value of the
    /// draw's commitment (hex of `r`), or derived from the reader's own key.
    pub fn draw_secret(&self, seat: &str, draw_id: &str, game_id: &Hash) -> Option<Hash> {
        if let Some(v) = self.value(seat, draw_id) {
            return v.parse().ok();
        }
        match &self.reader {
            Some((s, key)) if s == seat => Some(draw::draw_secret(&key.seed(), game_id, draw_id)),
            _ => None,
        }
    }
}

/// The plaintext of a sealed note (`body.sealed`, `body.sealed_for`), as YAML:
/// `commit: {id: value, ...}`; notes for a partner also carry `salt: {id: salt}` so the
/// partner can check each value against its commitment (a salt is no secret once the value
/// is known: openings publish it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedNote {
    /// Committed values by id.
    pub commit: BTreeMap<String, String>,
    /// Salts by id (notes for a partner only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub salt: BTreeMap<String, Hash>,
}

/// Longest value any commitment may hold whatever its ruleset says: a private draw's `r`
/// (64 hex digits, DESIGN §2.6), which the engine, not the ruleset, commits.
pub const DRAW_VALUE_LEN: usize = 64;
/// Room for the YAML around one item (`  id: value\n`, quotes on both) and its escapes.
const ITEM_OVERHEAD: usize = 16;
/// Room for the note's fixed lines (`commit:\n`, `salt:\n`).
const NOTE_OVERHEAD: usize = 16;

impl SealedNote {
    /// The padded length of a note of this kind (DESIGN §2.6): it depends only on public
    /// facts, the ids the entry commits (`body.commit`), the ruleset's bound on the value each
    /// may hold ([`super::Ruleset::committed_value_bound`]) and whether the note carries salts
    /// (notes for a partner). With `b_i = max(bound(id_i), 64)`:
    /// `L = 16 + Σ (len(id_i) + b_i + 16) [+ Σ (len(id_i) + 64 + 16) with salts] + 1`, rounded up
    /// to a multiple of 256. Every note of one kind then has one length whatever it holds;
    /// a note that does not fit is refused when sealing (the ruleset's bound is wrong).
    pub fn padded_len<'a>(items: impl IntoIterator<Item = (&'a str, usize)>, with_salts: bool) -> usize {
        let mut n = NOTE_OVERHEAD;
        for (id, bound) in items {
            n = n.saturating_add(id.len().saturating_add(bound.max(DRAW_VALUE_LEN)).saturating_add(ITEM_OVERHEAD));
            if with_salts {
                n = n.saturating_add(id.len() + 64 + ITEM_OVERHEAD);
            }
        }
        n.saturating_add(1).div_ceil(PAD_BLOCK).saturating_mul(PAD_BLOCK)
    }

    /// The YAML text that is sealed.
    pub fn to_text(&self) -> String {
        // A map of strings always serialises.
        yaml_serde::to_string(self).unwrap_or_default()
    }
    /// Parse an opened note.
    pub fn from_bytes(bytes: &[u8]) -> Result<SealedNote, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| "the sealed note is not UTF-8".to_string())?;
        crate::log::yamlscan::from_str(text).map_err(|e| format!("the sealed note is not a note: {e}"))
    }
}
