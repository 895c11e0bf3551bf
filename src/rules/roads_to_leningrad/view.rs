//! What players read and see: the state as text, the orders template, the picture (the
//! shared hex renderer) and the invariants.

use super::movement::{STACK_LIMIT, stack_points};
use super::scenario::{Kind, Terrain, Water};
use super::state::{Phase, State, Supply};
use crate::render::{
    Badge, Cell, Counter, HexMap, Kind as PicKind, LegendItem, Mark, MarkShape, Picture, PlaceKind, PlaceMark, Rgb, Side, SideStyle, Symbol,
};

/// The state, one fact per line.
pub fn describe(s: &State) -> String {
    let mut out = vec![s.phase_text()];
    if let Some(o) = &s.outcome {
        out.push(format!("result: {}", crate::engine::game::describe_outcome(o)));
    }
    out.push(format!("First Player: {}", s.first));
    for (side, cup) in &s.cups {
        let names: Vec<String> = cup.iter().map(|m| m.public_name()).collect();
        out.push(format!("{side} cup ({}): {}", cup.len(), if names.is_empty() { "empty".into() } else { names.join(", ") }));
    }
    for (side, m) in &s.pool {
        out.push(format!("{side} pool: {}", m.public_name()));
    }
    if let Some(m) = &s.drawn {
        out.push(format!("drawn: {}", m.public_name()));
    }
    if !s.played.is_empty() {
        out.push(format!("played this turn: {}", s.played.join(", ")));
    }
    for (side, n) in &s.passes {
        out.push(format!("{side} passes this turn: {n}"));
    }
    for (side, n) in &s.last_passes {
        out.push(format!("{side} passes last turn: {n}"));
    }
    if let Some(a) = &s.active {
        out.push(format!(
            "active: {} ({:?}){}",
            a.names(),
            a.os,
            if a.army.is_empty() { String::new() } else { format!(" with {}", a.army.join(", ")) }
        ));
    }
    if let Some(o) = &s.overrun {
        out.push(format!("overrun of {} from {} by {} (lead {}) waits for its dice", o.target, o.from, o.units.join(", "), o.lead));
    }
    if let Some(c) = &s.combine {
        out.push(if c.open_due {
            format!("combination of {} succeeded: the pooled AM is to be opened", c.am)
        } else {
            let by = c.leader.as_ref().map(|(id, n)| format!(", {id}'s {n} CPs")).unwrap_or_default();
            format!("combination of {} (Combination Value {}{by}) waits for its roll", c.am, c.value)
        });
    }
    if !s.army_attempts.is_empty() {
        out.push(format!("Army activation checks of {} wait for their dice", s.army_attempts.join(", ")));
    }
    if let Some(g) = &s.group {
        out.push(format!(
            "overrun stack at {} may go on: {}{}",
            g.hex,
            g.units.join(", "),
            if g.must_overrun { " (in another enemy ZOC: overrun again or stop)" } else { "" }
        ));
    }
    for a in &s.attacks {
        let mut art = if a.artillery.is_empty() { String::new() } else { format!(", artillery {}", a.artillery.join(", ")) };
        if !a.air.is_empty() {
            art.push_str(&format!(", air {}", a.air.join(", ")));
        }
        out.push(format!(
            "attack on {} by {} (lead {}, {} CRT{art}) waits for its dice",
            a.target,
            a.units.join(", "),
            a.lead,
            a.table.name()
        ));
    }
    for p in &s.cp_spends {
        out.push(format!("{}'s {} command points wait for their check ({:?})", p.hq, p.points, p.check));
    }
    match &s.reaction {
        Some(r) if r.due => {
            out.push(format!("Enemy Reaction Phase: the {} player's entry is due", super::reaction_phase::defender(s).unwrap_or_default()))
        }
        Some(r) => {
            let hs: Vec<String> = r.refuse.iter().map(|h| h.to_string()).collect();
            let us: Vec<String> = r.react.iter().map(|m| m.unit.clone()).collect();
            out.push(format!(
                "Enemy Reaction Phase: Combat Refusal at [{}] and Reaction moves of [{}] wait for their dice",
                hs.join(", "),
                us.join(", ")
            ));
        }
        None => {}
    }
    for u in &s.units {
        let f = s.face(u);
        let at = u.hex.map(|h| h.to_string()).unwrap_or_else(|| "eliminated".into());
        let mut st = Vec::new();
        if u.reduced {
            st.push("reduced".to_string());
        }
        if u.disrupted {
            st.push("Disrupted".into());
        }
        if u.supply != Supply::In {
            st.push(super::supply::word(u.supply).into());
        }
        if let Some(g) = s.data(&u.id).and_then(|d| d.gun) {
            st.push(format!("support {}{} range {}", g.support, if g.offensive_only { "A" } else { "" }, g.range));
        }
        if u.fired {
            st.push("Fired".into());
        }
        // RTL-15.31–15.32: an HQ's CPs, or its "CPs used" face.
        if let Some(n) = s.data(&u.id).and_then(|d| d.command_points) {
            st.push(if u.cp_used {
                "CPs used".to_string()
            } else if u.disrupted {
                "no CP while Disrupted".to_string()
            } else {
                format!("{n} CP")
            });
        }
        if let Some(m) = activation_marker(s, u) {
            st.push(m.into());
        }
        if s.refused.contains(&u.id) {
            st.push("tried Combat Refusal this turn".into());
        }
        out.push(format!(
            "unit {} ({} {}) at {at}: {}-{}-{} ER {}{}",
            u.id,
            u.side,
            u.formation,
            f.attack,
            f.defense,
            f.ma,
            s.er(u),
            if st.is_empty() { String::new() } else { format!(", {}", st.join(", ")) }
        ));
    }
    // RTL-15.2: a leader's CPs and range, or his "CPs used" face.
    for l in &s.leaders {
        let Some(at) = l.hex else { continue };
        let n = super::leaders::points(s, &l.id);
        let cps = if l.cp_used { "CPs used".to_string() } else { format!("{n} CP") };
        out.push(format!("leader {} ({}) at {at}: range {}, {cps}", l.id, l.side, super::leaders::range(s, &l.id)));
    }
    // RTL-16.2: bridge units, on the map with their hexside, or off it.
    for b in &s.bridges {
        out.push(match (b.hex, b.toward) {
            (Some(h), Some(n)) => format!("bridge {} ({}) at {h}, bridging the hexside to {n}", b.id, b.side),
            _ => format!("bridge {} ({}) off the map", b.id, b.side),
        });
    }
    for (side, l) in &s.defensive_fire {
        out.push(format!("{side} defensive artillery (standing): {}", l.join(", ")));
    }
    out.extend(super::air::display(s));
    for p in &s.strongpoints {
        out.push(match &p.builder {
            None => format!("strongpoint at {} ({})", p.hex, p.side),
            Some(b) => format!("strongpoint under construction at {} ({}, built by {b})", p.hex, p.side),
        });
    }
    for (side, l) in &s.no_retreat {
        out.push(format!("{side} No Retreat (standing): {}", l.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ")));
    }
    out.push(format!("German VP from steps and actions: {}", s.vp));
    for l in &s.scenario.raw.victory.locations {
        let who = s.control.get(&l.hex).map(String::as_str).unwrap_or("nobody");
        out.push(format!("location {} {} controlled by {who}", l.hex, l.name));
    }
    out.join("\n")
}

/// An Army unit's activation marker (RTL-7.42–7.43): First Activation after its first
/// activation or try when it has two a turn, Final Activation when it has none left.
pub fn activation_marker(s: &State, u: &super::state::Unit) -> Option<&'static str> {
    if u.formation != "army" || u.activations == 0 {
        return None;
    }
    Some(if u.activations >= super::army::limit(s, &u.id) { "Final Activation" } else { "First Activation" })
}

/// A commented YAML skeleton of what `seat` may send now.
pub fn template(s: &State, seat: &str) -> String {
    let e = <super::RoadsToLeningrad as crate::engine::Ruleset>::expect(s);
    let Some(w) = e.awaits.iter().find(|a| a.seat == seat) else { return format!("# {}: nothing is expected of {seat} now\n", e.when) };
    let Some(side) = s.side_of(seat).map(str::to_string) else { return format!("# {}\n", e.when) };
    let mut t = format!("# {}\n# {}\n", e.when, w.what);
    match &s.phase {
        Phase::Cup { .. } => {
            let avail = super::turn::available(s, &side);
            t.push_str(&format!(
                "# RTL-7.14: cup up to {} of your AMs ({}); your tool commits them face down.\ncup_choice: [{}]\n",
                super::turn::cup_limit(s, &side),
                avail.join(", "),
                avail.iter().take(super::turn::cup_limit(s, &side)).cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        // An overrun waits for its dice: the other side has nothing to decide (RTL-8.67).
        // The defender's Enemy Reaction Phase entry (RTL-9.2, 9.3).
        Phase::Os { .. } if s.reaction.as_ref().is_some_and(|r| r.due) => {
            let hexes: Vec<String> = super::refusal::options(s).iter().map(|h| format!("\"{h}\"")).collect();
            let units = super::reaction::options(s);
            t.push_str(&format!(
                "# RTL-9.2: Combat Refusal possible at: {}\n",
                if hexes.is_empty() { "none".into() } else { hexes.join(", ") }
            ));
            t.push_str(&format!(
                "# RTL-9.3: Reaction Movement possible for: {}\n",
                if units.is_empty() { "none".into() } else { units.join(", ") }
            ));
            t.push_str("refuse: []   # e.g. [\"HEX\"]: an ER check of the lead unit, no DRM; a pass retreats the hex 2 hexes\n");
            t.push_str("react: []    # e.g. [{unit: ID, path: [\"HEX\", ...]}]: an ER check each, then up to half MA\n");
            t.push_str("# no_retreat: [HEX, ...]   # standing: try No Retreat in these strongpoints (RTL-9.4)\n");
            t.push_str("# command_points: [{hq: ID, react: ID}]   # or no_retreat: HEX, defensive_artillery: HEX, defensive_air: HEX: an HQ's or leader's CPs as a DRM (RTL-15.33b)\n");
        }
        Phase::Os { .. } if s.reaction.is_some() => {
            t.push_str("# nothing to order: `umpire ack` rolls the Enemy Reaction Phase and the combats (RTL-9.2-9.4, 10)\n");
        }
        Phase::Os { .. } if s.overrun.is_some() => {
            t.push_str("# nothing to order: `umpire ack` rolls the overrun (RTL-8.67)\n");
        }
        Phase::Os { .. } if !s.army_attempts.is_empty() => {
            t.push_str("# nothing to order: `umpire ack` rolls the Army activation checks (RTL-7.45)\n");
        }
        // After an overrun's roll the same Movement Phase goes on (no draw, no sequence).
        Phase::Os { .. } if s.attacks.is_empty() && s.active.as_ref().is_some_and(|a| a.side == side) => {
            t.push_str("# the Movement Phase goes on (RTL-8.67)\nactions:\n");
            t.push_str("  # - move: {unit: ID, path: [\"HEX\", ...]}\n");
            t.push_str("  # - overrun: {units: [ID, ...], path: [\"HEX\", ...], hex: \"HEX\", lead: ID}\n");
            t.push_str("  # - attack: {hex: \"HEX\", units: [ID, ...], lead: ID, crt: assault, advance: true}\n");
        }
        Phase::Os { .. } => {
            if s.choose_first {
                let cup: Vec<String> = s.cups.get(&side).map(|c| c.iter().map(|m| m.public_name()).collect()).unwrap_or_default();
                t.push_str(&format!(
                    "# RTL-7.15: pick the AM of the first OS among {}\nam: {}\n",
                    cup.join(", "),
                    cup.first().cloned().unwrap_or_default()
                ));
            }
            if let Some(d) = &s.drawn {
                t.push_str(&format!("# drawn: {}\n", d.am.clone().unwrap_or_else(|| d.public_name())));
            }
            if let Some(p) = s.pool.get(&side) {
                t.push_str(&format!(
                    "# pool: {} (play: pooled to play it instead, RTL-7.31)\n",
                    p.am.clone().unwrap_or_else(|| p.public_name())
                ));
            }
            t.push_str("os: mobile   # or assault, or pass (RTL-7.21)\n");
            t.push_str("# army_attempts: [ID, ...]    # Army units outside command range try an ER check; ends the entry (RTL-7.45)\n");
            t.push_str(
                "# command_points: [{hq: ID, ground: HEX}]   # or artillery: HEX, air: HEX, army: ID: an active HQ's (or a leader's, not army) CPs as a DRM (RTL-15.33a, c)\n",
            );
            if s.pool.contains_key(&side) {
                t.push_str(
                    "# play: combine, face_up: drawn, combine_leader: ID   # a leader's CPs on the combination roll (RTL-7.33, 15.33d)\n",
                );
            }
            t.push_str("# build: [ID, ...]            # Assault only: start strongpoints under these units (RTL-14.25)\n");
            // RTL-16.22: the side's bridge units and where they may go now (Assault or Pass).
            let mine: Vec<&super::state::Bridge> = s.bridges.iter().filter(|b| b.side == side).collect();
            if !mine.is_empty() {
                let at: Vec<String> = super::bridges::placements(s, &side).iter().map(|(h, n)| format!("{h}>{n}")).collect();
                for b in &mine {
                    let now = match (b.hex, b.toward) {
                        (Some(h), Some(n)) => format!("at {h}>{n}"),
                        _ => "off the map".into(),
                    };
                    t.push_str(&format!("# bridge {} is {now}\n", b.id));
                }
                t.push_str(&format!(
                    "# bridges: [{{unit: {}, hex: \"HEX\", toward: \"HEX\"}}]   # Assault or Pass only, or off_map: true (RTL-16.22); hex>toward now legal: {}\n",
                    mine[0].id,
                    if at.is_empty() { "none".into() } else { at.join(", ") }
                ));
            }
            t.push_str("# remove_strongpoints: [HEX]  # your unoccupied strongpoints (RTL-14.26c)\n");
            t.push_str("# no_retreat: [HEX, ...]      # standing: try No Retreat in these strongpoints (RTL-9.4)\n");
            t.push_str("# defensive_air: [ID, ...]    # standing: your air for defensive CAS, two a combat (RTL-13.24a)\n");
            t.push_str("# attacks may commit air: attack: {..., air: [ID, ID], air_lead: ID}; an overrun: air: ID (RTL-10.41, 8.66)\n");
            t.push_str("actions:\n");
            t.push_str("  # - move: {unit: ID, path: [\"HEX\", ...]}\n");
            t.push_str("  # - overrun: {units: [ID, ...], path: [\"HEX\", ...], hex: \"HEX\", lead: ID}   # Mobile only, the last action (RTL-8.6)\n");
            t.push_str("  # - attack: {hex: \"HEX\", units: [ID, ...], lead: ID, crt: assault, advance: true}\n");
        }
        _ => {}
    }
    t
}

/// Internal consistency.
pub fn check_invariants(s: &State) -> Result<(), String> {
    for u in &s.units {
        let Some(h) = u.hex else { continue };
        if !s.scenario.terrain.contains_key(&h) {
            return Err(format!("{} stands off the map at {h}", u.id));
        }
        // Only HQs have a "CPs used" face (RTL-3.62, 15.32).
        if u.cp_used && !super::command::is_hq(s, &u.id) {
            return Err(format!("{} shows CPs used but is not an HQ", u.id));
        }
        // Only artillery has a Fired face (RTL-3.62).
        if u.fired && !s.data(&u.id).is_some_and(|d| d.artillery()) {
            return Err(format!("{} is Fired but is not artillery", u.id));
        }
        if s.units_at(h).any(|o| o.side != u.side) {
            return Err(format!("{h} holds units of both sides"));
        }
        if stack_points(s, h, &u.side) > STACK_LIMIT && s.attacks.is_empty() && s.active.is_none() {
            return Err(format!("{h} holds more than {STACK_LIMIT} stacking points"));
        }
    }
    // RTL-15.22: a leader never shares a hex with the enemy (he is displaced at once).
    for l in &s.leaders {
        let Some(h) = l.hex else { continue };
        if !s.scenario.terrain.contains_key(&h) {
            return Err(format!("leader {} stands off the map at {h}", l.id));
        }
        if s.units_at(h).any(|u| u.side != l.side) {
            return Err(format!("leader {} shares {h} with enemy units", l.id));
        }
    }
    // RTL-16.21, 16.26: a bridge spans a stream or river hexside of its hex, and never
    // shares a hex with enemy units (it is removed at once).
    for b in &s.bridges {
        match (b.hex, b.toward) {
            (None, None) => {}
            (Some(h), Some(n)) => {
                if !matches!(s.scenario.water(h, n), Some((Water::Stream | Water::River, _))) {
                    return Err(format!("bridge {} at {h} spans no stream or river toward {n}", b.id));
                }
                if s.units_at(h).any(|u| u.side != b.side) {
                    return Err(format!("bridge {} shares {h} with enemy units", b.id));
                }
            }
            _ => return Err(format!("bridge {} has a hex without a hexside", b.id)),
        }
    }
    if s.turn == 0 || usize::from(s.turn) > s.scenario.raw.turns.len() {
        return Err(format!("turn {} is off the track", s.turn));
    }
    if s.reaction.is_some() && s.attacks.is_empty() {
        return Err("an Enemy Reaction Phase is open with no declared attack".into());
    }
    if s.pool.len() > 2 {
        return Err("more pools than sides".into());
    }
    // Strongpoints (RTL-14.22, 14.24, 2.24): one a hex, never in swamp, a builder standing in
    // its own hex, no side above its markers.
    for (i, p) in s.strongpoints.iter().enumerate() {
        if s.strongpoints[..i].iter().any(|q| q.hex == p.hex) {
            return Err(format!("two strongpoints in {}", p.hex));
        }
        if s.scenario.terrain.get(&p.hex).is_none_or(|t| *t == Terrain::Swamp) {
            return Err(format!("a strongpoint stands in swamp or off the map at {}", p.hex));
        }
        if let Some(b) = &p.builder
            && !s.unit(b).is_some_and(|u| u.hex == Some(p.hex) && u.side == p.side)
        {
            return Err(format!("the strongpoint under construction at {} has lost its builder {b}", p.hex));
        }
    }
    for (side, &n) in &s.scenario.raw.strongpoints.markers {
        if s.strongpoints.iter().filter(|p| &p.side == side).count() as u32 > n {
            return Err(format!("the {side} side has more than its {n} strongpoint markers on the map"));
        }
    }
    Ok(())
}

fn fill(s: &State, h: crate::geo::hex::HexId) -> Rgb {
    if s.scenario.city(h) || s.scenario.town(h) {
        return Rgb(205, 185, 165);
    }
    if s.scenario.woods.contains(&h) {
        return Rgb(150, 190, 120);
    }
    if s.scenario.route_hexes.contains_key(&h) {
        return Rgb(230, 215, 180);
    }
    match s.scenario.terrain.get(&h) {
        Some(Terrain::Rough) => Rgb(200, 180, 140),
        Some(Terrain::Hills) => Rgb(190, 160, 110),
        Some(Terrain::Marsh) => Rgb(180, 205, 200),
        Some(Terrain::Swamp) => Rgb(140, 180, 170),
        _ => Rgb(238, 232, 205),
    }
}

fn colour(side: &str) -> (Rgb, Rgb) {
    if side == "german" { (Rgb(120, 130, 140), Rgb::WHITE) } else { (Rgb(160, 90, 50), Rgb::WHITE) }
}

/// The picture: terrain, water hexsides, towns, VP locations, counters.
pub fn picture(s: &State) -> Picture {
    let axial = crate::render::Axial::of_hex;
    let mut cells = Vec::new();
    for &h in s.scenario.terrain.keys() {
        let place = s
            .scenario
            .raw
            .map
            .cities
            .get(&h)
            .map(|n| PlaceMark { name: n.clone(), kind: PlaceKind::City })
            .or_else(|| s.scenario.raw.map.towns.get(&h).map(|n| PlaceMark { name: n.clone(), kind: PlaceKind::Town }));
        let vp = s.scenario.raw.victory.locations.iter().find(|l| l.hex == h).map(|l| {
            let v = l.vp.values().max().copied().unwrap_or(0);
            (v.to_string(), s.control.get(&h).map(|x| colour(x).0).unwrap_or(Rgb::BLACK))
        });
        // The strongpoint marker (RTL-14), a lettered flag in its builder's colour (this map
        // has no control flags): "SP" completed, "sp" under construction.
        let marks = s
            .strongpoint(h)
            .map(|p| Mark {
                shape: MarkShape::Control,
                colour: colour(&p.side).0,
                text: if p.builder.is_some() { "sp".into() } else { "SP".into() },
                title: match &p.builder {
                    None => format!("{} strongpoint", p.side),
                    Some(b) => format!("{} strongpoint under construction by {b}", p.side),
                },
            })
            .into_iter()
            .collect();
        cells.push(Cell { id: h.to_string(), axial: axial(h), fill: fill(s, h), place, vp, outline: None, marks });
    }
    let sides = s
        .scenario
        .water
        .iter()
        .map(|(&(a, b), &(w, _))| Side {
            a: axial(a),
            b: axial(b),
            style: match w {
                Water::Stream => SideStyle::MinorRiver,
                Water::River => SideStyle::MajorRiver,
                Water::Lake => SideStyle::Impassable,
            },
        })
        .collect();
    let counters = s
        .units
        .iter()
        .filter_map(|u| {
            let h = u.hex?;
            let d = s.data(&u.id)?;
            let (c, ink) = colour(&u.side);
            let f = s.face(u);
            let mut badges = Vec::new();
            if u.disrupted {
                badges.push(Badge { text: "D".into(), colour: Rgb(180, 0, 0) });
            }
            if let Some(m) = activation_marker(s, u) {
                badges.push(Badge { text: if m.starts_with("Final") { "FA".into() } else { "1A".into() }, colour: Rgb(60, 60, 160) });
            }
            match u.supply {
                Supply::Emergency => badges.push(Badge { text: "E".into(), colour: Rgb(200, 120, 0) }),
                Supply::Out => badges.push(Badge { text: "OoS".into(), colour: Rgb(120, 0, 120) }),
                Supply::In => {}
            }
            Some(Counter {
                at: axial(h),
                colour: c,
                ink,
                symbol: match d.kind {
                    Kind::Infantry | Kind::MotorizedInfantry | Kind::Engineer | Kind::Motorcycle => Symbol::Infantry,
                    Kind::Cavalry | Kind::Recon | Kind::ArmoredCar | Kind::Armor => Symbol::Cavalry,
                    Kind::Artillery | Kind::AntiTank => Symbol::Artillery,
                    Kind::Headquarters => Symbol::Other,
                },
                size: String::new(),
                top_text: u.id.clone(),
                bottom_text: format!("{}-{}-{}", f.attack, f.defense, f.ma),
                steps: None,
                badges,
                title: format!(
                    "{} ({} {}, {:?}{}), ER {}",
                    u.id,
                    u.side,
                    u.formation,
                    d.kind,
                    if u.reduced { ", reduced" } else { "" },
                    s.er(u)
                ),
            })
        })
        .collect();
    let mut notes = vec![
        "REPRESENTATIVE map and setup (scenarios/roads-to-leningrad/soltsy.yaml): the published map and setup cards are not in our source"
            .into(),
        format!("{}; German VP from steps {}", s.phase_text(), s.vp),
    ];
    let gone: Vec<&str> = s.units.iter().filter(|u| u.hex.is_none()).map(|u| u.id.as_str()).collect();
    if !gone.is_empty() {
        notes.push(format!("eliminated: {}", gone.join(", ")));
    }
    if let Some(o) = &s.outcome {
        notes.push(crate::engine::game::describe_outcome(o));
    }
    Picture {
        title: format!("Roads to Leningrad — {}: {}", s.scenario.raw.name, s.phase_text()),
        notes,
        legend: s.scenario.raw.sides.iter().map(|d| LegendItem { colour: colour(&d.id).0, text: d.name.clone() }).collect(),
        kind: PicKind::HexMap(HexMap { cells, sides, counters, arrows: vec![] }),
    }
}
