//! The charts and the roster: the digest's **representative** blocks E.22–E.28 and E.32,
//! copied into `data/representative.yaml` and read here into typed tables. They are
//! project-authored stand-ins for the lost published charts (digest §0): every number the
//! rules read comes from that file, so the published charts replace it block for block
//! without a change to the code (DESIGN §3, "rule data is data"). `data_version` is pinned
//! by every scenario.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// The bundled representative data.
pub const REPRESENTATIVE_YAML: &str = include_str!("data/representative.yaml");

/// The version string of the bundled data.
pub fn version() -> &'static str {
    &data().version
}

/// Movement class of a terrain cell for one locomotion (E.22 `move_codes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoveCode {
    /// Tactical (the best), then Short, then Cautious: the cap order of MOV-3.
    Tactical,
    Short,
    Cautious,
    /// Road: the road factor applies (MOV-4).
    Road,
    /// Entered only through access points (BLDM): not built in this slice, refused.
    Building,
    Impassable,
}

/// One terrain row (E.22).
#[derive(Clone, Debug)]
pub struct TerrainRow {
    /// foot, manhandled gun, wheeled, half-tracked, tracked.
    pub moves: [MoveCode; 5],
    /// S, L, M or P.
    pub cover: char,
    /// open, variable or concealing (E.23 target-terrain group).
    pub obs: String,
    /// none, edge or obstacle.
    pub sight: String,
    pub dangerous: bool,
    /// The wall material (BLDF-2): L, M, C or B for buildings, bunkers and casemates.
    pub material: Option<char>,
}

/// A weapon (E.32).
#[derive(Clone, Debug, Deserialize)]
pub struct Weapon {
    #[serde(default)]
    pub cal: Option<calibre::Cal>,
    pub class: String,
    #[serde(default)]
    pub traj: String,
    #[serde(default)]
    pub fire: String,
    #[serde(default)]
    pub ammo: Vec<String>,
    #[serde(default)]
    pub thrown: bool,
    #[serde(default)]
    pub shoulder: bool,
    /// [short, effective, long] cm; long may be null.
    pub range: [Option<u32>; 3],
    /// [stationary, moving]; null = none.
    pub shots: [Option<u32>; 2],
    /// Fragment radius of its HE, cm (SPL-1); none for a weapon without one.
    #[serde(default)]
    pub frag: Option<u32>,
}

/// Calibres are written with decimals in the roster ("7.62", quoted so the YAML reader never
/// makes a float); they are read as tenths of a millimetre.
pub mod calibre {
    use serde::{Deserialize, Deserializer};

    /// A calibre in tenths of a millimetre.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub struct Cal(pub u32);

    impl<'de> Deserialize<'de> for Cal {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cal, D::Error> {
            // Quoted in the data file ("7.62") and read as decimal digits: no float is formed.
            let text = String::deserialize(d)?;
            parse_tenths(&text).map(Cal).ok_or_else(|| serde::de::Error::custom(format!("bad calibre {text}")))
        }
    }

    /// "7.62" → 76 (tenths, truncated), "75" → 750.
    pub fn parse_tenths(t: &str) -> Option<u32> {
        let (a, b) = t.split_once('.').unwrap_or((t, ""));
        let whole: u32 = a.parse().ok()?;
        let tenth = b.chars().next().map(|c| c.to_digit(10)).unwrap_or(Some(0))?;
        Some(whole * 10 + tenth)
    }
}

/// One armament line of a card.
#[derive(Clone, Debug, Deserialize)]
pub struct Armament {
    pub n: u32,
    pub w: String,
    #[serde(default)]
    pub site: Option<String>,
}

/// Armour in mm.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Armour {
    #[serde(default)]
    pub turret: Option<[u32; 3]>,
    #[serde(default)]
    pub hull: Option<[u32; 3]>,
    #[serde(default)]
    pub horizontal: u32,
}

