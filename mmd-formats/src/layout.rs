//! Layout descriptors: what the derive knows about each format type, as data.
//!
//! The descriptors *describe* the codec; they do not drive it. The derive builds them from
//! the same model that generates the reader and writer, so they cannot drift apart, and
//! `mmd-spec` renders them into the format reference.

/// How many bytes a value takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Always this many bytes.
    Fixed(u64),
    /// An index of the named kind (`bone`), whose width the context declares.
    Index(&'static str),
    /// A length-prefixed string: 4 bytes of length, then that many bytes.
    Text,
    /// Depends on the data (tags, counts, conditions).
    Variable,
}

impl Size {
    /// The size of consecutive values: fixed only when every part is fixed.
    pub const fn sum(parts: &[Size]) -> Size {
        let mut total = 0u64;
        let mut i = 0;
        while i < parts.len() {
            match parts[i] {
                Size::Fixed(n) => total += n,
                _ => return Size::Variable,
            }
            i += 1;
        }
        Size::Fixed(total)
    }

    /// `n` consecutive values of this size.
    pub const fn times(self, n: u64) -> Size {
        match self {
            Size::Fixed(s) => Size::Fixed(s * n),
            _ => Size::Variable,
        }
    }
}

/// The smallest of several minimum sizes (0 for none).
pub const fn min_of(parts: &[u64]) -> u64 {
    if parts.is_empty() {
        return 0;
    }
    let mut m = parts[0];
    let mut i = 1;
    while i < parts.len() {
        if parts[i] < m {
            m = parts[i];
        }
        i += 1;
    }
    m
}

/// The sum of several minimum sizes.
pub const fn sum_of(parts: &[u64]) -> u64 {
    let mut t = 0u64;
    let mut i = 0;
    while i < parts.len() {
        t += parts[i];
        i += 1;
    }
    t
}

/// The description of one format type.
#[derive(Debug)]
pub struct TypeLayout {
    /// The Rust type name.
    pub name: &'static str,
    /// The type's `///` doc comment.
    pub doc: &'static str,
    /// The context type its reader and writer take (`None`: any context).
    pub context: Option<&'static str>,
    /// Bytes that must open the value (a file signature), if any.
    pub magic: Option<&'static [u8]>,
    /// For the root type of a file format: how the reference names the format
    /// (`#[mmd(file(id = "...", title = "...", application = "..."))]`).
    pub file: Option<FileInfo>,
    /// For a record read inside another (`#[mmd(parent = Section)]`): the enclosing
    /// record's layout, whose fields its expressions name as `parent.field`
    /// ([`Expr::Parent`], Kaitai's `_parent`).
    pub parent: Option<fn() -> Option<&'static TypeLayout>>,
    /// Its fields, variants or bits.
    pub body: Body,
}

