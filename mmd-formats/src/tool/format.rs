//! The formats a tool reads: [`FileFormat`] (a name, a signature, and how a file of it is
//! read, built from JSON and located), and [`Document`], what a file read gives the
//! commands.

use std::fmt;

use crate::codec::{Decode, Encode};
use crate::error::Result;
use crate::inspect::facts::Fact;
use crate::inspect::spans::{self, Explanation, Spans};
use crate::inspect::{Format, InfoValue, Inspect, UnknownFormat};
use crate::json::{FromJson, Json, JsonError};
use crate::walk::{Leaf, Variant, Visitor, Walk};

/// A file read whole, as the commands see it: walked for `dump` and `diff`, written back
/// for `check`, located byte by byte for `explain`, summed up for `info`.
///
/// [`FileFormat::derived`] gives one for any derived root type; the four formats of this
/// crate give theirs through [`Inspect`].
pub trait Document: Walk {
    /// Writes the file to memory.
    fn to_bytes(&self) -> Result<Vec<u8>>;

    /// The byte range of every field.
    fn spans(&self) -> Result<Spans>;

    /// The innermost field that holds byte `offset`, its range and value; `None` past the
    /// end.
    fn explain(&self, offset: u64) -> Result<Option<Explanation>>;

    /// What `info` shows, in display order.
    fn facts(&self) -> Result<Vec<Fact>>;

    /// A value `dump --json` adds as the last member of the top-level object, named
    /// `source` (a VPD's whole text); `None` for most formats.
    fn source(&self) -> Result<Option<Leaf>> {
        Ok(None)
    }
}

/// One format of a tool: its name (`MVD`), the bytes its files open with, the file
/// extensions `build` recognises, and the functions that read, build and locate a file of
/// it. The format of every input is told by its signature, whatever its name.
///
/// ```
/// use mmd_formats::tool::FileFormat;
///
/// /// A tiny format: a signature, then a count of 16-bit values.
/// #[derive(Debug, PartialEq, mmd_formats::Mmd)]
/// #[mmd(magic = b"LVL1", ctx = ())]
/// pub struct Levels {
///     #[mmd(count = u8)]
///     pub levels: Vec<u16>,
/// }
///
/// let format = FileFormat::derived::<Levels>("LVL", b"LVL1").with_extensions(&["lvl"]);
/// let file = format.read(b"LVL1\x02\x01\x00\x02\x00")?;
/// assert_eq!(file.to_bytes()?, b"LVL1\x02\x01\x00\x02\x00");
/// assert_eq!(format.name(), "LVL");
/// # Ok::<(), mmd_formats::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct FileFormat {
    name: &'static str,
    signature: &'static [u8],
    extensions: &'static [&'static str],
    read: fn(&[u8]) -> Result<Box<dyn Document>>,
    build: fn(&Json<'_>) -> std::result::Result<Vec<u8>, JsonError>,
    field_at: fn(&[u8], u64) -> Option<String>,
    builtin: Option<Format>,
}

impl FileFormat {
    /// The format whose files are the derived root type `T` (read with the unit context,
    /// to the last byte), named `name` and told by `signature`. Its `info` shows every
    /// top-level value of the file: numbers and text as they are, a list as its length, a
    /// record as its own values and list lengths, an absent block as `absent`.
    pub fn derived<T>(name: &'static str, signature: &'static [u8]) -> FileFormat
    where
        T: Decode<()> + Encode<()> + Walk + FromJson<()> + 'static,
    {
        FileFormat {
            name,
            signature,
            extensions: &[],
            read: read_derived::<T>,
            build: build_derived::<T>,
            field_at: crate::inspect::field_at_as::<T>,
            builtin: None,
        }
    }

