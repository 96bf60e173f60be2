//! `mmd explain [--json] FILE OFFSET...`: which field holds a byte, its byte range and
//! its value.

use std::io::Write;
use std::path::PathBuf;

use mmd_formats::inspect::spans::Explanation;
use mmd_formats::walk::{hex, Segment, Value};
use serde::Serialize;

use crate::tool::cut;
use crate::tool::exit::{self, Exit, Outcome, Stop};
use crate::tool::input::{self, Problem};
use crate::tool::Tool;

/// Arguments of `mmd explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// Print one JSON object per offset (one per line) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The file.
    pub file: PathBuf,
    /// Byte offsets: decimal (`4660`) or hexadecimal with `0x` (`0x1234`).
    #[arg(value_name = "OFFSET", required = true, value_parser = parse_offset)]
    pub offsets: Vec<u64>,
}

/// The long description of `mmd explain`.
pub const LONG_ABOUT: &str = "\
Explain bytes of a file: for each OFFSET, the innermost field that holds that byte, the
field's byte range, its bytes and its value.

Paths read like `bones[3].ik.links[0].limit_min[2]`; `.count` is the count before a
counted list, `.tag` the byte that chooses an enum's variant (`vertices[0].weight.tag`),
and `.magic` a fixed signature. To patch a value in place, write its new bytes over the
range shown: every field has a fixed place once the fields before it are read, so nothing
else moves (a text or a list that changes length moves everything after it). In a VPD file, a byte of layout text
(keywords, separators, comments) is explained by the block around it, or by nothing.

Text output, per offset:
  offset: 0x1232 (4658), byte 2 of the field
  field:  vertices[12].position[1]
  range:  0x1230..0x1234 (4 bytes)
  bytes:  00 00 c0 3f
  value:  1.5

A truncated file (one that ends too early, every byte of it valid) is explained as far as
its bytes go, with a warning on stderr: a field the end cuts through shows the bytes
present, `cut: the file ends at 0x...` in its range and no value (--json: \"cut\": true,
\"value\": null).";

/// Exit codes of `mmd explain`.
pub const EXIT_CODES: &str = "Exit codes: 0 = every offset explained (also in a truncated \
file); 1 = the file does not read (corrupt, or cut inside a value that decides the layout \
of the rest; the error names its offset and field); 2 = usage error, an offset past the \
end of the file, unreadable path or unknown format.";

/// Parses `4660` or `0x1234`.
fn parse_offset(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(&h.replace('_', ""), 16),
        None => t.replace('_', "").parse::<u64>(),
    };
    parsed.map_err(|_| {
        format!("`{s}` is not an offset: expected decimal digits or 0x and hex digits")
    })
}

/// One step of a path in JSON: a name as a string, an index as a number.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonSegment {
    Name(&'static str),
    Index(usize),
}

fn segments_json(segs: &[Segment]) -> Vec<JsonSegment> {
    segs.iter()
        .map(|s| match s {
            Segment::Field(n) => JsonSegment::Name(n),
            Segment::Index(i) => JsonSegment::Index(*i),
            Segment::Count => JsonSegment::Name("count"),
            Segment::Tag => JsonSegment::Name("tag"),
        })
        .collect()
}

fn value_text(v: &Option<Value>) -> String {
    v.as_ref()
        .map_or_else(|| "unknown".to_owned(), Value::summary)
}

/// The `--json` object for one offset. The value is serialized directly (not through
/// `serde_json::Value`), so an `f32` keeps its shortest form.
#[derive(Serialize)]
struct JsonExplanation<'a> {
    offset: u64,
    path: Option<String>,
    segments: Vec<JsonSegment>,
    start: Option<u64>,
    end: Option<u64>,
    bytes: Option<String>,
    value: Option<&'a Value>,
    display: Option<String>,
    /// The file ends inside the field (a truncated file): `bytes` are those present, and
    /// there is no value.
    cut: bool,
}

