//! Artillery fire (JDG 7): normal fire in the fire segment of the battery's own activation.
//!
//! A `fire` action names the battery (and, for combined fire, the battery stacked with it,
//! 7.3), the target hex and an optional one-vertex turn first (7.2). It is checked (who may
//! fire, cone, range, line of fire, the compulsory adjacent target) and left pending: the
//! entry ends with it, and the other side's next entry settles its d10 (DESIGN §2.5: the
//! firer cannot foresee or bias the die; the target's owner sees it first but has no choice
//! left before it). The total is d10 + fire capacity + DRMs, read on the scenario's Fire
//! Table (E.5); the DRMs are the scenario's `fire_drm` (E.6). Both tables are PROVISIONAL
//! data, replaced by a published battle's file without a change here.
//!
//! The counter-battery fire that may answer a fire at artillery (7.1) is `reaction`'s, rolled
//! on the same dice right after the result. The line of fire (7.4, [`sight`]) reads the
//! map's elevation levels: a hex above both ends blocks, and an obstacle is passed over in
//! the three cases of 7.4.3.

use super::disorder::{cohesion_test, disorder, rout};
use super::movement::may_act;
use super::scenario::{Feature, FireResult, Kind, Terrain};
use super::state::{Fire, State};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::facing::{Facing, in_cone, turn_steps};
use crate::geo::hex::HexId;
use crate::geo::hexline;

/// A `fire` action.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireOrder {
    /// The firing battery.
    pub unit: String,
    /// The second battery of the stack, same formation, firing combined (JDG 7.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
    /// The target hex.
    pub at: HexId,
    /// Turn the hex's artillery one vertex before firing (JDG 7.2), to this vertex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u8>,
}

/// Hexes whose terrain or units block a line of fire (7.4.1): village, woods, orchard,
/// oasis, and any unit. A hex higher than both ends is the other kind (`Sight::hex`).
fn obstacle_hex(s: &State, h: HexId) -> bool {
    let t = s.scenario.terrain_of.get(&h).copied();
    matches!(t, Some(Terrain::Village | Terrain::Woods | Terrain::Orchard | Terrain::Oasis)) || s.units_at(h).next().is_some()
}

/// Whether the hexside between `a` and `b` blocks a line from `from` to `to` on flat
/// ground (7.4.1): crest and steep slope always; wall (redoubt) and fortification unless
/// firer or target is one of the two hexes it separates.
fn blocking_side(s: &State, a: HexId, b: HexId, from: HexId, to: HexId) -> bool {
    match s.scenario.feature(a, b) {
        Some(Feature::Crest | Feature::SteepSlope) => true,
        Some(Feature::Wall | Feature::Fortification) => ![a, b].iter().any(|h| *h == from || *h == to),
        _ => false,
    }
}

/// A line of fire with the levels of its two ends, for the elevation rules (7.4.1, 7.4.3).
struct Sight<'a> {
    s: &'a State,
    from: HexId,
    to: HexId,
    /// The firer's level.
    lf: u8,
    /// The target's level.
    lt: u8,
}

impl Sight<'_> {
    /// Which 7.4.3 exception lets the line pass over an obstacle on `hexes` (its one hex, or
    /// the two a hexside separates), in words. The obstacle's level is its hex's, or the
    /// higher of a hexside's two (digest reading). Nearness sums the distances from the
    /// obstacle's hexes to each end, so a hexside, between a hex at distance i and one at
    /// i + 1, is halfway exactly when i + 1/2 is: "halfway or nearer" includes halfway.
    fn exception(&self, hexes: &[HexId]) -> Option<&'static str> {
        let lo = hexes.iter().map(|h| self.s.scenario.level(*h)).max().unwrap_or(0);
        let near_firer: u32 = hexes.iter().map(|h| self.from.distance(*h)).sum();
        let near_target: u32 = hexes.iter().map(|h| self.to.distance(*h)).sum();
        if self.lf > lo && self.lt > lo {
            Some("firer and target both stand higher")
        } else if self.lf > self.lt && self.lf > lo && near_firer <= near_target {
            Some("the firer stands higher than it and the target, and it lies halfway or nearer the firer")
        } else if self.lt > self.lf && self.lt > lo && near_target <= near_firer {
            Some("the target stands higher than it and the firer, and it lies halfway or nearer the target")
        } else {
            None
        }
    }

    /// Why the hex `x` on the line blocks it (7.4.1), or `None`. An obstacle the line
    /// passes over (7.4.3) is noted instead. A hex higher than both ends is never passed
    /// over: no exception applies to an obstacle above the firer and the target.
    fn hex(&self, x: HexId, notes: &mut Vec<String>) -> Option<String> {
        let l = self.s.scenario.level(x);
        if l > self.lf && l > self.lt {
            return Some(format!(
                "{x}, at level {l}, is higher than both the firer (level {}) and the target (level {}) (JDG 7.4.1)",
                self.lf, self.lt
            ));
        }
        if !obstacle_hex(self.s, x) {
            return None;
        }
        match self.exception(&[x]) {
            Some(e) => {
                note(notes, format!("the line passes over {x} (village, wood, orchard, oasis or unit, level {l}): {e} (JDG 7.4.3)"));
                None
            }
            None => Some(format!("{x} (a village, wood, orchard or oasis, or a unit) blocks the line (JDG 7.4.1)")),
        }
    }

    /// Whether the hexside between `a` and `b` blocks the line (7.4.1), after 7.4.3.
    fn side(&self, a: HexId, b: HexId, notes: &mut Vec<String>) -> bool {
        if !blocking_side(self.s, a, b, self.from, self.to) {
            return false;
        }
        match self.exception(&[a, b]) {
            Some(e) => {
                note(notes, format!("the line passes over the blocking hexside between {a} and {b}: {e} (JDG 7.4.3)"));
                false
            }
            None => true,
        }
    }
}

