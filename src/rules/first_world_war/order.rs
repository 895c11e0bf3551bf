//! Optional rule 9.2, variable deployment and round order (from turn 2): at the start of the
//! turn every faction rolls one die (S = 0); ties are re-rolled by the tied factions only, to
//! order themselves (AMB-17); then, highest roll first, each faction takes a free slot in the
//! deployment order and a free slot in the round order. The round order repeats for the four
//! cycles of the turn. The last faction to pick gets the two slots left (no choice remains).

use serde::{Deserialize, Serialize};

use super::scenario::Faction;
use super::state::{Stage, State, die_event, show_face};
use crate::dice::Dice;
use crate::engine::{Event, Violation};

/// Re-roll rounds after which a still-tied group keeps the fixed order GA, EA, WA, GER (the
/// engine must end; with fair dice this is never reached in practice).
const MAX_REROLLS: usize = 32;

/// One turn's 9.2 order: who picks in which order, and the slots taken so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayOrder {
    /// The factions by roll, highest first (ties settled by re-rolls): the picking order.
    pub ranking: Vec<Faction>,
    /// Deployment slots (slot 1 first): the faction that took each, if any.
    pub deploy: Vec<Option<Faction>>,
    /// Round slots (slot 1 first).
    pub rounds: Vec<Option<Faction>>,
}

impl PlayOrder {
    /// The factions in slot order, once every slot is taken.
    pub fn chosen(&self, slots: &[Option<Faction>]) -> Option<Vec<Faction>> {
        slots.iter().copied().collect()
    }
    /// The next faction to pick, if any.
    pub fn picker(&self) -> Option<Faction> {
        self.ranking.iter().copied().find(|f| !self.deploy.contains(&Some(*f)))
    }
}

/// Whether the new turn starts with the 9.2 order rolls.
pub fn applies(s: &State) -> bool {
    s.options.variable_order && s.turn >= 2
}

/// Start the new turn's order step (called when the turn begins, before any deployment).
pub fn begin(s: &mut State) -> Vec<Event> {
    s.order = None;
    s.stage = Stage::OrderRoll;
    vec![Event::rule("TFWW 9.2", format!("turn {}: each faction rolls one die for the play order (S = 0)", s.turn))]
}

/// RND-5: one die per faction in the fixed order GA, EA, WA, GER; then the tied factions
/// only, in that order, from the same stream, until all are ordered. Tied groups are settled
/// from the highest tied value down.
pub fn roll(s: &mut State, dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    let ranking = rank(s, dice, Faction::ALL.to_vec(), 0, &mut ev);
    let names: Vec<&str> = ranking.iter().map(|f| f.code()).collect();
    ev.push(Event::rule("TFWW 9.2", format!("picking order: {}", names.join(", "))));
    let n = s.data.deployment_order.len();
    s.order = Some(PlayOrder { ranking, deploy: vec![None; n], rounds: vec![None; n] });
    s.stage = Stage::OrderPick;
    ev.extend(fill_last(s));
    ev
}

/// Order `group` (in the fixed order) by one die each, highest first; ties re-roll (AMB-17).
fn rank(s: &State, dice: &mut Dice, group: Vec<Faction>, depth: usize, ev: &mut Vec<Event>) -> Vec<Faction> {
    if group.len() < 2 {
        return group;
    }
    if depth > MAX_REROLLS {
        ev.push(Event::rule("TFWW 9.2", "still tied after many re-rolls: the fixed order GA, EA, WA, GER decides"));
        return group;
    }
    let what = if depth == 0 { "order roll" } else { "order re-roll" };
    let rolled: Vec<(Faction, u32)> = group
        .iter()
        .map(|&f| {
            let face = s.face(dice.roll(6));
            ev.push(die_event(format!("{what} of {}", f.code()), face));
            (f, face)
        })
        .collect();
    let mut faces: Vec<u32> = rolled.iter().map(|r| r.1).collect();
    faces.sort_unstable_by(|a, b| b.cmp(a));
    faces.dedup();
    let mut out = Vec::new();
    for v in faces {
        let tied: Vec<Faction> = rolled.iter().filter(|r| r.1 == v).map(|r| r.0).collect();
        if tied.len() > 1 {
            let names: Vec<&str> = tied.iter().map(|f| f.code()).collect();
            ev.push(Event::rule(
                "TFWW 9.2",
                format!("{} tie on {}: only they re-roll, to order themselves (AMB-17)", names.join(" and "), show_face(v)),
            ));
        }
        out.extend(rank(s, dice, tied, depth + 1, ev));
    }
    out
}

