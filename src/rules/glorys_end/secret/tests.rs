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
