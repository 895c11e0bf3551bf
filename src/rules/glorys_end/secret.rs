//! Secret setup (GE 3.3, 3.5, 3.6) as commit-then-open (DESIGN §2.6).
//!
//! The rulebook has each side place its initial-army units while the other does not watch
//! (3.3), or both write their whole plan in secret before either is revealed (3.5). By mail
//! that is four entries before turn 1:
//!
//! 1. Allied `deploy: {plan: ...}`: the author's tool commits the plan (`setup-allied`), the
//!    log carries `deploy: {}` and a digest;
//! 2. German, the same (`setup-german`);
//! 3. Allied `deploy: {reveal: true}`: the tool opens `setup-allied`, the units appear;
//! 4. German, the same; turn 1 starts.
//!
//! Both plans are bound before either is seen, so the order of the openings gives nothing
//! away. A plan is checked against 3.3 (and 3.5/3.6 in free deployment) as soon as the
//! replay knows it: at commit time on the author's own view and in `verify`'s omniscient
//! pass (a lie is then named at the committing entry), at opening time in public mode.
//! Units are placed only when the plan is opened, so the public facts are the same in every
//! mode.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::map::Country;
use super::scenario::{Deployment, Scenario};
use super::setup::side;
use super::state::{Kind, Place, SideId, State};
use crate::dice::Dice;
use crate::engine::{Committed, Concealed, Event, HiddenActs, Violation};
use crate::geo::hex::HexId;

/// How far from its army's mobilization marker a unit may be placed (GE 3.3).
pub const MARKER_RANGE: u32 = super::deploy::MARKER_RANGE;

/// The `deploy` action (GE 3.3, 3.5).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deploy {
    /// The placement, in plain text as the author writes it; the author's tool turns it into
    /// a commitment, and the log never carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
    /// Open the side's committed placement (the tool adds the opening).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reveal: bool,
    /// With hidden stacks (`hidden_counters`, GE 13.8), the placement as the public sees it,
    /// written by the author's tool from the plan: the top unit of each stack, shown…
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(with = "BTreeMap<String, u32>")]
    pub shown: BTreeMap<String, HexId>,
    /// … and a counter for every other unit (its identity is a commitment).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<super::counters::Placed>,
    /// … and, in free deployment, the mobilization markers (GE 3.5).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(with = "BTreeMap<u8, u32>")]
    pub markers: BTreeMap<u8, HexId>,
}

/// One side's secret placement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// Free deployment only (GE 3.5): the hex of each army's mobilization marker.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(with = "BTreeMap<u8, u32>")]
    pub markers: BTreeMap<u8, HexId>,
    /// The hex of every initial-army unit of the side.
    #[schemars(with = "BTreeMap<String, u32>")]
    pub units: BTreeMap<String, HexId>,
    /// Dummy counters (GE 15, when the game has them), by nationality: the hex of each, the
    /// first being dummy 1 (`dummy:FR:1`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(with = "BTreeMap<String, Vec<u32>>")]
    pub dummies: BTreeMap<String, Vec<HexId>>,
}

impl Plan {
    /// The committed value: compact JSON (maps are ordered, so the text is canonical).
    pub fn to_value(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
    /// The plan's dummies (GE 15.1), each with its nationality and number (dummy `n` is the
    /// `n`-th hex of its nationality's list, counting from 1) and its hex.
    pub fn numbered_dummies(&self) -> impl Iterator<Item = (&str, u32, HexId)> + '_ {
        self.dummies.iter().flat_map(|(n, hexes)| hexes.iter().enumerate().map(move |(i, h)| (n.as_str(), i as u32 + 1, *h)))
    }
    /// Read a committed or opened value.
    pub fn from_value(v: &str) -> Result<Plan, Violation> {
        serde_json::from_str(v).map_err(|e| Violation::new("GE 3.3", format!("the committed value is not a placement: {e}")))
    }
}

/// Where the secret setup stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetupStage {
    /// The side commits its plan.
    Commit(SideId),
    /// The side opens its plan.
    Open(SideId),
    /// Both plans are open; play has started.
    Done,
}

/// The secret setup's bookkeeping (GE 3.3–3.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretSetup {
    /// Free deployment (GE 3.5): markers are part of the plan.
    pub free: bool,
    pub stage: SetupStage,
    /// The units each side places, with their army (public: the counters' printed armies).
    pub armies: BTreeMap<String, u8>,
    /// The scenario's marker hexes: the markers in the historical campaign; in free
    /// deployment only the list of armies and the bot's starting point.
    pub markers: BTreeMap<SideId, BTreeMap<u8, HexId>>,
    /// The scenario's setup hexes of the units placed in secret: the bot's starting point.
    pub defaults: BTreeMap<String, HexId>,
    /// Whether a unit's starting hex in Belgium or Luxembourg gives its side control (GE 4.7).
    pub occupiers: bool,
    /// Commitment id of each side's plan (public).
    pub ids: BTreeMap<SideId, String>,
    /// The plans this replay knows: its own from commit time, the other's once opened.
    pub plans: BTreeMap<SideId, Plan>,
    /// Sides whose plan has been opened (public).
    pub opened: BTreeSet<SideId>,
}

/// The commitment id of a side's plan (one setup a game, so never reused).
pub fn plan_id(s: SideId) -> String {
    format!("setup-{}", s.name())
}

