//! What players read and see: the state as text, the orders template, the picture (the
//! shared hex renderer, with each counter's facing as an arrow badge) and the invariants.

use super::command::{self, groups_of};
use super::movement::{facing_problem, stack_problem};
use super::scenario::{Feature, Kind, Terrain};
use super::state::{Phase, State};
use crate::render::{
    Badge, Cell, Counter, HexMap, Kind as PicKind, LegendItem, Picture, PlaceKind, PlaceMark, Rgb, Side, SideStyle, Symbol,
};

/// The arrow of each vertex in the picture: vertex 5 points north, then clockwise.
const ARROWS: [&str; 6] = ["↗", "↘", "↓", "↙", "↖", "↑"];

/// The state, one fact per line.
pub fn describe(s: &State) -> String {
    let mut out = vec![s.phase_text()];
    if let Some(o) = &s.outcome {
        out.push(format!("result: {}", crate::engine::game::describe_outcome(o)));
    }
    let cup: Vec<String> = s.cup.iter().map(|a| a.to_string()).collect();
    out.push(format!("cup: {}", if cup.is_empty() { "empty".into() } else { cup.join(", ") }));
    let aside: Vec<String> = s.aside.iter().map(|a| a.to_string()).collect();
    if !aside.is_empty() {
        out.push(format!("set aside: {}", aside.join(", ")));
    }
    for g in &s.groups {
        let st = match (g.status, g.committed) {
            (Some(st), _) => st.code().to_string(),
            (None, true) => "orders secret".into(),
            (None, false) => "no orders yet".into(),
        };
        let reach = if g.in_reach { "" } else { ", out of command distance" };
        out.push(format!("group {} (turn {}): {} — {st}{reach}", g.id, g.turn, g.units.join(", ")));
    }
    for u in &s.units {
        let f = s.face(u);
        let at = match (u.hex, u.arrives) {
            (Some(h), _) => h.to_string(),
            (None, Some(t)) => format!(
                "off the map, a reinforcement entering by {} from turn {t}",
                s.scenario.schedule_of(&u.id).map(|r| r.entry.to_string()).unwrap_or_default()
            ),
            (None, None) => "off the map".into(),
        };
        let mut state = Vec::new();
        if u.marker {
            state.push("under a Reinforcement marker");
        }
        if u.or_turn == Some(s.turn) {
            state.push("OR this turn (entered near the enemy)");
        }
        if u.disordered {
            state.push("disordered");
        }
        if u.routed {
            state.push("routed");
        }
        if u.sheltered {
            state.push("(stopped its rout here)");
        }
        if u.square {
            state.push("in square");
        }
        let state = if state.is_empty() { String::new() } else { format!(" {}", state.join(" ")) };
        out.push(format!(
            "unit {} ({} {}, {:?}) at {at} facing vertex {}: {} SP, cohesion {}, engagement {}, {} MP{state}",
            u.id, u.side, u.formation, u.kind, u.facing, f.sp, f.cohesion, f.engagement, f.mp
        ));
    }
    if let Some(f) = &s.fire {
        out.push(format!("fire waiting for its die: {} at {}", f.units.join(" and "), f.target));
    }
    if let Some(c) = &s.charge {
        out.push(format!("charge waiting for its dice: {} from {} against {}", c.units.join(", "), c.order.from, c.order.at));
    }
    if let Some(m) = &s.melee {
        for c in &m.combats {
            let f: Vec<String> = c.from.iter().map(|h| h.to_string()).collect();
            let a: Vec<String> = c.at.iter().map(|h| h.to_string()).collect();
            out.push(format!("melee waiting for its dice: {} against {}", f.join(" and "), a.join(" and ")));
        }
    }
    if let Some(l) = &s.leader {
        for x in &l.tests {
            out.push(format!("leader initiative test waiting for its die: {} (drm {}, initiative {})", x.group, x.drm, x.initiative));
        }
    }
    for (g, pass) in &s.tested {
        out.push(format!(
            "leader initiative of {g} in this activation: {}",
            if *pass { "passed, OR for this activation" } else { "failed, rally only" }
        ));
    }
    if let Some(w) = &s.initiative {
        out.push(format!("strategic initiative of this turn: {w}"));
    }
    if s.melee_done {
        out.push("the melees of this activation are declared".into());
    }
    if !s.meleed.is_empty() {
        out.push(format!("attacked in melee in this activation: {}", s.meleed.join(", ")));
    }
    if !s.fired.is_empty() {
        out.push(format!("fired in this activation: {}", s.fired.join(", ")));
    }
    for f in &s.demoralised {
        out.push(format!("formation {f} is demoralised"));
    }
    for c in &s.chiefs {
        let by = match (&c.general, s.command(&c.side)) {
            (Some(_), Some(g)) => format!(" ({}, who took command, JDG 2.5.2)", g.name),
            _ => String::new(),
        };
        out.push(format!("commander-in-chief of {} at {}{by}{}", c.side, c.hex, if c.moved { " (moved this turn)" } else { "" }));
    }
    for side in &s.sealed_cams {
        out.push(format!("the {side} CAM choice of this turn is committed, not yet open (JDG 2.1.2)"));
    }
    for side in &s.fallen {
        out.push(format!("the {side} commander-in-chief is eliminated: no {side} group receives orders (JDG 2.5.2)"));
    }

    for (h, v) in &s.scenario.vp {
        let who = s.holder.get(h).map(String::as_str).unwrap_or("nobody");
        out.push(format!("VP hex {h} ({v} VP) held by {who}"));
    }
    out.join("\n")
}

