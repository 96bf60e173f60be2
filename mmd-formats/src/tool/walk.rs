//! Turning the PATH arguments of `mmd check` into the list of files to check.
//!
//! Directories are walked depth-first with each directory's entries in sorted order, so
//! the files come out in the order of their paths. Symbolic links are followed, but each
//! directory is listed at most once per argument (it is recognised by its canonical
//! path), so a link that points back up the tree cannot make the walk loop. Paths that
//! are neither files nor directories (FIFOs, sockets, devices) are never opened: reading
//! one could block forever.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One thing found while walking the arguments.
#[derive(Debug)]
pub enum Found {
    /// A regular file (or a link to one), to be read and checked.
    File(PathBuf),
    /// Neither a file nor a directory (FIFO, socket, device): counted as unsupported.
    Special(PathBuf),
    /// A path that cannot be examined or listed: `what` failed with `error`.
    Unreadable {
        /// The path as given or as found below an argument.
        path: PathBuf,
        /// What was attempted (`cannot read`, `cannot list directory`).
        what: &'static str,
        /// Why it failed.
        error: io::Error,
    },
}

/// Everything below `paths`, argument by argument, each in sorted order.
pub fn collect(paths: &[PathBuf]) -> Vec<Found> {
    let mut out = Vec::new();
    for path in paths {
        walk(path, &mut out);
    }
    out
}

/// Appends `root` (a file) or everything below it (a directory) to `out`.
fn walk(root: &Path, out: &mut Vec<Found>) {
    let mut listed: HashSet<PathBuf> = HashSet::new();
    // Paths still to visit; the next one is at the end.
    let mut pending = vec![root.to_path_buf()];
    while let Some(path) = pending.pop() {
        let meta = match fs::metadata(&path) {
            Ok(meta) => meta,
            Err(error) => {
                out.push(Found::Unreadable {
                    path,
                    what: "cannot read",
                    error,
                });
                continue;
            }
        };
        if meta.is_file() {
            out.push(Found::File(path));
        } else if !meta.is_dir() {
            out.push(Found::Special(path));
        } else {
            match list_once(&path, &mut listed) {
                Ok(Some(mut children)) => {
                    // Sorted descending, so that popping from the end visits them ascending.
                    children.sort_unstable_by(|a, b| b.cmp(a));
                    pending.extend(children);
                }
                Ok(None) => eprintln!(
                    "mmd: skipping {}: directory already walked (a symbolic link loop?)",
                    path.display()
                ),
                Err(error) => out.push(Found::Unreadable {
                    path,
                    what: "cannot list directory",
                    error,
                }),
            }
        }
    }
}

/// The entries of directory `dir`, or `None` when it was already listed (under this or
/// another name).
fn list_once(dir: &Path, listed: &mut HashSet<PathBuf>) -> io::Result<Option<Vec<PathBuf>>> {
    if !listed.insert(fs::canonicalize(dir)?) {
        return Ok(None);
    }
    let mut children = Vec::new();
    for entry in fs::read_dir(dir)? {
        children.push(dir.join(entry?.file_name()));
    }
    Ok(Some(children))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_path_is_unreadable() {
        let missing = std::env::temp_dir().join(format!("mmd-walk-missing-{}", std::process::id()));
        let found = collect(std::slice::from_ref(&missing));
        assert_eq!(found.len(), 1);
        match &found[0] {
            Found::Unreadable { path, what, error } => {
                assert_eq!(path, &missing);
                assert_eq!(*what, "cannot read");
                assert_eq!(error.kind(), io::ErrorKind::NotFound);
            }
            other => panic!("expected Unreadable, got {other:?}"),
        }
    }
}
