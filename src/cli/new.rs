//! `umpire new` (the genesis) and `umpire join`.

use std::path::PathBuf;

use super::SignerArgs;
use super::common::{self, CliError, fail};
use super::term::{one_line, say};
use crate::crypto::chain::{chain_seed, chain_value};
use crate::crypto::keys::{PublicKey, SecretKey};
use crate::crypto::{Hash, sha256};
use crate::engine::RulesetId;
use crate::engine::game::Game;
use crate::log::entry::{Body, Draft, Kind, RulesetRef, ScenarioRef, SeatDecl};
use crate::log::protocol::DEFAULT_CHAIN_LENGTH;
use crate::log::store;

/// The help text after the options of `umpire new`: an example and every bundled scenario
/// (from [`crate::scenarios::ALL`], so the list cannot fall behind).
fn new_after_help() -> String {
    let mut t = "Example:\n  umpire new --scenario glorys-end/marne --seat german=alice.pub --seat allied=bob.pub \\\n             --as german --key alice.key -o game.log\n\nBundled scenarios:".to_string();
    for b in crate::scenarios::ALL {
        t.push_str(&format!("\n  {}", b.name));
    }
    t
}

/// Arguments of `umpire new`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = new_after_help()
)]
pub struct NewArgs {
    /// A bundled scenario (`glorys-end/marne`).
    #[arg(long, conflicts_with = "scenario_file", required_unless_present = "scenario_file")]
    pub scenario: Option<String>,
    /// A scenario file of your own; with --ruleset.
    #[arg(long, value_name = "FILE", requires = "ruleset")]
    pub scenario_file: Option<PathBuf>,
    /// Ruleset of --scenario-file (`glorys-end`).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// A seat and its player's public key: `SEAT=FILE.pub`, or `SEAT@SIDE=FILE.pub` when a side
    /// has several seats. Give one per seat.
    #[arg(long = "seat", value_name = "SEAT=PUBKEY", required = true)]
    pub seats: Vec<String>,
    /// Your seat.
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: String,
    /// Your secret key file.
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The log file to create.
    #[arg(short = 'o', long = "output", value_name = "LOG", default_value = "game.log")]
    pub output: PathBuf,
    /// Optional rules, `NAME=VALUE` (YAML value), recorded in the genesis.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Length of each seat's hash chain (entries a seat can sign).
    #[arg(long, default_value_t = DEFAULT_CHAIN_LENGTH)]
    pub chain_length: u64,
    /// A note for the other players.
    #[arg(long)]
    pub note: Option<String>,
}

/// Arguments of `umpire join`.
#[derive(Debug, clap::Args)]
pub struct JoinArgs {
    /// The game: a log, the genesis entry file you were sent, the email message that brought
    /// it (.eml), an mbox, or `-` for a message piped from your mail client.
    pub game: PathBuf,
    #[command(flatten)]
    pub signer: SignerArgs,
    /// The log to create when GAME is an entry file.
    #[arg(short = 'o', long = "output", value_name = "LOG", default_value = "game.log")]
    pub output: PathBuf,
}

fn parse_seat(spec: &str) -> Result<(String, String, PathBuf), CliError> {
    let Some((lhs, file)) = spec.split_once('=') else {
        return Err(CliError::Usage(format!("--seat {spec:?}: want SEAT=FILE.pub")));
    };
    let (seat, side) = match lhs.split_once('@') {
        Some((s, side)) => (s.to_string(), side.to_string()),
        None => (lhs.to_string(), lhs.to_string()),
    };
    if seat.is_empty() || side.is_empty() || !seat.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(CliError::Usage(format!("--seat {spec:?}: seat names are letters, digits, - and _")));
    }
    Ok((seat, side, PathBuf::from(file)))
}

fn random_nonce() -> Result<Hash, CliError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| CliError::Other(format!("no randomness from the operating system: {e}")))?;
    Ok(Hash(b))
}

/// The chain anchor `c_0` of `seat`.
pub fn anchor(key: &SecretKey, nonce: &Hash, seat: &str, length: u64) -> Hash {
    let s = chain_seed(&key.seed(), nonce.as_bytes(), seat);
    chain_value(&s, length, 0).expect("index 0 is always in range")
}

/// Everything a genesis needs, resolved from arguments.
pub struct GenesisPlan {
    pub ruleset: RulesetId,
    pub scenario_name: String,
    pub scenario_text: String,
    pub seats: Vec<SeatDecl>,
    pub options: Option<yaml_serde::Value>,
    pub chain_length: u64,
    pub nonce: Hash,
    pub note: Option<String>,
}

