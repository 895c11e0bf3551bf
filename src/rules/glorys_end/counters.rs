//! Hidden stacks (GE 13.8): units under counters whose identity is a commitment (DESIGN §2.6).
//!
//! With the genesis option `hidden_counters: true`, a player may turn units of one of his
//! stacks face down (`hide`). Each gets a fresh counter id (`c17`, never reused) and its tool
//! commits the value `unit:DE-7:3` (unit and SL). In [`State::units`] the hidden unit is
//! replaced by a **placeholder**: the counter id, side, nation and hex, and otherwise the most
//! permissive unit there is (an infantry division of 1 SL with 99 MP). The placeholder is the
//! same in every replay, and every rule's effect runs on it, so what the public learns never
//! depends on what a replay knows.
//!
//! What a replay knows matters only for legality: `check` runs on [`unmasked`], where each
//! placeholder whose value the replay knows is replaced by the real unit. So the owner's and
//! the omniscient replays check movement points, stacking and unit kinds exactly; the public
//! replay checks what the placeholder allows. A lie passes the public replay and is refused in
//! `verify`'s omniscient pass, which names the entry.
//!
//! A counter is opened by its owner; the real record (kept, public, in the counter's batch:
//! the units hidden together) comes back in the placeholder's place. Openings are applied
//! before the entry's orders are checked, so orders name a unit by its counter id while it is
//! hidden and by its own id from the entry that opens it. Only `move` and `hide` accept hidden
//! counters; every other order opens the units it names first (the author's tool does that,
//! [`conceal`]). Readings are in docs/glorys-end/rules.md, "Hidden stacks (GE 13.8)".
//!
//! Dummies (GE 15, `dummies.rs`) are counters too: committed as `dummy:FR:2`, kept in their
//! nationality's batch as records with `Unit::dummy` set, and removed when opened.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::orders::{ActionKind, Orders};
use super::secret::{Deploy, Plan};
use super::state::Place;
use super::state::{Kind, SideId, Size, State, Unit, Values};
use crate::engine::hidden::{Committed, Concealed, HiddenActs, IdOrder};
use crate::engine::{Event, Outcome, ScenarioError, Violation};
use crate::geo::hex::HexId;

/// Counter ids are `c<number>`.
pub const PREFIX: &str = "c";
/// The name a placeholder shows.
pub const UNKNOWN: &str = "?";
/// Movement points of a placeholder: more than any path costs, so the public replay never
/// refuses a hidden unit's move for its MP (the real allowance is checked where known).
pub const PLACEHOLDER_MP: u32 = 99;

/// The counters of a game with hidden stacks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// The number of the next counter id.
    pub next: u32,
    /// Public: the units each `hide` turned face down, as they were then. A counter of batch
    /// `b` is one of `batches[b]`; an opened unit leaves its batch.
    pub batches: Vec<Vec<Unit>>,
    /// What this replay knows: counter id → unit id (the owner's in seat mode, every one in
    /// the omniscient replay). Not public.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub known: BTreeMap<String, String>,
    /// This entry's commitments not yet taken by a `hide`, in order, with their values when
    /// known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fresh: Vec<(String, Option<String>)>,
    /// The game's result, held until every counter is opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_outcome: Option<Outcome>,
    /// The held result is the end-of-scenario count, made again once every unit is known
    /// (it reads units' SL and kinds).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub final_count: bool,
    /// Sides whose secret setup plan was placed by counters and is not opened yet (public;
    /// opened with the last counters, GE 3.3).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub sealed_plans: BTreeSet<SideId>,
    /// Where each counter of a secret placement was placed (public).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub origins: BTreeMap<String, HexId>,
    /// Where each unit of a secret placement started, as far as the log has shown it: units
    /// placed shown, and counters of the placement once opened (checked against the plan when
    /// it is opened).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub started: BTreeMap<String, HexId>,
    /// The sides that held hidden counters when the result was held and have not sent
    /// `open_counters` yet: still awaited after their entry's openings, which are applied
    /// before its orders are checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to_open: Vec<SideId>,
    /// Dummy counters supplied per nationality (GE 15.1, genesis option `dummies`; public).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dummies: BTreeMap<String, u32>,
    /// Counters left hidden out of supply at phase G: their owner's claim that they are dummies,
    /// which have no SL to lose (GE 15 reading; public). Such a counter never opens as a unit.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub claimed_dummies: BTreeSet<String>,
}

/// A counter of a secret placement as the public sees it (GE 3.3 with hidden stacks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    /// The counter id (committed in the same entry).
    pub id: String,
    /// Its hex.
    #[schemars(with = "u32")]
    pub hex: HexId,
    /// Its nationality (the counter's colour).
    pub nation: String,
}

impl Counters {
    /// No counter yet; the first is `c1`.
    pub fn new() -> Counters {
        Counters { next: 1, ..Counters::default() }
    }
}

/// `hide`: turn these own units face down (GE 13.8). Written with the units in any order; the
/// author's tool commits one counter per unit in that order and sends the list sorted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hide {
    /// Units of one hex, all shown now.
    pub units: Vec<String>,
}

/// Representative dummy counts for `dummies: true` (GE 15.1): the rulebook's counter mix is not
/// in the text (digest, section H), so these are ours, labelled as such in the docs.
pub const REPRESENTATIVE_DUMMIES: [(&str, u32); 3] = [("DE", 8), ("FR", 6), ("GB", 2)];
/// The most dummies of one nationality an option may ask for.
pub const MAX_DUMMIES: u32 = 30;

/// Read the options: `hidden_counters: true` turns the rule on; `dummies` (GE 15) adds dummy
/// counters, `true` for the representative counts or `{DE: n, FR: n, GB: n}`.
pub fn apply_options(state: &mut State, options: Option<&yaml_serde::Value>) -> Result<(), ScenarioError> {
    let err = |m: &str| ScenarioError { problems: vec![m.to_string()] };
    if let Some(v) = options.and_then(|o| o.get("hidden_counters")) {
        match v.as_bool() {
            Some(true) => state.counters = Some(Box::new(Counters::new())),
            Some(false) => {}
            None => return Err(err("GE 13.8: the option hidden_counters is true or false")),
        }
    }
    let Some(v) = options.and_then(|o| o.get("dummies")) else { return Ok(()) };
    let counts: BTreeMap<String, u32> = match v {
        yaml_serde::Value::Bool(false) => return Ok(()),
        yaml_serde::Value::Bool(true) => REPRESENTATIVE_DUMMIES.iter().map(|(n, k)| (n.to_string(), *k)).collect(),
        other => yaml_serde::from_value(other.clone())
            .map_err(|_| err("GE 15.1: the option dummies is true or a count per nationality, as {DE: 8, FR: 6, GB: 2}"))?,
    };
    let mut problems = Vec::new();
    for (n, k) in &counts {
        if nation_side(n).is_none() {
            problems.push(format!("GE 15.1: dummies come in German, French and British colours (DE, FR, GB), not {n:?}"));
        }
        if *k > MAX_DUMMIES {
            problems.push(format!("GE 15.1: {k} {n} dummies; at most {MAX_DUMMIES}"));
        }
    }
    if state.counters.is_none() {
        problems.push("GE 15.1: dummies need hidden stacks (the option hidden_counters: true, GE 13.8)".into());
    }
    if state.secret.is_none() {
        problems.push(
            "GE 15.1: dummies are placed in a secret campaign setup (a free deployment, or secret_setup: true in a historical campaign)"
                .into(),
        );
    }
    if !problems.is_empty() {
        return Err(ScenarioError { problems });
    }
    if let Some(c) = state.counters.as_mut() {
        c.dummies = counts.into_iter().filter(|(_, k)| *k > 0).collect();
    }
    Ok(())
}

/// The side whose dummies wear a nationality's colour (GE 15.1: DE, FR, GB).
pub fn nation_side(nation: &str) -> Option<SideId> {
    match nation {
        "DE" => Some(SideId::German),
        "FR" | "GB" => Some(SideId::Allied),
        _ => None,
    }
}

/// The game plays with dummy counters (GE 15).
pub fn dummies_on(state: &State) -> bool {
    state.counters.as_ref().is_some_and(|c| !c.dummies.is_empty())
}

/// The commitment value, and batch record id, of dummy `n` of a nationality: `dummy:FR:2`.
pub fn dummy_value(nation: &str, n: u32) -> String {
    format!("dummy:{nation}:{n}")
}

/// The longest value a counter commitment holds: `unit:<id>:<SL>` or `dummy:<nation>:<n>`,
/// unit ids being short labels (`tests::committed_values_fit_their_bounds`).
pub const COUNTER_VALUE_BOUND: usize = 64;

