//! Stacking (GE-6.1–6.4). Overstack resolution (6.5) is not yet implemented: the engine never
//! lets a hex go over the limits.

use super::naval;
use super::state::{SideId, State};
use crate::engine::Violation;
use crate::geo::hex::HexId;

/// Most SL per side in a hex (GE-6.1).
pub const MAX_SL: u32 = 9;
/// Most corps-size units per side in a hex (GE-6.1).
pub const MAX_CORPS: u32 = 2;

/// Limits that hold at all times, also mid-move (GE-6.1, 6.4): can `units` be in `h` with
/// what is there?
pub fn can_pass(state: &State, h: HexId, side: SideId, units: &[String]) -> Vec<Violation> {
    let (mut sl, mut corps) = state.stack(h, side, units);
    for u in units.iter().filter_map(|id| state.unit(id)) {
        sl += super::counters::stack_sl(state, u);
        corps += u.is_corps() as u32;
    }
    let mut errs = Vec::new();
    if sl > MAX_SL {
        errs.push(Violation::new("GE 6.1", format!("{sl} SL would be in {h}; at most {MAX_SL} per side")).hex(h.to_string()));
    }
    if corps > MAX_CORPS {
        errs.push(Violation::new("GE 6.1", format!("{corps} corps would be in {h}; at most {MAX_CORPS} per side")).hex(h.to_string()));
    }
    errs
}

/// Limits for ending a move, retreat or advance in `h`: stacking, Paris only for French
/// units (GE-6.3), Allied nationalities not stacked (GE-6.2; the same ban is read into the
/// final hex of retreats and advances; naval infantry stacks with any of them, `naval.rs`).
pub fn can_end(state: &State, h: HexId, side: SideId, units: &[String]) -> Vec<Violation> {
    let mut errs = can_pass(state, h, side, units);
    if side == SideId::Allied {
        if state.board.is_paris(h) {
            for u in units.iter().filter_map(|id| state.unit(id)) {
                if u.nation != "FR" {
                    errs.push(Violation::new("GE 6.3", "only French units may end a move in a Paris hex").unit(&u.id).hex(h.to_string()));
                }
            }
        }
        let mut nations: Vec<&str> = state
            .units_at(h)
            .filter(|u| u.side == side && !units.contains(&u.id) && u.mobile())
            .filter(|u| naval::counts_for_nationality(u))
            .map(|u| u.nation.as_str())
            .collect();
        nations.extend(
            units
                .iter()
                .filter_map(|id| state.unit(id))
                .filter(|u| u.mobile() && naval::counts_for_nationality(u))
                .map(|u| u.nation.as_str()),
        );
        nations.sort();
        nations.dedup();
        if nations.len() > 1 {
            errs.push(
                Violation::new(
                    "GE 6.2",
                    format!("Allied units of different nationalities ({}) may not end stacked in {h}", nations.join(", ")),
                )
                .hex(h.to_string()),
            );
        }
    }
    errs
}
