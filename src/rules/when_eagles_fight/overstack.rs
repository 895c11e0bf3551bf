//! Overstacking (WEF 8.3): when a hex holds more than the stacking limits allow (8.1, 8.5),
//! the opponent removes the fewest units (not steps) that bring it back within them, of his
//! choice. No move, entry, retreat or advance built here may overstack (each checks the
//! limits first), so this is the rules' answer to an overstack that arises otherwise (a
//! hidden stack opened, 13.7). Reading: removed units are eliminated.

use super::stacking::{self, LIMIT_HALVES};
use super::state::{Kind, Place, Side, State, Unit};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// The overstacked hex and the side that removes from it, if any.
pub fn pending(s: &State) -> Option<(HexId, Side)> {
    let h = stacking::overstacked(s)?;
    Some((h, s.occupant(h)?.other()))
}

fn fits(units: &[&Unit]) -> bool {
    units.iter().map(|u| u.stack_halves()).sum::<u32>() <= LIMIT_HALVES && units.iter().filter(|u| u.kind == Kind::Heavy).count() <= 1
}

/// Subsets of the hex's units by bit mask (a hex never holds more than a handful).
fn masks(n: usize) -> impl Iterator<Item = u32> {
    0..(1u32 << n.min(16))
}

/// The fewest units whose removal brings `h` within the limits, and one such set.
pub fn minimum(s: &State, h: HexId) -> (usize, Vec<String>) {
    let here: Vec<&Unit> = s.units_at(h).collect();
    let mut best: Option<(usize, u32)> = None;
    for m in masks(here.len()) {
        let k = m.count_ones() as usize;
        if best.is_some_and(|(b, _)| k >= b) {
            continue;
        }
        let kept: Vec<&Unit> = here.iter().enumerate().filter(|(i, _)| m & (1 << i) == 0).map(|(_, u)| *u).collect();
        if fits(&kept) {
            best = Some((k, m));
        }
    }
    let (k, m) = best.unwrap_or((here.len(), u32::MAX));
    (k, here.iter().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, u)| u.id.clone()).collect())
}

/// The opponent removes `ids` from the overstacked hex (8.3).
pub fn remove(s: &mut State, side: Side, ids: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    let Some((h, who)) = pending(s) else { return Err(vec![Violation::new("WEF 8.3", "no hex is overstacked")]) };
    if who != side {
        return Err(vec![Violation::new("WEF 8.3", format!("the {} player removes from {h}", who.title()))]);
    }
    let mut errs = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if !s.unit(id).is_some_and(|u| u.at(h)) || ids[..i].contains(id) {
            errs.push(Violation::new("WEF 8.3", format!("remove units of {h}, each once")).unit(id.clone()));
        }
    }
    let (k, _) = minimum(s, h);
    let kept: Vec<&Unit> = s.units_at(h).filter(|u| !ids.contains(&u.id)).collect();
    if !fits(&kept) || ids.len() != k {
        errs.push(Violation::new("WEF 8.3", format!("remove the fewest units that bring {h} within the limits: {k}")).hex(h.to_string()));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut ev = Vec::new();
    for id in ids {
        if let Some(u) = s.unit_mut(id) {
            u.place = Place::Eliminated;
            u.sl = 0;
            ev.push(Event::rule("WEF 8.3", format!("{} is removed from the overstacked {h}", u.label())));
        }
    }
    Ok(ev)
}
