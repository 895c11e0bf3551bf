//! Combat (GE-13): declaring a battle, odds and DRMs, applying results, loss allocation,
//! retreat and advance after combat. Shared by march assaults (13.23) and prepared
//! assaults (13.0–13.22).

use std::collections::BTreeSet;

use super::stacking;
use super::standing::{self, Choice};
use super::state::{Battle, BattleKind, Kind, Place, RetreatNeed, SideId, Stage, State};
use super::supply;
use super::tables::{self, AUTOMATIC, CrtResult, Odds};
use super::unit_list::{self, ListRules};
use super::vp;
use crate::engine::{Event, Violation};
use crate::geo::hex::{Direction, HexId};

/// Retreat directions per side: the retreat compass is not in the text (GE-13.19 gap).
/// Reading: the German retreats north, north-east or east (towards his north-edge supply and
/// home), the Allies south, south-west or west (towards their south-edge supply and Paris).
pub fn retreat_directions(side: SideId) -> [Direction; 3] {
    match side {
        SideId::German => [0, 5, 1],
        SideId::Allied => [3, 2, 4],
    }
}

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// Check and fix a battle's participants, odds and DRMs (GE-13.3 steps 1–4).
pub fn declare(state: &State, kind: BattleKind, side: SideId, target: HexId, units: &[String]) -> Result<Battle, Vec<Violation>> {
    let mut errs = Vec::new();
    let t = target.to_string();
    if !state.board.in_play(target) {
        return Err(vec![v("GE 13.5", "the target hex is not on the map").hex(&t)]);
    }
    let defenders: Vec<&super::state::Unit> = state.units_at(target).filter(|u| u.side != side && u.kind != Kind::SiegeGun).collect();
    if defenders.is_empty() {
        if super::siege::lone_enemy_guns(state, target, side) {
            errs.push(v("GE 14.7", "siege guns alone are not attacked: units moving into their hex eliminate them").hex(&t));
        } else {
            errs.push(v("GE 13.4", "there is no enemy unit in the target hex").hex(&t));
        }
    }
    if units.is_empty() {
        errs.push(v("GE 13.5", "an attack needs at least one attacking unit").hex(&t));
    }
    let fortress = defenders.iter().any(|u| u.kind == Kind::Fortress);
    let trench = super::entrench::entrenched(state, target, side.other());
    let zone = super::fortified::defended(state, target, side.other());
    let mut nations = BTreeSet::new();
    let rules = ListRules {
        twice: ("GE 13.6", "a unit is listed twice in one attack"),
        unknown: "GE 13.5",
        foreign: ("GE 13.1", "only the phasing player's units attack"),
        off_map: ("GE 13.5", "the unit is not on the map"),
    };
    for (u, h) in unit_list::check(state, side, units, &rules, &unit_list::no_extra, &mut errs) {
        let id = &u.id;
        if u.kind == Kind::Fortress {
            errs.push(v("GE 14.2", "a fortress does not attack").unit(id));
        }
        if u.kind == Kind::SiegeGun {
            errs.push(v("GE 14.7", "a siege gun has no combat factors: it fires at forts and fortified zones under siege:").unit(id));
        }
        if u.kind == Kind::Cavalry && zone {
            errs.push(v("GE 13.24", "cavalry may not attack a fortified zone").unit(id).hex(&t));
        }
        if !h.is_adjacent(target) {
            errs.push(v("GE 13.5", format!("{h} is not adjacent to the target {target}")).unit(id).hex(&t));
        }
        if u.attacked {
            errs.push(v("GE 13.6", "the unit has already attacked this player turn").unit(id));
        }
        if u.ooc {
            errs.push(v("GE 10.2", "an out-of-command unit may not attack").unit(id));
        }
        if u.replaced {
            errs.push(v("GE 8.7", "a unit that received replacements this turn may not attack").unit(id));
        }
        if u.entrenching {
            errs.push(v("GE 9.2", "a unit that is entrenching may not attack this player turn").unit(id));
        }
        if u.kind == Kind::Cavalry && trench {
            errs.push(v("GE 9.4", "cavalry may not attack a trench hex").unit(id).hex(&t));
        }
        if kind == BattleKind::Prepared && u.moved {
            errs.push(v("GE 13.22", "a unit that moved this player turn may not make a prepared assault").unit(id));
        }
        if kind == BattleKind::March && u.oos_at_start {
            errs.push(v("GE 7.5", "a unit out of supply may not march-assault").unit(id));
        }
        if u.kind == Kind::Cavalry && fortress {
            errs.push(v("GE 13.24", "cavalry may not attack a fortress").unit(id).hex(&t));
        }
        // GE 13.26: British naval infantry may join an attack of any Allied nationality.
        if u.side == SideId::Allied && super::naval::counts_for_nationality(u) {
            nations.insert(u.nation.clone());
        }
    }
    if nations.len() > 1 {
        errs.push(
            v(
                "GE 13.26",
                format!(
                    "Allied units of different nationalities ({}) may not attack together",
                    nations.into_iter().collect::<Vec<_>>().join(", ")
                ),
            )
            .hex(&t),
        );
    }
    // Units that retreated here this phase may be attacked again with the hex (GE-13.18).
    if defenders.iter().any(|u| u.defended && !u.retreated) {
        errs.push(v("GE 13.6", "units in this hex were already attacked in this combat phase").hex(&t));
    }
    if kind == BattleKind::March {
        if fortress {
            errs.push(v("GE 14.1", "a fortress hex can be attacked only by prepared assault").hex(&t));
        }
        if trench {
            errs.push(v("GE 9.5", "units in a trench can be attacked only by prepared assault").hex(&t));
        }
        if zone {
            errs.push(v("GE 14.1", "units in a fortified zone can be attacked only by prepared assault").hex(&t));
        }
        if state.ma_targets.contains(&target) {
            errs.push(v("GE 13.6", "this hex was already march-assaulted in this movement phase").hex(&t));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(compute(state, kind, side, target, units))
}

/// Odds and DRMs of a legal declaration.
pub fn compute(state: &State, kind: BattleKind, side: SideId, target: HexId, units: &[String]) -> Battle {
    let attackers: Vec<&super::state::Unit> = units.iter().filter_map(|id| state.unit(id)).collect();
    // Siege guns neither defend nor count for the cavalry factor choice (GE-14.7; G.4 item 27
    // reading: the opposing force is judged by units with SL of their own).
    let all_def: Vec<&super::state::Unit> = state.units_at(target).filter(|u| u.side != side && u.kind != Kind::SiegeGun).collect();
    let defenders: Vec<&super::state::Unit> = all_def.iter().copied().filter(|u| !u.retreated).collect();
    let stragglers: Vec<String> = all_def.iter().filter(|u| u.retreated).map(|u| u.id.clone()).collect();
    // GE-13.24: the bracketed cavalry factor is used against a cavalry-only force.
    let att_cav_only = attackers.iter().all(|u| u.kind == Kind::Cavalry);
    let def_cav_only = !defenders.is_empty() && defenders.iter().all(|u| u.kind == Kind::Cavalry);
    let fortress = defenders.iter().any(|u| u.kind == Kind::Fortress);
    let fort_nations: BTreeSet<&str> = defenders.iter().filter(|u| u.kind == Kind::Fortress).map(|u| u.nation.as_str()).collect();
    // Per unit and per kind of supply (GE-7.3, 7.7-7.10): `supply::SupplyAll`.
    let sup = supply::SupplyAll::of(state);
    let mut attack = 0;
    for u in &attackers {
        let vals = u.now();
        let mut f = match (u.kind, def_cav_only, vals.vs_cavalry) {
            (Kind::Cavalry, true, Some((a, _))) => a,
            _ => vals.attack,
        };
        // GE-7.6: out-of-supply factors are halved, rounded down, per unit.
        let oos = match kind {
            BattleKind::March => u.oos_at_start,
            BattleKind::Prepared => !sup.unit(u, supply::Use::Attack),
        };
        if oos {
            f /= 2;
        }
        attack += f;
    }
    let mut defence = 0;
    for u in &defenders {
        let vals = u.now();
        let mut f = match (u.kind, att_cav_only, vals.vs_cavalry) {
            (Kind::Cavalry, true, Some((_, d))) => d,
            _ => vals.defence,
        };
        // GE-7.7: a fortress, and same-nationality units with it, are supplied for defence.
        let fort_supplied = u.kind == Kind::Fortress || fort_nations.contains(u.nation.as_str());
        if !fort_supplied && !sup.unit(u, supply::Use::Defence) {
            f /= 2;
        }
        defence += f;
    }
    let odds = tables::odds(attack, defence);
    let odds_text = tables::odds_text(attack, defence);
    let (mut drm, mut parts) = state.board.hex_drm(target);
    // GE-13.15: the river DRM only if every attacker attacks across a river, once.
    let all_river = !attackers.is_empty() && attackers.iter().all(|u| u.hex().is_some_and(|h| state.board.river(h, target).is_some()));
    if all_river {
        drm -= 1;
        parts.push("river -1".into());
    }
    // GE-14.3: mobile units defending in their fortified zone.
    if super::fortified::defended(state, target, side.other()) {
        drm -= 1;
        parts.push("fortified zone -1".into());
    }
    // GE-13.16: concentric +2, never in a march assault, never against a fortress.
    if kind == BattleKind::Prepared && !fortress {
        let dirs: BTreeSet<Direction> = attackers.iter().filter_map(|u| u.hex()).filter_map(|h| target.direction_to(h)).collect();
        if concentric(&dirs) {
            drm += 2;
            parts.push("concentric +2".into());
        }
    }
    if let Odds::Column { extra_drm, .. } = odds
        && extra_drm > 0
    {
        drm += extra_drm;
        parts.push(format!("odds above 5:1 +{extra_drm}"));
    }
    let mut battle = Battle {
        kind,
        attacker: side,
        target,
        attackers: units.to_vec(),
        defenders: defenders.iter().map(|u| u.id.clone()).collect(),
        stragglers,
        attack,
        defence,
        odds,
        odds_text,
        drm,
        drm_parts: parts,
        fortress,
        stage: Stage::Roll,
        result: None,
        withdrawn: false,
        dummies: false,
        stood: false,
        siege: vec![],
        opening: false,
    };
    // GE 13.8: hidden counters are seen only when the odds are computed, which waits for
    // their owner to open them (`after_opening`); nothing computed from placeholders shows.
    if !hidden_in_target(state, side, target).is_empty() {
        battle.opening = true;
        battle.defence = 0;
        battle.odds_text = "?".into();
        battle.drm = 0;
        battle.drm_parts.clear();
    }
    battle
}

/// The hidden counters of the side defending against `side` in `target` (GE 13.8).
pub fn hidden_in_target(state: &State, side: SideId, target: HexId) -> Vec<String> {
    state.units_at(target).filter(|u| u.side != side && super::counters::is_hidden(u)).map(|u| u.id.clone()).collect()
}

/// GE 13.25 with hidden defenders: the public cannot tell whether the defenders are cavalry
/// alone, so it may apply when no attacker is cavalry and every shown defender is (reading,
/// docs/glorys-end/hidden-counters.md D5). Then no die is rolled at declaration.
fn may_withdraw_unseen(state: &State, b: &Battle) -> bool {
    let no_cav = b.attackers.iter().all(|id| state.unit(id).is_some_and(|u| u.kind != Kind::Cavalry));
    let shown_cav = state
        .units_at(b.target)
        .filter(|u| u.side != b.attacker && u.kind != Kind::SiegeGun && !super::counters::is_hidden(u))
        .all(|u| u.kind == Kind::Cavalry);
    no_cav && shown_cav
}

/// GE-13.16: an opposite pair or an alternating triple of directions (the geometry the
/// 1914 box shares, [`crate::geo::hex::concentric`]).
pub fn concentric(dirs: &BTreeSet<Direction>) -> bool {
    crate::geo::hex::concentric(dirs)
}

/// Start a declared battle: an automatic 2/0 applies at once, otherwise the roll is pending.
pub fn start(state: &mut State, battle: Battle) -> Vec<Event> {
    let rule = if battle.kind == BattleKind::March { "GE 13.23" } else { "GE 13.3" };
    let mut ev = vec![if battle.opening {
        Event::rule(
            rule,
            format!(
                "{} by {} on {}: attack {} vs {}: the odds are computed when the defender opens his counters (GE 13.8)",
                battle.kind.name(),
                battle.attackers.join(", "),
                battle.target,
                battle.attack,
                battle.defenders.iter().chain(&battle.stragglers).cloned().collect::<Vec<_>>().join(", "),
            ),
        )
    } else {
        Event::rule(
            rule,
            format!(
                "{} by {} on {}: attack {} vs defence {}, odds {}, DRM {:+}{}",
                battle.kind.name(),
                battle.attackers.join(", "),
                battle.target,
                battle.attack,
                battle.defence,
                battle.odds_text,
                battle.drm,
                if battle.drm_parts.is_empty() { String::new() } else { format!(" ({})", battle.drm_parts.join(", ")) }
            ),
        )
    }];
    for id in &battle.attackers {
        if let Some(u) = state.unit_mut(id) {
            u.attacked = true;
            if battle.kind == BattleKind::March {
                u.move_state = super::state::MoveState::Done;
            }
        }
    }
    for id in battle.defenders.iter().chain(battle.stragglers.iter()) {
        if let Some(u) = state.unit_mut(id) {
            u.defended = true;
        }
    }
    if battle.kind == BattleKind::March {
        state.ma_targets.push(battle.target);
    }
    let target = battle.target;
    let siege = !battle.siege.is_empty();
    state.battle = Some(battle);
    if siege {
        // GE-14.9: the guns roll first, with the battle's die (`siege.rs`).
        ev.push(Event::rule("GE 14.9", format!("siege guns fire at the fortress in {target} before the combat roll")));
        return ev;
    }
    if let Some(b) = state.battle.as_mut()
        && b.opening
    {
        // The CRT die is rolled now and kept (`roll`) unless 13.25 may apply, which the
        // defender's entry settles once the counters are open (`after_opening`).
        let unseen = b.clone();
        if may_withdraw_unseen(state, &unseen) {
            ev.push(Event::rule(
                "GE 13.25",
                format!("no attacker is cavalry and the defenders in {target} may be cavalry alone: no roll before they are shown"),
            ));
            if let Some(b) = state.battle.as_mut() {
                b.stage = Stage::Opening { die: None };
            }
        }
        return ev;
    }
    if withdraw_options(state).is_some() {
        ev.push(Event::rule(
            "GE 13.25",
            format!("cavalry alone in {target}, attacked by a force without cavalry, may withdraw before combat"),
        ));
        if let Some(b) = state.battle.as_mut() {
            b.stage = Stage::Withdraw;
        }
        ev.extend(advance_stages(state));
        return ev;
    }
    ev.extend(fight(state));
    ev
}

/// The battle goes ahead: the roll is pending, or an automatic 2/0 applies at once (GE-13.11).
pub fn fight(state: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(b) = state.battle.as_mut() else { return ev };
    b.stage = Stage::Roll;
    if b.odds == Odds::Automatic && !b.opening {
        ev.push(Event::rule("GE 13.11", "odds worse than 1:2: automatic 2/0, no roll"));
        ev.extend(apply_result(state, AUTOMATIC));
    }
    ev
}

/// GE-13.25: when every defending unit is cavalry and no attacker is, the defenders (ids) and
/// the hexes they may withdraw to before combat (13.19's best tier; reading: never off the
/// map). `None` when the rule does not apply or no hex can take them.
pub fn withdraw_options(state: &State) -> Option<(Vec<String>, Vec<RetreatTo>)> {
    let b = state.battle.as_ref()?;
    let side = b.attacker.other();
    let ids: Vec<String> = state.units_at(b.target).filter(|u| u.side == side && u.kind != Kind::SiegeGun).map(|u| u.id.clone()).collect();
    let all_cav = !ids.is_empty() && ids.iter().all(|id| state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry));
    let no_cav = b.attackers.iter().all(|id| state.unit(id).is_some_and(|u| u.kind != Kind::Cavalry));
    if !all_cav || !no_cav {
        return None;
    }
    let opts: Vec<RetreatTo> =
        retreat_options(state, b.target, side, &ids).into_iter().filter(|o| matches!(o, RetreatTo::Hex(_))).collect();
    if opts.is_empty() { None } else { Some((ids, opts)) }
}

/// The defending cavalry withdraws to `to` before combat (GE-13.25): no result; the attacker
/// may advance (13.21) and, in a PA, attack again.
pub fn withdraw(state: &mut State, to: HexId) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some((ids, _)) = withdraw_options(state) else { return ev };
    let Some(b) = state.battle.as_mut() else { return ev };
    b.withdrawn = true;
    b.stage = Stage::Attacker { lp: 0 };
    let (from, side) = (b.target, b.attacker.other());
    for id in &ids {
        if let Some(u) = state.unit_mut(id) {
            u.place = Place::Hex(to);
            // Not attacked: it may be attacked again, and defends normally (13.25, 13.6).
            u.defended = false;
            u.retreated = false;
        }
    }
    state.entered(to, side, true);
    ev.push(Event::rule("GE 13.25", format!("{} withdraw before combat from {from} to {to}", ids.join(", "))));
    // GE-14.5, 14.7: leaving a fortified zone destroys it; guns left alone are lost.
    ev.extend(super::fortified::left(state, from));
    ev.extend(super::siege::abandoned(state, from, side, "withdrew"));
    ev.extend(advance_stages(state));
    ev
}

