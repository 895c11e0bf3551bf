//! Orders as written in `body.orders` (parsed, not yet legal).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One entry's orders: actions applied in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Applied in order; each written as a one-key map (`{move: {...}}`) or a word (`pass`).
    #[serde(with = "yaml_serde::with::singleton_map_recursive")]
    #[schemars(with = "Vec<Action>")]
    pub actions: Vec<Action>,
}

/// A piece placed or moved: an army id (`DE-9`) or `dummy`, and a front.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub piece: String,
    pub front: u8,
}

/// One action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 4.2/1: place every piece due this turn.
    Deploy(Vec<Placement>),
    /// 5.0: pieces from one front to adjacent fronts of the same theatre.
    Move { from: u8, pieces: Vec<Placement> },
    /// 4.2/2: one or two pieces from one front to one other front (AMB-07).
    Transfer { from: u8, to: u8, pieces: Vec<String> },
    /// 4.2/2: do nothing this round.
    Pass,
    /// 6.0: combat on a front with these participating armies; `capture` lists cities in
    /// order of preference should the attack win (6.4).
    Attack {
        front: u8,
        armies: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        capture: Vec<String>,
    },
    /// 6.1/1: the chit placed (its id), or null for none.
    Chit(Option<String>),
    /// 6.1/2: the lead army.
    Lead { army: String },
    /// 6.2: after this side's die showed S, draw a chit (true) or not (false). Open chits:
    /// the answer to the S, and a draw ends the entry (its dice pick the chit). Hidden
    /// chits: the first action of the seat's next entry, which makes the draw unless it
    /// says `draw: false`. Always the entry's first action.
    Draw(bool),
    /// 6.2.2 (hidden chits): the back of a settled draw's chit, as the table sees it
    /// (`mandatory`: the red or blue back of a mandatory chit). Written by the author's tool
    /// at the head of the drawer's next orders.
    Back { draw: String, mandatory: bool },
    /// 6.2.1: the previously held chit returned when over the hand limit.
    Discard(String),
    /// 6.2.1: return a chit this seat can never use (no new draw).
    ReturnChit(String),
    /// 8.1: Germany offers the treaty of Brest-Litovsk (true) or not.
    OfferPeace(bool),
    /// 8.1: EA accepts (true) or refuses (4 players).
    AcceptPeace(bool),
    /// 4.2/4: eliminated armies brought back next turn.
    Replace(Vec<String>),
    /// 6.1/5 (hidden chits): the attacker turns its placed chit face up; the roll follows.
    OpenChit,
    /// The game is over (hidden chits): open every chit draw and return of this seat.
    RevealChits,
    /// 4.2/1, 6.0 (H-1): turn face-up pieces face down again, one group per front and
    /// faction, each under a fresh commitment id (deployment or the owner's round). The
    /// author's tool writes it for every piece the rules turned face down (`pieces::due_down`).
    Hide(Vec<HideGroup>),
    /// 6.0, 4.2/3: open the face-down pieces due now (listed or not), and reveal these own
    /// face-down pieces besides (4.2/1 voluntary reveal; piece ids in the log).
    Reveal(Vec<String>),
    /// 9.2 (optional rule): the slots this faction takes this turn, 1 to 4, in the
    /// deployment order and in the round order.
    PickOrder { deploy: u8, round: u8 },
    /// 4.2/3, 6.4: the city this faction captures on an unopposed front at the victory
    /// check, when it has a choice.
    Capture { front: u8, city: String },
}

/// Face-up pieces of one faction on one front turned face down (H-1 re-hiding).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HideGroup {
    pub front: u8,
    /// The face-up pieces (army ids, `dummy`); in the log sorted, so their order tells
    /// nothing.
    pub pieces: Vec<String>,
    /// The fresh commitment ids (`piece-<n>`), one per piece; written by the author's tool,
    /// which numbers them in its secret order of the values (DESIGN §2.6), never the order
    /// the pieces were listed in; ids and pieces are not paired.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<String>,
}
impl Action {
    /// The action as its orders write it (`"attack on front 3"`, `"pass"`), for messages.
    pub fn words(&self) -> String {
        match self {
            Action::Deploy(_) => "a deployment".into(),
            Action::Move { from, .. } => format!("a move from front {from}"),
            Action::Transfer { from, to, .. } => format!("a transfer from front {from} to front {to}"),
            Action::Pass => "a pass".into(),
            Action::Attack { front, .. } => format!("an attack on front {front}"),
            Action::Chit(Some(c)) => format!("the chit {c}"),
            Action::Chit(None) => "no chit (chit: null)".into(),
            Action::Lead { army } => format!("{army} as lead"),
            Action::Draw(true) => "a chit draw after an S".into(),
            Action::Draw(false) => "declining a chit draw after an S".into(),
            Action::Back { draw, .. } => format!("the back of the chit from {draw}"),
            Action::Discard(c) => format!("the discard of {c}"),
            Action::ReturnChit(c) => format!("the return of {c}"),
            Action::OfferPeace(_) => "a peace offer".into(),
            Action::AcceptPeace(_) => "an answer to the peace offer".into(),
            Action::Replace(_) => "replacements".into(),
            Action::OpenChit => "turning the chit up".into(),
            Action::RevealChits => "revealing the chits".into(),
            Action::Hide(_) => "hiding pieces".into(),
            Action::Reveal(_) => "revealing pieces".into(),
            Action::PickOrder { .. } => "a pick of the play order".into(),
            Action::Capture { city, .. } => format!("the capture of {city}"),
        }
    }
}
