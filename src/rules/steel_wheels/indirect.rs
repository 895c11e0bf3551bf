//! Indirect fire pre-planned on a target hidden among decoys (SW-IFP, SW-IF, SW-IMP; digest
//! D.9, G.2) as DESIGN §2.6 commitments.
//!
//! - **Phase 2 (IFP)**: a side with a battery whose observing officer can order fire is asked
//!   once a turn. A request names the battery and places its markers: one beside the observer
//!   (public, where he stands) and four on points he sees, exactly one of them real. The
//!   player writes the real `target` and three decoys; the author's tool ([`conceal`]) puts
//!   the four in a fixed order (by x, then y), so their order tells nothing, and commits to
//!   the real one's place in that list: id `if-t<turn>-<battery>` (public facts only, never
//!   reused: one request per battery a turn), value `if-target:<battery>:t<turn>:<k>`, k =
//!   1..4 (every value of one plan has one length). An off-table battery needs the
//!   observer's IFR test (D6 + AD + CV against a D12, a tie passes): the request's random
//!   action, settled by the other side's next entry.
//! - **Phase 4 (IF-1)**: the owner's entry (`barrage: true`; the tool adds the opening)
//!   opens the commitment; the engine checks it against its digest, this module that it
//!   names one of the four markers of that plan. Decoys go; the battery fires if its order
//!   got through and the observer still stands (G.2), every shot scattered (IMP-1), hits
//!   on bases (IMP-2) and models (IMP-3) rolled; all the losses of the phase are held and
//!   applied together when it ends. Until the opening comes, the game waits for it: no
//!   other entry of that side is accepted, and a game ended early lists it as owed.

use serde::{Deserialize, Serialize};

use super::data;
use super::fire;
use super::orders::{Orders, Request};
use super::scenario::{Battery, Xy, point};
use super::state::{Pending, Phase, State, Unit};
use crate::dice::Dice;
use crate::engine::hidden::{Concealed, HiddenActs, IdOrder};
use crate::engine::{Event, Violation};
use crate::geo::table::{Blocker, Footprint, Heading, Ignore, Point, Scene, deviate, scatter_heading};

/// Markers placed on points besides the one at the observer (IFP-5).
pub const MARKERS: usize = 4;

/// A fire plan (IFP-5): its markers are public, which one is real is committed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IfPlan {
    /// The commitment id (`if-t<turn>-<battery>`).
    pub id: String,
    pub battery: String,
    pub side: String,
    pub observer: String,
    /// The turn of the request and the turn whose phase 4 fires it (IFP-7).
    pub planned: u32,
    pub fires: u32,
    /// The marker beside the observing HQ.
    pub hq_marker: Point,
    /// The four markers, by x then y.
    pub markers: Vec<Point>,
    /// The place (1..4) of the real marker, once this replay knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub real: Option<u8>,
    /// Opened in the log.
    pub opened: bool,
    /// The IFR test: `None` while its dice are owed; `Some(true)` when the order got through.
    pub ordered: Option<bool>,
}

/// A phase-4 loss, held until the end of the phase (IF-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "loss", rename_all = "snake_case")]
pub enum Loss {
    /// IMP-2: one figure of a base dies.
    Figure { unit: String },
    /// IMP-3: an E.28 result on a model.
    Effects { unit: String, col: String, roll: u32 },
    /// IMP-4, BLDF-5: every figure of a squad in a devastated area dies.
    All { unit: String },
}

/// The commitment id of a plan.
pub fn plan_id(turn: u32, battery: &str) -> String {
    format!("if-t{turn}-{battery}")
}

/// The committed value: the place of the real marker in the published list.
pub fn value(battery: &str, turn: u32, k: usize) -> String {
    format!("if-target:{battery}:t{turn}:{k}")
}

/// `Ruleset::committed_value_bound`: a frame, a battery id (≤ 12) and a turn.
pub fn value_bound(_id: &str) -> usize {
    64
}

