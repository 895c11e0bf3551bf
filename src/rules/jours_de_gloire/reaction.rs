//! Counter-battery and reaction fire (JDG 7.1, 5.1.3, 8.3.3, 9.3.2): the inactive side's
//! batteries answering an enemy fire or an enemy melee or charge, by standing policies.
//!
//! Both fires are the inactive seat's choice, made at a moment when its settling entry
//! already knows the dice (it rolls them), so a live answer would let it choose after
//! seeing them; each is therefore a **standing policy** logged in one of the seat's earlier
//! phase-A or activation entries, as the refusal and counter-attack are:
//! `counter_battery: never | always` and `reaction_fire: never | top | under_guns`. Default
//! `never` for both. With the choice fixed before the dice, the fire is rolled on the dice
//! of the resolution that calls for it (the fire's, the melee's or the charge's), right
//! where the rules place it.
//!
//! **Counter-battery** (7.1): after an enemy fire and its results, each battery of the
//! target hex still in good order fires back at the top battery of the firing hex, with its
//! own facing (no turn, 7.2), inside its cone, range and line of fire, and free of the
//! compulsory adjacent target (the 7.2 exception). No massed-target or combined-fire DRM;
//! the result hits that battery alone (5.1.3).
//!
//! **Reaction fire** (7.1, 8.3.3): each battery of a hex attacked in melee or charged, in
//! good order, fires at one attacking stack in one of its front hexes, chosen before the
//! engagement tests by the default target policy (the stack with the most strength points
//! fighting, then the lowest hex id). It is fired after the tests and cancelled when that
//! stack failed its own; it hits the top unit only, or under `under_guns` the infantry or
//! cavalry right under the guns of a mixed stack (5.1.3). DRMs: the reaction −1, −1 more
//! from a battery stacked with infantry in square (9.3.2), no massed target. A unit it
//! disorders does not fight (8.3.3); lone guns are eliminated after it only if the melee
//! still takes place.
//!
//! A battery makes one counter-battery or one reaction fire per enemy activation
//! (`State::reacted`, cleared with the activation), and only in an enemy activation.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::scenario::Kind;
use super::state::{Fire, Phase, State};
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::facing::{Facing, in_cone};
use crate::geo::hex::HexId;

/// The rule of both fires.
pub const RULE: &str = "JDG 7.1";

/// A seat's standing counter-battery policy (JDG 7.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CounterBattery {
    /// The batteries never fire back.
    #[default]
    Never,
    /// Every battery fired on that may fire back does.
    Always,
}

/// A seat's standing reaction-fire policy (JDG 7.1, 8.3.3, 5.1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReactionFire {
    /// The batteries never fire in reaction.
    #[default]
    Never,
    /// Reaction fire at the top unit of the attacking stack.
    Top,
    /// Reaction fire at the top unit, but at the infantry or cavalry right under the guns
    /// when the top unit is artillery (the 5.1.3 exception).
    UnderGuns,
}

/// The side whose formation is active, if any.
fn active(s: &State) -> Option<&str> {
    match &s.phase {
        Phase::Activation { side, .. } => Some(side),
        _ => None,
    }
}

/// Why the battery `id` may not fire a counter-battery or reaction fire now, if it may not.
fn unable(s: &State, id: &str) -> Option<String> {
    let u = s.unit(id)?;
    if u.routed {
        return Some(format!("{id} is routed"));
    }
    if u.disordered {
        return Some(format!("{id} is disordered"));
    }
    if s.reacted.contains(&u.id) {
        return Some(format!("{id} has made its one counter-battery or reaction fire of this activation"));
    }
    if active(s) == Some(u.side.as_str()) {
        return Some(format!("{id} belongs to the active side"));
    }
    None
}

/// Whether a battery of `side` in `h` fires in every direction: in a village or a square
/// (6.1.1, 4.2).
fn all_round(s: &State, side: &str, h: HexId) -> bool {
    s.scenario.all_round(h) || s.units_at(h).any(|x| x.side == side && x.square)
}

