//! Rout moves (JDG 10.4): every routed unit in phase E, and a routed unit whose cohesion
//! test a fire or melee result calls for (10.2: the move replaces the test).
//!
//! A rout move spends the full MA of the disordered face, as a normal move spends it, but
//! pays nothing extra to pass through friends or to cross a ford or bridge (10.4), along
//! the **straight line** toward one of the directions the scenario gives the side
//! (`rout:` in the scenario: a map edge or a hex). The line is the shared geometry's
//! (`geo::hexline`): from the unit's hex centre, perpendicular to the edge or to the hex's
//! centre; its hexes are those of the two traces (`traces`), so a line that runs along
//! hexsides leaves both hexes beside it on the line. Each step goes forward (less than 90°
//! from the direction), so a rout never doubles back. A **column** is a hex of distance
//! from that line: a unit that swerves one column walks in hexes at distance 1 from it,
//! and so on, up to 2 for infantry and 3 for cavalry and artillery.
//!
//! What still applies: stacking (5.1; a hex it may not stay in is passed through, 10.5,
//! even beyond its MA); the front ZOC of 10.3.5 (entering an enemy's front hex is one more
//! disorder, so a routed unit dies there); never from one hex of an enemy unit's ZOC into
//! another of the same unit's (the original's example); a steep slope crossed is one more
//! disorder (digest F.5, the ford and bridge waived). A unit that cannot move one hex, or
//! that the line carries off the map, is eliminated. Otherwise ZOC neither ends the move
//! nor costs MP (6.2.2's exception for rout moves).
//!
//! The owner's choices come from the **default path policy**, so phase E costs no entry:
//! among the permitted directions in the scenario's order, the straight line; a swerve only
//! where every straight path would disorder or eliminate the unit (the text's condition),
//! the fewest columns first; ending alone before ending with another routed unit (5.1.2);
//! then the lowest hex ids. Two routed units that start stacked must part (10.4): the
//! second may swerve or stop one hex short to end alone. Whether to stop in a town, village
//! or castle is the owner's **standing policy** (`rout: stop | run` in any of his phase-A or
//! activation entries): `stop` (the default) ends the move in the first one entered, and
//! the unit then stays there in later phases E; `run` never stops, and a unit that stopped
//! earlier takes up its rout again at the next phase E.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::disorder::{cohesion_test, disorder, eliminate};
use super::movement::{side_cost, stack_problem, zoc_sources};
use super::scenario::{Edge, Feature, Kind, RoutDirection, Terrain};
use super::state::State;
use super::turn::note_holder;
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::hex::HexId;
use crate::geo::hexline::traces;

/// The rule.
pub const RULE: &str = "JDG 10.4";

/// A seat's standing choice about stopping rout moves in a town, village or castle (10.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoutPolicy {
    /// Stop in the first town, village or castle a rout move enters, and stay there in the
    /// later phases E.
    #[default]
    Stop,
    /// Never stop; a unit that stopped earlier takes up its rout again at the next phase E.
    Run,
}

/// The policy of a side.
pub fn policy(s: &State, side: &str) -> RoutPolicy {
    s.rout.get(side).copied().unwrap_or_default()
}

/// Axial steps by direction (as `geo::hex`), kept here to step off the id range too.
const STEPS: [(i32, i32); 6] = [(0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1)];

