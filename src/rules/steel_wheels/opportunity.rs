//! Opportunity fire (SW-OPP, digest D.12; the samples of D.1 "Opportunity-fire intervals").
//!
//! - **The window** (OPP-1/2/3): a unit's simple Move (a `move` alone, C.4) is announced with
//!   its whole path. The path is sampled every 10 mm from its start, plus its end; a sample
//!   is seen by an enemy unit if the mover, standing there, could be spotted by it (E.23
//!   distance, sight, OBS-2 fraction; the mover counts as moving). An enemy unit that has
//!   not manoeuvred this turn, whose platoon is not manoeuvring now, that is not panicked
//!   nor held in a melee, and that sees more than half the samples may fire on the move;
//!   the window opens only if at least one such unit has a weapon that can fire at some
//!   firing point. The mover's entry then ends with the mover still at its start (G.1
//!   "Move and opportunity fire"): no roll is made, and its owner chooses nothing more.
//! - **The declaration** (OPP-3/4/6): the other side's next entry names, for each unit that
//!   fires, a firing point `at_mm` along the path: a sample it sees in the second half of
//!   the samples it sees (in path order: at least half of them come before it). Each
//!   shooter fires as a direct Fire action (`fire.rs`) at the mover standing there, which
//!   counts as moving (OPP-4); with its Stationary shots if it saw the whole path, else its
//!   Moving shots (OPP-6, AMB-19). An empty list passes and the move completes at once.
//! - **The shooter** (OPP-5): marked Stationary and Firing, and its manoeuvre of this turn is
//!   spent (it will not act with its platoon).
//! - **Dice** (DESIGN §2.5): the fire is the random action of the declaring entry, resolved
//!   by the mover's side's next entry, shooter by shooter in the path order of the firing
//!   points (ties by shooter id), each in the fire.rs order with its own CTs. The rules then
//!   complete the move, or truncate it where the mover was stopped (destroyed, panicked or
//!   immobilised): shooters whose firing point lies beyond that point hold their fire. No
//!   choice is left to anyone after the dice.

use serde::{Deserialize, Serialize};

use super::fire;
use super::movement::{self, Moved};
use super::orders::OppFire;
use super::scenario::footprint;
use super::state::{State, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::table::{Heading, Path, Point};

/// D.1: the mover's path is sampled every 10 mm from its start.
pub const SAMPLE_MM: u32 = 10;

/// A point of the mover's path (D.1): how far along, where the mover stands, its heading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub at_mm: u32,
    pub at: Point,
    pub heading: Heading,
}

/// An enemy unit that may fire on the move (OPP-1/2) and the samples it sees, by `at_mm`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shooter {
    pub unit: String,
    pub seen: Vec<u32>,
    /// OPP-6: it sees every sample, so it fires its Stationary shots.
    pub whole: bool,
}

impl Shooter {
    /// OPP-4 and D.1: the samples it may fire at, the second half of those it sees.
    pub fn firing_points(&self) -> Vec<u32> {
        let n = self.seen.len();
        self.seen.iter().enumerate().filter(|(k, _)| 2 * k >= n).map(|(_, d)| *d).collect()
    }
}

/// A simple Move announced (OPP-3) and held until the other side fires or passes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub mover: String,
    /// The side that may fire: the mover's enemy.
    pub side: String,
    pub samples: Vec<Sample>,
    /// Where the move ends, as checked (MOV).
    pub to: Point,
    pub heading: Heading,
    pub length_mm: u32,
    /// ST-1: the mover's status once the move is made.
    pub moving: bool,
    /// MOV-1: a vehicle reversing; at every sample it faces away from where it goes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reverse: bool,
    pub shooters: Vec<Shooter>,
    /// EMB-2: the move boards this transport once it is made (an embarking squad makes the
    /// simple Move action, so it draws opportunity fire like any other).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embark: Option<String>,
    /// SW-BLDM-2: the move ends in an access point and the squad is then set inside the
    /// building, its base at this point and heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter: Option<super::state::Inside>,
}

/// One shooter's fire, checked: the mover stands at `sample` when it is fired on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    pub sample: Sample,
    pub plan: fire::Plan,
}

/// The opportunity fire declared, waiting for the dice: the shots in path order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Volley {
    pub window: Window,
    pub shots: Vec<Shot>,
}

