//! Initiative: the strategic initiative of phase B (JDG 3) and the leader-initiative test of
//! an SO group (JDG 2.4.3).
//!
//! - **Strategic initiative by mail.** After both phase-A entries, the entry of the side
//!   that did not send last (the first side) opens with a leading roll (DESIGN §2.5): one
//!   d10 per side in scenario order, each plus its commander-in-chief's DRM. The cup is then
//!   filled (phase C). On a tie nobody chooses anything, so the first cup draw follows in
//!   the same dice stream and the turn goes on as it did before phase B existed. A winner
//!   names its first marker (`first: formation/n`), which stays out of the cup, in its next
//!   entry and acts with it there, or declines (`first: decline`), and the other side's next
//!   entry opens with the first draw. The winner's entry is the roller's own when the roller
//!   won, the other side's next entry otherwise: no entry is added but the decline's.
//! - **Leader initiative by mail.** At the start of an activation, before any unit of the
//!   formation fires, moves or turns (D.2 before D.3), the owner may name SO groups whose
//!   leader tests his initiative (`initiative: {groups: [..]}`). The declaration is the
//!   entry's last action and its dice are the entry's own, rolled by the other side's next
//!   entry, as a fire's are; then the owner goes on with the activation. Each test: d10,
//!   minus the C-in-C's DRM when a unit of the group stands within command distance, at
//!   most the initiative printed on the drawn marker passes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::state::{Am, LeaderTest, LeaderTests, Phase, State, Status};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

/// The rule of the strategic initiative.
pub const STRATEGIC: &str = "JDG 3";
/// The rule of the leader-initiative test.
pub const LEADER: &str = "JDG 2.4.3";

/// The word a winner writes in `first` to decline its pick (JDG 3).
pub const DECLINE: &str = "decline";

/// Leader-initiative tests of SO groups of the activated formation (JDG 2.4.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InitiativeOrder {
    /// The SO groups tested, in the order their dice are rolled.
    pub groups: Vec<String>,
}

/// What the leading roll of phase B is, for `Ruleset::leading_roll`.
pub fn lead_text(s: &State) -> String {
    format!(
        "{STRATEGIC}: the strategic-initiative rolls, d10 + C-in-C DRM for each side (on a tie, the first cup draw follows; turn {})",
        s.turn
    )
}

/// Phase B's leading roll (JDG 3): both dice, the cup filled (phase C); on a tie, or when the
/// winner has no marker to pick, the first draw with the same dice.
pub fn roll_strategic(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    if !matches!(s.phase, Phase::Initiative { .. }) {
        return vec![];
    }
    let mut ev = Vec::new();
    let mut totals = Vec::new();
    for d in s.scenario.sides.clone() {
        let die = dice.roll(10);
        // 2.5.2: an army whose commander-in-chief fell has no DRM, unless another general
        // took command: then his.
        let command = s.command(&d.id);
        let drm = command.as_ref().map(|c| i32::from(c.drm)).unwrap_or(0);
        let total = die as i32 + drm;
        ev.push(Event::roll(format!("{STRATEGIC}: strategic initiative of the {} player", d.id), "d10", die));
        let who = match command {
            Some(c) if c.id == d.commander.id => c.name,
            Some(c) => format!("{}, in command since {} fell, JDG 2.5.2", c.name, d.commander.name),
            None => format!("{} eliminated, JDG 2.5.2", d.commander.name),
        };
        ev.push(Event::rule(STRATEGIC, format!("{}: {die} + {drm} ({who}) = {total}", d.id)));
        totals.push((d.id.clone(), total));
    }
    // The higher total wins; equal totals give nobody the initiative.
    let winner = match totals.as_slice() {
        [(a, ta), (b, tb)] => match ta.cmp(tb) {
            std::cmp::Ordering::Greater => Some(a.clone()),
            std::cmp::Ordering::Less => Some(b.clone()),
            std::cmp::Ordering::Equal => None,
        },
        _ => None,
    };
    s.initiative = winner.clone();
    // 2.1.2: the first player's committed CAM choice opens in this same entry, after these
    // dice: the cup waits for it (phase B goes on in `after_reveal`).
    if !s.sealed_cams.is_empty() {
        let first = s.scenario.sides[0].id.clone();
        ev.push(Event::rule(
            super::cam::RULE,
            format!("the {first} player opens his phase-A CAM choice in this entry; the cup is filled then (phase C)"),
        ));
        s.phase = Phase::Reveal { side: first };
        return ev;
    }
    ev.extend(super::turn::fill_cup(s));
    let tie = "a tie: nobody has the strategic initiative and the first marker is drawn from the cup".to_string();
    ev.extend(pick_or_draw(s, winner, tie, |s| first_draw(s, dice)));
    ev
}