/// `Ruleset::committed_value_bound`, from public facts only: a counter's value is short; a
/// setup plan (compact JSON) names a hex for every unit and marker of a side and each dummy,
/// so its bound counts the scenario's units (all of them: the public knows them at the plan's
/// commitment), its armies and the most dummies a game may have, with room for the longest
/// hex number.
pub fn value_bound(state: &State, id: &str) -> usize {
    if !id.starts_with("setup-") {
        return COUNTER_VALUE_BOUND;
    }
    const HEX: usize = 10; // u32 digits
    let units: usize = state.units.iter().map(|u| u.id.len() + HEX + 6).sum();
    let armies = state.secret.as_ref().map_or(0, |s| s.armies.len().max(s.markers.values().map(BTreeMap::len).sum()));
    let nations: BTreeSet<&str> = state.units.iter().map(|u| u.nation.as_str()).collect();
    let dummies: usize = nations.iter().map(|n| n.len() + 8 + MAX_DUMMIES as usize * (HEX + 1)).sum();
    256 + units + (armies + 16) * (HEX + 8) + dummies
}

/// `dummy:FR:2` → (`FR`, 2).
pub fn parse_dummy(v: &str) -> Option<(String, u32)> {
    let (nation, digits) = v.strip_prefix("dummy:")?.split_once(':')?;
    let n: u32 = digits.parse().ok()?;
    // One spelling per dummy, as counter ids: no sign, no leading zero.
    (nation_side(nation).is_some() && n > 0 && digits.bytes().all(|b| b.is_ascii_digit()) && !digits.starts_with('0'))
        .then(|| (nation.to_string(), n))
}

/// The record of dummy `n` of a nationality, as its batch keeps it (GE 15.1): movement 4 and
/// nothing else: no SL, not a corps, no combat values.
pub fn dummy_record(nation: &str, n: u32) -> Unit {
    let values = vec![Values { attack: 0, defence: 0, movement: DUMMY_MP, vs_cavalry: None }];
    let side = nation_side(nation).unwrap_or(SideId::Allied);
    let mut u = Unit::new(
        &dummy_value(nation, n),
        &format!("{nation} dummy"),
        side,
        nation,
        Kind::Infantry,
        Size::Division,
        0,
        values,
        Place::Unplaced,
    );
    u.dummy = true;
    u
}

/// Movement allowance of a dummy (GE 15.1).
pub const DUMMY_MP: u32 = 4;

/// The game plays with hidden stacks.
pub fn enabled(state: &State) -> bool {
    state.counters.is_some()
}

/// A placeholder of a hidden counter (also after `unmasked` put the real unit in its place).
pub fn is_hidden(u: &Unit) -> bool {
    u.hidden.is_some()
}

/// The commitment value of a unit: `unit:DE-7:3`, or of a dummy's record: `dummy:FR:2`.
pub fn value_of(u: &Unit) -> String {
    if u.dummy { u.id.clone() } else { format!("unit:{}:{}", u.id, u.sl) }
}

/// `unit:DE-7:3` → (`DE-7`, 3).
pub fn parse_value(v: &str) -> Option<(String, u8)> {
    let rest = v.strip_prefix("unit:")?;
    let (id, sl) = rest.rsplit_once(':')?;
    if id.is_empty() {
        return None;
    }
    Some((id.to_string(), sl.parse().ok()?))
}

/// `c<number>`, no leading zero.
pub fn is_counter_id(id: &str) -> bool {
    id.strip_prefix(PREFIX).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !n.starts_with('0'))
}

/// The placeholder shown for counter `id` of batch `batch`, standing where `u` stood.
pub(crate) fn placeholder(u: &Unit, id: &str, batch: u32) -> Unit {
    let values = vec![Values { attack: 0, defence: 0, movement: PLACEHOLDER_MP, vs_cavalry: None }];
    let mut p = Unit::new(id, UNKNOWN, u.side, &u.nation, Kind::Infantry, Size::Division, 1, values, u.place);
    copy_turn_flags(u, &mut p);
    p.hidden = Some(batch);
    p
}

/// The per-player-turn facts (public: every order that sets them names the counter).
fn copy_turn_flags(from: &Unit, to: &mut Unit) {
    to.ooc = from.ooc;
    to.moved = from.moved;
    to.attacked = from.attacked;
    to.defended = from.defended;
    to.retreated = from.retreated;
    to.replaced = from.replaced;
    to.entrenching = from.entrenching;
    to.oos_at_start = from.oos_at_start;
    to.move_state = from.move_state;
    to.mp_spent = from.mp_spent;
    to.strategic = from.strategic;
    to.forced_march = from.forced_march;
}

/// The strictest of two units' per-turn facts, into `to`.
fn merge_turn_flags(from: &Unit, to: &mut Unit) {
    to.ooc |= from.ooc;
    to.moved |= from.moved;
    to.attacked |= from.attacked;
    to.defended |= from.defended;
    to.retreated |= from.retreated;
    to.replaced |= from.replaced;
    to.entrenching |= from.entrenching;
    to.oos_at_start |= from.oos_at_start;
    to.move_state = to.move_state.max(from.move_state);
    to.mp_spent = to.mp_spent.max(from.mp_spent);
    to.strategic = to.strategic.or(from.strategic);
    to.forced_march |= from.forced_march;
}

/// A placeholder, not a real record put back by [`unmasked`].
pub fn is_placeholder(u: &Unit) -> bool {
    u.hidden.is_some() && u.name == UNKNOWN
}

/// SL that count for stacking (GE 6.1). A placeholder counts 1 SL, the least a unit has, and
/// so never more than what it hides; with dummies in play (GE 15) it may hide a dummy, which
/// has none, so it counts 0 (the exact count is checked where the counter is known).
pub fn stack_sl(state: &State, u: &Unit) -> u32 {
    if is_placeholder(u) && dummies_on(state) { 0 } else { u.stack_sl() }
}

/// May this unit be hidden at all? Fortresses and siege guns never (G.3; a lone gun is
/// overrun by entry, 14.7); naval infantry and Belgian units neither, because rules the
/// public replay must apply at once depend on them (6.2/13.26, 4.5, 7.10). Reading.
pub fn hideable(u: &Unit) -> bool {
    u.mobile() && !u.naval && u.nation != "BE"
}

/// The real record of a placeholder, when this replay knows it.
pub fn real(state: &State, u: &Unit) -> Option<Unit> {
    let b = u.hidden? as usize;
    let c = state.counters.as_ref()?;
    let id = c.known.get(&u.id)?;
    let mut r = c.batches.get(b)?.iter().find(|x| &x.id == id)?.clone();
    r.id = u.id.clone();
    r.place = u.place;
    copy_turn_flags(u, &mut r);
    r.hidden = u.hidden;
    // Reading (GE 15, digest's default for G.4 item 22): dummies ignore supply.
    r.oos_at_start &= !r.dummy;
    Some(r)
}

/// The state with every known placeholder replaced by its real unit (under its counter id):
/// what legality is checked on.
pub fn unmasked(state: &State) -> State {
    let mut s = state.clone();
    if state.counters.as_ref().is_none_or(|c| c.known.is_empty()) {
        return s;
    }
    for u in s.units.iter_mut() {
        if is_hidden(u)
            && let Some(r) = real(state, u)
        {
            *u = r;
        }
    }
    s
}

/// `; one of DE-5, DE-7` (public), and `; is DE-7` where this replay knows it.
pub fn describe_identity(state: &State, u: &Unit) -> String {
    let Some(c) = state.counters.as_ref() else { return String::new() };
    let batch: Vec<&str> =
        u.hidden.and_then(|b| c.batches.get(b as usize)).map(|b| b.iter().map(|x| x.id.as_str()).collect()).unwrap_or_default();
    let known = c.known.get(&u.id).map(|id| format!("; is {id}")).unwrap_or_default();
    format!("; one of {}{known}", batch.join(", "))
}

/// Every unit still hidden, as its batch records it (for the VP ledger check); dummies are
/// not units.
pub fn unopened(state: &State) -> impl Iterator<Item = &Unit> {
    state.counters.iter().flat_map(|c| c.batches.iter().flatten()).filter(|u| !u.dummy)
}

/// Rename a unit id everywhere the state keeps one (battle lists); `None` removes it.
pub fn rename(state: &mut State, old: &str, new: Option<&str>) {
    if let Some(b) = state.battle.as_mut() {
        for list in [&mut b.attackers, &mut b.defenders, &mut b.stragglers, &mut b.siege] {
            match new {
                Some(new) => list.iter_mut().filter(|id| id.as_str() == old).for_each(|id| *id = new.to_string()),
                None => list.retain(|id| id != old),
            }
        }
    }
}

