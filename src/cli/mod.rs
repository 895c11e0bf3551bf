//! The command line: one file per subcommand. This is the only place that prints, reads the
//! clock or the environment; everything it does goes through the library.

mod ahead;
mod apply;
mod bench;
mod common;
mod demo;
mod endings;
mod key;
mod mail;
mod new;
mod orders;
pub mod replay;
mod robot;
mod schema;
mod selfplay;
mod status;
mod term;
mod verify;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use term::say_err;

pub use common::CliError;
pub use verify::verify_bytes;

/// umpire: adjudicate wargames played by email.
///
/// Each turn is a signed YAML entry; umpire checks it under the game's rules, resolves it with
/// dice neither player can bias, and appends it to a hash-chained log anyone can verify.
///
/// A game by email, in short:
///   umpire key new alice                      # once per player: alice.key + alice.pub
///   umpire new --scenario glorys-end/marne --seat german=alice.pub --seat allied=bob.pub \
///              --as german --key alice.key -o game.log
///   umpire join game.log --as allied --key bob.key      # the other player, on the genesis
///   umpire status game.log                    # whose move, and what they must decide
///   umpire orders template game.log --as allied > orders.yaml
///   umpire orders check game.log orders.yaml --as allied
///   umpire orders sign game.log orders.yaml --as allied --key bob.key   # → entry file to send
///   umpire apply game.log game.log.3.yaml     # the opponent's entry: verify, resolve, report
///   umpire verify game.log                    # the referee's audit
///
/// Try it all at once: `umpire demo --dir /tmp/umpire-demo`.
#[derive(Debug, Parser)]
#[command(name = "umpire", version, verbatim_doc_comment, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Make or show keys.
    #[command(subcommand)]
    Key(key::KeyCommand),
    /// Propose a new game: write its genesis entry (entry 0).
    New(new::NewArgs),
    /// Join a proposed game with your seat.
    Join(new::JoinArgs),
    /// Where the game stands: turn, phase, score, whose entry is expected and what it must decide.
    Status(status::StatusArgs),
    /// Write, check and sign orders.
    #[command(subcommand)]
    Orders(orders::OrdersCommand),
    /// Apply entries received from other players: verify, append, resolve, report.
    Apply(apply::ApplyArgs),
    /// Send an entry to the other players by email (SMTP, sendmail, or an .eml file).
    Mail(mail::MailArgs),
    /// Watch a mailbox: apply what arrives, answer what needs no decision, tell you the rest.
    Robot(robot::RobotArgs),
    /// Answer with a bare dice reveal when you owe one and have nothing to decide.
    Ack(endings::SeatArgs),
    /// Resign the game.
    Resign(endings::SeatArgs),
    /// Offer a draw.
    OfferDraw(endings::SeatArgs),
    /// Accept the opponent's draw offer.
    AcceptDraw(endings::SeatArgs),
    /// Propose a take-back (`--undo-from SEQ`) or an agreed deviation; in force once every
    /// other side agrees.
    ProposeAmend(endings::ProposeArgs),
    /// Agree to the open amendment proposal.
    AgreeAmend(endings::SeatArgs),
    /// The referee's audit: every signature, link, reveal, die roll and rules verdict recomputed.
    Verify(verify::VerifyArgs),
    /// Step through a game, with what changed at each step.
    Replay(replay::ReplayArgs),
    /// Print the game state (now, or after entry N).
    Show(replay::ShowArgs),
    /// Play a complete bot game in a directory: keys, genesis, join, turns, dice, verify.
    Demo(demo::DemoArgs),
    /// Play many bot games through the whole protocol, checking invariants and verifying each.
    Selfplay(selfplay::SelfplayArgs),
    /// Measure verify, apply, orders check and start-up, as ratios within one run.
    Bench(bench::BenchArgs),
    /// Write the JSON Schemas (entries, scenarios, orders, rule cases).
    Schema(schema::SchemaArgs),
}

/// Run with these arguments; returns the exit code.
pub fn main_with_args<I: IntoIterator<Item = OsString>>(args: I) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            say_err!("umpire: {e}");
            e.exit_code()
        }
    }
}

/// The environment variable naming a file to which the process writes its peak resident
/// memory as it ends ([`report_peak_memory`]).
pub const PEAK_REPORT_VAR: &str = "UMPIRE_PEAK_REPORT";

/// If [`PEAK_REPORT_VAR`] is set, write this process's peak resident memory (`VmHWM`, KiB,
/// Linux) to the file it names. `umpire bench` measures a whole `umpire verify` process this
/// way: read from outside, the high-water mark is only seen until the last poll before the
/// process exits, and the peak comes at the very end of a verify (every entry held).
pub fn report_peak_memory() {
    let Some(path) = std::env::var_os(PEAK_REPORT_VAR) else { return };
    if let Some(kib) = peak_kib_in("/proc/self/status") {
        let _ = std::fs::write(path, kib.to_string());
    }
}

/// The `VmHWM` (peak resident memory, KiB) of a `/proc/PID/status` file, if it can be read.
fn peak_kib_in(status: &str) -> Option<u64> {
    let text = std::fs::read_to_string(status).ok()?;
    text.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
}

/// Run a parsed command.
pub fn run(cli: Cli) -> Result<i32, CliError> {
    match cli.command {
        Command::Key(c) => key::run(c),
        Command::New(a) => new::run_new(a),
        Command::Join(a) => new::run_join(a),
        Command::Status(a) => status::run(a),
        Command::Orders(c) => orders::run(c),
        Command::Apply(a) => apply::run(a),
        Command::Mail(a) => mail::run(a),
        Command::Robot(a) => robot::run(a),
        Command::Ack(a) => endings::run(a, crate::log::Kind::Ack),
        Command::Resign(a) => endings::run(a, crate::log::Kind::Resign),
        Command::OfferDraw(a) => endings::run(a, crate::log::Kind::OfferDraw),
        Command::AcceptDraw(a) => endings::run(a, crate::log::Kind::AcceptDraw),
        Command::ProposeAmend(a) => endings::propose(a),
        Command::AgreeAmend(a) => endings::run(a, crate::log::Kind::AgreeAmend),
        Command::Verify(a) => verify::run(a),
        Command::Replay(a) => replay::run_replay(a),
        Command::Show(a) => replay::run_show(a),
        Command::Demo(a) => demo::run(a),
        Command::Selfplay(a) => selfplay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Schema(a) => schema::run(a),
    }
}

/// Path arguments shared by commands that sign.
#[derive(Debug, clap::Args)]
pub struct SignerArgs {
    /// Your seat (e.g. `german`).
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: String,
    /// Your secret key file (mode 0600).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// Where to write the new entry for sending (default: LOG.SEQ.yaml beside the log).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The seat of another side whose next entry reveals this entry's dice (default: the
    /// only opponent seat).
    #[arg(long, value_name = "SEAT")]
    pub dice_from: Option<String>,
    /// A free-text note shown to the opponent.
    #[arg(long)]
    pub note: Option<String>,
}
