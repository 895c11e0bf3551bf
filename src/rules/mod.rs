//! One module per game.

pub mod first_world_war;
pub mod glorys_end;
