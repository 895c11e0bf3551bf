//! Victory points of the Battle of the Marne (GE-16.4) and the German automatic win; the
//! campaigns' VP (GE-4) are in `campaign.rs` and are reached through [`totals`] and
//! [`final_outcome`].
//!
//! The elimination ledger follows the scenario's schedule (Marne: German corps eliminated +2
//! Allied; French corps +2 and French divisions +1 German; +1 German per British SL lost). At the end of T12: Allied points for
//! the listed towns held, German +1 per supplied German unit south of row 31.

use super::campaign;
use super::state::{Kind, Per, Place, SideId, Size, State};
use super::supply;
use crate::engine::{Event, Outcome};

/// VP gained when a unit of `nation`, `size`, `kind` is eliminated (per-SL awards excluded).
fn elimination_vp(state: &State, nation: &str, size: Size, kind: Kind) -> Vec<(SideId, i32)> {
    if matches!(kind, Kind::Fortress | Kind::SiegeGun) {
        return vec![];
    }
    scoring_elimination_vp(state, nation, size).collect()
}

/// [`elimination_vp`] for a unit of a kind that scores when eliminated (not a fort or a siege
/// gun), without a `Vec`: the ledger check after every entry asks for each nation and size.
fn scoring_elimination_vp<'a>(state: &'a State, nation: &'a str, size: Size) -> impl Iterator<Item = (SideId, i32)> + 'a {
    state
        .elim_vp
        .iter()
        .filter(move |e| e.victims.iter().any(|v| v == nation))
        .filter(move |e| matches!((e.per, size), (Per::Corps, Size::Corps) | (Per::Division, Size::Division)))
        .map(|e| (e.scorer, e.value))
}

/// VP per SL lost by a unit of `nation` (e.g. British SL, GE-16.4).
fn sl_vp(state: &State, nation: &str) -> Vec<(SideId, i32)> {
    sl_vp_iter(state, nation).collect()
}

/// [`sl_vp`] without a `Vec`.
fn sl_vp_iter<'a>(state: &'a State, nation: &'a str) -> impl Iterator<Item = (SideId, i32)> + 'a {
    state.elim_vp.iter().filter(move |e| e.per == Per::Sl && e.victims.iter().any(|v| v == nation)).map(|e| (e.scorer, e.value))
}

fn add(state: &mut State, side: SideId, pts: i32) {
    *state.vp.entry(side).or_insert(0) += pts;
}

/// A unit loses `n` SL (eliminated at 0).
pub fn lose(state: &mut State, id: &str, n: u32) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(u) = state.unit(id) else { return ev };
    let n = n.min(u.sl as u32);
    if n == 0 {
        return ev;
    }
    if n >= u.sl as u32 {
        return eliminate(state, id);
    }
    let nation = u.nation.clone();
    if let Some(u) = state.unit_mut(id) {
        u.sl -= n as u8;
        ev.push(Event::rule("GE 13.20", format!("{} loses {n} SL ({}/{} SL left)", u.label(), u.sl, u.max_sl)));
    }
    for (side, pts) in sl_vp(state, &nation) {
        add(state, side, pts * n as i32);
        ev.push(Event::rule("GE 16.4", format!("{} +{} VP for {nation} SL lost", side.title(), pts * n as i32)));
    }
    ev
}

/// Eliminate a unit.
pub fn eliminate(state: &mut State, id: &str) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(u) = state.unit_mut(id) else { return ev };
    if matches!(u.place, Place::Eliminated) {
        return ev;
    }
    let sl = u.sl as i32;
    u.sl = 0;
    u.place = Place::Eliminated;
    let (nation, size, kind, label) = (u.nation.clone(), u.size, u.kind, u.label());
    ev.push(Event::rule("GE 13.20", format!("{label} is eliminated")));
    if sl > 0 && !matches!(kind, Kind::Fortress | Kind::SiegeGun) {
        for (side, pts) in sl_vp(state, &nation) {
            add(state, side, pts * sl);
            ev.push(Event::rule("GE 16.4", format!("{} +{} VP for {nation} SL lost", side.title(), pts * sl)));
        }
    }
    for (side, pts) in elimination_vp(state, &nation, size, kind) {
        add(state, side, pts);
        ev.push(Event::rule("GE 16.4", format!("{} +{pts} VP for {label}", side.title())));
    }
    ev
}