/// Sign a genesis for `seat` and check the game can start from it.
pub fn make_genesis(plan: &GenesisPlan, seat: &str, key: &SecretKey) -> Result<crate::log::Entry, CliError> {
    let mut body = Body::new(Kind::Genesis);
    body.ruleset = Some(RulesetRef { id: plan.ruleset.id().into(), version: plan.ruleset.version().into() });
    body.engine = Some(format!("umpire {}", env!("CARGO_PKG_VERSION")));
    body.scenario = Some(ScenarioRef {
        name: plan.scenario_name.clone(),
        sha256: sha256(plan.scenario_text.as_bytes()),
        text: plan.scenario_text.clone(),
    });
    body.options = plan.options.clone();
    body.seats = Some(plan.seats.clone());
    body.nonce = Some(plan.nonce);
    body.chain_length = Some(plan.chain_length);
    body.chain = Some(anchor(key, &plan.nonce, seat, plan.chain_length));
    body.note = plan.note.clone();
    let draft = Draft { game: None, seq: 0, prev: None, seat: seat.to_string(), reveal: None, dice_from: None, time: common::now(), body };
    let entry = draft.try_sign(key).map_err(|e| CliError::Other(format!("cannot make the genesis: {e}")))?;
    Game::from_genesis(&entry)?;
    Ok(entry)
}

/// `umpire new`.
pub fn run_new(a: NewArgs) -> Result<i32, CliError> {
    let (ruleset, name, text) = match (&a.scenario, &a.scenario_file) {
        (Some(n), _) => {
            let Some(b) = crate::scenarios::find(n) else {
                let names: Vec<_> = crate::scenarios::ALL.iter().map(|b| b.name).collect();
                return Err(CliError::Usage(format!("no bundled scenario {n:?}; bundled: {}", names.join(", "))));
            };
            (RulesetId::from_id(b.ruleset).expect("bundled scenarios name known rulesets"), b.name.to_string(), b.text.to_string())
        }
        (None, Some(f)) => {
            let rid = a.ruleset.as_deref().unwrap_or_default();
            let Some(r) = RulesetId::from_id(rid) else {
                return Err(CliError::Usage(format!("--ruleset {rid:?}: unknown (known: {})", crate::engine::registry::known_ids())));
            };
            let bytes = common::read_limited(f, 2 * 1024 * 1024)?;
            let text = String::from_utf8(bytes).map_err(|_| CliError::Other(format!("{}: not UTF-8", f.display())))?;
            let name = f.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "custom".into());
            (r, format!("{}/{name}", r.id()), text)
        }
        (None, None) => return Err(CliError::Usage("give --scenario NAME or --scenario-file FILE".into())),
    };
    let mut seats = Vec::new();
    for spec in &a.seats {
        let (seat, side, file) = parse_seat(spec)?;
        if seats.iter().any(|s: &SeatDecl| s.seat == seat) {
            return Err(CliError::Usage(format!("seat {seat:?} given twice")));
        }
        let pk = PublicKey::read_file(&file)?;
        seats.push(SeatDecl { seat, side, key: pk.to_text() });
    }
    let sides: std::collections::BTreeSet<&str> = seats.iter().map(|s| s.side.as_str()).collect();
    if sides.len() < 2 {
        return Err(CliError::Usage(format!(
            "a game needs seats on at least two sides, and {} given; give one --seat SEAT=FILE.pub per seat of the scenario \
             (e.g. --seat german=alice.pub --seat allied=bob.pub), or SEAT@SIDE=FILE.pub to put a seat on a side",
            if seats.len() == 1 { "only one seat was".to_string() } else { format!("all {} seats are on one side", seats.len()) }
        )));
    }
    if !seats.iter().any(|s| s.seat == a.seat) {
        return Err(CliError::Usage(format!("--as {}: not one of the --seat names", a.seat)));
    }
    let key = SecretKey::read_file(&a.key)?;
    let mine = seats.iter().find(|s| s.seat == a.seat).expect("checked above");
    if mine.key != key.public().to_text() {
        return fail(format!("{} is not the key given for seat {} (--seat)", a.key.display(), a.seat));
    }
    let options = parse_options(&a.options)?;
    let plan = GenesisPlan {
        ruleset,
        scenario_name: name,
        scenario_text: text,
        seats,
        options,
        chain_length: a.chain_length,
        nonce: random_nonce()?,
        note: a.note,
    };
    let entry = make_genesis(&plan, &a.seat, &key)?;
    if a.output.exists() {
        return Err(store::StoreError::Exists { path: a.output.clone() }.into());
    }
    let out = common::default_entry_path(&a.output, 0);
    // The entry file is claimed before the log is created, so neither exists without the other.
    let claimed = common::EntryOut::claim(&out, &entry)?;
    store::create_log(&a.output, std::slice::from_ref(&entry))?;
    claimed.write(&entry)?;
    say!("new game {} ({}): {}", entry.hash.short(16), one_line(&plan.scenario_name), a.output.display());
    say!("send {} to the other players; each runs:", out.display());
    for s in &plan.seats {
        if s.seat != a.seat {
            say!(
                "  umpire join {} --as {} --key THEIR.key",
                out.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default(),
                s.seat
            );
        }
    }
    Ok(0)
}

