//! Continuous tables: integer millimetres and tenths of a degree (DESIGN §3), for miniatures
//! rulesets such as Steel Wheels (digest D.1). No floating point anywhere.
//!
//! See `docs/geometry-table.md` for the conventions: units, the angle origin (+x) and
//! direction (counter-clockwise), every rounding rule and every boundary rule.

pub mod num;
pub mod trig;
