//! Glory's End, GE 13.8 combat with hidden defenders, along the author's path: the defender's
//! tool (`conceal` on his seat view) opens the attacked counters, the bot decides on the state
//! after the openings, and the entry is accepted. A public replay (committed values unknown)
//! and an omniscient one (values known) are driven side by side and must agree on every
//! public fact after every step (`counters::public_facts`).

use umpire::crypto::Hash;
use umpire::dice::Dice;
use umpire::engine::cases::CaseRuleset;
use umpire::engine::{Committed, HiddenActs, Opened, Ruleset};
use umpire::rules::glorys_end::state::Stage;
use umpire::rules::glorys_end::{GlorysEnd, Orders, State, counters};

/// One replay of the same entries: `omniscient` knows committed values when they are made.
struct Replay {
    state: State,
    omniscient: bool,
}

impl Replay {
    /// Resolve the pending roll with `die` (1–6), then one entry: commitments, openings,
    /// orders. Panics when the entry is refused.
    fn entry(&mut self, seat: &str, die: Option<u32>, orders: &Orders, commit: &[(String, String)], open: &[(String, String)]) {
        if GlorysEnd::pending_roll(&self.state).is_some() {
            let d = die.expect("a roll is pending");
            GlorysEnd::resolve(&mut self.state, &mut Dice::forced(vec![d - 1]));
        }
        let mut acts = HiddenActs {
            committed: commit.iter().map(|(id, v)| Committed { id: id.clone(), value: self.omniscient.then(|| v.clone()) }).collect(),
            opened: open.iter().map(|(id, v)| Opened { id: id.clone(), value: v.clone(), draw: None }).collect(),
        };
        GlorysEnd::hidden(&mut self.state, seat, &mut acts).expect("hidden acts accepted");
        let legal = GlorysEnd::validate(&self.state, seat, orders.clone()).map_err(|r| r.violations).expect("orders accepted");
        GlorysEnd::apply(&mut self.state, seat, legal);
        GlorysEnd::check_invariants(&self.state).expect("invariants");
    }
}

fn orders(yaml: &str) -> Orders {
    yaml_serde::from_str(yaml).expect("orders parse")
}

/// Both replays take the entry as `seat`'s tool writes it on its own view of `view_of`.
fn play(replays: &mut [Replay; 2], seat: &str, die: Option<u32>, written: Orders) {
    // The author's view: the omniscient replay seen by `seat` (its own values known), after
    // the dice this entry reveals.
    let mut before = replays[1].state.clone();
    if GlorysEnd::pending_roll(&before).is_some() {
        GlorysEnd::resolve(&mut before, &mut Dice::forced(vec![die.expect("die") - 1]));
    }
    let view = GlorysEnd::view(&before, seat);
    let c = GlorysEnd::conceal(&view, seat, written, &umpire::engine::IdOrder::trial()).expect("conceal");
    let known = |id: &String| -> String {
        let uid = view.counters.as_ref().and_then(|k| k.known.get(id)).expect("own counter known");
        let b = view.unit(id).and_then(|u| u.hidden).expect("hidden") as usize;
        let rec = view.counters.as_ref().unwrap().batches[b].iter().find(|u| &u.id == uid).expect("in batch").clone();
        counters::value_of(&rec)
    };
    let open: Vec<(String, String)> = c.open.iter().map(|id| (id.clone(), known(id))).collect();
    for r in replays.iter_mut() {
        r.entry(seat, die, &c.orders, &c.commit, &open);
    }
    assert_eq!(
        counters::public_facts(&replays[0].state),
        counters::public_facts(&replays[1].state),
        "public facts differ after {seat}'s entry"
    );
}

fn replays(units: &str) -> [Replay; 2] {
    let text = format!("player: allied\nhidden_counters: true\nunits:\n{units}");
    let v: yaml_serde::Value = yaml_serde::from_str(&text).expect("state yaml");
    let s = GlorysEnd::case_state(&v).expect("case state");
    [Replay { state: s.clone(), omniscient: false }, Replay { state: s, omniscient: true }]
}

const STACK: &str =
    "  - {id: DE-1, hex: 3131, sl: 4, a: 21}\n  - {id: FR-1, hex: 3231, sl: 2, d: 4}\n  - {id: FR-2, hex: 3231, sl: 2, d: 3}\n";

