//! What players read and see: the state as text (`show`, replay diffs, rule cases), the
//! orders template, the picture, and the invariants.

use super::board::{Country, Terrain};
use super::control::controller;
use super::state::{Kind, Nat, Place, Side, State, Unit};
use super::{reinforce, stacking, victory};
use crate::render::{
    Cell, Counter, HexMap, Kind as PicKind, LegendItem, Mark, MarkShape, Picture, PlaceKind as PicPlace, PlaceMark, Rgb, Symbol,
};

/// Stable, line-oriented text of the state.
pub fn describe(s: &State) -> String {
    let mut out = vec![format!("turn {} ({}) {}", s.turn, s.turn_box().map(|b| b.date.as_str()).unwrap_or("?"), s.phase.title())];
    out.push(format!("data {}", s.data_version));
    if let Some(side) = s.variant.deploying {
        out.push(format!(
            "free setup: the {} player deploys, {} units to place (WEF 3.9)",
            side.title(),
            super::deploy::pending(s, side).len()
        ));
    }
    if let Some(o) = &s.outcome {
        out.push(format!("outcome {}", crate::engine::game::describe_outcome(o)));
    }
    if let Some(b) = &s.battle {
        out.push(format!("battle at {}: {} against {}; {}", b.target, b.attackers.join(", "), b.defenders.join(", "), b.summary));
    }
    if let Some(d) = &s.decision {
        out.push(format!("decision {}", d.words()));
    }
    if let Some(h) = super::command::stavka(s) {
        out.push(format!("stavka at {h}"));
    }
    if let Some(h) = s.hq.oberost {
        out.push(format!("oberost at {h}"));
    }
    if !s.hq.oberost_units.is_empty() {
        out.push(format!("oberost commands {}", s.hq.oberost_units.iter().cloned().collect::<Vec<_>>().join(", ")));
    }
    if let Some(b) = s.brusilov.declared {
        out.push(format!("brusilov declared in turn {b}, runs through turn {}", b + 2));
    }
    if !s.retreated.is_empty() {
        out.push(format!("retreated this phase {}", s.retreated.iter().cloned().collect::<Vec<_>>().join(", ")));
    }
    out.push(format!(
        "victory russian holds {} German cities and {} A-H victory hexes; central holds {} Russian cities",
        victory::german_cities(s),
        victory::ah_victory_hexes(s),
        victory::russian_cities_held(s)
    ));
    if s.turn == 1 && s.ah_good_attacks > 0 {
        out.push(format!("rigid planning {} A-H attacks at 2:1 or better", s.ah_good_attacks));
    }
    for (nat, n) in &s.logistics.pools {
        out.push(format!("replacements {nat:?} {n} SL on hand"));
    }
    if !s.logistics.rail.is_empty() {
        out.push(format!("strategic movement this turn: {}", s.logistics.rail.keys().cloned().collect::<Vec<_>>().join(", ")));
    }
    // Counters outside this scenario say nothing about the game.
    for u in s.units.iter().filter(|u| u.place != Place::Out) {
        let [a, d, m] = u.factors();
        let at = match u.place {
            Place::Hex(h) => format!("at {h}"),
            Place::Track(t) => format!("enters turn {t}"),
            Place::Waiting => format!("waits for {}", u.when.as_deref().unwrap_or("?")),
            Place::Eliminated => "eliminated".into(),
            Place::Lost => "lost (did not enter)".into(),
            Place::Out => "out of play".into(),
            Place::Withdrawn => "withdrawn".into(),
        };
        out.push(format!("unit {} {} {a}-{d}-{m} {}/{} SL {at}", u.id, u.name, u.sl, u.max_sl()));
    }
    for (h, side) in &s.control {
        let initial = s.board.get(*h).and_then(|i| i.country.owner());
        let now = controller(s, *h);
        if now != initial {
            let name = s.board.place(*h).map(|(n, _)| format!(" {n}")).unwrap_or_default();
            out.push(format!("control {h}{name} {}", now.map(Side::id).unwrap_or(side.id())));
        }
    }
    for h in &s.fallen_forts {
        out.push(format!("fallen fortress {h}"));
    }
    out.extend(super::fog::describe(s));
    out.extend(super::events::describe(s));
    out.extend(super::ammunition::describe(s));
    out.join("\n")
}

