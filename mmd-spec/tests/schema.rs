//! The committed JSON Schemas (draft 2020-12) against a real validator (issue 13): the
//! JSON form of every built-in sample and every PMX, PMD and VMD fixture validates against
//! its format's schema, and a document with a wrong type, a missing member or an unknown
//! variant does not.

use mmd_formats::inspect::Format;
use serde_json::Value;

fn validator(id: &str) -> jsonschema::Validator {
    let path = format!("{}/schema/{id}.schema.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn dump(format: Format, bytes: &[u8]) -> Value {
    let tree = format.json_tree(bytes).unwrap();
    serde_json::from_str(&mmd_formats::json::value_to_string(&tree)).unwrap()
}

fn id(format: Format) -> &'static str {
    match format {
        Format::Pmx => "pmx",
        Format::Pmd => "pmd",
        _ => "vmd",
    }
}

#[test]
fn every_sample_and_fixture_validates() {
    let mut inputs: Vec<(String, Vec<u8>)> = mmd_formats::samples::all()
        .into_iter()
        .map(|s| (s.name, s.bytes))
        .collect();
    for ext in ["pmx", "pmd", "vmd"] {
        for f in mmd_tests::corpus_files(ext, ext).unwrap_or_default() {
            inputs.push((f.display().to_string(), std::fs::read(&f).unwrap()));
        }
    }
    let validators: Vec<(Format, jsonschema::Validator)> = [Format::Pmx, Format::Pmd, Format::Vmd]
        .into_iter()
        .map(|f| (f, validator(id(f))))
        .collect();
    let mut checked = 0;
    for (name, bytes) in &inputs {
        let format = Format::detect(bytes).unwrap();
        let Some((_, v)) = validators.iter().find(|(f, _)| *f == format) else {
            continue;
        };
        let doc = dump(format, bytes);
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .take(3)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} documents validated");
}

#[test]
fn a_wrong_type_a_missing_member_and_an_unknown_variant_are_rejected() {
    let v = validator("pmx");
    let bytes = mmd_formats::samples::pmx_samples()
        .into_iter()
        .map(|(_, b)| b)
        .find(|b| {
            let p = mmd_formats::pmx::Pmx::from_bytes(b).unwrap();
            !p.vertices.is_empty() && !p.bones.is_empty()
        })
        .unwrap();
    let good = dump(Format::Pmx, &bytes);
    assert!(v.is_valid(&good));
    let mut wrong_type = good.clone();
    wrong_type["header"]["version"] = Value::String("2.0".into());
    assert!(!v.is_valid(&wrong_type), "a string for a float");
    let mut missing = good.clone();
    missing["bones"][0]
        .as_object_mut()
        .unwrap()
        .remove("position");
    assert!(!v.is_valid(&missing), "a bone without its position");
    let mut unknown = good.clone();
    unknown["vertices"][0]["weight"] = serde_json::json!({"Bdef9": {"bone": 0}});
    assert!(!v.is_valid(&unknown), "an unknown weight variant");
    let mut extra = good.clone();
    extra["bones"][0]["nmae"] = Value::String("x".into());
    assert!(!v.is_valid(&extra), "an unknown member");
    let mut long = dump(
        Format::Vmd,
        &mmd_formats::samples::vmd_samples().remove(0).1,
    );
    long["header"]["signature"] = serde_json::json!({"hex": "00"});
    assert!(
        !validator("vmd").is_valid(&long),
        "a 1-byte signature for a 30-byte field"
    );
}
