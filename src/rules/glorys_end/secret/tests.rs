//! Unit tests of the secret setup.

use super::*;
use crate::engine::{Ruleset, SeatInfo};
use crate::rules::glorys_end::GlorysEnd;

fn seats() -> Vec<SeatInfo> {
    vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }]
}

fn secret_short() -> State {
    let opts: yaml_serde::Value = yaml_serde::from_str("secret_setup: true").unwrap();
    GlorysEnd::setup(crate::rules::glorys_end::scenario::SHORT_CAMPAIGN_YAML, Some(&opts), &seats()).expect("setup")
}

#[test]
fn the_bundled_setup_is_a_legal_plan() {
    let s = secret_short();
    for side in [SideId::Allied, SideId::German] {
        let mut d = Dice::from_seed(&crate::crypto::Hash([7; 32]));
        let p = bot_plan(&s, side, &mut d);
        assert!(!p.units.is_empty());
        assert_eq!(check_plan(&s, side, &p), vec![], "{side:?}");
    }
}

fn free() -> State {
    GlorysEnd::setup(crate::rules::glorys_end::scenario::FREE_DEPLOYMENT_YAML, None, &seats()).expect("setup")
}

#[test]
fn the_free_deployment_default_plan_is_legal() {
    let s = free();
    assert!(s.secret.as_ref().is_some_and(|x| x.free));
    for side in [SideId::Allied, SideId::German] {
        let mut d = Dice::from_seed(&crate::crypto::Hash([9; 32]));
        let p = bot_plan(&s, side, &mut d);
        assert_eq!(check_plan(&s, side, &p), vec![], "{side:?}");
        assert!(!p.markers.is_empty());
    }
}

/// Prints the default plans (used to write the rule cases): `cargo test print_default_plans -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_default_plans() {
    for (name, s) in [("historical", secret_short()), ("free", free())] {
        for side in [SideId::Allied, SideId::German] {
            println!("PLAN {name} {} {}", side.name(), default_plan(&s, side).to_value());
        }
    }
    let s = secret_short();
    let sec = s.secret.as_ref().unwrap();
    println!("MARKERS {}", serde_json::to_string(&sec.markers).unwrap());
    println!("ARMIES {}", serde_json::to_string(&sec.armies).unwrap());
}

#[test]
fn hidden_stacks_show_the_top_unit() {
    let opts: yaml_serde::Value = yaml_serde::from_str("{}").unwrap();
    let s = GlorysEnd::setup(crate::rules::glorys_end::scenario::SHORT_CAMPAIGN_YAML, Some(&opts), &seats()).expect("setup");
    assert!(s.secret.is_none());
    // A German stack of two corps (the bundled setup has several).
    let h = s
        .units
        .iter()
        .filter_map(|u| u.hex().filter(|_| u.side == SideId::German && u.mobile()))
        .find(|h| s.units_at(*h).filter(|u| u.mobile()).count() >= 2);
    let h = h.expect("a German stack");
    let ids: Vec<String> = s.units_at(h).filter(|u| u.mobile()).map(|u| u.id.clone()).collect();
    let allied = GlorysEnd::view(&s, "allied");
    let seen: Vec<String> = allied.units_at(h).filter(|u| u.mobile()).map(|u| u.id.clone()).collect();
    assert_eq!(seen, vec![ids[0].clone()], "only the top unit");
    let german = GlorysEnd::view(&s, "german");
    assert_eq!(german.units_at(h).filter(|u| u.mobile()).count(), ids.len(), "the owner sees his whole stack");
    assert!(!GlorysEnd::describe(&allied).contains(&format!("unit {} ", ids[1])));
    // Under a declared attack the defenders are shown.
    let mut under = s.clone();
    under.battle = Some(crate::rules::glorys_end::state::Battle {
        kind: crate::rules::glorys_end::state::BattleKind::Prepared,
        attacker: SideId::Allied,
        target: h,
        attackers: vec![],
        defenders: ids.clone(),
        stragglers: vec![],
        attack: 0,
        defence: 0,
        odds: crate::rules::glorys_end::tables::Odds::Automatic,
        odds_text: String::new(),
        drm: 0,
        drm_parts: vec![],
        fortress: false,
        stage: crate::rules::glorys_end::state::Stage::Roll,
        result: None,
        withdrawn: false,
        dummies: false,
        stood: false,
        siege: vec![],
        opening: false,
    });
    let v = GlorysEnd::view(&under, "allied");
    assert_eq!(v.units_at(h).filter(|u| u.mobile()).count(), ids.len());
}

#[test]
fn a_view_shows_the_other_plan_only_once_opened() {
    let mut s = secret_short();
    let mut d = Dice::from_seed(&crate::crypto::Hash([3; 32]));
    let p = bot_plan(&s, SideId::German, &mut d);
    s.secret.as_mut().unwrap().plans.insert(SideId::German, p.clone());
    assert!(GlorysEnd::view(&s, "allied").secret.unwrap().plans.is_empty());
    assert_eq!(GlorysEnd::view(&s, "german").secret.unwrap().plans.get(&SideId::German), Some(&p));
    assert!(GlorysEnd::describe(&GlorysEnd::view(&s, "german")).contains("known to this view"));
}

#[test]
fn the_bot_can_leave_belgium_and_luxembourg_neutral_and_invade_the_netherlands() {
    let s = free();
    let base = default_plan(&s, SideId::German);
    assert_eq!(super::super::neutrality::of_plan(&s, &base), Default::default());
    for c in [Country::Belgium, Country::Luxembourg] {
        let p = leave_neutral(&s, base.clone(), c);
        assert_eq!(check_plan(&s, SideId::German, &p), vec![], "{c:?}");
        let ch = super::super::neutrality::of_plan(&s, &p);
        assert!(if c == Country::Belgium { ch.belgium_neutral } else { ch.luxembourg_neutral }, "{c:?}");
    }
    let p = invade_netherlands(&s, base.clone());
    assert_eq!(check_plan(&s, SideId::German, &p), vec![]);
    assert!(super::super::neutrality::of_plan(&s, &p).netherlands_invaded);
    // Over many seeds the bot's German plan makes each choice at least once.
    let (mut bel, mut lux, mut nl) = (0, 0, 0);
    for seed in 0..40u8 {
        let mut d = Dice::from_seed(&crate::crypto::Hash([seed; 32]));
        let p = bot_plan(&s, SideId::German, &mut d);
        assert_eq!(check_plan(&s, SideId::German, &p), vec![]);
        let ch = super::super::neutrality::of_plan(&s, &p);
        bel += ch.belgium_neutral as u32;
        lux += ch.luxembourg_neutral as u32;
        nl += ch.netherlands_invaded as u32;
    }
    assert!(bel > 0 && lux > 0 && nl > 0, "belgium {bel} luxembourg {lux} netherlands {nl}");
}

/// Prints German free-deployment plans that make each GE 3.6 choice (used to write the rule
/// cases): `cargo test print_neutrality_plans -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_neutrality_plans() {
    let s = free();
    let base = default_plan(&s, SideId::German);
    println!("PLAN base {}", base.to_value());
    println!("PLAN belgium {}", leave_neutral(&s, base.clone(), Country::Belgium).to_value());
    println!("PLAN luxembourg {}", leave_neutral(&s, base.clone(), Country::Luxembourg).to_value());
    println!("PLAN netherlands {}", invade_netherlands(&s, base.clone()).to_value());
    let both = leave_neutral(&s, leave_neutral(&s, base.clone(), Country::Belgium), Country::Luxembourg);
    println!("PLAN both {}", both.to_value());
}
