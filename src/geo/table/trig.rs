//! The pinned cosine table (digest D.1 "Trig table"), built at compile time with integers.
//!
//! `COS[t] = round(10⁶ · cos(t · π / 1800))` for `t = 0..=900` (tenths of a degree), rounded
//! half away from zero. The digest pins the values (sum 573 457 649 and a SHA-256 of the
//! comma-separated decimals); the tests check both.
//!
//! No floating point is used, even to build the table: `cos` and `sin` are evaluated by their
//! Taylor series in fixed point with 18 decimals (`i128`), on arguments of at most π/4
//! (`cos t = sin(900 − t)` for `t > 450`). The truncation error is below 10⁻¹⁶, and no table
//! value lies within 2·10⁻⁴ of a rounding tie, so every entry is the exact rounding.

/// Scale of [`COS`] and of [`dir`]: 10⁶.
pub const TRIG_SCALE: i64 = 1_000_000;

/// 10¹⁸: the fixed-point scale used only while building the table.
const FIX: i128 = 1_000_000_000_000_000_000;
/// ⌊π · 10¹⁸⌋.
const PI_FIX: i128 = 3_141_592_653_589_793_238;

/// `cos(x)` (even) or `sin(x)` (odd) for `x` in fixed point, by Taylor series.
const fn series(x: i128, odd: bool) -> i128 {
    let x2 = x * x / FIX;
    let mut term = if odd { x } else { FIX };
    let mut sum = term;
    let mut k: i128 = if odd { 1 } else { 0 };
    let mut sign: i128 = 1;
    while term != 0 {
        term = term * x2 / FIX / ((k + 1) * (k + 2));
        k += 2;
        sign = -sign;
        sum += sign * term;
    }
    sum
}

const fn build() -> [i32; 901] {
    let mut table = [0i32; 901];
    let mut t = 0;
    while t <= 900 {
        let v = if t <= 450 { series(t as i128 * PI_FIX / 1800, false) } else { series((900 - t) as i128 * PI_FIX / 1800, true) };
        // v ≥ 0 here; round half away from zero from 10¹⁸ to 10⁶.
        let scaled = (v + FIX / 2_000_000) / (FIX / 1_000_000);
        table[t] = scaled as i32;
        t += 1;
    }
    table
}

/// `COS[t]` for `t` in tenths of a degree, `0..=900`, scale 10⁶.
pub const COS: [i32; 901] = build();

/// `(cos θ, sin θ)` at scale 10⁶ for any heading in tenths (`θ` is taken modulo 3600), from
/// [`COS`] by quadrant symmetry. `dir(0) = (10⁶, 0)` points along +x; angles grow
/// counter-clockwise.
pub fn dir(tenths: i32) -> (i64, i64) {
    let t = tenths.rem_euclid(3600) as usize;
    let (q, r) = (t / 900, t % 900);
    let c = COS[r] as i64;
    let s = COS[900 - r] as i64;
    match q {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    #[test]
    fn pinned_values() {
        assert_eq!(COS[0], 1_000_000);
        assert_eq!(COS[150], 965_926);
        assert_eq!(COS[220], 927_184);
        assert_eq!(COS[450], 707_107);
        assert_eq!(COS[600], 500_000);
        assert_eq!(COS[750], 258_819);
        assert_eq!(COS[900], 0);
        assert_eq!(COS[1], 999_998);
    }

    #[test]
    fn pinned_sum_and_hash() {
        let sum: i64 = COS.iter().map(|&c| c as i64).sum();
        assert_eq!(sum, 573_457_649);
        let text = COS.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",");
        let hash = hex::encode(Sha256::digest(text.as_bytes()));
        assert_eq!(hash, "ef0650727e556881a11022a416e5d8d820f511e014129345cc941b58f97a42de");
    }

    #[test]
    fn strictly_monotonic() {
        for t in 0..900 {
            assert!(COS[t] > COS[t + 1], "COS not decreasing at {t}");
        }
    }

    #[test]
    fn quadrants() {
        assert_eq!(dir(0), (1_000_000, 0));
        assert_eq!(dir(900), (0, 1_000_000));
        assert_eq!(dir(1800), (-1_000_000, 0));
        assert_eq!(dir(2700), (0, -1_000_000));
        assert_eq!(dir(3600), dir(0));
        assert_eq!(dir(-900), dir(2700));
        assert_eq!(dir(300), (866_025, 500_000));
        assert_eq!(dir(1200), (-500_000, 866_025));
        assert_eq!(dir(2100), (-866_025, -500_000));
        assert_eq!(dir(3300), (866_025, -500_000));
    }
}