/// Crew of a card.
#[derive(Clone, Debug, Deserialize)]
pub struct Crew {
    pub count: u32,
    #[serde(default)]
    pub leaders: Vec<String>,
}

/// A unit card (E.32).
#[derive(Clone, Debug, Deserialize)]
pub struct Card {
    pub kind: String,
    #[serde(default)]
    pub subtype: Option<String>,
    #[serde(default)]
    pub obs_class: Option<String>,
    #[serde(default)]
    pub vision: Option<String>,
    #[serde(default)]
    pub armoured: bool,
    #[serde(default)]
    pub open_topped: bool,
    #[serde(default)]
    pub locomotion: Option<String>,
    #[serde(default)]
    pub points: Vec<u32>,
    /// [tactical, short, cautious, road factor text] in cm; null for towed guns.
    #[serde(default, rename = "move")]
    pub movement: Option<Vec<yaml_serde::Value>>,
    #[serde(default)]
    pub crew: Option<Crew>,
    /// Men it carries besides its crew (EMB-1); 0 for a vehicle that is no transport.
    #[serde(default)]
    pub capacity: u32,
    #[serde(default)]
    pub model_mm: Option<Vec<u32>>,
    /// `vehicle`, `portable` or `none` (SW-COMM-3: two radios talk over 128/64 cm).
    #[serde(default)]
    pub radio: Option<String>,
    #[serde(default)]
    pub turret: Option<Vec<u32>>,
    #[serde(default)]
    pub casemate: Option<Vec<u32>>,
    #[serde(default)]
    pub armament: Vec<Armament>,
    #[serde(default)]
    pub armour: Option<Armour>,
    /// A battery that stays off the table (IFP-7, E.32 `battery_105`).
    #[serde(default)]
    pub off_table: bool,
}

/// E.23 cells: vision → geometry → class → terrain group → [stationary, moving, fired] cm.
pub type ObsChart = BTreeMap<String, BTreeMap<String, BTreeMap<String, BTreeMap<String, [u32; 3]>>>>;

/// Everything read from the data file.
#[derive(Debug)]
pub struct Data {
    pub version: String,
    pub terrain: BTreeMap<String, TerrainRow>,
    /// vision → geometry → class → terrain group → [stationary, moving, fired] cm.
    pub obs: ObsChart,
    /// S / L / MP → row 1..15 → 10 shot columns (E.24).
    pub light_inf: BTreeMap<String, BTreeMap<u32, [u32; 10]>>,
    /// Row 1..15 → 10 shot columns: crew and passengers lost (E.25, LW-3).
    pub light_unarmoured: BTreeMap<u32, [u32; 10]>,
    /// target column → row 1..15 → result word (E.26).
    pub tiro: BTreeMap<String, [String; 16]>,
    /// TIRO's green section (HW-3, BLDF): `wall`, `opening`, `post`, rows 1..15.
    pub tiro_green: BTreeMap<String, [String; 16]>,
    /// section → calibre row index → 18 cells (None = X), with the row and column keys (E.27).
    pub pen: BTreeMap<String, Vec<[Option<u32>; 18]>>,
    pub pen_calibre_lo: Vec<u32>,
    pub pen_thickness: Vec<u32>,
    /// column → row 1..10 → result text (E.28).
    pub effects: BTreeMap<String, [String; 11]>,
    pub building_effects: BuildingEffects,
    pub weapons: BTreeMap<String, Weapon>,
    /// army → card name → card.
    pub units: BTreeMap<String, BTreeMap<String, Card>>,
    pub squad_base_mm: [u32; 2],
    pub gun_base_mm: [u32; 2],
    /// Radius of a squad leader's round base (D.1: 9 mm for an 18 mm base), the figure that
    /// must stand wholly in an access point to enter a building (BLDM-2).
    pub leader_base_radius_mm: u32,
    /// The height of one floor of a building (E.22 "40 per floor"): a wall's plane is
    /// floors × this high (BLDF-1), and a point on it lies on floor `up / this`.
    pub floor_height_mm: u32,
    /// SPL-1/WRECK-2: an exploding vehicle or gun throws fragments this far from its sides
    /// (TEXT: 5 cm), whatever its size.
    pub explosion_radius_mm: u32,
    /// SPL-2 for those fragments: the calibre (tenths of a mm) read for the penetration row
    /// and the HE cover thresholds, which the rulebook does not give (REPRESENTATIVE).
    pub explosion_cal_tenths: u32,
}

