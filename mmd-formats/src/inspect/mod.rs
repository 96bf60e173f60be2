//! The whole-file inspection tools, for a file of any [`Format`]: format detection, the
//! byte-exact round-trip check, `mmd info`'s facts, the field-level [`diff`], the
//! [`dump`], and the [`spans`] (the byte range of every field) with `explain` (which field
//! holds a byte).
//!
//! [`diff`], [`dump`] and [`spans`] work on any walked or derived value; the rest read a
//! whole file first, through [`Format::read`], the one place where a format picks its type,
//! and [`Inspect`], what every whole-file type offers. Every error is then the read error
//! (offset and field path).
//!
//! ```
//! use mmd_formats::inspect::Format;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
//! let format = Format::detect(&bytes).expect("a VMD signature");
//! let spans = format.spans(&bytes)?;
//! // Leaves tile the file: every byte is in exactly one of them.
//! let covered: u64 = spans.leaves().map(|s| s.end() - s.start()).sum();
//! assert_eq!(covered, bytes.len() as u64);
//! assert!(format.diff(&bytes, &bytes)?.is_empty());
//! # Ok(()) }
//! ```

mod build;
pub mod check;
pub mod diff;
pub mod dump;
pub mod facts;
pub mod format;
mod read;
pub mod spans;

pub use check::{check_roundtrip, compare, field_at, CheckOutcome};
pub use facts::{Info, InfoValue};
pub use format::{Format, UnknownFormat};
pub use read::Inspect;

use crate::error::Result;
use crate::walk::Value;
use diff::{diff_values, Difference};
use spans::{Explanation, Spans};

/// Reads `bytes` as `format` and collects what `mmd info` shows: version and counts per
/// section; for VMD also the kind, frame range, duration at 30 fps, distinct bone and morph
/// names and camera cuts.
pub fn info(format: Format, bytes: &[u8]) -> Result<Info> {
    let facts = format.read(bytes)?.facts()?;
    Ok(Info { format, facts })
}

impl Format {
    /// Reads `bytes` and walks the value into a tree (the content of `mmd dump`).
    pub fn tree(self, bytes: &[u8]) -> Result<Value> {
        Ok(self.read(bytes)?.tree())
    }

    /// Reads `bytes` and gives the tree its JSON form prints (`mmd dump --json`, read back
    /// by [`Format::build`]): the walked tree, and for VPD also its `source` text (see
    /// [`Vpd::json_tree`](crate::vpd::Vpd::json_tree)).
    pub fn json_tree(self, bytes: &[u8]) -> Result<Value> {
        match self {
            Format::Vpd => crate::vpd::Vpd::from_bytes(bytes)?.json_tree(),
            _ => self.tree(bytes),
        }
    }

    /// Reads `bytes` and records the byte range of every field (see [`spans`]).
    pub fn spans(self, bytes: &[u8]) -> Result<Spans> {
        self.read(bytes)?.spans()
    }

    /// Reads `bytes` and both walks the value and records its spans.
    pub fn tree_and_spans(self, bytes: &[u8]) -> Result<(Value, Spans)> {
        let file = self.read(bytes)?;
        Ok((file.tree(), file.spans()?))
    }

    /// Reads `bytes` and explains byte `offset`: the innermost field that holds it, its
    /// byte range and value. `Ok(None)` when the offset is past the end (or, in a VPD
    /// file, in layout text outside every block).
    pub fn explain(self, bytes: &[u8], offset: u64) -> Result<Option<Explanation>> {
        self.read(bytes)?.explain(offset)
    }

    /// Reads both files as this format and lists their field-level differences (see
    /// [`diff`]). Empty when the files are equal; for binary formats, empty only when
    /// they are equal.
    pub fn diff(self, a: &[u8], b: &[u8]) -> Result<Vec<Difference>> {
        let ta = self.tree(a)?;
        if a == b {
            // The same bytes read to the same tree (and `a` reads, so `b` does).
            return Ok(Vec::new());
        }
        Ok(diff_values(&ta, &self.tree(b)?))
    }
}
