use super::*;
use crate::rules::glorys_end::map::{Edge, Hexside, PlaceKind, Terrain};

fn h(n: u32) -> HexId {
    format!("{n:04}").parse().unwrap()
}

fn marne() -> Scenario {
    Scenario::from_text(MARNE_YAML).unwrap_or_else(|e| panic!("marne.yaml does not load:\n{}", e.join("\n")))
}

/// The setup list of GE 16.2 (digest F.3): unit id, starting SL, hex.
const SETUP: [(&str, u8, u32); 46] = [
    // BEF
    ("GB-1", 4, 3334),
    ("GB-2", 3, 3235),
    ("GB-4D", 2, 3235),
    ("GB-19B", 1, 3235),
    ("GB-1CD", 2, 3333),
    // French
    ("FR-1C", 1, 3237),
    ("FR-9", 3, 3230),
    ("FR-18", 3, 3631),
    ("FR-4", 2, 3036),
    ("FR-42D", 2, 3130),
    ("FR-7CD", 1, 3224),
    ("FR-12", 3, 3326),
    ("FR-17", 3, 3327),
    ("FR-CO", 2, 3325),
    ("FR-9CD", 1, 3433),
    ("FR-1", 3, 3231),
    ("FR-2", 3, 3324),
    ("FR-3", 2, 3331),
    ("FR-10", 3, 3231),
    ("FR-11", 3, 3229),
    ("FR-4RG", 3, 3332),
    ("FR-5RG", 3, 2936),
    ("FR-45D", 2, 3037),
    ("FR-MD", 2, 2936),
    ("FR-61RD", 2, 3036),
    ("FR-62RD", 2, 3036),
    ("FR-4T", 2, 3136),
    ("FR-2C", 2, 3433),
    // German
    ("DE-1C", 1, 3232),
    ("DE-2C", 2, 3233),
    ("DE-3C", 2, 3124),
    ("DE-2", 3, 3133),
    ("DE-3", 2, 3232),
    ("DE-4", 2, 3233),
    ("DE-4R", 3, 2934),
    ("DE-9", 3, 3131),
    ("DE-GD", 2, 3129),
    ("DE-7", 3, 3131),
    ("DE-10", 2, 3030),
    ("DE-10R", 3, 3031),
    ("DE-12", 3, 3029),
    ("DE-12R", 3, 2928),
    ("DE-19", 3, 3027),
    ("DE-8", 3, 3226),
    ("DE-8R", 3, 3225),
    ("DE-18", 3, 3124),
];

#[test]
fn bundled_marne_loads_and_is_the_file_on_disk() {
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/glorys-end/marne.yaml")).unwrap();
    assert_eq!(MARNE_YAML, on_disk);
    let s = marne();
    assert_eq!(s, Scenario::marne());
    assert_eq!(s.name, "marne");
    assert_eq!((s.turns.first, s.turns.last, s.turns.first_player), (8, 12, Side::Allied));
}

#[test]
fn every_setup_unit_is_at_its_hex_and_sl() {
    let s = marne();
    assert_eq!(s.starting_units().count(), SETUP.len());
    for (id, sl, hex) in SETUP {
        let u = s.unit(id).unwrap_or_else(|| panic!("{id} missing"));
        assert_eq!(u.start_hex(), Some(h(hex)), "{id}");
        assert_eq!(u.start_sl, sl, "{id}");
        assert!(u.start_sl <= u.max_sl, "{id}");
    }
    assert_eq!(s.units_of(Side::German).filter(|u| u.start_hex().is_some()).count(), 18);
    assert_eq!(s.units.iter().filter(|u| u.nationality == Nationality::GB).count(), 5);
    assert_eq!(s.units.iter().filter(|u| u.nationality == Nationality::FR && u.start_hex().is_some()).count(), 23);
}

#[test]
fn reinforcements() {
    let s = marne();
    let t8: Vec<&str> = s.reinforcements_on(8).map(|u| u.id.as_str()).collect();
    let t10: Vec<&str> = s.reinforcements_on(10).map(|u| u.id.as_str()).collect();
    assert_eq!(t8, ["FR-7"]);
    assert_eq!(t10, ["DE-15", "DE-7R"]);
    for id in ["FR-7", "DE-15", "DE-7R"] {
        let u = s.unit(id).unwrap();
        assert_eq!(u.start_sl, 4);
        assert_eq!(u.arrival().unwrap().mode, EntryMode::Strategic);
    }
    assert_eq!(s.unit("FR-7").unwrap().arrival().unwrap().entry, Entry::Edge(Edge::South));
    assert_eq!(s.unit("DE-15").unwrap().arrival().unwrap().entry, Entry::Edge(Edge::North));
}

