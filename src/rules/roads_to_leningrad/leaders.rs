//! Leaders (RTL-15.2): who may spend a leader's Command Points and how far they reach
//! (15.25, 15.31, 15.32), and the displacement when an enemy unit enters his hex (15.22).
//! The spends themselves go through `command`, as an HQ's do (15.33).
//!
//! A leader is kept apart from the units (`State::leaders`): with no strength, stacking
//! value or ZOC, never a step loss and never Disrupted or OoS, nothing the units' rules
//! read applies to him, and a hex holding only leaders holds nothing to attack (9.11).

use super::command;
use super::state::State;
use crate::engine::Event;
use crate::geo::hex::HexId;

/// Whether `id` is a leader.
pub fn is_leader(s: &State, id: &str) -> bool {
    s.leader(id).is_some()
}

/// A leader's printed CPs (RTL-15.31); 0 for anything else.
pub fn points(s: &State, id: &str) -> u32 {
    s.scenario.leader(id).map(|l| l.command_points).unwrap_or(0)
}

/// A leader's command range (RTL-15.25).
pub fn range(s: &State, id: &str) -> u32 {
    s.scenario.leader(id).map(|l| l.range).unwrap_or(0)
}

/// Why the leader himself cannot spend now: not a leader of the side, off the map, or on
/// his "CPs used" face (15.32; a displacement flips him too, 15.22).
pub fn why_not(s: &State, side: &str, id: &str) -> Option<(&'static str, String)> {
    let Some(l) = s.leader(id) else { return Some(("RTL-15.31", format!("no leader {id}"))) };
    if l.side != side {
        return Some(("RTL-15.31", format!("{id} is not one of your leaders: only your own HQs and leaders spend for you")));
    }
    if l.hex.is_none() {
        return Some(("RTL-15.31", format!("{id} is not on the map")));
    }
    if l.cp_used {
        return Some((
            "RTL-15.32",
            format!("{id} has used his command points this turn, or was displaced (they come back in the Reorganization Phase, 15.34b)"),
        ));
    }
    None
}

/// Why the leader's CPs cannot reach a check whose lead unit is `lead` (none for the
/// combination roll, 15.33d): the lead must be within his range (15.31, 15.25), and the
/// range is traced to an HQ of his side as well (15.25b). For the mover's checks that HQ
/// must be of an active formation, as 15.25b says; for the defender's and the
/// Reorganization's, when none of his formations is active, any HQ of his on the map
/// (reading). A leader has no formation: 15.14 binds only HQs (the TEC's CP rows).
pub fn reach_why_not(s: &State, id: &str, lead: Option<&str>, mover: bool) -> Option<(&'static str, String)> {
    let Some(l) = s.leader(id) else { return Some(("RTL-15.31", format!("no leader {id}"))) };
    let Some(at) = l.hex else { return Some(("RTL-15.31", format!("{id} is not on the map"))) };
    let r = range(s, id);
    if let Some(lead) = lead {
        match s.unit(lead).and_then(|u| u.hex) {
            Some(h) if at.distance(h) <= r => {}
            _ => return Some(("RTL-15.25", format!("{lead} is more than {r} hexes from {id}: out of his command range"))),
        }
    }
    let linked = s.units.iter().any(|u| {
        u.side == l.side
            && command::is_hq(s, &u.id)
            && u.hex.is_some_and(|h| at.distance(h) <= r)
            && (!mover || s.active.as_ref().is_some_and(|a| a.side == l.side && a.has(&u.formation)))
    });
    if !linked {
        let which = if mover { "an HQ of an active formation" } else { "an HQ of his side" };
        return Some(("RTL-15.25", format!("{id} has no {which} within his {r} hexes: his command range is traced to one")));
    }
    None
}

