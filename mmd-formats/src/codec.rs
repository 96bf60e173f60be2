//! The traits every format type implements, and their impls for primitives.
//!
//! All MMD formats are little-endian; the readers and writers here always are. A field of
//! another byte order (`#[mmd(endian = big)]`) is read and written through
//! [`crate::rt::Ordered`] instead.

use crate::error::Result;
use crate::fixed::{fixed_one, FixedBytes, FixedOut, WRITE_BLOCK};
use crate::io::{Input, Output};
use crate::path::Segment;

/// Reads a value from an [`Input`], given the format's context `C`.
///
/// Derived types implement it for their declared context (`#[mmd(ctx = T)]`), or for every
/// context when they declare none. Primitives implement it for every context.
///
/// Values whose size the context alone fixes (no tag, count, condition or length prefix
/// decides it: numbers, arrays of them, indices, fixed-length text, and derived records of
/// such fields) also take a *fixed path*: [`Decode::fixed_size`] says how many bytes one
/// value takes, and [`Decode::decode_fixed`] decodes it from bytes checked once for a whole
/// record or run of records. The derive implements both; a hand-written type may leave
/// them out (it then reads value by value).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read and written with the context `{C}`",
    note = "a format field is a number, an array of them, a type that derives `Mmd`, a flag type (`mmd_flags!`), text (`PmxText`: length-prefixed; `ShiftJis<N>`: N fixed bytes) or an index (`Index<K>`, `VertexIndex`); a type that needs a context reads only with one that declares what it needs"
)]
pub trait Decode<C: ?Sized>: Sized {
    /// Reads one value.
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self>;

    /// Reads `n` consecutive values, appending them to `out`. The caller has already
    /// checked `n` against the remaining bytes. Values with a fixed size are decoded in one
    /// run after one bounds check, straight into `out`; others one by one. Types with a
    /// faster bulk path override it.
    #[inline]
    fn decode_seq<I: Input + ?Sized>(
        input: &mut I,
        ctx: &C,
        n: usize,
        out: &mut Vec<Self>,
    ) -> Result<()> {
        if fixed_run(input, ctx, n, out) {
            return Ok(());
        }
        decode_each(input, ctx, n, out)
    }

    /// Reads `N` consecutive values into an array (a fixed-length field such as
    /// `[f32; 3]`): after one bounds check when they have a fixed size, else value by value.
    #[inline]
    fn decode_array<I: Input + ?Sized, const N: usize>(input: &mut I, ctx: &C) -> Result<[Self; N]>
    where
        Self: Default,
    {
        let size = Self::fixed_size(ctx).and_then(|s| s.checked_mul(N));
        if let Some(arr) = fixed_one(input, size, |b| Self::decode_fixed_array(b, ctx)) {
            return Ok(arr);
        }
        decode_array_each(input, ctx)
    }

    /// The number of bytes every value of this type takes when read with `ctx`, if the
    /// context alone fixes it; `None` (the default) otherwise. When it is `Some`,
    /// [`Decode::decode_fixed`] must decode a value from exactly that many bytes.
    #[inline(always)]
    fn fixed_size(ctx: &C) -> Option<usize> {
        let _ = ctx;
        None
    }

    /// Decodes one value of [`Decode::fixed_size`] bytes from the front of `bytes` (the
    /// fixed path: the bytes are already checked, so nothing here reports an error).
    /// `None` when the type has no fixed path (the default) or the bytes run out; the
    /// value is then read with [`Decode::decode`], which says why.
    #[inline(always)]
    fn decode_fixed(bytes: &mut FixedBytes<'_>, ctx: &C) -> Option<Self> {
        let _ = (bytes, ctx);
        None
    }

