//! Dice: seed derivation, rolls and shuffles (DESIGN §2.5), pinned by `tests/vectors/`.
//!
//! `roll(n)` draws `x = next_u32()` from `ChaCha20Rng::from_seed(seed)` (rand_chacha: key =
//! seed, 64-bit block counter from 0, stream 0, each block's 16 little-endian words in
//! order), rejects while `x ≥ (2^32 / n) · n` and returns `x mod n`. `roll(0)` returns 0
//! without drawing (rulesets never ask for it). Shuffles are Fisher–Yates from the last
//! position down with a die of `i+1` faces for position `i`.
//!
//! [`Dice::forced`] gives chosen faces for rule-case tests, then continues from the
//! all-zero seed.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

use crate::crypto::{Hash, tagged_hash};

/// `seed(E) = SHA-256("umpire/dice/2\0" ‖ reveal(E) ‖ reveal(F))` (DESIGN §2.5): chain values
/// only, so re-sending or re-dating E cannot change its roll.
pub fn dice_seed(reveal_e: &Hash, reveal_f: &Hash) -> Hash {
    tagged_hash("umpire/dice/2", &[reveal_e.as_bytes(), reveal_f.as_bytes()])
}

/// `seed_lead(E) = SHA-256("umpire/lead-dice/2\0" ‖ reveal(P) ‖ reveal(E))`: the leading roll
/// that opens E, P being the latest orders/ack entry of the other side (DESIGN §2.5).
pub fn lead_seed(reveal_p: &Hash, reveal_e: &Hash) -> Hash {
    tagged_hash("umpire/lead-dice/2", &[reveal_p.as_bytes(), reveal_e.as_bytes()])
}

/// A stream of fair dice from one seed: ChaCha20 with rejection sampling.
pub struct Dice {
    rng: rand_chacha::ChaCha20Rng,
    rolls: u64,
    /// Forced face indices still to give (rule-case tests), in reverse order.
    forced: Vec<u32>,
}

impl Dice {
    /// `ChaCha20Rng::from_seed(seed)`.
    pub fn from_seed(seed: &Hash) -> Dice {
        Dice { rng: ChaCha20Rng::from_seed(seed.0), rolls: 0, forced: Vec::new() }
    }
    /// Dice that give `faces` (0-based face indices) in order, each taken modulo the
    /// number of faces of the die asked for; when they run out, the stream continues as
    /// [`Dice::from_seed`] of 32 zero bytes. For rule-case tests.
    pub fn forced(faces: Vec<u32>) -> Dice {
        let mut forced = faces;
        forced.reverse();
        Dice { rng: ChaCha20Rng::from_seed([0u8; 32]), rolls: 0, forced }
    }
    /// How many forced faces are still to be given.
    pub fn forced_remaining(&self) -> usize {
        self.forced.len()
    }
    /// One die with `faces` faces (≥ 1): face index 0..faces, by rejection sampling
    /// (`x = next_u32`; reject while `x ≥ (2^32 / n) · n`; return `x mod n`).
    /// `roll(0)` returns 0 and draws nothing (a ruleset bug, never a panic).
    pub fn roll(&mut self, faces: u32) -> u32 {
        if faces == 0 {
            return 0;
        }
        self.rolls += 1;
        if let Some(f) = self.forced.pop() {
            return f % faces;
        }
        let n = u64::from(faces);
        let limit = ((1u64 << 32) / n) * n;
        loop {
            let x = u64::from(self.rng.next_u32());
            if x < limit {
                return (x % n) as u32;
            }
        }
    }
    /// A d6 as 1..=6.
    pub fn d6(&mut self) -> u32 {
        self.roll(6) + 1
    }
    /// Fisher–Yates from the last position down, a die of `i+1` faces for position `i`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let faces = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let j = self.roll(faces) as usize;
            items.swap(i, j);
        }
    }
    /// How many dice have been rolled from this stream.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::sha256;

    #[test]
    fn seed_layout() {
        let mut m = b"umpire/dice/2\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([2u8; 32]);
        assert_eq!(dice_seed(&Hash([1; 32]), &Hash([2; 32])), sha256(&m));
        let mut m = b"umpire/lead-dice/2\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([2u8; 32]);
        assert_eq!(lead_seed(&Hash([1; 32]), &Hash([2; 32])), sha256(&m));
    }

    #[test]
    fn rolls_follow_the_formula() {
        let seed = Hash([7; 32]);
        let mut raw = ChaCha20Rng::from_seed(seed.0);
        let mut d = Dice::from_seed(&seed);
        for n in [1u32, 2, 3, 6, 10, 12, 20, 100, 1_000_000_007, u32::MAX] {
            let want = loop {
                let x = raw.next_u32() as u64;
                let lim = ((1u64 << 32) / n as u64) * n as u64;
                if x < lim {
                    break (x % n as u64) as u32;
                }
            };
            assert_eq!(d.roll(n), want);
        }
        assert_eq!(d.rolls(), 10);
    }

    #[test]
    fn rejection_happens() {
        // n = 2^31 + 1: limit is 2^31 + 1, so about half the draws are rejected.
        let n = (1u32 << 31) + 1;
        let mut raw = ChaCha20Rng::from_seed([3; 32]);
        let mut d = Dice::from_seed(&Hash([3; 32]));
        let mut rejected = 0;
        for _ in 0..50 {
            let got = d.roll(n);
            let want = loop {
                let x = raw.next_u32();
                if (x as u64) < n as u64 {
                    break x;
                }
                rejected += 1;
            };
            assert_eq!(got, want);
        }
        assert!(rejected > 0);
    }

    #[test]
    fn chacha_matches_rfc8439_block_with_zero_nonce() {
        // rand_chacha: key = seed, counter from 0, nonce 0: first word of the keystream
        // for the all-zero key (RFC 8439 A.1 test vector 1: 76 b8 e0 ad ...).
        let mut r = ChaCha20Rng::from_seed([0; 32]);
        assert_eq!(r.next_u32(), u32::from_le_bytes([0x76, 0xb8, 0xe0, 0xad]));
    }

    #[test]
    fn zero_faces_does_not_panic() {
        let mut d = Dice::from_seed(&Hash([0; 32]));
        assert_eq!(d.roll(0), 0);
        assert_eq!(d.rolls(), 0);
    }

    #[test]
    fn forced_then_zero_stream() {
        let mut d = Dice::forced(vec![5, 0, 13]);
        assert_eq!(d.forced_remaining(), 3);
        assert_eq!(d.d6(), 6);
        assert_eq!(d.roll(10), 0);
        assert_eq!(d.roll(10), 3);
        assert_eq!(d.forced_remaining(), 0);
        let mut z = Dice::from_seed(&Hash([0; 32]));
        for _ in 0..5 {
            assert_eq!(d.roll(6), z.roll(6));
        }
        assert_eq!(d.rolls(), 8);
    }

    #[test]
    fn shuffle_is_fisher_yates() {
        let seed = Hash([11; 32]);
        let mut d = Dice::from_seed(&seed);
        let mut v: Vec<u32> = (0..10).collect();
        d.shuffle(&mut v);
        let mut e = Dice::from_seed(&seed);
        let mut w: Vec<u32> = (0..10).collect();
        for i in (1..10).rev() {
            let j = e.roll(i as u32 + 1) as usize;
            w.swap(i, j);
        }
        assert_eq!(v, w);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        let mut empty: [u8; 0] = [];
        d.shuffle(&mut empty);
        let mut one = [1];
        d.shuffle(&mut one);
    }
}
