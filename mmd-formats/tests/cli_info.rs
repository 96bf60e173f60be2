//! `mmd info` on built-in samples written to a temporary folder.
#![cfg(feature = "cli")]

use std::process::Command;

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("mmd-info-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn info(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .arg("info")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn info_reports_format_and_counts_for_every_sample() {
    let dir = temp_dir("all");
    for s in mmd_formats::samples::all() {
        let path = dir.join(s.name.replace('/', "_"));
        std::fs::write(&path, &s.bytes).unwrap();
        let p = path.to_str().unwrap();
        let (code, text) = info(&[p]);
        assert_eq!(code, 0, "{}: {text}", s.name);
        let fmt = mmd_formats::inspect::Format::detect(&s.bytes).unwrap();
        assert!(
            text.contains(&format!("format: {}\n", fmt.name())),
            "{text}"
        );
        let (code, json) = info(&["--json", p]);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!(v["format"], fmt.name());
        assert_eq!(v["size"], s.bytes.len());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn info_on_a_vmd_gives_kind_and_names() {
    let dir = temp_dir("vmd");
    let mut v = mmd_formats::vmd::Vmd::new_v2("model").unwrap();
    for frame in 0..12u32 {
        let name = mmd_formats::ShiftJis::new("センター").unwrap();
        let key = mmd_formats::vmd::BoneKey::new(name, frame * 10, [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
        v.bone_keys.push(key);
    }
    let path = dir.join("m.vmd");
    v.write_path(&path).unwrap();
    let (code, json) = info(&["--json", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    // 12 bone keys > 10: a motion (seed 004's threshold); frames 0..=110; 110 / 30 s.
    assert_eq!(j["kind"], "motion");
    assert_eq!(j["bone_keys"], 12);
    assert_eq!(
        j["frame_range"],
        serde_json::json!({"first": 0, "last": 110})
    );
    assert_eq!(j["bone_names"], serde_json::json!(["センター"]));
    assert!((j["duration_secs"].as_f64().unwrap() - 110.0 / 30.0).abs() < 1e-9);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn info_on_a_broken_file_exits_1_and_names_the_offset() {
    let dir = temp_dir("bad");
    let mut bytes = mmd_formats::samples::pmx_samples().remove(0).1;
    bytes.truncate(40);
    let path = dir.join("cut.pmx");
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["info", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("file ends at 0x28"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The 30-byte signature `sig` (padded with NULs), a 20-byte model name `m` and a version 2
/// layout: one bone key (センター at frame 7), then the five later blocks, each count 0.
fn v2_layout(sig: &[u8]) -> Vec<u8> {
    let mut b = sig.to_vec();
    b.resize(30, 0);
    b.push(b'm');
    b.resize(50, 0);
    b.extend_from_slice(&1u32.to_le_bytes());
    // センター in Shift_JIS, NUL-padded to 15 bytes.
    let name = [0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b];
    b.extend_from_slice(&name);
    b.resize(b.len() + 15 - name.len(), 0);
    b.extend_from_slice(&7u32.to_le_bytes());
    b.extend_from_slice(&[0; 12]); // position (0, 0, 0)
    b.extend_from_slice(&[0; 12]); // rotation x, y, z = 0
    b.extend_from_slice(&[0, 0, 0x80, 0x3f]); // rotation w = 1.0
    b.extend_from_slice(&[20; 64]); // interpolation
    for _ in 0..5 {
        b.extend_from_slice(&0u32.to_le_bytes());
    }
    b
}

// Issue 14: `mmd info` shows the version the layout was read with, and says when the
// signature is not one of the two MMD writes (seed 004: judge the signature by its prefix).
#[test]
fn info_on_a_vmd_names_its_layout_version_and_a_nonstandard_signature() {
    let dir = temp_dir("signature");
    let v1 = {
        let mut b = b"Vocaloid Motion Data file".to_vec();
        b.resize(30, 0);
        b.extend_from_slice(b"m\0\0\0\0\0\0\0\0\0"); // 10-byte name
        b.extend_from_slice(&0u32.to_le_bytes());
        b
    };
    let cases: [(&str, Vec<u8>, u64, bool, &str); 4] = [
        (
            "padded",
            v2_layout(b"Vocaloid Motion Data"),
            2,
            false,
            "Vocaloid Motion Data\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0",
        ),
        (
            "junk",
            v2_layout(b"Vocaloid Motion Data xyz"),
            2,
            false,
            "Vocaloid Motion Data xyz\\0\\0\\0\\0\\0\\0",
        ),
        (
            "v2",
            v2_layout(b"Vocaloid Motion Data 0002"),
            2,
            true,
            "Vocaloid Motion Data 0002\\0\\0\\0\\0\\0",
        ),
        (
            "v1",
            v1,
            1,
            true,
            "Vocaloid Motion Data file\\0\\0\\0\\0\\0",
        ),
    ];
    for (name, bytes, version, standard, signature) in cases {
        let path = dir.join(format!("{name}.vmd"));
        std::fs::write(&path, &bytes).unwrap();
        let p = path.to_str().unwrap();
        let (code, json) = info(&["--json", p]);
        assert_eq!(code, 0, "{name}: {json}");
        let j: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!(j["version"], version, "{name}");
        assert_eq!(j["standard_signature"], standard, "{name}");
        assert_eq!(j["signature"], signature, "{name}");
        let (code, text) = info(&[p]);
        assert_eq!(code, 0);
        assert!(
            text.contains(&format!("\nversion: {version}\n")),
            "{name}: {text}"
        );
        let yes_no = if standard { "yes" } else { "no" };
        assert!(
            text.contains(&format!("\nstandard_signature: {yes_no}\n")),
            "{name}: {text}"
        );
        if name != "v1" {
            assert_eq!(j["bone_keys"], 1, "{name}");
            assert_eq!(j["bone_names"], serde_json::json!(["センター"]), "{name}");
            assert_eq!(j["frame_range"], serde_json::json!({"first": 7, "last": 7}));
            assert_eq!(j["model_name"], "m");
        }
    }
    // Not a VMD signature at all: not detected as VMD.
    let path = dir.join("other.vmd");
    std::fs::write(&path, v2_layout(b"Vocaloid Motion Dat")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(["info", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn info_json_gives_numbers_and_objects_not_strings() {
    let dir = temp_dir("shapes");
    let kinds = [
        "vertex",
        "texture",
        "material",
        "bone",
        "morph",
        "rigid_body",
    ];
    for s in mmd_formats::samples::all() {
        let path = dir.join(s.name.replace('/', "_"));
        std::fs::write(&path, &s.bytes).unwrap();
        let (code, json) = info(&["--json", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{}", s.name);
        let j: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        match j["format"].as_str() {
            Some("PMX") => {
                let widths = j["index_widths"].as_object().expect("an object");
                let mut keys: Vec<&str> = widths.keys().map(String::as_str).collect();
                keys.sort_unstable();
                let mut expected = kinds.to_vec();
                expected.sort_unstable();
                assert_eq!(keys, expected, "{}", s.name);
                for (kind, width) in widths {
                    let w = width.as_u64().expect("a number");
                    assert!([1, 2, 4].contains(&w), "{}: {kind} {w}", s.name);
                }
                let v = j["version"].as_f64().expect("a number");
                assert!(v == 2.0 || v == 2.1, "{}: {v}", s.name);
            }
            // The f32 as stored (1.0 in MMD's files; a sample keeps an odd 1.5).
            Some("PMD") => assert!(j["version"].is_f64(), "{}", s.name),
            Some("VMD") => {
                let v = j["version"].as_u64().expect("a number");
                assert!(v == 1 || v == 2, "{}: {v}", s.name);
                let range = &j["frame_range"];
                assert!(
                    range.is_null() || (range["first"].is_u64() && range["last"].is_u64()),
                    "{}: {range}",
                    s.name
                );
            }
            _ => assert!(j.get("version").is_none(), "{}", s.name),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
