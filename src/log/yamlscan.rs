//! Strict pre-scan of an entry's YAML, before anything is deserialised.
//!
//! `yaml_serde` resolves aliases silently (a billion-laughs document costs time even with its
//! repetition limit), ignores most tags and does not report key order. Entries are written
//! by the tool, which never emits anchors, aliases, tags, directives, explicit document
//! markers or duplicate keys, so the pre-scan refuses all of them, with the same parser
//! (`libyaml-rs`) that `yaml_serde` uses, so both see the same events. It also returns
//! the top-level keys in order, and the keys of the top-level `body` mapping, each with a
//! flag telling whether its value is a null scalar.

use std::collections::BTreeSet;
use std::mem::MaybeUninit;

use libyaml_rs as sys;

use super::yamlevents::Node;

/// Deepest nesting of collections accepted in any YAML umpire reads: entries, the scenario
/// text inside a genesis, scenario files, orders, rule cases, key files, mail config, sealed
/// notes. umpire's own files nest at most about ten deep; 64 leaves room for hand-written
/// ones. A limit is needed because a hostile file can nest tens of thousands deep in a few
/// hundred kilobytes, and `yaml_serde` reads the whole event stream before it applies its
/// own limit (128), with a cost that grows as the square of the depth (see [`check_depth`]).
pub const MAX_DEPTH: usize = 64;

/// Why YAML text was refused by [`from_str`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    /// Collections nested deeper than [`MAX_DEPTH`].
    #[error("YAML nested deeper than {limit} levels (at line {line} column {column}); no umpire file needs that much")]
    TooDeep { limit: usize, line: u64, column: u64 },
    /// Not YAML, or not the expected shape (`yaml_serde`'s message).
    #[error("{0}")]
    Parse(String),
}

/// Refuse `text` if its collections nest deeper than [`MAX_DEPTH`], in time linear in its size.
///
/// The events are pulled one at a time from libyaml (the parser `yaml_serde` uses) and the
/// walk stops at the first collection that opens too deep, so a deep document costs no more
/// than its first [`MAX_DEPTH`] levels plus libyaml's look-ahead (at most 1024 characters
/// while a flow collection could still turn out to be a mapping key).
///
/// Why it is needed: `yaml_serde` turns the whole document into events before it applies its
/// own depth limit, and libyaml's scanner keeps a possible-simple-key slot per open flow
/// level and, for every token, walks the slots from the first one not yet retired. Once an
/// outer key has been resolved (`actions: [[[...`, `{a: {a: ...`) that start stays put, so
/// each token costs the current depth and the whole parse is quadratic: an orders file of
/// `actions: ` and 40,000 `[` took 3 s, 40,000 `{a: ` 7 s, 80,000 `{a: ` 36 s. Syntax errors
/// are left to the real parse, which reports them in its own words.
pub fn check_depth(text: &[u8]) -> Result<(), YamlError> {
    let Ok(mut parser) = Parser::new(text) else { return Ok(()) };
    let mut depth = 0usize;
    loop {
        let Ok((ev, line, column)) = parser.next_with_mark() else { return Ok(()) };
        match ev {
            Ev::StreamEnd => return Ok(()),
            Ev::SeqStart { .. } | Ev::MapStart { .. } => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(YamlError::TooDeep { limit: MAX_DEPTH, line: line + 1, column: column + 1 });
                }
            }
            Ev::SeqEnd | Ev::MapEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
}

/// `yaml_serde::from_str` after [`check_depth`]: the one way umpire deserialises YAML text it
/// did not write itself.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    check_depth(text.as_bytes())?;
    yaml_serde::from_str(text).map_err(|e| YamlError::Parse(e.to_string()))
}

/// A key of a scanned mapping and whether its value is a null scalar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInfo {
    pub key: String,
    pub null: bool,
    /// The value's text if it is a plain (unquoted) scalar.
    pub plain: Option<String>,
}

/// What the scan learned.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scan {
    /// Top-level keys, in order.
    pub top: Vec<KeyInfo>,
    /// Keys of the top-level `body` mapping, in order (empty if `body` is not a mapping).
    pub body: Vec<KeyInfo>,
}

