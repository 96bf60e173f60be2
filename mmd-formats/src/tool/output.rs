//! Where an edit writes its result, the same for every edit: `-o OUT`, `--in-place` or
//! `--dry-run`, and one atomic write.
//!
//! An edit never overwrites an input unless `--in-place` is given (an `-o` that names an
//! input, through any spelling or link, is refused). Writing goes through the library's
//! [`write_atomic`](mmd_formats::file::write_atomic): a temporary file beside the target,
//! renamed over it, so a failed run leaves every file as it was; a symbolic link given
//! with `--in-place` stays a link (the file it points to is replaced) and a replaced file
//! keeps its permissions.

use std::path::{Path, PathBuf};

use crate::tool::exit::{Outcome, Stop};

/// Where an edit writes its result: exactly one of `-o OUT`, `--in-place` and `--dry-run`.
#[derive(Debug, Clone, clap::Args)]
pub struct Destination {
    /// Write the result to OUT (atomically). It must not be an input.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        required_unless_present_any = ["in_place", "dry_run"],
        conflicts_with = "in_place"
    )]
    pub output: Option<PathBuf>,
    /// Replace the input (for merge, the first input) with the result, atomically; a
    /// symbolic link stays a link and the file keeps its permissions. Refused when that
    /// input is `-` (standard input).
    #[arg(long)]
    pub in_place: bool,
    /// Make the edit and print the report, but write nothing.
    #[arg(long, conflicts_with_all = ["output", "in_place"])]
    pub dry_run: bool,
}

impl Destination {
    /// The file to write (`None` for a dry run): OUT, or with `--in-place` the first input.
    /// Refuses an OUT that is one of `inputs`.
    pub fn target(&self, inputs: &[&Path]) -> Outcome<Option<PathBuf>> {
        if self.dry_run {
            return Ok(None);
        }
        if self.in_place {
            if let Some(input) = inputs.first().filter(|p| **p == Path::new("-")) {
                // Writing "back" to `-` would create a file named `-` in the working folder.
                return Err(Stop::trouble(format!(
                    "--in-place replaces a file, and the input {} is standard input: give -o \
                     OUT (-o /dev/stdout writes to standard output) instead",
                    input.display()
                )));
            }
            return Ok(inputs.first().map(|p| p.to_path_buf()));
        }
        let Some(out) = &self.output else {
            // clap asks for one of the three; a value built in code may still lack them.
            return Err(Stop::trouble(
                "no output: give -o OUT, --in-place or --dry-run",
            ));
        };
        if let Some(input) = inputs.iter().find(|i| same_file(i, out)) {
            return Err(Stop::trouble(format!(
                "-o {} is the input {}: refusing to overwrite it (use --in-place to replace \
                 it)",
                out.display(),
                input.display()
            )));
        }
        Ok(Some(out.clone()))
    }
}

/// The last file this run wrote (see [`written`]).
static WRITTEN: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// The file this run wrote, if it wrote one: a report that cannot be printed afterwards
/// does not make the run look as if that file had failed.
pub fn written() -> Option<String> {
    WRITTEN.lock().ok().and_then(|w| w.clone())
}

/// Writes `bytes` to `target`; a failure names the path and what is missing.
///
/// A regular file (or a path that does not exist yet) is replaced atomically, through a
/// temporary file created with the target's permissions and removed if the run is stopped
/// by SIGINT, SIGTERM or SIGHUP. A character device (`/dev/null`, a terminal) or a FIFO
/// (`/dev/stdout` when it is a pipe) is written into, never replaced; a FIFO no one reads
/// is refused rather than waited on. Anything else (a directory, a block device, a
/// socket) is refused. With `held` (an `--in-place` edit), the write is refused if the
/// input changed since it was read.
pub fn write(target: &Path, bytes: &[u8], held: Option<&Held>) -> Outcome<()> {
    write_unrecorded(target, bytes, held)?;
    if let Ok(mut w) = WRITTEN.lock() {
        *w = Some(crate::tool::shown::path(target));
    }
    Ok(())
}

