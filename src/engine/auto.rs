//! What a seat can answer with no choice of its own: the one place that decides it. The bot
//! ([`super::bot`]) and the mail robot (`umpire robot`) both ask [`automatic_reply`] and sign
//! an entry only when it says so, so the two can never disagree about what needs a human.
//!
//! Automatic replies are acks (DESIGN §2.5, §2.6: an entry whose only content is the seat's
//! next chain value, plus whatever the protocol makes it carry: openings owed, private draws
//! settled), orders the rules leave no choice in (`Ruleset::automatic_orders`: turning up the
//! face-down pieces that are due, opening hidden counters at the end), and the entry a leading
//! roll opens when the roll hands the next decision to the other side, and orders the seat's
//! own standing instructions decide (`Ruleset::standing_orders`: instructions the seat keeps
//! in its robot's settings, a choice it made in advance).

use super::game::Game;
use super::registry::AnyState;
use crate::crypto::Hash;
use crate::log::entry::{Body, Kind};

/// An entry the seat may sign without deciding anything, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AutoReply {
    /// The seat's next reveal settles the dice of entry `seq` (another seat's roll waits for
    /// it), and after the roll the rules leave this seat nothing to decide.
    DiceOwed { seq: u64, what: String },
    /// The ruleset declared a leading roll for this seat that cannot lead (no entry of the
    /// other side to seed it since the latest take-back): an ack rolls it as an ordinary
    /// roll, which the other side's next entry fixes.
    LeadByAck { what: String },
    /// The rules reached a result but this seat's commitments are unopened: an ack opens
    /// them (the author's tool adds the openings), so `verify` can re-check every hidden move.
    OpenOwed { ids: Vec<String> },
    /// The rules leave this seat no choice in its orders (`Ruleset::automatic_orders`).
    NoChoice { orders: yaml_serde::Value },
    /// A leading roll opens the seat's entry and hands the next decision to the other side
    /// (a command & control roll of 6): orders with nothing in them (DESIGN §2.5).
    LeadOnly { what: String },
    /// The seat's own standing instructions decide the orders (`Ruleset::standing_orders`):
    /// the choice was the person's, made in advance.
    Standing { orders: yaml_serde::Value },
}

impl AutoReply {
    /// The body kind the reply is signed as.
    pub fn kind(&self) -> Kind {
        match self {
            AutoReply::DiceOwed { .. } | AutoReply::LeadByAck { .. } | AutoReply::OpenOwed { .. } => Kind::Ack,
            AutoReply::NoChoice { .. } | AutoReply::LeadOnly { .. } | AutoReply::Standing { .. } => Kind::Orders,
        }
    }

    /// The body to complete and sign (`author::complete_body`).
    pub fn body(&self) -> Body {
        let mut b = Body::new(self.kind());
        match self {
            AutoReply::NoChoice { orders } | AutoReply::Standing { orders } => b.orders = Some(orders.clone()),
            AutoReply::LeadOnly { .. } => b.orders = Some(yaml_serde::Value::Mapping(Default::default())),
            _ => {}
        }
        b
    }

    /// One line for a person: what was answered and why no choice was involved.
    pub fn describe(&self) -> String {
        match self {
            AutoReply::DiceOwed { seq, what } => {
                format!("ack: reveals the dice of entry {seq} ({what}); nothing to decide after the roll")
            }
            AutoReply::LeadByAck { what } => format!("ack: rolls the leading roll ({what}) as an ordinary roll"),
            AutoReply::OpenOwed { ids } => format!("ack: opens the commitments still owed at the end ({})", ids.join(", ")),
            AutoReply::NoChoice { orders } => {
                format!("orders with no choice in them: {}", yaml_serde::to_string(orders).unwrap_or_default().trim().replace('\n', " "))
            }
            AutoReply::LeadOnly { what } => format!("the leading roll ({what}), which leaves the next decision to the other side"),
            AutoReply::Standing { orders } => {
                format!(
                    "orders from your standing instructions: {}",
                    yaml_serde::to_string(orders).unwrap_or_default().trim().replace('\n', " ")
                )
            }
        }
    }
}

