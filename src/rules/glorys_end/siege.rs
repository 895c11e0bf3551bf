//! Siege guns (GE-14.7–14.10; Siege Gun Table E.2; G.4 items 6 and 28).
//!
//! The German's two guns (305 mm and 420 mm) are units of kind `SiegeGun`: they move like
//! other units (their allowance is the scenario's, a gap in the text) but have no combat
//! factors and no SL of their own. In a prepared assault they fire when named under `siege:`
//! and each is supplied, has not moved or fired this player turn and stands with infantry of
//! that assault; the target must hold an enemy fortress or fortified zone.
//! * Against a fortified zone the guns destroy it at once, with no roll (14.8; G.4 item 6
//!   reading: always, defenders untouched); the assault is then resolved as usual.
//! * Against a fortress each gun rolls one d6 on the table (E.2), adding the fort's modifier
//!   (14.10): an `E` removes the fortress (G.4 item 28 reading: the guns roll one after the
//!   other and the first `E` is enough). If that empties the hex the assault ends and the
//!   attackers may advance, making no other assault this phase; if other defenders stay, the
//!   assault is fought without any fortress effect; with no `E` it is fought as declared.
//! * Defending, a gun never absorbs losses or retreats: it is eliminated with the last mobile
//!   SL of its hex, or when those units retreat. Alone in a hex it blocks enemy strategic
//!   movement (`fortified::blocks_sm`), and enemy operational movement entering the hex
//!   eliminates it without stopping.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::combat;
use super::orders::Assault;
use super::state::{BattleKind, Kind, SideId, Stage, State, Unit};
use super::supply;
use super::unit_list::{self, ListRules};
use super::vp;
use crate::dice::Dice;
use crate::engine::{Event, Violation};
use crate::geo::hex::HexId;

/// Calibres and fort modifiers for the Siege Gun Table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeData {
    /// Gun id → calibre in mm (305 or 420).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub calibre: BTreeMap<String, u32>,
    /// Fortress id → its printed siege modifier (GE-14.10; Verdun +3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub modifier: BTreeMap<String, i32>,
}

impl SiegeData {
    /// Nothing recorded (the Marne).
    pub fn is_empty(&self) -> bool {
        self.calibre.is_empty() && self.modifier.is_empty()
    }
}

/// The highest modified roll that eliminates the fort (E.2, reconstructed: 305 mm E on 1–3,
/// 420 mm E on 1–4; a modified roll above 6 has no effect).
pub fn eliminates_up_to(calibre: u32) -> i32 {
    if calibre >= 420 { 4 } else { 3 }
}

/// Whether a modified roll eliminates the fortress.
pub fn table(calibre: u32, modified: i32) -> bool {
    modified <= eliminates_up_to(calibre)
}

