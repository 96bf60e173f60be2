//! The `build_json` target's dictionary, written at run time so that it follows the
//! schemas: the hand-written entries of `dict/json.dict` (JSON punctuation, the value
//! forms, numbers at the formats' edges, VPD's members, which have no schema), then every
//! member name, enum variant name, flag name and constant string of the formats' JSON
//! Schemas, each as a quoted JSON string and as a member name with its colon.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mmd_formats::json::{self, Json};

/// The fuzz crate's folder (`tests/fuzz`).
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes the dictionary to `path`; the number of names taken from the schemas.
pub fn write(path: &Path) -> Result<usize, String> {
    let hand = fuzz_dir().join("dict/json.dict");
    let mut out = std::fs::read_to_string(&hand)
        .map_err(|e| format!("cannot read {}: {e}", hand.display()))?;
    let schema_dir = fuzz_dir().join("../../mmd-spec/schema");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(&schema_dir)
        .map_err(|e| format!("cannot list {}: {e}", schema_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".schema.json"))
        .collect();
    schemas.sort();
    if schemas.is_empty() {
        return Err(format!("no *.schema.json in {}", schema_dir.display()));
    }
    let mut names = BTreeSet::new();
    for p in &schemas {
        let text =
            std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let doc = json::parse(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        collect(&doc, &mut names);
    }
    let _ = writeln!(
        out,
        "\n# Written by mmd-fuzz-seeder from {}: member, variant and flag names and \
         constant strings.",
        schemas
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for name in &names {
        let quoted = format!("\"{name}\"");
        let _ = writeln!(out, "\"{}\"", escape(&quoted));
        let _ = writeln!(out, "\"{}\"", escape(&format!("{quoted}:")));
    }
    std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(names.len())
}

/// The names a document can hold: the keys of every `properties` object, and the strings
/// of every `enum` and `const`.
fn collect(schema: &Json<'_>, names: &mut BTreeSet<String>) {
    match schema {
        Json::Object(members) => {
            for (key, value) in members {
                match (key.as_ref(), value) {
                    ("properties", Json::Object(props)) => {
                        names.extend(props.iter().map(|(k, _)| k.to_string()));
                    }
                    ("enum", Json::Array(items)) => {
                        names.extend(items.iter().filter_map(Json::as_str).map(String::from));
                    }
                    ("const", Json::String(s)) => {
                        names.insert(s.to_string());
                    }
                    _ => {}
                }
                collect(value, names);
            }
        }
        Json::Array(items) => items.iter().for_each(|v| collect(v, names)),
        _ => {}
    }
}

/// A libFuzzer dictionary string: `\` and `"` escaped, bytes outside printable ASCII as
/// `\xNN`.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out
}
