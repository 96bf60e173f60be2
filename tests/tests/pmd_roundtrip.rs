//! PMD byte-exact round trips: every fixture (with its section counts and which
//! extensions it has, as walked independently in the research notes), every built-in
//! sample, and every truncation of the small ones, which must either read (exactly where
//! an extension may be missing) and round-trip, or fail cleanly at an offset inside the
//! input.

use mmd_formats::pmd::{Pmd, PmdSummary};
use mmd_formats::samples::pmd_samples;
use mmd_formats::ErrorKind;
use mmd_tests::{assert_bytes_eq, corpus_dir, corpus_files};
use std::collections::BTreeSet;

/// The number of `pmd/` rows in the corpus's MANIFEST.tsv (read at run time).
fn manifest_pmd_rows() -> usize {
    let dir = corpus_dir().expect("corpus present");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    manifest
        .lines()
        .filter(|l| l.split('\t').next().is_some_and(|f| f.starts_with("pmd/")))
        .count()
}

fn fixtures() -> Option<Vec<(String, Vec<u8>)>> {
    let files = corpus_files("pmd", "pmd")?;
    assert_eq!(
        files.len(),
        manifest_pmd_rows(),
        "fixtures vs MANIFEST.tsv pmd/ rows"
    );
    Some(
        files
            .iter()
            .map(|p| {
                let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(p).unwrap())
            })
            .collect(),
    )
}

/// One row of the per-fixture table in the research notes (pmd.md), walked by an
/// independent reader: size, section counts, English flag, rigid and joint counts
/// (`None` = block absent). Every fixture has the toon block and no trailing bytes.
struct Row {
    name: &'static str,
    size: usize,
    counts: [usize; 9],
    english_flag: u8,
    rigid: Option<usize>,
    joints: Option<usize>,
}

#[rustfmt::skip]
const TABLE: &[Row] = &[
    //   name                     size      V      I       M   B    IK Mo   MD   FN  BD     En  rigid     joint
    Row { name: "dummy_bone", size: 3496, counts: [0, 0, 0, 30, 0, 0, 0, 1, 14], english_flag: 1, rigid: None, joints: None },
    Row { name: "gene", size: 2721078, counts: [28646, 141318, 13, 224, 6, 178, 110, 13, 129], english_flag: 1, rigid: Some(87), joints: Some(92) },
    Row { name: "mei", size: 506306, counts: [8983, 43911, 17, 142, 4, 29, 28, 8, 80], english_flag: 1, rigid: Some(31), joints: Some(20) },
    Row { name: "miku_hatsune", size: 474665, counts: [9036, 44991, 17, 122, 7, 16, 15, 7, 81], english_flag: 1, rigid: Some(45), joints: Some(27) },
    Row { name: "miku_v2", size: 712126, counts: [12354, 68883, 17, 140, 7, 31, 30, 7, 87], english_flag: 1, rigid: Some(45), joints: Some(27) },
    Row { name: "mmdagent_bootscreen", size: 2062, counts: [4, 6, 1, 4, 0, 0, 0, 0, 0], english_flag: 1, rigid: Some(0), joints: Some(0) },
    Row { name: "mmdagent_glasses", size: 451449, counts: [2864, 15408, 7, 17, 0, 18, 15, 2, 16], english_flag: 1, rigid: Some(0), joints: Some(0) },
    Row { name: "mmdagent_menu", size: 5384, counts: [28, 42, 7, 18, 0, 2, 1, 1, 8], english_flag: 1, rigid: Some(0), joints: Some(0) },
    Row { name: "mmdagent_tatami_room", size: 168263, counts: [4056, 5430, 20, 3, 0, 0, 0, 1, 2], english_flag: 1, rigid: Some(0), joints: Some(0) },
    Row { name: "rainbow_stage", size: 1199057, counts: [27540, 75486, 3, 1, 0, 0, 0, 0, 0], english_flag: 0, rigid: Some(0), joints: Some(0) },
    Row { name: "sd_mei", size: 156685, counts: [2207, 8925, 13, 133, 4, 29, 28, 8, 60], english_flag: 1, rigid: Some(41), joints: Some(30) },
];

fn counts_of(s: &PmdSummary) -> [usize; 9] {
    [
        s.vertices,
        s.face_indices,
        s.materials,
        s.bones,
        s.ik_chains,
        s.morphs,
        s.morph_display,
        s.bone_frames,
        s.bone_display,
    ]
}

#[test]
fn every_fixture_round_trips_byte_exactly() {
    let Some(files) = fixtures() else { return };
    for (name, bytes) in &files {
        let model = Pmd::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = model
            .to_bytes()
            .unwrap_or_else(|e| panic!("{name}: write: {e}"));
        assert_bytes_eq(&out, bytes, name);
    }
}

