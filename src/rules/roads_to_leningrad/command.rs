//! HQ Command Points (RTL-15.1, 15.3): an HQ's 1 or 2 CPs (scenario data) given, all at
//! once, as a favourable DRM to one check whose lead unit is of its formation and within its
//! command range; the HQ is then on its "CPs used" face until the Reorganization Phase.
//!
//! By mail (reading, docs/roads-to-leningrad/rules.md "Command points"): the spend is the
//! roller's choice, so it is written with the choice that brings the check, before any die:
//! `command_points: [{hq, <check>: ...}]` in the entry that names the Army tries or declares
//! the attacks (the mover's checks), or in the Enemy Reaction Phase entry (the defender's).
//! The HQ flips when the spend is accepted; the DRM is applied when the check is rolled, if
//! the HQ may still give it then (15.16). The Reorganization's disruption checks take the
//! CPs left automatically (15.34a: nothing is lost by using them, since every HQ flips back
//! right after).
//!
//! A leader (15.2) spends the same way, named in the same `command_points` list: one HQ
//! plus one leader per attack or defending hex (15.33a1, b3), never on an Army try (15.33c),
//! within the leader's range rather than the HQ's (`leaders::reach_why_not`).

use serde::{Deserialize, Serialize};

use super::combat::defending_lead;
use super::leaders::{self, is_leader};
use super::movement::active_unit;
use super::orders::CpOrder;
use super::scenario::Kind;
use super::state::State;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The command range of an HQ (RTL-15.15: 4 hexes).
pub const RANGE: u32 = 4;

/// The check a spend modifies (RTL-15.33).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// The activation try of an Army unit (15.33c).
    Army(String),
    /// The attacker's ground coordination of the attack on the hex (15.33a2, 10.44b).
    Ground(HexId),
    /// The attacker's artillery coordination of the attack on the hex (15.33a2, 10.42b).
    Artillery(HexId),
    /// The defender's artillery coordination for the defending hex (15.33b4).
    DefensiveArtillery(HexId),
    /// A Reaction Movement try of the unit (15.33b1, 9.33a).
    React(String),
    /// The No Retreat try in the defending hex (15.33b1, 9.42).
    NoRetreat(HexId),
    /// The attacker's CAS coordination of the attack on the hex (15.33a2, 10.41b).
    Air(HexId),
    /// The defender's CAS coordination for the defending hex (15.33b4, 10.41b).
    DefensiveAir(HexId),
}

impl Check {
    /// The defending hex whose one-HQ limit the check counts against (15.33a1, b3).
    pub fn hex(&self) -> Option<HexId> {
        match self {
            Check::Ground(h)
            | Check::Artillery(h)
            | Check::DefensiveArtillery(h)
            | Check::NoRetreat(h)
            | Check::Air(h)
            | Check::DefensiveAir(h) => Some(*h),
            Check::Army(_) | Check::React(_) => None,
        }
    }
    /// A check of the side whose sequence it is (the attacker's), not the defender's.
    pub fn mover(&self) -> bool {
        matches!(self, Check::Army(_) | Check::Ground(_) | Check::Artillery(_) | Check::Air(_))
    }
    fn words(&self) -> String {
        match self {
            Check::Army(u) => format!("the activation check of {u}"),
            Check::Ground(h) => format!("the ground coordination of the attack on {h}"),
            Check::Artillery(h) => format!("the artillery coordination of the attack on {h}"),
            Check::DefensiveArtillery(h) => format!("the defensive artillery coordination at {h}"),
            Check::React(u) => format!("the Reaction check of {u}"),
            Check::NoRetreat(h) => format!("the No Retreat check at {h}"),
            Check::Air(h) => format!("the CAS coordination of the attack on {h}"),
            Check::DefensiveAir(h) => format!("the defensive CAS coordination at {h}"),
        }
    }
}

/// CPs named for a check that has not been rolled yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spend {
    pub hq: String,
    pub check: Check,
    pub points: u32,
}

/// An HQ's or a leader's printed CPs (RTL-15.31); 0 for anything else.
pub fn points(s: &State, id: &str) -> u32 {
    if is_leader(s, id) {
        return leaders::points(s, id);
    }
    s.data(id).and_then(|d| d.command_points).unwrap_or(0)
}

/// Whether `id` is an Arko, the German artillery command HQ (RTL-16.31).
pub fn is_arko(s: &State, id: &str) -> bool {
    s.data(id).is_some_and(|d| d.arko)
}

