//! The rules engine: the [`Ruleset`] trait every game implements, the registry of games,
//! and [`game::Game`], which replays a log's entries into a state.

pub mod amend;
pub mod author;
pub mod auto;
pub mod bot;
pub mod cases;
pub mod game;
pub mod hidden;
pub mod odds;
pub mod pure_step;
pub mod registry;
#[cfg(test)]
pub(crate) mod toy;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::dice::Dice;

pub use hidden::{Committed, Concealed, HiddenActs, IdOrder, Knowledge, Opened};
pub use registry::RulesetId;

/// A rule broken by an order, in player terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Violation {
    /// The rule section, as the rulebook numbers it: `"GE 12.2"`.
    pub rule: String,
    /// The unit concerned, if any (`"DE 7 XXX"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The hex concerned, if any (`"3130"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// What is wrong, in a player's words.
    pub message: String,
}

impl Violation {
    /// A violation of `rule` with a message.
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Violation {
        Violation { rule: rule.into(), unit: None, hex: None, message: message.into() }
    }
    /// Name the unit.
    pub fn unit(mut self, unit: impl Into<String>) -> Violation {
        self.unit = Some(unit.into());
        self
    }
    /// Name the hex.
    pub fn hex(mut self, hex: impl Into<String>) -> Violation {
        self.hex = Some(hex.into());
        self
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:", self.rule)?;
        if let Some(u) = &self.unit {
            write!(f, " {u}")?;
        }
        if let Some(h) = &self.hex {
            write!(f, " at {h}")?;
        }
        if self.unit.is_some() || self.hex.is_some() {
            write!(f, ":")?;
        }
        write!(f, " {}", self.message)
    }
}

/// One die roll as it appears in a resolution record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Roll {
    /// Why it was rolled: `"combat at 3130: CRT roll"`.
    pub purpose: String,
    /// The die: `"d6"`.
    pub die: String,
    /// The face shown (in the game's numbering, e.g. 1..=6).
    pub result: u32,
}

/// Something that happened, for the players to read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Event {
    /// Plain words: `"DE 7 XXX moves 3131 → 3230 → 3330 (3 MP)"`.
    pub text: String,
    /// The rule that made it happen, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The roll, when this event is a die roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<Roll>,
}

impl Event {
    /// A plain event.
    pub fn say(text: impl Into<String>) -> Event {
        Event { text: text.into(), rule: None, roll: None }
    }
    /// An event caused by a rule.
    pub fn rule(rule: impl Into<String>, text: impl Into<String>) -> Event {
        Event { text: text.into(), rule: Some(rule.into()), roll: None }
    }
    /// A die roll.
    pub fn roll(purpose: impl Into<String>, die: impl Into<String>, result: u32) -> Event {
        let purpose = purpose.into();
        let die = die.into();
        Event { text: format!("{purpose}: {die} rolled {result}"), rule: None, roll: Some(Roll { purpose, die, result }) }
    }
}

/// What the game waits for from one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Await {
    pub seat: String,
    /// What the seat must decide, in words: `"choose the retreat hex for FR 5 XXX from 3130: 3131 or 3230"`.
    pub what: String,
}

/// Where the game stands and who must send what next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Expectation {
    /// `"Turn 8 (4–6 Sep), Allied player turn, phase E: Operational Movement"`.
    pub when: String,
    /// Seats that may send orders now, and what for. Empty when the game is over.
    pub awaits: Vec<Await>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Outcome {
    /// One side won.
    Win { side: String, reason: String },
    /// Nobody won.
    Draw { reason: String },
}

/// A seat as a ruleset sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    pub seat: String,
    pub side: String,
}

/// Seat each side of a battle played one seat per side: the seat of every side in `sides`
/// (side id → seat), or every problem at once (a seat on a side the battle lacks, a side
/// with two seats or none).
pub fn one_seat_per_side<'a>(
    seats: &[SeatInfo],
    sides: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<std::collections::BTreeMap<String, String>, ScenarioError> {
    let mut by_side = std::collections::BTreeMap::new();
    let mut problems = Vec::new();
    for s in seats {
        if !sides.clone().into_iter().any(|id| id == s.side) {
            problems.push(format!("seat {} plays side {}, which this battle does not have", s.seat, s.side));
        } else if by_side.insert(s.side.clone(), s.seat.clone()).is_some() {
            problems.push(format!("side {} has more than one seat; this ruleset plays one seat per side", s.side));
        }
    }
    for id in sides {
        if !by_side.contains_key(id) {
            problems.push(format!("no seat plays side {id}"));
        }
    }
    if problems.is_empty() { Ok(by_side) } else { Err(ScenarioError { problems }) }
}

