//! Issue 25: every command peaks at no more than 4x its input plus 64 MB. The peak is the
//! child process's max RSS as the kernel counts it (`wait4`), whatever the command
//! prints (the printed output goes to a pipe that is read as it comes).
//!
//! Before the bounded forms (measured with `/usr/bin/time -f %M` on the same inputs):
//! `mmd explain` of the 54-byte VMD whose bone count says 600,000 took 1.77 GB, of the PMD
//! and PMX one-byte mutants more than 3.5 GB (killed at a 4 GB limit); explain, dump and
//! diff of `gene.pmx` (2.8 MB) 258, 200 and 388 MB. Each of these fails the bound.
#![cfg(all(feature = "cli", target_os = "linux"))]

mod cli_common;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};

use cli_common::{s, TempDir};

/// Runs `mmd` with `args`, reading (and dropping) what it prints; returns its exit status
/// and its peak resident memory in bytes.
fn peak(args: &[&str]) -> (ExitStatus, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot run the mmd binary");
    let mut out = child.stdout.take().expect("a piped stdout");
    let mut sink = [0u8; 1 << 16];
    while out.read(&mut sink).is_ok_and(|n| n > 0) {}
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: wait4 writes into the two locals it is given; the child is ours and not
    // waited for elsewhere (`child` is forgotten below, so its drop does not wait).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(
        waited,
        pid,
        "wait4 failed: {}",
        std::io::Error::last_os_error()
    );
    std::mem::forget(child);
    // ru_maxrss is in kilobytes on Linux.
    (
        ExitStatus::from_raw(status),
        usage.ru_maxrss.max(0) as u64 * 1024,
    )
}

/// The bound of issue 25 for inputs of `len` bytes in all.
fn bound(len: u64) -> u64 {
    4 * len + (64 << 20)
}

/// Checks `mmd args` (whose inputs take `len` bytes) against the bound; returns the peak.
#[track_caller]
fn within(args: &[&str], len: u64) -> u64 {
    let (status, rss) = peak(args);
    assert!(
        status.code().is_some(),
        "mmd {args:?} ended by a signal: {status:?}"
    );
    assert!(
        rss <= bound(len),
        "mmd {args:?}: peak {rss} bytes, bound {} for {len} bytes of input",
        bound(len)
    );
    rss
}

/// The 54-byte VMD of issue 25: signature, NULs to 30 bytes, a 20-byte model name, then
/// a bone count of 600,000 (0x000927c0) and nothing after it.
fn vmd_600000() -> Vec<u8> {
    let mut b = b"Vocaloid Motion Data 0002".to_vec();
    b.resize(30, 0);
    b.extend_from_slice(b"model");
    b.resize(50, 0);
    b.extend_from_slice(&[0xc0, 0x27, 0x09, 0x00]);
    assert_eq!(b.len(), 54);
    b
}

#[test]
fn the_inputs_of_issue_25_stay_within_the_bound() {
    let dir = TempDir::new("memory");
    let mut cases = vec![(dir.write("t.vmd", &vmd_600000()), 54u64)];
    for (name, at, new) in [
        ("pmd/mmdagent_bootscreen.pmd", 693, &[0xff, 0xff, 0xff][..]),
        ("pmx/manim_ik_multi_axis_limit.pmx", 670, &[0x01][..]),
    ] {
        let Some(mut bytes) = mmd_tests::fixture(name) else {
            continue;
        };
        bytes[at..at + new.len()].copy_from_slice(new);
        let file = dir.write(name.rsplit('/').next().unwrap(), &bytes);
        cases.push((file, bytes.len() as u64));
    }
    let mut worst = 0;
    for (file, len) in &cases {
        let f = s(file);
        for args in [
            vec!["explain", f, "0"],
            vec!["explain", "--json", f, "0"],
            vec!["dump", f],
            vec!["dump", "--json", f],
            vec!["diff", f, f],
            vec!["info", f],
            vec!["check", f],
        ] {
            let n = if args[0] == "diff" { 2 * len } else { *len };
            worst = worst.max(within(&args, n));
        }
    }
    eprintln!(
        "issue 25 inputs: {} files, largest peak {worst} bytes",
        cases.len()
    );
}

/// A valid file of a few megabytes: dump, explain and diff hold a few times its size,
/// not the 70 to 230 times the whole walk tree took.
#[test]
fn a_large_valid_file_stays_within_the_bound() {
    let Some(path) = mmd_tests::fixture_path("pmx/gene.pmx") else {
        return assert!(!mmd_tests::corpus_required());
    };
    let len = std::fs::metadata(&path).unwrap().len();
    let dir = TempDir::new("memory-large");
    // One bit changed near the end: the files differ in one float.
    let mut other = std::fs::read(&path).unwrap();
    let at = other.len() - 5;
    other[at] ^= 1;
    let other = dir.write("other.pmx", &other);
    let p = path.to_str().unwrap();
    let middle = (len / 2).to_string();
    let mut worst = 0;
    for args in [
        vec!["explain", p, "0", &middle],
        vec!["dump", p],
        vec!["dump", "--json", p],
        vec!["diff", p, p],
        vec!["diff", p, s(&other)],
        vec!["diff", "--json", p, s(&other)],
    ] {
        let n = if args[0] == "diff" { 2 * len } else { len };
        worst = worst.max(within(&args, n));
    }
    eprintln!("gene.pmx ({len} bytes): largest peak {worst} bytes");
}

/// Cuts of a valid file at a spread of offsets, each explained at its first and last
/// byte: a cut file is completed with at most a few MiB of zeros, never to the size its
/// counts invent.
#[test]
fn cut_files_are_explained_within_the_bound() {
    let Some(bytes) = mmd_tests::fixture("pmx/gene.pmx") else {
        return assert!(!mmd_tests::corpus_required());
    };
    let dir = TempDir::new("memory-cut");
    for k in 1..6 {
        let cut = &bytes[..bytes.len() * k / 6];
        let file = dir.write(&format!("cut{k}.pmx"), cut);
        let last = (cut.len() - 1).to_string();
        within(&["explain", s(&file), "0", &last], cut.len() as u64);
    }
}
