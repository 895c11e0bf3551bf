//! The Glory's End map model: hexes with terrain, country and places; hexsides with rivers;
//! named map edges; and the queries the rules need (movement cost, terrain and river DRMs,
//! edge membership, places, VP hexes).
//!
//! Everything here is data that comes from a scenario file. The raw, hand-editable text form
//! is [`MapFile`]; [`Map::from_file`] checks it and builds a [`Map`]. The encoding is described
//! in `docs/glorys-end/map-and-scenario.md`.
//!
//! Terrain figures (movement points and DRMs) follow the digest's reading of GE 12.8, 12.9 and
//! 13.14 (table E.3): clear and hills 1 MP, forest 2, swamp and mountain 3; swamp −1 and
//! mountain −2 to the combat roll; a city −1 on top of its other terrain; a minor or major river
//! hexside −1 to the roll and a major river +1 MP to cross; an all-sea hexside may not be
//! crossed. The Paris hexes are cities (the −1 city DRM applies to them; the published Paris row
//! of the TEC is lost, so this is our reading, see the docs).

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::geo::hex::{Direction, HexId};

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    German,
    Allied,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::German => Side::Allied,
            Side::Allied => Side::German,
        }
    }
    /// `"German"` / `"Allied"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::German => "German",
            Side::Allied => "Allied",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Hex terrain that governs movement cost and combat (towns and cities are [`Place`]s on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Clear,
    Hills,
    Forest,
    Swamp,
    Mountain,
}

impl Terrain {
    /// Movement points to enter (GE 12.8).
    pub fn mp(self) -> u32 {
        match self {
            Terrain::Clear | Terrain::Hills => 1,
            Terrain::Forest => 2,
            Terrain::Swamp | Terrain::Mountain => 3,
        }
    }
    /// Die-roll modifier for a defender in this terrain (GE 13.14): swamp −1, mountain −2.
    pub fn drm(self) -> i32 {
        match self {
            Terrain::Swamp => -1,
            Terrain::Mountain => -2,
            _ => 0,
        }
    }
    /// The letter used in the default map legend.
    pub fn letter(self) -> char {
        match self {
            Terrain::Clear => '.',
            Terrain::Hills => 'h',
            Terrain::Forest => 'f',
            Terrain::Swamp => 's',
            Terrain::Mountain => 'm',
        }
    }
    fn from_word(w: &str) -> Option<Terrain> {
        Some(match w {
            "clear" => Terrain::Clear,
            "hills" => Terrain::Hills,
            "forest" => Terrain::Forest,
            "swamp" => Terrain::Swamp,
            "mountain" => Terrain::Mountain,
            _ => return None,
        })
    }
}

/// Countries of the map (GE map; Switzerland may never be entered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Country {
    France,
    Germany,
    Belgium,
    Luxembourg,
    Netherlands,
    Switzerland,
}

impl Country {
    /// Hexes of this country are out of play by default: Switzerland in every scenario (GE 3.2),
    /// and the Netherlands unless the free deployment's German plan invades it (GE 3.6; the
    /// game's own list is [`Map::closed`]).
    pub fn out_of_play(self) -> bool {
        matches!(self, Country::Switzerland | Country::Netherlands)
    }
    /// The letter used in a map's `country_grid`.
    pub fn letter(self) -> char {
        match self {
            Country::France => 'f',
            Country::Germany => 'g',
            Country::Belgium => 'b',
            Country::Luxembourg => 'l',
            Country::Netherlands => 'n',
            Country::Switzerland => 's',
        }
    }
    fn from_letter(c: char) -> Option<Country> {
        [Country::France, Country::Germany, Country::Belgium, Country::Luxembourg, Country::Netherlands, Country::Switzerland]
            .into_iter()
            .find(|k| k.letter() == c)
    }
}

/// A town or a city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    Town,
    City,
}

/// A named town or city in a hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub name: String,
    pub kind: PlaceKind,
}

/// What one map hex holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexInfo {
    pub terrain: Terrain,
    pub country: Country,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
    /// One of the Paris hexes (GE 6.3: only French units may end a move here).
    #[serde(default)]
    pub paris: bool,
    #[serde(default)]
    pub coastal: bool,
    #[serde(default)]
    pub port: bool,
    /// East of the Meuse boundary (GE 3.8; matters for 8.7 and 11.2).
    #[serde(default)]
    pub east_of_meuse: bool,
    /// Inside the "Paris in Danger" perimeter (GE 4.3, 10.4).
    #[serde(default)]
    pub paris_in_danger: bool,
}

