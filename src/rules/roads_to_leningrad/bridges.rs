//! Bridge units (RTL-16.2): a non-combat counter that spans one stream or river hexside of
//! its hex (16.21) and then counts there as a printed bridge does (`State::water`): the
//! hexside's MP cost is cancelled (8.36b), vehicles and heavy units cross (8.36c), ZOC is
//! projected across it (3.24a) and supply roads go over it (6.22). Attacks across a river
//! stay halved (10.25) and overruns across a river stay forbidden (8.64b): those rules read
//! the water, never the bridge.
//!
//! Like a leader, a bridge is kept apart from the units (`State::bridges`): no strength, MA,
//! stacking value or ZOC, never OoS, Disrupted, captured, eliminated or a step loss (16.25,
//! 16.26), so nothing the units' rules read applies to it, and a hex holding only a bridge
//! holds nothing to attack (9.11). It is removed from the map the moment an enemy combat
//! unit enters its hex (16.26, `sweep`), and goes back off the map: it is not eliminated, so
//! its owner may place it again (reading).
//!
//! By mail: `bridges: [{unit, hex, toward}]` (or `{unit, off_map: true}`) in the entry that
//! opens an Assault sequence (its Construction Phase, before any move) or declares a Pass
//! (16.22, 7.21c); each is checked where it is put, under 16.22 and 16.24 (16.23: a move is a
//! new placement under the same conditions).

use std::collections::BTreeSet;

use super::movement::in_ezoc;
use super::orders::BridgeOrder;
use super::scenario::{Route, Terrain, Water};
use super::state::State;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The command range an HQ lends a bridge placement (RTL-16.22, 15.15: 4 hexes).
pub const RANGE: u32 = super::command::RANGE;

/// Why `side` may not put a bridge in `hex` spanning the hexside toward `toward` now, or
/// `None` (RTL-16.21, 16.22, 16.24, 16.26).
pub fn why_not(s: &State, side: &str, hex: HexId, toward: HexId) -> Option<(&'static str, String)> {
    let on = |h: &HexId| s.scenario.terrain.contains_key(h);
    if !on(&hex) || !on(&toward) {
        return Some(("RTL-16.21", format!("{hex} and {toward} must both be map hexes")));
    }
    if !hex.is_adjacent(toward) {
        return Some(("RTL-16.21", format!("{toward} is not next to {hex}: a bridge spans a hexside of its own hex")));
    }
    match s.scenario.water(hex, toward) {
        Some((Water::Stream | Water::River, _)) => {}
        Some((Water::Lake, _)) => {
            return Some(("RTL-16.21", format!("the {hex}-{toward} hexside is a lake: a bridge spans only a stream or a river")));
        }
        None => return Some(("RTL-16.21", format!("no stream or river on the {hex}-{toward} hexside: nothing to bridge"))),
    }
    if s.scenario.terrain.get(&hex) == Some(&Terrain::Swamp)
        && !s
            .scenario
            .routes(hex, toward)
            .is_some_and(|r| r.iter().any(|x| matches!(x, Route::PrimaryRoad | Route::SecondaryRoad | Route::Trail | Route::Railroad)))
    {
        return Some((
            "RTL-16.24",
            format!("{hex} is swamp: a bridge goes there only where a road, railway or trail crosses the {hex}-{toward} hexside"),
        ));
    }
    let enemy = s.scenario.other(side);
    if s.occupied_by(hex, &enemy) {
        return Some(("RTL-16.26", format!("{hex} holds enemy combat units: a bridge there would be removed at once")));
    }
    if in_ezoc(s, hex, side) {
        return Some(("RTL-16.22", format!("{hex} is in an enemy ZOC: no bridge is placed there")));
    }
    if !hq_in_range(s, side, hex) {
        return Some(("RTL-16.22", format!("{hex} is not within {RANGE} hexes of any HQ of yours on the map (its command range)")));
    }
    None
}

/// Whether an HQ of `side` on the map has `hex` within its command range (RTL-16.22: any
/// friendly HQ, of any formation; the Arko is usable only for artillery coordination,
/// 16.32, so it lends no range: reading).
pub fn hq_in_range(s: &State, side: &str, hex: HexId) -> bool {
    s.units.iter().any(|u| {
        u.side == side
            && s.data(&u.id).is_some_and(|d| d.kind == super::scenario::Kind::Headquarters && !d.arko)
            && u.hex.is_some_and(|h| h.distance(hex) <= RANGE)
    })
}