    /// Decodes `N` consecutive values on the fixed path (`u8` takes them as one block).
    #[inline]
    fn decode_fixed_array<const N: usize>(bytes: &mut FixedBytes<'_>, ctx: &C) -> Option<[Self; N]>
    where
        Self: Default,
    {
        let mut arr: [Self; N] = core::array::from_fn(|_| Self::default());
        for slot in &mut arr {
            *slot = Self::decode_fixed(bytes, ctx)?;
        }
        Some(arr)
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

    /// How many bytes [`Encode::encode`] writes for this value with `ctx`, for a writer to
    /// reserve before it writes ([`file::encode_all`](crate::file::encode_all) does). 0 (the
    /// default) means unknown. The built-in types and the derive give the exact length of
    /// every value that writes; for one that does not (a width or a length that disagrees
    /// with its field) the hint may be anything, the writer still reports the error.
    #[inline]
    fn size_hint(&self, ctx: &C) -> usize {
        let _ = ctx;
        0
    }

    /// How many bytes [`Encode::encode_seq`] writes for `items`: by default the sum of
    /// their [`Encode::size_hint`]s; types of one size for every value multiply it.
    #[inline]
    fn seq_size_hint(items: &[Self], ctx: &C) -> usize
    where
        Self: Sized,
    {
        let mut total = 0usize;
        for v in items {
            total = total.saturating_add(v.size_hint(ctx));
        }
        total
    }

    /// Writes consecutive values (the elements of a sequence or an array), each between
    /// [`Output::enter`]`(Segment::Index(i))` and [`Output::leave`]. To an output that
    /// records no spans, values that take the fixed path ([`Encode::encode_fixed`]) go out
    /// through a buffer, a block at a time.
    ///
    /// Types with a faster bulk path override it. An override must keep reporting each
    /// element to `out` that way, or the [spans](crate::inspect::spans) lose the elements; `u8` is
    /// the one exception: its sequences are one leaf ([`Leaf::Bytes`](crate::walk::Leaf)),
    /// in the spans as in the [walk](crate::walk).
    #[inline]
    fn encode_seq<O: Output + ?Sized>(items: &[Self], out: &mut O, ctx: &C) -> Result<()>
    where
        Self: Sized,
    {
        let mut i = 0;
        while i < items.len() {
            i += encode_buffered(&items[i..], out, ctx)?;
            if let Some(item) = items.get(i) {
                // One that cannot take the fixed path: the ordinary writer says why.
                encode_one(item, i, out, ctx)?;
                i += 1;
            }
        }
        Ok(())
    }

    /// Writes the value's bytes to the front of `out` (the fixed path, which writes whole
    /// records into a buffer). `None` when the bytes do not fit, the type has no fixed
    /// path (the default), or the value cannot be written as it is (an index too wide for
    /// its width, a length that disagrees with its field): the value is then written with
    /// [`Encode::encode`], which reports any error. Whatever it wrote before answering
    /// `None` is discarded.
    #[inline(always)]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()> {
        let _ = (out, ctx);
        None
    }

    /// Writes consecutive values on the fixed path (`u8` writes them as one block).
    #[inline(always)]
    fn encode_fixed_slice(items: &[Self], out: &mut FixedOut<'_>, ctx: &C) -> Option<()>
    where
        Self: Sized,
    {
        for v in items {
            v.encode_fixed(out, ctx)?;
        }
        Some(())
    }
}

/// Writes value `i` the ordinary way, between `enter(Index(i))` and `leave()`.
#[inline]
pub fn encode_one<T: Encode<C> + ?Sized, C: ?Sized, O: Output + ?Sized>(
    item: &T,
    i: usize,
    out: &mut O,
    ctx: &C,
) -> Result<()> {
    out.enter(Segment::Index(i));
    item.encode(out, ctx).map_err(|e| e.in_index(i))?;
    out.leave();
    Ok(())
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

/// The context a record is read and written with when it names fields of the record
/// that holds it (`#[mmd(parent = Section)]`, `parent.item_count` in its expressions,
/// Kaitai's `_parent`): the context in force (`outer`) and the fields the enclosing record
/// has read before it (`fields`, of type `<Section as Enclosing>::Fields<'p>`).
///
/// The derive builds it for the values of a field marked `#[mmd(with_parent)]` (the
/// fields type is private to the enclosing record's derive, so such a record is read and
/// written as part of its enclosing record). It dereferences to the outer context, so
/// that `ctx.member` reads the context in force.
pub struct Within<'p, C: ?Sized, V: ?Sized> {
    outer: &'p C,
    fields: &'p V,
}

impl<'p, C: ?Sized, V: ?Sized> Within<'p, C, V> {
    /// The context `outer` with the enclosing record's `fields`.
    pub const fn new(outer: &'p C, fields: &'p V) -> Self {
        Within { outer, fields }
    }

    /// The context in force.
    pub const fn outer(&self) -> &'p C {
        self.outer
    }

    /// The enclosing record's fields read so far.
    pub const fn fields(&self) -> &'p V {
        self.fields
    }
}

