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

use crate::walk::{Leaf, Value, Variant, Visitor, Walk};
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

/// Writes `value` as [`write_text`] does, but as it is walked: nothing of the value is
/// held but the open containers and at most 16 leaves of a short list, so the
/// memory taken does not grow with the value.
///
/// ```
/// use mmd_formats::walk::Value;
/// let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
/// let pmx = mmd_formats::pmx::Pmx::from_bytes(&bytes).unwrap();
/// let (mut streamed, mut whole) = (Vec::new(), Vec::new());
/// mmd_formats::inspect::dump::write_text_streamed(&pmx, &mut streamed).unwrap();
/// mmd_formats::inspect::dump::write_text(&Value::of(&pmx), &mut whole).unwrap();
/// assert_eq!(streamed, whole);
/// ```
pub fn write_text_streamed<T: Walk + ?Sized>(value: &T, out: &mut dyn Write) -> io::Result<()> {
    let mut p = TextPrinter {
        out,
        error: None,
        frames: Vec::new(),
    };
    value.walk(&mut p);
    match p.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// How a value's line begins, and at what depth its children go.
struct Slot {
    /// The line up to the value: indentation, label and `: `, and for an enum's body the
    /// `Enum::Variant` before it.
    lead: String,
    /// The indentation depth of the line.
    depth: usize,
    /// The value is an enum's body (its text follows the variant's name).
    body: bool,
}

/// An open container of [`TextPrinter`].
enum Frame {
    /// A struct whose fields are printed at `depth`; the next field's name.
    Struct { depth: usize, next: &'static str },
    /// A list: its line (`slot`), the next index, and while it may still fit on one line,
    /// its leaves so far (`None` once its header line is printed).
    Seq {
        slot: Slot,
        len: usize,
        index: usize,
        inline: Option<Vec<Leaf>>,
    },
    /// An enum value whose body comes next, in `slot`.
    Variant { slot: Slot },
    /// An enum value whose body is printed; nothing more to print for it.
    Done,
}

/// A [`Visitor`] that prints the text form as the value is walked.
struct TextPrinter<'o> {
    out: &'o mut dyn Write,
    error: Option<io::Error>,
    frames: Vec<Frame>,
}

fn pad(depth: usize) -> String {
    "  ".repeat(depth)
}

fn labelled(depth: usize, label: &str) -> String {
    if label.is_empty() {
        pad(depth)
    } else {
        format!("{}{label}: ", pad(depth))
    }
}

fn seq_summary(n: usize) -> String {
    match n {
        1 => "[1 element]".into(),
        n => format!("[{n} elements]"),
    }
}

impl TextPrinter<'_> {
    fn line(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{text}") {
                self.error = Some(e);
            }
        }
    }

    /// A list that held only short leaves so far gets a value that does not fit on its
    /// line: its header line, then the leaves as items.
    fn unfold(&mut self) {
        let Some(Frame::Seq {
            slot, len, inline, ..
        }) = self.frames.last_mut()
        else {
            return;
        };
        let Some(leaves) = inline.take() else {
            return;
        };
        let space = if slot.body { " " } else { "" };
        let head = format!("{}{space}{}", slot.lead, seq_summary(*len));
        let depth = slot.depth + 1;
        self.line(&head);
        for (i, l) in leaves.iter().enumerate() {
            self.line(&format!("{}{l}", labelled(depth, &format!("[{i}]"))));
        }
    }

    /// The slot of the value that begins now (`None`: the top-level struct, which has no
    /// line of its own), given whether it is a short leaf a list may keep on its line.
    /// `Err(())` when a list kept the leaf.
    fn slot(&mut self, short_leaf: Option<&Leaf>) -> Result<Option<Slot>, ()> {
        if let Some(Frame::Seq {
            inline: Some(leaves),
            ..
        }) = self.frames.last_mut()
        {
            if let Some(l) = short_leaf {
                leaves.push(l.clone());
                if let Some(Frame::Seq { index, .. }) = self.frames.last_mut() {
                    *index += 1;
                }
                return Err(());
            }
            self.unfold();
        }
        Ok(match self.frames.last_mut() {
            None => Some(Slot {
                lead: String::new(),
                depth: 0,
                body: false,
            }),
            Some(Frame::Struct { depth, next }) => Some(Slot {
                lead: labelled(*depth, next),
                depth: *depth,
                body: false,
            }),
            Some(Frame::Seq { slot, index, .. }) => {
                let depth = slot.depth + 1;
                *index += 1;
                Some(Slot {
                    lead: labelled(depth, &format!("[{}]", *index - 1)),
                    depth,
                    body: false,
                })
            }
            Some(Frame::Variant { .. }) => {
                let Some(Frame::Variant { slot }) = self.frames.pop() else {
                    unreachable!()
                };
                self.frames.push(Frame::Done);
                Some(slot)
            }
            Some(Frame::Done) => None,
        })
    }

    /// The slot of an enum's body that is neither a leaf, a struct nor a list: the
    /// variant's line, then the body on its own line below.
    fn own_line(&mut self, slot: Slot) -> Slot {
        if !slot.body {
            return slot;
        }
        self.line(&slot.lead);
        Slot {
            lead: pad(slot.depth + 1),
            depth: slot.depth + 1,
            body: false,
        }
    }
}

