//! Tactical groups and their secret orders (JDG 2.3, 2.4; digest F.4) as DESIGN §2.6
//! commitments.
//!
//! - **Groups** are computed in phase A from the public position, so both tools agree on
//!   them and their ids (`<formation>-<k>`) say nothing secret.
//! - **Phase A**: a seat's entry commits one value per group of its side, id
//!   `ord-T<turn>-<group>`, value `jdg-order:T<turn>:<group>:OR` or `…:SO`. Both values of a
//!   group have one length and the ids follow the public groups, so neither the ids, their
//!   order nor the sealed note's length tells which groups got orders. The author's tool
//!   checks the assignment first (order potential, command distance).
//! - **Opening**: the owner's entry that starts a formation's first activation of the turn
//!   opens every group of it, before any of its actions (JDG 2.4). Groups of formations that
//!   never activated open in the seat's next phase-A entry, or at the end of the game.
//! - **Audit**: an opening that breaks the order potential or the command distance (as they
//!   stood in phase A) is recorded as a violation and the group plays SO (digest F.4).

use std::collections::BTreeSet;

use super::orders::Orders;
use super::state::{Group, Phase, State, Status};
use crate::engine::hidden::{Concealed, HiddenActs, IdOrder};
use crate::engine::{Event, Violation};

/// The rule of secret orders.
pub const RULE: &str = "JDG 2.3.2";

/// Compute this turn's tactical groups (JDG 2.3.1): units of one formation linked by chains
/// of at most `group_link` hexes; with whether each has a unit within its C-in-C's command
/// distance (2.3.2, never blocked: plain hex distance, 2.5.1).
pub fn compute_groups(s: &mut State) {
    let link = u32::from(s.scenario.group_link);
    let mut fresh = Vec::new();
    for f in &s.scenario.formations {
        let mut units: Vec<(&str, crate::geo::hex::HexId)> =
            s.units.iter().filter(|u| u.formation == f.id).filter_map(|u| Some((u.id.as_str(), u.hex?))).collect();
        units.sort();
        let mut left: Vec<usize> = (0..units.len()).collect();
        let mut k = 0;
        while let Some(first) = left.first().copied() {
            left.remove(0);
            let mut members = vec![first];
            let mut i = 0;
            while i < members.len() {
                let h = units[members[i]].1;
                let (near, far): (Vec<usize>, Vec<usize>) = left.iter().partition(|&&j| units[j].1.distance(h) <= link);
                members.extend(near);
                left = far;
                i += 1;
            }
            members.sort();
            k += 1;
            let chief = s.chief(&f.side).map(|c| c.hex);
            let command = s.command(&f.side);
            let reach = command.as_ref().map(|d| u32::from(d.command_distance)).unwrap_or(0);
            let in_reach = chief.is_some_and(|c| members.iter().any(|&m| units[m].1.distance(c) <= reach));
            fresh.push(Group {
                id: format!("{}-{k}", f.id),
                turn: s.turn,
                side: f.side.clone(),
                formation: f.id.clone(),
                units: members.iter().map(|&m| units[m].0.to_string()).collect(),
                in_reach,
                potential: command.map(|d| d.order_potential).unwrap_or(0),
                committed: false,
                status: None,
            });
        }
    }
    // Earlier turns' groups stay only while their orders are still secret (owed openings).
    s.groups.retain(|g| g.status.is_none() && g.committed);
    s.groups.extend(fresh);
}

/// The commitment id of a group.
pub fn commit_id(g: &Group) -> String {
    format!("ord-T{}-{}", g.turn, g.id)
}

/// The committed value of a group's orders.
pub fn value(g: &Group, st: Status) -> String {
    format!("jdg-order:T{}:{}:{}", g.turn, g.id, st.code())
}

/// `Ruleset::committed_value_bound`: a group's value is the id with a fixed frame around
/// it; a CAM choice's lists at most every CAM of the battle (JDG 2.1.2).
pub fn value_bound(s: &State, id: &str) -> usize {
    if id.starts_with("cams-") { super::cam::value_bound(s, id) } else { id.len() + 16 }
}

