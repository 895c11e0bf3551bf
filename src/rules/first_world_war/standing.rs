//! Standing instructions a seat keeps to itself (issue 17): its mail robot answers the combat
//! steps (6.1/1–6.1/2), the discard over the hand limit (6.2.1) and the replacements (4.2/4)
//! from them, so a combat costs the players the attack alone.
//!
//! They are never sent: chit choices are hidden (6.1/1 face down), so instructions filed in the
//! log as Glory's End files its own would tell the opponent which chit lies on the table. The
//! robot keeps them in its settings and writes ordinary orders from them, checked by the same
//! rules as any orders; each answer is the first legal choice in the order they give. What they
//! do not answer stays the person's decision.

use schemars::JsonSchema;
use serde::Deserialize;

use super::legal::ok_as_written;
use super::orders::{Action, Orders};
use super::state::{CombatStep, Stage, State, Where};
use super::turn::{awaited, capacity, replaceable};

/// Which chit to place (6.1/1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChitPick {
    /// The usable chit of highest value (a mandatory chit the combat allows comes first when the
    /// rules require it, 6.2.2: the rules refuse every other choice); none if none is usable.
    Best,
    /// No chit, unless the rules require one (a mandatory chit, 6.2.2): then the best.
    None,
}

/// Which army leads (6.1/2), among those the chit allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LeadPick {
    /// The highest printed combat value (2.2).
    Strongest,
    /// The lowest printed combat value (an army the side can spare).
    Weakest,
}

/// Which held chit goes back to the cup (6.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DiscardPick {
    /// The chit of lowest value.
    Weakest,
}

/// Which eliminated armies come back (4.2/4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReplacePick {
    /// As many as the capacity allows, highest combat value first.
    Strongest,
}

/// A seat's standing instructions (the `standing:` of a game in the robot's settings). A step
/// whose key is absent is left to the person.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instructions {
    /// 6.1/1, attacking or defending.
    pub chit: Option<ChitPick>,
    /// 6.1/2, attacking or defending.
    pub lead: Option<LeadPick>,
    /// 6.2: draw a chit when this side's die shows S. Open chits: the answer to the S (absent:
    /// the person answers). Hidden chits: `false` declines the draw at the head of the next
    /// entry the robot writes (absent or `true`: the draw is made, as it is by default).
    pub draw: Option<bool>,
    /// 6.2.1: the chit returned over the hand limit.
    pub discard: Option<DiscardPick>,
    /// 4.2/4: the replacements.
    pub replace: Option<ReplacePick>,
}

impl Instructions {
    /// Instructions from the YAML of the robot's settings; the error names what is wrong.
    pub fn parse(v: &yaml_serde::Value) -> Result<Instructions, String> {
        if v.is_null() {
            return Ok(Instructions::default());
        }
        yaml_serde::from_value(v.clone()).map_err(|e| {
            format!("{e} (The First World War takes chit: best|none, lead: strongest|weakest, draw: true|false, discard: weakest, replace: strongest)")
        })
    }
}

