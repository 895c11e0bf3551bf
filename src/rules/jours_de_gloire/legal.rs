//! Random legal orders (the bot, selfplay, property tests): secret orders to groups in
//! reach up to the order potential; moves tried at random toward the VP hexes and the enemy,
//! each checked by the rules before it is kept.

use std::collections::BTreeMap;

use super::charge::ChargeOrder;
use super::command::groups_of;
use super::fire::FireOrder;
use super::initiative::InitiativeOrder;
use super::melee::{Combat, MeleeOrder, fighters, obliged};
use super::orders::{Action, ChiefMove, Move, Orders, SquareOrder, Turn};
use super::rally::{RallyOrder, RallyUnit};
use super::scenario::Kind;
use super::state::{Am, Phase, State, Status};
use super::turn;
use crate::dice::Dice;
use crate::geo::hex::HexId;

/// Random legal orders for `seat`, or `None` when nothing is expected of it.
pub fn random_orders(s: &State, seat: &str, ch: &mut Dice) -> Option<Orders> {
    let side = s.side_of(seat)?.to_string();
    match &s.phase {
        Phase::Orders { side: due } if *due == side => {
            let potential = s.command(&side).map(|d| d.order_potential).unwrap_or(0);
            let mut assign = BTreeMap::new();
            let mut given = 0;
            let mut gs: Vec<_> = groups_of(s, &side).collect();
            // A random order of preference among the groups in reach.
            for i in (1..gs.len()).rev() {
                let j = ch.roll(i as u32 + 1) as usize;
                gs.swap(i, j);
            }
            for g in gs {
                let st = if g.in_reach && given < potential && ch.roll(4) != 0 {
                    given += 1;
                    Status::OR
                } else {
                    Status::SO
                };
                assign.insert(g.id.clone(), st);
            }
            // Now and then a Reinforcement marker is taken off (JDG 1.A, 5.2.1).
            let drop = s.units.iter().filter(|u| u.side == side && u.marker).map(|u| u.id.clone()).filter(|_| ch.roll(10) == 0).collect();
            // Now and then a new standing refusal policy for the cavalry (JDG 8.8).
            let refuse = match ch.roll(8) {
                0 => Some(super::refusal::Refusal::Never),
                1 => Some(super::refusal::Refusal::OneHex),
                2 => Some(super::refusal::Refusal::TwoHexes),
                _ => None,
            };
            // And a counter-attack policy (JDG 8.7.2).
            let counter_attack = match ch.roll(6) {
                0 => Some(super::counter::CounterAttack::Never),
                1 => Some(super::counter::CounterAttack::Hold),
                2 => Some(super::counter::CounterAttack::Advance),
                _ => None,
            };
            // And a rout policy (JDG 10.4).
            let rout = match ch.roll(6) {
                0 => Some(super::rout::RoutPolicy::Stop),
                1 => Some(super::rout::RoutPolicy::Run),
                _ => None,
            };
            // And the batteries' counter-battery and reaction-fire policies (JDG 7.1).
            let counter_battery = match ch.roll(5) {
                0 => Some(super::reaction::CounterBattery::Never),
                1 | 2 => Some(super::reaction::CounterBattery::Always),
                _ => None,
            };
            let reaction_fire = match ch.roll(5) {
                0 => Some(super::reaction::ReactionFire::Never),
                1 => Some(super::reaction::ReactionFire::Top),
                2 => Some(super::reaction::ReactionFire::UnderGuns),
                _ => None,
            };
            // And the commander-in-chief's evasion policy (JDG 2.5.2).
            let chief_evasion = match ch.roll(5) {
                0 => Some(super::chief::Evasion::Alone),
                1 | 2 => Some(super::chief::Evasion::Always),
                _ => None,
            };
            // And the attacked cavalry's pursuit policy (JDG 9.4, 9.5.1).
            let pursue = match ch.roll(5) {
                0 => Some(super::charge::Pursuit::Never),
                1 | 2 => Some(super::charge::Pursuit::Always),
                _ => None,
            };
            // And, on a turn the battle gives a choice, each CAM half the time (JDG 2.1.2).
            let cams = super::cam::choosable(s, &side).into_iter().filter(|_| ch.roll(2) == 0).collect();
            Some(Orders {
                assign,
                cams,
                drop,
                refuse,
                counter_attack,
                rout,
                counter_battery,
                reaction_fire,
                chief_evasion,
                pursue,
                ..Orders::default()
            })
        }
        Phase::Pick { side: due } if *due == side => {
            // The strategic initiative won (JDG 3): a random marker of ours goes first, and
            // now and then the pick is declined.
            // Ordinary markers only (a CAM is never picked, reading of JDG 3).
            let mine: Vec<Am> = s.cup.iter().filter(|a| !a.is_cam() && super::initiative::side_of_am(s, a) == side).cloned().collect();
            if mine.is_empty() || ch.roll(8) == 0 {
                return Some(Orders { first: Some(super::initiative::DECLINE.into()), ..Orders::default() });
            }
            let am = mine[ch.roll(mine.len() as u32) as usize].clone();
            let mut w = s.clone();
            w.cup.retain(|a| *a != am);
            w.activated.push(am.formation.clone());
            w.phase = Phase::Activation { am: am.clone(), side: side.clone() };
            let mut o = activation_orders(&w, &side, &am, ch);
            o.first = Some(am.to_string());
            Some(o)
        }
        Phase::Activation { am, side: due } if *due == side => Some(activation_orders(s, &side, am, ch)),
        // 2.1.2: the CAM choice opens; a winner picks in the same entry, as if the cup were
        // filled (his pick is an ordinary marker, which the CAMs do not change).
        Phase::Reveal { side: due } if *due == side => {
            let mut o = Orders::default();
            if s.initiative.as_deref() == Some(side.as_str()) {
                let mut w = s.clone();
                super::turn::fill_cup(&mut w);
                if w.cup.iter().any(|a| !a.is_cam() && super::initiative::side_of_am(&w, a) == side) {
                    w.phase = Phase::Pick { side: side.clone() };
                    o = random_orders(&w, seat, ch)?;
                }
            }
            o.open_cams = true;
            Some(o)
        }
        _ => None,
    }
}

