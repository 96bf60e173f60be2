//! The properties of one JSON document built as every format (`mmd build`). A failed
//! property panics with a message that says which, and libFuzzer keeps the input.

use std::fmt::Debug;

use crate::alloc;
use crate::api::{self, Format, FromJson, Json, JsonError, Segment, WholeFile, FORMATS};
use crate::read::probe;
use crate::write::check_binary;
use mmd_formats::inspect::CheckOutcome;
use mmd_formats::{pmd::Pmd, pmx::Pmx, vmd::Vmd};

/// Checks every property on `data` as the JSON document of each of the four formats:
///
/// 1. No function panics. Parsing, building from the parsed tree and building from the
///    text each allocate at most [`alloc::build_bound`] at peak.
/// 2. Text that is not JSON is a syntax error: its line and column are inside the text,
///    its message says what was expected, it names no path, and building from the text
///    gives that same error (nothing is built).
/// 3. A document that does not build is an error at a JSON path: every segment of the path
///    is a member or an element the document has, or a byte of a `{"hex": ..}` value (so
///    the path leads to the value at fault), the message renders as `$.path: what`, and
///    nothing is built.
/// 4. A document that builds gives a file that reads back as that format and writes back
///    the same bytes, and whose JSON dump builds again to exactly those bytes:
///    `build(dump(build(j))) == build(j)`.
/// 5. Building from the text and building from the parsed tree agree (checked for one
///    format an input, chosen by a hash of the input, so as not to parse four times).
/// 6. For the binary formats, the value a document builds (before it is written) writes,
///    its bytes are the build's, and it holds the writer targets' rule
///    ([`check_binary`]: spans tile it, it reads back as itself).
///
/// Bytes that are not UTF-8 are read as text with U+FFFD in place of each bad sequence
/// (the library takes `&str`; `mmd build` refuses such bytes before parsing), so mutations
/// that break UTF-8 still reach the parser.
pub fn check_document(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;
    let bound = alloc::build_bound(text.len());
    let direct_format = FORMATS[(probe(data) % FORMATS.len() as u64) as usize];

    let (parsed, peak) = alloc::peak_during(|| api::parse_json(text));
    check_peak("parsing", text.len(), peak, bound);
    let doc = match parsed {
        Ok(doc) => doc,
        Err(e) => {
            check_syntax_error(&e, text);
            let (direct, peak) = alloc::peak_during(|| api::build(direct_format, text));
            check_peak("building from text", text.len(), peak, bound);
            assert_eq!(
                direct.as_ref().err(),
                Some(&e),
                "{}: building text that does not parse gives another result than the parse",
                direct_format.name()
            );
            return;
        }
    };

    for format in FORMATS {
        let (built, peak) = alloc::peak_during(|| api::build_tree(format, &doc));
        check_peak("building from the tree", text.len(), peak, bound);
        if format == direct_format {
            let (direct, peak) = alloc::peak_during(|| api::build(format, text));
            check_peak("building from text", text.len(), peak, bound);
            assert!(
                direct == built,
                "{}: building from text ({}) and from the parsed tree ({}) disagree",
                format.name(),
                shown(&direct),
                shown(&built)
            );
        }
        match format {
            Format::Pmx => check_value::<Pmx>(&doc, &built),
            Format::Pmd => check_value::<Pmd>(&doc, &built),
            Format::Vmd => check_value::<Vmd>(&doc, &built),
            _ => {}
        }
        match built {
            Ok(bytes) => check_built(format, &bytes),
            Err(e) => check_path_error(format, &e, &doc),
        }
    }
}

/// The value a document builds (binary formats) before it is written: the build is that
/// value written, it writes (the JSON rules refuse, at their path, every value the writer
/// would), and it holds the writer's rule ([`check_binary`]): it reads back as itself.
fn check_value<T: FromJson<()> + WholeFile + Debug + PartialEq>(
    doc: &Json<'_>,
    built: &Result<Vec<u8>, JsonError>,
) {
    let value = match api::from_json::<T>(doc) {
        Ok(value) => value,
        Err(e) => {
            assert_eq!(
                built.as_ref().err(),
                Some(&e),
                "building the value fails, and the build gives another result"
            );
            return;
        }
    };
    match (value.to_bytes(), built) {
        (Ok(bytes), Ok(b)) => assert!(&bytes == b, "the build is not the value built, written"),
        (Err(e), _) => panic!(
            "a value built from JSON does not write (the JSON rules should refuse it at its \
             path): {e}"
        ),
        (Ok(_), Err(e)) => panic!("the value built writes, but the build fails: {e}"),
    }
    check_binary(&value);
}

