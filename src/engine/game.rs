//! Replaying a log into a game: protocol checks ([`crate::log::protocol`]), then the rules.
//!
//! A [`Game`] is built from entry 0 and fed entries in order. For each entry it checks the
//! protocol, resolves the dice owed by it (DESIGN §2.5: an entry's random action is resolved
//! by the next entry of the seat it names in `dice_from`), then applies its body under the
//! rules. Every step is recorded, so `verify` and `replay` can report it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::hidden::{Committed, HiddenActs, Knowledge, Mode, Opened, SealedNote};
use super::registry::{AnyState, OrdersError, RulesetId};
use super::{Event, Outcome, SeatInfo};
use crate::crypto::keys::SecretKey;
use crate::crypto::{Hash, commit, draw, seal};
use crate::dice::{Dice, dice_seed};
use crate::log::entry::{Body, Draft, Entry, Kind};
use crate::log::protocol::{Genesis, ProtocolError, ProtocolState};

/// An entry that ended with a random action, waiting for its revealer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingDice {
    /// Seq of the entry whose dice are owed.
    pub seq: u64,
    /// Its hash.
    pub hash: Hash,
    /// Its reveal (first half of the seed, DESIGN §2.5).
    pub reveal: Hash,
    /// A leading roll that could not lead (no P yet, or a take-back in between) and is
    /// rolled as an ordinary one: resolved with `Ruleset::resolve_lead`.
    #[serde(default)]
    pub lead: bool,
    /// Its author.
    pub seat: String,
    /// The seat whose next entry reveals the dice.
    pub dice_from: String,
    /// The random action, described by the ruleset.
    pub what: String,
}

/// A private draw made by an entry, waiting for the next entry of its `dice_from` seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingDraw {
    /// Seq of the entry that made the draw.
    pub seq: u64,
    /// The drawer.
    pub seat: String,
    /// The draw id (also the id of the drawer's commitment to `r`).
    pub draw_id: String,
    /// The seat whose next entry's reveal settles the draw.
    pub dice_from: String,
}

/// A random resolution, as the referee's report lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomEvent {
    /// The entry whose dice these are.
    pub entry: u64,
    /// The entry that revealed them.
    pub revealed_by: u64,
    /// `seed(E)`.
    pub seed: Hash,
    /// What was rolled for.
    pub what: String,
    /// The rolls in order.
    pub rolls: Vec<super::Roll>,
}

/// What one entry did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    pub seq: u64,
    pub hash: Hash,
    pub seat: String,
    pub kind: Kind,
    /// The rolls this entry fixed, in the order they were rolled: the dice an earlier entry
    /// owed (settled by this entry's reveal), then the leading roll that opens this entry.
    /// One entry can do both (a fire's die, then the next cup draw), so this is a list.
    pub resolved: Vec<RandomEvent>,
    /// Events of the resolution, then of this entry's own orders.
    pub events: Vec<Event>,
    /// The random action this entry left pending.
    pub pending: Option<String>,
    /// Commitments opened by this entry (`seat/id = value`).
    pub opened: Vec<String>,
    /// Free text the author attached.
    pub note: Option<String>,
    /// Private draws this entry settled (a take-back never reaches it, DESIGN §2.7).
    #[serde(default)]
    pub settled_draws: bool,
}

/// Why an entry cannot be applied.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// Signature, chain, seq, reveal… (see [`ProtocolError`]).
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// Genesis names a ruleset this build does not know.
    #[error("entry 0: unknown ruleset {0:?} (this build knows: {known})", known = super::registry::known_ids())]
    UnknownRuleset(String),
    /// The scenario in the genesis cannot be played.
    #[error("entry 0: {0}")]
    Scenario(String),
    /// Orders cannot be parsed or break rules.
    #[error("entry {seq} ({seat}): {error}")]
    Orders { seq: u64, seat: String, error: OrdersError },
    /// The entry is not what the game waits for.
    #[error("entry {seq} ({seat}): out of turn: {why}")]
    OutOfTurn { seq: u64, seat: String, why: String },
    /// `dice_from` is not the seat the game will expect first from the other side.
    #[error(
        "entry {seq} ({seat}): dice_from is {found:?}, but the first seat of the other side the game expects next is {want:?} (DESIGN §2.5)"
    )]
    DiceFrom { seq: u64, seat: String, found: String, want: String },
    /// The game already ended.
    #[error("entry {seq}: the game is over ({result})")]
    Over { seq: u64, result: String },
    /// A commitment or opening is wrong.
    #[error("entry {seq} ({seat}): {why}")]
    Commitment { seq: u64, seat: String, why: String },
    /// A take-back or deviation that cannot be proposed or put in force (DESIGN §2.7).
    #[error("entry {seq} ({seat}): amendment refused: {why}")]
    Amendment { seq: u64, seat: String, why: String },
    /// A kind this version does not handle yet.
    #[error("entry {seq}: {why}")]
    Unsupported { seq: u64, why: String },
    /// The rules broke their own invariants: a bug in umpire, reported rather than hidden.
    #[error("entry {seq}: internal invariant broken after this entry: {why} (please report this log)")]
    Invariant { seq: u64, why: String },
}

/// Why [`Game::sign_for`] made no entry.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SignError {
    /// The entry would not read back as written.
    #[error("cannot make this entry: {0}")]
    Unsignable(String),
    /// The game refuses it.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// A commitment made by a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitRecord {
    pub seq: u64,
    pub digest: Hash,
    /// The opened value and the seq that opened it.
    pub opened: Option<(u64, String)>,
}

/// A hidden move found illegal by the omniscient pass ([`Game::replay_omniscient`]): the
/// entry that broke a rule while its author knew better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cheat {
    pub seq: u64,
    pub seat: String,
    pub hash: Hash,
    /// The rule broken (`"DESIGN §2.6"` for a protocol-level hidden-information fault).
    pub rule: String,
    pub message: String,
}

/// How the game ended, engine-level (resign and agreed draw come before the rules).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub seq: u64,
    pub outcome: Outcome,
    /// A resignation or an agreed draw (final even with openings owed); else the rules'.
    #[serde(default)]
    pub by_protocol: bool,
}

/// A game replayed from its log.
#[derive(Clone, Debug)]
pub struct Game {
    pub protocol: ProtocolState,
    pub ruleset: RulesetId,
    /// Rules state after the last applied entry.
    pub state: AnyState,
    pub pending: Option<PendingDice>,
    pub ending: Option<Ending>,
    /// Open draw offer: (seq, seat, hash).
    pub draw_offer: Option<(u64, String, Hash)>,
    /// Commitments by (seat, id).
    pub commitments: BTreeMap<(String, String), CommitRecord>,
    /// One record per entry applied, entry 0 included.
    pub steps: Vec<StepRecord>,
    /// The entries applied.
    pub entries: Vec<Entry>,
    /// What this replay knows beyond the log (public mode by default).
    pub knowledge: Knowledge,
    /// Private draws waiting for their revealer.
    pub draws: Vec<PendingDraw>,
    /// Private draws settled without their value (public mode), by (seat, draw id): the
    /// reveal that settled them, so their dice can be computed when `r` is opened.
    pub unsettled: BTreeMap<(String, String), Hash>,
    /// The amendment proposed and not yet agreed by every other side (DESIGN §2.7).
    pub amendment: Option<super::amend::OpenAmendment>,
    /// Amendments in force, in the order they were agreed.
    pub amendments: Vec<super::amend::AmendmentRecord>,
}

impl Game {
    /// Start a game from its genesis entry, in public mode.
    pub fn from_genesis(entry: &Entry) -> Result<Game, GameError> {
        Game::from_genesis_with(entry, Knowledge::public())
    }

