//! What players read: the expectation, the state as text, templates, previews; and the
//! invariants.

use super::Orders;
use super::combat::{self, RetreatTo};
use super::orders::ActionKind;
use super::stacking;
use super::state::{Place, RetreatNeed, SideId, Stage, State};
use super::turn;
use super::vp;
use crate::engine::{Await, Expectation};
use crate::geo::hex::HexId;

/// `"FR-9 (3 SL), FR-42 (2 SL)"`.
fn list_sl(state: &State, ids: &[String]) -> String {
    ids.iter().filter_map(|id| state.unit(id)).map(|u| format!("{} ({} SL)", u.id, u.sl)).collect::<Vec<_>>().join(", ")
}

/// What the awaited seat must decide, in player words.
pub fn decision_text(state: &State) -> Option<String> {
    let b = state.battle.as_ref()?;
    match b.stage {
        Stage::Roll => None,
        Stage::Withdraw => {
            let Some((ids, opts)) = combat::withdraw_options(state) else {
                // Only after hidden defenders were shown (GE 13.8): they are not cavalry
                // alone, or have nowhere to go.
                return Some(format!(
                    "{}: the defenders of {} cannot withdraw before combat (GE 13.25): stand (decide: {{}}); the roll is then your entry's ({})",
                    b.attacker.other().name(),
                    b.target,
                    b.describe()
                ));
            };
            let hexes: Vec<String> =
                opts.iter().filter_map(|o| if let RetreatTo::Hex(h) = o { Some(h.to_string()) } else { None }).collect();
            Some(format!(
                "{}: cavalry retreat before combat (GE 13.25): {} in {} may withdraw to {} (decide: {{retreat: HEX}}) or stand and fight (decide: {{}}) ({}); standing cavalry_withdraws and retreat instructions would answer this",
                b.attacker.other().name(),
                list_sl(state, &ids),
                b.target,
                hexes.join(" or "),
                b.describe()
            ))
        }
        Stage::Defender { lp, retreat } => {
            let live = combat::live_defenders(state);
            let mut parts = Vec::new();
            if combat::forced_allocation(state, &live, lp).is_none() {
                parts.push(format!("allocate {lp} loss points among {} in {}", list_sl(state, &live), b.target));
            }
            let mobile: Vec<String> = live.iter().filter(|id| state.unit(id).is_some_and(|u| u.mobile())).cloned().collect();
            let opts: Vec<String> = combat::retreat_options(state, b.target, b.attacker.other(), &mobile)
                .into_iter()
                .filter_map(|o| if let RetreatTo::Hex(h) = o { Some(h.to_string()) } else { None })
                .collect();
            match retreat {
                RetreatNeed::Mandatory => parts.push(format!("retreat (mandatory) to {}", opts.join(" or "))),
                RetreatNeed::Optional if !opts.is_empty() => {
                    let credit = combat::fortress_credit(state, &live);
                    let note = if credit > 0 {
                        format!(" (retreating out of the fortress, its {credit} SL count toward the {lp} LP, GE 14.5)")
                    } else {
                        String::new()
                    };
                    parts.push(format!("retreat (optional) to {}, or stay{note}", opts.join(" or ")))
                }
                _ => {}
            }
            if parts.is_empty() && b.dummies {
                parts.push(format!("only dummies defended {} and are removed (GE 15.2): answer decide: {{}}", b.target));
            } else if parts.is_empty() {
                parts.push("take the result (decide: {})".into());
            }
            Some(format!(
                "{}: {} ({}: result {})",
                b.attacker.other().name(),
                parts.join("; then "),
                b.describe(),
                b.result.map(|r| r.to_string()).unwrap_or_default()
            ))
        }
        Stage::Opening { die } => Some(format!(
            "{}: open {} defending {} (GE 13.8), then decide the result{} in the same entry (orders with decide)",
            b.attacker.other().name(),
            super::counters::opening_due(state).join(", "),
            b.target,
            if die.is_some() { " of the kept die" } else { " (withdraw or stand, GE 13.25)" }
        )),
        Stage::Attacker { lp } => {
            let live = combat::live_attackers(state);
            let mut parts = Vec::new();
            if combat::forced_allocation(state, &live, lp).is_none() {
                parts.push(format!("allocate {lp} loss points among {}", list_sl(state, &live)));
            }
            // GE 13.21: offer only the advances the rules would accept (a defender that stayed
            // holds the hex; cavalry stays out of an enemy trench; stacking limits the rest).
            let movers = combat::advancers(state, &live);
            if movers.is_empty() && state.occupant(b.target) == Some(b.attacker.other()) {
                parts.push(format!("no advance: the defender still holds {} (GE 13.21)", b.target));
            } else if movers.is_empty() {
                parts.push(format!("no advance: none of them may enter {} (GE 9.4, 13.21, stacking)", b.target));
            } else {
                parts.push(format!("advance into {} with any of {} (or none)", b.target, movers.join(", ")));
            }
            if b.dummies {
                parts.push("if every attacker advances, the force may make another prepared assault (GE 15.2)".into());
            }
            Some(format!("{}: {}", b.attacker.name(), parts.join("; then ")))
        }
    }
}

