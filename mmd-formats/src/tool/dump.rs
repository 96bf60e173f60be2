//! `mmd dump [--json] FILE`: the whole structure of a file, every field in file order.

use std::io::{self, Write};
use std::path::PathBuf;

use mmd_formats::walk::{Leaf, Variant, Visitor, Walk};

use crate::tool::exit::{Exit, Outcome};
use crate::tool::input;
use crate::tool::Tool;

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

/// Runs `mmd dump`. Both forms are printed as the file is walked: memory holds the file
/// and what it reads to, never a tree of every field.
pub fn run(tool: &Tool, args: &DumpArgs, out: &mut dyn Write) -> Outcome {
    let input = input::open_in(&args.file, tool.formats())?;
    let format = input.format;
    let file = input::run_lib(&args.file, format, || format.read(&input.bytes))?;
    drop(input);
    let mut buf = io::BufWriter::new(&mut *out);
    if args.json {
        // The JSON form `build` reads back (for VPD, with its source text).
        let source = input::run_lib(&args.file, format, || file.source())?;
        write_json(&*file, source, &mut buf)?;
        writeln!(buf)?;
    } else {
        mmd_formats::inspect::dump::write_text_streamed(&*file, &mut buf)?;
    }
    buf.flush()?;
    Ok(Exit::Done)
}

/// Writes `value` in the JSON form of `serde_json::to_writer` on its walked tree, as it
/// is walked; `source` is added as the last member of the top-level object.
pub fn write_json<T: Walk + ?Sized>(
    value: &T,
    source: Option<Leaf>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut p = JsonPrinter {
        out,
        error: None,
        first: Vec::new(),
        source,
    };
    value.walk(&mut p);
    match p.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A [`Visitor`] that prints compact JSON as the value is walked.
struct JsonPrinter<'o> {
    out: &'o mut dyn Write,
    error: Option<io::Error>,
    /// Per open container: whether its next member is its first, and what closes it.
    first: Vec<(bool, &'static str)>,
    source: Option<Leaf>,
}

impl JsonPrinter<'_> {
    fn put(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(text.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    fn put_json(&mut self, value: &impl serde::Serialize) {
        if self.error.is_none() {
            if let Err(e) = serde_json::to_writer(&mut *self.out, value) {
                self.error = Some(e.into());
            }
        }
    }

    /// A member of a list begins: a comma before all but the first.
    fn element(&mut self) {
        if let Some((first, "]")) = self.first.last_mut() {
            let was = std::mem::replace(first, false);
            if !was {
                self.put(",");
            }
        }
    }
}

impl Visitor for JsonPrinter<'_> {
    fn leaf(&mut self, leaf: Leaf) {
        self.element();
        self.put_json(&leaf);
    }
    fn absent(&mut self) {
        self.element();
        self.put("null");
    }
    fn begin_struct(&mut self, _name: &'static str) {
        self.element();
        self.put("{");
        self.first.push((true, "}"));
    }
    fn field(&mut self, name: &'static str) {
        if let Some((first, _)) = self.first.last_mut() {
            let was = std::mem::replace(first, false);
            if !was {
                self.put(",");
            }
        }
        self.put_json(&name);
        self.put(":");
    }
    fn begin_seq(&mut self, _len: usize) {
        self.element();
        self.put("[");
        self.first.push((true, "]"));
    }
    fn begin_variant(&mut self, variant: Variant) {
        self.element();
        self.put("{");
        self.put_json(&variant.name);
        self.put(":");
        // The body is one value, no list member: a closing brace, no commas.
        self.first.push((false, "}"));
    }
    fn end(&mut self) {
        let Some((first, close)) = self.first.pop() else {
            return;
        };
        if self.first.is_empty() {
            if let Some(source) = self.source.take() {
                if !first {
                    self.put(",");
                }
                self.put("\"source\":");
                self.put_json(&source);
            }
        }
        self.put(close);
    }
}
