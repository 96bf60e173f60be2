//! The three formats' JSON both ways (the dump of every sample builds back to the same
//! bytes, through mmd-formats' own JSON and through serde), and their JSON Schemas
//! (rendered through mmd-spec, committed, drift-checked): every dump validates, and a
//! document with an object where a list goes does not.

mod common;

use everyday_formats::bmp::Bmp;
use everyday_formats::ico::Ico;
use everyday_formats::wav::Wav;
use everyday_formats::{read, write};
use mmd_formats::codec::{Decode, Encode};
use mmd_formats::json::{self, FromJson};
use mmd_formats::layout::Describe;
use mmd_formats::walk::Walk;
use std::path::Path;

fn builds_back<T>(samples: Vec<(&str, Vec<u8>)>)
where
    T: Decode<()>
        + Encode<()>
        + Walk
        + FromJson<()>
        + serde::Serialize
        + serde::de::DeserializeOwned,
{
    for (name, bytes) in samples {
        let v: T = read(&bytes).unwrap();
        let text = json::to_string(&v);
        let back: T = json::from_str(&text, &()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(write(&back).unwrap(), bytes, "{name}");
        let via_serde = serde_json::to_string(&v).unwrap();
        let back: T = serde_json::from_str(&via_serde).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(write(&back).unwrap(), bytes, "{name} (serde)");
    }
}

#[test]
fn every_sample_builds_back_from_its_json() {
    builds_back::<Wav>(common::wavs());
    builds_back::<Bmp>(common::bmps());
    builds_back::<Ico>(common::icos());
}

/// Renders `T`'s schema, checks it against the committed copy, validates every sample's
/// dump, and returns the validator.
fn schema_of<T: Describe + Decode<()> + Walk>(
    id: &str,
    samples: Vec<(&str, Vec<u8>)>,
) -> (jsonschema::Validator, Vec<serde_json::Value>) {
    let schema = mmd_spec::render_schema(&mmd_spec::Spec::of::<T>().unwrap());
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("reference/{id}.schema.json"));
    if std::env::var_os("MMD_SPEC_BLESS").is_some() {
        std::fs::write(&path, &schema).unwrap();
    }
    let current = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): run with MMD_SPEC_BLESS=1",
            path.display()
        )
    });
    assert!(
        current == schema,
        "{} is out of date: run with MMD_SPEC_BLESS=1 and review the diff",
        path.display()
    );
    let v = jsonschema::draft202012::new(&serde_json::from_str(&schema).unwrap()).unwrap();
    let mut docs = Vec::new();
    for (name, bytes) in samples {
        let doc: serde_json::Value =
            serde_json::from_str(&json::to_string(&read::<T>(&bytes).unwrap())).unwrap();
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{id} {name}: {errors:?}");
        docs.push(doc);
    }
    (v, docs)
}

#[test]
fn the_wav_schema_validates_every_dump_and_rejects_a_broken_one() {
    let (v, docs) = schema_of::<Wav>("wav", common::wavs());
    let mut bad = docs[0].clone();
    bad["wave"]["chunks"] = serde_json::json!({"Data": {}});
    assert!(!v.is_valid(&bad), "an object where the chunk list goes");
    let mut bad = docs[0].clone();
    bad["wave"]["chunks"][0] = serde_json::json!({"Cue": {}});
    assert!(
        !v.is_valid(&bad),
        "a chunk variant the format does not have"
    );
}

#[test]
fn the_bmp_schema_validates_every_dump_and_rejects_a_broken_one() {
    let (v, docs) = schema_of::<Bmp>("bmp", common::bmps());
    let mut bad = docs[0].clone();
    bad["rows"] = serde_json::json!({"pixels": {"hex": "80"}});
    assert!(!v.is_valid(&bad), "an object where the row list goes");
    let mut bad = docs[0].clone();
    bad["header_size"] = serde_json::json!("twelve");
    assert!(!v.is_valid(&bad), "text where a number goes");
}

#[test]
fn the_ico_schema_validates_every_dump_and_rejects_a_broken_one() {
    let (v, docs) = schema_of::<Ico>("ico", common::icos());
    let mut bad = docs[0].clone();
    bad["entries"] = serde_json::json!({"width": 16});
    assert!(!v.is_valid(&bad), "an object where the directory goes");
    let mut bad = docs[0].clone();
    bad["gaps"] = serde_json::json!([{"hex": ""}, 7]);
    assert!(!v.is_valid(&bad), "a number where a gap's bytes go");
}

#[test]
fn a_broken_document_names_its_json_path_when_built() {
    let doc = json::to_string(&read::<Ico>(&common::ICO_OUT_OF_ORDER).unwrap());
    let mut doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    doc["entries"] = serde_json::json!({"width": 16});
    let e = json::from_str::<Ico, _>(&doc.to_string(), &()).unwrap_err();
    assert!(e.to_string().starts_with("$.entries"), "{e}");
}
