//! The bot: purposeful but random legal orders for what is expected now. Every action is
//! tried on a copy of the state with the same code that validates orders, so the result
//! always validates; all choices come from the chooser dice, so a game is reproducible.
//!
//! How it plays: in movement, units in contact with the enemy hold (to make prepared assaults)
//! and most other stacks march towards their side's objectives (German: Paris, Melun and the
//! Allied-held VP towns; Allied: the German-held VP towns and the German line), sometimes
//! ending with a march assault at 2:1 or better. In the prepared-assault phase it looks at every
//! enemy stack it can reach, combines the adjacent stacks that may attack it (concentric
//! positions come by themselves), and attacks the best odds at 2:1 or better (now and then
//! 1:1). After combat: losses go to the strongest units, mandatory retreats pick a random legal
//! hex, weak defenders take optional retreats, and survivors usually advance.
//!
//! Hidden stacks (GE 13.8): the bot decides on [`counters::unmasked`], its own counters as the
//! units they are and the enemy's as placeholders. Its simulation opens what the author's tool
//! ([`counters::conceal`]) will open (units named by any order but a move, cavalry-only moves,
//! counters phase G reaches, everything at the end), so what it writes validates. Before ending
//! some combat phases it hides all but one unit of some stacks, and it opens its counters when
//! the game is over.
//!
//! Dummies (GE 15): its own dummies appear in [`counters::unmasked`] as units with `dummy`
//! set (no SL, 4 MP). Any order but a move would open one, and an opened dummy is removed, so
//! only moves ever name a dummy ([`orderable`] keeps them out of attacks, march assaults,
//! forced marches, entrenching, strategic movement, replacements, losses and advances). They
//! go ahead of the army to quiet hexes (sometimes into contact), now and then join or ride
//! with real stacks, and with dummies in play some hides take a whole stack (reading D8). A
//! force whose march assault found only dummies moves on; after a prepared assault on dummies
//! it usually advances whole, which lets it attack again. At phase G its out-of-supply
//! dummies stay hidden (the claim) while its real units there are opened (`opened_by`).

use super::combat::{self, RetreatTo};
use super::counters;
use super::orders::{Action, ActionKind, Assault, Decide, Enter, Loss, Move, Orders, PhaseName};
use super::standing::{Choice, Standing};
use super::state::{BattleKind, Kind, MoveState, Phase, Place, SideId, Stage, State};
use super::tables::Odds;
use super::turn;
use super::vp;
use crate::dice::Dice;
use crate::geo::hex::HexId;

fn pick<T: Clone>(d: &mut Dice, v: &[T]) -> Option<T> {
    if v.is_empty() { None } else { Some(v[d.roll(v.len() as u32) as usize].clone()) }
}

/// One chance in `n`.
fn one_in(d: &mut Dice, n: u32) -> bool {
    d.roll(n) == 0
}

/// GE 15: may the bot give this unit an order other than a move? Not a dummy: any other
/// order opens the counter it names (`counters::opened_by`), and an opened dummy is removed.
fn orderable(u: &super::state::Unit) -> bool {
    !u.dummy
}

/// The ids among `ids` that [`orderable`] allows (a dummy is left out).
fn orderable_ids(s: &State, ids: &[String]) -> Vec<String> {
    ids.iter().filter(|id| s.unit(id).is_some_and(orderable)).cloned().collect()
}

fn try_push(s: &mut State, side: SideId, acts: &mut Vec<Action>, mut a: ActionKind) -> bool {
    let mut probe = s.clone();
    open_for(&mut probe, side, &mut a);
    if turn::step(&mut probe, side, &a).is_ok() {
        *s = probe;
        acts.push(Action(a));
        true
    } else {
        false
    }
}

/// GE 13.8: open, in the simulation, the own hidden counters that `a` may not name while
/// hidden, as the author's tool will open them (`counters::conceal`), and name them in `a` by
/// their units' ids (what the entry's orders say once they are opened).
fn open_for(s: &mut State, side: SideId, a: &mut ActionKind) {
    if !counters::enabled(s) {
        return;
    }
    if matches!(a, ActionKind::OpenCounters(_)) {
        // The tool opens the sealed setup plan with the counters (GE 3.3).
        if let Some(c) = s.counters.as_mut() {
            c.sealed_plans.remove(&side);
        }
    }
    // The same counters the author's tool opens (`counters::conceal`); `open_known` skips ids
    // that are not own hidden counters.
    let ids = counters::opened_by(s, side, a);
    for id in ids {
        if let Some(uid) = counters::open_known(s, &id) {
            counters::rename_units(a, &id, &uid);
        }
    }
}

/// The units of the last action if it is a move or a forced march (their ids change when the
/// simulation opened them).
fn last_units(acts: &[Action]) -> Option<Vec<String>> {
    match &acts.last()?.0 {
        ActionKind::Move(m) => Some(m.units.clone()),
        ActionKind::ForcedMarch(v) => Some(v.clone()),
        _ => None,
    }
}

/// GE 13.8: hide `units` (one hex, one nationality), listed in the order given: the author's
/// tool commits one fresh counter per unit in that order, which the simulation does too.
fn try_hide(s: &mut State, side: SideId, acts: &mut Vec<Action>, units: Vec<String>) -> bool {
    let mut probe = s.clone();
    let values: Vec<String> = units.iter().filter_map(|id| probe.unit(id)).map(counters::value_of).collect();
    let Some(c) = probe.counters.as_mut() else { return false };
    let first = c.next;
    c.fresh = values.into_iter().enumerate().map(|(i, v)| (format!("{}{}", counters::PREFIX, first + i as u32), Some(v))).collect();
    let a = ActionKind::Hide(counters::Hide { units });
    if turn::step(&mut probe, side, &a).is_ok() {
        // The new counters are checked as what they are from the next action on (`check`).
        *s = counters::unmasked(&probe);
        acts.push(Action(a));
        true
    } else {
        false
    }
}