/// This turn's groups of a side, in id order.
pub fn groups_of<'a>(s: &'a State, side: &'a str) -> impl Iterator<Item = &'a Group> + 'a {
    s.groups.iter().filter(move |g| g.turn == s.turn && g.side == side)
}

/// Check a phase-A assignment as its author writes it: every group once, at most the order
/// potential given orders, each of those within command distance (JDG 2.3.2).
pub fn check_assign(s: &State, side: &str, o: &Orders) -> Vec<Violation> {
    let mut errs = Vec::new();
    let mine: Vec<&Group> = groups_of(s, side).collect();
    for g in &mine {
        if !o.assign.contains_key(&g.id) {
            errs.push(Violation::new(RULE, format!("group {} ({}) has no orders: give it OR or SO", g.id, g.units.join(", "))));
        }
    }
    for (gid, st) in &o.assign {
        let Some(g) = mine.iter().find(|g| &g.id == gid) else {
            errs.push(Violation::new("JDG 2.3.1", format!("{gid} is not one of your tactical groups this turn")));
            continue;
        };
        if *st == Status::OR && s.fallen.iter().any(|x| x == side) {
            errs.push(Violation::new(
                super::chief::RULE,
                format!(
                    "group {gid}: your commander-in-chief is eliminated, your army's groups receive no orders to the end of the battle"
                ),
            ));
        } else if *st == Status::OR && !g.in_reach {
            errs.push(Violation::new(
                RULE,
                format!("group {gid} has no unit within your commander-in-chief's command distance: it cannot receive orders"),
            ));
        }
    }
    let potential = s.command(side).map(|d| d.order_potential).unwrap_or(0);
    let n = o.assign.values().filter(|st| **st == Status::OR).count();
    if n > usize::from(potential) {
        errs.push(Violation::new(RULE, format!("{n} groups given orders; your commander-in-chief's order potential is {potential}")));
    }
    errs
}

/// The commitments of earlier turns a side still owes (formations that never activated).
fn owed<'a>(s: &'a State, side: &'a str) -> impl Iterator<Item = &'a Group> + 'a {
    s.groups.iter().filter(move |g| g.side == side && g.committed && g.status.is_none() && g.turn < s.turn)
}

/// The groups whose orders a seat's entry must open now: the active formation's at its first
/// activation; in phase A, what earlier turns left secret.
pub fn due_openings(s: &State, side: &str) -> Vec<String> {
    let mut due = group_openings(s, side);
    // 2.1.2: the first side's CAM choice opens in its entry after its phase A.
    if s.sealed_cams.iter().any(|x| x == side) && !matches!(&s.phase, Phase::Orders { side: o } if o == side) {
        due.push(super::cam::commit_id(s, side));
    }
    due
}

/// The groups whose orders a seat's entry must open now (`due_openings` without the CAMs).
fn group_openings(s: &State, side: &str) -> Vec<String> {
    match &s.phase {
        Phase::Activation { am, side: act } if act == side => s
            .groups
            .iter()
            .filter(|g| g.turn == s.turn && s.activates(am, &g.formation) && g.committed && g.status.is_none())
            .map(commit_id)
            .collect(),
        Phase::Orders { side: o } if o == side => owed(s, side).map(commit_id).collect(),
        // The initiative winner's entry may open the orders of the formation it picks (JDG 3);
        // which one is checked with the pick itself.
        Phase::Pick { side: p } | Phase::Reveal { side: p } if p == side => {
            s.groups.iter().filter(|g| g.turn == s.turn && g.side == side && g.committed && g.status.is_none()).map(commit_id).collect()
        }
        _ => vec![],
    }
}

