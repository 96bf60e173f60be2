//! The traits every format type implements, and their impls for primitives.
//!
//! All MMD formats are little-endian; the readers and writers here always are.

use crate::error::Result;
use crate::io::{Input, Output};
use crate::walk::Segment;

/// Reads a value from an [`Input`], given the format's context `C`.
///
/// Derived types implement it for their declared context (`#[mmd(ctx = T)]`), or for every
/// context when they declare none. Primitives implement it for every context.
pub trait Decode<C: ?Sized>: Sized {
    /// Reads one value.
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self>;

    /// Reads `n` consecutive values, appending them to `out`. The caller has already
    /// checked `n` against the remaining bytes. Types with a faster bulk path override it.
    fn decode_seq<I: Input + ?Sized>(
        input: &mut I,
        ctx: &C,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        for i in 0..n {
            out.push(Self::decode(input, ctx).map_err(|e| e.in_index(i))?);
        }
        Ok(())
    }
}

/// Writes a value to an [`Output`], given the format's context `C`.
pub trait Encode<C: ?Sized> {
    /// Writes one value.
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()>;

    /// Writes consecutive values (the elements of a sequence or an array), each between
    /// [`Output::enter`]`(Segment::Index(i))` and [`Output::leave`].
    ///
    /// Types with a faster bulk path override it. An override must keep reporting each
    /// element to `out` that way, or the [spans](crate::spans) lose the elements; `u8` is
    /// the one exception: its sequences are one leaf ([`Leaf::Bytes`](crate::walk::Leaf)),
    /// in the spans as in the [walk](crate::walk).
    fn encode_seq<O: Output + ?Sized>(items: &[Self], out: &mut O, ctx: &C) -> Result<()>
    where
        Self: Sized,
    {
        for (i, item) in items.iter().enumerate() {
            out.enter(Segment::Index(i));
            item.encode(out, ctx).map_err(|e| e.in_index(i))?;
            out.leave();
        }
        Ok(())
    }
}

/// Reads an enum whose variant is chosen by a selector computed from earlier fields
/// (`#[mmd(selected_by = S)]`), rather than by a tag in the file.
pub trait DecodeSelected<C: ?Sized, S>: Sized {
    /// Reads the variant that `selector` names.
    fn decode_selected<I: Input + ?Sized>(input: &mut I, ctx: &C, selector: S) -> Result<Self>;
}

/// The selector value that would choose this variant on read; writers compare it with
/// the one the enclosing struct computes.
pub trait Selected<S> {
    /// The selector of the variant held.
    fn selector(&self) -> S;
}

macro_rules! prim {
    ($($t:ty),*) => {$(
        impl<C: ?Sized> Decode<C> for $t {
            #[inline]
            fn decode<I: Input + ?Sized>(input: &mut I, _ctx: &C) -> Result<Self> {
                Ok(<$t>::from_le_bytes(input.read_array()?))
            }
        }
        impl<C: ?Sized> Encode<C> for $t {
            #[inline]
            fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
                out.write_bytes(&self.to_le_bytes())
            }
        }
    )*};
}
prim!(i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<C: ?Sized> Decode<C> for u8 {
    #[inline]
    fn decode<I: Input + ?Sized>(input: &mut I, _ctx: &C) -> Result<Self> {
        Ok(input.read_array::<1>()?[0])
    }
    fn decode_seq<I: Input + ?Sized>(
        input: &mut I,
        _ctx: &C,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        let bytes = input.read_vec(n as u64)?;
        out.extend_from_slice(&bytes);
        Ok(())
    }
}

impl<C: ?Sized> Encode<C> for u8 {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
        out.write_bytes(&[*self])
    }
    fn encode_seq<O: Output + ?Sized>(items: &[Self], out: &mut O, _ctx: &C) -> Result<()> {
        out.write_bytes(items)
    }
}

impl<C: ?Sized, T: Decode<C> + Default, const N: usize> Decode<C> for [T; N] {
    #[inline]
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
        let mut arr: [T; N] = core::array::from_fn(|_| T::default());
        for (i, slot) in arr.iter_mut().enumerate() {
            *slot = T::decode(input, ctx).map_err(|e| e.in_index(i))?;
        }
        Ok(arr)
    }
}

impl<C: ?Sized, T: Encode<C>, const N: usize> Encode<C> for [T; N] {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        T::encode_seq(self, out, ctx)
    }
}