/// A commented YAML skeleton of what `seat` may send now, with the position.
pub fn template(s: &State, seat: &str) -> String {
    let e = <super::JoursDeGloire as crate::engine::Ruleset>::expect(s);
    let Some(w) = e.awaits.iter().find(|a| a.seat == seat) else { return format!("# {}: nothing is expected of {seat} now\n", e.when) };
    let Some(side) = s.side_of(seat).map(str::to_string) else { return format!("# {}\n", e.when) };
    let mut t = format!(
        "# {}\n# {}\n# your units: id, hex, facing vertex (0 NE|E … 5 NW|NE), type, SP-cohesion-engagement-MP, orders\n",
        e.when, w.what
    );
    for u in s.units.iter().filter(|u| u.side == side) {
        let Some(h) = u.hex else { continue };
        let f = s.face(u);
        let st = match s.group_of(&u.id) {
            Some(g) => match (g.status, g.committed) {
                (Some(x), _) => format!("{} {}", g.id, x.code()),
                (None, true) => format!("{} secret", g.id),
                (None, false) => format!("{} no orders yet", g.id),
            },
            None => String::new(),
        };
        t.push_str(&format!("#   {:<8} {h}  v{}  {:?}  {}-{}-{}-{}  {st}\n", u.id, u.facing, u.kind, f.sp, f.cohesion, f.engagement, f.mp));
    }
    t.push_str("# enemy units: id, hex, facing vertex, type\n");
    for u in s.units.iter().filter(|u| u.side != side) {
        if let Some(h) = u.hex {
            t.push_str(&format!("#   {:<8} {h}  v{}  {:?}\n", u.id, u.facing, u.kind));
        }
    }
    for u in s.units.iter().filter(|u| u.side == side && u.hex.is_none()) {
        if let (Some(r), Some(a)) = (s.scenario.schedule_of(&u.id), u.arrives) {
            t.push_str(&format!("# reinforcement {} ({:?}) enters by {} from turn {a} (JDG 5.2)\n", u.id, u.kind, r.entry));
        }
    }
    match &s.phase {
        Phase::Orders { .. } => {
            let potential = s.command(&side).map(|d| d.order_potential).unwrap_or(0);
            t.push_str(&format!("# JDG 2.3.2: at most {potential} groups OR; an OR group needs a unit within command distance.\n"));
            t.push_str("# Your tool commits these secretly; the log shows only that each group has orders.\nassign:\n");
            for g in groups_of(s, &side) {
                let reach = if g.in_reach { "in reach" } else { "OUT of command distance: SO only" };
                t.push_str(&format!("  {}: SO   # {} ({reach})\n", g.id, g.units.join(", ")));
            }
            let free = super::cam::choosable(s, &side);
            if !free.is_empty() {
                let how = if super::cam::commits(s, &side) { "your tool commits the list secretly" } else { "stated openly" };
                t.push_str(&format!("# JDG 2.1.2: CAMs you may put into the cup this turn ({how}): {}\ncams: []\n", free.join(", ")));
            }
        }
        Phase::Pick { .. } => {
            let mine: Vec<String> = s.cup.iter().filter(|a| super::initiative::side_of_am(s, a) == side).map(|a| a.to_string()).collect();
            t.push_str(&format!("# JDG 3: pick the marker that acts first ({}), or `first: decline` with no actions.\n", mine.join(", ")));
            t.push_str(&format!(
                "# your tool opens the picked formation's orders; then act with it as in any activation.\nfirst: {}\nactions:\n  - end_activation\n",
                mine.first().cloned().unwrap_or_else(|| super::initiative::DECLINE.into())
            ));
        }
        Phase::Activation { am, .. } => {
            let open = command::due_openings(s, &side);
            if !open.is_empty() {
                t.push_str(&format!("# your tool opens {} with this entry (JDG 2.4)\n", open.join(", ")));
            }
            t.push_str(&format!("# {} acts; movement JDG 4, facing 6.1, ZOC 6.2.2, stacking 5.1.\nactions:\n", s.am_label(am)));
            for u in s.units.iter().filter(|u| s.activates(am, &u.formation) && u.hex.is_some()) {
                t.push_str(&format!(
                    "  # - move: {{unit: {}, path: [\"HEX\", ...], facing: {}}}   # forced: true for a forced march (4.1.3)\n",
                    u.id, u.facing
                ));
            }
            if let Some(r) = s.scenario.schedule(&am.formation) {
                let ready: Vec<&str> = s
                    .units
                    .iter()
                    .filter(|u| u.formation == am.formation && u.arrives.is_some_and(|t| t <= s.turn))
                    .map(|u| u.id.as_str())
                    .collect();
                if !ready.is_empty() {
                    t.push_str(&format!(
                        "  # - enter: {{units: [{}], path: [\"{}\", ...], facing: V}}   # one stack; normal: true for normal march (5.2.1)\n",
                        ready.join(", "),
                        r.entry
                    ));
                }
            }
            t.push_str("  # - face: {unit: ID, facing: V}   # turn in place (one vertex at most in an enemy ZOC)\n");
            t.push_str("  # - chief: {path: [\"HEX\", ...]}   # once per turn, 7 MP (2.5.1)\n");
            t.push_str("  # - initiative: {groups: [GROUP, ...]}   # SO groups test their leader first, alone in the entry (2.4.3)\n");
            t.push_str("  - end_activation\n");
        }
        _ => {}
    }
    t
}

