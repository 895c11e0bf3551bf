//! `umpire bench`: the costs a referee and a player feel, as ratios measured in one run.

use std::time::{Duration, Instant};

use super::common::CliError;
use super::term::{say, say_err};
use crate::engine::bot;
use crate::engine::game::Game;
use crate::log::entry::Entry;
use crate::log::store;

/// Arguments of `umpire bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Measures, in one run on this machine, on a bot game of --entries entries (the Marne scenario\nstretched to turn 250 without sudden death, generated for the benchmark):\n  verify: `umpire verify`'s replay (signatures, chain, dice, rules), against the floor of only\n          splitting, parsing, hashing and checking the signatures of the same bytes on one core;\n  apply:  `umpire apply` (the real binary) adding entry N to the game's first N entries\n          (--apply-entries), with and without the cache next to the log;\n  check:  validating the largest orders entry of the game (a full turn of moves), and of a\n          Short Campaign bot game (the largest bundled map);\n  start:  process start-up (`umpire --version`).\nRatios are against the floor or baseline measured in the same run."
)]
pub struct BenchArgs {
    /// Total entries of the generated logs to verify.
    #[arg(long, default_value_t = 10_000)]
    pub entries: usize,
    /// Entries of the game `apply` adds one entry to.
    #[arg(long, default_value_t = 1_000)]
    pub apply_entries: usize,
    /// Also write the generated logs there (`bench-N.log`), to time `umpire verify` on them.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<std::path::PathBuf>,
    /// Repetitions of each measurement (the best is kept).
    #[arg(long, default_value_t = 3)]
    pub reps: u32,
}