/// A commented YAML skeleton of what `seat` may send now.
pub fn template(s: &State, seat: &str) -> String {
    // What the game waits for, as `status` says it (the deployment and a hidden stack's
    // opening come before the phase).
    let e = <super::WhenEaglesFight as crate::engine::Ruleset>::expect(s);
    let mine = e.awaits.iter().find(|a| a.seat == seat);
    let Some(w) = mine else { return format!("# {}: nothing is expected of {seat} now\n", e.when) };
    let Some(side) = s.side_of(seat) else { return format!("# {}\n# {}\nactions:\n", e.when, w.what) };
    if s.variant.deploying == Some(side) {
        return super::deploy::template(s, side, &format!("# {}\n# {}\n", e.when, w.what));
    }
    // The position: the seat's units on the map with their factors, SL and supply.
    let sources = super::supply::sources(s, side);
    let mut t = format!("# {}\n# {}\n# your units: id, hex, attack-defence-movement, SL, supply\n", e.when, w.what);
    for u in s.units.iter().filter(|u| u.side() == side) {
        let Some(h) = u.hex() else { continue };
        let [a, d, m] = u.factors();
        let sup = match super::supply::status(s, u, &sources) {
            super::supply::Status::Supplied => "supplied",
            super::supply::Status::Limited => "supplied by its fortress or capital only (WEF 9.7)",
            super::supply::Status::Out => "OUT OF SUPPLY (WEF 9)",
        };
        t.push_str(&format!("#   {:<8} {h}  {a}-{d}-{m}  {}/{} SL  {sup}\n", u.id, u.sl, u.max_sl()));
    }
    t.push_str("actions:\n");
    if s.fog.blind.is_some() {
        if s.fog.kept.is_some() {
            t.push_str("  - reveal   # opens the attacked counters (WEF 13.7)\n");
            return t;
        }
        return format!("{}# {}: send `umpire apply --ack`\n", t.trim_end_matches("actions:\n"), w.what);
    }
    if s.decision.is_some() {
        t.push_str("  - decide: {losses: [ID, ...], retreat: \"HEX\", advance: [{units: [ID, ...], path: [\"HEX\", ...]}]}   # keep what applies\n");
        return t;
    }
    if s.battle.is_none()
        && let Some((h, _)) = super::overstack::pending(s)
    {
        t.push_str(&format!(
            "  - remove_overstack: [{}]   # the fewest units of {h} (WEF 8.3)\n",
            super::overstack::minimum(s, h).1.join(", ")
        ));
        return t;
    }
    if s.battle.is_some() || s.phase == super::state::Phase::VictoryCheck {
        return format!("{}# {}: send `umpire apply --ack`\n", t.trim_end_matches("actions:\n"), w.what);
    }
    if s.phase.new_units() {
        for u in reinforce::due(s, side) {
            let opts = reinforce::options(s, u);
            let first = opts.first().map(|h| h.to_string()).unwrap_or_else(|| "????".into());
            t.push_str(&format!("  - enter: {{unit: {}, hex: \"{first}\"}}   # {} ({} entry hexes)\n", u.id, u.name, opts.len()));
        }
        for (nat, n) in s.logistics.pools.iter().filter(|(nat, _)| super::logistics::pool(**nat).side() == side) {
            t.push_str(&format!("  # {n} {nat:?} replacement SL: - restore: {{unit: ID}} (1 SL, WEF 10.11); - rebuild: {{unit: ID, hex: \"HEX\", sl: 1}} (WEF 10.12)\n"));
        }
        for (nat, left) in super::withdrawals::outstanding(s, side) {
            t.push_str(&format!("  # withdraw {left} {nat:?} infantry SL this turn (WEF 10.17): - withdraw: {{unit: ID}}\n"));
        }
    } else if s.phase.strategic() {
        for (id, tos) in super::strategic::options(s, side).into_iter().take(12) {
            let first = tos.first().map(|h| h.to_string()).unwrap_or_default();
            t.push_str(&format!("  # - rail: {{unit: {id}, to: \"{first}\"}}   # {} towns or cities open (WEF 11)\n", tos.len()));
        }
    } else if s.phase.movement() {
        t.push_str("  # - move: {units: [ID, ...], path: [\"HEX\", ...]}   # a group starts stacked (WEF 12.5)\n");
        if s.phase == super::state::Phase::RussianMovement {
            t.push_str("  - end_phase\n");
            if super::brusilov::TURNS.contains(&s.turn) && super::brusilov::declared(s).is_none() {
                t.push_str("  # - brusilov         # after end_phase: declare the Brusilov offensive, once, turns 15-18 (WEF 15.1)\n");
            }
            t.push_str("  # - stavka: \"HEX\"   # after end_phase, before the ammunition roll (WEF 9.9, 14.2)\n");
            return t;
        }
    } else if s.phase.combat() {
        if side == Side::Central {
            t.push_str("  # - oberost: \"HEX\"   # before any attack (WEF 14.3)\n");
        }
        t.push_str("  # - attack: {target: \"HEX\", units: [ID, ...]}    # the entry ends with the attack's roll (WEF 13.20)\n");
    }
    t.push_str("  - end_phase\n");
    t
}

