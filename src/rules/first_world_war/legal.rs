//! Random legal orders (the bot, property tests): candidates are drawn at random and kept
//! only if [`super::check`] accepts them; passing is always legal in a round.

use super::orders::{Action, Orders, Placement};
use super::pieces::{self, Ident};
use super::scenario::Faction;
use super::state::{CombatStep, Stage, State, Where};
use super::turn::{awaited, capacity, due, replaceable, uncovered, usable_nations};
use crate::dice::Dice;

fn pick<T: Clone>(ch: &mut Dice, v: &[T]) -> Option<T> {
    if v.is_empty() {
        return None;
    }
    let n = u32::try_from(v.len()).unwrap_or(u32::MAX);
    Some(v[ch.roll(n) as usize].clone())
}

/// The orders as the seat writes them, kept if they pass the rules once concealed exactly
/// as the author's tool will (commitments and openings applied on a copy).
/// `actions` as legal orders of `seat` (through the author's `conceal` and the hidden acts),
/// adding the 6.2.1 return a full hand owes when it is missing (`chits::with_limit_return`).
pub fn ok(s: &State, seat: &str, actions: Vec<Action>) -> Option<Orders> {
    super::chits::with_limit_return(s, seat, actions).into_iter().find_map(|a| ok_as_written(s, seat, a))
}

pub(super) fn ok_as_written(s: &State, seat: &str, actions: Vec<Action>) -> Option<Orders> {
    use crate::engine::{Committed, HiddenActs, Opened, Ruleset};
    let o = Orders { actions };
    // A trial: the order of the ids does not change what is legal, and the entry the bot
    // sends is concealed again by the author's tool with the seat's own order.
    let c = <super::FirstWorldWar as Ruleset>::conceal(s, seat, o.clone(), &crate::engine::IdOrder::trial()).ok()?;
    let mut t = s.clone();
    let opened = c
        .open
        .iter()
        .map(|id| {
            let value = match pieces::find(s, id) {
                Some(k) => s.pieces[k].ident.map(|i| pieces::value_of(s, i)),
                None => super::chits::own_value(s, seat, id),
            };
            value.map(|value| Opened { id: id.clone(), value, draw: None })
        })
        .collect::<Option<Vec<_>>>()?;
    let mut acts =
        HiddenActs { committed: c.commit.iter().map(|(id, v)| Committed { id: id.clone(), value: Some(v.clone()) }).collect(), opened };
    <super::FirstWorldWar as Ruleset>::hidden(&mut t, seat, &mut acts).ok()?;
    super::check(&t, seat, &c.orders).is_empty().then_some(o)
}

/// Real armies `f` may attack with on a front: face up, or face down and hidden by `seat`
/// itself (it opens them in the attack entry), or hidden by its partner and known to it (5.1:
/// the attack names the piece and the partner turns it up).
fn attackers(s: &State, f: Faction, front: u8) -> Vec<usize> {
    let mut v = s.real_of(f, front);
    for p in s.pieces.iter().filter(|p| p.front == front && pieces::controller(p) == f) {
        if let Some(Ident::Army(a)) = p.ident {
            v.push(a);
        }
    }
    v
}

fn deployment(s: &State, f: Faction, ch: &mut Dice) -> Vec<Placement> {
    let (mut armies, dummies) = due(s, f);
    ch.shuffle(&mut armies);
    let mut out = Vec::new();
    // Garrison duty first, the most constrained front first.
    let mut open = uncovered(s, f);
    open.sort_by_key(|&g| armies.iter().filter(|&&a| s.may_enter(a, g)).count());
    for g in open {
        if let Some(pos) = armies.iter().position(|&a| s.may_enter(a, g)) {
            let a = armies.remove(pos);
            out.push(Placement { piece: s.name(a).to_string(), front: g });
        }
    }
    // Then the Brest-Litovsk minimums (8.1).
    for g in super::turn::brest_slots(s, f) {
        if let Some(pos) = armies.iter().position(|&a| s.may_enter(a, g)) {
            let a = armies.remove(pos);
            out.push(Placement { piece: s.name(a).to_string(), front: g });
        }
    }
    let fronts: Vec<u8> = s.data.fronts.keys().copied().collect();
    for a in armies {
        let ok: Vec<u8> = fronts.iter().copied().filter(|&fr| s.may_enter(a, fr)).collect();
        if let Some(fr) = pick(ch, &ok) {
            out.push(Placement { piece: s.name(a).to_string(), front: fr });
        }
    }
    let ok: Vec<u8> = fronts.iter().copied().filter(|&fr| s.dummy_may_enter(f, fr)).collect();
    for _ in 0..dummies {
        if let Some(fr) = pick(ch, &ok) {
            out.push(Placement { piece: "dummy".into(), front: fr });
        }
    }
    // The order of placements is the order of the new piece ids: it must not tell which
    // placement was a dummy or a garrison.
    ch.shuffle(&mut out);
    out
}

