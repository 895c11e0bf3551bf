//! The CRT read from the scenario's charts (WEF 13.20, E.2: representative until replaced),
//! the odds columns it defines (13.8–13.12, by the shared procedure of `engine::odds`) and
//! the modified-roll clamp (13.11).

use super::scenario::CrtData;
use crate::engine::odds::Columns;

/// The lowest and highest modified roll (13.11): the CRT has rows 1..9.
pub const ROLLS: std::ops::RangeInclusive<i32> = 1..=9;

/// One side's part of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// Loss points (13.21).
    Lp(u32),
    /// Every participating unit of the side eliminated (13.24).
    Eliminated,
    /// Attacker breakthrough, no attacker loss (13.26).
    Breakthrough,
}

/// A CRT cell: attacker / defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub attacker: Loss,
    pub defender: Loss,
}

fn loss(s: &str) -> Result<Loss, String> {
    match s {
        "E" => Ok(Loss::Eliminated),
        "B" => Ok(Loss::Breakthrough),
        n => n.parse().map(Loss::Lp).map_err(|_| format!("CRT: {s:?} is not a number, E or B")),
    }
}

/// Parse `"1/E"`.
pub fn cell(s: &str) -> Result<Cell, String> {
    let (a, d) = s.split_once('/').ok_or_else(|| format!("CRT: cell {s:?} is not written attacker/defender"))?;
    let c = Cell { attacker: loss(a)?, defender: loss(d)? };
    if c.defender == Loss::Breakthrough {
        return Err(format!("CRT: cell {s:?}: only the attacker breaks through"));
    }
    Ok(c)
}

/// The column range the labels describe: the first must be `1:n`, the last `n:1`.
pub fn columns(crt: &CrtData) -> Result<Columns, String> {
    let first = crt.columns.first().ok_or("CRT: no columns")?;
    let last = crt.columns.last().ok_or("CRT: no columns")?;
    let worst =
        first.strip_prefix("1:").and_then(|n| n.parse::<u32>().ok()).ok_or_else(|| format!("CRT: first column {first:?} is not 1:n"))?;
    let best =
        last.strip_suffix(":1").and_then(|n| n.parse::<u32>().ok()).ok_or_else(|| format!("CRT: last column {last:?} is not n:1"))?;
    let c = Columns { worst, best };
    if worst == 0 || best == 0 || c.len() != crt.columns.len() || (0..c.len()).any(|i| c.label(i) != crt.columns[i]) {
        return Err(format!("CRT: columns {:?} are not a run from 1:n to n:1", crt.columns));
    }
    Ok(c)
}

/// Check the whole table: column labels, 9 rows of one cell per column, every cell readable.
pub fn problems(crt: &CrtData) -> Vec<String> {
    let mut out = Vec::new();
    let n = match columns(crt) {
        Ok(c) => c.len(),
        Err(e) => return vec![e],
    };
    if crt.rows.len() != ROLLS.count() {
        out.push(format!("CRT: {} rows; the modified roll runs 1..9 (WEF 13.11)", crt.rows.len()));
    }
    for (i, row) in crt.rows.iter().enumerate() {
        if row.len() != n {
            out.push(format!("CRT: row {} has {} cells for {n} columns", i + 1, row.len()));
        }
        out.extend(row.iter().filter_map(|c| cell(c).err()));
    }
    if let Err(e) = cell(&crt.worse_than_worst) {
        out.push(e);
    }
    out
}

/// The cell for a column and a modified roll (clamped to 1..9, 13.11). The table was
/// checked at setup.
pub fn lookup(crt: &CrtData, column: usize, roll: i32) -> Cell {
    let r = roll.clamp(*ROLLS.start(), *ROLLS.end()) as usize - 1;
    cell(&crt.rows[r][column]).expect("the CRT was checked at setup")
}

/// The automatic result for odds worse than the first column (13.10).
pub fn automatic(crt: &CrtData) -> Cell {
    cell(&crt.worse_than_worst).expect("the CRT was checked at setup")
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loss::Lp(n) => write!(f, "{n}"),
            Loss::Eliminated => write!(f, "E"),
            Loss::Breakthrough => write!(f, "B"),
        }
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.attacker, self.defender)
    }
}
