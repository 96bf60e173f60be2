//! Errors that say where: byte offset, field path, what was expected, what was found.
//!
//! Every read or write failure is one [`Error`]. Its [`Display`](fmt::Display) form is
//! `path: what at 0xOFFSET`, for example
//! `bones[98].ik.links[0].limit_min[0]: expected 4 bytes at 0x12c528, file ends at 0x12c52a`
//! or `materials[4].toon: unknown shared-toon flag 7 at 0x1a20 (expected 0 or 1)`.

use crate::path::{path_string, Segment};
use std::fmt;

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// One step of a field path: the name errors gave [`Segment`], the one path type.
pub type PathSegment = Segment;

/// What went wrong, without the where.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value: `needed` more bytes were wanted at the error's
    /// offset, but the input ends at `end`. Distinguishes a truncated file from a corrupt one.
    Truncated {
        /// How many bytes the value needs.
        needed: u64,
        /// The offset at which the input ends.
        end: u64,
    },
    /// A count read from the file cannot be right: the records it announces need more bytes
    /// than the input has left (each record needs at least `min_record_size` bytes).
    ///
    /// This is checked before anything is allocated for the records. The reader then reads
    /// the records that are there, one at a time, to tell the two causes apart: if they
    /// are all valid up to the end of the input, the file was cut short
    /// ([`Error::is_truncated`] is true and [`Error::cut_path`] names the value the input
    /// ends inside); if one of them is not valid, the data is corrupt. Where any bytes make
    /// a valid record (VMD bone keys, PMD vertices), a count that is simply wrong therefore
    /// reads as a cut file too: the bytes cannot tell the two apart.
    CountTooLarge {
        /// The count as read.
        count: u64,
        /// The smallest size one record can have.
        min_record_size: u64,
        /// The bytes left in the input after the count.
        remaining: u64,
    },
    /// A value that decides the layout of what follows is not one the format defines
    /// (an unknown tag, a negative count, an index width other than 1, 2 or 4, bad magic).
    Invalid {
        /// What the format allows here.
        expected: String,
        /// What the input holds.
        found: String,
    },
    /// On write: the value cannot be written as it is without producing a file that reads
    /// back differently (a flag says a block is present but it is `None`, a count does not
    /// fit its field, an index does not fit its width, text in a different encoding).
    Inconsistent {
        /// What the format requires.
        expected: String,
        /// What the value holds.
        found: String,
    },
    /// An I/O error from the underlying reader or writer (other than an early end). An
    /// error on a whole file (made by [`Error::io`]: opening, reading, writing or renaming
    /// it) names the path and what failed, and has no byte offset.
    Io(std::io::Error),
}

/// The message of an I/O error that no byte offset applies to (see [`Error::io`]).
#[derive(Debug)]
struct Unplaced {
    message: String,
    source: std::io::Error,
}

