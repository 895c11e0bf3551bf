//! The compact prestate of Glory's End rule cases (`tests/cases/glorys-end/*.yaml`).
//!
//! Either `base: marne`, `base: short-campaign` or `base: campaign` (a bundled scenario; then `units:` lists the only units kept,
//! by id with `hex` and `sl`, values from the roster) or a small rectangular board of clear
//! hexes (`rows: [28, 34]`, `cols: [26, 34]`; edges are the block's sides) with `terrain`,
//! `cities`, `places` (named towns), `paris`, `rivers` and units written out (`a`, `d`, `m` values, optional `cav`
//! bracket values, `size`, `kind`). Then `turn`, `player`, `phase`, `control`.
//!
//! Hidden stacks (GE 13.8, 15): `hidden_counters: true`, `dummies: {FR: 2}` (the supply) and
//! `counters: [{hex: 3231, nation: FR, is: dummy}, {is: FR-2}]`, counters already on the map
//! (`c1`, `c2`, … in that order), known to the replay only with `counters_known: true`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::GlorysEnd;
use super::board::Board;
use super::map::{Hexside, Map, Place as MapPlace, PlaceKind, RiverKind, Terrain, side_key};
use super::scenario::Scenario;
use super::setup;
use super::state::{Kind, MoveState, Phase, Place, SideId, Size, State, Unit, Values};
use super::supply;
use crate::engine::SeatInfo;
use crate::engine::cases::CaseRuleset;
use crate::geo::hex::HexId;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseState {
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    rows: Option<(u8, u8)>,
    #[serde(default)]
    cols: Option<(u8, u8)>,
    #[serde(default)]
    terrain: BTreeMap<HexId, Terrain>,
    #[serde(default)]
    cities: Vec<HexId>,
    #[serde(default)]
    paris: Vec<HexId>,
    /// Named towns (supply sources, VP towns).
    #[serde(default)]
    places: BTreeMap<HexId, String>,
    #[serde(default)]
    rivers: Vec<CaseRiver>,
    #[serde(default)]
    units: Vec<CaseUnit>,
    #[serde(default)]
    turn: Option<u8>,
    #[serde(default)]
    last_turn: Option<u8>,
    #[serde(default)]
    player: Option<SideId>,
    #[serde(default)]
    phase: Option<Phase>,
    #[serde(default)]
    control: BTreeMap<HexId, SideId>,
    #[serde(default)]
    towns: Vec<(HexId, SideId, i32)>,
    #[serde(default)]
    auto_win: Option<Vec<HexId>>,
    /// Trench markers: `[[hex, side, completed]]` (GE-9).
    #[serde(default)]
    trenches: Vec<(HexId, SideId, bool)>,
    /// Fortified zones: `[[hex, side]]` (GE-14.3); the nationality is the side's first.
    #[serde(default)]
    zones: Vec<(HexId, SideId)>,
    /// Modern forts' siege modifiers by fort id (`{FR-V: 3}`, GE-14.10).
    #[serde(default)]
    siege_modifiers: BTreeMap<String, i32>,
    /// Replacement SL on the tracks (`{FR: 3}`); the Marne's income schedule applies.
    #[serde(default)]
    replacements: Option<BTreeMap<String, u32>>,
    /// Campaign prestates (`base: short-campaign`): event VP by side, Paris endangered.
    #[serde(default)]
    campaign_vp: BTreeMap<SideId, i32>,
    #[serde(default)]
    paris_endangered: bool,
    /// Campaign prestates: the T5 withdrawal already decided (`true` made, `false` declined,
    /// GE-8.8).
    #[serde(default)]
    withdrawal: Option<bool>,
    /// The optional Hentsch rule agreed (GE-10.4; campaigns and the Marne, 16.3).
    #[serde(default)]
    hentsch: bool,
    /// Campaign prestates: start in the secret setup (GE 3.3, the `secret_setup` option);
    /// `base: free-deployment` always does (GE 3.5).
    #[serde(default)]
    secret_setup: bool,
    /// Hidden stacks (GE 13.8, the `hidden_counters` option; `counters.rs`).
    #[serde(default)]
    hidden_counters: bool,
    /// Dummy counters supplied per nationality (`{FR: 2, DE: 1}`, GE 15.1, the `dummies`
    /// option); implies `hidden_counters`.
    #[serde(default)]
    dummies: BTreeMap<String, u32>,
    /// Counters already on the map, numbered `c1`, `c2`, … in the order written; implies
    /// `hidden_counters`.
    #[serde(default)]
    counters: Vec<CaseCounter>,
    /// The replay knows what every prestate counter is (as `verify`'s omniscient pass does);
    /// by default only openings tell.
    #[serde(default)]
    counters_known: bool,
}