/// `(battery, turn, k)` of a value.
fn parse(v: &str) -> Option<(String, u32, u8)> {
    let rest = v.strip_prefix("if-target:")?;
    let mut it = rest.split(':');
    let (b, t, k) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() || k.len() != 1 {
        return None;
    }
    let t: u32 = t.strip_prefix('t')?.parse().ok()?;
    let k: u8 = k.parse().ok()?;
    ((1..=MARKERS as u8).contains(&k)).then(|| (b.to_string(), t, k))
}

fn xy(p: Point) -> String {
    format!("({}, {})", p.x, p.y)
}

/// IFP-2: the battery's observer can order its fire now (alive, not panicked, its officer
/// alive: leaders are the last of a unit's figures to die, AMB-12).
fn observer<'a>(s: &'a State, b: &Battery) -> Result<&'a Unit, Violation> {
    match s.unit(&b.observer) {
        Some(u) if u.alive() && u.on_table() && !u.panic && u.leaders > 0 => Ok(u),
        _ => Err(Violation::new(
            "SW-IFP-2",
            format!(
                "{} cannot order the fire of {}: its officer is lost, or it is panicked, gone or riding in a vehicle (EMB-3: it sees nothing from there)",
                b.observer, b.id
            ),
        )),
    }
}

/// Batteries of `side` that may be asked for fire this turn: observer able, and (off the
/// table) a turn left for the fire to land in (IFP-7).
pub fn can_request<'a>(s: &'a State, side: &str) -> Vec<&'a Battery> {
    s.scenario
        .batteries
        .iter()
        .filter(|b| b.side == side && observer(s, b).is_ok())
        .filter(|b| s.turn < s.final_turn() || !off_table(b))
        .filter(|b| !s.plans.iter().any(|p| p.battery == b.id && p.planned == s.turn))
        .collect()
}

fn off_table(b: &Battery) -> bool {
    data::data().units.values().find_map(|cards| cards.get(&b.card)).is_some_and(|c| c.off_table)
}

/// Whether `side` has spotted `e` with any of its units (IFP-6).
fn spotted(s: &State, side: &str, e: &Unit) -> bool {
    s.units.iter().filter(|f| f.side == side && f.alive()).any(|f| fire::spots(s, f, f.at, e).is_ok())
}

/// IFP-4/6 for one marker: on the table, not more than 5 cm inside a sight-blocking area,
/// in clear sight of the observer, not within 12 cm of an enemy `side` has not spotted.
/// Every marker is checked alike and named by its point only.
pub fn check_marker(s: &State, side: &str, obs: &Unit, p: Point) -> Result<(), Violation> {
    let bad = |rule: &str, why: String| Err(Violation::new(rule, format!("the marker at {}: {why}", xy(p))));
    if !s.scenario.table().contains(p) {
        return bad("SW-IFP-4", "off the table".into());
    }
    let d = data::data();
    for a in &s.scenario.areas {
        if d.terrain.get(&a.kind).is_some_and(|r| r.sight != "none") && a.polygon.deeper_than(p, 50) {
            return bad("SW-IFP-6", format!("more than 5 cm inside {}", a.id));
        }
    }
    let (areas, fires) = fire::sight_areas(s);
    let linears: Vec<_> = s.scenario.linears.iter().map(|l| l.feature.clone()).collect();
    let models: Vec<Footprint> = s.units.iter().filter(|u| u.is_model()).map(|u| u.footprint()).collect();
    // A marker may sit on a model: that model does not hide its own point.
    let ignore_models: Vec<usize> = models.iter().enumerate().filter(|(_, m)| m.contains(p)).map(|(i, _)| i).collect();
    let ofp = obs.footprint();
    let ignore_linears: Vec<usize> = linears.iter().enumerate().filter(|(_, l)| l.within_footprint(&ofp, 10)).map(|(i, _)| i).collect();
    let scene = Scene { areas: &areas, linears: &linears, models: &models };
    if let Err(b) = scene.sight(obs.at, p, Ignore { models: &ignore_models, linears: &ignore_linears }) {
        let fire = match b {
            Blocker::Opaque { area } => fires.iter().find(|(i, _)| *i == area).map(|(_, id)| id),
            _ => None,
        };
        return match fire {
            Some(id) => bad(
                "SW-LOS-6",
                format!(
                    "{} cannot see it: the {id} hides it (no sight passes over or through a fire); pick a point in clear sight",
                    obs.id
                ),
            ),
            None => bad("SW-IFP-6", format!("{} has no clear sight of it ({b})", obs.id)),
        };
    }
    for e in s.units.iter().filter(|e| e.side != side && e.alive() && e.on_table()) {
        if e.footprint().within_point(p, 120) && !spotted(s, side, e) {
            return bad("SW-IFP-6", format!("within 12 cm of {}, which {side} has not spotted", e.id));
        }
    }
    Ok(())
}

