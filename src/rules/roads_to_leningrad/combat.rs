//! Combat (RTL-9.1, 10, 11): declaration with its standing instructions, strengths and
//! halvings (RTL-3.54–3.56), the CRT choice (10.3), odds (10.5), DRMs (10.61–10.62), ground
//! coordination (10.44), results: step losses (11.2), retreats (11.3, 11.5), disruption
//! (3.7) and advance (11.6). Every attack of an OS is one batch, declared with the moves
//! and rolled from the dice of the other side's next entry (DESIGN §2.5).

use std::collections::BTreeSet;

use super::crt::{Outcome, Table, crts};
use super::movement::{STACK_LIMIT, active_unit, in_ezoc, passable, red_box_ezoc, stack_points};
use super::orders::AttackOrder;
use super::scenario::{Kind, Terrain, Water};
use super::state::{Attack, Os, State, Supply, Unit, Weather};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// A d10 read 1..10 (RTL-2.41: the 0 face is 10).
pub fn d10(dice: &mut Dice) -> u32 {
    dice.roll(10) + 1
}

/// Attack strength of a group on `target` (RTL-3.54–3.56): OoS units, then motorized and
/// heavy units into or out of swamp, then units across a river; at each stage the affected
/// units' strength is summed with what already shares a halving with them, then halved.
pub fn strength(s: &State, units: &[String], target: HexId) -> u32 {
    // Parcels: (strength, members).
    let mut parcels: Vec<(u32, Vec<&str>)> = Vec::new();
    let mut stages: [Vec<&str>; 3] = [vec![], vec![], vec![]];
    for id in units {
        let (Some(u), Some(d)) = (s.unit(id), s.data(id)) else { continue };
        let Some(h) = u.hex else { continue };
        parcels.push((s.face(u).attack, vec![id.as_str()]));
        if u.supply == Supply::Out {
            stages[0].push(id);
        }
        let swamp = |x: HexId| s.scenario.terrain.get(&x) == Some(&Terrain::Swamp);
        if d.mot_column() && (swamp(h) || swamp(target)) {
            stages[1].push(id);
        }
        if matches!(s.water(h, target), Some((Water::River, _))) {
            stages[2].push(id);
        }
    }
    for stage in &stages {
        if stage.is_empty() {
            continue;
        }
        let (hit, rest): (Vec<_>, Vec<_>) = parcels.into_iter().partition(|(_, m)| m.iter().any(|x| stage.contains(x)));
        parcels = rest;
        let sum: u32 = hit.iter().map(|(v, _)| v).sum();
        let members: Vec<&str> = hit.into_iter().flat_map(|(_, m)| m).collect();
        parcels.push((sum / 2, members));
    }
    parcels.iter().map(|(v, _)| v).sum()
}

/// Defense of a hex: every unit's defense, never halved (RTL-3.51, 10.51).
pub fn defense(s: &State, target: HexId) -> u32 {
    s.units_at(target).map(|u| s.face(u).defense).sum()
}

/// The defender's lead unit (digest G.4 default): the highest current ER, ties by id;
/// an HQ only when nothing else is there (RTL-15.12c).
pub fn defending_lead(s: &State, target: HexId) -> Option<String> {
    let mut us: Vec<&Unit> = s.units_at(target).collect();
    let non_hq = us.iter().any(|u| s.data(&u.id).is_some_and(|d| d.kind != Kind::Headquarters));
    if non_hq {
        us.retain(|u| s.data(&u.id).is_some_and(|d| d.kind != Kind::Headquarters));
    }
    us.sort_by(|a, b| s.er(b).cmp(&s.er(a)).then(a.id.cmp(&b.id)));
    us.first().map(|u| u.id.clone())
}

