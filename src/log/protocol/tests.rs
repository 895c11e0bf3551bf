use super::*;
use crate::crypto::chain::{chain_seed, chain_value};
use crate::crypto::keys::SecretKey;
use crate::log::entry::{Body, Draft, SeatDecl};

struct P {
    seat: &'static str,
    side: &'static str,
    key: SecretKey,
}

struct Game {
    players: Vec<P>,
    nonce: Hash,
    length: u64,
    entries: Vec<Entry>,
    /// Reveals used so far per seat.
    used: BTreeMap<String, u64>,
    /// The `prev` and seq of the next entry in play (joins digest after the joins).
    prev: Hash,
    last_seq: u64,
    joins: BTreeMap<u64, Hash>,
}

impl Game {
    fn new(length: u64) -> Game {
        let players = vec![
            P { seat: "red", side: "R", key: SecretKey::from_seed("alice", [1; 32]) },
            P { seat: "blue", side: "B", key: SecretKey::from_seed("bob", [2; 32]) },
            // Shares alice's key, on red's side.
            P { seat: "pink", side: "R", key: SecretKey::from_seed("alice", [1; 32]) },
            P { seat: "teal", side: "B", key: SecretKey::from_seed("carol", [3; 32]) },
        ];
        Game {
            players,
            nonce: Hash([9; 32]),
            length,
            entries: vec![],
            used: BTreeMap::new(),
            prev: Hash([0; 32]),
            last_seq: 0,
            joins: BTreeMap::new(),
        }
    }
    fn p(&self, seat: &str) -> &P {
        self.players.iter().find(|p| p.seat == seat).unwrap()
    }
    fn chain(&self, seat: &str, i: u64) -> Hash {
        let p = self.p(seat);
        chain_value(&chain_seed(&p.key.seed(), &self.nonce.0, seat), self.length, i).unwrap_or(Hash([0; 32]))
    }
    fn genesis_body(&self) -> Body {
        let text = "tiny: true\n".to_string();
        let mut b = Body::new(Kind::Genesis);
        b.ruleset = Some(RulesetRef { id: "test".into(), version: "1".into() });
        b.engine = Some("umpire test".into());
        b.scenario = Some(ScenarioRef { name: "tiny".into(), sha256: sha256(text.as_bytes()), text });
        b.seats = Some(
            self.players.iter().map(|p| SeatDecl { seat: p.seat.into(), side: p.side.into(), key: p.key.public().to_text() }).collect(),
        );
        b.nonce = Some(self.nonce);
        b.chain_length = Some(self.length);
        b.chain = Some(self.chain("red", 0));
        b
    }
    fn genesis_draft(&self) -> Draft {
        Draft {
            game: None,
            seq: 0,
            prev: None,
            seat: "red".into(),
            reveal: None,
            dice_from: None,
            time: "t0".into(),
            body: self.genesis_body(),
        }
    }
    /// The next draft by `seat`: a join (at the seat's seq, prev = game id), or an entry
    /// of play (orders and ack with the due reveal).
    fn next(&mut self, seat: &str, kind: Kind, dice_from: Option<&str>) -> Draft {
        let mut body = Body::new(kind);
        let gid = self.entries[0].hash;
        let reveal = if kind == Kind::Join {
            body.chain = Some(self.chain(seat, 0));
            None
        } else if kind.reveals() {
            let n = self.used.get(seat).copied().unwrap_or(0) + 1;
            Some(self.chain(seat, n))
        } else {
            None
        };
        if kind == Kind::Orders {
            body.orders = Some(yaml_serde::Value::String("x".into()));
        }
        let (seq, prev) = if kind == Kind::Join {
            let k = self.players.iter().skip(1).position(|p| p.seat == seat).map(|i| i as u64 + 1).unwrap_or(0);
            (k, gid)
        } else {
            (self.last_seq + 1, self.prev)
        };
        Draft {
            game: Some(gid),
            seq,
            prev: Some(prev),
            seat: seat.into(),
            reveal,
            dice_from: dice_from.map(String::from),
            time: "t".into(),
            body,
        }
    }
    fn sign(&self, d: Draft) -> Entry {
        let key = &self.p(&d.seat.clone()).key;
        d.sign(key)
    }
    fn push(&mut self, st: &mut ProtocolState, e: Entry) -> Step {
        let step = st.accept(&e).unwrap();
        if e.draft.reveal.is_some() {
            *self.used.entry(e.seat().to_string()).or_default() += 1;
        }
        if e.kind() == Kind::Join {
            self.joins.insert(e.seq(), e.hash);
            if self.joins.len() == self.players.len() - 1 {
                self.prev = joins_digest(&self.joins.values().copied().collect::<Vec<_>>());
                self.last_seq = self.joins.len() as u64;
            }
        } else {
            self.prev = e.hash;
            self.last_seq = e.seq();
        }
        self.entries.push(e);
        step
    }
    fn started(length: u64) -> (Game, ProtocolState) {
        let mut g = Game::new(length);
        let e = g.genesis_draft().try_sign(&g.p("red").key).unwrap();
        let mut st = ProtocolState::from_genesis(&e).unwrap();
        g.entries.push(e);
        for s in ["blue", "pink", "teal"] {
            let d = g.next(s, Kind::Join, None);
            let e = g.sign(d);
            let step = g.push(&mut st, e);
            assert!(!step.in_play);
        }
        assert!(st.all_joined);
        (g, st)
    }
}