/// GE 13.8, before the combat phase ends (no battle): now and then, for some own stacks with
/// two or more hideable units shown, hide all of them but one (one hide per nationality), in a
/// random order (the order written decides which counter is which). Units phase G would find
/// out of supply stay shown: the entry ends the combat phase, and attrition reaches only
/// known units. The hides are kept only if the phase may still end after them.
fn hide_stacks(s: &mut State, side: SideId, acts: &mut Vec<Action>, d: &mut Dice) {
    if !counters::enabled(s) || s.battle.is_some() || !one_in(d, 2) {
        return;
    }
    let shown = |s: &State, h: HexId| -> Vec<String> {
        s.units_at(h).filter(|u| u.side == side && !counters::is_hidden(u) && counters::hideable(u)).map(|u| u.id.clone()).collect()
    };
    let mut hexes: Vec<HexId> = s.units.iter().filter(|u| u.side == side).filter_map(|u| u.hex()).collect();
    hexes.sort();
    hexes.dedup();
    // With dummies (reading D8) a stack may go under counters whole: no shown top is needed.
    let whole = counters::dummies_on(s);
    hexes.retain(|&h| shown(s, h).len() >= if whole { 1 } else { 2 });
    let mut trial = s.clone();
    let mut hides = Vec::new();
    for h in hexes {
        if one_in(d, 2) {
            continue;
        }
        let mut units = shown(&trial, h);
        if units.is_empty() || (units.len() < 2 && !whole) {
            continue;
        }
        // The top unit stays shown, but with dummies now and then none does.
        if !(whole && one_in(d, 2)) {
            units.swap_remove(d.roll(units.len() as u32) as usize);
        }
        let supplied = super::supply::SupplyAll::of(&trial);
        units.retain(|id| trial.unit(id).is_some_and(|u| supplied.unit(u, super::supply::Use::Attrition)));
        // A random order: the chooser's shuffle.
        for i in (1..units.len()).rev() {
            units.swap(i, d.roll(i as u32 + 1) as usize);
        }
        let mut nations: Vec<String> = units.iter().filter_map(|id| trial.unit(id)).map(|u| u.nation.clone()).collect();
        nations.sort();
        nations.dedup();
        for n in nations {
            let group: Vec<String> = units.iter().filter(|id| trial.unit(id).is_some_and(|u| u.nation == n)).cloned().collect();
            try_hide(&mut trial, side, &mut hides, group);
        }
    }
    if hides.is_empty() {
        return;
    }
    let mut after = trial.clone();
    if try_push(&mut after, side, &mut Vec::new(), ActionKind::EndPhase(PhaseName::Combat)) {
        *s = trial;
        acts.extend(hides);
    }
}

/// A loss allocation for the decision `seat` owes, written into its template: the spread the
/// bot would take (ties broken the same way every time), kept only if the rules accept it as
/// the whole decision. `None` when no loss is owed or the spread alone is not a legal answer.
pub fn example_losses(state: &State, seat: &str) -> Option<Vec<Loss>> {
    let b = state.battle.as_ref()?;
    let (live, lp) = match b.stage {
        Stage::Defender { lp, .. } => (combat::live_defenders(state), lp),
        Stage::Attacker { lp } => (combat::live_attackers(state), lp),
        _ => return None,
    };
    if lp == 0 {
        return None;
    }
    let losses = spread_losses(state, &live, lp, &mut Dice::forced(vec![0; 64]));
    let decide = ActionKind::Decide(Decide { losses: losses.clone(), retreat: None, advance: vec![] });
    let orders = Orders { actions: vec![Action(decide)] };
    (!losses.is_empty() && super::check(state, seat, &orders).is_empty()).then_some(losses)
}

/// Losses taken SL by SL from the unit with the most SL left (ties at random): units stay in
/// play as long as possible.
fn spread_losses(state: &State, units: &[String], lp: u32, d: &mut Dice) -> Vec<Loss> {
    if combat::forced_allocation(state, units, lp).is_some() {
        return vec![];
    }
    let mut left: Vec<(String, u32)> =
        units.iter().filter_map(|id| state.unit(id)).filter(|u| u.mobile() && orderable(u)).map(|u| (u.id.clone(), u.sl as u32)).collect();
    let mut out: Vec<Loss> = Vec::new();
    for _ in 0..lp {
        let top = left.iter().map(|(_, s)| *s).max().unwrap_or(0);
        if top == 0 {
            break;
        }
        let best: Vec<usize> = (0..left.len()).filter(|&i| left[i].1 == top).collect();
        let Some(i) = pick(d, &best) else { break };
        left[i].1 -= 1;
        match out.iter_mut().find(|l| l.unit == left[i].0) {
            Some(l) => l.sl += 1,
            None => out.push(Loss { unit: left[i].0.clone(), sl: 1 }),
        }
    }
    out
}

fn decision(state: &State, side: SideId, d: &mut Dice) -> Option<ActionKind> {
    let b = state.battle.as_ref()?;
    let mut cands: Vec<Decide> = Vec::new();
    match b.stage {
        Stage::Defender { lp, .. } => {
            let live = combat::live_defenders(state);
            let losses = spread_losses(state, &live, lp, d);
            let mut probe = state.clone();
            for l in &losses {
                vp::lose(&mut probe, &l.unit, l.sl);
            }
            let surv: Vec<String> =
                combat::live_defenders(&probe).into_iter().filter(|id| probe.unit(id).is_some_and(|u| u.mobile())).collect();
            let opts: Vec<HexId> = if surv.is_empty() {
                vec![]
            } else {
                combat::retreat_options(&probe, b.target, side, &surv)
                    .into_iter()
                    .filter_map(|o| if let RetreatTo::Hex(h) = o { Some(h) } else { None })
                    .collect()
            };
            // A weak stack gives ground when it may; a strong one mostly stands.
            let left_sl: u32 = surv.iter().filter_map(|id| probe.unit(id)).map(|u| u.sl as u32).sum();
            let give_ground = left_sl <= 2 || one_in(d, 3);
            let retreat = if give_ground { pick(d, &opts) } else { None };
            cands.push(Decide { losses: losses.clone(), retreat, advance: vec![] });
            if let Some(h) = pick(d, &opts) {
                cands.push(Decide { losses: losses.clone(), retreat: Some(h), advance: vec![] });
            }
            cands.push(Decide { losses: losses.clone(), retreat: None, advance: vec![] });
            for h in opts {
                cands.push(Decide { losses: losses.clone(), retreat: Some(h), advance: vec![] });
            }
        }
        Stage::Attacker { lp } => {
            let live = combat::live_attackers(state);
            let losses = spread_losses(state, &live, lp, d);
            let mut probe = state.clone();
            for l in &losses {
                vp::lose(&mut probe, &l.unit, l.sl);
            }
            let surv = orderable_ids(&probe, &combat::live_attackers(&probe));
            // Advance with everyone if possible (GE-13.21), else with what fits, else a few.
            if !one_in(d, 6) {
                cands.push(Decide { losses: losses.clone(), retreat: None, advance: surv.clone() });
                let mut some = surv.clone();
                while some.len() > 1 {
                    some.pop();
                    cands.push(Decide { losses: losses.clone(), retreat: None, advance: some.clone() });
                }
                for id in &surv {
                    cands.push(Decide { losses: losses.clone(), retreat: None, advance: vec![id.clone()] });
                }
            }
            cands.push(Decide { losses, retreat: None, advance: vec![] });
        }
        Stage::Withdraw => {
            // GE-13.25: outnumbered cavalry usually gives ground.
            let opts = combat::withdraw_options(state).map(|(_, o)| o).unwrap_or_default();
            let hexes: Vec<HexId> = opts.iter().filter_map(|o| if let RetreatTo::Hex(h) = o { Some(*h) } else { None }).collect();
            if !one_in(d, 4)
                && let Some(h) = pick(d, &hexes)
            {
                cands.push(Decide { losses: vec![], retreat: Some(h), advance: vec![] });
            }
            cands.push(Decide::default());
        }
        Stage::Roll | Stage::Opening { .. } => return None,
    }
    for c in cands {
        let a = ActionKind::Decide(c);
        let mut probe = state.clone();
        let mut opened = a.clone();
        open_for(&mut probe, side, &mut opened);
        if turn::step(&mut probe, side, &opened).is_ok() {
            return Some(a);
        }
    }
    None
}

