//! Counter-attack (JDG 8.7.2) by a standing policy of the defending seat.
//!
//! When the Melee Table's result carries `CA`, the defender may at once make a melee of its
//! own against the active side's units in one of its front hexes, with no engagement test,
//! choosing one hex and ignoring the others (8.2 exempts it from attacking every enemy in
//! front). If the attacker left its hex, the defender may first advance into it without
//! turning and counter-attack from there. The choice is the inactive seat's, and comes after
//! dice its settling entry already knows, so it is a **standing policy** logged earlier, as
//! the refusal policy is (`refusal`): `counter_attack: never | hold | advance` in the seat's
//! phase-A or activation orders. Default `never`.
//!
//! The counter-attack is resolved inside the melee that allowed it, before the next melee of
//! the declaration, on the same dice. A unit makes one breakthrough or counter-attack per
//! activation (`State::broke`). Which front hex is attacked, when several hold the enemy,
//! is settled by the default target policy: the one with the fewest strength points, then
//! the lowest hex id. The hex advanced into must be empty, so two defending stacks never
//! advance into the same hex.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::melee::{Combat, fight, fighters, obliged};
use super::scenario::{Feature, Kind};
use super::state::State;
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::hex::HexId;

/// The rule.
pub const RULE: &str = "JDG 8.7.2";

/// A seat's standing counter-attack policy (JDG 8.7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CounterAttack {
    /// The defender never counter-attacks.
    #[default]
    Never,
    /// The defender counter-attacks from where it stands, when an enemy is in front.
    Hold,
    /// The defender advances into the hex its attacker left, without turning, and
    /// counter-attacks from there; when no attacking hex was left, as `hold`.
    Advance,
}

/// The policy of a side.
pub fn policy(s: &State, side: &str) -> CounterAttack {
    s.counter.get(side).copied().unwrap_or_default()
}

/// The counter-attacks a `CA` result allows: each defending stack in `held` whose seat's
/// policy asks for one and that may still melee. `side` is the active side, `from` its
/// attacking hexes.
pub fn counter_attacks(s: &mut State, side: &str, from: &[HexId], held: &[HexId], dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    for &d in held {
        let Some(owner) = s.units_at(d).find(|u| u.side != side).map(|u| u.side.clone()) else { continue };
        let p = policy(s, &owner);
        if p == CounterAttack::Never {
            ev.push(Event::rule(RULE, format!("the {owner} player's policy is not to counter-attack: nothing follows")));
            continue;
        }
        // 8.2, 4.2: disordered, routed, square units and artillery never melee.
        let ids: Vec<String> = fighters(s, d).filter(|u| u.side == owner && !s.broke.contains(&u.id)).map(|u| u.id.clone()).collect();
        let Some(facing) = fighters(s, d).find(|u| ids.contains(&u.id)).map(|u| u.facing) else {
            ev.push(Event::rule(RULE, format!("nothing in {d} may counter-attack (disordered, routed, in square, or done already)")));
            continue;
        };
        let kind = fighters(s, d).find(|u| ids.contains(&u.id)).map(|u| u.kind).unwrap_or(Kind::Infantry);
        let mut at = d;
        if p == CounterAttack::Advance
            && let Some(&to) = from.iter().find(|a| {
                a.is_adjacent(d)
                    // An empty hex ("libero"): a second defending stack never joins the first.
                    && s.units_at(**a).next().is_none()
                    && !super::reinforce::closed(s, &owner, **a)
                    && super::melee::enterable(s, kind, d, **a)
            })
        {
            for id in &ids {
                if let Some(u) = s.unit_mut(id) {
                    u.hex = Some(to);
                    u.facing = facing;
                }
            }
            ev.push(Event::rule(
                RULE,
                format!(
                    "{} advance{} from {d} into {to}, the hex the attacker left, without turning",
                    ids.join(", "),
                    if ids.len() == 1 { "s" } else { "" }
                ),
            ));
            if s.scenario.feature(d, to) == Some(Feature::SteepSlope) {
                for id in &ids {
                    ev.push(Event::rule("JDG 8.7.1", format!("{id} advanced across a steep slope: one disorder")));
                    ev.extend(super::disorder::disorder(s, id, false, &[]));
                }
            }
            super::turn::note_holder(s, to, &owner);
            at = to;
        }
        if !fighters(s, at).any(|u| ids.contains(&u.id)) {
            ev.push(Event::rule(RULE, format!("nothing in {at} may counter-attack any more")));
            continue;
        }
        let sp =
            |s: &State, h: HexId| -> u32 { s.units_at(h).filter(|u| u.kind != Kind::Artillery).map(|u| u32::from(s.face(u).sp)).sum() };
        let Some(target) = obliged(s, &owner, at, facing).into_iter().min_by_key(|h| (sp(s, *h), *h)) else {
            ev.push(Event::rule(RULE, format!("no enemy in a front hex of {at}: no counter-attack")));
            continue;
        };
        s.broke.extend(ids.iter().cloned());
        ev.push(Event::rule(
            RULE,
            format!("counter-attack ({owner} standing policy): {} from {at} against {target}, no engagement test", ids.join(", ")),
        ));
        let c = Combat {
            from: vec![at],
            at: vec![target],
            turn: Default::default(),
            advance_from: None,
            advance_facing: None,
            breakthrough: false,
            advance_after_refusal: false,
        };
        let (e, _) = fight(s, &owner, &c, dice, None, true);
        ev.extend(e);
    }
    ev
}
