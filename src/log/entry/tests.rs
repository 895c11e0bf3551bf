use super::*;

fn alice() -> SecretKey {
    SecretKey::from_seed("alice", [1; 32])
}

fn genesis_draft() -> Draft {
    let mut b = Body::new(Kind::Genesis);
    let text = "name: tiny\n---\nhexes: [0101, 0102]\n...\n";
    b.ruleset = Some(RulesetRef { id: "glorys-end".into(), version: "1".into() });
    b.engine = Some("umpire 0.1.0".into());
    b.scenario = Some(ScenarioRef { name: "tiny".into(), sha256: sha256(text.as_bytes()), text: text.into() });
    b.seats = Some(vec![
        SeatDecl { seat: "red".into(), side: "red".into(), key: alice().public().to_text() },
        SeatDecl { seat: "blue".into(), side: "blue".into(), key: SecretKey::from_seed("bob", [2; 32]).public().to_text() },
    ]);
    b.nonce = Some(Hash([0x11; 32]));
    b.chain_length = Some(16);
    b.chain = Some(Hash([0x22; 32]));
    Draft {
        game: None,
        seq: 0,
        prev: None,
        seat: "red".into(),
        reveal: None,
        dice_from: None,
        time: "2026-01-01T00:00:00Z".into(),
        body: b,
    }
}

fn orders_draft() -> Draft {
    let mut b = Body::new(Kind::Orders);
    b.orders = Some(yaml_serde::from_str("moves: [{unit: A1, to: '0203'}]\n").unwrap());
    b.note = Some("line one\n---\nline three".into());
    Draft {
        game: Some(Hash([1; 32])),
        seq: 3,
        prev: Some(Hash([2; 32])),
        seat: "red".into(),
        reveal: Some(Hash([3; 32])),
        dice_from: Some("blue".into()),
        time: "2026-01-01T00:03:00Z".into(),
        body: b,
    }
}

#[test]
fn genesis_layout() {
    let e = genesis_draft().try_sign(&alice()).unwrap();
    let text = String::from_utf8(e.bytes.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "umpire: entry/2");
    assert_eq!(lines[1], "seq: 0");
    assert_eq!(lines[2], "seat: red");
    assert!(lines[3].starts_with("time: "));
    assert_eq!(lines[4], "body:");
    assert!(text.contains("    text: |"), "{text}");
    assert!(lines.last().unwrap().starts_with("sig: ed25519:"));
    assert!(text.ends_with("\n"));
    assert!(!has_separator_line(&e.bytes));
    assert!(e.verify_signature(&alice().public().key));
    assert_eq!(e.hash, sha256(&e.bytes));
    assert_eq!(e.unsigned_bytes(), e.draft.to_bytes().as_slice());
    let mut m = b"umpire/entry/1\0".to_vec();
    m.extend(e.draft.to_bytes());
    assert_eq!(e.signed_message(), m);
}

#[test]
fn orders_layout_and_round_trip() {
    let d = orders_draft();
    let e = d.clone().try_sign(&alice()).unwrap();
    let text = String::from_utf8(e.bytes.clone()).unwrap();
    let keys: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(keys, ["umpire", "game", "seq", "prev", "seat", "reveal", "dice_from", "time", "body", "sig"]);
    assert_eq!(Entry::parse(&e.bytes).unwrap(), e);
    assert_eq!(e.draft, d);
}

#[test]
fn numeric_looking_hashes_round_trip_as_strings() {
    let mut digits = [0u8; 32];
    digits.fill(0x11); // "1111…"
    let mut zero_lead = [0x01u8; 32]; // "0101…"
    zero_lead[31] = 0x23;
    let mut exp_small = [0x11u8; 32]; // "1e0000…05": a finite float
    exp_small[0] = 0x1e;
    for b in exp_small.iter_mut().skip(1) {
        *b = 0;
    }
    exp_small[31] = 0x05;
    let mut exp_inf = [0x99u8; 32]; // "1e9999…": overflows to infinity
    exp_inf[0] = 0x1e;
    let mut bin = [0x01u8; 32]; // "0b0101…"
    bin[0] = 0x0b;
    let mut d = orders_draft();
    for h in [digits, zero_lead, exp_small, exp_inf, bin, [0; 32]] {
        d.prev = Some(Hash(h));
        d.reveal = Some(Hash(h));
        d.body.note = Some(Hash(h).to_hex());
        let e = d.clone().try_sign(&alice()).unwrap();
        let back = Entry::parse(&e.bytes).unwrap();
        assert_eq!(back.draft.prev, Some(Hash(h)), "{}", String::from_utf8_lossy(&e.bytes));
        assert_eq!(back.draft.body.note.as_deref(), Some(Hash(h).to_hex().as_str()));
    }
}

