//! `mmd check`: read every file, write it back in memory, and compare the bytes.
//!
//! Nothing here knows any format: the format is found among the tool's by
//! [`input::detect_in`], named by [`FileFormat::name`], and checked by reading it and
//! writing it back; a new format needs no change here. A file that cannot be used is the same [`Problem`] as for every
//! other command, reported on its own line instead of ending the run.

use std::io::{self, Write};
use std::path::PathBuf;

use mmd_formats::inspect::{compare, CheckOutcome};
use mmd_formats::samples::Sample;
use mmd_formats::tool::FileFormat;
use serde::Serialize;

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::guard;
use crate::tool::input::{self, Problem};
use crate::tool::parallel;
use crate::tool::progress::Progress;
use crate::tool::walk::{self, Found};
use crate::tool::Tool;

/// The exit codes of `mmd check`, as shown in `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  every supported file is byte-exact, and at least one file was checked
  1  a file failed (read error, write error or different bytes), or no file in a
     supported format was found
  2  usage error, or a PATH (or a file or directory below it) could not be read
When the reader of the output closes it early (`mmd check DIR | head`), the check stops
quietly and exits with the status of the files checked so far: 2 or 1 when one of them is
an unreadable path or a failed file, else 0.";

/// The long description of `mmd check`, as shown in `--help`.
pub const LONG_ABOUT: &str = "\
Check that files read and write back byte for byte.

Each file's format is detected from its first bytes. A file in a supported format is read,
written back in memory and compared with the original; a file in no supported format is
counted as unsupported, with the reason (no known signature, and the bytes it starts
with). Directories are walked recursively, in sorted order; symbolic links are followed,
each directory at most once. Without PATH, the built-in samples are checked, named
<builtin>/<sample name>.

Files are read and checked N at a time (--jobs N; by default as many as the cores this
process may use), each read whole while it is checked and let go after, so memory holds a
few files at a time; the lines come out in the order of the paths, whatever N.

While it works on several files (or large ones), a progress bar is drawn on stderr when
stderr is a terminal; otherwise nothing is drawn.

One line per file, then a summary:
  ok      <path> (<FORMAT>)
  FAILED  <path> (<FORMAT>): <error, with its field path and offset>
  FAILED  <path> (<FORMAT>): truncated: <error> (the file ends too early)
  FAILED  <path> (<FORMAT>): differs at 0x<offset> (<field path>): <lengths>
  FAILED  <path>: cannot read: <reason>
  unsupported <path>: <reason>
  N files: N byte-exact, N failed, N unsupported";

/// The arguments of `mmd check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Print one JSON document instead of the lines:
    /// {"files":[{"path","format","status","error","offset","field"}],"summary":{...}}
    #[arg(long)]
    pub json: bool,
    /// Files or directories to check; without any, the built-in samples are checked.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Check N files at a time, each on its own thread [default: the number of cores this
    /// process may use]. The output is the same for any N.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
}

/// The verdict on one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Read and written back byte for byte.
    Ok,
    /// Unreadable, or failed to read, to write, or to write the same bytes.
    Failed,
    /// In no supported format.
    Unsupported,
}

/// What `mmd check` found for one file: one line of output, or one entry of `--json`.
#[derive(Debug, Serialize)]
pub struct FileReport {
    /// The path as given or found (`<builtin>/<name>` for a built-in sample).
    path: String,
    /// The detected format's name, `None` when unsupported or unreadable.
    format: Option<&'static str>,
    /// The verdict.
    status: Status,
    /// Why it failed (`None` when it did not).
    error: Option<String>,
    /// The byte offset of the failure, when known.
    offset: Option<u64>,
    /// The field path at the failure, when known and not the top level.
    field: Option<String>,
    /// The read failed because the file ends too early (it is the start of a file that
    /// would read), not because of corrupt data; absent when the file did not fail to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<bool>,
    /// The file could not be read at all (this makes the exit code 2).
    #[serde(skip)]
    unreadable: bool,
}

impl FileReport {
    fn new(path: String, format: Option<&'static str>, status: Status) -> Self {
        FileReport {
            path,
            format,
            status,
            error: None,
            offset: None,
            field: None,
            truncated: None,
            unreadable: false,
        }
    }

