//! Replaying a log into a game state.