/// The end of phase B once the cup is filled: a winner with a marker of his own in the cup
/// picks the first or declines; otherwise (no marker, or a tie, worded `tie`) `draw` makes
/// the first draw.
fn pick_or_draw(s: &mut State, winner: Option<String>, tie: String, draw: impl FnOnce(&mut State) -> Vec<Event>) -> Vec<Event> {
    let mut ev = Vec::new();
    match winner {
        Some(w) if s.cup.iter().any(|a| !a.is_cam() && side_of_am(s, a) == w) => {
            ev.push(Event::rule(
                STRATEGIC,
                format!("the {w} player wins the strategic initiative: he picks the marker that acts first, or declines"),
            ));
            s.phase = Phase::Pick { side: w };
        }
        Some(w) => {
            ev.push(Event::rule(
                STRATEGIC,
                format!("the {w} player wins the strategic initiative but has no marker in the cup: the first marker is drawn"),
            ));
            ev.extend(draw(s));
        }
        None => {
            ev.push(Event::rule(STRATEGIC, tie));
            ev.extend(draw(s));
        }
    }
    ev
}

/// Phase B after the first player opened his CAM choice (JDG 2.1.2, `Phase::Reveal`): the
/// cup is filled (phase C); the winner with a marker picks or declines; on a tie, or a
/// winner with no marker, the first draw opens the other player's next entry (the dice of
/// this entry are spent).
pub fn after_reveal(s: &mut State) -> Vec<Event> {
    let mut ev = super::turn::fill_cup(s);
    let first = s.scenario.sides[0].id.clone();
    let other = s.scenario.sides[1].id.clone();
    let tie = format!(
        "a tie: nobody has the strategic initiative; the first marker is drawn by the {other} player, the {first} player's CAM choice being open"
    );
    let winner = s.initiative.clone();
    ev.extend(pick_or_draw(s, winner, tie, |s| super::turn::next_draw(s, other)));
    ev
}

/// The first draw of phase D with the dice already in hand (nobody chose anything since they
/// were fixed): by the first side, as in a turn without initiative.
fn first_draw(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let first = s.scenario.sides[0].id.clone();
    let mut ev = super::turn::next_draw(s, first);
    if matches!(s.phase, Phase::Draw { .. }) {
        ev.extend(super::turn::draw(s, dice));
    }
    ev
}

/// The side owning a marker.
pub fn side_of_am(s: &State, am: &Am) -> String {
    s.am_side(am)
}