/// Internal consistency.
pub fn check_invariants(s: &State) -> Result<(), String> {
    // 8.3: an overstack is answered by the opponent's removal, due before anything else;
    // never while a battle is still being fought.
    if let Some(h) = stacking::overstacked(s)
        && (s.battle.is_some() || s.decision.is_some())
    {
        return Err(format!("{h} is overstacked"));
    }
    // 15.1: the offensive is declared in T15-T18 only.
    if let Some(b) = s.brusilov.declared
        && !super::brusilov::TURNS.contains(&b)
    {
        return Err(format!("Brusilov declared in turn {b}"));
    }
    for u in &s.units {
        if u.sl > u.max_sl() {
            return Err(format!("{} has {} SL of {}", u.id, u.sl, u.max_sl()));
        }
        if matches!(u.place, Place::Hex(_)) && u.sl == 0 {
            return Err(format!("{} is on the map with no SL", u.id));
        }
        if let Some(h) = u.hex() {
            if s.board.get(h).is_none() {
                return Err(format!("{} stands on {h}, not a land hex", u.id));
            }
            if s.units_at(h).any(|o| o.side() != u.side()) {
                return Err(format!("{h} holds units of both sides"));
            }
        }
    }
    if s.turn == 0 || s.turn > s.last_turn {
        return Err(format!("turn {} is off the track", s.turn));
    }
    Ok(())
}

fn terrain_fill(t: Terrain, c: Country) -> Rgb {
    let base = match t {
        Terrain::Clear => Rgb(236, 228, 200),
        Terrain::Forest => Rgb(170, 200, 140),
        Terrain::Swamp => Rgb(180, 205, 200),
        Terrain::Mountain => Rgb(190, 160, 120),
        Terrain::Pass => Rgb(210, 180, 140),
    };
    // A light tint per country so borders read without lines.
    let tint = match c {
        Country::Germany => (0, 0, 8),
        Country::AustriaHungary => (6, 6, 0),
        Country::RussianPoland => (0, 6, 0),
        Country::Russia => (0, 0, 0),
        Country::Romania => (10, 0, 0),
    };
    Rgb(base.0.saturating_sub(tint.0), base.1.saturating_sub(tint.1), base.2.saturating_sub(tint.2))
}

