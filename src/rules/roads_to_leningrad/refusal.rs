//! Combat Refusal (RTL-9.2): after the attacks are declared, the defenders of a hex made
//! only of red-box or cavalry units, none Disrupted, may try to step back two hexes instead
//! of fighting. The try is an ER check of the hex's lead unit with no DRM; a pass retreats
//! the whole group and cancels that attack, and the attackers may move into the empty hex
//! (they fight nowhere else in this Combat Phase).
//!
//! By mail (reading, docs/roads-to-leningrad/rules.md): the defender names his tries in the
//! Enemy Reaction Phase entry (`reaction_phase`); the checks are that entry's dice, rolled
//! before the Reaction moves and the combats. The attacker's choice to move into a hex the
//! defenders refused from is his attack's standing `advance` instruction, made when he
//! declared it, so no decision waits between the refusal and the rest of the phase.

use super::combat::{d10, defending_lead, one_step};
use super::movement::{STACK_LIMIT, in_ezoc, passable, stack_points};
use super::scenario::{Class, Kind};
use super::state::State;
use crate::dice::Dice;
use crate::engine::Event;
use crate::geo::hex::HexId;

/// Why the defenders of `h` may not try Combat Refusal now, if they may not (RTL-9.21,
/// 3.72d, 8.5, 9.24, 9.25): the rule and the reason in a player's words.
pub fn why_not(s: &State, h: HexId) -> Option<(&'static str, String)> {
    if !s.attacks.iter().any(|a| a.target == h) {
        return Some(("RTL-9.21", format!("{h} is not a defending hex: Combat Refusal answers a declared attack")));
    }
    let units: Vec<_> = s.units_at(h).collect();
    if units.is_empty() {
        return Some(("RTL-9.21", format!("{h} holds no unit")));
    }
    for u in &units {
        let Some(d) = s.data(&u.id) else { return Some(("RTL-9.21", format!("no unit {}", u.id))) };
        if d.class == Class::Heavy {
            return Some(("RTL-8.5", format!("{} at {h} is a heavy unit (orange circle): no Combat Refusal from that hex", u.id)));
        }
        if !d.red_box() && d.kind != Kind::Cavalry {
            return Some((
                "RTL-9.21",
                format!("{} at {h} has no red-box MA and is not cavalry: every unit of the hex must be one or the other", u.id),
            ));
        }
        if u.disrupted {
            return Some(("RTL-9.21", format!("{} at {h} is Disrupted: no Combat Refusal from that hex (3.72d)", u.id)));
        }
    }
    if path(s, h).is_none() {
        return Some((
            "RTL-9.25",
            format!(
                "no two-hex retreat from {h} avoids every empty hex in an enemy ZOC and ends outside the other defending hexes (9.24, 11.34)"
            ),
        ));
    }
    None
}

