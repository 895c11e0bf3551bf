//! 200 random bot games of the Marne, from setup to outcome: every bot order validates and
//! the invariants hold after every step.

use umpire::crypto::Hash;
use umpire::dice::Dice;
use umpire::engine::{Ruleset, SeatInfo};
use umpire::rules::glorys_end::GlorysEnd;
use umpire::rules::glorys_end::scenario::MARNE_YAML;

fn seed(game: u32, n: u32) -> Hash {
    let mut b = [0u8; 32];
    b[..4].copy_from_slice(&game.to_le_bytes());
    b[4..8].copy_from_slice(&n.to_le_bytes());
    Hash(b)
}

#[test]
fn two_hundred_random_marne_games() {
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let games: u32 = std::env::var("GE_BOT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let (mut rolls, mut decisions) = (0u32, 0u32);
    let mut outcomes = std::collections::BTreeMap::new();
    for g in 0..games {
        let mut state = GlorysEnd::setup(MARNE_YAML, None, &seats).expect("setup");
        GlorysEnd::check_invariants(&state).expect("invariants at setup");
        let mut chooser = Dice::from_seed(&seed(g, 0));
        let mut step = 0u32;
        while GlorysEnd::outcome(&state).is_none() {
            step += 1;
            assert!(step < 5000, "game {g}: no outcome after 5000 entries");
            if GlorysEnd::pending_roll(&state).is_some() {
                rolls += 1;
                let mut dice = Dice::from_seed(&seed(g, step));
                GlorysEnd::resolve(&mut state, &mut dice);
                GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step} after resolve: {e}"));
            }
            let exp = GlorysEnd::expect(&state);
            if GlorysEnd::outcome(&state).is_some() {
                break;
            }
            assert!(!exp.awaits.is_empty(), "game {g}: nothing awaited but no outcome");
            let seat = exp.awaits[0].seat.clone();
            let Some(orders) = GlorysEnd::random_orders(&state, &seat, &mut chooser) else {
                // Nothing to decide: an ack.
                continue;
            };
            let legal = match GlorysEnd::validate(&state, &seat, orders.clone()) {
                Ok(l) => l,
                Err(r) => panic!("game {g} step {step}: bot orders refused: {:?}\n{}\n{}", r.violations, yaml_serde::to_string(&orders).unwrap_or_default(), GlorysEnd::describe(&state)),
            };
            if legal.get().actions.iter().any(|a| matches!(a.0, umpire::rules::glorys_end::orders::ActionKind::Decide(_))) {
                decisions += 1;
            }
            GlorysEnd::apply(&mut state, &seat, legal);
            GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step}: {e}"));
        }
        let o = GlorysEnd::outcome(&state).expect("outcome");
        *outcomes.entry(format!("{o:?}").split(',').next().unwrap_or("").to_string()).or_insert(0u32) += 1;
    }
    eprintln!("{games} games: {rolls} combat rolls, {decisions} decision entries, outcomes {outcomes:?}");
    assert!(games == 0 || rolls > 0, "the bot never fought");
}
