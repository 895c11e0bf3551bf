//! The playing area as the rules engine needs it: hexes in play with their terrain, the
//! hexsides with rivers, the map edges, towns and Paris. Built from the scenario's map
//! (`map.rs`, owned by the geography work) at setup, or written directly in a rule case.
//! Kept in the game state so that a log replays from its own scenario text.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::geo::hex::HexId;

/// Hex terrain, as far as movement and combat see it (TEC, digest E.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    #[default]
    Clear,
    Hills,
    Forest,
    Swamp,
    Mountain,
}

impl Terrain {
    /// MP to enter (GE-12.8).
    pub fn mp(self) -> u32 {
        match self {
            Terrain::Clear | Terrain::Hills => 1,
            Terrain::Forest => 2,
            Terrain::Swamp | Terrain::Mountain => 3,
        }
    }
    /// Defender DRM (GE-13.14).
    pub fn drm(self) -> i32 {
        match self {
            Terrain::Swamp => -1,
            Terrain::Mountain => -2,
            _ => 0,
        }
    }
}

/// A river on a hexside (GE-12.9, 13.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum River {
    Minor,
    Major,
}

/// A map edge of the play area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    North,
    South,
    East,
    West,
}

/// One hex in play.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HexInfo {
    pub terrain: Terrain,
    /// A city (−1 DRM, GE-13.14).
    #[serde(default)]
    pub city: bool,
    /// Town or city name, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// One of the Paris hexes (GE-6.3).
    #[serde(default)]
    pub paris: bool,
    /// Extra defender DRM printed for this hex beyond terrain and city (e.g. Paris).
    #[serde(default)]
    pub extra_drm: i32,
    /// Map edges this hex lies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<Edge>,
}

/// A hexside with a river or a prohibition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Side {
    pub a: HexId,
    pub b: HexId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river: Option<River>,
    /// All-sea or otherwise impassable hexside.
    #[serde(default)]
    pub prohibited: bool,
}

/// The play area.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub hexes: BTreeMap<HexId, HexInfo>,
    /// Hexsides with features, keyed `AABBCCDD` (the two ids as one number, smaller first).
    pub sides: BTreeMap<u32, Side>,
}

fn side_key(a: HexId, b: HexId) -> u32 {
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    let id = |h: HexId| h.row as u32 * 100 + h.col as u32;
    id(x) * 10_000 + id(y)
}

impl Board {
    /// Whether the hex is in play.
    pub fn in_play(&self, h: HexId) -> bool {
        self.hexes.contains_key(&h)
    }
    /// The hex's data.
    pub fn hex(&self, h: HexId) -> Option<&HexInfo> {
        self.hexes.get(&h)
    }
    /// Record a hexside feature.
    pub fn set_side(&mut self, a: HexId, b: HexId, river: Option<River>, prohibited: bool) {
        self.sides.insert(side_key(a, b), Side { a, b, river, prohibited });
    }
    /// The river on the hexside between two adjacent hexes.
    pub fn river(&self, a: HexId, b: HexId) -> Option<River> {
        self.sides.get(&side_key(a, b)).and_then(|s| s.river)
    }
    /// Whether the hexside can be crossed at all (GE-12.3: all-sea hexsides never).
    pub fn passable(&self, a: HexId, b: HexId) -> bool {
        a.is_adjacent(b) && !self.sides.get(&side_key(a, b)).is_some_and(|s| s.prohibited)
    }
    /// MP to move from `a` into adjacent `b` (GE-12.8, 12.9); `None` if it cannot be entered.
    pub fn entry_cost(&self, a: HexId, b: HexId) -> Option<u32> {
        if !self.passable(a, b) {
            return None;
        }
        let info = self.hexes.get(&b)?;
        let river = if self.river(a, b) == Some(River::Major) { 1 } else { 0 };
        Some(info.terrain.mp() + river)
    }
    /// The defender-hex terrain DRM and its parts (GE-13.14).
    pub fn hex_drm(&self, h: HexId) -> (i32, Vec<String>) {
        let mut parts = Vec::new();
        let mut drm = 0;
        if let Some(info) = self.hexes.get(&h) {
            if info.terrain.drm() != 0 {
                drm += info.terrain.drm();
                parts.push(format!("{:?} {}", info.terrain, info.terrain.drm()).to_lowercase());
            }
            if info.city {
                drm -= 1;
                parts.push("city -1".into());
            }
            if info.extra_drm != 0 {
                drm += info.extra_drm;
                parts.push(format!("hex {:+}", info.extra_drm));
            }
        }
        (drm, parts)
    }
    /// Hexes in play adjacent to `h` across passable hexsides.
    pub fn neighbours(&self, h: HexId) -> Vec<HexId> {
        // The ids come from `h.neighbours()`, so only the hexside itself needs checking.
        h.neighbours().into_iter().map(|(_, n)| n).filter(|&n| self.in_play(n) && !self.sides.get(&side_key(h, n)).is_some_and(|s| s.prohibited)).collect()
    }
    /// Whether `h` is a Paris hex.
    pub fn is_paris(&self, h: HexId) -> bool {
        self.hexes.get(&h).is_some_and(|i| i.paris)
    }
    /// Whether `h` lies on `edge`.
    pub fn on_edge(&self, h: HexId, edge: Edge) -> bool {
        self.hexes.get(&h).is_some_and(|i| i.edges.contains(&edge))
    }
    /// The hex named `name`, if any.
    pub fn named(&self, name: &str) -> Option<HexId> {
        self.hexes.iter().find(|(_, i)| i.name.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(name))).map(|(h, _)| *h)
    }
    /// Mark the edges of a rectangular board: the smallest row is the north edge, the largest
    /// the south edge, the smallest column the east edge and the largest the west edge.
    pub fn mark_edges(&mut self) {
        let (Some(r0), Some(r1)) = (self.hexes.keys().map(|h| h.row).min(), self.hexes.keys().map(|h| h.row).max()) else { return };
        let c0 = self.hexes.keys().map(|h| h.col).min().unwrap_or(0);
        let c1 = self.hexes.keys().map(|h| h.col).max().unwrap_or(0);
        for (h, i) in self.hexes.iter_mut() {
            let mut edges = Vec::new();
            if h.row == r0 {
                edges.push(Edge::North);
            }
            if h.row == r1 {
                edges.push(Edge::South);
            }
            if h.col == c0 {
                edges.push(Edge::East);
            }
            if h.col == c1 {
                edges.push(Edge::West);
            }
            i.edges = edges;
        }
    }
}