    fn failed(path: String, format: Option<&'static str>, error: String) -> Self {
        FileReport {
            error: Some(error),
            ..Self::new(path, format, Status::Failed)
        }
    }

    /// A path that could not be read or listed.
    fn unreadable(path: String, what: &str, error: &io::Error) -> Self {
        FileReport {
            unreadable: true,
            ..Self::failed(path, None, format!("{what}: {error}"))
        }
    }

    /// A panic inside the library while checking this file.
    fn internal_error(path: String, format: Option<&'static str>, message: &str) -> Self {
        Self::failed(path, format, format!("{}: {message}", input::BUG))
    }

    /// The report on a file that cannot be used.
    fn from_problem(path: String, input_len: u64, problem: Problem) -> Self {
        match problem {
            Problem::Unreadable(e) => Self::unreadable(path, "cannot read", &e),
            Problem::Unknown { why, known } => FileReport {
                error: Some(why.among(&known)),
                ..Self::new(path, None, Status::Unsupported)
            },
            Problem::WrongFormat { found, wanted } => {
                Self::failed(path, Some(found), format!("not {wanted}"))
            }
            Problem::Read { format, error } => Self::from_outcome(
                path,
                format.name(),
                input_len,
                CheckOutcome::ReadError(error),
                None,
            ),
            Problem::Bug { format, message } => {
                Self::internal_error(path, format.map(|f| f.name()), &message)
            }
        }
    }

    /// The report for a round-trip outcome of an `input_len`-byte file in format `format`;
    /// `field` is the field path at the first difference (for [`CheckOutcome::Differs`]).
    pub fn from_outcome(
        path: String,
        format: &'static str,
        input_len: u64,
        outcome: CheckOutcome,
        field: Option<String>,
    ) -> Self {
        let (error, truncated) = match outcome {
            CheckOutcome::ByteExact => return Self::new(path, Some(format), Status::Ok),
            CheckOutcome::ReadError(e) => {
                let truncated = Some(e.is_truncated());
                (e, truncated)
            }
            CheckOutcome::WriteError(e) => (e, None),
            CheckOutcome::Differs {
                offset,
                written_len,
            } => {
                let field = field.filter(|f| !f.is_empty());
                let error = format!(
                    "differs at {offset:#x} ({}): wrote {written_len} bytes for a \
                     {input_len}-byte input",
                    field.as_deref().unwrap_or("unknown field")
                );
                return FileReport {
                    offset: Some(offset),
                    field,
                    ..Self::failed(path, Some(format), error)
                };
            }
        };
        let field = Some(error.path_string()).filter(|f| !f.is_empty());
        FileReport {
            offset: Some(error.offset()),
            field,
            truncated,
            ..Self::failed(path, Some(format), error.to_string())
        }
    }

    /// The line `mmd check` prints for this file.
    pub fn line(&self) -> String {
        // Names found by the walk and errors quoting a file are printed escaped (issue 25
        // item 9); --json carries them as they are.
        let path = &*crate::tool::shown::text(&self.path);
        let error = &*crate::tool::shown::line(self.error.as_deref().unwrap_or(""));
        match (self.status, self.format) {
            (Status::Ok, format) => format!("ok      {path} ({})", format.unwrap_or("?")),
            // As every command says it (`input::read_error`); --json has `truncated`.
            (Status::Failed, Some(format)) if self.truncated == Some(true) => {
                format!("FAILED  {path} ({format}): truncated: {error}")
            }
            (Status::Failed, Some(format)) => format!("FAILED  {path} ({format}): {error}"),
            (Status::Failed, None) => format!("FAILED  {path}: {error}"),
            (Status::Unsupported, _) => match &self.error {
                Some(_) => format!("unsupported {path}: {error}"),
                None => format!("unsupported {path}"),
            },
        }
    }
}

/// The counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Every file reported.
    files: u64,
    /// Files that wrote back byte for byte.
    byte_exact: u64,
    /// Files that failed (unreadable ones included).
    failed: u64,
    /// Files in no supported format.
    unsupported: u64,
    /// Paths that could not be read (counted in `failed` too).
    #[serde(skip)]
    unreadable: u64,
}

impl Summary {
    fn add(&mut self, report: &FileReport) {
        self.files += 1;
        match report.status {
            Status::Ok => self.byte_exact += 1,
            Status::Failed => self.failed += 1,
            Status::Unsupported => self.unsupported += 1,
        }
        self.unreadable += u64::from(report.unreadable);
    }

