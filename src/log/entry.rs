//! One signed entry: its exact bytes, its parsed header and body (DESIGN §2.2).
//!
//! **Writing.** [`Draft::to_bytes`] serialises the header with `yaml_serde` from a struct
//! whose fields are in protocol order (`umpire`, `game`, `seq`, `prev`, `seat`, `reveal`,
//! `dice_from`, `time`, `body`); multi-line strings come out as literal block scalars,
//! indented, so no line of an entry is ever exactly `---`. The entry is those bytes
//! followed by `sig: ed25519:<base64 of the 64-byte signature>\n`, the signature being over
//! `"umpire/entry/1\0" ‖ to_bytes()`. [`Draft::try_sign`] also parses its own output back
//! and refuses a draft that would not round-trip (e.g. an `orders` value holding a YAML
//! tag, or a null); since parsing refuses any line that is exactly `---`, `try_sign` can
//! never produce an entry that would break the log (tests feed it notes, seats and orders
//! holding `---` lines, long folded lines and YAML-significant text).
//!
//! **Reading.** [`Entry::parse`]: size limit; CRLF → LF (nothing else is changed; a lone
//! CR is refused); UTF-8; no line may be exactly `---`; the last line must be the `sig:`
//! line, canonical base64 of 64 bytes, ending with LF; the part before it is scanned with
//! [`super::yamlscan`] (anchors, aliases, tags, directives, document markers, duplicate
//! keys and non-scalar keys are refused *before* deserialising), its top-level keys must be
//! the protocol's in protocol order (`game`/`prev` present exactly when `seq > 0`), no
//! header or body field may be an explicit null, and it is deserialised (unknown fields
//! denied) from exactly those bytes. Hashes are always read as strings (an independent
//! reader should do the same: a YAML 1.2 reader may take a plain `1e999…` for a float).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::crypto::keys::SecretKey;
use crate::crypto::{Hash, sha256};