/// Whether a scenario (and the genesis options) ask for a secret setup.
pub fn wanted(sc: &Scenario, options: Option<&yaml_serde::Value>) -> Option<bool> {
    let opt = options.and_then(|o| o.get("secret_setup")).and_then(|v| v.as_bool()).unwrap_or(false);
    match sc.campaign.as_ref().map(|c| c.deployment) {
        Some(Deployment::Free) => Some(true),
        Some(Deployment::Secret) => Some(false),
        Some(Deployment::Fixed) if opt => Some(false),
        _ => None,
    }
}

/// Take the initial-army units off the map and wait for the plans (called by `setup`).
pub fn begin(state: &mut State, sc: &Scenario, free: bool) {
    let mut armies = BTreeMap::new();
    let mut defaults = BTreeMap::new();
    for u in &sc.units {
        if let (Some(a), Some(h)) = (u.army, u.start_hex()) {
            armies.insert(u.id.clone(), a);
            defaults.insert(u.id.clone(), h);
        }
    }
    for u in state.units.iter_mut().filter(|u| armies.contains_key(&u.id)) {
        u.place = Place::Unplaced;
    }
    // Control of Belgium and Luxembourg must not follow the scenario's own setup hexes.
    let mut bare = sc.clone();
    bare.units.retain(|u| !armies.contains_key(&u.id));
    let hexes: Vec<HexId> = state.board.hex_ids().to_vec();
    for h in hexes {
        let c = side(bare.initial_controller(h));
        state.control.insert(h, c);
    }
    state.initial_control = state.control.clone().into();
    let mut markers: BTreeMap<SideId, BTreeMap<u8, HexId>> = BTreeMap::new();
    for m in &sc.mobilization {
        markers.entry(side(m.side)).or_default().insert(m.army, m.hex);
    }
    state.secret = Some(Box::new(SecretSetup {
        free,
        stage: SetupStage::Commit(SideId::Allied),
        armies,
        markers,
        defaults,
        occupiers: sc.control.occupied_hexes_are_occupiers,
        ids: BTreeMap::new(),
        plans: BTreeMap::new(),
        opened: BTreeSet::new(),
    }));
}

/// Whether the secret setup is still going on (no other orders are possible).
pub fn in_progress(state: &State) -> bool {
    state.secret.as_ref().is_some_and(|s| s.stage != SetupStage::Done)
}

/// The side expected now and what for.
pub fn awaited(state: &State) -> Option<(SideId, String)> {
    let s = state.secret.as_ref()?;
    let what = if s.free { "free deployment (GE 3.5, 3.6)" } else { "secret placement (GE 3.3)" };
    match s.stage {
        SetupStage::Commit(side) => Some((
            side,
            format!(
                "{what}: commit the placement of your initial-army units (deploy: {{plan: ...}}, signed with your key; the log carries only a commitment)"
            ),
        )),
        SetupStage::Open(side) => Some((side, format!("{what}: both placements are committed; open yours (deploy: {{reveal: true}})"))),
        SetupStage::Done => None,
    }
}

/// The effective markers of a side under a plan.
fn markers_for<'a>(s: &'a SecretSetup, side: SideId, plan: &'a Plan) -> &'a BTreeMap<u8, HexId> {
    if s.free {
        &plan.markers
    } else {
        static EMPTY: BTreeMap<u8, HexId> = BTreeMap::new();
        s.markers.get(&side).unwrap_or(&EMPTY)
    }
}

