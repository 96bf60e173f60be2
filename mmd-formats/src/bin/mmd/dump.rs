//! `mmd dump [--json] FILE`: the whole structure of a file, every field in file order.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::exit::{Exit, Outcome};
use crate::input;

/// Arguments of `mmd dump`.
#[derive(Debug, clap::Args)]
pub struct DumpArgs {
    /// Print one JSON document (the file's top-level fields as an object) instead of
    /// indented text.
    #[arg(long)]
    pub json: bool,
    /// The file to dump.
    pub file: PathBuf,
}

/// The long description of `mmd dump`.
pub const LONG_ABOUT: &str = "\
Print the whole structure of a file, every field in file order.

Text form: one line per field, `name: value`, nested values indented below their field;
short lists of numbers on one line. Floats are printed in their shortest form that reads
back as the same value.

JSON form (--json): structs are objects (fields in file order), sequences arrays, absent
blocks null, enum values {\"Variant\": body}; integers, indices (raw: -1 = none) and floats
are numbers (a float reads back as the same f32; NaN and infinities, which JSON cannot
hold, are {\"float\": \"NaN\", \"bits\": \"7fc00000\"}); raw bytes are {\"hex\": \"..\"}; text is a
string when its bytes are exactly the string's encoding, else {\"text\", \"raw\" (hex),
\"encoding\"}; flags are {\"bits\", \"names\"}; a VPD adds its whole text as \"source\".
`mmd build` reads this form back into the same bytes.";

/// Exit codes of `mmd dump`.
pub const EXIT_CODES: &str = "Exit codes: 0 = dumped; 1 = the file does not read (the error \
names its offset and field); 2 = usage error, unreadable path or unknown format.";

/// Runs `mmd dump`.
pub fn run(args: &DumpArgs, out: &mut dyn Write) -> Outcome {
    let file = input::open(&args.file)?;
    if args.json {
        // The JSON form `mmd build` reads back (for VPD, with its source text).
        let tree = input::run_lib(&args.file, file.format, || {
            file.format.json_tree(&file.bytes)
        })?;
        serde_json::to_writer(&mut *out, &tree)?;
        writeln!(out)?;
    } else {
        let tree = input::run_lib(&args.file, file.format, || file.format.tree(&file.bytes))?;
        let mut buf = io::BufWriter::new(&mut *out);
        mmd_formats::inspect::dump::write_text(&tree, &mut buf)?;
        buf.flush()?;
    }
    Ok(Exit::Done)
}
