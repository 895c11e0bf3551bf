//! The Second Player's hidden cup (RTL-7.14; digest G.3) as DESIGN §2.6 commitments.
//!
//! - **Filling**: the Second Player's entry commits one value per AM he cups, ids
//!   `cup-<turn>-<kk>` (`kk` = 01, 02 …), value `rtl-am:<turn>:<AM>`. The values are
//!   numbered in `IdOrder` order, so neither the ids nor their order tell which AM sits in
//!   which slot nor in which order he wrote them; only the count is public (it is in the
//!   rules' view). Left-out AMs are never named.
//! - **Drawing**: a draw picks a slot by position (a leading roll); the drawer alone knows
//!   its AM. He opens the slot in the entry that plays it in a Mobile or Assault sequence
//!   (`Ruleset::conceal` adds the opening). A Pass keeps it closed in the pool until played.
//! - **Audit**: an opening must be an AM of his, available this turn and not already
//!   played or opened this turn; anything else is refused (and `verify`'s omniscient pass
//!   refuses a bad value at the commitment itself).

use std::collections::BTreeSet;

use super::orders::{Orders, Play};
use super::state::{Marker, Os, Phase, State};
use super::turn::{available, cup_limit};
use crate::engine::hidden::{Concealed, HiddenActs, IdOrder};
use crate::engine::{Event, Violation};

/// The rule of the hidden cup.
pub const RULE: &str = "RTL-7.14";

/// The commitment id of slot `k` (1-based) this turn.
pub fn slot_id(s: &State, k: usize) -> String {
    format!("cup-{}-{k:02}", s.turn_name())
}

/// The committed value of an AM.
pub fn value(s: &State, am: &str) -> String {
    format!("rtl-am:{}:{am}", s.turn_name())
}

/// `Ruleset::committed_value_bound`: a frame, the turn name and an AM id (each short).
pub fn value_bound(_id: &str) -> usize {
    96
}

/// The AM of a value, for this turn.
fn parse(s: &State, v: &str) -> Option<String> {
    v.strip_prefix(&format!("rtl-am:{}:", s.turn_name())).map(str::to_string)
}

/// Check a cup choice as its author writes it (7.14): AMs of his, available, distinct, at
/// most N + 1.
pub fn check_choice(s: &State, side: &str, choice: &[String]) -> Result<(), Vec<Violation>> {
    let mut errs = Vec::new();
    let avail = available(s, side);
    let mut seen = BTreeSet::new();
    for am in choice {
        if !avail.contains(am) {
            errs.push(Violation::new(RULE, format!("{am} is not one of your AMs available this turn ({})", avail.join(", "))));
        }
        if !seen.insert(am) {
            errs.push(Violation::new(RULE, format!("{am} is named twice")));
        }
    }
    let limit = cup_limit(s, side);
    if choice.len() > limit {
        errs.push(Violation::new(RULE, format!("{} AMs: the Second Player cups at most {limit} (N + 1)", choice.len())));
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// The marker an OS entry plays, as its orders pick it (7.31).
fn played_marker<'a>(s: &'a State, side: &str, o: &Orders) -> Option<&'a Marker> {
    if s.choose_first {
        return None;
    }
    match (&s.drawn, o.play.unwrap_or(Play::Drawn)) {
        (Some(d), Play::Combine) if o.face_up == Some(Play::Drawn) => Some(d),
        (Some(_), Play::Combine) if o.face_up == Some(Play::Pooled) => s.pool.get(side),
        (Some(_), Play::Combine) => None,
        (Some(d), Play::Drawn) => Some(d),
        (Some(_), Play::Pooled) | (None, _) => s.pool.get(side),
    }
}

