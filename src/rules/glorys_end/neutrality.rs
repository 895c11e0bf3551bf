//! Neutrality in the free deployment (GE 3.6) and Britain's conditional entry (GE 3.7).
//!
//! The German plan decides, and everyone learns it when the plan is opened (`secret.rs` calls
//! [`apply`] before placing the German units):
//!
//! * **Belgium, Luxembourg (3.6).** A country where the plan puts no German unit stays neutral
//!   for the whole game: its hexes leave play (`Map::closed`, so the board drops them and no
//!   move, retreat, advance, strategic move, reinforcement or supply line of either side can
//!   enter or cross them), they are nobody's to control and their VP never score. Each country
//!   is decided on its own. A neutral Belgium keeps its army at home: the Belgian units and
//!   forts are taken out of play (reading of GE 3.1, "Belgian units if Belgium is invaded"),
//!   and the rules that hang on a violated Belgium (8.7, 11.2) do not apply.
//! * **The Netherlands (3.6).** A German unit in a Dutch hex invades it: Dutch hexes come into
//!   play, the Netherlands joins the Allies (it has no army on the map, so that means control:
//!   every Dutch hex without a German unit is Allied, as 4.7 gives Belgian ones), the Liège
//!   bottleneck (7.11) lapses, the German reinforcements of turns 5 and 14 are taken out of
//!   play and the German loses 15 VP (the Allies gain nothing).
//! * **Britain (3.7).** If Belgium stays neutral Britain is not at war: the British units the
//!   Allied plan placed (3.7: the plan always places them) go off the map as reinforcements
//!   entering at an Allied-controlled port (8.3), and no British unit may enter before the
//!   Allied player turn after the German first reaches 20 VP (`campaign::britain_at_war`).
//!   British replacement SL still accrue on the track meanwhile.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::board::Board;
use super::map::Country;
use super::scenario::Entry;
use super::secret::Plan;
use super::state::{Place, SideId, State};
use crate::engine::Event;
use crate::geo::hex::HexId;

/// German VP lost for invading the Netherlands (GE 3.6).
pub const DUTCH_PENALTY: i32 = 15;
/// The turns whose German reinforcements never arrive after a Dutch invasion (GE 3.6).
pub const LOST_REINFORCEMENT_TURNS: [u8; 2] = [5, 14];

/// What a German plan decides (GE 3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// No German unit in Belgium.
    pub belgium_neutral: bool,
    /// No German unit in Luxembourg.
    pub luxembourg_neutral: bool,
    /// A German unit in the Netherlands.
    pub netherlands_invaded: bool,
}

/// The choice a German plan makes.
pub fn of_plan(state: &State, plan: &Plan) -> Choice {
    let map = state.board.map();
    let any = |c: Country| plan.units.values().any(|h| map.hex(*h).is_some_and(|i| i.country == c));
    Choice {
        belgium_neutral: !any(Country::Belgium),
        luxembourg_neutral: !any(Country::Luxembourg),
        netherlands_invaded: any(Country::Netherlands),
    }
}

/// The countries out of play under a choice.
fn closed(choice: Choice) -> BTreeSet<Country> {
    let mut set = BTreeSet::from([Country::Switzerland]);
    if !choice.netherlands_invaded {
        set.insert(Country::Netherlands);
    }
    if choice.belgium_neutral {
        set.insert(Country::Belgium);
    }
    if choice.luxembourg_neutral {
        set.insert(Country::Luxembourg);
    }
    set
}

