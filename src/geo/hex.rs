//! Hex grids with 4-digit offset ids `AABB` (row `AA`, column `BB`), as printed on the
//! GMT 1914 map, and their axial coordinates.
//!
//! Orientation (derived from the adjacencies quoted in the Glory's End text, digest B.3):
//! rows run north→south, columns run east→west, and hexes in one row touch each other
//! (columns ±1). Rows are staggered: from an **even** row the neighbours in the rows above
//! and below are columns `BB−1` and `BB`; from an **odd** row they are `BB` and `BB+1`.
//! In other words odd rows sit half a hex further west than even rows.
//!
//! Axial coordinates: `r = row`, `q = col − (row − row % 2) / 2`. With `s = −q − r` the
//! hex distance is `(|Δq| + |Δr| + |Δs|) / 2`.
//!
//! Directions, clockwise with north at the top of the map (east is to the right, i.e.
//! towards *lower* column numbers):
//!
//! | d | compass | axial step (Δq, Δr) |
//! |---|---------|---------------------|
//! | 0 | NE | (0, −1) |
//! | 1 | E  | (−1, 0) |
//! | 2 | SE | (−1, +1) |
//! | 3 | SW | (0, +1) |
//! | 4 | W  | (+1, 0) |
//! | 5 | NW | (+1, −1) |
//!
//! `d` and `(d + 3) % 6` are opposite.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An edge of a hex map; north is the top of the map (rows count southward, columns
/// westward). Shared by the rulesets whose scenarios name map edges (supply edges, entry
/// edges, rout directions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The top of the map (row numbers fall toward it).
    North,
    /// The bottom of the map.
    South,
    /// The right-hand edge (column numbers fall toward it).
    East,
    /// The left-hand edge.
    West,
}

/// A hex by its printed 4-digit id (`2311` = row 23, column 11).
///
/// Serialised as a 4-character string (`"3130"`); deserialised from that string or from
/// an integer (`3130`, as people write it unquoted in YAML).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "String")]
pub struct HexId {
    pub row: u8,
    pub col: u8,
}

impl HexId {
    /// Row, then column, as one number: the order of ids.
    fn key(self) -> u16 {
        (self.row as u16) << 8 | self.col as u16
    }
}

/// Ordered by row, then column, as the derived order of the fields would be; compared as one
/// number because maps keyed by hex are searched on every supply trace (issue 20).
impl Ord for HexId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for HexId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// One of the six neighbour directions, numbered 0..6 clockwise, so that `d` and
/// `(d + 3) % 6` are opposite.
pub type Direction = u8;

/// Compass names of the six directions, indexed by [`Direction`].
pub const DIRECTION_NAMES: [&str; 6] = ["NE", "E", "SE", "SW", "W", "NW"];

/// Axial steps (Δq, Δr) indexed by [`Direction`].
const AXIAL_STEPS: [(i32, i32); 6] = [(0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1)];

/// The direction opposite `d`.
pub fn opposite(d: Direction) -> Direction {
    (d + 3) % 6
}

impl HexId {
    /// A hex from row and column (each 0..=99).
    pub fn new(row: u8, col: u8) -> HexId {
        HexId { row, col }
    }

    /// Axial coordinates `(q, r)`.
    pub fn axial(self) -> (i32, i32) {
        let r = self.row as i32;
        let q = self.col as i32 - (r - (r & 1)) / 2;
        (q, r)
    }

    /// The hex at axial `(q, r)`, if its id is in 00..=99 for row and column.
    pub fn from_axial(q: i32, r: i32) -> Option<HexId> {
        if !(0..=99).contains(&r) {
            return None;
        }
        let col = q + (r - (r & 1)) / 2;
        if !(0..=99).contains(&col) {
            return None;
        }
        Some(HexId { row: r as u8, col: col as u8 })
    }

    /// Cube coordinates `(q, r, s)` with `q + r + s = 0`.
    pub fn cube(self) -> (i32, i32, i32) {
        let (q, r) = self.axial();
        (q, r, -q - r)
    }