/// The `umpire:` value of an entry.
pub const ENTRY_VERSION: &str = "entry/2";
/// The header of protocol version 1, refused with a message that says so.
pub const ENTRY_VERSION_1: &str = "entry/1";
/// The domain separation prefix of the signed message (`"umpire/entry/1\0"`).
pub const SIGNED_PREFIX: &[u8] = b"umpire/entry/1\0";
/// The start of the signature line.
pub const SIG_PREFIX: &str = "sig: ed25519:";
/// The top-level keys of an entry, in protocol order (`sig` is the separate last line).
pub const HEADER_KEYS: [&str; 9] = ["umpire", "game", "seq", "prev", "seat", "reveal", "dice_from", "time", "body"];

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
    /// orders: the hash of P, when the entry opens with a leading roll (DESIGN §2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<Hash>,
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
            lead: None,
            note: None,
            commit: None,
            open: None,
            sealed: None,
            sealed_for: None,
        }
    }
    /// Fields required or forbidden by the kind (e.g. genesis needs ruleset, scenario,
    /// seats, nonce, chain_length, chain; orders needs orders; join needs chain).
    ///
    /// `note`, `commit`, `open`, `sealed` and `sealed_for` are allowed on every kind.
    pub fn check_shape(&self) -> Result<(), String> {
        use Kind::*;
        let k = self.kind;
        let present: [(&str, bool); 10] = [
            ("ruleset", self.ruleset.is_some()),
            ("engine", self.engine.is_some()),
            ("scenario", self.scenario.is_some()),
            ("options", self.options.is_some()),
            ("seats", self.seats.is_some()),
            ("nonce", self.nonce.is_some()),
            ("chain_length", self.chain_length.is_some()),
            ("chain", self.chain.is_some()),
            ("orders", self.orders.is_some()),
            ("amend", self.amend.is_some()),
        ];
        let agree = ("agree", self.agree.is_some());
        let lead = ("lead", self.lead.is_some());
        // (required, optional) fields per kind, beyond the ones every kind may carry.
        let (required, optional): (&[&str], &[&str]) = match k {
            Genesis => (&["ruleset", "engine", "scenario", "seats", "nonce", "chain_length", "chain"], &["options"]),
            Join => (&["chain"], &[]),
            Orders => (&["orders"], &["lead"]),
            AcceptDraw | AgreeAmend => (&["agree"], &[]),
            ProposeAmend => (&["amend"], &[]),
            Ack | Resign | OfferDraw => (&[], &[]),
        };
        let kind_name = kind_name(k);
        for (name, is) in present.iter().chain([&agree, &lead]) {
            let req = required.contains(name);
            let opt = optional.contains(name);
            if req && !is {
                return Err(format!("a `{kind_name}` entry needs `body.{name}`"));
            }
            if !req && !opt && *is {
                return Err(format!("a `{kind_name}` entry cannot carry `body.{name}`"));
            }
        }
        if let Some(c) = &self.commit {
            let mut ids = std::collections::BTreeSet::new();
            for item in c {
                if !ids.insert(item.id.as_str()) {
                    return Err(format!("commitment id {:?} appears twice", item.id));
                }
            }
        }
        if let Some(v) = &self.sealed_for {
            let mut seats = std::collections::BTreeSet::new();
            for item in v {
                if !seats.insert(item.seat.as_str()) {
                    return Err(format!("two `sealed_for` notes for seat {:?}", item.seat));
                }
            }
        }
        Ok(())
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
#[derive(Clone, Debug)]
pub struct Entry {
    /// The parsed header and body (as signed). `body.orders` is `None` once the entry has
    /// [shed its orders](Entry::shed_orders); [`Entry::orders`] reads them in either case.
    pub draft: Draft,
    /// The 64-byte signature.
    pub sig: [u8; 64],
    /// Every byte of the entry, `sig:` line and final LF included.
    pub bytes: Vec<u8>,
    /// SHA-256 of `bytes`.
    pub hash: Hash,
    /// The parsed orders were dropped to save memory; `bytes` still holds them.
    pub(crate) orders_shed: bool,
}

/// Entries are equal when they are the same signed text read the same way; an entry that
/// shed its orders equals the one that kept them (the orders are still in its bytes).
impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        let (a, b) = (&self.draft, &other.draft);
        self.hash == other.hash
            && self.sig == other.sig
            && self.bytes == other.bytes
            && if self.orders_shed || other.orders_shed {
                let strip = |d: &Draft| {
                    let mut d = d.clone();
                    d.body.orders = None;
                    d
                };
                strip(a) == strip(b)
            } else {
                a == b
            }
    }
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

impl Kind {
    /// Whether entries of this kind carry a reveal (and, in play, `dice_from`): only
    /// `orders` and `ack` do (DESIGN §2.5); the others may cross in the mail.
    pub fn reveals(self) -> bool {
        matches!(self, Kind::Orders | Kind::Ack)
    }
}

/// The kebab-case name of a kind, as written in entries.
pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Genesis => "genesis",
        Kind::Join => "join",
        Kind::Orders => "orders",
        Kind::Ack => "ack",
        Kind::Resign => "resign",
        Kind::OfferDraw => "offer-draw",
        Kind::AcceptDraw => "accept-draw",
        Kind::ProposeAmend => "propose-amend",
        Kind::AgreeAmend => "agree-amend",
    }
}

/// The header as written: fields in protocol order.
#[derive(Serialize)]
struct HeaderOut<'a> {
    umpire: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<&'a Hash>,
    seq: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    prev: Option<&'a Hash>,
    seat: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reveal: Option<&'a Hash>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice_from: Option<&'a str>,
    time: &'a str,
    body: &'a Body,
}

/// The header as read.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug, PartialEq))]
#[serde(deny_unknown_fields)]
struct HeaderIn {
    umpire: String,
    #[serde(default)]
    game: Option<Hash>,
    seq: u64,
    #[serde(default)]
    prev: Option<Hash>,
    seat: String,
    #[serde(default)]
    reveal: Option<Hash>,
    #[serde(default)]
    dice_from: Option<String>,
    time: String,
    body: Body,
}

/// Does `bytes` hold a line that is exactly `---` (the log separator)?
pub fn has_separator_line(bytes: &[u8]) -> bool {
    bytes.split(|&b| b == b'\n').any(|l| l == b"---")
}

