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
    /// An index whose width (1, 2 or 4 bytes) the header declares for this kind.
    Index(crate::index::IndexKind),
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
        /// The tag's size in bytes.
        size: u64,
        /// What the tag is called in messages and the reference.
        name: &'static str,
    },
    /// The tag is not in the file at this place: the enclosing struct computes it from
    /// earlier fields (see [`FieldLayout::select`]).
    Selected {
        /// The selector's type.
        ty: &'static str,
        /// What the selector is called in messages and the reference.
        name: &'static str,
    },
}

/// One variant of a tagged enum.
#[derive(Debug)]
pub struct VariantLayout {
    /// The variant name.
    pub name: &'static str,
    /// The variant's doc comment.
    pub doc: &'static str,
    /// The tag value that selects it, as written in the source.
    pub tag: &'static str,
    /// The variant's fields in file order.
    pub fields: &'static [FieldLayout],
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
    },
    /// The number of values is given by an expression over earlier fields or the context.
    Len(&'static str),
    /// Every byte up to the end of the input.
    Rest,
}

/// When a field is present.
#[derive(Debug, Clone, Copy)]
pub enum Presence {
    /// Always.
    Always,
    /// Only when the condition (over earlier fields and the context) holds.
    If(&'static str),
    /// Unless the input ends exactly where the field would start.
    UnlessEof,
    /// When the condition holds and the input has not ended.
    IfUnlessEof(&'static str),
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
    /// How many values.
    pub repeat: Repeat,
    /// When present.
    pub presence: Presence,
    /// For a field whose enum is selected by earlier fields: the selecting expression.
    pub select: Option<&'static str>,
    /// When the context changes after this field: the expression giving the new context.
    pub switch_ctx: Option<&'static str>,
}

/// Types the derive can describe.
pub trait Describe {
    /// The size of one value.
    const SIZE: Size;
    /// The fewest bytes one value can take (used to check counts before allocating).
    const MIN_SIZE: u64;
    /// The type's layout, when it is a format type (primitives have none).
    fn layout() -> Option<&'static TypeLayout> {
        None
    }
}

macro_rules! describe_prim {
    ($($t:ty),*) => {$(
        impl Describe for $t {
            const SIZE: Size = Size::Fixed(core::mem::size_of::<$t>() as u64);
            const MIN_SIZE: u64 = core::mem::size_of::<$t>() as u64;
        }
    )*};
}
describe_prim!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<T: Describe, const N: usize> Describe for [T; N] {
    const SIZE: Size = T::SIZE.times(N as u64);
    const MIN_SIZE: u64 = T::MIN_SIZE * N as u64;
    fn layout() -> Option<&'static TypeLayout> {
        T::layout()
    }
}