/// The ledger recomputed from the units (for the invariant check).
pub fn recompute_ledger(state: &State) -> (i32, i32) {
    // The losses summed per nation and size first, then each total scored once: points are
    // linear in SL lost and in eliminations, and this runs after every entry of a replay
    // (issue 20), when a long game has hundreds of units that lost something. A unit that
    // lost nothing adds nothing.
    let mut totals: Vec<(&str, Size, i32, i32)> = Vec::new();
    for (u, lost_sl, eliminations) in ledger_units(state) {
        if lost_sl == 0 && eliminations == 0 {
            continue;
        }
        match totals.iter_mut().find(|(n, z, _, _)| *z == u.size && *n == u.nation) {
            Some(t) => {
                t.2 += lost_sl;
                t.3 += eliminations;
            }
            None => totals.push((&u.nation, u.size, lost_sl, eliminations)),
        }
    }
    let (mut de, mut al) = (0, 0);
    let mut add = |side: SideId, pts: i32| if side == SideId::German { de += pts } else { al += pts };
    for (nation, size, lost_sl, eliminations) in totals {
        for (side, pts) in sl_vp_iter(state, nation) {
            add(side, pts * lost_sl);
        }
        // `ledger_units` leaves out forts and siege guns, the kinds that score nothing.
        for (side, pts) in scoring_elimination_vp(state, nation, size) {
            add(side, pts * eliminations);
        }
    }
    (de, al)
}

/// The units the elimination ledger counts, each with the SL it has lost and how often it
/// was eliminated. Hidden units count as their batch records them (GE 13.8; placeholders
/// count nothing); forts and siege guns never count here. Replacement SL (GE-8.7) were lost
/// again if they are gone now; rebuilt corps (GE-8.7) keep their earlier eliminations.
fn ledger_units(state: &State) -> impl Iterator<Item = (&super::state::Unit, i32, i32)> + '_ {
    state
        .units
        .iter()
        .filter(|u| !super::counters::is_hidden(u))
        .chain(super::counters::unopened(state))
        .filter(|u| !matches!(u.kind, Kind::Fortress | Kind::SiegeGun))
        .map(|u| {
            let lost_sl = match u.place {
                Place::Eliminated | Place::OffMap | Place::Hex(_) => (u.start_sl + u.gained) as i32 - u.sl as i32,
                Place::Reinforcement(_) | Place::Unplaced => 0,
            };
            (u, lost_sl, u.rebuilt as i32 + (u.place == Place::Eliminated) as i32)
        })
}

/// End-of-scenario points: Allied towns held; supplied German units south of the row (the
/// Marne; a campaign scores its VP hexes as it goes, see `campaign.rs`).
pub fn end_points(state: &State) -> (i32, i32, Vec<String>) {
    let mut notes = Vec::new();
    if state.campaign.is_some() {
        return (0, 0, notes);
    }
    let (mut de, mut al) = (0, 0);
    for (h, side, pts) in &state.town_vp {
        if state.control(*h) == Some(*side) {
            if *side == SideId::Allied {
                al += pts
            } else {
                de += pts
            }
            notes.push(format!("{} holds {h}: +{pts}", side.title()));
        }
    }
    let sup = supply::Supply::of(state, SideId::German);
    for u in &state.units {
        if u.side == SideId::German
            && let Some(h) = u.hex()
            && h.row > state.south_row
            && sup.at(h)
        {
            de += 1;
            notes.push(format!("German supplied {} at {h}: +1", u.id));
        }
    }
    (de, al, notes)
}

