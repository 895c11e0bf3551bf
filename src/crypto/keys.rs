//! Ed25519 keys and their files (DESIGN §2.1).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use std::path::Path;

use ed25519_dalek::{Signature, SigningKey, VerifyingKey};

/// Errors reading, writing or parsing keys.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io { path: String, #[source] source: std::io::Error },
    /// The secret key file can be read by group or others.
    #[error("{path}: secret key file is readable by others (mode {mode:o}); run `chmod 600 {path}`")]
    Permissions { path: String, mode: u32 },
    /// The file is not a key file of the expected kind.
    #[error("{path}: not an umpire {expected} file: {reason}")]
    Format { path: String, expected: &'static str, reason: String },
    /// A public key text is malformed.
    #[error("bad public key {text:?}: {reason} (want `ed25519:` + base64 of 32 bytes)")]
    BadPublic { text: String, reason: String },
    /// Refusing to overwrite an existing file.
    #[error("{path} already exists; refusing to overwrite a key")]
    Exists { path: String },
}

/// A secret key: a name and a 32-byte Ed25519 seed.
#[derive(Clone)]
pub struct SecretKey {
    /// Human name given at creation.
    pub name: String,
    /// The signing key (holds the seed).
    pub signing: SigningKey,
}

/// A public key with its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// Human name.
    pub name: String,
    /// The verifying key.
    pub key: VerifyingKey,
}

impl SecretKey {
    /// A fresh key from the operating system's randomness.
    pub fn generate(name: &str) -> SecretKey {
        todo!()
    }
    /// A key from a known 32-byte seed (test vectors, demo with fixed seed).
    pub fn from_seed(name: &str, seed: [u8; 32]) -> SecretKey {
        todo!()
    }
    /// The 32-byte seed (used in chain, salt, seal and draw derivations).
    pub fn seed(&self) -> [u8; 32] {
        todo!()
    }
    /// The matching public key.
    pub fn public(&self) -> PublicKey {
        todo!()
    }
    /// Ed25519 signature over `msg`.
    pub fn sign(&self, msg: &[u8]) -> Signature {
        todo!()
    }
    /// The secret key file text (YAML: `umpire: secret-key/1`, name, public, secret).
    pub fn to_file_text(&self) -> String {
        todo!()
    }
    /// Parse a secret key file text (`path` is only for messages).
    pub fn from_file_text(text: &str, path: &str) -> Result<SecretKey, KeyError> {
        todo!()
    }
    /// Read a secret key file, refusing one readable by group or others (Unix).
    pub fn read_file(path: &Path) -> Result<SecretKey, KeyError> {
        todo!()
    }
    /// Write the secret key file with mode 0600 (created exclusively; never overwrites).
    pub fn write_file(&self, path: &Path) -> Result<(), KeyError> {
        todo!()
    }
}

impl PublicKey {
    /// `ed25519:` + standard base64 (padded) of the 32 key bytes.
    pub fn to_text(&self) -> String {
        public_text(&self.key)
    }
    /// Key id: first 16 hex chars of SHA-256 of the 32 public key bytes.
    pub fn id(&self) -> String {
        key_id(&self.key)
    }
    /// The public key file text (YAML: `umpire: public-key/1`, name, public).
    pub fn to_file_text(&self) -> String {
        todo!()
    }
    /// Parse a public key file text.
    pub fn from_file_text(text: &str, path: &str) -> Result<PublicKey, KeyError> {
        todo!()
    }
    /// Read a public key file.
    pub fn read_file(path: &Path) -> Result<PublicKey, KeyError> {
        todo!()
    }
    /// Write the public key file (never overwrites).
    pub fn write_file(&self, path: &Path) -> Result<(), KeyError> {
        todo!()
    }
    /// Verify with `verify_strict`.
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> bool {
        verify_strict(&self.key, msg, sig)
    }
}

/// `ed25519:` + base64 of the key bytes.
pub fn public_text(key: &VerifyingKey) -> String {
    todo!()
}

/// Parse `ed25519:<base64>` into a key (rejects weak/invalid points).
pub fn parse_public_text(text: &str) -> Result<VerifyingKey, KeyError> {
    todo!()
}

/// First 16 hex chars of SHA-256 of the 32 public key bytes.
pub fn key_id(key: &VerifyingKey) -> String {
    todo!()
}

/// `verify_strict` (rejects malleable and small-order signatures).
pub fn verify_strict(key: &VerifyingKey, msg: &[u8], sig: &Signature) -> bool {
    todo!()
}
