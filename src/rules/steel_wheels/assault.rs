//! Infantry assault and close combat (SW-ASL, SW-TEST-CC; digest D.8, D.11).
//!
//! - **The assault** (C.4 "fire & assault", ASL-0/1) is one action of a squad with at least
//!   one leader and at least half its figures: it fires its Moving shots at an enemy squad or
//!   gun crew whose base is within 16 cm of its own, takes a CT, and if the CT passes its
//!   base is pulled straight toward the target until the two bases touch, whatever the
//!   terrain between; then every figure in contact fights one round of close combat. A
//!   failed assault CT ends the squad's manoeuvre where it stands and never panics it
//!   (PAN-1, AMB-14). Vehicles are not assaulted this way (ASL-5, not built).
//! - **Close combat** (ASL-3, TEST-CC): a squad is one base whose figures are counted, not
//!   placed, so contacts are counted too. In a round, the smaller of the two counts of
//!   figures fighting gives the number of contacts; the larger side's figures are shared
//!   out over them as evenly as possible (the first contacts take one more). In each
//!   contact every figure rolls D6 + AD; the best of a side counts; the lower side loses one
//!   figure; a tie is rolled again at once (AMB-10). The losses of a round are removed
//!   together at its end (soldiers before leaders, the G.1 default).
//! - **After the melee** (ASL-4): the assaulted squad stays in contact and its only action,
//!   at its own next activation (this manoeuvre if it has not acted, else next turn), is a
//!   CT. A pass brings its free figures into the contact and a new round is fought with
//!   every figure of both squads; a failure makes its figures in contact surrender
//!   (removed) and its free figures panic and flee (the flight is not built: they stay,
//!   panicked). The melee ends when either squad is gone or the two bases no longer touch
//!   (the assaulter may walk away in its own activation).
//!
//! Dice (G.1): the assault is one random action of the activation entry, resolved by the
//! other side's next entry, in this order: the fire (fire.rs order, its CTs included), the
//! assault CT (D6 then D8), then the close combat, contact by contact, the assaulter's dice
//! before the defender's. The ASL-4 CT and its round are the random action of the assaulted
//! squad's own activation entry, which has no choice in it (`automatic_orders` writes it).

use serde::{Deserialize, Serialize};

use super::data::{self, MoveCode};
use super::fire;
use super::scenario::footprint;
use super::state::{State, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::table::{Heading, Point};

/// ASL-1: the assaulted squad must be within 16 cm (base to base, inclusive, AMB-31).
pub const REACH_MM: u32 = 160;
/// Base contact: the two footprints within 2 mm. Integer placement moves a base by whole
/// mm along a bearing, so exact touching is not always reachable; 2 mm is the tolerance.
pub const CONTACT_MM: u32 = 2;
/// A contact still tied after this many re-rolls stands with no loss (a bound on the loop;
/// with fair dice it is never reached in practice).
const MAX_TIES: u32 = 50;

/// An assault checked and waiting for its dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub attacker: String,
    pub target: String,
    /// ASL-1 step 1: the fire at the target, with the Moving shots.
    pub fire: fire::Plan,
    /// Where the assaulter's base stands once in contact (computed from the table alone).
    pub contact: Point,
    /// How far its centre moves to get there.
    pub moved_mm: u32,
}

/// A melee standing after an assault (ASL-4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Melee {
    pub attacker: String,
    pub defender: String,
    /// Figures of the defender in contact; the rest are free.
    pub engaged: u32,
}

fn v(rule: &str, u: &str, msg: String) -> Violation {
    Violation::new(rule, msg).unit(u.to_string())
}

/// Whether two units' bases touch (within [`CONTACT_MM`]).
pub fn in_contact(a: &Unit, b: &Unit) -> bool {
    a.footprint().within(&b.footprint(), CONTACT_MM)
}

fn standing(s: &State, m: &Melee) -> bool {
    match (s.unit(&m.attacker), s.unit(&m.defender)) {
        (Some(a), Some(d)) => a.alive() && d.alive() && a.on_table() && d.on_table() && in_contact(a, d),
        _ => false,
    }
}

/// The standing melee in which `id` is the assaulted squad.
pub fn as_defender<'a>(s: &'a State, id: &str) -> Option<&'a Melee> {
    s.melees.iter().find(|m| m.defender == id && standing(s, m))
}

/// The standing melee `id` takes part in, on either side.
pub fn involved<'a>(s: &'a State, id: &str) -> Option<&'a Melee> {
    s.melees.iter().find(|m| (m.defender == id || m.attacker == id) && standing(s, m))
}

