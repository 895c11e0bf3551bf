//! The First World War with hidden chits, through the whole protocol (DESIGN §2.6; TFWW 6.1/1,
//! 6.2, 6.2.1): (1) a 4-player bot game to its end in which no entry names a chit in plain
//! text before it is opened, (2) a seat that places a chit it never drew is named by
//! `verify`'s omniscient pass, (3) `show --as SEAT --key K` shows that seat's hand only.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use umpire::crypto::commit;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::hidden::Knowledge;
use umpire::engine::registry::AnyState;
use umpire::log::Entry;
use umpire::log::entry::{Body, Commitment, Kind, Opening};
use umpire::rules::first_world_war::chits::{self, FACE_DOWN};
use umpire::rules::first_world_war::state::{CombatStep, Stage};
use umpire::rules::first_world_war::{State, combat};

const TIME: &str = "2026-11-23T12:00:00Z";
const FOUR: &[(&str, &str)] =
    &[("germany", "central_powers"), ("western_allies", "allies"), ("eastern_allies", "allies"), ("german_allies", "central_powers")];
const TWO: &[(&str, &str)] = &[("central_powers", "central_powers"), ("allies", "allies")];
const THREE: &[(&str, &str)] = &[("germany", "central_powers"), ("allies", "allies"), ("german_allies", "central_powers")];

fn start(seats: &[(&str, &str)], seed: u64) -> (Game, Players) {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    bot::start_game(scenario, seats, seed, 4096, TIME).expect("start")
}

fn fww(state: &AnyState) -> &State {
    match state {
        AnyState::FirstWorldWar(s) => s,
        _ => panic!("not a First World War state"),
    }
}

/// One bot entry; `false` when nobody could move.
fn bot_step(game: &mut Game, players: &mut Players, seed: u64) -> Result<bool, String> {
    for seat in game.waiting_for().into_iter().map(|(s, _)| s) {
        let mut ch = bot::chooser(seed, &seat, game.next_seq());
        let Some(body) = bot::next_body(game, &seat, players, &mut ch).map_err(|e| e.to_string())? else { continue };
        let e = bot::sign_body(game, &seat, players, body, TIME.into()).map_err(|e| e.to_string())?;
        game.apply(&e).map_err(|e| e.to_string())?;
        return Ok(true);
    }
    Ok(false)
}

fn play_to_end(game: &mut Game, players: &mut Players, seed: u64) -> Result<(), String> {
    while game.outcome().is_none() {
        if game.next_seq() > 3000 || !bot_step(game, players, seed)? {
            return Err(format!("stuck at entry {}", game.next_seq()));
        }
    }
    Ok(())
}

fn text(e: &Entry) -> String {
    String::from_utf8(e.bytes.clone()).expect("entries are UTF-8")
}

#[test]
fn no_entry_names_a_chit_before_it_is_opened_and_every_commitment_is_opened() {
    let (mut draws, mut placed) = (0, 0);
    for seed in 0..3 {
        let (mut game, mut players) = start(FOUR, 40 + seed);
        play_to_end(&mut game, &mut players, seed).unwrap_or_else(|e| panic!("game {seed}: {e}"));
        let ids: Vec<String> = fww(&game.state).data.chits.iter().map(|c| c.id.clone()).collect();
        for e in &game.entries[1..] {
            let t = text(e);
            for line in t.lines() {
                for id in &ids {
                    // A chit name may appear only as the value of an opening.
                    if line.contains(&format!("chit:{id}")) || line.contains(&format!(": {id}")) {
                        assert!(line.trim_start().starts_with("value: chit:"), "entry {} ({}) names {id}: {line}", e.seq(), e.seat());
                    }
                }
            }
            if t.contains(&format!("chit: {FACE_DOWN}")) {
                placed += 1;
                assert!(
                    t.contains("commit:") && t.contains("sealed:"),
                    "entry {}: a face-down chit without its sealed commitment",
                    e.seq()
                );
            }
            if let Some(c) = &e.draft.body.commit {
                draws += c.iter().filter(|c| c.id.starts_with(chits::DRAW_ID)).count();
                // Partners read each other's chits (3-4 players): every commitment is sealed for them.
                let partners =
                    FOUR.iter().filter(|(s, side)| *s != e.seat() && FOUR.iter().any(|(x, sd)| *x == e.seat() && sd == side)).count();
                assert_eq!(e.draft.body.sealed_for.as_ref().map_or(0, Vec::len), partners, "entry {}", e.seq());
            }
        }
        assert!(game.unopened().is_empty(), "game {seed}: unopened {:?}", game.unopened());
        let omni = game.replay_omniscient().unwrap_or_else(|c| panic!("game {seed}: cheats {c:?}"));
        assert_eq!(omni.outcome(), game.outcome());
        // The public facts agree: the same stage, hand sizes and sealed lists.
        let (p, o) = (fww(&game.state), fww(&omni.state));
        assert_eq!((&p.stage, &p.chits.hand_count, &p.chits.sealed, &p.vp), (&o.stage, &o.chits.hand_count, &o.chits.sealed, &o.vp));
    }
    assert!(draws > 0 && placed > 0, "the games drew {draws} chits and placed {placed} face down");
}