/// Random legal actions for the activated formation of `am`.
fn activation_orders(s: &State, side: &str, am: &Am, ch: &mut Dice) -> Orders {
    let side = side.to_string();
    // The formation whose fire, charge and melee are tried: a CAM's is one of its formations
    // at random (JDG 2.1.2); an ordinary marker's, its own (no die used).
    let formation = match s.am_formations(am) {
        f if am.is_cam() && !f.is_empty() => f[ch.roll(f.len() as u32) as usize].clone(),
        _ => am.formation.clone(),
    };
    // Leader-initiative tests first (JDG 2.4.3): for SO groups whose orders the
    // public state shows (opened at an earlier activation), about half of them.
    let fresh = !s.fire_closed && s.fired.is_empty() && s.acted.is_empty() && !s.melee_done && s.tested.is_empty();
    if fresh && ch.roll(3) != 0 {
        let groups: Vec<String> = s
            .groups
            .iter()
            .filter(|g| g.turn == s.turn && s.activates(am, &g.formation) && g.status == Some(Status::SO))
            .filter(|g| g.units.iter().any(|u| s.unit(u).is_some_and(|u| u.hex.is_some())))
            .map(|g| g.id.clone())
            .filter(|_| ch.roll(2) == 0)
            .collect();
        let a = Action::Initiative(InitiativeOrder { groups });
        if turn::step(&mut s.clone(), &side, &a).is_ok() {
            return Orders { actions: vec![a], ..Orders::default() };
        }
    }
    // The fire segment first: a legal fire ends the entry (JDG 7, DESIGN §2.5).
    if ch.roll(5) != 0
        && let Some(f) = fire_candidate(s, &side, &formation, ch)
    {
        return Orders { actions: vec![Action::Fire(f)], ..Orders::default() };
    }
    // A charge ends the entry too (JDG 9, DESIGN §2.5).
    if ch.roll(2) == 0
        && let Some(c) = charge_candidate(s, &side, &formation, ch)
    {
        return Orders { actions: vec![Action::Charge(c)], ..Orders::default() };
    }
    let mut w = s.clone();
    let mut actions = Vec::new();
    // Reinforcements come on first (JDG 5.2), most of the time.
    if !am.is_cam() && ch.roll(8) != 0 {
        actions.extend(entries(&mut w, &side, &am.formation, ch));
    }
    let units: Vec<String> = s.units.iter().filter(|u| s.activates(am, &u.formation) && u.hex.is_some()).map(|u| u.id.clone()).collect();
    for id in units {
        if ch.roll(5) == 0 {
            continue;
        }
        // A square against cavalry near by (JDG 4.2).
        if let Some(u) = w.unit(&id)
            && u.kind == Kind::Infantry
            && !u.square
            && let Some(h) = u.hex
            && w.units.iter().any(|e| e.side != side && e.kind == Kind::Cavalry && e.hex.is_some_and(|eh| eh.distance(h) <= 3))
            && ch.roll(2) == 0
        {
            let a = Action::Square(SquareOrder { hex: h });
            if turn::step(&mut w.clone(), &side, &a).is_ok() && turn::step(&mut w, &side, &a).is_ok() {
                actions.push(a);
                continue;
            }
        }
        for _ in 0..6 {
            let Some(a) = candidate(&w, &side, &id, ch) else { break };
            if let Ok(ev) = turn::step(&mut w.clone(), &side, &a) {
                let _ = ev;
                if turn::step(&mut w, &side, &a).is_ok() {
                    actions.push(a);
                }
                break;
            }
        }
    }
    if ch.roll(4) == 0
        && let Some(a) = chief_candidate(&w, &side, ch)
        && turn::step(&mut w.clone(), &side, &a).is_ok()
    {
        actions.push(a);
    }
    // The melee segment: a legal declaration ends the entry (JDG 8.3.1, DESIGN §2.5).
    if ch.roll(4) != 0
        && let Some(m) = melee_candidate(&w, &side, &formation)
        && turn::step(&mut w.clone(), &side, &Action::Melee(m.clone())).is_ok()
    {
        actions.push(Action::Melee(m));
        return Orders { actions, ..Orders::default() };
    }
    // The rally segment closes the activation (JDG 11.1).
    let mut tries = Vec::new();
    let mine: Vec<String> = w
        .units
        .iter()
        .filter(|u| s.activates(am, &u.formation) && u.hex.is_some() && (u.disordered || u.routed))
        .map(|u| u.id.clone())
        .collect();
    for id in mine {
        let mut t = tries.clone();
        t.push(RallyUnit { unit: id, facing: None });
        if super::rally::step_rally(&mut w.clone(), &side, &RallyOrder { units: t.clone() }).is_ok() {
            tries = t;
        }
    }
    if !tries.is_empty() && ch.roll(4) != 0 {
        actions.push(Action::Rally(RallyOrder { units: tries }));
    } else {
        actions.push(Action::EndActivation);
    }
    Orders { actions, ..Orders::default() }
}