#[derive(Deserialize)]
struct Raw {
    data_version: String,
    terrain_chart: RawTerrain,
    observation_chart: BTreeMap<String, yaml_serde::Value>,
    light_fire_vs_infantry: BTreeMap<String, yaml_serde::Value>,
    light_fire_vs_unarmoured_vehicle: RawLightUnarmoured,
    tiro_heavy: RawTiro,
    penetration: BTreeMap<String, yaml_serde::Value>,
    heavy_effects: RawEffects,
    building_effects: RawBuildingEffects,
    weapons: BTreeMap<String, Weapon>,
    units: BTreeMap<String, BTreeMap<String, Card>>,
    engine: RawEngine,
}

#[derive(Deserialize)]
struct RawTerrain {
    rows: BTreeMap<String, RawTerrainRow>,
}

#[derive(Deserialize)]
struct RawTerrainRow {
    #[serde(rename = "move")]
    moves: Vec<String>,
    cover: String,
    obs: String,
    sight: String,
    #[serde(default)]
    dangerous: bool,
    #[serde(default)]
    material: Option<String>,
}

#[derive(Deserialize)]
struct RawLightUnarmoured {
    losses: BTreeMap<u32, [u32; 10]>,
}

#[derive(Deserialize)]
struct RawTiro {
    columns: BTreeMap<String, BTreeMap<String, String>>,
    green_section: BTreeMap<String, BTreeMap<String, String>>,
}

#[derive(Deserialize)]
struct RawEffects {
    columns: BTreeMap<String, BTreeMap<u32, String>>,
}

#[derive(Deserialize)]
struct RawBuildingEffects {
    calibre_rows: Vec<RawCalRow>,
    columns: Vec<String>,
    rows: BTreeMap<u32, Vec<String>>,
}

#[derive(Deserialize)]
struct RawCalRow {
    upto_mm: Option<u32>,
    add: i32,
}

/// One cell of E.29 (BLDF-5, IMP-4): the radius of the devastated area and whether the
/// building becomes ruins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Devastation {
    pub radius_cm: u32,
    pub ruins: bool,
}

/// E.29, EFFECTS of heavy weapons against BUILDINGS (representative).
#[derive(Debug)]
pub struct BuildingEffects {
    /// (upper calibre bound in tenths of a mm, inclusive; none above) and the row modifier.
    pub calibre_rows: Vec<(Option<u32>, i32)>,
    /// The material letters of the columns.
    pub columns: Vec<char>,
    /// Rows 1..=14.
    pub rows: BTreeMap<u32, Vec<Devastation>>,
}

impl BuildingEffects {
    /// The row of a D10 `roll` for a calibre (tenths of a mm): the roll plus the calibre's
    /// modifier, clamped to the chart's rows.
    pub fn row(&self, roll: u32, cal_tenths: u32) -> u32 {
        let add = self.modifier(cal_tenths);
        let last = self.rows.keys().next_back().copied().unwrap_or(1);
        (roll as i32 + add).clamp(1, last as i32) as u32
    }
    /// The modifier the calibre gives the row.
    pub fn modifier(&self, cal_tenths: u32) -> i32 {
        self.calibre_rows.iter().find(|(up, _)| up.is_none_or(|u| cal_tenths <= u)).map(|r| r.1).unwrap_or(0)
    }
    /// The cell of `row` for wall material `m`.
    pub fn cell(&self, row: u32, m: char) -> Option<Devastation> {
        let col = self.columns.iter().position(|&c| c == m)?;
        self.rows.get(&row)?.get(col).copied()
    }
}