#[test]
fn two_and_three_player_games_open_every_chit_and_pass_the_omniscient_pass() {
    for (seats, n) in [(TWO, 3), (THREE, 3)] {
        for seed in 0..n {
            let (mut game, mut players) = start(seats, 90 + seed);
            play_to_end(&mut game, &mut players, seed).unwrap_or_else(|e| panic!("{} seats, game {seed}: {e}", seats.len()));
            assert!(game.unopened().is_empty(), "{} seats, game {seed}: unopened {:?}", seats.len(), game.unopened());
            let omni = game.replay_omniscient().unwrap_or_else(|c| panic!("{} seats, game {seed}: cheats {c:?}", seats.len()));
            assert_eq!(omni.outcome(), game.outcome());
            // Partners (3 players: Germany and GA) receive every value sealed for them.
            for e in &game.entries[1..] {
                let partners =
                    seats.iter().filter(|(s, side)| *s != e.seat() && seats.iter().any(|(x, sd)| *x == e.seat() && sd == side)).count();
                if e.draft.body.commit.is_some() {
                    assert_eq!(e.draft.body.sealed_for.as_ref().map_or(0, Vec::len), partners, "entry {}", e.seq());
                }
            }
        }
    }
}

/// Play `seats` with bots until the public state waits for a defender to place a chit while
/// it holds one and its cup holds another that would fit this combat; then that seat places
/// the cup's chit (never drawn) face down, with no sealed note, and opens it with its lead.
fn cheating_game(seed: u64) -> Result<(Game, Entry), String> {
    let (mut game, mut players) = start(TWO, seed);
    loop {
        if game.outcome().is_some() {
            return Err("no occasion to cheat".into());
        }
        let s = fww(&game.state).clone();
        let waiting = game.waiting_for();
        if let (Stage::Combat, Some(c)) = (&s.stage, &s.combat)
            && c.step == CombatStep::DefenderChit
            && game.pending.is_none()
            && s.turn >= 2
            && waiting.len() == 1
        {
            let seat = waiting[0].0.clone();
            if game.draws.iter().all(|d| d.dice_from != seat) && !s.chits.owed.iter().any(|o| o.seat == seat) && chits::held(&s, &seat) > 0
            {
                let view = players.view(&game, &seat).map_err(|e| e.to_string())?.unwrap_or(&game).clone();
                let mine = fww(&view.state);
                let alliance = c.defender.alliance();
                let cup = mine.cups.get(alliance).cloned().unwrap_or_default();
                if let Some(&x) = cup.iter().find(|&&x| !mine.data.chits[x].mandatory && combat::chit_fits(mine, c, false, x)) {
                    return cheat(game, players, seed, &seat, x);
                }
            }
        }
        if !bot_step(&mut game, &mut players, seed)? {
            return Err("stuck".into());
        }
    }
}

fn cheat(mut game: Game, mut players: Players, seed: u64, seat: &str, x: usize) -> Result<(Game, Entry), String> {
    let s = fww(&game.state).clone();
    let name = s.data.chits[x].id.clone();
    let id = format!("{}{}", chits::CHIT_ID, s.chits.serial);
    let key = players.key(seat).map_err(|e| e.to_string())?.clone();
    let salt = commit::salt(&key.seed(), &game.id(), &id);
    let value = format!("chit:{name}");
    let mut body = Body::new(Kind::Orders);
    body.orders = Some(yaml_serde::from_str(&format!("actions:\n- chit: {FACE_DOWN}\n")).expect("orders"));
    body.commit = Some(vec![Commitment { id: id.clone(), digest: commit::digest(&salt, &value) }]);
    let lie = bot::sign_body(&game, seat, &mut players, body, TIME.into()).map_err(|e| e.to_string())?;
    game.apply(&lie).map_err(|e| format!("the public game refused the lie: {e}"))?;
    // The attacker answers; then the cheater names a lead its chit suits and opens the chit.
    while fww(&game.state).combat.as_ref().is_some_and(|c| c.step != CombatStep::DefenderLead) {
        if !bot_step(&mut game, &mut players, seed)? {
            return Err("stuck in the combat".into());
        }
    }
    let st = fww(&game.state).clone();
    let c = st.combat.clone().ok_or("the combat ended")?;
    let lead = c.defenders.iter().copied().find(|&a| st.chit_suits(x, a)).ok_or("no lead suits the chit")?;
    let mut body = Body::new(Kind::Orders);
    body.orders = Some(yaml_serde::from_str(&format!("actions:\n- lead: {{army: {}}}\n", st.name(lead))).expect("orders"));
    body.open = Some(vec![Opening { id, salt, value }]);
    let e = bot::sign_body(&game, seat, &mut players, body, TIME.into()).map_err(|e| e.to_string())?;
    game.apply(&e).map_err(|e| format!("the public game refused the opening: {e}"))?;
    play_to_end(&mut game, &mut players, seed)?;
    Ok((game, lie))
}

