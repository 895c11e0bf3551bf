//! Deserialising an entry from the events its strict scan already read (issue 20).
//!
//! [`super::yamlscan::scan`] pulls every event of an entry out of libyaml to refuse what
//! umpire never writes (anchors, aliases, tags, directives, duplicate keys …). `yaml_serde`
//! would then parse the same bytes a second time. Here the scan's events are kept and fed to
//! serde directly, so an entry is parsed once.
//!
//! The values must be exactly `yaml_serde`'s. Once the scan has accepted a document, nothing
//! in it is tagged, anchored or aliased, so of `yaml_serde`'s rules only those for plain and
//! quoted scalars, sequences and mappings apply, and they are followed here one by one (the
//! functions below name the `yaml_serde` function each mirrors). Where this deserialiser
//! fails, the caller parses again with `yaml_serde` and keeps *its* result, error messages
//! included: a failure here costs time, never a different verdict. The library's tests
//! compare both parsers on every entry of bot games of each ruleset and on a list of tricky
//! scalars.

use serde::de::{self, DeserializeSeed, Visitor};

/// One event of a scanned document (no anchors, aliases or tags: the scan refused those).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A scalar's value as libyaml gives it, and whether it was written plain (unquoted,
    /// not a block scalar): only plain scalars are read as null, booleans or numbers.
    Scalar {
        value: Vec<u8>,
        plain: bool,
    },
    SeqStart,
    SeqEnd,
    MapStart,
    MapEnd,
}

/// Why these events could not be read as the wanted type. Not shown to anyone: the caller
/// parses again with `yaml_serde` for its message.
#[derive(Debug)]
pub struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

impl de::Error for Refused {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Refused(msg.to_string())
    }
}

/// Deserialise a `T` from the events of one scanned document, as `yaml_serde::from_slice`
/// would from its text.
pub fn from_events<T: de::DeserializeOwned>(events: &[Node]) -> Result<T, Refused> {
    let mut d = Events { events, pos: 0 };
    T::deserialize(&mut d)
}

struct Events<'a> {
    events: &'a [Node],
    pos: usize,
}

impl<'a> Events<'a> {
    fn peek(&self) -> Result<&'a Node, Refused> {
        self.events.get(self.pos).ok_or_else(|| Refused("end of the events".into()))
    }
    fn next(&mut self) -> Result<&'a Node, Refused> {
        let n = self.peek()?;
        self.pos += 1;
        Ok(n)
    }
    /// Skip one whole node (`yaml_serde`'s `ignore_any`).
    fn skip(&mut self) -> Result<(), Refused> {
        let mut depth = 0usize;
        loop {
            match self.next()? {
                Node::Scalar { .. } => {}
                Node::SeqStart | Node::MapStart => depth += 1,
                Node::SeqEnd | Node::MapEnd => depth = depth.checked_sub(1).ok_or_else(|| Refused("unbalanced".into()))?,
            }
            if depth == 0 {
                return Ok(());
            }
        }
    }
    fn seq<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        let mut access = Seq { de: self, len: 0 };
        let value = visitor.visit_seq(&mut access)?;
        let taken = access.len;
        // `yaml_serde`'s `end_sequence`: elements the visitor left are an error.
        let mut rest = 0;
        while !matches!(self.peek()?, Node::SeqEnd) {
            self.skip()?;
            rest += 1;
        }
        self.pos += 1;
        if rest > 0 { Err(de::Error::invalid_length(taken + rest, &"fewer elements")) } else { Ok(value) }
    }
    fn map<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        let mut access = Map { de: self };
        let value = visitor.visit_map(&mut access)?;
        // `yaml_serde`'s `end_mapping`.
        if !matches!(self.peek()?, Node::MapEnd) {
            return Err(Refused("entries left in the mapping".into()));
        }
        self.pos += 1;
        Ok(value)
    }
    fn invalid<'de, V: Visitor<'de>>(node: &Node, visitor: &V) -> Refused {
        let unexpected = match node {
            Node::Scalar { .. } => de::Unexpected::Other("scalar"),
            Node::SeqStart => de::Unexpected::Seq,
            Node::MapStart => de::Unexpected::Map,
            Node::SeqEnd | Node::MapEnd => de::Unexpected::Other("end"),
        };
        de::Error::invalid_type(unexpected, visitor)
    }
}

