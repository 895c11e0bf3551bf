//! The map as the rules query it: terrain, country, rivers, places, lake and sea hexsides,
//! pass routes and railroads per hex, indexed from the scenario's [`MapData`].
//!
//! Hex ids: When Eagles Fight numbers hexes `XXYY`, `XX` growing west to east and `YY` north
//! to south, with hexes of one `XX` column touching each other. Read as the shared
//! [`HexId`] (`row = XX`, `col = YY`) these ids have exactly the adjacency of the Glory's End
//! grid (an odd `XX` touches `YY` and `YY+1` of the next column, an even one `YY−1` and `YY`),
//! which the text's examples confirm (1820 touches 1919 and 1920; 2317 touches 2217 and 2218),
//! so distances, neighbours and concentric geometry come from `geo::hex` unchanged. Only the
//! compass differs: `HexId`'s direction names are Glory's End's.
//!
//! Serialised as the [`MapData`] alone; the index is rebuilt on reading.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::scenario::{MapData, PlaceKind};
use crate::geo::hex::HexId;

/// Terrain of a hex (12.8–12.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    Clear,
    Forest,
    Swamp,
    Mountain,
    /// A mountain-pass hex (12.10).
    Pass,
}

/// Country of a hex (B.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Country {
    Germany,
    AustriaHungary,
    RussianPoland,
    /// Russia proper (13.14).
    Russia,
    Romania,
}

impl Country {
    /// The side whose country it is at the start (3.8); Romania is nobody's.
    pub fn owner(self) -> Option<super::state::Side> {
        use super::state::Side;
        match self {
            Country::Germany | Country::AustriaHungary => Some(Side::Central),
            Country::RussianPoland | Country::Russia => Some(Side::Russian),
            Country::Romania => None,
        }
    }
    /// Russia or Russian Poland.
    pub fn russian(self) -> bool {
        matches!(self, Country::Russia | Country::RussianPoland)
    }
}

/// Everything about one land hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexInfo {
    pub terrain: Terrain,
    pub country: Country,
    pub river: bool,
    pub place: Option<(String, PlaceKind)>,
    pub rail: bool,
}

/// The indexed map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "MapData", into = "MapData")]
pub struct Board {
    data: MapData,
    hexes: BTreeMap<HexId, HexInfo>,
    lakes: BTreeSet<(HexId, HexId)>,
    seas: BTreeSet<(HexId, HexId)>,
    /// Ordered steps along a pass route, both ways.
    route_steps: BTreeSet<(HexId, HexId)>,
    victory: BTreeSet<HexId>,
    /// Railroad steps, both ways (9.6).
    rail_links: BTreeSet<(HexId, HexId)>,
    /// The first and last hex of every railroad line (where a line can leave the map, 9.6).
    rail_ends: BTreeSet<HexId>,
    /// Place names to their hexes (the rules name a few: Warsaw, Odessa, Königsberg…).
    names: BTreeMap<String, HexId>,
}

fn hex(s: &str) -> Result<HexId, String> {
    s.parse::<HexId>().map_err(|e| format!("map: hex {s:?}: {e}"))
}

fn pair(s: &str) -> Result<(HexId, HexId), String> {
    let (a, b) = s.split_once('/').ok_or_else(|| format!("map: hexside {s:?} is not written as \"2513/2514\""))?;
    let (a, b) = (hex(a)?, hex(b)?);
    if !a.is_adjacent(b) {
        return Err(format!("map: hexside {s:?} joins hexes that do not touch"));
    }
    Ok((a.min(b), a.max(b)))
}

