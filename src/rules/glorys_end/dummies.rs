//! Dummy counters (GE 15, optional), on top of hidden stacks (GE 13.8, `counters.rs`).
//!
//! Both players agree at genesis (`dummies: true` for our representative counts, or
//! `{DE: n, FR: n, GB: n}`); the game must also hide stacks and start from a secret setup,
//! since dummies are placed there like army-0 units (15.1, 3.3). A dummy is a hidden counter
//! whose committed value is `dummy:FR:2`; its batch (public) lists the dummy records, so a
//! counter of that batch may be one. Nothing tells it from a unit until it is opened, and
//! opening removes it for good (`counters::open_dummy`).
//!
//! What this module holds, by rule:
//! - 15.1 placement: a plan's `dummies` (nation → hexes), checked like army-0 units
//!   ([`check_plan`]); the bot's placement ([`default_placement`]).
//! - 15.1 movement 4: the dummy's record (`counters::dummy_record`) is what `unmasked` checks a
//!   move against; every order but a move opens what it names, so a dummy never attacks,
//!   moves strategically or force-marches: opened, it is gone.
//! - 15.2 a stack of dummies attacked: [`no_combat`] (march assault: the force moves on;
//!   prepared assault: advance, and attack again if every attacker advanced).
//!
//! Readings (docs/glorys-end/rules.md, "Dummies (GE 15)"): G.4 item 22's defaults are kept
//! where a dummy is known (no SL, not a corps, no supply or attrition, OM only, controls like
//! infantry); where it is not, an unopened counter counts as a unit (D9: blocks SM, endangers
//! Paris), and at phase G an out-of-supply counter left hidden is a claim that it is a dummy.

use std::collections::BTreeMap;

use super::counters::{self, dummies_on, nation_side};
use super::map::Country;
use super::secret::{MARKER_RANGE, Plan};
use super::state::{BattleKind, MoveState, RetreatNeed, SideId, Stage, State};
use super::tables::CrtResult;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// GE 15.1 on a plan's dummies: this side's colours, no more than supplied, each in the side's
/// own country (as its initial-army units: France; Germany, Luxembourg or Belgium) and within
/// three hexes of one of its mobilization markers (reading: a dummy is "army 0", assigned to
/// whichever army it stands near). Stacking (6.1–6.3) is checked with the units, in
/// `secret::check_stacks`: a dummy adds no SL and is not a corps, and keeps its nationality.
pub fn check_plan(state: &State, side: SideId, plan: &Plan, markers: &BTreeMap<u8, HexId>, free: bool) -> Vec<Violation> {
    let mut v = Vec::new();
    if plan.dummies.is_empty() {
        return v;
    }
    if !dummies_on(state) {
        return vec![Violation::new("GE 15.1", "this game has no dummies (genesis option dummies): the plan places none")];
    }
    let supply = state.counters.as_ref().map(|c| c.dummies.clone()).unwrap_or_default();
    let map = state.board.map();
    for (nation, hexes) in &plan.dummies {
        if nation_side(nation) != Some(side) {
            v.push(Violation::new("GE 15.1", format!("{nation} dummies are not the {} side's", side.title())));
            continue;
        }
        let have = supply.get(nation).copied().unwrap_or(0);
        if hexes.len() as u32 > have {
            v.push(Violation::new("GE 15.1", format!("{} {nation} dummies placed; {have} were supplied, a hard limit", hexes.len())));
        }
        for (i, h) in hexes.iter().enumerate() {
            let name = counters::dummy_value(nation, i as u32 + 1);
            let c = map.hex(*h).map(|x| x.country);
            if c.is_none() {
                v.push(Violation::new("GE 15.1", format!("{name}: {h} is not a hex of the map")).hex(h.to_string()));
                continue;
            }
            if !super::secret::may_start_in(side, c, free) {
                let where_ = if side == SideId::Allied { "in France" } else { "in Germany, Luxembourg or Belgium" };
                v.push(Violation::new("GE 15.1", format!("{name} starts {where_}, as the side's initial-army units")).hex(h.to_string()));
            }
            if !markers.values().any(|m| m.distance(*h) <= MARKER_RANGE) {
                v.push(
                    Violation::new(
                        "GE 15.1",
                        format!(
                            "{name} is more than {MARKER_RANGE} hexes from every mobilization marker (placed as an army-0 unit, GE 3.3)"
                        ),
                    )
                    .hex(h.to_string()),
                );
            }
        }
    }
    v
}

