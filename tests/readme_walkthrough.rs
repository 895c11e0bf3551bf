//! The README's "Playing a game by email", run for real: two players, two directories, one
//! machine, the real binary with a fixed clock.

mod support;
use support::{marne_by_email, ok, text, umpire_in};

#[test]
fn two_players_by_email_as_the_readme_says() {
    let t = tempfile::tempdir().unwrap();
    // Alice proposes; bob joins from the genesis entry file; alice takes the join.
    let (alice, bob) = marne_by_email(t.path());

    // Both copies agree; the Allies move first (GE 5.2).
    for dir in [&alice, &bob] {
        let s = ok(dir, &["status", "game.log"]);
        assert!(s.contains("waiting for allied"), "{s}");
        let j: serde_json::Value = serde_json::from_str(&ok(dir, &["status", "game.log", "--json"])).unwrap();
        assert_eq!(j["awaiting"][0]["seat"], "allied");
    }

    // The template, and a bad order refused with its rule.
    let tpl = ok(&bob, &["orders", "template", "game.log", "--as", "allied"]);
    assert!(tpl.starts_with("# yaml-language-server: $schema="), "{tpl}");
    // The README shows the beginning of this template, the position in it: every line it
    // shows is a line of the real one.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let shown = readme.split("Bob's first template on the Marne begins:\n\n```yaml\n").nth(1).expect("the README shows a template");
    let shown = shown.split("```").next().unwrap();
    assert!(shown.contains("# your units:") && shown.contains("  # - enter:"), "{shown}");
    for line in shown.lines() {
        assert!(tpl.lines().any(|l| l == line), "README line {line:?} is not in the template:\n{tpl}");
    }
    // And its refusal for movement points.
    std::fs::write(bob.join("far.yaml"), "actions:\n  - move: {units: [GB-1], path: [3434, 3435]}\n").unwrap();
    let o = umpire_in(&bob, &["orders", "check", "game.log", "far.yaml", "--as", "allied"], None);
    let refusal = readme.split("A refusal says why: `").nth(1).and_then(|r| r.split('`').next()).expect("the README shows a refusal");
    assert!(text(&o).contains(&refusal.replace('\n', " ")), "README refusal {refusal:?} vs {}", text(&o));
    std::fs::write(bob.join("bad.yaml"), "actions:\n  - move: {units: [FR-1], path: [3232]}\n").unwrap();
    let o = umpire_in(&bob, &["orders", "check", "game.log", "bad.yaml", "--as", "allied"], None);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("GE 12.4"), "entering an enemy-held hex cites GE 12.4: {}", text(&o));
    std::fs::write(bob.join("garbled.yaml"), "actions:\n  - mvoe: {}\n").unwrap();
    let o = umpire_in(&bob, &["orders", "check", "game.log", "garbled.yaml", "--as", "allied"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("cannot parse"), "{}", text(&o));

    // The README's example orders: legal, signed, sent, applied.
    std::fs::write(bob.join("orders.yaml"), "actions:\n  - move: {units: [FR-11], path: [3329, 3328]}\n  - end_phase: movement\n  - attack: {target: 3232, units: [FR-1, FR-10]}\n").unwrap();
    let out = ok(&bob, &["orders", "check", "game.log", "orders.yaml", "--as", "allied"]);
    assert!(out.contains("orders are legal"), "{out}");
    let out = ok(&bob, &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key"]);
    assert!(out.contains("game.log.2.yaml"), "{out}");
    assert!(out.contains("awaiting the dice"), "the attack waits for german's reveal: {out}");
    std::fs::copy(bob.join("game.log.2.yaml"), alice.join("game.log.2.yaml")).unwrap();
    let out = ok(&alice, &["apply", "game.log", "game.log.2.yaml", "--as", "german", "--key", "alice.key"]);
    assert!(out.contains("your next entry reveals the dice"), "alice sees the roll before answering: {out}");
    assert!(out.contains("CRT roll"), "{out}");

    // Alice answers the roll (revealing the owed die; a resignation carries no reveal in
    // protocol 2) with standing instructions, which decide whatever the roll asks of her (an
    // `ack` is refused when it asks something), then resigns; bob applies both; both logs
    // verify and agree.
    std::fs::write(
        alice.join("answer.yaml"),
        "actions:\n  - standing: {losses: [spread], retreat: [toward-supply], optional_retreat: never}\n",
    )
    .unwrap();
    ok(&alice, &["orders", "sign", "game.log", "answer.yaml", "--as", "german", "--key", "alice.key"]);
    ok(&alice, &["resign", "game.log", "--as", "german", "--key", "alice.key"]);
    for n in [3, 4] {
        std::fs::copy(alice.join(format!("game.log.{n}.yaml")), bob.join(format!("game.log.{n}.yaml"))).unwrap();
    }
    let out = ok(&bob, &["apply", "game.log", "game.log.3.yaml", "game.log.4.yaml"]);
    assert!(out.contains("GAME OVER: allied wins"), "{out}");
    assert!(out.contains("d6 rolled"), "the resolved die is reported: {out}");
    std::fs::copy(alice.join("game.log"), bob.join("alices.log")).unwrap();
    let v = ok(&bob, &["verify", "game.log", "--against", "alices.log"]);
    assert!(v.contains("OK: the log verifies") && v.contains("random events: 1"), "{v}");
    assert_eq!(std::fs::read(alice.join("game.log")).unwrap(), std::fs::read(bob.join("game.log")).unwrap());
    // Nothing more can be signed after the end.
    let o = umpire_in(&bob, &["offer-draw", "game.log", "--as", "allied", "--key", "bob.key"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("game is over"), "{}", text(&o));
}
