//! Private draws (DESIGN §2.6): only the drawer learns the result until it opens `r`.
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use super::Hash;

/// `r = SHA-256("umpire/draw/1\0" ‖ secret_seed ‖ game_id ‖ draw_id)`.
pub fn draw_secret(secret_seed: &[u8; 32], game_id: &Hash, draw_id: &str) -> Hash {
    todo!()
}

/// `SHA-256("umpire/private-dice/1\0" ‖ r ‖ reveal(F))`: the seed of the private draw.
pub fn private_dice_seed(r: &Hash, reveal: &Hash) -> Hash {
    todo!()
}
