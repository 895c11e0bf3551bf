//! One module per game.

pub mod first_world_war;
pub mod glorys_end;
pub mod jours_de_gloire;
pub mod roads_to_leningrad;
pub mod steel_wheels;
pub mod when_eagles_fight;
