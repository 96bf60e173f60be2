//! `mmd lint` (issue 24): the line format, the summary, --deny and --allow, --model, the
//! exit codes, escaping, and --json against its committed JSON Schema.
#![cfg(feature = "cli")]

mod cli_common;

use cli_common::{code, json, mmd, s, stderr, stdout, TempDir};
use mmd_formats::pmx::{Bone, BoneFlags, BoneTail, DisplayFrame, FrameElement, Pmx, PmxContext};
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::{BoneIndex, PmxText, ShiftJis, TextEncoding, VertexIndex};

fn t(text: &str) -> PmxText {
    PmxText::new(text, TextEncoding::Utf16Le)
}

fn bone(name: &str, parent: i32) -> Bone {
    Bone {
        name: t(name),
        name_en: t(""),
        position: [0.0; 3],
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

/// A model with two bones, the second's name 16 bytes in Shift_JIS (W012), and the two
/// special display frames: its only finding is that W012.
fn model(second: &str) -> Pmx {
    let mut m = Pmx::new("lint", &PmxContext::default());
    m.bones = vec![bone("センター", -1), bone(second, 0)];
    let frame = |name: &str, elements: Vec<FrameElement>| DisplayFrame {
        name: t(name),
        name_en: t(""),
        special: 1,
        elements,
    };
    m.display_frames = vec![
        frame("Root", vec![FrameElement::Bone(BoneIndex::from_raw(0))]),
        frame("表情", Vec::<FrameElement>::new()),
    ];
    m
}

const LONG: &str = "右ひじ捩れ補助先";

const W012: &str = "warning W012 bones[1].name: \"右ひじ捩れ補助先\" is 16 bytes in Shift_JIS; \
                    a VMD key holds 15, so no motion can move this bone";

fn write_model(dir: &TempDir, name: &str, m: &Pmx) -> String {
    let path = dir.file(name);
    m.write_path(&path).unwrap();
    s(&path).to_owned()
}

#[test]
fn one_line_per_finding_then_a_summary_and_exit_0_for_warnings() {
    let dir = TempDir::new("lint-line");
    let p = write_model(&dir, "m.pmx", &model(LONG));
    let out = mmd(&["lint", &p]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("{W012}\n1 file: 0 errors, 1 warning, 0 infos\n")
    );
    // 15 bytes: nothing found.
    let p = write_model(&dir, "ok.pmx", &model("右ひじ捩れ補助A"));
    let out = mmd(&["lint", &p]);
    assert_eq!(code(&out), Some(0));
    assert_eq!(stdout(&out), "1 file: 0 errors, 0 warnings, 0 infos\n");
}

#[test]
fn deny_makes_a_warning_an_error_and_allow_leaves_it_out() {
    let dir = TempDir::new("lint-deny");
    let p = write_model(&dir, "m.pmx", &model(LONG));
    let denied_line = W012.replacen("warning", "error", 1);
    for deny in ["W012", "w012", "warnings"] {
        let out = mmd(&["lint", "--deny", deny, &p]);
        assert_eq!(code(&out), Some(1), "--deny {deny}");
        assert_eq!(
            stdout(&out),
            format!("{denied_line}\n1 file: 1 error, 0 warnings, 0 infos\n")
        );
    }
    // Denying another rule changes nothing.
    let out = mmd(&["lint", "--deny", "W013", &p]);
    assert_eq!(code(&out), Some(0));
    let out = mmd(&["lint", "--allow", "W012", "--deny", "warnings", &p]);
    assert_eq!(code(&out), Some(0));
    assert_eq!(
        stdout(&out),
        "1 file: 0 errors, 0 warnings, 0 infos, 1 allowed\n"
    );
    let out = mmd(&["lint", "--deny", "W999", &p]);
    assert_eq!(code(&out), Some(2));
    assert!(
        stderr(&out).contains("unknown rule code \"W999\""),
        "{}",
        stderr(&out)
    );
    let out = mmd(&["lint", "--allow", "warnings", &p]);
    assert_eq!(code(&out), Some(2), "`warnings` is for --deny only");
}

#[test]
fn an_error_exits_1_and_names_the_field() {
    let dir = TempDir::new("lint-error");
    let mut m = model("左腕");
    m.faces = [0, 1, 2].map(VertexIndex::from_raw).to_vec();
    let p = write_model(&dir, "m.pmx", &m);
    let out = mmd(&["lint", &p]);
    assert_eq!(code(&out), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(
            "error E005 faces[0]: vertex 0 does not exist: the model has 0 vertices (3 face \
             indices name no vertex)\n"
        ),
        "{text}"
    );
    assert!(text.contains("warning W007 materials: "), "{text}");
    assert!(
        text.ends_with("1 file: 1 error, 1 warning, 0 infos\n"),
        "{text}"
    );
}

#[test]
fn trouble_exits_2_and_a_file_that_does_not_read_exits_1() {
    let dir = TempDir::new("lint-trouble");
    let good = write_model(&dir, "m.pmx", &model("左腕"));
    let missing = s(&dir.file("none.pmx")).to_owned();
    let out = mmd(&["lint", &good, &missing]);
    assert_eq!(code(&out), Some(2));
    assert!(stdout(&out).contains("cannot read"), "{}", stdout(&out));
    assert!(
        stdout(&out).ends_with(", 1 not checked\n"),
        "{}",
        stdout(&out)
    );
    let notes = dir.write("notes.txt", b"memo: buy milk");
    assert_eq!(code(&mmd(&["lint", s(&notes)])), Some(2));
    let cut = dir.write("cut.pmx", b"PMX \0\0");
    let out = mmd(&["lint", s(&cut)]);
    assert_eq!(code(&out), Some(1));
    assert!(stdout(&out).contains("truncated"), "{}", stdout(&out));
    // A --model that is not a model is trouble: the motions cannot be checked.
    let motion = dir.file("a.vmd");
    Vmd::new("m").unwrap().write_path(&motion).unwrap();
    let out = mmd(&["lint", "--model", s(&motion), s(&motion)]);
    assert_eq!(code(&out), Some(2));
    assert!(stderr(&out).contains("not a model"), "{}", stderr(&out));
    // No FILE: usage.
    assert_eq!(code(&mmd(&["lint"])), Some(2));
}

#[test]
fn with_a_model_a_motion_binds_by_name() {
    let dir = TempDir::new("lint-model");
    let p = write_model(&dir, "m.pmx", &model("左腕"));
    let mut v = Vmd::new("m").unwrap();
    for name in ["センター", "右腕"] {
        v.bone_keys.push(BoneKey::new(
            ShiftJis::new(name).unwrap(),
            0,
            [0.0; 3],
            [0.0, 0.0, 0.0, 1.0],
        ));
    }
    let motion = dir.file("a.vmd");
    v.write_path(&motion).unwrap();
    let alone = mmd(&["lint", s(&motion)]);
    assert_eq!(stdout(&alone), "1 file: 0 errors, 0 warnings, 0 infos\n");
    let out = mmd(&["lint", "--model", &p, s(&motion)]);
    assert_eq!(code(&out), Some(0));
    assert_eq!(
        stdout(&out),
        format!(
            "warning W022 bone_keys[1].name: bone track \"右腕\" (1 key) names no bone of the \
             model, so it moves nothing\n1 file: 0 errors, 1 warning, 0 infos (bound to {p})\n"
        )
    );
    // Several files: each file's findings after a line naming it.
    let out = mmd(&["lint", "--model", &p, &p, s(&motion)]);
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("{} (VMD):\nwarning W022 ", s(&motion))),
        "{text}"
    );
    assert!(text.ends_with(&format!(
        "2 files: 0 errors, 1 warning, 0 infos (bound to {p})\n"
    )));
}

