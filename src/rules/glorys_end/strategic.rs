//! Strategic movement (GE-11): rail moves of phase D, off-map rail moves through friendly
//! edges (11.4) and Allied naval moves (11.5; the Naval Brigade also from coastal hex to
//! coastal hex, `naval.rs`); and the German forced march of phase E
//! (GE-12.10), which shares the "what else may this unit do" bookkeeping.
//!
//! Phase D is played as a window at the start of phase E: `strategic` actions are accepted
//! after phases A–C and before the side's first operational move (GE-5.1 keeps the order:
//! once a unit has made an SM, replacements, reinforcements and entrenchment are over, since
//! they check that no unit of the side has moved). A unit that used SM is finished for the
//! player turn (GE-11.1, 12.2, 13.22): it is marked moved and done.
//!
//! The route is not written in the orders: SM spends no MP and changes no control on the way,
//! so every legal route gives the same result. The engine looks for one (a breadth-first
//! search, so replays are exact) and refuses the move when none exists.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::campaign;
use super::map::Country;
use super::naval;
use super::stacking;
use super::state::{Kind, MoveState, Place, SideId, State, Unit};
use super::supply::{self, SupplyAll, Use};
use super::unit_list::{self, ListRules};
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Rail capacity of each side per player turn, in SL (GE-11.1, table E.6).
pub const RAIL: u32 = 8;
/// Each Allied rail reduction (GE-11.3): Melun 3334 and Paris 3136.
pub const RAIL_CUT: u32 = 4;
/// Allied naval capacity per SM phase, in SL, counted apart from rail (GE-11.5).
pub const SEA: u32 = 4;
/// First turn of Allied naval movement (GE-11.5).
pub const SEA_FROM: u8 = 8;
/// Melun and the Paris hex whose loss or isolation cuts Allied rail capacity (GE-11.3).
pub const RAIL_CUT_HEXES: [u16; 2] = [3334, 3136];
/// German SM is barred in France west of the Meuse before this turn (GE-11.2, Belgium violated).
pub const GERMAN_WEST_FROM: u8 = 10;
/// Forced march turns (GE-12.10).
pub const FORCED_MARCH: std::ops::RangeInclusive<u8> = 2..=6;

/// How a unit moves strategically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// By rail (GE-11.1, 11.2, 11.4).
    #[default]
    Rail,
    /// By sea, Allied only, port to port (GE-11.5).
    Sea,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Rail => "rail",
            Mode::Sea => "sea",
        }
    }
}

/// A strategic move as written in the orders: `strategic: {units: [FR-9], to: 3136}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strategic {
    /// Units starting in one hex; they move together to `to`.
    pub units: Vec<String>,
    /// The destination town or city (a port for a naval move).
    #[schemars(with = "u32")]
    pub to: HexId,
    /// `rail` (default) or `sea` (GE-11.5).
    #[serde(default, skip_serializing_if = "is_rail")]
    pub by: Mode,
}

fn is_rail(m: &Mode) -> bool {
    *m == Mode::Rail
}

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// Whether `hex` blocks SM of `side`: an ungarrisoned enemy fortified zone (GE-14.3) or
/// enemy siege guns alone in the hex (14.7); see `fortified::blocks_sm`.
pub fn blocks_sm(state: &State, hex: HexId, side: SideId) -> bool {
    super::fortified::blocks_sm(state, hex, side)
}

/// Whether a unit of `side` is next to an enemy unit at `h` (across passable hexsides).
fn next_to_enemy(state: &State, h: HexId, side: SideId) -> bool {
    state.board.neighbours(h).iter().any(|&n| state.occupant(n) == Some(side.other()))
}

/// Per dense hex: holds or is next to a unit of the enemy of `side`.
fn enemy_zone(state: &State, side: SideId) -> Vec<bool> {
    let b = &state.board;
    let mut zone = vec![false; b.len()];
    for u in state.units.iter().filter(|u| u.side != side) {
        if let Some(i) = u.hex().and_then(|h| b.index(h)) {
            zone[i] = true;
            for &n in b.neighbours_ix(i) {
                zone[n as usize] = true;
            }
        }
    }
    zone
}

