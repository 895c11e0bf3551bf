//! What follows a battle's roll (WEF 13.21-13.25, 13.27): the defender absorbs his loss
//! points first, as steps of his choice (13.23) and perhaps one retreat of every defender
//! (13.22); then the attacker takes his steps and may advance into the emptied hex (13.25) or,
//! on a B, break through (13.26, `advance`). Lone cavalry attacked by a force without
//! cavalry may retreat before the roll (13.27).
//!
//! Entries (DESIGN §2.5): the attack ends the attacker's entry; the defender's next entry
//! settles its die and, when the result leaves him a choice, carries his decision (a `decide`
//! action: it is an orders entry, not an ack). The attacker's decision opens his next entry,
//! which goes on with the next attack. Whatever leaves a side no choice is applied at once,
//! so a battle costs no more entries than before the decisions existed.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::board::Country;
use super::combat::{eliminate, guns_follow};
use super::crt::{Cell, Loss};
use super::movement::{self, AH_NORTH_LIMIT};
use super::orders::Decide;
use super::state::{Battle, Kind, Nat, Place, Side, State, Unit};
use super::{control, stacking};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// A battle waiting for a player's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub battle: Battle,
    pub stage: Stage,
    /// The CRT result being applied (`None` before the roll, 13.27).
    #[serde(default)]
    pub cell: Option<Cell>,
    /// The defending cavalry retreated before combat (13.27): no result; the attackers may
    /// advance and attack again.
    #[serde(default)]
    pub withdrawn: bool,
}

/// Where a battle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Lone cavalry may retreat before the roll, or stand (13.27).
    Cavalry,
    /// The defender absorbs `lp` loss points (13.22, 13.23).
    Defender { lp: u32 },
    /// The attacker absorbs `lp` loss points and may advance (13.23, 13.25) or break
    /// through (13.26).
    Attacker { lp: u32, breakthrough: bool },
}

impl Decision {
    /// The side that decides now.
    pub fn decider(&self) -> Side {
        match self.stage {
            Stage::Cavalry | Stage::Defender { .. } => self.battle.attacker.other(),
            Stage::Attacker { .. } => self.battle.attacker,
        }
    }
    /// In players' words.
    pub fn words(&self) -> String {
        let t = self.battle.target;
        match self.stage {
            Stage::Cavalry => format!(
                "battle at {t}: the lone cavalry may retreat before combat (decide: {{retreat: HEX}}) or stand (decide: {{}}) (WEF 13.27)"
            ),
            Stage::Defender { lp } => format!(
                "battle at {t}: the defender absorbs {lp} LP: steps (losses) and perhaps one retreat of every defender (WEF 13.22, 13.23)"
            ),
            Stage::Attacker { lp, breakthrough: false } => {
                format!("battle at {t}: the attacker absorbs {lp} LP (losses) and may advance into {t} (WEF 13.23, 13.25)")
            }
            Stage::Attacker { breakthrough: true, .. } => {
                format!("battle at {t}: breakthrough: attackers may advance up to 3 hexes, unengaged neighbours 2, through {t} (WEF 13.26)")
            }
        }
    }
}

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// The side that must decide now, if a battle waits for a decision.
pub fn decider(s: &State) -> Option<Side> {
    s.decision.as_ref().map(Decision::decider)
}

/// Units of `ids` still standing in `h`.
fn live_at(s: &State, ids: &[String], h: HexId) -> Vec<String> {
    ids.iter().filter(|id| s.unit(id).is_some_and(|u| u.at(h))).cloned().collect()
}

/// Units of `ids` still on the map.
fn live(s: &State, ids: &[String]) -> Vec<String> {
    ids.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex().is_some())).cloned().collect()
}

/// The units of `ids` that absorb loss points as steps: not fortresses (13.15: the fortress
/// is the last SL and only an E touches it) nor heavy artillery (13.18: no SL of its own).
pub fn step_takers(s: &State, ids: &[String]) -> Vec<String> {
    ids.iter()
        .filter(|id| s.unit(id).is_some_and(|u| u.hex().is_some() && !matches!(u.kind, Kind::Fortress | Kind::Heavy)))
        .cloned()
        .collect()
}

