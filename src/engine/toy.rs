//! A toy game with hidden information, compiled only for the engine's unit tests:
//! "guess the hidden number".
//!
//! - TOY 1: the hider commits to a number 0..=9 (never written in plain text: it travels as
//!   a commitment).
//! - TOY 2: three rounds: the hider steps a public piece 1 or 2 forward, and it may never
//!   land on the hidden number; with `draw` it also draws a chit (d6) privately. Then the
//!   seeker guesses a number 0..=9.
//! - TOY 3: the hider opens the number and every chit; the seeker wins if a guess hit it.
//!
//! The public facts ([`public_facts`]) are the same whatever the replay knows.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    Await, Committed, Concealed, Event, Expectation, HiddenActs, IdOrder, Legal, Outcome, Rejected, Ruleset, ScenarioError, SeatInfo,
    Violation,
};
use crate::dice::Dice;

/// Registry id.
pub const ID: &str = "toy-hidden";
/// Rounds of move and guess.
pub const ROUNDS: u32 = 3;

/// The toy ruleset.
pub struct Toy;

/// Whose move, for what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Set,
    Move,
    Guess,
    Reveal,
    Over,
}

/// The toy state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToyState {
    /// Three seats: the hider's partner reads its sealed notes.
    pub partners: bool,
    pub hider: String,
    pub seeker: String,
    pub phase: Phase,
    pub round: u32,
    pub piece: u32,
    /// The commitment id of the number.
    pub number_id: Option<String>,
    /// The number, when known.
    pub number: Option<u32>,
    /// Whether the number was opened (public).
    pub opened: bool,
    /// Private draws: (draw id, settled, value when known).
    pub chits: Vec<(String, bool, Option<u32>)>,
    /// Draws made since the engine last asked.
    pub new_draws: Vec<String>,
    pub guesses: Vec<u32>,
    pub outcome: Option<Outcome>,
    /// TOY 4 (scenario text `toy-lead`): each guess opens with a leading d6 "hint" roll.
    #[serde(default)]
    pub leading: bool,
    /// The hints rolled so far, one per round.
    #[serde(default)]
    pub hints: Vec<u32>,
    /// TOY 5 (scenario text `toy-early`): the game ends after the last guess.
    #[serde(default)]
    pub early: bool,
}

/// The toy's orders. `number` is the author's plain value: `conceal` turns it into a
/// commitment and `validate` refuses it in the log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToyOrders {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draw: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guess: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reveal: bool,
}

/// What anyone holding the log knows, whatever the mode.
pub fn public_facts(s: &ToyState) -> String {
    let chits: Vec<String> =
        s.chits.iter().map(|(id, settled, v)| format!("{id}:{}", if s.opened { format!("{v:?}") } else { settled.to_string() })).collect();
    format!(
        "phase {:?} round {} piece {} number_id {:?} opened {} number {:?} chits [{}] guesses {:?} outcome {:?}",
        s.phase,
        s.round,
        s.piece,
        s.number_id,
        s.opened,
        if s.opened { s.number } else { None },
        chits.join(", "),
        s.guesses,
        s.outcome
    )
}

fn parse_number(v: &str) -> Option<u32> {
    v.parse::<u32>().ok().filter(|n| *n <= 9)
}

impl Ruleset for Toy {
    type State = ToyState;
    type Orders = ToyOrders;
    const ID: &'static str = ID;
    const VERSION: &'static str = "0";