fn points(xys: &[Xy]) -> Result<Vec<Point>, Violation> {
    xys.iter().map(|&q| point(q).ok_or_else(|| Violation::new("SW-GEO-1", format!("marker {q:?} is out of range")))).collect()
}

fn battery_of<'a>(s: &'a State, side: &str, id: &str) -> Result<&'a Battery, Violation> {
    s.scenario.batteries.iter().find(|b| b.id == id && b.side == side).ok_or_else(|| {
        let ours: Vec<&str> = s.scenario.batteries.iter().filter(|b| b.side == side).map(|b| b.id.as_str()).collect();
        Violation::new("SW-IFP-2", format!("{id} is not a battery of {side} ({})", ours.join(", ")))
    })
}

fn able(s: &State, side: &str, b: &Battery) -> Result<(), Violation> {
    let obs = observer(s, b)?;
    // IFP-1: one communication test (DFR or IFR) per unit per turn. Phase 2 comes before
    // any relay of the turn, so this holds only for a state that says otherwise.
    if off_table(b) && s.comm_tests.iter().any(|c| c == &obs.id) {
        return Err(Violation::new(
            "SW-IFP-1",
            format!("{} has already made its communication test (DFR or IFR) this turn: one a turn", obs.id),
        ));
    }
    if !can_request(s, side).iter().any(|x| x.id == b.id) {
        return Err(Violation::new(
            "SW-IFP-7",
            format!("{} cannot be asked this turn (one request a turn; an off-table battery's fire lands next turn)", b.id),
        ));
    }
    Ok(())
}

/// The request as its author writes it: the real target and three decoys, four different
/// points, each passing [`check_marker`]. Returns the four points sorted and the place of
/// the real one.
pub fn check_written(s: &State, side: &str, r: &Request) -> Result<(Vec<Point>, usize), Vec<Violation>> {
    let b = battery_of(s, side, &r.battery).map_err(|v| vec![v])?;
    able(s, side, b).map_err(|v| vec![v])?;
    let obs = observer(s, b).map_err(|v| vec![v])?;
    let Some(t) = r.target else {
        return Err(vec![Violation::new("SW-IFP-5", "name the real target (`target`) and three decoys (`markers`)")]);
    };
    if r.markers.len() != MARKERS - 1 {
        return Err(vec![Violation::new("SW-IFP-5", format!("three decoys besides the target, not {}", r.markers.len()))]);
    }
    let mut all = points(&[t]).map_err(|v| vec![v])?;
    all.extend(points(&r.markers).map_err(|v| vec![v])?);
    let target = all[0];
    all.sort_by_key(|p| (p.x, p.y));
    if all.windows(2).any(|w| w[0] == w[1]) {
        return Err(vec![Violation::new("SW-IFP-5", "the four markers go on four different points")]);
    }
    let errs: Vec<Violation> = all.iter().filter_map(|&p| check_marker(s, side, obs, p).err()).collect();
    if !errs.is_empty() {
        return Err(errs);
    }
    let k = all.iter().position(|&p| p == target).expect("there") + 1;
    Ok((all, k))
}

