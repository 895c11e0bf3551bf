//! Supply (WEF 9.3–9.7): sources, supply lines, the halving of out-of-supply units in
//! combat, and attrition.
//!
//! Readings: a lake hexside carries no supply line (9.5 asks for hexsides "containing land");
//! neutral Romania carries no line (3.2); Jassy is a Russian source once Romania is at war
//! (15.6). Not built: voluntary OOS (9.8: nothing to do).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::board::Country;
use super::control::tracked;
use super::state::{Kind, Nat, Place, Side, State, Unit};
use crate::engine::Event;
use crate::geo::hex::HexId;

/// The supply line's length (9.5), the source hex counted, the unit's own not.
pub const LINE: u32 = 4;

/// The edge hexes by Odessa the Russian may not use as a railroad's end (9.6).
pub(super) const ODESSA_EDGE: [HexId; 3] = [HexId { row: 42, col: 31 }, HexId { row: 42, col: 32 }, HexId { row: 42, col: 33 }];

/// A unit's supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Traced to a source (9.5, 9.6).
    Supplied,
    /// Only the fortress or capital it stands in supplies it: for defence and attrition (9.7).
    Limited,
    Out,
}

/// A friendly map-edge hex of `side` (B.2): the CP's west edge and the south edge in A-H, the
/// Russian east edge; not while the enemy occupies it.
pub fn friendly_edge(s: &State, side: Side, h: HexId) -> bool {
    on_edge(s, side, h) && s.occupant(h) != Some(side.other())
}

/// Whether `h` lies on `side`'s map edge (the coordinates first: most hexes are not).
fn on_edge(s: &State, side: Side, h: HexId) -> bool {
    let country = |h| s.board.get(h).map(|i| i.country);
    match side {
        Side::Central => {
            (h.row == s.board.west_column() && country(h).is_some())
                || (h.col == s.board.south_row() && country(h) == Some(Country::AustriaHungary))
        }
        Side::Russian => h.row == s.board.east_column() && country(h).is_some(),
    }
}

/// Who holds each hex now: the occupant, else the recorded control (3.8), looked up once per
/// trace rather than by a walk over every unit per hex. Built anew for each trace, since the
/// units move between them.
pub(super) struct Holders<'a> {
    s: &'a State,
    occupied: BTreeMap<HexId, Side>,
}

impl<'a> Holders<'a> {
    pub(super) fn new(s: &'a State) -> Self {
        let mut occupied = BTreeMap::new();
        for u in &s.units {
            if let Some(h) = u.hex() {
                occupied.entry(h).or_insert(u.side());
            }
        }
        Holders { s, occupied }
    }
    pub(super) fn occupant(&self, h: HexId) -> Option<Side> {
        self.occupied.get(&h).copied()
    }
    /// As [`controller`].
    pub(super) fn controller(&self, h: HexId) -> Option<Side> {
        self.occupant(h).or_else(|| self.s.control.get(&h).copied())
    }
    /// A hex the enemy blocks for rail tracing: his units, or a town, city or victory hex he
    /// controls (9.6).
    pub(super) fn rail_blocked(&self, side: Side, h: HexId) -> bool {
        self.occupant(h) == Some(side.other()) || (tracked(self.s, h) && self.controller(h) == Some(side.other()))
    }
}

