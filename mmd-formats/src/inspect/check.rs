//! The byte-exact round-trip check behind `mmd check`: read, write back in memory, compare.

use super::Format;
use crate::codec::Decode;
use crate::error::{Error, Result};
use crate::io::{Input, SliceInput};

/// The outcome of reading a file and writing it back.
#[derive(Debug)]
pub enum CheckOutcome {
    /// The written bytes equal the input.
    ByteExact,
    /// Reading failed.
    ReadError(Error),
    /// Writing the value read failed.
    WriteError(Error),
    /// The written bytes differ from the input, first at `offset` (with the field there,
    /// when known); `written_len` is the length of what was written.
    Differs {
        /// The first differing offset.
        offset: u64,
        /// The length of the written bytes.
        written_len: u64,
    },
}

/// Reads `bytes` as `format`, writes the value back in memory and compares.
pub fn check_roundtrip(format: Format, bytes: &[u8]) -> CheckOutcome {
    match format.read(bytes).map(|file| file.to_bytes()) {
        Err(e) => CheckOutcome::ReadError(e),
        Ok(Err(e)) => CheckOutcome::WriteError(e),
        Ok(Ok(out)) => compare(bytes, &out),
    }
}

/// Compares input and output bytes.
pub fn compare(input: &[u8], output: &[u8]) -> CheckOutcome {
    if input == output {
        return CheckOutcome::ByteExact;
    }
    let offset = input
        .iter()
        .zip(output)
        .position(|(a, b)| a != b)
        .unwrap_or(input.len().min(output.len()));
    CheckOutcome::Differs {
        offset: offset as u64,
        written_len: output.len() as u64,
    }
}

/// The field path of the value that holds byte `offset` of a file, found by reading the
/// file cut at that offset (while count checks still see the whole file): the read fails
/// inside exactly that value. For VPD, whose reader takes the whole text at once, the path
/// is empty (the top level); a VPD file always writes back its own bytes.
pub fn field_at(format: Format, bytes: &[u8], offset: u64) -> Option<String> {
    field_at_with(bytes, offset, |input| format.decode(input).map(drop))
}

/// [`field_at`] for a file whose whole-file type is `T` (a derived root type of any
/// format, a downstream one included).
pub fn field_at_as<T: Decode<()>>(bytes: &[u8], offset: u64) -> Option<String> {
    field_at_with(bytes, offset, |input| T::decode(input, &()).map(drop))
}

/// The field path of the read error that `decode` meets on `bytes` cut at `offset`.
fn field_at_with(
    bytes: &[u8],
    offset: u64,
    decode: impl FnOnce(&mut CutInput<'_>) -> Result<()>,
) -> Option<String> {
    let cut = bytes.get(..usize::try_from(offset).ok()?)?;
    let mut input = CutInput {
        inner: SliceInput::new(cut),
        end: bytes.len() as u64,
    };
    let err = decode(&mut input).err()?;
    Some(err.path_string())
}

/// An input that reports the whole file's end but holds only its first bytes.
struct CutInput<'a> {
    inner: SliceInput<'a>,
    end: u64,
}

impl Input for CutInput<'_> {
    fn position(&self) -> u64 {
        self.inner.position()
    }
    fn end(&self) -> u64 {
        self.end
    }
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        if buf.len() as u64 > self.remaining() {
            return Err(Error::truncated(
                self.position(),
                buf.len() as u64,
                self.end,
            ));
        }
        self.inner.read_into(buf)
    }
    fn set_end(&mut self, end: u64) -> Result<u64> {
        if end < self.position() {
            return Err(Error::truncated(self.position(), 0, self.end));
        }
        Ok(std::mem::replace(&mut self.end, end))
    }
    fn seek(&mut self, pos: u64) -> Result<()> {
        if pos > self.end {
            return Err(Error::truncated(
                self.position(),
                pos.saturating_sub(self.position()),
                self.end,
            ));
        }
        self.inner.seek(pos)
    }
}
