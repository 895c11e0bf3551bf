//! Cavalry charges and pursuit (JDG 9), and the square against a charge (JDG 9.3).
//!
//! **Declaration** (a `charge` action, the entry's last: its dice are the other side's next
//! entry's, DESIGN §2.5). The cavalry of one hex (`from`) charges the enemy in `at` along
//! `path`. Checked now (9.1): cavalry of the activated formation, in good order, not yet
//! moved; not at night or in fog (12); not from, through or into charge-blocking terrain
//! (`no_charge` in the Terrain Table) and never across a bridge, slope, steep slope, crest or
//! fortification hexside; the target seen (7.4) inside the front cone before the move; at
//! least one hex moved, at most the reduced MA (4.1.2) even with orders; never through or
//! into a hex with friendly artillery; the target a front hex at the end; from contact (a
//! start in an enemy ZOC) the facing at the end is the facing at the start. The move itself
//! is the movement rules' (4, 5.1, 6.2): it is checked on a copy and made after the test.
//!
//! **Resolution**, in the fixed order of JDG 9, all with the resolving entry's dice:
//! 1. the engagement test of an SO stack, by its top unit (a failure: no move, no combat, no
//!    end test); 2. the move; 3. the square test of each charged hex of good-order infantry
//!    in clear (one d10 ≤ every infantry unit's cohesion; a failure disorders each infantry
//!    unit that failed); 4. the recall, when the order asked for it and a charged hex is in
//!    square (engagement test of the top unit; a pass pulls the stack back one hex from the
//!    target, never into an enemy front hex, and ends the charge without end test);
//! 5. the counter-charge of each charged hex of good-order cavalry charged through a front
//!    hex (engagement test of its top unit, +2 for light cavalry against heavy: a pass
//!    cancels the charge bonus); 6. the combat on the Melee and Charge Table against every
//!    enemy hex in the charger's front hexes that a charge may strike (9.2), with the charge
//!    bonus (light/medium or heavy), or only the square DRM against a square (9.3.2);
//! 7. the pursuit (9.5) when the charged hexes are emptied: the charging stack follows the
//!    last unit it charged along its fall-back and rout path, ignoring ZOC, until it is next
//!    to it or an enemy is in a front hex, turning at most one vertex per hex, and charges
//!    again with −1 per pursuit charge after the first; after an elimination it advances into
//!    the emptied hex (not after artillery), turns at most one vertex toward an enemy, and
//!    charges what is in front; terrain it may not enter or charge into ends it; 8. the end
//!    test: every charging unit takes a cohesion test, a failure one more disorder.
//!
//! **Choices settled without asking** (no question may be put to a player who would then
//! preview a roll): the defender always tries the square and the counter-charge when it may
//! (the counter-charge costs nothing when it fails; the square is the only defence the rules
//! give infantry against a charge); the whole charging stack pursues (9.5.2 lets the owner
//! send only its best unit; not offered); the pursuer never stops of its own will; the
//! pursued unit is the first charged unit that left its hex. The recall is asked for in
//! advance, in the order (`recall`), a conditional instruction (digest F.4).
//!
//! The charged batteries' reaction fire (8.3.3, 9.3.2) comes inside each combat, after the
//! square and the counter-charge (`reaction`).
//!
//! **The attacked cavalry's pursuit** (9.4, 9.5.1, `answer`): on a result with the PUR flag
//! against cavalry, or after a successful counter-charge, when an attacker left its hex,
//! the defending seat's standing policy (`pursue: never | always`, default never) sends the
//! attacked cavalry after it by the same pursuit and charges, then its end-of-charge test;
//! those charges start no pursuit in turn.
//!
//! **A charge combined with an infantry melee** (9.2, 8.7.3, `with`): the infantry stacks
//! named, checked at declaration (`combined`), fight in the first combat with the charger:
//! one force ratio and cohesion differential over every engaged unit, the melee DRMs and the
//! charge's added (against a square only its −2), each SO infantry stack's engagement test
//! at the combat. The charging cavalry pursues first (8.7.3); the infantry advances only
//! when no charging unit is left in good order; the end-of-charge test is the cavalry's
//! alone. A charge that does not strike (failed test, recall) takes the infantry's melee
//! with it. Not built: the charge of a stack from several hexes.

use super::command::status_of;
use super::disorder::{cohesion_test, disorder};
use super::melee::{ChargeMods, Combat, combat, fighters};
use super::movement::{in_zoc, move_capped, side_cost, stack_problem};
use super::orders::Move;
use super::scenario::Kind;
use super::state::{Phase, State, Status, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::facing::{Facing, in_cone, turn_steps, vertices_fronting};
use crate::geo::hex::HexId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A `charge` action.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeOrder {
    /// The hex of the charging cavalry (its whole stack charges).
    pub from: HexId,
    /// Hexes entered, in order (the start hex left out).
    pub path: Vec<HexId>,
    /// The enemy hex charged: seen from `from`, a front hex at the end of the path.
    pub at: HexId,
    /// The vertex faced at the end; default: as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
    /// Call the charge off if the target forms square (JDG 9.3.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recall: bool,
    /// Infantry stacks of the activated formation whose melee against `at` combines with
    /// the charge (JDG 9.2): one combat, the charge's DRMs added to the melee's. Each hex
    /// holds infantry in good order with `at` in a front hex it could enter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<HexId>,
}

/// A seat's standing policy for the pursuit by its attacked cavalry (JDG 9.4, 9.5.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pursuit {
    /// The attacked cavalry never pursues.
    #[default]
    Never,
    /// It pursues whenever it may: a PUR result, or a successful counter-charge, with the
    /// attacker gone from its hex.
    Always,
}

/// The standing pursuit policy of `side` (JDG 9.4, 9.5.1).
pub fn pursuit_policy(s: &State, side: &str) -> Pursuit {
    s.pursuit.get(side).copied().unwrap_or_default()
}

/// The rule of the attacked cavalry's pursuit.
pub const ANSWER: &str = "JDG 9.5.1";

