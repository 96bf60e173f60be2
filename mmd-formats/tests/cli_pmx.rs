//! `mmd pmx recolor|rename|bones` run as a process on built-in samples and models built in
//! code, written to a temporary folder, and on the fixture corpus when it is present: the
//! files written are exactly what the library edit gives, the input is never overwritten
//! without `--in-place`, failures leave no file behind, and the exit codes are the
//! documented ones.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmd_formats::pmx::edit::{ColorTarget, Lang, NameTarget};
use mmd_formats::pmx::Pmx;
use serde_json::Value;

fn mmd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .output()
        .expect("cannot run the mmd binary")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory under the system temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("mmd-cli-pmx-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The names of the files in the directory, sorted.
    fn listing(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
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

/// The built-in PMX samples that have at least one material, bone and morph.
fn rich_samples() -> Vec<(String, Vec<u8>)> {
    mmd_formats::samples::pmx_samples()
        .into_iter()
        .filter(|(_, b)| {
            let p = Pmx::from_bytes(b).unwrap();
            !p.materials.is_empty() && !p.bones.is_empty() && !p.morphs.is_empty()
        })
        .collect()
}

#[test]
fn recolor_writes_what_the_library_edit_writes_and_keeps_the_input() {
    let samples = rich_samples();
    assert!(!samples.is_empty());
    let dir = TempDir::new("recolor");
    for (name, bytes) in samples {
        let input = dir.file("in.pmx");
        let output = dir.file("out.pmx");
        std::fs::write(&input, &bytes).unwrap();
        let o = mmd(&[
            "pmx",
            "recolor",
            s(&input),
            "--material",
            "0",
            "--rgb",
            "0.25,0.5,1",
            "-o",
            s(&output),
        ]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let mut expected = Pmx::from_bytes(&bytes).unwrap();
        expected
            .recolor(0, ColorTarget::Diffuse, [0.25, 0.5, 1.0])
            .unwrap();
        let written = std::fs::read(&output).unwrap();
        assert_eq!(written, expected.to_bytes().unwrap(), "{name}");
        assert_eq!(
            std::fs::read(&input).unwrap(),
            bytes,
            "{name}: input changed"
        );
        // Same length, and the changed bytes lie within one 12-byte run.
        assert_eq!(written.len(), bytes.len());
        let diff: Vec<usize> = (0..bytes.len())
            .filter(|&i| bytes[i] != written[i])
            .collect();
        if let (Some(first), Some(last)) = (diff.first(), diff.last()) {
            assert!(last - first < 12, "{name}: {diff:?}");
        }
        let text = stdout(&o);
        assert!(
            text.contains("materials[0]") && text.contains("diffuse RGB"),
            "{text}"
        );
        assert!(text.contains("kept"), "{text}");
        std::fs::remove_file(&output).unwrap();
    }
}

#[test]
fn recolor_json_and_the_other_colours() {
    let (_, bytes) = rich_samples().remove(0);
    let dir = TempDir::new("recolor-json");
    let input = dir.file("in.pmx");
    let output = dir.file("out.pmx");
    std::fs::write(&input, &bytes).unwrap();
    let o = mmd(&[
        "pmx",
        "recolor",
        s(&input),
        "--material",
        "0",
        "--rgb",
        "1,0,0",
        "--specular",
        "--ambient",
        "--json",
        "-o",
        s(&output),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let fields: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    // --specular and --ambient without --diffuse leave the diffuse colour alone.
    assert_eq!(fields, ["materials[0].specular", "materials[0].ambient"]);
    assert_eq!(v["changes"][0]["new"], serde_json::json!([1.0, 0.0, 0.0]));
    assert_eq!(v["size_before"], v["size_after"]);
    let mut expected = Pmx::from_bytes(&bytes).unwrap();
    expected
        .recolor(0, ColorTarget::Specular, [1.0, 0.0, 0.0])
        .unwrap();
    expected
        .recolor(0, ColorTarget::Ambient, [1.0, 0.0, 0.0])
        .unwrap();
    assert_eq!(
        std::fs::read(&output).unwrap(),
        expected.to_bytes().unwrap()
    );
    assert_eq!(
        v["bytes_changed"].as_u64().unwrap() as usize,
        bytes
            .iter()
            .zip(std::fs::read(&output).unwrap())
            .filter(|(a, b)| **a != *b)
            .count()
    );
}

#[test]
fn rename_then_rename_back_is_the_identity() {
    let dir = TempDir::new("rename");
    let mut round_trips = 0;
    for (name, bytes) in rich_samples() {
        let p = Pmx::from_bytes(&bytes).unwrap();
        let input = dir.file("in.pmx");
        let mid = dir.file("mid.pmx");
        let back = dir.file("back.pmx");
        std::fs::write(&input, &bytes).unwrap();
        let cases: Vec<(Vec<String>, Vec<String>, NameTarget, Lang)> = vec![
            (
                vec!["--bone".into(), "0".into(), "新しい骨".into()],
                vec!["--bone".into(), "新しい骨".into()],
                NameTarget::Bone(0),
                Lang::Local,
            ),
            (
                vec![
                    "--material".into(),
                    "0".into(),
                    "m".into(),
                    "--english".into(),
                ],
                vec!["--material".into(), "0".into()],
                NameTarget::Material(0),
                Lang::English,
            ),
            (
                vec!["--morph".into(), "0".into(), "-dash".into()],
                vec!["--morph".into(), "-dash".into()],
                NameTarget::Morph(0),
                Lang::Local,
            ),
            (
                vec!["--model".into(), "名前".into()],
                vec!["--model".into()],
                NameTarget::Model,
                Lang::Local,
            ),
        ];
        for (forward, backward, target, lang) in cases {
            let Some(old) = p.name_of(target, lang).unwrap().to_str() else {
                continue;
            };
            let mut args = vec!["pmx", "rename", s(&input)];
            args.extend(forward.iter().map(String::as_str));
            args.extend(["-o", s(&mid)]);
            let o = mmd(&args);
            assert_eq!(code(&o), 0, "{name} {forward:?}: {}", stderr(&o));
            // The file is the library's rename of the same name.
            let mut expected = p.clone();
            let new = forward.iter().rev().find(|a| *a != "--english").unwrap();
            expected.rename(target, lang, new).unwrap();
            assert_eq!(std::fs::read(&mid).unwrap(), expected.to_bytes().unwrap());

            let mut args = vec!["pmx", "rename", s(&mid)];
            args.extend(backward.iter().map(String::as_str));
            args.push(&old);
            if lang == Lang::English {
                args.push("--english");
            }
            args.extend(["-o", s(&back), "--json"]);
            let o = mmd(&args);
            assert_eq!(code(&o), 0, "{name} {backward:?}: {}", stderr(&o));
            let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
            assert_eq!(v["changes"][0]["edit"], "rename");
            assert_eq!(v["changes"][0]["new"], *old);
            assert_eq!(
                std::fs::read(&back).unwrap(),
                bytes,
                "{name} {forward:?}: rename back"
            );
            round_trips += 1;
        }
    }
    // Four cases per sample; a sample whose name does not decode skips that case only.
    assert!(round_trips >= 4 * 3, "only {round_trips} round trips ran");
}

#[test]
fn the_input_is_overwritten_only_with_in_place() {
    let (_, bytes) = rich_samples().remove(0);
    let dir = TempDir::new("in-place");
    let input = dir.file("model.pmx");
    std::fs::write(&input, &bytes).unwrap();
    let recolor = |extra: &[&str]| {
        let mut args = vec![
            "pmx",
            "recolor",
            s(&input),
            "--material",
            "0",
            "--rgb",
            "0,0,0",
        ];
        args.extend(extra);
        mmd(&args)
    };
    // -o naming the input: refused, exit 2, nothing written.
    let o = recolor(&["-o", s(&input)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("--in-place"), "{}", stderr(&o));
    // The same file by another spelling.
    let other = dir.0.join(".").join("model.pmx");
    assert_eq!(code(&recolor(&["-o", s(&other)])), 2);
    #[cfg(unix)]
    {
        let link = dir.file("link.pmx");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        assert_eq!(code(&recolor(&["-o", s(&link)])), 2);
        std::fs::remove_file(&link).unwrap();
    }
    assert_eq!(std::fs::read(&input).unwrap(), bytes);
    // Neither -o nor --in-place, or both: usage errors.
    assert_eq!(code(&recolor(&[])), 2);
    assert_eq!(
        code(&recolor(&["--in-place", "-o", s(&dir.file("x.pmx"))])),
        2
    );
    assert_eq!(dir.listing(), ["model.pmx"]);
    // --in-place replaces it with the edited model, and leaves no temporary file.
    let o = recolor(&["--in-place"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut expected = Pmx::from_bytes(&bytes).unwrap();
    expected
        .recolor(0, ColorTarget::Diffuse, [0.0, 0.0, 0.0])
        .unwrap();
    assert_eq!(std::fs::read(&input).unwrap(), expected.to_bytes().unwrap());
    assert_eq!(dir.listing(), ["model.pmx"]);
}

#[test]
fn failures_have_the_documented_exit_codes_and_write_nothing() {
    let (_, bytes) = rich_samples().remove(0);
    let dir = TempDir::new("fail");
    let input = dir.file("in.pmx");
    std::fs::write(&input, &bytes).unwrap();
    let out = dir.file("out.pmx");
    let run = |args: &[&str]| mmd(args);
    let recolor_args = |file: &Path, material: &str| -> Vec<String> {
        [
            "pmx",
            "recolor",
            s(file),
            "--material",
            material,
            "--rgb",
            "1,1,1",
            "-o",
            s(&out),
        ]
        .map(String::from)
        .to_vec()
    };
    let call = |v: Vec<String>| run(&v.iter().map(String::as_str).collect::<Vec<_>>());
    // No such material, an index past the end: 1.
    let o = call(recolor_args(&input, "no such material"));
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("no material named"), "{}", stderr(&o));
    let o = call(recolor_args(&input, "100000"));
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("out of range"), "{}", stderr(&o));
    // A PMX that does not read (cut in half): 1.
    let cut = dir.file("cut.pmx");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(code(&call(recolor_args(&cut, "0"))), 1);
    // Not PMX, missing input: 2.
    let vmd = dir.file("m.vmd");
    std::fs::write(&vmd, b"Vocaloid Motion Data 0002\0\0\0\0\0").unwrap();
    let o = call(recolor_args(&vmd, "0"));
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("not PMX"), "{}", stderr(&o));
    assert_eq!(code(&call(recolor_args(&dir.file("missing.pmx"), "0"))), 2);
    // Bad colours are usage errors (clap): 2.
    for rgb in ["1,0", "1,0,0,0", "a,b,c", "inf,0,0", "NaN,0,0"] {
        let o = run(&[
            "pmx",
            "recolor",
            s(&input),
            "--material",
            "0",
            "--rgb",
            rgb,
            "-o",
            s(&out),
        ]);
        assert_eq!(code(&o), 2, "{rgb}");
    }
    // A rename of nothing, or of two things at once: 2.
    assert_eq!(code(&run(&["pmx", "rename", s(&input), "-o", s(&out)])), 2);
    let o = run(&[
        "pmx",
        "rename",
        s(&input),
        "--model",
        "a",
        "--bone",
        "0",
        "b",
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 2);
    // An output folder that does not exist: 2.
    let o = run(&[
        "pmx",
        "rename",
        s(&input),
        "--model",
        "a",
        "-o",
        s(&dir.file("no/such/dir/out.pmx")),
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    // Nothing was written, and the input is as it was.
    assert_eq!(dir.listing(), ["cut.pmx", "in.pmx", "m.vmd"]);
    assert_eq!(std::fs::read(&input).unwrap(), bytes);
}

#[test]
fn rename_warns_on_stderr_and_in_json() {
    let (_, bytes) = rich_samples().remove(0);
    let dir = TempDir::new("warn");
    let input = dir.file("in.pmx");
    std::fs::write(&input, &bytes).unwrap();
    let out = dir.file("out.pmx");
    // 16 bytes in Shift_JIS: one more than a VMD bone name holds.
    let long = "あいうえおかきく";
    let o = mmd(&[
        "pmx",
        "rename",
        s(&input),
        "--bone",
        "0",
        long,
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: bones[0]: the name is 16 bytes"),
        "{}",
        stderr(&o)
    );
    let o = mmd(&[
        "pmx",
        "rename",
        s(&input),
        "--bone",
        "0",
        long,
        "-o",
        s(&out),
        "--json",
    ]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1);
}

#[test]
fn bones_lists_the_tree_parents_first() {
    let dir = TempDir::new("bones");
    for (name, bytes) in mmd_formats::samples::pmx_samples() {
        let p = Pmx::from_bytes(&bytes).unwrap();
        let input = dir.file("in.pmx");
        std::fs::write(&input, &bytes).unwrap();
        let o = mmd(&["pmx", "bones", "--json", s(&input)]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let skeleton = p.skeleton();
        let order: Vec<usize> = v["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(order, skeleton.order(), "{name}");
        let listed: Vec<usize> = v["bones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["index"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(listed, order, "{name}: bones are listed in tree order");
        let physics: Vec<usize> = v["physics_bones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(physics, p.physics_bones().bones().collect::<Vec<_>>());
        assert_eq!(
            v["warnings"].as_array().unwrap().len(),
            skeleton.problems().len() + p.physics_bones().unresolved().len(),
            "{name}"
        );
        let o = mmd(&["pmx", "bones", s(&input)]);
        assert_eq!(code(&o), 0);
        // file, count, header, then one line per bone.
        assert_eq!(stdout(&o).lines().count(), 3 + p.bones.len(), "{name}");
    }
}

#[test]
fn every_fixture_lists_its_bones_and_recolours_like_the_library() {
    let Some(files) = mmd_tests::corpus_files("pmx", "pmx") else {
        return;
    };
    let tmp = TempDir::new("fixtures");
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let p = Pmx::from_bytes(&bytes).unwrap();
        let o = mmd(&["pmx", "bones", "--json", s(path)]);
        assert_eq!(code(&o), 0, "{}: {}", path.display(), stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["count"], p.bones.len());
        if p.materials.is_empty() {
            continue;
        }
        let last = (p.materials.len() - 1).to_string();
        let out = tmp.file("out.pmx");
        let o = mmd(&[
            "pmx",
            "recolor",
            s(path),
            "--material",
            &last,
            "--rgb",
            "0.1,0.2,0.3",
            "-o",
            s(&out),
        ]);
        assert_eq!(code(&o), 0, "{}: {}", path.display(), stderr(&o));
        let mut expected = p.clone();
        expected
            .recolor(p.materials.len() - 1, ColorTarget::Diffuse, [0.1, 0.2, 0.3])
            .unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), expected.to_bytes().unwrap());
    }
}