fn v(rule: &str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// Whether `h` holds units of the side that is not `side`, all of them siege guns.
pub fn lone_enemy_guns(state: &State, h: HexId, side: SideId) -> bool {
    let mut any = false;
    for u in state.units_at(h).filter(|u| u.side != side) {
        if u.kind != Kind::SiegeGun {
            return false;
        }
        any = true;
    }
    any
}

/// `side`'s operational movement enters `h`: enemy siege guns alone there are eliminated
/// (GE-14.7), and the move goes on.
pub fn overrun(state: &mut State, h: HexId, side: SideId) -> Vec<Event> {
    if !lone_enemy_guns(state, h, side) {
        return vec![];
    }
    let guns: Vec<String> = state.units_at(h).filter(|u| u.side != side).map(|u| u.id.clone()).collect();
    let mut ev = Vec::new();
    for g in guns {
        ev.push(Event::rule("GE 14.7", format!("{g} is alone in {h} when enemy units move in: it is eliminated")));
        ev.extend(vp::eliminate(state, &g));
    }
    ev
}

/// After a battle's losses and retreat: the guns of `side` in `h` die when no mobile unit of
/// theirs is left there (GE-14.7; `why` says whether they were eliminated or retreated).
pub fn abandoned(state: &mut State, h: HexId, side: SideId, why: &str) -> Vec<Event> {
    if state.units_at(h).any(|u| u.side == side && u.mobile()) {
        return vec![];
    }
    let guns: Vec<String> = state.units_at(h).filter(|u| u.side == side && u.kind == Kind::SiegeGun).map(|u| u.id.clone()).collect();
    let mut ev = Vec::new();
    for g in guns {
        ev.push(Event::rule("GE 14.7", format!("{g} is eliminated: the mobile units in {h} {why}")));
        ev.extend(vp::eliminate(state, &g));
    }
    ev
}

/// The enemy fortress in `target`, for `side` attacking.
fn fortress(state: &State, target: HexId, side: SideId) -> Option<String> {
    state.units_at(target).find(|u| u.side != side && u.kind == Kind::Fortress).map(|u| u.id.clone())
}

/// Check the guns named for a prepared assault (GE-14.7).
pub fn check(state: &State, side: SideId, target: HexId, units: &[String], guns: &[String]) -> Vec<Violation> {
    let mut errs = Vec::new();
    let t = target.to_string();
    if fortress(state, target, side).is_none() && !super::fortified::enemy_zone(state, target, side) {
        errs.push(v("GE 14.7", "siege guns fire only at an enemy fortress or fortified zone").hex(&t));
    }
    let sup = supply::SupplyAll::of(state);
    let rules = ListRules {
        twice: ("GE 14.7", "a siege gun is listed twice"),
        unknown: "GE 14.7",
        foreign: ("GE 14.7", "only the attacker's siege guns fire"),
        off_map: ("GE 14.7", "the siege gun is not on the map"),
    };
    let not_a_gun = |u: &Unit| {
        (u.kind != Kind::SiegeGun)
            .then(|| v("GE 14.7", "only siege guns are listed under siege (the attackers go under units)").unit(&u.id))
    };
    for (u, h) in unit_list::check(state, side, guns, &rules, &not_a_gun, &mut errs) {
        let g = &u.id;
        if u.attacked {
            errs.push(v("GE 14.7", "the siege gun has already fired this player turn").unit(g));
        }
        if u.moved {
            errs.push(v("GE 13.22", "a siege gun that moved this player turn does not fire (reading of 13.22)").unit(g));
        }
        if u.ooc {
            errs.push(v("GE 10.2", "an out-of-command siege gun does not fire").unit(g));
        }
        if !sup.unit(u, supply::Use::Attack) {
            errs.push(v("GE 14.7", "only a supplied siege gun fires").unit(g));
        }
        let with_infantry = units.iter().filter_map(|id| state.unit(id)).any(|a| a.kind == Kind::Infantry && a.hex() == Some(h));
        if !with_infantry {
            errs.push(v("GE 14.7", format!("a siege gun fires only stacked with infantry making this assault (none in {h})")).unit(g));
        }
    }
    errs
}

/// A prepared assault with siege guns (GE-14.7–14.9): check, let the guns destroy a
/// fortified zone (no roll), declare the battle; against a fortress the guns' rolls come
/// before the CRT roll (`roll`).
pub fn step_attack(state: &mut State, side: SideId, a: &Assault) -> Result<Vec<Event>, Vec<Violation>> {
    let mut errs = check(state, side, a.target, &a.units, &a.siege);
    if let Err(e) = combat::declare(state, BattleKind::Prepared, side, a.target, &a.units) {
        errs.extend(e);
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut ev = Vec::new();
    for g in &a.siege {
        if let Some(u) = state.unit_mut(g) {
            u.attacked = true;
        }
    }
    if let Some(z) = state.fortified.get(&a.target).filter(|z| z.side != side) {
        ev.push(Event::rule(
            "GE 14.8",
            format!(
                "{} fire at the {} fortified zone in {}: it is destroyed (no roll); its defenders stay",
                a.siege.join(", "),
                z.side.title(),
                a.target
            ),
        ));
        state.fortified.remove(&a.target);
    }
    let mut battle = combat::compute(state, BattleKind::Prepared, side, a.target, &a.units);
    if battle.fortress {
        battle.siege = a.siege.clone();
    }
    ev.extend(combat::start(state, battle));
    Ok(ev)
}

/// Whether the pending battle's next roll is a siege gun's.
pub fn pending(state: &State) -> bool {
    state.battle.as_ref().is_some_and(|b| b.stage == Stage::Roll && !b.siege.is_empty())
}

/// The guns' rolls (the first die is `first`, the others come from `dice`), then the
/// battle as the result leaves it, with its CRT roll if it is still fought (GE-14.9).
pub fn roll(state: &mut State, first: u32, dice: &mut Dice) -> Vec<Event> {
    let Some(b) = state.battle.clone() else { return vec![] };
    let side = b.attacker;
    let Some(fort) = fortress(state, b.target, side) else { return vec![] };
    let modifier = state.siege.modifier.get(&fort).copied().unwrap_or(0);
    let mut ev = Vec::new();
    let mut hit = false;
    for (i, g) in b.siege.iter().enumerate() {
        let die = if i == 0 { first } else { dice.roll(6) + 1 };
        let calibre = state.siege.calibre.get(g).copied().unwrap_or(305);
        let modified = die as i32 + modifier;
        ev.push(Event::roll(format!("siege gun {g} ({calibre} mm) at {fort}: Siege Gun Table roll"), "d6", die));
        hit = table(calibre, modified);
        ev.push(Event::rule(
            if modifier != 0 { "GE 14.10" } else { "GE 14.9" },
            format!(
                "siege gun {g}: roll {die}{} = {modified} on the {calibre} mm row: {}",
                if modifier != 0 { format!(" {modifier:+} (modern fort)") } else { String::new() },
                if hit { "E, the fortress is eliminated" } else { "no effect" }
            ),
        ));
        if hit {
            break;
        }
    }
    if let Some(bb) = state.battle.as_mut() {
        bb.siege.clear();
    }
    if hit {
        ev.extend(vp::eliminate(state, &fort));
        if state.occupant(b.target) != Some(side.other()) {
            // GE-14.9: the hex is empty: the designated infantry may advance, and attacks no more.
            ev.push(Event::rule(
                "GE 14.9",
                format!("{} is empty: the attackers may advance into it but make no other prepared assault this phase", b.target),
            ));
            if let Some(bb) = state.battle.as_mut() {
                bb.stage = Stage::Attacker { lp: 0 };
            }
            ev.extend(combat::advance_stages(state));
            return ev;
        }
        // Other defenders remain: the assault is fought without any fortress effect.
        let nb = combat::compute(state, BattleKind::Prepared, side, b.target, &b.attackers);
        state.battle = None;
        ev.push(Event::rule("GE 14.9", "the fortress is gone: the prepared assault goes on without fortress effects"));
        ev.extend(combat::start(state, nb));
    } else {
        ev.extend(combat::fight(state));
    }
    if state.battle.as_ref().is_some_and(|bb| bb.stage == Stage::Roll) {
        let die = dice.roll(6) + 1;
        ev.extend(combat::roll(state, die));
    }
    ev
}
