//! Line of sight across a table in two dimensions (digest D.1 "LOS and LOF", D.4 LOS-1..7).
//!
//! A sight line is the closed segment between two points. It is checked, in this order,
//! against:
//!
//! 1. **opaque areas** ([`AreaSight::Opaque`], burning elements and exploded wrecks, LOS-6,
//!    WRECK-2): blocked if the segment meets the area at all, boundary included;
//! 2. **screening areas** ([`AreaSight::Screening`], woods, buildings, ruins, LOS-1/2/3): for
//!    each maximal run of the segment inside the area's open interior —
//!    * a run from end to end (both ends on the same area) does not block;
//!    * a run that enters and leaves the area blocks ([`Blocker::Through`]);
//!    * a run from one end to the area's edge blocks if longer than the area's
//!      `edge_depth_mm` (the 4 cm rule, AMB-27) ([`Blocker::Depth`]);
//!
//!    then, over all screening areas together, more than one boundary crossing blocks
//!    ([`Blocker::Edges`], "at most one area edge");
//! 3. **linear features** flagged `blocks_sight` (walls, hedges, LOS-4): blocked if the segment
//!    meets the feature's footprint (within half its thickness);
//! 4. **models** (vehicles, guns, wrecks, LOS-4/5): blocked if the segment meets the footprint,
//!    boundary included. Figures never block: a ruleset simply does not pass them.
//!
//! Heights are not modelled here: the digest's refinements by height (lines passing over a
//! low obstacle or over an area's height, eye heights) are left to a later version, so every
//! listed obstacle blocks whatever its height. The caller passes the indices of the models and
//! linear features to ignore (the observer, the target, obstacles in contact, LOS-4).

use serde::{Deserialize, Serialize};

use super::path::{LinearFeature, inside_runs};
use super::point::Point;
use super::segment::Ratio;
use super::shape::{Footprint, Polygon};

/// How an area affects sight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AreaSight {
    /// No effect (fields, roads, rough ground).
    Clear,
    /// Woods, buildings, ruins: see the module notes; Steel Wheels uses 40 mm.
    Screening { edge_depth_mm: u32 },
    /// Blocks every line that meets it (burning elements).
    Opaque,
}

/// An area terrain element as far as sight is concerned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TerrainArea {
    pub polygon: Polygon,
    pub sight: AreaSight,
}

/// What blocks a sight line, naming the element by its index in the [`Scene`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocker {
    /// The line meets an opaque area.
    Opaque { area: usize },
    /// The line enters and leaves a screening area.
    Through { area: usize },
    /// An end of the line is `inside_mm` deep in a screening area, more than its edge depth.
    Depth { area: usize, inside_mm: u32 },
    /// The line crosses `count` (> 1) edges of screening areas.
    Edges { count: u32 },
    /// A sight-blocking linear feature.
    Obstacle { linear: usize },
    /// A model's footprint.
    Model { model: usize },
}

impl std::fmt::Display for Blocker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Blocker::Opaque { area } => write!(f, "area {area} blocks all sight"),
            Blocker::Through { area } => write!(f, "the line passes through area {area}"),
            Blocker::Depth { area, inside_mm } => {
                write!(f, "an end of the line is {inside_mm} mm inside area {area}")
            }
            Blocker::Edges { count } => write!(f, "the line crosses {count} area edges"),
            Blocker::Obstacle { linear } => write!(f, "obstacle {linear} is in the way"),
            Blocker::Model { model } => write!(f, "model {model} is in the way"),
        }
    }
}

/// Everything on the table that can block sight.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scene<'a> {
    pub areas: &'a [TerrainArea],
    pub linears: &'a [LinearFeature],
    pub models: &'a [Footprint],
}

/// Elements to leave out of one sight check (indices into the [`Scene`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ignore<'a> {
    pub models: &'a [usize],
    pub linears: &'a [usize],
}

/// The sight lines from an eye to each sample point of a target footprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleSight {
    pub lines: Vec<(Point, Result<(), Blocker>)>,
}

impl SampleSight {
    pub fn total(&self) -> u32 {
        self.lines.len() as u32
    }

