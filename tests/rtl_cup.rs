//! The Second Player's hidden cup of Roads to Leningrad (RTL-7.14) seen by a hostile
//! opponent: what the public entry says must not depend on the order the AMs were written
//! in, the slot ids must follow the author's secret order (DESIGN §2.6, `engine::IdOrder`),
//! and the sealed note must be as long whichever AMs of the same count go in.

mod common;

use common::{TIME, any_step, body_of};
use umpire::engine::IdOrder;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::registry::AnyState;
use umpire::log::entry::Body;
use umpire::rules::roads_to_leningrad::Orders;
use umpire::rules::roads_to_leningrad::state::Phase;
use umpire::rules::roads_to_leningrad::turn::available;

/// A bot game of Soltsy played up to the first Second Player's cup with at least three AMs
/// to choose from: the game, the players, the seat due, its side and the AMs it may cup.
fn at_the_cup(seed: u64) -> (Game, Players, String, String, Vec<String>) {
    let soltsy = umpire::scenarios::find("roads-to-leningrad/soltsy").expect("bundled");
    let (mut game, mut players) = bot::start_game(soltsy, &[("german", "german"), ("soviet", "soviet")], seed, 600, TIME).expect("start");
    while game.outcome().is_none() && game.next_seq() < 600 {
        let due = match &game.state {
            AnyState::RoadsToLeningrad(s) => match &s.phase {
                Phase::Cup { side } if game.pending.is_none() => Some((s.seat_of(side), side.clone(), available(s, side))),
                _ => None,
            },
            _ => unreachable!("a Roads to Leningrad game"),
        };
        if let Some((seat, side, ams)) = due
            && ams.len() >= 3
            && game.waiting_for().iter().any(|(w, _)| *w == seat)
        {
            return (game, players, seat, side, ams);
        }
        any_step(&mut game, &mut players, seed);
    }
    panic!("seed {seed}: no Second Player's cup with three AMs to choose from");
}

/// Orders that fill the cup with `choice`, as a player writes them.
fn cup(choice: &[String]) -> Orders {
    Orders { cup_choice: choice.to_vec(), ..Orders::default() }
}

#[test]
fn the_cup_entry_says_nothing_of_the_writing_order() {
    for seed in [1u64, 2, 3] {
        let (game, mut players, seat, _side, ams) = at_the_cup(seed);
        let written = ams[..3].to_vec();
        let mut reversed = written.clone();
        reversed.reverse();
        let rotated = vec![written[1].clone(), written[2].clone(), written[0].clone()];
        let bodies: Vec<Body> = [&written, &reversed, &rotated].iter().map(|c| body_of(&game, &mut players, &seat, &cup(c))).collect();
        // Orders, slot ids, digests and sealed note: byte for byte the same.
        assert_eq!(bodies[0], bodies[1], "seed {seed}");
        assert_eq!(bodies[0], bodies[2], "seed {seed}");
        // The public orders carry only the count.
        let public: Orders = yaml_serde::from_value(bodies[0].orders.clone().unwrap()).unwrap();
        assert!(public.cup_choice.is_empty(), "{public:?}");
        assert_eq!(public.cup, Some(3));
        assert_eq!(bodies[0].commit.as_ref().map(Vec::len), Some(3));
        // The values sit in the slots in the author's secret order.
        let AnyState::RoadsToLeningrad(s) = &game.state else { unreachable!() };
        let key = players.key(&seat).unwrap().clone();
        let order = IdOrder::new(&key.seed(), &game.id(), game.next_seq());
        let orders = Orders { cup_choice: written.clone(), ..Orders::default() };
        let c = umpire::rules::roads_to_leningrad::cup::conceal(s, &seat, orders, &order).expect("a legal cup");
        let got: Vec<String> = c.commit.iter().map(|(_, v)| v.clone()).collect();
        let mut want = got.clone();
        want.sort_by_key(|v| order.key(v).0);
        assert_eq!(got, want, "seed {seed}: slots in the secret order");
    }
}

#[test]
fn a_sealed_cup_is_as_long_whatever_it_holds() {
    let (game, mut players, seat, _side, ams) = at_the_cup(1);
    // Every choice of the same number of AMs (their names differ in length) seals to one length.
    let lens: Vec<usize> = (0..ams.len() - 1)
        .map(|i| body_of(&game, &mut players, &seat, &cup(&ams[i..i + 2])).sealed.expect("a sealed note").len())
        .collect();
    assert!(lens.windows(2).all(|w| w[0] == w[1]), "sealed lengths {lens:?} for the AMs {ams:?}");
}