#[test]
fn awkward_strings_round_trip() {
    let mut d = orders_draft();
    for s in [
        "---",
        "...",
        "--- x",
        "- a",
        "&a",
        "*a",
        "!a",
        "yes",
        "no",
        "on",
        "null",
        "~",
        "",
        " lead",
        "trail ",
        "a: b",
        "#x",
        "x #y",
        "\t",
        "a\r\nb",
        "a\rb",
        "\u{85}x",
        "x\u{2028}y",
        "\u{feff}",
        "\u{0}",
        "é\n\n\n",
        "\n---\n",
        "   \n---",
        "0x1F",
        "1e5",
        "0o17",
        ".inf",
        "2026-01-01",
        "'",
        "\"",
        "|",
        ">",
        &"long words ".repeat(40),
        &("x".repeat(200) + "\n---\n" + &"y ".repeat(100)),
    ] {
        d.body.note = Some(s.to_string());
        d.seat = s.to_string();
        d.dice_from = Some(s.to_string());
        d.time = s.to_string();
        let e = d.clone().try_sign(&alice()).unwrap_or_else(|err| panic!("{s:?}: {err}"));
        assert!(!has_separator_line(&e.bytes), "{s:?}");
        let back = Entry::parse(&e.bytes).unwrap();
        assert_eq!(back.draft.body.note.as_deref(), Some(s));
        assert_eq!(back.draft.seat, s);
    }
}

#[test]
fn shed_orders_come_back_from_the_bytes() {
    let e = orders_draft().try_sign(&alice()).unwrap();
    let mut shed = e.clone();
    shed.shed_orders();
    // The parsed tree is gone; the orders read through `orders()` are the signed ones.
    assert!(shed.draft.body.orders.is_none() && shed.orders_shed);
    assert_eq!(shed.orders().as_deref(), e.draft.body.orders.as_ref());
    assert!(matches!(e.orders(), Some(std::borrow::Cow::Borrowed(_))));
    // The same entry either way, both ways round; a different entry is not.
    assert_eq!(shed, e);
    assert_eq!(e, shed);
    let mut other = orders_draft();
    other.body.orders = Some(yaml_serde::from_str("moves: [{unit: A1, to: '0204'}]\n").unwrap());
    let mut other = other.try_sign(&alice()).unwrap();
    other.shed_orders();
    assert_ne!(other, shed);
    assert_ne!(other, e);
    // An entry without orders sheds nothing and stays as it was.
    let mut ack = {
        let mut d = orders_draft();
        d.body = Body::new(Kind::Ack);
        d.try_sign(&alice()).unwrap()
    };
    let before = ack.clone();
    ack.shed_orders();
    assert!(!ack.orders_shed && ack.orders().is_none());
    assert_eq!(ack, before);
}

#[test]
fn crlf_copies_only_when_there_is_a_cr() {
    assert_eq!(crlf_to_lf(b"a\nb\n"), b"a\nb\n");
    assert_eq!(crlf_to_lf(b"a\r\nb\r\n"), b"a\nb\n");
    // A CR not before an LF stays (the parse refuses it later).
    assert_eq!(crlf_to_lf(b"a\rb\r\n"), b"a\rb\n");
}

#[test]
fn crlf_is_accepted() {
    let e = orders_draft().sign(&alice());
    let crlf = String::from_utf8(e.bytes.clone()).unwrap().replace('\n', "\r\n");
    let back = Entry::parse(crlf.as_bytes()).unwrap();
    assert_eq!(back, e);
    assert!(back.verify_signature(&alice().public().key));
}

#[test]
fn every_single_byte_flip_is_caught() {
    let key = alice().public().key;
    for d in [genesis_draft(), orders_draft()] {
        let e = d.sign(&alice());
        for i in 0..e.bytes.len() {
            for bit in [0x01u8, 0x20, 0x80] {
                let mut b = e.bytes.clone();
                b[i] ^= bit;
                if let Ok(t) = Entry::parse(&b) {
                    assert!(!t.verify_signature(&key), "flip {bit:#x} at {i} still verifies");
                    assert_ne!(t.hash, e.hash);
                }
            }
        }
    }
}

