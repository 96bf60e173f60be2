//! Header-driven indices: the type carries the kind, the context carries the width.
//!
//! PMX declares, in its header, a width of 1, 2 or 4 bytes for each of six index kinds.
//! Vertex indices are **unsigned** at 1 and 2 bytes (`u8`, `u16`) and `i32` at 4 bytes;
//! every other kind is **signed** at every width (`i8`, `i16`, `i32`) and uses -1 for
//! "none". Reading a 1-byte bone index 0xFF as 255 instead of -1 is the classic bug.
//!
//! Indices keep their raw value, so any value read writes back exactly; writing a value
//! that does not fit the declared width is an error, never a silent truncation.

use crate::codec::{Decode, Encode};
use crate::error::{Error, Result};
use crate::fixed::{FixedBytes, FixedOut};
use crate::io::{Input, Output};
use crate::json::{FromJson, Json, JsonError};
use crate::layout::{Describe, IndexSign, LeafKind, LeafLayout, Shape, Size};
use crate::walk::{Leaf, Visitor, Walk};

pub use crate::kinds::IndexKind;
use std::fmt;
use std::marker::PhantomData;

/// A context that declares the width (1, 2 or 4 bytes) of the indices of type `I`
/// ([`Index<K>`] or [`VertexIndex`]).
///
/// A context declared with `#[derive(MmdContext)]` implements it for each member marked
/// `#[mmd(index_width = I)]`; a hand-written context that implements [`IndexWidths`] has
/// it for the six PMX kinds.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not declare the width of `{I}` indices",
    label = "index fields need a context that declares their width",
    note = "add `#[mmd(ctx = SomeContext)]` to the struct, naming a context that declares the width (a `#[derive(MmdContext)]` member with `#[mmd(index_width = {I})]`; for PMX: `PmxContext`)"
)]
pub trait IndexWidth<I: ?Sized> {
    /// The width in bytes of indices of type `I`.
    fn width(&self) -> u8;
}

/// A context that declares index widths for the six PMX kinds (1, 2 or 4 bytes per kind):
/// the hand-written form of [`IndexWidth`] for those kinds.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not declare index widths",
    label = "index fields need a context that declares widths",
    note = "add `#[mmd(ctx = SomeContext)]` to the struct, naming a context that declares index widths (for PMX: `PmxContext`)"
)]
pub trait IndexWidths {
    /// The width in bytes (1, 2 or 4) of indices of `kind`.
    fn index_width(&self, kind: IndexKind) -> u8;
}

/// Index types and their kind's name (`bone`), for layout descriptors.
pub trait IndexType {
    /// The kind's name, as messages and the reference say it.
    const KIND: &'static str;
}

/// Marker types naming an index kind (the `K` of [`Index<K>`]).
///
/// The six PMX kinds are here; a downstream format declares its own with
/// [`index_kind!`](crate::index_kind).
pub mod kind {
    /// An index kind: what the indices of this kind refer to.
    pub trait Kind: Copy + Eq + std::hash::Hash + std::fmt::Debug + Default + 'static {
        /// The kind's name in messages and the reference (`bone`, `rigid body`).
        const NAME: &'static str;
    }

    /// One of the PMX kinds whose width a PMX header declares.
    pub trait SignedKind: Kind {
        /// The kind this marker names.
        const KIND: super::IndexKind;
    }

    macro_rules! kinds {
        ($($(#[$m:meta])* $name:ident => $kind:ident),*) => {$(
            $(#[$m])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
            pub struct $name;
            impl Kind for $name {
                const NAME: &'static str = super::IndexKind::$kind.name();
            }
            impl SignedKind for $name {
                const KIND: super::IndexKind = super::IndexKind::$kind;
            }
            impl<C: super::IndexWidths + ?Sized> super::IndexWidth<super::Index<$name>> for C {
                #[inline(always)]
                fn width(&self) -> u8 {
                    self.index_width(super::IndexKind::$kind)
                }
            }
        )*};
    }
    kinds!(
        /// Texture index kind.
        Texture => Texture,
        /// Material index kind.
        Material => Material,
        /// Bone index kind.
        Bone => Bone,
        /// Morph index kind.
        Morph => Morph,
        /// Rigid-body index kind.
        RigidBody => RigidBody
    );
}

/// Declares an index kind of a downstream format: a marker type for [`Index<K>`], a
/// signed index (-1 = none) whose width a context declares.
///
/// ```
/// mmd_formats::index_kind! {
///     /// Node indices.
///     pub struct Node = "node";
/// }
/// type NodeIndex = mmd_formats::Index<Node>;
/// assert_eq!(format!("{:?}", NodeIndex::from_raw(3)), "node#3");
/// ```
#[macro_export]
macro_rules! index_kind {
    ($(#[$m:meta])* $vis:vis struct $name:ident = $label:literal;) => {
        $(#[$m])*
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy)]
        #[derive(::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash)]
        #[derive(::core::default::Default)]
        $vis struct $name;
        impl $crate::index::kind::Kind for $name {
            const NAME: &'static str = $label;
        }
    };
}

/// A signed index of kind `K` (texture, material, bone, morph, rigid body); -1 means none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Index<K> {
    raw: i32,
    _kind: PhantomData<K>,
}

