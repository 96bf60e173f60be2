//! `mmd build` (issue 13): the README's worked example run for real (`mmd dump --json |
//! jq | mmd build - && mmd diff`), grammar-breaking JSON rejected with its JSON path and
//! nothing written, the format from `--format` or OUT's extension, never over the input,
//! exit codes in `--help`.
#![cfg(feature = "cli")]

mod cli_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_common::{mmd_with_input as mmd, TempDir};
use mmd_formats::pmx::Pmx;

fn mmd_bin() -> &'static str {
    env!("CARGO_BIN_EXE_mmd")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A PMX sample with a material, written to `dir/a.pmx`.
fn pmx_with_material(dir: &TempDir) -> (PathBuf, Pmx) {
    let (bytes, pmx) = mmd_formats::samples::pmx_samples()
        .into_iter()
        .map(|(_, b)| {
            let p = Pmx::from_bytes(&b).unwrap();
            (b, p)
        })
        .find(|(_, p)| !p.materials.is_empty() && p.materials[0].diffuse[0] != 0.25)
        .expect("a PMX sample with a material");
    let path = dir.file("a.pmx");
    std::fs::write(&path, bytes).unwrap();
    (path, pmx)
}

#[test]
fn the_readme_example_changes_one_field() {
    let dir = TempDir::new("readme");
    let (_, pmx) = pmx_with_material(&dir);
    // The README's example, as a user pastes it (jq must be installed).
    let script = format!(
        "set -e; mmd() {{ '{}' \"$@\"; }}; cd '{}'; \
         mmd dump --json a.pmx | jq '.materials[0].diffuse[0] = 0.25' \
           | mmd build --format pmx - -o b.pmx && mmd diff a.pmx b.pmx",
        mmd_bin(),
        dir.path().display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    let stdout = text(&out.stdout);
    // `mmd diff` exits 1: the files differ, in exactly the one field.
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let old = pmx.materials[0].diffuse[0];
    let size = std::fs::metadata(dir.file("b.pmx")).unwrap().len();
    assert_eq!(
        stdout,
        format!("wrote b.pmx (PMX, {size} bytes)\nmaterials[0].diffuse[0]: {old:?} -> 0.25\n")
    );
    assert_eq!(
        Pmx::read_path(dir.file("b.pmx")).unwrap().materials[0].diffuse[0],
        0.25
    );
}

#[test]
fn a_dump_builds_back_byte_exact_from_a_file_and_from_stdin() {
    let dir = TempDir::new("exact");
    let (a, _) = pmx_with_material(&dir);
    let dump = mmd(&["dump", "--json", a.to_str().unwrap()], None);
    assert!(dump.status.success());
    let json = dir.file("a.json");
    std::fs::write(&json, &dump.stdout).unwrap();
    let out = mmd(
        &[
            "build",
            json.to_str().unwrap(),
            "-o",
            dir.file("b.pmx").to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(dir.file("b.pmx")).unwrap(),
        std::fs::read(&a).unwrap()
    );
    let out = mmd(
        &[
            "build",
            "--format",
            "PMX",
            "-",
            "-o",
            dir.file("c.bin").to_str().unwrap(),
        ],
        Some(&dump.stdout),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(dir.file("c.bin")).unwrap(),
        std::fs::read(&a).unwrap()
    );
}

#[test]
fn json_that_breaks_the_grammar_writes_nothing() {
    let dir = TempDir::new("bad");
    let (a, _) = pmx_with_material(&dir);
    let dump = text(&mmd(&["dump", "--json", a.to_str().unwrap()], None).stdout);
    let bad = dump.replacen("\"diffuse\":[", "\"diffuse\":[\"red\",", 1);
    let before = dir.names();
    let out = mmd(
        &["build", "-", "-o", dir.file("b.pmx").to_str().unwrap()],
        Some(bad.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "mmd build: standard input: $.materials[0].diffuse: expected an array of 4, found an array of 5\n"
    );
    assert_eq!(dir.names(), before, "nothing may be written");
    let out = mmd(
        &["build", "-", "-o", dir.file("b.pmx").to_str().unwrap()],
        Some(b"{\"header\":"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "mmd build: standard input: line 1, column 11: expected a value, found the end of the text\n"
    );
    assert_eq!(dir.names(), before, "nothing may be written");
}

#[test]
fn the_format_and_the_output_are_checked_first() {
    let dir = TempDir::new("usage");
    let json = dir.file("in.json");
    std::fs::write(&json, "{}").unwrap();
    let j = json.to_str().unwrap();
    let out = mmd(
        &["build", j, "-o", dir.file("out.bin").to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot tell which format to build"),
        "{}",
        text(&out.stderr)
    );
    let out = mmd(&["build", "--format", "vmd", j, "-o", j], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("refusing to overwrite it"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "{}");
    let out = mmd(
        &[
            "build",
            dir.file("missing.json").to_str().unwrap(),
            "-o",
            dir.file("x.vmd").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let help = text(&mmd(&["build", "--help"], None).stdout);
    for line in [
        "Exit codes:",
        "  0  the file was built and written",
        "  1  the input is not JSON",
        "  2  usage error",
    ] {
        assert!(help.contains(line), "{line:?} not in:\n{help}");
    }
    assert!(Path::new(&json).exists());
}
