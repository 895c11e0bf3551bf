//! 200 random bot games of the Marne, from setup to outcome: every bot order validates, the
//! invariants hold after every step, and the bot fights (15 battles a game on average).

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

/// Counts GE-13.25 withdrawals, events of standing instructions and strategic moves (GE-11).
fn count(evs: &[umpire::engine::Event], tally: &mut [u32; 3]) {
    for e in evs {
        tally[0] += e.text.contains("withdraw before combat") as u32;
        tally[1] += (e.text.contains("standing instructions of the") || e.text.contains("standing instructions: the ")) as u32;
        tally[2] += e.text.contains(" move by rail ") as u32;
    }
}

#[test]
fn two_hundred_random_marne_games() {
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let games: u32 = std::env::var("GE_BOT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let (mut rolls, mut decisions, mut battles, mut batches) = (0u32, 0u32, 0u32, 0u32);
    // GE-13.25 withdrawals and decisions answered by standing instructions.
    let mut tally = [0u32; 3];
    let mut outcomes = std::collections::BTreeMap::new();
    for g in 0..games {
        let mut state = GlorysEnd::setup(MARNE_YAML, None, &seats).expect("setup");
        GlorysEnd::check_invariants(&state).expect("invariants at setup");
        let mut chooser = Dice::from_seed(&seed(g, 0));
        let mut step = 0u32;
        while GlorysEnd::outcome(&state).is_none() {
            step += 1;
            assert!(step < 5000, "game {g}: no outcome after 5000 entries");
            // A leading roll (GE 9.1, 10.1) opens the phasing player's turn before his orders.
            if GlorysEnd::leading_roll(&state).is_some() {
                rolls += 1;
                let mut dice = Dice::from_seed(&seed(g, step));
                let evs = GlorysEnd::resolve_lead(&mut state, &mut dice);
                count(&evs, &mut tally);
                GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step} after the leading roll: {e}"));
            }
            if GlorysEnd::pending_roll(&state).is_some() {
                rolls += 1;
                let mut dice = Dice::from_seed(&seed(g, step));
                let evs = GlorysEnd::resolve(&mut state, &mut dice);
                count(&evs, &mut tally);
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
                Err(r) => panic!(
                    "game {g} step {step}: bot orders refused: {:?}\n{}\n{}",
                    r.violations,
                    yaml_serde::to_string(&orders).unwrap_or_default(),
                    GlorysEnd::describe(&state)
                ),
            };
            if legal.get().actions.iter().any(|a| matches!(a.0, umpire::rules::glorys_end::orders::ActionKind::Decide(_))) {
                decisions += 1;
            }
            battles += legal
                .get()
                .actions
                .iter()
                .map(|a| match &a.0 {
                    umpire::rules::glorys_end::orders::ActionKind::Attack(_)
                    | umpire::rules::glorys_end::orders::ActionKind::MarchAssault(_) => 1,
                    // A batch of prepared assaults (GE 13.2): one battle each.
                    umpire::rules::glorys_end::orders::ActionKind::Attacks(v) => {
                        batches += 1;
                        v.len() as u32
                    }
                    _ => 0,
                })
                .sum::<u32>();
            let evs = GlorysEnd::apply(&mut state, &seat, legal);
            count(&evs, &mut tally);
            GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step}: {e}"));
        }
        let o = GlorysEnd::outcome(&state).expect("outcome");
        *outcomes.entry(format!("{o:?}").split(',').next().unwrap_or("").to_string()).or_insert(0u32) += 1;
    }
    let [withdrawals, by_standing, by_rail] = tally;
    eprintln!(
        "{games} games: {battles} battles ({batches} batches), {rolls} combat rolls, {decisions} decision entries, {withdrawals} cavalry withdrawals, {by_standing} standing-instruction events, {by_rail} strategic moves, outcomes {outcomes:?}"
    );
    assert!(games < 50 || by_rail > 0, "the bot never used strategic movement (GE 11)");
    assert!(games < 50 || (withdrawals > 0 && by_standing > 0), "the bot never used 13.25 or standing instructions");
    assert!(games == 0 || rolls > 0, "the bot never fought");
    assert!(games < 50 || batches > 0, "the bot never declared a batch of prepared assaults (GE 13.2)");
    // A bot game should look like a battle: at least 15 attacks a game on average.
    assert!(games < 50 || battles >= 15 * games, "only {battles} battles in {games} games");
}

