//! Glory's End dummy counters (GE 15) through the whole protocol: bot games of a free
//! deployment (and a short campaign with a secret setup) with hidden stacks and dummies place
//! dummies in their secret plans, see dummies removed when attacked or opened, open every
//! counter at the end and pass `verify`'s omniscient pass; every replay agrees on the public
//! facts; no entry names a dummy; a real unit left hidden out of supply at phase G (a false
//! claim that it is a dummy) is named as a cheat; the option is refused where it cannot work.

use std::collections::{BTreeMap, BTreeSet};

use umpire::engine::bot::{self, Players};
use umpire::engine::game::{Game, GameError};
use umpire::engine::hidden::Knowledge;
use umpire::engine::{Committed, HiddenActs, Opened, Ruleset, SeatInfo};
use umpire::geo::hex::HexId;
use umpire::log::entry::{Body, Kind};
use umpire::rules::glorys_end::counters;
use umpire::rules::glorys_end::orders::{Action, ActionKind};
use umpire::rules::glorys_end::secret::{self, Deploy, Plan};
use umpire::rules::glorys_end::state::{Phase, SideId};
use umpire::rules::glorys_end::{GlorysEnd, Orders, State};

mod support;
use support::{players_with_keys, text, umpire_in};

mod common;
use common::{TIME, any_step, assert_hidden_game_verifies, facts_agree, ge};
const SEATS: &[(&str, &str)] = &[("german", "german"), ("allied", "allied")];

const FREE: &str = "glorys-end/free-deployment";
const FREE_DUMMIES: &str = "{hidden_counters: true, dummies: true}";
const SHORT: &str = "glorys-end/short-campaign";
const SHORT_DUMMIES: &str = "{hidden_counters: true, dummies: true, secret_setup: true}";

fn start(scenario: &str, seed: u64, options: &str) -> (Game, Players) {
    let sc = umpire::scenarios::find(scenario).expect("bundled");
    let opts = Some(yaml_serde::from_str(options).expect("options"));
    bot::start_game_with(sc, SEATS, seed, 16384, TIME, opts).expect("start")
}

fn play(scenario: &str, seed: u64, options: &str) -> (Game, Players) {
    let (mut game, mut players) = start(scenario, seed, options);
    let mut clock = || TIME.to_string();
    let mut keep = |_: &umpire::log::Entry, _: &Game| Ok(());
    if let Err(e) = bot::play_out(&mut game, &mut players, seed, 20_000, &mut clock, &mut keep) {
        panic!("{scenario} game {seed}: {e}");
    }
    (game, players)
}

/// The opened values of a game's counters (`c<n>`), by counter id.
fn counter_values(game: &Game) -> BTreeMap<String, String> {
    game.opened_values().into_iter().filter(|((_, id), _)| counters::is_counter_id(id)).map(|((_, id), v)| (id, v)).collect()
}

/// Every event text of a game with its rule.
fn events(game: &Game) -> Vec<(String, String)> {
    game.steps.iter().flat_map(|st| &st.events).map(|e| (e.rule.clone().unwrap_or_default(), e.text.clone())).collect()
}

