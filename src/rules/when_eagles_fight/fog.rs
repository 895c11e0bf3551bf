//! Asymmetric fog of war (WEF 13.7) as commitments (DESIGN §2.6).
//!
//! The Russian may never look beneath the top unit of a Central Powers stack until he has
//! declared an attack on it; the CP sees Russian stacks at any time. By mail:
//!
//! - **`hide`** (CP, in his own phases): units of one of his stacks go face down, the top
//!   unit staying shown. Each hidden unit becomes a **counter** with a fresh id (`c1`, `c2`…,
//!   used once, in order) whose identity the author's tool commits as `unit:<id>:<SL>`. The
//!   ids are numbered in the author's secret order of their values (`IdOrder`), never the
//!   order he wrote the units in, and the units are sent sorted.
//! - In [`State::units`] a counter is a **placeholder**: the counter id, the nationality (the
//!   counter's colour, which 6.4 needs publicly), the hex, and otherwise the most permissive
//!   unit the counter could be (an infantry division of 1 SL, no factors, 99 MP). Every rule's
//!   effect runs on the placeholder, so what the public learns never depends on what a replay
//!   knows. Which units went under the counters of one `hide` (its **batch**) is public: they
//!   were shown until then.
//! - Legality is checked on [`unmasked`]: each counter this replay knows is its real unit
//!   (under the counter id). The CP's own and the omniscient replays check movement points,
//!   stacking and the 3.5 freeze exactly; the public replay checks what the placeholder
//!   allows, and a lie is named by `verify`'s omniscient pass.
//! - **Openings** (the CP's, checked against the batch and the SL): the counters in a hex the
//!   Russian attacks, by the CP's entry that rolls the die (the die is kept until then, and
//!   the attack cannot be withdrawn once declared, 13.7); any hidden unit an order other than
//!   a move names (an attack needs its factors); the CP's counters out of supply when his
//!   combat phase ends (attrition, 9.4, removes units the public must know); and every
//!   counter at the end of the game (the engine's owed openings).
//!
//! Readings (docs/when-eagles-fight/rules.md): only infantry and active corps are hidden
//! (cavalry changes control differently, 3.8; fortress infantry and heavy artillery act on
//! the public state at once, 13.15, 13.18); hidden units that moved this phase are done for
//! the phase.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::orders::{Action, Attack, Orders};
use super::state::{Kind, Phase, Side, Size, State, Unit};
use crate::engine::hidden::{Committed, Concealed, HiddenActs, IdOrder};
use crate::engine::{Await, Event, Expectation, Violation};
use crate::geo::hex::HexId;

/// The rule every refusal here names.
pub const RULE: &str = "WEF 13.7";
/// Counter ids are `c<number>`.
pub const PREFIX: &str = "c";
/// The name a placeholder shows.
pub const UNKNOWN: &str = "?";
/// Movement points of a placeholder: more than any path costs, so the public replay never
/// refuses a counter's move for its MP (the real allowance is checked where known).
pub const PLACEHOLDER_MP: u8 = 99;
/// The longest counter value, `unit:<id>:<SL>` (unit ids are short labels; tested).
pub const VALUE_BOUND: usize = 64;

/// The fog's bookkeeping (WEF 13.7). Empty (and not serialised) until the CP first hides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fog {
    /// Counters issued so far: the next is `c<issued + 1>`.
    #[serde(default)]
    pub issued: u32,
    /// Public: the units each `hide` turned face down, as they were then; an opened unit
    /// leaves its batch.
    #[serde(default)]
    pub batches: Vec<Vec<Unit>>,
    /// Public: each counter still hidden, with its batch.
    #[serde(default)]
    pub counters: BTreeMap<String, usize>,
    /// What this replay knows: counter id → unit id (the CP's own replay, `verify`'s
    /// omniscient one). Not public: `view` removes it for the Russian.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub known: BTreeMap<String, String>,
    /// This entry's commitments not yet taken by a `hide`, with their values when known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fresh: Vec<(String, Option<String>)>,
    /// A Russian attack declared on a hex holding counters, waiting for them to open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind: Option<Attack>,
    /// Its CRT die, rolled by the CP's entry and kept until that entry's openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<u32>,
}

