//! The starting state (TFWW 3.0): seats to factions (1.0), armies on the Turn track or, with
//! 9.3, on their historical fronts, the 1914 chits in the cups, 6 VP each.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::scenario::{Data, Faction, parse};
use super::state::{Dummy, Options, Stage, State, Where};
use crate::engine::{ScenarioError, SeatInfo};

/// Which seat plays each faction: the seat named after the faction, else the seat whose side
/// is the faction's alliance (`allies`, `central_powers`; TFWW 1.0, DESIGN §2 seats).
pub fn assign(seats: &[SeatInfo]) -> Result<BTreeMap<Faction, String>, ScenarioError> {
    let mut out = BTreeMap::new();
    let mut problems = Vec::new();
    for f in Faction::ALL {
        let by_name = seats.iter().find(|s| s.seat == f.id());
        let by_side = seats.iter().find(|s| s.side == f.alliance() && Faction::from_id(&s.seat).is_none());
        match by_name.or(by_side) {
            Some(s) if s.side == f.alliance() => {
                out.insert(f, s.seat.clone());
            }
            Some(s) => problems.push(format!("seat {} plays {} but is on side {} (must be {})", s.seat, f.id(), s.side, f.alliance())),
            None => problems.push(format!("no seat plays {} (name a seat {} or give side {} a seat)", f.id(), f.id(), f.alliance())),
        }
    }
    let n: std::collections::BTreeSet<&String> = out.values().collect();
    // A seat that plays no faction would never be asked to move: the game would be dead at
    // its first turn while its log verified.
    for s in seats {
        if !n.contains(&s.seat) {
            let factions: Vec<&str> = Faction::ALL.iter().map(|f| f.id()).collect();
            problems.push(format!(
                "seat {:?} (side {:?}) plays no faction; name a seat after a faction ({}) or put it on side allies or central_powers",
                s.seat,
                s.side,
                factions.join(", ")
            ));
        }
    }
    if problems.is_empty() && !(2..=4).contains(&n.len()) {
        problems.push("The First World War is for 2 to 4 players (TFWW 1.0)".into());
    }
    if problems.is_empty() { Ok(out) } else { Err(ScenarioError { problems }) }
}

/// Parse the optional rules from the genesis options.
pub fn options(v: Option<&yaml_serde::Value>) -> Result<Options, ScenarioError> {
    match v {
        None | Some(yaml_serde::Value::Null) => Ok(Options::default()),
        Some(v) => yaml_serde::from_value(v.clone()).map_err(|e| ScenarioError {
            problems: vec![format!(
                "options: {e} (known: schlieffen, historical_setup, open_chits, open_pieces, variable_order, violation_policy)"
            )],
        }),
    }
}

/// A fresh game from checked data.
pub fn from_data(data: Arc<Data>, seats: BTreeMap<Faction, String>, options: Options) -> State {
    let players = seats.values().collect::<std::collections::BTreeSet<_>>().len();
    let mut armies: Vec<Where> = data.armies.iter().map(|a| Where::Track(a.entry)).collect();
    if options.historical_setup {
        for (front, list) in &data.historical_setup {
            for &a in list {
                armies[a] = Where::Front(*front);
            }
        }
    }
    let mut dummies = Vec::new();
    for (f, d) in &data.factions {
        for _ in 0..d.dummies {
            dummies.push(Dummy { faction: *f, front: None, face_down: false });
        }
    }
    let year = data.year(1);
    let mut cups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    cups.insert("allies".into(), vec![]);
    cups.insert("central_powers".into(), vec![]);
    for (i, c) in data.chits.iter().enumerate() {
        if c.year <= year {
            cups.entry(c.alliance.clone()).or_default().push(i);
        }
    }
    let mut hands = BTreeMap::new();
    for s in seats.values() {
        hands.insert(s.clone(), vec![]);
    }
    let vp = Faction::ALL.into_iter().map(|f| (f, data.start_vp)).collect();
    let sp = Faction::ALL.into_iter().map(|f| (f, 0)).collect();
    let mut s = State {
        captured: vec![false; data.cities.len()],
        data,
        seats,
        players,
        options,
        turn: 1,
        round: 0,
        stage: Stage::Deploy(0),
        armies,
        ga_control: Default::default(),
        dummies,
        ga_dummies: Default::default(),
        vp,
        sp,
        sp_charged: Default::default(),
        hands,
        cups,
        removed_chits: vec![],
        combat: None,
        brest_litovsk: false,
        outcome: None,
        chits: Default::default(),
        pieces: vec![],
        next_piece: 1,
        fresh: Default::default(),
        revealing: vec![],
        order: None,
        down_due: Default::default(),
    };
    // 9.3: the historical setup is placed face down like any deployment (4.2/1).
    super::pieces::turn_down(&mut s, None);
    super::chits::init(&mut s);
    super::turn::advance(&mut s);
    s
}

/// `Ruleset::setup`.
pub fn from_text(text: &str, opts: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
    let data = Arc::new(parse(text)?);
    Ok(from_data(data, assign(seats)?, options(opts)?))
}