/// Every breach of GE 3.3 (and 3.5, 3.6 in free deployment) in `side`'s plan.
pub fn check_plan(state: &State, side: SideId, plan: &Plan) -> Vec<Violation> {
    let mut v = Vec::new();
    let Some(s) = state.secret.as_ref() else {
        return vec![Violation::new("GE 3.3", "this game has no secret setup")];
    };
    let map = state.board.map();
    let country = |h: HexId| map.hex(h).map(|i| i.country);
    let rule = if s.free { "GE 3.5" } else { "GE 3.3" };

    // Markers (free deployment: GE 3.5, 3.6).
    if s.free {
        let armies: BTreeSet<u8> = s.markers.get(&side).map(|m| m.keys().copied().collect()).unwrap_or_default();
        let given: BTreeSet<u8> = plan.markers.keys().copied().collect();
        for a in armies.difference(&given) {
            v.push(Violation::new("GE 3.5", format!("the plan places no marker for army {a}")));
        }
        for a in given.difference(&armies) {
            v.push(Violation::new("GE 3.5", format!("the {} side has no army {a}", side.title())));
        }
        let own = if side == SideId::Allied { Country::France } else { Country::Germany };
        let mut seen = BTreeSet::new();
        for (a, h) in &plan.markers {
            let h = *h;
            if country(h) != Some(own) {
                v.push(Violation::new("GE 3.5", format!("army {a}'s marker must be in {own:?}")).hex(h.to_string()));
            }
            if !seen.insert(h) {
                v.push(Violation::new("GE 3.5", "at most one mobilization marker a hex").hex(h.to_string()));
            }
            if side == SideId::German && borders_neutral(state, h) {
                v.push(
                    Violation::new(
                        "GE 3.6",
                        format!("army {a}'s marker may not be in a hex bordering the Netherlands, Belgium or Luxembourg"),
                    )
                    .hex(h.to_string()),
                );
            }
        }
    } else if !plan.markers.is_empty() {
        v.push(Violation::new("GE 3.3", "the markers are printed on the map in this scenario: the plan places units only"));
    }
    let markers = markers_for(s, side, plan);

    // Every unit once, nothing else.
    for (id, _) in s.armies.iter().filter(|(id, _)| state.unit(id).is_some_and(|u| u.side == side)) {
        if !plan.units.contains_key(id) {
            v.push(Violation::new(rule, "the plan does not place this initial-army unit").unit(id.clone()));
        }
    }
    let mut armies_in: BTreeMap<HexId, BTreeSet<u8>> = BTreeMap::new();
    let (mut in_lux, mut in_bel) = (false, false);
    for (id, h) in &plan.units {
        let h = *h;
        let (Some(u), Some(army)) = (state.unit(id), s.armies.get(id)) else {
            v.push(Violation::new(rule, "not an initial-army unit: it is not placed in the secret setup").unit(id.clone()));
            continue;
        };
        if u.side != side {
            v.push(Violation::new(rule, format!("not a unit of the {} side", side.title())).unit(id.clone()));
            continue;
        }
        let c = country(h);
        match c {
            None => {
                v.push(Violation::new(rule, "not a hex of the map").unit(id.clone()).hex(h.to_string()));
                continue;
            }
            // GE 3.6: the German may invade the Netherlands at setup (`neutrality.rs`).
            Some(Country::Netherlands) if side == SideId::German && s.free => {}
            Some(c) if c.out_of_play() => {
                v.push(Violation::new("GE 3.2", "no unit may start in a neutral country").unit(id.clone()).hex(h.to_string()))
            }
            _ => {}
        }
        if !may_start_in(side, c, s.free) {
            let where_ = if side == SideId::Allied { "in France" } else { "in Germany, Luxembourg or Belgium (never in France)" };
            v.push(Violation::new("GE 3.3", format!("initial-army units of this side start {where_}")).unit(id.clone()).hex(h.to_string()));
        }
        in_lux |= c == Some(Country::Luxembourg);
        in_bel |= c == Some(Country::Belgium);
        match markers.get(army) {
            Some(m) if m.distance(h) > MARKER_RANGE => v.push(
                Violation::new("GE 3.3", format!("{} hexes from army {army}'s marker at {m}; at most {MARKER_RANGE}", m.distance(h)))
                    .unit(id.clone())
                    .hex(h.to_string()),
            ),
            Some(_) => {}
            None if s.free => {} // the missing marker is reported above
            None => v.push(Violation::new("GE 3.3", format!("army {army} has no mobilization marker")).unit(id.clone())),
        }
        armies_in.entry(h).or_default().insert(*army);
    }
    for (h, armies) in &armies_in {
        if armies.len() > 1 {
            let list: Vec<String> = armies.iter().map(|a| a.to_string()).collect();
            v.push(
                Violation::new("GE 3.3", format!("units of different armies ({}) may not start stacked", list.join(", ")))
                    .hex(h.to_string()),
            );
        }
    }
    if side == SideId::German && !s.free {
        if !in_lux {
            v.push(Violation::new("GE 3.3", "at least one German unit must start in Luxembourg"));
        }
        if !in_bel {
            v.push(Violation::new("GE 3.3", "at least one German unit must start in Belgium"));
        }
    }
    // In free deployment a German plan without units in Belgium or Luxembourg leaves it
    // neutral (GE 3.6, `neutrality.rs`): nothing to refuse.
    v.extend(super::dummies::check_plan(state, side, plan, markers, s.free));
    v.extend(check_stacks(state, side, plan));
    v
}

/// GE 6.1–6.3 on the hexes the plan fills, counting the side's units already on the map.
fn check_stacks(state: &State, side: SideId, plan: &Plan) -> Vec<Violation> {
    let mut v = Vec::new();
    let mut by_hex: BTreeMap<HexId, Vec<&super::state::Unit>> = BTreeMap::new();
    for (id, h) in &plan.units {
        if let Some(u) = state.unit(id).filter(|u| u.side == side) {
            by_hex.entry(*h).or_default().push(u);
        }
    }
    // GE 15.1: dummies stack as units of their nationality with no SL (G.4 item 22 reading).
    let dummies: Vec<(HexId, super::state::Unit)> =
        plan.numbered_dummies().map(|(n, k, h)| (h, super::counters::dummy_record(n, k))).collect();
    for (h, d) in &dummies {
        by_hex.entry(*h).or_default().push(d);
    }
    for (h, placed) in by_hex {
        let fixed: Vec<&super::state::Unit> = state.units_at(h).filter(|u| u.side == side && !plan.units.contains_key(&u.id)).collect();
        let all: Vec<&&super::state::Unit> = placed.iter().chain(fixed.iter()).collect();
        if state.units_at(h).any(|u| u.side != side) {
            v.push(Violation::new("GE 3.3", "the hex holds units of the other side").hex(h.to_string()));
        }
        let sl: u32 = all.iter().map(|u| u.stack_sl()).sum();
        let corps = all.iter().filter(|u| u.is_corps()).count();
        if sl > super::scenario::MAX_SL_PER_HEX {
            v.push(Violation::new("GE 6.1", format!("{sl} SL in one hex; at most {}", super::scenario::MAX_SL_PER_HEX)).hex(h.to_string()));
        }
        if corps > super::scenario::MAX_CORPS_PER_HEX {
            v.push(
                Violation::new("GE 6.1", format!("{corps} corps in one hex; at most {}", super::scenario::MAX_CORPS_PER_HEX))
                    .hex(h.to_string()),
            );
        }
        if side == SideId::Allied {
            let nations: BTreeSet<&str> = all.iter().filter(|u| u.kind != Kind::Fortress).map(|u| u.nation.as_str()).collect();
            if nations.len() > 1 {
                let list: Vec<&str> = nations.into_iter().collect();
                v.push(
                    Violation::new("GE 6.2", format!("Allied nationalities may not start stacked ({})", list.join(", ")))
                        .hex(h.to_string()),
                );
            }
            if state.board.map().is_paris(h) && all.iter().any(|u| u.nation != "FR") {
                v.push(Violation::new("GE 6.3", "only French units may be in a Paris hex").hex(h.to_string()));
            }
        }
    }
    v
}

