//! Replacements (WEF 10.8–10.13), German fortress conversions (10.14) and the order of the
//! steps of a New Units phase (10.1, 5.2).
//!
//! Each side's New Units phase brings its replacement SL by the turn track (E.10, data,
//! representative except T6); a pool carries at most 4 SL into the next turn (10.9). SL
//! restore a reduced 2-SL unit supplied from a friendly map edge (10.11) or bring an
//! eliminated unit back, reduced for 1 SL or full for 2, where a reinforcement of its nation
//! enters (10.12); `*` units take none (10.10). Spent SL belong to their unit: nothing gives
//! them back (10.13). Readings (docs): the Romanian draws on the Russian pool and the Turkish
//! corps on the German one; A-H units (one SL, 2.12) and divisions come back for 1 SL, and an
//! A-H unit with a printed back comes back on it for good.

use super::logistics::{Step, pool};
use super::orders::{Rebuild, Restore};
use super::state::{Nat, Place, Side, State};
use super::{control, reinforce, stacking, strategic};
use crate::engine::{Event, Violation};

/// A pool carries at most this many SL into the next turn (10.9).
pub const CARRY: u32 = 4;

/// The pools a side's nationalities draw on.
fn pools_of(side: Side) -> &'static [Nat] {
    match side {
        Side::Central => &[Nat::DE, Nat::AH],
        Side::Russian => &[Nat::RU],
    }
}

/// The SL a pool receives this turn by the turn track (10.8, E.10).
pub fn schedule(s: &State, nat: Nat) -> u32 {
    let band = s.charts.replacements.iter().find(|b| (b.turns[0]..=b.turns[1]).contains(&s.turn));
    match (band, nat) {
        (Some(b), Nat::DE) => b.DE,
        (Some(b), Nat::AH) => b.AH,
        (Some(b), Nat::RU) => b.RU,
        _ => 0,
    }
}

/// A side's New Units phase begins: its pools receive this turn's SL (10.8).
pub fn grant(s: &mut State, side: Side) -> Vec<Event> {
    let mut ev = Vec::new();
    for &nat in pools_of(side) {
        // 7.2 C, D, E, J, K: this turn's event may halve or cancel the receipts.
        // 16.2: Plan 19 adds to the Russian receipts of turns 2-6.
        let n = super::events::replacements(s, nat, schedule(s, nat) + super::variants::extra_replacements(s, nat));
        if n == 0 {
            continue;
        }
        let p = s.logistics.pools.entry(nat).or_insert(0);
        *p += n;
        ev.push(Event::rule("WEF 10.8", format!("{nat:?} replacements: {n} SL received, {p} on hand")));
    }
    ev
}

/// End of a side's New Units phase: each pool keeps at most [`CARRY`] SL (10.9).
pub fn carry_over(s: &mut State, side: Side) -> Vec<Event> {
    let mut ev = Vec::new();
    for &nat in pools_of(side) {
        // 7.2 K: after Verdun the German pool carries nothing over.
        let carry = if nat.german() && !super::events::german_accumulation_allowed(s) { 0 } else { CARRY };
        if let Some(p) = s.logistics.pools.get_mut(&nat)
            && *p > carry
        {
            ev.push(Event::rule(
                if carry == CARRY { "WEF 10.9" } else { "WEF 7.2" },
                format!("{nat:?} replacements: {} SL unspent beyond the {carry} carried over are lost", *p - carry),
            ));
            *p = carry;
        }
    }
    ev
}

/// Whether an action of `step` may still be taken in this New Units phase (10.1).
pub fn too_late(s: &State, step: Step) -> Option<Violation> {
    (s.logistics.step > step).then(|| {
        Violation::new(
            "WEF 10.1",
            format!("{} come before {} in the New Units phase (5.2); that step is over", step.title(), s.logistics.step.title()),
        )
    })
}

/// Move the New Units phase on to `step`: leaving the reinforcements, the CP converts its
/// fortress garrisons (10.14, between reinforcements and replacements).
pub fn reach(s: &mut State, step: Step) -> Vec<Event> {
    let mut ev = Vec::new();
    if s.logistics.step < step {
        if s.phase.side() == Side::Central && !s.logistics.converted {
            ev.extend(convert(s));
        }
        s.logistics.step = step;
    }
    ev
}