fn total_sl(s: &State, ids: &[String]) -> u32 {
    ids.iter().filter_map(|id| s.unit(id)).map(|u| u32::from(u.sl)).sum()
}

/// The only allocation of `lp` steps among `units`, if the owner has no choice (13.23): no
/// loss, every step lost, or a single unit.
pub fn forced_losses(s: &State, units: &[String], lp: u32) -> Option<Vec<String>> {
    let total = total_sl(s, units);
    if lp == 0 {
        return Some(vec![]);
    }
    if lp >= total {
        return Some(units.iter().flat_map(|id| std::iter::repeat_n(id.clone(), s.unit(id).map_or(0, |u| usize::from(u.sl)))).collect());
    }
    (units.len() == 1).then(|| vec![units[0].clone(); lp as usize])
}

/// A legal allocation whatever the owner wants: each step from the unit with the most SL
/// left, then the strongest defence, then by id (the bot's fallback).
pub fn default_losses(s: &State, units: &[String], lp: u32) -> Vec<String> {
    let mut sl: Vec<(String, u8, u8)> = units.iter().filter_map(|id| s.unit(id)).map(|u| (u.id.clone(), u.sl, u.factors()[1])).collect();
    let mut out = Vec::new();
    for _ in 0..lp {
        let Some(i) = (0..sl.len())
            .filter(|&i| sl[i].1 > 0)
            .max_by(|&a, &b| (sl[a].1, sl[a].2, std::cmp::Reverse(&sl[a].0)).cmp(&(sl[b].1, sl[b].2, std::cmp::Reverse(&sl[b].0))))
        else {
            break;
        };
        sl[i].1 -= 1;
        out.push(sl[i].0.clone());
    }
    out
}

/// Check a list of steps lost: only `units`, no unit more steps than it has, `lp` in all (or
/// every step there is).
fn check_losses(s: &State, units: &[String], lp: u32, steps: &[String]) -> Vec<Violation> {
    let mut errs = Vec::new();
    for id in steps.iter().collect::<BTreeSet<_>>() {
        let n = steps.iter().filter(|x| *x == id).count();
        match s.unit(id) {
            Some(u) if units.contains(id) => {
                if n > usize::from(u.sl) {
                    errs.push(v("WEF 13.23", format!("{id} has {} SL; it cannot lose {n}", u.sl)).unit(id.clone()));
                }
            }
            _ => errs.push(v("WEF 13.23", "steps are lost only by own units of this battle that can take them").unit(id.clone())),
        }
    }
    let due = lp.min(total_sl(s, units));
    if steps.len() as u32 != due {
        errs.push(v("WEF 13.23", format!("the steps lost must total {due} (listed {})", steps.len())));
    }
    errs
}

fn lose_steps(s: &mut State, steps: &[String]) -> Vec<Event> {
    let mut ev = Vec::new();
    for id in steps {
        let Some(u) = s.unit_mut(id) else { continue };
        if u.hex().is_none() {
            continue;
        }
        if u.sl > 1 {
            u.sl -= 1;
            ev.push(Event::rule("WEF 13.23", format!("{} loses a step", u.label())));
        } else {
            ev.extend(eliminate(s, id, "WEF 13.23"));
        }
    }
    ev
}

/// Hex distance from `h` to the nearest friendly map-edge hex of `side` (B.2; for A-H units
/// the west or the south edge, whichever is nearer: digest G.9's recommendation).
fn edge_distance(s: &State, side: Side, h: HexId) -> u32 {
    s.board
        .hexes()
        .filter(|(e, info)| match side {
            Side::Central => e.row == s.board.west_column() || (e.col == s.board.south_row() && info.country == Country::AustriaHungary),
            Side::Russian => e.row == s.board.east_column(),
        })
        .map(|(e, _)| e.distance(h))
        .min()
        .unwrap_or(0)
}