#[derive(Deserialize)]
struct RawEngine {
    squad_base_mm: [u32; 2],
    gun_base_mm: [u32; 2],
    #[serde(default = "leader_radius")]
    leader_base_radius_mm: u32,
    #[serde(default = "floor_height")]
    floor_height_mm: u32,
    explosion_radius_mm: u32,
    explosion_cal_mm: u32,
}

fn floor_height() -> u32 {
    40
}

fn leader_radius() -> u32 {
    9
}

fn code(s: &str) -> Result<MoveCode, String> {
    Ok(match s {
        "T" => MoveCode::Tactical,
        "S" => MoveCode::Short,
        "C" => MoveCode::Cautious,
        "R" => MoveCode::Road,
        "B" => MoveCode::Building,
        "X" => MoveCode::Impassable,
        _ => return Err(format!("unknown move code {s}")),
    })
}

fn u32_of(v: &yaml_serde::Value) -> Option<u32> {
    v.as_u64().and_then(|n| u32::try_from(n).ok())
}

/// "6-7" → (6, 7); "7" → (7, 7).
fn span(k: &str) -> Result<(u32, u32), String> {
    let (a, b) = k.split_once('-').unwrap_or((k, k));
    let p = |x: &str| x.trim().parse::<u32>().map_err(|_| format!("bad row span {k}"));
    Ok((p(a)?, p(b)?))
}