/// Drop the melees that no longer stand (a squad gone, or the bases apart).
pub fn prune(s: &mut State) {
    let keep: Vec<Option<u32>> = s.melees.iter().map(|m| standing(s, m).then(|| s.unit(&m.defender).map_or(0, |d| d.figures))).collect();
    let mut it = keep.into_iter();
    s.melees.retain_mut(|m| match it.next().flatten() {
        // Figures lost to other fire leave the contact with the rest of the squad.
        Some(figures) => {
            m.engaged = m.engaged.min(figures);
            true
        }
        None => false,
    });
}

/// Where `u`'s base comes to rest in contact with `t`: pulled straight from its centre
/// toward `t`'s, keeping its heading, to the first whole mm at which the bases touch.
fn contact_point(s: &State, u: &Unit, t: &Unit) -> Result<(Point, u32), Violation> {
    let tfp = t.footprint();
    if u.footprint().within(&tfp, CONTACT_MM) {
        return Ok((u.at, 0));
    }
    let no_spot = |why: String| v("SW-ASL-1", &u.id, format!("{} cannot be placed in contact with {}: {why}", u.id, t.id));
    let bearing = Heading::between(u.at, t.at).ok_or_else(|| no_spot("the two bases share a centre".into()))?;
    let reach = u.at.distance_mm(t.at);
    let mut found = None;
    for d in 1..=reach {
        let p = u.at.offset(d as i32, bearing);
        let fp = footprint(u.card(), p, u.heading);
        if fp.within(&tfp, CONTACT_MM) {
            if fp.overlaps(&tfp) {
                return Err(no_spot("its base would overlap the target's".into()));
            }
            found = Some((p, d));
            break;
        }
    }
    let (p, d) = found.ok_or_else(|| no_spot("no contact along the line between the two bases".into()))?;
    // Terrain is ignored on the way in (ASL-1 step 3), but a base cannot stand inside an
    // element no foot unit may enter (a building is entered only by ASL-2, not built).
    let data = data::data();
    for a in &s.scenario.areas {
        let code = data.terrain.get(&a.kind).map(|r| r.moves[0]);
        if matches!(code, Some(MoveCode::Impassable | MoveCode::Building)) && a.polygon.contains_strictly(p) {
            return Err(no_spot(format!("the spot is inside {} ({})", a.id, a.kind)));
        }
    }
    // Models and wrecks still obstruct the way in (LOS-5, WRECK-1).
    for o in s.units.iter().filter(|o| o.id != u.id && o.id != t.id && o.is_model()) {
        if o.footprint().meets_segment(u.at, p) {
            return Err(no_spot(format!("{} stands in the way", o.id)));
        }
    }
    let fp = footprint(u.card(), p, u.heading);
    if let Some(problem) = super::movement::end_problem(s, u, &fp) {
        return Err(no_spot(problem.message));
    }
    Ok((p, d))
}

