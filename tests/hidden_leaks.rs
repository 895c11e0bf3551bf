//! Attacks on hidden information that need no key, only the public log (issue 16, items 2-4;
//! DESIGN §2.6): a sealed note's length, commitment ids that follow the writing order, and
//! First World War pieces left face up after the rules turn them down. Each test performs
//! the attack and asserts the defence.

use std::collections::{BTreeMap, BTreeSet};

use umpire::crypto::Hash;
use umpire::crypto::keys::SecretKey;
use umpire::crypto::seal;
use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::engine::hidden::SealedNote;
use umpire::engine::registry::AnyState;
use umpire::engine::{IdOrder, Ruleset, SeatInfo};
use umpire::log::entry::{Body, Kind};
use umpire::rules::first_world_war::orders::{Action, HideGroup, Orders, Placement};
use umpire::rules::first_world_war::pieces::{self, Up};
use umpire::rules::first_world_war::state::{Stage, Where};
use umpire::rules::first_world_war::{COMMITTED_VALUE_BOUND, FirstWorldWar, State};

mod common;
use common::{TIME, any_step, body_of};

const TWO: &[(&str, &str)] = &[("central_powers", "central_powers"), ("allies", "allies")];

fn fww(state: &AnyState) -> &State {
    match state {
        AnyState::FirstWorldWar(s) => s,
        _ => panic!("not a First World War state"),
    }
}

fn fww_state(options: Option<&str>) -> State {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    let seats: Vec<SeatInfo> = TWO.iter().map(|(s, side)| SeatInfo { seat: s.to_string(), side: side.to_string() }).collect();
    let o: Option<yaml_serde::Value> = options.map(|o| yaml_serde::from_str(o).unwrap());
    FirstWorldWar::setup(scenario.text, o.as_ref(), &seats).expect("setup")
}

/// Every value the First World War can commit: each army, a dummy, each chit.
fn fww_values(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s.data.armies.iter().map(|a| format!("army:{}", a.id)).collect();
    v.push("dummy".into());
    v.extend(s.data.chits.iter().map(|c| format!("chit:{}", c.id)));
    v
}

/// Item 2: seal every chit a seat can return face down and every piece it can turn face down,
/// to itself and to a partner, one commitment and three: each kind of note has one length.
#[test]
fn fww_sealed_notes_of_one_kind_have_one_length() {
    let s = fww_state(None);
    let values = fww_values(&s);
    // The ruleset's bound holds every value it can commit.
    for v in &values {
        assert!(v.len() <= COMMITTED_VALUE_BOUND, "{v} is longer than the declared bound");
    }
    let any = AnyState::FirstWorldWar(s.clone());
    let (me, partner) = (SecretKey::from_seed("germany", [7; 32]), SecretKey::from_seed("german_allies", [8; 32]));
    let game = Hash([3; 32]);
    let mut lengths: BTreeMap<(usize, bool), BTreeSet<usize>> = BTreeMap::new();
    let mut seal_note = |commit: BTreeMap<String, String>| {
        let ids: Vec<String> = commit.keys().cloned().collect();
        let mut note = SealedNote { commit, salt: BTreeMap::new() };
        let own = seal::seal(&me.seed(), &game, 9, note.to_text().as_bytes(), any.sealed_len(ids.iter().map(String::as_str), false))
            .expect("every note fits its kind");
        note.salt = ids.iter().map(|id| (id.clone(), umpire::crypto::commit::salt(&me.seed(), &game, id))).collect();
        let padded = any.sealed_len(ids.iter().map(String::as_str), true);
        let theirs =
            seal::try_seal_for(&me.signing, &partner.public().key, &game, "germany", "german_allies", 9, note.to_text().as_bytes(), padded)
                .expect("every note fits its kind");
        // The partner reads it back, padding stripped.
        let back = seal::open_for(&partner.signing, &me.public().key, &game, "germany", "german_allies", 9, &theirs).unwrap();
        assert_eq!(back, note.to_text().as_bytes());
        lengths.entry((ids.len(), false)).or_default().insert(own.len());
        lengths.entry((ids.len(), true)).or_default().insert(theirs.len());
    };
    // A chit returned face down (`chit@12`), a piece deployed face down (`piece-117`).
    for v in &values {
        seal_note([("chit@12".to_string(), v.clone())].into());
        seal_note([("piece-117".to_string(), v.clone())].into());
    }
    // Three pieces turned face down together (ids of one length), a sample of every mix.
    for (i, a) in values.iter().enumerate().step_by(3) {
        for b in values.iter().skip(i % 7).step_by(5) {
            let c = &values[(i * 7) % values.len()];
            seal_note(
                [("piece-201".to_string(), a.clone()), ("piece-202".to_string(), b.clone()), ("piece-203".to_string(), c.clone())].into(),
            );
        }
    }
    for (kind, set) in &lengths {
        assert_eq!(set.len(), 1, "notes of kind {kind:?} have lengths {set:?}: the length tells the value");
    }
    // "steamroller" (35 bytes unpadded in protocol 1) is as long as the shortest chit.
    assert!(lengths.len() == 4, "{lengths:?}");
}