/// `Ruleset::conceal`: a cup choice becomes commitments; a hidden marker played in a Mobile
/// or Assault sequence is opened.
pub fn conceal(s: &State, seat: &str, mut orders: Orders, order: &IdOrder) -> Result<Concealed<Orders>, Vec<Violation>> {
    let Some(side) = s.side_of(seat).map(str::to_string) else { return Ok(Concealed::plain(orders)) };
    let mut commit = Vec::new();
    let mut open = Vec::new();
    match &s.phase {
        Phase::Cup { side: due } if *due == side && orders.cup.is_none() => {
            check_choice(s, &side, &orders.cup_choice)?;
            let mut values: Vec<String> = orders.cup_choice.iter().map(|am| value(s, am)).collect();
            order.sort(&mut values, |v| v.clone());
            for (k, v) in values.into_iter().enumerate() {
                commit.push((slot_id(s, k + 1), v));
            }
            orders.cup = Some(commit.len() as u8);
            orders.cup_choice.clear();
        }
        // RTL-7.33d: after a successful combination both AMs are revealed.
        Phase::Os { side: due } if *due == side && s.combine.as_ref().is_some_and(|c| c.open_due) => {
            if let Some(m) = s.pool.get(&side)
                && !m.open
                && let Some(id) = &m.slot
            {
                open.push(id.clone());
            }
        }
        Phase::Os { side: due } if *due == side && matches!(orders.os, Some(Os::Mobile | Os::Assault)) => {
            if let Some(m) = played_marker(s, &side, &orders)
                && !m.open
                && let Some(id) = &m.slot
            {
                open.push(id.clone());
            }
        }
        _ => {}
    }
    Ok(Concealed { orders, commit, open })
}

/// `Ruleset::hidden`: record the cup's slots (only in the Second Player's cup entry, ids
/// numbered from 01 without a gap) and open played slots (only those drawn or pooled).
pub fn hidden(s: &mut State, seat: &str, acts: &HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
    let side = s.side_of(seat).map(str::to_string).unwrap_or_default();
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    if !acts.committed.is_empty() {
        if !matches!(&s.phase, Phase::Cup { side: d } if *d == side) {
            errs.push(Violation::new(RULE, "AMs are committed only when you fill your cup as Second Player"));
        } else {
            let want: Vec<String> = (1..=acts.committed.len()).map(|k| slot_id(s, k)).collect();
            let got: Vec<String> = acts.committed.iter().map(|c| c.id.clone()).collect();
            if want != got {
                errs.push(Violation::new(RULE, format!("the cup's slots are {}", want.join(", "))));
            }
            let mut seen = BTreeSet::new();
            let avail = available(s, &side);
            for c in &acts.committed {
                if let Some(v) = &c.value {
                    match parse(s, v) {
                        Some(am) if avail.contains(&am) && seen.insert(am.clone()) => {}
                        _ => errs.push(Violation::new(RULE, format!("{}: {v:?} is not a distinct AM of yours for this turn", c.id))),
                    }
                }
            }
            if errs.is_empty() {
                let slots = acts
                    .committed
                    .iter()
                    .map(|c| Marker { slot: Some(c.id.clone()), am: c.value.as_deref().and_then(|v| parse(s, v)), open: false })
                    .collect();
                s.cups.insert(side.clone(), slots);
            }
        }
    }
    let over = s.phase == Phase::Over;
    for o in &acts.opened {
        let am = parse(s, &o.value);
        let played: BTreeSet<String> = s.played.iter().cloned().collect();
        let opened_elsewhere = s
            .cups
            .values()
            .flatten()
            .chain(s.pool.values())
            .chain(s.drawn.iter())
            .any(|m| m.open && m.slot.as_deref() != Some(o.id.as_str()) && m.am.is_some() && m.am == am);
        let exists = s.drawn.iter().chain(s.pool.get(&side)).any(|m| m.slot.as_deref() == Some(o.id.as_str()) && !m.open);
        if !exists {
            if !over {
                errs.push(Violation::new(RULE, format!("{} is not a face-down AM of yours being played", o.id)));
            }
            continue;
        }
        match am {
            Some(am) if super::turn::markers(s, &side, false).contains(&am) && !played.contains(&am) && !opened_elsewhere => {
                let target = s.drawn.iter_mut().chain(s.pool.get_mut(&side)).find(|m| m.slot.as_deref() == Some(o.id.as_str()));
                if let Some(m) = target {
                    m.am = Some(am.clone());
                    m.open = true;
                }
                ev.push(Event::rule(RULE, format!("{} opens: {am}", o.id)));
            }
            _ => errs.push(Violation::new(RULE, format!("{} opens as {:?}: not a distinct AM of yours for this turn", o.id, o.value))),
        }
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}
