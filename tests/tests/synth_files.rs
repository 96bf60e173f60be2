//! The synthetic files of `mmd_tests::synth` (the `speed` bench's large inputs): each reads
//! with our reader, writes back byte for byte, has the section counts it was built with,
//! scales in proportion, and reads with every peer crate that reads its format (with the
//! same counts for every section the peer reads). A peer with a known fault is checked
//! to still have it, so the bench's notes stay true.

#[path = "../benches/speed/peers.rs"]
mod peers;

use mmd_tests::synth::{self, PmdCounts, PmxCounts, VmdCounts};
use peers::Format;

/// Reads with ours, checks the round trip, returns our counts.
fn ours(format: Format, bytes: &[u8]) -> peers::Counts {
    let v = peers::ours_read(format, bytes).unwrap_or_else(|e| panic!("our read: {e}"));
    let mut out = Vec::with_capacity(bytes.len());
    peers::ours_write(format, v.as_ref(), &mut out).unwrap_or_else(|e| panic!("write: {e}"));
    mmd_tests::assert_bytes_eq(&out, bytes, "synthetic round trip");
    peers::ours_counts(format, v.as_ref())
}

/// Every peer of `format` except those named in `failing` reads `bytes` and agrees with
/// `expected` on every section it reports; those in `failing` fail.
fn peers_agree(format: Format, bytes: &[u8], expected: &peers::Counts, failing: &[&str]) {
    let mut seen = 0;
    for p in peers::peers().iter().filter(|p| p.format == format) {
        let r = std::panic::catch_unwind(|| (p.read)(bytes));
        if failing.contains(&p.name) {
            assert!(
                !matches!(r, Ok(Ok(_))),
                "{} now reads this file: update its known fault",
                p.name
            );
            continue;
        }
        let v = match r {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => panic!("{} fails: {e}", p.name),
            Err(_) => panic!("{} panics", p.name),
        };
        for (section, n) in (p.counts)(v.as_ref()) {
            let want = expected
                .iter()
                .find(|(s, _)| *s == section)
                .map(|(_, n)| *n)
                .unwrap_or_else(|| panic!("{}: unknown section {section}", p.name));
            assert_eq!(n, want, "{}: {section}", p.name);
        }
        seen += 1;
    }
    assert!(seen > 0, "no peer read the {format:?} file");
}

fn count(c: &peers::Counts, section: &str) -> usize {
    c.iter()
        .find(|(s, _)| *s == section)
        .map_or(usize::MAX, |(_, n)| *n)
}

#[test]
fn pmx_reads_round_trips_and_has_its_counts() {
    // 300 vertices: width-2 vertex indices; 70,000: width 4 and width-2 bones and morphs.
    for n in [300, 70_000] {
        let bytes = synth::pmx(n);
        let got = ours(Format::Pmx, &bytes);
        let c = PmxCounts::for_vertices(n);
        let want = [
            ("vertices", c.vertices),
            ("face_indices", c.face_indices),
            ("textures", c.textures),
            ("materials", c.materials),
            ("bones", c.bones),
            ("morphs", c.morphs),
            ("display_frames", c.display_frames),
            ("rigid_bodies", c.rigid_bodies),
            ("joints", c.joints),
        ];
        for (s, w) in want {
            assert_eq!(count(&got, s), w, "{n} vertices: {s}");
        }
        peers_agree(Format::Pmx, &bytes, &got, &["pmx_parser"]);
    }
}

#[test]
fn pmx_without_material_morphs_reads_with_every_peer() {
    let bytes = synth::pmx_without_material_morphs(5_000);
    let got = ours(Format::Pmx, &bytes);
    assert_eq!(count(&got, "morphs"), PmxCounts::for_vertices(5_000).morphs);
    peers_agree(Format::Pmx, &bytes, &got, &[]);
}

