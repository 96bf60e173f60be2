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
    // there, 100 bytes follow (0x11f..0x183).
    let mut b = b"Pmd".to_vec();
    b.extend(1.0f32.to_le_bytes());
    b.extend([0u8; 276]);
    b.extend(u32::MAX.to_le_bytes());
    b.extend([0u8; 100]);
    let e = Pmd::from_bytes(&b).unwrap_err();
    assert_eq!(e.offset(), 0x11b, "{e}");
    assert_eq!(e.path_string(), "vertices", "{e}");
    // A PMD vertex is 38 bytes (position 12, normal 12, uv 8, two bone numbers 4,
    // weight 1, edge flag 1): the 100 zero bytes hold vertices 0 and 1 (76 bytes) and
    // the position and normal of vertex 2 (24 more), so the input ends at 0x183 where
    // that vertex's uv starts. Every byte there is a valid value: a cut file.
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.input_end(), Some(0x183), "{e}");
    assert_eq!(e.cut_path().as_deref(), Some("vertices[2].uv[0]"), "{e}");
}

/// One golden case: the input, the exact message, and whether it is a truncation.
fn golden_pmx(bytes: &[u8], message: &str, truncated: bool) {
    let e = Pmx::from_bytes(bytes).unwrap_err();
    assert_eq!(e.to_string(), message);
    assert_eq!(e.is_truncated(), truncated, "{e}");
}

#[test]
fn bad_pmx_magic_message() {
    // The derive reads the signature as the header's `magic`: offset 0.
    let mut b = pmx_prefix();
    b[3] = b'!';
    golden_pmx(
        &b,
        r#"header.magic: magic "PMX!" at 0x0 (expected magic "PMX ")"#,
        false,
    );
}

#[test]
fn index_width_3_in_header() {
    // Globals start at 9: encoding (9), additional UV (10), vertex index width (11 = 0xb).
    let mut b = pmx_prefix();
    b[11] = 3;
    golden_pmx(
        &b,
        "header.globals[2]: vertex index width 3 at 0xb (expected a vertex index width of 1, 2 or 4)",
        false,
    );
}

#[test]
fn too_few_globals() {
    // Seed 000: the globals count (a u8 at 8) is 8 in practice, but a reader must read it.
    // With 5 globals (bytes 9..14) the bone index width, globals[5], is missing: the
    // context declares it from element 5 and says so, at the globals' count byte (8).
    let mut b = b"PMX ".to_vec();
    b.extend(2.0f32.to_le_bytes());
    b.push(5);
    b.extend([0, 0, 1, 1, 1]);
    golden_pmx(
        &b,
        "header.globals: 5 elements at 0x8 (expected at least 6 elements for the bone index width)",
        false,
    );
}

#[test]
fn negative_vertex_count() {
    // The vertex count follows the header (17 bytes) and four empty texts (16): 0x21.
    let mut b = pmx_prefix();
    b.extend((-1i32).to_le_bytes());
    golden_pmx(
        &b,
        "vertices: count -1 at 0x21 (expected a count of 0 or more)",
        false,
    );
}

#[test]
fn vertex_count_beyond_the_bytes_left() {
    // A vertex is at least 12 + 12 + 8 + (1 weight type + 1 BDEF1 bone) + 4 = 38 bytes;
    // 1000 of them need 38000, and after the count at 0x21 only 10 bytes remain
    // (0x25..0x2f): the position's x and y (0x25..0x2d) and half of z, which starts at
    // 0x2d. Zero bytes are valid floats, so the file reads as cut inside position[2].
    let mut b = pmx_prefix();
    b.extend(1000i32.to_le_bytes());
    b.extend([0u8; 10]);
    golden_pmx(
        &b,
        "vertices: count 1000 at 0x21 needs at least 38000 bytes (1000 x 38), but only 10 \
         remain; the file ends at 0x2f, inside vertices[0].position[2]",
        true,
    );
}

