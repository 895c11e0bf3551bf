//! Mail messages: any bytes as an .eml, an mbox or pasted text, through the extraction that
//! `umpire apply` uses (`mail::entries_in_input`). Two kinds of input, by the first byte:
//!
//! - even: the rest as it is;
//! - odd: a real message built around entries of the protocol-2 test vectors, in a framing
//!   the next bytes choose (plain or CRLF body, quoted-printable, base64 attachment,
//!   format=flowed with wrapped lines, a forwarded message/rfc822, an mbox of two
//!   messages), with text from the input around the entries; then maybe one byte flipped.
//!
//! What must hold: no panic; bounded work (libFuzzer's `-timeout` and `-rss_limit_mb`); an
//! entry is found only if it is really in the message: its bytes, whitespace aside (CRLF,
//! flowed lines), lie within one decoded part of one message (never pieced together from
//! two parts or two messages). And for a built message with no flipped byte: every entry put
//! in it is found.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "mail_support.rs"]
mod mail_support;

fuzz_target!(|data: &[u8]| mail_support::check_input(data));
