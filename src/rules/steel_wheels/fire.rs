//! Observation (SW-OBS, SW-LOS) and direct fire (SW-AIM, SW-FIRE, SW-EFF, SW-LW, SW-HW,
//! SW-PEN, SW-DAM), with the representative charts E.23–E.28. Checks are made when the order
//! is read ([`plan`]); the dice come only in [`resolve`], in the digest's G.1 order: weapon
//! lines in card order, for each shot the hit die, then penetration, then effects; light
//! weapons one band die per band group; then the CTs the action triggered.

use serde::{Deserialize, Serialize};

use super::data::{self, Weapon};
use super::state::{State, Unit};
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::table::impact::{Face, Struck, struck_face};
use crate::geo::table::{Arc, AreaSight, Blocker, Footprint, Heading, Ignore, Point, Polygon, Scene, TerrainArea, Vector};

/// Range bands (WPN-4): short D12, effective D10, long D8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    Short,
    Effective,
    Long,
}

impl Band {
    pub fn die(self) -> u32 {
        match self {
            Band::Short => 12,
            Band::Effective => 10,
            Band::Long => 8,
        }
    }
}

/// One heavy weapon line's shots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeavyLine {
    pub weapon: String,
    pub shots: u32,
    pub band: Band,
    /// Shoulder launchers: D10 + AD to hit and D10 to penetrate (AMB-8).
    pub shoulder: bool,
    /// AP (else HE).
    pub ap: bool,
    pub cal_tenths: u32,
}

/// The light weapons of one band (LW-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LightGroup {
    pub band: Band,
    pub shots: u32,
}

/// A fire action, checked and waiting for its dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub firer: String,
    pub target: String,
    pub from: Point,
    pub heavy: Vec<HeavyLine>,
    pub light: Vec<LightGroup>,
    /// Target status when fired on (EFF-2): moving.
    pub target_moving: bool,
    /// Target cover for light fire and direct hits: S, L, M or P (EFF-4).
    pub cover: char,
    /// BLDM-4: for a squad firing from inside a building, the openings it fires through and
    /// how many of its figures that lets fire (told when the fire is resolved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    /// BLDF: the fire is at a building, with this aim (the target is then its area id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aim: Option<super::building_fire::Aim>,
    /// SW-OBS-4: the friendly unit that passes the target to the firer; its DFR test
    /// (SW-TEST-DFR) is the fire's first roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relay: Option<String>,
}

fn v(rule: &str, msg: String) -> Violation {
    Violation::new(rule, msg)
}

/// The table's sight areas followed by every burning or exploded model as an opaque area
/// (LOS-6, WRECK-2): such a wreck hides every line that meets it, whatever else a check sets
/// aside (a marker placed on it, say), where a cold wreck only blocks as a model (LOS-5).
/// The second value names the wreck ("burning wreck of …") of each opaque area, by its index
/// in the first.
pub fn sight_areas(s: &State) -> (Vec<TerrainArea>, Vec<(usize, String)>) {
    let mut areas = s.scenario.sight_areas();
    let mut fires = Vec::new();
    for u in s.units.iter().filter(|u| u.is_model() && (u.burning || u.exploded)) {
        if let Ok(polygon) = Polygon::new(u.footprint().corners()) {
            let how = if u.exploded { "exploded" } else { "burning" };
            fires.push((areas.len(), format!("{how} wreck of {}", u.id)));
            areas.push(TerrainArea { polygon, sight: AreaSight::Opaque });
        }
    }
    (areas, fires)
}

/// The sight scene: terrain areas, burning wrecks (LOS-6), obstacles, and every model but the
/// two ends (LOS-4/5).
/// Also the burning wreck that hides a sample, if one does.
fn sight_samples(s: &State, from: &Unit, from_at: Point, to: &Unit) -> (u32, u32, Option<String>) {
    let (areas, fires) = sight_areas(s);
    let linears: Vec<_> = s.scenario.linears.iter().map(|l| l.feature.clone()).collect();
    let from_fp = super::scenario::footprint(from.card(), from_at, from.heading);
    let to_fp = to.footprint();
    let mut models = Vec::new();
    let mut ignore_models = Vec::new();
    for u in s.units.iter().filter(|u| u.is_model()) {
        if u.id == from.id || u.id == to.id {
            ignore_models.push(models.len());
        }
        models.push(u.footprint());
    }
    // LOS-4 default: a unit in contact with an obstacle sees across it.
    let ignore_linears: Vec<usize> = linears
        .iter()
        .enumerate()
        .filter(|(_, l)| l.within_footprint(&from_fp, 10) || l.within_footprint(&to_fp, 10))
        .map(|(i, _)| i)
        .collect();
    let scene = Scene { areas: &areas, linears: &linears, models: &models };
    let seen = scene.sight_samples(from_at, &to_fp, Ignore { models: &ignore_models, linears: &ignore_linears });
    let fire = seen.lines.iter().find_map(|(_, r)| match r {
        Err(Blocker::Opaque { area }) => fires.iter().find(|(i, _)| i == area).map(|(_, id)| id.clone()),
        _ => None,
    });
    (seen.visible(), seen.total(), fire)
}

/// The E.22 row of the area `fp` is wholly on (TERR-1), `open` if none.
fn terrain_of(s: &State, fp: &Footprint) -> (String, Option<String>) {
    match s.scenario.area_of(fp) {
        Some(a) => (a.kind.clone(), Some(a.id.clone())),
        None => ("open".into(), None),
    }
}

