//! Air units (RTL-13, with 5.12, 5.13, 8.66, 10.15, 10.41, 15.16): the Air Display's Ready
//! and Flown boxes, the Air Readiness Phase, the Offensive CAS Missions Remaining (S3.28),
//! the attacker's commitment in his declaration, the defender's standing one, the two CAS
//! coordination checks and the DRM they give.
//!
//! Readings (docs/roads-to-leningrad/rules.md "Air units"): the attacker commits his air in
//! the declaration that names the attack (10.41a, 13.21: before any die, and irrevocable);
//! the defender's defensive CAS is a standing list (`defensive_air`), written in any of his
//! operations entries or his Enemy Reaction Phase entry, so it is fixed before the
//! attacker's dice exist and costs no entry; every check is an ordinary die of the entry that
//! owes the combat's dice, rolled first in the combat, attacker first (Expanded Sequence
//! 3b). Air in the Flown box comes back only in a turn that is not Rain (the Expanded
//! Sequence's Air Readiness Phase; 13.12 itself names no weather).

use super::combat::{d10, defending_lead};
use super::command::{self, Check};
use super::scenario::{AirType, AirUnit, Kind};
use super::state::{AirBox, Attack, Os, Overrun, State, Weather};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// How far a friendly HQ may be from a defending hex for CAS to reach it (RTL-13.14).
pub const HQ_RANGE: u32 = 4;

/// The printed data of an air unit.
pub fn data<'a>(s: &'a State, id: &str) -> Option<&'a AirUnit> {
    s.scenario.raw.air.units.iter().find(|a| a.id == id)
}

fn turn_index(s: &State, t: &str) -> u16 {
    s.scenario.raw.turns.iter().position(|x| x == t).map(|i| i as u16 + 1).unwrap_or(0)
}

/// The Air Readiness Phase (RTL-13.12, 5.24, S3.28): air reinforcements due this turn go to
/// the Ready box; Flown units go back to Ready unless it rains (reading: the Expanded
/// Sequence's "not in Rain"); each side's OCMR is set for the turn and the once-a-turn
/// missions of 13.24b3 are free again.
pub fn readiness(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let turn = s.turn;
    let due: Vec<String> = s
        .scenario
        .raw
        .air
        .units
        .iter()
        .filter(|a| a.from.as_deref().is_none_or(|t| turn_index(s, t) <= turn) && !s.air.contains_key(&a.id))
        .map(|a| a.id.clone())
        .collect();
    for id in &due {
        s.air.insert(id.clone(), AirBox::Ready);
    }
    if !due.is_empty() && turn > 1 {
        ev.push(Event::rule("RTL-5.24", format!("air reinforcements {} arrive in the Ready box", due.join(", "))));
    }
    let flown: Vec<String> = s.air.iter().filter(|(_, b)| **b == AirBox::Flown).map(|(id, _)| id.clone()).collect();
    if !flown.is_empty() {
        if s.weather == Weather::Rain {
            ev.push(Event::rule("RTL-13.12", format!("Rain: {} stay in the Flown box this turn", flown.join(", "))));
        } else {
            for id in &flown {
                s.air.insert(id.clone(), AirBox::Ready);
            }
            ev.push(Event::rule("RTL-13.12", format!("{} back to the Ready box", flown.join(", "))));
        }
    }
    let ocmr = s.scenario.raw.air.ocmr.clone();
    for (side, by_turn) in &ocmr {
        let n =
            by_turn.iter().filter(|(t, _)| turn_index(s, t) <= turn).max_by_key(|(t, _)| turn_index(s, t)).map(|(_, n)| *n).unwrap_or(0);
        s.ocmr.insert(side.clone(), n);
        ev.push(Event::rule("S3.28", format!("{side} Offensive CAS Missions Remaining: {n}")));
    }
    s.cas_formations.clear();
    ev
}

/// Whether `side` has an HQ that enables CAS at `target`: on the map, not Disrupted (15.16,
/// 3.72c), within 4 hexes (13.14).
pub fn hq_near(s: &State, side: &str, target: HexId) -> bool {
    s.units.iter().any(|u| {
        u.side == side
            && !u.disrupted
            && s.data(&u.id).is_some_and(|d| d.kind == Kind::Headquarters && !d.arko)
            && u.hex.is_some_and(|h| h.distance(target) <= HQ_RANGE)
    })
}