/// The orders `seat`'s instructions give for the decision due now, or `None` when it is not
/// `seat`'s or the instructions leave it to the person.
pub fn orders(s: &State, seat: &str, i: &Instructions) -> Option<Orders> {
    let (who, f, _) = awaited(s)?;
    if who != seat {
        return None;
    }
    let hand = chit_order(s, seat, i.chit);
    let leads = |armies: &[usize]| -> Option<Vec<Action>> {
        let mut v = armies.to_vec();
        match i.lead? {
            LeadPick::Strongest => v.sort_by_key(|&a| (std::cmp::Reverse(s.data.armies[a].value), s.name(a).to_string())),
            LeadPick::Weakest => v.sort_by_key(|&a| (s.data.armies[a].value, s.name(a).to_string())),
        }
        Some(v.into_iter().map(|a| Action::Lead { army: s.name(a).to_string() }).collect())
    };
    let candidates: Vec<Vec<Action>> = match (&s.stage, s.combat.as_ref()) {
        (Stage::Combat, Some(c)) => match c.step {
            CombatStep::DefenderChit => hand?.into_iter().map(|h| vec![Action::Chit(h)]).collect(),
            CombatStep::AttackerChitLead => {
                let leads = leads(&c.attackers)?;
                hand?.into_iter().flat_map(|h| leads.iter().map(move |l| vec![Action::Chit(h.clone()), l.clone()])).collect()
            }
            CombatStep::DefenderLead => leads(&c.defenders)?.into_iter().map(|l| vec![l]).collect(),
            // 6.2 (open chits): the answer to an S.
            CombatStep::Draw => vec![vec![Action::Draw(i.draw?)]],
            CombatStep::Roll | CombatStep::DrawRoll | CombatStep::Reveal => return None,
        },
        (Stage::Discard(q), _) => {
            i.discard?;
            let new = q.first()?.1;
            let mut old: Vec<usize> = s.hands.get(seat)?.iter().copied().filter(|&c| c != new).collect();
            old.sort_by_key(|&c| (s.data.chits[c].value, s.chit_name(c).to_string()));
            old.into_iter().map(|c| vec![Action::Discard(s.chit_name(c).to_string())]).collect()
        }
        (Stage::Replace(_), _) => {
            i.replace?;
            let mut list: Vec<usize> = replaceable(s, f).into_iter().filter(|&a| s.armies[a] == Where::Eliminated).collect();
            list.sort_by_key(|&a| (std::cmp::Reverse(s.data.armies[a].value), s.name(a).to_string()));
            list.truncate(capacity(s, f));
            vec![vec![Action::Replace(list.into_iter().map(|a| s.name(a).to_string()).collect())]]
        }
        _ => return None,
    };
    // 6.2 (hidden chits): a draw this entry makes is declined at its head when they say so.
    let decline = s.chits.hidden && i.draw == Some(false) && s.chits.owed.iter().any(|o| o.seat == seat);
    let lead = |c: Vec<Action>| if decline { std::iter::once(Action::Draw(false)).chain(c).collect() } else { c };
    candidates.into_iter().find_map(|c| first_legal_way(s, seat, i, lead(c)))
}

/// The hand in the order `pick` tries it (`None` stands for "no chit"); `None` without a pick.
fn chit_order(s: &State, seat: &str, pick: Option<ChitPick>) -> Option<Vec<Option<String>>> {
    let pick = pick?;
    let mut held: Vec<usize> = s.hands.get(seat).cloned().unwrap_or_default();
    held.sort_by_key(|&c| (std::cmp::Reverse(s.data.chits[c].value), s.chit_name(c).to_string()));
    let held = held.into_iter().map(|c| Some(s.chit_name(c).to_string()));
    Some(match pick {
        ChitPick::Best => held.chain(std::iter::once(None)).collect(),
        ChitPick::None => std::iter::once(None).chain(held).collect(),
    })
}

/// `actions` as legal orders, with the 6.2.1 return a full hand owes first when one is due:
/// the instructions' `discard` picks it, and without it a choice of return is the person's.
fn first_legal_way(s: &State, seat: &str, i: &Instructions, actions: Vec<Action>) -> Option<Orders> {
    let mut ways = super::chits::with_limit_return(s, seat, actions);
    if ways.len() > 1 {
        i.discard?;
        // The weakest chit goes back; equal values fall back to the chit id, so the choice
        // never depends on how an action happens to print.
        let key = |w: &Vec<Action>| match w.first() {
            Some(Action::Discard(id)) => (s.data.chit(id).map(|c| s.data.chits[c].value), Some(id.clone())),
            _ => (None, None),
        };
        ways.sort_by_key(key);
    }
    ways.into_iter().find_map(|w| ok_as_written(s, seat, w))
}
