//! Disorder, rout and the rout retreat (JDG 10, tables E.3 and E.11), and the cohesion test
//! (JDG 0.4.1) that fire results call for.
//!
//! Levels: good order → disordered (the counter's striped face) → routed (a Rout marker on
//! that face) → eliminated. Each disorder moves a unit one level down (10.1); a direct rout
//! puts it at the routed level at once (10.2). Disordered artillery that a fire disorders
//! or routs again is eliminated (10.1). A unit that routs makes its rout retreat at once:
//! 2 hexes (infantry, artillery) or 3 (cavalry), the first away from every attacker, the
//! others away from the hex it started in (10.3.1); a unit that cannot complete it is
//! eliminated.
//!
//! The retreat path is the owner's to choose (F.1 #16; the text does not say who, the digest
//! recommends the owner). This slice applies the default standing policy of digest F.4
//! instead of asking: among the legal paths, the one with the fewest extra disorders
//! (steep slope, ford or bridge crossed, 10.3.4; enemy front-ZOC hex entered, 10.3.5), then
//! an end hex without other units (the original's 5.1.2), then the lowest hex ids in path
//! order. No entry can withhold or delay it, and its author
//! cannot choose it: it is part of the resolution. A chosen path is not built.

use super::movement::{has_zoc, side_cost, stack_problem};
use super::scenario::{Feature, Kind};
use super::state::State;
use super::turn::note_holder;
use crate::engine::Event;
use crate::geo::hex::HexId;

/// Remove a unit from play (JDG 10.2).
pub fn eliminate(s: &mut State, id: &str, why: &str) -> Vec<Event> {
    let Some(u) = s.unit_mut(id) else { return vec![] };
    let at = u.hex.map(|h| h.to_string()).unwrap_or_default();
    u.hex = None;
    u.routed = false;
    vec![Event::rule("JDG 10.2", format!("{id} is eliminated in {at}: {why}"))]
}

/// One level of disorder for unit `id` (JDG 10.1), `fire` when fire caused it (the artillery
/// exception), `attackers` the hexes it must retreat from if it routs.
pub fn disorder(s: &mut State, id: &str, fire: bool, attackers: &[HexId]) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    let Some(h) = u.hex else { return vec![] };
    let mut pre = Vec::new();
    if u.square {
        // 4.2: a disorder in a square breaks the whole stack's square.
        let ids: Vec<String> = s.units_at(h).map(|x| x.id.clone()).collect();
        for x in &ids {
            if let Some(x) = s.unit_mut(x) {
                x.square = false;
            }
        }
        pre.push(Event::rule("JDG 4.2", format!("{id} is disordered in square: {} in {h} leave the square", ids.join(", "))));
    }
    let mut ev = disorder_level(s, id, fire, attackers);
    pre.append(&mut ev);
    pre
}

fn disorder_level(s: &mut State, id: &str, fire: bool, attackers: &[HexId]) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    if u.routed {
        return eliminate(s, id, "a routed unit that suffers a further disorder");
    }
    if u.disordered {
        if fire && u.kind == Kind::Artillery {
            return eliminate(s, id, "disordered artillery disordered again by fire (JDG 10.1)");
        }
        let mut ev = vec![Event::rule("JDG 10.1", format!("{id}, already disordered, is disordered again: it routs"))];
        ev.extend(rout(s, id, fire, attackers));
        return ev;
    }
    if let Some(x) = s.unit_mut(id) {
        x.disordered = true;
    }
    vec![Event::rule("JDG 10.1", format!("{id} is disordered (flipped to its striped face)"))]
}

/// Unit `id` routs (JDG 10.2): a Rout marker, then the rout retreat at once.
pub fn rout(s: &mut State, id: &str, fire: bool, attackers: &[HexId]) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    if u.hex.is_none() {
        return vec![];
    }
    if u.routed {
        return eliminate(s, id, "a routed unit that routs again");
    }
    if fire && u.disordered && u.kind == Kind::Artillery {
        return eliminate(s, id, "disordered artillery routed by fire (JDG 10.1)");
    }
    if let Some(x) = s.unit_mut(id) {
        x.disordered = true;
        x.routed = true;
    }
    let mut ev = vec![Event::rule("JDG 10.2", format!("{id} routs (Rout marker)"))];
    ev.extend(rout_retreat(s, id, attackers));
    ev
}

