//! Fragments of a bursting HE shell (SW-SPL-1/2, digest D.7), for the shells of indirect
//! fire (`indirect.rs`), and of an exploding vehicle or gun (SPL-1, WRECK-2).
//!
//! - **Radius** (SPL-1): the shell's `frag` (cm, E.32) around the point where it lands; a
//!   unit is reached when any part of its base or model lies within it (D.1 distance test,
//!   inclusive). A shell that bursts inside an armoured vehicle (through its plate, or into
//!   an open top) throws none.
//! - **Each model or figure reached** (SPL-2): a D10 on TIRO without AD in the stationary
//!   column, in its unit type's column. A squad is one base whose figures are counted, not
//!   placed, so every figure of a squad reached rolls (less the one a shell on its base
//!   already killed, IMP-2); a figure dies only if its cover (the area its base is wholly on,
//!   EFF-4) is below the letter. A model hit on armour rolls the D10 against that plate as
//!   below 75° (AMB-8: a D10); through it, or on an unarmoured model, the E.28 column follows.
//!   A model hit directly by the shell takes no fragments as well.
//! - **When**: an indirect shell's losses are held and applied with every other loss of
//!   phase 4 (IF-1); a direct shot's burst outside a wall (BLDF-2) has its losses applied at once.
//!
//! - **An explosion** (SPL-1, WRECK-2): a vehicle or gun that explodes throws fragments 5 cm
//!   from all its sides, whatever its size: every unit out of doors with any part within that
//!   gap of its outline is reached, and rolls as above with the data's REPRESENTATIVE calibre
//!   (the text gives none), the plate struck being the one facing the wreck's centre. Its
//!   losses apply at once, so an explosion they cause throws its own fragments in turn.
//!
//! Dice (G.1): after a shell's own hit, one fragment roll per unit reached, sorted by unit id,
//! and for a squad one per figure; each followed by its own penetration and effects rolls. An
//! explosion's rolls follow every other roll of the resolution that caused it, explosions in
//! unit-id order, then those they cause.

use super::data;
use super::fire;
use super::indirect::Loss;
use super::state::{State, Unit};
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::table::Point;
use crate::geo::table::impact::{Face, Struck, struck_face};

/// The fragments of shot `n` bursting at `at` with radius `radius_mm`; `direct` is the unit
/// the shell fell on, if any; `sheltered` are the squads inside the building the burst is
/// outside of or on the roof of, which its walls shield (BLDF-2, IMP-4). The losses are held
/// for the caller to apply: `held` says they wait for the end of phase 4 (IF-1, an indirect
/// shell); a direct shot's burst (BLDF-2) has them applied at once, and its events say so.
#[allow(clippy::too_many_arguments)]
pub fn burst(
    s: &mut State,
    at: Point,
    radius_mm: u32,
    cal: u32,
    direct: &[String],
    sheltered: &[String],
    n: usize,
    held: bool,
    dice: &mut Dice,
) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut reached: Vec<Unit> = s
        .units
        .iter()
        .filter(|u| u.on_table() && !u.destroyed && u.figures > 0 && u.footprint().within_point(at, radius_mm))
        .filter(|u| u.is_infantry() || !direct.contains(&u.id))
        .filter(|u| !sheltered.contains(&u.id))
        .cloned()
        .collect();
    reached.sort_by(|a, b| a.id.cmp(&b.id));
    if reached.is_empty() {
        return ev;
    }
    ev.push(Event::rule(
        "SW-SPL-1",
        format!(
            "shot {n} bursts: its fragments reach {} within {} cm",
            reached.iter().map(|u| u.id.as_str()).collect::<Vec<_>>().join(", "),
            radius_mm / 10
        ),
    ));
    let label = format!("shot {n}");
    let when = if held { " (at the end of the phase)" } else { " (at once)" };
    for u in reached {
        ev.extend(on_unit(s, &u, at, cal, direct.contains(&u.id), &label, when, dice));
    }
    ev
}

/// The units that have exploded, before a resolution: [`explosions`] leaves them be.
pub fn exploded(s: &State) -> Vec<String> {
    s.units.iter().filter(|u| u.exploded).map(|u| u.id.clone()).collect()
}

/// SPL-1 and WRECK-2 after a resolution: every vehicle or gun that has exploded since
/// `before` throws its fragments (lowest unit id first), their losses applying at once; an
/// explosion they cause follows.
pub fn explosions(s: &mut State, before: &[String], dice: &mut Dice) -> Vec<Event> {
    let mut done: Vec<String> = before.to_vec();
    let mut ev = Vec::new();
    loop {
        let mut new: Vec<String> =
            s.units.iter().filter(|u| u.exploded && u.on_table() && !done.contains(&u.id)).map(|u| u.id.clone()).collect();
        new.sort();
        let Some(id) = new.into_iter().next() else { break };
        done.push(id.clone());
        ev.extend(explosion(s, &id, dice));
        ev.extend(super::indirect::apply_losses(s));
    }
    ev
}

