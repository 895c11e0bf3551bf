//! Geometry shared by rulesets: hex grids (offset ids like 2311 and axial coordinates) and
//! continuous tables (integer millimetres, tenths of a degree).

pub mod hex;
pub mod table;
