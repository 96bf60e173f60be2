//! The one place that calls `mmd-formats`' whole-file, inspection and JSON functions.
//!
//! The inspection functions (spans, explain, info, field lookup) are expected to move;
//! when they do, only this file changes.

use mmd_formats::inspect::spans::Spans;
use mmd_formats::inspect::{self as format, CheckOutcome, Inspect};
use mmd_formats::json;
use mmd_formats::walk::{Value, Walk};
use mmd_formats::{pmd::Pmd, pmx::Pmx, vmd::Vmd, vpd::Vpd, Encode, Error};

pub use mmd_formats::inspect::Format;
pub use mmd_formats::json::{FromJson, Json, JsonError};
pub use mmd_formats::path::Segment;

/// The four formats, in report order.
pub const FORMATS: [Format; 4] = [Format::Pmx, Format::Pmd, Format::Vmd, Format::Vpd];

/// True for the binary formats, whose field spans tile the whole file (VPD is text: the
/// layout between its values belongs to no field).
pub fn is_binary(format: Format) -> bool {
    !matches!(format, Format::Vpd)
}

/// Reads `bytes` as `format` and drops the value: `Err` is the read error.
pub fn read(format: Format, bytes: &[u8]) -> Result<(), Error> {
    match format {
        Format::Pmx => Pmx::from_bytes(bytes).map(drop),
        Format::Pmd => Pmd::from_bytes(bytes).map(drop),
        Format::Vmd => Vmd::from_bytes(bytes).map(drop),
        _ => Vpd::from_bytes(bytes).map(drop),
    }
}

/// Reads and writes back in memory, comparing the bytes (`mmd check`'s round trip).
pub fn roundtrip(format: Format, bytes: &[u8]) -> CheckOutcome {
    format::check_roundtrip(format, bytes)
}

/// Reads `bytes` and writes the value back: `None` when the read fails.
pub fn rewrite(format: Format, bytes: &[u8]) -> Option<Result<Vec<u8>, Error>> {
    match format {
        Format::Pmx => Pmx::from_bytes(bytes).ok().map(|v| v.to_bytes()),
        Format::Pmd => Pmd::from_bytes(bytes).ok().map(|v| v.to_bytes()),
        Format::Vmd => Vmd::from_bytes(bytes).ok().map(|v| v.to_bytes()),
        _ => Vpd::from_bytes(bytes).ok().map(|v| v.to_bytes()),
    }
}

/// What `mmd info` reports, rendered (`Err`: the read error).
pub fn info(format: Format, bytes: &[u8]) -> Result<String, Error> {
    let info = format::info(format, bytes)?;
    Ok(info
        .facts
        .iter()
        .map(|(name, value)| format!("{name}: {value}\n"))
        .collect())
}

/// The spans' cells of the file: the byte runs that each innermost field holds, in file
/// order (for a binary file they tile it: the leaves, and the bytes of a counted byte
/// sequence after its count).
pub fn cells(format: Format, bytes: &[u8]) -> Result<Vec<(u64, u64)>, Error> {
    Ok(cells_of(&format.spans(bytes)?))
}

/// One byte explained: the field's range and whether the walk gave its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explained {
    /// The field's first byte.
    pub start: u64,
    /// One past the field's last byte.
    pub end: u64,
    /// The walk found the field's value.
    pub has_value: bool,
}

/// Explains byte `offset` of the file (`Ok(None)`: no field holds it).
pub fn explain(format: Format, bytes: &[u8], offset: u64) -> Result<Option<Explained>, Error> {
    let e = format.explain(bytes, offset)?;
    Ok(e.map(|e| {
        let _ = e.path.to_string();
        Explained {
            start: e.start,
            end: e.end,
            has_value: e.value.is_some(),
        }
    }))
}

/// The field path of the value that holds byte `offset`, found by reading the file cut
/// there (`mmd`'s lookup for a byte of a file that does not read).
pub fn field_at(format: Format, bytes: &[u8], offset: u64) -> Option<String> {
    format::field_at(format, bytes, offset)
}

/// Parses JSON text into the untyped tree (the first step of `mmd build`).
pub fn parse_json(text: &str) -> Result<Json<'_>, JsonError> {
    json::parse(text)
}

/// Builds a file of `format` from JSON text (`mmd build`: parse, then [`build_tree`]).
pub fn build(format: Format, text: &str) -> Result<Vec<u8>, JsonError> {
    format.build(text)
}

/// Builds a file of `format` from a parsed JSON tree.
pub fn build_tree(format: Format, doc: &Json<'_>) -> Result<Vec<u8>, JsonError> {
    format.build_tree(doc)
}

/// Builds a value of a whole-file type from a parsed JSON tree, without writing it.
pub fn from_json<T: FromJson<()>>(doc: &Json<'_>) -> Result<T, JsonError> {
    T::from_json(doc, &())
}

/// The JSON text of a file, as `mmd dump --json` gives it (the tree of
/// [`Format::json_tree`], compact): `Err` is the read error.
pub fn dump_json(format: Format, bytes: &[u8]) -> Result<String, Error> {
    Ok(json::value_to_string(&format.json_tree(bytes)?))
}

/// Walks a value into a tree (what `mmd dump` shows) and renders its summary: a value
/// that does not write must still walk.
pub fn walk_value<T: Walk + ?Sized>(value: &T) -> String {
    Value::of(value).summary()
}

/// The spans' cells (see [`cells`]) of a value written with the `()` context (the
/// whole-file types): `Err` exactly when writing it fails.
pub fn value_cells<T: Encode<()> + ?Sized>(value: &T) -> Result<Vec<(u64, u64)>, Error> {
    Ok(cells_of(&Spans::of(value, &())?))
}

/// The spans' cells (see [`cells`]) of a VPD value (edited numbers included).
pub fn vpd_cells(value: &Vpd) -> Result<Vec<(u64, u64)>, Error> {
    Ok(cells_of(&value.spans()?))
}

fn cells_of(spans: &Spans) -> Vec<(u64, u64)> {
    spans
        .cells()
        .into_iter()
        .map(|(_, start, end)| (start, end))
        .collect()
}

/// The whole-file API of the binary format types, for code generic over them.
pub trait WholeFile: Sized + Walk + Encode<()> {
    /// Reads a whole file.
    fn from_bytes(bytes: &[u8]) -> Result<Self, Error>;
    /// Writes a whole file.
    fn to_bytes(&self) -> Result<Vec<u8>, Error>;
}

macro_rules! whole_file {
    ($($ty:ty),*) => {$(
        impl WholeFile for $ty {
            fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                <$ty>::from_bytes(bytes)
            }
            fn to_bytes(&self) -> Result<Vec<u8>, Error> {
                <$ty>::to_bytes(self)
            }
        }
    )*};
}
whole_file!(Pmx, Pmd, Vmd);