/// Hostile orders never panic: random junk (unknown units, off-map hexes, absurd numbers,
/// wrong seats) is validated along bot games; anything accepted keeps the invariants.
#[test]
fn junk_orders_never_panic() {
    use umpire::geo::hex::HexId;
    use umpire::rules::glorys_end::orders::{Action, ActionKind, Assault, Decide, Enter, Loss, Move, Orders, PhaseName};
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    for g in 0..10u32 {
        let mut state = GlorysEnd::setup(MARNE_YAML, None, &seats).expect("setup");
        let mut chooser = Dice::from_seed(&seed(1000 + g, 0));
        let mut step = 0u32;
        while GlorysEnd::outcome(&state).is_none() && step < 3000 {
            step += 1;
            if GlorysEnd::leading_roll(&state).is_some() {
                let mut dice = Dice::from_seed(&seed(1000 + g, step));
                GlorysEnd::resolve_lead(&mut state, &mut dice);
            }
            if GlorysEnd::pending_roll(&state).is_some() {
                let mut dice = Dice::from_seed(&seed(1000 + g, step));
                GlorysEnd::resolve(&mut state, &mut dice);
            }
            let ids: Vec<String> = state.units.iter().map(|u| u.id.clone()).chain(["XX-99".to_string(), String::new()]).collect();
            let hexes: Vec<HexId> =
                state.board.hexes.keys().copied().chain([HexId::new(0, 0), HexId::new(99, 99), HexId::new(31, 99)]).collect();
            for _ in 0..3 {
                let mut acts = Vec::new();
                for _ in 0..1 + chooser.roll(4) {
                    let id = ids[chooser.roll(ids.len() as u32) as usize].clone();
                    let h = hexes[chooser.roll(hexes.len() as u32) as usize];
                    let n = [0u32, 1, 2, 3, u32::MAX][chooser.roll(5) as usize];
                    let a = match chooser.roll(7) {
                        0 => ActionKind::Move(Move { units: vec![id.clone(), id], path: vec![h, h] }),
                        1 => ActionKind::Move(Move { units: vec![id], path: vec![h] }),
                        2 => ActionKind::MarchAssault(Assault { target: h, units: vec![id], siege: vec![] }),
                        3 => ActionKind::Attack(Assault { target: h, units: vec![id], siege: vec![] }),
                        4 => ActionKind::Decide(Decide {
                            losses: vec![Loss { unit: id.clone(), sl: n }, Loss { unit: id.clone(), sl: n }],
                            retreat: Some(h),
                            advance: vec![id],
                        }),
                        5 => ActionKind::Enter(Enter { unit: id, hex: h }),
                        _ => ActionKind::EndPhase(if chooser.roll(2) == 0 { PhaseName::Movement } else { PhaseName::Combat }),
                    };
                    acts.push(Action(a));
                }
                let seat = ["german", "allied", "nobody"][chooser.roll(3) as usize];
                let orders = Orders { actions: acts };
                let _ = GlorysEnd::preview(&state, seat, &orders);
                let _ = GlorysEnd::template(&state, seat);
                if let Ok(legal) = GlorysEnd::validate(&state, seat, orders) {
                    let mut probe = state.clone();
                    GlorysEnd::apply(&mut probe, seat, legal);
                    GlorysEnd::check_invariants(&probe).unwrap_or_else(|e| panic!("junk accepted broke invariants: {e}"));
                }
            }
            let exp = GlorysEnd::expect(&state);
            let Some(seat) = exp.awaits.first().map(|a| a.seat.clone()) else { break };
            let Some(orders) = GlorysEnd::random_orders(&state, &seat, &mut chooser) else { continue };
            let legal = GlorysEnd::validate(&state, &seat, orders).expect("bot orders validate");
            GlorysEnd::apply(&mut state, &seat, legal);
        }
    }
}
