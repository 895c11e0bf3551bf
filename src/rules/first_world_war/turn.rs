//! The sequence of play (TFWW 4.2) and the actions other than combat: deployment with the
//! minimum garrison (4.2/1), Move (5.0), Strategic Transfer and Pass (4.2/2), replacements
//! (4.2/4, 7.x), chits entering the cups (4.2/5), the new turn (4.2/6) and Brest-Litovsk (8.1).

use std::collections::BTreeSet;

use super::combat;
use super::orders::{Action, Placement};
use super::pieces::{self, Ident};
use super::scenario::{EXTRAS, Faction, GA_FRONTS};
use super::state::{CombatStep, Stage, State, Where};
use super::victory;
use crate::engine::{Event, Violation};

type R = Result<Vec<Event>, Vec<Violation>>;

fn v(rule: &str, msg: impl Into<String>) -> Vec<Violation> {
    vec![Violation::new(rule, msg)]
}

/// Who must act now: (seat, faction, what).
pub fn awaited(s: &State) -> Option<(String, Faction, String)> {
    let one = |f: Faction, what: String| Some((s.seat_of(f).to_string(), f, what));
    match &s.stage {
        Stage::Deploy(i) => {
            let f = *s.deployment_order().get(*i)?;
            one(f, format!("deploy {} (TFWW 4.2/1)", f.code()))
        }
        Stage::Round => {
            let f = s.active();
            one(f, format!("one action for {} in round {}: attack, move, transfer or pass (TFWW 4.2/2)", f.code(), s.round))
        }
        Stage::Combat => {
            let c = s.combat.as_ref()?;
            match c.step {
                CombatStep::DefenderChit => one(c.defender, format!("{}: place a defence chit or none (TFWW 6.1/1)", c.defender.code())),
                CombatStep::AttackerChitLead => {
                    one(c.attacker, format!("{}: place an attack chit or none, and name the lead (TFWW 6.1/1-2)", c.attacker.code()))
                }
                CombatStep::DefenderLead => one(c.defender, format!("{}: name the defending lead (TFWW 6.1/2)", c.defender.code())),
                CombatStep::Roll | CombatStep::DrawRoll => None,
                CombatStep::Draw => {
                    let f = combat::drawing_side(c)?;
                    one(f, format!("{}: your die showed S: draw a chit or not (`draw: true` or `draw: false`, TFWW 6.2)", f.code()))
                }
                CombatStep::Reveal => reveal_await(s, format!("turn up your face-down pieces on front {} (TFWW 6.0)", c.front)),
            }
        }
        Stage::Discard(q) => {
            let (seat, _) = q.first()?;
            let f = s.factions_of(seat).first().copied()?;
            Some((seat.clone(), f, format!("{seat}: return one previously held chit to the cup (TFWW 6.2.1)")))
        }
        Stage::Surrender | Stage::Over | Stage::OrderRoll => None,
        Stage::OrderPick => {
            let f = s.order.as_ref()?.picker()?;
            one(f, format!("{}: pick a free deployment slot and a free round slot (TFWW 9.2)", f.code()))
        }
        Stage::Reveal => reveal_await(s, "turn up every face-down piece for the victory check (TFWW 4.2/3)".into()),
        Stage::Capture(q) => {
            let &(f, front) = q.first()?;
            let names: Vec<String> =
                victory::capturable(s, f, front, victory::Mode::Unopposed).into_iter().map(|c| s.data.cities[c].name.clone()).collect();
            one(f, format!("{}: choose the city captured on front {front}: {} (TFWW 6.4)", f.code(), names.join(" or ")))
        }
        Stage::PeaceOffer => one(Faction::Germany, "Germany: offer the treaty of Brest-Litovsk or not (TFWW 8.1)".into()),
        Stage::PeaceAnswer => one(Faction::EasternAllies, "Eastern Allies: accept or refuse Brest-Litovsk (TFWW 8.1)".into()),
        Stage::Replace(i) => {
            let f = *s.deployment_order().get(*i)?;
            one(f, format!("{}: choose replacements, up to {} (TFWW 4.2/4)", f.code(), capacity(s, f)))
        }
    }
}

/// The next seat to turn up its face-down pieces (the queue is fixed when the step begins,
/// so a seat's own openings, applied before its orders, do not change whose turn it is).
fn reveal_await(s: &State, what: String) -> Option<(String, Faction, String)> {
    let seat = s.revealing.first()?.clone();
    let f = s.factions_of(&seat).first().copied()?;
    Some((seat, f, what))
}