/// A texture index (-1 = none).
pub type TextureIndex = Index<kind::Texture>;
/// A material index (-1 = none; in a material morph, -1 = every material).
pub type MaterialIndex = Index<kind::Material>;
/// A bone index (-1 = none).
pub type BoneIndex = Index<kind::Bone>;
/// A morph index (-1 = none).
pub type MorphIndex = Index<kind::Morph>;
/// A rigid-body index (-1 = none).
pub type RigidBodyIndex = Index<kind::RigidBody>;

impl<K: kind::Kind> Index<K> {
    /// The "none" index, -1.
    pub const NONE: Self = Index {
        raw: -1,
        _kind: PhantomData,
    };

    /// An index with this raw value (as read: -1 is none; other negatives are kept as they are).
    pub const fn from_raw(raw: i32) -> Self {
        Index {
            raw,
            _kind: PhantomData,
        }
    }

    /// An index referring to element `i`.
    pub fn new(i: usize) -> Option<Self> {
        i32::try_from(i).ok().map(Self::from_raw)
    }

    /// The raw value as stored.
    pub const fn raw(self) -> i32 {
        self.raw
    }

    /// The element referred to, or `None` for -1 (and any other negative value).
    pub fn get(self) -> Option<usize> {
        usize::try_from(self.raw).ok()
    }

    /// True for -1.
    pub const fn is_none(self) -> bool {
        self.raw == -1
    }
}

impl<K: kind::Kind> fmt::Debug for Index<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", K::NAME, self.raw)
    }
}

/// The size of an index of width `w` on the fixed path (`None` for a width that is not 1,
/// 2 or 4: the ordinary reader reports it).
#[inline(always)]
fn fixed_width(w: u8) -> Option<usize> {
    matches!(w, 1 | 2 | 4).then_some(w as usize)
}

fn bad_width(pos: u64, kind: &str, w: u8) -> Error {
    Error::invalid(
        pos,
        "an index width of 1, 2 or 4",
        format!("{kind} index width {w}"),
    )
}

