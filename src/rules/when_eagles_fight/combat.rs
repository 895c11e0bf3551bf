//! Combat (WEF 13): declaring a battle, its odds and DRMs (with combat stacking, 8.6, and
//! STAVKA, 14.2) and the roll on the CRT. What follows the roll (each side's steps, the
//! defender's retreat, advance and breakthrough, 13.21-13.26) and the lone cavalry's retreat
//! before it (13.27) are in `retreat` and `advance`.

use std::collections::BTreeSet;

use super::board::{Country, Terrain};
use super::crt;
use super::orders::Attack;
use super::state::{Battle, Kind, Nat, Place, Side, State, Unit};
use crate::engine::odds::Odds;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The turn-1 loss of the Russian mobilisation (3.3): every Russian combat unit but fortress
/// infantry attacks and defends at one less.
fn mobilisation(s: &State, u: &Unit) -> u8 {
    u8::from(s.turn == 1 && u.nat == Nat::RU && u.kind != Kind::Fortress)
}

/// The attack factor a unit brings (2.9, 3.3).
pub fn attack_factor(s: &State, u: &Unit) -> u32 {
    u32::from(u.factors()[0].saturating_sub(mobilisation(s, u)))
}

/// The defence factor a unit brings (2.10, 3.3).
pub fn defence_factor(s: &State, u: &Unit) -> u32 {
    u32::from(u.factors()[1].saturating_sub(mobilisation(s, u)))
}

/// The German units allowed in combined German/A-H stacks at any time (6.4): 1 in 1914
/// (T1–T4), 3 from T5, one more a turn after the Brusilov declaration up to 6 (15.4).
pub fn combined_limit(s: &State) -> usize {
    if s.turn <= 4 { 1 } else { (3 + super::brusilov::combined_bonus(s)).min(6) }
}

/// Check an attack and work out its odds and DRM.
pub fn declare(s: &State, side: Side, a: &Attack) -> Result<Battle, Vec<Violation>> {
    let mut errs = Vec::new();
    if !(s.phase.combat() && s.phase.side() == side) {
        return Err(vec![Violation::new(
            "WEF 13.1",
            format!("the phasing player attacks in his own Combat phase; now: {}", s.phase.title()),
        )]);
    }
    let t = a.target;
    let defenders: Vec<&Unit> = s.units_at(t).collect();
    if defenders.is_empty() || defenders.iter().any(|u| u.side() == side) {
        return Err(vec![Violation::new("WEF 13.2", format!("{t} holds no enemy units to attack")).hex(t.to_string())]);
    }
    if s.targets.contains(&t) {
        errs.push(Violation::new("WEF 13.4", format!("the units in {t} were already attacked this combat phase")).hex(t.to_string()));
    }
    if a.units.is_empty() {
        errs.push(Violation::new("WEF 13.3", "an attack names its attacking units"));
    }
    let mut attackers: Vec<&Unit> = Vec::new();
    for id in &a.units {
        let Some(u) = s.unit(id) else {
            errs.push(Violation::new("WEF 13.3", format!("no unit {id}")).unit(id.clone()));
            continue;
        };
        if attackers.iter().any(|x| x.id == u.id) {
            errs.push(Violation::new("WEF 13.3", "a unit is named twice").unit(id.clone()));
            continue;
        }
        if u.side() != side {
            errs.push(Violation::new("WEF 13.1", "not your unit").unit(id.clone()));
            continue;
        }
        let Some(h) = u.hex() else {
            errs.push(Violation::new("WEF 13.3", "the unit is not on the map").unit(id.clone()));
            continue;
        };
        if !h.is_adjacent(t) {
            errs.push(Violation::new("WEF 13.3", format!("attackers must be adjacent to {t}; the unit is in {h}")).unit(id.clone()));
        } else if s.board.lake(h, t) || s.board.sea_side(h, t) {
            errs.push(Violation::new("WEF 12.11", format!("no attack across the lake or all-sea hexside {h}/{t}")).unit(id.clone()));
        }
        if s.attacked.contains(id) {
            errs.push(Violation::new("WEF 13.4", "the unit has already attacked this combat phase").unit(id.clone()));
        }
        if super::variants::frozen(s, u) {
            errs.push(Violation::new("WEF 3.5", "the A-H 2nd Army may not attack in turn 1").unit(id.clone()));
        }
        if !super::command::may_attack(s, u) {
            errs.push(
                Violation::new("WEF 14.3", "in the OberOst Combat phase only the German units OberOst named attack").unit(id.clone()),
            );
        }
        attackers.push(u);
    }
    if !attackers.is_empty() && attackers.iter().all(|u| u.kind == Kind::Heavy) {
        errs.push(Violation::new("WEF 13.18", "heavy artillery never attacks alone"));
    }
    errs.extend(cooperation(s, &attackers));
    errs.extend(super::brusilov::tsar_limit(s, side, t));
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(compute(s, side, t, &attackers, &defenders))
}

