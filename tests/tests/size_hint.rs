//! `Encode::size_hint` is the exact length the writer writes: for every built-in sample,
//! every fixture of the corpus (which must be there under `MMD_REQUIRE_CORPUS=1`), the
//! synthetic files of the `speed` bench, and values after the edits that take the
//! vertices' and the VPD's slower ways of counting. `to_bytes` reserves the hint, so a
//! hint that is exact means a written file is never copied as its vector grows.

use mmd_formats::pmd::Pmd;
use mmd_formats::pmx::{Pmx, Weight};
use mmd_formats::vmd::Vmd;
use mmd_formats::vpd::Vpd;
use mmd_formats::{BoneIndex, Encode};
use mmd_tests::{all_inputs, assert_bytes_eq, fixture, synth};

/// The hint and the written bytes of `value`, which was read from `bytes`: the bytes
/// must be the input (the round trip) and the hint their length.
fn check<T: Encode<()>>(name: &str, value: &T, bytes: &[u8], written: Vec<u8>) {
    assert_bytes_eq(&written, bytes, name);
    assert_eq!(value.size_hint(&()), bytes.len(), "{name}: size_hint");
}

/// Checks the hint of the file `bytes`, by its name's extension; its length.
fn check_file(name: &str, bytes: &[u8]) -> usize {
    let ext = name.rsplit('.').next().unwrap().to_ascii_lowercase();
    match ext.as_str() {
        "pmx" => {
            let v = Pmx::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            check(name, &v, bytes, v.to_bytes().unwrap());
        }
        "pmd" => {
            let v = Pmd::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            check(name, &v, bytes, v.to_bytes().unwrap());
        }
        "vmd" => {
            let v = Vmd::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            check(name, &v, bytes, v.to_bytes().unwrap());
        }
        "vpd" => {
            let v = Vpd::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            check(name, &v, bytes, v.to_bytes().unwrap());
        }
        other => panic!("{name}: no format for .{other}"),
    }
    bytes.len()
}

#[test]
fn the_hint_is_the_written_length_of_every_sample_and_fixture() {
    let inputs = all_inputs();
    let builtin = inputs
        .iter()
        .filter(|(n, _)| n.starts_with("<builtin>/"))
        .count();
    assert!(builtin >= 4, "only {builtin} built-in samples");
    for (name, bytes) in &inputs {
        check_file(name, bytes);
    }
}

/// The large fixtures by name, with the sizes the corpus's MANIFEST.tsv gives them: the
/// ones the bench writes.
#[test]
fn the_hint_of_the_large_fixtures() {
    for (rel, size) in [
        ("pmx/gene.pmx", 2_814_228),
        ("vmd/nuekaze_motion.vmd", 3_175_466),
        ("pmd/gene.pmd", 2_721_078),
        ("vmd/wavefile_v2.vmd", 1_601_247),
    ] {
        let Some(bytes) = fixture(rel) else { return };
        assert_eq!(check_file(rel, &bytes), size, "{rel}");
    }
}

#[test]
fn the_hint_of_the_synthetic_files() {
    for n in [0, 1, 1000, 25_000] {
        check_file("synth.pmx", &synth::pmx(n));
        check_file("synth.pmx", &synth::pmx_without_material_morphs(n));
        check_file("synth.pmd", &synth::pmd(n));
        check_file("synth.vmd", &synth::vmd(n));
    }
}

/// A model whose vertices were edited so that their tables hold entries no vertex uses
/// (a BDEF2 vertex made BDEF1, an SDEF one cut off) and a vertex has another number of
/// additional UVs than the others: the hint counts vertex by vertex, and is still the
/// written length. A written model with a vertex of the wrong number of UVs does not
/// write; with the UV count made whole again it does.
#[test]
fn the_hint_after_vertex_edits() {
    let mut m = Pmx::from_bytes(&model_bytes()).unwrap();
    let n = m.vertices.len();
    assert!(n >= 3, "{n} vertices");
    // Every weight type, then edits that leave table entries unused.
    let bone = BoneIndex::from_raw(0);
    let weights = [
        Weight::Bdef2 {
            bones: [bone; 2],
            weight: 0.5,
        },
        Weight::Sdef {
            bones: [bone; 2],
            weight: 0.5,
            c: [0.0; 3],
            r0: [0.0; 3],
            r1: [0.0; 3],
        },
        Weight::Qdef {
            bones: [bone; 4],
            weights: [0.25; 4],
        },
    ];
    for (i, w) in weights.into_iter().enumerate() {
        m.vertices.get_mut(i).unwrap().weight = w;
    }
    let bytes = m.to_bytes().unwrap();
    assert_eq!(m.size_hint(&()), bytes.len(), "every weight type");
    m.vertices.get_mut(0).unwrap().weight = Weight::Bdef1 { bone };
    let bytes = m.to_bytes().unwrap();
    assert_eq!(m.size_hint(&()), bytes.len(), "an unused BDEF2 entry");
    m.vertices.truncate(n - 1);
    let cut_len = m.to_bytes().unwrap().len();
    assert_eq!(m.size_hint(&()), cut_len, "after a cut");
    // One more additional UV on one vertex, then one more on every vertex (and in the
    // header's count): each written length by the hint.
    let uvs = m.header.globals[1] as usize;
    if uvs < 4 {
        m.vertices.get_mut(1).unwrap().additional_uv.push([1.0; 4]);
        assert!(m.to_bytes().is_err(), "one vertex of another UV count");
        m.vertices.for_each_mut(|v| {
            if v.additional_uv.len() == uvs {
                v.additional_uv.push([1.0; 4]);
            }
        });
        m.header.globals[1] += 1;
        let before = m.size_hint(&());
        let bytes = m.to_bytes().unwrap();
        assert_eq!(before, bytes.len(), "one more additional UV");
        // By hand: each of the n - 1 vertices left is one [f32; 4] (16 bytes) longer than
        // in the model written after the cut.
        assert_eq!(bytes.len(), cut_len + (n - 1) * 16);
        assert_eq!(Pmx::from_bytes(&bytes).unwrap(), m);
    }
}

/// The model the vertex edits start from: a fixture when the corpus is there, else the
/// built-in sample with the most vertices.
fn model_bytes() -> Vec<u8> {
    if let Some(bytes) = fixture("pmx/alicia_solid.pmx") {
        return bytes;
    }
    mmd_formats::samples::pmx_samples()
        .into_iter()
        .map(|(_, b)| b)
        .max_by_key(|b| Pmx::from_bytes(b).map_or(0, |m| m.vertices.len()))
        .unwrap()
}

/// A pose whose numbers were edited to text of another length: the hint replaces each
/// number's text by its new one.
#[test]
fn the_hint_after_pose_edits() {
    for sample in mmd_formats::samples::vpd_samples() {
        let (name, bytes) = sample;
        let mut pose = Vpd::from_bytes(&bytes).unwrap();
        if pose.bone_count() > 0 {
            pose.set_bone(0, [1.5, -2.25, 1e-3], [0.0, 0.0, 0.0, 1.0])
                .unwrap();
        }
        if pose.morph_count() > 0 {
            pose.set_morph(0, 0.125).unwrap();
        }
        let written = pose.to_bytes().unwrap();
        assert_eq!(pose.size_hint(&()), written.len(), "{name}");
    }
}
