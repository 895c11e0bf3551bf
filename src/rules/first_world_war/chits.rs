//! Hidden combat chits (DESIGN §2.6; TFWW 6.1/1, 6.1/5, 6.2, 6.2.1, 6.2.2; digest §F.4 H-4 to
//! H-7). Players' description: `docs/first-world-war/rules.md`, "Hidden chits".
//!
//! What travels how:
//! - a chit drawn after an S is a **private draw** (`draw@N`): made in the drawer's next entry
//!   that carries orders after the roll, settled by the next entry of that entry's
//!   `dice_from` seat; only the drawer (and its partners) can compute it;
//! - a chit placed face down (6.1/1), returned over the limit or returned as unusable (6.2.1)
//!   is a **commitment** `chit@N` with the value `chit:<id>`; the orders say `face-down`;
//! - a placed chit is opened at 6.1/5: the defender's with its lead, the attacker's in an
//!   entry of its own (`open_chit`) that carries the combat roll;
//! - when the game ends every seat sends `reveal_chits`, opening every draw and return it
//!   made, so `verify` can replay every hand with full knowledge.
//!
//! The hand itself is not committed a second time: each held chit is fixed by the draw that
//! brought it (its `r`, sealed to the drawer) and the public cup, so the sealed draw secrets,
//! the sealed returns and the public openings are the hand.
//!
//! A replay knows an alliance's hands and cup exactly (its seats' own view with partners
//! sharing, the omniscient pass) or not at all (`ChitBook::unknown`). When it knows, every
//! rule is checked at once; when it does not, `hands` of that alliance are empty and its cup
//! lists every chit that may be in the cup or in a hand; hand sizes are public.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::orders::{Action, Orders};
use super::scenario::{ChitUse, Faction};
use super::state::{CombatStep, Stage, State};
use crate::dice::Dice;
use crate::engine::{Await, Concealed, Event, Expectation, HiddenActs, Violation};

/// How a chit placed, returned or discarded appears in the log's orders (its back plain).
pub const FACE_DOWN: &str = "face-down";
/// The same, for a chit whose back shows it is mandatory (red or blue, 6.2.2): the table
/// sees that back, so the log does too (digest H-4, AMB-25).
pub const FACE_DOWN_MANDATORY: &str = "face-down-mandatory";
/// Prefix of chit commitment ids.
pub const CHIT_ID: &str = "chit@";
/// Prefix of private draw ids.
pub const DRAW_ID: &str = "draw@";

/// A private draw made after an S (6.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    pub id: String,
    pub seat: String,
    pub alliance: String,
    /// Chits the draw may not give (AMB-26: the drawer's chit of that combat; a chit returned
    /// over the limit in the drawing entry), when this replay knows them.
    pub exclude: Vec<usize>,
    pub settled: bool,
    /// The chit drawn, when this replay knows it.
    pub chit: Option<usize>,
    /// 6.2: the drawer said `draw: false` in the entry that made it: void, no chit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub declined: bool,
    /// 6.2.2 (H-4): the back the drawer showed once the draw was settled (`true`: a
    /// mandatory chit's red or blue back); public.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<bool>,
}

/// A draw won by an S and not yet made (it is made in the seat's next entry with orders).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owed {
    pub seat: String,
    pub alliance: String,
    pub exclude: Vec<usize>,
}

/// A chit placed face down in the combat in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub seat: String,
    pub attacker: bool,
    pub alliance: String,
    /// The commitment id (`None` only on an author's own trial with a plain chit name).
    pub id: Option<String>,
    /// The chit, when this replay knows it.
    pub chit: Option<usize>,
    /// Its value has been opened.
    pub open: bool,
    /// Turned face up by its side's action (the defender's lead, the attacker's
    /// `open_chit`): the roll waits for it.
    #[serde(default)]
    pub turned: bool,
    /// 6.2.2 (H-4): it was placed showing a mandatory chit's back.
    #[serde(default)]
    pub mandatory_back: bool,
}

/// The hidden side of the chits (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChitBook {
    /// Chits are hidden in this game (false: every hand in the open, `open_chits`).
    pub hidden: bool,
    /// Alliances whose hands and cup this replay does not know exactly.
    pub unknown: BTreeSet<String>,
    /// Chits held, by seat (public: a table shows the backs).
    pub hand_count: BTreeMap<String, usize>,
    /// Of those, the chits with a mandatory back (red or blue, 6.2.2), by seat (public).
    pub mandatory_backs: BTreeMap<String, usize>,
    /// Counter for fresh commitment and draw ids (public).
    pub serial: u32,
    pub draws: Vec<Draw>,
    pub owed: Vec<Owed>,
    /// Draw ids made since the engine last asked ([`take_draws`]).
    pub new_draws: Vec<String>,
    /// Chit commitments of the entry being applied, not yet used by an action: `(id, value)`.
    pub incoming: Vec<(String, Option<String>)>,
    pub table: Vec<Placed>,
    /// Draw and return commitments not yet opened, by seat (public).
    pub sealed: BTreeMap<String, Vec<String>>,
    /// Returns committed, `(seat, id, chit when known, unusable return?)`.
    pub returns: Vec<(String, String, Option<usize>, bool)>,
    /// The seat that drew at the hand limit in this entry and must return a chit held before.
    pub must_discard: Option<String>,
    /// The game is over and these seats still send `reveal_chits`.
    pub reveal_due: BTreeSet<String>,
    /// The end-of-game reveal has started.
    pub revealing: bool,
}

type R = Result<Vec<Event>, Vec<Violation>>;

fn v(rule: &str, msg: impl Into<String>) -> Vec<Violation> {
    vec![Violation::new(rule, msg)]
}

