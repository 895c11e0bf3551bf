//! Runs every rule case under `tests/cases/<ruleset>/*.yaml` (DESIGN §5) and names each
//! failing file.

use umpire::dice::Dice;
use umpire::engine::cases::CaseRuleset;
use umpire::engine::cases::{RuleCase, run_case};
use umpire::rules::first_world_war::FirstWorldWar;
use umpire::rules::glorys_end::GlorysEnd;
use umpire::rules::jours_de_gloire::JoursDeGloire;
use umpire::rules::roads_to_leningrad::RoadsToLeningrad;
use umpire::rules::steel_wheels::SteelWheels;
use umpire::rules::when_eagles_fight::WhenEaglesFight;

#[test]
fn glorys_end_rule_cases() {
    run_dir::<GlorysEnd>("glorys-end");
}

#[test]
fn first_world_war_rule_cases() {
    run_dir::<FirstWorldWar>("first-world-war");
}

#[test]
fn when_eagles_fight_rule_cases() {
    run_dir::<WhenEaglesFight>("when-eagles-fight");
}

#[test]
fn jours_de_gloire_rule_cases() {
    run_dir::<JoursDeGloire>("jours-de-gloire");
}

#[test]
fn steel_wheels_rule_cases() {
    run_dir::<SteelWheels>("steel-wheels");
}

#[test]
fn roads_to_leningrad_rule_cases() {
    run_dir::<RoadsToLeningrad>("roads-to-leningrad");
}

fn run_dir<R: CaseRuleset>(ruleset: &str) {
    let dir = format!("{}/tests/cases/{ruleset}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("cases dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no rule cases found");
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let text = std::fs::read_to_string(f).expect("read case");
        let case: RuleCase = match umpire::log::yamlscan::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: does not parse: {e}"));
                continue;
            }
        };
        if let Err(e) = run_case::<R>(&case, &mut |faces| Dice::forced(faces)) {
            failures.push(format!("{name} ({}): {e}", case.rule));
        }
    }
    assert!(failures.is_empty(), "{} of {} rule cases failed:\n\n{}", failures.len(), files.len(), failures.join("\n\n"));
}
