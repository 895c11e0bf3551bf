//! Reinforcements (JDG 5.2): the schedule's formations come on when one of their markers is
//! drawn, in column by their entry hex; the Reinforcement marker and its loss; the enemy
//! entry hexes closed until every reinforcement of that side is in.
//!
//! - **The cup** (5.2.1, 1.C): a due formation with no unit on the map gets one marker, the
//!   higher initiative, in the turn it is due; in any later turn both (a marker that was
//!   the last in the cup postponed it). A formation with units on the map already gets both
//!   from the first turn (the exception; a demoralised one keeps the one marker 11.2 leaves
//!   it).
//! - **Entry by mail** (5.2.2): an `enter` action brings one stack of waiting units of the
//!   activated formation on by the entry hex and moves it along a path; the n-th stack of
//!   the activation pays n times the entry hex's cost. The units of a stack may stop one by
//!   one along the path (`leave`), never join anyone in forced march. Units that did not
//!   enter by the end of the activation wait for the formation's first marker of the next
//!   turn.
//! - **The three ways in** (5.2.1): by forced march (the default: a Reinforcement marker,
//!   OR, twice the MA); by normal march (`normal: true`: SO, no marker, but the full MA for
//!   the entry); with an enemy 5 hexes or less from the entry hex, always OR for the turn,
//!   without forced march or marker.
//! - **The marker** is lost when an enemy unit is 5 hexes or less away, whoever moved, or
//!   when its owner drops it in phase A (`drop`); a marker unit's forced march ends in the
//!   hex where it comes within 5 hexes of an enemy.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::movement::{Entering, FORCED_MARCH_DISTANCE, stack_problem, walk};
use super::orders::Move;
use super::state::{Phase, State};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The rule of the reinforcement procedure.
pub const PROCEDURE: &str = "JDG 5.2.1";
/// The rule of the entry in column.
pub const ENTRY: &str = "JDG 5.2.2";
/// The rule of the closed entry hexes.
pub const HEXES: &str = "JDG 5.2.3";

/// One stack of reinforcements entering the map (JDG 5.2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnterOrder {
    /// The units entering together, as one stack (stacking limits apply).
    pub units: Vec<String>,
    /// Hexes entered in order, the formation's entry hex first.
    pub path: Vec<HexId>,
    /// The vertex the stack faces at the end, 0..5; default: as printed in the scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
    /// Enter by normal march (JDG 5.2.1): SO and no Reinforcement marker, but the full MA
    /// for this entry. Default: forced march, with the marker.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub normal: bool,
    /// Units of the stack that stop on the way (the stack splits, 4.1.3): unit → a hex of
    /// the path before its last.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub leave: BTreeMap<String, HexId>,
}

/// Whether hex `h` is closed to units of `side` (JDG 5.2.3): an entry hex of the other
/// side's schedule, or next to one, while any reinforcement of that side is still off the
/// map (the original: until the reinforcements the scenario schedules are all in).
pub fn closed(s: &State, side: &str, h: HexId) -> bool {
    let enemy_waiting = s.units.iter().any(|u| u.side != side && u.arrives.is_some());
    enemy_waiting
        && s.scenario
            .reinforcements
            .iter()
            .any(|r| s.scenario.formation(&r.formation).is_some_and(|f| f.side != side) && (r.entry == h || r.entry.is_adjacent(h)))
}

/// The markers of formation `f` that go into the cup for reinforcements this turn (JDG
/// 5.2.1, 1.C), when it has no unit on the map: none if nothing of it is due; the higher
/// initiative's in its first due turn; both later.
pub fn due_markers(s: &State, f: &super::scenario::Formation) -> Vec<u8> {
    let due = s.units.iter().any(|u| u.formation == f.id && u.arrives.is_some_and(|t| t <= s.turn));
    if !due {
        return vec![];
    }
    let first_turn = s.scenario.schedule(&f.id).is_some_and(|r| r.turn == s.turn);
    if first_turn && f.initiative.len() == 2 {
        // The higher initiative; on equal values either will do: the first.
        return vec![if f.initiative[1] > f.initiative[0] { 2 } else { 1 }];
    }
    (1..=f.initiative.len() as u8).collect()
}

