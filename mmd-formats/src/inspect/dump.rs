//! The whole structure of a file, as indented text ([`write_text`]) or, with the `serde`
//! feature, as JSON (`Value` implements `serde::Serialize`).
//!
//! JSON form of each [`Value`]:
//!
//! | value | JSON |
//! |---|---|
//! | struct | an object, fields in file order |
//! | sequence, array | an array |
//! | absent block | `null` |
//! | enum value | `{"Variant": body}` |
//! | integer, index, count | a number (an index's raw value: -1 = none) |
//! | float | a number that reads back as the same `f32` (shortest form); NaN and infinities, which JSON cannot hold, as `{"float": "NaN", "bits": "7fc00000"}` |
//! | raw bytes | `{"hex": "00ff.."}` |
//! | signature | a string (`"PMX "`) when printable ASCII, else `{"hex": ..}` |
//! | clean text | a string |
//! | other text | `{"text": "decoded, U+FFFD where it does not decode", "raw": "hex", "encoding": "utf-16le"}` |
//! | flags | `{"bits": 2075, "names": ["ROTATABLE", ..]}` |
//!
//! "Clean" text is text whose bytes are exactly the encoding of the string (for a fixed
//! Shift_JIS field: the name, then a NUL and zeros), so the JSON loses nothing.

use crate::walk::{Leaf, Value};
use std::io::{self, Write};

/// At most this many leaves are printed on one line as `[a, b, c]`.
const INLINE_MAX: usize = 16;

fn inline_seq(items: &[Value]) -> Option<String> {
    if items.len() > INLINE_MAX {
        return None;
    }
    let mut parts = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Leaf(l) if !matches!(l, Leaf::Text(_) | Leaf::Bytes(_)) => {
                parts.push(l.to_string())
            }
            _ => return None,
        }
    }
    Some(format!("[{}]", parts.join(", ")))
}

/// Writes `value` as indented text: one line per field, `name: value` for leaves,
/// `name: Type` with the fields indented below for structs, short lists of numbers on
/// one line.
///
/// ```
/// use mmd_formats::walk::Value;
/// let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
/// let vmd = mmd_formats::vmd::Vmd::from_bytes(&bytes).unwrap();
/// let mut out = Vec::new();
/// mmd_formats::inspect::dump::write_text(&Value::of(&vmd), &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().starts_with("header: Header\n"));
/// ```
pub fn write_text(value: &Value, out: &mut dyn Write) -> io::Result<()> {
    match value {
        Value::Struct { fields, .. } => {
            for (name, v) in fields {
                item(name, v, 0, out)?;
            }
            Ok(())
        }
        other => item("", other, 0, out),
    }
}

fn item(label: &str, v: &Value, depth: usize, out: &mut dyn Write) -> io::Result<()> {
    let pad = "  ".repeat(depth);
    let sep = if label.is_empty() { "" } else { ": " };
    match v {
        Value::Leaf(l) => writeln!(out, "{pad}{label}{sep}{l}"),
        Value::Absent => writeln!(out, "{pad}{label}{sep}absent"),
        Value::Struct { name, fields } => {
            writeln!(out, "{pad}{label}{sep}{name}")?;
            for (n, f) in fields {
                item(n, f, depth + 1, out)?;
            }
            Ok(())
        }
        Value::Seq(items) => {
            if let Some(line) = inline_seq(items) {
                return writeln!(out, "{pad}{label}{sep}{line}");
            }
            writeln!(out, "{pad}{label}{sep}{}", v.summary())?;
            for (i, x) in items.iter().enumerate() {
                item(&format!("[{i}]"), x, depth + 1, out)?;
            }
            Ok(())
        }
        Value::Variant { variant, body } => {
            let head = format!("{}::{}", variant.enum_name, variant.name);
            match &**body {
                Value::Leaf(l) => writeln!(out, "{pad}{label}{sep}{head}({l})"),
                Value::Struct { fields, .. } => {
                    writeln!(out, "{pad}{label}{sep}{head}")?;
                    for (n, f) in fields {
                        item(n, f, depth + 1, out)?;
                    }
                    Ok(())
                }
                Value::Seq(items) => {
                    if let Some(line) = inline_seq(items) {
                        return writeln!(out, "{pad}{label}{sep}{head} {line}");
                    }
                    writeln!(out, "{pad}{label}{sep}{head} {}", body.summary())?;
                    for (i, x) in items.iter().enumerate() {
                        item(&format!("[{i}]"), x, depth + 1, out)?;
                    }
                    Ok(())
                }
                other => {
                    writeln!(out, "{pad}{label}{sep}{head}")?;
                    item("", other, depth + 1, out)
                }
            }
        }
    }
}

