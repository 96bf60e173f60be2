//! Format detection by signature, and the byte-exact round-trip check behind `mmd check`.

use crate::codec::Decode;
use crate::error::{Error, Result};
use crate::io::{Input, SliceInput};

/// The file formats this crate reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// PMX 2.0 / 2.1 model (`PMX ` signature).
    Pmx,
    /// PMD model (`Pmd` signature; Shift_JIS names).
    Pmd,
    /// VPD pose (`Vocaloid Pose Data file` signature; Shift_JIS text).
    Vpd,
    /// VMD motion, camera or light key frames (`Vocaloid Motion Data` signature).
    Vmd,
}

impl Format {
    /// The format's usual name (`PMX`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Pmx => "PMX",
            Format::Pmd => "PMD",
            Format::Vpd => "VPD",
            Format::Vmd => "VMD",
        }
    }

    /// Detects the format from the first bytes of a file.
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"PMX ") {
            Some(Format::Pmx)
        } else if bytes.starts_with(b"Pmd") {
            Some(Format::Pmd)
        } else if bytes.starts_with(crate::vmd::SIGNATURE_PREFIX) {
            Some(Format::Vmd)
        } else if bytes.starts_with(crate::vpd::MAGIC) {
            Some(Format::Vpd)
        } else {
            None
        }
    }
}

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
    let written: Result<Result<Vec<u8>>> = match format {
        Format::Pmx => crate::pmx::Pmx::from_bytes(bytes).map(|m| m.to_bytes()),
        Format::Pmd => crate::pmd::Pmd::from_bytes(bytes).map(|m| m.to_bytes()),
        Format::Vpd => crate::vpd::Vpd::from_bytes(bytes).map(|v| v.to_bytes()),
        Format::Vmd => crate::vmd::Vmd::from_bytes(bytes).map(|v| v.to_bytes()),
    };
    match written {
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
/// inside exactly that value.
pub fn field_at(format: Format, bytes: &[u8], offset: u64) -> Option<String> {
    let cut = bytes.get(..usize::try_from(offset).ok()?)?;
    let mut input = CutInput {
        inner: SliceInput::new(cut),
        end: bytes.len() as u64,
    };
    let err = match format {
        Format::Pmx => crate::pmx::Pmx::decode(&mut input, &()).err()?,
        Format::Pmd => crate::pmd::Pmd::decode(&mut input, &()).err()?,
        Format::Vpd => crate::vpd::Vpd::from_bytes(cut).err()?,
        Format::Vmd => crate::vmd::Vmd::decode(&mut input, &()).err()?,
    };
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
        self.inner.read_into(buf)
    }
}