/// The waiting units of `formation` that may enter now.
fn may_enter(s: &State, formation: &str) -> Vec<String> {
    s.units.iter().filter(|u| u.formation == formation && u.arrives.is_some_and(|t| t <= s.turn)).map(|u| u.id.clone()).collect()
}

/// Check and apply one stack's entry (JDG 5.2.1, 5.2.2).
pub fn step_enter(s: &mut State, side: &str, o: &EnterOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let Phase::Activation { am, .. } = s.phase.clone() else {
        return Err(vec![Violation::new(ENTRY, "reinforcements enter when their formation's marker is drawn")]);
    };
    let bad = |msg: String| Violation::new(ENTRY, msg);
    if o.units.is_empty() {
        return Err(vec![bad("name the units that enter".into())]);
    }
    let mut errs = Vec::new();
    // 2.1.2: a CAM brings reinforcements on only if its battle says so; this format's CAMs
    // only activate formations.
    if am.is_cam() {
        return Err(vec![Violation::new("JDG 2.1.2", format!("{am} activates formations on the map; it brings no reinforcements on"))]);
    }
    let ready = may_enter(s, &am.formation);
    for (i, id) in o.units.iter().enumerate() {
        let Some(u) = s.unit(id) else {
            errs.push(bad(format!("no unit {id}")).unit(id));
            continue;
        };
        if o.units[..i].contains(id) {
            errs.push(bad(format!("{id} is named twice")).unit(id));
        } else if u.side != side {
            errs.push(Violation::new("JDG 2.2", "that is not your unit").unit(id));
        } else if u.formation != am.formation {
            errs.push(Violation::new("JDG 2.2", format!("{id} belongs to {}; {} is activated", u.formation, am.formation)).unit(id));
        } else if u.arrives.is_none() {
            errs.push(bad(format!("{id} is not a reinforcement waiting to enter")).unit(id));
        } else if !ready.contains(id) {
            let t = u.arrives.unwrap_or(0);
            errs.push(bad(format!("{id} enters from turn {t} on, with its formation's first marker drawn that turn")).unit(id));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let Some(r) = s.scenario.schedule(&am.formation).cloned() else {
        return Err(vec![bad(format!("{} has no reinforcement schedule", am.formation))]);
    };
    if o.path.first() != Some(&r.entry) {
        return Err(vec![bad(format!("the reinforcements of {} enter by {}: the path starts there", am.formation, r.entry))]);
    }
    if let Some(f) = o.facing.filter(|f| *f > 5) {
        return Err(vec![Violation::new("JDG 6.1.1", format!("vertex {f}: a unit faces a vertex 0..5"))]);
    }
    let last = o.path.len() - 1;
    for (id, h) in &o.leave {
        if !o.units.contains(id) {
            errs.push(bad(format!("{id} does not enter with this stack")).unit(id));
        } else if !o.path[..last].contains(h) {
            errs.push(bad(format!("{id} stops in {h}: a hex of the path before its end")).unit(id));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // 5.2.2: the stack enters as one; its limits hold in the entry hex already.
    let mut w = s.clone();
    for id in &o.units {
        if let Some(x) = w.unit_mut(id) {
            x.hex = Some(r.entry);
        }
    }
    if let Some(p) = stack_problem(&w, r.entry) {
        return Err(vec![Violation::new("JDG 5.1.1", format!("the units entering together break the stacking limits: {p}"))]);
    }
    // 5.2.1: the enemy within 5 hexes of the entry hex: OR for the turn, no forced march.
    let near = s.units.iter().find(|e| e.side != side && e.hex.is_some_and(|eh| eh.distance(r.entry) <= FORCED_MARCH_DISTANCE)).cloned();
    let forced = near.is_none() && !o.normal;
    let n = u32::from(s.column) + 1;
    let turn = s.turn;
    let mut ev = vec![Event::rule(
        ENTRY,
        format!(
            "{} enter{} by {} as stack {n} of the column: {n} × the entry hex's cost",
            o.units.join(", "),
            if o.units.len() == 1 { "s" } else { "" },
            r.entry
        ),
    )];
    ev.push(match &near {
        Some(e) => Event::rule(
            PROCEDURE,
            format!(
                "{} stands {} hexes from the entry hex: the reinforcements enter OR for this turn only, without forced march or marker",
                e.id,
                e.hex.map(|h| h.distance(r.entry)).unwrap_or(0)
            ),
        ),
        None if forced => Event::rule(PROCEDURE, "they enter OR by forced march, each under a Reinforcement marker"),
        None => Event::rule(PROCEDURE, "they enter by normal march: SO without a marker, with their full MA for this entry"),
    });
    for id in &o.units {
        let Some(u) = s.unit(id).cloned() else { continue };
        let mp = u32::from(s.face(&u).mp);
        let budget = if forced { mp * 4 } else { mp * 2 };
        let path: Vec<HexId> = match o.leave.get(id) {
            Some(h) => o.path.iter().position(|x| x == h).map(|i| o.path[..=i].to_vec()).unwrap_or_else(|| o.path.clone()),
            None => o.path.clone(),
        };
        let m = Move { unit: id.clone(), path, facing: o.facing.or(Some(u.facing)), forced };
        let companions = o.units.iter().filter(|x| *x != id).cloned().collect();
        ev.extend(walk(s, side, &m, None, Some(&Entering { mult: n, budget, companions }))?);
        if let Some(x) = s.unit_mut(id) {
            x.arrives = None;
            x.marker = forced;
            x.or_turn = near.is_some().then_some(turn);
        }
    }
    s.column += 1;
    Ok(ev)
}

/// Drop the Reinforcement markers of `units` in phase A (JDG 1.A, 5.2.1): each becomes SO
/// unless its group has orders.
pub fn drop_markers(s: &mut State, side: &str, units: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    for (i, id) in units.iter().enumerate() {
        match s.unit(id) {
            Some(u) if u.side == side && u.marker && !units[..i].contains(id) => {
                ev.push(Event::rule(
                    "JDG 1.A",
                    format!("{id} has its Reinforcement marker taken off (JDG 5.2.1): it follows its group's orders from now on"),
                ));
            }
            _ => errs.push(Violation::new(PROCEDURE, format!("{id} is not a unit of yours under a Reinforcement marker")).unit(id)),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for id in units {
        if let Some(x) = s.unit_mut(id) {
            x.marker = false;
        }
    }
    Ok(ev)
}

/// Take the marker off every reinforcement within 5 hexes of an enemy unit (JDG 5.2.1),
/// whoever moved.
pub fn sweep(s: &mut State) -> Vec<Event> {
    let lost: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.marker)
        .filter(|u| {
            u.hex.is_some_and(|h| {
                s.units.iter().any(|e| e.side != u.side && e.hex.is_some_and(|eh| eh.distance(h) <= FORCED_MARCH_DISTANCE))
            })
        })
        .map(|u| u.id.clone())
        .collect();
    let mut ev = Vec::new();
    for id in lost {
        if let Some(x) = s.unit_mut(&id) {
            x.marker = false;
        }
        ev.push(Event::rule(
            PROCEDURE,
            format!("{id} is within 5 hexes of an enemy unit: it loses its Reinforcement marker and follows its group's orders (SO without them)"),
        ));
    }
    ev
}

/// At the end of an activation of `formation` (JDG 5.2.2): its units that could have entered
/// and did not wait for its first marker of the next turn.
pub fn delay(s: &mut State, formation: &str) -> Vec<Event> {
    let left = may_enter(s, formation);
    s.column = 0;
    if left.is_empty() {
        return vec![];
    }
    let next = s.turn + 1;
    for id in &left {
        if let Some(x) = s.unit_mut(id) {
            x.arrives = Some(next);
        }
    }
    vec![Event::rule(ENTRY, format!("{} did not enter: they wait for {formation}'s first marker drawn in turn {next}", left.join(", ")))]
}
