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

/// Whether `path` is a FIFO (not replaced by a regular file).
fn is_fifo(path: &std::path::Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Issue 25 item 4: an `-o` that names a FIFO is written into, never replaced by a regular
/// file; a FIFO no process reads is refused at once (exit 2), not waited on.
#[test]
fn an_output_fifo_is_written_into_or_refused_never_replaced() {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let dir = TempDir::new("hostile-out-fifo");
    let vmd = dir.write("m.vmd", &sample("vmd"));
    let fifo = dir.file("out.vmd");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let o = mmd(&["vmd", "mirror", s(&vmd), "-o", s(&fifo)]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a FIFO that no process reads"),
        "expected a refusal naming the FIFO without a reader, found {}",
        stderr(&o)
    );
    assert!(is_fifo(&fifo), "the FIFO was replaced");
    // With a reader (opened first, without waiting for a writer) it is written into.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let o = mmd(&["vmd", "mirror", s(&vmd), "-o", s(&fifo)]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let mut got = Vec::new();
    let _ = reader.read_to_end(&mut got);
    assert!(is_fifo(&fifo), "the FIFO was replaced");
    let mirrored = dir.file("mirrored.vmd");
    let o = mmd(&["vmd", "mirror", s(&vmd), "-o", s(&mirrored)]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert_eq!(
        got,
        std::fs::read(&mirrored).unwrap(),
        "the bytes read from the FIFO"
    );
}

/// `-o /dev/stdout` writes into standard input's pipe (here the harness's), not a file
/// beside /proc/self/fd/1.
#[test]
fn dev_stdout_as_output_is_written_into() {
    let dir = TempDir::new("hostile-out-stdout");
    let vmd = dir.write("m.vmd", &sample("vmd"));
    let dumped = mmd(&["dump", "--json", s(&vmd)]);
    let json = dir.write("m.json", &dumped.stdout);
    let o = mmd(&["build", "--format", "vmd", s(&json), "-o", "/dev/stdout"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let want = sample("vmd");
    assert!(
        o.stdout.starts_with(&want),
        "expected the {} bytes of the VMD first on stdout, found {} bytes",
        want.len(),
        o.stdout.len()
    );
}

/// A directory as `-o` is refused, saying what it is.
#[test]
fn a_directory_as_output_is_refused() {
    let dir = TempDir::new("hostile-out-dir");
    let vmd = dir.write("m.vmd", &sample("vmd"));
    let out = dir.file("sub");
    std::fs::create_dir(&out).unwrap();
    let o = mmd(&["vmd", "mirror", s(&vmd), "-o", s(&out)]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("it is a directory, not a regular file"),
        "{}",
        stderr(&o)
    );
    assert!(out.is_dir());
}

/// The diffuse colour of material 0 and the model name of a PMX.
fn colour_and_name(path: &std::path::Path) -> ([f32; 4], String) {
    let pmx = mmd_formats::pmx::Pmx::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    (
        pmx.materials[0].diffuse,
        pmx.model.name.to_string_lossy().into_owned(),
    )
}

/// Issue 25 item 5: two `--in-place` edits of one file at once both land (the second
/// waits for the first's lock and edits its result), or one is refused with a message
/// saying the input changed; never both exit 0 with one edit lost.
#[test]
fn concurrent_in_place_edits_lose_no_edit() {
    let dir = TempDir::new("hostile-concurrent");
    for run in 0..10 {
        let pmx = dir.write(&format!("m{run}.pmx"), &sample("pmx"));
        let spawn = |args: &[&str]| {
            Command::new(env!("CARGO_BIN_EXE_mmd"))
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let recolor = spawn(&[
            "pmx",
            "recolor",
            s(&pmx),
            "--material",
            "0",
            "--rgb",
            "0.25,0.5,0.75",
            "--in-place",
        ]);
        let rename = spawn(&["pmx", "rename", s(&pmx), "--model", "both", "--in-place"]);
        let (a, b) = (
            recolor.wait_with_output().unwrap(),
            rename.wait_with_output().unwrap(),
        );
        let (colour, name) = colour_and_name(&pmx);
        let recolored = colour[..3] == [0.25, 0.5, 0.75];
        let renamed = name == "both";
        for (o, landed, what) in [(&a, recolored, "recolor"), (&b, renamed, "rename")] {
            match code(o) {
                Some(0) => assert!(landed, "run {run}: {what} exited 0 but is not in the file"),
                Some(2) => assert!(
                    stderr(o).contains("the input changed since it was read"),
                    "run {run}: {what} refused without saying why: {}",
                    stderr(o)
                ),
                other => panic!("run {run}: {what} exited {other:?}: {}", stderr(o)),
            }
        }
        let leftovers: Vec<String> = dir
            .names()
            .into_iter()
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "run {run}: temporary files left: {leftovers:?}"
        );
    }
}

/// An in-place edit waits for a lock held on its input; when the file was replaced
/// meanwhile, it edits the new file (both changes are kept), not the one it first opened.
#[test]
fn an_in_place_edit_waits_for_the_lock_and_edits_the_new_file() {
    use std::os::fd::AsRawFd;
    let dir = TempDir::new("hostile-lock");
    let pmx = dir.write("m.pmx", &sample("pmx"));
    let held = std::fs::File::open(&pmx).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX) }, 0);
    let child = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["pmx", "rename", s(&pmx), "--model", "second", "--in-place"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Another writer replaces the file (as an edit renames its result over it).
    let recolored = dir.file("recolored.pmx");
    let o = mmd(&[
        "pmx",
        "recolor",
        s(&pmx),
        "--material",
        "0",
        "--rgb",
        "0,1,0",
        "-o",
        s(&recolored),
    ]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    std::thread::sleep(std::time::Duration::from_millis(200));
    std::fs::rename(&recolored, &pmx).unwrap();
    drop(held);
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let (colour, name) = colour_and_name(&pmx);
    assert_eq!(
        (colour[..3].to_vec(), name.as_str()),
        (vec![0.0, 1.0, 0.0], "second")
    );
}

/// Issue 25 item 7: a SIGINT, SIGTERM or SIGHUP while the temporary file of an
/// `--in-place` edit exists removes it; the process still ends by that signal and the
/// input is either as it was or the whole result. The test watches the folder and sends
/// the signal once the temporary file appears; it fails if it never sees one.
#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    use mmd_formats::vmd::{BoneKey, Vmd};
    use std::os::unix::process::ExitStatusExt;
    let dir = TempDir::new("hostile-signal");
    let mut big = Vmd::new_v2("big").unwrap();
    let arm = mmd_formats::ShiftJis::new("左腕").unwrap();
    for f in 0..300_000u32 {
        big.bone_keys
            .push(BoneKey::new(arm, f, [1.0, 0.0, 0.0], [0.0, 0.3, 0.1, 0.9]));
    }
    let original = big.to_bytes().unwrap();
    let mut mirrored = big.clone();
    mirrored.mirror(&Default::default());
    let mirrored = mirrored.to_bytes().unwrap();
    let mut caught = 0;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        for attempt in 0..5 {
            let path = dir.write("big.vmd", &original);
            let mut child = Command::new(env!("CARGO_BIN_EXE_mmd"))
                .args(["vmd", "mirror", s(&path), "--in-place"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut seen = false;
            while child.try_wait().unwrap().is_none() {
                if dir.names().iter().any(|n| n.ends_with(".tmp")) {
                    // SAFETY: kill with the pid of a child this test started.
                    unsafe { libc::kill(child.id() as i32, signal) };
                    seen = true;
                    break;
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            let status = child.wait().unwrap();
            let left: Vec<String> = dir
                .names()
                .into_iter()
                .filter(|n| n.ends_with(".tmp"))
                .collect();
            assert!(
                left.is_empty(),
                "signal {signal}, attempt {attempt}: left {left:?}"
            );
            let now = std::fs::read(&path).unwrap();
            assert!(
                now == original || now == mirrored,
                "the input is neither before nor after"
            );
            if seen {
                assert_eq!(
                    status.signal(),
                    Some(signal),
                    "ended by the signal: {status:?}"
                );
                caught += 1;
                break;
            }
        }
    }
    assert!(
        caught >= 2,
        "the temporary file was seen in only {caught} of 3 signals' runs"
    );
}

/// `--in-place` keeps the file's owner and group (run as root, which may give them; as
/// anyone else the file is theirs and stays so) and its mode.
#[test]
fn an_in_place_edit_keeps_owner_group_and_mode() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = TempDir::new("hostile-owner");
    let pmx = dir.write("m.pmx", &sample("pmx"));
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(&pmx, Some(4321), Some(4321)).unwrap();
    }
    std::fs::set_permissions(&pmx, std::fs::Permissions::from_mode(0o640)).unwrap();
    let before = std::fs::metadata(&pmx).unwrap();
    let o = mmd(&["pmx", "rename", s(&pmx), "--model", "owned", "--in-place"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let after = std::fs::metadata(&pmx).unwrap();
    assert_ne!(before.ino(), after.ino(), "the file was replaced");
    assert_eq!(
        (after.uid(), after.gid()),
        (before.uid(), before.gid()),
        "owner and group"
    );
    assert_eq!(after.permissions().mode() & 0o7777, 0o640, "mode");
}

/// Issue 25: `mmd --help` says what happens with devices, pipes, concurrent edits and
/// signals.
#[test]
fn the_help_says_what_happens_with_devices_pipes_edits_and_signals() {
    let help = cli_common::stdout(&mmd(&["--help"]));
    for needle in [
        "a device, a FIFO,",
        "a character device or a FIFO (-o /dev/stdout) is written into, never replaced",
        "removed on SIGINT, SIGTERM or SIGHUP",
        "--in-place locks its input",
        "a change by any other program meanwhile is\nrefused",
    ] {
        assert!(
            help.contains(needle),
            "--help should say {needle:?}: {help}"
        );
    }
}

/// Issue 25 item 10: `mmd man --help` and `mmd completions --help` each carry their own
/// exit codes (a page that cannot be written is man's; an unknown shell is completions').
#[test]
fn man_and_completions_have_their_own_exit_codes() {
    let man = cli_common::stdout(&mmd(&["man", "--help"]));
    let completions = cli_common::stdout(&mmd(&["completions", "--help"]));
    assert!(man.contains("a page that cannot be written"), "{man}");
    assert!(!man.contains("unknown shell"), "{man}");
    assert!(completions.contains("an unknown shell"), "{completions}");
    assert!(!completions.contains("page"), "{completions}");
}

/// Issue 25 item 10: an error quoting a number cuts it after 40 characters (a number of
/// 100,000 digits made a message of 100,000 bytes).
#[test]
fn an_error_quotes_at_most_40_characters_of_a_number() {
    let dir = TempDir::new("hostile-long-number");
    let vmd = dir.write("m.vmd", &sample("vmd"));
    let text = cli_common::stdout(&mmd(&["dump", "--json", s(&vmd)]));
    let at = text.find("\"frame\":").expect("a VMD sample with a key") + "\"frame\":".len();
    let rest = text[at..].trim_start();
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap();
    let json = format!("{}{}{}", &text[..at], "9".repeat(100_000), &rest[digits..]);
    let path = dir.write("long.json", json.as_bytes());
    let o = mmd(&[
        "build",
        "--format",
        "vmd",
        s(&path),
        "-o",
        s(&dir.file("o.vmd")),
    ]);
    assert_eq!(code(&o), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let want = format!("found the number {}… (100000 characters)", "9".repeat(40));
    assert!(err.contains(&want), "expected {want:?} in {err}");
    assert!(err.len() < 400, "a message of {} bytes", err.len());
}

/// Issue 25 item 10: a VPD `source` holding a character Shift_JIS lacks names where it is
/// (line, column, character index) and quotes at most 40 characters of it, not the whole
/// source.
#[test]
fn a_source_character_shift_jis_lacks_is_placed_and_cut() {
    let dir = TempDir::new("hostile-vpd-source");
    let vpd = dir.write("p.vpd", &sample("vpd"));
    let mut doc = cli_common::json(&mmd(&["dump", "--json", s(&vpd)]));
    let source = doc["source"].as_str().expect("a VPD source").to_owned();
    let first_line = source.split('\n').next().unwrap().chars().count();
    // The emoji opens line 2: column 1, character first_line + 1 (after the line feed).
    doc["source"] = source.replacen('\n', "\n😀", 1).into();
    let path = dir.write("p.json", doc.to_string().as_bytes());
    let o = mmd(&[
        "build",
        "--format",
        "vpd",
        s(&path),
        "-o",
        s(&dir.file("o.vpd")),
    ]);
    assert_eq!(code(&o), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let want = format!(
        "$.source: expected text Shift_JIS can encode, found '😀' (U+1F600) at line 2, \
         column 1 (character {})",
        first_line + 1
    );
    assert!(err.contains(&want), "expected {want:?} in {err}");
    assert!(err.len() < 300, "a message of {} bytes: {err}", err.len());
}

/// Issue 25 item 10: a report that cannot be printed after the output file was written
/// (standard output is /dev/full) is a warning that names the file, with the edit's own
/// status 0; with no file written (`mmd info`), the failed output is still exit 2.
#[cfg(target_os = "linux")]
#[test]
fn a_report_lost_after_the_file_was_written_is_a_warning() {
    let dir = TempDir::new("hostile-full");
    let vmd = dir.write("m.vmd", &sample("vmd"));
    let out = dir.file("out.vmd");
    let full = || {
        Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    let o = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["vmd", "mirror", s(&vmd), "-o", s(&out)])
        .stdout(full())
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("was written, but its report cannot be printed"),
        "{}",
        stderr(&o)
    );
    assert!(out.is_file(), "the output was written");
    let o = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["info", s(&vmd)])
        .stdout(full())
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write the output"),
        "{}",
        stderr(&o)
    );
}
