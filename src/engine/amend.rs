//! Amendments (DESIGN §2.7): take-backs and agreed deviations as entries of the log.
//!
//! A `propose-amend` entry says what to change and why (`body.amend`); it takes effect only
//! when a seat of every other side answers `agree-amend` naming its hash. Two kinds:
//!
//! - **Take-back** (`undo_from: N`): once agreed, the rules replay as if entries `N…` had
//!   never been played: the position, pending dice and draw offer become those after entry
//!   `N − 1`. The withdrawn entries stay in the log (the hash chain keeps every entry), their
//!   reveals stay spent, and a roll they resolved is rolled again with the next reveal: this
//!   is exactly why a take-back across a roll needs the other sides' agreement.
//! - **Agreed deviation** (no `undo_from`): a house rule or a correction the players will
//!   follow. The rules umpire plays do not change; the agreement is recorded and `verify`
//!   lists it.
//!
//! What cannot be taken back, and why (each refused with the reason):
//! - genesis and joins (the seats and their chains are the game itself);
//! - an entry at or before an earlier agreed amendment (amendments do not nest);
//! - an entry that commits, opens or seals a hidden value, or settles a private draw: the
//!   commitments are public facts other entries rely on, and a withdrawn private draw could
//!   be drawn again with a new reveal by the seat that already saw it.
//!
//! An open proposal lapses at the next `orders` entry of any seat (answer it before playing
//! on) and is replaced by a newer proposal.

use serde::{Deserialize, Serialize};

use super::Event;
use super::game::{Game, GameError};
use crate::crypto::Hash;
use crate::log::entry::{Entry, Kind};

/// A proposal waiting for the other sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAmendment {
    /// Seq and hash of the `propose-amend` entry.
    pub seq: u64,
    pub hash: Hash,
    /// The proposing seat.
    pub seat: String,
    /// First entry to withdraw, for a take-back.
    pub undo_from: Option<u64>,
    /// Why, in the proposer's words.
    pub reason: String,
    /// Sides that agreed so far.
    pub agreed: Vec<String>,
}

/// An amendment in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmendmentRecord {
    /// Seq of the proposal.
    pub proposed: u64,
    /// Seq of the agreement that completed it.
    pub agreed: u64,
    /// The proposing seat.
    pub seat: String,
    /// First entry withdrawn, for a take-back.
    pub undo_from: Option<u64>,
    /// Why.
    pub reason: String,
}

/// "entry 4" or "entries 4–7".
pub fn entries(from: u64, to: u64) -> String {
    if from >= to { format!("entry {from}") } else { format!("entries {from}–{to}") }
}

impl AmendmentRecord {
    /// One line for `verify` and the events.
    pub fn describe(&self) -> String {
        let what = match self.undo_from {
            Some(n) => format!("take-back of {}", entries(n, self.proposed - 1)),
            None => "agreed deviation (rules unchanged)".to_string(),
        };
        format!("{what}, proposed by {} at entry {}, agreed at entry {}: {}", self.seat, self.proposed, self.agreed, self.reason)
    }
}

impl Game {
    fn amend_error(seq: u64, seat: &str, why: impl Into<String>) -> GameError {
        GameError::Amendment { seq, seat: seat.to_string(), why: why.into() }
    }

    /// Why entries `from..` of this game cannot be withdrawn, if they cannot.
    fn cannot_undo_from(&self, from: u64, seq: u64) -> Option<String> {
        if from == 0 || from >= seq {
            return Some(format!("undo_from must name an entry before this one (1..={})", seq.saturating_sub(1)));
        }
        if let Some(last) = self.amendments.last()
            && from <= last.agreed
        {
            return Some(format!("entry {from} is at or before the amendment agreed at entry {}; amendments do not nest", last.agreed));
        }
        for e in self.entries.iter().skip(from as usize) {
            let b = &e.draft.body;
            if matches!(b.kind, Kind::Genesis | Kind::Join) {
                return Some(format!("entry {} is a {}; only play can be taken back", e.seq(), crate::log::entry::kind_name(b.kind)));
            }
            let hidden = b.commit.as_ref().is_some_and(|c| !c.is_empty())
                || b.open.as_ref().is_some_and(|o| !o.is_empty())
                || b.sealed.is_some()
                || b.sealed_for.as_ref().is_some_and(|s| !s.is_empty());
            if hidden {
                return Some(format!(
                    "entry {} commits, opens or seals hidden values; those cannot be taken back (other entries rely on them)",
                    e.seq()
                ));
            }
        }
        // DESIGN §2.7: nobody may preview a re-roll. A withdrawn entry that revealed dice
        // which were rolled withdraws the entry they belonged to as well, so the re-done
        // entry has a hash (and a reveal) nobody knows in advance; a private draw is never
        // reached (its drawer alone knows the result).
        for st in self.steps.iter().filter(|st| st.seq >= from) {
            if let Some(r) = st.resolved.iter().find(|r| r.entry < from && r.revealed_by >= from) {
                return Some(format!(
                    "entry {} revealed the dice of entry {} ({}); a take-back that withdraws it must withdraw entry {} too \
                     (undo_from {} or earlier), so the re-roll is fixed by entries nobody could foresee",
                    r.revealed_by, r.entry, r.what, r.entry, r.entry
                ));
            }
            if st.settled_draws {
                return Some(format!(
                    "entry {} settled a private draw; a take-back never reaches it (its drawer knows the result)",
                    st.seq
                ));
            }
        }
        None
    }

