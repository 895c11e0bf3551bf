//! Issue 18: what a player meets at the command line, run on the real binary. Positions are
//! built by the library (seeded keys, so the dice are fixed), written as a log with the
//! seat's key, and then the binary is asked what a player would ask.

use umpire::engine::bot::{self, Players};
use umpire::engine::game::Game;
use umpire::log::entry::{Body, Kind};

mod support;
use support::{text, umpire_in, write_log_and_key};

mod common;
use common::{TIME, any_step};

/// Sign and apply orders written as YAML for `seat`.
fn order(game: &mut Game, players: &mut Players, seat: &str, yaml: &str) {
    let mut body = Body::new(Kind::Orders);
    body.orders = Some(yaml_serde::from_str(yaml).expect("yaml"));
    let e = bot::sign_body(game, seat, players, body, TIME.into()).unwrap_or_else(|e| panic!("{seat}: {e}"));
    bot::apply_signed(game, players, e).unwrap_or_else(|e| panic!("{seat}: {e}"));
}

/// The README's Allied attack on 3232 (1:1), after which the German owes the dice; the
/// first seed whose roll leaves the German a situation `wanted` accepts (judged on the state
/// after the roll, as his tool sees it).
fn marne_after_attack(wanted: impl Fn(&str) -> bool) -> (Game, Players) {
    for seed in 1..200 {
        let (mut game, mut players) = common::started_marne(seed, 4096);
        order(
            &mut game,
            &mut players,
            "allied",
            "actions:\n  - move: {units: [FR-11], path: [3329, 3328]}\n  - end_phase: movement\n  - attack: {target: 3232, units: [FR-1, FR-10]}\n",
        );
        let reveal = players.next_reveal(&game, "german").unwrap();
        let (after, events) = game.state_before("german", reveal.as_ref());
        let said: Vec<String> = events.iter().map(|e| e.text.clone()).collect();
        if wanted(&format!("{}\n{}", said.join("\n"), after.describe())) {
            return (game, players);
        }
    }
    panic!("no seed gives the wanted roll");
}

fn run(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let o = umpire_in(dir, args, None);
    (o.status.code(), text(&o))
}