/// The rout retreat's length (JDG 10.2, E.11).
pub fn retreat_length(kind: Kind) -> usize {
    if kind == Kind::Cavalry { 3 } else { 2 }
}

/// Why unit `id` of `side` may not step from `a` into `b` in a retreat (10.3.1, 10.3.4), or
/// the extra disorders the step costs (10.3.4, 10.3.5).
fn retreat_step(s: &State, side: &str, kind: Kind, a: HexId, b: HexId) -> Option<u8> {
    if !s.scenario.terrain_of.contains_key(&b) || s.units_at(b).any(|x| x.side != side) || super::reinforce::closed(s, side, b) {
        return None;
    }
    let t = s.scenario.terrain_of.get(&b)?;
    s.scenario.terrain.get(t)?.for_kind(kind)?;
    let f = s.scenario.feature(a, b);
    if f == Some(Feature::River) {
        return None;
    }
    side_cost(s, kind, a, b)?;
    let mut extra = u8::from(matches!(f, Some(Feature::SteepSlope | Feature::Ford | Feature::Bridge)));
    let front = s.units.iter().any(|e| {
        e.side != side && has_zoc(e) && e.hex.is_some_and(|eh| eh.is_adjacent(b) && e.face().front_hex(eh, b, s.scenario.all_round(eh)))
    });
    extra += u8::from(front);
    Some(extra)
}

/// The path of a retreat of `n` hexes of unit `id` by the default path policy (module
/// doc), with the extra disorders it costs; `None` when it cannot be completed.
fn retreat_path(s: &State, id: &str, n: usize, attackers: &[HexId], prefer: Option<HexId>) -> Option<(u8, Vec<HexId>)> {
    let u = s.unit(id)?;
    let origin = u.hex?;
    // The retreating unit leaves its square (4.2): the end hex is checked without it.
    let mut plain = s.clone();
    if let Some(x) = plain.unit_mut(id) {
        x.square = false;
    }
    let s = &plain;
    // Every legal path of n hexes, with its extra disorders.
    let mut best: Option<(u8, bool, bool, Vec<HexId>)> = None;
    let mut stack = vec![(vec![origin], 0u8)];
    while let Some((path, extra)) = stack.pop() {
        let at = *path.last().unwrap_or(&origin);
        if path.len() == n + 1 {
            // The end hex must hold it legally (10.5: passing through friends is free, but
            // the retreat ends where stacking allows).
            let mut w = s.clone();
            if let Some(x) = w.unit_mut(id) {
                x.hex = Some(at);
            }
            if stack_problem(&w, at).is_some() {
                continue;
            }
            // 5.1.2 (the original): a routed unit ends alone when it can.
            let crowded = s.units_at(at).any(|x| x.id != id);
            let key = (extra, prefer.is_some_and(|p| p != at), crowded, path[1..].to_vec());
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
            continue;
        }
        for (_, b) in at.neighbours() {
            let away = if path.len() == 1 {
                attackers.iter().all(|x| b.distance(*x) > origin.distance(*x))
            } else {
                b.distance(origin) as usize == path.len()
            };
            if !away {
                continue;
            }
            if let Some(e) = retreat_step(s, &u.side, u.kind, at, b) {
                let mut p = path.clone();
                p.push(b);
                stack.push((p, extra + e));
            }
        }
    }
    best.map(|(extra, _, _, path)| (extra, path))
}

/// Move unit `id` to the end of a retreat path; units entering a stack go to its bottom.
/// A commander-in-chief stacked with it follows it (2.5.2).
fn put(s: &mut State, id: &str, end: HexId) -> Vec<Event> {
    let mut ev = Vec::new();
    if let Some(i) = s.units.iter().position(|x| x.id == id) {
        if let Some(from) = s.units[i].hex {
            let side = s.units[i].side.clone();
            ev = super::chief::follow(s, &side, id, from, Some(end));
        }
        let mut x = s.units.remove(i);
        x.hex = Some(end);
        // 4.2: a square that falls back or retreats is no more.
        x.square = false;
        // 10.4: a unit that leaves its town, village or castle is no longer stopped there.
        x.sheltered = false;
        s.units.insert(0, x);
    }
    ev
}

