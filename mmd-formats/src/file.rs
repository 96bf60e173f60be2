//! Whole-file reading and writing: in memory, and to paths with atomic replace.
//!
//! [`write_atomic`] is what every `write_path` and every edit of the `mmd` tool writes
//! through: the new bytes go to a temporary file beside the target, which is then renamed
//! over it, so a reader never sees half a file and a failed write leaves the old one. A
//! symbolic link is followed (the file it points to is replaced and the link stays a
//! link), and a replaced file keeps its permissions.

use crate::codec::{Decode, Encode};
use crate::error::{Error, Result};
use crate::io::{Input, SliceInput};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Reads one value that must span all of `bytes`.
pub fn decode_all<T: Decode<C>, C: ?Sized>(bytes: &[u8], ctx: &C) -> Result<T> {
    let mut input = SliceInput::new(bytes);
    let value = T::decode(&mut input, ctx)?;
    expect_end(&input)?;
    Ok(value)
}

/// Fails unless every byte of `input` was read.
pub(crate) fn expect_end(input: &SliceInput<'_>) -> Result<()> {
    if input.at_end() {
        return Ok(());
    }
    Err(Error::invalid(
        input.position(),
        "the end of the file",
        format!("{} more bytes", input.remaining()),
    ))
}

/// Writes one value to a new vector, which first reserves what the value will write
/// ([`Encode::size_hint`]), so that it is not copied as it grows.
pub fn encode_all<T: Encode<C> + ?Sized, C: ?Sized>(value: &T, ctx: &C) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(value.size_hint(ctx));
    value.encode(&mut out, ctx)?;
    Ok(out)
}

/// Reads a whole file into memory. A failure names the path and, when the file or a
/// folder on its path is missing, which one.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| io_error("read", path, e))
}

/// Writes `bytes` to `path` atomically: to a temporary file in the same directory, synced,
/// then renamed over `path`. On any failure the temporary file is removed and `path` is
/// untouched.
///
/// When `path` is a symbolic link, the file it points to is replaced and the link is kept.
/// A file that is replaced keeps its permissions (a new file gets the usual ones).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = follow_links(path).map_err(|e| io_error("write", path, e))?;
    replace(&target, bytes).map_err(|e| io_error("write", path, e))
}

/// The file a path names once every symbolic link on its last component is followed (the
/// path itself when it is not a link, or does not exist yet).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    /// More links in a row than this is a loop (the limit Linux uses).
    const MAX_LINKS: usize = 40;
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row (a loop?)"
    )))
}

/// Replaces the file `target` (not a link) with `bytes` through a temporary file beside it.
fn replace(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let permissions = fs::metadata(target)
        .ok()
        .filter(fs::Metadata::is_file)
        .map(|m| m.permissions());
    let (tmp, mut file) = create_temporary(&dir, &name)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(p) = permissions {
            file.set_permissions(p)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// A new, empty file `.<name>.<pid>.<n>.tmp` in `dir`, never one that exists already.
fn create_temporary(dir: &Path, name: &str) -> io::Result<(PathBuf, fs::File)> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut attempt = 0u32;
    loop {
        let tmp = dir.join(format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            nanos.wrapping_add(attempt)
        ));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// The error for a failed `action` (`read`, `write`) on `path`: it names the path and,
/// when something on the path is missing, what.
fn io_error(action: &str, path: &Path, e: io::Error) -> Error {
    let shown = path.display();
    let why = match missing(path) {
        Some(what) if e.kind() == io::ErrorKind::NotFound => what,
        _ => e.to_string(),
    };
    Error::io(format!("cannot {action} {shown}: {why}"), e)
}

/// What is missing on the way to `path`: the outermost folder that does not exist, or the
/// file itself. `None` when nothing is missing.
fn missing(path: &Path) -> Option<String> {
    if fs::symlink_metadata(path).is_ok() {
        return None;
    }
    let mut gone: Option<&Path> = None;
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if fs::symlink_metadata(d).is_ok() {
            break;
        }
        gone = Some(d);
        dir = d.parent();
    }
    Some(match gone {
        Some(d) => format!("the folder {} does not exist", d.display()),
        None => "the file does not exist".to_owned(),
    })
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

            /// Writes the file atomically (see [`write_atomic`](crate::file::write_atomic)):
            /// to a temporary file beside `path`, then renamed over it, so a failed write
            /// never leaves a half-written file; a symbolic link is followed and kept, and
            /// a replaced file keeps its permissions.
            pub fn write_path(&self, path: impl AsRef<std::path::Path>) -> $crate::error::Result<()> {
                $crate::file::write_atomic(path.as_ref(), &self.to_bytes()?)
            }
        }
    };
}
pub(crate) use whole_file_api;

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder, removed at the end.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "mmd-file-{name}-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_write_into_a_missing_folder_names_it_and_no_offset() {
        let dir = TempDir::new("missing");
        let path = dir.0.join("no").join("such").join("out.pmx");
        let err = write_atomic(&path, b"x").unwrap_err();
        let message = err.to_string();
        assert_eq!(
            message,
            format!(
                "cannot write {}: the folder {} does not exist",
                path.display(),
                dir.0.join("no").display()
            )
        );
        assert!(!message.contains("0x"), "{message}");
        match err.kind() {
            crate::ErrorKind::Io(e) => assert_eq!(e.kind(), io::ErrorKind::NotFound),
            other => panic!("expected an I/O error, got {other:?}"),
        }
    }

    #[test]
    fn a_missing_file_is_named() {
        let dir = TempDir::new("read");
        let path = dir.0.join("gone.vmd");
        let err = read(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("cannot read {}: the file does not exist", path.display())
        );
    }

    #[test]
    fn a_write_leaves_no_temporary_file() {
        let dir = TempDir::new("clean");
        let path = dir.0.join("a.bin");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_kept_and_the_mode_is_kept() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = TempDir::new("link");
        let real = dir.0.join("real.bin");
        fs::write(&real, b"old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        // A relative link to a relative link.
        symlink("real.bin", dir.0.join("one.bin")).unwrap();
        symlink("one.bin", dir.0.join("two.bin")).unwrap();
        write_atomic(&dir.0.join("two.bin"), b"new").unwrap();
        assert_eq!(fs::read(&real).unwrap(), b"new");
        for link in ["one.bin", "two.bin"] {
            let meta = fs::symlink_metadata(dir.0.join(link)).unwrap();
            assert!(meta.file_type().is_symlink(), "{link} is still a link");
        }
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(
            fs::read_dir(&dir.0).unwrap().count(),
            3,
            "no temporary file"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_loop_is_an_error_not_a_hang() {
        use std::os::unix::fs::symlink;
        let dir = TempDir::new("loop");
        symlink("b", dir.0.join("a")).unwrap();
        symlink("a", dir.0.join("b")).unwrap();
        let err = write_atomic(&dir.0.join("a"), b"x").unwrap_err();
        assert!(err.to_string().contains("symbolic links"), "{err}");
    }
}
