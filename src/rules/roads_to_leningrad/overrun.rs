//! Overruns (RTL-8.6): an attack made while moving, in the Mobile Movement Phase only.
//!
//! By mail an overrun is a random action inside the Movement Phase, so it is the last action
//! of its entry (DESIGN §2.5): the stack walks to the hex next to the defender, pays the
//! overrun, and the other side's next entry (an `ack`) rolls it on the Mobile CRT. The
//! mover's following entry goes on with the same Movement Phase: a stack that cleared the
//! hex stands in it with the MP it has left (8.67h), other units move, more overruns, then
//! the attack declarations.
//!
//! Not built here because their rules are not: air support (8.66 German type-A CAS; no
//! defensive or Soviet CAS is then automatic), leaders and bridges as defenders.
//! Strongpoints (8.64c) are `strongpoints::defended`, read by `terrain_bars`.

use std::collections::{BTreeMap, BTreeSet};

use super::artillery;
use super::combat::{self, d10, defending_lead, lose_steps, retreat, strength};
use super::crt::{Outcome, Table, crts};
use super::movement::{self, STACK_LIMIT, active_unit, allowance, half, in_ezoc, passable, projects};
use super::orders::OverrunOrder;
use super::scenario::{Class, Kind, Terrain, UnitData, Water};
use super::state::{Group, Os, Overrun, State, Supply, Weather};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Why a unit cannot be part of an overrunning stack, with the rule (RTL-8.5, 8.62, 3.72d,
/// 6.14f, 8.66), or `None`.
fn unfit(s: &State, id: &str, d: &UnitData) -> Option<(&'static str, String)> {
    let u = s.unit(id)?;
    if d.class == Class::Heavy {
        return Some(("RTL-8.5", format!("{id} is a heavy unit: heavy units never overrun")));
    }
    if d.artillery() {
        return Some(("RTL-8.66", format!("{id} is artillery: no artillery takes part in an overrun")));
    }
    if !d.red_box() && d.kind != Kind::Cavalry {
        return Some(("RTL-8.62", format!("{id} has no red-box MA and is not cavalry: it stays behind (8.62a, c)")));
    }
    if u.disrupted {
        return Some(("RTL-3.72", format!("{id} is Disrupted: it may not overrun (3.72d)")));
    }
    if u.supply == Supply::Out {
        return Some(("RTL-6.14", format!("{id} is out of supply: it may not overrun (6.14f)")));
    }
    None
}

/// Whether the stack holds a unit that makes it able to overrun (RTL-8.62a, read with the
/// unit legend and the S7.0 example): armor without an asterisk or cavalry enables any
/// red-box companions; armored cars (the `*` units) overrun only among themselves.
fn enabled(ds: &[&UnitData]) -> bool {
    ds.iter().any(|d| d.armor() || d.kind == Kind::Cavalry) || ds.iter().all(|d| d.kind == Kind::ArmoredCar)
}

/// Half MPs to overrun from `from` into `target` (RTL-8.63, 8.64e): entering the defending
/// hex (the route's rate along a route, else its terrain and hexside) plus 1 MP. The ZOC
/// that other enemy units project into the defending hex costs nothing, and the EZOC cost
/// of reaching the hex next to it is paid by the walk there.
pub fn cost(s: &State, from: HexId, target: HexId, d: &UnitData) -> Option<u32> {
    let enter = match movement::route_cost(s, from, target, d) {
        Some(r) => r,
        None => movement::hex_cost(s, target, d, false)?,
    };
    Some(enter + movement::water_cost(s, from, target, d) + 2)
}

/// The prohibitions of the defending hex and the hexside (RTL-8.64b–c, TEC overrun column).
fn terrain_bars(s: &State, from: HexId, target: HexId) -> Option<(&'static str, String)> {
    if matches!(s.water(from, target), Some((Water::River, _))) {
        return Some(("RTL-8.64", format!("{from} to {target} crosses a river: no overrun across a river, bridge or not (8.64b)")));
    }
    if matches!(s.water(from, target), Some((Water::Lake, _))) {
        return Some(("RTL-8.64", format!("{from} to {target} is a lake hexside (8.64b)")));
    }
    let t = s.scenario.terrain.get(&target).copied();
    let what = match t {
        Some(Terrain::Swamp) => Some("swamp"),
        Some(Terrain::Hills) => Some("hills"),
        _ if s.scenario.city(target) => Some("a city"),
        _ => None,
    };
    if what.is_none() && super::strongpoints::defended(s, target) {
        return Some(("RTL-8.64", format!("{target} holds a completed enemy strongpoint: no overrun into it (8.64c, 14.13b)")));
    }
    what.map(|w| ("RTL-8.64", format!("{target} is {w}: no overrun into swamp, city or hills (8.64c, TEC)")))
}

/// How many enemy-held hexes project a ZOC into `h` (RTL-8.64d counts hexes, not units).
fn ezoc_hexes(s: &State, h: HexId, side: &str) -> usize {
    let enemy = s.scenario.other(side);
    h.neighbours().into_iter().filter(|&(_, n)| s.occupied_by(n, &enemy) && projects(s, n, h, &enemy)).count()
}

/// The defender's artillery in the defending hex that supports it in an overrun, with its
/// value (RTL-8.66: the only artillery of an overrun; automatic, at full strength, with a
/// non-artillery unit in the hex), capped at the defence of those units (12.13f).
fn in_hex_support(s: &State, target: HexId) -> (Option<String>, u32) {
    let Some(id) = artillery::in_hex_supporter(s, target) else { return (None, 0) };
    let cap: u32 = s.units_at(target).filter(|u| !s.data(&u.id).is_some_and(|d| d.artillery())).map(|u| s.face(u).defense).sum();
    let v = artillery::gun(s, &id).map(|g| g.support).unwrap_or(0).min(cap);
    (Some(id), v)
}

/// The defence of the hex in an overrun: its units, the supporting gun counting its support
/// instead of its defense (RTL-8.66, 12.23).
pub fn defence(s: &State, target: HexId) -> u32 {
    let (gun, v) = in_hex_support(s, target);
    artillery::defense_without(s, target, gun.as_deref()) + v
}

/// Check an overrun order and pay it (RTL-8.61–8.65): the stack ends next to the defending
/// hex and the overrun waits for its dice.
pub fn declare(s: &mut State, side: &str, o: &OverrunOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let err = |rule: &str, msg: String| Err(vec![Violation::new(rule, msg).hex(o.hex.to_string())]);
    let Some(act) = s.active.clone() else { return err("RTL-8.61", "no formation is active".into()) };
    if act.os != Os::Mobile {
        return err("RTL-8.61", format!("overruns happen only in a Mobile sequence's Movement Phase, not in a {:?} one (7.21b)", act.os));
    }
    if s.weather == Weather::Rain {
        return err("RTL-8.64", "no overrun in Rain (8.64a, 5.13)".into());
    }
    if o.units.is_empty() {
        return err("RTL-8.62", "an overrun names its stack".into());
    }
    let mut seen = BTreeSet::new();
    let mut ds = Vec::new();
    for id in &o.units {
        let (Some(u), Some(d)) = (s.unit(id), s.data(id)) else { return err("RTL-8.62", format!("no unit {id}")) };
        if u.side != side || !seen.insert(id) || u.hex.is_none() {
            return err("RTL-8.62", format!("{id} is not one of your units on the map, or is named twice"));
        }
        if !active_unit(s, u) {
            return err("RTL-4.35", format!("{id} is not active in this sequence"));
        }
        if let Some((rule, why)) = unfit(s, id, d) {
            return err(rule, why);
        }
        ds.push(d.clone());
    }
    let refs: Vec<&UnitData> = ds.iter().collect();
    if !enabled(&refs) {
        return err(
            "RTL-8.62",
            "the stack needs armor (not an armored car) or cavalry to overrun; armored cars overrun only by themselves (8.62a)".into(),
        );
    }
    // The stack: the one of the last successful overrun going on, or units that have not
    // moved yet and so stand where the Movement Phase found them, together (8.62b, d).
    let group = s.group.clone().filter(|g| o.units.iter().all(|id| g.units.contains(id)));
    let hexes: BTreeSet<HexId> = o.units.iter().filter_map(|id| s.unit(id).and_then(|u| u.hex)).collect();
    let start = match (&group, hexes.len()) {
        (Some(g), _) => g.hex,
        (None, 1) => {
            if let Some(id) = o.units.iter().find(|id| s.moved.contains(id)) {
                return err("RTL-8.62", format!("{id} has moved already: the stack must start the Movement Phase together (8.62b, d)"));
            }
            *hexes.iter().next().unwrap_or(&o.hex)
        }
        (None, _) => return err("RTL-8.62", "the stack's units must start the Movement Phase together in one hex (8.62b)".into()),
    };
    if group.as_ref().is_some_and(|g| g.must_overrun) && !o.path.is_empty() {
        return err("RTL-8.67", "the stack stands in another enemy ZOC: it overruns from where it is or stops (8.67i)".into());
    }
    let lead = o.lead.clone().unwrap_or_else(|| o.units[0].clone());
    if !o.units.contains(&lead) {
        return err("RTL-8.67", format!("the lead unit {lead} is not in the stack (8.67b)"));
    }
    if o.units.len() > 1 && s.data(&lead).is_some_and(|d| d.kind == Kind::Headquarters) {
        return err("RTL-15.12", format!("{lead} is an HQ: it cannot lead an attack"));
    }
    // The walk to the hex next to the defender, unit by unit along one path.
    let mut spent = BTreeMap::new();
    let mut from = start;
    for (id, d) in o.units.iter().zip(&ds) {
        let Some(u) = s.unit(id).cloned() else { continue };
        let ma = allowance(s, &u, act.os);
        let spent0 = group.as_ref().and_then(|g| g.spent.get(id).copied()).unwrap_or(0);
        let w = match movement::walk(s, side, &u, d, start, spent0, ma, group.is_none(), &o.path) {
            Ok(w) => w,
            Err((rule, msg)) => return Err(vec![Violation::new(rule, msg).unit(id.clone())]),
        };
        if let Some(why) = w.stop {
            return err(why, format!("{id} must stop at {}: it cannot go on to overrun", w.end));
        }
        from = w.end;
        spent.insert(id.clone(), (w.spent, ma));
    }
    let enemy = s.scenario.other(side);
    if !from.is_adjacent(o.hex) || !s.occupied_by(o.hex, &enemy) {
        return err("RTL-8.61", format!("{} is not an enemy-held hex next to {from}", o.hex));
    }
    if let Some((rule, why)) = terrain_bars(s, from, o.hex) {
        return err(rule, why);
    }
    if let Some((id, _)) = o.units.iter().zip(&ds).find(|(_, d)| !passable(s, from, o.hex, d)) {
        return err("RTL-8.64", format!("{id} could not cross from {from} into {}: the stack cannot overrun across it (8.64b)", o.hex));
    }
    let n = ezoc_hexes(s, from, side);
    if n > 1 {
        return err("RTL-8.64", format!("{from} is in the ZOC of enemy units in {n} hexes: no overrun from it (8.64d)"));
    }
    if let Some(g) = &group
        && g.must_overrun
        && !projects(s, o.hex, from, &enemy)
    {
        return err("RTL-8.67", format!("{} does not exert the ZOC {from} stands in: overrun that unit or stop (8.67i)", o.hex));
    }
    let mut paid = BTreeMap::new();
    for (id, d) in o.units.iter().zip(&ds) {
        let (sp, ma) = spent.get(id).copied().unwrap_or((0, 0));
        let Some(c) = cost(s, from, o.hex, d) else { return err("RTL-8.64", format!("{id} cannot enter {}", o.hex)) };
        if sp + c > ma {
            return err(
                "RTL-8.63",
                format!(
                    "the overrun costs {id} {} MP and it has {} of {} left: every unit of the stack must have them",
                    half(c),
                    half(ma - sp),
                    half(ma)
                ),
            );
        }
        paid.insert(id.clone(), sp + c);
    }
    // The stack ends next to the defender if the overrun fails (8.68): it must fit there.
    let points: u32 = o.units.iter().filter_map(|id| s.unit(id)).map(|u| s.face(u).stacking).sum();
    let already: u32 = s.units_at(from).filter(|u| u.side == side && !o.units.contains(&u.id)).map(|u| s.face(u).stacking).sum();
    if already + points > STACK_LIMIT {
        return err("RTL-3.32", format!("{from} would hold more than {STACK_LIMIT} stacking points"));
    }
    for id in &o.units {
        if let Some(u) = s.unit_mut(id) {
            u.hex = Some(from);
        }
        if !s.moved.contains(id) {
            s.moved.push(id.clone());
        }
    }
    let att = strength(s, &o.units, o.hex);
    let dfn = defence(s, o.hex);
    if att == 0 || u64::from(att) * 4 < u64::from(dfn) {
        return err("RTL-8.65", format!("odds {att}:{dfn} are below 1:4: no overrun (8.65)"));
    }
    s.group = None;
    let mp: Vec<String> = paid.iter().map(|(id, h)| format!("{id} {}", half(*h))).collect();
    // CAS (8.66, 13.22): one German type-A air unit, committed with the overrun.
    let air: Vec<String> = o.air.iter().cloned().collect();
    let air_ev = super::air::commit(s, side, o.hex, &o.units, &lead, &air, None, true)?;
    s.overrun = Some(Overrun { target: o.hex, from, units: o.units.clone(), lead: lead.clone(), spent: paid, air: o.air.clone() });
    let mut ev = vec![Event::rule(
        "RTL-8.61",
        format!("{} overrun {} from {from} ({att} vs {dfn}), lead {lead}; MP spent: {}", o.units.join(", "), o.hex, mp.join(", ")),
    )];
    ev.extend(air_ev);
    Ok(ev)
}

/// The overrun DRMs (RTL-8.67e): the TEC overrun column (one hex DRM, the best: rough or
/// marsh +2, woods +1; a stream hexside +2; towns none), the ER differential and combined
/// arms. No engineers (10.61h), no ground coordination (8.65); the German CAS is added by
/// `resolve` after its own check (8.67d–e).
pub fn drms(s: &State, o: &Overrun) -> (i32, Vec<String>) {
    let mut total = 0;
    let mut words = Vec::new();
    let mut add = |v: i32, w: String| {
        if v != 0 {
            total += v;
            words.push(format!("{w} {v:+}"));
        }
    };
    let t = s.scenario.terrain.get(&o.target).copied();
    let hex = [
        (2, "rough", t == Some(Terrain::Rough)),
        (2, "marsh", t == Some(Terrain::Marsh)),
        (1, "woods", s.scenario.woods.contains(&o.target)),
    ]
    .into_iter()
    .filter(|x| x.2)
    .max_by_key(|x| x.0);
    if let Some((v, w, _)) = hex {
        add(v, format!("terrain ({w})"));
    }
    if matches!(s.water(o.from, o.target), Some((Water::Stream, _))) {
        add(2, "stream hexside".into());
    }
    if let (Some(dl), Some(al)) = (defending_lead(s, o.target), s.unit(&o.lead))
        && let Some(du) = s.unit(&dl)
    {
        add(s.er(du) as i32 - s.er(al) as i32, format!("ER differential ({dl} − {})", o.lead));
    }
    if combat::cab(s, &o.units, o.target) {
        add(-1, "combined arms".into());
    }
    (total, words)
}

/// Roll the overrun on the Mobile CRT and apply it (RTL-8.67–8.68).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(o) = s.overrun.take() else { return vec![] };
    let mut ev = Vec::new();
    let side = s.unit(&o.lead).map(|u| u.side.clone()).unwrap_or_default();
    let stack: Vec<String> = o.units.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex == Some(o.from))).cloned().collect();
    let defenders: Vec<String> = s.units_at(o.target).map(|u| u.id.clone()).collect();
    if stack.is_empty() || defenders.is_empty() {
        return ev;
    }
    let (gun, sup) = in_hex_support(s, o.target);
    if let Some(g) = &gun {
        if let Some(u) = s.unit_mut(g) {
            u.fired = true;
        }
        ev.push(Event::rule("RTL-8.66", format!("{g} in {} supports it automatically at full strength ({sup}); Fired", o.target)));
    }
    let att = strength(s, &stack, o.target);
    let dfn = artillery::defense_without(s, o.target, gun.as_deref()) + sup;
    let table = crts().table(Table::Mobile);
    let col = table.column(att, dfn);
    let (mut net, mut words) = drms(s, &o);
    // 8.67d: the German CAS check comes before the roll; no defensive CAS (8.66, 13.24a).
    let (cas, flew) = super::air::overrun_cas(s, &o, dice, &mut ev);
    if cas != 0 {
        net += cas;
        words.push(format!("german CAS {cas:+}"));
    }
    let clamped = net.clamp(-5, 5);
    let roll = d10(dice);
    let modified = roll as i32 + clamped;
    let res: Outcome = table.result(col, modified).clone();
    let colw = col.map(|c| table.labels[c].clone()).unwrap_or_else(|| "below 1-4".into());
    ev.push(Event::roll(
        format!(
            "RTL-8.67: overrun of {} (Mobile CRT {}, {att} vs {dfn}, {colw}; DRM {clamped:+}{})",
            o.target,
            crts().version,
            if words.is_empty() { String::new() } else { format!(": {}", words.join(", ")) }
        ),
        "d10",
        roll,
    ));
    ev.push(Event::rule("RTL-11.11", format!("result {} (modified roll {modified})", res.text)));
    // Losses as in any combat, with the 11.24 reduction.
    let (dl, al) = combat::step_losses(s, &res, &defenders, &stack);
    let dlead = defending_lead(s, o.target);
    ev.extend(lose_steps(s, &defenders, dlead.as_deref(), dl));
    ev.extend(lose_steps(s, &stack, Some(&o.lead), al));
    // 8.67g: the defenders retreat exactly 2 hexes and every one that retreats is Disrupted.
    if res.d_retreat {
        ev.extend(retreat(s, &defenders, o.target, o.target, 2, dice));
        let gone: Vec<String> =
            defenders.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex.is_some() && u.hex != Some(o.target))).cloned().collect();
        for id in &gone {
            if let Some(u) = s.unit_mut(id) {
                u.disrupted = true;
            }
        }
        if !gone.is_empty() {
            ev.push(Event::rule("RTL-8.67", format!("{} retreated from an overrun: Disrupted (8.67g, 3.71)", gone.join(", "))));
        }
    }
    ev.extend(artillery::fire_in_hex(s, &defenders));
    ev.extend(super::air::land(s, flew.as_slice()));
    let enemy = s.scenario.other(&side);
    let alive: Vec<String> = stack.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex.is_some())).cloned().collect();
    if !s.occupied_by(o.target, &enemy) && !alive.is_empty() {
        ev.extend(enter(s, &o, &side, alive));
    } else {
        ev.extend(fail(s, &o, &res, alive));
    }
    ev
}

