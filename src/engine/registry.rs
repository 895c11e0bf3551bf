//! The registry of rulesets: enum dispatch from a ruleset id to its implementation, and
//! [`AnyState`], a game state of any ruleset.

use serde::Serialize;

use super::hidden::SealedNote;
use super::{Concealed, Event, Expectation, HiddenActs, IdOrder, Outcome, Ruleset, ScenarioError, SeatInfo, Violation};
use crate::dice::Dice;

/// The one table of rulesets: each line is a variant name, the ruleset type, its title and
/// the function giving the JSON Schema of its scenario files. Adding a ruleset is one line
/// here (and its `pub mod` in `crate::rules`); everything below is generated from it.
macro_rules! rulesets {
    ($callback:ident ! ($($args:tt)*)) => {
        $callback! { ($($args)*)
            GlorysEnd: crate::rules::glorys_end::GlorysEnd, "1914: Glory's End", crate::rules::glorys_end::scenario::schema;
            FirstWorldWar: crate::rules::first_world_war::FirstWorldWar, "The First World War", crate::rules::first_world_war::scenario::schema;
            WhenEaglesFight: crate::rules::when_eagles_fight::WhenEaglesFight, "When Eagles Fight", crate::rules::when_eagles_fight::scenario::schema;
            JoursDeGloire: crate::rules::jours_de_gloire::JoursDeGloire, "Jours de Gloire", crate::rules::jours_de_gloire::scenario::schema;
            SteelWheels: crate::rules::steel_wheels::SteelWheels, "WWII Steel Wheels", crate::rules::steel_wheels::scenario::schema;
            RoadsToLeningrad: crate::rules::roads_to_leningrad::RoadsToLeningrad, "Roads to Leningrad", crate::rules::roads_to_leningrad::scenario::schema;
        }
    };
}

/// The types generated from the table: [`RulesetId`], [`ALL`] and [`AnyState`].
macro_rules! declare {
    (() $($variant:ident: $ty:ty, $title:literal, $schema:path;)*) => {
        /// Every ruleset umpire knows (one per line of the `rulesets!` table).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum RulesetId {
            $(
                #[doc = $title]
                $variant,
            )*
            /// The engine's toy game with hidden information (unit tests only).
            #[cfg(test)]
            Toy,
        }

        /// All rulesets, for listings, in the table's order.
        pub const ALL: &[RulesetId] = &[$(RulesetId::$variant),*];

        /// A game state of any ruleset.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        // States differ in size by ruleset; one lives per game (plus previews), so boxing buys nothing.
        #[allow(clippy::large_enum_variant)]
        pub enum AnyState {
            $(
                #[doc = $title]
                $variant(<$ty as Ruleset>::State),
            )*
            /// The engine's toy game (unit tests only).
            #[cfg(test)]
            Toy(<super::toy::Toy as Ruleset>::State),
        }

        impl RulesetId {
            /// The title, for listings and messages.
            pub fn title(self) -> &'static str {
                match self {
                    $(RulesetId::$variant => $title,)*
                    #[cfg(test)]
                    RulesetId::Toy => "Toy: guess the hidden number",
                }
            }
            /// The JSON Schema of this ruleset's scenario files (the toy has none).
            pub fn scenario_schema(self) -> Option<schemars::Schema> {
                match self {
                    $(RulesetId::$variant => Some($schema()),)*
                    #[cfg(test)]
                    RulesetId::Toy => None,
                }
            }
        }

        impl AnyState {
            /// Which ruleset this state belongs to.
            pub fn ruleset(&self) -> RulesetId {
                match self {
                    $(AnyState::$variant(_) => RulesetId::$variant,)*
                    #[cfg(test)]
                    AnyState::Toy(_) => RulesetId::Toy,
                }
            }
        }
    };
}
rulesets!(declare!());

/// The ids of [`ALL`], comma-separated, for "unknown ruleset" messages.
pub fn known_ids() -> String {
    ALL.iter().map(|r| r.id()).collect::<Vec<_>>().join(", ")
}

/// Why orders were not accepted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OrdersError {
    /// The YAML does not have the shape of this ruleset's orders.
    #[error("cannot parse the orders: {0}")]
    Parse(String),
    /// The orders break rules.
    #[error("{} rule violation(s):\n{}", .0.len(), .0.iter().map(|v| format!("  {v}")).collect::<Vec<_>>().join("\n"))]
    Illegal(Vec<Violation>),
}