#[test]
fn every_fixture_matches_the_walked_table() {
    let Some(files) = fixtures() else { return };
    assert_eq!(files.len(), TABLE.len(), "one table row per fixture");
    for row in TABLE {
        let (_, bytes) = files
            .iter()
            .find(|(n, _)| n == row.name)
            .unwrap_or_else(|| panic!("fixture {} missing", row.name));
        assert_eq!(bytes.len(), row.size, "{}: size", row.name);
        let s = Pmd::from_bytes(bytes).unwrap().summary();
        assert_eq!(s.version, 1.0, "{}: version", row.name);
        assert_eq!(counts_of(&s), row.counts, "{}: section counts", row.name);
        assert_eq!(
            s.english_flag,
            Some(row.english_flag),
            "{}: English flag",
            row.name
        );
        assert_eq!(
            s.english_names,
            row.english_flag != 0,
            "{}: English names",
            row.name
        );
        assert!(s.toon_textures, "{}: toon block present", row.name);
        assert_eq!(s.rigid_bodies, row.rigid, "{}: rigid bodies", row.name);
        assert_eq!(s.joints, row.joints, "{}: joints", row.name);
        assert_eq!(s.trailing_bytes, 0, "{}: trailing bytes", row.name);
    }
}

/// The English lists have the lengths the section counts give: bones, morphs - 1, frames.
#[test]
fn fixture_english_lists_follow_the_counts() {
    let Some(files) = fixtures() else { return };
    for (name, bytes) in &files {
        let m = Pmd::from_bytes(bytes).unwrap();
        let Some(en) = m.english_names() else {
            assert_eq!(
                name, "rainbow_stage",
                "only rainbow_stage has no English names"
            );
            continue;
        };
        assert_eq!(en.bone_names.len(), m.bones.len(), "{name}");
        assert_eq!(
            en.morph_names.len(),
            m.morphs.len().saturating_sub(1),
            "{name}"
        );
        assert_eq!(en.frame_names.len(), m.frame_names.len(), "{name}");
    }
}

/// The names of every sample `pmd_samples` builds. A sample that fails to serialise is
/// missing from the list and fails here.
const SAMPLE_NAMES: &[&str] = &[
    "pmd/ends_after_bone_display.pmd",
    "pmd/empty.pmd",
    "pmd/ends_after_english_flag_0.pmd",
    "pmd/ends_after_english_names.pmd",
    "pmd/ends_after_toon.pmd",
    "pmd/ends_after_rigid_bodies.pmd",
    "pmd/full.pmd",
    "pmd/physics_empty.pmd",
    "pmd/english_flag_0_then_toon_and_physics.pmd",
    "pmd/english_flag_2.pmd",
    "pmd/no_morphs_with_english.pmd",
    "pmd/base_morph_only_with_english.pmd",
    "pmd/name_forms.pmd",
    "pmd/trailing_bytes.pmd",
];

#[test]
fn samples_are_the_ones_built() {
    let names: Vec<String> = pmd_samples().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, SAMPLE_NAMES);
    let in_all: Vec<String> = mmd_formats::samples::all()
        .into_iter()
        .filter(|s| s.name.starts_with("pmd/"))
        .map(|s| s.name)
        .collect();
    assert_eq!(in_all, SAMPLE_NAMES, "samples::all() lists the PMD samples");
}

#[test]
fn every_sample_round_trips_byte_exactly() {
    let samples = pmd_samples();
    assert_eq!(samples.len(), SAMPLE_NAMES.len());
    for (name, bytes) in &samples {
        let model = Pmd::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_bytes_eq(&model.to_bytes().unwrap(), bytes, name);
    }
}

/// What each sample holds, checked against what it was built to cover.
#[test]
fn samples_cover_each_ending() {
    let summary = |n: &str| {
        let (_, bytes) = pmd_samples()
            .into_iter()
            .find(|(name, _)| name == &format!("pmd/{n}.pmd"))
            .unwrap();
        Pmd::from_bytes(&bytes).unwrap().summary()
    };
    let ext = |s: PmdSummary| {
        (
            s.english_flag,
            s.english_names,
            s.toon_textures,
            s.rigid_bodies,
            s.joints,
        )
    };
    assert_eq!(
        ext(summary("ends_after_bone_display")),
        (None, false, false, None, None)
    );
    assert_eq!(
        ext(summary("ends_after_english_flag_0")),
        (Some(0), false, false, None, None)
    );
    assert_eq!(
        ext(summary("ends_after_english_names")),
        (Some(1), true, false, None, None)
    );
    assert_eq!(
        ext(summary("ends_after_toon")),
        (Some(1), true, true, None, None)
    );
    assert_eq!(
        ext(summary("ends_after_rigid_bodies")),
        (Some(1), true, true, Some(3), None)
    );
    assert_eq!(
        ext(summary("full")),
        (Some(1), true, true, Some(3), Some(2))
    );
    assert_eq!(
        ext(summary("physics_empty")),
        (Some(1), true, true, Some(0), Some(0))
    );
    assert_eq!(
        ext(summary("english_flag_0_then_toon_and_physics")),
        (Some(0), false, true, Some(0), Some(0))
    );
    assert_eq!(
        ext(summary("english_flag_2")),
        (Some(2), true, true, Some(3), Some(2))
    );
    assert_eq!(summary("no_morphs_with_english").morphs, 0);
    assert_eq!(summary("base_morph_only_with_english").morphs, 1);
    assert_eq!(summary("trailing_bytes").trailing_bytes, 11);
    assert_eq!(summary("trailing_bytes").version, 1.5);
    let full = summary("full");
    assert_eq!(counts_of(&full), [4, 9, 4, 12, 2, 7, 6, 2, 3]);
}

