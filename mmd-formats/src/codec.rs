//! The traits every format type implements, and their impls for primitives.
//!
//! All MMD formats are little-endian; the readers and writers here always are.

use crate::error::Result;
use crate::io::{Input, Output};
use crate::path::Segment;

/// Reads a value from an [`Input`], given the format's context `C`.
///
/// Derived types implement it for their declared context (`#[mmd(ctx = T)]`), or for every
/// context when they declare none. Primitives implement it for every context.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read and written with the context `{C}`",
    note = "a format field is a number, an array of them, a type that derives `Mmd`, a flag type (`mmd_flags!`), text (`PmxText`: length-prefixed; `ShiftJis<N>`: N fixed bytes) or an index (`Index<K>`, `VertexIndex`); a type that needs a context reads only with one that declares what it needs"
)]
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
        decode_each(input, ctx, n, out)
    }

    /// Reads `N` consecutive values into an array (a fixed-length field such as
    /// `[f32; 3]`). Primitives and indices override it with one bounds check for the run.
    #[inline]
    fn decode_array<I: Input + ?Sized, const N: usize>(input: &mut I, ctx: &C) -> Result<[Self; N]>
    where
        Self: Default,
    {
        decode_array_each(input, ctx)
    }
}

/// Reads `n` values one by one (the default [`Decode::decode_seq`]).
#[inline]
pub fn decode_each<T: Decode<C>, C: ?Sized, I: Input + ?Sized>(
    input: &mut I,
    ctx: &C,
    n: usize,
    out: &mut Vec<T>,
) -> Result<()> {
    for i in 0..n {
        out.push(T::decode(input, ctx).map_err(|e| e.in_index(i))?);
    }
    Ok(())
}

/// Reads an array value by value (the default [`Decode::decode_array`]).
#[inline]
pub fn decode_array_each<T: Decode<C> + Default, C: ?Sized, I: Input + ?Sized, const N: usize>(
    input: &mut I,
    ctx: &C,
) -> Result<[T; N]> {
    let mut arr: [T; N] = core::array::from_fn(|_| T::default());
    for (i, slot) in arr.iter_mut().enumerate() {
        *slot = T::decode(input, ctx).map_err(|e| e.in_index(i))?;
    }
    Ok(arr)
}

/// The bulk path for `n` values of `size` bytes each: hands their bytes to `f` after one
/// bounds check. Only input that [holds all its bytes](Input::holds_all) takes it (`None`
/// otherwise: the caller reads value by value, so that an early end is reported at the
/// value where it falls). A run that does not fit fails like the value-by-value read
/// would: at the first value that is cut, with its index in the path.
#[inline]
pub(crate) fn bulk<I: Input + ?Sized, R>(
    input: &mut I,
    n: usize,
    size: usize,
    f: impl FnOnce(&[u8]) -> R,
) -> Option<Result<R>> {
    if !input.holds_all() {
        return None;
    }
    let fits = n
        .checked_mul(size)
        .filter(|&len| len as u64 <= input.remaining());
    Some(match fits {
        Some(len) => input.read_with(len, f),
        None => Err(short_run(input, size)),
    })
}

/// The error of a run that the input cuts: at the first value that does not fit.
#[cold]
#[inline(never)]
fn short_run<I: Input + ?Sized>(input: &I, size: usize) -> crate::error::Error {
    let size = size.max(1) as u64;
    let whole = input.remaining() / size;
    crate::error::Error::truncated(input.position() + whole * size, size, input.end())
        .in_index(whole as usize)
}

/// Writes a value to an [`Output`], given the format's context `C`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read and written with the context `{C}`",
    note = "a format field is a number, an array of them, a type that derives `Mmd`, a flag type (`mmd_flags!`), text (`PmxText`: length-prefixed; `ShiftJis<N>`: N fixed bytes) or an index (`Index<K>`, `VertexIndex`); a type that needs a context reads only with one that declares what it needs"
)]
pub trait Encode<C: ?Sized> {
    /// Writes one value.
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()>;

