//! The First World War's face-down pieces on the engine's hidden information (DESIGN §2.6,
//! digest H-1): bot games through the author path open every commitment and pass
//! `verify`'s omniscient pass; no entry carries a face-down identity before its opening; a
//! seat that lies about its pieces is named by `verify`; `show --as SEAT --key K` shows that
//! seat's own pieces and not the opponent's.

use std::collections::BTreeMap;

use umpire::crypto::commit;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::hidden::Knowledge;
use umpire::engine::registry::AnyState;
use umpire::log::entry::{Body, Kind, Opening};
use umpire::rules::first_world_war::State;
use umpire::rules::first_world_war::orders::{Action, Orders};
use umpire::rules::first_world_war::pieces::Ident;

mod support;
use support::{text, umpire_in, write_log_and_key};

mod common;
use common::{TIME, any_step};
const FOUR: &[(&str, &str)] =
    &[("germany", "central_powers"), ("western_allies", "allies"), ("eastern_allies", "allies"), ("german_allies", "central_powers")];
const TWO: &[(&str, &str)] = &[("central_powers", "central_powers"), ("allies", "allies")];

fn start(seats: &[(&str, &str)], seed: u64) -> (Game, Players) {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    bot::start_game(scenario, seats, seed, 4096, TIME).expect("start")
}

fn play(seats: &[(&str, &str)], seed: u64) -> Game {
    let (mut game, mut players) = start(seats, seed);
    let mut clock = || TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 3000, &mut clock, &mut keep) {
        panic!("game {seed} ({} seats): {e}", seats.len());
    }
    game
}

fn fww(state: &AnyState) -> &State {
    match state {
        AnyState::FirstWorldWar(s) => s,
        _ => panic!("not a First World War state"),
    }
}

#[test]
fn bot_games_open_every_piece_and_pass_the_omniscient_pass() {
    for (seats, seed) in [(FOUR, 11u64), (TWO, 12)] {
        let game = play(seats, seed);
        assert!(game.outcome().is_some());
        let pieces = game.commitments.keys().filter(|(_, id)| id.starts_with("piece-")).count();
        assert!(pieces > 20, "game {seed}: {pieces} piece commitments");
        assert_eq!(game.unopened(), vec![], "game {seed}: every commitment is opened by the end");
        let omni = game.replay_omniscient().unwrap_or_else(|c| panic!("game {seed}: {c:?}"));
        assert_eq!(omni.outcome(), game.outcome());
        assert!(fww(&game.state).pieces.is_empty(), "nothing is face down at the end");
    }
}

