//! The `dsnp` binary: `mmd_formats::tool` gives a downstream format `check`, `info`, `dump`,
//! `explain`, `diff` and `build` from one call (src/bin/dsnp.rs). Each expected line below
//! was read off the hand-laid sample `UTF16_WIDTH1` (tests/common), whose layout is:
//! 0..4 signature, 4 encoding, 5 joint width, 6..10 title length, 10..14 title, 14..30
//! author, 30..32 step count, then step 0 at 32 (joint 32, flags 33, weight 34..38, tag 38,
//! turn 39..43) and step 1 at 43 (joint 43, flags 44, tag 45); 46 bytes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder of its own under the target directory, emptied first.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dsnp-tool-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn dsnp(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dsnp"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("dsnp runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The first sample as `a.dsnp`, and the same file with step 0's weight 1.0 as `b.dsnp`.
fn two_files(name: &str) -> PathBuf {
    let dir = folder(name);
    let a = common::UTF16_WIDTH1.to_vec();
    let mut b = a.clone();
    b[34..38].copy_from_slice(&1.0f32.to_le_bytes());
    std::fs::write(dir.join("a.dsnp"), &a).unwrap();
    std::fs::write(dir.join("b.dsnp"), &b).unwrap();
    dir
}

#[test]
fn check_reads_writes_back_and_names_what_it_does_not_know() {
    let dir = two_files("check");
    std::fs::write(dir.join("x.bin"), b"MZ\x90\x00").unwrap();
    let out = dsnp(&["check", "a.dsnp", "b.dsnp", "x.bin"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "ok      a.dsnp (DSNP)\n\
         ok      b.dsnp (DSNP)\n\
         unsupported x.bin: no known signature (DSNP); the file starts with 4d 5a 90 00 \
         (\"MZ..\")\n\
         3 files: 2 byte-exact, 0 failed, 1 unsupported\n"
    );
    // Every sample, in a folder walked by check.
    let all = folder("check-all");
    for (name, bytes) in common::samples() {
        std::fs::write(all.join(format!("{name}.dsnp")), bytes).unwrap();
    }
    let out = dsnp(&["check", "."], &all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with("4 files: 4 byte-exact, 0 failed, 0 unsupported\n"));
    // A tool without built-in samples needs a PATH.
    let out = dsnp(&["check"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "dsnp check: give a PATH to check: dsnp has no built-in samples\n"
    );
}

#[test]
fn a_corrupt_file_fails_with_its_offset_and_field() {
    let dir = folder("corrupt");
    let mut bytes = common::UTF16_WIDTH1.to_vec();
    bytes[5] = 3; // a joint width the header may not declare
    std::fs::write(dir.join("c.dsnp"), &bytes).unwrap();
    let out = dsnp(&["check", "c.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let line = text(&out.stdout);
    assert!(line.starts_with("FAILED  c.dsnp (DSNP): "), "{line}");
    assert!(line.contains("0x5"), "{line}");
    let out = dsnp(&["info", "c.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("dsnp info: c.dsnp (DSNP): "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn info_shows_every_top_level_value() {
    let dir = two_files("info");
    let out = dsnp(&["info", "a.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "file: a.dsnp\n\
         format: DSNP\n\
         size: 46\n\
         header: magic DSNP, encoding 0, joint_width 1\n\
         title: ab\n\
         author: Miku\n\
         steps: 2\n\
         trailing: 0 bytes\n"
    );
    let out = dsnp(&["info", "--json", "a.dsnp"], &dir);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json,
        serde_json::json!({
            "path": "a.dsnp", "format": "DSNP", "size": 46,
            "header": {"magic": "DSNP", "encoding": 0, "joint_width": 1},
            "title": "ab", "author": "Miku", "steps": 2, "trailing": "0 bytes"
        })
    );
}

#[test]
fn a_dump_builds_back_to_the_same_bytes() {
    let dir = two_files("build");
    let out = dsnp(&["dump", "--json", "a.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::write(dir.join("a.json"), &out.stdout).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["steps"][0]["weight"], 0.5);
    // By OUT's extension, and by --format in any case.
    let out = dsnp(&["build", "a.json", "-o", "c.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "wrote c.dsnp (DSNP, 46 bytes)\n");
    assert_eq!(
        std::fs::read(dir.join("c.dsnp")).unwrap(),
        common::UTF16_WIDTH1
    );
    let out = dsnp(
        &["build", "--format", "DSNP", "a.json", "-o", "c.bin"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(dir.join("c.bin")).unwrap(),
        common::UTF16_WIDTH1
    );
    // No format from either: a usage error that names the tool's own.
    let out = dsnp(&["build", "a.json", "-o", "d.bin"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "dsnp build: cannot tell which format to build: give --format dsnp, or an OUT ending \
         in .dsnp (not d.bin)\n"
    );
    let out = dsnp(&["build", "--format", "pmx", "a.json", "-o", "d.bin"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("[possible values: dsnp]"));
    // The text dump names every field.
    let out = dsnp(&["dump", "a.dsnp"], &dir);
    let dump = text(&out.stdout);
    assert!(dump.contains("    weight: 0.5\n"), "{dump}");
    assert!(dump.contains("    motion: Motion::Turn(90.0)\n"), "{dump}");
}

#[test]
fn explain_names_the_field_of_a_byte_also_in_a_cut_file() {
    let dir = two_files("explain");
    let out = dsnp(&["explain", "a.dsnp", "35"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "offset: 0x23 (35), byte 1 of the field\n\
         field:  steps[0].weight\n\
         range:  0x22..0x26 (4 bytes)\n\
         bytes:  00 00 00 3f\n\
         value:  0.5\n"
    );
    // Cut inside step 0's weight: the flags before it are still explained.
    std::fs::write(dir.join("cut.dsnp"), &common::UTF16_WIDTH1[..36]).unwrap();
    let out = dsnp(&["explain", "cut.dsnp", "33"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("field:  steps[0].flags\n"));
    assert!(
        text(&out.stderr).starts_with("dsnp explain: warning: cut.dsnp (DSNP) is truncated: "),
        "{}",
        text(&out.stderr)
    );
    let out = dsnp(&["explain", "a.dsnp", "46"], &dir);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diff_prints_the_field_that_differs() {
    let dir = two_files("diff");
    let out = dsnp(&["diff", "a.dsnp", "b.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "steps[0].weight: 0.5 -> 1.0\n");
    let out = dsnp(&["diff", "a.dsnp", "a.dsnp"], &dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_help_is_the_tools_own() {
    let out = dsnp(&["--help"], Path::new("."));
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(
        help.starts_with("Byte-exact tools for DSNP (dance snippet) files.\n"),
        "{help}"
    );
    assert!(help.contains("Formats: DSNP."), "{help}");
    for command in ["check", "info", "dump", "explain", "diff", "build"] {
        assert!(
            help.contains(&format!("\n  {command} ")),
            "{command}: {help}"
        );
    }
}
