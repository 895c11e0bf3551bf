//! Geometry shared by rulesets: hex grids (offset ids like 2311 and axial coordinates), facing
//! on them (front, flank and rear hexsides, fire cones), straight lines between hex centres
//! for lines of fire and sight (`hexline`), and continuous tables (integer
//! millimetres, tenths of a degree).

pub mod facing;
pub mod hex;
pub mod hexline;
pub mod table;