impl Draft {
    /// The exact bytes this draft signs: the YAML document before the `sig:` line
    /// (top-level keys in protocol order, LF endings, ends with LF).
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = HeaderOut {
            umpire: ENTRY_VERSION,
            game: self.game.as_ref(),
            seq: self.seq,
            prev: self.prev.as_ref(),
            seat: &self.seat,
            reveal: self.reveal.as_ref(),
            dice_from: self.dice_from.as_deref(),
            time: &self.time,
            body: &self.body,
        };
        // Serialising plain data to a String cannot fail (no maps with non-string keys
        // are involved outside yaml_serde::Value, which serialises itself).
        let text = yaml_serde::to_string(&h).expect("an entry header serialises to YAML");
        let mut bytes = text.into_bytes();
        if bytes.last() != Some(&b'\n') {
            bytes.push(b'\n');
        }
        bytes
    }
    /// The signed message: `"umpire/entry/1\0" ‖ to_bytes()`.
    pub fn signed_message(&self) -> Vec<u8> {
        let mut m = SIGNED_PREFIX.to_vec();
        m.extend(self.to_bytes());
        m
    }
    /// Sign with `key`, producing the entry. Does not check that the result parses back;
    /// see [`Draft::try_sign`], which the tool uses.
    pub fn sign(self, key: &SecretKey) -> Entry {
        let unsigned = self.to_bytes();
        let mut msg = SIGNED_PREFIX.to_vec();
        msg.extend(&unsigned);
        let sig = key.sign(&msg).to_bytes();
        let mut bytes = unsigned;
        bytes.extend(SIG_PREFIX.as_bytes());
        bytes.extend(STANDARD.encode(sig).as_bytes());
        bytes.push(b'\n');
        let hash = sha256(&bytes);
        Entry { draft: self, sig, bytes, hash, orders_shed: false }
    }
    /// Sign, then parse the result back and check it is this very draft: refuses drafts
    /// that [`Entry::parse`] would refuse or read differently (bad shape, nulls, tags...).
    pub fn try_sign(self, key: &SecretKey) -> Result<Entry, EntryError> {
        let e = self.sign(key);
        let back = Entry::parse(&e.bytes)?;
        if back.draft != e.draft {
            return Err(EntryError::Body("the entry does not read back as written (round-trip mismatch)".to_string()));
        }
        Ok(back)
    }
}

impl Entry {
    /// Parse entry bytes (CRLF is turned into LF first). Checks form only: the header keys
    /// and their order, the body's shape; not the signature (see [`Entry::verify_signature`]).
    pub fn parse(bytes: &[u8]) -> Result<Entry, EntryError> {
        Entry::parse_with(bytes, Read::OnePass)
    }

    /// [`Entry::parse`] with the header read by `yaml_serde` from the text, as before the
    /// one-pass read: the reference the one-pass read is tested against (the unit tests and
    /// the `entry_parse` fuzz target). Same results, same errors, slower.
    #[doc(hidden)]
    pub fn parse_two_pass(bytes: &[u8]) -> Result<Entry, EntryError> {
        Entry::parse_with(bytes, Read::TwoPass)
    }

    fn parse_with(bytes: &[u8], read: Read) -> Result<Entry, EntryError> {
        if bytes.len() > MAX_ENTRY_BYTES {
            return Err(EntryError::TooLarge { size: bytes.len(), limit: MAX_ENTRY_BYTES });
        }
        let bytes = crlf_to_lf(bytes);
        let text = std::str::from_utf8(&bytes).map_err(|_| EntryError::NotUtf8)?;
        if text.contains('\r') {
            return Err(EntryError::Header("a carriage return outside a CRLF line ending".to_string()));
        }
        if has_separator_line(&bytes) {
            return Err(EntryError::Header("a line is exactly `---` (the log separator)".to_string()));
        }
        // The signature line: the last line, ending with LF.
        let body_end = text.strip_suffix('\n').ok_or(EntryError::NoSignatureLine)?;
        let sig_start = body_end.rfind('\n').map(|i| i + 1).ok_or(EntryError::NoSignatureLine)?;
        let sig_line = &body_end[sig_start..];
        let b64 = sig_line.strip_prefix(SIG_PREFIX).ok_or(EntryError::NoSignatureLine)?;
        let raw = STANDARD.decode(b64.as_bytes()).map_err(|e| EntryError::BadSignatureLine(format!("not base64: {e}")))?;
        let sig: [u8; 64] = raw.try_into().map_err(|v: Vec<u8>| EntryError::BadSignatureLine(format!("{} bytes, want 64", v.len())))?;
        if STANDARD.encode(sig) != b64 {
            return Err(EntryError::BadSignatureLine("non-canonical base64".to_string()));
        }
        let unsigned = &bytes[..sig_start];
        let draft = parse_unsigned(unsigned, read)?;
        let hash = sha256(&bytes);
        Ok(Entry { draft, sig, bytes, hash, orders_shed: false })
    }

