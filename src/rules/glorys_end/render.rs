//! What a Glory's End position looks like: the ruleset's side of `src/render/`. This file
//! only describes the board and the pieces as a [`Picture`]; it writes no SVG.
//!
//! Hex ids convert to the renderer's axial coordinates with the conversion every hex ruleset
//! shares, [`Axial::of_hex`].

use std::collections::BTreeSet;

use super::map::{self as ge_map, Hexside, Terrain};
use super::state::{Kind, Place, SideId, State, Unit};
use super::vp;
use crate::geo::hex::HexId;
use crate::render::{
    Arrow, Axial, Badge, Cell, Counter, HexMap, LegendItem, Mark, MarkShape, Picture, PlaceKind, PlaceMark, Rgb, Side, SideStyle, Symbol,
};

const CLEAR: Rgb = Rgb(0xf3, 0xef, 0xd8);
const HILLS: Rgb = Rgb(0xd8, 0xbd, 0x86);
const FOREST: Rgb = Rgb(0x9c, 0xc4, 0x86);
const SWAMP: Rgb = Rgb(0xa6, 0xcf, 0xc6);
const MOUNTAIN: Rgb = Rgb(0xb0, 0x94, 0x72);
const PARIS: Rgb = Rgb(0xe9, 0xc4, 0xbc);
/// Hexes out of play in this game (Switzerland, the Netherlands unless invaded, a country left
/// neutral in the free deployment: GE 3.2, 3.6), so a reader sees at once where nobody may go.
const OUT_OF_PLAY: Rgb = Rgb(0xc4, 0xc4, 0xc4);

const GERMAN: Rgb = Rgb(0x9b, 0x9b, 0x96);
const FRENCH: Rgb = Rgb(0x3a, 0x68, 0xc0);
const BRITISH: Rgb = Rgb(0xd2, 0xb4, 0x8c);
const BELGIAN: Rgb = Rgb(0xa9, 0xd3, 0xf2);
const OTHER: Rgb = Rgb(0xe0, 0xe0, 0xe0);

const ARROW: Rgb = Rgb(0xd0, 0x1c, 0x1c);
const OBJECTIVE: Rgb = Rgb(0xc0, 0x00, 0x00);
const OOC: Rgb = Rgb(0xf0, 0x8c, 0x00);
const OOS: Rgb = Rgb(0xb0, 0x00, 0x20);

/// The renderer's axial coordinates of a hex (the shared conversion, [`Axial::of_hex`]).
fn axial(h: HexId) -> Axial {
    Axial::of_hex(h)
}

fn terrain_fill(t: Terrain) -> Rgb {
    match t {
        Terrain::Clear => CLEAR,
        Terrain::Hills => HILLS,
        Terrain::Forest => FOREST,
        Terrain::Swamp => SWAMP,
        Terrain::Mountain => MOUNTAIN,
    }
}

/// Counter colour and ink by nationality.
fn nation_colours(nation: &str) -> (Rgb, Rgb) {
    match nation {
        "DE" => (GERMAN, Rgb::BLACK),
        "FR" => (FRENCH, Rgb::WHITE),
        "GB" => (BRITISH, Rgb::BLACK),
        "BE" => (BELGIAN, Rgb::BLACK),
        _ => (OTHER, Rgb::BLACK),
    }
}

fn nation_name(nation: &str) -> &str {
    match nation {
        "DE" => "German",
        "FR" => "French",
        "GB" => "British",
        "BE" => "Belgian",
        other => other,
    }
}

fn side_colour(s: SideId) -> Rgb {
    match s {
        SideId::German => GERMAN,
        SideId::Allied => FRENCH,
    }
}

/// `"FR 4R Grp [XXX]"` → `"4R Grp"`; `"DE Gd XXX"` → `"Gd"`; `"Paris fort (north)"` → as is.
fn designation(u: &Unit) -> String {
    if u.kind == Kind::Fortress {
        return "Fort".into();
    }
    let mut words: Vec<&str> = u.name.split_whitespace().collect();
    if words.first() == Some(&u.nation.as_str()) {
        words.remove(0);
    }
    if words.last().is_some_and(|w| w.trim_matches(|c| c == '[' || c == ']').chars().all(|c| c == 'X') && !w.is_empty()) {
        words.pop();
    }
    if words.is_empty() { u.id.clone() } else { words.join(" ") }
}

/// The size mark: `XXX`, or `[XXX]` for a bracketed group.
fn size_mark(u: &Unit) -> String {
    if u.kind == Kind::Fortress {
        return String::new();
    }
    match u.name.split_whitespace().last() {
        Some(w) if w.starts_with('[') => w.to_string(),
        _ => u.size.symbol().to_string(),
    }
}

