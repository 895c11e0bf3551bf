//! Movement (JDG 4), stacking (5.1), facing (6.1) and zones of control (6.2) for the
//! actions of an activated formation.
//!
//! Costs are counted in half MP (the scenario's Terrain Table is written so), and an MA is
//! halved in whole MP, rounded up, before it is doubled into halves (4.1.2).

use std::collections::BTreeSet;

use super::command::status_of;
use super::orders::{ChiefMove, Move, Turn};
use super::scenario::{Feature, Kind};
use super::state::{State, Status, Unit};
use crate::engine::{Event, Violation};
use crate::geo::facing::turn_steps;
use crate::geo::hex::HexId;

/// The C-in-C's allowance in MP (JDG 2.5.1).
pub const CHIEF_MP: u8 = 7;
/// Forced march keeps at least this many hexes from every enemy unit (JDG 4.1.3; digest F.5:
/// exactly 5 is allowed).
pub const FORCED_MARCH_DISTANCE: u32 = 5;

/// Whether unit `u` exerts a ZOC (JDG 6.2.1): not artillery, not routed, not in square (4.2).
pub fn has_zoc(u: &Unit) -> bool {
    u.kind != Kind::Artillery && !u.routed && !u.square
}

/// Whether unit `u` in `h` has six front hexes: by the terrain, or in square (JDG 6.1.1, 4.2).
pub fn all_round_unit(s: &State, u: &Unit, h: HexId) -> bool {
    u.square || s.scenario.all_round(h)
}

/// Whether a unit of `kind` may cross the hexside between `a` and `b`, and at what extra
/// cost in half MP; `None`: not at all (JDG 4.3, 4.3.1, 4.3.2).
pub fn side_cost(s: &State, kind: Kind, a: HexId, b: HexId) -> Option<u8> {
    let Some(f) = s.scenario.feature(a, b) else { return Some(0) };
    let road = s.scenario.road(a, b);
    match s.scenario.hexsides.get(&f).and_then(|c| c.for_kind(kind)) {
        Some(c) => Some(c),
        // 4.3.1: a road opens slopes and steep slopes for +2 MP; 4.3.2: a road or bridge
        // opens any other impassable side at no extra cost.
        None if road && matches!(f, Feature::Slope | Feature::SteepSlope) => Some(s.scenario.road_override),
        None if road => Some(0),
        None => None,
    }
}

/// The enemy units whose ZOC covers hex `h` for side `side` (JDG 6.2.1): every adjacent
/// enemy unit with a ZOC, unless the hexside between is impassable for it.
pub fn zoc_sources<'a>(s: &'a State, side: &'a str, h: HexId) -> impl Iterator<Item = &'a Unit> + 'a {
    s.units
        .iter()
        .filter(move |e| e.side != side && has_zoc(e) && e.hex.is_some_and(|eh| eh.is_adjacent(h) && side_cost(s, e.kind, eh, h).is_some()))
}

/// Whether `h` is in an enemy ZOC for `side`.
pub fn in_zoc(s: &State, side: &str, h: HexId) -> bool {
    zoc_sources(s, side, h).next().is_some()
}

/// A unit's MA in half MP for this activation: full for OR, half rounded up for SO (4.1.1,
/// 4.1.2), doubled by forced march (4.1.3).
pub fn allowance(s: &State, u: &Unit, forced: bool) -> u32 {
    let mp = u32::from(s.face(u).mp);
    let fired = s.fired.contains(&u.id);
    // 4.4.2, E.2: artillery that fired moves half its MA with orders, not at all without.
    let mp = match status_of(s, &u.id) {
        Status::OR if fired => mp.div_ceil(2),
        Status::OR => mp,
        Status::SO if fired => 0,
        Status::SO => mp.div_ceil(2),
    };
    let mp = if forced { mp * 2 } else { mp };
    mp * 2
}

