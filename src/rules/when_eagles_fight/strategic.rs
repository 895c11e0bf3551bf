//! Strategic movement (WEF 11.1–11.6), with the supply bar of 9.2 and the west-edge
//! reinforcements of 10.7; also the railroad net and the "supplied from a friendly map edge"
//! test that restoring (10.11), withdrawals (10.15) and conversions (10.14) ask for.
//!
//! Readings (docs): the engine finds the route, so an order names only the unit and the town
//! or city it goes to; a route follows railroad links (a hex with a railroad that is not
//! linked to the next one is no route) and, like rail supply (9.6), never enters a hex with
//! enemy units or a town, city or victory hex the enemy controls; stacking holds in every hex
//! of the route (8.2); each unit uses SM once a game turn, and every unit counts as one
//! against the limits, divisions and heavy artillery included (digest: "a division counts as
//! 1 unit"); units with no movement allowance (fortress infantry) never use it. A route may
//! leave the map where a railroad leaves a friendly edge and come back where another one
//! leaves the same edge (11.6); the engine takes such a route for a Russian unit only when
//! no route on the map exists.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::board::Country;
use super::control::controller;
use super::orders::{Action, Rail};
use super::state::{Kind, Nat, Side, State, Unit};
use super::supply::{self, Holders, ODESSA_EDGE, friendly_edge};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Which friendly edge a hex lies on, if any (B.2): 0 the CP's west edge, 1 the CP's south
/// edge in A-H, 2 the Russian east edge. Off-map SM returns by the same edge (11.6).
fn edge(s: &State, side: Side, h: HexId) -> Option<u8> {
    if !friendly_edge(s, side, h) {
        return None;
    }
    match side {
        Side::Central if h.row == s.board.west_column() => Some(0),
        Side::Central => Some(1),
        Side::Russian => Some(2),
    }
}

/// Where a railroad leaves the map at a friendly edge of `side` (9.6).
fn exit(s: &State, side: Side, h: HexId) -> bool {
    edge(s, side, h).is_some() && s.board.rail_end(h) && !(side == Side::Russian && ODESSA_EDGE.contains(&h))
}

/// Every railroad hex joined to a friendly map edge of `side` by railroad, the enemy's hexes
/// avoided (9.6, 11.2).
pub fn rail_net(s: &State, side: Side) -> BTreeSet<HexId> {
    let held = Holders::new(s);
    let mut seen: BTreeSet<HexId> = s.board.hexes().map(|(h, _)| h).filter(|&h| exit(s, side, h) && !held.rail_blocked(side, h)).collect();
    let mut queue: VecDeque<HexId> = seen.iter().copied().collect();
    while let Some(h) = queue.pop_front() {
        for n in s.board.rail_next(h) {
            if !seen.contains(&n) && !held.rail_blocked(side, n) {
                seen.insert(n);
                queue.push_back(n);
            }
        }
    }
    seen
}

/// The sources that reach a friendly map edge (10.11, 10.14, 10.15): the friendly edge hexes
/// and the towns and cities of `side` joined to one by railroad; not the sea links nor the
/// fortresses and capitals (9.7).
pub fn edge_sources(s: &State, side: Side) -> BTreeSet<HexId> {
    let mut out: BTreeSet<HexId> = s.board.hexes().map(|(h, _)| h).filter(|&h| friendly_edge(s, side, h)).collect();
    out.extend(rail_net(s, side).into_iter().filter(|&h| s.board.place(h).is_some() && controller(s, h) == Some(side)));
    out
}

/// Whether `u` is supplied from a friendly map edge (a 9.5 line to one of [`edge_sources`]).
pub fn edge_supplied(s: &State, u: &Unit, sources: &BTreeSet<HexId>) -> bool {
    u.hex().is_some_and(|h| supply::traced(s, u.side(), h, sources))
}

/// The SM limits of the current turn for a pool (11.3–11.5): units, and for the Germans the
/// cap on those starting or ending in Russia.
pub fn limits(s: &State, nat: Nat) -> (u32, Option<u32>) {
    let band = s.charts.sm_limits.iter().find(|b| (b.turns[0]..=b.turns[1]).contains(&s.turn));
    match (band, super::logistics::pool(nat)) {
        (Some(b), Nat::DE) => (b.DE, b.DE_in_russia),
        (Some(b), Nat::AH) => (b.AH, None),
        (Some(b), _) => (b.RU, None),
        (None, _) => (0, None),
    }
}

/// SM units of a pool this turn, and of them the Germans that started or ended in Russia.
fn used(s: &State, nat: Nat) -> (u32, u32) {
    let mut n = 0;
    let mut russia = 0;
    for (id, in_russia) in &s.logistics.rail {
        if s.unit(id).is_some_and(|u| super::logistics::pool(u.nat) == super::logistics::pool(nat)) {
            n += 1;
            russia += u32::from(*in_russia);
        }
    }
    (n, russia)
}