#[cfg(feature = "serde")]
mod json {
    use super::*;
    use crate::walk::hex;
    use serde::ser::{SerializeMap, SerializeSeq, Serializer};
    use serde::Serialize;

    /// `{key: value}`.
    fn single<S: Serializer>(s: S, key: &str, value: &impl Serialize) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(key, value)?;
        m.end()
    }

    /// A float: a number when finite, else its name and bits.
    fn float<S: Serializer>(
        s: S,
        finite: bool,
        name: &str,
        bits: String,
        number: impl FnOnce(S) -> Result<S::Ok, S::Error>,
    ) -> Result<S::Ok, S::Error> {
        if finite {
            return number(s);
        }
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("float", name)?;
        m.serialize_entry("bits", &bits)?;
        m.end()
    }

    impl Serialize for Leaf {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Leaf::Bool(b) => s.serialize_bool(*b),
                Leaf::U8(v) => s.serialize_u8(*v),
                Leaf::I8(v) => s.serialize_i8(*v),
                Leaf::U16(v) => s.serialize_u16(*v),
                Leaf::I16(v) => s.serialize_i16(*v),
                Leaf::U32(v) => s.serialize_u32(*v),
                Leaf::I32(v) => s.serialize_i32(*v),
                Leaf::U64(v) => s.serialize_u64(*v),
                Leaf::I64(v) => s.serialize_i64(*v),
                Leaf::Count(v) => s.serialize_u64(*v),
                Leaf::Index { raw, .. } => s.serialize_i64(*raw),
                Leaf::F32(x) => float(
                    s,
                    x.is_finite(),
                    &format!("{x:?}"),
                    format!("{:08x}", x.to_bits()),
                    |s| s.serialize_f32(*x),
                ),
                Leaf::F64(x) => float(
                    s,
                    x.is_finite(),
                    &format!("{x:?}"),
                    format!("{:016x}", x.to_bits()),
                    |s| s.serialize_f64(*x),
                ),
                Leaf::Bytes(b) => single(s, "hex", &hex(b)),
                Leaf::Magic(m) => {
                    if m.iter().all(|c| (0x20..0x7f).contains(c)) {
                        s.serialize_str(&String::from_utf8_lossy(m))
                    } else {
                        single(s, "hex", &hex(m))
                    }
                }
                Leaf::Text(t) => {
                    if t.clean {
                        return s.serialize_str(&t.text);
                    }
                    let mut m = s.serialize_map(Some(3))?;
                    m.serialize_entry("text", &t.text)?;
                    m.serialize_entry("raw", &hex(&t.raw))?;
                    m.serialize_entry("encoding", &t.kind.encoding_name())?;
                    m.end()
                }
                Leaf::Flags { bits, .. } => {
                    let mut m = s.serialize_map(Some(2))?;
                    m.serialize_entry("bits", bits)?;
                    m.serialize_entry("names", &self.flag_names())?;
                    m.end()
                }
            }
        }
    }

    impl Serialize for Value {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Value::Leaf(l) => l.serialize(s),
                Value::Absent => s.serialize_unit(),
                Value::Struct { fields, .. } => {
                    let mut m = s.serialize_map(Some(fields.len()))?;
                    for (name, v) in fields {
                        m.serialize_entry(name, v)?;
                    }
                    m.end()
                }
                Value::Seq(items) => {
                    let mut q = s.serialize_seq(Some(items.len()))?;
                    for v in items {
                        q.serialize_element(v)?;
                    }
                    q.end()
                }
                Value::Variant { variant, body } => single(s, variant.name, &**body),
            }
        }
    }
}
