//! Fortified zones (GE-14.3, with 6.1, 7.2, 9.2, 9.4, 13.24, 14.1, 14.5, 14.8).
//!
//! A zone is a marker of one side in a hex, placed by the scenario and never built or rebuilt.
//! It has no factors and no SL and stacks free. What it does:
//! * with none of its side's mobile units in it ("ungarrisoned") it blocks the enemy's
//!   operational and strategic movement: enemy infantry may still enter it by OM, but must stop
//!   there, and the zone is removed; enemy cavalry, and siege guns moving without infantry, may
//!   not enter it at all (14.3, 9.4);
//! * it blocks enemy supply lines like an enemy unit (7.2);
//! * mobile units defending in it get −1 DRM, may ignore a mandatory retreat, can be attacked
//!   only by prepared assault and never by cavalry (14.1, 14.3, 9.4, 13.24);
//! * it is destroyed when the last mobile SL in its hex is eliminated, when its defenders
//!   retreat out (14.5), or when siege guns fire at it (14.8, `siege.rs`);
//! * no trench is dug in its hex (9.2).
//!
//! Strategic movement (GE-11) belongs to another module: it asks [`blocks_sm`].

use serde::{Deserialize, Serialize};

use super::state::{Kind, SideId, State};
use crate::engine::Event;
use crate::geo::hex::HexId;

/// A fortified zone marker (GE-14.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    /// The side it belongs to.
    pub side: SideId,
    /// Its nationality (`DE`, `FR`, `BE`): Belgian zones cost no VP when lost (GE-4.5).
    pub nation: String,
}

/// The zone in `h` of the side that is not `side`, if any.
pub fn enemy_zone(state: &State, h: HexId, side: SideId) -> bool {
    state.fortified.get(&h).is_some_and(|z| z.side != side)
}

/// Whether the zone in `h` (if any) holds mobile units of its own side.
pub fn garrisoned(state: &State, h: HexId) -> bool {
    state.fortified.get(&h).is_some_and(|z| state.units_at(h).any(|u| u.side == z.side && u.mobile()))
}

/// An enemy zone (for units of `side`) with no mobile defenders in it: it blocks `side`'s
/// movement (GE-14.3).
pub fn ungarrisoned_enemy(state: &State, h: HexId, side: SideId) -> bool {
    enemy_zone(state, h, side) && !garrisoned(state, h)
}

/// For strategic movement (GE-11, 14.3, 14.7): `side`'s SM may not enter or pass `h` because
/// an ungarrisoned enemy zone or an enemy siege gun without mobile units stands there.
pub fn blocks_sm(state: &State, h: HexId, side: SideId) -> bool {
    ungarrisoned_enemy(state, h, side) || super::siege::lone_enemy_guns(state, h, side)
}

/// Whether `side`'s mobile units defend in their own zone in `h` (−1 DRM, retreat may be
/// ignored, PA only: GE-14.1, 14.3).
pub fn defended(state: &State, h: HexId, side: SideId) -> bool {
    state.fortified.get(&h).is_some_and(|z| z.side == side) && state.units_at(h).any(|u| u.side == side && u.mobile())
}

/// Units of `side` entered `h` (`State::entered`): an ungarrisoned enemy zone there is
/// removed (GE-14.3).
pub fn entered(state: &mut State, h: HexId, side: SideId) {
    if enemy_zone(state, h, side) && !state.units_at(h).any(|u| u.side != side && u.mobile()) {
        state.fortified.remove(&h);
    }
}

/// After losses in `h`: a zone whose hex has no mobile SL of its side left is destroyed
/// (GE-14.3).
pub fn after_losses(state: &mut State, h: HexId) -> Vec<Event> {
    let Some(z) = state.fortified.get(&h) else { return vec![] };
    let side = z.side;
    if state.units_at(h).any(|u| u.side == side && u.mobile()) {
        return vec![];
    }
    state.fortified.remove(&h);
    vec![Event::rule("GE 14.3", format!("the last mobile SL in {h} is gone: the {} fortified zone there is destroyed", side.title()))]
}

/// The defenders retreat out of their zone in `h`: it is destroyed (GE-14.5).
pub fn left(state: &mut State, h: HexId) -> Vec<Event> {
    match state.fortified.remove(&h) {
        Some(z) => {
            vec![Event::rule("GE 14.5", format!("the defenders leave the {} fortified zone in {h}: it is destroyed", z.side.title()))]
        }
        None => vec![],
    }
}

/// Why a group of `side` (with or without cavalry, with or without infantry) may not enter the
/// enemy zone in `h` by OM, if it may not (GE-14.3, 9.4).
pub fn entry_refusal(state: &State, h: HexId, side: SideId, units: &[String]) -> Option<(&'static str, String)> {
    if !enemy_zone(state, h, side) {
        return None;
    }
    let kinds: Vec<Kind> = units.iter().filter_map(|id| state.unit(id)).map(|u| u.kind).collect();
    if kinds.contains(&Kind::Cavalry) {
        return Some(("GE 9.4", format!("cavalry may not enter the enemy fortified zone in {h}")));
    }
    if !kinds.contains(&Kind::Infantry) {
        return Some(("GE 14.3", format!("siege guns without infantry may not enter the enemy fortified zone in {h}")));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(yaml: &str) -> State {
        let v: yaml_serde::Value = yaml_serde::from_str(yaml).expect("yaml");
        super::super::cases::case_state(&v).expect("case state")
    }

    #[test]
    fn blocks_sm_zone_and_lone_guns() {
        let s = state(
            "zones: [[3231, allied], [3232, allied]]\nunits:\n  - {id: FR-1, hex: 3232, sl: 2}\n  - {id: DE-420, hex: 3033, kind: siege_gun}\n  - {id: DE-1, hex: 3034, sl: 2}\n  - {id: DE-305, hex: 3034, kind: siege_gun, calibre: 305}\n",
        );
        let h = |n: u16| HexId::new((n / 100) as u8, (n % 100) as u8);
        // An ungarrisoned Allied zone blocks German SM, not Allied SM.
        assert!(blocks_sm(&s, h(3231), SideId::German));
        assert!(!blocks_sm(&s, h(3231), SideId::Allied));
        // A garrisoned one is an occupied enemy hex, not a zone block.
        assert!(!blocks_sm(&s, h(3232), SideId::German));
        // A gun alone blocks Allied SM; a gun with infantry is an ordinary enemy stack.
        assert!(blocks_sm(&s, h(3033), SideId::Allied));
        assert!(!blocks_sm(&s, h(3034), SideId::Allied));
        assert!(!blocks_sm(&s, h(3033), SideId::German));
    }
}
