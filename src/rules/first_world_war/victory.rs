//! Captures and surrender points (TFWW 6.4-6.6), the victory check (4.2/3), surrender rolls
//! (6.5), Brest-Litovsk (8.1) and the winner (8.0).

use super::scenario::{Faction, Node};
use super::state::{Stage, State};
use crate::dice::Dice;
use crate::engine::{Event, Outcome};

/// Why a faction may capture now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A won combat (or an attack on a front without real defenders, 6.0/AMB-08);
    /// `mef_or`: BR MEF or FR OR took part (8.1 Front 11).
    Combat { mef_or: bool },
    /// An unopposed front at the victory check (4.2/3).
    Unopposed,
}

fn held(s: &State, f: Faction, n: &Node) -> bool {
    match n {
        Node::Base(b) => *b == f,
        Node::City(c) => s.holder(*c) == f,
    }
}

/// Nodes of a front linked to a node `f` holds, through lines open this turn (6.4, 6.6).
fn reachable(s: &State, f: Faction, front: u8) -> Vec<Node> {
    let Some(fr) = s.data.fronts.get(&front) else { return vec![] };
    let mut out = Vec::new();
    for (a, b, open) in &fr.lines {
        if *open > s.turn {
            continue;
        }
        if held(s, f, a) && !out.contains(b) {
            out.push(b.clone());
        }
        if held(s, f, b) && !out.contains(a) {
            out.push(a.clone());
        }
    }
    out
}

/// Whether a neutral attack line still locks city `c` (6.6): the turn printed on a line is
/// the turn from which the cities it connects may be captured, whichever line the capture
/// comes by. A city behind them (Odessa behind Bucharest) stays locked as well, since no
/// line reaches it but through a locked city, which nobody can take first.
pub fn locked(s: &State, front: u8, c: usize) -> bool {
    let Some(fr) = s.data.fronts.get(&front) else { return false };
    fr.lines.iter().any(|(a, b, open)| *open > s.turn && (*a == Node::City(c) || *b == Node::City(c)))
}

/// Whether Brest-Litovsk freezes the cities of a front (8.1).
fn frozen(s: &State, front: u8, mode: Mode) -> bool {
    s.brest_litovsk && ((7..=9).contains(&front) || (front == 11 && mode != Mode::Combat { mef_or: true }))
}

/// Cities `f` may capture on a front now, in data order (6.4 a-d).
pub fn capturable(s: &State, f: Faction, front: u8, mode: Mode) -> Vec<usize> {
    if frozen(s, front, mode) {
        return vec![];
    }
    let near = reachable(s, f, front);
    let Some(fr) = s.data.fronts.get(&front) else { return vec![] };
    fr.cities
        .iter()
        .copied()
        .filter(|&c| {
            let city = &s.data.cities[c];
            let mine_to_take = (city.by == f && !s.captured[c]) || (city.owner == f && s.captured[c]);
            mine_to_take && near.contains(&Node::City(c)) && !locked(s, front, c)
        })
        .collect()
}

/// Capture one city, or else charge a surrender point (6.4, 6.5, 6.5.2, 4.2/3).
pub fn capture_or_sp(s: &mut State, f: Faction, front: u8, prefs: &[String], mode: Mode) -> Vec<Event> {
    let mut ev = Vec::new();
    let list = capturable(s, f, front, mode);
    if !list.is_empty() {
        let pick = prefs.iter().find_map(|p| list.iter().copied().find(|&c| s.data.cities[c].name == *p)).unwrap_or(list[0]);
        let old = s.holder(pick);
        s.captured[pick] = !s.captured[pick];
        s.add_vp(f, 1);
        s.add_vp(old, -1);
        let name = s.data.cities[pick].name.clone();
        let how = if s.captured[pick] { "captures" } else { "recaptures" };
        ev.push(Event::rule(
            "TFWW 6.4",
            format!(
                "{} {how} {name} on front {front} from {}: VP {} {}, {} {}",
                f.code(),
                old.code(),
                f.code(),
                s.vp[&f],
                old.code(),
                s.vp[&old]
            ),
        ));
        return ev;
    }
    if s.brest_litovsk && (7..=9).contains(&front) {
        ev.push(Event::rule("TFWW 8.1", format!("front {front} is frozen by Brest-Litovsk: no capture, no surrender point")));
        return ev;
    }
    let Some(fr) = s.data.fronts.get(&front) else { return ev };
    let recipient = match mode {
        Mode::Combat { .. } => {
            let near = reachable(s, f, front);
            fr.bases.iter().copied().find(|b| b.enemy_of(f) && near.contains(&Node::Base(*b)))
        }
        Mode::Unopposed => fr.bases.iter().copied().find(|b| b.enemy_of(f)),
    };
    let Some(r) = recipient else {
        ev.push(Event::rule("TFWW 6.5", format!("{}: no city to capture and no enemy base in reach on front {front}", f.code())));
        return ev;
    };
    if s.sp_charged.contains(&(r, front)) {
        ev.push(Event::rule("TFWW 6.5.2", format!("{} already received a surrender point for front {front} this turn", r.code())));
    } else {
        s.sp_charged.insert((r, front));
        *s.sp.entry(r).or_insert(0) += 1;
        ev.push(Event::rule(
            "TFWW 6.5",
            format!("{} inflicts a surrender point on {} (front {front}): SP {}", f.code(), r.code(), s.sp[&r]),
        ));
    }
    ev
}