    /// The same format, with the file extensions (without the dot, any case) by which
    /// `build` tells it from its output's name.
    pub fn with_extensions(mut self, extensions: &'static [&'static str]) -> FileFormat {
        self.extensions = extensions;
        self
    }

    /// One of this crate's four formats.
    pub fn builtin(format: Format) -> FileFormat {
        FileFormat {
            name: format.name(),
            signature: format.signature(),
            extensions: match format {
                Format::Pmx => &["pmx"],
                Format::Pmd => &["pmd"],
                Format::Vmd => &["vmd"],
                Format::Vpd => &["vpd"],
            },
            read: match format {
                Format::Pmx => read_builtin::<crate::pmx::Pmx>,
                Format::Pmd => read_builtin::<crate::pmd::Pmd>,
                Format::Vmd => read_builtin::<crate::vmd::Vmd>,
                Format::Vpd => read_vpd,
            },
            build: match format {
                Format::Pmx => build_derived::<crate::pmx::Pmx>,
                Format::Pmd => build_derived::<crate::pmd::Pmd>,
                Format::Vmd => build_derived::<crate::vmd::Vmd>,
                Format::Vpd => build_derived::<crate::vpd::Vpd>,
            },
            field_at: match format {
                Format::Pmx => crate::inspect::field_at_as::<crate::pmx::Pmx>,
                Format::Pmd => crate::inspect::field_at_as::<crate::pmd::Pmd>,
                Format::Vmd => crate::inspect::field_at_as::<crate::vmd::Vmd>,
                Format::Vpd => crate::inspect::field_at_as::<crate::vpd::Vpd>,
            },
            builtin: Some(format),
        }
    }

    /// The format's name (`PMX`, `MVD`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The bytes every file of the format opens with.
    pub fn signature(&self) -> &'static [u8] {
        self.signature
    }

    /// The file extensions `build` tells the format by.
    pub fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }

    /// Which of this crate's four formats this is, if it is one.
    pub fn as_builtin(&self) -> Option<Format> {
        self.builtin
    }

    /// Reads `bytes`, the whole of a file of this format.
    pub fn read(&self, bytes: &[u8]) -> Result<Box<dyn Document>> {
        (self.read)(bytes)
    }

    /// Builds a file of this format from its JSON form (what `dump --json` prints).
    pub fn build(&self, text: &str) -> std::result::Result<Vec<u8>, JsonError> {
        (self.build)(&crate::json::parse(text)?)
    }

    /// The field path of the value that holds byte `offset` of `bytes` (the field at a
    /// difference `check` found).
    pub fn field_at(&self, bytes: &[u8], offset: u64) -> Option<String> {
        (self.field_at)(bytes, offset)
    }
}

impl PartialEq for FileFormat {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.signature == other.signature
    }
}

impl Eq for FileFormat {}

impl fmt::Debug for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileFormat")
            .field("name", &self.name)
            .field("signature", &crate::inspect::facts::escaped(self.signature))
            .finish_non_exhaustive()
    }
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl From<Format> for FileFormat {
    fn from(format: Format) -> Self {
        FileFormat::builtin(format)
    }
}

/// The format among `formats` whose signature `bytes` open with (the first that fits), or
/// why none does.
pub fn identify(
    formats: &[FileFormat],
    bytes: &[u8],
) -> std::result::Result<FileFormat, UnknownFormat> {
    formats
        .iter()
        .find(|f| bytes.starts_with(f.signature))
        .copied()
        .ok_or_else(|| UnknownFormat::of(bytes))
}

fn read_derived<T>(bytes: &[u8]) -> Result<Box<dyn Document>>
where
    T: Decode<()> + Encode<()> + Walk + 'static,
{
    let value: T = crate::file::decode_all(bytes, &())?;
    Ok(Box::new(Derived(value)))
}

fn build_derived<T>(json: &Json<'_>) -> std::result::Result<Vec<u8>, JsonError>
where
    T: FromJson<()> + Encode<()>,
{
    let value = T::from_json(json, &())?;
    crate::file::encode_all(&value, &()).map_err(|e| JsonError::from_write(&e))
}

fn read_builtin<T: Decode<()> + Inspect + 'static>(bytes: &[u8]) -> Result<Box<dyn Document>> {
    let value: T = crate::file::decode_all(bytes, &())?;
    Ok(Box::new(Builtin(value)))
}

fn read_vpd(bytes: &[u8]) -> Result<Box<dyn Document>> {
    Ok(Box::new(Builtin(crate::vpd::Vpd::from_bytes(bytes)?)))
}

/// A derived root type read as a [`Document`].
struct Derived<T>(T);

impl<T: Walk> Walk for Derived<T> {
    fn walk(&self, v: &mut dyn Visitor) {
        self.0.walk(v);
    }
}

impl<T: Encode<()> + Walk> Document for Derived<T> {
    fn to_bytes(&self) -> Result<Vec<u8>> {
        crate::file::encode_all(&self.0, &())
    }
    fn spans(&self) -> Result<Spans> {
        Spans::of(&self.0, &())
    }
    fn explain(&self, offset: u64) -> Result<Option<Explanation>> {
        spans::explain(&self.0, &(), offset)
    }
    fn facts(&self) -> Result<Vec<Fact>> {
        Ok(top_level_facts(&self.0))
    }
}

/// One of the four formats of this crate as a [`Document`], through [`Inspect`].
struct Builtin<T>(T);

impl<T: Walk> Walk for Builtin<T> {
    fn walk(&self, v: &mut dyn Visitor) {
        self.0.walk(v);
    }
}