/// Who may send what now.
pub fn awaits(state: &State) -> Vec<Await> {
    awaits_worded(state, true)
}

/// The seats [`awaits`] names, without its words: the engine asks after every entry of a
/// replay, and the sentences were a twentieth of the rules' part of `verify` (issue 20).
pub fn awaited_seats(state: &State) -> Vec<String> {
    awaits_worded(state, false).into_iter().map(|a| a.seat).collect()
}

/// [`awaits`], its `what` left empty unless `worded`.
fn awaits_worded(state: &State, worded: bool) -> Vec<Await> {
    // The sentence only when it is wanted; the seat never depends on it.
    macro_rules! say {
        ($($t:tt)*) => {
            if worded { format!($($t)*) } else { String::new() }
        };
    }
    if state.outcome.is_some() {
        return vec![];
    }
    let reveal = super::counters::awaited(state);
    if !reveal.is_empty() {
        // One seat at a time (DESIGN §2.5): the sides open in turn.
        return reveal
            .into_iter()
            .take(1)
            .map(|side| Await {
                seat: state.seat(side),
                what: say!("{}: the game is over; open every hidden counter of yours (open_counters: true, GE 13.8)", side.name()),
            })
            .collect();
    }
    if let Some((side, what)) = super::secret::awaited(state) {
        return vec![Await { seat: state.seat(side), what: say!("{}: {what}", side.name()) }];
    }
    if super::lead::is_due(state) {
        let what = if worded { super::lead::due(state).unwrap_or_default() } else { String::new() };
        return vec![Await {
            seat: state.seat(state.player),
            what: say!(
                "{}: your entry opens with the {what}, rolled before your orders are read (a leading roll: `umpire status --key` shows it); then replacements, entrenchment and phase E",
                state.player.name()
            ),
        }];
    }
    match state.command {
        Some(super::state::CommandStage::Pick { count }) => {
            let hexes = || state.command_stacks().iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ");
            return vec![Await {
                seat: state.seat(state.player.other()),
                what: say!(
                    "{}: command & control roll of 6: name {count} {} stacks to go out of command (out_of_command: [...]) among {}",
                    state.player.other().name(),
                    state.player.title(),
                    hexes()
                ),
            }];
        }
        None => {}
    }
    if let Some(b) = &state.battle {
        if b.stage == Stage::Roll {
            // A roll made in the defender's own entry (he stood, GE-13.25) is revealed by the
            // attacker's next entry.
            let d = if b.stood { b.attacker } else { b.attacker.other() };
            let what = if !worded {
                String::new()
            } else if b.opening {
                format!(
                    "your next entry resolves the dice of the {}, opens {} and decides the result (orders with decide; GE 13.8)",
                    b.describe(),
                    combat::hidden_in_target(state, b.attacker, b.target).join(", ")
                )
            } else {
                format!("your next entry resolves the dice of the {}; then decide its results if asked (or send an ack)", b.describe())
            };
            return vec![Await { seat: state.seat(d), what }];
        }
        let who = turn::actor(state).unwrap_or(b.attacker);
        let what = if worded { decision_text(state).unwrap_or_default() } else { String::new() };
        return vec![Await { seat: state.seat(who), what }];
    }
    let what = match state.phase {
        super::state::Phase::Command => "the out-of-command stacks named, then phase E",
        super::state::Phase::Movement => {
            "first replacements and reinforcements (replace, enter), then move units and groups, march-assault, then end_phase: movement"
        }
        super::state::Phase::Combat => "declare prepared assaults one at a time, then end_phase: combat (ends the player turn)",
    };
    vec![Await { seat: state.seat(state.player), what: say!("{}: {what}", state.player.name()) }]
}