/// The bot's dummies (and the template's example): for each nationality of the side, one
/// dummy on top of each of that nationality's stacks in turn, the weakest stacks first (a
/// dummy there makes a weak stack look stronger), every other one alone on the free hex
/// nearest a mobilization marker, each kept only if the plan stays legal.
pub fn default_placement(state: &State, side: SideId, plan: &Plan, markers: &BTreeMap<u8, HexId>) -> BTreeMap<String, Vec<HexId>> {
    let mut out: BTreeMap<String, Vec<HexId>> = BTreeMap::new();
    let Some(c) = state.counters.as_ref() else { return out };
    let map = state.board.map();
    let own = |h: HexId| match side {
        SideId::Allied => map.hex(h).is_some_and(|i| i.country == Country::France),
        SideId::German => map.hex(h).is_some_and(|i| i.country == Country::Germany),
    };
    for (nation, k) in c.dummies.iter().filter(|(n, _)| nation_side(n) == Some(side)) {
        let mut sl: BTreeMap<HexId, u32> = BTreeMap::new();
        for (id, h) in &plan.units {
            if let Some(u) = state.unit(id).filter(|u| &u.nation == nation) {
                *sl.entry(*h).or_default() += u.sl as u32;
            }
        }
        let mut stacks: Vec<HexId> = sl.keys().copied().collect();
        stacks.sort_by_key(|h| (sl[h], *h));
        let mut hexes: Vec<HexId> = Vec::new();
        for i in 0..*k as usize {
            let on_stack = (i % 2 == 0 || markers.is_empty()).then(|| stacks.get((i / 2) % stacks.len().max(1)).copied()).flatten();
            let alone = || {
                let m = markers.values().nth(i % markers.len().max(1)).copied()?;
                state
                    .board
                    .hex_ids()
                    .iter()
                    .copied()
                    .filter(|h| own(*h) && h.distance(m) <= MARKER_RANGE && !plan.units.values().any(|x| x == h) && !hexes.contains(h))
                    .min_by_key(|h| (h.distance(m), *h))
            };
            // The bot keeps a stack below the SL limit with its dummies counted as 1 SL each, a
            // choice of its own that spreads them over more stacks (the rules count a dummy,
            // and with dummies a placeholder, as 0 SL: `counters::stack_sl`).
            let room = |h: &HexId| {
                let dummies = out.values().chain([&hexes]).flatten().filter(|x| *x == h).count() as u32;
                sl.get(h).copied().unwrap_or(0) + dummies < super::stacking::MAX_SL
            };
            let Some(h) = on_stack.filter(room).or_else(alone) else { continue };
            let mut trial = plan.clone();
            trial.dummies = out.clone();
            trial.dummies.entry(nation.clone()).or_default().extend(hexes.iter().copied().chain([h]));
            if super::secret::check_plan(state, side, &trial).is_empty() {
                hexes.push(h);
            }
        }
        if !hexes.is_empty() {
            out.insert(nation.clone(), hexes);
        }
    }
    out
}

/// GE 15.2: the defender's counters are open and only dummies were there, now removed. There
/// is no result (the kept die, if any, is not used); the defender's entry that opened them
/// answers the battle with an empty `decide`, then a march-assaulting force moves on
/// ([`moves_on`]) and a prepared-assaulting one may advance ([`after_advance`]).
pub fn no_combat(state: &mut State) -> Vec<Event> {
    let Some(b) = state.battle.as_mut() else { return vec![] };
    b.opening = false;
    b.dummies = true;
    b.defenders.clear();
    b.stragglers.clear();
    b.defence = 0;
    b.odds_text = "none (only dummies)".into();
    b.drm = 0;
    b.drm_parts.clear();
    b.result = Some(CrtResult { attacker_lp: 0, defender_lp: 0, retreat: false });
    let die = matches!(b.stage, Stage::Opening { die: Some(_) });
    b.stage = Stage::Defender { lp: 0, retreat: RetreatNeed::None };
    let (kind, target, defender) = (b.kind, b.target, b.attacker.other());
    let next = match kind {
        BattleKind::March => "the march-assaulting force may move on, and march-assault again, with the MP it has left",
        BattleKind::Prepared => "the attackers may advance, and attack again if every one of them advances",
    };
    let mut ev = vec![Event::rule(
        "GE 15.2",
        format!(
            "only dummies defended {target}: they are removed and the {} has no result{}; {next}",
            kind.name(),
            if die { " (the kept die is not used)" } else { "" }
        ),
    )];
    // GE 14.7: siege guns the dummies stood with are now alone.
    ev.extend(super::siege::abandoned(state, target, defender, "were dummies"));
    ev
}

