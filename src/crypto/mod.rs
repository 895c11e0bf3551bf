//! Keys, hash chains, commitments and sealing (DESIGN §2.1, §2.5, §2.6).

pub mod chain;
pub mod commit;
pub mod draw;
pub mod hash;
pub mod keys;
pub mod seal;

pub use hash::{Hash, sha256, tagged_hash};
