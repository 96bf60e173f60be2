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
/// A file that is replaced keeps its permissions, and its owner and group when the process
/// may give them (a new file gets the usual ones). The temporary file is created with
/// those permissions, never wider (on Unix), so no one may read it who may not read the
/// file it replaces.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, bytes, &mut |_| Ok(()))
}

/// A step of [`write_atomic_with`], given to its `watch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step<'a> {
    /// The temporary file now exists, at this path (empty: nothing is written yet). A
    /// caller that removes it on a signal records it here.
    Created(&'a Path),
    /// The temporary file holds the bytes and is synced; the rename over the target comes
    /// next. An error from `watch` here (the target changed since it was read, say) stops
    /// the write and leaves the target as it is.
    Renaming,
    /// The temporary file is gone: renamed over the target, or removed after a failure.
    /// An error from `watch` here is ignored.
    Gone,
}

/// [`write_atomic`], telling `watch` each [`Step`]: where the temporary file is, and the
/// moment before it replaces the target (an error from `watch` at [`Step::Created`] or
/// [`Step::Renaming`] removes the temporary file and is returned).
///
/// ```
/// use mmd_formats::file::{write_atomic_with, Step};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = std::env::temp_dir().join(format!("mmd-doc-atomic-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let target = dir.join("out.bin");
/// let mut steps = Vec::new();
/// write_atomic_with(&target, b"new", &mut |step| {
///     steps.push(matches!(step, Step::Created(_)));
///     Ok(())
/// })?;
/// assert_eq!(steps, [true, false, false]);
/// // Refused at the last moment: the target keeps its bytes.
/// let refused = write_atomic_with(&target, b"other", &mut |step| match step {
///     Step::Renaming => Err(std::io::Error::other("the input changed")),
///     _ => Ok(()),
/// });
/// assert!(refused.is_err());
/// assert_eq!(std::fs::read(&target)?, b"new");
/// assert_eq!(std::fs::read_dir(&dir)?.count(), 1, "no temporary file is left");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(()) }
/// ```
pub fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    watch: &mut dyn FnMut(Step<'_>) -> io::Result<()>,
) -> Result<()> {
    let target = follow_links(path).map_err(|e| io_error("write", path, e))?;
    replace(&target, bytes, watch).map_err(|e| io_error("write", path, e))
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
fn replace(
    target: &Path,
    bytes: &[u8],
    watch: &mut dyn FnMut(Step<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let old = fs::metadata(target).ok().filter(fs::Metadata::is_file);
    let (tmp, mut file) = create_temporary(&dir, &name, old.as_ref())?;
    let result = (|| {
        watch(Step::Created(&tmp))?;
        if let Some(old) = &old {
            keep_owner(&file, old);
        }
        file.write_all(bytes)?;
        if let Some(old) = &old {
            // After the owner: a change of owner may clear the set-user-ID bits.
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        watch(Step::Renaming)?;
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    let _ = watch(Step::Gone);
    result
}

/// Gives `file` the owner and group of `old` where the process may (root may give any;
/// others may keep the group when they belong to it); otherwise it keeps the process's.
fn keep_owner(file: &fs::File, old: &fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, old);
    }
}

/// A new, empty file `.<name>.<pid>.<n>.tmp` in `dir`, never one that exists already. On
/// Unix it is created with the permissions of `old` (the file it will replace), or the
/// usual ones for a new file, so it is never readable by more than its target.
fn create_temporary(
    dir: &Path,
    name: &str,
    old: Option<&fs::Metadata>,
) -> io::Result<(PathBuf, fs::File)> {
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
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            // The umask narrows it further; never wider than the file it replaces (0666,
            // the usual mode of a new file, when there is none).
            let mode = old.map_or(0o666, |m| m.permissions().mode() & 0o777);
            options.mode(mode);
        }
        #[cfg(not(unix))]
        let _ = old;
        match options.open(&tmp) {
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

    /// Issue 25 item 8: the temporary file is created with the mode of the file it
    /// replaces (0600 here), not 0666 narrowed later, so it is never readable by others
    /// while it fills; the replaced file keeps that mode.
    #[cfg(unix)]
    #[test]
    fn the_temporary_file_is_created_with_the_targets_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = TempDir::new("mode");
        let target = dir.0.join("private.vmd");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        let mut seen = None;
        write_atomic_with(&target, b"new", &mut |step| {
            if let Step::Created(tmp) = step {
                seen = Some(fs::metadata(tmp)?.permissions().mode() & 0o777);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, Some(0o600), "the temporary file's mode when created");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the replaced file's mode");
        assert_eq!(fs::read(&target).unwrap(), b"new");
    }

    /// A refusal at [`Step::Renaming`] leaves the target and no temporary file.
    #[test]
    fn a_refusal_before_the_rename_keeps_the_target() {
        let dir = TempDir::new("refused");
        let target = dir.0.join("t.bin");
        fs::write(&target, b"old").unwrap();
        let mut steps = Vec::new();
        let err = write_atomic_with(&target, b"new", &mut |step| {
            steps.push(
                format!("{step:?}")
                    .split('(')
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            );
            match step {
                Step::Renaming => Err(io::Error::other("changed")),
                _ => Ok(()),
            }
        })
        .unwrap_err();
        assert!(err.to_string().contains("changed"), "{err}");
        assert_eq!(steps, ["Created", "Renaming", "Gone"]);
        assert_eq!(fs::read(&target).unwrap(), b"old");
        assert_eq!(
            fs::read_dir(&dir.0).unwrap().count(),
            1,
            "no temporary file left"
        );
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
