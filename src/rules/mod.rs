//! One module per game.

pub mod first_world_war;
pub mod glorys_end;
pub mod when_eagles_fight;
