//! Writes the seed corpora of the fuzz targets.
//!
//! `mmd-fuzz-seeder OUT [FIXTURES] [--max-bytes N]`
//!
//! For each format, `OUT/read_<format>/` receives the built-in samples
//! (`mmd_formats::samples::all()`) and every file under `FIXTURES` of that format (by
//! signature, else by extension) of at most N bytes (default 262144: libFuzzer explores
//! small inputs faster, and the large fixtures add size rather than structure).
//! `OUT/build_json/` receives the JSON dump (what `mmd dump --json` prints) of each of
//! those files that reads, when the dump is at most N bytes, and `OUT/build_json.dict`
//! the JSON target's dictionary: `dict/json.dict` and every member name, variant name,
//! flag name and constant string of the formats' JSON Schemas (`mmd-spec/schema/`).
//! Files are named by content hash, as libFuzzer names its own, so running twice adds
//! nothing. Fixtures are copied at run time only; the corpora are never committed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mmd_formats::inspect::Format;

mod dict;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("mmd-fuzz-seeder: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut out = None;
    let mut fixtures = None;
    let mut max_bytes: usize = 256 * 1024;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--max-bytes" {
            let v = args.next().ok_or("--max-bytes needs a value")?;
            max_bytes = v.parse().map_err(|e| format!("--max-bytes {v:?}: {e}"))?;
        } else if out.is_none() {
            out = Some(PathBuf::from(a));
        } else if fixtures.is_none() {
            fixtures = Some(PathBuf::from(a));
        } else {
            return Err(format!("unexpected argument {a:?}"));
        }
    }
    let out = out.ok_or("usage: mmd-fuzz-seeder OUT [FIXTURES] [--max-bytes N]")?;

    let mut counts = [0usize; 4];
    let mut json_count = 0;
    for s in mmd_formats::samples::all() {
        let f = Format::detect(&s.bytes).ok_or(format!("sample {} has no signature", s.name))?;
        counts[slot(f)] += usize::from(put(&out, &target(f), &s.bytes)?);
        json_count += usize::from(put_json(&out, f, &s.bytes, max_bytes)?);
    }
    let (mut skipped, mut fixture_count) = (0, 0);
    if let Some(dir) = &fixtures {
        let mut files = Vec::new();
        files_under(dir, &mut files).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        files.sort();
        for path in files {
            let bytes =
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let Some(f) = format_of(&path, &bytes) else {
                continue;
            };
            if bytes.len() > max_bytes {
                skipped += 1;
                continue;
            }
            fixture_count += 1;
            counts[slot(f)] += usize::from(put(&out, &target(f), &bytes)?);
            json_count += usize::from(put_json(&out, f, &bytes, max_bytes)?);
        }
    }
    for f in FORMATS {
        println!(
            "{}: {} seeds in {}",
            target(f),
            counts[slot(f)],
            out.join(target(f)).display()
        );
    }
    println!(
        "{JSON_TARGET}: {json_count} seeds in {}",
        out.join(JSON_TARGET).display()
    );
    let keys = dict::write(&out.join(format!("{JSON_TARGET}.dict")))?;
    println!(
        "{JSON_TARGET}: dictionary {} ({keys} names from the JSON Schemas)",
        out.join(format!("{JSON_TARGET}.dict")).display()
    );
    if let Some(dir) = &fixtures {
        println!(
            "{fixture_count} fixtures from {} ({skipped} over {max_bytes} bytes left out)",
            dir.display()
        );
    }
    Ok(())
}

const FORMATS: [Format; 4] = [Format::Pmx, Format::Pmd, Format::Vmd, Format::Vpd];

fn slot(f: Format) -> usize {
    FORMATS.iter().position(|&x| x == f).unwrap_or(0)
}

/// The read target of a format (`read_pmx`).
fn target(f: Format) -> String {
    format!("read_{}", f.name().to_ascii_lowercase())
}

/// The JSON target, whose seeds are the dumps of the read targets' seeds.
const JSON_TARGET: &str = "build_json";

/// Writes the JSON dump of a file of format `f` as a seed of the JSON target, when the file
/// reads and the dump is at most `max_bytes`; false when it was not written.
fn put_json(out: &Path, f: Format, bytes: &[u8], max_bytes: usize) -> Result<bool, String> {
    let Ok(tree) = f.json_tree(bytes) else {
        return Ok(false);
    };
    let text = mmd_formats::json::value_to_string(&tree);
    if text.len() > max_bytes {
        return Ok(false);
    }
    put(out, JSON_TARGET, text.as_bytes())
}

/// Writes `bytes` as a seed of `target`; false when it was there already.
fn put(out: &Path, target: &str, bytes: &[u8]) -> Result<bool, String> {
    let dir = out.join(target);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("seed-{:016x}", fnv1a(bytes)));
    if path.exists() {
        return Ok(false);
    }
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(true)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A file's format: by signature, else by extension (files that do not read still seed
/// their format).
fn format_of(path: &Path, bytes: &[u8]) -> Option<Format> {
    if let Some(f) = Format::detect(bytes) {
        return Some(f);
    }
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    FORMATS
        .into_iter()
        .find(|f| f.name().eq_ignore_ascii_case(&ext))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files_under(&path, out)?;
        } else if path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}