/// Whether `hay` holds `word` as a whole token (army ids are `DE-1`, `DE-10`: no prefix match).
fn has_token(hay: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-';
    hay.match_indices(word).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

#[test]
fn no_entry_names_a_face_down_army_before_it_is_opened() {
    let game = play(FOUR, 21);
    let mut checked = 0;
    for ((seat, id), rec) in &game.commitments {
        if !id.starts_with("piece-") {
            continue;
        }
        let (opened_at, value) = rec.opened.clone().expect("opened");
        if value == "dummy" {
            continue; // the word is in every face-up dummy's name
        }
        for e in &game.entries[rec.seq as usize..opened_at as usize] {
            let t = String::from_utf8_lossy(&e.bytes);
            assert!(
                !has_token(&t, &value),
                "entry {} by {} carries {value:?} ({seat}/{id}, {}..{opened_at}) before its opening:\n{t}",
                e.seq(),
                e.seat(),
                rec.seq
            );
        }
        let Some(army) = value.strip_prefix("army:") else { continue };
        for e in &game.entries[rec.seq as usize + 1..opened_at as usize] {
            let t = String::from_utf8_lossy(&e.bytes);
            assert!(!has_token(&t, army), "entry {} by {} names {army} while {seat}/{id} hides it", e.seq(), e.seat());
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

/// The lie: in a `hide`, two armies of the liar on two fronts swap places (each is listed on
/// the other's front, so no opening can show it). Returns the lie's seq and the lying values.
fn lie_in(game: &mut Game, players: &mut Players, seed: u64, liar: &str) -> Option<(u64, BTreeMap<String, String>)> {
    let reveal = players.next_reveal(game, liar).ok()?;
    let key = players.key(liar).ok()?.clone();
    let view = players.view(game, liar).ok()?.cloned().unwrap_or_else(|| game.clone());
    let (state, _) = view.state_before(liar, reveal.as_ref());
    let mut ch = bot::chooser(seed, liar, game.next_seq());
    let plain = state.random_orders(liar, &mut ch)?;
    let mut orders: Orders = yaml_serde::from_value(plain).ok()?;
    // End the entry with a pass so nothing but the hide happens.
    if let Some(last) = orders.actions.last_mut()
        && !matches!(last, Action::Hide(_))
        && fww(&state).stage == umpire::rules::first_world_war::state::Stage::Round
    {
        *last = Action::Pass;
    }
    let plain = yaml_serde::to_value(&orders).ok()?;
    let c = state.conceal(liar, &plain, &umpire::engine::IdOrder::trial()).ok()?;
    let s = fww(&state);
    let public: Orders = yaml_serde::from_value(c.orders.clone()).ok()?;
    let groups: Vec<(u8, String)> = public
        .actions
        .iter()
        .filter_map(|a| if let Action::Hide(g) = a { Some(g) } else { None })
        .flatten()
        .flat_map(|g| g.ids.iter().map(move |id| (g.front, id.clone())))
        .collect();
    let army = |id: &str| c.commit.iter().find(|(i, _)| i == id).and_then(|(_, v)| v.strip_prefix("army:")).and_then(|a| s.data.army(a));
    let mut pair = None;
    'outer: for (fa, a) in &groups {
        for (fb, b) in &groups {
            if let (Some(x), Some(y)) = (army(a), army(b))
                && fa != fb
                && s.data.armies[x].faction == s.data.armies[y].faction
                && s.may_enter(x, *fb)
                && s.may_enter(y, *fa)
            {
                pair = Some((a.clone(), b.clone()));
                break 'outer;
            }
        }
    }
    let (a, b) = pair?;
    let mut body = Body::new(Kind::Orders);
    body.orders = Some(plain);
    let mut body = umpire::engine::author::complete_body(&view, liar, &key, reveal.as_ref(), body).ok()?;
    let value = |id: &str| c.commit.iter().find(|(i, _)| i == id).map(|(_, v)| v.clone()).unwrap_or_default();
    let lies: BTreeMap<String, String> = [(a.clone(), value(&b)), (b.clone(), value(&a))].into_iter().collect();
    let gid = game.id();
    for cm in body.commit.iter_mut().flatten() {
        if let Some(v) = lies.get(&cm.id) {
            cm.digest = commit::digest(&commit::salt(&key.seed(), &gid, &cm.id), v);
        }
    }
    // The liar keeps its lie out of its sealed note (its own tool would refuse it).
    body.sealed = None;
    body.sealed_for = None;
    let e = bot::sign_body(game, liar, players, body, TIME.into()).ok()?;
    game.apply(&e).expect("the public game cannot see the lie");
    Some((e.seq(), lies))
}

#[test]
fn a_seat_that_swaps_its_face_down_armies_is_named_by_verify() {
    let liar = "central_powers";
    let mut found = None;
    'seeds: for seed in 0..12u64 {
        let (mut game, mut players) = start(TWO, seed);
        // Honest play to turn 2, then the liar's first entry whose hide allows the swap.
        while fww(&game.state).turn < 2 && game.outcome().is_none() {
            any_step(&mut game, &mut players, seed);
        }
        for _ in 0..200 {
            if game.outcome().is_some() {
                continue 'seeds;
            }
            let due = game.waiting_for().iter().any(|(s, _)| s == liar) && game.pending.is_none();
            if due && let Some((seq, lies)) = lie_in(&mut game, &mut players, seed, liar) {
                // The liar's next entry opens both pieces (a voluntary reveal, TFWW 4.2/1).
                for _ in 0..40 {
                    let waiting: Vec<String> = game.waiting_for().into_iter().map(|(s, _)| s).collect();
                    if waiting.first().map(String::as_str) != Some(liar) {
                        any_step(&mut game, &mut players, seed);
                        continue;
                    }
                    let key = players.key(liar).unwrap().clone();
                    let reveal = players.next_reveal(&game, liar).unwrap();
                    let view = players.view(&game, liar).unwrap().cloned().unwrap_or_else(|| game.clone());
                    let mut ch = bot::chooser(seed, liar, game.next_seq());
                    let (state, _) = view.state_before(liar, reveal.as_ref());
                    let Some(plain) = state.random_orders(liar, &mut ch) else { continue 'seeds };
                    let mut b = Body::new(Kind::Orders);
                    b.orders = Some(plain);
                    let Ok(mut body) = umpire::engine::author::complete_body(&view, liar, &key, reveal.as_ref(), b) else {
                        continue 'seeds;
                    };
                    let gid = game.id();
                    let opens = body.open.get_or_insert_with(Vec::new);
                    for (id, v) in &lies {
                        opens.push(Opening { id: id.clone(), salt: commit::salt(&key.seed(), &gid, id), value: v.clone() });
                    }
                    let e = bot::sign_body(&game, liar, &mut players, body, TIME.into()).unwrap();
                    if game.clone().apply(&e).is_err() {
                        continue 'seeds;
                    }
                    game.apply(&e).unwrap();
                    found = Some((game, players, seq, lies));
                    break 'seeds;
                }
                continue 'seeds;
            }
            any_step(&mut game, &mut players, seed);
        }
    }
    let (game, _players, seq, lies) = found.expect("some seed lets the liar swap two armies");
    // The public replay accepts every entry: the lie cannot be seen without the values.
    Game::replay(&game.entries).map_err(|(_, e)| e).expect("public replay");
    // The omniscient pass knows the values from their commitment on: the lie is named.
    let cheats = match game.replay_omniscient() {
        Ok(g) => panic!("the swap is a cheat: entry {seq}: {lies:?} {:?}", g.steps[seq as usize].events),
        Err(c) => c,
    };
    assert_eq!((cheats[0].seq, cheats[0].seat.as_str(), cheats[0].rule.as_str()), (seq, liar, "TFWW 4.2/1"), "{cheats:?}");
    // And so does `umpire verify --hidden` on the log.
    let t = tempfile::tempdir().unwrap();
    let log = t.path().join("game.log");
    umpire::log::store::create_log(&log, &game.entries).unwrap();
    let o = umpire_in(t.path(), &["verify", "game.log", "--hidden"], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("CHEAT at entry {seq} by {liar}")), "{out}");
    // F.8: the game config holds no policy, so the default, forfeit, decides the verdict.
    assert!(
        out.contains(
            "verdict: F.8 (violation policy: forfeit): central_powers's alliance (central_powers) forfeits; its opponents (allies) win"
        ),
        "{out}"
    );
}

#[test]
fn the_f8_violation_policy_is_fixed_in_the_game_options() {
    use umpire::engine::{Ruleset, SeatInfo};
    use umpire::rules::first_world_war::FirstWorldWar;
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    let seats: Vec<SeatInfo> = FOUR.iter().map(|(s, side)| SeatInfo { seat: s.to_string(), side: side.to_string() }).collect();
    let with = |o: Option<&str>| {
        let v: Option<yaml_serde::Value> = o.map(|o| yaml_serde::from_str(o).unwrap());
        FirstWorldWar::setup(scenario.text, v.as_ref(), &seats).expect("setup")
    };
    let forfeit = FirstWorldWar::cheat_verdict(&with(None), "western_allies").expect("forfeit is the default");
    assert!(forfeit.contains("western_allies's alliance (allies) forfeits; its opponents (central_powers) win"), "{forfeit}");
    let explicit = FirstWorldWar::cheat_verdict(&with(Some("{violation_policy: forfeit}")), "german_allies").expect("forfeit");
    assert!(explicit.contains("(central_powers) forfeits; its opponents (allies) win"), "{explicit}");
    assert_eq!(FirstWorldWar::cheat_verdict(&with(Some("{violation_policy: report}")), "germany"), None, "report: no verdict");
    let bad = FirstWorldWar::setup(scenario.text, Some(&yaml_serde::from_str("{violation_policy: rollback}").unwrap()), &seats);
    assert!(bad.is_err(), "an unknown policy is refused at setup");
}

#[test]
fn show_as_a_seat_hides_the_opponents_face_down_pieces() {
    let seed = 31;
    let (mut game, mut players) = start(TWO, seed);
    let both = |g: &Game| {
        let s = fww(&g.state);
        ["allies", "central_powers"].iter().all(|side| s.pieces.iter().any(|p| p.faction.alliance() == *side))
    };
    while !both(&game) {
        any_step(&mut game, &mut players, seed);
    }
    let t = tempfile::tempdir().unwrap();
    let key = players.key("allies").unwrap().clone();
    write_log_and_key(t.path(), &game.entries, "allies", &key);
    let o = umpire_in(t.path(), &["show", "game.log", "--as", "allies", "--key", "allies.key"], None);
    assert!(o.status.success(), "{}", text(&o));
    let shown = text(&o);
    let o = umpire_in(t.path(), &["show", "game.log", "--as", "allies"], None);
    let public = text(&o);
    let seat = Game::replay_with(&game.entries, Knowledge::seat("allies", key)).map_err(|(_, e)| e).unwrap();
    let mine = fww(&seat.state);
    let (mut own, mut theirs) = (0, 0);
    for p in &mine.pieces {
        let unknown = format!("{}[{} face down: ?", p.id, p.faction.code());
        if p.faction.alliance() == "allies" {
            let Some(Ident::Army(a)) = p.ident else { continue };
            let known = format!("{}[{} face down: {}(", p.id, p.faction.code(), mine.name(a));
            assert!(shown.contains(&known), "allies see their own {known}:\n{shown}");
            assert!(public.contains(&unknown) && !public.contains(&known), "without the key nothing is known:\n{public}");
            own += 1;
        } else {
            assert!(p.ident.is_none(), "the seat-mode replay never learns {}", p.id);
            assert!(shown.contains(&unknown), "the opponent's {} shows as unknown:\n{shown}", p.id);
            theirs += 1;
        }
    }
    assert!(own > 0 && theirs > 0, "{own} own, {theirs} opponent's");
}
