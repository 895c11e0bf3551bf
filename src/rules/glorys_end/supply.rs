//! Supply (GE-7.2–7.11, 16.1).
//!
//! General supply (7.2, 7.3): a line of at most five hexes to a source, crossing passable
//! hexsides and entering no hex with enemy units; the source hex counts, the unit's own hex
//! does not. Sources are the side's supply edges (Marne 16.1: German north, Allied south;
//! campaign 7.3: German east, Allied west and south inside France) while no enemy unit stands
//! on the edge hex, and any friendly-controlled town or city that itself reaches an edge by a
//! path of any length (7.3: the side controls it now and controlled it at the start of the
//! current game turn, `State::town_held_at_turn_start`; the digest's G.4 item 11 read the
//! player turn, which the Italian original does not support).
//!
//! The campaign adds (only when the state carries campaign rules):
//! * Belgian units draw general supply from Brussels 1525 alone, and only until the German
//!   has first controlled it (7.10; reading of G.4 item 10: Brussels needs no line to an edge);
//! * the Liège bottleneck (7.11): while the Liège fortress stands, no German line enters a
//!   Belgian hex west of the Meuse;
//! * the Abbeville bottleneck (7.11): while the German controls Abbeville 2038, French and
//!   British units north of row 20 have no general supply (only coastal and port supply);
//! * fortress supply (7.7, same nationality as the fort), Allied coastal supply (7.8) and port
//!   supply (7.9; an inland port also needs all its access hexes friendly-controlled), each
//!   good only for what the rules say, see [`Use`] and [`SupplyAll::unit`].
//!
//! [`Supply::of`] traces once for a whole side (two floods over the board's dense index) and
//! then answers per hex in constant time; [`SupplyAll`] does it for every kind at once.

use std::cell::OnceCell;
use std::rc::Rc;

use super::campaign::{self, hx};
use super::map::{Country, Edge};
use super::state::{Kind, SideId, State, Unit};
use crate::geo::hex::HexId;

/// Longest supply line, in hexes (GE-7.2).
pub const LINE: u32 = 5;

/// The supply edge of a side in the Marne scenario (GE-16.1).
pub fn supply_edge(side: SideId) -> Edge {
    match side {
        SideId::German => Edge::North,
        SideId::Allied => Edge::South,
    }
}

/// The supply edges of a side: the campaign's (GE-7.3) or the Marne's (16.1).
pub fn edges(state: &State, side: SideId) -> Vec<Edge> {
    match state.campaign.as_ref().and_then(|c| c.supply_edges.get(&side)) {
        Some(v) => v.clone(),
        None => vec![supply_edge(side)],
    }
}

/// Whether `h` is a hex of one of `side`'s supply edges (GE-7.3: the Allied edges count only
/// inside France in a campaign).
pub fn on_supply_edge(state: &State, side: SideId, h: HexId) -> bool {
    on_edges(state, side, &edges(state, side), h)
}

/// [`on_supply_edge`] with the side's edges looked up once (tracing asks it of every hex).
fn on_edges(state: &State, side: SideId, edges: &[Edge], h: HexId) -> bool {
    state.board.index(h).is_some_and(|i| on_edges_ix(state, side, super::board::Board::edge_set(edges), i))
}

/// [`on_edges`] for the hex with dense index `i`, the edges given as a set
/// ([`super::board::Board::edge_set`]): the map is looked up only for hexes on an edge.
fn on_edges_ix(state: &State, side: SideId, set: u8, i: usize) -> bool {
    let b = &state.board;
    b.on_edges_ix(i, set)
        && !(state.campaign.is_some() && side == SideId::Allied && b.hex(b.hex_ids()[i]).is_some_and(|x| x.country != Country::France))
}

/// The supply of one side (or of the Belgian army) in one state: which hexes are sources, and
/// which hexes a unit could trace from.
pub struct Supply<'a> {
    state: &'a State,
    side: SideId,
    /// The sources and distances (shared with the memo of recent traces).
    traced: Rc<Traced>,
    /// French and British general supply is cut north of row 20 (GE-7.11, Abbeville).
    abbeville_cut: bool,
}