    /// Apply a `propose-amend` entry.
    pub(super) fn propose_amend(&mut self, entry: &Entry, events: &mut Vec<Event>) -> Result<(), GameError> {
        let (seq, seat) = (entry.seq(), entry.seat().to_string());
        let Some(amend) = entry.draft.body.amend.clone() else {
            return Err(Self::amend_error(seq, &seat, "a propose-amend entry needs `body.amend`"));
        };
        if let Some(from) = amend.undo_from
            && let Some(why) = self.cannot_undo_from(from, seq)
        {
            return Err(Self::amend_error(seq, &seat, why));
        }
        if let Some(old) = &self.amendment {
            events.push(Event::say(format!("the amendment proposed at entry {} is replaced", old.seq)));
        }
        let what = match amend.undo_from {
            Some(n) => format!("take back {}", entries(n, seq - 1)),
            None => "an agreed deviation (the rules umpire plays do not change)".to_string(),
        };
        events
            .push(Event::say(format!("{seat} proposes {what}: {}; every other side must agree-amend naming {}", amend.reason, entry.hash)));
        self.amendment =
            Some(OpenAmendment { seq, hash: entry.hash, seat, undo_from: amend.undo_from, reason: amend.reason, agreed: Vec::new() });
        self.complete_amendment_if_agreed(seq, events)
    }

    /// Apply an `agree-amend` entry.
    pub(super) fn agree_amend(&mut self, entry: &Entry, events: &mut Vec<Event>) -> Result<(), GameError> {
        let (seq, seat) = (entry.seq(), entry.seat().to_string());
        let Some(open) = self.amendment.clone() else {
            return Err(Self::amend_error(seq, &seat, "there is no open amendment to agree to"));
        };
        if entry.draft.body.agree != Some(open.hash) {
            return Err(Self::amend_error(
                seq,
                &seat,
                format!("agree-amend must name the proposal (entry {}, hash {}) in `agree`", open.seq, open.hash),
            ));
        }
        let side = self.genesis().side_of(&seat).unwrap_or_default().to_string();
        if self.genesis().side_of(&open.seat) == Some(side.as_str()) {
            return Err(Self::amend_error(seq, &seat, "a side cannot agree to its own proposal"));
        }
        if open.agreed.contains(&side) {
            return Err(Self::amend_error(seq, &seat, format!("side {side} has already agreed")));
        }
        events.push(Event::say(format!("{seat} ({side}) agrees to the amendment proposed at entry {}", open.seq)));
        if let Some(a) = self.amendment.as_mut() {
            a.agreed.push(side);
        }
        self.complete_amendment_if_agreed(seq, events)
    }