/// GE 10.4 (Hentsch): the German units bound to leave the Paris perimeter go on leaving it,
/// one hex nearer the outside at a time, before the movement phase may end.
fn hentsch_leave(s: &mut State, side: SideId, acts: &mut Vec<Action>) {
    let Some(bound) = super::hentsch::active(s).map(|b| b.to_vec()) else { return };
    for id in bound {
        let mut steps = 0;
        while let Some(n) = super::hentsch::step_out(s, &id) {
            steps += 1;
            if steps > 40 || !try_push(s, side, acts, ActionKind::Move(Move { units: vec![id.clone()], path: vec![n] })) {
                break;
            }
        }
    }
}

/// Phase B (GE-9): infantry in contact digs in next to enemy trenches, and now and then the
/// entrenchment roll is made (which ends the entry) and, after a 1–3, a unit in contact digs.
/// Entrenchment after the roll that opened the player turn, and free digging (GE 9.1).
fn entrenchment(s: &mut State, side: SideId, acts: &mut Vec<Action>, d: &mut Dice) {
    use super::entrench::{FROM_TURN, Roll};
    if s.turn < FROM_TURN {
        return;
    }
    let mut contact: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.side == side && u.kind == Kind::Infantry && orderable(u) && !u.replaced && !u.entrenching)
        .filter(|u| u.hex().is_some_and(|h| adjacent_to_enemy(s, h, side) && !s.trenches.contains_key(&h)))
        .map(|u| u.id.clone())
        .collect();
    // Free digging first (it needs no roll); a refused try costs nothing.
    for id in contact.clone() {
        let free = s
            .unit(&id)
            .and_then(|u| u.hex())
            .is_some_and(|h| s.board.neighbours(h).iter().any(|&n| super::entrench::entrenched(s, n, side.other())));
        if free && !one_in(d, 3) && try_push(s, side, acts, ActionKind::Entrench(vec![id.clone()])) {
            contact.retain(|x| *x != id);
        }
    }
    match s.entrench {
        Some(Roll::Rolled { die, used: false }) if die <= 3 => {
            for _ in 0..4 {
                let Some(id) = pick(d, &contact) else { break };
                if try_push(s, side, acts, ActionKind::Entrench(vec![id])) {
                    break;
                }
            }
        }
        _ => {}
    }
}

/// Fill what `st` leaves to be asked, so every defender decision is answered in advance.
fn complete_standing(st: &mut Standing, d: &mut Dice) {
    use super::standing::{Choice, LossKey, LossRule, OocKey, OocRule, RetreatKey, RetreatRule};
    if st.losses.is_empty() {
        st.losses.push(LossRule::Named(LossKey::Spread));
    }
    if st.retreat.is_empty() {
        st.retreat.push(RetreatRule::Named(if one_in(d, 2) { RetreatKey::TowardSupply } else { RetreatKey::WithFriends }));
    }
    st.optional_retreat.get_or_insert(if one_in(d, 2) { Choice::Always } else { Choice::Never });
    st.cavalry_withdraws.get_or_insert(if one_in(d, 2) { Choice::Always } else { Choice::Never });
    if st.out_of_command.is_empty() {
        st.out_of_command.push(OocRule::Named(OocKey::InContact));
    }
    st.advance.get_or_insert(if one_in(d, 4) { Choice::Never } else { Choice::Always });
}

/// Random standing instructions from the whole vocabulary (`standing.rs`).
fn random_standing(s: &State, side: SideId, d: &mut Dice) -> Standing {
    use super::standing::{FirstUnits, LastUnits, LossKey, LossRule, RetreatKey, RetreatRule, TowardHex};
    let mut st = Standing::default();
    let keys = [LossKey::CavalryFirst, LossKey::InfantryFirst, LossKey::StrongestFirst, LossKey::WeakestFirst, LossKey::Spread];
    // Shown units only: a hidden counter the same entry opens goes by its unit's id (GE 13.8).
    let own: Vec<String> =
        s.units.iter().filter(|u| u.side == side && u.hex().is_some() && !counters::is_hidden(u)).map(|u| u.id.clone()).collect();
    for _ in 0..d.roll(3) {
        match d.roll(7) {
            0 => st.losses.extend(pick(d, &own).map(|id| LossRule::First(FirstUnits { first: vec![id] }))),
            1 => st.losses.extend(pick(d, &own).map(|id| LossRule::Last(LastUnits { last: vec![id] }))),
            _ => st.losses.extend(pick(d, &keys).map(LossRule::Named)),
        }
    }
    let rkeys = [RetreatKey::TowardSupply, RetreatKey::WithFriends, RetreatKey::Alone];
    for _ in 0..d.roll(3) {
        if one_in(d, 3) {
            st.retreat.extend(pick(d, s.board.hex_ids()).map(|h| RetreatRule::Toward(TowardHex { toward: h })));
        } else {
            st.retreat.extend(pick(d, &rkeys).map(RetreatRule::Named));
        }
    }
    let choices = [None, Some(Choice::Always), Some(Choice::Never)];
    st.optional_retreat = pick(d, &choices).flatten();
    st.cavalry_withdraws = pick(d, &choices).flatten();
    st.advance = pick(d, &choices).flatten();
    if one_in(d, 2) {
        use super::standing::{OocHexes, OocKey, OocRule};
        let keys = [OocKey::InContact, OocKey::Strongest];
        st.out_of_command.extend(pick(d, &keys).map(OocRule::Named));
        if one_in(d, 3) {
            let theirs: Vec<HexId> = s.units.iter().filter(|u| u.side != side).filter_map(|u| u.hex()).collect();
            st.out_of_command.extend(pick(d, &theirs).map(|h| OocRule::Hexes(OocHexes { hexes: vec![h] })));
        }
    }
    st
}