/// SW-OBS-1..3: can `obs` (standing at `at`) spot `t`? `Ok` with the visible samples, or why not.
pub fn spots(s: &State, obs: &Unit, at: Point, t: &Unit) -> Result<(u32, u32), Violation> {
    let d = data::data();
    // EMB-3: a squad riding in a vehicle stands nowhere on the table: it neither sees nor is seen.
    if let Some(v) = obs.aboard.as_ref().or(t.aboard.as_ref()) {
        let who = if obs.aboard.is_some() { &obs.id } else { &t.id };
        return Err(Violation::new("SW-EMB-3", format!("{who} rides in {v}: it is not on the table")));
    }
    let ofp = super::scenario::footprint(obs.card(), at, obs.heading);
    let tfp = t.footprint();
    let (tkind, tarea) = terrain_of(s, &tfp);
    let (_, oarea) = terrain_of(s, &ofp);
    let group = d.terrain.get(&tkind).map(|r| r.obs.clone()).unwrap_or_else(|| "open".into());
    let group = if group == "variable" { "variable".to_string() } else { group };
    let geometry = if tarea.is_some() && tarea == oarea { "from_inside" } else { "from_outside" };
    let vision = if obs.card().vision.as_deref() == Some("slit") { "vision_slit" } else { "ordinary" };
    let class = t.card().obs_class.clone().unwrap_or_else(|| "medium".into());
    // BLDM-3: figures in a building count as Stationary (not Moving) to enemy spotting.
    let col = if t.fired {
        2
    } else if t.seen_moving() {
        1
    } else {
        0
    };
    let range_cm = d.obs.get(vision).and_then(|m| m.get(geometry)).and_then(|m| m.get(&class)).and_then(|m| m.get(&group)).map(|r| r[col]);
    let Some(range_cm) = range_cm else {
        return Err(v("SW-OBS-3", format!("no E.23 cell for {vision}/{geometry}/{class}/{group}")));
    };
    let gap = ofp.gap_mm(&tfp);
    if gap > range_cm * 10 {
        return Err(v(
            "SW-OBS-3",
            format!(
                "{} cannot spot {}: {gap} mm away, beyond {range_cm} cm ({vision}, {geometry}, {class} target in {group} terrain, E.23)",
                obs.id, t.id
            ),
        ));
    }
    let (vis, total, fire) = sight_samples(s, obs, at, t);
    // OBS-2: a model showing less than 1/3 of itself, a squad less than half, is never spotted.
    let enough = if t.is_infantry() { 2 * vis >= total } else { 3 * vis >= total };
    if (!enough || vis == 0)
        && let Some(w) = fire
    {
        return Err(v(
            "SW-LOS-6",
            format!(
                "{} cannot see {}: the {w} hides it (no sight passes over or through a fire; only {vis} of {total} sample points are clear)",
                obs.id, t.id
            ),
        ));
    }
    if !enough || vis == 0 {
        return Err(v("SW-OBS-2", format!("{} sees only {vis} of {total} sample points of {} (SW-LOS)", obs.id, t.id)));
    }
    Ok((vis, total))
}

/// SW-COMM-2 (E.5): communication distance between two squads of one platoon, in mm: 32 cm
/// with clear sight between them, 16 cm when terrain blocks it totally.
pub const COMMS_CLEAR_MM: u32 = 320;
pub const COMMS_BLOCKED_MM: u32 = 160;
/// SW-COMM-3 (E.5): between two squads of one platoon that both have a radio: 128 cm, 64 cm
/// with the sight between them totally blocked.
pub const RADIO_CLEAR_MM: u32 = 1280;
pub const RADIO_BLOCKED_MM: u32 = 640;

/// Whether a unit's card gives it a radio (`vehicle` or `portable`, SW-COMM-3).
fn has_radio(u: &Unit) -> bool {
    u.card().radio.as_deref().is_some_and(|r| r != "none")
}

/// SW-COMM-2/3: whether `a` (at `a_at`) and `b` (at `b_at`) are within communication
/// distance, and the numbers that decide it: the gap between their bases or models (D.1), the
/// distance that applies, and whether sight between them is clear. It is blocked when terrain
/// (areas, burning wrecks, linear obstacles) hides every sample point of `b` from `a`'s eye;
/// models never block it ("interrotta da elementi di terreno"). Two radios talk farther.
pub fn comms(s: &State, a: &Unit, a_at: Point, b: &Unit, b_at: Point) -> (bool, u32, u32, bool) {
    let afp = super::scenario::footprint(a.card(), a_at, a.heading);
    let bfp = super::scenario::footprint(b.card(), b_at, b.heading);
    let gap = afp.gap_mm(&bfp);
    let (areas, _) = sight_areas(s);
    let linears: Vec<_> = s.scenario.linears.iter().map(|l| l.feature.clone()).collect();
    let ignore_linears: Vec<usize> =
        linears.iter().enumerate().filter(|(_, l)| l.within_footprint(&afp, 10) || l.within_footprint(&bfp, 10)).map(|(i, _)| i).collect();
    let scene = Scene { areas: &areas, linears: &linears, models: &[] };
    let seen = scene.sight_samples(a_at, &bfp, Ignore { models: &[], linears: &ignore_linears });
    let clear = seen.visible() > 0;
    let reach = match (has_radio(a) && has_radio(b), clear) {
        (true, true) => RADIO_CLEAR_MM,
        (true, false) => RADIO_BLOCKED_MM,
        (false, true) => COMMS_CLEAR_MM,
        (false, false) => COMMS_BLOCKED_MM,
    };
    (gap <= reach, gap, reach, clear)
}

