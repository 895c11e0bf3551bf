//! Replacements (GE-8.6, 8.7; Marne 16.2, 16.3): SL income on each nationality's track, spent
//! at the start of the owner's player turn (phase A, GE-8.1) to restore reduced infantry, at
//! most 1 SL per unit per turn; the unit must be fully supplied and does nothing else that turn.
//! In the campaigns an eliminated infantry corps may be rebuilt at 1 SL, entering at its
//! nationality's 8.7 edge or port (`rebuild_hexes`); on the Marne nothing is rebuilt (16.3).

use super::map::{Country, Edge};
use super::stacking;
use super::state::{Kind, Phase, Place, SideId, Size, State, nation_side};
use super::supply;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

fn nation_name(n: &str) -> &str {
    match n {
        "FR" => "French",
        "DE" => "German",
        "GB" => "British",
        "BE" => "Belgian",
        other => other,
    }
}

/// Credit the phasing side's income for this turn (GE-8.6).
pub fn income(state: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    let (side, turn) = (state.player, state.turn);
    let due: Vec<(String, u32)> = state
        .replacement_grants
        .iter()
        .filter(|g| nation_side(&g.nation) == side && turn >= g.from && g.to.is_none_or(|t| turn <= t))
        .map(|g| (g.nation.clone(), g.per_turn))
        .collect();
    for (n, sl) in due {
        let track = state.replacements.entry(n.clone()).or_insert(0);
        *track += sl;
        ev.push(Event::rule("GE 8.6", format!("{} replacements +{sl} SL (track {})", nation_name(&n), *track)));
    }
    ev
}

/// Where an eliminated corps of `nation` may be rebuilt now (GE-8.7): German, any east-edge
/// hex; British, any Allied-controlled port; French, any south-edge hex in France; always
/// free of enemy units. Other nationalities rebuild nothing.
pub fn rebuild_hexes(state: &State, nation: &str) -> Vec<HexId> {
    let b = &state.board;
    let side = nation_side(nation);
    let free = |h: &HexId| state.occupant(*h) != Some(side.other());
    let ids = b.hex_ids().iter().copied();
    match nation {
        "DE" => ids.filter(|h| b.on_edge(*h, Edge::East)).filter(free).collect(),
        "GB" => ids.filter(|h| b.hex(*h).is_some_and(|i| i.port) && state.control(*h) == Some(SideId::Allied)).filter(free).collect(),
        "FR" => {
            ids.filter(|h| b.on_edge(*h, Edge::South) && b.hex(*h).is_some_and(|i| i.country == Country::France)).filter(free).collect()
        }
        _ => vec![],
    }
}

fn rebuild_where(nation: &str) -> &'static str {
    match nation {
        "DE" => "on the east edge",
        "GB" => "at an Allied-controlled port",
        "FR" => "on the south edge in France",
        _ => "nowhere (only German, British and French corps are rebuilt)",
    }
}

/// Rebuild an eliminated infantry corps at 1 SL in `hex` (GE-8.7).
fn step_rebuild(state: &mut State, side: SideId, id: &str, hex: Option<HexId>) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(u) = state.unit(id) else { return Err(vec![v("GE 8.7", super::unit_list::no_such_unit(state, side, id)).unit(id)]) };
    let mut errs = Vec::new();
    if u.kind != Kind::Infantry || u.size != Size::Corps {
        errs.push(v("GE 8.7", "only eliminated infantry corps are rebuilt").unit(id));
    }
    if !matches!(state.phase, Phase::Command | Phase::Movement) || state.units.iter().any(|u| u.side == side && u.moved) {
        errs.push(v("GE 8.1", "replacements are spent at the start of the player turn, before any unit moves").unit(id));
    }
    if state.replacements.get(&u.nation).copied().unwrap_or(0) == 0 {
        errs.push(v("GE 8.6", format!("the {} replacement track is empty", nation_name(&u.nation))).unit(id));
    }
    let nation = u.nation.clone();
    let allowed = rebuild_hexes(state, &nation);
    match hex {
        None => errs.push(
            v(
                "GE 8.7",
                format!("name the hex where the rebuilt corps enters ({}): replace: {{unit: {id}, hex: HEX}}", rebuild_where(&nation)),
            )
            .unit(id),
        ),
        Some(h) if !allowed.contains(&h) => errs.push(
            v(
                "GE 8.7",
                format!("a rebuilt {} corps enters {}, in a hex free of enemy units", nation_name(&nation), rebuild_where(&nation)),
            )
            .unit(id)
            .hex(h.to_string()),
        ),
        Some(_) => {}
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let Some(h) = hex else { return Err(errs) };
    // The corps must fit the hex at 1 SL (GE-6.1, 6.2, 6.3), checked as the end of a move.
    let mut probe = state.clone();
    if let Some(u) = probe.unit_mut(id) {
        u.place = Place::Hex(h);
        u.sl = 1;
    }
    let fit = stacking::can_end(&probe, h, side, &[id.to_string()]);
    if !fit.is_empty() {
        return Err(fit);
    }
    if let Some(t) = state.replacements.get_mut(&nation) {
        *t -= 1;
    }
    let left = state.replacements.get(&nation).copied().unwrap_or(0);
    let Some(u) = state.unit_mut(id) else { return Ok(vec![]) };
    u.place = Place::Hex(h);
    u.sl = 1;
    u.gained += 1;
    u.rebuilt += 1;
    u.replaced = true;
    u.move_state = super::state::MoveState::NotMoved;
    u.mp_spent = 0;
    u.oos_at_start = false;
    let label = u.label();
    let max = u.max_sl;
    state.entered(h, side, false);
    Ok(vec![Event::rule(
        "GE 8.7",
        format!("{label} is rebuilt at 1/{max} SL in {h} ({} track {left}); it does nothing else this turn", nation_name(&nation)),
    )])
}