/// The marker a winner's `first` names, or `None` for a decline; an error for anything else
/// (a marker not in the cup or not the winner's).
pub fn parse_pick(s: &State, side: &str, first: &str) -> Result<Option<Am>, Violation> {
    if first == DECLINE {
        return Ok(None);
    }
    let Some(am) = Am::parse(first) else {
        return Err(Violation::new(STRATEGIC, format!("`first: {first}` names no marker: write `formation/n` or `decline`")));
    };
    // Reading: the winner picks "the formation" that begins the turn (B.2), an ordinary
    // marker; a CAM is never picked (digest C).
    if am.is_cam() {
        return Err(Violation::new(
            STRATEGIC,
            format!("{am} is a CAM: the winner picks an ordinary marker, the one formation that begins the turn"),
        ));
    }
    if side_of_am(s, &am) != side {
        return Err(Violation::new(STRATEGIC, format!("{am} is not one of your markers: the winner picks one of his own")));
    }
    if !s.cup.contains(&am) {
        return Err(Violation::new(
            STRATEGIC,
            format!(
                "{am} is not among the markers that go into the cup this turn ({})",
                s.cup.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    Ok(Some(am))
}

/// Declare leader-initiative tests (JDG 2.4.3): SO groups of the activated formation, not yet
/// tested in this activation, before any of its units acts.
pub fn step_test(s: &mut State, side: &str, o: &InitiativeOrder) -> Result<Vec<Event>, Vec<Violation>> {
    let Phase::Activation { am, .. } = s.phase.clone() else {
        return Err(vec![Violation::new(LEADER, "a leader tests his initiative when his formation is activated")]);
    };
    if s.fire_closed || !s.fired.is_empty() || !s.acted.is_empty() || s.melee_done {
        return Err(vec![Violation::new(
            LEADER,
            "the initiative is tested when the marker is drawn, before any unit of the formation fires, moves or turns (JDG 1.D.2)",
        )]);
    }
    if o.groups.is_empty() {
        return Err(vec![Violation::new(LEADER, "name the SO groups whose leader tests his initiative")]);
    }
    // The value printed on the drawn marker: a CAM's own (2.1.2).
    let initiative = s.am_initiative(&am);
    // 2.5.2: the general in command now, who may have taken over from the fallen one.
    let (chief, reach, cdrm) = match (s.chief(side), s.command(side)) {
        (Some(c), Some(d)) => (Some(c.hex), u32::from(d.command_distance), i32::from(d.drm)),
        _ => (None, 0, 0),
    };
    let mut errs = Vec::new();
    let mut tests = Vec::new();
    for (i, gid) in o.groups.iter().enumerate() {
        let Some(g) = s.groups.iter().find(|g| g.turn == s.turn && &g.id == gid) else {
            errs.push(Violation::new(LEADER, format!("{gid} is not a tactical group of this turn")));
            continue;
        };
        if !s.activates(&am, &g.formation) {
            errs.push(Violation::new(LEADER, format!("{gid} is not a group of the activated formation {}", s.am_label(&am))));
            continue;
        }
        if g.status != Some(Status::SO) {
            errs.push(Violation::new(LEADER, format!("{gid} has orders (OR): only a group without orders tests its leader's initiative")));
            continue;
        }
        if o.groups[..i].contains(gid) || s.tested.iter().any(|(t, _)| t == gid) {
            errs.push(Violation::new(LEADER, format!("{gid} tests its leader's initiative once per activation")));
            continue;
        }
        let on_map: Vec<_> = g.units.iter().filter_map(|u| s.unit(u)).filter_map(|u| u.hex).collect();
        if on_map.is_empty() {
            errs.push(Violation::new(LEADER, format!("{gid} has no unit on the map")));
            continue;
        }
        // Command distance is measured now, from where the commander and the units stand.
        let near = chief.is_some_and(|c| on_map.iter().any(|h| h.distance(c) <= reach));
        tests.push(LeaderTest { group: gid.clone(), drm: if near { cdrm } else { 0 }, initiative });
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let list: Vec<String> = tests
        .iter()
        .map(|t| {
            if t.drm != 0 {
                format!("{} (d10 − {} ≤ {})", t.group, t.drm, t.initiative)
            } else {
                format!("{} (d10 ≤ {}, out of command distance)", t.group, t.initiative)
            }
        })
        .collect();
    s.leader = Some(LeaderTests { side: side.to_string(), tests });
    Ok(vec![Event::rule(LEADER, format!("{am}: the leader tests his initiative for {}", list.join(", ")))])
}

/// The leader-initiative tests waiting for their dice, described.
pub fn pending(s: &State) -> Option<String> {
    let l = s.leader.as_ref()?;
    let names: Vec<&str> = l.tests.iter().map(|t| t.group.as_str()).collect();
    Some(format!("{LEADER}: leader initiative of {}", names.join(", ")))
}

/// Roll the pending tests, one d10 per group in the declared order.
pub fn resolve(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let Some(l) = s.leader.take() else { return vec![] };
    let mut ev = Vec::new();
    for t in l.tests {
        let die = dice.roll(10);
        let total = die as i32 - t.drm;
        let pass = total <= t.initiative;
        ev.push(Event::roll(format!("{LEADER}: leader initiative of {}", t.group), "d10", die));
        let sum = if t.drm != 0 { format!("{die} − {} = {total}", t.drm) } else { die.to_string() };
        ev.push(Event::rule(
            LEADER,
            if pass {
                format!("{} passes: {sum} against initiative {}; it acts as OR in this activation only", t.group, t.initiative)
            } else {
                format!("{} fails: {sum} against initiative {}; its units may only try to rally", t.group, t.initiative)
            },
        ));
        s.tested.push((t.group, pass));
    }
    ev
}

/// Whether a unit belongs to a group whose leader failed his test in this activation: it may
/// only try to rally (JDG 2.4.3).
pub fn held(s: &State, unit: &str) -> bool {
    s.group_of(unit).is_some_and(|g| s.tested.iter().any(|(t, pass)| *t == g.id && !pass))
}

/// Whether a unit belongs to a group whose leader passed his test in this activation.
pub fn promoted(s: &State, unit: &str) -> bool {
    s.group_of(unit).is_some_and(|g| s.tested.iter().any(|(t, pass)| *t == g.id && *pass))
}