    fn setup(text: &str, _options: Option<&yaml_serde::Value>, seats: &[SeatInfo]) -> Result<ToyState, ScenarioError> {
        // A third seat is the hider's partner: it only reads the hider's sealed notes.
        let (h, s, partners) = match seats {
            [h, s] => (h, s, false),
            [h, s, _] => (h, s, true),
            _ => return Err(ScenarioError { problems: vec!["two or three seats".into()] }),
        };
        Ok(ToyState {
            partners,
            hider: h.seat.clone(),
            seeker: s.seat.clone(),
            phase: Phase::Set,
            round: 1,
            piece: 0,
            number_id: None,
            number: None,
            opened: false,
            chits: Vec::new(),
            new_draws: Vec::new(),
            guesses: Vec::new(),
            outcome: None,
            leading: text == "toy-lead",
            hints: Vec::new(),
            early: text == "toy-early",
        })
    }
    fn expect(s: &ToyState) -> Expectation {
        let who = match s.phase {
            Phase::Set | Phase::Move | Phase::Reveal => Some(&s.hider),
            Phase::Guess => Some(&s.seeker),
            Phase::Over => None,
        };
        Expectation {
            when: format!("round {} {:?}", s.round, s.phase),
            awaits: who.map(|w| vec![Await { seat: w.clone(), what: format!("{:?}", s.phase) }]).unwrap_or_default(),
        }
    }
    fn validate(s: &ToyState, _seat: &str, o: ToyOrders) -> Result<Legal<ToyOrders>, Rejected<ToyOrders>> {
        let mut v = Vec::new();
        if o.number.is_some() {
            v.push(Violation::new("TOY 1", "the number may only travel as a commitment"));
        }
        match s.phase {
            Phase::Set => {
                if s.number_id.is_none() {
                    v.push(Violation::new("TOY 1", "commit to a number"));
                }
            }
            Phase::Move => match o.step {
                Some(step @ 1..=2) => {
                    if s.number == Some(s.piece + step) {
                        v.push(Violation::new("TOY 2", format!("the piece may not land on the hidden number ({})", s.piece + step)));
                    }
                }
                _ => v.push(Violation::new("TOY 2", "step 1 or 2")),
            },
            Phase::Guess => {
                if !matches!(o.guess, Some(0..=9)) {
                    v.push(Violation::new("TOY 2", "guess a number 0..=9"));
                }
            }
            Phase::Reveal => {
                if !s.opened || s.chits.iter().any(|c| c.2.is_none()) {
                    v.push(Violation::new("TOY 3", "open the number and every chit"));
                }
            }
            Phase::Over => v.push(Violation::new("TOY 3", "the game is over")),
        }
        if v.is_empty() { Ok(Legal::accepted(o)) } else { Err(Rejected { orders: o, violations: v }) }
    }
    fn apply(s: &mut ToyState, _seat: &str, o: Legal<ToyOrders>) -> Vec<Event> {
        let o = o.into_inner();
        let mut ev = Vec::new();
        match s.phase {
            Phase::Set => s.phase = Phase::Move,
            Phase::Move => {
                s.piece += o.step.unwrap_or(1);
                ev.push(Event::rule("TOY 2", format!("the piece steps to {}", s.piece)));
                if o.draw {
                    let id = format!("chit@{}", s.round);
                    s.chits.push((id.clone(), false, None));
                    s.new_draws.push(id);
                }
                s.phase = Phase::Guess;
            }
            Phase::Guess => {
                s.guesses.extend(o.guess);
                if s.round == ROUNDS && s.early {
                    // TOY 5 (`toy-early`): the rules end the game before anything is opened;
                    // the engine holds the result until every commitment is (DESIGN §2.6).
                    s.outcome = Some(Outcome::Draw { reason: "the rounds are over".into() });
                    s.phase = Phase::Over;
                } else if s.round == ROUNDS {
                    s.phase = Phase::Reveal;
                } else {
                    s.round += 1;
                    s.phase = Phase::Move;
                }
            }
            Phase::Reveal => {
                let n = s.number.unwrap_or(u32::MAX);
                s.outcome = Some(if s.guesses.contains(&n) {
                    Outcome::Win { side: "seeker".into(), reason: format!("guessed {n}") }
                } else {
                    Outcome::Win { side: "hider".into(), reason: format!("{n} was never guessed") }
                });
                s.phase = Phase::Over;
            }
            Phase::Over => {}
        }
        ev
    }
    fn pending_roll(_s: &ToyState) -> Option<String> {
        None
    }
    fn leading_roll(s: &ToyState) -> Option<(String, String)> {
        (s.leading && s.phase == Phase::Guess && (s.hints.len() as u32) < s.round)
            .then(|| (s.seeker.clone(), format!("TOY 4: the hint of round {}", s.round)))
    }
    fn resolve_lead(s: &mut ToyState, dice: &mut Dice) -> Vec<Event> {
        let face = dice.roll(6) + 1;
        s.hints.push(face);
        vec![Event::roll(format!("TOY 4: hint of round {}", s.round), "d6", face)]
    }
    fn resolve(_s: &mut ToyState, _dice: &mut Dice) -> Vec<Event> {
        vec![]
    }
    fn outcome(s: &ToyState) -> Option<Outcome> {
        s.outcome.clone()
    }
    fn view(s: &ToyState, seat: &str) -> ToyState {
        let mut v = s.clone();
        if seat != s.hider && !s.opened {
            v.number = None;
            for c in &mut v.chits {
                c.2 = None;
            }
        }
        v
    }
    fn random_orders(s: &ToyState, seat: &str, chooser: &mut Dice) -> Option<ToyOrders> {
        let mut o = ToyOrders::default();
        match s.phase {
            Phase::Set if seat == s.hider => o.number = Some(chooser.roll(10)),
            Phase::Move if seat == s.hider => {
                let mut step = chooser.roll(2) + 1;
                if s.number == Some(s.piece + step) {
                    step = 3 - step;
                }
                o.step = Some(step);
                o.draw = chooser.roll(2) == 0;
            }
            Phase::Guess if seat == s.seeker => o.guess = Some(chooser.roll(10)),
            Phase::Reveal if seat == s.hider => o.reveal = true,
            _ => return None,
        }
        Some(o)
    }
    fn template(_s: &ToyState, _seat: &str) -> String {
        "{}\n".into()
    }
    fn preview(_s: &ToyState, _seat: &str, _o: &ToyOrders) -> Vec<String> {
        vec![]
    }
    fn describe(s: &ToyState) -> String {
        let chits: Vec<String> =
            s.chits.iter().map(|(id, _, v)| format!("{id}={}", v.map_or("?".to_string(), |v| v.to_string()))).collect();
        format!(
            "round {} phase {:?}\npiece at {}\nnumber {}\nchits {}\nguesses {:?}\n",
            s.round,
            s.phase,
            s.piece,
            s.number.map_or("?".to_string(), |n| n.to_string()),
            chits.join(" "),
            s.guesses
        )
    }
    fn picture(s: &ToyState) -> crate::render::Picture {
        crate::render::Picture {
            title: format!("round {}", s.round),
            notes: vec![],
            legend: vec![],
            kind: crate::render::Kind::HexMap(Default::default()),
        }
    }
    fn check_invariants(s: &ToyState) -> Result<(), String> {
        if s.number.is_some_and(|n| n > 9) {
            return Err("number out of range".into());
        }
        Ok(())
    }