fn problem(r: Result<impl std::fmt::Debug, ProtocolError>) -> Problem {
    r.unwrap_err().problem
}

#[test]
fn a_whole_game() {
    let (mut g, mut st) = Game::started(8);
    assert!(st.unjoined().is_empty());
    let d = g.next("red", Kind::Orders, Some("blue"));
    let e = g.sign(d);
    let step = g.push(&mut st, e);
    assert!(step.in_play);
    assert_eq!(step.reveal, Some(g.chain("red", 1)));
    let d = g.next("blue", Kind::Ack, Some("pink"));
    let e = g.sign(d);
    let step = g.push(&mut st, e);
    // Blue's ack is F for red's orders: seed(E) = H("umpire/dice/2\0" ‖ reveal(E) ‖ reveal(F)).
    assert_eq!(step.settles, vec![(4, crate::dice::dice_seed(&g.chain("red", 1), &g.chain("blue", 1)))]);
    assert_eq!(st.chains["red"].revealed, 1);
    assert_eq!(st.chains["blue"].revealed, 1);
    assert_eq!(st.chains["pink"].revealed, 0);
    assert_eq!(st.last_seq, 5);
    // Neither resign, offer-draw nor amendments reveal.
    let d = g.next("pink", Kind::OfferDraw, None);
    let e = g.sign(d);
    let step = g.push(&mut st, e);
    assert_eq!(step.reveal, None);
    assert_eq!(st.chains["pink"].revealed, 0);
}

