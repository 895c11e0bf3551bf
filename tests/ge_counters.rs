//! Glory's End hidden stacks (GE 13.8) through the whole protocol, as tests/fww_hidden.rs does
//! for The First World War: bot games (which hide stacks and open everything at the end) pass
//! `verify`'s omniscient pass; the public, seat and omniscient replays agree on every public
//! fact after every entry; no entry names a unit while it is hidden; a hidden counter moved
//! further than its unit may go is named as a cheat by `verify --hidden`; `show --as SEAT
//! --key K` knows that seat's counters and not the enemy's.

use std::collections::{BTreeMap, BTreeSet};

use umpire::crypto::commit;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::hidden::Knowledge;
use umpire::log::entry::{Body, Kind, Opening};
use umpire::rules::glorys_end::State;
use umpire::rules::glorys_end::counters;
use umpire::rules::glorys_end::state::{Phase, SideId};

mod support;
use support::{text, umpire_in, write_log_and_key};

mod common;
use common::{TIME, any_step, assert_hidden_game_verifies, facts_agree, ge};
const SEATS: &[(&str, &str)] = &[("german", "german"), ("allied", "allied")];

fn options() -> Option<yaml_serde::Value> {
    Some(yaml_serde::from_str("{hidden_counters: true}").expect("options"))
}

fn start(scenario: &str, seed: u64) -> (Game, Players) {
    let sc = umpire::scenarios::find(scenario).expect("bundled");
    bot::start_game_with(sc, SEATS, seed, 16384, TIME, options()).expect("start")
}

fn play(scenario: &str, seed: u64) -> (Game, Players) {
    let (mut game, mut players) = start(scenario, seed);
    let mut clock = || TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 20_000, &mut clock, &mut keep) {
        panic!("{scenario} game {seed}: {e}");
    }
    (game, players)
}

/// Counter commitments of a game (`c<n>`), by seat.
fn counter_commitments(game: &Game) -> Vec<(String, String)> {
    game.commitments.keys().filter(|(_, id)| counters::is_counter_id(id)).cloned().collect()
}

#[test]
fn bot_games_open_every_counter_and_pass_verify() {
    let mut sides = BTreeSet::new();
    let mut shown = 0;
    for (scenario, seed) in [("glorys-end/marne", 2u64), ("glorys-end/marne", 3), ("glorys-end/marne", 4), ("glorys-end/short-campaign", 1)]
    {
        let (game, _) = play(scenario, seed);
        assert!(game.outcome().is_some(), "{scenario} {seed}: a result");
        let hidden = counter_commitments(&game);
        assert!(hidden.len() >= 4, "{scenario} {seed}: the bot hides stacks ({} counters)", hidden.len());
        sides.extend(hidden.into_iter().map(|(s, _)| s));
        // Attacks on hidden counters: the odds wait for the defender's openings.
        shown += game
            .steps
            .iter()
            .flat_map(|st| &st.events)
            .filter(|e| e.text.contains("the odds are computed when the defender opens"))
            .count();
        assert_hidden_game_verifies(&game, &format!("{scenario} {seed}"));
    }
    assert_eq!(sides.len(), 2, "both sides hide stacks: {sides:?}");
    assert!(shown > 0, "some attacks fall on hidden defenders");
}

#[test]
fn public_facts_agree_in_every_mode() {
    let (game, players) = play("glorys-end/marne", 4);
    assert!(counter_commitments(&game).len() >= 4, "the game hides stacks");
    facts_agree(&game, &players);
}

/// A free deployment placed under counters (GE 3.3 with 13.8): the plans stay sealed until the
/// end, every replay agrees on the public facts, and verify's omniscient pass re-checks it all.
#[test]
fn a_free_deployment_under_counters_agrees_in_every_mode_and_verifies() {
    let (game, players) = play("glorys-end/free-deployment", 1);
    assert!(game.outcome().is_some(), "a result");
    assert!(counter_commitments(&game).len() >= 20, "the placement puts most units under counters");
    assert_eq!(game.unopened(), vec![], "every commitment, the plans too, is opened by the end");
    game.replay_omniscient().unwrap_or_else(|c| panic!("cheats {c:?}"));
    facts_agree(&game, &players);
}