/// Item 2 for Glory's End: a hidden counter's value (`unit:<id>:<SL>`, `dummy:<nation>:<n>`)
/// and the longest setup plan (every unit, every marker, the most dummies, the longest hex
/// numbers) fit the declared bounds, so every note of one kind has one length.
#[test]
fn ge_committed_values_fit_their_bounds() {
    use umpire::geo::hex::HexId;
    use umpire::rules::glorys_end::counters::{COUNTER_VALUE_BOUND, MAX_DUMMIES, dummy_value, value_bound, value_of};
    use umpire::rules::glorys_end::secret::Plan;
    let mut checked = 0;
    for name in ["glorys-end/marne", "glorys-end/short-campaign", "glorys-end/campaign", "glorys-end/free-deployment"] {
        let scenario = umpire::scenarios::find(name).expect("bundled");
        let seats: Vec<SeatInfo> = [("allied", "allied"), ("german", "german")]
            .iter()
            .map(|(s, side)| SeatInfo { seat: s.to_string(), side: side.to_string() })
            .collect();
        let s = umpire::rules::glorys_end::GlorysEnd::setup(scenario.text, None, &seats).expect("setup");
        for u in &s.units {
            for sl in 0..=u.max_sl.max(9) {
                let mut v = u.clone();
                v.sl = sl;
                assert!(value_of(&v).len() <= COUNTER_VALUE_BOUND, "{}", value_of(&v));
            }
            assert!(dummy_value(&u.nation, MAX_DUMMIES).len() <= COUNTER_VALUE_BOUND);
        }
        let far = HexId::new(255, 255);
        let nations: BTreeSet<String> = s.units.iter().map(|u| u.nation.clone()).collect();
        let armies = s.secret.as_ref().map_or(0, |x| x.armies.len());
        let plan = Plan {
            markers: (0..=u8::try_from(armies).unwrap_or(u8::MAX)).map(|a| (a, far)).collect(),
            units: s.units.iter().map(|u| (u.id.clone(), far)).collect(),
            dummies: nations.into_iter().map(|n| (n, vec![far; MAX_DUMMIES as usize])).collect(),
        };
        assert!(plan.to_value().len() <= value_bound(&s, "setup-allied"), "{name}: {} bytes", plan.to_value().len());
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// A game between bots at the first entry of `seat` in the deployment: the game, the keys,
/// and the orders the bot writes there.
fn at_deployment(options: Option<&str>, seed: u64) -> (Game, Players, String, Orders) {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    let o: Option<yaml_serde::Value> = options.map(|o| yaml_serde::from_str(o).unwrap());
    let (game, mut players) = bot::start_game_with(scenario, TWO, seed, 4096, TIME, o).expect("start");
    let seat = game.waiting_for()[0].0.clone();
    let reveal = players.next_reveal(&game, &seat).unwrap();
    let view = players.view(&game, &seat).unwrap().cloned().unwrap_or_else(|| game.clone());
    let (state, _) = view.state_before(&seat, reveal.as_ref());
    let mut ch = bot::chooser(seed, &seat, game.next_seq());
    let plain = state.random_orders(&seat, &mut ch).expect("the bot deploys");
    (game, players, seat, yaml_serde::from_value(plain).unwrap())
}

/// Item 3: the same deployment written in three orders (as the bot wrote it, sorted as a
/// player would, reversed) gives byte-identical bodies (orders, ids, digests, sealed note):
/// nothing public depends on the writing order; and the ids follow the author's secret order.
#[test]
fn fww_deployment_ids_do_not_follow_the_writing_order() {
    let (game, mut players, seat, orders) = at_deployment(None, 5);
    let deploy = |o: &Orders| -> Vec<Placement> {
        o.actions.iter().find_map(|a| if let Action::Deploy(p) = a { Some(p.clone()) } else { None }).expect("a deploy")
    };
    let with = |p: Vec<Placement>| Orders {
        actions: orders
            .actions
            .iter()
            .map(|a| if matches!(a, Action::Deploy(_)) { Action::Deploy(p.clone()) } else { a.clone() })
            .collect(),
    };
    let written = deploy(&orders);
    assert!(written.len() > 4, "{written:?}");
    let mut natural = written.clone();
    natural.sort_by(|a, b| (a.front, &a.piece).cmp(&(b.front, &b.piece)));
    let mut reversed = natural.clone();
    reversed.reverse();
    let bodies: Vec<Body> =
        [written, natural.clone(), reversed].into_iter().map(|p| body_of(&game, &mut players, &seat, &with(p))).collect();
    assert_eq!(bodies[0], bodies[1]);
    assert_eq!(bodies[0], bodies[2]);
    // The public list is by front, ids ascending; and on each front the ids hold the values in
    // the order of SHA-256("umpire/id-order/2\0" ‖ seed ‖ game ‖ seq ‖ value).
    let public: Orders = yaml_serde::from_value(bodies[0].orders.clone().unwrap()).unwrap();
    let placed = deploy(&public);
    let key = players.key(&seat).unwrap().clone();
    let order = IdOrder::new(&key.seed(), &game.id(), game.next_seq());
    let view = players.view(&game, &seat).unwrap().cloned().unwrap_or_else(|| game.clone());
    let (state, _) = view.state_before(&seat, players.next_reveal(&game, &seat).unwrap().as_ref());
    let c = state.conceal(&seat, &yaml_serde::to_value(with(natural.clone())).unwrap(), &order).unwrap();
    let value = |id: &str| c.commit.iter().find(|(i, _)| i == id).map(|(_, v)| v.clone()).unwrap();
    let fronts: BTreeSet<u8> = placed.iter().map(|p| p.front).collect();
    let mut differs = false;
    for f in fronts {
        let ids: Vec<&str> = placed.iter().filter(|p| p.front == f).map(|p| p.piece.as_str()).collect();
        let got: Vec<String> = ids.iter().map(|id| value(id)).collect();
        let mut want = got.clone();
        want.sort_by_key(|v| order.key(v).0);
        assert_eq!(got, want, "front {f}: ids in the secret order");
        let as_written: Vec<String> = natural
            .iter()
            .filter(|p| p.front == f)
            .map(|p| if p.piece == "dummy" { "dummy".into() } else { format!("army:{}", p.piece) })
            .collect();
        differs |= got != as_written;
    }
    // The secret order changes with the seq: over a few seqs it departs from the natural
    // order (one seq may match it by chance, as a shuffle can).
    let natural_values: Vec<String> =
        natural.iter().map(|p| if p.piece == "dummy" { "dummy".into() } else { format!("army:{}", p.piece) }).collect();
    for s in 1..16 {
        let o = IdOrder::new(&key.seed(), &game.id(), game.next_seq() + s);
        let mut v = natural_values.clone();
        v.sort_by_key(|x| o.key(x).0);
        differs |= v != natural_values;
    }
    assert!(differs, "the secret order never departs from the natural order");
}

/// Item 3, `hide`: groups written in any order and split any way give one public `hide` (one
/// group per front and faction, names sorted, ids sorted) and the same commitments.
#[test]
fn fww_hide_ids_do_not_follow_the_writing_order() {
    // The historical setup puts armies face up on the map, due to go face down (4.2/1).
    let s = fww_state(Some("{historical_setup: true}"));
    let seat = "central_powers";
    let due = pieces::due_down(&s, seat);
    assert!(due.len() > 3, "{due:?}");
    let mut by_front: BTreeMap<u8, Vec<String>> = BTreeMap::new();
    for (f, _, up) in &due {
        if let Up::Army(a) = up {
            by_front.entry(*f).or_default().push(s.name(*a).to_string());
        }
    }
    let order = IdOrder::new(&[5; 32], &Hash([6; 32]), 3);
    let conceal = |actions: Vec<Action>| FirstWorldWar::conceal(&s, seat, Orders { actions }, &order).expect("conceal");
    let written = |rev: bool| -> Vec<Action> {
        let mut groups: Vec<HideGroup> = by_front
            .iter()
            .map(|(f, p)| {
                let mut p = p.clone();
                if rev {
                    p.reverse();
                }
                HideGroup { front: *f, pieces: p, ids: vec![] }
            })
            .collect();
        if rev {
            groups.reverse();
        }
        vec![Action::Hide(groups)]
    };
    // Nothing written: the tool hides them all the same.
    let none = conceal(vec![Action::Deploy(vec![])]);
    let a = conceal(written(false));
    let b = conceal(written(true));
    assert_eq!(a.commit, b.commit);
    let hides = |c: &umpire::engine::Concealed<Orders>| c.orders.actions.iter().find(|a| matches!(a, Action::Hide(_))).cloned();
    assert_eq!(hides(&a), hides(&b));
    assert_eq!(hides(&a), hides(&none));
    assert_eq!(a.commit, none.commit);
    let Some(Action::Hide(groups)) = hides(&a) else { panic!("a hide") };
    for g in &groups {
        let mut sorted = g.pieces.clone();
        sorted.sort();
        assert_eq!(g.pieces, sorted, "names sorted");
        let values: Vec<String> = g.ids.iter().map(|id| a.commit.iter().find(|(i, _)| i == id).unwrap().1.clone()).collect();
        let mut want = values.clone();
        want.sort_by_key(|v| order.key(v).0);
        assert_eq!(values, want, "front {}: ids in the secret order", g.front);
    }
}

/// Item 4: with the historical setup every army starts face up and the rules turn it face down
/// (4.2/1). Bots that never write `hide` play on: after each seat's deployment or round entry
/// none of the pieces the rules turned down before it is face up in the public replay, and an
/// entry that leaves one up (its `hide` stripped) is refused.
#[test]
fn fww_pieces_the_rules_turn_down_go_down_without_a_hide() {
    let opts = "{historical_setup: true}";
    let (mut game, mut players, seat, orders) = at_deployment(Some(opts), 8);
    assert!(!orders.actions.iter().any(|a| matches!(a, Action::Hide(_))), "the bot writes no hide");
    let before = pieces::due_down(fww(&game.state), &seat);
    assert!(!before.is_empty());
    // The attack: the same entry with the tool's hide taken out (and its commitments).
    let body = body_of(&game, &mut players, &seat, &orders);
    let mut stripped = body.clone();
    let mut public: Orders = yaml_serde::from_value(body.orders.clone().unwrap()).unwrap();
    let hidden_ids: BTreeSet<String> = public
        .actions
        .iter()
        .filter_map(|a| if let Action::Hide(g) = a { Some(g.iter().flat_map(|g| g.ids.clone()).collect::<Vec<_>>()) } else { None })
        .flatten()
        .collect();
    assert!(!hidden_ids.is_empty(), "the tool added a hide");
    public.actions.retain(|a| !matches!(a, Action::Hide(_)));
    stripped.orders = Some(yaml_serde::to_value(&public).unwrap());
    stripped.commit.as_mut().unwrap().retain(|c| !hidden_ids.contains(&c.id));
    stripped.sealed = None;
    stripped.sealed_for = None;
    let e = bot::sign_body(&game, &seat, &mut players, stripped, TIME.into()).unwrap();
    let err = game.clone().apply(&e).expect_err("an entry that leaves due pieces face up is refused").to_string();
    assert!(err.contains("turned face down by the rules"), "{err}");
    // The honest entry: every piece due before it is down now.
    let e = bot::sign_body(&game, &seat, &mut players, body, TIME.into()).unwrap();
    game.apply(&e).expect("the tool's entry");
    let after = pieces::due_down(fww(&game.state), &seat);
    assert!(after.iter().all(|d| !before.contains(d)), "{after:?}");
    // Play on; check every entry of the public replay.
    for _ in 0..400 {
        if game.outcome().is_some() {
            break;
        }
        let due: BTreeMap<String, Vec<(u8, umpire::rules::first_world_war::scenario::Faction, Up)>> =
            TWO.iter().map(|(s, _)| (s.to_string(), pieces::due_down(fww(&game.state), s))).collect();
        let stage = fww(&game.state).stage.clone();
        any_step(&mut game, &mut players, 8);
        let last = game.entries.last().unwrap();
        if !matches!(stage, Stage::Deploy(_) | Stage::Round) || last.draft.body.kind != Kind::Orders {
            continue;
        }
        let s = fww(&game.state);
        let written: Orders = yaml_serde::from_value(last.draft.body.orders.clone().unwrap()).unwrap();
        let attackers: Vec<&String> = written
            .actions
            .iter()
            .filter_map(|a| if let Action::Attack { armies, .. } = a { Some(armies) } else { None })
            .flatten()
            .collect();
        for d in pieces::due_down(s, last.seat()) {
            if let (_, _, Up::Army(a)) = d {
                assert!(
                    !due[last.seat()].contains(&d) || attackers.iter().any(|n| *n == s.name(a)),
                    "entry {}: {} is still face up ({:?})",
                    last.seq(),
                    s.name(a),
                    s.armies[a]
                );
            }
        }
        // A piece the rules hid is never named in plain by an entry after it went down.
        for (a, w) in s.armies.iter().enumerate() {
            if *w == Where::Hidden {
                let t = String::from_utf8_lossy(&last.bytes);
                assert!(!t.contains(&format!("army:{}\n", s.name(a))), "entry {} names face-down {}:\n{t}", last.seq(), s.name(a));
            }
        }
    }
    Game::replay(&game.entries).map_err(|(_, e)| e).expect("the public replay accepts the game");
}
