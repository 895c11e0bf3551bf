//! The headquarters markers (WEF 14): STAVKA (14.2) and OberOst (14.3). Neither is a unit:
//! no SL, no factors, no stacking value (8.5), never a casualty, never retreats or advances.
//!
//! * STAVKA, from turn 2, never two turns running: placed at the start of the Russian Combat
//!   phase (before any attack, and so before the ammunition roll) on a hex of a Russian unit
//!   that traces a supply line. For the rest of the game turn every Russian unit in or next to
//!   its hex has a favourable 1 (+1 attacking, −1 to the CP's roll when defending), lost in a
//!   battle where such units fight beside Russian units outside its reach (14.2, checklist
//!   #94). It goes at the end of the game turn, or at once when a CP unit enters its hex.
//!   Reading: the reach is judged at each battle, from where the units stand then (the rule
//!   names the units in and next to the hex, and the marker stays put).
//! * OberOst, from turn 1, never two turns running: placed at the start of the CP Combat
//!   phase on a hex holding German units only, one of them supplied. German units supplied
//!   from a map edge within 2 hexes of it at the end of that phase (traced like a supply line,
//!   9.5) may attack again in the German OberOst Combat phase (V.C), which follows; it is
//!   played only in a turn OberOst was placed. Reading: "supplied from a map edge" is the 9.6
//!   supply the rest of the game uses (every 9.6 source reaches an edge or is the sea link).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::state::{Phase, Side, State, Unit};
use super::supply::{self, Status};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The markers' positions and when each was last used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hq {
    /// STAVKA's hex while on the map (the turn it counts for is `stavka_turn`).
    #[serde(default)]
    pub stavka: Option<HexId>,
    /// The turn STAVKA was last placed.
    #[serde(default)]
    pub stavka_turn: Option<u8>,
    /// OberOst's hex, from its placement to the end of the OberOst Combat phase.
    #[serde(default)]
    pub oberost: Option<HexId>,
    /// The turn OberOst was last placed.
    #[serde(default)]
    pub oberost_turn: Option<u8>,
    /// The German units that may attack in this turn's OberOst Combat phase.
    #[serde(default)]
    pub oberost_units: BTreeSet<String>,
}

/// The first turn STAVKA may be used (14.2).
pub const STAVKA_FROM: u8 = 2;
/// OberOst's reach in hexes (14.3).
pub const OBEROST_RANGE: u32 = 2;

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// STAVKA's hex, while it is in play this game turn.
pub fn stavka(s: &State) -> Option<HexId> {
    s.hq.stavka.filter(|_| s.hq.stavka_turn == Some(s.turn))
}

/// Whether STAVKA's favourable 1 reaches `u` (14.2): a Russian-side unit in or next to its hex.
pub fn covered(s: &State, u: &Unit) -> bool {
    match (stavka(s), u.hex()) {
        (Some(st), Some(h)) => u.side() == Side::Russian && (h == st || h.is_adjacent(st)),
        _ => false,
    }
}

/// STAVKA's DRM for a battle and a note for the record (14.2, #94): +1 when every Russian
/// attacker is covered, −1 when every Russian defender is; nothing when covered and
/// uncovered units fight together.
pub fn stavka_drm(s: &State, attacker: Side, attackers: &[&Unit], defenders: &[&Unit]) -> (i32, Option<&'static str>) {
    if stavka(s).is_none() {
        return (0, None);
    }
    let (russians, sign) = if attacker == Side::Russian { (attackers, 1) } else { (defenders, -1) };
    let n = russians.iter().filter(|u| covered(s, u)).count();
    if n == 0 {
        (0, None)
    } else if n == russians.len() {
        (sign, Some("STAVKA"))
    } else {
        (0, Some("STAVKA's DRM lost: units in and out of its reach fight together (14.2)"))
    }
}

/// No attack yet this combat phase: the markers go down at its start.
fn phase_start(s: &State) -> bool {
    s.attacked.is_empty() && s.targets.is_empty() && s.battle.is_none() && s.decision.is_none()
}

/// Place STAVKA (14.2).
pub fn place_stavka(s: &mut State, side: Side, h: HexId) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    if side != Side::Russian || s.phase != Phase::RussianCombat || !phase_start(s) {
        return Err(vec![v("WEF 14.2", "STAVKA is placed by the Russian at the start of his Combat phase, before any attack")]);
    }
    if super::events::stavka_removed(s) {
        return Err(vec![v("WEF 7.2", "event A: the Tsar took command and STAVKA is gone for good")]);
    }
    if s.ammo.rolled {
        return Err(vec![v("WEF 9.9", "STAVKA goes down before the ammunition roll, in the entry that ends the movement phase")]);
    }
    // 16.4: Plan 19 brings STAVKA in from turn 1 and lets it be used every turn to turn 6.
    let (from, rule) = (super::variants::stavka_from(s), if s.variant.plan_19 { "WEF 16" } else { "WEF 14.2" });
    if s.turn < from {
        errs.push(v(rule, format!("STAVKA is available from turn {from}")));
    }
    if s.hq.stavka_turn == Some(s.turn) {
        errs.push(v("WEF 14.2", "STAVKA is already placed this turn"));
    } else if s.hq.stavka_turn.is_some_and(|t| t + 1 == s.turn) && super::variants::stavka_rests(s) {
        errs.push(v(rule, format!("STAVKA was used in turn {}: never in two turns running", s.turn - 1)));
    }
    let src = supply::sources(s, Side::Russian);
    let supplied = s.units_at(h).any(|u| u.side() == Side::Russian && supply::status(s, u, &src) == Status::Supplied);
    if !supplied {
        errs.push(v("WEF 14.2", format!("STAVKA goes on a Russian unit with a supply line; {h} holds none")).hex(h.to_string()));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    s.hq.stavka = Some(h);
    s.hq.stavka_turn = Some(s.turn);
    Ok(vec![Event::rule(
        "WEF 14.2",
        format!("STAVKA is placed in {h}: Russian units in and next to it have a favourable 1 this game turn"),
    )])
}

