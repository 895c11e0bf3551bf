//! Victory points of the Battle of the Marne (GE-16.4) and the German automatic win.
//!
//! The elimination ledger: German corps eliminated +2 Allied; French corps +2 and French
//! divisions +1 German; +1 German per British SL lost. At the end of T12: Allied points for
//! the listed towns held, German +1 per supplied German unit south of row 31.

use super::state::{Kind, Place, SideId, Size, State};
use super::supply;
use crate::engine::{Event, Outcome};

/// VP a side gains when `unit` is eliminated (not counting British SL, scored per SL).
fn elimination_vp(nation: &str, size: Size, kind: Kind) -> Option<(SideId, i32)> {
    if kind == Kind::Fortress {
        return None;
    }
    match (nation, size) {
        ("DE", Size::Corps) => Some((SideId::Allied, 2)),
        ("FR", Size::Corps) => Some((SideId::German, 2)),
        ("FR", Size::Division) => Some((SideId::German, 1)),
        _ => None,
    }
}

/// A unit loses `n` SL (eliminated at 0).
pub fn lose(state: &mut State, id: &str, n: u32) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(u) = state.unit_mut(id) else { return ev };
    let n = n.min(u.sl as u32);
    if n == 0 {
        return ev;
    }
    let gb = u.nation == "GB";
    if n >= u.sl as u32 {
        return eliminate(state, id);
    }
    u.sl -= n as u8;
    ev.push(Event::rule("GE 13.20", format!("{} loses {n} SL ({}/{} SL left)", u.label(), u.sl, u.max_sl)));
    if gb {
        *state.vp.entry(SideId::German).or_insert(0) += n as i32;
        ev.push(Event::rule("GE 16.4", format!("German +{n} VP for British SL lost")));
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
    if nation == "GB" && sl > 0 {
        *state.vp.entry(SideId::German).or_insert(0) += sl;
        ev.push(Event::rule("GE 16.4", format!("German +{sl} VP for British SL lost")));
    }
    if let Some((side, pts)) = elimination_vp(&nation, size, kind) {
        *state.vp.entry(side).or_insert(0) += pts;
        ev.push(Event::rule("GE 16.4", format!("{} +{pts} VP for {label}", side.title())));
    }
    ev
}

/// The ledger recomputed from the units (for the invariant check).
pub fn recompute_ledger(state: &State) -> (i32, i32) {
    let (mut de, mut al) = (0, 0);
    for u in &state.units {
        let lost_sl = match u.place {
            Place::Eliminated => u.start_sl as i32,
            Place::OffMap => u.start_sl as i32 - u.sl as i32,
            Place::Hex(_) => u.start_sl as i32 - u.sl as i32,
            Place::Reinforcement(_) => 0,
        };
        if u.nation == "GB" {
            de += lost_sl;
        }
        if u.place == Place::Eliminated
            && let Some((side, pts)) = elimination_vp(&u.nation, u.size, u.kind)
        {
            if side == SideId::German { de += pts } else { al += pts }
        }
    }
    (de, al)
}

/// End-of-scenario points: Allied towns held; supplied German units south of the row.
pub fn end_points(state: &State) -> (i32, i32, Vec<String>) {
    let mut notes = Vec::new();
    let (mut de, mut al) = (0, 0);
    for (h, side, pts) in &state.town_vp {
        if state.control(*h) == Some(*side) {
            if *side == SideId::Allied { al += pts } else { de += pts }
            notes.push(format!("{} holds {h}: +{pts}", side.title()));
        }
    }
    let src = supply::sources(state, SideId::German);
    for u in &state.units {
        if u.side == SideId::German
            && let Some(h) = u.hex()
            && h.row > state.south_row
            && supply::supplied_with(state, SideId::German, h, &src)
        {
            de += 1;
            notes.push(format!("German supplied {} at {h}: +1", u.id));
        }
    }
    (de, al, notes)
}

/// Totals now, counting end-of-scenario points as if the game ended now.
pub fn totals(state: &State) -> (i32, i32) {
    let (de, al, _) = end_points(state);
    (state.vp.get(&SideId::German).copied().unwrap_or(0) + de, state.vp.get(&SideId::Allied).copied().unwrap_or(0) + al)
}

/// GE-16.4: the German holds a Paris hex or Melun.
pub fn german_auto_win(state: &State) -> Option<Outcome> {
    let held: Vec<String> = state.german_auto_win.iter().filter(|h| state.control(**h) == Some(SideId::German)).map(|h| h.to_string()).collect();
    if held.is_empty() {
        None
    } else {
        Some(Outcome::Win { side: "german".into(), reason: format!("the German holds {} at the end of a German player turn (GE 16.4)", held.join(", ")) })
    }
}

/// GE-16.4: higher VP after T12 wins; a tie is a draw.
pub fn final_outcome(state: &State) -> Outcome {
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
