//! The sample files, as literal bytes written by hand from the layout in the crate docs
//! (not by the writer under test).

/// `(name, bytes)` of every sample.
pub fn samples() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("utf16_width1", UTF16_WIDTH1.to_vec()),
        ("utf8_width2_trailing", UTF8_WIDTH2_TRAILING.to_vec()),
        ("width4_unknown_bits", WIDTH4_UNKNOWN_BITS.to_vec()),
        ("no_steps", NO_STEPS.to_vec()),
    ]
}

/// UTF-16LE text, 1-byte joints, two steps (a weighted turn, a hold of the whole body).
#[rustfmt::skip]
pub const UTF16_WIDTH1: [u8; 46] = [
    b'D', b'S', b'N', b'P', // signature
    0x00,                   // encoding: UTF-16LE
    0x01,                   // joint width: 1
    0x04, 0, 0, 0, b'a', 0, b'b', 0, // title: 4 bytes, "ab"
    b'M', b'i', b'k', b'u', 0, // author "Miku", NUL,
    0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, // then 0xFD fill (16 in all)
    0x02, 0x00,             // 2 steps
    0x03,                   // step 0: joint 3
    0x01,                   //   flags: WEIGHTED
    0x00, 0x00, 0x00, 0x3f, //   weight 0.5
    0x01,                   //   motion: Turn
    0x00, 0x00, 0xb4, 0x42, //   90.0 degrees
    0xff,                   // step 1: joint -1
    0x00,                   //   flags: none
    0x00,                   //   motion: Hold
];

/// UTF-8 text, 2-byte joints, a weighted mirrored move, 4 trailing bytes.
#[rustfmt::skip]
pub const UTF8_WIDTH2_TRAILING: [u8; 63] = [
    b'D', b'S', b'N', b'P',
    0x01,                   // encoding: UTF-8
    0x02,                   // joint width: 2
    0x09, 0, 0, 0,          // title: 9 bytes,
    0xe3, 0x83, 0x80, 0xe3, 0x83, 0xb3, 0xe3, 0x82, 0xb9, // "ダンス" in UTF-8
    0x8f, 0x89, 0x89, 0xb9, 0x00, // author "初音" in Shift_JIS, NUL,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // zero fill (16 in all)
    0x01, 0x00,             // 1 step
    0x34, 0x12,             // joint 0x1234
    0x03,                   // flags: WEIGHTED | MIRRORED
    0x00, 0x00, 0x80, 0x3f, // weight 1.0
    0x02,                   // motion: Move
    0x00, 0x00, 0x80, 0x3f, // offset x 1.0
    0x00, 0x00, 0x00, 0xc0, //        y -2.0
    0x00, 0x00, 0x80, 0x3e, //        z 0.25
    0x1e, 0x00,             // frames 30
    b'E', b'N', b'D', b'!', // trailing bytes
];

/// 4-byte joints, an author that fills its 16 bytes with no NUL, a flag bit with no name.
#[rustfmt::skip]
pub const WIDTH4_UNKNOWN_BITS: [u8; 34] = [
    b'D', b'S', b'N', b'P',
    0x01,                   // encoding: UTF-8
    0x04,                   // joint width: 4
    0x00, 0x00, 0x00, 0x00, // title: empty
    b'A', b'B', b'C', b'D', b'E', b'F', b'G', b'H',
    b'I', b'J', b'K', b'L', b'M', b'N', b'O', b'P', // author: 16 bytes, no NUL
    0x01, 0x00,             // 1 step
    0xfe, 0xff, 0xff, 0xff, // joint -2
    0x80,                   // flags: bit 7 (no name; kept)
    0x00,                   // motion: Hold
];

/// No steps at all.
#[rustfmt::skip]
pub const NO_STEPS: [u8; 28] = [
    b'D', b'S', b'N', b'P',
    0x00, 0x04,             // UTF-16LE, 4-byte joints
    0x00, 0x00, 0x00, 0x00, // title: empty
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // author: empty (all NUL)
    0x00, 0x00,             // 0 steps
];