/// Set up the book for a fresh state: hidden unless `open_chits`, every hand size counted.
pub fn init(s: &mut State) {
    s.chits.hidden = !s.options.open_chits;
    s.chits.hand_count = s.hands.iter().map(|(k, h)| (k.clone(), h.len())).collect();
    s.chits.mandatory_backs = s.hands.iter().map(|(k, h)| (k.clone(), h.iter().filter(|&&c| s.data.chits[c].mandatory).count())).collect();
}

/// Chits `seat` holds (public).
pub fn held(s: &State, seat: &str) -> usize {
    if s.chits.hidden { s.chits.hand_count.get(seat).copied().unwrap_or(0) } else { s.hands.get(seat).map_or(0, Vec::len) }
}

fn alliance_of_seat(s: &State, seat: &str) -> String {
    s.factions_of(seat).first().map(|f| f.alliance().to_string()).unwrap_or_default()
}

fn seats_of(s: &State, alliance: &str) -> Vec<String> {
    let mut v: Vec<String> = s.seats.iter().filter(|(f, _)| f.alliance() == alliance).map(|(_, x)| x.clone()).collect();
    v.dedup();
    v
}

/// Whether this replay knows `seat`'s hand exactly.
pub fn knows_hand(s: &State, seat: &str) -> bool {
    !s.chits.hidden || !s.chits.unknown.contains(&alliance_of_seat(s, seat))
}

/// Chits in `alliance`'s cup (public): what may be in it, less the hidden hands and the
/// unopened chits on the table.
pub fn cup_count(s: &State, alliance: &str) -> usize {
    let listed = s.cups.get(alliance).map_or(0, Vec::len);
    if !s.chits.hidden {
        return listed;
    }
    let seats = seats_of(s, alliance);
    let known: usize = seats.iter().map(|x| s.hands.get(x).map_or(0, Vec::len)).sum();
    let count: usize = seats.iter().map(|x| held(s, x)).sum();
    let unknown_table = s.chits.table.iter().filter(|p| p.alliance == alliance && p.chit.is_none()).count();
    (listed + known).saturating_sub(count + unknown_table)
}

/// Forget the hands and cup of `alliance`: its cup becomes the list of chits that may be in
/// the cup or in one of its hands.
fn lose_track(s: &mut State, alliance: &str) {
    if !s.chits.unknown.insert(alliance.to_string()) {
        return;
    }
    let mut pool = s.cups.remove(alliance).unwrap_or_default();
    for seat in seats_of(s, alliance) {
        if let Some(h) = s.hands.get_mut(&seat) {
            pool.append(h);
        }
    }
    for p in s.chits.table.iter_mut().filter(|p| p.alliance == alliance && !p.open) {
        if let Some(c) = p.chit.take() {
            pool.push(c);
        }
    }
    for d in s.chits.draws.iter_mut().filter(|d| d.alliance == alliance) {
        d.chit = None;
        d.exclude.clear();
    }
    let seats = seats_of(s, alliance);
    for r in s.chits.returns.iter_mut().filter(|r| seats.contains(&r.0)) {
        r.2 = None;
    }
    pool.sort_unstable();
    s.cups.insert(alliance.to_string(), pool);
}

fn parse_value(s: &State, value: &str) -> Option<usize> {
    value.strip_prefix("chit:").and_then(|id| s.data.chit(id))
}

/// A fresh commitment id for the next chit commitment of an entry (`k`-th of the entry).
fn fresh_id(s: &State, k: u32) -> String {
    format!("{CHIT_ID}{}", s.chits.serial + k)
}

// ---- the engine's calls (Ruleset::hidden, private_draws, settle_draw, conceal) ----