impl Fog {
    /// Nothing was ever hidden (the field is then left out of the state's text).
    pub fn is_unused(&self) -> bool {
        *self == Fog::default()
    }
}

/// `hide`: turn these CP units of one hex face down (WEF 13.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hide {
    /// Units of one hex, all shown now; at least one unit of the hex stays shown on top.
    pub units: Vec<String>,
}

/// `c<number>`, no leading zero.
pub fn is_counter_id(id: &str) -> bool {
    id.strip_prefix(PREFIX).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !n.starts_with('0'))
}

/// A hidden counter (placeholder, or its real unit in [`unmasked`]).
pub fn is_hidden(s: &State, id: &str) -> bool {
    s.fog.counters.contains_key(id)
}

/// The commitment value of a unit: `unit:DE-7:2`.
pub fn value_of(u: &Unit) -> String {
    format!("unit:{}:{}", u.id, u.sl)
}

/// `unit:DE-7:2` → (`DE-7`, 2).
pub fn parse_value(v: &str) -> Option<(String, u8)> {
    let (id, sl) = v.strip_prefix("unit:")?.rsplit_once(':')?;
    if id.is_empty() {
        return None;
    }
    Some((id.to_string(), sl.parse().ok()?))
}

/// May this unit go face down? Reading: infantry and active corps only (see the module).
pub fn hideable(u: &Unit) -> bool {
    matches!(u.kind, Kind::Infantry | Kind::Active)
}

/// The placeholder of counter `id` standing where `u` stood.
pub(super) fn placeholder(u: &Unit, id: &str) -> Unit {
    Unit {
        id: id.to_string(),
        name: UNKNOWN.into(),
        nat: u.nat,
        kind: Kind::Infantry,
        size: Size::Division,
        full: [0, 0, PLACEHOLDER_MP],
        reduced: None,
        star: false,
        army: None,
        sl: 1,
        place: u.place,
        when: None,
        rebuilt: None,
    }
}

/// The real record of counter `id`, when this replay knows it (under the counter id).
pub fn real(s: &State, id: &str) -> Option<Unit> {
    let b = *s.fog.counters.get(id)?;
    let uid = s.fog.known.get(id)?;
    let mut r = s.fog.batches.get(b)?.iter().find(|x| &x.id == uid)?.clone();
    r.id = id.to_string();
    r.place = s.unit(id)?.place;
    Some(r)
}

/// The state with every counter this replay knows replaced by its real unit (under its
/// counter id): what legality is checked on.
pub fn unmasked(s: &State) -> State {
    let mut w = s.clone();
    if s.fog.known.is_empty() {
        return w;
    }
    for u in w.units.iter_mut() {
        if let Some(r) = real(s, &u.id) {
            *u = r;
        }
    }
    w
}

/// Counters in hex `h`.
pub fn counters_at(s: &State, h: HexId) -> Vec<String> {
    s.units_at(h).filter(|u| is_hidden(s, &u.id)).map(|u| u.id.clone()).collect()
}

/// What a seat may see: the Russian never learns a counter's identity.
pub fn view(s: &mut State, seat: &str) {
    if s.side_of(seat) != Some(Side::Central) {
        s.fog.known.clear();
        for f in s.fog.fresh.iter_mut() {
            f.1 = None;
        }
    }
}

/// Lines for `describe`: each counter and what the public knows of it.
pub fn describe(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (cid, b) in &s.fog.counters {
        let batch: Vec<&str> = s.fog.batches.get(*b).into_iter().flatten().map(|u| u.id.as_str()).collect();
        let known = s.fog.known.get(cid).map(|u| format!("; is {u}")).unwrap_or_default();
        out.push(format!("counter {cid} one of {}{known}", batch.join(", ")));
    }
    if let Some(a) = &s.fog.blind {
        let die = s.fog.kept.map(|d| format!("; die {d} kept")).unwrap_or_default();
        out.push(format!("attack on {} waits for its counters to open (WEF 13.7){die}", a.target));
    }
    out
}