/// [`write()`], without recording the file as written.
fn write_unrecorded(target: &Path, bytes: &[u8], held: Option<&Held>) -> Outcome<()> {
    if let Ok(meta) = std::fs::metadata(target) {
        if let Some(kind) = crate::tool::input::special_kind(&meta) {
            return write_into(target, kind, bytes);
        }
    }
    let shown = crate::tool::shown::path(target);
    let mut refusal = None;
    // Until the temporary file is recorded for the signal handler (Step::Created).
    crate::tool::signals::hold();
    let written = mmd_formats::file::write_atomic_with(target, bytes, &mut |step| {
        use mmd_formats::file::Step;
        match step {
            Step::Created(tmp) => crate::tool::signals::temporary(Some(tmp)),
            Step::Gone => crate::tool::signals::temporary(None),
            Step::Renaming => {
                if let Some(held) = held {
                    if let Err(why) = held.unchanged() {
                        refusal = Some(why.clone());
                        return Err(std::io::Error::other(why));
                    }
                }
            }
        }
        Ok(())
    });
    crate::tool::signals::release();
    match (written, refusal) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(why)) => Err(Stop::trouble(format!(
            "{shown}: {why}; nothing written (run the edit again on the new file)"
        ))),
        (Err(e), None) => Err(Stop::trouble(
            crate::tool::shown::line(&e.to_string()).into_owned(),
        )),
    }
}

/// Writes `bytes` into `target`, which is not a regular file but `kind` (see [`write()`]).
fn write_into(target: &Path, kind: &str, bytes: &[u8]) -> Outcome<()> {
    use std::io::Write;
    let shown = crate::tool::shown::path(target);
    let refuse = |why: String| Stop::trouble(format!("cannot write {shown}: {why}"));
    if kind != "a character device" && kind != "a FIFO" {
        return Err(refuse(format!(
            "it is {kind}, not a regular file; mmd writes a regular file (replaced \
             atomically), a character device or a FIFO"
        )));
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO with no reader would block the open for ever: fail at once instead.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = options.open(target).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ENXIO) {
            return refuse(format!("{kind} that no process reads"));
        }
        refuse(e.to_string())
    })?;
    #[cfg(unix)]
    blocking(&file).map_err(|e| refuse(e.to_string()))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(|e| refuse(format!("{kind}: {e}")))
}