/// The entry `seat` can send now with no decision of its own, if there is one.
///
/// `view` is the game as `seat` sees it (its seat-mode replay when anything is hidden, else
/// the public game): a decision after a roll may depend on what only the seat knows.
/// `reveal` is the seat's next chain value, which it alone can compute: the outcome of the
/// dice it owes is known only with it. Without it (no key at hand), a roll whose aftermath
/// cannot be judged is treated as a decision, never guessed. `instructions` are the seat's
/// private standing instructions (`Ruleset::standing_orders`), if it keeps any; instructions
/// the ruleset does not take answer nothing (the robot checks them when it starts).
pub fn automatic_reply(view: &Game, seat: &str, reveal: Option<&Hash>, instructions: Option<&yaml_serde::Value>) -> Option<AutoReply> {
    let owes = view.pending.as_ref().map(|p| p.dice_from == seat);
    if owes == Some(false) {
        return None;
    }
    // A game over is over: except for the openings owed at the end, nothing is answered.
    if view.outcome().is_some() {
        return None;
    }
    let awaited = |state: &AnyState| state.expect().awaits.iter().any(|w| w.seat == seat);
    // Orders the rules leave no choice in, else the ones the seat's instructions decide.
    let orders_for = |state: &AnyState| -> Option<AutoReply> {
        if let Some(orders) = state.automatic_orders(seat) {
            return Some(AutoReply::NoChoice { orders });
        }
        let orders = state.standing_orders(seat, instructions?).ok()??;
        Some(AutoReply::Standing { orders })
    };
    // What the entry meets after the dice it settles and the leading roll that opens it,
    // which only the seat's own reveal tells. `after` is `view.state_before(seat, reveal)`,
    // which the caller may already hold (a replay is the costly part).
    let after_entry = |reveal: &Hash, after: AnyState| -> Option<AutoReply> {
        if awaited(&after) {
            return orders_for(&after);
        }
        view.lead_for(seat, Some(reveal))?;
        let before_lead = match &view.pending {
            Some(_) => view.preview_resolution(reveal)?.0,
            None => view.state.clone(),
        };
        Some(AutoReply::LeadOnly { what: before_lead.leading_roll().map(|(_, w)| w).unwrap_or_default() })
    };
    if let Some(p) = view.pending.as_ref().filter(|_| owes == Some(true)) {
        let reveal = reveal?;
        let (after, _) = view.state_before(seat, Some(reveal));
        if awaited(&after) || view.lead_for(seat, Some(reveal)).is_some() {
            return after_entry(reveal, after);
        }
        return Some(AutoReply::DiceOwed { seq: p.seq, what: p.what.clone() });
    }
    match view.lead_due() {
        Some((s, what, None)) if s == seat => return Some(AutoReply::LeadByAck { what }),
        Some((s, _, Some(_))) if s == seat => {
            let reveal = reveal?;
            return after_entry(reveal, view.state_before(seat, Some(reveal)).0);
        }
        _ => {}
    }
    if view.openings_owed() && view.waiting_for().first().is_some_and(|(s, _)| s == seat) {
        // The rules' own end-of-game openings come first and may ask for orders.
        if awaited(&view.state) {
            return orders_for(&view.state);
        }
        let ids = view.owed_openings().into_iter().find(|(s, _)| s == seat).map(|(_, ids)| ids).unwrap_or_default();
        return Some(AutoReply::OpenOwed { ids });
    }
    if awaited(&view.state) {
        return orders_for(&view.state);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bot;

    /// A Marne bot game: at every step, the seat the game waits for gets an automatic reply
    /// exactly when the bot would send an ack, and never when it is not that seat's entry.
    #[test]
    fn agrees_with_the_game_at_every_step() {
        let scenario = crate::scenarios::find("glorys-end/marne").expect("bundled");
        let (mut game, mut players) =
            bot::start_game(scenario, &[("german", "german"), ("allied", "allied")], 7, 4096, "2026-11-23T12:00:00Z").unwrap();
        let mut acks = 0;
        for _ in 0..400 {
            if game.outcome().is_some() {
                break;
            }
            let waiting: Vec<String> = game.waiting_for().into_iter().map(|(s, _)| s).collect();
            for seat in game.genesis().seats.iter().map(|s| s.seat.clone()).collect::<Vec<_>>() {
                let reveal = players.next_reveal(&game, &seat).unwrap();
                let auto = automatic_reply(&game, &seat, reveal.as_ref(), None);
                if !waiting.contains(&seat) {
                    assert_eq!(auto, None, "{seat} is not awaited at {}", game.next_seq());
                }
            }
            let seat = waiting[0].clone();
            let reveal = players.next_reveal(&game, &seat).unwrap();
            let auto = automatic_reply(&game, &seat, reveal.as_ref(), None);
            let mut ch = bot::chooser(7, &seat, game.next_seq());
            let body = bot::next_body(&game, &seat, &mut players, &mut ch).unwrap().expect("the awaited seat moves");
            if let Some(a) = &auto {
                assert_eq!(body.kind, a.kind(), "at {}", game.next_seq());
            }
            acks += usize::from(auto.is_some());
            let e = bot::sign_body(&game, &seat, &mut players, body, "2026-11-23T12:00:00Z".into()).unwrap();
            bot::apply_signed(&mut game, &mut players, e).unwrap();
        }
        assert!(acks > 0, "a Marne game has rolls answered by an ack");
    }

    /// Without the seat's reveal nothing that depends on a roll is answered.
    #[test]
    fn no_reveal_no_answer_to_owed_dice() {
        let scenario = crate::scenarios::find("glorys-end/marne").expect("bundled");
        let (mut game, mut players) =
            bot::start_game(scenario, &[("german", "german"), ("allied", "allied")], 3, 4096, "2026-11-23T12:00:00Z").unwrap();
        for _ in 0..400 {
            if let Some(p) = &game.pending {
                assert_eq!(automatic_reply(&game, &p.dice_from.clone(), None, None), None);
                return;
            }
            let seat = game.waiting_for()[0].0.clone();
            let mut ch = bot::chooser(3, &seat, game.next_seq());
            let body = bot::next_body(&game, &seat, &mut players, &mut ch).unwrap().unwrap();
            let e = bot::sign_body(&game, &seat, &mut players, body, "2026-11-23T12:00:00Z".into()).unwrap();
            bot::apply_signed(&mut game, &mut players, e).unwrap();
        }
        panic!("no roll in 400 entries");
    }
}
