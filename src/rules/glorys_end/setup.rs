//! Building the starting state from a scenario (GE-16.2, 16.3) or from a rule case.

use std::collections::BTreeMap;

use super::board::Board;
use super::campaign::Campaign;
use super::map;
use super::scenario::{self, Scenario, UnitSize, UnitType};
use super::state::{ElimVp, Grant, Kind, Per, Phase, Place, SideId, Size, State, Unit, Values};
use super::turn;
use crate::engine::{ScenarioError, SeatInfo};
use crate::geo::hex::HexId;

/// The rules' side of a map side.
pub fn side(s: map::Side) -> SideId {
    match s {
        map::Side::German => SideId::German,
        map::Side::Allied => SideId::Allied,
    }
}

fn size(s: UnitSize) -> Size {
    match s {
        UnitSize::Corps => Size::Corps,
        UnitSize::Division => Size::Division,
        UnitSize::Brigade | UnitSize::Battalion => Size::Brigade,
        UnitSize::None => Size::None,
    }
}

/// The starting state of a checked scenario.
pub fn from_scenario(sc: &Scenario, seats: &[SeatInfo]) -> State {
    let mut st = build(sc, seats);
    turn::start_player_turn(&mut st);
    st
}

/// The state of a checked scenario before its first player turn starts.
fn build(sc: &Scenario, seats: &[SeatInfo]) -> State {
    let mut units = Vec::new();
    for u in &sc.units {
        let kind = match u.unit_type {
            UnitType::Cavalry => Kind::Cavalry,
            UnitType::Fortress => Kind::Fortress,
            _ => Kind::Infantry,
        };
        let values = u
            .values
            .iter()
            .map(|v| Values {
                attack: v.attack,
                defence: v.defence,
                movement: v.movement,
                vs_cavalry: v.vs_cav.map(|c| (c.attack, c.defence)),
            })
            .collect();
        let place = match u.placement {
            scenario::Placement::Hex(h) => Place::Hex(h),
            scenario::Placement::Reinforcement(a) => Place::Reinforcement(a.turn.min(255) as u8),
        };
        let ooc = matches!(place, Place::Hex(h) if sc.out_of_command.contains(&h));
        let mut unit = Unit::new(&u.id, &u.name, side(u.side), u.nationality.code(), kind, size(u.size), u.max_sl, values, place);
        unit.sl = u.start_sl;
        unit.start_sl = u.start_sl;
        unit.ooc = ooc;
        // British naval infantry (GE 2.7): fights and moves as infantry, with exceptions (`naval.rs`).
        unit.naval = u.unit_type == UnitType::NavalInfantry;
        // Entry codes (GE 8.2-8.5) are a campaign matter; Marne units use their supply edge.
        if sc.campaign.is_some() {
            unit.entry = u.arrival().map(|a| a.entry);
        }
        units.push(unit);
    }
    // Forts are 1-SL fortress units with their defence factor (GE-14.2 basics).
    for f in &sc.forts {
        let values = vec![Values { attack: 0, defence: f.defence, movement: 0, vs_cavalry: None }];
        units.push(Unit::new(
            &f.id,
            &f.name,
            side(f.nationality.side()),
            f.nationality.code(),
            Kind::Fortress,
            Size::None,
            1,
            values,
            Place::Hex(f.hex),
        ));
    }
    // Siege guns: units with no factors of their own and a nominal 1 SL (GE-14.7, `siege.rs`).
    for g in &sc.siege_guns {
        let values = vec![Values { attack: 0, defence: 0, movement: g.movement, vs_cavalry: None }];
        units.push(Unit::new(&g.id, &g.name, SideId::German, "DE", Kind::SiegeGun, Size::None, 1, values, Place::Hex(g.hex)));
    }
    let board = Board::new(sc.map.clone());
    let mut control = BTreeMap::new();
    for h in board.hex_ids() {
        control.insert(*h, side(sc.initial_controller(*h)));
    }
    let town_vp = sc
        .victory
        .towns
        .iter()
        .filter_map(|t| t.hex.or_else(|| sc.map.find_place(&t.name)).map(|h| (h, side(t.side), t.value as i32)))
        .collect();
    let german_auto_win = sc.auto_win.iter().filter(|a| a.side == map::Side::German).flat_map(|a| a.hexes.iter().copied()).collect();
    let south_row = sc.victory.units_beyond_row.first().map(|r| r.min_row.saturating_sub(1)).unwrap_or(31);
    let mut seat_map = BTreeMap::new();
    for s in seats {
        if let Some(sd) = SideId::parse(&s.side) {
            seat_map.entry(sd).or_insert_with(|| s.seat.clone());
        }
    }
    State {
        board: board.into(),
        units,
        seats: seat_map,
        turn: sc.turns.first.min(255) as u8,
        first_turn: sc.turns.first.min(255) as u8,
        last_turn: sc.turns.last.min(255) as u8,
        player: side(sc.turns.first_player),
        phase: Phase::Movement,
        initial_control: control.clone().into(),
        control,
        vp: BTreeMap::from([(SideId::German, 0), (SideId::Allied, 0)]),
        ma_targets: vec![],
        elim_vp: sc
            .victory
            .eliminations
            .iter()
            .map(|e| ElimVp {
                scorer: side(e.scorer),
                victims: e.victims.iter().map(|n| n.code().to_string()).collect(),
                per: match e.per {
                    scenario::VpPer::Corps => Per::Corps,
                    scenario::VpPer::Division => Per::Division,
                    scenario::VpPer::Sl => Per::Sl,
                },
                value: e.value as i32,
            })
            .collect(),
        town_vp,
        german_auto_win,
        south_row,
        replacements: sc.replacements.start.iter().filter(|(_, sl)| **sl > 0).map(|(n, sl)| (n.code().to_string(), *sl)).collect(),
        replacement_grants: sc
            .replacements
            .grants
            .iter()
            .map(|g| Grant {
                nation: g.nationality.code().to_string(),
                from: g.from_turn.min(255) as u8,
                to: g.to_turn.map(|t| t.min(255) as u8),
                per_turn: g.per_turn,
            })
            .collect(),
        belgium_violated: sc.special.belgium_violated,
        // GE-16.3: the T8 checks are taken as made (the Allied one is; reading for the German).
        command_from: if sc.special.skip_first_command_check { sc.turns.first.min(254) as u8 + 1 } else { sc.turns.first.min(255) as u8 },
        command: None,
        battle: None,
        outcome: None,
        campaign: sc.campaign.as_ref().map(|c| Box::new(campaign_state(sc, c.short))),
        trenches: BTreeMap::new(),
        entrench: None,
        standing: BTreeMap::new(),
        batch: None,
        towns_changed: vec![],
        towns_changed_turn: vec![],
        hentsch: Default::default(),
        counters: None,
        fortified: sc
            .fortified_zones
            .iter()
            .map(|z| (z.hex, super::fortified::Zone { side: side(z.nationality.side()), nation: z.nationality.code().to_string() }))
            .collect(),
        siege: super::siege::SiegeData {
            calibre: sc.siege_guns.iter().map(|g| (g.id.clone(), g.calibre)).collect(),
            modifier: sc.forts.iter().filter(|f| f.siege_modifier != 0).map(|f| (f.id.clone(), f.siege_modifier)).collect(),
        },
        secret: None,
    }
}

