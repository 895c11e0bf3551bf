//! One entry can fix two rolls: it settles the dice an earlier entry owed and then opens
//! with its own leading roll (a Jours de Gloire fire's die, then the next cup draw). Both
//! must reach the step record, `verify`'s list of random events, and the take-back check
//! (DESIGN §2.5, §2.7): a record that kept only the last roll hid the first from a referee
//! and let a take-back withdraw the revealer of owed dice without the entry that owed them.

mod common;

use common::{TIME, any_step, started_marengo};
use umpire::engine::bot;
use umpire::engine::game::GameError;
use umpire::log::entry::{Amendment, Body, Kind};

/// How many rolls a step's events announce (owed dice and leading rolls each say so).
fn announced(events: &[umpire::engine::Event]) -> usize {
    events.iter().filter(|e| e.text.starts_with("dice of entry ") || e.text.starts_with("leading roll of entry ")).count()
}

#[test]
fn an_entry_that_settles_dice_and_leads_records_both_rolls() {
    let mut double = 0;
    let mut refused = 0;
    for seed in 0..4u64 {
        let (mut game, mut players) = started_marengo(seed);
        // The latest entry that settled owed dice and led: (its seq, the entry that owed).
        let mut candidate: Option<(u64, u64)> = None;
        while game.outcome().is_none() && game.next_seq() < 400 {
            any_step(&mut game, &mut players, seed);
            let step = game.steps.last().expect("a step").clone();
            assert_eq!(step.resolved.len(), announced(&step.events), "entry {}: {:?}", step.seq, step.resolved);
            if step.resolved.len() == 2 {
                double += 1;
                // Owed dice first (an earlier entry's, revealed by this one), then this
                // entry's own leading roll (fixed by an earlier reveal).
                let (owed, lead) = (&step.resolved[0], &step.resolved[1]);
                assert!(owed.entry < step.seq && owed.revealed_by == step.seq, "{owed:?}");
                assert!(lead.entry == step.seq && lead.revealed_by < step.seq, "{lead:?}");
                assert_ne!(owed.seed, lead.seed);
                candidate = Some((step.seq, owed.entry));
            }
            // Withdrawing that entry (and what follows) but not the one that owed the dice
            // would let its author re-roll them with a reveal he already knows: refused,
            // whichever seat proposes it, once an amendment may be proposed at all.
            let Some((from, owed)) = candidate else { continue };
            for seat in ["french", "austrian"] {
                let mut b = Body::new(Kind::ProposeAmend);
                b.amend = Some(Amendment { undo_from: Some(from), reason: "misclick".into() });
                let e = bot::sign_body(&game, seat, &mut players, b, TIME.into()).expect("sign");
                match game.clone().apply(&e) {
                    Err(GameError::Amendment { why, .. }) if why.contains("must withdraw entry") => {
                        assert!(why.contains(&format!("must withdraw entry {owed}")), "{why}");
                        refused += 1;
                        candidate = None;
                    }
                    // Not the check under test: an entry since then holds hidden values, or
                    // a leading roll is known to one side only for now.
                    Err(GameError::Amendment { why, .. }) if why.contains("hidden values") => candidate = None,
                    Err(GameError::OutOfTurn { why, .. }) if why.contains("known to one side only") => {}
                    // Nor is this: the entry that settled and led was the game's last.
                    Err(GameError::Over { .. }) if game.outcome().is_some() => candidate = None,
                    other => panic!("take-back from entry {from} while entry {owed}'s dice stay: {other:?}"),
                }
            }
        }
        // The referee's report lists every roll of every step.
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("game.log");
        umpire::log::store::create_log(&log, &game.entries).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(["verify", "--json"])
            .arg(&log)
            .env("UMPIRE_FIXED_TIME", TIME)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("verify --json prints a report");
        assert_eq!(report["ok"], true, "{report}");
        let rolls: usize = game.steps.iter().map(|s| announced(&s.events)).sum();
        assert_eq!(report["random_events"].as_array().unwrap().len(), rolls, "seed {seed}");
    }
    assert!(double > 0, "no bot game had an entry settling dice and leading: the test saw nothing");
    assert!(refused > 0, "no take-back of such an entry was tried: the test saw nothing");
}