/// Whether the side's initial-army units (and dummies, GE 15.1) may start in a hex of country
/// `c` (GE 3.3): the Allies in France; the Germans in Germany, Luxembourg or Belgium, and in
/// a free deployment the Netherlands too (their invasion, GE 3.6).
pub fn may_start_in(side: SideId, c: Option<Country>, free: bool) -> bool {
    match side {
        SideId::Allied => c == Some(Country::France),
        SideId::German => {
            matches!(c, Some(Country::Germany | Country::Luxembourg | Country::Belgium)) || (free && c == Some(Country::Netherlands))
        }
    }
}

/// A German hex next to the Netherlands, Belgium or Luxembourg (GE 3.6).
pub fn borders_neutral(state: &State, h: HexId) -> bool {
    let map = state.board.map();
    map.neighbours(h)
        .iter()
        .any(|(_, n)| map.hex(*n).is_some_and(|i| matches!(i.country, Country::Netherlands | Country::Belgium | Country::Luxembourg)))
}

/// `Ruleset::hidden` for the secret setup: record a committed plan (checked when known),
/// check and place an opened one.
pub fn hidden(state: &mut State, seat: &str, acts: &mut HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
    if acts.is_empty() {
        return Ok(vec![]);
    }
    let Some(side) = state.side_of(seat) else {
        return Err(vec![Violation::new("GE 3.1", format!("{seat} is not a seat of this game"))]);
    };
    let mut v = Vec::new();
    let mut ev = Vec::new();
    for Committed { id, value } in &acts.committed {
        let stage = state.secret.as_ref().map(|s| s.stage);
        if stage != Some(SetupStage::Commit(side))
            || *id != plan_id(side)
            || state.secret.as_ref().is_some_and(|s| s.ids.contains_key(&side))
        {
            v.push(Violation::new(
                "GE 3.3",
                format!("nothing may be committed now under {id:?}: the only commitment is each side's setup plan, once"),
            ));
            continue;
        }
        if let Some(value) = value {
            match Plan::from_value(value) {
                Ok(plan) => {
                    let errs = check_plan(state, side, &plan);
                    if !errs.is_empty() {
                        v.extend(errs);
                        continue;
                    }
                    if let Some(s) = state.secret.as_mut() {
                        s.plans.insert(side, plan);
                    }
                }
                Err(e) => {
                    v.push(e);
                    continue;
                }
            }
        }
        if let Some(s) = state.secret.as_mut() {
            s.ids.insert(side, id.clone());
        }
        ev.push(Event::rule("GE 3.3", format!("the {} placement is committed ({id}); it stays secret until opened", side.title())));
    }
    for o in &acts.opened {
        let stage = state.secret.as_ref().map(|s| s.stage);
        // With hidden stacks the plan stays sealed until the game is over (`counters.rs`).
        if super::counters::plan_sealed(state, side) && Some(&o.id) == state.secret.as_ref().and_then(|s| s.ids.get(&side)) {
            match Plan::from_value(&o.value) {
                Ok(plan) => match super::counters::open_plan(state, side, plan) {
                    Ok(e) => ev.extend(e),
                    Err(e) => v.extend(e),
                },
                Err(e) => v.push(e),
            }
            continue;
        }
        if stage != Some(SetupStage::Open(side)) || state.secret.as_ref().and_then(|s| s.ids.get(&side)) != Some(&o.id) {
            v.push(Violation::new(
                "GE 3.3",
                format!("{:?} may not be opened now: each side opens its setup plan once both are committed", o.id),
            ));
            continue;
        }
        let plan = match Plan::from_value(&o.value) {
            Ok(p) => p,
            Err(e) => {
                v.push(e);
                continue;
            }
        };
        let errs = check_plan(state, side, &plan);
        if !errs.is_empty() {
            v.extend(errs);
            continue;
        }
        ev.extend(place(state, side, plan));
    }
    if v.is_empty() { Ok(ev) } else { Err(v) }
}

