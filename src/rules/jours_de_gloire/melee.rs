//! Melee (JDG 8), the engagement test (JDG 0.4.2) and stacks in melee (JDG 5.1.3).
//!
//! **Declaration.** A `melee` action declares every melee of the activation at once, before
//! any engagement test (8.3.1): a list of combats in the order they are resolved (the order
//! is the attacker's, digest F.1 #13), each naming its attacking hexes (a stack fights as a
//! whole, 5.1.3: its infantry and cavalry in good order attack, the disordered ones and the
//! artillery do not) and the defending hexes. It is the entry's last action: its dice are
//! the entry's own, so the other side's next entry rolls them (DESIGN §2.5). After them the
//! activation goes on with the active side, which may only rally or end it (the melee
//! segment is the last before the rally, 1.D.3).
//!
//! Checked at declaration (8.2): attackers of the activated formation, infantry or cavalry,
//! not disordered or routed, never artillery; every defending hex an enemy hex in a front
//! hex of an attacking stack that the stack could enter; each attacking stack with a
//! defending hex of its combat in front (8.4.1, digest F.5); every enemy in an attacking
//! stack's enterable front hexes attacked by some combat of the declaration (8.2); each
//! enemy attacked once per activation. A stack in a hex with six front hexes (village) turns
//! to face its attack (`turn`) and fights at −1 (6.1.2, digest F.5: always), its obligation
//! then covering its two new front hexes only.
//!
//! **Resolution**, combat by combat, all with the resolving entry's dice: the engagement
//! test (d10 ≤ engagement) of each SO stack, rolled by its top non-artillery unit (8.3.2,
//! 5.1.3); a failed stack does not attack, and the enemy hexes only it faced pass to the next
//! combat whose attackers have them in front (the "Importante" of 8.3.2); then the force
//! ratio (8.6.1, E.7, defender's favour), the cohesion differential (8.6.2), the terrain DRM
//! (8.4.2, 8.4.3) and the other DRMs (E.9); the d10 and the Melee Table (E.8); the effects
//! on every unit of the hexes, left to right (8.5), attacker's cell first; artillery of a
//! losing side as 8.9 says; the compulsory advance (8.7.1, 8.7.3).
//!
//! **Choices settled without asking.** The terrain DRM choices of 8.4.2 and 8.4.3 have one
//! criterion, the DRM itself, so the chooser's best value is applied (the attacker's highest
//! when the defender is in clear, else the defender's lowest, and the defender's lowest among
//! several defending hexes): nobody is asked, nothing can be withheld. Who advances on a
//! cohesion tie, and the one-vertex turn of the advance, are given in advance in the combat
//! (`advance_from`, `advance_facing`), a conditional instruction (digest F.4).
//!
//! A charge combined with an infantry melee (9.2) is a charge's combat with the infantry
//! hexes among the attackers (`ChargeMods::infantry`, declared with the charge); infantry
//! that joined one makes no melee after it.
//!
//! Cavalry refusal (8.8) comes first in a combat's resolution (`refusal`); a counter-attack
//! (8.7.2, `counter`) comes last, at once, and so does a breakthrough melee (8.7.2), when
//! the declaration asked for one (`breakthrough: true`). A routed unit's CT is a rout move
//! (`rout`). The defending batteries' reaction fire (8.3.3, `reaction`) comes after the
//! engagement tests and before the melee die.

use std::collections::BTreeMap;

use super::command::status_of;
use super::disorder::{cohesion_test, disorder, eliminate, fall_back};
use super::movement::side_cost;
use super::scenario::{Feature, Kind, MeleeEffect, MeleeFlag, Terrain};
use super::state::{Phase, State, Status, Unit};
use super::turn::note_holder;
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::facing::{Facing, turn_steps};
use crate::geo::hex::HexId;

/// A `melee` action: every melee of the activation, in the order of resolution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeleeOrder {
    pub combats: Vec<Combat>,
}

/// One melee: attacking stacks against defending hexes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Combat {
    /// The attacking hexes; each stack fights as a whole (JDG 5.1.3).
    pub from: Vec<HexId>,
    /// The defending hexes.
    pub at: Vec<HexId>,
    /// A stack in a six-front hex faces this vertex for its attack (JDG 6.1.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub turn: BTreeMap<HexId, u8>,
    /// On a cohesion tie, the hex whose unit advances (JDG 8.7.1); default: the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance_from: Option<HexId>,
    /// The vertex the advancing unit faces, at most one from its own (JDG 8.7.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance_facing: Option<u8>,
    /// On a breakthrough result (`BT`), the stack that advances makes the second melee,
    /// automatic, against every enemy in its front hexes (JDG 8.7.2). Chosen with the
    /// declaration, before any die; default: no second melee.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub breakthrough: bool,
    /// When cavalry refuses this melee (JDG 8.8.1), the attacker advances into the hex it
    /// left, as after a melee (8.7.1), artillery stacked with the advancing infantry
    /// included. Chosen with the declaration, before any die; default: nobody advances.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advance_after_refusal: bool,
}

/// The declared melees waiting for their dice.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pending {
    pub side: String,
    pub combats: Vec<Combat>,
}

