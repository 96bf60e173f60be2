//! PMX, synthetic: the built-in samples round-trip byte-exactly, and for every branch of
//! the grammar a focused test builds the bytes by hand (from the seed layouts, not with the
//! library's writer), reads them and checks the typed values; error paths are checked for
//! their offset, field path and kind.

use mmd_formats::pmx::*;
use mmd_formats::samples::pmx_samples;
use mmd_formats::{
    BoneIndex, Error, ErrorKind, MaterialIndex, MorphIndex, PmxText, RigidBodyIndex, TextEncoding,
    TextureIndex, VertexIndex,
};
use mmd_tests::pmx_bytes::*;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------
// Record writers for this suite, on the shared hand byte builder (seed layouts 000, 002).
// ---------------------------------------------------------------------------------------

/// A vertex record: position, normal, uv, `uv_n` additional vec4s, weight, edge scale.
fn vertex(b: &mut B, uv_n: u8, n: f32, weight: impl FnOnce(&mut B)) {
    b.f32s(&[n, n + 0.5, n + 0.25])
        .f32s(&[0.0, 1.0, 0.0])
        .f32s(&[0.125, 0.875]);
    for k in 0..uv_n {
        b.f32s(&[n, k as f32, 0.5, 0.25]);
    }
    weight(b);
    b.f32(1.0);
}

/// A material record with the given flags, texture indices, sphere mode and toon bytes
/// (English name "en", memo "memo", the shared builder's colours and edge).
#[allow(clippy::too_many_arguments)]
fn material(
    b: &mut B,
    name: &str,
    flags: u8,
    tex: i64,
    sphere: i64,
    sphere_mode: u8,
    toon: T,
    faces: i32,
) {
    MaterialRecord {
        name_en: "en",
        flags,
        texture: tex,
        sphere,
        sphere_mode,
        memo: "memo",
        ..MaterialRecord::new(name, toon, faces)
    }
    .write(b);
}

fn rigid(b: &mut B, bone: i64, shape: u8, mode: u8) {
    b.text("r")
        .text("")
        .bi(bone)
        .u8(3)
        .u16(0xfffe)
        .u8(shape)
        .f32s(&[1.0, 2.0, 3.0])
        .f32s(&[4.0, 5.0, 6.0])
        .f32s(&[0.1, 0.2, 0.3])
        .f32s(&[1.0, 0.5, 0.25, 0.125, 0.0625])
        .u8(mode);
}

fn joint(b: &mut B, kind: u8, a: i64, c: i64) {
    b.text("j").text("").u8(kind).ri(a).ri(c);
    for k in 0..8 {
        b.f32s(&[k as f32, k as f32 + 0.5, -(k as f32)]);
    }
}

fn err_kind_name(e: &Error) -> &'static str {
    match e.kind() {
        ErrorKind::Truncated { .. } => "Truncated",
        ErrorKind::CountTooLarge { .. } => "CountTooLarge",
        ErrorKind::Invalid { .. } => "Invalid",
        ErrorKind::Inconsistent { .. } => "Inconsistent",
        ErrorKind::Io(_) => "Io",
        _ => "other",
    }
}

// ---------------------------------------------------------------------------------------
// The built-in samples.
// ---------------------------------------------------------------------------------------

/// Every sample `mmd_formats::samples::pmx_samples` builds. A sample that silently fails to
/// serialise is missing from the list and fails `samples_are_the_ones_built`.
const EXPECTED_SAMPLES: &[&str] = &[
    "pmx/full_v21_idx1_utf16_uv4.pmx",
    "pmx/full_v21_idx2_utf8_uv0.pmx",
    "pmx/full_v21_idx4_utf16_uv2.pmx",
    "pmx/full_v21_idx_mixed_utf8_uv1.pmx",
    "pmx/full_v20_idx_mixed_utf16.pmx",
    "pmx/full_v20_idx_mixed_utf8_uv4.pmx",
    "pmx/minimal.pmx",
    "pmx/weights_all_types_v20.pmx",
    "pmx/v21_no_soft_body_section.pmx",
    "pmx/v21_soft_body_count_0.pmx",
    "pmx/globals_10.pmx",
    "pmx/trailing_bytes_v20.pmx",
    "pmx/trailing_bytes_v21.pmx",
    "pmx/zero_counts_v20.pmx",
    "pmx/zero_counts_v21.pmx",
    "pmx/text_utf16_undecodable.pmx",
    "pmx/text_utf8_undecodable.pmx",
];

fn expected_names() -> Vec<&'static str> {
    EXPECTED_SAMPLES.to_vec()
}

#[test]
fn samples_are_the_ones_built() {
    let names: Vec<String> = pmx_samples().into_iter().map(|(n, _)| n).collect();
    let expected = expected_names();
    assert_eq!(names.len(), expected.len(), "sample count: {names:?}");
    assert_eq!(names, expected);
    let unique: BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "duplicate sample names");
}

#[test]
fn every_sample_round_trips_byte_exact() {
    let samples = pmx_samples();
    assert_eq!(samples.len(), expected_names().len());
    for (name, bytes) in &samples {
        let pmx = Pmx::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = pmx.to_bytes().unwrap_or_else(|e| panic!("{name}: {e}"));
        mmd_tests::assert_bytes_eq(&out, bytes, name);
        // Reading the written bytes gives the same value.
        assert_eq!(Pmx::from_bytes(&out).ok().as_ref(), Some(&pmx), "{name}");
        println!("{name}: {} bytes", bytes.len());
    }
}

fn parsed_samples() -> Vec<(String, Vec<u8>, Pmx)> {
    pmx_samples()
        .into_iter()
        .map(|(n, b)| {
            let p = Pmx::from_bytes(&b).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, b, p)
        })
        .collect()
}

fn weight_tag(w: &Weight) -> u8 {
    match w {
        Weight::Bdef1 { .. } => 0,
        Weight::Bdef2 { .. } => 1,
        Weight::Bdef4 { .. } => 2,
        Weight::Sdef { .. } => 3,
        Weight::Qdef { .. } => 4,
    }
}

fn morph_tag(m: &MorphOffsets) -> u8 {
    match m {
        MorphOffsets::Group(_) => 0,
        MorphOffsets::Vertex(_) => 1,
        MorphOffsets::Bone(_) => 2,
        MorphOffsets::Uv(_) => 3,
        MorphOffsets::AdditionalUv1(_) => 4,
        MorphOffsets::AdditionalUv2(_) => 5,
        MorphOffsets::AdditionalUv3(_) => 6,
        MorphOffsets::AdditionalUv4(_) => 7,
        MorphOffsets::Material(_) => 8,
        MorphOffsets::Flip(_) => 9,
        MorphOffsets::Impulse(_) => 10,
    }
}

/// Every raw index value of every kind in a model, as (kind number, raw value).
fn index_values(p: &Pmx) -> Vec<(usize, i64)> {
    let mut out = Vec::new();
    let v = |x: VertexIndex| (0usize, x.raw() as i64);
    let t = |x: TextureIndex| (1usize, x.raw() as i64);
    let m = |x: MaterialIndex| (2usize, x.raw() as i64);
    let b = |x: BoneIndex| (3usize, x.raw() as i64);
    let mo = |x: MorphIndex| (4usize, x.raw() as i64);
    let r = |x: RigidBodyIndex| (5usize, x.raw() as i64);
    for vx in &p.vertices {
        match &vx.weight {
            Weight::Bdef1 { bone } => out.push(b(*bone)),
            Weight::Bdef2 { bones, .. } | Weight::Sdef { bones, .. } => {
                out.extend(bones.iter().map(|x| b(*x)))
            }
            Weight::Bdef4 { bones, .. } | Weight::Qdef { bones, .. } => {
                out.extend(bones.iter().map(|x| b(*x)))
            }
        }
    }
    out.extend(p.faces.iter().map(|x| v(*x)));
    for mat in &p.materials {
        out.push(t(mat.texture));
        out.push(t(mat.sphere_texture));
        if let Toon::Texture(x) = mat.toon {
            out.push(t(x));
        }
    }
    for bn in &p.bones {
        out.push(b(bn.parent));
        if let BoneTail::Bone(x) = bn.tail {
            out.push(b(x));
        }
        if let Some(i) = &bn.inherit {
            out.push(b(i.parent));
        }
        if let Some(ik) = &bn.ik {
            out.push(b(ik.target));
            out.extend(ik.links.iter().map(|l| b(l.bone)));
        }
    }
    for mp in &p.morphs {
        match &mp.offsets {
            MorphOffsets::Group(o) | MorphOffsets::Flip(o) => {
                out.extend(o.iter().map(|x| mo(x.morph)))
            }
            MorphOffsets::Vertex(o) => out.extend(o.iter().map(|x| v(x.vertex))),
            MorphOffsets::Bone(o) => out.extend(o.iter().map(|x| b(x.bone))),
            MorphOffsets::Uv(o)
            | MorphOffsets::AdditionalUv1(o)
            | MorphOffsets::AdditionalUv2(o)
            | MorphOffsets::AdditionalUv3(o)
            | MorphOffsets::AdditionalUv4(o) => out.extend(o.iter().map(|x| v(x.vertex))),
            MorphOffsets::Material(o) => out.extend(o.iter().map(|x| m(x.material))),
            MorphOffsets::Impulse(o) => out.extend(o.iter().map(|x| r(x.rigid_body))),
        }
    }
    for f in &p.display_frames {
        for e in &f.elements {
            out.push(match e {
                FrameElement::Bone(x) => b(*x),
                FrameElement::Morph(x) => mo(*x),
            });
        }
    }
    out.extend(p.rigid_bodies.iter().map(|x| b(x.bone)));
    for j in &p.joints {
        out.push(r(j.rigid_a));
        out.push(r(j.rigid_b));
    }
    for s in p.soft_bodies.iter().flatten() {
        out.push(m(s.material));
        for a in &s.anchors {
            out.push(r(a.rigid_body));
            out.push(v(a.vertex));
        }
        out.extend(s.pins.iter().map(|x| v(*x)));
    }
    out
}