/// The shape of a format type.
#[derive(Debug)]
pub enum Body {
    /// Fields in file order.
    Struct(&'static [FieldLayout]),
    /// A choice of layouts, picked by a tag.
    Enum {
        /// Where the tag comes from.
        tag: TagSource,
        /// Every variant with its tag value.
        variants: &'static [VariantLayout],
    },
    /// A bit set stored as an unsigned integer.
    Flags {
        /// The integer type (`u8`, `u16`, `u32`).
        repr: &'static str,
        /// The integer type, as a number.
        prim: Prim,
        /// Every named bit.
        bits: &'static [FlagBit],
    },
    /// A value with a hand-written codec (described by its doc and size only).
    Opaque,
}

/// Where an enum's tag comes from.
#[derive(Debug)]
pub enum TagSource {
    /// The tag is read from the file just before the variant's fields.
    Read {
        /// The tag's type.
        ty: &'static str,
        /// The tag's type, as a number.
        prim: Prim,
        /// The tag's size in bytes.
        size: u64,
        /// What the tag is called in messages and the reference.
        name: &'static str,
        /// True for `#[mmd(tag = u32, tag_form = fourcc)]`: the tag is four bytes of
        /// text read as a little-endian `u32` (a RIFF chunk id); messages and the
        /// reference show each value as [`fourcc_text`] does (`"fmt "`) beside its
        /// number, which [`VariantLayout::tag`] keeps.
        fourcc: bool,
    },
    /// The tag is not in the file at this place: the enclosing struct computes it from
    /// earlier fields (see [`FieldLayout::select`]).
    Selected {
        /// The selector's type.
        ty: &'static str,
        /// The selector's type, as a number (`Bool` for a `bool`).
        prim: Prim,
        /// What the selector is called in messages and the reference.
        name: &'static str,
    },
}

/// A FourCC's text: its four bytes in file order (`v.to_le_bytes()`), in double quotes,
/// with `"` and `\` escaped by a backslash and any byte outside printable ASCII as `\xNN`.
///
/// ```
/// use mmd_formats::layout::fourcc_text;
/// assert_eq!(fourcc_text(u32::from_le_bytes(*b"fmt ")), r#""fmt ""#);
/// assert_eq!(fourcc_text(u32::from_le_bytes([b'a', 0, b'"', 0xff])), r#""a\x00\"\xff""#);
/// ```
pub fn fourcc_text(v: u32) -> String {
    let mut s = String::from("\"");
    for b in v.to_le_bytes() {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    s
}

impl VariantLayout {
    /// The variant's tag as the reference shows it: its number, and for a FourCC tag
    /// ([`TagSource::Read`] with `fourcc`) the text beside it (`1635017060 ("data")`);
    /// `None` for the default variant.
    pub fn tag_shown(&self, tag: &TagSource) -> Option<String> {
        if self.default {
            return None;
        }
        let text = match tag {
            TagSource::Read { fourcc: true, .. } => self.tag.parse::<u32>().ok().map(fourcc_text),
            _ => None,
        };
        Some(match text {
            Some(t) => format!("{} ({t})", self.tag),
            None => self.tag.to_string(),
        })
    }
}

/// One variant of a tagged enum.
#[derive(Debug)]
pub struct VariantLayout {
    /// The variant name.
    pub name: &'static str,
    /// The variant's doc comment.
    pub doc: &'static str,
    /// The tag value that selects it, as written in the source (empty for the default
    /// variant).
    pub tag: &'static str,
    /// The variant's fields in file order.
    pub fields: &'static [FieldLayout],
    /// True for the default variant (`#[mmd(default)]`): it is read for every tag no other
    /// variant lists, and its first field holds that tag, read before the variant (it is
    /// not read again; it is written back as the variant's first bytes).
    pub default: bool,
}

/// One named bit of a flag type.
#[derive(Debug)]
pub struct FlagBit {
    /// The constant's name.
    pub name: &'static str,
    /// The bit mask.
    pub mask: u64,
    /// What the bit means.
    pub doc: &'static str,
}

/// How many values a field holds.
#[derive(Debug, Clone, Copy)]
pub enum Repeat {
    /// Exactly one value.
    One,
    /// A count of type `count_ty` (`count_size` bytes) precedes the values.
    Counted {
        /// The count's type.
        count_ty: &'static str,
        /// The count's size in bytes.
        count_size: u64,
        /// The count's type.
        count_prim: Prim,
    },
    /// The number of values is given by an expression over earlier fields or the context.
    Len(Expression),
    /// Values up to the end of the input, or of the region a [`FieldLayout::bound`] of an
    /// enclosing field gives (Kaitai's `repeat: eos`); for bytes (`Vec<u8>`), every byte
    /// up to there.
    Rest,
    /// Values until the condition holds of the one just read ([`Expr::Element`]), which is
    /// kept as the last (Kaitai's `repeat: until`).
    Until(Expression),
}

/// When a field is present.
#[derive(Debug, Clone, Copy)]
pub enum Presence {
    /// Always.
    Always,
    /// Only when the condition (over earlier fields and the context) holds.
    If(Expression),
    /// Unless the input ends exactly where the field would start.
    UnlessEof,
    /// When the condition holds and the input has not ended.
    IfUnlessEof(Expression),
}

/// One field of a struct or variant.
#[derive(Debug)]
pub struct FieldLayout {
    /// The field name (`0`, `1`, … for tuple fields).
    pub name: &'static str,
    /// The field's doc comment.
    pub doc: &'static str,
    /// The Rust type of one value, as written in the source.
    pub ty: &'static str,
    /// The size of one value.
    pub size: Size,
    /// The layout of one value's type, when it is a format type.
    pub layout: fn() -> Option<&'static TypeLayout>,
    /// What one value is (a number, an array, a format type, a leaf).
    pub shape: fn() -> Shape,
    /// How many values.
    pub repeat: Repeat,
    /// When present.
    pub presence: Presence,
    /// `size = expr`: each value is read from exactly this many bytes, its reader bounded
    /// to them (reading past them is an error at the value); the value's type accounts for
    /// every byte (ending in a [`Repeat::Rest`] field to keep the ones it does not use).
    pub bound: Option<Expression>,
    /// Where the field is read: in sequence (most fields), at a position of its own, or
    /// as the bytes between positioned fields.
    pub placement: Placement,
    /// For a field whose enum is selected by earlier fields: the selecting expression.
    pub select: Option<Expression>,
    /// When the context changes after this field: the switch as written
    /// (`PmxContext(header)` for a declared context, else the expression).
    pub switch_ctx: Option<&'static str>,
    /// When the context changes to a declared context ([`DescribeContext`]): which one, and
    /// the expressions (over earlier fields) passed as its parameters. `None` for a switch
    /// given as an opaque expression (`#[mmd(switch_ctx = expr)]`).
    pub context: Option<ContextSwitch>,
    /// The byte order of the field's numbers (each value, each element of an array, and
    /// the count before a counted field): its own `endian`, or the enclosing struct's.
    /// [`Endian::Little`] for every field that says nothing and for fields that are not
    /// numbers (a nested format type keeps the byte order it declares itself).
    pub endian: Endian,
}

/// The byte order of a field's numbers (`#[mmd(endian = ...)]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Endian {
    /// Least significant byte first (every MMD format; the default).
    Little,
    /// Most significant byte first.
    Big,
    /// Big-endian when the condition (over earlier fields and the context) holds, else
    /// little-endian: `endian = if cond { big } else { little }` (a TIFF-like header whose
    /// first bytes say which).
    BigIf(Expression),
}

impl Endian {
    /// True for [`Endian::Little`], the default.
    pub const fn is_little(&self) -> bool {
        matches!(self, Endian::Little)
    }
}

/// Where a field's bytes are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Placement {
    /// In sequence: after the field before it.
    Sequential,
    /// At a position of its own (`#[mmd(pos = expr, size = expr)]`, Kaitai's `pos:`
    /// instances): each value is read from the [`FieldLayout::bound`] bytes at `pos` (an
    /// offset from the record's first byte, or from the start of the field `base`), after
    /// the sequential fields, without moving their position. For a list, `pos` and the
    /// size name the element's index ([`Expr::ItemIndex`]). Positioned values lie in any
    /// order, may overlap each other and the sequential fields, and leave holes that the
    /// record's [`Placement::Gaps`] field keeps.
    At {
        /// The position.
        pos: Expression,
        /// The field the position is relative to (`None`: the record's first byte).
        base: Option<&'static str>,
    },
    /// The bytes from the end of the sequential fields to the end of the input that no
    /// positioned value holds, as runs in file order (`#[mmd(gaps)]`, a `Vec<Vec<u8>>`):
    /// what makes a file with junk between its positioned parts round-trip.
    Gaps,
}

