//! `mmd dump`, `mmd explain` and `mmd diff`, run as processes on files built in code.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::ShiftJis;

/// A fresh directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let d =
            std::env::temp_dir().join(format!("mmd-inspect-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `mmd`: (exit code, stdout, stderr).
fn mmd(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mmd"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A VMD with two bone keys: header 50 bytes, count at 50, keys of 111 bytes from 54.
fn vmd() -> Vmd {
    let mut v = Vmd::new_v2("model").unwrap();
    for f in 0..2u32 {
        let key = BoneKey::new(
            ShiftJis::new("センター").unwrap(),
            f * 10,
            [0.5, 1.5, 2.5],
            [0.0, 0.0, 0.0, 1.0],
        );
        v.bone_keys.push(key);
    }
    v
}

#[test]
fn dump_prints_text_and_json() {
    let dir = TempDir::new("dump");
    let v = vmd();
    let p = dir.file("a.vmd", &v.to_bytes().unwrap());
    let (code, text, _) = mmd(&["dump", &p]);
    assert_eq!(code, 0);
    assert!(text.starts_with("header: Header\n"), "{text}");
    assert!(text.contains("\n    name: \"センター\"\n"), "{text}");
    assert!(text.contains("\n    position: [0.5, 1.5, 2.5]\n"), "{text}");
    let (code, json, _) = mmd(&["dump", "--json", &p]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(j["bone_keys"].as_array().unwrap().len(), 2);
    assert_eq!(j["bone_keys"][1]["frame"], 10);
    assert_eq!(j["bone_keys"][0]["name"], "センター");
    assert_eq!(j["show_ik_keys"], serde_json::json!([]));
    // Every sample dumps.
    for s in mmd_formats::samples::all() {
        let p = dir.file(&s.name.replace('/', "_"), &s.bytes);
        let (code, json, err) = mmd(&["dump", "--json", &p]);
        assert_eq!(code, 0, "{}: {err}", s.name);
        assert!(serde_json::from_str::<serde_json::Value>(json.trim()).is_ok());
    }
}

#[test]
fn dump_exit_codes() {
    let dir = TempDir::new("dump-codes");
    let bytes = vmd().to_bytes().unwrap();
    let cut = dir.file("cut.vmd", &bytes[..60]);
    let (code, out, err) = mmd(&["dump", &cut]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("bone_keys"), "{err}");
    let junk = dir.file("junk.bin", b"not a model");
    let (code, out, err) = mmd(&["dump", &junk]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    // The message says why the format is unknown: what the file starts with.
    assert_eq!(
        err,
        format!(
            "mmd dump: {junk}: no known signature (PMX, PMD, VMD or VPD); the file starts \
             with 6e 6f 74 20 61 20 6d 6f 64 65 6c (\"not a model\")\n"
        )
    );
    let missing = Path::new(&dir.0).join("missing.pmx");
    assert_eq!(mmd(&["dump", missing.to_str().unwrap()]).0, 2);
    let (code, help, _) = mmd(&["dump", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("Exit codes: 0 = dumped"), "{help}");
}

#[test]
fn explain_names_the_field_its_range_and_value() {
    let dir = TempDir::new("explain");
    let p = dir.file("a.vmd", &vmd().to_bytes().unwrap());
    // Byte 50: the bone-key count (4 bytes, value 2).
    let (code, text, _) = mmd(&["explain", &p, "50"]);
    assert_eq!(code, 0);
    assert!(text.contains("field:  bone_keys.count\n"), "{text}");
    assert!(text.contains("range:  0x32..0x36 (4 bytes)\n"), "{text}");
    assert!(text.contains("bytes:  02 00 00 00\n"), "{text}");
    assert!(text.contains("value:  2\n"), "{text}");
    // Second key (54 + 111 = 165): name 15, frame 4, then position y at 165 + 19 + 4.
    let (code, text, _) = mmd(&["explain", &p, "0xbc"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("offset: 0xbc (188), byte 0 of the field\n"),
        "{text}"
    );
    assert!(
        text.contains("field:  bone_keys[1].position[1]\n"),
        "{text}"
    );
    assert!(text.contains("value:  1.5\n"), "{text}");
    // Several offsets, as JSON lines.
    let (code, json, _) = mmd(&["explain", "--json", &p, "0", "189", "54"]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["path"], "header.signature");
    assert_eq!(lines[1]["path"], "bone_keys[1].position[1]");
    assert_eq!(lines[1]["start"], 188);
    assert_eq!(lines[1]["end"], 192);
    assert_eq!(lines[1]["value"], 1.5);
    assert_eq!(lines[1]["bytes"], "0000c03f");
    assert_eq!(lines[2]["path"], "bone_keys[0].name");
    assert_eq!(lines[2]["value"], "センター");
    assert_eq!(
        lines[1]["segments"],
        serde_json::json!(["bone_keys", 1, "position", 1])
    );
}

#[test]
fn explain_exit_codes() {
    let dir = TempDir::new("explain-codes");
    let bytes = vmd().to_bytes().unwrap();
    let p = dir.file("a.vmd", &bytes);
    let len = bytes.len().to_string();
    let (code, _, err) = mmd(&["explain", &p, &len]);
    assert_eq!(code, 2, "past the end");
    assert!(err.contains("past the end"), "{err}");
    assert_eq!(mmd(&["explain", &p, "0xzz"]).0, 2, "not an offset");
    assert_eq!(mmd(&["explain", &p]).0, 2, "no offset");
    // A cut file is explained as far as it goes (cli_manners.rs has the details); a
    // corrupt one does not read.
    let cut = dir.file("cut.vmd", &bytes[..100]);
    let (code, _, err) = mmd(&["explain", &cut, "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is truncated"), "{err}");
    let mut corrupt = mmd_formats::samples::pmx_samples().remove(0).1;
    corrupt[8] = 9; // the PMX globals count, 8
    let corrupt = dir.file("corrupt.pmx", &corrupt);
    assert_eq!(mmd(&["explain", &corrupt, "3"]).0, 1, "does not read");
    let (_, help, _) = mmd(&["explain", "--help"]);
    assert!(
        help.contains("Exit codes: 0 = every offset explained"),
        "{help}"
    );
}

#[test]
fn diff_is_silent_on_equal_files_and_lists_fields_otherwise() {
    let dir = TempDir::new("diff");
    let v = vmd();
    let a = dir.file("a.vmd", &v.to_bytes().unwrap());
    let same = dir.file("same.vmd", &v.to_bytes().unwrap());
    let (code, out, err) = mmd(&["diff", &a, &same]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    // One float changed: one line.
    let mut w = v.clone();
    w.bone_keys[1].rotation[3] = 0.5;
    let b = dir.file("b.vmd", &w.to_bytes().unwrap());
    let (code, out, _) = mmd(&["diff", &a, &b]);
    assert_eq!(code, 1);
    assert_eq!(out, "bone_keys[1].rotation[3]: 1.0 -> 0.5\n");
    // A key more, and an absent block.
    w.bone_keys.push(w.bone_keys[0]);
    w.show_ik_keys = None;
    let c = dir.file("c.vmd", &w.to_bytes().unwrap());
    let (code, out, _) = mmd(&["diff", &a, &c]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "bone_keys[1].rotation[3]: 1.0 -> 0.5\n\
         bone_keys[2]: added BoneKey {..}\n\
         show_ik_keys: [0 elements] -> absent\n"
    );
    let (code, json, _) = mmd(&["diff", "--json", &a, &b]);
    assert_eq!(code, 1);
    let j: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(j["equal"], false);
    assert_eq!(j["differences"][0]["path"], "bone_keys[1].rotation[3]");
    assert_eq!(j["differences"][0]["change"], "changed");
    assert_eq!(j["differences"][0]["old"], 1.0);
    assert_eq!(j["differences"][0]["new"], 0.5);
    let (code, json, _) = mmd(&["diff", "--json", &a, &same]);
    assert_eq!(code, 0);
    assert_eq!(json.trim(), r#"{"equal":true,"differences":[]}"#);
}

#[test]
fn diff_exit_code_2_is_trouble() {
    let dir = TempDir::new("diff-codes");
    let bytes = vmd().to_bytes().unwrap();
    let a = dir.file("a.vmd", &bytes);
    let pmx = mmd_formats::samples::pmx_samples().remove(0).1;
    let m = dir.file("m.pmx", &pmx);
    let (code, _, err) = mmd(&["diff", &a, &m]);
    assert_eq!(code, 2);
    assert!(err.contains("only files of one format"), "{err}");
    let cut = dir.file("cut.vmd", &bytes[..100]);
    assert_eq!(mmd(&["diff", &a, &cut]).0, 2, "a file that does not read");
    assert_eq!(mmd(&["diff", &a, "/nonexistent/x.vmd"]).0, 2);
    assert_eq!(mmd(&["diff", &a]).0, 2, "usage");
    let (_, help, _) = mmd(&["diff", "--help"]);
    assert!(help.contains("Exit codes: 0 = the files agree; 1 = they differ"));
    assert!(help.contains("2 = trouble"), "{help}");
}

#[test]
fn diff_of_vpd_layout_only_is_one_layout_line() {
    let dir = TempDir::new("diff-vpd");
    let vpd = mmd_formats::samples::vpd_samples().remove(0).1;
    let a = dir.file("a.vpd", &vpd);
    // The same pose with a comment line added at the end.
    let mut more = vpd.clone();
    more.extend_from_slice(b"// a note\n");
    let b = dir.file("b.vpd", &more);
    let (code, out, _) = mmd(&["diff", &a, &b]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("(layout): the files first differ at byte "),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn check_draws_no_progress_bar_when_stderr_is_not_a_terminal() {
    let dir = TempDir::new("check-quiet");
    for s in mmd_formats::samples::all().into_iter().take(5) {
        dir.file(&s.name.replace('/', "_"), &s.bytes);
    }
    let (code, out, err) = mmd(&["check", dir.0.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(err, "", "stderr must stay empty when it is not a terminal");
}