/// The samples, taken together, take every branch the grammar has.
#[test]
fn samples_cover_every_branch() {
    let all = parsed_samples();
    let mut widths: BTreeSet<(usize, u8)> = BTreeSet::new();
    let mut boundary: BTreeSet<(usize, u8, i64)> = BTreeSet::new();
    let mut encodings = BTreeSet::new();
    let mut uvs = BTreeSet::new();
    let mut weights = BTreeSet::new();
    let mut weights_v20 = BTreeSet::new();
    let mut mat_flags = 0u8;
    let mut sphere_modes = BTreeSet::new();
    let mut toon_shared = false;
    let mut toon_texture = false;
    let mut bone_flags = 0u16;
    let (mut tail_bone, mut tail_offset) = (false, false);
    let (mut link_limited, mut link_free, mut ik_empty) = (false, false, false);
    let mut parent_after_child = false;
    let mut morph_types = BTreeSet::new();
    let (mut frame_bone, mut frame_morph) = (false, false);
    let mut rigid_shapes = BTreeSet::new();
    let mut rigid_modes = BTreeSet::new();
    let mut joint_kinds = BTreeSet::new();
    let (mut anchors, mut pins) = (false, false);
    let (mut v21_soft, mut v21_none, mut v21_zero, mut v20) = (false, false, false, false);
    let mut globals_counts = BTreeSet::new();
    let mut trailing = false;
    let mut all_zero = false;
    let (mut pair16, mut pair8, mut raw16, mut raw8) = (false, false, false, false);
    for (name, bytes, p) in &all {
        let ctx = p.context().unwrap();
        for (k, w) in ctx.widths().iter().enumerate() {
            widths.insert((k, *w));
        }
        for (k, raw) in index_values(p) {
            boundary.insert((k, ctx.widths()[k], raw));
        }
        encodings.insert(ctx.encoding.to_byte());
        uvs.insert(ctx.additional_uv);
        for v in &p.vertices {
            weights.insert(weight_tag(&v.weight));
            if !ctx.is_v21() {
                weights_v20.insert(weight_tag(&v.weight));
            }
        }
        for m in &p.materials {
            mat_flags |= m.flags.bits();
            sphere_modes.insert(m.sphere_mode);
            match m.toon {
                Toon::Shared(_) => toon_shared = true,
                Toon::Texture(_) => toon_texture = true,
            }
        }
        for (i, b) in p.bones.iter().enumerate() {
            bone_flags |= b.flags.bits();
            match b.tail {
                BoneTail::Bone(_) => tail_bone = true,
                BoneTail::Offset(_) => tail_offset = true,
            }
            if let Some(ik) = &b.ik {
                ik_empty |= ik.links.is_empty();
                for l in &ik.links {
                    link_limited |= l.limit_min.is_some();
                    link_free |= l.limit_min.is_none();
                }
            }
            if b.parent.get().is_some_and(|parent| parent > i) {
                parent_after_child = true;
            }
        }
        for m in &p.morphs {
            morph_types.insert(morph_tag(&m.offsets));
        }
        for f in &p.display_frames {
            for e in &f.elements {
                match e {
                    FrameElement::Bone(_) => frame_bone = true,
                    FrameElement::Morph(_) => frame_morph = true,
                }
            }
        }
        for r in &p.rigid_bodies {
            rigid_shapes.insert(r.shape);
            rigid_modes.insert(r.mode);
        }
        for j in &p.joints {
            joint_kinds.insert(j.kind);
        }
        match (&p.soft_bodies, ctx.is_v21()) {
            (Some(s), true) if !s.is_empty() => {
                v21_soft = true;
                anchors |= s.iter().any(|s| !s.anchors.is_empty());
                pins |= s.iter().any(|s| !s.pins.is_empty());
            }
            (Some(_), true) => v21_zero = true,
            (None, true) => v21_none = true,
            (None, false) => v20 = true,
            (Some(_), false) => panic!("{name}: soft bodies in a 2.0 file"),
        }
        globals_counts.insert(p.header.globals.len());
        trailing |= !p.trailing.is_empty();
        all_zero |= p.vertices.is_empty()
            && p.faces.is_empty()
            && p.textures.is_empty()
            && p.materials.is_empty()
            && p.bones.is_empty()
            && p.morphs.is_empty()
            && p.display_frames.is_empty()
            && p.rigid_bodies.is_empty()
            && p.joints.is_empty();
        let texts = [
            &p.model.name,
            &p.model.name_en,
            &p.model.comment,
            &p.model.comment_en,
        ];
        for t in texts {
            let pair = t.to_str().is_some_and(|s| s.contains('\u{1F600}'));
            let raw = t.to_str().is_none();
            match ctx.encoding {
                TextEncoding::Utf16Le => {
                    pair16 |= pair;
                    raw16 |= raw;
                }
                _ => {
                    pair8 |= pair;
                    raw8 |= raw;
                }
            }
        }
        assert!(!bytes.is_empty());
    }
    for k in 0..6 {
        for w in [1u8, 2, 4] {
            assert!(widths.contains(&(k, w)), "kind {k} never at width {w}");
        }
    }
    // Boundary values: vertex max unsigned, signed -1 and max.
    for (w, max) in [(1u8, 255i64), (2, 65535), (4, i32::MAX as i64)] {
        assert!(boundary.contains(&(0, w, max)), "vertex {max} at width {w}");
    }
    for k in 1..6 {
        for (w, max) in [(1u8, 127i64), (2, 32767), (4, i32::MAX as i64)] {
            assert!(
                boundary.contains(&(k, w, max)),
                "kind {k}: {max} at width {w}"
            );
            assert!(boundary.contains(&(k, w, -1)), "kind {k}: -1 at width {w}");
        }
    }
    assert_eq!(encodings, BTreeSet::from([0, 1]));
    assert!(uvs.contains(&0) && uvs.contains(&4), "{uvs:?}");
    assert_eq!(weights, BTreeSet::from([0, 1, 2, 3, 4]));
    assert!(weights_v20.contains(&4), "QDEF in a 2.0 file");
    assert_eq!(mat_flags, 0xff);
    assert_eq!(sphere_modes, BTreeSet::from([0, 1, 2, 3, 255]));
    assert!(toon_shared && toon_texture);
    for bit in [
        0x0001u16, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0080, 0x0100, 0x0200, 0x0400, 0x0800,
        0x1000, 0x2000, 0x4000,
    ] {
        assert_ne!(bone_flags & bit, 0, "bone flag {bit:#06x}");
    }
    assert!(tail_bone && tail_offset);
    assert!(link_limited && link_free && ik_empty);
    assert!(parent_after_child);
    assert_eq!(morph_types, (0..=10).collect());
    assert!(frame_bone && frame_morph);
    assert_eq!(rigid_shapes, BTreeSet::from([0, 1, 2]));
    assert_eq!(rigid_modes, BTreeSet::from([0, 1, 2]));
    assert_eq!(joint_kinds, (0..=5).collect());
    assert!(v21_soft && anchors && pins && v21_none && v21_zero && v20);
    assert!(globals_counts.contains(&8) && globals_counts.contains(&10));
    assert!(trailing && all_zero);
    assert!(pair16 && pair8 && raw16 && raw8);
}

/// Every prefix of every sample: no panic; a read that succeeds writes the prefix back
/// exactly; an error points inside the prefix.
#[test]
fn sample_prefixes_never_panic() {
    for (name, bytes) in pmx_samples() {
        let mut ok_cuts = 0;
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            match Pmx::from_bytes(prefix) {
                Ok(p) => {
                    ok_cuts += 1;
                    let out = p.to_bytes().unwrap_or_else(|e| panic!("{name}@{cut}: {e}"));
                    assert_eq!(out, prefix, "{name}: prefix {cut} reads but differs");
                }
                Err(e) => assert!(e.offset() <= cut as u64, "{name}@{cut}: {e}"),
            }
        }
        // Exactly these prefixes read without error: every cut inside the trailing bytes
        // (kept as they are), and in a 2.1 file with soft bodies the cut right after the
        // joints (a 2.1 file may end there).
        let p = Pmx::from_bytes(&bytes).unwrap();
        let v21_cut = p.context().unwrap().is_v21() && p.soft_bodies.is_some();
        let allowed = p.trailing.len() + usize::from(v21_cut);
        assert_eq!(ok_cuts, allowed, "{name}: prefixes that read");
    }
}

/// Every single-byte corruption of the full samples: no panic; a read that succeeds writes
/// the corrupted file back exactly.
#[test]
fn sample_byte_corruptions_never_panic() {
    let mut corrupted = 0;
    for (name, bytes) in pmx_samples() {
        if !name.contains("full_v21") {
            continue;
        }
        corrupted += 1;
        for i in 0..bytes.len() {
            for x in [0xffu8, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= x;
                match Pmx::from_bytes(&b) {
                    Ok(p) => {
                        let out = p.to_bytes().unwrap_or_else(|e| panic!("{name}@{i}: {e}"));
                        assert_eq!(out, b, "{name}: corruption at {i} not kept");
                    }
                    Err(e) => assert!(e.offset() <= b.len() as u64, "{name}@{i}: {e}"),
                }
            }
        }
    }
    // The four full PMX 2.1 samples.
    assert_eq!(corrupted, 4);
}

// ---------------------------------------------------------------------------------------
// Header.
// ---------------------------------------------------------------------------------------

#[test]
fn header_fields_read_as_declared() {
    let f = F::new(2.0, 1, 3, [1, 2, 4, 2, 1, 4]);
    let p = f.read();
    assert_eq!(p.header.version, 2.0);
    assert_eq!(p.header.globals, vec![1, 3, 1, 2, 4, 2, 1, 4]);
    let c = p.context().unwrap();
    assert_eq!(c.encoding, TextEncoding::Utf8);
    assert_eq!(c.additional_uv, 3);
    assert_eq!(c.widths(), [1, 2, 4, 2, 1, 4]);
    assert!(!c.is_v21());
    assert_eq!(p.soft_bodies, None);
}