/// A hexside feature. Absent = a plain hexside (borders have no effect).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Hexside {
    MinorRiver,
    MajorRiver,
    AllSea,
}

impl Hexside {
    /// Extra MP to cross (GE 12.9): major river +1.
    pub fn extra_mp(self) -> u32 {
        match self {
            Hexside::MajorRiver => 1,
            _ => 0,
        }
    }
    /// DRM when attacking across it (GE 13.14): either river −1. How several attackers'
    /// river DRMs combine (13.15) is for the combat rules.
    pub fn drm(self) -> i32 {
        match self {
            Hexside::MinorRiver | Hexside::MajorRiver => -1,
            Hexside::AllSea => 0,
        }
    }
}

/// A named map edge (the shared hex-map edges).
pub use crate::geo::hex::Edge;

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::North, Edge::South, Edge::East, Edge::West];
}

/// A victory-point hex: who scores it and how much.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VpHex {
    pub name: String,
    /// The side that scores it.
    pub side: Side,
    pub value: u32,
}

/// The normalised key of the hexside between two hexes (smaller id first).
pub fn side_key(a: HexId, b: HexId) -> (HexId, HexId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The checked map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub hexes: BTreeMap<HexId, HexInfo>,
    /// Hexside features keyed by [`side_key`]. Serialised as a list of `[a, b, feature]`.
    #[serde(with = "hexside_map")]
    pub hexsides: BTreeMap<(HexId, HexId), Hexside>,
    /// River names per hexside, for messages (`"Marne"`).
    #[serde(with = "hexside_map", default)]
    pub river_names: BTreeMap<(HexId, HexId), String>,
    pub edges: BTreeMap<Edge, BTreeSet<HexId>>,
    /// VP hexes (filled from the scenario's VP schedule).
    #[serde(default)]
    pub vp_hexes: BTreeMap<HexId, VpHex>,
    /// Inland ports and the river-access hexes they need (GE 7.9, 11.5).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub port_access: BTreeMap<HexId, Vec<HexId>>,
    /// The hexsides of the Meuse boundary (GE 3.8), keyed by [`side_key`].
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub meuse: BTreeSet<(HexId, HexId)>,
    /// The countries out of play in this game, when the free deployment's German plan has
    /// decided them (GE 3.6, `neutrality.rs`); `None`: the default of [`Country::out_of_play`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<BTreeSet<Country>>,
}