#[test]
fn bot_games_with_dummies_verify() {
    let (mut removed, mut chains, mut claims) = (0, 0, 0);
    let (mut moved_on, mut again) = (0, 0);
    for (scenario, seed, options) in
        [(FREE, 1u64, FREE_DUMMIES), (FREE, 2, FREE_DUMMIES), (FREE, 3, FREE_DUMMIES), (SHORT, 1, SHORT_DUMMIES)]
    {
        let (game, _) = play(scenario, seed, options);
        assert_hidden_game_verifies(&game, &format!("{scenario} {seed}"));
        // Dummies were placed under counters, for both sides.
        let values = counter_values(&game);
        let dummies: BTreeSet<String> = values
            .values()
            .filter_map(|v| counters::parse_dummy(v))
            .map(|(n, _)| counters::nation_side(&n).expect("side").name().to_string())
            .collect();
        assert_eq!(dummies.len(), 2, "{scenario} {seed}: both sides place dummies: {dummies:?}");
        let ev = events(&game);
        removed += ev.iter().filter(|(_, t)| t.contains(" dummy, removed")).count();
        chains += ev.iter().filter(|(r, _)| r == "GE 15.2").count();
        moved_on += ev.iter().filter(|(r, t)| r == "GE 15.2" && t.contains("goes on moving")).count();
        again += ev.iter().filter(|(r, t)| r == "GE 15.2" && t.contains("may make another prepared assault")).count();
        // Every phase-G claim is true: the bot leaves only dummies hidden out of supply.
        for (r, t) in &ev {
            if r == "GE 15" && t.contains("declares it a dummy") {
                let id = t.split_whitespace().nth(3).expect("the counter");
                let v = values.get(id).unwrap_or_else(|| panic!("{scenario} {seed}: {id} is opened in the end"));
                assert!(v.starts_with("dummy:"), "{scenario} {seed}: {id} claimed a dummy at phase G is {v}");
                claims += 1;
            }
        }
    }
    eprintln!(
        "{removed} dummies removed, {chains} GE 15.2 events ({moved_on} march-assaulting forces moved on, {again} prepared-assaulting \
         forces advanced whole and may attack again), {claims} phase-G claims"
    );
    assert!(removed > 0, "some dummy is opened and removed");
    assert!(chains > 0, "some attack falls on dummies alone (GE 15.2)");
    assert!(moved_on > 0, "some march assault on dummies alone goes on moving");
    assert!(again > 0, "some prepared assault on dummies alone advances with every attacker");
}

#[test]
fn public_facts_agree_with_dummies() {
    let (game, players) = play(FREE, 4, FREE_DUMMIES);
    assert!(counter_values(&game).values().any(|v| v.starts_with("dummy:")), "the game places dummies");
    facts_agree(&game, &players);
}

#[test]
fn no_entry_names_a_dummy() {
    for (scenario, seed, options) in [(FREE, 5u64, FREE_DUMMIES), (SHORT, 2, SHORT_DUMMIES)] {
        let (game, _) = play(scenario, seed, options);
        let values = game.opened_values();
        let dummies = values.values().filter(|v| v.starts_with("dummy:")).count();
        assert!(dummies > 0, "{scenario} {seed}: dummies placed");
        let mut checked = 0;
        for e in &game.entries[1..] {
            let Some(orders) = &e.draft.body.orders else { continue };
            let t = yaml_serde::to_string(orders).expect("yaml");
            // The value of a dummy travels only in an opening, never in plain orders.
            assert!(!t.contains("dummy:"), "entry {} by {} names a dummy:\n{t}", e.seq(), e.seat());
            // Nor does any committed value (`unit:DE-7:3`, `dummy:FR:2`, a sealed plan).
            for v in values.values() {
                assert!(!t.contains(v.as_str()), "entry {} by {} leaks the committed value {v}", e.seq(), e.seat());
            }
            checked += 1;
        }
        assert!(checked > 50, "{scenario} {seed}: {checked} entries with orders checked");
    }
}

/// The cheat: at the end of its combat phase, `seat` leaves hidden a counter it knows to be a
/// real unit out of supply (the public replay reads it as a claim that it is a dummy). Returns
/// the entry's seq, the counter and its committed value, once the game reaches such a moment.
fn claim_a_unit(game: &mut Game, players: &mut Players, seat: &str) -> Option<(u64, String, String)> {
    let view = players.view(game, seat).ok()??.clone();
    let mine = ge(&view.state);
    let side = mine.side_of(seat)?;
    if mine.player != side || mine.phase != Phase::Combat || mine.battle.is_some() || game.pending.is_some() {
        return None;
    }
    let due = counters::due_at_attrition(mine);
    let id = due.first()?.clone();
    let c = mine.counters.as_ref()?;
    let value = c.known.get(&id).and_then(|uid| c.batches.iter().flatten().find(|x| &x.id == uid)).map(counters::value_of)?;
    let mut body = Body::new(Kind::Orders);
    body.orders = Some(yaml_serde::from_str("actions: [{end_phase: combat}]").ok()?);
    let e = bot::sign_body(game, seat, players, body, TIME.into()).ok()?;
    game.apply(&e).expect("the public replay reads the counter left hidden as a claimed dummy");
    Some((e.seq(), id, value))
}