fn to_json<'a>(offset: u64, e: Option<&'a Explanation>, bytes: &[u8]) -> JsonExplanation<'a> {
    let Some(e) = e else {
        return JsonExplanation {
            offset,
            path: None,
            segments: Vec::new(),
            start: None,
            end: None,
            bytes: None,
            value: None,
            display: None,
            cut: false,
        };
    };
    let len = bytes.len() as u64;
    let cut = e.end > len;
    let field_bytes = bytes
        .get(e.start as usize..e.end.min(len) as usize)
        .unwrap_or(&[]);
    JsonExplanation {
        offset,
        path: Some(e.path.to_string()),
        segments: segments_json(e.path.segments()),
        start: Some(e.start),
        end: Some(e.end),
        bytes: Some(hex(field_bytes)),
        value: e.value.as_ref().filter(|_| !cut),
        display: (!cut).then(|| value_text(&e.value)),
        cut,
    }
}

/// Runs `mmd explain`.
pub fn run(tool: &Tool, args: &ExplainArgs, out: &mut dyn Write) -> Outcome {
    let file = input::open_in(&args.file, tool.formats())?;
    let len = file.bytes.len() as u64;
    if let Some(&bad) = args.offsets.iter().find(|&&o| o >= len) {
        return Err(Stop::trouble(format!(
            "offset {bad:#x} ({bad}) is past the end of {} ({len} bytes)",
            args.file.display()
        )));
    }
    let format = file.format;
    let bytes = &file.bytes;
    // The file is read once; each offset is explained from the spans that hold it and
    // the one value they lead to, never from a tree of the whole file.
    let file = match input::guarded(format, || format.read(bytes)) {
        Ok(file) => file,
        // A cut file: explain the fields it begins with.
        Err(Problem::Read { error, .. }) if error.is_truncated() => {
            let Some(read) = cut::complete(format, bytes, &error) else {
                return Err(Problem::Read { format, error }.at(&args.file));
            };
            exit::warn(
                &format!("{} explain", tool.name()),
                &format!(
                    "{} ({format}) is {}; its fields are explained as far as its {len} bytes \
                     go (a field the end cuts through has no value)",
                    args.file.display(),
                    input::read_error(&error)
                ),
            );
            read
        }
        Err(problem) => return Err(problem.at(&args.file)),
    };
    for (k, &offset) in args.offsets.iter().enumerate() {
        let e = input::run_lib(&args.file, format, || file.explain(offset))?;
        if args.json {
            let doc = to_json(offset, e.as_ref(), bytes);
            serde_json::to_writer(&mut *out, &doc)?;
            writeln!(out)?;
            continue;
        }
        if k > 0 {
            writeln!(out)?;
        }
        let Some(e) = e else {
            writeln!(out, "offset: {offset:#x} ({offset})")?;
            writeln!(out, "field:  none (layout text)")?;
            continue;
        };
        let n = e.end - e.start;
        let unit = if n == 1 { "byte" } else { "bytes" };
        writeln!(
            out,
            "offset: {offset:#x} ({offset}), byte {} of the field",
            offset - e.start
        )?;
        let path = e.path.to_string();
        writeln!(
            out,
            "field:  {}",
            if path.is_empty() {
                "(top level)"
            } else {
                &path
            }
        )?;
        let cut = if e.end > len {
            format!(", cut: the file ends at {len:#x}")
        } else {
            String::new()
        };
        writeln!(
            out,
            "range:  {:#x}..{:#x} ({n} {unit}{cut})",
            e.start, e.end
        )?;
        let shown_end = e.end.min(e.start + 32).min(len);
        let shown = bytes
            .get(e.start as usize..shown_end as usize)
            .unwrap_or(&[]);
        let mut hexed: Vec<String> = shown.iter().map(|b| format!("{b:02x}")).collect();
        if e.end.min(len) > shown_end {
            hexed.push("..".into());
        }
        writeln!(out, "bytes:  {}", hexed.join(" "))?;
        if e.end > len {
            writeln!(out, "value:  none (the file ends inside this field)")?;
        } else {
            writeln!(out, "value:  {}", value_text(&e.value))?;
        }
    }
    Ok(Exit::Done)
}