fn best<F: FnMut()>(reps: u32, mut f: F) -> Duration {
    (0..reps.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The floor of verifying: split, parse (hash included) and `verify_strict` every entry with its
/// seat's key, no rules. Returns the entries checked.
pub fn floor(logs: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for bytes in logs {
        let entries: Vec<Entry> = store::split_log(bytes).into_iter().map(|b| Entry::parse(b).expect("generated logs parse")).collect();
        let seats = entries[0].draft.body.seats.clone().unwrap_or_default();
        for e in &entries {
            let decl = seats.iter().find(|s| s.seat == e.draft.seat).expect("known seat");
            let key = crate::crypto::keys::parse_public_text(&decl.key).expect("valid key");
            assert!(e.verify_signature(&key));
            n += 1;
        }
    }
    n
}

/// Full verification of every log, as `umpire verify` does (without printing): parsing and
/// signatures on one core, ahead of the rules replay on the other.
pub fn full(logs: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for bytes in logs {
        let (_, g) = super::verify::replay_log(std::path::Path::new("bench"), bytes).expect("generated logs parse");
        let g = g.unwrap_or_else(|(_, e)| panic!("generated log does not verify: {e}"));
        n += g.entries.len();
    }
    n
}

/// The bundled Marne scenario stretched for the benchmark: turns 8 to 250 instead of 8 to 12,
/// and no sudden-death win (GE 16.4's Paris/Melun rule), so that bots play games of thousands
/// of entries under the real rules. Generated for measuring only; not a scenario to play.
fn long_marne() -> Result<&'static crate::scenarios::Bundled, CliError> {
    let marne = crate::scenarios::find("glorys-end/marne").expect("bundled");
    let text = marne.text.replace("turns: {first: 8, last: 12,", "turns: {first: 8, last: 250,");
    let auto = "auto_win:\n  - {side: german, hexes: [3036, 3037, 3136, 3334], when: end_of_own_player_turn}";
    if text == marne.text || !text.contains(auto) {
        return Err(CliError::Other("the bundled Marne scenario changed; update `umpire bench`'s long variant".into()));
    }
    let text = text.replace(auto, "auto_win: []");
    // Leaked once per run: `Bundled` holds static text.
    Ok(Box::leak(Box::new(crate::scenarios::Bundled {
        name: "glorys-end/marne-long-bench",
        ruleset: marne.ruleset,
        about: "benchmark only",
        text: Box::leak(text.into_boxed_str()),
    })))
}

/// Entries of the Short Campaign game whose largest orders entry `bench` checks.
const CAMPAIGN_ENTRIES: u64 = 300;

/// The time to validate the largest orders entry among the first 1000 of `game` against its
/// prestate (after the dice it reveals), with its size in bytes and its seq.
fn largest_check(game: &Game, reps: u32) -> Result<(Duration, usize, u64), CliError> {
    let mut biggest = (0usize, 0u64);
    let mut at = None;
    for (i, e) in game.entries.iter().enumerate().take(1000) {
        let Some(o) = &e.draft.body.orders else { continue };
        let size = yaml_serde::to_string(o).map(|s| s.len()).unwrap_or(0);
        if size > biggest.0 {
            biggest = (size, e.seq());
            at = Some(i);
        }
    }
    let Some(i) = at else { return Ok((Duration::ZERO, 0, 0)) };
    let e = &game.entries[i];
    let o = e.draft.body.orders.as_ref().expect("has orders");
    let pre = Game::replay(&game.entries[..i]).map_err(|(_, e)| CliError::Other(e.to_string()))?;
    let state = match &pre.pending {
        // the orders are validated after the dice they reveal
        Some(p) => {
            let mut s = pre.state.clone();
            let mut d = crate::dice::Dice::from_seed(&crate::dice::dice_seed(&p.reveal, &e.draft.reveal.expect("reveals")));
            s.resolve(&mut d);
            s
        }
        None => pre.state.clone(),
    };
    let t = best(reps.max(20), || {
        state.check(&e.draft.seat, o).expect("bot orders are legal");
    });
    Ok((t, biggest.0, biggest.1))
}

/// A bot game of (up to) `entries` entries on the long scenario.
fn generate(scenario: &crate::scenarios::Bundled, seed: u64, entries: u64) -> Result<Game, CliError> {
    let seats = crate::scenarios::seats(scenario);
    let (mut game, mut players) =
        bot::start_game(scenario, &seats, seed, 16_384, "2000-01-01T00:00:00Z").map_err(|e| CliError::Other(e.to_string()))?;
    let mut clock = || "2000-01-01T00:00:00Z".to_string();
    let mut keep = |_: &Entry, _: &Game| Ok(());
    match bot::play_out(&mut game, &mut players, seed, entries - 1, &mut clock, &mut keep) {
        Ok(()) | Err(bot::BotError::TooLong(_)) => Ok(game),
        Err(e) => Err(CliError::Other(e.to_string())),
    }
}

/// Time `umpire apply LOG ENTRY` (the real binary, a fresh process each time) on a copy of
/// `prefix`, with the cache `cache` (or none) in place before each run.
/// Returns the best (wall time, CPU time) pair.
fn time_apply(
    exe: &std::path::Path,
    reps: u32,
    prefix: &[u8],
    entry: &Entry,
    cache: Option<&[u8]>,
) -> Result<(Duration, Duration), CliError> {
    let dir = std::env::temp_dir().join(format!("umpire-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| CliError::Other(e.to_string()))?;
    let log = dir.join("game.log");
    let file = dir.join("entry.yaml");
    std::fs::write(&file, &entry.bytes).map_err(|e| CliError::Other(e.to_string()))?;
    let mut times = Vec::new();
    for _ in 0..reps.max(1) {
        std::fs::write(&log, prefix).map_err(|e| CliError::Other(e.to_string()))?;
        let _ = std::fs::remove_file(crate::cache::path_for(&log));
        if let Some(c) = cache {
            std::fs::write(crate::cache::path_for(&log), c).map_err(|e| CliError::Other(e.to_string()))?;
        }
        let cpu0 = children_cpu();
        let t = Instant::now();
        let out = std::process::Command::new(exe).arg("apply").arg(&log).arg(&file).output().map_err(|e| CliError::Other(e.to_string()))?;
        times.push((t.elapsed(), children_cpu().saturating_sub(cpu0)));
        if !out.status.success() {
            return Err(CliError::Other(format!("bench apply failed: {}", String::from_utf8_lossy(&out.stderr))));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(times.into_iter().min().unwrap_or_default())
}

/// CPU time (user + system) used so far by this process's waited-for children: the part of
/// a run that does not depend on the disk's fsync latency or on other load on the machine.
fn children_cpu() -> Duration {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) } == 0 {
            let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
            return tv(ru.ru_utime) + tv(ru.ru_stime);
        }
    }
    Duration::ZERO
}

/// `umpire bench`.
pub fn run(a: BenchArgs) -> Result<i32, CliError> {
    let scenario = long_marne()?;
    let exe = std::env::current_exe().map_err(|e| CliError::Other(e.to_string()))?;
    say_err!("generating bot games totalling {} entries (Marne stretched to turn 250, no sudden death)…", a.entries);
    let mut games = Vec::new();
    let mut total = 0usize;
    while total < a.entries {
        let g = generate(scenario, games.len() as u64 + 1, (a.entries - total).max(2) as u64)?;
        total += g.entries.len();
        games.push(g);
    }
    let logs: Vec<Vec<u8>> = games.iter().map(|g| store::join_log(&g.entries)).collect();
    if let Some(dir) = &a.keep {
        std::fs::create_dir_all(dir).map_err(|e| CliError::Other(format!("{}: {e}", dir.display())))?;
        for (i, l) in logs.iter().enumerate() {
            let p = dir.join(format!("bench-{}.log", i + 1));
            std::fs::write(&p, l).map_err(|e| CliError::Other(format!("{}: {e}", p.display())))?;
        }
    }
    let sizes: Vec<String> = games.iter().map(|g| g.entries.len().to_string()).collect();
    say_err!(
        "{} game(s) of {} entries, {} bytes; measuring verify…",
        games.len(),
        sizes.join(" + "),
        logs.iter().map(Vec::len).sum::<usize>()
    );
    let game = &games[0];
    let t_floor = best(a.reps, || {
        floor(&logs);
    });
    let t_full = best(a.reps, || {
        full(&logs);
    });

    // apply: entry 1000 onto the first 1,000 entries of that game, as a player runs it.
    let n = a.apply_entries.min(game.entries.len() - 1);
    say_err!("measuring apply of entry {n} to a {n}-entry game…");
    let prefix = store::join_log(&game.entries[..n]);
    let next = &game.entries[n];
    let t_nocache = time_apply(&exe, a.reps.max(5), &prefix, next, None)?;
    let cache = {
        let dir = std::env::temp_dir().join(format!("umpire-bench-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| CliError::Other(e.to_string()))?;
        let log = dir.join("game.log");
        let pre = Game::replay(&game.entries[..n]).map_err(|(_, e)| CliError::Other(e.to_string()))?;
        crate::cache::write(&log, &pre);
        let c = std::fs::read(crate::cache::path_for(&log)).map_err(|e| CliError::Other(e.to_string()))?;
        let _ = std::fs::remove_dir_all(&dir);
        c
    };
    let t_cache = time_apply(&exe, a.reps.max(5), &prefix, next, Some(&cache))?;

    // check: validating the largest orders entry (a full turn's moves) against its prestate,
    // on the Marne game and on a Short Campaign game (the largest bundled map).
    say_err!("measuring orders check and start-up…");
    let check_marne = largest_check(game, a.reps)?;
    let campaign = crate::scenarios::find("glorys-end/short-campaign")
        .ok_or_else(|| CliError::Other("the bundled short campaign is missing".into()))?;
    let check_campaign = largest_check(&generate(campaign, 1, CAMPAIGN_ENTRIES)?, a.reps)?;

    // start-up: the binary answering --version, against the same for `true`.
    let t_start = best(a.reps.max(10), || {
        let _ = std::process::Command::new(&exe).arg("--version").output();
    });
    let t_true = best(a.reps.max(10), || {
        let _ = std::process::Command::new("true").output();
    });

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    let r_verify = ms(t_full) / ms(t_floor);
    say!("| measurement | time | baseline (same run) | ratio | target |");
    say!("|---|---|---|---|---|");
    say!(
        "| verify {total} generated entries ({}) | {:.0} ms | floor (split, parse, hash, verify_strict; one core) {:.0} ms | {r_verify:.2}× floor | ≤ 1.5× floor: {} |",
        if games.len() == 1 { "one game".to_string() } else { format!("{} games of {} entries", games.len(), sizes.join(" + ")) },
        ms(t_full),
        ms(t_floor),
        verdict(r_verify <= 1.5)
    );
    say!(
        "| apply entry {n} to a {n}-entry game, with cache (`umpire apply`, whole process incl. fsync) | {:.1} ms (CPU {:.1} ms) | start-up {:.1} ms | {:.1}× start-up | < 50 ms: {} |",
        ms(t_cache.0),
        ms(t_cache.1),
        ms(t_start),
        ms(t_cache.0) / ms(t_start),
        verdict(ms(t_cache.0) < 50.0)
    );
    say!(
        "| same, without cache (replay from genesis) | {:.1} ms (CPU {:.1} ms) | with cache {:.1} ms | {:.1}× with cache | |",
        ms(t_nocache.0),
        ms(t_nocache.1),
        ms(t_cache.0),
        ms(t_nocache.0) / ms(t_cache.0)
    );
    for (map, (t_check, size, seq)) in [("Marne map", check_marne), ("campaign map, the largest bundled", check_campaign)] {
        say!(
            "| orders check of the largest entry of a bot game ({map}: entry {seq}, {size} bytes of orders YAML) | {:.3} ms | start-up {:.1} ms | {:.3}× start-up | |",
            ms(t_check),
            ms(t_start),
            ms(t_check) / ms(t_start)
        );
    }
    say!(
        "| process start-up (`umpire --version`) | {:.2} ms | `true`: {:.2} ms | {:.1}× | |",
        ms(t_start),
        ms(t_true),
        ms(t_start) / ms(t_true)
    );
    Ok(0)
}
