//! `umpire orders template|check|sign`.

use std::path::{Path, PathBuf};

use super::SignerArgs;
use super::common::{self, CliError, MAX_ORDERS_BYTES};
use super::term::{say, say_err, say_raw};
use crate::crypto::keys::SecretKey;
use crate::engine::author::{AuthorError, complete_body};
use crate::engine::game::Game;
use crate::engine::registry::{AnyState, OrdersError};
use crate::log::entry::{Body, Kind};

/// Orders commands.
#[derive(Debug, clap::Subcommand)]
pub enum OrdersCommand {
    /// Print a commented YAML skeleton of what SEAT is expected to send now.
    Template {
        /// The game log.
        log: PathBuf,
        /// Your seat.
        #[arg(long = "as", value_name = "SEAT")]
        seat: String,
        /// Your key: if you owe dice, the template is for the situation after the roll.
        #[arg(long, value_name = "FILE")]
        key: Option<PathBuf>,
    },
    /// Check orders: every violation with the rule it breaks; what is certain is previewed.
    Check {
        /// The game log.
        log: PathBuf,
        /// The orders file (YAML; `-` for standard input).
        orders: PathBuf,
        /// Your seat.
        #[arg(long = "as", value_name = "SEAT")]
        seat: String,
        /// Your key: if you owe dice, orders are checked against the situation after the roll.
        #[arg(long, value_name = "FILE")]
        key: Option<PathBuf>,
    },
    /// Check, sign and append orders; write the entry file to send.
    Sign {
        /// The game log.
        log: PathBuf,
        /// The orders file (YAML).
        orders: PathBuf,
        #[command(flatten)]
        signer: SignerArgs,
    },
}

/// The seat's own view (seat mode) when it gives its key, else the public game.
fn view_for(game: &Game, seat: &str, key: Option<&Path>) -> Result<(Game, Option<SecretKey>), CliError> {
    match key {
        Some(path) => {
            let k = common::key_for_seat(game, seat, path)?;
            Ok((game.seat_view(seat, k.clone())?, Some(k)))
        }
        None => Ok((game.clone(), None)),
    }
}

/// The state `seat` must write orders against: after the dice and private draws it owes,
/// when it owes some, on its own view when it gives its key.
fn state_for(view: &Game, seat: &str, key: Option<&SecretKey>) -> Result<AnyState, CliError> {
    let owes_draws = view.draws.iter().any(|d| d.dice_from == seat);
    let owes_dice = view.pending.as_ref().filter(|p| p.dice_from == seat);
    let leads = view.lead_for(seat, None).is_some();
    if owes_dice.is_none() && !owes_draws && !leads {
        return Ok(view.state.clone());
    }
    let Some(key) = key else {
        if let Some(p) = owes_dice {
            return Err(CliError::Usage(format!(
                "you owe the dice of entry {} ({}); give --key so umpire can show the situation after the roll",
                p.seq, p.what
            )));
        }
        if leads {
            return Err(CliError::Usage(
                "your next entry opens with a leading roll (DESIGN §2.5); give --key so umpire can show the situation after it".into(),
            ));
        }
        return Err(CliError::Usage("your next entry settles a private draw; give --key so umpire can show the situation after it".into()));
    };
    let reveal = common::next_reveal(view, seat, key)?.ok_or_else(|| CliError::Other("no chain yet".into()))?;
    let (state, events) = view.state_before(seat, Some(&reveal));
    if let Some(p) = owes_dice {
        say!("# the dice you owe (entry {}) give:", p.seq);
    } else if leads {
        say!("# your next entry opens with a leading roll (DESIGN §2.5):");
    } else {
        say!("# your next entry settles:");
    }
    for e in &events {
        say!("#   {}", e.text);
    }
    Ok(state)
}

fn read_orders(path: &Path) -> Result<yaml_serde::Value, CliError> {
    Ok(read_orders_text(path)?.1)
}