/// Check an assault by `u` on `target` (ASL-0, ASL-1; the fire by FIRE-1, AIM, WPN).
pub fn plan(s: &State, u: &Unit, target: &str) -> Result<Plan, Vec<Violation>> {
    if !u.is_infantry() {
        return Err(vec![v("SW-ASL-0", &u.id, format!("{} is not a squad: only squads assault", u.id))]);
    }
    let mut errs = Vec::new();
    if u.leaders == 0 {
        errs.push(v("SW-ASL-0", &u.id, format!("{} has no leader left: an assault needs at least one", u.id)));
    }
    // ASL-0 asks for at least half the figures, the one exception to ACT-2 (which forbids
    // complex actions once half the crew is lost): the assault's own rule wins.
    if 2 * u.figures < u.crew_size() {
        errs.push(v("SW-ASL-0", &u.id, format!("{} has {} of {} figures: an assault needs at least half", u.id, u.figures, u.crew_size())));
    }
    let Some(t) = s.unit(target) else { return Err(vec![v("SW-OBS-1", &u.id, format!("there is no unit {target}"))]) };
    if t.side == u.side || !t.alive() {
        return Err(vec![v("SW-OBS-1", &u.id, format!("{target} is not an enemy on the table"))]);
    }
    if let Some(veh) = &t.aboard {
        return Err(vec![v("SW-EMB-5", &u.id, format!("{target} rides in {veh}: it is not on the table to be assaulted"))]);
    }
    if t.is_vehicle() {
        errs.push(v("SW-ASL-5", &u.id, format!("{target} is a vehicle: assaults on vehicles (ASL-5/6) are not built")));
    }
    for who in [&u.id, &t.id] {
        if let Some(m) = involved(s, who)
            && !(m.attacker == u.id && m.defender == t.id)
        {
            errs.push(v(
                "SW-ASL-3",
                &u.id,
                format!("{who} is already in a melee ({} against {}): one melee per squad", m.attacker, m.defender),
            ));
        }
    }
    let gap = u.footprint().gap_mm(&t.footprint());
    if gap > REACH_MM {
        errs.push(v("SW-ASL-1", &u.id, format!("{target} is {gap} mm from {}: an assault reaches 160 mm", u.id)));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // ASL-0: fire first, with the Moving shots (it is a complex action).
    let fire = fire::plan(s, u, u.at, true, target)?;
    let (contact, moved_mm) = contact_point(s, u, t).map_err(|e| vec![e])?;
    Ok(Plan { attacker: u.id.clone(), target: target.to_string(), fire, contact, moved_mm })
}

/// A CT with no panic on failure (the assault's, ASL-1; the assaulted squad's, ASL-4):
/// D6 + AD + CV against a D8, a tie passes.
fn test_ct(s: &State, id: &str, dice: &mut Dice, why: &str) -> (bool, Vec<Event>) {
    let Some(u) = s.unit(id) else { return (false, vec![]) };
    let ad = s.ad(&u.side);
    let a = fire::face(dice.roll(6));
    let b = fire::face(dice.roll(8));
    let score = a + ad + u.cv();
    let ev = vec![
        Event::roll(format!("{id} CT ({why}): D6"), "d6", a),
        Event::roll(format!("{id} CT ({why}): opposing D8"), "d8", b),
        Event::rule(
            "SW-TEST-CT",
            format!(
                "{id} {} its CT ({a}+{ad}+{} = {score} against {b}; a tie passes)",
                if score >= b { "passes" } else { "fails" },
                u.cv()
            ),
        ),
    ];
    (score >= b, ev)
}

/// One round of close combat between `att_n` figures of `att` and `def_n` of `def`
/// (ASL-3, TEST-CC). Returns the events; the losses are removed at the end.
fn round(s: &mut State, att: &str, def: &str, att_n: u32, def_n: u32, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let contacts = att_n.min(def_n);
    if contacts == 0 {
        return ev;
    }
    let side = |id: &str| s.unit(id).map(|u| u.side.clone()).unwrap_or_default();
    let (ad_a, ad_d) = (s.ad(&side(att)), s.ad(&side(def)));
    let share = |n: u32, c: u32| if n > contacts { n / contacts + u32::from(c < n % contacts) } else { 1 };
    ev.push(Event::rule("SW-ASL-3", format!("close combat: {att_n} figure(s) of {att} against {def_n} of {def}, {contacts} contact(s)")));
    let (mut lost_a, mut lost_d) = (0u32, 0u32);
    for c in 0..contacts {
        let (ka, kd) = (share(att_n, c), share(def_n, c));
        let mut ties = 0;
        loop {
            let mut best = |id: &str, k: u32, ev: &mut Vec<Event>| -> u32 {
                let mut top = 0;
                for i in 0..k {
                    let r = fire::face(dice.roll(6));
                    ev.push(Event::roll(format!("{id} CC, contact {}, figure {}", c + 1, i + 1), "d6", r));
                    top = top.max(r);
                }
                top
            };
            let a = best(att, ka, &mut ev) + ad_a;
            let d = best(def, kd, &mut ev) + ad_d;
            let head = format!("contact {}: {att} {a} against {def} {d}", c + 1);
            if a > d {
                lost_d += 1;
                ev.push(Event::rule("SW-TEST-CC", format!("{head}: a figure of {def} falls")));
            } else if d > a {
                lost_a += 1;
                ev.push(Event::rule("SW-TEST-CC", format!("{head}: a figure of {att} falls")));
            } else {
                ties += 1;
                if ties < MAX_TIES {
                    ev.push(Event::rule("SW-TEST-CC", format!("{head}: a tie, the fight goes on at once (AMB-10)")));
                    continue;
                }
                ev.push(Event::rule("SW-TEST-CC", format!("{head}: still tied after {MAX_TIES} rolls, nobody falls")));
            }
            break;
        }
    }
    let la = s.unit_mut(att).map(|u| fire::kill(u, lost_a)).unwrap_or(0);
    let ld = s.unit_mut(def).map(|u| fire::kill(u, lost_d)).unwrap_or(0);
    ev.push(Event::rule("SW-ASL-3", format!("the round ends: {att} loses {la} figure(s), {def} {ld}")));
    ev
}

fn set_melee(s: &mut State, att: &str, def: &str, engaged: u32) {
    s.melees.retain(|m| !(m.attacker == att && m.defender == def));
    let (Some(a), Some(d)) = (s.unit(att), s.unit(def)) else { return };
    if a.alive() && d.alive() {
        let engaged = engaged.min(d.figures);
        s.melees.push(Melee { attacker: att.to_string(), defender: def.to_string(), engaged });
    }
    prune(s);
}

/// Resolve an assault: fire, CT, contact, the first round (G.1 order).
pub fn resolve(s: &mut State, p: &Plan, dice: &mut Dice) -> Vec<Event> {
    let mut ev = fire::resolve(s, &p.fire, dice);
    match s.unit(&p.target) {
        Some(t) if !t.lost() => {}
        _ => {
            ev.push(Event::rule("SW-ASL-1", format!("{} is out of the fight: {} does not go in", p.target, p.attacker)));
            return ev;
        }
    }
    let (ok, e) = test_ct(s, &p.attacker, dice, "to assault");
    ev.extend(e);
    if !ok {
        ev.push(Event::rule(
            "SW-ASL-1",
            format!("{} does not assault: its manoeuvre ends where it stands (a failed assault CT never panics, SW-PAN-1)", p.attacker),
        ));
        return ev;
    }
    let Some(a) = s.unit_mut(&p.attacker) else { return ev };
    a.at = p.contact;
    // ST-1 for infantry: Moving once it has gone more than 4 cm; it fired in any case.
    a.moving = p.moved_mm > 40;
    ev.push(Event::rule(
        "SW-ASL-1",
        format!(
            "{} goes into base contact with {} at ({}, {}), {} mm, whatever the terrain",
            p.attacker, p.target, p.contact.x, p.contact.y, p.moved_mm
        ),
    ));
    let na = s.unit(&p.attacker).map(|u| u.figures).unwrap_or(0);
    let nd = s.unit(&p.target).map(|u| u.figures).unwrap_or(0);
    // Each attacking figure reaches one defender; defenders beyond the attackers stay free.
    let engaged = na.min(nd);
    let before = nd;
    ev.extend(round(s, &p.attacker, &p.target, na, engaged, dice));
    let after = s.unit(&p.target).map(|u| u.figures).unwrap_or(0);
    set_melee(s, &p.attacker, &p.target, engaged.saturating_sub(before - after));
    ev.extend(describe_melee(s, &p.target));
    ev
}

/// Resolve the ASL-4 CT of `defender` and what follows it.
pub fn resolve_melee(s: &mut State, defender: &str, dice: &mut Dice) -> Vec<Event> {
    let Some(m) = as_defender(s, defender).cloned() else {
        return vec![Event::rule("SW-ASL-4", format!("{defender} is no longer in contact: the melee is over"))];
    };
    let (ok, mut ev) = test_ct(s, defender, dice, "after the melee");
    let na = s.unit(&m.attacker).map(|u| u.figures).unwrap_or(0);
    let nd = s.unit(defender).map(|u| u.figures).unwrap_or(0);
    if ok {
        ev.push(Event::rule("SW-ASL-4", format!("{defender} fights on: its free figures join the contact and a new round is fought")));
        ev.extend(round(s, &m.attacker, defender, na, nd, dice));
        let left = s.unit(defender).map(|u| u.figures).unwrap_or(0);
        set_melee(s, &m.attacker, defender, left);
        ev.extend(describe_melee(s, defender));
    } else {
        let engaged = m.engaged.min(nd);
        let free = nd - engaged;
        let Some(d) = s.unit_mut(defender) else { return ev };
        fire::kill(d, engaged);
        if d.figures > 0 {
            d.panic = true;
        }
        ev.push(Event::rule(
            "SW-ASL-4",
            format!(
                "{defender}'s {engaged} figure(s) in contact surrender{}",
                if free > 0 {
                    format!("; its {free} free figure(s) panic and flee (the flight is not built: they stay where they are, panicked)")
                } else {
                    String::new()
                }
            ),
        ));
        s.melees.retain(|x| x.defender != defender);
    }
    ev
}

fn describe_melee(s: &State, defender: &str) -> Vec<Event> {
    match as_defender(s, defender) {
        Some(m) => vec![Event::rule(
            "SW-ASL-4",
            format!(
                "the melee stands: {} figure(s) of {} in contact with {}; its only action is its CT (SW-ASL-4)",
                m.engaged, m.defender, m.attacker
            ),
        )],
        None => vec![Event::rule("SW-ASL-3", "the melee is over".to_string())],
    }
}

/// Lines for `describe`.
pub fn describe(s: &State) -> Vec<String> {
    s.melees
        .iter()
        .map(|m| {
            let free = s.unit(&m.defender).map(|d| d.figures.saturating_sub(m.engaged)).unwrap_or(0);
            format!("melee: {} against {}, {} in contact, {free} free", m.attacker, m.defender, m.engaged)
        })
        .collect()
}
