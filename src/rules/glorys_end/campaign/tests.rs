//! The campaign map and the Short Campaign scenario: every hex the rulebook names is at its
//! number, the Meuse boundary and the countries are where the rules need them, the bundled
//! deployment obeys GE 3.3 and the starting state is sound.

use super::super::map::{Country, Edge, Hexside, side_key};
use super::super::scenario::{MARNE_YAML, SHORT_CAMPAIGN_YAML, Scenario};
use super::*;
use crate::engine::{Ruleset, SeatInfo};
use crate::rules::glorys_end::GlorysEnd;

fn h(n: u16) -> HexId {
    hx(n)
}

fn seats() -> Vec<SeatInfo> {
    vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }]
}

/// Every place the digest names with a hex number (E.9, GE 3-17).
const NAMED: &[(&str, u16)] = &[
    ("Cologne", 1415),
    ("Antwerp", 1226),
    ("Brussels", 1525),
    ("Liege", 1621),
    ("Lille", 1632),
    ("Ostend", 1032),
    ("Dunkirk", 1335),
    ("Calais", 1337),
    ("Boulogne", 1439),
    ("Abbeville", 2038),
    ("Le Havre", 2244),
    ("Rouen", 2442),
    ("Verdun", 2822),
    ("Toul", 3320),
    ("Epinal", 3716),
    ("Belfort", 4115),
    ("Volgelsheim", 3912),
    ("Melun", 3334),
];

#[test]
fn every_named_place_is_at_its_number() {
    let s = Scenario::short_campaign();
    let m = &s.map;
    for (name, hex) in NAMED {
        assert_eq!(m.place_hexes(name), vec![h(*hex)], "{name}");
    }
    assert_eq!(m.place_hexes("Paris"), vec![h(3036), h(3037), h(3136)]);
    assert_eq!(m.paris_hexes(), vec![h(3036), h(3037), h(3136)]);
    // The French 4th Army's concentration area (GE 3.4) and the quoted adjacencies are on the map.
    for n in [3223, 1820, 1919, 1920] {
        assert!(m.contains(h(n)), "{n}");
    }
    // Ports (7.9) and the inland ports' access hexes.
    for p in [1032, 1335, 1337, 1439, 2244, 2442, 1226] {
        assert!(m.hex(h(p)).unwrap().port, "port {p}");
    }
    assert_eq!(m.port_access[&h(1226)], vec![h(1126), h(1127), h(1227)]);
    assert_eq!(m.port_access[&h(2442)], vec![h(2243), h(2244), h(2342), h(2343), h(2443)]);
    for c in [1032, 1335, 1337, 1439, 2244, 1839, 1939] {
        assert!(m.hex(h(c)).unwrap().coastal, "coastal {c}");
    }
    assert!(!m.hex(h(2442)).unwrap().coastal, "Rouen is an inland port");
    // The all-sea hexside of GE 12.3.
    assert_eq!(m.hexside(h(1839), h(1939)), Some(Hexside::AllSea));
    assert!(!m.passable(h(1839), h(1939)));
}

#[test]
fn countries_and_edges() {
    let s = Scenario::short_campaign();
    let m = &s.map;
    let c = |n: u16| m.hex(h(n)).unwrap().country;
    for (n, k) in [
        (1415, Country::Germany),
        (1525, Country::Belgium),
        (1226, Country::Belgium),
        (1621, Country::Belgium),
        (1032, Country::Belgium),
        (2518, Country::Luxembourg),
        (1632, Country::France),
        (2038, Country::France),
        (3036, Country::France),
        (2822, Country::France),
        (4115, Country::France),
        (3912, Country::Germany),
        (2918, Country::Germany),
    ] {
        assert_eq!(c(n), k, "{n}");
    }
    // East edge 1015-4111 (GE 7.3, 8.2), German throughout.
    assert!(m.is_edge(h(1015), Edge::East) && m.is_edge(h(4111), Edge::East));
    assert!(m.edge_hexes(Edge::East).all(|e| m.hex(e).unwrap().country == Country::Germany));
    // Allied edges: some French hexes on the west and south edges.
    assert!(m.edge_hexes(Edge::West).any(|e| m.hex(e).unwrap().country == Country::France));
    assert!(m.edge_hexes(Edge::South).any(|e| m.hex(e).unwrap().country == Country::France));
    // The Netherlands and Switzerland are on the map but never entered (GE 3.2).
    let board = super::super::board::Board::new(m.clone());
    let neutral: Vec<HexId> = m.hexes.iter().filter(|(_, i)| i.country.out_of_play()).map(|(h, _)| *h).collect();
    assert!(!neutral.is_empty());
    assert!(neutral.iter().all(|n| !board.in_play(*n)));
}

#[test]
fn the_meuse_boundary() {
    let s = Scenario::short_campaign();
    let m = &s.map;
    // GE 3.8: the boundary passes these hexsides.
    for (a, b) in [(1520, 1620), (3621, 3720), (3921, 3922)] {
        assert!(m.meuse.contains(&side_key(h(a), h(b))), "{a}/{b}");
    }
    let east = |n: u16| m.hex(h(n)).unwrap().east_of_meuse;
    for n in [1620, 1415, 2918, 3320, 3716, 4115, 3912] {
        assert!(east(n), "{n} should be east of the Meuse");
    }
    for n in [1621, 1525, 1632, 2822, 3036, 2244, 3223] {
        assert!(!east(n), "{n} should be west of the Meuse");
    }
    // The Meuse itself is a major river from Liege to the Meuse Line.
    assert_eq!(m.hexside(h(3621), h(3720)), Some(Hexside::MajorRiver));
}

