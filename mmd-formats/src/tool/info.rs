//! `mmd info [--json] FILE`: format, version and counts per section (for VMD also the
//! kind, frame range, duration, names and camera cuts).

use std::io::Write;
use std::path::PathBuf;

use mmd_formats::inspect::InfoValue;
use serde_json::{json, Map, Value};

use crate::tool::exit::{Exit, Outcome};
use crate::tool::input;
use crate::tool::Tool;

/// Arguments of `mmd info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// Print one JSON object instead of `name: value` lines.
    #[arg(long)]
    pub json: bool,
    /// The file to describe.
    pub file: PathBuf,
}

/// The long description of `mmd info`.
pub const LONG_ABOUT: &str = "\
Describe a file: its format, version and counts per section; for a VMD also its kind,
frame range, duration at 30 fps, bone and morph names and camera cuts.

One `name: value` line per fact (--json: one object, a key per fact). In both forms:
  version             a number: PMX 2.0 or 2.1, PMD 1, VMD 1 or 2
  index_widths        (PMX) the byte width of each kind of index: 1, 2 or 4
                      (JSON: {\"vertex\": 2, \"texture\": 1, ...})
  soft_bodies, morph_keys, ...
                      a count; `absent` (JSON null) for a block the file ends before
  frame_range         (VMD) first..=last frame over every key, or none
                      (JSON: {\"first\": 0, \"last\": 110}, or null)

For a VMD, the version is the layout the file was read with, told by its 30-byte
signature: 1 (a 10-byte model name) when it starts with `Vocaloid Motion Data file`, else
2 (a 20-byte model name). The signature is shown with NUL bytes as \\0, and
standard_signature says whether it is one of the two MMD writes (`Vocaloid Motion Data
0002` or `Vocaloid Motion Data file`, then any filler); a file whose signature only starts
with `Vocaloid Motion Data` (other tools pad it with NULs) is read as version 2.";

/// Exit codes of `mmd info`.
pub const EXIT_CODES: &str = "Exit codes: 0 = described; 1 = the file does not read (the error \
names its offset and field); 2 = usage error, unreadable path or unknown format.";

fn to_json(v: &InfoValue) -> Value {
    match v {
        InfoValue::Count(n) => json!(n),
        InfoValue::MaybeCount(n) => json!(n),
        InfoValue::Number(x) => json!(x),
        InfoValue::Text(s) | InfoValue::Printable(s) => json!(s),
        InfoValue::List(l) => json!(l),
        InfoValue::Fields(fields) => Value::Object(
            fields
                .iter()
                .map(|(name, value)| (name.clone(), to_json(value)))
                .collect(),
        ),
        InfoValue::Range(range) => match range {
            Some((first, last)) => json!({"first": first, "last": last}),
            None => Value::Null,
        },
        InfoValue::Flag(yes) => json!(yes),
    }
}

/// Runs `mmd info`.
pub fn run(tool: &Tool, args: &InfoArgs, out: &mut dyn Write) -> Outcome {
    let path = &args.file;
    let file = input::open_in(path, tool.formats())?;
    let facts = input::run_lib(path, file.format, || file.format.read(&file.bytes)?.facts())?;
    let shown = path.display();
    if args.json {
        let mut obj = Map::new();
        obj.insert("path".into(), json!(shown.to_string()));
        obj.insert("format".into(), json!(file.format.name()));
        obj.insert("size".into(), json!(file.bytes.len()));
        for (k, v) in &facts {
            obj.insert((*k).into(), to_json(v));
        }
        writeln!(out, "{}", Value::Object(obj))?;
    } else {
        writeln!(out, "file: {}", crate::tool::shown::path(path))?;
        writeln!(out, "format: {}", file.format.name())?;
        writeln!(out, "size: {}", file.bytes.len())?;
        for (k, v) in &facts {
            writeln!(out, "{k}: {v}")?;
        }
    }
    Ok(Exit::Done)
}