/// The stack in hex `h` breaks a stacking limit (JDG 5.1.1, table E.1): why, if so.
pub fn stack_problem(s: &State, h: HexId) -> Option<String> {
    let units: Vec<&Unit> = s.units_at(h).collect();
    if units.len() < 2 {
        return None;
    }
    if units.iter().any(|u| u.routed) && units.iter().any(|u| !u.routed) {
        return Some("a routed unit never stacks with units in good order or disorder".into());
    }
    if units.iter().any(|u| u.square) && units.iter().any(|u| !u.square) {
        return Some("a square never shares its hex with units not in square (JDG 4.2)".into());
    }
    let count = |k: Kind| units.iter().filter(|u| u.kind == k).count();
    let (inf, cav, art) = (count(Kind::Infantry), count(Kind::Cavalry), count(Kind::Artillery));
    if inf > 0 && cav > 0 {
        return Some("infantry and cavalry never stack together".into());
    }
    let foot = inf + cav;
    let sp: u32 = units.iter().filter(|u| u.kind != Kind::Artillery).map(|u| u32::from(s.face(u).sp)).sum();
    let ok = match art {
        0 => foot <= 2 || (foot == 3 && sp <= 6),
        1 => inf <= 2 && cav <= 1,
        2 => foot == 0,
        _ => false,
    };
    if !ok {
        return Some(format!("{inf} infantry, {cav} cavalry and {art} artillery units are more than a hex may hold"));
    }
    // Units of one type (but artillery) come from one formation, unless routed.
    for k in [Kind::Infantry, Kind::Cavalry] {
        let f: BTreeSet<&str> = units.iter().filter(|u| u.kind == k && !u.routed).map(|u| u.formation.as_str()).collect();
        if f.len() > 1 {
            return Some(format!("{k:?} units of different formations never stack together").to_lowercase());
        }
    }
    None
}

/// The facing rule of a hex (JDG 6.1.1): infantry and cavalry share one facing, artillery
/// shares one: why not, if broken.
pub fn facing_problem(s: &State, h: HexId) -> Option<String> {
    for art in [false, true] {
        // A routed unit has no facing (JDG 10.2).
        let f: BTreeSet<u8> = s.units_at(h).filter(|u| (u.kind == Kind::Artillery) == art && !u.routed).map(|u| u.facing).collect();
        if f.len() > 1 {
            let what = if art { "the artillery" } else { "the infantry and cavalry" };
            return Some(format!("{what} of one hex face one way"));
        }
    }
    None
}

/// Check and apply one unit's move.
pub fn step_move(s: &mut State, side: &str, m: &Move) -> Result<Vec<Event>, Vec<Violation>> {
    move_capped(s, side, m, None)
}

/// Check and apply one unit's move, its allowance capped at `cap` half MP (a charge, 9.1).
pub fn move_capped(s: &mut State, side: &str, m: &Move, cap: Option<u32>) -> Result<Vec<Event>, Vec<Violation>> {
    walk(s, side, m, cap, None)
}

/// A reinforcement entering the map (JDG 5.2.2): its path starts at the entry hex, whose
/// cost it pays `mult` times; `budget` is its MA in half MP for the entry; `companions` are
/// the units entering in the same stack (not "friends" it passes or joins).
pub struct Entering {
    pub mult: u32,
    pub budget: u32,
    pub companions: Vec<String>,
}