/// RTL-16.32: the Arko's CPs go only to artillery coordination, the attacker's or the
/// defender's, even when it is the only HQ in the combat.
fn arko_why_not(s: &State, o: &CpOrder) -> Option<Violation> {
    (is_arko(s, &o.hq) && o.artillery.is_none() && o.defensive_artillery.is_none()).then(|| {
        violation(
            "RTL-16.32",
            o,
            format!("{} is an Arko: its command points serve only artillery coordination (`artillery` or `defensive_artillery`)", o.hq),
        )
    })
}

/// Whether `id` is an HQ.
pub fn is_hq(s: &State, id: &str) -> bool {
    s.data(id).is_some_and(|d| d.kind == Kind::Headquarters)
}

/// Why the HQ (or leader, `leaders::why_not`) itself cannot spend now: not an HQ of the
/// side, off the map, Disrupted (15.16) or already on its "CPs used" face (15.32).
fn hq_why_not(s: &State, side: &str, hq: &str) -> Option<(&'static str, String)> {
    if is_leader(s, hq) {
        return leaders::why_not(s, side, hq);
    }
    let Some(u) = s.unit(hq) else { return Some(("RTL-15.31", format!("no unit {hq}"))) };
    if u.side != side || !is_hq(s, hq) {
        return Some(("RTL-15.31", format!("{hq} is not one of your HQs: only HQs have command points")));
    }
    if u.hex.is_none() {
        return Some(("RTL-15.31", format!("{hq} is not on the map")));
    }
    if u.disrupted {
        return Some(("RTL-15.16", format!("{hq} is Disrupted: a Disrupted HQ gives no command points until it recovers")));
    }
    if u.cp_used {
        return Some((
            "RTL-15.32",
            format!("{hq} has used its command points this turn (they come back in the Reorganization Phase, 15.34b)"),
        ));
    }
    None
}

/// Why the HQ cannot help a check whose lead unit is `lead`: the lead must be of the HQ's
/// formation, or an Army unit activated with it (15.14 and its note), and within 4 hexes,
/// counted from the HQ's hex to the lead's (15.15a, 15.31). `any_range` for the Army try,
/// which 15.33c allows the active HQ whatever the distance (a unit in range needs no try).
/// A leader's reach is his own (`leaders::reach_why_not`); `mover` says whose check it is.
fn lead_why_not(s: &State, hq: &str, lead: &str, any_range: bool, mover: bool) -> Option<(&'static str, String)> {
    if is_leader(s, hq) {
        return leaders::reach_why_not(s, hq, Some(lead), mover);
    }
    let (Some(h), Some(l)) = (s.unit(hq), s.unit(lead)) else { return Some(("RTL-15.14", format!("no unit {lead}"))) };
    // RTL-16.32: the Arko coordinates any German artillery (the TEC's Arko CP row has no
    // formation clause, unlike the HQ row): only its range binds (reading).
    let with =
        is_arko(s, hq) || l.formation == h.formation || (active_unit(s, l) && s.active.as_ref().is_some_and(|a| a.has(&h.formation)));
    if !with && !any_range {
        return Some((
            "RTL-15.14",
            format!(
                "the check's lead unit {lead} is not of {}'s formation {}: an HQ helps only its own formation's checks",
                hq, h.formation
            ),
        ));
    }
    if any_range {
        return None;
    }
    match (h.hex, l.hex) {
        (Some(a), Some(b)) if a.distance(b) <= RANGE => None,
        _ => Some(("RTL-15.15", format!("{lead} is more than {RANGE} hexes from {hq}: out of its command range"))),
    }
}

/// More than half of the attack's units of the HQ's formation (activated Army units count,
/// 7.46): RTL-4.34 and 10.44b; always true in a Mobile sequence, where only the active
/// formation attacks.
fn majority(s: &State, formation: &str, units: &[String]) -> bool {
    let of = units
        .iter()
        .filter(|id| {
            s.unit(id)
                .is_some_and(|u| u.formation == formation || (active_unit(s, u) && s.active.as_ref().is_some_and(|a| a.has(formation))))
        })
        .count();
    2 * of > units.len()
}

