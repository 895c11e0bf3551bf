//! The campaign layer (GE 3.2, 4, 7.10–7.13, 17): the bookkeeping the historical campaigns
//! keep beside the units, and the checks the turn code calls after every action.
//!
//! * VP (4.1, 4.2, 4.5, 4.6): the Allies start at −7; a side scores its VP hexes while it
//!   controls them, once it has gained them in play (reading of G.4 item 19: a hex it held from
//!   the start scores only after it changed hands at least once); Belgian divisions and corps
//!   cost 1 and 2 Allied VP when eliminated or the first time they leave Belgium; each of the
//!   first seven Allied attacks on a hex in Germany by 6 SL or more up to T5 gives +1.
//! * Sudden death (4.1): the Allies win at 20 VP in their victory check, the German at 30 in
//!   his.
//! * Paris endangered (4.3, 17.2): set for good the first time a supplied German unit stands
//!   inside the Paris in Danger perimeter (G.4 item 20: checked after every action; a unit that
//!   started its move supplied counts as supplied).
//! * Brussels (7.10): lost for the Belgians for good once the German controls it.
//! * Abbeville (7.13) and the Channel ports (17.2): German units may not end a move there
//!   until the rules' condition holds, or for good in a hex they attacked and advanced into.
//! * The Short Campaign's victory (17.3): the German wins at once on taking a Paris hex, the
//!   Allies on having captured two cities in Germany (reading: not necessarily held together);
//!   after T10 the German wins if Paris was endangered and his VP lead, with 5 per supplied
//!   German infantry corps next to a Paris hex, is at least 25; otherwise the Allies win.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::map::{Country, Edge, PlaceKind};
use super::orders::ActionKind;
use super::state::{Kind, Place, SideId, Size, State};
use super::supply::{self, SupplyAll, Use};
use crate::engine::{Event, Outcome, Violation};
use crate::geo::hex::HexId;

/// Brussels, the Belgian supply source (GE 7.10).
pub const BRUSSELS: u16 = 1525;
/// Liège, the fortress of the German bottleneck (GE 7.11).
pub const LIEGE: u16 = 1621;
/// Abbeville (GE 7.11, 7.13).
pub const ABBEVILLE: u16 = 2038;
/// Antwerp, Ostend, Dunkirk, Calais, Boulogne: the ports the German must hold to end a move
/// in Abbeville (GE 7.13).
pub const ABBEVILLE_PORTS: [u16; 5] = [1226, 1032, 1335, 1337, 1439];
/// Boulogne, Calais, Dunkirk: barred to German moves in the Short Campaign (GE 17.2).
pub const CHANNEL_PORTS: [u16; 3] = [1439, 1337, 1335];
/// Antwerp and Ostend, which the German must hold to enter them (GE 17.2).
pub const CHANNEL_KEYS: [u16; 2] = [1226, 1032];
/// Allied sudden-death threshold (GE 4.1).
pub const ALLIED_THRESHOLD: i32 = 20;
/// German sudden-death threshold (GE 4.1).
pub const GERMAN_THRESHOLD: i32 = 30;
/// Allied Eastern Front VP at the end of the full campaign when the German made no T5
/// withdrawal (GE 4.4).
pub const EASTERN_FRONT_NO_WITHDRAWAL: i32 = 20;
/// The German lead that wins the Short Campaign at the end of T10 (GE 17.3).
pub const SHORT_MARGIN: i32 = 25;
/// Last turn of the Plan XVII battles and their number (GE 4.6).
pub const PLAN_XVII_LAST_TURN: u8 = 5;
pub const PLAN_XVII_MAX: u32 = 7;
pub const PLAN_XVII_MIN_SL: u32 = 6;

/// A hex id from its printed number.
pub fn hx(n: u16) -> HexId {
    HexId::new((n / 100) as u8, (n % 100) as u8)
}