/// Where a side wants to go: its objectives (GE-16.4) and the enemy's positions.
fn objectives(s: &State, side: SideId) -> Vec<HexId> {
    let mut out = Vec::new();
    match side {
        SideId::German => {
            out.extend(s.german_auto_win.iter().copied());
            // The campaign's German aims at Paris (GE 17.3) past everything else but the enemy.
            if s.campaign.is_some() {
                for p in s.board.paris_hexes() {
                    out.push(p);
                    out.extend(s.board.neighbours(p).iter().copied());
                }
                return out;
            }
            out.extend(s.town_vp.iter().filter(|(h, _, _)| s.control(*h) != Some(SideId::German)).map(|(h, _, _)| *h));
        }
        SideId::Allied => {
            out.extend(s.town_vp.iter().filter(|(h, _, _)| s.control(*h) != Some(SideId::Allied)).map(|(h, _, _)| *h));
        }
    }
    out
}

/// Hex distances (in hexes, around enemy-occupied hexes) to the nearest goal: an objective,
/// or a hex next to an enemy unit. Dense by board index; `u32::MAX` if unreachable.
fn goal_field(s: &State, side: SideId) -> Vec<u32> {
    field_from(s, side, &objectives(s, side), true)
}

/// The campaign bot's part for a stack (issue 3: a recognisable 1914).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// March on the objectives and the enemy (the German right wing; the Allied field army).
    Field,
    /// German: hold the cities of Lorraine and Alsace (or go to one nobody holds).
    Garrison,
    /// Allied: out of supply or worn out: fall back towards supply and Paris.
    FallBack,
    /// Allied: hold the ground before Paris while the German is near.
    Screen,
}

/// A mobile unit of `side` holds `h` (a fortress alone does not count as a garrison).
fn held_by_mobile(s: &State, h: HexId, side: SideId) -> bool {
    s.units_at(h).any(|u| u.side == side && u.mobile() && orderable(u))
}

/// The German cities of the Franco-German border (Lorraine, Alsace: south of row 26).
fn border_cities(s: &State) -> Vec<HexId> {
    super::campaign::german_cities(s).into_iter().filter(|h| h.row >= 27).collect()
}

/// The role of the stack in `from` (campaigns only; the Marne bot plays as before).
fn role(s: &State, side: SideId, from: HexId) -> Role {
    if s.campaign.is_none() {
        return Role::Field;
    }
    let b = &s.board;
    let paris = b.paris_hexes();
    let ours: Vec<&super::state::Unit> = s.units_at(from).filter(|u| u.side == side && u.mobile() && orderable(u)).collect();
    match side {
        SideId::German => {
            let in_germany = b.hex(from).is_some_and(|i| i.country == super::map::Country::Germany);
            if in_germany && from.row >= 27 { Role::Garrison } else { Role::Field }
        }
        SideId::Allied => {
            let sl: u32 = ours.iter().map(|u| u.sl as u32).sum();
            let worn = ours.iter().all(|u| u.sl as u32 * 2 <= u.max_sl as u32);
            if ours.iter().any(|u| u.oos_at_start) || sl <= 1 || worn {
                return Role::FallBack;
            }
            let near_paris = |h: HexId, k: u32| paris.iter().any(|p| p.distance(h) <= k);
            let german_near = s.units.iter().any(|u| u.side == SideId::German && u.hex().is_some_and(|h| near_paris(h, 10)));
            if near_paris(from, 4) && (german_near || s.turn >= 4) { Role::Screen } else { Role::Field }
        }
    }
}

/// Distances to the nearest of `seeds` (and, with `engage`, of the hexes next to enemy
/// units), never through enemy-occupied hexes. Dense by board index; `u32::MAX` if unreachable.
fn field_from(s: &State, side: SideId, seeds: &[HexId], engage: bool) -> Vec<u32> {
    let b = &s.board;
    let n = b.len();
    let mut enemy = vec![false; n];
    for u in &s.units {
        if u.side != side
            && let Some(i) = u.hex().and_then(|h| b.index(h))
        {
            enemy[i] = true;
        }
    }
    let mut dist = vec![u32::MAX; n];
    let mut ring = Vec::new();
    let seed = |h: HexId, dist: &mut Vec<u32>, ring: &mut Vec<HexId>| {
        if let Some(i) = b.index(h)
            && !enemy[i]
            && dist[i] != 0
        {
            dist[i] = 0;
            ring.push(h);
        }
    };
    for &h in seeds {
        seed(h, &mut dist, &mut ring);
    }
    for (i, &h) in b.hex_ids().iter().enumerate() {
        if engage && enemy[i] {
            for &m in b.neighbours(h) {
                seed(m, &mut dist, &mut ring);
            }
        }
    }
    let mut k = 0;
    while !ring.is_empty() {
        k += 1;
        let mut next = Vec::new();
        for h in ring {
            for &m in b.neighbours(h) {
                if let Some(j) = b.index(m)
                    && !enemy[j]
                    && dist[j] == u32::MAX
                {
                    dist[j] = k;
                    next.push(m);
                }
            }
        }
        ring = next;
    }
    dist
}

fn adjacent_to_enemy(s: &State, h: HexId, side: SideId) -> bool {
    s.board.neighbours(h).iter().any(|&n| s.occupant(n) == Some(side.other()))
}

/// A path down the goal field from `from`, as far as `mp` allows (random among equally good
/// steps); stops on reaching a goal hex.
fn purposeful_path(s: &State, field: &[u32], from: HexId, mp: u32, side: SideId, d: &mut Dice) -> Vec<HexId> {
    let b = &s.board;
    let at_dist = |h: HexId| b.index(h).map_or(u32::MAX, |i| field[i]);
    let mut path = Vec::new();
    let mut at = from;
    let mut left = mp;
    loop {
        let here = at_dist(at);
        if here == 0 {
            break;
        }
        let steps: Vec<HexId> = b
            .neighbours(at)
            .iter()
            .copied()
            .filter(|&n| {
                s.occupant(n) != Some(side.other())
                    && !path.contains(&n)
                    && n != from
                    && at_dist(n) < here
                    && b.entry_cost(at, n).is_some_and(|c| c <= left)
            })
            .collect();
        let Some(n) = pick(d, &steps) else { break };
        left -= b.entry_cost(at, n).unwrap_or(left);
        path.push(n);
        at = n;
    }
    path
}