/// The samples of a path (D.1): every 10 mm from its start and its end, each with the
/// heading of the segment it lies on (the last segment's for the end, then the final
/// heading once the move is over).
pub fn samples(path: &Path) -> Vec<Sample> {
    let segs: Vec<(Point, Point, u32)> = path.segments().map(|(a, b)| (a, b, a.distance_mm(b))).collect();
    let total = path.length_mm();
    let heading_at = |d: u32| -> Option<Heading> {
        let mut run = 0u32;
        for (a, b, len) in &segs {
            run += len;
            if d < run || run == total {
                return Heading::between(*a, *b);
            }
        }
        None
    };
    let mut at: Vec<u32> = (0..=total / SAMPLE_MM).map(|k| k * SAMPLE_MM).collect();
    if !total.is_multiple_of(SAMPLE_MM) {
        at.push(total);
    }
    at.into_iter()
        .filter_map(|d| {
            Some(Sample {
                at_mm: d,
                at: path.point_at(d)?,
                heading: heading_at(d).or_else(|| segs.first().and_then(|(a, b, _)| Heading::between(*a, *b)))?,
            })
        })
        .collect()
}

/// The mover as it stands at a sample, moving (OPP-4: it always counts as moving).
fn placed(mover: &Unit, at: &Sample) -> Unit {
    let mut m = mover.clone();
    m.at = at.at;
    m.heading = at.heading;
    m.moving = true;
    m.fired = false;
    // On its path the mover is out of doors (an exit's path starts at the access point).
    m.inside = None;
    m
}

/// OPP-1: why `u` may not fire on a move of an enemy now, or `None` if it may.
pub fn not_ready(s: &State, u: &Unit) -> Option<String> {
    if !u.alive() {
        return Some(format!("{} is out of the fight", u.id));
    }
    if u.acted {
        return Some(format!("{} has manoeuvred this turn", u.id));
    }
    if let Some(v) = &u.aboard {
        return Some(format!("{} rides in {v}: passengers do not fire (EMB-5)", u.id));
    }
    let in_queue = match &s.phase {
        super::state::Phase::Act { queue, .. } => queue.iter().filter_map(|id| s.unit(id)).any(|q| q.platoon == u.platoon),
        _ => false,
    };
    if in_queue || s.manoeuvred.contains(&u.platoon) {
        return Some(format!("{}'s platoon {} manoeuvres this turn", u.id, u.platoon));
    }
    if u.panic {
        return Some(format!("{} is panicked: recovery is its only action (PAN-1)", u.id));
    }
    if u.no_fire {
        return Some(format!("{} is marked NoFire this turn (MOR-1)", u.id));
    }
    if super::assault::as_defender(s, &u.id).is_some() {
        return Some(format!("{} is held in a melee (ASL-4)", u.id));
    }
    None
}

/// The samples `shooter` sees the mover at.
fn seen(s: &State, shooter: &Unit, mover: &Unit, samples: &[Sample]) -> Vec<u32> {
    samples.iter().filter(|p| fire::spots(s, shooter, shooter.at, &placed(mover, p)).is_ok()).map(|p| p.at_mm).collect()
}

/// [`seen`] when it is more than half the samples (OPP-2), else `None`; it gives up as soon
/// as too many are unseen, since every simple Move the bot tries asks this of every enemy.
fn seen_over_half(s: &State, shooter: &Unit, mover: &Unit, samples: &[Sample]) -> Option<Vec<u32>> {
    let n = samples.len();
    let mut out = Vec::new();
    for (i, p) in samples.iter().enumerate() {
        if fire::spots(s, shooter, shooter.at, &placed(mover, p)).is_ok() {
            out.push(p.at_mm);
        }
        // Even if every sample left were seen, it would not be more than half.
        if !over_half(out.len() + (n - i - 1), n) {
            return None;
        }
    }
    over_half(out.len(), n).then_some(out)
}

/// OPP-2 and D.1: "more than half its path": 2·seen > all samples.
fn over_half(seen: usize, n: usize) -> bool {
    2 * seen > n
}

/// `w` with the mover standing at `at`, moving, for a fire check.
fn with_mover_at(w: &mut State, mover: &str, at: &Sample) {
    if let Some(m) = w.unit_mut(mover) {
        *m = placed(m, at);
    }
}