/// Decodes a run of `n` signed indices of width `w` with one bounds check, handing each
/// sign-extended value to `sink`; `None` when the input takes the value-by-value path
/// (see `codec::bulk`). Only the signed kinds read arrays (a weight's bones), so there is
/// no unsigned form.
#[inline]
fn read_run<I: Input + ?Sized>(
    input: &mut I,
    kind: &str,
    w: u8,
    n: usize,
    mut sink: impl FnMut(i32),
) -> Option<Result<()>> {
    let width = match w {
        1 | 2 | 4 => w as usize,
        w => return Some(Err(bad_width(input.position(), kind, w))),
    };
    crate::codec::bulk(input, n, width, |bytes| match width {
        1 => bytes.iter().for_each(|&b| sink(i32::from(b as i8))),
        2 => bytes
            .chunks_exact(2)
            .for_each(|c| sink(i32::from(i16::from_le_bytes([c[0], c[1]])))),
        _ => bytes
            .chunks_exact(4)
            .for_each(|c| sink(i32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
    })
}

/// Decodes `n` indices of `(kind, width, signed)` into `out`: in one run where the input
/// allows it (each sign- or zero-extended value made into a `T` by `make`, straight into
/// `out`'s reserved capacity), else value by value.
#[inline]
fn decode_run<T: Decode<C>, C: ?Sized, I: Input + ?Sized>(
    input: &mut I,
    ctx: &C,
    (kind, w, signed): (&str, u8, bool),
    n: usize,
    out: &mut Vec<T>,
    make: impl Fn(u32) -> T,
) -> Result<()> {
    let width = match w {
        1 | 2 | 4 => w as usize,
        w => return Err(bad_width(input.position(), kind, w)),
    };
    let run = crate::codec::bulk(input, n, width, |bytes| match (width, signed) {
        (1, true) => out.extend(bytes.iter().map(|&b| make(b as i8 as i32 as u32))),
        (1, false) => out.extend(bytes.iter().map(|&b| make(b as u32))),
        (2, true) => out.extend(
            bytes
                .chunks_exact(2)
                .map(|c| make(i16::from_le_bytes([c[0], c[1]]) as i32 as u32)),
        ),
        (2, false) => out.extend(
            bytes
                .chunks_exact(2)
                .map(|c| make(u16::from_le_bytes([c[0], c[1]]) as u32)),
        ),
        _ => out.extend(
            bytes
                .chunks_exact(4)
                .map(|c| make(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
        ),
    });
    match run {
        Some(r) => r,
        None => crate::codec::decode_each(input, ctx, n, out),
    }
}

impl<C: IndexWidth<Self> + ?Sized, K: kind::Kind> Decode<C> for Index<K> {
    #[inline(always)]
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
        let raw = match IndexWidth::<Self>::width(ctx) {
            1 => i8::from_le_bytes(input.read_array()?) as i32,
            2 => i16::from_le_bytes(input.read_array()?) as i32,
            4 => i32::from_le_bytes(input.read_array()?),
            w => return Err(bad_width(input.position(), K::NAME, w)),
        };
        Ok(Self::from_raw(raw))
    }
    #[inline]
    fn decode_seq<I: Input + ?Sized>(
        input: &mut I,
        ctx: &C,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        let w = IndexWidth::<Self>::width(ctx);
        decode_run(input, ctx, (K::NAME, w, true), n, out, |v| {
            Self::from_raw(v as i32)
        })
    }
    #[inline]
    fn decode_array<I: Input + ?Sized, const N: usize>(
        input: &mut I,
        ctx: &C,
    ) -> Result<[Self; N]> {
        let w = IndexWidth::<Self>::width(ctx);
        let mut arr = [Self::from_raw(0); N];
        let mut slots = arr.iter_mut();
        let run = read_run(input, K::NAME, w, N, |v| {
            if let Some(slot) = slots.next() {
                *slot = Self::from_raw(v);
            }
        });
        match run {
            Some(r) => r.map(|()| arr),
            None => crate::codec::decode_array_each(input, ctx),
        }
    }
    #[inline(always)]
    fn fixed_size(ctx: &C) -> Option<usize> {
        fixed_width(IndexWidth::<Self>::width(ctx))
    }
    #[inline(always)]
    fn decode_fixed(bytes: &mut FixedBytes<'_>, ctx: &C) -> Option<Self> {
        Some(Self::from_raw(match IndexWidth::<Self>::width(ctx) {
            1 => i8::from_le_bytes(bytes.take()?) as i32,
            2 => i16::from_le_bytes(bytes.take()?) as i32,
            4 => i32::from_le_bytes(bytes.take()?),
            _ => return None,
        }))
    }
}

impl<C: IndexWidth<Self> + ?Sized, K: kind::Kind> Encode<C> for Index<K> {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        let w = IndexWidth::<Self>::width(ctx);
        let fits = match w {
            1 => i8::try_from(self.raw).map(|v| out.write_bytes(&v.to_le_bytes())),
            2 => i16::try_from(self.raw).map(|v| out.write_bytes(&v.to_le_bytes())),
            4 => Ok(out.write_bytes(&self.raw.to_le_bytes())),
            w => return Err(bad_width(out.position(), K::NAME, w)),
        };
        match fits {
            Ok(r) => r,
            Err(_) => Err(overflow(out.position(), K::NAME, self.raw as i64, w)),
        }
    }
    #[inline(always)]
    fn size_hint(&self, ctx: &C) -> usize {
        fixed_width(IndexWidth::<Self>::width(ctx)).unwrap_or(0)
    }
    #[inline]
    fn seq_size_hint(items: &[Self], ctx: &C) -> usize {
        fixed_width(IndexWidth::<Self>::width(ctx)).map_or(0, |w| w.saturating_mul(items.len()))
    }
    #[inline]
    fn encode_seq<O: Output + ?Sized>(items: &[Self], out: &mut O, ctx: &C) -> Result<()> {
        let w = IndexWidth::<Self>::width(ctx);
        encode_seq(items, out, ctx, w, |v| v.fixed_bytes(w))
    }
    #[inline(always)]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()> {
        put_index(out, self.fixed_bytes(IndexWidth::<Self>::width(ctx)))
    }
}

impl<K> Index<K> {
    /// The little-endian bytes of the index at width `w` (in the first `len` of four), or
    /// `None` when it does not fit or `w` is not a width.
    #[inline(always)]
    fn fixed_bytes(self, w: u8) -> Option<([u8; 4], usize)> {
        let (b, len) = match w {
            1 => (i8::try_from(self.raw).ok()? as i32, 1),
            2 => (i16::try_from(self.raw).ok()? as i32, 2),
            4 => (self.raw, 4),
            _ => return None,
        };
        Some((b.to_le_bytes(), len))
    }
}

fn overflow(pos: u64, kind: &str, value: i64, w: u8) -> Error {
    Error::inconsistent(
        pos,
        format!("a {kind} index that fits the declared {w}-byte width"),
        format!("{kind} index {value}"),
    )
}

impl<K: kind::Kind> IndexType for Index<K> {
    const KIND: &'static str = K::NAME;
}

impl<K: kind::Kind> Describe for Index<K> {
    const SIZE: Size = Size::Index(K::NAME);
    const MIN_SIZE: u64 = 1;
    fn shape() -> Shape {
        Shape::Leaf(LeafLayout {
            name: "Index",
            doc: "An index whose width (1, 2 or 4 bytes) the context declares for its kind; \
                  signed at every width (`i8`, `i16`, `i32`), -1 meaning none.",
            kind: LeafKind::Index {
                kind: K::NAME,
                sign: IndexSign::Signed,
                none: Some(-1),
            },
        })
    }
}

/// A vertex index: unsigned at 1 and 2 bytes (`u8`, `u16`), `i32` at 4 bytes.
///
/// The raw value is kept as a `u32`; a 4-byte index is its `i32` bit pattern.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VertexIndex(u32);

impl VertexIndex {
    /// An index with this raw value (as read; a 4-byte index is its `i32` bit pattern).
    pub const fn from_raw(raw: u32) -> Self {
        VertexIndex(raw)
    }

    /// An index referring to vertex `i` (`None` past what a 4-byte `i32` index holds).
    pub fn new(i: usize) -> Option<Self> {
        i32::try_from(i).ok().map(|i| VertexIndex(i as u32))
    }

    /// The raw value as stored.
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The vertex referred to; `None` for a 4-byte index whose `i32` is negative (no
    /// vertex), as for [`Index::get`].
    pub fn get(self) -> Option<usize> {
        usize::try_from(self.0 as i32).ok()
    }
}

impl fmt::Debug for VertexIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vertex#{}", self.0)
    }
}