/// Add a note once (a hexside may be met by both traces).
fn note(notes: &mut Vec<String>, n: String) {
    if !notes.contains(&n) {
        notes.push(n);
    }
}

/// The line of fire from `from` to `to` (JDG 7.4): `Ok` with what it passes over by
/// elevation (7.4.3), or why it is blocked. Fire, counter-battery and reaction fire, and
/// the charge's sight of its target all read this one function.
pub fn sight(s: &State, from: HexId, to: HexId) -> Result<Vec<String>, String> {
    if from.is_adjacent(to) {
        // 7.4.4: point-blank fire is always possible except across a crest or steep slope.
        // No level lifts it over one: such a hexside is as high as the higher end.
        return match s.scenario.feature(from, to) {
            Some(Feature::Crest | Feature::SteepSlope) => {
                Err(format!("point-blank fire never crosses the crest or steep slope between {from} and {to} (JDG 7.4.4)"))
            }
            _ => Ok(vec![]),
        };
    }
    let line = Sight { s, from, to, lf: s.scenario.level(from), lt: s.scenario.level(to) };
    let mut notes = Vec::new();
    for (x, y) in hexline::between(from, to) {
        if x == y {
            if let Some(why) = line.hex(x, &mut notes) {
                return Err(why);
            }
            continue;
        }
        // 7.4.2: along the edge of one blocking hex the line is clear, between two blocked.
        if let (Some(_), Some(_)) = (line.hex(x, &mut notes), line.hex(y, &mut notes)) {
            return Err(format!("the line runs between {x} and {y}, which both block it (JDG 7.4.2)"));
        }
        if line.side(x, y, &mut notes) {
            return Err(format!("the line runs along the blocking hexside between {x} and {y} (JDG 7.4.2)"));
        }
    }
    let [one, two] = hexline::traces(from, to);
    let mut crossing = |t: &Vec<HexId>| t.windows(2).find(|w| w[0] != w[1] && line.side(w[0], w[1], &mut notes)).map(|w| (w[0], w[1]));
    if let (Some((a, b)), Some(_)) = (crossing(&one), crossing(&two)) {
        return Err(format!("the line crosses the blocking hexside between {a} and {b} (JDG 7.4.1)"));
    }
    Ok(notes)
}

/// Why the line of fire from `from` to `to` is blocked (JDG 7.4), or `None` if clear.
pub fn blocked(s: &State, from: HexId, to: HexId) -> Option<String> {
    sight(s, from, to).err()
}

/// Adjacent hexes holding enemy units that are front hexes of artillery at `h` facing `v`.
fn front_enemies(s: &State, side: &str, h: HexId, v: u8) -> Vec<HexId> {
    let all_round = s.scenario.all_round(h) || s.units_at(h).any(|x| x.side == side && x.square);
    h.neighbours()
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| Facing::Vertex(v).front_hex(h, *n, all_round) && s.units_at(*n).any(|u| u.side != side))
        .collect()
}