#[test]
fn a_real_unit_claimed_as_dummy_is_named_by_verify() {
    let mut found = None;
    'games: for (scenario, seed, options) in
        [(SHORT, 3u64, SHORT_DUMMIES), (SHORT, 4, SHORT_DUMMIES), (FREE, 6, FREE_DUMMIES), (FREE, 7, FREE_DUMMIES)]
    {
        let (mut game, mut players) = start(scenario, seed, options);
        for _ in 0..4000 {
            if game.outcome().is_some() {
                continue 'games;
            }
            for seat in ["german", "allied"] {
                if let Some(c) = claim_a_unit(&mut game, &mut players, seat) {
                    found = Some((scenario, seed, game, players, seat, c));
                    break 'games;
                }
            }
            any_step(&mut game, &mut players, seed);
        }
    }
    let (scenario, seed, game, players, seat, (seq, id, value)) =
        found.expect("some game leaves a hidden real unit out of supply at the end of a combat phase");
    let claimed = ge(&game.state).counters.as_ref().is_some_and(|c| c.claimed_dummies.contains(&id));
    assert!(claimed, "{scenario} {seed}: {id} is publicly claimed as a dummy");
    // The public replay cannot see the lie.
    Game::replay(&game.entries).map_err(|(_, e)| e).expect("the public replay accepts every entry");
    // The omniscient pass knows the counter's value (the owner's commitment) and names the entry.
    let mut values = game.opened_values();
    values.insert((seat.to_string(), id.clone()), value.clone());
    let (at, by, msg) = refusal(Game::replay_with(&game.entries, Knowledge::omniscient(values)));
    assert_eq!((at, by.as_str()), (seq, seat), "the omniscient pass names the entry: {msg}");
    assert!(msg.contains(&id) && msg.contains("GE 7.12"), "{msg}");
    // The owner's own replay (its key knows the counter) refuses the entry too.
    let key = players.key(seat).expect("key").clone();
    let (at, _, msg) = refusal(Game::replay_with(&game.entries, Knowledge::seat(seat, key)));
    assert_eq!(at, seq, "the owner's replay refuses the claim: {msg}");
}

/// The entry a replay refused, its seat and the refusal.
fn refusal(r: Result<Game, (Option<Box<Game>>, GameError)>) -> (u64, String, String) {
    match r {
        Ok(_) => panic!("the replay accepts a false claim that a unit is a dummy"),
        Err((_, GameError::Orders { seq, seat, error })) => (seq, seat, format!("{error} {error:?}")),
        Err((_, e)) => panic!("refused for another reason: {e}"),
    }
}

#[test]
fn dummies_refused_without_hidden_counters_or_secret_setup() {
    let seats = vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let setup = |scenario: &str, options: &str| {
        let sc = umpire::scenarios::find(scenario).expect("bundled");
        let opts: yaml_serde::Value = yaml_serde::from_str(options).expect("yaml");
        GlorysEnd::setup(sc.text, Some(&opts), &seats).map(|_| ())
    };
    // The ruleset's setup: the Marne has no secret setup; a free deployment needs hidden stacks.
    let marne = setup("glorys-end/marne", FREE_DUMMIES).expect_err("the Marne has no secret setup");
    assert!(marne.problems.iter().any(|p| p.starts_with("GE 15.1") && p.contains("secret")), "{:?}", marne.problems);
    let bare = setup(FREE, "{dummies: true}").expect_err("dummies need hidden stacks");
    assert!(bare.problems.iter().any(|p| p.starts_with("GE 15.1") && p.contains("hidden_counters")), "{:?}", bare.problems);
    let campaign = setup(SHORT, FREE_DUMMIES).expect_err("a historical campaign needs secret_setup");
    assert!(campaign.problems.iter().any(|p| p.starts_with("GE 15.1") && p.contains("secret")), "{:?}", campaign.problems);
    // Where both are on, the setup accepts the option and supplies the dummies.
    setup(FREE, FREE_DUMMIES).expect("a free deployment with hidden stacks takes dummies");
    setup(SHORT, SHORT_DUMMIES).expect("a secret short campaign takes dummies");
    // And `umpire new` refuses the genesis with the rule named.
    let t = tempfile::tempdir().unwrap();
    let (alice, _) = players_with_keys(t.path());
    for (scenario, options) in [("glorys-end/marne", vec!["hidden_counters=true", "dummies=true"]), (FREE, vec!["dummies=true"])] {
        let mut args = vec!["new", "--scenario", scenario, "--seat", "german=alice.pub", "--seat", "allied=bob.pub"];
        args.extend(["--as", "german", "--key", "alice.key", "-o", "game.log"]);
        for o in &options {
            args.extend(["--option", o]);
        }
        let o = umpire_in(&alice, &args, None);
        let out = text(&o);
        assert!(!o.status.success(), "{scenario} {options:?}: refused\n{out}");
        assert!(out.contains("GE 15.1"), "{scenario} {options:?}: the error names GE 15.1\n{out}");
        assert!(!alice.join("game.log").exists(), "no log is written");
    }
}