/// Whether `hay` holds `word` as a whole token (`FR-1` is not in `FR-12`).
fn has_token(hay: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-';
    hay.match_indices(word).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

#[test]
fn no_entry_names_a_hidden_unit() {
    // Several Marne games (some end early by the German automatic win), one long one.
    let mut checked = 0;
    for (scenario, seed) in
        [("glorys-end/marne", 5u64), ("glorys-end/marne", 6), ("glorys-end/marne", 7), ("glorys-end/free-deployment", 2)]
    {
        let (game, _) = play(scenario, seed);
        let mut g = Game::from_genesis_with(&game.entries[0], Knowledge::omniscient(game.opened_values())).expect("genesis");
        let known = |g: &Game| -> BTreeMap<String, String> { ge(&g.state).counters.as_ref().map(|c| c.known.clone()).unwrap_or_default() };
        for e in &game.entries[1..] {
            // Units under a counter before this entry, less those the entry opens (its orders
            // name them by their own ids once opened), and units the entry itself hides.
            let opened: BTreeSet<&str> = e.draft.body.open.iter().flatten().map(|o| o.id.as_str()).collect();
            let before = known(&g);
            g.apply(e).unwrap_or_else(|err| panic!("{scenario} entry {}: {err}", e.seq()));
            let after = known(&g);
            if let Some(orders) = &e.draft.body.orders {
                let t = yaml_serde::to_string(orders).expect("yaml");
                // A `hide` names the units it hides (the set is public: they were shown); a
                // secret placement names none of those it puts under counters.
                let placed = after.iter().filter(|(cid, _)| !before.contains_key(*cid) && t.contains("deploy"));
                let hidden: BTreeSet<String> =
                    before.iter().filter(|(cid, _)| !opened.contains(cid.as_str())).chain(placed).map(|(_, u)| u.clone()).collect();
                for u in &hidden {
                    assert!(!has_token(&t, u), "{scenario}: entry {} by {} names {u}, hidden then:\n{t}", e.seq(), e.seat());
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "{scenario} seed {seed}: names were checked");
    }
    assert!(checked > 300, "{checked} checks");
}

/// A path of `len` hexes from `from` that the public replay lets a placeholder move along:
/// away from the enemy, tried by stepping a copy of the public state.
fn long_path(state: &State, id: &str, len: usize) -> Option<Vec<umpire::geo::hex::HexId>> {
    use umpire::rules::glorys_end::orders::{ActionKind, Move};
    let from = state.unit(id)?.hex()?;
    let enemy = |h: umpire::geo::hex::HexId| state.board.neighbours(h).iter().any(|&n| state.occupant(n) == Some(SideId::Allied));
    // Depth-first over quiet hexes, the first path of the length that the public accepts.
    let mut stack = vec![vec![from]];
    let mut tries = 0;
    while let Some(p) = stack.pop() {
        tries += 1;
        if tries > 20_000 {
            return None;
        }
        let at = *p.last()?;
        if p.len() == len + 1 {
            let path = p[1..].to_vec();
            let mut probe = state.clone();
            let a = ActionKind::Move(Move { units: vec![id.to_string()], path: path.clone() });
            if umpire::rules::glorys_end::turn::step(&mut probe, SideId::German, &a).is_ok() {
                return Some(path);
            }
            continue;
        }
        for &n in state.board.neighbours(at) {
            if !p.contains(&n) && state.occupant(n).is_none() && !enemy(n) && state.board.entry_cost(at, n).is_some() {
                let mut q = p.clone();
                q.push(n);
                stack.push(q);
            }
        }
    }
    None
}

/// The lie: in its movement phase the German moves a hidden counter further than its unit's
/// movement allowance (the public sees a placeholder, which may go anywhere), then opens it
/// voluntarily in its next entry. Returns the lie's seq and the counter.
fn lie(game: &mut Game, players: &mut Players) -> Option<(u64, String)> {
    let view = players.view(game, "german").ok()??.clone();
    let mine = ge(&view.state);
    let c = mine.counters.as_ref()?;
    for u in mine.units.iter().filter(|u| u.side == SideId::German && counters::is_hidden(u) && !u.moved) {
        let real = counters::real(mine, u)?;
        let reveal = players.next_reveal(game, "german").ok()?;
        let (after, _) = game.state_before("german", reveal.as_ref());
        let Some(path) = long_path(ge(&after), &u.id, real.now().movement as usize + 2) else { continue };
        let value = c.known.get(&u.id).and_then(|uid| c.batches.iter().flatten().find(|x| &x.id == uid)).map(counters::value_of)?;
        let key = players.key("german").ok()?.clone();
        let mut body = Body::new(Kind::Orders);
        let orders =
            serde_json::json!({"actions": [{"move": {"units": [u.id], "path": path.iter().map(|h| h.to_string()).collect::<Vec<_>>()}}]});
        body.orders = Some(yaml_serde::to_value(orders).ok()?);
        let e = bot::sign_body(game, "german", players, body, TIME.into()).ok()?;
        game.apply(&e).expect("the public replay cannot see the lie");
        // The next entry opens the counter (a voluntary opening) and ends the phase.
        let mut body = Body::new(Kind::Orders);
        body.orders = Some(yaml_serde::from_str("actions: [{end_phase: movement}]").ok()?);
        body.open = Some(vec![Opening { id: u.id.clone(), salt: commit::salt(&key.seed(), &game.id(), &u.id), value }]);
        let o = bot::sign_body(game, "german", players, body, TIME.into()).ok()?;
        game.apply(&o).expect("the opening is public and consistent");
        return Some((e.seq(), u.id.clone()));
    }
    None
}

#[test]
fn a_lie_is_named_by_verify() {
    let mut found = None;
    'seeds: for seed in 6..16u64 {
        let (mut game, mut players) = start("glorys-end/marne", seed);
        for _ in 0..600 {
            if game.outcome().is_some() {
                continue 'seeds;
            }
            // The German turn as his next entry meets it: after the leading roll that opens it.
            let reveal = players.next_reveal(&game, "german").unwrap();
            let (after, _) = game.state_before("german", reveal.as_ref());
            let s = ge(&after);
            let german_moves = game.waiting_for().first().is_some_and(|(w, _)| w == "german")
                && s.player == SideId::German
                && s.phase == Phase::Movement
                && s.battle.is_none()
                && game.pending.is_none()
                && !s.units.iter().any(|u| u.side == SideId::German && u.moved)
                && s.units.iter().any(|u| u.side == SideId::German && counters::is_hidden(u));
            if german_moves && let Some(l) = lie(&mut game, &mut players) {
                found = Some((game, l));
                break 'seeds;
            }
            any_step(&mut game, &mut players, seed);
        }
    }
    let (game, (seq, counter)) = found.expect("some seed gives the German a hidden counter to move too far");
    Game::replay(&game.entries).map_err(|(_, e)| e).expect("the public replay accepts every entry");
    let cheats = match game.replay_omniscient() {
        Ok(_) => panic!("moving {counter} beyond its MP at entry {seq} is a cheat"),
        Err(c) => c,
    };
    assert_eq!((cheats[0].seq, cheats[0].seat.as_str()), (seq, "german"), "{cheats:?}");
    assert!(cheats[0].rule.starts_with("GE 12"), "a movement rule: {cheats:?}");
    // And so does `umpire verify --hidden` on the log.
    let t = tempfile::tempdir().unwrap();
    umpire::log::store::create_log(&t.path().join("game.log"), &game.entries).unwrap();
    let o = umpire_in(t.path(), &["verify", "game.log", "--hidden"], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("CHEAT at entry {seq} by german")), "{out}");
}

#[test]
fn show_as_a_seat_hides_enemy_identities() {
    let seed = 7;
    let (mut game, mut players) = start("glorys-end/marne", seed);
    let both = |g: &Game| {
        let s = ge(&g.state);
        [SideId::German, SideId::Allied].iter().all(|side| s.units.iter().any(|u| u.side == *side && counters::is_hidden(u)))
    };
    for _ in 0..2000 {
        if both(&game) {
            break;
        }
        any_step(&mut game, &mut players, seed);
    }
    assert!(both(&game), "both sides hide stacks");
    let t = tempfile::tempdir().unwrap();
    let key = players.key("allied").unwrap().clone();
    write_log_and_key(t.path(), &game.entries, "allied", &key);
    let o = umpire_in(t.path(), &["show", "game.log", "--as", "allied", "--key", "allied.key"], None);
    assert!(o.status.success(), "{}", text(&o));
    let shown = text(&o);
    let public = text(&umpire_in(t.path(), &["show", "game.log"], None));
    let seat = Game::replay_with(&game.entries, Knowledge::seat("allied", key)).map_err(|(_, e)| e).unwrap();
    let mine = ge(&seat.state);
    let ids: BTreeMap<&str, &str> = mine.counters.as_ref().unwrap().known.iter().map(|(c, u)| (c.as_str(), u.as_str())).collect();
    let (mut own, mut theirs) = (0, 0);
    for u in mine.units.iter().filter(|u| counters::is_hidden(u)) {
        let line = |s: &str| s.lines().find(|l| l.contains(&format!("unit {} hidden", u.id))).map(str::to_string);
        let seen = line(&shown).unwrap_or_else(|| panic!("{} is listed:\n{shown}", u.id));
        let open = line(&public).unwrap_or_else(|| panic!("{} is listed in public:\n{public}", u.id));
        assert!(!open.contains("; is "), "without the key nothing is known: {open}");
        if u.side == SideId::Allied {
            let id = ids.get(u.id.as_str()).unwrap_or_else(|| panic!("the allied seat knows its own {}", u.id));
            assert!(seen.contains(&format!("; is {id}")), "allied see their own {}: {seen}", u.id);
            own += 1;
        } else {
            assert!(!ids.contains_key(u.id.as_str()), "the seat-mode replay never learns {}", u.id);
            assert!(!seen.contains("; is "), "the enemy's {} shows as unknown: {seen}", u.id);
            theirs += 1;
        }
    }
    assert!(own > 0 && theirs > 0, "{own} own, {theirs} enemy's");
}