/// Whether a nationality may use hex `h` in SM (11.3–11.5, 3.2, 6.3): A-H units only in
/// A-H, Russians only in Russia and Russian Poland, Germans anywhere but neutral Romania.
fn country_ok(s: &State, nat: Nat, h: HexId) -> bool {
    let Some(c) = s.board.get(h).map(|i| i.country) else { return false };
    match nat {
        Nat::AH => c == Country::AustriaHungary,
        Nat::RU => c.russian(),
        // 15.6: the Romanian army in Russia or Romania, never north of xx29.
        Nat::RO => (c.russian() || c == Country::Romania) && h.col >= super::brusilov::ROMANIA_NORTH_LIMIT,
        Nat::DE | Nat::TU => !super::brusilov::neutral(s, h),
    }
}

/// The towns and cities `u` can reach by SM now, each with whether the route leaves the map
/// (11.6). Only the route itself is judged here (11.2, 11.6, 8.2), not the limits.
pub fn reachable(s: &State, u: &Unit, net: &BTreeSet<HexId>) -> BTreeMap<HexId, bool> {
    let Some(start) = u.hex() else { return BTreeMap::new() };
    let side = u.side();
    let held = Holders::new(s);
    let ok =
        |h: HexId| net.contains(&h) && country_ok(s, u.nat, h) && !held.rail_blocked(side, h) && super::stacking::room(s, h, &[u]).is_ok();
    // The net's exits and their edges, found once: off-map SM hops between them (11.6).
    let exits: Vec<(HexId, u8)> = net.iter().filter(|&&o| exit(s, side, o)).filter_map(|&o| edge(s, side, o).map(|e| (o, e))).collect();
    let mut out = BTreeMap::new();
    for off_map in [false, true] {
        let mut seen = BTreeSet::from([start]);
        let mut queue = VecDeque::from([start]);
        while let Some(h) = queue.pop_front() {
            let mut next: Vec<HexId> = s.board.rail_next(h).collect();
            if off_map && let Some(&(_, e)) = exits.iter().find(|(x, _)| *x == h) {
                next.extend(exits.iter().filter(|&&(o, oe)| o != h && oe == e).map(|&(o, _)| o));
            }
            for n in next {
                if seen.contains(&n) || !ok(n) {
                    continue;
                }
                seen.insert(n);
                queue.push_back(n);
                if s.board.place(n).is_some() && held.controller(n) == Some(side) {
                    out.entry(n).or_insert(off_map);
                }
            }
        }
    }
    out.remove(&start);
    out
}

/// Whether `u` may begin SM where it stands (11.2, 10.7, 9.2), or why not.
fn may_start(s: &State, u: &Unit, net: &BTreeSet<HexId>, sources: &BTreeSet<HexId>) -> Result<(), Violation> {
    let Some(h) = u.hex() else { return Err(Violation::new("WEF 11.2", "the unit is not on the map").unit(u.id.clone())) };
    if u.factors()[2] == 0 {
        return Err(Violation::new("WEF 11.1", "a unit with no movement allowance never moves").unit(u.id.clone()));
    }
    if s.logistics.rail.contains_key(&u.id) {
        return Err(Violation::new("WEF 11.2", "the unit has used strategic movement this turn already").unit(u.id.clone()));
    }
    // 10.7: a German reinforcement entering on the west edge starts as if from a town or city.
    let west_entry = u.nat.german() && h.row == s.board.west_column() && s.logistics.entered.contains(&u.id);
    if !west_entry {
        if supply::status(s, u, sources) != supply::Status::Supplied {
            return Err(Violation::new("WEF 9.2", "the unit is out of supply at the start of its SM phase and may not use SM")
                .unit(u.id.clone())
                .hex(h.to_string()));
        }
        if s.board.place(h).is_none() {
            return Err(Violation::new("WEF 11.2", format!("SM starts in a town or city; {h} is neither"))
                .unit(u.id.clone())
                .hex(h.to_string()));
        }
    }
    if !net.contains(&h) || !country_ok(s, u.nat, h) {
        return Err(Violation::new(
            "WEF 11.2",
            format!("{h} has no railroad joined to a friendly map edge that this unit may use (11.2–11.5)"),
        )
        .unit(u.id.clone())
        .hex(h.to_string()));
    }
    Ok(())
}

