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
}

impl Game {
    fn new(length: u64) -> Game {
        let players = vec![
            P { seat: "red", side: "R", key: SecretKey::from_seed("alice", [1; 32]) },
            P { seat: "blue", side: "B", key: SecretKey::from_seed("bob", [2; 32]) },
            // Shares alice's key, on red's side.
            P { seat: "pink", side: "R", key: SecretKey::from_seed("alice", [1; 32]) },
        ];
        Game { players, nonce: Hash([9; 32]), length, entries: vec![], used: BTreeMap::new() }
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
    /// The next draft by `seat` (join before play, else an ack with the due reveal).
    fn next(&mut self, seat: &str, kind: Kind, dice_from: Option<&str>) -> Draft {
        let mut body = Body::new(kind);
        let reveal = if kind == Kind::Join {
            body.chain = Some(self.chain(seat, 0));
            None
        } else {
            let n = self.used.get(seat).copied().unwrap_or(0) + 1;
            Some(self.chain(seat, n))
        };
        if kind == Kind::Orders {
            body.orders = Some(yaml_serde::Value::String("x".into()));
        }
        let last = self.entries.last().unwrap();
        Draft {
            game: Some(self.entries[0].hash),
            seq: last.seq() + 1,
            prev: Some(last.hash),
            seat: seat.into(),
            reveal,
            dice_from: dice_from.map(String::from),
            time: "t".into(),
            body,
        }
    }
    fn sign(&self, d: Draft) -> Entry {
        let key = &self.p(&d.seat.clone()).key;
        d.try_sign(key).unwrap()
    }
    fn push(&mut self, st: &mut ProtocolState, e: Entry) -> Step {
        let step = st.accept(&e).unwrap();
        if e.draft.reveal.is_some() {
            *self.used.entry(e.seat().to_string()).or_default() += 1;
        }
        self.entries.push(e);
        step
    }
    fn started(length: u64) -> (Game, ProtocolState) {
        let mut g = Game::new(length);
        let e = g.genesis_draft().try_sign(&g.p("red").key).unwrap();
        let mut st = ProtocolState::from_genesis(&e).unwrap();
        g.entries.push(e);
        for s in ["blue", "pink"] {
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
    g.push(&mut st, e);
    assert_eq!(st.chains["red"].revealed, 1);
    assert_eq!(st.chains["blue"].revealed, 1);
    assert_eq!(st.chains["pink"].revealed, 0);
    assert_eq!(st.last_seq, 4);
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
    assert_eq!(st0.unjoined(), vec!["blue".to_string(), "pink".to_string()]);
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
    check(d, &g, "WrongPrev");
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
    let mut d = g.next("blue", Kind::Join, None);
    d.body = g.genesis_body();
    check(d, &g, "BadBody");
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
    let base = g.entries.clone();
    assert_eq!(compare(&base, &base), Agreement::Prefix);
    assert_eq!(compare(&base[..1], &base), Agreement::Prefix);
    assert_eq!(compare(&[], &base), Agreement::Prefix);
    let d = g.next("red", Kind::Ack, Some("blue"));
    let e1 = g.sign(d.clone());
    let mut d2 = d.clone();
    d2.body.note = Some("other".into());
    let e2 = g.sign(d2);
    let mut d3 = d;
    d3.seat = "blue".into();
    d3.reveal = Some(g.chain("blue", 1));
    d3.dice_from = Some("red".into());
    let e3 = g.sign(d3);
    g.push(&mut st, e1.clone());
    let a: Vec<Entry> = base.iter().cloned().chain([e1.clone()]).collect();
    let b: Vec<Entry> = base.iter().cloned().chain([e2.clone()]).collect();
    let c: Vec<Entry> = base.iter().cloned().chain([e3.clone()]).collect();
    match compare(&a, &b) {
        Agreement::Fork { seq, hash_a, hash_b, equivocation, .. } => {
            assert_eq!(seq, 3);
            assert_eq!((hash_a, hash_b), (e1.hash, e2.hash));
            assert!(equivocation);
        }
        other => panic!("{other:?}"),
    }
    match compare(&a, &c) {
        Agreement::Fork { equivocation, seat_a, seat_b, .. } => {
            assert!(!equivocation);
            assert_eq!((seat_a.as_str(), seat_b.as_str()), ("red", "blue"));
        }
        other => panic!("{other:?}"),
    }
    // A different game.
    let mut other = Game::new(8);
    other.nonce = Hash([1; 32]);
    let og = other.genesis_draft().sign(&other.p("red").key);
    assert_eq!(compare(&a, &[og]), Agreement::DifferentGames);
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
