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

pub use check::{check_roundtrip, compare, field_at, field_at_as, CheckOutcome};
pub use facts::{Info, InfoValue};
pub use format::{Format, UnknownFormat};
pub use read::Inspect;

use std::borrow::Cow;

use crate::error::Result;
use crate::walk::Value;
use diff::Difference;
use spans::{Explanation, Spans};

/// Text a file contributes (a name, a comment, a file name), made safe to print on a
/// line of text output: escaped as `mmd dump` escapes text (Rust's `{:?}` form: `\n`,
/// `\r`, `\t`, `\0`, `\u{1b}` for ESC and any other control or non-printing
/// character, `\\` for a backslash, `\"` for a double quote), without the surrounding
/// quotes. A newline in a model name can then not start a line of its own (a forged
/// `format:` line), and no escape sequence reaches a terminal. Text with nothing to
/// escape is borrowed as it is.
///
/// ```
/// use mmd_formats::inspect::escape_text;
/// assert_eq!(escape_text("初音ミク"), "初音ミク");
/// assert_eq!(escape_text("a\nformat: VMD"), "a\\nformat: VMD");
/// assert_eq!(escape_text("\u{1b}[2J\u{7}\r"), "\\u{1b}[2J\\u{7}\\r");
/// assert_eq!(escape_text("C:\\x"), "C:\\\\x");
/// ```
pub fn escape_text(text: &str) -> Cow<'_, str> {
    let quoted = format!("{text:?}");
    // `{:?}` adds the two quotes and changes nothing else when nothing needs escaping.
    if quoted.len() == text.len() + 2 {
        return Cow::Borrowed(text);
    }
    let inner = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or(&quoted);
    Cow::Owned(inner.to_owned())
}

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
    /// they are equal. No tree of either file is built (see [`Format::diff_each`]).
    pub fn diff(self, a: &[u8], b: &[u8]) -> Result<Vec<Difference>> {
        let mut out = Vec::new();
        let done = self.diff_each(a, b, |d| -> std::result::Result<(), ()> {
            out.push(d);
            Ok(())
        })?;
        debug_assert!(done.is_ok());
        Ok(out)
    }

    /// Reads both files as this format and hands their field-level differences to `each`
    /// as they are found, in file order (see [`diff::diff_each`]): memory holds the two
    /// files, what they read to and the values of the differences, never a tree of every
    /// field. The outer error is a read error (of `a` before `b`); the inner one is what
    /// `each` stopped the comparison with.
    pub fn diff_each<E>(
        self,
        a: &[u8],
        b: &[u8],
        each: impl FnMut(Difference) -> std::result::Result<(), E>,
    ) -> Result<std::result::Result<(), E>> {
        if a == b {
            // The same bytes read to the same value: only whether they read is asked.
            self.read(a)?;
            return Ok(Ok(()));
        }
        let (mut error_a, mut error_b) = (None, None);
        let walk =
            |bytes: &[u8], error: &mut Option<crate::Error>, v: &mut dyn crate::walk::Visitor| {
                match self.read(bytes) {
                    Ok(file) => file.walk(v),
                    Err(e) => *error = Some(e),
                }
            };
        let done = diff::diff_walks(
            |v| walk(a, &mut error_a, v),
            |v| walk(b, &mut error_b, v),
            each,
        );
        if let Some(e) = error_a.or(error_b) {
            return Err(e);
        }
        Ok(done)
    }
}