/// SL a unit takes of the SM capacity (GE-11.1): its SL, but nothing for a siege gun.
/// Reading: capacity is counted in SL and a gun has none (14.7; its nominal 1 SL never
/// counts, as in stacking, 6.1), so guns go by rail without using capacity.
pub fn capacity_sl(u: &Unit) -> u32 {
    if u.kind == Kind::SiegeGun { 0 } else { u.sl as u32 }
}

/// SL of `side` already moved by `mode` this player turn.
pub fn used(state: &State, side: SideId, mode: Mode) -> u32 {
    state.units.iter().filter(|u| u.side == side && u.strategic == Some(mode)).map(capacity_sl).sum()
}

/// The side's capacity for `mode` this player turn, with the reasons for any reduction
/// (GE-11.1, 11.3, 11.5). Reading of "isolate" (G.4 item 9): the hex cannot trace Allied
/// general supply (7.2, 7.3); both conditions are read when the SM is made, which is phase D,
/// before any unit of the turn has moved.
pub fn capacity(state: &State, side: SideId, mode: Mode) -> (u32, Vec<String>) {
    if mode == Mode::Sea {
        return if side == SideId::Allied { (SEA, vec![]) } else { (0, vec!["the German has no naval movement".into()]) };
    }
    let mut cap = RAIL;
    let mut why = Vec::new();
    if side == SideId::Allied {
        let sup = supply::Supply::of(state, SideId::Allied);
        for n in RAIL_CUT_HEXES {
            let h = campaign::hx(n);
            if !state.board.in_play(h) {
                continue;
            }
            let name = state.board.place(h).map_or_else(|| h.to_string(), |p| format!("{} {h}", p.name));
            if state.control(h) == Some(SideId::German) {
                why.push(format!("−{RAIL_CUT}: the German controls {name}"));
            } else if !sup.at(h) {
                why.push(format!("−{RAIL_CUT}: {name} is cut off from Allied supply"));
            } else {
                continue;
            }
            cap = cap.saturating_sub(RAIL_CUT);
        }
    }
    (cap, why)
}

/// Why a unit of `nation` (of `side`) may not be in hex `h` during an SM, if it may not
/// (GE-11.2 restrictions 2–5, with the British use of Belgian ports of 11.5). `french_east`:
/// the French unit started east of the Meuse while no German unit is in France west of it.
fn barred(state: &State, side: SideId, nation: &str, h: HexId, mode: Mode, french_east: bool) -> Option<(&'static str, String)> {
    let info = state.board.hex(h)?;
    if side == SideId::German
        && state.belgium_violated
        && state.turn < GERMAN_WEST_FROM
        && info.country == Country::France
        && !info.east_of_meuse
    {
        return Some(("GE 11.2", format!("German units may not use SM in France west of the Meuse before turn {GERMAN_WEST_FROM} ({h})")));
    }
    if french_east && nation == "FR" && !info.east_of_meuse {
        return Some((
            "GE 11.2",
            format!(
                "French units that start east of the Meuse may not SM west of it ({h}) until a German unit is in France west of the Meuse"
            ),
        ));
    }
    match nation {
        "BE" if info.country != Country::Belgium => {
            return Some(("GE 11.2", format!("Belgian units never use SM outside Belgium ({h})")));
        }
        "GB" if info.country == Country::Belgium && mode == Mode::Sea => {}
        "FR" | "GB" if info.country == Country::Belgium => {
            let more = if nation == "GB" { " (British units may only sail to Belgian ports, GE 11.5)" } else { "" };
            return Some(("GE 11.2", format!("British and French units never use SM in Belgium ({h}){more}")));
        }
        _ => {}
    }
    if matches!(nation, "FR" | "GB") && campaign::abbeville_bottleneck(state) && h.row < 20 {
        return Some(("GE 11.2", format!("while the German holds Abbeville 2038, no British or French SM north of row 20 ({h})")));
    }
    None
}

/// Whether the inland-port rule lets a naval move use port `h` now: no access hex
/// German-occupied (GE-11.5, reading of G.4 item 8).
fn port_open(state: &State, h: HexId) -> bool {
    state.board.hex(h).is_some_and(|i| i.port)
        && state.board.port_access.get(&h).is_none_or(|acc| acc.iter().all(|a| state.occupant(*a) != Some(SideId::German)))
}

