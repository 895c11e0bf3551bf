//! Private draws (DESIGN §2.6): only the drawer learns the result until it opens `r`.
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use super::{Hash, tagged_hash};

/// `r = SHA-256("umpire/draw/1\0" ‖ secret_seed ‖ game_id ‖ draw_id)`.
pub fn draw_secret(secret_seed: &[u8; 32], game_id: &Hash, draw_id: &str) -> Hash {
    tagged_hash("umpire/draw/1", &[secret_seed, game_id.as_bytes(), draw_id.as_bytes()])
}

/// `SHA-256("umpire/private-dice/1\0" ‖ r ‖ reveal(F))`: the seed of the private draw.
/// `r` enters as its 32 raw bytes (the commitment *publishes* `r` as hex, but the hash
/// input is the raw value, like every other 32-byte value in the protocol).
pub fn private_dice_seed(r: &Hash, reveal: &Hash) -> Hash {
    tagged_hash("umpire/private-dice/1", &[r.as_bytes(), reveal.as_bytes()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::sha256;

    #[test]
    fn formulas() {
        let g = Hash([5; 32]);
        let mut m = b"umpire/draw/1\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([5u8; 32]);
        m.extend(b"chit-1");
        let r = draw_secret(&[1; 32], &g, "chit-1");
        assert_eq!(r, sha256(&m));
        let mut m = b"umpire/private-dice/1\0".to_vec();
        m.extend(r.0);
        m.extend([6u8; 32]);
        assert_eq!(private_dice_seed(&r, &Hash([6; 32])), sha256(&m));
    }
}
