//! The scenario file (`scenarios/steel-wheels/*.yaml`): the table, its terrain, the two
//! forces and the victory terms, read into [`RawScenario`] and checked into [`Scenario`].
//! Unit cards, weapons and charts come from the versioned data (`data.rs`), which the
//! scenario pins by `data`.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::{self, Card};
use crate::engine::ScenarioError;
use crate::geo::table::{AreaSight, Footprint, Heading, LinearFeature, Path, Point, Polygon, TerrainArea};

/// A point written `[x, y]` in mm.
pub type Xy = [i32; 2];

/// A point from `[x, y]`, within the geometry's limits.
pub fn point(xy: Xy) -> Option<Point> {
    Point::checked(i64::from(xy[0]), i64::from(xy[1]))
}

/// The scenario as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    /// The data version the battle was made for (`sw-representative-1`).
    pub data: String,
    /// `advance` or `assault`: the attacker declares first every turn (MAN-2).
    pub battle: String,
    pub attacker: String,
    pub turns: u32,
    /// [width, height] in mm.
    pub table_mm: [i32; 2],
    #[serde(default)]
    pub terrain: Vec<RawArea>,
    #[serde(default)]
    pub linears: Vec<RawLinear>,
    pub sides: Vec<RawSide>,
    pub platoons: Vec<RawPlatoon>,
    pub units: Vec<RawUnit>,
    /// Batteries firing indirectly (SW-IFP): off the table, each with its observing officer
    /// among the units.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub batteries: Vec<Battery>,
    /// Terrain element ids that are objectives (SW-VIC-2).
    #[serde(default)]
    pub objectives: Vec<String>,
    pub victory: Victory,
    /// What the infantry rules need of each building (SW-BLDM): its floors and its openings.
    /// A building area with no entry here has no access point: nobody enters it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<RawBuilding>,
}

/// A building's floors and openings (SW-BLDM-2..5). The rulebook gives no building: these
/// are authored with the battle (REPRESENTATIVE data, replaceable without code changes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBuilding {
    /// The area element (a building row of E.22: move code B) this describes.
    pub area: String,
    /// Floors, the ground floor included (1 to 5).
    pub floors: u8,
    pub openings: Vec<RawOpening>,
}

/// One opening of a building: its kind, its floor (0 = ground floor) and the zone it
/// occupies on the table, a convex polygon across the wall (the threshold).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOpening {
    pub id: String,
    /// `door`, `window`, `gate`, `gap` or `loophole`.
    pub kind: String,
    #[serde(default)]
    pub floor: u8,
    pub zone: Vec<Xy>,
}

/// The kinds of opening (BLDM-2/4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningKind {
    Door,
    Window,
    Gate,
    Gap,
    Loophole,
}

impl OpeningKind {
    fn parse(s: &str) -> Option<OpeningKind> {
        Some(match s {
            "door" => OpeningKind::Door,
            "window" => OpeningKind::Window,
            "gate" => OpeningKind::Gate,
            "gap" => OpeningKind::Gap,
            "loophole" => OpeningKind::Loophole,
            _ => return None,
        })
    }
    /// BLDM-2: a squad comes in or goes out through a door, a window or a gap (the
    /// original's "porta, finestra, buca"); a gate is a wide door. A loophole is for fire.
    pub fn is_access(self) -> bool {
        !matches!(self, OpeningKind::Loophole)
    }
}

/// An opening, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    pub id: String,
    pub kind: OpeningKind,
    pub floor: u8,
    pub zone: Polygon,
}

/// A building, checked: an area element with floors and openings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Building {
    pub area: String,
    pub floors: u8,
    pub openings: Vec<Opening>,
}

/// An area element.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawArea {
    pub id: String,
    /// An E.22 row (`wood`, `stone_house`, `road`, ...).
    pub kind: String,
    pub polygon: Vec<Xy>,
}

