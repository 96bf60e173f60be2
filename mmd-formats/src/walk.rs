//! A reflective walk over every format value: each field in file order, down to typed
//! leaves (integers, floats, raw bytes, text with its raw bytes, indices, flags).
//!
//! [`Walk`] is implemented by the derive for every format type and by hand for the
//! hand-written codecs (text, indices, flags, VPD). A [`Visitor`] receives the walk as
//! events; [`Value`] is the tree the [`Tree`] visitor builds from them, which the
//! [dump](crate::inspect::dump), [diff](crate::inspect::diff) and [explanations](crate::inspect::spans) use.
//!
//! The walk holds everything that decides the bytes: floats are kept as their bits, text
//! as its raw bytes, indices and flags as their raw values. So two values of the same type
//! walk to equal trees exactly when they write the same bytes (VPD, a text format, is the
//! exception: its layout text, such as comments and number formatting, is not walked).
//!
//! ```
//! use mmd_formats::vmd::Vmd;
//! use mmd_formats::walk::{Segment, Value};
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
//! let tree = Value::of(&Vmd::from_bytes(&bytes)?);
//! let keys = tree.get(&[Segment::Field("bone_keys")]).and_then(Value::as_seq);
//! assert!(keys.is_some());
//! # Ok(()) }
//! ```

use crate::error::show_bytes;
use crate::kinds::TextEncoding;
use std::borrow::Cow;
use std::fmt;

pub use crate::path::{write_path, Path, Segment};

/// The text encodings a [`Text`] leaf can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// PMX text (`i32` length, then the bytes) in the header's encoding.
    Pmx(TextEncoding),
    /// A fixed-length Shift_JIS field of this many bytes (VMD, PMD).
    ShiftJisFixed(usize),
    /// Shift_JIS text of a VPD line.
    ShiftJis,
    /// Text ended by a NUL, in the named encoding ([`NulText`](crate::text::NulText)); the
    /// raw bytes end with the NUL.
    NulTerminated(&'static str),
    /// Text filling a region, ended by a NUL with the bytes after it kept
    /// ([`PaddedText`](crate::text::PaddedText)), in the named encoding.
    NulPadded(&'static str),
}

impl TextKind {
    /// The encoding's name: `utf-16le`, `utf-8`, `unknown(7)`, `shift_jis`.
    pub fn encoding_name(self) -> String {
        match self {
            TextKind::Pmx(TextEncoding::Utf16Le) => "utf-16le".into(),
            TextKind::Pmx(TextEncoding::Utf8) => "utf-8".into(),
            TextKind::Pmx(TextEncoding::Unknown(b)) => format!("unknown({b})"),
            TextKind::ShiftJisFixed(_) | TextKind::ShiftJis => "shift_jis".into(),
            TextKind::NulTerminated(e) | TextKind::NulPadded(e) => e.to_ascii_lowercase(),
        }
    }
}

/// A text leaf: the stored bytes, their encoding and the decoded text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Text {
    /// The stored bytes (without a length prefix; a fixed field's whole `N` bytes).
    pub raw: Vec<u8>,
    /// How the bytes are encoded.
    pub kind: TextKind,
    /// The text decoded; where the bytes do not decode cleanly, with U+FFFD (PMX) or
    /// without the cut character (Shift_JIS), as the format's own views show it.
    pub text: String,
    /// True when `raw` is exactly what encoding `text` gives: for a fixed Shift_JIS
    /// field, the name, then (when it leaves room) a NUL and zeros. False for text that
    /// does not decode, and for fields with junk after the NUL.
    pub clean: bool,
}

