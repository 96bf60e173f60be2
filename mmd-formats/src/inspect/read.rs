//! A file of any format, read: [`Format::read`] is the one place where a format picks its
//! type, and [`Inspect`] is what every whole-file type offers the inspection tools.

use super::facts::{self, Fact};
use super::spans::{Explanation, Spans};
use super::Format;
use crate::codec::{Decode, Encode};
use crate::error::Result;
use crate::io::{Input, SliceInput};
use crate::pmd::Pmd;
use crate::pmx::Pmx;
use crate::vmd::Vmd;
use crate::vpd::Vpd;
use crate::walk::{Value, Walk};

/// What the inspection tools ask of a whole file, whatever its format.
///
/// Implemented by [`Pmx`], [`Pmd`], [`Vmd`] and [`Vpd`]; [`Format::read`] gives one as a
/// `Box<dyn Inspect>`.
///
/// ```
/// use mmd_formats::inspect::{Format, Inspect};
/// # fn main() -> Result<(), mmd_formats::Error> {
/// let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
/// let file = Format::Vmd.read(&bytes)?;
/// assert_eq!(file.format(), Format::Vmd);
/// assert_eq!(file.to_bytes()?, bytes);
/// // The leaves of the spans tile the file: every byte is in exactly one of them.
/// let covered: u64 = file.spans()?.leaves().map(|s| s.end() - s.start()).sum();
/// assert_eq!(covered, bytes.len() as u64);
/// # Ok(()) }
/// ```
pub trait Inspect: Walk {
    /// The file's format.
    fn format(&self) -> Format;

    /// Writes the file to memory.
    fn to_bytes(&self) -> Result<Vec<u8>>;

    /// The byte range of every field (see [`spans`](super::spans)): recorded by the writer
    /// for the binary formats, by the parser for VPD text.
    fn spans(&self) -> Result<Spans>;

    /// Explains byte `offset`: the innermost field that holds it, its byte range and value.
    /// `None` when the offset is past the end (or, in a VPD file, in layout text outside
    /// every block).
    fn explain(&self, offset: u64) -> Result<Option<Explanation>>;

    /// What `mmd info` shows about the file, in display order.
    fn facts(&self) -> Result<Vec<Fact>>;

    /// The walked tree of the whole file (the content of `mmd dump`).
    fn tree(&self) -> Value {
        Value::of(self)
    }
}

mod sealed {
    use super::*;

    /// What differs between the whole-file types; [`Inspect`] is written once on top of it.
    pub trait FileType: Decode<()> + Encode<()> + Walk + 'static {
        /// The format.
        const FORMAT: Format;

        /// The facts `mmd info` shows.
        fn facts(&self) -> Result<Vec<Fact>>;

        /// The spans, by default recorded by writing the file to a span recorder.
        fn record_spans(&self) -> Result<Spans> {
            Spans::of(self, &())
        }

        /// The field at a byte, by default from a recorder that keeps only its spans.
        fn explain_offset(&self, offset: u64) -> Result<Option<Explanation>> {
            super::super::spans::explain(self, &(), offset)
        }
    }
}

use sealed::FileType;

impl<T: FileType> Inspect for T {
    fn format(&self) -> Format {
        T::FORMAT
    }

    fn to_bytes(&self) -> Result<Vec<u8>> {
        crate::file::encode_all(self, &())
    }

    fn spans(&self) -> Result<Spans> {
        self.record_spans()
    }

    fn explain(&self, offset: u64) -> Result<Option<Explanation>> {
        self.explain_offset(offset)
    }

    fn facts(&self) -> Result<Vec<Fact>> {
        FileType::facts(self)
    }
}

impl FileType for Pmx {
    const FORMAT: Format = Format::Pmx;
    fn facts(&self) -> Result<Vec<Fact>> {
        facts::pmx_facts(self)
    }
}

impl FileType for Pmd {
    const FORMAT: Format = Format::Pmd;
    fn facts(&self) -> Result<Vec<Fact>> {
        Ok(facts::pmd_facts(self))
    }
}

impl FileType for Vmd {
    const FORMAT: Format = Format::Vmd;
    fn facts(&self) -> Result<Vec<Fact>> {
        Ok(facts::vmd_facts(self))
    }
}

/// VPD is text: its spans come from where the parser found each value, not from a writer.
impl FileType for Vpd {
    const FORMAT: Format = Format::Vpd;
    fn facts(&self) -> Result<Vec<Fact>> {
        Ok(facts::vpd_facts(self))
    }
    fn record_spans(&self) -> Result<Spans> {
        let (len, ranges) = self.value_ranges()?;
        Ok(Spans::from_ranges(len, ranges))
    }
    fn explain_offset(&self, offset: u64) -> Result<Option<Explanation>> {
        // Only the ranges that hold the byte, and only the value found, are kept.
        let (len, ranges) = self.value_ranges()?;
        let held = ranges
            .into_iter()
            .filter(|(_, start, end)| *start <= offset && offset < *end);
        let spans = Spans::from_ranges(len, held);
        let Some(span) = spans.deepest(offset) else {
            return Ok(None);
        };
        let path = span.path();
        Ok(Some(Explanation {
            offset,
            start: span.start(),
            end: span.end(),
            value: super::spans::pick(self, path.segments()),
            path,
        }))
    }
}

impl Format {
    /// Reads a whole file of this format from memory; the value must span all of `bytes`.
    pub fn read(self, bytes: &[u8]) -> Result<Box<dyn Inspect>> {
        let mut input = SliceInput::new(bytes);
        let file = self.decode(&mut input)?;
        crate::file::expect_end(&input)?;
        Ok(file)
    }

    /// Reads one file of this format from `input`, leaving the input after its last byte.
    pub fn decode<I: Input + ?Sized>(self, input: &mut I) -> Result<Box<dyn Inspect>> {
        fn boxed<F: FileType, I: Input + ?Sized>(input: &mut I) -> Result<Box<dyn Inspect>> {
            Ok(Box::new(F::decode(input, &())?))
        }
        match self {
            Format::Pmx => boxed::<Pmx, I>(input),
            Format::Pmd => boxed::<Pmd, I>(input),
            Format::Vmd => boxed::<Vmd, I>(input),
            Format::Vpd => boxed::<Vpd, I>(input),
        }
    }
}
