//! JSON Schemas generated from the Rust types; `tests/schemas.rs` keeps `schemas/` current.

use schemars::JsonSchema;
use serde::Serialize;

use crate::crypto::Hash;
use crate::engine::registry::ALL;
use crate::log::entry::Body;

/// The shape of an entry (DESIGN §2.2), for editors and other implementations. The
/// authoritative format is the byte-level description in DESIGN §2.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct EntryShape {
    /// Always `entry/1`.
    umpire: String,
    /// Hash of entry 0 (absent in entry 0).
    game: Option<Hash>,
    seq: u64,
    /// Hash of the previous entry (absent in entry 0).
    prev: Option<Hash>,
    seat: String,
    /// The seat's next hash-chain value (absent in its first entry).
    reveal: Option<Hash>,
    /// Seat of another side whose next entry seeds this entry's dice.
    dice_from: Option<String>,
    /// RFC 3339 UTC.
    time: String,
    body: Body,
    /// `ed25519:<base64 of 64 bytes>`; the last line.
    sig: String,
}

fn pretty(s: &schemars::Schema) -> String {
    let mut t = serde_json::to_string_pretty(s).expect("schemas serialise");
    t.push('\n');
    t
}

/// Every schema as (file name, text).
pub fn all() -> Vec<(String, String)> {
    let mut out = vec![("entry.json".to_string(), pretty(&schemars::schema_for!(EntryShape)))];
    for r in ALL {
        out.push((format!("orders-{}.json", r.id()), pretty(&r.orders_schema())));
    }
    out.push(("scenario-glorys-end.json".to_string(), pretty(&crate::rules::glorys_end::scenario::schema())));
    out.push(("scenario-first-world-war.json".to_string(), pretty(&crate::rules::first_world_war::scenario::schema())));
    out.push(("scenario-when-eagles-fight.json".to_string(), pretty(&crate::rules::when_eagles_fight::scenario::schema())));
    out.push(("scenario-jours-de-gloire.json".to_string(), pretty(&crate::rules::jours_de_gloire::scenario::schema())));
    out.push(("scenario-steel-wheels.json".to_string(), pretty(&crate::rules::steel_wheels::scenario::schema())));
    out.push(("scenario-roads-to-leningrad.json".to_string(), pretty(&crate::rules::roads_to_leningrad::scenario::schema())));
    out.push(("rule-case.json".to_string(), pretty(&schemars::schema_for!(crate::engine::cases::RuleCase))));
    out
}
