//! VPD byte-exact round trips: every fixture, every built-in sample, and every
//! truncation and some byte flips of each (which must read and round-trip, or fail
//! cleanly, never panic).

use mmd_formats::vpd::{LineEnding, Vpd};
use mmd_tests::{assert_bytes_eq, corpus_dir, corpus_files};

/// The number of `vpd/` rows in the corpus's MANIFEST.tsv (read at run time).
fn manifest_vpd_rows() -> usize {
    let dir = corpus_dir().expect("corpus present");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    manifest
        .lines()
        .filter(|l| l.split('\t').next().is_some_and(|f| f.starts_with("vpd/")))
        .count()
}

fn fixtures() -> Option<Vec<(String, Vec<u8>)>> {
    let files = corpus_files("vpd", "vpd")?;
    assert_eq!(
        files.len(),
        manifest_vpd_rows(),
        "fixtures vs MANIFEST.tsv vpd/ rows"
    );
    Some(
        files
            .iter()
            .map(|p| {
                (
                    p.display().to_string(),
                    std::fs::read(p).expect("read fixture"),
                )
            })
            .collect(),
    )
}

fn samples() -> Vec<(String, Vec<u8>)> {
    let samples: Vec<_> = mmd_formats::samples::all()
        .into_iter()
        .filter(|s| s.name.starts_with("vpd/"))
        .map(|s| (s.name, s.bytes))
        .collect();
    // mmd_crlf, mmd_lf, morphs, empty_pose, threejs_style, oddities.
    assert_eq!(samples.len(), 6, "VPD samples in samples::all()");
    samples
}

#[test]
fn fixtures_round_trip_byte_exactly() {
    let Some(files) = fixtures() else { return };
    assert_eq!(files.len(), 4);
    for (name, bytes) in &files {
        let vpd = Vpd::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_bytes_eq(&vpd.to_bytes().unwrap(), bytes, name);
        // MMD's own files have nothing odd in them.
        assert!(vpd.warnings().is_empty(), "{name}: {:?}", vpd.warnings());
        assert_eq!(
            vpd.declared_bone_count() as usize,
            vpd.bone_count(),
            "{name}"
        );
    }
}

/// The writer's template is MMD's: writing a fixture's typed pose anew (with LF, as the
/// published files have) gives the fixture's bytes.
#[test]
fn fixtures_are_what_from_pose_writes() {
    let Some(files) = fixtures() else { return };
    for (name, bytes) in &files {
        let pose = Vpd::from_bytes(bytes).unwrap().pose();
        let written = Vpd::from_pose_with(&pose, LineEnding::Lf).unwrap();
        assert_bytes_eq(&written.to_bytes().unwrap(), bytes, name);
    }
}

/// The fixtures with every LF turned into CR LF (the form MMD writes) round-trip too, and
/// read as the same pose.
#[test]
fn fixtures_as_crlf_round_trip() {
    let Some(files) = fixtures() else { return };
    for (name, bytes) in &files {
        let crlf: Vec<u8> = bytes
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        let vpd = Vpd::from_bytes(&crlf).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_bytes_eq(&vpd.to_bytes().unwrap(), &crlf, name);
        assert_eq!(vpd.pose(), Vpd::from_bytes(bytes).unwrap().pose(), "{name}");
        let written = Vpd::from_pose(&vpd.pose()).unwrap().to_bytes().unwrap();
        assert_bytes_eq(&written, &crlf, name);
    }
}

#[test]
fn samples_round_trip_byte_exactly() {
    for (name, bytes) in samples() {
        let vpd = Vpd::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_bytes_eq(&vpd.to_bytes().unwrap(), &bytes, &name);
        // Only the oddities sample is odd: text after the signature, Bone7 as the second
        // block, its name the lone byte 0x83, text after a `;`, a count of 5 for 2 bones.
        let paths: Vec<&str> = vpd.warnings().iter().map(|w| w.path.as_str()).collect();
        if name == "vpd/oddities.vpd" {
            let expected = [
                "signature",
                "bones[1]",
                "bones[1].name",
                "bones[1].rotation",
                "bone_count",
            ];
            assert_eq!(paths, expected, "{name}");
            assert_eq!((vpd.bone_count(), vpd.morph_count()), (2, 1));
        } else {
            assert!(paths.is_empty(), "{name}: {:?}", vpd.warnings());
        }
    }
}

/// Reads `bytes`: either an error, or a value that writes back the same bytes.
fn read_ok_or_err(bytes: &[u8], what: &str) {
    match Vpd::from_bytes(bytes) {
        Ok(vpd) => assert_bytes_eq(&vpd.to_bytes().unwrap(), bytes, what),
        Err(e) => {
            assert!(
                e.offset() <= bytes.len() as u64,
                "{what}: offset past end: {e}"
            );
            assert!(!e.to_string().is_empty());
        }
    }
}

fn all_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = samples();
    inputs.extend(fixtures().unwrap_or_default());
    inputs
}

#[test]
fn every_truncation_reads_or_fails_cleanly() {
    let mut ok = 0usize;
    let mut err = 0usize;
    for (name, bytes) in all_inputs() {
        for n in 0..=bytes.len() {
            let cut = &bytes[..n];
            match Vpd::from_bytes(cut) {
                Ok(vpd) => {
                    ok += 1;
                    assert_bytes_eq(&vpd.to_bytes().unwrap(), cut, &format!("{name} cut at {n}"));
                }
                Err(e) => {
                    err += 1;
                    assert!(e.offset() <= n as u64, "{name} cut at {n}: {e}");
                }
            }
        }
    }
    // Both outcomes occur: a cut between blocks is a valid, shorter pose.
    assert!(ok > 0 && err > 0, "ok {ok}, err {err}");
}

#[test]
fn byte_flips_read_or_fail_cleanly() {
    for (name, bytes) in all_inputs() {
        // About 300 positions per file (every third byte of the small ones).
        for i in (0..bytes.len()).step_by((bytes.len() / 300).max(3)) {
            for with in [
                bytes[i] ^ 0xff,
                b'\n',
                b'\r',
                b';',
                b',',
                b'{',
                b'}',
                b'/',
                0x83,
            ] {
                let mut flipped = bytes.clone();
                flipped[i] = with;
                read_ok_or_err(&flipped, &format!("{name} byte {i} = {with:#x}"));
            }
        }
    }
}

/// Every VPD sample reads and writes back byte-exactly through the binrw traits too.
#[test]
fn vpd_samples_roundtrip_through_binrw() {
    use binrw::{BinRead, BinWrite};
    let samples = mmd_formats::samples::vpd_samples();
    assert_eq!(
        samples.len(),
        6,
        "mmd_crlf, mmd_lf, morphs, empty_pose, threejs_style, oddities"
    );
    for (name, bytes) in samples {
        let v = mmd_formats::vpd::Vpd::read_le(&mut std::io::Cursor::new(&bytes)).unwrap();
        let mut out = std::io::Cursor::new(Vec::new());
        v.write_le(&mut out).unwrap();
        mmd_tests::assert_bytes_eq(&out.into_inner(), &bytes, &name);
    }
}