/// A linear element (hedge, wall).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLinear {
    pub id: String,
    pub kind: String,
    pub line: Vec<Xy>,
    pub thickness_mm: u32,
}

/// A side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub id: String,
    pub name: String,
    /// The army of the roster (`US`, `DE`).
    pub army: String,
    /// AD of every unit (E.3): 0 recruits .. 3 elite.
    pub ad: u32,
}

/// A platoon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlatoon {
    pub id: String,
    pub side: String,
}

/// A unit at its deployment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub id: String,
    pub platoon: String,
    /// A card of the side's army (E.32).
    pub card: String,
    pub at: Xy,
    /// Tenths of a degree, 0 = +x, counter-clockwise.
    pub heading: u16,
}

/// A battery (IFP): a roster card of the side's army that stays off the table (the E.32
/// `battery_105`), and the unit whose officer observes and orders its fire (IFP-2: a captain
/// or a battery lieutenant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Battery {
    pub id: String,
    pub side: String,
    pub card: String,
    pub observer: String,
}

/// The victory terms (SW-VIC).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub destruction: bool,
    pub conquest: bool,
}

/// An area element, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    pub id: String,
    pub kind: String,
    pub polygon: Polygon,
}

/// A linear element, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Linear {
    pub id: String,
    pub kind: String,
    pub feature: LinearFeature,
}

/// A unit's deployment, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deploy {
    pub id: String,
    pub platoon: String,
    pub side: String,
    pub card: String,
    pub at: Point,
    pub heading: Heading,
}

/// The scenario the rules rely on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub name: String,
    pub battle: String,
    pub attacker: String,
    pub turns: u32,
    pub width_mm: i32,
    pub height_mm: i32,
    pub areas: Vec<Area>,
    pub linears: Vec<Linear>,
    pub sides: Vec<RawSide>,
    pub platoons: Vec<RawPlatoon>,
    pub units: Vec<Deploy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub batteries: Vec<Battery>,
    pub objectives: Vec<String>,
    pub victory: Victory,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<Building>,
}