/// Put an opened plan's units on the map.
fn place(state: &mut State, side: SideId, plan: Plan) -> Vec<Event> {
    let occupiers = state.secret.as_ref().is_some_and(|s| s.occupiers);
    let mut ev = Vec::new();
    // GE 3.6, 3.7: the German plan decides neutrality before its units appear.
    if side == SideId::German && state.secret.as_ref().is_some_and(|s| s.free) {
        ev.extend(super::neutrality::apply(state, &plan));
    }
    let mut listed = Vec::new();
    for (id, h) in &plan.units {
        if let Some(u) = state.unit_mut(id) {
            u.place = Place::Hex(*h);
            listed.push(format!("{id} {h}"));
        }
        let c = state.board.map().hex(*h).map(|i| i.country);
        if occupiers && matches!(c, Some(Country::Belgium | Country::Luxembourg | Country::Netherlands)) {
            state.control.insert(*h, side);
            std::sync::Arc::make_mut(&mut state.initial_control).insert(*h, side);
        }
    }
    if !plan.markers.is_empty() {
        let m: Vec<String> = plan.markers.iter().map(|(a, h)| format!("army {a} {h}")).collect();
        ev.push(Event::rule("GE 3.5", format!("{} mobilization markers: {}", side.title(), m.join(", "))));
    }
    ev.push(Event::rule("GE 3.3", format!("the {} placement is opened: {}", side.title(), listed.join(", "))));
    if let Some(s) = state.secret.as_mut() {
        s.plans.insert(side, plan);
        s.opened.insert(side);
    }
    ev
}

/// One `deploy` action: check it and move the setup on.
pub fn step(state: &mut State, side: SideId, d: &Deploy) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(s) = state.secret.as_ref().filter(|s| s.stage != SetupStage::Done) else {
        return Err(vec![Violation::new("GE 3.3", "there is no secret setup in progress")]);
    };
    if d.plan.is_some() {
        return Err(vec![Violation::new(
            "GE 3.3",
            "a placement travels only as a commitment: sign the orders with your key (`umpire orders sign`), which commits it",
        )]);
    }
    let next = match s.stage {
        SetupStage::Commit(who) if who != side => {
            return Err(vec![Violation::new("GE 3.3", format!("the {} side places now", who.title()))]);
        }
        SetupStage::Open(who) if who != side => {
            return Err(vec![Violation::new("GE 3.3", format!("the {} side opens its plan now", who.title()))]);
        }
        SetupStage::Commit(_) if d.reveal => {
            return Err(vec![Violation::new("GE 3.5", "no plan may be opened before both sides have committed theirs")]);
        }
        SetupStage::Commit(_) if !s.ids.contains_key(&side) => {
            return Err(vec![Violation::new("GE 3.3", "the entry commits no placement (the author's tool commits `deploy: {plan: ...}`)")]);
        }
        SetupStage::Commit(SideId::Allied) => SetupStage::Commit(SideId::German),
        SetupStage::Commit(SideId::German) => SetupStage::Open(SideId::Allied),
        SetupStage::Open(_) if super::counters::enabled(state) => {
            let ev = super::counters::place_setup(state, side, d)?;
            let next = if side == SideId::Allied { SetupStage::Open(SideId::German) } else { SetupStage::Done };
            return Ok(advance(state, next, ev));
        }
        SetupStage::Open(_) if !d.reveal || !s.opened.contains(&side) => {
            return Err(vec![Violation::new("GE 3.3", "open your committed placement now (deploy: {reveal: true})")]);
        }
        SetupStage::Open(SideId::Allied) => SetupStage::Open(SideId::German),
        SetupStage::Open(SideId::German) | SetupStage::Done => SetupStage::Done,
    };
    Ok(advance(state, next, Vec::new()))
}

/// Move the setup on to `next`; the game starts after the last placement.
fn advance(state: &mut State, next: SetupStage, mut ev: Vec<Event>) -> Vec<Event> {
    if let Some(s) = state.secret.as_mut() {
        s.stage = next;
    }
    if next == SetupStage::Done {
        ev.push(Event::rule("GE 3.3", "both placements are open: the game starts"));
        ev.extend(super::turn::start_player_turn(state));
    }
    ev
}

/// `validate` during the secret setup: every action is a `deploy` (standing instructions
/// may wait until the game starts).
pub fn check_entry(state: &State, side: SideId, orders: &super::Orders) -> Vec<Violation> {
    let mut s = state.clone();
    let mut errs = Vec::new();
    for (i, a) in orders.actions.iter().enumerate() {
        let r = match &a.0 {
            super::orders::ActionKind::Deploy(d) => step(&mut s, side, d),
            _ => Err(vec![Violation::new("GE 3.3", "the secret setup comes first: only `deploy` actions until both placements are open")]),
        };
        if let Err(e) = r {
            errs.extend(e.into_iter().map(|mut v| {
                v.message = format!("action {}: {}", i + 1, v.message);
                v
            }));
        }
    }
    errs
}

/// `apply` during the secret setup.
pub fn apply_entry(state: &mut State, side: SideId, orders: &super::Orders) -> Vec<Event> {
    let mut ev = Vec::new();
    for a in &orders.actions {
        if let super::orders::ActionKind::Deploy(d) = &a.0 {
            match step(state, side, d) {
                Ok(e) => ev.extend(e),
                Err(v) => ev.extend(v.into_iter().map(|v| Event::rule(v.rule.clone(), format!("skipped: {v}")))),
            }
        }
    }
    ev
}

