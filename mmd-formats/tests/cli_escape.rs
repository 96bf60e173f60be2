//! Issue 25 item 9: text a file contributes (model, bone and morph names, file names found
//! by `mmd check`) reaches text output escaped as `mmd dump` escapes it, so a name holding
//! a newline cannot print a line of its own (a forged `format:` line) and ESC, BEL and CR
//! never reach the terminal. `--json` carries the names as they are (JSON escapes them).
#![cfg(feature = "cli")]

mod cli_common;

use cli_common::{code, json, mmd, s, sample, stderr, stdout, TempDir};
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::ShiftJis;

/// A name that would forge a line and drive a terminal if printed as it is.
const EVIL: &str = "m\nformat: VMD\u{1b}[31m\u{7}\r";
/// [`EVIL`] escaped as `mmd dump` escapes text (Rust's `{:?}`, without the quotes).
const EVIL_SHOWN: &str = "m\\nformat: VMD\\u{1b}[31m\\u{7}\\r";

/// No ESC, BEL or CR in `text`, and exactly `lines` lines starting with `format:`.
#[track_caller]
fn clean(text: &str, format_lines: usize) {
    for (c, name) in [('\u{1b}', "ESC"), ('\u{7}', "BEL"), ('\r', "CR")] {
        assert!(!text.contains(c), "{name} reached the output: {text:?}");
    }
    let forged = text.lines().filter(|l| l.starts_with("format:")).count();
    assert_eq!(
        forged, format_lines,
        "lines starting with format: in {text:?}"
    );
}

/// The built-in PMX sample with its model name set to [`EVIL`] (through `mmd pmx rename`).
fn evil_model(dir: &TempDir) -> std::path::PathBuf {
    let plain = dir.write("plain.pmx", &sample("pmx"));
    let evil = dir.file("evil.pmx");
    let o = mmd(&["pmx", "rename", s(&plain), "--model", EVIL, "-o", s(&evil)]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    clean(&stdout(&o), 0);
    clean(&stderr(&o), 0);
    evil
}

#[test]
fn info_escapes_a_model_name_and_cannot_print_a_second_format_line() {
    let dir = TempDir::new("escape-info");
    let evil = evil_model(&dir);
    let o = mmd(&["info", s(&evil)]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    clean(&text, 1);
    assert!(
        text.contains(&format!("\nname: {EVIL_SHOWN}\n")),
        "expected the line `name: {EVIL_SHOWN}`, found {text}"
    );
    // --json has the name as it is, escaped by JSON.
    let doc = json(&mmd(&["info", "--json", s(&evil)]));
    assert_eq!(doc["name"], EVIL);
}

/// A VMD whose model name, bone name and morph-less keys hold control characters; its
/// bone key of `左\u{1b}\n` mirrors to `右\u{1b}\n`.
fn evil_motion(dir: &TempDir) -> std::path::PathBuf {
    let mut v = Vmd::new_v2("v\nformat: PMX\u{7}").unwrap();
    let bone = ShiftJis::new("左\u{1b}\n").unwrap();
    v.bone_keys
        .push(BoneKey::new(bone, 0, [1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]));
    dir.write("evil.vmd", &v.to_bytes().unwrap())
}

#[test]
fn info_escapes_vmd_model_and_bone_names() {
    let dir = TempDir::new("escape-vmd-info");
    let evil = evil_motion(&dir);
    let o = mmd(&["info", s(&evil)]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    clean(&text, 1);
    assert!(
        text.contains("\nmodel_name: v\\nformat: PMX\\u{7}\n"),
        "expected the escaped model name, found {text}"
    );
    assert!(
        text.contains("\nbone_names: 1 (左\\u{1b}\\n)\n"),
        "expected the escaped bone name, found {text}"
    );
}

#[test]
fn vmd_reports_and_sample_escape_track_names() {
    let dir = TempDir::new("escape-vmd-tools");
    let evil = evil_motion(&dir);
    let o = mmd(&["vmd", "mirror", s(&evil), "--dry-run"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    clean(&text, 0);
    assert!(
        text.contains("renamed bone names: 左\\u{1b}\\n -> 右\\u{1b}\\n"),
        "expected the escaped rename, found {text}"
    );
    // Every line of the report is one line: the name's newline did not split one.
    assert!(
        text.lines().all(|l| !l.is_empty()),
        "a name split a line: {text:?}"
    );
    let o = mmd(&[
        "vmd",
        "sample",
        s(&evil),
        "--frame",
        "0",
        "--bone",
        "左\u{1b}\n",
    ]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    clean(&text, 0);
    assert!(
        text.starts_with("track: bone 左\\u{1b}\\n\n"),
        "expected the escaped track, found {text}"
    );
}

#[test]
fn pmx_bones_and_rename_reports_escape_bone_names() {
    let dir = TempDir::new("escape-bones");
    let plain = dir.write("plain.pmx", &sample("pmx"));
    let renamed = dir.file("renamed.pmx");
    let o = mmd(&[
        "pmx",
        "rename",
        s(&plain),
        "--bone",
        "0",
        "b\nformat: PMD\u{1b}\u{7}\r",
        "-o",
        s(&renamed),
    ]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    clean(&stdout(&o), 0);
    let o = mmd(&["pmx", "bones", s(&renamed)]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    clean(&text, 0);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("0 "))
        .unwrap_or_else(|| panic!("no row for bone 0 in {text}"));
    assert!(
        row.ends_with("  b\\nformat: PMD\\u{1b}\\u{7}\\r"),
        "expected bone 0's escaped name at the end of its row, found {row:?}"
    );
}

/// File names are text from the file system: `mmd check` prints them escaped.
#[cfg(unix)]
#[test]
fn check_escapes_file_names() {
    let dir = TempDir::new("escape-check");
    dir.write("a\nok      forged.pmx\u{1b}[2J.vmd", &sample("vmd"));
    dir.write("b\u{7}\r.bin", b"MZ\x1b");
    let o = mmd(&["check", s(dir.path())]);
    let text = stdout(&o);
    clean(&text, 0);
    let ok: Vec<&str> = text.lines().filter(|l| l.starts_with("ok ")).collect();
    assert_eq!(ok.len(), 1, "one file reads, one `ok` line: {text}");
    assert!(
        ok[0].contains("a\\nok      forged.pmx\\u{1b}[2J.vmd (VMD)"),
        "expected the escaped name, found {:?}",
        ok[0]
    );
    assert!(
        text.contains("b\\u{7}\\r.bin: no known signature"),
        "expected the escaped name of the unsupported file, found {text}"
    );
}
