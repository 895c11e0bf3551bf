//! Combat odds as the two games of the 1914 box compute them (Glory's End 13.9–13.13, When
//! Eagles Fight 13.8–13.12): the larger side divided by the smaller, rounded in the defender's
//! favour, read on a table whose columns run from `1:worst` to `best:1`; worse odds are an
//! automatic result, better odds use the best column with +1 DRM per whole step above it.
//!
//! The procedure is shared; the column ranges, the automatic result and the CRT stay with
//! each ruleset. Integer arithmetic only.

use serde::{Deserialize, Serialize};

/// The odds of a battle after rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Odds {
    /// Worse than the table's worst column (or no attack strength): the ruleset's automatic
    /// result, no roll.
    Automatic,
    /// A table column, 0 being the worst (`1:worst`), plus the +1-per-step DRM above the best.
    Column { column: usize, extra_drm: i32 },
}

/// The columns of a table, worst first: `1:worst … 1:2, 1:1, 2:1 … best:1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    /// `n` of the worst column `1:n` (at least 1).
    pub worst: u32,
    /// `n` of the best column `n:1` (at least 1).
    pub best: u32,
}

impl Columns {
    /// The column for a positive attack `a` against a positive defence `d`.
    ///
    /// A ≥ D: ⌊A/D⌋:1; A < D: 1:⌈D/A⌉ (both round in the defender's favour). Beyond the
    /// best column, that column with +1 DRM per whole step; beyond the worst, automatic.
    pub fn odds(self, a: u32, d: u32) -> Odds {
        debug_assert!(a > 0 && d > 0, "odds of an empty side are each ruleset's own reading");
        if a >= d {
            let r = a / d;
            if r >= self.best {
                Odds::Column { column: self.index_for(self.best), extra_drm: (r - self.best) as i32 }
            } else {
                Odds::Column { column: self.index_for(r), extra_drm: 0 }
            }
        } else {
            let r = d.div_ceil(a);
            if r <= self.worst { Odds::Column { column: (self.worst - r) as usize, extra_drm: 0 } } else { Odds::Automatic }
        }
    }

    /// Index of the `r:1` column (r ≥ 1).
    fn index_for(self, r: u32) -> usize {
        (self.worst + r - 2) as usize
    }

    /// Number of columns.
    pub fn len(self) -> usize {
        (self.worst + self.best - 1) as usize
    }

    /// Never: a table has at least the 1:1 column.
    pub fn is_empty(self) -> bool {
        false
    }

    /// The label of column `i` (`"1:2"`, `"3:1"`).
    pub fn label(self, i: usize) -> String {
        let i = i as u32;
        if i + 1 < self.worst { format!("1:{}", self.worst - i) } else { format!("{}:1", i + 2 - self.worst) }
    }
}

/// The odds as players write them: `"3:1"`, `"1:2"`, `"7:1"`, `"1:4"`; `"0:1"` with no
/// attack strength, `"∞:1"` with no defence.
pub fn text(a: u32, d: u32) -> String {
    if a == 0 {
        return "0:1".into();
    }
    if d == 0 {
        return "∞:1".into();
    }
    if a >= d { format!("{}:1", a / d) } else { format!("1:{}", d.div_ceil(a)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOX_1914: Columns = Columns { worst: 2, best: 5 };

    #[test]
    fn both_games_examples() {
        // GE 13.9 / WEF 13.8: 26 vs 7 is 3:1; WEF 13.9: 5 vs 11 is 1:3 (automatic).
        assert_eq!(BOX_1914.odds(26, 7), Odds::Column { column: 3, extra_drm: 0 });
        assert_eq!(BOX_1914.odds(5, 11), Odds::Automatic);
        assert_eq!(BOX_1914.odds(9, 11), Odds::Column { column: 0, extra_drm: 0 });
        assert_eq!(BOX_1914.odds(11, 11), Odds::Column { column: 1, extra_drm: 0 });
        // WEF 13.12: 7:1 is the 5:1 column with +2.
        assert_eq!(BOX_1914.odds(35, 5), Odds::Column { column: 5, extra_drm: 2 });
        assert_eq!(BOX_1914.len(), 6);
        let labels: Vec<String> = (0..6).map(|i| BOX_1914.label(i)).collect();
        assert_eq!(labels, ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1"]);
        assert_eq!(text(5, 11), "1:3");
        assert_eq!(text(26, 7), "3:1");
    }

    #[test]
    fn other_ranges() {
        let c = Columns { worst: 3, best: 6 };
        assert_eq!(c.odds(1, 3), Odds::Column { column: 0, extra_drm: 0 });
        assert_eq!(c.odds(1, 1), Odds::Column { column: 2, extra_drm: 0 });
        assert_eq!(c.odds(6, 1), Odds::Column { column: 7, extra_drm: 0 });
        assert_eq!(c.label(0), "1:3");
        assert_eq!(c.label(2), "1:1");
        assert_eq!(c.label(7), "6:1");
    }
}