/// Roll for the pending battle and apply what needs no decision (GE-13.3 step 5).
pub fn roll(state: &mut State, die: u32) -> Vec<Event> {
    let Some(b) = state.battle.clone() else { return vec![] };
    if b.opening {
        // GE 13.8: the die is the attack's, but the odds wait for the defenders to be shown.
        let ev = vec![
            Event::roll(format!("{} on {}: CRT roll", b.kind.name(), b.target), "d6", die),
            Event::rule(
                "GE 13.8",
                format!(
                    "the die is kept until the {} player opens {} in {}",
                    b.attacker.other().title(),
                    hidden_in_target(state, b.attacker, b.target).join(", "),
                    b.target
                ),
            ),
        ];
        if let Some(bb) = state.battle.as_mut() {
            bb.stage = Stage::Opening { die: Some(die) };
        }
        return ev;
    }
    let Odds::Column { column, .. } = b.odds else { return vec![] };
    let mut ev = vec![Event::roll(format!("{} on {}: CRT roll", b.kind.name(), b.target), "d6", die)];
    let (e, res) = crt_result(&b, column, die);
    ev.extend(e);
    ev.extend(apply_result(state, res));
    ev
}

/// The CRT result of `die` on `column` with the battle's DRM (GE 13.12).
fn crt_result(b: &Battle, column: usize, die: u32) -> (Vec<Event>, CrtResult) {
    let fin = tables::final_roll(die, b.drm);
    let res = tables::crt(column, fin);
    (vec![Event::rule("GE 13.12", format!("final roll {fin} on the {} column: {res}", tables::COLUMNS[column]))], res)
}

