//! Per-seat hash chains for commit-reveal dice (DESIGN §2.5).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use super::{Hash, sha256, tagged_hash};

/// `s = SHA-256("umpire/chain/1\0" ‖ secret_seed ‖ nonce ‖ seat)`.
pub fn chain_seed(secret_seed: &[u8; 32], nonce: &[u8; 32], seat: &str) -> Hash {
    tagged_hash("umpire/chain/1", &[secret_seed, nonce, seat.as_bytes()])
}

/// `c_i = H^(L−i)(s)`; `c_0` is the anchor. Panics never: `i > length` returns `None`.
pub fn chain_value(seed: &Hash, length: u64, i: u64) -> Option<Hash> {
    if i > length {
        return None;
    }
    let mut c = *seed;
    for _ in 0..(length - i) {
        c = sha256(c.as_bytes());
    }
    Some(c)
}

/// `H(reveal) == previous`.
pub fn reveal_follows(reveal: &Hash, previous: &Hash) -> bool {
    sha256(reveal.as_bytes()) == *previous
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_layout() {
        let mut m = b"umpire/chain/1\0".to_vec();
        m.extend([1u8; 32]);
        m.extend([2u8; 32]);
        m.extend(b"red");
        assert_eq!(chain_seed(&[1; 32], &[2; 32], "red"), sha256(&m));
    }

    #[test]
    fn chain_links() {
        let s = chain_seed(&[7; 32], &[9; 32], "blue");
        let l = 10;
        assert_eq!(chain_value(&s, l, l), Some(s));
        assert_eq!(chain_value(&s, l, l + 1), None);
        let anchor = chain_value(&s, l, 0).unwrap();
        let mut h = s;
        for _ in 0..l {
            h = sha256(h.as_bytes());
        }
        assert_eq!(anchor, h);
        for i in 1..=l {
            let c = chain_value(&s, l, i).unwrap();
            let p = chain_value(&s, l, i - 1).unwrap();
            assert!(reveal_follows(&c, &p));
            assert!(!reveal_follows(&p, &c));
        }
    }
}
