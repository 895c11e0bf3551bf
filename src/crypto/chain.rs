//! Per-seat hash chains for commit-reveal dice (DESIGN §2.5).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use super::Hash;

/// `s = SHA-256("umpire/chain/1\0" ‖ secret_seed ‖ nonce ‖ seat)`.
pub fn chain_seed(secret_seed: &[u8; 32], nonce: &[u8; 32], seat: &str) -> Hash {
    todo!()
}

/// `c_i = H^(L−i)(s)`; `c_0` is the anchor. Panics never: `i > length` returns `None`.
pub fn chain_value(seed: &Hash, length: u64, i: u64) -> Option<Hash> {
    todo!()
}

/// `H(reveal) == previous`.
pub fn reveal_follows(reveal: &Hash, previous: &Hash) -> bool {
    todo!()
}
