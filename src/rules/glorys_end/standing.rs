//! Standing instructions (issue 3; digest G.1 "standing orders"): answers a side files in
//! advance to the decisions the rules give it during the opponent's turn, so that a battle need
//! not wait for an email. Filed with a `standing` action in any entry of the side; they stay in
//! the state until replaced by the next `standing` action (which replaces them as a whole;
//! `standing: {}` clears them). When a decision comes up and neither a `decide` nor a standing
//! instruction answers it, the engine stops and `status` names what is awaited.
//!
//! ```yaml
//! - standing:
//!     losses: [cavalry-first, spread, {last: [GB-1]}]   # loss allocation order (GE-13.20)
//!     retreat: [toward-supply, {toward: 3036}]           # retreat hex choice (GE-13.19)
//!     optional_retreat: always                           # or never (GE-13.18)
//!     cavalry_withdraws: always                          # or never (GE-13.25)
//!     advance: always                                    # or never: as attacker, in a batch (GE-13.21)
//! ```
//!
//! Rules of the game are never bent by an instruction: loss totals, the fortress-last rule and
//! the retreat preference tiers of 13.19 are applied first; the instructions only choose among
//! what is legal.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::combat::RetreatTo;
use super::state::{Kind, SideId, State};
use super::supply;
use crate::engine::Violation;
use crate::geo::hex::HexId;

/// A side's standing instructions. An empty field means "ask me".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// How to allocate loss points (GE-13.20): sort keys in order of importance; the unit
    /// id breaks the last tie. Without `spread`, each unit in that order gives all its SL
    /// before the next one loses any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<LossRule>,
    /// How to pick a retreat hex among the legal ones of the best 13.19 tier: filters in
    /// order, the lowest hex number breaks the last tie.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreat: Vec<RetreatRule>,
    /// Whether to take an optional retreat (GE-13.18, 14.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_retreat: Option<Choice>,
    /// Whether cavalry attacked alone by a force without cavalry withdraws before combat
    /// (GE-13.25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cavalry_withdraws: Option<Choice>,
    /// Which of the opponent's stacks to put out of command after his command & control roll
    /// of 6 (GE-10.1): sort keys, most important first; the lowest hex number breaks the last
    /// tie.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out_of_command: Vec<OocRule>,
    /// As the attacker in a batch of prepared assaults (`combat::declare_batch`): whether the
    /// survivors advance into a hex the battle emptied (GE-13.21): `always` (every survivor
    /// that may, in the order of the attack's units) or `never`. The attacker's losses in a
    /// batch follow `losses`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance: Option<Choice>,
}

/// One rule for naming the opponent's stacks out of command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OocRule {
    /// A named rule.
    Named(OocKey),
    /// These hexes first, in this order.
    Hexes(OocHexes),
}

/// The named out-of-command rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OocKey {
    /// Stacks next to one of my units first.
    InContact,
    /// Stacks with more SL first.
    Strongest,
}

/// `{hexes: [3131, ...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OocHexes {
    pub hexes: Vec<HexId>,
}

/// Always or never.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    Always,
    Never,
}

/// One loss-allocation rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LossRule {
    /// A named rule.
    Named(LossKey),
    /// These units lose first, in this order.
    First(FirstUnits),
    /// These units lose last, the last one listed last of all.
    Last(LastUnits),
}

/// The named loss rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LossKey {
    /// Cavalry before other units.
    CavalryFirst,
    /// Infantry before other units.
    InfantryFirst,
    /// Units with more SL first.
    StrongestFirst,
    /// Units with fewer SL first.
    WeakestFirst,
    /// Take one SL at a time from the unit with the most SL left (ties by the other rules),
    /// so that units stay in play as long as possible.
    Spread,
}

/// `{first: [FR-9, ...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FirstUnits {
    pub first: Vec<String>,
}

/// `{last: [GB-1, ...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastUnits {
    pub last: Vec<String>,
}

/// One retreat rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RetreatRule {
    /// A named rule.
    Named(RetreatKey),
    /// Prefer the hexes nearest to this one.
    Toward(TowardHex),
}

/// The named retreat rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RetreatKey {
    /// Prefer hexes in supply (GE-7.2).
    TowardSupply,
    /// Prefer hexes with friendly units.
    WithFriends,
    /// Prefer hexes without friendly units.
    Alone,
}

/// `{toward: 3036}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TowardHex {
    pub toward: HexId,
}

impl Standing {
    /// Nothing filed.
    pub fn is_empty(&self) -> bool {
        *self == Standing::default()
    }

