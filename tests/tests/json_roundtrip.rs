//! The JSON form both ways (issue 13): `build(dump(x)) == x` for every built-in sample,
//! every fixture of every format, and the large generated files, through the library's
//! own JSON text and through `serde_json` (what `mmd dump --json` prints).

use mmd_formats::inspect::Format;
use mmd_formats::json;
use mmd_tests::{all_inputs, assert_bytes_eq};

/// Dumps `bytes` both ways and builds each dump back, checking the bytes.
fn round_trip(name: &str, bytes: &[u8]) {
    let format = Format::detect(bytes).unwrap_or_else(|| panic!("{name}: no format"));
    let tree = format
        .json_tree(bytes)
        .unwrap_or_else(|e| panic!("{name}: does not read: {e}"));
    let ours = json::value_to_string(&tree);
    let built = format
        .build(&ours)
        .unwrap_or_else(|e| panic!("{name}: our JSON does not build: {e}"));
    assert_bytes_eq(&built, bytes, &format!("{name} (our JSON)"));
    let theirs = serde_json::to_string(&tree).unwrap();
    let built = format
        .build(&theirs)
        .unwrap_or_else(|e| panic!("{name}: serde_json's JSON does not build: {e}"));
    assert_bytes_eq(&built, bytes, &format!("{name} (serde_json)"));
}

#[test]
fn every_sample_and_fixture_builds_back_byte_exact() {
    let inputs = all_inputs();
    assert!(inputs.len() > 10, "too few inputs: {}", inputs.len());
    for (name, bytes) in &inputs {
        round_trip(name, bytes);
    }
}