/// `Ruleset::hidden`: record the fresh commitments (taken by `hide`), apply the openings,
/// then resolve an attack whose counters are all open, with its kept die.
pub fn hidden(s: &mut State, seat: &str, acts: &HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
    s.fog.fresh.clear();
    let ours = |id: &str| is_counter_id(id);
    if acts.committed.iter().all(|x| !ours(&x.id)) && acts.opened.iter().all(|x| !ours(&x.id)) {
        return Ok(vec![]);
    }
    if s.side_of(seat) != Some(Side::Central) {
        return Err(vec![Violation::new(RULE, "only the Central Powers hide units")]);
    }
    let mut errs = Vec::new();
    let mut next = s.fog.issued + 1;
    for Committed { id, value } in acts.committed.iter().filter(|x| ours(&x.id)) {
        if *id != format!("{PREFIX}{next}") {
            errs.push(Violation::new(RULE, format!("the next counter is {PREFIX}{next}, not {id}: counter ids are used in order, once")));
            continue;
        }
        next += 1;
        if let Some(v) = value
            && parse_value(v).is_none()
        {
            errs.push(Violation::new(RULE, format!("{id}: {v:?} is not `unit:<id>:<SL>`")));
            continue;
        }
        s.fog.fresh.push((id.clone(), value.clone()));
    }
    let mut ev = Vec::new();
    for o in acts.opened.iter().filter(|x| ours(&x.id)) {
        match open(s, &o.id, &o.value) {
            Ok(e) => ev.push(e),
            Err(v) => errs.push(v),
        }
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Open counter `id` as `value`, refusing a value that contradicts what is public.
fn open(s: &mut State, id: &str, value: &str) -> Result<Event, Violation> {
    let bad = |msg: String| Violation::new(RULE, format!("{id} opens as {value:?}: {msg}")).unit(id);
    let Some(&b) = s.fog.counters.get(id) else { return Err(bad("there is no hidden counter of that id".into())) };
    let (uid, sl) = parse_value(value).ok_or_else(|| bad("not `unit:<id>:<SL>`".into()))?;
    let batch = s.fog.batches.get(b).cloned().unwrap_or_default();
    let Some(j) = batch.iter().position(|u| u.id == uid) else {
        let ids: Vec<&str> = batch.iter().map(|u| u.id.as_str()).collect();
        return Err(bad(format!("{uid} is not among the units this counter may be ({})", ids.join(", "))));
    };
    if batch[j].sl != sl {
        return Err(bad(format!("{uid} had {} SL when it was hidden", batch[j].sl)));
    }
    let Some(k) = s.units.iter().position(|u| u.id == id) else { return Err(bad("the counter is not in play".into())) };
    let mut r = s.fog.batches[b].remove(j);
    r.place = s.units[k].place;
    s.units[k] = r;
    s.fog.counters.remove(id);
    s.fog.known.remove(id);
    rename(s, id, &uid);
    let at = s.unit(&uid).and_then(Unit::hex).map(|h| format!(" in {h}")).unwrap_or_default();
    Ok(Event::rule(RULE, format!("{id}{at} is opened: {uid} ({sl} SL)")))
}

/// Carry a counter's per-phase records over to the unit it opens as.
fn rename(s: &mut State, old: &str, new: &str) {
    if let Some(mp) = s.spent.remove(old) {
        s.spent.insert(new.to_string(), mp);
    }
    // Every per-unit record the other rules keep: the OberOst phase's named units (14.3),
    // retreats this phase (13.22), this turn's entries, rail moves and off-map units (10, 11).
    for set in
        [&mut s.moving, &mut s.attacked, &mut s.hq.oberost_units, &mut s.retreated, &mut s.logistics.entered, &mut s.logistics.off_map]
    {
        if set.remove(old) {
            set.insert(new.to_string());
        }
    }
    if let Some(v) = s.logistics.rail.remove(old) {
        s.logistics.rail.insert(new.to_string(), v);
    }
}

/// `hide`: check and apply (the entry's fresh commitments become the counters).
pub fn step_hide(s: &mut State, side: Side, h: &Hide) -> Result<Vec<Event>, Vec<Violation>> {
    let v = |m: String| Violation::new(RULE, m);
    if side != Side::Central {
        return Err(vec![v("only the Central Powers hide their stacks: Russian stacks are open to the CP at any time".into())]);
    }
    if s.phase.side() != side {
        return Err(vec![v(format!("the CP hides units in his own phases; now: {}", s.phase.title()))]);
    }
    if h.units.is_empty() {
        return Err(vec![v("hide names at least one unit".into())]);
    }
    let mut errs = Vec::new();
    let mut hex = None;
    for (i, id) in h.units.iter().enumerate() {
        if h.units[..i].contains(id) {
            errs.push(v(format!("{id} is listed twice")).unit(id));
            continue;
        }
        let Some(u) = s.unit(id) else {
            errs.push(v(format!("there is no unit {id}")).unit(id));
            continue;
        };
        if u.side() != side {
            errs.push(v("only your own units may be hidden".into()).unit(id));
        } else if is_hidden(s, id) {
            errs.push(v("the unit is hidden already".into()).unit(id));
        } else if !hideable(u) {
            errs.push(v("only infantry and active corps go face down (reading: cavalry, fortress infantry and heavy artillery act on the open board, 3.8, 13.15, 13.18)".into()).unit(id));
        } else if s.moving.contains(id) {
            errs.push(v("the unit is still moving: finish its move first".into()).unit(id));
        }
        match (u.hex(), hex) {
            (None, _) => errs.push(v("the unit is not on the map".into()).unit(id)),
            (Some(x), None) => hex = Some(x),
            (Some(x), Some(y)) if x != y => errs.push(v(format!("the hidden units must share one hex ({y} and {x})")).unit(id)),
            _ => {}
        }
    }
    let Some(hex) = hex else { return Err(errs) };
    if !s.units_at(hex).any(|u| !is_hidden(s, &u.id) && !h.units.contains(&u.id)) {
        errs.push(v(format!("the top unit of the stack in {hex} stays shown: keep one unit of it out of the hide")).hex(hex.to_string()));
    }
    if s.fog.fresh.len() < h.units.len() {
        errs.push(v(format!(
            "{} units are hidden but the entry commits {} fresh counters (the author's tool commits one per unit)",
            h.units.len(),
            s.fog.fresh.len()
        )));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let taken: Vec<(String, Option<String>)> = s.fog.fresh.drain(..h.units.len()).collect();
    // Where the values are known they must be exactly the units hidden, each with its SL.
    if taken.iter().all(|(_, v)| v.is_some()) {
        let mut want: Vec<String> = h.units.iter().filter_map(|id| s.unit(id)).map(value_of).collect();
        let mut got: Vec<String> = taken.iter().filter_map(|(_, v)| v.clone()).collect();
        want.sort();
        got.sort();
        if want != got {
            return Err(vec![v(format!("the counters committed ({}) are not the units hidden ({})", got.join(", "), want.join(", ")))]);
        }
    }
    let records: Vec<Unit> = h.units.iter().filter_map(|id| s.unit(id)).cloned().collect();
    let nat = records[0].nat;
    if records.iter().any(|u| u.nat != nat) {
        // Reading: a counter shows its nationality's colour, so one hide is one nationality.
        return Err(vec![v("the units of one hide share a nationality (their counters show it)".into())]);
    }
    // Reading: units that moved this phase stay done for it under their counters.
    let spent = h.units.iter().filter_map(|id| s.spent.get(id)).max().copied();
    let batch = s.fog.batches.len();
    s.fog.issued += h.units.len() as u32;
    s.fog.batches.push(records.clone());
    s.units.retain(|u| !h.units.contains(&u.id));
    for id in &h.units {
        s.spent.remove(id);
    }
    let first = &records[0];
    for (cid, value) in &taken {
        if let Some((uid, _)) = value.as_deref().and_then(parse_value) {
            s.fog.known.insert(cid.clone(), uid);
        }
        s.fog.counters.insert(cid.clone(), batch);
        s.units.push(placeholder(first, cid));
        if let Some(mp) = spent {
            s.spent.insert(cid.clone(), mp);
        }
    }
    let mut sorted = h.units.clone();
    sorted.sort();
    let ids: Vec<String> = taken.into_iter().map(|(c, _)| c).collect();
    Ok(vec![Event::rule(RULE, format!("{} in {hex} go face down as {}", sorted.join(", "), ids.join(", ")))])
}

/// A Russian attack on a hex holding counters (the caller checked that it does): checked
/// as any attack, then kept, unresolved, until the CP's next entry rolls its die and opens
/// the counters. The Russian has declared it and cannot take it back (13.7).
pub fn declare_blind(s: &mut State, side: Side, a: &Attack) -> Result<Vec<Event>, Vec<Violation>> {
    super::combat::declare(s, side, a)?;
    s.fog.blind = Some(a.clone());
    s.fog.kept = None;
    let due = counters_at(s, a.target);
    Ok(vec![Event::rule(
        RULE,
        format!(
            "{} attack {}: the Central Powers open {} with the entry that rolls the die; the attack stands",
            a.units.join(", "),
            a.target,
            due.join(", ")
        ),
    )])
}

/// The attack declared on a hex with counters, if the target still holds hidden ones.
pub fn blind_pending(s: &State) -> bool {
    s.fog.blind.is_some()
}

/// `pending_roll` while a blind attack waits for its die.
pub fn pending_roll(s: &State) -> Option<String> {
    let a = s.fog.blind.as_ref().filter(|_| s.fog.kept.is_none())?;
    Some(format!("combat at {}: CRT roll, kept until the Central Powers open the attacked stack (WEF 13.7)", a.target))
}

/// `resolve`: keep the die of a blind attack.
pub fn keep_die(s: &mut State, die: u32) -> Vec<Event> {
    s.fog.kept = Some(die);
    let t = s.fog.blind.as_ref().map(|a| a.target.to_string()).unwrap_or_default();
    vec![Event::roll(format!("combat at {t}: CRT roll, kept until the stack is open"), "d6", die)]
}

/// Once every counter in a blind attack's target is open: the attack is declared again on
/// the open stack (odds, DRM) and the kept die applied.
fn resolve_blind(s: &mut State) -> Vec<Event> {
    let (Some(a), Some(die)) = (s.fog.blind.clone(), s.fog.kept) else { return vec![] };
    if !counters_at(s, a.target).is_empty() {
        return vec![];
    }
    s.fog.blind = None;
    s.fog.kept = None;
    let mut ev = vec![Event::rule(RULE, format!("the stack in {} is open: the attack is resolved with the kept die {die}", a.target))];
    match super::combat::declare(s, Side::Russian, &a) {
        Ok(b) => {
            ev.extend(super::combat::start(s, b));
            if s.battle.is_some() {
                ev.extend(super::combat::roll(s, die));
            }
        }
        // Nothing public changed since the declaration; kept for safety.
        Err(v) => ev.extend(v.into_iter().map(|v| Event::rule(v.rule.clone(), format!("the attack lapses: {v}")))),
    }
    ev
}

/// `reveal`: the CP's entry that opened an attacked stack (the openings travel with it and
/// were applied first) resolves the attack with the kept die.
pub fn step_reveal(s: &mut State, side: Side) -> Result<Vec<Event>, Vec<Violation>> {
    let errs = check_action(s, side, &Action::Reveal);
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(resolve_blind(s))
}

/// Who is expected while a blind attack waits: the CP, to roll the die and then open.
pub fn expect(s: &State) -> Option<Expectation> {
    let a = s.fog.blind.as_ref()?;
    let what = if s.fog.kept.is_none() {
        format!("acknowledge: your entry rolls the die of the attack on {} (WEF 13.20)", a.target)
    } else {
        format!("reveal: open your counters in {} ({}) for the attack (WEF 13.7)", a.target, counters_at(s, a.target).join(", "))
    };
    Some(Expectation {
        when: format!("{}, {}", s.turn_text(), s.phase.title()),
        awaits: vec![Await { seat: s.seat(Side::Central).into(), what }],
    })
}

/// Orders with no choice in them: the CP's `reveal` of an attacked stack.
pub fn automatic_orders(s: &State, seat: &str) -> Option<Orders> {
    (s.side_of(seat) == Some(Side::Central) && s.fog.blind.is_some() && s.fog.kept.is_some())
        .then(|| Orders { actions: vec![Action::Reveal] })
}

/// The CP's counters out of supply, which its attrition (9.4) would remove: opened when his
/// combat phase ends.
pub fn due_at_attrition(s: &State) -> Vec<String> {
    let src = super::supply::sources(s, Side::Central);
    s.units
        .iter()
        .filter(|u| is_hidden(s, &u.id) && super::supply::status(s, u, &src) == super::supply::Status::Out)
        .map(|u| u.id.clone())
        .collect()
}

/// Every unit id an action names (its string values, whatever the action).
fn names(a: &Action) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(xs) => xs.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(m) => m.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Ok(v) = serde_json::to_value(a) {
        walk(&v, &mut out);
    }
    out
}

/// Replace unit ids in an action's string values.
fn renamed(a: &Action, name: &dyn Fn(&str) -> Option<String>) -> Action {
    fn walk(v: &mut serde_json::Value, name: &dyn Fn(&str) -> Option<String>) {
        match v {
            serde_json::Value::String(s) => {
                if let Some(n) = name(s) {
                    *s = n;
                }
            }
            serde_json::Value::Array(xs) => xs.iter_mut().for_each(|x| walk(x, name)),
            serde_json::Value::Object(m) => m.values_mut().for_each(|x| walk(x, name)),
            _ => {}
        }
    }
    let Ok(mut v) = serde_json::to_value(a) else { return a.clone() };
    walk(&mut v, name);
    serde_json::from_value(v).unwrap_or_else(|_| a.clone())
}

/// What the fog adds to the check of one action (on the unmasked working state): while an
/// attacked stack waits to open only `reveal`; a counter only in moves and hides; the CP's
/// combat phase ends with its counters out of supply open.
pub fn check_action(s: &State, side: Side, a: &Action) -> Vec<Violation> {
    if let Some(t) = s.fog.blind.as_ref().map(|b| b.target) {
        let due = counters_at(s, t);
        if matches!(a, Action::Reveal) && side == Side::Central && s.fog.kept.is_some() && due.is_empty() {
            return vec![];
        }
        let what = if due.is_empty() {
            "the Central Powers' `reveal` resolves it".to_string()
        } else {
            format!(
                "open the counters {} in {t}: an attacked stack is shown, by the Central Powers' entry that rolls its die, before anything else",
                due.join(", ")
            )
        };
        return vec![Violation::new(RULE, format!("an attack on a hidden stack waits: {what}")).hex(t.to_string())];
    }
    match a {
        Action::Reveal => {
            return vec![Violation::new(
                RULE,
                "reveal answers a Russian attack on a stack with counters; nothing is waiting to be revealed",
            )];
        }
        Action::Move(_) | Action::Hide(_) => return vec![],
        Action::EndPhase if side == Side::Central && s.phase == Phase::CentralCombat => {
            let due = due_at_attrition(s);
            if !due.is_empty() {
                return vec![Violation::new(
                    RULE,
                    format!("open the counters out of supply ({}) before the attrition that ends the combat phase (9.4)", due.join(", ")),
                )];
            }
        }
        _ => {}
    }
    names(a)
        .into_iter()
        .filter(|id| is_hidden(s, id))
        .map(|id| Violation::new(RULE, format!("{id} is face down: a hidden unit takes part in an order other than a move only once opened (the author's tool opens it)")).unit(id))
        .collect()
}

/// The CP's counters its orders open, by counter id: those a non-move order names (by unit
/// or counter id), those of an attacked stack, those out of supply when the combat phase
/// ends. `sim` is played forward through the orders (unmasked, the author's view).
fn openings(s: &State, orders: &Orders) -> Vec<String> {
    let counter_of: BTreeMap<&str, &str> = s.fog.known.iter().map(|(c, u)| (u.as_str(), c.as_str())).collect();
    let mut open: BTreeSet<String> = BTreeSet::new();
    if let Some(a) = &s.fog.blind {
        open.extend(counters_at(s, a.target));
    }
    let mut sim = unmasked(s);
    for a in &orders.actions {
        match a {
            Action::Move(_) | Action::Hide(_) => {}
            Action::EndPhase if sim.phase == Phase::CentralCombat => open.extend(due_at_attrition(&sim)),
            other => {
                for id in names(other) {
                    if is_hidden(s, &id) {
                        open.insert(id);
                    } else if let Some(c) = counter_of.get(id.as_str()) {
                        open.insert(c.to_string());
                    }
                }
            }
        }
        if !matches!(a, Action::Hide(_)) {
            // A refused action changes nothing here; the rules refuse the entry later.
            let _ = super::turn::step(&mut sim, Side::Central, a);
        }
    }
    open.into_iter().filter(|c| s.fog.known.contains_key(c)).collect()
}

/// `Ruleset::conceal`, on the CP's own view: hides become commitments (numbered in the
/// author's secret order of their values; the units sent sorted), units an order other than
/// a move names are opened and named by their own ids, counters in moves by counter ids.
pub fn conceal(s: &State, seat: &str, mut orders: Orders, order: &IdOrder) -> Concealed<Orders> {
    if s.side_of(seat) != Some(Side::Central) {
        return Concealed::plain(orders);
    }
    let open = openings(s, &orders);
    let counter_of: BTreeMap<String, String> = s.fog.known.iter().map(|(c, u)| (u.clone(), c.clone())).collect();
    let opened: BTreeMap<String, String> = open.iter().filter_map(|c| Some((c.clone(), s.fog.known.get(c)?.clone()))).collect();
    let to_counter = |id: &str| counter_of.get(id).filter(|c| !opened.contains_key(*c)).cloned();
    let to_unit = |id: &str| opened.get(id).cloned();
    let mut commit = Vec::new();
    let mut next = s.fog.issued + 1;
    let mut sim = unmasked(s);
    for a in orders.actions.iter_mut() {
        if !matches!(a, Action::Hide(_)) {
            let _ = super::turn::step(&mut sim, Side::Central, a);
        }
        match a {
            Action::Move(m) => {
                for id in m.units.iter_mut() {
                    if let Some(n) = to_unit(id).or_else(|| to_counter(id)) {
                        *id = n;
                    }
                }
            }
            // 3.9: the CP's face-down deployment, committed as hides are.
            Action::Deploy(d) => super::deploy::conceal(&sim, d, order, &mut next, &mut commit),
            Action::Hide(h) => {
                // One hex's counters: the public cannot tell them apart, so their values are
                // numbered in the secret order, never the order written.
                let mut values: Vec<String> = h.units.iter().filter_map(|id| sim.unit(id)).map(value_of).collect();
                order.sort(&mut values, |v| v.clone());
                for v in values {
                    commit.push((format!("{PREFIX}{next}"), v));
                    next += 1;
                }
                h.units.sort();
            }
            other => *other = renamed(other, &to_unit),
        }
    }
    Concealed { orders, commit, open }
}

/// `Ruleset::committed_value_bound`: counters hold short values.
pub fn value_bound(id: &str) -> usize {
    if is_counter_id(id) { VALUE_BOUND } else { 256 }
}

/// The CP's `hide`s the bot adds before ending a movement phase: in some hexes with two or
/// more hideable shown units, all of them but one.
pub fn bot_hides(s: &State, ch: &mut crate::dice::Dice) -> Vec<Action> {
    let mut by_hex: BTreeMap<HexId, Vec<&Unit>> = BTreeMap::new();
    for u in s.units.iter().filter(|u| u.side() == Side::Central && !is_hidden(s, &u.id)) {
        if let Some(h) = u.hex() {
            by_hex.entry(h).or_default().push(u);
        }
    }
    let mut out = Vec::new();
    for (_, units) in by_hex {
        if units.len() < 2 || ch.roll(2) != 0 {
            continue;
        }
        let mut ids: Vec<String> =
            units.iter().filter(|u| hideable(u) && !s.moving.contains(&u.id) && u.nat == units[0].nat).map(|u| u.id.clone()).collect();
        if ids.len() == units.len() {
            ids.pop();
        }
        if !ids.is_empty() {
            out.push(Action::Hide(Hide { units: ids }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_and_refuse() {
        assert_eq!(parse_value("unit:DE-7:2"), Some(("DE-7".into(), 2)));
        assert_eq!(parse_value("unit:AH-1/2:1"), Some(("AH-1/2".into(), 1)));
        assert_eq!(parse_value("unit::1"), None);
        assert_eq!(parse_value("DE-7"), None);
        assert!(is_counter_id("c12") && !is_counter_id("c01") && !is_counter_id("c") && !is_counter_id("DE-1"));
    }
}
