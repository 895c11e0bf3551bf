//! The playing area as the rules engine queries it: a thin, precomputed index over the
//! scenario's [`Map`] (`map.rs`). The map is the data; the board adds what never changes in
//! play and is asked for on every move and supply trace: a dense number per hex in play,
//! the passable neighbours of each hex, and the map edges of each hex.
//!
//! Kept in the game state (serialised as the map alone; the index is rebuilt on reading) so
//! that a log replays from its own scenario text. `Board` dereferences to [`Map`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::map::{Edge, Hexside, Map, Place, PlaceKind};
use crate::geo::hex::HexId;

/// No hex in play at this id.
const NONE: u16 = u16::MAX;

/// Dense slot of a hex id in the 100×100 id space.
fn id_slot(h: HexId) -> usize {
    h.row as usize * 100 + h.col as usize
}

/// The map with its index.
#[derive(Clone, Debug)]
pub struct Board {
    map: Map,
    /// Dense index → hex, in id order (only hexes in play: not Switzerland, nor the Netherlands
    /// or a country left neutral, GE 3.2, 3.6; `Map::closed`).
    ids: Vec<HexId>,
    /// Hex id slot → dense index (`NONE` if not in play).
    slot: Vec<u16>,
    /// Dense index → passable neighbours in play, in direction order.
    nbrs: Vec<Vec<HexId>>,
    /// The same as dense indices.
    nbr_ix: Vec<Vec<u16>>,
    /// Dense index → a town or city is there.
    towns: Vec<bool>,
    /// The dense indices of the towns and cities, in index order (supply asks about them
    /// alone, GE 7.3).
    town_ix: Vec<u16>,
    /// Dense index → bit set of the edges it lies on (`Edge as u8`).
    edges: Vec<u8>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.map == other.map
    }
}

impl std::ops::Deref for Board {
    type Target = Map;
    fn deref(&self) -> &Map {
        &self.map
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        Map::deserialize(d).map(Board::new)
    }
}

fn edge_bit(e: Edge) -> u8 {
    1 << (e as u8)
}

impl Board {
    /// Index a map.
    pub fn new(map: Map) -> Board {
        let ids: Vec<HexId> = map.hexes.iter().filter(|(_, i)| !map.closed(i.country)).map(|(h, _)| *h).collect();
        let mut slot = vec![NONE; 10_000];
        for (i, h) in ids.iter().enumerate() {
            slot[id_slot(*h)] = i as u16;
        }
        let in_play = |h: HexId| slot[id_slot(h)] != NONE;
        let nbrs: Vec<Vec<HexId>> = ids
            .iter()
            .map(|&h| {
                h.neighbours().into_iter().map(|(_, n)| n).filter(|&n| in_play(n) && map.hexside(h, n) != Some(Hexside::AllSea)).collect()
            })
            .collect();
        let nbr_ix = nbrs.iter().map(|v: &Vec<HexId>| v.iter().map(|n| slot[id_slot(*n)]).collect()).collect();
        let towns: Vec<bool> = ids.iter().map(|&h| map.place(h).is_some()).collect();
        let town_ix = (0..ids.len()).filter(|&i| towns[i]).map(|i| i as u16).collect();
        let edges = ids.iter().map(|&h| Edge::ALL.into_iter().filter(|e| map.is_edge(h, *e)).fold(0u8, |b, e| b | edge_bit(e))).collect();
        Board { map, ids, slot, nbrs, nbr_ix, towns, town_ix, edges }
    }
    /// The map.
    pub fn map(&self) -> &Map {
        &self.map
    }
    /// Change the map (rule cases) and rebuild the index.
    pub fn edit(&mut self, f: impl FnOnce(&mut Map)) {
        let mut m = std::mem::replace(&mut self.map, Map::empty());
        f(&mut m);
        *self = Board::new(m);
    }
    /// Number of hexes in play.
    pub fn len(&self) -> usize {
        self.ids.len()
    }
    /// Whether no hex is in play.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
    /// Dense index of a hex in play.
    pub fn index(&self, h: HexId) -> Option<usize> {
        let s = *self.slot.get(id_slot(h))?;
        (s != NONE).then_some(s as usize)
    }
    /// The hexes in play, in id order (index order).
    pub fn hex_ids(&self) -> &[HexId] {
        &self.ids
    }
    /// Whether the hex is in play.
    pub fn in_play(&self, h: HexId) -> bool {
        self.index(h).is_some()
    }
    /// The river on the hexside between two adjacent hexes, if any.
    pub fn river(&self, a: HexId, b: HexId) -> Option<Hexside> {
        self.map.hexside(a, b).filter(|s| *s != Hexside::AllSea)
    }
    /// Whether the hexside can be crossed (both hexes in play, adjacent, not all-sea).
    pub fn passable(&self, a: HexId, b: HexId) -> bool {
        self.neighbours(a).contains(&b)
    }
    /// MP to move from `a` into adjacent `b` (GE-12.8, 12.9); `None` if it cannot be entered.
    pub fn entry_cost(&self, a: HexId, b: HexId) -> Option<u32> {
        if !self.passable(a, b) {
            return None;
        }
        self.map.entry_cost(a, b)
    }
    /// The defender-hex terrain DRM and its parts (GE-13.14).
    pub fn hex_drm(&self, h: HexId) -> (i32, Vec<String>) {
        let mut parts = Vec::new();
        let mut drm = 0;
        if let Some(info) = self.map.hex(h) {
            if info.terrain.drm() != 0 {
                drm += info.terrain.drm();
                parts.push(format!("{:?} {}", info.terrain, info.terrain.drm()).to_lowercase());
            }
            if matches!(info.place, Some(Place { kind: PlaceKind::City, .. })) {
                drm -= 1;
                parts.push("city -1".into());
            }
        }
        (drm, parts)
    }
    /// Hexes in play adjacent to `h` across passable hexsides (empty if `h` is not in play).
    pub fn neighbours(&self, h: HexId) -> &[HexId] {
        match self.index(h) {
            Some(i) => &self.nbrs[i],
            None => &[],
        }
    }
    /// Passable neighbours of the hex with dense index `i`, as dense indices.
    pub fn neighbours_ix(&self, i: usize) -> &[u16] {
        &self.nbr_ix[i]
    }
    /// The dense indices of the towns and cities, in index order.
    pub fn town_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.town_ix.iter().map(|&i| i as usize)
    }
    /// Whether the hex with dense index `i` lies on `edge`.
    pub fn on_edge_ix(&self, i: usize, edge: Edge) -> bool {
        self.edges[i] & edge_bit(edge) != 0
    }
    /// `edges` as one bit set, for [`Board::on_edges_ix`].
    pub fn edge_set(edges: &[Edge]) -> u8 {
        edges.iter().fold(0u8, |b, e| b | edge_bit(*e))
    }
    /// Whether the hex with dense index `i` lies on any edge of the set ([`Board::edge_set`]).
    pub fn on_edges_ix(&self, i: usize, set: u8) -> bool {
        self.edges[i] & set != 0
    }
    /// Whether `h` lies on `edge`.
    pub fn on_edge(&self, h: HexId, edge: Edge) -> bool {
        self.index(h).is_some_and(|i| self.edges[i] & edge_bit(edge) != 0)
    }
    /// Whether a town or city is in the hex (GE-7.3 sources).
    pub fn is_town(&self, h: HexId) -> bool {
        self.index(h).is_some_and(|i| self.towns[i])
    }
}

impl From<Map> for Board {
    fn from(m: Map) -> Board {
        Board::new(m)
    }
}
