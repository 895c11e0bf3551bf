//! Control of towns, cities and victory hexes (WEF 3.8) and the capitals (4.2).

use super::board::Country;
use super::state::{Kind, Side, State};
use crate::engine::{Event, Outcome};
use crate::geo::hex::HexId;

/// The side controlling `h` (3.8): the side occupying it, else the side that last took it by
/// entry (cavalry in an enemy country holds it only while it stays, so the hex falls back to
/// the recorded controller when it leaves).
pub fn controller(s: &State, h: HexId) -> Option<Side> {
    s.occupant(h).or_else(|| s.control.get(&h).copied())
}

/// Whether the rules track control of `h`.
pub fn tracked(s: &State, h: HexId) -> bool {
    s.board.place(h).is_some() || s.board.listed_victory(h)
}

/// Units of `side` enter `h`; `cavalry_only` when every unit entering is cavalry. Control
/// passes at once (3.8), except that cavalry takes a hex in an enemy country only while it
/// stays there.
pub fn enter(s: &mut State, h: HexId, side: Side, cavalry_only: bool) -> Vec<Event> {
    let mut ev = super::command::entered(s, h, side);
    if !tracked(s, h) {
        return ev;
    }
    let enemy_country = s.board.get(h).and_then(|i| i.country.owner()) == Some(side.other());
    if cavalry_only && enemy_country {
        return ev;
    }
    if s.control.get(&h) != Some(&side) {
        s.control.insert(h, side);
        let name = s.board.place(h).map(|(n, _)| format!("{n} ")).unwrap_or_default();
        ev.push(Event::rule("WEF 3.8", format!("{name}{h} passes to the {} player", side.title())));
    }
    ev
}

/// The capitals whose entry wins at once (4.2): Petrograd for the CP, Berlin, Vienna and
/// Budapest for the Russian.
pub fn capital_win(s: &State, h: HexId, side: Side) -> Option<Outcome> {
    let (name, kind) = s.board.place(h)?;
    if kind != super::scenario::PlaceKind::Capital {
        return None;
    }
    let country = s.board.get(h)?.country;
    let enemy = match side {
        Side::Central => country.russian(),
        Side::Russian => matches!(country, Country::Germany | Country::AustriaHungary),
    };
    enemy.then(|| Outcome::Win { side: side.id().into(), reason: format!("a {} unit entered {name} ({h}), WEF 4.2", side.title()) })
}

/// Whether the units of `side` entering are all cavalry.
pub fn all_cavalry(s: &State, ids: &[String]) -> bool {
    ids.iter().all(|id| s.unit(id).is_some_and(|u| u.kind == Kind::Cavalry))
}