/// SW-OBS-4 (SPARARE 2, TEST-DFR, COMM-2/4, IFP-1): `sender` may pass `t` to `firer`, which
/// fires from `at`. `Ok` with the samples of `t` clear from the firer (its line of fire).
/// The sender is a friendly unit of the firer's platoon, able to act (not panicked, on the
/// table), that spots `t` itself, within communication distance of the firer, with no
/// communication test made this turn; the firer cannot spot `t` itself (else it needs no
/// relay) but sees enough of it to fire (FIRE-1, checked by the caller).
fn relayed(s: &State, firer: &Unit, at: Point, t: &Unit, sender_id: &str) -> Result<(u32, u32), Vec<Violation>> {
    let bad = |rule: &str, msg: String| Err(vec![v(rule, msg)]);
    let Some(x) = s.unit(sender_id) else { return bad("SW-OBS-4", format!("there is no unit {sender_id} to pass the target")) };
    if x.id == firer.id {
        return bad("SW-OBS-4", format!("{} cannot relay a target to itself: it spots the target or it does not", firer.id));
    }
    if x.side != firer.side {
        return bad("SW-OBS-4", format!("{} is not a friendly unit: only a friendly squad passes a target (DFR)", x.id));
    }
    if !x.alive() || !x.on_table() {
        return bad(
            "SW-OBS-4",
            format!("{} is out of the fight or rides in a vehicle (EMB-3: it sees nothing from there): it passes no target", x.id),
        );
    }
    if x.panic {
        return bad("SW-PAN-1", format!("{} is panicked: a unit in rout passes no target (DFR)", x.id));
    }
    if x.platoon != firer.platoon {
        return bad(
            "SW-COMM-2",
            format!(
                "{} ({}) is not of {}'s platoon ({}): communication distances bind the squads of one platoon, and a target is passed only within them",
                x.id, x.platoon, firer.id, firer.platoon
            ),
        );
    }
    if s.comm_tests.iter().any(|c| c == &x.id) {
        return bad("SW-IFP-1", format!("{} has already made its communication test (DFR or IFR) this turn: one a turn", x.id));
    }
    if let Err(e) = spots(s, x, x.at, t) {
        return bad("SW-OBS-4", format!("{} cannot pass {}: it does not spot it itself ({}: {})", x.id, t.id, e.rule, e.message));
    }
    let (ok, gap, reach, clear) = comms(s, x, x.at, firer, at);
    if !ok {
        let how = if clear { "clear sight" } else { "sight between them blocked by terrain" };
        let (rule, by) = if reach >= RADIO_BLOCKED_MM { ("SW-COMM-3", "by radio") } else { ("SW-COMM-2", "by voice and signs") };
        return bad(
            rule,
            format!(
                "{} is {gap} mm from {} where it fires: beyond communication distance {by} ({} cm, {how}, E.5)",
                x.id,
                firer.id,
                reach / 10
            ),
        );
    }
    if spots(s, firer, at, t).is_ok() {
        return bad("SW-OBS-4", format!("{} spots {} itself: it needs no relay (fire without relayed_by)", firer.id, t.id));
    }
    let (vis, total, fire) = sight_samples(s, firer, at, t);
    if 2 * vis <= total {
        let why = match fire {
            Some(w) => format!("the {w} hides it (SW-LOS-6)"),
            None => format!("only {vis} of {total} sample points are clear"),
        };
        return bad(
            "SW-FIRE-1",
            format!(
                "{} has no clear line of fire to {}: {why}; a relayed target is fired on only with more than half of it in sight",
                firer.id, t.id
            ),
        );
    }
    Ok((vis, total))
}

/// Half-width of a weapon's arc in tenths (AIM-V, AIM-A, E.13), from its site.
pub(super) fn arc_half(site: &str) -> Option<u16> {
    Some(match site {
        "turret" | "coaxial" | "pintle" => 1800,
        "spg_fixed" => 150,
        "hull" | "casemate" => 220,
        // The E.32 guns all have the "wheels" icon: ±22° (E.13).
        "carriage" => 220,
        _ => return None,
    })
}

pub(super) fn band_of(w: &Weapon, gap_mm: u32) -> Option<Band> {
    let [sh, ef, lo] = w.range;
    if gap_mm <= sh? * 10 {
        Some(Band::Short)
    } else if gap_mm <= ef? * 10 {
        Some(Band::Effective)
    } else if lo.is_some_and(|l| gap_mm <= l * 10) {
        Some(Band::Long)
    } else {
        None
    }
}

/// Plan a Fire order: at a building (BLDF, its area id as the target, `aim` an opening or
/// the wall) or at a unit.
/// Which lines of a card [`lines_in_reach`] looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Lines {
    /// Light and heavy weapons (fire at a unit).
    All,
    /// Heavy weapons alone (fire at a building, BLDF-1: light weapons fire at the squads
    /// inside instead); the light ones are passed over without a reason.
    Heavy,
}

/// The armament lines of `firer`, at `at`, that can fire at the footprint `tfp` `gap` mm away:
/// (card index, shots a figure, range band). Lost weapons, a vehicle's or gun's crew arms
/// (they fire only dismounted), charges, flame, mortars and indirect fire (not built) are
/// passed over; a line out of its arc (AIM-V/AIM-A; infantry fire all round, AIM-I), out of
/// range (WPN-4) or with no shots at the firer's status (EFF-1, ARTM-4) adds its reason to `why`.
#[allow(clippy::too_many_arguments)]
pub(super) fn lines_in_reach(
    d: &data::Data,
    firer: &Unit,
    at: Point,
    tfp: &Footprint,
    gap: u32,
    moving: bool,
    lines: Lines,
    why: &mut Vec<String>,
) -> Vec<(usize, u32, Band)> {
    let mut out = Vec::new();
    for (i, line) in firer.card().armament.iter().enumerate() {
        let Some(w) = d.weapons.get(&line.w) else { continue };
        if firer.lost_weapons.contains(&i) || (lines == Lines::Heavy && w.class != "heavy") {
            continue;
        }
        let site = line.site.as_deref().unwrap_or("squad");
        if !firer.is_infantry() && matches!(site, "crew" | "sergeant") {
            continue;
        }
        if w.thrown || w.ammo.iter().any(|a| a == "F") || w.traj == "parabolic" || w.fire == "indirect" {
            continue;
        }
        if !firer.is_infantry() {
            let Some(half) = arc_half(site) else { continue };
            if !Arc::new(firer.heading, half).meets(at, tfp) {
                why.push(format!("{} ({site}) does not bear: ±{}° (AIM-V)", line.w, half / 10));
                continue;
            }
        }
        let Some(band) = band_of(w, gap) else {
            why.push(format!("{} is out of range at {gap} mm (WPN-4)", line.w));
            continue;
        };
        let per = if moving { w.shots[1] } else { w.shots[0] };
        let Some(per) = per.filter(|&n| n > 0) else {
            why.push(format!("{} has no Moving shots (EFF-1, ARTM-4)", line.w));
            continue;
        };
        out.push((i, per, band));
    }
    out
}

pub fn plan_order(s: &State, firer: &Unit, at: Point, moving: bool, f: &super::orders::Fire) -> Result<Plan, Vec<Violation>> {
    if let Some(sender) = &f.relayed_by {
        if s.unit(&f.target).is_none() {
            return Err(vec![v(
                "SW-OBS-4",
                format!(
                    "a DFR relay passes an enemy unit, not {}: a building is fired on only for the enemies spotted in it (BLDF-1)",
                    f.target
                ),
            )]);
        }
        if f.aim.is_some() {
            return Err(vec![v("SW-HW-1", format!("an aim (opening or wall) is given only for fire at a building; {} is none", f.target))]);
        }
        let mut p = plan_with(s, firer, at, moving, &f.target, Some(sender))?;
        p.relay = Some(sender.clone());
        return Ok(p);
    }
    if s.unit(&f.target).is_none() {
        if let Some(b) = super::building_fire::target(s, &f.target) {
            if firer.panic || firer.no_fire {
                return plan(s, firer, at, moving, &f.target);
            }
            return super::building_fire::plan(s, firer, at, moving, &b, f.aim.as_deref());
        }
        if s.ruins.contains(&f.target) {
            return Err(vec![v("SW-BLDF-5", format!("{} is ruins: fire at the squads in it", f.target))]);
        }
    }
    if f.aim.is_some() {
        return Err(vec![v("SW-HW-1", format!("an aim (opening or wall) is given only for fire at a building; {} is none", f.target))]);
    }
    plan(s, firer, at, moving, &f.target)
}