/// Apply one action of `seat`; on error the state may be half-changed (callers work on a copy).
pub fn step(s: &mut State, seat: &str, a: &Action) -> R {
    if s.outcome.is_some() {
        return Err(v("TFWW 8.0", "the game is over"));
    }
    if let Action::ReturnChit(c) = a {
        return return_chit(s, seat, c);
    }
    if let Action::Hide(groups) = a {
        return pieces::hide(s, seat, groups);
    }
    if let Action::Reveal(list) = a {
        return reveal(s, seat, list);
    }
    let Some((who, f, what)) = awaited(s) else {
        return Err(v("TFWW 4.2", "nothing is expected now: the dice are due"));
    };
    if who != seat {
        let rule = if s.stage == Stage::Combat { "TFWW 6.1" } else { "TFWW 4.2" };
        return Err(v(rule, format!("not {seat}'s turn: waiting for {who} ({what})")));
    }
    let mut ev = match (&s.stage.clone(), a) {
        (Stage::Deploy(_), Action::Deploy(p)) => deploy(s, f, p)?,
        (Stage::Round, Action::Pass) => {
            let mut ev = vec![Event::rule("TFWW 4.2/2", format!("{} passes", f.code()))];
            ev.extend(end_action(s));
            ev
        }
        (Stage::Round, Action::Move { from, pieces }) => move_pieces(s, f, *from, pieces)?,
        (Stage::Round, Action::Transfer { from, to, pieces }) => transfer(s, f, *from, *to, pieces)?,
        (Stage::Round, Action::Attack { front, armies, capture }) => combat::declare(s, f, *front, armies, capture)?,
        (Stage::Combat, Action::Chit(c)) => {
            let step = s.combat.as_ref().map(|c| c.step);
            match step {
                Some(CombatStep::DefenderChit) => combat::place_chit(s, seat, false, c.as_deref())?,
                Some(CombatStep::AttackerChitLead) if s.combat.as_ref().is_some_and(|c| !c.attacker_placed) => {
                    combat::place_chit(s, seat, true, c.as_deref())?
                }
                _ => return Err(v("TFWW 6.1/1", "no chit may be placed now")),
            }
        }
        (Stage::Combat, Action::Draw(take)) => combat::decide_draw(s, seat, *take)?,
        (Stage::Combat, Action::Lead { army }) => {
            let step = s.combat.as_ref().map(|c| c.step);
            match step {
                Some(CombatStep::AttackerChitLead) => combat::lead(s, true, army)?,
                Some(CombatStep::DefenderLead) => combat::lead(s, false, army)?,
                _ => return Err(v("TFWW 6.1/2", "the defender places its chit before any lead is named")),
            }
        }
        (Stage::Discard(q), Action::Discard(c)) => discard(s, seat, q[0].1, c)?,
        (Stage::PeaceOffer, Action::OfferPeace(yes)) => offer(s, *yes),
        (Stage::PeaceAnswer, Action::AcceptPeace(yes)) => answer(s, *yes),
        (Stage::Replace(_), Action::Replace(list)) => replace(s, f, list)?,
        (Stage::OrderPick, Action::PickOrder { deploy, round }) => super::order::pick(s, f, *deploy, *round)?,
        (Stage::Capture(_), Action::Capture { front, city }) => victory::choose_capture(s, f, *front, city)?,
        (_, a) => return Err(v("TFWW 4.2", format!("{} is not what is expected now: {what}", a.words()))),
    };
    ev.extend(advance(s));
    Ok(ev)
}

/// Automatic steps: skip factions with nothing to deploy or replace, start the rounds, and
/// close the turn (4.2/5, 4.2/6).
pub fn advance(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    loop {
        match s.stage {
            Stage::Deploy(i) if i >= s.deployment_order().len() => {
                s.round = 1;
                s.update_control();
                s.stage = Stage::Round;
                ev.push(Event::rule("TFWW 4.2/2", format!("turn {}: the rounds begin", s.turn)));
            }
            Stage::Deploy(i) => {
                let f = s.deployment_order()[i];
                let (armies, dummies) = due(s, f);
                if !armies.is_empty() || dummies > 0 {
                    return ev;
                }
                s.stage = Stage::Deploy(i + 1);
            }
            Stage::Replace(i) if i >= s.deployment_order().len() => ev.extend(new_turn(s)),
            Stage::Replace(i) => {
                let f = s.deployment_order()[i];
                if capacity(s, f) > 0 && !replaceable(s, f).is_empty() {
                    return ev;
                }
                s.stage = Stage::Replace(i + 1);
            }
            _ => return ev,
        }
    }
}