/// The pursuit by the cavalry of `held` (the hexes defending against `side`) of an
/// attacker that left its hex (JDG 9.4, 9.5.1), by the defending seat's standing policy:
/// allowed by a PUR result (`pur`) or by a successful counter-charge (`countered`, the
/// hexes that made one). `attackers`: the attacking units and the hexes they fought from.
/// The pursuer follows the rules of a charging stack's pursuit (9.2, 9.5.2): along the
/// pursued unit's path, then pursuit charges, then the end-of-charge test.
pub fn answer(
    s: &mut State,
    side: &str,
    held: &[HexId],
    attackers: &[(String, HexId)],
    countered: &[HexId],
    pur: bool,
    dice: &mut Dice,
) -> Vec<Event> {
    let owner = s.scenario.other(side).to_string();
    let Some((pid, origin)) = attackers.iter().find(|(id, h)| s.unit(id).is_some_and(|u| u.hex.is_some() && u.hex != Some(*h))).cloned()
    else {
        return vec![];
    };
    let why = match (pur, countered.is_empty()) {
        (true, true) => "the PUR result",
        (true, false) => "the PUR result and the successful counter-charge",
        _ => "the successful counter-charge",
    };
    // Who may pursue: good-order cavalry of a defending hex (on a counter-charge, of one that
    // counter-charged); heavy cavalry first, then the best cohesion, then the lowest hex id
    // (9.5.2).
    let mut best: Option<((bool, i32, HexId), Vec<String>)> = None;
    for &d in held {
        if !pur && !countered.contains(&d) {
            continue;
        }
        let cav: Vec<&Unit> = fighters(s, d).filter(|u| u.side == owner && u.kind == Kind::Cavalry).collect();
        if cav.is_empty() || s.units_at(d).any(|u| u.side == owner && u.kind == Kind::Infantry) {
            continue;
        }
        let heavy = cav.iter().any(|u| s.data(&u.id).is_some_and(|x| x.heavy));
        let coh = cav.iter().map(|u| i32::from(s.face(u).cohesion)).max().unwrap_or(0);
        let key = (!heavy, -coh, d);
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, cav.iter().map(|u| u.id.clone()).collect()));
        }
    }
    let Some(((_, _, from), units)) = best else {
        return vec![Event::rule(ANSWER, format!("{pid} left {origin}, but no attacked cavalry is in good order to pursue it"))];
    };
    if pursuit_policy(s, &owner) == Pursuit::Never {
        return vec![Event::rule(
            ANSWER,
            format!("{} may pursue {pid} after {why}: the {owner} standing policy is never to pursue", units.join(", ")),
        )];
    }
    let mut ev = vec![Event::rule(
        ANSWER,
        format!("{} in {from} pursue {pid} after {why} ({owner} standing policy, JDG 9.4, 9.5.1)", units.join(", ")),
    )];
    let trail: Vec<HexId> = std::iter::once(origin).chain(s.trail.iter().filter(|(x, _)| *x == pid).map(|(_, h)| *h)).collect();
    let (next, msg) = follow(s, &owner, from, &pid, &trail);
    ev.push(Event::rule("JDG 9.5.2", msg));
    if let Some(at) = next {
        let v = fighters(s, at).find(|u| u.side == owner).map(|u| u.facing).unwrap_or(0);
        let fronts = front_enemy_hexes(s, &owner, at, v);
        let (ok, no): (Vec<HexId>, Vec<HexId>) = fronts.into_iter().partition(|d| chargeable(s, at, *d));
        for d in &no {
            ev.push(Event::rule("JDG 9.5.2", format!("the enemy in {d} stands where no charge strikes")));
        }
        if ok.is_empty() {
            ev.push(Event::rule("JDG 9.5.2", "nothing to charge in the front hexes: the pursuit ends"));
        } else {
            let list: Vec<String> = ok.iter().map(|h| h.to_string()).collect();
            ev.push(Event::rule("JDG 9.5.2", format!("pursuit charge 1 from {at} against {}", list.join(" and "))));
            let (e, _) = charges(s, &owner, at, ok, 1, false, true, &[], dice);
            ev.extend(e);
        }
    }
    // 9.4: "the same rules as those that charge": the end-of-charge test when it ends.
    ev.extend(end_test(s, &units, dice));
    ev
}

/// The declared charge waiting for its dice.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pending {
    pub side: String,
    pub order: ChargeOrder,
    /// The charging units, bottom first.
    pub units: Vec<String>,
}

/// The cavalry of a charging stack in `h`.
fn chargers(s: &State, side: &str, h: HexId) -> Vec<Unit> {
    s.units_at(h).filter(|u| u.side == side && u.kind != Kind::Artillery).cloned().collect()
}

/// The reduced MA of a charge in half MP (9.1, 4.1.2): half the MA, rounded up, with or
/// without orders.
fn reduced(s: &State, u: &Unit) -> u32 {
    u32::from(s.face(u).mp).div_ceil(2) * 2
}

/// Whether a charge from `a` may strike the enemy in `d` (9.1): terrain and hexside.
fn chargeable(s: &State, a: HexId, d: HexId) -> bool {
    !s.scenario.no_charge(d) && s.scenario.charge_side_ok(a, d) && side_cost(s, Kind::Cavalry, a, d).is_some()
}

/// The enemy hexes in the front hexes of a stack in `h` facing `v`.
fn front_enemy_hexes(s: &State, side: &str, h: HexId, v: u8) -> Vec<HexId> {
    h.neighbours()
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| Facing::Vertex(v).front_hex(h, *n, false) && s.units_at(*n).any(|u| u.side != side))
        .collect()
}