/// Why the Assault CRT is forced (RTL-10.32), if it is.
pub fn assault_forced(s: &State, os: Os, units: &[String], target: HexId) -> Option<&'static str> {
    let t = s.scenario.terrain.get(&target).copied();
    let all_river =
        units.iter().all(|id| s.unit(id).and_then(|u| u.hex).is_some_and(|h| matches!(s.water(h, target), Some((Water::River, _)))));
    if os == Os::Assault {
        Some("the Assault Sequence is in use")
    } else if s.weather == Weather::Rain {
        Some("it is raining")
    } else if !units.iter().any(|id| s.data(id).is_some_and(|d| d.armor())) {
        Some("the attacking force has no armor")
    } else if s.scenario.city(target) || matches!(t, Some(Terrain::Hills | Terrain::Swamp)) {
        Some("the defending hex is city, hills or swamp")
    } else if super::strongpoints::defended(s, target) {
        Some("the defenders hold a strongpoint (14.13a)")
    } else if all_river {
        Some("every attacker attacks across a river")
    } else {
        None
    }
}

/// Whether `units` attacking `target` earn the combined-arms −1 (RTL-10.61f): armor with a
/// motorized partner, no AT in the hex, fair weather, no swamp or city; the two not across
/// a river nor Disrupted; no completed strongpoint of the defenders (10.61f5). Overruns use
/// it too (RTL-8.67e).
pub fn cab(s: &State, units: &[String], target: HexId) -> bool {
    let t = s.scenario.terrain.get(&target).copied();
    let across_river = |id: &String| s.unit(id).and_then(|u| u.hex).is_some_and(|h| matches!(s.water(h, target), Some((Water::River, _))));
    let ok = |id: &String| s.unit(id).is_some_and(|u| !u.disrupted) && !across_river(id);
    let armor = units.iter().any(|id| s.data(id).is_some_and(|d| d.armor()) && ok(id));
    let partner = units.iter().any(|id| s.data(id).is_some_and(|d| d.cab_partner()) && ok(id));
    let at = s.units_at(target).any(|u| s.data(&u.id).is_some_and(|d| d.anti_tank()));
    armor
        && partner
        && !at
        && s.weather != Weather::Rain
        && !s.scenario.city(target)
        && t != Some(Terrain::Swamp)
        && !super::strongpoints::defended(s, target)
}

/// The DRMs of an attack other than coordination, with their words (RTL-10.22, 10.61).
pub fn drms(s: &State, a: &Attack) -> (i32, Vec<String>) {
    let mut total = 0;
    let mut words = Vec::new();
    let mut add = |v: i32, w: String, total: &mut i32| {
        if v != 0 {
            *total += v;
            words.push(format!("{w} {v:+}"));
        }
    };
    let t = s.scenario.terrain.get(&a.target).copied();
    let mut hex = 0;
    let mut hex_word = "";
    for (v, w, on) in [
        (1, "rough", t == Some(Terrain::Rough)),
        (2, "hills", t == Some(Terrain::Hills)),
        (1, "town", s.scenario.town(a.target)),
        (2, "city", s.scenario.city(a.target)),
    ] {
        if on && v > hex {
            hex = v;
            hex_word = w;
        }
    }
    add(hex, format!("terrain ({hex_word})"), &mut total);
    // 10.22b, 14.13c: cumulative with the hex's terrain.
    let sp = super::strongpoints::defended(s, a.target);
    if sp {
        add(1, "strongpoint".into(), &mut total);
    }
    if a.no_retreat {
        add(1, "No Retreat".into(), &mut total);
    }
    let across = |id: &String, w: Water| s.unit(id).and_then(|u| u.hex).is_some_and(|h| s.water(h, a.target).is_some_and(|(x, _)| x == w));
    let stream = !a.units.is_empty() && a.units.iter().all(|id| across(id, Water::Stream));
    if stream {
        add(1, "stream hexside".into(), &mut total);
    }
    if let (Some(dl), Some(al)) = (defending_lead(s, a.target), s.unit(&a.lead))
        && let Some(du) = s.unit(&dl)
    {
        add(s.er(du) as i32 - s.er(al) as i32, format!("ER differential ({dl} − {})", a.lead), &mut total);
    }
    if cab(s, &a.units, a.target) {
        add(-1, "combined arms".into(), &mut total);
    }
    let engineer = a.units.iter().any(|id| s.data(id).is_some_and(|d| d.kind == Kind::Engineer));
    if engineer && (s.scenario.city(a.target) || sp || stream) {
        add(-1, "engineers".into(), &mut total);
    }
    (total, words)
}

