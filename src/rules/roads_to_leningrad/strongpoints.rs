//! Strongpoints (RTL-14): building them in the Construction Phase of an Assault sequence
//! (14.2), completing them then or in the Reorganization Segment (14.25), removing them
//! (14.26), and the questions the other rules ask of them (supply 14.11, movement 14.12,
//! combat 14.13, overruns 8.64c).
//!
//! Only a completed strongpoint has effects, and only for the side that built it: to the
//! other side it is an enemy strongpoint (the TEC's row, 6.21c, 8.64c), which that side
//! removes by holding the hex at a Reorganization (14.26a).

use super::movement::active_unit;
use super::state::{State, Strongpoint, Supply};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Whether `h` holds a completed strongpoint of the enemy of `side` (RTL-14.11, 14.12, 8.64c).
pub fn enemy_sp(s: &State, h: HexId, side: &str) -> bool {
    s.completed_sp(h, &s.scenario.other(side))
}

/// Whether the units defending `h` stand in a completed strongpoint of their own
/// (RTL-14.13, 10.22b, 10.61f5): defenders in the attacker's strongpoint get nothing.
pub fn defended(s: &State, h: HexId) -> bool {
    s.units_at(h).next().is_some_and(|u| s.completed_sp(h, &u.side))
}

/// Why `id` may not start a strongpoint now, if it may not (RTL-14.22–14.25, 2.24, 3.72f,
/// 6.14e, S3.27). `taken` holds the hexes already started in this Construction Phase.
pub fn why_not(s: &State, side: &str, id: &str, taken: &[HexId]) -> Option<(&'static str, String)> {
    let Some(u) = s.unit(id) else { return Some(("RTL-14.22", format!("no unit {id}"))) };
    let Some(d) = s.data(id) else { return Some(("RTL-14.22", format!("no unit {id}"))) };
    if u.side != side {
        return Some(("RTL-14.22", format!("{id} is not yours: a strongpoint is built by a friendly unit in its hex")));
    }
    let Some(h) = u.hex else { return Some(("RTL-14.22", format!("{id} is not on the map"))) };
    if !d.is_sp_builder() {
        return Some((
            "RTL-14.23",
            format!("{id} ({:?}) cannot build: only infantry, motorized infantry and engineers build strongpoints", d.kind),
        ));
    }
    if !active_unit(s, u) {
        return Some((
            "RTL-14.25",
            format!("{id} is not active: the builder belongs to the active formation or is an Army unit activated with it (14.25a, d)"),
        ));
    }
    if u.disrupted {
        return Some(("RTL-3.72", format!("{id} is Disrupted: it cannot start a strongpoint (3.72f, 14.24)")));
    }
    if u.supply == Supply::Out {
        return Some(("RTL-6.14", format!("{id} is Out of Supply: it cannot start a strongpoint (6.14e, 14.24)")));
    }
    if s.scenario.terrain.get(&h) == Some(&super::scenario::Terrain::Swamp) {
        return Some(("RTL-14.22", format!("{h} is swamp: no strongpoint can be built there")));
    }
    if s.strongpoint(h).is_some() || taken.contains(&h) {
        return Some(("RTL-14.22", format!("{h} already has a strongpoint (completed or under construction): one a hex")));
    }
    if let Some(t) = s.scenario.raw.strongpoints.no_build_before.get(&u.formation) {
        let from = s.scenario.raw.turns.iter().position(|x| x == t).map(|i| i as u16 + 1).unwrap_or(0);
        if s.turn < from {
            return Some(("S3.27", format!("{id}: the {} builds no strongpoint before {t}", u.formation)));
        }
    }
    if let Some(&limit) = s.scenario.raw.strongpoints.markers.get(side) {
        let used = s.strongpoints.iter().filter(|p| p.side == side).count() + taken.len();
        if used as u32 >= limit {
            return Some((
                "RTL-2.24",
                format!("all {limit} of your strongpoint markers are on the map: remove an unoccupied one first (14.26c)"),
            ));
        }
    }
    None
}

/// Whether a builder may still complete its strongpoint (RTL-14.24, 14.25c, 3.72f, 6.14e).
fn fit(s: &State, p: &Strongpoint) -> Result<(), &'static str> {
    let Some(u) = p.builder.as_deref().and_then(|b| s.unit(b)) else { return Err("its builder is gone") };
    if u.hex != Some(p.hex) {
        return Err("its builder has left the hex");
    }
    if u.disrupted {
        return Err("its builder is Disrupted (3.72f)");
    }
    if u.supply == Supply::Out {
        return Err("its builder is Out of Supply (6.14e)");
    }
    Ok(())
}

/// Complete or abandon the strongpoints `which` selects (RTL-14.25c, 14.24).
fn complete(s: &mut State, rule: &str, which: impl Fn(&State, &Strongpoint) -> bool) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut keep = Vec::new();
    for p in std::mem::take(&mut s.strongpoints) {
        if p.builder.is_none() || !which(s, &p) {
            keep.push(p);
            continue;
        }
        let b = p.builder.clone().unwrap_or_default();
        match fit(s, &p) {
            Ok(()) => {
                ev.push(Event::rule(rule, format!("{b} completes the {} strongpoint at {}", p.side, p.hex)));
                keep.push(Strongpoint { builder: None, ..p });
            }
            Err(why) => ev.push(Event::rule("RTL-14.24", format!("the strongpoint under construction at {} is removed: {why}", p.hex))),
        }
    }
    s.strongpoints = keep;
    ev
}