/// Hex distance between axial coordinates (off the id range too).
fn dist(a: (i32, i32), b: (i32, i32)) -> u32 {
    let (dq, dr) = (a.0 - b.0, a.1 - b.1);
    (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
}

/// The dot product of two axial vectors in cube space (proportional to the plane's).
fn dot(a: (i32, i32), b: (i32, i32)) -> i32 {
    a.0 * b.0 + a.1 * b.1 + (a.0 + a.1) * (b.0 + b.1)
}

/// The straight line of one rout direction from one hex.
struct Line {
    /// The hexes of both traces, in axial coordinates (some may lie off the id range).
    band: Vec<(i32, i32)>,
    /// The direction, an axial vector.
    v: (i32, i32),
    /// The hex a hex direction heads for.
    target: Option<HexId>,
}

impl Line {
    fn new(from: HexId, dir: RoutDirection) -> Line {
        let a = from.axial();
        let (v, target) = match dir {
            RoutDirection::Edge(Edge::North) => ((20, -40), None),
            RoutDirection::Edge(Edge::South) => ((-20, 40), None),
            RoutDirection::Edge(Edge::East) => ((-40, 0), None),
            RoutDirection::Edge(Edge::West) => ((40, 0), None),
            RoutDirection::Hex(t) => {
                let b = t.axial();
                ((b.0 - a.0, b.1 - a.1), Some(t))
            }
        };
        // The shared line works on ids 00..99: it is traced from the middle of that range
        // (a line does not change when shifted) and shifted back.
        let mid = HexId::new(50, 50);
        let o = mid.axial();
        let band = match HexId::from_axial(o.0 + v.0, o.1 + v.1) {
            Some(far) if far != mid => {
                traces(mid, far).into_iter().flatten().map(|h| h.axial()).map(|(q, r)| (q - o.0 + a.0, r - o.1 + a.1)).collect()
            }
            _ => vec![a],
        };
        Line { band, v, target }
    }

    /// How many columns `h` lies off the line.
    fn columns(&self, h: (i32, i32)) -> u32 {
        self.band.iter().map(|b| dist(*b, h)).min().unwrap_or(0)
    }
}

/// One way a rout move could go.
#[derive(Clone, Debug)]
struct Way {
    /// Why the unit is eliminated on this way, if it is.
    dies: Option<String>,
    /// The hexes entered, the start hex first.
    path: Vec<HexId>,
    /// The most columns it swerves.
    columns: u32,
    /// It stops one hex short (to leave a routed stack-mate, 10.4).
    short: bool,
    /// It ends with another routed unit.
    crowded: bool,
    /// It stops in a town, village or castle by the owner's policy.
    stops: bool,
    /// The direction's position in the scenario's list.
    dir: usize,
}

/// What stepping into a hex does to a rout move.
enum Step {
    /// Not allowed.
    Blocked,
    /// The unit is eliminated there, and why.
    Dies(String),
    /// It costs this much, in half MP.
    Cost(u32),
}

/// The search of every way a rout move may go in one direction.
struct Search<'a> {
    s: &'a State,
    id: &'a str,
    side: &'a str,
    kind: Kind,
    budget: u32,
    limit: u32,
    line: Line,
    dir: usize,
    stop: bool,
    ways: Vec<Way>,
}

