//! Reaction Movement (RTL-9.3): after every Combat Refusal, red-box units of the defender
//! near a defending hex may move up to half their MA, each after an ER check of its own, to
//! reinforce a threatened hex or step away. Next to an enemy a reacting unit enters only a
//! hex a friendly unit already holds, pays no ZOC cost there and stops (9.34).
//!
//! By mail the moves are named in the defender's Enemy Reaction Phase entry
//! (`reaction_phase`), checked then against the declared state (each move seeing the ones
//! written before it), and made only if the unit's check passes when the dice come and its
//! path is still open then (an earlier refusal, or an earlier reaction that failed, may have
//! changed what it relied on).

use super::combat::{d10, defending_lead};
use super::movement::{STACK_LIMIT, half, hex_cost, in_ezoc, passable, route_cost, stack_points, water_cost};
use super::orders::Move;
use super::scenario::{Class, Kind, Route, Water};
use super::state::{State, Supply, Weather};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The side whose units may not react from inside an enemy ZOC (RTL-9.32: the Soviet's;
/// German units may).
const ZOC_BOUND: &str = "soviet";

/// Why `id` may not try a Reaction move now, if it may not (RTL-9.31, 9.32, 3.72d, 6.14f,
/// 8.5, 9.26): the rule and the reason in a player's words.
pub fn why_not(s: &State, side: &str, id: &str) -> Option<(&'static str, String)> {
    let Some(u) = s.unit(id) else { return Some(("RTL-9.31", format!("no unit {id}"))) };
    let Some(d) = s.data(id) else { return Some(("RTL-9.31", format!("no unit {id}"))) };
    if u.side != side {
        return Some(("RTL-9.31", format!("{id} is not one of your units")));
    }
    let Some(h) = u.hex else { return Some(("RTL-9.31", format!("{id} is not on the map"))) };
    if d.kind == Kind::Headquarters {
        return Some(("RTL-9.31", format!("{id} is an HQ: HQs never Reaction-move")));
    }
    if d.class == Class::Heavy {
        return Some(("RTL-8.5", format!("{id} is a heavy unit (orange circle): it never Reaction-moves")));
    }
    if !d.red_box() {
        return Some(("RTL-9.32", format!("{id} has no red-box MA: only red-box units Reaction-move")));
    }
    if u.disrupted {
        return Some(("RTL-9.31", format!("{id} is Disrupted: it may not Reaction-move (3.72d)")));
    }
    if u.supply == Supply::Out {
        return Some(("RTL-6.14", format!("{id} is Out of Supply: it may not Reaction-move (6.14f, 9.31)")));
    }
    if s.refused.contains(&u.id) {
        return Some(("RTL-9.26", format!("{id} tried Combat Refusal this turn: it may not Reaction-move (9.26, 9.32)")));
    }
    let targets: Vec<HexId> = s.attacks.iter().map(|a| a.target).collect();
    if targets.contains(&h) {
        return Some(("RTL-9.32", format!("{id} stands in a defending hex: units there do not Reaction-move")));
    }
    let near: Vec<HexId> = targets.iter().copied().filter(|t| t.distance(h) <= 2).collect();
    if near.is_empty() {
        return Some(("RTL-9.32", format!("{id} at {h} is not within two hexes of a defending hex")));
    }
    if u.formation == "army" {
        if u.activations >= super::army::limit(s, id) {
            return Some(("RTL-9.32", format!("{id} has its Final Activation marker: an Army unit reacts only while it can still act")));
        }
    } else if !near.iter().any(|&t| defending_lead(s, t).and_then(|l| s.unit(&l)).is_some_and(|l| l.formation == u.formation)) {
        return Some((
            "RTL-9.32",
            format!("{id} is not of the formation of the lead unit of a defending hex within two hexes (nor an Army unit)"),
        ));
    }
    if side == ZOC_BOUND && in_ezoc(s, h, side) {
        return Some(("RTL-9.32", format!("{id} stands in an enemy ZOC: Soviet units react only from outside one (German units may)")));
    }
    None
}

/// Walk a reacting unit along `path` (RTL-9.33c, 9.34, 9.35), up to half its MA (kept in
/// half MPs; the halving is the only one, 3.57, since Disrupted and OoS units do not react):
/// the TEC and route costs of movement, no ZOC cost; a hex next to an enemy unit only if a
/// friendly unit already holds it, and an EZOC hex ends the move; no prohibited terrain.
/// Returns the end hex and the half MPs spent.
fn walk(s: &State, side: &str, id: &str, path: &[HexId]) -> Result<(HexId, u32), (&'static str, String)> {
    let (Some(u), Some(d)) = (s.unit(id), s.data(id)) else { return Err(("RTL-9.31", format!("no unit {id}"))) };
    let Some(start) = u.hex else { return Err(("RTL-9.31", format!("{id} is not on the map"))) };
    if path.is_empty() {
        return Err(("RTL-8.11", "a Reaction move names at least one hex".into()));
    }
    let enemy = s.scenario.other(side);
    let ma = s.face(u).ma; // half the MA, in half MPs
    let mut spent = 0;
    let mut cur = start;
    let mut stop: Option<&'static str> = None;
    for (i, &next) in path.iter().enumerate() {
        if let Some(why) = stop {
            return Err((why, format!("{id} must stop at {cur}")));
        }
        if !cur.is_adjacent(next) || !s.scenario.terrain.contains_key(&next) {
            return Err(("RTL-8.11", format!("{next} is not a map hex next to {cur}")));
        }
        if s.occupied_by(next, &enemy) {
            return Err(("RTL-8.14", format!("{next} holds enemy units")));
        }
        if !passable(s, cur, next, d) {
            return Err(("RTL-9.35", format!("{cur} to {next}: terrain or a hexside prohibited to {id}")));
        }
        let by_enemy = next.neighbours().into_iter().any(|(_, n)| s.occupied_by(n, &enemy));
        if by_enemy && !s.units_at(next).any(|x| x.side == side && x.id != u.id) {
            return Err((
                "RTL-9.34",
                format!("{next} is next to an enemy unit: a reacting unit enters such a hex only where a friendly unit already stands"),
            ));
        }
        let from_z = in_ezoc(s, cur, side);
        let to_z = in_ezoc(s, next, side);
        let route = if from_z && to_z { None } else { route_cost(s, cur, next, d) };
        let rain_trail =
            s.weather == Weather::Rain && !(from_z && to_z) && s.scenario.routes(cur, next).is_some_and(|r| r.contains(&Route::Trail));
        let sp = if super::strongpoints::enemy_sp(s, next, side) { 2 } else { 0 };
        let cost = match route {
            Some(r) => r + water_cost(s, cur, next, d) + sp,
            None => match hex_cost(s, next, d, rain_trail) {
                Some(c) => c + water_cost(s, cur, next, d) + sp,
                None => return Err(("RTL-9.35", format!("{next}: terrain prohibited to {id}"))),
            },
        };
        if matches!(s.water(cur, next), Some((Water::River, false))) {
            // 8.36c: a red-box unit crosses an unbridged river with its entire (here: half) MA.
            if i > 0 || ma == 0 {
                return Err(("RTL-8.36", format!("{cur} to {next} takes {id}'s entire MA: its first and only hex")));
            }
            spent = ma;
            stop = Some("RTL-8.36");
        } else {
            if spent + cost > ma {
                return Err((
                    "RTL-9.33",
                    format!("{next} costs {} MP; {id} has {} of {} left (half its MA)", half(cost), half(ma - spent), half(ma)),
                ));
            }
            spent += cost;
        }
        if to_z {
            stop = Some("RTL-9.34");
        }
        cur = next;
    }
    let own = s.face(u).stacking;
    if cur != start && stack_points(s, cur, side) + own > STACK_LIMIT {
        return Err(("RTL-3.32", format!("{cur} would hold more than {STACK_LIMIT} stacking points")));
    }
    Ok((cur, spent))
}

/// Why the whole move `m` may not be tried now, if it may not.
fn why_not_move(s: &State, side: &str, m: &Move) -> Option<(&'static str, String)> {
    why_not(s, side, &m.unit).or_else(|| walk(s, side, &m.unit, &m.path).err())
}

/// The defender's units that could try a Reaction move now, with a first hex to go to.
pub fn options(s: &State) -> Vec<String> {
    let Some(side) = super::reaction_phase::defender(s) else { return vec![] };
    s.units
        .iter()
        .filter(|u| u.side == side && u.hex.is_some())
        .filter(|u| why_not(s, &side, &u.id).is_none())
        .filter(|u| u.hex.is_some_and(|h| h.neighbours().into_iter().any(|(_, n)| walk(s, &side, &u.id, &[n]).is_ok())))
        .map(|u| u.id.clone())
        .collect()
}

/// Check the Reaction moves of the defender's entry (every problem at once): each on the
/// state the moves written before it leave (as if their checks all pass), none for a unit
/// in a hex whose refusal is tried (it stands in a defending hex), no unit twice.
pub fn check(s: &State, side: &str, _refuse: &[HexId], react: &[Move]) -> Vec<Violation> {
    let mut w = s.clone();
    let mut errs = Vec::new();
    for (i, m) in react.iter().enumerate() {
        if react[..i].iter().any(|x| x.unit == m.unit) {
            errs.push(Violation::new("RTL-9.3", format!("{} is named twice: one Reaction move a unit", m.unit)).unit(m.unit.clone()));
            continue;
        }
        match why_not_move(&w, side, m) {
            Some((rule, why)) => errs.push(Violation::new(rule, why).unit(m.unit.clone())),
            None => {
                if let (Ok((end, _)), Some(u)) = (walk(&w, side, &m.unit, &m.path), w.unit_mut(&m.unit)) {
                    u.hex = Some(end);
                }
            }
        }
    }
    errs
}

/// Roll and make the Reaction moves, unit by unit in the order written (RTL-9.33): a move
/// no longer possible rolls nothing; a failed check leaves the unit in place for the phase.
pub fn resolve(s: &mut State, react: &[Move], dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    for m in react {
        let side = s.unit(&m.unit).map(|u| u.side.clone()).unwrap_or_default();
        if let Some((rule, why)) = why_not_move(s, &side, m) {
            ev.push(Event::rule(rule, format!("no Reaction move for {}: {why}", m.unit)));
            continue;
        }
        let er = s.unit(&m.unit).map(|u| s.er(u)).unwrap_or(1);
        let cp = super::command::take(s, &super::command::Check::React(m.unit.clone()), &m.unit, &mut ev);
        let r = d10(dice);
        ev.push(Event::roll(format!("RTL-9.33: Reaction check of {} (ER {er}{})", m.unit, super::army::drm_words(cp)), "d10", r));
        if r as i32 + cp > er as i32 {
            ev.push(Event::rule("RTL-9.33b", format!("{} fails its Reaction check and stays where it is", m.unit)));
            continue;
        }
        let Ok((end, spent)) = walk(s, &side, &m.unit, &m.path) else { continue };
        let start = s.unit(&m.unit).and_then(|u| u.hex);
        for &h in &m.path {
            super::victory::note_control(s, h, &side);
        }
        if let Some(u) = s.unit_mut(&m.unit) {
            u.hex = Some(end);
        }
        let ma = s.unit(&m.unit).map(|u| s.face(u).ma).unwrap_or(0);
        ev.push(Event::rule(
            "RTL-9.33",
            format!(
                "{} reacts {} → {end} ({} MP of half its MA, {})",
                m.unit,
                start.map(|h| h.to_string()).unwrap_or_default(),
                half(spent),
                half(ma)
            ),
        ));
        ev.extend(super::strongpoints::abandon(s, &m.unit, "Reaction-moves"));
    }
    ev
}