/// The campaign's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    /// The Short Historical Campaign (GE 17).
    #[serde(default)]
    pub short: bool,
    /// Supply edges per side (GE 7.3).
    pub supply_edges: BTreeMap<SideId, Vec<Edge>>,
    /// VP outside the hex count: the Allied −7 at start (4.1), Belgian losses (4.5), Plan XVII
    /// (4.6).
    pub event_vp: BTreeMap<SideId, i32>,
    /// Plan XVII battles counted so far (4.6).
    #[serde(default)]
    pub plan_xvii: u32,
    /// Belgian units already counted as lost (4.5).
    #[serde(default)]
    pub belgians_counted: Vec<String>,
    /// VP hexes that have changed hands at least once (4.2, G.4 item 19).
    #[serde(default)]
    pub contested: BTreeSet<HexId>,
    /// Conditional VP hexes (4.3): they score only at the end of the full campaign.
    #[serde(default)]
    pub conditional: BTreeSet<HexId>,
    /// Paris has been endangered (4.3, 17.2).
    #[serde(default)]
    pub paris_endangered: bool,
    /// The German T5 Eastern Front withdrawal (8.8): `Some(true)` made, `Some(false)`
    /// declined, `None` not yet decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawal: Option<bool>,
    /// Brussels has been German-controlled (7.10).
    #[serde(default)]
    pub brussels_lost: bool,
    /// Hexes barred to German moves that the German opened by attack and advance (7.13, 17.2).
    #[serde(default)]
    pub opened: BTreeSet<HexId>,
    /// Cities in Germany the Allies have captured (17.3).
    #[serde(default)]
    pub german_cities_taken: BTreeSet<HexId>,
    /// The free deployment's German plan invaded the Netherlands (3.6, `neutrality.rs`): the
    /// Liège bottleneck (7.11) lapses.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub netherlands_invaded: bool,
    /// Britain is not at war at the start (3.7: the free deployment left Belgium neutral): no
    /// British unit enters the map until the turn after [`Campaign::german_twenty`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub britain_waits: bool,
    /// The turn in which the German total first reached 20 VP while Britain waited (3.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub german_twenty: Option<u8>,
}

/// German VP that bring Britain into the war when Belgium stayed neutral (GE 3.7).
pub const BRITISH_ENTRY_VP: i32 = 20;

/// GE 3.7: whether British units may enter the map now. Britain joins in the Allied player
/// turn after the German first reached 20 VP; a turn starts with the Allied player turn, so
/// that is every player turn of a later turn than the one in which he reached them.
pub fn britain_at_war(state: &State) -> bool {
    match camp(state) {
        Some(c) if c.britain_waits => c.german_twenty.is_some_and(|t| state.turn > t),
        _ => true,
    }
}

fn camp(state: &State) -> Option<&Campaign> {
    state.campaign.as_deref()
}

/// GE 7.11: the Liège fortress still stands.
pub fn liege_bottleneck(state: &State) -> bool {
    // 3.6 (the digest's reading): a Dutch invasion lifts the bottleneck for the whole game.
    camp(state).is_some_and(|c| !c.netherlands_invaded)
        && state.units_at(hx(LIEGE)).any(|u| u.kind == Kind::Fortress && u.side == SideId::Allied)
}

/// GE 7.11: the German controls Abbeville.
pub fn abbeville_bottleneck(state: &State) -> bool {
    camp(state).is_some() && state.control(hx(ABBEVILLE)) == Some(SideId::German)
}

/// The cities in Germany (GE 17.3).
pub fn german_cities(state: &State) -> Vec<HexId> {
    state
        .board
        .hex_ids()
        .iter()
        .copied()
        .filter(|h| {
            state
                .board
                .hex(*h)
                .is_some_and(|i| i.country == Country::Germany && i.place.as_ref().is_some_and(|p| p.kind == PlaceKind::City))
        })
        .collect()
}

/// VP a side holds now from its VP hexes (4.2): conditional hexes only when `final_check`.
pub fn hex_vp(state: &State, side: SideId, final_check: bool) -> i32 {
    let Some(c) = camp(state) else { return 0 };
    state
        .town_vp
        .iter()
        .filter(|(h, s, _)| *s == side && state.control(*h) == Some(*s))
        .filter(|(h, s, _)| {
            if c.conditional.contains(h) {
                // 4.3: on control alone at the final check; the German ones need Paris endangered.
                final_check && (*s != SideId::German || c.paris_endangered)
            } else {
                state.initial_control.get(h) != Some(s) || c.contested.contains(h)
            }
        })
        .map(|(_, _, v)| *v)
        .sum()
}

