//! Steel Wheels' indirect fire pre-planned on a target hidden among decoys (SW-IFP-5, G.2)
//! seen by a hostile opponent: the request entry must say the same whichever marker is real
//! and in whatever order the player wrote them (orders, ids, lengths), and in phase 4 the
//! firer can neither open a decoy instead, nor forge the salt, nor pass without opening.

mod common;

use common::{TIME, any_step, body_of};
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::registry::AnyState;
use umpire::geo::table::Point;
use umpire::log::entry::Body;
use umpire::rules::steel_wheels::indirect::{self, check_marker};
use umpire::rules::steel_wheels::orders::{Orders, Request};
use umpire::rules::steel_wheels::state::{Phase, State};

fn sw(game: &Game) -> &State {
    match &game.state {
        AnyState::SteelWheels(s) => s,
        _ => unreachable!("a Steel Wheels game"),
    }
}

/// A bot game of Crossroads at the US phase 2 (the US seat due, nothing pending).
fn at_the_request(seed: u64) -> (Game, Players) {
    let sc = umpire::scenarios::find("steel-wheels/crossroads").expect("bundled");
    let (mut game, mut players) = bot::start_game(sc, &[("us", "us"), ("de", "de")], seed, 600, TIME).expect("start");
    while game.outcome().is_none() && game.next_seq() < 600 {
        if matches!(&sw(&game).phase, Phase::Request { side } if side == "us")
            && game.pending.is_none()
            && game.waiting_for().iter().any(|(w, _)| w == "us")
        {
            return (game, players);
        }
        any_step(&mut game, &mut players, seed);
    }
    panic!("seed {seed}: no US phase 2");
}

/// Four points the US observer may mark now, found on a grid.
fn four_points(s: &State) -> Vec<Point> {
    let b = &s.scenario.batteries[0];
    let obs = s.unit(&b.observer).expect("observer").clone();
    let mut out = Vec::new();
    for x in (100..1400).step_by(97) {
        for y in (60..960).step_by(89) {
            let p = Point { x, y };
            if out.len() < 4 && check_marker(s, "us", &obs, p).is_ok() {
                out.push(p);
            }
        }
    }
    assert_eq!(out.len(), 4, "four markable points");
    out
}

/// The request as a player writes it: `target` real, the decoys in the given order.
fn written(real: Point, decoys: &[Point]) -> Orders {
    Orders {
        indirect: Some(Request {
            battery: "us-b1".into(),
            target: Some([real.x, real.y]),
            markers: decoys.iter().map(|p| [p.x, p.y]).collect(),
        }),
        ..Orders::default()
    }
}

fn without(v: &[Point], i: usize) -> Vec<Point> {
    v.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, p)| *p).collect()
}

#[test]
fn the_request_entry_says_nothing_of_which_marker_is_real() {
    for seed in [1u64, 2] {
        let (game, mut players) = at_the_request(seed);
        let pts = four_points(sw(&game));
        let mut bodies: Vec<Body> = Vec::new();
        for real in 0..4 {
            let decoys = without(&pts, real);
            let mut reversed = decoys.clone();
            reversed.reverse();
            for d in [decoys, reversed] {
                bodies.push(body_of(&game, &mut players, "us", &written(pts[real], &d)));
            }
        }
        let text = |b: &Body| yaml_serde::to_string(b).expect("yaml");
        let first = &bodies[0];
        let public: Orders = yaml_serde::from_value(first.orders.clone().unwrap()).unwrap();
        let r = public.indirect.expect("a request");
        assert_eq!(r.target, None, "the real target never goes into the log");
        let mut sorted = pts.clone();
        sorted.sort_by_key(|p| (p.x, p.y));
        assert_eq!(r.markers, sorted.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(), "the markers in x-then-y order");
        for b in &bodies {
            // The same public orders, one commitment with the same id, the same lengths.
            assert_eq!(b.orders, first.orders, "seed {seed}");
            let ids: Vec<String> = b.commit.as_ref().unwrap().iter().map(|c| c.id.clone()).collect();
            assert_eq!(ids, vec!["if-t1-us-b1".to_string()]);
            assert_eq!(b.open, None);
            assert_eq!(b.sealed.as_ref().map(String::len), first.sealed.as_ref().map(String::len), "sealed note length");
            assert_eq!(text(b).len(), text(first).len(), "the whole body's length");
        }
        // The same real marker written in another order gives the very same body; another
        // real marker a different digest (the commitment binds).
        assert_eq!(bodies[0], bodies[1]);
        assert_ne!(bodies[0].commit, bodies[2].commit);
    }
}

#[test]
fn a_refused_marker_is_refused_alike_whichever_it_is() {
    let (game, _players) = at_the_request(1);
    let s = sw(&game);
    let pts = four_points(s);
    // A point deep in the north wood (IFP-6), written as the real target or as a decoy.
    let bad = Point { x: 700, y: 760 };
    let as_real = indirect::check_written(
        s,
        "us",
        &Request { battery: "us-b1".into(), target: Some([bad.x, bad.y]), markers: pts[..3].iter().map(|p| [p.x, p.y]).collect() },
    )
    .unwrap_err();
    let as_decoy = indirect::check_written(
        s,
        "us",
        &Request {
            battery: "us-b1".into(),
            target: Some([pts[0].x, pts[0].y]),
            markers: [pts[1], pts[2], bad].iter().map(|p| [p.x, p.y]).collect(),
        },
    )
    .unwrap_err();
    let text = |v: &[umpire::engine::Violation]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(text(&as_real), text(&as_decoy), "the refusal never tells which marker was meant to be real");
    assert!(text(&as_real)[0].contains("SW-IFP-6"), "{as_real:?}");
}