/// Check and apply one unit's move, or its entry onto the map (`entry`).
pub fn walk(s: &mut State, side: &str, m: &Move, cap: Option<u32>, entry: Option<&Entering>) -> Result<Vec<Event>, Vec<Violation>> {
    let bad = |rule: &str, msg: String| Violation::new(rule, msg).unit(&m.unit);
    let Some(u) = s.unit(&m.unit).cloned() else { return Err(vec![bad("JDG 4.4.1", "no such unit".into())]) };
    let start = u.hex;
    if start.is_none() && entry.is_none() {
        let why = if u.arrives.is_some() {
            "the unit has not entered the map yet (use `enter`, JDG 5.2.2)"
        } else {
            "the unit is not on the map"
        };
        return Err(vec![bad("JDG 4.4.1", why.into())]);
    }
    if let Err(v) = may_act(s, side, &u) {
        return Err(vec![v]);
    }
    if u.routed {
        return Err(vec![bad("JDG 10.2", "a routed unit moves only in its rout move (phase E)".into())]);
    }
    if m.path.is_empty() {
        return Err(vec![bad("JDG 4.4.1", "a move enters at least one hex (to turn in place, use `face`)".into())]);
    }
    if let Some(f) = m.facing.filter(|f| *f > 5) {
        return Err(vec![bad("JDG 6.1.1", format!("vertex {f}: a unit faces a vertex 0..5"))]);
    }
    // 5.2.1: a Reinforcement marker (or the entry that gives one) is OR and may force-march
    // at night and in fog (12.1, 12.2).
    let marker = u.marker || (entry.is_some() && m.forced);
    let night_fog = s.night() || s.fog();
    if m.forced && entry.is_none() {
        let mut why = Vec::new();
        if status_of(s, &u.id) != Status::OR {
            why.push("its group has no orders");
        }
        if u.disordered {
            why.push("it is disordered");
        }
        if night_fog && !marker {
            why.push("it is night or fog (JDG 12)");
        }
        if !why.is_empty() {
            return Err(vec![bad("JDG 4.1.3", format!("no forced march: {}", why.join(", ")))]);
        }
    }
    let budget = entry.map(|e| e.budget).unwrap_or_else(|| allowance(s, &u, m.forced)).min(cap.unwrap_or(u32::MAX));
    if m.forced && u.square {
        return Err(vec![bad("JDG 4.2", "a square leaves its formation (2 MP) and moves normally, never by forced march".into())]);
    }
    let companions: &[String] = entry.map(|e| e.companions.as_slice()).unwrap_or(&[]);
    let started_in_zoc = start.is_some_and(|h| in_zoc(s, side, h));
    let start_sources: BTreeSet<String> = start.map(|h| zoc_sources(s, side, h).map(|e| e.id.clone()).collect()).unwrap_or_default();
    // 4.2: leaving square costs 2 MP.
    let mut spent = if u.square { 4 } else { 0 };
    let mut at = start.unwrap_or(m.path[0]);
    let mut path: Vec<String> = start.map(|h| h.to_string()).into_iter().collect();
    let last = m.path.len() - 1;
    for (i, &h) in m.path.iter().enumerate() {
        let here = |msg: String, rule: &str| Violation::new(rule, msg).unit(&m.unit).hex(h.to_string());
        let entering = i == 0 && start.is_none();
        if !entering && !at.is_adjacent(h) {
            return Err(vec![here(format!("{h} is not next to {at}"), "JDG 4.4.1")]);
        }
        if !entering && i > 0 && m.path[..i].contains(&h) && m.forced && entry.is_some() {
            // 4.1.3, 5.2.2: a column that comes back to a hex it passed could rejoin a unit
            // that stopped there.
            return Err(vec![here("a reinforcement column in forced march never comes back to a hex it passed".into(), "JDG 5.2.2")]);
        }
        let Some(terrain) = s.scenario.terrain_of.get(&h).copied() else {
            return Err(vec![here("no leaving the map but by a rout move or a scenario rule".into(), "JDG 4.4.1")]);
        };
        if s.units_at(h).any(|o| o.side != side) {
            return Err(vec![here("a unit never enters a hex holding enemy units".into(), "JDG 5.1.2")]);
        }
        if super::reinforce::closed(s, side, h) {
            return Err(vec![here(
                format!("{h} is an enemy reinforcement entry hex or next to one: closed until those reinforcements are all in"),
                super::reinforce::HEXES,
            )]);
        }
        let enemy_near = s.units.iter().any(|e| e.side != side && e.hex.is_some_and(|eh| eh.is_adjacent(h)));
        // 4.3.1: the road rate only from a linked road hex, and never next to the enemy;
        // 5.2.2: the n-th stack of a column pays n times the entry hex's terrain.
        let hex_cost = if entering {
            s.scenario.terrain.get(&terrain).and_then(|c| c.for_kind(u.kind)).map(|c| u32::from(c) * entry.map(|e| e.mult).unwrap_or(1))
        } else if s.scenario.road(at, h) && !enemy_near {
            s.scenario.terrain.get(&super::scenario::Terrain::Road).and_then(|c| c.for_kind(u.kind)).map(u32::from)
        } else {
            s.scenario.terrain.get(&terrain).and_then(|c| c.for_kind(u.kind)).map(u32::from)
        };
        let Some(hex_cost) = hex_cost else {
            return Err(vec![here(format!("{terrain:?} is impassable for {:?}", u.kind).to_lowercase(), "JDG 4.3.2")]);
        };
        let side_extra = if entering { Some(0) } else { side_cost(s, u.kind, at, h) };
        let Some(side_extra) = side_extra else {
            return Err(vec![here(format!("the hexside from {at} cannot be crossed by {:?}", u.kind).to_lowercase(), "JDG 4.3.2")]);
        };
        let mut cost = hex_cost + u32::from(side_extra);
        let friends = s.units_at(h).any(|o| o.side == side && o.id != u.id && !companions.contains(&o.id));
        if s.units_at(h).any(|o| o.side == side && o.square) {
            return Err(vec![here("no unit enters or crosses a hex holding a friendly square".into(), "JDG 4.2")]);
        }
        if m.forced {
            if friends {
                return Err(vec![here("a forced march never enters or crosses a hex holding friends".into(), "JDG 4.1.3")]);
            }
            if marker {
                // 5.2.1: a reinforcement force-marches until it comes within 5 hexes of an
                // enemy; there it loses its marker, and its forced march ends.
                if i < last && s.units.iter().any(|e| e.side != side && e.hex.is_some_and(|eh| eh.distance(h) <= FORCED_MARCH_DISTANCE)) {
                    return Err(vec![here(
                        format!(
                            "{h} is within 5 hexes of an enemy unit: the unit loses its Reinforcement status there and its forced march ends"
                        ),
                        super::reinforce::PROCEDURE,
                    )]);
                }
            } else if s.units.iter().any(|e| {
                e.side != side
                    && e.hex.is_some_and(|eh| {
                        eh.distance(h) < FORCED_MARCH_DISTANCE || start.is_some_and(|st| eh.distance(st) < FORCED_MARCH_DISTANCE)
                    })
            }) {
                return Err(vec![here("a forced march keeps 5 hexes or more from every enemy unit".into(), "JDG 4.1.3")]);
            }
        }
        if friends && i < last {
            cost += 2; // 4.4.3: +1 MP to pass through.
        }
        let zoc_here: Vec<&Unit> = zoc_sources(s, side, h).collect();
        if i == 0 && started_in_zoc {
            cost += 2; // 6.2.2: +1 MP to leave a ZOC.
            if let Some(e) = zoc_here.iter().find(|e| start_sources.contains(&e.id)) {
                return Err(vec![here(
                    format!("a unit leaving a ZOC never steps straight into another hex of {}'s ZOC", e.id),
                    "JDG 6.2.2",
                )]);
            }
            if let Some(e) = zoc_here.iter().find(|e| e.hex.is_some_and(|eh| e.face().front_hex(eh, h, s.scenario.all_round(eh)))) {
                return Err(vec![here(format!("a unit leaving a ZOC never steps straight into a front hex of {}", e.id), "JDG 6.2.2")]);
            }
        }
        if !zoc_here.is_empty() {
            if s.demoralised.contains(&u.formation) {
                return Err(vec![here(format!("{} is demoralised: its units never enter an enemy ZOC", u.formation), "JDG 11.2")]);
            }
            if i < last {
                return Err(vec![here("entering an enemy ZOC ends the move".into(), "JDG 6.2.2")]);
            }
            if u.kind == Kind::Artillery && !s.units_at(h).any(|o| o.side == side && o.kind != Kind::Artillery) {
                return Err(vec![here("artillery enters an enemy ZOC only where friendly infantry or cavalry stands".into(), "JDG 6.2.2")]);
            }
            if u.disordered {
                cost += 2; // 6.2.2, 10.1
            }
            if s.night() {
                cost += 4; // 12.1
            } else if s.fog() {
                cost += 2; // 12.2
            }
        }
        spent += cost;
        if spent > budget {
            let fired = s.fired.contains(&u.id);
            return Err(vec![here(
                format!(
                    "{} MP are spent by here, the unit has {}{} (a hex is entered only with the MP for it)",
                    half(spent),
                    half(budget),
                    if fired { " after firing" } else { "" }
                ),
                if cap.is_some() {
                    "JDG 9.1"
                } else if fired {
                    "JDG 4.4.2"
                } else {
                    "JDG 4.4.1"
                },
            )]);
        }
        path.push(h.to_string());
        at = h;
    }
    let mut w = s.clone();
    if let Some(x) = w.unit_mut(&m.unit) {
        x.hex = Some(at);
        x.square = false;
        if let Some(f) = m.facing {
            x.facing = f;
        }
    }
    // 5.1.2: a unit entering a stack goes under it, artillery always on top.
    if let Some(i) = w.units.iter().position(|x| x.id == m.unit) {
        let x = w.units.remove(i);
        let pos = w
            .units
            .iter()
            .position(|y| y.hex == Some(at) && y.kind == Kind::Artillery && x.kind != Kind::Artillery)
            .unwrap_or(w.units.len());
        let pos = if x.kind == Kind::Artillery { w.units.len() } else { pos };
        w.units.insert(pos, x);
    }
    if let Some(p) = stack_problem(&w, at) {
        return Err(vec![bad("JDG 5.1.1", format!("ends in {at}: {p}"))]);
    }
    if let Some(p) = facing_problem(&w, at) {
        return Err(vec![bad("JDG 6.1.1", format!("ends in {at}: {p}; face as they do"))]);
    }
    *s = w;
    s.acted.push(m.unit.clone());
    super::turn::note_holder(s, at, side);
    let kind = if entry.is_some() && m.forced {
        "enters by forced march"
    } else if entry.is_some() {
        "enters"
    } else if m.forced {
        "force-marches"
    } else if u.square {
        "leaves its square (2 MP, JDG 4.2) and moves"
    } else {
        "moves"
    };
    let facing = s.unit(&m.unit).map(|x| x.facing).unwrap_or(0);
    Ok(vec![Event::rule(
        "JDG 4",
        format!("{} {kind} {} ({} of {} MP), facing vertex {facing}", m.unit, path.join(" → "), half(spent), half(budget)),
    )])
}