/// `Ruleset::hidden` for chit ids: make the draws `seat` owes, record the entry's chit
/// commitments for its actions, and take the openings.
pub fn hidden(s: &mut State, seat: &str, acts: &mut HiddenActs) -> R {
    let mut ev = Vec::new();
    let mine = |id: &str| id.starts_with(CHIT_ID) || id.starts_with(DRAW_ID);
    if !s.chits.hidden {
        if acts.committed.iter().any(|c| mine(&c.id)) || acts.opened.iter().any(|o| mine(&o.id)) {
            return Err(v("TFWW 6.2", "chits are played in the open in this game (open_chits): nothing to commit or open"));
        }
        return Ok(ev);
    }
    let made = make_draws(s, seat, &mut ev);
    let mut errs = Vec::new();
    for o in acts.opened.iter_mut().filter(|o| mine(&o.id)) {
        if let Err(e) = open(s, seat, &o.id, &o.value, &mut ev) {
            errs.extend(e);
        }
    }
    s.chits.incoming.clear();
    for c in acts.committed.iter().filter(|c| mine(&c.id)) {
        if c.id.starts_with(DRAW_ID) {
            if !made.contains(&c.id) {
                errs.push(Violation::new("TFWW 6.2", format!("{} is not a draw this entry makes", c.id)));
            }
            continue;
        }
        if c.value.as_deref().is_some_and(|val| parse_value(s, val).is_none()) {
            errs.push(Violation::new("TFWW 6.2", format!("{}: {:?} is not a chit of this scenario", c.id, c.value)));
            continue;
        }
        if c.value.is_none() {
            // A value this replay cannot read (another side's, or notes missing): the
            // alliance's hands are no longer known exactly.
            let alliance = alliance_of_seat(s, seat);
            lose_track(s, &alliance);
        }
        s.chits.incoming.push((c.id.clone(), c.value.clone()));
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Make the draws `seat` owes (6.2): each becomes a private draw of this entry.
fn make_draws(s: &mut State, seat: &str, ev: &mut Vec<Event>) -> Vec<String> {
    let (mine, rest): (Vec<Owed>, Vec<Owed>) = std::mem::take(&mut s.chits.owed).into_iter().partition(|o| o.seat == seat);
    s.chits.owed = rest;
    let mut made = Vec::new();
    for o in mine {
        // AMB-26: the drawer's own chit of that combat is not in the cup for this draw.
        let blocked = o.exclude.len();
        if cup_count(s, &o.alliance) <= blocked {
            ev.push(Event::rule("TFWW 6.2", format!("{seat} may draw a chit but the {} cup is empty", o.alliance)));
            continue;
        }
        let id = format!("{DRAW_ID}{}", s.chits.serial);
        s.chits.serial += 1;
        if held(s, seat) >= s.data.hand_limit {
            s.chits.must_discard = Some(seat.to_string());
        }
        *s.chits.hand_count.entry(seat.to_string()).or_default() += 1;
        s.chits.draws.push(Draw {
            id: id.clone(),
            seat: seat.to_string(),
            alliance: o.alliance.clone(),
            exclude: o.exclude,
            settled: false,
            chit: None,
            declined: false,
            back: None,
        });
        s.chits.sealed.entry(seat.to_string()).or_default().push(id.clone());
        s.chits.new_draws.push(id.clone());
        ev.push(Event::rule("TFWW 6.2", format!("{seat} draws a chit from the {} cup, face down ({id})", o.alliance)));
        made.push(id);
    }
    made
}

/// `Ruleset::private_draws`.
pub fn take_draws(s: &mut State) -> Vec<String> {
    std::mem::take(&mut s.chits.new_draws)
}

/// `Ruleset::settle_draw`: the chit is `cup[i]` of the sorted cup (less the excluded chits),
/// `i` one die of `n` faces.
pub fn settle(s: &mut State, seat: &str, draw_id: &str, dice: Option<&mut Dice>) -> Vec<Event> {
    let Some(k) = s.chits.draws.iter().position(|d| d.id == draw_id) else { return vec![] };
    s.chits.draws[k].settled = true;
    if s.chits.draws[k].declined {
        return vec![Event::rule("TFWW 6.2", format!("{seat}'s draw {draw_id} was declined: no chit"))];
    }
    let alliance = s.chits.draws[k].alliance.clone();
    let Some(dice) = dice.filter(|_| !s.chits.unknown.contains(&alliance)) else {
        lose_track(s, &alliance);
        return vec![Event::rule("TFWW 6.2", format!("{seat}'s draw {draw_id} is settled: only {seat}'s side can tell the chit"))];
    };
    let cup = s.cups.get(&alliance).cloned().unwrap_or_default();
    let exclude = s.chits.draws[k].exclude.clone();
    let mut pool: Vec<usize> = cup.iter().copied().filter(|c| !exclude.contains(c)).collect();
    if pool.is_empty() {
        // A partner's earlier draw took the last chit the exclusions left: draw from all.
        pool = cup;
    }
    if pool.is_empty() {
        return vec![Event::rule("TFWW 6.2", format!("{seat}'s draw {draw_id}: the cup is empty"))];
    }
    pool.sort_unstable();
    let n = u32::try_from(pool.len()).unwrap_or(u32::MAX);
    let i = dice.roll(n) as usize;
    let chit = pool[i];
    if let Some(c) = s.cups.get_mut(&alliance) {
        c.retain(|&x| x != chit);
    }
    s.hands.entry(seat.to_string()).or_default().push(chit);
    s.chits.draws[k].chit = Some(chit);
    vec![Event::rule("TFWW 6.2", format!("{seat} draws {} ({draw_id}, cup position {} of {n})", s.chit_name(chit), i + 1))]
}

/// Take an opening of one of `seat`'s chit commitments.
fn open(s: &mut State, seat: &str, id: &str, value: &str, ev: &mut Vec<Event>) -> Result<(), Vec<Violation>> {
    if id.starts_with(DRAW_ID) {
        if !s.chits.draws.iter().any(|d| d.id == id && d.seat == seat) {
            return Err(v("TFWW 6.2", format!("{id} is not a draw of {seat}")));
        }
        unseal(s, seat, id);
        ev.push(Event::rule("TFWW 6.2", format!("{seat} opens its draw secret {id}")));
        return Ok(());
    }
    let Some(chit) = parse_value(s, value) else { return Err(v("TFWW 6.2", format!("{id}: {value:?} is not a chit of this scenario"))) };
    if let Some(k) = s.chits.table.iter().position(|p| p.id.as_deref() == Some(id) && p.seat == seat) {
        return open_placed(s, k, chit, ev);
    }
    if let Some(k) = s.chits.returns.iter().position(|r| r.1 == id && r.0 == seat) {
        let unusable = s.chits.returns[k].3;
        let alliance = alliance_of_seat(s, seat);
        if s.data.chits[chit].alliance != alliance {
            return Err(v("TFWW 6.2.1", format!("{id}: {} is not a chit of the {alliance} cup", s.chit_name(chit))));
        }
        if unusable && usable(s, seat, chit) {
            return Err(v("TFWW 6.2.1", format!("{id}: {seat} could use {} with some army: it was no unusable chit", s.chit_name(chit))));
        }
        unseal(s, seat, id);
        ev.push(Event::rule("TFWW 6.2.1", format!("{seat} shows that {id} returned {}", s.chit_name(chit))));
        return Ok(());
    }
    Err(v("TFWW 6.2", format!("{id} is no chit commitment of {seat} that may be opened now")))
}

/// The value `seat` would open under its chit commitment `id`, when this state knows it (the
/// seat's own view): a placed or returned chit as `chit:<name>`; a draw's secret is not kept
/// in the state, and its opening is checked by the engine, so any text stands for it here.
pub fn own_value(s: &State, seat: &str, id: &str) -> Option<String> {
    if id.starts_with(DRAW_ID) {
        return s.chits.draws.iter().any(|d| d.id == id && d.seat == seat).then(String::new);
    }
    let chit = s
        .chits
        .table
        .iter()
        .find(|p| p.id.as_deref() == Some(id) && p.seat == seat)
        .map(|p| p.chit)
        .or_else(|| s.chits.returns.iter().find(|r| r.1 == id && r.0 == seat).map(|r| r.2))??;
    Some(format!("chit:{}", s.chit_name(chit)))
}

fn unseal(s: &mut State, seat: &str, id: &str) {
    if let Some(l) = s.chits.sealed.get_mut(seat) {
        l.retain(|x| x != id);
    }
}

/// 6.1/5: a placed chit is turned face up: it must be a chit the seat could hold and that
/// this side may play.
fn open_placed(s: &mut State, k: usize, chit: usize, ev: &mut Vec<Event>) -> Result<(), Vec<Violation>> {
    let p = s.chits.table[k].clone();
    if p.open {
        return Err(v("TFWW 6.1/5", "that chit is already face up"));
    }
    let name = s.chit_name(chit).to_string();
    if s.data.chits[chit].alliance != p.alliance {
        return Err(v("TFWW 6.2", format!("{name} is not a chit of the {} cup: {} could not hold it", p.alliance, p.seat)));
    }
    if s.data.chits[chit].mandatory != p.mandatory_back {
        return Err(v("TFWW 6.2.2", format!("{name} was placed showing another back than its own")));
    }
    match p.chit {
        Some(known) if known != chit => return Err(v("TFWW 6.1/5", format!("the chit placed was not {name}"))),
        Some(_) => {}
        None => {
            // The replay does not know the hand: the chit must be one that may be in it.
            let pool = s.cups.entry(p.alliance.clone()).or_default();
            let Some(pos) = pool.iter().position(|&c| c == chit) else {
                return Err(v("TFWW 6.2", format!("{} could not hold {name}: it is not in play, on the table or out of the game", p.seat)));
            };
            pool.remove(pos);
        }
    }
    // F.8 (first bullet): a chit the seat could hold but that breaks a rule of its use once
    // face up (role, or the lead's nation) counts as 0, and the record says so. (The
    // author's tool and any replay that knows the chit refuse it already at its placement.)
    let mut void = None;
    if let Some(c) = s.combat.as_ref() {
        let f = if p.attacker { c.attacker } else { c.defender };
        let role_ok = match s.data.chits[chit].use_ {
            ChitUse::Either => true,
            ChitUse::Attack => p.attacker,
            ChitUse::Defence => !p.attacker,
        };
        let lead = if p.attacker { c.attacker_lead } else { c.defender_lead };
        if !role_ok {
            let role = if p.attacker { "attacking" } else { "defending" };
            void = Some(format!("{} placed {name}, which cannot be used {role} (TFWW 6.2)", f.code()));
        } else if let Some(a) = lead
            && !s.chit_suits(chit, a)
        {
            void = Some(format!("{name} needs a lead of {}, not {} (TFWW 6.2)", s.data.chits[chit].nations.join("/"), s.name(a)));
        }
    }
    if let Some(why) = &void
        && let Some(c) = s.combat.as_mut()
    {
        if p.attacker {
            c.void_chit.0 = true;
        } else {
            c.void_chit.1 = true;
        }
        ev.push(Event::rule("TFWW F.8", format!("violation by {}: {why}; the chit counts as 0", p.seat)));
    }
    s.chits.table[k].chit = Some(chit);
    s.chits.table[k].open = true;
    if let Some(c) = s.combat.as_mut() {
        if p.attacker {
            c.attacker_chit = Some(chit);
        } else {
            c.defender_chit = Some(chit);
        }
    }
    ev.push(Event::rule("TFWW 6.1/5", format!("{} turns its chit face up: {name}", p.seat)));
    Ok(())
}

/// Whether `seat` could use `chit` with some army (6.2.1).
fn usable(s: &State, seat: &str, chit: usize) -> bool {
    let nations = super::turn::usable_nations(s, seat);
    s.data.chits[chit].nations.iter().any(|n| nations.contains(n))
}

/// The chit an action names: the next face-down commitment of the entry, or (on an
/// author's own trial, before concealing) a plain chit name.
///
/// A committed value counts only while `seat`'s alliance is tracked exactly: once a replay
/// has lost track of its hands (a draw or value it cannot read), the chit stays in the
/// untracked pool until it is opened, as in a public replay. Otherwise a replay that knows
/// some values but not all (`verify --hidden` before the end) would count it twice.
fn take_chit(s: &mut State, seat: &str, name: &str, rule: &str) -> Result<(Option<String>, Option<usize>), Vec<Violation>> {
    if name == FACE_DOWN || name == FACE_DOWN_MANDATORY {
        if s.chits.incoming.is_empty() {
            return Err(v(rule, "a face-down chit needs its commitment in the same entry (`commit`)"));
        }
        let (id, value) = s.chits.incoming.remove(0);
        s.chits.serial += 1;
        let tracked = !s.chits.unknown.contains(&alliance_of_seat(s, seat));
        let chit = value.as_deref().and_then(|val| parse_value(s, val)).filter(|_| tracked);
        show_back(s, seat, name == FACE_DOWN_MANDATORY, value.as_deref().and_then(|val| parse_value(s, val)))?;
        return Ok((Some(id), chit));
    }
    match s.data.chit(name) {
        Some(i) => {
            show_back(s, seat, s.data.chits[i].mandatory, Some(i))?;
            Ok((None, Some(i)))
        }
        None => Err(v(rule, format!("no chit {name:?} in this scenario"))),
    }
}

/// 6.2.2 (H-4): a chit leaving `seat`'s hand face down shows its back. The back must be the
/// chit's (checked wherever the value is known: the seat's own tool, its partners, `verify`'s
/// omniscient pass); the public count of mandatory backs held goes down.
fn show_back(s: &mut State, seat: &str, mandatory: bool, chit: Option<usize>) -> Result<(), Vec<Violation>> {
    if let Some(c) = chit
        && s.data.chits[c].mandatory != mandatory
    {
        let (shown, real) = if mandatory { ("mandatory", "plain") } else { ("plain", "mandatory") };
        return Err(v("TFWW 6.2.2", format!("{seat} shows a {shown} back for {}, whose back is {real}", s.chit_name(c))));
    }
    // The public count is not a check of its own: the back a draw shows comes at the head of
    // the entry that may place the chit, and the value itself is checked above.
    if mandatory && let Some(n) = s.chits.mandatory_backs.get_mut(seat) {
        *n = n.saturating_sub(1);
    }
    Ok(())
}

/// 6.2.2 (H-4): the back of a settled draw, shown in the drawer's next orders (its tool
/// writes it): public from then on, checked against the chit wherever it is known.
fn show_draw_back(s: &mut State, seat: &str, draw: &str, mandatory: bool) -> R {
    let Some(k) = s.chits.draws.iter().position(|d| d.id == draw && d.seat == seat) else {
        return Err(v("TFWW 6.2.2", format!("{draw} is not a chit draw of {seat}")));
    };
    let d = s.chits.draws[k].clone();
    if !d.settled || d.declined || d.back.is_some() {
        return Err(v("TFWW 6.2.2", format!("{draw}: no back to show (not settled yet, declined, or shown already)")));
    }
    if let Some(c) = d.chit
        && s.data.chits[c].mandatory != mandatory
    {
        return Err(v("TFWW 6.2.2", format!("{seat} shows the wrong back for {draw} ({})", s.chit_name(c))));
    }
    s.chits.draws[k].back = Some(mandatory);
    if mandatory {
        *s.chits.mandatory_backs.entry(seat.to_string()).or_default() += 1;
    }
    let back = if mandatory { "a mandatory chit's back (red or blue)" } else { "a plain back" };
    Ok(vec![Event::rule("TFWW 6.2.2", format!("{seat}'s chit from {draw} shows {back}"))])
}

/// Draws of `seat` settled and kept whose back it has not shown yet.
fn backs_owed(s: &State, seat: &str) -> Vec<String> {
    s.chits.draws.iter().filter(|d| d.seat == seat && d.settled && !d.declined && d.back.is_none()).map(|d| d.id.clone()).collect()
}

/// Take a known chit out of `seat`'s known hand, or refuse: the seat does not hold it.
fn from_hand(s: &mut State, seat: &str, chit: Option<usize>, rule: &str) -> Result<(), Vec<Violation>> {
    if held(s, seat) == 0 {
        return Err(v(rule, format!("{seat} holds no chit")));
    }
    if let Some(c) = chit
        && knows_hand(s, seat)
    {
        let h = s.hands.entry(seat.to_string()).or_default();
        let Some(pos) = h.iter().position(|&x| x == c) else {
            return Err(v(rule, format!("{} is not in {seat}'s hand (per its draws and plays so far)", s.chit_name(c))));
        };
        h.remove(pos);
    }
    if let Some(n) = s.chits.hand_count.get_mut(seat) {
        *n -= 1;
    }
    Ok(())
}

/// 6.1/1 in a hidden game: place a chit face down (its commitment rides in the entry) or none.
pub fn place(s: &mut State, seat: &str, attacker: bool, chit: Option<&str>) -> R {
    let Some(c) = s.combat.clone() else { return Err(v("TFWW 6.1", "no combat in progress")) };
    let who = if attacker { c.attacker } else { c.defender };
    let alliance = who.alliance().to_string();
    // 6.2.2 (AMB-13): a mandatory chit that fits must be played, when the hand is known.
    let due: Vec<usize> = if knows_hand(s, seat) {
        s.hands
            .get(seat)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&h| s.data.chits[h].mandatory && super::combat::chit_fits(s, &c, attacker, h))
            .collect()
    } else {
        vec![]
    };
    let placed = match chit {
        None => {
            if let Some(&m) = due.first() {
                return Err(v("TFWW 6.2.2", format!("{} must be played in this combat (mandatory chit)", s.chit_name(m))));
            }
            None
        }
        Some(name) => {
            let (id, known) = take_chit(s, seat, name, "TFWW 6.1/1")?;
            if let Some(i) = known {
                if s.data.chits[i].alliance != alliance {
                    return Err(v("TFWW 6.2", format!("{} is not a chit of the {alliance} cup", s.chit_name(i))));
                }
                if !super::combat::chit_fits(s, &c, attacker, i) {
                    let role = if attacker { "attacking" } else { "defending" };
                    return Err(v("TFWW 6.2", format!("{} cannot be used {role} with these armies (use or nation)", s.chit_name(i))));
                }
                if !due.is_empty() && !due.contains(&i) {
                    return Err(v("TFWW 6.2.2", format!("{} must be played in this combat (mandatory chit)", s.chit_name(due[0]))));
                }
            }
            from_hand(s, seat, known, "TFWW 6.2")?;
            let mandatory_back = name == FACE_DOWN_MANDATORY || known.is_some_and(|i| s.data.chits[i].mandatory) && name != FACE_DOWN;
            Some(Placed { seat: seat.to_string(), attacker, alliance, id, chit: known, open: false, turned: false, mandatory_back })
        }
    };
    let any = placed.is_some();
    s.chits.table.extend(placed);
    let c = s.combat.as_mut().expect("checked above");
    if attacker {
        c.attacker_placed = true;
    } else {
        c.step = CombatStep::AttackerChitLead;
    }
    let what = if any { "places a chit face down" } else { "places no chit" };
    Ok(vec![Event::rule("TFWW 6.1/1", format!("{} {what}", who.code()))])
}

/// The chit `attacker`'s side placed in this combat, when this replay knows it.
pub fn known_placed(s: &State, attacker: bool) -> Option<usize> {
    s.chits.table.iter().find(|p| p.attacker == attacker).and_then(|p| p.chit)
}

/// 6.1/5: the chit `attacker`'s side placed must be face up by now (its opening rides in
/// this entry). On an author's own trial the chit is known and the tool opens it.
pub fn require_open(s: &mut State, attacker: bool) -> Result<(), Vec<Violation>> {
    let Some(k) = s.chits.table.iter().position(|p| p.attacker == attacker) else { return Ok(()) };
    let p = s.chits.table[k].clone();
    match p.chit {
        _ if p.open => {}
        // An author's own trial before concealing: the tool adds the opening.
        Some(chit) if knows_hand(s, &p.seat) => open_placed(s, k, chit, &mut Vec::new())?,
        _ => return Err(v("TFWW 6.1/5", format!("{} must turn its chit face up now: open {}", p.seat, p.id.unwrap_or_default()))),
    }
    s.chits.table[k].turned = true;
    Ok(())
}

/// Whether the combat may roll: every placed chit is face up.
pub fn ready(s: &State) -> bool {
    !s.chits.hidden || s.chits.table.iter().all(|p| p.turned)
}

/// The seat that must turn its chit face up before the roll, if any.
pub fn opener(s: &State) -> Option<String> {
    let c = s.combat.as_ref()?;
    if !s.chits.hidden || s.stage != Stage::Combat || c.step != CombatStep::Roll {
        return None;
    }
    s.chits.table.iter().find(|p| !p.turned).map(|p| p.seat.clone())
}

/// 6.2 at the roll of a hidden game: a side whose die shows S owes a private draw, made in
/// its seat's next entry with orders unless that entry declines it (`draw: false`).
pub fn owe_draw(s: &mut State, f: Faction, attacker: bool, ev: &mut Vec<Event>) {
    let seat = s.seat_of(f).to_string();
    let alliance = f.alliance().to_string();
    let exclude: Vec<usize> =
        s.chits.table.iter().filter(|p| p.attacker == attacker).filter_map(|p| p.chit).filter(|&c| !s.data.chits[c].mandatory).collect();
    ev.push(Event::rule(
        "TFWW 6.2",
        format!("{} rolled S: {seat} draws a chit face down with its next orders, unless they say `draw: false`", f.code()),
    ));
    s.chits.owed.push(Owed { seat, alliance, exclude });
}

/// The end of a combat in a hidden game: the table is cleared (the chits went back, 6.2).
pub fn clear_table(s: &mut State) {
    s.chits.table.clear();
}

/// Actions handled here in a hidden game (returns, discards, opening, the final reveal);
/// `None`: not a chit action, let the sequence of play take it.
pub fn step(s: &mut State, seat: &str, a: &Action) -> Option<R> {
    match a {
        Action::OpenChit => Some(open_chit(s, seat)),
        Action::RevealChits => Some(Err(v("TFWW 4.2/3", "chits are revealed only when the game is over"))),
        Action::ReturnChit(c) if s.chits.hidden => Some(give_back(s, seat, c, true)),
        Action::Discard(c) if s.chits.hidden => Some(give_back(s, seat, c, false)),
        Action::Draw(take) if s.chits.hidden => Some(keep_or_decline(s, seat, *take)),
        Action::Back { draw, mandatory } if s.chits.hidden => Some(show_draw_back(s, seat, draw, *mandatory)),
        Action::Back { .. } => Some(Err(v("TFWW 6.2.2", "chits are played in the open in this game: no back to show"))),
        _ => None,
    }
}

/// 6.2 (hidden chits): the draw won by an S is made at the head of the seat's next entry;
/// `draw: false` there declines it. The chit is picked only by the dice after this entry, so
/// the seat decides knowing its S and nothing of the chit. A declined draw stays in the log
/// as a commitment (opened at the end like any other) and gives no chit.
fn keep_or_decline(s: &mut State, seat: &str, take: bool) -> R {
    let made: Vec<String> =
        s.chits.new_draws.iter().filter(|id| s.chits.draws.iter().any(|d| &d.id == *id && d.seat == seat)).cloned().collect();
    if made.is_empty() {
        return Err(v("TFWW 6.2", format!("{seat} makes no chit draw in this entry: `draw` answers an S of its die, in its next orders")));
    }
    if take {
        return Ok(vec![Event::rule("TFWW 6.2", format!("{seat} keeps its draw ({})", made.join(", ")))]);
    }
    for d in s.chits.draws.iter_mut().filter(|d| made.contains(&d.id)) {
        d.declined = true;
    }
    if let Some(n) = s.chits.hand_count.get_mut(seat) {
        *n = n.saturating_sub(made.len());
    }
    if s.chits.must_discard.as_deref() == Some(seat) {
        s.chits.must_discard = None;
    }
    Ok(vec![Event::rule("TFWW 6.2", format!("{seat} declines to draw after its S ({} void)", made.join(", ")))])
}

fn open_chit(s: &mut State, seat: &str) -> R {
    if opener(s).as_deref() != Some(seat) {
        return Err(v("TFWW 6.1/5", format!("{seat} has no face-down chit to turn up now")));
    }
    require_open(s, true)?;
    Ok(vec![Event::rule("TFWW 6.1/5", format!("{seat} turns its chit face up: the dice decide"))])
}

/// 6.2.1: return a chit to the cup, face down: over the limit (a chit held before the draw
/// of this entry) or as unusable.
fn give_back(s: &mut State, seat: &str, chit: &str, unusable: bool) -> R {
    let rule = "TFWW 6.2.1";
    if !unusable {
        let owes = s.chits.must_discard.as_deref() == Some(seat)
            || (s.chits.owed.iter().any(|o| o.seat == seat) && held(s, seat) >= s.data.hand_limit);
        if !owes {
            return Err(v(rule, format!("{seat} is not over the hand limit: nothing to return")));
        }
    }
    let (id, known) = take_chit(s, seat, chit, rule)?;
    if let Some(i) = known
        && knows_hand(s, seat)
    {
        if unusable && usable(s, seat, i) {
            return Err(v(rule, format!("{seat} could use {} with some army: only an unusable chit may be returned", s.chit_name(i))));
        }
        if s.data.chits[i].alliance != alliance_of_seat(s, seat) {
            return Err(v(rule, format!("{} is not a chit of {seat}'s cup", s.chit_name(i))));
        }
    }
    from_hand(s, seat, known, rule)?;
    let alliance = alliance_of_seat(s, seat);
    if let Some(i) = known
        && knows_hand(s, seat)
    {
        let cup = s.cups.entry(alliance.clone()).or_default();
        cup.push(i);
        cup.sort_unstable();
        if !unusable && let Some(d) = s.chits.draws.iter_mut().rev().find(|d| d.seat == seat) {
            d.exclude.push(i);
        }
    }
    if !unusable {
        s.chits.must_discard = None;
    }
    if let Some(id) = &id {
        s.chits.returns.push((seat.to_string(), id.clone(), known, unusable));
        s.chits.sealed.entry(seat.to_string()).or_default().push(id.clone());
    }
    let why = if unusable { "an unusable chit (no new draw)" } else { "a chit held before its draw (hand limit)" };
    Ok(vec![Event::rule(rule, format!("{seat} returns {why} to the {alliance} cup, face down"))])
}

/// Checks at the end of an entry's actions.
pub fn finish(s: &State, seat: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    if s.chits.must_discard.as_deref() == Some(seat) {
        out.push(Violation::new(
            "TFWW 6.2.1",
            format!("{seat} draws at the hand limit of {}: return a chit held before (`discard: <chit>`)", s.data.hand_limit),
        ));
    }
    for d in backs_owed(s, seat) {
        out.push(Violation::new(
            "TFWW 6.2.2",
            format!("{seat} must show the back of the chit from {d} (`back: {{draw: {d}, mandatory: …}}`)"),
        ));
    }
    if let Some((id, _)) = s.chits.incoming.first() {
        out.push(Violation::new("TFWW 6.2", format!("commitment {id} belongs to no action of these orders")));
    }
    out
}

// ---- the end of the game ----

/// Called after every change: once the game is over, every seat owes `reveal_chits`.
pub fn on_outcome(s: &mut State) {
    if !s.chits.hidden || s.outcome.is_none() || s.chits.revealing {
        return;
    }
    s.chits.revealing = true;
    s.chits.owed.clear();
    s.chits.reveal_due = s.seats.values().cloned().collect();
}

/// The result waits for the reveal.
pub fn pending_reveal(s: &State) -> bool {
    s.chits.revealing && !s.chits.reveal_due.is_empty()
}

/// `Ruleset::expect` during the reveal.
pub fn expect_reveal(s: &State) -> Expectation {
    Expectation {
        when: "game over: every seat opens its chit draws and returns (reveal_chits)".into(),
        awaits: s
            .chits
            .reveal_due
            .iter()
            // One seat at a time (DESIGN §2.5): the seats open in turn.
            .take(1)
            .map(|seat| Await { seat: seat.clone(), what: format!("{seat}: open every chit draw and return (`reveal_chits`)") })
            .collect(),
    }
}

/// Orders during the reveal: exactly `reveal_chits`, with every sealed id opened.
pub fn reveal(s: &mut State, seat: &str, orders: &Orders) -> R {
    if !s.chits.reveal_due.contains(seat) {
        return Err(v("TFWW 4.2/3", format!("{seat} has already revealed its chits")));
    }
    if orders.actions != [Action::RevealChits] {
        return Err(v("TFWW 4.2/3", "the game is over: the only order left is `reveal_chits`"));
    }
    let left = s.chits.sealed.get(seat).cloned().unwrap_or_default();
    if !left.is_empty() && !knows_hand(s, seat) {
        return Err(v("TFWW 4.2/3", format!("{seat} must open {}", left.join(", "))));
    }
    s.chits.reveal_due.remove(seat);
    let mut ev = vec![Event::rule("TFWW 4.2/3", format!("{seat} has opened every chit draw and return"))];
    if s.chits.reveal_due.is_empty() {
        ev.push(Event::rule("TFWW 4.2/3", "every chit commitment is open: the result stands"));
    }
    Ok(ev)
}

// ---- the author's side ----

/// `Ruleset::conceal`: plain chit names become commitments; due openings are added.
pub fn conceal(s: &State, seat: &str, mut orders: Orders) -> Result<Concealed<Orders>, Vec<Violation>> {
    if !s.chits.hidden {
        return Ok(Concealed::plain(orders));
    }
    let mut commit = Vec::new();
    let mut open = Vec::new();
    let mut k = 0;
    // 6.2.2 (H-4): the backs of the seat's settled draws, shown at the head of its orders
    // (not in the end-of-game reveal, which opens the draws themselves).
    let owed = if pending_reveal(s) { vec![] } else { backs_owed(s, seat) };
    let backs: Vec<Action> = owed
        .into_iter()
        .filter(|id| !orders.actions.iter().any(|a| matches!(a, Action::Back { draw, .. } if draw == id)))
        .filter_map(|id| {
            let d = s.chits.draws.iter().find(|d| d.id == id)?;
            Some(Action::Back { draw: id, mandatory: s.data.chits[d.chit?].mandatory })
        })
        .collect();
    orders.actions.splice(0..0, backs);
    for a in &mut orders.actions {
        let slot = match a {
            Action::Chit(Some(c)) | Action::Discard(c) | Action::ReturnChit(c) if c != FACE_DOWN && c != FACE_DOWN_MANDATORY => Some(c),
            _ => None,
        };
        if let Some(c) = slot {
            commit.push((fresh_id(s, k), format!("chit:{c}")));
            k += 1;
            let mandatory = s.data.chit(c).is_some_and(|i| s.data.chits[i].mandatory);
            *c = if mandatory { FACE_DOWN_MANDATORY } else { FACE_DOWN }.to_string();
        }
        let opens_own = |attacker: bool| {
            s.chits
                .table
                .iter()
                .filter(|p| p.attacker == attacker && p.seat == seat && !p.open)
                .filter_map(|p| p.id.clone())
                .collect::<Vec<_>>()
        };
        match a {
            Action::Lead { .. } if s.combat.as_ref().is_some_and(|c| c.step == CombatStep::DefenderLead) => open.extend(opens_own(false)),
            Action::OpenChit => open.extend(opens_own(true)),
            Action::RevealChits => open.extend(s.chits.sealed.get(seat).cloned().unwrap_or_default()),
            _ => {}
        }
    }
    Ok(Concealed { orders, commit, open })
}

/// Orders of a hidden game may not name a chit in plain text.
pub fn plain_names(s: &State, orders: &Orders) -> Vec<Violation> {
    if !s.chits.hidden {
        return orders
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Chit(Some(c)) | Action::Discard(c) | Action::ReturnChit(c) if c == FACE_DOWN || c == FACE_DOWN_MANDATORY))
            .map(|_| Violation::new("TFWW 6.2", "chits are played in the open in this game: name the chit"))
            .collect();
    }
    orders
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::Chit(Some(c)) | Action::Discard(c) | Action::ReturnChit(c) if c != FACE_DOWN && c != FACE_DOWN_MANDATORY => {
                Some(Violation::new(
                    "TFWW 6.1/1",
                    format!("{c}: a chit travels face down (`{FACE_DOWN}` or `{FACE_DOWN_MANDATORY}`, and a commitment), never by name"),
                ))
            }
            _ => None,
        })
        .collect()
}