/// The refusal's retreat from `h` (RTL-9.23c, 11.31a): exactly two hexes, each one farther
/// from `h`, into no enemy unit and across no hexside a unit of the group could not cross;
/// through no empty hex in an enemy ZOC (9.25: the refusal is impossible otherwise, and an
/// EZOC hex with friends in it is not empty, 11.34); not ending in another defending hex
/// (9.24: it may pass through one). The owner's choice is made for him (digest G.4): a path
/// that does not end overstacked (11.33) before one that does, then hex order; the whole
/// group takes it (splitting the group, which the rules allow, is not offered).
pub fn path(s: &State, h: HexId) -> Option<Vec<HexId>> {
    let ids: Vec<String> = s.units_at(h).map(|u| u.id.clone()).collect();
    let side = s.units_at(h).next()?.side.clone();
    let enemy = s.scenario.other(&side);
    let ok_step = |a: HexId, b: HexId, depth: u32| {
        b.distance(h) == depth
            && s.scenario.terrain.contains_key(&b)
            && !s.occupied_by(b, &enemy)
            && ids.iter().all(|id| s.data(id).is_some_and(|d| passable(s, a, b, d)))
            && (s.occupied_by(b, &side) || !in_ezoc(s, b, &side))
    };
    let moving: u32 = s.units_at(h).map(|u| s.face(u).stacking).sum();
    let mut best: Option<(bool, Vec<HexId>)> = None;
    for (_, n1) in h.neighbours() {
        if !ok_step(h, n1, 1) {
            continue;
        }
        for (_, n2) in n1.neighbours() {
            if !ok_step(n1, n2, 2) || s.attacks.iter().any(|a| a.target == n2) {
                continue;
            }
            let over = stack_points(s, n2, &side) + moving > STACK_LIMIT;
            if best.as_ref().is_none_or(|(b, _)| *b && !over) {
                best = Some((over, vec![n1, n2]));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The defending hexes whose defenders may try Combat Refusal now (RTL-9.21), in order.
pub fn options(s: &State) -> Vec<HexId> {
    s.attacks.iter().map(|a| a.target).filter(|&h| why_not(s, h).is_none()).collect()
}

/// Roll the tries, in the order written (RTL-9.23). A hex that can no longer refuse when its
/// turn comes (an earlier refusal's advance put enemies by its only path) tries nothing and
/// rolls no die. Every unit of a hex that tries is marked for RTL-9.26 / 9.32.
pub fn resolve(s: &mut State, hexes: &[HexId], dice: &mut Dice) -> Vec<Event> {
    let mut ev = Vec::new();
    for &h in hexes {
        if let Some((rule, why)) = why_not(s, h) {
            ev.push(Event::rule(rule, format!("no Combat Refusal at {h}: {why}")));
            continue;
        }
        let ids: Vec<String> = s.units_at(h).map(|u| u.id.clone()).collect();
        for id in &ids {
            if !s.refused.contains(id) {
                s.refused.push(id.clone());
            }
        }
        let Some(lead) = defending_lead(s, h) else { continue };
        // 9.23a: no DRM; the ER is the unit's current one (3.44: an OoS unit's is 1 lower).
        let er = s.unit(&lead).map(|u| s.er(u)).unwrap_or(1);
        let r = d10(dice);
        ev.push(Event::roll(format!("RTL-9.23: Combat Refusal check at {h} of {lead} (ER {er}, no DRM)"), "d10", r));
        if r > er {
            ev.push(Event::rule("RTL-9.23b", format!("the Combat Refusal at {h} fails: {} stay and fight", ids.join(", "))));
            continue;
        }
        let Some(p) = path(s, h) else { continue };
        let end = p[p.len() - 1];
        for id in &ids {
            if let Some(u) = s.unit_mut(id) {
                u.hex = Some(end);
            }
        }
        let words: Vec<String> = p.iter().map(|x| x.to_string()).collect();
        ev.push(Event::rule("RTL-9.23c", format!("{} refuse combat: they retreat {h} → {}", ids.join(", "), words.join(" → "))));
        let side = s.unit(&lead).map(|u| u.side.clone()).unwrap_or_default();
        for id in ids.iter().rev() {
            if stack_points(s, end, &side) <= STACK_LIMIT {
                break;
            }
            ev.push(Event::rule("RTL-11.33", format!("{id} is eliminated: {end} is overstacked")));
            while s.unit(id).is_some_and(|u| u.hex.is_some()) {
                ev.extend(one_step(s, id));
            }
        }
        ev.extend(advance(s, h));
    }
    ev
}

/// RTL-9.23d: the attack on the emptied hex is cancelled; with its `advance` instruction the
/// surviving attackers move in up to the stacking limit (never heavy units, 8.5). Either way
/// they take part in no other combat of this phase (each attacker is in one attack only).
fn advance(s: &mut State, h: HexId) -> Vec<Event> {
    let Some(i) = s.attacks.iter().position(|a| a.target == h) else { return vec![] };
    let a = s.attacks.remove(i);
    let mut ev = vec![Event::rule("RTL-9.23d", format!("the attack on {h} is cancelled"))];
    if !a.advance {
        return ev;
    }
    let side = s.unit(&a.lead).map(|u| u.side.clone()).unwrap_or_default();
    let mut gone = Vec::new();
    for id in &a.units {
        let Some(u) = s.unit(id).cloned() else { continue };
        if u.hex.is_none() || s.data(id).is_some_and(|d| d.class == Class::Heavy) {
            continue;
        }
        if stack_points(s, h, &side) + s.face(&u).stacking > STACK_LIMIT {
            continue;
        }
        if let Some(x) = s.unit_mut(id) {
            x.hex = Some(h);
        }
        gone.push(id.clone());
    }
    if !gone.is_empty() {
        super::victory::note_control(s, h, &side);
        ev.push(Event::rule("RTL-9.23d", format!("{} advance into {h}, which the defenders refused", gone.join(", "))));
    }
    ev
}

#[cfg(test)]
mod tests {
    //! The Soltsy roster has no cavalry and no heavy unit, so 9.21's cavalry clause and 8.5's
    //! ban are tested on a roster changed in memory.
    use super::super::orders::AttackOrder;
    use super::super::scenario::UnitData;
    use super::*;

    /// I-10pz at 3222 has declared an attack on 5-tr at 3223, after `change` rewrites 5-tr.
    fn state(change: impl Fn(&mut UnitData)) -> State {
        let text = r#"
units:
  - {id: I-10pz, hex: "3222"}
  - {id: 5-tr, hex: "3223"}
active: {formation: 8pz, os: assault}
"#;
        let mut s = super::super::cases::state_with_roster(text, |d| {
            if d.id == "5-tr" {
                change(d)
            }
        });
        let o = AttackOrder {
            hex: "3223".parse().expect("hex"),
            units: vec!["I-10pz".into()],
            lead: None,
            crt: None,
            advance: false,
            artillery: vec![],
            artillery_lead: None,
            air: vec![],
            air_lead: None,
        };
        super::super::combat::declare(&mut s, "german", &o).expect("declared");
        s
    }

    fn rule(s: &State) -> Option<&'static str> {
        why_not(s, "3223".parse().expect("hex")).map(|(r, _)| r)
    }

    #[test]
    fn red_box_units_may_refuse() {
        assert_eq!(rule(&state(|_| {})), None);
    }

    #[test]
    fn cavalry_without_a_red_box_may_refuse() {
        let s = state(|d| {
            d.kind = Kind::Cavalry;
            d.class = Class::Plain;
        });
        assert_eq!(rule(&s), None);
    }

    #[test]
    fn plain_units_may_not_refuse() {
        assert_eq!(rule(&state(|d| d.class = Class::Plain)), Some("RTL-9.21"));
    }

    #[test]
    fn heavy_units_may_not_refuse() {
        assert_eq!(rule(&state(|d| d.class = Class::Heavy)), Some("RTL-8.5"));
    }
}