/// A switch to a declared context (`#[mmd(context = Ctx(arg, ...))]`).
#[derive(Debug, Clone, Copy)]
pub struct ContextSwitch {
    /// The context's description.
    pub layout: fn() -> &'static ContextLayout,
    /// One expression per parameter of the context, over the fields read so far
    /// (the field carrying the switch included).
    pub args: &'static [Expression],
}

/// An expression of the grammar (a length, a condition, a selector, a context argument
/// or member): the text as written, for the reference, and the same expression as a
/// tree, for the renderers. The derive builds both from the source and refuses, where
/// the expression is written, a form the tree cannot hold (see [`Expr`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expression {
    /// The expression as written (`*flags & 1 != 0`).
    pub text: &'static str,
    /// The expression as a tree.
    pub tree: &'static Expr,
}

impl std::fmt::Display for Expression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text)
    }
}

/// An expression of the grammar as a tree: what the derive accepts in `len`, `if`,
/// `select`, context arguments and context members, each node a form every renderer
/// (reader, writer, Markdown, JSON Schema, Kaitai `.ksy`) can state. `*x` and `&x` are
/// the value of `x` and parentheses only group: neither has a node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expr {
    /// An integer literal (`2`, `0x10`, `3u8`; a negative one is [`UnOp::Neg`] of it).
    Int(u64),
    /// A float literal, as written (`2.05`).
    Float(&'static str),
    /// `true` or `false`.
    Bool(bool),
    /// A byte-string literal (`b"VMD"`), only as the argument of [`Helper::StartsWith`].
    Bytes(&'static [u8]),
    /// A name: an earlier field of the record (`flags`), or a parameter of the context
    /// whose member is computed (`header`).
    Name(&'static str),
    /// The element just read, in the condition of [`Repeat::Until`] (Kaitai's `_`).
    Element,
    /// The index of the element being placed (`_index`, Kaitai's `_index`), in the
    /// position and size of a positioned list ([`Placement::At`]).
    ItemIndex,
    /// A member of the context in force (`ctx.bones`).
    Ctx(&'static str),
    /// The enclosing record, `n` levels up (`parent` is 1, `parent.parent` 2; Kaitai's
    /// `_parent`, `_parent._parent`), only as the base of an [`Expr::Field`]:
    /// `parent.item_count` is `Field(Parent(1), "item_count")`, a field the enclosing
    /// record ([`TypeLayout::parent`]) read before the field that holds this record.
    Parent(u32),
    /// A field of a record value (`header.globals`; `pair.0` as `"0"`).
    Field(&'static Expr, &'static str),
    /// An element of a sequence (`header.globals[2]`); a missing element is an error.
    Index(&'static Expr, &'static Expr),
    /// A named constant of a flag type (`BoneFlags::IK`).
    Flag {
        /// The flag type (`BoneFlags`).
        ty: &'static str,
        /// The constant (`IK`).
        name: &'static str,
    },
    /// `-x` or `!x`.
    Unary(UnOp, &'static Expr),
    /// `a OP b`.
    Binary(BinOp, &'static Expr, &'static Expr),
    /// `if c { a } else { b }` (`else if` nests another).
    If(&'static Expr, &'static Expr, &'static Expr),
    /// `x as T` or `T::from(x)`, `T` a number type (`u8` to `u64`, `i8` to `i64`, `usize`,
    /// `isize`, `f32`, `f64`); between integers a value the target does not hold is an
    /// error (not a wrap), a float becomes an integer by dropping its fraction.
    Cast(&'static Expr, &'static str),
    /// A helper, its receiver first (`ctx.morphs.saturating_sub(1)` is
    /// `Call(SaturatingSub, [ctx.morphs, 1])`).
    Call(Helper, &'static [Expr]),
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-x` (of a signed integer or a float; overflow is an error).
    Neg,
    /// `!x`: logical not of a `bool`, bitwise not of an integer.
    Not,
}

/// A binary operator. Arithmetic between integers that overflows (or divides by 0, or
/// shifts by a negative amount or the width or more) is an error, never a panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (integer division truncates toward 0).
    Div,
    /// `%` (the remainder has the sign of the dividend).
    Rem,
    /// `<<`.
    Shl,
    /// `>>` (arithmetic for signed integers).
    Shr,
    /// `&`.
    BitAnd,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `&&`.
    And,
    /// `||`.
    Or,
}

impl BinOp {
    /// The operator as Rust writes it (`<<`, `&&`).
    pub const fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// The helpers an expression may call, as methods of their first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Helper {
    /// `x.len()`: the number of elements of a sequence (or bytes of a byte array).
    Len,
    /// `a.saturating_sub(b)`: `a - b`, or 0 where that would be below 0 (unsigned).
    SaturatingSub,
    /// `flags.contains(BITS)`: every bit of `BITS` is set in the flag field.
    Contains,
    /// `flags.intersects(BITS)`: some bit of `BITS` is set in the flag field.
    Intersects,
    /// `bytes.starts_with(b"...")`: a byte field starts with printable ASCII bytes.
    StartsWith,
    /// `a.min(b)`: the smaller of two numbers.
    Min,
    /// `a.max(b)`: the larger of two numbers.
    Max,
    /// `x.abs()`: the absolute value (of a signed integer, where `-i32::MIN` is an error,
    /// or a float).
    Abs,
    /// `x.unwrap_or(d)`: the value of `x`, an earlier field that is an `Option` of a
    /// number (`#[mmd(if = ...)]`), or `d` when it is absent (a BMP's width, present
    /// only in the headers that have one). The `.ksy` states it with the field's
    /// condition (`(cond ? x : d)`).
    UnwrapOr,
}

impl Helper {
    /// The method's name (`saturating_sub`).
    pub const fn name(self) -> &'static str {
        match self {
            Helper::Len => "len",
            Helper::SaturatingSub => "saturating_sub",
            Helper::Contains => "contains",
            Helper::Intersects => "intersects",
            Helper::StartsWith => "starts_with",
            Helper::Min => "min",
            Helper::Max => "max",
            Helper::Abs => "abs",
            Helper::UnwrapOr => "unwrap_or",
        }
    }
}

/// How the reference names a file format (on its root type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileInfo {
    /// A short id, also the file extension and the Kaitai id (`pmx`).
    pub id: &'static str,
    /// The document title (`PMX 2.0 / 2.1`).
    pub title: &'static str,
    /// The programs that read and write the format.
    pub application: &'static str,
}

/// A context computed from fields read earlier, declared with `#[derive(MmdContext)]`.
///
/// Its parameters are the values the switching record passes
/// ([`ContextSwitch::args`]); each member is an expression over them, in the language of
/// conditions, with the values it accepts. The derive generates the computation and its
/// errors from the same declaration.
#[derive(Debug)]
pub struct ContextLayout {
    /// The Rust type name.
    pub name: &'static str,
    /// The type's doc comment.
    pub doc: &'static str,
    /// The parameters, in order.
    pub params: &'static [ContextParam],
    /// The members, in declaration order (the order they are computed and checked).
    pub members: &'static [ContextMember],
}

/// One parameter of a declared context.
#[derive(Debug, Clone, Copy)]
pub struct ContextParam {
    /// Its name, as member expressions use it.
    pub name: &'static str,
    /// Its Rust type, as written.
    pub ty: &'static str,
}

/// One member of a declared context.
#[derive(Debug, Clone, Copy)]
pub struct ContextMember {
    /// The member name (`ctx.<name>` in conditions).
    pub name: &'static str,
    /// Its doc comment.
    pub doc: &'static str,
    /// Its Rust type, as written.
    pub ty: &'static str,
    /// The expression it is computed from, over the context's parameters.
    pub from: Expression,
    /// The values it accepts, as written (`["1", "2", "4"]`); any other value is a read
    /// error. `None`: every value is accepted.
    pub valid: Option<&'static [&'static str]>,
    /// What the member means to leaf types, if anything.
    pub role: Option<ContextRole>,
    /// What the member is called in messages (`bone index width`).
    pub label: &'static str,
}

/// What a context member means to the leaf types that read with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextRole {
    /// The encoding of length-prefixed text ([`LeafKind::Text`]).
    TextEncoding,
    /// The width in bytes of the indices of the named kind ([`LeafKind::Index`]).
    IndexWidth(&'static str),
}

/// Declared contexts describe themselves (implemented by `#[derive(MmdContext)]`).
pub trait DescribeContext {
    /// The context's description.
    fn context_layout() -> &'static ContextLayout;
}

/// A fixed-size number (little-endian unless its field's [`FieldLayout::endian`] says
/// otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `u8`.
    U8,
    /// `i8`.
    I8,
    /// `u16`.
    U16,
    /// `i16`.
    I16,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `u64`.
    U64,
    /// `i64`.
    I64,
    /// `f32`, IEEE 754 single precision.
    F32,
    /// `f64`, IEEE 754 double precision.
    F64,
    /// `bool`, one byte (only as a selector; no format stores one).
    Bool,
}

impl Prim {
    /// The Rust name (`u8`).
    pub const fn name(self) -> &'static str {
        match self {
            Prim::U8 => "u8",
            Prim::I8 => "i8",
            Prim::U16 => "u16",
            Prim::I16 => "i16",
            Prim::U32 => "u32",
            Prim::I32 => "i32",
            Prim::U64 => "u64",
            Prim::I64 => "i64",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
            Prim::Bool => "bool",
        }
    }

    /// The size in bytes.
    pub const fn size(self) -> u64 {
        match self {
            Prim::U8 | Prim::I8 | Prim::Bool => 1,
            Prim::U16 | Prim::I16 => 2,
            Prim::U32 | Prim::I32 | Prim::F32 => 4,
            Prim::U64 | Prim::I64 | Prim::F64 => 8,
        }
    }

    /// True for the signed integers.
    pub const fn is_signed(self) -> bool {
        matches!(self, Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64)
    }

    /// True for `f32` and `f64`.
    pub const fn is_float(self) -> bool {
        matches!(self, Prim::F32 | Prim::F64)
    }
}

/// What one value of a type is, for the renderers: a number, an array, a format type or
/// a leaf that describes itself.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// A number (in the byte order of its field, [`FieldLayout::endian`]).
    Prim(Prim),
    /// `len` consecutive values of one shape (a Rust array `[T; N]`).
    Array {
        /// How many.
        len: u64,
        /// The shape of each.
        elem: fn() -> Shape,
    },
    /// A derived format type.
    Type(&'static TypeLayout),
    /// A type with its own codec that says what it is.
    Leaf(LeafLayout),
    /// A type with its own codec that does not describe itself.
    Opaque,
}

/// A leaf type: a value with its own codec whose layout is one of a few known shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafLayout {
    /// The Rust type name (`PmxText`, `ShiftJis`, `BoneIndex`).
    pub name: &'static str,
    /// What the type is, for the reference.
    pub doc: &'static str,
    /// Its layout.
    pub kind: LeafKind,
}