/// German units (heavy artillery aside: it has no stacking value, 13.18) standing in hexes
/// that also hold A-H units, map-wide, were units `moving` at `to` (6.4: the limit holds "at
/// any given time").
pub fn combined_germans(s: &State, moving: &[String], to: Option<HexId>) -> usize {
    let at = |u: &Unit| if moving.contains(&u.id) { to } else { u.hex() };
    let counted = |u: &&Unit| u.nat.german() && u.kind != Kind::Heavy;
    s.units.iter().filter(counted).filter(|u| at(u).is_some_and(|h| s.units.iter().any(|o| o.nat == Nat::AH && at(o) == Some(h)))).count()
}

/// 6.4: German and A-H units fight in one battle when stacked together; a combined stack
/// fights alongside pure stacks only if the pure stacks' German units count toward the
/// combined-stack limit.
///
/// Reading (the Italian text, 6.4): a battle with both nations attacking is legal when every
/// attacking hex holds both, or when the German units attacking from hexes without A-H
/// units, added to the German units already in combined stacks on the map, stay within the
/// limit of the turn.
fn cooperation(s: &State, attackers: &[&Unit]) -> Vec<Violation> {
    let fighting = |u: &&&Unit| u.kind != Kind::Heavy;
    let german = attackers.iter().filter(fighting).any(|u| u.nat.german());
    let ah = attackers.iter().filter(fighting).any(|u| u.nat == Nat::AH);
    if !(german && ah) {
        return vec![];
    }
    let pure_german: usize = attackers
        .iter()
        .filter(fighting)
        .filter(|u| u.nat.german())
        .filter(|u| !attackers.iter().any(|o| o.nat == Nat::AH && o.hex() == u.hex()))
        .count();
    if pure_german == 0 {
        return vec![];
    }
    let n = combined_germans(s, &[], None) + pure_german;
    if n > combined_limit(s) {
        return vec![Violation::new(
            "WEF 6.4",
            format!(
                "German units attacking from stacks without A-H units count toward the combined-stack limit: {n} German units, the limit in turn {} is {}",
                s.turn,
                combined_limit(s)
            ),
        )];
    }
    vec![]
}

