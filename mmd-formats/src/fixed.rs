//! The fixed paths: the faster reader and writer the derive generates beside the
//! ordinary ones (see the crate docs, "The fixed paths").
//!
//! A record whose size the context fixes is decoded from [`FixedBytes`], checked once for
//! the record ([`fixed_one`]) or for a whole run of records (`codec::fixed_run`); records
//! are written into a [`FixedOut`] buffer that goes to the output a few hundred bytes at a
//! time (`codec::encode_buffered`). This module holds the byte-level parts, below the
//! codec traits, which it does not use. Both paths decline (`None`, or fewer values than asked)
//! whenever anything is not as expected, and the ordinary reader or writer takes over and
//! reports the error; nothing here reports one.

use crate::io::Input;

/// The bytes of values whose size the context fixes, handed to
/// `Decode::decode_fixed` after one bounds check for all of
/// them: each value takes its bytes from the front.
///
/// A take that finds too few bytes answers `None`; the fixed path then leaves the values
/// to the ordinary reader, which reports where the input ends.
#[derive(Debug, Clone)]
pub struct FixedBytes<'a> {
    rest: &'a [u8],
}

impl<'a> FixedBytes<'a> {
    /// The values' bytes, first value first.
    #[inline(always)]
    pub fn new(bytes: &'a [u8]) -> Self {
        FixedBytes { rest: bytes }
    }

    /// The next `N` bytes.
    #[inline(always)]
    pub fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, tail) = self.rest.split_first_chunk::<N>()?;
        self.rest = tail;
        Some(*head)
    }

    /// The next `n` bytes, as one slice.
    #[inline(always)]
    pub fn take_slice(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, tail) = self.rest.split_at_checked(n)?;
        self.rest = tail;
        Some(head)
    }

    /// The bytes not yet taken.
    #[inline(always)]
    pub fn rest(&self) -> &'a [u8] {
        self.rest
    }
}

/// The buffer records are written into, front to back, by
/// `Encode::encode_fixed`, before it goes to the [`Output`](crate::io::Output)
/// a block at a time. A write that does not fit answers `None`.
#[derive(Debug)]
pub struct FixedOut<'a> {
    buf: &'a mut [u8],
    /// The bytes written so far.
    used: usize,
}

impl<'a> FixedOut<'a> {
    /// Writes from the first byte of `buf`.
    #[inline(always)]
    pub fn new(buf: &'a mut [u8]) -> Self {
        FixedOut { buf, used: 0 }
    }

    /// The next `n` bytes, to write in place (`None` when they do not fit).
    #[inline(always)]
    pub fn take_slice(&mut self, n: usize) -> Option<&mut [u8]> {
        let end = self.used.checked_add(n)?;
        let dst = self.buf.get_mut(self.used..end)?;
        self.used = end;
        Some(dst)
    }

    /// Writes `bytes` next (`None` when the buffer is full).
    #[inline(always)]
    pub fn put<const N: usize>(&mut self, bytes: [u8; N]) -> Option<()> {
        let dst = self.buf.get_mut(self.used..)?.first_chunk_mut::<N>()?;
        *dst = bytes;
        self.used += N;
        Some(())
    }

    /// The number of bytes written.
    #[inline(always)]
    pub fn written(&self) -> usize {
        self.used
    }

    /// Writes `bytes` next (`None` when they do not fit).
    #[inline(always)]
    pub fn put_slice(&mut self, bytes: &[u8]) -> Option<()> {
        self.take_slice(bytes.len())?.copy_from_slice(bytes);
        Some(())
    }
}

/// The fixed path for one value (or record) of `size` bytes: when the input holds them in
/// memory, `decode` gets them after one bounds check and the input steps over them. `None`
/// (nothing consumed) when there is no fixed size, the input is a stream, too few bytes
/// are left or `decode` declines: the caller then reads the ordinary way, which reports
/// any error with its offset and path.
#[inline(always)]
pub fn fixed_one<R, I: Input + ?Sized>(
    input: &mut I,
    size: Option<usize>,
    decode: impl FnOnce(&mut FixedBytes<'_>) -> Option<R>,
) -> Option<R> {
    let size = size?;
    let bytes = input.in_memory()?.get(..size)?;
    let value = decode(&mut FixedBytes::new(bytes))?;
    input.skip(size).ok()?;
    Some(value)
}

/// The size of the buffer the fixed path writes through. Small: a sequence goes out in
/// short bursts, which an output far larger than the cache takes best (a 56 MB write runs
/// at half the speed through a 4 KiB buffer).
pub(crate) const WRITE_BLOCK: usize = 256;