/// Whether a polygon is convex (every turn the same way), as an opening's zone must be so
/// that "wholly inside" and "meets the outline inside it" stay exact and simple.
fn convex(poly: &Polygon) -> bool {
    let v = poly.vertices();
    let n = v.len();
    let mut sign = 0i128;
    for i in 0..n {
        let o = crate::geo::table::point::orient(v[i], v[(i + 1) % n], v[(i + 2) % n]).signum();
        if o != 0 {
            if sign != 0 && o != sign {
                return false;
            }
            sign = o;
        }
    }
    sign != 0
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 24 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl Scenario {
    /// Parse and check a scenario text.
    pub fn from_text(text: &str) -> Result<Scenario, ScenarioError> {
        let raw: RawScenario =
            crate::log::yamlscan::from_str(text).map_err(|e| ScenarioError { problems: vec![format!("cannot read the scenario: {e}")] })?;
        Scenario::check(raw)
    }

    /// Check a raw scenario, listing every problem.
    pub fn check(raw: RawScenario) -> Result<Scenario, ScenarioError> {
        let d = data::data();
        let mut p = Vec::new();
        if raw.data != d.version {
            p.push(format!("the battle was made for data {}, this umpire carries {}", raw.data, d.version));
        }
        if !matches!(raw.battle.as_str(), "advance" | "assault") {
            p.push(format!("battle {}: this slice plays advance and assault (the attacker declares first, MAN-2)", raw.battle));
        }
        if raw.sides.len() != 2 {
            p.push("a battle has two sides".into());
        }
        if !raw.sides.iter().any(|s| s.id == raw.attacker) {
            p.push(format!("attacker {} is not a side", raw.attacker));
        }
        let [w, h] = raw.table_mm;
        if !(1000..=3000).contains(&w) || !(1000..=3000).contains(&w.max(h)) || h < 1000 || h > w {
            p.push(format!("table {w}×{h} mm: the long side first, the short side at least 100 cm (SW-SCALE)"));
        }
        if raw.turns == 0 || raw.turns > 10 {
            p.push("a battle lasts 1 to 10 turns (SW-DUR)".into());
        }
        let mut ids = BTreeSet::new();
        let mut areas = Vec::new();
        for a in &raw.terrain {
            if !ids.insert(a.id.clone()) || !valid_id(&a.id) {
                p.push(format!("terrain id {:?} is repeated or not letters, digits and -", a.id));
            }
            if !d.terrain.contains_key(&a.kind) {
                p.push(format!("terrain {}: no E.22 row {}", a.id, a.kind));
            }
            match a.polygon.iter().map(|&xy| point(xy)).collect::<Option<Vec<_>>>().map(Polygon::new) {
                Some(Ok(poly)) => areas.push(Area { id: a.id.clone(), kind: a.kind.clone(), polygon: poly }),
                Some(Err(e)) => p.push(format!("terrain {}: {e:?}", a.id)),
                None => p.push(format!("terrain {}: a point is out of range", a.id)),
            }
        }
        let mut linears = Vec::new();
        for l in &raw.linears {
            if !ids.insert(l.id.clone()) || !valid_id(&l.id) {
                p.push(format!("terrain id {:?} is repeated or not letters, digits and -", l.id));
            }
            let Some(row) = d.terrain.get(&l.kind) else {
                p.push(format!("linear {}: no E.22 row {}", l.id, l.kind));
                continue;
            };
            match l.line.iter().map(|&xy| point(xy)).collect::<Option<Vec<_>>>().map(Path::new) {
                Some(Ok(line)) => linears.push(Linear {
                    id: l.id.clone(),
                    kind: l.kind.clone(),
                    feature: LinearFeature { line, thickness_mm: l.thickness_mm, blocks_sight: row.sight == "obstacle" },
                }),
                _ => p.push(format!("linear {}: a bad line", l.id)),
            }
        }
        for o in &raw.objectives {
            if !areas.iter().any(|a| &a.id == o) {
                p.push(format!("objective {o} is not an area element"));
            }
        }
        if raw.victory.conquest && !(raw.objectives.len() == 1 || raw.objectives.len() == 3) {
            p.push("conquest needs 1 or 3 objectives (SW-VIC-2)".into());
        }
        for s in &raw.sides {
            if !valid_id(&s.id) || s.ad > 3 || !d.units.contains_key(&s.army) {
                p.push(format!("side {}: a bad id, AD above 3 or an army the roster lacks", s.id));
            }
        }
        for pl in &raw.platoons {
            if !valid_id(&pl.id) || !raw.sides.iter().any(|s| s.id == pl.side) {
                p.push(format!("platoon {}: a bad id or side", pl.id));
            }
        }
        let mut units = Vec::new();
        let mut uids = BTreeSet::new();
        for u in &raw.units {
            if !uids.insert(u.id.clone()) || !valid_id(&u.id) {
                p.push(format!("unit id {:?} is repeated or not letters, digits and -", u.id));
            }
            let Some(pl) = raw.platoons.iter().find(|x| x.id == u.platoon) else {
                p.push(format!("unit {}: no platoon {}", u.id, u.platoon));
                continue;
            };
            let army = raw.sides.iter().find(|s| s.id == pl.side).map(|s| s.army.clone()).unwrap_or_default();
            let Some(card) = d.card(&army, &u.card) else {
                p.push(format!("unit {}: the {army} roster has no card {}", u.id, u.card));
                continue;
            };
            if card.kind == "artillery" && card.model_mm.is_none() && card.crew.is_none() {
                p.push(format!("unit {}: card {} is an off-table battery, not built", u.id, u.card));
            }
            let (Some(at), Ok(heading)) = (point(u.at), Heading::try_from(i64::from(u.heading))) else {
                p.push(format!("unit {}: a bad position or heading", u.id));
                continue;
            };
            units.push(Deploy { id: u.id.clone(), platoon: u.platoon.clone(), side: pl.side.clone(), card: u.card.clone(), at, heading });
        }
        for b in &raw.batteries {
            let army = raw.sides.iter().find(|s| s.id == b.side).map(|s| s.army.clone()).unwrap_or_default();
            if !valid_id(&b.id) || b.id.len() > 12 || !uids.insert(b.id.clone()) {
                p.push(format!("battery {:?}: a bad or repeated id (letters, digits and -, at most 12)", b.id));
            }
            match d.card(&army, &b.card) {
                Some(c) if c.off_table && c.kind == "artillery" => {}
                _ => p.push(format!(
                    "battery {}: the {army} roster has no off-table battery {} (on-table batteries are not built)",
                    b.id, b.card
                )),
            }
            let obs = units.iter().find(|u| u.id == b.observer);
            let officer = obs
                .and_then(|u| d.card(&army, &u.card))
                .and_then(|c| c.crew.as_ref())
                .is_some_and(|c| c.leaders.first().is_some_and(|r| r == "captain" || r == "lieutenant"));
            if obs.is_none_or(|u| u.side != b.side) || !officer {
                p.push(format!(
                    "battery {}: observer {} is not a unit of {} led by a captain or lieutenant (SW-IFP-2)",
                    b.id, b.observer, b.side
                ));
            }
        }
        let mut buildings = Vec::new();
        for b in &raw.buildings {
            let Some(area) = areas.iter().find(|a| a.id == b.area) else {
                p.push(format!("building {}: no area element of that id", b.area));
                continue;
            };
            if d.terrain.get(&area.kind).is_none_or(|r| r.moves[0] != data::MoveCode::Building) {
                p.push(format!("building {}: its terrain {} is not a building (E.22 move code B)", b.area, area.kind));
            }
            if buildings.iter().any(|x: &Building| x.area == b.area) {
                p.push(format!("building {}: described twice", b.area));
            }
            if !(1..=5).contains(&b.floors) {
                p.push(format!("building {}: 1 to 5 floors", b.area));
            }
            let mut openings = Vec::new();
            for o in &b.openings {
                let Some(kind) = OpeningKind::parse(&o.kind) else {
                    p.push(format!("building {}: opening {} of unknown kind {} (door, window, gate, gap, loophole)", b.area, o.id, o.kind));
                    continue;
                };
                if !ids.insert(o.id.clone()) || !valid_id(&o.id) {
                    p.push(format!("opening id {:?} is repeated or not letters, digits and -", o.id));
                }
                if o.floor >= b.floors {
                    p.push(format!("building {}: opening {} on floor {} of {}", b.area, o.id, o.floor, b.floors));
                }
                match o.zone.iter().map(|&xy| point(xy)).collect::<Option<Vec<_>>>().map(Polygon::new) {
                    Some(Ok(zone)) => {
                        // The zone lies across the wall: part inside the outline, part outside.
                        let inner = zone.vertices().iter().any(|&q| area.polygon.contains_strictly(q));
                        let outer = zone.vertices().iter().any(|&q| !area.polygon.contains(q));
                        if !convex(&zone) || !inner || !outer {
                            p.push(format!("building {}: opening {} must be a convex zone across the wall", b.area, o.id));
                        }
                        openings.push(Opening { id: o.id.clone(), kind, floor: o.floor, zone });
                    }
                    _ => p.push(format!("building {}: opening {} has a bad zone", b.area, o.id)),
                }
            }
            buildings.push(Building { area: b.area.clone(), floors: b.floors, openings });
        }
        if !p.is_empty() {
            return Err(ScenarioError { problems: p });
        }
        Ok(Scenario {
            name: raw.name,
            battle: raw.battle,
            attacker: raw.attacker,
            turns: raw.turns,
            width_mm: w,
            height_mm: h,
            areas,
            linears,
            sides: raw.sides,
            platoons: raw.platoons,
            units,
            batteries: raw.batteries,
            objectives: raw.objectives,
            victory: raw.victory,
            buildings,
        })
    }

    /// The building data of area `id` (SW-BLDM), if it has any.
    pub fn building(&self, id: &str) -> Option<&Building> {
        self.buildings.iter().find(|b| b.area == id)
    }
    /// Areas whose move code is B (E.22): buildings, bunkers, casemates.
    pub fn building_areas(&self) -> impl Iterator<Item = &Area> {
        let d = data::data();
        self.areas.iter().filter(move |a| d.terrain.get(&a.kind).is_some_and(|r| r.moves[0] == data::MoveCode::Building))
    }

    pub fn side(&self, id: &str) -> Option<&RawSide> {
        self.sides.iter().find(|s| s.id == id)
    }
    /// The other side.
    pub fn other(&self, side: &str) -> &str {
        self.sides.iter().find(|s| s.id != side).map(|s| s.id.as_str()).unwrap_or("")
    }
    pub fn area(&self, id: &str) -> Option<&Area> {
        self.areas.iter().find(|a| a.id == id)
    }
    /// Areas as the sight code wants them (woods, buildings, ruins screen with the 4 cm
    /// rule, LOS-1/2, AMB-27).
    pub fn sight_areas(&self) -> Vec<TerrainArea> {
        let d = data::data();
        self.areas
            .iter()
            .map(|a| TerrainArea {
                polygon: a.polygon.clone(),
                sight: match d.terrain.get(&a.kind).map(|r| r.sight.as_str()) {
                    Some("edge") => AreaSight::Screening { edge_depth_mm: 40 },
                    _ => AreaSight::Clear,
                },
            })
            .collect()
    }
    /// The table as a polygon.
    pub fn table(&self) -> Polygon {
        let (w, h) = (self.width_mm, self.height_mm);
        Polygon::new(vec![Point { x: 0, y: 0 }, Point { x: w, y: 0 }, Point { x: w, y: h }, Point { x: 0, y: h }]).expect("a rectangle")
    }
    /// The area element `fp` lies wholly on (TERR-1), if any: the last listed one wins.
    pub fn area_of(&self, fp: &Footprint) -> Option<&Area> {
        self.areas.iter().rev().find(|a| a.polygon.contains_footprint(fp))
    }
}

/// A unit's footprint from its card: the model's length and width (1/72, E.32), or the
/// representative squad base for infantry, or the gun base.
pub fn footprint(card: &Card, at: Point, heading: Heading) -> Footprint {
    let d = data::data();
    let (l, w) = match (&card.model_mm, card.kind.as_str()) {
        (Some(m), _) if m.len() >= 2 => (m[0], m[1]),
        (_, "infantry") => (d.squad_base_mm[0], d.squad_base_mm[1]),
        _ => (d.gun_base_mm[0], d.gun_base_mm[1]),
    };
    Footprint::rect(at, heading, l, w)
}

/// The JSON Schema of the scenario file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(RawScenario)
}

/// The bundled representative battle.
pub const CROSSROADS_YAML: &str = include_str!("../../../scenarios/steel-wheels/crossroads.yaml");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_battle_is_valid() {
        let s = Scenario::from_text(CROSSROADS_YAML).expect("valid");
        assert_eq!(s.sides.len(), 2);
    }

    #[test]
    fn problems_are_all_listed() {
        let bad = CROSSROADS_YAML.replace("card: M4A1_Sherman", "card: Tiger").replace("battle: advance", "battle: counterattack");
        let e = Scenario::from_text(&bad).expect_err("invalid");
        assert!(e.problems.iter().any(|p| p.contains("no card Tiger")), "{e}");
        assert!(e.problems.iter().any(|p| p.contains("counterattack")), "{e}");
    }
}
