//! Hex grids with 4-digit offset ids `AABB` (row `AA`, column `BB`), as printed on the
//! GMT 1914 map, and their axial coordinates.
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the geometry work.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A hex by its printed 4-digit id (`2311` = row 23, column 11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "String", into = "String")]
#[schemars(with = "String")]
pub struct HexId {
    pub row: u8,
    pub col: u8,
}

/// One of the six neighbour directions, numbered 0..6 clockwise, so that `d` and
/// `(d + 3) % 6` are opposite.
pub type Direction = u8;

impl HexId {
    /// A hex from row and column (each 0..=99).
    pub fn new(row: u8, col: u8) -> HexId {
        HexId { row, col }
    }
    /// The neighbour in direction `d` (may be off any map; `None` past 00/99).
    pub fn neighbour(self, d: Direction) -> Option<HexId> {
        todo!()
    }
    /// The six neighbours that exist as ids, with their directions.
    pub fn neighbours(self) -> Vec<(Direction, HexId)> {
        todo!()
    }
    /// The direction from `self` to an adjacent `other`.
    pub fn direction_to(self, other: HexId) -> Option<Direction> {
        todo!()
    }
    /// Hex distance.
    pub fn distance(self, other: HexId) -> u32 {
        todo!()
    }
}

impl std::fmt::Display for HexId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}{:02}", self.row, self.col)
    }
}

impl std::fmt::Debug for HexId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

impl std::str::FromStr for HexId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{s:?} is not a 4-digit hex id like 3130"));
        }
        Ok(HexId { row: s[..2].parse().map_err(|_| s.to_string())?, col: s[2..].parse().map_err(|_| s.to_string())? })
    }
}

impl TryFrom<String> for HexId {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<HexId> for String {
    fn from(h: HexId) -> String {
        h.to_string()
    }
}
