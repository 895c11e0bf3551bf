//! `umpire apply`: take entries received from other players.

use std::path::PathBuf;

use super::common::{self, CliError, fail};
use crate::log::Kind;

/// Arguments of `umpire apply`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Entries already in the log are skipped, so applying the same file twice is harmless.\nA different entry with a seq already in the log is a fork: both hashes are printed as proof.")]
pub struct ApplyArgs {
    /// The game log.
    pub log: PathBuf,
    /// Entry files received (a single entry, or several in log form).
    #[arg(required = true)]
    pub entries: Vec<PathBuf>,
    /// Then, if you owe dice and have nothing to decide, answer with an ack (needs --as, --key).
    #[arg(long, requires_all = ["seat", "key"])]
    pub ack: bool,
    /// Your seat (for --ack, and to preview dice you owe).
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// Your secret key (for --ack, and to preview dice you owe).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
}

/// `umpire apply`.
pub fn run(a: ApplyArgs) -> Result<i32, CliError> {
    // The lock is held from reading the log to appending: concurrent applies serialise.
    let (mut locked, mut game) = common::lock_game(&a.log)?;
    let mut new = Vec::new();
    for path in &a.entries {
        for entry in common::read_entry_file(path)? {
            let seq = entry.seq();
            let have = game.entries.len() as u64;
            if seq < have {
                let mine = &game.entries[seq as usize];
                if mine.hash == entry.hash {
                    println!("{}: entry {seq} is already in the log; skipped", path.display());
                    continue;
                }
                let same_seat = mine.seat() == entry.seat();
                return fail(format!(
                    "{}: FORK at entry {seq}: the log has {} (by {}), the file has {} (by {}){}",
                    path.display(),
                    mine.hash,
                    mine.seat(),
                    entry.hash,
                    entry.seat(),
                    if same_seat { " — an EQUIVOCATION: the same seat signed two different entries" } else { "" }
                ));
            }
            if seq > have {
                return fail(format!("{}: entry {seq} comes too early: the log ends at entry {}; apply entries {have}..{} first", path.display(), have - 1, seq - 1));
            }
            let step = game.apply(&entry).map_err(|e| CliError::Other(format!("{}: {e}", path.display())))?.clone();
            println!("entry {seq} by {} ({:?}) {}", step.seat, step.kind, step.hash.short(16));
            if let Some(n) = &step.note {
                println!("    note: {n}");
            }
            common::print_events(&step.events);
            if let Some(p) = &step.pending {
                println!("    awaiting the dice: {p}");
            }
            new.push(entry);
        }
    }
    if !new.is_empty() {
        locked.append(&new)?;
        println!("appended {} entr{} to {}", new.len(), if new.len() == 1 { "y" } else { "ies" }, a.log.display());
    }
    if let Some(o) = game.outcome() {
        println!("GAME OVER: {}", crate::engine::game::describe_outcome(&o));
        return Ok(0);
    }
    for (seat, what) in game.waiting_for() {
        println!("waiting for {seat}: {what}");
    }
    if let (Some(seat), Some(key)) = (&a.seat, &a.key) {
        super::status::preview_owed(&game, seat, key)?;
        if a.ack {
            if let Some(p) = &game.pending {
                if &p.dice_from == seat {
                    let k = common::key_for_seat(&game, seat, key)?;
                    let reveal = common::next_reveal(&game, seat, &k)?.ok_or_else(|| CliError::Other("no chain yet".into()))?;
                    let (after, _) = game.preview_resolution(&reveal).expect("pending");
                    if after.expect().awaits.iter().any(|w| &w.seat == seat) {
                        println!("not acking: you have a decision to make after the roll (see above); write orders instead");
                    } else {
                        common::sign_append_write(&mut locked, &game, seat, &k, crate::log::Body::new(Kind::Ack), None, None)?;
                    }
                }
            }
        }
    }
    Ok(0)
}
