//! The commander-in-chief under threat (JDG 2.5.2): his evasion when an enemy unit comes
//! into contact, his following a retreating or routing unit he is stacked with, and his
//! elimination, which leaves his army without orders from headquarters to the end.
//!
//! - **Evasion** is an interrupt of the inactive seat: the enemy's move that brings a unit
//!   next to him is the active seat's, and nobody can be asked in between. So, as for the
//!   refusal and the counter-attack, it is a **standing policy** of the commander's seat,
//!   `chief_evasion: alone | always`, written in any of its phase-A or activation entries
//!   and in force after that entry's resolution. `alone` (the default) makes only the
//!   compulsory evasion of a commander with no friendly unit in his hex; `always` makes the
//!   optional one too, when he is stacked. It is checked after every action and every
//!   resolution (as the Reinforcement markers are), against the enemy units in contact
//!   then.
//! - **Where to** (the owner's choice, settled by a default path policy): one or two hexes,
//!   never into or through a hex holding enemy units, never off the map, not across what
//!   infantry may not cross; enemy ZOC does not matter. Among the ends: out of contact with
//!   every enemy unit first, then with a friendly unit, then the nearer, then the lowest hex
//!   ids.
//! - **Following**: a commander stacked with a unit that falls back, makes a rout retreat,
//!   refuses a melee or makes a rout move goes where it goes (the first such unit of his
//!   hex); a rout move that carries the unit off the map eliminates him with it.
//! - **Elimination**: also when his evasion is compulsory and every hex around him is closed
//!   to him (enemy units, the map edge, impassable ground): he would have to retreat
//!   through enemy units. From the next phase A his army's groups have no commander in
//!   reach, so none may receive orders (every formation SO, 2.3.2); his DRM no longer
//!   counts for the initiatives (2.4.3, 3).
//! - **Another general** (2.5.2, "unless the army has further army generals at hand"): a
//!   battle may list further generals a side (`generals:`, each with a unit he rides with
//!   or a hex). When the general in command falls, the first one of the list still alive
//!   and at hand takes command at once, with his own DRM, order potential and command
//!   distance, and is the army's commander from then on in everything (move, evasion,
//!   command distance, the initiatives); this turn's orders stand as given. Only when none
//!   is left does the army lose its orders.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::movement::side_cost;
use super::scenario::Kind;
use super::state::{Chief, State};
use crate::engine::Event;
use crate::geo::hex::HexId;

/// The rule of the commander's evasion, following and elimination.
pub const RULE: &str = "JDG 2.5.2";

/// A seat's standing evasion policy for its commander-in-chief (JDG 2.5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Evasion {
    /// Evade only when he must: alone in his hex.
    #[default]
    Alone,
    /// Evade when stacked with friendly units too.
    Always,
}

/// The standing evasion policy of `side`.
pub fn policy(s: &State, side: &str) -> Evasion {
    s.evasion.get(side).copied().unwrap_or_default()
}

/// The enemy units in contact with hex `h` for `side`: in it or next to it.
fn contacts(s: &State, side: &str, h: HexId) -> Vec<String> {
    s.units.iter().filter(|u| u.side != side && u.hex.is_some_and(|x| x.distance(h) <= 1)).map(|u| u.id.clone()).collect()
}

/// Whether the commander of `side` may step from `a` into `b` when he evades.
fn may_step(s: &State, side: &str, a: HexId, b: HexId) -> bool {
    let Some(t) = s.scenario.terrain_of.get(&b) else { return false };
    if s.units_at(b).any(|u| u.side != side) {
        return false;
    }
    s.scenario.terrain.get(t).and_then(|c| c.for_kind(Kind::Infantry)).is_some() && side_cost(s, Kind::Infantry, a, b).is_some()
}

/// The evasion path of the commander of `side` from `from` by the default path policy
/// (module doc), the start hex left out; `None` when no hex is open to him.
fn evasion_path(s: &State, side: &str, from: HexId) -> Option<Vec<HexId>> {
    let mut best: Option<((bool, bool, usize), Vec<HexId>)> = None;
    let mut consider = |path: Vec<HexId>| {
        let end = *path.last().unwrap_or(&from);
        let in_contact = !contacts(s, side, end).is_empty();
        let alone = !s.units_at(end).any(|u| u.side == side);
        let key = ((in_contact, alone, path.len()), path);
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    };
    for (_, a) in from.neighbours() {
        if !may_step(s, side, from, a) {
            continue;
        }
        consider(vec![a]);
        for (_, b) in a.neighbours() {
            if b != from && may_step(s, side, a, b) {
                consider(vec![a, b]);
            }
        }
    }
    best.map(|(_, p)| p)
}

/// Eliminate the commander of `side` (JDG 2.5.2), `why` in words: the next further general
/// available takes command (`succeed`), or the army has no orders to the end.
pub fn eliminate(s: &mut State, side: &str, why: &str) -> Vec<Event> {
    let Some(i) = s.chiefs.iter().position(|c| c.side == side) else { return vec![] };
    let c = s.chiefs.remove(i);
    let who = match &c.general {
        Some(g) => format!("the {side} commander-in-chief ({}, who took command)", s.command_name(side, Some(g))),
        None => format!("the {side} commander-in-chief"),
    };
    if let Some(id) = s.scenario.side(side).and_then(|d| d.command(c.general.as_deref())).map(|d| d.id) {
        s.lost.push(id);
    }
    let fell = format!("{who} is eliminated in {}: {why}", c.hex);
    if let Some(e) = succeed(s, side) {
        return vec![Event::rule(RULE, fell), e];
    }
    if !s.fallen.iter().any(|x| x == side) {
        s.fallen.push(side.to_string());
    }
    let none = if s.scenario.side(side).is_some_and(|d| !d.generals.is_empty()) { ", no other general of his army at hand" } else { "" };
    vec![Event::rule(
        RULE,
        format!("{fell}{none}; from the next phase A no {side} group may receive orders (all SO to the end of the battle)"),
    )]
}