fn resign(text: &str) -> Vec<u8> {
    // Re-sign a hand-edited unsigned text (to reach the parser's own checks).
    let mut m = SIGNED_PREFIX.to_vec();
    m.extend(text.as_bytes());
    let sig = alice().sign(&m).to_bytes();
    format!("{text}{SIG_PREFIX}{}\n", STANDARD.encode(sig)).into_bytes()
}

#[test]
fn parse_errors() {
    let good = String::from_utf8(orders_draft().to_bytes()).unwrap();
    let e = Entry::parse(&resign(&good)).unwrap();
    assert!(e.verify_signature(&alice().public().key));

    let big = vec![b'a'; MAX_ENTRY_BYTES + 1];
    assert!(matches!(Entry::parse(&big), Err(EntryError::TooLarge { .. })));
    assert_eq!(Entry::parse(b"umpire: entry/1\n\xff\nsig: ed25519:AA==\n"), Err(EntryError::NotUtf8));
    let signed = resign(&good);
    let no_lf = &signed[..signed.len() - 1];
    assert_eq!(Entry::parse(no_lf), Err(EntryError::NoSignatureLine));
    assert_eq!(Entry::parse(good.as_bytes()), Err(EntryError::NoSignatureLine));
    assert!(matches!(Entry::parse(format!("{good}sig: ed25519:AAAA\n").as_bytes()), Err(EntryError::BadSignatureLine(_))));
    assert!(matches!(Entry::parse(format!("{good}sig: ed25519:!!\n").as_bytes()), Err(EntryError::BadSignatureLine(_))));
    let sig_text = String::from_utf8(signed.clone()).unwrap();
    let unpadded = sig_text.trim_end().trim_end_matches('=').to_string() + "\n";
    assert!(matches!(Entry::parse(unpadded.as_bytes()), Err(EntryError::BadSignatureLine(_))));
    assert!(matches!(Entry::parse(sig_text.replace("sig: ", "sig:  ").as_bytes()), Err(EntryError::NoSignatureLine)));
    assert!(Entry::parse(sig_text.replace('\n', "\r").as_bytes()).is_err());

    let cases: Vec<(String, &str)> = vec![
        (good.replace("seq: 3", "seq: 3\nseq: 4"), "Yaml"),
        (good.replace("seat: red", "seat: &s red"), "Yaml"),
        (good.replace("dice_from: blue", "dice_from: !!str blue"), "Yaml"),
        (format!("%YAML 1.1\n--- \n{good}"), "Yaml"),
        (good.replace("seq: 3", "seq: [3"), "Yaml"),
        (good.replace("umpire: entry/2", "umpire: entry/3"), "Header"),
        (good.replace("umpire: entry/2", "umpire: entry/1"), "Header"),
        (good.replace("seq: 3\n", "").replace("seat: red", "seat: red\nseq: 3"), "Header"),
        (good.replace("seat: red", "seat: red\nextra: 1"), "Header"),
        (good.replace("dice_from: blue", "dice_from: null"), "Header"),
        (good.replace("seq: 3", "seq: '3'"), "Header"),
        (good.replace("seq: 3", "seq: -3"), "Header"),
        (good.replace("seq: 3", "seq: 0x3"), "Header"),
        (good.replace("seq: 3", "seq: +3"), "Header"),
        (good.replace("seq: 3", "seq: 03"), "Header"),
        (good.replace("seq: 3", "seq: 0o3"), "Header"),
        (good.replace("seq: 3", "seq: 0"), "Header"),
        (good.lines().filter(|l| !l.starts_with("game:")).map(|l| format!("{l}\n")).collect(), "Header"),
        (good.replace("kind: orders", "kind: orderz"), "Body"),
        (good.replace("kind: orders", "kind: ack"), "Body"),
        (good.replace("kind: orders", "kind: orders\n  colour: red"), "Body"),
        (good.replace("kind: orders", "kind: orders\n  sealed: null"), "Body"),
        (good.replace(&Hash([2; 32]).to_hex(), &"AB".repeat(32)), "Header"),
        (good.replace(&Hash([2; 32]).to_hex(), "0202"), "Header"),
    ];
    for (text, want) in cases {
        let got = Entry::parse(&resign(&text));
        let kind = match &got {
            Err(EntryError::Yaml(_)) => "Yaml",
            Err(EntryError::Header(_)) => "Header",
            Err(EntryError::Body(_)) => "Body",
            other => panic!("{text}\n=> {other:?}"),
        };
        assert_eq!(kind, want, "{text}\n=> {got:?}");
    }
    // A `---` line anywhere is refused, even where YAML would allow it.
    let dashes = good.replace("seat: red", "seat: red\n---");
    assert!(matches!(Entry::parse(&resign(&dashes)), Err(EntryError::Header(_))));
}