/// After the openings of an entry (`GlorysEnd::hidden`): once no hidden counter is left in
/// the attacked hex, fix the odds and DRM as a declaration does (GE 13.8) and go on as if
/// the die had just been rolled, or, when no die was rolled (13.25), ask the defender to
/// withdraw or stand. Either way the battle waits for the defender's decision, which the
/// entry that opened the counters gives (an orders entry must be awaited after its openings,
/// so nothing of his is applied for him here, not even standing instructions).
pub fn after_opening(state: &mut State) -> Vec<Event> {
    let Some(b) = state.battle.clone() else { return vec![] };
    let Stage::Opening { die } = b.stage else { return vec![] };
    if !hidden_in_target(state, b.attacker, b.target).is_empty() {
        return vec![];
    }
    // GE 15.2: nothing but dummies (and perhaps siege guns, which do not defend) was there.
    if !state.units_at(b.target).any(|u| u.side != b.attacker && u.kind != Kind::SiegeGun) {
        return super::dummies::no_combat(state);
    }
    let shown = compute(state, b.kind, b.attacker, b.target, &b.attackers);
    let mut nb = Battle { stage: b.stage.clone(), withdrawn: b.withdrawn, stood: b.stood, siege: b.siege.clone(), ..shown };
    nb.opening = false;
    let mut ev = vec![Event::rule(
        "GE 13.8",
        format!(
            "the defenders of {} are shown: attack {} vs defence {}, odds {}, DRM {:+}{}",
            nb.target,
            nb.attack,
            nb.defence,
            nb.odds_text,
            nb.drm,
            if nb.drm_parts.is_empty() { String::new() } else { format!(" ({})", nb.drm_parts.join(", ")) }
        ),
    )];
    let odds = nb.odds;
    state.battle = Some(nb);
    match (die, odds) {
        (None, _) => {
            if let Some(bb) = state.battle.as_mut() {
                bb.stage = Stage::Withdraw;
            }
            ev.push(Event::rule(
                "GE 13.25",
                if withdraw_options(state).is_some() {
                    format!("cavalry alone in {}, attacked by a force without cavalry, may withdraw before combat", b.target)
                } else {
                    format!(
                        "the defenders of {} cannot withdraw before combat: they stand, and the roll is the defender's entry's",
                        b.target
                    )
                },
            ));
        }
        (Some(_), Odds::Automatic) => {
            ev.push(Event::rule("GE 13.11", "odds worse than 1:2: automatic 2/0; the kept die is not used"));
            ev.extend(set_result(state, AUTOMATIC));
        }
        (Some(d), Odds::Column { column, .. }) => {
            let Some(bb) = state.battle.clone() else { return ev };
            let (e, res) = crt_result(&bb, column, d);
            ev.push(Event::rule("GE 13.8", format!("the kept die {d} is applied")));
            ev.extend(e);
            ev.extend(set_result(state, res));
        }
    }
    ev
}