/// RTL-15.22: a leader whose hex an enemy unit has entered goes to the nearest friendly
/// unit on the map (the owner's choice among equidistant ones is not asked: the lowest
/// hex id, reading) and is flipped to "CPs used"; CPs he already used are not affected.
/// Looked at after every entry and every roll, so a leader never shares a hex with the
/// enemy in a saved state.
pub fn displace(s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    for i in 0..s.leaders.len() {
        let (id, side, Some(at)) = (s.leaders[i].id.clone(), s.leaders[i].side.clone(), s.leaders[i].hex) else { continue };
        if !s.units_at(at).any(|u| u.side != side) {
            continue;
        }
        let to: Option<HexId> =
            s.units.iter().filter(|u| u.side == side).filter_map(|u| u.hex).filter(|&h| h != at).min_by_key(|&h| (h.distance(at), h));
        let l = &mut s.leaders[i];
        l.hex = to;
        l.cp_used = true;
        ev.push(Event::rule(
            "RTL-15.22",
            match to {
                Some(h) => {
                    format!("an enemy unit enters {at}: {id} is displaced to the nearest friendly unit, at {h}, and flipped (no CPs)")
                }
                None => format!("an enemy unit enters {at}: {id} has no friendly unit to join and leaves the map"),
            },
        ));
    }
    ev
}

#[cfg(test)]
mod tests {
    use super::super::orders::{AttackOrder, CpOrder};
    use super::super::state::{Leader, State};
    use super::super::{RoadsToLeningrad, combat, command};
    use crate::engine::cases::CaseRuleset;
    use crate::geo::hex::HexId;

    /// An 8th Panzer attack on 3223 from two hexes, with von Manstein and a second German
    /// leader, `vLeeb`, that the bundled roster lacks (REPRESENTATIVE, for this test only:
    /// no scenario of ours has two leaders on one side).
    fn two_leaders() -> State {
        let text = r#"
units:
  - {id: HQ-8pz, hex: "3226"}
  - {id: I-10pz, hex: "3222"}
  - {id: I-8sr, hex: "3224"}
  - {id: 835-rr, hex: "3223"}
leaders:
  - {id: vManstein, hex: "3226"}
active: {formation: 8pz, os: mobile}
"#;
        let v: yaml_serde::Value = yaml_serde::from_str(text).expect("yaml");
        let mut s = RoadsToLeningrad::case_state(&v).expect("case state");
        let mut d = s.scenario.leader("vManstein").expect("von Manstein").clone();
        d.id = "vLeeb".into();
        s.scenario.raw.leaders.push(d);
        s.leaders.push(Leader { id: "vLeeb".into(), side: "german".into(), hex: Some(HexId::new(32, 26)), cp_used: false });
        let a: AttackOrder = yaml_serde::from_str(r#"{hex: "3223", units: [I-10pz, I-8sr], lead: I-10pz, crt: mobile}"#).expect("attack");
        combat::declare(&mut s, "german", &a).expect("declared");
        s
    }

    fn spends(text: &str) -> Vec<CpOrder> {
        yaml_serde::from_str(text).expect("spends")
    }

    /// RTL-15.33a1: one HQ plus one leader an attack, so a second leader on the same attack
    /// is refused, while one leader with the HQ passes (the control).
    #[test]
    fn a_second_leader_on_one_attack_is_refused() {
        let mut s = two_leaders();
        let two = spends(r#"[{hq: vManstein, ground: "3223"}, {hq: vLeeb, ground: "3223"}]"#);
        let errs = command::name_mover(&mut s.clone(), "german", &two).expect_err("two leaders on one attack");
        assert!(errs.iter().any(|v| v.rule == "RTL-15.33" && v.message.contains("at most one leader")), "{errs:?}");
        let one = spends(r#"[{hq: HQ-8pz, ground: "3223"}, {hq: vLeeb, ground: "3223"}]"#);
        command::name_mover(&mut s, "german", &one).expect("one HQ plus one leader");
        assert!(s.leader("vLeeb").is_some_and(|l| l.cp_used) && s.unit("HQ-8pz").is_some_and(|u| u.cp_used));
    }

    /// RTL-15.22: with no friendly unit left on the map the displaced leader has nowhere to
    /// go and leaves it; his CPs are gone for the turn.
    #[test]
    fn a_leader_with_no_friend_left_leaves_the_map() {
        let mut s = two_leaders();
        for u in s.units.iter_mut().filter(|u| u.side == "german") {
            u.hex = None;
        }
        if let Some(u) = s.unit_mut("835-rr") {
            u.hex = Some(HexId::new(32, 26));
        }
        let ev = super::displace(&mut s);
        assert_eq!(ev.len(), 2, "{ev:?}");
        assert!(s.leaders.iter().all(|l| l.hex.is_none() && l.cp_used));
    }
}