/// Per dense hex: holds a unit of a side other than `side`.
fn enemy_mask(state: &State, side: SideId) -> Vec<bool> {
    let b = &state.board;
    let mut enemy = vec![false; b.len()];
    for u in &state.units {
        if u.side != side
            && let Some(i) = u.hex().and_then(|h| b.index(h))
        {
            enemy[i] = true;
        }
    }
    enemy_zones(state, side, &mut enemy);
    enemy
}

/// GE-7.2: an enemy fortified zone blocks a supply line like an enemy unit.
fn enemy_zones(state: &State, side: SideId, enemy: &mut [bool]) {
    let b = &state.board;
    for (h, z) in &state.fortified {
        if z.side != side
            && let Some(i) = b.index(*h)
        {
            enemy[i] = true;
        }
    }
}

/// Distances of at most [`LINE`] from the sources, never entering `blocked` hexes and
/// continuing only through hexes free of enemy units.
fn lines(state: &State, source: &[bool], enemy: &[bool], blocked: &[bool]) -> Vec<u32> {
    let b = &state.board;
    let mut dist = vec![u32::MAX; b.len()];
    let mut ring: Vec<usize> = (0..b.len()).filter(|&i| source[i]).collect();
    for &i in &ring {
        dist[i] = 0;
    }
    for d in 1..=LINE {
        let mut next = Vec::new();
        for i in ring {
            for &j in b.neighbours_ix(i) {
                let j = j as usize;
                if dist[j] == u32::MAX && !blocked[j] {
                    dist[j] = d;
                    // A line continues only through hexes free of enemy units.
                    if !enemy[j] {
                        next.push(j);
                    }
                }
            }
        }
        ring = next;
    }
    dist
}

/// What a trace finds, per dense hex.
struct Traced {
    /// Distance in hexes to the nearest source (`u32::MAX` if beyond reach).
    dist: Vec<u32>,
    source: Vec<bool>,
}

/// Everything a trace of general supply depends on ([`Supply::of`]): two states that agree on
/// it have the same sources and distances.
struct TraceInputs {
    board: std::sync::Arc<super::board::Board>,
    side: SideId,
    campaign: bool,
    edges: Vec<Edge>,
    liege: bool,
    enemy: Vec<bool>,
    /// Per dense hex: a town that is a source if a path reaches it (GE 7.3).
    town: Vec<bool>,
}

impl PartialEq for TraceInputs {
    fn eq(&self, o: &Self) -> bool {
        // The same map (held here, so its address cannot be reused by another while kept).
        std::sync::Arc::ptr_eq(&self.board, &o.board)
            && (self.side, self.campaign, self.liege) == (o.side, o.campaign, o.liege)
            && self.edges == o.edges
            && self.enemy == o.enemy
            && self.town == o.town
    }
}