fn load() -> Result<Data, String> {
    let raw: Raw = crate::log::yamlscan::from_str(REPRESENTATIVE_YAML).map_err(|e| e.to_string())?;
    let mut terrain = BTreeMap::new();
    for (name, r) in raw.terrain_chart.rows {
        let mv: Vec<MoveCode> = r.moves.iter().map(|m| code(m)).collect::<Result<_, _>>()?;
        let moves: [MoveCode; 5] = mv.try_into().map_err(|_| format!("terrain {name}: five move codes"))?;
        terrain.insert(
            name,
            TerrainRow {
                moves,
                cover: r.cover.chars().next().unwrap_or('S'),
                obs: r.obs,
                sight: r.sight,
                dangerous: r.dangerous,
                material: r.material.and_then(|m| m.chars().next()),
            },
        );
    }
    let mut obs = BTreeMap::new();
    for vision in ["ordinary", "vision_slit"] {
        let v = raw.observation_chart.get(vision).ok_or(format!("observation chart: no {vision}"))?;
        let m: BTreeMap<String, BTreeMap<String, BTreeMap<String, [u32; 3]>>> =
            yaml_serde::from_value(v.clone()).map_err(|e| format!("observation chart {vision}: {e}"))?;
        obs.insert(vision.to_string(), m);
    }
    let mut light_inf = BTreeMap::new();
    for k in ["S", "L", "MP"] {
        let v = raw.light_fire_vs_infantry.get(k).ok_or(format!("light fire: no {k}"))?;
        let m: BTreeMap<u32, [u32; 10]> = yaml_serde::from_value(v.clone()).map_err(|e| format!("light fire {k}: {e}"))?;
        light_inf.insert(k.to_string(), m);
    }
    let mut tiro = BTreeMap::new();
    let mut tiro_green = BTreeMap::new();
    for (green, (col, spans)) in
        raw.tiro_heavy.columns.into_iter().map(|c| (false, c)).chain(raw.tiro_heavy.green_section.into_iter().map(|c| (true, c)))
    {
        let mut rows: [String; 16] = Default::default();
        for (k, word) in spans {
            let (a, b) = span(&k)?;
            for r in a..=b.min(15) {
                rows[r as usize] = word.clone();
            }
        }
        if rows[1..].iter().any(|w| w.is_empty()) {
            return Err(format!("TIRO column {col} misses a row"));
        }
        let into = if green { &mut tiro_green } else { &mut tiro };
        into.insert(col, rows);
    }
    let rows_of = |key: &str| -> Result<Vec<String>, String> {
        let v = raw.penetration.get(key).ok_or(format!("penetration: no {key}"))?;
        yaml_serde::from_value(v.clone()).map_err(|e| e.to_string())
    };
    let cal_rows = rows_of("calibre_rows_mm")?;
    let pen_calibre_lo = cal_rows
        .iter()
        .map(|r| r.trim_end_matches('+').split('-').next().unwrap_or("0").parse::<u32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let thick = raw.penetration.get("thickness_cols_mm").ok_or("penetration: no thickness columns")?;
    let pen_thickness: Vec<u32> = yaml_serde::from_value(thick.clone()).map_err(|e| e.to_string())?;
    let mut pen = BTreeMap::new();
    for sec in ["AP_ge75", "AP_lt75", "HE_AA_ge75", "HE_AA_lt75"] {
        let v = raw.penetration.get(sec).ok_or(format!("penetration: no {sec}"))?;
        let m: BTreeMap<String, Vec<yaml_serde::Value>> = yaml_serde::from_value(v.clone()).map_err(|e| e.to_string())?;
        let mut table = Vec::new();
        for r in &cal_rows {
            let cells = m.get(r).ok_or(format!("penetration {sec}: no row {r}"))?;
            let cells: Vec<Option<u32>> = cells.iter().map(u32_of).collect();
            table.push(<[Option<u32>; 18]>::try_from(cells).map_err(|_| format!("penetration {sec} {r}: 18 cells"))?);
        }
        pen.insert(sec.to_string(), table);
    }
    let mut effects = BTreeMap::new();
    for (col, rows) in raw.heavy_effects.columns {
        let mut out: [String; 11] = Default::default();
        for r in 1..=10u32 {
            out[r as usize] = rows.get(&r).cloned().ok_or(format!("effects {col}: no row {r}"))?;
        }
        effects.insert(col, out);
    }
    let be = raw.building_effects;
    let mut be_rows = BTreeMap::new();
    for (r, cells) in be.rows {
        let cells = cells
            .iter()
            .map(|c| {
                let ruins = c.ends_with('R');
                let radius_cm = c.trim_end_matches('R').parse::<u32>().map_err(|_| format!("building effects row {r}: bad cell {c}"))?;
                Ok(Devastation { radius_cm, ruins })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if cells.len() != be.columns.len() {
            return Err(format!("building effects row {r}: {} cells for {} columns", cells.len(), be.columns.len()));
        }
        be_rows.insert(r, cells);
    }
    if be_rows.keys().copied().ne(1..=be_rows.len() as u32) {
        return Err("building effects: rows must run 1, 2, 3, ...".into());
    }
    let building_effects = BuildingEffects {
        calibre_rows: be.calibre_rows.iter().map(|c| (c.upto_mm.map(|m| m * 10), c.add)).collect(),
        columns: be.columns.iter().filter_map(|c| c.chars().next()).collect(),
        rows: be_rows,
    };
    Ok(Data {
        version: raw.data_version,
        terrain,
        obs,
        light_inf,
        light_unarmoured: raw.light_fire_vs_unarmoured_vehicle.losses,
        tiro,
        tiro_green,
        pen,
        pen_calibre_lo,
        pen_thickness,
        effects,
        building_effects,
        weapons: raw.weapons,
        units: raw.units,
        squad_base_mm: raw.engine.squad_base_mm,
        gun_base_mm: raw.engine.gun_base_mm,
        leader_base_radius_mm: raw.engine.leader_base_radius_mm,
        floor_height_mm: raw.engine.floor_height_mm,
        explosion_radius_mm: raw.engine.explosion_radius_mm,
        explosion_cal_tenths: raw.engine.explosion_cal_mm * 10,
    })
}

/// The bundled data, read once. The file is part of the binary and its test checks it loads,
/// so failing here is a build defect, not an input error.
pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| load().unwrap_or_else(|e| panic!("bundled Steel Wheels data: {e}")))
}

impl Data {
    /// A card by army and name.
    pub fn card(&self, army: &str, name: &str) -> Option<&Card> {
        self.units.get(army)?.get(name)
    }
    /// The minimum roll to penetrate (E.27), `None` = impossible. `ap`: AP, else HE/AA;
    /// `ge75`: an impact angle of 75° or more; thickness in mm, calibre in tenths of mm.
    pub fn pen_cell(&self, ap: bool, ge75: bool, cal_tenths: u32, thickness_mm: u32) -> Option<u32> {
        let sec = match (ap, ge75) {
            (true, true) => "AP_ge75",
            (true, false) => "AP_lt75",
            (false, true) => "HE_AA_ge75",
            (false, false) => "HE_AA_lt75",
        };
        let cal = cal_tenths / 10;
        let row = self.pen_calibre_lo.iter().rposition(|&lo| cal >= lo)?;
        // The first column at least as thick as the plate; thicker than the last = X.
        let col = self.pen_thickness.iter().position(|&t| t >= thickness_mm)?;
        self.pen.get(sec)?.get(row)?.get(col).copied().flatten()
    }
    /// The penetration cell of a wall of material `m` (BLDF-2: the chart's L, M, C, B
    /// columns, after its thickness columns); `None` = X.
    pub fn pen_material_cell(&self, ap: bool, ge75: bool, cal_tenths: u32, m: char) -> Option<u32> {
        let sec = match (ap, ge75) {
            (true, true) => "AP_ge75",
            (true, false) => "AP_lt75",
            (false, true) => "HE_AA_ge75",
            (false, false) => "HE_AA_lt75",
        };
        let k = ['L', 'M', 'C', 'B'].iter().position(|&c| c == m)?;
        let row = self.pen_calibre_lo.iter().rposition(|&lo| cal_tenths / 10 >= lo)?;
        self.pen.get(sec)?.get(row)?.get(self.pen_thickness.len() + k).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_representative_data_loads() {
        let d = load().expect("loads");
        assert_eq!(d.version, "sw-representative-1");
        assert_eq!(d.tiro["armoured_vehicle"][8], "turret");
        assert_eq!(d.effects["hull"][6], "immobilised + 1 dead + CT");
        assert_eq!(d.weapons["M1_Garand"].cal, Some(calibre::Cal(76)));
        // 75 mm AP against 51 mm at >= 75 degrees: row 70-79, column 60 → 5.
        assert_eq!(d.pen_cell(true, true, 750, 51), Some(5));
        // 37 mm AP against 80 mm: X.
        assert_eq!(d.pen_cell(true, true, 370, 80), None);
        // E.27's material columns and E.29 (the digest's representative values).
        assert_eq!(d.pen_material_cell(true, true, 750, 'M'), Some(2));
        assert_eq!(d.pen_material_cell(false, false, 750, 'M'), Some(7));
        assert_eq!(d.pen_material_cell(false, true, 750, 'C'), None);
        let be = &d.building_effects;
        assert_eq!(d.tiro_green["wall"][5], "hit");
        assert_eq!(d.tiro_green["opening"][9], "miss");
        assert_eq!(d.tiro_green["opening"][10], "through");
        assert_eq!(be.row(10, 1050), 12);
        assert_eq!(be.row(1, 200), 1);
        assert_eq!(be.row(10, 1500), 14);
        assert_eq!(be.cell(12, 'M'), Some(Devastation { radius_cm: 9, ruins: true }));
        assert_eq!(be.cell(7, 'M'), Some(Devastation { radius_cm: 4, ruins: false }));
        assert_eq!(d.card("US", "M4A1_Sherman").map(|c| c.crew.as_ref().map(|c| c.count)), Some(Some(5)));
    }
}
