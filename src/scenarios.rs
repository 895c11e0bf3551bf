//! Scenarios bundled with umpire, by name (`glorys-end/marne`).

/// A bundled scenario.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    /// `ruleset/name`.
    pub name: &'static str,
    /// The ruleset id.
    pub ruleset: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// The scenario text, as carried in a genesis.
    pub text: &'static str,
}

/// Every bundled scenario.
pub const ALL: &[Bundled] = &[
    Bundled {
        name: "glorys-end/marne",
        ruleset: "glorys-end",
        about: "1914: Glory's End, Battle of the Marne (GE 16): 5 turns, T8–T12, on a representative mini-map",
        text: include_str!("../scenarios/glorys-end/marne.yaml"),
    },
    Bundled {
        name: "glorys-end/short-campaign",
        ruleset: "glorys-end",
        about: "1914: Glory's End, Short Historical Campaign (GE 17): 10 turns, T1–T10, on a representative campaign map",
        text: include_str!("../scenarios/glorys-end/short-campaign.yaml"),
    },
    Bundled {
        name: "glorys-end/campaign",
        ruleset: "glorys-end",
        about: "1914: Glory's End, Historical Campaign (GE 3.2, 3.3): 30 turns, T1–T30, on a representative campaign map",
        text: include_str!("../scenarios/glorys-end/campaign.yaml"),
    },
    Bundled {
        name: "glorys-end/free-deployment",
        ruleset: "glorys-end",
        about: "1914: Glory's End, Free Deployment Campaign (GE 3.5, 3.6): 30 turns, both setups committed in secret before either is opened",
        text: include_str!("../scenarios/glorys-end/free-deployment.yaml"),
    },
    Bundled {
        name: "first-world-war/standard",
        ruleset: "first-world-war",
        about: "The First World War, 1914-1918, 2-4 players, on a representative board, roster and chit set (TFWW 3.0)",
        text: include_str!("../scenarios/first-world-war/standard.yaml"),
    },
    Bundled {
        name: "when-eagles-fight/historical",
        ruleset: "when-eagles-fight",
        about: "When Eagles Fight, the Historical game (WEF 3.1-3.8): 24 turns, Aug 1914 to Mar/Apr 1917, on a representative map, roster and charts (docs/when-eagles-fight/rules.md)",
        text: include_str!("../scenarios/when-eagles-fight/historical.yaml"),
    },
    Bundled {
        name: "when-eagles-fight/free-setup",
        ruleset: "when-eagles-fight",
        about: "When Eagles Fight, Free Setup (WEF 3.9): the Russian deploys in the open, then the CP with hidden stacks; turn 1 played in full; option plan_19 (WEF 16)",
        text: include_str!("../scenarios/when-eagles-fight/free-setup.yaml"),
    },
    Bundled {
        name: "when-eagles-fight/plan-19",
        ruleset: "when-eagles-fight",
        about: "When Eagles Fight, Russian Plan 19 (WEF 16) on a Free Setup: four Russian fortresses, +2 replacements and -1 ammunition T2-T6, STAVKA every turn to T6",
        text: include_str!("../scenarios/when-eagles-fight/plan-19.yaml"),
    },
    Bundled {
        name: "when-eagles-fight/schlieffen-east",
        ruleset: "when-eagles-fight",
        about: "When Eagles Fight, Schlieffen East (WEF 17): a Free Setup with Germany turned east, CP first each turn, 3 turns, the CP loses unless the Tsar falls",
        text: include_str!("../scenarios/when-eagles-fight/schlieffen-east.yaml"),
    },
    Bundled {
        name: "jours-de-gloire/marengo",
        ruleset: "jours-de-gloire",
        about: "Jours de Gloire, a representative small battle around Marengo (6 turns, 3 formations a side): a partial first slice, orders, cup, movement and facing only, no combat yet (docs/jours-de-gloire/rules.md)",
        text: include_str!("../scenarios/jours-de-gloire/marengo.yaml"),
    },
    Bundled {
        name: "steel-wheels/crossroads",
        ruleset: "steel-wheels",
        about: "WWII Steel Wheels, a REPRESENTATIVE crossroads fight (6 turns, 2 US and 3 German platoons): a partial first slice, manoeuvres, movement, spotting and direct fire (docs/steel-wheels/rules.md)",
        text: include_str!("../scenarios/steel-wheels/crossroads.yaml"),
    },
    Bundled {
        name: "roads-to-leningrad/soltsy",
        ruleset: "roads-to-leningrad",
        about: "Roads to Leningrad, Scenario #1 The Battle of Soltsy (13AM-17PM, 10 turns) on a REPRESENTATIVE map and setup: a first playable slice, the cup, movement, combat, supply and VP (docs/roads-to-leningrad/rules.md)",
        text: include_str!("../scenarios/roads-to-leningrad/soltsy.yaml"),
    },
];

/// Look a bundled scenario up by `ruleset/name`.
pub fn find(name: &str) -> Option<&'static Bundled> {
    ALL.iter().find(|b| b.name == name)
}

/// The seats of a bundled scenario's game, as (seat, side): one seat per side.
pub fn seats(b: &Bundled) -> Vec<(&'static str, &'static str)> {
    match b.ruleset {
        // The Allied player moves first on the Marne, but the German proposes in the demo.
        "glorys-end" => vec![("german", "german"), ("allied", "allied")],
        // Four players, one faction each; factions are seats, alliances are sides (TFWW 1.0).
        "first-world-war" => vec![
            ("germany", "central_powers"),
            ("western_allies", "allies"),
            ("eastern_allies", "allies"),
            ("german_allies", "central_powers"),
        ],
        // The CP proposes; the historical game opens with its movement (WEF 3.4).
        "when-eagles-fight" => vec![("central", "central"), ("russian", "russian")],
        // The first side of the battle commits its orders first (digest F.5).
        "jours-de-gloire" => vec![("french", "french"), ("austrian", "austrian")],
        // The attacker declares first (MAN-2).
        "steel-wheels" => vec![("us", "us"), ("de", "de")],
        // The German rolls weather and initiative and opens every turn (RTL-5.11).
        "roads-to-leningrad" => vec![("german", "german"), ("soviet", "soviet")],
        _ => Vec::new(),
    }
}