    pub fn visible(&self) -> u32 {
        self.lines.iter().filter(|(_, r)| r.is_ok()).count() as u32
    }

    /// The first blocker met, in sample order, if any line is blocked.
    pub fn first_blocker(&self) -> Option<Blocker> {
        self.lines.iter().find_map(|(_, r)| r.err())
    }
}

fn meets_polygon(a: Point, b: Point, poly: &Polygon) -> bool {
    poly.contains(a) || poly.contains(b) || poly.edges().any(|(c, d)| super::segment::crossing(a, b, c, d).meets())
}

impl Scene<'_> {
    /// Whether the sight line `from → to` is clear, or the first thing that blocks it (in the
    /// order of the module notes).
    pub fn sight(&self, from: Point, to: Point, ignore: Ignore<'_>) -> Result<(), Blocker> {
        for (i, area) in self.areas.iter().enumerate() {
            if area.sight == AreaSight::Opaque && meets_polygon(from, to, &area.polygon) {
                return Err(Blocker::Opaque { area: i });
            }
        }
        let len_sq = from.distance_sq(to);
        let mut edges: u32 = 0;
        for (i, area) in self.areas.iter().enumerate() {
            let AreaSight::Screening { edge_depth_mm } = area.sight else { continue };
            for (t0, t1) in inside_runs(from, to, &area.polygon) {
                let (starts, ends) = (t0 == Ratio::ZERO, t1 == Ratio::ONE);
                if starts && ends {
                    continue;
                }
                if !starts && !ends {
                    return Err(Blocker::Through { area: i });
                }
                let inside_mm = t1.mm_along(len_sq) - t0.mm_along(len_sq);
                if inside_mm > edge_depth_mm {
                    return Err(Blocker::Depth { area: i, inside_mm });
                }
                edges += 1;
            }
        }
        if edges > 1 {
            return Err(Blocker::Edges { count: edges });
        }
        for (i, l) in self.linears.iter().enumerate() {
            if l.blocks_sight && !ignore.linears.contains(&i) && l.meets_segment(from, to) {
                return Err(Blocker::Obstacle { linear: i });
            }
        }
        for (i, m) in self.models.iter().enumerate() {
            if !ignore.models.contains(&i) && m.meets_segment(from, to) {
                return Err(Blocker::Model { model: i });
            }
        }
        Ok(())
    }

    /// Sight from an eye point to every sample of a target footprint (its corners and centre,
    /// or a round base's centre), for the visible-fraction rules (OBS-2, FIRE-1, EFF-5). The
    /// target's own index belongs in `ignore.models`: a model never hides its own samples.
    pub fn sight_samples(&self, eye: Point, target: &Footprint, ignore: Ignore<'_>) -> SampleSight {
        SampleSight { lines: target.samples().into_iter().map(|s| (s, self.sight(eye, s, ignore))).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::table::Heading;
    use crate::geo::table::path::Path;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    fn sq(x0: i32, y0: i32, w: i32, h: i32) -> Polygon {
        Polygon::new(vec![p(x0, y0), p(x0 + w, y0), p(x0 + w, y0 + h), p(x0, y0 + h)]).unwrap()
    }

    fn wood(x0: i32, w: i32) -> TerrainArea {
        TerrainArea { polygon: sq(x0, -100, w, 200), sight: AreaSight::Screening { edge_depth_mm: 40 } }
    }

    #[test]
    fn open_ground_is_clear() {
        let s = Scene::default();
        assert_eq!(s.sight(p(0, 0), p(1000, 0), Ignore::default()), Ok(()));
    }

    #[test]
    fn woods_edge_rule() {
        let areas = [wood(100, 200)]; // x 100..300
        let s = Scene { areas: &areas, ..Scene::default() };
        let none = Ignore::default();
        // Through the wood.
        assert_eq!(s.sight(p(0, 0), p(400, 0), none), Err(Blocker::Through { area: 0 }));
        // From 40 mm inside the edge out: allowed (inclusive); 41 mm: blocked.
        assert_eq!(s.sight(p(140, 0), p(0, 0), none), Ok(()));
        assert_eq!(s.sight(p(141, 0), p(0, 0), none), Err(Blocker::Depth { area: 0, inside_mm: 41 }));
        assert_eq!(s.sight(p(0, 0), p(141, 0), none), Err(Blocker::Depth { area: 0, inside_mm: 41 }));
        // Both ends inside the same wood: not this rule.
        assert_eq!(s.sight(p(150, 0), p(250, 0), none), Ok(()));
        // Along the wood's edge: not inside.
        assert_eq!(s.sight(p(0, -100), p(400, -100), none), Ok(()));
        // An end on the edge is at depth 0.
        assert_eq!(s.sight(p(100, 0), p(0, 0), none), Ok(()));
    }

    #[test]
    fn one_edge_in_total() {
        let areas = [wood(100, 100), wood(300, 100)];
        let s = Scene { areas: &areas, ..Scene::default() };
        // From the first wood's rim to the second wood's rim: two edges.
        assert_eq!(s.sight(p(180, 0), p(320, 0), Ignore::default()), Err(Blocker::Edges { count: 2 }));
        assert_eq!(s.sight(p(180, 0), p(250, 0), Ignore::default()), Ok(()));
    }

    #[test]
    fn opaque_obstacles_models() {
        let areas = [TerrainArea { polygon: sq(100, 10, 20, 20), sight: AreaSight::Opaque }];
        let walls = [LinearFeature { line: Path::new(vec![p(300, -50), p(300, 50)]).unwrap(), thickness_mm: 4, blocks_sight: true }];
        let models = [Footprint::rect(p(500, 0), Heading::new(0), 60, 30), Footprint::rect(p(0, 0), Heading::new(0), 60, 30)];
        let s = Scene { areas: &areas, linears: &walls, models: &models };
        let own = Ignore { models: &[1], linears: &[] };
        // Grazing the opaque area's corner (100, 10) blocks.
        assert_eq!(s.sight(p(0, 0), p(200, 20), own), Err(Blocker::Opaque { area: 0 }));
        // Passing under the area (slope 0.0825 stays below (120, 10)) reaches the wall.
        assert_eq!(s.sight(p(0, 0), p(400, 33), own), Err(Blocker::Obstacle { linear: 0 }));
        assert_eq!(s.sight(p(0, 0), p(290, 0), own), Ok(()));
        // In contact with the wall: the caller ignores it.
        let past = Ignore { models: &[1], linears: &[0] };
        assert_eq!(s.sight(p(0, 0), p(450, 0), past), Ok(()));
        assert_eq!(s.sight(p(0, 0), p(600, 0), past), Err(Blocker::Model { model: 0 }));
        // Passing just beside the tank (y = 15 is its side): 16 clears it.
        assert_eq!(s.sight(p(400, 16), p(600, 16), past), Ok(()));
        assert_eq!(s.sight(p(400, 15), p(600, 15), past), Err(Blocker::Model { model: 0 }));
        // Without ignoring the observer's own footprint it would block itself.
        assert_eq!(s.sight(p(0, 0), p(0, 200), Ignore::default()), Err(Blocker::Model { model: 1 }));
        assert_eq!(Blocker::Model { model: 0 }.to_string(), "model 0 is in the way");
    }

    #[test]
    fn visible_samples() {
        // A wall hides the lower half of a tank seen from the left.
        let walls = [LinearFeature { line: Path::new(vec![p(300, -100), p(300, 0)]).unwrap(), thickness_mm: 0, blocks_sight: true }];
        let models = [Footprint::rect(p(500, 0), Heading::new(0), 60, 30)];
        let s = Scene { linears: &walls, models: &models, ..Scene::default() };
        let seen = s.sight_samples(p(0, 0), &models[0], Ignore { models: &[0], linears: &[] });
        assert_eq!(seen.total(), 5);
        // Corners (530,−15), (470,−15) and the centre (on the wall's end: touched) are hidden.
        assert_eq!(seen.visible(), 2);
        assert_eq!(seen.first_blocker(), Some(Blocker::Obstacle { linear: 0 }));
    }
}