pub(crate) fn parse_options(opts: &[String]) -> Result<Option<yaml_serde::Value>, CliError> {
    if opts.is_empty() {
        return Ok(None);
    }
    let mut map = yaml_serde::Mapping::new();
    for o in opts {
        let Some((k, v)) = o.split_once('=') else {
            return Err(CliError::Usage(format!("--option {o:?}: want NAME=VALUE")));
        };
        let value: yaml_serde::Value =
            crate::log::yamlscan::from_str(v).map_err(|e| CliError::Usage(format!("--option {o:?}: value is not YAML: {e}")))?;
        map.insert(yaml_serde::Value::String(k.to_string()), value);
    }
    Ok(Some(yaml_serde::Value::Mapping(map)))
}

/// The genesis found in a message or mailbox, with the joins of the same game found beside
/// it (in seq order); several games in one mailbox is a question for the player.
fn invitation(found: crate::mail::Found, name: &str) -> Result<Vec<crate::log::entry::Entry>, CliError> {
    let geneses: Vec<_> = found.entries.iter().filter(|f| f.entry.seq() == 0 && f.entry.draft.game.is_none()).collect();
    let genesis = match geneses.as_slice() {
        [one] => one.entry.clone(),
        [] => {
            return fail(format!("{name}: no genesis entry (entry 0) in it: `umpire join` starts from the message that proposed the game"));
        }
        many => {
            let ids: Vec<String> = many.iter().map(|f| format!("{} ({})", f.entry.hash.short(16), f.origin)).collect();
            return fail(format!(
                "{name}: it proposes {} games ({}); save the one to join as a file and join that",
                many.len(),
                ids.join(", ")
            ));
        }
    };
    let mut joins: Vec<_> = found
        .entries
        .iter()
        .filter(|f| f.entry.draft.game == Some(genesis.hash) && f.entry.kind() == Kind::Join)
        .map(|f| f.entry.clone())
        .collect();
    joins.sort_by_key(|e| e.seq());
    joins.dedup_by_key(|e| e.seq());
    let mut all = vec![genesis];
    all.extend(joins);
    Ok(all)
}

/// `umpire join`.
pub fn run_join(a: JoinArgs) -> Result<i32, CliError> {
    let bytes = common::read_limited(&a.game, store::MAX_LOG_BYTES as usize)?;
    let name = if a.game == std::path::Path::new("-") { "standard input".to_string() } else { a.game.display().to_string() };
    // A log (it starts with a `---` line) is joined in place; anything else starts a new log.
    let is_log = a.game != std::path::Path::new("-") && (bytes.starts_with(b"---\n") || bytes.starts_with(b"---\r\n"));
    let entries = match crate::mail::entries_in_input(&bytes, &name).map_err(|e| CliError::Other(e.to_string()))? {
        Some(found) => invitation(found, &name)?,
        None => common::parse_entries(&bytes).map_err(|(i, e)| CliError::Other(format!("{name}: entry {} in the file: {e}", i + 1)))?,
    };
    let log: PathBuf = if is_log { a.game.clone() } else { a.output.clone() };
    if !is_log {
        // An entry file: start a local log from it (genesis, perhaps with earlier joins).
        if log.exists() {
            let existing = store::read_log(&log)?;
            if existing.first().map(|e| e.hash) != entries.first().map(|e| e.hash) {
                return fail(format!("{} exists and holds another game; use -o to choose another log file", log.display()));
            }
        } else {
            common::replay_entries(&entries, &a.game)?;
            store::create_log(&log, &entries)?;
        }
    }
    let (mut locked, game) = common::lock_game(&log)?;
    let key = common::key_for_seat(&game, &a.signer.seat, &a.signer.key)?;
    if game.protocol.chains.contains_key(&a.signer.seat) {
        return fail(format!("seat {} has already joined this game", a.signer.seat));
    }
    let mut body = Body::new(Kind::Join);
    let g = game.genesis();
    body.chain = Some(anchor(&key, &g.nonce, &a.signer.seat, g.chain_length));
    body.note = a.signer.note.clone();
    let entry = common::sign_append_write(&mut locked, &game, &a.signer.seat, &key, body, None, a.signer.out.as_deref())?;
    let _ = entry;
    drop(locked);
    let game = common::load_game(&log)?;
    if game.in_play() {
        say!("every seat has joined: play starts. `umpire status {}` says who moves first.", log.display());
    }
    Ok(0)
}