    /// Start a game from its genesis entry, replaying under `knowledge`.
    pub fn from_genesis_with(entry: &Entry, knowledge: Knowledge) -> Result<Game, GameError> {
        Game::start(entry, knowledge, |ruleset, g| {
            let seats: Vec<SeatInfo> = g.seats.iter().map(|s| SeatInfo { seat: s.seat.clone(), side: s.side.clone() }).collect();
            let state = ruleset.setup(&g.scenario.text, g.options.as_ref(), &seats).map_err(|e| GameError::Scenario(e.to_string()))?;
            if let Err(why) = state.check_invariants() {
                return Err(GameError::Scenario(format!("the starting position breaks a rule: {why}")));
            }
            Ok(state)
        })
    }

    /// Start a game from its genesis entry with a state already made from that genesis
    /// (the apply cache's, which replaces the starting position at once): the scenario
    /// text, the largest part of a genesis, is not read and set up again for nothing.
    pub(crate) fn from_genesis_and_state(entry: &Entry, state: AnyState) -> Result<Game, GameError> {
        Game::start(entry, Knowledge::public(), |ruleset, _| {
            if state.ruleset() == ruleset {
                Ok(state)
            } else {
                Err(GameError::Scenario(format!("a state of {} handed to a game of {}", state.ruleset().id(), ruleset.id())))
            }
        })
    }

    /// The game of a genesis entry, with the starting state `state_for` makes.
    fn start(
        entry: &Entry,
        knowledge: Knowledge,
        state_for: impl FnOnce(RulesetId, &Genesis) -> Result<AnyState, GameError>,
    ) -> Result<Game, GameError> {
        let protocol = ProtocolState::from_genesis(entry)?;
        let g = &protocol.genesis;
        let ruleset = RulesetId::from_id(&g.ruleset.id).ok_or_else(|| GameError::UnknownRuleset(g.ruleset.id.clone()))?;
        let state = state_for(ruleset, g)?;
        let mut game = Game {
            protocol,
            ruleset,
            state,
            pending: None,
            ending: None,
            draw_offer: None,
            commitments: BTreeMap::new(),
            steps: Vec::new(),
            entries: Vec::new(),
            knowledge,
            draws: Vec::new(),
            unsettled: BTreeMap::new(),
            amendment: None,
            amendments: Vec::new(),
        };
        let mut events = vec![Event::say(format!(
            "game {} created: {} ({}), scenario {:?}",
            entry.hash.short(12),
            ruleset.title(),
            game.protocol.genesis.ruleset.version,
            game.protocol.genesis.scenario.name
        ))];
        events.extend(game.record_commitments(entry)?);
        game.steps.push(StepRecord {
            seq: 0,
            hash: entry.hash,
            seat: entry.seat().to_string(),
            kind: Kind::Genesis,
            resolved: Vec::new(),
            events,
            pending: None,
            opened: Vec::new(),
            note: entry.draft.body.note.clone(),
            settled_draws: false,
        });
        game.entries.push(entry.clone());
        Ok(game)
    }

    /// Replay a whole log in public mode. Stops at the first entry that cannot be applied,
    /// returning the game as it stood before it, with the error.
    pub fn replay(entries: &[Entry]) -> Result<Game, (Option<Box<Game>>, GameError)> {
        Game::replay_with(entries, Knowledge::public())
    }

    /// Replay a whole log under `knowledge` (public, seat or omniscient mode).
    pub fn replay_with(entries: &[Entry], knowledge: Knowledge) -> Result<Game, (Option<Box<Game>>, GameError)> {
        Game::replay_presigned(entries, knowledge, None)
    }

    /// [`Game::replay_with`], skipping the signature checks `presigned` already made.
    ///
    /// No rollback point is kept per entry (a copy of the rules state, the hidden knowledge
    /// and the genesis before every entry made long replays costly): the entries are applied
    /// straight, and only when one is refused is the log replayed again by
    /// [`Game::replay_carefully`], which stops before the first entry the rules really
    /// refuse, for exactly the game before it.
    fn replay_presigned(
        entries: &[Entry],
        knowledge: Knowledge,
        presigned: Option<std::sync::Arc<crate::log::protocol::Presigned>>,
    ) -> Result<Game, (Option<Box<Game>>, GameError)> {
        let mut game = Game::start_replay(entries, knowledge.clone(), presigned.clone())?;
        if entries.iter().skip(1).any(|e| game.apply_or_spoil(e).is_err()) {
            // Replayed carefully to the end, not only to the refused entry: a straight replay
            // may refuse an entry the rules accept (`Ruleset::validate_and_apply_in_place`);
            // the careful one stops at the first real refusal all the same.
            Game::replay_carefully(entries, knowledge, presigned)
        } else {
            game.protocol.presigned = None;
            Ok(game)
        }
    }

    /// Replay with a rollback copy before every entry, stopping at the first refusal with
    /// the game as it stood before it: slower than a straight replay, so used only to rebuild
    /// the game before an entry a straight replay refused (here and in `umpire verify`).
    pub fn replay_carefully(
        entries: &[Entry],
        knowledge: Knowledge,
        presigned: Option<std::sync::Arc<crate::log::protocol::Presigned>>,
    ) -> Result<Game, (Option<Box<Game>>, GameError)> {
        let mut game = Game::start_replay(entries, knowledge, presigned)?;
        for e in &entries[1..] {
            if let Err(err) = game.apply(e) {
                game.protocol.presigned = None;
                return Err((Some(Box::new(game)), err));
            }
        }
        game.protocol.presigned = None;
        Ok(game)
    }

    /// The game at the genesis of `entries` (an error for none), ready to replay them.
    fn start_replay(
        entries: &[Entry],
        knowledge: Knowledge,
        presigned: Option<std::sync::Arc<crate::log::protocol::Presigned>>,
    ) -> Result<Game, (Option<Box<Game>>, GameError)> {
        let Some(first) = entries.first() else {
            return Err((
                None,
                GameError::Protocol(ProtocolError {
                    seq: 0,
                    problem: crate::log::protocol::Problem::BadGenesis("the log is empty".into()),
                }),
            ));
        };
        let mut game = Game::from_genesis_with(first, knowledge).map_err(|e| (None, e))?;
        game.protocol.presigned = presigned;
        game.entries.reserve_exact(entries.len().saturating_sub(game.entries.len()));
        Ok(game)
    }

    /// The genesis facts.
    pub fn genesis(&self) -> &Genesis {
        &self.protocol.genesis
    }

    /// Hash of entry 0.
    pub fn id(&self) -> Hash {
        self.protocol.genesis.game_id
    }

    /// Seq the next entry must carry (once play started; a join's seq is fixed by its seat,
    /// see [`Game::join_seq`]).
    pub fn next_seq(&self) -> u64 {
        if self.protocol.all_joined { self.protocol.last_seq + 1 } else { self.entries.len() as u64 }
    }

    /// The seq of `seat`'s join (DESIGN §2.4).
    pub fn join_seq(&self, seat: &str) -> Option<u64> {
        self.genesis().join_seq(seat)
    }

    /// The entry with this seq, if the game has it.
    pub fn entry(&self, seq: u64) -> Option<&Entry> {
        match self.entries.get(seq as usize) {
            Some(e) if e.seq() == seq => Some(e),
            _ => self.entries.iter().find(|e| e.seq() == seq),
        }
    }

    /// The `prev` the next entry must carry: the last entry's hash, or the joins digest for
    /// the first entry of play.
    pub fn next_prev(&self) -> Hash {
        self.protocol.last_hash
    }