/// The campaign's own sources of points (4.1): each side's event points and each VP hex that
/// counts now (the elimination ledger is listed by `vp::sources`).
pub fn sources(state: &State) -> Vec<(SideId, String, i32)> {
    let Some(c) = camp(state) else { return vec![] };
    let mut out = Vec::new();
    for (side, pts) in &c.event_vp {
        out.push((*side, "events".to_string(), *pts));
    }
    for (h, s, v) in &state.town_vp {
        if state.control(*h) != Some(*s) {
            continue;
        }
        let counts = if c.conditional.contains(h) { false } else { state.initial_control.get(h) != Some(s) || c.contested.contains(h) };
        if counts {
            out.push((*s, format!("holds {h}"), *v));
        }
    }
    out
}

/// A side's VP total now (4.1): events, VP hexes and the elimination ledger.
pub fn total(state: &State, side: SideId, final_check: bool) -> i32 {
    let ev = camp(state).and_then(|c| c.event_vp.get(&side).copied()).unwrap_or(0);
    ev + hex_vp(state, side, final_check) + state.vp.get(&side).copied().unwrap_or(0)
}

fn add_vp(state: &mut State, side: SideId, pts: i32) {
    if let Some(c) = state.campaign.as_deref_mut() {
        *c.event_vp.entry(side).or_insert(0) += pts;
    }
}

/// GE 7.13, 17.2: may the German end a move in `h` now? `Err` names the rule.
pub fn german_may_end_in(state: &State, h: HexId) -> Result<(), Violation> {
    let Some(c) = camp(state) else { return Ok(()) };
    if c.opened.contains(&h) {
        return Ok(());
    }
    // Reading of 3.6: a port in a country left neutral is out of play and drops out of the list.
    if h == hx(ABBEVILLE)
        && !ABBEVILLE_PORTS.iter().filter(|p| state.board.in_play(hx(**p))).all(|p| state.control(hx(*p)) == Some(SideId::German))
    {
        return Err(Violation::new(
            "GE 7.13",
            "German units may not end a move in Abbeville 2038 until they hold Antwerp, Ostend, Dunkirk, Calais and Boulogne (or attack it and advance in)",
        )
        .hex(h.to_string()));
    }
    if c.short
        && CHANNEL_PORTS.iter().any(|p| hx(*p) == h)
        && !(c.paris_endangered && CHANNEL_KEYS.iter().all(|p| state.control(hx(*p)) == Some(SideId::German)))
    {
        return Err(Violation::new(
            "GE 17.2",
            "German units may not end a move in Boulogne, Calais or Dunkirk until Paris has been endangered and they hold Antwerp and Ostend (or attack it and advance in)",
        )
        .hex(h.to_string()));
    }
    Ok(())
}

/// Checks made before an action is applied (the German end-of-move bans of 7.13 and 17.2).
pub fn before_step(state: &State, side: SideId, action: &ActionKind) -> Result<(), Vec<Violation>> {
    if camp(state).is_none() || side != SideId::German {
        return Ok(());
    }
    if let ActionKind::Move(m) = action
        && let Some(end) = m.path.last()
    {
        german_may_end_in(state, *end).map_err(|v| vec![v])?;
    }
    Ok(())
}

/// GE 4.6: whether an attack by `attackers` on `target` now would be a Plan XVII battle.
pub fn plan_xvii_qualifies(state: &State, side: SideId, target: HexId, attackers: &[String]) -> bool {
    let Some(c) = camp(state) else { return false };
    if side != SideId::Allied || state.turn > PLAN_XVII_LAST_TURN || c.plan_xvii >= PLAN_XVII_MAX {
        return false;
    }
    if state.board.hex(target).is_none_or(|i| i.country != Country::Germany) {
        return false;
    }
    let sl: u32 = attackers.iter().filter_map(|id| state.unit(id)).map(|u| u.sl as u32).sum();
    sl >= PLAN_XVII_MIN_SL
}

/// GE 4.6: count a declared Plan XVII battle on `target` (+1 Allied VP).
pub fn plan_xvii(state: &mut State, target: HexId) -> Vec<Event> {
    let Some(n) = camp(state).map(|c| c.plan_xvii + 1) else { return vec![] };
    if let Some(c) = state.campaign.as_deref_mut() {
        c.plan_xvii = n;
    }
    add_vp(state, SideId::Allied, 1);
    vec![Event::rule(
        "GE 4.6",
        format!("Plan XVII battle {n} of {PLAN_XVII_MAX} (on {target} in Germany, at least {PLAN_XVII_MIN_SL} SL): Allied +1 VP"),
    )]
}

