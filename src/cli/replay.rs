//! `umpire replay` (step by step, with a diff of each step) and `umpire show`.

use std::path::{Path, PathBuf};

use super::common::{self, CliError, fail};
use super::term::{one_line, say, say_raw};
use crate::engine::game::Game;
use crate::engine::hidden::Knowledge;
use crate::engine::registry::AnyState;
use crate::log::store;

/// Arguments of `umpire replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game log.
    pub log: PathBuf,
    /// Stop after entry N.
    #[arg(long, value_name = "N")]
    pub to: Option<u64>,
    /// Show only what SEAT may see.
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// SEAT's secret key: replay with what that seat knows (its own hidden values, its
    /// partners' notes, its private draws); without it, only what the log has opened.
    #[arg(long, value_name = "FILE", requires = "seat")]
    pub key: Option<PathBuf>,
    /// Write one self-contained HTML page (map of every step, events, dice, diffs; a slider
    /// and ← →) to FILE instead of printing the replay.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Arguments of `umpire show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The game log.
    pub log: PathBuf,
    /// The state after entry N (default: now).
    #[arg(long, value_name = "N")]
    pub at: Option<u64>,
    /// Show only what SEAT may see.
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// SEAT's secret key: show what that seat knows (its own hidden values…); without it,
    /// only what the log has opened.
    #[arg(long, value_name = "FILE", requires = "seat")]
    pub key: Option<PathBuf>,
    /// Also write the map of that state as SVG to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

fn seen(state: &AnyState, seat: Option<&str>) -> String {
    match seat {
        Some(s) => state.view(s).describe(),
        None => state.describe(),
    }
}

/// A unified diff of two descriptions, changed lines only.
pub fn diff(before: &str, after: &str) -> String {
    let d = similar::TextDiff::from_lines(before, after);
    let mut out = String::new();
    for change in d.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => "-",
            similar::ChangeTag::Insert => "+",
            similar::ChangeTag::Equal => continue,
        };
        out.push_str(&format!("      {sign} {}", change.value()));
        if !change.value().ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn seen_state(state: &AnyState, seat: Option<&str>) -> AnyState {
    match seat {
        Some(s) => state.view(s),
        None => state.clone(),
    }
}

/// The knowledge of a replay: seat mode with `seat`'s key when one is given, else public.
fn knowledge_for(first: &crate::log::Entry, seat: Option<&str>, key: Option<&Path>) -> Result<Knowledge, CliError> {
    match (seat, key) {
        (Some(seat), Some(path)) => {
            let k = common::key_for_seat(&Game::from_genesis(first)?, seat, path)?;
            Ok(Knowledge::seat(seat, k))
        }
        (None, Some(_)) => Err(CliError::Usage("--key needs --as SEAT".into())),
        _ => Ok(Knowledge::public()),
    }
}

/// The replay page of a log up to entry `to` (all of it if `None`), seen by `seat`.
pub fn replay_page(entries: &[crate::log::Entry], seat: Option<&str>, to: Option<u64>) -> Result<String, CliError> {
    replay_page_with(entries, seat, to, Knowledge::public())
}

/// [`replay_page`] under `knowledge` (seat mode for `--as SEAT --key K`).
pub fn replay_page_with(
    entries: &[crate::log::Entry],
    seat: Option<&str>,
    to: Option<u64>,
    knowledge: Knowledge,
) -> Result<String, CliError> {
    use crate::render::html::{Page, Step};
    let Some(first) = entries.first() else { return fail("the log is empty") };
    if let Some(s) = seat {
        check_seat_name(first, s)?;
    }
    let mut game = Game::from_genesis_with(first, knowledge)?;
    let mut before = seen(&game.state, seat);
    let mut steps = vec![Step {
        label: format!("entry 0 · genesis by {} · {}", first.seat(), first.hash.short(16)),
        events: game.steps[0].events.clone(),
        pending: None,
        note: first.draft.body.note.clone(),
        diff: before.lines().map(|l| format!("  {l}")).collect(),
        picture: seen_state(&game.state, seat).picture(),
    }];
    let last = to.unwrap_or(u64::MAX);
    for e in entries.iter().skip(1) {
        if e.seq() > last {
            break;
        }
        let step = game.apply(e).map_err(|err| CliError::Other(format!("replay stops: {err}")))?.clone();
        let after = seen(&game.state, seat);
        let d = diff(&before, &after);
        steps.push(Step {
            label: format!("entry {} · {:?} by {} · {}", step.seq, step.kind, step.seat, step.hash.short(16)),
            events: step.events.clone(),
            pending: step.pending.clone(),
            note: step.note.clone(),
            diff: d.lines().map(|l| l.trim_start().to_string()).collect(),
            picture: seen_state(&game.state, seat).picture(),
        });
        before = after;
    }
    let g = game.genesis();
    let title = format!("{} — {}", game.state.ruleset().title(), g.scenario.name);
    let view = seat.map_or("the whole state (no --as)".to_string(), |s| format!("seen by {s}"));
    let subtitle = format!("game {} · {} entries · {view} · umpire replay", game.id().short(16), steps.len());
    Ok(crate::render::html::page(&Page { title, subtitle, steps }))
}