/// Makes writes to `file` wait again (it was opened without blocking).
#[cfg(unix)]
fn blocking(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function borrows, with integer arguments.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// An `--in-place` edit's hold on its input, from before it is read until the result
/// replaces it: an exclusive `flock` (so two `mmd` edits of one file run one after the
/// other, the second on the first's result) and the file's identity (device, inode, size,
/// modification time), checked again just before the rename, so that a change by any
/// other program in between is refused rather than lost.
pub struct Held {
    path: PathBuf,
    /// Holds the lock until dropped.
    _file: std::fs::File,
    identity: Identity,
}

/// What tells a file's versions apart: device and inode (a file replaced by a rename),
/// size and modification time (a file written in place).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Self {
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        Identity {
            dev,
            ino,
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

impl Held {
    /// Takes the hold on `path` (following links), waiting for another `mmd` edit of the
    /// same file to finish first. Not a regular file: refused as every input is.
    pub fn take(path: &Path) -> Outcome<Held> {
        let shown = crate::tool::shown::path(path);
        let fail = |e: std::io::Error| Stop::trouble(format!("cannot read {shown}: {e}"));
        loop {
            let file = std::fs::File::open(path).map_err(fail)?;
            let meta = file.metadata().map_err(fail)?;
            if let Some(kind) = crate::tool::input::special_kind(&meta) {
                return Err(Stop::trouble(format!(
                    "cannot read {shown}: not a regular file ({kind}); --in-place replaces \
                     a regular file"
                )));
            }
            lock(&file).map_err(|e| Stop::trouble(format!("cannot lock {shown}: {e}")))?;
            // The lock was waited for: the file may have been replaced meanwhile (by the
            // edit that held it). Then lock the new one.
            let now = std::fs::metadata(path).map_err(fail)?;
            let locked = file.metadata().map_err(fail)?;
            if Identity::of(&now) == Identity::of(&locked) {
                return Ok(Held {
                    path: path.to_path_buf(),
                    _file: file,
                    identity: Identity::of(&locked),
                });
            }
        }
    }

    /// `Ok` when the input is still the file that was read; else what changed.
    fn unchanged(&self) -> Result<(), String> {
        let now = std::fs::metadata(&self.path)
            .map(|m| Identity::of(&m))
            .map_err(|e| format!("the input cannot be looked at again ({e})"))?;
        let was = &self.identity;
        if now == *was {
            return Ok(());
        }
        let what = if (now.dev, now.ino) != (was.dev, was.ino) {
            format!(
                "replaced by another file (inode {} on device {}, expected {} on {})",
                now.ino, now.dev, was.ino, was.dev
            )
        } else if now.len != was.len {
            format!("written to (now {} bytes, expected {})", now.len, was.len)
        } else {
            "written to (its modification time changed)".to_owned()
        };
        Err(format!(
            "the input changed since it was read: {what}; another program edited it"
        ))
    }
}

/// An exclusive advisory lock on `file` (`flock`), waiting for it.
fn lock(file: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        loop {
            // SAFETY: flock on a descriptor borrowed for the call.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(())
    }
}

/// True when `a` and `b` are the same path, or name the same existing file (through
/// links and other spellings too).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::exit::Exit;

    fn destination(output: Option<&str>, in_place: bool, dry_run: bool) -> Destination {
        Destination {
            output: output.map(PathBuf::from),
            in_place,
            dry_run,
        }
    }

    #[test]
    fn each_destination_names_its_target() {
        let input = Path::new("in.vmd");
        let to = |d: Destination| d.target(&[input]).map_err(|_| ()).unwrap();
        assert_eq!(to(destination(None, false, true)), None);
        assert_eq!(
            to(destination(None, true, false)),
            Some(PathBuf::from("in.vmd"))
        );
        assert_eq!(
            to(destination(Some("out.vmd"), false, false)),
            Some(PathBuf::from("out.vmd"))
        );
        match destination(Some("in.vmd"), false, false).target(&[input]) {
            Err(Stop::Fail(Exit::Trouble, m)) => assert!(m.contains("refusing"), "{m}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert!(matches!(
            destination(None, false, false).target(&[input]),
            Err(Stop::Fail(Exit::Trouble, _))
        ));
    }

    /// Issue 25 item 5: a hold notices a change by any writer: in place (size, then
    /// modification time) or by a rename of another file over it (inode).
    #[cfg(unix)]
    #[test]
    fn a_hold_notices_an_input_written_or_replaced() {
        let dir = std::env::temp_dir().join(format!("mmd-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.vmd");
        std::fs::write(&path, b"abc").unwrap();
        let held = Held::take(&path).map_err(|_| ()).unwrap();
        assert_eq!(held.unchanged(), Ok(()));
        std::fs::write(&path, b"abcd").unwrap();
        let why = held.unchanged().unwrap_err();
        assert!(
            why.contains("written to (now 4 bytes, expected 3)"),
            "{why}"
        );
        drop(held);
        let held = Held::take(&path).map_err(|_| ()).unwrap();
        // Same size, later modification time.
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(later)
            .unwrap();
        let why = held.unchanged().unwrap_err();
        assert!(why.contains("modification time changed"), "{why}");
        drop(held);
        let held = Held::take(&path).map_err(|_| ()).unwrap();
        let other = dir.join("other.vmd");
        std::fs::write(&other, b"abcd").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let why = held.unchanged().unwrap_err();
        assert!(why.contains("replaced by another file"), "{why}");
        drop(held);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