/// A counter of the prestate: `{hex: 3231, nation: FR, is: dummy}` or `{is: FR-2}` (a unit of
/// `units:`, which goes under it where it stands).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseCounter {
    #[serde(default)]
    hex: Option<HexId>,
    #[serde(default)]
    nation: Option<String>,
    is: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseRiver {
    a: HexId,
    b: HexId,
    #[serde(default = "major")]
    kind: RiverKind,
}

fn major() -> RiverKind {
    RiverKind::Major
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    #[serde(default)]
    hex: Option<HexId>,
    #[serde(default)]
    arrives: Option<u8>,
    #[serde(default)]
    sl: Option<u8>,
    #[serde(default)]
    max: Option<u8>,
    #[serde(default)]
    a: Option<u32>,
    #[serde(default)]
    d: Option<u32>,
    #[serde(default)]
    m: Option<u32>,
    #[serde(default)]
    cav: Option<(u32, u32)>,
    #[serde(default)]
    size: Option<Size>,
    #[serde(default)]
    kind: Option<Kind>,
    /// Siege guns: 305 or 420 (GE-14.7, E.2).
    #[serde(default)]
    calibre: Option<u32>,
    #[serde(default)]
    ooc: bool,
    #[serde(default)]
    moved: bool,
    #[serde(default)]
    attacked: bool,
    /// The unit starts eliminated (rebuilding, GE-8.7); give no hex.
    #[serde(default)]
    eliminated: bool,
    /// British naval infantry (GE 2.7, `naval.rs`); with `size: brigade` the Naval Brigade.
    #[serde(default)]
    naval: bool,
    /// A reinforcement's entry code as in a campaign (`south`, `paris`, a hex; GE 8.2–8.5).
    /// Without one a waiting unit of a non-campaign prestate enters as the Marne's do, by
    /// strategic movement (GE 16.3).
    #[serde(default)]
    entry: Option<super::scenario::Entry>,
}

fn blank_unit(id: &str) -> Unit {
    let nation = id.split('-').next().unwrap_or("DE").to_ascii_uppercase();
    let side = if nation == "DE" { SideId::German } else { SideId::Allied };
    let mut u = Unit::new(id, &id.replace('-', " "), side, &nation, Kind::Infantry, Size::Corps, 4, vec![], Place::OffMap);
    u.sl = 1;
    u.start_sl = 1;
    u
}