/// The mover's check a written spend names, with its lead unit, or why it names none.
fn mover_check(s: &State, o: &CpOrder) -> Result<(Check, String), (&'static str, String)> {
    let act = s.active.as_ref().ok_or(("RTL-15.33", "no formation is active".to_string()))?;
    let hq_f = s.unit(&o.hq).map(|u| u.formation.clone()).unwrap_or_default();
    // A leader self-activates in any friendly sequence (15.24) and has no formation, so
    // neither the active-HQ test nor the formation majority (4.34) binds him.
    let leader = is_leader(s, &o.hq);
    // RTL-16.32: the Arko serves any German attack, as a second HQ (15.33a1), whatever the
    // active formation and the attackers' formations.
    let arko = is_arko(s, &o.hq);
    if !leader && !arko && !act.has(&hq_f) {
        return Err((
            "RTL-15.33",
            format!(
                "{} is not an HQ of the active formation {}: only an active HQ spends on its side's tries and attacks",
                o.hq,
                act.names()
            ),
        ));
    }
    if let Some(h) = o.air {
        // 15.14 and 15.15 are judged on the attack's lead unit: an air unit has neither a
        // formation nor a hex (reading).
        let a = s.attacks.iter().find(|a| a.target == h).ok_or(("RTL-15.33", format!("this entry declares no attack on {h}")))?;
        if a.air.is_empty() {
            return Err(("RTL-10.41", format!("the attack on {h} commits no air: there is no CAS check to help")));
        }
        if !leader && !majority(s, &hq_f, &a.units) {
            return Err((
                "RTL-4.34",
                format!("more than half of the units attacking {h} must be of {hq_f} for {} to spend on that attack", o.hq),
            ));
        }
        return Ok((Check::Air(h), a.lead.clone()));
    }
    match (&o.army, o.ground, o.artillery) {
        (Some(_), None, None) if leader => Err((
            "RTL-15.33",
            format!("{} is a leader: only an active HQ, never a leader, spends on an Army unit's activation (15.33c)", o.hq),
        )),
        (Some(u), None, None) => {
            if !s.army_attempts.contains(u) {
                return Err(("RTL-15.33", format!("{u} is not among this entry's Army activation tries")));
            }
            Ok((Check::Army(u.clone()), u.clone()))
        }
        (None, Some(h), None) | (None, None, Some(h)) => {
            let a = s.attacks.iter().find(|a| a.target == h).ok_or(("RTL-15.33", format!("this entry declares no attack on {h}")))?;
            if !leader && !arko && !majority(s, &hq_f, &a.units) {
                return Err((
                    "RTL-4.34",
                    format!("more than half of the units attacking {h} must be of {hq_f} for {} to spend on that attack", o.hq),
                ));
            }
            if o.ground.is_some() {
                let hexes: std::collections::BTreeSet<HexId> = a.units.iter().filter_map(|id| s.unit(id).and_then(|u| u.hex)).collect();
                let disrupted = a.units.iter().any(|id| s.unit(id).is_some_and(|u| u.disrupted));
                if hexes.len() <= 1 && !disrupted {
                    return Err((
                        "RTL-10.44",
                        format!(
                            "the attack on {h} is coordinated automatically (one hex, nobody Disrupted): there is no ground check to help"
                        ),
                    ));
                }
                Ok((Check::Ground(h), a.lead.clone()))
            } else {
                let far: Vec<&String> =
                    a.artillery.iter().filter(|g| s.unit(g).and_then(|u| u.hex).is_some_and(|x| !x.is_adjacent(h))).collect();
                let lead = a.artillery_lead.clone().filter(|l| far.contains(&l)).or_else(|| far.first().map(|g| (*g).clone()));
                let lead = lead.ok_or((
                    "RTL-10.42",
                    format!("the attack on {h} has no artillery that rolls coordination (guns next to the hex are automatic, 12.17)"),
                ))?;
                Ok((Check::Artillery(h), lead))
            }
        }
        _ => Err((
            "RTL-15.33",
            "the defender's checks (react, no_retreat, defensive_artillery, defensive_air) are named in his Enemy Reaction Phase entry"
                .into(),
        )),
    }
}