#[test]
fn version_bits_kept_as_read() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    let p = f.read();
    assert_eq!(p.header.version.to_bits(), 0x4006_6666);
    assert!(p.context().unwrap().is_v21());
    // A version that is neither 2.0 nor 2.1 is kept as it is (2.05 and below: no soft bodies).
    f.version = f32::from_bits(0x4000_0001);
    f.soft = None;
    let p = f.read();
    assert_eq!(p.header.version.to_bits(), 0x4000_0001);
}

#[test]
fn header_index_width_3_is_an_error_naming_the_global() {
    for i in 0..6 {
        let mut f = F::v20([1; 6]);
        f.globals[2 + i] = 3;
        let e = f.read_err();
        assert_eq!(e.offset(), 0x0b + i as u64, "{e}");
        assert!((0x0b..=0x10).contains(&e.offset()));
        assert_eq!(e.path_string(), format!("header.globals[{}]", 2 + i), "{e}");
        assert_eq!(err_kind_name(&e), "Invalid", "{e}");
    }
}

#[test]
fn fewer_than_eight_globals_is_an_error() {
    let mut f = F::v20([1; 6]);
    f.globals.truncate(7);
    let e = f.read_err();
    assert_eq!(e.offset(), 8, "{e}");
    assert_eq!(e.path_string(), "header.globals", "{e}");
    assert_eq!(err_kind_name(&e), "Invalid");
}

#[test]
fn bad_magic_is_an_error_at_zero() {
    let mut b = F::v20([1; 6]).bytes();
    b[3] = 0;
    let e = Pmx::from_bytes(&b).unwrap_err();
    assert_eq!(e.offset(), 0);
    assert_eq!(e.path_string(), "header.magic", "{e}");
    assert!(Pmx::from_bytes(b"PMX").unwrap_err().is_truncated());
    assert!(Pmx::from_bytes(b"").is_err());
}

#[test]
fn globals_count_10_keeps_two_extra_bytes() {
    let mut f = F::v20([1; 6]);
    f.globals.extend_from_slice(&[0x55, 0xaa]);
    f.set_info_texts(["名前", "name", "", "c"]);
    let bytes = f.bytes();
    assert_eq!(bytes[8], 10);
    let p = roundtrip(&bytes);
    assert_eq!(p.header.globals.len(), 10);
    assert_eq!(&p.header.globals[8..], &[0x55, 0xaa]);
    // The model name starts after all ten globals (offset 19), not after eight.
    assert_eq!(p.model.name.to_str().as_deref(), Some("名前"));
    assert_eq!(p.model.name_en.to_str().as_deref(), Some("name"));
    assert_eq!(p.model.comment_en.to_str().as_deref(), Some("c"));
}

// ---------------------------------------------------------------------------------------
// Indices: widths, signedness, boundary values.
// ---------------------------------------------------------------------------------------

#[test]
fn vertex_index_boundaries_at_each_width() {
    for (w, vals, expect) in [
        (1u8, vec![0i64, 0xff, 0x80, 0x7f], vec![0u32, 255, 128, 127]),
        (
            2,
            vec![0, 0xffff, 0x8000, 0x7fff],
            vec![0, 65535, 32768, 32767],
        ),
        (
            4,
            vec![0, 0x7fff_ffff, 0xffff_ffff, 0x8000_0000],
            vec![0, i32::MAX as u32, u32::MAX, 0x8000_0000],
        ),
    ] {
        let mut f = F::v20([w, 1, 1, 1, 1, 1]);
        let mut b = f.b();
        for v in &vals {
            b.vi(*v);
        }
        assert_eq!(b.len(), vals.len() * w as usize);
        f.set(FACES, vals.len() as i32, &b);
        let p = f.read();
        let got: Vec<u32> = p.faces.iter().map(|v| v.raw()).collect();
        assert_eq!(got, expect, "width {w}");
        assert_eq!(p.faces[1].get(), Some(expect[1] as usize));
    }
}

/// Every signed kind at every width: -1 is none, the maximum reads as itself, the most
/// negative value is kept (and is not "none").
#[test]
fn signed_index_boundaries_every_kind() {
    for w in [1u8, 2, 4] {
        let (max, min): (i64, i64) = match w {
            1 => (127, -128),
            2 => (32767, -32768),
            _ => (i32::MAX as i64, i32::MIN as i64),
        };
        let mut f = F::v20([1, w, w, w, w, w]);
        let vals = [-1i64, max, min, 0];
        // Texture: material texture, sphere and toon texture.
        let mut b = f.b();
        for v in vals {
            material(&mut b, "m", 0, v, v, 0, T::X(v), 0);
        }
        f.set(MATERIALS, 4, &b);
        // Bone: parents.
        let mut b = f.b();
        for v in vals {
            plain_bone(&mut b, "b", [0.0, 1.0, 0.0], v);
        }
        f.set(BONES, 4, &b);
        // Material (material morph) and morph (group morph).
        let mut b = f.b();
        b.text("mat").text("").u8(0).u8(8).i32(4);
        for v in vals {
            b.mi(v).u8(0).f32s(&[0.0; 28]);
        }
        b.text("grp").text("").u8(0).u8(0).i32(4);
        for v in vals {
            b.moi(v).f32(0.5);
        }
        f.set(MORPHS, 2, &b);
        // Rigid body: joints.
        let mut b = f.b();
        joint(&mut b, 0, -1, max);
        joint(&mut b, 0, min, 0);
        f.set(JOINTS, 2, &b);
        let p = f.read();
        let expect: Vec<i32> = vals.iter().map(|v| *v as i32).collect();
        let tex: Vec<i32> = p.materials.iter().map(|m| m.texture.raw()).collect();
        let sph: Vec<i32> = p.materials.iter().map(|m| m.sphere_texture.raw()).collect();
        let toon: Vec<i32> = p
            .materials
            .iter()
            .map(|m| match m.toon {
                Toon::Texture(t) => t.raw(),
                Toon::Shared(_) => panic!("shared"),
            })
            .collect();
        assert_eq!(tex, expect, "texture width {w}");
        assert_eq!(sph, expect);
        assert_eq!(toon, expect);
        let parents: Vec<i32> = p.bones.iter().map(|b| b.parent.raw()).collect();
        assert_eq!(parents, expect, "bone width {w}");
        assert!(p.bones[0].parent.is_none());
        assert_eq!(p.bones[0].parent.get(), None);
        assert_eq!(p.bones[1].parent.get(), Some(max as usize));
        assert_eq!(p.bones[2].parent.get(), None);
        assert!(!p.bones[2].parent.is_none(), "{min} is not -1");
        assert_eq!(p.bones[3].parent.get(), Some(0));
        match (&p.morphs[0].offsets, &p.morphs[1].offsets) {
            (MorphOffsets::Material(m), MorphOffsets::Group(g)) => {
                let mats: Vec<i32> = m.iter().map(|o| o.material.raw()).collect();
                let mors: Vec<i32> = g.iter().map(|o| o.morph.raw()).collect();
                assert_eq!(mats, expect, "material width {w}");
                assert_eq!(mors, expect, "morph width {w}");
            }
            other => panic!("{other:?}"),
        }
        let rig: Vec<i32> = p
            .joints
            .iter()
            .flat_map(|j| [j.rigid_a.raw(), j.rigid_b.raw()])
            .collect();
        assert_eq!(rig, vec![-1, max as i32, min as i32, 0], "rigid width {w}");
    }
}

#[test]
fn one_byte_bone_index_ff_is_none_and_vertex_ff_is_255() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(0).raw(&[0xff]);
    });
    f.set(VERTICES, 1, &b);
    let mut b = f.b();
    b.raw(&[0xff, 0x00, 0xfe]);
    f.set(FACES, 3, &b);
    let p = f.read();
    match p.vertices.get(0).unwrap().weight {
        Weight::Bdef1 { bone } => {
            assert_eq!(bone.raw(), -1);
            assert_eq!(bone.get(), None);
            assert_eq!(bone, BoneIndex::NONE);
        }
        ref w => panic!("{w:?}"),
    }
    assert_eq!(
        p.faces,
        vec![
            VertexIndex::from_raw(255),
            VertexIndex::from_raw(0),
            VertexIndex::from_raw(254)
        ]
    );
}

/// Each kind is read with its own width: a file whose six widths all differ.
#[test]
fn each_kind_uses_its_own_width() {
    let w = [4u8, 1, 2, 1, 2, 4];
    let mut f = F::v20(w);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(1).bi(-1).bi(5).f32(0.5);
    });
    f.set(VERTICES, 1, &b);
    let mut b = f.b();
    b.vi(70000).vi(1).vi(2);
    f.set(FACES, 3, &b);
    let mut b = f.b();
    material(&mut b, "m", 0, 100, -1, 0, T::X(7), 3);
    f.set(MATERIALS, 1, &b);
    let mut b = f.b();
    plain_bone(&mut b, "b", [0.0, 1.0, 0.0], 100);
    f.set(BONES, 1, &b);
    let mut b = f.b();
    b.text("g").text("").u8(0).u8(0).i32(1).moi(30000).f32(1.0);
    b.text("m")
        .text("")
        .u8(0)
        .u8(8)
        .i32(1)
        .mi(-2)
        .u8(1)
        .f32s(&[1.0; 28]);
    f.set(MORPHS, 2, &b);
    let mut b = f.b();
    display_frame(&mut b, "f", "", 0, &[(0, 3), (1, -300)]);
    f.set(FRAMES, 1, &b);
    let mut b = f.b();
    rigid(&mut b, 9, 0, 0);
    f.set(RIGIDS, 1, &b);
    let mut b = f.b();
    joint(&mut b, 0, 100_000, -1);
    f.set(JOINTS, 1, &b);
    let p = f.read();
    assert_eq!(
        p.vertices.get(0).unwrap().weight,
        Weight::Bdef2 {
            bones: [BoneIndex::NONE, BoneIndex::from_raw(5)],
            weight: 0.5
        }
    );
    assert_eq!(
        p.faces,
        vec![
            VertexIndex::from_raw(70000),
            VertexIndex::from_raw(1),
            VertexIndex::from_raw(2)
        ]
    );
    assert_eq!(p.materials[0].texture.raw(), 100);
    assert_eq!(
        p.materials[0].toon,
        Toon::Texture(TextureIndex::from_raw(7))
    );
    assert_eq!(p.bones[0].parent.raw(), 100);
    match &p.morphs[0].offsets {
        MorphOffsets::Group(g) => assert_eq!(g[0].morph.raw(), 30000),
        o => panic!("{o:?}"),
    }
    match &p.morphs[1].offsets {
        MorphOffsets::Material(m) => {
            assert_eq!(m[0].material.raw(), -2);
            assert_eq!(m[0].operation, 1);
        }
        o => panic!("{o:?}"),
    }
    assert_eq!(
        p.display_frames[0].elements,
        vec![
            FrameElement::Bone(BoneIndex::from_raw(3)),
            FrameElement::Morph(MorphIndex::from_raw(-300))
        ]
    );
    assert_eq!(p.rigid_bodies[0].bone.raw(), 9);
    assert_eq!(p.joints[0].rigid_a.raw(), 100_000);
    assert!(p.joints[0].rigid_b.is_none());
}