/// Totals now, counting end-of-scenario points as if the game ended now.
pub fn totals(state: &State) -> (i32, i32) {
    if state.campaign.is_some() {
        return (campaign::total(state, SideId::German, false), campaign::total(state, SideId::Allied, false));
    }
    let (de, al, _) = end_points(state);
    (state.vp.get(&SideId::German).copied().unwrap_or(0) + de, state.vp.get(&SideId::Allied).copied().unwrap_or(0) + al)
}

/// GE-16.4: the German holds a Paris hex or Melun.
pub fn german_auto_win(state: &State) -> Option<Outcome> {
    // A campaign's instant wins are checked after every action (`campaign::after_step`).
    if state.campaign.is_some() {
        return None;
    }
    let held: Vec<String> =
        state.german_auto_win.iter().filter(|h| state.control(**h) == Some(SideId::German)).map(|h| h.to_string()).collect();
    if held.is_empty() {
        None
    } else {
        Some(Outcome::Win {
            side: "german".into(),
            reason: format!("the German holds {} at the end of a German player turn (GE 16.4)", held.join(", ")),
        })
    }
}

/// GE-16.4: higher VP after T12 wins; a tie is a draw.
pub fn final_outcome(state: &State) -> Outcome {
    if state.campaign.is_some() {
        return campaign::final_outcome(state);
    }
    let (de, al) = totals(state);
    let reason = format!("end of turn {}: German {de} VP, Allied {al} VP (GE 16.4)", state.last_turn);
    if de > al {
        Outcome::Win { side: "german".into(), reason }
    } else if al > de {
        Outcome::Win { side: "allied".into(), reason }
    } else {
        Outcome::Draw { reason }
    }
}

/// Where each side's points come from now, one `(side, source, points)` per source: the
/// elimination ledger unit by unit, a campaign's event points and VP hexes, and the Marne's
/// end-of-scenario points counted as if the game ended now (GE 16.4, GE 4).
pub fn sources(state: &State) -> Vec<(SideId, String, i32)> {
    let mut out = Vec::new();
    for (u, lost_sl, eliminations) in ledger_units(state) {
        if lost_sl > 0 {
            for (side, pts) in sl_vp(state, &u.nation) {
                out.push((side, format!("{} lost {lost_sl} SL", u.id), pts * lost_sl));
            }
        }
        if eliminations > 0 {
            for (side, pts) in elimination_vp(state, &u.nation, u.size, u.kind) {
                let times = if eliminations > 1 { format!(" {eliminations} times") } else { String::new() };
                out.push((side, format!("{} eliminated{times}", u.id), pts * eliminations));
            }
        }
    }
    if state.campaign.is_some() {
        out.extend(campaign::sources(state));
        return out;
    }
    for (h, side, pts) in &state.town_vp {
        if state.control(*h) == Some(*side) {
            out.push((*side, format!("holds {h} (counted at the end)"), *pts));
        }
    }
    let sup = supply::Supply::of(state, SideId::German);
    for u in &state.units {
        if u.side == SideId::German
            && let Some(h) = u.hex()
            && h.row > state.south_row
            && sup.at(h)
        {
            out.push((SideId::German, format!("{} supplied at {h}, south of row {} (counted at the end)", u.id, state.south_row), 1));
        }
    }
    out
}

/// [`sources`] as lines: `"vp german from: FR-3 eliminated +2, holds 3232 (counted at the end) +1"`.
pub fn source_lines(state: &State) -> Vec<String> {
    let all = sources(state);
    [SideId::German, SideId::Allied]
        .into_iter()
        .filter_map(|side| {
            let mine: Vec<String> =
                all.iter().filter(|(s, _, p)| *s == side && *p != 0).map(|(_, what, p)| format!("{what} {p:+}")).collect();
            (!mine.is_empty()).then(|| format!("vp {} from: {}", side.name(), mine.join(", ")))
        })
        .collect()
}