#[test]
fn genesis_problems() {
    let g = Game::new(8);
    let key = &g.p("red").key;
    let sign = |d: Draft| d.sign(key);
    assert!(ProtocolState::from_genesis(&sign(g.genesis_draft())).is_ok());
    let mut cases: Vec<(Draft, &str)> = vec![];
    let mut d = g.genesis_draft();
    d.seq = 1;
    cases.push((d, "BadGenesis"));
    let mut d = g.genesis_draft();
    d.reveal = Some(Hash([0; 32]));
    cases.push((d, "BadGenesis"));
    let mut d = g.genesis_draft();
    d.dice_from = Some("blue".into());
    cases.push((d, "BadGenesis"));
    let mut d = g.genesis_draft();
    d.body.kind = Kind::Join;
    cases.push((d, "BadGenesis"));
    let mut d = g.genesis_draft();
    d.body.scenario.as_mut().unwrap().text.push('x');
    cases.push((d, "BadGenesis"));
    for l in [0, MAX_CHAIN_LENGTH + 1] {
        let mut d = g.genesis_draft();
        d.body.chain_length = Some(l);
        cases.push((d, "BadGenesis"));
    }
    let mut d = g.genesis_draft();
    d.body.seats.as_mut().unwrap()[2].seat = "red".into();
    cases.push((d, "BadGenesis"));
    let mut d = g.genesis_draft();
    for s in d.body.seats.as_mut().unwrap() {
        s.side = "R".into();
    }
    cases.push((d, "BadGenesis"));
    let mut d = g.genesis_draft();
    d.body.seats.as_mut().unwrap()[1].key = "ed25519:AAAA".into();
    cases.push((d, "BadGenesis"));
    for bad in ["", "a\0b", "tab\there", &"x".repeat(65)] {
        let mut d = g.genesis_draft();
        d.body.seats.as_mut().unwrap()[1].seat = bad.to_string();
        cases.push((d, "BadGenesis"));
        let mut d = g.genesis_draft();
        d.body.seats.as_mut().unwrap()[1].side = bad.to_string();
        cases.push((d, "BadGenesis"));
    }
    let mut d = g.genesis_draft();
    d.seat = "green".into();
    cases.push((d, "UnknownSeat"));
    let mut d = g.genesis_draft();
    d.seat = "blue".into();
    cases.push((d, "BadSignature"));
    for (d, want) in cases {
        let p = problem(ProtocolState::from_genesis(&sign(d.clone())));
        assert!(format!("{p:?}").starts_with(want), "{d:?}: {p:?}");
    }
    // A shared key signs for its other seat too.
    let mut d = g.genesis_draft();
    d.seat = "pink".into();
    assert!(ProtocolState::from_genesis(&sign(d)).is_ok());
}

#[test]
fn join_problems() {
    let mut g = Game::new(8);
    let e = g.genesis_draft().try_sign(&g.p("red").key).unwrap();
    let st0 = ProtocolState::from_genesis(&e).unwrap();
    g.entries.push(e);
    assert_eq!(st0.unjoined(), vec!["blue".to_string(), "pink".to_string(), "teal".to_string()]);
    let check = |d: Draft, g: &Game, want: &str| {
        let mut st = st0.clone();
        let key = &g.p(&d.seat).key;
        let p = problem(st.accept(&d.sign(key)));
        assert!(format!("{p:?}").starts_with(want), "{p:?}");
        assert_eq!(st.chains, st0.chains, "state unchanged on error");
        assert_eq!(st.last_seq, st0.last_seq);
    };
    let d = g.next("red", Kind::Join, None);
    check(d, &g, "AlreadyJoined");
    let d = g.next("blue", Kind::Ack, None);
    check(d, &g, "NotStarted");
    let mut d = g.next("blue", Kind::Join, None);
    d.reveal = Some(Hash([0; 32]));
    check(d, &g, "BadJoin");
    let d = g.next("blue", Kind::Join, Some("red"));
    check(d, &g, "BadDiceFrom");
    let mut d = g.next("blue", Kind::Join, None);
    d.seq = 5;
    check(d, &g, "WrongSeq");
    let mut d = g.next("blue", Kind::Join, None);
    d.game = Some(Hash([1; 32]));
    check(d, &g, "WrongGame");
    let mut d = g.next("blue", Kind::Join, None);
    d.prev = Some(Hash([1; 32]));
    check(d, &g, "BadJoin");
    let mut d = g.next("blue", Kind::Join, None);
    d.seat = "green".into();
    let mut st = st0.clone();
    assert!(matches!(problem(st.accept(&d.sign(&g.p("blue").key))), Problem::UnknownSeat(_)));
    let d = g.next("blue", Kind::Join, None);
    let mut st = st0.clone();
    assert!(matches!(problem(st.accept(&d.sign(&g.p("red").key))), Problem::BadSignature(_)));
    // Body shape checked even for hand-built entries.
    let d = g.next("blue", Kind::Join, None);
    let mut e = g.sign(d);
    e.draft.body.chain = None;
    let mut st = st0.clone();
    assert!(matches!(problem(st.accept(&e)), Problem::BadSignature(_) | Problem::BadBody(_)));
    // A second genesis.
    // (before play, anything but a join is refused first)
    let mut d = g.next("blue", Kind::Join, None);
    d.body = g.genesis_body();
    check(d, &g, "NotStarted");
}

