//! Combining two formations' AMs (RTL-7.31.3, 7.32–7.34).
//!
//! With an AM in the Activation Pool, the OS entry may `play: combine`, naming the AM turned
//! face up (`face_up: drawn | pooled`) and the one sequence both formations follow (7.21).
//! The two AMs must be of different formations (7.32). The face-up AM is opened in that
//! entry and its formation activates at once; the other AM waits face down in the pool.
//! The combination roll (d10 + the face-up AM's Combination Value + the CPs of a leader
//! named in `combine_leader`, 7.33c, 15.33d) comes after the choice, so it ends the entry (DESIGN §2.5), as the Army
//! activation tries and overruns do: the other side's next entry settles its dice.
//! - Modified 8 or more: both formations activate (7.33d). A pooled AM already public joins
//!   at once; a face-down one is opened by the mover's next entry, which then plays the
//!   sequence with both formations.
//! - 7 or less: only the face-up formation activates; the other AM stays face down in the
//!   pool, its identity unknown to the opponent, still bound by its slot commitment. It may
//!   try again in a later friendly OS of the turn, or be played on its own (7.34); it is not
//!   kept past the turn (7.25).

use super::combat::d10;
use super::leaders;
use super::orders::{Orders, Play};
use super::state::{Active, Combine, Marker, Os, State};
use super::turn::{army_for, formation_of};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

/// The modified roll that combines (7.33d).
pub const THRESHOLD: i32 = 8;

fn refuse<T>(rule: &str, msg: impl Into<String>) -> Result<T, Vec<Violation>> {
    Err(vec![Violation::new(rule, msg.into())])
}

/// Declare the combination (7.33a–b): the face-up AM activates its formation now; the roll
/// waits for the other side's next entry.
pub fn declare(s: &mut State, side: &str, o: &Orders, os: Os) -> Result<Vec<Event>, Vec<Violation>> {
    if os == Os::Pass {
        return refuse(
            "RTL-7.33",
            "a combination activates formations: choose a Mobile or Assault sequence (a Pass activates none, 7.21c)",
        );
    }
    let up_is_drawn = match o.face_up {
        Some(Play::Drawn) => true,
        Some(Play::Pooled) => false,
        _ => return refuse("RTL-7.33", "name the AM you turn face up: face_up: drawn or pooled (7.33b)"),
    };
    let Some(drawn) = s.drawn.clone().filter(|_| !s.choose_first) else {
        return refuse("RTL-7.31", "you combine the AM you have just drawn with the one in your pool: there is no drawn AM");
    };
    let Some(pooled) = s.pool.get(side).cloned() else {
        return refuse("RTL-7.31", "your Activation Pool is empty: there is nothing to combine with");
    };
    let (up, other) = if up_is_drawn { (drawn, pooled) } else { (pooled, drawn) };
    if !up.open {
        return refuse("RTL-7.33", format!("turn {} face up: open it in this entry (7.33b)", up.public_name()));
    }
    let Some(formation) = formation_of(s, &up) else { return refuse("RTL-4.35", "the face-up marker names no formation of yours") };
    // 7.32: known to the author (and to `verify`'s omniscient pass) even while face down.
    if let Some(f2) = formation_of(s, &other)
        && f2 == formation
    {
        return refuse(
            "RTL-7.32",
            format!("both AMs are of {formation}: only different formations combine; play one and keep the other in the pool"),
        );
    }
    let value = s.scenario.formation(&formation).map(|f| f.combination).unwrap_or(0);
    let am = up.public_name();
    let army = army_for(s, side, &formation);
    for id in &army {
        if let Some(u) = s.unit_mut(id) {
            u.activations += 1;
        }
    }
    s.drawn = None;
    s.choose_first = false;
    s.pool.insert(side.to_string(), other.clone());
    s.played.push(am.clone());
    s.active = Some(Active {
        side: side.to_string(),
        formation: formation.clone(),
        os,
        army: army.clone(),
        constructed: false,
        tried: false,
        second: None,
    });
    let leader = match &o.combine_leader {
        Some(id) => Some(leader_for_roll(s, side, id)?),
        None => None,
    };
    let with = leader.as_ref().map(|(id, n)| format!(", {id} adding his {n} CPs")).unwrap_or_default();
    s.combine = Some(Combine { am: am.clone(), value, leader, open_due: false });
    Ok(vec![Event::rule(
        "RTL-7.33",
        format!(
            "the {side} player tries to combine {am} (face up, Combination Value {value}{with}) with {} for a {os:?} sequence; {formation} activates{}; the other side's next entry rolls the combination",
            other.public_name(),
            if army.is_empty() { String::new() } else { format!(" with Army units {}", army.join(", ")) }
        ),
    )])
}