/// `Ruleset::conceal`: a written request becomes four sorted markers and a commitment; a
/// phase-4 entry opens the plans due. A single value per entry: nothing for `order` to sort.
pub fn conceal(s: &State, seat: &str, mut orders: Orders, _order: &IdOrder) -> Result<Concealed<Orders>, Vec<Violation>> {
    let Some(side) = s.side_of(seat).map(str::to_string) else { return Ok(Concealed::plain(orders)) };
    let mut commit = Vec::new();
    let mut open = Vec::new();
    match &s.phase {
        Phase::Request { side: due } if *due == side => {
            if let Some(r) = orders.indirect.clone().filter(|r| r.target.is_some()) {
                let (all, k) = check_written(s, &side, &r)?;
                commit.push((plan_id(s.turn, &r.battery), value(&r.battery, s.turn, k)));
                orders.indirect = Some(Request { battery: r.battery, target: None, markers: all.iter().map(|p| [p.x, p.y]).collect() });
            }
        }
        Phase::Barrage { side: due } if *due == side && orders.barrage => {
            open = due_plans(s, &side).into_iter().filter(|p| !p.opened).map(|p| p.id.clone()).collect();
        }
        _ => {}
    }
    Ok(Concealed { orders, commit, open })
}

/// Plans of `side` due to fire this turn, by id.
pub fn due_plans<'a>(s: &'a State, side: &str) -> Vec<&'a IfPlan> {
    let mut v: Vec<&IfPlan> = s.plans.iter().filter(|p| p.side == side && p.fires == s.turn).collect();
    v.sort_by(|a, b| a.id.cmp(&b.id));
    v
}

/// The first side with plans due this phase 4 (on-table batteries would come first; all
/// built batteries are off-table, so: the scenario's side order).
pub fn due_side(s: &State) -> Option<String> {
    s.scenario.sides.iter().map(|x| x.id.clone()).find(|side| !due_plans(s, side).is_empty())
}

