//! `mmd diff [--json] A B`: field-level differences between two files of one format.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mmd_formats::inspect::diff::{diff_values, Change, Difference};
use mmd_formats::inspect::Format;
use mmd_formats::walk::Value;
use serde::Serialize;

use crate::exit::{Exit, Outcome, Stop};
use crate::input;

/// The `--json` document (values serialized directly, so an `f32` keeps its shortest
/// form).
#[derive(Serialize)]
struct JsonDiff<'a> {
    equal: bool,
    differences: Vec<JsonDifference<'a>>,
}

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

/// The walked tree of one input: as for any command, except that every problem is
/// trouble (exit 2), as `cmp` has it: 1 means only "the files differ".
fn tree(path: &Path, format: Format, bytes: &[u8]) -> Outcome<Value> {
    input::run_lib(path, format, || format.tree(bytes)).map_err(|stop| match stop {
        Stop::Fail(_, message) => Stop::trouble(message),
        other => other,
    })
}

/// Runs `mmd diff`.
pub fn run(args: &DiffArgs, out: &mut dyn Write) -> Outcome {
    // The two files are read and walked at once, each on its own thread.
    let (a_file, b_file) = std::thread::scope(|s| {
        let b = s.spawn(|| input::open(&args.b));
        let a = input::open(&args.a);
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
    let (ta, tb) = std::thread::scope(|s| {
        let tb = s.spawn(|| tree(&args.b, fb, b));
        (tree(&args.a, fa, a), tb.join())
    });
    let ta = ta?;
    let tb = tb.map_err(|_| Stop::trouble(input::BUG))??;
    let differences = diff_values(&ta, &tb);
    // Values equal but bytes not: only VPD layout text can do that.
    let layout = (differences.is_empty() && a != b).then(|| {
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()))
    });
    let equal = differences.is_empty() && layout.is_none();
    let exit = if equal { Exit::Done } else { Exit::Failed };
    // A reader that closes the output early (`mmd diff A B | head`) still gets the answer:
    // 1, the files differ (0 when they agree and only --json was printed).
    print(args.json, &differences, layout, equal, out).map_err(|stop| stop.closed_with(exit))?;
    Ok(exit)
}

/// Prints the differences (and the layout line) as lines or as the `--json` document.
fn print(
    json: bool,
    differences: &[Difference],
    layout: Option<usize>,
    equal: bool,
    out: &mut dyn Write,
) -> Outcome<()> {
    if json {
        let mut items: Vec<JsonDifference> = differences
            .iter()
            .map(|d| {
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
            })
            .collect();
        if let Some(at) = layout {
            items.push(JsonDifference {
                path: "(layout)".into(),
                change: "layout",
                old: None,
                new: None,
                offset: Some(at as u64),
            });
        }
        let doc = JsonDiff {
            equal,
            differences: items,
        };
        serde_json::to_writer(&mut *out, &doc)?;
        writeln!(out)?;
    } else {
        let mut buf = io::BufWriter::new(&mut *out);
        for d in differences {
            writeln!(buf, "{d}")?;
        }
        if let Some(at) = layout {
            writeln!(
                buf,
                "(layout): the files first differ at byte {at:#x}, in text that holds no value"
            )?;
        }
        buf.flush()?;
    }
    Ok(())
}
