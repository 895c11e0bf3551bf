//! One module per game.

pub mod glorys_end;