/// The expectation.
pub fn expect(state: &State) -> Expectation {
    if super::secret::in_progress(state) {
        return Expectation { when: format!("Setup before {} (GE 3.3)", state.turn_text()), awaits: awaits(state) };
    }
    Expectation {
        when: format!("{}, {} player turn, {}", state.turn_text(), state.player.title(), state.phase_text()),
        awaits: awaits(state),
    }
}

/// Stable, line-oriented text of the state.
pub fn describe(state: &State) -> String {
    let mut out = Vec::new();
    out.push(format!(
        "turn {} ({}) {} player turn, {}",
        state.turn,
        super::state::dates(state.turn),
        state.player.name(),
        state.phase_text()
    ));
    let (de, al) = vp::totals(state);
    out.push(format!(
        "vp german {} allied {} (ledger german {} allied {})",
        de,
        al,
        state.vp.get(&SideId::German).copied().unwrap_or(0),
        state.vp.get(&SideId::Allied).copied().unwrap_or(0)
    ));
    out.extend(vp::source_lines(state));
    if !state.replacements.is_empty() {
        out.push(format!("replacements {}", state.replacements.iter().map(|(n, sl)| format!("{n} {sl}")).collect::<Vec<_>>().join(", ")));
    }
    let supply = super::supply::SupplyAll::of(state);
    for u in &state.units {
        let at = match u.place {
            Place::Hex(h) => format!("at {h}"),
            Place::Reinforcement(t) => format!("arrives turn {t}"),
            Place::Eliminated => "eliminated".into(),
            Place::OffMap => "off map".into(),
            Place::Unplaced => "to be placed in secret (GE 3.3)".into(),
        };
        let mut flags = Vec::new();
        if u.ooc {
            flags.push("ooc");
        }
        if u.replaced {
            flags.push("replaced");
        }
        if u.entrenching {
            flags.push("entrenching");
        }
        if u.moved {
            flags.push("moved");
        }
        if u.attacked {
            flags.push("attacked");
        }
        if u.retreated {
            flags.push("retreated");
        }
        let f = if flags.is_empty() { String::new() } else { format!(" [{}]", flags.join(" ")) };
        if super::counters::is_hidden(u) {
            out.push(format!("unit {} hidden {} counter {at}{f}{}", u.id, u.nation, super::counters::describe_identity(state, u)));
            continue;
        }
        // On the map: the factors at the current SL, supply and command (state in words).
        let on_map = match u.place {
            Place::Hex(_) if u.kind != super::state::Kind::Fortress => {
                let now = u.now();
                let sup = if supply.unit(u, super::supply::Use::General) { "supplied" } else { "out of supply" };
                let cmd = if u.ooc { "out of command" } else { "in command" };
                format!(" — attack {} defence {} movement {}, {sup}, {cmd}", now.attack, now.defence, now.movement)
            }
            _ => String::new(),
        };
        out.push(format!("unit {} {} {}/{} SL {at}{f}{on_map}", u.id, u.name, u.sl, u.max_sl));
    }
    let mut hexes: Vec<_> = state.control.keys().chain(state.initial_control.keys()).copied().collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        let now = state.control(h);
        let was = state.initial_control.get(&h).copied();
        if now != was {
            let cav = if state.control.get(&h).copied() != now { " (cavalry, while present)" } else { "" };
            out.push(format!("control {h} {} (was {}){cav}", now.map_or("none", |s| s.name()), was.map_or("none", |s| s.name())));
        }
    }
    // Occupied hexes never listed in the control maps.
    for u in &state.units {
        if let Some(h) = u.hex()
            && !state.control.contains_key(&h)
            && !state.initial_control.contains_key(&h)
        {
            out.push(format!("control {h} {} (occupied)", u.side.name()));
        }
    }
    match state.command {
        Some(super::state::CommandStage::Pick { count }) => {
            out.push(format!("command & control roll 6: {count} stacks to go out of command"))
        }
        None => {}
    }
    if let Some(what) = super::lead::due(state) {
        out.push(format!("leading roll due: {what}"));
    }
    if let Some(b) = &state.battle {
        out.push(format!("battle {}: {}", b.describe(), b.stage.words()).replace('\n', " "));
        if let Some(t) = decision_text(state) {
            out.push(format!("awaiting {t}"));
        }
    }
    if let Some(rest) = state.batch.as_ref().filter(|r| !r.is_empty()) {
        let next: Vec<String> = rest.iter().map(|a| format!("{} by {}", a.target, a.units.join(", "))).collect();
        out.push(format!("batch of prepared assaults (GE 13.2): still to make {}", next.join("; ")));
    }
    for (h, t) in &state.trenches {
        out.push(format!("trench {h} {} {}", t.side.name(), if t.complete { "completed" } else { "under construction" }));
    }
    for (h, z) in &state.fortified {
        out.push(format!("fortified zone {h} {} ({})", z.side.name(), z.nation));
    }
    for (id, c) in &state.siege.calibre {
        out.push(format!("siege gun {id} {c} mm"));
    }
    match state.entrench {
        Some(super::entrench::Roll::Rolled { die, used }) => {
            out.push(format!("entrenchment roll {die}{}", if die <= 3 && !used { ": one unit may entrench" } else { "" }))
        }
        None => {}
    }
    out.extend(super::secret::describe(state));
    for (side, st) in &state.standing {
        out.push(format!("standing {}: {}", side.name(), st.describe()));
    }
    if let Some(o) = &state.outcome {
        out.push(format!("outcome: {}", crate::engine::game::describe_outcome(o)));
    }
    out.dedup();
    out.join("\n") + "\n"
}