#[test]
fn shapes() {
    let g = genesis_draft().body;
    assert!(g.check_shape().is_ok());
    let mut b = g.clone();
    b.nonce = None;
    assert!(b.check_shape().unwrap_err().contains("nonce"));
    let mut b = g.clone();
    b.options = Some(yaml_serde::Value::Bool(true));
    assert!(b.check_shape().is_ok());
    let mut b = g.clone();
    b.orders = Some(yaml_serde::Value::Bool(true));
    assert!(b.check_shape().unwrap_err().contains("orders"));
    let mut j = Body::new(Kind::Join);
    assert!(j.check_shape().is_err());
    j.chain = Some(Hash([0; 32]));
    j.note = Some("hi".into());
    j.sealed = Some("AAAA".into());
    assert!(j.check_shape().is_ok());
    j.nonce = Some(Hash([0; 32]));
    assert!(j.check_shape().is_err());
    for k in [Kind::Ack, Kind::Resign, Kind::OfferDraw] {
        let mut b = Body::new(k);
        assert!(b.check_shape().is_ok());
        b.orders = Some(yaml_serde::Value::Null);
        assert!(b.check_shape().is_err());
        let mut b = Body::new(k);
        b.chain = Some(Hash([0; 32]));
        assert!(b.check_shape().is_err());
    }
    for k in [Kind::AcceptDraw, Kind::AgreeAmend] {
        let mut b = Body::new(k);
        assert!(b.check_shape().is_err());
        b.agree = Some(Hash([0; 32]));
        assert!(b.check_shape().is_ok());
    }
    let mut p = Body::new(Kind::ProposeAmend);
    assert!(p.check_shape().is_err());
    p.amend = Some(Amendment { undo_from: Some(3), reason: "misclick".into() });
    assert!(p.check_shape().is_ok());
    let mut o = Body::new(Kind::Orders);
    o.orders = Some(yaml_serde::Value::Bool(true));
    o.commit = Some(vec![Commitment { id: "a".into(), digest: Hash([0; 32]) }; 2]);
    assert!(o.check_shape().unwrap_err().contains("twice"));
}

#[test]
fn try_sign_refuses_what_does_not_round_trip() {
    let mut d = orders_draft();
    d.body.orders = Some(yaml_serde::Value::Null);
    assert!(d.try_sign(&alice()).is_err());
    let mut d = orders_draft();
    d.body.kind = Kind::Ack;
    assert!(d.try_sign(&alice()).is_err());
}

#[test]
fn folded_plain_scalars_never_make_a_separator_line() {
    let mut d = orders_draft();
    for s in [
        "a".repeat(70) + " --- " + &"b".repeat(90),
        "--- ".to_string() + &"b".repeat(90),
        "x ".repeat(39) + "--- " + &"y".repeat(100),
        "x ".repeat(39) + "---\n" + &"y".repeat(100),
        "x ".repeat(39) + "... " + &"y".repeat(100),
    ] {
        d.seat = s.clone();
        d.time = s.clone();
        d.body.note = Some(s.clone());
        d.body.orders = Some(yaml_serde::Value::String(s.clone()));
        let e = d.clone().try_sign(&alice()).unwrap();
        let text = String::from_utf8(e.bytes.clone()).unwrap();
        assert!(!has_separator_line(&e.bytes), "{text}");
        assert!(!text.lines().any(|l| l == "..."), "{text}");
    }
}

#[test]
fn chain_length_in_one_spelling() {
    let good = String::from_utf8(genesis_draft().to_bytes()).unwrap();
    assert!(good.contains("  chain_length: 16\n"));
    assert!(Entry::parse(&resign(&good)).is_ok());
    for bad in ["0x10", "+16", "016", "'16'", "1_6"] {
        let t = good.replace("  chain_length: 16\n", &format!("  chain_length: {bad}\n"));
        assert!(matches!(Entry::parse(&resign(&t)), Err(EntryError::Body(_))), "{bad}");
    }
}