/// Internal consistency: stacking and facing in every hex, both sides never in one hex,
/// the cup and the turn in range.
pub fn check_invariants(s: &State) -> Result<(), String> {
    for u in &s.units {
        let Some(h) = u.hex else { continue };
        if !s.scenario.terrain_of.contains_key(&h) {
            return Err(format!("{} stands off the map at {h}", u.id));
        }
        if u.facing > 5 {
            return Err(format!("{} faces vertex {}", u.id, u.facing));
        }
        if s.units_at(h).any(|o| o.side != u.side) {
            return Err(format!("{h} holds units of both sides"));
        }
        if let Some(p) = stack_problem(s, h).or_else(|| facing_problem(s, h)) {
            return Err(format!("{h}: {p}"));
        }
        if super::reinforce::closed(s, &u.side, h) {
            return Err(format!("{} stands in {h}, closed by the enemy's reinforcements (JDG 5.2.3)", u.id));
        }
        if u.arrives.is_some() {
            return Err(format!("{} is on the map and still waiting to enter", u.id));
        }
        if u.marker && s.units.iter().any(|e| e.side != u.side && e.hex.is_some_and(|eh| eh.distance(h) <= 5)) {
            return Err(format!("{} keeps its Reinforcement marker within 5 hexes of an enemy (JDG 5.2.1)", u.id));
        }
    }
    for c in &s.chiefs {
        // 2.5.2: a commander never stays among enemy units, nor alone next to one that
        // came to him (he evades or is eliminated at once).
        if s.units_at(c.hex).any(|u| u.side != c.side) {
            return Err(format!("the {} commander-in-chief stands in {} with enemy units", c.side, c.hex));
        }
        if s.fallen.contains(&c.side) {
            return Err(format!("the {} commander-in-chief is both on the map and eliminated", c.side));
        }
        // 2.5.2: a general who took command is one of his side's further generals.
        if let Some(g) = &c.general
            && s.scenario.side(&c.side).is_none_or(|d| !d.generals.iter().any(|x| &x.id == g))
        {
            return Err(format!("the {} army is commanded by {g}, who is not one of its generals", c.side));
        }
    }
    // 2.1.2: every CAM in the cup is one of the battle's.
    if let Some(a) = s.cup.iter().find(|a| a.is_cam() && s.cam_of(a).is_none()) {
        return Err(format!("{a} is in the cup but is no CAM of the battle"));
    }
    if s.turn == 0 || s.turn > s.scenario.turns {
        return Err(format!("turn {} is off the track", s.turn));
    }
    if matches!(s.phase, Phase::Draw { .. }) && s.cup.len() < 2 {
        return Err("a draw is due with fewer than two markers in the cup".into());
    }
    Ok(())
}