impl TryFrom<MapData> for Board {
    type Error = String;
    fn try_from(data: MapData) -> Result<Board, String> {
        let mut hexes = BTreeMap::new();
        let rows = data.rows.first..=data.rows.last;
        for c in data.columns.first..=data.columns.last {
            let key = format!("{c}");
            let t = data.terrain.get(&key).ok_or_else(|| format!("map: no terrain line for column {c}"))?;
            let n = data.country.get(&key).ok_or_else(|| format!("map: no country line for column {c}"))?;
            if t.chars().count() != rows.len() || n.chars().count() != rows.len() {
                return Err(format!("map: column {c} must have one letter per row ({})", rows.len()));
            }
            for ((r, tl), nl) in rows.clone().zip(t.chars()).zip(n.chars()) {
                let terrain = match tl {
                    '.' => Terrain::Clear,
                    'f' => Terrain::Forest,
                    's' => Terrain::Swamp,
                    'm' => Terrain::Mountain,
                    'p' => Terrain::Pass,
                    '~' => continue,
                    x => return Err(format!("map: column {c} row {r}: unknown terrain letter {x:?}")),
                };
                let country = match nl {
                    'G' => Country::Germany,
                    'A' => Country::AustriaHungary,
                    'P' => Country::RussianPoland,
                    'R' => Country::Russia,
                    'N' => Country::Romania,
                    x => return Err(format!("map: column {c} row {r}: land hex with country letter {x:?}")),
                };
                hexes.insert(HexId::new(c, r), HexInfo { terrain, country, river: false, place: None, rail: false });
            }
        }
        let land = |h: HexId, hexes: &BTreeMap<HexId, HexInfo>| {
            if hexes.contains_key(&h) { Ok(h) } else { Err(format!("map: {h} is not a land hex of the map")) }
        };
        for r in &data.rivers {
            let h = land(hex(r)?, &hexes)?;
            hexes.get_mut(&h).expect("checked").river = true;
        }
        for p in &data.places {
            let h = land(hex(&p.hex)?, &hexes)?;
            hexes.get_mut(&h).expect("checked").place = Some((p.name.clone(), p.kind));
        }
        let mut rail_links = BTreeSet::new();
        let mut rail_ends = BTreeSet::new();
        for line in &data.rail {
            let mut prev: Option<HexId> = None;
            for s in line {
                let h = land(hex(s)?, &hexes)?;
                if prev.is_some_and(|p| !p.is_adjacent(h)) {
                    return Err(format!("map: railroad step {} → {h} joins hexes that do not touch", prev.expect("some")));
                }
                hexes.get_mut(&h).expect("checked").rail = true;
                if let Some(p) = prev {
                    rail_links.insert((p, h));
                    rail_links.insert((h, p));
                }
                prev = Some(h);
            }
            for end in [line.first(), line.last()].into_iter().flatten() {
                rail_ends.insert(hex(end)?);
            }
        }
        let lakes = data.lake_sides.iter().map(|s| pair(s)).collect::<Result<_, _>>()?;
        let seas = data.sea_sides.iter().map(|s| pair(s)).collect::<Result<_, _>>()?;
        let mut route_steps = BTreeSet::new();
        for route in &data.pass_routes {
            let hs: Vec<HexId> = route.iter().map(|s| hex(s).and_then(|h| land(h, &hexes))).collect::<Result<_, _>>()?;
            for w in hs.windows(2) {
                if !w[0].is_adjacent(w[1]) {
                    return Err(format!("map: pass route step {} → {} joins hexes that do not touch", w[0], w[1]));
                }
                route_steps.insert((w[0], w[1]));
                route_steps.insert((w[1], w[0]));
            }
        }
        let victory = data.victory_hexes.iter().map(|s| hex(s).and_then(|h| land(h, &hexes))).collect::<Result<_, _>>()?;
        // The first hex of a name wins, as a search in hex order would find it.
        let mut names = BTreeMap::new();
        for (h, i) in &hexes {
            if let Some((n, _)) = &i.place {
                names.entry(n.clone()).or_insert(*h);
            }
        }
        Ok(Board { data, hexes, lakes, seas, route_steps, victory, rail_links, rail_ends, names })
    }
}

impl From<Board> for MapData {
    fn from(b: Board) -> MapData {
        b.data
    }
}

impl Board {
    /// The land hex `h`, if on the map.
    pub fn get(&self, h: HexId) -> Option<&HexInfo> {
        self.hexes.get(&h)
    }
    /// Every land hex, in id order.
    pub fn hexes(&self) -> impl Iterator<Item = (HexId, &HexInfo)> {
        self.hexes.iter().map(|(h, i)| (*h, i))
    }
    /// The map data as written.
    pub fn data(&self) -> &MapData {
        &self.data
    }
    /// Whether `a`–`b` is a lake hexside (12.11).
    pub fn lake(&self, a: HexId, b: HexId) -> bool {
        self.lakes.contains(&(a.min(b), a.max(b)))
    }
    /// Whether `a`–`b` is an all-sea hexside between land hexes (12.11).
    pub fn sea_side(&self, a: HexId, b: HexId) -> bool {
        self.seas.contains(&(a.min(b), a.max(b)))
    }
    /// Whether a step `a` → `b` follows a pass route (12.10).
    pub fn along_route(&self, a: HexId, b: HexId) -> bool {
        self.route_steps.contains(&(a, b))
    }
    /// The place in `h`, if any.
    pub fn place(&self, h: HexId) -> Option<(&str, PlaceKind)> {
        self.get(h).and_then(|i| i.place.as_ref()).map(|(n, k)| (n.as_str(), *k))
    }
    /// A city (capitals included).
    pub fn city(&self, h: HexId) -> bool {
        matches!(self.place(h), Some((_, PlaceKind::City | PlaceKind::Capital)))
    }
    /// The hex of a named place.
    pub fn named(&self, name: &str) -> Option<HexId> {
        self.names.get(name).copied()
    }
    /// Whether `h` is one of the listed victory hexes (4.3: the non-city ones).
    pub fn listed_victory(&self, h: HexId) -> bool {
        self.victory.contains(&h)
    }
    /// The A-H victory hexes (4.3): the A-H cities plus the listed ones.
    pub fn ah_victory_hexes(&self) -> BTreeSet<HexId> {
        let mut v = self.victory.clone();
        v.extend(self.hexes.iter().filter(|(h, i)| i.country == Country::AustriaHungary && self.city(**h)).map(|(h, _)| *h));
        v
    }
    /// Hexes whose control the rules track (3.8): towns, cities, victory hexes.
    pub fn controllable(&self) -> BTreeSet<HexId> {
        let mut v = self.victory.clone();
        v.extend(self.hexes.iter().filter(|(_, i)| i.place.is_some()).map(|(h, _)| *h));
        v
    }
    /// The west map edge column (the CP's edge, B.2).
    pub fn west_column(&self) -> u8 {
        self.data.columns.first
    }
    /// The east map edge column (the Russian edge).
    pub fn east_column(&self) -> u8 {
        self.data.columns.last
    }
    /// The railroad neighbours of `h` (9.6).
    pub fn rail_next(&self, h: HexId) -> impl Iterator<Item = HexId> + '_ {
        self.rail_links.range((h, HexId::new(0, 0))..=(h, HexId::new(99, 99))).map(|(_, b)| *b)
    }
    /// Whether a railroad line ends in `h`.
    pub fn rail_end(&self, h: HexId) -> bool {
        self.rail_ends.contains(&h)
    }
    /// The south map edge row.
    pub fn south_row(&self) -> u8 {
        self.data.rows.last
    }
}