/// The public and the omniscient replay of one placement, entry by entry, as the engine
/// drives them (conceal on the author's state, commit, open, validate, apply, invariants).
struct Placement {
    public: State,
    omniscient: State,
    values: BTreeMap<String, String>,
}

impl Placement {
    fn send(&mut self, seat: &str, kind: ActionKind) {
        let orders = Orders { actions: vec![Action(kind)] };
        let c = GlorysEnd::conceal(&self.omniscient, seat, orders, &umpire::engine::IdOrder::trial()).expect("conceal");
        self.values.extend(c.commit.iter().cloned());
        for (s, known) in [(&mut self.public, false), (&mut self.omniscient, true)] {
            let mut acts = HiddenActs {
                committed: c.commit.iter().map(|(id, v)| Committed { id: id.clone(), value: known.then(|| v.clone()) }).collect(),
                opened: c.open.iter().map(|id| Opened { id: id.clone(), value: self.values[id].clone(), draw: None }).collect(),
            };
            GlorysEnd::hidden(s, seat, &mut acts).expect("hidden");
            let legal = GlorysEnd::validate(s, seat, c.orders.clone()).unwrap_or_else(|r| panic!("{:?}", r.violations));
            GlorysEnd::apply(s, seat, legal);
            GlorysEnd::check_invariants(s).expect("invariants");
        }
    }
}

/// A German plan with as many SL of units in one hex as fit, and dummies there to make ten
/// with one SL each (legal: a dummy has no SL, G.4 item 22 reading); the hex and its SL.
fn full_stack_and_dummies(state: &State) -> Option<(Plan, HexId, u32)> {
    let side = SideId::German;
    let mut plan = secret::default_plan(state, side);
    plan.dummies.clear();
    let sl = |p: &Plan, h: HexId| -> u32 {
        p.units.iter().filter(|(_, x)| **x == h).filter_map(|(id, _)| state.unit(id)).map(|u| u.sl as u32).sum()
    };
    let mut hexes: Vec<HexId> = plan.units.values().copied().collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        let mut trial = plan.clone();
        for id in plan.units.keys() {
            let Some(u) = state.unit(id) else { continue };
            if sl(&trial, h) == 9 {
                break;
            }
            if trial.units[id] == h || sl(&trial, h) + u.sl as u32 > 9 {
                continue;
            }
            let mut t = trial.clone();
            t.units.insert(id.clone(), h);
            if secret::check_plan(state, side, &t).is_empty() {
                trial = t;
            }
        }
        let k = 10u32.saturating_sub(sl(&trial, h));
        trial.dummies.insert("DE".into(), vec![h; k as usize]);
        if k <= 3 && secret::check_plan(state, side, &trial).is_empty() {
            return Some((trial.clone(), h, sl(&trial, h)));
        }
    }
    None
}

