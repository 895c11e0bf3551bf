//! Withdrawals (WEF 10.15–10.19): units set aside from the map for other fronts, by the turn
//! track (data: the CP's Balkan withdrawal of T12, 10.17; the Russian Guards corps of T13,
//! 10.16).
//!
//! A withdrawn unit must be supplied from a friendly map-edge source; it does not move and
//! uses no SM (10.15). The Balkan withdrawal takes whole infantry units (a reduced 2-SL unit
//! counts its one SL), German and A-H SL counted apart, and they come back as reinforcements on
//! T14. The Guards corps goes by itself at the end of the Russian New Units phase if it is on
//! the map at full strength and supplied from the edge; otherwise the Guards Army due on T14
//! never comes (10.16, no other effect, 10.19). A CP player who cannot make up the Balkan SL
//! loses at once (10.19); one who could but ends the phase short is refused.
//!
//! Readings (docs): a withdrawal may stop once its SL are made up, the last unit allowed to
//! overshoot when no exact sum is at hand; active corps are infantry; the Turkish corps counts
//! as German (2.5); units come back at the strength they left with (their SL were counted).

use super::logistics::{Step, pool};
use super::orders::Withdraw;
use super::scenario::WithdrawalData;
use super::state::{Kind, Nat, Place, Side, State, Unit};
use super::{replacements, strategic};
use crate::engine::{Event, Outcome, Violation};

/// The SL withdrawals due this turn for a side's pools, with the SL still to withdraw.
fn due_sl(s: &State, side: Side) -> Vec<(WithdrawalData, u32)> {
    s.charts
        .withdrawals
        .iter()
        .filter(|w| w.turn == s.turn && w.unit.is_none() && w.sl > 0 && w.nat.side() == side)
        .map(|w| (w.clone(), w.sl.saturating_sub(s.logistics.withdrawn.get(&pool(w.nat)).copied().unwrap_or(0))))
        .collect()
}

/// Whether `u` may be withdrawn for an infantry SL withdrawal (10.15, 10.17).
fn eligible(s: &State, u: &Unit, sources: &std::collections::BTreeSet<crate::geo::hex::HexId>) -> Result<(), (&'static str, String)> {
    if u.hex().is_none() {
        return Err(("WEF 10.15", "the unit is not on the map".into()));
    }
    if !matches!(u.kind, Kind::Infantry | Kind::Active) {
        return Err(("WEF 10.17", "the withdrawal takes infantry units".into()));
    }
    if !strategic::edge_supplied(s, u, sources) {
        return Err(("WEF 10.15", "a withdrawn unit must be supplied from a friendly map-edge supply source".into()));
    }
    Ok(())
}

/// Units of `side` that could serve the SL withdrawal of pool `nat` now.
pub fn candidates(s: &State, side: Side, nat: Nat) -> Vec<&Unit> {
    let sources = strategic::edge_sources(s, side);
    s.units.iter().filter(|u| u.side() == side && pool(u.nat) == nat && eligible(s, u, &sources).is_ok()).collect()
}

/// The pools with SL still to withdraw this turn (for the bot and `expect`).
pub fn outstanding(s: &State, side: Side) -> Vec<(Nat, u32)> {
    due_sl(s, side).into_iter().filter(|(_, left)| *left > 0).map(|(w, left)| (pool(w.nat), left)).collect()
}

/// Check a withdrawal.
pub fn check(s: &State, side: Side, w: &Withdraw) -> Vec<Violation> {
    if !(s.phase.new_units() && s.phase.side() == side) {
        return vec![
            Violation::new("WEF 10.15", format!("withdrawals are made in the side's New Units phase; now: {}", s.phase.title()))
                .unit(w.unit.clone()),
        ];
    }
    let Some(u) = s.unit(&w.unit) else { return vec![Violation::new("WEF 10.15", "no such unit").unit(w.unit.clone())] };
    if u.side() != side {
        return vec![Violation::new("WEF 10.15", "not your unit").unit(w.unit.clone())];
    }
    let nat = pool(u.nat);
    if !outstanding(s, side).iter().any(|(n, _)| *n == nat) {
        return vec![
            Violation::new("WEF 10.15", format!("no withdrawal of {nat:?} units is due (or left) this turn")).unit(w.unit.clone()),
        ];
    }
    if let Err((rule, m)) = eligible(s, u, &strategic::edge_sources(s, side)) {
        return vec![Violation::new(rule, m).unit(w.unit.clone())];
    }
    vec![]
}