/// DP-02: faction `f` takes deployment slot `deploy` and round slot `round` (1-based).
pub fn pick(s: &mut State, f: Faction, deploy: u8, round: u8) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(o) = s.order.as_mut() else { return Err(vec![Violation::new("TFWW 9.2", "no play order is being chosen now")]) };
    let mut errs = Vec::new();
    for (what, slot, slots) in [("deployment", deploy, &o.deploy), ("round", round, &o.rounds)] {
        match slots.get(usize::from(slot).wrapping_sub(1)) {
            None => errs.push(Violation::new("TFWW 9.2", format!("there is no {what} slot {slot} (1 to {})", slots.len()))),
            Some(Some(by)) => errs.push(Violation::new("TFWW 9.2", format!("{what} slot {slot} is already taken by {}", by.code()))),
            Some(None) => {}
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    o.deploy[usize::from(deploy) - 1] = Some(f);
    o.rounds[usize::from(round) - 1] = Some(f);
    let mut ev = vec![Event::rule("TFWW 9.2", format!("{} takes deployment slot {deploy} and round slot {round}", f.code()))];
    ev.extend(fill_last(s));
    Ok(ev)
}

/// The last faction to pick takes the slots left; once every slot is taken the deployment
/// begins in the chosen order.
fn fill_last(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let Some(o) = s.order.as_mut() else { return ev };
    let free = |slots: &[Option<Faction>]| slots.iter().position(Option::is_none);
    if o.deploy.iter().filter(|d| d.is_none()).count() == 1
        && let (Some(f), Some(d), Some(r)) = (o.picker(), free(&o.deploy), free(&o.rounds))
    {
        o.deploy[d] = Some(f);
        o.rounds[r] = Some(f);
        ev.push(Event::rule("TFWW 9.2", format!("{} takes the slots left: deployment slot {} and round slot {}", f.code(), d + 1, r + 1)));
    }
    if o.picker().is_none() {
        s.stage = Stage::Deploy(0);
        ev.push(Event::rule("TFWW 9.2", format!("turn {} order: {}", s.turn, text(s))));
    }
    ev
}

/// The order in force, for `describe` and events: deployment and rounds.
pub fn text(s: &State) -> String {
    let list = |v: &[Faction]| v.iter().map(|f| f.code()).collect::<Vec<_>>().join(", ");
    format!("deployment {}; rounds {}", list(&s.deployment_order()), list(&s.round_order()))
}

/// The bot's pick: a free deployment slot and a free round slot, by its own dice.
pub fn random_pick(s: &State, chooser: &mut Dice) -> Option<(u8, u8)> {
    let o = s.order.as_ref()?;
    let free = |slots: &[Option<Faction>]| -> Vec<u8> {
        slots.iter().enumerate().filter(|(_, x)| x.is_none()).filter_map(|(i, _)| u8::try_from(i + 1).ok()).collect()
    };
    let (d, r) = (free(&o.deploy), free(&o.rounds));
    let nd = u32::try_from(d.len()).ok()?;
    let nr = u32::try_from(r.len()).ok()?;
    if nd == 0 || nr == 0 {
        return None;
    }
    Some((d[chooser.roll(nd) as usize], r[chooser.roll(nr) as usize]))
}