/// A commented YAML skeleton of what `seat` is expected to send now.
pub fn template(state: &State, seat: &str) -> String {
    let side = state.side_of(seat);
    let mut t = String::new();
    t.push_str(&format!("# {}\n", expect(state).when));
    if super::secret::in_progress(state) {
        t.push_str(&super::secret::template(state, seat).unwrap_or_else(|| "# nothing is expected of you now\nactions: []\n".into()));
        return t;
    }
    for a in awaits(state) {
        t.push_str(&format!("# awaits {}: {}\n", a.seat, a.what));
    }
    if side.is_none() || turn::actor(state) != side {
        t.push_str("# nothing is expected of you now\nactions: []\n");
        return t;
    }
    // The position as this seat may see it (hidden stacks and counters stay hidden, GE 13.8).
    let seen = super::GlorysEnd::view_for(state, seat);
    let (units, options) = side.map(|s| position(&seen, s)).unwrap_or_default();
    if let Some(super::state::CommandStage::Pick { count }) = state.command {
        t.push_str(&units_only(&units));
        let stacks = state.command_stacks();
        t.push_str(&format!(
            "# decision owed: the {} command & control roll was a 6 (GE 10.2): name {count} of the {} stacks to go out of command\nactions:\n  - out_of_command: [{}]   # {count} hexes among {}\n",
            state.player.name(),
            state.player.name(),
            stacks.iter().take(count as usize).map(|h| h.to_string()).collect::<Vec<_>>().join(", "),
            stacks.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ")
        ));
        return t;
    }
    if state.battle.is_some() {
        t.push_str(&units_only(&units));
        if let Some(d) = decision_text(state) {
            t.push_str(&format!("# decision owed: {d}\n"));
        }
        // GE 13.8: the tool opens the attacked counters; the decision is the one after that.
        if let Some(p) = side.and_then(|s| super::counters::opened_preview(state, s))
            && let Some(d) = decision_text(&p)
        {
            t.push_str(&format!("# once your tool has opened them (orders sign): {d}\n"));
        }
        // GE 13.20: losses owed are written out as a legal allocation, for the player to change.
        let losses = match super::legal::example_losses(state, seat) {
            Some(l) => format!(
                "      losses: [{}]   # a legal allocation: change it as you wish\n",
                l.iter().map(|l| format!("{{unit: {}, sl: {}}}", l.unit, l.sl)).collect::<Vec<_>>().join(", ")
            ),
            None => "      losses: []        # e.g. [{unit: FR-9, sl: 1}] when losses are owed\n".to_string(),
        };
        t.push_str(&format!("actions:\n  - decide:\n{losses}"));
        match state.battle.as_ref().map(|b| &b.stage) {
            Some(Stage::Attacker { .. }) => {
                // Only the advance GE 13.21 allows is offered (never into a hex still held).
                let movers = combat::advancers(state, &combat::live_attackers(state));
                if !movers.is_empty() {
                    t.push_str(&format!("      # advance: [{}]   # any of them, or leave out\n", movers.join(", ")));
                }
            }
            _ => t.push_str("      # retreat: 3331    # retreat hex (before combat, GE 13.25: withdrawal hex; omit to stand)\n"),
        }
        t.push_str("  # - standing: {losses: [spread], retreat: [toward-supply], optional_retreat: never, cavalry_withdraws: always}\n");
        return t;
    }
    t.push_str(&units);
    let start = t.len();
    match state.phase {
        super::state::Phase::Movement => t.push_str("actions:\n  # - enter: {unit: ID, hex: HEX}                 # reinforcement on your supply edge\n  # - replace: {unit: ID}                         # 1 replacement SL to a reduced infantry unit\n  # - strategic: {units: [ID, ...], to: HEX}      # phase D (GE 11): by rail, or add by: sea (Allied, T8+)\n  # - forced_march: [ID, ...]                     # German T2-T6 (GE 12.10), before the unit moves\n  # - move: {units: [ID, ...], path: [HEX, ...]}  # hexes entered in order\n  # - march_assault: {units: [ID, ...], target: HEX}\n  - end_phase: movement\n"),
        super::state::Phase::Command => t.push_str("# your entry opens with the command & control roll (from T10 the entrenchment roll first), a leading\n# roll: `umpire orders template --key YOUR.key` writes this template for the situation after it\nactions: []\n"),
        super::state::Phase::Combat => t.push_str("actions:\n  # - attack: {target: HEX, units: [ID, ...]}\n  - end_phase: combat\n"),
    }
    // The options of this position go first in the list, each a line to uncomment.
    if !options.is_empty() {
        let body = t.split_off(start).replacen("actions:\n", &format!("actions:\n{}", options.join("")), 1);
        t.push_str(&body);
    }
    t
}

