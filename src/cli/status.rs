//! `umpire status`: where the game stands and exactly who must send what.

use std::path::PathBuf;

use serde::Serialize;

use super::common::{self, CliError};
use super::term::{one_line, say};
use crate::engine::game::{Game, describe_outcome};

/// Arguments of `umpire status`.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// The game log.
    pub log: PathBuf,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Your seat: with --key, show the outcome of dice you owe before you answer.
    #[arg(long = "as", value_name = "SEAT", requires = "key")]
    pub seat: Option<String>,
    /// Your secret key (with --as).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
}

#[derive(Serialize)]
struct StatusJson<'a> {
    game: String,
    ruleset: &'a str,
    scenario: &'a str,
    entries: usize,
    last_seq: u64,
    when: String,
    awaiting: Vec<AwaitJson>,
    pending_dice: Option<&'a crate::engine::game::PendingDice>,
    outcome: Option<crate::engine::Outcome>,
}

#[derive(Serialize)]
struct AwaitJson {
    seat: String,
    what: String,
}

/// `umpire status`.
pub fn run(a: StatusArgs) -> Result<i32, CliError> {
    // The cache (see `crate::cache`) when it matches the log; a replay from genesis otherwise.
    let bytes = crate::log::store::read_log_bytes(&a.log)?;
    let game = match crate::cache::parse_with_cache(&a.log, &bytes)? {
        crate::cache::Parsed::Cached(r) => r.game,
        crate::cache::Parsed::Fresh(entries) => common::replay_entries(&entries, &a.log)?,
    };
    // A key that is not the seat's is an error before anything is shown (exit 1), whether
    // or not the seat owes dice now.
    if let (Some(seat), Some(key)) = (&a.seat, &a.key) {
        common::key_for_seat(&game, seat, key)?;
    }
    let exp = game.state.expect();
    let awaiting: Vec<AwaitJson> = game.waiting_for().into_iter().map(|(seat, what)| AwaitJson { seat, what }).collect();
    if a.json {
        let s = StatusJson {
            game: game.id().to_hex(),
            ruleset: game.ruleset.id(),
            scenario: &game.genesis().scenario.name,
            entries: game.entries.len(),
            last_seq: game.next_seq() - 1,
            when: exp.when.clone(),
            awaiting,
            pending_dice: game.pending.as_ref(),
            outcome: game.outcome(),
        };
        say!("{}", serde_json::to_string_pretty(&s).map_err(|e| CliError::Other(e.to_string()))?);
        return Ok(0);
    }
    say!("game {} — {} ({})", game.id().short(16), game.ruleset.title(), one_line(&game.genesis().scenario.name));
    say!("entries: {} (last seq {})", game.entries.len(), game.next_seq() - 1);
    if let Some(o) = game.outcome() {
        say!("GAME OVER: {}", describe_outcome(&o));
        // DESIGN §2.6: every hidden move is re-checked now; a cheat shows here too.
        if !game.commitments.is_empty()
            && let Err(cheats) = game.replay_omniscient()
        {
            for c in &cheats {
                say!("CHEAT at entry {} by {}: {}: {}", c.seq, c.seat, c.rule, c.message);
            }
            if let Some(v) = cheats.first().and_then(|c| game.state.cheat_verdict(&c.seat)) {
                say!("under the game's violation policy: {v}");
            }
        }
        return Ok(0);
    }
    if game.result_waits_for_openings() {
        say!("NOT OVER: the rules reached a result, but openings are owed (DESIGN §2.6):");
        for (s, ids) in game.owed_openings() {
            say!("  {s} owes the opening of {}", ids.join(", "));
        }
    }
    say!("{}", exp.when);
    for line in score_lines(&game) {
        say!("{line}");
    }
    if let Some(p) = &game.pending {
        say!("dice owed: entry {} by {} ({}) — revealed by the next entry of {}", p.seq, p.seat, p.what, p.dice_from);
    }
    for w in &awaiting {
        say!("waiting for {}: {}", w.seat, w.what);
    }
    if let Some(m) = &game.amendment {
        let what = m
            .undo_from
            .map_or("an agreed deviation".to_string(), |n| format!("taking back {}", crate::engine::amend::entries(n, m.seq - 1)));
        say!(
            "amendment proposed by {} at entry {}: {what} ({}); the other sides answer `umpire agree-amend`, or play on to let it lapse",
            m.seat,
            m.seq,
            m.reason
        );
    }
    for a in &game.amendments {
        say!("in force: {}", a.describe());
    }
    if let (Some(seat), Some(key)) = (&a.seat, &a.key) {
        preview_owed(&game, seat, key)?;
    }
    Ok(0)
}

/// The lines of `describe` that carry the score (those starting with `vp` or `score`).
fn score_lines(game: &Game) -> Vec<String> {
    game.state
        .describe()
        .lines()
        .filter(|l| l.to_ascii_lowercase().starts_with("vp") || l.to_ascii_lowercase().starts_with("score"))
        .map(str::to_string)
        .collect()
}

/// If `seat` owes dice, show what they will be (only its own key can know).
pub fn preview_owed(game: &Game, seat: &str, key_path: &std::path::Path) -> Result<(), CliError> {
    if game.lead_for(seat, None).is_some() {
        let key = common::key_for_seat(game, seat, key_path)?;
        let Some(reveal) = common::next_reveal(game, seat, &key)? else { return Ok(()) };
        let view = game.seat_view(seat, key)?;
        let (_, events) = view.state_before(seat, Some(&reveal));
        say!("your next entry opens with a leading roll (DESIGN §2.5); it will give:");
        common::print_events(&events);
        say!("write your orders for the situation after it (`umpire orders template LOG --as {seat} --key ...`)");
        return Ok(());
    }
    let Some(p) = &game.pending else { return Ok(()) };
    if p.dice_from != seat {
        return Ok(());
    }
    let key = common::key_for_seat(game, seat, key_path)?;
    let Some(reveal) = common::next_reveal(game, seat, &key)? else { return Ok(()) };
    // On the seat's own view: the private draws its entry settles may be known to it.
    let view = game.seat_view(seat, key)?;
    {
        // With the leading roll of a player turn those dice begin, when one does.
        let (state, events) = view.state_before(seat, Some(&reveal));
        say!("your next entry reveals the dice of entry {}; they will give:", p.seq);
        common::print_events(&events);
        let exp = state.expect();
        let mine: Vec<_> = exp.awaits.iter().filter(|w| w.seat == seat).collect();
        if mine.is_empty() {
            say!("you have nothing to decide: answer with `umpire ack {} --as {seat} --key {}`", game_log_hint(), key_path.display());
        } else {
            for w in mine {
                say!("then you must decide: {}", w.what);
            }
            say!("write it in orders (`umpire orders template LOG --as {seat} --key ...` shows the situation after the roll)");
        }
    }
    Ok(())
}

fn game_log_hint() -> &'static str {
    "LOG"
}