#[test]
fn verify_names_a_seat_that_places_a_chit_it_never_drew() {
    let mut tried = Vec::new();
    let (game, lie) = (0..30)
        .find_map(|seed| match cheating_game(seed) {
            Ok(g) => Some(g),
            Err(e) => {
                tried.push(format!("{seed}: {e}"));
                None
            }
        })
        .unwrap_or_else(|| panic!("no seed gave a cheat to catch: {tried:?}"));
    // The public replay cannot tell; every commitment is open at the end.
    assert!(Game::replay(&game.entries).is_ok());
    assert!(game.unopened().is_empty(), "{:?}", game.unopened());
    let cheats = game.replay_omniscient().expect_err("the omniscient pass catches the chit");
    assert_eq!((cheats[0].seq, cheats[0].seat.as_str(), cheats[0].hash), (lie.seq(), lie.seat(), lie.hash));
    assert!(cheats[0].rule.starts_with("TFWW 6.2"), "{:?}", cheats[0]);
    // And so does `umpire verify`, naming the entry.
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("game.log");
    umpire::log::store::create_log(&log, &game.entries).expect("write log");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire")).arg("verify").arg(&log).output().expect("run verify");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains(&format!("CHEAT at entry {} by {}", lie.seq(), lie.seat())), "{stdout}");
    // F.8: no policy in the options, so the default forfeit is the verdict.
    let verdict = format!("verdict: F.8 (violation policy: forfeit): {}'s alliance", lie.seat());
    assert!(stdout.contains(&verdict) && stdout.contains("forfeits; its opponents"), "{stdout}");
}

fn hand_line(out: &str, seat: &str) -> String {
    out.lines().find(|l| l.starts_with(&format!("hand {seat}:"))).unwrap_or_default().to_string()
}

#[test]
fn show_as_a_seat_with_its_key_shows_its_hand_and_not_the_others() {
    // A 2-player game and an entry after which both seats hold chits.
    let (game, players, at) = (0..20)
        .find_map(|seed| {
            let (mut game, mut players) = start(TWO, 70 + seed);
            play_to_end(&mut game, &mut players, seed).ok()?;
            let at = (1..game.entries.len()).rev().find(|&n| {
                let g = Game::replay(&game.entries[..n]).expect("replays");
                let s = fww(&g.state);
                !chits::pending_reveal(s) && TWO.iter().all(|(seat, _)| chits::held(s, seat) > 0)
            })?;
            Some((game, players, at - 1))
        })
        .expect("some game where both seats hold chits at once");
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("game.log");
    umpire::log::store::create_log(&log, &game.entries).expect("write log");
    let mut shown = BTreeMap::new();
    for (seat, _) in TWO {
        let keyfile = dir.path().join(format!("{seat}.key"));
        players.key(seat).expect("key").write_file(&keyfile).expect("write key");
        let out = show(&log, seat, &keyfile, at);
        let own =
            Game::replay_with(&game.entries[..=at], Knowledge::seat(seat, players.key(seat).expect("key").clone())).expect("seat view");
        let hand: Vec<String> = fww(&own.state).hands[*seat].iter().map(|&c| fww(&own.state).chit_name(c).to_string()).collect();
        let line = hand_line(&out, seat);
        assert!(!hand.is_empty() && hand.iter().all(|c| line.contains(c.as_str())), "{seat} sees {line:?}, holds {hand:?}");
        shown.insert(seat.to_string(), (out, hand));
    }
    for (seat, (out, _)) in &shown {
        for (other, (_, hand)) in &shown {
            if other != seat {
                let line = hand_line(out, other);
                // The size and the backs (6.2.2: mandatory ones are red or blue), never a face.
                assert!(line.ends_with("face down") || line.ends_with("mandatory chit's back)"), "{seat} sees {other}'s hand: {line:?}");
                for c in hand {
                    assert!(!line.contains(c.as_str()), "{seat} sees {other}'s {c}");
                }
            }
        }
    }
}

fn show(log: &Path, seat: &str, key: &Path, at: usize) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["show", &log.to_string_lossy(), "--as", seat, "--key", &key.to_string_lossy(), "--at", &at.to_string()])
        .output()
        .expect("run show");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}