    /// The neighbour in direction `d` (may be off any map; `None` past 00/99).
    pub fn neighbour(self, d: Direction) -> Option<HexId> {
        let (dq, dr) = *AXIAL_STEPS.get(d as usize)?;
        let (q, r) = self.axial();
        HexId::from_axial(q + dq, r + dr)
    }

    /// The six neighbours that exist as ids, with their directions.
    pub fn neighbours(self) -> Vec<(Direction, HexId)> {
        (0..6u8).filter_map(|d| self.neighbour(d).map(|h| (d, h))).collect()
    }

    /// The direction from `self` to an adjacent `other`.
    pub fn direction_to(self, other: HexId) -> Option<Direction> {
        (0..6u8).find(|&d| self.neighbour(d) == Some(other))
    }

    /// Whether `other` is one of the six neighbours.
    pub fn is_adjacent(self, other: HexId) -> bool {
        self.direction_to(other).is_some()
    }

    /// Hex distance.
    pub fn distance(self, other: HexId) -> u32 {
        let (q1, r1, s1) = self.cube();
        let (q2, r2, s2) = other.cube();
        ((q1 - q2).unsigned_abs() + (r1 - r2).unsigned_abs() + (s1 - s2).unsigned_abs()) / 2
    }
}

/// The terrain of every hex of a rectangular map as scenario files write it: rows
/// `rows[0]..=rows[1]` and columns `cols[0]..=cols[1]` of `default` terrain, then the hexes
/// listed under another terrain. Each problem (a range that is not a grid, a listed hex off
/// the map) is pushed to `problems` in words a scenario author can act on.
pub fn terrain_grid<T: Copy + std::fmt::Debug>(
    rows: [u8; 2],
    cols: [u8; 2],
    default: T,
    hexes: &std::collections::BTreeMap<T, Vec<HexId>>,
    problems: &mut Vec<String>,
) -> std::collections::BTreeMap<HexId, T> {
    let ([r0, r1], [c0, c1]) = (rows, cols);
    if r0 > r1 || c0 > c1 || r1 > 99 || c1 > 99 {
        problems.push(format!("map rows {r0}..{r1}, columns {c0}..{c1} are not a grid of hexes 0000..9999"));
    }
    let mut terrain = std::collections::BTreeMap::new();
    for r in r0..=r1.min(99) {
        for c in c0..=c1.min(99) {
            terrain.insert(HexId::new(r, c), default);
        }
    }
    for (t, listed) in hexes {
        for h in listed {
            match terrain.get_mut(h) {
                Some(x) => *x = *t,
                None => problems.push(format!("{t:?} hex {h} is off the map")),
            }
        }
    }
    terrain
}

/// A concentric assault (GE-13.16, WEF-13.16: "the same geometry as GE"): attackers in
/// an opposite pair of directions, or in three alternating directions (which any four or
/// more directions also contain).
pub fn concentric(dirs: &std::collections::BTreeSet<Direction>) -> bool {
    (0..3u8).any(|i| dirs.contains(&i) && dirs.contains(&(i + 3)))
        || (0..2u8).any(|i| dirs.contains(&i) && dirs.contains(&(i + 2)) && dirs.contains(&(i + 4)))
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

/// Reads a hex id written as a 4-digit string or an integer. A visitor of its own rather than
/// an untagged enum: the untagged form buffered every id and, for every string id, built and
/// threw away an "invalid type" error before trying the string variant (a sixth of `umpire
/// status`'s instructions on a campaign cache, issue 20).
impl<'de> Deserialize<'de> for HexId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = HexId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a 4-digit hex id like 3130 (a string or an integer)")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<HexId, E> {
                if n <= 9999 {
                    Ok(HexId { row: (n / 100) as u8, col: (n % 100) as u8 })
                } else {
                    Err(E::custom(format!("{n} is not a 4-digit hex id like 3130")))
                }
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<HexId, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::custom(format!("{n} is not a 4-digit hex id like 3130"))),
                }
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<HexId, E> {
                s.parse().map_err(E::custom)
            }
            fn visit_bytes<E: serde::de::Error>(self, b: &[u8]) -> Result<HexId, E> {
                match std::str::from_utf8(b) {
                    Ok(s) => self.visit_str(s),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(b), &self)),
                }
            }
        }
        d.deserialize_any(V)
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

