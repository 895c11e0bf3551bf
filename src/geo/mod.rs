//! Geometry shared by rulesets: hex grids (offset ids like 2311 and axial coordinates).

pub mod hex;
