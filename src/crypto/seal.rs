//! Sealed notes, to oneself and to a partner seat (DESIGN §2.6).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use ed25519_dalek::{SigningKey, VerifyingKey};

use super::Hash;

/// Sealing failures.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SealError {
    /// Not valid base64.
    #[error("sealed note is not base64: {0}")]
    Base64(String),
    /// Authentication failed: wrong key, wrong game, wrong seq, or tampered.
    #[error("sealed note does not open with this key (wrong key, game or seq, or altered)")]
    Open,
    /// The partner's public key cannot be used for agreement.
    #[error("partner key unusable for agreement")]
    BadPartner,
}

/// The 12-byte nonce: `seq` big-endian, padded left with zeros.
pub fn seq_nonce(seq: u64) -> [u8; 12] {
    todo!()
}

/// Seal `plain` for oneself: key `SHA-256("umpire/seal/1\0" ‖ secret_seed ‖ game_id)`; returns base64.
pub fn seal(secret_seed: &[u8; 32], game_id: &Hash, seq: u64, plain: &[u8]) -> String {
    todo!()
}

/// Open a note sealed by [`seal`].
pub fn open(secret_seed: &[u8; 32], game_id: &Hash, seq: u64, sealed_b64: &str) -> Result<Vec<u8>, SealError> {
    todo!()
}

/// The X25519 shared secret between `mine` (its Ed25519 secret scalar) and `theirs`
/// (in Montgomery form).
pub fn shared_secret(mine: &SigningKey, theirs: &VerifyingKey) -> [u8; 32] {
    todo!()
}

/// Key `SHA-256("umpire/seal-for/1\0" ‖ shared ‖ game_id ‖ author_seat ‖ "\0" ‖ partner_seat)`.
pub fn seal_for_key(shared: &[u8; 32], game_id: &Hash, author_seat: &str, partner_seat: &str) -> [u8; 32] {
    todo!()
}

/// Seal `plain` for `partner_seat` (whose key is `partner`); returns base64.
pub fn seal_for(
    mine: &SigningKey,
    partner: &VerifyingKey,
    game_id: &Hash,
    author_seat: &str,
    partner_seat: &str,
    seq: u64,
    plain: &[u8],
) -> String {
    todo!()
}

/// Open a note sealed for us (`mine` = the partner's signing key, `author` = the author's key).
pub fn open_for(
    mine: &SigningKey,
    author: &VerifyingKey,
    game_id: &Hash,
    author_seat: &str,
    partner_seat: &str,
    seq: u64,
    sealed_b64: &str,
) -> Result<Vec<u8>, SealError> {
    todo!()
}