/// The unit lines of a position (without the closing remark on attacks in reach).
fn units_only(units: &str) -> String {
    units.lines().filter(|l| l.starts_with("# your units") || l.starts_with("#   ")).map(|l| format!("{l}\n")).collect()
}

/// The position in a template: comment lines on the seat's own units with what they can do
/// this phase, and the options of the moment as commented actions to uncomment (what is due
/// now; in the prepared assault phase each attack within reach with its odds). `seen` is the
/// seat's view, so nothing hidden from it is used.
fn position(seen: &State, side: SideId) -> (String, Vec<String>) {
    use super::state::Phase;
    let mut t = String::from("# your units: id, hex, MP left this phase, attack/defence at the current SL, SL, supply, command\n");
    let supply = super::supply::SupplyAll::of(seen);
    for u in seen.units.iter().filter(|u| u.side == side && !super::counters::is_hidden(u)) {
        let Some(h) = u.hex() else { continue };
        if u.kind == super::state::Kind::Fortress {
            continue;
        }
        let now = u.now();
        let mut mp = format!("{} MP", u.mp_left());
        let mut why = Vec::new();
        if u.ooc {
            why.push(format!("{} halved: out of command, GE 10.2", now.movement + u32::from(u.forced_march)));
        }
        if u.forced_march {
            why.push("+1 forced march, GE 12.10".to_string());
        }
        if u.mp_spent > 0 {
            why.push(format!("{} spent", u.mp_spent));
        }
        if u.strategic.is_some() {
            why.push("moved strategically: nothing more this turn, GE 12.2".into());
        }
        if !why.is_empty() {
            mp = format!("{mp} ({})", why.join("; "));
        }
        let sup = if supply.unit(u, super::supply::Use::General) { "supplied" } else { "OUT OF SUPPLY (GE 7)" };
        let cmd = if u.ooc { "out of command" } else { "in command" };
        t.push_str(&format!("#   {:<7} {h}  {mp}  a{}/d{}  {}/{} SL  {sup}  {cmd}\n", u.id, now.attack, now.defence, u.sl, u.max_sl));
    }
    let mut opts = Vec::new();
    if seen.phase == Phase::Movement && !seen.units.iter().any(|u| u.side == side && u.moved) {
        for u in seen.units.iter().filter(|u| u.side == side && matches!(u.place, Place::Reinforcement(turn) if turn <= seen.turn)) {
            let hexes: Vec<String> = super::reinforce::entry_hexes(seen, &u.id).iter().take(8).map(|h| h.to_string()).collect();
            match hexes.first() {
                Some(first) => opts.push(format!(
                    "  # - enter: {{unit: {}, hex: {first}}}   # reinforcement due; may enter at {}\n",
                    u.id,
                    hexes.join(", ")
                )),
                None => t.push_str(&format!("# reinforcement {} is due but no entry hex is open now\n", u.id)),
            }
        }
        for u in seen.units.iter().filter(|u| u.side == side && u.hex().is_some() && u.sl < u.max_sl) {
            let mut probe = seen.clone();
            if super::replacements::step_replace(&mut probe, side, &u.id, None).is_ok() {
                let left = seen.replacements.get(&u.nation).copied().unwrap_or(0);
                opts.push(format!(
                    "  # - replace: {{unit: {}}}   # {}/{} SL; {left} {} replacement SL left\n",
                    u.id, u.sl, u.max_sl, u.nation
                ));
            }
        }
    }
    if seen.phase == Phase::Combat {
        let mut targets: Vec<HexId> = seen
            .units
            .iter()
            .filter(|e| e.side != side)
            .filter_map(|e| e.hex())
            .filter(|h| seen.units.iter().any(|u| u.side == side && u.hex().is_some_and(|x| x.is_adjacent(*h))))
            .collect();
        targets.sort();
        targets.dedup();
        for h in targets {
            let force = super::legal::pa_force(seen, side, h);
            if force.is_empty() {
                continue;
            }
            if let Ok(b) = combat::declare(seen, super::state::BattleKind::Prepared, side, h, &force) {
                opts.push(format!(
                    "  # - attack: {{target: {h}, units: [{}]}}   # attack {} vs the defence {} you can see: {}\n",
                    force.join(", "),
                    b.attack,
                    b.defence,
                    b.describe()
                ));
            }
        }
        if opts.is_empty() {
            t.push_str("# no enemy hex is within reach of a unit that may still attack\n");
        }
    }
    (t, opts)
}

