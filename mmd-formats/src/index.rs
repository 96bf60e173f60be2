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
use crate::io::{Input, Output};
use crate::layout::{Describe, Size};
use std::fmt;
use std::marker::PhantomData;

/// The six index kinds whose widths a PMX header declares, in header order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// Vertex indices (faces, vertex/UV morphs, soft-body anchors and pins): unsigned at 1/2 bytes.
    Vertex,
    /// Texture indices (material textures, sphere maps, individual toons): -1 = none.
    Texture,
    /// Material indices (material morphs, soft bodies): -1 = none (material morph: all).
    Material,
    /// Bone indices (weights, parents, IK, display frames, rigid bodies): -1 = none.
    Bone,
    /// Morph indices (group and flip morphs, display frames): -1 = none.
    Morph,
    /// Rigid-body indices (joints, impulse morphs, soft-body anchors): -1 = none.
    RigidBody,
}

impl IndexKind {
    /// All kinds, in the order their widths appear in the PMX header globals.
    pub const ALL: [IndexKind; 6] = [
        IndexKind::Vertex,
        IndexKind::Texture,
        IndexKind::Material,
        IndexKind::Bone,
        IndexKind::Morph,
        IndexKind::RigidBody,
    ];

    /// The lower-case name used in messages and the reference (`bone`, `rigid body`).
    pub const fn name(self) -> &'static str {
        match self {
            IndexKind::Vertex => "vertex",
            IndexKind::Texture => "texture",
            IndexKind::Material => "material",
            IndexKind::Bone => "bone",
            IndexKind::Morph => "morph",
            IndexKind::RigidBody => "rigid body",
        }
    }
}

/// A context that declares index widths (1, 2 or 4 bytes per kind).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not declare index widths",
    label = "index fields need a context that declares widths",
    note = "add `#[mmd(ctx = SomeContext)]` to the struct, naming a context that implements `IndexWidths` (for PMX: `PmxContext`)"
)]
pub trait IndexWidths {
    /// The width in bytes (1, 2 or 4) of indices of `kind`.
    fn index_width(&self, kind: IndexKind) -> u8;
}