/// The infantry and cavalry of `h` that may attack: good order, not routed, not in square
/// (8.2, 5.1.3, 4.2).
pub fn fighters<'a>(s: &'a State, h: HexId) -> impl Iterator<Item = &'a Unit> + 'a {
    s.units_at(h).filter(|u| u.kind != Kind::Artillery && !u.disordered && !u.routed && !u.square)
}

/// What a charge changes in a combat (JDG 9.2, 9.3.2, 9.4, 9.5.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChargeMods {
    /// The charge bonus, 0 once a counter-charge succeeded (9.4).
    pub bonus: i32,
    /// A defending hex is in square: no charge bonus, the square DRM instead (9.3.2).
    pub vs_square: bool,
    /// 0 for the charge itself, n for the n-th pursuit charge (9.5.2).
    pub pursuit: u32,
    /// The charged hexes whose cavalry counter-charged with success (9.4): if the charger
    /// falls back or retreats, they may pursue it.
    pub countered: Vec<HexId>,
    /// A charge of the defender's answering pursuit (9.4, 9.5.1): its results start no
    /// pursuit of the other side in turn.
    pub answering: bool,
    /// The infantry hexes whose melee combines with the charge (9.2): each SO stack of them
    /// takes its engagement test (8.3.2, 8.4.1); when the charging cavalry cannot pursue,
    /// they advance as after a melee (8.7.1, 8.7.3).
    pub infantry: Vec<HexId>,
}

/// The facing of the stack in `h` for its attack: `turn` if given, else its infantry's or
/// cavalry's.
fn stack_facing(s: &State, h: HexId, turn: Option<u8>) -> Option<u8> {
    turn.or_else(|| fighters(s, h).next().map(|u| u.facing))
}

/// Whether `d` is a front hex of a stack in `a` facing `v`: a six-front hex counts only its
/// two new front hexes once turned (6.1.2).
fn fronts(a: HexId, v: u8, d: HexId) -> bool {
    a.is_adjacent(d) && Facing::Vertex(v).front_hex(a, d, false)
}

/// Whether a stack of `kind` in `a` could enter `d` (8.2): terrain and hexside allow it.
pub(super) fn enterable(s: &State, kind: Kind, a: HexId, d: HexId) -> bool {
    let terrain_ok = s.scenario.terrain_of.get(&d).and_then(|t| s.scenario.terrain.get(t)).and_then(|c| c.for_kind(kind)).is_some();
    terrain_ok && side_cost(s, kind, a, d).is_some() && s.scenario.feature(a, d) != Some(Feature::River)
}

/// The enemy hexes an attacking stack in `a` facing `v` must attack (8.2).
pub fn obliged(s: &State, side: &str, a: HexId, v: u8) -> Vec<HexId> {
    let Some(kind) = fighters(s, a).next().map(|u| u.kind) else { return vec![] };
    a.neighbours()
        .into_iter()
        .map(|(_, d)| d)
        .filter(|d| fronts(a, v, *d) && s.units_at(*d).any(|e| e.side != side) && enterable(s, kind, a, *d))
        .collect()
}

