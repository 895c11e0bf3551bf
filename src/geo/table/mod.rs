//! Continuous tables: integer millimetres and tenths of a degree (DESIGN §3), for miniatures
//! rulesets such as Steel Wheels (digest D.1). No floating point anywhere.
//!
//! * [`point`]: points and vectors in mm, exact squared distances, rounded-up lengths;
//! * [`trig`]: the pinned cosine table (scale 10⁶), built with integers;
//! * [`angle`]: headings (0 = +x, counter-clockwise), bearings, arcs;
//! * [`segment`]: exact segment intersection and distances;
//! * [`shape`]: terrain polygons and model footprints;
//! * [`path`]: paths, terrain pieces and costs, linear features, corridors;
//! * [`sight`]: line of sight and the blocker that refuses it;
//! * [`impact`]: the struck face of a part and the ≥ 75° test;
//! * [`template`]: circle, flame and square templates, deviation.
//!
//! See `docs/geometry-table.md` for the conventions: units, the angle origin and direction,
//! every rounding rule and every boundary rule.

pub mod angle;
pub mod impact;
pub mod num;
pub mod path;
pub mod point;
pub mod segment;
pub mod shape;
pub mod sight;
pub mod template;
pub mod trig;

pub use angle::{Arc, Heading, angle_within};
pub use path::{LinearFeature, Path, PathError};
pub use point::{MAX_COORD, Point, Vector};
pub use shape::{Footprint, Polygon, ShapeError};
pub use sight::{AreaSight, Blocker, Ignore, SampleSight, Scene, TerrainArea};
pub use template::{Template, WallPoint, along_wall, deviate, scatter_heading, wall_scatter};