fn random_path(s: &State, from: HexId, len: usize, side: SideId, d: &mut Dice) -> Vec<HexId> {
    let mut path = Vec::new();
    let mut at = from;
    for _ in 0..len {
        let ns: Vec<HexId> = s
            .board
            .neighbours(at)
            .iter()
            .copied()
            .filter(|n| s.occupant(*n) != Some(side.other()) && !path.contains(n) && *n != from)
            .collect();
        let Some(n) = pick(d, &ns) else { break };
        path.push(n);
        at = n;
    }
    path
}

/// The units of `side` that may make a prepared assault on `t`, the Allies restricted to one
/// nationality (GE-13.26): the strongest group.
pub(super) fn pa_force(s: &State, side: SideId, t: HexId) -> Vec<String> {
    let units: Vec<&super::state::Unit> = s
        .units
        .iter()
        .filter(|u| {
            u.side == side
                && orderable(u)
                && !u.moved
                && !u.attacked
                && !u.ooc
                && !u.replaced
                && !u.entrenching
                && u.kind != Kind::Fortress
                && u.kind != Kind::SiegeGun
                && u.hex().is_some_and(|h| h.is_adjacent(t))
        })
        .collect();
    if side == SideId::German {
        return units.iter().map(|u| u.id.clone()).collect();
    }
    let mut best: Vec<String> = Vec::new();
    let mut best_a = 0;
    let mut nations: Vec<&str> = units.iter().map(|u| u.nation.as_str()).collect();
    nations.sort();
    nations.dedup();
    for n in nations {
        let a: u32 = units.iter().filter(|u| u.nation == n).map(|u| u.now().attack).sum();
        if a > best_a {
            best_a = a;
            best = units.iter().filter(|u| u.nation == n).map(|u| u.id.clone()).collect();
        }
    }
    best
}

/// The siege guns of `side` that may fire at `t` with `units` (GE-14.7): the target holds an
/// enemy fortress or fortified zone, and each gun stands with infantry of the assault.
fn siege_guns(s: &State, side: SideId, t: HexId, units: &[String]) -> Vec<String> {
    let works = s.units_at(t).any(|u| u.side != side && u.kind == Kind::Fortress) || super::fortified::enemy_zone(s, t, side);
    if !works {
        return vec![];
    }
    let hexes: Vec<HexId> = units.iter().filter_map(|id| s.unit(id)).filter(|u| u.kind == Kind::Infantry).filter_map(|u| u.hex()).collect();
    let guns: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.side == side && u.kind == Kind::SiegeGun && !u.attacked && !u.moved && !u.ooc)
        .filter(|u| u.hex().is_some_and(|h| hexes.contains(&h)))
        .map(|u| u.id.clone())
        .collect();
    guns.into_iter().filter(|g| super::siege::check(s, side, t, units, std::slice::from_ref(g)).is_empty()).collect()
}

/// Column and extra DRM as one number for ranking attacks.
fn strength(b: &super::state::Battle) -> i32 {
    match b.odds {
        Odds::Automatic => -1,
        Odds::Column { column, extra_drm } => column as i32 * 2 + extra_drm + b.drm,
    }
}

/// Replacements (GE-8.7): reduced infantry, those out of contact first.
fn spend_replacements(s: &mut State, side: SideId, acts: &mut Vec<Action>, d: &mut Dice) {
    let mut reduced: Vec<(bool, String)> = s
        .units
        .iter()
        .filter(|u| {
            u.side == side
                && u.kind == Kind::Infantry
                && orderable(u)
                && u.sl < u.max_sl
                && !u.replaced
                && s.replacements.get(&u.nation).is_some_and(|n| *n > 0)
        })
        .filter_map(|u| u.hex().map(|h| (adjacent_to_enemy(s, h, side), u.id.clone())))
        .collect();
    reduced.sort();
    for (_, id) in reduced {
        if one_in(d, 4) {
            continue;
        }
        try_push(s, side, acts, ActionKind::Replace(super::orders::Replace { unit: id, hex: None }));
    }
}

/// Units of `side` at `h` that may try strategic movement (GE-11.1: infantry doing nothing
/// else this turn).
fn sm_candidates(s: &State, side: SideId, h: HexId) -> Vec<String> {
    s.units_at(h)
        .filter(|u| {
            u.side == side && u.kind == Kind::Infantry && orderable(u) && u.strategic.is_none() && !u.replaced && !u.entrenching && !u.ooc
        })
        .map(|u| u.id.clone())
        .collect()
}

/// Phase D (GE-11): now and then a stack in a town away from the front goes by rail (the
/// Allies from T8 sometimes by sea, port to port) to the friendly town nearest the front that
/// takes it; the validation decides what is legal.
fn strategic_moves(s: &mut State, side: SideId, acts: &mut Vec<Action>, d: &mut Dice) {
    use super::strategic::{Mode, SEA_FROM, Strategic};
    if s.turn <= 1 || !one_in(d, 2) {
        return;
    }
    let field = goal_field(s, side);
    let dist = |h: HexId| s.board.index(h).map_or(u32::MAX, |i| field[i]);
    let mut origins: Vec<(HexId, u32)> = s
        .units
        .iter()
        .filter(|u| u.side == side && u.kind == Kind::Infantry)
        .filter_map(|u| u.hex())
        .filter(|&h| s.board.is_town(h) && !adjacent_to_enemy(s, h, side) && dist(h) >= 3)
        .map(|h| (h, dist(h)))
        .collect();
    origins.sort();
    origins.dedup();
    let port = |s: &State, h: HexId| s.board.hex(h).is_some_and(|i| i.port);
    let mut towns: Vec<(u32, HexId, bool)> = s
        .board
        .hex_ids()
        .iter()
        .copied()
        .filter(|&h| s.board.is_town(h) && s.control(h) == Some(side) && !adjacent_to_enemy(s, h, side))
        .map(|h| (dist(h), h, port(s, h)))
        .collect();
    towns.sort();
    for _ in 0..2 {
        let Some((from, here)) = pick(d, &origins) else { break };
        origins.retain(|(h, _)| *h != from);
        let mut units = sm_candidates(s, side, from);
        if units.len() > 1 && one_in(d, 2) {
            units = vec![units[d.roll(units.len() as u32) as usize].clone()];
        }
        if units.is_empty() {
            continue;
        }
        let by = if side == SideId::Allied && s.turn >= SEA_FROM && port(s, from) && one_in(d, 2) { Mode::Sea } else { Mode::Rail };
        let goals: Vec<HexId> =
            towns.iter().filter(|(k, h, p)| *k < here && *h != from && (by == Mode::Rail || *p)).map(|(_, h, _)| *h).take(4).collect();
        for to in goals {
            if try_push(s, side, acts, ActionKind::Strategic(Strategic { units: units.clone(), to, by })) {
                break;
            }
        }
    }
}