/// The steps the defenders and the attacking force lose for a result (RTL-11.21, 11.24): an
/// elimination takes every defending step; a side wiped out short of its loss takes one step
/// off the other side's loss (not off an elimination). Combat and overruns (8.67) share it.
pub fn step_losses(s: &State, res: &Outcome, defenders: &[String], attackers: &[String]) -> (u32, u32) {
    let steps = |f: &[String]| f.iter().filter_map(|id| s.unit(id)).filter(|u| u.hex.is_some()).map(|u| s.steps(u)).sum::<u32>();
    let (mut dl, mut al) = (res.d_steps, res.a_steps);
    if res.d_eliminated {
        dl = steps(defenders);
    }
    if dl > steps(defenders) && al > 0 {
        al -= 1;
    }
    if al > steps(attackers) && dl > 0 && !res.d_eliminated {
        dl -= 1;
    }
    (dl, al)
}

/// Declare one attack (RTL-9.1, 9.14, 10.12, 10.3, 10.53a).
pub fn declare(s: &mut State, side: &str, o: &AttackOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let err = |rule: &str, msg: String| Err(vec![Violation::new(rule, msg).hex(o.hex.to_string())]);
    let Some(act) = s.active.clone() else { return err("RTL-9.11", "no formation is active".into()) };
    let enemy = s.scenario.other(side);
    if !s.occupied_by(o.hex, &enemy) {
        return err("RTL-9.11", format!("{} holds no enemy combat unit", o.hex));
    }
    if s.attacks.iter().any(|a| a.target == o.hex) {
        return err("RTL-9.12", format!("{} is already a defending hex: one combat per hex", o.hex));
    }
    if o.units.is_empty() && (!o.air.is_empty() || !o.artillery.is_empty()) {
        return err("RTL-10.15", format!("{} cannot be attacked by artillery and/or air alone: name the ground units that attack", o.hex));
    }
    if o.units.is_empty() {
        return err("RTL-9.13", "an attack names its attackers".into());
    }
    let mut seen = BTreeSet::new();
    for id in &o.units {
        let Some(u) = s.unit(id) else { return err("RTL-9.11", format!("no unit {id}")) };
        let Some(d) = s.data(id) else { return err("RTL-9.11", format!("no unit {id}")) };
        if u.side != side || !seen.insert(id) {
            return err("RTL-9.11", format!("{id} is not one of your units, or is named twice"));
        }
        let Some(h) = u.hex else { return err("RTL-9.11", format!("{id} is not on the map")) };
        // 9.11: in Assault, adjacent units of non-active formations may join; Army units
        // only when activated (digest G.5 27).
        let allowed = active_unit(s, u) || (act.os == Os::Assault && u.formation != "army");
        if !allowed {
            return err("RTL-9.11", format!("{id} is not active in this sequence"));
        }
        if !h.is_adjacent(o.hex) {
            return err("RTL-9.13", format!("{id} at {h} is not next to {}", o.hex));
        }
        if d.artillery() {
            return err("RTL-12.0", format!("{id} is artillery: it has no attack strength and supports under `artillery`"));
        }
        if s.face(u).attack == 0 {
            return err("RTL-9.14", format!("{id} has no attack strength"));
        }
        if !passable(s, h, o.hex, d) {
            return err("RTL-9.15", format!("{id} could not move from {h} into {}: it cannot attack across that", o.hex));
        }
        if s.attacks.iter().any(|a| a.units.contains(id)) {
            return err("RTL-10.11", format!("{id} already attacks in this Combat Phase"));
        }
    }
    let lead = o.lead.clone().unwrap_or_else(|| o.units[0].clone());
    if !o.units.contains(&lead) {
        return err("RTL-3.43", format!("the lead unit {lead} is not among the attackers"));
    }
    if !s.unit(&lead).is_some_and(|u| active_unit(s, u)) {
        return err("RTL-3.43", format!("the lead unit {lead} must belong to the active formation or be an Army unit activated with it"));
    }
    let table = o.crt.unwrap_or(Table::Assault);
    if table == Table::Mobile
        && let Some(why) = assault_forced(s, act.os, &o.units, o.hex)
    {
        return err("RTL-10.32", format!("the Assault CRT is mandatory: {why}"));
    }
    let att = strength(s, &o.units, o.hex);
    if att == 0 {
        return err("RTL-9.14", "halving leaves the attackers no strength".into());
    }
    let dfn = defense(s, o.hex);
    if u64::from(att) * 4 < u64::from(dfn) {
        return err("RTL-10.53", format!("initial odds {att}:{dfn} are below 1:4"));
    }
    // The supporting artillery (10.42a, 12.13–12.15): eligible now, once per Combat Phase.
    let mut guns = BTreeSet::new();
    for id in &o.artillery {
        if !guns.insert(id) || s.attacks.iter().any(|a| a.artillery.contains(id)) {
            return err("RTL-12.15", format!("{id} supports one combat per Combat Phase"));
        }
        if let Some((rule, why)) = super::artillery::attack_ineligible(s, side, id, o.hex) {
            return err(rule, why);
        }
    }
    if let Some(l) = &o.artillery_lead
        && (!o.artillery.contains(l) || s.unit(l).and_then(|u| u.hex).is_some_and(|h| h.is_adjacent(o.hex)))
    {
        return err("RTL-10.42", format!("the artillery lead {l} must be one of the named artillery not next to {}", o.hex));
    }
    // CAS (10.41a, 13.2): checked last, so a refused declaration spends no mission.
    let air_ev = super::air::commit(s, side, o.hex, &o.units, &lead, &o.air, o.air_lead.as_ref(), false)?;
    s.attacks.push(Attack {
        target: o.hex,
        units: o.units.clone(),
        lead: lead.clone(),
        table,
        advance: o.advance,
        artillery: o.artillery.clone(),
        artillery_lead: o.artillery_lead.clone(),
        air: o.air.clone(),
        air_lead: o.air_lead.clone(),
        no_retreat: false,
    });
    let support = if o.artillery.is_empty() { String::new() } else { format!("; supported by {}", o.artillery.join(", ")) };
    let mut ev = vec![Event::rule(
        "RTL-9.12",
        format!("{} declare an attack on {} ({} CRT, {att} vs {dfn}), lead {lead}{support}", o.units.join(", "), o.hex, table.name()),
    )];
    ev.extend(air_ev);
    Ok(ev)
}

