//! Geometry shared by rulesets: hex grids (offset ids like 2311 and axial coordinates) and
//! facing on them (front, flank and rear hexsides, fire cones).

pub mod facing;
pub mod hex;