/// Every supply source of `side` (9.6): its edge hexes, the towns and cities it controls that
/// reach a friendly edge by railroad, and its sea link (Königsberg, Odessa) while it holds it.
pub fn sources(s: &State, side: Side) -> BTreeSet<HexId> {
    let held = Holders::new(s);
    let mut out: BTreeSet<HexId> =
        s.board.hexes().map(|(h, _)| h).filter(|&h| on_edge(s, side, h) && held.occupant(h) != Some(side.other())).collect();
    let mut seen = BTreeSet::new();
    let mut queue: VecDeque<HexId> = out
        .iter()
        .copied()
        .filter(|&h| s.board.rail_end(h) && !(side == Side::Russian && ODESSA_EDGE.contains(&h)) && !held.rail_blocked(side, h))
        .collect();
    seen.extend(queue.iter().copied());
    while let Some(h) = queue.pop_front() {
        if s.board.place(h).is_some() && held.controller(h) == Some(side) {
            out.insert(h);
        }
        for n in s.board.rail_next(h) {
            if !seen.contains(&n) && !held.rail_blocked(side, n) {
                seen.insert(n);
                queue.push_back(n);
            }
        }
    }
    let sea = match side {
        Side::Central => "Konigsberg",
        Side::Russian => "Odessa",
    };
    if let Some(h) = s.board.named(sea).filter(|&h| held.controller(h) == Some(side)) {
        out.insert(h);
    }
    // 9.6, 15.6: Jassy once Romania is at war.
    if side == Side::Russian
        && let Some(j) = super::brusilov::jassy_source(s)
    {
        out.insert(j);
    }
    out
}

/// Whether a supply line of at most [`LINE`] hexes runs from `from` to one of `sources`
/// (9.5): hex to adjacent land hex, never across an all-sea or lake hexside, never into a hex
/// holding enemy units.
pub fn traced(s: &State, side: Side, from: HexId, sources: &BTreeSet<HexId>) -> bool {
    if sources.contains(&from) {
        return true;
    }
    let mut seen = BTreeSet::from([from]);
    let mut frontier = vec![from];
    for _ in 0..LINE {
        let mut next = Vec::new();
        for h in frontier {
            for (_, n) in h.neighbours() {
                if s.board.get(n).is_none() {
                    continue;
                }
                if seen.contains(&n) || s.board.sea_side(h, n) || s.board.lake(h, n) || super::brusilov::neutral(s, n) {
                    continue;
                }
                if s.occupant(n) == Some(side.other()) {
                    continue;
                }
                if sources.contains(&n) {
                    return true;
                }
                seen.insert(n);
                next.push(n);
            }
        }
        frontier = next;
    }
    false
}

/// Whether `u` stands in an intact fortress of its side or its national capital (9.7).
fn limited_source(s: &State, u: &Unit, h: HexId) -> bool {
    let fortress = !s.fallen_forts.contains(&h) && s.units_at(h).any(|o| o.kind == Kind::Fortress && o.side() == u.side());
    let capital = match (s.board.place(h), u.nat) {
        (Some((name, super::scenario::PlaceKind::Capital)), nat) => match nat {
            Nat::DE | Nat::TU => name == "Berlin",
            Nat::AH => name == "Vienna" || name == "Budapest",
            Nat::RU | Nat::RO => name == "Petrograd",
        },
        _ => false,
    };
    fortress || capital
}

/// The supply of a unit on the map, given its side's sources.
pub fn status(s: &State, u: &Unit, sources: &BTreeSet<HexId>) -> Status {
    let Some(h) = u.hex() else { return Status::Out };
    if traced(s, u.side(), h, sources) {
        Status::Supplied
    } else if limited_source(s, u, h) {
        Status::Limited
    } else {
        Status::Out
    }
}

/// 9.4: at the start of a side's Attrition phase its units out of supply are eliminated
/// (a fortress or capital keeps its units, 9.7).
pub fn attrition(s: &mut State, side: Side) -> Vec<Event> {
    let src = sources(s, side);
    let out: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.side() == side && u.hex().is_some() && status(s, u, &src) == Status::Out)
        .map(|u| u.id.clone())
        .collect();
    let mut ev = Vec::new();
    for id in out {
        if let Some(u) = s.unit_mut(&id) {
            u.place = Place::Eliminated;
            u.sl = 0;
            ev.push(Event::rule("WEF 9.4", format!("{} is out of supply and eliminated", u.label())));
        }
    }
    ev
}