/// Half MP as MP for messages (`3½`).
pub fn half(h: u32) -> String {
    match (h / 2, h % 2) {
        (w, 0) => format!("{w}"),
        (0, _) => "½".into(),
        (w, _) => format!("{w}½"),
    }
}

/// Whether unit `u` may act in this activation: of the active formation, on the right side,
/// not yet moved or turned, its group not a failed... (only OR/SO groups exist yet).
pub fn may_act(s: &State, side: &str, u: &Unit) -> Result<(), Violation> {
    let super::state::Phase::Activation { am, .. } = &s.phase else {
        return Err(Violation::new("JDG 2.2", "units act only when their formation's marker is drawn").unit(&u.id));
    };
    if u.side != side {
        return Err(Violation::new("JDG 2.2", "that is not your unit").unit(&u.id));
    }
    if !s.activates(am, &u.formation) {
        return Err(Violation::new("JDG 2.2", format!("{} belongs to {}; {} is activated", u.id, u.formation, s.am_label(am))).unit(&u.id));
    }
    if s.acted.contains(&u.id) {
        return Err(Violation::new("JDG 4.4.1", "the unit has finished its move in this activation").unit(&u.id));
    }
    Ok(())
}

/// Check and apply a change of facing in place (JDG 6.1.2): free, but a unit that starts in
/// an enemy ZOC turns one vertex at most (6.2.2). Every unit of its class in the hex turns
/// with it (6.1.1).
pub fn step_face(s: &mut State, side: &str, t: &Turn) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(u) = s.unit(&t.unit).cloned() else { return Err(vec![Violation::new("JDG 6.1.2", "no such unit").unit(&t.unit)]) };
    may_act(s, side, &u).map_err(|v| vec![v])?;
    let Some(h) = u.hex else { return Err(vec![Violation::new("JDG 6.1.2", "the unit is not on the map").unit(&t.unit)]) };
    if t.facing > 5 {
        return Err(vec![Violation::new("JDG 6.1.1", format!("vertex {}: a unit faces a vertex 0..5", t.facing)).unit(&t.unit)]);
    }
    if u.routed {
        return Err(vec![Violation::new("JDG 10.2", "a routed unit has no facing to change").unit(&t.unit)]);
    }
    if u.square {
        // 4.2: leaving square costs 2 MP and lets the stack take any facing; it ends the
        // units' activation here (their moves are one action each).
        let ids: Vec<String> = s.units_at(h).map(|x| x.id.clone()).collect();
        for id in &ids {
            if let Some(x) = s.unit_mut(id) {
                x.square = false;
                x.facing = t.facing;
            }
            if !s.acted.contains(id) {
                s.acted.push(id.clone());
            }
        }
        return Ok(vec![Event::rule(
            "JDG 4.2",
            format!("{} in {h} leave their square (2 MP) and face vertex {}", ids.join(", "), t.facing),
        )]);
    }
    if in_zoc(s, side, h) && turn_steps(u.facing, t.facing) > 1 {
        return Err(vec![
            Violation::new("JDG 6.2.2", "a unit that starts in an enemy ZOC and stays turns one vertex (60°) at most")
                .unit(&t.unit)
                .hex(h.to_string()),
        ]);
    }
    let art = u.kind == Kind::Artillery;
    let ids: Vec<String> = s.units_at(h).filter(|x| (x.kind == Kind::Artillery) == art).map(|x| x.id.clone()).collect();
    for id in &ids {
        if let Some(x) = s.unit_mut(id) {
            x.facing = t.facing;
        }
        if !s.acted.contains(id) {
            s.acted.push(id.clone());
        }
    }
    Ok(vec![Event::rule("JDG 6.1.2", format!("{} in {h} now face vertex {}", ids.join(", "), t.facing))])
}