#[derive(Debug)]
enum Ev {
    DocStart { implicit: bool, directives: bool },
    DocEnd { implicit: bool },
    Alias,
    Scalar { value: Vec<u8>, plain: bool, anchor: bool, tag: bool },
    SeqStart { anchor: bool, tag: bool },
    SeqEnd,
    MapStart { anchor: bool, tag: bool },
    MapEnd,
    StreamStart,
    StreamEnd,
}

struct Parser {
    sys: Box<MaybeUninit<sys::yaml_parser_t>>,
    // The input must outlive the parser; it is owned here and never moved out.
    _input: Vec<u8>,
}

impl Parser {
    fn new(input: &[u8]) -> Result<Parser, String> {
        let input = input.to_vec();
        let mut boxed: Box<MaybeUninit<sys::yaml_parser_t>> = Box::new(MaybeUninit::uninit());
        // SAFETY: the parser lives in a Box (its address is stable: libyaml stores a pointer
        // to it as the read handler's data) and the input Vec's heap buffer lives as long
        // as the parser, in the same struct; it is deleted exactly once in Drop.
        unsafe {
            let p = boxed.as_mut_ptr();
            if sys::yaml_parser_initialize(p).fail {
                return Err("YAML parser could not be initialised".to_string());
            }
            sys::yaml_parser_set_encoding(p, sys::YAML_UTF8_ENCODING);
            sys::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as u64);
        }
        Ok(Parser { sys: boxed, _input: input })
    }

    fn error(&self) -> String {
        // SAFETY: the parser is initialised; problem is a static C string or null.
        unsafe {
            let p = &*self.sys.as_ptr();
            let what = if p.problem.is_null() {
                "syntax error".to_string()
            } else {
                std::ffi::CStr::from_ptr(p.problem as *const std::ffi::c_char).to_string_lossy().into_owned()
            };
            format!("{what} at line {} column {}", p.problem_mark.line + 1, p.problem_mark.column + 1)
        }
    }

    fn next(&mut self) -> Result<Ev, String> {
        self.next_with_mark().map(|(ev, _, _)| ev)
    }

    /// The next event with the line and column (from 0) where it starts.
    fn next_with_mark(&mut self) -> Result<(Ev, u64, u64), String> {
        let mut event = MaybeUninit::<sys::yaml_event_t>::uninit();
        // SAFETY: as in yaml_serde's own wrapper: parse into an uninitialised event, read its
        // union according to its type, copy what we need, delete it.
        unsafe {
            let p = self.sys.as_mut_ptr();
            if (&(*p)).error != sys::YAML_NO_ERROR {
                return Err(self.error());
            }
            let e = event.as_mut_ptr();
            if sys::yaml_parser_parse(p, e).fail {
                return Err(self.error());
            }
            let ev = &*e;
            let (line, column) = (ev.start_mark.line, ev.start_mark.column);
            let out = match ev.type_ {
                sys::YAML_STREAM_START_EVENT => Ev::StreamStart,
                sys::YAML_STREAM_END_EVENT => Ev::StreamEnd,
                sys::YAML_DOCUMENT_START_EVENT => {
                    let d = &ev.data.document_start;
                    Ev::DocStart {
                        implicit: d.implicit,
                        directives: !d.version_directive.is_null() || d.tag_directives.start != d.tag_directives.end,
                    }
                }
                sys::YAML_DOCUMENT_END_EVENT => Ev::DocEnd { implicit: ev.data.document_end.implicit },
                sys::YAML_ALIAS_EVENT => Ev::Alias,
                sys::YAML_SCALAR_EVENT => {
                    let s = &ev.data.scalar;
                    let value =
                        if s.value.is_null() { Vec::new() } else { std::slice::from_raw_parts(s.value, s.length as usize).to_vec() };
                    Ev::Scalar { value, plain: s.style == sys::YAML_PLAIN_SCALAR_STYLE, anchor: !s.anchor.is_null(), tag: !s.tag.is_null() }
                }
                sys::YAML_SEQUENCE_START_EVENT => {
                    let s = &ev.data.sequence_start;
                    Ev::SeqStart { anchor: !s.anchor.is_null(), tag: !s.tag.is_null() }
                }
                sys::YAML_SEQUENCE_END_EVENT => Ev::SeqEnd,
                sys::YAML_MAPPING_START_EVENT => {
                    let m = &ev.data.mapping_start;
                    Ev::MapStart { anchor: !m.anchor.is_null(), tag: !m.tag.is_null() }
                }
                sys::YAML_MAPPING_END_EVENT => Ev::MapEnd,
                _ => {
                    sys::yaml_event_delete(e);
                    return Err("unexpected YAML event".to_string());
                }
            };
            sys::yaml_event_delete(e);
            Ok((out, line, column))
        }
    }
}