    fn hidden(s: &mut ToyState, seat: &str, acts: &mut HiddenActs) -> Result<Vec<Event>, Vec<Violation>> {
        let mut v = Vec::new();
        let mut ev = Vec::new();
        for Committed { id, value } in &acts.committed {
            if id.starts_with("number@") {
                if seat != s.hider || s.phase != Phase::Set {
                    v.push(Violation::new("TOY 1", "only the hider commits a number, once, at the start"));
                    continue;
                }
                s.number_id = Some(id.clone());
                if let Some(value) = value {
                    match parse_number(value) {
                        Some(n) => s.number = Some(n),
                        None => v.push(Violation::new("TOY 1", format!("{value:?} is not a number 0..=9"))),
                    }
                }
            } else if !id.starts_with("chit@") {
                v.push(Violation::new("TOY 1", format!("no such hidden thing: {id:?}")));
            }
        }
        for o in &mut acts.opened {
            if Some(&o.id) == s.number_id.as_ref() {
                match parse_number(&o.value) {
                    Some(n) => {
                        s.number = Some(n);
                        s.opened = true;
                        ev.push(Event::rule("TOY 3", format!("the hidden number was {n}")));
                    }
                    None => v.push(Violation::new("TOY 1", format!("the opened number {:?} is not a number 0..=9", o.value))),
                }
            } else if let Some(c) = s.chits.iter_mut().find(|c| c.0 == o.id) {
                if let Some(d) = o.draw.as_mut() {
                    c.2 = Some(d.d6());
                }
                ev.push(Event::rule("TOY 3", format!("{} was {:?}", c.0, c.2)));
            } else {
                v.push(Violation::new("TOY 3", format!("nothing to open under {:?}", o.id)));
            }
        }
        if v.is_empty() { Ok(ev) } else { Err(v) }
    }

    fn conceal(s: &ToyState, seat: &str, mut o: ToyOrders, _order: &IdOrder) -> Result<Concealed<ToyOrders>, Vec<Violation>> {
        let mut c = Concealed::plain(ToyOrders::default());
        if let Some(n) = o.number.take() {
            c.commit.push((format!("number@{}", s.round), n.to_string()));
        }
        if o.reveal && seat == s.hider {
            c.open.extend(s.number_id.clone());
            c.open.extend(s.chits.iter().map(|ch| ch.0.clone()));
        }
        c.orders = o;
        Ok(c)
    }

    fn partners_share(s: &ToyState) -> bool {
        s.partners
    }

    fn private_draws(s: &mut ToyState) -> Vec<String> {
        std::mem::take(&mut s.new_draws)
    }

    fn settle_draw(s: &mut ToyState, seat: &str, draw_id: &str, dice: Option<&mut Dice>) -> Vec<Event> {
        let Some(c) = s.chits.iter_mut().find(|c| c.0 == draw_id) else { return vec![] };
        c.1 = true;
        match dice {
            Some(d) => {
                c.2 = Some(d.d6());
                vec![Event::rule("TOY 2", format!("{seat} draws {draw_id}: {}", c.2.unwrap_or(0)))]
            }
            None => vec![Event::rule("TOY 2", format!("{seat} draws {draw_id} (hidden)"))],
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::crypto::{commit, draw};
    use crate::engine::author::complete_body;
    use crate::engine::bot::{self, Players};
    use crate::engine::game::{Game, GameError};
    use crate::engine::hidden::Knowledge;
    use crate::engine::registry::{AnyState, OrdersError};
    use crate::log::entry::{Body, Commitment, Entry, Kind, Opening};

    const BUNDLED: crate::scenarios::Bundled = crate::scenarios::Bundled { name: "toy/one", ruleset: ID, about: "toy", text: "toy" };

    pub(crate) fn start(seed: u64) -> (Game, Players) {
        bot::start_game(&BUNDLED, &[("hider", "A"), ("seeker", "B")], seed, 64, "2026-01-01T00:00:00Z").unwrap()
    }

    pub(crate) fn toy(state: &AnyState) -> &ToyState {
        match state {
            AnyState::Toy(s) => s,
            _ => panic!("not a toy state"),
        }
    }

    pub(crate) fn seat_view(game: &Game, players: &Players, seat: &str) -> Game {
        Game::replay_with(&game.entries, Knowledge::seat(seat, players.key(seat).unwrap().clone())).unwrap()
    }

    /// What an author's tool writes: conceal and seal on the author's own view.
    fn authored(game: &Game, players: &mut Players, seat: &str, o: ToyOrders) -> Entry {
        let view = seat_view(game, players, seat);
        let reveal = players.next_reveal(game, seat).unwrap();
        let mut b = Body::new(Kind::Orders);
        b.orders = Some(yaml_serde::to_value(&o).unwrap());
        let key = players.key(seat).unwrap().clone();
        let body = complete_body(&view, seat, &key, reveal.as_ref(), b).unwrap();
        bot::sign_body(game, seat, players, body, "t".into()).unwrap()
    }

    /// A body written by hand, bypassing the author's tool (a cheat's tool).
    pub(crate) fn raw(o: ToyOrders) -> Body {
        let mut b = Body::new(Kind::Orders);
        b.orders = Some(yaml_serde::to_value(&o).unwrap());
        b
    }

    pub(crate) fn play(game: &mut Game, players: &mut Players, seat: &str, o: ToyOrders) -> Entry {
        let e = authored(game, players, seat, o);
        game.apply(&e).unwrap();
        e
    }

    pub(crate) fn step(n: u32, draw: bool) -> ToyOrders {
        ToyOrders { step: Some(n), draw, ..Default::default() }
    }
    pub(crate) fn guess(n: u32) -> ToyOrders {
        ToyOrders { guess: Some(n), ..Default::default() }
    }

    /// hider commits 5; three rounds with a private draw in rounds 1 and 3; reveal.
    pub(crate) fn scripted() -> (Game, Players, Vec<Game>) {
        let (mut g, mut p) = start(1);
        let mut publics = vec![];
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(5), ..Default::default() });
        publics.push(g.clone());
        for (s, o) in [
            ("hider", step(2, true)),
            ("seeker", guess(3)),
            ("hider", step(1, false)),
            ("seeker", guess(4)),
            ("hider", step(1, true)),
            ("seeker", guess(8)),
            ("hider", ToyOrders { reveal: true, ..Default::default() }),
        ] {
            play(&mut g, &mut p, s, o);
            publics.push(g.clone());
        }
        (g, p, publics)
    }