/// Roll one battery's fire at one unit and apply it (JDG 7.5): `drm` and `drms` as counted.
fn shoot(s: &mut State, dice: &mut Dice, what: &str, gun: &str, target: &str, drm: i32, drms: &[String]) -> Vec<Event> {
    let Some(g) = s.unit(gun).cloned() else { return vec![] };
    let Some(from) = g.hex else { return vec![] };
    let capacity = i32::from(s.face(&g).sp);
    let die = dice.roll(10);
    let total = die as i32 + capacity + drm;
    let result = s.scenario.fire_result(total);
    s.reacted.push(gun.to_string());
    let mut ev = vec![Event::roll(format!("{RULE}: {what} of {gun} at {target}"), "d10", die)];
    ev.push(Event::rule(
        RULE,
        format!(
            "{what} total {die} + {capacity} {drm:+} = {total}{}: {} for {target} alone (JDG 5.1.3, Fire Table E.5)",
            if drms.is_empty() { String::new() } else { format!(" ({})", drms.join(", ")) },
            super::fire::result_word(result)
        ),
    ));
    ev.extend(super::fire::apply(s, dice, target, result, from));
    ev
}

/// The counter-battery fires after the fire `f` and its results (JDG 7.1): each battery of
/// the target hex whose seat's policy is `always` fires back at the top battery of the
/// firing hex, when it may.
pub fn counter_battery(s: &mut State, f: &Fire, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    // The top battery first (units are listed bottom first).
    let mut guns: Vec<(String, String)> =
        s.units_at(f.target).filter(|u| u.kind == Kind::Artillery && u.side != f.side).map(|u| (u.id.clone(), u.side.clone())).collect();
    guns.reverse();
    for (gun, owner) in guns {
        if s.counter_battery.get(&owner).copied().unwrap_or_default() == CounterBattery::Never {
            ev.push(Event::rule(RULE, format!("the {owner} player's policy is not to fire counter-battery: {gun} does not fire back")));
            continue;
        }
        if let Some(why) = unable(s, &gun) {
            ev.push(Event::rule(RULE, format!("{why}: no counter-battery fire")));
            continue;
        }
        // 5.1.3: only at the battery that fired, the top one of its hex.
        let Some(target) = s.units_at(f.from).filter(|u| u.kind == Kind::Artillery && f.units.contains(&u.id)).last().map(|u| u.id.clone())
        else {
            ev.push(Event::rule(RULE, format!("the battery that fired on {gun} is gone: no counter-battery fire")));
            continue;
        };
        let Some(g) = s.unit(&gun).cloned() else { continue };
        let Some(at) = g.hex else { continue };
        let d = at.distance(f.from);
        let (eff, max) = s.data(&gun).and_then(|x| x.range).map(|r| (u32::from(r[0]), u32::from(r[1]))).unwrap_or((0, 0));
        let why = if !all_round(s, &owner, at) && !in_cone(at, g.facing, f.from) {
            Some(format!("{} is outside {gun}'s fire cone (no turn before a counter-battery fire, JDG 7.2)", f.from))
        } else if d > max {
            Some(format!("{} is {d} hexes away, beyond {gun}'s maximum range {max} (JDG 7.3)", f.from))
        } else if (s.night() || s.fog()) && d > 1 {
            Some("at night and in fog artillery fires only at adjacent hexes (JDG 12)".to_string())
        } else {
            super::fire::blocked(s, at, f.from)
        };
        if let Some(why) = why {
            ev.push(Event::rule(RULE, format!("{gun} cannot fire back: {why}")));
            continue;
        }
        let mut drm = 0;
        let mut drms = Vec::new();
        if d > eff {
            drm += s.scenario.fire_drm.beyond_effective;
            drms.push(format!("beyond effective range {:+}", s.scenario.fire_drm.beyond_effective));
        }
        ev.push(Event::rule(
            RULE,
            format!(
                "counter-battery ({owner} standing policy): {gun} in {at} fires back at {target} in {} ({d} hexes), no massed-target DRM",
                f.from
            ),
        ));
        ev.extend(shoot(s, dice, "counter-battery fire", &gun, &target, drm, &drms));
    }
    ev
}

