//! SHA-256 values and domain-separated hashing.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// A SHA-256 value, written as 64 lowercase hex characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hash(pub [u8; 32]);

impl Hash {
    /// The raw 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
    /// Lowercase hex.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
    /// The first `n` hex characters, for display ("3f9a…").
    pub fn short(&self, n: usize) -> String {
        self.to_hex()[..n.min(64)].to_string()
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash({})", self.to_hex())
    }
}

/// Why a text is not a hash.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not a SHA-256 value (want 64 lowercase hex characters): {0:?}")]
pub struct HashParseError(pub String);

impl FromStr for Hash {
    type Err = HashParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // Uppercase is refused: the protocol writes lowercase, and two spellings of one
        // value would let two different entry texts carry "the same" hash.
        if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
            return Err(HashParseError(s.chars().take(80).collect()));
        }
        let mut out = [0u8; 32];
        hex::decode_to_slice(s, &mut out).map_err(|_| HashParseError(s.to_string()))?;
        Ok(Hash(out))
    }
}

impl serde::Serialize for Hash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> serde::Deserialize<'de> for Hash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor of its own: the text is read where it lies, not copied into a String
        // first (a cache holds thousands of hashes; issue 20).
        struct HexVisitor;
        impl serde::de::Visitor<'_> for HexVisitor {
            type Value = Hash;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                // As `String`'s own, so that errors read as they did.
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Hash, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(HexVisitor)
    }
}

impl schemars::JsonSchema for Hash {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hash".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "description": "SHA-256, 64 lowercase hex characters"
        })
    }
}

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> Hash {
    Hash(Sha256::digest(data).into())
}

/// SHA-256 of `tag ‖ 0x00 ‖ parts…` — the protocol's domain separation (DESIGN §2).
pub fn tagged_hash(tag: &str, parts: &[&[u8]]) -> Hash {
    let mut h = Sha256::new();
    h.update(tag.as_bytes());
    h.update([0u8]);
    for p in parts {
        h.update(p);
    }
    Hash(h.finalize().into())
}
