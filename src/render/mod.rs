//! Pictures of a game state, for players and referees (DESIGN §3).
//!
//! A ruleset says only WHAT to draw: it fills a ruleset-agnostic [`Picture`] (hex cells with
//! fills, labels and marks; hexsides with a style; counters; arrows). [`svg`] turns any
//! picture into SVG text and [`html`] assembles the self-contained replay page. A new ruleset
//! gets pictures by describing its pieces, never by writing SVG.
//!
//! Everything is integer: positions are hex coordinates (or integer millimetres for tables and
//! area graphs), colours are RGB bytes, and the SVG writer prints integers only, so the same
//! picture always gives the same bytes.

pub mod html;
pub mod svg;

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
    pub const BLACK: Rgb = Rgb(0, 0, 0);
    pub const WHITE: Rgb = Rgb(255, 255, 255);
}

/// Axial hex coordinates in the renderer's convention: pointy-top hexes, `q` grows to the
/// east along a row, `r` grows to the south; the neighbour to the south-east is `(q, r + 1)`
/// and to the south-west `(q − 1, r + 1)`. Rulesets with another numbering convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Axial {
    pub q: i32,
    pub r: i32,
}

impl Axial {
    /// The renderer's coordinates of a hex in the shared numbering of [`crate::geo::hex::HexId`]
    /// (printed columns grow to the west, odd rows sit half a hex west): `q = −(q_hex + r)`
    /// with `(q_hex, r)` from [`crate::geo::hex::HexId::axial`]. Every hex ruleset draws
    /// through it.
    pub fn of_hex(h: crate::geo::hex::HexId) -> Axial {
        let (q, r) = h.axial();
        Axial { q: -(q + r), r }
    }
}

/// A whole picture: a title line, a few lines of notes, a legend and the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// `"Turn 8 (4–6 Sep), Allied player turn, phase E: operational movement"`.
    pub title: String,
    /// Short facts shown under the title (`"VP: German 6, Allied 0"`, off-map units…).
    pub notes: Vec<String>,
    /// Colour keys shown under the board.
    pub legend: Vec<LegendItem>,
    pub kind: Kind,
}

/// One colour key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendItem {
    pub colour: Rgb,
    pub text: String,
}

/// What kind of board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A hex grid.
    HexMap(HexMap),
    /// Areas joined by links (point-to-point and area-movement games).
    AreaGraph(AreaGraph),
    /// Free placement on a table, in integer millimetres (miniatures-style games).
    Table(Table),
}

/// A hex map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexMap {
    /// Every hex to draw (drawn in this order).
    pub cells: Vec<Cell>,
    /// Hexside features.
    pub sides: Vec<Side>,
    /// Counters, bottom of each stack first; counters in one hex are drawn as a stack.
    pub counters: Vec<Counter>,
    /// Arrows (attacks), drawn on top.
    pub arrows: Vec<Arrow>,
}

/// One hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The printed id (`"3130"`), shown small at the top of the hex.
    pub id: String,
    pub axial: Axial,
    pub fill: Rgb,
    /// A town or city in the hex.
    pub place: Option<PlaceMark>,
    /// A victory-point value printed in a star (`"2"`), coloured for the side that scores it.
    pub vp: Option<(String, Rgb)>,
    /// Draw a thick outline of this colour (objectives such as automatic-victory hexes).
    pub outline: Option<Rgb>,
    /// Markers that change during play (control), drawn above the map, under the counters.
    pub marks: Vec<Mark>,
}

/// A named place in a hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceMark {
    pub name: String,
    pub kind: PlaceKind,
}

/// How big a place is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceKind {
    Town,
    City,
}

/// A marker on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub shape: MarkShape,
    pub colour: Rgb,
    /// A letter or two printed on the marker.
    pub text: String,
    /// Tooltip.
    pub title: String,
}