/// Why `id` cannot fly a CAS mission for `side` now (RTL-13.0, 13.13), or `None`.
fn not_ready(s: &State, side: &str, id: &str) -> Option<(&'static str, String)> {
    match (data(s, id), s.air.get(id)) {
        (Some(a), _) if a.side != side => Some(("RTL-13.0", format!("{id} is not one of your air units"))),
        (None, _) => Some(("RTL-13.0", format!("{id} is not an air unit"))),
        (Some(_), None) => Some(("RTL-13.13", format!("{id} has not arrived in the Ready box yet (5.24)"))),
        (Some(_), Some(AirBox::Flown)) => {
            Some(("RTL-13.13", format!("{id} is in the Flown box: one mission a turn, from the Ready box only")))
        }
        (Some(_), Some(AirBox::Ready)) => None,
    }
}

/// The formation a German attack takes its free offensive CAS for (RTL-13.24b2): the lead
/// unit and more than half of the units of one German armored or motorized formation.
fn free_for(s: &State, side: &str, lead: &str, units: &[String]) -> bool {
    let Some(f) = s.unit(lead).map(|u| u.formation.clone()) else { return false };
    let motorized = s.scenario.formation(&f).is_some_and(|x| x.motorized && x.side == side && side == "german");
    let of = units.iter().filter(|id| s.unit(id).is_some_and(|u| u.formation == f)).count();
    motorized && 2 * of > units.len()
}

/// Check and take the attacker's CAS commitment for an attack (or, with `overrun`, an
/// overrun) on `target` by `units` led by `lead`: 13.21 at most two, 13.13 Ready and not
/// committed elsewhere, 13.14 an HQ near, 13.24c the aircraft types, 8.66 the overrun's
/// limits, 13.24b the OCMR and the once-a-turn formations. On success the OCMR is spent
/// (reading: a mission committed is a mission flown, whatever its check or a later Combat
/// Refusal does).
#[allow(clippy::too_many_arguments)]
pub fn commit(
    s: &mut State,
    side: &str,
    target: HexId,
    units: &[String],
    lead: &str,
    air: &[String],
    air_lead: Option<&String>,
    overrun: bool,
) -> Result<Vec<Event>, Vec<Violation>> {
    let err = |rule: &str, msg: String| Err(vec![Violation::new(rule, msg).hex(target.to_string())]);
    if air.is_empty() {
        return match air_lead {
            Some(l) => err("RTL-10.41", format!("the air lead {l} is not among the committed air units")),
            None => Ok(vec![]),
        };
    }
    if overrun && side != "german" {
        return err("RTL-8.66", "no Soviet CAS in any overrun".into());
    }
    if overrun && air.len() > 1 {
        return err("RTL-8.66", "the German gives an overrun at most one air unit".into());
    }
    if air.len() > 2 {
        return err("RTL-13.21", format!("{} air units: at most two a combat", air.len()));
    }
    for (i, id) in air.iter().enumerate() {
        if air[..i].contains(id) {
            return err("RTL-13.21", format!("{id} is named twice"));
        }
        if let Some((rule, why)) = not_ready(s, side, id) {
            return err(rule, why);
        }
        if s.attacks.iter().any(|a| a.air.contains(id)) {
            return err("RTL-13.13", format!("{id} is already committed to another attack: one mission a turn"));
        }
    }
    if let Some(l) = air_lead
        && !air.contains(l)
    {
        return err("RTL-10.41", format!("the air lead {l} is not among the committed air units"));
    }
    if !hq_near(s, side, target) {
        return err("RTL-13.14", format!("no non-Disrupted HQ of yours within {HQ_RANGE} hexes of {target}: no CAS there (15.16)"));
    }
    let is_a = |id: &String| data(s, id).is_some_and(|a| a.kind == AirType::A);
    if overrun && !air.iter().all(is_a) {
        return err("RTL-8.66", "only a type-A air unit supports an overrun (no B, 13.24c)".into());
    }
    if side == "soviet" && !air.iter().any(is_a) {
        return err("RTL-13.24c", "Soviet B air units fly offensive CAS only with an A unit in the same mission".into());
    }
    let left = s.ocmr.get(side).copied().unwrap_or(0);
    if left == 0 {
        return err("RTL-13.24b", format!("no {side} Offensive CAS Missions Remaining this turn"));
    }
    let free = free_for(s, side, lead, units);
    let formation = s.unit(lead).map(|u| u.formation.clone()).unwrap_or_default();
    if !free && s.cas_formations.contains(&formation) {
        return err("RTL-13.24b", format!("{formation} has had its one offensive CAS mission this turn"));
    }
    s.ocmr.insert(side.to_string(), left - 1);
    if !free {
        s.cas_formations.push(formation.clone());
    }
    let why = if free { format!("{formation} is armored or motorized") } else { format!("{formation}'s one mission this turn") };
    Ok(vec![Event::rule("RTL-13.24b", format!("{} committed to CAS at {target} ({why}); {side} OCMR {} left", air.join(", "), left - 1))])
}