#[test]
fn in_play_problems() {
    let (mut g, st0) = Game::started(2);
    let check = |d: Draft, g: &Game, want: &str| {
        let mut st = st0.clone();
        let p = problem(st.accept(&g.sign(d)));
        assert!(format!("{p:?}").starts_with(want), "{p:?}");
        assert_eq!(st.chains, st0.chains);
        assert_eq!(st.last_hash, st0.last_hash);
    };
    let d = g.next("red", Kind::Ack, None);
    check(d, &g, "BadDiceFrom");
    let d = g.next("red", Kind::Ack, Some("pink"));
    check(d, &g, "BadDiceFrom");
    let d = g.next("red", Kind::Ack, Some("green"));
    check(d, &g, "BadDiceFrom");
    let mut d = g.next("red", Kind::Ack, Some("blue"));
    d.reveal = None;
    check(d, &g, "BadReveal");
    let mut d = g.next("red", Kind::Ack, Some("blue"));
    d.reveal = Some(g.chain("red", 2));
    check(d, &g, "BadReveal");
    let mut d = g.next("red", Kind::Ack, Some("blue"));
    d.reveal = Some(g.chain("red", 0));
    check(d, &g, "BadReveal");
    let mut d = g.next("red", Kind::Join, Some("blue"));
    d.reveal = Some(g.chain("red", 1));
    (d.seq, d.prev) = (g.last_seq + 1, Some(g.prev));
    check(d, &g, "BadJoin");
    // Exhaust red's chain of length 2.
    let mut st = st0.clone();
    for _ in 0..2 {
        let d = g.next("red", Kind::Ack, Some("blue"));
        let e = g.sign(d);
        g.push(&mut st, e);
    }
    assert_eq!(st.chains["red"].last, g.chain("red", 2));
    let mut d = g.next("blue", Kind::Ack, Some("red"));
    d.seq = st.last_seq + 1;
    let e = g.sign(d);
    g.push(&mut st, e);
    let mut d = g.next("red", Kind::Ack, Some("blue"));
    d.reveal = Some(Hash([0; 32]));
    let before = st.clone();
    assert_eq!(problem(st.accept(&g.sign(d))), Problem::ChainExhausted("red".into()));
    assert_eq!(st.chains, before.chains);
}

#[test]
fn compare_logs() {
    let (mut g, mut st) = Game::started(8);
    let genesis0 = st.genesis.clone();
    let base = g.entries.clone();
    assert_eq!(compare(&genesis0, &base, &base), Agreement::Prefix);
    assert_eq!(compare(&genesis0, &base[..1], &base), Agreement::Prefix);
    assert_eq!(compare(&genesis0, &base, &[]), Agreement::Prefix);
    let d = g.next("red", Kind::Ack, Some("blue"));
    let e1 = g.sign(d.clone());
    let mut d2 = d.clone();
    d2.body.note = Some("other".into());
    let e2 = g.sign(d2);
    let mut d3 = d.clone();
    d3.seat = "blue".into();
    d3.reveal = Some(g.chain("blue", 1));
    d3.dice_from = Some("red".into());
    let e3 = g.sign(d3);
    let mut d4 = d;
    d4.seat = "blue".into();
    d4.reveal = None;
    d4.dice_from = None;
    d4.body = Body::new(Kind::OfferDraw);
    let e4 = g.sign(d4);
    g.push(&mut st, e1.clone());
    let a: Vec<Entry> = base.iter().cloned().chain([e1.clone()]).collect();
    let b: Vec<Entry> = base.iter().cloned().chain([e2.clone()]).collect();
    let c: Vec<Entry> = base.iter().cloned().chain([e3.clone()]).collect();
    match compare(&genesis0, &a, &b) {
        Agreement::Fork { seq, hash_a, hash_b, equivocation, crossed, .. } => {
            assert_eq!(seq, 4);
            assert_eq!((hash_a, hash_b), (e1.hash, e2.hash));
            assert!(equivocation && !crossed);
        }
        other => panic!("{other:?}"),
    }
    match compare(&genesis0, &a, &c) {
        Agreement::Fork { equivocation, crossed, seat_a, seat_b, .. } => {
            assert!(!equivocation && !crossed);
            assert_eq!((seat_a.as_str(), seat_b.as_str()), ("red", "blue"));
        }
        other => panic!("{other:?}"),
    }
    // An offer-draw crossing red's ack: honest crossed mail, not an equivocation.
    assert!(matches!(compare(&genesis0, &a, &[e4]), Agreement::Fork { crossed: true, equivocation: false, .. }));
    // A different game.
    let mut other = Game::new(8);
    other.nonce = Hash([1; 32]);
    let og = other.genesis_draft().sign(&other.p("red").key);
    assert_eq!(compare(&genesis0, &a, &[og]), Agreement::DifferentGames);
}

