//! Text, the picture (a top-down table: terrain, models to scale with their facing and
//! arcs of fire), the order template and the invariants.

use super::data;
use super::state::{Phase, State};
use crate::geo::table::{Heading, Point};
use crate::render::{Kind, LegendItem, Picture, Piece, Rgb, Table, TableArea, TableLine};

pub fn describe(s: &State) -> String {
    let mut out = vec![s.phase_text()];
    out.push(format!("tokens {}", s.tokens.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")));
    if !s.comm_tests.is_empty() {
        out.push(format!("communication tests made this turn (SW-IFP-1): {}", s.comm_tests.join(", ")));
    }
    out.extend(super::indirect::describe(s));
    out.extend(super::assault::describe(s));
    out.extend(super::opportunity::describe(s));
    for u in &s.units {
        let mut flags = Vec::new();
        for (on, f) in [
            (u.moving, "moving"),
            (u.moving && u.reversing, "reversing"),
            (u.fired, "fired"),
            (u.acted, "acted"),
            (u.panic, "PANIC"),
            (u.no_fire, "NoFire"),
            (u.destroyed, "destroyed"),
            (u.eliminated, "eliminated"),
            (u.burning, "burning"),
            (u.gun_jammed, "gun jammed"),
        ] {
            if on {
                flags.push(f.to_string());
            }
        }
        if u.mobility > 0 {
            flags.push(format!("mobility -{}", u.mobility));
        }
        if let Some(i) = &u.inside {
            flags.push(format!("in {} floor {}", i.building, i.floor));
        }
        let riders = s.passengers(&u.id);
        if !riders.is_empty() {
            flags.push(format!("carries {}", riders.iter().map(|p| format!("{} ({})", p.id, p.figures)).collect::<Vec<_>>().join(", ")));
        }
        if let Some(v) = &u.aboard {
            // EMB-3: no place of its own while carried.
            out.push(format!("{} {} {} aboard {v} figures {} {}", u.id, u.side, u.card, u.figures, flags.join(" ")));
            continue;
        }
        out.push(format!(
            "{} {} {} at ({}, {}) heading {} figures {} {}",
            u.id,
            u.side,
            u.card,
            u.at.x,
            u.at.y,
            u.heading.tenths(),
            u.figures,
            flags.join(" ")
        ));
    }
    out.join("\n")
}

fn side_colour(s: &State, side: &str) -> Rgb {
    if s.scenario.sides.first().is_some_and(|x| x.id == side) { Rgb(70, 110, 190) } else { Rgb(120, 120, 120) }
}

fn terrain_colour(kind: &str) -> Rgb {
    match kind {
        "wood" => Rgb(60, 130, 60),
        "road" => Rgb(200, 180, 140),
        "plateau" | "slope" => Rgb(190, 170, 110),
        "rough" => Rgb(150, 160, 90),
        k if k.contains("house") || k.contains("building") || k == "ruins" => Rgb(160, 90, 70),
        _ => Rgb(180, 200, 160),
    }
}

fn xy(p: Point) -> (i32, i32) {
    (p.x, p.y)
}

pub fn picture(s: &State) -> Picture {
    let mut areas = Vec::new();
    for a in &s.scenario.areas {
        let obj = if s.scenario.objectives.contains(&a.id) { " (objective)" } else { "" };
        areas.push(TableArea {
            label: format!("{} ({}){obj}", a.id, a.kind),
            points: a.polygon.vertices().iter().map(|p| xy(*p)).collect(),
            fill: terrain_colour(&a.kind),
        });
    }
    let mut lines = Vec::new();
    for l in &s.scenario.linears {
        lines.push(TableLine {
            points: l.feature.line.points().iter().map(|p| xy(*p)).collect(),
            colour: if l.kind == "hedge" { Rgb(30, 90, 30) } else { Rgb(90, 90, 90) },
            width_mm: l.feature.thickness_mm as i32,
            dashed: false,
        });
    }
    let d = data::data();
    let mut pieces = Vec::new();
    for u in s.units.iter().filter(|u| u.on_table()) {
        let c = u.card();
        let fp = u.footprint();
        let (len, wid) = match fp {
            crate::geo::table::Footprint::Rect { length_mm, width_mm, .. } => (length_mm as i32, width_mm as i32),
            crate::geo::table::Footprint::Circle { radius_mm, .. } => (2 * radius_mm as i32, 2 * radius_mm as i32),
        };
        let colour = if u.destroyed {
            Rgb(40, 40, 40)
        } else if u.panic {
            Rgb(220, 160, 60)
        } else {
            side_colour(s, &u.side)
        };
        // EMB-3: a passenger is not drawn; its vehicle's label says it carries it.
        let riders = s.passengers(&u.id);
        let label = if riders.is_empty() {
            u.id.clone()
        } else {
            format!("{} [{}]", u.id, riders.iter().map(|p| p.id.as_str()).collect::<Vec<_>>().join(", "))
        };
        pieces.push(Piece {
            label,
            x_mm: u.at.x,
            y_mm: u.at.y,
            w_mm: wid,
            h_mm: len,
            // The writer's facing is clockwise from north on the page; ours is
            // counter-clockwise from +x with y up the page.
            facing_decideg: (900 - i32::from(u.heading.tenths())).rem_euclid(3600),
            colour,
        });
        if u.alive() {
            // The facing mark: from the centre to the front edge and beyond.
            let tip = u.at.offset(len / 2 + 20, u.heading);
            lines.push(TableLine { points: vec![xy(u.at), xy(tip)], colour: Rgb::BLACK, width_mm: 2, dashed: false });
            // Fixed arcs of fire (AIM-V, AIM-A): hull ±22°, SPG ±15°, carriage ±22°.
            for l in &c.armament {
                let half: Option<i32> = match l.site.as_deref() {
                    Some("spg_fixed") => Some(150),
                    Some("carriage") => Some(220),
                    _ => None,
                };
                let Some(half) = half else { continue };
                if !d.weapons.contains_key(&l.w) {
                    continue;
                }
                let a = u.at.offset(300, Heading::new(i32::from(u.heading.tenths()) + half));
                let b = u.at.offset(300, Heading::new(i32::from(u.heading.tenths()) - half));
                lines.push(TableLine { points: vec![xy(a), xy(u.at), xy(b)], colour: side_colour(s, &u.side), width_mm: 1, dashed: true });
            }
        }
    }
    let mut legend = vec![
        LegendItem { colour: Rgb(60, 130, 60), text: "wood".into() },
        LegendItem { colour: Rgb(160, 90, 70), text: "building".into() },
        LegendItem { colour: Rgb(190, 170, 110), text: "hill".into() },
        LegendItem { colour: Rgb(200, 180, 140), text: "road".into() },
        LegendItem { colour: Rgb(40, 40, 40), text: "wreck".into() },
        LegendItem { colour: Rgb(220, 160, 60), text: "panicked".into() },
    ];
    for side in &s.scenario.sides {
        legend.push(LegendItem { colour: side_colour(s, &side.id), text: side.name.clone() });
    }
    Picture {
        title: format!("Steel Wheels — {}: {}", s.scenario.name, s.phase_text()),
        notes: vec![
            format!("tokens: {}", s.tokens.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")),
            "models to scale (1/72, 1 px = 1 mm); black tick = facing; dashed = fixed arcs of fire".into(),
        ],
        legend,
        kind: Kind::Table(Table { width_mm: s.scenario.width_mm, height_mm: s.scenario.height_mm, areas, lines, pieces }),
    }
}

pub fn template(s: &State, seat: &str) -> String {
    let side = s.side_of(seat).unwrap_or("");
    let mut out = vec![format!("# Steel Wheels, {}", s.phase_text())];
    if let Some(w) = &s.window {
        out.extend(super::opportunity::describe(s).into_iter().map(|l| format!("# {l}")));
        out.push(format!("# fire on {} as it passes a point of its path, or send `opportunity: []` to pass", w.mover));
        out.push("opportunity:".into());
        for sh in &w.shooters {
            out.push(format!("  - {{shooter: {}, at_mm: {}}}", sh.unit, sh.firing_points().last().copied().unwrap_or(0)));
        }
        return out.join("\n") + "\n";
    }
    match &s.phase {
        Phase::Declare { .. } | Phase::Oppose { .. } => {
            out.push(format!("# your platoons still to manoeuvre: {}", s.open_platoons(side).join(", ")));
            out.push("platoon: <id>        # or: token: true (SW-TOK-3)".into());
        }
        Phase::Act { queue, .. } => {
            out.push("actions:".into());
            out.push(format!("  - unit: {}", queue.first().cloned().unwrap_or_default()));
            out.push("    move: {path: [[x, y]], heading: 0}   # mm and tenths of a degree; optional".into());
            out.push("    # move: {path: [[x, y]], reverse: true}   # a vehicle backs, at most Cautious (the road still counts at its fraction) (SW-MOV-1)".into());
            out.push("    fire: {target: <enemy id>}          # optional; both = a complex action (Short move, Moving shots)".into());
            out.push("    # fire_first: true   # fire, then move; recover: true for a panicked unit".into());
            out.push("    # assault: {target: <enemy squad or gun>}   # alone: fire, CT, contact, close combat (SW-ASL)".into());
            out.push("    # melee: true        # the only action of a squad assaulted and still in contact (SW-ASL-4)".into());
            out.push(
                "    # embark: <transport id>   # a squad boards (optional move, no fire; within 8 cm of its sides or rear, SW-EMB-2)"
                    .into(),
            );
            out.push("    # dismount: {at: [x, y]}   # a passenger gets off, within 8 cm of its vehicle's sides or rear (SW-EMB-4)".into());
            out.push("    # unload: [{unit: <passenger>, at: [x, y]}]   # a transport sets passengers down (16 cm standing still, half of them; 8 cm with a Short move)".into());
        }
        Phase::Request { .. } => {
            let b: Vec<&str> = super::indirect::can_request(s, side).iter().map(|b| b.id.as_str()).collect();
            out.push(format!("# phase 2: request indirect fire from {} (SW-IFP), or send empty orders for none", b.join(", ")));
            out.push("indirect:".into());
            out.push(format!("  battery: {}", b.first().copied().unwrap_or("<id>")));
            out.push("  target: [x, y]          # the real target, mm; your tool commits to it and never sends it".into());
            out.push("  markers: [[x, y], [x, y], [x, y]]   # three decoys on points your observer sees (SW-IFP-6)".into());
        }
        Phase::Barrage { .. } => {
            out.push("# phase 4: your tool opens your fire plans due (SW-IF-1)".into());
            out.push("barrage: true".into());
        }
        Phase::Over => out.push("# the battle is over".into()),
    }
    out.join("\n") + "\n"
}

pub fn check_invariants(s: &State) -> Result<(), String> {
    let table = s.scenario.table();
    for u in &s.units {
        if u.figures > u.crew_size() || u.leaders > u.figures.max(u.leaders.min(u.figures)) {
            return Err(format!("{}: {} figures of {}", u.id, u.figures, u.crew_size()));
        }
        if u.on_table() && !table.contains_footprint(&u.footprint()) {
            return Err(format!("{} is off the table", u.id));
        }
        if u.mobility > 4 {
            return Err(format!("{}: mobility {}", u.id, u.mobility));
        }
        // MOV-1: only vehicles reverse.
        if u.reversing && !u.is_vehicle() {
            return Err(format!("{} reversed, but only vehicles reverse", u.id));
        }
    }
    for u in s.units.iter().filter(|u| u.aboard.is_some() && !u.eliminated) {
        let v = u.aboard.as_deref().unwrap_or_default();
        match s.unit(v) {
            Some(t) if t.side == u.side && t.is_vehicle() && u.is_infantry() => {}
            _ => return Err(format!("{} rides in {v}, which cannot carry it", u.id)),
        }
        let n = super::transport::carried(s, v);
        if n > s.unit(v).map(|t| t.card().capacity).unwrap_or(0) {
            return Err(format!("{v} carries {n} men, over its capacity"));
        }
    }
    for u in s.units.iter().filter(|u| u.on_table() && u.alive()) {
        // SW-BLDM-2: all in (a squad, wholly inside, on a floor the building has) or all out.
        match &u.inside {
            Some(i) => {
                let ok = u.is_infantry()
                    && s.scenario.building(&i.building).is_some_and(|b| i.floor < b.floors)
                    && s.scenario.area(&i.building).is_some_and(|a| a.polygon.contains_footprint(&u.footprint()));
                if !ok {
                    return Err(format!("{} is not wholly inside floor {} of {}", u.id, i.floor, i.building));
                }
            }
            None if u.is_infantry() => {
                if let Some(a) = s.scenario.building_areas().find(|a| super::buildings::on_area(&a.polygon, &u.footprint())) {
                    return Err(format!("{} stands partly on {} without being inside it", u.id, a.id));
                }
            }
            None => {}
        }
    }
    for (i, a) in s.units.iter().enumerate() {
        for b in s.units.iter().skip(i + 1) {
            let floors_apart = matches!((&a.inside, &b.inside), (Some(x), Some(y)) if x.building == y.building && x.floor != y.floor);
            if a.on_table() && b.on_table() && !floors_apart && a.footprint().overlaps(&b.footprint()) {
                return Err(format!("{} and {} overlap", a.id, b.id));
            }
        }
    }
    for m in &s.melees {
        match (s.unit(&m.attacker), s.unit(&m.defender)) {
            (Some(a), Some(d)) if a.side != d.side && m.engaged <= d.figures => {}
            _ => return Err(format!("a melee of {} against {} that cannot stand", m.attacker, m.defender)),
        }
    }
    if let Some(w) = &s.window
        && (s.pending.is_some() || !s.unit(&w.mover).is_some_and(|u| u.alive()) || w.shooters.is_empty())
    {
        return Err(format!("an opportunity window on {} that cannot stand", w.mover));
    }
    if let Phase::Act { queue, .. } = &s.phase
        && queue.is_empty()
        && s.pending.is_none()
        && s.window.is_none()
    {
        return Err("an empty activation queue".into());
    }
    if s.outcome.is_some() != matches!(s.phase, Phase::Over) {
        return Err("the outcome and the phase disagree".into());
    }
    Ok(())
}