impl Search<'_> {
    /// Whether the unit may end its move in `h`, and whether another routed unit is there.
    fn may_end(&self, h: HexId) -> Option<bool> {
        let friends: Vec<_> = self.s.units_at(h).filter(|x| x.id != self.id).collect();
        if friends.is_empty() {
            return Some(false);
        }
        if friends.iter().any(|x| !x.routed) {
            return None;
        }
        let mut w = self.s.clone();
        if let Some(x) = w.unit_mut(self.id) {
            x.hex = Some(h);
        }
        stack_problem(&w, h).is_none().then_some(true)
    }

    fn step(&self, a: HexId, b: HexId) -> Step {
        let s = self.s;
        if s.units_at(b).any(|x| x.side != self.side || x.square) || super::reinforce::closed(s, self.side, b) {
            return Step::Blocked;
        }
        let Some(t) = s.scenario.terrain_of.get(&b) else { return Step::Blocked };
        let enemy_near = s.units.iter().any(|e| e.side != self.side && e.hex.is_some_and(|eh| eh.is_adjacent(b)));
        let t = if s.scenario.road(a, b) && !enemy_near { Terrain::Road } else { *t };
        let Some(hex) = s.scenario.terrain.get(&t).and_then(|c| c.for_kind(self.kind)) else { return Step::Blocked };
        let feature = s.scenario.feature(a, b);
        let Some(side) = side_cost(s, self.kind, a, b) else { return Step::Blocked };
        // 10.4: fords and bridges cost nothing extra in a rout move.
        let side = if matches!(feature, Some(Feature::Ford | Feature::Bridge)) { 0 } else { side };
        let before: Vec<&str> = zoc_sources(s, self.side, a).map(|e| e.id.as_str()).collect();
        if zoc_sources(s, self.side, b).any(|e| before.contains(&e.id.as_str())) {
            return Step::Blocked;
        }
        if let Some(e) = zoc_sources(s, self.side, b).find(|e| e.hex.is_some_and(|eh| e.face().front_hex(eh, b, s.scenario.all_round(eh))))
        {
            return Step::Dies(format!("its rout move enters {b}, a front hex of {} (one more disorder, JDG 10.3.5)", e.id));
        }
        if feature == Some(Feature::SteepSlope) {
            return Step::Dies(format!("its rout move crosses the steep slope into {b} (one more disorder, JDG 10.3.4)"));
        }
        Step::Cost(u32::from(hex) + u32::from(side))
    }

    fn push(&mut self, path: &[HexId], columns: u32, dies: Option<String>, crowded: bool, stops: bool, short: bool) {
        self.ways.push(Way { dies, path: path.to_vec(), columns, short, crowded, stops, dir: self.dir });
    }

    /// An end of the way in `path`'s last hex, and one hex short of it.
    fn end(&mut self, path: &[HexId], columns: u32, crowded: bool) {
        self.push(path, columns, None, crowded, false, false);
        if path.len() >= 3 {
            let prev = &path[..path.len() - 1];
            if let Some(c) = self.may_end(prev[prev.len() - 1]) {
                self.push(prev, columns, None, c, false, true);
            }
        }
    }

    /// Walk on from the last hex of `path` with `spent` half MP spent; `passing`: the MA
    /// is spent and the unit goes on until it may stay where it stands (10.5).
    fn walk(&mut self, path: &mut Vec<HexId>, spent: u32, columns: u32, passing: bool) {
        let Some(&at) = path.last() else { return };
        if path.len() > 1 {
            let here = self.may_end(at);
            if let Some(crowded) = here {
                if self.line.target == Some(at) || passing {
                    self.push(path, columns, None, crowded, false, false);
                    return;
                }
                let shelter = matches!(self.s.scenario.terrain_of.get(&at), Some(Terrain::Town | Terrain::Village | Terrain::Castle));
                if self.stop && shelter {
                    self.push(path, columns, None, crowded, true, false);
                    return;
                }
            }
        }
        let a = at.axial();
        // Whether the way may go on without swerving further than it has: if not, it may
        // also end here (swerves are explored too; `choose` admits them only when due).
        let mut goes = false;
        let mut costly = Vec::new();
        for (dq, dr) in STEPS {
            let b = (a.0 + dq, a.1 + dr);
            let c = self.line.columns(b);
            if dot((dq, dr), self.line.v) <= 0 || c > self.limit {
                continue;
            }
            let cols = columns.max(c);
            let within = c <= columns;
            let hex = HexId::from_axial(b.0, b.1).filter(|h| self.s.scenario.terrain_of.contains_key(h));
            let Some(h) = hex else {
                if passing || spent < self.budget {
                    goes |= within;
                    self.push(path, cols, Some(OFF_MAP.into()), false, false, false);
                }
                continue;
            };
            if path.contains(&h) {
                continue;
            }
            match self.step(at, h) {
                Step::Blocked => {}
                Step::Dies(why) => {
                    goes |= within;
                    path.push(h);
                    self.push(path, cols, Some(why), false, false, false);
                    path.pop();
                }
                Step::Cost(k) if passing || spent + k <= self.budget => {
                    goes |= within;
                    path.push(h);
                    self.walk(path, if passing { spent } else { spent + k }, cols, passing);
                    path.pop();
                }
                Step::Cost(_) if within => costly.push((h, cols)),
                Step::Cost(_) => {}
            }
        }
        if goes {
            return;
        }
        if path.len() == 1 {
            self.push(path, columns, Some("it cannot move one hex of its rout move (JDG 10.4)".into()), false, false, false);
            return;
        }
        match self.may_end(at) {
            Some(crowded) => self.end(&path.clone(), columns, crowded),
            None if !costly.is_empty() => {
                // 10.5: where it may not stay, it passes on, even beyond its MA.
                for (h, cols) in costly {
                    path.push(h);
                    self.walk(path, spent, cols, true);
                    path.pop();
                }
            }
            None => self.push(
                path,
                columns,
                Some(format!("it cannot stay in {at} by the stacking rules nor pass on (JDG 10.5)")),
                false,
                false,
                false,
            ),
        }
    }
}