    /// Put the open amendment in force once every other side agreed.
    fn complete_amendment_if_agreed(&mut self, seq: u64, events: &mut Vec<Event>) -> Result<(), GameError> {
        let Some(open) = self.amendment.clone() else { return Ok(()) };
        let g = self.genesis();
        let own = g.side_of(&open.seat).unwrap_or_default();
        let missing: Vec<&str> =
            g.seats.iter().map(|s| s.side.as_str()).filter(|s| *s != own && !open.agreed.iter().any(|a| a == s)).collect();
        if !missing.is_empty() {
            return Ok(());
        }
        if let Some(from) = open.undo_from {
            if let Some(why) = self.cannot_undo_from(from, open.seq) {
                return Err(Self::amend_error(seq, &open.seat, why));
            }
            // The position after entry `from - 1` is what a replay of the log up to it gives:
            // replays are deterministic, so no per-entry snapshots are kept.
            let before = Game::replay_with(&self.entries[..from as usize], self.knowledge.clone())
                .map_err(|(_, e)| Self::amend_error(seq, &open.seat, format!("the log up to entry {} does not replay: {e}", from - 1)))?;
            if before.draws != self.draws || before.unsettled != self.unsettled {
                return Err(Self::amend_error(
                    seq,
                    &open.seat,
                    "private draws were made or settled in the entries to withdraw; those cannot be taken back",
                ));
            }
            self.state = before.state;
            self.pending = before.pending;
            self.draw_offer = before.draw_offer;
            events.push(Event::say(format!(
                "amendment in force: {} withdrawn; play resumes from the position after entry {}",
                entries(from, open.seq - 1),
                from - 1
            )));
            if let Some(p) = &self.pending {
                events.push(Event::say(format!("entry {} ({}) again waits for its dice from {}", p.seq, p.what, p.dice_from)));
            }
        } else {
            events.push(Event::say("amendment in force: an agreed deviation; umpire's rules are unchanged"));
        }
        self.amendments.push(AmendmentRecord {
            proposed: open.seq,
            agreed: seq,
            seat: open.seat,
            undo_from: open.undo_from,
            reason: open.reason,
        });
        self.amendment = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::engine::bot::{self, Players};
    use crate::log::entry::{Amendment, Body};

    /// A bot game of the Marne, `n` entries past the joins.
    fn marne(n: u64) -> (Game, Players) {
        let b = crate::scenarios::find("glorys-end/marne").expect("bundled");
        let (mut g, mut p) = bot::start_game(b, &crate::scenarios::seats(b), 7, 512, "2026-01-01T00:00:00Z").unwrap();
        // At least n entries, then on to a quiet moment: no roll known to one side only
        // (DESIGN §2.5 refuses amendments while one is).
        let stop = g.next_seq() + n;
        while g.next_seq() < stop || g.one_sided_roll().is_some() {
            bot_step(&mut g, &mut p);
        }
        (g, p)
    }

    fn bot_step(g: &mut Game, p: &mut Players) {
        for (seat, _) in g.waiting_for() {
            let mut ch: Dice = bot::chooser(7, &seat, g.next_seq());
            if let Some(body) = bot::next_body(g, &seat, p, &mut ch).unwrap() {
                let e = bot::sign_body(g, &seat, p, body, "t".into()).unwrap();
                g.apply(&e).unwrap();
                return;
            }
        }
        panic!("nobody could move at entry {}", g.next_seq());
    }

    fn entry(g: &Game, p: &mut Players, seat: &str, body: Body) -> Entry {
        bot::sign_body(g, seat, p, body, "t".into()).unwrap()
    }

    fn propose(g: &Game, p: &mut Players, seat: &str, undo_from: Option<u64>) -> Entry {
        let mut b = Body::new(Kind::ProposeAmend);
        b.amend = Some(Amendment { undo_from, reason: "misread the map".into() });
        entry(g, p, seat, b)
    }

    fn agree(g: &Game, p: &mut Players, seat: &str, hash: Hash) -> Entry {
        let mut b = Body::new(Kind::AgreeAmend);
        b.agree = Some(hash);
        entry(g, p, seat, b)
    }

    fn seats(g: &Game) -> (String, String) {
        let s = &g.genesis().seats;
        (s[0].seat.clone(), s[1].seat.clone())
    }

    #[test]
    fn an_agreed_take_back_restores_the_position_and_the_log_replays_to_the_same_game() {
        let (mut g, mut p) = marne(12);
        let (a, b) = seats(&g);
        // Five entries back, or further when that would withdraw a revealer without its
        // roller (DESIGN §2.7).
        let from = (1..=g.next_seq() - 5)
            .rev()
            .find(|&from| g.clone().apply(&propose(&g, &mut p, &a, Some(from))).is_ok())
            .expect("some take-back is allowed");
        let wanted = Game::replay(&g.entries[..from as usize]).unwrap();
        let moved_since = g.state != wanted.state;
        assert!(moved_since, "the five entries changed the position, so the test shows something");
        let pr = propose(&g, &mut p, &a, Some(from));
        g.apply(&pr).unwrap();
        assert!(g.amendment.is_some() && g.state != wanted.state, "nothing changes before the other side agrees");
        let ag = agree(&g, &mut p, &b, pr.hash);
        let step = g.apply(&ag).unwrap();
        assert!(step.events.iter().any(|e| e.text.contains("withdrawn")), "{:?}", step.events);
        assert_eq!(g.state, wanted.state);
        assert_eq!(g.pending.as_ref().map(|x| x.seq), wanted.pending.as_ref().map(|x| x.seq));
        assert_eq!(g.amendments.len(), 1);
        assert!(g.amendments[0].describe().contains(&format!("take-back of entries {from}–")));
        // Bots play on from the restored position; the whole log replays to the same game.
        for _ in 0..20 {
            bot_step(&mut g, &mut p);
        }
        let again = Game::replay(&g.entries).unwrap();
        assert_eq!(again.state, g.state);
        assert_eq!(again.amendments, g.amendments);
    }

    #[test]
    fn a_proposal_needs_the_other_side_and_names_its_hash() {
        let (mut g, mut p) = marne(6);
        let (a, b) = seats(&g);
        let pr = propose(&g, &mut p, &a, Some(g.next_seq() - 2));
        g.apply(&pr).unwrap();
        let own = agree(&g, &mut p, &a, pr.hash);
        assert!(matches!(g.apply(&own), Err(GameError::Amendment { ref why, .. }) if why.contains("its own proposal")));
        let wrong = agree(&g, &mut p, &b, g.entries[1].hash);
        assert!(matches!(g.apply(&wrong), Err(GameError::Amendment { ref why, .. }) if why.contains("must name the proposal")));
        assert!(g.amendment.is_some(), "a refused agreement changes nothing");
    }

    #[test]
    fn a_proposal_lapses_when_play_goes_on() {
        let (mut g, mut p) = marne(6);
        let (a, b) = seats(&g);
        // The latest entry a take-back may start at (one that withdraws the revealer of a
        // roll withdraws the roller too, DESIGN §2.7).
        let pr = (1..g.next_seq())
            .rev()
            .map(|from| propose(&g, &mut p, &a, Some(from)))
            .find(|pr| g.clone().apply(pr).is_ok())
            .expect("some take-back is allowed");
        g.apply(&pr).unwrap();
        let mut played = false;
        while !played {
            let before = g.next_seq();
            bot_step(&mut g, &mut p);
            played = g.entries[before as usize].draft.body.kind == Kind::Orders;
        }
        assert!(g.amendment.is_none());
        let late = agree(&g, &mut p, &b, pr.hash);
        assert!(matches!(g.apply(&late), Err(GameError::Amendment { ref why, .. }) if why.contains("no open amendment")));
    }

    #[test]
    fn a_deviation_is_recorded_and_changes_nothing() {
        let (mut g, mut p) = marne(4);
        let (a, b) = seats(&g);
        let state = g.state.clone();
        let pr = propose(&g, &mut p, &a, None);
        g.apply(&pr).unwrap();
        let ag = agree(&g, &mut p, &b, pr.hash);
        g.apply(&ag).unwrap();
        assert_eq!(g.state, state);
        assert_eq!(g.amendments.len(), 1);
        assert!(g.amendments[0].describe().starts_with("agreed deviation"));
    }

    #[test]
    fn joins_earlier_amendments_and_hidden_values_cannot_be_taken_back() {
        let (mut g, mut p) = marne(4);
        let (a, b) = seats(&g);
        let join = propose(&g, &mut p, &a, Some(1));
        assert!(matches!(g.apply(&join), Err(GameError::Amendment { ref why, .. }) if why.contains("join")));
        let pr = propose(&g, &mut p, &a, Some(g.next_seq() - 1));
        g.apply(&pr).unwrap();
        let ag = agree(&g, &mut p, &b, pr.hash);
        g.apply(&ag).unwrap();
        let nested = propose(&g, &mut p, &b, Some(g.amendments[0].agreed));
        assert!(matches!(g.apply(&nested), Err(GameError::Amendment { ref why, .. }) if why.contains("do not nest")));

        // The toy game's first orders entry commits the hidden number.
        let (mut t, mut tp) = crate::engine::toy::tests::start(3);
        crate::engine::toy::tests::play(&mut t, &mut tp, "hider", crate::engine::toy::ToyOrders { number: Some(4), ..Default::default() });
        let first_play = t.next_seq() - 1;
        let hidden = propose(&t, &mut tp, "seeker", Some(first_play));
        assert!(matches!(t.apply(&hidden), Err(GameError::Amendment { ref why, .. }) if why.contains("hidden values")));
    }
}