fn apply_result(state: &mut State, res: CrtResult) -> Vec<Event> {
    let mut ev = set_result(state, res);
    ev.extend(advance_stages(state));
    ev
}

/// Record a CRT result: stragglers die, the defender's stage is set (not applied).
fn set_result(state: &mut State, res: CrtResult) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(b) = state.battle.as_mut() else { return ev };
    b.result = Some(res);
    let target = b.target;
    let stragglers = b.stragglers.clone();
    // GE-13.18: units that retreated here this phase die if the hex takes any LP.
    if res.defender_lp > 0 {
        for id in stragglers {
            if state.unit(&id).is_some_and(|u| u.place == Place::Hex(target)) {
                ev.push(Event::rule("GE 13.18", format!("{id} retreated into {target} earlier this phase and is eliminated")));
                ev.extend(vp::eliminate(state, &id));
            }
        }
    }
    let fortress_hex = state.units_at(target).any(|u| u.kind == Kind::Fortress)
        || state.battle.as_ref().is_some_and(|b| {
            super::entrench::entrenched(state, target, b.attacker.other()) || super::fortified::defended(state, target, b.attacker.other())
        });
    let retreat = if res.retreat {
        // GE-14.1, 14.2: defenders in a fortress hex may ignore a mandatory retreat.
        if fortress_hex { RetreatNeed::Optional } else { RetreatNeed::Mandatory }
    } else if res.defender_lp > 0 {
        RetreatNeed::Optional
    } else {
        RetreatNeed::None
    };
    if let Some(b) = state.battle.as_mut() {
        b.stage = Stage::Defender { lp: res.defender_lp, retreat };
    }
    ev
}

/// Defending units still in the battle.
pub fn live_defenders(state: &State) -> Vec<String> {
    let Some(b) = &state.battle else { return vec![] };
    b.defenders.iter().filter(|id| state.unit(id).is_some_and(|u| u.place == Place::Hex(b.target))).cloned().collect()
}

/// Attacking units still in the battle.
pub fn live_attackers(state: &State) -> Vec<String> {
    let Some(b) = &state.battle else { return vec![] };
    b.attackers.iter().filter(|id| state.unit(id).is_some_and(|u| matches!(u.place, Place::Hex(_)))).cloned().collect()
}

/// The only legal allocation of `lp` among `units`, if there is exactly one (GE-13.20,
/// 14.2: a fortress is the last SL lost). `None` when the owner has a choice.
pub fn forced_allocation(state: &State, units: &[String], lp: u32) -> Option<Vec<(String, u32)>> {
    let mobile: Vec<&super::state::Unit> = units.iter().filter_map(|id| state.unit(id)).filter(|u| u.mobile()).collect();
    let forts: Vec<&super::state::Unit> = units.iter().filter_map(|id| state.unit(id)).filter(|u| !u.mobile()).collect();
    let m: u32 = mobile.iter().map(|u| u.sl as u32).sum();
    if lp == 0 {
        return Some(vec![]);
    }
    if lp >= m {
        // Every mobile SL goes; what is left falls on the fortress (surplus ignored).
        let mut out: Vec<(String, u32)> = mobile.iter().map(|u| (u.id.clone(), u.sl as u32)).collect();
        let mut rest = lp - m;
        for f in forts {
            let take = rest.min(f.sl as u32);
            if take > 0 {
                out.push((f.id.clone(), take));
            }
            rest -= take;
        }
        return Some(out);
    }
    if mobile.len() == 1 {
        return Some(vec![(mobile[0].id.clone(), lp)]);
    }
    None
}

