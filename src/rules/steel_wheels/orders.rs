//! Orders as a seat writes them (`body.orders`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::scenario::Xy;

/// One entry's orders: a declaration (SEQ-1), or activations of SLUs (SEQ-4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Declare or oppose with this platoon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platoon: Option<String>,
    /// Play a manoeuvre token instead (TOK-3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub token: bool,
    /// One action per SLU, in order; an entry ends at its first random action (G.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// Phase 2: a request for indirect fire (IFP). Empty orders in phase 2: no request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indirect: Option<Request>,
    /// Phase 4: open the fire plans due and fire (IF-1); the author's tool adds the openings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub barrage: bool,
    /// Opportunity fire on the move just announced (SW-OPP-3): one line per unit that fires;
    /// an empty list (`opportunity: []`) passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opportunity: Option<Vec<OppFire>>,
}

/// One unit's opportunity fire (OPP-3/4): it fires at the mover when the mover is `at_mm`
/// along its path, a point it sees in the second half of what it sees of the path. Every
/// weapon that can bear fires, AP at armour and HE otherwise, as in a Fire action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OppFire {
    pub shooter: String,
    /// Distance from the start of the mover's path, in mm: a multiple of 10 or the path's end.
    pub at_mm: u32,
}

/// A request for indirect fire and its markers (IFP-5). The player writes `target` (the real
/// one) and three decoys in `markers`; the author's tool turns them into four markers in a
/// fixed order (by x, then y) and a commitment to which one is real, so the log carries only
/// `markers` (four points) and never `target`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// A battery of the scenario.
    pub battery: String,
    /// As written only: the real target, in mm. Never in a signed entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Xy>,
    /// As written: the three decoys; in the log: the four markers, sorted.
    pub markers: Vec<Xy>,
}

/// One SLU's action (C.4): nothing (hold), a move, a fire, both (a complex action, in the
/// order `fire_first` says), panic recovery, an assault, or the CT of a squad in a melee.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub unit: String,
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub movement: Option<Move>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire: Option<Fire>,
    /// Fire then move (default: move then fire).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fire_first: bool,
    /// Panic recovery (PAN-2), the only action of a panicked unit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recover: bool,
    /// Fire and assault (C.4, ASL-0/1): fire the Moving shots at `target`, take the CT, and
    /// if it passes go into base contact and fight the close combat (ASL-3). Alone: no
    /// `move`, `fire`, `fire_first` or `recover` with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assault: Option<Fire>,
    /// ASL-4: the CT of a squad that was assaulted and is still in contact, its only action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub melee: bool,
    /// EMB-1..3: the squad boards this friendly transport, a simple Move (Tactical, `move`
    /// optional) ending with its base within 8 cm of the vehicle's sides or rear; no fire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embark: Option<String>,
    /// EMB-4 (C.4 "Appiedare"): a passenger gets off by itself, its base set down here,
    /// within 8 cm of its vehicle's sides or rear; alone, no fire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dismount: Option<Place>,
    /// EMB-4: a transport sets its passengers down (with a Short `move` and Moving shots,
    /// or standing still with Stationary shots). Standing still, half of them (rounded up)
    /// may go within 16 cm of its sides or rear, the others within 8 cm; moving, all within
    /// 8 cm of where it starts or ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unload: Vec<Unload>,
    /// SW-BLDM-2/3: where the squad's base stands in a building after this action. From
    /// outside, with a `move` whose last point is a ground-floor access point of it (the
    /// squad enters and is set on the ground floor); from inside, with no `move` (it is
    /// rearranged, and climbs one floor or goes down two). To leave, give a `move` alone,
    /// starting at a ground-floor access point (BLDM-5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub building: Option<InBuilding>,
}

/// A squad's place in a building (SW-BLDM-2/3): its base wholly within the outline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InBuilding {
    /// The building's area id.
    pub building: String,
    /// 0 = the ground floor. Default: the ground floor on entering, else the floor it is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<u8>,
    /// The base's centre, mm.
    pub at: Xy,
    /// Tenths of a degree; default: as it faces after its walk to the door (entering), or
    /// as it faced (inside).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<u16>,
}

/// Where a dismounting squad's base is set down (EMB-4), mm and tenths of a degree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub at: Xy,
    /// Default: the vehicle's heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<u16>,
}

/// One passenger a transport sets down (EMB-4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unload {
    pub unit: String,
    pub at: Xy,
    /// Default: the vehicle's heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<u16>,
}

/// A move: waypoints after the start, in mm, the final heading (tenths of a degree), and
/// whether a vehicle reverses along it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub path: Vec<Xy>,
    /// Final heading; default: the heading of the last segment (reversing: its opposite, the
    /// vehicle still facing the way it backs away from). Vehicles pay for the last turn like
    /// any other (MOV-5); foot units turn freely.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<u16>,
    /// SW-MOV-1: a vehicle backs along the path, its rear leading, at Cautious speed for the
    /// whole move; road stretches still count at their fraction, the road being the one ground
    /// that does not cap a move at its worst. Vehicles only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reverse: bool,
}

/// Fire at one target with every weapon that can bear (WPN, AIM).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    /// A unit, or a building's area id (heavy weapons only, BLDF-1).
    pub target: String,
    /// At a building (HW-1): an opening's id, or `wall` (the default) for the centre of the
    /// wall facing the firer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aim: Option<String>,
    /// SW-OBS-4, SW-TEST-DFR: the friendly unit of the firer's platoon that spots the target
    /// and passes it to the firer, which has a clear line of fire but cannot spot it itself
    /// (E.23 distance). The sender is within communication distance of the firer where it
    /// fires (32 cm, 16 cm with the sight between them blocked by terrain, SW-COMM-2; 128 cm
    /// and 64 cm when both have a radio, SW-COMM-3) and has made no communication test this
    /// turn (SW-IFP-1). Its DFR test (D6 + AD + CV of
    /// the sender against a D10, a tie passes) is the fire's first roll: failed, the firer
    /// does not fire at that target. Fire at a unit only (not at a building, not in an
    /// assault).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relayed_by: Option<String>,
}
