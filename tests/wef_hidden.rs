//! When Eagles Fight, the asymmetric fog of war (WEF 13.7) as commitments (DESIGN §2.6),
//! attacked the way a hostile Russian player (or a cheating CP) would: what the log's
//! lengths, order and the rules' refusals tell the Russian, and what a forged or withheld
//! opening gains the CP. Each test makes one attack and asserts the defence.
//!
//! A public replay (committed values unknown: the Russian, anyone holding the log) and an
//! omniscient one (values known when committed: the CP's own replay, `verify`'s second pass)
//! are driven side by side, entry by entry, as the engine drives them: the pending roll, the
//! entry's commitments and openings (`hidden`), then its orders.

use std::collections::{BTreeMap, BTreeSet};

use umpire::crypto::Hash;
use umpire::crypto::keys::SecretKey;
use umpire::crypto::seal;
use umpire::dice::Dice;
use umpire::engine::cases::CaseRuleset;
use umpire::engine::hidden::SealedNote;
use umpire::engine::{Committed, HiddenActs, IdOrder, Opened, Ruleset, Violation};
use umpire::rules::when_eagles_fight::fog::{self, Hide};
use umpire::rules::when_eagles_fight::orders::Action;
use umpire::rules::when_eagles_fight::state::Side;
use umpire::rules::when_eagles_fight::{Orders, State, WhenEaglesFight as W};

/// One replay of the same entries.
struct Replay {
    state: State,
    omniscient: bool,
}

impl Replay {
    /// The pending roll with `die`, then one entry: commitments, openings, orders. The
    /// violations, if the entry is refused (the state is then as the engine leaves it: the
    /// entry is not applied, so the caller drops the replay or starts again).
    fn entry(
        &mut self,
        seat: &str,
        die: Option<u32>,
        orders: &Orders,
        commit: &[(&str, &str)],
        open: &[(&str, &str)],
    ) -> Result<(), Vec<Violation>> {
        let mut s = self.state.clone();
        if W::pending_roll(&s).is_some() {
            W::resolve(&mut s, &mut Dice::forced(vec![die.expect("a roll is pending") - 1]));
        }
        let mut acts = HiddenActs {
            committed: commit
                .iter()
                .map(|(id, v)| Committed { id: id.to_string(), value: self.omniscient.then(|| v.to_string()) })
                .collect(),
            opened: open.iter().map(|(id, v)| Opened { id: id.to_string(), value: v.to_string(), draw: None }).collect(),
        };
        W::hidden(&mut s, seat, &mut acts)?;
        let legal = W::validate(&s, seat, orders.clone()).map_err(|r| r.violations)?;
        W::apply(&mut s, seat, legal);
        W::check_invariants(&s).expect("invariants");
        self.state = s;
        Ok(())
    }
}

fn orders(yaml: &str) -> Orders {
    yaml_serde::from_str(yaml).expect("orders parse")
}

fn prestate(units: &str) -> State {
    let text = format!("turn: 3\nphase: central_movement\nunits:\n{units}");
    let v: yaml_serde::Value = yaml_serde::from_str(&text).expect("state yaml");
    W::case_state(&v).expect("case state")
}

/// `[public, omniscient]`.
fn replays(units: &str) -> [Replay; 2] {
    let s = prestate(units);
    [Replay { state: s.clone(), omniscient: false }, Replay { state: s, omniscient: true }]
}

/// Both replays take the entry; both must agree on acceptance and on every public fact.
fn both(r: &mut [Replay; 2], seat: &str, die: Option<u32>, o: &str, commit: &[(&str, &str)], open: &[(&str, &str)]) {
    let o = orders(o);
    for x in r.iter_mut() {
        x.entry(seat, die, &o, commit, open).unwrap_or_else(|v| panic!("{seat}'s entry refused (omniscient {}): {v:?}", x.omniscient));
    }
    assert_eq!(public(&r[0].state), public(&r[1].state), "public facts differ after {seat}'s entry");
}

