//! Every field, not a summary: the parsers the real Kaitai compiler builds from the
//! rendered grammars must read every built-in sample and every PMX, PMD and VMD fixture to
//! its last byte into exactly the tree `mmd_spec::ksy::expected_tree` predicts from our
//! reader's value (every attribute of every record, in order).
//!
//! `kaitai-check/tree.js` is generic (it knows no format); `expected_tree` follows the
//! renderer's conventions from the descriptors. Needs Node.js and
//! `npm ci --prefix mmd-spec/kaitai-check`; without them the test says it skipped and
//! passes, unless `MMD_KAITAI=require` (as CI sets).

use mmd_formats::layout::{Describe, TypeLayout};
use mmd_formats::walk::Value as Walked;
use mmd_formats::{pmd::Pmd, pmx::Pmx, vmd::Vmd};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The checker folder, or `None` (with a line printed) when it cannot run here.
fn checker() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kaitai-check");
    let installed = dir.join("node_modules/kaitai-struct-compiler").is_dir();
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed && node_ok {
        return Some(dir);
    }
    assert!(
        std::env::var("MMD_KAITAI").as_deref() != Ok("require"),
        "MMD_KAITAI=require but Node.js or {}/node_modules is missing: run `npm ci --prefix \
         mmd-spec/kaitai-check`",
        dir.display()
    );
    say("skipped: the Kaitai tree cross-check needs Node.js and `npm ci --prefix mmd-spec/kaitai-check`");
    None
}

/// The differences between two trees, as `path: theirs != ours` lines.
fn diff(path: &str, theirs: &Value, ours: &Value, out: &mut Vec<String>) {
    match (theirs, ours) {
        (Value::Object(a), Value::Object(b)) => {
            let keys_a: Vec<&String> = a.keys().collect();
            let keys_b: Vec<&String> = b.keys().collect();
            if keys_a != keys_b {
                out.push(format!("{path}: attributes {keys_a:?} != ours {keys_b:?}"));
                return;
            }
            for (k, va) in a {
                diff(&format!("{path}.{k}"), va, &b[k], out);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a == b => {}
        (a, b) => out.push(format!("{path}: Kaitai {a} != ours {b}")),
    }
}

struct Format {
    id: &'static str,
    root: &'static TypeLayout,
    read: fn(&[u8]) -> Result<Walked, String>,
}

fn formats() -> Vec<Format> {
    fn read<T: mmd_formats::walk::Walk>(
        f: fn(&[u8]) -> mmd_formats::Result<T>,
        b: &[u8],
    ) -> Result<Walked, String> {
        f(b).map(|v| Walked::of(&v)).map_err(|e| e.to_string())
    }
    vec![
        Format {
            id: "pmx",
            root: Pmx::layout().unwrap(),
            read: |b| read(Pmx::from_bytes, b),
        },
        Format {
            id: "pmd",
            root: Pmd::layout().unwrap(),
            read: |b| read(Pmd::from_bytes, b),
        },
        Format {
            id: "vmd",
            root: Vmd::layout().unwrap(),
            read: |b| read(Vmd::from_bytes, b),
        },
    ]
}

fn files_of(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "bad") {
                files_of(&p, ext, out);
            }
        } else if p
            .extension()
            .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case(ext))
        {
            out.push(p);
        }
    }
}

#[test]
fn every_field_agrees_with_the_kaitai_parser() {
    let corpus = mmd_tests::corpus_dir();
    let Some(dir) = checker() else { return };
    let tmp = std::env::temp_dir().join(format!("mmd-kaitai-tree-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    for f in formats() {
        // (path, expected tree)
        let mut cases: Vec<(PathBuf, Value)> = Vec::new();
        let expect = |bytes: &[u8], what: &str| -> Value {
            let walked = (f.read)(bytes).unwrap_or_else(|e| panic!("{what} does not read: {e}"));
            let text = mmd_spec::ksy::expected_tree(&walked, f.root)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: bad JSON ({e})"))
        };
        for s in mmd_formats::samples::all() {
            if !s.name.ends_with(&format!(".{}", f.id)) {
                continue;
            }
            let path = tmp.join(s.name.replace(['/', '\\'], "__"));
            std::fs::write(&path, &s.bytes).unwrap();
            cases.push((path, expect(&s.bytes, &s.name)));
        }
        let samples = cases.len();
        assert!(samples > 0, "no {} sample", f.id);
        if let Some(c) = &corpus {
            let mut fixtures = Vec::new();
            files_of(c, f.id, &mut fixtures);
            assert!(
                !fixtures.is_empty(),
                "no .{} fixture in {}",
                f.id,
                c.display()
            );
            for p in fixtures {
                let bytes = std::fs::read(&p).unwrap();
                cases.push((p.clone(), expect(&bytes, &p.display().to_string())));
            }
        }
        let ksy = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("kaitai/{}.ksy", f.id));
        let out = Command::new("node")
            .arg(dir.join("tree.js"))
            .arg(&ksy)
            .args(cases.iter().map(|(p, _)| p))
            .output()
            .expect("node runs");
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "tree.js failed to run: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), cases.len(), "one line per file from tree.js");
        for ((path, ours), line) in cases.iter().zip(lines) {
            let r: Value = serde_json::from_str(line).expect("tree.js prints JSON");
            if r["ok"] != Value::Bool(true) {
                failures.push(format!("{}: {}", path.display(), r["error"]));
                continue;
            }
            let mut d = Vec::new();
            diff("", &r["tree"], ours, &mut d);
            for x in d.iter().take(10) {
                failures.push(format!("{}: {x}", path.display()));
            }
        }
        say(&format!(
            "kaitai tree cross-check: {}: {} samples + {} fixtures, every field compared",
            f.id,
            samples,
            cases.len() - samples
        ));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        failures.is_empty(),
        "the Kaitai parsers and our reader disagree ({} problem(s)):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