/// The fragments of `id`'s explosion (SPL-1): 5 cm from its sides, the units inside a
/// building sheltered by its walls; the losses are held for the caller to apply.
fn explosion(s: &mut State, id: &str, dice: &mut Dice) -> Vec<Event> {
    let d = data::data();
    let Some(x) = s.unit(id).cloned() else { return vec![] };
    let fp = x.footprint();
    let mut reached: Vec<Unit> = s
        .units
        .iter()
        .filter(|u| u.id != id && u.on_table() && u.inside.is_none() && !u.destroyed && u.figures > 0)
        .filter(|u| u.footprint().gap_mm(&fp) <= d.explosion_radius_mm)
        .cloned()
        .collect();
    reached.sort_by(|a, b| a.id.cmp(&b.id));
    let names: Vec<&str> = reached.iter().map(|u| u.id.as_str()).collect();
    let mut ev = vec![Event::rule(
        "SW-SPL-1",
        format!(
            "{id} explodes: its fragments reach {} within {} cm of its sides",
            if names.is_empty() { "nobody".to_string() } else { names.join(", ") },
            d.explosion_radius_mm / 10
        ),
    )];
    let label = format!("{id}'s explosion");
    for u in reached {
        ev.extend(on_unit(s, &u, x.at, d.explosion_cal_tenths, false, &label, "", dice));
    }
    ev
}

/// SPL-2 on one unit reached by the fragments `label` names (a shell, an explosion); `held`
/// tells when its losses apply.
#[allow(clippy::too_many_arguments)]
fn on_unit(s: &mut State, u: &Unit, at: Point, cal: u32, hit_directly: bool, label: &str, held: &str, dice: &mut Dice) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let col = |name: &str, row: u32| d.tiro.get(name).and_then(|c| c.get(row as usize)).cloned().unwrap_or_else(|| "miss".into());
    if u.is_infantry() {
        let area_cover = fire::cover_of(s, &u.footprint());
        // WPN-3: a shell's fragments are HE, so its calibre may set the cover aside.
        let cover = fire::he_cover(area_cover, true, cal);
        let told = fire::cover_told(area_cover, cover, cal);
        let figures = u.figures - u32::from(hit_directly).min(u.figures);
        let mut dead = 0;
        for f in 1..=figures {
            let roll = fire::face(dice.roll(10));
            ev.push(Event::roll(format!("{label} fragments on {} figure {f}", u.id), "d10", roll));
            let word = col("infantry", roll);
            let letter = word.chars().next().unwrap_or('S');
            if word != "miss" && (word == "any" || fire::cover_rank(cover) < fire::cover_rank(letter)) {
                dead += 1;
                s.held.push(Loss::Figure { unit: u.id.clone() });
            }
        }
        ev.push(Event::rule("SW-SPL-2", format!("fragments of {label}: {dead} of {figures} figures of {} die, cover {told}{held}", u.id)));
        return ev;
    }
    let roll = fire::face(dice.roll(10));
    ev.push(Event::roll(format!("{label} fragments on {}", u.id), "d10", roll));
    let c = u.card();
    let (tiro, effects) = if !c.armoured {
        if c.kind == "artillery" { ("gun", "gun") } else { ("unarmoured_vehicle", "unarmoured") }
    } else {
        ("armoured_vehicle", "hull")
    };
    let word = col(tiro, roll);
    if word == "miss" {
        ev.push(Event::rule("SW-SPL-2", format!("fragments of {label}: row {roll} ({tiro}), {} is not hit", u.id)));
        return ev;
    }
    let mut effects = effects.to_string();
    if c.armoured {
        let has_turret = c.turret.is_some() || c.casemate.is_some();
        let part = if word == "turret" && has_turret { "turret" } else { "hull" };
        let armour = c.armour.clone().unwrap_or_default();
        let th = if word == "a_scelta" {
            armour.horizontal
        } else {
            let plates = if part == "turret" { armour.turret.or(armour.hull) } else { armour.hull };
            let plates = plates.unwrap_or([0, 0, 0]);
            let face = match struck_face(at, &u.footprint()) {
                Some(Struck::Face(f)) => f,
                // At a corner the thicker of the two plates (the angle is always below 75°).
                Some(Struck::Corner(f, g)) => {
                    if plate(plates, f) >= plate(plates, g) {
                        f
                    } else {
                        g
                    }
                }
                None => Face::Front,
            };
            plate(plates, face)
        };
        let cell = d.pen_cell(false, false, cal, th);
        let p = fire::face(dice.roll(10));
        ev.push(Event::roll(format!("{label} fragments on {}: penetration of {th} mm, < 75°", u.id), "d10", p));
        match cell {
            Some(need) if p >= need => {
                ev.push(Event::rule("SW-SPL-2", format!("{p} against {need}: fragments go through {}'s {part}", u.id)));
            }
            other => {
                let need = other.map(|x| x.to_string()).unwrap_or_else(|| "X".into());
                ev.push(Event::rule("SW-SPL-2", format!("{p} against {need}: the fragments bounce off {}", u.id)));
                return ev;
            }
        }
        effects = part.to_string();
    }
    let r = fire::face(dice.roll(10));
    ev.push(Event::roll(format!("{label} fragments on {}: effects ({effects})", u.id), "d10", r));
    ev.push(Event::rule("SW-SPL-2", format!("fragments of {label} hit {}: E.28 {effects} row {r}{held}", u.id)));
    s.held.push(Loss::Effects { unit: u.id.clone(), col: effects, roll: r });
    ev
}

fn plate(plates: [u32; 3], f: Face) -> u32 {
    match f {
        Face::Front => plates[0],
        Face::Left | Face::Right => plates[1],
        Face::Rear => plates[2],
    }
}