/// A legal fire of one of the formation's batteries, if any: targets and turns tried in a
/// random order, each checked by the rules.
fn fire_candidate(s: &State, side: &str, formation: &str, ch: &mut Dice) -> Option<FireOrder> {
    if s.fire_closed || s.fire.is_some() {
        return None;
    }
    let arts: Vec<&super::state::Unit> = s
        .units
        .iter()
        .filter(|u| u.formation == formation && u.kind == Kind::Artillery && u.hex.is_some() && !s.fired.contains(&u.id))
        .collect();
    for u in arts {
        let mut targets: Vec<HexId> = s.units.iter().filter(|e| e.side != side).filter_map(|e| e.hex).collect();
        targets.sort();
        targets.dedup();
        for i in (1..targets.len()).rev() {
            let j = ch.roll(i as u32 + 1) as usize;
            targets.swap(i, j);
        }
        for at in targets {
            for turn in [None, Some((u.facing + 1) % 6), Some((u.facing + 5) % 6)] {
                let f = FireOrder { unit: u.id.clone(), with: None, at, turn };
                if turn::step(&mut s.clone(), side, &Action::Fire(f.clone())).is_ok() {
                    return Some(f);
                }
            }
        }
    }
    None
}

/// `c` combined with the melee of every infantry stack of the formation next to its target
/// that the rules accept, added one by one (JDG 9.2): `c` itself when none joins.
fn combined_charge(s: &State, side: &str, formation: &str, c: ChargeOrder) -> ChargeOrder {
    let mut hexes: Vec<HexId> = s
        .units
        .iter()
        .filter(|u| u.formation == formation && u.kind == Kind::Infantry && !u.disordered && !u.routed)
        .filter_map(|u| u.hex)
        .filter(|h| h.distance(c.at) == 1 && *h != c.from)
        .collect();
    hexes.sort();
    hexes.dedup();
    let mut best = c;
    for h in hexes {
        let mut t = best.clone();
        t.with.push(h);
        if turn::step(&mut s.clone(), side, &Action::Charge(t.clone())).is_ok() {
            best = t;
        }
    }
    best
}