/// Build a case's prestate.
pub fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
    let cs: CaseState = yaml_serde::from_value(value.clone()).map_err(|e| format!("case state: {e}"))?;
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let mut st = match cs.base.as_deref() {
        Some("marne") => {
            let sc = Scenario::from_text(super::scenario::MARNE_YAML).map_err(|e| e.join("; "))?;
            let mut st = setup::from_scenario(&sc, &seats);
            if !cs.units.is_empty() {
                let keep: Vec<&str> = cs.units.iter().map(|u| u.id.as_str()).collect();
                st.units.retain(|u| keep.contains(&u.id.as_str()));
            }
            st
        }
        Some(name @ ("short-campaign" | "campaign")) => {
            let text = if name == "campaign" { super::scenario::CAMPAIGN_YAML } else { super::scenario::SHORT_CAMPAIGN_YAML };
            if cs.secret_setup {
                let opts: yaml_serde::Value = yaml_serde::from_str("secret_setup: true").map_err(|e| e.to_string())?;
                return secret_case(setup::from_text_with(text, Some(&opts), &seats).map_err(|e| e.to_string())?, &cs);
            }
            let sc = Scenario::from_text(text).map_err(|e| e.join("; "))?;
            let mut st = setup::from_scenario(&sc, &seats);
            if !cs.units.is_empty() {
                let keep: Vec<&str> = cs.units.iter().map(|u| u.id.as_str()).collect();
                st.units.retain(|u| keep.contains(&u.id.as_str()));
            }
            st
        }
        Some("free-deployment") => {
            return secret_case(
                setup::from_text_with(super::scenario::FREE_DEPLOYMENT_YAML, None, &seats).map_err(|e| e.to_string())?,
                &cs,
            );
        }
        Some(other) => return Err(format!("unknown base {other:?}")),
        None => {
            let rows = cs.rows.unwrap_or((28, 34));
            let cols = cs.cols.unwrap_or((26, 34));
            let board = Board::new(Map::block(rows, cols));
            let mut control = BTreeMap::new();
            for h in board.hex_ids() {
                control.insert(*h, SideId::Allied);
            }
            State {
                board: board.into(),
                units: vec![],
                seats: BTreeMap::from([(SideId::German, "german".to_string()), (SideId::Allied, "allied".to_string())]),
                turn: 8,
                first_turn: 8,
                last_turn: 12,
                player: SideId::German,
                phase: Phase::Movement,
                initial_control: control.clone().into(),
                control,
                vp: BTreeMap::from([(SideId::German, 0), (SideId::Allied, 0)]),
                ma_targets: vec![],
                elim_vp: super::state::marne_eliminations(),
                town_vp: vec![],
                german_auto_win: vec![],
                south_row: 31,
                replacements: BTreeMap::new(),
                replacement_grants: super::state::marne_grants(),
                belgium_violated: true,
                // Block prestates roll no command & control unless a case starts in phase C.
                command_from: 99,
                command: None,
                battle: None,
                outcome: None,
                campaign: None,
                trenches: BTreeMap::new(),
                entrench: None,
                standing: BTreeMap::new(),
                batch: None,
                towns_changed: vec![],
                towns_changed_turn: vec![],
                hentsch: Default::default(),
                counters: None,
                fortified: BTreeMap::new(),
                siege: Default::default(),
                secret: None,
            }
        }
    };
    std::sync::Arc::make_mut(&mut st.board).edit(|m| {
        for (h, t) in &cs.terrain {
            if let Some(i) = m.hexes.get_mut(h) {
                i.terrain = *t;
            }
        }
        for (h, n) in &cs.places {
            if let Some(i) = m.hexes.get_mut(h) {
                i.place = Some(MapPlace { name: n.clone(), kind: PlaceKind::Town });
            }
        }
        for h in &cs.cities {
            if let Some(i) = m.hexes.get_mut(h) {
                let name = i.place.take().map_or_else(|| format!("city {h}"), |p| p.name);
                i.place = Some(MapPlace { name, kind: PlaceKind::City });
            }
        }
        for h in &cs.paris {
            if let Some(i) = m.hexes.get_mut(h) {
                i.paris = true;
            }
        }
        for r in &cs.rivers {
            let kind = match r.kind {
                RiverKind::Minor => Hexside::MinorRiver,
                RiverKind::Major => Hexside::MajorRiver,
            };
            m.hexsides.insert(side_key(r.a, r.b), kind);
        }
    });
    for cu in &cs.units {
        let existing = st.units.iter().position(|u| u.id == cu.id);
        let mut u = match existing {
            Some(i) => st.units.remove(i),
            None => blank_unit(&cu.id),
        };
        if let Some(k) = cu.kind {
            u.kind = k;
        }
        if let Some(s) = cu.size {
            u.size = s;
        }
        if let Some(m) = cu.max {
            u.max_sl = m;
        }
        if existing.is_none() {
            let max = cu.max.unwrap_or_else(|| cu.sl.unwrap_or(1).max(1));
            u.max_sl = max;
            let vals = Values { attack: cu.a.unwrap_or(0), defence: cu.d.unwrap_or(0), movement: cu.m.unwrap_or(4), vs_cavalry: cu.cav };
            u.values = vec![vals; max as usize];
            if matches!(u.kind, Kind::Fortress | Kind::SiegeGun) {
                u.size = Size::None;
            }
        } else {
            for v in u.values.iter_mut() {
                if let Some(a) = cu.a {
                    v.attack = a;
                }
                if let Some(d) = cu.d {
                    v.defence = d;
                }
                if let Some(m) = cu.m {
                    v.movement = m;
                }
            }
        }
        if let Some(sl) = cu.sl {
            u.sl = sl;
        }
        if u.sl > u.max_sl {
            return Err(format!("{}: {} SL exceeds the maximum {}", u.id, u.sl, u.max_sl));
        }
        u.start_sl = u.sl;
        u.place = match (cu.hex, cu.arrives) {
            _ if cu.eliminated => {
                u.sl = 0;
                Place::Eliminated
            }
            (Some(h), _) => Place::Hex(h),
            (None, Some(t)) => Place::Reinforcement(t),
            (None, None) => return Err(format!("{}: give hex or arrives", u.id)),
        };
        if u.kind == Kind::SiegeGun {
            st.siege.calibre.insert(u.id.clone(), cu.calibre.unwrap_or(420));
        }
        u.ooc = cu.ooc;
        u.naval |= cu.naval;
        if cu.entry.is_some() {
            u.entry = cu.entry;
        }
        u.moved = cu.moved;
        u.attacked = cu.attacked;
        if u.moved {
            u.move_state = MoveState::Done;
        }
        st.units.push(u);
    }
    // Before control is taken: a dummy controls its hex like infantry (G.4 item 22 reading).
    place_counters(&mut st, &cs)?;
    if let Some(t) = cs.turn {
        st.turn = t;
    }
    if let Some(t) = cs.last_turn {
        st.last_turn = t;
    }
    if let Some(p) = cs.player {
        st.player = p;
    }
    if let Some(p) = cs.phase {
        st.phase = p;
    }
    for u in &st.units {
        if let Some(h) = u.hex()
            && u.kind != Kind::Cavalry
        {
            st.control.insert(h, u.side);
            std::sync::Arc::make_mut(&mut st.initial_control).insert(h, u.side);
        }
    }
    for (h, s) in &cs.control {
        st.control.insert(*h, *s);
        std::sync::Arc::make_mut(&mut st.initial_control).insert(*h, *s);
    }
    if !cs.towns.is_empty() {
        st.town_vp = cs.towns.clone();
    }
    if let Some(r) = cs.replacements {
        st.replacements = r;
    }
    for (h, side, complete) in &cs.trenches {
        st.trenches.insert(*h, super::entrench::Trench { side: *side, complete: *complete });
    }
    // A case that puts units into an enemy zone of its base scenario has taken it (GE-14.3).
    let taken: Vec<HexId> = st.fortified.iter().filter(|(h, z)| st.units_at(**h).any(|u| u.side != z.side)).map(|(h, _)| *h).collect();
    for h in taken {
        st.fortified.remove(&h);
    }
    for (h, side) in &cs.zones {
        let nation = if *side == SideId::German { "DE" } else { "FR" };
        st.fortified.insert(*h, super::fortified::Zone { side: *side, nation: nation.to_string() });
    }
    for (id, m) in &cs.siege_modifiers {
        st.siege.modifier.insert(id.clone(), *m);
    }
    if let Some(a) = cs.auto_win {
        st.german_auto_win = a;
    }
    st.vp = BTreeMap::from([(SideId::German, 0), (SideId::Allied, 0)]);
    if cs.units.iter().any(|u| u.eliminated) {
        // Units that start eliminated have already scored (the ledger invariant).
        let (de, al) = super::vp::recompute_ledger(&st);
        st.vp = BTreeMap::from([(SideId::German, de), (SideId::Allied, al)]);
    }
    if let Some(c) = st.campaign.as_deref_mut() {
        for (side, vp) in &cs.campaign_vp {
            c.event_vp.insert(*side, *vp);
        }
        c.paris_endangered |= cs.paris_endangered;
        if cs.withdrawal.is_some() {
            c.withdrawal = cs.withdrawal;
        }
    }
    if cs.hentsch {
        st.hentsch = super::hentsch::Hentsch::Armed;
    }
    // A prestate is the start of its player turn (GE 7.3, 4.8: towns held by cavalry alone).
    st.note_towns_at_start();
    supply::mark_start_of_movement(&mut st);
    Ok(st)
}

