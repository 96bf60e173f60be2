//! `mmd diff [--json] A B`: field-level differences between two files of one format.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mmd_formats::inspect::diff::{self, Change, Difference};
use mmd_formats::tool::FileFormat;
use mmd_formats::walk::{Value, Visitor};
use serde::Serialize;

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::input::{self, Problem};
use crate::tool::Tool;

/// One difference in `--json`.
#[derive(Serialize)]
struct JsonDifference<'a> {
    path: String,
    change: &'static str,
    old: Option<&'a Value>,
    new: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
}

/// Arguments of `mmd diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// Print one JSON object instead of lines: {"equal", "differences": [{"path",
    /// "change" (changed, added, removed, layout), "old", "new"}]}.
    #[arg(long)]
    pub json: bool,
    /// The first file.
    pub a: PathBuf,
    /// The second file (same format).
    pub b: PathBuf,
}

/// The long description of `mmd diff`.
pub const LONG_ABOUT: &str = "\
Compare two files of the same format field by field, like cmp: silent when they agree,
one line per differing field otherwise.

Fields are matched by path: struct fields by name, list elements by position (elements
only one file has are `added` or `removed`), enum values by variant. Values are compared
as stored (floats by their bits, text by its bytes), so two PMX, PMD or VMD files have no
difference exactly when their bytes are equal. In VPD, a text format, layout (comments,
number formatting) holds no value: files that differ only there get one `(layout)` line.

Lines:
  <path>: <old> -> <new>
  <path>: added <new>
  <path>: removed <old>";

/// Exit codes of `mmd diff`.
pub const EXIT_CODES: &str = "Exit codes: 0 = the files agree; 1 = they differ (also when \
the reader of the output closes it early, as `mmd diff A B | head` does); 2 = trouble: \
usage error, unreadable path, unknown format, files of different formats, or a file that \
does not read.";

/// A problem with one input as `mmd diff` reports it: every problem is trouble (exit 2),
/// as `cmp` has it: 1 means only "the files differ".
fn trouble(problem: Problem, path: &Path) -> Stop {
    match problem.at(path) {
        Stop::Fail(_, message) => Stop::trouble(message),
        other => other,
    }
}

/// Reads `bytes` (of `format`) and walks the file into `v`, with panics caught.
fn walk_file(format: FileFormat, bytes: &[u8], v: &mut dyn Visitor) -> Result<(), Problem> {
    input::guarded(format, || {
        let file = format.read(bytes)?;
        file.walk(v);
        Ok(())
    })
}

/// Runs `mmd diff`. The two files are read and walked at once, each on its own thread,
/// and compared as they are walked: every difference is printed as it is found, and no
/// tree of either file is built.
pub fn run(tool: &Tool, args: &DiffArgs, out: &mut dyn Write) -> Outcome {
    let (a_file, b_file) = std::thread::scope(|s| {
        let b = s.spawn(|| input::open_in(&args.b, tool.formats()));
        let a = input::open_in(&args.a, tool.formats());
        (a, b.join())
    });
    let a_file = a_file?;
    let b_file = b_file.map_err(|_| Stop::trouble(input::BUG))??;
    let (fa, fb) = (a_file.format, b_file.format);
    if fa != fb {
        return Err(Stop::trouble(format!(
            "{} is {}, {} is {}: only files of one format compare",
            args.a.display(),
            fa.name(),
            args.b.display(),
            fb.name()
        )));
    }
    let (a, b) = (&a_file.bytes, &b_file.bytes);
    // Two files of one format have no difference exactly when their bytes are equal
    // (VPD too: there, bytes that differ only in layout text get the `(layout)` line).
    let equal = a == b;
    let exit = if equal { Exit::Done } else { Exit::Failed };
    if equal {
        // The same bytes read to the same value: only whether they read is asked.
        input::guarded(fa, || fa.read(a).map(drop)).map_err(|p| trouble(p, &args.a))?;
        if args.json {
            writeln!(out, "{{\"equal\":true,\"differences\":[]}}")
                .map_err(|e| Stop::from(e).closed_with(exit))?;
        }
        return Ok(exit);
    }
    let mut printer = Printer {
        json: args.json,
        out: io::BufWriter::new(&mut *out),
        printed: 0,
        error: None,
    };
    let (mut problem_a, mut problem_b) = (None, None);
    // Nothing is printed before both files read: a difference needs both walks.
    let _ = diff::diff_walks(
        |v| problem_a = walk_file(fa, a, v).err(),
        |v| problem_b = walk_file(fb, b, v).err(),
        |d| printer.difference(&d),
    );
    if let Some(p) = problem_a {
        return Err(trouble(p, &args.a));
    }
    if let Some(p) = problem_b {
        return Err(trouble(p, &args.b));
    }
    // Values equal but bytes not: only VPD layout text can do that.
    let layout = (printer.printed == 0).then(|| {
        a.iter()
            .zip(b.iter())
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()))
    });
    // A reader that closes the output early (`mmd diff A B | head`) still gets the answer:
    // 1, the files differ.
    printer
        .finish(layout)
        .map_err(|stop| stop.closed_with(exit))?;
    Ok(exit)
}

/// Prints the differences of two files that differ, as they are found: lines, or the
/// `--json` document (its head with the first difference).
struct Printer<W: Write> {
    json: bool,
    out: W,
    printed: usize,
    /// The first write that failed; nothing more is written after it.
    error: Option<io::Error>,
}

impl<W: Write> Printer<W> {
    fn difference(&mut self, d: &Difference) -> Result<(), ()> {
        let written = if self.json {
            let sep: &[u8] = if self.printed == 0 {
                b"{\"equal\":false,\"differences\":["
            } else {
                b","
            };
            self.out
                .write_all(sep)
                .and_then(|()| Ok(serde_json::to_writer(&mut self.out, &json_item(d))?))
        } else {
            writeln!(self.out, "{d}")
        };
        self.printed += 1;
        written.map_err(|e| self.error = Some(e))
    }

    /// The layout line (when only layout text differs) and the end of the document.
    fn finish(mut self, layout: Option<usize>) -> Outcome<()> {
        if let Some(e) = self.error.take() {
            return Err(e.into());
        }
        if self.json {
            if self.printed == 0 {
                self.out.write_all(b"{\"equal\":false,\"differences\":[")?;
            }
            if let Some(at) = layout {
                if self.printed > 0 {
                    self.out.write_all(b",")?;
                }
                let item = JsonDifference {
                    path: "(layout)".into(),
                    change: "layout",
                    old: None,
                    new: None,
                    offset: Some(at as u64),
                };
                serde_json::to_writer(&mut self.out, &item)?;
            }
            self.out.write_all(b"]}\n")?;
        } else if let Some(at) = layout {
            writeln!(
                self.out,
                "(layout): the files first differ at byte {at:#x}, in text that holds no value"
            )?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// One difference in `--json`.
fn json_item(d: &Difference) -> JsonDifference<'_> {
    let (change, old, new) = match &d.change {
        Change::Changed { old, new } => ("changed", Some(old), Some(new)),
        Change::Added(v) => ("added", None, Some(v)),
        Change::Removed(v) => ("removed", Some(v), None),
    };
    JsonDifference {
        path: d.path.to_string(),
        change,
        old,
        new,
        offset: None,
    }
}
