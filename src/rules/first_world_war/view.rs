//! What players read: the expectation, the state as text, the order template, the picture,
//! and the invariants the engine checks after every entry.

use std::collections::BTreeSet;

use super::pieces::Ident;
use super::scenario::Faction;
use super::state::{Stage, State, Where};
use super::turn::awaited;
use crate::engine::{Await, Expectation, Outcome};
use crate::render::{Area, AreaGraph, Counter, Kind, LegendItem, Picture, Rgb, Symbol};

/// `Ruleset::expect`.
pub fn expect(s: &State) -> Expectation {
    let when = format!("Turn {} ({}), {}", s.turn, s.data.year(s.turn), stage_text(s));
    let awaits =
        if s.outcome.is_some() { vec![] } else { awaited(s).map(|(seat, _, what)| vec![Await { seat, what }]).unwrap_or_default() };
    Expectation { when, awaits }
}

fn stage_text(s: &State) -> String {
    match &s.stage {
        Stage::Deploy(i) => format!("deployment of {}", s.deployment_order().get(*i).map(|f| f.code()).unwrap_or("-")),
        Stage::Round => format!("round {} ({})", s.round, s.active().code()),
        Stage::Combat => format!("round {} ({}), combat", s.round, s.active().code()),
        Stage::Discard(_) => format!("round {}, returning chits over the limit", s.round),
        Stage::Surrender => "victory check: surrender rolls".into(),
        Stage::PeaceOffer | Stage::PeaceAnswer => "victory check: Brest-Litovsk".into(),
        Stage::Replace(i) => format!("replacements of {}", s.deployment_order().get(*i).map(|f| f.code()).unwrap_or("-")),
        Stage::Over => "game over".into(),
        Stage::Reveal => "victory check: turning every piece face up".into(),
        Stage::OrderRoll => "play order: the rolls (TFWW 9.2)".into(),
        Stage::OrderPick => "play order: picking slots (TFWW 9.2)".into(),
        Stage::Capture(_) => "victory check: choosing a city to capture (TFWW 6.4)".into(),
    }
}

fn army_text(s: &State, a: usize) -> String {
    let mut t = format!("{}({})", s.name(a), s.data.armies[a].value);
    if s.ga_control.contains(&a) {
        t.push_str("[GA]");
    }
    t
}

/// Where the VP come from (TFWW 6.4): every faction's starting points, +1 for each city it
/// holds captured, −1 for each of its own cities held by the enemy.
pub fn vp_sources(s: &State) -> String {
    let mut parts = vec![format!("VP sources: each faction {} at the start", s.data.start_vp)];
    for f in Faction::ALL.iter().rev() {
        let mut mine = Vec::new();
        for (i, c) in s.data.cities.iter().enumerate().filter(|(i, _)| s.captured[*i]) {
            if c.by == *f {
                mine.push(format!("+1 {} captured (front {})", c.name, c.front));
            }
            if c.owner == *f {
                mine.push(format!("-1 {} lost to {} (front {})", c.name, c.by.code(), s.data.cities[i].front));
            }
        }
        if !mine.is_empty() {
            parts.push(format!("{} {}", f.code(), mine.join(", ")));
        }
    }
    parts.join("; ")
}

