//! `mmd pose` (issue 28 item 3): the JSON shape and the table, the bind report on stderr,
//! the bind pose for `-`, VPD poses, --bone, escaping, and the exit codes; and `mmd vmd
//! bake-ik`, whose result played with IK off poses as the original with IK on. Expected
//! positions are worked out by hand in the comments.
#![cfg(feature = "cli")]

mod cli_common;

use cli_common::{code, json, mmd, s, stderr, stdout, TempDir};
use mmd_formats::pmx::{Bone, BoneFlags, BoneTail, Ik, IkLink, Pmx, PmxContext};
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::{BoneIndex, PmxText, ShiftJis, TextEncoding};

fn t(text: &str) -> PmxText {
    PmxText::new(text, TextEncoding::Utf16Le)
}

fn bone(name: &str, position: [f32; 3], parent: i32) -> Bone {
    Bone {
        name: t(name),
        name_en: t(""),
        position,
        parent: BoneIndex::from_raw(parent),
        layer: 0,
        flags: BoneFlags::ROTATABLE,
        tail: BoneTail::Offset([0.0; 3]),
        inherit: None,
        fixed_axis: None,
        local_axes: None,
        external_parent: None,
        ik: None,
    }
}

/// センター at (0, 1, 0) and 腕 at (1, 1, 0), its child.
fn write_model(dir: &TempDir, second: &str) -> String {
    let mut m = Pmx::new("pose", &PmxContext::default());
    m.bones = vec![
        bone("センター", [0.0, 1.0, 0.0], -1),
        bone(second, [1.0, 1.0, 0.0], 0),
    ];
    let path = dir.file("model.pmx");
    m.write_path(&path).unwrap();
    s(&path).to_owned()
}

/// センター turns 90° about Z between frames 0 and 10, stored with w < 0 at frame 10
/// (−q is the same rotation); a track named ない binds to nothing.
fn write_motion(dir: &TempDir) -> String {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let center = ShiftJis::new("センター").unwrap();
    let mut vmd = Vmd::new_v2("pose").unwrap();
    vmd.bone_keys = vec![
        BoneKey::new(center, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]),
        BoneKey::new(center, 10, [0.0; 3], [0.0, 0.0, -h, -h]),
        BoneKey::new(
            ShiftJis::new("ない").unwrap(),
            0,
            [0.0; 3],
            [0.0, 0.0, 0.0, 1.0],
        ),
    ];
    let path = dir.file("motion.vmd");
    vmd.write_path(&path).unwrap();
    s(&path).to_owned()
}

fn close(v: &serde_json::Value, expected: &[f64]) -> bool {
    let got: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    got.len() == expected.len() && got.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-5)
}

