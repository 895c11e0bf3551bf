//! A bot that plays random legal orders for any seat: used by `umpire demo`, by the soak
//! tests, and by anyone who wants an opponent. Its choices come from its own seeded dice,
//! never from the game's.

use std::collections::BTreeMap;

use super::author::{AuthorError, complete_body};
use super::auto::automatic_reply;
use super::game::{Game, GameError};
use super::hidden::Knowledge;
use crate::crypto::Hash;
use crate::crypto::chain::{chain_seed, chain_value};
use crate::crypto::keys::SecretKey;
use crate::crypto::tagged_hash;
use crate::dice::Dice;
use crate::log::entry::{Body, Draft, Entry, Kind};

/// Why a bot game stopped early.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// An entry the bot made was refused: a bug in a ruleset's generator or validator.
    #[error("the bot's own entry was refused: {0}")]
    Refused(#[from] GameError),
    /// Nobody can move, yet the game is not over.
    #[error("stuck at entry {0}: the game waits for nobody")]
    Stuck(u64),
    /// The seat has no key here.
    #[error("no key for seat {0}")]
    NoKey(String),
    /// The seat's chain is used up.
    #[error("seat {0} has used its whole hash chain")]
    ChainExhausted(String),
    /// The entry does not read back as written (e.g. a note the format cannot carry).
    #[error("cannot make the entry: {0}")]
    Unsignable(String),
    /// The game did not end within the entry budget.
    #[error("no result after {0} entries")]
    TooLong(u64),
    /// The bot's orders could not be made on its own view (a ruleset's generator or
    /// `conceal` disagrees with its validator).
    #[error("the bot cannot write its entry: {0}")]
    Author(#[from] AuthorError),
}

/// Players for bots: their keys, and each seat's whole hash chain computed once (a reveal
/// costs up to `chain_length` hashes otherwise, for every entry).
pub struct Players {
    keys: BTreeMap<String, SecretKey>,
    /// Per seat: `c_0 ..= c_L` for the game they were computed for.
    chains: BTreeMap<String, (Hash, Vec<Hash>)>,
    /// Per seat: its own replay in seat mode, kept up to date entry by entry. Made only once
    /// the game has something hidden: until then every seat's view is the public game.
    views: BTreeMap<String, Game>,
    /// Entries these players wrote that needed no decision (acks, orders with no choice,
    /// a leading roll that left nothing to order, orders from the seat's standing
    /// instructions): what a mail robot writes (docs/robot.md).
    pub automatic: u64,
    /// Per seat: the standing instructions its robot keeps (`Ruleset::standing_orders`).
    pub instructions: BTreeMap<String, yaml_serde::Value>,
}

impl Players {
    /// Players holding these keys, by seat.
    pub fn new(keys: BTreeMap<String, SecretKey>) -> Players {
        Players { keys, chains: BTreeMap::new(), views: BTreeMap::new(), automatic: 0, instructions: BTreeMap::new() }
    }
    /// `seat`'s own view of `game` (seat mode), brought up to date incrementally; `None`
    /// while nothing in the game is hidden (the public game is then every seat's view).
    pub fn view(&mut self, game: &Game, seat: &str) -> Result<Option<&Game>, BotError> {
        if game.commitments.is_empty() && game.draws.is_empty() {
            return Ok(None);
        }
        let usable = self.views.get(seat).is_some_and(|v| {
            let n = v.entries.len();
            v.id() == game.id() && n <= game.entries.len() && v.entries.last().map(|e| e.hash) == Some(game.entries[n - 1].hash)
        });
        if !usable {
            let key = self.key(seat)?.clone();
            let v = Game::replay_with(&game.entries, Knowledge::seat(seat, key)).map_err(|(_, e)| BotError::Refused(e))?;
            self.views.insert(seat.to_string(), v);
        }
        let v = self.views.get_mut(seat).expect("just made");
        for e in &game.entries[v.entries.len()..] {
            v.apply(e)?;
        }
        Ok(Some(v))
    }
    /// The key of `seat`.
    pub fn key(&self, seat: &str) -> Result<&SecretKey, BotError> {
        self.keys.get(seat).ok_or_else(|| BotError::NoKey(seat.to_string()))
    }
    /// The value `seat` reveals in its next entry (`None` before its first entry).
    pub fn next_reveal(&mut self, game: &Game, seat: &str) -> Result<Option<Hash>, BotError> {
        let Some(ch) = game.protocol.chains.get(seat) else { return Ok(None) };
        let n = ch.revealed + 1;
        let g = game.genesis();
        if n > g.chain_length {
            return Err(BotError::ChainExhausted(seat.to_string()));
        }
        let fresh = self.chains.get(seat).is_none_or(|(id, _)| *id != g.game_id);
        if fresh {
            let key = self.key(seat)?;
            let s = chain_seed(&key.seed(), g.nonce.as_bytes(), seat);
            // c_L = s, c_(i-1) = H(c_i): walk down once and store in index order.
            let mut values = vec![s; g.chain_length as usize + 1];
            for i in (0..g.chain_length as usize).rev() {
                values[i] = crate::crypto::sha256(values[i + 1].as_bytes());
            }
            debug_assert_eq!(Some(values[0]), chain_value(&s, g.chain_length, 0));
            self.chains.insert(seat.to_string(), (g.game_id, values));
        }
        Ok(self.chains.get(seat).map(|(_, v)| v[n as usize]))
    }
}

/// The value `seat` reveals in its next entry (computed from the key; see [`Players`] to cache).
pub fn next_reveal(game: &Game, seat: &str, key: &SecretKey) -> Result<Option<Hash>, BotError> {
    let Some(ch) = game.protocol.chains.get(seat) else { return Ok(None) };
    let g = game.genesis();
    let s = chain_seed(&key.seed(), g.nonce.as_bytes(), seat);
    chain_value(&s, g.chain_length, ch.revealed + 1).map(Some).ok_or_else(|| BotError::ChainExhausted(seat.to_string()))
}

/// The body the bot sends for `seat` now, or `None` if nothing is expected of it. It plays
/// on its own view (seat mode) and completes the body as an author's tool does
/// ([`complete_body`]: concealed orders, commitments, openings, sealed notes).
pub fn next_body(game: &Game, seat: &str, players: &mut Players, chooser: &mut Dice) -> Result<Option<Body>, BotError> {
    if game.outcome().is_some() {
        return Ok(None);
    }
    let owes = game.pending.as_ref().map(|p| p.dice_from == seat);
    if owes == Some(false) {
        return Ok(None);
    }
    let reveal = players.next_reveal(game, seat)?;
    let key = players.key(seat)?.clone();
    let instructions = players.instructions.get(seat).cloned();
    let view = players.view(game, seat)?.unwrap_or(game);
    let mut automatic = false;
    // What needs no choice is decided in one place, shared with the mail robot.
    let body = match automatic_reply(view, seat, reveal.as_ref(), instructions.as_ref()) {
        Some(auto) => {
            automatic = true;
            auto.body()
        }
        None => {
            let (state, _) = view.state_before(seat, reveal.as_ref());
            if !state.expect().awaits.iter().any(|w| w.seat == seat) {
                return Ok(None);
            }
            match state.random_orders(seat, chooser) {
                Some(o) => {
                    let mut b = Body::new(Kind::Orders);
                    b.orders = Some(o);
                    b
                }
                // A generator that finds no legal orders still owes the reveal: the engine
                // judges the bare ack (a soak test then reports the generator's gap).
                None if owes == Some(true) => Body::new(Kind::Ack),
                None => return Ok(None),
            }
        }
    };
    let body = complete_body(view, seat, &key, reveal.as_ref(), body)?;
    players.automatic += u64::from(automatic);
    Ok(Some(body))
}

/// Sign `body` as the next entry of `game` for `seat` (not applied). `dice_from` is the
/// engine's guess before the entry; [`apply_signed`] corrects it when the entry changes who
/// moves next.
pub fn sign_body(game: &Game, seat: &str, players: &mut Players, body: Body, time: String) -> Result<Entry, BotError> {
    let reveal = if body.kind.reveals() { players.next_reveal(game, seat)? } else { None };
    let draft = game.draft_for(seat, body, reveal, None, time);
    draft.try_sign(players.key(seat)?).map_err(|e| BotError::Unsignable(e.to_string()))
}

/// Apply a bot's entry to `game`, re-signing it once with the `dice_from` the engine wants
/// when the guess was wrong (a partner moves next, DESIGN §2.5). Returns the entry applied.
pub fn apply_signed(game: &mut Game, players: &mut Players, entry: Entry) -> Result<Entry, BotError> {
    match game.apply(&entry) {
        Ok(_) => Ok(entry),
        Err(GameError::DiceFrom { want, .. }) => {
            let d = &entry.draft;
            let again = game.draft_for(&d.seat, d.body.clone(), d.reveal, Some(&want), d.time.clone());
            let again = again.try_sign(players.key(&d.seat)?).map_err(|e| BotError::Unsignable(e.to_string()))?;
            game.apply(&again)?;
            Ok(again)
        }
        Err(e) => Err(e.into()),
    }
}

/// The bot's own dice for one decision: from its seed, the seat and the seq.
pub fn chooser(seed: u64, seat: &str, seq: u64) -> Dice {
    Dice::from_seed(&tagged_hash("umpire/bot/1", &[&seed.to_be_bytes(), seat.as_bytes(), &seq.to_be_bytes()]))
}

/// Play the game to its end with a bot on every seat. `time` stamps entries (the library
/// reads no clock); `on_entry` sees each entry after it is applied (to store it).
pub fn play_out(
    game: &mut Game,
    players: &mut Players,
    seed: u64,
    max_entries: u64,
    time: &mut dyn FnMut() -> String,
    on_entry: &mut dyn FnMut(&Entry, &Game) -> Result<(), BotError>,
) -> Result<(), BotError> {
    while game.outcome().is_none() {
        if game.next_seq() > max_entries {
            return Err(BotError::TooLong(max_entries));
        }
        let waiting: Vec<String> = game.waiting_for().into_iter().map(|(s, _)| s).collect();
        let mut moved = false;
        for seat in waiting {
            let mut ch = chooser(seed, &seat, game.next_seq());
            let Some(body) = next_body(game, &seat, players, &mut ch)? else { continue };
            let entry = sign_body(game, &seat, players, body, time())?;
            let entry = apply_signed(game, players, entry)?;
            on_entry(&entry, game)?;
            moved = true;
            break;
        }
        if !moved {
            return Err(BotError::Stuck(game.next_seq()));
        }
    }
    Ok(())
}

/// Start a game of a bundled scenario between bots: genesis by the first seat, joins by the
/// others, keys and nonce derived from `seed` (so the same seed gives the same game).
/// `time` stamps the entries.
pub fn start_game(
    scenario: &crate::scenarios::Bundled,
    seats: &[(&str, &str)],
    seed: u64,
    chain_length: u64,
    time: &str,
) -> Result<(Game, Players), BotError> {
    start_game_with(scenario, seats, seed, chain_length, time, None)
}

/// [`start_game`] with the genesis `options` (the optional rules agreed before play, as
/// `umpire new --option` writes them).
pub fn start_game_with(
    scenario: &crate::scenarios::Bundled,
    seats: &[(&str, &str)],
    seed: u64,
    chain_length: u64,
    time: &str,
    options: Option<yaml_serde::Value>,
) -> Result<(Game, Players), BotError> {
    use crate::crypto::sha256;
    use crate::log::entry::{RulesetRef, ScenarioRef, SeatDecl};
    let ruleset =
        super::RulesetId::from_id(scenario.ruleset).ok_or_else(|| BotError::Unsignable(format!("unknown ruleset {}", scenario.ruleset)))?;
    let nonce = tagged_hash("umpire/bot-nonce/1", &[&seed.to_be_bytes()]);
    let mut keys = BTreeMap::new();
    let mut decls = Vec::new();
    for (seat, side) in seats {
        let k = SecretKey::from_seed(seat, tagged_hash("umpire/bot-key/1", &[seat.as_bytes(), &seed.to_be_bytes()]).0);
        decls.push(SeatDecl { seat: seat.to_string(), side: side.to_string(), key: k.public().to_text() });
        keys.insert(seat.to_string(), k);
    }
    let anchor = |k: &SecretKey, seat: &str| {
        let s = chain_seed(&k.seed(), nonce.as_bytes(), seat);
        chain_value(&s, chain_length, 0).expect("index 0 is in range")
    };
    let first = seats.first().map(|s| s.0).unwrap_or_default();
    let mut body = Body::new(Kind::Genesis);
    body.ruleset = Some(RulesetRef { id: ruleset.id().into(), version: ruleset.version().into() });
    body.engine = Some(format!("umpire {}", env!("CARGO_PKG_VERSION")));
    body.scenario = Some(ScenarioRef { name: scenario.name.into(), sha256: sha256(scenario.text.as_bytes()), text: scenario.text.into() });
    body.seats = Some(decls);
    body.nonce = Some(nonce);
    body.chain_length = Some(chain_length);
    body.chain = Some(anchor(&keys[first], first));
    body.options = options;
    let genesis = Draft { game: None, seq: 0, prev: None, seat: first.into(), reveal: None, dice_from: None, time: time.into(), body }
        .try_sign(&keys[first])
        .map_err(|e| BotError::Unsignable(e.to_string()))?;
    let mut game = Game::from_genesis(&genesis)?;
    let mut players = Players::new(keys);
    for (seat, _) in seats {
        let mut ch = chooser(seed, seat, u64::MAX);
        if let Some(i) = ruleset.bot_instructions(seat, &mut ch) {
            players.instructions.insert(seat.to_string(), i);
        }
    }
    for (seat, _) in seats.iter().skip(1) {
        let mut join = Body::new(Kind::Join);
        join.chain = Some(anchor(players.key(seat)?, seat));
        let e = sign_body(&game, seat, &mut players, join, time.into())?;
        apply_signed(&mut game, &mut players, e)?;
    }
    Ok((game, players))
}