/// Alliance VP totals.
fn totals(s: &State) -> (u32, u32) {
    let v = |f| s.vp.get(&f).copied().unwrap_or(0);
    (v(Faction::WesternAllies) + v(Faction::EasternAllies), v(Faction::Germany) + v(Faction::GermanAllies))
}

/// The individual winner inside a winning alliance (8.0).
pub fn individual(s: &State, alliance: &str) -> String {
    let v = |f| s.vp.get(&f).copied().unwrap_or(0);
    if alliance == "central_powers" {
        if s.players <= 2 {
            return "the Central Powers player".into();
        }
        return if v(Faction::Germany) >= v(Faction::GermanAllies) + 3 { "Germany".into() } else { "the German Allies".into() };
    }
    if s.players < 4 {
        return "the Allied player".into();
    }
    // WA needs at least 1 VP more than EA (EA +8 with the treaty).
    let ea = v(Faction::EasternAllies) + if s.brest_litovsk { 8 } else { 0 };
    if v(Faction::WesternAllies) > ea { "the Western Allies".into() } else { "the Eastern Allies".into() }
}

/// The result on VP (8.0): the higher alliance total wins, a tie goes to the Central Powers.
pub fn by_vp(s: &State, why: &str) -> Outcome {
    let (a, c) = totals(s);
    let side = if a > c { "allies" } else { "central_powers" };
    Outcome::Win {
        side: side.into(),
        reason: format!("{why}: VP Allies {a}, Central Powers {c}; individual winner: {}", individual(s, side)),
    }
}

/// Fronts on which an alliance holds every city (AMB-01).
pub fn fronts_held(s: &State, alliance: &str) -> usize {
    s.data.fronts.values().filter(|fr| !fr.cities.is_empty() && fr.cities.iter().all(|&c| s.holder(c).alliance() == alliance)).count()
}

/// 4.2/3 steps 1-3, then on to the surrender rolls or what follows them. A faction with
/// more than one city in reach on an unopposed front chooses it (6.4: "sometimes a player has
/// a choice", Fronts 10 and 11): the check waits in [`Stage::Capture`] for those choices.
/// The captures of different fronts and factions do not touch each other (each faction
/// captures with its own markers from its own holdings), so the choices may come after the
/// other captures.
pub fn victory_check(s: &mut State) -> Vec<Event> {
    let mut ev = vec![Event::rule("TFWW 4.2/3", format!("victory check of turn {}: every piece is turned face up", s.turn))];
    let fronts: Vec<u8> = s.data.fronts.keys().copied().collect();
    let mut choices = Vec::new();
    for front in fronts {
        let allies = !s.alliance_real("allies", front).is_empty();
        let cp = !s.alliance_real("central_powers", front).is_empty();
        if allies == cp {
            continue;
        }
        let alliance = if allies { "allies" } else { "central_powers" };
        for f in Faction::ALL {
            if f.alliance() == alliance && !s.real_of(f, front).is_empty() {
                if capturable(s, f, front, Mode::Unopposed).len() > 1 {
                    choices.push((f, front));
                } else {
                    ev.extend(capture_or_sp(s, f, front, &[], Mode::Unopposed));
                }
            }
        }
    }
    if !choices.is_empty() {
        for (f, front) in &choices {
            ev.push(Event::rule("TFWW 6.4", format!("{} has a choice of cities to capture on front {front}", f.code())));
        }
        s.stage = Stage::Capture(choices);
        return ev;
    }
    ev.extend(after_captures(s));
    ev
}

