//! What the format headers, their contexts and the layout descriptors promise, stated
//! where a mutation test (`cargo mutants`, see `tests/MUTANTS.md`) showed that no other
//! test held the promise. Each test cites the seed or the documented rule it checks.

use mmd_formats::layout::{Describe, Prim};
use mmd_formats::pmd::{Pmd, PmdCounts};
use mmd_formats::pmx::PmxContext;
use mmd_formats::vmd::{Block, BlockCounts, Header as VmdHeader, ModelName, VmdVersion};
use mmd_formats::{IndexKind, ShiftJis, TextEncoding};

#[test]
fn a_pmx_context_gives_each_kind_its_own_width() {
    // Seed 000: globals bytes 2-7 are the widths of vertex, texture, material, bone,
    // morph and rigid-body indices, in that order.
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1, 2, 4, 2, 1, 4]);
    let widths: Vec<u8> = IndexKind::ALL.iter().map(|&k| ctx.index_width(k)).collect();
    assert_eq!(widths, [1, 2, 4, 2, 1, 4]);
    assert_eq!(ctx.index_width(IndexKind::Bone), 2);
    assert_eq!(ctx.index_width(IndexKind::RigidBody), 4);
}

#[test]
fn the_vmd_version_sets_the_model_name_width() {
    // Seed 004: the model name is 10 bytes in version 1, 20 in version 2.
    assert_eq!(VmdVersion::V1.model_name_len(), 10);
    assert_eq!(VmdVersion::V2.model_name_len(), 20);
    for header in [
        VmdHeader::new_v1("a").unwrap(),
        VmdHeader::new_v2("a").unwrap(),
    ] {
        let version = header.version().unwrap();
        assert_eq!(header.model_name.as_bytes().len(), version.model_name_len());
    }
}

#[test]
fn a_vmd_model_name_ends_at_its_first_nul() {
    // Seed 004: the model name is Shift_JIS, NUL-terminated inside its field, and real
    // files carry junk (0xFD) after the NUL; the name is the bytes before the NUL, or the
    // whole field when it holds none.
    let mut v1 = [0xFDu8; 10];
    v1[..5].copy_from_slice(b"Miku\0");
    let v1 = ModelName::V1(ShiftJis(v1));
    assert_eq!(v1.name_bytes(), b"Miku");
    assert_eq!(v1.as_bytes().len(), 10);
    assert_eq!(v1.version(), VmdVersion::V1);
    let mut v2 = [0u8; 20];
    v2[..10].copy_from_slice(b"\x83\x7E\x83\x4E\x00\xFDjunk");
    let v2 = ModelName::V2(ShiftJis(v2));
    assert_eq!(v2.name_bytes(), b"\x83\x7E\x83\x4E");
    assert_eq!(v2.decode(), "ミク");
    assert_eq!(v2.version(), VmdVersion::V2);
    let full = ModelName::V1(ShiftJis(*b"0123456789"));
    assert_eq!(full.name_bytes(), b"0123456789");
}

#[test]
fn pmd_counts_are_the_section_lengths() {
    // Seed 003: the English block has a name per bone, per morph except the base, and
    // per bone frame. Counted on every built-in PMD sample that has bones and morphs.
    let mut seen = 0;
    for (name, bytes) in mmd_formats::samples::pmd_samples() {
        let pmd = Pmd::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let counts = PmdCounts::of(&pmd.bones, &pmd.morphs, &pmd.frame_names).unwrap();
        assert_eq!(counts.bones, pmd.bones.len(), "{name}");
        assert_eq!(counts.morphs, pmd.morphs.len(), "{name}");
        assert_eq!(counts.frames, pmd.frame_names.len(), "{name}");
        assert_eq!(
            counts.english_morph_names(),
            pmd.morphs.len().saturating_sub(1),
            "{name}"
        );
        if !pmd.bones.is_empty() && pmd.morphs.len() > 2 && !pmd.frame_names.is_empty() {
            seen += 1;
        }
    }
    assert!(seen > 0, "no sample with bones, morphs and frames");
    let none = PmdCounts::default();
    assert_eq!(
        none.english_morph_names(),
        0,
        "no morphs: no base, no names"
    );
}

#[test]
fn number_types_describe_themselves() {
    // What the reference renders for each number type.
    let all = [
        (Prim::U8, "u8", 1, false, false),
        (Prim::I8, "i8", 1, true, false),
        (Prim::U16, "u16", 2, false, false),
        (Prim::I16, "i16", 2, true, false),
        (Prim::U32, "u32", 4, false, false),
        (Prim::I32, "i32", 4, true, false),
        (Prim::U64, "u64", 8, false, false),
        (Prim::I64, "i64", 8, true, false),
        (Prim::F32, "f32", 4, false, true),
        (Prim::F64, "f64", 8, false, true),
        (Prim::Bool, "bool", 1, false, false),
    ];
    for (p, name, size, signed, float) in all {
        assert_eq!(p.name(), name);
        assert_eq!(p.size(), size, "{name}");
        assert_eq!(p.is_signed(), signed, "{name}");
        assert_eq!(p.is_float(), float, "{name}");
    }
}

#[test]
fn an_array_of_a_format_type_has_that_types_layout() {
    let one = <VmdHeader as Describe>::layout().expect("a derived type has a layout");
    let two = <[VmdHeader; 2] as Describe>::layout().expect("so has an array of it");
    assert!(std::ptr::eq(one, two));
    assert_eq!(two.name, "Header");
    assert!(
        <[u32; 2] as Describe>::layout().is_none(),
        "numbers have none"
    );
}

#[test]
fn block_counts_list_the_blocks_with_keys_in_file_order() {
    // Seed 004: the blocks follow each other in the order bone, morph, camera, light,
    // self shadow, show/IK; a summary names only the blocks that hold keys.
    let counts = BlockCounts {
        bone: 3,
        camera: 1,
        show_ik: 2,
        ..BlockCounts::default()
    };
    assert_eq!(
        counts.nonzero(),
        [(Block::Bone, 3), (Block::Camera, 1), (Block::ShowIk, 2)]
    );
    assert_eq!(counts.total(), 6);
    assert_eq!(counts.to_string(), "3 bone, 1 camera, 2 show_ik");
    assert_eq!(BlockCounts::default().nonzero(), []);
    assert_eq!(BlockCounts::default().to_string(), "none");
}

#[test]
fn the_smallest_pmx_vertex_is_38_bytes() {
    // Seed 000: position (12), normal (12), UV (8), no additional UV, the weight type (1),
    // BDEF1's one bone index at the narrowest width (1), the edge scale (4). The reader's
    // count check holds a vertex count to the bytes left at this size.
    use mmd_formats::pmx::Vertex;
    assert_eq!(<Vertex as Describe>::MIN_SIZE, 38);
}