/// Carry out a checked withdrawal.
pub fn apply(s: &mut State, w: &Withdraw) -> Vec<Event> {
    let mut ev = replacements::reach(s, Step::Withdrawals);
    let Some(u) = s.unit(&w.unit) else { return ev };
    let (nat, sl, label, side) = (pool(u.nat), u.sl, u.label(), u.side());
    let returns = due_sl(s, side).into_iter().find(|(d, _)| pool(d.nat) == nat).and_then(|(d, _)| d.returns);
    if let Some(u) = s.unit_mut(&w.unit) {
        u.place = returns.map(Place::Track).unwrap_or(Place::Withdrawn);
    }
    *s.logistics.withdrawn.entry(nat).or_insert(0) += u32::from(sl);
    // Event D spares the Germans once 12 of their SL are away "for any reason" (7.2).
    if nat.german() {
        s.events.away.insert(w.unit.clone(), sl);
    }
    let back = returns.map(|t| format!(", to return on turn {t}")).unwrap_or_default();
    ev.push(Event::rule("WEF 10.15", format!("{label} is withdrawn ({sl} {nat:?} SL){back}")));
    ev
}

/// The phase may not end while an SL withdrawal is short and units to make it up are at hand.
pub fn unmet(s: &State, side: Side) -> Option<Violation> {
    for (nat, left) in outstanding(s, side) {
        let at_hand: u32 = candidates(s, side, nat).iter().map(|u| u32::from(u.sl)).sum();
        if at_hand >= left {
            return Some(Violation::new(
                "WEF 10.17",
                format!("{left} {nat:?} infantry SL are still to be withdrawn this turn, and units to do it are at hand"),
            ));
        }
    }
    None
}

/// End of a side's New Units phase: the named-unit withdrawals are made or cancelled (10.16),
/// and an SL withdrawal that cannot be made up loses the game (10.19).
pub fn finish(s: &mut State, side: Side) -> Vec<Event> {
    let mut ev = Vec::new();
    let named: Vec<WithdrawalData> =
        s.charts.withdrawals.iter().filter(|w| w.turn == s.turn && w.unit.is_some() && w.nat.side() == side).cloned().collect();
    let sources = strategic::edge_sources(s, side);
    for w in named {
        let id = w.unit.clone().unwrap_or_default();
        let ready = s.unit(&id).is_some_and(|u| u.hex().is_some() && u.full_strength() && strategic::edge_supplied(s, u, &sources));
        if ready {
            let label = s.unit(&id).map(Unit::label).unwrap_or_default();
            if let Some(u) = s.unit_mut(&id) {
                u.place = w.returns.map(Place::Track).unwrap_or(Place::Withdrawn);
            }
            ev.push(Event::rule("WEF 10.16", format!("{label} is withdrawn")));
        } else {
            for c in &w.cancels {
                if let Some(u) = s.unit_mut(c).filter(|u| matches!(u.place, Place::Track(_) | Place::Waiting)) {
                    u.place = Place::Lost;
                }
            }
            ev.push(Event::rule(
                "WEF 10.16",
                format!(
                    "{id} is not at hand at full strength and supplied from the map edge: its withdrawal is cancelled and {} never arrive",
                    w.cancels.join(", ")
                ),
            ));
        }
    }
    if s.outcome.is_none()
        && let Some((nat, left)) = outstanding(s, side).into_iter().next()
    {
        let reason = format!("the {} player could not withdraw {left} more {nat:?} infantry SL (WEF 10.19)", side.title());
        ev.push(Event::rule("WEF 10.19", reason.clone()));
        s.outcome = Some(Outcome::Win { side: side.other().id().into(), reason });
    }
    ev
}
