//! `umpire selfplay`: many bot games through the whole protocol, each verified.

use std::collections::BTreeMap;
use std::time::Instant;

use super::common::{CliError, fail};
use super::term::{say, say_err};
use crate::engine::bot;
use crate::engine::game::Game;

/// Arguments of `umpire selfplay`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each game: genesis, joins, then random legal orders on every side until the result; the\nruleset's invariants are checked after every entry, and the finished log is replayed from\nscratch as `verify` does (with hidden values, also its omniscient pass). A failure prints the seed that reproduces it."
)]
pub struct SelfplayArgs {
    /// Ruleset.
    #[arg(long, default_value = "glorys-end")]
    pub ruleset: String,
    /// Bundled scenario (default: the ruleset's first).
    #[arg(long)]
    pub scenario: Option<String>,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// An optional rule of the ruleset for every game, as `umpire new --option`; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// `umpire selfplay`.
pub fn run(a: SelfplayArgs) -> Result<i32, CliError> {
    let scenario = match &a.scenario {
        Some(n) => crate::scenarios::find(n).ok_or_else(|| CliError::Usage(format!("no bundled scenario {n:?}")))?,
        None => crate::scenarios::ALL
            .iter()
            .find(|b| b.ruleset == a.ruleset)
            .ok_or_else(|| CliError::Usage(format!("--ruleset {:?}: unknown or without a bundled scenario", a.ruleset)))?,
    };
    let seats = crate::scenarios::seats(scenario);
    let options = super::new::parse_options(&a.options)?;
    let started = Instant::now();
    let (mut entries, mut rolls) = (0usize, 0usize);
    let mut tally = Tally::default();
    let mut results: BTreeMap<String, u64> = BTreeMap::new();
    let step = (a.games / 10).max(1);
    for i in 0..a.games {
        let seed = a.seed + i;
        let (mut game, mut players) = bot::start_game_with(scenario, &seats, seed, 4096, "2000-01-01T00:00:00Z", options.clone())
            .map_err(|e| CliError::Other(format!("seed {seed}: {e}")))?;
        let mut clock = || "2000-01-01T00:00:00Z".to_string();
        let first_turn = game.state.game_turn();
        let mut keep = |e: &crate::log::Entry, _: &Game| {
            tally.count(e);
            Ok(())
        };
        if let Err(e) = bot::play_out(&mut game, &mut players, seed, 20_000, &mut clock, &mut keep) {
            return fail(format!(
                "game with seed {seed} failed at entry {}: {e}\n  reproduce: umpire selfplay --ruleset {}{} --games 1 --seed {seed}{}",
                game.next_seq(),
                a.ruleset,
                a.scenario.as_ref().map(|n| format!(" --scenario {n}")).unwrap_or_default(),
                a.options.iter().map(|o| format!(" --option {o}")).collect::<String>()
            ));
        }
        match Game::replay(&game.entries) {
            Ok(v) if v.state == game.state && v.outcome() == game.outcome() => {}
            Ok(_) => return fail(format!("game with seed {seed}: replaying the log gives a different state (non-determinism)")),
            Err((_, e)) => return fail(format!("game with seed {seed} does not verify: {e}")),
        }
        // Hidden values (secret setup, hidden stacks): verify's omniscient pass re-checks every
        // hidden move once the values are opened.
        if !game.commitments.is_empty()
            && let Err(cheats) = game.replay_omniscient()
        {
            let c = &cheats[0];
            return fail(format!(
                "game with seed {seed} fails the omniscient pass: entry {} by {}: {}: {}",
                c.seq, c.seat, c.rule, c.message
            ));
        }
        tally.turns += u64::from(game.state.game_turn().saturating_sub(first_turn) + 1);
        tally.automatic += players.automatic;
        entries += game.entries.len();
        rolls += game.steps.iter().flat_map(|s| &s.resolved).map(|r| r.rolls.len()).sum::<usize>();
        let key = match game.outcome() {
            Some(crate::engine::Outcome::Win { side, .. }) => format!("{side} wins"),
            Some(crate::engine::Outcome::Draw { .. }) => "draw".into(),
            None => "unfinished".into(),
        };
        *results.entry(key).or_insert(0) += 1;
        if (i + 1) % step == 0 || i + 1 == a.games {
            say_err!("  {}/{} games ({:.1} s)", i + 1, a.games, started.elapsed().as_secs_f64());
        }
    }
    let secs = started.elapsed().as_secs_f64();
    say!("{} games of {} (seeds {}..{}): every entry checked, every log re-verified", a.games, scenario.name, a.seed, a.seed + a.games);
    say!("  entries: {entries} ({:.1} per game), dice rolled: {rolls}", entries as f64 / a.games.max(1) as f64);
    say!("{}", tally.report());
    for (k, n) in &results {
        say!("  {k}: {n}");
    }
    say!("  time: {secs:.1} s ({:.1} ms per game)", secs * 1000.0 / a.games.max(1) as f64);
    Ok(0)
}

/// Entries of play per game turn, and how many of them needed a human decision: the bot
/// counts those it wrote with no choice to make (acks, orders the rules leave no choice in,
/// `bot::Players::automatic`: what the mail robot writes, docs/robot.md); every other entry
/// is a human's. Issue 17's count (BENCHMARKS.md "Entries per game turn").
#[derive(Default)]
struct Tally {
    /// Entries after the joins.
    play: u64,
    /// Of them, the ones no human had to write.
    automatic: u64,
    /// Game turns played, summed over the games (a game ending mid-turn counts that turn).
    turns: u64,
}

impl Tally {
    fn count(&mut self, e: &crate::log::Entry) {
        use crate::log::entry::Kind;
        if !matches!(e.draft.body.kind, Kind::Genesis | Kind::Join) {
            self.play += 1;
        }
    }

    fn report(&self) -> String {
        let per_turn = |n: u64| n as f64 / self.turns.max(1) as f64;
        format!(
            "  per game turn: {:.2} entries, {:.2} needing a human decision, {:.2} automatic ({} game turns, {} entries of play)",
            per_turn(self.play),
            per_turn(self.play - self.automatic),
            per_turn(self.automatic),
            self.turns,
            self.play
        )
    }
}