    /// The summary line.
    pub fn line(&self) -> String {
        format!(
            "{} files: {} byte-exact, {} failed, {} unsupported",
            self.files, self.byte_exact, self.failed, self.unsupported
        )
    }

    /// The exit status when the check ends early, after the files counted here (the reader
    /// of the output closed it): 2 when one of them is an unreadable path, 1 when one of
    /// them failed, else 0 (the files after them were not checked).
    pub fn exit_so_far(&self) -> Exit {
        if self.unreadable > 0 {
            Exit::Trouble
        } else if self.failed > 0 {
            Exit::Failed
        } else {
            Exit::Done
        }
    }

    /// The exit status (see [`EXIT_CODES`]).
    pub fn exit(&self) -> Exit {
        if self.unreadable > 0 {
            Exit::Trouble
        } else if self.failed > 0 || self.byte_exact == 0 {
            Exit::Failed
        } else {
            Exit::Done
        }
    }
}

/// The `--json` document.
#[derive(Serialize)]
struct Document<'a> {
    files: &'a [FileReport],
    summary: Summary,
}

/// Runs `mmd check`, writing its output to `out`; returns the exit code.
pub fn run(tool: &Tool, args: &CheckArgs, out: &mut dyn Write) -> Outcome {
    let jobs = args.jobs.map_or_else(parallel::available, |n| n as usize);
    let mut summary = Summary::default();
    let mut reports = Vec::new();
    let mut emit = |report: FileReport, out: &mut dyn Write| -> Outcome<()> {
        summary.add(&report);
        if args.json {
            reports.push(report);
        } else {
            // A reader that closes the output ends the check: with the status of the files
            // checked so far.
            writeln!(out, "{}", report.line())
                .map_err(|e| Stop::from(e).closed_with(summary.exit_so_far()))?;
        }
        Ok(())
    };
    if args.paths.is_empty() {
        let samples = tool.samples_fn().ok_or_else(|| {
            Stop::trouble(format!(
                "give a PATH to check: {} has no built-in samples",
                tool.name()
            ))
        })?;
        let check = |sample: Sample| {
            check_bytes(
                tool.formats(),
                format!("<builtin>/{}", sample.name),
                &sample.bytes,
            )
        };
        parallel::ordered(samples(), jobs, check, |report| emit(report, out))?;
    } else {
        let found = walk::collect(&args.paths);
        let sizes: Vec<u64> = found.iter().map(found_size).collect();
        let progress = Progress::for_files(&sizes);
        let named = found.into_iter().zip(sizes).map(|(found, size)| {
            let name = found_name(&found);
            (found, name, size)
        });
        // Each worker reads its file, checks it and lets its bytes go: only the files being
        // checked are in memory, a few at a time.
        let check = |(found, name, size): (Found, String, u64)| {
            (check_found(tool.formats(), found), name, size)
        };
        let outcome = parallel::ordered(named, jobs, check, |(report, name, size)| {
            progress.start(&name);
            progress.done(size);
            progress.suspend(|| emit(report, out))
        });
        progress.finish();
        outcome?;
    }
    let exit = summary.exit();
    let written = if args.json {
        let document = Document {
            files: &reports,
            summary,
        };
        serde_json::to_writer_pretty(&mut *out, &document)
            .map_err(Stop::from)
            .and_then(|()| writeln!(out).map_err(Stop::from))
    } else {
        writeln!(out, "{}", summary.line()).map_err(Stop::from)
    };
    written.map_err(|stop| stop.closed_with(exit))?;
    if summary.files == 0 {
        eprintln!("{}: no files found, nothing was checked", tool.name());
    }
    Ok(exit)
}

