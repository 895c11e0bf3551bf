//! Stacking (WEF 8): at most 3 corps per hex, a division counting half (8.1), at all times
//! including during movement (8.2); fortress infantry and HQs stack free, heavy artillery too
//! but at most one per hex (8.5).

use super::state::{Kind, State, Unit};
use crate::engine::Violation;
use crate::geo::hex::HexId;

/// The limit in half-corps (8.1: 3 corps).
pub const LIMIT_HALVES: u32 = 6;

/// Whether `arriving` (units not yet in `h`) fit in `h` with the friendly units already
/// there.
pub fn room(s: &State, h: HexId, arriving: &[&Unit]) -> Result<(), Violation> {
    let ids: Vec<&str> = arriving.iter().map(|u| u.id.as_str()).collect();
    let here: Vec<&Unit> = s.units_at(h).filter(|u| !ids.contains(&u.id.as_str())).collect();
    let halves: u32 = here.iter().chain(arriving.iter()).map(|u| u.stack_halves()).sum();
    if halves > LIMIT_HALVES {
        return Err(Violation::new("WEF 8.1", format!("{h} would hold {} corps; the limit is 3 (a division counts 1/2)", Halves(halves)))
            .hex(h.to_string()));
    }
    let guns = here.iter().chain(arriving.iter()).filter(|u| u.kind == Kind::Heavy).count();
    if guns > 1 {
        return Err(Violation::new("WEF 8.5", format!("{h} would hold {guns} heavy artillery units; at most 1 per hex")).hex(h.to_string()));
    }
    Ok(())
}

/// Half-corps written as corps (`"3 1/2"`).
struct Halves(u32);

impl std::fmt::Display for Halves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => write!(f, "1/2"),
            (n, 1) => write!(f, "{n} 1/2"),
            (n, _) => write!(f, "{n}"),
        }
    }
}

/// The first overstacked hex, if any (for the invariants and 8.3).
pub fn overstacked(s: &State) -> Option<HexId> {
    // One pass over the units: (half-corps, heavy artillery) per hex.
    let mut per_hex: std::collections::BTreeMap<HexId, (u32, u32)> = std::collections::BTreeMap::new();
    for u in &s.units {
        if let Some(h) = u.hex() {
            let e = per_hex.entry(h).or_default();
            e.0 += u.stack_halves();
            e.1 += u32::from(u.kind == Kind::Heavy);
        }
    }
    per_hex.into_iter().find(|(_, (halves, guns))| *halves > LIMIT_HALVES || *guns > 1).map(|(h, _)| h)
}