impl fmt::Display for Unplaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Unplaced {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

#[derive(Debug)]
struct Inner {
    offset: u64,
    /// Path segments, innermost first (they are pushed as the error travels outwards).
    path_rev: Vec<PathSegment>,
    kind: ErrorKind,
    /// For an error that is not itself [`ErrorKind::Truncated`] but was caused by the
    /// input ending (a count whose records run past the end, a text that stops early):
    /// where the input ended.
    cut: Option<Box<Cut>>,
}

/// Where the input ended, relative to the error's own path.
#[derive(Debug)]
struct Cut {
    /// Path segments below the error's path, outermost first (`[0].toon` under `materials`).
    below: Vec<PathSegment>,
    /// The offset at which the input ends.
    end: u64,
}

/// A read or write error with its byte offset and field path.
///
/// Errors are created by the readers and writers and grow their field path as they travel
/// out of nested values, so the path always runs from the file's top level to the value
/// that failed.
pub struct Error(Box<Inner>);

impl Error {
    /// An error of the given kind at a byte offset, with an empty field path.
    #[cold]
    #[inline(never)]
    pub fn new(offset: u64, kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            offset,
            path_rev: Vec::new(),
            kind,
            cut: None,
        }))
    }

    /// The input ended: `needed` bytes were wanted at `offset`, the input ends at `end`.
    #[cold]
    #[inline(never)]
    pub fn truncated(offset: u64, needed: u64, end: u64) -> Self {
        Self::new(offset, ErrorKind::Truncated { needed, end })
    }

    /// An I/O error that no byte offset applies to: `message` says what failed and where
    /// (`cannot write out/model.pmx: the folder out does not exist`). Its kind is
    /// [`ErrorKind::Io`], with `source`'s [`std::io::ErrorKind`]; its offset is 0 and is not
    /// shown.
    pub fn io(message: impl Into<String>, source: std::io::Error) -> Self {
        let kind = source.kind();
        let unplaced = Unplaced {
            message: message.into(),
            source,
        };
        Self::new(0, ErrorKind::Io(std::io::Error::new(kind, unplaced)))
    }

    /// A layout-deciding value is not one the format defines.
    pub fn invalid(offset: u64, expected: impl Into<String>, found: impl Into<String>) -> Self {
        Self::new(
            offset,
            ErrorKind::Invalid {
                expected: expected.into(),
                found: found.into(),
            },
        )
    }

    /// A value cannot be written as it is (see [`ErrorKind::Inconsistent`]).
    pub fn inconsistent(
        offset: u64,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Self::new(
            offset,
            ErrorKind::Inconsistent {
                expected: expected.into(),
                found: found.into(),
            },
        )
    }

    /// Adds a field name at the outer end of the path (used as the error leaves a field).
    #[must_use]
    #[cold]
    #[inline(never)]
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.0.path_rev.push(PathSegment::Field(name));
        self
    }

    /// Adds a sequence position at the outer end of the path.
    #[must_use]
    #[cold]
    #[inline(never)]
    pub fn in_index(mut self, index: usize) -> Self {
        self.0.path_rev.push(PathSegment::Index(index));
        self
    }

    /// Adds any segment at the outer end of the path.
    #[must_use]
    #[cold]
    pub fn in_segment(mut self, seg: Segment) -> Self {
        self.0.path_rev.push(seg);
        self
    }

    /// The byte offset at which the failing value starts (for writes: the output offset);
    /// 0 for an I/O error no offset applies to ([`Error::io`]).
    pub fn offset(&self) -> u64 {
        self.0.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// True when the input simply ended too early, as opposed to holding corrupt data:
    /// every byte that is there reads as valid data, and the input is the beginning of a
    /// file that would read if it went on. That covers [`ErrorKind::Truncated`], and a
    /// [`ErrorKind::CountTooLarge`] whose records are valid up to the end of the input
    /// (the count was written for a longer file). Cutting a valid file anywhere gives
    /// either a file that still reads or an error for which this is true.
    ///
    /// One limit: values that are checked only once they are whole (the PMX globals, the
    /// 30-byte VMD signature) count as cut short when the file ends inside them, whatever
    /// their first bytes hold. Fixed signatures (`PMX `, `Pmd`, the VPD first line) are
    /// compared as far as the file goes.
    pub fn is_truncated(&self) -> bool {
        matches!(self.0.kind, ErrorKind::Truncated { .. }) || self.0.cut.is_some()
    }

    /// For a truncation ([`Error::is_truncated`]): the path of the innermost value the
    /// input ends inside, such as `materials[0].toon` for a material count whose last
    /// material stops before its toon index. `None` for an error from corrupt data.
    pub fn cut_path(&self) -> Option<String> {
        match (&self.0.kind, &self.0.cut) {
            (_, Some(cut)) => Some(path_string(self.path().chain(cut.below.iter()))),
            (ErrorKind::Truncated { .. }, None) => Some(self.path_string()),
            _ => None,
        }
    }

    /// For a truncation ([`Error::is_truncated`]): the offset at which the input ends (for
    /// a stream, the end it reported when reading began, or the position at which a read
    /// then came up short).
    pub fn input_end(&self) -> Option<u64> {
        match (&self.0.kind, &self.0.cut) {
            (_, Some(cut)) => Some(cut.end),
            (ErrorKind::Truncated { end, .. }, None) => Some(*end),
            _ => None,
        }
    }

    /// The path segments from this error's top level down to where the input ended, and
    /// the offset of the end (for a truncation).
    pub(crate) fn cut_point(&self) -> Option<(Vec<PathSegment>, u64)> {
        let end = self.input_end()?;
        let mut below: Vec<PathSegment> = self.path().cloned().collect();
        if let Some(cut) = &self.0.cut {
            below.extend(cut.below.iter().cloned());
        }
        Some((below, end))
    }

    /// Records that the input ended at `end`, inside the value at `below` (relative to
    /// this error's path): the error is then a truncation.
    #[must_use]
    #[cold]
    #[inline(never)]
    pub(crate) fn cut_at(mut self, below: Vec<PathSegment>, end: u64) -> Self {
        self.0.cut = Some(Box::new(Cut { below, end }));
        self
    }

    /// The field path from the top level inwards.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.path_rev.iter().rev()
    }

    /// The field path rendered as `bones[12].ik.links[1].limit_min` (empty at top level).
    pub fn path_string(&self) -> String {
        path_string(self.path())
    }
}