/// A march assault by `group` (which just moved) on the neighbouring enemy stack with the best
/// odds, 2:1 or better; whether one was written (it ends the entry).
fn march_assault(s: &mut State, side: SideId, acts: &mut Vec<Action>, group: &[String]) -> bool {
    let group = orderable_ids(s, group);
    let Some(at) = group.first().and_then(|id| s.unit(id)).and_then(|u| u.hex()) else { return false };
    let mut best: Option<(i32, HexId)> = None;
    for &t in s.board.neighbours(at) {
        if s.occupant(t) == Some(side.other())
            && let Ok(b) = combat::declare(s, BattleKind::March, side, t, &group)
            && matches!(b.odds, Odds::Column { column, .. } if column >= 2)
            && best.is_none_or(|(k, _)| strength(&b) > k)
        {
            best = Some((strength(&b), t));
        }
    }
    match best {
        Some((_, t)) => try_push(s, side, acts, ActionKind::MarchAssault(Assault { target: t, units: group, siege: vec![] })),
        None => false,
    }
}

/// GE 15: the not-yet-moved dummies of one hex go ahead of the army, down the goal field as
/// far as their 4 MP take them, mostly stopping on the last quiet hex (out of the enemy's
/// contact) and sometimes in contact, where they look like a screen; now and then they join a
/// nearby stack of real units instead, and some rest. In contact they mostly stay.
fn move_dummies(s: &mut State, side: SideId, acts: &mut Vec<Action>, d: &mut Dice, dummies: Vec<String>, field: &[u32]) {
    let Some(from) = dummies.first().and_then(|id| s.unit(id)).and_then(|u| u.hex()) else { return };
    if one_in(d, 4) || (adjacent_to_enemy(s, from, side) && !one_in(d, 3)) {
        return;
    }
    let group = if dummies.len() > 1 && one_in(d, 3) { vec![dummies[d.roll(dummies.len() as u32) as usize].clone()] } else { dummies };
    let mp = group.iter().filter_map(|id| s.unit(id)).map(|u| u.mp_left()).min().unwrap_or(0);
    let mut path = if one_in(d, 4) { toward_stack(s, side, from, mp, d) } else { vec![] };
    if path.is_empty() {
        path = purposeful_path(s, field, from, mp, side, d);
        if !one_in(d, 3) {
            while path.last().is_some_and(|&h| adjacent_to_enemy(s, h, side)) {
                path.pop();
            }
        }
    }
    if path.is_empty() {
        path = random_path(s, from, 1 + d.roll(2) as usize, side, d);
    }
    for l in (1..=path.len()).rev() {
        if try_push(s, side, acts, ActionKind::Move(Move { units: group.clone(), path: path[..l].to_vec() })) {
            break;
        }
    }
}

/// A path from `from` to a random own stack of real units within three hexes, one step
/// closer each hex, within `mp` (empty if there is none or the way is blocked).
fn toward_stack(s: &State, side: SideId, from: HexId, mp: u32, d: &mut Dice) -> Vec<HexId> {
    let mut stacks: Vec<HexId> = s
        .units
        .iter()
        .filter(|u| u.side == side && orderable(u) && u.mobile())
        .filter_map(|u| u.hex())
        .filter(|h| (1..=3).contains(&h.distance(from)))
        .collect();
    stacks.sort();
    stacks.dedup();
    let Some(to) = pick(d, &stacks) else { return vec![] };
    let (mut path, mut at, mut left) = (Vec::new(), from, mp);
    while at != to {
        let steps: Vec<HexId> = s
            .board
            .neighbours(at)
            .iter()
            .copied()
            .filter(|&n| {
                n.distance(to) < at.distance(to)
                    && s.occupant(n) != Some(side.other())
                    && s.board.entry_cost(at, n).is_some_and(|c| c <= left)
            })
            .collect();
        let Some(n) = pick(d, &steps) else { return vec![] };
        left -= s.board.entry_cost(at, n).unwrap_or(left);
        path.push(n);
        at = n;
    }
    path
}