/// The fire of `shooter` at the mover standing at `at` (FIRE-1, AIM, WPN, EFF-1 with the
/// OPP-6 column), checked on `w`, a copy of the state the mover may be placed in.
fn plan_at(w: &mut State, shooter: &Unit, mover: &str, at: &Sample, whole: bool) -> Result<fire::Plan, Vec<Violation>> {
    with_mover_at(w, mover, at);
    fire::plan(w, shooter, shooter.at, !whole, mover)
}

/// OPP-1/2 for a simple Move of `mover` along `path` to `moved`: the window, if any enemy
/// unit may fire on it at some firing point.
pub fn window(s: &State, mover: &Unit, path: &Path, moved: &Moved) -> Option<Window> {
    let side = s.scenario.other(&mover.side).to_string();
    let mut samples = samples(path);
    // MOV-1: a reversing vehicle shows its front to where it comes from.
    if moved.reverse {
        for p in &mut samples {
            p.heading = p.heading.reversed();
        }
    }
    let n = samples.len();
    let mut shooters = Vec::new();
    let mut w: Option<State> = None;
    for u in s.units.iter().filter(|u| u.side == side) {
        if not_ready(s, u).is_some() {
            continue;
        }
        // OPP-2 and D.1: more than half the samples.
        let Some(seen) = seen_over_half(s, u, mover, &samples) else { continue };
        let sh = Shooter { unit: u.id.clone(), whole: seen.len() == n, seen };
        let w = w.get_or_insert_with(|| s.clone());
        let can = sh
            .firing_points()
            .iter()
            .filter_map(|d| samples.iter().find(|p| p.at_mm == *d))
            .any(|p| plan_at(w, u, &mover.id, p, sh.whole).is_ok());
        if can {
            shooters.push(sh);
        }
    }
    (!shooters.is_empty()).then(|| Window {
        mover: mover.id.clone(),
        side,
        samples,
        to: moved.to,
        heading: moved.heading,
        length_mm: moved.length_mm,
        moving: mover.is_vehicle() || moved.length_mm > 40,
        reverse: moved.reverse,
        shooters,
        embark: None,
        enter: None,
    })
}

fn v(rule: &str, unit: &str, msg: String) -> Violation {
    Violation::new(rule, msg).unit(unit.to_string())
}