/// A value at the bottom of the walk.
///
/// Equality compares floats by their bits (so `-0.0 != 0.0` and a NaN equals itself):
/// two leaves are equal exactly when they are stored as the same bytes.
#[derive(Debug, Clone)]
pub enum Leaf {
    /// A `bool` (only as an enum selector; no format stores one).
    Bool(bool),
    /// An 8-bit unsigned integer.
    U8(u8),
    /// An 8-bit signed integer.
    I8(i8),
    /// A 16-bit unsigned integer.
    U16(u16),
    /// A 16-bit signed integer.
    I16(i16),
    /// A 32-bit unsigned integer.
    U32(u32),
    /// A 32-bit signed integer.
    I32(i32),
    /// A 64-bit unsigned integer.
    U64(u64),
    /// A 64-bit signed integer.
    I64(i64),
    /// A 32-bit float, as stored.
    F32(f32),
    /// A 64-bit float, as stored.
    F64(f64),
    /// Raw bytes (a `u8` sequence or array, trailing bytes).
    Bytes(Vec<u8>),
    /// A fixed signature.
    Magic(&'static [u8]),
    /// Text.
    Text(Box<Text>),
    /// An index whose width the header declares, with its raw value (-1 = none for
    /// every kind but vertex).
    Index {
        /// The kind of index (`bone`, `vertex`).
        kind: &'static str,
        /// The raw value as stored (a 4-byte vertex index is its unsigned bit pattern).
        raw: i64,
    },
    /// A flag set (declared with [`mmd_flags!`](crate::mmd_flags)).
    Flags {
        /// The flag type's name.
        type_name: &'static str,
        /// The raw value, unknown bits included.
        bits: u64,
        /// The stored size in bytes.
        size: u8,
        /// Every named bit of the type: (name, mask).
        names: &'static [(&'static str, u64)],
    },
    /// The count before a counted sequence (only in [explanations](crate::inspect::spans)).
    Count(u64),
}

impl Leaf {
    /// The names of the set bits of a [`Leaf::Flags`] (empty for other leaves).
    pub fn flag_names(&self) -> Vec<&'static str> {
        match self {
            Leaf::Flags { bits, names, .. } => names
                .iter()
                .filter(|(_, m)| *m != 0 && bits & m == *m)
                .map(|(n, _)| *n)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// An integer leaf's value (flags give their bits, indices their raw value).
    pub fn as_i128(&self) -> Option<i128> {
        Some(match *self {
            Leaf::Bool(b) => i128::from(b),
            Leaf::U8(v) => v.into(),
            Leaf::I8(v) => v.into(),
            Leaf::U16(v) => v.into(),
            Leaf::I16(v) => v.into(),
            Leaf::U32(v) => v.into(),
            Leaf::I32(v) => v.into(),
            Leaf::U64(v) => v.into(),
            Leaf::I64(v) => v.into(),
            Leaf::Index { raw, .. } => raw.into(),
            Leaf::Flags { bits, .. } => bits.into(),
            Leaf::Count(n) => n.into(),
            _ => return None,
        })
    }
}

impl PartialEq for Leaf {
    fn eq(&self, other: &Self) -> bool {
        use Leaf::*;
        match (self, other) {
            (F32(a), F32(b)) => a.to_bits() == b.to_bits(),
            (F64(a), F64(b)) => a.to_bits() == b.to_bits(),
            (Bytes(a), Bytes(b)) => a == b,
            (Magic(a), Magic(b)) => a == b,
            (Text(a), Text(b)) => a == b,
            (Index { kind: k1, raw: r1 }, Index { kind: k2, raw: r2 }) => k1 == k2 && r1 == r2,
            (
                Flags {
                    type_name: t1,
                    bits: b1,
                    ..
                },
                Flags {
                    type_name: t2,
                    bits: b2,
                    ..
                },
            ) => t1 == t2 && b1 == b2,
            // Integers, bools and counts: the same variant and the same value.
            (a, b) => {
                std::mem::discriminant(a) == std::mem::discriminant(b)
                    && a.as_i128().is_some()
                    && a.as_i128() == b.as_i128()
            }
        }
    }
}

/// Writes a float so that reading the text back as the same type gives the same value
/// (Rust's shortest round-trip form; `NaN`, `inf` and `-inf` for the others).
fn write_float(f: &mut fmt::Formatter<'_>, x: impl fmt::Debug) -> fmt::Result {
    write!(f, "{x:?}")
}

/// Writes bytes as lower-case hex pairs with no separator.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

impl fmt::Display for Leaf {
    /// The value as `mmd explain` and `mmd diff` print it: integers in decimal, floats in
    /// their shortest round-trip form, text quoted (with its raw bytes in hex where it is
    /// not clean), bytes in hex, indices as `bone#3`, flags as `0x0023 (A | B)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leaf::Bool(b) => write!(f, "{b}"),
            Leaf::U8(v) => write!(f, "{v}"),
            Leaf::I8(v) => write!(f, "{v}"),
            Leaf::U16(v) => write!(f, "{v}"),
            Leaf::I16(v) => write!(f, "{v}"),
            Leaf::U32(v) => write!(f, "{v}"),
            Leaf::I32(v) => write!(f, "{v}"),
            Leaf::U64(v) => write!(f, "{v}"),
            Leaf::I64(v) => write!(f, "{v}"),
            Leaf::F32(x) => write_float(f, x),
            Leaf::F64(x) => write_float(f, x),
            Leaf::Bytes(b) => write!(f, "bytes {}", hex(b)),
            Leaf::Magic(m) => write!(f, "{}", show_bytes(m)),
            Leaf::Text(t) => {
                write!(f, "{:?}", t.text)?;
                if !t.clean {
                    write!(f, " (raw {} {})", t.kind.encoding_name(), hex(&t.raw))?;
                }
                Ok(())
            }
            Leaf::Index { kind, raw } => write!(f, "{}#{raw}", kind.replace(' ', "_")),
            Leaf::Flags { bits, size, .. } => {
                let width = usize::from(*size) * 2;
                write!(f, "{bits:#0w$x}", w = width + 2)?;
                let names = self.flag_names();
                if !names.is_empty() {
                    write!(f, " ({})", names.join(" | "))?;
                }
                Ok(())
            }
            Leaf::Count(n) => write!(f, "{n}"),
        }
    }
}