impl Drop for Parser {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` (a failed init returns before a Parser exists).
        unsafe { sys::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// Is a plain scalar one of YAML's spellings of null?
fn is_null_plain(v: &[u8]) -> bool {
    matches!(v, b"" | b"~" | b"null" | b"Null" | b"NULL")
}

enum Frame {
    Seq,
    /// A mapping: keys seen, whether the next scalar/node is a key, the current key,
    /// and which collection this is (0 = other, 1 = top level, 2 = body).
    Map {
        keys: BTreeSet<Vec<u8>>,
        expect_key: bool,
        which: u8,
        current: Option<String>,
    },
}

/// Scan `text` (one YAML document, UTF-8). Errors are messages for [`super::EntryError`].
pub fn scan(text: &[u8]) -> Result<Scan, String> {
    scan_inner(text, None)
}

/// [`scan`], also returning the document's events, for [`super::yamlevents::from_events`]
/// to deserialise without parsing the text again.
pub fn scan_events(text: &[u8]) -> Result<(Scan, Vec<Node>), String> {
    let mut events = Vec::new();
    let scan = scan_inner(text, Some(&mut events))?;
    Ok((scan, events))
}

fn scan_inner(text: &[u8], mut record: Option<&mut Vec<Node>>) -> Result<Scan, String> {
    let mut parser = Parser::new(text)?;
    let mut out = Scan::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut documents = 0;
    let mut root_seen = false;
    loop {
        let ev = parser.next()?;
        // A value position in the enclosing mapping? Then this event is a value (or a key).
        let in_key_position = matches!(stack.last(), Some(Frame::Map { expect_key: true, .. }));
        match ev {
            Ev::StreamStart => continue,
            Ev::StreamEnd => break,
            Ev::DocStart { implicit, directives } => {
                documents += 1;
                if documents > 1 {
                    return Err("more than one YAML document".to_string());
                }
                if directives {
                    return Err("YAML directives (%YAML, %TAG) are not allowed".to_string());
                }
                if !implicit {
                    return Err("explicit document start (`---`) is not allowed".to_string());
                }
                continue;
            }
            Ev::DocEnd { implicit } => {
                if !implicit {
                    return Err("explicit document end (`...`) is not allowed".to_string());
                }
                continue;
            }
            Ev::Alias => return Err("YAML aliases (`*name`) are not allowed".to_string()),
            Ev::Scalar { value, plain, anchor, tag } => {
                if anchor {
                    return Err("YAML anchors (`&name`) are not allowed".to_string());
                }
                if tag {
                    return Err("YAML tags (`!tag`) are not allowed".to_string());
                }
                if stack.is_empty() {
                    return Err("the document is a scalar, not a mapping".to_string());
                }
                if in_key_position {
                    let Some(Frame::Map { keys, expect_key, which, current }) = stack.last_mut() else { unreachable!() };
                    if !keys.insert(value.clone()) {
                        return Err(format!("duplicate key {:?}", String::from_utf8_lossy(&value)));
                    }
                    *expect_key = false;
                    // Only the keys of the top level and of `body` are reported.
                    if *which != 0 {
                        *current = Some(String::from_utf8_lossy(&value).into_owned());
                    }
                } else {
                    // The text is kept for the keys reported (top level and `body`) only.
                    let reported = matches!(stack.last(), Some(Frame::Map { which: 1 | 2, .. }));
                    let text = if plain && reported { Some(String::from_utf8_lossy(&value).into_owned()) } else { None };
                    value_done(&mut stack, &mut out, plain && is_null_plain(&value), text);
                }
                if let Some(r) = record.as_deref_mut() {
                    r.push(Node::Scalar { value, plain });
                }
            }
            Ev::SeqStart { anchor, tag } | Ev::MapStart { anchor, tag } if anchor || tag => {
                return Err(
                    if anchor { "YAML anchors (`&name`) are not allowed" } else { "YAML tags (`!tag`) are not allowed" }.to_string()
                );
            }
            Ev::SeqStart { .. } => {
                if in_key_position {
                    return Err("a mapping key must be a scalar".to_string());
                }
                if stack.is_empty() {
                    return Err("the document is a sequence, not a mapping".to_string());
                }
                stack.push(Frame::Seq);
                if let Some(r) = record.as_deref_mut() {
                    r.push(Node::SeqStart);
                }
            }
            Ev::MapStart { .. } => {
                if in_key_position {
                    return Err("a mapping key must be a scalar".to_string());
                }
                let which = if stack.is_empty() {
                    if root_seen {
                        return Err("more than one root node".to_string());
                    }
                    root_seen = true;
                    1
                } else if stack.len() == 1 {
                    match stack.last() {
                        Some(Frame::Map { current: Some(k), which: 1, .. }) if k == "body" => 2,
                        _ => 0,
                    }
                } else {
                    0
                };
                stack.push(Frame::Map { keys: BTreeSet::new(), expect_key: true, which, current: None });
                if let Some(r) = record.as_deref_mut() {
                    r.push(Node::MapStart);
                }
            }
            Ev::SeqEnd | Ev::MapEnd => {
                if let Some(r) = record.as_deref_mut() {
                    r.push(if matches!(ev, Ev::SeqEnd) { Node::SeqEnd } else { Node::MapEnd });
                }
                stack.pop();
                if !stack.is_empty() {
                    value_done(&mut stack, &mut out, false, None);
                }
            }
        }
        if stack.len() > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
    }
    if !root_seen {
        return Err("the document is not a mapping".to_string());
    }
    Ok(out)
}

/// A value (scalar or collection) has ended in the frame on top of the stack.
fn value_done(stack: &mut [Frame], out: &mut Scan, null: bool, plain: Option<String>) {
    if let Some(Frame::Map { expect_key, which, current, .. }) = stack.last_mut() {
        *expect_key = true;
        if let Some(key) = current.take() {
            match which {
                1 => out.top.push(KeyInfo { key, null, plain }),
                2 => out.body.push(KeyInfo { key, null, plain }),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: &[KeyInfo]) -> Vec<&str> {
        v.iter().map(|k| k.key.as_str()).collect()
    }

    #[test]
    fn plain_document() {
        let s = scan(b"a: 1\nb:\n  - x\n  - {p: q}\nbody:\n  kind: x\n  n: ~\n  m:\n    z: 1\nc: null\n").unwrap();
        assert_eq!(keys(&s.top), ["a", "b", "body", "c"]);
        assert_eq!(keys(&s.body), ["kind", "n", "m"]);
        assert!(s.body[1].null && !s.body[0].null && !s.body[2].null);
        assert!(s.top[3].null);
        assert_eq!(s.top[0].plain.as_deref(), Some("1"));
        assert_eq!(s.top[1].plain, None);
    }

    #[test]
    fn refusals() {
        for (doc, want) in [
            (&b"a: &x 1\nb: *x\n"[..], "anchor"),
            (b"a: [&x 1]\n", "anchor"),
            (b"a: !foo 1\n", "tag"),
            (b"a: !!str 1\n", "tag"),
            (b"a: !!map {}\n", "tag"),
            (b"a: 1\na: 2\n", "duplicate"),
            (b"a: {x: 1, x: 2}\n", "duplicate"),
            (b"a: 1\n'a': 2\n", "duplicate"),
            (b"--- \na: 1\n", "explicit"),
            (b"%YAML 1.1\n---\na: 1\n", "directive"),
            (b"a: 1\n---\nb: 2\n", "more than one"),
            (b"a: 1\n...\n", "explicit document end"),
            (b"? [a]\n: 1\n", "scalar"),
            (b"- 1\n", "sequence"),
            (b"x\n", "scalar"),
            (b"", "not a mapping"),
            (b"a: [\n", "line"),
        ] {
            let e = scan(doc).unwrap_err();
            assert!(e.contains(want), "{:?}: {e}", String::from_utf8_lossy(doc));
        }
        let deep = "a: ".to_string() + &"[".repeat(100) + &"]".repeat(100) + "\n";
        assert!(scan(deep.as_bytes()).unwrap_err().contains("deeper"));
    }

    #[test]
    fn depth_is_bounded_wherever_yaml_is_read() {
        let flow = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert_eq!(check_depth(flow(MAX_DEPTH).as_bytes()), Ok(()));
        let e = check_depth(flow(MAX_DEPTH + 1).as_bytes()).unwrap_err();
        assert_eq!(e, YamlError::TooDeep { limit: MAX_DEPTH, line: 1, column: MAX_DEPTH as u64 + 1 });
        // 80,000 deep (160 KB): refused at level 65, without reading the rest.
        assert!(matches!(check_depth(flow(80_000).as_bytes()), Err(YamlError::TooDeep { .. })));
        let e = from_str::<yaml_serde::Value>(&format!("a: {}", flow(80_000))).unwrap_err();
        assert!(e.to_string().contains("nested deeper than 64 levels"), "{e}");
        // Block style nests by indentation; mappings count as much as sequences.
        let block: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        assert!(matches!(check_depth(block.as_bytes()), Err(YamlError::TooDeep { line: 65, .. })));
        let mixed = "a: {b: [".repeat(40) + &"]}".repeat(40);
        assert!(matches!(check_depth(mixed.as_bytes()), Err(YamlError::TooDeep { .. })));
        // Unclosed and broken documents are left to the real parser's message.
        assert_eq!(check_depth(b"a: [\n"), Ok(()));
        assert!(matches!(from_str::<yaml_serde::Value>("a: [\n"), Err(YamlError::Parse(_))));
        // What is within the limit parses as before.
        let v: yaml_serde::Value = from_str("a: [1, {b: 2}]\n").unwrap();
        assert_eq!(v["a"][1]["b"], yaml_serde::Value::from(2));
    }

    #[test]
    #[ignore = "a measurement, not a check: cargo test --release --lib yamlscan::tests::measure -- --ignored --nocapture"]
    fn measure() {
        for (shape, n) in [
            ("flow", 20_000usize),
            ("flow", 40_000),
            ("dash", 10_000),
            ("dash", 20_000),
            ("map", 10_000),
            ("map", 20_000),
            ("qkey", 10_000),
            ("qkey", 20_000),
        ] {
            let doc = match shape {
                "flow" => "[".repeat(n) + &"]".repeat(n),
                "dash" => "- ".repeat(n) + "x",
                "map" => "{a: ".repeat(n) + &"}".repeat(n),
                _ => "? ".repeat(n) + "x",
            };
            let n = format!("{shape} {n}");
            let t = std::time::Instant::now();
            let r = check_depth(doc.as_bytes());
            let checked = t.elapsed();
            let t = std::time::Instant::now();
            let raw = yaml_serde::from_str::<yaml_serde::Value>(&doc).map(|_| ()).map_err(|e| e.to_string());
            println!("{n} deep: check_depth {checked:?} ({r:?}), yaml_serde alone {:?} ({raw:?})", t.elapsed());
        }
    }

    #[test]
    fn billion_laughs_is_refused_quickly() {
        let mut doc = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for i in 0..9 {
            doc.push_str(&format!("b{i}: &b{i} [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"));
        }
        assert!(scan(doc.as_bytes()).unwrap_err().contains("anchor"));
    }
}