/// `Ruleset::describe`: one fact per line.
pub fn describe(s: &State) -> String {
    let mut out = Vec::new();
    out.push(format!("turn {} of {} ({}): {}", s.turn, s.data.turns, s.data.year(s.turn), stage_text(s)));
    if let Some((seat, _, what)) = awaited(s).filter(|_| s.outcome.is_none()) {
        out.push(format!("awaiting {seat}: {what}"));
    }
    let fl = |m: &std::collections::BTreeMap<Faction, u32>| {
        Faction::ALL.iter().rev().map(|f| format!("{} {}", f.code(), m.get(f).copied().unwrap_or(0))).collect::<Vec<_>>().join(", ")
    };
    out.push(format!("VP: {}", fl(&s.vp)));
    out.push(vp_sources(s));
    out.push(format!("SP: {}", fl(&s.sp)));
    for (id, fr) in s.data.fronts.iter() {
        let mut pieces: Vec<String> = s.armies_on(*id).into_iter().map(|a| army_text(s, a)).collect();
        for f in Faction::ALL.iter().rev() {
            let n = s.dummies_on(*id).into_iter().filter(|&d| s.dummies[d].faction == *f).count();
            if n > 0 {
                pieces.push(format!("{n} dummy {}", f.code()));
            }
        }
        pieces.extend(s.pieces.iter().filter(|p| p.front == *id).map(|p| super::pieces::text(s, p)));
        out.push(format!("front {id} ({}): {}", fr.name, if pieces.is_empty() { "empty".into() } else { pieces.join(" ") }));
    }
    for (i, c) in s.data.cities.iter().enumerate() {
        let held = if s.captured[i] { format!("captured by {}", c.by.code()) } else { c.owner.code().to_string() };
        out.push(format!("city {} (front {}): {held}", c.name, c.front));
    }
    for (i, w) in s.armies.iter().enumerate() {
        match w {
            Where::Eliminated => out.push(format!("army {}: eliminated", s.name(i))),
            Where::Track(t) => out.push(format!("army {}: on the turn track for turn {t}", s.name(i))),
            _ => {}
        }
    }
    let off: Vec<String> = Faction::ALL
        .iter()
        .rev()
        .map(|f| (f, s.dummies.iter().filter(|d| d.faction == *f && d.front.is_none() && !d.face_down).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(f, n)| format!("{} {n}", f.code()))
        .collect();
    if !off.is_empty() {
        out.push(format!("dummies off the map: {}", off.join(", ")));
    }
    out.extend(super::chits::describe(s));
    if !s.removed_chits.is_empty() {
        out.push(format!("removed from the game: {}", s.removed_chits.iter().map(|&c| s.chit_name(c)).collect::<Vec<_>>().join(", ")));
    }
    if let Some(c) = &s.combat {
        out.push(format!(
            "combat on front {}: {} ({}) against {} ({}); {}; chits placed: attacker {}, defender {}",
            c.front,
            c.attacker.code(),
            c.attackers.iter().map(|&a| s.name(a)).collect::<Vec<_>>().join(" "),
            c.defender.code(),
            c.defenders.iter().map(|&a| s.name(a)).collect::<Vec<_>>().join(" "),
            c.step.words(),
            if c.attacker_chit.is_some() { "yes" } else { "no" },
            if c.defender_chit.is_some() { "yes" } else { "no" },
        ));
    }
    if s.brest_litovsk {
        out.push("Brest-Litovsk: in force".into());
    }
    if s.options.variable_order {
        let picking = s.order.as_ref().filter(|o| o.picker().is_some()).map(|o| {
            let slots = |v: &[Option<Faction>]| v.iter().map(|x| x.map_or("-", |f| f.code())).collect::<Vec<_>>().join(", ");
            let ranking: Vec<&str> = o.ranking.iter().map(|f| f.code()).collect();
            format!(
                "being chosen, picking in the order {}: deployment slots {}; round slots {}",
                ranking.join(", "),
                slots(&o.deploy),
                slots(&o.rounds)
            )
        });
        // While the slots are picked, the order in force is not yet known: show the picks.
        out.push(format!("play order (TFWW 9.2): {}", picking.unwrap_or_else(|| super::order::text(s))));
    }
    if s.options.schlieffen || s.options.historical_setup {
        out.push(format!("optional rules: schlieffen {}, historical setup {}", s.options.schlieffen, s.options.historical_setup));
    }
    match &s.outcome {
        Some(Outcome::Win { side, reason }) => out.push(format!("result: {side} win: {reason}")),
        Some(Outcome::Draw { reason }) => out.push(format!("result: no winner: {reason}")),
        None => {}
    }
    out.join("\n")
}

/// `Ruleset::template`.
pub fn template(s: &State, seat: &str) -> String {
    let Some((who, _, what)) = awaited(s).filter(|_| s.outcome.is_none()) else { return "# nothing is expected now\n".into() };
    if who != seat {
        return format!("# nothing is expected of {seat} now: waiting for {who} ({what})\n");
    }
    let f = awaited(s).map(|(_, f, _)| f);
    // The seat's own chits, from its sealed notes when its key is given (TFWW 6.1).
    let mut head = String::new();
    if let Some(h) = s.hands.get(seat).filter(|h| !h.is_empty()) {
        head.push_str(&format!("# chits in hand: {}\n", h.iter().map(|&c| s.chit_name(c)).collect::<Vec<_>>().join(", ")));
    }
    let owned;
    let body = match &s.stage {
        Stage::Deploy(_) => {
            owned = f.map(|f| deploy_template(s, seat, f)).unwrap_or_default();
            owned.as_str()
        }
        Stage::Round => {
            owned = f.map(|f| round_template(s, seat, f)).unwrap_or_default();
            owned.as_str()
        }
        Stage::Combat if s.combat.as_ref().is_some_and(|c| matches!(c.step, super::state::CombatStep::DefenderChit)) => {
            owned = chit_template(s, seat, false);
            owned.as_str()
        }
        Stage::Combat
            if s.combat.as_ref().is_some_and(|c| matches!(c.step, super::state::CombatStep::AttackerChitLead) && !c.attacker_placed) =>
        {
            owned = chit_template(s, seat, true);
            owned.as_str()
        }
        Stage::Combat if s.combat.as_ref().is_some_and(|c| matches!(c.step, super::state::CombatStep::DefenderLead)) => {
            owned = lead_template(s, seat);
            owned.as_str()
        }
        Stage::Combat if s.combat.as_ref().is_some_and(|c| c.step == super::state::CombatStep::Draw) => {
            "actions:\n  - draw: true              # your die showed S: take a chit from your cup (the dice pick it); or draw: false\n"
        }
        Stage::Combat if s.combat.as_ref().is_some_and(|c| c.step == super::state::CombatStep::Reveal) => {
            "actions:\n  - reveal: []             # your face-down pieces on the front are opened by your tool\n"
        }
        Stage::Reveal => "actions:\n  - reveal: []             # every face-down piece you hid is opened by your tool\n",
        Stage::Combat => {
            "actions:\n  # - chit: null              # or a chit id from your hand (defender first, then attacker)\n  # attacker, and then defender: name the lead army\n  # - lead: {army: DE-3}\n"
        }
        Stage::Discard(q) => {
            // One of the chits held before the draw (6.2.1), from the seat's own hand.
            let new = q.first().map(|(_, c)| *c);
            let old: Vec<&str> = s.hands.get(seat).into_iter().flatten().filter(|&&c| Some(c) != new).map(|&c| s.chit_name(c)).collect();
            owned = match old.split_first() {
                Some((first, rest)) => format!(
                    "actions:\n  - discard: {first}   # a chit you held before the draw{}\n",
                    if rest.is_empty() { String::new() } else { format!("; or {}", rest.join(", ")) }
                ),
                None => "actions:\n  # - discard: CHIT   # a chit you held before the draw\n".into(),
            };
            owned.as_str()
        }
        Stage::PeaceOffer => "actions:\n  - offer_peace: false\n",
        Stage::PeaceAnswer => "actions:\n  - accept_peace: true\n",
        Stage::Replace(_) => {
            let names: Vec<&str> = f.map(|f| super::turn::replaceable(s, f)).unwrap_or_default().into_iter().map(|a| s.name(a)).collect();
            owned = format!(
                "actions:\n  - replace: []          # eliminated armies, at most your capacity (TFWW 4.2/4): {}\n",
                if names.is_empty() { "none".into() } else { names.join(", ") }
            );
            owned.as_str()
        }
        Stage::Surrender | Stage::Over | Stage::OrderRoll => "",
        Stage::OrderPick => "actions:\n  - pick_order: {deploy: 1, round: 1}   # free slots, 1 to 4 (TFWW 9.2)\n",
        Stage::Capture(q) => {
            let cities: Vec<String> = q
                .first()
                .map(|&(f, front)| {
                    super::victory::capturable(s, f, front, super::victory::Mode::Unopposed)
                        .into_iter()
                        .map(|c| s.data.cities[c].name.clone())
                        .collect()
                })
                .unwrap_or_default();
            let front = q.first().map_or(0, |&(_, fr)| fr);
            owned = match cities.split_first() {
                Some((first, rest)) => format!(
                    "actions:\n  - capture: {{front: {front}, city: {first}}}   # a city in reach (TFWW 6.4){}\n",
                    if rest.is_empty() { String::new() } else { format!("; or {}", rest.join(", ")) }
                ),
                None => format!("actions:\n  # - capture: {{front: {front}, city: CITY}}   # a city in reach (TFWW 6.4)\n"),
            };
            owned.as_str()
        }
    };
    // 6.2.1: a private draw this entry makes at the hand limit needs a held chit returned
    // first; the template names the weakest, for the player to change.
    let ways = super::chits::with_limit_return(s, seat, vec![super::orders::Action::Pass]);
    let weakest = s
        .hands
        .get(seat)
        .into_iter()
        .flatten()
        .min_by_key(|&&c| (s.data.chits[c].value, s.chit_name(c).to_string()))
        .map(|&c| s.chit_name(c));
    // 6.2: a hidden draw won by an S is made with these orders unless declined first.
    let decline = if s.chits.hidden && s.chits.owed.iter().any(|o| o.seat == seat) {
        "  # - draw: false   # 6.2: your S won a chit draw, made with these orders; uncomment to decline it (no return then)\n"
    } else {
        ""
    };
    if ways.len() > 1
        && let (Some(chit), Some(rest)) = (weakest, body.strip_prefix("actions:\n"))
    {
        return format!(
            "# {what}\n{head}actions:\n{decline}  - discard: {chit}   # 6.2.1: your draw comes at the hand limit: return a chit you hold (your choice)\n{rest}"
        );
    }
    match body.strip_prefix("actions:\n") {
        Some(rest) if !decline.is_empty() => format!("# {what}\n{head}actions:\n{decline}{rest}"),
        _ => format!("# {what}\n{head}{body}"),
    }
}

/// Orders with these actions, and whether the rules accept them as written now.
fn accepted(s: &State, seat: &str, actions: Vec<super::orders::Action>) -> bool {
    super::check(s, seat, &super::orders::Orders { actions }).is_empty()
}

/// 4.2/1: every army due with the fronts it may deploy to, the garrison fronts still
/// uncovered, and a deployment written out (uncommented only if the rules accept it).
fn deploy_template(s: &State, seat: &str, f: Faction) -> String {
    use super::orders::{Action, Placement};
    let (armies, dummies) = super::turn::due(s, f);
    let uncovered = super::turn::uncovered(s, f);
    let mut t = String::new();
    t.push_str(&format!(
        "# {} deploys {} arm{} and {dummies} dumm{} (TFWW 4.2/1):\n",
        f.code(),
        armies.len(),
        if armies.len() == 1 { "y" } else { "ies" },
        if dummies == 1 { "y" } else { "ies" }
    ));
    let fronts_of = |a: usize| -> Vec<u8> { s.data.fronts.keys().copied().filter(|&fr| s.may_enter(a, fr)).collect() };
    for &a in &armies {
        let fr: Vec<String> = fronts_of(a).iter().map(|x| x.to_string()).collect();
        t.push_str(&format!("#   {} may deploy to fronts {}\n", s.name(a), fr.join(", ")));
    }
    if !uncovered.is_empty() {
        let g: Vec<String> = uncovered.iter().map(|x| x.to_string()).collect();
        t.push_str(&format!("# garrison fronts still without a real {} army: {} (TFWW 4.2/1)\n", f.code(), g.join(", ")));
    }
    // A first deployment: uncovered garrisons first, then each army's first front.
    let mut placed: Vec<Placement> = Vec::new();
    let mut open: Vec<u8> = uncovered.clone();
    for &a in &armies {
        let ok = fronts_of(a);
        let front = match open.iter().position(|g| ok.contains(g)) {
            Some(i) => open.remove(i),
            None => ok.first().copied().unwrap_or(0),
        };
        placed.push(Placement { piece: s.name(a).to_string(), front });
    }
    let dummy_front = placed.first().map_or_else(|| s.data.fronts.keys().next().copied().unwrap_or(1), |p| p.front);
    for _ in 0..dummies {
        placed.push(Placement { piece: "dummy".into(), front: dummy_front });
    }
    let legal = accepted(s, seat, vec![Action::Deploy(placed.clone())]);
    let c = if legal { "" } else { "# " };
    t.push_str("actions:\n  # pieces the rules turn face down (4.2/1) your tool hides itself; no `hide` needed\n");
    if !legal {
        t.push_str("  # the deployment below needs changing before the rules accept it (check it with `umpire orders check`):\n");
    }
    t.push_str(&format!("  {c}- deploy:                       # face down: your tool commits each and writes piece ids\n"));
    for p in &placed {
        t.push_str(&format!("      {c}- {{piece: {}, front: {}}}\n", p.piece, p.front));
    }
    t
}

/// 4.2/2: one action for the faction due, with examples made of its own pieces.
fn round_template(s: &State, seat: &str, f: Faction) -> String {
    // The faction's own pieces on the board: face-up armies by id, own face-down pieces by
    // their piece id (the seat's view knows which are its own).
    let mut mine: Vec<(u8, String)> = (0..s.armies.len())
        .filter_map(|a| if let Where::Front(fr) = s.armies[a] { (s.controller(a) == f).then(|| (fr, s.name(a).to_string())) } else { None })
        .collect();
    mine.extend(s.pieces.iter().filter(|p| p.seat == seat && super::pieces::controller(p) == f).map(|p| (p.front, p.id.clone())));
    let mut t = String::from("actions:\n  # pieces the rules turned face down (4.2/1, 6.0) your tool hides itself; no `hide` needed\n");
    t.push_str(&format!(
        "  # exactly one action for {} (a face-down piece: its piece id, or the army if you hid it):\n  - pass\n",
        f.code()
    ));
    if let Some((fr, id)) = mine.first() {
        let next: Vec<u8> = s.data.fronts.keys().copied().filter(|x| x != fr).take(1).collect();
        let to = next.first().copied().unwrap_or(*fr);
        t.push_str(&format!(
            "  # - move: {{from: {fr}, pieces: [{{piece: {id}, front: {to}}}]}}   # to an adjacent front of the theatre (5.0)\n"
        ));
        t.push_str(&format!("  # - transfer: {{from: {fr}, to: {to}, pieces: [{id}]}}      # one or two pieces\n"));
        t.push_str(&format!("  # - attack: {{front: {fr}, armies: [{id}]}}   # add capture: [CITY] for your preference (6.4)\n"));
    }
    t
}

/// 6.1/2: the defending lead, one of the defending armies (uncommented only if accepted).
fn lead_template(s: &State, seat: &str) -> String {
    use super::orders::Action;
    let defenders: Vec<String> = s.combat.iter().flat_map(|c| c.defenders.iter().map(|&a| s.name(a).to_string())).collect();
    let mut t = String::from("actions:\n");
    for (i, army) in defenders.iter().enumerate() {
        let ok = i == 0 && accepted(s, seat, vec![Action::Lead { army: army.clone() }]);
        let c = if ok { "" } else { "# " };
        t.push_str(&format!("  {c}- lead: {{army: {army}}}\n"));
    }
    t
}

/// 6.1/1: the chit placed. `chit: null` is written uncommented only where the rules allow
/// placing none; the chits in hand are the other lines.
fn chit_template(s: &State, seat: &str, attacker: bool) -> String {
    use super::orders::Action;
    let hand: Vec<String> = s.hands.get(seat).into_iter().flatten().map(|&c| s.chit_name(c).to_string()).collect();
    // The attacker names its lead in the same entry (6.1/2): its first army, as an example.
    let lead = s.combat.as_ref().filter(|_| attacker).and_then(|c| c.attackers.first()).map(|&a| s.name(a).to_string());
    let mut with_none = vec![Action::Chit(None)];
    if let Some(army) = &lead {
        with_none.push(Action::Lead { army: army.clone() });
    }
    let c = if accepted(s, seat, with_none) { "" } else { "# " };
    let mut t = String::from("actions:\n");
    if !c.is_empty() {
        t.push_str("  # placing no chit is refused now: place one of yours (TFWW 6.1)\n");
    }
    t.push_str(&format!("  {c}- chit: null              # or one of your chits below\n"));
    for h in &hand {
        t.push_str(&format!("  # - chit: {h}\n"));
    }
    if let Some(army) = lead {
        t.push_str(&format!("  {c}- lead: {{army: {army}}}   # any of your attacking armies\n"));
    }
    t
}

/// `Ruleset::check_invariants`.
pub fn check_invariants(s: &State) -> Result<(), String> {
    if s.armies.len() != s.data.armies.len() || s.captured.len() != s.data.cities.len() {
        return Err("state and scenario disagree on the number of armies or cities".into());
    }
    for (i, w) in s.armies.iter().enumerate() {
        if let Where::Front(f) = w
            && !s.data.listed(i, *f)
        {
            return Err(format!("{} stands on front {f}, which does not list it (TFWW 2.1)", s.name(i)));
        }
    }
    // Every chit is in exactly one place: a cup, a hand, on the table, removed, or not yet in play.
    let mut seen = BTreeSet::new();
    let table: Vec<usize> = s.combat.iter().flat_map(|c| [c.attacker_chit, c.defender_chit]).flatten().collect();
    for c in s.cups.values().flatten().chain(s.hands.values().flatten()).chain(&s.removed_chits).chain(&table) {
        if !seen.insert(*c) {
            return Err(format!("chit {} is in two places", s.chit_name(*c)));
        }
    }
    for (seat, h) in &s.hands {
        let limit = s.data.hand_limit + usize::from(matches!(&s.stage, Stage::Discard(q) if q.iter().any(|(x, _)| x == seat)));
        if h.len() > limit {
            return Err(format!("{seat} holds {} chits (limit {}, TFWW 6.2.1)", h.len(), s.data.hand_limit));
        }
    }
    super::pieces::check_counts(s)?;
    if s.turn == 0 || s.turn > s.data.turns {
        return Err(format!("turn {} outside 1..={}", s.turn, s.data.turns));
    }
    if s.stage == Stage::Combat && s.combat.is_none() {
        return Err("combat stage without a combat".into());
    }
    if s.outcome.is_some() != (s.stage == Stage::Over) {
        return Err("the game is over exactly when the stage says so".into());
    }
    Ok(())
}

fn colour(f: Faction) -> Rgb {
    match f {
        Faction::WesternAllies => Rgb(190, 40, 40),
        Faction::EasternAllies => Rgb(40, 130, 60),
        Faction::Germany => Rgb(40, 40, 40),
        Faction::GermanAllies => Rgb(50, 90, 180),
    }
}

/// `Ruleset::picture`: fronts as areas, adjacency as links, pieces as counters.
pub fn picture(s: &State) -> Picture {
    let ids: Vec<u8> = s.data.fronts.keys().copied().collect();
    let mut g = AreaGraph::default();
    for id in &ids {
        let fr = &s.data.fronts[id];
        let held: Vec<String> =
            fr.cities.iter().map(|&c| format!("{}{}", s.data.cities[c].name, if s.captured[c] { "*" } else { "" })).collect();
        g.areas.push(Area {
            id: id.to_string(),
            name: format!("{} {}", id, fr.name),
            detail: held,
            x_mm: fr.x,
            y_mm: fr.y,
            fill: Rgb(235, 228, 205),
        });
        for adj in &fr.adjacent {
            if let Some(j) = ids.iter().position(|x| x == adj) {
                let i = g.areas.len() - 1;
                if i < j {
                    g.links.push((i, j));
                }
            }
        }
    }
    let counter = |f: Faction, top: String, bottom: String, title: String| Counter {
        at: crate::render::Axial { q: 0, r: 0 },
        colour: colour(f),
        ink: Rgb::WHITE,
        symbol: Symbol::Infantry,
        size: "XXXX".into(),
        top_text: top,
        bottom_text: bottom,
        steps: None,
        badges: vec![],
        title,
    };
    for (i, w) in s.armies.iter().enumerate() {
        if let Where::Front(f) = w
            && let Some(k) = ids.iter().position(|x| x == f)
        {
            let a = &s.data.armies[i];
            g.counters.push((k, counter(a.faction, a.id.clone(), a.value.to_string(), format!("{} value {}", a.id, a.value))));
        }
    }
    // A face-down piece shows what it is to whoever knows it (its owner, in its own view).
    for p in &s.pieces {
        if let Some(k) = ids.iter().position(|x| *x == p.front) {
            let (top, bottom) = match p.ident {
                Some(Ident::Army(a)) => (s.name(a).to_string(), format!("{} ↓", s.data.armies[a].value)),
                // "D": a dummy's label fits the narrowest tile of a crowded front.
                Some(Ident::Dummy) => ("D".into(), "↓".into()),
                None => ("?".into(), p.faction.code().into()),
            };
            g.counters.push((k, counter(p.faction, top, bottom, super::pieces::text(s, p))));
        }
    }
    for d in &s.dummies {
        if let Some(f) = d.front
            && let Some(k) = ids.iter().position(|x| *x == f)
        {
            g.counters.push((k, counter(d.faction, "D".into(), d.faction.code().into(), format!("{} dummy", d.faction.code()))));
        }
    }
    let fl = |m: &std::collections::BTreeMap<Faction, u32>| {
        Faction::ALL.iter().rev().map(|f| format!("{} {}", f.code(), m.get(f).copied().unwrap_or(0))).collect::<Vec<_>>().join(", ")
    };
    Picture {
        title: format!("The First World War — turn {} ({}), {}", s.turn, s.data.year(s.turn), stage_text(s)),
        notes: vec![
            format!("VP: {}", fl(&s.vp)),
            format!("SP: {}", fl(&s.sp)),
            "representative board (see docs/first-world-war/data.md)".into(),
        ],
        legend: Faction::ALL.iter().rev().map(|&f| LegendItem { colour: colour(f), text: f.id().into() }).collect(),
        kind: Kind::AreaGraph(g),
    }
}
