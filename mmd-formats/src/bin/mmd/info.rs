//! `mmd info [--json] FILE`: format, version and counts per section (for VMD also the
//! kind, frame range, duration, names and camera cuts).

use std::io::Write;
use std::path::PathBuf;

use mmd_formats::inspect::{self, InfoValue};
use serde_json::{json, Map, Value};

use crate::exit::{Exit, Outcome};
use crate::input;

/// Arguments of `mmd info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// Print one JSON object instead of `name: value` lines.
    #[arg(long)]
    pub json: bool,
    /// The file to describe.
    pub file: PathBuf,
}

/// Exit codes of `mmd info`.
pub const EXIT_CODES: &str = "Exit codes: 0 = described; 1 = the file does not read (the error \
names its offset and field); 2 = usage error, unreadable path or unknown format.";

fn to_json(v: &InfoValue) -> Value {
    match v {
        InfoValue::Count(n) => json!(n),
        InfoValue::MaybeCount(n) => json!(n),
        InfoValue::Number(x) => json!(x),
        InfoValue::Text(s) => json!(s),
        InfoValue::List(l) => json!(l),
    }
}

/// Runs `mmd info`.
pub fn run(args: &InfoArgs, out: &mut dyn Write) -> Outcome {
    let path = &args.file;
    let file = input::open(path)?;
    let info = input::run_lib(path, file.format, || {
        inspect::info(file.format, &file.bytes)
    })?;
    let shown = path.display();
    if args.json {
        let mut obj = Map::new();
        obj.insert("path".into(), json!(shown.to_string()));
        obj.insert("format".into(), json!(file.format.name()));
        obj.insert("size".into(), json!(file.bytes.len()));
        for (k, v) in &info.facts {
            obj.insert((*k).into(), to_json(v));
        }
        writeln!(out, "{}", Value::Object(obj))?;
    } else {
        writeln!(out, "file: {shown}")?;
        writeln!(out, "format: {}", file.format.name())?;
        writeln!(out, "size: {}", file.bytes.len())?;
        for (k, v) in &info.facts {
            writeln!(out, "{k}: {v}")?;
        }
    }
    Ok(Exit::Done)
}