/// The orders file's text and its YAML.
fn read_orders_text(path: &Path) -> Result<(String, yaml_serde::Value), CliError> {
    let bytes = common::read_limited(path, MAX_ORDERS_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| CliError::Other(format!("{}: not UTF-8", path.display())))?;
    let v: yaml_serde::Value =
        crate::log::yamlscan::from_str(&text).map_err(|e| CliError::Other(format!("{}: not valid YAML: {e}", path.display())))?;
    Ok((text, v))
}

/// The line (1-based) each action of a block-style `actions:` list starts on; for a flow list
/// (`actions: [pass, pass]`) every action is on the `actions:` line. Comment lines are skipped,
/// so an uncommented template line keeps its number.
fn action_lines(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(head) = lines.iter().position(|l| l.starts_with("actions:")) else { return Vec::new() };
    let rest = lines[head].trim_start_matches("actions:").trim();
    if rest.starts_with('[') {
        return vec![head + 1; 64];
    }
    let mut out = Vec::new();
    let mut indent = None;
    for (i, l) in lines.iter().enumerate().skip(head + 1) {
        let t = l.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ind = l.len() - t.len();
        if ind == 0 && !t.starts_with('-') {
            break;
        }
        if t.starts_with("- ") || t == "-" {
            match indent {
                None => {
                    indent = Some(ind);
                    out.push(i + 1);
                }
                Some(n) if n == ind => out.push(i + 1),
                _ => {}
            }
        }
    }
    out
}

/// A parse error of orders, each `action N: ...` line given the file line it starts on.
fn with_lines(path: &Path, text: &str, err: &str) -> String {
    let at = action_lines(text);
    let mut out = Vec::new();
    for l in err.lines() {
        let n = l.strip_prefix("action ").and_then(|r| r.split(':').next()).and_then(|n| n.parse::<usize>().ok());
        match n.and_then(|n| n.checked_sub(1)).and_then(|i| at.get(i)) {
            Some(line) => out.push(format!("  {}:{line}: {l}", path.display())),
            None => out.push(format!("  {}: {l}", path.display())),
        }
    }
    out.join("\n")
}