thread_local! {
    /// The last few traces and their inputs. Within one entry the rules ask for the same
    /// supply again and again on states that differ in nothing it depends on (each
    /// replacement, each battle declared, the phase's attrition); a trace was about a
    /// tenth of `verify` (issue 20). The answer is the trace's, hit or miss.
    static RECENT: std::cell::RefCell<Vec<(TraceInputs, Rc<Traced>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
thread_local! {
    /// Tests: answers given from [`RECENT`] (each checked against a fresh trace).
    static HITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many traces [`RECENT`] keeps: both sides, and a state or two before.
const RECENT_TRACES: usize = 4;

impl<'a> Supply<'a> {
    /// Trace the general supply of `side` now (GE-7.2, 7.3, 7.11).
    pub fn of(state: &'a State, side: SideId) -> Supply<'a> {
        let b = &state.board;
        let n = b.len();
        let ids = b.hex_ids();
        // Per dense hex, in one pass over the units: an enemy unit is there ([`enemy_mask`]), a
        // friendly one, and `State::occupant`, the side of the first unit there (instead of a
        // pass per town asked about).
        let mut enemy = vec![false; n];
        let mut occupied_by_friend = vec![false; n];
        let mut occupant: Vec<Option<SideId>> = vec![None; n];
        for u in &state.units {
            if let Some(i) = u.hex().and_then(|h| b.index(h)) {
                if u.side == side {
                    occupied_by_friend[i] = true;
                } else {
                    enemy[i] = true;
                }
                occupant[i].get_or_insert(u.side);
            }
        }
        enemy_zones(state, side, &mut enemy);
        // Control now (GE-4.7): the occupant, else the last entry; and held since the start
        // of the game turn (GE 7.3: "all'inizio del turno … durante quel turno di gioco"; the
        // digest's G.4 item 11 read the player turn). Towns alone are asked about, and the
        // control map is read once per town (this runs a few times per entry, issue 20).
        let mut town = vec![false; n];
        for i in b.town_indices() {
            let h = ids[i];
            let by_entry = state.control.get(&h).copied();
            town[i] = (occupied_by_friend[i] || by_entry == Some(side))
                && state.town_held_at_turn_start_occupied(h, side, occupant[i].or(by_entry));
        }
        let inputs = TraceInputs {
            board: state.board.clone(),
            side,
            campaign: state.campaign.is_some(),
            edges: edges(state, side),
            liege: side == SideId::German && campaign::liege_bottleneck(state),
            enemy,
            town,
        };
        let abbeville_cut = side == SideId::Allied && campaign::abbeville_bottleneck(state);
        let known = RECENT.with(|r| r.borrow().iter().find(|(k, _)| *k == inputs).map(|(_, t)| t.clone()));
        let traced = match known {
            Some(t) => {
                // In the library's tests every answer from the memo is checked against a fresh
                // trace, so a dependency missing from `TraceInputs` fails them.
                #[cfg(test)]
                {
                    let fresh = Self::trace(state, &inputs);
                    assert!(fresh.dist == t.dist && fresh.source == t.source, "a remembered supply trace differs from a fresh one");
                    HITS.with(|h| h.set(h.get() + 1));
                }
                t
            }
            None => {
                let t = Rc::new(Self::trace(state, &inputs));
                RECENT.with(|r| {
                    let mut r = r.borrow_mut();
                    if r.len() == RECENT_TRACES {
                        r.remove(0);
                    }
                    r.push((inputs, t.clone()));
                });
                t
            }
        };
        Supply { state, side, traced, abbeville_cut }
    }

    /// The trace itself, from its inputs alone (`state` is read only for its map and its
    /// campaign flag, which the inputs hold too).
    fn trace(state: &State, inputs: &TraceInputs) -> Traced {
        let b = &state.board;
        let n = b.len();
        let side = inputs.side;
        let enemy = &inputs.enemy;
        let ids = b.hex_ids();
        // GE-7.11: while Liège stands, no German line enters Belgium west of the Meuse.
        let blocked: Vec<bool> = if inputs.liege {
            ids.iter().map(|h| b.hex(*h).is_some_and(|i| i.country == Country::Belgium && !i.east_of_meuse)).collect()
        } else {
            vec![false; n]
        };
        // Sources: edge hexes free of enemy units, and friendly towns linked to them (7.3).
        let mut source = vec![false; n];
        // Hexes the search has reached or never enters (enemy units, blocked hexes): one test
        // per neighbour (issue 20).
        let mut seen: Vec<bool> = (0..n).map(|i| enemy[i] || blocked[i]).collect();
        let mut frontier: Vec<usize> = Vec::new();
        let edge_set = super::board::Board::edge_set(&inputs.edges);
        for i in 0..n {
            if !seen[i] && on_edges_ix(state, side, edge_set, i) {
                source[i] = true;
                seen[i] = true;
                frontier.push(i);
            }
        }
        while let Some(i) = frontier.pop() {
            if inputs.town[i] {
                source[i] = true;
            }
            for &j in b.neighbours_ix(i) {
                let j = j as usize;
                if !seen[j] {
                    seen[j] = true;
                    frontier.push(j);
                }
            }
        }
        let dist = lines(state, &source, enemy, &blocked);
        Traced { dist, source }
    }
    /// The Belgian army's general supply: Brussels 1525 alone, until the German has first
    /// controlled it (GE-7.10).
    pub fn belgian(state: &'a State) -> Supply<'a> {
        let b = &state.board;
        let n = b.len();
        let enemy = enemy_mask(state, SideId::Allied);
        let mut source = vec![false; n];
        let brussels = campaign::BRUSSELS;
        if let Some(i) = b.index(hx(brussels))
            && !enemy[i]
            && !state.campaign.as_ref().is_some_and(|c| c.brussels_lost)
            && state.control(hx(brussels)) != Some(SideId::German)
        {
            source[i] = true;
        }
        let dist = lines(state, &source, &enemy, &vec![false; n]);
        Supply { state, side: SideId::Allied, traced: Rc::new(Traced { dist, source }), abbeville_cut: false }
    }
    /// Whether a unit of the side at `h` can trace general supply.
    pub fn at(&self, h: HexId) -> bool {
        if self.abbeville_cut && h.row < 20 {
            return false;
        }
        self.state.board.index(h).is_some_and(|i| self.traced.dist[i] <= LINE)
    }
    /// Whether `h` is a supply source.
    pub fn is_source(&self, h: HexId) -> bool {
        self.state.board.index(h).is_some_and(|i| self.traced.source[i])
    }
    /// The side traced.
    pub fn side(&self) -> SideId {
        self.side
    }
}

/// What a unit's supply is asked for: the kinds of supply differ in what they are good for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// General (7.3) supply only: replacements (8.7), SM, the "fully supplied" of the rules.
    General,
    /// Attacking and everything but SM: general supply, or port supply for British and
    /// Belgian units (7.9).
    Attack,
    /// Defending: also fortress (7.7), Allied coastal (7.8) and British/Belgian port supply.
    Defence,
    /// Avoiding attrition (7.12): as for defence, and port supply for French units too (7.9).
    Attrition,
}

/// Every kind of supply of both sides, each traced once, when first asked for: most callers
/// ask about one side only (the phasing side's units at the start of movement, in attrition),
/// and a trace is the costly part of replaying an entry.
pub struct SupplyAll<'a> {
    state: &'a State,
    german: OnceCell<Supply<'a>>,
    allied: OnceCell<Supply<'a>>,
    belgian: OnceCell<Option<Supply<'a>>>,
    /// Per dense hex: within a line of a friendly port (7.9); empty outside campaigns.
    port: OnceCell<Vec<bool>>,
}

impl<'a> SupplyAll<'a> {
    /// Trace everything now.
    pub fn of(state: &'a State) -> SupplyAll<'a> {
        SupplyAll { state, german: OnceCell::new(), allied: OnceCell::new(), belgian: OnceCell::new(), port: OnceCell::new() }
    }
    /// The general supply of a side (for hexes, whatever the nationality).
    pub fn side(&self, side: SideId) -> &Supply<'a> {
        let cell = if side == SideId::German { &self.german } else { &self.allied };
        cell.get_or_init(|| Supply::of(self.state, side))
    }
    fn belgian(&self) -> Option<&Supply<'a>> {
        self.belgian.get_or_init(|| self.state.campaign.is_some().then(|| Supply::belgian(self.state))).as_ref()
    }
    fn port_at(&self, h: HexId) -> bool {
        let port = self.port.get_or_init(|| {
            let state = self.state;
            if state.campaign.is_none() {
                return Vec::new();
            }
            let enemy = enemy_mask(state, SideId::Allied);
            let b = &state.board;
            let source: Vec<bool> = b.hex_ids().iter().enumerate().map(|(i, h)| !enemy[i] && friendly_port(state, *h)).collect();
            lines(state, &source, &enemy, &vec![false; b.len()]).into_iter().map(|d| d <= LINE).collect()
        });
        self.state.board.index(h).is_some_and(|i| port.get(i).copied().unwrap_or(false))
    }
    /// Whether the unit is supplied for `use_` where it stands (false off the map).
    pub fn unit(&self, u: &Unit, use_: Use) -> bool {
        let Some(h) = u.hex() else { return false };
        let general = match (u.nation.as_str() == "BE").then(|| self.belgian()).flatten() {
            Some(b) => b.at(h),
            None => self.side(u.side).at(h),
        };
        if general || use_ == Use::General {
            return general;
        }
        let port = u.side == SideId::Allied && self.port_at(h);
        let port_all = port && matches!(u.nation.as_str(), "GB" | "BE");
        match use_ {
            Use::General => general,
            Use::Attack => port_all,
            Use::Defence | Use::Attrition => {
                let fortress = u.kind == Kind::Fortress
                    || self.state.units_at(h).any(|f| f.kind == Kind::Fortress && f.side == u.side && f.nation == u.nation);
                let coastal =
                    self.state.campaign.is_some() && u.side == SideId::Allied && self.state.board.hex(h).is_some_and(|i| i.coastal);
                fortress || coastal || port_all || (use_ == Use::Attrition && port)
            }
        }
    }
}

/// Whether `h` is a port the Allies may draw supply from: Allied-controlled, and for an inland
/// port every access hex Allied-controlled too (GE-7.9).
pub fn friendly_port(state: &State, h: HexId) -> bool {
    let Some(info) = state.board.hex(h) else { return false };
    info.port
        && state.control(h) == Some(SideId::Allied)
        && state.board.port_access.get(&h).is_none_or(|acc| acc.iter().all(|a| state.control(*a) != Some(SideId::German)))
}

/// Whether a unit of `side` at `from` can trace general supply (one question; see [`Supply`]).
pub fn supplied_at(state: &State, side: SideId, from: HexId) -> bool {
    Supply::of(state, side).at(from)
}

/// Whether a unit (by id) is supplied for `use_` where it stands.
pub fn unit_supplied(state: &State, id: &str, use_: Use) -> bool {
    state.unit(id).is_some_and(|u| SupplyAll::of(state).unit(u, use_))
}

/// Whether a unit (by id) has general supply where it stands.
pub fn supplied(state: &State, id: &str) -> bool {
    unit_supplied(state, id, Use::General)
}

/// Mark the phasing side's units out of supply at the start of the movement phase (GE-7.5):
/// a unit counts as supplied for the whole move if it could attack then (7.9 port supply
/// counts for British and Belgian units).
pub fn mark_start_of_movement(state: &mut State) {
    let side = state.player;
    let oos: Vec<bool> = {
        let sup = SupplyAll::of(state);
        state.units.iter().map(|u| u.side == side && u.hex().is_some() && !sup.unit(u, Use::Attack)).collect()
    };
    for (u, o) in state.units.iter_mut().zip(oos) {
        if u.side == side && u.hex().is_some() {
            u.oos_at_start = o;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::bot;

    /// Bot games of the Marne and the short campaign, where the rules ask for supply again on
    /// states a trace already answered: each such answer is checked against a fresh trace (in
    /// `Supply::of` under test), and there must be many.
    #[test]
    fn remembered_traces_are_checked_against_fresh_ones() {
        for (scenario, max) in [("glorys-end/marne", 600), ("glorys-end/short-campaign", 300)] {
            let s = crate::scenarios::find(scenario).expect("bundled");
            let seats = crate::scenarios::seats(s);
            let (mut game, mut players) = bot::start_game(s, &seats, 5, 4096, "2000-01-01T00:00:00Z").expect("starts");
            let mut clock = || "2000-01-01T00:00:00Z".to_string();
            let mut keep = |_: &crate::log::Entry, _: &crate::engine::game::Game| Ok(());
            let before = super::HITS.with(|h| h.get());
            match bot::play_out(&mut game, &mut players, 5, max, &mut clock, &mut keep) {
                Ok(()) | Err(bot::BotError::TooLong(_)) => {}
                Err(e) => panic!("{scenario}: {e}"),
            }
            let hits = super::HITS.with(|h| h.get()) - before;
            assert!(hits > 100, "{scenario}: only {hits} traces answered from the memo");
        }
    }
}
