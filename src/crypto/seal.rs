//! Sealed notes, to oneself and to a partner seat (DESIGN §2.6).
//!
//! Both kinds use ChaCha20-Poly1305 (no associated data) with the keys of DESIGN §2.6.
//!
//! **Deviation from DESIGN §2.6 (nonce).** The design uses the nonce `seq` (12 bytes,
//! big-endian). A seat that signs two different entries at the same `seq` (a take-back
//! under §2.7, or an entry re-signed after the opponent refused it, both sent by mail)
//! would then encrypt two different notes under the same key and nonce: the XOR of the
//! ciphertexts is the XOR of the plaintexts, and Poly1305's one-time key is reused. So the
//! nonce is *synthetic* instead (deterministic, misuse-resistant):
//! `nonce = SHA-256("umpire/seal-nonce/1\0" ‖ key ‖ seq_nonce(seq) ‖ plain)[0..12]`, and the
//! sealed text is base64 (standard, padded) of `nonce(12) ‖ ciphertext ‖ tag(16)`.
//! Opening decrypts with the carried nonce, then recomputes it from the plaintext and the
//! expected `seq` and refuses a mismatch (so a note is still bound to its `seq`, and each
//! (key, seq, plaintext) has exactly one valid sealed text). Equal nonces now only occur
//! for equal plaintexts at the same seq, which give equal ciphertexts: nothing leaks.
//!
//! Seal-for uses X25519 between the author's Ed25519 secret scalar
//! ([`SigningKey::to_scalar_bytes`], clamped as X25519 does) and the partner's public key in
//! Montgomery form ([`VerifyingKey::to_montgomery`]). Both directions yield the same shared
//! secret. Partner keys come from a genesis, whose keys are checked not to be weak
//! (small-order); an all-zero shared secret is refused by [`open_for`] and [`try_seal_for`].

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::Aead;
use chacha20poly1305::{ChaCha20Poly1305, KeyInit, Nonce};
use ed25519_dalek::{SigningKey, VerifyingKey};

use super::{Hash, tagged_hash};

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

/// `seq` big-endian, padded left with zeros to 12 bytes (DESIGN's nonce; here an input of
/// the [`synthetic_nonce`]).
pub fn seq_nonce(seq: u64) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[4..].copy_from_slice(&seq.to_be_bytes());
    n
}

/// The key of notes sealed for oneself: `SHA-256("umpire/seal/1\0" ‖ secret_seed ‖ game_id)`.
pub fn seal_key(secret_seed: &[u8; 32], game_id: &Hash) -> [u8; 32] {
    tagged_hash("umpire/seal/1", &[secret_seed, game_id.as_bytes()]).0
}

/// The synthetic nonce: `SHA-256("umpire/seal-nonce/1\0" ‖ key ‖ seq_nonce(seq) ‖ plain)[0..12]`.
pub fn synthetic_nonce(key: &[u8; 32], seq: u64, plain: &[u8]) -> [u8; 12] {
    let h = tagged_hash("umpire/seal-nonce/1", &[key, &seq_nonce(seq), plain]);
    let mut n = [0u8; 12];
    n.copy_from_slice(&h.0[..12]);
    n
}

fn encrypt(key: &[u8; 32], seq: u64, plain: &[u8]) -> String {
    let cipher = ChaCha20Poly1305::new(&(*key).into());
    let n = synthetic_nonce(key, seq, plain);
    // Encryption only fails for plaintexts over 256 GiB, far beyond any entry.
    let ct = cipher.encrypt(&Nonce::from(n), plain).expect("ChaCha20-Poly1305 plaintext too long");
    let mut out = n.to_vec();
    out.extend(ct);
    STANDARD.encode(out)
}

fn decrypt(key: &[u8; 32], seq: u64, sealed_b64: &str) -> Result<Vec<u8>, SealError> {
    let raw = STANDARD.decode(sealed_b64.as_bytes()).map_err(|e| SealError::Base64(e.to_string()))?;
    if raw.len() < 12 + 16 {
        return Err(SealError::Open);
    }
    let (n, ct) = raw.split_at(12);
    let n: [u8; 12] = n.try_into().expect("split at 12");
    let cipher = ChaCha20Poly1305::new(&(*key).into());
    let plain = cipher.decrypt(&Nonce::from(n), ct).map_err(|_| SealError::Open)?;
    if synthetic_nonce(key, seq, &plain) != n {
        return Err(SealError::Open);
    }
    Ok(plain)
}