// ---------------------------------------------------------------------------------------
// Text.
// ---------------------------------------------------------------------------------------

#[test]
fn utf16_text_with_surrogate_pair() {
    let mut f = F::new(2.0, 0, 0, [1; 6]);
    let mut b = f.b();
    b.text("a\u{1F600}").text("モデル").text("").text("x");
    // "a" + U+1F600 is 1 + 2 UTF-16 units = 6 bytes.
    assert_eq!(&b.buf[..4], &6i32.to_le_bytes());
    assert_eq!(&b.buf[4..10], &[0x61, 0x00, 0x3d, 0xd8, 0x00, 0xde]);
    f.info = b.buf;
    let p = f.read();
    assert_eq!(p.model.name.to_str().as_deref(), Some("a\u{1F600}"));
    assert_eq!(p.model.name.as_bytes().len(), 6);
    assert_eq!(p.model.name.encoding(), TextEncoding::Utf16Le);
    assert_eq!(p.model.name_en.to_str().as_deref(), Some("モデル"));
    assert!(p.model.comment.is_empty());
}

#[test]
fn utf8_text_with_surrogate_pair() {
    let mut f = F::new(2.0, 1, 0, [1; 6]);
    let mut b = f.b();
    b.text("a\u{1F600}").text("モデル").text("").text("");
    assert_eq!(&b.buf[..4], &5i32.to_le_bytes());
    assert_eq!(&b.buf[4..9], &[0x61, 0xf0, 0x9f, 0x98, 0x80]);
    f.info = b.buf;
    let p = f.read();
    assert_eq!(p.model.name.to_str().as_deref(), Some("a\u{1F600}"));
    assert_eq!(p.model.name.encoding(), TextEncoding::Utf8);
    assert_eq!(p.model.name_en.as_bytes().len(), 9);
}

/// Builds a file in encoding `enc` whose four model-info texts are `raws`, and checks each
/// is kept raw: it does not decode and its bytes are as written. Returns the model.
#[track_caller]
fn info_kept_raw(enc: u8, raws: [&[u8]; 4]) -> Pmx {
    let mut f = F::new(2.0, enc, 0, [1; 6]);
    f.set_info(|b| {
        for r in raws {
            b.raw_text(r);
        }
    });
    let p = f.read();
    for (t, r) in [
        &p.model.name,
        &p.model.name_en,
        &p.model.comment,
        &p.model.comment_en,
    ]
    .into_iter()
    .zip(raws)
    {
        assert_eq!(t.to_str(), None, "{r:02x?}");
        assert_eq!(t.as_bytes(), r);
    }
    p
}

#[test]
fn undecodable_utf16_kept_raw() {
    let raws: [&[u8]; 4] = [
        &[0x00, 0xd8],                         // lone high surrogate
        &[0x00, 0xdc, 0x41, 0x00],             // lone low surrogate
        &[0x41, 0x00, 0x42],                   // odd byte length
        &[0x3d, 0xd8, 0x00, 0xde, 0x3d, 0xd8], // a pair, then a lone high surrogate
    ];
    let p = info_kept_raw(0, raws);
    for t in [&p.model.name, &p.model.name_en, &p.model.comment_en] {
        assert!(t.to_string_lossy().contains('\u{FFFD}'), "{t:?}");
    }
}

/// Library bug (text.rs, `PmxText::to_string_lossy`): an odd UTF-16 byte length leaves a
/// lone last byte, which does not decode; the lossy view should show U+FFFD for it, but it
/// pads the byte with 0x00 and shows the character U+0042 ("AB" for 41 00 42).
#[test]
fn utf16_odd_byte_length_lossy_view_shows_replacement() {
    let t = PmxText::from_raw(vec![0x41, 0x00, 0x42], TextEncoding::Utf16Le);
    assert_eq!(t.to_str(), None);
    assert_eq!(t.to_string_lossy(), "A\u{FFFD}");
}

#[test]
fn undecodable_utf8_kept_raw() {
    let raws: [&[u8]; 4] = [&[0x80], &[0xe3, 0x81], &[0xc0, 0x80], &[b'o', b'k', 0xff]];
    info_kept_raw(1, raws);
}

#[test]
fn negative_text_length_is_an_error() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.i32(-1);
    f.info = b.buf;
    let e = f.read_err();
    assert_eq!(e.offset(), 17);
    assert_eq!(e.path_string(), "model.name", "{e}");
    assert_eq!(err_kind_name(&e), "Invalid");
}

#[test]
fn text_length_beyond_the_end_is_truncated() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.text("").i32(i32::MAX);
    f.info = b.buf;
    let e = f.read_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "model.name_en", "{e}");
    assert_eq!(e.offset(), 17 + 4 + 4);
}

// ---------------------------------------------------------------------------------------
// Vertices and weights.
// ---------------------------------------------------------------------------------------

#[test]
fn additional_uv_counts_0_and_4() {
    for uv in [0u8, 1, 4] {
        let mut f = F::new(2.0, 0, uv, [1; 6]);
        let mut b = f.b();
        vertex(&mut b, uv, 1.0, |b| {
            b.u8(0).bi(0);
        });
        vertex(&mut b, uv, 2.0, |b| {
            b.u8(0).bi(1);
        });
        assert_eq!(b.len(), 2 * (32 + 16 * uv as usize + 2 + 4));
        f.set(VERTICES, 2, &b);
        let p = f.read();
        assert_eq!(p.vertices.len(), 2);
        for (i, v) in p.vertices.iter().enumerate() {
            let n = (i + 1) as f32;
            assert_eq!(v.position, [n, n + 0.5, n + 0.25]);
            assert_eq!(v.uv, [0.125, 0.875]);
            assert_eq!(v.additional_uv.len(), uv as usize);
            for (k, a) in v.additional_uv.iter().enumerate() {
                assert_eq!(*a, [n, k as f32, 0.5, 0.25]);
            }
            assert_eq!(
                v.weight,
                Weight::Bdef1 {
                    bone: BoneIndex::from_raw(i as i32)
                }
            );
            assert_eq!(v.edge_scale, 1.0);
        }
    }
}

#[test]
fn every_weight_type_reads_its_layout() {
    let mut f = F::v20([1, 1, 1, 2, 1, 1]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(0).bi(7);
    });
    vertex(&mut b, 0, 1.0, |b| {
        b.u8(1).bi(1).bi(-1).f32(0.25);
    });
    vertex(&mut b, 0, 2.0, |b| {
        b.u8(2)
            .bi(0)
            .bi(1)
            .bi(2)
            .bi(32767)
            .f32s(&[0.5, 0.25, 0.125, 0.0]);
    });
    vertex(&mut b, 0, 3.0, |b| {
        b.u8(3)
            .bi(3)
            .bi(4)
            .f32(0.75)
            .f32s(&[1.0, 2.0, 3.0])
            .f32s(&[4.0, 5.0, 6.0])
            .f32s(&[7.0, 8.0, 9.0]);
    });
    vertex(&mut b, 0, 4.0, |b| {
        b.u8(4).bi(-1).bi(5).bi(6).bi(7).f32s(&[0.1, 0.2, 0.3, 0.4]);
    });
    f.set(VERTICES, 5, &b);
    let p = f.read();
    let bi = BoneIndex::from_raw;
    assert_eq!(
        p.vertices.get(0).unwrap().weight,
        Weight::Bdef1 { bone: bi(7) }
    );
    assert_eq!(
        p.vertices.get(1).unwrap().weight,
        Weight::Bdef2 {
            bones: [bi(1), bi(-1)],
            weight: 0.25
        }
    );
    assert_eq!(
        p.vertices.get(2).unwrap().weight,
        Weight::Bdef4 {
            bones: [bi(0), bi(1), bi(2), bi(32767)],
            weights: [0.5, 0.25, 0.125, 0.0]
        }
    );
    assert_eq!(
        p.vertices.get(3).unwrap().weight,
        Weight::Sdef {
            bones: [bi(3), bi(4)],
            weight: 0.75,
            c: [1.0, 2.0, 3.0],
            r0: [4.0, 5.0, 6.0],
            r1: [7.0, 8.0, 9.0]
        }
    );
    assert_eq!(
        p.vertices.get(4).unwrap().weight,
        Weight::Qdef {
            bones: [bi(-1), bi(5), bi(6), bi(7)],
            weights: [0.1, 0.2, 0.3, 0.4]
        }
    );
    for (i, v) in p.vertices.iter().enumerate() {
        assert_eq!(v.position[0], i as f32, "vertex {i} misplaced");
        assert_eq!(v.edge_scale, 1.0);
    }
}

