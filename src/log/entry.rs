//! One signed entry: its exact bytes, its parsed header and body (DESIGN §2.2).
//!
//! CONTRACT (skeleton): types and signatures are fixed; bodies are filled in by the
//! protocol work.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::crypto::Hash;
use crate::crypto::keys::SecretKey;

/// Largest entry accepted, in bytes (scenario text included).
pub const MAX_ENTRY_BYTES: usize = 4 * 1024 * 1024;

/// The kinds of entry the engine knows. Rulesets add none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Genesis,
    Join,
    Orders,
    Ack,
    Resign,
    OfferDraw,
    AcceptDraw,
    ProposeAmend,
    AgreeAmend,
}

/// The ruleset named by a genesis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetRef {
    pub id: String,
    pub version: String,
}

/// The scenario carried by a genesis: its name, the SHA-256 of its text, and the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioRef {
    pub name: String,
    pub sha256: Hash,
    pub text: String,
}

/// One seat declared at genesis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatDecl {
    pub seat: String,
    pub side: String,
    /// `ed25519:<base64>`
    pub key: String,
}

/// `body.commit` item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Commitment {
    pub id: String,
    pub digest: Hash,
}

/// `body.open` item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    pub id: String,
    pub salt: Hash,
    pub value: String,
}

/// `body.sealed_for` item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SealedFor {
    pub seat: String,
    pub data: String,
}

/// What a `propose-amend` asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Amendment {
    /// Undo every entry from this seq on (take-back), if set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo_from: Option<u64>,
    /// Why.
    pub reason: String,
}

/// An entry body. One struct for every kind; which fields a kind needs is checked by
/// [`Body::check_shape`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Body {
    pub kind: Kind,
    // genesis
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<RulesetRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub options: Option<yaml_serde::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<SeatDecl>>,
    /// 32 random bytes, hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<Hash>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_length: Option<u64>,
    // genesis + join: the seat's chain anchor c_0
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<Hash>,
    // orders: the ruleset's orders, parsed by the ruleset
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub orders: Option<yaml_serde::Value>,
    // propose-amend / agree-amend
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amend: Option<Amendment>,
    /// agree-amend / accept-draw: hash of the entry agreed to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agree: Option<Hash>,
    // any kind
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<Vec<Commitment>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<Vec<Opening>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed_for: Option<Vec<SealedFor>>,
}

impl Body {
    /// A body of `kind` with every optional field empty.
    pub fn new(kind: Kind) -> Body {
        Body {
            kind,
            ruleset: None,
            engine: None,
            scenario: None,
            options: None,
            seats: None,
            nonce: None,
            chain_length: None,
            chain: None,
            orders: None,
            amend: None,
            agree: None,
            note: None,
            commit: None,
            open: None,
            sealed: None,
            sealed_for: None,
        }
    }
    /// Fields required or forbidden by the kind (e.g. genesis needs ruleset, scenario,
    /// seats, nonce, chain_length, chain; orders needs orders; join needs chain).
    pub fn check_shape(&self) -> Result<(), String> {
        todo!()
    }
}

/// An unsigned entry: everything before the `sig:` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// Hash of entry 0 (absent in entry 0).
    pub game: Option<Hash>,
    pub seq: u64,
    /// Hash of entry seq−1 (absent in entry 0).
    pub prev: Option<Hash>,
    pub seat: String,
    /// `c_n` of the seat's chain (absent in the seat's first entry).
    pub reveal: Option<Hash>,
    /// Seat of another side whose next entry seeds this entry's dice.
    pub dice_from: Option<String>,
    /// RFC 3339 UTC, informational.
    pub time: String,
    pub body: Body,
}

/// A signed entry with its exact bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The parsed header and body (as signed).
    pub draft: Draft,
    /// The 64-byte signature.
    pub sig: [u8; 64],
    /// Every byte of the entry, `sig:` line and final LF included.
    pub bytes: Vec<u8>,
    /// SHA-256 of `bytes`.
    pub hash: Hash,
}

/// Why bytes are not a well-formed entry (this says nothing of signatures or chains).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum EntryError {
    #[error("entry is {size} bytes; the limit is {limit}")]
    TooLarge { size: usize, limit: usize },
    #[error("entry is not UTF-8")]
    NotUtf8,
    #[error("entry does not end with a `sig: ed25519:<base64>` line and a newline")]
    NoSignatureLine,
    #[error("bad signature line: {0}")]
    BadSignatureLine(String),
    #[error("entry is not valid YAML: {0}")]
    Yaml(String),
    #[error("entry header: {0}")]
    Header(String),
    #[error("entry body: {0}")]
    Body(String),
}

impl Draft {
    /// The exact bytes this draft signs: the YAML document before the `sig:` line
    /// (top-level keys in protocol order, LF endings, ends with LF).
    pub fn to_bytes(&self) -> Vec<u8> {
        todo!()
    }
    /// The signed message: `"umpire/entry/1\0" ‖ to_bytes()`.
    pub fn signed_message(&self) -> Vec<u8> {
        todo!()
    }
    /// Sign with `key`, producing the entry.
    pub fn sign(self, key: &SecretKey) -> Entry {
        todo!()
    }
}

impl Entry {
    /// Parse entry bytes (CRLF is turned into LF first). Checks form only: the header keys
    /// and their order, the body's shape; not the signature (see [`Entry::verify_signature`]).
    pub fn parse(bytes: &[u8]) -> Result<Entry, EntryError> {
        todo!()
    }
    /// The bytes before the `sig:` line.
    pub fn unsigned_bytes(&self) -> &[u8] {
        todo!()
    }
    /// `verify_strict` of the signature over `"umpire/entry/1\0" ‖ unsigned bytes`.
    pub fn verify_signature(&self, key: &ed25519_dalek::VerifyingKey) -> bool {
        todo!()
    }
    /// Shorthands.
    pub fn seq(&self) -> u64 {
        self.draft.seq
    }
    pub fn seat(&self) -> &str {
        &self.draft.seat
    }
    pub fn kind(&self) -> Kind {
        self.draft.body.kind
    }
}