/// GE 14.5: defenders who retreat out of a fortress destroy it, and the fortress's own SL
/// count toward the loss. The SL of the fortresses among `live` (0 if none).
pub fn fortress_credit(state: &State, live: &[String]) -> u32 {
    live.iter().filter_map(|id| state.unit(id)).filter(|u| u.kind == Kind::Fortress).map(|u| u.sl as u32).sum()
}

/// The allocation problem of a defender retreating out of a fortress (GE 14.5): the mobile
/// units of `live`, the LP left for them once the fortress's own SL have counted, and
/// `losses` without the fortress entries (a fortress may be listed with at most its SL:
/// it is destroyed by the retreat in any case).
pub fn fortress_retreat_losses(
    state: &State,
    live: &[String],
    lp: u32,
    losses: &[(String, u32)],
    errs: &mut Vec<Violation>,
) -> (Vec<String>, u32, Vec<(String, u32)>) {
    let credit = fortress_credit(state, live);
    let mobile: Vec<String> = live.iter().filter(|id| state.unit(id).is_some_and(|u| u.mobile())).cloned().collect();
    let mut rest = Vec::new();
    for (id, sl) in losses {
        match state.unit(id) {
            Some(u) if u.kind == Kind::Fortress && live.contains(id) => {
                if *sl > u.sl as u32 {
                    errs.push(v("GE 13.20", format!("the fortress has {} SL; it cannot lose {sl}", u.sl)).unit(id));
                }
            }
            _ => rest.push((id.clone(), *sl)),
        }
    }
    (mobile, lp.saturating_sub(credit), rest)
}

/// Check an allocation (GE-13.20, 14.2).
pub fn check_allocation(state: &State, units: &[String], lp: u32, losses: &[(String, u32)]) -> Vec<Violation> {
    let mut errs = Vec::new();
    let mut total: u32 = 0;
    let mut seen = BTreeSet::new();
    for (id, sl) in losses {
        if !seen.insert(id.clone()) {
            errs.push(v("GE 13.20", "a unit is listed twice in the losses").unit(id));
        }
        if !units.contains(id) {
            errs.push(v("GE 13.20", "losses are taken only by units in this battle on your side").unit(id));
            continue;
        }
        let have = state.unit(id).map_or(0, |u| u.sl as u32);
        if *sl == 0 || *sl > have {
            errs.push(v("GE 13.20", format!("the unit has {have} SL; it cannot lose {sl}")).unit(id));
        }
        total = total.saturating_add(*sl);
    }
    let available: u32 = units.iter().filter_map(|id| state.unit(id)).map(|u| u.sl as u32).sum();
    let due = lp.min(available);
    if total != due {
        errs.push(v("GE 13.20", format!("the losses must total {due} SL (allocated {total})")));
    }
    // GE-14.2: the fortress is the last SL lost.
    let mobile_sl: u32 = units.iter().filter_map(|id| state.unit(id)).filter(|u| u.mobile()).map(|u| u.sl as u32).sum();
    let mobile_lost: u32 =
        losses.iter().filter(|(id, _)| state.unit(id).is_some_and(|u| u.mobile())).fold(0u32, |acc, (_, s)| acc.saturating_add(*s));
    let fort_lost = losses.iter().any(|(id, _)| state.unit(id).is_some_and(|u| !u.mobile()));
    if fort_lost && mobile_lost < mobile_sl {
        errs.push(v("GE 14.2", "the fortress must be the last defending SL lost"));
    }
    errs
}

/// Where a retreat may end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetreatTo {
    Hex(HexId),
    /// Off the map (Marne, GE-16.1), across the given edge hex's border.
    OffMap {
        east_or_west: bool,
    },
}

/// Legal retreat destinations for `units` of `side` leaving `from`, best preference tier
/// only (GE-13.18, 13.19). Empty if none.
pub fn retreat_options(state: &State, from: HexId, side: SideId, units: &[String]) -> Vec<RetreatTo> {
    let dirs = retreat_directions(side);
    let enemy_in = |h: HexId| state.occupant(h) == Some(side.other());
    let mut frontier = vec![from];
    let mut seen = BTreeSet::from([from]);
    let mut offmap = None;
    // GE 13.19: past full hexes "a third, fourth, nth time" until a hex can take the stack;
    // `seen` makes every hex a candidate once, so the search ends.
    for depth in 0.. {
        let mut cands = Vec::new();
        for &f in &frontier {
            for d in dirs {
                match f.neighbour(d) {
                    Some(n) if state.board.in_play(n) => {
                        // Reading of GE-14.3: an enemy fortified zone blocks a retreat as it blocks a move.
                        if state.board.passable(f, n) && !enemy_in(n) && !super::fortified::enemy_zone(state, n, side) && seen.insert(n) {
                            cands.push(n);
                        }
                    }
                    _ => {
                        // GE 13.18: never off the map, except the Marne's own rule (16.1).
                        if depth == 0 && state.campaign.is_none() {
                            offmap = Some(d == 1 || d == 4);
                        }
                    }
                }
            }
        }
        if cands.is_empty() {
            break;
        }
        let holds: Vec<HexId> = cands
            .iter()
            .copied()
            .filter(|&n| !super::counters::blocks_retreat(state, n, side) && stacking::can_end(state, n, side, units).is_empty())
            .collect();
        if !holds.is_empty() {
            let tier = |h: HexId| {
                let adj = state.board.neighbours(h).iter().any(|&n| enemy_in(n)) as u8;
                let friends = state.units_at(h).any(|u| u.side == side) as u8;
                adj * 2 + friends
            };
            let best = holds.iter().map(|&h| tier(h)).min().unwrap_or(0);
            return holds.into_iter().filter(|&h| tier(h) == best).map(RetreatTo::Hex).collect();
        }
        // GE-13.19: every hex would overstack: keep retreating from them.
        frontier = cands;
    }
    // GE-16.1: in the Marne a retreat may leave the map (reading: only when no hex on the map
    // can take the stack). In the campaigns it never may (13.18): no hex eliminates (13.19).
    match offmap {
        Some(ew) => vec![RetreatTo::OffMap { east_or_west: ew }],
        None => vec![],
    }
}