/// The hexes `ids` of `side` may retreat to from `from` (13.22): an adjacent hex they could
/// enter by movement (no all-sea hexside, a lake only in Jan/Feb, no enemy, not neutral
/// Romania, never north of xx29 for the Romanian army (15.6), the A-H limits of 6.3); an
/// empty one if there is any, else one holding friendly units with
/// room for them (8.1, 8.5); and among those, the ones nearer the friendly map edge than
/// `from` when any is (reading: "choose one that brings it closer"; when none does, any).
pub fn retreat_options(s: &State, side: Side, from: HexId, ids: &[String]) -> Vec<HexId> {
    let group: Vec<&Unit> = ids.iter().filter_map(|id| s.unit(id)).collect();
    if group.is_empty() {
        return vec![];
    }
    let german = group.iter().any(|u| u.nat.german() && u.kind != Kind::Heavy);
    let ah = group.iter().any(|u| u.nat == Nat::AH);
    let enterable: Vec<HexId> = from
        .neighbours()
        .into_iter()
        .map(|(_, h)| h)
        .filter(|&h| {
            let country = s.board.get(h).map(|i| i.country);
            movement::step_cost(s, from, h).is_ok()
                && s.occupant(h) != Some(side.other())
                && !super::brusilov::neutral(s, h)
                && !group.iter().any(|u| super::brusilov::romanian_too_far_north(u, h))
                && !(ah && country == Some(Country::Germany))
                && !(ah && h.col < AH_NORTH_LIMIT && !german)
        })
        .collect();
    let empty: Vec<HexId> = enterable.iter().copied().filter(|&h| s.units_at(h).next().is_none()).collect();
    let tier = if empty.is_empty() { enterable.into_iter().filter(|&h| stacking::room(s, h, &group).is_ok()).collect() } else { empty };
    let d0 = edge_distance(s, side, from);
    let closer: Vec<HexId> = tier.iter().copied().filter(|&h| edge_distance(s, side, h) < d0).collect();
    if closer.is_empty() { tier } else { closer }
}

/// Whether the defenders of a battle may retreat at all (13.15, 13.22): never out of a
/// fortress hex.
fn retreat_allowed(s: &State, b: &Battle) -> bool {
    !s.fortress_at(b.target)
}

/// Apply a CRT result (13.21): units that retreated into the hex earlier this phase die if
/// it takes any loss (13.22); an E (or the B that always brings one) takes every defender
/// (13.24); a lone fortress ignores numbers (13.15); numbers wait for the defender's steps
/// and retreat. Then the stages run on until one needs a decision.
pub fn result(s: &mut State, b: Battle, cell: Cell, withdrawn: bool) -> Vec<Event> {
    let mut ev = Vec::new();
    let t = b.target;
    if cell.defender != Loss::Lp(0) {
        let late: Vec<String> = s.retreated.iter().filter(|id| s.unit(id).is_some_and(|u| u.at(t))).cloned().collect();
        for id in late {
            ev.push(Event::rule("WEF 13.22", format!("{id} retreated into {t} earlier this phase: eliminated, absorbing nothing")));
            ev.extend(eliminate(s, &id, "WEF 13.22"));
        }
    }
    let fortress = s.fortress_at(t);
    let mut lp = 0;
    match cell.defender {
        Loss::Eliminated | Loss::Breakthrough => {
            for id in &b.defenders {
                ev.extend(eliminate(s, id, "WEF 13.24"));
            }
            if fortress {
                s.fallen_forts.insert(t);
                ev.push(Event::rule("WEF 13.15", format!("the fortress of {t} is destroyed for good")));
            }
            ev.extend(guns_follow(s, t));
        }
        Loss::Lp(0) => {}
        Loss::Lp(n) if fortress && step_takers(s, &b.defenders).is_empty() => {
            ev.push(Event::rule("WEF 13.15", format!("a fortress defending alone ignores the {n} LP: only E harms it")));
        }
        Loss::Lp(n) => lp = n,
    }
    s.decision = Some(Decision { battle: b, stage: Stage::Defender { lp }, cell: Some(cell), withdrawn });
    ev.extend(advance_stages(s));
    ev
}