#[test]
fn unit_ids_names_and_values() {
    let s = marne();
    let mut names = BTreeSet::new();
    for u in &s.units {
        assert!(valid_id(&u.id), "{}", u.id);
        assert!(u.id.starts_with(u.nationality.code()));
        assert!(u.name.starts_with(u.nationality.code()), "{}", u.name);
        assert!(names.insert(u.name.clone()));
        assert_eq!(u.values.len(), u.max_sl as usize);
        assert_eq!(u.is_cavalry(), u.values.iter().all(|v| v.vs_cav.is_some()), "{}", u.id);
        let full = u.at(u.max_sl).unwrap();
        assert!(full.movement >= 4);
        if u.is_cavalry() {
            assert!((5..=6).contains(&full.movement), "{}", u.id);
        } else {
            assert_eq!(full.movement, 4, "{}", u.id);
        }
    }
    // GE 2.4 anchor: German 2 XXX at 4 SL is 6-7-4.
    assert_eq!(s.unit("DE-2").unwrap().at(4).unwrap().to_string(), "6-7-4");
    // French active corps at full strength: 5-4-4.
    assert_eq!(s.unit("FR-9").unwrap().at(4).unwrap().to_string(), "5-4-4");
    // Reserve groups defend more strongly than they attack.
    let g = s.unit("FR-4RG").unwrap();
    assert!(g.group && g.is_corps());
    assert!(g.values.iter().all(|v| v.defence > v.attack));
    // Cavalry: bracketed factor against cavalry only.
    let c = s.unit("DE-2C").unwrap().at(2).unwrap();
    assert!(c.attack_vs(true) > c.attack_vs(false));
    assert_eq!(s.unit("de 7 xxx"), None);
    assert_eq!(s.unit("de-7").unwrap().name, "DE 7 XXX");
    assert_eq!(s.unit("DE 7 XXX").unwrap().id, "DE-7");
}

#[test]
fn value_strings() {
    assert_eq!(parse_values("6-7-4").unwrap(), SlValues { attack: 6, defence: 7, movement: 4, vs_cav: None });
    let c = parse_values("(2)1-6").unwrap();
    assert_eq!((c.attack, c.defence, c.movement), (1, 1, 6));
    assert_eq!(c.vs_cav, Some(VsCav { attack: 2, defence: 2 }));
    assert_eq!(c.to_string(), "(2)1-6");
    let d = parse_values("(2-3)1-2-5").unwrap();
    assert_eq!(d.vs_cav, Some(VsCav { attack: 2, defence: 3 }));
    assert_eq!(d.to_string(), "(2-3)1-2-5");
    for bad in ["6-7", "a-b-c", "(2-6", "(1-2-3)1-1-1", "1-2-3-4", ""] {
        assert!(parse_values(bad).is_err(), "{bad}");
    }
}

#[test]
fn every_named_hex_is_on_the_map() {
    let s = marne();
    let m = &s.map;
    let mut named: Vec<HexId> = SETUP.iter().map(|(_, _, x)| h(*x)).collect();
    named.extend([2435, 2331, 2932, 2529, 2829, 2627].map(h));
    named.extend([3235, 3334, 3333, 3036, 3037, 3136].map(h));
    named.extend(s.forts.iter().map(|f| f.hex));
    named.extend(s.auto_win.iter().flat_map(|a| a.hexes.iter().copied()));
    named.extend(s.map.vp_hexes.keys().copied());
    for x in named {
        assert!(m.contains(x), "{x} is not on the map");
        // and it can be entered from some neighbour
        assert!(m.neighbours(x).iter().any(|(_, n)| m.entry_cost(*n, x).is_some()), "{x} cannot be entered");
    }
}

#[test]
fn setup_stacks_are_off_the_edges_with_room() {
    let s = marne();
    for u in s.starting_units() {
        let x = u.start_hex().unwrap();
        assert!(s.map.edges_of(x).is_empty(), "{} sets up on an edge at {x}", u.id);
        for e in Edge::ALL {
            let d = s.map.edge_hexes(e).map(|y| x.distance(y)).min().unwrap();
            assert!(d >= 2, "{} at {x} is {d} from the {e:?} edge", u.id);
        }
    }
}

#[test]
fn map_is_connected() {
    let s = marne();
    let all = s.map.reachable_from(h(3036));
    assert_eq!(all.len(), s.map.hexes.len());
    assert!(s.map.hexes.len() >= 17 * 21);
}

