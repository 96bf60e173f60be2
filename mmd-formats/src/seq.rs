//! The containers a counted or sized field holds its values in: `Vec<T>`, or another
//! that implements [`Seq`] (named with `item = T`).

use crate::codec::{Decode, Encode};
use crate::error::Result;
use crate::fixed::FixedOut;
use crate::io::{Input, Output};

/// The most bytes a sequence read from a stream reserves before its elements are read.
const MAX_PREALLOC: usize = 1 << 20;

/// How many elements of `T` to reserve for a sequence of `n` whose count has been checked
/// against the bytes left. Input in memory holds what it claims, so the whole sequence is
/// reserved at once (at most `size_of::<T>() / MIN_SIZE` times the bytes left, a small
/// factor); a stream may claim more than it holds, so its reservation is capped and the
/// container grows past it.
#[inline]
pub fn reservation<T, I: Input + ?Sized>(input: &I, n: usize) -> usize {
    if input.holds_all() {
        n
    } else {
        n.min(MAX_PREALLOC / core::mem::size_of::<T>().max(1))
    }
}

/// The container a counted (`count = N`) or sized (`len = expr`) field holds its values in.
///
/// `Vec<T>` is the usual one. A field may name another with `item = T` (its values' type),
/// for values stored in a more compact form than a `Vec<T>` (as
/// [`pmx::Vertices`](crate::pmx::Vertices) does); the field then reads, writes and is
/// described exactly as a `Vec<T>` would be.
pub trait Seq<T> {
    /// The number of values.
    fn len(&self) -> usize;

    /// True when there are no values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads `n` values (the caller has checked that `n` values of `T`'s minimum size fit
    /// in the bytes left); an error names the value's index.
    fn decode_n<C: ?Sized, I: Input + ?Sized>(input: &mut I, ctx: &C, n: usize) -> Result<Self>
    where
        T: Decode<C>,
        Self: Sized;

    /// Writes the values in order, each between [`Output::enter`]`(Segment::Index(i))` and
    /// [`Output::leave`] (as [`Encode::encode_seq`] does); an error names the index.
    fn encode_all<C: ?Sized, O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()>
    where
        T: Encode<C>;

    /// How many bytes [`Seq::encode_all`] writes (see [`Encode::size_hint`]); 0, unknown,
    /// by default.
    fn size_hint_all<C: ?Sized>(&self, ctx: &C) -> usize
    where
        T: Encode<C>,
    {
        let _ = ctx;
        0
    }

    /// The container holding `values`, in order: how the JSON form
    /// ([`json::FromJson`](crate::json::FromJson)) builds it from the array it gives.
    fn from_values(values: Vec<T>) -> Self
    where
        Self: Sized;

    /// Writes the values on the fixed path (see [`Encode::encode_fixed`]); `None` by
    /// default.
    fn encode_fixed_all<C: ?Sized>(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()>
    where
        T: Encode<C>,
    {
        let _ = (out, ctx);
        None
    }
}

impl<T> Seq<T> for Vec<T> {
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn from_values(values: Vec<T>) -> Self {
        values
    }
    #[inline]
    fn decode_n<C: ?Sized, I: Input + ?Sized>(input: &mut I, ctx: &C, n: usize) -> Result<Self>
    where
        T: Decode<C>,
    {
        let mut v = Vec::with_capacity(reservation::<T, I>(input, n));
        T::decode_seq(input, ctx, n, &mut v)?;
        Ok(v)
    }
    #[inline]
    fn encode_all<C: ?Sized, O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()>
    where
        T: Encode<C>,
    {
        T::encode_seq(self, out, ctx)
    }
    #[inline]
    fn size_hint_all<C: ?Sized>(&self, ctx: &C) -> usize
    where
        T: Encode<C>,
    {
        T::seq_size_hint(self, ctx)
    }
    #[inline]
    fn encode_fixed_all<C: ?Sized>(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()>
    where
        T: Encode<C>,
    {
        T::encode_fixed_slice(self, out, ctx)
    }
}
