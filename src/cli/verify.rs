//! `umpire verify`: the referee's audit of a log from genesis.

use std::path::PathBuf;

use serde::Serialize;

use super::common::{self, CliError};
use crate::engine::game::{Game, RandomEvent, describe_outcome};
use crate::log::protocol::{Agreement, compare};
use crate::log::store;

/// Arguments of `umpire verify`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks every signature (verify_strict), hash link, game id, seq/prev, chain reveal, dice seed,\ncommitment opening and rules verdict, recomputed from genesis. Exit 0 only if all holds."
)]
pub struct VerifyArgs {
    /// The game log.
    pub log: PathBuf,
    /// Other copies of the same game (logs or entry files) to compare: forks and
    /// equivocations are reported with both hashes.
    #[arg(long = "against", value_name = "FILE")]
    pub against: Vec<PathBuf>,
    /// Machine-readable report.
    #[arg(long)]
    pub json: bool,
    /// Print every event, not only the random ones.
    #[arg(long, short)]
    pub verbose: bool,
}

/// The audit report.
#[derive(Debug, Serialize)]
pub struct Report {
    pub ok: bool,
    pub game: Option<String>,
    pub ruleset: Option<String>,
    pub scenario: Option<String>,
    pub entries: usize,
    pub entries_checked: usize,
    pub random_events: Vec<RandomEvent>,
    pub reveals: Vec<String>,
    pub deviations: Vec<String>,
    pub problems: Vec<String>,
    pub outcome: Option<String>,
    pub status: Option<String>,
}

/// Audit a log (and copies); never fails for a bad log: the report says so.
pub fn audit(a: &VerifyArgs) -> Result<(Report, Option<Game>), CliError> {
    let mut r = Report {
        ok: false,
        game: None,
        ruleset: None,
        scenario: None,
        entries: 0,
        entries_checked: 0,
        random_events: Vec::new(),
        reveals: Vec::new(),
        deviations: Vec::new(),
        problems: Vec::new(),
        outcome: None,
        status: None,
    };
    let entries = match store::read_log(&a.log) {
        Ok(e) => e,
        Err(e) => {
            r.problems.push(e.to_string());
            return Ok((r, None));
        }
    };
    r.entries = entries.len();
    let (game, error) = match Game::replay(&entries) {
        Ok(g) => (Some(g), None),
        Err((g, e)) => (g.map(|g| *g), Some(e)),
    };
    if let Some(g) = &game {
        r.game = Some(g.id().to_hex());
        r.ruleset = Some(format!("{} {}", g.genesis().ruleset.id, g.genesis().ruleset.version));
        r.scenario = Some(g.genesis().scenario.name.clone());
        r.entries_checked = g.entries.len();
        for s in &g.steps {
            if let Some(re) = &s.resolved {
                r.random_events.push(re.clone());
            }
            for o in &s.opened {
                r.reveals.push(format!("entry {}: opened {o}", s.seq));
            }
        }
        if let Some(end) = &g.ending {
            r.outcome = Some(format!("{} (entry {})", describe_outcome(&end.outcome), end.seq));
            for (seat, id, seq) in g.unopened() {
                r.problems.push(format!("entry {seq}: {seat} committed to {id:?} and never opened it before the game ended"));
            }
        } else {
            let w: Vec<_> = g.waiting_for().into_iter().map(|(s, w)| format!("{s}: {w}")).collect();
            r.status = Some(format!("in progress; waiting for {}", w.join("; ")));
        }
    }
    if let Some(e) = error {
        r.problems.push(e.to_string());
        if r.entries_checked + 1 < r.entries {
            r.problems.push(format!(
                "entries {}..{} were not checked: they depend on the broken entry",
                r.entries_checked + 1,
                r.entries - 1
            ));
        }
    }
    for other in &a.against {
        match common::read_entry_file(other) {
            Ok(theirs) => match compare(&entries, &theirs) {
                Agreement::Prefix => {}
                Agreement::DifferentGames => r.problems.push(format!("{}: not the same game", other.display())),
                Agreement::Fork { seq, hash_a, hash_b, seat_a, seat_b, equivocation } => r.problems.push(format!(
                    "{}: {} at entry {seq}: this log has {hash_a} (by {seat_a}), the other has {hash_b} (by {seat_b})",
                    other.display(),
                    if equivocation { "EQUIVOCATION (one seat signed two different entries)" } else { "FORK" }
                )),
            },
            Err(e) => r.problems.push(e.to_string()),
        }
    }
    r.ok = r.problems.is_empty() && game.is_some();
    Ok((r, game))
}

/// `umpire verify`.
pub fn run(a: VerifyArgs) -> Result<i32, CliError> {
    let (r, game) = audit(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r).map_err(|e| CliError::Other(e.to_string()))?);
        return Ok(if r.ok { 0 } else { 1 });
    }
    println!("verify {}", a.log.display());
    if let Some(g) = &r.game {
        println!("  game {g}");
        println!("  ruleset {}, scenario {}", r.ruleset.as_deref().unwrap_or("?"), r.scenario.as_deref().unwrap_or("?"));
    }
    println!(
        "  {} entries, {} checked: signatures (verify_strict), hash chain, seq/prev, reveals, dice seeds, rules",
        r.entries, r.entries_checked
    );
    if a.verbose
        && let Some(g) = &game
    {
        for s in &g.steps {
            println!("  entry {} {} {:?} {}", s.seq, s.seat, s.kind, s.hash.short(16));
            common::print_events(&s.events);
        }
    }
    println!("  random events: {}", r.random_events.len());
    for re in &r.random_events {
        let rolls: Vec<_> = re.rolls.iter().map(|x| format!("{} {}={}", x.purpose, x.die, x.result)).collect();
        println!(
            "    entry {} (revealed by {}), seed {}: {}",
            re.entry,
            re.revealed_by,
            re.seed.short(16),
            if rolls.is_empty() { re.what.clone() } else { rolls.join("; ") }
        );
    }
    println!("  hidden values opened: {}", r.reveals.len());
    for x in &r.reveals {
        println!("    {x}");
    }
    println!("  deviations (amendments): {}", r.deviations.len());
    if let Some(o) = &r.outcome {
        println!("  result: {o}");
    } else if let Some(s) = &r.status {
        println!("  {s}");
    }
    if r.ok {
        println!("OK: the log verifies");
        Ok(0)
    } else {
        println!("FAILED: {} problem(s)", r.problems.len());
        for p in &r.problems {
            println!("  {p}");
        }
        Ok(1)
    }
}

/// Does this log text verify from genesis (every entry parses, signatures, chain, rules)?
/// The same checks as `umpire verify`, without the report; for tests and tools.
pub fn verify_bytes(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"---\n") {
        return false;
    }
    let parsed: Result<Vec<_>, _> = store::split_log(bytes).into_iter().map(crate::log::Entry::parse).collect();
    match parsed {
        Ok(entries) => Game::replay(&entries).is_ok(),
        Err(_) => false,
    }
}
