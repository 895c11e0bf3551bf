//! The scenario file (`scenarios/first-world-war/*.yaml`): the raw shape as written, and the
//! checked [`Data`] the rules read. A parsed file is not a playable scenario: [`check`] turns
//! one into the other or lists every problem.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::ScenarioError;

/// A faction (the unit of play, TFWW 3.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Faction {
    WesternAllies,
    EasternAllies,
    Germany,
    GermanAllies,
}

impl Faction {
    /// All four, in a fixed order (GA, EA, WA, GER: the order of surrender rolls, F.3).
    pub const ALL: [Faction; 4] = [Faction::GermanAllies, Faction::EasternAllies, Faction::WesternAllies, Faction::Germany];
    /// The alliance id (`allies`, `central_powers`), which is also the seat side.
    pub fn alliance(self) -> &'static str {
        match self {
            Faction::WesternAllies | Faction::EasternAllies => "allies",
            Faction::Germany | Faction::GermanAllies => "central_powers",
        }
    }
    /// The id as written in files and seats.
    pub fn id(self) -> &'static str {
        match self {
            Faction::WesternAllies => "western_allies",
            Faction::EasternAllies => "eastern_allies",
            Faction::Germany => "germany",
            Faction::GermanAllies => "german_allies",
        }
    }
    /// Short code for describe lines.
    pub fn code(self) -> &'static str {
        match self {
            Faction::WesternAllies => "WA",
            Faction::EasternAllies => "EA",
            Faction::Germany => "GER",
            Faction::GermanAllies => "GA",
        }
    }
    /// From the id.
    pub fn from_id(s: &str) -> Option<Faction> {
        Faction::ALL.into_iter().find(|f| f.id() == s)
    }
    /// Whether two factions are enemies.
    pub fn enemy_of(self, other: Faction) -> bool {
        self.alliance() != other.alliance()
    }
    /// The partner faction in the same alliance.
    pub fn partner(self) -> Faction {
        match self {
            Faction::WesternAllies => Faction::EasternAllies,
            Faction::EasternAllies => Faction::WesternAllies,
            Faction::Germany => Faction::GermanAllies,
            Faction::GermanAllies => Faction::Germany,
        }
    }
}

/// How a chit may be used (TFWW 6.2: red number, white number, or 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChitUse {
    Attack,
    Defence,
    Either,
}

/// The raw file.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    pub title: String,
    pub source: String,
    pub die_faces: Vec<String>,
    pub turns: u8,
    pub turn_years: BTreeMap<u8, u16>,
    pub start_vp: u32,
    pub hand_limit: usize,
    pub deployment_order: Vec<Faction>,
    pub round_order: Vec<Faction>,
    pub factions: BTreeMap<Faction, RawFaction>,
    pub fronts: BTreeMap<u8, RawFront>,
    pub armies: Vec<RawArmy>,
    #[serde(default)]
    pub historical_setup: BTreeMap<u8, Vec<String>>,
    pub chits: Vec<RawChit>,
}

/// A faction's data.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFaction {
    pub alliance: String,
    pub nationalities: Vec<String>,
    pub replacement_base: u32,
    pub garrison: Vec<u8>,
    pub dummies: u32,
}

/// A front as written.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFront {
    pub name: String,
    pub theatre: String,
    pub x: i32,
    pub y: i32,
    pub adjacent: Vec<u8>,
    pub allow: Vec<String>,
    pub cities: Vec<RawCity>,
    /// `[from, to]` or `[from, to, open_from_turn]`.
    #[schemars(with = "Vec<Vec<serde_json::Value>>")]
    pub lines: Vec<Vec<yaml_serde::Value>>,
}

/// A victory city as written.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCity {
    pub name: String,
    pub owner: Faction,
    pub by: Faction,
    #[serde(default)]
    pub rc: bool,
}

/// An army as written.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawArmy {
    pub id: String,
    pub nat: String,
    pub value: u32,
    pub entry: u8,
    #[serde(default)]
    pub faction: Option<Faction>,
}

/// A chit as written.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChit {
    pub id: String,
    pub name: String,
    pub alliance: String,
    #[serde(rename = "use")]
    pub use_: ChitUse,
    pub value: i32,
    pub nations: Vec<String>,
    pub year: u16,
    #[serde(default)]
    pub mandatory: bool,
}

/// A node of a front's attack-line graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Node {
    City(usize),
    Base(Faction),
}