/// Plan the fire of `firer` (standing at `at`, having moved or about to move when `moving`)
/// at `target`: every check of FIRE-1, AIM, WPN, EFF-1. Errors name the rule.
pub fn plan(s: &State, firer: &Unit, at: Point, moving: bool, target_id: &str) -> Result<Plan, Vec<Violation>> {
    plan_with(s, firer, at, moving, target_id, None)
}

/// [`plan`], the target spotted by the firer itself or, with `relay`, passed to it by that
/// friendly unit (SW-OBS-4, checked by [`relayed`]).
fn plan_with(s: &State, firer: &Unit, at: Point, moving: bool, target_id: &str, relay: Option<&str>) -> Result<Plan, Vec<Violation>> {
    let d = data::data();
    let Some(t) = s.unit(target_id) else { return Err(vec![v("SW-OBS-1", format!("there is no unit {target_id}"))]) };
    if t.side == firer.side || !t.alive() {
        return Err(vec![v("SW-OBS-1", format!("{target_id} is not an enemy on the table"))]);
    }
    // EMB-5: passengers are hit through their vehicle, never aimed at on their own.
    if let Some(veh) = &t.aboard {
        return Err(vec![v(
            "SW-EMB-5",
            format!(
                "{target_id} rides in {veh}: fire at {veh} (heavy hits count its passengers as crew; light fire reaches them in an open-topped vehicle)"
            ),
        )]);
    }
    // EMB-5: light weapons reach the passengers of an armoured vehicle, behind its cover.
    let exposed = t.is_vehicle() && t.armoured() && !s.passengers(&t.id).is_empty();
    if firer.panic {
        return Err(vec![v("SW-PAN-1", format!("{} is panicked: recovery is its only action", firer.id))]);
    }
    if firer.no_fire {
        return Err(vec![v(
            "SW-MOR-1",
            format!(
                "{} failed its SF test this turn (NoFire): it may not fire until the manoeuvre phase ends; it may still move",
                firer.id
            ),
        )]);
    }
    let (vis, total) = match relay {
        None => spots(s, firer, at, t).map_err(|e| vec![e])?,
        Some(sender) => relayed(s, firer, at, t, sender)?,
    };
    // FIRE-1: more than half of the target visible.
    if 2 * vis <= total {
        return Err(vec![v(
            "SW-FIRE-1",
            format!("only {vis} of {total} sample points of {target_id} are visible: fire needs more than half"),
        )]);
    }
    let ffp = super::scenario::footprint(firer.card(), at, firer.heading);
    let tfp = t.footprint();
    let gap = ffp.gap_mm(&tfp);
    let one_survivor = firer.figures <= 1 && firer.crew_size() > 1;
    // BLDM-4: an occupant fires only through the openings of its floor that face the
    // target, so many figures an opening.
    let mut through = None;
    let mut at_openings = None;
    if let Some(i) = &firer.inside {
        let ops = super::buildings::facing_openings(s, firer, t.at);
        if ops.is_empty() {
            return Err(vec![v(
                "SW-BLDM-4",
                format!(
                    "no opening on floor {} of {} faces {target_id}: its occupants fire only through the openings of their floor",
                    i.floor, i.building
                ),
            )]);
        }
        let cap: u32 = ops.iter().map(|o| super::buildings::firers_per(o.kind)).sum();
        let n = cap.min(firer.figures);
        at_openings = Some(n);
        let list: Vec<String> = ops.iter().map(|o| format!("{} ({})", o.id, super::buildings::firers_per(o.kind))).collect();
        through = Some(format!(
            "{} fires from floor {} of {} through {}: {n} of its {} figures at the openings fire",
            firer.id,
            i.floor,
            i.building,
            list.join(", "),
            firer.figures
        ));
    }
    // Lines that may fire: (card index, per-figure shots, band, heavy).
    let mut able: Vec<(usize, u32, Band, bool)> = Vec::new();
    let mut heavy = Vec::new();
    let mut light: Vec<LightGroup> = Vec::new();
    let mut why = Vec::new();
    for (i, per, band) in lines_in_reach(d, firer, at, &tfp, gap, moving, Lines::All, &mut why) {
        let line = &firer.card().armament[i];
        let w = &d.weapons[&line.w];
        if w.class == "light" {
            // WPN-1: light weapons never fire at armoured units, but EMB-5 lets them
            // reach the passengers an armoured vehicle carries.
            if t.armoured() && !exposed {
                continue;
            }
            able.push((i, per, band, false));
        } else {
            if one_survivor {
                why.push(format!("{} has one survivor: no heavy weapons (CREW-1)", firer.id));
                continue;
            }
            if (i == main_gun(firer)) && firer.gun_jammed {
                why.push(format!("{} is jammed (DAM-3)", line.w));
                continue;
            }
            able.push((i, per, band, true));
        }
    }
    // BLDM-4: which figures stand at the openings is the owner's choice; with no choice
    // asked, the heavy weapons go first, then the light ones by shots a figure, ties in card
    // order (the G.1 default standing instruction).
    if at_openings.is_some() {
        able.sort_by_key(|&(i, per, _, h)| (!h, std::cmp::Reverse(per), i));
    }
    let mut left = at_openings;
    for (i, per, band, is_heavy) in able {
        let line = &firer.card().armament[i];
        let Some(w) = d.weapons.get(&line.w) else { continue };
        let n = match left.as_mut() {
            Some(l) => {
                let n = line.n.min(*l);
                *l -= n;
                n
            }
            None => line.n,
        };
        if n == 0 {
            why.push(format!("no figure with {} stands at an opening (BLDM-4)", line.w));
            continue;
        }
        let shots = per * n;
        if !is_heavy {
            match light.iter_mut().find(|g| g.band == band) {
                Some(g) => g.shots += shots,
                None => light.push(LightGroup { band, shots }),
            }
        } else {
            let ap = if t.armoured() {
                w.ammo.iter().any(|a| a == "AP")
            } else {
                !w.ammo.iter().any(|a| a == "HE") && w.ammo.iter().any(|a| a == "AP")
            };
            let cal = w.cal.map(|c| c.0).unwrap_or(0);
            heavy.push(HeavyLine { weapon: line.w.clone(), shots, band, shoulder: w.shoulder, ap, cal_tenths: cal });
        }
    }
    heavy.sort_by_key(|h| firer.card().armament.iter().position(|l| l.w == h.weapon));
    light.sort_by_key(|g| g.band);
    if heavy.is_empty() && light.is_empty() {
        let mut msg = format!("no weapon of {} can fire at {target_id}", firer.id);
        if !why.is_empty() {
            msg.push_str(&format!(": {}", why.join("; ")));
        }
        return Err(vec![v("SW-WPN-1", msg)]);
    }
    let (kind, _) = terrain_of(s, &tfp);
    let cover =
        if exposed { super::transport::passenger_cover(t) } else { data::data().terrain.get(&kind).map(|r| r.cover).unwrap_or('S') };
    Ok(Plan {
        firer: firer.id.clone(),
        target: target_id.to_string(),
        from: at,
        heavy,
        light,
        target_moving: t.seen_moving(),
        cover,
        through,
        aim: None,
        relay: None,
    })
}

