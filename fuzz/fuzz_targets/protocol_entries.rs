//! Protocol-2 entries, structure-aware. The input is a short program of edits to a real
//! protocol-2 log (the test vectors: parallel joins, a leading roll, reveals, `dice_from`, a
//! padded sealed note; or the start of a bot game of The First World War or Glory's End):
//! drop, swap, splice in an entry of any of the logs, flip a byte, cross a line or a field
//! with another entry's, insert or delete a line, re-sign with the key of the named seat or
//! of another seat, cut the log, turn an entry into CRLF. The result goes through the verify
//! path: the protocol checks (vectors; their ruleset is a test one) or the whole replay,
//! protocol and rules (the bot games).
//!
//! What must hold: no panic; a log that is accepted verifies again from its own bytes
//! (`cli::verify_bytes`, the path `umpire verify` takes); `compare` of the edited copy with
//! the original, either way round, calls a difference a fork only when both entries name
//! this game and verify with the genesis key of their seat (DESIGN §2.3).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "protocol_support.rs"]
mod protocol_support;

fuzz_target!(|data: &[u8]| protocol_support::check(data));
