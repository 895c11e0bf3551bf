//! Movement (RTL-8): TEC costs in half movement points (digest E.5), routes, rivers and
//! swamp, zones of control (RTL-3.2, 8.2) and stacking (RTL-3.3).

use super::orders::Move;
use super::scenario::{Route, Terrain, UnitData, Water};
use super::state::{Os, State, Supply, Unit, Weather};
use crate::engine::Violation;
use crate::geo::hex::HexId;

/// Stacking points allowed per side in a hex (RTL-3.32).
pub const STACK_LIMIT: u32 = 9;

/// Half MPs of a route from `a` into `b` for this unit, when the hexside carries a usable
/// route (RTL-8.33, 8.35: the cheapest; trails ignored in Rain, 8.42).
pub fn route_cost(s: &State, a: HexId, b: HexId, d: &UnitData) -> Option<u32> {
    let rain = s.weather == Weather::Rain;
    let mot = d.mot_column();
    let open = s.scenario.terrain.get(&b) == Some(&Terrain::Open) && !s.scenario.woods.contains(&b);
    s.scenario
        .routes(a, b)?
        .iter()
        .filter_map(|r| match r {
            Route::PrimaryRoad => Some(1),
            Route::SecondaryRoad => Some(if rain { 2 } else { 1 }),
            Route::Trail if rain => None,
            Route::Trail => Some(if open { 1 } else { 2 }),
            Route::Railroad => Some(if rain && mot { 4 } else { 2 }),
        })
        .min()
}

/// Whether a unit may cross from `a` into `b` at all, ZOC aside: lakes, unbridged rivers
/// for vehicles and heavy units (RTL-8.36c), swamp for motorized and heavy units only
/// along a route (RTL-8.37a).
pub fn passable(s: &State, a: HexId, b: HexId, d: &UnitData) -> bool {
    if !s.scenario.terrain.contains_key(&b) {
        return false;
    }
    match s.water(a, b) {
        Some((Water::Lake, _)) => return false,
        Some((Water::River, false)) if d.vehicle() || d.class == super::scenario::Class::Heavy => return false,
        _ => {}
    }
    if d.mot_column() {
        let swamp = |h: HexId| s.scenario.terrain.get(&h) == Some(&Terrain::Swamp);
        if (swamp(a) || swamp(b)) && route_cost(s, a, b, d).is_none() {
            return false;
        }
    }
    true
}

/// Whether the units of `side` in `h` project a ZOC into `n` (RTL-3.21–3.24): a stack
/// exerts one if any combat unit in it does, through hexsides the unit could cross.
pub fn projects(s: &State, h: HexId, n: HexId, side: &str) -> bool {
    let here: Vec<&Unit> = s.units_at(h).filter(|u| u.side == side).collect();
    let exerts = here.iter().any(|u| s.data(&u.id).is_some_and(|d| !d.no_zoc));
    exerts && here.iter().any(|u| s.data(&u.id).is_some_and(|d| passable(s, h, n, d)))
}

/// Whether `h` lies in a ZOC of the enemies of `side`.
pub fn in_ezoc(s: &State, h: HexId, side: &str) -> bool {
    let enemy = s.scenario.other(side);
    h.neighbours().into_iter().any(|(_, n)| s.occupied_by(n, &enemy) && projects(s, n, h, &enemy))
}

/// Whether an enemy red-box unit exerts ZOC into `h` (RTL-11.56d).
pub fn red_box_ezoc(s: &State, h: HexId, side: &str) -> bool {
    let enemy = s.scenario.other(side);
    h.neighbours()
        .into_iter()
        .any(|(_, n)| projects(s, n, h, &enemy) && s.units_at(n).any(|u| u.side == enemy && s.data(&u.id).is_some_and(|d| d.red_box())))
}

/// Terrain half MPs to enter `b` off a route: the hex (several types: the highest, 8.31a)
/// plus woods (+1 Mot, 8.34). `None`: prohibited.
/// With `along_trail` (a move along a trail in Rain, RTL-8.42, where the trail gives no rate)
/// the woods in the hex are still ignored, as along any route (8.34b).
pub fn hex_cost(s: &State, b: HexId, d: &UnitData, along_trail: bool) -> Option<u32> {
    let rain = s.weather == Weather::Rain;
    let mot = d.mot_column();
    let t = *s.scenario.terrain.get(&b)?;
    let base = match (t, rain, mot) {
        (Terrain::Open, false, _) => 2,
        (Terrain::Open, true, _) => 4,
        (Terrain::Rough, false, _) => 4,
        (Terrain::Rough, true, false) => 4,
        (Terrain::Rough, true, true) => 6,
        (Terrain::Hills | Terrain::Marsh, false, false) => 4,
        (Terrain::Hills | Terrain::Marsh, false, true) => 6,
        (Terrain::Hills | Terrain::Marsh, true, false) => 6,
        (Terrain::Hills | Terrain::Marsh, true, true) => 8,
        (Terrain::Swamp, _, true) => return None,
        (Terrain::Swamp, false, false) => 4,
        (Terrain::Swamp, true, false) => 6,
    };
    let woods = if mot && !along_trail && s.scenario.woods.contains(&b) { 2 } else { 0 };
    Some(base + woods)
}

