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
    after_help = "Measures, in one run on this machine (medians of --reps runs, each measurement alternating\nwith its baseline):\n  verify: the replay of `umpire verify` (signatures, chain, dice, rules; 2 threads) on bot games\n          of --entries entries (the Marne stretched to turn 250 without sudden death), against\n          the floor any verifier pays (split, SHA-256, a generic YAML parse, verify_strict; 2\n          threads) and `verify_strict` alone (the bound no verify beats), its peak memory as a\n          process (median of 5) and its memory per byte of log (the largest game against its\n          first half);\n  tournament: one `umpire verify` of --tournament-games Marne bot-game logs against as many\n          separate `umpire verify` processes;\n  First World War: verify per entry (omniscient pass included) against Glory's End;\n  apply:  `umpire apply` (the real binary) adding entry N to the game's first N entries\n          (--apply-entries), with and without the cache next to the log;\n  status, orders template, orders check: whole processes on a 300-entry Campaign game;\n  check:  validating the largest orders entry of a bot game in-process;\n  start:  process start-up (`umpire --version`) against `true`."
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
    /// Repetitions of each measurement (at least 5; the median is reported, and the runs of
    /// a measurement and its baseline alternate).
    #[arg(long, default_value_t = 5)]
    pub reps: u32,
    /// Bot games (Marne, as `umpire selfplay` plays them) of the tournament row.
    #[arg(long, default_value_t = 200)]
    pub tournament_games: usize,
    /// Entries of First World War bot games verified for the per-entry comparison.
    #[arg(long, default_value_t = 2_000)]
    pub fww_entries: usize,
    /// Measure verify against its floor only (the first rows), for work on verify's speed.
    #[arg(long)]
    pub verify_only: bool,
}

/// The median of some durations (the upper one of an even count).
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// Each of `fs` timed `reps` times, the runs alternating (f0, f1, …, f0, f1, …) so that a
/// change of load on a shared machine falls on all of them alike; the median of each.
fn alternate(reps: u32, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let mut times: Vec<Vec<Duration>> = fs.iter().map(|_| Vec::new()).collect();
    for _ in 0..reps.max(1) {
        for (f, t) in fs.iter_mut().zip(times.iter_mut()) {
            let start = Instant::now();
            f();
            t.push(start.elapsed());
        }
    }
    times.into_iter().map(median).collect()
}

/// One measurement alone, `reps` times, its median.
fn timed<F: FnMut()>(reps: u32, mut f: F) -> Duration {
    alternate(reps, &mut [&mut f])[0]
}

/// Every entry of the logs with the keys of its log: per log, the seats' keys read once from
/// the genesis.
type Keyring = Vec<(String, ed25519_dalek::VerifyingKey)>;

fn entries_with_keys(logs: &[Vec<u8>]) -> (Vec<(&[u8], usize)>, Vec<Keyring>) {
    let mut jobs: Vec<(&[u8], usize)> = Vec::new();
    let mut keys: Vec<Keyring> = Vec::new();
    for bytes in logs {
        let parts = store::split_log(bytes);
        let genesis: yaml_serde::Value = yaml_serde::from_slice(parts[0]).expect("genesis parses");
        let seats = genesis["body"]["seats"].as_sequence().expect("seats");
        keys.push(
            seats
                .iter()
                .map(|s| {
                    let key = crate::crypto::keys::parse_public_text(s["key"].as_str().expect("key")).expect("valid key");
                    (s["seat"].as_str().expect("seat").to_string(), key)
                })
                .collect(),
        );
        jobs.extend(parts.into_iter().map(|p| (p, keys.len() - 1)));
    }
    (jobs, keys)
}

/// An entry's signed part (without its `sig` line) and its signature.
fn signed_and_sig(bytes: &[u8]) -> (&[u8], ed25519_dalek::Signature) {
    use crate::log::entry::SIG_PREFIX;
    use base64::Engine as _;
    let at = bytes.windows(SIG_PREFIX.len()).rposition(|w| w == SIG_PREFIX.as_bytes()).expect("a sig line");
    let sig: [u8; 64] = base64::engine::general_purpose::STANDARD
        .decode(bytes[at + SIG_PREFIX.len()..].trim_ascii_end())
        .expect("base64")
        .try_into()
        .expect("64 bytes");
    (&bytes[..at], ed25519_dalek::Signature::from_bytes(&sig))
}