/// Apply the current stage automatically while nobody has a choice; stop at a decision.
pub fn advance_stages(state: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    loop {
        let Some(b) = state.battle.clone() else { return ev };
        match b.stage {
            Stage::Roll | Stage::Opening { .. } => return ev,
            Stage::Withdraw => {
                let Some((_, opts)) = withdraw_options(state) else {
                    ev.extend(fight(state));
                    continue;
                };
                let side = b.attacker.other();
                match standing::of(state, side).and_then(|s| s.cavalry_withdraws) {
                    Some(Choice::Never) => {
                        ev.push(Event::rule("GE 13.25", format!("standing instructions: the {} cavalry stands and fights", side.title())));
                        ev.extend(fight(state));
                    }
                    Some(Choice::Always) => {
                        let Some(RetreatTo::Hex(h)) = standing::retreat_hex(state, side, &opts) else { return ev };
                        ev.push(Event::rule("GE 13.25", format!("standing instructions: the {} cavalry withdraws", side.title())));
                        ev.extend(withdraw(state, h));
                        return ev;
                    }
                    None => return ev,
                }
            }
            Stage::Defender { lp, retreat } => {
                let live = live_defenders(state);
                let side = b.attacker.other();
                if let Some(e) = standing_fortress_retreat(state, side, &live, lp, retreat) {
                    ev.extend(e);
                    continue;
                }
                let forced = forced_allocation(state, &live, lp);
                let by_standing = forced.is_none();
                let Some(alloc) = forced.or_else(|| standing::losses(state, side, &live, lp)) else { return ev };
                // Who survives the forced allocation?
                let survivors: Vec<String> = live
                    .iter()
                    .filter(|id| state.unit(id).is_some_and(|u| alloc.iter().find(|(a, _)| a == *id).is_none_or(|(_, s)| *s < u.sl as u32)))
                    .cloned()
                    .collect();
                let mobile_survivors: Vec<String> =
                    survivors.iter().filter(|id| state.unit(id).is_some_and(|u| u.mobile())).cloned().collect();
                let opts = if mobile_survivors.is_empty() {
                    vec![]
                } else {
                    retreat_options(state, b.target, b.attacker.other(), &mobile_survivors)
                };
                let standing_says = standing::of(state, side).is_some();
                let auto_retreat = match retreat {
                    RetreatNeed::None => Some(None),
                    RetreatNeed::Optional => {
                        if mobile_survivors.is_empty() || opts.iter().all(|o| matches!(o, RetreatTo::OffMap { .. })) {
                            Some(None)
                        } else {
                            match standing::of(state, side).and_then(|s| s.optional_retreat) {
                                Some(Choice::Never) => Some(None),
                                Some(Choice::Always) => match standing::retreat_hex(state, side, &opts) {
                                    Some(r) => Some(Some(r)),
                                    None => return ev,
                                },
                                None => return ev,
                            }
                        }
                    }
                    RetreatNeed::Mandatory => match opts.len() {
                        0 => Some(None),
                        1 => Some(Some(opts[0].clone())),
                        _ => match standing::retreat_hex(state, side, &opts) {
                            Some(r) => Some(Some(r)),
                            None => return ev,
                        },
                    },
                };
                let Some(r) = auto_retreat else { return ev };
                if by_standing || (standing_says && retreat != RetreatNeed::None && opts.len() > 1) {
                    let l: Vec<String> = alloc.iter().map(|(id, sl)| format!("{id} {sl} SL")).collect();
                    let r_txt = match &r {
                        Some(RetreatTo::Hex(h)) => format!("retreat to {h}"),
                        Some(RetreatTo::OffMap { .. }) => "retreat off the map".into(),
                        None => "no retreat".into(),
                    };
                    ev.push(Event::rule(
                        "GE 13.20",
                        format!(
                            "standing instructions of the {} player: losses {}; {r_txt}",
                            side.title(),
                            if l.is_empty() { "none".into() } else { l.join(", ") }
                        ),
                    ));
                }
                ev.extend(apply_defender(state, &alloc, r, retreat == RetreatNeed::Mandatory));
            }
            Stage::Attacker { lp } => {
                let live = live_attackers(state);
                // In a batch the attacker's own standing instructions answer what a `decide`
                // would (declare_batch made sure they cover it).
                let batch = state.batch.is_some();
                let forced = forced_allocation(state, &live, lp);
                let by_standing = forced.is_none();
                let alloc = match forced {
                    Some(a) => a,
                    None if batch => match standing::losses(state, b.attacker, &live, lp) {
                        Some(a) => a,
                        None => return ev,
                    },
                    None => return ev,
                };
                let survivors: Vec<String> = live
                    .iter()
                    .filter(|id| state.unit(id).is_some_and(|u| alloc.iter().find(|(a, _)| a == *id).is_none_or(|(_, s)| *s < u.sl as u32)))
                    .cloned()
                    .collect();
                let mut advance = Vec::new();
                let may_advance = can_advance(state, &survivors);
                if may_advance {
                    if !batch {
                        return ev;
                    }
                    let mut after = state.clone();
                    for (id, sl) in &alloc {
                        vp::lose(&mut after, id, *sl);
                    }
                    let Some(going) = standing::advancing(&after, b.attacker, b.target, &b.attackers, &survivors) else { return ev };
                    advance = going;
                }
                if batch && (by_standing || may_advance) {
                    let l: Vec<String> = alloc.iter().map(|(id, sl)| format!("{id} {sl} SL")).collect();
                    ev.push(Event::rule(
                        "GE 13.21",
                        format!(
                            "standing instructions of the {} player: losses {}; {}",
                            b.attacker.title(),
                            if l.is_empty() { "none".into() } else { l.join(", ") },
                            if advance.is_empty() { "no advance".into() } else { format!("advance {}", advance.join(", ")) }
                        ),
                    ));
                }
                ev.extend(apply_attacker(state, &alloc, &advance));
            }
        }
    }
}

