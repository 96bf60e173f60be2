//! The byte sources and sinks the generated readers and writers work on.
//!
//! Generated code reads from any [`Input`] and writes to any [`Output`]. Two of each are
//! provided: a fast one over memory ([`SliceInput`], `Vec<u8>`) and an adapter over any
//! `Read + Seek` / `Write + Seek` stream ([`IoInput`], [`IoOutput`]), which is what the
//! `binrw::BinRead` / `binrw::BinWrite` impls use.

use crate::error::{Error, ErrorKind, Result};
use crate::path::Segment;
use std::io::{Read, Seek, SeekFrom, Write};

/// A byte source with a known end.
///
/// Knowing the end lets every counted sequence be checked against the bytes that remain
/// before anything is allocated.
pub trait Input {
    /// The offset of the next byte to be read.
    fn position(&self) -> u64;
    /// The offset at which the input ends.
    fn end(&self) -> u64;
    /// Fills `buf` entirely, or fails with [`ErrorKind::Truncated`] at the current offset.
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()>;

    /// Reads exactly `N` bytes.
    #[inline]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut buf = [0u8; N];
        self.read_into(&mut buf)?;
        Ok(buf)
    }

    /// Reads exactly `n` bytes into a new vector (checked against the remaining bytes first).
    fn read_vec(&mut self, n: u64) -> Result<Vec<u8>> {
        if n > self.remaining() {
            return Err(Error::truncated(self.position(), n, self.end()));
        }
        // Read in chunks: a stream may claim an end beyond the bytes it really holds, so
        // memory grows with the bytes actually read, not with `n`.
        const CHUNK: u64 = 1 << 16;
        let mut buf = Vec::with_capacity(n.min(CHUNK) as usize);
        let mut left = n;
        while left > 0 {
            let take = left.min(CHUNK) as usize;
            let start = buf.len();
            buf.resize(start + take, 0);
            self.read_into(&mut buf[start..])?;
            left -= take as u64;
        }
        Ok(buf)
    }

    /// Reads exactly `n` bytes and hands them to `f` as one slice (the bulk path for runs of
    /// fixed-size values). Over memory the slice is borrowed; other inputs read into a
    /// buffer first (checked against the remaining bytes, like [`Input::read_vec`]).
    #[inline]
    fn read_with<R>(&mut self, n: usize, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let bytes = self.read_vec(n as u64)?;
        Ok(f(&bytes))
    }

    /// True when every byte up to [`Input::end`] is already in memory, so that a count
    /// checked against [`Input::remaining`] may be reserved in full. Streams answer
    /// `false`: their end is a claim that a read may still contradict.
    #[inline]
    fn holds_all(&self) -> bool {
        false
    }

    /// The number of bytes left before the end.
    #[inline]
    fn remaining(&self) -> u64 {
        self.end().saturating_sub(self.position())
    }

    /// True when no bytes are left.
    #[inline]
    fn at_end(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes not yet read, when the input holds them in memory (`None` for streams).
    /// The fixed path decodes values from them, then steps over what it used with
    /// [`Input::skip`].
    #[inline]
    fn in_memory(&self) -> Option<&[u8]> {
        None
    }

    /// Steps over the next `n` bytes (fails like a read of `n` bytes when fewer are left).
    fn skip(&mut self, n: usize) -> Result<()> {
        self.read_vec(n as u64).map(drop)
    }

    /// Moves the end of the input to `end` and returns the end before, so that a region
    /// of a declared size (`#[mmd(size = expr)]`) reads as a whole input and the old end
    /// can be given back afterwards. `end` lies between the position and the end the
    /// input was made with. By default an input cannot be bounded: the call fails, and a
    /// field with a `size` cannot be read from it.
    fn set_end(&mut self, end: u64) -> Result<u64> {
        let _ = end;
        Err(Error::invalid(
            self.position(),
            "an input whose end can be moved, for a field of a declared size",
            "an input that does not implement `Input::set_end`",
        ))
    }

    /// Moves the position to `pos` (at most [`Input::end`]), for a field read at a
    /// position of its own (`#[mmd(pos = expr)]`) and for the way back after it. By
    /// default an input cannot seek: the call fails, and a positioned field cannot be read
    /// from it.
    fn seek(&mut self, pos: u64) -> Result<()> {
        let _ = pos;
        Err(Error::invalid(
            self.position(),
            "an input that can seek, for a field read at a position of its own",
            "an input that does not implement `Input::seek`",
        ))
    }
}