/// Check a `fire` action and leave it pending (JDG 7.1–7.4).
pub fn step_fire(s: &mut State, side: &str, f: &FireOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let bad = |rule: &str, msg: String| Violation::new(rule, msg).unit(&f.unit);
    if s.fire.is_some() {
        return Err(vec![bad("JDG 7.5", "a fire is already waiting for its die".into())]);
    }
    if s.fire_closed {
        return Err(vec![bad("JDG 7.2", "artillery fires before any movement of its activation (the fire segment is over)".into())]);
    }
    let Some(u) = s.unit(&f.unit).cloned() else { return Err(vec![bad("JDG 7.1", "no such unit".into())]) };
    may_act(s, side, &u).map_err(|v| vec![v])?;
    let Some(from) = u.hex else { return Err(vec![bad("JDG 7.1", "the unit is not on the map".into())]) };
    if u.kind != Kind::Artillery {
        return Err(vec![bad("JDG 7.1", "only artillery fires".into())]);
    }
    if u.routed {
        return Err(vec![bad("JDG 10.2", "a routed unit never fires".into())]);
    }
    if u.disordered {
        return Err(vec![bad("JDG 7.2", "disordered artillery cannot fire".into())]);
    }
    if s.fired.contains(&u.id) {
        return Err(vec![bad("JDG 7.1", "the battery has already fired in this activation".into())]);
    }
    let mut units = vec![u.clone()];
    if let Some(w) = &f.with {
        let Some(o) = s.unit(w).cloned() else { return Err(vec![bad("JDG 7.3", format!("no unit {w}"))]) };
        if o.id == u.id || o.hex != Some(from) || o.kind != Kind::Artillery || o.formation != u.formation {
            return Err(vec![bad("JDG 7.3", format!("combined fire needs a second battery of the same formation in {from}"))]);
        }
        if o.disordered || o.routed || s.fired.contains(&o.id) {
            return Err(vec![bad("JDG 7.3", format!("{w} cannot fire (disordered, routed or already fired)"))]);
        }
        may_act(s, side, &o).map_err(|v| vec![v])?;
        units.push(o);
    }
    let mut v = u.facing;
    if let Some(t) = f.turn {
        if t > 5 || turn_steps(u.facing, t) > 1 {
            return Err(vec![bad("JDG 7.2", format!("artillery turns one vertex (60°) at most before firing, not to vertex {t}"))]);
        }
        v = t;
    }
    let target = f.at;
    if !s.units_at(target).any(|x| x.side != side) {
        return Err(vec![bad("JDG 7.1", format!("no enemy unit in {target}")).hex(target.to_string())]);
    }
    // 7.2: an enemy in a front hex, before or after the permitted turn, is the compulsory target.
    let mut must = front_enemies(s, side, from, u.facing);
    for h in front_enemies(s, side, from, v) {
        if !must.contains(&h) {
            must.push(h);
        }
    }
    if !must.is_empty() && !must.contains(&target) {
        let list: Vec<String> = must.iter().map(|h| h.to_string()).collect();
        return Err(vec![
            bad("JDG 7.2", format!("an enemy in a front hex must be fired at: {}", list.join(" or "))).hex(target.to_string()),
        ]);
    }
    if !s.scenario.all_round(from) && !u.square && !in_cone(from, v, target) {
        return Err(vec![bad("JDG 7.2", format!("{target} is outside the fire cone of vertex {v}")).hex(target.to_string())]);
    }
    let d = from.distance(target);
    let ranges: Vec<[u8; 2]> = units.iter().filter_map(|x| s.data(&x.id).and_then(|d| d.range)).collect();
    let eff = ranges.iter().map(|r| u32::from(r[0])).min().unwrap_or(0);
    let max = ranges.iter().map(|r| u32::from(r[1])).min().unwrap_or(0);
    if d > max {
        return Err(vec![bad("JDG 7.3", format!("{target} is {d} hexes away; the maximum range is {max}")).hex(target.to_string())]);
    }
    if (s.night() || s.fog()) && d > 1 {
        return Err(vec![bad("JDG 12", "at night and in fog artillery fires only at adjacent hexes".into()).hex(target.to_string())]);
    }
    let over = sight(s, from, target).map_err(|why| vec![bad("JDG 7.4", why).hex(target.to_string())])?;
    // Capacity and DRMs (7.3, E.6).
    let drm_data = s.scenario.fire_drm.clone();
    let capacity = units.iter().map(|x| i32::from(s.face(x).sp)).max().unwrap_or(0);
    let mut drm = 0;
    let mut drms = Vec::new();
    if units.len() == 2 {
        drm += drm_data.combined;
        drms.push(format!("combined fire {:+}", drm_data.combined));
    }
    if s.units_at(target).count() >= usize::from(drm_data.massed_units) {
        drm += drm_data.massed_target;
        drms.push(format!("massed target {:+}", drm_data.massed_target));
    }
    if d > eff {
        drm += drm_data.beyond_effective;
        drms.push(format!("beyond effective range {:+}", drm_data.beyond_effective));
    }
    // Apply the turn (not movement, 7.2) to every battery of the hex (6.1.1).
    let ids: Vec<String> = units.iter().map(|x| x.id.clone()).collect();
    let mut ev = Vec::new();
    if v != u.facing {
        let arts: Vec<String> = s.units_at(from).filter(|x| x.kind == Kind::Artillery).map(|x| x.id.clone()).collect();
        for id in &arts {
            if let Some(x) = s.unit_mut(id) {
                x.facing = v;
            }
        }
        ev.push(Event::rule("JDG 7.2", format!("{} in {from} turn to vertex {v} before firing", arts.join(", "))));
    }
    ev.extend(over.into_iter().map(|n| Event::rule("JDG 7.4.3", n)));
    s.fired.extend(ids.iter().cloned());
    let text = format!(
        "{} in {from} fire{} at {target} ({d} hexes, effective range {eff}): capacity {capacity}, DRM {drm:+}{}",
        ids.join(" and "),
        if ids.len() == 2 { " combined" } else { "s" },
        if drms.is_empty() { String::new() } else { format!(" ({})", drms.join(", ")) }
    );
    ev.push(Event::rule("JDG 7.3", text));
    s.fire = Some(Fire { side: side.to_string(), units: ids, from, target, capacity, drm, drms });
    Ok(ev)
}