#[test]
fn json_gives_world_positions_and_rotations_per_frame() {
    let dir = TempDir::new("pose-json");
    let model = write_model(&dir, "腕");
    let motion = write_motion(&dir);
    let out = mmd(&[
        "pose", &model, &motion, "--frame", "10", "--frame", "5", "--json",
    ]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // The documented key order.
    assert!(
        text.starts_with("{\"frames\": [{\"frame\": 10.0, \"bones\": [{\"index\": 0, \"name\": "),
        "{text}"
    );
    let doc = json(&out);
    let frames = doc["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 2);
    let at10 = &frames[0]["bones"];
    assert_eq!(at10[1]["index"], 1);
    assert_eq!(at10[1]["name"], "腕");
    // Frame 10: センター turned 90° about Z, printed with w ≥ 0: (0, 0, √½, √½); 腕's
    // offset (1, 0, 0) turns to (0, 1, 0), plus センター at (0, 1, 0): (0, 2, 0).
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!(close(&at10[0]["rotation"], &[0.0, 0.0, h, h]), "{at10}");
    assert!(close(&at10[1]["position"], &[0.0, 2.0, 0.0]), "{at10}");
    // Frame 5, half way (linear curves): 45°; 腕 at (0, 1, 0) + (cos 45°, sin 45°, 0).
    let at5 = &frames[1]["bones"];
    assert_eq!(frames[1]["frame"], 5.0);
    assert!(close(&at5[1]["position"], &[h, 1.0 + h, 0.0]), "{at5}");
    let (s22, c22) = (std::f64::consts::PI / 8.0).sin_cos();
    assert!(close(&at5[1]["rotation"], &[0.0, 0.0, s22, c22]), "{at5}");
}

#[test]
fn stderr_says_how_many_tracks_bind_and_names_the_others() {
    let dir = TempDir::new("pose-bind");
    let model = write_model(&dir, "腕");
    let motion = write_motion(&dir);
    let out = mmd(&["pose", &model, &motion, "--frame", "0"]);
    assert_eq!(code(&out), Some(0));
    let err = stderr(&out);
    assert!(
        err.contains("mmd pose: motion: 1 of 2 bone tracks bind to the model; not bound: ない"),
        "{err}"
    );
    assert!(err.contains("0 of 0 morph tracks"), "{err}");
    assert!(err.contains("0 of 0 IK switches"), "{err}");
}

#[test]
fn the_table_has_one_line_per_bone_and_bone_selects() {
    let dir = TempDir::new("pose-table");
    let model = write_model(&dir, "腕");
    let motion = write_motion(&dir);
    let out = mmd(&["pose", &model, &motion, "--frame", "0", "--bone", "腕"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "frame 0");
    assert!(lines[1].contains("position x y z") && lines[1].ends_with("name"));
    // Frame 0: at rest, 腕 at (1, 1, 0), no rotation.
    assert_eq!(lines.len(), 3, "{text}");
    let fields: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(fields, ["1", "1", "1", "0", "0", "0", "0", "1", "腕"]);
}

#[test]
fn a_dash_gives_the_bind_pose_and_a_vpd_its_pose() {
    let dir = TempDir::new("pose-rest");
    let model = write_model(&dir, "腕");
    let out = mmd(&["pose", &model, "-", "--frame", "3", "--json"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("no motion: the bind pose"));
    let doc = json(&out);
    assert!(close(
        &doc["frames"][0]["bones"][1]["position"],
        &[1.0, 1.0, 0.0]
    ));
    // A VPD pose moving センター by (0, 2, 0): 腕 at (1, 3, 0).
    let vpd = mmd_formats::vpd::Vpd::from_pose(&mmd_formats::vpd::Pose {
        model_file: "pose.osm".into(),
        bones: vec![mmd_formats::vpd::BonePose {
            name: "センター".into(),
            translation: [0.0, 2.0, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }],
        morphs: vec![],
    })
    .unwrap();
    let pose = dir.write("pose.vpd", &vpd.to_bytes().unwrap());
    let out = mmd(&["pose", &model, s(&pose), "--frame", "0", "--json"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("pose: 1 of 1 bone tracks"),
        "{}",
        stderr(&out)
    );
    let doc = json(&out);
    assert!(close(
        &doc["frames"][0]["bones"][1]["position"],
        &[1.0, 3.0, 0.0]
    ));
}

#[test]
fn names_from_the_file_are_escaped() {
    let dir = TempDir::new("pose-escape");
    let model = write_model(&dir, "a\u{1b}[2Jb");
    let out = mmd(&["pose", &model, "-", "--frame", "0"]);
    assert_eq!(code(&out), Some(0));
    let text = stdout(&out);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("a\\u{1b}[2Jb"), "{text}");
}

#[test]
fn exit_codes() {
    let dir = TempDir::new("pose-exit");
    let model = write_model(&dir, "腕");
    let motion = write_motion(&dir);
    // Usage: no --frame, a frame that is not a number, a bone the model has not.
    assert_eq!(code(&mmd(&["pose", &model, &motion])), Some(2));
    assert_eq!(
        code(&mmd(&["pose", &model, &motion, "--frame", "nan"])),
        Some(2)
    );
    let out = mmd(&["pose", &model, &motion, "--frame", "0", "--bone", "ない"]);
    assert_eq!(code(&out), Some(2));
    assert!(
        stderr(&out).contains("no bone named \"ない\""),
        "{}",
        stderr(&out)
    );
    // A motion given as the model, a model given as the motion, a missing file: 2.
    assert_eq!(
        code(&mmd(&["pose", &motion, &motion, "--frame", "0"])),
        Some(2)
    );
    assert_eq!(
        code(&mmd(&["pose", &model, &model, "--frame", "0"])),
        Some(2)
    );
    let missing = dir.file("missing.pmx");
    assert_eq!(
        code(&mmd(&["pose", s(&missing), "-", "--frame", "0"])),
        Some(2)
    );
    // A model cut short does not read: 1.
    let bytes = std::fs::read(&model).unwrap();
    let cut = dir.write("cut.pmx", &bytes[..bytes.len() - 3]);
    assert_eq!(code(&mmd(&["pose", s(&cut), "-", "--frame", "0"])), Some(1));
}

#[test]
fn help_states_the_rules_and_the_exit_codes() {
    let out = mmd(&["pose", "--help"]);
    assert_eq!(code(&out), Some(0));
    let text = stdout(&out);
    for phrase in [
        "exact name",
        "deform order",
        "append",
        "CCD",
        "left-handed",
        "Physics is not simulated",
        "Exit codes:",
        "1  MODEL or MOTION does not read",
    ] {
        assert!(text.contains(phrase), "--help lacks {phrase:?}:\n{text}");
    }
}

/// A link at the origin with its effector 1 up, and an IK bone at (1, 0, 0) whose chain
/// turns the link (10 loops, unit angle π).
fn write_ik_model(dir: &TempDir) -> String {
    let mut m = Pmx::new("ik", &PmxContext::default());
    let mut ik = bone("ik", [1.0, 0.0, 0.0], -1);
    ik.flags = BoneFlags(ik.flags.0 | BoneFlags::IK.0);
    ik.ik = Some(Ik {
        target: BoneIndex::from_raw(1),
        loop_count: 10,
        limit_angle: std::f32::consts::PI,
        links: vec![IkLink {
            bone: BoneIndex::from_raw(0),
            has_limit: 0,
            limit_min: None,
            limit_max: None,
        }],
    });
    m.bones = vec![
        bone("link", [0.0; 3], -1),
        bone("end", [0.0, 1.0, 0.0], 0),
        ik,
    ];
    let path = dir.file("ik.pmx");
    m.write_path(&path).unwrap();
    s(&path).to_owned()
}

#[test]
fn bake_ik_writes_a_motion_that_plays_with_ik_off_as_the_original_with_ik_on() {
    let dir = TempDir::new("bake-ik");
    let model = write_ik_model(&dir);
    // The IK bone stays at (1, 0, 0) (frames 0 and 2): IK turns the link −90° about Z,
    // bringing the effector from (0, 1, 0) to the goal (1, 0, 0).
    let mut vmd = Vmd::new_v2("ik").unwrap();
    let ik = ShiftJis::new("ik").unwrap();
    vmd.bone_keys = vec![
        BoneKey::new(ik, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]),
        BoneKey::new(ik, 2, [0.0; 3], [0.0, 0.0, 0.0, 1.0]),
    ];
    let motion = dir.file("walk.vmd");
    vmd.write_path(&motion).unwrap();
    let baked = dir.file("baked.vmd");
    let out = mmd(&["vmd", "bake-ik", &model, s(&motion), "-o", s(&baked)]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("frames: 0 to 2"), "{text}");
    assert!(
        text.contains("added: 3 bone keys for 1 IK links: link"),
        "{text}"
    );
    assert!(text.contains("switched off: ik"), "{text}");
    // Played: the original with IK on, the baked one with its IK block switching IK off.
    let pose = |m: &std::path::Path| json(&mmd(&["pose", &model, s(m), "--frame", "1", "--json"]));
    let (before, after) = (pose(&motion), pose(&baked));
    assert!(close(
        &before["frames"][0]["bones"][1]["position"],
        &[1.0, 0.0, 0.0]
    ));
    assert!(close(
        &after["frames"][0]["bones"][1]["position"],
        &[1.0, 0.0, 0.0]
    ));
    let baked_vmd = Vmd::read_path(&baked).unwrap();
    let switches = baked_vmd.show_ik_keys.unwrap();
    assert_eq!(switches.len(), 1);
    assert_eq!(
        (switches[0].ik[0].name.decode(), switches[0].ik[0].enabled),
        ("ik".into(), 0)
    );
    // -o with --dry-run, and -o naming the motion without --in-place, are refused.
    let dry = dir.file("dry.vmd");
    let out = mmd(&[
        "vmd",
        "bake-ik",
        &model,
        s(&motion),
        "-o",
        s(&dry),
        "--dry-run",
    ]);
    assert_eq!(
        code(&out),
        Some(2),
        "-o and --dry-run conflict: {}",
        stderr(&out)
    );
    assert!(!dry.exists(), "a refused run wrote {}", dry.display());
    let out = mmd(&["vmd", "bake-ik", &model, s(&motion), "-o", s(&motion)]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    // A motion given as the model: 2.
    let out = mmd(&["vmd", "bake-ik", s(&motion), s(&motion), "--dry-run"]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    let out = mmd(&["vmd", "bake-ik", &model, s(&motion), "--dry-run"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("dry run, nothing written"));
}
