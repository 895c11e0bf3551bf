//! Supply (RTL-6): traced once per turn in the Supply Determination Phase, at the simplest
//! faithful level. A unit is in supply when a line of at most 7 hexes (5 in Rain or through
//! marsh or swamp) reaches a friendly source or the friendly supply-road network; the
//! markers move in → Emergency → Out of Supply (6.12).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::movement::in_ezoc;
use super::scenario::{Route, Terrain, Water};
use super::state::{State, Supply, Weather};
use crate::engine::Event;
use crate::geo::hex::HexId;

/// A hex a supply line or road may use (6.21, 6.24): no enemy unit; not in EZOC unless a
/// friendly combat unit stands there; no completed enemy strongpoint, even with friends in
/// the hex: it must be removed first (6.21c, 14.11).
fn open_hex(s: &State, h: HexId, side: &str) -> bool {
    let enemy = s.scenario.other(side);
    s.scenario.terrain.contains_key(&h)
        && !s.occupied_by(h, &enemy)
        && (!in_ezoc(s, h, side) || s.occupied_by(h, side))
        && !super::strongpoints::enemy_sp(s, h, side)
}

/// Whether a line may cross the hexside (lakes; rivers without a bridge).
fn crossable(s: &State, a: HexId, b: HexId) -> bool {
    !matches!(s.water(a, b), Some((Water::Lake, _)) | Some((Water::River, false)))
}

/// The friendly sources still working: not held by an enemy unit (6.31).
pub fn sources(s: &State, side: &str) -> Vec<HexId> {
    let enemy = s.scenario.other(side);
    s.scenario.raw.supply.get(side).map(|v| v.iter().copied().filter(|&h| !s.occupied_by(h, &enemy)).collect()).unwrap_or_default()
}

/// The supply-road network (6.22): primary and secondary roads (and trails for plain units
/// in Dry or Cloudy weather) joined to a source, free of the enemy, streams and rivers only
/// at bridges.
pub fn road_net(s: &State, side: &str, trails: bool) -> BTreeSet<HexId> {
    let mut net: BTreeSet<HexId> = sources(s, side).into_iter().collect();
    let mut q: VecDeque<HexId> = net.iter().copied().collect();
    while let Some(h) = q.pop_front() {
        for (_, n) in h.neighbours() {
            if net.contains(&n) || !open_hex(s, n, side) {
                continue;
            }
            let Some(rs) = s.scenario.routes(h, n) else { continue };
            let road = rs.iter().any(|r| matches!(r, Route::PrimaryRoad | Route::SecondaryRoad) || (trails && *r == Route::Trail));
            let bridged = !matches!(s.water(h, n), Some((_, false)));
            if road && bridged {
                net.insert(n);
                q.push_back(n);
            }
        }
    }
    net
}

/// Whether a unit of `side` at `from` traces supply to `targets`.
fn traces(s: &State, side: &str, from: HexId, targets: &BTreeSet<HexId>) -> bool {
    if targets.contains(&from) {
        return true;
    }
    let rain = s.weather == Weather::Rain;
    // Breadth-first by (hex, whether the line used marsh or swamp).
    let mut seen: BTreeMap<(HexId, bool), u32> = BTreeMap::new();
    let mut q = VecDeque::from([(from, false, 0u32)]);
    while let Some((h, slow, d)) = q.pop_front() {
        for (_, n) in h.neighbours() {
            if !open_hex(s, n, side) || !crossable(s, h, n) {
                continue;
            }
            let t = s.scenario.terrain.get(&n).copied();
            if t == Some(Terrain::Swamp) && s.scenario.routes(h, n).is_none() {
                continue;
            }
            let slow2 = slow || matches!(t, Some(Terrain::Marsh | Terrain::Swamp));
            let limit = if rain || slow2 { 5 } else { 7 };
            if d + 1 > limit {
                continue;
            }
            if targets.contains(&n) {
                return true;
            }
            if seen.get(&(n, slow2)).is_some_and(|&x| x <= d + 1) {
                continue;
            }
            seen.insert((n, slow2), d + 1);
            q.push_back((n, slow2, d + 1));
        }
    }
    false
}

/// The Supply Determination Phase (6.1, 6.12) for both sides.
pub fn determine(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let fair = s.weather != Weather::Rain;
    let sides: Vec<String> = s.scenario.raw.sides.iter().map(|d| d.id.clone()).collect();
    for side in sides {
        let with_trails = road_net(s, &side, fair);
        let without = road_net(s, &side, false);
        let mut changes = Vec::new();
        for i in 0..s.units.len() {
            let u = &s.units[i];
            let Some(h) = u.hex else { continue };
            if u.side != side {
                continue;
            }
            let plain = s.data(&u.id).is_some_and(|d| !d.mot_column());
            let ok = traces(s, &side, h, if plain { &with_trails } else { &without });
            let next = match (ok, u.supply) {
                (true, _) => Supply::In,
                (false, Supply::In) => Supply::Emergency,
                (false, _) => Supply::Out,
            };
            if next != u.supply {
                changes.push((i, next));
            }
        }
        for (i, next) in changes {
            let u = &mut s.units[i];
            ev.push(Event::rule("RTL-6.12", format!("{} is now {}", u.id, word(next))));
            u.supply = next;
        }
    }
    ev
}

/// The marker's name.
pub fn word(x: Supply) -> &'static str {
    match x {
        Supply::In => "in supply",
        Supply::Emergency => "on Emergency Supply",
        Supply::Out => "Out of Supply",
    }
}