/// Hide FR-2 under c1, end the Allied turn, and attack 3231 with DE-1.
fn attack_hidden_stack(r: &mut [Replay; 2], attack: &str) {
    play(r, "allied", None, orders("actions: [{hide: {units: [FR-2]}}, {end_phase: movement}, {end_phase: combat}]"));
    assert!(r[0].state.unit("c1").is_some_and(counters::is_hidden));
    play(r, "german", None, orders(attack));
    let b = r[0].state.battle.as_ref().expect("battle");
    assert!(b.opening, "the odds wait for the opening");
}

#[test]
fn the_defenders_tool_opens_the_attacked_counter_and_its_decision_passes() {
    let mut r = replays(STACK);
    attack_hidden_stack(&mut r, "actions: [{end_phase: movement}, {attack: {target: 3231, units: [DE-1]}}]");
    // Written with the unit's own id; the tool opens c1 and keeps FR-2 (opened in the entry).
    let written = orders("actions: [{decide: {losses: [{unit: FR-1, sl: 1}, {unit: FR-2, sl: 1}], retreat: 3331}}]");
    play(&mut r, "allied", Some(6), written);
    for x in &r {
        assert!(x.state.unit("c1").is_none() && x.state.unit("FR-2").is_some_and(|u| u.sl == 1), "c1 opened as FR-2, which lost 1 SL");
        assert!(x.state.battle.as_ref().is_none_or(|b| !matches!(b.stage, Stage::Opening { .. } | Stage::Defender { .. })));
    }
}

#[test]
fn the_bot_answers_an_attack_on_its_hidden_counter() {
    // 3:1 (defender losses on every roll), 1:1 (2/0 on a 1: nothing for the defender to
    // decide) and 3 vs 7 (automatic 2/0, the kept die unused).
    for attack in [21, 7, 3] {
        for die in 1..=6 {
            bot_answers(&STACK.replace("a: 21", &format!("a: {attack}")), die);
        }
    }
}

fn bot_answers(stack: &str, die: u32) {
    {
        let mut r = replays(stack);
        attack_hidden_stack(&mut r, "actions: [{end_phase: movement}, {attack: {target: 3231, units: [DE-1]}}]");
        let mut before = r[1].state.clone();
        GlorysEnd::resolve(&mut before, &mut Dice::forced(vec![die - 1]));
        assert!(matches!(before.battle.as_ref().map(|b| &b.stage), Some(Stage::Opening { die: Some(_) })));
        let view = GlorysEnd::view(&before, "allied");
        let mut chooser = Dice::from_seed(&Hash([die as u8; 32]));
        let o = GlorysEnd::random_orders(&view, "allied", &mut chooser).expect("the bot answers");
        play(&mut r, "allied", Some(die), o);
        assert!(r[0].state.unit("c1").is_none(), "die {die}: c1 is opened");
    }
}

#[test]
fn the_bot_answers_a_possible_cavalry_withdrawal_with_hidden_defenders() {
    for (hidden, kind) in [("FR-2C", "cavalry"), ("FR-2", "infantry")] {
        let units = format!(
            "  - {{id: DE-1, hex: 3131, sl: 4, a: 21}}\n  - {{id: FR-1C, hex: 3231, sl: 2, d: 2, cav: [2, 2], kind: cavalry}}\n  - {{id: {hidden}, hex: 3231, sl: 1, d: 1, cav: [1, 1], kind: {kind}}}\n"
        );
        let mut r = replays(&units);
        play(
            &mut r,
            "allied",
            None,
            orders(&format!("actions: [{{hide: {{units: [{hidden}]}}}}, {{end_phase: movement}}, {{end_phase: combat}}]")),
        );
        play(&mut r, "german", None, orders("actions: [{end_phase: movement}, {attack: {target: 3231, units: [DE-1]}}]"));
        assert_eq!(GlorysEnd::pending_roll(&r[0].state), None, "no die before the defenders are shown (13.25)");
        let view = GlorysEnd::view(&r[1].state, "allied");
        let o = GlorysEnd::random_orders(&view, "allied", &mut Dice::from_seed(&Hash([7; 32]))).expect("the bot answers");
        play(&mut r, "allied", None, o);
        assert!(r[0].state.unit("c1").is_none(), "{hidden}: c1 is opened");
    }
}