#[test]
fn vertex_count_beyond_the_bytes_left_over_corrupt_data() {
    // The same count, but the first vertex's weight type (after position 0x25, normal
    // 0x31 and uv 0x3d, at 0x45) is 9, which no PMX version defines: the bytes present
    // are corrupt, so the count is reported as it is, not as a cut file. 38 bytes follow
    // the count (0x25..0x4b).
    let mut b = pmx_prefix();
    b.extend(1000i32.to_le_bytes());
    b.extend([0u8; 38]);
    b[0x45] = 9;
    golden_pmx(
        &b,
        "vertices: count 1000 at 0x21 needs at least 38000 bytes (1000 x 38), but only 38 remain",
        false,
    );
}

#[test]
fn model_name_longer_than_the_file() {
    // The model name's length (100) is at 0x11; its bytes would start at 0x15, where the
    // file ends.
    let mut b = pmx_prefix();
    b.truncate(17);
    b.extend(100i32.to_le_bytes());
    golden_pmx(
        &b,
        "model.name: expected 100 bytes at 0x15, file ends at 0x15",
        true,
    );
}

/// Header, empty model info, no vertices, faces or textures, then one material whose
/// texts are empty, up to and including its shared-toon flag byte `flag`.
fn one_material_up_to_toon_flag(flag: u8) -> Vec<u8> {
    let mut b = pmx_prefix();
    b.extend(0i32.to_le_bytes()); // vertices, 0x21
    b.extend(0i32.to_le_bytes()); // faces, 0x25
    b.extend(0i32.to_le_bytes()); // textures, 0x29
    b.extend(1i32.to_le_bytes()); // materials, 0x2d
    b.extend([0u8; 8]); // name, name_en: empty texts, 0x31..0x39
    b.extend([0u8; 16 + 12 + 4 + 12]); // diffuse, specular, strength, ambient: 0x39..0x65
    b.push(0); // draw flags, 0x65
    b.extend([0u8; 16 + 4]); // edge colour, edge size: 0x66..0x7a
    b.extend([0xff, 0xff]); // texture, sphere texture (1-byte indices, -1): 0x7a, 0x7b
    b.push(0); // sphere mode, 0x7c
    b.push(flag); // shared-toon flag, 0x7d
    b
}

#[test]
fn unknown_shared_toon_flag() {
    // Nine more bytes (what the smallest material still needs: a toon byte, the memo's
    // length and the face count) so the material count passes its check and the flag
    // at 0x7d is reached.
    let mut b = one_material_up_to_toon_flag(7);
    b.extend([0u8; 9]);
    golden_pmx(
        &b,
        "materials[0].toon: unknown shared-toon flag 7 at 0x7d (expected 0 or 1)",
        false,
    );
}

#[test]
fn material_cut_after_the_toon_flag_fails_the_count_check() {
    // The smallest material is 8 (two empty texts) + 44 (colours) + 1 (flags) + 20 (edge)
    // + 2 (two 1-byte texture indices) + 1 (sphere mode) + 2 (toon flag and a 1-byte
    // value) + 4 (memo length) + 4 (face count) = 86 bytes. The file ends 77 bytes after
    // the count at 0x2d (0x31..0x7e), so the count is refused before anything is kept;
    // the material's bytes are then read to tell why: they are valid up to the flag
    // (1, shared toon), and the file ends at 0x7e where the shared toon's number would be.
    golden_pmx(
        &one_material_up_to_toon_flag(1),
        "materials: count 1 at 0x2d needs at least 86 bytes (1 x 86), but only 77 remain; \
         the file ends at 0x7e, inside materials[0].toon.Shared",
        true,
    );
}

/// A VPD pose with one bone block whose translation line is `last` and the file's end.
/// Line starts: signature 0, blank 25, model file 27, bone count 38, blank 42, block
/// opening 44, translation 53 = 0x35 (line 7).
fn vpd_cut_in_translation(last: &str) -> Vec<u8> {
    let mut s = String::from("Vocaloid Pose Data file\r\n\r\nmiku.osm;\r\n1;\r\n\r\nBone0{a\r\n");
    s.push_str(last);
    s.into_bytes()
}