impl Map {
    /// A map with no hexes.
    pub fn empty() -> Map {
        Map {
            hexes: BTreeMap::new(),
            hexsides: BTreeMap::new(),
            river_names: BTreeMap::new(),
            edges: BTreeMap::new(),
            vp_hexes: BTreeMap::new(),
            port_access: BTreeMap::new(),
            meuse: BTreeSet::new(),
            closed: None,
        }
    }
    /// A rectangular block of clear French hexes (rule cases): the smallest row is the north
    /// edge, the largest the south edge, the smallest column the east edge, the largest the
    /// west edge.
    pub fn block(rows: (u8, u8), cols: (u8, u8)) -> Map {
        let mut m = Map::empty();
        for e in Edge::ALL {
            m.edges.insert(e, BTreeSet::new());
        }
        for r in rows.0..=rows.1 {
            for c in cols.0..=cols.1 {
                let h = HexId::new(r, c);
                let info = HexInfo {
                    terrain: Terrain::Clear,
                    country: Country::France,
                    place: None,
                    paris: false,
                    coastal: false,
                    port: false,
                    east_of_meuse: false,
                    paris_in_danger: false,
                };
                m.hexes.insert(h, info);
                for (e, on) in
                    [(Edge::North, r == rows.0), (Edge::South, r == rows.1), (Edge::East, c == cols.0), (Edge::West, c == cols.1)]
                {
                    if on {
                        m.edges.entry(e).or_default().insert(h);
                    }
                }
            }
        }
        m
    }
    /// Whether the hexes of country `c` are out of play in this game (GE 3.2, 3.6).
    pub fn closed(&self, c: Country) -> bool {
        match &self.closed {
            Some(set) => set.contains(&c),
            None => c.out_of_play(),
        }
    }
    /// Is the hex on the map?
    pub fn contains(&self, hex: HexId) -> bool {
        self.hexes.contains_key(&hex)
    }
    /// The hex's data.
    pub fn hex(&self, hex: HexId) -> Option<&HexInfo> {
        self.hexes.get(&hex)
    }
    /// On-map neighbours with their directions.
    pub fn neighbours(&self, hex: HexId) -> Vec<(Direction, HexId)> {
        hex.neighbours().into_iter().filter(|(_, h)| self.contains(*h)).collect()
    }
    /// The feature on the hexside between `a` and `b` (`None` if plain or not adjacent).
    pub fn hexside(&self, a: HexId, b: HexId) -> Option<Hexside> {
        self.hexsides.get(&side_key(a, b)).copied()
    }
    /// The river's name on that hexside, if any.
    pub fn river_name(&self, a: HexId, b: HexId) -> Option<&str> {
        self.river_names.get(&side_key(a, b)).map(|s| s.as_str())
    }
    /// May a unit cross from `a` to the adjacent `b` at all (both on the map, not an all-sea
    /// hexside, `b` not in a prohibited country)? Also the test for retreat and supply paths.
    pub fn passable(&self, a: HexId, b: HexId) -> bool {
        self.entry_cost(a, b).is_some()
    }
    /// Movement points to move from `from` into the adjacent `to`: the terrain cost of `to`
    /// plus 1 across a major river. `None` if prohibited (off map, not adjacent, all-sea
    /// hexside, Switzerland).
    pub fn entry_cost(&self, from: HexId, to: HexId) -> Option<u32> {
        if !self.contains(from) || !from.is_adjacent(to) {
            return None;
        }
        let info = self.hexes.get(&to)?;
        if self.closed(info.country) {
            return None;
        }
        let side = self.hexside(from, to);
        if side == Some(Hexside::AllSea) {
            return None;
        }
        Some(info.terrain.mp() + side.map_or(0, |s| s.extra_mp()))
    }
    /// The defender's terrain DRM for a hex (GE 13.14): terrain (swamp −1, mountain −2) plus
    /// −1 for a city (the Paris hexes are cities). 0 off the map.
    pub fn terrain_drm(&self, hex: HexId) -> i32 {
        let Some(info) = self.hexes.get(&hex) else { return 0 };
        let city = match &info.place {
            Some(Place { kind: PlaceKind::City, .. }) => -1,
            _ => 0,
        };
        info.terrain.drm() + city
    }
    /// The river DRM for an attack from `from` into `to` across their hexside (−1 for a
    /// minor or major river, else 0).
    pub fn river_drm(&self, from: HexId, to: HexId) -> i32 {
        self.hexside(from, to).map_or(0, |s| s.drm())
    }
    /// Is there a river (minor or major) on the hexside?
    pub fn is_river(&self, a: HexId, b: HexId) -> bool {
        matches!(self.hexside(a, b), Some(Hexside::MinorRiver | Hexside::MajorRiver))
    }
    /// Is the hex on the named edge?
    pub fn is_edge(&self, hex: HexId, edge: Edge) -> bool {
        self.edges.get(&edge).is_some_and(|s| s.contains(&hex))
    }
    /// The hexes of an edge.
    pub fn edge_hexes(&self, edge: Edge) -> impl Iterator<Item = HexId> + '_ {
        self.edges.get(&edge).into_iter().flat_map(|s| s.iter().copied())
    }
    /// The edges a hex lies on.
    pub fn edges_of(&self, hex: HexId) -> Vec<Edge> {
        Edge::ALL.into_iter().filter(|e| self.is_edge(hex, *e)).collect()
    }
    /// Is it a Paris hex?
    pub fn is_paris(&self, hex: HexId) -> bool {
        self.hexes.get(&hex).is_some_and(|i| i.paris)
    }
    /// Is the hex inside the "Paris in Danger" perimeter (GE 4.3, 10.4)?
    pub fn in_paris_danger_zone(&self, hex: HexId) -> bool {
        self.hexes.get(&hex).is_some_and(|i| i.paris_in_danger)
    }
    /// All Paris hexes.
    pub fn paris_hexes(&self) -> Vec<HexId> {
        self.hexes.iter().filter(|(_, i)| i.paris).map(|(h, _)| *h).collect()
    }
    /// The town or city in a hex.
    pub fn place(&self, hex: HexId) -> Option<&Place> {
        self.hexes.get(&hex).and_then(|i| i.place.as_ref())
    }
    /// Is there a town or city in the hex (GE 7.3 supply sources, 11.2 SM)?
    pub fn is_town_or_city(&self, hex: HexId) -> bool {
        self.place(hex).is_some()
    }
    /// The hexes of a named place (case-insensitive; Paris has three).
    pub fn place_hexes(&self, name: &str) -> Vec<HexId> {
        self.hexes.iter().filter(|(_, i)| i.place.as_ref().is_some_and(|p| p.name.eq_ignore_ascii_case(name))).map(|(h, _)| *h).collect()
    }
    /// The first hex of a named place.
    pub fn find_place(&self, name: &str) -> Option<HexId> {
        self.place_hexes(name).into_iter().next()
    }
    /// VP data of a hex, if it is a VP hex.
    pub fn vp_hex(&self, hex: HexId) -> Option<&VpHex> {
        self.vp_hexes.get(&hex)
    }
    /// Every on-map hex reachable from `start` over passable hexsides.
    pub fn reachable_from(&self, start: HexId) -> BTreeSet<HexId> {
        let mut seen = BTreeSet::new();
        if !self.contains(start) {
            return seen;
        }
        let mut todo = vec![start];
        seen.insert(start);
        while let Some(h) = todo.pop() {
            for (_, n) in self.neighbours(h) {
                if self.passable(h, n) && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    }
    /// An ASCII picture of the map in the same layout as [`MapFile::terrain`] (north up,
    /// west left), for debugging and docs.
    pub fn picture(&self) -> String {
        let (Some(rmin), Some(rmax)) = (self.hexes.keys().map(|h| h.row).min(), self.hexes.keys().map(|h| h.row).max()) else {
            return String::new();
        };
        let cmin = self.hexes.keys().map(|h| h.col).min().unwrap_or(0);
        let cmax = self.hexes.keys().map(|h| h.col).max().unwrap_or(0);
        let mut out = String::new();
        for r in rmin..=rmax {
            out.push_str(&format!("{r:02} "));
            if r % 2 == 0 {
                out.push(' ');
            }
            for c in (cmin..=cmax).rev() {
                let ch = match self.hexes.get(&HexId::new(r, c)) {
                    None => '-',
                    Some(i) if i.paris => 'P',
                    Some(i) => match &i.place {
                        Some(Place { kind: PlaceKind::City, .. }) => 'C',
                        Some(_) => 'T',
                        None => i.terrain.letter(),
                    },
                };
                out.push(ch);
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }

    /// Check a raw map and build it. Problems name the offending line or hex.
    pub fn from_file(raw: &MapFile) -> Result<Map, Vec<String>> {
        let mut problems = Vec::new();
        let mut hexes = BTreeMap::new();

        // Legend.
        let mut legend: BTreeMap<char, Option<Terrain>> = BTreeMap::new();
        for t in [Terrain::Clear, Terrain::Hills, Terrain::Forest, Terrain::Swamp, Terrain::Mountain] {
            legend.insert(t.letter(), Some(t));
        }
        legend.insert('-', None);
        for (k, v) in &raw.legend {
            let mut chars = k.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                problems.push(format!("map.legend: key {k:?} must be a single character"));
                continue;
            };
            if v == "none" {
                legend.insert(c, None);
            } else if let Some(t) = Terrain::from_word(v) {
                legend.insert(c, Some(t));
            } else {
                problems
                    .push(format!("map.legend: {k:?} maps to unknown terrain {v:?} (use clear, hills, forest, swamp, mountain or none)"));
            }
        }

        // Terrain grid.
        let (west, east) = (raw.columns.west, raw.columns.east);
        if west < east {
            problems.push(format!("map.columns: west ({west}) must be the higher column number (columns grow westward), east is {east}"));
        }
        let width = (west as usize + 1).saturating_sub(east as usize);
        let mut seen_rows = BTreeSet::new();
        for (n, line) in raw.terrain.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let mut tokens = line.split_whitespace();
            let Some(row_tok) = tokens.next() else { continue };
            let Ok(row) = row_tok.parse::<u8>() else {
                problems.push(format!("map.terrain line {}: {row_tok:?} is not a row number", n + 1));
                continue;
            };
            if row > 99 {
                problems.push(format!("map.terrain line {}: row {row} is over 99", n + 1));
                continue;
            }
            if !seen_rows.insert(row) {
                problems.push(format!("map.terrain line {}: row {row:02} appears twice", n + 1));
                continue;
            }
            let cells: Vec<char> = tokens.flat_map(|t| t.chars()).collect();
            if cells.len() != width {
                problems.push(format!(
                    "map.terrain row {row:02}: {} cells, expected {width} (columns {west:02} down to {east:02})",
                    cells.len()
                ));
                continue;
            }
            for (i, ch) in cells.into_iter().enumerate() {
                let col = west - i as u8;
                match legend.get(&ch) {
                    None => problems.push(format!("map.terrain hex {row:02}{col:02}: unknown terrain letter {ch:?}")),
                    Some(None) => {}
                    Some(Some(t)) => {
                        hexes.insert(
                            HexId::new(row, col),
                            HexInfo {
                                terrain: *t,
                                country: raw.country,
                                place: None,
                                paris: false,
                                coastal: false,
                                port: false,
                                east_of_meuse: false,
                                paris_in_danger: false,
                            },
                        );
                    }
                }
            }
        }
        if hexes.is_empty() {
            problems.push("map.terrain: the map has no hexes".to_string());
        }

        // Countries: the grid first, then the lists.
        for (n, line) in raw.country_grid.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let mut tokens = line.split_whitespace();
            let Some(row_tok) = tokens.next() else { continue };
            let Ok(row) = row_tok.parse::<u8>() else {
                problems.push(format!("map.country_grid line {}: {row_tok:?} is not a row number", n + 1));
                continue;
            };
            let cells: Vec<char> = tokens.flat_map(|t| t.chars()).collect();
            if cells.len() != width {
                problems.push(format!("map.country_grid row {row:02}: {} cells, expected {width}", cells.len()));
                continue;
            }
            for (i, ch) in cells.into_iter().enumerate() {
                let h = HexId::new(row, west - i as u8);
                match (Country::from_letter(ch), hexes.get_mut(&h)) {
                    (Some(c), Some(info)) => info.country = c,
                    (None, Some(_)) => problems.push(format!("map.country_grid hex {h}: unknown country letter {ch:?} (f g b l n s)")),
                    (Some(_), None) => problems.push(format!("map.country_grid hex {h}: a country for a hex the terrain grid leaves out")),
                    (None, None) => {}
                }
            }
        }
        for (country, list) in &raw.countries {
            for h in list {
                match hexes.get_mut(h) {
                    Some(i) => i.country = *country,
                    None => problems.push(format!("map.countries.{country:?}: hex {h} is not on the map")),
                }
            }
        }

        // Places.
        let mut names = BTreeSet::new();
        for p in &raw.places {
            if p.name.trim().is_empty() {
                problems.push("map.places: a place has an empty name".to_string());
            }
            if !names.insert(p.name.to_lowercase()) {
                problems.push(format!("map.places: {:?} is listed twice", p.name));
            }
            let mut list = p.hexes.clone();
            list.extend(p.hex);
            if list.is_empty() {
                problems.push(format!("map.places: {:?} has no hex (give hex or hexes)", p.name));
            }
            for h in list {
                match hexes.get_mut(&h) {
                    Some(i) if i.place.is_some() => problems.push(format!(
                        "map.places: {:?} at {h}: the hex already holds {:?}",
                        p.name,
                        i.place.as_ref().map(|x| x.name.clone()).unwrap_or_default()
                    )),
                    Some(i) => i.place = Some(Place { name: p.name.clone(), kind: p.kind }),
                    None => problems.push(format!("map.places: {:?} at {h}: hex is not on the map", p.name)),
                }
            }
        }

        // Flags.
        let mut danger = Vec::new();
        for item in &raw.paris_in_danger {
            match parse_range(item) {
                Ok(list) => danger.extend(list),
                Err(m) => problems.push(format!("map.paris_in_danger: {m}")),
            }
        }
        let mut flag = |what: &str, list: &[HexId], set: &mut dyn FnMut(&mut HexInfo)| {
            for h in list {
                match hexes.get_mut(h) {
                    Some(i) => set(i),
                    None => problems.push(format!("map.{what}: hex {h} is not on the map")),
                }
            }
        };
        flag("paris", &raw.paris, &mut |i| i.paris = true);
        flag("coastal", &raw.coastal, &mut |i| i.coastal = true);
        flag("ports", &raw.ports, &mut |i| {
            i.port = true;
        });
        flag("east_of_meuse", &raw.east_of_meuse, &mut |i| i.east_of_meuse = true);
        flag("paris_in_danger", &danger, &mut |i| i.paris_in_danger = true);

        // Hexsides.
        let mut hexsides = BTreeMap::new();
        let mut river_names = BTreeMap::new();
        let mut add_side = |what: String, kind: Hexside, text: &str, name: Option<&str>, problems: &mut Vec<String>| {
            for tok in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
                let Some((a, b)) = tok.split_once('/') else {
                    problems.push(format!("{what}: {tok:?} is not a hexside like 3130/3230"));
                    continue;
                };
                let (Ok(a), Ok(b)) = (a.parse::<HexId>(), b.parse::<HexId>()) else {
                    problems.push(format!("{what}: {tok:?} is not a hexside like 3130/3230"));
                    continue;
                };
                if !a.is_adjacent(b) {
                    problems.push(format!("{what}: {a} and {b} are not adjacent"));
                    continue;
                }
                if !hexes.contains_key(&a) && !hexes.contains_key(&b) {
                    problems.push(format!("{what}: hexside {a}/{b} has neither hex on the map"));
                    continue;
                }
                let k = side_key(a, b);
                if let Some(old) = hexsides.insert(k, kind) {
                    problems.push(format!("{what}: hexside {a}/{b} is already a {old:?}"));
                }
                if let Some(n) = name {
                    river_names.insert(k, n.to_string());
                }
            }
        };
        for r in &raw.rivers {
            let kind = match r.kind {
                RiverKind::Minor => Hexside::MinorRiver,
                RiverKind::Major => Hexside::MajorRiver,
            };
            add_side(format!("map.rivers {:?}", r.name), kind, &r.hexsides, Some(&r.name), &mut problems);
        }
        add_side("map.all_sea".to_string(), Hexside::AllSea, &raw.all_sea, None, &mut problems);

        // Edges: derived from the shape, unless listed.
        let mut edges: BTreeMap<Edge, BTreeSet<HexId>> = BTreeMap::new();
        let on = |h: Option<HexId>| h.is_some_and(|h| hexes.contains_key(&h));
        for e in Edge::ALL {
            let set: BTreeSet<HexId> = match raw.edges.get(&e) {
                Some(spec) => {
                    let mut set = BTreeSet::new();
                    for item in spec {
                        match parse_range(item) {
                            Ok(list) => {
                                for h in list {
                                    if hexes.contains_key(&h) {
                                        set.insert(h);
                                    } else {
                                        problems.push(format!("map.edges.{e:?}: hex {h} is not on the map"));
                                    }
                                }
                            }
                            Err(m) => problems.push(format!("map.edges.{e:?}: {m}")),
                        }
                    }
                    set
                }
                None => hexes
                    .keys()
                    .copied()
                    .filter(|h| match e {
                        Edge::North => !on(h.neighbour(0)) && !on(h.neighbour(5)),
                        Edge::South => !on(h.neighbour(2)) && !on(h.neighbour(3)),
                        Edge::East => !on(h.neighbour(1)),
                        Edge::West => !on(h.neighbour(4)),
                    })
                    .collect(),
            };
            edges.insert(e, set);
        }

        // Inland ports' access hexes.
        let mut port_access = BTreeMap::new();
        for (port, list) in &raw.port_access {
            match hexes.get(port) {
                Some(i) if i.port => {}
                Some(_) => problems.push(format!("map.port_access: {port} is not listed under ports")),
                None => problems.push(format!("map.port_access: port {port} is not on the map")),
            }
            for h in list {
                if !hexes.contains_key(h) {
                    problems.push(format!("map.port_access: access hex {h} of port {port} is not on the map"));
                }
            }
            port_access.insert(*port, list.clone());
        }

        // The Meuse boundary (GE 3.8): the hexes the east edge reaches without crossing it.
        let mut meuse = BTreeSet::new();
        for tok in raw.meuse_line.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            match tok.split_once('/').map(|(a, b)| (a.parse::<HexId>(), b.parse::<HexId>())) {
                Some((Ok(a), Ok(b))) if a.is_adjacent(b) => {
                    meuse.insert(side_key(a, b));
                }
                _ => problems.push(format!("map.meuse_line: {tok:?} is not a hexside of two adjacent hexes like 1520/1620")),
            }
        }
        if !meuse.is_empty() {
            let east: Vec<HexId> = edges.get(&Edge::East).into_iter().flatten().copied().collect();
            let mut seen: BTreeSet<HexId> = east.iter().copied().collect();
            let mut todo = east;
            while let Some(h) = todo.pop() {
                for (_, n) in h.neighbours() {
                    if hexes.contains_key(&n) && !meuse.contains(&side_key(h, n)) && seen.insert(n) {
                        todo.push(n);
                    }
                }
            }
            if seen.len() == hexes.len() {
                problems.push("map.meuse_line: the line does not cut the map; every hex would be east of the Meuse".to_string());
            }
            for h in seen {
                if let Some(i) = hexes.get_mut(&h) {
                    i.east_of_meuse = true;
                }
            }
        }

        if problems.is_empty() {
            Ok(Map { hexes, hexsides, river_names, edges, vp_hexes: BTreeMap::new(), port_access, meuse, closed: None })
        } else {
            Err(problems)
        }
    }
}