    #[test]
    fn seat_and_public_knowledge_differ_only_in_hidden_values() {
        let (g, p, publics) = scripted();
        assert_eq!(
            g.outcome().map(|o| format!("{o:?}")),
            Some(format!("{:?}", Outcome::Win { side: "hider".into(), reason: "5 was never guessed".into() }))
        );
        let set_seq = publics[0].entries.len();
        for (i, public) in publics.iter().enumerate() {
            let n = public.entries.len();
            let hider = Game::replay_with(&g.entries[..n], Knowledge::seat("hider", p.key("hider").unwrap().clone())).unwrap();
            let seeker = Game::replay_with(&g.entries[..n], Knowledge::seat("seeker", p.key("seeker").unwrap().clone())).unwrap();
            let (ps, hs, ss) = (toy(&public.state), toy(&hider.state), toy(&seeker.state));
            // The same public facts in every mode, at every step.
            assert_eq!(public_facts(ps), public_facts(hs), "after {n} entries");
            assert_eq!(public_facts(ps), public_facts(ss), "after {n} entries");
            // The hider knows its number from the start; the others only once it is opened.
            assert_eq!(hs.number, Some(5));
            let opened = i == publics.len() - 1;
            assert_eq!(ps.number, if opened { Some(5) } else { None });
            assert_eq!(ss.number, ps.number);
            assert_eq!(ss.view_for_test(), ps.view_for_test());
        }
        assert!(set_seq > 0);
    }

    impl ToyState {
        fn view_for_test(&self) -> (Option<u32>, Vec<Option<u32>>) {
            (self.number, self.chits.iter().map(|c| c.2).collect())
        }
    }

    #[test]
    fn private_draws_settle_the_same_in_public_seat_and_omniscient_mode() {
        let (g, p, publics) = scripted();
        // After the seeker's first guess the first chit is settled: the hider knows it, the
        // public does not.
        let after_guess = &publics[2];
        let n = after_guess.entries.len();
        let hider = Game::replay_with(&g.entries[..n], Knowledge::seat("hider", p.key("hider").unwrap().clone())).unwrap();
        let known = toy(&hider.state).chits[0].2;
        assert!(known.is_some());
        assert_eq!(toy(&after_guess.state).chits[0], ("chit@1".to_string(), true, None));
        // At the end the public replay computed the same value from the opened r.
        let end_public: Vec<_> = toy(&g.state).chits.iter().map(|c| c.2).collect();
        let end_hider = seat_view(&g, &p, "hider");
        assert_eq!(end_public, toy(&end_hider.state).chits.iter().map(|c| c.2).collect::<Vec<_>>());
        assert_eq!(end_public[0], known);
        assert!(end_public.iter().all(Option::is_some));
        // Omniscient: knows everything from the start, same public facts, same end state.
        let omni = g.replay_omniscient().unwrap();
        assert_eq!(omni.state, g.state);
        assert_eq!(toy(&omni.state).chits[0].2, known);
        // The dice are those of DESIGN §2.6: r from the drawer's key, F's reveal.
        let r = draw::draw_secret(&p.key("hider").unwrap().seed(), &g.id(), "chit@1");
        let f = g.entries.iter().find(|e| e.seq() > publics[1].entries.len() as u64 - 1 && e.seat() == "seeker").unwrap();
        let mut d = Dice::from_seed(&draw::private_dice_seed(&r, &f.draft.reveal.unwrap()));
        assert_eq!(Some(d.d6()), known);
    }