/// 8.67h–i: the stack enters the cleared hex at no further cost and may go on with the MP
/// it has left, unless the hex is in another enemy ZOC: then it overruns again or stops.
fn enter(s: &mut State, o: &Overrun, side: &str, alive: Vec<String>) -> Vec<Event> {
    for id in &alive {
        if let Some(u) = s.unit_mut(id) {
            u.hex = Some(o.target);
        }
    }
    super::victory::note_control(s, o.target, side);
    let must = in_ezoc(s, o.target, side);
    let left: Vec<String> = alive
        .iter()
        .map(|id| {
            let ma = s.unit(id).map(|u| allowance(s, u, Os::Mobile)).unwrap_or(0);
            format!("{id} {}", half(ma.saturating_sub(o.spent.get(id).copied().unwrap_or(0))))
        })
        .collect();
    let mut ev = vec![Event::rule(
        "RTL-8.67",
        format!("the overrun clears {}: {} enter it free (8.67h); MP left: {}", o.target, alive.join(", "), left.join(", ")),
    )];
    if must {
        ev.push(Event::rule("RTL-8.67", format!("{} is in another enemy ZOC: the stack overruns again or stops (8.67i)", o.target)));
    }
    let spent = alive.iter().map(|id| (id.clone(), o.spent.get(id).copied().unwrap_or(0))).collect();
    s.group = Some(Group { units: alive, hex: o.target, spent, must_overrun: must });
    ev
}