/// Marker shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkShape {
    /// A control marker: a small flag in the hex's upper left.
    Control,
    /// A dot in the hex's upper right.
    Dot,
}

/// A hexside feature between two adjacent cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub a: Axial,
    pub b: Axial,
    pub style: SideStyle,
}

/// How a hexside is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideStyle {
    /// Thin blue.
    MinorRiver,
    /// Thick blue.
    MajorRiver,
    /// Impassable (all-sea and the like): thick dark grey.
    Impassable,
    /// A border: dashed.
    Border,
}

/// A unit counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counter {
    /// The cell it stands in.
    pub at: Axial,
    /// Counter colour (nationality).
    pub colour: Rgb,
    /// Text colour on it.
    pub ink: Rgb,
    /// NATO type symbol.
    pub symbol: Symbol,
    /// Size mark above the symbol (`"XXX"`).
    pub size: String,
    /// Designation (`"9"`, `"Gd"`, `"4R Grp"`), at the top.
    pub top_text: String,
    /// Values (`"4-3-4"`), at the bottom.
    pub bottom_text: String,
    /// Steps now and at most (strength levels), drawn as pips.
    pub steps: Option<(u32, u32)>,
    /// Status badges drawn on the counter's corner (`"OOC"`).
    pub badges: Vec<Badge>,
    /// Tooltip: the full name and state.
    pub title: String,
}

/// A small status tag on a counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Badge {
    pub text: String,
    pub colour: Rgb,
}

/// NATO unit-type symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// Box with a cross.
    Infantry,
    /// Box with one diagonal.
    Cavalry,
    /// Box with a filled dot.
    Artillery,
    /// A fort (crenellated box).
    Fortress,
    /// An empty box.
    Other,
}

/// An arrow between two cells (an attack: from an attacker's hex to the target).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub from: Axial,
    pub to: Axial,
    pub colour: Rgb,
    /// Tooltip / caption (`"prepared assault 2:1"`).
    pub title: String,
}

/// An area-movement board: areas at integer positions (millimetres), joined by links.
/// Every counter of an area is drawn side by side in the area's box (none hides another).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AreaGraph {
    /// The areas (their centres at least 50 mm apart in one direction, so boxes never meet).
    pub areas: Vec<Area>,
    /// Pairs of area indices.
    pub links: Vec<(usize, usize)>,
    /// Counters by area index, in the order drawn.
    pub counters: Vec<(usize, Counter)>,
}

/// One area.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    pub id: String,
    /// The heading (`"1 Flanders"`).
    pub name: String,
    /// Words shown under the heading, wrapped to the area's width (`["Calais", "Lille*"]`).
    pub detail: Vec<String>,
    /// Centre, in millimetres.
    pub x_mm: i32,
    pub y_mm: i32,
    pub fill: Rgb,
}

/// A table with pieces at integer millimetre positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub width_mm: i32,
    pub height_mm: i32,
    /// Terrain areas, drawn first (y grows up the page in table coordinates: the writer
    /// flips it).
    pub areas: Vec<TableArea>,
    /// Polylines: linear terrain, facing marks and arcs of fire, drawn over the areas.
    pub lines: Vec<TableLine>,
    pub pieces: Vec<Piece>,
}

/// A terrain polygon on a table, in mm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableArea {
    pub label: String,
    pub points: Vec<(i32, i32)>,
    pub fill: Rgb,
}

/// A polyline on a table, in mm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLine {
    pub points: Vec<(i32, i32)>,
    pub colour: Rgb,
    pub width_mm: i32,
    /// Dashed (arcs of fire).
    pub dashed: bool,
}

/// A rectangular piece on a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub label: String,
    pub x_mm: i32,
    pub y_mm: i32,
    pub w_mm: i32,
    pub h_mm: i32,
    /// Facing in tenths of a degree, clockwise from north.
    pub facing_decideg: i32,
    pub colour: Rgb,
}

/// Escape text for XML/HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