/// Apply the opened German plan's choice to the game (before its units are placed).
pub fn apply(state: &mut State, plan: &Plan) -> Vec<Event> {
    let choice = of_plan(state, plan);
    let mut ev = Vec::new();
    let set = closed(choice);
    // The default choice closes what `Country::out_of_play` closes: the board stays as it is.
    if choice != Choice::default() {
        let mut m = state.board.map().clone();
        m.closed = Some(set.clone());
        state.board = Arc::new(Board::new(m));
    }
    let country = |state: &State, h: HexId| state.board.map().hex(h).map(|i| i.country);

    // Neutral hexes are nobody's; markers on them go.
    let board = Arc::clone(&state.board);
    let on_neutral_soil = |h: &HexId| board.map().hex(*h).is_some_and(|i| i.country != Country::Switzerland && set.contains(&i.country));
    let gone: Vec<HexId> = state.control.keys().copied().filter(|h| on_neutral_soil(h)).collect();
    for h in &gone {
        state.control.remove(h);
        Arc::make_mut(&mut state.initial_control).remove(h);
    }
    state.trenches.retain(|h, _| !on_neutral_soil(h));
    state.fortified.retain(|h, _| !on_neutral_soil(h));

    for (c, name, neutral_now) in
        [(Country::Belgium, "Belgium", choice.belgium_neutral), (Country::Luxembourg, "Luxembourg", choice.luxembourg_neutral)]
    {
        if !neutral_now {
            continue;
        }
        // The country's own army stays home (GE 3.1: Belgian units are Allied only if Belgium
        // is invaded); any other unit on its soil could only be a scenario's fixed unit.
        let nation = if c == Country::Belgium { Some("BE") } else { None };
        let mut out = Vec::new();
        for u in state.units.iter_mut() {
            let home = nation.is_some_and(|n| u.nation == n);
            let inside = u.hex().is_some_and(|h| state.board.map().hex(h).is_some_and(|i| i.country == c));
            if home || inside {
                u.place = Place::OffMap;
                out.push(u.id.clone());
            }
        }
        let army = if out.is_empty() { String::new() } else { format!("; out of play: {}", out.join(", ")) };
        ev.push(Event::rule(
            "GE 3.6",
            format!("no German unit in {name}: {name} stays neutral for the whole game, its hexes are out of play{army}"),
        ));
    }
    if choice.belgium_neutral {
        // GE 8.7, 11.2: the restrictions that hang on a violated Belgium do not apply.
        state.belgium_violated = false;
    }

    if choice.netherlands_invaded {
        let dutch: Vec<HexId> =
            state.board.hex_ids().iter().copied().filter(|h| country(state, *h) == Some(Country::Netherlands)).collect();
        for h in dutch {
            // 4.7: Allied unless a German unit starts there (`secret::place` sets those).
            state.control.insert(h, SideId::Allied);
            Arc::make_mut(&mut state.initial_control).insert(h, SideId::Allied);
        }
        let mut lost = Vec::new();
        for u in state.units.iter_mut().filter(|u| u.side == SideId::German) {
            if matches!(u.place, Place::Reinforcement(t) if LOST_REINFORCEMENT_TURNS.contains(&t)) {
                u.place = Place::OffMap;
                lost.push(u.id.clone());
            }
        }
        if let Some(c) = state.campaign.as_deref_mut() {
            c.netherlands_invaded = true;
            *c.event_vp.entry(SideId::German).or_insert(0) -= DUTCH_PENALTY;
        }
        ev.push(Event::rule(
            "GE 3.6",
            format!(
                "the German invades the Netherlands: it joins the Allies (Dutch hexes without German units are Allied), the Liège bottleneck (7.11) lapses, German −{DUTCH_PENALTY} VP, and the German reinforcements of turns 5 and 14 never arrive ({})",
                if lost.is_empty() { "none".to_string() } else { lost.join(", ") }
            ),
        ));
    }

    if choice.belgium_neutral {
        let mut waiting = Vec::new();
        let turn = state.turn;
        for u in state.units.iter_mut().filter(|u| u.nation == "GB" && matches!(u.place, Place::Hex(_))) {
            u.place = Place::Reinforcement(turn);
            u.entry = Some(Entry::Port);
            waiting.push(u.id.clone());
        }
        if let Some(c) = state.campaign.as_deref_mut() {
            c.britain_waits = true;
        }
        ev.push(Event::rule(
            "GE 3.7",
            format!(
                "Belgium is not violated: Britain is not at war; the British start off the map{} and no British unit enters before the Allied player turn after the German first reaches 20 VP",
                if waiting.is_empty() { String::new() } else { format!(" ({})", waiting.join(", ")) }
            ),
        ));
    }
    ev
}