/// An [`Input`] over a byte slice: the fast path for files already in memory.
///
/// It keeps the unread part as a slice, so that each read is one length comparison and a
/// pointer step.
#[derive(Debug, Clone)]
pub struct SliceInput<'a> {
    /// The bytes the input was made with (a region of a declared size narrows `data`).
    full: &'a [u8],
    /// The whole input (for the offset and the end).
    data: &'a [u8],
    /// The bytes not yet read: always a suffix of `data`.
    rest: &'a [u8],
}

impl<'a> SliceInput<'a> {
    /// Starts reading at the first byte of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        SliceInput {
            full: data,
            data,
            rest: data,
        }
    }

    /// The bytes not yet read.
    pub fn rest(&self) -> &'a [u8] {
        self.rest
    }

    /// The error for a read of `needed` bytes that does not fit.
    #[cold]
    #[inline(never)]
    fn short(&self, needed: usize) -> Error {
        Error::truncated(self.position(), needed as u64, self.data.len() as u64)
    }

    /// Takes the next `n` bytes.
    #[inline(always)]
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n <= self.rest.len() {
            let (head, tail) = self.rest.split_at(n);
            self.rest = tail;
            Ok(head)
        } else {
            Err(self.short(n))
        }
    }
}

impl Input for SliceInput<'_> {
    #[inline(always)]
    fn position(&self) -> u64 {
        (self.data.len() - self.rest.len()) as u64
    }
    #[inline(always)]
    fn end(&self) -> u64 {
        self.data.len() as u64
    }
    #[inline(always)]
    fn remaining(&self) -> u64 {
        self.rest.len() as u64
    }
    #[inline(always)]
    fn at_end(&self) -> bool {
        self.rest.is_empty()
    }
    #[inline(always)]
    fn holds_all(&self) -> bool {
        true
    }
    #[inline]
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        let src = self.take(buf.len())?;
        buf.copy_from_slice(src);
        Ok(())
    }
    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.rest.split_first_chunk::<N>() {
            Some((head, tail)) => {
                self.rest = tail;
                Ok(*head)
            }
            None => Err(self.short(N)),
        }
    }
    #[inline]
    fn read_with<R>(&mut self, n: usize, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let bytes = self.take(n)?;
        Ok(f(bytes))
    }
    #[inline(always)]
    fn in_memory(&self) -> Option<&[u8]> {
        Some(self.rest)
    }
    #[inline(always)]
    fn skip(&mut self, n: usize) -> Result<()> {
        self.take(n).map(drop)
    }
    fn read_vec(&mut self, n: u64) -> Result<Vec<u8>> {
        match usize::try_from(n) {
            Ok(k) if k <= self.rest.len() => Ok(self.take(k)?.to_vec()),
            _ => Err(Error::truncated(self.position(), n, self.end())),
        }
    }
    fn set_end(&mut self, end: u64) -> Result<u64> {
        let pos = self.data.len() - self.rest.len();
        match usize::try_from(end) {
            Ok(e) if e >= pos && e <= self.full.len() => {
                let old = self.data.len() as u64;
                self.data = &self.full[..e];
                self.rest = &self.full[pos..e];
                Ok(old)
            }
            _ => Err(Error::truncated(
                pos as u64,
                end.saturating_sub(pos as u64),
                self.full.len() as u64,
            )),
        }
    }
    fn seek(&mut self, pos: u64) -> Result<()> {
        match usize::try_from(pos) {
            Ok(p) if p <= self.data.len() => {
                self.rest = &self.data[p..];
                Ok(())
            }
            _ => Err(Error::truncated(
                self.position(),
                pos.saturating_sub(self.position()),
                self.end(),
            )),
        }
    }
}

/// An [`Input`] over any `Read + Seek` stream (used by the binrw impls).
///
/// The end of the stream is found once, when the adapter is made, by seeking to the end
/// and back.
#[derive(Debug)]
pub struct IoInput<'r, R: Read + Seek + ?Sized> {
    reader: &'r mut R,
    pos: u64,
    end: u64,
}