/// A CP unit entered `h` (called wherever units enter a hex): STAVKA there is removed (14.2).
pub fn entered(s: &mut State, h: HexId, side: Side) -> Vec<Event> {
    if side == Side::Central && stavka(s) == Some(h) {
        s.hq.stavka = None;
        return vec![Event::rule("WEF 14.2", format!("a Central Powers unit enters {h}: STAVKA is removed"))];
    }
    vec![]
}

/// Place OberOst (14.3).
pub fn place_oberost(s: &mut State, side: Side, h: HexId) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = Vec::new();
    if side != Side::Central || s.phase != Phase::CentralCombat || !phase_start(s) {
        return Err(vec![v("WEF 14.3", "OberOst is placed by the CP at the start of his (regular) Combat phase, before any attack")]);
    }
    if s.hq.oberost_turn == Some(s.turn) {
        errs.push(v("WEF 14.3", "OberOst is already placed this turn"));
    } else if s.hq.oberost_turn.is_some_and(|t| t + 1 == s.turn) && super::variants::oberost_rests(s) {
        // 17: Schlieffen East lets OberOst be used every turn.
        errs.push(v("WEF 14.3", format!("OberOst was used in turn {}: never in two turns running", s.turn - 1)));
    }
    let here: Vec<&Unit> = s.units_at(h).collect();
    let src = supply::sources(s, Side::Central);
    let german_only = !here.is_empty() && here.iter().all(|u| u.nat.german());
    if !german_only || !here.iter().any(|u| supply::status(s, u, &src) == Status::Supplied) {
        errs.push(
            v("WEF 14.3", format!("OberOst goes on a hex of German units only, supplied from a map edge; {h} is not one"))
                .hex(h.to_string()),
        );
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    s.hq.oberost = Some(h);
    s.hq.oberost_turn = Some(s.turn);
    Ok(vec![Event::rule("WEF 14.3", format!("OberOst is placed in {h}"))])
}

/// Hexes within [`OBEROST_RANGE`] of `from`, traced like a supply line (9.5): land
/// hexsides, never into enemy units, never into neutral Romania (3.2).
fn reach(s: &State, from: HexId) -> BTreeSet<HexId> {
    let mut seen = BTreeSet::from([from]);
    let mut frontier = vec![from];
    for _ in 0..OBEROST_RANGE {
        let mut next = Vec::new();
        for h in frontier {
            for (_, n) in h.neighbours() {
                if s.board.get(n).is_none() {
                    continue;
                }
                if seen.contains(&n) || s.board.sea_side(h, n) || s.board.lake(h, n) || super::brusilov::neutral(s, n) {
                    continue;
                }
                if s.occupant(n) == Some(Side::Russian) {
                    continue;
                }
                seen.insert(n);
                next.push(n);
            }
        }
        frontier = next;
    }
    seen
}

/// At the end of the CP Combat phase of a turn OberOst was placed (14.3): name the German
/// units that may attack again and open the OberOst Combat phase. `None` when OberOst is not
/// in play (the turn goes on as before).
pub fn oberost_phase(s: &mut State) -> Option<Vec<Event>> {
    let h = s.hq.oberost.filter(|_| s.phase == Phase::CentralCombat && s.hq.oberost_turn == Some(s.turn))?;
    let near = reach(s, h);
    let src = supply::sources(s, Side::Central);
    let units: BTreeSet<String> = s
        .units
        .iter()
        .filter(|u| u.nat.german() && u.hex().is_some_and(|x| near.contains(&x)) && supply::status(s, u, &src) == Status::Supplied)
        .map(|u| u.id.clone())
        .collect();
    s.hq.oberost_units = units.clone();
    s.spent.clear();
    s.moving.clear();
    s.attacked.clear();
    s.targets.clear();
    s.retreated.clear();
    s.phase = Phase::OberOstCombat;
    let list: Vec<String> = units.into_iter().collect();
    Some(vec![
        Event::say(format!("Central Powers end {}", Phase::CentralCombat.title())),
        Event::rule(
            "WEF 14.3",
            format!(
                "{} begins: {} may attack again",
                Phase::OberOstCombat.title(),
                if list.is_empty() { "no German unit".to_string() } else { list.join(", ") }
            ),
        ),
    ])
}

/// OberOst leaves the map at the end of its phase (14.3).
pub fn oberost_done(s: &mut State) {
    if s.phase == Phase::OberOstCombat {
        s.hq.oberost = None;
        s.hq.oberost_units.clear();
    }
}

/// 14.3: in the OberOst Combat phase only the units OberOst named attack.
pub fn may_attack(s: &State, u: &Unit) -> bool {
    s.phase != Phase::OberOstCombat || s.hq.oberost_units.contains(&u.id)
}