fn utf8(value: &[u8]) -> Result<&str, Refused> {
    std::str::from_utf8(value).map_err(|_| Refused("not UTF-8".into()))
}

/// `yaml_serde`'s `parse_null`.
fn parse_null(v: &[u8]) -> bool {
    matches!(v, b"null" | b"Null" | b"NULL" | b"~")
}

/// `yaml_serde`'s `parse_bool`.
fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `yaml_serde`'s `digits_but_not_number`: a leading zero followed by digits is a string.
fn digits_but_not_number(v: &str) -> bool {
    let v = v.strip_prefix(['-', '+']).unwrap_or(v);
    v.len() > 1 && v.starts_with('0') && v[1..].bytes().all(|b| b.is_ascii_digit())
}

/// `yaml_serde`'s `parse_unsigned_int`.
fn parse_unsigned_int<T>(v: &str, radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    let unpositive = v.strip_prefix('+').unwrap_or(v);
    for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(int) = radix(rest, base) {
                return Some(int);
            }
        }
    }
    if unpositive.starts_with(['+', '-']) || digits_but_not_number(v) {
        return None;
    }
    radix(unpositive, 10).ok()
}

/// `yaml_serde`'s `parse_negative_int`.
fn parse_negative_int<T>(v: &str, radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    for (prefix, base) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = v.strip_prefix(prefix)
            && let Ok(int) = radix(&format!("-{rest}"), base)
        {
            return Some(int);
        }
    }
    if digits_but_not_number(v) {
        return None;
    }
    radix(v, 10).ok()
}

/// `yaml_serde`'s `parse_signed_int`.
fn parse_signed_int<T>(v: &str, radix: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    let unpositive = match v.strip_prefix('+') {
        Some(u) if u.starts_with(['+', '-']) => return None,
        Some(u) => u,
        None => v,
    };
    for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(int) = radix(rest, base) {
                return Some(int);
            }
        }
        if let Some(rest) = v.strip_prefix(&format!("-{prefix}"))
            && let Ok(int) = radix(&format!("-{rest}"), base)
        {
            return Some(int);
        }
    }
    if digits_but_not_number(v) {
        return None;
    }
    radix(unpositive, 10).ok()
}

/// `yaml_serde`'s `parse_f64` (only `yaml_serde::Value`'s numbers can be floats here; no
/// ruleset reads one).
fn parse_f64(v: &str) -> Option<f64> {
    let unpositive = match v.strip_prefix('+') {
        Some(u) if u.starts_with(['+', '-']) => return None,
        Some(u) => u,
        None => v,
    };
    if let ".inf" | ".Inf" | ".INF" = unpositive {
        return Some(f64::INFINITY);
    }
    if let "-.inf" | "-.Inf" | "-.INF" = v {
        return Some(f64::NEG_INFINITY);
    }
    if let ".nan" | ".NaN" | ".NAN" = v {
        return Some(f64::NAN.copysign(1.0));
    }
    unpositive.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// `yaml_serde`'s `visit_untagged_scalar`: null, bool, integer, float, else a string.
fn visit_plain<'de, V: Visitor<'de>>(visitor: V, v: &str) -> Result<V::Value, Refused> {
    if v.is_empty() || parse_null(v.as_bytes()) {
        return visitor.visit_unit();
    }
    if let Some(b) = parse_bool(v) {
        return visitor.visit_bool(b);
    }
    if let Some(i) = parse_unsigned_int(v, u64::from_str_radix) {
        return visitor.visit_u64(i);
    }
    if let Some(i) = parse_negative_int(v, i64::from_str_radix) {
        return visitor.visit_i64(i);
    }
    if let Some(i) = parse_unsigned_int(v, u128::from_str_radix) {
        return visitor.visit_u128(i);
    }
    if let Some(i) = parse_negative_int(v, i128::from_str_radix) {
        return visitor.visit_i128(i);
    }
    if !digits_but_not_number(v)
        && let Some(f) = parse_f64(v)
    {
        return visitor.visit_f64(f);
    }
    visitor.visit_str(v)
}

/// A plain scalar read as a number of one kind (`yaml_serde`'s `deserialize_u64` and kin):
/// quoted scalars and collections are refused.
macro_rules! number {
    ($name:ident, $parse:ident, $ty:ty, $visit:ident) => {
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
            let node = self.next()?;
            if let Node::Scalar { value, plain: true } = node
                && let Some(n) = $parse(utf8(value)?, <$ty>::from_str_radix)
            {
                return visitor.$visit(n);
            }
            Err(Events::invalid(node, &visitor))
        }
    };
}