/// Half MPs of the hexside's water (RTL-8.36; a bridge cancels it).
pub fn water_cost(s: &State, a: HexId, b: HexId, d: &UnitData) -> u32 {
    let rain = s.weather == Weather::Rain;
    match s.water(a, b) {
        Some((_, true)) | None => 0,
        Some((Water::Stream, false)) => match (rain, d.mot_column()) {
            (false, _) => 2,
            (true, false) => 4,
            (true, true) => 6,
        },
        Some((Water::River, false)) => 4,
        Some((Water::Lake, _)) => 0,
    }
}

/// A unit's movement allowance this OS in half MPs: halved once for the Assault Sequence or,
/// for motorized and heavy units, OoS (never twice, RTL-3.57), then −2 MP if Disrupted.
pub fn allowance(s: &State, u: &Unit, os: Os) -> u32 {
    let Some(d) = s.data(&u.id) else { return 0 };
    let mut half = s.face(u).ma * 2;
    if os == Os::Assault || (u.supply == Supply::Out && d.mot_column()) {
        half /= 2;
    }
    if u.disrupted {
        half = half.saturating_sub(4);
    }
    half
}

/// Side stacking points in a hex (RTL-3.31).
pub fn stack_points(s: &State, h: HexId, side: &str) -> u32 {
    s.units_at(h).filter(|u| u.side == side).map(|u| s.face(u).stacking).sum()
}

/// Whether the unit is active in this OS: its formation's, or an Army unit activated with it.
pub fn active_unit(s: &State, u: &Unit) -> bool {
    s.active.as_ref().is_some_and(|a| a.side == u.side && (a.has(&u.formation) || a.army.contains(&u.id)))
}

/// Where a walk along a path ended: the hex, the half MPs spent in all, and the rule that
/// stops the unit there, if one does.
pub struct Walk {
    pub end: HexId,
    pub spent: u32,
    pub stop: Option<&'static str>,
}

/// Walk one unit along `path` from `start`, having spent `spent0` of its `ma` half MPs
/// already (RTL-8.1–8.4): every hex checked and paid; VP control noted on the way. `fresh`:
/// the unit has not moved yet this phase (whole-MA moves must be its first and only hex).
#[allow(clippy::too_many_arguments)]
pub fn walk(
    s: &mut State,
    side: &str,
    u: &Unit,
    d: &UnitData,
    start: HexId,
    spent0: u32,
    ma: u32,
    fresh: bool,
    path: &[HexId],
) -> Result<Walk, (&'static str, String)> {
    let enemy = s.scenario.other(side);
    let mut spent = spent0;
    let mut cur = start;
    let mut stop: Option<&'static str> = None;
    for (i, &next) in path.iter().enumerate() {
        if let Some(why) = stop {
            return Err((why, format!("{} must stop at {cur}", u.id)));
        }
        if !cur.is_adjacent(next) || !s.scenario.terrain.contains_key(&next) {
            return Err(("RTL-8.11", format!("{next} is not a map hex next to {cur}")));
        }
        if s.occupied_by(next, &enemy) {
            return Err(("RTL-8.14", format!("{next} holds enemy combat units (only an overrun attacks it, RTL-8.6)")));
        }
        if !passable(s, cur, next, d) {
            let why = match s.water(cur, next) {
                Some((Water::Lake, _)) => ("RTL-8.3", "a lake hexside is impassable"),
                Some((Water::River, false)) => ("RTL-8.36", "vehicles and heavy units never cross an unbridged river"),
                _ => ("RTL-8.37", "motorized and heavy units enter or leave swamp only along a road, rail or trail"),
            };
            return Err((why.0, format!("{cur} to {next}: {}", why.1)));
        }
        let from_z = in_ezoc(s, cur, side);
        let to_z = in_ezoc(s, next, side);
        let zoc = if to_z { 2 } else { 0 };
        let river = matches!(s.water(cur, next), Some((Water::River, false)));
        // Red-box units moving straight from EZOC to EZOC may not use route rates (8.22).
        let route = if from_z && to_z { None } else { route_cost(s, cur, next, d) };
        let rain_trail =
            s.weather == Weather::Rain && !(from_z && to_z) && s.scenario.routes(cur, next).is_some_and(|r| r.contains(&Route::Trail));
        let swamp_stop = s.scenario.terrain.get(&next) == Some(&Terrain::Swamp)
            && route.is_none()
            && !d.mot_column()
            && d.kind != super::scenario::Kind::Cavalry;
        // 14.12, 8.31b: an enemy strongpoint costs 1 MP on top of the terrain or route.
        let sp = if super::strongpoints::enemy_sp(s, next, side) { 2 } else { 0 };
        let cost = match route {
            Some(r) => r + water_cost(s, cur, next, d) + zoc + sp,
            None => match hex_cost(s, next, d, rain_trail) {
                Some(h) => h + water_cost(s, cur, next, d) + zoc + sp,
                None => return Err(("RTL-8.37", format!("{next}: prohibited terrain"))),
            },
        };
        // Whole-MA moves: an unbridged river for other red-box units (8.36c) and EZOC to
        // EZOC for units without a red box (8.23): the first and only hex, MA above 0.
        let whole = (river && d.mot_column()) || (from_z && to_z && !d.red_box());
        if whole {
            if i > 0 || !fresh || ma == 0 {
                return Err((
                    if river { "RTL-8.36" } else { "RTL-8.23" },
                    format!("{cur} to {next} takes {}'s entire MA: its first and only hex", u.id),
                ));
            }
            spent = ma;
            stop = Some(if river { "RTL-8.36" } else { "RTL-8.23" });
        } else {
            if spent + cost > ma {
                return Err((
                    "RTL-8.13",
                    format!("{next} costs {} MP; {} has {} of {} left", half(cost), u.id, half(ma - spent), half(ma)),
                ));
            }
            spent += cost;
            if to_z && !d.red_box() {
                stop = Some("RTL-8.22");
            }
            if swamp_stop {
                stop = Some("RTL-8.37");
            }
        }
        cur = next;
        super::victory::note_control(s, cur, side);
    }
    Ok(Walk { end: cur, spent, stop })
}

