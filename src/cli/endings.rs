//! `umpire ack`, `resign`, `offer-draw`, `accept-draw`, `propose-amend`, `agree-amend`:
//! entries without orders.

use std::path::PathBuf;

use super::SignerArgs;
use super::common::{self, CliError, fail};
use crate::log::entry::Amendment;
use crate::log::{Body, Kind};

/// A log and a signer.
#[derive(Debug, clap::Args)]
pub struct SeatArgs {
    /// The game log.
    pub log: PathBuf,
    #[command(flatten)]
    pub signer: SignerArgs,
}

/// `umpire propose-amend`: a take-back or an agreed deviation (DESIGN §2.7).
#[derive(Debug, clap::Args)]
pub struct ProposeArgs {
    #[command(flatten)]
    pub seat: SeatArgs,
    /// Take back every entry from this seq on (see `umpire replay` for the seqs). Without
    /// it, the amendment records an agreed deviation (a house rule, a correction made by
    /// hand) and umpire's rules do not change.
    #[arg(long, value_name = "SEQ")]
    pub undo_from: Option<u64>,
    /// Why, for the other players and for `verify`'s list of deviations.
    #[arg(long)]
    pub reason: String,
}

/// Sign a `propose-amend` entry.
pub fn propose(a: ProposeArgs) -> Result<i32, CliError> {
    let amend = Amendment { undo_from: a.undo_from, reason: a.reason };
    sign(a.seat, Kind::ProposeAmend, Some(amend))
}

/// Fails when, after the dice of entry `seq` that `seat` reveals, the rules await a decision
/// of `seat`: its answer is orders (`umpire orders template --key` shows them), not an ack.
fn refuse_ack_with_decision(
    game: &crate::engine::game::Game,
    seat: &str,
    key: &crate::crypto::keys::SecretKey,
    seq: u64,
) -> Result<(), CliError> {
    let Some(reveal) = common::next_reveal(game, seat, key)? else { return Ok(()) };
    let hidden = !game.commitments.is_empty() || !game.draws.is_empty();
    let view = if hidden { Some(game.seat_view(seat, key.clone())?) } else { None };
    let view = view.as_ref().unwrap_or(game);
    // The judgement `apply --ack`, the bot and the robot use (`engine::auto`).
    if crate::engine::auto::automatic_reply(view, seat, Some(&reveal), None).is_some_and(|a| a.kind() == Kind::Ack) {
        return Ok(());
    }
    let (after, _) = view.state_before(seat, Some(&reveal));
    let mut owed: Vec<String> = after.expect().awaits.into_iter().filter(|w| w.seat == seat).map(|w| w.what).collect();
    if owed.is_empty() {
        owed.push("orders are due after the roll".into());
    }
    fail(format!(
        "not acking: after the dice of entry {seq} you have a decision to make ({}); write it as orders \
         (`umpire orders template LOG --as {seat} --key KEY` shows the situation after the roll), as `apply --ack` would tell you",
        owed.join("; ")
    ))
}

/// Sign an entry of `kind` (ack, resign, offer-draw, accept-draw, agree-amend).
pub fn run(a: SeatArgs, kind: Kind) -> Result<i32, CliError> {
    sign(a, kind, None)
}

fn sign(a: SeatArgs, kind: Kind, amend: Option<Amendment>) -> Result<i32, CliError> {
    let (mut locked, game) = common::lock_game(&a.log)?;
    let seat = &a.signer.seat;
    let key = common::key_for_seat(&game, seat, &a.signer.key)?;
    let mut body = Body::new(kind);
    body.note = a.signer.note.clone();
    body.amend = amend;
    match kind {
        Kind::Ack => match &game.pending {
            // An ack answers the dice and decides nothing: refused, as `apply --ack` refuses,
            // when the roll leaves this seat a decision (it would stay owed, unanswered).
            Some(p) if &p.dice_from == seat => refuse_ack_with_decision(&game, seat, &key, p.seq)?,
            Some(p) => return fail(format!("the owed dice (entry {}) are {}'s to reveal, not {seat}'s", p.seq, p.dice_from)),
            // An ack may also just settle the private draws this seat's next entry owes.
            None if game.draws.iter().any(|d| &d.dice_from == seat) => {}
            // A leading roll that cannot lead (DESIGN §2.5) is rolled by an ack.
            None if game.lead_due().is_some_and(|(s, _, p)| &s == seat && p.is_none()) => {}
            // At the end, an ack opens this seat's commitments still owed.
            None if game.openings_owed() && game.owed_openings().iter().any(|(s, _)| s == seat) => {}
            None => return fail("no dice, draw, leading roll or opening is owed by this seat; nothing to acknowledge"),
        },
        Kind::AcceptDraw => match &game.draw_offer {
            Some((_, _, h)) => body.agree = Some(*h),
            None => return fail("there is no draw offer to accept"),
        },
        Kind::AgreeAmend => match &game.amendment {
            Some(p) => body.agree = Some(p.hash),
            None => return fail("there is no open amendment to agree to (a proposal lapses once play goes on)"),
        },
        _ => {}
    }
    let entry = common::sign_append_write(&mut locked, &game, seat, &key, body, a.signer.dice_from.as_deref(), a.signer.out.as_deref())?;
    drop(locked);
    let game = common::load_game(&a.log)?;
    if let Some(step) = game.steps.iter().find(|s| s.seq == entry.seq()) {
        common::print_events(&step.events);
    }
    Ok(0)
}