/// Standing instructions that always take an optional retreat, in a fortress hex: the
/// fortress's own SL count toward the loss (GE 14.5). `None` when they do not apply or
/// leave a choice open (the ordinary path then asks or applies them).
fn standing_fortress_retreat(state: &mut State, side: SideId, live: &[String], lp: u32, retreat: RetreatNeed) -> Option<Vec<Event>> {
    if retreat != RetreatNeed::Optional || fortress_credit(state, live) == 0 {
        return None;
    }
    if standing::of(state, side).and_then(|s| s.optional_retreat) != Some(Choice::Always) {
        return None;
    }
    let (mobile, rest_lp, _) = fortress_retreat_losses(state, live, lp, &[], &mut Vec::new());
    let alloc = forced_allocation(state, &mobile, rest_lp).or_else(|| standing::losses(state, side, &mobile, rest_lp))?;
    let mut probe = state.clone();
    for (id, sl) in &alloc {
        vp::lose(&mut probe, id, *sl);
    }
    let survivors: Vec<String> = live_defenders(&probe).into_iter().filter(|id| probe.unit(id).is_some_and(|u| u.mobile())).collect();
    if survivors.is_empty() {
        return None;
    }
    let b = state.battle.as_ref()?;
    let opts = retreat_options(&probe, b.target, side, &survivors);
    let r @ RetreatTo::Hex(h) = standing::retreat_hex(state, side, &opts)? else { return None };
    let l: Vec<String> = alloc.iter().map(|(id, sl)| format!("{id} {sl} SL")).collect();
    let mut ev = vec![
        Event::rule(
            "GE 13.20",
            format!(
                "standing instructions of the {} player: losses {}; retreat to {h}",
                side.title(),
                if l.is_empty() { "none".into() } else { l.join(", ") }
            ),
        ),
        Event::rule("GE 14.5", format!("the fortress's own {} SL count toward the {lp} LP", lp - rest_lp)),
    ];
    ev.extend(apply_defender(state, &alloc, Some(r), false));
    Some(ev)
}

/// Whether any surviving attacker could advance into the emptied target (GE-13.21).
pub fn can_advance(state: &State, survivors: &[String]) -> bool {
    !advancers(state, survivors).is_empty()
}

/// The survivors that may each advance into the target (GE-13.21): none while the defender
/// still holds it.
pub fn advancers(state: &State, survivors: &[String]) -> Vec<String> {
    let Some(b) = &state.battle else { return vec![] };
    if state.occupant(b.target) == Some(b.attacker.other()) {
        return vec![];
    }
    let enemy_trench = state.trenches.get(&b.target).is_some_and(|t| t.side != b.attacker);
    survivors
        .iter()
        .filter(|id| {
            // GE-9.4, 13.21 reading: cavalry does not advance into an enemy trench hex.
            !(enemy_trench && state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry))
                && stacking::can_end(state, b.target, b.attacker, std::slice::from_ref(*id)).is_empty()
        })
        .cloned()
        .collect()
}

/// Apply the defender's losses and retreat (GE-13.18–13.20), then move to the attacker's stage.
pub fn apply_defender(state: &mut State, losses: &[(String, u32)], retreat: Option<RetreatTo>, mandatory: bool) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(b) = state.battle.clone() else { return ev };
    for (id, sl) in losses {
        ev.extend(vp::lose(state, id, *sl));
    }
    // GE-14.3, 14.7: the last mobile SL gone takes the fortified zone and the guns with it.
    ev.extend(super::fortified::after_losses(state, b.target));
    ev.extend(super::siege::abandoned(state, b.target, b.attacker.other(), "were eliminated"));
    let survivors: Vec<String> = live_defenders(state).into_iter().filter(|id| state.unit(id).is_some_and(|u| u.mobile())).collect();
    if !survivors.is_empty() {
        match retreat {
            Some(RetreatTo::Hex(h)) => {
                let cav_only = survivors.iter().all(|id| state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry));
                for id in &survivors {
                    if let Some(u) = state.unit_mut(id) {
                        u.place = Place::Hex(h);
                        u.retreated = true;
                    }
                }
                state.entered(h, b.attacker.other(), cav_only);
                ev.push(Event::rule("GE 13.18", format!("{} retreat from {} to {h}", survivors.join(", "), b.target)));
                // GE-14.5: retreating out of a fortress destroys it.
                let forts: Vec<String> = state.units_at(b.target).filter(|u| u.kind == Kind::Fortress).map(|u| u.id.clone()).collect();
                for f in forts {
                    ev.push(Event::rule("GE 14.5", format!("the defenders leave fortress {f}: it is destroyed")));
                    ev.extend(vp::eliminate(state, &f));
                }
                if state.trenches.remove(&b.target).is_some() {
                    ev.push(Event::rule("GE 14.5", format!("the defenders leave the trench in {}: it is destroyed", b.target)));
                }
                ev.extend(super::fortified::left(state, b.target));
                ev.extend(super::siege::abandoned(state, b.target, b.attacker.other(), "retreated"));
            }
            Some(RetreatTo::OffMap { east_or_west }) => {
                for id in &survivors {
                    // GE-16.1: off the map is out of play; Germans off the east or west edge count as eliminated.
                    if b.attacker.other() == SideId::German && east_or_west {
                        ev.push(Event::rule("GE 16.1", format!("{id} retreats off the east/west map edge and counts as eliminated")));
                        ev.extend(vp::eliminate(state, id));
                    } else if let Some(u) = state.unit_mut(id) {
                        u.place = Place::OffMap;
                        ev.push(Event::rule("GE 16.1", format!("{id} retreats off the map: out of play, not eliminated")));
                    }
                }
                ev.extend(super::fortified::left(state, b.target));
                ev.extend(super::siege::abandoned(state, b.target, b.attacker.other(), "retreated"));
            }
            None if mandatory => {
                for id in &survivors {
                    ev.push(Event::rule("GE 13.19", format!("{id} has no legal retreat hex and is eliminated")));
                    ev.extend(vp::eliminate(state, id));
                }
                ev.extend(super::fortified::after_losses(state, b.target));
                ev.extend(super::siege::abandoned(state, b.target, b.attacker.other(), "were eliminated"));
            }
            None => {}
        }
    }
    let res = b.result.unwrap_or(AUTOMATIC);
    // GE-14.2: +2 attacker LP in a prepared assault on a fortress.
    let extra = if b.fortress && b.kind == BattleKind::Prepared { 2 } else { 0 };
    if extra > 0 {
        ev.push(Event::rule("GE 14.2", "prepared assault on a fortress: attacker loses 2 more LP"));
    }
    if let Some(bb) = state.battle.as_mut() {
        bb.stage = Stage::Attacker { lp: res.attacker_lp + extra };
    }
    if b.dummies && b.kind == BattleKind::March {
        ev.extend(super::dummies::moves_on(state));
    }
    ev
}