/// A checked front.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Front {
    pub id: u8,
    pub name: String,
    pub theatre: String,
    pub x: i32,
    pub y: i32,
    pub adjacent: Vec<u8>,
    pub allow: Vec<String>,
    /// Indices into [`Data::cities`].
    pub cities: Vec<usize>,
    pub bases: Vec<Faction>,
    /// Attack lines: (a, b, open from turn).
    pub lines: Vec<(Node, Node, u8)>,
}

/// A checked city.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct City {
    pub name: String,
    pub front: u8,
    pub owner: Faction,
    pub by: Faction,
    pub rc: bool,
}

/// A checked army.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    pub id: String,
    pub nat: String,
    pub value: u32,
    pub entry: u8,
    pub faction: Faction,
    /// Named extra (ITB, BR-MEF, FR-OR): allowed only where its name is listed.
    pub named: bool,
}

/// A checked chit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chit {
    pub id: String,
    pub name: String,
    pub alliance: String,
    pub use_: ChitUse,
    pub value: i32,
    pub nations: Vec<String>,
    pub year: u16,
    pub mandatory: bool,
}

/// The checked scenario: everything the rules read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Data {
    pub name: String,
    pub title: String,
    /// Die faces by face index; 0 stands for S.
    pub die_faces: Vec<u32>,
    pub turns: u8,
    pub turn_years: BTreeMap<u8, u16>,
    pub start_vp: u32,
    pub hand_limit: usize,
    pub deployment_order: Vec<Faction>,
    pub round_order: Vec<Faction>,
    pub factions: BTreeMap<Faction, RawFaction>,
    pub fronts: BTreeMap<u8, Front>,
    pub cities: Vec<City>,
    pub armies: Vec<Army>,
    pub historical_setup: BTreeMap<u8, Vec<usize>>,
    pub chits: Vec<Chit>,
}

/// The names of the extra EA armies charged to WA capacity (TFWW 7.2).
pub const EXTRAS: [&str; 3] = ["ITB", "BR-MEF", "FR-OR"];
/// German-controlled fronts (TFWW 5.1).
pub const GA_FRONTS: [u8; 5] = [5, 6, 9, 10, 11];

impl Data {
    /// Index of an army by id.
    pub fn army(&self, id: &str) -> Option<usize> {
        self.armies.iter().position(|a| a.id == id)
    }
    /// Index of a city by name.
    pub fn city(&self, name: &str) -> Option<usize> {
        self.cities.iter().position(|c| c.name == name)
    }
    /// Index of a chit by id.
    pub fn chit(&self, id: &str) -> Option<usize> {
        self.chits.iter().position(|c| c.id == id)
    }
    /// Year of a turn (TFWW 4.2/5).
    pub fn year(&self, turn: u8) -> u16 {
        self.turn_years.get(&turn).copied().unwrap_or(0)
    }
    /// Whether `army` is on a front's printed list (2.1), ignoring the turn gates.
    pub fn listed(&self, army: usize, front: u8) -> bool {
        let a = &self.armies[army];
        self.fronts.get(&front).is_some_and(|f| if a.named { f.allow.contains(&a.id) } else { f.allow.contains(&a.nat) })
    }
}

fn node(v: &yaml_serde::Value, names: &BTreeMap<String, usize>, front: u8, errs: &mut Vec<String>) -> Option<Node> {
    let Some(s) = v.as_str() else {
        errs.push(format!("front {front}: a line end must be a city name or base:<faction>"));
        return None;
    };
    if let Some(f) = s.strip_prefix("base:") {
        return match Faction::from_id(f) {
            Some(f) => Some(Node::Base(f)),
            None => {
                errs.push(format!("front {front}: unknown base faction {f:?}"));
                None
            }
        };
    }
    match names.get(s) {
        Some(i) => Some(Node::City(*i)),
        None => {
            errs.push(format!("front {front}: line names {s:?}, which is not a city of this front"));
            None
        }
    }
}

/// Parse and check a scenario text.
pub fn parse(text: &str) -> Result<Data, ScenarioError> {
    let raw: RawScenario =
        crate::log::yamlscan::from_str(text).map_err(|e| ScenarioError { problems: vec![format!("cannot parse: {e}")] })?;
    check(raw)
}