/// `check` over `jobs`, spread over `threads` threads.
fn spread<T: Sync>(jobs: &[T], threads: usize, check: impl Fn(&T) + Sync) {
    let per = jobs.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for part in jobs.chunks(per) {
            let check = &check;
            scope.spawn(move || part.iter().for_each(check));
        }
    });
}

/// The floor of verifying, with nothing of umpire's parsing: per log, the seats' keys read
/// once from the genesis; per entry, the log split at `---` lines, SHA-256 of the entry, one
/// generic YAML parse of the signed part (no strict scan, no typed deserialising), its `seat`
/// looked up and `verify_strict` over the signed message; the entries spread over `threads`
/// threads. What any verifier must do at the least. Returns the entries checked.
pub fn floor(logs: &[Vec<u8>], threads: usize) -> usize {
    use crate::log::entry::SIGNED_PREFIX;
    let (jobs, keys) = entries_with_keys(logs);
    spread(&jobs, threads, |(bytes, log)| {
        std::hint::black_box(crate::crypto::sha256(bytes));
        let (signed, sig) = signed_and_sig(bytes);
        let header: yaml_serde::Value = yaml_serde::from_slice(signed).expect("entry parses");
        let seat = header["seat"].as_str().expect("seat");
        let key = &keys[*log].iter().find(|(s, _)| s == seat).expect("known seat").1;
        let mut msg = Vec::with_capacity(SIGNED_PREFIX.len() + signed.len());
        msg.extend_from_slice(SIGNED_PREFIX);
        msg.extend_from_slice(signed);
        assert!(key.verify_strict(&msg, &sig).is_ok(), "signature");
    });
    jobs.len()
}

/// The signed messages of every entry, with their signatures and keys, made ready outside any
/// timing: what [`signatures`] checks.
pub struct Signed {
    jobs: Vec<(Vec<u8>, ed25519_dalek::Signature, ed25519_dalek::VerifyingKey)>,
}

impl Signed {
    /// Splits and parses every entry once, keeping only what `verify_strict` needs.
    pub fn prepare(logs: &[Vec<u8>]) -> Self {
        use crate::log::entry::SIGNED_PREFIX;
        let (jobs, keys) = entries_with_keys(logs);
        let jobs = jobs
            .iter()
            .map(|(bytes, log)| {
                let (signed, sig) = signed_and_sig(bytes);
                let header: yaml_serde::Value = yaml_serde::from_slice(signed).expect("entry parses");
                let seat = header["seat"].as_str().expect("seat");
                let key = keys[*log].iter().find(|(s, _)| s == seat).expect("known seat").1;
                let mut msg = Vec::with_capacity(SIGNED_PREFIX.len() + signed.len());
                msg.extend_from_slice(SIGNED_PREFIX);
                msg.extend_from_slice(signed);
                (msg, sig, key)
            })
            .collect();
        Signed { jobs }
    }
}

/// `verify_strict` alone over every prepared entry, on `threads` threads: the part of the
/// floor no verifier can shed (DESIGN §2.1 asks for the strict check), so a verify can never
/// be faster than this on the machine. Returns the signatures checked.
pub fn signatures(signed: &Signed, threads: usize) -> usize {
    spread(&signed.jobs, threads, |(msg, sig, key)| assert!(key.verify_strict(msg, sig).is_ok(), "signature"));
    signed.jobs.len()
}

/// Full verification of every log, as `umpire verify` does (without printing): parsing and
/// signatures on one core, ahead of the rules replay on the other.
pub fn full(logs: &[Vec<u8>]) -> usize {
    full_with(logs, super::verify::Pipeline::TwoThreads)
}