/// The next further general of `side` who takes command (JDG 2.5.2 "a meno che l'armata
/// non abbia ulteriori generali d'armata a disposizione"): the first in the battle's list
/// not eliminated and at hand, that is whose unit is on the map, or whose hex holds no enemy
/// unit. He takes command at once with his own values, unmoved, where he stands; the
/// contacts there are accepted as after any check (he did not choose to be there).
fn succeed(s: &mut State, side: &str) -> Option<Event> {
    let d = s.scenario.side(side)?;
    let (g, hex) = d.generals.iter().filter(|g| !s.lost.contains(&g.id)).find_map(|g| {
        let at = match (&g.unit, g.hex) {
            (Some(u), _) => s.unit(u).and_then(|u| u.hex),
            (None, Some(h)) => Some(h).filter(|h| !s.units_at(*h).any(|u| u.side != side)),
            (None, None) => None,
        };
        at.map(|h| (g.clone(), h))
    })?;
    s.chiefs.push(Chief { side: side.to_string(), hex, moved: false, near: vec![], alone: false, general: Some(g.id.clone()) });
    settle(s, side);
    Some(Event::rule(
        RULE,
        format!(
            "{} takes command of the {side} army in {hex}: DRM {}, order potential {}, command distance {} (his own values)",
            g.name, g.drm, g.order_potential, g.command_distance
        ),
    ))
}

/// Unit `unit` of `side` left `from` for `to` by a fall back, rout retreat, refusal or rout
/// move (JDG 2.5.2): a commander of its side in `from` follows it; `None` for `to` when the
/// move carried it off the map, which eliminates him too.
pub fn follow(s: &mut State, side: &str, unit: &str, from: HexId, to: Option<HexId>) -> Vec<Event> {
    if s.chief(side).is_none_or(|c| c.hex != from) {
        return vec![];
    }
    let Some(to) = to else {
        return eliminate(s, side, &format!("he follows {unit}'s rout move off the map"));
    };
    if let Some(c) = s.chiefs.iter_mut().find(|c| c.side == side) {
        c.hex = to;
        // He did not choose where he stands: every enemy in contact there is a new contact.
        c.near.clear();
        c.alone = false;
    }
    vec![Event::rule(RULE, format!("the {side} commander-in-chief follows {unit} from {from} to {to}"))]
}

/// Record what the commander of `side` stands in contact with now, as accepted: after his
/// own move (he came to them; they did not come to him) and after every check.
pub fn settle(s: &mut State, side: &str) {
    let Some(h) = s.chief(side).map(|c| c.hex) else { return };
    let near = contacts(s, side, h);
    let alone = !s.units_at(h).any(|u| u.side == side);
    if let Some(c) = s.chiefs.iter_mut().find(|c| c.side == side) {
        c.near = near;
        c.alone = alone;
    }
}

/// After an action or a resolution (JDG 2.5.2): each commander an enemy unit came into
/// contact with (or who was left alone in contact, or has an enemy in his hex) evades by
/// his seat's policy, or is eliminated when he must and cannot.
pub fn sweep(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let sides: Vec<String> = s.chiefs.iter().map(|c| c.side.clone()).collect();
    for side in sides {
        let Some(c) = s.chief(&side).cloned() else { continue };
        let now = contacts(s, &side, c.hex);
        let stacked = s.units_at(c.hex).any(|u| u.side == side);
        let invaded = s.units_at(c.hex).any(|u| u.side != side);
        let arrived: Vec<&String> = now.iter().filter(|id| !c.near.contains(id)).collect();
        let exposed = !stacked && !now.is_empty() && !c.alone;
        if arrived.is_empty() && !invaded && !exposed {
            settle(s, &side);
            continue;
        }
        let who = if arrived.is_empty() { now.join(", ") } else { arrived.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ") };
        if stacked && policy(s, &side) == Evasion::Alone {
            ev.push(Event::rule(
                RULE,
                format!(
                    "{who} in contact with the {side} commander-in-chief in {}: stacked with friends, he stays (standing policy)",
                    c.hex
                ),
            ));
            settle(s, &side);
            continue;
        }
        match evasion_path(s, &side, c.hex) {
            Some(path) => {
                let end = *path.last().unwrap_or(&c.hex);
                if let Some(x) = s.chiefs.iter_mut().find(|x| x.side == side) {
                    x.hex = end;
                }
                let list: Vec<String> = path.iter().map(|h| h.to_string()).collect();
                let why = if stacked { "he evades by his standing policy" } else { "alone, he must evade" };
                ev.push(Event::rule(
                    RULE,
                    format!("{who} in contact with the {side} commander-in-chief in {}: {why}, {} → {}", c.hex, c.hex, list.join(" → ")),
                ));
                settle(s, &side);
            }
            None if !stacked => {
                ev.push(Event::rule(
                    RULE,
                    format!("{who} in contact with the {side} commander-in-chief in {}: alone, he must evade", c.hex),
                ));
                ev.extend(eliminate(s, &side, "every way out passes through enemy units or off the map"));
            }
            None => {
                ev.push(Event::rule(
                    RULE,
                    format!("the {side} commander-in-chief in {} has no hex to evade to: he stays with his units", c.hex),
                ));
                settle(s, &side);
            }
        }
    }
    ev
}
