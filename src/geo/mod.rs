//! Geometry shared by rulesets: hex grids (offset ids like 2311 and axial coordinates), facing
//! on them (front, flank and rear hexsides, fire cones), and continuous tables (integer
//! millimetres, tenths of a degree).

pub mod facing;
pub mod hex;
pub mod table;