/// Move one unit (RTL-8.1–8.4). A unit of the stack of a successful overrun goes on with
/// the MP it has left, unless that overrun left it in another enemy ZOC (RTL-8.67i).
pub fn step_move(s: &mut State, side: &str, m: &Move) -> Result<Vec<crate::engine::Event>, Vec<Violation>> {
    let err = |rule: &str, msg: String| Err(vec![Violation::new(rule, msg).unit(m.unit.clone())]);
    let Some(u) = s.unit(&m.unit).cloned() else { return err("RTL-8.11", format!("no unit {}", m.unit)) };
    let Some(d) = s.data(&u.id).cloned() else { return err("RTL-8.11", format!("no unit {}", m.unit)) };
    if u.side != side {
        return err("RTL-4.35", format!("{} is not yours", u.id));
    }
    let Some(start) = u.hex else { return err("RTL-8.11", format!("{} is not on the map", u.id)) };
    let Some(act) = s.active.clone() else { return err("RTL-4.35", "no formation is active".into()) };
    if !active_unit(s, &u) {
        return err("RTL-4.35", format!("{} is not in the active formation {} (nor an Army unit activated with it)", u.id, act.names()));
    }
    let going_on = s.group.as_ref().filter(|g| g.units.contains(&u.id));
    if let Some(g) = going_on
        && g.must_overrun
    {
        return err(
            "RTL-8.67",
            format!("{} entered {} in another enemy ZOC: it overruns the unit exerting it or stops (8.67i)", u.id, g.hex),
        );
    }
    let spent0 = going_on.and_then(|g| g.spent.get(&u.id).copied()).unwrap_or(0);
    if going_on.is_none() && s.moved.contains(&u.id) {
        return err("RTL-8.13", format!("{} has already moved in this Movement Phase", u.id));
    }
    if m.path.is_empty() {
        return err("RTL-8.11", "a move names at least one hex".into());
    }
    let ma = allowance(s, &u, act.os);
    let fresh = going_on.is_none();
    let w = match walk(s, side, &u, &d, start, spent0, ma, fresh, &m.path) {
        Ok(w) => w,
        Err((rule, msg)) => return err(rule, msg),
    };
    let cur = w.end;
    if stack_points(s, cur, side) + s.face(&u).stacking > STACK_LIMIT {
        return err("RTL-3.32", format!("{cur} would hold more than {STACK_LIMIT} stacking points"));
    }
    if let Some(x) = s.unit_mut(&u.id) {
        x.hex = Some(cur);
    }
    if let Some(g) = s.group.as_mut() {
        g.units.retain(|x| *x != u.id);
    }
    if !s.moved.contains(&u.id) {
        s.moved.push(u.id.clone());
    }
    Ok(vec![crate::engine::Event::rule("RTL-8", format!("{} moves {start} → {cur} ({} MP of {})", u.id, half(w.spent), half(ma)))])
}

/// Half MPs as text (`2½`).
pub fn half(h: u32) -> String {
    if h.is_multiple_of(2) { format!("{}", h / 2) } else { format!("{}½", h / 2) }
}