    #[test]
    fn sealed_notes_recover_values_from_the_log_alone() {
        let (g, p, publics) = scripted();
        let n = publics[0].entries.len();
        let set = &g.entries[n - 1];
        assert!(set.draft.body.sealed.is_some());
        assert!(set.draft.body.sealed_for.is_none());
        // Only the log's first n entries and the hider's key.
        let hider = Game::replay_with(&g.entries[..n], Knowledge::seat("hider", p.key("hider").unwrap().clone())).unwrap();
        assert_eq!(toy(&hider.state).number, Some(5));
        assert_eq!(hider.knowledge.value("hider", "number@1"), Some("5"));
        // The seeker's key opens nothing.
        let seeker = Game::replay_with(&g.entries[..n], Knowledge::seat("seeker", p.key("seeker").unwrap().clone())).unwrap();
        assert_eq!(seeker.knowledge.value("hider", "number@1"), None);
        // A sealed note swapped in from another seq does not open: refused in seat mode.
        let mut entries = g.entries[..n].to_vec();
        let moved = &g.entries[n]; // the first move, which committed chit@1
        let mut body = set.draft.body.clone();
        body.sealed = moved.draft.body.sealed.clone();
        let mut d = set.draft.clone();
        d.body = body;
        entries[n - 1] = d.try_sign(p.key("hider").unwrap()).unwrap();
        let err = Game::replay_with(&entries, Knowledge::seat("hider", p.key("hider").unwrap().clone())).unwrap_err().1;
        assert!(matches!(err, GameError::Commitment { .. }), "{err}");
    }

    #[test]
    fn nothing_hidden_appears_in_plain_text() {
        let (g, p, publics) = scripted();
        let seed = p.key("hider").unwrap().seed();
        let r1 = draw::draw_secret(&seed, &g.id(), "chit@1").to_hex();
        let salt = commit::salt(&seed, &g.id(), "number@1").to_hex();
        let reveal_seq = publics[publics.len() - 2].entries.len();
        for e in &g.entries[..reveal_seq] {
            let text = String::from_utf8(e.bytes.clone()).unwrap();
            assert!(!text.contains("number:"), "entry {} carries the number", e.seq());
            assert!(!text.contains("'5'") && !text.contains("\"5\""), "entry {}", e.seq());
            assert!(!text.contains(&r1), "entry {} carries r", e.seq());
            assert!(!text.contains(&salt), "entry {} carries the salt", e.seq());
        }
        let last = String::from_utf8(g.entries[reveal_seq].bytes.clone()).unwrap();
        assert!(last.contains(&r1) && last.contains(&salt));
    }

    #[test]
    fn an_opening_that_does_not_match_is_refused() {
        let (g, mut p, publics) = scripted();
        let before_reveal = publics[publics.len() - 2].clone();
        let honest = &g.entries[before_reveal.entries.len()];
        // Same salt, another value: the digest does not match.
        let mut body = honest.draft.body.clone();
        let opens = body.open.as_mut().unwrap();
        opens.iter_mut().find(|o| o.id == "number@1").unwrap().value = "4".into();
        let e = bot::sign_body(&before_reveal, "hider", &mut p, body, "t".into()).unwrap();
        let err = before_reveal.clone().apply(&e).unwrap_err();
        assert!(matches!(&err, GameError::Commitment { why, .. } if why.contains("does not match")), "{err}");
    }

    #[test]
    fn an_opened_value_the_rules_refuse_is_refused_in_public_mode() {
        // A cheat commits "12" (not 0..=9): nobody can tell until it is opened.
        let (mut g, mut p) = start(2);
        let seed = p.key("hider").unwrap().seed();
        let salt = commit::salt(&seed, &g.id(), "number@1");
        let mut b = raw(ToyOrders::default());
        b.commit = Some(vec![Commitment { id: "number@1".into(), digest: commit::digest(&salt, "12") }]);
        let e = bot::sign_body(&g, "hider", &mut p, b, "t".into()).unwrap();
        g.apply(&e).unwrap();
        for (s, o) in [("hider", step(1, false)), ("seeker", guess(1)), ("hider", step(1, false)), ("seeker", guess(2))] {
            let e = bot::sign_body(&g, s, &mut p, raw(o), "t".into()).unwrap();
            g.apply(&e).unwrap();
        }
        for (s, o) in [("hider", step(1, false)), ("seeker", guess(3))] {
            let e = bot::sign_body(&g, s, &mut p, raw(o), "t".into()).unwrap();
            g.apply(&e).unwrap();
        }
        let mut b = raw(ToyOrders { reveal: true, ..Default::default() });
        b.open = Some(vec![Opening { id: "number@1".into(), salt, value: "12".into() }]);
        let e = bot::sign_body(&g, "hider", &mut p, b, "t".into()).unwrap();
        let err = g.clone().apply(&e).unwrap_err();
        assert!(matches!(&err, GameError::Orders { error: OrdersError::Illegal(vs), .. } if vs[0].rule == "TOY 1"), "{err}");
    }