/// The way the default policy picks (module doc) among `ways`; `partner`: the unit started
/// stacked with another routed unit, and may swerve or stop short to leave it.
fn choose(ways: Vec<Way>, partner: bool) -> Option<Way> {
    let dirs: std::collections::BTreeSet<usize> = ways.iter().map(|w| w.dir).collect();
    let mut ok = Vec::new();
    for d in dirs {
        let of: Vec<&Way> = ways.iter().filter(|w| w.dir == d).collect();
        let straight: Vec<&&Way> = of.iter().filter(|w| w.columns == 0 && !w.short && w.dies.is_none()).collect();
        let part = partner && straight.iter().all(|w| w.crowded);
        for w in &of {
            let swerve_ok = straight.is_empty() || part;
            if (w.columns == 0 || swerve_ok) && (!w.short || part) {
                ok.push((*w).clone());
            }
        }
    }
    let key = |w: &Way| (w.dies.is_some(), w.crowded, !w.stops, w.short, w.columns, w.dir, w.path.clone());
    ok.into_iter().min_by_key(key)
}

fn name(d: RoutDirection) -> String {
    match d {
        RoutDirection::Edge(e) => format!("the {} edge", format!("{e:?}").to_lowercase()),
        RoutDirection::Hex(h) => format!("{h}"),
    }
}

/// Why a rout move that leaves the map eliminates its unit.
const OFF_MAP: &str = "its rout move carries it off the map (JDG 10.4)";

/// The rout move of unit `id` (module doc); `partner`: it started phase E stacked with
/// another routed unit (10.4: they part).
pub fn rout_move(s: &mut State, id: &str, partner: bool) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    let Some(start) = u.hex else { return vec![] };
    if !u.routed {
        return vec![];
    }
    let dirs = s.scenario.rout.get(&u.side).cloned().unwrap_or_default();
    let budget = s.data(id).map(|d| u32::from(d.disordered.mp) * 2).unwrap_or(0);
    let limit = if u.kind == Kind::Infantry { 2 } else { 3 };
    let stop = policy(s, &u.side) == RoutPolicy::Stop;
    let mut ways = Vec::new();
    for (i, d) in dirs.iter().enumerate() {
        let mut search =
            Search { s, id, side: &u.side, kind: u.kind, budget, limit, line: Line::new(start, *d), dir: i, stop, ways: vec![] };
        search.walk(&mut vec![start], 0, 0, false);
        ways.extend(search.ways);
    }
    let Some(way) = choose(ways, partner) else {
        return eliminate(s, id, "it has no rout direction (JDG 10.4)");
    };
    let toward = dirs.get(way.dir).map(|d| name(*d)).unwrap_or_default();
    let list: Vec<String> = way.path.iter().map(|h| h.to_string()).collect();
    let swerve = if way.columns > 0 { format!(", swerving {} column(s)", way.columns) } else { String::new() };
    let mut ev = vec![Event::rule(RULE, format!("{id} makes its rout move toward {toward}{swerve}: {}", list.join(" → ")))];
    s.trail.extend(way.path.iter().skip(1).map(|h| (id.to_string(), *h)));
    note_passed(s, id, start, way.path.get(1..).unwrap_or(&[]));
    if let Some(why) = way.dies {
        // It dies where its move ends (the last map hex of the way); a commander stacked
        // with it goes there, or off the map with it (2.5.2).
        let last = way.path.last().copied();
        if let Some(x) = s.unit_mut(id) {
            x.hex = last.or(x.hex);
        }
        ev.extend(super::chief::follow(s, &u.side, id, start, if why == OFF_MAP { None } else { last }));
        ev.extend(eliminate(s, id, &why));
        return ev;
    }
    let end = *way.path.last().unwrap_or(&start);
    if let Some(i) = s.units.iter().position(|x| x.id == id) {
        // A routed unit goes to the bottom of the stack it enters (5.1.2).
        let mut x = s.units.remove(i);
        x.hex = Some(end);
        x.sheltered = way.stops;
        s.units.insert(0, x);
    }
    if end != start {
        ev.extend(super::chief::follow(s, &u.side, id, start, Some(end)));
    }
    if way.stops {
        ev.push(Event::rule(RULE, format!("{id} stops its rout in {end} (a town, village or castle) and stays there")));
    } else if way.short {
        ev.push(Event::rule(RULE, format!("{id} stops one hex short in {end} to part from the routed unit it was stacked with")));
    }
    note_holder(s, end, &u.side);
    ev
}