#[test]
fn vpd_cut_inside_a_number_line_is_a_truncation() {
    let e =
        mmd_formats::vpd::Vpd::from_bytes(&vpd_cut_in_translation("  0.000000,3.45")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bones[0].translation: \"  0.000000,3.45\" (no `;`) on line 7 at 0x35 (expected \
         translation x,y,z: 3 decimal numbers separated by `,`, then `;`)"
    );
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.input_end(), Some(0x35 + 15), "{e}");
}

#[test]
fn vpd_line_without_semicolon_before_more_lines_is_corrupt() {
    // The same text, but a line break and the closing `}` follow: the `;` is missing
    // from a line that is complete, which no cut explains.
    let e = mmd_formats::vpd::Vpd::from_bytes(&vpd_cut_in_translation("  0.000000,3.45\r\n}\r\n"))
        .unwrap_err();
    assert!(!e.is_truncated(), "{e}");
    assert_eq!(e.offset(), 0x35, "{e}");
    // And a last line with a letter in it is not the start of a number line either.
    let e = mmd_formats::vpd::Vpd::from_bytes(&vpd_cut_in_translation("  0.0x0")).unwrap_err();
    assert!(!e.is_truncated(), "{e}");
}

#[test]
fn vpd_cut_inside_the_signature_is_a_truncation() {
    let e = mmd_formats::vpd::Vpd::from_bytes(b"Vocaloid Pose").unwrap_err();
    assert!(e.is_truncated(), "{e}");
    let e = mmd_formats::vpd::Vpd::from_bytes(b"Vocaloid Pixel").unwrap_err();
    assert!(!e.is_truncated(), "{e}");
}

#[test]
fn vpd_last_number_line_is_judged_part_by_part() {
    use mmd_formats::vpd::Vpd;
    // Starts of a translation line: a sign, a dot, an exponent, `in` of `inf` (which the
    // reader takes, with a warning), a blank after a comma.
    for cut in ["  -", "  1.", "  2e", "  in", "  0,1, ", "  0,1,-0.5"] {
        let e = Vpd::from_bytes(&vpd_cut_in_translation(cut)).unwrap_err();
        assert!(e.is_truncated(), "{cut:?}: {e}");
    }
    // Not the start of any translation line: four values, a doubled dot, a letter.
    for bad in ["  1,2,3,4", "  1..2,", "  0.0x", "  1 2"] {
        let e = Vpd::from_bytes(&vpd_cut_in_translation(bad)).unwrap_err();
        assert!(!e.is_truncated(), "{bad:?}: {e}");
    }
}

#[test]
fn a_short_file_is_cut_inside_the_signature_only_if_what_is_there_matches() {
    for (bytes, truncated) in [
        (&b"PM"[..], true),
        (b"PMX", true),
        (b"XYZ", false),
        (b"PMd", false),
    ] {
        let e = Pmx::from_bytes(bytes).unwrap_err();
        assert_eq!(e.is_truncated(), truncated, "{bytes:?}: {e}");
        assert_eq!(e.offset(), 0, "{e}");
    }
    let e = Pmx::from_bytes(b"XYZ").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"header.magic: magic "XYZ" at 0x0 (expected magic "PMX ")"#
    );
    let e = Pmx::from_bytes(b"PM").unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.magic: expected 4 bytes at 0x0, file ends at 0x2"
    );
    assert!(Pmd::from_bytes(b"Pm").unwrap_err().is_truncated());
    assert!(!Pmd::from_bytes(b"PMX").unwrap_err().is_truncated());
}

#[test]
fn a_vpd_read_at_an_offset_reports_the_end_of_the_whole_input() {
    use binrw::BinRead;
    // Ten bytes of something else, then a VPD cut inside its signature (13 bytes): the
    // input ends at 23, and the error's offset and end are both counted from byte 0.
    let mut bytes = vec![0xAAu8; 10];
    bytes.extend_from_slice(b"Vocaloid Pose");
    let mut cursor = std::io::Cursor::new(bytes);
    cursor.set_position(10);
    let e =
        mmd_formats::Error::from_binrw(mmd_formats::vpd::Vpd::read_le(&mut cursor).unwrap_err());
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.offset(), 10, "{e}");
    assert_eq!(e.input_end(), Some(23), "{e}");
}