    /// hider commits 2, then steps onto 2 with an entry signed by hand; an honest reveal.
    pub(crate) fn lying_game() -> (Game, Entry) {
        let (mut g, mut p) = start(3);
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(2), ..Default::default() });
        // The hider's tool would refuse stepping onto 2; a cheat signs it by hand.
        let lie = bot::sign_body(&g, "hider", &mut p, raw(step(2, false)), "t".into()).unwrap();
        assert!(complete_body(&seat_view(&g, &p, "hider"), "hider", p.key("hider").unwrap(), None, raw(step(2, false))).is_err());
        g.apply(&lie).unwrap();
        // From here on the hider's own view refuses the log: it signs by hand.
        for (s, o) in
            [("seeker", guess(1)), ("hider", step(1, false)), ("seeker", guess(7)), ("hider", step(2, false)), ("seeker", guess(9))]
        {
            let e = bot::sign_body(&g, s, &mut p, raw(o), "t".into()).unwrap();
            g.apply(&e).unwrap();
        }
        // The reveal is honest; the public replay cannot tell.
        let mut b = raw(ToyOrders { reveal: true, ..Default::default() });
        let salt = commit::salt(&p.key("hider").unwrap().seed(), &g.id(), "number@1");
        b.open = Some(vec![Opening { id: "number@1".into(), salt, value: "2".into() }]);
        let e = bot::sign_body(&g, "hider", &mut p, b, "t".into()).unwrap();
        g.apply(&e).unwrap();
        (g, lie)
    }

    #[test]
    fn the_omniscient_pass_names_a_lying_move() {
        let (g, lie) = lying_game();
        assert!(g.outcome().is_some());
        assert!(Game::replay(&g.entries).is_ok());
        let cheats = g.replay_omniscient().unwrap_err();
        assert_eq!(cheats.len(), 1);
        let c = &cheats[0];
        assert_eq!((c.seq, c.seat.as_str(), c.hash, c.rule.as_str()), (lie.seq(), "hider", lie.hash, "TOY 2"));
        assert!(c.message.contains("hidden number"), "{}", c.message);
    }

    #[test]
    fn bots_play_hidden_games_that_verify_in_every_mode() {
        for seed in 0..12 {
            let (mut g, mut p) = start(100 + seed);
            let mut clock = || "t".to_string();
            let mut keep = |_: &Entry, _: &Game| Ok(());
            bot::play_out(&mut g, &mut p, seed, 200, &mut clock, &mut keep).unwrap();
            assert!(g.unopened().is_empty());
            let omni = g.replay_omniscient().unwrap();
            assert_eq!(omni.state, g.state);
            for seat in ["hider", "seeker"] {
                let v = seat_view(&g, &p, seat);
                assert_eq!(public_facts(toy(&v.state)), public_facts(toy(&g.state)));
            }
            let values: BTreeMap<_, _> = omni.knowledge.values().clone();
            assert!(values.contains_key(&("hider".to_string(), "number@1".to_string())));
        }
    }

    #[test]
    fn a_partner_reads_the_note_sealed_for_it_and_the_other_side_cannot() {
        let (mut g, mut p) =
            bot::start_game(&BUNDLED, &[("hider", "A"), ("seeker", "B"), ("helper", "A")], 9, 64, "2026-01-01T00:00:00Z").unwrap();
        let e = play(&mut g, &mut p, "hider", ToyOrders { number: Some(7), ..Default::default() });
        let notes = e.draft.body.sealed_for.clone().unwrap();
        assert_eq!(notes.iter().map(|n| n.seat.as_str()).collect::<Vec<_>>(), ["helper"]);
        let helper = seat_view(&g, &p, "helper");
        assert_eq!(toy(&helper.state).number, Some(7));
        let seeker = seat_view(&g, &p, "seeker");
        assert_eq!(toy(&seeker.state).number, None);
        assert_eq!(public_facts(toy(&helper.state)), public_facts(toy(&g.state)));
        // A note that lies to the partner (a value not matching the commitment) is refused
        // in the partner's view.
        let key = p.key("hider").unwrap().clone();
        let salt = commit::salt(&key.seed(), &g.id(), "number@1");
        let lie = crate::engine::hidden::SealedNote {
            commit: [("number@1".to_string(), "3".to_string())].into(),
            salt: [("number@1".to_string(), salt)].into(),
        };
        let mut d = e.draft.clone();
        let partner = g.genesis().seat("helper").unwrap().key;
        d.body.sealed_for.as_mut().unwrap()[0].data =
            crate::crypto::seal::seal_for(&key.signing, &partner, &g.id(), "hider", "helper", e.seq(), lie.to_text().as_bytes(), 512)
                .unwrap();
        let forged = d.try_sign(&key).unwrap();
        let mut entries = g.entries.clone();
        *entries.last_mut().unwrap() = forged;
        let err = Game::replay_with(&entries, Knowledge::seat("helper", p.key("helper").unwrap().clone())).unwrap_err().1;
        assert!(matches!(&err, GameError::Commitment { why, .. } if why.contains("does not match")), "{err}");
    }

    #[test]
    fn a_draw_without_its_commitment_or_with_a_bad_secret_is_refused() {
        let (mut g, mut p) = start(5);
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(1), ..Default::default() });
        // Drawing without committing to r: refused in public mode.
        let e = bot::sign_body(&g, "hider", &mut p, raw(step(2, true)), "t".into()).unwrap();
        let err = g.clone().apply(&e).unwrap_err();
        assert!(matches!(&err, GameError::Commitment { why, .. } if why.contains("private draw")), "{err}");
        // Committing something that is not r: accepted until opened, then refused.
        let salt = commit::salt(&p.key("hider").unwrap().seed(), &g.id(), "chit@1");
        let mut b = raw(step(2, true));
        b.commit = Some(vec![Commitment { id: "chit@1".into(), digest: commit::digest(&salt, "zz") }]);
        let e = bot::sign_body(&g, "hider", &mut p, b, "t".into()).unwrap();
        g.apply(&e).unwrap();
        let e = bot::sign_body(&g, "seeker", &mut p, raw(guess(0)), "t".into()).unwrap();
        g.apply(&e).unwrap();
        assert_eq!(g.unsettled.len(), 1);
        let mut b = raw(step(1, false));
        b.open = Some(vec![Opening { id: "chit@1".into(), salt, value: "zz".into() }]);
        let e = bot::sign_body(&g, "hider", &mut p, b, "t".into()).unwrap();
        let err = g.clone().apply(&e).unwrap_err();
        assert!(matches!(&err, GameError::Commitment { why, .. } if why.contains("64 hex digits")), "{err}");
    }

    #[test]
    fn an_ack_may_settle_owed_private_draws() {
        let (mut g, mut p) = start(6);
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(1), ..Default::default() });
        play(&mut g, &mut p, "hider", step(2, true));
        assert_eq!(g.draws.len(), 1);
        let e = bot::sign_body(&g, "seeker", &mut p, Body::new(Kind::Ack), "t".into()).unwrap();
        g.apply(&e).unwrap();
        assert!(g.draws.is_empty() && g.unsettled.len() == 1);
        // Nothing owed any more: a second ack is refused.
        let e = bot::sign_body(&g, "seeker", &mut p, Body::new(Kind::Ack), "t".into()).unwrap();
        assert!(matches!(g.clone().apply(&e), Err(GameError::OutOfTurn { .. })));
    }

    // ---- protocol 2 (DESIGN §2.5–2.7): leading rolls, one-sided knowledge, take-backs ----

    fn start_with(text: &'static str, seed: u64) -> (Game, Players) {
        let b = crate::scenarios::Bundled { name: "toy/lead", ruleset: ID, about: "toy", text };
        let b: &'static crate::scenarios::Bundled = Box::leak(Box::new(b));
        bot::start_game(b, &[("hider", "A"), ("seeker", "B")], seed, 64, "2026-01-01T00:00:00Z").unwrap()
    }

    fn sign(g: &Game, p: &mut Players, seat: &str, body: Body) -> Entry {
        bot::sign_body(g, seat, p, body, "t".into()).unwrap()
    }

    /// Hider sets 5 and steps: the seeker's guess is due, opening with a leading roll.
    fn lead_due_game() -> (Game, Players) {
        let (mut g, mut p) = start_with("toy-lead", 3);
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(5), ..Default::default() });
        play(&mut g, &mut p, "hider", step(2, false));
        (g, p)
    }

    #[test]
    fn a_leading_roll_opens_the_entry_and_its_roller_sees_it_first() {
        let (mut g, mut p) = lead_due_game();
        let pe = g.entries.last().unwrap().clone();
        let (seat, _, lead) = g.lead_due().expect("the guess opens with the hint");
        assert_eq!((seat.as_str(), lead.as_ref().map(|l| l.hash)), ("seeker", Some(pe.hash)));
        // The seeker's tool knows the hint before writing: its own next reveal fixes it.
        let reveal = p.next_reveal(&g, "seeker").unwrap().unwrap();
        let (before, _) = g.state_before("seeker", Some(&reveal));
        let hint = toy(&before).hints[0];
        let e = play(&mut g, &mut p, "seeker", guess(3));
        assert_eq!(e.draft.body.lead, Some(pe.hash));
        let step = g.steps.last().unwrap();
        let [r] = &step.resolved[..] else { panic!("one roll, the leading one: {:?}", step.resolved) };
        assert_eq!(r.seed, crate::dice::lead_seed(&pe.draft.reveal.unwrap(), &reveal));
        assert_eq!((r.entry, r.revealed_by), (e.seq(), pe.seq()));
        assert_eq!(toy(&g.state).hints, vec![hint]);
    }

    #[test]
    fn a_seat_cannot_make_a_leading_roll_ordinary_or_the_reverse() {
        let (g, mut p) = lead_due_game();
        // Without `lead`: refused (the state alone says the roll leads).
        let mut body = raw(guess(3));
        body.lead = None;
        let reveal = p.next_reveal(&g, "seeker").unwrap();
        let d = g.draft_for("seeker", body, reveal, None, "t".into());
        let mut d2 = d.clone();
        d2.body.lead = None;
        let e = d2.try_sign(p.key("seeker").unwrap()).unwrap();
        assert!(
            matches!(g.clone().apply(&e), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("lead")),
            "{:?}",
            g.clone().apply(&e)
        );
        // An ack (the ordinary roll): refused while the conditions hold.
        let e = sign(&g, &mut p, "seeker", Body::new(Kind::Ack));
        assert!(matches!(g.clone().apply(&e), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("leading roll")));
        // A `lead` on an entry no leading roll opens: refused.
        let mut g2 = g.clone();
        play(&mut g2, &mut p, "seeker", guess(3));
        let mut body = raw(step(1, false));
        body.lead = Some(g2.entries[3].hash);
        let e = sign(&g2, &mut p, "hider", body);
        assert!(matches!(g2.clone().apply(&e), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("none opens")));
    }

    #[test]
    fn nobody_amends_or_offers_a_draw_while_one_side_alone_knows_a_roll() {
        let (g, mut p) = lead_due_game();
        for (seat, kind) in
            [("hider", Kind::OfferDraw), ("seeker", Kind::OfferDraw), ("seeker", Kind::ProposeAmend), ("hider", Kind::ProposeAmend)]
        {
            let mut b = Body::new(kind);
            if kind == Kind::ProposeAmend {
                b.amend = Some(crate::log::entry::Amendment { undo_from: Some(g.next_seq() - 1), reason: "r".into() });
            }
            let e = sign(&g, &mut p, seat, b);
            assert!(
                matches!(g.clone().apply(&e), Err(GameError::OutOfTurn { ref why, .. }) if why.contains("known to one side only")),
                "{seat} {kind:?}"
            );
        }
        // Resigning stays possible.
        let e = sign(&g, &mut p, "seeker", Body::new(Kind::Resign));
        assert!(g.clone().apply(&e).is_ok());
    }

    /// DESIGN §2.7: after a take-back no leading roll leads until a new P arrives; the roll
    /// is then an ordinary one, and a take-back that withdraws its revealer but not the
    /// entry it belonged to is refused (the proposer would already know the re-roll).
    #[test]
    fn a_take_back_never_lets_a_seat_preview_a_reroll() {
        let (mut g, mut p) = lead_due_game();
        let guess_entry = play(&mut g, &mut p, "seeker", guess(3));
        let mut b = Body::new(Kind::ProposeAmend);
        b.amend = Some(crate::log::entry::Amendment { undo_from: Some(guess_entry.seq()), reason: "misclick".into() });
        let pr = sign(&g, &mut p, "seeker", b);
        g.apply(&pr).unwrap();
        let mut b = Body::new(Kind::AgreeAmend);
        b.agree = Some(pr.hash);
        let ag = sign(&g, &mut p, "hider", b);
        g.apply(&ag).unwrap();
        assert!(toy(&g.state).hints.is_empty());
        let (_, _, lead) = g.lead_due().unwrap();
        assert!(lead.is_none(), "no P after the take-back: the hint cannot lead");
        // Orders are refused; the seeker acks, the hider's next entry fixes the roll.
        let e = sign(&g, &mut p, "seeker", raw(guess(3)));
        assert!(g.clone().apply(&e).is_err());
        let ack = sign(&g, &mut p, "seeker", Body::new(Kind::Ack));
        g.apply(&ack).unwrap();
        assert!(g.pending.as_ref().is_some_and(|x| x.lead && x.dice_from == "hider"));
        let fix = sign(&g, &mut p, "hider", Body::new(Kind::Ack));
        g.apply(&fix).unwrap();
        let r = g.steps.last().unwrap().resolved[0].clone();
        assert_eq!(r.seed, crate::dice::dice_seed(&ack.draft.reveal.unwrap(), &fix.draft.reveal.unwrap()));
        assert_eq!(toy(&g.state).hints.len(), 1);
        // Withdrawing the revealer alone is refused; withdrawing the roller too is allowed.
        let mut b = Body::new(Kind::ProposeAmend);
        b.amend = Some(crate::log::entry::Amendment { undo_from: Some(fix.seq()), reason: "again".into() });
        let bad = sign(&g, &mut p, "seeker", b);
        assert!(matches!(g.clone().apply(&bad), Err(GameError::Amendment { ref why, .. }) if why.contains("must withdraw entry")));
        let mut b = Body::new(Kind::ProposeAmend);
        b.amend = Some(crate::log::entry::Amendment { undo_from: Some(ack.seq()), reason: "again".into() });
        let ok = sign(&g, &mut p, "seeker", b);
        assert!(g.clone().apply(&ok).is_ok());
    }

    /// DESIGN §2.5: an offer that crossed in the mail and was dropped leaks no chain value,
    /// and it lapses at the next orders/ack entry.
    #[test]
    fn a_draw_offer_carries_no_reveal_and_lapses() {
        let (mut g, mut p) = start(9);
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(5), ..Default::default() });
        let offer = sign(&g, &mut p, "seeker", Body::new(Kind::OfferDraw));
        assert!(offer.draft.reveal.is_none() && offer.draft.dice_from.is_none());
        let before = g.protocol.chains["seeker"].revealed;
        g.apply(&offer).unwrap();
        assert_eq!(g.protocol.chains["seeker"].revealed, before, "no chain value spent");
        play(&mut g, &mut p, "hider", step(1, false));
        assert!(g.draw_offer.is_none(), "the offer lapsed when play went on");
    }

    /// DESIGN §2.6: a game whose rules ended with a commitment unopened is not over; verify
    /// reports it incomplete; the owed ack opens it.
    #[test]
    fn a_withheld_opening_keeps_the_game_open() {
        let (mut g, mut p) = start_with("toy-early", 4);
        play(&mut g, &mut p, "hider", ToyOrders { number: Some(5), ..Default::default() });
        for r in 0..ROUNDS {
            play(&mut g, &mut p, "hider", step(1, false));
            play(&mut g, &mut p, "seeker", guess(r));
        }
        assert!(g.ending.is_some() && g.openings_owed());
        assert_eq!(g.outcome(), None, "not over while an opening is owed");
        assert_eq!(g.waiting_for()[0].0, "hider");
        assert_eq!(g.owed_openings()[0].0, "hider");
        // Another kind of entry is refused; the hider's ack opens everything.
        let e = sign(&g, &mut p, "seeker", Body::new(Kind::OfferDraw));
        assert!(g.clone().apply(&e).is_err());
        let body = bot::next_body(&g, "hider", &mut p, &mut bot::chooser(1, "hider", g.next_seq())).unwrap().expect("the bot opens");
        let e = sign(&g, &mut p, "hider", body);
        g.apply(&e).unwrap();
        assert!(!g.openings_owed() && g.outcome().is_some());
    }
}