/// Phase E's rout moves (JDG 1.E, 10.4): the strategic-initiative winner's units first,
/// else the scenario's first side's (digest F.5), each side's in the order of their ids.
pub fn phase_e(s: &mut State) -> Vec<Event> {
    let first = s.initiative.clone().unwrap_or_else(|| s.scenario.sides[0].id.clone());
    let second = s.scenario.other(&first).to_string();
    let partners: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.routed && u.hex.is_some_and(|h| s.units_at(h).filter(|x| x.routed).count() > 1))
        .map(|u| u.id.clone())
        .collect();
    let mut ev = Vec::new();
    for side in [first, second] {
        let mut ids: Vec<String> = s.units.iter().filter(|u| u.side == side && u.routed && u.hex.is_some()).map(|u| u.id.clone()).collect();
        ids.sort();
        for id in ids {
            // 10.5: a routed unit passed through this phase makes its move when tested.
            if s.passed.iter().any(|p| p.unit == id) {
                continue;
            }
            let Some(u) = s.unit(&id) else { continue };
            let Some(h) = u.hex.filter(|_| u.routed) else { continue };
            if u.sheltered && policy(s, &side) == RoutPolicy::Stop {
                ev.push(Event::rule(RULE, format!("{id} stays in {h}, where it stopped its rout (the {side} player's policy: stop)")));
                continue;
            }
            ev.extend(rout_move(s, &id, partners.contains(&id)));
        }
    }
    ev
}

/// A unit a retreat or rout move passed through (JDG 10.5), waiting for its test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Passed {
    /// The unit passed through.
    pub unit: String,
    /// The routed unit that passed through it.
    pub by: String,
    /// The hex it came from: a unit routed by the test retreats away from it.
    pub from: HexId,
}

/// The rule of passing through.
pub const PASS: &str = "JDG 10.5";

/// Queue the friends of routed unit `id` in the hexes its move from `origin` along `path`
/// (the hexes entered, its end last) passed through: every hex but the end (10.5; a routed
/// unit may stay with no friend but another routed unit, and only where it must, so every
/// friend it passes counts). Its stack-mates in `origin` are not passed.
pub fn note_passed(s: &mut State, id: &str, origin: HexId, path: &[HexId]) {
    let Some(side) = s.unit(id).map(|u| u.side.clone()) else { return };
    let mut prev = origin;
    for h in path.iter().take(path.len().saturating_sub(1)) {
        let friends: Vec<String> = s.units_at(*h).filter(|x| x.side == side && x.id != id).map(|x| x.id.clone()).collect();
        for f in friends {
            s.passed.push(Passed { unit: f, by: id.to_string(), from: prev });
        }
        prev = *h;
    }
}

/// What the tests of the units passed through wait for.
pub fn pending(s: &State) -> Option<String> {
    if s.passed.is_empty() {
        return None;
    }
    let names: Vec<&str> = s.passed.iter().map(|p| p.unit.as_str()).collect();
    Some(format!("JDG 10.5: cohesion tests of {}, passed through by routed units", names.join(", ")))
}

/// The tests of the units passed through (JDG 10.5), in the order they were passed, once
/// the passing unit's move is over: a CT each (a failure is a disorder; a unit it routs
/// retreats away from the hex the routed unit came from), a rout move instead for a routed
/// unit. A rout move that passes back through the routed unit that caused it does not
/// move that unit again: it stays.
pub fn pass_tests(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    // Who caused each rout move made here.
    let mut caused: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    let mut guard = 0;
    while !s.passed.is_empty() && guard < 256 {
        guard += 1;
        let p = s.passed.remove(0);
        let Some(u) = s.unit(&p.unit).cloned() else { continue };
        if u.hex.is_none() {
            continue;
        }
        if u.routed {
            if caused.get(&p.by) == Some(&p.unit) {
                ev.push(Event::rule(
                    PASS,
                    format!("{} is passed through by {}, whose rout move it caused: it makes no other rout move", p.unit, p.by),
                ));
                continue;
            }
            if caused.contains_key(&p.unit) {
                continue;
            }
            caused.insert(p.unit.clone(), p.by.clone());
            ev.push(Event::rule(
                PASS,
                format!("{} was passed through by {}: routed, it makes a rout move instead of a test", p.unit, p.by),
            ));
            ev.extend(rout_move(s, &p.unit, false));
            continue;
        }
        ev.push(Event::rule(PASS, format!("{} was passed through by {}: it takes a cohesion test", p.unit, p.by)));
        let die = dice.roll(10);
        let (failed, e) = cohesion_test(s, &p.unit, die);
        ev.extend(e);
        if failed {
            ev.extend(disorder(s, &p.unit, false, &[p.from]));
        }
    }
    s.passed.clear();
    ev
}