impl<C: ?Sized, V: ?Sized> Clone for Within<'_, C, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: ?Sized, V: ?Sized> Copy for Within<'_, C, V> {}

impl<C: ?Sized, V: ?Sized> std::ops::Deref for Within<'_, C, V> {
    type Target = C;
    fn deref(&self) -> &C {
        self.outer
    }
}

/// A record whose field values may name its fields (`#[mmd(with_parent)]` on the field,
/// `#[mmd(parent = ThisRecord)]` on the value's type): `Fields<'p>` holds a reference to
/// each field read before the first such field (and, when the record names a parent of
/// its own, that parent's fields as `parent`). Implemented by the derive for every type,
/// with [`NoFieldsPassed`] for a type that has no `with_parent` field.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a derived record, so no type can name it as its `parent`",
    note = "`#[mmd(parent = T)]` names the `#[derive(Mmd)]` record whose `#[mmd(with_parent)]` field holds the type"
)]
pub trait Enclosing {
    /// The fields a value held by this record sees as `parent.field`.
    type Fields<'p>;
}

/// The fields a record with no `#[mmd(with_parent)]` field passes to the values it holds:
/// none (a type that names such a record as its `parent` is never read by it: mark the
/// field that holds it `with_parent`).
#[derive(Debug, Clone, Copy)]
pub struct NoFieldsPassed;

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
                    out.extend(bytes.as_chunks::<SIZE>().0.iter().map(|c| <$t>::from_le_bytes(*c)))
                });
                match run {
                    Some(r) => r,
                    None => decode_each(input, _ctx, n, out),
                }
            }
            #[inline(always)]
            fn fixed_size(_ctx: &C) -> Option<usize> {
                Some(core::mem::size_of::<$t>())
            }
            #[inline(always)]
            fn decode_fixed(bytes: &mut FixedBytes<'_>, _ctx: &C) -> Option<Self> {
                bytes.take().map(<$t>::from_le_bytes)
            }
            #[inline(always)]
            fn decode_fixed_array<const N: usize>(
                bytes: &mut FixedBytes<'_>,
                _ctx: &C,
            ) -> Option<[Self; N]> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let run = bytes.take_slice(N * SIZE)?;
                let mut arr = [<$t>::default(); N];
                for (slot, c) in arr.iter_mut().zip(run.as_chunks::<SIZE>().0) {
                    *slot = <$t>::from_le_bytes(*c);
                }
                Some(arr)
            }
        }
        impl<C: ?Sized> Encode<C> for $t {
            #[inline]
            fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
                out.write_bytes(&self.to_le_bytes())
            }
            #[inline(always)]
            fn size_hint(&self, _ctx: &C) -> usize {
                core::mem::size_of::<$t>()
            }
            #[inline(always)]
            fn seq_size_hint(items: &[Self], _ctx: &C) -> usize {
                core::mem::size_of_val(items)
            }
            #[inline(always)]
            fn encode_fixed(&self, out: &mut FixedOut<'_>, _ctx: &C) -> Option<()> {
                out.put(self.to_le_bytes())
            }
            #[inline(always)]
            fn encode_fixed_slice(
                items: &[Self],
                out: &mut FixedOut<'_>,
                _ctx: &C,
            ) -> Option<()> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let dst = out.take_slice(items.len() * SIZE)?;
                for (d, v) in dst.as_chunks_mut::<SIZE>().0.iter_mut().zip(items) {
                    *d = v.to_le_bytes();
                }
                Some(())
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
                    for (slot, v) in buf.as_chunks_mut::<SIZE>().0.iter_mut().zip(items) {
                        *slot = v.to_le_bytes();
                    }
                    return out.write_bytes(&buf[..items.len() * SIZE]);
                }
                const PER_BLOCK: usize = 256 / SIZE;
                let mut buf = [0u8; 256];
                for block in items.chunks(PER_BLOCK) {
                    for (slot, v) in buf.as_chunks_mut::<SIZE>().0.iter_mut().zip(block) {
                        *slot = v.to_le_bytes();
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
    #[inline(always)]
    fn fixed_size(_ctx: &C) -> Option<usize> {
        Some(1)
    }
    #[inline(always)]
    fn decode_fixed(bytes: &mut FixedBytes<'_>, _ctx: &C) -> Option<Self> {
        bytes.take::<1>().map(|[b]| b)
    }
    #[inline(always)]
    fn decode_fixed_array<const N: usize>(
        bytes: &mut FixedBytes<'_>,
        _ctx: &C,
    ) -> Option<[Self; N]> {
        bytes.take::<N>()
    }
}

impl<C: ?Sized> Encode<C> for u8 {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
        out.write_bytes(&[*self])
    }
    #[inline(always)]
    fn size_hint(&self, _ctx: &C) -> usize {
        1
    }
    #[inline(always)]
    fn seq_size_hint(items: &[Self], _ctx: &C) -> usize {
        items.len()
    }
    #[inline(always)]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, _ctx: &C) -> Option<()> {
        out.put([*self])
    }
    #[inline(always)]
    fn encode_fixed_slice(items: &[Self], out: &mut FixedOut<'_>, _ctx: &C) -> Option<()> {
        out.put_slice(items)
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
    #[inline(always)]
    fn fixed_size(ctx: &C) -> Option<usize> {
        T::fixed_size(ctx)?.checked_mul(N)
    }
    #[inline(always)]
    fn decode_fixed(bytes: &mut FixedBytes<'_>, ctx: &C) -> Option<Self> {
        T::decode_fixed_array(bytes, ctx)
    }
}

