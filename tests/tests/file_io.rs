//! Path reading and atomic writing, for every format.

use mmd_formats::inspect::{check_roundtrip, CheckOutcome, Format};
use mmd_formats::{pmd::Pmd, pmx::Pmx, vmd::Vmd, vpd::Vpd};
use std::path::{Path, PathBuf};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mmd-file-io-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `bytes` through the format's `write_path` after reading them with `from_bytes`,
/// then reads the file back with `read_path`.
fn write_then_read(format: Format, bytes: &[u8], path: &Path) -> Vec<u8> {
    match format {
        Format::Pmx => {
            Pmx::from_bytes(bytes).unwrap().write_path(path).unwrap();
            Pmx::read_path(path).unwrap().to_bytes().unwrap()
        }
        Format::Pmd => {
            Pmd::from_bytes(bytes).unwrap().write_path(path).unwrap();
            Pmd::read_path(path).unwrap().to_bytes().unwrap()
        }
        Format::Vmd => {
            Vmd::from_bytes(bytes).unwrap().write_path(path).unwrap();
            Vmd::read_path(path).unwrap().to_bytes().unwrap()
        }
        Format::Vpd => {
            Vpd::from_bytes(bytes).unwrap().write_path(path).unwrap();
            Vpd::read_path(path).unwrap().to_bytes().unwrap()
        }
        other => panic!("no path API tested for {other:?}"),
    }
}

#[test]
fn every_sample_writes_to_a_path_and_reads_back_exactly() {
    let dir = temp_dir("all");
    let samples = mmd_formats::samples::all();
    assert!(samples.len() >= 4);
    for s in &samples {
        let format = Format::detect(&s.bytes).expect("sample has a known signature");
        assert!(matches!(
            check_roundtrip(format, &s.bytes),
            CheckOutcome::ByteExact
        ));
        let path = dir.join(s.name.replace('/', "_"));
        let back = write_then_read(format, &s.bytes, &path);
        mmd_tests::assert_bytes_eq(&back, &s.bytes, &s.name);
        assert_eq!(std::fs::read(&path).unwrap(), s.bytes, "{}", s.name);
    }
    // Nothing but the written files: no temporary file is left behind.
    let left = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(left, samples.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn write_path_replaces_an_existing_file_whole() {
    let dir = temp_dir("replace");
    let path = dir.join("model.pmx");
    std::fs::write(&path, vec![0xAA; 100_000]).unwrap();
    let (_, bytes) = mmd_formats::samples::pmx_samples().remove(0);
    Pmx::from_bytes(&bytes).unwrap().write_path(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failed_write_leaves_the_target_untouched_and_no_temporary_file() {
    let dir = temp_dir("fail");
    // The target is a directory: the rename fails, so the write must fail cleanly.
    let target = dir.join("is_a_dir.pmx");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("inside"), b"keep").unwrap();
    let (_, bytes) = mmd_formats::samples::pmx_samples().remove(0);
    let err = Pmx::from_bytes(&bytes).unwrap().write_path(&target);
    assert!(err.is_err());
    assert_eq!(std::fs::read(target.join("inside")).unwrap(), b"keep");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("is_a_dir.pmx")]);
    // A missing directory fails too, without creating anything.
    let missing = dir.join("no_such_dir").join("m.pmx");
    assert!(Pmx::from_bytes(&bytes)
        .unwrap()
        .write_path(&missing)
        .is_err());
    assert!(!dir.join("no_such_dir").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn read_path_of_a_missing_file_is_an_io_error() {
    let err = Pmx::read_path("/nonexistent/definitely/missing.pmx").unwrap_err();
    assert!(matches!(err.kind(), mmd_formats::ErrorKind::Io(_)));
}
