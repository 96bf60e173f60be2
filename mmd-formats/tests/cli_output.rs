//! The output of every edit, PMX and VMD alike: `-o OUT`, `--in-place` and `--dry-run`.
//! A dry run writes nothing; `--in-place` through a symbolic link replaces the file it
//! points to, keeps the link a link and keeps the file's permissions; a write into a
//! missing folder names the folder and no byte offset.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmd_formats::pmx::Pmx;
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::ShiftJis;

fn mmd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .output()
        .expect("cannot run the mmd binary")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory under the system temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let d = std::env::temp_dir().join(format!("mmd-out-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Every file in the directory with its bytes, sorted by name.
    fn contents(&self) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let bytes = std::fs::read(e.path()).unwrap_or_default();
                (e.file_name().to_string_lossy().into_owned(), bytes)
            })
            .collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A PMX sample with a material and a bone, and its bytes.
fn model() -> Vec<u8> {
    mmd_formats::samples::pmx_samples()
        .into_iter()
        .map(|(_, b)| b)
        .find(|b| {
            let p = Pmx::from_bytes(b).unwrap();
            !p.materials.is_empty() && !p.bones.is_empty()
        })
        .expect("a PMX sample with a material and a bone")
}

/// A motion with keys on frames 0..=4 for two bones (`左腕` and `センター`).
fn motion() -> Vec<u8> {
    let mut v = Vmd::new("out").unwrap();
    for name in ["左腕", "センター"] {
        let name = ShiftJis::new(name).unwrap();
        for f in 0..=4u32 {
            let position = [f as f32, 0.0, 0.0];
            v.bone_keys
                .push(BoneKey::new(name, f, position, [0.0, 0.1, 0.0, 0.9]));
        }
    }
    v.to_bytes().unwrap()
}

/// Every edit, with `IN` (and `IN2` for merge's second input) to be replaced by paths;
/// each changes its input.
fn edits() -> Vec<Vec<&'static str>> {
    vec![
        vec![
            "pmx",
            "recolor",
            "IN",
            "--material",
            "0",
            "--rgb",
            "0.25,0.5,0.75",
        ],
        vec!["pmx", "rename", "IN", "--model", "新しい名前"],
        vec!["pmx", "rename", "IN", "--bone", "0", "別のボーン"],
        vec!["vmd", "mirror", "IN"],
        vec!["vmd", "trim", "IN", "1", "3"],
        vec!["vmd", "merge", "IN", "IN2"],
        vec!["vmd", "speed", "IN", "2"],
        vec!["vmd", "fill", "IN", "--end", "8"],
    ]
}

/// The input bytes of an edit's family.
fn input_for(edit: &[&str]) -> Vec<u8> {
    if edit[0] == "pmx" {
        model()
    } else {
        motion()
    }
}

/// `edit` with its inputs set and `more` appended.
fn args<'a>(edit: &[&'a str], input: &'a str, second: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = edit
        .iter()
        .map(|a| match *a {
            "IN" => input,
            "IN2" => second,
            other => other,
        })
        .collect();
    v.extend_from_slice(more);
    v
}

#[test]
fn a_dry_run_writes_nothing_for_every_edit() {
    for edit in edits() {
        let dir = TempDir::new("dry");
        let bytes = input_for(&edit);
        let (input, second) = (dir.file("in.bin"), dir.file("second.bin"));
        std::fs::write(&input, &bytes).unwrap();
        std::fs::write(&second, &bytes).unwrap();
        let before = dir.contents();
        let out = mmd(&args(&edit, s(&input), s(&second), &["--dry-run"]));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{edit:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("dry run, nothing written"),
            "{edit:?}: {}",
            text(&out.stdout)
        );
        assert_eq!(dir.contents(), before, "{edit:?} changed the folder");
        // The JSON report says so too.
        let out = mmd(&args(
            &edit,
            s(&input),
            s(&second),
            &["--dry-run", "--json"],
        ));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{edit:?}: {e}: {}", text(&out.stdout)));
        assert_eq!(report["written"], false, "{edit:?}: {report}");
        assert!(report["output"].is_null(), "{edit:?}: {report}");
        assert_eq!(dir.contents(), before, "{edit:?} --json changed the folder");
        // A dry run is one destination: it does not combine with the others.
        for other in [&["-o", "x.bin"][..], &["--in-place"][..]] {
            let mut more = vec!["--dry-run"];
            more.extend_from_slice(other);
            let out = mmd(&args(&edit, s(&input), s(&second), &more));
            assert_eq!(out.status.code(), Some(2), "{edit:?} {other:?}");
        }
        // And without any destination, nothing happens either.
        let out = mmd(&args(&edit, s(&input), s(&second), &[]));
        assert_eq!(out.status.code(), Some(2), "{edit:?} with no destination");
        assert_eq!(dir.contents(), before);
    }
}