/// GE 15.2, march assault on dummies alone: once the defender has answered, the force is
/// moving again as if it had not attacked (it spent no MP on the assault; entering the emptied
/// hex costs what it costs).
pub fn moves_on(state: &mut State) -> Vec<Event> {
    let Some(b) = state.battle.take() else { return vec![] };
    for id in &b.attackers {
        if let Some(u) = state.unit_mut(id) {
            u.attacked = false;
            u.move_state = MoveState::Moving;
            // It made a march assault all the same: no prepared assault this turn (13.23, 13.22).
            u.moved = true;
        }
    }
    vec![Event::rule("GE 15.2", format!("the march-assaulting force ({}) goes on moving from where it stands", b.attackers.join(", ")))]
}

/// GE 15.2, prepared assault on dummies alone, after the advance: the same force may attack
/// again only if every attacker still on the map advanced (an explicit exception to 13.6's
/// one attack per phase, as 13.25 is; digest G.4 item 16).
pub fn after_advance(state: &mut State, advance: &[String]) -> Vec<Event> {
    let Some(b) = state.battle.as_ref() else { return vec![] };
    let live: Vec<String> = b.attackers.iter().filter(|id| state.unit(id).is_some_and(|u| u.hex().is_some())).cloned().collect();
    if live.is_empty() || !live.iter().all(|id| advance.contains(id)) {
        return vec![Event::rule("GE 15.2", "not every attacker advanced: the force makes no second prepared assault")];
    }
    for id in &live {
        if let Some(u) = state.unit_mut(id) {
            u.attacked = false;
        }
    }
    vec![Event::rule("GE 15.2", format!("every attacker advanced: {} may make another prepared assault this phase", live.join(", ")))]
}

#[cfg(test)]
mod tests {
    use crate::engine::Ruleset;
    use crate::engine::cases::CaseRuleset;
    use crate::rules::glorys_end::GlorysEnd;
    use crate::rules::glorys_end::orders::{Action, ActionKind, Orders, PhaseName};

    fn state(yaml: &str) -> crate::rules::glorys_end::State {
        GlorysEnd::case_state(&yaml_serde::from_str(yaml).expect("yaml")).expect("case state")
    }

    /// The author's tool at the end of the prepared assault phase (GE 9.3 with dummies): it opens
    /// a hidden infantry unit in the own trench hex that shows none, never the dummy beside it,
    /// and nothing where shown infantry already keeps the trench.
    #[test]
    fn the_tool_opens_a_trench_keeper_and_never_a_dummy() {
        let s = state(
            "{turn: 10, phase: combat, player: german, dummies: {DE: 2}, counters_known: true,
              trenches: [[3131, german, false], [3331, german, false]],
              units: [{id: DE-1, hex: 3131, sl: 4}, {id: DE-2, hex: 3331, sl: 4}, {id: DE-3, hex: 3331, sl: 2}],
              counters: [{hex: 3131, nation: DE, is: dummy}, {is: DE-1}, {hex: 3331, nation: DE, is: dummy}, {is: DE-3}]}",
        );
        let orders = Orders { actions: vec![Action(ActionKind::EndPhase(PhaseName::Combat))] };
        let c = GlorysEnd::conceal(&s, "german", orders, &crate::engine::IdOrder::trial()).expect("conceal");
        assert_eq!(c.open, vec!["c2".to_string()]);
    }
}