/// Orders that passed validation. Only a ruleset's `validate` makes one.
#[derive(Clone, Debug, PartialEq)]
pub struct Legal<O>(O);

impl<O> Legal<O> {
    /// For rulesets: wrap orders that `validate` accepted.
    pub fn accepted(orders: O) -> Legal<O> {
        Legal(orders)
    }
    /// The orders.
    pub fn get(&self) -> &O {
        &self.0
    }
    /// The orders, by value.
    pub fn into_inner(self) -> O {
        self.0
    }
}

/// Orders refused, handed back untouched with every reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected<O> {
    pub orders: O,
    pub violations: Vec<Violation>,
}

/// A scenario that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("scenario: {}", .problems.join("; "))]
pub struct ScenarioError {
    pub problems: Vec<String>,
}

/// A game's rules. Implementations do no I/O, read no clock, use no randomness but the
/// [`Dice`] they are handed, and no floating point.
///
/// Turn flow (DESIGN §2.5): an entry's orders are validated against the current state and
/// applied; if they end with a random action, the state holds it pending
/// ([`Ruleset::pending_roll`]) until the entry named by `dice_from` arrives, when the engine
/// calls [`Ruleset::resolve`] with that entry's dice, before validating the new entry.
pub trait Ruleset {
    /// The whole game state. `PartialEq` and serialisation make replays checkable bit for bit.
    type State: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// Orders as parsed from `body.orders` (not yet legal).
    type Orders: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;

    /// Registry id: `"glorys-end"`.
    const ID: &'static str;
    /// Version of the rules and data, recorded in genesis.
    const VERSION: &'static str;

