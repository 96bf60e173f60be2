//! Issue 25: inputs that are not regular files are refused before they are read (a device
//! or a FIFO may never end), standard input is read with a bound, and `mmd build` does not
//! overwrite the file behind its standard input.
#![cfg(all(feature = "cli", unix))]

mod cli_common;

use std::process::{Command, Stdio};

use cli_common::{code, mmd, s, sample, stderr, TempDir};

/// Every command that reads one FILE, with `path` as that file.
fn readers(path: &str) -> Vec<Vec<&str>> {
    vec![
        vec!["info", path],
        vec!["dump", path],
        vec!["dump", "--json", path],
        vec!["explain", path, "0"],
        vec!["diff", path, path],
        vec!["pmx", "bones", path],
        vec!["vmd", "mirror", path, "--dry-run"],
        vec!["vmd", "sample", path, "--frame", "0", "--camera"],
        vec!["lint", path],
        vec!["pose", path, "-", "--frame", "0"],
        vec!["vmd", "trim", path, "0", "1", "--dry-run"],
        vec!["vmd", "speed", path, "2", "--dry-run"],
        vec!["vmd", "fill", path, "--dry-run"],
        vec!["pmx", "rename", path, "--model", "x", "--dry-run"],
        vec![
            "pmx",
            "recolor",
            path,
            "--material",
            "0",
            "--rgb",
            "1,0,0",
            "--dry-run",
        ],
        vec![
            "build",
            "--format",
            "vmd",
            path,
            "-o",
            "/nonexistent-dir/out.vmd",
        ],
    ]
}

/// Runs `mmd args` and checks it refused `path` (exit 2, saying it is not a regular file
/// and what it is) without reading it: a read of /dev/zero or of a FIFO with no writer
/// would not end, and the harness would hang.
#[track_caller]
fn refused(args: &[&str], kind: &str) {
    let o = mmd(args);
    // `lint` reports each file on stdout, the others on stderr.
    let err = stderr(&o) + &cli_common::stdout(&o);
    assert_eq!(code(&o), Some(2), "mmd {args:?}: {err}");
    assert!(
        err.contains("not a regular file") && err.contains(kind),
        "mmd {args:?} should say the input is {kind}: {err}"
    );
}

#[test]
fn devices_and_links_to_them_are_refused() {
    let dir = TempDir::new("hostile-devices");
    let link = dir.file("zero.vmd");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    for path in ["/dev/zero", "/dev/urandom", s(&link)] {
        for args in readers(path) {
            refused(&args, "a character device");
        }
    }
}

#[test]
fn fifos_are_refused_without_opening_them() {
    let dir = TempDir::new("hostile-fifo");
    let fifo = dir.file("pipe.pmx");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for args in readers(s(&fifo)) {
        refused(&args, "a FIFO");
    }
}

#[test]
fn a_directory_is_refused() {
    let dir = TempDir::new("hostile-dir");
    refused(&["info", s(dir.path())], "a directory");
}

/// `-` is standard input for every reader, read to its end.
#[test]
fn a_dash_reads_standard_input() {
    let vmd = sample("vmd");
    let o = cli_common::mmd_with_input(&["info", "-"], Some(&vmd));
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(cli_common::stdout(&o).contains("format: VMD"));
    let o = cli_common::mmd_with_input(&["dump", "-"], Some(&vmd));
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
}

/// Standard input without end (/dev/zero) stops at 1 GiB with exit 2, not at the end of
/// memory.
#[test]
fn endless_standard_input_is_refused_at_the_bound() {
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["info", "-"])
        .stdin(Stdio::from(zero))
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("more than 1073741824 bytes"),
        "{}",
        stderr(&o)
    );
}

/// Issue 25 item 6: `mmd build --format pmx - -o a.json < a.json` would overwrite its own
/// input; it is refused and the file is left as it was.
#[test]
fn build_refuses_the_file_behind_its_standard_input() {
    let dir = TempDir::new("hostile-build-stdin");
    let vmd = dir.write("m.vmd", &sample("vmd"));
    let dumped = mmd(&["dump", "--json", s(&vmd)]);
    assert_eq!(code(&dumped), Some(0));
    let json = dir.write("a.json", &dumped.stdout);
    let o = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["build", "--format", "vmd", "-", "-o", s(&json)])
        .stdin(Stdio::from(std::fs::File::open(&json).unwrap()))
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the file behind standard input"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&json).unwrap(), dumped.stdout);
    // Another output is fine.
    let out = dir.file("b.vmd");
    let o = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["build", "--format", "vmd", "-", "-o", s(&out)])
        .stdin(Stdio::from(std::fs::File::open(&json).unwrap()))
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), sample("vmd"));
}