/// Seal `plain` for oneself: key `SHA-256("umpire/seal/1\0" ‖ secret_seed ‖ game_id)`; returns base64.
pub fn seal(secret_seed: &[u8; 32], game_id: &Hash, seq: u64, plain: &[u8]) -> String {
    encrypt(&seal_key(secret_seed, game_id), seq, plain)
}

/// Open a note sealed by [`seal`].
pub fn open(secret_seed: &[u8; 32], game_id: &Hash, seq: u64, sealed_b64: &str) -> Result<Vec<u8>, SealError> {
    decrypt(&seal_key(secret_seed, game_id), seq, sealed_b64)
}

/// The X25519 shared secret between `mine` (its Ed25519 secret scalar) and `theirs`
/// (in Montgomery form). All zeros if `theirs` is a small-order (weak) key.
pub fn shared_secret(mine: &SigningKey, theirs: &VerifyingKey) -> [u8; 32] {
    theirs.to_montgomery().mul_clamped(mine.to_scalar_bytes()).to_bytes()
}

fn checked_shared(mine: &SigningKey, theirs: &VerifyingKey) -> Result<[u8; 32], SealError> {
    let s = shared_secret(mine, theirs);
    if theirs.is_weak() || s == [0u8; 32] {
        return Err(SealError::BadPartner);
    }
    Ok(s)
}

/// Key `SHA-256("umpire/seal-for/1\0" ‖ shared ‖ game_id ‖ author_seat ‖ "\0" ‖ partner_seat)`.
pub fn seal_for_key(shared: &[u8; 32], game_id: &Hash, author_seat: &str, partner_seat: &str) -> [u8; 32] {
    tagged_hash("umpire/seal-for/1", &[shared, game_id.as_bytes(), author_seat.as_bytes(), &[0u8], partner_seat.as_bytes()]).0
}

/// Seal `plain` for `partner_seat` (whose key is `partner`); returns base64.
///
/// Callers should use keys from a checked genesis (never weak); with a weak partner key
/// the note is sealed under an all-zero shared secret, which [`open_for`] refuses. Use
/// [`try_seal_for`] to get an error instead.
pub fn seal_for(
    mine: &SigningKey,
    partner: &VerifyingKey,
    game_id: &Hash,
    author_seat: &str,
    partner_seat: &str,
    seq: u64,
    plain: &[u8],
) -> String {
    let shared = shared_secret(mine, partner);
    encrypt(&seal_for_key(&shared, game_id, author_seat, partner_seat), seq, plain)
}