/// Whether some German unit stands in France west of the Meuse (GE-11.2 restriction 3).
fn german_in_france_west(state: &State) -> bool {
    state.units.iter().any(|u| {
        u.side == SideId::German
            && u.mobile()
            && u.hex().and_then(|h| state.board.hex(h)).is_some_and(|i| i.country == Country::France && !i.east_of_meuse)
    })
}

/// A rail route from `from` to `to` for `units` (GE-11.2 restriction 1, 11.4): through
/// passable hexsides, never entering a hex with or next to an enemy unit, nor a hex the
/// national restrictions bar, nor one the move would overstack (6.1 holds at all times);
/// the friendly map edges are linked off the map. `Some(off_map)` if found.
fn route(state: &State, side: SideId, units: &[String], from: HexId, to: HexId, ok: &dyn Fn(HexId) -> bool) -> Option<bool> {
    let b = &state.board;
    let zone = enemy_zone(state, side);
    let open = |h: HexId| {
        b.index(h).is_some_and(|i| !zone[i])
            && !blocks_sm(state, h, side)
            && ok(h)
            // The destination's stacking is the end-of-move check's (6.1–6.3).
            && (h == to || stacking::can_pass(state, h, side, units).is_empty())
    };
    let exits: Vec<HexId> = b.hex_ids().iter().copied().filter(|&h| supply::on_supply_edge(state, side, h) && open(h)).collect();
    // Breadth-first in hex-id order; `off` marks hexes reached only through the edges.
    let mut seen: std::collections::BTreeMap<HexId, bool> = std::collections::BTreeMap::from([(from, false)]);
    let mut ring = vec![from];
    let mut edges_used = false;
    while !ring.is_empty() {
        let mut next = Vec::new();
        for h in ring {
            let off = seen[&h];
            if h == to {
                return Some(off);
            }
            for &n in b.neighbours(h) {
                if !seen.contains_key(&n) && open(n) {
                    seen.insert(n, off);
                    next.push(n);
                }
            }
            if !edges_used && exits.contains(&h) {
                edges_used = true;
                for &e in &exits {
                    if let std::collections::btree_map::Entry::Vacant(x) = seen.entry(e) {
                        x.insert(true);
                        next.push(e);
                    }
                }
            }
        }
        next.sort();
        ring = next;
    }
    None
}