/// `Ruleset::hidden` for counters: record fresh commitments (taken by `hide`), open counters.
pub fn hidden(state: &mut State, seat: &str, acts: &HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(c) = state.counters.as_mut() else { return Ok(vec![]) };
    c.fresh.clear();
    let mine = |id: &str| is_counter_id(id);
    if acts.committed.iter().all(|x| !mine(&x.id)) && acts.opened.iter().all(|x| !mine(&x.id)) {
        return Ok(vec![]);
    }
    let Some(side) = state.side_of(seat) else {
        return Err(vec![Violation::new("GE 13.8", format!("{seat} is not a seat of this game"))]);
    };
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    let mut expect = state.counters.as_ref().map_or(0, |c| c.next);
    for Committed { id, value } in acts.committed.iter().filter(|x| mine(&x.id)) {
        if *id != format!("{PREFIX}{expect}") {
            errs.push(Violation::new(
                "GE 13.8",
                format!("the next counter is {PREFIX}{expect}, not {id}: counter ids are used in order, once"),
            ));
            continue;
        }
        expect += 1;
        if let Some(v) = value
            && parse_value(v).is_none()
            && parse_dummy(v).is_none()
        {
            errs.push(Violation::new("GE 13.8", format!("{id}: {v:?} is not `unit:<id>:<SL>` (nor `dummy:<nation>:<n>`, GE 15)")));
            continue;
        }
        if let Some(c) = state.counters.as_mut() {
            c.fresh.push((id.clone(), value.clone()));
        }
    }
    for o in acts.opened.iter().filter(|x| mine(&x.id)) {
        match open(state, side, &o.id, &o.value) {
            Ok(e) => ev.push(e),
            Err(v) => errs.push(v),
        }
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Open counter `id` of `side` as `value`, refusing a value that contradicts what is public.
fn open(state: &mut State, side: SideId, id: &str, value: &str) -> Result<Event, Violation> {
    let bad = |msg: String| Violation::new("GE 13.8", format!("{id} opens as {value:?}: {msg}")).unit(id);
    let Some(k) = state.units.iter().position(|u| u.id == id && is_hidden(u)) else {
        return Err(bad("there is no hidden counter of that id".into()));
    };
    let p = state.units[k].clone();
    if p.side != side {
        return Err(bad(format!("the counter is {}", p.side.title())));
    }
    if parse_dummy(value).is_some() {
        return open_dummy(state, k, value).map_err(|m| Violation::new("GE 15.1", format!("{id} opens as {value:?}: {m}")).unit(id));
    }
    let (unit, sl) = parse_value(value).ok_or_else(|| bad("not `unit:<id>:<SL>` (nor `dummy:<nation>:<n>`, GE 15)".into()))?;
    if state.counters.as_ref().is_some_and(|c| c.claimed_dummies.contains(id)) {
        return Err(Violation::new(
            "GE 15",
            format!("{id} opens as {value:?}: it stayed hidden out of supply at phase G, which declared it a dummy (GE 7.12): it cannot be a unit"),
        )
        .unit(id));
    }
    let b = p.hidden.unwrap_or_default() as usize;
    let batch = state.counters.as_ref().and_then(|c| c.batches.get(b)).cloned().unwrap_or_default();
    let Some(j) = batch.iter().position(|u| u.id == unit) else {
        let ids: Vec<&str> = batch.iter().map(|u| u.id.as_str()).collect();
        return Err(bad(format!("{unit} is not among the units this counter may be ({})", ids.join(", "))));
    };
    if batch[j].sl != sl {
        return Err(bad(format!("{unit} had {} SL when it was hidden", batch[j].sl)));
    }
    let Some(c) = state.counters.as_mut() else { return Err(bad("the game has no hidden counters".into())) };
    let mut r = c.batches[b].remove(j);
    c.known.remove(id);
    r.place = p.place;
    copy_turn_flags(&p, &mut r);
    r.hidden = None;
    if let Some(h) = c.origins.get(id).copied() {
        c.started.insert(r.id.clone(), h);
    }
    let text = format!("{id} is opened: {} ({} SL)", r.label(), r.sl);
    state.units[k] = r;
    rename(state, id, Some(&unit));
    Ok(Event::rule("GE 13.8", text))
}

/// Open the placeholder at `k` as the dummy `value` (`dummy:FR:2`): a dummy shown is removed
/// for good (GE 15.1). Its number must be one of the batch's dummies not yet shown, which is
/// how the hard limit on dummies holds: the batches hold no more than were supplied.
fn open_dummy(state: &mut State, k: usize, value: &str) -> Result<Event, String> {
    let p = state.units[k].clone();
    let b = p.hidden.unwrap_or_default() as usize;
    let Some(c) = state.counters.as_mut() else { return Err("the game has no hidden counters".into()) };
    let Some(j) = c.batches.get(b).and_then(|batch| batch.iter().position(|u| u.dummy && u.id == value)) else {
        let left: Vec<&str> = c.batches.get(b).into_iter().flatten().filter(|u| u.dummy).map(|u| u.id.as_str()).collect();
        return Err(format!(
            "not among the dummies this counter may be ({}): their number is a hard limit (GE 15.1)",
            if left.is_empty() { "none".to_string() } else { left.join(", ") }
        ));
    };
    let r = c.batches[b].remove(j);
    c.known.remove(&p.id);
    if let Some(h) = c.origins.get(&p.id).copied() {
        c.started.insert(r.id.clone(), h);
    }
    state.units.remove(k);
    rename(state, &p.id, None);
    let at = p.hex().map(|h| format!(" in {h}")).unwrap_or_default();
    Ok(Event::rule("GE 15.1", format!("{}{at} is opened: a {} dummy, removed", p.id, p.nation)))
}

/// Every unit id an action names (for the rule that only `move` and `hide` keep counters
/// hidden).
pub fn named_units(a: &ActionKind) -> Vec<&String> {
    match a {
        ActionKind::Enter(e) => vec![&e.unit],
        ActionKind::Replace(r) => vec![&r.unit],
        ActionKind::Move(m) => m.units.iter().collect(),
        ActionKind::MarchAssault(a) | ActionKind::Attack(a) => a.units.iter().chain(&a.siege).collect(),
        ActionKind::Attacks(v) => v.iter().flat_map(|a| a.units.iter().chain(&a.siege)).collect(),
        ActionKind::Decide(d) => d.losses.iter().map(|l| &l.unit).chain(&d.advance).collect(),
        ActionKind::Entrench(v) | ActionKind::ForcedMarch(v) => v.iter().collect(),
        ActionKind::Strategic(s) => s.units.iter().collect(),
        ActionKind::Withdraw(w) => w.corps.iter().chain(&w.cavalry).collect(),
        ActionKind::Hide(h) => h.units.iter().collect(),
        ActionKind::OutOfCommand(_)
        | ActionKind::EndPhase(_)
        | ActionKind::Standing(_)
        | ActionKind::Deploy(_)
        | ActionKind::OpenCounters(_) => vec![],
    }
}

/// What the counters add to the check of one action (on the unmasked state): hidden
/// counters only in moves and hides; a cavalry-only move opened; nothing but openings while
/// the result is held.
pub fn check_action(state: &State, a: &ActionKind) -> Vec<Violation> {
    let Some(c) = state.counters.as_ref() else {
        return match a {
            ActionKind::Hide(_) | ActionKind::OpenCounters(_) => {
                vec![Violation::new("GE 13.8", "this game does not hide stacks (genesis option hidden_counters)")]
            }
            _ => vec![],
        };
    };
    if c.pending_outcome.is_some() {
        return match a {
            ActionKind::OpenCounters(_) | ActionKind::Standing(_) => vec![],
            _ => vec![Violation::new("GE 13.8", "the game is over: only open_counters is expected (every hidden counter is opened)")],
        };
    }
    if !opening_due(state).is_empty() {
        return vec![opening_refusal(state)];
    }
    let mut errs = Vec::new();
    match a {
        ActionKind::Move(m) => {
            let units: Vec<&Unit> = m.units.iter().filter_map(|id| state.unit(id)).collect();
            let cav_only = !units.is_empty() && units.iter().all(|u| u.kind == Kind::Cavalry);
            if cav_only && units.iter().any(|u| is_hidden(u)) {
                for u in units.iter().filter(|u| is_hidden(u)) {
                    errs.push(
                        Violation::new("GE 13.8", "cavalry moving without other units is shown (its control differs, GE 4.8): open it")
                            .unit(&u.id),
                    );
                }
            }
        }
        ActionKind::Hide(_) | ActionKind::Standing(_) => {}
        ActionKind::EndPhase(super::orders::PhaseName::Combat) => {
            for id in due_at_attrition(state) {
                errs.push(
                    Violation::new("GE 7.12", format!("{id} is out of supply and loses 1 SL in phase G: open it first (GE 13.8)")).unit(id),
                );
            }
        }
        ActionKind::OpenCounters(_) => errs.push(Violation::new("GE 13.8", "open_counters is sent only when the game is over")),
        _ => {
            for id in named_units(a) {
                if state.unit(id).is_some_and(is_hidden) {
                    errs.push(
                        Violation::new(
                            "GE 13.8",
                            format!("{id} is a hidden counter: only moves keep it hidden; open it to give it this order"),
                        )
                        .unit(id),
                    );
                }
            }
        }
    }
    errs
}

/// The phasing side's hidden counters that phase G (attrition, GE 7.12) will reach: they are
/// opened by the entry that ends the combat phase, so the SL loss happens to a known unit.
/// With dummies in play (GE 15) a dummy has no SL to lose and stays hidden, so only counters
/// this replay knows to be units are due: an out-of-supply counter left hidden is its owner's
/// claim that it is a dummy ([`claim_dummies`]), checked where its identity is known.
pub fn due_at_attrition(state: &State) -> Vec<String> {
    out_of_supply_counters(state)
        .into_iter()
        .filter(|id| {
            let known = state.counters.as_ref().and_then(|c| c.known.get(id));
            match known {
                Some(v) => parse_dummy(v).is_none(),
                None => !dummies_on(state),
            }
        })
        .collect()
}

/// The phasing side's hidden counters out of supply for attrition (GE 7.12).
fn out_of_supply_counters(state: &State) -> Vec<String> {
    if !state.units.iter().any(|u| u.side == state.player && is_hidden(u)) {
        return vec![];
    }
    let sup = super::supply::SupplyAll::of(state);
    state
        .units
        .iter()
        .filter(|u| u.side == state.player && is_hidden(u) && u.hex().is_some())
        .filter(|u| !sup.unit(u, super::supply::Use::Attrition))
        .map(|u| u.id.clone())
        .collect()
}

/// GE 9.3 with dummies (GE 15): a trench is kept at the end of the PA phase only by infantry,
/// and dummies do not count, so with dummies in play a hidden counter keeps no trench: the
/// author's tool opens one hidden infantry unit in each own trench hex with no shown infantry
/// (the first this replay knows), and a trench with none shown is removed.
pub fn trench_keepers(state: &State, side: SideId) -> Vec<String> {
    if !dummies_on(state) {
        return vec![];
    }
    let mut out = Vec::new();
    for (h, _) in state.trenches.iter().filter(|(_, t)| t.side == side) {
        let shown = state.units_at(*h).any(|u| u.side == side && u.kind == Kind::Infantry && !is_hidden(u));
        if shown {
            continue;
        }
        let keeper = state.units_at(*h).filter(|u| u.side == side && is_hidden(u)).find(|u| {
            let r = if is_placeholder(u) { real(state, u) } else { Some((*u).clone()) };
            r.is_some_and(|r| r.kind == Kind::Infantry && !r.dummy)
        });
        out.extend(keeper.map(|u| u.id.clone()));
    }
    out
}

/// Phase G with dummies (GE 15 reading): the out-of-supply counters still hidden (`ids`, found
/// by `attrition::phase`) are claimed to be dummies and lose nothing; the claim is public, and
/// such a counter is refused if it ever opens as a unit (the omniscient pass names the entry
/// that left a unit hidden).
pub fn claim_dummies(state: &mut State, ids: &[String]) -> Vec<Event> {
    let mut ev = Vec::new();
    if let Some(c) = state.counters.as_mut() {
        for id in ids {
            c.claimed_dummies.insert(id.clone());
            ev.push(Event::rule(
                "GE 15",
                format!(
                    "phase G (attrition): {id} is out of supply and stays hidden: its owner declares it a dummy, which has no SL to lose"
                ),
            ));
        }
    }
    ev
}

/// `hide`: check and apply (the fresh commitments of the entry become the counters).
pub fn step_hide(state: &mut State, side: SideId, h: &Hide) -> Result<Vec<Event>, Vec<Violation>> {
    let v = |msg: String| Violation::new("GE 13.8", msg);
    let mut errs = Vec::new();
    if state.player != side || state.battle.is_some() || state.command.is_some() {
        return Err(vec![v("stacks are hidden by their owner in his own player turn, outside a battle or a command roll".into())]);
    }
    if h.units.is_empty() {
        return Err(vec![v("hide names at least one unit".into())]);
    }
    let mut hex = None;
    for (i, id) in h.units.iter().enumerate() {
        if h.units[..i].contains(id) {
            errs.push(v(format!("{id} is listed twice")).unit(id));
            continue;
        }
        let Some(u) = state.unit(id) else {
            errs.push(v(format!("there is no unit {id}")).unit(id));
            continue;
        };
        if u.side != side {
            errs.push(v("only your own units may be hidden".into()).unit(id));
        } else if is_hidden(u) {
            errs.push(v("the unit is hidden already".into()).unit(id));
        } else if !hideable(u) {
            errs.push(v("fortresses, siege guns, naval infantry and Belgian units are never hidden (reading)".into()).unit(id));
        }
        match (u.hex(), hex) {
            (None, _) => errs.push(v("the unit is not on the map".into()).unit(id)),
            (Some(x), None) => hex = Some(x),
            (Some(x), Some(y)) if x != y => errs.push(v(format!("the hidden units must share one hex ({y} and {x})")).unit(id)),
            _ => {}
        }
    }
    let Some(hex) = hex else { return Err(errs) };
    let top = state.units_at(hex).filter(|u| u.side == side && !is_hidden(u) && !h.units.contains(&u.id)).count();
    // Reading D8: with dummies in play a top counter may stay hidden (GE 15.1 lets dummies sit
    // on top), so real stacks may be hidden whole too, or a hidden top would tell.
    if top == 0 && !dummies_on(state) {
        errs.push(v(format!("the top unit of the stack in {hex} stays shown: keep one unit of it out of the hide")).hex(hex.to_string()));
    }
    let fresh = state.counters.as_ref().map(|c| c.fresh.clone()).unwrap_or_default();
    if fresh.len() < h.units.len() {
        errs.push(v(format!(
            "{} units are hidden but the entry commits {} fresh counters (the author's tool commits one per unit)",
            h.units.len(),
            fresh.len()
        )));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let taken: Vec<(String, Option<String>)> = fresh[..h.units.len()].to_vec();
    // Where the values are known, they must be exactly the units hidden, each with its SL.
    if taken.iter().all(|(_, v)| v.is_some()) {
        let mut want: Vec<String> = h.units.iter().filter_map(|id| state.unit(id)).map(value_of).collect();
        let mut got: Vec<String> = taken.iter().filter_map(|(_, v)| v.clone()).collect();
        want.sort();
        got.sort();
        if want != got {
            return Err(vec![v(format!("the counters committed ({}) are not the units hidden ({})", got.join(", "), want.join(", ")))]);
        }
    }
    let records: Vec<Unit> = h.units.iter().filter_map(|id| state.units.iter().find(|u| &u.id == id)).cloned().collect();
    let nation = records.first().map(|u| u.nation.clone()).unwrap_or_default();
    if records.iter().any(|u| u.nation != nation) {
        return Err(vec![v("the units of one hide share a nationality (their counters show it)".into())]);
    }
    // Reading: hidden together, the units share their per-turn state, the strictest of theirs
    // (what any of them did this turn, each counter counts as having done).
    let mut flags = records[0].clone();
    for r in &records[1..] {
        merge_turn_flags(r, &mut flags);
    }
    let Some(c) = state.counters.as_mut() else { return Err(vec![v("this game does not hide stacks".into())]) };
    let batch = c.batches.len() as u32;
    c.fresh.drain(..h.units.len());
    c.next += h.units.len() as u32;
    c.batches.push(records);
    for (cid, value) in &taken {
        if let Some((unit, _)) = value.as_deref().and_then(parse_value) {
            c.known.insert(cid.clone(), unit);
        }
    }
    state.units.retain(|u| !h.units.contains(&u.id));
    let ids: Vec<String> = taken.iter().map(|(cid, _)| cid.clone()).collect();
    for cid in &ids {
        state.units.push(placeholder(&flags, cid, batch));
    }
    let mut sorted = h.units.clone();
    sorted.sort();
    Ok(vec![Event::rule("GE 13.8", format!("{} in {hex} are hidden under {}", sorted.join(", "), ids.join(", ")))])
}

/// `open_counters`: nothing to apply but the result, once no counter is left hidden (the
/// openings came with the entry).
pub fn step_open_counters(state: &mut State, side: SideId) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(c) = state.counters.as_ref() else { return Err(vec![Violation::new("GE 13.8", "this game does not hide stacks")]) };
    if c.pending_outcome.is_none() {
        return Err(vec![Violation::new("GE 13.8", "open_counters is sent only when the game is over")]);
    }
    let mut left: Vec<String> = state.units.iter().filter(|u| u.side == side && is_hidden(u)).map(|u| u.id.clone()).collect();
    if plan_sealed(state, side) {
        left.push(format!("the setup plan {}", super::secret::plan_id(side)));
    }
    if !left.is_empty() {
        return Err(vec![Violation::new("GE 13.8", format!("open every hidden counter of yours: {} still hidden", left.join(", ")))]);
    }
    if let Some(c) = state.counters.as_mut() {
        c.to_open.retain(|s| *s != side);
    }
    Ok(release_outcome(state))
}

/// The result just set is the end-of-scenario count (`turn::end_player_turn`).
pub fn mark_final_count(state: &mut State) {
    if let Some(c) = state.counters.as_mut() {
        c.final_count = true;
    }
}

/// Hold the result while counters are hidden (called after every step of the game).
pub fn hold_outcome(state: &mut State) -> Vec<Event> {
    if state.outcome.is_none() || !anything_sealed(state) {
        return vec![];
    }
    let o = state.outcome.take();
    let mut sides: BTreeSet<SideId> = state.units.iter().filter(|u| is_hidden(u)).map(|u| u.side).collect();
    sides.extend(state.counters.iter().flat_map(|c| c.sealed_plans.iter().copied()));
    if let Some(c) = state.counters.as_mut() {
        c.pending_outcome = o;
        c.to_open = sides.into_iter().collect();
    }
    vec![Event::rule("GE 13.8", "the game is over: every hidden counter is opened before the result is declared")]
}

/// Declare the held result once no counter is hidden.
fn release_outcome(state: &mut State) -> Vec<Event> {
    if anything_sealed(state) {
        return vec![];
    }
    let Some(mut o) = state.counters.as_mut().and_then(|c| c.pending_outcome.take()) else { return vec![] };
    if state.counters.as_ref().is_some_and(|c| c.final_count) {
        o = super::vp::final_outcome(state);
    }
    let text = format!("every counter is open: {}", crate::engine::game::describe_outcome(&o));
    state.outcome = Some(o);
    vec![Event::rule("GE 13.8", text)]
}

/// Anything still sealed: a hidden counter or a setup plan placed by counters.
fn anything_sealed(state: &State) -> bool {
    state.counters.as_ref().is_some_and(|c| !c.sealed_plans.is_empty()) || state.units.iter().any(is_hidden)
}

/// The side's setup plan was placed by counters and is not opened yet.
pub fn plan_sealed(state: &State, side: SideId) -> bool {
    state.counters.as_ref().is_some_and(|c| c.sealed_plans.contains(&side))
}

/// The author's tool at the placement (`deploy: {reveal: true}` with hidden stacks): the top
/// unit of each stack is shown, every other unit goes under a fresh counter; the plan itself
/// stays sealed. Counters are numbered by hex and, within a hex, in the author's secret
/// order of their values (DESIGN §2.6, [`IdOrder`]), so their numbers tell nothing of who is
/// under them; the first hideable unit in that order is the shown top.
pub fn conceal_setup(state: &State, side: SideId, d: &mut Deploy, order: &IdOrder) -> Vec<(String, String)> {
    let Some(plan) = state.secret.as_ref().and_then(|s| s.plans.get(&side)) else { return vec![] };
    let Some(c) = state.counters.as_ref() else { return vec![] };
    // The value each would be committed as: a dummy's own (`dummy:FR:1`), a unit's at its
    // starting SL; its key orders the stack.
    let value = |id: &str| match state.unit(id) {
        Some(u) if parse_dummy(id).is_none() => {
            let mut v = u.clone();
            v.sl = u.start_sl.max(1).min(u.max_sl);
            value_of(&v)
        }
        _ => id.to_string(),
    };
    // Units by id, dummies (GE 15) by their value `dummy:FR:1`.
    let dummies = plan.numbered_dummies().map(|(n, k, h)| (dummy_value(n, k), h));
    let mut placed: Vec<(String, HexId)> = plan.units.iter().map(|(id, h)| (id.clone(), *h)).chain(dummies).collect();
    placed.sort_by_cached_key(|(id, h)| (*h, order.key(&value(id)).0));
    let mut commit = Vec::new();
    let mut next = c.next;
    for (id, h) in placed {
        if let Some((nation, _)) = parse_dummy(&id) {
            let cid = format!("{PREFIX}{next}");
            next += 1;
            commit.push((cid.clone(), id));
            d.counters.push(Placed { id: cid, hex: h, nation });
            continue;
        }
        let Some(u) = state.unit(&id) else { continue };
        // The first hideable unit met in a hex is its top, and stays shown (GE 13.8); with
        // dummies every top stays hidden (reading D8).
        let has_top = dummies_on(state) || d.shown.iter().any(|(sid, sh)| *sh == h && state.unit(sid).is_some_and(hideable));
        if !hideable(u) || !has_top {
            d.shown.insert(id.clone(), h);
            continue;
        }
        let cid = format!("{PREFIX}{next}");
        next += 1;
        let mut v = u.clone();
        v.sl = u.start_sl.max(1).min(u.max_sl);
        commit.push((cid.clone(), value_of(&v)));
        d.counters.push(Placed { id: cid, hex: h, nation: u.nation.clone() });
    }
    d.markers = plan.markers.clone();
    commit
}

/// `deploy: {reveal: true}` with hidden stacks: check the public placement (and, where the plan
/// is known, that it is the plan) and put shown units and counters on the map.
pub fn place_setup(state: &mut State, side: SideId, d: &Deploy) -> Result<Vec<Event>, Vec<Violation>> {
    let v = |m: String| Violation::new("GE 3.3", m);
    let mut errs = Vec::new();
    if !d.reveal {
        return Err(vec![v("open your placement now (deploy: {reveal: true}; with hidden stacks your tool writes the counters)".into())]);
    }
    let Some(sec) = state.secret.as_ref() else { return Err(vec![v("there is no secret setup".into())]) };
    let free = sec.free;
    let plan = sec.plans.get(&side).cloned();
    let units: Vec<Unit> = state.units.iter().filter(|u| u.side == side && u.place == Place::Unplaced).cloned().collect();
    // Shown: units of the side, each once; every unit either shown or under a counter.
    for id in d.shown.keys() {
        if !units.iter().any(|u| &u.id == id) {
            errs.push(v(format!("{id} is not a unit of yours waiting to be placed")).unit(id));
        }
    }
    let hidden: Vec<&Unit> = units.iter().filter(|u| !d.shown.contains_key(&u.id)).collect();
    for u in hidden.iter().filter(|u| !hideable(u)) {
        errs.push(Violation::new("GE 13.8", format!("{} is never hidden: it is placed shown", u.id)).unit(&u.id));
    }
    let mut want: BTreeMap<&str, usize> = BTreeMap::new();
    for u in &hidden {
        *want.entry(u.nation.as_str()).or_default() += 1;
    }
    let mut got: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &d.counters {
        *got.entry(p.nation.as_str()).or_default() += 1;
    }
    // GE 15.1: the counters beyond the units are dummies, up to the number supplied.
    let supply = state.counters.as_ref().map(|c| c.dummies.clone()).unwrap_or_default();
    let mut extra: BTreeMap<String, u32> = BTreeMap::new();
    let nations: BTreeSet<&str> = want.keys().chain(got.keys()).copied().collect();
    for n in nations {
        let (w, g) = (want.get(n).copied().unwrap_or(0), got.get(n).copied().unwrap_or(0));
        let may = if nation_side(n) == Some(side) { supply.get(n).copied().unwrap_or(0) as usize } else { 0 };
        if g < w || g > w + may {
            errs.push(v(format!(
                "{} units go under counters ({want:?} by nationality) but the placement has {} counters ({got:?}){}",
                hidden.len(),
                d.counters.len(),
                if supply.is_empty() { String::new() } else { format!("; dummies supplied {supply:?} (GE 15.1)") }
            )));
        } else if g > w {
            extra.insert(n.to_string(), (g - w) as u32);
        }
    }
    // The top unit of every stack is shown (GE 13.8), unless dummies are in play (D8).
    for p in &d.counters {
        if !dummies_on(state) && !d.shown.values().any(|h| *h == p.hex) {
            errs.push(Violation::new("GE 13.8", format!("{} stands in {} with no shown unit on top", p.id, p.hex)).hex(p.hex.to_string()));
        }
        // GE 3.6: a German free deployment may invade the Netherlands, which comes into play
        // with this placement (`neutrality::apply` below).
        let invades =
            side == SideId::German && free && state.board.map().hex(p.hex).is_some_and(|i| i.country == super::map::Country::Netherlands);
        if !state.board.in_play(p.hex) && !invades {
            errs.push(v(format!("{} is placed off the map ({})", p.id, p.hex)).hex(p.hex.to_string()));
        }
    }
    let fresh = state.counters.as_ref().map(|c| c.fresh.clone()).unwrap_or_default();
    let ids: Vec<&String> = d.counters.iter().map(|p| &p.id).collect();
    let fresh_ids: Vec<&String> = fresh.iter().take(ids.len()).map(|(id, _)| id).collect();
    if ids != fresh_ids {
        errs.push(Violation::new("GE 13.8", format!("the placement's counters ({}) are not the entry's commitments in order", ids.len())));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // Where the values and the plan are known, the placement is the plan.
    if let Some(plan) = &plan {
        for (id, h) in &d.shown {
            if plan.units.get(id) != Some(h) {
                errs.push(v(format!("{id} is shown in {h}, not where the committed plan puts it")).unit(id));
            }
        }
        for (p, (_, value)) in d.counters.iter().zip(&fresh) {
            if let Some((nation, n)) = value.as_deref().and_then(parse_dummy) {
                let at = plan.dummies.get(&nation).and_then(|hexes| hexes.get(n as usize - 1));
                if nation != p.nation || at != Some(&p.hex) {
                    errs.push(
                        v(format!("{} is committed as dummy {nation} {n}, which the plan does not put in {}", p.id, p.hex)).unit(&p.id),
                    );
                }
                continue;
            }
            let Some((unit, sl)) = value.as_deref().and_then(parse_value) else { continue };
            match units.iter().find(|u| u.id == unit) {
                Some(u) if u.nation == p.nation && u.sl == sl && plan.units.get(&unit) == Some(&p.hex) && !d.shown.contains_key(&unit) => {}
                _ => {
                    errs.push(v(format!("{} is committed as {unit} ({sl} SL), which the plan does not put in {}", p.id, p.hex)).unit(&p.id))
                }
            }
        }
        // Each unit and dummy under one counter only: with the counts equal, no value twice
        // means every hidden unit has its counter.
        let mut seen = BTreeSet::new();
        for (cid, value) in fresh.iter().take(d.counters.len()) {
            if let Some(x) = value
                && !seen.insert(x)
            {
                errs.push(v(format!("{cid} is committed as {x}, which another counter of the placement already is")).unit(cid));
            }
        }
        if free && plan.markers != d.markers {
            errs.push(v("the markers shown are not the committed plan's".into()));
        }
        let planned: BTreeMap<String, u32> =
            plan.dummies.iter().map(|(n, h)| (n.clone(), h.len() as u32)).filter(|(_, k)| *k > 0).collect();
        if planned != extra {
            errs.push(Violation::new("GE 15.1", format!("the plan places dummies {planned:?}, the placement shows {extra:?}")));
        }
        if !errs.is_empty() {
            return Err(errs);
        }
    }
    let mut ev = Vec::new();
    // GE 3.6: the German placement decides neutrality before its units appear (by hexes only).
    let public_plan = Plan {
        markers: d.markers.clone(),
        units: d.shown.iter().map(|(k, h)| (k.clone(), *h)).chain(d.counters.iter().map(|p| (p.id.clone(), p.hex))).collect(),
        dummies: BTreeMap::new(),
    };
    if side == SideId::German && free {
        ev.extend(super::neutrality::apply(state, &public_plan));
    }
    let occupiers = state.secret.as_ref().is_some_and(|s| s.occupiers);
    for h in public_plan.units.values() {
        let c = state.board.map().hex(*h).map(|i| i.country);
        if occupiers && matches!(c, Some(super::map::Country::Belgium | super::map::Country::Luxembourg | super::map::Country::Netherlands))
        {
            state.control.insert(*h, side);
            std::sync::Arc::make_mut(&mut state.initial_control).insert(*h, side);
        }
    }
    for (id, h) in &d.shown {
        if let Some(u) = state.unit_mut(id) {
            u.place = Place::Hex(*h);
        }
    }
    let Some(c) = state.counters.as_mut() else { return Err(vec![v("this game does not hide stacks".into())]) };
    // One batch per nationality: a counter shows its nationality, so it is one of those (or
    // one of the nationality's dummies placed, GE 15.1).
    let mut batch_of: BTreeMap<String, u32> = BTreeMap::new();
    let dummies = extra.iter().flat_map(|(n, k)| (1..=*k).map(move |i| dummy_record(n, i)));
    for u in hidden.iter().map(|u| (*u).clone()).chain(dummies) {
        let b = *batch_of.entry(u.nation.clone()).or_insert_with(|| {
            c.batches.push(Vec::new());
            (c.batches.len() - 1) as u32
        });
        c.batches[b as usize].push(u);
    }
    let mut placeholders = Vec::new();
    for (p, (cid, value)) in d.counters.iter().zip(&fresh) {
        let Some(&b) = batch_of.get(&p.nation) else { continue };
        let Some(model) = c.batches[b as usize].first() else { continue };
        let mut ph = placeholder(model, cid, b);
        ph.place = Place::Hex(p.hex);
        placeholders.push(ph);
        c.origins.insert(cid.clone(), p.hex);
        if let Some(v) = value {
            if let Some((unit, _)) = parse_value(v) {
                c.known.insert(cid.clone(), unit);
            } else if parse_dummy(v).is_some() {
                c.known.insert(cid.clone(), v.clone());
            }
        }
    }
    for (id, h) in &d.shown {
        c.started.insert(id.clone(), *h);
    }
    c.fresh.drain(..d.counters.len());
    c.next += d.counters.len() as u32;
    c.sealed_plans.insert(side);
    let gone: BTreeSet<String> = hidden.iter().map(|u| u.id.clone()).collect();
    state.units.retain(|u| !gone.contains(&u.id));
    state.units.extend(placeholders);
    if let Some(s) = state.secret.as_mut() {
        s.opened.insert(side);
        if free {
            s.markers.insert(side, d.markers.clone());
        }
    }
    if !d.markers.is_empty() {
        let m: Vec<String> = d.markers.iter().map(|(a, h)| format!("army {a} {h}")).collect();
        ev.push(Event::rule("GE 3.5", format!("{} mobilization markers: {}", side.title(), m.join(", "))));
    }
    let shown: Vec<String> = d.shown.iter().map(|(id, h)| format!("{id} {h}")).collect();
    let counters: Vec<String> = d.counters.iter().map(|p| format!("{} {} {}", p.id, p.nation, p.hex)).collect();
    ev.push(Event::rule(
        "GE 3.3",
        format!("the {} placement is made: shown {}; hidden counters {} (GE 13.8)", side.title(), shown.join(", "), counters.join(", ")),
    ));
    Ok(ev)
}

/// The sealed plan opened at the end: every unit started where the log showed it.
pub fn open_plan(state: &mut State, side: SideId, plan: Plan) -> Result<Vec<Event>, Vec<Violation>> {
    let v = |m: String| Violation::new("GE 3.3", m);
    let Some(c) = state.counters.as_ref() else { return Err(vec![v("this game does not hide stacks".into())]) };
    let mut errs = Vec::new();
    for (unit, h) in c.started.iter().filter(|(u, _)| state.unit(u).is_some_and(|x| x.side == side)) {
        if plan.units.get(unit) != Some(h) {
            errs.push(
                v(format!(
                    "the plan puts {unit} in {}, but it started in {h}",
                    plan.units.get(unit).map_or("no hex".into(), |x| x.to_string())
                ))
                .unit(unit),
            );
        }
    }
    // GE 15.1: the dummies placed are the plan's, each where the plan put it (every counter is
    // open by now, so each dummy has shown where it started).
    let shown: BTreeMap<&String, &HexId> =
        c.started.iter().filter(|(k, _)| parse_dummy(k).is_some_and(|(n, _)| nation_side(&n) == Some(side))).collect();
    let planned: BTreeMap<String, HexId> = plan.numbered_dummies().map(|(n, k, h)| (dummy_value(n, k), h)).collect();
    if shown.len() != planned.len() || shown.iter().any(|(k, h)| planned.get(*k) != Some(*h)) {
        errs.push(Violation::new("GE 15.1", format!("the plan's dummies {planned:?} are not those placed ({shown:?})")));
    }
    if state.secret.as_ref().is_some_and(|s| s.free) && state.secret.as_ref().and_then(|s| s.markers.get(&side)) != Some(&plan.markers) {
        errs.push(v("the plan's markers are not those shown at the placement".into()));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // The plan's own legality (3.3–3.6) was checked where it was known, at its commitment: by
    // the owner's tool and by `verify`'s omniscient pass. It cannot be checked again on today's
    // board, where the units have moved since.
    if let Some(c) = state.counters.as_mut() {
        c.sealed_plans.remove(&side);
    }
    let n = plan.units.len();
    if let Some(s) = state.secret.as_mut() {
        s.plans.insert(side, plan);
    }
    Ok(vec![Event::rule("GE 3.3", format!("the {} setup plan is opened: its {n} units started where the log showed them", side.title()))])
}

/// Sides that must still open counters before the result.
pub fn awaited(state: &State) -> Vec<SideId> {
    if state.counters.as_ref().is_none_or(|c| c.pending_outcome.is_none()) {
        return vec![];
    }
    let mut sides: BTreeSet<SideId> = state.units.iter().filter(|u| is_hidden(u)).map(|u| u.side).collect();
    sides.extend(state.counters.iter().flat_map(|c| c.sealed_plans.iter().copied()));
    let to_open = state.counters.as_ref().map(|c| c.to_open.clone()).unwrap_or_default();
    if !to_open.is_empty() {
        return to_open;
    }
    sides.into_iter().collect()
}

/// `Ruleset::conceal` for counters, on the author's view: hides become commitments (numbered
/// in the author's secret order of their values, never the order written; the units sent
/// sorted), units an order other than a move names are opened, hidden units in moves are
/// named by their counter ids, and at the end every own counter opens.
pub fn conceal(state: &State, seat: &str, mut orders: Orders, order: &IdOrder) -> Concealed<Orders> {
    let (Some(c), Some(side)) = (state.counters.as_ref(), state.side_of(seat)) else { return Concealed::plain(orders) };
    // unit id → counter id, for own counters this view knows.
    let counter_of: BTreeMap<&str, &str> = c
        .known
        .iter()
        .filter(|(cid, _)| state.unit(cid).is_some_and(|u| u.side == side && is_hidden(u)))
        .map(|(cid, uid)| (uid.as_str(), cid.as_str()))
        .collect();
    let mut open: BTreeSet<String> = BTreeSet::new();
    for a in &orders.actions {
        open.extend(opened_by(state, side, &a.0));
        if matches!(a.0, ActionKind::OpenCounters(_)) && plan_sealed(state, side) {
            open.insert(super::secret::plan_id(side));
        }
    }
    open.extend(opening_due_for(state, side));
    // Units named by their own id or their counter id: open those that must be opened.
    let mut openings: Vec<String> = Vec::new();
    if open.remove(&super::secret::plan_id(side)) {
        openings.push(super::secret::plan_id(side));
    }
    for id in &open {
        let cid = counter_of
            .get(id.as_str())
            .map(|s| s.to_string())
            .or_else(|| state.unit(id).filter(|u| u.side == side && is_hidden(u)).map(|u| u.id.clone()));
        if let Some(cid) = cid
            && !openings.contains(&cid)
        {
            openings.push(cid);
        }
    }
    // After the openings, units go by their own ids; units still hidden by their counters.
    let opened_units: BTreeSet<&str> = openings.iter().filter_map(|cid| c.known.get(cid)).map(|s| s.as_str()).collect();
    let name = |id: &String| -> String {
        if let Some(uid) = c.known.get(id)
            && openings.contains(id)
        {
            return uid.clone();
        }
        match counter_of.get(id.as_str()) {
            Some(cid) if !opened_units.contains(id.as_str()) => cid.to_string(),
            _ => id.clone(),
        }
    };
    let mut commit = Vec::new();
    let mut next = c.next;
    // The units as each hide meets them: the entry's earlier actions (losses decided,
    // replacements) change their SL, so the author's orders are played on a copy first.
    let mut sim = unmasked(state);
    for a in &mut orders.actions {
        if !matches!(a.0, ActionKind::Hide(_)) {
            // A refused action changes nothing here; the rules refuse the entry later.
            let _ = super::turn::step(&mut sim, side, &a.0);
        }
        match &mut a.0 {
            ActionKind::Move(m) => m.units = m.units.iter().map(&name).collect(),
            ActionKind::Hide(h) => {
                // One hex's counters: the public cannot tell them apart, so their values are
                // numbered in the secret order.
                let mut values: Vec<String> = h.units.iter().filter_map(|id| sim.unit(id)).map(value_of).collect();
                order.sort(&mut values, |v| v.clone());
                for v in values {
                    commit.push((format!("{PREFIX}{next}"), v));
                    next += 1;
                }
                h.units.sort();
            }
            other => rename_in_action(other, &name),
        }
    }
    Concealed { orders, commit, open: openings }
}

/// The units `side`'s action opens, as the action names them (own ids or counter ids), or as
/// counter ids where the rule decides (the last openings, phase G): whatever an order other
/// than a move names, a move of cavalry alone, every own counter for `open_counters`, the
/// counters phase G reaches for the end of the own combat phase. Ids that are not own hidden
/// counters are among them; the callers skip those. `conceal` and the bot's simulation both
/// ask here, so the tool and the bot open the same counters.
pub fn opened_by(state: &State, side: SideId, a: &ActionKind) -> Vec<String> {
    // A unit named by its own id (the author's writing) or its counter id, and its kind.
    let kind_of = |id: &str| -> Option<Kind> {
        let u = state.unit(id).or_else(|| {
            let c = state.counters.as_ref()?;
            let cid = c.known.iter().find(|(cid, uid)| uid.as_str() == id && state.unit(cid).is_some_and(|u| u.side == side))?.0;
            state.unit(cid)
        })?;
        if is_hidden(u) { real(state, u).map(|r| r.kind) } else { Some(u.kind) }
    };
    match a {
        ActionKind::Hide(_) | ActionKind::Standing(_) => vec![],
        ActionKind::Move(m) if m.units.iter().all(|id| kind_of(id) == Some(Kind::Cavalry)) => m.units.clone(),
        ActionKind::Move(_) => vec![],
        ActionKind::OpenCounters(_) => state.units.iter().filter(|u| u.side == side && is_hidden(u)).map(|u| u.id.clone()).collect(),
        ActionKind::EndPhase(super::orders::PhaseName::Combat) if state.player == side => {
            let mut ids = due_at_attrition(state);
            ids.extend(trench_keepers(state, side));
            ids
        }
        other => named_units(other).into_iter().cloned().collect(),
    }
}

/// Apply `name` to every unit id of an action other than a move or a hide.
fn rename_in_action(a: &mut ActionKind, name: &dyn Fn(&String) -> String) {
    let map = |v: &mut Vec<String>| v.iter_mut().for_each(|x| *x = name(x));
    match a {
        ActionKind::Enter(e) => e.unit = name(&e.unit),
        ActionKind::Replace(r) => r.unit = name(&r.unit),
        ActionKind::MarchAssault(x) | ActionKind::Attack(x) => {
            map(&mut x.units);
            map(&mut x.siege);
        }
        ActionKind::Attacks(v) => {
            for x in v {
                map(&mut x.units);
                map(&mut x.siege);
            }
        }
        ActionKind::Decide(d) => {
            d.losses.iter_mut().for_each(|l| l.unit = name(&l.unit));
            map(&mut d.advance);
        }
        ActionKind::Entrench(v) | ActionKind::ForcedMarch(v) => map(v),
        ActionKind::Strategic(s) => map(&mut s.units),
        ActionKind::Withdraw(w) => {
            map(&mut w.corps);
            if let Some(c) = w.cavalry.as_mut() {
                *c = name(c);
            }
        }
        _ => {}
    }
}

/// What a seat may see: only its own counters' identities.
pub fn view(state: &mut State, seat: &str) {
    let side = state.side_of(seat);
    let own: BTreeSet<String> = state.units.iter().filter(|u| Some(u.side) == side && is_hidden(u)).map(|u| u.id.clone()).collect();
    if let Some(c) = state.counters.as_mut() {
        c.known.retain(|cid, _| own.contains(cid));
    }
}

/// The public facts of the counters, one per line (the same in every replay mode).
pub fn public_facts(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    for u in &state.units {
        if is_hidden(u) {
            out.push(format!(
                "{} {} {} ? at {:?} batch {:?} flags {:?}",
                u.id,
                u.side.name(),
                u.nation,
                u.place,
                u.hidden,
                (u.moved, u.mp_spent, u.move_state)
            ));
        } else {
            let mut v = u.clone();
            v.hidden = None;
            out.push(format!("{v:?}"));
        }
    }
    if let Some(c) = state.counters.as_ref() {
        out.push(format!("next {} batches {:?} pending {:?}", c.next, c.batches, c.pending_outcome));
    }
    out.push(format!("battle {:?}", state.battle));
    out.push(format!("control {:?} vp {:?} outcome {:?}", state.control, state.vp, state.outcome));
    out.push(format!("turn {} {:?} {:?}", state.turn, state.player, state.phase));
    out
}

/// Open counter `id` in this replay's own state as the author's tool will (its value is known
/// here): for a bot or tool that simulates an entry before writing it. Returns the unit's id,
/// `None` when the counter is not hidden, not known here, or the opening is refused.
pub fn open_known(state: &mut State, id: &str) -> Option<String> {
    let u = state.unit(id).filter(|u| is_hidden(u))?;
    let (side, b) = (u.side, u.hidden? as usize);
    let c = state.counters.as_ref()?;
    let uid = c.known.get(id)?.clone();
    let value = value_of(c.batches.get(b)?.iter().find(|x| x.id == uid)?);
    open(state, side, id, &value).ok()?;
    Some(uid)
}

/// Rename unit `old` to `new` in every unit list of an action (moves and hides included).
pub fn rename_units(a: &mut ActionKind, old: &str, new: &str) {
    let name = |id: &String| if id == old { new.to_string() } else { id.clone() };
    match a {
        ActionKind::Move(m) => m.units = m.units.iter().map(name).collect(),
        ActionKind::Hide(h) => h.units = h.units.iter().map(name).collect(),
        other => rename_in_action(other, &name),
    }
}

/// Reading (GE 13.8 with 13.18/13.19): a retreat never ends in a hex holding the retreating
/// side's hidden counters; it goes past such a hex as past one that would overstack. Whether
/// the stack could take the retreating units depends on what the counters are, which the
/// public replay does not know, and retreats are chosen on the public state (automatic ones
/// by standing instructions, and the best-preference tier every choice is checked against).
pub fn blocks_retreat(state: &State, h: crate::geo::hex::HexId, side: SideId) -> bool {
    state.units_at(h).any(|u| u.side == side && is_hidden(u))
}

/// The hidden counters a battle waits for (GE 13.8: every counter in the attacked hex is
/// opened by the defender's entry that follows the attack), empty when it waits for none.
pub fn opening_due(state: &State) -> Vec<String> {
    match &state.battle {
        Some(b) if matches!(b.stage, super::state::Stage::Opening { .. }) => super::combat::hidden_in_target(state, b.attacker, b.target),
        _ => vec![],
    }
}

/// The counters `side` must open in its next entry for the battle (`conceal` adds them).
pub fn opening_due_for(state: &State, side: SideId) -> Vec<String> {
    if state.battle.as_ref().is_none_or(|b| b.attacker == side) {
        return vec![];
    }
    opening_due(state)
}

/// The refusal of an action while a battle waits for the defending counters (GE 13.8).
pub fn opening_refusal(state: &State) -> Violation {
    let due = opening_due(state);
    let target = state.battle.as_ref().map(|b| b.target.to_string()).unwrap_or_default();
    Violation::new(
        "GE 13.8",
        format!(
            "open the defending counters {} in {target}: every counter in the attacked hex is shown when the odds are computed, by the defender's entry that follows the attack (no other action before that)",
            due.join(", ")
        ),
    )
    .hex(target)
}

/// The state `side`'s next entry will decide on, when a battle waits for it to open the
/// defending counters: those this replay knows opened, then the odds and the kept die
/// applied as `GlorysEnd::hidden` does (for the bot and templates; `None` when no opening
/// is due or an identity is unknown here).
pub fn opened_preview(state: &State, side: SideId) -> Option<State> {
    let due = opening_due_for(state, side);
    if due.is_empty() {
        return None;
    }
    let mut s = state.clone();
    for cid in &due {
        open_known(&mut s, cid)?;
    }
    super::combat::after_opening(&mut s);
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_and_refuse() {
        assert_eq!(parse_value("unit:DE-7:3"), Some(("DE-7".into(), 3)));
        assert_eq!(parse_value("unit:GB-1-C:1"), Some(("GB-1-C".into(), 1)));
        assert_eq!(parse_value("unit::3"), None);
        assert_eq!(parse_value("army:DE-7"), None);
        assert_eq!(parse_value("unit:DE-7:x"), None);
        assert!(is_counter_id("c17") && !is_counter_id("c") && !is_counter_id("c07") && !is_counter_id("DE-7"));
        assert_eq!(parse_dummy("dummy:FR:2"), Some(("FR".into(), 2)));
        assert_eq!(parse_dummy("dummy:FR:02"), None);
        assert_eq!(parse_dummy("dummy:FR:+2"), None);
        assert_eq!(parse_dummy("dummy:FR:0"), None);
        assert_eq!(parse_dummy("dummy:BE:1"), None);
        assert_eq!(value_of(&dummy_record("GB", 3)), "dummy:GB:3");
    }
}

#[cfg(test)]
mod placement_tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::engine::hidden::{Committed, HiddenActs, Opened};
    use crate::engine::{Ruleset, SeatInfo};
    use crate::rules::glorys_end::GlorysEnd;
    use crate::rules::glorys_end::orders::{Action, ActionKind};

    /// What the engine does with an entry, in the omniscient way: conceal, commit, open,
    /// validate, apply. `values` keeps every committed value for later openings.
    fn send(s: &mut State, seat: &str, kind: ActionKind, values: &mut BTreeMap<String, String>) {
        let orders = Orders { actions: vec![Action(kind)] };
        let c = GlorysEnd::conceal(s, seat, orders, &crate::engine::IdOrder::trial()).expect("conceal");
        values.extend(c.commit.iter().cloned());
        let mut acts = HiddenActs {
            committed: c.commit.iter().map(|(id, v)| Committed { id: id.clone(), value: Some(v.clone()) }).collect(),
            opened: c.open.iter().map(|id| Opened { id: id.clone(), value: values[id].clone(), draw: None }).collect(),
        };
        GlorysEnd::hidden(s, seat, &mut acts).expect("hidden");
        let legal = GlorysEnd::validate(s, seat, c.orders).unwrap_or_else(|r| panic!("{:?}", r.violations));
        GlorysEnd::apply(s, seat, legal);
        GlorysEnd::check_invariants(s).expect("invariants");
    }

    /// DESIGN §2.6 "Ids say nothing" (issue 16, item 3): a `hide` written in any order gives
    /// the same public orders and commitments; the counters hold the values in the author's
    /// secret order, fresh at every seq.
    #[test]
    fn hide_ids_follow_the_secret_order_not_the_writing_order() {
        use crate::crypto::Hash;
        use crate::engine::IdOrder;
        let seats =
            vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
        let opts: yaml_serde::Value = yaml_serde::from_str("hidden_counters: true").expect("yaml");
        let s = GlorysEnd::setup(crate::rules::glorys_end::scenario::FREE_DEPLOYMENT_YAML, Some(&opts), &seats).expect("setup");
        let units: Vec<String> = s.units.iter().filter(|u| u.side == SideId::German && hideable(u)).take(5).map(|u| u.id.clone()).collect();
        assert_eq!(units.len(), 5);
        let hide = |units: Vec<String>, order: &IdOrder| {
            conceal(&s, "german", Orders { actions: vec![Action(ActionKind::Hide(Hide { units }))] }, order)
        };
        let order = IdOrder::new(&[1; 32], &Hash([2; 32]), 7);
        let a = hide(units.clone(), &order);
        let mut reversed = units.clone();
        reversed.reverse();
        assert_eq!(a, hide(reversed, &order));
        let values: Vec<String> = a.commit.iter().map(|(_, v)| v.clone()).collect();
        let mut want = values.clone();
        want.sort_by_key(|v| order.key(v).0);
        assert_eq!(values, want, "ids in the secret order");
        let fresh = (0..20).any(|seq| hide(units.clone(), &IdOrder::new(&[1; 32], &Hash([2; 32]), seq)).commit != a.commit);
        assert!(fresh, "another seq, another order");
    }

    #[test]
    fn a_free_deployment_is_placed_under_counters_and_its_plans_open_at_the_end() {
        let seats =
            vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
        let opts: yaml_serde::Value = yaml_serde::from_str("hidden_counters: true").expect("yaml");
        let mut s = GlorysEnd::setup(crate::rules::glorys_end::scenario::FREE_DEPLOYMENT_YAML, Some(&opts), &seats).expect("setup");
        let mut values = BTreeMap::new();
        for seat in ["allied", "german"] {
            let side = s.side_of(seat).expect("side");
            let plan = super::super::secret::default_plan(&s, side);
            send(&mut s, seat, ActionKind::Deploy(Deploy { plan: Some(plan), ..Deploy::default() }), &mut values);
        }
        for seat in ["allied", "german"] {
            send(&mut s, seat, ActionKind::Deploy(Deploy { reveal: true, ..Deploy::default() }), &mut values);
        }
        assert!(!super::super::secret::in_progress(&s));
        let hidden: Vec<&Unit> = s.units.iter().filter(|u| is_hidden(u)).collect();
        assert!(hidden.len() > 20, "most units go under counters: {}", hidden.len());
        for u in &hidden {
            let h = u.hex().expect("on the map");
            assert!(s.units_at(h).any(|t| t.side == u.side && !is_hidden(t)), "{} in {h} has a shown top", u.id);
        }
        // No placement names a hidden unit in the public orders: the plans stay sealed.
        assert!(plan_sealed(&s, SideId::German) && plan_sealed(&s, SideId::Allied));
        // The game ends: the result waits for every counter and both plans.
        s.outcome = Some(Outcome::Draw { reason: "test".into() });
        hold_outcome(&mut s);
        assert!(s.outcome.is_none());
        assert_eq!(awaited(&s).len(), 2);
        send(&mut s, "german", ActionKind::OpenCounters(true), &mut values);
        assert!(s.outcome.is_none() && plan_sealed(&s, SideId::Allied) && !plan_sealed(&s, SideId::German));
        send(&mut s, "allied", ActionKind::OpenCounters(true), &mut values);
        assert!(!s.units.iter().any(is_hidden));
        assert_eq!(s.outcome, Some(Outcome::Draw { reason: "test".into() }));
    }
}
