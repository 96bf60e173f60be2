//! Reading an input, the one way every command does it: read the bytes, tell the format,
//! run the library on them with panics caught, and, when something goes wrong, one
//! [`Problem`] that knows its exit status and its message.
//!
//! Single-file commands use [`open`] and [`open_as`], which turn a problem into a
//! [`Stop`]; `mmd check`, which reports every file on its own line, turns the same
//! problems into its report lines.

use std::io;
use std::path::Path;

use mmd_formats::inspect::{Format, UnknownFormat};
use mmd_formats::tool::FileFormat;
use mmd_formats::Decode;

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::guard;

/// What a panic inside the library is called in messages.
pub const BUG: &str = "internal error (this is a bug in mmd-formats)";

/// Why an input cannot be used.
#[derive(Debug)]
pub enum Problem {
    /// The path cannot be read.
    Unreadable(io::Error),
    /// The bytes open with no known signature.
    Unknown {
        /// What the file opens with.
        why: UnknownFormat,
        /// The names of the formats the tool knows.
        known: Vec<&'static str>,
    },
    /// The file is in another format than the command takes.
    WrongFormat {
        /// The name of the format found.
        found: &'static str,
        /// The name of the format the command takes.
        wanted: &'static str,
    },
    /// The file does not read as its format.
    Read {
        /// The format it was read as.
        format: FileFormat,
        /// The read error (offset, field path, expected, found).
        error: mmd_formats::Error,
    },
    /// The library panicked: a bug.
    Bug {
        /// The format, when known.
        format: Option<FileFormat>,
        /// The panic's message and location.
        message: String,
    },
}

impl Problem {
    /// The exit status a command ends with for this problem: 2 when the input cannot be
    /// read or is not in a format the command takes, 1 when it does not read or the
    /// library failed.
    pub fn exit(&self) -> Exit {
        match self {
            Problem::Unreadable(_) | Problem::Unknown { .. } | Problem::WrongFormat { .. } => {
                Exit::Trouble
            }
            Problem::Read { .. } | Problem::Bug { .. } => Exit::Failed,
        }
    }

    /// The message for stderr, naming the input as `shown`.
    pub fn message(&self, shown: &str) -> String {
        match self {
            Problem::Unreadable(e) => format!("cannot read {}: {e}", stdin_name(shown)),
            Problem::Unknown { why, known } => format!("{shown}: {}", why.among(known)),
            Problem::WrongFormat { found, wanted } => {
                format!("{shown}: a {found} file, not {wanted}")
            }
            Problem::Read { format, error } => format!("{shown} ({format}): {}", read_error(error)),
            Problem::Bug { message, .. } => format!("{shown}: {BUG}: {message}"),
        }
    }

    /// The problem as the stop of a command whose input is `path`.
    pub fn at(self, path: &Path) -> Stop {
        Stop::Fail(self.exit(), self.message(&path.display().to_string()))
    }
}

/// `standard input` for `-`, else the path as shown.
fn stdin_name(shown: &str) -> &str {
    if shown == "-" {
        "standard input"
    } else {
        shown
    }
}

/// A read error as the text says it: a file that ends too early (every byte there is
/// valid: the start of a file that would read) is called truncated, as `--json` marks it.
pub fn read_error(error: &mmd_formats::Error) -> String {
    if error.is_truncated() {
        format!("truncated: {error}")
    } else {
        error.to_string()
    }
}

/// The most bytes read from standard input (`-`): far more than any MikuMikuDance file,
/// and a stop for an input without end (`mmd info - < /dev/zero`).
pub const MAX_STDIN: u64 = 1 << 30;

/// What a path that is not a regular file is (`a FIFO`, `a character device`), or `None`
/// for a regular file. Links are followed.
pub fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some(if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    })
}

/// The bytes of `path`: a regular file (or a link to one), or `-` for standard input (at
/// most [`MAX_STDIN`] bytes). Anything else (a device such as /dev/zero, a FIFO, a socket,
/// a directory) is refused before it is opened, since reading one may never end.
pub fn read(path: &Path) -> Result<Vec<u8>, Problem> {
    use std::io::Read;
    if path == Path::new("-") {
        return read_stdin().map_err(Problem::Unreadable);
    }
    let not_regular = |kind: &str| {
        Problem::Unreadable(io::Error::other(format!(
            "not a regular file ({kind}); mmd reads regular files, or - for standard input"
        )))
    };
    let meta = std::fs::metadata(path).map_err(Problem::Unreadable)?;
    if let Some(kind) = special_kind(&meta) {
        return Err(not_regular(kind));
    }
    let mut file = std::fs::File::open(path).map_err(Problem::Unreadable)?;
    // The path may have been replaced between the two looks: ask the file opened.
    let meta = file.metadata().map_err(Problem::Unreadable)?;
    if let Some(kind) = special_kind(&meta) {
        return Err(not_regular(kind));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes).map_err(Problem::Unreadable)?;
    Ok(bytes)
}

/// Standard input, at most [`MAX_STDIN`] bytes.
pub fn read_stdin() -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .take(MAX_STDIN + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_STDIN {
        return Err(io::Error::other(format!(
            "standard input holds more than {} bytes (1 GiB), more than any file mmd reads",
            MAX_STDIN
        )));
    }
    Ok(bytes)
}