impl<C: IndexWidths + ?Sized> IndexWidth<VertexIndex> for C {
    #[inline(always)]
    fn width(&self) -> u8 {
        self.index_width(IndexKind::Vertex)
    }
}

impl IndexType for VertexIndex {
    const KIND: &'static str = IndexKind::Vertex.name();
}

const VERTEX: &str = IndexKind::Vertex.name();

impl<C: IndexWidth<Self> + ?Sized> Decode<C> for VertexIndex {
    #[inline(always)]
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
        Ok(VertexIndex(match IndexWidth::<Self>::width(ctx) {
            1 => input.read_array::<1>()?[0] as u32,
            2 => u16::from_le_bytes(input.read_array()?) as u32,
            4 => u32::from_le_bytes(input.read_array()?),
            w => return Err(bad_width(input.position(), VERTEX, w)),
        }))
    }
    #[inline]
    fn decode_seq<I: Input + ?Sized>(
        input: &mut I,
        ctx: &C,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        let w = IndexWidth::<Self>::width(ctx);
        decode_run(input, ctx, (VERTEX, w, false), n, out, VertexIndex)
    }
    #[inline(always)]
    fn fixed_size(ctx: &C) -> Option<usize> {
        fixed_width(IndexWidth::<Self>::width(ctx))
    }
    #[inline(always)]
    fn decode_fixed(bytes: &mut FixedBytes<'_>, ctx: &C) -> Option<Self> {
        Some(VertexIndex(match IndexWidth::<Self>::width(ctx) {
            1 => bytes.take::<1>()?[0] as u32,
            2 => u16::from_le_bytes(bytes.take()?) as u32,
            4 => u32::from_le_bytes(bytes.take()?),
            _ => return None,
        }))
    }
}