#[test]
fn unknown_weight_type_is_an_error_at_its_byte() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(0).bi(0);
    });
    let at = b.len() + 32;
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(5).bi(0);
    });
    f.set(VERTICES, 2, &b);
    let e = f.read_err();
    assert_eq!(e.offset() as usize, f.offset_of(VERTICES) + 4 + at, "{e}");
    assert_eq!(e.path_string(), "vertices[1].weight", "{e}");
    assert_eq!(err_kind_name(&e), "Invalid");
    assert!(e.to_string().contains("weight type 5"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Faces, textures, materials.
// ---------------------------------------------------------------------------------------

#[test]
fn faces_and_textures() {
    let mut f = F::v20([2, 1, 1, 1, 1, 1]);
    let mut b = f.b();
    for v in [0, 1, 2, 2, 1, 3] {
        b.vi(v);
    }
    f.set(FACES, 6, &b);
    let mut b = f.b();
    b.text("tex\\a.png").text("toon01.bmp");
    f.set(TEXTURES, 2, &b);
    let p = f.read();
    assert_eq!(p.faces.len(), 6);
    let tris: Vec<[u32; 3]> = p
        .triangles()
        .map(|t| [t[0].raw(), t[1].raw(), t[2].raw()])
        .collect();
    assert_eq!(tris, vec![[0, 1, 2], [2, 1, 3]]);
    assert_eq!(p.textures[0].to_str().as_deref(), Some("tex\\a.png"));
    assert_eq!(p.textures[1].to_str().as_deref(), Some("toon01.bmp"));
}

#[test]
fn material_fields_in_order() {
    let mut f = F::v20([1, 2, 1, 1, 1, 1]);
    let mut b = f.b();
    b.text("肌")
        .text("skin")
        .f32s(&[0.1, 0.2, 0.3, 0.4])
        .f32s(&[0.5, 0.6, 0.7])
        .f32(8.0)
        .f32s(&[0.9, 1.0, 1.1])
        .u8(0x13)
        .f32s(&[1.2, 1.3, 1.4, 1.5])
        .f32(1.6)
        .ti(300)
        .ti(-1)
        .u8(2)
        .u8(0)
        .ti(301)
        .text("メモ")
        .i32(6);
    f.set(MATERIALS, 1, &b);
    let p = f.read();
    let m = &p.materials[0];
    assert_eq!(m.name.to_str().as_deref(), Some("肌"));
    assert_eq!(m.name_en.to_str().as_deref(), Some("skin"));
    assert_eq!(m.diffuse, [0.1, 0.2, 0.3, 0.4]);
    assert_eq!(m.specular, [0.5, 0.6, 0.7]);
    assert_eq!(m.specular_strength, 8.0);
    assert_eq!(m.ambient, [0.9, 1.0, 1.1]);
    assert_eq!(m.flags.bits(), 0x13);
    assert!(m
        .flags
        .contains(MaterialFlags::DOUBLE_SIDED | MaterialFlags::GROUND_SHADOW));
    assert!(m.flags.contains(MaterialFlags::EDGE));
    assert_eq!(m.edge_color, [1.2, 1.3, 1.4, 1.5]);
    assert_eq!(m.edge_size, 1.6);
    assert_eq!(m.texture.raw(), 300);
    assert!(m.sphere_texture.is_none());
    assert_eq!(m.sphere_mode, 2);
    assert_eq!(m.toon, Toon::Texture(TextureIndex::from_raw(301)));
    assert_eq!(m.memo.to_str().as_deref(), Some("メモ"));
    assert_eq!(m.face_count, 6);
}

#[test]
fn material_flag_bits_each_kept() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    let mut b = f.b();
    for bit in 0..8 {
        material(&mut b, "m", 1 << bit, -1, -1, 0, T::S(0), 0);
    }
    material(&mut b, "all", 0xff, -1, -1, 0, T::S(0), 0);
    f.set(MATERIALS, 9, &b);
    let p = f.read();
    let named = [
        MaterialFlags::DOUBLE_SIDED,
        MaterialFlags::GROUND_SHADOW,
        MaterialFlags::SELF_SHADOW_MAP,
        MaterialFlags::SELF_SHADOW,
        MaterialFlags::EDGE,
        MaterialFlags::VERTEX_COLOR,
        MaterialFlags::POINT_DRAW,
        MaterialFlags::LINE_DRAW,
    ];
    for (bit, flag) in named.iter().enumerate() {
        assert_eq!(p.materials[bit].flags, *flag, "bit {bit}");
        assert_eq!(p.materials[bit].flags.bits(), 1 << bit);
    }
    assert_eq!(p.materials[8].flags.bits(), 0xff);
    assert_eq!(p.materials[8].flags.unknown_bits(), 0);
}

#[test]
fn sphere_modes_0_to_3_and_255() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    let modes = [0u8, 1, 2, 3, 255, 4];
    for m in modes {
        material(&mut b, "m", 0, 0, 1, m, T::S(3), 0);
    }
    f.set(MATERIALS, modes.len() as i32, &b);
    let p = f.read();
    let got: Vec<u8> = p.materials.iter().map(|m| m.sphere_mode).collect();
    assert_eq!(got, modes);
    assert!(p.materials.iter().all(|m| m.toon == Toon::Shared(3)));
}

#[test]
fn toon_shared_and_texture_branches() {
    for w in [1u8, 2, 4] {
        let mut f = F::v20([1, w, 1, 1, 1, 1]);
        let mut b = f.b();
        material(&mut b, "a", 0, 0, -1, 0, T::S(9), 0);
        let one = b.len();
        material(&mut b, "b", 0, 0, -1, 0, T::X(-1), 0);
        material(&mut b, "c", 0, 0, -1, 0, T::X(2), 0);
        material(&mut b, "d", 0, 0, -1, 0, T::S(0xff), 0);
        // The shared branch is one byte, the texture branch `w` bytes.
        assert_eq!(b.len() - one, 3 * one + 2 * (w as usize - 1));
        f.set(MATERIALS, 4, &b);
        let mut bb = f.b();
        plain_bone(&mut bb, "after", [0.0, 1.0, 0.0], -1);
        f.set(BONES, 1, &bb);
        let p = f.read();
        assert_eq!(p.materials[0].toon, Toon::Shared(9));
        assert_eq!(p.materials[1].toon, Toon::Texture(TextureIndex::NONE));
        assert_eq!(
            p.materials[2].toon,
            Toon::Texture(TextureIndex::from_raw(2))
        );
        assert_eq!(p.materials[3].toon, Toon::Shared(255));
        assert_eq!(p.bones[0].name.to_str().as_deref(), Some("after"));
    }
}

#[test]
fn unknown_toon_flag_is_an_error() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    material(&mut b, "m", 0, 0, 0, 0, T::Raw(2, 0), 0);
    f.set(MATERIALS, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "materials[0].toon", "{e}");
    assert_eq!(err_kind_name(&e), "Invalid");
    // The flag byte: after the names ("m" and "en" in UTF-16: 4 + 2 and 4 + 4 bytes),
    // 44 bytes of colours, the flags, 20 bytes of edge, two 1-byte texture indices and
    // the sphere mode.
    let at = f.offset_of(MATERIALS) + 4 + 14 + 44 + 1 + 20 + 2 + 1;
    assert_eq!(e.offset() as usize, at, "{e}");
}

// ---------------------------------------------------------------------------------------
// Bones.
// ---------------------------------------------------------------------------------------

#[test]
fn bone_tail_is_an_index_or_an_offset() {
    let mut f = F::v20([1, 1, 1, 2, 1, 1]);
    let mut b = f.b();
    bone_head(&mut b, "a", [1.0, 2.0, 3.0], -1, 0x0001);
    b.bi(1);
    bone_head(&mut b, "b", [4.0, 5.0, 6.0], 0, 0x0000);
    b.f32s(&[0.0, 0.5, -0.5]);
    bone_head(&mut b, "c", [0.0; 3], 1, 0x0001);
    b.bi(-1);
    f.set(BONES, 3, &b);
    let p = f.read();
    assert_eq!(p.bones[0].tail, BoneTail::Bone(BoneIndex::from_raw(1)));
    assert_eq!(p.bones[0].position, [1.0, 2.0, 3.0]);
    assert!(p.bones[0].parent.is_none());
    assert_eq!(p.bones[1].tail, BoneTail::Offset([0.0, 0.5, -0.5]));
    assert_eq!(p.bones[1].parent.get(), Some(0));
    assert_eq!(p.bones[2].tail, BoneTail::Bone(BoneIndex::NONE));
}

#[test]
fn bone_blocks_each_alone() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    // Inherit rotation.
    bone_head(&mut b, "rot", [0.0; 3], -1, 0x0100);
    b.f32s(&[0.0; 3]).bi(4).f32(0.5);
    // Inherit translation.
    bone_head(&mut b, "mov", [0.0; 3], -1, 0x0200);
    b.f32s(&[0.0; 3]).bi(-1).f32(-1.0);
    // Fixed axis.
    bone_head(&mut b, "axis", [0.0; 3], -1, 0x0400);
    b.f32s(&[0.0; 3]).f32s(&[0.6, 0.8, 0.0]);
    // Local axes.
    bone_head(&mut b, "local", [0.0; 3], -1, 0x0800);
    b.f32s(&[0.0; 3])
        .f32s(&[1.0, 0.0, 0.0])
        .f32s(&[0.0, 0.0, 1.0]);
    // External parent.
    bone_head(&mut b, "ext", [0.0; 3], -1, 0x2000);
    b.f32s(&[0.0; 3]).i32(12345);
    // Flags with no block: 0x0002, 0x0004, 0x0008, 0x0010, 0x0080, 0x1000.
    bone_head(&mut b, "none", [0.0; 3], -1, 0x109e);
    b.f32s(&[0.0; 3]);
    f.set(BONES, 6, &b);
    let p = f.read();
    let bs = &p.bones;
    assert_eq!(
        bs[0].inherit,
        Some(Inherit {
            parent: BoneIndex::from_raw(4),
            weight: 0.5
        })
    );
    assert_eq!(
        bs[1].inherit,
        Some(Inherit {
            parent: BoneIndex::NONE,
            weight: -1.0
        })
    );
    assert_eq!(bs[2].fixed_axis, Some([0.6, 0.8, 0.0]));
    assert_eq!(
        bs[3].local_axes,
        Some(LocalAxes {
            x: [1.0, 0.0, 0.0],
            z: [0.0, 0.0, 1.0]
        })
    );
    assert_eq!(bs[4].external_parent, Some(12345));
    let none = &bs[5];
    assert_eq!(none.flags.bits(), 0x109e);
    assert!(none.inherit.is_none() && none.fixed_axis.is_none() && none.local_axes.is_none());
    assert!(none.external_parent.is_none() && none.ik.is_none());
    for (i, b) in bs.iter().enumerate().take(5) {
        let others = [
            b.inherit.is_some(),
            b.fixed_axis.is_some(),
            b.local_axes.is_some(),
            b.external_parent.is_some(),
            b.ik.is_some(),
        ];
        assert_eq!(others.iter().filter(|x| **x).count(), 1, "bone {i}");
    }
}