/// Check and apply the commander-in-chief's move (JDG 2.5.1): once per turn, at most 7 MP
/// (infantry costs), in an activation of his army, never into an enemy ZOC alone.
pub fn step_chief(s: &mut State, side: &str, m: &ChiefMove) -> Result<Vec<Event>, Vec<Violation>> {
    let v = |msg: String| Violation::new("JDG 2.5.1", msg);
    if !matches!(&s.phase, super::state::Phase::Activation { side: a, .. } if a == side) {
        return Err(vec![v("the commander-in-chief moves in an activation of his own army".into())]);
    }
    let Some(c) = s.chief(side).cloned() else { return Err(vec![v("your commander-in-chief is not on the map".into())]) };
    if c.moved {
        return Err(vec![v("the commander-in-chief moves once per turn".into())]);
    }
    if m.path.is_empty() {
        return Err(vec![v("the move enters at least one hex".into())]);
    }
    let mut at = c.hex;
    let mut spent = 0u32;
    for &h in &m.path {
        let here = |msg: String| v(msg).hex(h.to_string());
        if !at.is_adjacent(h) {
            return Err(vec![here(format!("{h} is not next to {at}"))]);
        }
        let Some(t) = s.scenario.terrain_of.get(&h) else { return Err(vec![here("off the map".into())]) };
        if s.units_at(h).any(|o| o.side != side) {
            return Err(vec![here("never into a hex holding enemy units".into())]);
        }
        let road = s.scenario.road(at, h);
        let key = if road { super::scenario::Terrain::Road } else { *t };
        let cost = s.scenario.terrain.get(&key).and_then(|c| c.for_kind(Kind::Infantry));
        let (Some(cost), Some(extra)) = (cost, side_cost(s, Kind::Infantry, at, h)) else {
            return Err(vec![here("impassable".into())]);
        };
        spent += u32::from(cost) + u32::from(extra);
        if spent > u32::from(CHIEF_MP) * 2 {
            return Err(vec![here(format!("{} MP are spent by here; the commander-in-chief has {CHIEF_MP}", half(spent)))]);
        }
        at = h;
    }
    if in_zoc(s, side, at) && !s.units_at(at).any(|o| o.side == side) {
        return Err(vec![v("the commander-in-chief never enters an enemy ZOC alone".into()).hex(at.to_string())]);
    }
    if let Some(x) = s.chiefs.iter_mut().find(|x| x.side == side) {
        x.hex = at;
        x.moved = true;
    }
    // 2.5.2: he came to the enemies in contact there; they did not come to him.
    super::chief::settle(s, side);
    Ok(vec![Event::rule("JDG 2.5.1", format!("the {side} commander-in-chief moves to {at} ({} MP)", half(spent)))])
}