/// Check a replacement and, if legal, give the SL (or, for an eliminated corps in a campaign
/// and with `hex`, rebuild it there).
pub fn step_replace(state: &mut State, side: SideId, id: &str, hex: Option<HexId>) -> Result<Vec<Event>, Vec<Violation>> {
    let Some(u) = state.unit(id) else { return Err(vec![v("GE 8.7", super::unit_list::no_such_unit(state, side, id)).unit(id)]) };
    if u.side != side {
        return Err(vec![v("GE 8.7", "you may replace only your own units").unit(id)]);
    }
    if u.place == Place::Eliminated && state.campaign.is_some() {
        return step_rebuild(state, side, id, hex);
    }
    let mut errs = Vec::new();
    if hex.is_some() {
        errs.push(
            v("GE 8.7", "a hex is named only to rebuild an eliminated corps; a unit on the map is restored where it stands").unit(id),
        );
    }
    let h = match u.place {
        Place::Hex(h) => Some(h),
        Place::Eliminated => {
            errs.push(v("GE 16.3", "no unit may be rebuilt from elimination in this scenario").unit(id));
            None
        }
        _ => {
            errs.push(v("GE 8.7", "only units on the map receive replacements").unit(id));
            None
        }
    };
    if !matches!(state.phase, Phase::Command | Phase::Movement) || state.units.iter().any(|u| u.side == side && u.moved) {
        errs.push(v("GE 8.1", "replacements are spent at the start of the player turn, before any unit moves").unit(id));
    }
    if u.kind != Kind::Infantry {
        errs.push(v("GE 8.7", "only infantry units receive replacements").unit(id));
    } else if u.naval {
        errs.push(v("GE 8.7", "naval infantry receives no replacements on the map").unit(id));
    }
    if u.replaced {
        errs.push(v("GE 8.7", "a unit gains at most 1 SL a turn").unit(id));
    } else if u.sl >= u.max_sl {
        errs.push(v("GE 8.7", format!("the unit is at full strength ({}/{} SL)", u.sl, u.max_sl)).unit(id));
    }
    if state.replacements.get(&u.nation).copied().unwrap_or(0) == 0 {
        errs.push(v("GE 8.6", format!("the {} replacement track is empty", nation_name(&u.nation))).unit(id));
    }
    if let Some(h) = h {
        if !supply::unit_supplied(state, id, supply::Use::General) {
            errs.push(v("GE 8.7", "the unit is out of supply; only fully supplied units receive replacements").unit(id).hex(h.to_string()));
        }
        let in_france_west = state.board.hex(h).is_some_and(|i| i.country == Country::France && !i.east_of_meuse);
        if side == SideId::German && state.belgium_violated && state.turn < 10 && in_france_west {
            errs.push(
                v("GE 8.7", "Belgium was violated: German units in France west of the Meuse receive no replacements before turn 10")
                    .unit(id)
                    .hex(h.to_string()),
            );
        }
        // One more SL must still fit the hex (GE-6.1).
        let (sl, _) = state.stack(h, side, &[]);
        if sl + 1 > stacking::MAX_SL {
            errs.push(v("GE 6.1", format!("{} SL would be in {h}; at most {}", sl + 1, stacking::MAX_SL)).unit(id).hex(h.to_string()));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let nation = u.nation.clone();
    if let Some(t) = state.replacements.get_mut(&nation) {
        *t -= 1;
    }
    let left = state.replacements.get(&nation).copied().unwrap_or(0);
    let Some(u) = state.unit_mut(id) else { return Ok(vec![]) };
    u.sl += 1;
    u.gained += 1;
    u.replaced = true;
    Ok(vec![Event::rule(
        "GE 8.7",
        format!("{} receives 1 replacement SL ({}/{} SL; {} track {left})", u.label(), u.sl, u.max_sl, nation_name(&nation)),
    )])
}
