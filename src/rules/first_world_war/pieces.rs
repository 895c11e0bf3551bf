//! Face-down pieces (TFWW 4.2/1, 5.0, 6.0, 4.2/3; digest §F.4 H-1, H-2, H-3, H-8) on the
//! engine's hidden information (DESIGN §2.6).
//!
//! A piece turned face down becomes a commitment of the seat that turns it (`piece-<n>`,
//! value `army:<roster id>` or `dummy`); what stays public is its id, its faction (the back
//! colour) and its front. While face down the army is `Where::Hidden` and the dummy
//! `face_down`, in every mode, so the public facts never depend on what a replay knows; only
//! `Piece::ident` does. Face-up pieces are named as before (army id, `dummy`).
//!
//! Checks that need the identity run when the value is known: at once in seat and
//! omniscient mode (so `verify`'s second pass names the entry of a lie), and at the opening
//! in public mode for what the opening can contradict (back colour, an army that is not face
//! down, a front its list forbids, one dummy too many).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::orders::{Action, HideGroup, Orders, Placement};
use super::scenario::{Faction, GA_FRONTS};
use super::state::{CombatStep, Stage, State, Where};
use crate::engine::{Concealed, Event, HiddenActs, IdOrder, Violation};

type R = Result<Vec<Event>, Vec<Violation>>;

/// What a face-down piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ident {
    /// A real army (roster index).
    Army(usize),
    /// A dummy of the piece's faction.
    Dummy,
}

/// A face-down piece on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// Its commitment id (`piece-<n>`).
    pub id: String,
    /// The seat whose commitment it is: only that seat can turn it up.
    pub seat: String,
    /// The back colour.
    pub faction: Faction,
    pub front: u8,
    /// What it is, when this replay knows it (never public while face down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ident: Option<Ident>,
    /// A German piece under German-Allies control (5.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ga: bool,
}

/// Prefix of piece commitment ids.
pub const PREFIX: &str = "piece-";

