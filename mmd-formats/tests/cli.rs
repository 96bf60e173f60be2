//! The `mmd` command-line tool, run as a process: `mmd check` on the built-in samples, on a
//! temporary tree of good, truncated and unknown files, as JSON, and on the fixture corpus
//! when it is present.

#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmd_formats::inspect::{check_roundtrip, CheckOutcome, Format};
use mmd_formats::samples::{self, Sample};

/// Runs `mmd` with `args`.
fn mmd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .output()
        .expect("cannot run the mmd binary")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The four counts of a summary line `N files: N byte-exact, N failed, N unsupported`,
/// or `None` when the line does not have exactly that form.
fn parse_summary(line: &str) -> Option<[u64; 4]> {
    let (files, rest) = line.split_once(" files: ")?;
    let (exact, rest) = rest.split_once(" byte-exact, ")?;
    let (failed, rest) = rest.split_once(" failed, ")?;
    let unsupported = rest.strip_suffix(" unsupported")?;
    let n = |s: &str| -> Option<u64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some([n(files)?, n(exact)?, n(failed)?, n(unsupported)?])
}

/// A fresh directory under the system temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "mmd-cli-test-{name}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("cannot create a temporary directory");
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn shown(&self, rel: &str) -> String {
        self.0.join(rel).display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A built-in sample whose first half fails to read as truncated, with its format and the
/// error that half gives.
fn sample_and_truncated() -> (Sample, Format, Vec<u8>, mmd_formats::Error) {
    for sample in samples::all() {
        let Some(format) = Format::detect(&sample.bytes) else {
            continue;
        };
        let half = sample.bytes[..sample.bytes.len() / 2].to_vec();
        if Format::detect(&half) != Some(format) {
            continue;
        }
        if let CheckOutcome::ReadError(e) = check_roundtrip(format, &half) {
            if e.is_truncated() {
                return (sample, format, half, e);
            }
        }
    }
    panic!("no built-in sample gives a truncation error when cut in half");
}

#[test]
fn no_arguments_checks_the_builtin_samples() {
    let output = mmd(&["check"]);
    let lines = stdout_lines(&output);
    assert_eq!(output.status.code(), Some(0), "{lines:#?}");
    let all = samples::all();
    assert!(!all.is_empty());
    assert_eq!(lines.len(), all.len() + 1, "{lines:#?}");
    for (line, sample) in lines.iter().zip(&all) {
        let format = Format::detect(&sample.bytes).expect("every sample has a known format");
        assert_eq!(
            line,
            &format!("ok      <builtin>/{} ({})", sample.name, format.name())
        );
    }
    let n = all.len() as u64;
    let last = lines.last().expect("a summary line");
    assert_eq!(parse_summary(last), Some([n, n, 0, 0]), "{last}");
}

/// The tree: a valid sample, a truncated copy, a file with unknown magic, and a valid
/// copy in a nested subdirectory.
fn make_tree(dir: &TempDir) -> (Format, mmd_formats::Error) {
    let (sample, format, half, error) = sample_and_truncated();
    let unknown = b"NOT AN MMD FILE\n".to_vec();
    assert_eq!(Format::detect(&unknown), None);
    std::fs::write(dir.path().join("a_valid.bin"), &sample.bytes).unwrap();
    std::fs::write(dir.path().join("b_truncated.bin"), half).unwrap();
    std::fs::write(dir.path().join("c_unknown.bin"), unknown).unwrap();
    std::fs::create_dir_all(dir.path().join("d_sub/e_deeper")).unwrap();
    std::fs::write(
        dir.path().join("d_sub/e_deeper/f_nested.bin"),
        &sample.bytes,
    )
    .unwrap();
    (format, error)
}

#[test]
fn a_tree_of_good_truncated_and_unknown_files() {
    let dir = TempDir::new("tree");
    let (format, error) = make_tree(&dir);
    let output = mmd(&["check", dir.path().to_str().unwrap()]);
    let lines = stdout_lines(&output);
    let name = format.name();
    let expected = vec![
        format!("ok      {} ({name})", dir.shown("a_valid.bin")),
        // A cut file says so.
        format!(
            "FAILED  {} ({name}): truncated: {error}",
            dir.shown("b_truncated.bin")
        ),
        // Why it is unsupported: no signature, and what the file starts with.
        format!(
            "unsupported {}: no known signature (PMX, PMD, VMD or VPD); the file starts with \
             4e 4f 54 20 41 4e 20 4d 4d 44 20 46 49 4c 45 0a (\"NOT AN MMD FILE.\")",
            dir.shown("c_unknown.bin")
        ),
        format!(
            "ok      {} ({name})",
            dir.shown("d_sub/e_deeper/f_nested.bin")
        ),
        "4 files: 2 byte-exact, 1 failed, 1 unsupported".to_owned(),
    ];
    assert_eq!(lines, expected);
    // The error names where the file ends.
    assert!(lines[1].contains(" at 0x"), "{}", lines[1]);
    assert_eq!(output.status.code(), Some(1));
    // Any number of jobs gives the same lines in the same order, and the same status.
    for jobs in ["1", "2", "3", "16"] {
        let output = mmd(&["check", "--jobs", jobs, dir.path().to_str().unwrap()]);
        assert_eq!(stdout_lines(&output), expected, "--jobs {jobs}");
        assert_eq!(output.status.code(), Some(1), "--jobs {jobs}");
    }
}

#[test]
fn json_has_the_same_entries_and_counts() {
    let dir = TempDir::new("json");
    let (format, error) = make_tree(&dir);
    let output = mmd(&["check", "--json", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let doc: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("--json prints one JSON document");
    let summary = &doc["summary"];
    assert_eq!(summary["files"], 4);
    assert_eq!(summary["byte_exact"], 2);
    assert_eq!(summary["failed"], 1);
    assert_eq!(summary["unsupported"], 1);
    let files = doc["files"].as_array().expect("files is an array");
    let statuses: Vec<&str> = files
        .iter()
        .map(|f| f["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ok", "failed", "unsupported", "ok"]);
    let truncated = &files[1];
    assert_eq!(truncated["path"], dir.shown("b_truncated.bin"));
    assert_eq!(truncated["format"], format.name());
    assert_eq!(truncated["error"], error.to_string());
    assert_eq!(truncated["offset"], error.offset());
    let field = error.path_string();
    if field.is_empty() {
        assert!(truncated["field"].is_null());
    } else {
        assert_eq!(truncated["field"], field);
    }
    // A cut file is told apart from a corrupt one.
    assert!(error.is_truncated(), "{error}");
    assert_eq!(truncated["truncated"], true);
    let unknown = &files[2];
    assert!(unknown["format"].is_null());
    assert_eq!(
        unknown["error"],
        "no known signature (PMX, PMD, VMD or VPD); the file starts with 4e 4f 54 20 41 4e 20 \
         4d 4d 44 20 46 49 4c 45 0a (\"NOT AN MMD FILE.\")"
    );
    assert!(unknown["truncated"].is_null() && files[0]["truncated"].is_null());
    assert!(files[0]["error"].is_null() && files[0]["offset"].is_null());
}

#[test]
fn an_unreadable_path_gets_a_line_and_exit_code_2() {
    let dir = TempDir::new("missing");
    let (format, _) = make_tree(&dir);
    let missing = dir.path().join("no_such_file");
    let valid = dir.path().join("a_valid.bin");
    let output = mmd(&["check", missing.to_str().unwrap(), valid.to_str().unwrap()]);
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(
        lines[0].starts_with(&format!("FAILED  {}: cannot read: ", missing.display())),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        format!("ok      {} ({})", valid.display(), format.name())
    );
    assert_eq!(lines[2], "2 files: 1 byte-exact, 1 failed, 0 unsupported");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(mmd(&["check", "--no-such-flag"]).status.code(), Some(2));
    assert_eq!(mmd(&["no-such-command"]).status.code(), Some(2));
    for jobs in ["0", "-1", "two"] {
        let out = mmd(&["check", "--jobs", jobs]);
        assert_eq!(out.status.code(), Some(2), "--jobs {jobs}");
        assert!(out.stdout.is_empty(), "--jobs {jobs}: nothing is checked");
    }
}

#[test]
fn help_describes_the_exit_codes() {
    for args in [&["--help"][..], &["check", "--help"]] {
        let output = mmd(args);
        assert_eq!(output.status.code(), Some(0));
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains("Exit codes:"), "{text}");
        assert!(text.contains("check"), "{text}");
    }
}

#[test]
fn an_empty_directory_is_not_a_success() {
    let dir = TempDir::new("empty");
    let output = mmd(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(
        stdout_lines(&output),
        ["0 files: 0 byte-exact, 0 failed, 0 unsupported"]
    );
    assert_eq!(output.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_walked_once() {
    let dir = TempDir::new("loop");
    let (format, _) = make_tree(&dir);
    // d_sub/e_deeper/up -> d_sub: following it would walk d_sub forever.
    std::os::unix::fs::symlink(
        dir.path().join("d_sub"),
        dir.path().join("d_sub/e_deeper/up"),
    )
    .unwrap();
    let output = mmd(&["check", dir.path().join("d_sub").to_str().unwrap()]);
    let lines = stdout_lines(&output);
    assert_eq!(
        lines,
        [
            format!(
                "ok      {} ({})",
                dir.shown("d_sub/e_deeper/f_nested.bin"),
                format.name()
            ),
            "1 files: 1 byte-exact, 0 failed, 0 unsupported".to_owned(),
        ]
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn every_corpus_pmx_is_byte_exact() {
    let Some(corpus) = mmd_tests::corpus_dir() else {
        return;
    };
    let dir = corpus.join("pmx");
    let count = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().is_file()))
        .count() as u64;
    assert!(count > 0, "{} holds no files", dir.display());
    let output = mmd(&["check", dir.to_str().unwrap()]);
    let lines = stdout_lines(&output);
    assert_eq!(lines.len() as u64, count + 1, "{lines:#?}");
    for line in &lines[..lines.len() - 1] {
        assert!(
            line.starts_with("ok      ") && line.ends_with(" (PMX)"),
            "{line}"
        );
    }
    let last = lines.last().unwrap();
    assert_eq!(parse_summary(last), Some([count, count, 0, 0]), "{last}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn the_summary_parser_is_strict() {
    assert_eq!(
        parse_summary("4 files: 2 byte-exact, 1 failed, 1 unsupported"),
        Some([4, 2, 1, 1])
    );
    assert_eq!(parse_summary("4 files: 2 byte-exact, 1 failed"), None);
    assert_eq!(
        parse_summary("x files: 2 byte-exact, 1 failed, 1 unsupported"),
        None
    );
}

/// A FIFO is never opened (reading one could block forever): it is unsupported, and its
/// line says why.
#[cfg(unix)]
#[test]
fn a_fifo_is_unsupported_and_says_why() {
    let dir = TempDir::new("fifo");
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let output = mmd(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(
        stdout_lines(&output),
        [
            format!("unsupported {}: not a regular file", dir.shown("pipe")),
            "1 files: 0 byte-exact, 0 failed, 1 unsupported".to_owned(),
        ]
    );
    assert_eq!(output.status.code(), Some(1), "nothing was checked");
}