    /// True once every seat has joined.
    pub fn in_play(&self) -> bool {
        self.protocol.all_joined
    }

    /// The result, if the game is over. A result the rules reached is not final while a
    /// commitment is still unopened (DESIGN §2.6: "a game with an opening still owed is not
    /// over"); a resignation or an agreed draw is.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.openings_owed() {
            return None;
        }
        self.ending.as_ref().map(|e| e.outcome.clone())
    }

    /// The rules reached a result, but commitments are still unopened: the game waits for
    /// their openings (`umpire ack` sends them).
    pub fn openings_owed(&self) -> bool {
        self.ending.as_ref().is_some_and(|e| !e.by_protocol) && self.commitments.values().any(|r| r.opened.is_none())
    }

    /// The rules reached a result that waits for openings (theirs, [`Game::openings_owed`],
    /// or the ruleset's own end-of-game openings, [`crate::engine::Ruleset::result_held`]).
    pub fn result_waits_for_openings(&self) -> bool {
        self.openings_owed() || (self.ending.is_none() && self.state.result_held())
    }

    /// Unopened commitments by seat, as `(seat, ids)`, in genesis seat order.
    pub fn owed_openings(&self) -> Vec<(String, Vec<String>)> {
        let mut out = Vec::new();
        for s in &self.genesis().seats {
            let ids: Vec<String> = self
                .commitments
                .iter()
                .filter(|((seat, _), r)| seat == &s.seat && r.opened.is_none())
                .map(|((_, id), _)| id.clone())
                .collect();
            if !ids.is_empty() {
                out.push((s.seat.clone(), ids));
            }
        }
        out
    }

    /// A roll known to one side only (DESIGN §2.5 "one-sided knowledge"): dice owed by a
    /// revealer who can compute them, or a leading roll due. While it lasts, no amendment
    /// and no draw is proposed or answered, and that side sends nothing but the due entry.
    pub fn one_sided_roll(&self) -> Option<String> {
        self.one_sided_given(self.lead_due().as_ref())
    }

    /// [`Game::one_sided_roll`] with the [`Game::lead_due`] the caller already has.
    fn one_sided_given(&self, lead: Option<&(String, String, Option<crate::log::protocol::Revealed>)>) -> Option<String> {
        if let Some(p) = &self.pending {
            return Some(format!("the dice of entry {} ({}), which {}'s next entry reveals", p.seq, p.what, p.dice_from));
        }
        if let Some((seat, what, Some(_))) = lead {
            return Some(format!("the leading roll that opens {seat}'s next entry ({what})"));
        }
        None
    }

    /// The leading roll due (DESIGN §2.5): `(seat, what, Some(P))` when the next entry of
    /// `seat` opens with it (P: the latest orders/ack entry of the other side), `(.., None)`
    /// when the ruleset declares one but the conditions do not hold, so it is rolled as an
    /// ordinary roll (the seat sends `ack`, the other side's next entry fixes it). While dice
    /// are owed, `None`: the state that declares a leading roll is the one after those dice
    /// (see [`Game::lead_for`]).
    pub fn lead_due(&self) -> Option<(String, String, Option<crate::log::protocol::Revealed>)> {
        if self.pending.is_some() {
            return None;
        }
        self.lead_declared(&self.state)
    }

    /// The leading roll `state` declares, with its P as judged on the log so far
    /// (DESIGN §2.5): P is the latest orders/ack entry of the other side, after the last
    /// take-back, and the seat's side has sent no orders/ack since. The state is the one the
    /// seat's next entry meets after the dice and draws it settles, before its orders: a
    /// player turn that begins when an entry's owed dice are rolled opens with its leading
    /// roll in that same entry (no round trip; P is then the entry whose dice it settles).
    fn lead_declared(&self, state: &AnyState) -> Option<(String, String, Option<crate::log::protocol::Revealed>)> {
        self.lead_judge().declared(state, self.genesis())
    }

    /// What judging a leading roll needs of the log as it stands now: each side's P.
    fn lead_judge(&self) -> LeadJudge {
        let mut p = BTreeMap::new();
        if self.ending.is_none() && self.in_play() {
            let after_take_back = self.amendments.iter().filter(|a| a.undo_from.is_some()).map(|a| a.agreed).max().unwrap_or(0);
            for s in &self.genesis().seats {
                let own_since = self.protocol.latest.get(&s.side).map(|r| r.seq);
                let found = self.protocol.latest_of_other_side(&s.side).cloned();
                p.insert(s.side.clone(), found.filter(|p| p.seq > after_take_back && own_since.is_none_or(|o| o < p.seq)));
            }
        }
        LeadJudge { p }
    }

    /// The seat `author`'s orders/ack entry must name in `dice_from`, judged on the game
    /// after that entry: the first seat of the other side the game expects an entry from
    /// (DESIGN §2.5). `None` when the rules cannot say (any seat of the other side).
    pub fn wanted_dice_from(&self, author: &str) -> Option<String> {
        let opp = self.opponents(author);
        if opp.len() == 1 {
            return opp.into_iter().next();
        }
        let side = self.genesis().seats.iter().find(|s| s.seat == opp[0])?.side.clone();
        if self.openings_owed() {
            return self.owed_openings().into_iter().map(|(s, _)| s).find(|s| opp.contains(s)).or_else(|| opp.first().cloned());
        }
        if let Some(p) = &self.pending {
            return Some(p.dice_from.clone()).filter(|s| opp.contains(s));
        }
        let now = self.state.expect().awaits.into_iter().map(|a| a.seat).find(|s| opp.contains(s));
        now.or_else(|| self.state.next_seat_of(&side).filter(|s| opp.contains(s)))
    }

    /// The seats of sides other than `seat`'s.
    pub fn opponents(&self, seat: &str) -> Vec<String> {
        let g = self.genesis();
        let side = g.side_of(seat).unwrap_or_default().to_string();
        g.seats.iter().filter(|s| s.side != side).map(|s| s.seat.clone()).collect()
    }

    /// Apply one entry; on error nothing changes.
    pub fn apply(&mut self, entry: &Entry) -> Result<&StepRecord, GameError> {
        // The step is pushed only at the very end of `apply_inner`, the entry after it; the rest is
        // small enough to snapshot (cloning the whole game would make replays quadratic).
        let snapshot = (
            self.protocol.clone(),
            self.state.clone(),
            self.pending.clone(),
            self.ending.clone(),
            self.draw_offer.clone(),
            self.commitments.clone(),
            (self.knowledge.clone(), self.draws.clone(), self.unsettled.clone()),
            (self.amendment.clone(), self.amendments.len()),
        );
        if let Err(e) = self.apply_inner(entry, false) {
            let (hidden, amend);
            (self.protocol, self.state, self.pending, self.ending, self.draw_offer, self.commitments, hidden, amend) = snapshot;
            (self.knowledge, self.draws, self.unsettled) = hidden;
            self.amendment = amend.0;
            self.amendments.truncate(amend.1);
            return Err(e);
        }
        self.file_entry(entry.clone());
        Ok(self.steps.last().expect("a step was just recorded"))
    }

    /// Apply one entry without keeping a copy to roll back to (no clone of the state per
    /// entry): for replays that stop at the first error and throw the game away then. On
    /// error the game is left half-changed and must not be used.
    pub fn apply_or_spoil(&mut self, entry: &Entry) -> Result<(), GameError> {
        self.apply_inner(entry, true)?;
        self.file_entry(entry.clone());
        Ok(())
    }

    /// [`Game::apply_or_spoil`] taking the entry by value, so that a long replay keeps one
    /// copy of each entry (the game's) instead of two; a refused entry is handed back.
    pub fn apply_owned_or_spoil(&mut self, entry: Entry) -> Result<(), Box<(Entry, GameError)>> {
        match self.apply_inner(&entry, true) {
            Ok(()) => {
                self.file_entry(entry);
                Ok(())
            }
            Err(e) => Err(Box::new((entry, e))),
        }
    }

    /// The state after resolving the pending dice with `reveal` (what the revealer sees
    /// before writing its entry), without changing the game.
    pub fn preview_resolution(&self, reveal: &Hash) -> Option<(AnyState, Vec<Event>)> {
        let p = self.pending.as_ref()?;
        let (mut state, mut events) = self.preview_draws(&p.dice_from, reveal);
        let mut dice = Dice::from_seed(&dice_seed(&p.reveal, reveal));
        events.extend(if p.lead { state.resolve_lead(&mut dice) } else { state.resolve(&mut dice) });
        Some((state, events))
    }

    /// The state the next entry of `seat` (revealing `reveal`) will be validated against:
    /// after the private draws and the public dice that entry settles. Without anything owed
    /// by `seat`, the current state.
    pub fn state_before(&self, seat: &str, reveal: Option<&Hash>) -> (AnyState, Vec<Event>) {
        let Some(reveal) = reveal else { return (self.state.clone(), Vec::new()) };
        let (mut state, mut events) = match &self.pending {
            Some(p) if p.dice_from == seat => self.preview_resolution(reveal).expect("pending is set"),
            Some(_) => return (self.state.clone(), Vec::new()),
            None => self.preview_draws(seat, reveal),
        };
        if let Some((lseat, what, Some(p))) = self.lead_declared(&state)
            && lseat == seat
        {
            let mut dice = Dice::from_seed(&crate::dice::lead_seed(&p.reveal, reveal));
            events.push(Event::say(format!("leading roll ({what}), fixed by entry {}:", p.seq)));
            events.extend(state.resolve_lead(&mut dice));
        }
        (state, events)
    }

    /// The header of `seat`'s next entry around `body` (DESIGN §2.2–2.5): a join at its
    /// seat's seq with `prev` = the game id; any other entry at the next seq; `reveal` and
    /// `dice_from` only on orders/ack in play; `lead` set when a leading roll opens it.
    /// `dice_from` is `asked` or the engine's best guess made before the entry: when the
    /// entry changes who moves next, applying it answers [`GameError::DiceFrom`] with the
    /// seat wanted, and the caller signs again with that one ([`Game::sign_for`] does).
    pub fn draft_for(&self, seat: &str, mut body: Body, reveal: Option<Hash>, asked: Option<&str>, time: String) -> Draft {
        let reveals = body.kind.reveals();
        if body.kind == Kind::Join {
            let seq = self.join_seq(seat).unwrap_or(0);
            return Draft {
                game: Some(self.id()),
                seq,
                prev: Some(self.id()),
                seat: seat.into(),
                reveal: None,
                dice_from: None,
                time,
                body,
            };
        }
        if body.kind == Kind::Orders && body.lead.is_none() {
            body.lead = self.lead_for(seat, reveal.as_ref());
        }
        let dice_from = (reveals && self.in_play()).then(|| {
            asked
                .map(str::to_string)
                .or_else(|| self.wanted_dice_from(seat))
                .or_else(|| self.opponents(seat).into_iter().next())
                .unwrap_or_default()
        });
        Draft {
            game: Some(self.id()),
            seq: self.next_seq(),
            prev: Some(self.next_prev()),
            seat: seat.into(),
            reveal: if reveals { reveal } else { None },
            dice_from,
            time,
            body,
        }
    }

    /// Sign `seat`'s next entry around `body` with `key` and check it applies: on a copy of
    /// this game, returned with the entry. A wrong guess of `dice_from` is corrected once.
    pub fn sign_for(
        &self,
        seat: &str,
        key: &SecretKey,
        body: Body,
        reveal: Option<Hash>,
        asked: Option<&str>,
        time: String,
    ) -> Result<(Entry, Game), SignError> {
        let sign = |d: Draft| d.try_sign(key).map_err(|e| SignError::Unsignable(e.to_string()));
        let entry = sign(self.draft_for(seat, body.clone(), reveal, asked, time.clone()))?;
        let mut check = self.clone();
        match check.apply(&entry) {
            Ok(_) => Ok((entry, check)),
            Err(GameError::DiceFrom { want, .. }) if asked.is_none() => {
                let entry = sign(self.draft_for(seat, body, reveal, Some(&want), time))?;
                let mut check = self.clone();
                check.apply(&entry)?;
                Ok((entry, check))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The `lead` the next orders entry of `seat` (revealing `reveal`) must carry, if a
    /// leading roll opens it: judged on the state after the dice that entry settles.
    pub fn lead_for(&self, seat: &str, reveal: Option<&Hash>) -> Option<Hash> {
        let lead = match (&self.pending, reveal) {
            (Some(p), Some(r)) if p.dice_from == seat => self.lead_declared(&self.preview_resolution(r)?.0),
            (Some(_), _) => None,
            (None, _) => self.lead_due(),
        };
        match lead {
            Some((lseat, _, Some(p))) if lseat == seat => Some(p.hash),
            _ => None,
        }
    }

    /// The state after settling the private draws owed by `seat`'s next entry.
    fn preview_draws(&self, seat: &str, reveal: &Hash) -> (AnyState, Vec<Event>) {
        let mut state = self.state.clone();
        let mut events = Vec::new();
        for d in self.draws.iter().filter(|d| d.dice_from == seat) {
            let r = self.knowledge.draw_secret(&d.seat, &d.draw_id, &self.id());
            let mut dice = r.map(|r| Dice::from_seed(&draw::private_dice_seed(&r, reveal)));
            events.extend(state.settle_draw(&d.seat, &d.draw_id, dice.as_mut()));
        }
        (state, events)
    }

    /// Settle the private draws owed by this entry of `seat` (DESIGN §2.6).
    fn settle_draws(&mut self, seq: u64, seat: &str, reveal: Option<Hash>) -> Result<Vec<Event>, GameError> {
        let (owed, rest): (Vec<PendingDraw>, Vec<PendingDraw>) =
            std::mem::take(&mut self.draws).into_iter().partition(|d| d.dice_from == seat);
        self.draws = rest;
        if owed.is_empty() {
            return Ok(Vec::new());
        }
        let reveal = reveal.ok_or_else(|| GameError::OutOfTurn {
            seq,
            seat: seat.to_string(),
            why: "an entry that settles private draws must carry `reveal`".into(),
        })?;
        let mut events = Vec::new();
        for d in owed {
            match self.knowledge.draw_secret(&d.seat, &d.draw_id, &self.id()) {
                Some(r) => {
                    let mut dice = Dice::from_seed(&draw::private_dice_seed(&r, &reveal));
                    events.extend(self.state.settle_draw(&d.seat, &d.draw_id, Some(&mut dice)));
                }
                None => {
                    events.extend(self.state.settle_draw(&d.seat, &d.draw_id, None));
                    self.unsettled.insert((d.seat.clone(), d.draw_id.clone()), reveal);
                }
            }
            events.push(Event::say(format!("private draw {:?} of {} (entry {}) settled by {seat}'s reveal", d.draw_id, d.seat, d.seq)));
        }
        Ok(events)
    }

    /// `in_place`: the caller throws the game away on an error (a straight replay), so the
    /// rules may change the state before they know the verdict ([`AnyState::apply`]).
    fn apply_inner(&mut self, entry: &Entry, in_place: bool) -> Result<(), GameError> {
        let seq = entry.seq();
        let seat = entry.seat().to_string();
        let body = &entry.draft.body;
        // Judged on the game before this entry (the protocol step changes `latest`); the
        // leading roll itself is judged again after the dice this entry settles.
        let one_sided = self.one_sided_roll();
        let before = self.lead_judge();
        let step = self.protocol.accept(entry)?;
        if let Some(end) = &self.ending
            && (end.by_protocol || !self.commitments.values().any(|r| r.opened.is_none()))
        {
            return Err(GameError::Over { seq, result: describe_outcome(&end.outcome) });
        }
        let out_of_turn = |why: String| GameError::OutOfTurn { seq, seat: seat.clone(), why };
        let reveals = body.kind.reveals();
        // DESIGN §2.5 "one-sided knowledge": while one side alone knows a roll, nobody
        // proposes or answers an amendment or a draw; only the due entry or a resignation.
        if let Some(roll) = &one_sided
            && matches!(body.kind, Kind::OfferDraw | Kind::AcceptDraw | Kind::ProposeAmend | Kind::AgreeAmend)
        {
            return Err(out_of_turn(format!(
                "{roll} is known to one side only: no draw offer or amendment until the entry that is due makes it public"
            )));
        }
        if let Some(end) = &self.ending
            && !matches!(body.kind, Kind::Orders | Kind::Ack | Kind::Resign)
        {
            return Err(out_of_turn(format!(
                "the rules ended the game ({}); only the openings still owed may follow (`umpire ack`)",
                describe_outcome(&end.outcome)
            )));
        }
        let mut events = Vec::new();
        let mut resolved = Vec::new();
        // This entry settles dice another seat's entry owed: it is due even when the roll
        // leaves its author nothing to decide.
        let mut answered_dice = false;

        // Private draws owed by this seat's entry are settled first (DESIGN §2.6), then the
        // public dice owed by an earlier entry: this entry's author saw them before writing.
        let settled = self.settle_draws(seq, &seat, step.reveal)?;
        let settled_draws = !settled.is_empty();
        events.extend(settled);
        if let Some(p) = self.pending.clone()
            && reveals
        {
            // One seat at a time: while dice are owed only their revealer sends orders/ack.
            let Some(&(_, seed)) = step.settles.iter().find(|(s, _)| *s == p.seq) else {
                return Err(out_of_turn(format!(
                    "entry {} ({}) waits for its dice, which the next entry of {} reveals",
                    p.seq, p.what, p.dice_from
                )));
            };
            let mut dice = Dice::from_seed(&seed);
            let evs = if p.lead { self.state.resolve_lead(&mut dice) } else { self.state.resolve(&mut dice) };
            let rolls = evs.iter().filter_map(|e| e.roll.clone()).collect();
            resolved.push(RandomEvent { entry: p.seq, revealed_by: seq, seed, what: p.what.clone(), rolls });
            events.push(Event::say(format!("dice of entry {} revealed by {} (seed {}):", p.seq, seat, seed.short(16))));
            events.extend(evs);
            self.pending = None;
            answered_dice = true;
        }
        // A leading roll opens the entry, before its orders are read (DESIGN §2.5), judged
        // on the state after the dice it settled, with P as the log stood before it.
        let lead = if reveals && self.ending.is_none() { before.declared(&self.state, self.genesis()) } else { None };
        // Only orders/ack entries carry `lead`, and only when a leading roll opens them.
        match (&lead, body.lead) {
            (Some((lseat, _, Some(p))), found) if *lseat == seat && reveals => {
                if body.kind != Kind::Orders {
                    return Err(out_of_turn(format!(
                        "your entry opens with a leading roll (DESIGN §2.5): send orders naming entry {} in `lead`",
                        p.seq
                    )));
                }
                if found != Some(p.hash) {
                    return Err(out_of_turn(format!(
                        "this entry opens with a leading roll: `lead` must name entry {} ({}), the latest orders/ack of the other side",
                        p.seq, p.hash
                    )));
                }
            }
            (Some((lseat, what, None)), None) if *lseat == seat && reveals && body.kind != Kind::Ack => {
                return Err(out_of_turn(format!(
                    "{what} cannot lead this entry (no orders/ack of the other side since play or the last take-back, DESIGN §2.5): \
                     send `umpire ack` to roll it; the other side's next entry fixes it"
                )));
            }
            (_, Some(_)) => return Err(out_of_turn("`lead` names a leading roll, but none opens this entry (DESIGN §2.5)".into())),
            _ => {}
        }
        let mut lead_pending = None;
        let mut lead_rolled = false;
        if let Some((lseat, what, p)) = &lead
            && *lseat == seat
            && reveals
        {
            let reveal = step.reveal.expect("orders and ack carry a reveal");
            match p {
                Some(p) => {
                    let seed = crate::dice::lead_seed(&p.reveal, &reveal);
                    let mut dice = Dice::from_seed(&seed);
                    let evs = self.state.resolve_lead(&mut dice);
                    lead_rolled = true;
                    let rolls = evs.iter().filter_map(|e| e.roll.clone()).collect();
                    resolved.push(RandomEvent { entry: seq, revealed_by: p.seq, seed, what: what.clone(), rolls });
                    events.push(Event::say(format!(
                        "leading roll of entry {seq} ({what}), fixed by entry {}'s reveal (seed {}):",
                        p.seq,
                        seed.short(16)
                    )));
                    events.extend(evs);
                }
                None => lead_pending = Some(what.clone()),
            }
        }

        events.extend(self.record_commitments(entry)?);
        let (opened, mut acts) = self.record_openings(entry)?;
        self.check_sealed_lengths(entry)?;
        self.read_sealed(entry)?;
        acts.committed = body
            .commit
            .iter()
            .flatten()
            .map(|c| Committed { id: c.id.clone(), value: self.knowledge.value(&seat, &c.id).map(str::to_string) })
            .collect();
        if body.kind == Kind::Orders || (!acts.is_empty() && self.ending.is_none()) {
            let evs = self.state.hidden(&seat, &mut acts).map_err(|vs| GameError::Orders {
                seq,
                seat: seat.clone(),
                error: OrdersError::Illegal(vs),
            })?;
            events.extend(evs);
        }

        match body.kind {
            Kind::Genesis => unreachable_kind(seq, "a second genesis")?,
            Kind::Join => {
                events.push(Event::say(format!("{seat} joined")));
                if self.protocol.all_joined {
                    events.push(Event::say("every seat has joined: play starts"));
                }
            }
            Kind::Ack => {
                let opens_owed = self.ending.is_some() && !opened.is_empty();
                if resolved.is_empty() && !settled_draws && lead_pending.is_none() && !opens_owed {
                    return Err(out_of_turn(if self.ending.is_some() {
                        "the game waits only for the openings still owed; this ack opens none".into()
                    } else {
                        "an ack answers owed dice, private draws or a leading roll, and none are owed by this seat".into()
                    }));
                }
            }
            Kind::Orders => {
                // Read again from the bytes if the entry shed them (a long audit's replay).
                let orders = entry.orders();
                let awaited = self.state.awaited_seats().contains(&seat);
                if self.ending.is_some() && !awaited {
                    return Err(out_of_turn("the rules ended the game; send the openings still owed with `umpire ack`".into()));
                }
                if !awaited {
                    // A leading roll can hand the next decision to the other side (a command
                    // roll of 6): the entry it opened then carries no orders of its own.
                    if lead_rolled && orders.as_deref().is_none_or(empty_orders) {
                        events.push(Event::say(format!("{seat} has nothing more to order after the leading roll")));
                    } else if (answered_dice || settled_draws) && orders.as_deref().is_some_and(|o| self.state.files_out_of_turn(o)) {
                        // Orders the ruleset lets any seat file in an entry it owes anyway
                        // (Glory's End standing instructions, docs/glorys-end/rules.md): the
                        // entry that reveals the dice may carry them though nothing else is due.
                        let orders = orders.as_deref().expect("checked above");
                        let evs = self.state.apply_maybe_in_place(&seat, orders, in_place).map_err(|error| GameError::Orders {
                            seq,
                            seat: seat.clone(),
                            error,
                        })?;
                        events.extend(evs);
                    } else {
                        let exp = self.state.expect();
                        return Err(out_of_turn(format!("{}; waiting for: {}", exp.when, describe_awaits(&exp))));
                    }
                } else {
                    let orders = orders.as_deref().ok_or_else(|| GameError::Orders {
                        seq,
                        seat: seat.clone(),
                        error: OrdersError::Parse("no `orders` in the body".into()),
                    })?;
                    let evs = self.state.apply_maybe_in_place(&seat, orders, in_place).map_err(|error| GameError::Orders {
                        seq,
                        seat: seat.clone(),
                        error,
                    })?;
                    events.extend(evs);
                }
            }
            Kind::Resign => {
                let side = self.genesis().side_of(&seat).unwrap_or_default().to_string();
                let winners: Vec<String> = self.genesis().seats.iter().filter(|s| s.side != side).map(|s| s.side.clone()).collect();
                let mut winners_dedup = winners.clone();
                winners_dedup.dedup();
                let outcome = if winners_dedup.len() == 1 {
                    Outcome::Win { side: winners_dedup[0].clone(), reason: format!("{seat} ({side}) resigned") }
                } else {
                    Outcome::Draw { reason: format!("{seat} ({side}) resigned; several sides remain") }
                };
                events.push(Event::say(describe_outcome(&outcome)));
                self.ending = Some(Ending { seq, outcome, by_protocol: true });
            }
            Kind::OfferDraw => {
                if let Some(old) = &self.draw_offer {
                    events.push(Event::say(format!("the draw offer of entry {} is replaced", old.0)));
                }
                self.draw_offer = Some((seq, seat.clone(), entry.hash));
                events.push(Event::say(format!("{seat} offers a draw")));
            }
            Kind::AcceptDraw => {
                let Some((oseq, oseat, ohash)) = self.draw_offer.clone() else {
                    return Err(out_of_turn("there is no draw offer to accept".into()));
                };
                if body.agree != Some(ohash) {
                    return Err(out_of_turn(format!("accept-draw must name the offer (entry {oseq}, hash {ohash}) in `agree`")));
                }
                if self.genesis().side_of(&oseat) == self.genesis().side_of(&seat) {
                    return Err(out_of_turn("a side cannot accept its own draw offer".into()));
                }
                let outcome = Outcome::Draw { reason: format!("{oseat} offered a draw (entry {oseq}) and {seat} accepted") };
                events.push(Event::say(describe_outcome(&outcome)));
                self.ending = Some(Ending { seq, outcome, by_protocol: true });
            }
            Kind::ProposeAmend => self.propose_amend(entry, &mut events)?,
            Kind::AgreeAmend => self.agree_amend(entry, &mut events)?,
        }

        // An amendment proposal and a draw offer lapse at the next orders/ack entry of any
        // seat (DESIGN §2.5, §2.7: answer them before playing on).
        if reveals {
            if let Some(open) = self.amendment.take() {
                events.push(Event::say(format!(
                    "the amendment proposed at entry {} lapses: play went on without every side's agreement",
                    open.seq
                )));
            }
            if let Some((oseq, _, _)) = self.draw_offer.take() {
                events.push(Event::say(format!("the draw offer of entry {oseq} lapses: play went on without an answer")));
            }
        }

        self.record_draws(entry)?;

        let mut pending_desc = None;
        if reveals && self.ending.is_none() {
            let lead_roll = lead_pending.is_some();
            let what = lead_pending.or_else(|| self.state.pending_roll());
            if let Some(what) = what {
                let dice_from = entry.draft.dice_from.clone().ok_or_else(|| out_of_turn("an orders/ack entry names `dice_from`".into()))?;
                self.pending = Some(PendingDice {
                    seq,
                    hash: entry.hash,
                    reveal: step.reveal.expect("orders and ack carry a reveal"),
                    seat: seat.clone(),
                    dice_from,
                    what: what.clone(),
                    lead: lead_roll,
                });
                pending_desc = Some(what);
            }
        }
        if let Err(why) = self.state.check_invariants() {
            return Err(GameError::Invariant { seq, why });
        }
        if self.ending.is_none()
            && self.pending.is_none()
            && let Some(outcome) = self.state.outcome()
        {
            events.push(Event::say(format!("game over: {}", describe_outcome(&outcome))));
            self.ending = Some(Ending { seq, outcome, by_protocol: false });
        }
        if reveals {
            // The revealer this entry named must be the first seat of the other side the
            // game expects next, or the game would wait for a seat that may not send.
            // Only while a random action waits for E's dice does the order matter.
            let found = entry.draft.dice_from.clone().unwrap_or_default();
            if self.pending.as_ref().is_some_and(|p| p.seq == seq)
                && let Some(want) = self.wanted_dice_from(&seat)
                && want != found
            {
                return Err(GameError::DiceFrom { seq, seat, found, want });
            }
            // One seat at a time (DESIGN §2.5).
            let mut expected = self.waiting_seats();
            expected.dedup();
            if expected.len() > 1 && self.ending.is_none() {
                return Err(GameError::Invariant {
                    seq,
                    why: format!("the rules expect orders from several seats at once ({}); DESIGN §2.5 allows one", expected.join(", ")),
                });
            }
        }
        // A step is kept for the whole game: no spare room from growing the list.
        events.shrink_to_fit();
        self.steps.push(StepRecord {
            seq,
            hash: entry.hash,
            seat,
            kind: body.kind,
            resolved,
            events,
            pending: pending_desc,
            opened,
            note: body.note.clone(),
            settled_draws,
        });
        Ok(())
    }

    /// Keep an entry [`Game::apply_inner`] accepted (whose step it recorded last).
    fn file_entry(&mut self, entry: Entry) {
        // Joins may arrive in any order (DESIGN §2.4): keep the entries in seq order.
        let seq = entry.seq();
        let at = self.entries.iter().rposition(|e| e.seq() < seq).map_or(0, |i| i + 1);
        self.entries.insert(at, entry);
        if at + 1 != self.entries.len() {
            let step = self.steps.pop().expect("just pushed");
            self.steps.insert(at, step);
        }
    }

    fn record_commitments(&mut self, entry: &Entry) -> Result<Vec<Event>, GameError> {
        let mut events = Vec::new();
        let seat = entry.seat().to_string();
        for c in entry.draft.body.commit.iter().flatten() {
            let key = (seat.clone(), c.id.clone());
            if self.commitments.contains_key(&key) {
                return Err(GameError::Commitment {
                    seq: entry.seq(),
                    seat,
                    why: format!("commitment id {:?} was already used; ids are never reused (DESIGN §2.6)", c.id),
                });
            }
            self.commitments.insert(key, CommitRecord { seq: entry.seq(), digest: c.digest, opened: None });
            events.push(Event::say(format!("{seat} commits to hidden value {:?}", c.id)));
        }
        Ok(events)
    }

    fn record_openings(&mut self, entry: &Entry) -> Result<(Vec<String>, HiddenActs), GameError> {
        let seat = entry.seat().to_string();
        let mut opened = Vec::new();
        let mut acts = HiddenActs::default();
        for o in entry.draft.body.open.iter().flatten() {
            let key = (seat.clone(), o.id.clone());
            let Some(rec) = self.commitments.get_mut(&key) else {
                return Err(GameError::Commitment {
                    seq: entry.seq(),
                    seat,
                    why: format!("opens {:?}, which this seat never committed to", o.id),
                });
            };
            if rec.opened.is_some() {
                return Err(GameError::Commitment { seq: entry.seq(), seat, why: format!("opens {:?} a second time", o.id) });
            }
            if !commit::opens(&rec.digest, &o.salt, &o.value) {
                return Err(GameError::Commitment {
                    seq: entry.seq(),
                    seat,
                    why: format!(
                        "the opening of {:?} does not match the digest committed in entry {}: the hidden value was changed",
                        o.id, rec.seq
                    ),
                });
            }
            rec.opened = Some((entry.seq(), o.value.clone()));
            opened.push(format!("{seat}/{} = {}", o.id, o.value));
            let is_draw = self.unsettled.contains_key(&key) || self.draws.iter().any(|d| d.seat == seat && d.draw_id == o.id);
            if is_draw && o.value.parse::<Hash>().is_err() {
                return Err(GameError::Commitment {
                    seq: entry.seq(),
                    seat,
                    why: format!("{:?} is a private draw: its value must be r as 64 hex digits (DESIGN §2.6)", o.id),
                });
            }
            // A private draw settled without its value can be computed now.
            let draw = match self.unsettled.remove(&key) {
                Some(reveal) => {
                    let r: Hash = o.value.parse().map_err(|_| GameError::Commitment {
                        seq: entry.seq(),
                        seat: seat.clone(),
                        why: format!("{:?} is a private draw: its value must be r as 64 hex digits (DESIGN §2.6)", o.id),
                    })?;
                    Some(Dice::from_seed(&draw::private_dice_seed(&r, &reveal)))
                }
                None => None,
            };
            self.knowledge.learn(&seat, &o.id, &o.value);
            acts.opened.push(Opened { id: o.id.clone(), value: o.value.clone(), draw });
        }
        Ok((opened, acts))
    }

    /// Every mode: each sealed note has the padded length of its kind (DESIGN §2.6), so no
    /// tool can send a note whose length tells what it holds (the reader's tool would not
    /// notice, and the other side would read it off the log).
    fn check_sealed_lengths(&self, entry: &Entry) -> Result<(), GameError> {
        let body = &entry.draft.body;
        let ids = || body.commit.iter().flatten().map(|c| c.id.as_str());
        let notes = body.sealed.iter().map(|d| (d, false)).chain(body.sealed_for.iter().flatten().map(|f| (&f.data, true)));
        for (data, with_salts) in notes {
            let want = self.state.sealed_len(ids(), with_salts);
            let got = seal::sealed_plain_len(data);
            if got != Some(want) {
                return Err(GameError::Commitment {
                    seq: entry.seq(),
                    seat: entry.seat().to_string(),
                    why: format!(
                        "a sealed note holds {} bytes where its kind is padded to {want} (DESIGN §2.6: its length would tell what it holds)",
                        got.map_or_else(|| "an unreadable number of".to_string(), |n| n.to_string())
                    ),
                });
            }
        }
        Ok(())
    }

    /// Seat mode: learn the values of the reader's own sealed note and of notes a partner
    /// sealed for it, each checked against its commitment.
    fn read_sealed(&mut self, entry: &Entry) -> Result<(), GameError> {
        let Some(reader) = self.knowledge.reader().map(str::to_string) else { return Ok(()) };
        let key = self.knowledge.key().expect("seat mode has a key").clone();
        let body = &entry.draft.body;
        let author = entry.seat().to_string();
        let seq = entry.seq();
        let bad = |why: String| GameError::Commitment { seq, seat: author.clone(), why };
        let note = if author == reader {
            let Some(sealed) = &body.sealed else { return Ok(()) };
            let plain = seal::open(&key.seed(), &self.id(), seq, sealed)
                .map_err(|e| bad(format!("its sealed note does not open with the key of {reader}: {e}")))?;
            SealedNote::from_bytes(&plain).map_err(bad)?
        } else {
            let Some(item) = body.sealed_for.iter().flatten().find(|f| f.seat == reader) else { return Ok(()) };
            let author_key = self.genesis().seat(&author).map(|s| s.key).ok_or_else(|| bad("unknown author".into()))?;
            let plain = seal::open_for(&key.signing, &author_key, &self.id(), &author, &reader, seq, &item.data)
                .map_err(|e| bad(format!("the note it sealed for {reader} does not open: {e}")))?;
            SealedNote::from_bytes(&plain).map_err(bad)?
        };
        for (id, value) in &note.commit {
            let Some(rec) = self.commitments.get(&(author.clone(), id.clone())) else {
                return Err(bad(format!("its sealed note names {id:?}, which it never committed to")));
            };
            let salt = if author == reader {
                commit::salt(&key.seed(), &self.id(), id)
            } else {
                *note.salt.get(id).ok_or_else(|| bad(format!("the note it sealed for {reader} gives no salt for {id:?}")))?
            };
            if !commit::opens(&rec.digest, &salt, value) {
                return Err(bad(format!(
                    "its sealed note gives a value for {id:?} that does not match the commitment (entry {})",
                    rec.seq
                )));
            }
            self.knowledge.learn(&author, id, value);
        }
        Ok(())
    }

    /// Record the private draws the entry made: each must be a commitment of this entry and
    /// the entry must name who settles it.
    fn record_draws(&mut self, entry: &Entry) -> Result<(), GameError> {
        let draws = self.state.private_draws();
        let seq = entry.seq();
        let seat = entry.seat().to_string();
        for draw_id in draws {
            let committed = entry.draft.body.commit.iter().flatten().any(|c| c.id == draw_id);
            if !committed {
                return Err(GameError::Commitment {
                    seq,
                    seat,
                    why: format!("the entry makes private draw {draw_id:?} but does not commit to its secret under that id (DESIGN §2.6)"),
                });
            }
            let dice_from = entry.draft.dice_from.clone().ok_or_else(|| GameError::OutOfTurn {
                seq,
                seat: seat.clone(),
                why: "an entry with a private draw must name `dice_from`".into(),
            })?;
            self.draws.push(PendingDraw { seq, seat: seat.clone(), draw_id, dice_from });
        }
        Ok(())
    }

    /// `seat`'s own view of this game: its entries replayed in seat mode with `key`. While
    /// nothing is hidden (no commitment, no draw) that is this game itself, so it is a clone.
    pub fn seat_view(&self, seat: &str, key: SecretKey) -> Result<Game, GameError> {
        if self.commitments.is_empty() && self.draws.is_empty() && self.knowledge.mode() == Mode::Public {
            let mut g = self.clone();
            g.knowledge = Knowledge::seat(seat, key);
            return Ok(g);
        }
        Game::replay_with(&self.entries, Knowledge::seat(seat, key)).map_err(|(_, e)| e)
    }

    /// Every value opened in this game, by `(seat, id)`.
    pub fn opened_values(&self) -> BTreeMap<(String, String), String> {
        self.commitments.iter().filter_map(|(k, r)| r.opened.as_ref().map(|(_, v)| (k.clone(), v.clone()))).collect()
    }

    /// The omniscient pass (DESIGN §2.6: "verify then re-checks every hidden move
    /// retroactively"): replay this game's entries again knowing, from the moment each was
    /// committed, every value opened anywhere in the log. Returns that replay, or the
    /// violations of the first entry it refuses, each naming the entry.
    pub fn replay_omniscient(&self) -> Result<Game, Vec<Cheat>> {
        // Every entry of this game passed its signature check when it was applied (or was
        // restored from a cache of such a game): the omniscient pass need not check again.
        let presigned = crate::log::protocol::Presigned { game_id: self.id(), ok: self.entries.iter().map(|e| e.hash).collect() };
        match Game::replay_presigned(&self.entries, Knowledge::omniscient(self.opened_values()), Some(std::sync::Arc::new(presigned))) {
            Ok(g) => Ok(g),
            Err((_, err)) => Err(self.cheats(&err)),
        }
    }

    fn cheats(&self, err: &GameError) -> Vec<Cheat> {
        let (seq, seat) = match err {
            GameError::Orders { seq, seat, .. } | GameError::OutOfTurn { seq, seat, .. } | GameError::Commitment { seq, seat, .. } => {
                (*seq, seat.clone())
            }
            GameError::Protocol(p) => (p.seq, String::new()),
            GameError::Over { seq, .. } | GameError::Unsupported { seq, .. } | GameError::Invariant { seq, .. } => (*seq, String::new()),
            GameError::Amendment { seq, seat, .. } | GameError::DiceFrom { seq, seat, .. } => (*seq, seat.clone()),
            GameError::UnknownRuleset(_) | GameError::Scenario(_) => (0, String::new()),
        };
        let entry = self.entries.get(seq as usize);
        let hash = entry.map_or(Hash([0; 32]), |e| e.hash);
        let seat = if seat.is_empty() { entry.map(|e| e.seat().to_string()).unwrap_or_default() } else { seat };
        let cheat = |rule: String, message: String| Cheat { seq, seat: seat.clone(), hash, rule, message };
        match err {
            GameError::Orders { error: OrdersError::Illegal(vs), .. } => {
                vs.iter().map(|v| cheat(v.rule.clone(), v.message.clone())).collect()
            }
            other => vec![cheat("DESIGN §2.6".into(), other.to_string())],
        }
    }

    /// Commitments never opened, as `(seat, id, seq)`.
    pub fn unopened(&self) -> Vec<(String, String, u64)> {
        self.commitments.iter().filter(|(_, r)| r.opened.is_none()).map(|((s, i), r)| (s.clone(), i.clone(), r.seq)).collect()
    }

    /// The seats of [`Game::waiting_for`], without its wording (checked after every entry).
    pub fn waiting_seats(&self) -> Vec<String> {
        // `waiting_for`'s last case, the usual one, asks the rules for seats alone.
        if self.ending.is_none() && self.protocol.all_joined && self.pending.is_none() {
            return self.state.awaited_seats();
        }
        self.waiting_for().into_iter().map(|(s, _)| s).collect()
    }

    /// Who must send what next, with the engine's own constraints (joins, owed dice, end).
    pub fn waiting_for(&self) -> Vec<(String, String)> {
        if self.ending.is_some() && self.openings_owed() {
            // The rules' own end-of-game openings first (they may check them), then any
            // commitment left: one seat at a time, `umpire ack` opens them all.
            let rules: Vec<_> = self.state.expect().awaits.into_iter().take(1).map(|a| (a.seat, a.what)).collect();
            if !rules.is_empty() {
                return rules;
            }
            return self
                .owed_openings()
                .into_iter()
                .take(1)
                .map(|(seat, ids)| {
                    (seat, format!("the game is over but your commitments {} are unopened: open them (`umpire ack`)", ids.join(", ")))
                })
                .collect();
        }
        if self.ending.is_some() {
            return Vec::new();
        }
        if !self.protocol.all_joined {
            return self.protocol.unjoined().into_iter().map(|s| (s, "join the game (`umpire join`)".to_string())).collect();
        }
        if let Some(p) = &self.pending {
            let exp_after = "its next entry reveals the dice of entry";
            return vec![(
                p.dice_from.clone(),
                format!("{exp_after} {} ({}); send orders if it has a decision to make after the roll, else `umpire ack`", p.seq, p.what),
            )];
        }
        // Rulesets often start `what` with the seat's name; the caller prints the seat already.
        self.state
            .expect()
            .awaits
            .into_iter()
            .map(|a| {
                let what = a.what.strip_prefix(&format!("{}: ", a.seat)).map(str::to_string).unwrap_or(a.what);
                (a.seat, what)
            })
            .collect()
    }
}

/// Orders that order nothing: null, or a map whose every field is null or an empty
/// list (`actions: []`), in any ruleset's format.
pub fn empty_orders(orders: &yaml_serde::Value) -> bool {
    use yaml_serde::Value;
    match orders {
        Value::Null => true,
        Value::Sequence(s) => s.is_empty(),
        Value::Mapping(m) => m.values().all(|v| matches!(v, Value::Null) || matches!(v, Value::Sequence(s) if s.is_empty())),
        _ => false,
    }
}

/// Each side's P (DESIGN §2.5) as the log stood before an entry; no side has one before
/// play or once the game has ended.
struct LeadJudge {
    p: BTreeMap<String, Option<crate::log::protocol::Revealed>>,
}

impl LeadJudge {
    /// The leading roll `state` declares, with its P: `(seat, what, P)`.
    fn declared(&self, state: &AnyState, genesis: &Genesis) -> Option<(String, String, Option<crate::log::protocol::Revealed>)> {
        let (seat, what) = state.leading_roll()?;
        let p = self.p.get(genesis.side_of(&seat)?)?.clone();
        Some((seat, what, p))
    }
}

fn unreachable_kind(seq: u64, what: &str) -> Result<(), GameError> {
    Err(GameError::Unsupported { seq, why: format!("{what} is not allowed") })
}

/// One line describing an outcome.
pub fn describe_outcome(o: &Outcome) -> String {
    match o {
        Outcome::Win { side, reason } => format!("{side} wins: {reason}"),
        Outcome::Draw { reason } => format!("draw: {reason}"),
    }
}

fn describe_awaits(exp: &super::Expectation) -> String {
    if exp.awaits.is_empty() {
        return "nobody (the game is over)".into();
    }
    exp.awaits.iter().map(|a| format!("{}: {}", a.seat, a.what)).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use crate::engine::bot;

    /// The seats-only answers the replay checks after every entry (`Game::waiting_seats`,
    /// `Ruleset::awaited_seats`) are the seats of the worded ones, in every bundled scenario's
    /// bot game, at every entry.
    #[test]
    fn seats_alone_match_the_worded_answers() {
        for s in crate::scenarios::ALL {
            let seats = crate::scenarios::seats(s);
            let (mut game, mut players) = bot::start_game(s, &seats, 3, 4096, "2000-01-01T00:00:00Z").expect("starts");
            let mut clock = || "2000-01-01T00:00:00Z".to_string();
            let mut checked = 0;
            let mut keep = |_: &crate::log::Entry, g: &super::Game| {
                let worded: Vec<String> = g.waiting_for().into_iter().map(|(s, _)| s).collect();
                assert_eq!(g.waiting_seats(), worded, "{} at entry {}", s.name, g.next_seq());
                let expected: Vec<String> = g.state.expect().awaits.into_iter().map(|a| a.seat).collect();
                assert_eq!(g.state.awaited_seats(), expected, "{} at entry {}", s.name, g.next_seq());
                checked += 1;
                Ok(())
            };
            match bot::play_out(&mut game, &mut players, 3, 120, &mut clock, &mut keep) {
                Ok(()) | Err(bot::BotError::TooLong(_)) => {}
                Err(e) => panic!("{}: {e}", s.name),
            }
            assert!(checked > 20, "{}: only {checked} entries", s.name);
        }
    }
}
