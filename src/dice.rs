//! Dice: seed derivation, rolls and shuffles (DESIGN §2.5), pinned by `tests/vectors/`.
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use crate::crypto::Hash;

/// `seed(E) = SHA-256("umpire/dice/1\0" ‖ hash(E) ‖ reveal(F))`.
pub fn dice_seed(entry_hash: &Hash, reveal: &Hash) -> Hash {
    todo!()
}

/// A stream of fair dice from one seed: ChaCha20 with rejection sampling.
pub struct Dice {
    rng: rand_chacha::ChaCha20Rng,
    rolls: u64,
}

impl Dice {
    /// `ChaCha20Rng::from_seed(seed)`.
    pub fn from_seed(seed: &Hash) -> Dice {
        todo!()
    }
    /// One die with `faces` faces (≥ 1): face index 0..faces, by rejection sampling
    /// (`x = next_u32`; reject while `x ≥ (2^32 / n) · n`; return `x mod n`).
    pub fn roll(&mut self, faces: u32) -> u32 {
        todo!()
    }
    /// A d6 as 1..=6.
    pub fn d6(&mut self) -> u32 {
        self.roll(6) + 1
    }
    /// Fisher–Yates from the last position down, a die of `i+1` faces for position `i`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        todo!()
    }
    /// How many dice have been rolled from this stream.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }
}
