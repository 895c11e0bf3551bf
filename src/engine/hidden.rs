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
use crate::crypto::{Hash, draw};
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

impl SealedNote {
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