/// Parse `"3130"`, `"2220..2240"` (a row, columns in either order) or `"2220..3820"` (a
/// column, rows in either order).
pub fn parse_range(s: &str) -> Result<Vec<HexId>, String> {
    let s = s.trim();
    let Some((a, b)) = s.split_once("..") else {
        return Ok(vec![s.parse::<HexId>()?]);
    };
    let (a, b) = (a.trim().parse::<HexId>()?, b.trim().parse::<HexId>()?);
    if a.row == b.row {
        let (lo, hi) = (a.col.min(b.col), a.col.max(b.col));
        Ok((lo..=hi).map(|c| HexId::new(a.row, c)).collect())
    } else if a.col == b.col {
        let (lo, hi) = (a.row.min(b.row), a.row.max(b.row));
        Ok((lo..=hi).map(|r| HexId::new(r, a.col)).collect())
    } else {
        Err(format!("{s:?}: a range must stay in one row or one column"))
    }
}

/// River size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RiverKind {
    Minor,
    Major,
}

/// Column span of the terrain grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ColumnSpan {
    /// The westernmost (highest) column: the first letter of each terrain line.
    pub west: u8,
    /// The easternmost (lowest) column: the last letter of each terrain line.
    pub east: u8,
}

/// A named place as written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceFile {
    pub name: String,
    pub kind: PlaceKind,
    /// The hex (for a one-hex place).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexId>,
    /// The hexes (for a place spanning several hexes, like Paris).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexes: Vec<HexId>,
}

