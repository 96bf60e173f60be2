//! The fixed paths (records decoded from bytes checked once, records written through a
//! buffer) against the ordinary reader and writer, which stay the reference: on every
//! sample and fixture, a read from memory (fixed path) equals a read from a stream
//! (value by value), the bytes written to a vector (fixed path) equal the bytes written
//! to an output that records spans (field by field), and on cut files both readers give
//! the same error; a value the writer must refuse is refused with the same error on
//! both paths.

use mmd_formats::pmx::{Pmx, Weight};
use mmd_formats::walk::{Value, Walk};
use mmd_formats::{BoneIndex, Decode, Encode, Error, IoInput, SliceInput, VertexIndex};
use mmd_tests::SpanOutput;
use std::io::Cursor;

/// Reads `bytes` from memory and from a stream.
fn both_reads<T: Decode<()>>(bytes: &[u8]) -> (Result<T, Error>, Result<T, Error>) {
    let fast = T::decode(&mut SliceInput::new(bytes), &());
    let mut cursor = Cursor::new(bytes);
    let slow = IoInput::new(&mut cursor).and_then(|mut i| T::decode(&mut i, &()));
    (fast, slow)
}

/// The error as every test sees it: message, offset, path and cut point.
fn shown(e: &Error) -> String {
    format!("{e} | {} | {:?}", e.path_string(), e.cut_path())
}

/// Both reads agree; the value writes back to the same bytes on both write paths.
fn check<T: Decode<()> + Encode<()> + Walk>(name: &str, bytes: &[u8]) {
    let (fast, slow) = both_reads::<T>(bytes);
    match (fast, slow) {
        (Ok(a), Ok(b)) => {
            // Compared as walked trees: floats by their bits (a NaN equals itself).
            assert!(Value::of(&a) == Value::of(&b), "{name}: reads differ");
            let mut vec = Vec::new();
            a.encode(&mut vec, &()).unwrap();
            let mut spans = SpanOutput::default();
            a.encode(&mut spans, &()).unwrap();
            mmd_tests::assert_bytes_eq(&vec, bytes, name);
            mmd_tests::assert_bytes_eq(&spans.0, bytes, name);
        }
        (Err(a), Err(b)) => assert_eq!(shown(&a), shown(&b), "{name}"),
        (a, b) => panic!("{name}: one read fails: {:?} / {:?}", a.err(), b.err()),
    }
}

fn by_format(name: &str, bytes: &[u8]) {
    match name.rsplit('.').next() {
        Some("pmx") => check::<Pmx>(name, bytes),
        Some("pmd") => check::<mmd_formats::pmd::Pmd>(name, bytes),
        Some("vmd") => check::<mmd_formats::vmd::Vmd>(name, bytes),
        _ => {}
    }
}

#[test]
fn every_file_reads_and_writes_alike_on_both_paths() {
    let mut seen = 0;
    for (name, bytes) in mmd_tests::all_inputs() {
        if bytes.len() > 4_000_000 {
            continue;
        }
        by_format(&name, &bytes);
        seen += 1;
    }
    assert!(seen > 10, "only {seen} inputs");
}

#[test]
fn cut_files_fail_alike_on_both_paths() {
    // Every sample cut at a spread of points, each a file that ends inside some record
    // (a vertex, a morph offset, a key): the fixed path declines and the ordinary reader
    // reports the cut exactly as a stream reader does.
    let mut cuts = 0;
    for s in mmd_formats::samples::all() {
        let name = &s.name;
        let step = (s.bytes.len() / 97).max(1);
        for at in (0..s.bytes.len()).step_by(step) {
            by_format(name, &s.bytes[..at]);
            cuts += 1;
        }
    }
    assert!(cuts > 500, "only {cuts} cuts");
}

/// A synthetic PMX model: 64 vertices of every weight type, 318 face indices (both
/// sections go out in blocks on the fixed path).
fn model() -> Pmx {
    let bytes = mmd_tests::synth::pmx(64);
    Pmx::from_bytes(&bytes).unwrap()
}

#[test]
fn a_refused_value_is_refused_alike_on_both_write_paths() {
    type Edit = fn(&mut Pmx);
    let edits: Vec<(&str, Edit)> = vec![
        ("vertices[37].weight.Bdef1.bone", |p| {
            p.vertices.get_mut(37).unwrap().weight = Weight::Bdef1 {
                bone: BoneIndex::from_raw(1 << 20),
            }
        }),
        ("faces[150]", |p| {
            p.faces[150] = VertexIndex::from_raw(1 << 20)
        }),
        ("vertices[50].additional_uv", |p| {
            p.vertices.get_mut(50).unwrap().additional_uv.push([0.0; 4])
        }),
    ];
    for (path, edit) in edits {
        let mut p = model();
        edit(&mut p);
        let ctx = ();
        let fast = p.encode(&mut Vec::new(), &ctx).unwrap_err();
        let slow = p.encode(&mut SpanOutput::default(), &ctx).unwrap_err();
        assert_eq!(fast.path_string(), path, "{fast}");
        assert_eq!(shown(&fast), shown(&slow));
    }
}