/// The lengths at which `model` may end: where each extension that it has would start,
/// and the whole file (every length from the end of the joints on when there are trailing
/// bytes).
fn valid_ends(model: &Pmd) -> BTreeSet<usize> {
    let mut m = model.clone();
    let mut ends = BTreeSet::new();
    let full = m.to_bytes().unwrap().len();
    m.trailing.clear();
    let no_trailing = m.to_bytes().unwrap().len();
    ends.extend(no_trailing..=full);
    m.joints = None;
    ends.insert(m.to_bytes().unwrap().len());
    m.rigid_bodies = None;
    ends.insert(m.to_bytes().unwrap().len());
    m.toon_textures = None;
    ends.insert(m.to_bytes().unwrap().len());
    m.english = None;
    ends.insert(m.to_bytes().unwrap().len());
    ends
}

/// Cuts `bytes` at every length: a cut reads exactly when it ends where an extension may
/// be missing (and then writes back the cut bytes); every other cut fails as truncated
/// (or with a count too large for what is left) at an offset inside the cut input.
fn check_every_cut(name: &str, bytes: &[u8]) {
    let model = Pmd::from_bytes(bytes).unwrap();
    let ends = valid_ends(&model);
    assert!(
        ends.contains(&bytes.len()),
        "{name}: the whole file is an end"
    );
    for len in 0..=bytes.len() {
        let cut = &bytes[..len];
        match Pmd::from_bytes(cut) {
            Ok(m) => {
                assert!(
                    ends.contains(&len),
                    "{name}: cut at {len} read, but is no block end"
                );
                assert_bytes_eq(&m.to_bytes().unwrap(), cut, &format!("{name} cut at {len}"));
            }
            Err(e) => {
                assert!(
                    !ends.contains(&len),
                    "{name}: cut at {len} is a block end: {e}"
                );
                assert!(
                    e.offset() <= len as u64,
                    "{name}: cut at {len}: offset of {e}"
                );
                assert!(
                    matches!(
                        e.kind(),
                        ErrorKind::Truncated { .. } | ErrorKind::CountTooLarge { .. }
                    ),
                    "{name}: cut at {len}: {e}"
                );
            }
        }
    }
}

#[test]
fn every_cut_of_a_small_sample_reads_or_fails_cleanly() {
    let samples = pmd_samples();
    let mut checked = 0;
    for (name, bytes) in samples.iter().filter(|(_, b)| b.len() < 16 * 1024) {
        check_every_cut(name, bytes);
        checked += 1;
    }
    assert_eq!(checked, SAMPLE_NAMES.len(), "every sample is small");
}

#[test]
fn every_cut_of_a_small_fixture_reads_or_fails_cleanly() {
    let Some(files) = fixtures() else { return };
    let small: Vec<_> = files.iter().filter(|(_, b)| b.len() < 8 * 1024).collect();
    assert_eq!(
        small.len(),
        3,
        "dummy_bone, mmdagent_bootscreen, mmdagent_menu"
    );
    for (name, bytes) in small {
        check_every_cut(name, bytes);
    }
}

#[test]
fn fixtures_write_back_through_write_path() {
    let Some(files) = fixtures() else { return };
    let dir = std::env::temp_dir().join(format!("mmd-pmd-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let small: Vec<_> = files.iter().filter(|(_, b)| b.len() < 8 * 1024).collect();
    assert_eq!(
        small.len(),
        3,
        "dummy_bone, mmdagent_bootscreen, mmdagent_menu"
    );
    for (name, bytes) in small {
        let path = dir.join(format!("{name}.pmd"));
        Pmd::from_bytes(bytes).unwrap().write_path(&path).unwrap();
        let back = Pmd::read_path(&path).unwrap();
        assert_bytes_eq(&std::fs::read(&path).unwrap(), bytes, name);
        assert_bytes_eq(&back.to_bytes().unwrap(), bytes, name);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