#[test]
fn paris_melun_and_control() {
    let s = marne();
    let m = &s.map;
    assert_eq!(m.paris_hexes(), vec![h(3036), h(3037), h(3136)]);
    assert_eq!(m.place_hexes("Paris"), vec![h(3036), h(3037), h(3136)]);
    assert_eq!(m.place(h(3036)).unwrap().kind, PlaceKind::City);
    assert_eq!(m.terrain_drm(h(3136)), -1);
    assert_eq!(m.find_place("Melun"), Some(h(3334)));
    assert!(!m.is_paris(h(3334)));
    assert_eq!(s.forts.len(), 3);
    assert!(s.forts.iter().all(|f| m.is_paris(f.hex)));
    assert_eq!(s.auto_win[0].side, Side::German);
    assert_eq!(s.auto_win[0].hexes, vec![h(3036), h(3037), h(3136), h(3334)]);
    for x in [2435, 2331, 2932, 2529, 2829, 2627] {
        assert_eq!(s.initial_controller(h(x)), Side::German, "{x}");
    }
    assert_eq!(s.initial_controller(h(3131)), Side::German); // occupied by German units
    assert_eq!(s.initial_controller(h(3036)), Side::Allied);
    assert_eq!(s.initial_controller(h(2222)), Side::Allied);
    assert_eq!(s.out_of_command, [3235, 3334, 3333].map(h).into_iter().collect());
    // Paris in Danger perimeter (representative): Paris and the ring two hexes round it.
    assert!(m.paris_hexes().iter().all(|p| m.in_paris_danger_zone(*p)));
    assert!(m.in_paris_danger_zone(h(2934)));
    assert!(!m.in_paris_danger_zone(h(3334)));
    assert!(!m.in_paris_danger_zone(h(3131)));
}

#[test]
fn victory_and_replacements() {
    let s = marne();
    let towns: BTreeMap<&str, u32> = s.victory.towns.iter().map(|t| (t.name.as_str(), t.value)).collect();
    assert_eq!(towns.len(), 7);
    assert_eq!(towns["Laon"], 2);
    assert_eq!(towns["Rethel"], 2);
    assert_eq!(towns["Chateau-Thierry"], 1);
    assert_eq!(s.map.vp_hexes.len(), 7);
    assert!(s.map.vp_hexes.values().all(|v| v.side == Side::Allied));
    let reims = s.map.find_place("Reims").unwrap();
    assert_eq!(s.map.vp_hex(reims).unwrap().value, 1);
    // Reims is about 8 hexes east-north-east of Paris.
    assert!((7..=10).contains(&reims.distance(h(3036))));
    assert!(reims.col < 30 && reims.row < 30);
    assert_eq!(s.replacements.start[&Nationality::FR], 3);
    assert_eq!(s.replacements.grant(Nationality::FR, 8), 0);
    assert_eq!(s.replacements.grant(Nationality::FR, 9), 3);
    assert_eq!(s.replacements.grant(Nationality::DE, 12), 3);
    assert_eq!(s.replacements.grant(Nationality::GB, 10), 0);
    assert!(!s.replacements.rebuild_eliminated);
    assert!(s.special.skip_first_command_check);
    assert!(s.off_map_counts_as_eliminated(Side::German, Edge::East));
    assert!(!s.off_map_counts_as_eliminated(Side::Allied, Edge::East));
}

#[test]
fn geography() {
    let s = marne();
    let m = &s.map;
    for x in [3129, 3229, 3230] {
        assert_eq!(m.hex(h(x)).unwrap().terrain, Terrain::Swamp, "{x}");
    }
    // The Marne is a major river all along and passes the Marne towns.
    let marne: Vec<(HexId, HexId)> = m.river_names.iter().filter(|(_, n)| *n == "Marne").map(|(k, _)| *k).collect();
    assert!(marne.len() > 20);
    assert!(marne.iter().all(|k| m.hexsides[k] == Hexside::MajorRiver));
    for town in ["Vitry", "Chalons", "Epernay", "Chateau-Thierry", "Meaux"] {
        let t = m.find_place(town).unwrap();
        assert!(marne.iter().any(|(a, b)| *a == t || *b == t), "{town} is not on the Marne");
    }
    let melun = h(3334);
    assert!(m.river_names.iter().any(|((a, b), n)| n == "Seine" && (*a == melun || *b == melun)));
    for river in ["Aisne", "Seine", "Ourcq", "Petit Morin", "Grand Morin", "Aube"] {
        assert!(m.river_names.values().any(|n| n == river), "{river}");
    }
    assert!(m.hexes.values().any(|i| i.terrain == Terrain::Forest));
    assert!(m.hexes.values().any(|i| i.terrain == Terrain::Hills));
    // Crossing the Marne costs 1 extra MP and gives −1 to the roll.
    let (a, b) = marne[0];
    assert_eq!(m.entry_cost(a, b), Some(m.hex(b).unwrap().terrain.mp() + 1));
    assert_eq!(m.river_drm(a, b), -1);
    // Edges and supply.
    assert!(s.is_supply_edge(Side::German, h(2130)));
    assert!(!s.is_supply_edge(Side::German, h(3930)));
    assert!(s.is_supply_edge(Side::Allied, h(3930)));
    assert!(m.is_edge(h(3020), Edge::East));
    assert!(m.is_edge(h(3041), Edge::West));
}