/// `Ruleset::conceal`: a plan becomes a commitment; a reveal opens the side's commitment.
pub fn conceal(
    state: &State,
    seat: &str,
    mut orders: super::Orders,
    order: &crate::engine::IdOrder,
) -> Result<Concealed<super::Orders>, Vec<Violation>> {
    let side = state.side_of(seat);
    let mut commit = Vec::new();
    let mut open = Vec::new();
    for a in &mut orders.actions {
        let super::orders::ActionKind::Deploy(d) = &mut a.0 else { continue };
        if let Some(plan) = d.plan.take() {
            let Some(side) = side else { continue };
            commit.push((plan_id(side), plan.to_value()));
        }
        if d.reveal
            && super::counters::enabled(state)
            && let Some(sd) = side
        {
            commit.extend(super::counters::conceal_setup(state, sd, d, order));
            continue;
        }
        if d.reveal
            && let Some(id) = side.and_then(|sd| state.secret.as_ref().and_then(|s| s.ids.get(&sd)))
        {
            open.push(id.clone());
        }
    }
    Ok(Concealed { orders, commit, open })
}

/// What `seat` may see: the other side's plan only once it is opened.
pub fn view(state: &mut State, seat: &str) {
    let side = state.side_of(seat);
    let sealed: Vec<SideId> = [SideId::Allied, SideId::German].into_iter().filter(|k| super::counters::plan_sealed(state, *k)).collect();
    if let Some(s) = state.secret.as_mut() {
        let opened = s.opened.clone();
        s.plans.retain(|k, _| Some(*k) == side || (opened.contains(k) && !sealed.contains(k)));
    }
}

/// A legal plan close to the scenario's own setup: the scenario's hexes when they obey the
/// rules (always in the historical campaign, which the scenario check guarantees); in free
/// deployment markers barred by 3.6 move to the nearest legal hex and the units follow them.
/// With dummies (GE 15) they are added last (`dummies::default_placement`).
pub fn default_plan(state: &State, side: SideId) -> Plan {
    let mut plan = default_unit_plan(state, side);
    if let Some(s) = state.secret.as_ref() {
        let markers = markers_for(s, side, &plan).clone();
        plan.dummies = super::dummies::default_placement(state, side, &plan, &markers);
    }
    plan
}

/// [`default_plan`]'s units and markers.
fn default_unit_plan(state: &State, side: SideId) -> Plan {
    let Some(s) = state.secret.as_ref() else { return Plan::default() };
    let mut plan = Plan {
        markers: if s.free { s.markers.get(&side).cloned().unwrap_or_default() } else { BTreeMap::new() },
        units: s.defaults.iter().filter(|(id, _)| state.unit(id).is_some_and(|u| u.side == side)).map(|(k, h)| (k.clone(), *h)).collect(),
        dummies: BTreeMap::new(),
    };
    if check_plan(state, side, &plan).is_empty() {
        return plan;
    }
    let map = state.board.map();
    let own = if side == SideId::Allied { Country::France } else { Country::Germany };
    let hexes: Vec<HexId> = state.board.hex_ids().to_vec();
    if s.free {
        let mut used = BTreeSet::new();
        for (_, h) in plan.markers.iter_mut() {
            let ok = |x: HexId| {
                map.hex(x).is_some_and(|i| i.country == own) && !(side == SideId::German && borders_neutral(state, x)) && !used.contains(&x)
            };
            if let Some(best) = hexes.iter().copied().filter(|x| ok(*x)).min_by_key(|x| (x.distance(*h), *x)) {
                *h = best;
            }
            used.insert(*h);
        }
    }
    let markers = markers_for(s, side, &plan).clone();
    let allowed = |c: Option<Country>| match side {
        SideId::Allied => c == Some(Country::France),
        SideId::German => matches!(c, Some(Country::Germany | Country::Luxembourg | Country::Belgium)),
    };
    let ids: Vec<String> = plan.units.keys().cloned().collect();
    let mut placed = Plan { markers: plan.markers.clone(), ..Plan::default() };
    for id in &ids {
        let (Some(army), Some(want)) = (s.armies.get(id), s.defaults.get(id)) else { continue };
        let Some(m) = markers.get(army) else { continue };
        let mut cands: Vec<HexId> =
            hexes.iter().copied().filter(|x| x.distance(*m) <= MARKER_RANGE && allowed(map.hex(*x).map(|i| i.country))).collect();
        cands.sort_by_key(|x| (x.distance(*want), *x));
        for c in cands {
            let mut t = placed.clone();
            t.units.insert(id.clone(), c);
            if fits(state, side, &t, c) {
                placed = t;
                break;
            }
        }
    }
    // GE 3.3: at least one German unit in Luxembourg and one in Belgium.
    if side == SideId::German {
        for country in [Country::Luxembourg, Country::Belgium] {
            let has = |p: &Plan| p.units.values().any(|h| map.hex(*h).is_some_and(|i| i.country == country));
            if has(&placed) {
                continue;
            }
            'units: for id in &ids {
                let Some(m) = s.armies.get(id).and_then(|a| markers.get(a)) else { continue };
                for c in
                    hexes.iter().copied().filter(|x| x.distance(*m) <= MARKER_RANGE && map.hex(*x).is_some_and(|i| i.country == country))
                {
                    let mut t = placed.clone();
                    t.units.insert(id.clone(), c);
                    if fits(state, side, &t, c) {
                        placed = t;
                        break 'units;
                    }
                }
            }
        }
    }
    placed
}

