//! `umpire orders template|check|sign`.

use std::path::{Path, PathBuf};

use super::SignerArgs;
use super::common::{self, CliError, MAX_ORDERS_BYTES};
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

/// The state `seat` must write orders against: after the dice it owes, when it owes some.
fn state_for(game: &Game, seat: &str, key: Option<&Path>) -> Result<AnyState, CliError> {
    if let Some(p) = &game.pending
        && p.dice_from == seat
    {
        let Some(key) = key else {
            return Err(CliError::Usage(format!(
                "you owe the dice of entry {} ({}); give --key so umpire can show the situation after the roll",
                p.seq, p.what
            )));
        };
        let k = common::key_for_seat(game, seat, key)?;
        let reveal = common::next_reveal(game, seat, &k)?.ok_or_else(|| CliError::Other("no chain yet".into()))?;
        let (state, events) = game.preview_resolution(&reveal).expect("pending checked");
        println!("# the dice you owe (entry {}) give:", p.seq);
        for e in &events {
            println!("#   {}", e.text);
        }
        return Ok(state);
    }
    Ok(game.state.clone())
}

fn read_orders(path: &Path) -> Result<yaml_serde::Value, CliError> {
    let bytes = common::read_limited(path, MAX_ORDERS_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| CliError::Other(format!("{}: not UTF-8", path.display())))?;
    let v: yaml_serde::Value =
        yaml_serde::from_str(&text).map_err(|e| CliError::Other(format!("{}: not valid YAML: {e}", path.display())))?;
    // Accept either the orders themselves or a file with a top-level `orders:` (as templates write).
    Ok(v)
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
            println!("# yaml-language-server: $schema=./{name}");
            let state = state_for(&game, &seat, key.as_deref())?;
            print!("{}", state.template(&seat));
            Ok(0)
        }
        OrdersCommand::Check { log, orders, seat, key } => {
            let game = common::load_game(&log)?;
            check_seat(&game, &seat)?;
            let state = state_for(&game, &seat, key.as_deref())?;
            let value = read_orders(&orders)?;
            let exp = state.expect();
            if !exp.awaits.iter().any(|w| w.seat == seat) {
                eprintln!(
                    "note: nothing is expected from {seat} now ({}); waiting for: {}",
                    exp.when,
                    exp.awaits.iter().map(|w| format!("{}: {}", w.seat, w.what)).collect::<Vec<_>>().join("; ")
                );
            }
            match state.check(&seat, &value) {
                Ok(()) => {
                    println!("orders are legal");
                    if let Ok(lines) = state.preview(&seat, &value) {
                        for l in lines {
                            println!("  {l}");
                        }
                    }
                    Ok(0)
                }
                Err(OrdersError::Parse(e)) => common::fail(format!("{}: cannot parse the orders: {e}", orders.display())),
                Err(OrdersError::Illegal(vs)) => {
                    println!("{} violation(s):", vs.len());
                    for v in &vs {
                        println!("  {v}");
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
                    println!(
                        "  awaiting the dice: {p} (revealed by {}'s next entry)",
                        game.pending.as_ref().map(|p| p.dice_from.as_str()).unwrap_or("?")
                    );
                }
            }
            Ok(0)
        }
    }
}

fn check_seat(game: &Game, seat: &str) -> Result<(), CliError> {
    if game.genesis().seat(seat).is_none() {
        let seats: Vec<_> = game.genesis().seats.iter().map(|s| s.seat.as_str()).collect();
        return Err(CliError::Usage(format!("there is no seat {seat:?} in this game (seats: {})", seats.join(", "))));
    }
    Ok(())
}