/// Check the opportunity fire `fire` declared by `side` on the open window. `Ok` with the
/// volley (shots in path order, ties by shooter id), or every problem with its rule.
pub fn declare(s: &State, side: &str, fire: &[OppFire]) -> Result<Volley, Vec<Violation>> {
    let Some(win) = s.window.clone() else {
        return Err(vec![Violation::new("SW-OPP-3", "no move is open to opportunity fire now")]);
    };
    if win.side != side {
        return Err(vec![Violation::new("SW-OPP-3", format!("only {} may fire on {}'s move", win.side, win.mover))]);
    }
    let Some(mover) = s.unit(&win.mover).cloned() else {
        return Err(vec![Violation::new("SW-OPP-3", format!("there is no unit {}", win.mover))]);
    };
    let mut errs = Vec::new();
    let mut shots = Vec::new();
    let mut w = s.clone();
    let n = win.samples.len();
    for (i, f) in fire.iter().enumerate() {
        if fire[..i].iter().any(|g| g.shooter == f.shooter) {
            errs.push(v("SW-OPP-5", &f.shooter, format!("{} is named twice: a unit fires once on the move", f.shooter)));
            continue;
        }
        let Some(u) = s.unit(&f.shooter).cloned() else {
            errs.push(Violation::new("SW-OPP-1", format!("there is no unit {}", f.shooter)));
            continue;
        };
        if u.side != side {
            errs.push(v("SW-OPP-1", &u.id, format!("{} is not yours", u.id)));
            continue;
        }
        let Some(sh) = win.shooters.iter().find(|x| x.unit == u.id) else {
            // Say why it was not eligible when the move was announced.
            let why = if let Some(why) = not_ready(s, &u) {
                v(
                    "SW-OPP-1",
                    &u.id,
                    format!("{why}: only a unit that has not manoeuvred, outside the platoons manoeuvring, fires on a move"),
                )
            } else {
                let k = seen(s, &u, &mover, &win.samples).len();
                if !over_half(k, n) {
                    v(
                        "SW-OPP-2",
                        &u.id,
                        format!("{} sees {} at {k} of the {n} points of its path: opportunity fire needs more than half", u.id, mover.id),
                    )
                } else {
                    v(
                        "SW-WPN-1",
                        &u.id,
                        format!("no weapon of {} can fire at {} at any point of the second half of what it sees", u.id, mover.id),
                    )
                }
            };
            errs.push(why);
            continue;
        };
        let Some(at) = win.samples.iter().find(|p| p.at_mm == f.at_mm).cloned() else {
            errs.push(v(
                "SW-OPP-4",
                &u.id,
                format!(
                    "{} mm is not a point of the path: the points are every {SAMPLE_MM} mm from its start and its end ({} mm)",
                    f.at_mm, win.length_mm
                ),
            ));
            continue;
        };
        let points = sh.firing_points();
        if !sh.seen.contains(&f.at_mm) {
            errs.push(v(
                "SW-OPP-4",
                &u.id,
                format!("{} does not see {} at {} mm; it may fire at {:?} mm", u.id, mover.id, f.at_mm, points),
            ));
            continue;
        }
        if !points.contains(&f.at_mm) {
            errs.push(v(
                "SW-OPP-4",
                &u.id,
                format!(
                    "{} mm is in the first half of the path {} sees: it may fire only on the second half, at {:?} mm",
                    f.at_mm, u.id, points
                ),
            ));
            continue;
        }
        // The mover may be stopped there: it must be a place it could stand.
        let fp = footprint(mover.card(), at.at, at.heading);
        if let Some(p) = movement::end_problem(s, &mover, &fp) {
            errs.push(v(
                "SW-OPP-4",
                &u.id,
                format!("{} could not stand at {} mm ({}): choose another point", mover.id, f.at_mm, p.message),
            ));
            continue;
        }
        match plan_at(&mut w, &u, &mover.id, &at, sh.whole) {
            Ok(plan) => shots.push(Shot { sample: at, plan }),
            Err(vs) => errs.extend(vs),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    shots.sort_by(|a, b| a.sample.at_mm.cmp(&b.sample.at_mm).then(a.plan.firer.cmp(&b.plan.firer)));
    Ok(Volley { window: win, shots })
}

/// Put the mover where its move ends (the whole path) and give it its status.
pub fn complete(s: &mut State, win: &Window) -> Vec<Event> {
    let Some(m) = s.unit_mut(&win.mover) else { return vec![] };
    m.at = win.to;
    m.heading = win.heading;
    m.moving = win.moving;
    m.reversing = win.moving && win.reverse;
    m.fired = false;
    // Out of doors once the path is walked, unless it ends inside a building (BLDM-2/5).
    m.inside = win.enter.clone();
    let moved = super::movement::Moved { to: win.to, heading: win.heading, length_mm: win.length_mm, reverse: win.reverse };
    let mut ev = vec![moved.event(&win.mover)];
    if let Some(i) = &win.enter {
        ev.push(Event::rule(
            "SW-BLDM-2",
            format!("{} enters {} and stands on its ground floor (floor {})", win.mover, i.building, i.floor),
        ));
    }
    if let Some(vid) = &win.embark {
        ev.extend(super::transport::board(s, &win.mover, vid));
    }
    ev
}

/// Whether the fire stopped the mover where it stands (the move is truncated there).
fn stopped(u: &Unit) -> bool {
    u.lost() || u.panic || u.mobility >= 4
}

/// Resolve a volley: each shot at the mover standing at its firing point, in path order;
/// then the move completes, or stops where a shot stopped the mover.
pub fn resolve(s: &mut State, vol: &Volley, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let mover = vol.window.mover.clone();
    let mut stop: Option<Sample> = None;
    for shot in &vol.shots {
        if let Some(st) = &stop
            && shot.sample.at_mm > st.at_mm
        {
            ev.push(Event::rule(
                "SW-OPP-4",
                format!("{} holds its fire: {} was stopped at {} mm, before {} mm", shot.plan.firer, mover, st.at_mm, shot.sample.at_mm),
            ));
            if let Some(u) = s.unit_mut(&shot.plan.firer) {
                u.fired = false;
            }
            continue;
        }
        if stop.is_none() {
            with_mover_at(s, &mover, &shot.sample);
        }
        ev.extend(fire::resolve(s, &shot.plan, dice));
        if stop.is_none() && s.unit(&mover).is_some_and(stopped) {
            ev.push(Event::rule("SW-OPP-4", format!("{} is stopped at {} mm of its path: the move ends there", mover, shot.sample.at_mm)));
            stop = Some(shot.sample.clone());
        }
    }
    match stop {
        Some(st) => {
            if let Some(m) = s.unit_mut(&mover) {
                m.at = st.at;
                m.heading = st.heading;
                m.moving = m.is_vehicle() || st.at_mm > 40;
                m.reversing = m.moving && vol.window.reverse;
                // A firing point is a place out of doors (it may not touch a building).
                m.inside = None;
            }
        }
        None => ev.extend(complete(s, &vol.window)),
    }
    ev
}

/// The open window in words (`describe`, the template).
pub fn describe(s: &State) -> Vec<String> {
    let Some(w) = &s.window else { return vec![] };
    let mut out = vec![format!(
        "opportunity: {} announces a move of {} mm to ({}, {}), {} points along it; {} may fire or pass (SW-OPP-3)",
        w.mover,
        w.length_mm,
        w.to.x,
        w.to.y,
        w.samples.len(),
        w.side
    )];
    for sh in &w.shooters {
        out.push(format!(
            "opportunity: {} sees {} of {} points, {} shots, firing points {:?} mm",
            sh.unit,
            sh.seen.len(),
            w.samples.len(),
            if sh.whole { "Stationary" } else { "Moving" },
            sh.firing_points()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn samples_every_10_mm_plus_the_end_with_the_heading_of_their_segment() {
        let path = Path::new(vec![p(0, 0), p(20, 0), p(20, 15)]).expect("a path");
        let s = samples(&path);
        let at: Vec<u32> = s.iter().map(|x| x.at_mm).collect();
        assert_eq!(at, vec![0, 10, 20, 30, 35]);
        assert_eq!(s[1].at, p(10, 0));
        assert_eq!(s[1].heading.tenths(), 0);
        // The waypoint at 20 mm already faces the next segment; the end keeps the last one.
        assert_eq!(s[2].at, p(20, 0));
        assert_eq!(s[2].heading.tenths(), 900);
        assert_eq!(s[4].at, p(20, 15));
        assert_eq!(s[4].heading.tenths(), 900);
    }

    /// The template offered on a window is orders the rules accept, and so is the bot's answer.
    #[test]
    fn the_template_and_the_bot_answer_a_window() {
        use crate::engine::cases::CaseRuleset;
        use crate::rules::steel_wheels::{SteelWheels, orders::Orders, turn, view};
        let v: yaml_serde::Value = yaml_serde::from_str(
            "units:
  - {id: us-r2, at: [409, 950], heading: 1800}
  - {id: de-t1, at: [1000, 950], heading: 1800}
act: [us-r2]
",
        )
        .expect("yaml");
        let s = SteelWheels::case_state(&v).expect("state");
        let mv: Orders = yaml_serde::from_str("actions: [{unit: us-r2, move: {path: [[259, 950]]}}]").expect("orders");
        let (s, _) = turn::run(&s, "us", &mv).expect("the move is announced");
        assert!(s.window.is_some());
        let text = view::template(&s, "de");
        let o: Orders = yaml_serde::from_str(&text).expect("the template parses");
        assert_eq!(o.opportunity.as_ref().map(|f| f[0].at_mm), Some(80));
        assert!(turn::run(&s, "de", &o).is_ok_and(|(w, _)| w.pending.is_some()), "{text}");
        let mut ch = crate::dice::Dice::forced(vec![1, 0, 0, 2, 0, 0, 1, 1]);
        for _ in 0..3 {
            let b = super::super::legal::random_orders(&s, "de", &mut ch).expect("the bot answers");
            assert!(b.opportunity.is_some() && turn::run(&s, "de", &b).is_ok());
        }
    }

    #[test]
    fn the_second_half_of_what_is_seen() {
        let sh = |n: u32| Shooter { unit: "x".into(), seen: (0..n).map(|k| 10 * k).collect(), whole: false };
        assert_eq!(sh(9).firing_points(), vec![50, 60, 70, 80]);
        assert_eq!(sh(4).firing_points(), vec![20, 30]);
        assert_eq!(sh(2).firing_points(), vec![10]);
        // A lone point seen is its own middle: never on the second half (and never eligible).
        assert!(sh(1).firing_points().is_empty());
        assert!(sh(0).firing_points().is_empty());
    }
}