/// The body of one dispatch arm: binds the ruleset type to `R` and `wrap` to the function
/// putting an `R::State` back into an [`AnyState`] (items, so `$body` can name them).
macro_rules! arm {
    ($variant:ident, $ty:ty, $body:expr) => {{
        #[allow(dead_code)]
        type R = $ty;
        #[allow(dead_code)]
        fn wrap(s: <R as Ruleset>::State) -> AnyState {
            AnyState::$variant(s)
        }
        $body
    }};
}

/// Dispatch on the ruleset of a state: binds the inner state to `$s`, the ruleset type to `R`
/// and `wrap` to the function putting an `R::State` back into an [`AnyState`]. The arms come
/// from the `rulesets!` table.
macro_rules! dispatch {
    ($state:expr, $s:ident => $body:expr) => {
        rulesets!(dispatch_state!($state, $s => $body))
    };
}

/// The `match` of `dispatch!`, one arm per line of the table.
macro_rules! dispatch_state {
    (($state:expr, $s:ident => $body:expr) $($variant:ident: $ty:ty, $title:literal, $schema:path;)*) => {
        match $state {
            $(AnyState::$variant($s) => arm!($variant, $ty, $body),)*
            #[cfg(test)]
            AnyState::Toy($s) => arm!(Toy, super::toy::Toy, $body),
        }
    };
}

/// Dispatch on a [`RulesetId`]: binds the ruleset type to `R` and `wrap` as in `dispatch!`.
macro_rules! dispatch_id {
    ($id:expr => $body:expr) => {
        rulesets!(dispatch_on_id!($id => $body))
    };
}

/// The `match` of `dispatch_id!`, one arm per line of the table.
macro_rules! dispatch_on_id {
    (($id:expr => $body:expr) $($variant:ident: $ty:ty, $title:literal, $schema:path;)*) => {
        match $id {
            $(RulesetId::$variant => arm!($variant, $ty, $body),)*
            #[cfg(test)]
            RulesetId::Toy => arm!(Toy, super::toy::Toy, $body),
        }
    };
}

/// Parse orders; when they do not parse, every action that fails on its own is named, one
/// line each (`action 2: unknown variant ...`), so a player sees all the errors at once.
fn parse_orders<O: serde::de::DeserializeOwned>(orders: &yaml_serde::Value) -> Result<O, OrdersError> {
    // Read through a reference: no copy of the orders tree per entry.
    O::deserialize(orders).map_err(|whole| {
        let each = action_errors::<O>(orders);
        OrdersError::Parse(if each.is_empty() { whole.to_string() } else { each.join("\n") })
    })
}

/// The parse error of each action of `orders.actions` read alone (in orders otherwise the same).
fn action_errors<O: serde::de::DeserializeOwned>(orders: &yaml_serde::Value) -> Vec<String> {
    let yaml_serde::Value::Mapping(map) = orders else { return Vec::new() };
    let key = yaml_serde::Value::String("actions".into());
    let Some(yaml_serde::Value::Sequence(actions)) = map.get(&key) else { return Vec::new() };
    let mut out = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let mut one = map.clone();
        one.insert(key.clone(), yaml_serde::Value::Sequence(vec![a.clone()]));
        if let Err(e) = yaml_serde::from_value::<O>(yaml_serde::Value::Mapping(one)) {
            out.push(format!("action {}: {e}", i + 1));
        }
    }
    out
}

fn to_yaml<O: Serialize>(orders: &O) -> yaml_serde::Value {
    // Serialising our own order types cannot fail: they hold only strings, numbers, lists and maps.
    yaml_serde::to_value(orders).unwrap_or(yaml_serde::Value::Null)
}

impl RulesetId {
    /// From the id written in a genesis (`glorys-end`).
    pub fn from_id(id: &str) -> Option<RulesetId> {
        #[cfg(test)]
        if id == super::toy::ID {
            return Some(RulesetId::Toy);
        }
        ALL.iter().copied().find(|r| r.id() == id)
    }
    /// The id.
    pub fn id(self) -> &'static str {
        dispatch_id!(self => R::ID)
    }
    /// Standing instructions a bot keeps for `seat` ([`Ruleset::bot_instructions`]).
    pub fn bot_instructions(self, seat: &str, chooser: &mut Dice) -> Option<yaml_serde::Value> {
        dispatch_id!(self => R::bot_instructions(seat, chooser))
    }
    /// The version of the rules and data.
    pub fn version(self) -> &'static str {
        dispatch_id!(self => R::VERSION)
    }
    /// The starting state.
    pub fn setup(self, text: &str, options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<AnyState, ScenarioError> {
        dispatch_id!(self => R::setup(text, options, seats).map(wrap))
    }
    /// The JSON Schema of this ruleset's orders.
    pub fn orders_schema(self) -> schemars::Schema {
        dispatch_id!(self => R::orders_schema())
    }
}

