//! The compact prestate of a rule case (DESIGN §5, `tests/cases/jours-de-gloire/`): the
//! bundled Marengo battle's map, roster and tables, with what a case names.
//!
//! ```yaml
//! state:
//!   turn: 2                         # default 1
//!   units:                          # when given, only these units are on the map
//!     - {id: FR-30, hex: "0506", facing: 5, disordered: true}   # or `routed: true`, `square: true`
//!   chiefs: {french: "0807"}        # commanders moved before the case (one not named whose
//!                                   #   set-up hex holds enemy units joins his first unit)
//!   activate: boudet                # phase D, boudet's first marker drawn
//!   marker: 2                       #   (or its second marker)
//!   tested: {boudet-1: false}       # leader-initiative results of this activation (2.4.3)
//!   initiative: french              # phase B, the french player's entry opens with the rolls
//!   pick: french                    # phase B, the french player won and picks (full cup)
//!   groups: {boudet-1: OR}          # opened orders (others SO); with `secret: true` the
//!   secret: true                    #   groups are committed and not yet opened
//!   draw: french                    # phase D, the french player's entry opens with a draw
//!   cup: ["boudet/1", "oreilly/2"]  # the cup (default: every marker; with `activate`, one
//!                                   #   marker of every other formation)
//!   holder: {"0506": french}        # VP hexes taken before the case
//!   demoralised: [boudet]           # formations demoralised at the last phase E
//!   rout: {french: run}             # standing rout policies (JDG 10.4)
//!   counter_battery: {austrian: always}  # standing counter-battery policies (JDG 7.1)
//!   reaction_fire: {austrian: top}  # standing reaction-fire policies (JDG 7.1, 8.3.3)
//!   chief_evasion: {french: always} # standing evasion policies of the commanders (JDG 2.5.2)
//!   pursue: {austrian: always}     # standing pursuit policies of attacked cavalry (JDG 9.4, 9.5.1)
//!   fallen: [austrian]              # commanders-in-chief eliminated before the case
//!   generals:                       # further army generals of a side (JDG 2.5.2), as the
//!     french:                       #   battle data's `generals:` writes them
//!       - {id: FR-DES, name: Desaix, drm: 1, order_potential: 1, command_distance: 4, unit: FR-19L}
//!   cams:                           # the battle's CAMs in place of Marengo's (JDG 2.1.2)
//!     - {id: kb, name: Kellermann and Boudet, side: french, initiative: 3,
//!        formations: [boudet, kellermann], required: [1], choice: [2, 3]}
//!   command: {french: FR-DES}       # a further general who took command before the case
//!                                   #   (the commander-in-chief eliminated; `chiefs` places him)
//!   winner: austrian                # this turn's strategic-initiative winner (with `activate`)
//!   waiting: {FR-GDC: 3}            # reinforcements off the map, first turn to enter; with
//!                                   #   `units`, reinforcements not named are gone
//!   levels: {"0506": 2}             # elevation levels in place of the map's (others 0)
//!   hexsides:                       # hexside features added to the map's (JDG 7.4)
//!     - {a: "0705", b: "0706", feature: wall}
//! ```
//! A listed unit may carry `marker: true` (a Reinforcement marker, JDG 5.2.1) or
//! `sheltered: true` (it stopped its rout in a town, village or castle, JDG 10.4).
//! Without `activate` or `draw` the case starts in phase A of its turn, the first side due.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::JoursDeGloire;
use super::command::compute_groups;
use super::scenario::{MARENGO_YAML, RawSide, pair};
use super::state::{Am, Phase, State, Status};
use crate::engine::cases::CaseRuleset;
use crate::engine::{Ruleset, SeatInfo};
use crate::geo::hex::HexId;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseState {
    #[serde(default)]
    turn: Option<u8>,
    #[serde(default)]
    units: Option<Vec<CaseUnit>>,
    #[serde(default)]
    chiefs: BTreeMap<String, HexId>,
    #[serde(default)]
    activate: Option<String>,
    #[serde(default)]
    groups: BTreeMap<String, Status>,
    #[serde(default)]
    secret: bool,
    #[serde(default)]
    draw: Option<String>,
    #[serde(default)]
    marker: Option<u8>,
    #[serde(default)]
    tested: BTreeMap<String, bool>,
    #[serde(default)]
    initiative: Option<String>,
    #[serde(default)]
    pick: Option<String>,
    #[serde(default)]
    cup: Option<Vec<String>>,
    #[serde(default)]
    holder: BTreeMap<HexId, String>,
    #[serde(default)]
    demoralised: Vec<String>,
    /// Reinforcements still off the map, with the first turn each may enter (JDG 5.2); with
    /// `units` given, the others are gone.
    #[serde(default)]
    waiting: BTreeMap<String, u8>,
    /// Standing refusal policies (JDG 8.8), by side.
    #[serde(default)]
    refusal: BTreeMap<String, super::refusal::Refusal>,
    /// Standing counter-attack policies (JDG 8.7.2), by side.
    #[serde(default)]
    counter_attack: BTreeMap<String, super::counter::CounterAttack>,
    /// Standing rout policies (JDG 10.4), by side.
    #[serde(default)]
    rout: BTreeMap<String, super::rout::RoutPolicy>,
    /// Standing counter-battery policies (JDG 7.1), by side.
    #[serde(default)]
    counter_battery: BTreeMap<String, super::reaction::CounterBattery>,
    /// Standing reaction-fire policies (JDG 7.1, 8.3.3), by side.
    #[serde(default)]
    reaction_fire: BTreeMap<String, super::reaction::ReactionFire>,
    /// Standing evasion policies for the commanders-in-chief (JDG 2.5.2), by side.
    #[serde(default)]
    chief_evasion: BTreeMap<String, super::chief::Evasion>,
    /// Standing pursuit policies of the attacked cavalry (JDG 9.4, 9.5.1), by side.
    #[serde(default)]
    pursue: BTreeMap<String, super::charge::Pursuit>,
    /// Sides whose commander-in-chief was eliminated before the case (JDG 2.5.2).
    #[serde(default)]
    fallen: Vec<String>,
    /// The battle's CAMs in place of the bundled battle's (JDG 2.1.2).
    #[serde(default)]
    cams: Option<Vec<super::scenario::Cam>>,
    /// Further army generals by side (JDG 2.5.2), added to the battle's.
    #[serde(default)]
    generals: BTreeMap<String, Vec<super::scenario::General>>,
    /// A further general who took command of his side before the case (JDG 2.5.2).
    #[serde(default)]
    command: BTreeMap<String, String>,
    /// The side that won this turn's strategic initiative (JDG 3), for a case in phase D.
    #[serde(default)]
    winner: Option<String>,
    /// Elevation levels in place of the map's (JDG 7.4), so a line-of-fire case does not
    /// hang on the battle map's hills; a hex not named is at level 0.
    #[serde(default)]
    levels: Option<BTreeMap<HexId, u8>>,
    /// Hexside features added to the map's (or replacing the feature of that hexside).
    #[serde(default)]
    hexsides: Vec<RawSide>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    hex: HexId,
    #[serde(default)]
    facing: Option<u8>,
    #[serde(default)]
    disordered: bool,
    #[serde(default)]
    routed: bool,
    #[serde(default)]
    square: bool,
    /// Under a Reinforcement marker (JDG 5.2.1).
    #[serde(default)]
    marker: bool,
    /// Stopped its rout in a town, village or castle (JDG 10.4).
    #[serde(default)]
    sheltered: bool,
}