/// Odds and DRM of a legal attack (13.8–13.19).
pub fn compute(s: &State, side: Side, t: HexId, attackers: &[&Unit], defenders: &[&Unit]) -> Battle {
    // 9.3, 9.7: factors of units out of supply are summed, then halved once, rounded up; a
    // fortress or capital supplies its units for defence only.
    let (own, enemy) = (super::supply::sources(s, side), super::supply::sources(s, side.other()));
    // 9.10: a unit short of ammunition is halved too, pooled with the rest and only once.
    let oos_attack = |u: &&Unit| super::supply::status(s, u, &own) != super::supply::Status::Supplied || super::ammunition::short(s, u);
    let oos_defence = |u: &&Unit| super::supply::status(s, u, &enemy) == super::supply::Status::Out || super::ammunition::short(s, u);
    let halved = |units: &[&Unit], out: &dyn Fn(&&Unit) -> bool, f: &dyn Fn(&Unit) -> u32| {
        let full: u32 = units.iter().filter(|u| !out(u)).map(|u| f(u)).sum();
        let short: u32 = units.iter().filter(|u| out(u)).map(|u| f(u)).sum();
        (full + short.div_ceil(2), short > 0)
    };
    // 13.22: units that retreated into the hex earlier this phase add nothing; 8.6: from
    // turn 12 two corps per hex contribute.
    let fresh: Vec<&Unit> = defenders.iter().copied().filter(|u| !s.retreated.contains(&u.id)).collect();
    let worth = |out: &dyn Fn(&&Unit) -> bool, f: u32, u: &Unit| if out(&u) { f } else { 2 * f };
    let a_keep = super::contribution::contributors(s, attackers, &|u| worth(&oos_attack, attack_factor(s, u), u));
    let d_keep = super::contribution::contributors(s, &fresh, &|u| worth(&oos_defence, defence_factor(s, u), u));
    let a_in: Vec<&Unit> = attackers.iter().copied().filter(|u| a_keep.contains(&u.id)).collect();
    let d_in: Vec<&Unit> = fresh.iter().copied().filter(|u| d_keep.contains(&u.id)).collect();
    let (attack, a_short) = halved(&a_in, &oos_attack, &|u| attack_factor(s, u));
    let (defence, d_short) = halved(&d_in, &oos_defence, &|u| defence_factor(s, u));
    let columns = crt::columns(&s.charts.crt).expect("the CRT was checked at setup");
    // A hex nobody defends with any factor (none in the roster can be) reads as the best column.
    let odds = if defence == 0 { Odds::Column { column: columns.len() - 1, extra_drm: 0 } } else { columns.odds(attack.max(1), defence) };
    let mut parts = vec![format!("attack {attack} vs defence {defence}, odds {}", crate::engine::odds::text(attack, defence))];
    if a_short {
        parts.push("attackers out of supply halved (9.3)".into());
    }
    if d_short {
        parts.push("defenders out of supply halved (9.3)".into());
    }
    let idle: Vec<&str> = attackers
        .iter()
        .chain(fresh.iter())
        .filter(|u| !a_keep.contains(&u.id) && !d_keep.contains(&u.id))
        .map(|u| u.id.as_str())
        .collect();
    if !idle.is_empty() {
        parts.push(format!("{} take part without adding factors (8.6)", idle.join(", ")));
    }
    let late: Vec<&str> = defenders.iter().filter(|u| s.retreated.contains(&u.id)).map(|u| u.id.as_str()).collect();
    if !late.is_empty() {
        parts.push(format!("{} retreated here this phase and add nothing (13.22)", late.join(", ")));
    }
    if attackers.iter().chain(defenders).any(|u| super::ammunition::short(s, u)) {
        parts.push("units short of ammunition halved with them (9.10)".into());
    }
    let mut drm = 0i32;
    let mut add = |v: i32, why: &str, parts: &mut Vec<String>| {
        if v != 0 {
            drm += v;
            parts.push(format!("{why} {v:+}"));
        }
    };
    let tec = &s.charts.tec;
    let info = s.board.get(t).expect("units stand on land");
    // 13.13: terrain of the defender's hex, cumulative.
    let terrain = match info.terrain {
        Terrain::Clear => tec.clear.drm,
        Terrain::Forest => tec.forest.drm,
        Terrain::Swamp => tec.swamp.drm,
        Terrain::Mountain => tec.mountain.drm,
        Terrain::Pass => tec.pass.drm,
    };
    add(terrain, "terrain", &mut parts);
    if info.river {
        add(tec.river, "river", &mut parts);
    }
    // 13.14: cities; Russians in a city of Russia proper get more; Kovno gives nothing.
    if s.board.city(t) && !tec.no_city_drm.iter().any(|h| h.parse::<HexId>().ok() == Some(t)) {
        let russian_home = side == Side::Central && info.country == Country::Russia;
        add(if russian_home { tec.russian_city_in_russia } else { tec.city }, "city", &mut parts);
    }
    let fortress = s.fortress_at(t);
    if fortress {
        add(tec.fortress, "fortress", &mut parts);
    }
    // 13.16: concentric, never against a fortress.
    let dirs: BTreeSet<u8> = attackers.iter().filter_map(|u| u.hex()).filter_map(|h| t.direction_to(h)).collect();
    if !fortress && crate::geo::hex::concentric(&dirs) {
        let all_german = defenders.iter().all(|u| u.nat.german());
        let d = &s.charts.drm;
        add(if all_german { d.concentric_all_german } else { d.concentric }, "concentric", &mut parts);
    }
    // 13.19: a full-strength German active corps on the CP's side, never more than 1.
    let active = |us: &[&Unit]| us.iter().any(|u| u.kind == Kind::Active && u.full_strength());
    if side == Side::Central && active(attackers) {
        add(s.charts.drm.active_corps, "active corps", &mut parts);
    } else if side == Side::Russian && active(defenders) {
        add(-s.charts.drm.active_corps, "active corps", &mut parts);
    }
    // 13.18: heavy artillery with German attackers only. (Its map-edge supply is not checked:
    // supply is not built.)
    let german_only = attackers.iter().all(|u| u.nat.german());
    if german_only && attackers.iter().any(|u| u.kind == Kind::Heavy) {
        add(3, "heavy artillery", &mut parts);
    }
    // 15.2: the Brusilov DRM, which STAVKA's is never added to.
    let brusilov = match odds {
        Odds::Column { column, .. } => super::brusilov::drm(s, side, defenders, Some(column)),
        Odds::Automatic => None,
    };
    // 14.2: STAVKA's favourable 1, lost when units in and out of its reach fight together.
    match super::command::stavka_drm(s, side, attackers, defenders) {
        (_, Some(_)) if brusilov.is_some() => parts.push("STAVKA not added to a Brusilov attack (15.2)".into()),
        (0, Some(note)) => parts.push(note.into()),
        (v, _) => add(v, "STAVKA", &mut parts),
    }
    if let Some(v) = brusilov {
        add(v, "Brusilov", &mut parts);
    }
    let column = match odds {
        Odds::Automatic => None,
        Odds::Column { column, extra_drm } => {
            add(extra_drm, "odds above the last column", &mut parts);
            Some(column)
        }
    };
    Battle {
        attacker: side,
        target: t,
        attackers: attackers.iter().map(|u| u.id.clone()).collect(),
        defenders: defenders.iter().map(|u| u.id.clone()).collect(),
        attack,
        defence,
        column,
        drm,
        summary: parts.join(", "),
        stood: false,
    }
}