    /// Writes consecutive values (the elements of a sequence or an array), each between
    /// [`Output::enter`]`(Segment::Index(i))` and [`Output::leave`].
    ///
    /// Types with a faster bulk path override it. An override must keep reporting each
    /// element to `out` that way, or the [spans](crate::inspect::spans) lose the elements; `u8` is
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

/// A context computed from values read earlier, declared with `#[derive(MmdContext)]`.
///
/// A record switches to it with `#[mmd(context = Ctx(field, ...))]`; code that holds the
/// values can compute it too:
///
/// ```
/// use mmd_formats::pmx::{Header, PmxContext};
/// use mmd_formats::{DeclaredContext, TextEncoding};
///
/// let header = Header::new(&PmxContext::new(2.0, TextEncoding::Utf8, 0, [1, 2, 2, 2, 1, 1]));
/// let ctx = PmxContext::compute((&header,)).unwrap();
/// assert_eq!(ctx.bone_index_size, 2);
///
/// let mut bad = header.clone();
/// bad.globals[5] = 3;
/// let err = PmxContext::compute((&bad,)).unwrap_err().into_error();
/// assert_eq!(
///     err.to_string(),
///     "globals[5]: bone index width 3 at 0x0 (expected a bone index width of 1, 2 or 4)"
/// );
/// ```
pub trait DeclaredContext: Sized {
    /// The parameters, as a tuple of references in declaration order.
    type Params<'a>;
    /// Computes the context, or says which member's value is wrong and where it was read.
    fn compute(params: Self::Params<'_>) -> std::result::Result<Self, crate::error::ContextFault>;
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
            #[inline]
            fn decode_seq<I: Input + ?Sized>(
                input: &mut I,
                _ctx: &C,
                n: usize,
                out: &mut Vec<Self>,
            ) -> Result<()> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let run = bulk(input, n, SIZE, |bytes| {
                    out.extend(bytes.chunks_exact(SIZE).map(|c| {
                        let mut a = [0u8; SIZE];
                        a.copy_from_slice(c);
                        <$t>::from_le_bytes(a)
                    }))
                });
                match run {
                    Some(r) => r,
                    None => decode_each(input, _ctx, n, out),
                }
            }
            #[inline]
            fn decode_array<I: Input + ?Sized, const N: usize>(
                input: &mut I,
                _ctx: &C,
            ) -> Result<[Self; N]> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let run = bulk(input, N, SIZE, |bytes| {
                    let mut arr = [<$t>::default(); N];
                    for (slot, c) in arr.iter_mut().zip(bytes.chunks_exact(SIZE)) {
                        let mut a = [0u8; SIZE];
                        a.copy_from_slice(c);
                        *slot = <$t>::from_le_bytes(a);
                    }
                    arr
                });
                match run {
                    Some(r) => r,
                    None => decode_array_each(input, _ctx),
                }
            }
        }
        impl<C: ?Sized> Encode<C> for $t {
            #[inline]
            fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
                out.write_bytes(&self.to_le_bytes())
            }
            #[inline]
            fn encode_seq<O: Output + ?Sized>(
                items: &[Self],
                out: &mut O,
                _ctx: &C,
            ) -> Result<()> {
                // Little-endian bytes go out through a stack buffer, a block at a time
                // (a small one for the short runs of a fixed-length field), except to
                // an output that records every element's span.
                const SIZE: usize = core::mem::size_of::<$t>();
                if out.records_spans() {
                    for (i, v) in items.iter().enumerate() {
                        out.enter(Segment::Index(i));
                        out.write_bytes(&v.to_le_bytes())?;
                        out.leave();
                    }
                    return Ok(());
                }
                if items.len() * SIZE <= 16 {
                    let mut buf = [0u8; 16];
                    for (slot, v) in buf.chunks_exact_mut(SIZE).zip(items) {
                        slot.copy_from_slice(&v.to_le_bytes());
                    }
                    return out.write_bytes(&buf[..items.len() * SIZE]);
                }
                const PER_BLOCK: usize = 256 / SIZE;
                let mut buf = [0u8; 256];
                for block in items.chunks(PER_BLOCK) {
                    for (slot, v) in buf.chunks_exact_mut(SIZE).zip(block) {
                        slot.copy_from_slice(&v.to_le_bytes());
                    }
                    out.write_bytes(&buf[..block.len() * SIZE])?;
                }
                Ok(())
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
        match bulk(input, n, 1, |bytes| out.extend_from_slice(bytes)) {
            Some(r) => r,
            None => {
                let bytes = input.read_vec(n as u64)?;
                out.extend_from_slice(&bytes);
                Ok(())
            }
        }
    }
    #[inline]
    fn decode_array<I: Input + ?Sized, const N: usize>(
        input: &mut I,
        _ctx: &C,
    ) -> Result<[Self; N]> {
        if input.holds_all() && N as u64 <= input.remaining() {
            input.read_array::<N>()
        } else {
            // Value by value, so that an early end names the byte where it falls.
            decode_array_each(input, _ctx)
        }
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
        T::decode_array(input, ctx)
    }
}

impl<C: ?Sized, T: Encode<C>, const N: usize> Encode<C> for [T; N] {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        T::encode_seq(self, out, ctx)
    }
}
