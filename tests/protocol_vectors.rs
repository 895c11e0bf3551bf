//! Protocol test vectors (DESIGN §2.8): fixed keys, a small complete log, its hashes, dice
//! seeds and rolls, a shuffle, a commitment, sealed notes and a private draw.
//!
//! Everything is recomputed and compared with `tests/vectors/vectors.json` and
//! `tests/vectors/game.log`. A difference is a protocol change, never a fix. To regenerate
//! (only for a deliberate protocol version change), run with `UMPIRE_REGEN_VECTORS=1`.
//! `tests/vectors/independent_check.py` re-derives the same values without umpire code.

use std::path::PathBuf;

use serde_json::{Value, json};
use umpire::crypto::chain::{chain_seed, chain_value};
use umpire::crypto::keys::SecretKey;
use umpire::crypto::{Hash, commit, draw, seal, sha256};
use umpire::dice::{Dice, dice_seed, lead_seed};
use umpire::log::entry::{Body, Draft, Entry, Kind, RulesetRef, ScenarioRef, SeatDecl};
use umpire::log::protocol::{Agreement, ProtocolState, compare, joins_digest};
use umpire::log::store::{join_log, read_log};

const CHAIN_LENGTH: u64 = 16;
const SCENARIO: &str = "# A tiny test scenario.\nname: vectors\nmap:\n  - 0101\n  - 0102\nunits: []\n";

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

struct Seat {
    seat: &'static str,
    side: &'static str,
    key: SecretKey,
}

fn seats() -> Vec<Seat> {
    vec![
        Seat { seat: "red", side: "entente", key: SecretKey::from_seed("alice", [1; 32]) },
        Seat { seat: "blue", side: "central", key: SecretKey::from_seed("bob", [2; 32]) },
        Seat { seat: "green", side: "entente", key: SecretKey::from_seed("carol", [3; 32]) },
    ]
}

fn nonce() -> Hash {
    sha256(b"umpire test vectors nonce")
}

fn chain(seat: &Seat, i: u64) -> Hash {
    chain_value(&chain_seed(&seat.key.seed(), &nonce().0, seat.seat), CHAIN_LENGTH, i).unwrap()
}

fn orders(text: &str) -> yaml_serde::Value {
    yaml_serde::from_str(text).unwrap()
}

