//! From a scenario text to the starting state (WEF 3.1–3.8).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::board::Board;
use super::scenario::{self, Scenario};
use super::state::{Kind, Nat, Phase, Place, Side, State, Unit};
use super::{control, crt, stacking};
use crate::engine::{ScenarioError, SeatInfo};
use crate::geo::hex::HexId;

fn err(p: impl Into<String>) -> ScenarioError {
    ScenarioError { problems: vec![p.into()] }
}

/// The starting state of a scenario for these seats.
pub fn from_text(text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
    let mut sc = scenario::parse(text).map_err(|e| err(format!("cannot parse the scenario: {e}")))?;
    // The one option: Russian Plan 19 (WEF 16) on a Free Setup scenario.
    if let Some(m) = options.filter(|o| !o.is_null()) {
        let m = m.as_mapping().ok_or_else(|| err("options: a map of option names to values"))?;
        for (k, v) in m {
            match (k.as_str(), v.as_bool()) {
                (Some("plan_19"), Some(b)) => sc.plan_19 |= b,
                _ => return Err(err(format!("unknown option {k:?}: when-eagles-fight knows `plan_19: true` (WEF 16)"))),
            }
        }
    }
    let mut seat_map = BTreeMap::new();
    for s in seats {
        let side =
            Side::from_id(&s.side).ok_or_else(|| err(format!("seat {}: side {:?} is neither central nor russian", s.seat, s.side)))?;
        if seat_map.insert(side, s.seat.clone()).is_some() {
            return Err(err(format!("one seat per side: {} has two", s.side)));
        }
    }
    if seat_map.len() != 2 {
        return Err(err("a game of When Eagles Fight has a central seat and a russian seat"));
    }
    build(sc, seat_map)
}

/// The starting state from a parsed scenario.
pub fn build(mut sc: Scenario, seats: BTreeMap<Side, String>) -> Result<State, ScenarioError> {
    let mut problems = Vec::new();
    // 17: no German fortress conversions in Schlieffen East.
    if sc.schlieffen_east.is_some() {
        sc.charts.conversions.clear();
    }
    let board = Board::try_from(sc.map.clone()).map_err(err)?;
    problems.extend(crt::problems(&sc.charts.crt));
    for (i, t) in sc.charts.turns.iter().enumerate() {
        if usize::from(t.turn) != i + 1 {
            problems.push(format!("turn track: box {} is numbered {}", i + 1, t.turn));
        }
    }
    let last_turn = sc.charts.turns.len() as u8;
    if sc.charts.turns.last().is_none_or(|t| t.check.is_none()) {
        problems.push("turn track: the last turn must hold a victory check (WEF 4.1)".into());
    }
    let mut ids = BTreeSet::new();
    let mut units = Vec::new();
    for d in &sc.units {
        if !ids.insert(d.id.clone()) {
            problems.push(format!("unit {} is listed twice", d.id));
        }
        if d.nat == Nat::AH && d.reduced.is_some() {
            problems.push(format!("unit {}: A-H units have one SL (WEF 2.12); give its back as `rebuilt`", d.id));
        }
        if d.kind == Kind::Heavy && d.nat != Nat::DE {
            problems.push(format!("unit {}: heavy artillery is German (WEF 13.18)", d.id));
        }
        let place = match (&d.hex, d.turn, d.when.as_deref()) {
            (_, _, Some("FS" | "SEV")) => Place::Out,
            (_, _, Some(_)) => Place::Waiting,
            (Some(h), None, None) => match h.parse::<HexId>() {
                Ok(h) if board.get(h).is_some() => Place::Hex(h),
                _ => {
                    problems.push(format!("unit {}: setup hex {h} is not a land hex of the map", d.id));
                    Place::Out
                }
            },
            (None, Some(t), None) if (2..=last_turn).contains(&t) => Place::Track(t),
            // 17: the three-turn Schlieffen East never reaches the later boxes of the track.
            (None, Some(t), None) if t > last_turn && sc.schlieffen_east.is_some() => Place::Out,
            _ => {
                problems.push(format!("unit {}: give a setup hex, an entry turn from 2 to {last_turn}, or a `when` code", d.id));
                Place::Out
            }
        };
        units.push(Unit {
            id: d.id.clone(),
            name: d.name.clone(),
            nat: d.nat,
            kind: d.kind,
            size: d.size,
            full: d.factors,
            reduced: d.reduced,
            star: d.star,
            army: d.army,
            sl: if d.reduced.is_some() { 2 } else { 1 },
            place,
            when: d.when.clone(),
            rebuilt: d.rebuilt,
        });
    }
    let mut s = State {
        board: Arc::new(board),
        charts: Arc::new(sc.charts),
        data_version: sc.data_version,
        seats,
        turn: 1,
        last_turn,
        // 3.4: the historical game opens with the CP Regular Movement phase of T1.
        phase: Phase::CentralMovement,
        units,
        control: BTreeMap::new(),
        fallen_forts: BTreeSet::new(),
        spent: BTreeMap::new(),
        moving: BTreeSet::new(),
        attacked: BTreeSet::new(),
        targets: BTreeSet::new(),
        ah_good_attacks: 0,
        battle: None,
        outcome: None,
        logistics: Default::default(),
        decision: None,
        retreated: BTreeSet::new(),
        hq: Default::default(),
        fog: Default::default(),
        events: Default::default(),
        ammo: Default::default(),
        brusilov: Default::default(),
        variant: super::variants::Variant { free_setup: sc.free_setup, ..Default::default() },
    };
    // 3.8: each side controls the towns, cities and victory hexes of its own countries.
    let tracked: Vec<HexId> = s.board.hexes().map(|(h, _)| h).filter(|&h| control::tracked(&s, h)).collect();
    for h in tracked {
        if let Some(side) = s.board.get(h).and_then(|i| i.country.owner()) {
            s.control.insert(h, side);
        }
    }
    // 3.9, 16, 17: the scenario's deployment and unit changes.
    problems.extend(super::variants::prepare(&mut s, sc.plan_19, sc.schlieffen_east.as_ref()));
    let mut hexes: Vec<HexId> = s.units.iter().filter_map(Unit::hex).collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        let sides: BTreeSet<Side> = s.units_at(h).map(Unit::side).collect();
        if sides.len() > 1 {
            problems.push(format!("{h}: units of both sides start there"));
        }
    }
    if let Some(h) = stacking::overstacked(&s) {
        problems.push(format!("{h}: overstacked at the start (WEF 8.1)"));
    }
    if problems.is_empty() { Ok(s) } else { Err(ScenarioError { problems }) }
}