/// Lose `n` steps from a force, lead first, then the highest ER, ties by id (RTL-11.21–11.22;
/// digest G.4's default allocation). Returns the events.
pub fn lose_steps(s: &mut State, force: &[String], lead: Option<&str>, mut n: u32) -> Vec<Event> {
    let mut ev = Vec::new();
    while n > 0 {
        let mut alive: Vec<String> = force.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex.is_some())).cloned().collect();
        if alive.is_empty() {
            break;
        }
        alive.sort_by(|a, b| {
            let (ua, ub) = (s.unit(a).map(|u| s.er(u)).unwrap_or(0), s.unit(b).map(|u| s.er(u)).unwrap_or(0));
            (Some(b.as_str()) == lead).cmp(&(Some(a.as_str()) == lead)).then(ub.cmp(&ua)).then(a.cmp(b))
        });
        let id = alive[0].clone();
        ev.extend(one_step(s, &id));
        n -= 1;
    }
    ev
}

/// One step off a unit: flip, or eliminate; with its VP (S1.31).
pub fn one_step(s: &mut State, id: &str) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    let two = s.steps(&u) == 2;
    let vp = super::victory::step_vp(s, &u);
    s.vp += vp;
    let vpw = if vp != 0 { format!(" ({vp:+} VP)") } else { String::new() };
    if let Some(x) = s.unit_mut(id) {
        if two {
            x.reduced = true;
        } else {
            x.hex = None;
        }
    }
    vec![Event::rule("RTL-11.21", format!("{id} {}{vpw}", if two { "loses a step (flipped)" } else { "is eliminated" }))]
}