/// Whether the defender has a choice in his stage: a retreat some survivor could make, or
/// more than one way to take the steps.
fn defender_choice(s: &State, d: &Decision, lp: u32) -> bool {
    let b = &d.battle;
    let takers = step_takers(s, &live_at(s, &b.defenders, b.target));
    if forced_losses(s, &takers, lp).is_none() {
        return true;
    }
    if !retreat_allowed(s, b) || lp == 0 || lp > total_sl(s, &takers) {
        return false;
    }
    let all = live_at(s, &b.defenders, b.target);
    let side = b.attacker.other();
    !retreat_options(s, side, b.target, &all).is_empty()
        || all.iter().any(|id| !retreat_options(s, side, b.target, std::slice::from_ref(id)).is_empty())
}

/// Whether the attacker has a choice in his stage: how to take the steps, or an advance.
fn attacker_choice(s: &State, d: &Decision, lp: u32) -> bool {
    let b = &d.battle;
    let takers = step_takers(s, &live(s, &b.attackers));
    let Some(forced) = forced_losses(s, &takers, lp) else { return true };
    if s.occupant(b.target) == Some(b.attacker.other()) {
        return false;
    }
    // Someone survives the forced steps and can move.
    takers.iter().any(|id| {
        let lost = forced.iter().filter(|x| *x == id).count();
        s.unit(id).is_some_and(|u| usize::from(u.sl) > lost && u.factors()[2] > 0)
    })
}

/// Run the battle's stages while nobody has a choice; stop at the first decision.
pub fn advance_stages(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    loop {
        let Some(d) = s.decision.clone() else { return ev };
        match d.stage {
            Stage::Cavalry => return ev,
            Stage::Defender { lp } => {
                if defender_choice(s, &d, lp) {
                    return ev;
                }
                let takers = step_takers(s, &live_at(s, &d.battle.defenders, d.battle.target));
                let steps = forced_losses(s, &takers, lp).unwrap_or_default();
                ev.extend(apply_defender(s, &steps, None));
            }
            Stage::Attacker { lp, .. } => {
                if attacker_choice(s, &d, lp) {
                    return ev;
                }
                let takers = step_takers(s, &live(s, &d.battle.attackers));
                let steps = forced_losses(s, &takers, lp).unwrap_or_default();
                ev.extend(apply_attacker(s, &steps, &[]).unwrap_or_default());
            }
        }
    }
}

/// The defender's steps and retreat (checked), then the attacker's part of the result.
fn apply_defender(s: &mut State, steps: &[String], retreat: Option<HexId>) -> Vec<Event> {
    let Some(d) = s.decision.clone() else { return vec![] };
    let b = &d.battle;
    let (t, side) = (b.target, b.attacker.other());
    let mut ev = lose_steps(s, steps);
    ev.extend(guns_follow(s, t));
    if let Some(h) = retreat {
        let going = live_at(s, &b.defenders, t);
        ev.extend(retreat_to(s, side, t, h, &going, "WEF 13.22"));
    }
    // The attacker's part (13.21: the defender first).
    let attacker = if d.withdrawn { Loss::Lp(0) } else { d.cell.map_or(Loss::Lp(0), |c| c.attacker) };
    match attacker {
        Loss::Eliminated => {
            let hexes: BTreeSet<HexId> = b.attackers.iter().filter_map(|id| s.unit(id)).filter_map(Unit::hex).collect();
            for id in &b.attackers {
                ev.extend(eliminate(s, id, "WEF 13.24"));
            }
            for h in hexes {
                ev.extend(guns_follow(s, h));
            }
            ev.push(Event::say(format!("the battle at {t} is over")));
            s.decision = None;
        }
        Loss::Lp(n) => {
            if let Some(dd) = s.decision.as_mut() {
                dd.stage = Stage::Attacker { lp: n, breakthrough: false };
            }
        }
        Loss::Breakthrough => {
            ev.push(Event::rule("WEF 13.26", format!("breakthrough at {t}: the attackers lose nothing and may advance up to 3 hexes")));
            if let Some(dd) = s.decision.as_mut() {
                dd.stage = Stage::Attacker { lp: 0, breakthrough: true };
            }
        }
    }
    ev
}