/// The unit of the stack in `a` that a reaction fire under `policy` hits (5.1.3).
fn hit_unit(s: &State, a: HexId, policy: ReactionFire) -> Option<String> {
    let top = s.units_at(a).last()?;
    if policy == ReactionFire::UnderGuns
        && top.kind == Kind::Artillery
        && let Some(u) = s.units_at(a).filter(|u| u.kind != Kind::Artillery).last()
    {
        return Some(u.id.clone());
    }
    Some(top.id.clone())
}

/// The reaction fires chosen against the attackers of `from` (the declared attacking
/// hexes), before their engagement tests (8.3.3): for each battery of the defending hexes
/// `at` whose seat's policy asks for it, the attacking hex it fires at.
pub fn choose(s: &State, side: &str, from: &[HexId], at: &[HexId]) -> (Vec<(String, HexId)>, Vec<Event>) {
    let mut picks = Vec::new();
    let mut ev = Vec::new();
    for &d in at {
        let mut guns: Vec<(String, String, u8)> = s
            .units_at(d)
            .filter(|u| u.kind == Kind::Artillery && u.side != side)
            .map(|u| (u.id.clone(), u.side.clone(), u.facing))
            .collect();
        guns.reverse();
        for (gun, owner, facing) in guns {
            if s.reaction.get(&owner).copied().unwrap_or_default() == ReactionFire::Never {
                ev.push(Event::rule(RULE, format!("the {owner} player's policy is not to fire in reaction: {gun} does not fire")));
                continue;
            }
            if let Some(why) = unable(s, &gun) {
                ev.push(Event::rule(RULE, format!("{why}: no reaction fire")));
                continue;
            }
            let sp = |a: HexId| -> u32 { super::melee::fighters(s, a).filter(|u| u.side == side).map(|u| u32::from(s.face(u).sp)).sum() };
            let round = all_round(s, &owner, d);
            // No turn before a reaction fire (7.2): the battery's own front hexes.
            let cands = from
                .iter()
                .copied()
                .filter(|a| a.is_adjacent(d) && Facing::Vertex(facing).front_hex(d, *a, round) && super::fire::blocked(s, d, *a).is_none());
            match cands.max_by_key(|a| (sp(*a), std::cmp::Reverse(*a))) {
                Some(a) => picks.push((gun, a)),
                None => ev.push(Event::rule(RULE, format!("no attacker in a front hex of {gun}: no reaction fire"))),
            }
        }
    }
    (picks, ev)
}

/// Fire the reaction fires `picks` after the engagement tests (8.3.3): `passed` holds the
/// attacking hexes whose stacks may attack; a fire at a stack that failed is cancelled.
pub fn fire(s: &mut State, picks: &[(String, HexId)], passed: &[HexId], dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    for (gun, a) in picks {
        let Some(g) = s.unit(gun).cloned() else { continue };
        let Some(d) = g.hex else { continue };
        if !passed.contains(a) {
            ev.push(Event::rule("JDG 8.3.3", format!("the stack in {a} failed its engagement test: {gun}'s reaction fire is cancelled")));
            continue;
        }
        if let Some(why) = unable(s, gun) {
            ev.push(Event::rule(RULE, format!("{why}: no reaction fire")));
            continue;
        }
        let policy = s.reaction.get(&g.side).copied().unwrap_or_default();
        let Some(target) = hit_unit(s, *a, policy) else { continue };
        let data = s.scenario.fire_drm.clone();
        let mut drm = data.reaction;
        let mut drms = vec![format!("reaction fire {:+}", data.reaction)];
        if s.units_at(d).any(|u| u.side == g.side && u.kind == Kind::Infantry && u.square) {
            drm += data.reaction_square;
            drms.push(format!("stacked with a square {:+}", data.reaction_square));
        }
        ev.push(Event::rule(
            "JDG 8.3.3",
            format!("reaction fire ({} standing policy): {gun} in {d} fires at {target} in {a}, no massed-target DRM", g.side),
        ));
        ev.extend(shoot(s, dice, "reaction fire", gun, &target, drm, &drms));
    }
    ev
}