/// The side's standing list for defensive CAS (RTL-13.24a; reading), checked.
pub fn set_defensive(s: &mut State, side: &str, ids: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    let mut list: Vec<String> = Vec::new();
    for id in ids {
        match data(s, id) {
            Some(a) if a.side == side => {
                if !list.contains(id) {
                    list.push(id.clone());
                }
            }
            _ => errs.push(Violation::new("RTL-13.24a", format!("{id} is not one of your air units"))),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(vec![super::artillery::set_standing(&mut s.defensive_air, side, list, "RTL-13.24a", "defensive CAS")])
}

/// The defender's air for a declared attack on `target` (13.24a, 13.21): the first two of his
/// standing list that are Ready, with an HQ of his near the hex (13.14).
pub fn defenders(s: &State, side: &str, target: HexId) -> Vec<String> {
    if !hq_near(s, side, target) {
        return vec![];
    }
    s.defensive_air
        .get(side)
        .map(|l| l.iter().filter(|id| s.air.get(*id) == Some(&AirBox::Ready)).take(2).cloned().collect())
        .unwrap_or_default()
}

/// One side's CAS coordination check (RTL-10.41b, digest E.4): d10 + DRM ≤ the lead air
/// unit's ER, the DRMs Mobile +1, woods in the defending hex +2, Cloudy +2, Rain +3 (5.12,
/// 5.13) and the CPs named for it. Returns whether it passed.
#[allow(clippy::too_many_arguments)]
fn check(
    s: &mut State,
    side: &str,
    lead: &str,
    os: Os,
    target: HexId,
    cp: Option<(Check, String)>,
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) -> bool {
    let mut drm = if os == Os::Mobile { 1 } else { 0 };
    if s.scenario.woods.contains(&target) {
        drm += 2;
    }
    drm += match s.weather {
        Weather::Dry => 0,
        Weather::Cloudy => 2,
        Weather::Rain => 3,
    };
    if let Some((c, ground_lead)) = cp {
        drm += command::take(s, &c, &ground_lead, ev);
    }
    let er = data(s, lead).map(|a| a.er).unwrap_or(1);
    let r = d10(dice);
    ev.push(Event::roll(format!("RTL-10.41: {side} CAS coordination of {lead} (ER {er}, DRM {drm:+})"), "d10", r));
    r as i32 + drm <= er as i32
}

/// The CAS of one declared attack, rolled first in its combat (Expanded Sequence 3b): the
/// attacker's committed air that may still fly (13.14 judged again now), then the
/// defender's standing air; each side's check, and the DRM: −CAS value for each attacking
/// unit, +CAS value for each defending one, from a side that passed (13.23). Returns the DRM,
/// its words, and the air that flew (to the Flown box after the combat, 13.26).
pub fn cas(s: &mut State, a: &Attack, os: Os, dice: &mut Dice, ev: &mut Vec<Event>) -> (i32, Vec<String>, Vec<String>) {
    let side = s.unit(&a.lead).map(|u| u.side.clone()).unwrap_or_default();
    let enemy = s.scenario.other(&side);
    let mut flew = Vec::new();
    let mut net = 0;
    let mut words = Vec::new();
    let mine: Vec<String> = if a.air.is_empty() {
        vec![]
    } else if !hq_near(s, &side, a.target) {
        ev.push(Event::rule("RTL-13.14", format!("no {side} HQ may enable CAS at {} now: {} stay Ready", a.target, a.air.join(", "))));
        vec![]
    } else {
        a.air.iter().filter(|id| s.air.get(*id) == Some(&AirBox::Ready)).cloned().collect()
    };
    let theirs = defenders(s, &enemy, a.target);
    for (who, air, sign, cp) in [
        (&side, &mine, -1, (Check::Air(a.target), a.lead.clone())),
        (&enemy, &theirs, 1, (Check::DefensiveAir(a.target), defending_lead(s, a.target).unwrap_or_default())),
    ] {
        if air.is_empty() {
            continue;
        }
        let lead = if sign < 0 {
            a.air_lead.clone().filter(|l| air.contains(l)).unwrap_or_else(|| air[0].clone())
        } else {
            let mut by_er = air.clone();
            by_er.sort_by(|x, y| {
                let (ex, ey) = (data(s, x).map(|d| d.er).unwrap_or(0), data(s, y).map(|d| d.er).unwrap_or(0));
                ey.cmp(&ex).then(x.cmp(y))
            });
            by_er[0].clone()
        };
        let passed = check(s, who, &lead, os, a.target, Some(cp), dice, ev);
        let value: i32 = air.iter().filter_map(|id| data(s, id)).map(|d| d.cas as i32).sum();
        if passed {
            net += sign * value;
            words.push(format!("{who} CAS {:+}", sign * value));
            ev.push(Event::rule("RTL-10.41", format!("{who} CAS coordination passed: {} add {:+}", air.join(", "), sign * value)));
        } else {
            ev.push(Event::rule("RTL-10.41", format!("{who} CAS coordination failed: no CAS from {}", air.join(", "))));
        }
        flew.extend(air.iter().cloned());
    }
    (net, words, flew)
}

/// The German type-A air unit's CAS of an overrun (RTL-8.66, 8.67d): its check (Mobile +1,
/// woods, the weather; no CPs, 15.33 names declared attacks) and −CAS value if it passes.
/// No defensive CAS (13.24a). Returns the DRM and the unit that flew.
pub fn overrun_cas(s: &mut State, o: &Overrun, dice: &mut Dice, ev: &mut Vec<Event>) -> (i32, Option<String>) {
    let Some(id) = o.air.clone().filter(|id| s.air.get(id) == Some(&AirBox::Ready)) else { return (0, None) };
    let side = s.unit(&o.lead).map(|u| u.side.clone()).unwrap_or_default();
    if !hq_near(s, &side, o.target) {
        ev.push(Event::rule("RTL-13.14", format!("no {side} HQ may enable CAS at {} now: {id} stays Ready", o.target)));
        return (0, None);
    }
    let passed = check(s, &side, &id, Os::Mobile, o.target, None, dice, ev);
    let v = data(s, &id).map(|d| d.cas as i32).unwrap_or(0);
    if passed {
        ev.push(Event::rule("RTL-10.41", format!("{side} CAS coordination passed: {id} adds {:+}", -v)));
        (-v, Some(id))
    } else {
        ev.push(Event::rule("RTL-10.41", format!("{side} CAS coordination failed: no CAS from {id}")));
        (0, Some(id))
    }
}

/// RTL-13.17, 13.26: after the combat every air unit that flew goes to the Flown box; air
/// never takes losses (13.25).
pub fn land(s: &mut State, flew: &[String]) -> Vec<Event> {
    for id in flew {
        s.air.insert(id.clone(), AirBox::Flown);
    }
    if flew.is_empty() { vec![] } else { vec![Event::rule("RTL-13.26", format!("{} to the Flown box", flew.join(", ")))] }
}

/// The Air Display in words (RTL-13.11), for the text view.
pub fn display(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for side in s.scenario.raw.sides.iter().map(|d| d.id.clone()) {
        let of = |b: AirBox| -> Vec<String> {
            s.air
                .iter()
                .filter(|(id, x)| **x == b && data(s, id).is_some_and(|a| a.side == side))
                .map(|(id, _)| {
                    let a = data(s, id);
                    format!(
                        "{id} ({} {:?} {}-{})",
                        a.map(|a| a.model.as_str()).unwrap_or("?"),
                        a.map(|a| a.kind).unwrap_or(AirType::A),
                        a.map(|a| a.cas).unwrap_or(0),
                        a.map(|a| a.er).unwrap_or(0)
                    )
                })
                .collect()
        };
        let (ready, flown) = (of(AirBox::Ready), of(AirBox::Flown));
        if ready.is_empty() && flown.is_empty() && !s.ocmr.contains_key(&side) {
            continue;
        }
        let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
        out.push(format!("{side} air: Ready {}; Flown {}; OCMR {}", list(&ready), list(&flown), s.ocmr.get(&side).copied().unwrap_or(0)));
        if let Some(l) = s.defensive_air.get(&side) {
            out.push(format!("{side} defensive CAS (standing): {}", l.join(", ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! The Soltsy German air is all Ju 88 (type B), so the overrun's type-A CAS (8.66) is
    //! tested here with a Ju 87 added to the Air Display in memory.
    use super::*;
    use crate::rules::roads_to_leningrad::orders::OverrunOrder;
    use crate::rules::roads_to_leningrad::overrun;

    fn state_with_a_ju87() -> State {
        let text = r#"
units:
  - {id: HQ-8pz, hex: "3226"}
  - {id: I-10pz, hex: "3222"}
  - {id: I-8sr, hex: "3222"}
  - {id: 835-rr, hex: "3223"}
active: {formation: 8pz, os: mobile}
"#;
        let mut s = crate::rules::roads_to_leningrad::cases::state_with_roster(text, |_| {});
        s.scenario.raw.air.units.push(AirUnit {
            id: "Ju87-1".into(),
            side: "german".into(),
            model: "Ju 87".into(),
            kind: AirType::A,
            cas: 2,
            er: 7,
            from: None,
        });
        s.air.insert("Ju87-1".into(), AirBox::Ready);
        s
    }

    fn overrun_with(air: &str) -> OverrunOrder {
        OverrunOrder {
            units: vec!["I-10pz".into(), "I-8sr".into()],
            path: vec![],
            hex: "3223".parse().expect("hex"),
            lead: None,
            air: Some(air.into()),
        }
    }

    #[test]
    fn a_german_type_a_unit_supports_an_overrun() {
        let mut s = state_with_a_ju87();
        overrun::declare(&mut s, "german", &overrun_with("Ju87-1")).expect("a German A may fly with an overrun (8.66)");
        assert_eq!(s.ocmr.get("german"), Some(&0), "the overrun used the German mission (13.24b1)");
        // Its check 3 + 1 (Mobile) = 4 ≤ ER 7 passes: the CAS value 2 comes off the roll.
        let mut dice = Dice::forced(vec![2, 4]);
        let ev = overrun::resolve(&mut s, &mut dice);
        let texts: Vec<String> = ev.iter().map(|e| e.text.clone()).collect();
        assert!(texts.iter().any(|t| t.contains("german CAS coordination passed: Ju87-1 adds -2")), "{texts:#?}");
        assert!(texts.iter().any(|t| t.contains("german CAS -2")), "{texts:#?}");
        assert_eq!(s.air.get("Ju87-1"), Some(&AirBox::Flown));
    }

    #[test]
    fn one_air_unit_at_most_in_an_overrun() {
        let mut s = state_with_a_ju87();
        let mut o = overrun_with("Ju87-1");
        // The order carries one unit; two are refused by the same check the declaration uses.
        let refused = commit(&mut s, "german", o.hex, &o.units, "I-10pz", &["Ju87-1".into(), "Ju88-1".into()], None, true);
        assert_eq!(refused.err().map(|v| v[0].rule.clone()).as_deref(), Some("RTL-8.66"));
        o.air = Some("Ju88-1".into());
        let b = overrun::declare(&mut s, "german", &o).err().map(|v| v[0].rule.clone());
        assert_eq!(b.as_deref(), Some("RTL-8.66"), "a German B never supports an overrun");
    }
}
