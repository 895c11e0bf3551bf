//! `umpire bench`: the costs a referee and a player feel, as ratios measured in one run.

use std::time::{Duration, Instant};

use super::common::CliError;
use crate::engine::bot;
use crate::engine::game::Game;
use crate::log::entry::Entry;
use crate::log::store;

/// Arguments of `umpire bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Measures, in one run on this machine:\n  verify: replaying logs totalling --entries entries (signatures, chain, dice, rules), against\n          the floor of only splitting, parsing, hashing and checking the signatures of the same bytes;\n  apply:  adding one entry to the longest generated game, as `umpire apply` does (read + replay + check);\n  check:  validating one full bot turn of orders;\n  start:  process start-up (`umpire --version`).\nRatios are against the floor or baseline measured in the same run."
)]
pub struct BenchArgs {
    /// Total entries of the generated logs to verify.
    #[arg(long, default_value_t = 10_000)]
    pub entries: usize,
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

/// `umpire bench`.
pub fn run(a: BenchArgs) -> Result<i32, CliError> {
    let marne = crate::scenarios::find("glorys-end/marne").expect("bundled");
    let seats = crate::scenarios::seats(marne);
    eprintln!("generating bot games totalling {} entries…", a.entries);
    let mut logs = Vec::new();
    let mut games = Vec::new();
    let (mut total, mut seed) = (0usize, 0u64);
    while total < a.entries {
        let (mut game, mut players) =
            bot::start_game(marne, &seats, seed, 4096, "2000-01-01T00:00:00Z").map_err(|e| CliError::Other(e.to_string()))?;
        let mut clock = || "2000-01-01T00:00:00Z".to_string();
        let mut keep = |_: &Entry, _: &Game| Ok(());
        bot::play_out(&mut game, &mut players, seed, 20_000, &mut clock, &mut keep).map_err(|e| CliError::Other(e.to_string()))?;
        total += game.entries.len();
        logs.push(store::join_log(&game.entries));
        games.push(game);
        seed += 1;
    }
    eprintln!("{} games, {total} entries, {} bytes; measuring…", logs.len(), logs.iter().map(Vec::len).sum::<usize>());

    let t_floor = best(a.reps, || {
        floor(&logs);
    });
    let t_full = best(a.reps, || {
        full(&logs);
    });

    // apply: one more entry on the longest game, as `umpire apply` does: read, replay, check.
    let longest = games.iter().max_by_key(|g| g.entries.len()).expect("at least one game");
    let n = longest.entries.len();
    let prefix = store::join_log(&longest.entries[..n - 1]);
    let last = longest.entries[n - 1].clone();
    let t_apply = best(a.reps.max(5), || {
        let entries: Vec<Entry> = store::split_log(&prefix).into_iter().map(|b| Entry::parse(b).expect("parses")).collect();
        let mut g = Game::replay(&entries).expect("verifies");
        g.apply(&last).expect("applies");
    });
    let t_parse_only = best(a.reps.max(5), || {
        let _: Vec<Entry> = store::split_log(&prefix).into_iter().map(|b| Entry::parse(b).expect("parses")).collect();
    });

    // check: validating the longest orders entry of the games against its prestate.
    let mut t_check = Duration::ZERO;
    let mut biggest = 0usize;
    for g in games.iter().take(20) {
        for (i, e) in g.entries.iter().enumerate() {
            let Some(o) = &e.draft.body.orders else { continue };
            let size = yaml_serde::to_string(o).map(|s| s.len()).unwrap_or(0);
            if size > biggest {
                biggest = size;
                let pre = Game::replay(&g.entries[..i]).expect("prefix verifies");
                let state = match &pre.pending {
                    // the orders are validated after the dice they reveal
                    Some(p) => {
                        let mut s = pre.state.clone();
                        let mut d = crate::dice::Dice::from_seed(&crate::dice::dice_seed(&p.hash, &e.draft.reveal.expect("reveals")));
                        s.resolve(&mut d);
                        s
                    }
                    None => pre.state.clone(),
                };
                t_check = best(a.reps.max(20), || {
                    state.check(&e.draft.seat, o).expect("bot orders are legal");
                });
            }
        }
    }

    // start-up: the binary answering --version, against the same for `true`.
    let exe = std::env::current_exe().map_err(|e| CliError::Other(e.to_string()))?;
    let t_start = best(a.reps.max(10), || {
        let _ = std::process::Command::new(&exe).arg("--version").output();
    });
    let t_true = best(a.reps.max(10), || {
        let _ = std::process::Command::new("true").output();
    });

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("| measurement | time | baseline (same run) | ratio |");
    println!("|---|---|---|---|");
    println!(
        "| verify {total} entries ({} games) | {:.0} ms | floor: parse+hash+signatures {:.0} ms | {:.2}× (target ≤ 1.5×) |",
        logs.len(),
        ms(t_full),
        ms(t_floor),
        ms(t_full) / ms(t_floor)
    );
    println!("| per entry | {:.1} µs | floor {:.1} µs | |", ms(t_full) * 1000.0 / total as f64, ms(t_floor) * 1000.0 / total as f64);
    println!(
        "| apply one entry to a {n}-entry game | {:.2} ms | parsing the log alone {:.2} ms | {:.2}× |",
        ms(t_apply),
        ms(t_parse_only),
        ms(t_apply) / ms(t_parse_only)
    );
    println!("| orders check of the largest bot entry ({biggest} bytes of YAML) | {:.3} ms | | |", ms(t_check));
    println!(
        "| process start-up (`umpire --version`) | {:.2} ms | `true`: {:.2} ms | {:.1}× |",
        ms(t_start),
        ms(t_true),
        ms(t_start) / ms(t_true)
    );
    Ok(0)
}