/// The index of a unit's main gun: its first heavy weapon line.
pub fn main_gun(u: &Unit) -> usize {
    let d = data::data();
    u.card().armament.iter().position(|l| d.weapons.get(&l.w).is_some_and(|w| w.class == "heavy")).unwrap_or(usize::MAX)
}

pub fn face(d: u32) -> u32 {
    d + 1
}

/// The E.22 cover letter of the area a footprint is wholly on (EFF-4): S in the open.
pub fn cover_of(s: &State, fp: &Footprint) -> char {
    let (kind, _) = terrain_of(s, fp);
    data::data().terrain.get(&kind).map(|r| r.cover).unwrap_or('S')
}

/// SW-WPN-3: the cover that an HE round's effects (its hit on a figure, its fragments) meet.
/// Above 70 mm light cover no longer reduces them, above 122 mm medium cover neither (both
/// thresholds strict, as the original's "superiori a"); cover that no longer counts leaves the
/// figure as in the open (S). Heavy cover always counts, and AP or I rounds meet the cover
/// as it is.
pub fn he_cover(cover: char, he: bool, cal_tenths: u32) -> char {
    match cover {
        'L' if he && cal_tenths > HE_IGNORES_L => 'S',
        'M' if he && cal_tenths > HE_IGNORES_M => 'S',
        c => c,
    }
}

/// WPN-3: HE and the rounds that count as HE (grenades, magnetic mines, explosive, AA).
pub fn is_he(ammo: &str) -> bool {
    matches!(ammo, "HE" | "Bm" | "Mm" | "Ex" | "AA")
}

/// WPN-3 (TEXT): calibres, in tenths of a mm, above which HE ignores light and medium cover.
const HE_IGNORES_L: u32 = 700;
const HE_IGNORES_M: u32 = 1220;

/// The cover letter for an event, saying when an HE round's calibre set it aside (WPN-3).
pub fn cover_told(cover: char, met: char, cal_tenths: u32) -> String {
    if cover == met {
        cover.to_string()
    } else {
        let mm =
            if cal_tenths.is_multiple_of(10) { format!("{}", cal_tenths / 10) } else { format!("{}.{}", cal_tenths / 10, cal_tenths % 10) };
        format!("{cover}, which does not count against {mm} mm HE (SW-WPN-3)")
    }
}

/// S < L < M < P (EFF-4).
pub fn cover_rank(c: char) -> u8 {
    match c {
        'L' => 1,
        'M' => 2,
        'P' => 3,
        _ => 0,
    }
}

/// Kill `n` figures of `u`: soldiers first, then leaders from the lowest rank up (G.1
/// default instructions, AMB-30); `Unit::leader_cvs` reads which leaders are left.
pub fn kill(u: &mut Unit, n: u32) -> u32 {
    let n = n.min(u.figures);
    u.figures -= n;
    u.leaders = u.leaders.min(u.figures);
    if u.figures == 0 && u.is_infantry() {
        u.eliminated = true;
    }
    n
}

/// Row of the hit chart: die + AD, −2 against a moving target, 1..15.
fn hit_row(die: u32, ad: u32, moving: bool) -> u32 {
    let r = die + ad;
    let r = if moving { r.saturating_sub(2).max(1) } else { r };
    r.clamp(1, 15)
}

/// Resolve a planned fire with `dice`.
/// SW-TEST-DFR: `sender` passes the target of `p` to its firer: D6 + AD + CV of the sender
/// against a D10, a tie passes (TEST-TIE). Failed, the firer may not fire at that target:
/// it fires nothing, so it does not show the Firing marker (ST-1).
fn dfr(s: &mut State, sender: &str, p: &Plan, ev: &mut Vec<Event>, dice: &mut Dice) -> bool {
    let cv = s.unit(sender).map(|u| u.cv()).unwrap_or(0);
    let ad = s.unit(sender).map(|u| s.ad(&u.side)).unwrap_or(0);
    let a = face(dice.roll(6));
    let b = face(dice.roll(10));
    ev.push(Event::roll(format!("{sender} DFR to {}: D6", p.firer), "d6", a));
    ev.push(Event::roll(format!("{sender} DFR to {}: opposing D10", p.firer), "d10", b));
    let ok = a + ad + cv >= b;
    if ok {
        ev.push(Event::rule(
            "SW-TEST-DFR",
            format!("{sender} DFR {a}+{ad}+{cv} against {b}: it gets through, {} spots {} and fires", p.firer, p.target),
        ));
    } else {
        ev.push(Event::rule(
            "SW-TEST-DFR",
            format!("{sender} DFR {a}+{ad}+{cv} against {b}: it fails, {} may not fire at {} and fires nothing", p.firer, p.target),
        ));
        if let Some(f) = s.unit_mut(&p.firer) {
            f.fired = false;
        }
    }
    ok
}