/// The one-pass read of an entry (the scan's events, `yamlevents`) against `yaml_serde`'s
/// read of its text, on every entry of a bot game of each bundled scenario: the same header
/// every time, and never a fall-back (which would cost the second parse again).
#[test]
fn one_pass_reads_every_bot_entry_as_yaml_serde_does() {
    use crate::engine::bot;
    let mut checked = 0;
    for scenario in crate::scenarios::ALL {
        let seats = crate::scenarios::seats(scenario);
        let (mut game, mut players) = bot::start_game(scenario, &seats, 7, 4096, "2000-01-01T00:00:00Z").unwrap();
        let mut clock = || "2000-01-01T00:00:00Z".to_string();
        let mut keep = |_: &Entry, _: &crate::engine::game::Game| Ok(());
        let _ = bot::play_out(&mut game, &mut players, 7, 120, &mut clock, &mut keep);
        for e in &game.entries {
            let unsigned = e.unsigned_bytes();
            let (_, events) = crate::log::yamlscan::scan_events(unsigned).unwrap();
            let one: HeaderIn = crate::log::yamlevents::from_events(&events)
                .unwrap_or_else(|err| panic!("{} entry {}: the one-pass read fails: {err}", scenario.name, e.seq()));
            let two: HeaderIn = yaml_serde::from_slice(unsigned).unwrap();
            assert_eq!(one, two, "{} entry {}", scenario.name, e.seq());
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked} entries");
}

/// Odd spellings in every part of an entry: the one-pass read and `yaml_serde`'s give the
/// same entry or the same error, each time.
#[test]
fn one_pass_and_two_pass_agree_on_odd_spellings() {
    let base = String::from_utf8(genesis_draft().to_bytes()).unwrap();
    let sig = format!("{SIG_PREFIX}{}\n", STANDARD.encode([7u8; 64]));
    let swaps: &[(&str, &str)] = &[
        ("seq: 0", "seq: 0x0"),
        ("seq: 0", "seq: '0'"),
        ("seq: 0", "seq: ~"),
        ("seq: 0", "seq: 00"),
        ("seq: 0", "seq: -0"),
        ("kind: genesis", "kind: 'genesis'"),
        ("kind: genesis", "kind: [genesis]"),
        ("kind: genesis", "kind: {genesis: 1}"),
        ("kind: genesis", "kind: Genesis"),
        ("kind: genesis", "kind:"),
        ("chain_length: 16", "chain_length: +16"),
        ("chain_length: 16", "chain_length: 1_6"),
        ("chain_length: 16", "chain_length: 16.0"),
        ("chain_length: 16", "chain_length: \"16\""),
        ("chain_length: 16", "chain_length: 99999999999999999999999"),
        ("seat: red", "seat: true"),
        ("seat: red", "seat: 12"),
        ("seat: red", "seat: ~"),
        ("seat: red", "seat: 'red'"),
        ("seat: red", "seat: [red]"),
        ("time: ", "time: !!str "),
        ("  kind: genesis", "  kind: genesis\n  orders: {a: 0x10, b: [1, '2', ~, .inf, -0o7, 1e3, 007], c: {}, d: [], e: ''}"),
        ("  kind: genesis", "  kind: genesis\n  orders: {1: a, 0x1: b}"),
        ("  kind: genesis", "  kind: genesis\n  orders:"),
        ("  kind: genesis", "  kind: genesis\n  note: 12"),
        ("  kind: genesis", "  kind: genesis\n  note: |\n    two\n    lines"),
        ("  kind: genesis", "  kind: genesis\n  lead: null"),
        ("  kind: genesis", "  kind: genesis\n  extra: 1"),
        ("  kind: genesis", "  kind: genesis\n  seats: x"),
        ("  kind: genesis", "  kind: genesis\n  commit: []"),
        ("  kind: genesis", "  kind: genesis\n  commit:"),
    ];
    let mut accepted = 0;
    for (from, to) in swaps {
        assert!(base.contains(from), "{from:?} is not in the genesis");
        let text = base.replacen(from, to, 1) + &sig;
        let one = Entry::parse(text.as_bytes());
        let two = Entry::parse_two_pass(text.as_bytes());
        assert_eq!(one, two, "{to:?}");
        accepted += usize::from(one.is_ok());
    }
    // Some odd spellings are real entries (quoted strings, `orders` of any YAML): the
    // comparison covers accepted entries, not only refusals.
    assert!(accepted >= 4, "{accepted}");
}