/// Whether a commitment id is a piece's.
pub fn is_piece_id(id: &str) -> bool {
    id.strip_prefix(PREFIX).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The committed value of an identity.
pub fn value_of(s: &State, ident: Ident) -> String {
    match ident {
        Ident::Army(a) => format!("army:{}", s.name(a)),
        Ident::Dummy => "dummy".into(),
    }
}

/// Parse a committed value.
pub fn parse_value(s: &State, v: &str) -> Option<Ident> {
    if v == "dummy" {
        return Some(Ident::Dummy);
    }
    v.strip_prefix("army:").and_then(|id| s.data.army(id)).map(Ident::Army)
}

/// Who acts for a face-down piece now (5.1).
pub fn controller(p: &Piece) -> Faction {
    if p.ga { Faction::GermanAllies } else { p.faction }
}

/// Partners read each other's sealed notes with 3-4 players (H-3, H-6): GA must know which
/// German pieces under its control are real, and a shared cup needs both hands.
pub fn partners_share(s: &State) -> bool {
    s.players >= 3
}

/// Whether `viewer` may know what `owner`'s face-down pieces are.
pub fn visible(s: &State, viewer: &str, owner: &str) -> bool {
    if viewer == owner {
        return true;
    }
    let side = |seat: &str| s.factions_of(seat).first().map(|f| f.alliance());
    partners_share(s) && side(viewer).is_some() && side(viewer) == side(owner)
}

/// The face-down piece with this id.
pub fn find(s: &State, id: &str) -> Option<usize> {
    s.pieces.iter().position(|p| p.id == id)
}

/// 5.1: German face-down pieces on GA fronts act for GA (called at every round start).
pub fn update_control(s: &mut State) {
    for p in &mut s.pieces {
        p.ga = p.faction == Faction::Germany && GA_FRONTS.contains(&p.front);
    }
}

/// Real armies on a front as far as this replay knows (face up, and face down with a known
/// identity), and whether some face-down piece there is unknown.
pub fn known_armies_on(s: &State, front: u8) -> (Vec<usize>, bool) {
    let mut v = s.armies_on(front);
    let mut unknown = false;
    for p in s.pieces.iter().filter(|p| p.front == front) {
        match p.ident {
            Some(Ident::Army(a)) => v.push(a),
            Some(Ident::Dummy) => {}
            None => unknown = true,
        }
    }
    (v, unknown)
}

/// Whether any face-down piece of these factions has an identity this replay does not know.
pub fn unknown_of(s: &State, factions: &[Faction]) -> bool {
    s.pieces.iter().any(|p| p.ident.is_none() && factions.contains(&p.faction))
}

/// Seats that must open face-down pieces now (6.0 defence, 4.2/3 victory check), sorted.
pub fn owing(s: &State) -> Vec<String> {
    let set: BTreeSet<String> = owed(s).into_iter().map(|k| s.pieces[k].seat.clone()).collect();
    set.into_iter().collect()
}

/// Face-down pieces due to be turned up now.
pub fn owed(s: &State) -> Vec<usize> {
    match (&s.stage, &s.combat) {
        (Stage::Reveal, _) => (0..s.pieces.len()).collect(),
        (Stage::Combat, Some(c)) if c.step == CombatStep::Reveal => (0..s.pieces.len())
            .filter(|&k| {
                let p = &s.pieces[k];
                (p.front == c.front && p.faction.enemy_of(c.attacker)) || c.partner_pieces.contains(&p.id)
            })
            .collect(),
        _ => vec![],
    }
}

/// Take a commitment of the entry being applied for a new face-down piece: `Some(ident if
/// known)` when `id` is one, `None` otherwise.
fn take_fresh(s: &mut State, id: &str) -> Option<Option<Ident>> {
    s.fresh.remove(id)
}

/// Whether `name` is a fresh piece commitment of this entry (not taken).
pub fn is_fresh(s: &State, name: &str) -> bool {
    s.fresh.contains_key(name)
}

/// Take a fresh commitment for a deployed piece (4.2/1).
pub fn deploy_fresh(s: &mut State, id: &str) -> Option<Option<Ident>> {
    take_fresh(s, id)
}

/// Put a new face-down piece on the map.
pub fn add(s: &mut State, id: &str, seat: &str, faction: Faction, front: u8, ident: Option<Ident>, ga: bool) {
    if let Some(n) = id.strip_prefix(PREFIX).and_then(|n| n.parse::<u32>().ok()) {
        s.next_piece = s.next_piece.max(n.saturating_add(1));
    }
    s.pieces.push(Piece { id: id.to_string(), seat: seat.to_string(), faction, front, ident, ga });
}

/// Piece commitments of the entry that no action used (each must place or hide a piece).
pub fn unused(s: &State) -> Vec<Violation> {
    s.fresh
        .keys()
        .map(|id| Violation::new("TFWW 4.2/1", format!("commitment {id} is not a piece this entry deploys or turns face down")))
        .collect()
}

/// `Ruleset::hidden`: record this entry's piece commitments and turn up the pieces it opens.
pub fn hidden(s: &mut State, seat: &str, acts: &mut HiddenActs) -> R {
    s.fresh.clear();
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    for c in &acts.committed {
        if !c.id.starts_with(PREFIX) {
            continue;
        }
        if !is_piece_id(&c.id) {
            errs.push(Violation::new("TFWW 4.2/1", format!("piece commitment ids are {PREFIX}<number>, not {:?}", c.id)));
            continue;
        }
        let ident = match &c.value {
            Some(v) => match parse_value(s, v) {
                Some(i) => Some(i),
                None => {
                    errs.push(Violation::new("TFWW 2.2", format!("{}: {v:?} is neither `army:<id>` nor `dummy`", c.id)));
                    continue;
                }
            },
            None => None,
        };
        s.fresh.insert(c.id.clone(), ident);
    }
    for o in &acts.opened {
        if !o.id.starts_with(PREFIX) {
            continue;
        }
        let Some(k) = find(s, &o.id).filter(|&k| s.pieces[k].seat == seat) else {
            errs.push(Violation::new("TFWW 6.0", format!("{} is not a face-down piece of {seat}", o.id)));
            continue;
        };
        match open(s, k, &o.value) {
            Ok(e) => ev.push(e),
            Err(v) => errs.push(v),
        }
    }
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// Turn piece `k` face up as `value`, refusing a value that contradicts what is public.
fn open(s: &mut State, k: usize, value: &str) -> Result<Event, Violation> {
    let p = s.pieces[k].clone();
    let bad = |rule: &str, msg: String| Violation::new(rule, format!("{} opens as {value:?}: {msg}", p.id)).unit(p.id.clone());
    let ident = parse_value(s, value).ok_or_else(|| bad("TFWW 2.2", "neither `army:<id>` nor `dummy`".into()))?;
    let what = match ident {
        Ident::Army(a) => {
            let army = &s.data.armies[a];
            if army.faction != p.faction {
                return Err(bad(
                    "TFWW 2.2",
                    format!("{} is a {} army, the piece has a {} back", army.id, army.faction.code(), p.faction.code()),
                ));
            }
            if s.armies[a] != Where::Hidden {
                return Err(bad("TFWW 4.2/1", format!("{} is not a face-down army", army.id)));
            }
            if !s.data.listed(a, p.front) {
                return Err(bad("TFWW 2.1", format!("front {} does not list {}", p.front, army.id)));
            }
            if (p.front == 5 || p.front == 6) && ["BR", "FR", "DE"].contains(&army.nat.as_str()) && s.turn < 4 {
                return Err(bad("TFWW 5.3", format!("{} may not be in Italy before turn 4", army.id)));
            }
            s.armies[a] = Where::Front(p.front);
            if p.ga {
                s.ga_control.insert(a);
            }
            format!("{} (value {})", army.id, army.value)
        }
        Ident::Dummy => {
            let Some(d) = (0..s.dummies.len()).find(|&d| s.dummies[d].faction == p.faction && s.dummies[d].face_down) else {
                return Err(bad("TFWW 2.2", format!("no {} dummy is face down", p.faction.code())));
            };
            if !s.dummy_may_enter(p.faction, p.front) {
                return Err(bad("TFWW 4.2/1", format!("no {} army may operate on front {}", p.faction.code(), p.front)));
            }
            s.dummies[d].front = Some(p.front);
            s.dummies[d].face_down = false;
            if p.ga {
                s.ga_dummies.insert(d);
            }
            format!("a {} dummy", p.faction.code())
        }
    };
    s.pieces.remove(k);
    // 5.1: a piece the attacker's partner opens for the attack (`combat::declare`).
    if let Some(c) = s.combat.as_mut().filter(|c| c.partner_pieces.contains(&p.id)) {
        c.partner_opened.push((
            p.id.clone(),
            match ident {
                Ident::Army(a) => Some(a),
                Ident::Dummy => None,
            },
        ));
    }
    Ok(Event::rule("TFWW 6.0", format!("{} on front {} is turned face up: {what}", p.id, p.front)))
}

/// 4.2/1, 6.0: turn face-up pieces of `seat` face down again under fresh commitments.
pub fn hide(s: &mut State, seat: &str, groups: &[HideGroup]) -> R {
    if !matches!(s.stage, Stage::Deploy(_) | Stage::Round) {
        return Err(vec![Violation::new("TFWW 4.2/1", "pieces are turned face down at deployment or in their owner's round")]);
    }
    let mine = s.factions_of(seat);
    let mut errs = Vec::new();
    let mut ev = Vec::new();
    for g in groups {
        if g.pieces.is_empty() || g.pieces.len() != g.ids.len() {
            errs.push(Violation::new("TFWW 4.2/1", format!("front {}: one fresh commitment id per piece turned face down", g.front)));
            continue;
        }
        let mut used_dummies = Vec::new();
        let mut turned: Vec<(Ident, Faction, bool)> = Vec::new();
        for name in &g.pieces {
            if name == "dummy" {
                let d = (0..s.dummies.len())
                    .find(|&d| s.dummies[d].front == Some(g.front) && mine.contains(&s.dummy_controller(d)) && !used_dummies.contains(&d));
                match d {
                    Some(d) => {
                        used_dummies.push(d);
                        turned.push((Ident::Dummy, s.dummies[d].faction, s.ga_dummies.contains(&d)));
                    }
                    None => errs.push(Violation::new("TFWW 4.2/1", format!("no more face-up dummies of {seat} on front {}", g.front))),
                }
                continue;
            }
            match s.data.army(name) {
                Some(a) if s.armies[a] == Where::Front(g.front) && mine.contains(&s.controller(a)) => {
                    if turned.iter().any(|t| t.0 == Ident::Army(a)) {
                        errs.push(Violation::new("TFWW 4.2/1", "named twice").unit(name.clone()));
                    }
                    turned.push((Ident::Army(a), s.data.armies[a].faction, s.ga_control.contains(&a)));
                }
                _ => errs.push(
                    Violation::new("TFWW 4.2/1", format!("is not a face-up piece of {seat} on front {}", g.front)).unit(name.clone()),
                ),
            }
        }
        if turned.len() != g.pieces.len() {
            continue;
        }
        let faction = turned[0].1;
        if turned.iter().any(|t| t.1 != faction) {
            errs.push(Violation::new("TFWW 4.2/1", format!("front {}: a group holds pieces of one faction (one back colour)", g.front)));
            continue;
        }
        let mut values = Vec::new();
        for id in &g.ids {
            match take_fresh(s, id) {
                Some(v) => values.push(v),
                None => errs.push(Violation::new("TFWW 4.2/1", format!("{id} is not a fresh piece commitment of this entry"))),
            }
        }
        if values.len() != turned.len() {
            continue;
        }
        // Known values (seat, omniscient, even a few of them): each is one of the group's
        // pieces, none used twice.
        let mut want: Vec<Ident> = turned.iter().map(|t| t.0).collect();
        let mut lie = None;
        for (id, v) in g.ids.iter().zip(&values) {
            if let Some(v) = v {
                match want.iter().position(|w| w == v) {
                    Some(i) => {
                        want.remove(i);
                    }
                    None => lie = Some((id.clone(), *v)),
                }
            }
        }
        if let Some((id, v)) = lie {
            errs.push(
                Violation::new(
                    "TFWW 4.2/1",
                    format!("front {}: {id} is committed as {}, which is not one of the pieces turned face down", g.front, value_of(s, v)),
                )
                .unit(id),
            );
            continue;
        }
        for (t, d) in turned.iter().filter(|t| t.0 == Ident::Dummy).zip(&used_dummies) {
            let _ = t;
            s.dummies[*d].front = None;
            s.dummies[*d].face_down = true;
        }
        for t in &turned {
            if let Ident::Army(a) = t.0 {
                s.armies[a] = Where::Hidden;
            }
        }
        let ga = turned.iter().any(|t| t.2);
        for (id, v) in g.ids.iter().zip(values) {
            add(s, id, seat, faction, g.front, v, ga);
        }
        ev.push(Event::rule(
            "TFWW 4.2/1",
            format!(
                "{} turns {} face down on front {} under {} (ids in a secret order)",
                faction.code(),
                g.pieces.join(", "),
                g.front,
                g.ids.join(", ")
            ),
        ));
    }
    prune_due(s);
    if errs.is_empty() { Ok(ev) } else { Err(errs) }
}

/// The `reveal` action: in a reveal stage the seat's due pieces must all be up now; outside
/// one, the pieces listed must have been opened by this entry (4.2/1 voluntary reveal).
pub fn reveal(s: &mut State, seat: &str, list: &[String]) -> R {
    for id in list {
        if find(s, id).is_some() {
            return Err(vec![Violation::new("TFWW 4.2/1", format!("{id} is still face down: open it in this entry")).unit(id.clone())]);
        }
    }
    let left: Vec<String> = owed(s).into_iter().filter(|&k| s.pieces[k].seat == seat).map(|k| s.pieces[k].id.clone()).collect();
    if !left.is_empty() {
        let rule = if s.stage == Stage::Reveal { "TFWW 4.2/3" } else { "TFWW 6.0" };
        return Err(vec![Violation::new(rule, format!("{seat} must turn up every piece due now; still face down: {}", left.join(", ")))]);
    }
    Ok(vec![Event::rule("TFWW 4.2/1", format!("{seat} has turned up its pieces"))])
}

/// `Ruleset::conceal`: the orders as the seat writes them (its own face-down pieces named
/// by army, new pieces placed by army or `dummy`) become public orders (piece ids), the
/// values to commit and the openings due.
///
/// Ids never follow the writing order (DESIGN §2.6): the pieces of each group the public
/// cannot tell apart (one front's deployment; one front's and faction's pieces turned face
/// down) are numbered in the author's secret `order`, and the log lists the fronts in order,
/// the names sorted and the ids sorted, never paired. The pieces the rules have turned face
/// down (4.2/1, 6.0; [`due_down`]) are added to the entry's `hide` here, so no player has to
/// remember it (the attack's participants excepted: they are turned up for the attack).
pub fn conceal(s: &State, seat: &str, orders: Orders, order: &IdOrder) -> Result<Concealed<Orders>, Vec<Violation>> {
    let mut n = s.next_piece.max(1);
    let mut commit: Vec<(String, String)> = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let fresh = |n: &mut u32| {
        let id = format!("{PREFIX}{n}");
        *n += 1;
        id
    };
    let value = |name: &str| if name == "dummy" { "dummy".to_string() } else { format!("army:{name}") };
    // Own face-down pieces by army, including those turned face down earlier in these orders.
    let mut by_army: Vec<(String, String)> = s
        .pieces
        .iter()
        .filter(|p| p.seat == seat)
        .filter_map(|p| match p.ident {
            Some(Ident::Army(a)) => Some((s.name(a).to_string(), p.id.clone())),
            _ => None,
        })
        .collect();
    let mut new_dummies: Vec<(u8, String)> = Vec::new();
    let mut moved: Vec<String> = Vec::new();
    let rename = |name: &str, from: u8, by_army: &[(String, String)], new_dummies: &[(u8, String)], moved: &mut Vec<String>| {
        let id = if name == "dummy" {
            new_dummies.iter().find(|(f, id)| *f == from && !moved.contains(id)).map(|(_, id)| id.clone())
        } else {
            by_army.iter().find(|(a, _)| a == name).map(|(_, id)| id.clone())
        };
        match id {
            Some(id) => {
                moved.push(id.clone());
                id
            }
            None => name.to_string(),
        }
    };
    let mut out = Vec::new();
    for a in with_due_hides(s, seat, orders.actions) {
        out.push(match a {
            Action::Deploy(ps) => {
                // One anonymous group per front: the public sees how many pieces go where.
                let (mut placed, new): (Vec<Placement>, Vec<Placement>) = ps.into_iter().partition(|p| is_piece_id(&p.piece));
                let mut by_front: std::collections::BTreeMap<u8, Vec<String>> = std::collections::BTreeMap::new();
                for p in new {
                    by_front.entry(p.front).or_default().push(value(&p.piece));
                }
                for (front, mut values) in by_front {
                    order.sort(&mut values, |v| v.clone());
                    for v in values {
                        let id = fresh(&mut n);
                        commit.push((id.clone(), v));
                        placed.push(Placement { piece: id, front });
                    }
                }
                placed.sort_by(|a, b| (a.front, a.piece.len(), &a.piece).cmp(&(b.front, b.piece.len(), &b.piece)));
                Action::Deploy(placed)
            }
            Action::Hide(groups) => Action::Hide(
                groups
                    .into_iter()
                    .map(|g| {
                        if !g.ids.is_empty() {
                            return g;
                        }
                        let mut pieces = g.pieces;
                        order.sort(&mut pieces, |p| value(p));
                        let ids: Vec<String> = pieces.iter().map(|_| fresh(&mut n)).collect();
                        for (id, p) in ids.iter().zip(&pieces) {
                            commit.push((id.clone(), value(p)));
                            if p == "dummy" {
                                new_dummies.push((g.front, id.clone()));
                            } else {
                                by_army.push((p.clone(), id.clone()));
                            }
                        }
                        pieces.sort();
                        HideGroup { front: g.front, pieces, ids }
                    })
                    .collect(),
            ),
            Action::Move { from, pieces } => Action::Move {
                from,
                pieces: pieces
                    .into_iter()
                    .map(|p| Placement { piece: rename(&p.piece, from, &by_army, &new_dummies, &mut moved), front: p.front })
                    .collect(),
            },
            Action::Transfer { from, to, pieces } => {
                Action::Transfer { from, to, pieces: pieces.iter().map(|p| rename(p, from, &by_army, &new_dummies, &mut moved)).collect() }
            }
            Action::Attack { front, armies, capture } => {
                // The template lets an attack name an own face-down piece by its piece id:
                // the tool opens it and writes the army, as if the army had been named.
                let armies: Vec<String> = armies
                    .into_iter()
                    .map(|name| match find(s, &name).map(|k| &s.pieces[k]) {
                        Some(p) if p.seat == seat => match p.ident {
                            Some(Ident::Army(a)) => s.name(a).to_string(),
                            _ => name,
                        },
                        // 5.1: an army a partner hid is named by its piece, which the
                        // partner turns up for the attack (`combat::declare`).
                        _ => s
                            .pieces
                            .iter()
                            .find(|p| p.seat != seat && p.front == front && matches!(p.ident, Some(Ident::Army(a)) if s.name(a) == name))
                            .map_or(name, |p| p.id.clone()),
                    })
                    .collect();
                for name in &armies {
                    if let Some((_, id)) = by_army.iter().find(|(a, _)| a == name)
                        && find(s, id).is_some()
                    {
                        open.push(id.clone());
                    }
                }
                Action::Attack { front, armies, capture }
            }
            Action::Reveal(list) => {
                let mut ids = Vec::new();
                for name in list {
                    let id = by_army.iter().find(|(a, _)| *a == name).map(|(_, id)| id.clone()).unwrap_or(name);
                    open.push(id.clone());
                    ids.push(id);
                }
                open.extend(owed(s).into_iter().filter(|&k| s.pieces[k].seat == seat).map(|k| s.pieces[k].id.clone()));
                Action::Reveal(ids)
            }
            other => other,
        });
    }
    let mut seen = BTreeSet::new();
    open.retain(|id| seen.insert(id.clone()));
    Ok(Concealed { orders: Orders { actions: out }, commit, open })
}

/// The actions with every written `hide` group (without ids) and every piece the rules turned
/// face down ([`due_down`], the attack's participants excepted) merged into one `hide` at the
/// head: one group per front and faction, so a written group never splits what the public
/// cannot tell apart, and the pieces are down before anything moves them.
fn with_due_hides(s: &State, seat: &str, actions: Vec<Action>) -> Vec<Action> {
    let attackers: Vec<String> =
        actions.iter().filter_map(|a| if let Action::Attack { armies, .. } = a { Some(armies.clone()) } else { None }).flatten().collect();
    let mine = s.factions_of(seat);
    let faction_of = |name: &str, front: u8| -> Faction {
        match s.data.army(name) {
            Some(a) => s.data.armies[a].faction,
            None => (0..s.dummies.len())
                .find(|&d| s.dummies[d].front == Some(front) && mine.contains(&s.dummy_controller(d)))
                .map(|d| s.dummies[d].faction)
                .or_else(|| mine.first().copied())
                .unwrap_or(Faction::Germany),
        }
    };
    let mut groups: std::collections::BTreeMap<(u8, Faction), Vec<String>> = std::collections::BTreeMap::new();
    let mut rest = Vec::new();
    for a in actions {
        match a {
            Action::Hide(gs) => {
                let (written, kept): (Vec<HideGroup>, Vec<HideGroup>) = gs.into_iter().partition(|g| g.ids.is_empty());
                for g in written {
                    for p in g.pieces {
                        groups.entry((g.front, faction_of(&p, g.front))).or_default().push(p);
                    }
                }
                if !kept.is_empty() {
                    rest.push(Action::Hide(kept));
                }
            }
            other => rest.push(other),
        }
    }
    let mut due_dummies: std::collections::BTreeMap<(u8, Faction), usize> = std::collections::BTreeMap::new();
    if matches!(s.stage, Stage::Deploy(_) | Stage::Round) {
        for (front, faction, up) in due_down(s, seat) {
            match up {
                Up::Army(a) if !attackers.iter().any(|n| n == s.name(a)) => {
                    let g = groups.entry((front, faction)).or_default();
                    if !g.iter().any(|n| n == s.name(a)) {
                        g.push(s.name(a).to_string());
                    }
                }
                Up::Army(_) => {}
                Up::Dummy(_) => *due_dummies.entry((front, faction)).or_default() += 1,
            }
        }
    }
    for (k, due) in due_dummies {
        let g = groups.entry(k).or_default();
        let written = g.iter().filter(|n| *n == "dummy").count();
        g.extend(std::iter::repeat_n("dummy".to_string(), due.saturating_sub(written)));
    }
    if groups.is_empty() {
        return rest;
    }
    let hide = groups.into_iter().map(|((front, _), pieces)| HideGroup { front, pieces, ids: vec![] }).collect();
    let mut out = vec![Action::Hide(hide)];
    out.extend(rest);
    out
}

/// A face-up piece on the map that the rules have turned face down (4.2/1 at the start of
/// deployment, 6.0 after a combat) while no commitment holds it yet: only a seat can commit,
/// so the piece waits for the next deployment or round entry of the seat that controls it,
/// whose tool turns it down first thing ([`conceal`]) and which is refused if it does not
/// ([`left_face_up`]). Until then nothing can move it, and its identity is what the public
/// saw when it was last turned up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Up {
    /// An army (roster index).
    Army(usize),
    /// A dummy (index in `State::dummies`).
    Dummy(usize),
}

/// 4.2/1, 6.0: the rules turn every face-up piece on the map (or on `front`) face down.
/// Nothing to do where the game plays its pieces in the open (`open_pieces`).
pub fn turn_down(s: &mut State, front: Option<u8>) {
    if s.options.open_pieces {
        return;
    }
    let here = |f: u8| front.is_none_or(|x| x == f);
    for a in 0..s.armies.len() {
        if let Where::Front(f) = s.armies[a]
            && here(f)
        {
            s.down_due.insert(Up::Army(a));
        }
    }
    for d in 0..s.dummies.len() {
        if let Some(f) = s.dummies[d].front
            && !s.dummies[d].face_down
            && here(f)
        {
            s.down_due.insert(Up::Dummy(d));
        }
    }
}

/// Forget pieces that are no longer face up on the map (turned down, eliminated, removed).
pub fn prune_due(s: &mut State) {
    let armies = &s.armies;
    let dummies = &s.dummies;
    s.down_due.retain(|u| match *u {
        Up::Army(a) => matches!(armies.get(a), Some(Where::Front(_))),
        Up::Dummy(d) => dummies.get(d).is_some_and(|dm| dm.front.is_some() && !dm.face_down),
    });
}

/// The face-up pieces `seat` controls that the rules have turned face down: front, faction
/// (the back colour) and the piece.
pub fn due_down(s: &State, seat: &str) -> Vec<(u8, Faction, Up)> {
    let mine = s.factions_of(seat);
    s.down_due
        .iter()
        .filter_map(|u| match *u {
            Up::Army(a) => match s.armies.get(a)? {
                Where::Front(f) if mine.contains(&s.controller(a)) => Some((*f, s.data.armies[a].faction, *u)),
                _ => None,
            },
            Up::Dummy(d) => {
                let dm = s.dummies.get(d)?;
                match dm.front {
                    Some(f) if !dm.face_down && mine.contains(&s.dummy_controller(d)) => Some((f, dm.faction, *u)),
                    _ => None,
                }
            }
        })
        .collect()
}

/// After a deployment or round entry of `seat` (state `s` after its actions): the pieces the
/// rules turned face down that it left face up, the attack's participants excepted (they are
/// turned up for the attack, 6.0). The author's tool never leaves one ([`conceal`]).
pub fn left_face_up(s: &State, seat: &str, orders: &Orders, before: &[(u8, Faction, Up)]) -> Vec<Violation> {
    let attackers: Vec<&String> =
        orders.actions.iter().filter_map(|a| if let Action::Attack { armies, .. } = a { Some(armies) } else { None }).flatten().collect();
    due_down(s, seat)
        .into_iter()
        .filter(|d| before.contains(d))
        .filter_map(|(front, _, up)| match up {
            Up::Army(a) if attackers.iter().any(|n| *n == s.name(a)) => None,
            Up::Army(a) => Some(s.name(a).to_string()),
            Up::Dummy(_) => Some(format!("a dummy on front {front}")),
        })
        .map(|what| {
            Violation::new(
                "TFWW 6.0",
                format!(
                    "{what} was turned face down by the rules (4.2/1, 6.0) and is still face up: it goes under a fresh commitment in this entry (`hide`; the author's tool does it)"
                ),
            )
        })
        .collect()
}

/// `Ruleset::view`: what `seat` may know of the face-down pieces.
pub fn strip(s: &mut State, seat: &str) {
    let hide: Vec<bool> = s.pieces.iter().map(|p| !visible(s, seat, &p.seat)).collect();
    for (p, h) in s.pieces.iter_mut().zip(hide) {
        if h {
            p.ident = None;
        }
    }
    s.fresh.clear();
}

/// Public invariant (H-1, H-2): per faction, face-down pieces = face-down armies + dummies.
pub fn check_counts(s: &State) -> Result<(), String> {
    for f in Faction::ALL {
        let pieces = s.pieces.iter().filter(|p| p.faction == f).count();
        let armies = (0..s.armies.len()).filter(|&a| s.armies[a] == Where::Hidden && s.data.armies[a].faction == f).count();
        let dummies = s.dummies.iter().filter(|d| d.faction == f && d.face_down).count();
        if pieces != armies + dummies {
            return Err(format!("{}: {pieces} face-down pieces for {armies} face-down armies and {dummies} dummies", f.code()));
        }
    }
    for p in &s.pieces {
        if let Some(Ident::Army(a)) = p.ident
            && s.data.armies[a].faction != p.faction
        {
            return Err(format!("{} holds {} under a {} back", p.id, s.name(a), p.faction.code()));
        }
    }
    Ok(())
}

/// The text of a face-down piece for `describe`.
pub fn text(s: &State, p: &Piece) -> String {
    let what = match p.ident {
        Some(Ident::Army(a)) => format!("{}({})", s.name(a), s.data.armies[a].value),
        Some(Ident::Dummy) => "dummy".into(),
        None => "?".into(),
    };
    format!("{}[{} face down: {what}{}]", p.id, p.faction.code(), if p.ga { ", GA" } else { "" })
}