/// `umpire orders …`.
pub fn run(c: OrdersCommand) -> Result<i32, CliError> {
    match c {
        OrdersCommand::Template { log, seat, key } => {
            let game = common::load_game(&log)?;
            check_seat(&game, &seat)?;
            // The schema goes beside the log, where the orders file is usually written.
            let name = format!("orders-{}.schema.json", game.ruleset.id());
            let schema_path = log.parent().map(|p| p.join(&name)).unwrap_or_else(|| name.clone().into());
            let schema = serde_json::to_string_pretty(&game.ruleset.orders_schema()).map_err(|e| CliError::Other(e.to_string()))?;
            if std::fs::read_to_string(&schema_path).ok().as_deref() != Some(schema.as_str()) {
                std::fs::write(&schema_path, &schema).map_err(|e| CliError::Other(format!("{}: {e}", schema_path.display())))?;
            }
            say!("# yaml-language-server: $schema=./{name}");
            let (view, key) = view_for(&game, &seat, key.as_deref())?;
            let state = state_for(&view, &seat, key.as_ref())?;
            say_raw!("{}", state.template(&seat));
            Ok(0)
        }
        OrdersCommand::Check { log, orders, seat, key } => {
            let game = common::load_game(&log)?;
            check_seat(&game, &seat)?;
            let (view, key) = view_for(&game, &seat, key.as_deref())?;
            let state = state_for(&view, &seat, key.as_ref())?;
            let (text, value) = read_orders_text(&orders)?;
            let exp = state.expect();
            if !exp.awaits.iter().any(|w| w.seat == seat) {
                let waiting = exp.awaits.iter().map(|w| format!("{}: {}", w.seat, w.what)).collect::<Vec<_>>().join("; ");
                // The engine's judgement (`Game::apply`): an entry that owes dice or draws may
                // carry what the ruleset lets a seat file at any time (standing instructions);
                // otherwise orders from a seat nothing is expected of are out of turn, and
                // `orders sign` would refuse them. One answer from both.
                let owes = view.pending.as_ref().is_some_and(|p| p.dice_from == seat) || view.draws.iter().any(|d| d.dice_from == seat);
                let leads = view.lead_for(&seat, None).is_some();
                if owes && state.files_out_of_turn(&value) {
                    say_err!("note: the roll leaves you nothing to decide; these orders ride on the entry that reveals the dice");
                } else if !leads {
                    say!("1 violation(s):");
                    say!("  DESIGN §2.5: out of turn: nothing is expected from {seat} now ({}); waiting for: {waiting}", exp.when);
                    return Ok(1);
                } else {
                    say_err!("note: nothing is expected from {seat} now ({}); waiting for: {waiting}", exp.when);
                }
            }
            // With the key, the orders are checked as `orders sign` will write them: concealed
            // and checked on the seat's own view.
            let checked = match &key {
                Some(k) => check_as_author(&view, &seat, k, &value),
                None => state.check(&seat, &value).map(|()| value.clone()),
            };
            match checked {
                Ok(_public) => {
                    say!("orders are legal");
                    // The preview reads the orders as written, on the seat's own view: the
                    // concealed form names commitments that view does not hold yet, and a
                    // refusal must never show under "orders are legal".
                    if let Ok(lines) = state.preview(&seat, &value) {
                        for l in lines.iter().filter(|l| !l.contains("refused")) {
                            say!("  {l}");
                        }
                    }
                    Ok(0)
                }
                Err(OrdersError::Parse(e)) => {
                    let n = e.lines().count();
                    common::fail(format!("cannot parse the orders ({n} error(s)):\n{}", with_lines(&orders, &text, &e)))
                }
                Err(OrdersError::Illegal(vs)) => {
                    say!("{} violation(s):", vs.len());
                    for v in &vs {
                        say!("  {v}");
                    }
                    Ok(1)
                }
            }
        }
        OrdersCommand::Sign { log, orders, signer } => {
            let (mut locked, game) = common::lock_game(&log)?;
            check_seat(&game, &signer.seat)?;
            let key = common::key_for_seat(&game, &signer.seat, &signer.key)?;
            let value = read_orders(&orders)?;
            let mut body = Body::new(Kind::Orders);
            body.orders = Some(value);
            body.note = signer.note.clone();
            let entry = common::sign_append_write(
                &mut locked,
                &game,
                &signer.seat,
                &key,
                body,
                signer.dice_from.as_deref(),
                signer.out.as_deref(),
            )?;
            drop(locked);
            let game = common::load_game(&log)?;
            if let Some(step) = game.steps.last() {
                common::print_events(&step.events);
                let _ = entry;
                if let Some(p) = &step.pending {
                    say!(
                        "  awaiting the dice: {p} (revealed by {}'s next entry)",
                        game.pending.as_ref().map(|p| p.dice_from.as_str()).unwrap_or("?")
                    );
                }
            }
            Ok(0)
        }
    }
}

/// Conceal and check orders on the author's view, as signing would; the public orders.
fn check_as_author(view: &Game, seat: &str, key: &SecretKey, value: &yaml_serde::Value) -> Result<yaml_serde::Value, OrdersError> {
    let reveal = common::next_reveal(view, seat, key).ok().flatten();
    let mut body = Body::new(Kind::Orders);
    body.orders = Some(value.clone());
    match complete_body(view, seat, key, reveal.as_ref(), body) {
        Ok(b) => {
            let (c, o) = (b.commit.as_ref().map_or(0, Vec::len), b.open.as_ref().map_or(0, Vec::len));
            if c + o > 0 {
                say!("hidden: {c} value(s) committed and sealed, {o} opened");
            }
            Ok(b.orders.unwrap_or(yaml_serde::Value::Null))
        }
        Err(AuthorError::Orders(e)) => Err(e),
        Err(AuthorError::Missing(m)) => Err(OrdersError::Illegal(vec![crate::engine::Violation::new("DESIGN §2.6", m)])),
    }
}

fn check_seat(game: &Game, seat: &str) -> Result<(), CliError> {
    if game.genesis().seat(seat).is_none() {
        let seats: Vec<_> = game.genesis().seats.iter().map(|s| s.seat.as_str()).collect();
        return Err(CliError::Usage(format!("there is no seat {seat:?} in this game (seats: {})", seats.join(", "))));
    }
    Ok(())
}