/// Apply the attacker's losses and advance (GE-13.20, 13.21) and close the battle.
pub fn apply_attacker(state: &mut State, losses: &[(String, u32)], advance: &[String]) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(b) = state.battle.clone() else { return ev };
    for (id, sl) in losses {
        ev.extend(vp::lose(state, id, *sl));
    }
    if !advance.is_empty() {
        let cav_only = advance.iter().all(|id| state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry));
        for id in advance {
            if let Some(u) = state.unit_mut(id) {
                u.place = Place::Hex(b.target);
            }
        }
        state.entered(b.target, b.attacker, cav_only);
        ev.push(Event::rule("GE 13.21", format!("{} advance into {}", advance.join(", "), b.target)));
    }
    if b.dummies && b.kind == BattleKind::Prepared {
        ev.extend(super::dummies::after_advance(state, advance));
    }
    if b.withdrawn && b.kind == BattleKind::Prepared {
        // GE-13.25: the attack found no one; the attackers may declare a new prepared assault.
        let again: Vec<String> = b.attackers.iter().filter(|id| state.unit(id).is_some_and(|u| u.hex().is_some())).cloned().collect();
        for id in &again {
            if let Some(u) = state.unit_mut(id) {
                u.attacked = false;
            }
        }
        ev.push(Event::rule("GE 13.25", format!("{} may attack again this phase", again.join(", "))));
    }
    ev.push(Event::say(format!("{} on {} is over", b.kind.name(), b.target)));
    state.battle = None;
    ev
}

/// Declare a batch of prepared assaults (DESIGN §2.5; GE 13.2 lets the attacks follow in any
/// order, each finished before the next): the attacker names them all before any roll, a
/// voluntary loss of what he would learn from each result. They are validated as a whole on
/// the state before the first roll — each a legal prepared assault now, no target twice, no
/// unit in two, no siege gun fire (14.9 rolls apart) and no hidden counter to open (13.8:
/// the defender's own entry opens them) — and only when both sides' standing instructions
/// settle every decision a battle can bring (`standing::batch_gaps`). The first battle
/// starts now; the others start one by one as each is settled (`next_of_batch`), all with
/// this entry's dice.
pub fn declare_batch(state: &mut State, side: SideId, list: &[super::orders::Assault]) -> Result<Vec<Event>, Vec<Violation>> {
    if state.phase != super::state::Phase::Combat {
        return Err(vec![v("GE 13.1", "prepared assaults are made in the prepared assault phase (end the movement phase first)")]);
    }
    if state.campaign.is_some() {
        return Err(vec![v(
            "GE 13.2",
            "batches of prepared assaults are not built for the campaigns (their per-attack checks: Plan XVII, withdrawal, Hentsch): declare each with `attack`",
        )]);
    }
    let mut errs = Vec::new();
    if list.is_empty() {
        errs.push(v("GE 13.2", "a batch names at least one attack"));
    }
    let mine = standing::batch_gaps(state, side, true);
    if !mine.is_empty() {
        errs.push(v(
            "GE 13.2",
            format!(
                "a batch takes every decision after each roll from standing instructions: file yours for {} first (a `standing` action before the batch)",
                mine.join(", ")
            ),
        ));
    }
    let theirs = standing::batch_gaps(state, side.other(), false);
    if !theirs.is_empty() {
        errs.push(v(
            "GE 13.2",
            format!(
                "the {} player's standing instructions leave {} open: a batch cannot wait for his decisions; attack one at a time",
                side.other().title(),
                theirs.join(", ")
            ),
        ));
    }
    let mut battles = Vec::new();
    for (i, a) in list.iter().enumerate() {
        if list[..i].iter().any(|b| b.target == a.target) {
            errs.push(v("GE 13.2", format!("{} is attacked twice in the batch", a.target)).hex(a.target.to_string()));
        }
        for id in &a.units {
            if list[..i].iter().any(|b| b.units.contains(id)) {
                errs.push(v("GE 13.6", "a unit attacks once: it is in two attacks of the batch").unit(id));
            }
        }
        errs.extend(moved_strategically(state, &a.units));
        if !a.siege.is_empty() {
            errs.push(
                v("GE 14.9", format!("siege guns fire in an attack of their own, not in a batch ({})", a.target)).hex(a.target.to_string()),
            );
        }
        match declare(state, BattleKind::Prepared, side, a.target, &a.units) {
            Ok(b) if b.opening => errs.push(
                v("GE 13.8", format!("hidden counters in {}: the defender opens them in his own entry, so attack it on its own", a.target))
                    .hex(a.target.to_string()),
            ),
            Ok(b) => battles.push(b),
            Err(e) => errs.extend(e),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let targets: Vec<String> = list.iter().map(|a| a.target.to_string()).collect();
    let mut ev = vec![Event::rule(
        "GE 13.2",
        format!("a batch of {} prepared assaults, made one after the other on {}", list.len(), targets.join(", ")),
    )];
    state.batch = Some(list[1..].to_vec());
    let first = battles.swap_remove(0);
    ev.extend(start(state, first));
    ev.extend(next_of_batch(state));
    Ok(ev)
}

/// Go on with a batch (`declare_batch`) once its current battle is settled: declare the next
/// attack (called off, with the reason, if the battles before made it illegal) and start it,
/// until one waits for its roll or the batch is done. A decision the instructions did not
/// settle (they were checked, so only an edge the check missed) stops the batch there: the
/// attacks left are not made.
pub fn next_of_batch(state: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    loop {
        let Some(queue) = state.batch.as_mut() else { return ev };
        if let Some(b) = &state.battle {
            if b.stage == Stage::Roll {
                return ev;
            }
            let left = queue.len();
            state.batch = None;
            if left > 0 {
                ev.push(Event::rule(
                    "GE 13.2",
                    format!("the batch stops: a decision is due in the battle of {}; {left} attack(s) not made", b.target),
                ));
            }
            return ev;
        }
        if queue.is_empty() || state.outcome.is_some() {
            state.batch = None;
            return ev;
        }
        let a = queue.remove(0);
        match declare(state, BattleKind::Prepared, state.player, a.target, &a.units) {
            Ok(b) if !b.opening => ev.extend(start(state, b)),
            Ok(_) => ev.push(Event::rule("GE 13.2", format!("the attack on {} is called off: hidden counters to open there", a.target))),
            Err(e) => ev.push(Event::rule(
                "GE 13.2",
                format!("the attack on {} is called off: {}", a.target, e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("; ")),
            )),
        }
    }
}

/// GE 13.22: the named units that used strategic movement this player turn, which may not
/// attack (a prepared assault or a batch of them).
pub fn moved_strategically(state: &State, units: &[String]) -> Vec<Violation> {
    units
        .iter()
        .filter(|id| state.unit(id).is_some_and(|u| u.strategic.is_some()))
        .map(|id| v("GE 13.22", "a unit that used strategic movement does not attack this player turn").unit(id))
        .collect()
}