/// What `seat` may see: other alliances' hands and cups are hidden (partners share theirs),
/// and so are unopened chits on the table that are not its side's.
pub fn view(s: &State, seat: &str) -> State {
    let mut out = s.clone();
    if !s.chits.hidden {
        return out;
    }
    let own = alliance_of_seat(s, seat);
    let others: Vec<String> = s.cups.keys().filter(|a| **a != own).cloned().collect();
    for a in others {
        lose_track(&mut out, &a);
    }
    // 2-player seats hold a whole alliance; with partners sharing, the own alliance stays.
    out.chits.returns.retain(|r| r.0 == seat || alliance_of_seat(s, &r.0) == own);
    out
}

/// Lines for `describe`: hands (or their sizes) and cups.
pub fn describe(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (seat, h) in &s.hands {
        let n = held(s, seat);
        let text = if n == 0 {
            "empty".to_string()
        } else if knows_hand(s, seat) && h.len() == n {
            h.iter().map(|&c| s.chit_name(c)).collect::<Vec<_>>().join(", ")
        } else if knows_hand(s, seat) {
            let mut known: Vec<String> = h.iter().map(|&c| s.chit_name(c).to_string()).collect();
            known.push(format!("{} drawn, not yet settled", n - h.len()));
            known.join(", ")
        } else {
            // 6.2.2: the backs are public; the faces are not.
            match s.chits.mandatory_backs.get(seat).copied().unwrap_or(0) {
                0 => format!("{n} chits, face down"),
                m => format!("{n} chits, face down ({m} with a mandatory chit's back)"),
            }
        };
        out.push(format!("hand {seat}: {text}"));
    }
    for cup in s.cups.keys() {
        out.push(format!("cup {cup}: {} chits", cup_count(s, cup)));
    }
    for (seat, ids) in &s.chits.sealed {
        if !ids.is_empty() {
            out.push(format!("sealed chit commitments of {seat}: {}", ids.join(", ")));
        }
    }
    out
}