/// Play from the request (real marker `real` of the four points) to the US phase 4.
fn at_phase_4(seed: u64, real: usize) -> (Game, Players, Vec<Point>) {
    let (mut game, mut players) = at_the_request(seed);
    let pts = four_points(sw(&game));
    let body = body_of(&game, &mut players, "us", &written(pts[real], &without(&pts, real)));
    let e = bot::sign_body(&game, "us", &mut players, body, TIME.into()).expect("sign");
    bot::apply_signed(&mut game, &mut players, e).expect("the request is accepted");
    while game.outcome().is_none() && game.next_seq() < 600 {
        if matches!(&sw(&game).phase, Phase::Barrage { side } if side == "us")
            && game.pending.is_none()
            && game.waiting_for().iter().any(|(w, _)| w == "us")
        {
            let mut sorted = pts.clone();
            sorted.sort_by_key(|p| (p.x, p.y));
            return (game, players, sorted);
        }
        any_step(&mut game, &mut players, seed);
    }
    panic!("seed {seed}: the game never reached the US phase 4");
}

fn barrage() -> Orders {
    Orders { barrage: true, ..Orders::default() }
}

#[test]
fn the_firer_cannot_open_a_decoy_forge_the_salt_or_withhold_the_opening() {
    let seed = 3;
    let (mut game, mut players, sorted) = at_phase_4(seed, 2);
    let honest = body_of(&game, &mut players, "us", &barrage());
    let open = honest.open.clone().expect("the tool opens the plan due");
    assert_eq!(open.len(), 1);
    let real_k: usize = open[0].value.rsplit(':').next().unwrap().parse().unwrap();
    assert!(sw(&game).plans.iter().any(|p| p.markers == sorted), "the plan holds the four public markers");

    // Opening a decoy instead: every other place is refused (the digest does not match).
    for k in (1..=4).filter(|&k| k != real_k) {
        let mut b = honest.clone();
        let mut o = open.clone();
        o[0].value = indirect::value("us-b1", 1, k);
        b.open = Some(o);
        let e = bot::sign_body(&game, "us", &mut players, b, TIME.into()).expect("sign");
        assert!(game.apply(&e).is_err(), "opening decoy {k} must be refused");
    }
    // A forged salt with the true value is refused too.
    let mut b = honest.clone();
    let mut o = open.clone();
    o[0].salt = umpire::crypto::sha256(b"not my salt");
    b.open = Some(o);
    let e = bot::sign_body(&game, "us", &mut players, b, TIME.into()).expect("sign");
    assert!(game.apply(&e).is_err(), "a forged salt must be refused");
    // Withholding the opening: the phase-4 entry without it is refused, and the game still
    // waits for the US seat alone (no result, nobody else expected).
    let mut b = honest.clone();
    b.open = None;
    let e = bot::sign_body(&game, "us", &mut players, b, TIME.into()).expect("sign");
    let err = game.apply(&e).expect_err("an entry withholding the opening must be refused");
    assert!(format!("{err}").contains("SW-PBEM-2"), "{err}");
    let mut orders = Body::new(umpire::log::entry::Kind::Orders);
    orders.orders = Some(yaml_serde::to_value(Orders { platoon: Some("us-tanks".into()), ..Orders::default() }).unwrap());
    let e = bot::sign_body(&game, "us", &mut players, orders, TIME.into()).expect("sign");
    assert!(game.apply(&e).is_err(), "nothing else of the firer's is accepted in its phase 4");
    assert!(game.outcome().is_none());
    assert_eq!(game.waiting_for().into_iter().map(|(s, _)| s).collect::<Vec<_>>(), vec!["us".to_string()]);

    // The honest opening goes through and names the committed marker.
    let e = bot::sign_body(&game, "us", &mut players, honest, TIME.into()).expect("sign");
    bot::apply_signed(&mut game, &mut players, e).expect("the honest opening is accepted");
    // Played to the end, every commitment is opened and the log verifies in public and
    // omniscient replays alike.
    while game.outcome().is_none() && game.next_seq() < 900 {
        any_step(&mut game, &mut players, seed);
    }
    assert!(game.outcome().is_some(), "a result");
    assert_eq!(game.unopened(), vec![], "every commitment opened");
    let replayed = Game::replay(&game.entries).unwrap_or_else(|(_, e)| panic!("public replay: {e}"));
    assert_eq!(replayed.state, game.state);
    let omni = game.replay_omniscient().unwrap_or_else(|c| panic!("cheats {c:?}"));
    assert_eq!(omni.outcome(), game.outcome());
}

#[test]
fn a_resignation_with_a_plan_unopened_lists_it_as_owed() {
    let (mut game, mut players) = at_the_request(4);
    let pts = four_points(sw(&game));
    let body = body_of(&game, &mut players, "us", &written(pts[0], &pts[1..]));
    let e = bot::sign_body(&game, "us", &mut players, body, TIME.into()).expect("sign");
    bot::apply_signed(&mut game, &mut players, e).expect("the request is accepted");
    // The firer resigns before phase 4: the plan stays listed as owed (verify reports it).
    let e = bot::sign_body(&game, "us", &mut players, Body::new(umpire::log::entry::Kind::Resign), TIME.into()).expect("sign");
    game.apply(&e).expect("a resignation is always accepted");
    let owed = game.owed_openings();
    assert_eq!(owed, vec![("us".to_string(), vec!["if-t1-us-b1".to_string()])]);
}