/// 8.68: the hex is not cleared: the stack ends its move where it stood, next to the
/// defending hex, and loses one step more than the CRT says (the default allocation, lead
/// first). A retreat result of the CRT does not move it (8.68 fixes where it ends).
fn fail(s: &mut State, o: &Overrun, res: &Outcome, alive: Vec<String>) -> Vec<Event> {
    let mut ev = vec![Event::rule(
        "RTL-8.68",
        format!(
            "the overrun of {} fails: the stack ends its move at {}{} and loses one step more",
            o.target,
            o.from,
            if res.a_retreat { " (no retreat: 8.68 ends it next to the defending hex)" } else { "" }
        ),
    )];
    let lead = if alive.contains(&o.lead) { Some(o.lead.as_str()) } else { None };
    if alive.is_empty() {
        return ev;
    }
    ev.extend(lose_steps(s, &alive, lead, 1));
    ev
}

#[cfg(test)]
mod tests {
    //! The Soltsy roster has no heavy unit, armored car or cavalry, so the clauses about
    //! them are tested here on a roster changed in memory.
    use super::super::scenario::{Class, Kind};
    use super::*;

    /// I-10pz and I-8sr at 3222 next to 835-rr at 3223, 8th Panzer in a Mobile sequence,
    /// after `change` rewrites the roster.
    fn state(change: impl Fn(&mut super::super::scenario::UnitData)) -> State {
        let text = r#"
units:
  - {id: I-10pz, hex: "3222"}
  - {id: I-8sr, hex: "3222"}
  - {id: 835-rr, hex: "3223"}
active: {formation: 8pz, os: mobile}
"#;
        super::super::cases::state_with_roster(text, change)
    }