/// Check a `charge` action and leave it pending (JDG 9.1).
pub fn step_charge(s: &mut State, side: &str, o: &ChargeOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let Phase::Activation { am, .. } = s.phase.clone() else {
        return Err(vec![Violation::new("JDG 9.1", "charges are declared in the activation of their formation")]);
    };
    let bad = |msg: String| Violation::new("JDG 9.1", msg).hex(o.from.to_string());
    if s.melee_done {
        return Err(vec![bad("charges are declared in the movement segment, before the melees (JDG 1.D.3)".into())]);
    }
    if s.night() || s.fog() {
        return Err(vec![Violation::new("JDG 12", "no charges at night or in fog")]);
    }
    let units = chargers(s, side, o.from);
    if units.is_empty() {
        return Err(vec![bad(format!("no cavalry of yours in {}", o.from))]);
    }
    let mut errs = Vec::new();
    for u in &units {
        if u.kind != Kind::Cavalry {
            errs.push(bad(format!("{} is not cavalry: only cavalry charges", u.id)).unit(&u.id));
        } else if u.disordered || u.routed {
            errs.push(bad(format!("{} is disordered or routed: it never charges", u.id)).unit(&u.id));
        } else if !s.activates(&am, &u.formation) {
            errs.push(
                Violation::new("JDG 2.2", format!("{} belongs to {}; {} is activated", u.id, u.formation, s.am_label(&am))).unit(&u.id),
            );
        } else if s.acted.contains(&u.id) {
            errs.push(Violation::new("JDG 4.4.1", format!("{} has finished its move in this activation", u.id)).unit(&u.id));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let v0 = units[0].facing;
    if s.scenario.no_charge(o.from) {
        errs.push(bad(format!("no charge starts in {} (charge-blocking terrain, table E.4)", o.from)));
    }
    if !s.units_at(o.at).any(|u| u.side != side) {
        errs.push(bad(format!("no enemy unit in {}", o.at)).hex(o.at.to_string()));
    } else if s.scenario.no_charge(o.at) {
        errs.push(bad(format!("no charge strikes a unit in {} (charge-blocking terrain, table E.4)", o.at)).hex(o.at.to_string()));
    }
    if let Some(why) = super::fire::blocked(s, o.from, o.at) {
        errs.push(bad(format!("{} is not in sight before the move: {why}", o.at)));
    } else if !in_cone(o.from, v0, o.at) {
        errs.push(bad(format!("{} is not seen through the front hexes before the move", o.at)));
    }
    if o.path.is_empty() {
        errs.push(bad("a charge moves at least one hex".into()));
    }
    let mut at = o.from;
    for &h in &o.path {
        if s.units_at(h).any(|u| u.side == side && u.kind == Kind::Artillery) {
            errs.push(bad(format!("a charge never passes or stops in {h}, a hex with friendly artillery")).hex(h.to_string()));
        }
        if s.scenario.no_charge(h) {
            errs.push(bad(format!("a charge never crosses {h} (charge-blocking terrain, table E.4)")).hex(h.to_string()));
        }
        if !s.scenario.charge_side_ok(at, h) {
            errs.push(bad(format!("a charge never crosses the hexside {at}–{h} (bridge, slope, steep slope, crest or fortification)")));
        }
        at = h;
    }
    let end = at;
    let v = o.facing.unwrap_or(v0);
    if in_zoc(s, side, o.from) && v != v0 {
        errs.push(bad(format!("charging from contact, the stack attacks with its facing at the start, vertex {v0}")));
    }
    if !o.path.is_empty() {
        if !(end.is_adjacent(o.at) && Facing::Vertex(v).front_hex(end, o.at, false)) {
            errs.push(bad(format!("{} is not a front hex of the charger at the end of its move in {end}", o.at)).hex(o.at.to_string()));
        } else if !s.scenario.charge_side_ok(end, o.at) {
            errs.push(bad(format!("no charge strikes across the hexside {end}–{}", o.at)));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // The move by the movement rules, at most the reduced MA, on a copy.
    let mut w = s.clone();
    for u in &units {
        let m = Move { unit: u.id.clone(), path: o.path.clone(), facing: Some(v), forced: false };
        let cap = reduced(s, u);
        move_capped(&mut w, side, &m, Some(cap))?;
    }
    // 9.2: the infantry whose melee combines with the charge.
    let joined = combined(s, &w, side, &am, o, end, v)?;
    s.fire_closed = true;
    for id in &joined {
        s.joined.push(id.clone());
        if !s.acted.contains(id) {
            s.acted.push(id.clone());
        }
    }
    let ids: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
    let top = ids.last().cloned().unwrap_or_default();
    let so = status_of(s, &top) == Status::SO;
    s.charge = Some(Pending { side: side.to_string(), order: o.clone(), units: ids.clone() });
    let path: Vec<String> = o.path.iter().map(|h| h.to_string()).collect();
    let mut ev = vec![Event::rule(
        "JDG 9.1",
        format!(
            "charge declared{}: {} from {} by {} against {}",
            if so { " (engagement test first)" } else { "" },
            ids.join(", "),
            o.from,
            path.join(" → "),
            o.at
        ),
    )];
    if !joined.is_empty() {
        let hexes: Vec<String> = o.with.iter().map(|h| h.to_string()).collect();
        ev.push(Event::rule(COMBINED, format!("{} in {} combine their melee with the charge", joined.join(", "), hexes.join(" and "))));
    }
    Ok(ev)
}

/// The rule of a charge combined with an infantry melee.
pub const COMBINED: &str = "JDG 9.2";

/// Check the `with` hexes of a charge (JDG 9.2, 8.2, 8.4.1) against `w`, the state after the
/// charge move (the charger in `end` facing `v`); returns the infantry that joins.
fn combined(
    s: &State,
    w: &State,
    side: &str,
    am: &super::state::Am,
    o: &ChargeOrder,
    end: HexId,
    v: u8,
) -> Result<Vec<String>, Vec<Violation>> {
    use super::melee::{enterable, obliged};
    let mut errs = Vec::new();
    let mut seen: Vec<HexId> = vec![o.from];
    let mut joined = Vec::new();
    // What the combined combat attacks: the target and every chargeable enemy in front.
    let mut targets = vec![o.at];
    targets.extend(front_enemy_hexes(w, side, end, v).into_iter().filter(|d| chargeable(w, end, *d)));
    for &a in &o.with {
        let bad = |rule: &str, msg: String| Violation::new(rule, msg).hex(a.to_string());
        if seen.contains(&a) {
            errs.push(bad(COMBINED, format!("{a} is named twice in the charge: a stack makes one attack")));
            continue;
        }
        seen.push(a);
        let own: Vec<&Unit> = s.units_at(a).filter(|u| u.side == side).collect();
        if own.is_empty() {
            let what = if s.units_at(a).next().is_some() { "holds only enemy units" } else { "holds no unit of yours" };
            errs.push(bad(COMBINED, format!("{a} {what}: only your own infantry combines with your charge")));
            continue;
        }
        if let Some(u) = own.iter().find(|u| u.kind == Kind::Cavalry) {
            errs.push(bad(COMBINED, format!("{} in {a} is cavalry: only an infantry melee combines with a charge", u.id)).unit(&u.id));
            continue;
        }
        if let Some(u) = own.iter().find(|u| u.kind != Kind::Artillery && !s.activates(am, &u.formation)) {
            errs.push(
                Violation::new("JDG 2.2", format!("{} belongs to {}; {} is activated", u.id, u.formation, s.am_label(am))).unit(&u.id),
            );
            continue;
        }
        let Some(top) = fighters(s, a).next() else {
            errs.push(bad("JDG 8.2", format!("nothing in {a} may melee: disordered, routed, square and artillery units never do")));
            continue;
        };
        if let Some(u) = fighters(s, a).find(|u| s.joined.contains(&u.id)) {
            errs.push(bad(COMBINED, format!("{} has made its attack with a charge in this activation already", u.id)).unit(&u.id));
            continue;
        }
        let f = top.facing;
        if !(a.is_adjacent(o.at) && Facing::Vertex(f).front_hex(a, o.at, false) && enterable(s, Kind::Infantry, a, o.at)) {
            errs.push(bad("JDG 8.4.1", format!("{} is not a front hex of the stack in {a} that it could enter", o.at)));
            continue;
        }
        // 8.2: the infantry attacks every enemy in its front hexes; the combat takes the
        // charge's targets only.
        for d in obliged(s, side, a, f) {
            let taken = targets.contains(&d) || s.units_at(d).any(|e| e.side != side && s.meleed.contains(&e.id));
            if !taken {
                errs.push(bad(
                    "JDG 8.2",
                    format!("the stack in {a} must also attack the enemy in its front hex {d}, which the charge does not strike"),
                ));
            }
        }
        joined.extend(fighters(s, a).map(|u| u.id.clone()));
    }
    if errs.is_empty() { Ok(joined) } else { Err(errs) }
}

/// What the pending charge waits for.
pub fn pending(s: &State) -> Option<String> {
    let p = s.charge.as_ref()?;
    Some(format!("JDG 9: charge of {} against {}", p.units.join(", "), p.order.at))
}

/// An engagement test of unit `id` with `drm` (0.4.2).
fn et(s: &State, id: &str, drm: i32, what: &str, dice: &mut Dice) -> (bool, Vec<Event>) {
    let Some(u) = s.unit(id) else { return (false, vec![]) };
    let die = dice.roll(10);
    let e = i32::from(s.face(u).engagement);
    let ok = die as i32 + drm <= e;
    let d = if drm != 0 { format!(" {drm:+}") } else { String::new() };
    (
        ok,
        vec![
            Event::roll(format!("JDG 0.4.2: engagement test of {id} ({what})"), "d10", die),
            Event::rule(
                "JDG 0.4.2",
                format!("{id} {} its engagement test ({what}): {die}{d} against engagement {e}", if ok { "passes" } else { "fails" }),
            ),
        ],
    )
}

/// Resolve the pending charge (JDG 9, steps 2 to 10).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(p) = s.charge.take() else { return vec![] };
    let side = p.side.clone();
    let o = p.order.clone();
    let mut ev = Vec::new();
    let done = |s: &mut State| {
        for id in &p.units {
            if !s.acted.contains(id) {
                s.acted.push(id.clone());
            }
        }
    };
    // 9.1: the engagement test of an SO stack, by its top unit, before moving.
    let top = p.units.last().cloned().unwrap_or_default();
    if status_of(s, &top) == Status::SO {
        let (ok, e) = et(s, &top, 0, "charge", dice);
        ev.extend(e);
        if !ok {
            ev.push(Event::rule("JDG 9.1", format!("{} stay in {} and do not fight in this activation", p.units.join(", "), o.from)));
            ev.extend(called_off(&o));
            done(s);
            return ev;
        }
    }
    // The move, as declared.
    let v = o.facing.unwrap_or_else(|| s.unit(&top).map(|u| u.facing).unwrap_or(0));
    for id in &p.units {
        let cap = s.unit(id).map(|u| reduced(s, u)).unwrap_or(0);
        let m = Move { unit: id.clone(), path: o.path.clone(), facing: Some(v), forced: false };
        match move_capped(s, &side, &m, Some(cap)) {
            Ok(e) => ev.extend(e),
            Err(_) => {
                ev.push(Event::rule("JDG 9.1", format!("{id} cannot make its charge move any more: the charge is off")));
                ev.extend(called_off(&o));
                done(s);
                return ev;
            }
        }
    }
    done(s);
    let at_hex = o.path.last().copied().unwrap_or(o.from);
    let mut targets: Vec<HexId> = vec![o.at];
    for d in front_enemy_hexes(s, &side, at_hex, v) {
        if !targets.contains(&d) && chargeable(s, at_hex, d) {
            targets.push(d);
        }
    }
    let (e, recalled) = charges(s, &side, at_hex, targets, 0, o.recall, false, &o.with, dice);
    ev.extend(e);
    if recalled {
        ev.extend(called_off(&o));
    } else {
        // 9.2: the end-of-charge test is the charging cavalry's; the infantry takes none.
        ev.extend(end_test(s, &p.units, dice));
    }
    ev
}

/// The combined melee of a charge that does not strike (9.1 failed engagement test, 9.3.3
/// recall): the combination is one combat, so the infantry's melee is off too, and its
/// attack is spent (it was declared with the charge).
fn called_off(o: &ChargeOrder) -> Vec<Event> {
    if o.with.is_empty() {
        return vec![];
    }
    let hexes: Vec<String> = o.with.iter().map(|h| h.to_string()).collect();
    vec![Event::rule(COMBINED, format!("the infantry melee of {} combined with the charge is off with it", hexes.join(" and ")))]
}

/// The end-of-charge test (9.2, 9.5): every unit of `units` still on the map takes a
/// cohesion test, a failure one more disorder.
fn end_test(s: &mut State, units: &[String], dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    for id in units {
        if s.unit(id).is_none_or(|u| u.hex.is_none()) {
            continue;
        }
        let die = dice.roll(10);
        let (failed, e) = cohesion_test(s, id, die);
        ev.push(Event::rule("JDG 9.2", format!("end-of-charge cohesion test of {id}")));
        ev.extend(e);
        if failed {
            ev.extend(disorder(s, id, false, &[]));
        }
    }
    ev
}

/// The charges of the stack of `side` in `at_hex` against `targets` (9.2 to 9.5.2): the
/// square tests, the recall when `ask_recall` asks for it, the counter-charges, the combat, and
/// the pursuit charges that follow, the first numbered `n + 1`. `answering` for the
/// defender's pursuit (9.4, 9.5.1), which starts no pursuit in turn. `with`: the infantry
/// hexes whose melee combines with the first charge (9.2). Returns the events and whether the
/// stack was recalled (no end test then).
#[allow(clippy::too_many_arguments)]
fn charges(
    s: &mut State,
    side: &str,
    mut at_hex: HexId,
    mut targets: Vec<HexId>,
    mut n: u32,
    ask_recall: bool,
    answering: bool,
    with: &[HexId],
    dice: &mut Dice,
) -> (Vec<Event>, bool) {
    let mut with = with.to_vec();
    let mut ev = Vec::new();
    let target = targets.first().copied().unwrap_or(at_hex);
    let mut lost_square: Vec<String> = Vec::new();
    let mut recall_allowed = ask_recall;
    loop {
        // 9.3.1: the square test of each charged hex of infantry in clear.
        for &d in &targets {
            ev.extend(square_test(s, side, d, at_hex, &lost_square, dice));
        }
        let square = targets.iter().any(|d| s.units_at(*d).any(|u| u.side != side && u.square));
        // 9.3.3: the recall, asked for in the order (the first charge only).
        if square && recall_allowed {
            recall_allowed = false;
            let mates: Vec<String> = fighters(s, at_hex).map(|u| u.id.clone()).collect();
            let top = mates.last().cloned().unwrap_or_default();
            let (ok, e) = et(s, &top, 0, "recall", dice);
            ev.extend(e);
            if ok {
                ev.extend(recall(s, side, &mates, at_hex, target));
                return (ev, true);
            }
            ev.push(Event::rule("JDG 9.3.3", "the recall fails: the charge goes on"));
        }
        // 9.4: the counter-charge of each charged hex of cavalry in good order.
        let chargers_now: Vec<Unit> = fighters(s, at_hex).filter(|u| u.side == side).cloned().collect();
        let heavy = chargers_now.iter().any(|u| s.data(&u.id).is_some_and(|d| d.heavy));
        let mut countered = Vec::new();
        let mut bonus = if heavy { s.scenario.melee_drm.charge_heavy } else { s.scenario.melee_drm.charge_light };
        for &d in &targets {
            let defs: Vec<Unit> = s.units_at(d).filter(|u| u.side != side && u.kind != Kind::Artillery).cloned().collect();
            let Some(dtop) = defs.last() else { continue };
            if defs.iter().any(|u| u.kind != Kind::Cavalry) {
                continue;
            }
            if defs.iter().any(|u| u.disordered || u.routed) {
                ev.push(Event::rule("JDG 9.4", format!("{} is disordered or routed: no counter-charge", dtop.id)));
                continue;
            }
            if !dtop.face().front_hex(d, at_hex, false) {
                ev.push(Event::rule("JDG 9.4", format!("{} is charged through a rear hex: no counter-charge", dtop.id)));
                continue;
            }
            let light_vs_heavy = heavy && !s.data(&dtop.id).is_some_and(|x| x.heavy);
            let (ok, e) = et(s, &dtop.id, if light_vs_heavy { 2 } else { 0 }, "counter-charge", dice);
            ev.extend(e);
            if ok {
                ev.push(Event::rule("JDG 9.4", format!("{} counter-charges: the charge loses its bonus", dtop.id)));
                bonus = 0;
                countered.push(d);
            } else {
                ev.push(Event::rule("JDG 9.4", format!("{}'s counter-charge fails", dtop.id)));
            }
        }
        // 9.2: the combat.
        s.trail.clear();
        let before: Vec<(String, HexId, Kind)> = targets
            .iter()
            .flat_map(|d| s.units_at(*d).filter(|u| u.side != side).map(|u| (u.id.clone(), *d, u.kind)).collect::<Vec<_>>())
            .collect();
        // 9.2: the combined infantry fights in the first charge only, not in the pursuit.
        let infantry: Vec<HexId> = std::mem::take(&mut with);
        let mods = ChargeMods { bonus, vs_square: square, pursuit: n, countered, answering, infantry: infantry.clone() };
        let c = Combat {
            from: std::iter::once(at_hex).chain(infantry.iter().copied()).collect(),
            at: targets.clone(),
            turn: Default::default(),
            advance_from: None,
            advance_facing: None,
            breakthrough: false,
            advance_after_refusal: false,
        };
        let (e, _) = combat(s, side, &c, dice, Some(&mods));
        ev.extend(e);
        for (id, h, _) in &before {
            // A square that fell back lost its formation: no new square in this pursuit (a
            // unit that fell back without a square was disordered or out of clear terrain).
            if s.unit(id).is_some_and(|u| u.hex != Some(*h)) {
                lost_square.push(id.clone());
            }
        }
        // 9.5.1: pursue when the charged hexes are emptied and the charger held its ground.
        let held = fighters(s, at_hex).any(|u| u.side == side);
        let emptied = targets.iter().all(|d| !s.units_at(*d).any(|u| u.side != side));
        if !held || !emptied {
            break;
        }
        let moved: Vec<&(String, HexId, Kind)> =
            before.iter().filter(|(id, _, k)| *k != Kind::Artillery && s.unit(id).is_some_and(|u| u.hex.is_some())).collect();
        let next: (Option<HexId>, String) = if let Some((id, origin, _)) = moved.first() {
            let trail: Vec<HexId> = std::iter::once(*origin).chain(s.trail.iter().filter(|(x, _)| x == id).map(|(_, h)| *h)).collect();
            follow(s, side, at_hex, id, &trail)
        } else if before.iter().any(|(_, _, k)| *k != Kind::Artillery) {
            advance_into(s, side, at_hex, targets[0])
        } else {
            (None, "no pursuit after a charge that eliminated artillery".into())
        };
        let (next, msg) = next;
        ev.push(Event::rule("JDG 9.5.2", msg));
        let Some(to) = next else { break };
        at_hex = to;
        let v = fighters(s, at_hex).next().map(|u| u.facing).unwrap_or(0);
        let fronts = front_enemy_hexes(s, side, at_hex, v);
        let (ok, no): (Vec<HexId>, Vec<HexId>) = fronts.into_iter().partition(|d| chargeable(s, at_hex, *d));
        for d in &no {
            ev.push(Event::rule("JDG 9.5.2", format!("the enemy in {d} stands where no charge strikes")));
        }
        if ok.is_empty() {
            ev.push(Event::rule("JDG 9.5.2", "nothing to charge in the front hexes: the pursuit ends"));
            break;
        }
        n += 1;
        let list: Vec<String> = ok.iter().map(|h| h.to_string()).collect();
        ev.push(Event::rule("JDG 9.5.2", format!("pursuit charge {n} from {at_hex} against {}", list.join(" and "))));
        targets = ok;
        if n > 30 {
            break;
        }
    }
    (ev, false)
}

/// The square test of the enemy in `d` charged from `from` (9.3.1).
fn square_test(s: &mut State, side: &str, d: HexId, from: HexId, lost: &[String], dice: &mut Dice) -> Vec<Event> {
    let units: Vec<Unit> = s.units_at(d).filter(|u| u.side != side).cloned().collect();
    let inf: Vec<&Unit> = units.iter().filter(|u| u.kind == Kind::Infantry).collect();
    if inf.is_empty() || units.iter().any(|u| u.kind == Kind::Cavalry || u.square) {
        return vec![];
    }
    if s.scenario.terrain_of.get(&d) != Some(&super::scenario::Terrain::Clear) {
        return vec![Event::rule("JDG 9.3.1", format!("the infantry in {d} is not in clear terrain: no square"))];
    }
    if inf.iter().any(|u| u.disordered || u.routed) {
        return vec![Event::rule("JDG 9.3.1", format!("disordered or routed infantry in {d}: no square"))];
    }
    if inf.iter().any(|u| lost.contains(&u.id)) {
        return vec![Event::rule("JDG 9.3.1", format!("the infantry in {d} lost its square in this charge: no new one in the pursuit"))];
    }
    let die = dice.roll(10);
    let mut ev = vec![Event::roll(format!("JDG 9.3.1: square test in {d}"), "d10", die)];
    let failed: Vec<String> = inf.iter().filter(|u| die > u32::from(s.face(u).cohesion)).map(|u| u.id.clone()).collect();
    if failed.is_empty() {
        let ids: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
        for id in &ids {
            if let Some(x) = s.unit_mut(id) {
                x.square = true;
            }
        }
        ev.push(Event::rule("JDG 9.3.1", format!("{} in {d} form square ({die} within every infantry cohesion)", ids.join(", "))));
    } else {
        ev.push(Event::rule("JDG 9.3.1", format!("no square in {d}: {die} is above the cohesion of {}", failed.join(", "))));
        for id in &failed {
            ev.extend(disorder(s, id, false, &[from]));
        }
    }
    ev
}

/// A successful recall (9.3.3): one hex back from the target, never into an enemy front
/// hex; else the stack stays without charging.
fn recall(s: &mut State, side: &str, ids: &[String], at: HexId, target: HexId) -> Vec<Event> {
    let cands: Vec<HexId> = at
        .neighbours()
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| n.distance(target) > at.distance(target))
        .filter(|n| s.scenario.terrain_of.get(n).and_then(|t| s.scenario.terrain.get(t)).and_then(|c| c.for_kind(Kind::Cavalry)).is_some())
        .filter(|n| side_cost(s, Kind::Cavalry, at, *n).is_some() && !s.units_at(*n).any(|u| u.side != side))
        .filter(|n| !super::reinforce::closed(s, side, *n))
        .filter(|n| {
            !s.units.iter().any(|e| {
                e.side != side
                    && !e.routed
                    && e.hex.is_some_and(|eh| eh.is_adjacent(*n) && e.face().front_hex(eh, *n, super::movement::all_round_unit(s, e, eh)))
            })
        })
        .filter(|n| {
            let mut w = s.clone();
            for id in ids {
                if let Some(x) = w.unit_mut(id) {
                    x.hex = Some(*n);
                }
            }
            stack_problem(&w, *n).is_none()
        })
        .collect();
    let Some(&to) = cands.iter().min() else {
        return vec![Event::rule(
            "JDG 9.3.3",
            format!("{} are recalled but have no hex to pull back to: they stay in {at} without charging", ids.join(", ")),
        )];
    };
    // Any facing: the facing of the friends already there, if any (6.1.1).
    let conform = s.units_at(to).find(|u| u.kind != Kind::Artillery && !u.routed).map(|u| u.facing);
    for id in ids {
        if let Some(x) = s.unit_mut(id) {
            x.hex = Some(to);
            if let Some(f) = conform {
                x.facing = f;
            }
        }
    }
    vec![Event::rule("JDG 9.3.3", format!("{} are recalled: they pull back from {at} to {to}, no charge and no end test", ids.join(", ")))]
}

/// The vertex with direction `d` in front nearest to `v`, turned at most `steps` vertices.
fn toward(v: u8, at: HexId, to: HexId, steps: u8) -> u8 {
    let Some(d) = at.direction_to(to) else { return v };
    let [a, b] = vertices_fronting(d);
    let best = if turn_steps(v, a) <= turn_steps(v, b) { a } else { b };
    if turn_steps(v, best) <= steps {
        return best;
    }
    // One vertex toward it, the shorter way round.
    let cw = (best + 6 - v) % 6 <= 3;
    if cw { (v + 1) % 6 } else { (v + 5) % 6 }
}

/// Move the pursuing stack into `h` facing `v`.
fn put_stack(s: &mut State, side: &str, from: HexId, h: HexId, v: u8) {
    // Turning in place turns every infantry or cavalry unit of the hex (6.1.1); moving, the
    // units in good order go, a disordered mate stays.
    let ids: Vec<String> = if from == h {
        s.units_at(from).filter(|u| u.side == side && u.kind != Kind::Artillery && !u.routed).map(|u| u.id.clone()).collect()
    } else {
        fighters(s, from).filter(|u| u.side == side).map(|u| u.id.clone()).collect()
    };
    for id in ids {
        if let Some(x) = s.unit_mut(&id) {
            x.hex = Some(h);
            x.facing = v;
        }
    }
    super::turn::note_holder(s, h, side);
}

/// Whether a pursuer may enter `h` from `a` (9.5.2): terrain cavalry may enter and charge
/// through, no blocking hexside, no enemy, no friend.
fn may_pursue_into(s: &State, side: &str, a: HexId, h: HexId) -> bool {
    let terrain_ok =
        s.scenario.terrain_of.get(&h).and_then(|t| s.scenario.terrain.get(t)).and_then(|c| c.for_kind(Kind::Cavalry)).is_some();
    terrain_ok
        && !s.scenario.no_charge(h)
        && s.scenario.charge_side_ok(a, h)
        && side_cost(s, Kind::Cavalry, a, h).is_some()
        && s.units_at(h).next().is_none()
        && !super::reinforce::closed(s, side, h)
}

/// The pursuit after a fall back or rout retreat (9.5.2): along `trail` (the pursued unit's
/// hexes, its start first) until next to it or an enemy is in a front hex.
fn follow(s: &mut State, side: &str, start: HexId, id: &str, trail: &[HexId]) -> (Option<HexId>, String) {
    let Some(target) = s.unit(id).and_then(|u| u.hex) else { return (None, format!("{id} is gone: the pursuit ends")) };
    let mut at = start;
    let Some(mut v) = fighters(s, at).find(|u| u.side == side).map(|u| u.facing) else {
        return (None, "no pursuer left in good order: the pursuit ends".into());
    };
    let mut walked = Vec::new();
    for &h in trail {
        if at.is_adjacent(target) || !front_enemy_hexes(s, side, at, v).is_empty() {
            break;
        }
        if h == at {
            continue;
        }
        if !at.is_adjacent(h) {
            break;
        }
        if !may_pursue_into(s, side, at, h) {
            put_stack(s, side, start, at, v);
            return (None, format!("the pursuit ends in {at}: {h} is closed to cavalry, to a charge or holds units"));
        }
        // Turning on the way: at most one vertex per hex.
        v = toward(v, h, target, 1);
        walked.push(h.to_string());
        at = h;
    }
    if walked.is_empty() {
        let nv = toward(v, at, target, 1);
        put_stack(s, side, start, at, nv);
        return (Some(at), format!("the pursuers stay in {at}, next to {id} (facing vertex {nv})"));
    }
    put_stack(s, side, start, at, v);
    (Some(at), format!("the pursuers follow {id}: {} (facing vertex {v})", walked.join(" → ")))
}

/// The pursuit after an elimination (9.5.2): into the emptied hex, turning at most one vertex
/// toward an enemy.
fn advance_into(s: &mut State, side: &str, start: HexId, h: HexId) -> (Option<HexId>, String) {
    let Some(v) = fighters(s, start).find(|u| u.side == side).map(|u| u.facing) else {
        return (None, "no pursuer left in good order: the pursuit ends".into());
    };
    if !may_pursue_into(s, side, start, h) {
        return (None, format!("the pursuers may not enter {h}: the pursuit ends"));
    }
    let mut best = v;
    if front_enemy_hexes(s, side, h, v).is_empty() {
        for nv in [(v + 5) % 6, (v + 1) % 6] {
            if !front_enemy_hexes(s, side, h, nv).is_empty() {
                best = nv;
                break;
            }
        }
    }
    put_stack(s, side, start, h, best);
    (Some(h), format!("the pursuers advance from {start} into the emptied {h} (facing vertex {best})"))
}

#[cfg(test)]
mod tests {
    //! The golden fixture of digest E.15: the charge example of JDG 9 (Marengo, O'Reilly's
    //! formation), on a clear field of the representative map with the example's numbers.
    use super::super::JoursDeGloire;
    use super::super::scenario::Terrain;
    use super::super::turn;
    use super::*;
    use crate::engine::cases::CaseRuleset;
    use crate::geo::hex::HexId;

    fn h(s: &str) -> HexId {
        s.parse().expect("hex")
    }

    /// Nauendorff (3 SP, cohesion 6) two hexes north of the French 11th Hussars (2/1 SP,
    /// cohesion 6/5, engagement 6) on open ground; the 5th Hussars (engagement 5) facing
    /// the 6th Dragoons further east. O'Reilly's formation is SO.
    fn fixture() -> (State, [HexId; 6]) {
        // Northward: Nauendorff two hexes south of the 11th, each facing the other.
        let n0 = h("1008");
        let n1 = n0.neighbour(5).expect("hex");
        let t = n1.neighbour(5).expect("hex");
        let a0 = h("1011");
        let a1 = a0.neighbour(5).expect("hex");
        let a2 = a1.neighbour(5).expect("hex");
        let v = yaml_serde::from_str(&format!(
            "{{turn: 2, activate: oreilly, units: [{{id: AU-NAU, hex: '{n0}', facing: 5}}, {{id: AU-11H, hex: '{a0}', facing: 5}}, \
             {{id: FR-8D, hex: '{t}', facing: 2}}, {{id: FR-2C, hex: '{a2}', facing: 2}}]}}"
        ))
        .expect("yaml");
        let mut s = JoursDeGloire::case_state(&v).expect("state");
        for (_, t) in s.scenario.terrain_of.iter_mut() {
            *t = Terrain::Clear;
        }
        s.scenario.sides_of.clear();
        s.scenario.roads.clear();
        for u in s.scenario.units.iter_mut() {
            match u.id.as_str() {
                "AU-NAU" => u.good.sp = 3,
                "AU-11H" => u.good.engagement = 5,
                "FR-8D" => u.disordered.cohesion = 5,
                _ => {}
            }
        }
        (s, [n0, n1, t, a0, a1, a2])
    }

    fn charge(s: &State, from: HexId, path: Vec<HexId>, at: HexId, dice: Vec<u32>) -> (State, Vec<String>) {
        let o = super::super::orders::Orders {
            actions: vec![super::super::orders::Action::Charge(ChargeOrder { from, path, at, facing: None, recall: false, with: vec![] })],
            ..Default::default()
        };
        let (mut w, mut ev) = turn::run(s, "austrian", &o).expect("a legal charge");
        let mut d = Dice::forced(dice.clone());
        ev.extend(resolve(&mut w, &mut d));
        let ev: Vec<String> = ev.iter().map(|e| e.text.clone()).collect();
        assert_eq!(d.forced_remaining(), 0, "every die of the example is used: {ev:#?}");
        (w, ev)
    }

    fn has(ev: &[String], what: &str) -> bool {
        ev.iter().any(|e| e.contains(what))
    }

    /// Branch A: the rout retreat ends in rough terrain, where no charge strikes.
    #[test]
    fn charge_example_of_play_branch_a() {
        let (mut s, [n0, n1, t, a0, a1, a2]) = fixture();
        // The 5th Hussars' SO test: 8 against engagement 5 fails; they stay.
        let (w, ev) = charge(&s, a0, vec![a1], a2, vec![8]);
        assert!(has(&ev, "AU-11H fails its engagement test (charge): 8 against engagement 5"), "{ev:#?}");
        assert_eq!(w.unit("AU-11H").and_then(|u| u.hex), Some(a0));
        // Nauendorff: ET 4, move, counter-charge 7 fails, 7+3 = 10, pursuit 2+6 = 8, CT 6
        // fails: rout; then the pursuit stops next to the rough hex; end test 4 passes.
        let probe = charge(&s, n0, vec![n1], t, vec![4, 7, 7, 2, 6, 4]).1;
        let rough = probe
            .iter()
            .find_map(|e| e.split("makes its rout retreat from ").nth(1).and_then(|r| r.split(" → ").last()))
            .map(|x| h(&x[..4]))
            .expect("a rout retreat");
        s.scenario.terrain_of.insert(rough, Terrain::Rough);
        let (w, ev) = charge(&s, n0, vec![n1], t, vec![4, 7, 7, 2, 6, 4]);
        for want in [
            "AU-NAU passes its engagement test (charge): 4 against engagement 6",
            "FR-8D fails its engagement test (counter-charge): 7 against engagement 6",
            "charge total 7 +3 = 10 (ratio 3:2 → 3:2 +1, cohesion +0, terrain +1, charge +1)",
            "FR-8D is disordered or routed: no counter-charge",
            "charge total 2 +6 = 8 (ratio 3:1 → 3:1 +3, cohesion +1, terrain +1, charge +1)",
            "FR-8D fails its cohesion test: 6 against cohesion 5",
            "FR-8D routs",
            "stands where no charge strikes",
            "AU-NAU passes its cohesion test: 4 against cohesion 6",
        ] {
            assert!(has(&ev, want), "missing {want:?} in {ev:#?}");
        }
        let nau = w.unit("AU-NAU").expect("unit");
        assert!(nau.hex.is_some_and(|x| x.is_adjacent(rough)) && !nau.disordered);
        assert_eq!(w.unit("FR-8D").and_then(|u| u.hex), Some(rough));
    }

    /// Branch B: the rout retreat ends in the open; the second pursuit charge (+7) at 5
    /// eliminates the 11th, Nauendorff advances, and fails its end test at 8.
    #[test]
    fn charge_example_of_play_branch_b() {
        let (s, [n0, n1, t, ..]) = fixture();
        let (w, ev) = charge(&s, n0, vec![n1], t, vec![4, 7, 7, 2, 6, 5, 8]);
        for want in [
            "charge total 7 +3 = 10",
            "charge total 2 +6 = 8",
            "FR-8D routs",
            "charge total 5 +7 = 12 (ratio 3:1 → 3:1 +3, cohesion +1, terrain +1, defender routed +2, charge +1, pursuit charge 2 -1)",
            "FR-8D is eliminated",
            "the pursuers advance from",
            "AU-NAU fails its cohesion test: 8 against cohesion 6",
        ] {
            assert!(has(&ev, want), "missing {want:?} in {ev:#?}");
        }
        assert_eq!(w.unit("FR-8D").and_then(|u| u.hex), None);
        assert!(w.unit("AU-NAU").is_some_and(|u| u.disordered));
    }
}
