//! A closed output pipe (`mmd dump big.pmx | head`) ends a command quietly, with the status
//! of what it had found: never 2, which means trouble (for `diff`, 1 when the files
//! differ, as it would be had the reader read on).
#![cfg(feature = "cli")]

mod cli_common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use cli_common::{code, s, stderr, TempDir};
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::ShiftJis;

/// Runs `mmd` with its stdout a pipe whose reading end is already closed: its first write
/// fails as it would after `| head` had read its lines.
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("cannot make a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("cannot run the mmd binary")
}

/// Runs `mmd`, reads the first line of its output and closes the pipe, as `| head -1` does;
/// the exit code and stderr.
fn head_1(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run the mmd binary");
    let mut first = String::new();
    {
        let mut out = BufReader::new(child.stdout.take().expect("a stdout pipe"));
        out.read_line(&mut first).expect("a first line");
    }
    let output = child.wait_with_output().expect("mmd ends");
    (code(&output), first, stderr(&output))
}

/// A motion of `keys` bone keys, the position of key `i` being `i + shift`: its dump and
/// its differences from another shift run far past a pipe's buffer (64 KiB).
fn long_motion(keys: u32, shift: f32) -> Vec<u8> {
    let mut vmd = Vmd::new_v2("pipe").unwrap();
    let name = ShiftJis::new("センター").unwrap();
    for i in 0..keys {
        let position = [i as f32 + shift, 0.0, 0.0];
        vmd.bone_keys
            .push(BoneKey::new(name, i, position, [0.0, 0.0, 0.0, 1.0]));
    }
    vmd.to_bytes().unwrap()
}

#[test]
fn dump_info_explain_and_sample_end_quietly_with_0() {
    let dir = TempDir::new("pipe-read");
    let motion = dir.write("long.vmd", &long_motion(4000, 0.0));
    let m = s(&motion);
    for args in [
        vec!["dump", m],
        vec!["dump", "--json", m],
        vec!["info", m],
        vec!["explain", m, "0", "60"],
        vec!["vmd", "sample", m, "--bone", "センター", "--frame", "2.5"],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        let out = into_closed_pipe(&args);
        assert_eq!(code(&out), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    // A reader that reads a line and stops.
    let (status, first, err) = head_1(&["dump", m]);
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(first, "header: Header\n");
    assert_eq!(err, "");
}

#[test]
fn diff_ends_with_its_answer_never_2() {
    let dir = TempDir::new("pipe-diff");
    let a = dir.write("a.vmd", &long_motion(4000, 0.0));
    let b = dir.write("b.vmd", &long_motion(4000, 1.0));
    // Equal files print nothing in text; --json prints `equal: true`, and the answer is 0.
    for (args, answer) in [
        (vec!["diff", s(&a), s(&b)], 1),
        (vec!["diff", "--json", s(&a), s(&b)], 1),
        (vec!["diff", "--json", s(&a), s(&a)], 0),
    ] {
        let out = into_closed_pipe(&args);
        assert_eq!(code(&out), Some(answer), "{args:?}");
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    let (status, first, err) = head_1(&["diff", s(&a), s(&b)]);
    assert_eq!(status, Some(1), "{err}");
    assert_eq!(first, "bone_keys[0].position[0]: 0.0 -> 1.0\n");
    assert_eq!(err, "");
}

#[test]
fn check_ends_with_the_status_of_the_files_checked_so_far() {
    let good = cli_common::sample("pmx");
    let cut = &good[..good.len() / 2];
    // The first file is good: what was checked before the pipe closed passed.
    let dir = TempDir::new("pipe-check-good");
    dir.write("a.pmx", &good);
    dir.write("b.pmx", cut);
    for jobs in ["1", "2"] {
        let out = into_closed_pipe(&["check", "--jobs", jobs, s(dir.path())]);
        assert_eq!(code(&out), Some(0), "--jobs {jobs}: {}", stderr(&out));
        assert_eq!(stderr(&out), "");
    }
    // The first file fails: so does the check, quietly.
    let dir = TempDir::new("pipe-check-bad");
    dir.write("a.pmx", cut);
    dir.write("b.pmx", &good);
    for jobs in ["1", "2"] {
        let out = into_closed_pipe(&["check", "--jobs", jobs, s(dir.path())]);
        assert_eq!(code(&out), Some(1), "--jobs {jobs}: {}", stderr(&out));
        assert_eq!(stderr(&out), "");
    }
    // --json is written at the end: the status is the whole check's.
    let out = into_closed_pipe(&["check", "--json", s(dir.path())]);
    assert_eq!(code(&out), Some(1));
    assert_eq!(stderr(&out), "");
    // The built-in samples, all byte-exact.
    let out = into_closed_pipe(&["check"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}