/// The encoding a [`LeafKind::Text`] is read in when the context's text-encoding member
/// holds a value its `encodings` do not list (a PMX encoding byte other than 0 or 1): the
/// bytes are kept as stored and the text views decode them as UTF-8, with U+FFFD for what
/// does not decode.
pub const TEXT_FALLBACK: &str = "UTF-8";

/// The layouts a leaf type can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    /// A byte length of type `length`, then that many bytes of text, in the encoding the
    /// context member with [`ContextRole::TextEncoding`] gives: `encodings` maps its
    /// values to encoding names (`0` → `UTF-16LE`); with any other value the bytes are
    /// kept as they are and read as [`TEXT_FALLBACK`] (lossily).
    Text {
        /// The length prefix's type.
        length: Prim,
        /// Member value → encoding name.
        encodings: &'static [(u64, &'static str)],
    },
    /// A fixed-size text field: `size` bytes in `encoding`, ending at the first
    /// `terminator` byte (or at the end of the field); the bytes after it belong to the
    /// field.
    FixedText {
        /// The field's size in bytes.
        size: u64,
        /// The encoding's name (`Shift_JIS`).
        encoding: &'static str,
        /// The byte that ends the text early, if any.
        terminator: Option<u8>,
    },
    /// Text ended by the `terminator` byte, in `encoding`. With `to_end` false, of any
    /// length: the bytes up to the first terminator, which is read too (a C string). With
    /// `to_end` true, the whole of the field's region (its `size`, or the rest of the
    /// input): the text ends at the first terminator or at the region's end, and the bytes
    /// after the terminator belong to the field.
    TerminatedText {
        /// The encoding's name (`UTF-8`, `windows-1252`).
        encoding: &'static str,
        /// The byte that ends the text.
        terminator: u8,
        /// Whether the field takes its whole region.
        to_end: bool,
    },
    /// An index of the named kind whose width (bytes) the context member with
    /// [`ContextRole::IndexWidth`] of this kind gives.
    Index {
        /// The kind (`bone`).
        kind: &'static str,
        /// How its bytes are read at each width.
        sign: IndexSign,
        /// The value that means "none", if there is one.
        none: Option<i64>,
    },
    /// Raw bytes, kept as they are.
    Bytes {
        /// How many.
        size: u64,
    },
}