/// The leader named for the combination roll (15.33d), checked and flipped (the flip
/// comes whatever the roll, so at once), with his CPs. Called once the face-up formation is
/// active: his range is traced to one of its HQs (15.25b).
fn leader_for_roll(s: &mut State, side: &str, id: &str) -> Result<(String, u32), Vec<Violation>> {
    if !leaders::is_leader(s, id) {
        return refuse(
            "RTL-15.33",
            format!("{id} is not a leader: only a leader's command points help the combination roll, never an HQ's (15.33d, 7.33c)"),
        );
    }
    if let Some((rule, why)) = leaders::why_not(s, side, id).or_else(|| leaders::reach_why_not(s, id, None, true)) {
        return refuse(rule, why);
    }
    let n = leaders::points(s, id);
    if let Some(l) = s.leader_mut(id) {
        l.cp_used = true;
    }
    Ok((id.to_string(), n))
}

/// The entry that declares the combination ends with it (DESIGN §2.5): nothing of the
/// sequence may be written after it.
pub fn check_declaring_entry(o: &Orders) -> Result<(), Vec<Violation>> {
    if !o.actions.is_empty() || !o.army_attempts.is_empty() || !o.build.is_empty() || !o.command_points.is_empty() {
        return refuse(
            "RTL-7.33",
            "the combination roll ends the entry: write the sequence (builds, Army tries, moves, attacks, CPs) in your next entry, after the roll",
        );
    }
    Ok(())
}

/// Roll the combination (7.33c–d).
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(c) = s.combine.clone() else { return vec![] };
    let side = s.active.as_ref().map(|a| a.side.clone()).unwrap_or_default();
    let r = d10(dice);
    let cp = c.leader.as_ref().map(|(_, n)| *n).unwrap_or(0);
    let total = r as i32 + i32::from(c.value) + cp as i32;
    let by = c.leader.as_ref().map(|(id, n)| format!(", {id}'s CPs +{n}")).unwrap_or_default();
    let mut ev = vec![Event::roll(format!("RTL-7.33: combination roll of {} (Combination Value +{}{by})", c.am, c.value), "d10", r)];
    if total < THRESHOLD {
        s.combine = None;
        let other = s.pool.get(&side).map(Marker::public_name).unwrap_or_default();
        ev.push(Event::rule(
            "RTL-7.33",
            format!("{total} is 7 or less: the combination fails; only {} activates, {other} stays face down in the pool (7.34)", c.am),
        ));
        return ev;
    }
    let open = s.pool.get(&side).is_some_and(|m| m.open);
    ev.push(Event::rule("RTL-7.33", format!("{total} is 8 or more: both formations activate")));
    if open {
        ev.extend(attach(s, &side));
    } else {
        if let Some(x) = s.combine.as_mut() {
            x.open_due = true;
        }
        let name = s.pool.get(&side).map(Marker::public_name).unwrap_or_default();
        ev.push(Event::rule(
            "RTL-7.33",
            format!("the {side} player's next entry opens {name} and plays the sequence with both formations"),
        ));
    }
    ev
}

/// The mover's entry after a successful roll with the second AM face down: it must open it
/// (its opening is recorded before the orders), and the second formation joins.
pub fn join(s: &mut State, side: &str) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(m) = s.pool.get(side).cloned() else { return refuse("RTL-7.33", "the combined AM is not in your pool") };
    if !m.open {
        return refuse(
            "RTL-7.33",
            format!("the combination succeeded: open {} in this entry, both AMs are revealed (7.33d)", m.public_name()),
        );
    }
    let first = s.active.as_ref().map(|a| a.formation.clone()).unwrap_or_default();
    if formation_of(s, &m).is_some_and(|f| f == first) {
        return refuse("RTL-7.32", format!("{} is of {first} too: only different formations combine", m.public_name()));
    }
    Ok(attach(s, side))
}

/// The opened pooled AM's formation joins the active one (7.33d).
fn attach(s: &mut State, side: &str) -> Vec<Event> {
    s.combine = None;
    let Some(m) = s.pool.remove(side) else { return vec![] };
    let Some(f2) = formation_of(s, &m) else { return vec![] };
    let have = s.active.as_ref().map(|a| a.army.clone()).unwrap_or_default();
    let more: Vec<String> = army_for(s, side, &f2).into_iter().filter(|id| !have.contains(id)).collect();
    for id in &more {
        if let Some(u) = s.unit_mut(id) {
            u.activations += 1;
        }
    }
    s.played.push(m.public_name());
    let mut names = String::new();
    if let Some(a) = s.active.as_mut() {
        a.army.extend(more.iter().cloned());
        a.second = Some(f2.clone());
        names = a.names();
    }
    vec![Event::rule(
        "RTL-7.33",
        format!(
            "{} joins: {names} act together in this sequence{}",
            m.public_name(),
            if more.is_empty() { String::new() } else { format!(", with Army units {}", more.join(", ")) }
        ),
    )]
}