/// Check a raw scenario: every problem at once.
pub fn check(raw: RawScenario) -> Result<Data, ScenarioError> {
    let mut errs = Vec::new();
    let mut die_faces = Vec::new();
    for f in &raw.die_faces {
        match f.as_str() {
            "S" => die_faces.push(0),
            n => match n.parse::<u32>() {
                Ok(v) if v > 0 => die_faces.push(v),
                _ => errs.push(format!("die_faces: {n:?} is neither S nor a positive number")),
            },
        }
    }
    if die_faces.len() != 6 || die_faces.iter().filter(|&&v| v == 0).count() != 1 {
        errs.push("die_faces: a six-sided die with exactly one S face (TFWW 2.4)".into());
    }
    if raw.turns == 0 {
        errs.push("turns: at least 1".into());
    }
    for t in 1..=raw.turns {
        if !raw.turn_years.contains_key(&t) {
            errs.push(format!("turn_years: turn {t} has no year"));
        }
    }
    for (what, order) in [("deployment_order", &raw.deployment_order), ("round_order", &raw.round_order)] {
        let set: BTreeSet<_> = order.iter().collect();
        if order.len() != 4 || set.len() != 4 {
            errs.push(format!("{what}: each of the four factions once"));
        }
    }
    for f in Faction::ALL {
        match raw.factions.get(&f) {
            None => errs.push(format!("factions: {} missing", f.id())),
            Some(d) if d.alliance != f.alliance() => errs.push(format!("factions: {} belongs to {}", f.id(), f.alliance())),
            _ => {}
        }
    }
    let mut cities = Vec::new();
    let mut fronts = BTreeMap::new();
    let mut seen_city = BTreeSet::new();
    for (&id, rf) in &raw.fronts {
        let mut names = BTreeMap::new();
        let mut idx = Vec::new();
        for c in &rf.cities {
            if !seen_city.insert(c.name.clone()) {
                errs.push(format!("city {} appears twice", c.name));
            }
            if !c.owner.enemy_of(c.by) {
                errs.push(format!("city {}: captured by {}, not an enemy of its owner", c.name, c.by.id()));
            }
            names.insert(c.name.clone(), cities.len());
            idx.push(cities.len());
            cities.push(City { name: c.name.clone(), front: id, owner: c.owner, by: c.by, rc: c.rc });
        }
        let mut lines = Vec::new();
        let mut bases = Vec::new();
        for l in &rf.lines {
            if !(2..=3).contains(&l.len()) {
                errs.push(format!("front {id}: a line is [from, to] or [from, to, turn]"));
                continue;
            }
            let a = node(&l[0], &names, id, &mut errs);
            let b = node(&l[1], &names, id, &mut errs);
            let open = if l.len() == 3 { l[2].as_u64().and_then(|t| u8::try_from(t).ok()).unwrap_or(0) } else { 1 };
            if l.len() == 3 && open == 0 {
                errs.push(format!("front {id}: a neutral line's turn must be a number"));
            }
            if let (Some(a), Some(b)) = (a, b) {
                for n in [&a, &b] {
                    if let Node::Base(f) = n
                        && !bases.contains(f)
                    {
                        bases.push(*f);
                    }
                }
                lines.push((a, b, open));
            }
        }
        for a in &rf.adjacent {
            match raw.fronts.get(a) {
                None => errs.push(format!("front {id}: adjacent front {a} does not exist")),
                Some(o) if o.theatre != rf.theatre => errs.push(format!("front {id}: adjacent front {a} is in another theatre (TFWW 5.0)")),
                Some(o) if !o.adjacent.contains(&id) => errs.push(format!("front {id}: adjacency with {a} is one-way")),
                _ => {}
            }
        }
        fronts.insert(
            id,
            Front {
                id,
                name: rf.name.clone(),
                theatre: rf.theatre.clone(),
                x: rf.x,
                y: rf.y,
                adjacent: rf.adjacent.clone(),
                allow: rf.allow.clone(),
                cities: idx,
                bases,
                lines,
            },
        );
    }
    let mut armies = Vec::new();
    let mut seen = BTreeSet::new();
    for a in &raw.armies {
        if !seen.insert(a.id.clone()) {
            errs.push(format!("army {} appears twice", a.id));
        }
        if a.value > 3 {
            errs.push(format!("army {}: combat value {} is not 0-3 (TFWW 2.2)", a.id, a.value));
        }
        if a.entry == 0 || a.entry > raw.turns {
            errs.push(format!("army {}: entry turn {} outside the game", a.id, a.entry));
        }
        let faction = a.faction.or_else(|| raw.factions.iter().find(|(_, d)| d.nationalities.contains(&a.nat)).map(|(f, _)| *f));
        let Some(faction) = faction else {
            errs.push(format!("army {}: no faction has nationality {}", a.id, a.nat));
            continue;
        };
        let named = EXTRAS.contains(&a.id.as_str());
        armies.push(Army { id: a.id.clone(), nat: a.nat.clone(), value: a.value, entry: a.entry, faction, named });
    }
    let mut historical_setup = BTreeMap::new();
    for (front, list) in &raw.historical_setup {
        let mut v = Vec::new();
        for id in list {
            match armies.iter().position(|a| &a.id == id) {
                Some(i) if armies[i].entry == 1 => v.push(i),
                Some(_) => errs.push(format!("historical_setup: {id} does not enter on turn 1")),
                None => errs.push(format!("historical_setup: unknown army {id}")),
            }
        }
        if !fronts.contains_key(front) {
            errs.push(format!("historical_setup: front {front} does not exist"));
        }
        historical_setup.insert(*front, v);
    }
    let mut chits = Vec::new();
    let mut seen = BTreeSet::new();
    for c in &raw.chits {
        if !seen.insert(c.id.clone()) {
            errs.push(format!("chit {} appears twice", c.id));
        }
        if c.alliance != "allies" && c.alliance != "central_powers" {
            errs.push(format!("chit {}: alliance must be allies or central_powers", c.id));
        }
        if (c.use_ == ChitUse::Either) != (c.value == 0) {
            errs.push(format!("chit {}: a 0 chit is usable either way, and only a 0 chit (TFWW 6.2)", c.id));
        }
        chits.push(Chit {
            id: c.id.clone(),
            name: c.name.clone(),
            alliance: c.alliance.clone(),
            use_: c.use_,
            value: c.value,
            nations: c.nations.clone(),
            year: c.year,
            mandatory: c.mandatory,
        });
    }
    if !errs.is_empty() {
        return Err(ScenarioError { problems: errs });
    }
    Ok(Data {
        name: raw.name,
        title: raw.title,
        die_faces,
        turns: raw.turns,
        turn_years: raw.turn_years,
        start_vp: raw.start_vp,
        hand_limit: raw.hand_limit,
        deployment_order: raw.deployment_order,
        round_order: raw.round_order,
        factions: raw.factions,
        fronts,
        cities,
        armies,
        historical_setup,
        chits,
    })
}

