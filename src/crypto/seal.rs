//! Sealed notes, to oneself and to a partner seat (DESIGN §2.6).
//!
//! Both kinds use ChaCha20-Poly1305 (no associated data) with the keys of DESIGN §2.6.
//!
//! **Padding.** A ciphertext is as long as its plaintext, so an unpadded note would tell its
//! length, and the length of `chit@9: chit:steamroller` names the chit. The plaintext is
//! therefore `p = plain ‖ 0x00…`: at least one zero byte, up to a length the caller fixes for
//! the kind of note (a multiple of [`PAD_BLOCK`], the same for every note of that kind; see
//! [`crate::engine::hidden::SealedNote::padded_len`]). A note never contains a zero byte
//! ([`SealError::ZeroByte`]), so opening strips the trailing zeros and gets `plain` back.
//!
//! **Nonce.** The nonce is *synthetic* (deterministic, misuse-resistant):
//! `n = SHA-256("umpire/seal-nonce/1\0" ‖ key ‖ seq_nonce(seq) ‖ p)[0..12]`, over the padded
//! `p`, and the sealed text is base64 (standard, padded) of `n(12) ‖ ciphertext ‖ tag(16)`.
//! A seat that signs two different entries at the same `seq` (a take-back under §2.7, or an
//! entry re-signed after the opponent refused it) would, with a counter nonce, encrypt two
//! notes under one key and nonce (the XOR of the ciphertexts is the XOR of the plaintexts,
//! and Poly1305's one-time key is reused). Equal synthetic nonces only occur for equal
//! padded plaintexts at the same seq, which give equal ciphertexts: nothing leaks.
//! Opening decrypts with the carried nonce, recomputes it from `p` and the expected `seq` and
//! refuses a mismatch (so a note is bound to its `seq`, and each (key, seq, p) has exactly
//! one valid sealed text), then refuses a pad that is not zeros, is empty, or leaves `p` a
//! length other than a multiple of [`PAD_BLOCK`].
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
    /// A note holds a zero byte: the padding could not be told from it.
    #[error("a sealed note may not contain a zero byte")]
    ZeroByte,
    /// The note does not fit the padded length of its kind (at least one zero byte).
    #[error("the note is {len} bytes; its kind is padded to {padded}, which leaves no room for the zero byte that ends it")]
    TooLong { len: usize, padded: usize },
    /// The padded length is not a positive multiple of [`PAD_BLOCK`].
    #[error("notes are padded to a positive multiple of {PAD_BLOCK} bytes, not {0}")]
    BadPadLength(usize),
    /// The note opened but its padding is wrong (no zero byte, a non-zero tail, a length that
    /// is not a multiple of [`PAD_BLOCK`], or a zero byte inside the note).
    #[error("the sealed note opened but is not padded as DESIGN §2.6 says")]
    Padding,
}

/// Padded plaintexts are a multiple of this many bytes (DESIGN §2.6).
pub const PAD_BLOCK: usize = 256;

/// `plain ‖ 0x00…` up to `padded` bytes; refuses a zero byte in `plain`, a `padded` that is
/// not a positive multiple of [`PAD_BLOCK`], and a note with no room for one zero byte.
pub fn pad(plain: &[u8], padded: usize) -> Result<Vec<u8>, SealError> {
    if padded == 0 || !padded.is_multiple_of(PAD_BLOCK) {
        return Err(SealError::BadPadLength(padded));
    }
    if plain.contains(&0) {
        return Err(SealError::ZeroByte);
    }
    if plain.len() >= padded {
        return Err(SealError::TooLong { len: plain.len(), padded });
    }
    let mut p = Vec::with_capacity(padded);
    p.extend_from_slice(plain);
    p.resize(padded, 0);
    Ok(p)
}

