//! Integer helpers: square roots and divisions with a stated rounding.

/// The least integer `L` with `L² ≥ n` (the square root rounded **up**).
///
/// Used for every length measured between two points (digest D.1 "Lengths"): rounding up
/// never gives a mover extra distance.
pub fn ceil_sqrt(n: u128) -> u128 {
    let r = n.isqrt();
    if r * r == n { r } else { r + 1 }
}

/// `a / b` rounded to the nearest integer, halves **away from zero** (`b` must be positive;
/// a non-positive `b` is treated as 1). Used for trig products (digest D.1 "Rounding").
pub fn round_div(a: i128, b: i128) -> i128 {
    let b = if b > 0 { b } else { 1 };
    let q = (2 * a.unsigned_abs() + b.unsigned_abs()) / (2 * b.unsigned_abs());
    if a < 0 { -(q as i128) } else { q as i128 }
}

/// `a / b` rounded **up** (towards +∞) for a positive `b` (a non-positive `b` is treated as 1).
pub fn ceil_div(a: i128, b: i128) -> i128 {
    let b = if b > 0 { b } else { 1 };
    let q = a.div_euclid(b);
    if a.rem_euclid(b) == 0 { q } else { q + 1 }
}

/// Saturating conversion of an `i128` to `i32` (results outside the table limits are
/// clamped; callers check [`super::point::Point::in_range`] where it matters).
pub fn sat_i32(v: i128) -> i32 {
    v.clamp(i32::MIN as i128, i32::MAX as i128) as i32
}

/// Saturating conversion of a non-negative `u128` to `u32`.
pub fn sat_u32(v: u128) -> u32 {
    v.min(u32::MAX as u128) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_sqrt_boundaries() {
        assert_eq!(ceil_sqrt(0), 0);
        assert_eq!(ceil_sqrt(1), 1);
        assert_eq!(ceil_sqrt(2), 2);
        assert_eq!(ceil_sqrt(24), 5);
        assert_eq!(ceil_sqrt(25), 5);
        assert_eq!(ceil_sqrt(26), 6);
        for r in [2u128, 7, 1000, 65_535, 1 << 40] {
            assert_eq!(ceil_sqrt(r * r), r);
            assert_eq!(ceil_sqrt(r * r - 1), r);
            assert_eq!(ceil_sqrt(r * r + 1), r + 1);
        }
    }

    #[test]
    fn round_div_halves_away_from_zero() {
        assert_eq!(round_div(5, 2), 3);
        assert_eq!(round_div(-5, 2), -3);
        assert_eq!(round_div(4, 3), 1);
        assert_eq!(round_div(-4, 3), -1);
        assert_eq!(round_div(7, 7), 1);
        assert_eq!(round_div(0, 7), 0);
        assert_eq!(round_div(1_500_000, 1_000_000), 2);
        assert_eq!(round_div(1_499_999, 1_000_000), 1);
    }

    #[test]
    fn ceil_div_rounds_up() {
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(ceil_div(6, 2), 3);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(ceil_div(0, 5), 0);
    }
}