/// A river as written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RiverFile {
    pub name: String,
    pub kind: RiverKind,
    /// Hexsides as `AAAA/BBBB` pairs separated by spaces or commas.
    pub hexsides: String,
}

/// The map as written in a scenario file: a terrain grid, one text line per row, and short
/// lists for everything else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// Free text: where the map comes from (e.g. "representative, not the published map").
    #[serde(default)]
    pub source: String,
    pub columns: ColumnSpan,
    /// Extra or replacement legend letters: `{"w": "forest", "x": "none"}`. Built in:
    /// `.` clear, `h` hills, `f` forest, `s` swamp, `m` mountain, `-` no hex.
    #[serde(default)]
    pub legend: BTreeMap<String, String>,
    /// One line per row: the row number, then one letter per column from `columns.west`
    /// down to `columns.east` (spaces between letters are ignored; `#` starts a comment).
    pub terrain: String,
    /// The country of every hex not listed in `countries`.
    #[serde(default = "default_country")]
    pub country: Country,
    #[serde(default)]
    pub countries: BTreeMap<Country, Vec<HexId>>,
    /// Countries as a grid in the terrain grid's layout, one letter per hex: `f` France,
    /// `g` Germany, `b` Belgium, `l` Luxembourg, `n` Netherlands, `s` Switzerland, `-` no hex.
    /// Applied before `countries`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub country_grid: String,
    #[serde(default)]
    pub places: Vec<PlaceFile>,
    #[serde(default)]
    pub paris: Vec<HexId>,
    #[serde(default)]
    pub coastal: Vec<HexId>,
    #[serde(default)]
    pub ports: Vec<HexId>,
    #[serde(default)]
    pub east_of_meuse: Vec<HexId>,
    /// The Meuse boundary of GE 3.8 as `AAAA/BBBB` hexsides. Every hex the east edge reaches
    /// without crossing it is east of the Meuse (added to `east_of_meuse`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub meuse_line: String,
    /// Inland ports and their river-access hexes: `{1226: [1126, 1127, 1227]}` (GE 7.9).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub port_access: BTreeMap<HexId, Vec<HexId>>,
    /// Hexes inside the "Paris in Danger" perimeter, as ids or ranges `2933..2938`.
    #[serde(default)]
    pub paris_in_danger: Vec<String>,
    #[serde(default)]
    pub rivers: Vec<RiverFile>,
    /// All-sea hexsides as `AAAA/BBBB` pairs.
    #[serde(default)]
    pub all_sea: String,
    /// Edge hexes as single ids or ranges `2220..2240`; an edge not listed is derived from
    /// the shape of the grid.
    #[serde(default)]
    pub edges: BTreeMap<Edge, Vec<String>>,
}