/// Check and form a square in hex `hex` (JDG 4.2): its infantry of the activated formation,
/// in good order, in clear terrain, before moving, and the artillery stacked with it; all of
/// their MP are spent.
pub fn step_square(s: &mut State, side: &str, o: &super::orders::SquareOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let h = o.hex;
    let bad = |msg: String| Violation::new("JDG 4.2", msg).hex(h.to_string());
    let units: Vec<Unit> = s.units_at(h).cloned().collect();
    if units.is_empty() || units.iter().any(|u| u.side != side) {
        return Err(vec![bad(format!("no unit of yours in {h}"))]);
    }
    if s.scenario.terrain_of.get(&h) != Some(&super::scenario::Terrain::Clear) {
        return Err(vec![bad("a square forms in clear terrain only".into())]);
    }
    if units.iter().any(|u| u.kind == Kind::Cavalry) {
        return Err(vec![bad("only infantry and artillery form square".into())]);
    }
    if !units.iter().any(|u| u.kind == Kind::Infantry) {
        return Err(vec![bad("artillery forms square only with infantry forming it at the same moment".into())]);
    }
    if units.iter().any(|u| u.square) {
        return Err(vec![bad("the stack is in square already; nobody joins a square".into())]);
    }
    let mut errs = Vec::new();
    for u in units.iter().filter(|u| u.kind == Kind::Infantry) {
        if let Err(v) = may_act(s, side, u) {
            errs.push(Violation::new("JDG 4.2", format!("{}: a square forms before the unit moves ({})", u.id, v.message)).unit(&u.id));
        } else if u.disordered || u.routed {
            errs.push(Violation::new("JDG 4.2", format!("{} is disordered or routed: no square", u.id)).unit(&u.id));
        }
    }
    if units.iter().any(|u| s.acted.contains(&u.id)) && errs.is_empty() {
        errs.push(bad("a unit that moved or turned in this activation forms no square".into()));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let ids: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
    for id in &ids {
        if let Some(x) = s.unit_mut(id) {
            x.square = true;
        }
        if !s.acted.contains(id) {
            s.acted.push(id.clone());
        }
    }
    Ok(vec![Event::rule("JDG 4.2", format!("{} in {h} form square (all their MP spent)", ids.join(", ")))])
}