/// Build the log (protocol 2): genesis (red); the joins of blue (seq 1) and green (seq 2),
/// both with prev = game id, made in parallel; orders red (prev = the joins digest), orders
/// blue (naming green), an offer-draw by blue (no reveal), orders green opening with a
/// leading roll (lead = blue's orders), ack blue, ack red.
fn build() -> Vec<Entry> {
    let s = seats();
    let (red, blue, green) = (&s[0], &s[1], &s[2]);
    let mut g = Body::new(Kind::Genesis);
    g.ruleset = Some(RulesetRef { id: "test".into(), version: "1".into() });
    g.engine = Some("umpire 0.1.0".into());
    g.scenario = Some(ScenarioRef { name: "vectors".into(), sha256: sha256(SCENARIO.as_bytes()), text: SCENARIO.into() });
    g.seats = Some(s.iter().map(|p| SeatDecl { seat: p.seat.into(), side: p.side.into(), key: p.key.public().to_text() }).collect());
    g.nonce = Some(nonce());
    g.chain_length = Some(CHAIN_LENGTH);
    g.chain = Some(chain(red, 0));
    g.note = Some("A game for the test vectors.\nTwo lines.".into());
    let e0 = Draft {
        game: None,
        seq: 0,
        prev: None,
        seat: "red".into(),
        reveal: None,
        dice_from: None,
        time: "2026-01-01T00:00:00Z".into(),
        body: g,
    }
    .try_sign(&red.key)
    .unwrap();
    let game = e0.hash;
    let mut log = vec![e0];
    let join = |seat: &Seat, seq: u64, time: &str| {
        let mut j = Body::new(Kind::Join);
        j.chain = Some(chain(seat, 0));
        Draft { game: Some(game), seq, prev: Some(game), seat: seat.seat.into(), reveal: None, dice_from: None, time: time.into(), body: j }
            .try_sign(&seat.key)
            .unwrap()
    };
    // Made at the same time; the log holds them in seq order.
    let j2 = join(green, 2, "2026-01-01T01:00:00Z");
    let j1 = join(blue, 1, "2026-01-01T01:00:01Z");
    let digest = joins_digest(&[j1.hash, j2.hash]);
    log.push(j1);
    log.push(j2);
    let mut prev = digest;
    let mut add = |seat: &Seat, reveal: Option<u64>, dice_from: Option<&str>, time: &str, body: Body| {
        let seq = log.last().unwrap().seq() + 1;
        let d = Draft {
            game: Some(game),
            seq,
            prev: Some(prev),
            seat: seat.seat.into(),
            reveal: reveal.map(|i| chain(seat, i)),
            dice_from: dice_from.map(String::from),
            time: time.into(),
            body,
        };
        let e = d.try_sign(&seat.key).unwrap();
        prev = e.hash;
        log.push(e.clone());
        e
    };

    let mut o = Body::new(Kind::Orders);
    o.orders = Some(orders("note: red advances\n"));
    o.commit = Some(vec![
        umpire::log::entry::Commitment {
            id: "army-7@3".into(),
            digest: commit::digest(&commit::salt(&red.key.seed(), &game, "army-7@3"), "army:DE-8"),
        },
        umpire::log::entry::Commitment {
            id: "chit-1".into(),
            digest: commit::digest(
                &commit::salt(&red.key.seed(), &game, "chit-1"),
                &draw::draw_secret(&red.key.seed(), &game, "chit-1").to_hex(),
            ),
        },
    ]);
    add(red, Some(1), Some("blue"), "2026-01-01T02:00:00Z", o);

    let mut o = Body::new(Kind::Orders);
    o.orders = Some(orders("note: blue holds\n"));
    o.sealed = Some(seal::seal(&blue.key.seed(), &game, 4, SEALED_PLAIN.as_bytes(), 256).unwrap());
    let p = add(blue, Some(1), Some("green"), "2026-01-01T03:00:00Z", o);

    let mut o = Body::new(Kind::OfferDraw);
    o.note = Some("Shall we call it a draw?".into());
    add(blue, None, None, "2026-01-01T03:30:00Z", o);

    let mut o = Body::new(Kind::Orders);
    o.orders = Some(orders("note: green rolls for the command, then attacks\n"));
    o.lead = Some(p.hash);
    o.note = Some("Attack at dawn.".into());
    add(green, Some(1), Some("blue"), "2026-01-01T04:00:00Z", o);

    add(blue, Some(2), Some("red"), "2026-01-01T05:00:00Z", Body::new(Kind::Ack));
    add(red, Some(2), Some("blue"), "2026-01-01T06:00:00Z", Body::new(Kind::Ack));
    log
}

/// Blue's sealed note in entry 4.
const SEALED_PLAIN: &str = "commit:\n  chit@4: chit:steamroller\n";

fn rolls(seed: &Hash, faces: u32, n: usize) -> Vec<u32> {
    let mut d = Dice::from_seed(seed);
    (0..n).map(|_| d.roll(faces)).collect()
}

