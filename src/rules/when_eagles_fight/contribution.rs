//! Combat stacking (WEF 8.6): from turn 12 at most 2 corps (or the equivalent in divisions)
//! per hex add their factors to an attack or a defence. The others still take part: they
//! share the result, absorb losses and advance. Free-stacking units (fortress infantry,
//! heavy artillery, 8.5) are not affected.
//!
//! Who picks the two is not said (digest G.5); the owner does. Reading: since only the sum
//! of factors depends on which two contribute (every unit in the battle takes part either
//! way), the owner's best choice is always the largest sum, and the engine makes it for each
//! side, hex by hex, which costs no entry (the defender would otherwise need one before
//! every roll). Out-of-supply factors count half (9.3: summed, then halved once, rounded up,
//! so the largest doubled score gives the largest halved total).

use std::collections::{BTreeMap, BTreeSet};

use super::state::{State, Unit};
use crate::geo::hex::HexId;

/// The first turn of combat stacking (8.6).
pub const FROM_TURN: u8 = 12;
/// Two corps, in half-corps.
pub const CONTRIBUTING_HALVES: u32 = 4;

/// The ids of `units` whose factors count, `score` giving each unit's worth (its factor,
/// doubled when it is not halved).
pub fn contributors(s: &State, units: &[&Unit], score: &dyn Fn(&Unit) -> u32) -> BTreeSet<String> {
    if s.turn < FROM_TURN {
        return units.iter().map(|u| u.id.clone()).collect();
    }
    let mut by_hex: BTreeMap<Option<HexId>, Vec<&Unit>> = BTreeMap::new();
    for u in units {
        by_hex.entry(u.hex()).or_default().push(u);
    }
    let mut out = BTreeSet::new();
    for (_, hex_units) in by_hex {
        let (free, counted): (Vec<&Unit>, Vec<&Unit>) = hex_units.into_iter().partition(|u| u.stack_halves() == 0);
        out.extend(free.iter().map(|u| u.id.clone()));
        let n = counted.len().min(16);
        let mut best: Option<(u32, u32)> = None;
        for m in 0..(1u32 << n) {
            let pick = || (0..n).filter(move |i| m & (1 << i) != 0).map(|i| counted[i]);
            if pick().map(|u| u.stack_halves()).sum::<u32>() > CONTRIBUTING_HALVES {
                continue;
            }
            let sc: u32 = pick().map(score).sum();
            if best.is_none_or(|(b, _)| sc > b) {
                best = Some((sc, m));
            }
        }
        if let Some((_, m)) = best {
            out.extend((0..n).filter(|i| m & (1 << i) != 0).map(|i| counted[i].id.clone()));
        }
    }
    out
}
