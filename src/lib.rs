//! umpire: a command-line adjudicator for wargames played by email.
//!
//! The library holds everything; `src/main.rs` is a thin shell around [`cli::run`].
//! Layout follows `DESIGN.md` §3: the protocol lives in [`crypto`], [`dice`] and [`log`];
//! the rules engine in [`engine`]; geometry in [`geo`]; each game in [`rules`].

pub mod cache;
pub mod cli;
pub mod crypto;
pub mod dice;
pub mod engine;
pub mod geo;
pub mod log;
pub mod mail;
pub mod render;
pub mod rules;
pub mod scenarios;
pub mod schema;