impl<C: ?Sized, T: Encode<C>, const N: usize> Encode<C> for [T; N] {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        T::encode_seq(self, out, ctx)
    }
    #[inline]
    fn size_hint(&self, ctx: &C) -> usize {
        T::seq_size_hint(self, ctx)
    }
    #[inline(always)]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()> {
        T::encode_fixed_slice(self, out, ctx)
    }
}

/// The fixed path for `n` values of a type with a fixed size: one bounds check for the
/// run, then each value decoded into `out`'s reserved capacity. False (nothing consumed,
/// `out` as it was) when the path does not apply; the caller reads value by value.
#[inline]
pub fn fixed_run<T: Decode<C>, C: ?Sized, I: Input + ?Sized>(
    input: &mut I,
    ctx: &C,
    n: usize,
    out: &mut Vec<T>,
) -> bool {
    let Some(size) = T::fixed_size(ctx) else {
        return false;
    };
    let Some(bytes) = n
        .checked_mul(size)
        .and_then(|len| input.in_memory()?.get(..len))
    else {
        return false;
    };
    let len = bytes.len();
    let start = out.len();
    out.reserve(n);
    let mut src = FixedBytes::new(bytes);
    for _ in 0..n {
        match T::decode_fixed(&mut src, ctx) {
            Some(v) => out.push(v),
            None => {
                out.truncate(start);
                return false;
            }
        }
    }
    input.skip(len).is_ok()
}

/// The fixed path for a sequence, to an output that records no spans: the values are
/// written into a buffer ([`Encode::encode_fixed`]), which goes to `out` each time it is
/// full. Returns how many values were written: all of them, or those before the first
/// that cannot take the path even into an empty buffer (the caller writes that one the
/// ordinary way, which reports any error).
#[inline]
pub fn encode_buffered<T: Encode<C>, C: ?Sized, O: Output + ?Sized>(
    items: &[T],
    out: &mut O,
    ctx: &C,
) -> Result<usize> {
    if items.is_empty() || out.records_spans() {
        return Ok(0);
    }
    let mut buf = [0u8; WRITE_BLOCK];
    let mut k = 0;
    loop {
        // Fill the buffer with whole values, then write it out.
        let mut w = FixedOut::new(&mut buf);
        let mut used = 0;
        for item in &items[k..] {
            if item.encode_fixed(&mut w, ctx).is_none() {
                break;
            }
            used = w.written();
            k += 1;
        }
        out.write_bytes(&buf[..used])?;
        // Value `k` did not fit (it is tried again in the empty buffer), or it cannot
        // take the path.
        if k == items.len() || used == 0 {
            return Ok(k);
        }
    }
}
