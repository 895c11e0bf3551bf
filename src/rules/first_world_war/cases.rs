//! The compact prestate of rule cases (`tests/cases/first-world-war/*.yaml`).
//!
//! The bundled standard scenario, with only the armies listed on the map (`armies: {DE-1: 1}`),
//! on the track (`track: {DE-9: 2}`) or eliminated; every other army is out of the case. Then
//! `players` (2, 3 or 4; seats are the faction ids with 4, `allies`/`central_powers` with 2,
//! `allies`/`germany`/`german_allies` with 3), `turn`, `round`, `stage` (`round`, `deploy`,
//! `replace`, `peace_offer`), `dummies` per faction (fronts) and `dummies_off` (a count; no other
//! dummy exists in a case), `captured` cities, `vp`, `sp`,
//! `sp_charged`, `hands` by seat, `cups` by alliance (default: the 1914 chits not in a hand),
//! `brest_litovsk`, `options` and `hidden_chits` (chits hidden as in a real game; default: open). Forced dice: the special die's face (0 = S, 1..5); a cup
//! draw is written 100 + its 0-based position in the cup. `fresh: true` keeps the state
//! exactly as setup made it.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;

use super::FirstWorldWar;
use super::scenario::{Faction, parse};
use super::setup::from_data;
use super::state::{Dummy, Options, Stage, State, Where};
use crate::engine::cases::CaseRuleset;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseState {
    /// The state right after setup (3.0), untouched but for `players` and `options`.
    #[serde(default)]
    fresh: bool,
    #[serde(default = "four")]
    players: usize,
    #[serde(default)]
    options: Options,
    #[serde(default = "one")]
    turn: u8,
    #[serde(default = "one")]
    round: u8,
    #[serde(default)]
    stage: Option<String>,
    #[serde(default)]
    armies: BTreeMap<String, u8>,
    #[serde(default)]
    track: BTreeMap<String, u8>,
    #[serde(default)]
    eliminated: Vec<String>,
    #[serde(default)]
    dummies: BTreeMap<Faction, Vec<u8>>,
    #[serde(default)]
    dummies_off: BTreeMap<Faction, usize>,
    #[serde(default)]
    captured: Vec<String>,
    #[serde(default)]
    vp: BTreeMap<Faction, u32>,
    #[serde(default)]
    sp: BTreeMap<Faction, u32>,
    #[serde(default)]
    sp_charged: Vec<(Faction, u8)>,
    #[serde(default)]
    hands: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    cups: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    brest_litovsk: bool,
    /// Chits hidden as in a real game (private draws, face-down placements); by default a
    /// case plays its chits in the open (`options.open_chits`).
    #[serde(default)]
    hidden_chits: bool,
    /// Pieces the rules turn face down must be committed by their owner's next entry, as in
    /// a real game; by default a case keeps them face up (`options.open_pieces`).
    #[serde(default)]
    hidden_pieces: bool,
}

fn four() -> usize {
    4
}
fn one() -> u8 {
    1
}

/// The bundled scenario text.
pub const STANDARD: &str = include_str!("../../../scenarios/first-world-war/standard.yaml");

/// Seats for a player count.
pub fn seats_for(players: usize) -> Result<BTreeMap<Faction, String>, String> {
    let mut m = BTreeMap::new();
    for f in Faction::ALL {
        let seat = match players {
            4 => f.id().to_string(),
            3 if f.alliance() == "allies" => "allies".into(),
            3 => f.id().to_string(),
            2 => f.alliance().to_string(),
            n => return Err(format!("players: {n} (2, 3 or 4)")),
        };
        m.insert(f, seat);
    }
    Ok(m)
}

fn build(mut c: CaseState) -> Result<State, String> {
    c.options.open_chits = !c.hidden_chits;
    c.options.open_pieces = !c.hidden_pieces;
    let data = Arc::new(parse(STANDARD).map_err(|e| e.to_string())?);
    let mut s = from_data(data.clone(), seats_for(c.players)?, c.options);
    if c.fresh {
        return Ok(s);
    }
    let army = |id: &str| data.army(id).ok_or(format!("unknown army {id}"));
    s.armies = vec![Where::Out; data.armies.len()];
    for (id, f) in &c.armies {
        s.armies[army(id)?] = Where::Front(*f);
    }
    for (id, t) in &c.track {
        s.armies[army(id)?] = Where::Track(*t);
    }
    for id in &c.eliminated {
        s.armies[army(id)?] = Where::Eliminated;
    }
    // Only the dummies the case lists exist: on the map, or off it (`dummies_off`).
    s.dummies.clear();
    for (f, fronts) in &c.dummies {
        s.dummies.extend(fronts.iter().map(|fr| Dummy { faction: *f, front: Some(*fr), face_down: false }));
    }
    for (f, n) in &c.dummies_off {
        s.dummies.extend((0..*n).map(|_| Dummy { faction: *f, front: None, face_down: false }));
    }
    for name in &c.captured {
        let i = data.city(name).ok_or(format!("unknown city {name}"))?;
        s.captured[i] = true;
    }
    s.vp.extend(c.vp);
    s.sp.extend(c.sp);
    s.sp_charged = c.sp_charged.into_iter().collect();
    s.turn = c.turn;
    s.round = c.round;
    s.brest_litovsk = c.brest_litovsk;
    let chit = |id: &str| data.chit(id).ok_or(format!("unknown chit {id}"));
    let mut held = Vec::new();
    for (seat, list) in &c.hands {
        if !s.hands.contains_key(seat) {
            return Err(format!("hands: {seat} is not a seat"));
        }
        let v: Result<Vec<usize>, String> = list.iter().map(|x| chit(x)).collect();
        let v = v?;
        held.extend(v.iter().copied());
        s.hands.insert(seat.clone(), v);
    }
    match &c.cups {
        Some(cups) => {
            s.cups.clear();
            for (cup, list) in cups {
                let mut v: Vec<usize> = list.iter().map(|x| chit(x)).collect::<Result<_, _>>()?;
                v.sort_unstable();
                s.cups.insert(cup.clone(), v);
            }
        }
        None => {
            for cup in s.cups.values_mut() {
                cup.retain(|x| !held.contains(x));
            }
        }
    }
    s.stage = match c.stage.as_deref().unwrap_or("round") {
        "round" => Stage::Round,
        "deploy" => Stage::Deploy(0),
        "replace" => Stage::Replace(0),
        "peace_offer" => Stage::PeaceOffer,
        other => return Err(format!("stage {other:?}: round, deploy, replace or peace_offer")),
    };
    super::chits::init(&mut s);
    if s.stage == Stage::Round {
        s.update_control();
    } else {
        super::turn::advance(&mut s);
    }
    Ok(s)
}

impl CaseRuleset for FirstWorldWar {
    fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
        let c: CaseState = yaml_serde::from_value(value.clone()).map_err(|e| format!("case state: {e}"))?;
        build(c)
    }
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        let faces = parse(STANDARD).map(|d| d.die_faces).unwrap_or_default();
        dice.iter().map(|&v| if v >= 100 { v - 100 } else { faces.iter().position(|&f| f == v).map(|p| p as u32).unwrap_or(v) }).collect()
    }
}