#[cfg(test)]
thread_local! {
    /// Tests only: on this thread, [`AnyState::apply`] takes the straightforward path
    /// (`validate`, then `apply`) instead of a ruleset's one-pass
    /// [`Ruleset::validate_and_apply`], to compare the two (`cli::verify`'s tests).
    pub(crate) static REFERENCE_PATH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl AnyState {
    /// Who must send what next.
    pub fn expect(&self) -> Expectation {
        dispatch!(self, s => R::expect(s))
    }
    /// The seats [`AnyState::expect`] awaits, without its wording.
    pub fn awaited_seats(&self) -> Vec<String> {
        dispatch!(self, s => R::awaited_seats(s))
    }
    /// Parse and validate orders without changing anything.
    pub fn check(&self, seat: &str, orders: &yaml_serde::Value) -> Result<(), OrdersError> {
        dispatch!(self, s => {
            let o = parse_orders(orders)?;
            R::validate(s, seat, o).map(|_| ()).map_err(|r| OrdersError::Illegal(r.violations))
        })
    }
    /// Parse, validate and apply orders.
    pub fn apply(&mut self, seat: &str, orders: &yaml_serde::Value) -> Result<Vec<Event>, OrdersError> {
        self.apply_maybe_in_place(seat, orders, false)
    }
    /// [`AnyState::apply`], or with `in_place` a refusal may leave the state half-changed
    /// ([`Ruleset::validate_and_apply_in_place`]): for replays that stop at the first one.
    pub(crate) fn apply_maybe_in_place(
        &mut self,
        seat: &str,
        orders: &yaml_serde::Value,
        in_place: bool,
    ) -> Result<Vec<Event>, OrdersError> {
        dispatch!(self, s => {
            let o = parse_orders(orders)?;
            #[cfg(test)]
            if REFERENCE_PATH.with(|on| on.get()) {
                let legal = R::validate(s, seat, o).map_err(|r| OrdersError::Illegal(r.violations))?;
                return Ok(R::apply(s, seat, legal));
            }
            let applied = if in_place { R::validate_and_apply_in_place(s, seat, o) } else { R::validate_and_apply(s, seat, o) };
            applied.map_err(|r| OrdersError::Illegal(r.violations))
        })
    }
    /// What is certain about the orders before any roll.
    pub fn preview(&self, seat: &str, orders: &yaml_serde::Value) -> Result<Vec<String>, OrdersError> {
        dispatch!(self, s => {
            let o = parse_orders(orders)?;
            Ok(R::preview(s, seat, &o))
        })
    }
    /// The random action awaiting dice.
    pub fn pending_roll(&self) -> Option<String> {
        dispatch!(self, s => R::pending_roll(s))
    }
    /// Resolve the pending random action.
    pub fn resolve(&mut self, dice: &mut Dice) -> Vec<Event> {
        dispatch!(self, s => R::resolve(s, dice))
    }
    /// The rules hold a result until openings come ([`Ruleset::result_held`]).
    pub fn result_held(&self) -> bool {
        dispatch!(self, s => R::result_held(s))
    }
    /// The leading roll that opens the next entry, as `(seat, what)` ([`Ruleset::leading_roll`]).
    pub fn leading_roll(&self) -> Option<(String, String)> {
        dispatch!(self, s => R::leading_roll(s))
    }
    /// Resolve the leading roll ([`Ruleset::resolve_lead`]).
    pub fn resolve_lead(&mut self, dice: &mut Dice) -> Vec<Event> {
        dispatch!(self, s => R::resolve_lead(s, dice))
    }
    /// Orders with no choice in them for `seat` ([`Ruleset::automatic_orders`]), as YAML.
    pub fn automatic_orders(&self, seat: &str) -> Option<yaml_serde::Value> {
        dispatch!(self, s => R::automatic_orders(s, seat).map(|o| to_yaml(&o)))
    }
    /// Orders decided by the seat's private standing instructions
    /// ([`Ruleset::standing_orders`]), as YAML.
    pub fn standing_orders(&self, seat: &str, instructions: &yaml_serde::Value) -> Result<Option<yaml_serde::Value>, String> {
        dispatch!(self, s => R::standing_orders(s, seat, instructions).map(|o| o.map(|o| to_yaml(&o))))
    }
    /// Orders a seat may send though the rules await nothing of it ([`Ruleset::files_out_of_turn`]).
    pub fn files_out_of_turn(&self, orders: &yaml_serde::Value) -> bool {
        dispatch!(self, _s => parse_orders::<<R as Ruleset>::Orders>(orders).is_ok_and(|o| R::files_out_of_turn(&o)))
    }
    /// The game turn ([`Ruleset::game_turn`]).
    pub fn game_turn(&self) -> u32 {
        dispatch!(self, s => R::game_turn(s))
    }
    /// The first seat of `side` the game will expect an entry from ([`Ruleset::next_seat_of`]).
    pub fn next_seat_of(&self, side: &str) -> Option<String> {
        dispatch!(self, s => R::next_seat_of(s, side))
    }
    /// The result, if the rules have ended the game.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, s => R::outcome(s))
    }
    /// What `seat` may see.
    pub fn view(&self, seat: &str) -> AnyState {
        dispatch!(self, s => wrap(R::view(s, seat)))
    }
    /// Random legal orders for `seat` (the bot).
    pub fn random_orders(&self, seat: &str, chooser: &mut Dice) -> Option<yaml_serde::Value> {
        dispatch!(self, s => R::random_orders(s, seat, chooser).map(|o| to_yaml(&o)))
    }
    /// A commented YAML skeleton for `seat`.
    pub fn template(&self, seat: &str) -> String {
        dispatch!(self, s => R::template(s, seat))
    }
    /// Readable, line-oriented text of the state.
    pub fn describe(&self) -> String {
        dispatch!(self, s => R::describe(s))
    }
    /// What to draw (see [`crate::render`]).
    pub fn picture(&self) -> crate::render::Picture {
        dispatch!(self, s => R::picture(s))
    }
    /// Internal consistency.
    pub fn check_invariants(&self) -> Result<(), String> {
        dispatch!(self, s => R::check_invariants(s))
    }
    /// Record the commitments and openings of an entry ([`Ruleset::hidden`]).
    pub fn hidden(&mut self, seat: &str, acts: &mut HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        dispatch!(self, s => R::hidden(s, seat, acts))
    }
    /// Parse orders as `seat` wrote them and conceal them ([`Ruleset::conceal`]); the
    /// concealed orders come back as YAML.
    pub fn conceal(&self, seat: &str, orders: &yaml_serde::Value, order: &IdOrder) -> Result<Concealed<yaml_serde::Value>, OrdersError> {
        dispatch!(self, s => {
            let o = parse_orders(orders)?;
            R::conceal(s, seat, o, order).map(|c| c.map(|o| to_yaml(&o))).map_err(OrdersError::Illegal)
        })
    }
    /// The longest value commitment `id` can hold ([`Ruleset::committed_value_bound`]).
    pub fn committed_value_bound(&self, id: &str) -> usize {
        dispatch!(self, s => R::committed_value_bound(s, id))
    }
    /// The padded length of the sealed note of an entry committing `ids` (DESIGN §2.6).
    pub fn sealed_len<'a>(&self, ids: impl IntoIterator<Item = &'a str>, with_salts: bool) -> usize {
        SealedNote::padded_len(ids.into_iter().map(|id| (id, self.committed_value_bound(id))), with_salts)
    }
    /// The private draws made since the last call ([`Ruleset::private_draws`]).
    pub fn private_draws(&mut self) -> Vec<String> {
        dispatch!(self, s => R::private_draws(s))
    }
    /// Settle a private draw ([`Ruleset::settle_draw`]).
    pub fn settle_draw(&mut self, seat: &str, draw_id: &str, dice: Option<&mut Dice>) -> Vec<Event> {
        dispatch!(self, s => R::settle_draw(s, seat, draw_id, dice))
    }
    /// Whether partners read each other's sealed values ([`Ruleset::partners_share`]).
    pub fn partners_share(&self) -> bool {
        dispatch!(self, s => R::partners_share(s))
    }
    /// What the violation policy makes of a cheat by `seat` ([`Ruleset::cheat_verdict`]).
    pub fn cheat_verdict(&self, seat: &str) -> Option<String> {
        dispatch!(self, s => R::cheat_verdict(s, seat))
    }
}