/// Whether hex `h` of a partial plan obeys the stacking and army rules.
fn fits(state: &State, side: SideId, plan: &Plan, h: HexId) -> bool {
    let Some(s) = state.secret.as_ref() else { return false };
    let armies: BTreeSet<u8> = plan.units.iter().filter(|(_, x)| **x == h).filter_map(|(id, _)| s.armies.get(id).copied()).collect();
    let only_here = Plan { units: plan.units.iter().filter(|(_, x)| **x == h).map(|(k, x)| (k.clone(), *x)).collect(), ..Plan::default() };
    armies.len() <= 1 && check_stacks(state, side, &only_here).is_empty()
}

/// The bot's plan: [`default_plan`], moved about at random one unit or marker at a time,
/// each move kept only if the plan stays legal.
pub fn bot_plan(state: &State, side: SideId, chooser: &mut Dice) -> Plan {
    let mut plan = default_plan(state, side);
    if !check_plan(state, side, &plan).is_empty() {
        // Nothing better to start from; the orders' validation names the problem.
        return plan;
    }
    // GE 3.6: a German free deployment now and then leaves Belgium or Luxembourg neutral or
    // invades the Netherlands (so that bot games exercise those rules); the random walk below
    // keeps that choice.
    let free_german = side == SideId::German && state.secret.as_ref().is_some_and(|s| s.free);
    if free_german {
        if chooser.roll(5) == 0 {
            plan = leave_neutral(state, plan, Country::Belgium);
        }
        if chooser.roll(5) == 0 {
            plan = leave_neutral(state, plan, Country::Luxembourg);
        }
        if chooser.roll(6) == 0 {
            plan = invade_netherlands(state, plan);
        }
    }
    let choice = super::neutrality::of_plan(state, &plan);
    let ids: Vec<String> = plan.units.keys().cloned().collect();
    let armies: Vec<u8> = plan.markers.keys().copied().collect();
    let tries = 12 + chooser.roll(12);
    for _ in 0..tries {
        let mut trial = plan.clone();
        if !armies.is_empty() && chooser.roll(3) == 0 {
            let a = armies[chooser.roll(armies.len() as u32) as usize];
            let Some(h) = trial.markers.get(&a).copied() else { continue };
            let ns = state.board.map().neighbours(h);
            if ns.is_empty() {
                continue;
            }
            trial.markers.insert(a, ns[chooser.roll(ns.len() as u32) as usize].1);
        } else if !ids.is_empty() {
            let id = &ids[chooser.roll(ids.len() as u32) as usize];
            let Some(h) = trial.units.get(id).copied() else { continue };
            let ns = state.board.map().neighbours(h);
            if ns.is_empty() {
                continue;
            }
            trial.units.insert(id.clone(), ns[chooser.roll(ns.len() as u32) as usize].1);
        }
        if check_plan(state, side, &trial).is_empty() && (!free_german || super::neutrality::of_plan(state, &trial) == choice) {
            plan = trial;
        }
    }
    plan
}

/// The bot's plan with no German unit in `country` (GE 3.6): each unit there moves to the
/// nearest hex in Germany its marker allows; the plan is unchanged if that is not legal.
fn leave_neutral(state: &State, plan: Plan, country: Country) -> Plan {
    let Some(s) = state.secret.as_ref() else { return plan };
    let map = state.board.map();
    let in_country = |h: HexId| map.hex(h).is_some_and(|i| i.country == country);
    let hexes: Vec<HexId> = map.hexes.iter().filter(|(_, i)| i.country == Country::Germany).map(|(h, _)| *h).collect();
    let mut out = plan.clone();
    let movers: Vec<(String, HexId)> = plan.units.iter().filter(|(_, h)| in_country(**h)).map(|(k, h)| (k.clone(), *h)).collect();
    for (id, from) in movers {
        let Some(m) = s.armies.get(&id).and_then(|a| out.markers.get(a)).copied() else { return plan };
        let mut cands: Vec<HexId> = hexes.iter().copied().filter(|x| x.distance(m) <= MARKER_RANGE).collect();
        cands.sort_by_key(|x| (x.distance(from), *x));
        let mut placed = false;
        for c in cands {
            let mut t = out.clone();
            t.units.insert(id.clone(), c);
            if fits(state, SideId::German, &t, c) {
                out = t;
                placed = true;
                break;
            }
        }
        if !placed {
            return plan;
        }
    }
    if check_plan(state, SideId::German, &out).is_empty() { out } else { plan }
}

/// The bot's plan with one German unit in the Netherlands (GE 3.6), if some unit's marker
/// reaches a Dutch hex; the plan is unchanged otherwise.
fn invade_netherlands(state: &State, plan: Plan) -> Plan {
    let Some(s) = state.secret.as_ref() else { return plan };
    let map = state.board.map();
    let dutch: Vec<HexId> = map.hexes.iter().filter(|(_, i)| i.country == Country::Netherlands).map(|(h, _)| *h).collect();
    for (id, army) in s.armies.iter().filter(|(id, _)| plan.units.contains_key(*id)) {
        let Some(m) = plan.markers.get(army).copied() else { continue };
        for d in dutch.iter().copied().filter(|d| d.distance(m) <= MARKER_RANGE) {
            let mut t = plan.clone();
            t.units.insert(id.clone(), d);
            if fits(state, SideId::German, &t, d) && check_plan(state, SideId::German, &t).is_empty() {
                return t;
            }
        }
    }
    plan
}