/// 10.14: the garrisons due this turn are replaced in place by their new units, if the
/// fortress still stands and is supplied from a friendly map edge (and, reading, the new
/// units fit the hex, 10.1); a conversion missed is lost for good.
pub fn convert(s: &mut State) -> Vec<Event> {
    s.logistics.converted = true;
    let due: Vec<_> = s.charts.conversions.iter().filter(|c| c.turn == s.turn).cloned().collect();
    let mut ev = Vec::new();
    let sources = strategic::edge_sources(s, Side::Central);
    for c in due {
        let Some(old) = s.unit(&c.fortress) else { continue };
        let name = old.name.clone();
        let into: Vec<String> = c.into.iter().filter(|id| s.unit(id).is_some_and(|u| u.hex().is_none())).cloned().collect();
        let missed = match old.hex() {
            None => Some("the fortress has fallen".to_string()),
            Some(h) if s.fallen_forts.contains(&h) => Some("the fortress has fallen".into()),
            Some(_) if !strategic::edge_supplied(s, old, &sources) => Some("it is not supplied from a friendly map edge".into()),
            Some(h) => {
                let arriving: Vec<&super::state::Unit> = into.iter().filter_map(|id| s.unit(id)).collect();
                stacking::room(s, h, &arriving).err().map(|v| v.message)
            }
        };
        if let Some(why) = missed {
            for id in &c.into {
                if let Some(u) = s.unit_mut(id).filter(|u| u.hex().is_none()) {
                    u.place = Place::Lost;
                }
            }
            ev.push(Event::rule("WEF 10.14", format!("the conversion of {name} is missed ({why}) and lost")));
            continue;
        }
        let h = old.hex().expect("checked");
        if let Some(u) = s.unit_mut(&c.fortress) {
            u.place = Place::Out;
        }
        for id in &into {
            if let Some(u) = s.unit_mut(id) {
                u.place = Place::Hex(h);
                u.sl = u.max_sl();
            }
        }
        ev.push(Event::rule("WEF 10.14", format!("the {name} garrison in {h} is converted into {}", into.join(" and "))));
    }
    ev
}

fn phase_check(s: &State, side: Side, rule: &'static str, unit: &str) -> Option<Violation> {
    if !(s.phase.new_units() && s.phase.side() == side) {
        return Some(
            Violation::new(rule, format!("replacements are spent in the side's New Units phase; now: {}", s.phase.title())).unit(unit),
        );
    }
    too_late(s, Step::Replacements).map(|v| v.unit(unit))
}

/// Check a restoration (10.10, 10.11).
pub fn check_restore(s: &State, side: Side, r: &Restore) -> Vec<Violation> {
    if let Some(v) = phase_check(s, side, "WEF 10.11", &r.unit) {
        return vec![v];
    }
    let v = |rule: &'static str, m: &str| vec![Violation::new(rule, m.to_string()).unit(r.unit.clone())];
    let Some(u) = s.unit(&r.unit) else { return v("WEF 10.11", "no such unit") };
    if u.side() != side {
        return v("WEF 10.11", "not your unit");
    }
    if u.hex().is_none() {
        return v("WEF 10.11", "only a unit on the map is restored (an eliminated one is rebuilt, 10.12)");
    }
    if u.star {
        return v("WEF 10.10", "a unit marked * never takes replacements");
    }
    if !(u.max_sl() == 2 && u.sl == 1) {
        return v("WEF 10.11", "only a reduced 2-SL unit is restored");
    }
    if !strategic::edge_supplied(s, u, &strategic::edge_sources(s, side)) {
        return v("WEF 10.11", "the unit is not supplied from a friendly map-edge supply source");
    }
    let nat = pool(u.nat);
    if s.logistics.pools.get(&nat).copied().unwrap_or(0) < 1 {
        return v("WEF 10.8", &format!("no {nat:?} replacement SL on hand (the two CP nations never lend them)"));
    }
    vec![]
}

/// Carry out a checked restoration.
pub fn restore(s: &mut State, r: &Restore) -> Vec<Event> {
    let mut ev = reach(s, Step::Replacements);
    let Some(u) = s.unit_mut(&r.unit) else { return ev };
    u.sl = 2;
    let nat = pool(u.nat);
    let label = u.label();
    let p = s.logistics.pools.entry(nat).or_insert(1);
    *p = p.saturating_sub(1);
    ev.push(Event::rule("WEF 10.11", format!("{label} is restored to full strength (1 {nat:?} SL, {p} left)")));
    ev
}