/// The ways to write `actions` that 6.2.1 allows now: as they are, or, when `seat` owes a
/// hidden draw with a full hand and returns nothing yet, with each held chit returned first.
pub fn with_limit_return(s: &State, seat: &str, actions: Vec<Action>) -> Vec<Vec<Action>> {
    let must = s.chits.hidden && s.chits.owed.iter().any(|w| w.seat == seat) && held(s, seat) >= s.data.hand_limit;
    if !must || actions.iter().any(|a| matches!(a, Action::Discard(_) | Action::Draw(false))) {
        return vec![actions];
    }
    // After a leading `draw: true`, which stays first (6.2).
    let at = usize::from(matches!(actions.first(), Some(Action::Draw(true))));
    let hand = s.hands.get(seat).cloned().unwrap_or_default();
    hand.iter()
        .map(|&c| {
            let mut t = actions.clone();
            t.insert(at, Action::Discard(s.chit_name(c).to_string()));
            t
        })
        .collect()
}

/// The bot's orders: `reveal_chits` while the end-of-game reveal is due, else `orders`.
pub fn bot_orders(s: &State, seat: &str, orders: Option<Orders>) -> Option<Orders> {
    if pending_reveal(s) {
        return s.chits.reveal_due.contains(seat).then(|| Orders { actions: vec![Action::RevealChits] });
    }
    // A return owed at the hand limit is already in `orders`: the bot's candidates are
    // checked through `with_limit_return`.
    orders
}