/// How an index's bytes are read at its declared width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexSign {
    /// Signed at every width (`i8`, `i16`, `i32`).
    Signed,
    /// Unsigned at 1 and 2 bytes (`u8`, `u16`), signed `i32` at 4 bytes (PMX vertex
    /// indices).
    UnsignedNarrow,
}

/// Types the derive can describe.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no byte layout mmd-formats knows",
    label = "not a format type",
    note = "a format field is a number, an array of them, a type that derives `Mmd`, a flag type (`mmd_flags!`), text (`PmxText`: length-prefixed; `ShiftJis<N>`: N fixed bytes) or an index (`Index<K>`, `VertexIndex`)"
)]
pub trait Describe {
    /// The size of one value.
    const SIZE: Size;
    /// The fewest bytes one value can take (used to check counts before allocating).
    const MIN_SIZE: u64;
    /// The type's layout, when it is a format type (primitives have none).
    fn layout() -> Option<&'static TypeLayout> {
        None
    }
    /// What one value is, for the renderers. By default the format type's layout, or
    /// [`Shape::Opaque`]; numbers, arrays and leaf types say what they are.
    fn shape() -> Shape {
        match Self::layout() {
            Some(l) => Shape::Type(l),
            None => Shape::Opaque,
        }
    }
}

/// The number types, with their [`Prim`].
pub trait PrimType {
    /// The number type.
    const PRIM: Prim;
}

impl PrimType for bool {
    const PRIM: Prim = Prim::Bool;
}

macro_rules! describe_prim {
    ($($t:ty => $p:ident),*) => {$(
        impl PrimType for $t {
            const PRIM: Prim = Prim::$p;
        }
        impl Describe for $t {
            const SIZE: Size = Size::Fixed(core::mem::size_of::<$t>() as u64);
            const MIN_SIZE: u64 = core::mem::size_of::<$t>() as u64;
            fn shape() -> Shape {
                Shape::Prim(Prim::$p)
            }
        }
    )*};
}
describe_prim!(u8 => U8, i8 => I8, u16 => U16, i16 => I16, u32 => U32, i32 => I32,
    u64 => U64, i64 => I64, f32 => F32, f64 => F64);

impl<T: Describe, const N: usize> Describe for [T; N] {
    const SIZE: Size = T::SIZE.times(N as u64);
    const MIN_SIZE: u64 = T::MIN_SIZE * N as u64;
    fn layout() -> Option<&'static TypeLayout> {
        T::layout()
    }
    fn shape() -> Shape {
        Shape::Array {
            len: N as u64,
            elem: T::shape,
        }
    }
}