/// The defender's check a written spend names (his Enemy Reaction Phase entry), with its
/// lead unit when it is known now.
fn defender_check(s: &State, side: &str, o: &CpOrder, react: &[String]) -> Result<(Check, Option<String>), (&'static str, String)> {
    let defending = |h: HexId| s.attacks.iter().any(|a| a.target == h) && s.units_at(h).next().is_some_and(|u| u.side == side);
    if let Some(h) = o.defensive_air {
        if !defending(h) {
            return Err(("RTL-15.33", format!("{h} is not one of your defending hexes")));
        }
        if super::air::defenders(s, side, h).is_empty() {
            return Err(("RTL-10.41", format!("none of your standing defensive_air units can fly for {h}: there is no CAS check to help")));
        }
        // As for the attacker, 15.14 and 15.15 are judged on the hex's lead unit.
        return Ok((Check::DefensiveAir(h), defending_lead(s, h)));
    }
    match (&o.react, o.no_retreat, o.defensive_artillery) {
        (Some(u), None, None) => {
            if !react.contains(u) {
                return Err(("RTL-15.33", format!("{u} is not among this entry's Reaction moves")));
            }
            Ok((Check::React(u.clone()), Some(u.clone())))
        }
        (None, Some(h), None) => {
            if !defending(h) || !s.no_retreat.get(side).is_some_and(|l| l.contains(&h)) || !super::no_retreat::may_try(s, h) {
                return Err((
                    "RTL-9.41",
                    format!(
                        "{h} is not a defending hex of yours where No Retreat will be tried (your standing no_retreat list, two steps, your strongpoint)"
                    ),
                ));
            }
            Ok((Check::NoRetreat(h), defending_lead(s, h)))
        }
        (None, None, Some(h)) => {
            if !defending(h) {
                return Err(("RTL-15.33", format!("{h} is not one of your defending hexes")));
            }
            // The lead gun is known only when the combat is rolled (the standing list's guns
            // eligible then): the formation and range are judged at that moment.
            Ok((Check::DefensiveArtillery(h), None))
        }
        _ => Err((
            "RTL-15.33",
            "in the Enemy Reaction Phase you spend on `react`, `no_retreat`, `defensive_artillery` or `defensive_air`".into(),
        )),
    }
}

fn violation(rule: &str, o: &CpOrder, msg: String) -> Violation {
    Violation::new(rule, msg).unit(o.hq.clone())
}

/// Exactly one check named, each HQ or leader once, one HQ plus one leader per attack or
/// defending hex, and per check (15.32, 15.33a1, b3): the shape every list must have.
fn shape(s: &State, list: &[CpOrder], checks: &[Check]) -> Vec<Violation> {
    let mut errs = Vec::new();
    for (i, (o, c)) in list.iter().zip(checks).enumerate() {
        if list[..i].iter().any(|p| p.hq == o.hq) {
            errs.push(violation(
                "RTL-15.32",
                o,
                format!("{} is named twice: an HQ or leader spends all its command points at once, on one check", o.hq),
            ));
        }
        // Three kinds, each once a combat: one HQ, plus one leader (15.33a1, b3), plus the
        // Arko (16.32: "a second HQ").
        let kind = |id: &str| -> usize {
            if is_leader(s, id) {
                0
            } else if is_arko(s, id) {
                1
            } else {
                2
            }
        };
        let k = kind(&o.hq);
        let who = ["leader", "Arko", "HQ"][k];
        let mut same = list[..i].iter().zip(checks).filter(|(p, _)| kind(&p.hq) == k).map(|(_, c)| c);
        if let Some(h) = c.hex()
            && same.clone().any(|p| p.hex() == Some(h))
        {
            errs.push(violation(
                "RTL-15.33",
                o,
                format!("at most one {who} spends command points on the combat at {h} (one HQ plus one leader; the Arko may be a second HQ, 16.32)"),
            ));
        } else if same.any(|p| p == c) {
            errs.push(violation("RTL-15.33", o, format!("{} already has a {who}'s command points", c.words())));
        }
    }
    errs
}

fn count_named(o: &CpOrder) -> usize {
    [
        o.army.is_some(),
        o.ground.is_some(),
        o.artillery.is_some(),
        o.react.is_some(),
        o.no_retreat.is_some(),
        o.defensive_artillery.is_some(),
        o.air.is_some(),
        o.defensive_air.is_some(),
    ]
    .iter()
    .filter(|x| **x)
    .count()
}

fn accept(s: &mut State, side: &str, list: &[CpOrder], found: Vec<(Check, Option<String>)>) -> Vec<Event> {
    let mut ev = Vec::new();
    for (o, (check, _)) in list.iter().zip(found) {
        let n = points(s, &o.hq);
        if let Some(u) = s.unit_mut(&o.hq) {
            u.cp_used = true;
        }
        if let Some(l) = s.leader_mut(&o.hq) {
            l.cp_used = true;
        }
        ev.push(Event::rule(
            "RTL-15.32",
            format!("the {side} player's {} spends its {n} command points on {} (−{n})", o.hq, check.words()),
        ));
        s.cp_spends.push(Spend { hq: o.hq.clone(), check, points: n });
    }
    ev
}

