//! Combined activation markers, CAMs (JDG 2.1.2, 1.A, 2.2), as the battle data describes
//! them (`scenario::Cam`): a CAM goes into the cup in phase A, because the battle requires
//! it on that turn or because its player chooses it; it is drawn like any marker (a leading
//! roll, `turn::draw`); drawn, it activates its formations together under its own
//! initiative value; left last in the cup, it is set aside unplayed like any marker.
//!
//! - **Choice by mail, kept simultaneous** (digest F.4, reading 19): the first side of phase
//!   A writes `cams: [..]`; its tool commits to the list (id `cams-T<turn>-<side>`, value
//!   `jdg-cams:T<turn>:<side>:<ids>`) and sends nothing of it in plain. The id is in every
//!   phase-A entry of that side on a turn it may choose a CAM, whatever it chose, and notes
//!   are padded to a bound computed from the battle's CAM ids, so the entry says nothing.
//!   The second side states its `cams` openly, knowing nothing of the first's. The first
//!   side opens the commitment in its next entry, the one that opens with the phase-B dice
//!   (`open_cams: true`, so the tool adds the opening; `Phase::Reveal`): the dice are read
//!   first, then the opening, and only then is the cup filled (phase C) with its CAMs. A
//!   winner first side picks in that same entry; on a tie (or a winner with no ordinary
//!   marker) the first draw cannot follow in the spent dice, so it opens the second side's
//!   next entry.
//! - **Checks**: a CAM named must be one of the battle's, of the player's side, and one the
//!   battle lets him choose this turn; a required CAM goes in without being named (naming
//!   it is refused, so it cannot be put in twice); a name twice is refused. The author's tool
//!   refuses a bad committed list; an opening that names a bad CAM anyway is recorded as a
//!   `VIOLATION` and that CAM stays out of the cup.
//! - **Strategic initiative** (JDG 3): the winner picks an ordinary marker only (reading).

use super::state::{Am, Phase, State};
use crate::engine::{Event, Violation};

/// The rule of the CAMs.
pub const RULE: &str = "JDG 2.1.2";

/// The CAMs `side` may choose to put into the cup this turn.
pub fn choosable(s: &State, side: &str) -> Vec<String> {
    s.scenario.cams.iter().filter(|c| c.side == side && c.choice.contains(&s.turn)).map(|c| c.id.clone()).collect()
}

/// The CAMs the battle puts into the cup this turn without a choice.
pub fn required(s: &State) -> Vec<String> {
    s.scenario.cams.iter().filter(|c| c.required.contains(&s.turn)).map(|c| c.id.clone()).collect()
}

/// Whether `side`'s phase-A entry commits its CAM choice (the first side, when it has a
/// choice this turn) rather than stating it.
pub fn commits(s: &State, side: &str) -> bool {
    side == s.scenario.sides[0].id && !choosable(s, side).is_empty()
}

/// The commitment id of `side`'s CAM choice this turn.
pub fn commit_id(s: &State, side: &str) -> String {
    format!("cams-T{}-{side}", s.turn)
}

/// The committed value of a CAM choice.
pub fn value(s: &State, side: &str, cams: &[String]) -> String {
    let mut list = cams.to_vec();
    list.sort();
    format!("jdg-cams:T{}:{side}:{}", s.turn, list.join(","))
}

/// The longest value a `cams-…` commitment may hold: the id's frame and every CAM id of the
/// battle (public data only).
pub fn value_bound(s: &State, id: &str) -> usize {
    id.len() + 16 + s.scenario.cams.iter().map(|c| c.id.len() + 1).sum::<usize>()
}

/// The CAM ids of a committed value of `side` this turn, if it is one.
pub fn parse_value(s: &State, side: &str, v: &str) -> Option<Vec<String>> {
    let rest = v.strip_prefix(&format!("jdg-cams:T{}:{side}:", s.turn))?;
    Some(if rest.is_empty() { vec![] } else { rest.split(',').map(str::to_string).collect() })
}

