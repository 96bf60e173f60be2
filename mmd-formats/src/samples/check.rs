//! The samples' two statements must agree: the hand layouts (`pmx/layout.rs` from seeds
//! 000, 001 and 002; `pmd/layout.rs` from the PMD layout the tools share; `vmd/layout.rs`
//! from seed 004; the VPD text from `vpd/grammar.md`) write each sample's bytes from a
//! value, and the library's reader, given those bytes, must give back that value, field by
//! field and bit for bit. A reader and a hand layout that disagree on any field's place,
//! width, order or condition fail here; the library's writer takes no part.

use super::{pmd, pmx, vmd, vpd_samples};
use crate::inspect::diff::diff;
use crate::pmd::Pmd;
use crate::pmx::Pmx;
use crate::vmd::Vmd;
use crate::vpd::Vpd;
use crate::walk::Walk;
use std::fmt::Debug;

/// Every field of `read` equals the same field of `written`: by the walk (floats by their
/// bits, text by its bytes) and by `Debug` (every field the std derive prints).
#[track_caller]
fn same<T: Walk + Debug>(name: &str, read: &T, written: &T) {
    let d = diff(read, written);
    assert!(
        d.is_empty(),
        "{name}: {} field(s) read differently from what the layout wrote, first: {}",
        d.len(),
        d[0]
    );
    assert_eq!(format!("{read:?}"), format!("{written:?}"), "{name}");
}

/// Each sample's bytes read back, by `read`, to the value they were written from; the
/// list of samples is the list of values (none left out) and has `count` entries.
#[track_caller]
fn read_back<T: Walk + Debug, E: std::fmt::Display>(
    models: Vec<(String, T)>,
    samples: Vec<(String, Vec<u8>)>,
    count: usize,
    read: impl Fn(&[u8]) -> Result<T, E>,
) {
    let written: Vec<&String> = samples.iter().map(|(n, _)| n).collect();
    let built: Vec<&String> = models.iter().map(|(n, _)| n).collect();
    assert_eq!(written, built, "every model is written");
    assert_eq!(samples.len(), count);
    for ((name, model), (_, bytes)) in models.iter().zip(&samples) {
        let value = read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        same(name, &value, model);
    }
}

#[test]
fn pmx_samples_read_back_the_values_their_layout_wrote() {
    read_back(pmx::pmx_models(), super::pmx_samples(), 17, Pmx::from_bytes);
}

#[test]
fn pmd_samples_read_back_the_values_their_layout_wrote() {
    read_back(pmd::pmd_models(), super::pmd_samples(), 14, Pmd::from_bytes);
}

#[test]
fn vmd_samples_read_back_the_values_their_layout_wrote() {
    read_back(vmd::vmd_models(), super::vmd_samples(), 21, Vmd::from_bytes);
}

/// A bone as the text states it: name, translation, rotation.
type Bone = (&'static str, [f32; 3], [f32; 4]);

/// The pose each VPD sample's text states: each number is the text's own digits, so the
/// value to expect is the `f32` nearest to them (more digits than an `f32` holds, on
/// purpose, where the text has them).
#[allow(clippy::excessive_precision)]
fn vpd_expected(name: &str) -> (&'static str, Vec<Bone>, Vec<(&'static str, f32)>) {
    let three: Vec<Bone> = vec![
        ("センター", [0.0, 3.45, -0.0], [0.0, 0.0, 0.0, 1.0]),
        (
            "右ひじ",
            [-0.0, 0.0, 0.0],
            [0.254777, -0.400929, 0.000063, 0.879969],
        ),
        (
            "ﾈｸﾀｲ１",
            [-7.011534, 2.764069, 12.5],
            [0.0, -0.01, 0.0, 0.99995],
        ),
    ];
    match name {
        "vpd/mmd_crlf.vpd" | "vpd/mmd_lf.vpd" => ("初音ミク.osm", three, vec![]),
        "vpd/morphs.vpd" => (
            "初音ミク.osm",
            three[..1].to_vec(),
            vec![("まばたき", 1.0), ("あ", 0.25)],
        ),
        "vpd/empty_pose.vpd" => ("", vec![], vec![]),
        "vpd/threejs_style.vpd" => (
            "初音ミク.osm",
            vec![("頭", [0.0; 3], [0.1, -0.0, 0.0, 0.994987])],
            vec![],
        ),
        "vpd/oddities.vpd" => (
            "モデル.osm",
            vec![
                (
                    "左足ＩＫ",
                    [123.456789, -0.0, 0.001],
                    [0.12345678, 0.0, -0.5, 1.0],
                ),
                // The name is a lone lead byte 0x83: a character cut at the end of the
                // name, dropped in the typed view (seed 004: 「表示に使うなら落としてください」).
                ("", [1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0]),
            ],
            vec![("にやり", 0.5)],
        ),
        other => panic!("no expected pose for {other}"),
    }
}