/// Where a unit of `side` wants to go: an enemy-held VP hex or the nearest enemy unit.
fn goal(s: &State, side: &str, from: HexId) -> Option<HexId> {
    let vp = s.scenario.vp.keys().filter(|h| s.holder.get(h).is_none_or(|x| x != side)).copied();
    let enemies = s.units.iter().filter(|u| u.side != side).filter_map(|u| u.hex);
    vp.chain(enemies).min_by_key(|h| (h.distance(from), *h))
}

/// A random move or turn for one unit: a short walk, mostly toward its goal.
fn candidate(s: &State, side: &str, id: &str, ch: &mut Dice) -> Option<Action> {
    let u = s.unit(id)?;
    let start = u.hex?;
    if ch.roll(6) == 0 {
        return Some(Action::Face(Turn { unit: id.to_string(), facing: ch.roll(6) as u8 }));
    }
    let target = goal(s, side, start);
    let len = 1 + ch.roll(3) as usize;
    let mut path = Vec::new();
    let mut at = start;
    for _ in 0..len {
        let ns: Vec<HexId> = at.neighbours().into_iter().map(|(_, h)| h).filter(|h| s.scenario.terrain_of.contains_key(h)).collect();
        if ns.is_empty() {
            break;
        }
        let next = match target {
            Some(t) if ch.roll(3) != 0 => *ns.iter().min_by_key(|h| (h.distance(t), **h))?,
            _ => ns[ch.roll(ns.len() as u32) as usize],
        };
        path.push(next);
        at = next;
    }
    // Face the goal: the vertex whose front holds the first step toward it.
    let facing = target
        .and_then(|t| at.neighbours().into_iter().min_by_key(|(_, h)| (h.distance(t), *h)).map(|(d, _)| d))
        .map(|d| crate::geo::facing::vertices_fronting(d)[ch.roll(2) as usize]);
    let forced = ch.roll(4) == 0;
    Some(Action::Move(Move { unit: id.to_string(), path, facing, forced }))
}

