//! Combat tables: odds (GE-13.9–13.11, 13.13) and the CRT (digest E.1).
//!
//! Integer arithmetic only; the CRT is transcribed from the digest, read row by row (the
//! reading that reproduces the 13.3 example: 3:1, roll 6 → 0/2R).

use serde::{Deserialize, Serialize};

pub use crate::engine::odds::Odds;

/// The GE CRT's columns, 1:2 to 5:1 (GE-13.11, 13.13).
const GE_COLUMNS: crate::engine::odds::Columns = crate::engine::odds::Columns { worst: 2, best: 5 };

/// CRT column labels, index = column.
pub const COLUMNS: [&str; 6] = ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1"];

/// Odds from total attack `a` and defence `d` (GE-13.9–13.11, 13.13), by the procedure the
/// 1914 box shares ([`crate::engine::odds`]).
///
/// D = 0 (reading of the digest's recommendation for 13.11): 5:1 column with +6 DRM,
/// which makes any roll a final 6.
pub fn odds(a: u32, d: u32) -> Odds {
    if a == 0 {
        return Odds::Automatic;
    }
    if d == 0 {
        return Odds::Column { column: 5, extra_drm: 6 };
    }
    GE_COLUMNS.odds(a, d)
}

/// The odds as players write them: `"3:1"`, `"1:2"`, `"7:1"`, `"1:4"`.
pub fn odds_text(a: u32, d: u32) -> String {
    crate::engine::odds::text(a, d)
}

/// One CRT result: attacker LP / defender LP, and whether the defender must retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrtResult {
    pub attacker_lp: u32,
    pub defender_lp: u32,
    pub retreat: bool,
}

impl std::fmt::Display for CrtResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}{}", self.attacker_lp, self.defender_lp, if self.retreat { "R" } else { "" })
    }
}

const fn r(a: u32, d: u32, retreat: bool) -> CrtResult {
    CrtResult { attacker_lp: a, defender_lp: d, retreat }
}

/// The CRT, `CRT[roll − 1][column]` (digest E.1).
pub const CRT: [[CrtResult; 6]; 6] = [
    [r(1, 0, false), r(2, 0, false), r(2, 1, false), r(2, 2, false), r(2, 2, false), r(2, 2, true)],
    [r(1, 0, false), r(1, 1, false), r(1, 1, false), r(2, 2, false), r(2, 2, true), r(2, 2, true)],
    [r(1, 0, false), r(1, 1, false), r(1, 1, false), r(1, 1, true), r(1, 1, true), r(0, 2, true)],
    [r(1, 1, false), r(1, 1, false), r(1, 1, true), r(0, 1, true), r(1, 2, true), r(0, 2, true)],
    [r(1, 1, false), r(1, 1, true), r(1, 1, true), r(0, 2, true), r(0, 2, true), r(0, 3, true)],
    [r(0, 1, true), r(0, 2, true), r(0, 2, true), r(0, 2, true), r(0, 3, true), r(0, 3, true)],
];

/// The automatic result below 1:2 (GE-13.11).
pub const AUTOMATIC: CrtResult = r(2, 0, false);

/// The final roll: die + DRM, clamped to 1..=6 (GE-13.12).
pub fn final_roll(die: u32, drm: i32) -> u32 {
    (die as i32 + drm).clamp(1, 6) as u32
}

/// Read the CRT for a column and a final (clamped) roll.
pub fn crt(column: usize, final_roll: u32) -> CrtResult {
    let row = (final_roll.clamp(1, 6) - 1) as usize;
    CRT[row][column.min(5)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_examples() {
        assert_eq!(odds(26, 7), Odds::Column { column: 3, extra_drm: 0 });
        assert_eq!(odds(9, 11), Odds::Column { column: 0, extra_drm: 0 });
        assert_eq!(odds(5, 16), Odds::Automatic);
        assert_eq!(odds(35, 5), Odds::Column { column: 5, extra_drm: 2 });
        assert_eq!(crt(3, 6).to_string(), "0/2R");
    }
}