/// The Construction Phase of an Assault sequence (RTL-14.25, Expanded Sequence B.1): the
/// strongpoints whose builder is activated again are completed, then the named units
/// start new ones.
pub fn construction(s: &mut State, side: &str, build: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut ev =
        complete(s, "RTL-14.25", |s, p| p.side == side && p.builder.as_deref().and_then(|b| s.unit(b)).is_some_and(|u| active_unit(s, u)));
    let mut taken = Vec::new();
    let mut errs = Vec::new();
    for id in build {
        match why_not(s, side, id, &taken) {
            Some((rule, msg)) => errs.push(Violation::new(rule, msg).unit(id.clone())),
            None => {
                let Some(h) = s.unit(id).and_then(|u| u.hex) else { continue };
                taken.push(h);
                ev.push(Event::rule("RTL-14.25", format!("{id} starts a strongpoint at {h} (under construction)")));
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for (id, h) in build.iter().zip(taken) {
        s.strongpoints.push(Strongpoint { hex: h, side: side.to_string(), builder: Some(id.clone()) });
    }
    Ok(ev)
}

/// A Mobile or Pass sequence builds nothing (RTL-7.21a, c; 14.25a).
pub fn refuse_outside_assault(build: &[String]) -> Result<(), Vec<Violation>> {
    if build.is_empty() {
        return Ok(());
    }
    Err(vec![Violation::new(
        "RTL-14.25",
        "strongpoints are started only in the Construction Phase of an Assault sequence (14.25a): choose os: assault or drop `build`",
    )])
}

/// A builder moved, overran or was declared in an attack: its strongpoint under
/// construction is removed at once (RTL-14.26b).
pub fn abandon(s: &mut State, id: &str, what: &str) -> Vec<Event> {
    let mut ev = Vec::new();
    s.strongpoints.retain(|p| {
        let mine = p.builder.as_deref() == Some(id);
        if mine {
            ev.push(Event::rule("RTL-14.26b", format!("{id} {what}: its strongpoint under construction at {} is removed", p.hex)));
        }
        !mine
    });
    ev
}

/// After combat: a builder that retreated or was eliminated loses its strongpoint under
/// construction (RTL-14.26b); one that defended and stayed keeps it (14.26b note).
pub fn sweep(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let gone: Vec<(HexId, String)> = s
        .strongpoints
        .iter()
        .filter_map(|p| p.builder.clone().map(|b| (p.hex, b)))
        .filter(|(h, b)| s.unit(b).and_then(|u| u.hex) != Some(*h))
        .collect();
    for (h, b) in gone {
        s.strongpoints.retain(|p| p.hex != h);
        ev.push(Event::rule("RTL-14.26b", format!("{b} left {h}: its strongpoint under construction is removed")));
    }
    ev
}

/// The owner removes unoccupied strongpoints of his (RTL-14.26c); a hostile order naming
/// the enemy's or an occupied one is refused.
pub fn remove(s: &mut State, side: &str, hexes: &[HexId]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut ev = Vec::new();
    for &h in hexes {
        let err = |msg: String| Err(vec![Violation::new("RTL-14.26", msg).hex(h.to_string())]);
        match s.strongpoint(h) {
            None => return err(format!("{h} holds no strongpoint")),
            Some(p) if p.side != side => {
                return err(format!(
                    "the strongpoint at {h} is the enemy's: you remove it by holding the hex at a Reorganization (14.26a)"
                ));
            }
            Some(_) if s.units_at(h).next().is_some() => {
                return err(format!("units stand in {h}: only an unoccupied strongpoint may be removed (14.26c)"));
            }
            Some(_) => {}
        }
        s.strongpoints.retain(|p| p.hex != h);
        ev.push(Event::rule("RTL-14.26c", format!("the {side} player removes his strongpoint at {h}")));
    }
    Ok(ev)
}

/// The Construction Phase of the Reorganization Segment (RTL-14.26a, 14.25c; Expanded
/// Sequence C.1): enemy strongpoints held by a non-Disrupted unit are removed (a
/// Disrupted one removes nothing, 3.72f), then strongpoints under construction are
/// completed if their builder still qualifies. It comes before disruption is removed.
pub fn reorganize(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut keep = Vec::new();
    for p in std::mem::take(&mut s.strongpoints) {
        let taker = s.units_at(p.hex).find(|u| u.side != p.side && !u.disrupted).map(|u| u.id.clone());
        match taker {
            Some(t) => ev.push(Event::rule("RTL-14.26a", format!("{t} holds {}: the {} strongpoint there is removed", p.hex, p.side))),
            None => keep.push(p),
        }
    }
    s.strongpoints = keep;
    ev.extend(complete(s, "RTL-14.25c", |_, _| true));
    ev
}