/// The JSON Schema of the scenario file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(RawScenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: &str = include_str!("../../../scenarios/first-world-war/standard.yaml");

    #[test]
    fn the_bundled_scenario_is_complete() {
        let d = parse(STANDARD).expect("the bundled scenario checks");
        assert_eq!(d.fronts.len(), 11);
        assert_eq!(d.cities.len(), 46, "46 victory cities (TFWW 2.1)");
        assert_eq!(d.armies.len(), 72, "72 real armies (TFWW 2.0)");
        assert_eq!(d.factions.values().map(|f| f.dummies).sum::<u32>(), 24, "24 dummies");
        assert_eq!(d.chits.len(), 30, "30 chits, 15 per alliance (TFWW 6.2)");
        assert_eq!(d.chits.iter().filter(|c| c.alliance == "allies").count(), 15);
        let rc = |f: Faction| d.cities.iter().filter(|c| c.owner == f && c.rc).count() as u32;
        for f in Faction::ALL {
            assert_eq!(rc(f), d.factions[&f].replacement_base, "{}: one replacement centre per point of capacity (7.0, 7.1)", f.id());
        }
        let mandatory: Vec<&str> = d.chits.iter().filter(|c| c.mandatory).map(|c| c.name.as_str()).collect();
        assert_eq!(mandatory, ["Pantalons Rouges", "Shell Shortage", "Kaisertreu", "Ludendorff"]);
    }

    #[test]
    fn a_broken_file_lists_every_problem() {
        let broken = STANDARD
            .replace("adjacent: [1, 3]", "adjacent: [3]")
            .replace("{id: DE-1, nat: DE, value: 3, entry: 1}", "{id: DE-1, nat: DE, value: 4, entry: 1}")
            .replace("[Calais, Antwerpen]", "[Calais, Atlantis]");
        let e = parse(&broken).expect_err("refused");
        let all = e.problems.join("\n");
        assert!(all.contains("adjacency with 2 is one-way"), "{all}");
        assert!(all.contains("DE-1: combat value 4 is not 0-3"), "{all}");
        assert!(all.contains("\"Atlantis\""), "{all}");
    }
}
