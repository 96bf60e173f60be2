//! The walk, spans, explanations and diffs of a whole file, for any [`Format`].
//!
//! These read the file first; every error is the read error (offset and field path).
//!
//! ```
//! use mmd_formats::format::Format;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
//! let spans = Format::Vmd.spans(&bytes)?;
//! // Leaves tile the file: every byte is in exactly one of them.
//! let covered: u64 = spans.leaves().map(|s| s.end() - s.start()).sum();
//! assert_eq!(covered, bytes.len() as u64);
//! assert!(Format::Vmd.diff(&bytes, &bytes)?.is_empty());
//! # Ok(()) }
//! ```

use crate::diff::{diff_values, Difference};
use crate::error::Result;
use crate::format::Format;
use crate::spans::{explain_in, Explanation, Spans};
use crate::walk::Value;

/// Reads `bytes` as `format` and passes the value to `f`, as a walkable, encodable value.
macro_rules! with_value {
    ($format:expr, $bytes:expr, |$v:ident| $body:expr, |$vpd:ident| $vpd_body:expr) => {
        match $format {
            Format::Pmx => {
                let $v = crate::pmx::Pmx::from_bytes($bytes)?;
                $body
            }
            Format::Pmd => {
                let $v = crate::pmd::Pmd::from_bytes($bytes)?;
                $body
            }
            Format::Vmd => {
                let $v = crate::vmd::Vmd::from_bytes($bytes)?;
                $body
            }
            Format::Vpd => {
                let $vpd = crate::vpd::Vpd::from_bytes($bytes)?;
                $vpd_body
            }
        }
    };
}

impl Format {
    /// Reads `bytes` and walks the value into a tree (the content of `mmd dump`).
    pub fn tree(self, bytes: &[u8]) -> Result<Value> {
        with_value!(self, bytes, |v| Ok(Value::of(&v)), |v| Ok(Value::of(&v)))
    }

    /// Reads `bytes` and records the byte range of every field (see [`crate::spans`]).
    pub fn spans(self, bytes: &[u8]) -> Result<Spans> {
        with_value!(self, bytes, |v| Spans::of(&v, &()), |v| v.spans())
    }

    /// Reads `bytes` and both walks the value and records its spans.
    pub fn tree_and_spans(self, bytes: &[u8]) -> Result<(Value, Spans)> {
        with_value!(
            self,
            bytes,
            |v| Ok((Value::of(&v), Spans::of(&v, &())?)),
            |v| Ok((Value::of(&v), v.spans()?))
        )
    }

    /// Reads `bytes` and explains byte `offset`: the innermost field that holds it, its
    /// byte range and value. `Ok(None)` when the offset is past the end (or, in a VPD
    /// file, in layout text outside every block).
    pub fn explain(self, bytes: &[u8], offset: u64) -> Result<Option<Explanation>> {
        with_value!(
            self,
            bytes,
            |v| crate::spans::explain(&v, &(), offset),
            |v| Ok(explain_in(&v.spans()?, &Value::of(&v), offset))
        )
    }

    /// Reads both files as this format and lists their field-level differences (see
    /// [`crate::diff`]). Empty when the files are equal; for binary formats, empty only
    /// when they are equal.
    pub fn diff(self, a: &[u8], b: &[u8]) -> Result<Vec<Difference>> {
        let ta = self.tree(a)?;
        if a == b {
            // The same bytes read to the same tree (and `a` reads, so `b` does).
            return Ok(Vec::new());
        }
        Ok(diff_values(&ta, &self.tree(b)?))
    }
}