/// What anyone may know of a state: the Russian's view of it.
fn public(s: &State) -> String {
    let v = W::view(s, "russian");
    serde_json::to_string(&v).expect("state serialises")
}

const STACK: &str = "  - {id: DE-20, hex: \"2316\"}\n  - {id: DE-FR, hex: \"2316\"}\n  - {id: DE-1, hex: \"2316\"}\n  - {id: RU-1, hex: \"2317\"}\n  - {id: RU-2, hex: \"2417\"}\n  - {id: RU-20, hex: \"4213\"}\n";

/// Hide DE-FR and DE-1 under c1, c2 (c1 = DE-1, c2 = DE-FR), end the CP turn, and bring the
/// Russian to his combat phase (through both strategic movement phases).
fn hidden_stack(r: &mut [Replay; 2]) {
    both(
        r,
        "central",
        None,
        "actions: [{hide: {units: [DE-1, DE-FR]}}, end_phase, end_phase]",
        &[("c1", "unit:DE-1:2"), ("c2", "unit:DE-FR:2")],
        &[],
    );
    both(r, "russian", None, "actions: [end_phase]", &[], &[]);
    both(r, "central", None, "actions: [end_phase]", &[], &[]);
    // III.A and III.B, strategic movement.
    both(r, "russian", None, "actions: [end_phase]", &[], &[]);
    both(r, "central", None, "actions: [end_phase]", &[], &[]);
    both(r, "russian", None, "actions: [end_phase]", &[], &[]);
    // IV.B opens with the ammunition roll (9.9; the CP's ack settles it, here the die is
    // simply resolved): a 1 is one marker, the Russian's to place, on a unit away from the
    // battle.
    both(r, "russian", Some(1), "actions: [{ammunition: {units: [RU-20]}}]", &[], &[]);
}

/// Lengths: every value a counter can hold fits the declared bound, and a sealed note
/// committing one counter has one length whatever unit it holds, so the note's length does
/// not tell which unit went face down.
#[test]
fn a_sealed_note_has_one_length_whatever_unit_it_hides() {
    let s = prestate("  - {id: DE-1, hex: \"2316\"}\n");
    let me = SecretKey::from_seed("central", [7; 32]);
    let game = Hash([3; 32]);
    let mut lengths: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for u in s.units.iter().filter(|u| u.side() == Side::Central && fog::hideable(u)) {
        for sl in 1..=u.max_sl() {
            let mut u = u.clone();
            u.sl = sl;
            let v = fog::value_of(&u);
            assert!(v.len() <= W::committed_value_bound(&s, "c1"), "{v} is longer than the bound");
            for n in [1usize, 3] {
                let ids: Vec<String> = (1..=n).map(|i| format!("c{i}")).collect();
                let note = SealedNote { commit: ids.iter().map(|id| (id.clone(), v.clone())).collect(), salt: BTreeMap::new() };
                let padded = SealedNote::padded_len(ids.iter().map(|id| (id.as_str(), W::committed_value_bound(&s, id))), false);
                let sealed = seal::seal(&me.seed(), &game, 9, note.to_text().as_bytes(), padded).expect("every note fits");
                lengths.entry(n).or_default().insert(sealed.len());
            }
        }
    }
    for (n, ls) in lengths {
        assert_eq!(ls.len(), 1, "notes of {n} counters come in lengths {ls:?}");
    }
}