fn default_country() -> Country {
    Country::France
}

/// Maps keyed by hexside, serialised as a list of `[a, b, value]`.
mod hexside_map {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer, V: Serialize>(m: &BTreeMap<(HexId, HexId), V>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(m.iter().map(|((a, b), k)| (a, b, k)))
    }
    pub fn deserialize<'de, D: Deserializer<'de>, V: Deserialize<'de>>(d: D) -> Result<BTreeMap<(HexId, HexId), V>, D::Error> {
        let v: Vec<(HexId, HexId, V)> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(|(a, b, k)| (side_key(a, b), k)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> HexId {
        s.parse().unwrap()
    }

    fn small() -> MapFile {
        let text = r#"
columns: {west: 24, east: 20}
terrain: |
  10 . . h f s
  11  . . . m .
  12 . . . . -
places:
  - {name: Big, kind: city, hex: 1022}
  - {name: Small, kind: town, hex: 1121}
paris: [1022]
rivers:
  - {name: Blue, kind: major, hexsides: "1020/1120 1021/1120"}
  - {name: Brook, kind: minor, hexsides: "1122/1123"}
all_sea: "1224/1223"
"#;
        yaml_serde::from_str(text).unwrap()
    }

    #[test]
    fn grid_and_queries() {
        let m = Map::from_file(&small()).unwrap();
        assert_eq!(m.hexes.len(), 14);
        assert!(!m.contains(h("1220")));
        assert_eq!(m.hex(h("1022")).unwrap().terrain, Terrain::Hills);
        assert_eq!(m.hex(h("1020")).unwrap().terrain, Terrain::Swamp);
        assert_eq!(m.hex(h("1121")).unwrap().terrain, Terrain::Mountain);
        assert_eq!(m.terrain_drm(h("1022")), -1); // city on hills
        assert_eq!(m.terrain_drm(h("1121")), -2); // town on mountain
        assert_eq!(m.terrain_drm(h("1020")), -1);
        assert!(m.is_paris(h("1022")));
        assert_eq!(m.entry_cost(h("1120"), h("1020")), Some(4)); // swamp + major river
        assert_eq!(m.entry_cost(h("1122"), h("1123")), Some(1)); // minor river: no extra MP
        assert_eq!(m.river_drm(h("1122"), h("1123")), -1);
        assert_eq!(m.entry_cost(h("1224"), h("1223")), None); // all sea
        assert_eq!(m.entry_cost(h("1221"), h("1220")), None); // off map
        assert_eq!(m.entry_cost(h("1020"), h("1022")), None); // not adjacent
        assert_eq!(m.find_place("small"), Some(h("1121")));
        assert_eq!(m.river_name(h("1120"), h("1021")), Some("Blue"));
        assert!(m.is_edge(h("1022"), Edge::North));
        assert!(m.is_edge(h("1224"), Edge::South));
        assert!(m.is_edge(h("1221"), Edge::South));
        assert!(m.is_edge(h("1221"), Edge::East)); // 1220 is not a hex
        assert!(m.is_edge(h("1124"), Edge::West));
        assert!(!m.is_edge(h("1124"), Edge::North));
        assert_eq!(m.reachable_from(h("1022")).len(), 14);
    }

    #[test]
    fn map_round_trips_through_json() {
        let m = Map::from_file(&small()).unwrap();
        let j = serde_json::to_string(&m).unwrap();
        let back: Map = serde_json::from_str(&j).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn bad_maps_are_reported() {
        let mut f = small();
        f.terrain = "10 . . h f\n11 . . x . .\n10 . . . . .\n".to_string();
        f.rivers[0].hexsides = "1020/1122 junk".to_string();
        let e = Map::from_file(&f).unwrap_err();
        let all = e.join("\n");
        assert!(all.contains("row 10: 4 cells, expected 5"), "{all}");
        assert!(all.contains("unknown terrain letter 'x'"), "{all}");
        assert!(all.contains("row 10 appears twice"), "{all}");
        assert!(all.contains("1020 and 1122 are not adjacent"), "{all}");
        assert!(all.contains("\"junk\" is not a hexside"), "{all}");
    }

    #[test]
    fn ranges() {
        assert_eq!(parse_range("2220..2223").unwrap().len(), 4);
        assert_eq!(parse_range("3020..2520").unwrap().len(), 6);
        assert!(parse_range("2220..2321").is_err());
    }
}