/// The note inside a padded plaintext: refuses a length that is not a positive multiple of
/// [`PAD_BLOCK`], a last byte that is not zero, and a zero byte left inside once the trailing
/// zeros are stripped (a note never holds one, so such a text was not made by [`pad`]).
pub fn unpad(mut p: Vec<u8>) -> Result<Vec<u8>, SealError> {
    if p.is_empty() || !p.len().is_multiple_of(PAD_BLOCK) || p.last() != Some(&0) {
        return Err(SealError::Padding);
    }
    while p.last() == Some(&0) {
        p.pop();
    }
    if p.contains(&0) {
        return Err(SealError::Padding);
    }
    Ok(p)
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

/// The synthetic nonce: `SHA-256("umpire/seal-nonce/1\0" ‖ key ‖ seq_nonce(seq) ‖ p)[0..12]`,
/// `p` the padded plaintext.
pub fn synthetic_nonce(key: &[u8; 32], seq: u64, p: &[u8]) -> [u8; 12] {
    let h = tagged_hash("umpire/seal-nonce/1", &[key, &seq_nonce(seq), p]);
    let mut n = [0u8; 12];
    n.copy_from_slice(&h.0[..12]);
    n
}

fn encrypt(key: &[u8; 32], seq: u64, plain: &[u8], padded: usize) -> Result<String, SealError> {
    let p = pad(plain, padded)?;
    let cipher = ChaCha20Poly1305::new(&(*key).into());
    let n = synthetic_nonce(key, seq, &p);
    // Encryption only fails for plaintexts over 256 GiB, far beyond any entry.
    let ct = cipher.encrypt(&Nonce::from(n), p.as_slice()).expect("ChaCha20-Poly1305 plaintext too long");
    let mut out = n.to_vec();
    out.extend(ct);
    Ok(STANDARD.encode(out))
}

fn decrypt(key: &[u8; 32], seq: u64, sealed_b64: &str) -> Result<Vec<u8>, SealError> {
    let raw = STANDARD.decode(sealed_b64.as_bytes()).map_err(|e| SealError::Base64(e.to_string()))?;
    if raw.len() < 12 + 16 {
        return Err(SealError::Open);
    }
    let (n, ct) = raw.split_at(12);
    let n: [u8; 12] = n.try_into().expect("split at 12");
    let cipher = ChaCha20Poly1305::new(&(*key).into());
    let p = cipher.decrypt(&Nonce::from(n), ct).map_err(|_| SealError::Open)?;
    if synthetic_nonce(key, seq, &p) != n {
        return Err(SealError::Open);
    }
    unpad(p)
}

/// The length of the padded plaintext inside a sealed text (base64 of nonce ‖ ct ‖ tag), for
/// the public check that a note has the length of its kind; `None` if it is not base64 or
/// too short.
pub fn sealed_plain_len(sealed_b64: &str) -> Option<usize> {
    let raw = STANDARD.decode(sealed_b64.as_bytes()).ok()?;
    raw.len().checked_sub(12 + 16)
}

/// Seal `plain` for oneself, padded to `padded` bytes: key
/// `SHA-256("umpire/seal/1\0" ‖ secret_seed ‖ game_id)`; returns base64.
pub fn seal(secret_seed: &[u8; 32], game_id: &Hash, seq: u64, plain: &[u8], padded: usize) -> Result<String, SealError> {
    encrypt(&seal_key(secret_seed, game_id), seq, plain, padded)
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

/// Seal `plain` for `partner_seat` (whose key is `partner`), padded to `padded` bytes;
/// returns base64.
///
/// Callers should use keys from a checked genesis (never weak); with a weak partner key
/// the note is sealed under an all-zero shared secret, which [`open_for`] refuses. Use
/// [`try_seal_for`] to get an error instead.
#[allow(clippy::too_many_arguments)] // the DESIGN key's inputs, each needed
pub fn seal_for(
    mine: &SigningKey,
    partner: &VerifyingKey,
    game_id: &Hash,
    author_seat: &str,
    partner_seat: &str,
    seq: u64,
    plain: &[u8],
    padded: usize,
) -> Result<String, SealError> {
    let shared = shared_secret(mine, partner);
    encrypt(&seal_for_key(&shared, game_id, author_seat, partner_seat), seq, plain, padded)
}

/// [`seal_for`], refusing a weak partner key.
#[allow(clippy::too_many_arguments)] // the DESIGN key's inputs, each needed
pub fn try_seal_for(
    mine: &SigningKey,
    partner: &VerifyingKey,
    game_id: &Hash,
    author_seat: &str,
    partner_seat: &str,
    seq: u64,
    plain: &[u8],
    padded: usize,
) -> Result<String, SealError> {
    let shared = checked_shared(mine, partner)?;
    encrypt(&seal_for_key(&shared, game_id, author_seat, partner_seat), seq, plain, padded)
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
        let s = seal(&[1; 32], &g, 5, b"army-7 is DE-8", 256).unwrap();
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
        assert_eq!(seal(&[1; 32], &g, 5, b"army-7 is DE-8", 256).unwrap(), s);
        let t = seal(&[1; 32], &g, 5, b"army-7 is DE-9", 256).unwrap();
        assert_ne!(STANDARD.decode(&s).unwrap()[..12], STANDARD.decode(&t).unwrap()[..12]);
        // Layout: nonce ‖ ChaCha20-Poly1305(key, nonce, p), p = plain ‖ zeros to 256 bytes,
        // the nonce computed over p.
        let raw = STANDARD.decode(&s).unwrap();
        assert_eq!(raw.len(), 12 + 256 + 16);
        assert_eq!(sealed_plain_len(&s), Some(256));
        let key = seal_key(&[1; 32], &g);
        let mut p = b"army-7 is DE-8".to_vec();
        p.resize(256, 0);
        assert_eq!(raw[..12], synthetic_nonce(&key, 5, &p));
        let c = ChaCha20Poly1305::new(&key.into());
        assert_eq!(c.encrypt(&Nonce::from(synthetic_nonce(&key, 5, &p)), p.as_slice()).unwrap(), raw[12..]);
        // Key formula.
        let mut m = b"umpire/seal/1\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([9u8; 32]);
        assert_eq!(seal_key(&[1; 32], &g), sha256(&m).0);
    }

    /// A note sealed by hand (right key, right synthetic nonce) around the padded text `p`.
    fn seal_raw(p: &[u8]) -> String {
        let key = seal_key(&[1; 32], &Hash([9; 32]));
        let n = synthetic_nonce(&key, 5, p);
        let mut out = n.to_vec();
        out.extend(ChaCha20Poly1305::new(&key.into()).encrypt(&Nonce::from(n), p).unwrap());
        STANDARD.encode(out)
    }

    #[test]
    fn padding_hides_the_length_and_is_checked() {
        let g = Hash([9; 32]);
        // Every note of one padded length has one sealed length, whatever it holds.
        let lens: std::collections::BTreeSet<usize> = ["", "x", "chit@3: chit:steamroller", &"y".repeat(255)]
            .iter()
            .map(|n| seal(&[1; 32], &g, 5, n.as_bytes(), 256).unwrap().len())
            .collect();
        assert_eq!(lens.len(), 1);
        assert_eq!(seal(&[1; 32], &g, 5, &[b'y'; 300], 512).unwrap().len(), STANDARD.encode([0u8; 12 + 512 + 16]).len());
        // Refused when sealing: a zero byte, no room for the final zero, a bad padded length.
        assert_eq!(seal(&[1; 32], &g, 5, b"a\0b", 256), Err(SealError::ZeroByte));
        assert_eq!(seal(&[1; 32], &g, 5, &[b'y'; 256], 256), Err(SealError::TooLong { len: 256, padded: 256 }));
        assert_eq!(seal(&[1; 32], &g, 5, b"a", 100), Err(SealError::BadPadLength(100)));
        assert_eq!(seal(&[1; 32], &g, 5, b"a", 0), Err(SealError::BadPadLength(0)));
        // Refused when opening, though the nonce and tag are right: a non-zero tail, a short
        // pad (not a multiple of 256, or no zero byte at all), a zero byte inside the note.
        let mut p = b"chit@3: chit:x".to_vec();
        p.resize(256, 0);
        assert_eq!(open(&[1; 32], &g, 5, &seal_raw(&p)).unwrap(), b"chit@3: chit:x");
        let mut tail = p.clone();
        tail[255] = b' ';
        assert_eq!(open(&[1; 32], &g, 5, &seal_raw(&tail)), Err(SealError::Padding));
        assert_eq!(open(&[1; 32], &g, 5, &seal_raw(&p[..100])), Err(SealError::Padding));
        assert_eq!(open(&[1; 32], &g, 5, &seal_raw(b"chit@3: chit:x")), Err(SealError::Padding));
        assert_eq!(open(&[1; 32], &g, 5, &seal_raw(&[b'y'; 256])), Err(SealError::Padding));
        let mut inner = p.clone();
        inner[3] = 0;
        assert_eq!(open(&[1; 32], &g, 5, &seal_raw(&inner)), Err(SealError::Padding));
        // Padding is stripped; several zero bytes are one pad.
        assert_eq!(unpad(vec![b'a', 0].into_iter().chain(std::iter::repeat_n(0, 254)).collect()), Ok(b"a".to_vec()));
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
        let s = seal_for(&a, &b.verifying_key(), &g, "german", "austrian", 7, b"hello partner", 256).unwrap();
        assert_eq!(open_for(&b, &a.verifying_key(), &g, "german", "austrian", 7, &s).unwrap(), b"hello partner");
        // The other way round.
        let t = seal_for(&b, &a.verifying_key(), &g, "austrian", "german", 8, b"and back", 512).unwrap();
        assert_eq!(open_for(&a, &b.verifying_key(), &g, "austrian", "german", 8, &t).unwrap(), b"and back");
        // Wrong reader, wrong seats, wrong seq, wrong game.
        assert_eq!(open_for(&c, &a.verifying_key(), &g, "german", "austrian", 7, &s), Err(SealError::Open));
        assert_eq!(open_for(&b, &a.verifying_key(), &g, "austrian", "german", 7, &s), Err(SealError::Open));
        assert_eq!(open_for(&b, &a.verifying_key(), &g, "german", "austrian", 8, &s), Err(SealError::Open));
        assert_eq!(open_for(&b, &a.verifying_key(), &Hash([0; 32]), "german", "austrian", 7, &s), Err(SealError::Open));
        // try_seal_for agrees with seal_for.
        assert_eq!(try_seal_for(&a, &b.verifying_key(), &g, "german", "austrian", 7, b"hello partner", 256).unwrap(), s);
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
        assert_eq!(try_seal_for(&a, &weak, &Hash([0; 32]), "a", "b", 1, b"x", 256), Err(SealError::BadPartner));
        assert_eq!(open_for(&a, &weak, &Hash([0; 32]), "b", "a", 1, "AAAA"), Err(SealError::BadPartner));
    }
}
