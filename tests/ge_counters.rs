//! Glory's End hidden stacks (GE 13.8) through the whole protocol, as tests/fww_hidden.rs does
//! for The First World War.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::registry::AnyState;
use umpire::rules::glorys_end::State;

const TIME: &str = "2026-11-23T12:00:00Z";
const SEATS: &[(&str, &str)] = &[("german", "german"), ("allied", "allied")];

fn options() -> Option<yaml_serde::Value> {
    Some(yaml_serde::from_str("{hidden_counters: true}").expect("options"))
}

fn start(scenario: &str, seed: u64) -> (Game, Players) {
    let sc = umpire::scenarios::find(scenario).expect("bundled");
    bot::start_game_with(sc, SEATS, seed, 16384, TIME, options()).expect("start")
}

fn ge(state: &AnyState) -> &State {
    match state {
        AnyState::GlorysEnd(s) => s,
        _ => panic!("not a Glory's End state"),
    }
}

#[test]
#[ignore]
fn debug_seed() {
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let (mut game, mut players) = start("glorys-end/marne", seed);
    loop {
        if game.outcome().is_some() {
            break;
        }
        let waiting: Vec<String> = game.waiting_for().into_iter().map(|(s, _)| s).collect();
        let mut moved = false;
        for seat in waiting {
            let mut ch = bot::chooser(seed, &seat, game.next_seq());
            let Some(body) = bot::next_body(&game, &seat, &mut players, &mut ch).expect("body") else { continue };
            let e = bot::sign_body(&game, &seat, &mut players, body, TIME.into()).expect("sign");
            if let Err(err) = game.apply(&e) {
                let view = players.view(&game, &seat).unwrap().cloned().unwrap_or_else(|| game.clone());
                let reveal = players.next_reveal(&game, &seat).unwrap();
                let (st, ev) = view.state_before(&seat, reveal.as_ref());
                let (pst, pev) = game.state_before(&seat, reveal.as_ref());
                println!("ERR {err}\nENTRY {}\nVIEW EVENTS {ev:?}\nPUBLIC EVENTS {pev:?}", String::from_utf8_lossy(&e.bytes));
                println!("VIEW {}\nPUBLIC {}", umpire::rules::glorys_end::view::describe(ge(&st)), umpire::rules::glorys_end::view::describe(ge(&pst)));
                let c = |s: &State| s.counters.as_ref().map(|c| (c.pending_outcome.clone(), c.final_count));
                println!("VIEW pending {:?} outcome {:?}\nPUBLIC pending {:?} outcome {:?}", c(ge(&st)), ge(&st).outcome, c(ge(&pst)), ge(&pst).outcome);
                for (i, (a, b)) in view.steps.iter().zip(&game.steps).enumerate() {
                    if a.events != b.events {
                        println!("STEP {i} differs:\nVIEW {:?}\nPUBLIC {:?}", a.events, b.events);
                        break;
                    }
                }
                panic!();
            }
            moved = true;
            break;
        }
        assert!(moved, "stuck");
    }
}
