//! The first checks on the list of units an order names (a move, a strategic move, an
//! attack, the siege guns of an attack, the units that entrench): each id named once,
//! naming a unit, of the acting side, on the map. Every order names its own rule for each failure, so the rules and
//! messages are the caller's; the checks and their order are shared.

use super::state::{SideId, State, Unit};
use crate::engine::Violation;
use crate::geo::hex::HexId;

/// The rule (and message) each failed check names.
pub struct ListRules {
    /// A unit listed twice: rule and message.
    pub twice: (&'static str, &'static str),
    /// An id that names no unit: rule (the message is "there is no unit ID").
    pub unknown: &'static str,
    /// A unit of the other side: rule and message.
    pub foreign: (&'static str, &'static str),
    /// A unit not on the map: rule and message.
    pub off_map: (&'static str, &'static str),
}

/// Check `ids` in order: a repeated id, an unknown id, a unit of the other side or one off the
/// map gets one violation (the first check it fails) in `errs` and is left out; the others
/// come back, in order, with their hexes. `extra` runs on each existing unit just before the
/// side check; returning a violation leaves the unit out as well (the siege guns' "only siege
/// guns" check).
pub fn check<'s>(
    state: &'s State,
    side: SideId,
    ids: &[String],
    rules: &ListRules,
    extra: &dyn Fn(&Unit) -> Option<Violation>,
    errs: &mut Vec<Violation>,
) -> Vec<(&'s Unit, HexId)> {
    let mut ok = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            errs.push(Violation::new(rules.twice.0, rules.twice.1).unit(id));
            continue;
        }
        let Some(u) = state.unit(id) else {
            errs.push(Violation::new(rules.unknown, no_such_unit(state, side, id)).unit(id));
            continue;
        };
        if let Some(e) = extra(u) {
            errs.push(e);
            continue;
        }
        if u.side != side {
            errs.push(Violation::new(rules.foreign.0, rules.foreign.1).unit(id));
            continue;
        }
        let Some(h) = u.hex() else {
            errs.push(Violation::new(rules.off_map.0, rules.off_map.1).unit(id));
            continue;
        };
        ok.push((u, h));
    }
    ok
}

/// No extra check (for [`check`]).
pub fn no_extra(_: &Unit) -> Option<Violation> {
    None
}

/// "there is no unit ID", with the nearest ids of `side`'s own shown units when some are
/// close (`de-2` → `DE-2`): a typo is the usual cause. Only the acting side's units are
/// suggested, and never a hidden one (GE 13.8), so the message tells nothing new to anyone.
pub fn no_such_unit(state: &State, side: SideId, id: &str) -> String {
    let own: Vec<&str> = state.units.iter().filter(|u| u.side == side && !super::counters::is_hidden(u)).map(|u| u.id.as_str()).collect();
    if let Some(x) = own.iter().find(|x| x.eq_ignore_ascii_case(id)) {
        return format!("there is no unit {id} (ids are written in capitals: {x})");
    }
    let up = id.to_ascii_uppercase();
    let mut near: Vec<(usize, &str)> =
        own.iter().map(|x| (strsim::levenshtein(&up, &x.to_ascii_uppercase()), *x)).filter(|(d, _)| *d <= 2).collect();
    near.sort();
    // Only the closest: FR-12X suggests FR-12, not every id two edits away.
    let closest = near.first().map_or(0, |(d, _)| *d);
    let best: Vec<&str> = near.iter().filter(|(d, _)| *d == closest).take(3).map(|(_, x)| *x).collect();
    if best.is_empty() {
        format!("there is no unit {id} (`umpire show` lists every unit)")
    } else {
        format!("there is no unit {id} (did you mean {}?)", best.join(" or "))
    }
}