impl<'de> de::Deserializer<'de> for &mut Events<'_> {
    type Error = Refused;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.next()? {
            Node::Scalar { value, plain: true } => visit_plain(visitor, utf8(value)?),
            Node::Scalar { value, plain: false } => visitor.visit_str(utf8(value)?),
            Node::SeqStart => self.seq(visitor),
            Node::MapStart => self.map(visitor),
            end => Err(Events::invalid(end, &visitor)),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        let node = self.next()?;
        if let Node::Scalar { value, plain: true } = node
            && let Some(b) = parse_bool(utf8(value)?)
        {
            return visitor.visit_bool(b);
        }
        Err(Events::invalid(node, &visitor))
    }

    number!(deserialize_i64, parse_signed_int, i64, visit_i64);
    number!(deserialize_i128, parse_signed_int, i128, visit_i128);
    number!(deserialize_u64, parse_unsigned_int, u64, visit_u64);
    number!(deserialize_u128, parse_unsigned_int, u128, visit_u128);

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_f64(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        let node = self.next()?;
        if let Node::Scalar { value, plain: true } = node
            && let Some(f) = parse_f64(utf8(value)?)
        {
            return visitor.visit_f64(f);
        }
        Err(Events::invalid(node, &visitor))
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_str(visitor)
    }
    /// Any scalar, plain or quoted, reads as a string when a string is wanted.
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.next()? {
            Node::Scalar { value, .. } => visitor.visit_str(utf8(value)?),
            other => Err(Events::invalid(other, &visitor)),
        }
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_str(visitor)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Refused> {
        Err(Refused("bytes are not supported".into()))
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Refused> {
        Err(Refused("bytes are not supported".into()))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        let none = match self.peek()? {
            Node::Scalar { value, plain: true } => value.is_empty() || parse_null(value),
            Node::Scalar { plain: false, .. } | Node::SeqStart | Node::MapStart => false,
            end => return Err(Events::invalid(end, &visitor)),
        };
        if none {
            self.pos += 1;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        let node = self.next()?;
        if let Node::Scalar { value, plain: true } = node
            && (value.is_empty() || parse_null(value))
        {
            return visitor.visit_unit();
        }
        Err(Events::invalid(node, &visitor))
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_unit(visitor)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Refused> {
        visitor.visit_newtype_struct(self)
    }

    /// A sequence, or an empty plain scalar as an empty one (as `yaml_serde` reads `key:`).
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.next()? {
            Node::SeqStart => self.seq(visitor),
            Node::Scalar { value, plain: true } if value.is_empty() => visitor.visit_seq(Empty),
            other => Err(Events::invalid(other, &visitor)),
        }
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_seq(visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_seq(visitor)
    }

    /// A mapping, or an empty plain scalar as an empty one.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.next()? {
            Node::MapStart => self.map(visitor),
            Node::Scalar { value, plain: true } if value.is_empty() => visitor.visit_map(Empty),
            other => Err(Events::invalid(other, &visitor)),
        }
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refused> {
        self.deserialize_map(visitor)
    }

    /// Untagged, only a scalar can name a variant, and only a unit one (`yaml_serde` writes
    /// the others as tags, which the scan refuses).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refused> {
        match self.peek()? {
            Node::Scalar { .. } => visitor.visit_enum(UnitVariant { de: self }),
            other => Err(Events::invalid(other, &visitor)),
        }
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_str(visitor)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.skip()?;
        visitor.visit_unit()
    }
}