/// The bot's orders during the secret setup.
pub fn bot_orders(state: &State, seat: &str, chooser: &mut Dice) -> Option<super::Orders> {
    let (side, _) = awaited(state)?;
    if state.side_of(seat) != Some(side) {
        return None;
    }
    let stage = state.secret.as_ref()?.stage;
    let d = match stage {
        SetupStage::Commit(_) => Deploy { plan: Some(bot_plan(state, side, chooser)), reveal: false, ..Deploy::default() },
        SetupStage::Open(_) => Deploy { plan: None, reveal: true, ..Deploy::default() },
        SetupStage::Done => return None,
    };
    Some(super::Orders { actions: vec![super::orders::Action(super::orders::ActionKind::Deploy(d))] })
}

/// Lines for `describe`.
pub fn describe(state: &State) -> Vec<String> {
    let Some(s) = state.secret.as_ref() else { return vec![] };
    let mut out: Vec<String> = Vec::new();
    let kind = if s.free { "free deployment (GE 3.5)" } else { "secret placement (GE 3.3)" };
    let stage = match s.stage {
        SetupStage::Commit(x) => format!("{} commits", x.name()),
        SetupStage::Open(x) => format!("{} opens", x.name()),
        SetupStage::Done => "done".into(),
    };
    out.push(format!("setup {kind}: {stage}"));
    for (side, id) in &s.ids {
        let state_ = if s.opened.contains(side) { "opened" } else { "committed" };
        out.push(format!("setup plan {} {id} {state_}", side.name()));
    }
    for (side, p) in &s.plans {
        if s.opened.contains(side) {
            continue;
        }
        // Only a view that knows the plan (its author's) gets here.
        let m: Vec<String> = p.markers.iter().map(|(a, h)| format!("{a}:{h}")).collect();
        let u: Vec<String> = p.units.iter().map(|(id, h)| format!("{id}:{h}")).collect();
        let d: Vec<String> = p.numbered_dummies().map(|(n, k, h)| format!("{n}{k}:{h}")).collect();
        let d = if d.is_empty() { String::new() } else { format!(" dummies [{}]", d.join(" ")) };
        out.push(format!("setup plan {} (secret, known to this view): markers [{}] units [{}]{d}", side.name(), m.join(" "), u.join(" ")));
    }
    out.extend(super::neutrality::describe(state));
    out
}

/// A template for the setup entries.
pub fn template(state: &State, seat: &str) -> Option<String> {
    let (side, what) = awaited(state)?;
    if state.side_of(seat) != Some(side) {
        return None;
    }
    let s = state.secret.as_ref()?;
    let mut t = format!("# {what}\n");
    match s.stage {
        SetupStage::Commit(_) => {
            let plan = default_plan(state, side);
            t.push_str(
                "# A legal plan close to the scenario's own setup as a starting point; each unit within 3 hexes of its army's marker.\n",
            );
            if s.free && side == SideId::German {
                t.push_str("# GE 3.6: no unit in Belgium (or Luxembourg) leaves it neutral for the whole game (a neutral Belgium keeps\n");
                t.push_str(
                    "# Britain out until you reach 20 VP, 3.7); a unit in the Netherlands invades it (-15 VP, no T5/T14 reinforcements).\n",
                );
            }
            t.push_str("actions:\n  - deploy:\n      plan:\n");
            if !plan.markers.is_empty() {
                t.push_str("        markers:\n");
                for (a, h) in &plan.markers {
                    t.push_str(&format!("          {a}: {h}\n"));
                }
            }
            t.push_str("        units:   # id: hex, with the unit's army, attack/defence, SL and MP\n");
            for (id, h) in &plan.units {
                let army = s.armies.get(id).copied().unwrap_or(0);
                let values = state.unit(id).map_or(String::new(), |u| {
                    let now = u.now();
                    format!(", a{}/d{}, {}/{} SL, {} MP", now.attack, now.defence, u.sl, u.max_sl, now.movement)
                });
                t.push_str(&format!("          {id}: {h}   # army {army}{values}\n"));
            }
            if !plan.dummies.is_empty() {
                let count: Vec<String> = plan.dummies.iter().map(|(n, hexes)| format!("{n} {}", hexes.len())).collect();
                t.push_str(&format!("        # dummies to place (GE 15.1): {}\n", count.join(", ")));
                t.push_str("        # GE 15.1: dummies, by nationality (dummy 1 first), within 3 hexes of a marker\n");
                t.push_str("        dummies:\n");
                for (n, hexes) in &plan.dummies {
                    let list: Vec<String> = hexes.iter().map(|h| h.to_string()).collect();
                    t.push_str(&format!("          {n}: [{}]\n", list.join(", ")));
                }
            }
        }
        _ => t.push_str("actions:\n  - deploy: {reveal: true}\n"),
    }
    Some(t)
}

#[cfg(test)]
mod tests;