/// A prestate in the secret setup: the scenario as set up, nothing else may be changed.
fn secret_case(mut st: State, cs: &CaseState) -> Result<State, String> {
    if !cs.units.is_empty() || cs.turn.is_some() || cs.player.is_some() || cs.phase.is_some() {
        return Err("a secret-setup prestate takes the scenario as it is (no units, turn, player or phase)".into());
    }
    if !cs.counters.is_empty() || cs.counters_known {
        return Err("a secret-setup prestate places no counters: its placement does".into());
    }
    place_counters(&mut st, cs)?;
    // Event VP may be set (e.g. to reach the 20 German VP of GE 3.7 quickly).
    if let Some(c) = st.campaign.as_deref_mut() {
        for (side, vp) in &cs.campaign_vp {
            c.event_vp.insert(*side, *vp);
        }
    }
    Ok(st)
}

/// The prestate's hidden stacks: the counters (`hidden_counters`, `dummies`, `counters`),
/// built as a secret placement builds them (`counters::place_setup`): one batch per
/// nationality holding the records of every counter of that colour, dummies last, and each
/// counter's placeholder where its unit or dummy stands.
fn place_counters(st: &mut State, cs: &CaseState) -> Result<(), String> {
    use super::counters::{self, Counters};
    if !cs.hidden_counters && cs.dummies.is_empty() && cs.counters.is_empty() {
        return Ok(());
    }
    let mut c = Counters::new();
    for (n, k) in &cs.dummies {
        if counters::nation_side(n).is_none() {
            return Err(format!("dummies: {n:?} is not a nationality with dummies (DE, FR, GB)"));
        }
        if *k > 0 {
            c.dummies.insert(n.clone(), *k);
        }
    }
    // Nationality → (units, number of dummies); each counter's id, colour and record in order.
    let mut by_nation: BTreeMap<String, (Vec<Unit>, u32)> = BTreeMap::new();
    let mut placed: Vec<(String, String, Unit)> = Vec::new();
    for (i, cc) in cs.counters.iter().enumerate() {
        let cid = format!("{}{}", counters::PREFIX, i + 1);
        if cc.is == "dummy" {
            let (Some(nation), Some(hex)) = (cc.nation.clone(), cc.hex) else {
                return Err(format!("{cid}: a dummy counter gives its hex and nation"));
            };
            let entry = by_nation.entry(nation.clone()).or_default();
            entry.1 += 1;
            if entry.1 > c.dummies.get(&nation).copied().unwrap_or(0) {
                return Err(format!("{cid}: more {nation} dummies than `dummies:` supplies (GE 15.1)"));
            }
            let mut d = counters::dummy_record(&nation, entry.1);
            d.place = Place::Hex(hex);
            placed.push((cid, nation, d));
            continue;
        }
        let Some(k) = st.units.iter().position(|u| u.id == cc.is) else {
            return Err(format!("{cid}: {} is not a unit of `units:` (or `dummy`)", cc.is));
        };
        let u = st.units.remove(k);
        let Some(hex) = u.hex() else { return Err(format!("{cid}: {} is not on the map", u.id)) };
        if cc.hex.is_some_and(|h| h != hex) || cc.nation.as_ref().is_some_and(|n| *n != u.nation) {
            return Err(format!("{cid}: {} is a {} unit in {hex}", u.id, u.nation));
        }
        if !counters::hideable(&u) {
            return Err(format!("{cid}: {} is never hidden (fortresses, siege guns, naval, Belgian)", u.id));
        }
        by_nation.entry(u.nation.clone()).or_default().0.push(u.clone());
        placed.push((cid, u.nation.clone(), u));
    }
    let mut batch_of: BTreeMap<String, u32> = BTreeMap::new();
    for (nation, (units, k)) in by_nation {
        batch_of.insert(nation.clone(), c.batches.len() as u32);
        c.batches.push(units.into_iter().chain((1..=k).map(|n| counters::dummy_record(&nation, n))).collect());
    }
    for (cid, nation, record) in &placed {
        let b = batch_of.get(nation).copied().unwrap_or_default();
        st.units.push(counters::placeholder(record, cid, b));
        if cs.counters_known {
            c.known.insert(cid.clone(), record.id.clone());
        }
    }
    c.next = placed.len() as u32 + 1;
    st.counters = Some(Box::new(c));
    Ok(())
}