struct Seq<'s, 'a> {
    de: &'s mut Events<'a>,
    len: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, '_> {
    type Error = Refused;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Refused> {
        if matches!(self.de.peek()?, Node::SeqEnd) {
            return Ok(None);
        }
        self.len += 1;
        seed.deserialize(&mut *self.de).map(Some)
    }
}

struct Map<'s, 'a> {
    de: &'s mut Events<'a>,
}

impl<'de> de::MapAccess<'de> for Map<'_, '_> {
    type Error = Refused;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Refused> {
        if matches!(self.de.peek()?, Node::MapEnd) {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refused> {
        seed.deserialize(&mut *self.de)
    }
}

/// The empty sequence or mapping an empty plain scalar stands for.
struct Empty;

impl<'de> de::SeqAccess<'de> for Empty {
    type Error = Refused;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, _seed: T) -> Result<Option<T::Value>, Refused> {
        Ok(None)
    }
}

impl<'de> de::MapAccess<'de> for Empty {
    type Error = Refused;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, _seed: K) -> Result<Option<K::Value>, Refused> {
        Ok(None)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, _seed: V) -> Result<V::Value, Refused> {
        Err(Refused("no value in an empty mapping".into()))
    }
}

struct UnitVariant<'s, 'a> {
    de: &'s mut Events<'a>,
}