pub fn resolve(s: &mut State, p: &Plan, dice: &mut Dice) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let Some(firer) = s.unit(&p.firer).cloned() else { return ev };
    let ad = s.ad(&firer.side);
    if let Some(sender) = &p.relay
        && !dfr(s, sender, p, &mut ev, dice)
    {
        return ev;
    }
    if let Some(aim) = &p.aim {
        return super::building_fire::resolve(s, p, aim, dice);
    }
    let mut ct: Vec<String> = Vec::new();
    if let Some(t) = &p.through {
        ev.push(Event::rule("SW-BLDM-4", t.clone()));
    }
    // HW-7: a heavy-weapon hit, whatever it does, calls for the target's SF test.
    let mut struck = false;
    for line in &p.heavy {
        for shot in 1..=line.shots {
            let Some(t) = s.unit(&p.target).cloned() else { break };
            if t.lost() {
                ev.push(Event::rule("SW-FIRE-1", format!("{} holds its remaining shots: {} is out of the fight (G.1)", p.firer, t.id)));
                break;
            }
            let die = if line.shoulder { 10 } else { line.band.die() };
            let roll = face(dice.roll(die));
            ev.push(Event::roll(format!("{} {} shot {shot} at {}: hit", p.firer, line.weapon, t.id), format!("d{die}"), roll));
            let row = hit_row(roll, ad, p.target_moving) as usize;
            let (colname, kind) = if t.is_infantry() {
                ("infantry", 0)
            } else if t.is_vehicle() && t.armoured() {
                ("armoured_vehicle", 1)
            } else if t.is_vehicle() {
                ("unarmoured_vehicle", 2)
            } else {
                ("gun", 3)
            };
            let word = d.tiro.get(colname).map(|c| c[row].clone()).unwrap_or_else(|| "miss".into());
            if word == "miss" {
                ev.push(Event::rule("SW-HW-3", format!("row {row} on TIRO ({colname}): miss")));
                continue;
            }
            struck = true;
            match kind {
                0 => {
                    // HW-5: the aimed figure dies if its cover is lower than the letter.
                    let letter = word.chars().next().unwrap_or('S');
                    let he = !line.ap && d.weapons.get(&line.weapon).is_some_and(|w| w.ammo.iter().any(|a| is_he(a)));
                    let cover = he_cover(p.cover, he, line.cal_tenths);
                    let told = cover_told(p.cover, cover, line.cal_tenths);
                    let kills = word == "any" || cover_rank(cover) < cover_rank(letter);
                    if kills && let Some(u) = s.unit_mut(&p.target) {
                        kill(u, 1);
                        ev.push(Event::rule("SW-HW-5", format!("row {row}: {word} beats cover {told}: one figure of {} dies", t.id)));
                        push_ct(&mut ct, &t.id);
                    } else {
                        ev.push(Event::rule("SW-HW-5", format!("row {row}: {word}, but cover {told} protects {}", t.id)));
                    }
                }
                1 => {
                    let c = t.card();
                    let has_turret = c.turret.is_some() || c.casemate.is_some();
                    let part = if word == "turret" && !has_turret { "hull".to_string() } else { word.clone() };
                    let armour = c.armour.clone().unwrap_or_default();
                    let (plate, ge75, col) = if part == "a_scelta" {
                        if c.open_topped {
                            ev.push(Event::rule(
                                "SW-EFF-6",
                                format!("row {row}: A scelta on the open top of {}: straight to effects", t.id),
                            ));
                            ev.extend(effects(s, &p.target, "top_opening", dice, &mut ct));
                            continue;
                        }
                        (armour.horizontal, false, "hull")
                    } else {
                        let plates = if part == "turret" { armour.turret.or(armour.hull) } else { armour.hull };
                        let plates = plates.unwrap_or([0, 0, 0]);
                        let w = Vector { x: i64::from(t.at.x - p.from.x), y: i64::from(t.at.y - p.from.y) };
                        let pick = |f: Face| -> (u32, bool) {
                            let th = match f {
                                Face::Front => plates[0],
                                Face::Left | Face::Right => plates[1],
                                Face::Rear => plates[2],
                            };
                            (th, f.impact_at_least(t.heading, w, 750))
                        };
                        let (th, ge) = match struck_face(p.from, &t.footprint()) {
                            Some(Struck::Face(f)) => pick(f),
                            // D.1: at a corner the larger impact angle wins, then the thicker plate.
                            Some(Struck::Corner(f, g)) => {
                                let (a, b) = (pick(f), pick(g));
                                if (a.1, a.0) >= (b.1, b.0) { a } else { b }
                            }
                            None => (plates[0], true),
                        };
                        (th, ge, if part == "turret" { "turret" } else { "hull" })
                    };
                    let pdie = if line.shoulder { 10 } else { line.band.die() };
                    let proll = face(dice.roll(pdie));
                    let cell = d.pen_cell(line.ap, ge75, line.cal_tenths, plate);
                    ev.push(Event::roll(
                        format!("{} penetration: {part}, {plate} mm, {}", p.firer, if ge75 { ">= 75°" } else { "< 75°" }),
                        format!("d{pdie}"),
                        proll,
                    ));
                    match cell {
                        Some(need) if need <= proll => {
                            ev.push(Event::rule("SW-PEN-1", format!("needs {need}: penetrates {}'s {part}", t.id)));
                            ev.extend(effects(s, &p.target, col, dice, &mut ct));
                        }
                        _ => {
                            let need = cell.map(|n| n.to_string()).unwrap_or_else(|| "X".into());
                            ev.push(Event::rule("SW-PEN-1", format!("needs {need}: the shot bounces off {}", t.id)));
                        }
                    }
                }
                2 => ev.extend(effects(s, &p.target, "unarmoured", dice, &mut ct)),
                _ => ev.extend(effects(s, &p.target, "gun", dice, &mut ct)),
            }
        }
    }
    for g in &p.light {
        let Some(t) = s.unit(&p.target).cloned() else { break };
        if t.lost() {
            break;
        }
        let die = g.band.die();
        let roll = face(dice.roll(die));
        ev.push(Event::roll(format!("{} light fire, {} shots ({:?} band) at {}", p.firer, g.shots, g.band, t.id), format!("d{die}"), roll));
        let row = hit_row(roll, ad, p.target_moving);
        let col = match g.shots {
            0..=2 => 0,
            3..=5 => 1,
            6..=9 => 2,
            10..=14 => 3,
            15..=20 => 4,
            21..=27 => 5,
            28..=35 => 6,
            36..=45 => 7,
            46..=60 => 8,
            _ => 9,
        };
        let group = match p.cover {
            'S' => "S",
            'L' => "L",
            _ => "MP",
        };
        if t.is_vehicle() && !t.armoured() {
            // LW-3: the unarmoured-vehicle chart (E.25), shots column only: terrain cover
            // plays no part (the text cites only the moving-target rule). The losses fall on
            // crew and passengers together, in the AMB-30 order (the owner's choice, G.1).
            let lost = d.light_unarmoured.get(&row).map(|r| r[col]).unwrap_or(0);
            let n = kill_aboard(s, &t.id, lost);
            ev.push(Event::rule(
                "SW-LW-3",
                format!("row {row}, {} shots on the unarmoured-vehicle chart: {n} of the crew and passengers of {} lost", g.shots, t.id),
            ));
            if s.unit(&t.id).is_some_and(|u| u.figures == 0) {
                ev.push(Event::rule("SW-AMB-26", format!("{} has no crew left: it is abandoned", t.id)));
            }
            continue;
        }
        let lost = d.light_inf.get(group).and_then(|m| m.get(&row)).map(|r| r[col]).unwrap_or(0);
        if t.is_vehicle() && t.armoured() {
            // EMB-5: the passengers take the losses, not the armoured vehicle's crew.
            let n = kill_passengers(s, &t.id, lost);
            ev.push(Event::rule(
                "SW-EMB-5",
                format!("row {row}, {} shots, passengers' cover {group}: {n} passenger(s) in {} lost", g.shots, t.id),
            ));
            continue;
        }
        let n = s.unit_mut(&p.target).map(|u| kill(u, lost)).unwrap_or(0);
        ev.push(Event::rule("SW-LW-2", format!("row {row}, {} shots, cover {group}: {n} figure(s) of {} lost", g.shots, t.id)));
    }
    // The CTs the action triggered, in the order the units were first affected (G.1).
    for id in ct {
        ev.extend(courage(s, &id, dice, "SW-TEST-CT"));
    }
    if struck {
        ev.extend(skip_fire(s, &p.target, dice));
    }
    ev
}