/// The fall back of unit `id` (JDG 10, E.11): one hex away from every hex in `attackers`,
/// by the default path policy; the extra disorders of the path follow it (10.3.4, 10.3.5),
/// and a unit that cannot fall back is eliminated (10.3.1). `with`: the hex a stack-mate
/// fell back to, preferred when the path costs no more (units of a stack go together when
/// they can, 8.9; 10.3.3 lets them part).
pub fn fall_back(s: &mut State, id: &str, attackers: &[HexId], with: Option<HexId>) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    let Some(origin) = u.hex else { return vec![] };
    let Some((extra, path)) = retreat_path(s, id, 1, attackers, with) else {
        return eliminate(s, id, "it cannot fall back (JDG 10.3.1)");
    };
    let end = *path.last().unwrap_or(&origin);
    let followed = put(s, id, end);
    s.trail.push((id.to_string(), end));
    // 10.3.2: it takes the facing of a unit that did not move (artillery keeps its own).
    let conform =
        s.units_at(end).find(|x| x.id != id && !x.routed && (x.kind == Kind::Artillery) == (u.kind == Kind::Artillery)).map(|x| x.facing);
    if let Some(f) = conform
        && let Some(x) = s.unit_mut(id)
    {
        x.facing = f;
    }
    let mut ev = vec![Event::rule("JDG 10.3.1", format!("{id} falls back from {origin} to {end}"))];
    ev.extend(followed);
    for _ in 0..extra {
        ev.push(Event::rule("JDG 10.3.4", format!("{id}'s fall back crossed a steep slope, ford or bridge or entered an enemy front hex: one more disorder (JDG 10.3.4, 10.3.5)")));
        ev.extend(disorder(s, id, false, attackers));
    }
    if s.unit(id).is_some_and(|x| x.hex == Some(end)) {
        note_holder(s, end, &u.side);
    }
    ev
}

/// The rout retreat of unit `id` (JDG 10.3), by the default path policy (module doc).
pub fn rout_retreat(s: &mut State, id: &str, attackers: &[HexId]) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    let Some(origin) = u.hex else { return vec![] };
    let n = retreat_length(u.kind);
    let Some((extra, path)) = retreat_path(s, id, n, attackers, None) else {
        return eliminate(s, id, &format!("it cannot complete its rout retreat of {n} hexes (JDG 10.3.1)"));
    };
    let list: Vec<String> = path.iter().map(|h| h.to_string()).collect();
    let end = *path.last().unwrap_or(&origin);
    super::rout::note_passed(s, id, origin, &path);
    // Leaving its stack: routed units go to the bottom of the stack they enter (5.1.2).
    let followed = put(s, id, end);
    s.trail.extend(path.iter().map(|h| (id.to_string(), *h)));
    let mut ev = vec![Event::rule("JDG 10.3.1", format!("{id} makes its rout retreat from {origin}: {}", list.join(" → ")))];
    ev.extend(followed);
    if extra > 0 {
        // 10.3.4, 10.3.5: a routed unit that takes any further disorder is eliminated.
        ev.extend(eliminate(s, id, "its retreat crossed a steep slope, ford or bridge or entered an enemy front hex (JDG 10.3.4, 10.3.5)"));
        return ev;
    }
    let side = u.side.clone();
    note_holder(s, end, &side);
    ev
}

/// A cohesion test (JDG 0.4.1) of unit `id` with the d10 `die`: passed when die + DRM ≤ its
/// cohesion; night +2, fog +1 (JDG 12). Returns whether it failed, with the events.
pub fn cohesion_test(s: &State, id: &str, die: u32) -> (bool, Vec<Event>) {
    let Some(u) = s.unit(id) else { return (false, vec![]) };
    let drm: i32 = if s.night() {
        2
    } else if s.fog() {
        1
    } else {
        0
    };
    let c = i32::from(s.face(u).cohesion);
    let total = die as i32 + drm;
    let failed = total > c;
    let ev = vec![
        Event::roll(format!("JDG 0.4.1: cohesion test of {id}"), "d10", die),
        Event::rule(
            "JDG 0.4.1",
            format!(
                "{id} {} its cohesion test: {die}{} against cohesion {c}",
                if failed { "fails" } else { "passes" },
                if drm != 0 { format!(" {drm:+} (JDG 12)") } else { String::new() },
            ),
        ),
    ];
    (failed, ev)
}
