//! Take-backs by agreement (DESIGN §2.7) through the real binary: a misplayed attack is
//! withdrawn once the other side agrees, its die is rolled again when it is played again, and
//! `verify` lists the amendment.

mod support;

use support::{failing, marne_by_email, ok, send};

/// The German entry that reveals the die of an Allied attack: complete standing instructions,
/// which answer any decision the roll leaves and are accepted when it leaves none (GE 13.17–13.25).
fn answer_roll(alice: &std::path::Path) {
    std::fs::write(
        alice.join("answer.yaml"),
        "actions:\n  - standing: {losses: [spread], retreat: [toward-supply], optional_retreat: never, cavalry_withdraws: never}\n",
    )
    .unwrap();
    ok(alice, &["orders", "sign", "game.log", "answer.yaml", "--as", "german", "--key", "alice.key"]);
}

#[test]
fn a_misplayed_attack_is_taken_back_by_agreement() {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = marne_by_email(t.path());

    // Bob attacks with the wrong units: the entry waits for alice's die.
    std::fs::write(bob.join("orders.yaml"), "actions:\n  - end_phase: movement\n  - attack: {target: 3232, units: [FR-1]}\n").unwrap();
    ok(&bob, &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key"]);
    send(&bob, &alice, "game.log.2.yaml");
    ok(&alice, &["apply", "game.log", "game.log.2.yaml"]);

    // While alice alone can compute the die, nobody may propose a take-back (DESIGN §2.5/2.7):
    // bob would ask only when he disliked a roll he cannot see, alice when she saw it.
    let early = failing(&bob, &["propose-amend", "game.log", "--as", "allied", "--key", "bob.key", "--undo-from", "2", "--reason", "x"]);
    assert!(early.contains("known to one side only"), "{early}");
    // Alice makes the roll public first, answering whatever it leaves her by standing
    // instructions (an `ack` is refused when the roll leaves her a decision).
    answer_roll(&alice);
    send(&alice, &bob, "game.log.3.yaml");
    ok(&bob, &["apply", "game.log", "game.log.3.yaml"]);

    // A take-back from entry 3 alone would let the re-roll be fixed by a reveal alice knows:
    // the engine makes it reach entry 2, the attack the die belonged to.
    let short = failing(&bob, &["propose-amend", "game.log", "--as", "allied", "--key", "bob.key", "--undo-from", "3", "--reason", "x"]);
    assert!(short.contains("must withdraw entry 2 too"), "{short}");
    let out =
        ok(&bob, &["propose-amend", "game.log", "--as", "allied", "--key", "bob.key", "--undo-from", "2", "--reason", "meant FR-10 too"]);
    assert!(out.contains("proposes take back entries 2–3"), "{out}");
    send(&bob, &alice, "game.log.4.yaml");
    ok(&alice, &["apply", "game.log", "game.log.4.yaml"]);
    let s = ok(&alice, &["status", "game.log"]);
    assert!(s.contains("amendment proposed by allied at entry 4"), "{s}");
    // Bob cannot agree to his own proposal.
    let own = failing(&bob, &["agree-amend", "game.log", "--as", "allied", "--key", "bob.key"]);
    assert!(own.contains("its own proposal"), "{own}");

    // Alice agrees: the attack and its roll are withdrawn.
    let out = ok(&alice, &["agree-amend", "game.log", "--as", "german", "--key", "alice.key"]);
    assert!(out.contains("entries 2–3 withdrawn"), "{out}");
    send(&alice, &bob, "game.log.5.yaml");
    ok(&bob, &["apply", "game.log", "game.log.5.yaml"]);
    for dir in [&alice, &bob] {
        let s = ok(dir, &["status", "game.log"]);
        assert!(s.contains("waiting for allied") && !s.contains("dice owed"), "{s}");
        assert!(s.contains("in force: take-back of entries 2–3, proposed by allied at entry 4, agreed at entry 5: meant FR-10 too"), "{s}");
    }

    // Bob plays the attack he meant; it waits for alice's next reveal, a new die.
    std::fs::write(bob.join("orders.yaml"), "actions:\n  - end_phase: movement\n  - attack: {target: 3232, units: [FR-1, FR-10]}\n")
        .unwrap();
    let out = ok(&bob, &["orders", "sign", "game.log", "orders.yaml", "--as", "allied", "--key", "bob.key"]);
    assert!(out.contains("awaiting the dice"), "{out}");
    send(&bob, &alice, "game.log.6.yaml");
    ok(&alice, &["apply", "game.log", "game.log.6.yaml"]);
    answer_roll(&alice);
    send(&alice, &bob, "game.log.7.yaml");
    let out = ok(&bob, &["apply", "game.log", "game.log.7.yaml"]);
    assert!(out.contains("CRT roll"), "{out}");

    // The referee sees every entry, both dice, and the amendment.
    let v = ok(&bob, &["verify", "game.log"]);
    assert!(v.contains("OK: the log verifies"), "{v}");
    assert!(v.contains("random events: 2"), "the withdrawn roll is still listed: {v}");
    assert!(v.contains("deviations (amendments): 1") && v.contains("take-back of entries 2–3"), "{v}");
    assert_eq!(std::fs::read(alice.join("game.log")).unwrap(), std::fs::read(bob.join("game.log")).unwrap());
}