#[test]
fn bone_ik_links_with_and_without_limits() {
    let mut f = F::v20([1, 1, 1, 2, 1, 1]);
    let mut b = f.b();
    let links: [Link; 3] = [
        (2, 1, Some([-3.1, 0.0, 0.0, -0.01, 0.0, 0.0])),
        (1, 0, None),
        (-1, 1, Some([-1.0, -2.0, -3.0, 1.0, 2.0, 3.0])),
    ];
    ik_bone(&mut b, "ik", 3, 40, 2.0, &links);
    ik_bone(&mut b, "ik0", 0, 1, 0.5, &[]);
    plain_bone(&mut b, "after", [0.0, 1.0, 0.0], 0);
    f.set(BONES, 3, &b);
    let p = f.read();
    let ik = p.bones[0].ik.as_ref().unwrap();
    assert_eq!(ik.target.raw(), 3);
    assert_eq!(ik.loop_count, 40);
    assert_eq!(ik.limit_angle, 2.0);
    assert_eq!(ik.links.len(), 3);
    assert_eq!(
        ik.links[0],
        IkLink {
            bone: BoneIndex::from_raw(2),
            has_limit: 1,
            limit_min: Some([-3.1, 0.0, 0.0]),
            limit_max: Some([-0.01, 0.0, 0.0])
        }
    );
    assert_eq!(
        ik.links[1],
        IkLink {
            bone: BoneIndex::from_raw(1),
            has_limit: 0,
            limit_min: None,
            limit_max: None
        }
    );
    assert_eq!(ik.links[2].limit_max, Some([1.0, 2.0, 3.0]));
    let ik0 = p.bones[1].ik.as_ref().unwrap();
    assert!(ik0.links.is_empty());
    assert_eq!(ik0.loop_count, 1);
    assert_eq!(p.bones[2].name.to_str().as_deref(), Some("after"));
}

#[test]
fn bone_unknown_flag_bits_kept() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "u", [0.0; 3], -1, 0x4040 | 0x8000 | 0x001e);
    b.f32s(&[0.0, 1.0, 0.0]);
    plain_bone(&mut b, "next", [0.0, 1.0, 0.0], 0);
    f.set(BONES, 2, &b);
    let p = f.read();
    assert_eq!(p.bones[0].flags.bits(), 0xc05e);
    assert_eq!(p.bones[0].flags.unknown_bits(), 0xc040);
    assert_eq!(p.bones[1].name.to_str().as_deref(), Some("next"));
}

/// All flag blocks at once, in the file order the seeds give: tail, inherit, fixed axis,
/// local axes, external parent, IK.
#[test]
fn bone_all_blocks_in_file_order() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "all", [0.0; 3], -1, 0x2f21 | 0x0300);
    b.bi(1) // tail
        .bi(2)
        .f32(0.25) // inherit
        .f32s(&[1.0, 2.0, 3.0]) // fixed axis
        .f32s(&[4.0, 5.0, 6.0])
        .f32s(&[7.0, 8.0, 9.0]) // local axes
        .i32(-7) // external parent
        .bi(3)
        .i32(10)
        .f32(0.125)
        .i32(1)
        .bi(4)
        .u8(0); // IK
    plain_bone(&mut b, "next", [0.0, 1.0, 0.0], 0);
    f.set(BONES, 2, &b);
    let p = f.read();
    let a = &p.bones[0];
    assert_eq!(a.tail, BoneTail::Bone(BoneIndex::from_raw(1)));
    assert_eq!(
        a.inherit,
        Some(Inherit {
            parent: BoneIndex::from_raw(2),
            weight: 0.25
        })
    );
    assert_eq!(a.fixed_axis, Some([1.0, 2.0, 3.0]));
    assert_eq!(
        a.local_axes,
        Some(LocalAxes {
            x: [4.0, 5.0, 6.0],
            z: [7.0, 8.0, 9.0]
        })
    );
    assert_eq!(a.external_parent, Some(-7));
    let ik = a.ik.as_ref().unwrap();
    assert_eq!(
        (ik.target.raw(), ik.loop_count, ik.limit_angle),
        (3, 10, 0.125)
    );
    assert_eq!(ik.links[0].bone.raw(), 4);
    assert_eq!(p.bones[1].name.to_str().as_deref(), Some("next"));
}

// ---------------------------------------------------------------------------------------
// Morphs, display frames, rigid bodies, joints, soft bodies.
// ---------------------------------------------------------------------------------------