/// The campaign bookkeeping at the start (GE 4.1 starting VP, 4.3 conditional hexes, 7.3 edges).
fn campaign_state(sc: &Scenario, short: bool) -> Campaign {
    Campaign {
        short,
        supply_edges: sc.supply_edges.iter().map(|(s, e)| (side(*s), e.clone())).collect(),
        event_vp: [map::Side::German, map::Side::Allied]
            .into_iter()
            .map(|s| (side(s), sc.victory.start.get(&s).copied().unwrap_or(0)))
            .collect(),
        conditional: sc
            .victory
            .towns
            .iter()
            .filter(|t| t.conditional)
            .filter_map(|t| t.hex.or_else(|| sc.map.find_place(&t.name)))
            .collect(),
        ..Campaign::default()
    }
}

/// `setup`: parse, check, build.
pub fn from_text(text: &str, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
    from_text_with(text, None, seats)
}

/// `setup` with the genesis options: `secret_setup: true` makes a historical campaign's
/// placement secret (GE 3.3); a free-deployment scenario always is (GE 3.5).
pub fn from_text_with(text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<State, ScenarioError> {
    let sc = scenario_of(text).map_err(|problems| ScenarioError { problems })?;
    check_seats(seats)?;
    let Some(free) = super::secret::wanted(&sc, options) else {
        return Ok(from_scenario(&sc, seats));
    };
    let mut st = build(&sc, seats);
    // The player turn starts once both placements are open (`secret::step`).
    super::secret::begin(&mut st, &sc, free);
    Ok(st)
}

thread_local! {
    /// The last scenario text read on this thread, and what it reads as: a referee's `verify`
    /// of many logs of one tournament reads the same text for each (reading the Marne takes
    /// as long as the rules take on some seventy of its entries, issue 20).
    static LAST_SCENARIO: std::cell::RefCell<Option<(Box<str>, std::rc::Rc<Scenario>)>> = const { std::cell::RefCell::new(None) };
}

/// [`Scenario::from_text`], read again only when the text differs from the last one read.
fn scenario_of(text: &str) -> Result<std::rc::Rc<Scenario>, Vec<String>> {
    if let Some(sc) = LAST_SCENARIO.with(|l| l.borrow().as_ref().filter(|(t, _)| **t == *text).map(|(_, sc)| sc.clone())) {
        return Ok(sc);
    }
    let sc = std::rc::Rc::new(Scenario::from_text(text)?);
    LAST_SCENARIO.with(|l| *l.borrow_mut() = Some((text.into(), sc.clone())));
    Ok(sc)
}

/// Glory's End is for two players: exactly one seat on each side (`german`, `allied`). A seat
/// on any other side, or a second seat on a side, would never be asked to move: the game
/// would be dead at its first turn while its log verified, so such a genesis is refused.
pub fn check_seats(seats: &[SeatInfo]) -> Result<(), ScenarioError> {
    let mut problems = Vec::new();
    let mut taken: BTreeMap<SideId, &str> = BTreeMap::new();
    for s in seats {
        match SideId::parse(&s.side) {
            None => problems.push(format!(
                "seat {:?} is on side {:?}, which Glory's End does not have (its seats are german and allied, one per side)",
                s.seat, s.side
            )),
            Some(side) => {
                if let Some(first) = taken.insert(side, &s.seat) {
                    problems.push(format!(
                        "side {} has two seats ({first:?} and {:?}); Glory's End has one seat per side (german, allied)",
                        side.name(),
                        s.seat
                    ));
                }
            }
        }
    }
    for side in [SideId::German, SideId::Allied] {
        if problems.is_empty() && !taken.contains_key(&side) {
            problems.push(format!("no seat plays side {} (its seats are german and allied, one per side)", side.name()));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(ScenarioError { problems }) }
}

/// The hex ids of a block of rows and columns (for case boards).
pub fn block(rows: (u8, u8), cols: (u8, u8)) -> Vec<HexId> {
    let mut v = Vec::new();
    for r in rows.0..=rows.1 {
        for c in cols.0..=cols.1 {
            v.push(HexId::new(r, c));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Ruleset;
    use crate::rules::glorys_end::GlorysEnd;

    fn seats() -> Vec<SeatInfo> {
        vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }]
    }

    #[test]
    fn marne_state_round_trips() {
        let s = GlorysEnd::setup(scenario::MARNE_YAML, None, &seats()).expect("setup");
        GlorysEnd::check_invariants(&s).expect("invariants");
        let json = serde_json::to_string(&s).expect("json");
        let back: State = serde_json::from_str(&json).expect("json back");
        assert_eq!(s, back);
        let yaml = yaml_serde::to_string(&s).expect("yaml");
        let back: State = yaml_serde::from_str(&yaml).expect("yaml back");
        assert_eq!(s, back);
        assert_eq!(s.turn, 8);
        assert_eq!(s.player, SideId::Allied);
        assert!(s.units.iter().filter(|u| u.ooc).all(|u| u.nation == "GB"));
    }

    #[test]
    fn bad_scenario_is_an_error() {
        assert!(GlorysEnd::setup("not: a scenario", None, &seats()).is_err());
    }
}