/// Retreat the units of `group` standing in `from` away from `origin`, `len` hexes
/// (RTL-11.3, 11.5): the first legal path in hex order, avoiding empty EZOC hexes; one
/// empty EZOC hex costs an ER check (or a step under 11.56d), two eliminate.
pub fn retreat(s: &mut State, group: &[String], from: HexId, origin: HexId, len: u32, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let ids: Vec<String> = group.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex == Some(from))).cloned().collect();
    if ids.is_empty() {
        return ev;
    }
    let side = s.unit(&ids[0]).map(|u| u.side.clone()).unwrap_or_default();
    let enemy = s.scenario.other(&side);
    let base = from.distance(origin);
    let ok_step = |s: &State, a: HexId, b: HexId, depth: u32| {
        b.distance(origin) == base + depth
            && !s.occupied_by(b, &enemy)
            && ids.iter().all(|id| s.data(id).is_some_and(|d| passable(s, a, b, d)))
    };
    let empty_z = |s: &State, h: HexId| in_ezoc(s, h, &side) && !s.occupied_by(h, &side);
    // The owner moves the retreat (11.3); standing in for him, the default takes the path
    // that costs the least: first one that does not end overstacked (11.33 would eliminate
    // the excess), then the fewest empty EZOC hexes (11.55–11.56), then hex order.
    let moving: u32 = ids.iter().filter_map(|id| s.unit(id)).map(|u| s.face(u).stacking).sum();
    let over = |s: &State, end: HexId| (stack_points(s, end, &side) + moving).saturating_sub(STACK_LIMIT);
    // Candidate paths; ends in EZOC need friends (11.34).
    let mut best: Option<((u32, u32), u32, Vec<HexId>)> = None;
    for (_, n1) in from.neighbours() {
        if !ok_step(s, from, n1, 1) {
            continue;
        }
        let mut paths = vec![vec![n1]];
        if len == 2 {
            paths = n1.neighbours().into_iter().filter(|&(_, n2)| ok_step(s, n1, n2, 2)).map(|(_, n2)| vec![n1, n2]).collect();
        }
        for p in paths {
            let Some(&end) = p.last() else { continue };
            if empty_z(s, end) {
                continue;
            }
            let z = p.iter().filter(|&&h| empty_z(s, h)).count() as u32;
            // Two or more empty EZOC hexes eliminate (11.55): worse than any other path.
            let cost = (u32::from(z >= 2), over(s, end));
            if best.as_ref().is_none_or(|(bc, bz, _)| (cost, z) < (*bc, *bz)) {
                best = Some((cost, z, p));
            }
        }
    }
    let Some((z, path)) = best.filter(|(_, z, _)| *z < 2).map(|(_, z, p)| (z, p)) else {
        ev.push(Event::rule("RTL-11.3", format!("{} cannot retreat from {from}: eliminated", ids.join(", "))));
        for id in &ids {
            while s.unit(id).is_some_and(|u| u.hex.is_some()) {
                ev.extend(one_step(s, id));
            }
        }
        return ev;
    };
    let end = *path.last().unwrap_or(&from);
    for id in &ids {
        if let Some(u) = s.unit_mut(id) {
            u.hex = Some(end);
        }
    }
    ev.push(Event::rule(
        "RTL-11.3",
        format!("{} retreat {from} → {}", ids.join(", "), path.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" → ")),
    ));
    if z == 1 {
        let through = path.iter().copied().find(|&h| empty_z(s, h)).unwrap_or(end);
        let red = ids.iter().any(|id| s.data(id).is_some_and(|d| d.red_box()));
        let mut lead: Vec<&String> = ids.iter().collect();
        lead.sort_by(|a, b| {
            let (x, y) = (s.unit(a).map(|u| s.er(u)).unwrap_or(0), s.unit(b).map(|u| s.er(u)).unwrap_or(0));
            y.cmp(&x).then(a.cmp(b))
        });
        let lead = lead[0].clone();
        if !red && red_box_ezoc(s, through, &side) {
            ev.push(Event::rule("RTL-11.56d", format!("retreat through the EZOC of motorized units at {through}: one step lost")));
            ev.extend(one_step(s, &lead));
        } else {
            let r = d10(dice);
            let er = s.unit(&lead).map(|u| s.er(u)).unwrap_or(1);
            ev.push(Event::roll(format!("RTL-11.56: EZOC retreat check of {lead} (ER {er})"), "d10", r));
            if r > er {
                ev.extend(one_step(s, &lead));
            }
        }
    }
    // 11.33: overstacked at the end → retreating units eliminated until legal.
    for id in ids.iter().rev() {
        if stack_points(s, end, &side) <= STACK_LIMIT {
            break;
        }
        if s.unit(id).is_some_and(|u| u.hex == Some(end)) {
            ev.push(Event::rule("RTL-11.33", format!("{id} is eliminated: {end} is overstacked")));
            while s.unit(id).is_some_and(|u| u.hex.is_some()) {
                ev.extend(one_step(s, id));
            }
        }
    }
    ev
}