fn pieces_on(s: &State, f: Faction, front: u8) -> Vec<String> {
    let mut v: Vec<String> = s.real_of(f, front).into_iter().map(|a| s.name(a).to_string()).collect();
    for d in s.dummies_on(front) {
        if s.dummy_controller(d) == f {
            v.push("dummy".into());
        }
    }
    v.extend(s.pieces.iter().filter(|p| p.front == front && pieces::controller(p) == f).map(|p| p.id.clone()));
    v
}

fn round_action(s: &State, f: Faction, ch: &mut Dice) -> Action {
    let fronts: Vec<u8> = s.data.fronts.keys().copied().collect();
    let kind = ch.roll(10);
    if kind < 5 {
        let targets: Vec<u8> = fronts
            .iter()
            .copied()
            .filter(|&fr| {
                !attackers(s, f, fr).is_empty()
                    && (s.armies_on(fr).iter().any(|&a| s.data.armies[a].faction.enemy_of(f))
                        || s.dummies_on(fr).iter().any(|&d| s.dummies[d].faction.enemy_of(f))
                        || s.pieces.iter().any(|p| p.front == fr && p.faction.enemy_of(f)))
            })
            .collect();
        if let Some(fr) = pick(ch, &targets) {
            let mut own = attackers(s, f, fr);
            ch.shuffle(&mut own);
            let n = 1 + ch.roll(u32::try_from(own.len()).unwrap_or(1)) as usize;
            let armies = own.into_iter().take(n).map(|a| s.name(a).to_string()).collect();
            return Action::Attack { front: fr, armies, capture: vec![] };
        }
    }
    let origins: Vec<u8> = fronts.iter().copied().filter(|&fr| !pieces_on(s, f, fr).is_empty()).collect();
    let Some(from) = pick(ch, &origins) else { return Action::Pass };
    let mut mine = pieces_on(s, f, from);
    ch.shuffle(&mut mine);
    if kind < 8 {
        let adj = s.data.fronts[&from].adjacent.clone();
        if adj.is_empty() {
            return Action::Pass;
        }
        let n = 1 + ch.roll(u32::try_from(mine.len()).unwrap_or(1)) as usize;
        let pieces = mine.into_iter().take(n).map(|p| Placement { piece: p, front: pick(ch, &adj).unwrap_or(from) }).collect();
        Action::Move { from, pieces }
    } else {
        let n = 1 + ch.roll(2) as usize;
        let to = pick(ch, &fronts).unwrap_or(from);
        Action::Transfer { from, to, pieces: mine.into_iter().take(n).collect() }
    }
}