impl JsonSchema for HexId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HexId".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A hex by its printed 4-digit id AABB (row AA north to south, column BB east to west), as a string \"3130\" or an integer 3130.",
            "anyOf": [
                {"type": "string", "pattern": "^[0-9]{4}$"},
                {"type": "integer", "minimum": 0, "maximum": 9999}
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> HexId {
        s.parse().unwrap()
    }

    /// The one-number order is the order of (row, column), as derived on the fields.
    #[test]
    fn ids_order_by_row_then_column() {
        let vals = [0u8, 1, 9, 10, 99, 200, 255];
        for &r1 in &vals {
            for &c1 in &vals {
                for &r2 in &vals {
                    for &c2 in &vals {
                        let (a, b) = (HexId { row: r1, col: c1 }, HexId { row: r2, col: c2 });
                        assert_eq!(a.cmp(&b), (r1, c1).cmp(&(r2, c2)), "{r1}/{c1} against {r2}/{c2}");
                        assert_eq!(a.partial_cmp(&b), Some(a.cmp(&b)));
                    }
                }
            }
        }
    }

    #[test]
    fn quoted_adjacencies_hold() {
        for (a, b) in [("1820", "1919"), ("1820", "1920"), ("1520", "1620"), ("3621", "3720"), ("3921", "3922"), ("1839", "1939")] {
            assert!(h(a).is_adjacent(h(b)), "{a} should touch {b}");
            assert!(h(b).is_adjacent(h(a)), "{b} should touch {a}");
            assert_eq!(h(a).distance(h(b)), 1);
        }
    }

    #[test]
    fn offset_rule_even_and_odd_rows() {
        let mut even: Vec<HexId> = h("1820").neighbours().into_iter().map(|(_, x)| x).collect();
        even.sort();
        assert_eq!(even, vec![h("1719"), h("1720"), h("1819"), h("1821"), h("1919"), h("1920")]);
        let mut odd: Vec<HexId> = h("1920").neighbours().into_iter().map(|(_, x)| x).collect();
        odd.sort();
        assert_eq!(odd, vec![h("1820"), h("1821"), h("1919"), h("1921"), h("2020"), h("2021")]);
        assert!(!h("1820").is_adjacent(h("1921")));
        assert!(!h("1920").is_adjacent(h("1819")));
    }

    #[test]
    fn directions_are_clockwise_and_opposite() {
        let c = h("3130");
        assert_eq!(c.neighbour(1), Some(h("3129"))); // E = lower column
        assert_eq!(c.neighbour(4), Some(h("3131"))); // W = higher column
        assert_eq!(c.neighbour(0), Some(h("3030"))); // NE
        assert_eq!(c.neighbour(5), Some(h("3031"))); // NW
        assert_eq!(c.neighbour(2), Some(h("3230"))); // SE
        assert_eq!(c.neighbour(3), Some(h("3231"))); // SW
        for hex in [h("3130"), h("3231"), h("1820"), h("1919")] {
            for d in 0..6u8 {
                let n = hex.neighbour(d).unwrap();
                assert_eq!(n.neighbour(opposite(d)), Some(hex));
                assert_eq!(hex.direction_to(n), Some(d));
                assert_eq!(n.direction_to(hex), Some((d + 3) % 6));
            }
        }
        assert_eq!(hex_none(), None);
    }

    /// Every spelling people and the cache use reads the same hex; everything else is
    /// refused with the id in the message.
    #[test]
    fn hex_ids_read_from_strings_integers_and_map_keys() {
        let want = h("0405");
        for yaml in ["\"0405\"", "'0405'", "405", "0405"] {
            assert_eq!(yaml_serde::from_str::<HexId>(yaml).unwrap(), want, "YAML {yaml}");
        }
        assert_eq!(serde_json::from_str::<HexId>("\"0405\"").unwrap(), want);
        assert_eq!(serde_json::from_str::<HexId>("405").unwrap(), want);
        let m: std::collections::BTreeMap<HexId, u8> = serde_json::from_str(r#"{"0405": 1, "3130": 2}"#).unwrap();
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![want, h("3130")]);
        let back: std::collections::BTreeMap<HexId, u8> = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
        let y: std::collections::BTreeMap<HexId, u8> = yaml_serde::from_str("0405: 1\n\"3130\": 2\n").unwrap();
        assert_eq!(y, m);
        for bad in ["\"31300\"", "\"31a0\"", "10000", "-1", "1.5", "true", "[]"] {
            let e = serde_json::from_str::<HexId>(bad).expect_err(bad).to_string();
            assert!(e.contains("hex id"), "{bad}: {e}");
        }
        let e = yaml_serde::from_str::<HexId>("31300").unwrap_err().to_string();
        assert!(e.contains("31300 is not a 4-digit hex id"), "{e}");
    }

    fn hex_none() -> Option<HexId> {
        h("0000").neighbour(0)
    }

    #[test]
    fn distances() {
        assert_eq!(h("3130").distance(h("3130")), 0);
        assert_eq!(h("3130").distance(h("3135")), 5);
        assert_eq!(h("3036").distance(h("3334")), 3);
        assert_eq!(h("2020").distance(h("3020")), 10);
        assert_eq!(h("2020").distance(h("2025")), 5);
        // distance is symmetric and obeys the triangle inequality on a sample
        let sample = [h("2222"), h("2735"), h("3130"), h("3801"), h("0099")];
        for a in sample {
            for b in sample {
                assert_eq!(a.distance(b), b.distance(a));
                for c in sample {
                    assert!(a.distance(c) <= a.distance(b) + b.distance(c));
                }
            }
        }
        // a step in any direction is distance 1
        for d in 0..6u8 {
            assert_eq!(h("2525").distance(h("2525").neighbour(d).unwrap()), 1);
        }
    }

    #[test]
    fn terrain_grid_lists_what_is_off_the_map() {
        let hexes = std::collections::BTreeMap::from([('w', vec![h("0101"), h("0505")])]);
        let mut problems = Vec::new();
        let t = terrain_grid([0, 2], [0, 1], '.', &hexes, &mut problems);
        assert_eq!(t.len(), 6);
        assert_eq!((t[&h("0101")], t[&h("0000")]), ('w', '.'));
        assert_eq!(problems, vec!["'w' hex 0505 is off the map".to_string()]);
        let mut problems = Vec::new();
        assert!(terrain_grid([3, 1], [0, 0], '.', &hexes, &mut problems).is_empty());
        assert!(problems[0].contains("not a grid"), "{problems:?}");
    }

    #[test]
    fn axial_round_trip() {
        for row in 0..100u8 {
            for col in [0u8, 1, 50, 98, 99] {
                let x = HexId::new(row, col);
                let (q, r) = x.axial();
                assert_eq!(HexId::from_axial(q, r), Some(x));
            }
        }
        assert_eq!(h("0000").neighbours().len(), 2);
    }

    #[test]
    fn serde_int_and_string() {
        let a: HexId = yaml_serde::from_str("3130").unwrap();
        let b: HexId = yaml_serde::from_str("\"3130\"").unwrap();
        assert_eq!(a, h("3130"));
        assert_eq!(a, b);
        let c: HexId = serde_json::from_str("2311").unwrap();
        assert_eq!(c, HexId::new(23, 11));
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"2311\"");
        assert_eq!(serde_json::to_string(&HexId::new(5, 7)).unwrap(), "\"0507\"");
        assert!(serde_json::from_str::<HexId>("12345").is_err());
        assert!(serde_json::from_str::<HexId>("\"31a0\"").is_err());
        assert!(serde_json::from_str::<HexId>("\"313\"").is_err());
    }
}