/// An enum value's variant, as the walk reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The enum's type name (`Weight`).
    pub enum_name: &'static str,
    /// The variant's name (`Bdef2`).
    pub name: &'static str,
    /// The tag or selector value that chooses the variant.
    pub tag: Leaf,
    /// True when the tag is stored in the file just before the variant's fields; false
    /// when an earlier field selects the variant (`selected_by`).
    pub tag_in_file: bool,
    /// The fixed signature that opens the enum's value, if it declares one (it is
    /// written before the tag, and is the child `magic` of the value).
    pub magic: Option<&'static [u8]>,
}

/// Receives a walk as events.
///
/// The grammar of one value is:
/// * a leaf: [`leaf`](Visitor::leaf);
/// * an absent optional value: [`absent`](Visitor::absent);
/// * a struct: [`begin_struct`](Visitor::begin_struct), then per field
///   [`field`](Visitor::field) followed by the field's value, then [`end`](Visitor::end);
/// * a sequence or array: [`begin_seq`](Visitor::begin_seq), its values, [`end`](Visitor::end);
/// * an enum value: [`begin_variant`](Visitor::begin_variant), one value (the variant's
///   body: its only tuple field's value, or a struct of its fields), [`end`](Visitor::end).
///
/// Fields come in file order. A sequence of `u8` is one [`Leaf::Bytes`].
pub trait Visitor {
    /// A leaf value.
    fn leaf(&mut self, leaf: Leaf);
    /// An optional value that is absent.
    fn absent(&mut self);
    /// A struct named `name` begins.
    fn begin_struct(&mut self, name: &'static str);
    /// The next value is the field `name` of the current struct.
    fn field(&mut self, name: &'static str);
    /// A sequence of `len` values begins.
    fn begin_seq(&mut self, len: usize);
    /// An enum value begins; its body follows.
    fn begin_variant(&mut self, variant: Variant);
    /// The current struct, sequence or enum value ends.
    fn end(&mut self);
}

/// A value that can be walked field by field (see the [module docs](self)).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no byte layout mmd-formats knows",
    label = "not a format type",
    note = "a format field is a number, an array of them, a type that derives `Mmd`, a flag type (`mmd_flags!`), text (`PmxText`: length-prefixed; `ShiftJis<N>`: N fixed bytes) or an index (`Index<K>`, `VertexIndex`)"
)]
pub trait Walk {
    /// Reports this value to `v`.
    fn walk(&self, v: &mut dyn Visitor);

    /// Reports a sequence of values: by default a [`Visitor::begin_seq`] with each
    /// element; `u8` overrides it with one [`Leaf::Bytes`].
    fn walk_seq(items: &[Self], v: &mut dyn Visitor)
    where
        Self: Sized,
    {
        v.begin_seq(items.len());
        for item in items {
            item.walk(v);
        }
        v.end();
    }
}

macro_rules! leaf_walk {
    ($($t:ty => $v:ident),*) => {$(
        impl Walk for $t {
            fn walk(&self, v: &mut dyn Visitor) {
                v.leaf(Leaf::$v(*self));
            }
        }
    )*};
}
leaf_walk!(bool => Bool, i8 => I8, u16 => U16, i16 => I16, u32 => U32, i32 => I32,
    u64 => U64, i64 => I64, f32 => F32, f64 => F64);