    /// An entry from its parts as [`Entry::parse`] would make them, or as
    /// [`Entry::shed_orders`] leaves them if `orders_shed` (a cache restoring what it stored;
    /// nothing is checked here).
    pub(crate) fn from_parts(draft: Draft, sig: [u8; 64], bytes: Vec<u8>, hash: Hash, orders_shed: bool) -> Entry {
        Entry { draft, sig, bytes, hash, orders_shed }
    }

    /// Drop the parsed orders, which [`Entry::orders`] then reads again from the bytes when
    /// asked. A long audit keeps every entry, and the orders' YAML trees were the largest
    /// part of it (about 2 KiB an entry in a Glory's End game, three times its text):
    /// `umpire verify` sheds them once an entry is applied (issue 20).
    pub fn shed_orders(&mut self) {
        if self.draft.body.orders.take().is_some() {
            self.orders_shed = true;
        }
    }

    /// The orders of the body, as signed: parsed again from the bytes if the entry shed
    /// them ([`Entry::shed_orders`]).
    pub fn orders(&self) -> Option<std::borrow::Cow<'_, yaml_serde::Value>> {
        if self.orders_shed {
            // The bytes parsed when the entry was made; they still do.
            Entry::parse(&self.bytes).ok()?.draft.body.orders.map(std::borrow::Cow::Owned)
        } else {
            self.draft.body.orders.as_ref().map(std::borrow::Cow::Borrowed)
        }
    }
    /// The bytes before the `sig:` line.
    pub fn unsigned_bytes(&self) -> &[u8] {
        // `bytes` ends with "\n", and the sig line is the last line.
        let without_lf = &self.bytes[..self.bytes.len().saturating_sub(1)];
        let start = without_lf.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0);
        &self.bytes[..start]
    }
    /// The signed message: `"umpire/entry/1\0" ‖ unsigned bytes`.
    pub fn signed_message(&self) -> Vec<u8> {
        let mut m = SIGNED_PREFIX.to_vec();
        m.extend(self.unsigned_bytes());
        m
    }
    /// `verify_strict` of the signature over `"umpire/entry/1\0" ‖ unsigned bytes`.
    pub fn verify_signature(&self, key: &ed25519_dalek::VerifyingKey) -> bool {
        let sig = ed25519_dalek::Signature::from_bytes(&self.sig);
        crate::crypto::keys::verify_strict(key, &self.signed_message(), &sig)
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

/// Turn every CRLF into LF (nothing else).
pub(crate) fn crlf_to_lf(bytes: &[u8]) -> Vec<u8> {
    // Nearly every entry has no CR at all: one copy then (issue 20: this ran byte by byte
    // over every entry of an audit).
    if !bytes.contains(&b'\r') {
        return bytes.to_vec();
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// Give back the spare capacity of every mapping, list and string in `v`. A long replay
/// keeps every entry's orders, and a small mapping built while parsing holds room for
/// several entries and a hash table: shrunk, an orders tree takes about half the memory.
fn shrink_yaml(v: &mut yaml_serde::Value) {
    match v {
        yaml_serde::Value::String(s) => s.shrink_to_fit(),
        yaml_serde::Value::Sequence(items) => {
            items.shrink_to_fit();
            items.iter_mut().for_each(shrink_yaml);
        }
        yaml_serde::Value::Mapping(map) => {
            map.shrink_to_fit();
            for (_, item) in map.iter_mut() {
                shrink_yaml(item);
            }
        }
        yaml_serde::Value::Tagged(t) => shrink_yaml(&mut t.value),
        yaml_serde::Value::Null | yaml_serde::Value::Bool(_) | yaml_serde::Value::Number(_) => {}
    }
}

/// How the header is deserialised once the strict scan has accepted the text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// From the scan's own events ([`super::yamlevents`]); `yaml_serde` only where that fails.
    OnePass,
    /// By `yaml_serde` from the text (a second parse).
    TwoPass,
}

/// Parse the YAML before the `sig:` line.
fn parse_unsigned(unsigned: &[u8], read: Read) -> Result<Draft, EntryError> {
    let (scan, events) = super::yamlscan::scan_events(unsigned).map_err(EntryError::Yaml)?;
    // Top-level keys: a subsequence of HEADER_KEYS, in that order, none null.
    let mut next = 0;
    for k in &scan.top {
        match HEADER_KEYS[next..].iter().position(|h| *h == k.key) {
            Some(p) => next += p + 1,
            None => {
                return Err(EntryError::Header(if HEADER_KEYS.contains(&k.key.as_str()) {
                    format!("key `{}` is out of order (want {})", k.key, HEADER_KEYS.join(", "))
                } else {
                    format!("unknown key `{}`", k.key)
                }));
            }
        }
        if k.null {
            return Err(EntryError::Header(format!("`{}` is null", k.key)));
        }
    }
    for k in &scan.body {
        if k.null {
            return Err(EntryError::Body(format!("`{}` is null", k.key)));
        }
    }
    // Integers in one spelling only: plain decimal, no sign, no leading zero (YAML also
    // reads `0x1f`, `+3`, `0o7`… as integers, and readers disagree on some of them).
    let decimal = |v: &Option<String>| {
        v.as_deref().is_some_and(|t| t == "0" || (!t.starts_with('0') && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())))
    };
    if let Some(k) = scan.top.iter().find(|k| k.key == "seq")
        && !decimal(&k.plain)
    {
        return Err(EntryError::Header("`seq` must be a plain decimal integer".to_string()));
    }
    if let Some(k) = scan.body.iter().find(|k| k.key == "chain_length")
        && !decimal(&k.plain)
    {
        return Err(EntryError::Body("`chain_length` must be a plain decimal integer".to_string()));
    }
    // One parse: the scan's events read as the header. Where that fails, `yaml_serde` reads
    // the text again and its verdict and message stand (`yamlevents`).
    let one_pass = match read {
        Read::OnePass => super::yamlevents::from_events::<HeaderIn>(&events).ok(),
        Read::TwoPass => None,
    };
    drop(events);
    let h: HeaderIn = match one_pass {
        Some(h) => Ok(h),
        None => yaml_serde::from_slice(unsigned),
    }
    .map_err(|e| {
        let msg = e.to_string();
        if msg.starts_with("body") { EntryError::Body(msg) } else { EntryError::Header(msg) }
    })?;
    if h.umpire == ENTRY_VERSION_1 {
        return Err(EntryError::Header(format!(
            "`umpire: {ENTRY_VERSION_1}` is protocol version 1; this umpire ({}) reads protocol version 2 only \
             (DESIGN §2.9): finish that game with the umpire release that started it",
            env!("CARGO_PKG_VERSION")
        )));
    }
    if h.umpire != ENTRY_VERSION {
        return Err(EntryError::Header(format!("`umpire: {}` (want `umpire: {ENTRY_VERSION}`)", h.umpire)));
    }
    if h.seq == 0 {
        if h.game.is_some() || h.prev.is_some() {
            return Err(EntryError::Header("entry 0 carries no `game` or `prev`".to_string()));
        }
    } else if h.game.is_none() || h.prev.is_none() {
        return Err(EntryError::Header("every entry after entry 0 carries `game` and `prev`".to_string()));
    }
    h.body.check_shape().map_err(EntryError::Body)?;
    let mut h = h;
    if let Some(orders) = &mut h.body.orders {
        shrink_yaml(orders);
    }
    Ok(Draft { game: h.game, seq: h.seq, prev: h.prev, seat: h.seat, reveal: h.reveal, dice_from: h.dice_from, time: h.time, body: h.body })
}

#[cfg(test)]
mod tests;