/// Values at the current SL: `5-4-4`, cavalry `(2)1-6`.
fn values(u: &Unit) -> String {
    let v = u.now();
    match v.vs_cavalry {
        Some((ca, cd)) if ca == cd && v.attack == v.defence => format!("({ca}){}-{}", v.attack, v.movement),
        _ => format!("{}-{}-{}", v.attack, v.defence, v.movement),
    }
}

fn counter(u: &Unit, at: HexId) -> Counter {
    let (colour, ink) = nation_colours(&u.nation);
    let symbol = match u.kind {
        Kind::Infantry => Symbol::Infantry,
        Kind::Cavalry => Symbol::Cavalry,
        Kind::Fortress => Symbol::Fortress,
        Kind::SiegeGun => Symbol::Artillery,
    };
    let mut badges = Vec::new();
    let mut flags = Vec::new();
    if u.ooc {
        badges.push(Badge { text: "OOC".into(), colour: OOC });
        flags.push("out of command");
    }
    if u.oos_at_start {
        badges.push(Badge { text: "OOS".into(), colour: OOS });
        flags.push("out of supply");
    }
    if u.moved {
        flags.push("moved");
    }
    if u.attacked {
        flags.push("attacked");
    }
    if u.retreated {
        flags.push("retreated");
    }
    let flags = if flags.is_empty() { String::new() } else { format!(" [{}]", flags.join(", ")) };
    Counter {
        at: axial(at),
        colour,
        ink,
        symbol,
        size: size_mark(u),
        top_text: designation(u),
        bottom_text: values(u),
        steps: Some((u.sl as u32, u.max_sl as u32)),
        badges,
        title: format!("{} {} {} SL {}/{} at {at}{flags}", u.id, u.name, values(u), u.sl, u.max_sl),
    }
}