/// The `reveal` action; the last seat due in a reveal stage lets the combat (6.0) or the
/// victory check (4.2/3) go on.
fn reveal(s: &mut State, seat: &str, list: &[String]) -> R {
    let due = s.revealing.first().is_some_and(|w| w == seat);
    let mut ev = pieces::reveal(s, seat, list)?;
    if !due {
        return Ok(ev);
    }
    s.revealing.remove(0);
    if !s.revealing.is_empty() {
        return Ok(ev);
    }
    if s.stage == Stage::Reveal {
        ev.extend(victory::victory_check(s));
    } else if let Some(c) = s.combat.clone() {
        ev.extend(combat::engage_after_reveal(s, c));
    }
    ev.extend(advance(s));
    Ok(ev)
}

/// 4.2/5 and 4.2/6.
fn new_turn(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let next_year = s.data.year(s.turn + 1);
    let this_year = s.data.year(s.turn);
    if next_year != this_year {
        for (i, c) in s.data.chits.iter().enumerate() {
            if c.year == next_year {
                s.cups.entry(c.alliance.clone()).or_default().push(i);
                ev.push(Event::rule("TFWW 4.2/5", format!("{} ({}) enters the {} cup", c.id, c.year, c.alliance)));
            }
        }
        for cup in s.cups.values_mut() {
            cup.sort_unstable();
        }
    }
    for sp in s.sp.values_mut() {
        *sp = 0;
    }
    s.sp_charged.clear();
    s.turn += 1;
    s.round = 0;
    s.stage = Stage::Deploy(0);
    // 4.2/1a: every face-up piece goes face down; each seat's tool commits its own at its
    // next deployment or round entry (`pieces::due_down`).
    pieces::turn_down(s, None);
    ev.push(Event::rule("TFWW 4.2/6", format!("surrender points back to 0; turn {} begins: every piece is turned face down", s.turn)));
    if super::order::applies(s) {
        ev.extend(super::order::begin(s));
    }
    ev
}

/// The end of the active faction's round: the next round, or the victory check after 16.
pub fn end_action(s: &mut State) -> Vec<Event> {
    s.combat = None;
    let rounds = u8::try_from(s.data.round_order.len() * 4).unwrap_or(16);
    if s.round >= rounds {
        if !s.pieces.is_empty() {
            s.stage = Stage::Reveal;
            s.revealing = pieces::owing(s);
            return vec![Event::rule("TFWW 4.2/3", "victory check: every face-down piece must be turned up by the seat that hid it")];
        }
        return victory::victory_check(s);
    }
    s.round += 1;
    s.update_control();
    pieces::prune_due(s);
    s.stage = Stage::Round;
    vec![]
}

/// Armies and number of dummies `f` must deploy now (4.2/1; AMB-03: an army with no legal
/// front waits).
pub fn due(s: &State, f: Faction) -> (Vec<usize>, usize) {
    let armies = (0..s.armies.len())
        .filter(|&i| {
            s.data.armies[i].faction == f
                && matches!(s.armies[i], Where::Track(t) if t <= s.turn)
                && s.data.fronts.keys().any(|&fr| s.may_enter(i, fr))
        })
        .collect();
    let dummies = s.dummies.iter().filter(|d| d.faction == f && d.front.is_none() && !d.face_down).count();
    (armies, dummies)
}

/// Real armies counted for a garrison (AMB-04: German armies on GA fronts count for GA).
fn garrisoned(s: &State, f: Faction, front: u8) -> bool {
    pieces::known_armies_on(s, front).0.into_iter().any(|a| {
        let af = s.data.armies[a].faction;
        af == f || (f == Faction::GermanAllies && af == Faction::Germany && GA_FRONTS.contains(&front))
    })
}

/// Size of a largest assignment of distinct armies to distinct fronts (Kuhn's algorithm).
fn matching(fronts: &[u8], armies: &[usize], ok: &dyn Fn(usize, u8) -> bool) -> usize {
    fn try_front(
        fi: usize,
        fronts: &[u8],
        armies: &[usize],
        ok: &dyn Fn(usize, u8) -> bool,
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for (ai, &a) in armies.iter().enumerate() {
            if seen[ai] || !ok(a, fronts[fi]) {
                continue;
            }
            seen[ai] = true;
            if owner[ai].is_none_or(|other| try_front(other, fronts, armies, ok, seen, owner)) {
                owner[ai] = Some(fi);
                return true;
            }
        }
        false
    }
    let mut owner = vec![None; armies.len()];
    (0..fronts.len())
        .filter(|&fi| {
            let mut seen = vec![false; armies.len()];
            try_front(fi, fronts, armies, ok, &mut seen, &mut owner)
        })
        .count()
}

/// Garrison fronts of `f` without a real army (4.2/1, from turn 2).
pub fn uncovered(s: &State, f: Faction) -> Vec<u8> {
    if s.turn < 2 {
        return vec![];
    }
    s.data.factions[&f].garrison.iter().copied().filter(|&g| !garrisoned(s, f, g)).collect()
}