/// TEST-SF (HW-7): a unit struck by a heavy weapon before it has fired this turn tests D6 +
/// AD + CV against a D10 (a tie passes); failing, it is marked NoFire until the end of the
/// manoeuvre phase (MOR-1). It comes after the action's CTs. No roll is made when its outcome
/// could change nothing: for a unit that has acted this turn (it cannot act again), one the
/// CT panicked, one already NoFire, or one out of the fight.
pub fn skip_fire(s: &mut State, id: &str, dice: &mut Dice) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    if !u.alive() || u.panic || u.acted || u.no_fire {
        return vec![];
    }
    let ad = s.ad(&u.side);
    let a = face(dice.roll(6));
    let b = face(dice.roll(10));
    let score = a + ad + u.cv();
    let mut ev = vec![Event::roll(format!("{id} SF: D6"), "d6", a), Event::roll(format!("{id} SF: opposing D10"), "d10", b)];
    if score >= b {
        ev.push(Event::rule("SW-TEST-SF", format!("{id} passes its SF test ({a}+{ad}+{} = {score} against {b}; a tie passes)", u.cv())));
    } else {
        if let Some(m) = s.unit_mut(id) {
            m.no_fire = true;
        }
        ev.push(Event::rule(
            "SW-TEST-SF",
            format!("{id} fails its SF test ({score} against {b}): NoFire, it takes cover and will not fire this turn (SW-MOR-1)"),
        ));
    }
    ev
}

pub fn push_ct(ct: &mut Vec<String>, id: &str) {
    if !ct.iter().any(|x| x == id) {
        ct.push(id.to_string());
    }
}

/// A CT (E.6): D6 + AD + CV against a D8, a tie passes; a failure panics (PAN-1). Returns
/// the events; the unit's panic flag is set.
pub fn courage(s: &mut State, id: &str, dice: &mut Dice, rule: &str) -> Vec<Event> {
    let Some(u) = s.unit(id).cloned() else { return vec![] };
    if !u.alive() || u.panic {
        return vec![];
    }
    let ad = s.ad(&u.side);
    let a = face(dice.roll(6));
    let b = face(dice.roll(8));
    let score = a + ad + u.cv();
    let mut ev = vec![Event::roll(format!("{id} CT: D6"), "d6", a), Event::roll(format!("{id} CT: opposing D8"), "d8", b)];
    if score >= b {
        ev.push(Event::rule(rule, format!("{id} passes its CT ({a}+{ad}+{} = {score} against {b}; a tie passes)", u.cv())));
    } else {
        if let Some(m) = s.unit_mut(id) {
            m.panic = true;
        }
        ev.push(Event::rule("SW-PAN-1", format!("{id} fails its CT ({score} against {b}) and panics")));
    }
    ev
}

/// One effects roll (E.28) with DAM-4 escalation.
fn effects(s: &mut State, id: &str, col: &str, dice: &mut Dice, ct: &mut Vec<String>) -> Vec<Event> {
    let roll = face(dice.roll(10));
    let mut ev = vec![Event::roll(format!("{id} effects ({col})"), "d10", roll)];
    ev.extend(apply_effects(s, id, col, roll, ct));
    ev
}