/// Random legal orders for `seat`, or `None` if nothing is expected of it.
pub fn random_orders(s: &State, seat: &str, ch: &mut Dice) -> Option<Orders> {
    let (who, f, _) = awaited(s)?;
    if who != seat {
        return None;
    }
    // Now and then give back a chit the seat can never use (6.2.1).
    let mut prefix = Vec::new();
    let usable = usable_nations(s, seat);
    if let Some(&c) = s.hands.get(seat).and_then(|h| h.iter().find(|&&c| !s.data.chits[c].nations.iter().any(|n| usable.contains(n))))
        && ch.roll(2) == 0
    {
        prefix.push(Action::ReturnChit(s.chit_name(c).to_string()));
    }
    // Hidden chits: now and then decline the draw an S won (6.2; it is made in this entry).
    let decline = s.chits.hidden && s.chits.owed.iter().any(|o| o.seat == seat) && ch.roll(4) == 0;
    let okp = |v: Vec<Action>| ok(s, seat, if decline { std::iter::once(Action::Draw(false)).chain(v).collect() } else { v });
    let with = |mut v: Vec<Action>, a: Action| {
        v.push(a);
        v
    };
    let hand: Vec<Option<String>> =
        std::iter::once(None).chain(s.hands.get(seat).into_iter().flatten().map(|&c| Some(s.chit_name(c).to_string()))).collect();
    match &s.stage {
        // The pieces the rules turn face down are the tool's to hide (`pieces::conceal`).
        Stage::Deploy(_) => {
            for _ in 0..20 {
                if let Some(o) = okp(with(prefix.clone(), Action::Deploy(deployment(s, f, ch)))) {
                    return Some(o);
                }
            }
            None
        }
        Stage::Round => {
            for _ in 0..6 {
                let a = round_action(s, f, ch);
                if let Some(o) = okp(with(prefix.clone(), a)) {
                    return Some(o);
                }
            }
            okp(with(prefix, Action::Pass))
        }
        Stage::Reveal => okp(vec![Action::Reveal(vec![])]),
        Stage::Combat => {
            let c = s.combat.as_ref()?;
            let mut options: Vec<Vec<Action>> = Vec::new();
            match c.step {
                CombatStep::DefenderChit => {
                    for h in &hand {
                        options.push(vec![Action::Chit(h.clone())]);
                    }
                }
                CombatStep::AttackerChitLead => {
                    for h in &hand {
                        for &a in &c.attackers {
                            options.push(vec![Action::Chit(h.clone()), Action::Lead { army: s.name(a).to_string() }]);
                        }
                    }
                }
                CombatStep::DefenderLead => {
                    for &a in &c.defenders {
                        options.push(vec![Action::Lead { army: s.name(a).to_string() }]);
                    }
                }
                CombatStep::Roll | CombatStep::DrawRoll => return None,
                // 6.2 (open chits): draw after an S, three times in four.
                CombatStep::Draw => options.push(vec![Action::Draw(ch.roll(4) != 0)]),
                CombatStep::Reveal => options.push(vec![Action::Reveal(vec![])]),
            }
            let legal: Vec<Orders> = options.into_iter().filter_map(&okp).collect();
            pick(ch, &legal)
        }
        Stage::Discard(q) => {
            let new = q.first()?.1;
            let old: Vec<usize> = s.hands.get(seat)?.iter().copied().filter(|&c| c != new).collect();
            let c = pick(ch, &old)?;
            okp(vec![Action::Discard(s.chit_name(c).to_string())])
        }
        Stage::PeaceOffer => okp(with(prefix, Action::OfferPeace(ch.roll(2) == 0))),
        Stage::PeaceAnswer => okp(with(prefix, Action::AcceptPeace(ch.roll(2) == 0))),
        Stage::Replace(_) => {
            let mut list = replaceable(s, f);
            ch.shuffle(&mut list);
            list.truncate(capacity(s, f));
            let names = list.into_iter().filter(|&a| s.armies[a] == Where::Eliminated).map(|a| s.name(a).to_string()).collect();
            okp(with(prefix, Action::Replace(names)))
        }
        Stage::Surrender | Stage::Over | Stage::OrderRoll => None,
        Stage::OrderPick => {
            let (deploy, round) = super::order::random_pick(s, ch)?;
            okp(with(prefix, Action::PickOrder { deploy, round }))
        }
        Stage::Capture(q) => {
            let &(_, front) = q.first()?;
            let list = super::victory::capturable(s, f, front, super::victory::Mode::Unopposed);
            let c = pick(ch, &list)?;
            okp(with(prefix, Action::Capture { front, city: s.data.cities[c].name.clone() }))
        }
    }
}