impl<'de> de::EnumAccess<'de> for UnitVariant<'_, '_> {
    type Error = Refused;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refused> {
        Ok((seed.deserialize(&mut *self.de)?, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'_, '_> {
    type Error = Refused;
    fn unit_variant(self) -> Result<(), Refused> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Refused> {
        Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"newtype variant"))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Refused> {
        Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"tuple variant"))
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], _visitor: V) -> Result<V::Value, Refused> {
        Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"struct variant"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both parsers on `text`: the scan's events through [`from_events`], and `yaml_serde`.
    fn both<T: de::DeserializeOwned>(text: &str) -> (Result<T, Refused>, Result<T, yaml_serde::Error>) {
        let (_, events) = super::super::yamlscan::scan_events(text.as_bytes()).expect("the scan accepts it");
        (from_events::<T>(&events), yaml_serde::from_str::<T>(text))
    }

    /// Where the one-pass read succeeds, `yaml_serde` gives the same value.
    fn same<T: de::DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) -> bool {
        match both::<T>(text) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{text:?}");
                true
            }
            (Ok(a), Err(e)) => panic!("{text:?}: the one-pass read gives {a:?} where yaml_serde refuses: {e}"),
            (Err(_), _) => false,
        }
    }

    #[test]
    fn scalars_resolve_as_yaml_serde_resolves_them() {
        let plain = [
            "",
            "~",
            "null",
            "Null",
            "NULL",
            "nUll",
            "true",
            "True",
            "TRUE",
            "tRue",
            "false",
            "yes",
            "no",
            "on",
            "0",
            "1",
            "-1",
            "+1",
            "++1",
            "+-1",
            "007",
            "-007",
            "+007",
            "0x1f",
            "0X1F",
            "0x-1",
            "-0x1f",
            "+0x1f",
            "0o17",
            "-0o17",
            "0b101",
            "-0b101",
            "0b2",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "340282366920938463463374607431768211455",
            "1e3",
            "1.5",
            "-1.5",
            ".5",
            "5.",
            "1_000",
            ".inf",
            "-.inf",
            "+.inf",
            ".Inf",
            ".NAN",
            "inf",
            "nan",
            "infinity",
            "0.0",
            "-0",
            "+0",
            "00",
            "0.",
            "1e999",
            "abc",
            "a b",
            "12ab",
            "-",
            "+",
            ".",
            "2026-11-29T06:46:39Z",
            "ab3d0a4c",
        ];
        let mut refused_here = Vec::new();
        let mut both_refuse = 0;
        for v in plain {
            for text in [format!("k: {v}\n"), format!("k: [{v}]\n"), format!("{v}: 1\n"), format!("k: '{v}'\n"), format!("k: \"{v}\"\n")] {
                if super::super::yamlscan::scan_events(text.as_bytes()).is_err() {
                    continue;
                }
                // NaN is never equal to itself: compare those by their debug text.
                let (a, b) = both::<yaml_serde::Value>(&text);
                match (a, b) {
                    (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text:?}"),
                    (Ok(a), Err(e)) => panic!("{text:?}: {a:?} where yaml_serde refuses: {e}"),
                    (Err(_), Ok(_)) => refused_here.push(text.clone()),
                    // Integers beyond 64 bits: `yaml_serde::Value` takes none, read either way.
                    (Err(_), Err(_)) => both_refuse += 1,
                }
                same::<std::collections::BTreeMap<String, String>>(&text);
                same::<std::collections::BTreeMap<String, u64>>(&text);
                same::<std::collections::BTreeMap<String, i64>>(&text);
                same::<std::collections::BTreeMap<String, bool>>(&text);
                same::<std::collections::BTreeMap<String, Option<String>>>(&text);
                same::<std::collections::BTreeMap<String, Option<u8>>>(&text);
                same::<std::collections::BTreeMap<String, Vec<String>>>(&text);
                same::<std::collections::BTreeMap<String, ()>>(&text);
            }
        }
        // Whatever yaml_serde reads as a value, the one-pass read reads too (else every entry
        // holding one would be parsed twice).
        assert!(refused_here.is_empty(), "{refused_here:?}");
        assert_eq!(both_refuse, 9, "three integers too wide for a Value, in three plain positions");
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Colour {
        Red,
        DarkBlue,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Shape {
        name: String,
        #[serde(default)]
        n: Option<u32>,
        colour: Colour,
        #[serde(default)]
        list: Vec<Shape>,
        #[serde(default)]
        extra: Option<yaml_serde::Value>,
    }

    #[test]
    fn structures_read_alike_and_refusals_fall_back() {
        for text in [
            "name: a\ncolour: red\n",
            "name: 12\nn: 7\ncolour: dark_blue\nlist:\n  - {name: b, colour: red}\n  - name: c\n    colour: 'red'\n",
            "name: a\ncolour: red\nlist:\n",
            "name: a\ncolour: red\nlist: []\nextra: {x: [1, -2, '3', ~, true], y: {z: 0x10}}\n",
            "name: a\ncolour: red\nn: ~\nextra:\n",
            "name: |\n  two\n  lines\ncolour: red\n",
            "name: >-\n  folded\n  text\ncolour: red\n",
        ] {
            assert!(same::<Shape>(text), "{text:?} must read in one pass");
            assert!(same::<yaml_serde::Value>(text));
        }
        // What yaml_serde refuses is refused here too (the caller then takes yaml_serde's message).
        for text in [
            "name: a\n",
            "name: a\ncolour: green\n",
            "name: a\ncolour: red\nn: 300000000000\n",
            "name: a\ncolour: red\nn: '7'\n",
            "name: a\ncolour: red\nn: -1\n",
            "name: a\ncolour: red\nwho: x\n",
            "name: [a]\ncolour: red\n",
            "name: a\ncolour: {red: 1}\n",
            "name: a\ncolour: red\nlist: x\n",
            "name: a\ncolour: red\nextra: {1: a, 0x1: b}\n",
        ] {
            let (a, b) = both::<Shape>(text);
            assert!(b.is_err(), "{text:?}: yaml_serde accepts it");
            assert!(a.is_err(), "{text:?}: the one-pass read accepts {a:?}");
        }
    }
}
