//! Whole-file reading and writing: in memory, and to paths with atomic replace.

use crate::codec::{Decode, Encode};
use crate::error::{Error, ErrorKind, Result};
use crate::io::{Input, SliceInput};
use std::io::Write;
use std::path::Path;

/// Reads one value that must span all of `bytes`.
pub fn decode_all<T: Decode<C>, C: ?Sized>(bytes: &[u8], ctx: &C) -> Result<T> {
    let mut input = SliceInput::new(bytes);
    let value = T::decode(&mut input, ctx)?;
    if !input.at_end() {
        return Err(Error::invalid(
            input.position(),
            "the end of the file",
            format!("{} more bytes", input.remaining()),
        ));
    }
    Ok(value)
}

/// Writes one value to a new vector.
pub fn encode_all<T: Encode<C> + ?Sized, C: ?Sized>(value: &T, ctx: &C) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    value.encode(&mut out, ctx)?;
    Ok(out)
}

fn io_err(e: std::io::Error) -> Error {
    Error::new(0, ErrorKind::Io(e))
}

/// Reads a whole file into memory.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(io_err)
}

/// Writes `bytes` to a temporary file in the same directory, syncs it, then renames it
/// over `path`. On any failure the temporary file is removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_err(e));
    }
    Ok(())
}

/// The whole-file API of a derived format type read and written with the `()` context:
/// `from_bytes`, `to_bytes`, `read_path` and `write_path` (atomic).
macro_rules! whole_file_api {
    ($ty:ident, $name:literal) => {
        impl $ty {
            #[doc = concat!("Reads a ", $name, " file from memory; the value must span all of `bytes`.")]
            pub fn from_bytes(bytes: &[u8]) -> $crate::error::Result<Self> {
                $crate::file::decode_all(bytes, &())
            }

            /// Writes the file to memory.
            pub fn to_bytes(&self) -> $crate::error::Result<Vec<u8>> {
                $crate::file::encode_all(self, &())
            }

            #[doc = concat!("Reads a ", $name, " file.")]
            pub fn read_path(path: impl AsRef<std::path::Path>) -> $crate::error::Result<Self> {
                Self::from_bytes(&$crate::file::read(path.as_ref())?)
            }

            /// Writes the file atomically: to a temporary file beside `path`, then renamed
            /// over it, so a failed write never leaves a half-written file.
            pub fn write_path(&self, path: impl AsRef<std::path::Path>) -> $crate::error::Result<()> {
                $crate::file::write_atomic(path.as_ref(), &self.to_bytes()?)
            }
        }
    };
}
pub(crate) use whole_file_api;