#[test]
fn the_marne_mini_map_is_part_of_the_campaign_map() {
    let c = Scenario::short_campaign();
    let marne = Scenario::from_text(MARNE_YAML).unwrap();
    for (hex, info) in &marne.map.hexes {
        let ci = c.map.hex(*hex).expect("every Marne hex is on the campaign map");
        assert_eq!(ci.terrain, info.terrain, "{hex}");
        // Every Marne town is there; the campaign adds towns the mini-map leaves out.
        if info.place.is_some() {
            assert_eq!(ci.place, info.place, "{hex}");
        }
    }
    for (k, side) in &marne.map.hexsides {
        assert_eq!(c.map.hexsides.get(k), Some(side), "{}/{}", k.0, k.1);
    }
}

#[test]
fn the_bundled_deployment_obeys_3_3() {
    let s = Scenario::short_campaign();
    assert!(super::super::deploy::check(&s.map, &s.units, &s.mobilization).is_empty());
    // Break it: a German corps in France, a French corps in Belgium, two armies stacked.
    let mut units = s.units.clone();
    let de = units.iter().position(|u| u.id == "DE-2").unwrap();
    units[de].placement = super::super::scenario::Placement::Hex(h(2038));
    let fr = units.iter().position(|u| u.id == "FR-1").unwrap();
    units[fr].placement = super::super::scenario::Placement::Hex(h(1828));
    let fr12 = units.iter().position(|u| u.id == "FR-12").unwrap();
    let fr4hex = units.iter().find(|u| u.id == "FR-4").unwrap().start_hex().unwrap();
    units[fr12].placement = super::super::scenario::Placement::Hex(fr4hex);
    let all = super::super::deploy::check(&s.map, &units, &s.mobilization).join("\n");
    assert!(all.contains("DE-2: no German unit may start in France"), "{all}");
    assert!(all.contains("unit DE-2: starts at 2038"), "{all}");
    assert!(all.contains("FR-1: army units of the Allied side start in France"), "{all}");
    assert!(all.contains("different armies"), "{all}");
    // Neither Luxembourg nor Belgium: both missing-unit errors.
    let none: Vec<_> = s
        .units
        .iter()
        .filter(|u| {
            u.side != super::super::map::Side::German || u.start_hex().is_some_and(|x| s.map.hex(x).unwrap().country == Country::Germany)
        })
        .cloned()
        .collect();
    let all = super::super::deploy::check(&s.map, &none, &s.mobilization).join("\n");
    assert!(all.contains("at least one German unit must start in Luxembourg"), "{all}");
    assert!(all.contains("at least one German unit must start in Belgium"), "{all}");
}

#[test]
fn starting_state() {
    let st = GlorysEnd::setup(SHORT_CAMPAIGN_YAML, None, &seats()).expect("setup");
    GlorysEnd::check_invariants(&st).expect("invariants");
    assert_eq!((st.turn, st.last_turn), (1, 10));
    let c = st.campaign.as_deref().expect("campaign rules");
    assert!(c.short);
    assert_eq!(total(&st, SideId::Allied, false), -7);
    assert_eq!(total(&st, SideId::German, false), 0);
    // GE 4.7: Germany German, France Allied; Belgian hexes with German units German.
    assert_eq!(st.control(h(1415)), Some(SideId::German));
    assert_eq!(st.control(h(2038)), Some(SideId::Allied));
    assert_eq!(st.control(h(1525)), Some(SideId::Allied));
    // The Liege bottleneck is on while its fortress stands.
    assert!(liege_bottleneck(&st));
    // Everybody starts supplied (GE 7.3, 7.10: the Belgians from Brussels).
    let sup = SupplyAll::of(&st);
    for u in st.units.iter().filter(|u| u.hex().is_some() && u.mobile()) {
        assert!(sup.unit(u, Use::General), "{} at {:?} out of supply", u.id, u.hex());
    }
    let json = serde_json::to_string(&st).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, st);
}

#[test]
fn the_full_campaign_shares_map_and_setup() {
    let full = Scenario::from_text(super::super::scenario::CAMPAIGN_YAML).expect("campaign.yaml is valid");
    let short = Scenario::short_campaign();
    assert_eq!((full.turns.first, full.turns.last), (1, 30));
    assert!(full.campaign.as_ref().is_some_and(|c| !c.short));
    assert_eq!(full.map, short.map);
    for u in short.starting_units() {
        assert_eq!(full.unit(&u.id).and_then(|f| f.start_hex()), u.start_hex(), "{}", u.id);
    }
    // The Indian Corps: T24, south edge (GE 8.3).
    let ic = full.unit("GB-IC").and_then(|u| u.arrival()).expect("Indian Corps");
    assert_eq!((ic.turn, ic.entry), (24, super::super::scenario::Entry::Edge(Edge::South)));
    assert_eq!(full.replacements.grant(super::super::scenario::Nationality::GB, 29), 1);
}