#[test]
fn text_from_the_file_is_escaped() {
    let dir = TempDir::new("lint-escape");
    let mut m = model("a\u{1b}]0;owned\u{7}b");
    m.bones.push(bone("a\u{1b}]0;owned\u{7}b", 0));
    let p = write_model(&dir, "m.pmx", &m);
    let out = mmd(&["lint", &p]);
    let text = stdout(&out);
    assert!(text.contains("W015"), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}]0;owned\\u{7}"), "{text}");
}

fn validator() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../mmd-spec/schema/lint.schema.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::new(&schema).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, doc: &serde_json::Value) {
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{doc}");
}

#[test]
fn json_is_one_document_that_its_schema_accepts() {
    let dir = TempDir::new("lint-json");
    let v = validator();
    let p = write_model(&dir, "m.pmx", &model(LONG));
    let cut = dir.write("cut.pmx", b"PMX \0\0");
    let out = mmd(&["lint", "--json", "--deny", "warnings", &p, s(&cut)]);
    assert_eq!(code(&out), Some(1));
    let doc = json(&out);
    assert_valid(&v, &doc);
    let finding = &doc["files"][0]["findings"][0];
    assert_eq!(finding["code"], "W012");
    assert_eq!(finding["severity"], "error");
    assert_eq!(finding["denied"], true);
    assert_eq!(finding["path"], "bones[1].name");
    assert_eq!(doc["files"][0]["format"], "PMX");
    assert_eq!(doc["files"][1]["format"], "PMX");
    assert!(doc["files"][1]["error"]
        .as_str()
        .unwrap()
        .contains("truncated"));
    assert_eq!(doc["model"], serde_json::Value::Null);
    assert_eq!(doc["summary"]["errors"], 1);
    assert_eq!(doc["summary"]["unread"], 1);
    // A document the schema must refuse: an unknown code, a missing member.
    let mut bad = doc.clone();
    bad["files"][0]["findings"][0]["code"] = "W999".into();
    assert!(!v.is_valid(&bad));
    let mut bad = doc.clone();
    bad["summary"].as_object_mut().unwrap().remove("infos");
    assert!(!v.is_valid(&bad));
    // Every fixture, in one run, with and without a model.
    let Some(corpus) = mmd_tests::corpus_dir() else {
        return;
    };
    let files: Vec<String> = ["pmx", "pmd", "vmd", "vpd"]
        .iter()
        .flat_map(|ext| mmd_tests::corpus_files(ext, ext).unwrap_or_default())
        .map(|f| f.display().to_string())
        .collect();
    assert!(files.len() > 60, "{} fixtures", files.len());
    let mut args = vec!["lint", "--json"];
    args.extend(files.iter().map(String::as_str));
    let doc = json(&mmd(&args));
    assert_valid(&v, &doc);
    let model = corpus.join("pmx/gene.pmx");
    let mut args = vec!["lint", "--json", "--model", s(&model)];
    args.extend(files.iter().map(String::as_str));
    let doc = json(&mmd(&args));
    assert_valid(&v, &doc);
}

#[test]
fn rules_lists_the_table() {
    let out = mmd(&["lint", "--rules"]);
    assert_eq!(code(&out), Some(0));
    let text = stdout(&out);
    let codes: Vec<&str> = text.lines().filter_map(|l| l.split(' ').next()).collect();
    let table: Vec<&str> = mmd_formats::lint::RULES.iter().map(|r| r.code).collect();
    assert_eq!(codes, table);
    assert!(
        text.contains("W012 warning names: a bone name longer than 15 bytes"),
        "{text}"
    );
    let doc = json(&mmd(&["lint", "--rules", "--json"]));
    assert_eq!(doc.as_array().unwrap().len(), table.len());
    assert_eq!(doc[0]["code"], "E001");
    assert!(doc[0]["evidence"].as_str().unwrap().contains("-1"));
}
