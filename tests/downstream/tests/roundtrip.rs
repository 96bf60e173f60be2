//! The downstream format reads its hand-written samples into the values the bytes say,
//! writes them back byte for byte, reports broken files and inconsistent values with an
//! offset and a path, and works inside a `#[binrw]` struct.

mod common;

use binrw::io::Cursor;
use binrw::{binrw, BinRead, BinWrite};
use mmd_downstream::{Dsnp, JointIndex, Motion, StepFlags};
use mmd_formats::{PmxText, ShiftJis, TextEncoding};

#[test]
fn every_sample_round_trips_byte_for_byte() {
    let samples = common::samples();
    assert_eq!(samples.len(), 4);
    for (name, bytes) in samples {
        let v = Dsnp::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(v.to_bytes().unwrap(), bytes, "{name}");
    }
}

#[test]
fn the_values_are_what_the_bytes_say() {
    let v = Dsnp::from_bytes(&common::UTF16_WIDTH1).unwrap();
    assert_eq!(v.title, PmxText::new("ab", TextEncoding::Utf16Le));
    assert_eq!(v.author.decode(), "Miku");
    assert_eq!(v.author.junk(), [0xfd; 11]);
    assert_eq!(v.steps.len(), 2);
    assert_eq!(v.steps[0].joint, JointIndex::from_raw(3));
    assert_eq!(v.steps[0].weight, Some(0.5));
    assert_eq!(v.steps[0].motion, Motion::Turn(90.0));
    assert!(v.steps[1].joint.is_none());
    assert_eq!(
        (v.steps[1].weight, &v.steps[1].motion),
        (None, &Motion::Hold)
    );
    assert!(v.trailing.is_empty());

    let v = Dsnp::from_bytes(&common::UTF8_WIDTH2_TRAILING).unwrap();
    assert_eq!(v.title.to_str().as_deref(), Some("ダンス"));
    assert_eq!(v.author.decode(), "初音");
    assert_eq!(v.steps[0].joint, JointIndex::from_raw(0x1234));
    assert!(v.steps[0]
        .flags
        .contains(StepFlags::WEIGHTED | StepFlags::MIRRORED));
    assert_eq!(
        v.steps[0].motion,
        Motion::Move {
            offset: [1.0, -2.0, 0.25],
            frames: 30
        }
    );
    assert_eq!(v.trailing, b"END!");

    let v = Dsnp::from_bytes(&common::WIDTH4_UNKNOWN_BITS).unwrap();
    assert_eq!(v.author, ShiftJis(*b"ABCDEFGHIJKLMNOP"));
    assert_eq!(v.steps[0].joint, JointIndex::from_raw(-2));
    assert_eq!(v.steps[0].flags.unknown_bits(), 0x80);
    assert_eq!(v.steps[0].weight, None);
}

#[test]
fn a_header_value_the_context_does_not_accept_is_an_error_at_its_byte() {
    let mut b = common::UTF16_WIDTH1.to_vec();
    b[5] = 3; // joint width 3
    let e = Dsnp::from_bytes(&b).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.joint_width: joint index width 3 at 0x5 (expected a joint index width of 1, 2 or 4)"
    );
    // An unknown motion kind: step 0's tag is at 6 + 8 + 16 + 2 + 1 + 1 + 4 = 38.
    let mut b = common::UTF16_WIDTH1.to_vec();
    b[38] = 9;
    let e = Dsnp::from_bytes(&b).unwrap_err();
    assert_eq!(e.offset(), 38, "{e}");
    assert_eq!(e.path_string(), "steps[0].motion");
    // Cut inside step 1: a truncation, not corrupt data.
    let e = Dsnp::from_bytes(&common::UTF16_WIDTH1[..44]).unwrap_err();
    assert!(e.is_truncated(), "{e}");
}

#[test]
fn the_writer_refuses_what_would_read_back_differently() {
    let v = Dsnp::from_bytes(&common::UTF16_WIDTH1).unwrap();
    let mut no_weight = v.clone();
    no_weight.steps[0].weight = None; // the flag still says WEIGHTED
    let e = no_weight.to_bytes().unwrap_err();
    assert_eq!(e.path_string(), "steps[0].weight");
    let mut too_wide = v.clone();
    too_wide.steps[0].joint = JointIndex::from_raw(300); // the width is 1 byte
    let e = too_wide.to_bytes().unwrap_err();
    assert!(e.to_string().contains("joint index 300"), "{e}");
    let mut bad_width = v;
    bad_width.header.joint_width = 8;
    let e = bad_width.to_bytes().unwrap_err();
    assert_eq!(e.path_string(), "header.joint_width");
    assert_eq!(e.offset(), 5);
}

/// A user's own binrw struct holding a DSNP file after a container header of its own.
#[binrw]
#[brw(little, magic = b"BOX1")]
#[derive(Debug, PartialEq)]
struct Boxed {
    version: u16,
    // Dsnp declares `ctx = ()`: its binrw arguments are `()`, so no attribute is needed.
    snippet: Dsnp,
}

#[test]
fn it_sits_inside_a_binrw_struct() {
    let mut bytes = b"BOX1".to_vec();
    bytes.extend(7u16.to_le_bytes());
    bytes.extend(common::UTF8_WIDTH2_TRAILING);
    let boxed = Boxed::read(&mut Cursor::new(&bytes)).unwrap();
    assert_eq!(boxed.version, 7);
    assert_eq!(boxed.snippet.trailing, b"END!");
    let mut out = Cursor::new(Vec::new());
    boxed.write(&mut out).unwrap();
    assert_eq!(out.into_inner(), bytes);
    // Errors come through binrw with their absolute offset: the width is at 6 + 5.
    bytes[6 + 5] = 3;
    let e = Boxed::read(&mut Cursor::new(&bytes)).unwrap_err();
    let e = mmd_formats::Error::from_binrw(e);
    assert_eq!(e.offset(), 11, "{e}");
}