/// GE 13.20: after a 1/1 the defender has a loss to allocate; `umpire ack` refuses to
/// answer the dice without it, as `apply --ack` does, and the log is left as it was.
#[test]
fn ack_is_refused_while_a_decision_is_owed() {
    let (game, players) = marne_after_attack(|s| s.contains("awaiting german: allocate 1 loss points"));
    let t = tempfile::tempdir().unwrap();
    write_log_and_key(t.path(), &game.entries, "german", players.key("german").unwrap());
    let before = std::fs::read(t.path().join("game.log")).unwrap();
    let (code, out) = run(t.path(), &["ack", "game.log", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("not acking") && out.contains("allocate 1 loss points"), "names the decision owed: {out}");
    assert_eq!(std::fs::read(t.path().join("game.log")).unwrap(), before, "nothing was appended");
}

/// GE 13.21: after a 1/1 without retreat the defender still holds the hex; status and the
/// attacker's template never offer an advance into it.
#[test]
fn no_advance_is_offered_into_a_hex_the_defender_holds() {
    let (mut game, mut players) = marne_after_attack(|s| s.contains("1/1 ") || s.contains(": 1/1\n") || s.contains("result 1/1)"));
    // The German takes his loss and stays (no retreat in a 1/1).
    let reveal = players.next_reveal(&game, "german").unwrap();
    let (after, _) = game.state_before("german", reveal.as_ref());
    let what = after.expect().awaits[0].what.clone();
    let unit = if what.contains("DE-3 (2 SL)") { "DE-3" } else { "DE-1C" };
    order(&mut game, &mut players, "german", &format!("actions:\n  - decide: {{losses: [{{unit: {unit}, sl: 1}}]}}\n"));
    let t = tempfile::tempdir().unwrap();
    write_log_and_key(t.path(), &game.entries, "allied", players.key("allied").unwrap());
    let (code, status) = run(t.path(), &["status", "game.log"]);
    assert_eq!(code, Some(0), "{status}");
    assert!(status.contains("waiting for allied") && status.contains("allocate 1 loss points"), "{status}");
    assert!(!status.contains("advance into 3232"), "no advance into a hex still held: {status}");
    assert!(status.contains("no advance: the defender still holds 3232 (GE 13.21)"), "says why there is none: {status}");
    let (_, tpl) = run(t.path(), &["orders", "template", "game.log", "--as", "allied"]);
    assert!(tpl.contains("- decide:") && !tpl.contains("# advance:") && !tpl.contains("advance into"), "{tpl}");
}

/// docs/glorys-end/rules.md: standing instructions ride on any entry, also the one that
/// answers the opponent's dice when the roll leaves nothing to decide; `orders check` and
/// `orders sign` give that one answer.
#[test]
fn standing_instructions_alone_answer_owed_dice() {
    // A roll of 1 at 1:1 is 2/0: the defender loses nothing and decides nothing.
    let (game, players) = marne_after_attack(|s| s.contains("2/0") && !s.contains("awaiting german"));
    let t = tempfile::tempdir().unwrap();
    write_log_and_key(t.path(), &game.entries, "german", players.key("german").unwrap());
    std::fs::write(t.path().join("s.yaml"), "actions:\n  - standing: {optional_retreat: never}\n").unwrap();
    let (code, out) = run(t.path(), &["orders", "check", "game.log", "s.yaml", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("orders are legal"), "{out}");
    let (code, out) = run(t.path(), &["orders", "sign", "game.log", "s.yaml", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(0), "sign agrees with check: {out}");
    assert!(out.contains("German standing instructions: optional retreat never"), "{out}");
    let (code, out) = run(t.path(), &["verify", "game.log"]);
    assert_eq!(code, Some(0), "{out}");
    // Orders of any other kind from a seat nothing is expected of: refused by both.
    std::fs::write(t.path().join("m.yaml"), "actions:\n  - end_phase: movement\n").unwrap();
    let (code, out) = run(t.path(), &["orders", "check", "game.log", "m.yaml", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("orders are legal") && out.contains("out of turn"), "{out}");
    let (code, out) = run(t.path(), &["orders", "sign", "game.log", "m.yaml", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(1), "{out}");
}

/// A wrong key is an error for `status --as X --key K`, whether or not dice are owed.
#[test]
fn status_with_the_wrong_key_fails() {
    let (game, players) = common::started_marne(1, 4096);
    let t = tempfile::tempdir().unwrap();
    // The allied key written under the German's name.
    write_log_and_key(t.path(), &game.entries, "german", players.key("allied").unwrap());
    let (code, out) = run(t.path(), &["status", "game.log", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("is not the key of seat \"german\""), "{out}");
    let (code, out) = run(t.path(), &["status", "game.log", "--as", "allied", "--key", "german.key"]);
    assert_eq!(code, Some(0), "the right key still works: {out}");
}

/// `new --help` names every bundled scenario.
#[test]
fn new_help_lists_every_bundled_scenario() {
    let t = tempfile::tempdir().unwrap();
    let (code, out) = run(t.path(), &["new", "--help"]);
    assert_eq!(code, Some(0), "{out}");
    for b in umpire::scenarios::ALL {
        assert!(out.contains(b.name), "{} missing from new --help:\n{out}", b.name);
    }
}

const TWO: &[(&str, &str)] = &[("central_powers", "central_powers"), ("allies", "allies")];

fn fww_two(seed: u64) -> (Game, Players) {
    let scenario = umpire::scenarios::find("first-world-war/standard").expect("bundled");
    bot::start_game(scenario, TWO, seed, 4096, TIME).expect("start")
}

fn fww(g: &Game) -> &umpire::rules::first_world_war::State {
    match &g.state {
        umpire::engine::registry::AnyState::FirstWorldWar(s) => s,
        _ => panic!("not a First World War state"),
    }
}

/// TFWW 1.0, 4.2/2: the allies seat plays WA and EA, whose rounds follow each other; `[pass,
/// pass]` passes for both, and check, sign and the record say which faction each pass is for.
#[test]
fn two_passes_say_which_faction_each_is_for() {
    use umpire::rules::first_world_war::scenario::Faction;
    use umpire::rules::first_world_war::state::Stage;
    let seed = 5;
    let (mut game, mut players) = fww_two(seed);
    let due = |g: &Game| {
        let s = fww(g);
        g.pending.is_none() && s.stage == Stage::Round && s.active() == Faction::WesternAllies
    };
    let mut n = 0;
    while !due(&game) {
        any_step(&mut game, &mut players, seed);
        n += 1;
        assert!(n < 400, "no Western Allies round");
    }
    let t = tempfile::tempdir().unwrap();
    write_log_and_key(t.path(), &game.entries, "allies", players.key("allies").unwrap());
    std::fs::write(t.path().join("p.yaml"), "actions: [pass, pass]\n").unwrap();
    let (code, out) = run(t.path(), &["orders", "check", "game.log", "p.yaml", "--as", "allies", "--key", "allies.key"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("action 1 for WA: WA passes") && out.contains("action 2 for EA: EA passes"), "{out}");
    assert!(!out.contains("refused"), "nothing refused under \"orders are legal\": {out}");
    let (code, out) = run(t.path(), &["orders", "sign", "game.log", "p.yaml", "--as", "allies", "--key", "allies.key"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("action 2 is taken for EA"), "{out}");
}

/// The template lets an attack name an own face-down piece by its piece id (TFWW 6.0): the
/// tool opens it and writes the army, so check and sign accept it.
#[test]
fn an_attack_may_name_a_face_down_piece() {
    use umpire::rules::first_world_war::pieces::Ident;
    use umpire::rules::first_world_war::state::Stage;
    let seed = 9;
    let (mut game, mut players) = fww_two(seed);
    let key = players.key("allies").unwrap().clone();
    for _ in 0..600 {
        let s = fww(&game);
        let ours = game.pending.is_none() && s.stage == Stage::Round && game.waiting_for().first().is_some_and(|(w, _)| w == "allies");
        if ours {
            let view = game.seat_view("allies", key.clone()).unwrap();
            let reveal = players.next_reveal(&game, "allies").unwrap();
            let vs = fww(&view);
            for p in vs.pieces.iter().filter(|p| p.seat == "allies") {
                let Some(Ident::Army(_)) = p.ident else { continue };
                let yaml = format!("actions:\n  - attack: {{front: {}, armies: [{}]}}\n", p.front, p.id);
                let mut body = Body::new(Kind::Orders);
                body.orders = Some(yaml_serde::from_str(&yaml).unwrap());
                if umpire::engine::author::complete_body(&view, "allies", &key, reveal.as_ref(), body).is_err() {
                    continue;
                }
                let t = tempfile::tempdir().unwrap();
                write_log_and_key(t.path(), &game.entries, "allies", &key);
                std::fs::write(t.path().join("a.yaml"), &yaml).unwrap();
                let (code, out) = run(t.path(), &["orders", "check", "game.log", "a.yaml", "--as", "allies", "--key", "allies.key"]);
                assert_eq!(code, Some(0), "{yaml}{out}");
                assert!(out.contains("orders are legal"), "{out}");
                assert!(!out.contains("refused") && !out.contains("violation"), "nothing refused under \"orders are legal\": {out}");
                // Without the key the piece's army is unknown: the check says what to do.
                let (code, out) = run(t.path(), &["orders", "check", "game.log", "a.yaml", "--as", "allies"]);
                assert_eq!(code, Some(1), "{out}");
                assert!(out.contains("--key"), "{out}");
                let (code, out) = run(t.path(), &["orders", "sign", "game.log", "a.yaml", "--as", "allies", "--key", "allies.key"]);
                assert_eq!(code, Some(0), "{out}");
                return;
            }
        }
        any_step(&mut game, &mut players, seed);
    }
    panic!("no round in which the allies could attack with a face-down army");
}

/// Bob (allied) at the start of the Marne, in his own directory.
fn marne_bob() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let (_alice, bob) = support::marne_by_email(t.path());
    (t, bob)
}

fn check(dir: &std::path::Path, yaml: &str) -> (Option<i32>, String) {
    std::fs::write(dir.join("o.yaml"), yaml).unwrap();
    run(dir, &["orders", "check", "game.log", "o.yaml", "--as", "allied"])
}

/// GE 12.8, 12.9, 10.2: a move refused for movement points lists what each hex entered cost
/// and why (terrain, a major river) and why the group has so few (out of command).
#[test]
fn a_move_refused_for_mp_names_each_cost_and_why() {
    let (_t, bob) = marne_bob();
    // GB-1 starts out of command (GE 16.3): 4 MP halved.
    let (code, out) = check(&bob, "actions:\n  - move: {units: [GB-1], path: [3434, 3435]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("GE 12.9"), "{out}");
    assert!(out.contains("(3434 clear 1, 3435 forest 2 + 1 across the Seine (major river))"), "{out}");
    assert!(out.contains("slowest unit GB-1: 4 MP allowance, halved out of command (GE 10.2)"), "{out}");
}

/// A hex that is not on the map is called that, not "not adjacent".
#[test]
fn a_hex_off_the_map_says_so() {
    let (_t, bob) = marne_bob();
    let (code, out) = check(&bob, "actions:\n  - move: {units: [FR-11], path: [9999]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("GE 12.1") && out.contains("9999 is not a hex of this map"), "{out}");
    assert!(!out.contains("adjacent"), "{out}");
    let (code, out) = check(&bob, "actions:\n  - end_phase: movement\n  - attack: {target: 1234, units: [FR-1]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("GE 13.4") && out.contains("1234 is not a hex of this map"), "{out}");
}

/// An unknown unit id suggests the nearest own ids.
#[test]
fn an_unknown_unit_suggests_the_nearest_ids() {
    let (_t, bob) = marne_bob();
    let (code, out) = check(&bob, "actions:\n  - move: {units: [fr-11], path: [3329]}\n  - move: {units: [FR-12X], path: [3329]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("there is no unit fr-11 (ids are written in capitals: FR-11)"), "{out}");
    assert!(out.contains("there is no unit FR-12X (did you mean FR-12?)"), "{out}");
    // Never a German id in the Allied player's suggestions.
    let (_, out) = check(&bob, "actions:\n  - move: {units: [DE-3X], path: [3329]}\n");
    assert!(out.contains("there is no unit DE-3X") && !out.contains("DE-3?"), "{out}");
}

/// A file that does not parse: every action that fails is named with its line.
#[test]
fn a_type_error_names_line_and_action_and_lists_them_all() {
    let (_t, bob) = marne_bob();
    let (code, out) = check(
        &bob,
        "# my orders\nactions:\n  - move: {units: FR-11, path: [3329]}\n  # - enter: {unit: ID, hex: HEX}\n  - attack: {target: abc, units: [FR-1]}\n  - end_phase: movement\n  - mvoe: {}\n",
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("3 error(s)"), "{out}");
    assert!(out.contains("o.yaml:3: action 1: invalid type: string \"FR-11\", expected a sequence"), "{out}");
    assert!(out.contains("o.yaml:5: action 2:") && out.contains("abc"), "{out}");
    assert!(out.contains("o.yaml:7: action 4: unknown variant `mvoe`"), "{out}");
}

/// The First World War names the closest roster ids for an unknown army.
#[test]
fn an_unknown_army_suggests_the_nearest_ids() {
    use umpire::rules::first_world_war::combat::no_such_army;
    let (game, _) = fww_two(1);
    let s = fww(&game);
    assert_eq!(no_such_army(s, "de-2"), "no such army in this scenario (ids are written in capitals: DE-2)");
    assert!(no_such_army(s, "DE-2X").contains("did you mean DE-2?"), "{}", no_such_army(s, "DE-2X"));
    assert_eq!(no_such_army(s, "ZZZZZZZZ"), "no such army in this scenario");
}

/// In the prepared assault phase the template offers every attack within reach, with its
/// odds against the defenders the seat can see: of a hidden stack only the top unit counts
/// (3232 holds DE-1C on top of DE-3, GE 13.8), so the template leaks nothing.
#[test]
fn the_combat_template_offers_attacks_with_odds_and_hides_what_is_hidden() {
    let (_t, bob) = marne_bob();
    std::fs::write(bob.join("e.yaml"), "actions:\n  - end_phase: movement\n").unwrap();
    let (code, out) = run(&bob, &["orders", "sign", "game.log", "e.yaml", "--as", "allied", "--key", "bob.key"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, tpl) = run(&bob, &["orders", "template", "game.log", "--as", "allied"]);
    assert_eq!(code, Some(0), "{tpl}");
    assert!(
        tpl.contains(
            "  # - attack: {target: 3131, units: [FR-42D, FR-1, FR-10]}   # attack 10 vs the defence 5 you can see: prepared assault on 3131 at 2:1, DRM +0"
        ),
        "{tpl}"
    );
    assert!(tpl.contains("{target: 3232, units: [FR-1, FR-3, FR-10, FR-4RG]}   # attack 13 vs the defence 1 you can see"), "{tpl}");
    assert!(!tpl.contains("DE-3"), "the unit under the top of a German stack stays hidden: {tpl}");
    assert!(tpl.contains("#   FR-1    3231  4 MP  a4/d3  3/4 SL  supplied  in command"), "{tpl}");
    // The template as written is legal: its only uncommented action.
    std::fs::write(bob.join("t.yaml"), &tpl).unwrap();
    let (code, out) = run(&bob, &["orders", "check", "game.log", "t.yaml", "--as", "allied"]);
    assert_eq!(code, Some(0), "{out}");
}

/// First World War templates: the armies due with the fronts they may deploy to, the chits in
/// hand, examples made of the faction's own pieces (never a German army in an Allied
/// template), and nothing uncommented that the rules refuse: at every step of a two-player
/// bot game, what the template leaves uncommented is accepted as the author's tool signs it.
#[test]
fn fww_templates_hold_the_position_and_are_legal_as_written() {
    let seed = 21;
    let (mut game, mut players) = fww_two(seed);
    let (mut checked, mut deploys, mut chits) = (0, 0, 0);
    for _ in 0..250 {
        if game.outcome().is_some() {
            break;
        }
        for seat in ["allies", "central_powers"] {
            if game.waiting_for().first().is_none_or(|(w, _)| w != seat) || game.pending.as_ref().is_some_and(|p| p.dice_from == seat) {
                continue;
            }
            let key = players.key(seat).unwrap().clone();
            let view = game.seat_view(seat, key.clone()).unwrap();
            let reveal = players.next_reveal(&game, seat).unwrap();
            let (state, _) = view.state_before(seat, reveal.as_ref());
            let tpl = state.template(seat);
            if seat == "allies" {
                assert!(!tpl.contains("piece: DE-") && !tpl.contains("[DE-") && !tpl.contains("army: DE-"), "{tpl}");
            }
            deploys += usize::from(tpl.contains("may deploy to fronts"));
            chits += usize::from(tpl.contains("# chits in hand:"));
            let v: yaml_serde::Value = yaml_serde::from_str(&tpl).unwrap();
            let has_actions = v.get("actions").and_then(|a| a.as_sequence()).is_some_and(|a| !a.is_empty());
            if has_actions {
                let mut body = Body::new(Kind::Orders);
                body.orders = Some(v);
                if let Err(e) = umpire::engine::author::complete_body(&view, seat, &key, reveal.as_ref(), body) {
                    panic!("template refused as written: {e:?}\n{tpl}");
                }
                checked += 1;
            }
        }
        any_step(&mut game, &mut players, seed);
    }
    assert!(checked > 20 && deploys > 0 && chits > 0, "checked {checked}, deploys {deploys}, chits {chits}");
}

/// The First World War picture (issue 18, item 5): every piece on a front is drawn (none
/// under another), and in a seat's own view its face-down armies show their army, while the
/// public picture shows only their backs.
#[test]
fn fww_picture_draws_every_piece_and_a_seat_sees_its_own() {
    use umpire::render::Kind;
    use umpire::rules::first_world_war::pieces::Ident;
    let seed = 9;
    let (mut game, mut players) = fww_two(seed);
    for _ in 0..600 {
        let key = players.key("allies").unwrap().clone();
        let view = game.seat_view("allies", key).unwrap();
        let vs = fww(&view);
        let own: Vec<_> = vs.pieces.iter().filter(|p| p.seat == "allies" && matches!(p.ident, Some(Ident::Army(_)))).collect();
        if !own.is_empty() {
            let Kind::AreaGraph(mine) = view.state.picture().kind else { panic!("an area graph") };
            for p in &own {
                let Some(Ident::Army(a)) = p.ident else { unreachable!() };
                let army = &vs.data.armies[a].id;
                assert!(
                    mine.counters.iter().any(|(_, c)| &c.top_text == army && c.title.contains(&p.id)),
                    "{} ({army}) is drawn as its army in the allies' view",
                    p.id
                );
            }
            let Kind::AreaGraph(public) = game.state.picture().kind else { panic!("an area graph") };
            let s = fww(&game);
            for p in &s.pieces {
                assert!(public.counters.iter().any(|(_, c)| c.top_text == "?" && c.title.contains(&p.id)), "{} is a back in public", p.id);
            }
            // Every piece, face up or down, is one counter of the picture.
            let on_map = s.armies.iter().filter(|w| matches!(w, umpire::rules::first_world_war::state::Where::Front(_))).count()
                + s.pieces.len()
                + s.dummies.iter().filter(|d| d.front.is_some()).count();
            assert_eq!(public.counters.len(), on_map);
            let svg = umpire::render::svg::to_svg(&view.state.picture());
            assert_eq!(svg.matches("class=\"piece\"").count(), mine.counters.len(), "each counter drawn once");
            return;
        }
        any_step(&mut game, &mut players, seed);
    }
    panic!("no position with an own face-down army");
}

/// Item 1: while a decision is owed (the defender's losses after a 1/1) the template still
/// holds the seat's position, names the decision owed, and lists the units with their values.
#[test]
fn the_decision_template_holds_the_position() {
    let (game, players) = marne_after_attack(|s| s.contains("awaiting german: allocate 1 loss points"));
    let t = tempfile::tempdir().unwrap();
    write_log_and_key(t.path(), &game.entries, "german", players.key("german").unwrap());
    let (code, tpl) = run(t.path(), &["orders", "template", "game.log", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(0), "{tpl}");
    assert!(tpl.contains("# your units: id, hex, MP left this phase, attack/defence at the current SL"), "{tpl}");
    assert!(
        tpl.contains("# decision owed: german: allocate 1 loss points") || tpl.contains("# decision owed: allocate 1 loss points"),
        "{tpl}"
    );
    assert!(tpl.contains("  - decide:"), "{tpl}");
    let unit_lines = tpl.lines().filter(|l| l.starts_with("#   DE-")).count();
    assert!(unit_lines > 5, "the German units are listed: {tpl}");
    assert!(tpl.lines().filter(|l| l.starts_with("#   DE-")).all(|l| l.contains(" SL ") && l.contains("command")), "{tpl}");
    // The loss owed is written out (never `losses: []`, which the rules refuse), and the
    // template as written passes `orders check`.
    assert!(tpl.contains("losses: [{unit: DE-") && tpl.contains("# a legal allocation"), "{tpl}");
    std::fs::write(t.path().join("orders.yaml"), &tpl).unwrap();
    let (code, out) = run(t.path(), &["orders", "check", "game.log", "orders.yaml", "--as", "german", "--key", "german.key"]);
    assert_eq!(code, Some(0), "the template is legal as written: {out}\n{tpl}");
}

/// Item 1: the setup template of a game with hidden counters and dummies gives each unit's
/// values and the dummies to place.
#[test]
fn the_setup_template_gives_values_and_the_dummies_to_place() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    support::ok(d, &["key", "new", "a"]);
    support::ok(d, &["key", "new", "b"]);
    support::ok(
        d,
        &[
            "new",
            "--scenario",
            "glorys-end/free-deployment",
            "--seat",
            "german=a.pub",
            "--seat",
            "allied=b.pub",
            "--option",
            "hidden_counters=true",
            "--option",
            "dummies=true",
            "--as",
            "german",
            "--key",
            "a.key",
            "--chain-length",
            "64",
        ],
    );
    let (code, tpl) = run(d, &["orders", "template", "game.log", "--as", "allied"]);
    assert_eq!(code, Some(0), "{tpl}");
    assert!(tpl.contains("# dummies to place (GE 15.1): FR 6"), "{tpl}");
    assert!(tpl.lines().any(|l| l.trim_start().starts_with("FR-1:") && l.contains("# army 5, a5/d4, 4/4 SL, 4 MP")), "{tpl}");
}

/// Item 3: `show` gives each unit on the map its factors at the current SL, supply and
/// command, and the VP totals say where the points come from; the replay speaks player
/// words (no Rust debug text).
#[test]
fn show_and_replay_speak_player_words() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let (code, out) = run(d, &["demo", "--dir", "ge", "--seed", "1914"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, shown) = run(d, &["show", "ge/game.log", "--at", "1"]);
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains("unit GB-1 GB 1 XXX 4/4 SL at 3334 [ooc] — attack 5 defence 6 movement 4, supplied, out of command"), "{shown}");
    assert!(
        shown
            .lines()
            .any(|l| l.starts_with("unit FR-9 ") && l.contains("3/4 SL at 3230 — attack 4 defence 3 movement 4, supplied, in command")),
        "{shown}"
    );
    let (_, end) = run(d, &["show", "ge/game.log"]);
    assert!(end.contains("vp german from: ") && end.contains(" eliminated +"), "{end}");
    let (_, status) = run(d, &["status", "ge/game.log", "--as", "allied", "--key", "ge/bob.key"]);
    assert!(!status.contains("Win {") && !status.contains("Some("), "{status}");
    // The replay page holds every step's events and changes (read from the file: a pipe holds less).
    let (code, out) = run(d, &["replay", "ge/game.log", "--html", "ge.html"]);
    assert_eq!(code, Some(0), "{out}");
    let replay = std::fs::read_to_string(d.join("ge.html")).unwrap();
    let debug = ["Some(", "None,", "Win {", "Draw {", "Defender {", "Attacker {", "Opening {"];
    for bad in debug {
        assert!(
            !replay.contains(bad),
            "debug text {bad:?} in the replay:\n{}",
            replay.lines().filter(|l| l.contains(bad)).take(3).collect::<Vec<_>>().join("\n")
        );
    }
    assert!(replay.contains("the defender allocates") || replay.contains("the attacker allocates"), "battles in words");
    let (code, out) = run(d, &["demo", "--ruleset", "first-world-war", "--dir", "fww", "--seed", "3"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run(d, &["replay", "fww/game.log", "--html", "fww.html"]);
    assert_eq!(code, Some(0), "{out}");
    let replay = std::fs::read_to_string(d.join("fww.html")).unwrap();
    for bad in ["step DefenderLead", "AttackerChitLead", "DefenderChit", "Some(", "{ front"] {
        assert!(!replay.contains(bad), "debug text {bad:?} in the replay");
    }
    assert!(replay.contains("next: the defender names its lead (6.1/2)"), "combat steps in words");
    assert!(replay.contains("VP sources: each faction 6 at the start") && replay.contains(" captured (front "), "FWW VP sources");
}