/// Check a strategic move and, if legal, make it.
pub fn step(state: &mut State, side: SideId, sm: &Strategic) -> Result<Vec<Event>, Vec<Violation>> {
    use super::state::Phase;
    match state.phase {
        Phase::Command => {
            return Err(vec![v("GE 5.1", "phase C comes first (the command & control roll and its out-of-command stacks), then phase D")]);
        }
        Phase::Combat => return Err(vec![v("GE 5.1", "phase D (strategic movement) is over: it comes before operational movement")]),
        Phase::Movement => {}
    }
    if state.turn <= 1 {
        return Err(vec![v("GE 5.2", "no strategic movement on turn 1 (reading of G.4 item 2: the player aid and the turn track)")]);
    }
    if state.units.iter().any(|u| u.side == side && ((u.moved && u.strategic.is_none()) || u.attacked)) {
        return Err(vec![v("GE 5.1", "phase D is over: a unit has already made its operational move or attacked")]);
    }
    if sm.by == Mode::Sea {
        if side != SideId::Allied {
            return Err(vec![v("GE 11.5", "only the Allies move by sea")]);
        }
        if state.turn < SEA_FROM {
            return Err(vec![v("GE 11.5", format!("Allied naval movement begins on turn {SEA_FROM}"))]);
        }
    }
    if sm.units.is_empty() {
        return Err(vec![v("GE 11.2", "a strategic move needs at least one unit")]);
    }
    let mut errs = Vec::new();
    let mut start = None;
    let sup = SupplyAll::of(state);
    let rules = ListRules {
        twice: ("GE 11.2", "a unit is listed twice"),
        unknown: "GE 11.2",
        foreign: ("GE 11.2", "you may move only your own units"),
        off_map: ("GE 11.2", "the unit is not on the map"),
    };
    for (u, h) in unit_list::check(state, side, &sm.units, &rules, &unit_list::no_extra, &mut errs) {
        let id = &u.id;
        match start {
            None => start = Some(h),
            Some(s) if s != h => {
                errs.push(v("GE 11.2", format!("one strategic move takes units from one hex ({s} and {h}): give one per hex")).unit(id))
            }
            _ => {}
        }
        // GE 11.1: infantry and siege guns; not cavalry or fortresses.
        if !matches!(u.kind, Kind::Infantry | Kind::SiegeGun) {
            errs.push(v("GE 11.1", "only infantry and siege guns may use strategic movement (not cavalry or fortresses)").unit(id));
        }
        if let Some(m) = u.strategic {
            let rule = if m != sm.by { "GE 11.5" } else { "GE 11.1" };
            errs.push(v(rule, format!("the unit already moved by {} this player turn", m.name())).unit(id));
        }
        if u.replaced {
            errs.push(v("GE 8.7", "a unit that received replacements this turn does nothing else").unit(id));
        }
        if u.entrenching {
            errs.push(v("GE 9.2", "a unit that is entrenching does nothing else this turn").unit(id));
        }
        if u.ooc {
            errs.push(v("GE 10.2", "a unit out of command may not use strategic movement").unit(id));
        }
        if !sup.unit(u, Use::General) {
            errs.push(v("GE 7.5", "a unit out of supply may not use strategic movement (port supply does not count, 7.9)").unit(id));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let Some(from) = start else { return Err(vec![v("GE 11.2", "nothing to move")]) };
    let to = sm.to;
    let (fs, ts) = (from.to_string(), to.to_string());
    // GE 11.5: the Naval Brigade alone sails from coastal hex to coastal hex (reading: each
    // end is then a coastal hex or a port, town or not; the other 11.2 conditions hold).
    let brigade = sm.by == Mode::Sea && sm.units.iter().all(|id| state.unit(id).is_some_and(naval::is_naval_brigade));
    let coast_ok = |h: HexId| brigade && naval::coastal(state, h);
    // GE-11.2: the start hex.
    if !state.board.is_town(from) && !coast_ok(from) {
        errs.push(v("GE 11.2", format!("strategic movement starts in a town or city; {from} is neither")).hex(&fs));
    } else if state.control(from) != Some(side) || !state.town_held_at_start(from, side) {
        errs.push(v("GE 11.2", format!("{from} was not friendly-controlled at the start of the player turn")).hex(&fs));
    }
    if next_to_enemy(state, from, side) {
        errs.push(v("GE 11.2", format!("{from} is next to an enemy unit")).hex(&fs));
    }
    // GE-11.2: the destination.
    if to == from {
        errs.push(v("GE 11.2", "the destination is the start hex").hex(&ts));
    } else if !state.board.in_play(to) {
        errs.push(v("GE 11.2", format!("{to} is not a hex in play")).hex(&ts));
    } else {
        if !state.board.is_town(to) && !coast_ok(to) {
            errs.push(v("GE 11.2", format!("strategic movement ends in a town or city; {to} is neither")).hex(&ts));
        }
        if state.occupant(to) == Some(side.other()) {
            let rule = if sm.by == Mode::Sea { "GE 11.5" } else { "GE 11.2" };
            errs.push(v(rule, format!("{to} holds enemy units (no landing against the enemy)")).hex(&ts));
        } else if state.control(to) != Some(side) {
            errs.push(v("GE 11.2", format!("{to} is not friendly-controlled")).hex(&ts));
        }
        if next_to_enemy(state, to, side) {
            errs.push(v("GE 11.2", format!("{to} is next to an enemy unit")).hex(&ts));
        }
        if blocks_sm(state, to, side) {
            errs.push(v("GE 14.3", format!("{to} is blocked to strategic movement")).hex(&ts));
        }
    }
    if sm.by == Mode::Sea {
        for (h, hs, what) in [(from, &fs, "start"), (to, &ts, "destination")] {
            if coast_ok(h) {
                continue;
            }
            if !state.board.hex(h).is_some_and(|i| i.port) {
                let ends = if brigade { "a port or a coastal hex (the Naval Brigade)" } else { "a port" };
                errs.push(v("GE 11.5", format!("a naval move goes from port to port; the {what} {h} is not {ends}")).hex(hs));
            } else if !port_open(state, h) {
                errs.push(v("GE 11.5", format!("the inland port {h} is closed: a German unit stands on one of its access hexes")).hex(hs));
            }
        }
    }
    // GE-11.2 restrictions 2–5 on the start and end hexes, each with its own reason.
    let french_east = state.belgium_violated && state.board.hex(from).is_some_and(|i| i.east_of_meuse) && !german_in_france_west(state);
    let nations: Vec<String> = {
        let mut n: Vec<String> = sm.units.iter().filter_map(|id| state.unit(id)).map(|u| u.nation.clone()).collect();
        n.sort();
        n.dedup();
        n
    };
    let bar = |h: HexId| nations.iter().find_map(|n| barred(state, side, n, h, sm.by, french_east));
    for (h, hs) in [(from, &fs), (to, &ts)] {
        if let Some((rule, msg)) = bar(h) {
            errs.push(v(rule, msg).hex(hs));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    // The route (rail only: a naval move needs none).
    let off_map = match sm.by {
        Mode::Sea => false,
        Mode::Rail => match route(state, side, &sm.units, from, to, &|h| bar(h).is_none()) {
            Some(off) => off,
            None => {
                return Err(vec![
                    v(
                        "GE 11.2",
                        format!(
                            "no rail route from {from} to {to} avoids every hex with or next to an enemy unit (and the hexes the SM restrictions bar)"
                        ),
                    )
                    .hex(&ts),
                ]);
            }
        },
    };
    // Capacity (GE-11.1, 11.3, 11.5).
    let sl: u32 = sm.units.iter().filter_map(|id| state.unit(id)).map(capacity_sl).sum();
    let (cap, why) = capacity(state, side, sm.by);
    let before = used(state, side, sm.by);
    if before + sl > cap {
        let rule = match sm.by {
            Mode::Sea => "GE 11.5",
            Mode::Rail if !why.is_empty() => "GE 11.3",
            Mode::Rail => "GE 11.1",
        };
        let cut = if why.is_empty() { String::new() } else { format!(" ({})", why.join("; ")) };
        errs.push(v(rule, format!("{} capacity {cap} SL{cut}: {before} SL used, {sl} more would exceed it", sm.by.name())));
    }
    // The end of the move (GE-6.1–6.3, 7.13, 7.4).
    errs.extend(stacking::can_end(state, to, side, &sm.units));
    if side == SideId::German
        && let Err(e) = campaign::german_may_end_in(state, to)
    {
        errs.push(e);
    }
    if errs.is_empty() {
        let mut probe = state.clone();
        for id in &sm.units {
            if let Some(u) = probe.unit_mut(id) {
                u.place = Place::Hex(to);
            }
        }
        let sup = SupplyAll::of(&probe);
        for id in &sm.units {
            if probe.unit(id).is_some_and(|u| !sup.unit(u, Use::General)) {
                errs.push(v("GE 7.4", format!("strategic movement may not end out of supply ({to})")).unit(id).hex(&ts));
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for id in &sm.units {
        if let Some(u) = state.unit_mut(id) {
            u.place = Place::Hex(to);
            u.strategic = Some(sm.by);
            u.moved = true;
            u.move_state = MoveState::Done;
        }
    }
    state.entered(to, side, false);
    let via = if off_map { " via the map edge (GE 11.4)" } else { "" };
    let rule = if sm.by == Mode::Sea { "GE 11.5" } else { "GE 11.1" };
    Ok(vec![Event::rule(
        rule,
        format!(
            "{} ({sl} SL) move by {} {from} → {to}{via}; {} of {cap} SL used this player turn",
            sm.units.join(", "),
            sm.by.name(),
            before + sl
        ),
    )])
}

/// Whether unit `id` enters the map by strategic movement (GE 16.3: the Marne's
/// reinforcements, "entra con movimento strategico"): a waiting unit with no campaign entry
/// code in a game without campaign rules.
pub fn enters_by_sm(state: &State, id: &str) -> bool {
    state.campaign.is_none() && state.unit(id).is_some_and(|u| u.entry.is_none() && matches!(u.place, Place::Reinforcement(_)))
}

/// Why the reinforcement `id` of `side` may not enter by strategic movement at `to` now
/// (GE 16.3 with 11.1–11.4): phase D's window, a town or city destination that is
/// friendly-controlled, free of and not next to enemy units, reached by a rail route from the
/// side's supply edge (11.4: the edges are linked off the map) that avoids enemy units and
/// their neighbours, within the rail capacity left, and ending in supply (7.4) within the
/// stacking limits. Empty when it may.
pub fn entry_violations(state: &State, side: SideId, id: &str, to: HexId) -> Vec<Violation> {
    use super::state::Phase;
    let mut errs = Vec::new();
    let Some(u) = state.unit(id) else { return vec![v("GE 8.5", super::unit_list::no_such_unit(state, side, id)).unit(id)] };
    let ts = to.to_string();
    if state.phase == Phase::Command {
        errs.push(v("GE 5.1", "phase C comes first (the command & control roll and its out-of-command stacks), then phase D").unit(id));
    }
    if state.units.iter().any(|u| u.side == side && ((u.moved && u.strategic.is_none()) || u.attacked)) {
        errs.push(v("GE 5.1", "phase D is over: a unit has already made its operational move or attacked").unit(id));
    }
    if !state.board.in_play(to) {
        errs.push(v("GE 11.2", format!("{to} is not a hex in play")).hex(&ts));
        return errs;
    }
    if !state.board.is_town(to) {
        errs.push(
            v("GE 16.3", format!("the unit enters by strategic movement, which ends in a town or city; {to} is neither")).unit(id).hex(&ts),
        );
    }
    if state.occupant(to) == Some(side.other()) {
        errs.push(v("GE 11.2", format!("{to} holds enemy units")).hex(&ts));
    } else if state.control(to) != Some(side) {
        errs.push(v("GE 11.2", format!("{to} is not friendly-controlled")).hex(&ts));
    }
    if next_to_enemy(state, to, side) {
        errs.push(v("GE 11.2", format!("{to} is next to an enemy unit")).hex(&ts));
    }
    if blocks_sm(state, to, side) {
        errs.push(v("GE 14.3", format!("{to} is blocked to strategic movement")).hex(&ts));
    }
    let nation = u.nation.clone();
    let bar = |h: HexId| barred(state, side, &nation, h, Mode::Rail, false);
    if let Some((rule, msg)) = bar(to) {
        errs.push(v(rule, msg).hex(&ts));
    }
    if !errs.is_empty() {
        return errs;
    }
    let units = [id.to_string()];
    let zone = enemy_zone(state, side);
    let reached = state
        .board
        .hex_ids()
        .iter()
        .copied()
        .filter(|&h| {
            supply::on_supply_edge(state, side, h)
                && state.board.index(h).is_some_and(|i| !zone[i])
                && !blocks_sm(state, h, side)
                && bar(h).is_none()
                && (h == to || stacking::can_pass(state, h, side, &units).is_empty())
        })
        .any(|e| route(state, side, &units, e, to, &|h| bar(h).is_none()).is_some());
    if !reached {
        errs.push(
            v("GE 11.2", format!("no rail route from the supply edge to {to} avoids every hex with or next to an enemy unit"))
                .unit(id)
                .hex(&ts),
        );
    }
    let sl = capacity_sl(u);
    let (cap, why) = capacity(state, side, Mode::Rail);
    let before = used(state, side, Mode::Rail);
    if before + sl > cap {
        let rule = if why.is_empty() { "GE 11.1" } else { "GE 11.3" };
        let cut = if why.is_empty() { String::new() } else { format!(" ({})", why.join("; ")) };
        errs.push(v(rule, format!("rail capacity {cap} SL{cut}: {before} SL used, {sl} more would exceed it")).unit(id));
    }
    errs.extend(stacking::can_end(state, to, side, &units));
    if side == SideId::German
        && let Err(e) = campaign::german_may_end_in(state, to)
    {
        errs.push(e);
    }
    if errs.is_empty() {
        let mut probe = state.clone();
        if let Some(u) = probe.unit_mut(id) {
            u.place = Place::Hex(to);
        }
        let sup = SupplyAll::of(&probe);
        if probe.unit(id).is_some_and(|u| !sup.unit(u, Use::General)) {
            errs.push(v("GE 7.4", format!("strategic movement may not end out of supply ({to})")).unit(id).hex(&ts));
        }
    }
    errs
}

/// Bring reinforcement `id` in by strategic movement at `to` (checked by
/// [`entry_violations`]): it has used SM, so it does nothing else this player turn (11.1).
pub fn enter(state: &mut State, side: SideId, id: &str, to: HexId) -> Vec<Event> {
    let sl = state.unit(id).map_or(0, capacity_sl);
    if let Some(u) = state.unit_mut(id) {
        u.place = Place::Hex(to);
        u.strategic = Some(Mode::Rail);
        u.moved = true;
        u.move_state = MoveState::Done;
    }
    state.entered(to, side, false);
    let (cap, _) = capacity(state, side, Mode::Rail);
    vec![Event::rule(
        "GE 16.3",
        format!(
            "{id} ({sl} SL) enters by strategic movement at {to} via the map edge (GE 11.4); {} of {cap} SL of rail used this player turn",
            used(state, side, Mode::Rail)
        ),
    )]
}

/// German forced march (GE-12.10): on T2–T6 an infantry unit that starts its operational move
/// supplied, in command and west of the Meuse may add 1 MP; it may not march-assault this turn.
pub fn step_forced_march(state: &mut State, side: SideId, units: &[String]) -> Result<Vec<Event>, Vec<Violation>> {
    use super::state::Phase;
    if side != SideId::German {
        return Err(vec![v("GE 12.10", "only German units force-march")]);
    }
    if !FORCED_MARCH.contains(&state.turn) {
        return Err(vec![v("GE 12.10", "forced march is allowed on turns 2–6 only")]);
    }
    if state.phase != Phase::Movement {
        return Err(vec![v("GE 12.10", "forced march is chosen in the operational movement phase")]);
    }
    if units.is_empty() {
        return Err(vec![v("GE 12.10", "name the units that force-march")]);
    }
    let mut errs = Vec::new();
    for (i, id) in units.iter().enumerate() {
        let Some(u) = state.unit(id).filter(|u| u.side == side) else {
            errs.push(v("GE 12.10", format!("there is no German unit {id}")).unit(id));
            continue;
        };
        if units[..i].contains(id) || u.forced_march {
            errs.push(v("GE 12.10", "the unit already force-marches").unit(id));
            continue;
        }
        if u.kind != Kind::Infantry {
            errs.push(v("GE 12.10", "only infantry force-marches").unit(id));
        }
        match u.hex() {
            None => errs.push(v("GE 12.10", "the unit is not on the map").unit(id)),
            Some(h) if state.board.hex(h).is_some_and(|i| i.east_of_meuse) => {
                errs.push(v("GE 12.10", format!("the unit starts east of the Meuse ({h})")).unit(id).hex(h.to_string()))
            }
            _ => {}
        }
        if u.strategic.is_some() {
            errs.push(v("GE 12.2", "a unit that used strategic movement does nothing else this turn").unit(id));
        } else if u.move_state != MoveState::NotMoved || u.mp_spent > 0 || u.attacked {
            errs.push(v("GE 12.10", "forced march is chosen before the unit starts its move").unit(id));
        }
        if u.replaced || u.entrenching {
            errs.push(v("GE 12.2", "a unit that was replaced or is entrenching does not move").unit(id));
        }
        if u.ooc {
            errs.push(v("GE 10.2", "a unit out of command may not force-march").unit(id));
        }
        if u.oos_at_start {
            errs.push(v("GE 12.10", "the unit was out of supply at the start of the movement phase").unit(id));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    for id in units {
        if let Some(u) = state.unit_mut(id) {
            u.forced_march = true;
        }
    }
    Ok(vec![Event::rule("GE 12.10", format!("{} force-march: +1 MP, no march assault this turn", units.join(", ")))])
}

/// The phase D line of a player turn's opening events.
pub fn phase_d(state: &State) -> Event {
    let side = state.player;
    if state.turn <= 1 {
        return Event::rule("GE 5.2", "phase D: no strategic movement on turn 1 (G.4 item 2); phase E: operational movement");
    }
    let (cap, why) = capacity(state, side, Mode::Rail);
    let cut = if why.is_empty() { String::new() } else { format!(" ({})", why.join("; ")) };
    let sea = if side == SideId::Allied && state.turn >= SEA_FROM { format!(", sea {SEA} SL") } else { String::new() };
    Event::rule(
        "GE 5.2",
        format!(
            "phase D: strategic movement (strategic actions before any unit moves): rail {cap} SL{cut}{sea}; then phase E: operational movement"
        ),
    )
}