/// Marker types naming an index kind (the `K` of [`Index<K>`]).
pub mod kind {
    /// A signed index kind (-1 = none).
    pub trait SignedKind: Copy + Eq + std::fmt::Debug + Default + 'static {
        /// The kind this marker names.
        const KIND: super::IndexKind;
    }
    macro_rules! kinds {
        ($($(#[$m:meta])* $name:ident => $kind:ident),*) => {$(
            $(#[$m])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
            pub struct $name;
            impl SignedKind for $name {
                const KIND: super::IndexKind = super::IndexKind::$kind;
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

impl<K: kind::SignedKind> Index<K> {
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

impl<K: kind::SignedKind> fmt::Debug for Index<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", K::KIND.name(), self.raw)
    }
}

fn bad_width(pos: u64, kind: IndexKind, w: u8) -> Error {
    Error::invalid(
        pos,
        "an index width of 1, 2 or 4",
        format!("{} index width {w}", kind.name()),
    )
}

/// Decodes a run of `n` indices of width `w` with one bounds check, handing each
/// sign- or zero-extended value to `sink`; `None` when the input takes the value-by-value
/// path (see `codec::bulk`).
#[inline]
fn read_run<I: Input + ?Sized>(
    input: &mut I,
    kind: IndexKind,
    w: u8,
    n: usize,
    signed: bool,
    mut sink: impl FnMut(u32),
) -> Option<Result<()>> {
    let width = match w {
        1 | 2 | 4 => w as usize,
        w => return Some(Err(bad_width(input.position(), kind, w))),
    };
    crate::codec::bulk(input, n, width, |bytes| match (width, signed) {
        (1, true) => bytes.iter().for_each(|&b| sink(b as i8 as i32 as u32)),
        (1, false) => bytes.iter().for_each(|&b| sink(b as u32)),
        (2, true) => bytes
            .chunks_exact(2)
            .for_each(|c| sink(i16::from_le_bytes([c[0], c[1]]) as i32 as u32)),
        (2, false) => bytes
            .chunks_exact(2)
            .for_each(|c| sink(u16::from_le_bytes([c[0], c[1]]) as u32)),
        _ => bytes
            .chunks_exact(4)
            .for_each(|c| sink(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
    })
}

impl<C: IndexWidths + ?Sized, K: kind::SignedKind> Decode<C> for Index<K> {
    #[inline(always)]
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
        let raw = match ctx.index_width(K::KIND) {
            1 => i8::from_le_bytes(input.read_array()?) as i32,
            2 => i16::from_le_bytes(input.read_array()?) as i32,
            4 => i32::from_le_bytes(input.read_array()?),
            w => return Err(bad_width(input.position(), K::KIND, w)),
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
        let w = ctx.index_width(K::KIND);
        let run = read_run(input, K::KIND, w, n, true, |v| {
            out.push(Self::from_raw(v as i32))
        });
        match run {
            Some(r) => r,
            None => crate::codec::decode_each(input, ctx, n, out),
        }
    }
    #[inline]
    fn decode_array<I: Input + ?Sized, const N: usize>(
        input: &mut I,
        ctx: &C,
    ) -> Result<[Self; N]> {
        let w = ctx.index_width(K::KIND);
        let mut arr = [Self::from_raw(0); N];
        let mut slots = arr.iter_mut();
        let run = read_run(input, K::KIND, w, N, true, |v| {
            if let Some(slot) = slots.next() {
                *slot = Self::from_raw(v as i32);
            }
        });
        match run {
            Some(r) => r.map(|()| arr),
            None => crate::codec::decode_array_each(input, ctx),
        }
    }
}

impl<C: IndexWidths + ?Sized, K: kind::SignedKind> Encode<C> for Index<K> {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        let w = ctx.index_width(K::KIND);
        let fits = match w {
            1 => i8::try_from(self.raw).map(|v| out.write_bytes(&v.to_le_bytes())),
            2 => i16::try_from(self.raw).map(|v| out.write_bytes(&v.to_le_bytes())),
            4 => Ok(out.write_bytes(&self.raw.to_le_bytes())),
            w => return Err(bad_width(out.position(), K::KIND, w)),
        };
        match fits {
            Ok(r) => r,
            Err(_) => Err(overflow(out.position(), K::KIND, self.raw as i64, w)),
        }
    }
}

fn overflow(pos: u64, kind: IndexKind, value: i64, w: u8) -> Error {
    Error::inconsistent(
        pos,
        format!(
            "a {} index that fits the declared {w}-byte width",
            kind.name()
        ),
        format!("{} index {value}", kind.name()),
    )
}

impl<K: kind::SignedKind> Describe for Index<K> {
    const SIZE: Size = Size::Index(K::KIND);
    const MIN_SIZE: u64 = 1;
}

/// A vertex index: unsigned at 1 and 2 bytes (`u8`, `u16`), `i32` at 4 bytes.
///
/// The raw value is kept as a `u32`; a 4-byte index is its `i32` bit pattern.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VertexIndex(pub u32);

impl VertexIndex {
    /// The vertex referred to.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for VertexIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vertex#{}", self.0)
    }
}

impl<C: IndexWidths + ?Sized> Decode<C> for VertexIndex {
    #[inline(always)]
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
        Ok(VertexIndex(match ctx.index_width(IndexKind::Vertex) {
            1 => input.read_array::<1>()?[0] as u32,
            2 => u16::from_le_bytes(input.read_array()?) as u32,
            4 => u32::from_le_bytes(input.read_array()?),
            w => return Err(bad_width(input.position(), IndexKind::Vertex, w)),
        }))
    }
    #[inline]
    fn decode_seq<I: Input + ?Sized>(
        input: &mut I,
        ctx: &C,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        let w = ctx.index_width(IndexKind::Vertex);
        let run = read_run(input, IndexKind::Vertex, w, n, false, |v| {
            out.push(VertexIndex(v))
        });
        match run {
            Some(r) => r,
            None => crate::codec::decode_each(input, ctx, n, out),
        }
    }
}

impl<C: IndexWidths + ?Sized> Encode<C> for VertexIndex {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        let w = ctx.index_width(IndexKind::Vertex);
        let r = match w {
            1 => u8::try_from(self.0).map(|v| out.write_bytes(&[v])),
            2 => u16::try_from(self.0).map(|v| out.write_bytes(&v.to_le_bytes())),
            4 => Ok(out.write_bytes(&self.0.to_le_bytes())),
            w => return Err(bad_width(out.position(), IndexKind::Vertex, w)),
        };
        match r {
            Ok(r) => r,
            Err(_) => Err(overflow(
                out.position(),
                IndexKind::Vertex,
                self.0 as i64,
                w,
            )),
        }
    }
}

impl Describe for VertexIndex {
    const SIZE: Size = Size::Index(IndexKind::Vertex);
    const MIN_SIZE: u64 = 1;
}