/// Resolve one declared attack with the dice (Expanded Sequence 3e–3l).
pub fn resolve_one(s: &mut State, a: &Attack, os: Os, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let attackers: Vec<String> = a.units.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex.is_some())).cloned().collect();
    let defenders: Vec<String> = s.units_at(a.target).map(|u| u.id.clone()).collect();
    if attackers.is_empty() || defenders.is_empty() || !attackers.iter().any(|x| x == &a.lead) {
        ev.push(Event::rule("RTL-10.1", format!("the attack on {} is void: its lead unit or the defenders are gone", a.target)));
        return ev;
    }
    let ground = strength(s, &attackers, a.target);
    // CAS (10.41, 13.2): both sides' checks come first (Expanded Sequence 3b).
    let (cas, cas_words, flew) = super::air::cas(s, a, os, dice, &mut ev);
    // Artillery (10.42, 12): both sides' checks come before the ground coordination.
    let (sup, art_ev) = super::artillery::support(s, a, os, ground, dice);
    ev.extend(art_ev);
    let att = ground + sup.attack;
    let dfn = super::artillery::defense_without(s, a.target, sup.in_hex.as_deref()) + sup.defence;
    let table = crts().table(a.table);
    let col = table.column(att, dfn);
    let (mut net, mut words) = drms(s, a);
    net += cas;
    words.extend(cas_words);
    // Ground coordination (10.44): automatic from one hex with nobody Disrupted.
    let hexes: BTreeSet<HexId> = attackers.iter().filter_map(|id| s.unit(id).and_then(|u| u.hex)).collect();
    let disrupted = attackers.iter().any(|id| s.unit(id).is_some_and(|u| u.disrupted));
    if hexes.len() > 1 || disrupted {
        let cp = super::command::take(s, &super::command::Check::Ground(a.target), &a.lead, &mut ev);
        let r = d10(dice);
        let drm = match os {
            Os::Mobile => 1,
            _ => -1,
        } + if hexes.len() >= 3 { 1 } else { 0 }
            + cp;
        let er = s.unit(&a.lead).map(|u| s.er(u)).unwrap_or(1);
        ev.push(Event::roll(format!("RTL-10.44: ground coordination of {} (ER {er}, DRM {drm:+})", a.lead), "d10", r));
        if r as i32 + drm > er as i32 {
            net += 2;
            words.push("failed coordination +2".into());
        }
    }
    let clamped = net.clamp(-5, 5);
    let roll = d10(dice);
    let modified = roll as i32 + clamped;
    let res: Outcome = table.result(col, modified).clone();
    let colw = col.map(|c| table.labels[c].clone()).unwrap_or_else(|| "below 1-4".into());
    ev.push(Event::roll(
        format!(
            "RTL-10.63: combat at {} ({} CRT {}, {att} vs {dfn}, {colw}; DRM {clamped:+}{})",
            a.target,
            a.table.name(),
            crts().version,
            if words.is_empty() { String::new() } else { format!(": {}", words.join(", ")) }
        ),
        "d10",
        roll,
    ));
    ev.push(Event::rule("RTL-11.11", format!("result {} (modified roll {modified})", res.text)));
    // Losses, defender first, reduced by one for the other side when a side is wiped out
    // short of its loss (11.24).
    // The attacker's artillery next to the defending hex shares his results; the rest of
    // the artillery never suffers any (11.13, 12.16).
    let force: Vec<String> = attackers.iter().chain(&sup.adjacent).cloned().collect();
    let (dl, al) = step_losses(s, &res, &defenders, &force);
    let dlead = defending_lead(s, a.target);
    ev.extend(lose_steps(s, &defenders, dlead.as_deref(), dl));
    ev.extend(lose_steps(s, &force, Some(&a.lead), al));
    for (flag, force) in [(res.d_disrupt, &defenders), (res.a_disrupt, &force)] {
        if flag {
            for id in force {
                if let Some(u) = s.unit_mut(id).filter(|u| u.hex.is_some()) {
                    u.disrupted = true;
                }
            }
            ev.push(Event::rule("RTL-3.71", "every surviving unit of that side involved is Disrupted"));
        }
    }
    let len = 2; // Mobile: exactly 2; Assault: 1 or 2, default 2 (digest G.4).
    let mut held = false;
    if res.d_retreat && a.no_retreat {
        // 11.42b–d: one step more instead of the retreat, lead unit first (then the highest
        // ER); the attacker does not advance if that step empties the hex.
        let alive = |s: &State| s.units_at(a.target).next().is_some();
        if alive(s) {
            ev.push(Event::rule("RTL-11.42", format!("No Retreat: {} stays and loses one step more instead of retreating", a.target)));
            ev.extend(lose_steps(s, &defenders, dlead.as_deref(), 1));
            held = !alive(s);
        }
    } else if res.d_retreat {
        ev.extend(retreat(s, &defenders, a.target, a.target, len, dice));
    }
    if res.a_retreat {
        let from: BTreeSet<HexId> = force.iter().filter_map(|id| s.unit(id).and_then(|u| u.hex)).collect();
        for h in from {
            ev.extend(retreat(s, &force, h, a.target, len, dice));
        }
    }
    ev.extend(super::artillery::fire_in_hex(s, &defenders));
    if held {
        ev.push(Event::rule("RTL-11.42", format!("the No Retreat step emptied {}: no advance into it", a.target)));
    }
    ev.extend(super::air::land(s, &flew));
    // Advance (11.6): only into an emptied hex, declared attackers, not heavy.
    if a.advance && !held && s.units_at(a.target).next().is_none() && !res.a_retreat {
        let side = s.unit(&a.lead).map(|u| u.side.clone()).unwrap_or_default();
        let mut gone = Vec::new();
        for id in &attackers {
            let Some(u) = s.unit(id).cloned() else { continue };
            let Some(d) = s.data(id) else { continue };
            if u.hex.is_none() || d.class == super::scenario::Class::Heavy {
                continue;
            }
            if stack_points(s, a.target, &side) + s.face(&u).stacking > STACK_LIMIT {
                continue;
            }
            if let Some(x) = s.unit_mut(id) {
                x.hex = Some(a.target);
            }
            gone.push(id.clone());
        }
        if !gone.is_empty() {
            super::victory::note_control(s, a.target, &side);
            ev.push(Event::rule("RTL-11.6", format!("{} advance into {}", gone.join(", "), a.target)));
        }
    }
    ev
}

/// Roll every declared attack in order, then the sequence ends.
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    // The Enemy Reaction Phase comes before every combat (Expanded Sequence A.2): Combat
    // Refusal, then Reaction Movement (when the defender's entry named any), then No Retreat.
    let mut ev = super::reaction_phase::resolve(s, dice);
    let mut attacks = std::mem::take(&mut s.attacks);
    let os = s.active.as_ref().map(|a| a.os).unwrap_or(Os::Assault);
    ev.extend(super::no_retreat::reaction(s, &mut attacks, dice));
    for a in &attacks {
        ev.extend(resolve_one(s, a, os, dice));
    }
    ev.extend(super::strongpoints::sweep(s));
    ev.extend(super::turn::end_os(s));
    ev
}