fn colour(n: Nat) -> (Rgb, Rgb) {
    match n {
        Nat::DE | Nat::TU => (Rgb(120, 130, 140), Rgb::WHITE),
        Nat::AH => (Rgb(205, 205, 200), Rgb::BLACK),
        Nat::RU => (Rgb(40, 90, 50), Rgb::WHITE),
        Nat::RO => (Rgb(230, 200, 40), Rgb::BLACK),
    }
}

fn counter(s: &State, u: &Unit, h: crate::geo::hex::HexId) -> Counter {
    let (colour, ink) = colour(u.nat);
    let [a, d, m] = u.factors();
    let _ = s;
    Counter {
        at: axial(h),
        colour,
        ink,
        symbol: match u.kind {
            Kind::Infantry | Kind::Active => Symbol::Infantry,
            Kind::Cavalry => Symbol::Cavalry,
            Kind::Fortress => Symbol::Fortress,
            Kind::Heavy => Symbol::Artillery,
        },
        size: match u.size {
            super::state::Size::Corps => "XXX".into(),
            super::state::Size::Division => "XX".into(),
            super::state::Size::Battalion => "II".into(),
            super::state::Size::None => String::new(),
        },
        top_text: u.name.split_whitespace().next().unwrap_or("").into(),
        bottom_text: format!("{a}-{d}-{m}"),
        steps: (u.max_sl() > 1).then_some((u32::from(u.sl), u32::from(u.max_sl()))),
        badges: vec![],
        title: format!("{} {}", u.id, u.name),
    }
}

/// Renderer coordinates: the hex ids read as the shared grid (see `board`), drawn with the
/// Glory's End convention. The map comes out turned a quarter turn clockwise (north to the
/// right, west at the top); the picture's notes say so.
pub fn axial(h: crate::geo::hex::HexId) -> crate::render::Axial {
    let (q, r) = h.axial();
    crate::render::Axial { q: -(q + r), r }
}

/// The picture of the state.
pub fn picture(s: &State) -> Picture {
    let mut cells = Vec::new();
    for (h, info) in s.board.hexes() {
        let place = info.place.as_ref().map(|(name, k)| PlaceMark {
            name: name.clone(),
            kind: if *k == super::scenario::PlaceKind::Town { PicPlace::Town } else { PicPlace::City },
        });
        let mut marks = Vec::new();
        let initial = info.country.owner();
        if let Some(now) = controller(s, h).filter(|_| super::control::tracked(s, h)).filter(|c| Some(*c) != initial) {
            marks.push(Mark {
                shape: MarkShape::Control,
                colour: colour(if now == Side::Central { Nat::DE } else { Nat::RU }).0,
                text: String::new(),
                title: format!("held by the {} player", now.title()),
            });
        }
        if s.fallen_forts.contains(&h) {
            marks.push(Mark { shape: MarkShape::Dot, colour: Rgb(120, 0, 0), text: "F".into(), title: "fallen fortress".into() });
        }
        cells.push(Cell {
            id: h.to_string(),
            axial: axial(h),
            fill: terrain_fill(info.terrain, info.country),
            place,
            vp: None,
            outline: None,
            marks,
        });
    }
    let counters = s.units.iter().filter_map(|u| u.hex().map(|h| counter(s, u, h))).collect();
    let mut notes = vec!["map drawn a quarter turn clockwise: north is to the right, west at the top (representative map)".into()];
    if let Some(o) = &s.outcome {
        notes.push(crate::engine::game::describe_outcome(o));
    }
    Picture {
        title: format!("When Eagles Fight — {}, {}", s.turn_text(), s.phase.title()),
        notes,
        legend: vec![
            LegendItem { colour: colour(Nat::DE).0, text: "German".into() },
            LegendItem { colour: colour(Nat::AH).0, text: "Austro-Hungarian".into() },
            LegendItem { colour: colour(Nat::RU).0, text: "Russian".into() },
        ],
        kind: PicKind::HexMap(HexMap { cells, sides: vec![], counters, arrows: vec![] }),
    }
}