impl<C: IndexWidth<Self> + ?Sized> Encode<C> for VertexIndex {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        let w = IndexWidth::<Self>::width(ctx);
        let r = match w {
            1 => u8::try_from(self.0).map(|v| out.write_bytes(&[v])),
            2 => u16::try_from(self.0).map(|v| out.write_bytes(&v.to_le_bytes())),
            4 => Ok(out.write_bytes(&self.0.to_le_bytes())),
            w => return Err(bad_width(out.position(), VERTEX, w)),
        };
        match r {
            Ok(r) => r,
            Err(_) => Err(overflow(out.position(), VERTEX, self.0 as i64, w)),
        }
    }
    #[inline(always)]
    fn size_hint(&self, ctx: &C) -> usize {
        fixed_width(IndexWidth::<Self>::width(ctx)).unwrap_or(0)
    }
    #[inline]
    fn seq_size_hint(items: &[Self], ctx: &C) -> usize {
        fixed_width(IndexWidth::<Self>::width(ctx)).map_or(0, |w| w.saturating_mul(items.len()))
    }
    #[inline]
    fn encode_seq<O: Output + ?Sized>(items: &[Self], out: &mut O, ctx: &C) -> Result<()> {
        let w = IndexWidth::<Self>::width(ctx);
        encode_seq(items, out, ctx, w, |v| v.fixed_bytes(w))
    }
    #[inline(always)]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()> {
        put_index(out, self.fixed_bytes(IndexWidth::<Self>::width(ctx)))
    }
}

impl VertexIndex {
    /// The little-endian bytes of the index at width `w` (in the first `len` of four), or
    /// `None` when it does not fit or `w` is not a width.
    #[inline(always)]
    fn fixed_bytes(self, w: u8) -> Option<([u8; 4], usize)> {
        let (b, len) = match w {
            1 => (u8::try_from(self.0).ok()? as u32, 1),
            2 => (u16::try_from(self.0).ok()? as u32, 2),
            4 => (self.0, 4),
            _ => return None,
        };
        Some((b.to_le_bytes(), len))
    }
}

/// Writes an index's bytes on the fixed path (`None` when it has none at its width).
#[inline(always)]
fn put_index(out: &mut FixedOut<'_>, bytes: Option<([u8; 4], usize)>) -> Option<()> {
    match bytes? {
        (b, 1) => out.put([b[0]]),
        (b, 2) => out.put([b[0], b[1]]),
        (b, _) => out.put(b),
    }
}

/// Writes the first `W` of the bytes `bytes` gives for each of `items` into `buf`, until
/// one is `None`; returns how many were written.
#[inline(always)]
fn fill<const W: usize, T: Copy>(
    buf: &mut [u8],
    items: &[T],
    bytes: impl Fn(T) -> Option<[u8; 4]>,
) -> usize {
    let mut n = 0;
    for (slot, &v) in buf.as_chunks_mut::<W>().0.iter_mut().zip(items) {
        match bytes(v).as_ref().and_then(|b| b.first_chunk::<W>()) {
            Some(b) => *slot = *b,
            None => break,
        }
        n += 1;
    }
    n
}

/// Writes indices of width `w` (`bytes` gives each one's bytes at that width): a block at
/// a time where the output allows it, then from the first that does not fit its width one
/// by one, the ordinary way, which reports it.
#[inline]
fn encode_seq<T, C, O>(
    items: &[T],
    out: &mut O,
    ctx: &C,
    w: u8,
    bytes: impl Fn(T) -> Option<([u8; 4], usize)>,
) -> Result<()>
where
    T: Encode<C> + Copy,
    C: ?Sized,
    O: Output + ?Sized,
{
    let done = encode_run(items, out, w, bytes)?;
    for (i, item) in items.iter().enumerate().skip(done) {
        crate::codec::encode_one(item, i, out, ctx)?;
    }
    Ok(())
}

