//! `mmd info [--json] FILE`: format, version and counts per section (for VMD also the
//! kind, frame range, duration, names and camera cuts).

use std::io::{self, Write};
use std::path::PathBuf;

use mmd_formats::format::{self, Format, InfoValue};
use serde_json::{json, Map, Value};

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

/// Runs `mmd info`; returns the exit code.
pub fn run(args: &InfoArgs, out: &mut dyn Write) -> io::Result<u8> {
    let path = args.file.display();
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => {
            writeln!(io::stderr(), "mmd info: cannot read {path}: {e}")?;
            return Ok(2);
        }
    };
    let Some(fmt) = Format::detect(&bytes) else {
        writeln!(
            io::stderr(),
            "mmd info: {path}: not a PMX, PMD, VMD or VPD file"
        )?;
        return Ok(2);
    };
    let info = match crate::guard::catch(|| format::info(fmt, &bytes)) {
        Ok(Ok(info)) => info,
        Ok(Err(e)) => {
            writeln!(io::stderr(), "mmd info: {path} ({}): {e}", fmt.name())?;
            return Ok(1);
        }
        Err(panic) => {
            writeln!(
                io::stderr(),
                "mmd info: {path}: internal error (this is a bug in mmd-formats): {panic}"
            )?;
            return Ok(1);
        }
    };
    if args.json {
        let mut obj = Map::new();
        obj.insert("path".into(), json!(path.to_string()));
        obj.insert("format".into(), json!(fmt.name()));
        obj.insert("size".into(), json!(bytes.len()));
        for (k, v) in &info.facts {
            obj.insert((*k).into(), to_json(v));
        }
        writeln!(out, "{}", Value::Object(obj))?;
    } else {
        writeln!(out, "file: {path}")?;
        writeln!(out, "format: {}", fmt.name())?;
        writeln!(out, "size: {}", bytes.len())?;
        for (k, v) in &info.facts {
            writeln!(out, "{k}: {v}")?;
        }
    }
    Ok(0)
}