/// [`full`] with the given pipeline (one thread: everything on the calling thread).
pub fn full_with(logs: &[Vec<u8>], pipeline: super::verify::Pipeline) -> usize {
    let mut n = 0;
    for bytes in logs {
        // As `umpire verify` replays (its steps' events are printed only with --verbose).
        let g = super::verify::replay_log_keeping(std::path::Path::new("bench"), bytes, pipeline, super::verify::StepEvents::Drop)
            .expect("generated logs parse")
            .replayed;
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

/// Entries of the Campaign game (the largest bundled map) on which `bench` times the read-only
/// commands and checks the largest orders entry.
const CAMPAIGN_ENTRIES: u64 = 300;

/// The time to validate the largest orders entry among the first 1000 of `game` against its
/// prestate (after the dice it reveals), with its size in bytes and its seq.
fn largest_check(game: &Game, reps: u32) -> Result<(Duration, usize, u64), CliError> {
    let mut biggest = (0usize, 0u64);
    let mut at = None;
    for (i, e) in game.entries.iter().enumerate().take(1000) {
        // Through `orders()`: the game may have shed them (the cache written from it).
        let Some(o) = e.orders() else { continue };
        let size = yaml_serde::to_string(&*o).map(|s| s.len()).unwrap_or(0);
        if size > biggest.0 {
            biggest = (size, e.seq());
            at = Some(i);
        }
    }
    let Some(i) = at else { return Ok((Duration::ZERO, 0, 0)) };
    let e = &game.entries[i];
    let o = e.orders().expect("has orders");
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
    let t = timed(reps.max(20), || {
        state.check(&e.draft.seat, &o).expect("bot orders are legal");
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

/// Seeds [`long_ready_prefix`] tries before it settles for the longest game it found.
const LONG_GAME_SEEDS: u64 = 40;

/// [`ready_prefix_seeded`] of the first bot game (seeds 1, 2, …) that lasts `entries` entries: a
/// bot game can end early (a sudden-death win), and a row that promises a game of `entries`
/// must measure one. The longest found is taken if none lasts that long.
fn long_ready_prefix(scenario: &crate::scenarios::Bundled, entries: u64) -> Result<Game, CliError> {
    let mut best: Option<Game> = None;
    for seed in 1..=LONG_GAME_SEEDS {
        let g = ready_prefix_seeded(scenario, entries, seed)?;
        // A ready point within the last dozen entries counts as the full length.
        if g.entries.len() as u64 + 12 >= entries {
            return Ok(g);
        }
        if best.as_ref().is_none_or(|b| b.entries.len() < g.entries.len()) {
            best = Some(g);
        }
    }
    best.ok_or_else(|| CliError::Other("no bot game was generated".into()))
}

/// A bot game of `scenario` (bot seed `seed`) cut at the last of its first `entries` entries
/// after which a seat is to send orders and no dice are owed (what a player asks `status`
/// and a template of).
fn ready_prefix_seeded(scenario: &crate::scenarios::Bundled, entries: u64, seed: u64) -> Result<Game, CliError> {
    let seats = crate::scenarios::seats(scenario);
    let (mut game, mut players) =
        bot::start_game(scenario, &seats, seed, 16_384, "2000-01-01T00:00:00Z").map_err(|e| CliError::Other(e.to_string()))?;
    let mut clock = || "2000-01-01T00:00:00Z".to_string();
    let mut ready = 0;
    let mut keep = |_: &Entry, g: &Game| {
        // Ready: a seat is to send orders it can write without its key (no dice, private
        // draw or leading roll owed first), as `orders template` without `--key` needs.
        let awaits = g.state.expect().awaits;
        let free = |seat: &str| g.lead_for(seat, None).is_none() && !g.draws.iter().any(|d| d.dice_from == seat);
        if g.pending.is_none() && g.ending.is_none() && !awaits.is_empty() && awaits.iter().all(|a| free(&a.seat)) {
            ready = g.entries.len();
        }
        Ok(())
    };
    match bot::play_out(&mut game, &mut players, seed, entries - 1, &mut clock, &mut keep) {
        Ok(()) | Err(bot::BotError::TooLong(_)) => {}
        Err(e) => return Err(CliError::Other(e.to_string())),
    }
    Game::replay(&game.entries[..ready.max(1)]).map_err(|(_, e)| CliError::Other(e.to_string()))
}

/// Time `umpire apply LOG ENTRY` (the real binary, a fresh process each time) on a copy of
/// `prefix`, with the cache `cache` (or none) in place before each run.
/// Returns the median wall time and the median CPU time.
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
    Ok((median(times.iter().map(|t| t.0).collect()), median(times.iter().map(|t| t.1).collect())))
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

/// Run `exe args…` to the end; fails unless it exits 0 (or `code`, if given).
fn run_exe(exe: &std::path::Path, args: &[&std::ffi::OsStr], code: i32) -> Result<(), CliError> {
    let out = std::process::Command::new(exe).args(args).output().map_err(|e| CliError::Other(e.to_string()))?;
    if out.status.code() != Some(code) {
        return Err(CliError::Other(format!(
            "bench: {} {args:?} exited {:?}: {}",
            exe.display(),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}

/// The peak resident memory (KiB) of `exe args…`, run to the end: its `VmHWM` in
/// `/proc/PID/status` as the process reports it at its end ([`super::report_peak_memory`]),
/// and as sampled every millisecond while it runs (Linux; 0 elsewhere), whichever is larger.
/// Sampling alone misses the peak when it comes in the last moments, as a verify's does
/// (every entry held), and read 20.0 MiB where the process ended at 22.5 (2026-12-02). Not
/// `wait4`'s `ru_maxrss`: a child spawned with vfork records this process's own peak at its
/// exec, so that figure would be the benchmark's memory, not the command's.
fn peak_kib(exe: &std::path::Path, args: &[&std::ffi::OsStr], report: &std::path::Path) -> Result<u64, CliError> {
    let mut child = std::process::Command::new(exe)
        .args(args)
        .env(super::PEAK_REPORT_VAR, report)
        .stdout(std::process::Stdio::null())
        .spawn()
        .map_err(io)?;
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        // VmHWM only grows; a read after the exit (a zombie has none) changes nothing.
        if let Some(kib) = super::peak_kib_in(&status) {
            peak = peak.max(kib);
        }
        if child.try_wait().map_err(io)?.is_some() {
            let reported = std::fs::read_to_string(report).ok().and_then(|t| t.trim().parse::<u64>().ok()).unwrap_or(0);
            let _ = std::fs::remove_file(report);
            return Ok(peak.max(reported));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Bot games of `scenario` as `umpire selfplay` plays them (seeds 1, 2, …), until `entries`
/// entries or `games` games, whichever comes first.
fn bot_games(scenario: &crate::scenarios::Bundled, games: usize, entries: usize) -> Result<Vec<Game>, CliError> {
    let seats = crate::scenarios::seats(scenario);
    let mut out = Vec::new();
    let mut total = 0;
    while out.len() < games && total < entries {
        let seed = out.len() as u64 + 1;
        let (mut game, mut players) =
            bot::start_game(scenario, &seats, seed, 4096, "2000-01-01T00:00:00Z").map_err(|e| CliError::Other(e.to_string()))?;
        let mut clock = || "2000-01-01T00:00:00Z".to_string();
        let mut keep = |_: &Entry, _: &Game| Ok(());
        match bot::play_out(&mut game, &mut players, seed, 20_000, &mut clock, &mut keep) {
            Ok(()) | Err(bot::BotError::TooLong(_)) => {}
            Err(e) => return Err(CliError::Other(format!("{} seed {seed}: {e}", scenario.name))),
        }
        total += game.entries.len();
        out.push(game);
    }
    Ok(out)
}

/// `verify`'s whole check of each log in this process, the omniscient pass included (as
/// [`super::verify_bytes`]); panics if one does not verify. Returns the entries.
fn full_with_hidden(logs: &[Vec<u8>]) -> usize {
    for l in logs {
        assert!(super::verify_bytes(l), "a bot game does not verify");
    }
    logs.iter().map(|l| store::split_log(l).len()).sum()
}

fn io(e: std::io::Error) -> CliError {
    CliError::Other(e.to_string())
}

/// `umpire bench`.
pub fn run(a: BenchArgs) -> Result<i32, CliError> {
    let reps = a.reps.max(5);
    let scenario = long_marne()?;
    let exe = std::env::current_exe().map_err(io)?;
    let work = std::env::temp_dir().join(format!("umpire-bench-files-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(io)?;
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
    let prepared = Signed::prepare(&logs);
    let t = alternate(
        reps,
        &mut [
            &mut || {
                floor(&logs, 2);
            },
            &mut || {
                full(&logs);
            },
            &mut || {
                floor(&logs, 1);
            },
            &mut || {
                full_with(&logs, super::verify::Pipeline::OneThread);
            },
            &mut || {
                signatures(&prepared, 2);
            },
        ],
    );
    let (t_floor2, t_full, t_floor1, t_full1, t_sigs) = (t[0], t[1], t[2], t[3], t[4]);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    let r_verify = ms(t_full) / ms(t_floor2);
    let verify_rows = || {
        say!(
            "| verify {total} generated entries ({}), in-process, 2 threads | {:.0} ms | floor (split, SHA-256, generic YAML parse, verify_strict; 2 threads) {:.0} ms | {r_verify:.2}× floor | < 500 ms: {}; ≤ 1.5× floor: {} |",
            if games.len() == 1 { "one game".to_string() } else { format!("{} games of {} entries", games.len(), sizes.join(" + ")) },
            ms(t_full),
            ms(t_floor2),
            verdict(ms(t_full) < 500.0),
            verdict(r_verify <= 1.5)
        );
        say!(
            "| `verify_strict` alone, the {total} entries' signatures ready, 2 threads | {:.0} ms | the floor, 2 threads {:.0} ms | {:.2}× the floor | no verify is faster: under 500 ms {} on this machine |",
            ms(t_sigs),
            ms(t_floor2),
            ms(t_sigs) / ms(t_floor2),
            if ms(t_sigs) < 500.0 { "possible" } else { "IMPOSSIBLE" }
        );
        say!(
            "| the floor on one thread | {:.0} ms | floor, 2 threads {:.0} ms | {:.2}× | |",
            ms(t_floor1),
            ms(t_floor2),
            ms(t_floor1) / ms(t_floor2)
        );
        say!(
            "| verify on one thread (everything on the calling thread) | {:.0} ms | verify, 2 threads {:.0} ms | {:.2}× (2.00× would be both cores fully used) | |",
            ms(t_full1),
            ms(t_full),
            ms(t_full1) / ms(t_full)
        );
    };
    if a.verify_only {
        let _ = std::fs::remove_dir_all(&work);
        say!("Medians of {reps} runs; a measurement and its baseline alternate. 2 threads where said.");
        say!();
        say!("| measurement | time | baseline (same run) | ratio | target |");
        say!("|---|---|---|---|---|");
        verify_rows();
        return Ok(0);
    }

    // Peak memory of `umpire verify` on the largest log, against the log's size.
    let largest = logs.iter().enumerate().max_by_key(|(_, l)| l.len()).map(|(i, _)| i).unwrap_or(0);
    let big = work.join("largest.log");
    std::fs::write(&big, &logs[largest]).map_err(io)?;
    // Medians of 5: the peak varies by a few hundred KiB from run to run.
    let median_peak = |p: &std::path::Path| -> Result<u64, CliError> {
        let mut v =
            (0..5).map(|_| peak_kib(&exe, &["verify".as_ref(), p.as_os_str()], &work.join("peak.kib"))).collect::<Result<Vec<_>, _>>()?;
        v.sort_unstable();
        Ok(v[2])
    };
    let peak = median_peak(&big)?;
    let big_len = logs[largest].len() as u64;
    // Memory per byte of log: the largest game verified whole (above) and as its first half.
    // Both processes pay the same fixed costs (the binary's pages, the scenario, the full
    // parse-ahead window of 8 chunks of 64 entries), so the difference is what each further
    // byte of log costs, which says whether the limit holds for logs far larger than a bot
    // game (Glory's End games end by turn 255, so no bot game is much longer).
    let head = games[largest].entries.len() / 2;
    let small = work.join("half.log");
    let small_bytes = store::join_log(&games[largest].entries[..head]);
    std::fs::write(&small, &small_bytes).map_err(io)?;
    let peak_small = median_peak(&small)?;
    let small_len = small_bytes.len() as u64;

    // A tournament: bot games verified by one `umpire verify A.log B.log …` against one
    // `umpire verify X.log` process after another.
    say_err!("generating {} Marne bot games for the tournament…", a.tournament_games);
    let marne = crate::scenarios::find("glorys-end/marne").ok_or_else(|| CliError::Other("the bundled Marne is missing".into()))?;
    let t_games = bot_games(marne, a.tournament_games, usize::MAX)?;
    let t_entries: usize = t_games.iter().map(|g| g.entries.len()).sum();
    let tdir = work.join("tournament");
    std::fs::create_dir_all(&tdir).map_err(io)?;
    let mut t_logs = Vec::new();
    for (i, g) in t_games.iter().enumerate() {
        let p = tdir.join(format!("game-{:03}.log", i + 1));
        std::fs::write(&p, store::join_log(&g.entries)).map_err(io)?;
        t_logs.push(p);
    }
    drop(t_games);
    say_err!("measuring the tournament ({} logs, {t_entries} entries)…", t_logs.len());
    let mut failed: Result<(), CliError> = Ok(());
    let mut one_args: Vec<&std::ffi::OsStr> = vec!["verify".as_ref()];
    one_args.extend(t_logs.iter().map(|p| p.as_os_str()));
    let t = {
        let failed = std::cell::RefCell::new(&mut failed);
        alternate(
            reps,
            &mut [
                &mut || {
                    if let Err(e) = run_exe(&exe, &one_args, 0) {
                        **failed.borrow_mut() = Err(e);
                    }
                },
                &mut || {
                    for p in &t_logs {
                        if let Err(e) = run_exe(&exe, &["verify".as_ref(), p.as_os_str()], 0) {
                            **failed.borrow_mut() = Err(e);
                        }
                    }
                },
            ],
        )
    };
    failed?;
    let (t_tour, t_separate) = (t[0], t[1]);

    // The First World War against Glory's End, per entry, the omniscient pass included.
    say_err!("generating First World War bot games of {} entries…", a.fww_entries);
    let fww = crate::scenarios::find("first-world-war/standard").ok_or_else(|| CliError::Other("the bundled FWW is missing".into()))?;
    let fww_logs: Vec<Vec<u8>> = bot_games(fww, usize::MAX, a.fww_entries)?.iter().map(|g| store::join_log(&g.entries)).collect();
    let ge_logs: Vec<Vec<u8>> = bot_games(marne, usize::MAX, a.fww_entries)?.iter().map(|g| store::join_log(&g.entries)).collect();
    let (mut n_fww, mut n_ge) = (0, 0);
    let t = alternate(
        reps,
        &mut [
            &mut || {
                n_fww = full_with_hidden(&fww_logs);
            },
            &mut || {
                n_ge = full_with_hidden(&ge_logs);
            },
        ],
    );
    let us = |d: Duration, n: usize| d.as_secs_f64() * 1e6 / n.max(1) as f64;
    let (fww_per, ge_per) = (us(t[0], n_fww), us(t[1], n_ge));

    // apply: entry N onto the first N entries of the first game, as a player runs it.
    let game = &games[0];
    let n = a.apply_entries.min(game.entries.len() - 1);
    say_err!("measuring apply of entry {n} to a {n}-entry game…");
    let prefix = store::join_log(&game.entries[..n]);
    let next = &game.entries[n];
    let t_nocache = time_apply(&exe, reps, &prefix, next, None)?;
    let cache = {
        let dir = work.join("cache");
        std::fs::create_dir_all(&dir).map_err(io)?;
        let log = dir.join("game.log");
        let mut pre = Game::replay(&game.entries[..n]).map_err(|(_, e)| CliError::Other(e.to_string()))?;
        crate::cache::write(&log, &mut pre);
        std::fs::read(crate::cache::path_for(&log)).map_err(io)?
    };
    let t_cache = time_apply(&exe, reps, &prefix, next, Some(&cache))?;

    // The read-only commands on a 300-entry Campaign game, as whole processes, with the
    // cache `apply` would have left next to the log.
    say_err!("measuring status, orders template and orders check on a campaign game…");
    let campaign =
        crate::scenarios::find("glorys-end/campaign").ok_or_else(|| CliError::Other("the bundled campaign is missing".into()))?;
    let mut cgame = long_ready_prefix(campaign, CAMPAIGN_ENTRIES)?;
    let clog = work.join("campaign.log");
    std::fs::write(&clog, store::join_log(&cgame.entries)).map_err(io)?;
    crate::cache::write(&clog, &mut cgame);
    let seat = cgame.state.expect().awaits.first().map(|w| w.seat.clone()).unwrap_or_default();
    let template = std::process::Command::new(&exe)
        .args(["orders".as_ref(), "template".as_ref(), clog.as_os_str(), "--as".as_ref(), seat.as_ref() as &std::ffi::OsStr])
        .output()
        .map_err(io)?;
    let orders_file = work.join("orders.yaml");
    std::fs::write(&orders_file, &template.stdout).map_err(io)?;
    let check_code = std::process::Command::new(&exe)
        .args([
            "orders".as_ref(),
            "check".as_ref(),
            clog.as_os_str(),
            orders_file.as_os_str(),
            "--as".as_ref(),
            seat.as_ref() as &std::ffi::OsStr,
        ])
        .output()
        .map_err(io)?
        .status
        .code()
        .unwrap_or(-1);
    let mut failed: Result<(), CliError> = Ok(());
    let t = {
        let failed = std::cell::RefCell::new(&mut failed);
        let run = |args: &[&std::ffi::OsStr], code: i32| {
            if let Err(e) = run_exe(&exe, args, code) {
                **failed.borrow_mut() = Err(e);
            }
        };
        alternate(
            reps,
            &mut [
                &mut || run(&["status".as_ref(), clog.as_os_str()], 0),
                &mut || run(&["orders".as_ref(), "template".as_ref(), clog.as_os_str(), "--as".as_ref(), seat.as_ref()], 0),
                &mut || {
                    run(
                        &["orders".as_ref(), "check".as_ref(), clog.as_os_str(), orders_file.as_os_str(), "--as".as_ref(), seat.as_ref()],
                        check_code,
                    )
                },
            ],
        )
    };
    failed?;
    let (t_status, t_template, t_check_proc) = (t[0], t[1], t[2]);

    // check: validating the largest orders entry (a full turn's moves) against its prestate,
    // on the Marne game and on the Campaign game (the largest bundled map).
    say_err!("measuring orders check in-process and start-up…");
    let check_marne = largest_check(game, reps)?;
    let check_campaign = largest_check(&cgame, reps)?;

    // start-up: the binary answering --version, against the same for `true`.
    let t = alternate(
        reps.max(10),
        &mut [
            &mut || {
                let _ = std::process::Command::new(&exe).arg("--version").output();
            },
            &mut || {
                let _ = std::process::Command::new("true").output();
            },
        ],
    );
    let (t_start, t_true) = (t[0], t[1]);
    let _ = std::fs::remove_dir_all(&work);

    say!("Medians of {reps} runs; a measurement and its baseline alternate. 2 threads where said.");
    say!();
    say!("| measurement | time | baseline (same run) | ratio | target |");
    say!("|---|---|---|---|---|");
    verify_rows();
    let limit = 2 * big_len + 20 * 1024 * 1024;
    say!(
        "| peak memory of `umpire verify` on the largest log ({} entries, {:.1} MiB) | {:.1} MiB | 2× log + 20 MiB = {:.1} MiB | {:.2}× limit | ≤ limit: {} |",
        games[largest].entries.len(),
        big_len as f64 / 1048576.0,
        peak as f64 / 1024.0,
        limit as f64 / 1048576.0,
        (peak * 1024) as f64 / limit as f64,
        verdict(peak * 1024 <= limit)
    );
    // Resident bytes per byte of log between the two, and where that line reaches at 250 MiB
    // (issue 20's own example: 1.26 GB then).
    let slope = (peak.saturating_sub(peak_small) * 1024) as f64 / big_len.saturating_sub(small_len).max(1) as f64;
    let far = 250 * 1024 * 1024_u64;
    let projected = (peak_small * 1024) as f64 + slope * far.saturating_sub(small_len) as f64;
    let far_limit = (2 * far + 20 * 1024 * 1024) as f64;
    say!(
        "| memory per byte of log: peak of `umpire verify` on one game of {} entries ({:.1} MiB of log, {:.1} MiB) against its first {head} ({:.1} MiB of log, {:.1} MiB) | {slope:.2} bytes per byte | 2× log + 20 MiB, at a 250 MiB log: {:.0} MiB projected against a limit of {:.0} MiB | {:.2}× limit | ≤ limit: {} |",
        games[largest].entries.len(),
        big_len as f64 / 1048576.0,
        peak as f64 / 1024.0,
        small_len as f64 / 1048576.0,
        peak_small as f64 / 1024.0,
        projected / 1048576.0,
        far_limit / 1048576.0,
        projected / far_limit,
        verdict(projected <= far_limit)
    );
    let speedup = ms(t_separate) / ms(t_tour);
    say!(
        "| tournament: `umpire verify` of {} Marne bot-game logs ({t_entries} entries) in one process | {:.0} ms | {} separate `umpire verify` processes, one after another: {:.0} ms | {speedup:.2}× faster | ≥ 1.8×: {} |",
        t_logs.len(),
        ms(t_tour),
        t_logs.len(),
        ms(t_separate),
        verdict(speedup >= 1.8)
    );
    say!(
        "| First World War verify per entry, omniscient pass included ({n_fww} entries of bot games, in-process) | {fww_per:.0} µs | Glory's End (Marne bot games, {n_ge} entries) {ge_per:.0} µs | {:.2}× | ≤ 1.3×: {} |",
        fww_per / ge_per,
        verdict(fww_per / ge_per <= 1.3)
    );
    say!(
        "| apply entry {n} to a {n}-entry game, with cache (`umpire apply`, whole process incl. fsync) | {:.1} ms (CPU {:.1} ms) | start-up {:.1} ms | {:.1}× start-up | < 30 ms: {} |",
        ms(t_cache.0),
        ms(t_cache.1),
        ms(t_start),
        ms(t_cache.0) / ms(t_start),
        verdict(ms(t_cache.0) < 30.0)
    );
    say!(
        "| same, without cache (replay from genesis) | {:.1} ms (CPU {:.1} ms) | with cache {:.1} ms | {:.1}× with cache | |",
        ms(t_nocache.0),
        ms(t_nocache.1),
        ms(t_cache.0),
        ms(t_nocache.0) / ms(t_cache.0)
    );
    for (what, d) in [
        ("status", t_status),
        (&*format!("orders template --as {seat}"), t_template),
        (&*format!("orders check --as {seat} (its template)"), t_check_proc),
    ] {
        say!(
            "| `umpire {what}` of a {}-entry Campaign game, whole process, cache present | {:.1} ms | start-up {:.1} ms | {:.1}× start-up | < 20 ms: {} |",
            cgame.entries.len(),
            ms(d),
            ms(t_start),
            ms(d) / ms(t_start),
            verdict(ms(d) < 20.0)
        );
    }
    for (map, (t_check, size, seq)) in [("Marne map", check_marne), ("campaign map, the largest bundled", check_campaign)] {
        say!(
            "| orders check of the largest entry of a bot game, in-process ({map}: entry {seq}, {size} bytes of orders YAML) | {:.3} ms | start-up {:.1} ms | {:.3}× start-up | |",
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