/// Check a CAM choice of `side` for this turn (JDG 2.1.2).
pub fn check(s: &State, side: &str, cams: &[String]) -> Vec<Violation> {
    let mut errs = Vec::new();
    let free = choosable(s, side);
    for (i, id) in cams.iter().enumerate() {
        let why = match s.scenario.cam(id) {
            _ if cams[..i].contains(id) => format!("{id} is named twice: a CAM goes into the cup once"),
            None => format!("{id} is not a CAM of this battle"),
            Some(c) if c.side != side => format!("{id} is the other side's CAM: each player puts in his own"),
            Some(c) if c.required.contains(&s.turn) => {
                format!("{id} is required on turn {}: it goes into the cup without being chosen", s.turn)
            }
            Some(_) if !free.contains(id) => format!("the battle does not let you choose {id} on turn {}", s.turn),
            Some(_) => continue,
        };
        errs.push(Violation::new(RULE, why));
    }
    errs
}

/// The stated choice of `side` (the second side's, JDG 2.1.2): its CAMs go into the cup
/// with the others in phase C.
pub fn state_choice(s: &mut State, side: &str, cams: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    if cams.is_empty() {
        return Ok(vec![]);
    }
    if commits(s, side) {
        return Err(vec![Violation::new(
            RULE,
            "the first player of phase A commits to his CAM choice (your tool seals `cams`); stating it would show it before the other player chooses",
        )]);
    }
    let errs = check(s, side, cams);
    if !errs.is_empty() {
        return Err(errs);
    }
    s.chosen.extend(cams.iter().cloned());
    Ok(vec![Event::rule(RULE, format!("the {side} player puts {} into the cup", list(cams)))])
}

/// The opening of `side`'s committed CAM choice: its CAMs go into the cup now (it may be
/// filled already); a CAM the choice could not hold is a recorded violation and stays out.
pub fn open(s: &mut State, side: &str, cams: &[String]) -> Vec<Event> {
    s.sealed_cams.retain(|x| x != side);
    let mut ev = Vec::new();
    let mut good = Vec::new();
    for id in cams {
        let mut errs = check(s, side, std::slice::from_ref(id));
        if good.contains(id) {
            errs.push(Violation::new(RULE, format!("{id} is named twice: a CAM goes into the cup once")));
        }
        if let Some(v) = errs.first() {
            ev.push(Event::rule(
                RULE,
                format!("VIOLATION: the {side} player's committed CAM choice names {id}: {}; it stays out of the cup", v.message),
            ));
            continue;
        }
        good.push(id.clone());
    }
    ev.insert(
        0,
        Event::rule(
            RULE,
            if good.is_empty() {
                format!("the {side} player's CAM choice opens: no CAM")
            } else {
                format!("the {side} player's CAM choice opens: he puts {} into the cup", list(&good))
            },
        ),
    );
    // In the cup already when phase C came first (the usual case: it came with the dice of
    // the entry that opens it).
    let filled = !matches!(s.phase, Phase::Orders { .. } | Phase::Initiative { .. } | Phase::Reveal { .. });
    for id in good {
        if filled {
            s.cup.push(Am::cam(&id));
        }
        s.chosen.push(id);
    }
    s.cup.sort();
    ev
}

/// The CAMs that go into the cup in phase C: the required ones and those chosen and public.
pub fn into_cup(s: &State) -> Vec<Am> {
    let mut ids = required(s);
    ids.extend(s.chosen.iter().cloned());
    ids.sort();
    ids.dedup();
    ids.iter().map(|id| Am::cam(id)).collect()
}

/// `a/C, b/C` for a list of CAM ids.
fn list(cams: &[String]) -> String {
    cams.iter().map(|c| Am::cam(c).to_string()).collect::<Vec<_>>().join(", ")
}