/// Entries of the formation's waiting reinforcements (JDG 5.2.2): one stack at a time, now
/// and then two units together, by forced or (one time in three) normal march, along a
/// greedy path toward the goal, shortened until the rules take it; a stack of two now and
/// then leaves its second unit on the way. Each is applied to `w`.
fn entries(w: &mut State, side: &str, formation: &str, ch: &mut Dice) -> Vec<Action> {
    let Some(entry) = w.scenario.schedule(formation).map(|r| r.entry) else { return vec![] };
    let mut out = Vec::new();
    loop {
        let ready: Vec<String> =
            w.units.iter().filter(|u| u.formation == formation && u.arrives.is_some_and(|t| t <= w.turn)).map(|u| u.id.clone()).collect();
        let Some(first) = ready.first().cloned() else { break };
        let mut units = vec![first];
        if ready.len() > 1 && ch.roll(3) == 0 {
            units.push(ready[1 + ch.roll(ready.len() as u32 - 1) as usize].clone());
        }
        let target = goal(w, side, entry);
        let mut path = vec![entry];
        for _ in 0..ch.roll(10) {
            let at = *path.last().unwrap_or(&entry);
            let Some(next) = at
                .neighbours()
                .into_iter()
                .map(|(_, h)| h)
                .filter(|h| w.scenario.terrain_of.contains_key(h) && !path.contains(h))
                .min_by_key(|h| (target.map(|t| h.distance(t)).unwrap_or(0), ch.roll(3), *h))
            else {
                break;
            };
            path.push(next);
        }
        let normal = ch.roll(3) == 0;
        let facing = target
            .and_then(|t| path.last().and_then(|at| at.neighbours().into_iter().min_by_key(|(_, h)| (h.distance(t), *h))))
            .map(|(d, _)| crate::geo::facing::vertices_fronting(d)[ch.roll(2) as usize]);
        let mut done = false;
        while !path.is_empty() {
            let mut leave = BTreeMap::new();
            if units.len() == 2 && path.len() > 2 && ch.roll(3) == 0 {
                leave.insert(units[1].clone(), path[path.len() / 2]);
            }
            let a = Action::Enter(super::reinforce::EnterOrder { units: units.clone(), path: path.clone(), facing, normal, leave });
            if turn::step(&mut w.clone(), side, &a).is_ok() && turn::step(w, side, &a).is_ok() {
                out.push(a);
                done = true;
                break;
            }
            path.pop();
        }
        if !done {
            // Nothing of this stack can enter now: the rest waits too (in column, 5.2.2).
            break;
        }
    }
    out
}

/// A random one- or two-hex move of the commander-in-chief.
fn chief_candidate(s: &State, side: &str, ch: &mut Dice) -> Option<Action> {
    let c = s.chief(side)?;
    let ns = c.hex.neighbours();
    let (_, h) = ns.get(ch.roll(ns.len().max(1) as u32) as usize)?;
    Some(Action::Chief(ChiefMove { path: vec![*h] }))
}

/// A melee declaration for the formation's stacks that face enemies, if any: each stack
/// attacks every enemy hex in its front that no earlier stack took (JDG 8.2).
fn melee_candidate(s: &State, side: &str, formation: &str) -> Option<MeleeOrder> {
    if s.melee_done {
        return None;
    }
    let mut hexes: Vec<HexId> =
        s.units.iter().filter(|u| u.formation == formation && u.kind != Kind::Artillery).filter_map(|u| u.hex).collect();
    hexes.sort();
    hexes.dedup();
    let mut combats: Vec<Combat> = Vec::new();
    let mut taken: Vec<HexId> = Vec::new();
    for a in hexes {
        let Some(v) = fighters(s, a).next().map(|u| u.facing) else { continue };
        let must: Vec<HexId> = obliged(s, side, a, v).into_iter().filter(|d| !s.units_at(*d).any(|e| s.meleed.contains(&e.id))).collect();
        let at: Vec<HexId> = must.iter().copied().filter(|d| !taken.contains(d)).collect();
        if must.is_empty() {
            continue;
        }
        if at.is_empty() {
            // Join the melee that took its front hexes (a combined melee, JDG 8.4.1).
            if let Some(c) = combats.iter_mut().find(|c| c.at.iter().any(|d| must.contains(d))) {
                c.from.push(a);
            }
            continue;
        }
        taken.extend(at.iter().copied());
        // Every other melee asks for the breakthrough melee a `BT` result allows (8.7.2).
        let breakthrough = combats.len().is_multiple_of(2);
        // Some melees ask for the advance after a cavalry refusal (8.8.1): odd turns' first,
        // third, … and even turns' second, fourth, …
        let advance_after_refusal = combats.len().is_multiple_of(2) == (s.turn % 2 == 1);
        combats.push(Combat {
            from: vec![a],
            at,
            turn: BTreeMap::new(),
            advance_from: None,
            advance_facing: None,
            breakthrough,
            advance_after_refusal,
        });
    }
    (!combats.is_empty()).then_some(MeleeOrder { combats })
}