/// Apply the E.28 result of effects roll `roll` (1..10) in column `col` to unit `id`, with
/// DAM-4 escalation on the unit as it stands.
pub fn apply_effects(s: &mut State, id: &str, col: &str, roll: u32, ct: &mut Vec<String>) -> Vec<Event> {
    let d = data::data();
    let mut ev = Vec::new();
    let Some(rows) = d.effects.get(col) else { return ev };
    let Some(u) = s.unit(id).cloned() else { return ev };
    let mut row = roll as usize;
    // DAM-4: a result on a part already lost moves down a row (row 10 is the last).
    loop {
        let text = &rows[row];
        if row >= 10 || !escalates(&u, text) {
            break;
        }
        ev.push(Event::rule("SW-DAM-4", format!("{text}: the part is already lost, row {} instead", row + 1)));
        row += 1;
    }
    let text = rows[row].clone();
    // EMB-5: passengers count as crew when a heavy weapon hits their vehicle.
    let riders: Vec<String> = s.passengers(id).iter().map(|p| p.id.clone()).collect();
    let aboard: u32 = s.passengers(id).iter().map(|p| p.figures).sum();
    let Some(m) = s.unit_mut(id) else { return ev };
    let pool = m.figures + aboard;
    let mut crew_dead = 0;
    for part in text.split(" + ").map(str::trim) {
        match part {
            "none" => {}
            "CT" => push_ct(ct, id),
            "short" => m.mobility = m.mobility.max(1),
            "cautious" => m.mobility = m.mobility.max(2),
            "track_or_wheel" => m.mobility = m.mobility.max(3),
            "immobilised" => m.mobility = 4,
            "jammed" => m.gun_jammed = true,
            "gun" => {
                let g = main_gun(m);
                if g != usize::MAX && !m.lost_weapons.contains(&g) {
                    m.lost_weapons.push(g);
                }
            }
            "weapon" => {
                // DAM-2: the coaxial (turret) or the hull weapon; none left → marked.
                let site = if col == "turret" { "coaxial" } else { "hull" };
                let idx = m
                    .card()
                    .armament
                    .iter()
                    .enumerate()
                    .find(|(i, l)| l.site.as_deref() == Some(site) && !m.lost_weapons.contains(i))
                    .map(|(i, _)| i);
                match idx {
                    Some(i) => m.lost_weapons.push(i),
                    None => m.weapon_mark = true,
                }
            }
            "destroyed" => m.destroyed = true,
            "burning" => m.burning = true,
            "exploded" => {
                m.exploded = true;
                m.destroyed = true;
            }
            "all dead" => crew_dead += pool,
            "half dead" => crew_dead += pool.div_ceil(2),
            other => {
                if let Some(n) = other.strip_suffix(" dead").and_then(|n| n.parse::<u32>().ok()) {
                    crew_dead += n;
                }
            }
        }
    }
    // WRECK-2: an explosion kills everyone aboard.
    if m.exploded {
        crew_dead = pool;
    }
    let dead = if riders.is_empty() { kill(m, crew_dead) } else { kill_aboard(s, id, crew_dead) };
    let Some(m) = s.unit_mut(id) else { return ev };
    if m.figures == 0 && !m.is_infantry() {
        m.destroyed = m.destroyed || m.is_vehicle() || m.card().kind == "artillery";
    }
    let destroyed = m.destroyed;
    if riders.is_empty() {
        ev.push(Event::rule("SW-DAM-1", format!("row {row}: {text} ({dead} of the crew dead)")));
    } else {
        ev.push(Event::rule("SW-DAM-1", format!("row {row}: {text} ({dead} of the crew and passengers dead, EMB-5)")));
        // The vehicle's CT is its passengers' too.
        if text.split(" + ").any(|x| x.trim() == "CT") {
            for r in &riders {
                if s.unit(r).is_some_and(|p| p.alive()) {
                    push_ct(ct, r);
                }
            }
        }
        if destroyed {
            ev.extend(super::transport::bail_out(s, id));
        }
    }
    ev
}

/// AMB-30: `n` deaths among the crew and passengers of vehicle `id`: the crew's soldiers,
/// then the passengers' soldiers (by squad id), then the crew's leaders, then the
/// passengers' leaders. Returns the deaths.
fn kill_aboard(s: &mut State, id: &str, n: u32) -> u32 {
    let mut left = n;
    let mut take = |u: &mut Unit, leaders_too: bool| {
        let can = if leaders_too { u.figures } else { u.figures - u.leaders.min(u.figures) };
        let k = left.min(can);
        left -= kill(u, k);
    };
    let riders: Vec<String> = s.passengers(id).iter().map(|p| p.id.clone()).collect();
    for pass in [false, true] {
        if let Some(m) = s.unit_mut(id) {
            take(m, pass);
        }
        for r in &riders {
            if let Some(p) = s.unit_mut(r) {
                take(p, pass);
            }
        }
    }
    n - left
}

/// EMB-5: `n` figures lost among the passengers of vehicle `id` (soldiers first, by squad
/// id), as light fire kills them. Returns the losses.
pub fn kill_passengers(s: &mut State, id: &str, n: u32) -> u32 {
    let riders: Vec<String> = s.passengers(id).iter().map(|p| p.id.clone()).collect();
    let mut left = n;
    for pass in [false, true] {
        for r in &riders {
            if let Some(p) = s.unit_mut(r) {
                let can = if pass { p.figures } else { p.figures - p.leaders.min(p.figures) };
                left -= kill(p, left.min(can));
            }
        }
    }
    n - left
}

/// Whether an effects result concerns a part already destroyed or compromised (DAM-4).
fn escalates(u: &Unit, text: &str) -> bool {
    let parts: Vec<&str> = text.split(" + ").map(str::trim).collect();
    let mob = |lvl: u8| u.mobility >= lvl;
    parts.iter().any(|p| match *p {
        "short" => mob(1),
        "cautious" => mob(2),
        "track_or_wheel" => mob(4),
        "immobilised" => mob(4),
        "jammed" => u.gun_jammed || u.lost_weapons.contains(&main_gun(u)),
        "gun" => main_gun(u) == usize::MAX || u.lost_weapons.contains(&main_gun(u)),
        "weapon" => u.weapon_mark,
        _ => false,
    })
}

/// The heading from one point to another, for bots and pictures.
pub fn bearing(a: Point, b: Point) -> Option<Heading> {
    Heading::between(a, b)
}

#[cfg(test)]
mod tests {
    use super::he_cover;

    /// WPN-3: the thresholds are strict ("superiori a"), HE only, and heavy cover always holds.
    #[test]
    fn he_cover_thresholds() {
        assert_eq!(he_cover('L', true, 700), 'L');
        assert_eq!(he_cover('L', true, 701), 'S');
        assert_eq!(he_cover('L', true, 750), 'S');
        assert_eq!(he_cover('M', true, 1050), 'M');
        assert_eq!(he_cover('M', true, 1220), 'M');
        assert_eq!(he_cover('M', true, 1221), 'S');
        assert_eq!(he_cover('L', true, 1500), 'S');
        assert_eq!(he_cover('P', true, 1500), 'P');
        assert_eq!(he_cover('S', true, 1500), 'S');
        assert_eq!(he_cover('L', false, 750), 'L');
        assert_eq!(he_cover('M', false, 1500), 'M');
    }
}