/// What is certain about orders: each move's path and MP, each attack's odds and DRMs.
pub fn preview(state: &State, seat: &str, orders: &Orders) -> Vec<String> {
    let Some(side) = state.side_of(seat) else { return vec![format!("{seat} is not a seat")] };
    let mut s = state.clone();
    let mut out = Vec::new();
    for (i, a) in orders.actions.iter().enumerate() {
        if s.battle.as_ref().is_some_and(|b| b.stage == Stage::Roll) {
            out.push(format!("action {}: not reached (a roll is pending)", i + 1));
            continue;
        }
        match turn::step(&mut s, side, &a.0) {
            Ok(ev) => {
                let pending = match (&a.0, &s.battle) {
                    (ActionKind::MarchAssault(_) | ActionKind::Attack(_) | ActionKind::Attacks(_), Some(b)) if b.stage == Stage::Roll => {
                        format!(" — roll pending: {}", b.describe())
                    }
                    _ => String::new(),
                };
                out.push(format!("action {}: {}{pending}", i + 1, ev.iter().map(|e| e.text.clone()).collect::<Vec<_>>().join("; ")));
            }
            Err(v) => out.push(format!("action {}: refused: {}", i + 1, v.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("; "))),
        }
    }
    out
}

/// Hidden stacks (GE 13.8): of each stack of the other side, `seat`'s view keeps only the
/// top unit, unless the stack is under an attack already declared (then the defenders are
/// revealed). Reading: the top unit is the stack's first unit in the roster order (the
/// owner does not choose it; G.3). A seat of neither side sees the top units of both.
pub fn hide_stacks(state: &mut State, seat: &str) {
    // With hidden counters the owners choose what is shown, and what is shown is in the log.
    if super::counters::enabled(state) {
        return;
    }
    let me = state.side_of(seat);
    let revealed = state.battle.as_ref().map(|b| b.target);
    let mut seen = std::collections::BTreeSet::new();
    state.units.retain(|u| {
        let Some(h) = u.hex() else { return true };
        // Fortresses are never hidden (G.3).
        if Some(u.side) == me || Some(h) == revealed || u.kind == super::state::Kind::Fortress {
            return true;
        }
        // The first unit met in a hex is its top unit.
        seen.insert(h)
    });
}