impl<T: Inspect + 'static> Document for Builtin<T> {
    fn to_bytes(&self) -> Result<Vec<u8>> {
        self.0.to_bytes()
    }
    fn spans(&self) -> Result<Spans> {
        self.0.spans()
    }
    fn explain(&self, offset: u64) -> Result<Option<Explanation>> {
        self.0.explain(offset)
    }
    fn facts(&self) -> Result<Vec<Fact>> {
        self.0.facts()
    }
    fn source(&self) -> Result<Option<Leaf>> {
        // A VPD's whole text, which `build` reads back (its layout holds no value).
        let any: &dyn std::any::Any = &self.0;
        match any.downcast_ref::<crate::vpd::Vpd>() {
            Some(vpd) => vpd.source_leaf().map(Some),
            None => Ok(None),
        }
    }
}

/// What `info` shows of a derived file: each top-level field in file order, a number or a
/// text as it is, a list as its length, an absent block as `absent`, a record as its own
/// fields shown alike (one level down; deeper records and enum bodies are left out).
fn top_level_facts<T: Walk + ?Sized>(value: &T) -> Vec<Fact> {
    let mut facts = Facts::default();
    value.walk(&mut facts);
    facts.top
}

/// The [`Visitor`] behind [`top_level_facts`]: it keeps values at depths 1 and 2 only.
#[derive(Default)]
struct Facts {
    /// Open containers: the root is depth 1.
    depth: usize,
    /// The name of the field being visited at depth 1 and at depth 2.
    names: [Option<&'static str>; 2],
    /// The facts of the top level.
    top: Vec<Fact>,
    /// The values of the record open at depth 2, named.
    inner: Vec<(String, InfoValue)>,
}

impl Facts {
    /// A value found where the next field's name was recorded.
    fn value(&mut self, value: InfoValue) {
        match self.depth {
            1 => {
                if let Some(name) = self.names[0].take() {
                    self.top.push((name, value));
                }
            }
            2 => {
                if let Some(name) = self.names[1].take() {
                    self.inner.push((name.to_owned(), value));
                }
            }
            _ => {}
        }
    }

    /// A container opens: a list is counted where it is named; a record one level down
    /// collects its own values.
    fn open(&mut self, count: Option<usize>) {
        if let Some(len) = count {
            self.value(InfoValue::Count(len as u64));
        }
        self.depth += 1;
    }
}

impl Visitor for Facts {
    fn leaf(&mut self, leaf: Leaf) {
        let value = match leaf {
            Leaf::Bool(b) => InfoValue::Flag(b),
            Leaf::U8(n) => InfoValue::Count(n.into()),
            Leaf::U16(n) => InfoValue::Count(n.into()),
            Leaf::U32(n) => InfoValue::Count(n.into()),
            Leaf::U64(n) => InfoValue::Count(n),
            Leaf::I8(n) => InfoValue::Number(n.into()),
            Leaf::I16(n) => InfoValue::Number(n.into()),
            Leaf::I32(n) => InfoValue::Number(n.into()),
            Leaf::I64(n) => InfoValue::Number(n as f64),
            Leaf::F32(x) => InfoValue::Number(x.to_string().parse().unwrap_or(f64::from(x))),
            Leaf::F64(x) => InfoValue::Number(x),
            Leaf::Text(text) => InfoValue::Text(text.text.clone()),
            Leaf::Magic(bytes) => InfoValue::Printable(crate::inspect::facts::escaped(bytes)),
            Leaf::Bytes(bytes) => InfoValue::Printable(format!("{} bytes", bytes.len())),
            other => {
                InfoValue::Printable(crate::inspect::escape_text(&other.to_string()).into_owned())
            }
        };
        self.value(value);
    }

    fn absent(&mut self) {
        self.value(InfoValue::MaybeCount(None));
    }

    fn begin_struct(&mut self, _name: &'static str) {
        match self.depth {
            1 => self.inner.clear(),
            // A record two levels down is not shown: its name is let go.
            2 => self.names[1] = None,
            _ => {}
        }
        self.open(None);
    }

    fn field(&mut self, name: &'static str) {
        match self.depth {
            1 => self.names[0] = Some(name),
            2 => self.names[1] = Some(name),
            _ => {}
        }
    }

    fn begin_seq(&mut self, len: usize) {
        self.open(Some(len));
    }

    fn begin_variant(&mut self, variant: Variant) {
        self.value(InfoValue::Text(variant.name.to_owned()));
        self.depth += 1;
    }

    fn end(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth == 1 {
            if let Some(name) = self.names[0].take() {
                // A record one level down closes: its values are the field's value.
                self.top
                    .push((name, InfoValue::Fields(std::mem::take(&mut self.inner))));
            }
        }
    }
}