    /// One line for `describe`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.losses.is_empty() {
            let l: Vec<String> = self
                .losses
                .iter()
                .map(|r| match r {
                    LossRule::Named(k) => key_name(k),
                    LossRule::First(f) => format!("first {}", f.first.join(" ")),
                    LossRule::Last(l) => format!("last {}", l.last.join(" ")),
                })
                .collect();
            parts.push(format!("losses {}", l.join(", ")));
        }
        if !self.retreat.is_empty() {
            let r: Vec<String> = self
                .retreat
                .iter()
                .map(|r| match r {
                    RetreatRule::Named(k) => key_name(k),
                    RetreatRule::Toward(t) => format!("toward {}", t.toward),
                })
                .collect();
            parts.push(format!("retreat {}", r.join(", ")));
        }
        if let Some(c) = self.optional_retreat {
            parts.push(format!("optional retreat {}", key_name(&c)));
        }
        if let Some(c) = self.cavalry_withdraws {
            parts.push(format!("cavalry withdraws {}", key_name(&c)));
        }
        if !self.out_of_command.is_empty() {
            let r: Vec<String> = self
                .out_of_command
                .iter()
                .map(|r| match r {
                    OocRule::Named(k) => key_name(k),
                    OocRule::Hexes(h) => format!("hexes {}", h.hexes.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")),
                })
                .collect();
            parts.push(format!("out of command {}", r.join(", ")));
        }
        if let Some(c) = self.advance {
            parts.push(format!("advance {}", key_name(&c)));
        }
        if parts.is_empty() { "none".into() } else { parts.join("; ") }
    }
}

fn key_name<T: Serialize>(k: &T) -> String {
    serde_json::to_value(k).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Check instructions filed by `side`: named units must be its own, hexes on the map.
pub fn check(state: &State, side: SideId, s: &Standing) -> Vec<Violation> {
    let mut errs = Vec::new();
    for r in &s.losses {
        let ids = match r {
            LossRule::First(f) => &f.first,
            LossRule::Last(l) => &l.last,
            LossRule::Named(_) => continue,
        };
        for id in ids {
            if state.unit(id).is_none_or(|u| u.side != side) {
                errs.push(Violation::new("GE 13.20", "standing loss instructions name only your own units").unit(id));
            }
        }
    }
    for r in &s.retreat {
        if let RetreatRule::Toward(t) = r
            && !state.board.in_play(t.toward)
        {
            errs.push(
                Violation::new("GE 13.19", "a standing retreat instruction names a hex that is not on the map").hex(t.toward.to_string()),
            );
        }
    }
    for r in &s.out_of_command {
        if let OocRule::Hexes(x) = r {
            for h in x.hexes.iter().filter(|h| !state.board.in_play(**h)) {
                errs.push(
                    Violation::new("GE 10.1", "a standing out-of-command instruction names a hex that is not on the map")
                        .hex(h.to_string()),
                );
            }
        }
    }
    errs
}

/// The `count` stacks of the phasing player that the opponent's instructions put out of
/// command (GE-10.1), or `None` if they say nothing about it.
pub fn ooc_picks(state: &State, count: u32) -> Option<Vec<HexId>> {
    let me = state.player.other();
    let rules = &of(state, me)?.out_of_command;
    if rules.is_empty() {
        return None;
    }
    let mut stacks: Vec<(Vec<i64>, HexId)> = state
        .command_stacks()
        .into_iter()
        .map(|h| {
            let key = rules
                .iter()
                .map(|r| match r {
                    OocRule::Named(OocKey::InContact) => {
                        (!state.board.neighbours(h).iter().any(|&n| state.units_at(n).any(|u| u.side == me))) as i64
                    }
                    OocRule::Named(OocKey::Strongest) => -(state.units_at(h).filter(|u| u.side != me).map(|u| u.sl as i64).sum::<i64>()),
                    OocRule::Hexes(x) => x.hexes.iter().position(|y| *y == h).unwrap_or(x.hexes.len()) as i64,
                })
                .collect();
            (key, h)
        })
        .collect();
    stacks.sort();
    Some(stacks.into_iter().take(count as usize).map(|(_, h)| h).collect())
}

/// What `side`'s instructions leave open that a battle of a batch may ask of it (as the
/// attacker: its losses and the advance; as the defender: losses, the retreat hex, the
/// optional retreat and the cavalry's withdrawal), as the keys to file.
pub fn batch_gaps(state: &State, side: SideId, attacker: bool) -> Vec<&'static str> {
    let st = state.standing.get(&side).cloned().unwrap_or_default();
    let mut gaps = Vec::new();
    if st.losses.is_empty() {
        gaps.push("losses");
    }
    if attacker {
        if st.advance.is_none() {
            gaps.push("advance");
        }
    } else {
        if st.retreat.is_empty() {
            gaps.push("retreat");
        }
        if st.optional_retreat.is_none() {
            gaps.push("optional_retreat");
        }
        if st.cavalry_withdraws.is_none() {
            gaps.push("cavalry_withdraws");
        }
    }
    gaps
}