impl Visitor for TextPrinter<'_> {
    fn leaf(&mut self, leaf: Leaf) {
        let short = !matches!(leaf, Leaf::Text(_) | Leaf::Bytes(_));
        let Ok(Some(slot)) = self.slot(short.then_some(&leaf)) else {
            return;
        };
        if slot.body {
            self.line(&format!("{}({leaf})", slot.lead));
        } else {
            self.line(&format!("{}{leaf}", slot.lead));
        }
    }

    fn absent(&mut self) {
        let Ok(Some(slot)) = self.slot(None) else {
            return;
        };
        let slot = self.own_line(slot);
        self.line(&format!("{}absent", slot.lead));
    }

    fn begin_struct(&mut self, name: &'static str) {
        let top = self.frames.is_empty();
        let Ok(Some(slot)) = self.slot(None) else {
            return;
        };
        if top {
            // The top-level struct has no line: its fields are at depth 0.
            self.frames.push(Frame::Struct { depth: 0, next: "" });
            return;
        }
        if slot.body {
            self.line(&slot.lead);
        } else {
            self.line(&format!("{}{name}", slot.lead));
        }
        self.frames.push(Frame::Struct {
            depth: slot.depth + 1,
            next: "",
        });
    }

    fn field(&mut self, name: &'static str) {
        if let Some(Frame::Struct { next, .. }) = self.frames.last_mut() {
            *next = name;
        }
    }

    fn begin_seq(&mut self, len: usize) {
        let Ok(Some(slot)) = self.slot(None) else {
            return;
        };
        let inline = if len <= INLINE_MAX {
            Some(Vec::with_capacity(len))
        } else {
            let space = if slot.body { " " } else { "" };
            self.line(&format!("{}{space}{}", slot.lead, seq_summary(len)));
            None
        };
        self.frames.push(Frame::Seq {
            slot,
            len,
            index: 0,
            inline,
        });
    }

    fn begin_variant(&mut self, variant: Variant) {
        let Ok(Some(slot)) = self.slot(None) else {
            return;
        };
        let slot = self.own_line(slot);
        let lead = format!("{}{}::{}", slot.lead, variant.enum_name, variant.name);
        self.frames.push(Frame::Variant {
            slot: Slot {
                lead,
                depth: slot.depth,
                body: true,
            },
        });
    }

    fn end(&mut self) {
        match self.frames.pop() {
            Some(Frame::Seq {
                slot,
                inline: Some(leaves),
                ..
            }) => {
                let parts: Vec<String> = leaves.iter().map(Leaf::to_string).collect();
                let space = if slot.body { " " } else { "" };
                self.line(&format!("{}{space}[{}]", slot.lead, parts.join(", ")));
            }
            Some(Frame::Variant { slot }) => {
                // A variant with no body: as an absent one.
                let slot = self.own_line(slot);
                self.line(&format!("{}absent", slot.lead));
            }
            _ => {}
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