fn compute(log: &[Entry]) -> Value {
    let s = seats();
    let (red, blue) = (&s[0], &s[1]);
    let game = log[0].hash;
    let keys: Vec<Value> = s
        .iter()
        .map(|p| {
            json!({
                "name": p.key.name, "seat": p.seat, "side": p.side,
                "seed": hex::encode(p.key.seed()),
                "public": p.key.public().to_text(),
                "key_id": p.key.public().id(),
            })
        })
        .collect();
    let chains: serde_json::Map<String, Value> = s
        .iter()
        .map(|p| {
            let seed = chain_seed(&p.key.seed(), &nonce().0, p.seat);
            let values: Vec<String> = (0..=3).map(|i| chain(p, i).to_hex()).collect();
            (p.seat.to_string(), json!({ "seed": seed.to_hex(), "c0_to_c3": values }))
        })
        .collect();
    let mut entries = vec![];
    let mut first_roll_seed = None;
    let mut second_seed = None;
    let reveals = |e: &Entry| e.kind().reveals();
    for (i, e) in log.iter().enumerate() {
        // The dice of an orders/ack entry E: the reveal of F, the next orders/ack entry of
        // E's dice_from seat (DESIGN §2.5).
        let f = e.draft.dice_from.as_ref().and_then(|from| log[i + 1..].iter().find(|f| &f.draft.seat == from && reveals(f)));
        let seed = f.map(|f| dice_seed(&e.draft.reveal.unwrap(), &f.draft.reveal.unwrap()));
        if let Some(sd) = seed {
            if first_roll_seed.is_none() {
                first_roll_seed = Some(sd);
            } else if second_seed.is_none() {
                second_seed = Some(sd);
            }
        }
        // A leading roll: P named in body.lead.
        let lead = e.draft.body.lead.map(|h| {
            let p = log.iter().find(|p| p.hash == h).unwrap();
            (p.seq(), lead_seed(&p.draft.reveal.unwrap(), &e.draft.reveal.unwrap()))
        });
        entries.push(json!({
            "seq": e.seq(),
            "seat": e.seat(),
            "kind": umpire::log::entry::kind_name(e.kind()),
            "hash": e.hash.to_hex(),
            "prev": e.draft.prev.map(|p| p.to_hex()),
            "signed_message_sha256": sha256(&e.signed_message()).to_hex(),
            "reveal": e.draft.reveal.map(|r| r.to_hex()),
            "dice_from": e.draft.dice_from,
            "dice_seed": seed.map(|s| s.to_hex()),
            "dice_seed_reveal_from_seq": f.map(|f| f.seq()),
            "lead": e.draft.body.lead.map(|h| h.to_hex()),
            "lead_from_seq": lead.map(|l| l.0),
            "lead_seed": lead.map(|l| l.1.to_hex()),
            "lead_d6": lead.map(|l| rolls(&l.1, 6, 3)),
        }));
    }
    let seed = first_roll_seed.unwrap();
    let mut shuffled: Vec<u32> = (0..10).collect();
    Dice::from_seed(&second_seed.unwrap()).shuffle(&mut shuffled);
    let salt = commit::salt(&red.key.seed(), &game, "army-7@3");
    let shared = seal::shared_secret(&red.key.signing, &blue.key.public().key);
    let r = draw::draw_secret(&red.key.seed(), &game, "chit-1");
    let blue_reveal = log[4].draft.reveal.unwrap();
    let private = draw::private_dice_seed(&r, &blue_reveal);
    json!({
        "about": "umpire protocol 2 test vectors (DESIGN §2.8). Regenerating them is a protocol change.",
        "keys": keys,
        "game": {
            "game_id": game.to_hex(),
            "nonce": nonce().to_hex(),
            "chain_length": CHAIN_LENGTH,
            "scenario_sha256": sha256(SCENARIO.as_bytes()).to_hex(),
            "log_sha256": sha256(&join_log(log)).to_hex(),
            "joins_digest": joins_digest(&[log[1].hash, log[2].hash]).to_hex(),
        },
        "chains": chains,
        "entries": entries,
        "rolls": {
            "seed": seed.to_hex(),
            "about": "face indices (0-based), each die type from a fresh stream of this seed",
            "d6": rolls(&seed, 6, 10),
            "d10": rolls(&seed, 10, 10),
            "d12": rolls(&seed, 12, 10),
            "d20": rolls(&seed, 20, 10),
        },
        "shuffle": {
            "seed": second_seed.unwrap().to_hex(),
            "input": (0..10).collect::<Vec<u32>>(),
            "result": shuffled,
        },
        "commitment": {
            "seat": "red", "id": "army-7@3", "value": "army:DE-8",
            "salt": salt.to_hex(),
            "digest": commit::digest(&salt, "army:DE-8").to_hex(),
        },
        "seal": {
            "seat": "blue", "seq": 4, "plain": SEALED_PLAIN,
            "seq_nonce": hex::encode(seal::seq_nonce(4)),
            "key": hex::encode(seal::seal_key(&blue.key.seed(), &game)),
            "padded_len": 256,
            "synthetic_nonce": hex::encode(seal::synthetic_nonce(&seal::seal_key(&blue.key.seed(), &game), 4, &seal::pad(SEALED_PLAIN.as_bytes(), 256).unwrap())),
            "sealed": seal::seal(&blue.key.seed(), &game, 4, SEALED_PLAIN.as_bytes(), 256).unwrap(),
        },
        "seal_for": {
            "author_seat": "red", "partner_seat": "blue", "seq": 4, "plain": "for your eyes only",
            "shared_secret": hex::encode(shared),
            "key": hex::encode(seal::seal_for_key(&shared, &game, "red", "blue")),
            "padded_len": 256,
            "synthetic_nonce": hex::encode(seal::synthetic_nonce(&seal::seal_for_key(&shared, &game, "red", "blue"), 4, &seal::pad(b"for your eyes only", 256).unwrap())),
            "sealed": seal::seal_for(&red.key.signing, &blue.key.public().key, &game, "red", "blue", 4, b"for your eyes only", 256).unwrap(),
        },
        "private_draw": {
            "seat": "red", "draw_id": "chit-1",
            "r": r.to_hex(),
            "about": "E commits to r with the commitment formula: id = draw_id, value = hex(r)",
            "commit_salt": commit::salt(&red.key.seed(), &game, "chit-1").to_hex(),
            "commit_digest": commit::digest(&commit::salt(&red.key.seed(), &game, "chit-1"), &r.to_hex()).to_hex(),
            "commit_seq": 3,
            "reveal_seq": 4,
            "reveal": blue_reveal.to_hex(),
            "seed": private.to_hex(),
            "d6": rolls(&private, 6, 5),
        },
    })
}