/// The survivors that advance by `side`'s `advance: always` (GE-13.21), in `order`, each as
/// long as the hex can take it; `None` when the instructions do not say.
pub fn advancing(state: &State, side: SideId, target: HexId, order: &[String], survivors: &[String]) -> Option<Vec<String>> {
    match of(state, side)?.advance? {
        Choice::Never => Some(vec![]),
        Choice::Always => {
            let enemy_trench = state.trenches.get(&target).is_some_and(|t| t.side != side);
            let mut going: Vec<String> = Vec::new();
            for id in order.iter().filter(|id| survivors.contains(id)) {
                // GE-9.4: cavalry does not advance into an enemy trench hex.
                if enemy_trench && state.unit(id).is_some_and(|u| u.kind == Kind::Cavalry) {
                    continue;
                }
                let mut with = going.clone();
                with.push(id.clone());
                if super::stacking::can_end(state, target, side, &with).is_empty() {
                    going = with;
                }
            }
            Some(going)
        }
    }
}

/// The instructions of `side`, if any.
pub fn of(state: &State, side: SideId) -> Option<&Standing> {
    state.standing.get(&side).filter(|s| !s.is_empty())
}

/// The loss allocation the instructions give for `lp` among `units` (GE-13.20; a fortress is
/// the last SL lost, 14.2), or `None` if they say nothing about losses.
pub fn losses(state: &State, side: SideId, units: &[String], lp: u32) -> Option<Vec<(String, u32)>> {
    let rules = &of(state, side)?.losses;
    if rules.is_empty() {
        return None;
    }
    let mut mobile: Vec<(Vec<i64>, String, u32)> = units
        .iter()
        .filter_map(|id| state.unit(id))
        .filter(|u| u.mobile())
        .map(|u| {
            let key = rules
                .iter()
                .filter_map(|r| match r {
                    LossRule::Named(LossKey::CavalryFirst) => Some((u.kind != Kind::Cavalry) as i64),
                    LossRule::Named(LossKey::InfantryFirst) => Some((u.kind != Kind::Infantry) as i64),
                    LossRule::Named(LossKey::StrongestFirst) => Some(-(u.sl as i64)),
                    LossRule::Named(LossKey::WeakestFirst) => Some(u.sl as i64),
                    LossRule::Named(LossKey::Spread) => None,
                    LossRule::First(f) => Some(f.first.iter().position(|x| *x == u.id).unwrap_or(f.first.len()) as i64),
                    LossRule::Last(l) => Some(l.last.iter().position(|x| *x == u.id).map_or(0, |p| p as i64 + 1)),
                })
                .collect();
            (key, u.id.clone(), u.sl as u32)
        })
        .collect();
    mobile.sort();
    let spread = rules.contains(&LossRule::Named(LossKey::Spread));
    let mut left: Vec<u32> = mobile.iter().map(|(_, _, sl)| *sl).collect();
    let mut take = vec![0u32; mobile.len()];
    let mut due = lp;
    while due > 0 {
        let pick = if spread {
            let top = left.iter().copied().max().unwrap_or(0);
            left.iter().position(|&l| l == top && top > 0)
        } else {
            left.iter().position(|&l| l > 0)
        };
        let Some(i) = pick else { break };
        left[i] -= 1;
        take[i] += 1;
        due -= 1;
    }
    let mut out: Vec<(String, u32)> = mobile.iter().zip(&take).filter(|(_, t)| **t > 0).map(|((_, id, _), t)| (id.clone(), *t)).collect();
    // Whatever is left falls on the fortress (GE-14.2); surplus LP are ignored (13.20).
    for u in units.iter().filter_map(|id| state.unit(id)).filter(|u| !u.mobile()) {
        let t = due.min(u.sl as u32);
        if t > 0 {
            out.push((u.id.clone(), t));
            due -= t;
        }
    }
    Some(out)
}

/// The retreat destination the instructions pick among `options` (all of the best 13.19
/// tier), or `None` if there is a choice and they give no rule for it.
pub fn retreat_hex(state: &State, side: SideId, options: &[RetreatTo]) -> Option<RetreatTo> {
    if options.len() == 1 {
        return Some(options[0].clone());
    }
    let rules = &of(state, side)?.retreat;
    if rules.is_empty() || options.is_empty() {
        return None;
    }
    let mut hexes: Vec<HexId> = options.iter().filter_map(|o| if let RetreatTo::Hex(h) = o { Some(*h) } else { None }).collect();
    let sup = supply::Supply::of(state, side);
    for r in rules {
        let score = |h: HexId| -> u32 {
            match r {
                RetreatRule::Named(RetreatKey::TowardSupply) => (!sup.at(h)) as u32,
                RetreatRule::Named(RetreatKey::WithFriends) => (!state.units_at(h).any(|u| u.side == side)) as u32,
                RetreatRule::Named(RetreatKey::Alone) => state.units_at(h).any(|u| u.side == side) as u32,
                RetreatRule::Toward(t) => h.distance(t.toward),
            }
        };
        let best = hexes.iter().map(|&h| score(h)).min().unwrap_or(0);
        hexes.retain(|&h| score(h) == best);
    }
    hexes.sort();
    hexes.first().map(|&h| RetreatTo::Hex(h))
}
