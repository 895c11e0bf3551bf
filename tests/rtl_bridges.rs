//! Bridge units of Roads to Leningrad (RTL-16.2) where the Soltsy data cannot show a rule in
//! a rule case: a lake hexside, a swamp hex with a route over water, a supply road crossing
//! water without a printed bridge (the tests change the map in memory), and a bridge's lack
//! of stacking value.

use umpire::engine::cases::CaseRuleset;
use umpire::geo::hex::HexId;
use umpire::rules::roads_to_leningrad::RoadsToLeningrad;
use umpire::rules::roads_to_leningrad::bridges::{place, sweep};
use umpire::rules::roads_to_leningrad::orders::BridgeOrder;
use umpire::rules::roads_to_leningrad::scenario::{Terrain, Water};
use umpire::rules::roads_to_leningrad::state::State;

fn state(extra: &str) -> State {
    let text = format!(
        "units:\n  - {{id: HQ-8pz, hex: \"2214\"}}\n  - {{id: I-10pz, hex: \"2014\"}}\n  - {{id: 68-rr, hex: \"1001\"}}\nactive: {{formation: 8pz, os: assault}}\n{extra}"
    );
    let v: yaml_serde::Value = yaml_serde::from_str(&text).expect("yaml");
    RoadsToLeningrad::case_state(&v).expect("case state")
}

fn order(hex: &str, toward: &str) -> BridgeOrder {
    BridgeOrder {
        unit: "Br-G".into(),
        hex: Some(hex.parse::<HexId>().expect("hex")),
        toward: Some(toward.parse::<HexId>().expect("hex")),
        off_map: false,
    }
}

/// RTL-16.21: never over a lake (the Soltsy data has no lake hexside: one is made here).
#[test]
fn no_bridge_on_a_lake() {
    let mut s = state("");
    let (a, b) = ("2114".parse::<HexId>().expect("hex"), "2015".parse::<HexId>().expect("hex"));
    s.scenario.water.insert(umpire::rules::roads_to_leningrad::scenario::pair(a, b), (Water::Lake, false));
    let errs = place(&mut s, "german", &[order("2114", "2015")]).expect_err("a lake is no stream or river");
    assert_eq!(errs[0].rule, "RTL-16.21", "{errs:?}");
}

/// RTL-16.24's exception: in swamp along a route the bridge goes (2114 made swamp here:
/// the trail crosses its unbridged 2114/2015 river hexside); off the route it does not.
#[test]
fn swamp_only_along_a_route() {
    let mut s = state("");
    s.scenario.terrain.insert("2114".parse::<HexId>().expect("hex"), Terrain::Swamp);
    place(&mut s.clone(), "german", &[order("2114", "2015")]).expect("the trail crosses 2114/2015");
    let errs = place(&mut s, "german", &[order("2114", "2115")]).expect_err("no route over 2114/2115");
    assert_eq!(errs[0].rule, "RTL-16.24", "{errs:?}");
}

/// RTL-6.22 with a bridge unit (16.21; the play booklet's note to 6.22): a supply road
/// crosses a stream or river only at a bridge, and a bridge unit is one. The Soltsy
/// roads cross water only at printed bridges, so the primary road's 2214/2113 hexside
/// is made an unbridged river here: the road north of it leaves the German network until
/// Br-G bridges it.
#[test]
fn supply_road_over_a_bridge_unit() {
    let mut s = state("");
    let (a, b) = ("2214".parse::<HexId>().expect("hex"), "2113".parse::<HexId>().expect("hex"));
    s.scenario.water.insert(umpire::rules::roads_to_leningrad::scenario::pair(a, b), (Water::River, false));
    let north = "2013".parse::<HexId>().expect("hex");
    assert!(!umpire::rules::roads_to_leningrad::supply::road_net(&s, "german", false).contains(&north), "cut by the unbridged river");
    place(&mut s, "german", &[order("2214", "2113")]).expect("placed");
    assert!(umpire::rules::roads_to_leningrad::supply::road_net(&s, "german", false).contains(&north), "the bridge unit carries the road");
}

/// RTL-16.26 does not touch a friendly unit's entry, and 3.31: a bridge has no stacking
/// value (it is not among the units at all).
#[test]
fn friends_leave_a_bridge_alone() {
    let mut s = state("bridges:\n  - {id: Br-G, hex: \"2014\", toward: \"2015\"}\n");
    assert!(sweep(&mut s).is_empty());
    assert!(s.bridges.iter().any(|b| b.id == "Br-G" && b.hex.is_some()));
    assert_eq!(umpire::rules::roads_to_leningrad::movement::stack_points(&s, "2014".parse::<HexId>().expect("hex"), "german"), 2);
}
