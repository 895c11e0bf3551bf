//! Combat (TFWW 6.0-6.3): declaration, chits face-down, leads, the roll and its result.

use super::scenario::{ChitUse, Faction};
use super::state::{Combat, CombatStep, Stage, State, Where, die_event, show_face};
use super::victory::{Mode, capture_or_sp};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

type R = Result<Vec<Event>, Vec<Violation>>;

fn v(rule: &str, msg: impl Into<String>) -> Vec<Violation> {
    vec![Violation::new(rule, msg)]
}

/// Armies named in orders, as roster indices.
pub fn lookup(s: &State, ids: &[String], rule: &str) -> Result<Vec<usize>, Vec<Violation>> {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for id in ids {
        match s.data.army(id) {
            Some(i) if !out.contains(&i) => out.push(i),
            Some(_) => errs.push(Violation::new(rule, "named twice").unit(id.clone())),
            None if super::pieces::is_piece_id(id) => {
                let why = match super::pieces::find(s, id).map(|k| s.pieces[k].ident) {
                    Some(Some(super::pieces::Ident::Dummy)) => "is a dummy, and dummies never fight",
                    Some(_) => "is a face-down piece this check cannot see into: check with --key (your tool opens it and names its army)",
                    None => "is no face-down piece on the board",
                };
                errs.push(Violation::new(rule, why).unit(id.clone()));
            }
            None => errs.push(Violation::new(rule, no_such_army(s, id)).unit(id.clone())),
        }
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

/// "no such army", with the closest roster ids (`de-2` → `DE-2`). The roster is public, so
/// the suggestion tells nobody where a face-down army stands.
pub fn no_such_army(s: &State, id: &str) -> String {
    let ids: Vec<&str> = s.data.armies.iter().map(|a| a.id.as_str()).collect();
    if let Some(x) = ids.iter().find(|x| x.eq_ignore_ascii_case(id)) {
        return format!("no such army in this scenario (ids are written in capitals: {x})");
    }
    let up = id.to_ascii_uppercase();
    let mut near: Vec<(usize, &str)> =
        ids.iter().map(|x| (strsim::levenshtein(&up, &x.to_ascii_uppercase()), *x)).filter(|(d, _)| *d <= 2).collect();
    near.sort();
    let closest = near.first().map_or(0, |(d, _)| *d);
    let best: Vec<&str> = near.iter().filter(|(d, _)| *d == closest).take(3).map(|(_, x)| *x).collect();
    if best.is_empty() {
        "no such army in this scenario".into()
    } else {
        format!("no such army in this scenario (did you mean {}?)", best.join(" or "))
    }
}

fn russian_or_romanian(s: &State, a: usize) -> bool {
    matches!(s.data.armies[a].nat.as_str(), "RU" | "RO")
}

/// 8.1: the treaty is signed and every enemy real army on the front is Russian or Romanian
/// (at least one).
fn only_ru_ro_defend(s: &State, f: Faction, front: u8) -> bool {
    let enemy: Vec<usize> = s.armies_on(front).into_iter().filter(|&a| s.data.armies[a].faction.enemy_of(f)).collect();
    s.brest_litovsk && !enemy.is_empty() && enemy.iter().all(|&a| russian_or_romanian(s, a))
}

/// 5.1: `id` is a face-down piece on `front` that `f` controls but another seat (its partner)
/// hid: German armies under German-Allies control.
fn partner_piece(s: &State, f: Faction, front: u8, id: &str) -> bool {
    super::pieces::find(s, id).is_some_and(|k| {
        let p = &s.pieces[k];
        p.front == front && super::pieces::controller(p) == f && p.seat != s.seat_of(f)
    })
}

/// Why army `a`, on `front`, may not attack for `f` now (5.1, 5.3, 5.4, 8.1, 9.1).
fn attack_fault(s: &State, f: Faction, front: u8, a: usize) -> Option<Violation> {
    let name = s.name(a).to_string();
    let nat = s.data.armies[a].nat.as_str();
    let (rule, why) = if s.controller(a) != f {
        ("TFWW 5.1", format!("is not under {} control this round", f.code()))
    } else if (front == 5 || front == 6) && ["BR", "FR", "DE"].contains(&nat) && s.turn < 4 {
        ("TFWW 5.3", "BR, FR and DE armies attack in Italy only from turn 4".to_string())
    } else if front == 11 && (name == "BR-MEF" || name == "FR-OR") && !s.ea_holds_monastir() {
        ("TFWW 5.4", "MEF and OR attack on Front 11 only while EA holds Monastir".to_string())
    } else if s.brest_litovsk && russian_or_romanian(s, a) {
        ("TFWW 8.1", "after Brest-Litovsk Russian and Romanian armies may not attack".to_string())
    } else if s.options.schlieffen && s.turn == 1 && nat == "DE" && front > 3 {
        ("TFWW 9.1", "Schlieffen Plan: on turn 1 German armies attack only on Fronts 1-3".to_string())
    } else {
        return None;
    };
    Some(Violation::new(rule, why).unit(name))
}

/// 6.0 after the face-down pieces are up: the partner's pieces the attacker named (5.1)
/// join the attack if they are armies that may attack (a dummy, or an army that may not,
/// takes no part, and the record says why); then the combat is engaged, or called off with
/// the action spent when no attacker is left.
pub fn engage_after_reveal(s: &mut State, c: Combat) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut armies = c.attackers.clone();
    for (id, a) in &c.partner_opened {
        match *a {
            None => ev.push(Event::rule("TFWW 6.0", format!("{id} is a dummy: it takes no part in the attack"))),
            Some(a) => match attack_fault(s, c.attacker, c.front, a) {
                Some(why) => ev.push(Event::rule(why.rule.clone(), format!("{} takes no part in the attack: {}", s.name(a), why.message))),
                None => armies.push(a),
            },
        }
    }
    if armies.is_empty() {
        ev.push(Event::rule(
            "TFWW 6.0",
            format!("no army of {} is left to attack on front {}: the attack is called off", c.attacker.code(), c.front),
        ));
        s.combat = None;
        ev.extend(super::turn::end_action(s));
        return ev;
    }
    ev.extend(engage(s, c.attacker, c.front, armies, &c.capture));
    ev
}

/// 6.0: declare a combat.
pub fn declare(s: &mut State, f: Faction, front: u8, ids: &[String], capture: &[String]) -> R {
    if !s.data.fronts.contains_key(&front) {
        return Err(v("TFWW 2.1", format!("there is no front {front}")));
    }
    // 5.1 (3-4 players): German armies under German-Allies control that Germany hid are named
    // by their pieces; Germany turns them up before the combat, as defenders are (6.0).
    let (partner, own): (Vec<String>, Vec<String>) = ids.iter().cloned().partition(|id| partner_piece(s, f, front, id));
    let armies = lookup(s, &own, "TFWW 6.0")?;
    if armies.is_empty() && partner.is_empty() {
        return Err(v("TFWW 6.0", "an attack needs at least one real army (dummies never fight)"));
    }
    let mut errs = Vec::new();
    for &a in &armies {
        if s.armies[a] != Where::Front(front) {
            errs.push(Violation::new("TFWW 6.0", format!("is not on front {front}")).unit(s.name(a).to_string()));
            continue;
        }
        errs.extend(attack_fault(s, f, front, a));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // 8.1: the Central Powers keep their Brest-Litovsk minimums (Germany 1 on each of 7, 8,
    // 9; GA 3 on 9): where a battle can be fought (an enemy army other than Russian or
    // Romanian), they attack there only with an army to spare, since the lead may be lost.
    if s.brest_litovsk
        && (7..=9).contains(&front)
        && matches!(f, Faction::Germany | Faction::GermanAllies)
        && !super::pieces::unknown_of(s, &[Faction::Germany, Faction::GermanAllies])
        && s.armies_on(front).iter().any(|&a| s.data.armies[a].faction.enemy_of(f) && !russian_or_romanian(s, a))
    {
        let c = super::turn::brest_counts(s);
        let i = match (f, front) {
            (Faction::Germany, 7) => 0,
            (Faction::Germany, 8) => 1,
            (Faction::Germany, _) => 2,
            _ => 3,
        };
        let applies = f == Faction::Germany || front == 9;
        if applies && c[i] <= super::turn::BREST_MINS[i] {
            return Err(v(
                "TFWW 8.1",
                format!(
                    "Brest-Litovsk: {} must keep {} armies on front {front}; an attack there could cost the lead, and it has none to spare",
                    f.code(),
                    super::turn::BREST_MINS[i]
                ),
            ));
        }
    }
    // 8.1: after the treaty no Russian or Romanian army may be attacked. A front whose enemy
    // armies are all Russian or Romanian is refused when every defending piece is known; under
    // face-down pieces the attack is called off once they are turned up (`engage`).
    if only_ru_ro_defend(s, f, front) && !s.pieces.iter().any(|p| p.front == front && p.faction.enemy_of(f)) {
        return Err(v(
            "TFWW 8.1",
            format!("after Brest-Litovsk no Russian or Romanian army may be attacked: they are the only enemy armies on front {front}"),
        ));
    }
    let mut ev = vec![Event::rule(
        "TFWW 6.0",
        format!(
            "{} attacks on front {front} with {}",
            f.code(),
            armies
                .iter()
                .map(|&a| s.name(a).to_string())
                .chain(partner.iter().map(|id| format!("{id} (hidden by its partner)")))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )];
    // 6.0 (H-1): face-down defending pieces are turned up by the seats that hid them first,
    // and the partner's pieces the attacker named (5.1) by the partner.
    let hidden_defence = s.pieces.iter().any(|p| p.front == front && p.faction.enemy_of(f));
    if hidden_defence || !partner.is_empty() {
        let defender = Faction::ALL.into_iter().find(|g| g.enemy_of(f)).unwrap_or(f);
        let mut c = Combat::declared(front, f, defender, armies, vec![], CombatStep::Reveal, capture);
        c.partner_pieces = partner.clone();
        s.combat = Some(c);
        s.stage = Stage::Combat;
        s.revealing = super::pieces::owing(s);
        if !partner.is_empty() {
            ev.push(Event::rule(
                "TFWW 5.1",
                format!("the partner's pieces named for the attack are turned face up: {}", partner.join(", ")),
            ));
        }
        if hidden_defence {
            ev.push(Event::rule("TFWW 6.0", format!("the defending pieces on front {front} are turned face up")));
        }
        return Ok(ev);
    }
    ev.extend(engage(s, f, front, armies, capture));
    Ok(ev)
}

/// 6.0 once every defending piece is face up: dummies leave, the real defenders fight (or
/// there is none and the attack wins at once).
pub fn engage(s: &mut State, f: Faction, front: u8, armies: Vec<usize>, capture: &[String]) -> Vec<Event> {
    let mut ev = Vec::new();
    // 6.0: every defending piece is turned face up; dummies leave the map.
    for d in s.dummies_on(front) {
        if s.dummies[d].faction.enemy_of(f) {
            s.dummies[d].front = None;
            ev.push(Event::rule("TFWW 6.0", format!("a {} dummy is revealed on front {front} and removed", s.dummies[d].faction.code())));
        }
    }
    let defenders: Vec<usize> = s
        .armies_on(front)
        .into_iter()
        .filter(|&a| s.data.armies[a].faction.enemy_of(f) && !(s.brest_litovsk && russian_or_romanian(s, a)))
        .collect();
    let mef_or = armies.iter().any(|&a| matches!(s.name(a), "BR-MEF" | "FR-OR"));
    if only_ru_ro_defend(s, f, front) {
        ev.push(Event::rule(
            "TFWW 8.1",
            format!("only Russian or Romanian armies defend front {front}: after Brest-Litovsk they may not be attacked; the attack is called off"),
        ));
        ev.extend(super::turn::end_action(s));
        return ev;
    }
    if defenders.is_empty() {
        ev.push(Event::rule("TFWW 6.0", format!("no real defender on front {front}: no battle")));
        ev.extend(capture_or_sp(s, f, front, capture, Mode::Combat { mef_or }));
        ev.extend(super::turn::end_action(s));
        return ev;
    }
    ev.push(Event::rule(
        "TFWW 6.0",
        format!("defending: {}", defenders.iter().map(|&a| s.name(a).to_string()).collect::<Vec<_>>().join(", ")),
    ));
    // AMB-19: the defending faction is the one with more real armies there; ties go to the
    // faction with a base on the front.
    let count = |g: Faction| defenders.iter().filter(|&&a| s.controller(a) == g).count();
    let enemies: Vec<Faction> = Faction::ALL.into_iter().filter(|g| g.enemy_of(f)).collect();
    let best = enemies.iter().map(|&g| count(g)).max().unwrap_or(0);
    let tied: Vec<Faction> = enemies.into_iter().filter(|&g| count(g) == best).collect();
    let bases = s.data.fronts[&front].bases.clone();
    let defender = tied.iter().copied().find(|g| bases.contains(g)).unwrap_or(tied[0]);
    s.combat = Some(Combat::declared(front, f, defender, armies, defenders, CombatStep::DefenderChit, capture));
    s.stage = Stage::Combat;
    skip_empty_hand(s, &mut ev);
    ev
}

/// A side whose player holds no chit has nothing to place: skip the step (hand sizes are
/// public, so this tells nobody anything).
fn skip_empty_hand(s: &mut State, ev: &mut Vec<Event>) {
    let Some(c) = &s.combat else { return };
    if c.step == CombatStep::DefenderChit && super::chits::held(s, s.seat_of(c.defender)) == 0 {
        ev.push(Event::rule("TFWW 6.1/1", format!("{} holds no chit: none placed", c.defender.code())));
        if let Some(c) = s.combat.as_mut() {
            c.step = CombatStep::AttackerChitLead;
        }
    }
}

/// The participants of one side.
fn side(c: &Combat, attacker: bool) -> &[usize] {
    if attacker { &c.attackers } else { &c.defenders }
}

/// Whether a chit may be played by this side at all (role and nation, 6.2).
pub fn chit_fits(s: &State, c: &Combat, attacker: bool, chit: usize) -> bool {
    let role = match s.data.chits[chit].use_ {
        ChitUse::Either => true,
        ChitUse::Attack => attacker,
        ChitUse::Defence => !attacker,
    };
    role && side(c, attacker).iter().any(|&a| s.chit_suits(chit, a))
}

/// 6.1/1: place a chit (or none).
pub fn place_chit(s: &mut State, seat: &str, attacker: bool, chit: Option<&str>) -> R {
    if s.chits.hidden {
        return super::chits::place(s, seat, attacker, chit);
    }
    let Some(c) = s.combat.clone() else { return Err(v("TFWW 6.1", "no combat in progress")) };
    let hand = s.hands.get(seat).cloned().unwrap_or_default();
    // 6.2.2 (AMB-13): a mandatory chit that fits this combat must be played.
    let due: Vec<usize> = hand.iter().copied().filter(|&h| s.data.chits[h].mandatory && chit_fits(s, &c, attacker, h)).collect();
    let who = if attacker { c.attacker } else { c.defender };
    let picked = match chit {
        None => {
            if let Some(&m) = due.first() {
                return Err(v("TFWW 6.2.2", format!("{} must be played in this combat (mandatory chit)", s.chit_name(m))));
            }
            None
        }
        Some(id) => {
            let Some(i) = s.data.chit(id) else { return Err(v("TFWW 6.2", format!("no chit {id:?} in this scenario"))) };
            if !hand.contains(&i) {
                return Err(v("TFWW 6.2", format!("{id} is not in {seat}'s hand")));
            }
            if !chit_fits(s, &c, attacker, i) {
                let role = if attacker { "attacking" } else { "defending" };
                return Err(v("TFWW 6.2", format!("{id} cannot be used {role} with these armies (use or nation)")));
            }
            if !due.is_empty() && !due.contains(&i) {
                return Err(v("TFWW 6.2.2", format!("{} must be played in this combat (mandatory chit)", s.chit_name(due[0]))));
            }
            Some(i)
        }
    };
    if let Some(i) = picked
        && let Some(h) = s.hands.get_mut(seat)
    {
        h.retain(|&x| x != i);
    }
    let c = s.combat.as_mut().expect("checked above");
    if attacker {
        c.attacker_chit = picked;
        c.attacker_placed = true;
    } else {
        c.defender_chit = picked;
        c.step = CombatStep::AttackerChitLead;
    }
    let what = if picked.is_some() { "places a chit face down" } else { "places no chit" };
    Ok(vec![Event::rule("TFWW 6.1/1", format!("{} {what}", who.code()))])
}

/// 6.1/2: name the lead army.
pub fn lead(s: &mut State, attacker: bool, id: &str) -> R {
    let Some(c) = s.combat.clone() else { return Err(v("TFWW 6.1", "no combat in progress")) };
    let Some(a) = s.data.army(id) else { return Err(vec![Violation::new("TFWW 6.1/2", "no such army").unit(id)]) };
    if !side(&c, attacker).contains(&a) {
        return Err(vec![Violation::new("TFWW 6.1/2", "the lead must be a participating real army of this side").unit(id)]);
    }
    if s.chits.hidden && !attacker {
        // 6.1/5: the defender turns its chit face up with its lead.
        super::chits::require_open(s, false)?;
    }
    let c = s.combat.clone().unwrap_or(c);
    let chit = if attacker { c.attacker_chit } else { c.defender_chit };
    let chit = chit.or_else(|| super::chits::known_placed(s, attacker));
    // F.8: a chit already void (it counts as 0) binds no lead.
    if let Some(ch) = chit
        && !c.chit_void(attacker)
        && !s.chit_suits(ch, a)
    {
        return Err(vec![
            Violation::new("TFWW 6.2", format!("the chit placed needs a lead of {}", s.data.chits[ch].nations.join("/"))).unit(id),
        ]);
    }
    let c = s.combat.as_mut().expect("checked above");
    let who = if attacker {
        c.attacker_lead = Some(a);
        c.step = CombatStep::DefenderLead;
        c.attacker
    } else {
        c.defender_lead = Some(a);
        c.step = CombatStep::Roll;
        c.defender
    };
    Ok(vec![Event::rule("TFWW 6.1/2", format!("{} leads with {id} (value {})", who.code(), s.data.armies[a].value))])
}

/// What the pending roll is about.
pub fn describe_roll(s: &State) -> String {
    let c = s.combat.as_ref().expect("a combat is rolling");
    if c.step == CombatStep::DrawRoll {
        let f = drawing_side(c).unwrap_or(c.attacker);
        return format!("{} draws a chit after its S on front {} (TFWW 6.2)", f.code(), c.front);
    }
    format!("combat on front {}: {} attacks {}", c.front, c.attacker.code(), c.defender.code())
}

/// The faction whose S-draw is being decided or rolled (open chits), if any.
pub fn drawing_side(c: &Combat) -> Option<Faction> {
    c.draws_due.first().map(|&attacker| if attacker { c.attacker } else { c.defender })
}

/// 6.2 (open chits): the side that rolled S says, having seen it, whether it draws. Drawing
/// ends the entry: the chit is picked by this entry's dice (an ordinary roll, DESIGN §2.5).
pub fn decide_draw(s: &mut State, seat: &str, take: bool) -> R {
    let Some(c) = s.combat.as_mut().filter(|c| c.step == CombatStep::Draw) else {
        return Err(v("TFWW 6.2", "no side is deciding a chit draw now: `draw` answers an S of your die"));
    };
    let Some(f) = drawing_side(c) else { return Err(v("TFWW 6.2", "no chit draw is due")) };
    if s.seats.get(&f).map(String::as_str) != Some(seat) {
        return Err(v("TFWW 6.2", format!("the draw after this S is {}'s to decide", f.code())));
    }
    if take {
        c.step = CombatStep::DrawRoll;
        return Ok(vec![Event::rule("TFWW 6.2", format!("{} draws a chit from its cup: the dice pick it", f.code()))]);
    }
    c.draws_due.remove(0);
    let mut ev = vec![Event::rule("TFWW 6.2", format!("{} rolled S and declines to draw", f.code()))];
    ev.extend(next_draw_or_end(s));
    Ok(ev)
}

fn draw_chit(s: &mut State, f: Faction, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<(String, usize)> {
    let seat = s.seat_of(f).to_string();
    let cup = s.cups.entry(f.alliance().to_string()).or_default();
    if cup.is_empty() {
        ev.push(Event::rule("TFWW 6.2", format!("{} may draw a chit but the cup is empty", f.code())));
        return None;
    }
    cup.sort_unstable();
    let n = u32::try_from(cup.len()).unwrap_or(u32::MAX);
    let i = dice.roll(n) as usize;
    let chit = cup.remove(i);
    s.hands.entry(seat.clone()).or_default().push(chit);
    ev.push(Event::rule(
        "TFWW 6.2",
        format!("{} draws a chit for {seat} (cup position {} of {n}): {}", f.code(), i + 1, s.chit_name(chit)),
    ));
    Some((seat, chit))
}

/// 6.1/3-6.1/5 and 6.2: the dice, the totals, the result, chit draws and returns.
pub fn roll(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(c) = s.combat.clone() else { return vec![] };
    let (Some(al), Some(dl)) = (c.attacker_lead, c.defender_lead) else { return vec![] };
    let mut ev = Vec::new();
    let af = s.face(dice.roll(6));
    ev.push(die_event(format!("combat on front {}: {} die", c.front, c.attacker.code()), af));
    let df = s.face(dice.roll(6));
    ev.push(die_event(format!("combat on front {}: {} die", c.front, c.defender.code()), df));
    let (na, nd) = (c.attackers.len(), c.defenders.len());
    let bonus = |mine: usize, theirs: usize| i32::from(mine > theirs);
    let chit_val = |ch: Option<usize>| ch.map(|i| s.data.chits[i].value).unwrap_or(0);
    // F.8: a void chit (broke a rule of its use when opened) counts as 0.
    let counted = |attacker: bool, ch: Option<usize>| if c.chit_void(attacker) { 0 } else { chit_val(ch) };
    let (a_chit, d_chit) = (counted(true, c.attacker_chit), counted(false, c.defender_chit));
    let av = s.data.armies[al].value as i32;
    let dv = s.data.armies[dl].value as i32;
    let at = av + bonus(na, nd) + af as i32 + a_chit;
    let dt = dv + bonus(nd, na) + df as i32 + d_chit;
    let show = |ch: Option<usize>| ch.map(|i| format!("{} ({:+})", s.chit_name(i), s.data.chits[i].value)).unwrap_or_else(|| "none".into());
    ev.push(Event::rule(
        "TFWW 6.1/5",
        format!("chits revealed: {} {}, {} {}", c.attacker.code(), show(c.attacker_chit), c.defender.code(), show(c.defender_chit)),
    ));
    ev.push(Event::rule(
        "TFWW 6.1/5",
        format!(
            "attacker {} = {av} + {} numbers + {} die {:+} chit; defender {} = {dv} + {} numbers + {} die {:+} chit",
            at,
            bonus(na, nd),
            show_face(af),
            a_chit,
            dt,
            bonus(nd, na),
            show_face(df),
            d_chit
        ),
    ));
    let mef_or = c.attackers.iter().chain(&c.defenders).any(|&a| matches!(s.name(a), "BR-MEF" | "FR-OR"));
    if at > dt {
        s.armies[dl] = Where::Eliminated;
        ev.push(Event::rule("TFWW 6.1/5", format!("attacker wins: {} is eliminated", s.name(dl))));
        ev.extend(capture_or_sp(s, c.attacker, c.front, &c.capture, Mode::Combat { mef_or }));
    } else if dt > at {
        s.armies[al] = Where::Eliminated;
        ev.push(Event::rule("TFWW 6.1/5", format!("defender wins: {} is eliminated", s.name(al))));
    } else {
        s.armies[al] = Where::Eliminated;
        s.armies[dl] = Where::Eliminated;
        ev.push(Event::rule("TFWW 6.1/5", format!("tie: {} and {} are eliminated", s.name(al), s.name(dl))));
    }
    // 6.2: an S allows a draw, chosen once the die is seen. Hidden chits: the draw is the
    // seat's next entry's to make or decline (`chits::owe_draw`). Open chits: the side
    // decides now (`CombatStep::Draw`), before the placed chits go back to the cup (AMB-26).
    let mut due = Vec::new();
    for (attacker, face, f) in [(true, af, c.attacker), (false, df, c.defender)] {
        if face != 0 {
            continue;
        }
        if s.chits.hidden {
            super::chits::owe_draw(s, f, attacker, &mut ev);
        } else if s.cups.get(f.alliance()).is_none_or(|cup| cup.is_empty()) {
            ev.push(Event::rule("TFWW 6.2", format!("{} rolled S and may draw a chit but the cup is empty", f.code())));
        } else {
            ev.push(Event::rule("TFWW 6.2", format!("{} rolled S: it may draw a chit (`draw: true` or `draw: false`)", f.code())));
            due.push(attacker);
        }
    }
    if let Some(cm) = s.combat.as_mut() {
        cm.draws_due = due;
    }
    ev.extend(next_draw_or_end(s));
    ev
}

/// 6.2 (open chits): the die of a draw decided on picks the chit.
pub fn draw_roll(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(c) = s.combat.as_mut().filter(|c| c.step == CombatStep::DrawRoll) else { return vec![] };
    let Some(f) = drawing_side(c) else { return vec![] };
    c.draws_due.remove(0);
    let mut ev = Vec::new();
    if let Some(d) = draw_chit(s, f, dice, &mut ev)
        && let Some(c) = s.combat.as_mut()
    {
        c.drawn.push(d);
    }
    ev.extend(next_draw_or_end(s));
    ev
}

/// The next side's draw decision, or the end of the combat.
fn next_draw_or_end(s: &mut State) -> Vec<Event> {
    match s.combat.as_mut() {
        Some(c) if !c.draws_due.is_empty() => {
            c.step = CombatStep::Draw;
            vec![]
        }
        _ => end_combat(s),
    }
}

/// 6.2, 6.2.2, 6.0, 6.2.1: the placed chits go back to the cup (a mandatory one out of the
/// game), the front's pieces are turned face down, and a hand over the limit returns one.
fn end_combat(s: &mut State) -> Vec<Event> {
    let Some(c) = s.combat.take() else { return vec![] };
    let mut ev = Vec::new();
    for ch in [c.attacker_chit, c.defender_chit].into_iter().flatten() {
        if s.data.chits[ch].mandatory {
            s.removed_chits.push(ch);
            ev.push(Event::rule("TFWW 6.2.2", format!("{} is removed from the game", s.chit_name(ch))));
        } else {
            let cup = s.data.chits[ch].alliance.clone();
            let c = s.cups.entry(cup).or_default();
            c.push(ch);
            c.sort_unstable();
        }
    }
    super::chits::clear_table(s);
    // 6.0: each seat's tool commits its own at its next deployment or round entry.
    super::pieces::turn_down(s, Some(c.front));
    ev.push(Event::rule("TFWW 6.0", format!("every army on front {} is turned face down again", c.front)));
    let limit = s.data.hand_limit;
    let over: Vec<(String, usize)> = c.drawn.into_iter().filter(|(seat, _)| s.hands.get(seat).is_some_and(|h| h.len() > limit)).collect();
    if over.is_empty() {
        ev.extend(super::turn::end_action(s));
    } else {
        for (seat, _) in &over {
            ev.push(Event::rule("TFWW 6.2.1", format!("{seat} holds more than {limit} chits and must return an old one")));
        }
        s.stage = Stage::Discard(over);
    }
    ev
}