#[cfg(unix)]
#[test]
fn in_place_through_a_link_keeps_the_link_and_the_mode_for_every_edit() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    for edit in edits() {
        let dir = TempDir::new("link");
        let bytes = input_for(&edit);
        let real = dir.file("real.bin");
        std::fs::write(&real, &bytes).unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o604)).unwrap();
        let link = dir.file("link.bin");
        symlink("real.bin", &link).unwrap();
        let second = dir.file("second.bin");
        std::fs::write(&second, &bytes).unwrap();
        // What the edit writes, from a plain copy.
        let copy = dir.file("copy.bin");
        std::fs::write(&copy, &bytes).unwrap();
        let expected_out = dir.file("expected.bin");
        let out = mmd(&args(
            &edit,
            s(&copy),
            s(&second),
            &["-o", s(&expected_out)],
        ));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{edit:?}: {}",
            text(&out.stderr)
        );
        let expected = std::fs::read(&expected_out).unwrap();
        assert_ne!(
            expected, bytes,
            "{edit:?} must change its input for this test"
        );

        let out = mmd(&args(&edit, s(&link), s(&second), &["--in-place"]));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{edit:?}: {}",
            text(&out.stderr)
        );
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(
            meta.file_type().is_symlink(),
            "{edit:?}: the link was replaced"
        );
        assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.bin"));
        assert_eq!(std::fs::read(&real).unwrap(), expected, "{edit:?}");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o604, "{edit:?}: the mode changed");
        let names: Vec<String> = dir.contents().into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "copy.bin",
                "expected.bin",
                "link.bin",
                "real.bin",
                "second.bin"
            ],
            "{edit:?}: a temporary file was left"
        );
    }
}

#[test]
fn a_write_into_a_missing_folder_names_the_folder() {
    for edit in edits() {
        let dir = TempDir::new("nowhere");
        let bytes = input_for(&edit);
        let input = dir.file("in.bin");
        std::fs::write(&input, &bytes).unwrap();
        let target = dir.file("no/such/out.bin");
        let out = mmd(&args(&edit, s(&input), s(&input), &["-o", s(&target)]));
        assert_eq!(out.status.code(), Some(2), "{edit:?}");
        let err = text(&out.stderr);
        let expected = format!(
            "cannot write {}: the folder {} does not exist",
            target.display(),
            dir.file("no").display()
        );
        assert!(err.contains(&expected), "{edit:?}: {err}");
        assert!(!err.contains("0x0"), "{edit:?}: {err}");
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
    }
}

/// `--in-place` with `-` as the input used to write the result to a new file named `-` in
/// the working folder (issue 25, the standard-input case): it is refused with exit 2 for
/// every edit, and nothing is written.
#[test]
fn in_place_with_standard_input_is_refused_for_every_edit() {
    use std::io::Write;
    use std::process::Stdio;
    for edit in edits() {
        let dir = TempDir::new("stdin");
        let bytes = input_for(&edit);
        let second = dir.file("second.bin");
        std::fs::write(&second, &bytes).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_mmd"))
            .args(args(&edit, "-", s(&second), &["--in-place"]))
            .current_dir(&dir.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot run the mmd binary");
        // The refusal may come before the input is read: a closed pipe is no error here.
        let _ = child.stdin.take().unwrap().write_all(&bytes);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{edit:?}: {}",
            text(&out.stderr)
        );
        let err = text(&out.stderr);
        assert!(
            err.contains("--in-place replaces a file, and the input - is standard input"),
            "{edit:?}: {err}"
        );
        let names: Vec<String> = dir.contents().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["second.bin"], "{edit:?}: something was written");
        assert_eq!(std::fs::read(&second).unwrap(), bytes, "{edit:?}");
    }
}