impl Walk for u8 {
    fn walk(&self, v: &mut dyn Visitor) {
        v.leaf(Leaf::U8(*self));
    }
    fn walk_seq(items: &[Self], v: &mut dyn Visitor) {
        v.leaf(Leaf::Bytes(items.to_vec()));
    }
}

impl<T: Walk, const N: usize> Walk for [T; N] {
    fn walk(&self, v: &mut dyn Visitor) {
        T::walk_seq(self, v);
    }
}

impl<T: Walk> Walk for Vec<T> {
    fn walk(&self, v: &mut dyn Visitor) {
        T::walk_seq(self, v);
    }
}

impl<T: Walk> Walk for Option<T> {
    fn walk(&self, v: &mut dyn Visitor) {
        match self {
            Some(x) => x.walk(v),
            None => v.absent(),
        }
    }
}

impl<T: Walk + ?Sized> Walk for &T {
    fn walk(&self, v: &mut dyn Visitor) {
        (**self).walk(v);
    }
}

/// A walked value as a tree (built by [`Tree`]; see [`Value::of`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A leaf.
    Leaf(Leaf),
    /// An optional value that is absent.
    Absent,
    /// A struct's fields in file order.
    Struct {
        /// The type name.
        name: &'static str,
        /// (field name, value) in file order.
        fields: Vec<(&'static str, Value)>,
    },
    /// A sequence or array (of anything but `u8`, which is [`Leaf::Bytes`]).
    Seq(Vec<Value>),
    /// An enum value.
    Variant {
        /// The variant chosen.
        variant: Variant,
        /// Its body: the only tuple field's value, or a struct of the fields.
        body: Box<Value>,
    },
}

impl Value {
    /// Walks `value` into a tree.
    pub fn of<T: Walk + ?Sized>(value: &T) -> Value {
        let mut tree = Tree::new();
        value.walk(&mut tree);
        tree.finish()
    }

    /// The leaf, when this is one.
    pub fn as_leaf(&self) -> Option<&Leaf> {
        match self {
            Value::Leaf(l) => Some(l),
            _ => None,
        }
    }

    /// The elements, when this is a sequence.
    pub fn as_seq(&self) -> Option<&[Value]> {
        match self {
            Value::Seq(v) => Some(v),
            _ => None,
        }
    }