/// The picture of a state (pass `view(state, seat)` for what a seat sees).
pub fn picture(state: &State) -> Picture {
    let board = state.board.map();
    let mut map = HexMap::default();
    let vp_hexes: Vec<(HexId, SideId, i32)> = state.town_vp.clone();
    let auto_win: BTreeSet<HexId> = state.german_auto_win.iter().copied().collect();

    // Control markers where permanent control differs from the start.
    let mut changed: BTreeSet<HexId> = BTreeSet::new();
    for h in state.control.keys().chain(state.initial_control.keys()) {
        if state.control.get(h) != state.initial_control.get(h) {
            changed.insert(*h);
        }
    }

    for (h, info) in &board.hexes {
        let place = info.place.as_ref().map(|p| PlaceMark {
            name: p.name.clone(),
            kind: if p.kind == ge_map::PlaceKind::City || info.paris { PlaceKind::City } else { PlaceKind::Town },
        });
        let vp = vp_hexes.iter().find(|(vh, _, _)| vh == h).map(|(_, side, v)| (v.to_string(), side_colour(*side)));
        let mut marks = Vec::new();
        if changed.contains(h)
            && let Some(s) = state.control.get(h)
        {
            let was = state.initial_control.get(h).map_or("none", |w| w.title());
            marks.push(Mark {
                shape: MarkShape::Control,
                colour: side_colour(*s),
                text: s.title()[..1].to_string(),
                title: format!("{h}: {} control (was {was})", s.title()),
            });
        }
        // GE-14.3: a fortified zone marker, in its nationality's colour.
        if let Some(z) = state.fortified.get(h) {
            marks.push(Mark {
                shape: MarkShape::Dot,
                colour: nation_colours(&z.nation).0,
                text: "FZ".into(),
                title: format!("{h}: {} fortified zone", nation_name(&z.nation)),
            });
        }
        map.cells.push(Cell {
            id: h.to_string(),
            axial: axial(*h),
            fill: if board.closed(info.country) {
                OUT_OF_PLAY
            } else if info.paris {
                PARIS
            } else {
                terrain_fill(info.terrain)
            },
            place,
            vp,
            outline: auto_win.contains(h).then_some(OBJECTIVE),
            marks,
        });
    }
    for ((a, b), side) in &board.hexsides {
        let style = match side {
            Hexside::AllSea => SideStyle::Impassable,
            Hexside::MajorRiver => SideStyle::MajorRiver,
            Hexside::MinorRiver => SideStyle::MinorRiver,
        };
        map.sides.push(Side { a: axial(*a), b: axial(*b), style });
    }

    // Counters: by hex; in a stack, fortresses at the bottom and the strongest on top.
    let mut occupied: Vec<HexId> = state.units.iter().filter_map(|u| u.hex()).collect();
    occupied.sort();
    occupied.dedup();
    for h in occupied {
        let mut here: Vec<&Unit> = state.units_at(h).collect();
        here.sort_by_key(|u| (u.mobile(), u.now().attack + u.now().defence, u.sl));
        for u in here {
            map.counters.push(counter(u, h));
        }
    }

    // The battle in progress: an arrow from each attacking hex to the target.
    let mut notes = Vec::new();
    let (de, al) = vp::totals(state);
    let mut first = format!("VP now: German {de}, Allied {al}");
    if let Some(o) = &state.outcome {
        first.push_str(&format!(" — {}", crate::engine::game::describe_outcome(o)));
    }
    notes.push(first);
    if let Some(b) = &state.battle {
        let mut from: Vec<HexId> =
            b.attackers.iter().filter_map(|id| state.unit(id)).filter_map(|u| u.hex()).filter(|h| *h != b.target).collect();
        from.sort();
        from.dedup();
        for f in from {
            map.arrows.push(Arrow { from: axial(f), to: axial(b.target), colour: ARROW, title: b.describe() });
        }
        notes.push(format!("Battle: {} by {}", b.describe(), b.attackers.join(", ")));
    }
    let list = |pred: &dyn Fn(&Unit) -> Option<String>| state.units.iter().filter_map(pred).collect::<Vec<_>>().join(", ");
    let arriving = list(&|u| match u.place {
        Place::Reinforcement(t) => Some(format!("{} (turn {t})", u.id)),
        _ => None,
    });
    if !arriving.is_empty() {
        notes.push(format!("To arrive: {arriving}"));
    }
    let gone = list(&|u| match u.place {
        Place::Eliminated => Some(u.id.clone()),
        _ => None,
    });
    if !gone.is_empty() {
        notes.push(format!("Eliminated: {gone}"));
    }
    let off = list(&|u| match u.place {
        Place::OffMap => Some(u.id.clone()),
        _ => None,
    });
    if !off.is_empty() {
        notes.push(format!("Off map: {off}"));
    }

    let mut legend = vec![
        LegendItem { colour: CLEAR, text: "clear".into() },
        LegendItem { colour: HILLS, text: "hills".into() },
        LegendItem { colour: FOREST, text: "forest".into() },
        LegendItem { colour: SWAMP, text: "swamp".into() },
    ];
    if board.hexes.values().any(|i| i.terrain == Terrain::Mountain) {
        legend.push(LegendItem { colour: MOUNTAIN, text: "mountain".into() });
    }
    if board.hexes.values().any(|i| i.paris) {
        legend.push(LegendItem { colour: PARIS, text: "Paris".into() });
    }
    legend.push(LegendItem { colour: Rgb(0x1f, 0x5f, 0xbf), text: "river (thick: major)".into() });
    let mut nations: Vec<&str> = Vec::new();
    for n in ["DE", "FR", "GB", "BE"] {
        if state.units.iter().any(|u| u.nation == n) {
            nations.push(n);
        }
    }
    for n in nations {
        legend.push(LegendItem { colour: nation_colours(n).0, text: nation_name(n).into() });
    }
    legend.push(LegendItem { colour: OOC, text: "out of command".into() });
    if board.hexes.values().any(|i| board.closed(i.country)) {
        legend.push(LegendItem { colour: OUT_OF_PLAY, text: "grey hex: out of play (neutral)".into() });
    }
    if !state.fortified.is_empty() {
        legend.push(LegendItem { colour: Rgb(0xff, 0xff, 0xff), text: "dot FZ: fortified zone".into() });
    }
    if !auto_win.is_empty() {
        legend.push(LegendItem { colour: OBJECTIVE, text: "German auto-win hex (dashed)".into() });
    }
    legend.push(LegendItem { colour: Rgb(0xff, 0xff, 0xff), text: "flag: control changed; star: VP town".into() });

    Picture {
        title: format!("{}, {} player turn, {}", state.turn_text(), state.player.title(), state.phase_text()),
        notes,
        legend,
        kind: crate::render::Kind::HexMap(map),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axial_puts_higher_columns_west_and_odd_rows_half_a_hex_west() {
        // Same row, column 30 is one hex west of column 29.
        let a = axial(HexId::new(31, 30));
        let b = axial(HexId::new(31, 29));
        assert_eq!((b.q - a.q, b.r - a.r), (1, 0));
        // Every GE neighbour is a renderer neighbour.
        for h in [HexId::new(30, 30), HexId::new(31, 30)] {
            for (_, n) in h.neighbours() {
                let (a, b) = (axial(h), axial(n));
                let d = (b.q - a.q, b.r - a.r);
                assert!([(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)].contains(&d), "{h} {n} {d:?}");
            }
        }
    }
}
