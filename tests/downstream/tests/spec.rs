//! The downstream format's reference and Kaitai grammar, rendered through mmd-spec's public
//! API from the same annotations as its reader: committed beside the crate (refresh with
//! `MMD_SPEC_BLESS=1`), and the grammar, compiled by the real Kaitai compiler, reads every
//! sample to its last byte into exactly the fields our reader reads.

mod common;

use mmd_downstream::Dsnp;
use mmd_formats::walk::Value as Walked;
use mmd_spec::{render_ksy, render_markdown, Spec};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn spec() -> Spec {
    Spec::of::<Dsnp>().expect("Dsnp describes itself")
}

#[test]
fn the_reference_renders_through_the_public_api() {
    let s = spec();
    assert_eq!(
        (s.id.as_str(), s.title.as_str()),
        ("dsnp", "DSNP (dance snippet)")
    );
    let md = render_markdown(&s);
    // The context, with where each member comes from and what it accepts.
    assert!(md.contains("## DsnpContext"), "{md}");
    assert!(md.contains("| `joint_width` | `u8` | `header.joint_width` | 1, 2, 4 |"));
    // The leaves describe themselves: the downstream index kind, the two kinds of text.
    assert!(md.contains("`JointIndex` ([Index](#index)) | index (joint)"));
    assert!(md.contains("`PmxText` ([PmxText](#pmxtext)) | text (4 + length)"));
    assert!(md.contains("`ShiftJis<16>` ([ShiftJis](#shiftjis)) | 16"));
    let ksy = render_ksy(&s).expect("every part has a Kaitai form");
    assert!(ksy.contains("joint_width:\n    value: header.joint_width"));
    assert!(ksy.contains("switch-on: _root.joint_width\n"));
    assert!(ksy.contains("if: flags.weighted"));
    for (file, text) in [("reference/dsnp.md", md), ("reference/dsnp.ksy", ksy)] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        if std::env::var_os("MMD_SPEC_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let current = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{} is missing ({e}): run with MMD_SPEC_BLESS=1",
                path.display()
            )
        });
        assert!(
            current == text,
            "{} is out of date: run with MMD_SPEC_BLESS=1 and review the diff",
            path.display()
        );
    }
}

/// The Kaitai checker beside mmd-spec, or `None` when it cannot run here (an error with
/// `MMD_KAITAI=require`).
fn checker() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mmd-spec/kaitai-check");
    let ready = dir.join("node_modules/kaitai-struct-compiler").is_dir()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if ready {
        return Some(dir);
    }
    assert!(
        std::env::var("MMD_KAITAI").as_deref() != Ok("require"),
        "MMD_KAITAI=require but Node.js or {}/node_modules is missing: run `npm ci --prefix \
         mmd-spec/kaitai-check`",
        dir.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped: the Kaitai cross-check needs Node.js and `npm ci --prefix mmd-spec/kaitai-check`"
    );
    None
}

#[test]
fn the_kaitai_grammar_reads_every_sample_as_we_do() {
    let Some(dir) = checker() else { return };
    let tmp = std::env::temp_dir().join(format!("mmd-downstream-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let ksy = tmp.join("dsnp.ksy");
    std::fs::write(&ksy, render_ksy(&spec()).unwrap()).unwrap();
    let root = spec().root;
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for (name, bytes) in common::samples() {
        let path = tmp.join(format!("{name}.dsnp"));
        std::fs::write(&path, &bytes).unwrap();
        let ours = Walked::of(&Dsnp::from_bytes(&bytes).unwrap());
        let tree = mmd_spec::ksy::expected_tree(&ours, root).unwrap();
        expected.push(serde_json::from_str::<Value>(&tree).unwrap());
        files.push(path);
    }
    let out = Command::new("node")
        .arg(dir.join("tree.js"))
        .arg(&ksy)
        .args(&files)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        files.len(),
        "one line per file: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for ((file, ours), line) in files.iter().zip(&expected).zip(lines) {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            r["ok"],
            Value::Bool(true),
            "{}: {}",
            file.display(),
            r["error"]
        );
        assert_eq!(&r["tree"], ours, "{}", file.display());
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
