//! Runs the `mmd-fuzz` binary briefly on the built-in samples: it must find no failure and
//! must exercise every format.

use std::process::Command;

/// The exec count `mmd-fuzz` printed for `fmt` (`fmt: N execs, ...`), if it printed one.
fn execs(stdout: &str, fmt: &str) -> Option<u64> {
    let rest = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{fmt}: ")))?;
    rest.split_once(" execs")?.0.parse().ok()
}

#[test]
fn fuzz_three_seconds_finds_nothing_and_covers_every_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_mmd-fuzz"))
        .args(["--seconds", "3", "--seed", "1"])
        .output()
        .expect("run mmd-fuzz");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "mmd-fuzz failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    for fmt in ["pmx", "pmd", "vmd", "vpd"] {
        let n =
            execs(&stdout, fmt).unwrap_or_else(|| panic!("no `{fmt}: N execs` line in:\n{stdout}"));
        assert!(n > 0, "{fmt}: 0 execs in:\n{stdout}");
    }
}

#[test]
fn fuzz_rejects_an_unknown_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_mmd-fuzz"))
        .args(["--format", "obj", "--seconds", "1"])
        .output()
        .expect("run mmd-fuzz");
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
}

#[test]
fn fuzz_one_format_reports_only_that_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_mmd-fuzz"))
        .args(["--format", "vpd", "--seconds", "1", "--seed", "7"])
        .output()
        .expect("run mmd-fuzz");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(execs(&stdout, "vpd").is_some_and(|n| n > 0), "{stdout}");
    assert_eq!(execs(&stdout, "pmx"), None, "{stdout}");
}
