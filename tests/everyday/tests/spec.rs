//! The formats' references and whole-file Kaitai grammars, rendered through mmd-spec's
//! public API from the same annotations as their readers (committed beside the crate;
//! refresh with `MMD_SPEC_BLESS=1`); each grammar, compiled by the real Kaitai compiler,
//! reads every sample to its last byte into exactly the fields our reader reads. And the
//! crate holds no hand-written codec: every format type is derived.

mod common;

use everyday_formats::bmp::Bmp;
use everyday_formats::ico::Ico;
use everyday_formats::read;
use everyday_formats::wav::Wav;
use mmd_formats::codec::Decode;
use mmd_formats::layout::Describe;
use mmd_formats::walk::{Value as Walked, Walk};
use mmd_spec::{render_ksy, render_markdown, Spec};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Checks `text` against the committed `reference/<file>` (or writes it when blessing).
fn committed(file: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference")
        .join(file);
    if std::env::var_os("MMD_SPEC_BLESS").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): run with MMD_SPEC_BLESS=1",
            path.display()
        )
    });
    assert!(
        current == text,
        "{} is out of date: run with MMD_SPEC_BLESS=1 and review the diff",
        path.display()
    );
}

#[test]
fn the_references_render_and_state_what_the_formats_need() {
    let wav = Spec::of::<Wav>().unwrap();
    let md = render_markdown(&wav);
    let fmt = u32::from_le_bytes(*b"fmt ");
    assert!(
        md.contains(&format!(r#"| {fmt} ("fmt ") | `Format` |"#)),
        "{md}"
    );
    assert!(md.contains("| any other | `Other` |"), "{md}");
    let ksy = render_ksy(&wav).unwrap();
    assert!(ksy.contains(r#"FourCC "LIST"."#), "{ksy}");
    committed("wav.md", &md);
    committed("wav.ksy", &ksy);

    let bmp = Spec::of::<Bmp>().unwrap();
    let md = render_markdown(&bmp);
    assert!(
        md.contains("`header_size == 12`") || md.contains("header_size == 12"),
        "{md}"
    );
    let ksy = render_ksy(&bmp).unwrap();
    assert!(
        ksy.contains("pos:"),
        "the rows and the profile are positioned: {ksy}"
    );
    assert!(ksy.contains("(header_size != 12 ? height : 0)"), "{ksy}");
    committed("bmp.md", &md);
    committed("bmp.ksy", &ksy);

    let ico = Spec::of::<Ico>().unwrap();
    let md = render_markdown(&ico);
    let ksy = render_ksy(&ico).unwrap();
    assert!(ksy.contains("-mmd-gaps"), "{ksy}");
    committed("ico.md", &md);
    committed("ico.ksy", &ksy);
}

/// The Kaitai checker beside mmd-spec, or `None` when it cannot run here (an error with
/// `MMD_KAITAI=require`).
fn checker() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mmd-spec/kaitai-check");
    let ready = dir.join("node_modules/kaitai-struct-compiler").is_dir()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if ready {
        return Some(dir);
    }
    assert!(
        std::env::var("MMD_KAITAI").as_deref() != Ok("require"),
        "MMD_KAITAI=require but Node.js or {}/node_modules is missing: run `npm ci --prefix \
         mmd-spec/kaitai-check`",
        dir.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped: the Kaitai cross-check needs Node.js and `npm ci --prefix mmd-spec/kaitai-check`"
    );
    None
}

/// Compiles `T`'s whole-file grammar and parses every sample with it; the tree of each
/// must equal the one our reader's values predict, every field and the last byte.
fn kaitai_reads_alike<T: Decode<()> + Walk + Describe>(samples: Vec<(&str, Vec<u8>)>) {
    let spec = Spec::of::<T>().unwrap();
    let ksy_text = render_ksy(&spec).unwrap();
    let Some(dir) = checker() else { return };
    let tmp = std::env::temp_dir().join(format!("everyday-{}-{}", spec.id, std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let ksy = tmp.join(format!("{}.ksy", spec.id));
    std::fs::write(&ksy, &ksy_text).unwrap();
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for (name, bytes) in &samples {
        let path = tmp.join(format!("{name}.{}", spec.id));
        std::fs::write(&path, bytes).unwrap();
        let ours = Walked::of(&read::<T>(bytes).unwrap());
        let tree = mmd_spec::ksy::expected_tree(&ours, spec.root).unwrap();
        expected.push(serde_json::from_str::<Value>(&tree).unwrap());
        files.push(path);
    }
    let out = Command::new("node")
        .arg(dir.join("tree.js"))
        .arg(&ksy)
        .args(&files)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        files.len(),
        "{}: one line per file: {}\n{ksy_text}",
        spec.id,
        String::from_utf8_lossy(&out.stderr)
    );
    for ((file, ours), line) in files.iter().zip(&expected).zip(lines) {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            r["ok"],
            Value::Bool(true),
            "{}: {}",
            file.display(),
            r["error"]
        );
        assert_eq!(&r["tree"], ours, "{}", file.display());
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn the_wav_grammar_reads_every_sample_as_we_do() {
    kaitai_reads_alike::<Wav>(common::wavs());
}

#[test]
fn the_bmp_grammar_reads_every_sample_as_we_do() {
    kaitai_reads_alike::<Bmp>(common::bmps());
}

#[test]
fn the_ico_grammar_reads_every_sample_as_we_do() {
    kaitai_reads_alike::<Ico>(common::icos());
}

#[test]
fn the_crate_holds_no_hand_written_codec() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        files += 1;
        for word in [
            "Decode", "Encode", "Walk", "FromJson", "Describe", "BinRead", "BinWrite",
        ] {
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                assert!(
                    !(code.contains("impl") && code.contains(word)),
                    "{}:{}: a hand-written `{word}`: {line}",
                    path.display(),
                    i + 1
                );
            }
        }
    }
    assert_eq!(files, 4, "lib.rs, wav.rs, bmp.rs, ico.rs");
}