    /// The starting state from a scenario text and options.
    fn setup(scenario_text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<Self::State, ScenarioError>;
    /// Who may or must send orders now, and for what.
    fn expect(state: &Self::State) -> Expectation;
    /// The seats [`Ruleset::expect`] awaits, in its order, for callers that need nothing
    /// more (the one-seat check after every entry of a replay, issue 20). A ruleset whose
    /// expectation is costly to word may answer without wording it; the answer must be
    /// `expect`'s seats.
    fn awaited_seats(state: &Self::State) -> Vec<String> {
        Self::expect(state).awaits.into_iter().map(|a| a.seat).collect()
    }
    /// Check orders from `seat`; every violation at once.
    fn validate(state: &Self::State, seat: &str, orders: Self::Orders) -> Result<Legal<Self::Orders>, Rejected<Self::Orders>>;
    /// Apply legal orders: everything certain; a random action is left pending.
    fn apply(state: &mut Self::State, seat: &str, orders: Legal<Self::Orders>) -> Vec<Event>;
    /// [`Ruleset::validate`] then, if legal, [`Ruleset::apply`], as one call: the state, the
    /// events and the violations must be exactly theirs. A ruleset may do both in one pass
    /// where it can (replaying a log runs every entry's orders through this).
    fn validate_and_apply(state: &mut Self::State, seat: &str, orders: Self::Orders) -> Result<Vec<Event>, Rejected<Self::Orders>> {
        let legal = Self::validate(state, seat, orders)?;
        Ok(Self::apply(state, seat, legal))
    }
    /// [`Ruleset::validate_and_apply`] for a replay that throws the game away at the first
    /// refusal: on `Err` the state may be left half-changed (the caller replays again with
    /// rollback to learn the real verdict), so a ruleset may work on `state` itself instead
    /// of a copy. On `Ok`, the state and events must be exactly `validate_and_apply`'s.
    fn validate_and_apply_in_place(
        state: &mut Self::State,
        seat: &str,
        orders: Self::Orders,
    ) -> Result<Vec<Event>, Rejected<Self::Orders>> {
        Self::validate_and_apply(state, seat, orders)
    }
    /// The random action awaiting dice, described, if any.
    fn pending_roll(state: &Self::State) -> Option<String>;
    /// Resolve the pending random action with `dice`.
    fn resolve(state: &mut Self::State, dice: &mut Dice) -> Vec<Event>;
    /// The result, once the game is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// The rules reached a result but hold it until hidden values are opened (DESIGN §2.6:
    /// a game with an opening owed is not over): `verify` then reports the game incomplete
    /// and names who owes what. Default: false.
    fn result_held(state: &Self::State) -> bool {
        let _ = state;
        false
    }

    /// DESIGN §2.5 leading rolls: `Some((seat, what))` when the next entry of `seat` opens
    /// with a roll made before it chooses anything (a command roll, a chit drawn from a cup).
    /// Decided from the state alone; declared only while `seat` is the one seat expected.
    /// The engine then resolves it with [`Ruleset::resolve_lead`] before reading the
    /// entry's orders (or, when the protocol conditions fail, as an ordinary roll fixed by
    /// the other side's next entry). Default: none.
    fn leading_roll(state: &Self::State) -> Option<(String, String)> {
        let _ = state;
        None
    }

    /// Resolve the leading roll declared by [`Ruleset::leading_roll`] with `dice`; after it,
    /// `leading_roll` must no longer declare it.
    fn resolve_lead(state: &mut Self::State, dice: &mut Dice) -> Vec<Event> {
        let _ = (state, dice);
        vec![]
    }

    /// Orders the rules leave `seat` no choice in, when that is all that is expected of it
    /// (turning up the face-down pieces that are due, opening hidden counters at the end):
    /// the author's tool and the mail robot write them without asking the player (issue 17,
    /// docs/robot.md). `None` (the default) when the seat has a decision to make.
    fn automatic_orders(state: &Self::State, seat: &str) -> Option<Self::Orders> {
        let _ = (state, seat);
        None
    }

    /// Orders the seat's own standing instructions decide for the decision due now
    /// (issue 17). The seat keeps them to itself, in its mail robot's settings, and never
    /// sends them: a ruleset whose choices are hidden (chits placed face down) would tell
    /// them to the opponent in the log. `Ok(None)` when they do not answer what is due (or
    /// nothing is due of `seat`); `Err` when `instructions` are not this ruleset's. Default:
    /// the ruleset takes none (any non-null instructions are an error).
    fn standing_orders(state: &Self::State, seat: &str, instructions: &yaml_serde::Value) -> Result<Option<Self::Orders>, String> {
        let _ = (state, seat);
        if instructions.is_null() { Ok(None) } else { Err("this ruleset takes no standing instructions kept by the robot".into()) }
    }

    /// Standing instructions a bot player keeps for `seat` ([`Ruleset::standing_orders`]),
    /// drawn with `chooser`; `None` (the default) when it keeps none.
    fn bot_instructions(seat: &str, chooser: &mut Dice) -> Option<yaml_serde::Value> {
        let _ = (seat, chooser);
        None
    }

    /// Orders that only file something the rules let a seat file at any time (Glory's End
    /// standing instructions): the engine accepts them in an entry that reveals dice or
    /// settles draws its author owes, even when the roll leaves that seat nothing else to
    /// do, so `orders check` and `orders sign` agree. Default: none.
    fn files_out_of_turn(orders: &Self::Orders) -> bool {
        let _ = orders;
        false
    }

    /// The game turn the state is in (1, 2, …), for counts such as entries per game turn
    /// (`umpire selfplay`). Default: 0 (the ruleset has no turns to count).
    fn game_turn(state: &Self::State) -> u32 {
        let _ = state;
        0
    }

    /// The first seat of `side` the game will expect an `orders`/`ack` entry from, judged
    /// after an entry of the other side (its `dice_from`, DESIGN §2.5), when the seat expected
    /// right after that entry is not of `side` (the engine asks that first). `None` (the
    /// default) when the rules cannot say: then any seat of that side may be named. Only
    /// games with several seats per side need it.
    fn next_seat_of(state: &Self::State, side: &str) -> Option<String> {
        let _ = (state, side);
        None
    }
    /// What `seat` may see of the state (hidden things removed).
    fn view(state: &Self::State, seat: &str) -> Self::State;
    /// Random legal orders for `seat` (the bot; also property tests). `chooser` is the bot's
    /// own randomness, never the game's dice. Returns `None` if nothing is expected of `seat`.
    fn random_orders(state: &Self::State, seat: &str, chooser: &mut Dice) -> Option<Self::Orders>;
    /// A commented YAML skeleton of what `seat` is expected to send now.
    fn template(state: &Self::State, seat: &str) -> String;
    /// What is certain about legal orders before any roll (moves, odds of each attack).
    fn preview(state: &Self::State, seat: &str, orders: &Self::Orders) -> Vec<String>;
    /// The state as readable text, one fact per line (used by `show` and replay diffs).
    fn describe(state: &Self::State) -> String;
    /// What to draw of the state (DESIGN §3, `src/render/`): the ruleset describes its board
    /// and pieces; the renderer turns any picture into SVG. Pass a `view` for a seat's picture.
    fn picture(state: &Self::State) -> crate::render::Picture;
    /// Internal consistency (stacking, unit counts…); `Err` names the broken invariant.
    fn check_invariants(state: &Self::State) -> Result<(), String>;
    /// The JSON Schema of `Orders`.
    fn orders_schema() -> schemars::Schema {
        schemars::schema_for!(Self::Orders)
    }

    // ---- Hidden information (DESIGN §2.6; docs/engine.md "Hidden information") ----
    //
    // A ruleset with hidden things keeps them as unknowns in its state and works with them
    // unknown: the engine replays a log in public, seat or omniscient mode (see
    // [`Knowledge`]), and the public facts of a state must be the same in every mode.
    // The defaults describe a game with nothing hidden.

    /// Called for every `orders` entry (and every other entry that commits or opens
    /// something) BEFORE `validate`, after any dice it reveals were resolved, with its
    /// commitments and openings. Record them in the state (a committed value arrives in
    /// `Committed::value` when the replay knows it; an opened one always); refuse (`Err`) an
    /// opening the rules don't allow or a value that contradicts what is public. A refusal
    /// refuses the whole entry.
    fn hidden(state: &mut Self::State, seat: &str, acts: &mut HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        let _ = (state, seat, acts);
        Ok(vec![])
    }

    /// Turn the orders a seat writes (with its own hidden values in plain text) into what
    /// the log may carry: public orders, values to commit (ids chosen by the ruleset, never
    /// reused by the seat, e.g. `piece-7@41`) and ids of its commitments to open. Called by
    /// `orders sign`/`check --key` and the bot on the author's view (seat mode), on the state
    /// the entry will be applied to (after the dice it reveals). Ids never follow the order
    /// the player wrote (DESIGN §2.6): values whose ids the public cannot tell apart are
    /// sorted with `order` ([`IdOrder::sort`]) before they are numbered.
    fn conceal(state: &Self::State, seat: &str, orders: Self::Orders, order: &IdOrder) -> Result<Concealed<Self::Orders>, Vec<Violation>> {
        let _ = (state, seat, order);
        Ok(Concealed::plain(orders))
    }

    /// The longest value (in bytes) commitment `id` can hold, from public facts only (the id,
    /// the public part of `state`): sealed notes are padded to a length computed from it
    /// (DESIGN §2.6, [`hidden::SealedNote::padded_len`]), so that every note of one kind has
    /// one length. A value longer than this makes sealing fail; rulesets test their bound.
    fn committed_value_bound(state: &Self::State, id: &str) -> usize {
        let _ = (state, id);
        256
    }

    /// The private draws made since the last call (the engine calls it once after each
    /// entry, so: the draws of the entry just applied, whether made by its orders, its
    /// hidden acts or the dice it revealed), as draw ids; the ruleset forgets them. Each is
    /// also a commitment id of that entry, committed by the author's tool (value: hex of
    /// `r`, DESIGN §2.6); the engine refuses the entry otherwise.
    fn private_draws(state: &mut Self::State) -> Vec<String> {
        let _ = state;
        vec![]
    }

    /// Settle private draw `draw_id` of `seat` when the next entry of the draw entry's
    /// `dice_from` seat arrives (before any pending public roll is resolved and before that
    /// entry's own orders). `dice` is `Some` when the replay knows `r` (the drawer, its
    /// partners, omniscient verify); `None` otherwise: record the draw as unknown, and learn
    /// it when `r` is opened (`Opened::draw`).
    fn settle_draw(state: &mut Self::State, seat: &str, draw_id: &str, dice: Option<&mut Dice>) -> Vec<Event> {
        let _ = (state, seat, draw_id, dice);
        vec![]
    }

    /// Whether seats of one side read each other's sealed values (TFWW with 3-4 players).
    /// When true, the author's tool also writes `body.sealed_for` to every partner seat.
    fn partners_share(state: &Self::State) -> bool {
        let _ = state;
        false
    }

    /// What the game's violation policy makes of a cheat by `seat` that `verify`'s
    /// omniscient pass found (e.g. a forfeit), as one line for the report; `None` (the
    /// default): the cheat is reported and nothing more is said.
    fn cheat_verdict(state: &Self::State, seat: &str) -> Option<String> {
        let _ = (state, seat);
        None
    }
}