#[test]
fn pmd_reads_round_trips_and_has_its_counts() {
    for n in [500, 65_536] {
        let bytes = synth::pmd(n);
        let got = ours(Format::Pmd, &bytes);
        let c = PmdCounts::for_vertices(n);
        let want = [
            ("vertices", c.vertices),
            ("face_indices", c.face_indices),
            ("materials", c.materials),
            ("bones", c.bones),
            ("ik_chains", c.ik_chains),
            ("morphs", c.morphs),
            ("rigid_bodies", c.rigid_bodies),
            ("joints", c.joints),
        ];
        for (s, w) in want {
            assert_eq!(count(&got, s), w, "{n} vertices: {s}");
        }
        peers_agree(Format::Pmd, &bytes, &got, &[]);
    }
}

#[test]
fn vmd_reads_round_trips_and_has_its_counts() {
    for n in [1_000, 20_000] {
        let bytes = synth::vmd(n);
        let got = ours(Format::Vmd, &bytes);
        let c = VmdCounts::for_bone_keys(n);
        let want = [
            ("bone_keys", c.bone_keys),
            ("morph_keys", c.morph_keys),
            ("camera_keys", c.camera_keys),
            ("light_keys", c.light_keys),
            ("self_shadow_keys", c.self_shadow_keys),
            ("show_ik_keys", c.show_ik_keys),
        ];
        for (s, w) in want {
            assert_eq!(count(&got, s), w, "{n} bone keys: {s}");
        }
        // The fixed record sizes (seed layouts): 50-byte header, six u32 counts, bone 111,
        // morph 23, camera 61, light 28, self-shadow 9, IK 9 + 21 per IK state (8 here).
        let size = 50
            + 6 * 4
            + 111 * c.bone_keys
            + 23 * c.morph_keys
            + 61 * c.camera_keys
            + 28 * c.light_keys
            + 9 * c.self_shadow_keys
            + (9 + 21 * 8) * c.show_ik_keys;
        assert_eq!(bytes.len(), size);
        peers_agree(Format::Vmd, &bytes, &got, &[]);
    }
}

#[test]
fn ten_times_the_parameter_is_about_ten_times_the_bytes() {
    // The scale target compares a file with its 10x sibling: the builders must scale
    // every section, not just one. (PMX vertex indices widen from 2 to 4 bytes past
    // 65,535 vertices, so its ratio may be above 10.)
    let ratio = |a: Vec<u8>, b: Vec<u8>| b.len() as f64 / a.len() as f64;
    let pmx = ratio(synth::pmx(4_000), synth::pmx(40_000));
    let pmd = ratio(synth::pmd(4_000), synth::pmd(40_000));
    let vmd = ratio(synth::vmd(5_000), synth::vmd(50_000));
    assert!((9.0..11.0).contains(&pmx), "pmx {pmx}");
    assert!((9.0..11.0).contains(&pmd), "pmd {pmd}");
    assert!((9.0..11.0).contains(&vmd), "vmd {vmd}");
}

#[test]
fn known_peer_faults_still_hold_on_the_fixtures() {
    // The bench's notes name why two peers fail on real files; check the claims where
    // the files are present.
    let Some(bytes) = mmd_tests::fixture("vmd/wavefile_v2.vmd") else {
        return;
    };
    ours(Format::Vmd, &bytes);
    let e = vmd_parser::vmd_read(&mut &bytes[..])
        .err()
        .map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("encoding error"), "vmd/wavefile_v2.vmd");

    let Some(bytes) = mmd_tests::fixture("pmx/gene.pmx") else {
        return;
    };
    let model = mmd_formats::pmx::Pmx::from_bytes(&bytes).unwrap();
    assert!(model
        .morphs
        .iter()
        .any(|m| matches!(m.offsets, mmd_formats::pmx::MorphOffsets::Material(_))));
    // The failure the bench's table names (BENCHMARKS.md note [1]), not just any error.
    let e = pmx_parser::pmx_read(&mut &bytes[..])
        .err()
        .map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("control panel error"), "pmx/gene.pmx");
}