#[test]
fn every_morph_type_reads_its_layout() {
    let mut f = F::new(2.1, 0, 0, [2, 1, 1, 1, 1, 1]);
    let mut b = f.b();
    let head = |b: &mut B, ty: u8, n: i32| {
        b.text("m").text("").u8(ty % 5).u8(ty).i32(n);
    };
    head(&mut b, 0, 2);
    b.moi(1).f32(0.5).moi(-1).f32(1.0);
    head(&mut b, 1, 1);
    b.vi(65535).f32s(&[1.0, 2.0, 3.0]);
    head(&mut b, 2, 1);
    b.bi(3).f32s(&[1.0, 2.0, 3.0]).f32s(&[0.0, 0.0, 0.0, 1.0]);
    for ty in 3..=7u8 {
        head(&mut b, ty, 1);
        b.vi(ty as i64).f32s(&[ty as f32, 0.5, 0.25, 0.125]);
    }
    head(&mut b, 8, 1);
    b.mi(-1).u8(1);
    for k in 0..28 {
        b.f32(k as f32);
    }
    head(&mut b, 9, 1);
    b.moi(2).f32(0.75);
    head(&mut b, 10, 1);
    b.ri(5).u8(1).f32s(&[1.0, 2.0, 3.0]).f32s(&[4.0, 5.0, 6.0]);
    f.set(MORPHS, 11, &b);
    let p = f.read();
    assert_eq!(p.morphs.len(), 11);
    for (i, m) in p.morphs.iter().enumerate() {
        assert_eq!(morph_tag(&m.offsets) as usize, i);
        assert_eq!(m.panel as usize, i % 5);
    }
    match &p.morphs[0].offsets {
        MorphOffsets::Group(g) => {
            assert_eq!(g[0].morph.raw(), 1);
            assert_eq!(g[0].weight, 0.5);
            assert!(g[1].morph.is_none());
        }
        o => panic!("{o:?}"),
    }
    match &p.morphs[1].offsets {
        MorphOffsets::Vertex(v) => {
            assert_eq!(v[0].vertex, VertexIndex::from_raw(65535));
            assert_eq!(v[0].offset, [1.0, 2.0, 3.0]);
        }
        o => panic!("{o:?}"),
    }
    match &p.morphs[2].offsets {
        MorphOffsets::Bone(v) => {
            assert_eq!(v[0].bone.raw(), 3);
            assert_eq!(v[0].translation, [1.0, 2.0, 3.0]);
            assert_eq!(v[0].rotation, [0.0, 0.0, 0.0, 1.0]);
        }
        o => panic!("{o:?}"),
    }
    for ty in 3..=7usize {
        let o = uv_offsets(&p.morphs[ty].offsets);
        assert_eq!(o[0].vertex, VertexIndex::from_raw(ty as u32));
        assert_eq!(o[0].offset, [ty as f32, 0.5, 0.25, 0.125]);
    }
    match &p.morphs[8].offsets {
        MorphOffsets::Material(m) => {
            let m = &m[0];
            assert!(m.material.is_none());
            assert_eq!(m.operation, 1);
            assert_eq!(m.diffuse, [0.0, 1.0, 2.0, 3.0]);
            assert_eq!(m.specular, [4.0, 5.0, 6.0]);
            assert_eq!(m.specular_strength, 7.0);
            assert_eq!(m.ambient, [8.0, 9.0, 10.0]);
            assert_eq!(m.edge_color, [11.0, 12.0, 13.0, 14.0]);
            assert_eq!(m.edge_size, 15.0);
            assert_eq!(m.texture_tint, [16.0, 17.0, 18.0, 19.0]);
            assert_eq!(m.sphere_tint, [20.0, 21.0, 22.0, 23.0]);
            assert_eq!(m.toon_tint, [24.0, 25.0, 26.0, 27.0]);
        }
        o => panic!("{o:?}"),
    }
    match &p.morphs[9].offsets {
        MorphOffsets::Flip(g) => assert_eq!((g[0].morph.raw(), g[0].weight), (2, 0.75)),
        o => panic!("{o:?}"),
    }
    match &p.morphs[10].offsets {
        MorphOffsets::Impulse(g) => {
            assert_eq!(g[0].rigid_body.raw(), 5);
            assert_eq!(g[0].local, 1);
            assert_eq!(g[0].velocity, [1.0, 2.0, 3.0]);
            assert_eq!(g[0].torque, [4.0, 5.0, 6.0]);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn unknown_morph_type_is_an_error() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    let mut b = f.b();
    b.text("m").text("").u8(0).u8(11).i32(0);
    f.set(MORPHS, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "morphs[0].offsets", "{e}");
    assert_eq!(
        e.offset() as usize,
        f.offset_of(MORPHS) + 4 + 4 + 2 + 4 + 1,
        "{e}"
    );
    assert_eq!(err_kind_name(&e), "Invalid");
}

#[test]
fn display_frame_elements_bone_and_morph() {
    let mut f = F::v20([1, 1, 1, 2, 4, 1]);
    let mut b = f.b();
    display_frame(&mut b, "Root", "Root", 1, &[(0, 0)]);
    display_frame(&mut b, "表情", "Exp", 1, &[(1, 0), (1, -1)]);
    display_frame(&mut b, "他", "", 0, &[(0, 32767), (1, 70000), (0, -1)]);
    display_frame(&mut b, "空", "", 0, &[]);
    f.set(FRAMES, 4, &b);
    let p = f.read();
    let fr = &p.display_frames;
    assert_eq!(fr[0].special, 1);
    assert_eq!(
        fr[0].elements,
        vec![FrameElement::Bone(BoneIndex::from_raw(0))]
    );
    assert_eq!(
        fr[1].elements,
        vec![
            FrameElement::Morph(MorphIndex::from_raw(0)),
            FrameElement::Morph(MorphIndex::NONE)
        ]
    );
    assert_eq!(fr[2].special, 0);
    assert_eq!(
        fr[2].elements,
        vec![
            FrameElement::Bone(BoneIndex::from_raw(32767)),
            FrameElement::Morph(MorphIndex::from_raw(70000)),
            FrameElement::Bone(BoneIndex::NONE)
        ]
    );
    assert!(fr[3].elements.is_empty());
    assert_eq!(fr[3].name.to_str().as_deref(), Some("空"));
}

#[test]
fn unknown_display_frame_target_is_an_error() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    display_frame(&mut b, "f", "", 0, &[(0, 0), (2, 0)]);
    f.set(FRAMES, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "display_frames[0].elements[1]", "{e}");
    assert_eq!(
        e.offset() as usize,
        f.offset_of(FRAMES) + 4 + 6 + 4 + 1 + 4 + 2,
        "{e}"
    );
}

#[test]
fn rigid_body_fields_in_order() {
    let mut f = F::v20([1, 1, 1, 2, 1, 1]);
    let mut b = f.b();
    for (shape, mode) in [(0u8, 0u8), (1, 1), (2, 2)] {
        rigid(&mut b, shape as i64 - 1, shape, mode);
    }
    f.set(RIGIDS, 3, &b);
    let p = f.read();
    for (i, r) in p.rigid_bodies.iter().enumerate() {
        assert_eq!(r.bone.raw(), i as i32 - 1);
        assert_eq!(r.group, 3);
        assert_eq!(r.collision_mask, 0xfffe);
        assert_eq!(r.shape as usize, i);
        assert_eq!(r.size, [1.0, 2.0, 3.0]);
        assert_eq!(r.position, [4.0, 5.0, 6.0]);
        assert_eq!(r.rotation, [0.1, 0.2, 0.3]);
        assert_eq!(
            [
                r.mass,
                r.linear_damping,
                r.angular_damping,
                r.restitution,
                r.friction
            ],
            [1.0, 0.5, 0.25, 0.125, 0.0625]
        );
        assert_eq!(r.mode as usize, i);
    }
}

#[test]
fn joint_types_0_to_5() {
    let mut f = F::new(2.1, 0, 0, [1, 1, 1, 1, 1, 2]);
    let mut b = f.b();
    for kind in 0..=5u8 {
        joint(&mut b, kind, kind as i64, 32767 - kind as i64);
    }
    f.set(JOINTS, 6, &b);
    let p = f.read();
    for (i, j) in p.joints.iter().enumerate() {
        assert_eq!(j.kind as usize, i);
        assert_eq!(j.rigid_a.raw(), i as i32);
        assert_eq!(j.rigid_b.raw(), 32767 - i as i32);
        assert_eq!(j.position, [0.0, 0.5, -0.0]);
        assert_eq!(j.rotation, [1.0, 1.5, -1.0]);
        assert_eq!(j.translation_min, [2.0, 2.5, -2.0]);
        assert_eq!(j.translation_max, [3.0, 3.5, -3.0]);
        assert_eq!(j.rotation_min, [4.0, 4.5, -4.0]);
        assert_eq!(j.rotation_max, [5.0, 5.5, -5.0]);
        assert_eq!(j.spring_translation, [6.0, 6.5, -6.0]);
        assert_eq!(j.spring_rotation, [7.0, 7.5, -7.0]);
    }
}

/// A soft-body record (seed 002 layout).
fn soft_body(b: &mut B, material: i64, anchors: &[(i64, i64, u8)], pins: &[i64]) {
    b.text("sb")
        .text("")
        .u8(1)
        .mi(material)
        .u8(2)
        .u16(0xff00)
        .u8(0x05)
        .i32(3)
        .i32(4)
        .f32(5.0)
        .f32(0.5)
        .i32(2);
    for k in 0..12 {
        b.f32(k as f32 / 10.0); // VCF .. AHR
    }
    for k in 0..6 {
        b.f32(k as f32 + 100.0); // SRHR_CL .. SS_SPLT_CL
    }
    b.i32(11).i32(12).i32(13).i32(14); // V_IT P_IT D_IT C_IT
    b.i32(1).f32(0.5).raw(&[1, 2, 3, 4]); // LST (int) AST (float) VST (bytes)
    b.i32(anchors.len() as i32);
    for (r, v, near) in anchors {
        b.ri(*r).vi(*v).u8(*near);
    }
    b.i32(pins.len() as i32);
    for p in pins {
        b.vi(*p);
    }
}

#[test]
fn soft_body_fields_anchors_and_pins() {
    let mut f = F::new(2.1, 0, 0, [2, 1, 4, 1, 1, 1]);
    let mut b = f.b();
    soft_body(&mut b, 70000, &[(0, 65535, 1), (-1, 3, 0)], &[1, 65535]);
    soft_body(&mut b, -1, &[], &[]);
    f.soft = Some((2, b.buf.clone()));
    let p = f.read();
    let s = p.soft_bodies.as_ref().unwrap();
    assert_eq!(s.len(), 2);
    let a = &s[0];
    assert_eq!(a.shape, 1);
    assert_eq!(a.material.raw(), 70000);
    assert_eq!(
        (a.group, a.collision_mask, a.flags.bits()),
        (2, 0xff00, 0x05)
    );
    assert_eq!((a.b_link_distance, a.cluster_count), (3, 4));
    assert_eq!(
        (a.total_mass, a.collision_margin, a.aero_model),
        (5.0, 0.5, 2)
    );
    assert_eq!(a.vcf, 0.0);
    assert_eq!(a.dp, 0.1);
    assert_eq!(a.ahr, 1.1);
    assert_eq!(a.srhr_cl, 100.0);
    assert_eq!(a.ss_splt_cl, 105.0);
    assert_eq!((a.v_it, a.p_it, a.d_it, a.c_it), (11, 12, 13, 14));
    assert_eq!(i32::from_le_bytes(a.lst), 1);
    assert_eq!(f32::from_le_bytes(a.ast), 0.5);
    assert_eq!(a.vst, [1, 2, 3, 4]);
    assert_eq!(
        a.anchors,
        vec![
            SoftBodyAnchor {
                rigid_body: RigidBodyIndex::from_raw(0),
                vertex: VertexIndex::from_raw(65535),
                near_mode: 1
            },
            SoftBodyAnchor {
                rigid_body: RigidBodyIndex::NONE,
                vertex: VertexIndex::from_raw(3),
                near_mode: 0
            }
        ]
    );
    assert_eq!(
        a.pins,
        vec![VertexIndex::from_raw(1), VertexIndex::from_raw(65535)]
    );
    assert!(s[1].material.is_none());
    assert!(s[1].anchors.is_empty() && s[1].pins.is_empty());
}

// ---------------------------------------------------------------------------------------
// Section ends: 2.0, 2.1 with and without soft bodies, trailing bytes, zero counts.
// ---------------------------------------------------------------------------------------

#[test]
fn v21_without_soft_body_section_and_with_count_0_differ() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    f.soft = None;
    let absent = f.read();
    assert_eq!(absent.soft_bodies, None);
    f.soft = Some((0, vec![]));
    let zero = f.read();
    assert_eq!(zero.soft_bodies, Some(vec![]));
    assert_eq!(
        zero.to_bytes().unwrap().len(),
        absent.to_bytes().unwrap().len() + 4
    );
}

#[test]
fn v20_bytes_after_joints_are_trailing_not_soft_bodies() {
    let mut f = F::v20([1; 6]);
    f.trailing = vec![1, 0, 0, 0, 0xaa];
    let p = f.read();
    assert_eq!(p.soft_bodies, None);
    assert_eq!(p.trailing, vec![1, 0, 0, 0, 0xaa]);
}

#[test]
fn v21_trailing_bytes_after_soft_bodies_kept() {
    let mut f = F::new(2.1, 1, 0, [1; 6]);
    f.trailing = b"\xffjunk".to_vec();
    let p = f.read();
    assert_eq!(p.soft_bodies, Some(vec![]));
    assert_eq!(p.trailing, b"\xffjunk");
}

#[test]
fn zero_counts_everywhere() {
    for v in [2.0f32, 2.1] {
        let f = F::new(v, 0, 0, [1; 6]);
        let bytes = f.bytes();
        assert_eq!(bytes.len(), 17 + 16 + 9 * 4 + if v > 2.05 { 4 } else { 0 });
        let p = roundtrip(&bytes);
        assert!(p.vertices.is_empty() && p.faces.is_empty() && p.textures.is_empty());
        assert!(p.materials.is_empty() && p.bones.is_empty() && p.morphs.is_empty());
        assert!(p.display_frames.is_empty() && p.rigid_bodies.is_empty());
        assert!(p.joints.is_empty() && p.trailing.is_empty());
        assert!(p.model.name.is_empty());
    }
}

// ---------------------------------------------------------------------------------------
// Errors on read: negative and oversized counts.
// ---------------------------------------------------------------------------------------

#[test]
fn negative_section_count_is_an_error() {
    for (s, section) in SECTION_NAMES.iter().enumerate() {
        let mut f = F::v20([1; 6]);
        f.sec[s].0 = -1;
        let e = f.read_err();
        assert_eq!(e.path_string(), *section, "{e}");
        assert_eq!(e.offset() as usize, f.offset_of(s), "{e}");
        assert_eq!(err_kind_name(&e), "Invalid", "{e}");
    }
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    f.soft = Some((i32::MIN, vec![]));
    let e = f.read_err();
    assert_eq!(e.path_string(), "soft_bodies", "{e}");
    assert_eq!(e.offset() as usize, f.soft_offset(), "{e}");
}