/// Order: the ids of one hide are numbered in the author's secret order of the values, never
/// in the order he wrote the units; the units go out sorted. Two writing orders give the same
/// entry; different secret orders pair ids and units differently, so nobody can follow them.
#[test]
fn counter_ids_follow_the_secret_order_not_the_writing_order() {
    let s = prestate(STACK);
    let view = W::view(&s, "central");
    let conceal = |written: &str, order: &IdOrder| W::conceal(&view, "central", orders(written), order).expect("conceal");
    let order = IdOrder::new(&[5; 32], &Hash([1; 32]), 4);
    let a = conceal("actions: [{hide: {units: [DE-1, DE-FR]}}]", &order);
    let b = conceal("actions: [{hide: {units: [DE-FR, DE-1]}}]", &order);
    assert_eq!(a, b, "the writing order shows");
    assert_eq!(a.orders.actions, vec![Action::Hide(Hide { units: vec!["DE-1".into(), "DE-FR".into()] })]);
    let mut pairings = BTreeSet::new();
    for seq in 0..16u64 {
        let c = conceal("actions: [{hide: {units: [DE-1, DE-FR]}}]", &IdOrder::new(&[5; 32], &Hash([1; 32]), seq));
        assert_eq!(c.commit.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
        pairings.insert(c.commit[0].1.clone());
    }
    assert_eq!(pairings.len(), 2, "c1 holds each unit for some seq");
}

/// The view: the Russian's view of the CP's own replay is exactly the public replay (no
/// identity of a counter, no committed value), and the CP's view keeps his own.
#[test]
fn the_russian_view_holds_no_more_than_the_public_replay() {
    let mut r = replays(STACK);
    hidden_stack(&mut r);
    let russian = W::view(&r[1].state, "russian");
    assert_eq!(serde_json::to_string(&russian).unwrap(), serde_json::to_string(&r[0].state).unwrap());
    assert!(russian.fog.known.is_empty() && russian.fog.fresh.iter().all(|(_, v)| v.is_none()));
    let text = W::describe(&russian);
    assert!(!text.contains("; is "), "the Russian's describe names a counter:\n{text}");
    let central = W::view(&r[1].state, "central");
    assert_eq!(central.fog.known.get("c1").map(String::as_str), Some("DE-1"));
    assert!(W::describe(&central).contains("counter c1 one of DE-1, DE-FR; is DE-1"));
}

/// Error messages and events: every Russian entry, legal or not, is judged the same by the
/// public replay (which is all the Russian can run) and the omniscient one, with the same
/// refusals word for word and the same events: probing with orders tells him nothing about
/// what the counters are.
#[test]
fn russian_probes_are_judged_the_same_whatever_the_counters_are() {
    let mut r = replays(STACK);
    hidden_stack(&mut r);
    let probes = [
        "actions: [{attack: {target: \"2316\", units: [RU-1, RU-2]}}]",
        "actions: [{attack: {target: \"2316\", units: [c1]}}]",
        "actions: [{move: {units: [RU-1], path: [\"2316\"]}}]",
        "actions: [{hide: {units: [RU-1]}}]",
        "actions: [reveal]",
        "actions: [{attack: {target: \"2316\", units: [RU-1]}}, end_phase]",
        "actions: [end_phase]",
    ];
    for p in probes {
        let o = orders(p);
        let verdicts: Vec<String> = r
            .iter()
            .map(|x| match W::validate(&x.state, "russian", o.clone()) {
                Ok(l) => {
                    let mut s = x.state.clone();
                    let ev: Vec<String> = W::apply(&mut s, "russian", l).into_iter().map(|e| e.text).collect();
                    format!("ok {ev:?} {}", public(&s))
                }
                Err(e) => format!("refused {:?}", e.violations),
            })
            .collect();
        assert_eq!(verdicts[0], verdicts[1], "{p}");
        assert!(!verdicts[0].contains("is DE-") && !verdicts[0].contains("unit:DE"), "{p}: {}", verdicts[0]);
    }
}

/// The attack stands: once the Russian has declared it (and so may look), he cannot take it
/// back, and the CP's entry that rolls the die must open the stack.
#[test]
fn an_attack_on_counters_opens_them_and_resolves_with_the_kept_die() {
    let mut r = replays(STACK);
    hidden_stack(&mut r);
    both(&mut r, "russian", None, "actions: [{attack: {target: \"2316\", units: [RU-1, RU-2]}}]", &[], &[]);
    for x in &r {
        assert!(x.state.fog.blind.is_some() && W::pending_roll(&x.state).is_some());
        assert_eq!(W::expect(&x.state).awaits[0].seat, "central");
        // The CP's template says what is owed: first the die (an ack), never his combat phase's orders.
        let t = W::template(&x.state, "central");
        assert!(t.contains("umpire apply --ack") && !t.contains("end_phase"), "{t}");
    }
    // The CP's tool, on its own view after the die, opens both counters and sends `reveal`.
    let mut before = r[1].state.clone();
    W::resolve(&mut before, &mut Dice::forced(vec![2]));
    let t = W::template(&before, "central");
    assert!(t.contains("- reveal") && !t.contains("end_phase"), "{t}");
    let auto = W::automatic_orders(&W::view(&before, "central"), "central").expect("no choice");
    let c = W::conceal(&W::view(&before, "central"), "central", auto, &IdOrder::trial()).expect("conceal");
    assert_eq!(c.open, vec!["c1".to_string(), "c2".to_string()]);
    let written = serde_json::to_string(&c.orders).unwrap();
    both(&mut r, "central", Some(3), &written, &[], &[("c1", "unit:DE-1:2"), ("c2", "unit:DE-FR:2")]);
    for x in &r {
        assert!(x.state.fog.blind.is_none() && x.state.fog.counters.is_empty());
        assert!(x.state.targets.iter().any(|h| h.to_string() == "2316"), "the attack was made (13.4)");
        assert_eq!(W::expect(&x.state).awaits[0].seat, "russian");
    }
}

/// A withheld opening gains nothing: the CP's entry without the openings is refused whatever
/// it orders, and the game keeps waiting for them with the die kept (a stalling CP is left
/// to the game's violation policy; he never gets to act with the stack unopened).
#[test]
fn a_withheld_opening_is_refused() {
    let mut r = replays(STACK);
    hidden_stack(&mut r);
    both(&mut r, "russian", None, "actions: [{attack: {target: \"2316\", units: [RU-1]}}]", &[], &[]);
    for o in ["actions: [reveal]", "actions: [end_phase]", "actions: [{move: {units: [DE-20], path: [\"2216\"]}}]"] {
        for x in r.iter_mut() {
            let e = x.entry("central", Some(5), &orders(o), &[], &[]).expect_err("refused");
            assert!(e.iter().any(|v| v.rule == "WEF 13.7"), "{o}: {e:?}");
        }
    }
    // Opening one counter of two is not enough either.
    for x in r.iter_mut() {
        let e = x.entry("central", Some(5), &orders("actions: [reveal]"), &[], &[("c1", "unit:DE-1:2")]).expect_err("refused");
        assert!(e[0].message.contains("c2"), "{e:?}");
    }
}

/// A forged opening (a digest-valid value the CP committed as a lie, or a value that never
/// was committed, which the engine's digest check refuses before the rules see it) gains
/// nothing: an opening as a unit not hidden under that counter, with another SL, or of a
/// counter that does not exist is refused by the public replay itself.
#[test]
fn a_forged_opening_is_refused() {
    let mut r = replays(STACK);
    hidden_stack(&mut r);
    both(&mut r, "russian", None, "actions: [{attack: {target: \"2316\", units: [RU-1]}}]", &[], &[]);
    let forged: [&[(&str, &str)]; 4] = [
        &[("c1", "unit:DE-20:2"), ("c2", "unit:DE-FR:2")],
        &[("c1", "unit:DE-1:1"), ("c2", "unit:DE-FR:2")],
        &[("c1", "unit:DE-1:2"), ("c2", "unit:DE-1:2")],
        &[("c1", "unit:DE-1:2"), ("c2", "unit:DE-FR:2"), ("c9", "unit:DE-20:2")],
    ];
    for open in forged {
        let mut x = Replay { state: r[0].state.clone(), omniscient: false };
        let e = x.entry("central", Some(2), &orders("actions: [reveal]"), &[], open).expect_err("refused");
        assert!(e.iter().all(|v| v.rule == "WEF 13.7"), "{open:?}: {e:?}");
    }
}

/// A lie at commit time (a counter committed to a unit other than the one hidden) passes the
/// public replay, which cannot see it, and is refused where the value is known: `verify`'s
/// omniscient pass names the entry.
#[test]
fn a_lie_at_hiding_is_caught_by_the_omniscient_pass() {
    let mut r = replays(STACK);
    let o = orders("actions: [{hide: {units: [DE-1, DE-FR]}}]");
    let lie = [("c1", "unit:DE-20:2"), ("c2", "unit:DE-FR:2")];
    r[0].entry("central", None, &o, &lie, &[]).expect("the public replay cannot tell");
    let e = r[1].entry("central", None, &o, &lie, &[]).expect_err("the omniscient pass refuses");
    assert!(e[0].message.contains("not the units hidden"), "{e:?}");
}

/// A counter moved further than its unit may: accepted in public (the placeholder's 99 MP),
/// refused where the value is known, so the lie is named at verify time.
#[test]
fn a_counter_moved_beyond_its_units_allowance_is_caught_by_the_omniscient_pass() {
    let mut r = replays(STACK);
    both(&mut r, "central", None, "actions: [{hide: {units: [DE-FR]}}]", &[("c1", "unit:DE-FR:2")], &[]);
    let o = orders("actions: [{move: {units: [c1], path: [\"2216\", \"2316\", \"2216\", \"2316\"]}}]");
    r[0].entry("central", None, &o, &[], &[]).expect("public: the placeholder may");
    let e = r[1].entry("central", None, &o, &[], &[]).expect_err("omniscient: DE-FR has 3 MP");
    assert!(e.iter().any(|v| v.rule.starts_with("WEF 12")), "{e:?}");
}

/// Ids are used once, in order: a CP who reuses an id (to make two hides look like one
/// unchanged counter) or skips ahead is refused.
#[test]
fn counter_ids_are_used_once_in_order() {
    let mut r = replays(STACK);
    both(&mut r, "central", None, "actions: [{hide: {units: [DE-FR]}}]", &[("c1", "unit:DE-FR:2")], &[]);
    for bad in [("c1", "unit:DE-1:2"), ("c3", "unit:DE-1:2")] {
        let mut x = Replay { state: r[0].state.clone(), omniscient: false };
        let e = x.entry("central", None, &orders("actions: [{hide: {units: [DE-1]}}]"), &[bad], &[]).expect_err("refused");
        assert!(e[0].message.contains("the next counter is c2"), "{e:?}");
    }
}

/// The bot, on its own view, hides stacks and answers an attack on them through `conceal`:
/// a public and an omniscient replay stay in step over a bot-played stretch.
#[test]
fn the_bot_hides_and_answers_through_its_tool() {
    for seed in 0..8u8 {
        let mut r = replays(STACK);
        let mut chooser = Dice::from_seed(&Hash([seed; 32]));
        for _ in 0..12 {
            let s = &r[1].state;
            let Some(seat) = W::expect(s).awaits.first().map(|a| a.seat.clone()) else { break };
            let die = W::pending_roll(s).map(|_| 1 + chooser.roll(6));
            let mut before = s.clone();
            if let Some(d) = die {
                W::resolve(&mut before, &mut Dice::forced(vec![d - 1]));
            }
            let view = W::view(&before, &seat);
            let Some(o) = W::random_orders(&view, &seat, &mut chooser) else { break };
            let c = W::conceal(&view, &seat, o, &IdOrder::trial()).expect("conceal");
            let known = |id: &String| -> String {
                let b = view.fog.counters[id];
                let uid = &view.fog.known[id];
                fog::value_of(view.fog.batches[b].iter().find(|u| &u.id == uid).expect("in batch"))
            };
            let commit: Vec<(String, String)> = c.commit.clone();
            let open: Vec<(String, String)> = c.open.iter().map(|id| (id.clone(), known(id))).collect();
            let commit: Vec<(&str, &str)> = commit.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            let open: Vec<(&str, &str)> = open.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            both(&mut r, &seat, die, &serde_json::to_string(&c.orders).unwrap(), &commit, &open);
        }
    }
}