/// Renders bytes as a quoted ASCII string with `\xNN` escapes (`"PMX\x00"`), as messages
/// show signatures.
pub fn show_bytes(b: &[u8]) -> String {
    let mut s = String::from("\"");
    for &c in b {
        if (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\' {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02x}"));
        }
    }
    s.push('"');
    s
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path_string();
        if !path.is_empty() {
            write!(f, "{path}: ")?;
        }
        let at = self.0.offset;
        match &self.0.kind {
            ErrorKind::Truncated { needed, end } => {
                let unit = if *needed == 1 { "byte" } else { "bytes" };
                write!(
                    f,
                    "expected {needed} {unit} at {at:#x}, file ends at {end:#x}"
                )?;
            }
            ErrorKind::CountTooLarge {
                count,
                min_record_size,
                remaining,
            } => write!(
                f,
                "count {count} at {at:#x} needs at least {} bytes ({count} x {min_record_size}), \
                 but only {remaining} remain",
                count.saturating_mul(*min_record_size)
            )?,
            ErrorKind::Invalid { expected, found } => {
                return write!(f, "{found} at {at:#x} (expected {expected})");
            }
            ErrorKind::Inconsistent { expected, found } => {
                return write!(f, "cannot write at {at:#x}: {found} (expected {expected})");
            }
            ErrorKind::Io(e) => {
                return match e
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<Unplaced>())
                {
                    Some(unplaced) => write!(f, "{unplaced}"),
                    None => write!(f, "I/O error at {at:#x}: {e}"),
                };
            }
        }
        // A count that runs past the end of a file whose records are otherwise valid:
        // say where the file ends.
        if let Some(cut) = &self.0.cut {
            let inside = path_string(self.path().chain(cut.below.iter()));
            write!(f, "; the file ends at {:#x}, inside {inside}", cut.end)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<Error> for binrw::Error {
    fn from(e: Error) -> Self {
        binrw::Error::Custom {
            pos: e.offset(),
            err: Box::new(e),
        }
    }
}

impl Error {
    /// Converts a binrw error back into an [`Error`], keeping the offset; a wrapped
    /// [`Error`] comes back unchanged.
    pub fn from_binrw(e: binrw::Error) -> Self {
        match e {
            // binrw's own derive wraps errors in a backtrace of its fields: unwrap it.
            binrw::Error::Backtrace(bt) => Error::from_binrw(*bt.error),
            binrw::Error::Custom { pos, err } => match err.downcast::<Error>() {
                Ok(inner) => *inner,
                Err(other) => Error::invalid(pos, "a valid value", format!("{other:?}")),
            },
            // binrw does not say where the stream failed.
            binrw::Error::Io(io) => Error::io(format!("I/O error: {io}"), io),
            other => {
                let pos = match &other {
                    binrw::Error::BadMagic { pos, .. }
                    | binrw::Error::AssertFail { pos, .. }
                    | binrw::Error::NoVariantMatch { pos }
                    | binrw::Error::EnumErrors { pos, .. } => *pos,
                    _ => 0,
                };
                Error::invalid(pos, "a valid value", other.to_string())
            }
        }
    }
}

impl Error {
    /// For a read that ran past the end of a region of a declared size (`size = expr`,
    /// `what` naming it) rather than past the end of the input: the same error at the same
    /// place, as corrupt data (it is no longer [`Error::is_truncated`]), saying so.
    #[must_use]
    pub fn past_region(mut self, region_end: u64, what: &str) -> Self {
        match self.0.kind {
            ErrorKind::Truncated { needed, end } if end == region_end => {
                let unit = if needed == 1 { "byte" } else { "bytes" };
                self.0.kind = ErrorKind::Invalid {
                    expected: format!(
                        "{needed} more {unit} inside the region of `{what}` bytes, which ends \
                         at {end:#x}"
                    ),
                    found: format!("{} bytes left in it", end.saturating_sub(self.0.offset)),
                };
                self
            }
            _ => self,
        }
    }

    /// Moves the offset by `base` (for errors computed relative to the start of a value).
    #[must_use]
    pub fn offset_by(mut self, base: u64) -> Self {
        self.0.offset = self.0.offset.saturating_add(base);
        // Where the input ends is relative to the same start.
        if let ErrorKind::Truncated { end, .. } = &mut self.0.kind {
            *end = end.saturating_add(base);
        }
        if let Some(cut) = &mut self.0.cut {
            cut.end = cut.end.saturating_add(base);
        }
        self
    }
}

/// Why a declared context could not be computed (`#[derive(MmdContext)]`): which member,
/// and the place below one of the context's parameters whose value is wrong. A record that
/// switches to the context turns it into an [`Error`] with the offset and path of that
/// place in the file; [`ContextFault::into_error`] does so relative to the parameter.
#[derive(Debug)]
pub struct ContextFault {
    member: &'static str,
    param: usize,
    place: &'static [PathSegment],
    expected: String,
    found: String,
}

impl ContextFault {
    /// A member's value is not one it accepts.
    #[cold]
    pub fn invalid(
        member: &'static str,
        param: usize,
        place: &'static [PathSegment],
        expected: impl Into<String>,
        found: String,
    ) -> Self {
        ContextFault {
            member,
            param,
            place,
            expected: expected.into(),
            found,
        }
    }

    /// The member whose value is wrong (as messages name it: `bone index width`).
    pub fn member(&self) -> &'static str {
        self.member
    }

    /// The parameter the wrong value was read from (its position).
    pub fn param(&self) -> usize {
        self.param
    }

    /// The place below that parameter (`globals[2]` below `header`).
    pub fn place(&self) -> &'static [PathSegment] {
        self.place
    }

    /// What the member accepts.
    pub fn expected(&self) -> &str {
        &self.expected
    }

    /// What it found.
    pub fn found(&self) -> &str {
        &self.found
    }

    /// The fault as an [`Error`] whose path is the place below the parameter and whose
    /// offset is 0 (the caller knows where the parameter was read; a record switching to
    /// the context gives the offset in the file).
    pub fn into_error(self) -> Error {
        let place = self.place;
        let mut e = Error::invalid(0, self.expected, self.found);
        for seg in place.iter().rev() {
            e = e.in_segment(*seg);
        }
        e
    }
}

impl fmt::Display for ContextFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (expected {})", self.found, self.expected)
    }
}

impl std::error::Error for ContextFault {}