/// A legal charge of one of the formation's cavalry stacks, if any: enemy hexes within
/// reach, each approached along a greedy path and checked by the rules (JDG 9.1).
fn charge_candidate(s: &State, side: &str, formation: &str, ch: &mut Dice) -> Option<ChargeOrder> {
    let mut found = Vec::new();
    let froms: Vec<HexId> = s
        .units
        .iter()
        .filter(|u| u.formation == formation && u.kind == Kind::Cavalry && !u.disordered && !s.acted.contains(&u.id))
        .filter_map(|u| u.hex)
        .collect();
    for from in froms {
        let targets: Vec<HexId> =
            s.units.iter().filter(|e| e.side != side).filter_map(|e| e.hex).filter(|h| h.distance(from) <= 5).collect();
        for at in targets {
            for (_, end) in at.neighbours() {
                if end == from || end.distance(from) > 4 {
                    continue;
                }
                let mut path = Vec::new();
                let mut here = from;
                while here != end && path.len() < 5 {
                    let Some(next) = here.neighbours().into_iter().map(|(_, n)| n).filter(|n| n.distance(end) < here.distance(end)).min()
                    else {
                        break;
                    };
                    path.push(next);
                    here = next;
                }
                if here != end {
                    continue;
                }
                let Some(d) = end.direction_to(at) else { continue };
                for v in crate::geo::facing::vertices_fronting(d) {
                    let c = ChargeOrder { from, path: path.clone(), at, facing: Some(v), recall: ch.roll(2) == 0, with: vec![] };
                    if turn::step(&mut s.clone(), side, &Action::Charge(c.clone())).is_ok() {
                        found.push(c);
                    }
                }
            }
        }
    }
    if found.is_empty() {
        return None;
    }
    // Where infantry of the formation can join (JDG 9.2), the bot takes one of those charges
    // half the time, combined: so bot games play the combined charge, rare otherwise.
    let mut combined: Vec<ChargeOrder> =
        found.iter().map(|c| combined_charge(s, side, formation, c.clone())).filter(|c| !c.with.is_empty()).collect();
    if !combined.is_empty() && ch.roll(2) == 0 {
        let i = ch.roll(combined.len() as u32) as usize;
        return Some(combined.swap_remove(i));
    }
    let i = ch.roll(found.len() as u32) as usize;
    Some(found.swap_remove(i))
}

#[cfg(test)]
mod tests {
    //! The bot's combined charge (JDG 9.2) on the prestate of the rule case
    //! `09.02-combined-charge-adds-the-charge-drm`: O'Reilly's hussars and the Wallis
    //! regiment next to the same French stack.
    use super::super::JoursDeGloire;
    use super::*;
    use crate::engine::cases::CaseRuleset;

    fn state(wallis: &str) -> State {
        let v: yaml_serde::Value = yaml_serde::from_str(&format!(
            "{{turn: 2, units: [{{id: AU-NAU, hex: \"0907\", facing: 5}}, {wallis}, \
             {{id: FR-30, hex: \"0707\", facing: 2, disordered: true}}], activate: oreilly, groups: {{oreilly-1: OR}}}}"
        ))
        .expect("yaml");
        JoursDeGloire::case_state(&v).expect("case state")
    }

    fn charge() -> ChargeOrder {
        let h = |s: &str| s.parse::<HexId>().expect("hex");
        ChargeOrder { from: h("0907"), path: vec![h("0807")], at: h("0707"), facing: None, recall: false, with: vec![] }
    }

    #[test]
    fn the_bot_joins_the_infantry_next_to_the_target() {
        let s = state("{id: AU-WAL, hex: \"0808\", facing: 5}");
        let c = combined_charge(&s, "austrian", "oreilly", charge());
        assert_eq!(c.with, vec!["0808".parse::<HexId>().expect("hex")]);
        assert!(turn::step(&mut s.clone(), "austrian", &Action::Charge(c)).is_ok());
    }

    /// The exceptions the rules state: disordered infantry never joins, nor infantry whose
    /// front does not hold the target; the charge then goes in alone.
    #[test]
    fn the_bot_charges_alone_when_the_infantry_may_not_join() {
        for wallis in ["{id: AU-WAL, hex: \"0808\", facing: 5, disordered: true}", "{id: AU-WAL, hex: \"0808\", facing: 2}"] {
            let s = state(wallis);
            let c = combined_charge(&s, "austrian", "oreilly", charge());
            assert!(c.with.is_empty(), "{wallis}: {:?}", c.with);
        }
    }
}
