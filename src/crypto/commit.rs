//! Commitments to hidden values (DESIGN §2.6).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use super::{Hash, tagged_hash};

/// `salt = SHA-256("umpire/salt/1\0" ‖ secret_seed ‖ game_id ‖ id)`.
pub fn salt(secret_seed: &[u8; 32], game_id: &Hash, id: &str) -> Hash {
    tagged_hash("umpire/salt/1", &[secret_seed, game_id.as_bytes(), id.as_bytes()])
}

/// `digest = SHA-256("umpire/commit/1\0" ‖ salt ‖ value)`.
pub fn digest(salt: &Hash, value: &str) -> Hash {
    tagged_hash("umpire/commit/1", &[salt.as_bytes(), value.as_bytes()])
}

/// Does `(salt, value)` open `digest`?
pub fn opens(digest_: &Hash, salt: &Hash, value: &str) -> bool {
    digest(salt, value) == *digest_
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::sha256;

    #[test]
    fn formulas() {
        let g = Hash([3; 32]);
        let mut m = b"umpire/salt/1\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([3u8; 32]);
        m.extend(b"army-7");
        let s = salt(&[1; 32], &g, "army-7");
        assert_eq!(s, sha256(&m));
        let mut m = b"umpire/commit/1\0".to_vec();
        m.extend(s.0);
        m.extend(b"army:DE-8");
        let d = digest(&s, "army:DE-8");
        assert_eq!(d, sha256(&m));
        assert!(opens(&d, &s, "army:DE-8"));
        assert!(!opens(&d, &s, "army:DE-9"));
        assert!(!opens(&d, &salt(&[1; 32], &g, "army-8"), "army:DE-8"));
    }
}