/// Check a `melee` action and leave it pending (JDG 8.2, 8.3.1).
pub fn step_melee(s: &mut State, side: &str, m: &MeleeOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let Phase::Activation { am, .. } = s.phase.clone() else {
        return Err(vec![Violation::new("JDG 8.3.1", "melees are declared in the activation of their formation")]);
    };
    if s.melee_done {
        return Err(vec![Violation::new("JDG 8.3.1", "every melee of an activation is declared at once, before any engagement test")]);
    }
    let mut errs = Vec::new();
    if m.combats.is_empty() {
        errs.push(Violation::new("JDG 8.3.1", "declare at least one melee"));
    }
    let mut seen_from: Vec<HexId> = Vec::new();
    let mut seen_at: Vec<HexId> = Vec::new();
    let mut facing_of: BTreeMap<HexId, u8> = BTreeMap::new();
    for (i, c) in m.combats.iter().enumerate() {
        let bad = |rule: &str, msg: String| Violation::new(rule, format!("melee {}: {msg}", i + 1));
        if c.from.is_empty() || c.at.is_empty() {
            errs.push(bad("JDG 8.2", "name the attacking hexes and the defending hexes".into()));
            continue;
        }
        for &a in &c.from {
            if seen_from.contains(&a) {
                errs.push(bad("JDG 8.2", format!("the stack in {a} attacks in one melee only")).hex(a.to_string()));
                continue;
            }
            seen_from.push(a);
            let own: Vec<&Unit> = s.units_at(a).filter(|u| u.side == side).collect();
            if own.is_empty() {
                errs.push(bad("JDG 8.2", format!("no unit of yours in {a}")).hex(a.to_string()));
                continue;
            }
            if own.iter().any(|u| !s.activates(&am, &u.formation) && u.kind != Kind::Artillery) {
                errs.push(bad("JDG 8.2", format!("only units of the activated formation {} attack", s.am_label(&am))).hex(a.to_string()));
                continue;
            }
            if fighters(s, a).next().is_none() {
                errs.push(
                    bad("JDG 8.2", format!("nothing in {a} may melee: disordered, routed, square and artillery units never do"))
                        .hex(a.to_string()),
                );
                continue;
            }
            if let Some(u) = fighters(s, a).find(|u| s.joined.contains(&u.id)) {
                errs.push(
                    bad(super::charge::COMBINED, format!("{} has made its attack with a charge in this activation already", u.id))
                        .hex(a.to_string())
                        .unit(&u.id),
                );
                continue;
            }
            let turn = c.turn.get(&a).copied();
            if let Some(v) = turn {
                if !s.scenario.all_round(a) {
                    errs.push(
                        bad("JDG 6.1.2", format!("only a stack with six front hexes turns to attack; {a} has two")).hex(a.to_string()),
                    );
                    continue;
                }
                if v > 5 {
                    errs.push(bad("JDG 6.1.2", format!("vertex {v}: a unit faces a vertex 0..5")).hex(a.to_string()));
                    continue;
                }
            }
            if let Some(v) = stack_facing(s, a, turn) {
                facing_of.insert(a, v);
            }
        }
        for &d in &c.at {
            if seen_at.contains(&d) {
                errs.push(bad("JDG 8.2", format!("{d} is attacked in one melee only")).hex(d.to_string()));
                continue;
            }
            seen_at.push(d);
            if !s.units_at(d).any(|e| e.side != side) {
                errs.push(bad("JDG 8.2", format!("no enemy unit in {d}")).hex(d.to_string()));
                continue;
            }
            if s.units_at(d).any(|e| s.meleed.contains(&e.id)) {
                errs.push(bad("JDG 8.2", format!("the enemy in {d} was attacked in melee in this activation already")).hex(d.to_string()));
                continue;
            }
            let reach = c.from.iter().any(|a| {
                facing_of.get(a).is_some_and(|v| fronts(*a, *v, d)) && fighters(s, *a).next().is_some_and(|u| enterable(s, u.kind, *a, d))
            });
            if !reach {
                errs.push(bad("JDG 8.2", format!("{d} is not a front hex that an attacking stack could enter")).hex(d.to_string()));
            }
        }
        // 8.4.1 (digest F.5): every stack of a combined melee has a defender in front.
        for &a in &c.from {
            if let Some(v) = facing_of.get(&a)
                && !c.at.iter().any(|d| fronts(a, *v, *d))
            {
                errs.push(bad("JDG 8.4.1", format!("the stack in {a} has none of the defending hexes in front")).hex(a.to_string()));
            }
        }
    }
    // 8.2: an attacking stack attacks every enemy in its front hexes that no other melee takes.
    for (&a, &v) in &facing_of {
        for d in obliged(s, side, a, v) {
            let taken = seen_at.contains(&d) || s.units_at(d).any(|e| e.side != side && s.meleed.contains(&e.id));
            if !taken {
                errs.push(
                    Violation::new("JDG 8.2", format!("the stack in {a} must also attack the enemy in its front hex {d}"))
                        .hex(d.to_string()),
                );
            }
        }
    }
    for c in &m.combats {
        if let Some(f) = c.advance_facing {
            if f > 5 {
                errs.push(Violation::new("JDG 8.7.1", format!("vertex {f}: a unit faces a vertex 0..5")));
            } else if c.from.iter().any(|a| facing_of.get(a).is_some_and(|v| turn_steps(*v, f) > 1)) {
                errs.push(Violation::new("JDG 8.7.1", format!("an advancing unit turns one vertex at most; vertex {f} is further")));
            }
        }
        if let Some(h) = c.advance_from.filter(|h| !c.from.contains(h)) {
            errs.push(Violation::new("JDG 8.7.1", format!("{h} is not an attacking hex of its melee")));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // Turn the stacks of six-front hexes (6.1.2) now: the declaration is public.
    let mut ev = Vec::new();
    for c in &m.combats {
        for (&a, &v) in &c.turn {
            let ids: Vec<String> = s.units_at(a).filter(|u| u.kind != Kind::Artillery).map(|u| u.id.clone()).collect();
            for id in &ids {
                if let Some(u) = s.unit_mut(id) {
                    u.facing = v;
                }
            }
            ev.push(Event::rule("JDG 6.1.2", format!("{} in {a} turn to vertex {v} to attack", ids.join(", "))));
        }
    }
    for c in &m.combats {
        let marks: Vec<String> = c
            .from
            .iter()
            .map(|a| {
                let top = fighters(s, *a).last().map(|u| u.id.clone()).unwrap_or_default();
                let so = status_of(s, &top) == Status::SO;
                format!("{a} ({})", if so { "Choc-Test" } else { "Choc" })
            })
            .collect();
        let at: Vec<String> = c.at.iter().map(|h| h.to_string()).collect();
        ev.push(Event::rule("JDG 8.3.1", format!("melee declared: {} against {}", marks.join(" and "), at.join(" and "))));
    }
    s.fire_closed = true;
    s.melee_done = true;
    s.melee = Some(Pending { side: side.to_string(), combats: m.combats.clone() });
    Ok(ev)
}

/// What the pending melees wait for.
pub fn pending(s: &State) -> Option<String> {
    let p = s.melee.as_ref()?;
    let list: Vec<String> = p.combats.iter().map(|c| c.at.iter().map(|h| h.to_string()).collect::<Vec<_>>().join("+")).collect();
    Some(format!("JDG 8.5: melee against {}", list.join(", ")))
}

/// Resolve the declared melees in order (JDG 8.3.2 to 8.9).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(p) = s.melee.take() else { return vec![] };
    let mut combats = p.combats;
    let mut ev = Vec::new();
    let mut i = 0;
    while i < combats.len() {
        let c = combats[i].clone();
        let (e, dropped) = combat(s, &p.side, &c, dice, None);
        ev.extend(e);
        // 8.3.2 "Importante": an enemy left unattacked by a failed test falls to the next
        // melee whose attackers have it in front.
        for d in dropped {
            if !s.units_at(d).any(|e| e.side != p.side) {
                continue;
            }
            if let Some(later) = combats[i + 1..].iter_mut().find(|l| {
                !l.at.contains(&d)
                    && l.from.iter().any(|a| fighters(s, *a).next().is_some_and(|u| fronts(*a, u.facing, d) && enterable(s, u.kind, *a, d)))
            }) {
                later.at.push(d);
                ev.push(Event::rule(
                    "JDG 8.3.2",
                    format!(
                        "{d}, left unattacked by a failed engagement test, is now attacked by the stacks of a later melee that face it"
                    ),
                ));
            }
        }
        i += 1;
    }
    ev
}

/// The terrain DRM of a combat (8.4.2, 8.4.3): per defending hex, the attacker's best over
/// the attacking hexes when it is clear, else the defender's; then the defender's best hex.
fn terrain_drm(s: &State, from: &[HexId], at: &[HexId]) -> i32 {
    let data = &s.scenario.melee_drm;
    at.iter()
        .filter_map(|d| {
            let base = s.scenario.terrain_of.get(d).and_then(|t| data.terrain.get(t)).copied().unwrap_or(0);
            let per: Vec<i32> = from
                .iter()
                .filter(|a| a.is_adjacent(*d))
                .map(|a| base + s.scenario.feature(*a, *d).and_then(|f| data.hexside.get(&f)).copied().unwrap_or(0))
                .collect();
            if s.scenario.terrain_of.get(d) == Some(&Terrain::Clear) { per.into_iter().max() } else { per.into_iter().min() }
        })
        .min()
        .unwrap_or(0)
}

/// One combat; returns its events and the defending hexes it dropped unattacked. A charge
/// (`charge`) has had its engagement test before moving, has no cavalry-melee DRM but its
/// own, and pursues instead of advancing (JDG 9.2, 9.5).
pub fn combat(s: &mut State, side: &str, c: &Combat, dice: &mut Dice, charge: Option<&ChargeMods>) -> (Vec<Event>, Vec<HexId>) {
    fight(s, side, c, dice, charge, false)
}

/// One combat as `combat`; `automatic` for a counter-attack or breakthrough melee, which
/// takes no engagement test (JDG 8.7.2).
pub fn fight(
    s: &mut State,
    side: &str,
    c: &Combat,
    dice: &mut Dice,
    charge: Option<&ChargeMods>,
    automatic: bool,
) -> (Vec<Event>, Vec<HexId>) {
    let mut ev = Vec::new();
    // 8.8: cavalry refuses before the attacker's ETs; the melee against it is void.
    let mut c = c.clone();
    if charge.is_none() {
        let (e, gone) = super::refusal::refuse(s, side, &c.from, &c.at, dice);
        ev.extend(e);
        if !gone.is_empty() {
            c.at.retain(|d| !gone.contains(d));
            if c.at.is_empty() {
                ev.push(Event::rule(super::refusal::RULE, "every defender refused: no melee"));
                ev.extend(super::refusal::follow(s, side, &c, &gone));
                return (ev, vec![]);
            }
            if c.advance_after_refusal {
                ev.push(Event::rule(
                    super::refusal::RULE,
                    "other defenders stay: the attackers fight them and do not enter the hex the cavalry left",
                ));
            }
        }
    }
    let c = &c;
    let at_list: Vec<String> = c.at.iter().map(|h| h.to_string()).collect();
    // 8.3.3: the defending batteries pick their targets before the engagement tests.
    let (picks, e) = super::reaction::choose(s, side, &c.from, &c.at);
    ev.extend(e);
    // 8.3.2: each SO stack's top unit tests; a failure keeps the whole stack out.
    let mut from = Vec::new();
    for &a in &c.from {
        let Some(top) = fighters(s, a).last().cloned() else {
            ev.push(Event::rule("JDG 8.2", format!("nothing in {a} may melee any more")));
            continue;
        };
        let tests = charge.is_none_or(|m| m.infantry.contains(&a));
        if tests && !automatic && status_of(s, &top.id) == Status::SO {
            let die = dice.roll(10);
            let e = i32::from(s.face(&top).engagement);
            let ok = die as i32 <= e;
            ev.push(Event::roll(format!("JDG 0.4.2: engagement test of {}", top.id), "d10", die));
            ev.push(Event::rule(
                "JDG 8.3.2",
                format!(
                    "{} {} its engagement test: {die} against engagement {e}{}",
                    top.id,
                    if ok { "passes" } else { "fails" },
                    if ok { "; its stack must attack" } else { "; its stack does not attack" }
                ),
            ));
            if !ok {
                continue;
            }
        }
        from.push(a);
    }
    // 8.3.3: the reaction fires come after the tests; a stack left with nothing in good
    // order does not attack (the other unit of a stack whose top was disordered does).
    if !picks.is_empty() {
        ev.extend(super::reaction::fire(s, &picks, &from, dice));
        from.retain(|a| {
            let ok = fighters(s, *a).next().is_some();
            if !ok {
                ev.push(Event::rule("JDG 8.3.3", format!("nothing in {a} may attack after the reaction fire")));
            }
            ok
        });
    }
    // The defending hexes still faced by an attacker, and still held by the enemy.
    let at: Vec<HexId> =
        c.at.iter()
            .copied()
            .filter(|d| s.units_at(*d).any(|e| e.side != side))
            .filter(|d| from.iter().any(|a| fighters(s, *a).next().is_some_and(|u| fronts(*a, u.facing, *d))))
            .collect();
    let dropped: Vec<HexId> = c.at.iter().copied().filter(|d| !at.contains(d)).collect();
    if from.is_empty() || at.is_empty() {
        ev.push(Event::rule("JDG 8.3.2", format!("no melee against {}: no attacker left", at_list.join(" and "))));
        return (ev, dropped);
    }
    // A combined charge is the infantry's melee too (9.2): its defenders have been attacked.
    let infantry: Vec<HexId> = charge.map(|m| from.iter().copied().filter(|a| m.infantry.contains(a)).collect()).unwrap_or_default();
    if charge.is_none() || !infantry.is_empty() {
        for d in &at {
            let ids: Vec<String> = s.units_at(*d).map(|u| u.id.clone()).collect();
            s.meleed.extend(ids);
        }
    }
    // 8.9: hexes with artillery only fall with the melee against the others.
    let (guns_only, held): (Vec<HexId>, Vec<HexId>) = at.iter().partition(|d| s.units_at(**d).all(|u| u.kind == Kind::Artillery));
    let attackers: Vec<Unit> = from.iter().flat_map(|a| fighters(s, *a).cloned().collect::<Vec<_>>()).collect();
    if held.is_empty() {
        // 8.5: artillery alone attacked in melee is eliminated, after its reaction fire.
        for d in &guns_only {
            let ids: Vec<String> = s.units_at(*d).map(|u| u.id.clone()).collect();
            for id in ids {
                ev.extend(eliminate(s, &id, "artillery alone attacked in melee (JDG 8.5, 8.9)"));
            }
        }
        if charge.is_none() {
            ev.extend(advance(s, side, c, &from, &guns_only, false));
        }
        return (ev, dropped);
    }
    let defenders: Vec<Unit> =
        held.iter().flat_map(|d| s.units_at(*d).filter(|u| u.kind != Kind::Artillery).cloned().collect::<Vec<_>>()).collect();
    // 8.6.1: SP of the attackers in good order and the defenders, artillery left out.
    let att_sp: u32 = attackers.iter().map(|u| u32::from(s.face(u).sp)).sum();
    let def_sp: u32 = defenders.iter().map(|u| u32::from(s.face(u).sp)).sum();
    let data = s.scenario.melee_drm.clone();
    let mut drm = 0;
    let mut drms = Vec::new();
    if let Some(col) = s.scenario.force_column(att_sp, def_sp) {
        drm += col.drm;
        drms.push(format!("ratio {att_sp}:{def_sp} → {}:{} {:+}", col.ratio[0], col.ratio[1], col.drm));
    }
    // 8.6.2: best cohesion against best cohesion, current faces.
    let best = |us: &[Unit]| us.iter().map(|u| i32::from(s.face(u).cohesion)).max().unwrap_or(0);
    let diff = best(&attackers) - best(&defenders);
    drm += diff;
    drms.push(format!("cohesion {diff:+}"));
    let t = terrain_drm(s, &from, &held);
    drm += t;
    drms.push(format!("terrain {t:+}"));
    if defenders.iter().all(|u| u.routed) {
        drm += data.defender_routed;
        drms.push(format!("defender routed {:+}", data.defender_routed));
    }
    if from.iter().any(|a| s.scenario.all_round(*a)) {
        drm += data.six_front;
        drms.push(format!("six front hexes {:+}", data.six_front));
    }
    match charge {
        None if attackers.iter().any(|u| u.kind == Kind::Cavalry) => {
            drm += data.cavalry;
            drms.push(format!("cavalry melee {:+}", data.cavalry));
        }
        None => {}
        // 9.2: a combined charge whose cavalry the reaction fire stopped: the infantry
        // fights on with the melee's DRMs only.
        Some(_) if from.iter().all(|a| infantry.contains(a)) => {
            drms.push("no charge DRM (the charging cavalry does not fight)".into());
        }
        Some(m) => {
            if m.vs_square {
                drm += data.vs_square;
                drms.push(format!("charge against a square {:+}", data.vs_square));
            } else if m.bonus != 0 {
                drm += m.bonus;
                drms.push(format!("charge {:+}", m.bonus));
            } else {
                drms.push("no charge bonus (counter-charge)".into());
            }
            if m.pursuit >= 2 {
                let p = (m.pursuit as i32 - 1) * data.pursuit;
                drm += p;
                drms.push(format!("pursuit charge {} {p:+}", m.pursuit));
            }
        }
    }
    let rear = held.iter().any(|d| {
        let Some(def) = s.units_at(*d).find(|u| u.kind != Kind::Artillery && !u.routed) else { return false };
        !s.scenario.all_round(*d) && !def.square && from.iter().any(|a| a.is_adjacent(*d) && !def.face().front_hex(*d, *a, false))
    });
    if rear {
        drm += data.rear;
        drms.push(format!("from the rear {:+}", data.rear));
    }
    let die = dice.roll(10);
    let total = die as i32 + drm;
    let Some(row) = s.scenario.melee_row(total).cloned() else { return (ev, dropped) };
    let word = |fx: &[MeleeEffect]| {
        if fx.is_empty() {
            return "-".to_string();
        }
        fx.iter()
            .map(|e| match e {
                MeleeEffect::FallBack => "1",
                MeleeEffect::Disorder => "D",
                MeleeEffect::Ct => "CT",
            })
            .collect::<Vec<_>>()
            .join("+")
    };
    let from_list: Vec<String> = from.iter().map(|h| h.to_string()).collect();
    let (rule, what) = if charge.is_some() { ("JDG 9.2", "charge") } else { ("JDG 8.5", "melee") };
    ev.push(Event::roll(format!("{rule}: {what} of {} against {}", from_list.join(" and "), at_list.join(" and ")), "d10", die));
    ev.push(Event::rule(
        rule,
        format!(
            "{what} total {die} {drm:+} = {total} ({}): attacker {}, defender {} (Melee Table E.8)",
            drms.join(", "),
            word(&row.attacker),
            word(&row.defender)
        ),
    ));
    let cavalry_defends = defenders.iter().any(|u| u.kind == Kind::Cavalry);
    for f in row.flags.iter().filter(|f| **f != MeleeFlag::Pursuit || cavalry_defends) {
        let what = match f {
            MeleeFlag::Breakthrough if charge.is_some() => "a breakthrough (JDG 8.7.2): not built after a charge, nothing follows",
            MeleeFlag::Breakthrough => "a breakthrough by the attacker (JDG 8.7.2)",
            MeleeFlag::CounterAttack if charge.is_some() => "a counter-attack (JDG 8.7.2): not built after a charge, nothing follows",
            MeleeFlag::CounterAttack => "a counter-attack by the defender (JDG 8.7.2)",
            MeleeFlag::Pursuit => "a pursuit by the attacked cavalry (JDG 9.5.1)",
        };
        ev.push(Event::rule("JDG 8.7.2", format!("the result allows {what}")));
    }
    let counter = charge.is_none() && row.flags.contains(&MeleeFlag::CounterAttack);
    let bt = charge.is_none() && row.flags.contains(&MeleeFlag::Breakthrough);
    let att_loses = row.attacker.contains(&MeleeEffect::FallBack);
    let def_loses = row.defender.contains(&MeleeEffect::FallBack);
    // 9.4, 9.5.1: the attacking units and their hexes, to see who leaves.
    let att_before: Vec<(String, HexId)> = from
        .iter()
        .flat_map(|a| {
            s.units_at(*a).filter(|u| u.side == side && u.kind != Kind::Artillery).map(|u| (u.id.clone(), *a)).collect::<Vec<_>>()
        })
        .collect();
    // 8.5: every unit of the hexes, effects left to right; the attacker's cell first.
    ev.extend(apply(s, dice, &from, &held, &row.attacker, att_loses, true));
    ev.extend(apply(s, dice, &held, &from, &row.defender, def_loses, false));
    if def_loses {
        for d in &guns_only {
            let ids: Vec<String> = s.units_at(*d).map(|u| u.id.clone()).collect();
            for id in ids {
                ev.extend(eliminate(s, &id, "artillery alone in a hex whose neighbour lost the melee (JDG 8.9)"));
            }
        }
    }
    let emptied: Vec<HexId> = at.iter().copied().filter(|d| !s.units_at(*d).any(|e| e.side != side)).collect();
    // 8.7.3: after a combined charge the charging cavalry goes first, whatever the
    // cohesions, by its pursuit (9.5.2); the infantry advances (8.7.1) only when no charging
    // unit is left in good order in its hex to pursue.
    let charger_out = charge.is_some() && !from.iter().any(|a| !infantry.contains(a) && fighters(s, *a).any(|u| u.side == side));
    if !emptied.is_empty() && !att_loses && charger_out && !infantry.is_empty() {
        ev.push(Event::rule("JDG 8.7.3", "no charging unit is left in good order to pursue: the combined infantry advances"));
        let plain = Combat { advance_from: None, advance_facing: None, ..c.clone() };
        ev.extend(advance(s, side, &plain, &infantry, &emptied, false));
    } else if !emptied.is_empty() && !att_loses && charge.is_none() {
        if bt {
            // 8.7.2: the breakthrough's advance is made without turning.
            let straight = Combat { advance_facing: None, ..c.clone() };
            ev.extend(advance(s, side, &straight, &from, &emptied, false));
        } else {
            ev.extend(advance(s, side, c, &from, &emptied, false));
        }
    }
    // 9.4, 9.5.1: the attacked cavalry may pursue an attacker that left its hex, on a PUR
    // result or after a successful counter-charge; before any counter-attack (a unit that
    // pursued has left the hex it would counter-attack from).
    let pur = row.flags.contains(&MeleeFlag::Pursuit) && cavalry_defends;
    let countered: &[HexId] = charge.map(|m| m.countered.as_slice()).unwrap_or(&[]);
    if pur && charge.is_some_and(|m| m.answering) {
        ev.push(Event::rule(super::charge::ANSWER, "a charge of a pursuit that answers a combat: no pursuit answers it in turn"));
    } else if pur || !countered.is_empty() {
        ev.extend(super::charge::answer(s, side, &held, &att_before, countered, pur, dice));
    }
    // 8.7.2: the breakthrough melee is resolved at once, before the declaration goes on.
    if bt {
        ev.extend(breakthrough(s, side, c, &emptied, dice));
    }
    // 8.7.2: the counter-attack is resolved at once, before the declaration goes on.
    if counter {
        ev.extend(super::counter::counter_attacks(s, side, &from, &held, dice));
    }
    (ev, dropped)
}

/// The breakthrough melee (JDG 8.7.2) after a `BT` result: when the declaration asked for
/// it, the units that advanced into the first emptied hex, each once per activation
/// (`State::broke`), attack every enemy in their front hexes with no engagement test.
fn breakthrough(s: &mut State, side: &str, c: &Combat, emptied: &[HexId], dice: &mut Dice) -> Vec<Event> {
    const RULE: &str = "JDG 8.7.2";
    let Some(&to) = emptied.first() else {
        return vec![Event::rule(RULE, "the defender holds its hex: nobody advances, no breakthrough melee")];
    };
    if !c.breakthrough {
        return vec![Event::rule(RULE, "the declaration asked for no breakthrough melee: nothing follows the advance")];
    }
    let ids: Vec<String> = fighters(s, to).filter(|u| u.side == side && !s.broke.contains(&u.id)).map(|u| u.id.clone()).collect();
    let Some(facing) = fighters(s, to).find(|u| ids.contains(&u.id)).map(|u| u.facing) else {
        return vec![Event::rule(RULE, format!("nothing in {to} may make a breakthrough melee (none advanced, or done already)"))];
    };
    let targets = obliged(s, side, to, facing);
    if targets.is_empty() {
        return vec![Event::rule(RULE, format!("no enemy in a front hex of {to}: no breakthrough melee"))];
    }
    s.broke.extend(ids.iter().cloned());
    let list: Vec<String> = targets.iter().map(|h| h.to_string()).collect();
    let mut ev = vec![Event::rule(
        RULE,
        format!("breakthrough melee: {} from {to} against {}, no engagement test", ids.join(", "), list.join(" and ")),
    )];
    let b = Combat {
        from: vec![to],
        at: targets,
        turn: BTreeMap::new(),
        advance_from: None,
        advance_facing: None,
        breakthrough: true,
        advance_after_refusal: false,
    };
    let (e, _) = fight(s, side, &b, dice, None, true);
    ev.extend(e);
    ev
}

/// Apply one side's cell to every unit of `hexes` (8.5), `enemy` the hexes it falls back
/// from; artillery of a losing side as 8.9 says, of a side that does not lose untouched.
fn apply(s: &mut State, dice: &mut Dice, hexes: &[HexId], enemy: &[HexId], fx: &[MeleeEffect], loses: bool, attacker: bool) -> Vec<Event> {
    let mut ev = Vec::new();
    for &h in hexes {
        let ids: Vec<(String, Kind)> = s.units_at(h).map(|u| (u.id.clone(), u.kind)).collect();
        let foot_fall: bool = fx.contains(&MeleeEffect::FallBack);
        // Where the first unit of the stack fell back: the others follow if they can.
        let mut with: Option<HexId> = None;
        for (id, kind) in ids {
            if kind == Kind::Artillery {
                if !loses {
                    continue;
                }
                if attacker {
                    // 8.9: disordered, and falls back if the whole stack does.
                    ev.extend(disorder(s, &id, false, enemy));
                    if foot_fall && s.unit(&id).is_some_and(|u| u.hex == Some(h)) {
                        ev.extend(fall_back(s, &id, enemy, with));
                    }
                } else {
                    // 8.9: falls back one hex and takes a CT.
                    ev.extend(fall_back(s, &id, enemy, with));
                    ev.extend(ct(s, &id, enemy, dice));
                }
                continue;
            }
            for e in fx {
                if s.unit(&id).is_none_or(|u| u.hex.is_none()) {
                    break;
                }
                match e {
                    MeleeEffect::FallBack => {
                        ev.extend(fall_back(s, &id, enemy, with));
                        if with.is_none() {
                            with = s.unit(&id).and_then(|u| u.hex).filter(|e| *e != h);
                        }
                    }
                    MeleeEffect::Disorder => ev.extend(disorder(s, &id, false, enemy)),
                    MeleeEffect::Ct => ev.extend(ct(s, &id, enemy, dice)),
                }
            }
        }
    }
    ev
}

/// A cohesion test from a melee result (8.5): a failure is one disorder; a routed unit
/// makes a rout move instead (10.4).
fn ct(s: &mut State, id: &str, enemy: &[HexId], dice: &mut Dice) -> Vec<Event> {
    let Some(u) = s.unit(id) else { return vec![] };
    if u.hex.is_none() {
        return vec![];
    }
    if u.routed {
        let mut ev = vec![Event::rule("JDG 10.4", format!("{id} is routed: no test, a rout move instead"))];
        ev.extend(super::rout::rout_move(s, id, false));
        return ev;
    }
    let die = dice.roll(10);
    let (failed, mut ev) = cohesion_test(s, id, die);
    if failed {
        ev.extend(disorder(s, id, false, enemy));
    }
    ev
}

/// The advance after a melee (8.7.1, 8.7.3) into the first emptied hex: the attacking unit
/// with priority (cavalry before infantry, heavy before light, then the highest cohesion;
/// on a tie the `advance_from` hex, else the first named) advances; when several stacks
/// attacked, its whole stack goes (digest F.5), artillery never. It may turn one vertex.
///
/// After a refusal (`refusal`, 8.8.1) infantry advances when any attacked (cavalry only
/// when none did, the 8.8.2 case), and the artillery of the advancing unit's hex goes with
/// it, one gun at a time while the stack stays legal (5.1.1), keeping its own facing.
pub(super) fn advance(s: &mut State, side: &str, c: &Combat, from: &[HexId], emptied: &[HexId], refusal: bool) -> Vec<Event> {
    // 5.2.3: never into a hex closed by the enemy's reinforcements still to come.
    let Some(&to) = emptied.first() else { return vec![] };
    if super::reinforce::closed(s, side, to) {
        return vec![Event::rule(
            super::reinforce::HEXES,
            format!("nobody advances into {to}: an enemy reinforcement entry hex or next to one"),
        )];
    }
    let mut cands: Vec<(HexId, Unit)> =
        from.iter().flat_map(|a| fighters(s, *a).filter(|u| u.side == side).map(|u| (*a, u.clone())).collect::<Vec<_>>()).collect();
    if refusal && cands.iter().any(|(_, u)| u.kind == Kind::Infantry) {
        cands.retain(|(_, u)| u.kind == Kind::Infantry);
    }
    if cands.is_empty() {
        return vec![];
    }
    let data = |u: &Unit| s.data(&u.id).map(|d| d.heavy).unwrap_or(false);
    let rank = |(a, u): &(HexId, Unit)| {
        (
            u.kind == Kind::Cavalry,
            data(u),
            s.face(u).cohesion,
            c.advance_from == Some(*a),
            std::cmp::Reverse(from.iter().position(|x| x == a).unwrap_or(0)),
        )
    };
    cands.sort_by_key(|x| std::cmp::Reverse(rank(x)));
    let (hex, best) = cands[0].clone();
    let movers: Vec<String> = if from.len() > 1 {
        fighters(s, hex).filter(|u| !refusal || u.kind == best.kind).map(|u| u.id.clone()).collect()
    } else {
        vec![best.id.clone()]
    };
    let guns: Vec<String> = if refusal && best.kind == Kind::Infantry {
        s.units_at(hex).filter(|u| u.side == side && u.kind == Kind::Artillery).map(|u| u.id.clone()).collect()
    } else {
        vec![]
    };
    let mut facing = best.facing;
    if let Some(f) = c.advance_facing
        && turn_steps(best.facing, f) <= 1
    {
        facing = f;
    }
    for id in &movers {
        if let Some(u) = s.unit_mut(id) {
            u.hex = Some(to);
            u.facing = facing;
        }
    }
    let mut ev = vec![Event::rule(
        "JDG 8.7.1",
        format!("{} advance{} from {hex} into {to}, facing vertex {facing}", movers.join(", "), if movers.len() == 1 { "s" } else { "" }),
    )];
    // 8.8.1: artillery stacked with the infantry goes with it (an exception to 8.7.1 and
    // 8.9), as far as the stacking limits allow (5.1.1).
    let mut movers = movers;
    for id in &guns {
        if !enterable(s, Kind::Artillery, hex, to) {
            ev.push(Event::rule("JDG 4.3.2", format!("{id} stays in {hex}: artillery may not enter {to} from there")));
            continue;
        }
        let Some(u) = s.unit_mut(id) else { continue };
        u.hex = Some(to);
        if let Some(why) = super::movement::stack_problem(s, to) {
            if let Some(u) = s.unit_mut(id) {
                u.hex = Some(hex);
            }
            ev.push(Event::rule("JDG 5.1.1", format!("{id} stays in {hex}: {why}")));
            continue;
        }
        ev.push(Event::rule(super::refusal::RULE, format!("{id}, stacked with the advancing infantry, advances with it into {to}")));
        movers.push(id.clone());
    }
    // 8.7.1: an advance across a steep slope disorders (the text's example).
    if s.scenario.feature(hex, to) == Some(Feature::SteepSlope) {
        for id in &movers {
            ev.push(Event::rule("JDG 8.7.1", format!("{id} advanced across a steep slope: one disorder")));
            ev.extend(disorder(s, id, false, &[]));
        }
    }
    note_holder(s, to, side);
    ev
}