/// GE 6.1 with dummies (GE 15): a stack of 8 SL and two dummies is legal (the plan check counts
/// a dummy as 0 SL); once its units are opened and the dummies are not, the two placeholders
/// must not push the public count over the limit: with dummies on a placeholder counts 0 SL
/// (`counters::stack_sl`).
#[test]
fn a_full_stack_and_dummies_stay_legal_when_the_units_are_opened() {
    let seats = vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let opts: yaml_serde::Value = yaml_serde::from_str(FREE_DUMMIES).expect("yaml");
    let sc = umpire::scenarios::find(FREE).expect("bundled");
    let s = GlorysEnd::setup(sc.text, Some(&opts), &seats).expect("setup");
    let (plan, h, sl) = full_stack_and_dummies(&s).expect("a German hex takes 7 SL or more and dummies");
    let mut p = Placement { public: s.clone(), omniscient: s.clone(), values: BTreeMap::new() };
    let allied = secret::default_plan(&s, SideId::Allied);
    p.send("allied", ActionKind::Deploy(Deploy { plan: Some(allied), ..Deploy::default() }));
    p.send("german", ActionKind::Deploy(Deploy { plan: Some(plan), ..Deploy::default() }));
    for seat in ["allied", "german"] {
        p.send(seat, ActionKind::Deploy(Deploy { reveal: true, ..Deploy::default() }));
    }
    // The German opens the units of the hex, not the dummy.
    let opened: Vec<(String, String)> = p
        .omniscient
        .units_at(h)
        .filter(|u| counters::is_hidden(u))
        .filter_map(|u| Some((u.id.clone(), p.values.get(&u.id)?.clone())))
        .filter(|(_, v)| !v.starts_with("dummy:"))
        .collect();
    assert!(!opened.is_empty(), "units under counters in {h}");
    for s in [&mut p.public, &mut p.omniscient] {
        let opened = opened.iter().map(|(id, v)| Opened { id: id.clone(), value: v.clone(), draw: None }).collect();
        let mut acts = HiddenActs { committed: vec![], opened };
        GlorysEnd::hidden(s, "german", &mut acts).expect("the openings are accepted");
        let shown: u32 = s.units_at(h).filter(|u| !counters::is_hidden(u)).map(|u| u.sl as u32).sum();
        assert_eq!(shown, sl, "{sl} SL shown in {h}, the dummies still hidden");
        GlorysEnd::check_invariants(s).expect("units of 9 SL or less and dummies are within the stacking limit");
    }
}

/// GE 3.6 under counters: a German free deployment that invades the Netherlands (hexes of the
/// map data that come into play only with the invasion) is placed under counters like any
/// other. The placement used to check "off the map" before the invasion took effect, so a bot
/// plan with units in the Netherlands (DE-10 in 1419, seed 10 of the dummy selfplay) could not
/// be placed and the game stopped.
#[test]
fn a_dutch_invasion_is_placed_under_counters() {
    let seats = vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let opts: yaml_serde::Value = yaml_serde::from_str(FREE_DUMMIES).expect("yaml");
    let s = GlorysEnd::setup(umpire::scenarios::find(FREE).expect("bundled").text, Some(&opts), &seats).expect("setup");
    let dutch = |h: &HexId| s.board.map().hex(*h).is_some_and(|i| i.country == umpire::rules::glorys_end::map::Country::Netherlands);
    let plan = (0..=255u8)
        .map(|k| secret::bot_plan(&s, SideId::German, &mut umpire::dice::Dice::from_seed(&umpire::crypto::Hash([k; 32]))))
        .find(|p| p.units.values().any(dutch))
        .expect("some German bot plan invades the Netherlands (GE 3.6)");
    assert_eq!(secret::check_plan(&s, SideId::German, &plan), vec![], "the invading plan is legal");
    let mut p = Placement { public: s.clone(), omniscient: s.clone(), values: BTreeMap::new() };
    p.send("allied", ActionKind::Deploy(Deploy { plan: Some(secret::default_plan(&s, SideId::Allied)), ..Deploy::default() }));
    p.send("german", ActionKind::Deploy(Deploy { plan: Some(plan), ..Deploy::default() }));
    for seat in ["allied", "german"] {
        p.send(seat, ActionKind::Deploy(Deploy { reveal: true, ..Deploy::default() }));
    }
    for st in [&p.public, &p.omniscient] {
        assert!(st.units.iter().filter_map(|u| u.hex()).any(|h| dutch(&h)), "German units or counters stand in the Netherlands");
    }
}
