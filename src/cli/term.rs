//! Text bound for a terminal, made harmless.
//!
//! Much of what umpire prints was written by someone else: the opponent's notes, the scenario
//! name and text in the genesis, seat names, unit names echoed back in rule events and error
//! messages. A terminal obeys escape sequences (`ESC [ ...` can move the cursor, rewrite
//! earlier lines, change the window title), `\r` returns to the start of the line so later text
//! overwrites a verdict, and bidirectional-override characters reorder what is shown. So every
//! print of the command line goes through [`printable`] (via the [`say!`], [`say_raw!`] and
//! [`say_err!`] macros) and fields that are meant to be one line (notes, names) also through
//! [`one_line`], so they cannot fake a line of their own either.
//!
//! The escaped form is Rust's: `\u{1b}` for ESC, `\r`, `\t`, `\n` (only where a newline is not
//! wanted), `\u{202e}` for RIGHT-TO-LEFT OVERRIDE. A backslash is left as it is: the escaped text
//! is for reading, not for parsing back.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Unicode "format" characters that reorder or hide text on screen (bidirectional embeddings,
/// overrides and isolates, and the invisible marks); `char::is_control` does not cover them.
fn is_bidi_or_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

fn needs_escape(c: char, keep_newlines: bool) -> bool {
    (c.is_control() && !(keep_newlines && c == '\n')) || is_bidi_or_invisible(c)
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| needs_escape(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if !needs_escape(c, keep_newlines) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// `s` with every control character except `\n` (and every bidirectional or invisible format
/// character) shown as an escape, for multi-line text.
pub fn printable(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

/// `s` with every control character, newlines included, shown as an escape: for a field that
/// is one line (a note, a name), so it cannot start a line that looks like umpire's own.
pub fn one_line(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// `println!` through [`printable`].
macro_rules! say {
    () => { println!() };
    ($($arg:tt)*) => { println!("{}", $crate::cli::term::printable(&format!($($arg)*))) };
}

/// `print!` through [`printable`].
macro_rules! say_raw {
    ($($arg:tt)*) => { print!("{}", $crate::cli::term::printable(&format!($($arg)*))) };
}

/// `eprintln!` through [`printable`].
macro_rules! say_err {
    ($($arg:tt)*) => { eprintln!("{}", $crate::cli::term::printable(&format!($($arg)*))) };
}

pub(crate) use {say, say_err, say_raw};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_untouched_and_not_copied() {
        assert!(matches!(printable("GAME OVER: german wins\nnext line"), Cow::Borrowed(_)));
        assert!(matches!(one_line("Marne, 1914 — ça va"), Cow::Borrowed(_)));
    }

    #[test]
    fn controls_are_escaped() {
        assert_eq!(printable("a\u{1b}[2Jb\rc\u{7}d\ne\tf"), "a\\u{1b}[2Jb\\rc\\u{7}d\ne\\tf");
        assert_eq!(one_line("a\nb\u{9b}c"), "a\\nb\\u{9b}c");
        assert_eq!(one_line("x\u{202e}y\u{2066}z"), "x\\u{202e}y\\u{2066}z");
    }
}