/// Check a strategic move; on success, whether its route leaves the map.
pub fn check(s: &State, side: Side, r: &Rail) -> Result<bool, Vec<Violation>> {
    if !(s.phase.strategic() && s.phase.side() == side) {
        return Err(vec![Violation::new(
            "WEF 11.2",
            format!("strategic movement happens in the side's SM phase; now: {}", s.phase.title()),
        )]);
    }
    let Some(u) = s.unit(&r.unit) else { return Err(vec![Violation::new("WEF 11.2", format!("no unit {}", r.unit)).unit(r.unit.clone())]) };
    if u.side() != side {
        return Err(vec![Violation::new("WEF 11.2", "not your unit").unit(r.unit.clone())]);
    }
    let net = rail_net(s, side);
    may_start(s, u, &net, &supply::sources(s, side)).map_err(|v| vec![v])?;
    let to = r.to;
    let cite = |m: String| vec![Violation::new("WEF 11.2", m).unit(r.unit.clone()).hex(to.to_string())];
    if s.board.place(to).is_none() || controller(s, to) != Some(side) {
        return Err(cite(format!("SM ends in a friendly-controlled town or city; {to} is not one")));
    }
    if !country_ok(s, u.nat, to) {
        let rule = match u.nat {
            Nat::AH => "WEF 11.4",
            Nat::RU => "WEF 11.5",
            // 15.6: the Romanian army's own bound is row xx29.
            Nat::RO => "WEF 15.6",
            _ => "WEF 11.3",
        };
        return Err(vec![
            Violation::new(rule, format!("{} SM stays within its permitted territory; {to} is outside it", u.nat.side().title()))
                .unit(r.unit.clone())
                .hex(to.to_string()),
        ]);
    }
    let Some(&off_map) = reachable(s, u, &net).get(&to) else {
        return Err(cite(format!(
            "no railroad route to {to} joined to a friendly map edge, clear of the enemy and with stacking room on the way (11.2, 11.6, 8.2)"
        )));
    };
    let (limit, russia_cap) = limits(s, u.nat);
    let (n, in_russia) = used(s, u.nat);
    let rule = match super::logistics::pool(u.nat) {
        Nat::DE => "WEF 11.3",
        Nat::AH => "WEF 11.4",
        _ => "WEF 11.5",
    };
    if n >= limit {
        return Err(vec![
            Violation::new(rule, format!("{n} units have used SM this turn; the limit in turn {} is {limit}", s.turn)).unit(r.unit.clone()),
        ]);
    }
    let russian = |h: HexId| s.board.get(h).is_some_and(|i| i.country.russian());
    if let Some(cap) = russia_cap
        && u.nat.german()
        && (u.hex().is_some_and(russian) || russian(to))
        && in_russia >= cap
    {
        return Err(vec![
            Violation::new(
                "WEF 11.3",
                format!("{in_russia} German SM units have started or ended in Russia this turn; the limit in turn {} is {cap}", s.turn),
            )
            .unit(r.unit.clone()),
        ]);
    }
    if super::combat::combined_germans(s, std::slice::from_ref(&r.unit), Some(to))
        > super::combat::combined_limit(s).max(super::combat::combined_germans(s, &[], None))
    {
        return Err(vec![
            Violation::new("WEF 6.4", format!("too many German units in combined stacks with A-H units in turn {}", s.turn))
                .unit(r.unit.clone())
                .hex(to.to_string()),
        ]);
    }
    Ok(off_map)
}

/// Carry out a checked strategic move.
pub fn apply(s: &mut State, r: &Rail, off_map: bool) -> Vec<Event> {
    let Some(u) = s.unit(&r.unit) else { return vec![] };
    let from = u.hex();
    let russian = |h: HexId| s.board.get(h).is_some_and(|i| i.country.russian());
    let in_russia = u.nat.german() && (from.is_some_and(russian) || russian(r.to));
    let nat = u.nat;
    s.logistics.rail.insert(r.unit.clone(), in_russia);
    if let Some(u) = s.unit_mut(&r.unit) {
        u.place = super::state::Place::Hex(r.to);
    }
    let from = from.map(|h| h.to_string()).unwrap_or_default();
    let mut ev = vec![Event::rule("WEF 11.2", format!("{} moves by rail from {from} to {}", r.unit, r.to))];
    if off_map {
        ev.push(Event::rule("WEF 11.6", format!("{}'s route leaves the map and comes back by the same edge", r.unit)));
        if nat.side() == Side::Russian {
            s.logistics.off_map.insert(r.unit.clone());
            ev.push(Event::rule("WEF 11.6", format!("{} may neither move nor fight in this player turn", r.unit)));
        }
    }
    ev
}

/// 11.6: a Russian unit that moved off the map by SM neither moves nor fights this player turn.
pub fn barred(s: &State, a: &Action) -> Option<Violation> {
    let ids: &[String] = match a {
        Action::Move(m) => &m.units,
        Action::Attack(at) => &at.units,
        _ => return None,
    };
    ids.iter().find(|id| s.logistics.off_map.contains(*id)).map(|id| {
        Violation::new("WEF 11.6", "the unit went off the map by strategic movement this turn: it may not move or fight").unit(id.clone())
    })
}

/// Units of `side` that may still use SM now, each with the towns and cities open to it
/// (the limits of the turn aside), for the bot and the template.
pub fn options(s: &State, side: Side) -> Vec<(String, Vec<HexId>)> {
    let net = rail_net(s, side);
    let sources = supply::sources(s, side);
    s.units
        .iter()
        .filter(|u| u.side() == side && u.hex().is_some() && u.kind != Kind::Fortress)
        .filter(|u| may_start(s, u, &net, &sources).is_ok())
        .map(|u| (u.id.clone(), reachable(s, u, &net).into_keys().filter(|&h| country_ok(s, u.nat, h)).collect::<Vec<_>>()))
        .filter(|(_, v)| !v.is_empty())
        .collect()
}