/// The first eight bytes of a unit id as a number ordered as the bytes are.
fn id_prefix(id: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = id.len().min(8);
    b[..n].copy_from_slice(&id.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

/// Stacking, map, SL, one side per hex, VP ledger.
pub fn check_invariants(state: &State) -> Result<(), String> {
    // Units on the map as one list sorted by hex (stable: unit order within a hex), not a map
    // of lists: this runs after every entry of a replay (issue 20).
    let mut on_map: Vec<(HexId, &super::state::Unit)> = Vec::with_capacity(state.units.len());
    let mut ids: Vec<(u64, &str)> = Vec::with_capacity(state.units.len());
    for u in &state.units {
        ids.push((id_prefix(&u.id), &u.id));
        match u.place {
            Place::Hex(h) => {
                if !state.board.in_play(h) {
                    return Err(format!("{} is on {h}, not on the map", u.id));
                }
                if u.sl == 0 || u.sl > u.max_sl {
                    return Err(format!("{} has {} SL (max {})", u.id, u.sl, u.max_sl));
                }
                on_map.push((h, u));
            }
            Place::Eliminated if u.sl != 0 => return Err(format!("{} eliminated with SL", u.id)),
            _ => {}
        }
    }
    // Sorted by their first eight bytes, then whole: equal ids end up side by side, and most
    // comparisons are of one integer instead of two strings.
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("unit id {} twice", w[0].1));
    }
    on_map.sort_by_key(|(h, _)| *h);
    for stack in on_map.chunk_by(|a, b| a.0 == b.0) {
        let h = stack[0].0;
        let side = stack[0].1.side;
        if stack.iter().any(|(_, u)| u.side != side) {
            return Err(format!("both sides in {h}"));
        }
        let sl: u32 = stack.iter().map(|(_, u)| super::counters::stack_sl(state, u)).sum();
        let corps = stack.iter().filter(|(_, u)| u.is_corps()).count() as u32;
        if sl > stacking::MAX_SL || corps > stacking::MAX_CORPS {
            return Err(format!("stacking broken in {h}: {sl} SL, {corps} corps"));
        }
    }
    // GE-14.3: an enemy unit never stands in an intact fortified zone (entering removes it).
    for (h, z) in &state.fortified {
        let first = on_map.partition_point(|(x, _)| x < h);
        if on_map[first..].iter().take_while(|(x, _)| x == h).any(|(_, u)| u.side != z.side) {
            return Err(format!("{} units in the {} fortified zone at {h}", z.side.other().name(), z.side.name()));
        }
    }
    let (de, al) = vp::recompute_ledger(state);
    if state.vp.get(&SideId::German).copied().unwrap_or(0) != de || state.vp.get(&SideId::Allied).copied().unwrap_or(0) != al {
        return Err(format!("VP ledger {:?} differs from recomputed german {de} allied {al}", state.vp));
    }
    Ok(())
}
