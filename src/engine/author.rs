//! The author's side of hidden information (DESIGN §2.6): what `orders sign`, `orders check
//! --key` and the bot add to an entry besides its public orders — commitments, openings,
//! the sealed note to oneself, notes sealed for partners, and the commitments to private
//! draws.

use super::game::Game;
use super::hidden::{Committed, HiddenActs, IdOrder, Opened, SealedNote};
use super::registry::OrdersError;
use crate::crypto::keys::SecretKey;
use crate::crypto::{Hash, commit, draw, seal};
use crate::log::entry::{Body, Commitment, Kind, Opening, SealedFor};

/// Why an author's entry cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AuthorError {
    /// The orders cannot be parsed or break rules (on the author's own view).
    #[error(transparent)]
    Orders(#[from] OrdersError),
    /// Something the author's tool needs is missing.
    #[error("{0}")]
    Missing(String),
}

/// Complete `body` for `seat`'s next entry on `view`, the author's own replay (seat mode:
/// [`super::Knowledge::seat`]). `reveal` is the value the entry will reveal (it settles the
/// dice and draws the seat owes, which its orders may answer).
///
/// For `orders`: [`super::Ruleset::conceal`] turns the orders as written into public orders,
/// values to commit and ids to open; the result is checked on the author's view (hidden
/// acts, then the rules). Every kind: the private draws the entry makes get their
/// commitment to `r`. Then `commit`, `open`, `sealed` (all committed values, to oneself) and,
/// when the ruleset says partners share, `sealed_for` each partner seat are written.
pub fn complete_body(view: &Game, seat: &str, key: &SecretKey, reveal: Option<&Hash>, mut body: Body) -> Result<Body, AuthorError> {
    let (state, _) = view.state_before(seat, reveal);
    let gid = view.id();
    let seed = key.seed();
    let seq = view.next_seq();
    let mut commits: Vec<(String, String)> = Vec::new();
    let mut open_ids: Vec<String> = Vec::new();
    // Empty orders (`{}`): an entry opened by a leading roll that hands the decision to the
    // other side (the engine checks it) has nothing to conceal.
    if body.kind == Kind::Orders
        && let Some(orders) = body.orders.as_ref().filter(|o| !super::game::empty_orders(o))
    {
        // The ids follow the author's secret order for this seq, never the writing order.
        let c = state.conceal(seat, orders, &IdOrder::new(&seed, &gid, seq))?;
        body.orders = Some(c.orders);
        commits = c.commit;
        open_ids = c.open;
    }
    // At the end, an ack opens every commitment of the seat still unopened (DESIGN §2.6:
    // the game is not over while one is owed).
    if body.kind == Kind::Ack && view.openings_owed() {
        for ((s, id), r) in &view.commitments {
            if s == seat && r.opened.is_none() && !open_ids.contains(id) {
                open_ids.push(id.clone());
            }
        }
    }
    let mut openings = Vec::new();
    for id in &open_ids {
        let value = view
            .knowledge
            .value(seat, id)
            .ok_or_else(|| AuthorError::Missing(format!("the value of your commitment {id:?} is unknown here (give your --key)")))?
            .to_string();
        openings.push(Opening { id: id.clone(), salt: commit::salt(&seed, &gid, id), value });
    }

    // A trial on the author's view: the hidden acts and the orders, to learn the private
    // draws the entry makes (the engine refuses an entry that does not commit to them).
    let mut trial = state.clone();
    let mut acts = HiddenActs {
        committed: commits.iter().map(|(id, v)| Committed { id: id.clone(), value: Some(v.clone()) }).collect(),
        opened: openings.iter().map(|o| Opened { id: o.id.clone(), value: o.value.clone(), draw: None }).collect(),
    };
    if body.kind == Kind::Orders || !acts.is_empty() {
        trial.hidden(seat, &mut acts).map_err(OrdersError::Illegal)?;
    }
    if body.kind == Kind::Orders
        && let Some(orders) = body.orders.as_ref().filter(|o| !super::game::empty_orders(o))
    {
        trial.apply(seat, orders)?;
    }
    for d in trial.private_draws() {
        commits.push((d.clone(), draw::draw_secret(&seed, &gid, &d).to_hex()));
    }

    if !openings.is_empty() {
        body.open = Some(openings);
    }
    if commits.is_empty() {
        return Ok(body);
    }
    body.commit = Some(
        commits.iter().map(|(id, v)| Commitment { id: id.clone(), digest: commit::digest(&commit::salt(&seed, &gid, id), v) }).collect(),
    );
    // Padded to the length of the note's kind (DESIGN §2.6): it depends on the ids and the
    // ruleset's bounds only, so the length tells nothing of the values.
    let ids = || commits.iter().map(|(id, _)| id.as_str());
    let too_long = |e: seal::SealError| AuthorError::Missing(format!("cannot seal the note of this entry: {e}"));
    let mut note = SealedNote { commit: commits.iter().cloned().collect(), salt: Default::default() };
    body.sealed = Some(seal::seal(&seed, &gid, seq, note.to_text().as_bytes(), state.sealed_len(ids(), false)).map_err(too_long)?);
    if state.partners_share() {
        note.salt = commits.iter().map(|(id, _)| (id.clone(), commit::salt(&seed, &gid, id))).collect();
        let plain = note.to_text();
        let padded = state.sealed_len(ids(), true);
        let g = view.genesis();
        let side = g.side_of(seat).unwrap_or_default().to_string();
        let mut notes = Vec::new();
        for p in g.seats.iter().filter(|p| p.side == side && p.seat != seat) {
            let data = seal::try_seal_for(&key.signing, &p.key, &gid, seat, &p.seat, seq, plain.as_bytes(), padded)
                .map_err(|e| AuthorError::Missing(format!("cannot seal for {}: {e}", p.seat)))?;
            notes.push(SealedFor { seat: p.seat.clone(), data });
        }
        if !notes.is_empty() {
            body.sealed_for = Some(notes);
        }
    }
    Ok(body)
}
