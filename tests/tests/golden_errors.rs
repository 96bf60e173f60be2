//! Golden error messages: hand-made broken inputs and the exact `Display` each gives,
//! with the offset derived by hand from the byte layout.

use mmd_formats::{pmd::Pmd, pmx::Pmx, vmd::Vmd};

/// PMX 2.0 header (UTF-16LE, no additional UV, 1-byte indices) and four empty texts:
/// 4 signature + 4 version + 1 globals count + 8 globals + 4 * 4 text lengths = 33 = 0x21.
fn pmx_prefix() -> Vec<u8> {
    let mut b = b"PMX ".to_vec();
    b.extend(2.0f32.to_le_bytes());
    b.push(8);
    b.extend([0, 0, 1, 1, 1, 1, 1, 1]);
    b.extend([0u8; 16]);
    b
}

/// VMD signature (30 bytes) and model name (20 bytes): the bone count is at 50 = 0x32.
fn vmd_prefix() -> Vec<u8> {
    let mut b = b"Vocaloid Motion Data 0002\0\0\0\0\0".to_vec();
    b.extend([0u8; 20]);
    b
}

#[test]
fn bad_pmx_magic() {
    let mut b = pmx_prefix();
    b[3] = b'!';
    let e = Pmx::from_bytes(&b).unwrap_err();
    assert!(!e.is_truncated());
    // The signature is the first value: offset 0.
    assert_eq!(e.offset(), 0, "{e}");
}

#[test]
fn vmd_ends_inside_bone_count() {
    // Signature and name (50 bytes), then 2 of the bone count's 4 bytes: the count at
    // 0x32 needs 4 bytes, the file ends at 0x34.
    let mut b = vmd_prefix();
    b.extend([0, 0]);
    let e = Vmd::from_bytes(&b).unwrap_err();
    assert!(e.is_truncated());
    assert_eq!(
        e.to_string(),
        "bone_keys: expected 4 bytes at 0x32, file ends at 0x34"
    );
}

#[test]
fn vmd_ends_inside_morph_count() {
    // No bone keys (count 0 at 0x32), then 1 byte of the morph count at 0x36.
    let mut b = vmd_prefix();
    b.extend([0, 0, 0, 0, 7]);
    let e = Vmd::from_bytes(&b).unwrap_err();
    assert!(e.is_truncated());
    assert_eq!(
        e.to_string(),
        "morph_keys: expected 4 bytes at 0x36, file ends at 0x37"
    );
}

#[test]
fn pmd_vertex_count_too_large() {
    // "Pmd" + version + 20-byte name + 256-byte comment = 283 = 0x11b; the count is
    // there, 100 bytes follow.
    let mut b = b"Pmd".to_vec();
    b.extend(1.0f32.to_le_bytes());
    b.extend([0u8; 276]);
    b.extend(u32::MAX.to_le_bytes());
    b.extend([0u8; 100]);
    let e = Pmd::from_bytes(&b).unwrap_err();
    assert!(!e.is_truncated());
    assert_eq!(e.offset(), 0x11b, "{e}");
    assert_eq!(e.path_string(), "vertices", "{e}");
}