/// Bookkeeping after every action and every resolved roll: Belgian losses, Paris endangered,
/// Brussels, contested VP hexes, captured German cities, hexes opened by attack and advance,
/// and the instant wins of the Short Campaign.
pub fn after_step(state: &mut State, advanced_into: Option<HexId>) -> Vec<Event> {
    let Some(c) = camp(state).cloned() else { return vec![] };
    let mut c = c;
    let mut ev = Vec::new();
    // 7.13, 17.2: an attack and advance opens the hex for good.
    if let Some(h) = advanced_into
        && state.occupant(h) == Some(SideId::German)
        && (h == hx(ABBEVILLE) || CHANNEL_PORTS.iter().any(|p| hx(*p) == h))
        && c.opened.insert(h)
    {
        ev.push(Event::rule("GE 7.13", format!("the German attacked and advanced into {h}: he may end moves there from now on")));
    }
    // 4.5: Belgian divisions and corps lost or leaving Belgium.
    let mut belgian_loss = 0;
    for u in state.units.iter().filter(|u| u.nation == "BE" && u.kind != Kind::Fortress) {
        if c.belgians_counted.contains(&u.id) {
            continue;
        }
        let gone = match u.place {
            Place::Eliminated => Some("eliminated"),
            Place::Hex(h) if state.board.hex(h).is_some_and(|i| i.country != Country::Belgium) => Some("has left Belgium"),
            _ => None,
        };
        let cost = match u.size {
            Size::Corps => 2,
            Size::Division => 1,
            _ => 0,
        };
        if let Some(why) = gone
            && cost > 0
        {
            c.belgians_counted.push(u.id.clone());
            belgian_loss += cost;
            ev.push(Event::rule("GE 4.5", format!("Belgian {} {why}: Allied −{cost} VP", u.label())));
        }
    }
    *c.event_vp.entry(SideId::Allied).or_insert(0) -= belgian_loss;
    // 7.10: Brussels lost for good.
    if !c.brussels_lost && state.control(hx(BRUSSELS)) == Some(SideId::German) {
        c.brussels_lost = true;
        ev.push(Event::rule("GE 7.10", "the German controls Brussels: it is never again a Belgian supply source"));
    }
    // 4.2 (G.4 item 19): VP hexes that changed hands.
    for (h, _, _) in &state.town_vp {
        if state.control(*h) != state.initial_control.get(h).copied() && c.contested.insert(*h) {
            ev.push(Event::rule("GE 4.2", format!("VP hex {h} changes hands")));
        }
    }
    // 4.3, G.4 item 20: Paris endangered.
    if !c.paris_endangered {
        let sup = SupplyAll::of(state);
        let inside = state.units.iter().find(|u| {
            u.side == SideId::German
                && u.mobile()
                && u.hex().is_some_and(|h| state.board.in_paris_danger_zone(h))
                && (sup.unit(u, Use::General) || (u.moved && !u.oos_at_start))
        });
        if let Some(u) = inside {
            c.paris_endangered = true;
            ev.push(Event::rule("GE 4.3", format!("Paris is endangered: supplied {} inside the perimeter", u.label())));
        }
    }
    // 17.3: cities in Germany captured by the Allies.
    for h in german_cities(state) {
        if state.control(h) == Some(SideId::Allied) && c.german_cities_taken.insert(h) {
            ev.push(Event::rule("GE 17.3", format!("the Allies capture the German city at {h}")));
        }
    }
    // 3.7: the German first reaches 20 VP while Britain waits.
    if c.britain_waits && c.german_twenty.is_none() {
        state.campaign = Some(Box::new(c.clone()));
        let de = total(state, SideId::German, false);
        if de >= BRITISH_ENTRY_VP {
            c.german_twenty = Some(state.turn);
            ev.push(Event::rule(
                "GE 3.7",
                format!(
                    "the German has {de} VP (at least {BRITISH_ENTRY_VP}): Britain enters the war; British units may enter from the Allied player turn of turn {}",
                    state.turn.saturating_add(1)
                ),
            ));
        }
    }
    state.campaign = Some(Box::new(c.clone()));
    // 17.3: instant wins.
    if c.short && state.outcome.is_none() {
        let paris: Vec<HexId> = state.board.paris_hexes().into_iter().filter(|h| state.control(*h) == Some(SideId::German)).collect();
        if let Some(h) = paris.first() {
            let o = Outcome::Win { side: "german".into(), reason: format!("the German controls Paris hex {h} (GE 17.3)") };
            ev.push(Event::rule("GE 17.3", crate::engine::game::describe_outcome(&o)));
            state.outcome = Some(o);
        } else if c.german_cities_taken.len() >= 2 {
            let list: Vec<String> = c.german_cities_taken.iter().map(|h| h.to_string()).collect();
            let o = Outcome::Win {
                side: "allied".into(),
                reason: format!("the Allies have captured two cities in Germany ({}) (GE 17.3)", list.join(", ")),
            };
            ev.push(Event::rule("GE 17.3", crate::engine::game::describe_outcome(&o)));
            state.outcome = Some(o);
        }
    }
    ev
}