/// `Ruleset::conceal`: phase A's assignment becomes commitments (ids in public group order,
/// values of one length); the openings due are added.
pub fn conceal(s: &State, seat: &str, mut orders: Orders, _order: &IdOrder) -> Result<Concealed<Orders>, Vec<Violation>> {
    let Some(side) = s.side_of(seat).map(str::to_string) else { return Ok(Concealed::plain(orders)) };
    let open = match &s.phase {
        // The winner's tool opens the orders of the formation picked, nothing on a decline.
        Phase::Pick { side: p } | Phase::Reveal { side: p } if *p == side => {
            let picked = orders.first.as_deref().and_then(super::state::Am::parse).map(|a| a.formation);
            let mut open: Vec<String> = s
                .groups
                .iter()
                .filter(|g| g.turn == s.turn && g.side == side && g.committed && g.status.is_none())
                .filter(|g| picked.as_ref() == Some(&g.formation))
                .map(commit_id)
                .collect();
            if s.sealed_cams.contains(&side) {
                open.push(super::cam::commit_id(s, &side));
            }
            open
        }
        _ => due_openings(s, &side),
    };
    let mut commit = Vec::new();
    // 2.1.2: the first side's CAM choice becomes a commitment (its id in every such entry).
    if matches!(&s.phase, Phase::Orders { side: o } if *o == side)
        && super::cam::commits(s, &side)
        && (!orders.assign.is_empty() || !orders.cams.is_empty())
    {
        let errs = super::cam::check(s, &side, &orders.cams);
        if !errs.is_empty() {
            return Err(errs);
        }
        commit.push((super::cam::commit_id(s, &side), super::cam::value(s, &side, &orders.cams)));
        orders.cams.clear();
    }
    if matches!(&s.phase, Phase::Orders { side: o } if *o == side) && !orders.assign.is_empty() {
        let errs = check_assign(s, &side, &orders);
        if !errs.is_empty() {
            return Err(errs);
        }
        // One id per public group, in group order: nothing follows the hidden values.
        for g in groups_of(s, &side) {
            let st = orders.assign.get(&g.id).copied().unwrap_or(Status::SO);
            commit.push((commit_id(g), value(g, st)));
        }
        orders.groups = groups_of(s, &side).map(|g| g.id.clone()).collect();
        orders.assign.clear();
    }
    Ok(Concealed { orders, commit, open })
}

/// Parse `jdg-order:T<turn>:<group>:<OR|SO>` for group `g`.
fn parse_value(g: &Group, v: &str) -> Option<Status> {
    let rest = v.strip_prefix(&format!("jdg-order:T{}:{}:", g.turn, g.id))?;
    Status::parse(rest)
}