/// Writes a run of indices of width `w` a block at a time, to an output that records no
/// spans: returns how many were written (all, or those before the first that does not
/// fit its width, which the caller writes the ordinary way to report it).
#[inline]
fn encode_run<T: Copy, O: Output + ?Sized>(
    items: &[T],
    out: &mut O,
    w: u8,
    bytes: impl Fn(T) -> Option<([u8; 4], usize)>,
) -> Result<usize> {
    let Some(width) = fixed_width(w) else {
        return Ok(0);
    };
    if out.records_spans() {
        return Ok(0);
    }
    let mut buf = [0u8; 1024];
    let mut done = 0;
    for block in items.chunks(buf.len() / width) {
        let bytes = |v| bytes(v).map(|(b, _)| b);
        let n = match width {
            1 => fill::<1, T>(&mut buf, block, bytes),
            2 => fill::<2, T>(&mut buf, block, bytes),
            _ => fill::<4, T>(&mut buf, block, bytes),
        };
        out.write_bytes(&buf[..n * width])?;
        done += n;
        if n < block.len() {
            break;
        }
    }
    Ok(done)
}

impl Describe for VertexIndex {
    const SIZE: Size = Size::Index(VERTEX);
    const MIN_SIZE: u64 = 1;
    fn shape() -> Shape {
        Shape::Leaf(LeafLayout {
            name: "VertexIndex",
            doc: "A vertex index whose width (1, 2 or 4 bytes) the context declares: \
                  unsigned at 1 and 2 bytes (`u8`, `u16`), `i32` at 4 bytes; no value means none.",
            kind: LeafKind::Index {
                kind: VERTEX,
                sign: IndexSign::UnsignedNarrow,
                none: None,
            },
        })
    }
}

impl<K: kind::Kind> Walk for Index<K> {
    fn walk(&self, v: &mut dyn Visitor) {
        v.leaf(Leaf::Index {
            kind: K::NAME,
            raw: self.raw().into(),
        });
    }
}

impl Walk for VertexIndex {
    fn walk(&self, v: &mut dyn Visitor) {
        v.leaf(Leaf::Index {
            kind: VERTEX,
            raw: self.0.into(),
        });
    }
}

/// The raw value of an index given in JSON, checked against `min..=max` (the declared
/// width's range).
fn index_from_json(
    json: &Json<'_>,
    kind: &str,
    w: u8,
    range: Option<(i64, i64)>,
) -> std::result::Result<i64, JsonError> {
    let Some((min, max)) = range else {
        return Err(JsonError::new(format!(
            "the context declares a {kind} index width of {w}, not 1, 2 or 4"
        )));
    };
    let value = match json {
        Json::Number(n) => n.as_integer(),
        _ => None,
    }
    .ok_or_else(|| JsonError::expected(&format!("a {kind} index (an integer)"), json))?;
    if value < i128::from(min) || value > i128::from(max) {
        return Err(JsonError::new(format!(
            "{kind} index {value} does not fit the declared {w}-byte width ({min} to {max})"
        )));
    }
    Ok(value as i64)
}

/// An index: its raw value as a number (-1 = none), which must fit the width the
/// context declares.
impl<C: IndexWidth<Self> + ?Sized, K: kind::Kind> FromJson<C> for Index<K> {
    #[inline]
    fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
        let w = IndexWidth::<Self>::width(ctx);
        let range = match w {
            1 => Some((i8::MIN.into(), i8::MAX.into())),
            2 => Some((i16::MIN.into(), i16::MAX.into())),
            4 => Some((i32::MIN.into(), i32::MAX.into())),
            _ => None,
        };
        index_from_json(json, K::NAME, w, range).map(|v| Self::from_raw(v as i32))
    }
}

/// A vertex index: its raw value (unsigned at every width: the `i32` bit pattern at 4
/// bytes), which must fit the width the context declares.
impl<C: IndexWidth<Self> + ?Sized> FromJson<C> for VertexIndex {
    #[inline]
    fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
        let w = IndexWidth::<Self>::width(ctx);
        let range = match w {
            1 => Some((0, u8::MAX.into())),
            2 => Some((0, u16::MAX.into())),
            4 => Some((0, u32::MAX.into())),
            _ => None,
        };
        index_from_json(json, VERTEX, w, range).map(|v| VertexIndex(v as u32))
    }
}