#[test]
fn scenario_round_trips_through_json_and_has_a_schema() {
    let s = marne();
    let j = serde_json::to_string(&s).unwrap();
    let back: Scenario = serde_json::from_str(&j).unwrap();
    assert_eq!(back, s);
    let schema = serde_json::to_string(&schema()).unwrap();
    assert!(schema.contains("ScenarioFile") || schema.contains("units"));
}

/// Load a copy of the Marne file with one text substitution.
fn broken(from: &str, to: &str) -> Vec<String> {
    broken_many(&[(from, to)])
}

/// Load a copy of the Marne file with several substitutions.
fn broken_many(subs: &[(&str, &str)]) -> Vec<String> {
    let mut text = MARNE_YAML.to_string();
    for (from, to) in subs {
        assert!(text.contains(from), "test fixture: {from:?} not in marne.yaml");
        text = text.replacen(from, to, 1);
    }
    match Scenario::from_text(&text) {
        Ok(_) => panic!("a scenario with {subs:?} should be rejected"),
        Err(e) => e,
    }
}

fn expect(errs: Vec<String>, needle: &str) {
    assert!(errs.iter().any(|e| e.contains(needle)), "no error containing {needle:?} in:\n{}", errs.join("\n"));
}

#[test]
fn rejects_duplicate_unit_id() {
    expect(broken("{id: DE-8R,", "{id: DE-8,"), "unit DE-8: duplicate unit id");
}

#[test]
fn rejects_unit_off_map() {
    expect(broken("sl: 3, hex: 3124}", "sl: 3, hex: 5050}"), "setup hex 5050 is not on the map");
}

#[test]
fn rejects_overstacking() {
    // Three corps in 3131.
    expect(broken("sl: 3, hex: 3029}", "sl: 3, hex: 3131}"), "hex 3131: German setup is overstacked: 3 corps");
    // 10 SL in 3036.
    expect(
        broken_many(&[("sl: 2, hex: 3037}", "sl: 2, hex: 3036}"), ("sl: 2, hex: 2936}", "sl: 2, hex: 3036}")]),
        "hex 3036: Allied setup is overstacked: 10 SL",
    );
}

#[test]
fn rejects_bad_unit_values() {
    expect(broken("\"6-7-4\"], sl: 3, hex: 3133", "\"6-7\"], sl: 3, hex: 3133"), "unit DE-2: SL 4: \"6-7\" is not a value string");
    expect(
        broken(
            "max_sl: 4, values: [\"2-2-4\", \"3-4-4\", \"5-5-4\", \"6-7-4\"], sl: 3, hex: 3133",
            "max_sl: 2, values: [\"2-2-4\", \"3-4-4\"], sl: 3, hex: 3133",
        ),
        "unit DE-2: starting SL 3 must be 1 to max_sl 2",
    );
    expect(broken("side: german, nationality: DE", "side: allied, nationality: DE"), "fights on the German side");
    expect(
        broken(
            "values: [\"(1)1-6\", \"(2)1-6\", \"(3)2-6\"], sl: 1, hex: 3232",
            "values: [\"1-1-6\", \"(2)1-6\", \"(3)2-6\"], sl: 1, hex: 3232",
        ),
        "cavalry SL 1 needs a bracketed",
    );
    expect(broken("{id: DE-7,", "{id: DE7,"), "must look like DE-7");
}

#[test]
fn rejects_unknown_names_and_fields() {
    expect(broken("{name: Laon, side: allied", "{name: Atlantis, side: allied"), "victory town \"Atlantis\": no such place");
    expect(broken("german: [2435,", "german: [9999,"), "control: German marker hex 9999 is not on the map");
    expect(broken("title:", "colour: red\ntitle:"), "unknown field `colour`");
    expect(broken("type: infantry", "type: artillery"), "cannot parse the scenario");
    expect(broken("out_of_command: [3235,", "out_of_command: [2222,"), "out_of_command: hex 2222 holds no units");
}

#[test]
fn rejects_mixed_nationalities_and_non_french_in_paris() {
    expect(broken("sl: 1, hex: 3235}", "sl: 1, hex: 3036}"), "Allied nationalities may not stack");
    expect(broken("sl: 1, hex: 3235}", "sl: 1, hex: 3036}"), "unit GB-19B: only French units may end in Paris hex 3036");
}

#[test]
fn rejects_broken_map_text() {
    expect(broken("\n    21 . ", "\n    21 x "), "unknown terrain letter 'x'");
    expect(broken("hexsides: >-\n        ", "hexsides: >-\n        3036/3038 "), "3036 and 3038 are not adjacent");
}