/// Phase H for the phasing side (GE 4.1): sudden death before the last turn.
pub fn victory_check(state: &State) -> Option<Outcome> {
    let c = camp(state)?;
    // The full campaign's last turn has the joint check instead (4.1).
    if !c.short && state.turn >= state.last_turn {
        return None;
    }
    let side = state.player;
    let vp = total(state, side, false);
    let (threshold, name) = match side {
        SideId::Allied => (ALLIED_THRESHOLD, "allied"),
        SideId::German => (GERMAN_THRESHOLD, "german"),
    };
    (vp >= threshold).then(|| Outcome::Win {
        side: name.into(),
        reason: format!("{} {vp} VP at the {} victory check: at least {threshold} (GE 4.1)", side.title(), side.title()),
    })
}

/// German infantry corps, supplied, next to a Paris hex (GE 17.3: +5 VP each at the end).
pub fn corps_at_paris(state: &State) -> Vec<String> {
    let sup = supply::Supply::of(state, SideId::German);
    let paris = state.board.paris_hexes();
    state
        .units
        .iter()
        .filter(|u| u.side == SideId::German && u.kind == Kind::Infantry && u.size == Size::Corps)
        .filter(|u| u.hex().is_some_and(|h| sup.at(h) && paris.iter().any(|p| p.is_adjacent(h))))
        .map(|u| u.id.clone())
        .collect()
}

/// The end of a campaign scenario: the Short Campaign's T10 check (17.3), or the full
/// campaign's joint T30 check (4.1).
pub fn final_outcome(state: &State) -> Outcome {
    let short = camp(state).is_some_and(|c| c.short);
    if short {
        let corps = corps_at_paris(state);
        let de = total(state, SideId::German, false) + 5 * corps.len() as i32;
        let al = total(state, SideId::Allied, false);
        let endangered = camp(state).is_some_and(|c| c.paris_endangered);
        let reason = format!(
            "end of turn {}: German {de} VP (incl. +5 for each of {} corps next to Paris), Allied {al} VP, Paris {}endangered (GE 17.3)",
            state.last_turn,
            corps.len(),
            if endangered { "" } else { "never " }
        );
        return if endangered && de - al >= SHORT_MARGIN {
            Outcome::Win { side: "german".into(), reason }
        } else {
            Outcome::Win { side: "allied".into(), reason }
        };
    }
    let de = total(state, SideId::German, true);
    // GE 4.4: the Allies get 15 for the Eastern Front, 20 if the German declined the T5
    // withdrawal (8.8, `withdrawal.rs`).
    let east = super::withdrawal::eastern_front_vp(state);
    let al = total(state, SideId::Allied, true) + east;
    let (md, ma) = (de - GERMAN_THRESHOLD, al - ALLIED_THRESHOLD);
    let reason = format!(
        "end of turn {}: German {de} VP, Allied {al} VP (with {east} for the Eastern Front, GE 4.4); thresholds 30 and 20 (GE 4.1)",
        state.last_turn
    );
    match (md >= 0, ma >= 0) {
        (false, false) => Outcome::Draw { reason },
        (true, false) => Outcome::Win { side: "german".into(), reason },
        (false, true) => Outcome::Win { side: "allied".into(), reason },
        (true, true) if md > ma => Outcome::Win { side: "german".into(), reason },
        (true, true) if ma > md => Outcome::Win { side: "allied".into(), reason },
        _ => Outcome::Draw { reason },
    }
}

#[cfg(test)]
mod tests;