impl CaseRuleset for GlorysEnd {
    fn case_state(value: &yaml_serde::Value) -> Result<State, String> {
        case_state(value)
    }
    fn case_faces(dice: &[u32]) -> Vec<u32> {
        dice.iter().map(|d| d.saturating_sub(1)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::glorys_end::counters;

    fn load(text: &str) -> Result<State, String> {
        case_state(&yaml_serde::from_str(text).expect("yaml"))
    }

    #[test]
    fn prestate_counters_are_built_as_a_placement_builds_them() {
        let st = load(
            "
dummies: {FR: 2, DE: 1}
counters_known: true
units:
  - {id: DE-1, hex: 3131, sl: 4}
  - {id: FR-1, hex: 3231, sl: 2}
  - {id: FR-2, hex: 3231, sl: 3}
counters: [{hex: 3231, nation: FR, is: dummy}, {is: FR-2}, {hex: 3231, nation: FR, is: dummy}, {hex: 3331, nation: DE, is: dummy}]
",
        )
        .expect("prestate");
        let c = st.counters.as_deref().expect("counters");
        assert_eq!(c.next, 5);
        assert_eq!(c.dummies, BTreeMap::from([("DE".to_string(), 1), ("FR".to_string(), 2)]));
        // One batch per nationality: its units, then its dummies placed.
        let batches: Vec<Vec<&str>> = c.batches.iter().map(|b| b.iter().map(|u| u.id.as_str()).collect()).collect();
        assert_eq!(batches, [vec!["dummy:DE:1"], vec!["FR-2", "dummy:FR:1", "dummy:FR:2"]]);
        let known: Vec<(&str, &str)> = c.known.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(known, [("c1", "dummy:FR:1"), ("c2", "FR-2"), ("c3", "dummy:FR:2"), ("c4", "dummy:DE:1")]);
        assert!(st.unit("FR-2").is_none(), "FR-2 is under c2");
        for (cid, nation, row) in [("c1", "FR", 32), ("c2", "FR", 32), ("c3", "FR", 32), ("c4", "DE", 33)] {
            let p = st.unit(cid).expect("placeholder");
            assert!(counters::is_hidden(p) && p.nation == nation && p.hex() == Some(HexId::new(row, 31)), "{cid}: {p:?}");
        }
        // A counter alone controls its hex like infantry (block hexes start Allied).
        assert_eq!(st.control(HexId::new(33, 31)), Some(SideId::German));
        // The omniscient replay checks the real records: the dummy's 4 MP, FR-2's 3 SL.
        let um = counters::unmasked(&st);
        assert_eq!(um.unit("c1").map(|u| (u.dummy, u.values[0].movement)), Some((true, counters::DUMMY_MP)));
        assert_eq!(um.unit("c2").map(|u| u.sl), Some(3));
        // Public by default; the supply is a hard limit; a unit goes under a counter where it stands.
        let public = load("dummies: {DE: 1}\ncounters: [{hex: 3131, nation: DE, is: dummy}]").expect("public");
        assert!(public.counters.as_deref().is_some_and(|c| c.known.is_empty()));
        assert!(load("dummies: {DE: 1}\ncounters: [{hex: 3131, nation: DE, is: dummy}, {hex: 3131, nation: DE, is: dummy}]").is_err());
        assert!(load("counters: [{hex: 3131, nation: DE, is: dummy}]").is_err());
        assert!(load("units: [{id: DE-1, hex: 3131}]\ncounters: [{hex: 3132, is: DE-1}]").is_err());
        assert!(load("units: [{id: DE-1, hex: 3131}]\ncounters: [{is: DE-9}]").is_err());
    }
}