#[test]
fn count_far_beyond_the_bytes_left_fails_at_once() {
    for (s, section) in SECTION_NAMES.iter().enumerate() {
        let mut f = F::v20([1; 6]);
        f.sec[s].0 = i32::MAX;
        let e = f.read_err();
        assert_eq!(e.path_string(), *section, "{e}");
        assert_eq!(e.offset() as usize, f.offset_of(s), "{e}");
        match e.kind() {
            ErrorKind::CountTooLarge {
                count, remaining, ..
            } => {
                assert_eq!(*count, i32::MAX as u64);
                assert_eq!(*remaining as usize, f.bytes().len() - f.offset_of(s) - 4);
            }
            _ => panic!("{e}"),
        }
    }
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    f.soft = Some((0x4000_0000, vec![]));
    assert!(matches!(
        f.read_err().kind(),
        ErrorKind::CountTooLarge { .. }
    ));
}

#[test]
fn nested_count_far_beyond_fails_at_once() {
    // IK link count.
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "ik", [0.0; 3], -1, 0x0020);
    b.f32s(&[0.0; 3]).bi(0).i32(1).f32(1.0).i32(1_000_000);
    f.set(BONES, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "bones[0].ik.links", "{e}");
    assert!(matches!(e.kind(), ErrorKind::CountTooLarge { .. }), "{e}");
    // Morph offset count.
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.text("m").text("").u8(0).u8(1).i32(1_000_000);
    f.set(MORPHS, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "morphs[0].offsets.Vertex", "{e}");
    assert!(matches!(e.kind(), ErrorKind::CountTooLarge { .. }), "{e}");
    // Display-frame element count, negative.
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.text("f").text("").u8(0).i32(-5);
    f.set(FRAMES, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "display_frames[0].elements", "{e}");
    assert_eq!(err_kind_name(&e), "Invalid");
}

// ---------------------------------------------------------------------------------------
// Errors on write.
// ---------------------------------------------------------------------------------------

#[track_caller]
fn write_err(p: &Pmx) -> Error {
    match p.to_bytes() {
        Ok(_) => panic!("expected a write error"),
        Err(e) => e,
    }
}

#[test]
fn index_that_does_not_fit_is_a_write_error_naming_the_path() {
    // Widths 1 everywhere: 128 does not fit a signed byte, 256 not an unsigned one.
    let base = sample("pmx/full_v21_idx1_utf16_uv4.pmx").1;
    type Edit = fn(&mut Pmx);
    let cases: Vec<(&str, Edit)> = vec![
        ("vertices[0].weight.Bdef1.bone", |p| {
            p.vertices.get_mut(0).unwrap().weight = Weight::Bdef1 {
                bone: BoneIndex::from_raw(128),
            }
        }),
        ("vertices[1].weight.Bdef2.bones[1]", |p| {
            p.vertices.get_mut(1).unwrap().weight = Weight::Bdef2 {
                bones: [BoneIndex::from_raw(0), BoneIndex::from_raw(-129)],
                weight: 0.5,
            }
        }),
        ("faces[7]", |p| p.faces[7] = VertexIndex::from_raw(256)),
        ("materials[1].texture", |p| {
            p.materials[1].texture = TextureIndex::from_raw(200)
        }),
        ("materials[1].toon.Texture", |p| {
            p.materials[1].toon = Toon::Texture(TextureIndex::from_raw(128))
        }),
        ("bones[2].parent", |p| {
            p.bones[2].parent = BoneIndex::from_raw(1000)
        }),
        ("bones[0].tail.Bone", |p| {
            p.bones[0].tail = BoneTail::Bone(BoneIndex::from_raw(128))
        }),
        ("bones[7].ik.links[1].bone", |p| {
            p.bones[7].ik.as_mut().unwrap().links[1].bone = BoneIndex::from_raw(-200)
        }),
        ("morphs[0].offsets.Group[0].morph", |p| {
            if let MorphOffsets::Group(g) = &mut p.morphs[0].offsets {
                g[0].morph = MorphIndex::from_raw(300);
            }
        }),
        ("morphs[1].offsets.Vertex[0].vertex", |p| {
            if let MorphOffsets::Vertex(g) = &mut p.morphs[1].offsets {
                g[0].vertex = VertexIndex::from_raw(256);
            }
        }),
        ("morphs[8].offsets.Material[0].material", |p| {
            if let MorphOffsets::Material(g) = &mut p.morphs[8].offsets {
                g[0].material = MaterialIndex::from_raw(128);
            }
        }),
        ("display_frames[1].elements[0].Morph", |p| {
            p.display_frames[1].elements[0] = FrameElement::Morph(MorphIndex::from_raw(128))
        }),
        ("rigid_bodies[0].bone", |p| {
            p.rigid_bodies[0].bone = BoneIndex::from_raw(i32::MAX)
        }),
        ("joints[0].rigid_b", |p| {
            p.joints[0].rigid_b = RigidBodyIndex::from_raw(128)
        }),
        ("soft_bodies[0].pins[1]", |p| {
            p.soft_bodies.as_mut().unwrap()[0].pins[1] = VertexIndex::from_raw(u32::MAX)
        }),
        ("soft_bodies[0].anchors[0].rigid_body", |p| {
            p.soft_bodies.as_mut().unwrap()[0].anchors[0].rigid_body =
                RigidBodyIndex::from_raw(-129)
        }),
    ];
    let good = base.to_bytes().unwrap();
    for (path, edit) in cases {
        let mut p = base.clone();
        edit(&mut p);
        let e = write_err(&p);
        assert_eq!(e.path_string(), path, "{e}");
        assert_eq!(err_kind_name(&e), "Inconsistent", "{e}");
        // The offset is where the index would have gone: the bytes before it are the same.
        assert!((e.offset() as usize) < good.len(), "{e}");
    }
}

#[test]
fn two_byte_vertex_index_65536_does_not_fit() {
    let mut p = sample("pmx/full_v21_idx2_utf8_uv0.pmx").1;
    p.faces[7] = VertexIndex::from_raw(65535);
    assert!(p.to_bytes().is_ok());
    p.faces[7] = VertexIndex::from_raw(65536);
    let e = write_err(&p);
    assert_eq!(e.path_string(), "faces[7]", "{e}");
    let mut p = sample("pmx/full_v21_idx2_utf8_uv0.pmx").1;
    p.bones[0].parent = BoneIndex::from_raw(32768);
    assert_eq!(write_err(&p).path_string(), "bones[0].parent");
    p.bones[0].parent = BoneIndex::from_raw(-32768);
    assert!(p.to_bytes().is_ok());
}

#[test]
fn write_checks_the_model_is_consistent() {
    let base = sample("pmx/full_v21_idx2_utf8_uv0.pmx").1;
    // A flag says IK, but there is no IK block.
    let mut p = base.clone();
    p.bones[7].ik = None;
    let e = write_err(&p);
    assert_eq!(e.path_string(), "bones[7].ik", "{e}");
    // An IK block the flags do not announce.
    let mut p = base.clone();
    p.bones[7].flags.set(BoneFlags::IK, false);
    assert_eq!(write_err(&p).path_string(), "bones[7].ik");
    // The tail variant disagrees with flag 0x0001.
    let mut p = base.clone();
    p.bones[1].tail = BoneTail::Bone(BoneIndex::NONE);
    assert_eq!(write_err(&p).path_string(), "bones[1].tail");
    // An IK link limit without the limit flag.
    let mut p = base.clone();
    p.bones[7].ik.as_mut().unwrap().links[0].has_limit = 0;
    assert_eq!(
        write_err(&p).path_string(),
        "bones[7].ik.links[0].limit_min"
    );
    // Additional UVs that do not match the header count.
    let mut p = base.clone();
    p.vertices.get_mut(2).unwrap().additional_uv.push([0.0; 4]);
    assert_eq!(write_err(&p).path_string(), "vertices[2].additional_uv");
    // Text in another encoding than the header's.
    let mut p = base.clone();
    p.bones[3].name = PmxText::new("x", TextEncoding::Utf16Le);
    assert_eq!(write_err(&p).path_string(), "bones[3].name");
    // Soft bodies in a 2.0 file.
    let mut p = sample("pmx/full_v20_idx_mixed_utf16.pmx").1;
    p.soft_bodies = Some(vec![]);
    assert_eq!(write_err(&p).path_string(), "soft_bodies");
    // Trailing bytes after an absent 2.1 soft-body section would read back as soft bodies.
    let mut p = sample("pmx/v21_no_soft_body_section.pmx").1;
    p.trailing = vec![0];
    assert_eq!(write_err(&p).path_string(), "trailing");
    // A header with an index width of 3.
    let mut p = base.clone();
    p.header.globals[5] = 3;
    let e = write_err(&p);
    assert_eq!(e.path_string(), "header.globals[5]", "{e}");
    assert_eq!(e.offset(), 0x0e);
}

/// Library bug (format.rs, `field_at`): it reads the file cut at the offset and reports the
/// path of the error, but a counted section is checked against the bytes left first, so
/// the cut fails at the section's count (`CountTooLarge`, path `faces`) instead of inside
/// the record that holds the byte (`faces[1]`).
#[test]
fn field_at_names_the_field_inside_a_counted_section() {
    use mmd_formats::inspect::{field_at, Format};
    let mut f = F::v20([2, 1, 1, 1, 1, 1]);
    let mut b = f.b();
    b.vi(0).vi(1).vi(2);
    f.set(FACES, 3, &b);
    let bytes = f.bytes();
    let at = f.offset_of(FACES) + 4 + 2;
    assert_eq!(&bytes[at..at + 2], &[1, 0]);
    assert_eq!(
        field_at(Format::Pmx, &bytes, at as u64).as_deref(),
        Some("faces[1]")
    );
}