    /// The field `name`, when this is a struct that has it.
    pub fn field(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Struct { fields, .. } => fields.iter().find(|(n, _)| *n == name).map(|f| &f.1),
            _ => None,
        }
    }

    /// The value one segment down. [`Segment::Count`] and [`Segment::Tag`] name no value
    /// of the tree: see [`Value::lookup`].
    pub fn child(&self, seg: Segment) -> Option<&Value> {
        match (self, seg) {
            (Value::Struct { .. }, Segment::Field(name)) => self.field(name),
            (Value::Seq(items), Segment::Index(i)) => items.get(i),
            (Value::Variant { variant, body }, Segment::Field(name)) if variant.name == name => {
                Some(body)
            }
            _ => None,
        }
    }

    /// The signature of an enum value that declares one (see [`Variant::magic`]).
    fn variant_magic(&self) -> Option<&'static [u8]> {
        match self {
            Value::Variant { variant, .. } => variant.magic,
            _ => None,
        }
    }

    /// The value at `path` (empty: this value).
    pub fn get(&self, path: &[Segment]) -> Option<&Value> {
        path.iter().try_fold(self, |v, seg| v.child(*seg))
    }

    /// The value at `path`, where a last segment [`Segment::Count`] gives the sequence's
    /// length as a [`Leaf::Count`] and [`Segment::Tag`] the variant's tag.
    pub fn lookup(&self, path: &[Segment]) -> Option<Cow<'_, Value>> {
        let leaf = |l: Leaf| Some(Cow::Owned(Value::Leaf(l)));
        match path.split_last() {
            Some((Segment::Count, parent)) => match self.get(parent)? {
                Value::Seq(items) => leaf(Leaf::Count(items.len() as u64)),
                Value::Leaf(Leaf::Bytes(b)) => leaf(Leaf::Count(b.len() as u64)),
                _ => None,
            },
            Some((Segment::Tag, parent)) => match self.get(parent)? {
                Value::Variant { variant, .. } if variant.tag_in_file => leaf(variant.tag.clone()),
                _ => None,
            },
            Some((Segment::Field("magic"), parent)) => {
                let p = self.get(parent)?;
                match p.variant_magic() {
                    Some(m) => leaf(Leaf::Magic(m)),
                    None => p.field("magic").map(Cow::Borrowed),
                }
            }
            _ => self.get(path).map(Cow::Borrowed),
        }
    }

    /// Every leaf with its path, in file order (absent values and empty sequences have
    /// none; the signature of an enum that declares one is not listed).
    pub fn leaves(&self) -> Vec<(Path, &Leaf)> {
        fn go<'a>(v: &'a Value, path: &mut Vec<Segment>, out: &mut Vec<(Path, &'a Leaf)>) {
            match v {
                Value::Leaf(l) => out.push((Path(path.clone()), l)),
                Value::Absent => {}
                Value::Struct { fields, .. } => {
                    for (name, f) in fields {
                        path.push(Segment::Field(name));
                        go(f, path, out);
                        path.pop();
                    }
                }
                Value::Seq(items) => {
                    for (i, item) in items.iter().enumerate() {
                        path.push(Segment::Index(i));
                        go(item, path, out);
                        path.pop();
                    }
                }
                Value::Variant { variant, body } => {
                    path.push(Segment::Field(variant.name));
                    go(body, path, out);
                    path.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(self, &mut Vec::new(), &mut out);
        out
    }

    /// A one-line summary: a leaf's value, `absent`, `Bone {..}`, `[12 elements]`,
    /// `Weight::Bdef2`.
    pub fn summary(&self) -> String {
        match self {
            Value::Leaf(l) => l.to_string(),
            Value::Absent => "absent".into(),
            Value::Struct { name, .. } => format!("{name} {{..}}"),
            Value::Seq(items) => match items.len() {
                1 => "[1 element]".into(),
                n => format!("[{n} elements]"),
            },
            Value::Variant { variant, .. } => format!("{}::{}", variant.enum_name, variant.name),
        }
    }
}

/// A [`Visitor`] that builds the [`Value`] tree.
#[derive(Debug, Default)]
pub struct Tree {
    /// Open containers, innermost last; each with the field name its next value takes.
    stack: Vec<Open>,
    done: Option<Value>,
}

#[derive(Debug)]
enum Open {
    Struct {
        name: &'static str,
        fields: Vec<(&'static str, Value)>,
        next: &'static str,
    },
    Seq(Vec<Value>),
    Variant(Variant, Option<Value>),
}

impl Tree {
    /// An empty builder.
    pub fn new() -> Self {
        Tree::default()
    }

    /// The tree built (an empty struct if nothing was walked).
    pub fn finish(self) -> Value {
        self.done.unwrap_or(Value::Struct {
            name: "",
            fields: Vec::new(),
        })
    }

    fn push(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => self.done = Some(value),
            Some(Open::Struct { fields, next, .. }) => fields.push((next, value)),
            Some(Open::Seq(items)) => items.push(value),
            Some(Open::Variant(_, body)) => *body = Some(value),
        }
    }
}

impl Visitor for Tree {
    fn leaf(&mut self, leaf: Leaf) {
        self.push(Value::Leaf(leaf));
    }
    fn absent(&mut self) {
        self.push(Value::Absent);
    }
    fn begin_struct(&mut self, name: &'static str) {
        self.stack.push(Open::Struct {
            name,
            fields: Vec::new(),
            next: "",
        });
    }
    fn field(&mut self, name: &'static str) {
        if let Some(Open::Struct { next, .. }) = self.stack.last_mut() {
            *next = name;
        }
    }
    fn begin_seq(&mut self, len: usize) {
        self.stack
            .push(Open::Seq(Vec::with_capacity(len.min(1 << 16))));
    }
    fn begin_variant(&mut self, variant: Variant) {
        self.stack.push(Open::Variant(variant, None));
    }
    fn end(&mut self) {
        let value = match self.stack.pop() {
            Some(Open::Struct { name, fields, .. }) => Value::Struct { name, fields },
            Some(Open::Seq(items)) => Value::Seq(items),
            Some(Open::Variant(variant, body)) => Value::Variant {
                variant,
                body: Box::new(body.unwrap_or(Value::Absent)),
            },
            None => return,
        };
        self.push(value);
    }
}