/// Every hexside `side` may bridge now, as (hex, toward): for the orders template.
pub fn placements(s: &State, side: &str) -> Vec<(HexId, HexId)> {
    let mut out = BTreeSet::new();
    for (&(a, b), (w, _)) in &s.scenario.water {
        if matches!(w, Water::Lake) {
            continue;
        }
        for (h, n) in [(a, b), (b, a)] {
            if why_not(s, side, h, n).is_none() {
                out.insert((h, n));
            }
        }
    }
    out.into_iter().collect()
}

/// The Construction Phase's bridge orders of `side` (RTL-16.22, 16.23): all checked, every
/// violation reported, then applied in order.
pub fn place(s: &mut State, side: &str, list: &[BridgeOrder]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    for (i, o) in list.iter().enumerate() {
        let v = |rule: &str, msg: String| Violation::new(rule, msg).unit(o.unit.clone());
        if list[..i].iter().any(|p| p.unit == o.unit) {
            errs.push(v("RTL-16.23", format!("{} is named twice: a bridge unit is put in one place", o.unit)));
            continue;
        }
        let Some(b) = s.bridges.iter().find(|b| b.id == o.unit) else {
            errs.push(v("RTL-16.2", format!("{} is not a bridge unit", o.unit)));
            continue;
        };
        if b.side != side {
            errs.push(v("RTL-16.22", format!("{} is not one of your bridge units: only its owner places it", o.unit)));
            continue;
        }
        match (o.off_map, o.hex, o.toward) {
            (true, None, None) => {}
            (true, _, _) => errs.push(v("RTL-16.23", format!("{}: off_map takes it off the map; name no hex with it", o.unit))),
            (false, Some(h), Some(n)) => {
                if let Some((rule, why)) = why_not(s, side, h, n) {
                    errs.push(v(rule, format!("{}: {why}", o.unit)));
                }
            }
            (false, _, _) => errs.push(v(
                "RTL-16.21",
                format!("{}: name its hex and the neighbour across the bridged hexside (hex, toward), or off_map: true", o.unit),
            )),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut ev = Vec::new();
    for o in list {
        if let Some(b) = s.bridges.iter_mut().find(|b| b.id == o.unit) {
            if o.off_map {
                b.hex = None;
                b.toward = None;
                ev.push(Event::rule("RTL-16.23", format!("the {side} player keeps {} off the map", o.unit)));
            } else if let (Some(h), Some(n)) = (o.hex, o.toward) {
                b.hex = Some(h);
                b.toward = Some(n);
                ev.push(Event::rule("RTL-16.22", format!("the {side} player puts {} in {h}, bridging the hexside to {n}", o.unit)));
            }
        }
    }
    Ok(ev)
}

/// Bridge orders outside a Construction Phase that allows them are refused (RTL-16.22).
pub fn refuse(list: &[BridgeOrder], why: &str) -> Result<(), Vec<Violation>> {
    if list.is_empty() {
        return Ok(());
    }
    Err(list.iter().map(|o| Violation::new("RTL-16.22", format!("{}: {why}", o.unit)).unit(o.unit.clone())).collect())
}

/// RTL-16.26: a bridge whose hex an enemy combat unit has entered is removed from the map
/// at once (it goes back off the map: reading). Looked at after every entry and every
/// roll, as the leaders' displacement is.
pub fn sweep(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let hit: Vec<usize> = (0..s.bridges.len())
        .filter(|&i| {
            let b = &s.bridges[i];
            let enemy = s.scenario.other(&b.side);
            b.hex.is_some_and(|h| s.occupied_by(h, &enemy))
        })
        .collect();
    for i in hit {
        let b = &mut s.bridges[i];
        let Some(h) = b.hex.take() else { continue };
        b.toward = None;
        ev.push(Event::rule("RTL-16.26", format!("an enemy combat unit entered {h}: {} is removed from the map", b.id)));
    }
    ev
}