fn terrain_fill(t: Terrain) -> Rgb {
    match t {
        Terrain::Clear | Terrain::Road => Rgb(236, 228, 200),
        Terrain::Town | Terrain::Village | Terrain::Castle => Rgb(210, 190, 170),
        Terrain::Woods => Rgb(150, 190, 120),
        Terrain::Orchard | Terrain::Oasis => Rgb(190, 215, 150),
        Terrain::Rough => Rgb(200, 180, 140),
    }
}

/// Higher ground drawn darker, one step a level (JDG 7.4), so the hills read on the map.
fn shade(c: Rgb, level: u8) -> Rgb {
    let d = level.saturating_mul(22);
    Rgb(c.0.saturating_sub(d), c.1.saturating_sub(d), c.2.saturating_sub(d))
}

fn side_colour(s: &State, side: &str) -> (Rgb, Rgb) {
    if s.scenario.sides[0].id == side { (Rgb(40, 70, 160), Rgb::WHITE) } else { (Rgb(235, 235, 225), Rgb::BLACK) }
}

/// The picture: terrain, hexside features, VP hexes, counters with their facing.
pub fn picture(s: &State) -> Picture {
    let axial = crate::render::Axial::of_hex;
    let mut cells = Vec::new();
    for (&h, &t) in &s.scenario.terrain_of {
        cells.push(Cell {
            id: h.to_string(),
            axial: axial(h),
            fill: shade(terrain_fill(t), s.scenario.level(h)),
            place: s.scenario.places.get(&h).map(|n| PlaceMark { name: n.clone(), kind: PlaceKind::Town }),
            vp: s.scenario.vp.get(&h).map(|v| (v.to_string(), s.holder.get(&h).map(|x| side_colour(s, x).0).unwrap_or(Rgb::BLACK))),
            outline: None,
            marks: vec![],
        });
    }
    let sides = s
        .scenario
        .sides_of
        .iter()
        .map(|(&(a, b), f)| Side {
            a: axial(a),
            b: axial(b),
            style: match f {
                Feature::River | Feature::Ford | Feature::Bridge => SideStyle::MinorRiver,
                Feature::Slope | Feature::Crest => SideStyle::Border,
                _ => SideStyle::Impassable,
            },
        })
        .collect();
    let counters = s
        .units
        .iter()
        .filter_map(|u| {
            let h = u.hex?;
            let (colour, ink) = side_colour(s, &u.side);
            let f = s.face(u);
            // A routed unit has no facing (JDG 10.2): its Rout marker replaces the arrow.
            let mut badges = if u.routed {
                vec![Badge { text: "ROUT".into(), colour: Rgb(200, 0, 0) }]
            } else {
                vec![Badge { text: ARROWS[usize::from(u.facing % 6)].into(), colour: Rgb(90, 90, 90) }]
            };
            if let Some(st) = s.group_of(&u.id).and_then(|g| g.status) {
                badges.push(Badge {
                    text: st.code().into(),
                    colour: if st == super::state::Status::OR { Rgb(0, 120, 0) } else { Rgb(200, 100, 0) },
                });
            }
            if u.disordered && !u.routed {
                badges.push(Badge { text: "D".into(), colour: Rgb(160, 0, 0) });
            }
            if u.marker {
                badges.push(Badge { text: "R".into(), colour: Rgb(0, 90, 160) });
            }
            Some(Counter {
                at: axial(h),
                colour,
                ink,
                symbol: match u.kind {
                    Kind::Infantry => Symbol::Infantry,
                    Kind::Cavalry => Symbol::Cavalry,
                    Kind::Artillery => Symbol::Artillery,
                },
                size: String::new(),
                top_text: u.id.clone(),
                bottom_text: format!("{}-{}-{}-{}", f.sp, f.cohesion, f.engagement, f.mp),
                steps: None,
                badges,
                title: format!(
                    "{} {} ({}), facing vertex {}",
                    u.id,
                    s.data(&u.id).map(|d| d.name.as_str()).unwrap_or(""),
                    u.formation,
                    u.facing
                ),
            })
        })
        .collect();
    let mut notes = vec![
        "representative battle data (scenarios/jours-de-gloire); the arrow on a counter points at the vertex it faces".into(),
        format!("cup: {}", s.cup.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")),
    ];
    notes.push("D: disordered (striped face); ROUT: routed (no facing); R: Reinforcement marker (JDG 5.2.1)".into());
    let gone: Vec<&str> = s.units.iter().filter(|u| u.hex.is_none() && u.arrives.is_none()).map(|u| u.id.as_str()).collect();
    if !gone.is_empty() {
        notes.push(format!("eliminated: {}", gone.join(", ")));
    }
    let due: Vec<&str> = s.units.iter().filter(|u| u.arrives.is_some()).map(|u| u.id.as_str()).collect();
    if !due.is_empty() {
        notes.push(format!("reinforcements still off the map: {}", due.join(", ")));
    }
    if !s.demoralised.is_empty() {
        notes.push(format!("demoralised: {}", s.demoralised.join(", ")));
    }
    if let Some(o) = &s.outcome {
        notes.push(crate::engine::game::describe_outcome(o));
    }
    let a = &s.scenario.sides[0];
    let b = &s.scenario.sides[1];
    Picture {
        title: format!("Jours de Gloire — {}: {}", s.scenario.name, s.phase_text()),
        notes,
        legend: vec![
            LegendItem { colour: side_colour(s, &a.id).0, text: a.name.clone() },
            LegendItem { colour: side_colour(s, &b.id).0, text: b.name.clone() },
        ],
        kind: PicKind::HexMap(HexMap { cells, sides, counters, arrows: vec![] }),
    }
}