/// [`seal_for`], refusing a weak partner key.
pub fn try_seal_for(
    mine: &SigningKey,
    partner: &VerifyingKey,
    game_id: &Hash,
    author_seat: &str,
    partner_seat: &str,
    seq: u64,
    plain: &[u8],
) -> Result<String, SealError> {
    let shared = checked_shared(mine, partner)?;
    Ok(encrypt(&seal_for_key(&shared, game_id, author_seat, partner_seat), seq, plain))
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
    let shared = checked_shared(mine, author)?;
    decrypt(&seal_for_key(&shared, game_id, author_seat, partner_seat), seq, sealed_b64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::sha256;

    fn key(b: u8) -> SigningKey {
        SigningKey::from_bytes(&[b; 32])
    }

    #[test]
    fn nonce_layout() {
        assert_eq!(seq_nonce(0), [0; 12]);
        assert_eq!(seq_nonce(0x0102), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(seq_nonce(u64::MAX)[..4], [0; 4]);
    }

    #[test]
    fn seal_round_trip_and_failures() {
        let g = Hash([9; 32]);
        let s = seal(&[1; 32], &g, 5, b"army-7 is DE-8");
        assert_eq!(open(&[1; 32], &g, 5, &s).unwrap(), b"army-7 is DE-8");
        assert_eq!(open(&[2; 32], &g, 5, &s), Err(SealError::Open));
        assert_eq!(open(&[1; 32], &Hash([8; 32]), 5, &s), Err(SealError::Open));
        assert_eq!(open(&[1; 32], &g, 6, &s), Err(SealError::Open));
        assert!(matches!(open(&[1; 32], &g, 5, "%%%"), Err(SealError::Base64(_))));
        for i in [0, 11, 12, 20] {
            let mut raw = STANDARD.decode(&s).unwrap();
            raw[i] ^= 1;
            assert_eq!(open(&[1; 32], &g, 5, &STANDARD.encode(raw)), Err(SealError::Open));
        }
        assert_eq!(open(&[1; 32], &g, 5, "AAAA"), Err(SealError::Open));
        // Deterministic; different plaintexts at one seq get different nonces.
        assert_eq!(seal(&[1; 32], &g, 5, b"army-7 is DE-8"), s);
        let t = seal(&[1; 32], &g, 5, b"army-7 is DE-9");
        assert_ne!(STANDARD.decode(&s).unwrap()[..12], STANDARD.decode(&t).unwrap()[..12]);
        // Layout: nonce ‖ ChaCha20-Poly1305(key, nonce, plain).
        let raw = STANDARD.decode(&s).unwrap();
        let key = seal_key(&[1; 32], &g);
        assert_eq!(raw[..12], synthetic_nonce(&key, 5, b"army-7 is DE-8"));
        let c = ChaCha20Poly1305::new(&key.into());
        assert_eq!(c.encrypt(&Nonce::from(synthetic_nonce(&key, 5, b"army-7 is DE-8")), &b"army-7 is DE-8"[..]).unwrap(), raw[12..]);
        // Key formula.
        let mut m = b"umpire/seal/1\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([9u8; 32]);
        assert_eq!(seal_key(&[1; 32], &g), sha256(&m).0);
    }

    #[test]
    fn shared_secret_is_symmetric() {
        for (a, b) in [(1u8, 2u8), (3, 4), (200, 17)] {
            let (ka, kb) = (key(a), key(b));
            let ab = shared_secret(&ka, &kb.verifying_key());
            let ba = shared_secret(&kb, &ka.verifying_key());
            assert_eq!(ab, ba);
            assert_ne!(ab, [0; 32]);
            // Same as X25519 with the clamped scalar and the base point.
            let pub_a = curve25519_dalek::MontgomeryPoint::mul_base_clamped(ka.to_scalar_bytes());
            assert_eq!(pub_a, ka.verifying_key().to_montgomery());
        }
    }

    #[test]
    fn seal_for_both_directions() {
        let (a, b, c) = (key(1), key(2), key(3));
        let g = Hash([4; 32]);
        let s = seal_for(&a, &b.verifying_key(), &g, "german", "austrian", 7, b"hello partner");
        assert_eq!(open_for(&b, &a.verifying_key(), &g, "german", "austrian", 7, &s).unwrap(), b"hello partner");
        // The other way round.
        let t = seal_for(&b, &a.verifying_key(), &g, "austrian", "german", 8, b"and back");
        assert_eq!(open_for(&a, &b.verifying_key(), &g, "austrian", "german", 8, &t).unwrap(), b"and back");
        // Wrong reader, wrong seats, wrong seq, wrong game.
        assert_eq!(open_for(&c, &a.verifying_key(), &g, "german", "austrian", 7, &s), Err(SealError::Open));
        assert_eq!(open_for(&b, &a.verifying_key(), &g, "austrian", "german", 7, &s), Err(SealError::Open));
        assert_eq!(open_for(&b, &a.verifying_key(), &g, "german", "austrian", 8, &s), Err(SealError::Open));
        assert_eq!(open_for(&b, &a.verifying_key(), &Hash([0; 32]), "german", "austrian", 7, &s), Err(SealError::Open));
        // try_seal_for agrees with seal_for.
        assert_eq!(try_seal_for(&a, &b.verifying_key(), &g, "german", "austrian", 7, b"hello partner").unwrap(), s);
        // Seat separator: ("ab","c") and ("a","bc") give different keys.
        let sh = shared_secret(&a, &b.verifying_key());
        assert_ne!(seal_for_key(&sh, &g, "ab", "c"), seal_for_key(&sh, &g, "a", "bc"));
    }

    #[test]
    fn weak_partner_refused() {
        // The identity point (small order) as a verifying key.
        let mut id = [0u8; 32];
        id[0] = 1;
        let weak = VerifyingKey::from_bytes(&id).unwrap();
        assert!(weak.is_weak());
        let a = key(1);
        assert_eq!(try_seal_for(&a, &weak, &Hash([0; 32]), "a", "b", 1, b"x"), Err(SealError::BadPartner));
        assert_eq!(open_for(&a, &weak, &Hash([0; 32]), "b", "a", 1, "AAAA"), Err(SealError::BadPartner));
    }
}