/// What the pending fire waits for, in words.
pub fn pending(s: &State) -> Option<String> {
    let f = s.fire.as_ref()?;
    Some(format!("JDG 7.5: fire of {} at {} (d10 + {} {:+})", f.units.join(" and "), f.target, f.capacity, f.drm))
}

/// Roll the pending fire and apply its result to every unit in the target hex (JDG 7.5).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(f) = s.fire.take() else { return vec![] };
    let die = dice.roll(10);
    let total = die as i32 + f.capacity + f.drm;
    let result = s.scenario.fire_result(total);
    let mut ev = vec![Event::roll(format!("JDG 7.5: fire of {} at {}", f.units.join(" and "), f.target), "d10", die)];
    let word = match result {
        FireResult::Ct => "a cohesion test for each unit",
        r => result_word(r),
    };
    ev.push(Event::rule("JDG 7.5", format!("fire total {die} + {} {:+} = {total}: {word} (Fire Table E.5)", f.capacity, f.drm)));
    let hit: Vec<String> = s.units_at(f.target).map(|u| u.id.clone()).collect();
    for id in hit {
        ev.extend(apply(s, dice, &id, result, f.from));
    }
    // 7.1: the batteries fired on may fire back at once, by their seat's standing policy.
    ev.extend(super::reaction::counter_battery(s, &f, dice));
    ev
}

/// A Fire Table result in words.
pub(super) fn result_word(r: FireResult) -> &'static str {
    match r {
        FireResult::None => "no effect",
        FireResult::Ct => "a cohesion test",
        FireResult::Disorder => "disorder",
        FireResult::Rout => "rout",
    }
}

/// Apply a Fire Table result to one unit fired on from `from` (JDG 7.5): a CT (a rout move
/// for a routed unit, 10.4), a disorder or a rout.
pub(super) fn apply(s: &mut State, dice: &mut Dice, id: &str, result: FireResult, from: HexId) -> Vec<Event> {
    let from = [from];
    let mut ev = Vec::new();
    match result {
        FireResult::None => {}
        FireResult::Ct => {
            let Some(u) = s.unit(id) else { return ev };
            if u.hex.is_none() {
                return ev;
            }
            if u.routed {
                // 10.2: a CT of a routed unit is replaced by a rout move (10.4).
                ev.push(Event::rule("JDG 10.4", format!("{id} is routed: no test, a rout move instead")));
                ev.extend(super::rout::rout_move(s, id, false));
                return ev;
            }
            let die = dice.roll(10);
            let (failed, e) = cohesion_test(s, id, die);
            ev.extend(e);
            if failed {
                ev.extend(disorder(s, id, true, &from));
            }
        }
        FireResult::Disorder => ev.extend(disorder(s, id, true, &from)),
        FireResult::Rout => ev.extend(rout(s, id, true, &from)),
    }
    ev
}