impl<'r, R: Read + Seek + ?Sized> IoInput<'r, R> {
    /// Wraps `reader`, reading from its current position.
    pub fn new(reader: &'r mut R) -> Result<Self> {
        let io = |e| Error::new(0, ErrorKind::Io(e));
        let pos = reader.stream_position().map_err(io)?;
        let end = reader.seek(SeekFrom::End(0)).map_err(io)?;
        reader.seek(SeekFrom::Start(pos)).map_err(io)?;
        Ok(IoInput { reader, pos, end })
    }
}

impl<R: Read + Seek + ?Sized> Input for IoInput<'_, R> {
    fn position(&self) -> u64 {
        self.pos
    }
    fn end(&self) -> u64 {
        self.end
    }
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        if self.pos.saturating_add(buf.len() as u64) > self.end {
            return Err(Error::truncated(self.pos, buf.len() as u64, self.end));
        }
        match self.reader.read_exact(buf) {
            Ok(()) => {
                self.pos += buf.len() as u64;
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(Error::truncated(
                self.pos,
                buf.len() as u64,
                self.end.max(self.pos),
            )),
            Err(e) => Err(Error::new(self.pos, ErrorKind::Io(e))),
        }
    }
    fn set_end(&mut self, end: u64) -> Result<u64> {
        if end < self.pos {
            return Err(Error::truncated(self.pos, 0, self.end));
        }
        Ok(std::mem::replace(&mut self.end, end))
    }
    fn seek(&mut self, pos: u64) -> Result<()> {
        if pos > self.end {
            return Err(Error::truncated(
                self.pos,
                pos.saturating_sub(self.pos),
                self.end,
            ));
        }
        self.reader
            .seek(SeekFrom::Start(pos))
            .map_err(|e| Error::new(self.pos, ErrorKind::Io(e)))?;
        self.pos = pos;
        Ok(())
    }
}

/// A byte sink.
///
/// Generated writers report, around every field, element, count, tag and signature they
/// write, where it starts ([`enter`](Output::enter)) and ends ([`leave`](Output::leave)).
/// Both do nothing by default, and calls to them compile away for outputs that keep the
/// defaults (`Vec<u8>`, [`IoOutput`]); [`SpanRecorder`](crate::inspect::spans::SpanRecorder) uses
/// them to record the byte range of every field.
pub trait Output {
    /// The offset of the next byte to be written.
    fn position(&self) -> u64;
    /// Writes all of `bytes`.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()>;

    /// The bytes written from now until the matching [`leave`](Output::leave) hold the
    /// value at `seg`, one step below the value being written. Does nothing by default.
    #[inline(always)]
    fn enter(&mut self, seg: Segment) {
        let _ = seg;
    }

    /// The value of the last unmatched [`enter`](Output::enter) is written. Does nothing
    /// by default.
    #[inline(always)]
    fn leave(&mut self) {}

    /// True when this output uses [`enter`](Output::enter) and [`leave`](Output::leave):
    /// bulk writers then report every element instead of writing a run in one go.
    /// `false` by default.
    #[inline(always)]
    fn records_spans(&self) -> bool {
        false
    }
}

impl Output for Vec<u8> {
    #[inline]
    fn position(&self) -> u64 {
        self.len() as u64
    }
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// An [`Output`] over any `Write + Seek` stream (used by the binrw impls).
#[derive(Debug)]
pub struct IoOutput<'w, W: Write + Seek + ?Sized> {
    writer: &'w mut W,
    pos: u64,
}

impl<'w, W: Write + Seek + ?Sized> IoOutput<'w, W> {
    /// Wraps `writer`, writing at its current position.
    pub fn new(writer: &'w mut W) -> Result<Self> {
        let pos = writer
            .stream_position()
            .map_err(|e| Error::new(0, ErrorKind::Io(e)))?;
        Ok(IoOutput { writer, pos })
    }
}

impl<W: Write + Seek + ?Sized> Output for IoOutput<'_, W> {
    fn position(&self) -> u64 {
        self.pos
    }
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.writer
            .write_all(bytes)
            .map_err(|e| Error::new(self.pos, ErrorKind::Io(e)))?;
        self.pos += bytes.len() as u64;
        Ok(())
    }
}