/// Move `ids` of `side` from `from` to `to` after combat (13.22, 13.27): units arriving in a
/// hex that held friendly units are marked (13.22); control passes (3.8).
fn retreat_to(s: &mut State, side: Side, from: HexId, to: HexId, ids: &[String], rule: &str) -> Vec<Event> {
    let occupied = s.units_at(to).next().is_some();
    for id in ids {
        if let Some(u) = s.unit_mut(id) {
            u.place = Place::Hex(to);
        }
        if occupied {
            s.retreated.insert(id.clone());
        }
    }
    let mut ev = vec![Event::rule(rule, format!("{} retreat from {from} to {to}", ids.join(", ")))];
    let cav = control::all_cavalry(s, ids);
    ev.extend(control::enter(s, to, side, cav));
    if s.outcome.is_none()
        && let Some(o) = control::capital_win(s, to, side)
    {
        ev.push(Event::rule("WEF 4.2", crate::engine::game::describe_outcome(&o)));
        s.outcome = Some(o);
    }
    ev
}

/// The attacker's steps and advance (checked by the caller for the steps; the advance is
/// checked here), and the end of the battle.
fn apply_attacker(s: &mut State, steps: &[String], advance: &[super::orders::Move]) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(d) = s.decision.clone() else { return Ok(vec![]) };
    let b = &d.battle;
    let hexes: BTreeSet<HexId> = b.attackers.iter().filter_map(|id| s.unit(id)).filter_map(Unit::hex).collect();
    let mut w = s.clone();
    let mut ev = lose_steps(&mut w, steps);
    for h in &hexes {
        ev.extend(guns_follow(&mut w, *h));
    }
    ev.extend(super::advance::advance(&mut w, &d, &hexes, advance)?);
    if d.withdrawn {
        // 13.27: the attack found nobody: its units may attack again, even the same cavalry.
        let again = live(&w, &b.attackers);
        for id in &again {
            w.attacked.remove(id);
        }
        w.targets.remove(&b.target);
        if !again.is_empty() {
            ev.push(Event::rule("WEF 13.27", format!("{} may attack again this phase", again.join(", "))));
        }
    }
    ev.push(Event::say(format!("the battle at {} is over", b.target)));
    w.decision = None;
    *s = w;
    Ok(ev)
}

/// Lone cavalry attacked by a force without cavalry (13.27): the cavalry and where it may
/// retreat before the roll, when the rule applies and some hex can take it.
pub fn cavalry_may_retreat(s: &State, b: &Battle) -> Option<(Vec<String>, Vec<HexId>)> {
    let ids = live_at(s, &b.defenders, b.target);
    let lone = !ids.is_empty() && ids.iter().all(|id| s.unit(id).is_some_and(|u| u.kind == Kind::Cavalry));
    let no_cav = b.attackers.iter().all(|id| s.unit(id).is_some_and(|u| u.kind != Kind::Cavalry));
    if !(lone && no_cav && b.column.is_some()) {
        return None;
    }
    let opts = retreat_options(s, b.attacker.other(), b.target, &ids);
    (!opts.is_empty()).then_some((ids, opts))
}