fn check_peak(what: &str, len: usize, peak: usize, bound: usize) {
    assert!(
        peak <= bound,
        "{what} ({len} bytes of JSON) allocated {peak} bytes at peak (bound {bound})"
    );
}

fn shown(r: &Result<Vec<u8>, JsonError>) -> String {
    match r {
        Ok(b) => format!("{} bytes", b.len()),
        Err(e) => format!("error {e}"),
    }
}

/// A syntax error: at a line and column inside the text, with a message and no path.
fn check_syntax_error(e: &JsonError, text: &str) {
    let shown = e.to_string();
    let Some((line, column)) = e.line_column() else {
        panic!("text that does not parse gives an error without a line and column: {shown}");
    };
    assert!(
        e.path().next().is_none(),
        "a syntax error with a path: {shown}"
    );
    assert!(!e.message().is_empty(), "an empty syntax error message");
    assert_eq!(
        shown,
        format!("line {line}, column {column}: {}", e.message()),
        "a syntax error that renders in another form"
    );
    // Lines are counted at LF, columns in characters from 1; the end of the text is one
    // column past the last character of the last line.
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        line >= 1 && line <= lines.len(),
        "syntax error at line {line} of a text of {} lines: {shown}",
        lines.len()
    );
    let chars = lines[line - 1].chars().count();
    assert!(
        column >= 1 && column <= chars + 1,
        "syntax error at column {column} of a line of {chars} characters: {shown}"
    );
}

/// An error of a document that parses: at a path that leads, member by member and
/// element by element, to a value the document has (or to a byte of a `{"hex": ..}`
/// value, which holds the elements of a byte sequence).
fn check_path_error(format: Format, e: &JsonError, doc: &Json<'_>) {
    let shown = e.to_string();
    let name = format.name();
    assert!(
        e.line_column().is_none(),
        "{name}: a document that parses gives a syntax error: {shown}"
    );
    assert!(!e.message().is_empty(), "{name}: an empty error message");
    assert_eq!(
        shown,
        format!("{}: {}", e.path_string(), e.message()),
        "{name}: an error that renders in another form"
    );
    // Long arrays are kept as text by the parser; built, each can be indexed.
    let doc = doc
        .clone()
        .into_built()
        .unwrap_or_else(|e| panic!("{name}: a parsed document's long array does not build: {e}"));
    let mut at = &doc;
    let mut walked = String::from("$");
    for seg in e.path() {
        let next = match *seg {
            Segment::Field(member) => {
                walked.push('.');
                walked.push_str(member);
                at.get(member)
            }
            Segment::Index(i) => {
                walked.push_str(&format!("[{i}]"));
                // Bytes are one JSON value, `{"hex": ".."}`: `[i]` is byte i of them.
                if let Some(Json::String(hex)) = at.get("hex") {
                    assert!(
                        i < hex.len() / 2,
                        "{name}: the error's path names byte {i} of {} bytes at {walked}: {shown}",
                        hex.len() / 2
                    );
                    return;
                }
                at.as_array().and_then(|items| items.get(i))
            }
            Segment::Count | Segment::Tag => {
                panic!("{name}: the path names a count or tag, which JSON does not have: {shown}")
            }
        };
        at = next.unwrap_or_else(|| {
            panic!("{name}: the error's path leads nowhere in the document at {walked}: {shown}")
        });
    }
}

/// A file built from JSON reads back and writes back the same bytes, and its dump builds
/// the same bytes again.
fn check_built(format: Format, bytes: &[u8]) {
    let name = format.name();
    match api::roundtrip(format, bytes) {
        CheckOutcome::ByteExact => {}
        CheckOutcome::ReadError(e) => panic!("{name}: the file built does not read back: {e}"),
        CheckOutcome::WriteError(e) => {
            panic!("{name}: the file built reads but does not write back: {e}")
        }
        CheckOutcome::Differs { offset, .. } => {
            panic!("{name}: the file built reads but writes back other bytes, from {offset}")
        }
    }
    let dump = api::dump_json(format, bytes)
        .unwrap_or_else(|e| panic!("{name}: the file built reads but does not dump: {e}"));
    match api::build(format, &dump) {
        Ok(again) => assert!(
            again == bytes,
            "{name}: the dump of the file built builds other bytes ({} then {} bytes)",
            bytes.len(),
            again.len()
        ),
        Err(e) => panic!("{name}: the dump of the file built does not build: {e}"),
    }
}