#[test]
fn vectors() {
    let log = build();
    // The log is valid under the protocol.
    let mut st = ProtocolState::from_genesis(&log[0]).unwrap();
    for e in &log[1..] {
        st.accept(e).unwrap();
    }
    let bytes = join_log(&log);
    let computed = compute(&log);
    let dir = vectors_dir();
    let log_path = dir.join("game.log");
    let json_path = dir.join("vectors.json");
    if std::env::var("UMPIRE_REGEN_VECTORS").as_deref() == Ok("1") {
        eprintln!("WARNING: regenerating the protocol test vectors. Any change is a PROTOCOL CHANGE.");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&log_path, &bytes).unwrap();
        std::fs::write(&json_path, serde_json::to_string_pretty(&computed).unwrap() + "\n").unwrap();
    }
    let stored = std::fs::read(&log_path).expect("tests/vectors/game.log (regenerate with UMPIRE_REGEN_VECTORS=1)");
    assert!(stored == bytes, "game.log differs from the recomputed log: protocol change?");
    let want: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    assert_eq!(computed, want, "vectors.json differs from the recomputed values: protocol change?");

    // The stored log reads back and verifies.
    let read = read_log(&log_path).unwrap();
    assert_eq!(read, log);
    assert_eq!(compare(&st.genesis, &read, &log), Agreement::Prefix);
}

#[test]
fn vector_secrets_open() {
    let log = build();
    let s = seats();
    let (red, blue) = (&s[0], &s[1]);
    let game = log[0].hash;
    let sealed = log[4].draft.body.sealed.as_ref().unwrap();
    assert_eq!(seal::open(&blue.key.seed(), &game, 4, sealed).unwrap(), SEALED_PLAIN.as_bytes());
    let v = compute(&log);
    let sf = v["seal_for"]["sealed"].as_str().unwrap();
    assert_eq!(seal::open_for(&blue.key.signing, &red.key.public().key, &game, "red", "blue", 4, sf).unwrap(), b"for your eyes only");
    let c = &log[3].draft.body.commit.as_ref().unwrap()[0];
    assert!(commit::opens(&c.digest, &commit::salt(&red.key.seed(), &game, "army-7@3"), "army:DE-8"));
}

/// Any single-byte change to the stored log is caught by parsing or by the protocol checks.
#[test]
fn vector_log_tampering_is_caught() {
    let bytes = std::fs::read(vectors_dir().join("game.log")).unwrap();
    let good = umpire::log::store::parse_log(std::path::Path::new("game.log"), &bytes).unwrap();
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x04;
        let Ok(entries) = umpire::log::store::parse_log(std::path::Path::new("game.log"), &b) else { continue };
        let ok = (|| {
            let mut st = ProtocolState::from_genesis(entries.first()?).ok()?;
            for e in &entries[1..] {
                st.accept(e).ok()?;
            }
            Some(())
        })();
        // Only accepted if it is the very same log (never: one byte changed).
        assert!(ok.is_none() || entries == good, "byte {i} flipped and the log still verifies");
    }
}

/// Run the independent Python check when python3 is available.
#[test]
fn independent_python_check() {
    if std::env::var("UMPIRE_REGEN_VECTORS").as_deref() == Ok("1") {
        return; // the files are being rewritten by `vectors`; run again without the variable
    }
    let script = vectors_dir().join("independent_check.py");
    let Ok(out) = std::process::Command::new("python3").arg(&script).output() else {
        eprintln!("python3 not found; skipping the independent check");
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