/// The format of `bytes` (one of the four of `mmd`), told by their first bytes.
pub fn detect(bytes: &[u8]) -> Result<Format, Problem> {
    let format = detect_in(&crate::tool::mmd_formats(), bytes)?;
    format.as_builtin().ok_or_else(|| Problem::Bug {
        format: Some(format),
        message: "a format of mmd that is none of the four".into(),
    })
}

/// The format of `bytes` among `formats`, told by their first bytes.
pub fn detect_in(formats: &[FileFormat], bytes: &[u8]) -> Result<FileFormat, Problem> {
    match guard::catch(|| crate::tool::format::identify(formats, bytes)) {
        Ok(Ok(format)) => Ok(format),
        Ok(Err(why)) => Err(Problem::Unknown {
            why,
            known: formats.iter().map(FileFormat::name).collect(),
        }),
        Err(message) => Err(Problem::Bug {
            format: None,
            message,
        }),
    }
}

/// Runs library code on a file of `format`, with panics caught: its error is the file's
/// read error.
pub fn guarded<T>(
    format: impl Into<FileFormat>,
    f: impl FnOnce() -> mmd_formats::Result<T>,
) -> Result<T, Problem> {
    let format = format.into();
    match guard::catch(f) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(Problem::Read { format, error }),
        Err(message) => Err(Problem::Bug {
            format: Some(format),
            message,
        }),
    }
}

/// Reads `bytes` whole as a file of `format` (type `F`).
pub fn decode<F: Decode<()>>(format: impl Into<FileFormat>, bytes: &[u8]) -> Result<F, Problem> {
    guarded(format, || mmd_formats::file::decode_all(bytes, &()))
}

/// An input read into memory, with its format.
pub struct Loaded {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its format.
    pub format: Format,
}

/// Reads `path` and tells its format, one of `mmd`'s four (for `mmd pose`).
pub fn open(path: &Path) -> Outcome<Loaded> {
    let at = |p: Problem| p.at(path);
    let bytes = read(path).map_err(at)?;
    let format = detect(&bytes).map_err(at)?;
    Ok(Loaded { bytes, format })
}

/// An input read into memory, with its format among a tool's.
pub struct LoadedIn {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its format.
    pub format: FileFormat,
}

/// Reads `path` and tells its format among `formats` (for the commands of every tool).
pub fn open_in(path: &Path, formats: &[FileFormat]) -> Outcome<LoadedIn> {
    let at = |p: Problem| p.at(path);
    let bytes = read(path).map_err(at)?;
    let format = detect_in(formats, &bytes).map_err(at)?;
    Ok(LoadedIn { bytes, format })
}

/// Reads `path`, which must be a file of `format`, as type `F`; returns its bytes too.
pub fn open_as<F: Decode<()>>(path: &Path, format: Format) -> Outcome<(Vec<u8>, F)> {
    let at = |p: Problem| p.at(path);
    let bytes = read(path).map_err(at)?;
    let found = detect(&bytes).map_err(at)?;
    if found != format {
        return Err(at(Problem::WrongFormat {
            found: found.name(),
            wanted: format.name(),
        }));
    }
    let value = decode(format, &bytes).map_err(at)?;
    Ok((bytes, value))
}

/// Runs library code on the input at `path` (of `format`), turning its error into a stop.
pub fn run_lib<T>(
    path: &Path,
    format: impl Into<FileFormat>,
    f: impl FnOnce() -> mmd_formats::Result<T>,
) -> Outcome<T> {
    guarded(format, f).map_err(|p| p.at(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_problem_has_its_status_and_message() {
        let unknown = detect(b"MZ").unwrap_err();
        assert_eq!(unknown.exit(), Exit::Trouble);
        assert_eq!(
            unknown.message("x.bin"),
            "x.bin: no known signature (PMX, PMD, VMD or VPD); the file starts with 4d 5a \
             (\"MZ\")"
        );
        let wrong = Problem::WrongFormat {
            found: Format::Vmd.name(),
            wanted: Format::Pmx.name(),
        };
        assert_eq!(wrong.exit(), Exit::Trouble);
        assert_eq!(wrong.message("m.vmd"), "m.vmd: a VMD file, not PMX");
        let cut = decode::<mmd_formats::pmx::Pmx>(Format::Pmx, b"PMX ").unwrap_err();
        assert_eq!(cut.exit(), Exit::Failed);
        assert!(
            cut.message("c.pmx").starts_with("c.pmx (PMX): truncated: "),
            "{cut:?}"
        );
        // A signature that is not PMX's is corrupt, not cut.
        let bad = decode::<mmd_formats::pmx::Pmx>(Format::Pmx, b"PMY \0\0\0\x40").unwrap_err();
        assert!(!bad.message("b.pmx").contains("truncated"), "{bad:?}");
        let bug = guarded(Format::Pmd, || -> mmd_formats::Result<()> {
            panic!("boom")
        })
        .unwrap_err();
        assert_eq!(bug.exit(), Exit::Failed);
        assert!(
            bug.message("p.pmd")
                .starts_with("p.pmd: internal error (this is a bug in mmd-formats): boom"),
            "{bug:?}"
        );
        let gone = read(Path::new("/nonexistent/mmd-input")).unwrap_err();
        assert_eq!(gone.exit(), Exit::Trouble);
        assert!(gone
            .message("/nonexistent/mmd-input")
            .starts_with("cannot read /nonexistent/mmd-input: "));
    }
}
