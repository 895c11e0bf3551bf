//! The campaign deployment limits (GE 3.2–3.4), checked on a scenario's starting positions.
//!
//! The historical campaign places every army unit within three hexes of its army's
//! mobilization marker: the Allied ones in France, the German ones in Germany, Luxembourg or
//! Belgium, at least one German unit in Luxembourg and one in Belgium and none in France; units
//! of different armies never start stacked; no unit starts in a neutral country (3.2).
//! Army-0 units carry the army they were assigned to (3.4), so they are checked like the rest.
//! The secret, player-made placement itself needs hidden setup and is not implemented: the
//! bundled campaign uses one fixed deployment that these checks accept.

use std::collections::{BTreeMap, BTreeSet};

use super::map::{Country, Map, Side};
use super::scenario::{Mobilization, UnitSpec};
use crate::geo::hex::HexId;

/// How far from its marker an army unit may start (GE 3.3).
pub const MARKER_RANGE: u32 = 3;

/// Every breach of GE 3.2–3.4 in a deployment; empty if it is legal.
pub fn check(map: &Map, units: &[UnitSpec], markers: &[Mobilization]) -> Vec<String> {
    let mut p = Vec::new();
    let mut marker_at: BTreeMap<(Side, u8), HexId> = BTreeMap::new();
    let mut marker_hexes = BTreeSet::new();
    for m in markers {
        if !map.contains(m.hex) {
            p.push(format!("mobilization: {} army {} marker at {} is not on the map", m.side, m.army, m.hex));
        }
        if marker_at.insert((m.side, m.army), m.hex).is_some() {
            p.push(format!("mobilization: {} army {} has two markers", m.side, m.army));
        }
        if !marker_hexes.insert(m.hex) {
            p.push(format!("mobilization: two markers in {} (at most one a hex, GE 3.5)", m.hex));
        }
    }
    let country = |h: HexId| map.hex(h).map(|i| i.country);
    let mut armies_in: BTreeMap<(HexId, Side), BTreeSet<u8>> = BTreeMap::new();
    let (mut in_lux, mut in_bel) = (false, false);
    for u in units {
        let Some(h) = u.start_hex() else { continue };
        let c = country(h);
        if c.is_some_and(|c| c.out_of_play()) {
            p.push(format!("unit {}: starts in a neutral country at {h} (GE 3.2)", u.id));
        }
        if u.side == Side::German {
            in_lux |= c == Some(Country::Luxembourg);
            in_bel |= c == Some(Country::Belgium);
            if c == Some(Country::France) {
                p.push(format!("unit {}: no German unit may start in France ({h}, GE 3.3)", u.id));
            }
        }
        let Some(army) = u.army else { continue };
        armies_in.entry((h, u.side)).or_default().insert(army);
        match marker_at.get(&(u.side, army)) {
            None => p.push(format!("unit {}: army {army} has no {} mobilization marker (GE 3.3)", u.id, u.side)),
            Some(m) if m.distance(h) > MARKER_RANGE => p.push(format!(
                "unit {}: starts at {h}, {} hexes from its army's marker at {m}; at most {MARKER_RANGE} (GE 3.3)",
                u.id,
                m.distance(h)
            )),
            Some(_) => {}
        }
        let allowed = match u.side {
            Side::Allied => matches!(c, Some(Country::France)),
            Side::German => matches!(c, Some(Country::Germany | Country::Luxembourg | Country::Belgium)),
        };
        if !allowed {
            let where_ = if u.side == Side::Allied { "France" } else { "Germany, Luxembourg or Belgium" };
            p.push(format!("unit {}: army units of the {} side start in {where_}, not at {h} (GE 3.3)", u.id, u.side));
        }
    }
    for ((h, side), armies) in &armies_in {
        if armies.len() > 1 {
            let list: Vec<String> = armies.iter().map(|a| a.to_string()).collect();
            p.push(format!("hex {h}: {side} units of different armies ({}) may not start stacked (GE 3.3)", list.join(", ")));
        }
    }
    if units.iter().any(|u| u.side == Side::German && u.start_hex().is_some()) {
        if !in_lux {
            p.push("setup: at least one German unit must start in Luxembourg (GE 3.3)".to_string());
        }
        if !in_bel {
            p.push("setup: at least one German unit must start in Belgium (GE 3.3)".to_string());
        }
    }
    p
}