#[test]
fn vpd_samples_read_back_the_pose_their_text_states() {
    let samples = vpd_samples();
    assert_eq!(samples.len(), 6);
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for (name, bytes) in &samples {
        let pose = Vpd::from_bytes(bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .pose();
        let (model, bones, morphs) = vpd_expected(name);
        assert_eq!(pose.model_file, model, "{name}");
        let got: Vec<_> = pose
            .bones
            .iter()
            .map(|b| (b.name.as_str(), bits(&b.translation), bits(&b.rotation)))
            .collect();
        let want: Vec<_> = bones
            .iter()
            .map(|(n, t, r)| (*n, bits(t), bits(r)))
            .collect();
        assert_eq!(got, want, "{name}");
        let got: Vec<_> = pose
            .morphs
            .iter()
            .map(|m| (m.name.as_str(), m.weight.to_bits()))
            .collect();
        let want: Vec<_> = morphs.iter().map(|(n, w)| (*n, w.to_bits())).collect();
        assert_eq!(got, want, "{name}");
    }
}

/// A few bytes of each layout, stated here as literal bytes and offsets from the seeds,
/// so that the hand layouts are not only checked against the reader.
#[test]
fn hand_layouts_put_the_seeds_bytes_where_the_seeds_say() {
    let find = |list: Vec<(String, Vec<u8>)>, name: &str| {
        list.into_iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no sample {name}"))
            .1
    };
    // Seed 000's header table: `PMX `, version 2.0 (00 00 00 40), 8 globals: UTF-16LE,
    // no additional UV, every index 4 bytes wide; then the model name "sample" in
    // UTF-16LE after its byte length 12.
    let pmx = find(super::pmx_samples(), "pmx/minimal.pmx");
    assert_eq!(
        pmx[..17],
        *b"PMX \x00\x00\x00\x40\x08\x00\x00\x04\x04\x04\x04\x04\x04"
    );
    assert_eq!(pmx[17..21], 12u32.to_le_bytes());
    assert_eq!(pmx[21..33], *b"s\0a\0m\0p\0l\0e\0");
    // Seed 004: the 30-byte header, the model name at 30, the bone count at 50 (a v2
    // file) and the first 111-byte bone key after it; DESIGN.md: a v1 file's name is 10
    // bytes, so its bone count is at 40.
    let v2 = find(super::vmd_samples(), "vmd/all_six_blocks.vmd");
    assert_eq!(v2[..25], *b"Vocaloid Motion Data 0002");
    assert_eq!(v2[50..54], 2u32.to_le_bytes());
    assert!(v2.len() >= 54 + 2 * 111);
    let v1 = find(super::vmd_samples(), "vmd/v1_header.vmd");
    assert_eq!(v1[..25], *b"Vocaloid Motion Data file");
    assert_eq!(v1[30..34], *b"miku");
    assert_eq!(v1[40..44], 1u32.to_le_bytes());
    // PMD: `Pmd`, version 1.0, the 20-byte name and 256-byte comment, then the vertex
    // count at 283.
    let pmd = find(super::pmd_samples(), "pmd/empty.pmd");
    assert_eq!(pmd[..7], *b"Pmd\x00\x00\x80\x3f");
    assert_eq!(pmd[283..287], 0u32.to_le_bytes());
    // An empty model: nine zero counts (u32 vertices, faces, materials; u16 bones, IK
    // chains, morphs; u8 morph display, frame names; u32 bone display) and nothing more.
    assert_eq!(pmd.len(), 283 + 4 * 3 + 2 * 3 + 2 + 4);
}