/// 4.2/3, 6.4: `f` names the city it captures on `front` at the victory check.
pub fn choose_capture(s: &mut State, f: Faction, front: u8, city: &str) -> Result<Vec<Event>, Vec<crate::engine::Violation>> {
    let Stage::Capture(q) = s.stage.clone() else {
        return Err(vec![crate::engine::Violation::new("TFWW 6.4", "no capture to choose now")]);
    };
    if q.first() != Some(&(f, front)) {
        let want = q.first().map(|(_, fr)| *fr).unwrap_or(0);
        return Err(vec![crate::engine::Violation::new("TFWW 6.4", format!("the capture to choose now is on front {want}"))]);
    }
    let list = capturable(s, f, front, Mode::Unopposed);
    if !list.iter().any(|&c| s.data.cities[c].name == city) {
        let names: Vec<String> = list.iter().map(|&c| s.data.cities[c].name.clone()).collect();
        return Err(vec![crate::engine::Violation::new(
            "TFWW 6.4",
            format!("{city} cannot be captured on front {front} now; choose {}", names.join(" or ")),
        )]);
    }
    let mut ev = capture_or_sp(s, f, front, &[city.to_string()], Mode::Unopposed);
    let rest: Vec<(Faction, u8)> = q[1..].to_vec();
    if rest.is_empty() {
        ev.extend(after_captures(s));
    } else {
        s.stage = Stage::Capture(rest);
    }
    Ok(ev)
}

/// 4.2/3 after the captures: the end test, then the surrender rolls or what follows them.
fn after_captures(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let ended = if s.turn >= s.data.turns {
        Some(format!("end of turn {} (TFWW 4.1)", s.turn))
    } else {
        ["allies", "central_powers"]
            .into_iter()
            .find(|a| fronts_held(s, a) >= 6)
            .map(|a| format!("{a} hold every city on six fronts (TFWW 4.2/3, AMB-01)"))
    };
    if let Some(why) = ended {
        let o = by_vp(s, &why);
        ev.push(Event::rule("TFWW 8.0", format!("game over: {}", describe(&o))));
        s.outcome = Some(o);
        s.stage = Stage::Over;
        return ev;
    }
    if s.sp.values().any(|&v| v > 0) {
        s.stage = Stage::Surrender;
        ev.push(Event::rule("TFWW 6.5", "surrender rolls are due"));
    } else {
        after_surrender(s);
    }
    ev
}

fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Win { side, reason } => format!("{side} win ({reason})"),
        Outcome::Draw { reason } => format!("no winner ({reason})"),
    }
}

/// Surrender rolls, one die per faction with SP, in the order GA, EA, WA, GER (6.5, F.3).
pub fn surrender_rolls(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut gone = Vec::new();
    for f in Faction::ALL {
        let sp = s.sp.get(&f).copied().unwrap_or(0);
        if sp == 0 {
            continue;
        }
        let idx = dice.roll(6);
        let face = s.face(idx);
        let shown = super::state::show_face(face);
        ev.push(super::state::die_event(format!("surrender roll of {} (SP {sp})", f.code()), face));
        if face != 0 && face <= sp {
            ev.push(Event::rule("TFWW 6.5", format!("{} rolls {shown} against SP {sp}: it surrenders", f.code())));
            gone.push(f);
        } else {
            ev.push(Event::rule("TFWW 6.5", format!("{} rolls {shown} against SP {sp}: it fights on", f.code())));
        }
    }
    let allies = gone.iter().any(|f| f.alliance() == "allies");
    let cp = gone.iter().any(|f| f.alliance() == "central_powers");
    let o = match (allies, cp) {
        (true, true) => Some(Outcome::Draw { reason: "factions of both alliances surrendered: every player loses (TFWW 6.5)".into() }),
        (true, false) => Some(Outcome::Win {
            side: "central_powers".into(),
            reason: format!("an Allied faction surrendered (TFWW 6.5); individual winner: {}", individual(s, "central_powers")),
        }),
        (false, true) => Some(Outcome::Win {
            side: "allies".into(),
            reason: format!("a Central Powers faction surrendered (TFWW 6.5); individual winner: {}", individual(s, "allies")),
        }),
        (false, false) => None,
    };
    match o {
        Some(o) => {
            ev.push(Event::rule("TFWW 6.5", format!("game over: {}", describe(&o))));
            s.outcome = Some(o);
            s.stage = Stage::Over;
        }
        None => after_surrender(s),
    }
    ev
}

/// 4.2/3 step 5: the Brest-Litovsk offer from turn 4, else on to replacements.
pub fn after_surrender(s: &mut State) {
    s.stage = if s.turn >= 4 && !s.brest_litovsk { Stage::PeaceOffer } else { Stage::Replace(0) };
}

/// F.8 violation policy: what a cheat by `seat` found by the omniscient audit means. Under
/// `forfeit` the seat's alliance forfeits and its opponents win; under `report` the cheat is
/// only reported (`None`). Fixed in the game config (`violation_policy`) before play.
pub fn cheat_verdict(s: &State, seat: &str) -> Option<String> {
    if s.options.violation_policy == super::state::ViolationPolicy::Report {
        return None;
    }
    let alliance = s.factions_of(seat).first()?.alliance();
    let other = if alliance == "allies" { "central_powers" } else { "allies" };
    Some(format!("F.8 (violation policy: forfeit): {seat}'s alliance ({alliance}) forfeits; its opponents ({other}) win"))
}
