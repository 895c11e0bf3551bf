//! The campaign bots play a recognisable 1914 (issue 3): over a few Short Campaigns the German
//! keeps a garrison on the Franco-German border, his right wing goes through Belgium into
//! France towards Paris, and the Allies hold a line in front of Paris. Every bot order
//! validates (the bot probes each action with the validating code) and the invariants hold.
//!
//! `GE_CAMPAIGN_BOT_GAMES` sets the number of games (default 4); `GE_CAMPAIGN_BOT_TRACE=1`
//! prints a line per German turn and game.

use umpire::crypto::Hash;
use umpire::dice::Dice;
use umpire::engine::{Outcome, Ruleset, SeatInfo};
use umpire::rules::glorys_end::GlorysEnd;
use umpire::rules::glorys_end::map::Country;
use umpire::rules::glorys_end::scenario::SHORT_CAMPAIGN_YAML;
use umpire::rules::glorys_end::state::{Kind, SideId, State};

fn seed(game: u32, n: u32) -> Hash {
    let mut b = [0u8; 32];
    b[..4].copy_from_slice(&game.to_le_bytes());
    b[4..8].copy_from_slice(&n.to_le_bytes());
    b[8] = 0x31;
    Hash(b)
}

/// What one German turn looks like: (German units in Germany south of row 27 — Lorraine and
/// Alsace —, German units in France, German units within 6 hexes of Paris, Allied units in
/// France within 8 hexes of Paris).
fn snapshot(s: &State) -> (u32, u32, u32, u32) {
    let paris = s.board.paris_hexes();
    let near = |h: umpire::geo::hex::HexId, k: u32| paris.iter().any(|p| p.distance(h) <= k);
    let (mut garrison, mut france, mut at_paris, mut screen) = (0, 0, 0, 0);
    for u in s.units.iter().filter(|u| u.kind != Kind::Fortress) {
        let Some(h) = u.hex() else { continue };
        let country = s.board.hex(h).map(|i| i.country);
        match u.side {
            SideId::German => {
                garrison += (country == Some(Country::Germany) && h.row >= 27) as u32;
                france += (country == Some(Country::France)) as u32;
                at_paris += near(h, 6) as u32;
            }
            SideId::Allied => screen += (country == Some(Country::France) && near(h, 8)) as u32,
        }
    }
    (garrison, france, at_paris, screen)
}

#[test]
fn campaign_bots_play_a_recognisable_1914() {
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let games: u32 = std::env::var("GE_CAMPAIGN_BOT_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(4);
    let trace = std::env::var("GE_CAMPAIGN_BOT_TRACE").is_ok();
    let mut wins = std::collections::BTreeMap::new();
    let (mut garrisoned, mut in_france, mut near_paris, mut screened) = (0u32, 0u32, 0u32, 0u32);
    for g in 0..games {
        let mut state = GlorysEnd::setup(SHORT_CAMPAIGN_YAML, None, &seats).expect("setup");
        let mut chooser = Dice::from_seed(&seed(g, 0));
        let mut step = 0u32;
        let mut seen_turn = 0u8;
        let mut best = (0u32, 0u32, 0u32, 0u32);
        while GlorysEnd::outcome(&state).is_none() {
            step += 1;
            assert!(step < 20_000, "game {g}: no outcome");
            if state.player == SideId::German && state.turn != seen_turn {
                seen_turn = state.turn;
                let snap = snapshot(&state);
                if trace {
                    eprintln!(
                        "game {g} T{}: garrison {} in-France {} near-Paris {} allied-screen {}",
                        state.turn, snap.0, snap.1, snap.2, snap.3
                    );
                    if std::env::var("GE_CAMPAIGN_BOT_TRACE").is_ok_and(|v| v == "2") {
                        let list: Vec<String> = state
                            .units
                            .iter()
                            .filter(|u| u.hex().is_some())
                            .map(|u| {
                                format!(
                                    "{}@{}{}",
                                    u.id,
                                    u.hex().map(|h| h.to_string()).unwrap_or_default(),
                                    if u.oos_at_start { "!" } else { "" }
                                )
                            })
                            .collect();
                        eprintln!("  {}", list.join(" "));
                    }
                }
                if state.turn == 5 {
                    best.0 = snap.0;
                }
                best.3 = best.3.max(snap.3);
                best.1 = best.1.max(snap.1);
                best.2 = best.2.max(snap.2);
            }
            // A leading roll (GE 9.1, 10.1) opens the phasing player's turn before his orders.
            if GlorysEnd::leading_roll(&state).is_some() {
                let mut d = Dice::from_seed(&seed(g, step));
                GlorysEnd::resolve_lead(&mut state, &mut d);
                GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step}: {e}"));
                continue;
            }
            if GlorysEnd::pending_roll(&state).is_some() {
                let mut d = Dice::from_seed(&seed(g, step));
                GlorysEnd::resolve(&mut state, &mut d);
                GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step}: {e}"));
                continue;
            }
            let mut moved = false;
            for seat in ["allied", "german"] {
                if let Some(o) = GlorysEnd::random_orders(&state, seat, &mut chooser) {
                    let legal = GlorysEnd::validate(&state, seat, o)
                        .unwrap_or_else(|r| panic!("game {g} step {step}: bot orders refused: {:?}", r.violations));
                    GlorysEnd::apply(&mut state, seat, legal);
                    GlorysEnd::check_invariants(&state).unwrap_or_else(|e| panic!("game {g} step {step}: {e}"));
                    moved = true;
                    break;
                }
            }
            assert!(moved, "game {g} step {step}: nobody can act and no roll is pending");
        }
        let key = match GlorysEnd::outcome(&state) {
            Some(Outcome::Win { side, .. }) => format!("{side} wins"),
            Some(Outcome::Draw { .. }) => "draw".into(),
            _ => "other".into(),
        };
        if trace {
            eprintln!("game {g}: {key} at T{} ({:?})", state.turn, GlorysEnd::outcome(&state));
        }
        *wins.entry(key).or_insert(0u32) += 1;
        garrisoned += (best.0 >= 3) as u32;
        in_france += (best.1 >= 8) as u32;
        near_paris += (best.2 >= 2) as u32;
        screened += (best.3 >= 3) as u32;
    }
    eprintln!(
        "{games} short campaigns: {wins:?}; border garrison of 3+ at T5 in {garrisoned}, 8+ German units in France in {in_france}, Germans near Paris in {near_paris}, an Allied screen of 3+ before Paris in {screened}"
    );
    // A recognisable 1914 in at least half the games.
    assert!(garrisoned * 2 >= games, "the German left the Franco-German border bare in too many games");
    assert!(in_france * 2 >= games, "the German right wing did not reach France in most games");
    assert!(near_paris * 2 >= games, "the German never came near Paris in most games");
    assert!(screened * 2 >= games, "the Allies left Paris unscreened in too many games");
}