    fn order(units: &[&str]) -> OverrunOrder {
        OverrunOrder {
            units: units.iter().map(|u| u.to_string()).collect(),
            path: vec![],
            hex: "3223".parse().expect("hex"),
            lead: None,
            air: None,
        }
    }

    fn rule_of(s: &mut State, units: &[&str]) -> Option<String> {
        declare(s, "german", &order(units)).err().map(|v| v[0].rule.clone())
    }

    #[test]
    fn heavy_units_never_overrun() {
        let mut s = state(|d| {
            if d.id == "I-8sr" {
                d.class = Class::Heavy;
            }
        });
        assert_eq!(rule_of(&mut s, &["I-10pz", "I-8sr"]).as_deref(), Some("RTL-8.5"));
        // Control: the heavy unit left behind, the tank overruns.
        assert_eq!(rule_of(&mut s, &["I-10pz"]), None);
    }

    #[test]
    fn armored_car_overruns_alone_but_enables_nobody() {
        let mut s = state(|d| {
            if d.id == "I-10pz" {
                d.kind = Kind::ArmoredCar;
            }
        });
        assert_eq!(rule_of(&mut s.clone(), &["I-10pz"]), None);
        assert_eq!(rule_of(&mut s, &["I-10pz", "I-8sr"]).as_deref(), Some("RTL-8.62"));
    }

    #[test]
    fn cavalry_enables_red_box_units() {
        let mut s = state(|d| {
            if d.id == "I-10pz" {
                d.kind = Kind::Cavalry;
                d.class = Class::Plain;
            }
        });
        assert_eq!(rule_of(&mut s, &["I-10pz", "I-8sr"]), None);
    }

    #[test]
    fn templates_follow_the_overrun() {
        let mut s = state(|_| {});
        declare(&mut s, "german", &order(&["I-10pz", "I-8sr"])).expect("legal overrun");
        assert!(super::super::view::template(&s, "soviet").contains("umpire ack"));
        resolve(&mut s, &mut Dice::forced(vec![4]));
        let t = super::super::view::template(&s, "german");
        assert!(t.contains("goes on") && !t.contains("os: mobile"), "{t}");
    }

    #[test]
    fn overrun_cost_is_entry_plus_one() {
        let s = state(|_| {});
        let d = s.data("I-10pz").cloned().expect("unit");
        let (a, b) = ("3222".parse().expect("hex"), "3223".parse().expect("hex"));
        // Open: 1 MP to enter, 1 MP for the overrun, in half MPs.
        assert_eq!(cost(&s, a, b, &d), Some(4));
    }
}