/// What refuses a spend before its check is looked at: naming other than exactly one of
/// `checks` (15.33), or an HQ that may not spend (`hq_why_not`).
fn spend_why_not(s: &State, side: &str, o: &CpOrder, checks: &str) -> Option<Violation> {
    if count_named(o) != 1 {
        return Some(violation("RTL-15.33", o, format!("{}: name exactly one check ({checks})", o.hq)));
    }
    hq_why_not(s, side, &o.hq).map(|(rule, why)| violation(rule, o, why))
}

/// The spends of one entry, each checked: refused with every violation (the list's shape
/// last, when each spend passed), or accepted.
fn settle(
    s: &mut State,
    side: &str,
    list: &[CpOrder],
    mut errs: Vec<Violation>,
    found: Vec<(Check, Option<String>)>,
) -> Result<Vec<Event>, Vec<Violation>> {
    if errs.is_empty() {
        errs = shape(s, list, &found.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>());
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(accept(s, side, list, found))
}

/// The mover's spends, written with his Army tries or attack declarations (after them in the
/// entry's order, so the checks exist).
pub fn name_mover(s: &mut State, side: &str, list: &[CpOrder]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    let mut found = Vec::new();
    for o in list {
        if let Some(v) = spend_why_not(s, side, o, "army, ground, artillery or air").or_else(|| arko_why_not(s, o)) {
            errs.push(v);
            continue;
        }
        match mover_check(s, o) {
            Err((rule, why)) => errs.push(violation(rule, o, why)),
            Ok((check, lead)) => {
                let any_range = matches!(check, Check::Army(_));
                match lead_why_not(s, &o.hq, &lead, any_range, true) {
                    Some((rule, why)) => errs.push(violation(rule, o, why)),
                    None => found.push((check, Some(lead))),
                }
            }
        }
    }
    settle(s, side, list, errs, found)
}

/// The defender's spends, in his Enemy Reaction Phase entry (15.33b: right after the
/// declarations), for his Reaction tries, No Retreat tries and defensive artillery.
pub fn name_defender(s: &mut State, side: &str, list: &[CpOrder], react: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    let mut found = Vec::new();
    for o in list {
        if let Some(v) = spend_why_not(s, side, o, "react, no_retreat, defensive_artillery or defensive_air").or_else(|| arko_why_not(s, o))
        {
            errs.push(v);
            continue;
        }
        match defender_check(s, side, o, react) {
            Err((rule, why)) => errs.push(violation(rule, o, why)),
            Ok((check, Some(lead))) => match lead_why_not(s, &o.hq, &lead, false, false) {
                Some((rule, why)) => errs.push(violation(rule, o, why)),
                None => found.push((check, Some(lead))),
            },
            Ok((check, None)) => found.push((check, None)),
        }
    }
    settle(s, side, list, errs, found)
}

/// The DRM the CPs named for `check` give now that it is rolled with `lead` as its lead unit:
/// −points of the HQ and of the leader, each 0 (with the reason) when it may no longer give
/// them (15.16, 15.14, 15.15, 15.25). The spends are taken off the list either way: each
/// flipped when it was named (15.32).
pub fn take(s: &mut State, check: &Check, lead: &str, ev: &mut Vec<Event>) -> i32 {
    let mut drm = 0;
    while let Some(i) = s.cp_spends.iter().position(|p| &p.check == check) {
        let p = s.cp_spends.remove(i);
        let gone = match s.unit(&p.hq) {
            _ if is_leader(s, &p.hq) => lead_why_not(s, &p.hq, lead, false, check.mover()),
            None => Some(("RTL-15.31", format!("{} is gone", p.hq))),
            Some(u) if u.hex.is_none() => Some(("RTL-15.31", format!("{} is gone", p.hq))),
            Some(u) if u.disrupted => Some(("RTL-15.16", format!("{} is Disrupted now", p.hq))),
            Some(_) => lead_why_not(s, &p.hq, lead, matches!(check, Check::Army(_)), check.mover()),
        };
        match gone {
            Some((rule, why)) => {
                ev.push(Event::rule(rule, format!("{}: {why}, its command points give no DRM", check.words())));
            }
            None => {
                ev.push(Event::rule(
                    "RTL-15.31",
                    format!("{}'s {} command points: DRM −{} on {}", p.hq, p.points, p.points, check.words()),
                ));
                drm -= p.points as i32;
            }
        }
    }
    drm
}

/// Whether the defender of the declared batch has an HQ that could spend on a No Retreat try
/// or a defensive artillery check of it, so that his Enemy Reaction Phase entry is worth
/// asking for (15.33b).
pub fn defender_options(s: &State, side: &str) -> Vec<String> {
    let hqs: Vec<&str> = s
        .units
        .iter()
        .map(|u| (u.id.as_str(), u.side.as_str()))
        .chain(s.leaders.iter().map(|l| (l.id.as_str(), l.side.as_str())))
        .filter(|(id, sd)| *sd == side && hq_why_not(s, side, id).is_none() && !is_arko(s, id))
        .map(|(id, _)| id)
        .collect();
    let mut out = Vec::new();
    for a in &s.attacks {
        if s.units_at(a.target).next().is_none_or(|u| u.side != side) {
            continue;
        }
        let nr = s.no_retreat.get(side).is_some_and(|l| l.contains(&a.target)) && super::no_retreat::may_try(s, a.target);
        let lead = defending_lead(s, a.target);
        for hq in &hqs {
            if nr && lead.as_ref().is_some_and(|l| lead_why_not(s, hq, l, false, false).is_none()) {
                out.push(format!("{hq} for the No Retreat check at {}", a.target));
            }
        }
    }
    out
}

/// The Reorganization Phase (RTL-15.34): the disruption checks of units in an enemy ZOC
/// (3.75b) take the CPs left, unit by unit in the order rolled, each from the unused
/// eligible HQ with the most CPs (ties by id); a check no HQ can help takes an unused
/// leader's in range (15.34a, reading: the first by id), then every HQ and leader flips back
/// (15.34b).
pub fn reorganization_drm(s: &mut State, unit: &str, ev: &mut Vec<Event>) -> i32 {
    let side = s.unit(unit).map(|u| u.side.clone()).unwrap_or_default();
    let mut best: Option<(u32, String)> = None;
    for u in s.units.iter().filter(|u| u.side == side) {
        // 16.32: never the Arko's CPs, which serve only artillery coordination.
        if !is_hq(s, &u.id)
            || is_arko(s, &u.id)
            || hq_why_not(s, &side, &u.id).is_some()
            || lead_why_not(s, &u.id, unit, false, false).is_some()
        {
            continue;
        }
        let n = points(s, &u.id);
        if best.as_ref().is_none_or(|(m, id)| n > *m || (n == *m && u.id < *id)) {
            best = Some((n, u.id.clone()));
        }
    }
    if best.is_none() {
        let mut ids: Vec<&str> = s.leaders.iter().filter(|l| l.side == side).map(|l| l.id.as_str()).collect();
        ids.sort_unstable();
        best = ids
            .into_iter()
            .find(|id| hq_why_not(s, &side, id).is_none() && lead_why_not(s, id, unit, false, false).is_none())
            .map(|id| (points(s, id), id.to_string()));
    }
    let Some((n, hq)) = best else { return 0 };
    if let Some(u) = s.unit_mut(&hq) {
        u.cp_used = true;
    }
    if let Some(l) = s.leader_mut(&hq) {
        l.cp_used = true;
    }
    ev.push(Event::rule("RTL-15.34", format!("{hq} spends its {n} command points on {unit}'s disruption check (−{n})")));
    -(n as i32)
}

/// RTL-15.34b: after the disruption checks every HQ and leader shows its CPs again (a
/// Disrupted HQ still gives none, 15.16); spends never rolled are dropped.
pub fn flip_back(s: &mut State) -> Vec<Event> {
    s.cp_spends.clear();
    let mut back = Vec::new();
    for u in s.units.iter_mut().filter(|u| u.cp_used) {
        u.cp_used = false;
        back.push(u.id.clone());
    }
    for l in s.leaders.iter_mut().filter(|l| l.cp_used) {
        l.cp_used = false;
        back.push(l.id.clone());
    }
    if back.is_empty() { vec![] } else { vec![Event::rule("RTL-15.34", format!("{} show their command points again", back.join(", ")))] }
}