/// `umpire replay`.
pub fn run_replay(a: ReplayArgs) -> Result<i32, CliError> {
    let entries = store::read_log(&a.log)?;
    let Some(first) = entries.first() else { return fail("the log is empty") };
    if let Some(s) = &a.seat {
        check_seat_name(first, s)?;
    }
    let knowledge = knowledge_for(first, a.seat.as_deref(), a.key.as_deref())?;
    if let Some(out) = &a.html {
        let page = replay_page_with(&entries, a.seat.as_deref(), a.to, knowledge)?;
        std::fs::write(out, page).map_err(|e| CliError::Other(format!("{}: {e}", out.display())))?;
        say!("wrote {}", out.display());
        return Ok(0);
    }
    let mut game = Game::from_genesis_with(first, knowledge)?;
    let mut before = seen(&game.state, a.seat.as_deref());
    say!("== entry 0 (genesis by {}) {}", one_line(first.seat()), first.hash.short(16));
    common::print_events(&game.steps[0].events);
    say!("{}", indent(&before));
    let last = a.to.unwrap_or(u64::MAX);
    for e in entries.iter().skip(1) {
        if e.seq() > last {
            break;
        }
        let step = game.apply(e).map_err(|err| CliError::Other(format!("replay stops: {err}")))?.clone();
        say!("== entry {} ({:?} by {}) {}", step.seq, step.kind, one_line(&step.seat), step.hash.short(16));
        if let Some(n) = &step.note {
            say!("    note: {}", one_line(n));
        }
        common::print_events(&step.events);
        if let Some(p) = &step.pending {
            say!("    awaiting dice: {p}");
        }
        let after = seen(&game.state, a.seat.as_deref());
        let d = diff(&before, &after);
        if !d.is_empty() {
            say!("    changes:");
            say_raw!("{d}");
        }
        before = after;
    }
    Ok(0)
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
}

fn check_seat_name(genesis: &crate::log::Entry, seat: &str) -> Result<(), CliError> {
    let ok = genesis.draft.body.seats.iter().flatten().any(|s| s.seat == seat);
    if !ok {
        return Err(CliError::Usage(format!("there is no seat {seat:?} in this game")));
    }
    Ok(())
}

/// `umpire show`.
pub fn run_show(a: ShowArgs) -> Result<i32, CliError> {
    let entries = store::read_log(&a.log)?;
    let n = match a.at {
        Some(n) if (n as usize) < entries.len() => n as usize + 1,
        Some(n) => return fail(format!("--at {n}: the log has entries 0..{}", entries.len().saturating_sub(1))),
        None => entries.len(),
    };
    let Some(first) = entries.first() else { return fail("the log is empty") };
    if let Some(s) = &a.seat {
        check_seat_name(first, s)?;
    }
    let knowledge = knowledge_for(first, a.seat.as_deref(), a.key.as_deref())?;
    let game = Game::replay_with(&entries[..n], knowledge).map_err(|(_, e)| {
        CliError::Other(format!("{}: {e}\n  (run `umpire verify {}` for the full audit)", a.log.display(), a.log.display()))
    })?;
    say!("game {} after entry {}", game.id().short(16), n - 1);
    say!("{}", game.state.expect().when);
    say_raw!("{}", seen(&game.state, a.seat.as_deref()));
    if !seen(&game.state, a.seat.as_deref()).ends_with('\n') {
        say!();
    }
    for (seat, what) in game.waiting_for() {
        say!("waiting for {seat}: {what}");
    }
    if let Some(out) = &a.svg {
        let svg = crate::render::svg::to_svg(&seen_state(&game.state, a.seat.as_deref()).picture());
        std::fs::write(out, svg).map_err(|e| CliError::Other(format!("{}: {e}", out.display())))?;
        say!("map: {}", out.display());
    }
    Ok(0)
}

#[cfg(test)]
mod hidden_tests {
    use super::replay_page_with;
    use crate::engine::hidden::Knowledge;
    use crate::engine::toy::tests::scripted;

    #[test]
    fn a_seat_with_its_key_sees_its_hidden_values_and_nobody_else_does() {
        let (g, p, publics) = scripted();
        // Up to the entry before the reveal: the number (5) is still hidden.
        let to = Some(publics[publics.len() - 2].entries.len() as u64 - 1);
        let hider = Knowledge::seat("hider", p.key("hider").unwrap().clone());
        let page = replay_page_with(&g.entries, Some("hider"), to, hider).unwrap();
        assert!(page.contains("number 5"));
        let public = replay_page_with(&g.entries, Some("hider"), to, Knowledge::public()).unwrap();
        assert!(!public.contains("number 5") && public.contains("number ?"));
        let seeker = Knowledge::seat("seeker", p.key("seeker").unwrap().clone());
        let page = replay_page_with(&g.entries, Some("seeker"), to, seeker).unwrap();
        assert!(!page.contains("number 5") && page.contains("number ?"));
    }
}
