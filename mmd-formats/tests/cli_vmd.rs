//! `mmd vmd ...` run as a process on motions built in code (and on the fixture corpus when
//! it is there): outputs, reports, refusals and exit codes.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mmd_formats::vmd::{BoneKey, CameraInterpolation, CameraKey, MorphKey, Vmd};
use mmd_formats::ShiftJis;
use serde_json::Value;

fn mmd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .output()
        .expect("cannot run the mmd binary")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `mmd` with `--json` appended; the exit code and the parsed object.
fn json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = args.to_vec();
    all.push("--json");
    let out = mmd(&all);
    let stdout = text(&out.stdout);
    let v = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {stdout}\n{}", text(&out.stderr)));
    (out.status.code(), v)
}

/// A fresh directory under the system temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let d = std::env::temp_dir().join(format!("mmd-vmd-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
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

fn write(path: &Path, vmd: &Vmd) -> Vec<u8> {
    let bytes = vmd.to_bytes().unwrap();
    std::fs::write(path, &bytes).unwrap();
    bytes
}

/// Bone keys of センター at every frame 0..=10 and 左腕 at 0 and 10, morph keys, and a camera
/// with a cut, sorted by frame.
fn motion() -> Vmd {
    let mut v = Vmd::new_v2("cli").unwrap();
    let center = ShiftJis::new("センター").unwrap();
    let arm = ShiftJis::new("左腕").unwrap();
    for f in 0..=10u32 {
        v.bone_keys.push(BoneKey::new(
            center,
            f,
            [f as f32, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ));
        if f % 10 == 0 {
            v.bone_keys
                .push(BoneKey::new(arm, f, [1.0, 0.0, 0.0], [0.0, 0.3, 0.1, 0.9]));
        }
    }
    let blink = ShiftJis::new("まばたき").unwrap();
    v.morph_keys = Some(vec![
        MorphKey {
            name: blink,
            frame: 0,
            weight: 0.0,
        },
        MorphKey {
            name: blink,
            frame: 4,
            weight: 1.0,
        },
    ]);
    let cam = |frame, distance| CameraKey {
        frame,
        distance,
        target: [1.0, 10.0, 2.0],
        rotation: [-0.1, 0.4, 0.0],
        interpolation: CameraInterpolation::LINEAR.to_bytes(),
        fov: 30,
        perspective: 0,
    };
    v.camera_keys = Some(vec![cam(0, -45.0), cam(6, -20.0), cam(7, -60.0)]);
    v
}

#[test]
fn mirror_twice_gives_the_same_bytes_for_every_sample() {
    let dir = TempDir::new("mirror");
    for (name, bytes) in mmd_formats::samples::vmd_samples() {
        let input = dir.file("in.vmd");
        std::fs::write(&input, &bytes).unwrap();
        let (once, twice) = (dir.file("once.vmd"), dir.file("twice.vmd"));
        let (code, report) = json(&["vmd", "mirror", s(&input), "-o", s(&once)]);
        assert_eq!(code, Some(0), "{name}: {report}");
        assert_eq!(report["written"], true);
        assert_eq!(report["dropped"]["total"], 0);
        let out = mmd(&["vmd", "mirror", s(&once), "-o", s(&twice)]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert_eq!(std::fs::read(&twice).unwrap(), bytes, "{name}");
        assert_eq!(
            std::fs::read(&input).unwrap(),
            bytes,
            "{name}: the input is untouched"
        );
    }
}

#[test]
fn mirror_reports_renames_and_changed_keys() {
    let dir = TempDir::new("report");
    let input = dir.file("m.vmd");
    write(&input, &motion());
    let (code, r) = json(&["vmd", "mirror", s(&input), "-o", s(&dir.file("o.vmd"))]);
    assert_eq!(code, Some(0));
    // センター keys 1..=10 have a non-zero X (key 0 is all zero and stays as it is);
    // both 左腕 keys change (name, X, rotation Y and Z); all 3 camera keys (target X,
    // angle Y).
    assert_eq!(r["changed"]["bone"], 12);
    assert_eq!(r["changed"]["camera"], 3);
    assert_eq!(r["renamed"]["bone"][0]["from"], "左腕");
    assert_eq!(r["renamed"]["bone"][0]["to"], "右腕");
    let out = mmd(&["vmd", "mirror", s(&input), "-o", s(&dir.file("p.vmd"))]);
    let t = text(&out.stdout);
    assert!(t.contains("changed: 12 bone, 3 camera keys\n"), "{t}");
    assert!(t.contains("renamed bone names: 左腕 -> 右腕\n"), "{t}");
    assert!(t.contains("dropped: nothing\n"), "{t}");
}

#[test]
fn the_input_is_never_overwritten_without_in_place() {
    let dir = TempDir::new("inplace");
    let input = dir.file("m.vmd");
    let bytes = write(&input, &motion());
    // -o naming the input, directly or through another spelling of the path.
    let other = dir.0.join(".").join("m.vmd");
    for o in [input.clone(), other] {
        let out = mmd(&["vmd", "mirror", s(&input), "-o", s(&o)]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("refusing to overwrite"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
    }
    // For merge, neither input may be the output.
    let out = mmd(&["vmd", "merge", s(&input), s(&input), "-o", s(&input)]);
    assert_eq!(out.status.code(), Some(2));
    // No output at all is a usage error.
    assert_eq!(mmd(&["vmd", "mirror", s(&input)]).status.code(), Some(2));
    // --dry-run reports and writes nothing.
    let out = mmd(&["vmd", "speed", s(&input), "2", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("dry run, nothing written"));
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 1);
    // --in-place replaces it (atomically: no temporary file left).
    let out = mmd(&["vmd", "mirror", s(&input), "--in-place"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_ne!(std::fs::read(&input).unwrap(), bytes);
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 1);
    mmd(&["vmd", "mirror", s(&input), "--in-place"]);
    assert_eq!(std::fs::read(&input).unwrap(), bytes);
}

#[test]
fn speed_times_two_then_half_reports_the_drops() {
    let dir = TempDir::new("speed");
    let input = dir.file("m.vmd");
    write(&input, &motion());
    let (fast, slow) = (dir.file("fast.vmd"), dir.file("slow.vmd"));
    let (code, r) = json(&["vmd", "speed", s(&input), "2", "-o", s(&fast)]);
    assert_eq!(code, Some(0));
    // センター at 0..=10: the odd frames round onto the even ones' new frames (1 → 0.5 → 1,
    // 2 → 1): 5 dropped. 左腕 0, 10 and the morph 0, 4 move without collisions. The
    // camera 6/7 is a lone pair one frame apart, a cut: kept at 3/4.
    assert_eq!(r["dropped"]["bone"], 5);
    assert_eq!(r["dropped"]["total"], 5);
    assert_eq!(r["dropped_keys"][0]["name"], "センター");
    assert_eq!(r["dropped_keys"][0]["frame"], 1);
    assert_eq!(r["dropped_keys"][0]["kept_frame"], 2);
    assert_eq!(r["cuts_kept"], 1);
    let (code, r) = json(&["vmd", "speed", s(&fast), "0.5", "-o", s(&slow)]);
    assert_eq!(code, Some(0));
    assert_eq!(r["dropped"]["total"], 0);
    let back = Vmd::read_path(&slow).unwrap();
    let frames: Vec<u32> = back.bone_keys.iter().map(|k| k.frame).collect();
    assert_eq!(frames, [0, 0, 2, 4, 6, 8, 10, 10]);
    let out = mmd(&["vmd", "speed", s(&input), "2", "-o", s(&dir.file("t.vmd"))]);
    assert!(text(&out.stdout)
        .contains("dropped (rounded onto a frame their track already has): 5 bone keys: "));
}

#[test]
fn trim_then_merge_restores_the_file() {
    let dir = TempDir::new("trim");
    let input = dir.file("m.vmd");
    let bytes = write(&input, &motion());
    let (a, b, joined) = (dir.file("a.vmd"), dir.file("b.vmd"), dir.file("j.vmd"));
    let (code, r) = json(&["vmd", "trim", s(&input), "0", "5", "-o", s(&a)]);
    assert_eq!(code, Some(0));
    // Frames 0..=5: センター 0..=5 (6), 左腕 0, morph 0 and 4, camera 0.
    assert_eq!(r["kept"]["bone"], 7);
    assert_eq!(r["kept"]["total"], 10);
    let (code, r) = json(&["vmd", "trim", s(&input), "6", "10", "-o", s(&b)]);
    assert_eq!(code, Some(0));
    assert_eq!(r["shift"], 6);
    let (code, r) = json(&[
        "vmd",
        "merge",
        s(&a),
        s(&b),
        "--offset",
        "6",
        "-o",
        s(&joined),
    ]);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(r["conflicts"].as_array().unwrap().len(), 0);
    assert_eq!(r["rule"], "second-wins");
    assert_eq!(std::fs::read(&joined).unwrap(), bytes);
    // Without --offset, B starts one frame after A's last key (5): the same file again.
    let (_, r) = json(&["vmd", "merge", s(&a), s(&b), "-o", s(&joined)]);
    assert_eq!(r["offset"], 6);
    assert_eq!(std::fs::read(&joined).unwrap(), bytes);
    // With offset 0 both start at 0: conflicts, reported, the second's keys win.
    let (_, r) = json(&[
        "vmd",
        "merge",
        s(&a),
        s(&b),
        "--offset",
        "0",
        "-o",
        s(&joined),
    ]);
    assert!(!r["conflicts"].as_array().unwrap().is_empty());
    assert_eq!(r["dropped_from"], "first");
    let (_, r) = json(&[
        "vmd",
        "merge",
        s(&a),
        s(&b),
        "--offset",
        "0",
        "--first-wins",
        "--dry-run",
    ]);
    assert_eq!(r["dropped_from"], "second");
    assert_eq!(r["written"], false);
}

#[test]
fn bad_values_exit_1_and_bad_paths_exit_2() {
    let dir = TempDir::new("bad");
    let input = dir.file("m.vmd");
    write(&input, &motion());
    let o = dir.file("o.vmd");
    for args in [
        vec!["vmd", "speed", s(&input), "0", "-o", s(&o)],
        vec!["vmd", "speed", s(&input), "-2", "-o", s(&o)],
        vec!["vmd", "trim", s(&input), "9", "3", "-o", s(&o)],
        vec![
            "vmd",
            "fill",
            s(&input),
            "--start",
            "9",
            "--end",
            "3",
            "-o",
            s(&o),
        ],
    ] {
        let out = mmd(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            text(&out.stderr).contains("expected"),
            "{}",
            text(&out.stderr)
        );
        assert!(!o.exists(), "{args:?} wrote a file");
    }
    let out = mmd(&["vmd", "trim", s(&input), "9", "3", "-o", s(&o)]);
    assert_eq!(
        text(&out.stderr).trim(),
        "mmd vmd trim: expected a trim range whose first frame is at or before its last, found 9 > 3"
    );
    // A VMD that does not read: the edit cannot be made (a file in another format is
    // refused with 2: cli_manners.rs).
    let junk = dir.file("junk.vmd");
    std::fs::write(&junk, b"Vocaloid Motion Data 0002\0\0\0\0\0short").unwrap();
    let out = mmd(&["vmd", "mirror", s(&junk), "-o", s(&o)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!("{} (VMD): truncated: ", junk.display())),
        "{}",
        text(&out.stderr)
    );
    // A missing input or an unwritable output: exit 2.
    let missing = dir.file("missing.vmd");
    assert_eq!(
        mmd(&["vmd", "mirror", s(&missing), "-o", s(&o)])
            .status
            .code(),
        Some(2)
    );
    let nowhere = dir.file("no/such/dir/o.vmd");
    assert_eq!(
        mmd(&["vmd", "mirror", s(&input), "-o", s(&nowhere)])
            .status
            .code(),
        Some(2)
    );
    // --help documents the exit codes.
    let help = text(&mmd(&["vmd", "trim", "--help"]).stdout);
    assert!(
        help.contains("Exit codes:") && help.contains("--in-place"),
        "{help}"
    );
}

#[test]
fn sample_prints_interpolated_values() {
    let dir = TempDir::new("sample");
    let input = dir.file("m.vmd");
    write(&input, &motion());
    // 左腕: X 1.0 at 0 and 10 (constant); センター X = frame.
    let (code, r) = json(&[
        "vmd",
        "sample",
        s(&input),
        "--bone",
        "センター",
        "--frame",
        "2.5",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(r["position"][0], 2.5);
    // Morph: linear from 0 at 0 to 1 at 4.
    let (_, r) = json(&[
        "vmd",
        "sample",
        s(&input),
        "--morph",
        "まばたき",
        "--frame",
        "1",
    ]);
    assert_eq!(r["weight"], 0.25);
    // Camera: the cut 6/7 holds at 6.5; the position is target + R·(0, 0, −distance).
    let (_, r) = json(&["vmd", "sample", s(&input), "--camera", "--frame", "6.5"]);
    assert_eq!(r["distance"], -20.0);
    let (p, t) = (&r["position"], &r["target"]);
    let d: f64 = (0..3)
        .map(|i| (p[i].as_f64().unwrap() - t[i].as_f64().unwrap()).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!((d - 20.0).abs() < 1e-4, "{r}");
    // Right-handed: target Z negated.
    let (_, r) = json(&[
        "vmd",
        "sample",
        s(&input),
        "--camera",
        "--frame",
        "0",
        "--right-handed",
    ]);
    assert_eq!(r["target"][2], -2.0);
    assert_eq!(r["coordinates"], "right-handed");
    // A track with no key: exit 1.
    let out = mmd(&["vmd", "sample", s(&input), "--light", "--frame", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let out = mmd(&["vmd", "sample", s(&input), "--bone", "右足", "--frame", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no key on the bone 右足 track"));
}

#[test]
fn fixtures_mirror_twice_and_speed_through_the_cli() {
    let tmp = TempDir::new("fixtures");
    for name in [
        "mmdagent_walk.vmd",
        "vmdgadgets_camera.vmd",
        "uml_append_bone.vmd",
    ] {
        let Some(input) = mmd_tests::fixture_path(&format!("vmd/{name}")) else {
            return;
        };
        let bytes = std::fs::read(&input).unwrap();
        let (once, twice) = (tmp.file("1.vmd"), tmp.file("2.vmd"));
        assert_eq!(
            mmd(&["vmd", "mirror", s(&input), "-o", s(&once)])
                .status
                .code(),
            Some(0)
        );
        assert_eq!(
            mmd(&["vmd", "mirror", s(&once), "-o", s(&twice)])
                .status
                .code(),
            Some(0)
        );
        assert_eq!(std::fs::read(&twice).unwrap(), bytes, "{name}");
        let (code, r) = json(&["vmd", "speed", s(&input), "3", "--dry-run"]);
        assert_eq!(code, Some(0));
        let before = Vmd::from_bytes(&bytes).unwrap().frames().count() as u64;
        let dropped = r["dropped"]["total"].as_u64().unwrap();
        assert_eq!(
            r["dropped_keys"].as_array().unwrap().len() as u64,
            dropped,
            "{name}"
        );
        assert!(dropped <= before);
    }
}
