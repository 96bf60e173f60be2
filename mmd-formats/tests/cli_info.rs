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
    assert_eq!(j["frame_range"], "0..=110");
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