/// The size of a file found by the walk (0 for anything else, or when unknown).
fn found_size(found: &Found) -> u64 {
    match found {
        Found::File(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
        _ => 0,
    }
}

/// The path of a thing found by the walk, for the progress bar.
fn found_name(found: &Found) -> String {
    match found {
        Found::File(p) | Found::Special(p) | Found::Unreadable { path: p, .. } => {
            p.display().to_string()
        }
    }
}

/// Checks one thing found by the walk.
fn check_found(formats: &[FileFormat], found: Found) -> FileReport {
    match found {
        Found::File(path) => {
            let shown = path.display().to_string();
            match input::read(&path) {
                Ok(bytes) => check_bytes(formats, shown, &bytes),
                Err(problem) => FileReport::from_problem(shown, 0, problem),
            }
        }
        Found::Special(path) => FileReport {
            error: Some("not a regular file".to_owned()),
            ..FileReport::new(path.display().to_string(), None, Status::Unsupported)
        },
        Found::Unreadable { path, what, error } => {
            FileReport::unreadable(path.display().to_string(), what, &error)
        }
    }
}

/// Detects the format of `bytes` among `formats` and checks the round trip, catching
/// library panics.
fn check_bytes(formats: &[FileFormat], path: String, bytes: &[u8]) -> FileReport {
    let detect = |bytes: &[u8]| input::detect_in(formats, bytes);
    check_bytes_with(path, bytes, detect, |format, bytes| {
        let outcome = match format.read(bytes).map(|file| file.to_bytes()) {
            Err(e) => CheckOutcome::ReadError(e),
            Ok(Err(e)) => CheckOutcome::WriteError(e),
            Ok(Ok(written)) => compare(bytes, &written),
        };
        let field = match &outcome {
            CheckOutcome::Differs { offset, .. } => format.field_at(bytes, *offset),
            _ => None,
        };
        (outcome, field)
    })
}

/// [`check_bytes`] with the library calls passed in: `detect` finds the format (or the
/// problem), `check` gives the round-trip outcome and the field at the first difference.
/// A panic in `check` becomes an internal-error report.
fn check_bytes_with(
    path: String,
    bytes: &[u8],
    detect: impl FnOnce(&[u8]) -> Result<FileFormat, Problem>,
    check: impl FnOnce(FileFormat, &[u8]) -> (CheckOutcome, Option<String>),
) -> FileReport {
    let len = bytes.len() as u64;
    let format = match detect(bytes) {
        Ok(format) => format,
        Err(problem) => return FileReport::from_problem(path, len, problem),
    };
    match guard::catch(|| check(format, bytes)) {
        Ok((outcome, field)) => FileReport::from_outcome(path, format.name(), len, outcome, field),
        Err(message) => FileReport::internal_error(path, Some(format.name()), &message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::mmd_formats;
    use mmd_formats::inspect::Format;
    use mmd_formats::samples;

    #[test]
    fn a_difference_names_offset_field_and_lengths() {
        let outcome = compare(b"PMX \x00\x00\x00\x40", b"PMX \x00\x00\x00\x41\x00");
        let report = FileReport::from_outcome(
            "m/a.pmx".into(),
            "PMX",
            8,
            outcome,
            Some("header.version".into()),
        );
        assert_eq!(
            report.line(),
            "FAILED  m/a.pmx (PMX): differs at 0x7 (header.version): wrote 9 bytes for a \
             8-byte input"
        );
        assert_eq!(report.status, Status::Failed);
        assert_eq!(report.offset, Some(7));
        assert_eq!(report.field.as_deref(), Some("header.version"));
    }

    #[test]
    fn a_difference_in_length_only_is_at_the_shorter_end() {
        let outcome = compare(b"abc", b"abcd");
        let report = FileReport::from_outcome("x".into(), "PMX", 3, outcome, None);
        assert_eq!(
            report.line(),
            "FAILED  x (PMX): differs at 0x3 (unknown field): wrote 4 bytes for a 3-byte input"
        );
        assert_eq!(report.field, None);
    }

    #[test]
    fn a_read_error_keeps_its_display_offset_and_path() {
        // A 0x2f1b-byte file that ends where the flag byte should be.
        let error = mmd_formats::Error::truncated(0x2f1b, 1, 0x2f1b)
            .in_field("has_limit")
            .in_index(3)
            .in_field("links");
        let report = FileReport::from_outcome(
            "b.pmx".into(),
            "PMX",
            0x2f1b,
            CheckOutcome::ReadError(error),
            None,
        );
        assert_eq!(
            report.line(),
            "FAILED  b.pmx (PMX): truncated: links[3].has_limit: expected 1 byte at 0x2f1b, \
             file ends at 0x2f1b"
        );
        assert_eq!(report.offset, Some(0x2f1b));
        assert_eq!(report.field.as_deref(), Some("links[3].has_limit"));
    }

    #[test]
    fn the_other_lines() {
        let ok = FileReport::from_outcome("a".into(), "PMX", 1, CheckOutcome::ByteExact, None);
        assert_eq!(ok.line(), "ok      a (PMX)");
        assert_eq!(
            FileReport::new("u".into(), None, Status::Unsupported).line(),
            "unsupported u"
        );
        let gone = io::Error::from(io::ErrorKind::NotFound);
        let unreadable = FileReport::unreadable("g".into(), "cannot read", &gone);
        assert_eq!(unreadable.line(), format!("FAILED  g: cannot read: {gone}"));
        let bug = FileReport::internal_error("p".into(), Some("PMX"), "boom");
        assert_eq!(
            bug.line(),
            "FAILED  p (PMX): internal error (this is a bug in mmd-formats): boom"
        );
    }

    #[test]
    fn a_library_panic_becomes_one_failed_file() {
        let sample = &samples::all()[0];
        let format: FileFormat = Format::detect(&sample.bytes)
            .expect("a sample in a known format")
            .into();
        let report = check_bytes_with(
            "p".into(),
            &sample.bytes,
            |_| Ok(format),
            |_, _| panic!("index out of bounds"),
        );
        let line = report.line();
        let prefix = format!(
            "FAILED  p ({}): internal error (this is a bug in mmd-formats): index out of \
             bounds (at ",
            format.name()
        );
        assert!(line.starts_with(&prefix), "{line}");
        assert_eq!(report.status, Status::Failed);
        let report = check_bytes_with(
            "q".into(),
            b"",
            |_| {
                Err(Problem::Bug {
                    format: None,
                    message: "in detect".into(),
                })
            },
            |_, _| unreachable!("no format, no check"),
        );
        assert!(
            report.line().starts_with("FAILED  q: internal error"),
            "{}",
            report.line()
        );
    }

    #[test]
    fn a_sample_checks_byte_exact_and_unknown_bytes_are_unsupported() {
        let sample = &samples::all()[0];
        assert_eq!(
            check_bytes(&mmd_formats(), "s".into(), &sample.bytes).status,
            Status::Ok
        );
        let report = check_bytes(&mmd_formats(), "u".into(), b"NOT AN MMD FILE");
        assert_eq!(
            report.line(),
            "unsupported u: no known signature (PMX, PMD, VMD or VPD); the file starts with 4e \
             4f 54 20 41 4e 20 4d 4d 44 20 46 49 4c 45 (\"NOT AN MMD FILE\")"
        );
        assert_eq!(report.status, Status::Unsupported);
        let empty = check_bytes(&mmd_formats(), "e".into(), b"");
        assert_eq!(
            empty.line(),
            "unsupported e: no known signature (PMX, PMD, VMD or VPD); the file is empty"
        );
    }

    #[test]
    fn exit_codes() {
        let mut summary = Summary::default();
        assert_eq!(summary.exit(), Exit::Failed, "nothing checked");
        // A check ended early (a closed output) has the status of the files so far, where
        // nothing failed being no failure.
        assert_eq!(summary.exit_so_far(), Exit::Done, "nothing failed yet");
        summary.add(&FileReport::new("u".into(), None, Status::Unsupported));
        assert_eq!(summary.exit(), Exit::Failed, "only unsupported files");
        assert_eq!(summary.exit_so_far(), Exit::Done);
        summary.add(&FileReport::new("a".into(), Some("PMX"), Status::Ok));
        assert_eq!(summary.exit(), Exit::Done);
        summary.add(&FileReport::failed("f".into(), Some("PMX"), "bad".into()));
        assert_eq!(summary.exit(), Exit::Failed);
        assert_eq!(summary.exit_so_far(), Exit::Failed);
        let gone = io::Error::from(io::ErrorKind::NotFound);
        summary.add(&FileReport::unreadable("g".into(), "cannot read", &gone));
        assert_eq!(summary.exit(), Exit::Trouble);
        assert_eq!(summary.exit_so_far(), Exit::Trouble);
        assert_eq!(
            summary.line(),
            "4 files: 1 byte-exact, 2 failed, 1 unsupported"
        );
    }
}