/// The CRT column label of a battle.
pub fn column_label(s: &State, b: &Battle) -> String {
    match b.column {
        Some(c) => s.charts.crt.columns[c].clone(),
        None => "worse than the first column".into(),
    }
}

/// Start a declared battle: record 13.4 and 3.6; an automatic result applies at once
/// (13.10), otherwise the battle waits for its roll.
pub fn start(s: &mut State, b: Battle) -> Vec<Event> {
    let mut ev = vec![Event::rule("WEF 13.3", format!("{} attack {}: {}", b.attackers.join(", "), b.target, b.summary))];
    s.attacked.extend(b.attackers.iter().cloned());
    s.targets.insert(b.target);
    super::brusilov::record(s, &b);
    let ah = b.attackers.iter().any(|id| s.unit(id).is_some_and(|u| u.nat == Nat::AH));
    let two_to_one = crt::columns(&s.charts.crt).map(|c| c.worst as usize).unwrap_or(usize::MAX);
    if super::variants::rigid_planning(s) && b.attacker == Side::Central && ah && b.column.is_some_and(|c| c >= two_to_one) {
        s.ah_good_attacks += 1;
        ev.push(Event::rule("WEF 3.6", format!("A-H attack at 2:1 or better: {} of 3 this turn", s.ah_good_attacks)));
    }
    if b.column.is_none() {
        let cell = crt::automatic(&s.charts.crt);
        ev.push(Event::rule("WEF 13.10", format!("odds worse than {}: automatic {cell}, no roll", s.charts.crt.columns[0])));
        ev.extend(super::retreat::result(s, b, cell, false));
    } else if let Some((cav, opts)) = super::retreat::cavalry_may_retreat(s, &b) {
        let hexes: Vec<String> = opts.iter().map(HexId::to_string).collect();
        ev.push(Event::rule(
            "WEF 13.27",
            format!(
                "{} alone in {}, attacked by a force without cavalry, may retreat before combat ({})",
                cav.join(", "),
                b.target,
                hexes.join(", ")
            ),
        ));
        s.decision = Some(super::retreat::Decision { battle: b, stage: super::retreat::Stage::Cavalry, cell: None, withdrawn: false });
    } else {
        s.battle = Some(b);
    }
    ev
}

/// Roll for the pending battle (13.20) and apply the result.
pub fn roll(s: &mut State, die: u32) -> Vec<Event> {
    let Some(b) = s.battle.take() else { return vec![] };
    let column = b.column.expect("a pending battle has a column");
    let modified = die as i32 + b.drm;
    let cell = crt::lookup(&s.charts.crt, column, modified);
    let shown = modified.clamp(*crt::ROLLS.start(), *crt::ROLLS.end());
    let mut ev = vec![
        Event::roll(format!("combat at {}: CRT roll", b.target), "d6", die),
        Event::rule("WEF 13.20", format!("modified roll {shown} on the {} column: {cell}", s.charts.crt.columns[column])),
    ];
    ev.extend(super::retreat::result(s, b, cell, false));
    ev
}

/// Eliminate a unit on the map (13.23, 13.24), with its event.
pub fn eliminate(s: &mut State, id: &str, rule: &str) -> Vec<Event> {
    match s.unit_mut(id) {
        Some(u) if matches!(u.place, Place::Hex(_)) => {
            u.place = Place::Eliminated;
            u.sl = 0;
            vec![Event::rule(rule, format!("{} is eliminated", u.label()))]
        }
        _ => vec![],
    }
}

/// 13.18: heavy artillery shares the fate of the last CP step in its hex (called for hexes
/// that held other units before the battle).
pub fn guns_follow(s: &mut State, h: HexId) -> Vec<Event> {
    let alone = s.units_at(h).all(|u| u.kind == Kind::Heavy);
    if !alone {
        return vec![];
    }
    let guns: Vec<String> = s.units_at(h).map(|u| u.id.clone()).collect();
    guns.iter().flat_map(|g| eliminate(s, g, "WEF 13.18")).collect()
}