/// Check a rebuild (10.10, 10.12, 2.12).
pub fn check_rebuild(s: &State, side: Side, r: &Rebuild) -> Vec<Violation> {
    if let Some(v) = phase_check(s, side, "WEF 10.12", &r.unit) {
        return vec![v];
    }
    let v = |rule: &'static str, m: &str| vec![Violation::new(rule, m.to_string()).unit(r.unit.clone())];
    let Some(u) = s.unit(&r.unit) else { return v("WEF 10.12", "no such unit") };
    if u.side() != side {
        return v("WEF 10.12", "not your unit");
    }
    if u.place != Place::Eliminated {
        return v("WEF 10.12", "only an eliminated unit is rebuilt");
    }
    if u.star {
        return v("WEF 10.10", "a unit marked * is never rebuilt");
    }
    if r.sl == 0 || r.sl > u.max_sl() {
        return v("WEF 10.12", &format!("the unit comes back with 1 to {} SL, one replacement SL each", u.max_sl()));
    }
    let nat = pool(u.nat);
    let have = s.logistics.pools.get(&nat).copied().unwrap_or(0);
    if have < u32::from(r.sl) {
        return v("WEF 10.8", &format!("{} {nat:?} replacement SL needed, {have} on hand (the two CP nations never lend them)", r.sl));
    }
    let mut probe = u.clone();
    probe.sl = r.sl;
    if let Err(m) = reinforce::entry_hex(s, &probe, r.hex) {
        return vec![
            Violation::new("WEF 10.12", format!("a rebuilt unit enters as a reinforcement (10.2): {m}"))
                .unit(r.unit.clone())
                .hex(r.hex.to_string()),
        ];
    }
    if let Err(e) = stacking::room(s, r.hex, &[&probe]) {
        return vec![e.unit(r.unit.clone())];
    }
    if super::combat::combined_germans(s, std::slice::from_ref(&r.unit), Some(r.hex))
        > super::combat::combined_limit(s).max(super::combat::combined_germans(s, &[], None))
    {
        return vec![
            Violation::new("WEF 6.4", format!("too many German units in combined stacks with A-H units in turn {}", s.turn))
                .unit(r.unit.clone())
                .hex(r.hex.to_string()),
        ];
    }
    vec![]
}

/// Carry out a checked rebuild.
pub fn rebuild(s: &mut State, side: Side, r: &Rebuild) -> Vec<Event> {
    let mut ev = reach(s, Step::Replacements);
    let cavalry = control::all_cavalry(s, std::slice::from_ref(&r.unit));
    let Some(u) = s.unit_mut(&r.unit) else { return ev };
    u.place = Place::Hex(r.hex);
    u.sl = r.sl;
    // 2.12: an A-H unit returns on its back, for good.
    let back = if u.nat == Nat::AH
        && let Some(b) = u.rebuilt.take()
    {
        u.full = b;
        format!(" on its reverse side ({}-{}-{})", b[0], b[1], b[2])
    } else {
        String::new()
    };
    let nat = pool(u.nat);
    let label = u.label();
    let p = s.logistics.pools.entry(nat).or_insert(0);
    *p = p.saturating_sub(u32::from(r.sl));
    ev.push(Event::rule(
        "WEF 10.12",
        format!("{label} is rebuilt with {} SL{back} and enters at {} ({} {nat:?} SL spent, {p} left)", r.sl, r.hex, r.sl),
    ));
    s.logistics.entered.insert(r.unit.clone());
    ev.extend(control::enter(s, r.hex, side, cavalry));
    ev
}

/// Every rebuild hex open to an eliminated unit now (for the bot and the template).
pub fn rebuild_hexes(s: &State, id: &str, sl: u8) -> Vec<crate::geo::hex::HexId> {
    let Some(side) = s.unit(id).map(|u| u.side()) else { return vec![] };
    s.board.hexes().map(|(h, _)| h).filter(|&h| check_rebuild(s, side, &Rebuild { unit: id.into(), hex: h, sl }).is_empty()).collect()
}