/// Lines for `describe`: the countries left neutral or invaded, and Britain's state.
pub fn describe(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(set) = &state.board.map().closed {
        for (c, name) in [(Country::Belgium, "belgium"), (Country::Luxembourg, "luxembourg")] {
            if set.contains(&c) {
                out.push(format!("neutral {name} (GE 3.6)"));
            }
        }
    }
    if let Some(c) = state.campaign.as_deref() {
        if c.netherlands_invaded {
            out.push("netherlands invaded (GE 3.6)".into());
        }
        if c.britain_waits {
            let at_war = super::campaign::britain_at_war(state);
            out.push(match c.german_twenty {
                Some(t) if at_war => format!("britain at war since turn {} (GE 3.7)", t + 1),
                Some(t) => format!("britain enters the war on turn {} (GE 3.7)", t + 1),
                None => "britain not at war (GE 3.7)".into(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Ruleset, SeatInfo};
    use crate::rules::glorys_end::GlorysEnd;
    use crate::rules::glorys_end::campaign::{self, hx};

    fn free() -> State {
        let seats =
            vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
        GlorysEnd::setup(crate::rules::glorys_end::scenario::FREE_DEPLOYMENT_YAML, None, &seats).expect("setup")
    }

    #[test]
    fn a_plan_that_violates_belgium_and_luxembourg_changes_nothing() {
        let mut s = free();
        let plan = super::super::secret::default_plan(&s, SideId::German);
        assert_eq!(of_plan(&s, &plan), Choice::default());
        let before = s.clone();
        assert!(apply(&mut s, &plan).is_empty());
        assert_eq!(s, before);
        assert!(campaign::liege_bottleneck(&s));
    }

    #[test]
    fn a_dutch_invasion_lifts_the_liege_bottleneck_and_costs_15_vp() {
        let mut s = free();
        let mut plan = super::super::secret::default_plan(&s, SideId::German);
        plan.units.insert("DE-10".into(), hx(1419));
        assert!(of_plan(&s, &plan).netherlands_invaded);
        assert!(!s.board.in_play(hx(1419)));
        apply(&mut s, &plan);
        assert!(s.board.in_play(hx(1419)));
        assert_eq!(s.control(hx(1419)), Some(SideId::Allied));
        // The Liège fort still stands, yet 7.11 no longer applies.
        assert!(s.units_at(hx(campaign::LIEGE)).any(|u| u.id == "BE-LGF"));
        assert!(!campaign::liege_bottleneck(&s));
        assert_eq!(campaign::total(&s, SideId::German, false), -15);
        for id in ["DE-9R", "DE-22R", "DE-23R"] {
            assert_eq!(s.unit(id).map(|u| u.place), Some(Place::OffMap), "{id}");
        }
        assert!(matches!(s.unit("DE-26R").map(|u| u.place), Some(Place::Reinforcement(21))));
    }

    #[test]
    fn neutral_belgium_and_luxembourg_leave_play_and_britain_waits() {
        let mut s = free();
        let mut plan = super::super::secret::default_plan(&s, SideId::German);
        for h in plan.units.values_mut() {
            *h = hx(2616);
        }
        let ch = of_plan(&s, &plan);
        assert!(ch.belgium_neutral && ch.luxembourg_neutral && !ch.netherlands_invaded);
        // The Allied plan has put the British on the map.
        s.unit_mut("GB-1").expect("GB-1").place = Place::Hex(hx(2127));
        apply(&mut s, &plan);
        for h in [1525, 1226, 2518, 1419] {
            assert!(!s.board.in_play(hx(h)), "{h}");
            assert_eq!(s.control(hx(h)), None, "{h}");
        }
        assert!(!s.belgium_violated);
        assert!(s.units.iter().filter(|u| u.nation == "BE").all(|u| u.place == Place::OffMap));
        let gb = s.unit("GB-1").expect("GB-1");
        assert_eq!((gb.place, gb.entry), (Place::Reinforcement(1), Some(Entry::Port)));
        assert!(!campaign::britain_at_war(&s));
        // 3.7: the German reaches 20 VP on turn 3; Britain joins on turn 4.
        if let Some(c) = s.campaign.as_deref_mut() {
            c.german_twenty = Some(3);
        }
        s.turn = 3;
        assert!(!campaign::britain_at_war(&s));
        s.turn = 4;
        assert!(campaign::britain_at_war(&s));
        // Reading of 7.13: the Belgian ports drop out of the Abbeville condition.
        for p in [1335, 1337, 1439] {
            s.control.insert(hx(p), SideId::German);
        }
        assert!(campaign::german_may_end_in(&s, hx(campaign::ABBEVILLE)).is_ok());
    }

    /// Digest F.2: some German VP hexes count only in the free deployment (representative:
    /// Toul, Epinal, Belfort at 3); a German who keeps out of Belgium has them to aim at.
    #[test]
    fn the_free_deployment_has_its_own_german_vp_hexes() {
        let s = free();
        for h in [3320, 3716, 4115] {
            assert!(s.town_vp.contains(&(hx(h), SideId::German, 3)), "{h}");
        }
        let seats =
            vec![SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
        let historical = GlorysEnd::setup(crate::rules::glorys_end::scenario::CAMPAIGN_YAML, None, &seats).expect("setup");
        assert!(!historical.town_vp.iter().any(|(h, _, _)| *h == hx(3320)));
    }

    #[test]
    fn the_picture_greys_out_a_neutral_country() {
        use crate::render::Kind;
        let fill = |s: &State, h: u32| {
            let Kind::HexMap(m) = super::super::render::picture(s).kind else { panic!("not a hex map") };
            m.cells.iter().find(|c| c.id == h.to_string()).map(|c| c.fill)
        };
        let mut s = free();
        let brussels = fill(&s, 1525);
        let mut plan = super::super::secret::default_plan(&s, SideId::German);
        for h in plan.units.values_mut() {
            *h = hx(2616);
        }
        apply(&mut s, &plan);
        assert_ne!(fill(&s, 1525), brussels, "neutral Belgium is drawn out of play");
        // Switzerland and the (not invaded) Netherlands were grey before and stay so; France is not.
        assert_eq!(fill(&s, 1525), fill(&s, 1419));
        assert_ne!(fill(&s, 2616), fill(&s, 1525));
    }
}
