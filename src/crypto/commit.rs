//! Commitments to hidden values (DESIGN §2.6).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use super::Hash;

/// `salt = SHA-256("umpire/salt/1\0" ‖ secret_seed ‖ game_id ‖ id)`.
pub fn salt(secret_seed: &[u8; 32], game_id: &Hash, id: &str) -> Hash {
    todo!()
}

/// `digest = SHA-256("umpire/commit/1\0" ‖ salt ‖ value)`.
pub fn digest(salt: &Hash, value: &str) -> Hash {
    todo!()
}

/// Does `(salt, value)` open `digest`?
pub fn opens(digest_: &Hash, salt: &Hash, value: &str) -> bool {
    todo!()
}
