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
            errs.push(Violation::new(rules.unknown, format!("there is no unit {id}")).unit(id));
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