/// DESIGN §2.3: only two validly signed entries of this game are evidence. One changed
/// character, 64 zero bytes, another seat's key: each is forged or corrupted, never a fork.
#[test]
fn a_forged_copy_never_frames_a_seat() {
    let (mut g, mut st) = Game::started(8);
    let genesis0 = st.genesis.clone();
    let d = g.next("red", Kind::Orders, Some("blue"));
    let honest = g.sign(d.clone());
    g.push(&mut st, honest.clone());
    let log = g.entries.clone();
    // One character changed after signing.
    let text = String::from_utf8(honest.bytes.clone()).unwrap().replace("orders: x", "orders: y");
    let flipped = Entry::parse(text.as_bytes()).unwrap();
    // The same draft signed with 64 zero bytes, and by another seat's key (blue's).
    let mut zero = honest.clone();
    let t = String::from_utf8(honest.bytes.clone()).unwrap();
    let sig_line = t.lines().last().unwrap();
    let zeroed =
        t.replace(sig_line, &format!("sig: ed25519:{}", base64::Engine::encode(&base64::engine::general_purpose::STANDARD, [0u8; 64])));
    zero = Entry::parse(zeroed.as_bytes()).unwrap_or(zero);
    let mut other_key = d.clone();
    other_key.body.note = Some("framed".into());
    let by_blue = other_key.sign(&g.p("blue").key);
    for forged in [flipped, zero, by_blue] {
        match compare(&genesis0, &log, std::slice::from_ref(&forged)) {
            Agreement::Unverified { seq, .. } => assert_eq!(seq, honest.seq()),
            other => panic!("a forged copy was reported as {other:?}"),
        }
    }
    // An entry of another game with the same seq: foreign.
    let mut other = Game::new(8);
    other.nonce = Hash([1; 32]);
    let og = other.genesis_draft().sign(&other.p("red").key);
    let mut foreign = d;
    foreign.game = Some(og.hash);
    assert_eq!(compare(&genesis0, &log, &[foreign.sign(&g.p("red").key)]), Agreement::DifferentGames);
}

/// DESIGN §2.4: joins at their seat's seq with prev = game id, in any order; the first
/// entry of play commits to all of them.
#[test]
fn parallel_joins_make_one_game() {
    let mut g = Game::new(8);
    let e = g.genesis_draft().try_sign(&g.p("red").key).unwrap();
    let st0 = ProtocolState::from_genesis(&e).unwrap();
    g.entries.push(e);
    let joins: Vec<Entry> = ["blue", "pink", "teal"]
        .iter()
        .map(|s| {
            let d = g.next(s, Kind::Join, None);
            g.sign(d)
        })
        .collect();
    assert_eq!(joins.iter().map(|j| j.seq()).collect::<Vec<_>>(), vec![1, 2, 3]);
    let digest = joins_digest(&joins.iter().map(|j| j.hash).collect::<Vec<_>>());
    for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
        let mut st = st0.clone();
        for i in order {
            st.accept(&joins[i]).unwrap();
        }
        assert!(st.all_joined);
        assert_eq!((st.last_seq, st.last_hash), (3, digest), "every order of arrival makes the same game");
    }
    // The first entry of play must name the digest, not the last join.
    let mut st = st0.clone();
    for j in &joins {
        g.push(&mut st, j.clone());
    }
    let mut d = g.next("red", Kind::Orders, Some("blue"));
    d.prev = Some(joins[2].hash);
    assert!(matches!(problem(st.clone().accept(&g.sign(d))), Problem::WrongPrev { .. }));
    let d = g.next("red", Kind::Orders, Some("blue"));
    assert!(st.accept(&g.sign(d)).is_ok());
}