/// Apply a `decide` of `side`.
pub fn decide(s: &mut State, side: Side, dc: &Decide) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(d) = s.decision.clone() else { return Err(vec![v("WEF 13.21", "no battle waits for a decision")]) };
    if d.decider() != side {
        return Err(vec![v("WEF 13.21", format!("the {} player decides now", d.decider().title()))]);
    }
    let b = &d.battle;
    let t = b.target;
    let mut errs = Vec::new();
    match d.stage {
        Stage::Cavalry => {
            if !dc.losses.is_empty() || !dc.advance.is_empty() {
                errs.push(v("WEF 13.27", "before the roll the cavalry only retreats (retreat: HEX) or stands (no retreat)"));
            }
            let opts = cavalry_may_retreat(s, b).map(|(_, o)| o).unwrap_or_default();
            if let Some(h) = dc.retreat
                && !opts.contains(&h)
            {
                errs.push(
                    v("WEF 13.27", format!("{h} is not a retreat hex the cavalry may take (13.22); choose {}", list(&opts)))
                        .hex(h.to_string()),
                );
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            match dc.retreat {
                Some(h) => {
                    let ids = live_at(s, &b.defenders, t);
                    let mut ev = retreat_to(s, side, t, h, &ids, "WEF 13.27");
                    // Retreating before combat is no retreat after it: the cavalry is not
                    // one of 13.22's late arrivals.
                    for id in &ids {
                        s.retreated.remove(id);
                    }
                    if let Some(dd) = s.decision.as_mut() {
                        dd.withdrawn = true;
                        dd.stage = Stage::Attacker { lp: 0, breakthrough: false };
                    }
                    ev.extend(advance_stages(s));
                    Ok(ev)
                }
                None => {
                    let mut nb = b.clone();
                    nb.stood = true;
                    s.decision = None;
                    s.battle = Some(nb);
                    Ok(vec![Event::rule("WEF 13.27", format!("the cavalry in {t} stands: the roll is this entry's"))])
                }
            }
        }
        Stage::Defender { lp } => {
            if !dc.advance.is_empty() {
                errs.push(v("WEF 13.25", "defenders never advance"));
            }
            let takers = step_takers(s, &live_at(s, &b.defenders, t));
            let steps_lp = if dc.retreat.is_some() { lp.saturating_sub(1) } else { lp };
            let steps = match forced_losses(s, &takers, steps_lp) {
                Some(f) if dc.losses.is_empty() => f,
                _ => {
                    errs.extend(check_losses(s, &takers, steps_lp, &dc.losses));
                    dc.losses.clone()
                }
            };
            if let Some(h) = dc.retreat {
                if !retreat_allowed(s, b) {
                    errs.push(v("WEF 13.15", format!("units in the fortress hex {t} never retreat")).hex(h.to_string()));
                } else if lp == 0 {
                    errs.push(v("WEF 13.22", "no loss to absorb: no retreat"));
                } else if errs.is_empty() {
                    let mut probe = s.clone();
                    lose_steps(&mut probe, &steps);
                    guns_follow(&mut probe, t);
                    let going = live_at(&probe, &b.defenders, t);
                    let opts = retreat_options(&probe, side, t, &going);
                    if going.is_empty() {
                        errs.push(v("WEF 13.22", "no defender survives the steps to retreat"));
                    } else if !opts.contains(&h) {
                        errs.push(
                            v(
                                "WEF 13.22",
                                format!(
                                    "{h} is not a retreat hex for {} (an empty hex first, else a friendly one with room, nearer the friendly edge); choose {}",
                                    going.join(", "),
                                    list(&opts)
                                ),
                            )
                            .hex(h.to_string()),
                        );
                    }
                }
            }
            if !errs.is_empty() {
                return Err(errs);
            }
            let mut ev = apply_defender(s, &steps, dc.retreat);
            ev.extend(advance_stages(s));
            Ok(ev)
        }
        Stage::Attacker { lp, .. } => {
            if dc.retreat.is_some() {
                errs.push(v("WEF 13.22", "attackers never retreat"));
            }
            let takers = step_takers(s, &live(s, &b.attackers));
            let steps = match forced_losses(s, &takers, lp) {
                Some(f) if dc.losses.is_empty() => f,
                _ => {
                    errs.extend(check_losses(s, &takers, lp, &dc.losses));
                    dc.losses.clone()
                }
            };
            if !errs.is_empty() {
                return Err(errs);
            }
            apply_attacker(s, &steps, &dc.advance)
        }
    }
}

fn list(hexes: &[HexId]) -> String {
    if hexes.is_empty() {
        "none (no retreat is possible)".into()
    } else {
        hexes.iter().map(HexId::to_string).collect::<Vec<_>>().join(" or ")
    }
}
