//! `umpire demo`: a complete game in a directory, played by bots, then verified.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::common::{self, CliError, fail};
use super::new::{GenesisPlan, anchor, make_genesis};
use super::term::say;
use crate::crypto::keys::SecretKey;
use crate::crypto::tagged_hash;
use crate::engine::RulesetId;
use crate::engine::bot;
use crate::engine::game::{Game, describe_outcome};
use crate::log::entry::{Body, Kind, SeatDecl};
use crate::log::protocol::DEFAULT_CHAIN_LENGTH;
use crate::log::store;

/// Arguments of `umpire demo`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Writes a key pair per seat (DIR/alice.key, alice.pub, bob.key, …; four seats for
first-world-war) and DIR/game.log, verifies the log, then writes\nDIR/replay.html (the game step by step, with the map; open it in a browser).\nThe same --seed gives the same moves and dice; keys and the game nonce come from it too, so a\ndemo is reproducible (set UMPIRE_FIXED_TIME to pin the timestamps as well).")]
pub struct DemoArgs {
    /// Directory for the keys and the log (created; a previous demo there is replaced).
    #[arg(long, default_value = "umpire-demo")]
    pub dir: PathBuf,
    /// Ruleset to demonstrate.
    #[arg(long, default_value = "glorys-end")]
    pub ruleset: String,
    /// Seed for keys, nonce and the bots' choices.
    #[arg(long, default_value_t = 1914)]
    pub seed: u64,
    /// Print every entry's events as the game is played.
    #[arg(long, short)]
    pub verbose: bool,
    /// An optional rule of the ruleset, as `umpire new --option`; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

const MARKER: &str = ".umpire-demo";
const FILES: &[&str] =
    &["alice.key", "alice.pub", "bob.key", "bob.pub", "carol.key", "carol.pub", "dave.key", "dave.pub", "game.log", "replay.html", MARKER];
/// Player names, one per seat of the bundled scenario, in its seat order.
const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

/// `umpire demo`.
pub fn run(a: DemoArgs) -> Result<i32, CliError> {
    let Some(ruleset) = RulesetId::from_id(&a.ruleset) else {
        return Err(CliError::Usage(format!("--ruleset {:?}: unknown (known: {})", a.ruleset, crate::engine::registry::known_ids())));
    };
    let scenario = crate::scenarios::ALL.iter().find(|b| b.ruleset == ruleset.id()).expect("every ruleset bundles a scenario");
    prepare_dir(&a.dir)?;
    let dir = &a.dir;

    // 1. Keys: derived from the seed so the demo is reproducible.
    let seats: Vec<(&str, &str, &str)> =
        crate::scenarios::seats(scenario).into_iter().zip(NAMES).map(|((seat, side), name)| (name, seat, side)).collect();
    let mut keys = BTreeMap::new();
    let mut decls = Vec::new();
    for &(name, seat, side) in &seats {
        let k = SecretKey::from_seed(name, tagged_hash("umpire/demo-key/1", &[&a.seed.to_be_bytes(), name.as_bytes()]).0);
        k.write_file(&dir.join(format!("{name}.key")))?;
        k.public().write_file(&dir.join(format!("{name}.pub")))?;
        say!("key {name}: {} ({}) plays {seat}", k.public().id(), dir.join(format!("{name}.key")).display());
        decls.push(SeatDecl { seat: seat.into(), side: side.into(), key: k.public().to_text() });
        keys.insert(seat.to_string(), k);
    }

    // 2. Genesis by the first seat, joins by the others.
    let plan = GenesisPlan {
        ruleset,
        scenario_name: scenario.name.into(),
        scenario_text: scenario.text.into(),
        seats: decls,
        options: super::new::parse_options(&a.options)?,
        chain_length: DEFAULT_CHAIN_LENGTH,
        nonce: tagged_hash("umpire/demo-nonce/1", &[&a.seed.to_be_bytes()]),
        note: Some("umpire demo game".into()),
    };
    let log = dir.join("game.log");
    let (_, first, _) = seats[0];
    let genesis = make_genesis(&plan, first, &keys[first])?;
    store::create_log(&log, std::slice::from_ref(&genesis))?;
    let mut game = Game::from_genesis(&genesis)?;
    say!("genesis: game {} ({}), {}", game.id().short(16), scenario.name, log.display());
    let g = game.genesis().clone();
    let mut players = bot::Players::new(keys.clone());
    for &(name, seat, _) in &seats[1..] {
        let mut join = Body::new(Kind::Join);
        join.chain = Some(anchor(&keys[seat], &g.nonce, seat, g.chain_length));
        let e = bot::sign_body(&game, seat, &mut players, join, common::now()).map_err(|e| CliError::Other(e.to_string()))?;
        game.apply(&e)?;
        append(&log, &e)?;
        say!("join: {seat} ({name})");
    }
    say!("every seat has joined; play starts");

    // 3. Bots play to the end. Each entry is appended durably as it is made.
    let verbose = a.verbose;
    let mut last_when = String::new();
    let mut on_entry = |e: &crate::log::Entry, game: &Game| -> Result<(), bot::BotError> {
        append(&log, e)
            .map_err(|err| bot::BotError::Refused(crate::engine::game::GameError::Unsupported { seq: e.seq(), why: err.to_string() }))?;
        let when = game.state.expect().when;
        if when != last_when && !verbose {
            say!("  {when} (entry {})", e.seq());
            last_when = when;
        }
        if verbose {
            let s = game.steps.last().expect("applied");
            say!("entry {} {} {:?}", s.seq, s.seat, s.kind);
            common::print_events(&s.events);
        }
        Ok(())
    };
    bot::play_out(&mut game, &mut players, a.seed, 20_000, &mut common::now, &mut on_entry)
        .map_err(|e| CliError::Other(format!("demo game failed: {e}")))?;

    // 4. Verify the log from disk, as a referee would.
    let args =
        super::verify::VerifyArgs { logs: vec![log.clone()], against: vec![], json: false, verbose: false, hidden: false, jobs: None };
    let (report, _) = super::verify::audit(&args)?;
    let outcome = game.outcome().map(|o| describe_outcome(&o)).unwrap_or_default();
    say!();
    say!("played {} entries, {} random events (every die from commit-reveal seeds)", game.entries.len(), report.random_events.len());
    say!("result: {outcome}");
    if !report.ok {
        for p in &report.problems {
            say!("  problem: {p}");
        }
        return fail("the demo log does not verify: this is a bug, please report it");
    }
    say!("verify: OK ({} entries checked)", report.entries_checked);

    // 5. The replay page, from the log on disk.
    let page = super::replay::replay_page(&store::read_log(&log)?, None, None)?;
    let html = dir.join("replay.html");
    std::fs::write(&html, page).map_err(|e| CliError::Other(format!("{}: {e}", html.display())))?;
    say!("replay page: {} (open it in a browser; ← → step through the game)", html.display());
    let l = log.display();
    say!();
    say!("next, try:");
    say!("  umpire verify {l}              # the referee's audit");
    say!("  umpire replay {l} --to 12      # step by step, with what changed");
    say!("  umpire show {l} --at 5 --svg map.svg   # the state after entry 5, and its map");
    say!("  umpire status {l}");
    Ok(0)
}

fn append(log: &std::path::Path, e: &crate::log::Entry) -> Result<(), CliError> {
    let (mut locked, _) = store::LockedLog::open(log)?;
    locked.append(std::slice::from_ref(e))?;
    Ok(())
}

fn prepare_dir(dir: &std::path::Path) -> Result<(), CliError> {
    if dir.exists() {
        let has_files = std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false);
        if has_files && !dir.join(MARKER).exists() {
            return fail(format!("{} exists and is not an umpire demo directory; choose another --dir", dir.display()));
        }
        for f in FILES {
            let p = dir.join(f);
            if p.exists() {
                std::fs::remove_file(&p).map_err(|e| CliError::Other(format!("{}: {e}", p.display())))?;
            }
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::Other(format!("{}: {e}", dir.display())))?;
    std::fs::write(dir.join(MARKER), "made by `umpire demo`; it may replace the files here\n")
        .map_err(|e| CliError::Other(e.to_string()))?;
    Ok(())
}