/// DESIGN §2.5: E's dice are fixed by the next orders/ack of its `dice_from` seat; no other
/// seat of that side sends one before it.
#[test]
fn only_the_named_revealer_answers() {
    let (mut g, mut st) = Game::started(8);
    let d = g.next("red", Kind::Orders, Some("blue"));
    let e = g.sign(d);
    g.push(&mut st, e);
    // Teal (blue's partner) may send first; its entry does not fix red's dice.
    let d = g.next("teal", Kind::Ack, Some("red"));
    assert!(st.clone().accept(&g.sign(d)).unwrap().settles.is_empty());
    // Out-of-turn kinds carry neither reveal nor dice_from.
    let mut d = g.next("teal", Kind::Resign, None);
    d.reveal = Some(g.chain("teal", 1));
    assert!(matches!(problem(st.clone().accept(&g.sign(d))), Problem::BadReveal { .. }));
    let d = g.next("teal", Kind::Resign, Some("red"));
    assert!(matches!(problem(st.clone().accept(&g.sign(d))), Problem::BadDiceFrom(_)));
    let d = g.next("blue", Kind::Ack, Some("red"));
    let e = g.sign(d);
    assert_eq!(g.push(&mut st, e).settles.len(), 1);
}

#[test]
fn body_limits() {
    let (mut g, st0) = Game::started(8);
    let try_body = |g: &mut Game, f: &dyn Fn(&mut Body)| {
        let mut d = g.next("red", Kind::Orders, Some("blue"));
        f(&mut d.body);
        let mut st = st0.clone();
        st.accept(&g.sign(d))
    };
    // At the limits: accepted.
    assert!(try_body(&mut g, &|b| b.note = Some("n".repeat(MAX_NOTE_BYTES))).is_ok());
    let at_limit = yaml_serde::Value::Sequence(vec![yaml_serde::Value::Null; MAX_ORDER_VALUES - 1]);
    assert!(try_body(&mut g, &|b| b.orders = Some(at_limit.clone())).is_ok());
    // One over: refused with the limit named.
    let over = |p: Problem, what: &str| assert!(matches!(&p, Problem::BadBody(m) if m.contains(what)), "{p:?}");
    over(problem(try_body(&mut g, &|b| b.note = Some("n".repeat(MAX_NOTE_BYTES + 1)))), "16384-byte limit");
    let too_many = yaml_serde::Value::Sequence(vec![yaml_serde::Value::Null; MAX_ORDER_VALUES]);
    over(problem(try_body(&mut g, &|b| b.orders = Some(too_many.clone()))), "more than 20000 values");
    let mut nested = yaml_serde::Value::Null;
    for _ in 0..30 {
        let mut m = yaml_serde::Mapping::new();
        m.insert(yaml_serde::Value::String("a".into()), nested.clone());
        m.insert(yaml_serde::Value::String("b".into()), nested);
        nested = yaml_serde::Value::Mapping(m);
        if count_values(&nested, MAX_ORDER_VALUES + 1) > MAX_ORDER_VALUES {
            break;
        }
    }
    assert!(count_values(&nested, usize::MAX) > MAX_ORDER_VALUES);
    over(problem(try_body(&mut g, &|b| b.orders = Some(nested.clone()))), "more than 20000 values");
}

#[test]
fn presigned_entries_skip_only_their_own_signature() {
    let (mut g, st0) = Game::started(8);
    let d = g.next("red", Kind::Orders, Some("blue"));
    let good = g.sign(d);
    let mut forged = good.clone();
    forged.sig[0] ^= 1;
    forged.hash = sha256(b"a different entry");
    let mut st = st0.clone();
    st.presigned = Some(std::sync::Arc::new(Presigned::check(&st.genesis, &[good.clone(), forged.clone()])));
    assert_eq!(st.presigned.as_ref().unwrap().ok.len(), 1, "the forged signature is not listed");
    assert_eq!(problem(st.clone().accept(&forged)), Problem::BadSignature("red".into()));
    assert!(st.accept(&good).is_ok());
}