/// The seats of a case: one per side, named after it.
pub fn case_seats() -> Vec<SeatInfo> {
    vec![SeatInfo { seat: "french".into(), side: "french".into() }, SeatInfo { seat: "austrian".into(), side: "austrian".into() }]
}

fn parse_am(s: &str) -> Result<Am, String> {
    Am::parse(s).ok_or(format!("case state: marker {s:?} is not formation/n or cam/C"))
}

impl CaseRuleset for JoursDeGloire {
    fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
        let c: CaseState = yaml_serde::from_value(value.clone()).map_err(|e| format!("case state: {e}"))?;
        let mut s = JoursDeGloire::setup(MARENGO_YAML, None, &case_seats()).map_err(|e| e.to_string())?;
        if let Some(t) = c.turn {
            s.turn = t;
        }
        let on_map = |h: &HexId| s.scenario.terrain_of.contains_key(h);
        if let Some(h) = c.levels.iter().flat_map(|l| l.keys()).find(|h| !on_map(h)) {
            return Err(format!("case state: level of {h}, off the map"));
        }
        for x in &c.hexsides {
            if !on_map(&x.a) || !on_map(&x.b) || !x.a.is_adjacent(x.b) {
                return Err(format!("case state: hexside {}-{} is not between two adjacent map hexes", x.a, x.b));
            }
            if !s.scenario.hexsides.contains_key(&x.feature) {
                return Err(format!("case state: the hexside table has no row for {:?}", x.feature));
            }
        }
        if let Some(levels) = c.levels {
            s.scenario.levels = levels.into_iter().filter(|(_, l)| *l > 0).collect();
        }
        for x in &c.hexsides {
            s.scenario.sides_of.insert(pair(x.a, x.b), x.feature);
        }
        if let Some(cams) = c.cams {
            let sides: Vec<&str> = s.scenario.sides.iter().map(|d| d.id.as_str()).collect();
            if let Some(p) = super::scenario::cam_problems(&cams, &s.scenario.formations, &sides, s.scenario.turns).first() {
                return Err(format!("case state: {p}"));
            }
            s.scenario.cams = cams;
        }
        for (side, list) in &c.generals {
            let i = s.scenario.sides.iter().position(|d| &d.id == side).ok_or_else(|| format!("case state: no side {side}"))?;
            s.scenario.sides[i].generals.extend(list.iter().cloned());
            let sc = &s.scenario;
            let side_of_unit = |u: &str| sc.unit(u).and_then(|d| sc.formation(&d.formation)).map(|f| f.side.clone());
            let problems = super::scenario::general_problems(&sc.sides[i], &side_of_unit, &|h| sc.terrain_of.contains_key(h));
            if let Some(p) = problems.first() {
                return Err(format!("case state: {p}"));
            }
        }
        for (side, g) in &c.command {
            let d = s.scenario.side(side).ok_or_else(|| format!("case state: no side {side}"))?;
            if !d.generals.iter().any(|x| &x.id == g) {
                return Err(format!("case state: {g} is not a further general of {side}"));
            }
            let cinc = d.commander.id.clone();
            s.lost.push(cinc);
            let ch = s.chiefs.iter_mut().find(|x| &x.side == side).ok_or_else(|| format!("case state: no side {side}"))?;
            ch.general = Some(g.clone());
        }
        for (id, t) in &c.waiting {
            let u = s.unit_mut(id).ok_or_else(|| format!("case state: no unit {id}"))?;
            if u.hex.is_some() && c.units.is_none() {
                return Err(format!("case state: {id} is on the map; list `units` to take it off"));
            }
            u.arrives = Some(*t);
        }
        if let Some(units) = c.units {
            for u in &mut s.units {
                u.hex = None;
                u.arrives = c.waiting.get(&u.id).copied();
            }
            for cu in units {
                let u = s.unit_mut(&cu.id).ok_or_else(|| format!("case state: no unit {}", cu.id))?;
                u.hex = Some(cu.hex);
                if let Some(f) = cu.facing {
                    u.facing = f;
                }
                u.disordered = cu.disordered || cu.routed;
                u.routed = cu.routed;
                u.square = cu.square;
                u.marker = cu.marker;
                u.sheltered = cu.sheltered;
                u.arrives = None;
            }
            // Units list bottom first as given: re-sort so artillery tops its stack.
            s.units.sort_by_key(|u| u.kind == super::scenario::Kind::Artillery);
        }
        // A commander the case does not place, whose set-up hex the case gave to enemy
        // units, joins the first unit of his side on the map (2.5.2: never among enemies).
        for ch in s.chiefs.iter_mut().filter(|x| !c.chiefs.contains_key(&x.side)) {
            if s.units.iter().any(|u| u.side != ch.side && u.hex == Some(ch.hex))
                && let Some(h) = s.units.iter().filter(|u| u.side == ch.side).find_map(|u| u.hex)
            {
                ch.hex = h;
            }
        }
        for (side, h) in c.chiefs {
            let ch = s.chiefs.iter_mut().find(|x| x.side == side).ok_or_else(|| format!("case state: no side {side}"))?;
            ch.hex = h;
        }
        s.holder.extend(c.holder);
        s.refusal = c.refusal;
        s.counter = c.counter_attack;
        s.rout = c.rout;
        s.counter_battery = c.counter_battery;
        s.reaction = c.reaction_fire;
        s.evasion = c.chief_evasion;
        s.pursuit = c.pursue;
        s.fallen = c.fallen;
        s.chiefs.retain(|x| !s.fallen.contains(&x.side));
        s.demoralised = c.demoralised;
        s.groups.clear();
        compute_groups(&mut s);
        for g in s.groups.iter_mut() {
            g.committed = true;
            if !c.secret {
                g.status = Some(c.groups.get(&g.id).copied().unwrap_or(Status::SO));
            }
        }
        if let Some(f) = c.activate {
            let side = s.scenario.formation(&f).ok_or_else(|| format!("case state: no formation {f}"))?.side.clone();
            s.activated.push(f.clone());
            s.cup = match &c.cup {
                Some(list) => list.iter().map(|x| parse_am(x)).collect::<Result<Vec<_>, _>>()?,
                None => s.scenario.formations.iter().filter(|x| x.id != f).map(|x| Am { formation: x.id.clone(), n: 1 }).collect(),
            };
            s.cup.sort();
            s.phase = Phase::Activation { am: Am { formation: f, n: c.marker.unwrap_or(1) }, side };
            s.tested = c.tested.into_iter().collect();
            s.initiative = c.winner.clone();
        } else if let Some(side) = c.draw {
            s.cup = match c.cup {
                Some(list) => list.iter().map(|x| parse_am(x)).collect::<Result<Vec<_>, _>>()?,
                None => s
                    .scenario
                    .formations
                    .iter()
                    .flat_map(|f| (1..=f.initiative.len() as u8).map(|n| Am { formation: f.id.clone(), n }))
                    .collect(),
            };
            s.cup.sort();
            s.phase = Phase::Draw { side };
        } else if let Some(side) = c.initiative {
            s.phase = Phase::Initiative { side };
        } else if let Some(side) = c.pick {
            super::turn::fill_cup(&mut s);
            if let Some(list) = &c.cup {
                s.cup = list.iter().map(|x| parse_am(x)).collect::<Result<Vec<_>, _>>()?;
                s.cup.sort();
            }
            s.initiative = Some(side.clone());
            s.phase = Phase::Pick { side };
        } else {
            for g in s.groups.iter_mut() {
                g.committed = false;
                g.status = None;
            }
        }
        // 2.5.2: the contacts the case starts with are accepted, as after any check.
        for side in ["french", "austrian"] {
            super::chief::settle(&mut s, side);
        }
        JoursDeGloire::check_invariants(&s).map_err(|e| format!("case state: {e}"))?;
        Ok(s)
    }
    /// The cup draw's die is read as a position from 0, the d10 as its face: both 0-based.
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        dice.to_vec()
    }
}
