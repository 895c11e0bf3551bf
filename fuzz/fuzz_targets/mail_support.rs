//! What `mail_message` does, in a module that `tests/fuzz_regressions.rs` also includes.
use std::sync::OnceLock;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use mail_parser::{MessageParser, PartType};
use umpire::mail::{InputKind, detect, entries_in_input};

fn vectors() -> &'static [Vec<u8>] {
    static V: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    V.get_or_init(|| {
        let log = include_bytes!("../../tests/vectors/game.log");
        umpire::log::store::split_log(log).into_iter().map(<[u8]>::to_vec).collect()
    })
}

fn squeeze(b: &[u8]) -> Vec<u8> {
    b.iter().copied().filter(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n')).collect()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

/// Every decoded text or binary part of a message and of the messages nested in it.
fn parts_of(msg: &mail_parser::Message<'_>, depth: usize, out: &mut Vec<Vec<u8>>) {
    for part in &msg.parts {
        match &part.body {
            PartType::Text(t) | PartType::Html(t) => out.push(squeeze(t.as_bytes())),
            PartType::Binary(b) | PartType::InlineBinary(b) => out.push(squeeze(b)),
            PartType::Message(inner) if depth < 16 => parts_of(inner, depth + 1, out),
            _ => {}
        }
    }
}

/// The places an entry may be found in `bytes`, whitespace squeezed out.
fn places(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    match detect(bytes) {
        InputKind::Message => {
            if let Some(m) = MessageParser::default().parse(bytes) {
                parts_of(&m, 0, &mut out);
            }
        }
        InputKind::Mbox => {
            for m in mail_parser::mailbox::mbox::MessageIterator::new(std::io::Cursor::new(bytes)).flatten() {
                if let Some(m) = MessageParser::default().parse(m.contents()) {
                    parts_of(&m, 0, &mut out);
                }
            }
        }
        _ => out.push(squeeze(bytes)),
    }
    out
}

/// Look for entries in `bytes`; check each one found is really there. Returns the hashes found.
fn check(bytes: &[u8]) -> Vec<umpire::crypto::Hash> {
    let Ok(Some(found)) = entries_in_input(bytes, "input") else { return Vec::new() };
    let places = places(bytes);
    for f in &found.entries {
        let e = squeeze(&f.entry.bytes);
        assert!(places.iter().any(|p| contains(p, &e)), "an entry found that is not within one part of the message ({})", f.origin);
    }
    found.entries.iter().map(|f| f.entry.hash).collect()
}

/// Text from the input, kept to letters, digits and spaces (so it cannot end a part).
fn filler(b: &[u8]) -> String {
    b.iter().map(|&c| if c.is_ascii_alphanumeric() { c as char } else { ' ' }).collect::<String>()
}

fn quoted_printable(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let mut col = 0;
        for c in line.bytes() {
            let enc = match c {
                b'\n' => "\n".to_string(),
                b'=' => "=3D".to_string(),
                32..=126 => (c as char).to_string(),
                _ => format!("={c:02X}"),
            };
            if col + enc.len() > 72 && c != b'\n' {
                out.push_str("=\n");
                col = 0;
            }
            col += enc.len();
            out.push_str(&enc);
        }
    }
    out
}

fn flowed(text: &str) -> String {
    // Wrap at 40 characters with a trailing space (format=flowed, delsp=yes).
    let mut out = String::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        if chars.is_empty() {
            out.push('\n');
        }
        for (i, c) in chars.chunks(40).enumerate() {
            let s: String = c.iter().collect();
            let last = (i + 1) * 40 >= chars.len();
            let stuffed = if s.starts_with(' ') || s.starts_with("From ") { format!(" {s}") } else { s };
            out.push_str(&stuffed);
            out.push_str(if last { "\n" } else { " \n" });
        }
    }
    out
}

fn build(prog: &[u8]) -> (Vec<u8>, Vec<usize>, Option<(usize, u8)>) {
    let v = vectors();
    let mut it = prog.iter().copied();
    let mut next = move || it.next().unwrap_or(0);
    let framing = next() % 7;
    let count = 1 + usize::from(next() % 3);
    let picks: Vec<usize> = (0..count).map(|_| usize::from(next()) % v.len()).collect();
    let flip = (next() % 4 == 0).then(|| (usize::from(next()) << 8 | usize::from(next()), next().max(1)));
    let words = format!("x {}", filler(&prog[prog.len().min(8)..]));
    let (before, after) = words.split_at(words.len() / 2);
    let mut text = format!("{before}\n\n");
    for &p in &picks {
        text.push_str(std::str::from_utf8(&v[p]).unwrap());
        text.push('\n');
    }
    text.push_str(after);
    text.push('\n');
    let head = |ct: &str, extra: &str| {
        format!(
            "From: a@example.org\nTo: b@example.org\nSubject: [umpire] {}\nMIME-Version: 1.0\n{ct}{extra}\n",
            before.chars().take(20).collect::<String>()
        )
    };
    let msg = match framing {
        0 => format!("{}{text}", head("Content-Type: text/plain; charset=utf-8\n", "")),
        1 => format!("{}{text}", head("Content-Type: text/plain; charset=utf-8\n", "")).replace('\n', "\r\n"),
        2 => format!(
            "{}{}",
            head("Content-Type: text/plain; charset=utf-8\n", "Content-Transfer-Encoding: quoted-printable\n"),
            quoted_printable(&text)
        ),
        3 => {
            let b64 = STANDARD.encode(text.as_bytes());
            let wrapped: Vec<&str> = b64.as_bytes().chunks(76).map(|c| std::str::from_utf8(c).unwrap()).collect();
            format!(
                "{}--XYZ\nContent-Type: text/plain\n\nsee attachment\n--XYZ\nContent-Type: application/yaml\nContent-Disposition: attachment; filename=\"game.log.3.yaml\"\nContent-Transfer-Encoding: base64\n\n{}\n--XYZ--\n",
                head("Content-Type: multipart/mixed; boundary=\"XYZ\"\n", ""),
                wrapped.join("\n")
            )
        }
        4 => format!("{}{}", head("Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n", ""), flowed(&text)),
        5 => {
            let inner = format!("{}{text}", head("Content-Type: text/plain\n", ""));
            format!(
                "{}--F\nContent-Type: text/plain\n\nforwarded\n--F\nContent-Type: message/rfc822\n\n{inner}\n--F--\n",
                head("Content-Type: multipart/mixed; boundary=\"F\"\n", "")
            )
        }
        _ => {
            let one = format!("{}{text}", head("Content-Type: text/plain\n", ""));
            format!("From a@example.org Mon Nov 23 12:00:00 2026\n{one}\nFrom b@example.org Mon Nov 23 12:00:01 2026\n{one}\n")
        }
    };
    (msg.into_bytes(), picks, flip)
}

/// Run one input (panics if a property fails).
pub fn check_input(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode % 2 == 0 {
        check(rest);
        return;
    }
    let (mut msg, picks, flip) = build(rest);
    if let Some((at, x)) = flip {
        let at = at % msg.len();
        msg[at] ^= x;
        check(&msg);
    } else {
        let found = check(&msg);
        for p in picks {
            let want = umpire::crypto::sha256(&vectors()[p]);
            assert!(found.contains(&want), "entry {p} put in the message was not found");
        }
    }
}