/// Whether this replay cannot tell which of `f`'s garrison fronts are covered: a face-down
/// piece that could count is unknown here (public mode; checked in seat and omniscient mode).
pub fn garrison_unknown(s: &State, f: Faction) -> bool {
    let counted: &[Faction] = if f == Faction::GermanAllies { &[Faction::GermanAllies, Faction::Germany] } else { &[f] };
    s.turn >= 2 && pieces::unknown_of(s, counted)
}

/// How many uncovered garrison fronts the armies due can cover at most.
pub fn garrison_need(s: &State, f: Faction) -> usize {
    let (armies, _) = due(s, f);
    matching(&uncovered(s, f), &armies, &|a, fr| s.may_enter(a, fr))
}

fn deploy(s: &mut State, f: Faction, placements: &[Placement]) -> R {
    let (armies, dummies) = due(s, f);
    let mut errs = Vec::new();
    let mut placed = BTreeSet::new();
    let mut dummy_fronts = Vec::new();
    // Face-down placements (fresh commitments): identity when this replay knows it.
    let mut down: Vec<(String, u8, Option<Ident>)> = Vec::new();
    for p in placements {
        if !s.data.fronts.contains_key(&p.front) {
            errs.push(Violation::new("TFWW 2.1", format!("there is no front {}", p.front)).unit(p.piece.clone()));
            continue;
        }
        if let Some(ident) = pieces::deploy_fresh(s, &p.piece) {
            if !s.dummy_may_enter(f, p.front) {
                errs.push(Violation::new("TFWW 4.2/1", format!("no {} piece may be on front {}", f.code(), p.front)).unit(p.piece.clone()));
            }
            match ident {
                Some(Ident::Dummy) => dummy_fronts.push(p.front),
                Some(Ident::Army(a)) => {
                    let name = s.name(a).to_string();
                    if !armies.contains(&a) {
                        errs.push(
                            Violation::new("TFWW 4.2/1", format!("{}: {name} is not due to deploy for {} now", p.piece, f.code()))
                                .unit(p.piece.clone()),
                        );
                    } else if !placed.insert(a) {
                        errs.push(Violation::new("TFWW 4.2/1", format!("{}: {name} placed twice", p.piece)).unit(p.piece.clone()));
                    } else if !s.may_enter(a, p.front) {
                        let rule = rule_for_entry(s, a, p.front);
                        errs.push(
                            Violation::new(rule, format!("{}: {name} may not be on front {} now", p.piece, p.front)).unit(p.piece.clone()),
                        );
                    }
                }
                None => {}
            }
            down.push((p.piece.clone(), p.front, ident));
            continue;
        }
        if p.piece == "dummy" {
            if !s.dummy_may_enter(f, p.front) {
                errs.push(Violation::new("TFWW 4.2/1", format!("no {} army may operate on front {}", f.code(), p.front)).unit("dummy"));
            }
            dummy_fronts.push(p.front);
            continue;
        }
        let Some(a) = s.data.army(&p.piece) else {
            errs.push(Violation::new("TFWW 4.2/1", "no such army").unit(p.piece.clone()));
            continue;
        };
        if !armies.contains(&a) {
            errs.push(Violation::new("TFWW 4.2/1", format!("is not due to deploy for {} now", f.code())).unit(p.piece.clone()));
        } else if !placed.insert(a) {
            errs.push(Violation::new("TFWW 4.2/1", "placed twice").unit(p.piece.clone()));
        } else if !s.may_enter(a, p.front) {
            let rule = rule_for_entry(s, a, p.front);
            errs.push(Violation::new(rule, format!("may not be on front {} now", p.front)).unit(p.piece.clone()));
        }
    }
    let unknown = down.iter().filter(|d| d.2.is_none()).count();
    if placements.len() != armies.len() + dummies {
        errs.push(Violation::new(
            "TFWW 4.2/1",
            format!("{} armies and {} dummies are due, {} pieces placed", armies.len(), dummies, placements.len()),
        ));
    } else if unknown == 0 {
        if dummy_fronts.len() != dummies {
            errs.push(Violation::new(
                "TFWW 4.2/1",
                format!("{} dummies are off the map and must all be deployed, {} placed", dummies, dummy_fronts.len()),
            ));
        }
        for &a in &armies {
            if !placed.contains(&a) {
                errs.push(Violation::new("TFWW 4.2/1", "is due and must be deployed (AMB-03)").unit(s.name(a).to_string()));
            }
        }
    }
    let open = uncovered(s, f);
    let need = if unknown > 0 || garrison_unknown(s, f) { 0 } else { garrison_need(s, f) };
    let real_front = |p: &Placement| match down.iter().find(|d| d.0 == p.piece) {
        Some(d) => matches!(d.2, Some(Ident::Army(_))),
        None => p.piece != "dummy",
    };
    let covered: BTreeSet<u8> = placements.iter().filter(|p| real_front(p) && open.contains(&p.front)).map(|p| p.front).collect();
    if covered.len() < need {
        errs.push(Violation::new(
            "TFWW 4.2/1",
            format!(
                "minimum garrison: fronts {} lack a real {} army; the armies due can cover {need} of them, these orders cover {}",
                open.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(", "),
                f.code(),
                covered.len()
            ),
        ));
    }
    // 8.1: a Brest-Litovsk garrison short when the treaty was signed (or since) must be
    // filled: together with the 4.2/1 duty, the armies due cover as many of the open slots as
    // they can.
    let slots = if unknown > 0 { vec![] } else { brest_slots(s, f) };
    if !slots.is_empty() && covered.len() >= need {
        let mut all: Vec<u8> = open.clone();
        all.extend(slots.iter().copied());
        let can = matching(&all, &armies, &|a, fr| s.may_enter(a, fr));
        let mut filled = 0;
        let mut fronts: Vec<u8> = slots.clone();
        fronts.dedup();
        for fr in fronts {
            let want = slots.iter().filter(|&&x| x == fr).count();
            let real = placements.iter().filter(|p| real_front(p) && p.front == fr).count();
            filled += want.min(real);
        }
        if covered.len() + filled < can {
            errs.push(Violation::new(
                "TFWW 8.1",
                format!(
                    "Brest-Litovsk: {} must have its minimum on fronts {} (Germany 1 on each of 7, 8, 9; the German Allies 3 on 9): the armies due can fill {} more, these orders fill {filled}",
                    f.code(),
                    slots.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(", "),
                    can.saturating_sub(covered.len())
                ),
            ));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut ev = Vec::new();
    for p in placements {
        if down.iter().any(|d| d.0 == p.piece) {
            continue;
        }
        if p.piece == "dummy" {
            if let Some(d) = s.dummies.iter_mut().find(|d| d.faction == f && d.front.is_none() && !d.face_down) {
                d.front = Some(p.front);
            }
        } else if let Some(a) = s.data.army(&p.piece) {
            s.armies[a] = Where::Front(p.front);
        }
    }
    // What was not placed face up went face down: which army is where stays hidden.
    if !down.is_empty() {
        for &a in &armies {
            if matches!(s.armies[a], Where::Track(_)) {
                s.armies[a] = Where::Hidden;
            }
        }
        for d in s.dummies.iter_mut().filter(|d| d.faction == f && d.front.is_none() && !d.face_down) {
            d.face_down = true;
        }
        let seat = s.seat_of(f).to_string();
        for (id, front, ident) in &down {
            pieces::add(s, id, &seat, f, *front, *ident, false);
        }
    }
    let mut per: std::collections::BTreeMap<u8, Vec<&str>> = std::collections::BTreeMap::new();
    for p in placements {
        per.entry(p.front).or_default().push(&p.piece);
    }
    for (front, list) in per {
        ev.push(Event::rule("TFWW 4.2/1", format!("{} deploys on front {front}: {}", f.code(), list.join(", "))));
    }
    if let Stage::Deploy(i) = s.stage {
        s.stage = Stage::Deploy(i + 1);
    }
    Ok(ev)
}

/// Which rule forbids an army on a front.
fn rule_for_entry(s: &State, a: usize, front: u8) -> &'static str {
    if !s.data.listed(a, front) {
        "TFWW 2.1"
    } else if front == 11 {
        "TFWW 5.4"
    } else {
        "TFWW 5.3"
    }
}

/// A moving piece: an army, or a dummy (by index).
enum Moving {
    Army(usize),
    Dummy(usize),
    /// A face-down piece (index into `State::pieces`).
    Piece(usize),
}

fn pick(s: &State, f: Faction, from: u8, piece: &str, used_dummies: &mut Vec<usize>, used: &mut Vec<usize>) -> Result<Moving, Violation> {
    if piece == "dummy" {
        let d = s
            .dummies_on(from)
            .into_iter()
            .find(|d| s.dummy_controller(*d) == f && !used_dummies.contains(d))
            .ok_or_else(|| Violation::new("TFWW 5.0", format!("no more {} dummies on front {from}", f.code())).unit("dummy"))?;
        used_dummies.push(d);
        return Ok(Moving::Dummy(d));
    }
    if let Some(k) = pieces::find(s, piece) {
        let p = &s.pieces[k];
        if p.front != from {
            return Err(Violation::new("TFWW 5.0", format!("is not on front {from}")).unit(piece));
        }
        if pieces::controller(p) != f {
            return Err(Violation::new("TFWW 5.1", format!("is not under {} control this round", f.code())).unit(piece));
        }
        // Face-down pieces are counted with the dummies' list, by piece index + dummy count.
        let key = s.dummies.len() + k;
        if used_dummies.contains(&key) {
            return Err(Violation::new("TFWW 5.0", "moved twice").unit(piece));
        }
        used_dummies.push(key);
        return Ok(Moving::Piece(k));
    }
    let a = s.data.army(piece).ok_or_else(|| Violation::new("TFWW 5.0", "no such army").unit(piece))?;
    if s.armies[a] != Where::Front(from) {
        return Err(Violation::new("TFWW 5.0", format!("is not on front {from}")).unit(piece));
    }
    if s.controller(a) != f {
        return Err(Violation::new("TFWW 5.1", format!("is not under {} control this round", f.code())).unit(piece));
    }
    if used.contains(&a) {
        return Err(Violation::new("TFWW 5.0", "moved twice").unit(piece));
    }
    used.push(a);
    Ok(Moving::Army(a))
}

fn enter_ok(s: &State, m: &Moving, to: u8, piece: &str) -> Result<(), Violation> {
    match m {
        Moving::Army(a) => {
            if s.may_enter(*a, to) {
                Ok(())
            } else {
                Err(Violation::new(rule_for_entry(s, *a, to), format!("may not enter front {to} now")).unit(piece))
            }
        }
        Moving::Dummy(d) => {
            if s.dummy_may_enter(s.dummies[*d].faction, to) {
                Ok(())
            } else {
                Err(Violation::new("TFWW 5.0", format!("no army of its faction may operate on front {to}")).unit("dummy"))
            }
        }
        // Public: some army of its faction may be there; known: the identity's own rule.
        Moving::Piece(k) => {
            let p = &s.pieces[*k];
            match p.ident {
                Some(Ident::Army(a)) if !s.may_enter(a, to) => {
                    Err(Violation::new(rule_for_entry(s, a, to), format!("face down, {} may not enter front {to} now", s.name(a)))
                        .unit(piece))
                }
                _ if !s.dummy_may_enter(p.faction, to) => {
                    Err(Violation::new("TFWW 5.0", format!("no army of its faction may operate on front {to}")).unit(piece))
                }
                _ => Ok(()),
            }
        }
    }
}

/// Brest-Litovsk garrisons (8.1): Germany 1 real army on each of 7, 8, 9; GA 3 on 9. A move
/// may not take a faction below its minimum (nor further below it).
pub(super) fn brest_counts(s: &State) -> [usize; 4] {
    let known = |fr: u8| pieces::known_armies_on(s, fr).0;
    let ger = |fr: u8| known(fr).into_iter().filter(|&a| s.data.armies[a].faction == Faction::Germany).count();
    let ga = known(9)
        .into_iter()
        .filter(|&a| {
            let down = s.pieces.iter().find(|p| p.ident == Some(Ident::Army(a)));
            down.map_or(s.controller(a), pieces::controller) == Faction::GermanAllies
        })
        .count();
    [ger(7), ger(8), ger(9), ga]
}

/// The Brest-Litovsk minimums, in the order of [`brest_counts`].
pub(super) const BREST_MINS: [usize; 4] = [1, 1, 1, 3];

/// Brest-Litovsk fronts `f` must fill (8.1: "deve avere e mantenere", must have and keep):
/// one slot per army missing from its minimum (Germany: 7, 8, 9; GA: 9), when this replay
/// knows the Central Powers' pieces.
pub fn brest_slots(s: &State, f: Faction) -> Vec<u8> {
    if !s.brest_litovsk || pieces::unknown_of(s, &[Faction::Germany, Faction::GermanAllies]) {
        return vec![];
    }
    let c = brest_counts(s);
    let mut slots = Vec::new();
    for (i, fr) in [(0usize, 7u8), (1, 8), (2, 9), (3, 9)] {
        let mine = if i == 3 { f == Faction::GermanAllies } else { f == Faction::Germany };
        if mine {
            slots.extend(std::iter::repeat_n(fr, BREST_MINS[i].saturating_sub(c[i])));
        }
    }
    slots
}

fn check_brest(before: &State, after: &State) -> Result<(), Vec<Violation>> {
    // Checked where the replay knows the Central Powers' face-down pieces (H-8).
    if !before.brest_litovsk || pieces::unknown_of(before, &[Faction::Germany, Faction::GermanAllies]) {
        return Ok(());
    }
    let (b, a) = (brest_counts(before), brest_counts(after));
    let mins = BREST_MINS;
    let names = ["Germany on front 7", "Germany on front 8", "Germany on front 9", "German Allies on front 9"];
    let errs: Vec<Violation> = (0..4)
        .filter(|&i| a[i] < mins[i] && a[i] < b[i])
        .map(|i| Violation::new("TFWW 8.1", format!("Brest-Litovsk: {} must keep at least {} armies", names[i], mins[i])))
        .collect();
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

fn relocate(s: &mut State, moves: &[(Moving, u8)]) {
    for (m, to) in moves {
        match m {
            Moving::Army(a) => s.armies[*a] = Where::Front(*to),
            Moving::Dummy(d) => s.dummies[*d].front = Some(*to),
            Moving::Piece(k) => s.pieces[*k].front = *to,
        }
    }
}

fn move_pieces(s: &mut State, f: Faction, from: u8, pieces: &[Placement]) -> R {
    let Some(fr) = s.data.fronts.get(&from).cloned() else { return Err(v("TFWW 5.0", format!("there is no front {from}"))) };
    if pieces.is_empty() {
        return Err(v("TFWW 5.0", "a move needs at least one piece"));
    }
    let (mut ud, mut ua, mut errs, mut moves) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for p in pieces {
        match pick(s, f, from, &p.piece, &mut ud, &mut ua) {
            Err(e) => errs.push(e),
            Ok(m) => {
                if !fr.adjacent.contains(&p.front) {
                    errs.push(
                        Violation::new("TFWW 5.0", format!("front {} is not adjacent to front {from} in its theatre", p.front))
                            .unit(p.piece.clone()),
                    );
                } else if let Err(e) = enter_ok(s, &m, p.front, &p.piece) {
                    errs.push(e);
                }
                moves.push((m, p.front));
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let before = s.clone();
    relocate(s, &moves);
    check_brest(&before, s)?;
    let list: Vec<String> = pieces.iter().map(|p| format!("{} → {}", p.piece, p.front)).collect();
    let mut ev = vec![Event::rule("TFWW 5.0", format!("{} moves from front {from}: {}", f.code(), list.join(", ")))];
    ev.extend(end_action(s));
    Ok(ev)
}

fn transfer(s: &mut State, f: Faction, from: u8, to: u8, pieces: &[String]) -> R {
    if !s.data.fronts.contains_key(&from) || !s.data.fronts.contains_key(&to) {
        return Err(v("TFWW 4.2/2", "no such front"));
    }
    if pieces.is_empty() || pieces.len() > 2 {
        return Err(v("TFWW 4.2/2", "a strategic transfer moves one or two pieces"));
    }
    if from == to {
        return Err(v("TFWW 4.2/2", "a strategic transfer goes to another front"));
    }
    let (mut ud, mut ua, mut errs, mut moves) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for p in pieces {
        match pick(s, f, from, p, &mut ud, &mut ua) {
            Err(e) => errs.push(e),
            Ok(m) => {
                if let Err(e) = enter_ok(s, &m, to, p) {
                    errs.push(e);
                }
                moves.push((m, to));
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let before = s.clone();
    relocate(s, &moves);
    check_brest(&before, s)?;
    let mut ev = vec![Event::rule("TFWW 4.2/2", format!("{} transfers {} from front {from} to front {to}", f.code(), pieces.join(", ")))];
    ev.extend(end_action(s));
    Ok(ev)
}

/// The index of `chit`, which must be in `seat`'s hand (6.2.1).
fn held_chit(s: &State, seat: &str, chit: &str) -> Result<usize, Vec<Violation>> {
    let Some(i) = s.data.chit(chit) else { return Err(v("TFWW 6.2.1", format!("no chit {chit:?}"))) };
    if !s.hands.get(seat).is_some_and(|h| h.contains(&i)) {
        return Err(v("TFWW 6.2.1", format!("{chit} is not in {seat}'s hand")));
    }
    Ok(i)
}

/// Put chit `i` from `seat`'s hand back into its alliance's cup (kept sorted, so the cup's
/// order never tells which chit came back).
fn hand_to_cup(s: &mut State, seat: &str, i: usize) {
    if let Some(h) = s.hands.get_mut(seat) {
        h.retain(|&x| x != i);
    }
    let alliance = s.data.chits[i].alliance.clone();
    let cup = s.cups.entry(alliance).or_default();
    cup.push(i);
    cup.sort_unstable();
}

fn discard(s: &mut State, seat: &str, new: usize, chit: &str) -> R {
    let i = held_chit(s, seat, chit)?;
    if i == new {
        return Err(v("TFWW 6.2.1", format!("{chit} was just drawn: return one of the chits held before")));
    }
    hand_to_cup(s, seat, i);
    let mut ev = vec![Event::rule("TFWW 6.2.1", format!("{seat} returns {chit} to the cup"))];
    if let Stage::Discard(q) = &mut s.stage {
        q.remove(0);
        if q.is_empty() {
            ev.extend(end_action(s));
        }
    }
    Ok(ev)
}

/// Nationalities whose chits a seat may ever use (its factions' armies but the named extras,
/// see `State::chit_suits`; GA also leads German armies under its control, 5.1).
pub fn usable_nations(s: &State, seat: &str) -> BTreeSet<String> {
    let fs = s.factions_of(seat);
    let mut out: BTreeSet<String> = s.data.armies.iter().filter(|a| fs.contains(&a.faction) && !a.named).map(|a| a.nat.clone()).collect();
    if fs.contains(&Faction::GermanAllies) {
        out.insert("DE".into());
    }
    out
}

fn return_chit(s: &mut State, seat: &str, chit: &str) -> R {
    let i = held_chit(s, seat, chit)?;
    let usable = usable_nations(s, seat);
    if s.data.chits[i].nations.iter().any(|n| usable.contains(n)) {
        return Err(v("TFWW 6.2.1", format!("{seat} could use {chit} with some army: only an unusable chit may be returned")));
    }
    hand_to_cup(s, seat, i);
    Ok(vec![Event::rule("TFWW 6.2.1", format!("{seat} returns the unusable {chit} to the cup (no new draw)"))])
}

fn offer(s: &mut State, yes: bool) -> Vec<Event> {
    if !yes {
        s.stage = Stage::Replace(0);
        return vec![Event::rule("TFWW 8.1", "Germany makes no peace offer")];
    }
    if s.players >= 4 {
        s.stage = Stage::PeaceAnswer;
        return vec![Event::rule("TFWW 8.1", "Germany offers the treaty of Brest-Litovsk; the Eastern Allies decide")];
    }
    let mut ev = vec![Event::rule("TFWW 8.1", "Germany offers the treaty of Brest-Litovsk; with fewer than 4 players it must be accepted")];
    ev.extend(answer(s, true));
    ev
}

fn answer(s: &mut State, yes: bool) -> Vec<Event> {
    s.stage = Stage::Replace(0);
    if yes {
        s.brest_litovsk = true;
        vec![Event::rule("TFWW 8.1", "the treaty of Brest-Litovsk is in force")]
    } else {
        vec![Event::rule("TFWW 8.1", "the Eastern Allies refuse the treaty (it may be offered again)")]
    }
}

/// Replacement capacity: own replacement centres still held (7.0, 7.1).
pub fn capacity(s: &State, f: Faction) -> usize {
    s.data.cities.iter().enumerate().filter(|(i, c)| c.owner == f && c.rc && !s.captured[*i]).count()
}

/// Eliminated armies `f` may bring back (7.2: ITB, MEF and OR on WA capacity, WA decides).
pub fn replaceable(s: &State, f: Faction) -> Vec<usize> {
    (0..s.armies.len())
        .filter(|&i| {
            let a = &s.data.armies[i];
            let payer = if EXTRAS.contains(&a.id.as_str()) { Faction::WesternAllies } else { a.faction };
            s.armies[i] == Where::Eliminated && payer == f
        })
        .collect()
}

fn replace(s: &mut State, f: Faction, ids: &[String]) -> R {
    let list = combat::lookup(s, ids, "TFWW 7.0")?;
    let ok = replaceable(s, f);
    let cap = capacity(s, f);
    let mut errs = Vec::new();
    if list.len() > cap {
        errs.push(Violation::new("TFWW 7.0", format!("{} may replace {cap} armies this turn, not {}", f.code(), list.len())));
    }
    for &a in &list {
        if !ok.contains(&a) {
            errs.push(
                Violation::new("TFWW 7.2", format!("is not an eliminated army {} may replace", f.code())).unit(s.name(a).to_string()),
            );
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for &a in &list {
        s.armies[a] = Where::Track(s.turn + 1);
    }
    let names: Vec<String> = list.iter().map(|&a| s.name(a).to_string()).collect();
    let text = if names.is_empty() { "none".to_string() } else { names.join(", ") };
    let ev = vec![Event::rule(
        "TFWW 4.2/4",
        format!("{} replaces {text} (capacity {cap}; unused capacity is lost); they deploy next turn", f.code()),
    )];
    if let Stage::Replace(i) = s.stage {
        s.stage = Stage::Replace(i + 1);
    }
    Ok(ev)
}