/// `Ruleset::hidden`: record phase A's commitments (exactly one per group of the side whose
/// orders are due) and apply openings (only those due), auditing each.
pub fn hidden(s: &mut State, seat: &str, acts: &HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
    let side = s.side_of(seat).map(str::to_string).unwrap_or_default();
    let mut errs = Vec::new();
    let phase_a = matches!(&s.phase, Phase::Orders { side: o } if *o == side);
    if !acts.committed.is_empty() || phase_a {
        let want: BTreeSet<String> = if phase_a { groups_of(s, &side).map(commit_id).collect() } else { BTreeSet::new() };
        // 2.1.2: the first side's CAM choice travels as one more commitment.
        let cams = phase_a && super::cam::commits(s, &side);
        let cam_id = super::cam::commit_id(s, &side);
        let mut got: BTreeSet<String> = acts.committed.iter().map(|c| c.id.clone()).collect();
        if cams && !got.remove(&cam_id) {
            errs.push(Violation::new(
                super::cam::RULE,
                format!("the first player of phase A commits to his CAM choice ({cam_id}, even when he chooses none): your tool seals it"),
            ));
        }
        let n_committed = acts.committed.len() - usize::from(cams && acts.committed.iter().any(|c| c.id == cam_id));
        if want != got || got.len() != n_committed {
            if phase_a {
                errs.push(Violation::new(
                    RULE,
                    format!(
                        "phase A commits the orders of each of your groups once, secretly: expected {}",
                        want.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            } else {
                errs.push(Violation::new(RULE, "orders are committed in your own phase A only"));
            }
        }
        for c in &acts.committed {
            if let (Some(v), Some(g)) = (&c.value, s.groups.iter().find(|g| commit_id(g) == c.id))
                && parse_value(g, v).is_none()
            {
                errs.push(Violation::new(RULE, format!("{}: the value is not this group's OR or SO", c.id)));
            }
            if let Some(v) = &c.value
                && cams
                && c.id == super::cam::commit_id(s, &side)
                && super::cam::parse_value(s, &side, v).is_none()
            {
                errs.push(Violation::new(super::cam::RULE, format!("{}: the value is not a CAM choice of yours this turn", c.id)));
            }
        }
        if errs.is_empty() {
            for g in s.groups.iter_mut().filter(|g| got.contains(&commit_id(g))) {
                g.committed = true;
            }
            if cams {
                s.sealed_cams.push(side.clone());
            }
        }
    }
    let over = s.phase == Phase::Over;
    let due: BTreeSet<String> = due_openings(s, &side).into_iter().collect();
    let mut ev = Vec::new();
    // 2.1.2: the first side's CAM choice, opened in its entry after its phase A.
    let cam_id = super::cam::commit_id(s, &side);
    if due.contains(&cam_id) {
        match acts.opened.iter().find(|o| o.id == cam_id) {
            None if matches!(&s.phase, Phase::Reveal { side: r } if *r == side) => {
                errs.push(Violation::new(super::cam::RULE, format!("this entry opens your phase-A CAM choice {cam_id}")))
            }
            None => {}
            Some(o) => match super::cam::parse_value(s, &side, &o.value) {
                Some(list) => ev.extend(super::cam::open(s, &side, &list)),
                None => errs.push(Violation::new(super::cam::RULE, format!("{cam_id} opens as {:?}, not a CAM choice", o.value))),
            },
        }
    }
    for o in acts.opened.iter().filter(|o| !(o.id == cam_id && due.contains(&cam_id))) {
        let Some(i) = s.groups.iter().position(|g| commit_id(g) == o.id && g.side == side && g.committed && g.status.is_none()) else {
            errs.push(Violation::new(RULE, format!("{} is not one of your secret orders", o.id)));
            continue;
        };
        if !over && !due.contains(&o.id) {
            errs.push(Violation::new("JDG 2.4", format!("{}: a group's orders are revealed at its formation's first activation", o.id)));
            continue;
        }
        let Some(st) = parse_value(&s.groups[i], &o.value) else {
            errs.push(Violation::new(RULE, format!("{} opens as {:?}, not this group's OR or SO", o.id, o.value)));
            continue;
        };
        ev.push(audit(s, i, st));
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Record an opened group's orders, holding them to phase A's limits: an OR beyond the order
/// potential or out of command distance plays SO, and the breach is on record (digest F.4).
fn audit(s: &mut State, i: usize, st: Status) -> Event {
    let g = s.groups[i].clone();
    // The potential of the general who gave this turn's orders (2.5.2: one may have taken
    // over since).
    let potential = g.potential;
    let ors = s.groups.iter().filter(|x| x.turn == g.turn && x.side == g.side && x.status == Some(Status::OR)).count();
    let (kept, why) = match st {
        Status::OR if !g.in_reach => (Status::SO, Some("no unit was within command distance in phase A")),
        Status::OR if ors >= usize::from(potential) => (Status::SO, Some("more orders than the order potential")),
        _ => (st, None),
    };
    s.groups[i].status = Some(kept);
    match why {
        Some(w) => Event::rule(RULE, format!("VIOLATION: group {} (turn {}) was given orders although {w}: it plays SO", g.id, g.turn)),
        None => Event::rule("JDG 2.4", format!("group {} ({}) opens its orders: {}", g.id, g.units.join(", "), kept.code())),
    }
}

/// The orders a unit acts under in this activation: its group's, SO while unknown (or with
/// no group: a reinforcement that entered by normal march, 5.2.1); OR for this activation
/// when its leader passed the initiative test (JDG 2.4.3), OR under a Reinforcement marker.
pub fn status_of(s: &State, unit: &str) -> Status {
    if super::initiative::promoted(s, unit) {
        return Status::OR;
    }
    // 5.2.1: a Reinforcement marker is OR without orders; so is a unit that entered with
    // the enemy close to its entry hex, for that turn.
    if s.unit(unit).is_some_and(|u| u.marker || u.or_turn == Some(s.turn)) {
        return Status::OR;
    }
    s.group_of(unit).and_then(|g| g.status).unwrap_or(Status::SO)
}