/// `Ruleset::hidden`: keep the entry's commitments for its orders (a known value must name
/// a marker of the plan its id names); record openings, only in the owner's phase-4 entry
/// of the plan's firing turn (or after the battle), as a marker of that plan.
pub fn hidden(s: &mut State, seat: &str, acts: &HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
    let side = s.side_of(seat).map(str::to_string).unwrap_or_default();
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    s.fresh = acts.committed.iter().map(|c| (c.id.clone(), c.value.clone())).collect();
    for c in &acts.committed {
        if let Some(v) = &c.value
            && parse(v).is_none_or(|(b, t, _)| plan_id(t, &b) != c.id)
        {
            errs.push(Violation::new("SW-PBEM-2", format!("{}: {v:?} does not name one of the four markers of that plan", c.id)));
        }
    }
    let over = s.phase == Phase::Over;
    for o in &acts.opened {
        let Some(i) = s.plans.iter().position(|p| p.id == o.id && p.side == side && !p.opened) else {
            if !over {
                errs.push(Violation::new("SW-PBEM-2", format!("{} is not an unopened fire plan of yours", o.id)));
            }
            continue;
        };
        let p = s.plans[i].clone();
        let due = over || (matches!(&s.phase, Phase::Barrage { side: d } if *d == side) && p.fires == s.turn);
        if !due {
            errs.push(Violation::new("SW-IF-1", format!("{} is opened in phase 4 of turn {}, not before", p.id, p.fires)));
            continue;
        }
        match parse(&o.value) {
            Some((b, t, k)) if b == p.battery && t == p.planned => {
                let m = &mut s.plans[i];
                m.real = Some(k);
                m.opened = true;
                ev.push(Event::rule(
                    "SW-IF-1",
                    format!(
                        "{} opens: the real target is marker {k} at {}; the other markers are removed",
                        p.id,
                        xy(p.markers[k as usize - 1])
                    ),
                ));
            }
            _ => {
                errs.push(Violation::new("SW-PBEM-2", format!("{} opens as {:?}: not one of the four markers of that plan", p.id, o.value)))
            }
        }
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Phase 2: `side`'s answer, a request or none. `fresh` are the entry's commitments.
/// `Ok((events, pending))`.
pub fn request(w: &mut State, side: &str, o: &Orders, fresh: &[(String, Option<String>)]) -> Result<(Vec<Event>, bool), Vec<Violation>> {
    if o.platoon.is_some() || o.token || !o.actions.is_empty() || o.barrage {
        return Err(vec![Violation::new("SW-IFP-1", "phase 2: send a request for indirect fire (`indirect`), or empty orders for none")]);
    }
    w.asked.push(side.to_string());
    let Some(r) = &o.indirect else {
        return Ok((vec![Event::rule("SW-IFP-1", format!("{side} requests no indirect fire this turn"))], false));
    };
    if r.target.is_some() {
        return Err(vec![Violation::new(
            "SW-PBEM-2",
            "the real target never goes into the log in the clear: sign with your key and the tool commits to it (DESIGN §2.6)",
        )]);
    }
    let b = battery_of(w, side, &r.battery).map_err(|v| vec![v])?.clone();
    able(w, side, &b).map_err(|v| vec![v])?;
    let obs = observer(w, &b).map_err(|v| vec![v])?.clone();
    if r.markers.len() != MARKERS {
        return Err(vec![Violation::new("SW-IFP-5", format!("four markers besides the one at the observer, not {}", r.markers.len()))]);
    }
    let ms = points(&r.markers).map_err(|v| vec![v])?;
    if ms.windows(2).any(|x| (x[0].x, x[0].y) >= (x[1].x, x[1].y)) {
        return Err(vec![Violation::new(
            "SW-PBEM-2",
            "the four markers go on different points, by x then y, so their order tells nothing",
        )]);
    }
    let errs: Vec<Violation> = ms.iter().filter_map(|&p| check_marker(w, side, &obs, p).err()).collect();
    if !errs.is_empty() {
        return Err(errs);
    }
    let id = plan_id(w.turn, &b.id);
    if fresh.len() != 1 || fresh[0].0 != id {
        return Err(vec![Violation::new("SW-PBEM-2", format!("a request commits to its real marker as {id}, once and alone"))]);
    }
    let real = fresh[0].1.as_deref().and_then(parse).map(|(_, _, k)| k);
    let off = off_table(&b);
    let fires = if off { w.turn + 1 } else { w.turn };
    let plan = IfPlan {
        id: id.clone(),
        battery: b.id.clone(),
        side: side.to_string(),
        observer: obs.id.clone(),
        planned: w.turn,
        fires,
        hq_marker: obs.at,
        markers: ms.clone(),
        real,
        opened: false,
        ordered: None,
    };
    w.plans.push(plan);
    let ev = vec![Event::rule(
        "SW-IFP-5",
        format!(
            "{} plans the fire of {}: a marker beside it at {}, markers at {}; one is real, committed as {id}; it fires in phase 4 of turn {fires} (SW-IFP-7)",
            obs.id,
            b.id,
            xy(obs.at),
            ms.iter().map(|&p| xy(p)).collect::<Vec<_>>().join(", ")
        ),
    )];
    if off {
        // IFP-1: the observer's one communication test of the turn, passed or not.
        w.comm_tests.push(obs.id.clone());
        w.pending = Some(Pending::Ifr { plan: id });
        Ok((ev, true))
    } else {
        if let Some(p) = w.plans.last_mut() {
            p.ordered = Some(true);
        }
        Ok((ev, false))
    }
}

/// IFP-2/TEST-IFR: D6 + AD + CV against a D12, a tie passes.
pub fn resolve_ifr(s: &mut State, id: &str, dice: &mut Dice) -> Vec<Event> {
    let Some(p) = s.plans.iter().find(|p| p.id == id).cloned() else { return vec![] };
    let cv = s.unit(&p.observer).map(|u| u.cv()).unwrap_or(0);
    let ad = s.ad(&p.side);
    let a = fire::face(dice.roll(6));
    let b = fire::face(dice.roll(12));
    let ok = a + ad + cv >= b;
    if let Some(m) = s.plans.iter_mut().find(|m| m.id == id) {
        m.ordered = Some(ok);
    }
    vec![
        Event::roll(format!("{} IFR to {}: D6", p.observer, p.battery), "d6", a),
        Event::roll(format!("{} IFR to {}: opposing D12", p.observer, p.battery), "d12", b),
        Event::rule(
            "SW-IFP-2",
            format!(
                "{} IFR {a}+{ad}+{cv} against {b}: {}",
                p.observer,
                if ok {
                    "the fire order gets through"
                } else {
                    "the order fails: the battery will not fire (the plan is still opened in phase 4)"
                }
            ),
        ),
    ]
}

/// Whether a due plan fires: its order got through and its observer still stands (G.2).
fn fires(s: &State, p: &IfPlan) -> bool {
    p.ordered == Some(true) && s.unit(&p.observer).is_some_and(|u| u.alive() && u.leaders > 0)
}

/// Phase 4: `side`'s entry. Every due plan must be opened; decoys go; the batteries that
/// fire leave one random action. `Ok((events, pending))`.
pub fn barrage(w: &mut State, side: &str, o: &Orders) -> Result<(Vec<Event>, bool), Vec<Violation>> {
    if !o.barrage || o.platoon.is_some() || o.token || !o.actions.is_empty() || o.indirect.is_some() {
        return Err(vec![Violation::new("SW-IF-1", "phase 4: send `barrage: true` (your tool opens your fire plans)")]);
    }
    let due: Vec<IfPlan> = due_plans(w, side).into_iter().cloned().collect();
    let owed: Vec<String> = due.iter().filter(|p| !p.opened).map(|p| p.id.clone()).collect();
    if !owed.is_empty() {
        return Err(vec![Violation::new(
            "SW-PBEM-2",
            format!("open {} now (phase 4): the game waits for it, and nothing else of yours is accepted", owed.join(", ")),
        )]);
    }
    let mut ev = Vec::new();
    let mut any = false;
    for p in &due {
        if fires(w, p) {
            any = true;
        } else {
            ev.push(Event::rule("SW-IF-1", format!("{} does not fire: its order failed or its observer is lost (G.2)", p.battery)));
        }
    }
    if any {
        w.pending = Some(Pending::Barrage { side: side.to_string() });
    } else {
        w.plans.retain(|p| !(p.side == side && p.fires == w.turn));
    }
    Ok((ev, any))
}

/// IMP-1..3 for every shot of `side`'s batteries due: distance dice, then (beyond 0) the
/// direction, then a model's penetration and effects dice (G.1). Against the table as the
/// phase found it; losses held.
pub fn resolve_barrage(s: &mut State, side: &str, dice: &mut Dice) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let due: Vec<IfPlan> = due_plans(s, side).into_iter().cloned().collect();
    let table = s.scenario.table();
    let firing: Vec<&IfPlan> = due.iter().filter(|p| fires(s, p)).collect();
    for p in firing {
        let Some(b) = s.scenario.batteries.iter().find(|b| b.id == p.battery).cloned() else { continue };
        let Some(card) = d.units.values().find_map(|c| c.get(&b.card)) else { continue };
        let Some(k) = p.real else { continue };
        let aim = p.markers[k as usize - 1];
        let ad = s.ad(side) as i32;
        let cv = s.unit(&p.observer).map(|u| u.cv()).unwrap_or(0) as i32;
        let mut shots = Vec::new();
        for line in &card.armament {
            if let Some(w) = d.weapons.get(&line.w).filter(|w| w.fire == "indirect" || w.fire == "both") {
                for _ in 0..line.n * w.shots[0].unwrap_or(0) {
                    shots.push((w.cal.map(|c| c.0).unwrap_or(0), w.frag.unwrap_or(0) * 10));
                }
            }
        }
        ev.push(Event::rule("SW-IF-1", format!("{} fires {} shots at {} (marker {k})", b.id, shots.len(), xy(aim))));
        for (i, (cal, frag_mm)) in shots.into_iter().enumerate() {
            let n = i + 1;
            let d10 = fire::face(dice.roll(10));
            let d12 = fire::face(dice.roll(12));
            ev.push(Event::roll(format!("{} shot {n} scatter: D10", b.id), "d10", d10));
            ev.push(Event::roll(format!("{} shot {n} scatter: D12", b.id), "d12", d12));
            let mut sum = (d10 + d12) as i32;
            if card.off_table {
                let d12b = fire::face(dice.roll(12));
                ev.push(Event::roll(format!("{} shot {n} scatter: second D12", b.id), "d12", d12b));
                sum += d12b as i32;
            }
            let cm = sum - ad - cv;
            let at = if cm > 0 {
                let f = fire::face(dice.roll(3600));
                ev.push(Event::roll(format!("{} shot {n} scatter direction", b.id), "d3600", f));
                let h = scatter_heading(f).unwrap_or(Heading::new(0));
                let at = deviate(aim, cm * 10, h);
                ev.push(Event::rule(
                    "SW-IMP-1",
                    format!("shot {n}: {sum} - AD {ad} - CV {cv} = {cm} cm at heading {}: lands at {}", h.tenths(), xy(at)),
                ));
                at
            } else {
                ev.push(Event::rule("SW-IMP-1", format!("shot {n}: {sum} - AD {ad} - CV {cv} = {cm}: lands exactly on the marker")));
                aim
            };
            if !table.contains(at) {
                ev.push(Event::rule("SW-IMP-1", format!("shot {n} lands off the table")));
                continue;
            }
            // IMP-4: a shell on a building goes through its roof and bursts on its top floor.
            if let Some(id) = super::building_fire::target_at(s, at).map(|t| t.area.id.clone()) {
                ev.extend(super::building_fire::shell_through_roof(s, &id, at, cal, frag_mm, n, dice));
                continue;
            }
            let mut hit: Vec<Unit> = s.units.iter().filter(|u| u.on_table() && u.footprint().contains(at)).cloned().collect();
            hit.sort_by(|a, b| a.id.cmp(&b.id));
            let mut inside = false;
            for u in &hit {
                let (e, burst_inside) = hit_unit(s, u, cal, n, dice);
                ev.extend(e);
                inside |= burst_inside;
            }
            // SPL-1: the shell bursts where it lands, unless inside an armoured vehicle.
            if frag_mm > 0 && !inside {
                let direct: Vec<String> = hit.iter().map(|u| u.id.clone()).collect();
                ev.extend(super::fragments::burst(s, at, frag_mm, cal, &direct, &[], n, true, dice));
            }
        }
    }
    s.plans.retain(|p| !(p.side == side && p.fires == s.turn));
    ev
}

/// One shot on a unit's base or model (IMP-2/3): the loss is held. Also whether the shell
/// burst inside an armoured vehicle (then it throws no fragments, SPL-1).
fn hit_unit(s: &mut State, u: &Unit, cal: u32, n: usize, dice: &mut Dice) -> (Vec<Event>, bool) {
    let d = data::data();
    let mut ev = Vec::new();
    if u.is_infantry() {
        if u.figures > 0 {
            s.held.push(Loss::Figure { unit: u.id.clone() });
            ev.push(Event::rule("SW-IMP-2", format!("shot {n} falls on the base of {}: one figure dies (at the end of the phase)", u.id)));
        }
        return (ev, false);
    }
    if u.destroyed {
        ev.push(Event::rule("SW-IMP-3", format!("shot {n} falls on the wreck of {}", u.id)));
        return (ev, false);
    }
    let c = u.card();
    let col = if !c.armoured {
        if c.kind == "artillery" { "gun" } else { "unarmoured" }
    } else if c.open_topped {
        "top_opening"
    } else {
        // Armour always below 75° from above, on the horizontal plates (IMP-3).
        let th = c.armour.as_ref().map(|a| a.horizontal).unwrap_or(0);
        let cell = d.pen_cell(false, false, cal, th);
        let roll = fire::face(dice.roll(10));
        ev.push(Event::roll(format!("shot {n} on {}: penetration of {th} mm from above", u.id), "d10", roll));
        match cell {
            Some(need) if roll >= need => ev.push(Event::rule("SW-IMP-3", format!("{roll} against {need}: it penetrates"))),
            other => {
                let need = other.map(|x| x.to_string()).unwrap_or_else(|| "X".into());
                ev.push(Event::rule("SW-IMP-3", format!("{roll} against {need}: it bounces off {}", u.id)));
                return (ev, false);
            }
        }
        "hull"
    };
    let roll = fire::face(dice.roll(10));
    ev.push(Event::roll(format!("shot {n} on {}: effects ({col})", u.id), "d10", roll));
    ev.push(Event::rule("SW-IMP-3", format!("shot {n} hits {} directly: E.28 {col} row {roll} (at the end of the phase)", u.id)));
    s.held.push(Loss::Effects { unit: u.id.clone(), col: col.into(), roll });
    // Through the plate or into the open top: the burst is inside the vehicle.
    (ev, c.armoured)
}

/// IF-1: the held losses of phase 4, applied together in resolution order.
pub fn apply_held(s: &mut State) -> Vec<Event> {
    let mut ev = vec![Event::rule("SW-IF-1", format!("phase 4 ends: its {} losses apply together", s.held.len()))];
    ev.extend(apply_losses(s));
    ev
}

/// The held losses applied in the order they were found (IF-1 at the end of phase 4; at
/// once for the fragments of a direct-fire HE burst, BLDF-2).
pub fn apply_losses(s: &mut State) -> Vec<Event> {
    let held = std::mem::take(&mut s.held);
    let mut ev = Vec::new();
    let mut ct = Vec::new();
    for l in held {
        match l {
            Loss::Figure { unit } => {
                if let Some(u) = s.unit_mut(&unit) {
                    let n = fire::kill(u, 1);
                    ev.push(Event::rule("SW-IMP-2", format!("{unit} loses {n} figure(s), {} left", u.figures)));
                }
            }
            Loss::Effects { unit, col, roll } => ev.extend(fire::apply_effects(s, &unit, &col, roll, &mut ct)),
            Loss::All { unit } => {
                if let Some(u) = s.unit_mut(&unit) {
                    let n = u.figures;
                    let n = fire::kill(u, n);
                    ev.push(Event::rule("SW-BLDF-5", format!("{unit} loses {n} figure(s) in the devastated area")));
                }
            }
        }
    }
    ev
}

/// The bot's request: now and then none; else the first enemy it may target as the real
/// marker and three random points that pass as decoys.
pub fn bot_request(s: &State, side: &str, ch: &mut Dice) -> Orders {
    let none = Orders::default();
    if ch.roll(4) == 0 {
        return none;
    }
    let Some(b) = can_request(s, side).first().map(|b| (*b).clone()) else { return none };
    let Ok(obs) = observer(s, &b) else { return none };
    let enemies: Vec<&Unit> = s.units.iter().filter(|e| e.side != side && e.alive() && e.on_table()).collect();
    if enemies.is_empty() {
        return none;
    }
    let start = ch.roll(enemies.len() as u32) as usize;
    let real = (0..enemies.len()).map(|k| enemies[(start + k) % enemies.len()].at).find(|&p| check_marker(s, side, obs, p).is_ok());
    let Some(real) = real else { return none };
    let mut decoys: Vec<Point> = Vec::new();
    for _ in 0..60 {
        if decoys.len() == MARKERS - 1 {
            break;
        }
        let p = Point { x: ch.roll(s.scenario.width_mm as u32) as i32, y: ch.roll(s.scenario.height_mm as u32) as i32 };
        if p != real && !decoys.contains(&p) && check_marker(s, side, obs, p).is_ok() {
            decoys.push(p);
        }
    }
    if decoys.len() < MARKERS - 1 {
        return none;
    }
    Orders {
        indirect: Some(Request { battery: b.id, target: Some([real.x, real.y]), markers: decoys.iter().map(|p| [p.x, p.y]).collect() }),
        ..Orders::default()
    }
}

/// Describe the plans (hidden values only once opened).
pub fn describe(s: &State) -> Vec<String> {
    s.plans
        .iter()
        .map(|p| {
            format!(
                "plan {} of {} by {}: HQ marker {}, markers {}; fires turn {}; order {}; {}",
                p.id,
                p.battery,
                p.observer,
                xy(p.hq_marker),
                p.markers.iter().map(|&m| xy(m)).collect::<Vec<_>>().join(" "),
                p.fires,
                match p.ordered {
                    None => "being tested",
                    Some(true) => "through",
                    Some(false) => "failed",
                },
                match (p.opened, p.real) {
                    (true, Some(k)) => format!("real marker {k}"),
                    _ => "real marker hidden".into(),
                }
            )
        })
        .collect()
}