/// Random legal orders for `seat`, or `None` if nothing is expected of it.
pub fn random_orders(state: &State, seat: &str, d: &mut Dice) -> Option<Orders> {
    if super::secret::in_progress(state) {
        return super::secret::bot_orders(state, seat, d);
    }
    let side = state.side_of(seat)?;
    // The bot knows its own counters: it decides on the units they are (GE 13.8).
    let mut s = counters::unmasked(state);
    let mut acts = Vec::new();
    if counters::awaited(state).contains(&side) {
        try_push(&mut s, side, &mut acts, ActionKind::OpenCounters(true));
        return if acts.is_empty() { None } else { Some(Orders { actions: acts }) };
    }
    if turn::actor(state) != Some(side) {
        return None;
    }
    if let Some(super::state::CommandStage::Pick { count }) = s.command {
        // Out of command where it hurts most: stacks in contact first, then at random.
        let mut stacks: Vec<(bool, u32, HexId)> =
            s.command_stacks().into_iter().map(|h| (!adjacent_to_enemy(&s, h, s.player), d.roll(1000), h)).collect();
        stacks.sort();
        let hexes: Vec<HexId> = stacks.into_iter().take(count as usize).map(|(_, _, h)| h).collect();
        try_push(&mut s, side, &mut acts, ActionKind::OutOfCommand(hexes));
        return if acts.is_empty() { None } else { Some(Orders { actions: acts }) };
    }
    // GE 13.8: the defender's entry opens the attacked counters (conceal adds the openings),
    // so it decides on the state after them.
    if let Some(p) = super::counters::opened_preview(&s, side) {
        s = p;
    }
    if s.battle.is_some() {
        let a = decision(&s, side, d)?;
        try_push(&mut s, side, &mut acts, a);
        // The attacker goes on in the same entry once the battle is settled, as a player
        // would; the defender's entry ends with his decision.
        if s.battle.is_some() || s.player != side || one_in(d, 6) {
            return Some(Orders { actions: acts });
        }
    }
    // Standing instructions for the opponent's turn: a side that has none files a complete
    // set (as a player sparing emails does, docs/glorys-end/rules.md); now and then they
    // change, and a quarter of the time the bot goes on deciding by hand.
    let none_yet = s.standing.get(&side).is_none_or(|st| *st == Standing::default());
    if (none_yet && !one_in(d, 4)) || one_in(d, 8) {
        let mut st = random_standing(&s, side, d);
        if !one_in(d, 4) {
            complete_standing(&mut st, d);
        }
        try_push(&mut s, side, &mut acts, ActionKind::Standing(st));
    }
    match s.phase {
        // The player turn's leading roll (lead.rs) is not rolled yet: nothing to order.
        Phase::Command => {}
        Phase::Movement => {
            // GE 15.2: a march assault that found only dummies goes on moving (and may
            // assault again); its units are still moving and have not attacked.
            let going: Vec<String> = s
                .units
                .iter()
                .filter(|u| u.side == side && u.move_state == MoveState::Moving && !u.attacked && orderable(u))
                .map(|u| u.id.clone())
                .collect();
            if let Some(from) = going.first().and_then(|id| s.unit(id)).and_then(|u| u.hex())
                && going.iter().all(|id| s.unit(id).and_then(|u| u.hex()) == Some(from))
                && !one_in(d, 4)
            {
                let mp = going.iter().filter_map(|id| s.unit(id)).map(|u| u.mp_left()).min().unwrap_or(0);
                let path = purposeful_path(&s, &goal_field(&s, side), from, mp, side, d);
                for l in (1..=path.len()).rev() {
                    if try_push(&mut s, side, &mut acts, ActionKind::Move(Move { units: going.clone(), path: path[..l].to_vec() })) {
                        break;
                    }
                }
                if !one_in(d, 3) && march_assault(&mut s, side, &mut acts, &going) {
                    return Some(Orders { actions: acts });
                }
            }
            let waiting: Vec<String> = s
                .units
                .iter()
                .filter(|u| u.side == side && matches!(u.place, Place::Reinforcement(t) if t <= s.turn))
                .map(|u| u.id.clone())
                .collect();
            if !s.units.iter().any(|u| u.side == side && u.moved) {
                for id in waiting {
                    let entry_hexes = super::reinforce::entry_hexes(&s, &id);
                    for _ in 0..6 {
                        let Some(h) = pick(d, &entry_hexes) else { break };
                        if try_push(&mut s, side, &mut acts, ActionKind::Enter(Enter { unit: id.clone(), hex: h })) {
                            break;
                        }
                    }
                }
            }
            if !s.units.iter().any(|u| u.side == side && u.moved) {
                spend_replacements(&mut s, side, &mut acts, d);
                entrenchment(&mut s, side, &mut acts, d);
            }
            if !s.units.iter().any(|u| u.side == side && u.moved && u.strategic.is_none()) {
                strategic_moves(&mut s, side, &mut acts, d);
            }
            // The campaign's German right wing marches on Paris past the enemy (the Schlieffen
            // wheel); everyone else seeks the objectives and the enemy.
            let field = if s.campaign.is_some() && side == SideId::German {
                // The forts stand in the Paris hexes: aim at the hexes around them too.
                let mut paris = s.board.paris_hexes();
                for p in s.board.paris_hexes() {
                    paris.extend(s.board.neighbours(p).iter().copied());
                }
                field_from(&s, side, &paris, false)
            } else {
                goal_field(&s, side)
            };
            // Campaign fields: the border cities nobody holds (German garrison), and supply
            // and Paris (Allied units falling back).
            let mut open_cities = false;
            let (garrison_field, back_field) = if s.campaign.is_some() {
                match side {
                    SideId::German => {
                        let empty: Vec<HexId> = border_cities(&s).into_iter().filter(|h| !held_by_mobile(&s, *h, side)).collect();
                        open_cities = !empty.is_empty();
                        (field_from(&s, side, &empty, false), vec![])
                    }
                    SideId::Allied => {
                        let sup = super::supply::Supply::of(&s, side);
                        let mut seeds: Vec<HexId> =
                            s.board.hex_ids().iter().copied().filter(|h| sup.at(*h) && !adjacent_to_enemy(&s, *h, side)).collect();
                        if seeds.len() > 400 {
                            // Well supplied everywhere: fall back on Paris itself.
                            seeds = s.board.paris_hexes();
                        }
                        (vec![], field_from(&s, side, &seeds, false))
                    }
                }
            } else {
                (vec![], vec![])
            };
            // Stacks that have not moved, in random order; each considered once.
            let mut starts: Vec<HexId> = s
                .units
                .iter()
                .filter(|u| {
                    u.side == side
                        && u.move_state == MoveState::NotMoved
                        && !u.attacked
                        && !u.replaced
                        && !u.entrenching
                        && u.kind != Kind::Fortress
                })
                .filter_map(|u| u.hex())
                .collect();
            starts.sort();
            starts.dedup();
            while !starts.is_empty() {
                let i = d.roll(starts.len() as u32) as usize;
                let from = starts.swap_remove(i);
                let stack: Vec<String> = s
                    .units_at(from)
                    .filter(|u| {
                        u.side == side
                            && u.move_state == MoveState::NotMoved
                            && !u.attacked
                            && !u.replaced
                            && !u.entrenching
                            && u.kind != Kind::Fortress
                    })
                    .map(|u| u.id.clone())
                    .collect();
                // GE 15: the dummies of the hex wander on their own, or now and then ride
                // with the stack's move; they never force-march or assault.
                let (dummies, stack): (Vec<String>, Vec<String>) = stack.into_iter().partition(|id| s.unit(id).is_some_and(|u| u.dummy));
                let ride = !dummies.is_empty() && !stack.is_empty() && one_in(d, 3);
                if !dummies.is_empty() && !ride {
                    move_dummies(&mut s, side, &mut acts, d, dummies.clone(), &field);
                }
                if stack.is_empty() {
                    continue;
                }
                let part = role(&s, side, from);
                let garrisoned = part == Role::Garrison && border_cities(&s).contains(&from);
                if garrisoned {
                    // A border city's garrison stays (and fights from there).
                    continue;
                }
                // In contact: hold for a prepared assault (now and then move anyway); a
                // stack falling back breaks contact.
                let eager = s.campaign.is_some() && side == SideId::German && part == Role::Field;
                if adjacent_to_enemy(&s, from, side) && part != Role::FallBack && !one_in(d, if eager { 3 } else { 6 }) {
                    continue;
                }
                // Most stacks move; some rest. A screen before Paris and a garrison in its
                // city hold.
                if one_in(d, 6) {
                    continue;
                }
                if part == Role::Screen && !one_in(d, 5) {
                    continue;
                }
                if part == Role::Garrison && !open_cities && !one_in(d, 10) {
                    continue;
                }
                let mut group: Vec<String> =
                    if stack.len() > 1 && one_in(d, 4) { vec![stack[d.roll(stack.len() as u32) as usize].clone()] } else { stack.clone() };
                // A siege gun travels with infantry: alone it is lost to any enemy move (GE-14.7).
                if group.iter().all(|id| s.unit(id).is_some_and(|u| u.kind == Kind::SiegeGun)) {
                    group = stack;
                }
                // German T2–T6: infantry often force-marches (GE-12.10; refused tries cost nothing).
                if side == SideId::German
                    && super::strategic::FORCED_MARCH.contains(&s.turn)
                    && one_in(d, 2)
                    && try_push(&mut s, side, &mut acts, ActionKind::ForcedMarch(group.clone()))
                {
                    // Hidden counters are opened to force-march (GE 13.8): their ids changed.
                    group = last_units(&acts).unwrap_or(group);
                }
                let mp = group.iter().filter_map(|id| s.unit(id)).map(|u| u.mp_left()).min().unwrap_or(0);
                let this_field = match part {
                    Role::Garrison if open_cities => &garrison_field,
                    Role::FallBack if !back_field.is_empty() => &back_field,
                    _ => &field,
                };
                let mut path = purposeful_path(&s, this_field, from, mp, side, d);
                if part == Role::Garrison && !open_cities {
                    // A reserve on the border that does move stays near it: at most two hexes.
                    path.truncate(2);
                }
                if path.is_empty() && part == Role::Field && one_in(d, 3) {
                    path = random_path(&s, from, 1 + d.roll(2) as usize, side, d);
                }
                let mut moved = false;
                // Dummies riding along go only as far as their 4 MP take them all the way;
                // otherwise the stack moves without them.
                let forced = group.iter().any(|id| s.unit(id).is_some_and(|u| u.forced_march));
                if ride && !forced && !path.is_empty() {
                    let mut with = group.clone();
                    with.extend(dummies.iter().cloned());
                    if try_push(&mut s, side, &mut acts, ActionKind::Move(Move { units: with, path: path.clone() })) {
                        moved = true;
                        group = orderable_ids(&s, &last_units(&acts).unwrap_or(group));
                    }
                }
                for l in (1..=path.len()).rev() {
                    if moved {
                        break;
                    }
                    if try_push(&mut s, side, &mut acts, ActionKind::Move(Move { units: group.clone(), path: path[..l].to_vec() })) {
                        moved = true;
                        group = last_units(&acts).unwrap_or(group);
                        break;
                    }
                }
                if !moved {
                    continue;
                }
                // A march assault at 2:1 or better, now and then: that ends the entry.
                if one_in(d, 2) && march_assault(&mut s, side, &mut acts, &group) {
                    return Some(Orders { actions: acts });
                }
            }
            hentsch_leave(&mut s, side, &mut acts);
            try_push(&mut s, side, &mut acts, ActionKind::EndPhase(PhaseName::Movement));
        }
        Phase::Combat => {
            // Every enemy stack within reach; attack the best odds (2:1 or better, now and
            // then 1:1).
            let mut targets: Vec<HexId> = s
                .units
                .iter()
                .filter(|u| u.side == side.other())
                .filter_map(|u| u.hex())
                .filter(|&h| adjacent_to_enemy(&s, h, side.other()))
                .collect();
            targets.sort();
            targets.dedup();
            let min_column = if one_in(d, 4) { 1 } else { 2 };
            // Rank by the raw factors first (cheap), then declare the most promising few.
            let mut ranked: Vec<(i64, HexId, Vec<String>)> = Vec::new();
            for t in targets {
                let units = pa_force(&s, side, t);
                if units.is_empty() {
                    continue;
                }
                // Cavalry alone mostly withdraws before combat (GE-13.25): chasing it across
                // the map rarely pays, so such a target is tried only now and then.
                if s.units_at(t).all(|u| u.kind == Kind::Cavalry) && !one_in(d, 3) {
                    continue;
                }
                let a: u32 = units.iter().filter_map(|id| s.unit(id)).map(|u| u.now().attack).sum();
                let dd: u32 = s.units_at(t).map(|u| u.now().defence).sum::<u32>().max(1);
                ranked.push((-((a as i64 * 64) / dd as i64) * 8 - d.roll(8) as i64, t, units));
            }
            ranked.sort();
            // With both sides' standing instructions settling every decision, most of the
            // time the good attacks of the phase go in one batch (GE 13.2, `declare_batch`).
            let batchable = s.campaign.is_none()
                && super::standing::batch_gaps(&s, side, true).is_empty()
                && super::standing::batch_gaps(&s, side.other(), false).is_empty();
            if batchable && !one_in(d, 4) {
                let mut used: Vec<String> = Vec::new();
                let mut batch: Vec<Assault> = Vec::new();
                for (_, t, units) in ranked.iter().take(6) {
                    let units: Vec<String> = units.iter().filter(|u| !used.contains(u)).cloned().collect();
                    if units.is_empty() {
                        continue;
                    }
                    let Ok(b) = combat::declare(&s, BattleKind::Prepared, side, *t, &units) else { continue };
                    if b.opening || !matches!(b.odds, Odds::Column { column, .. } if column >= min_column) {
                        continue;
                    }
                    used.extend(units.iter().cloned());
                    batch.push(Assault { target: *t, units, siege: vec![] });
                }
                if batch.len() >= 2 && try_push(&mut s, side, &mut acts, ActionKind::Attacks(batch)) {
                    return Some(Orders { actions: acts });
                }
            }
            let mut best: Option<(i32, HexId, Vec<String>, Vec<String>)> = None;
            for (_, t, units) in ranked.into_iter().take(4) {
                let Ok(b) = combat::declare(&s, BattleKind::Prepared, side, t, &units) else { continue };
                // Siege guns that can fire here (GE-14.7): with them a fortress or a fortified
                // zone is worth attacking at any odds the CRT has.
                let guns = siege_guns(&s, side, t, &units);
                let need = if guns.is_empty() { min_column } else { 0 };
                if !matches!(b.odds, Odds::Column { column, .. } if column >= need) {
                    continue;
                }
                let k = strength(&b) * 8 + d.roll(8) as i32 + if guns.is_empty() { 0 } else { 40 };
                if best.as_ref().is_none_or(|(bk, _, _, _)| k > *bk) {
                    best = Some((k, t, units, guns));
                }
            }
            if let Some((_, t, units, guns)) = best
                && (try_push(&mut s, side, &mut acts, ActionKind::Attack(Assault { target: t, units: units.clone(), siege: guns }))
                    || try_push(&mut s, side, &mut acts, ActionKind::Attack(Assault { target: t, units, siege: vec![] })))
            {
                return Some(Orders { actions: acts });
            }
            hide_stacks(&mut s, side, &mut acts, d);
            try_push(&mut s, side, &mut acts, ActionKind::EndPhase(PhaseName::Combat));
        }
    }
    if acts.is_empty() { None } else { Some(Orders { actions: acts }) }
}
