//! PMX traps: one test per trap the seeds (`../shared/seeds/000`-`003`) and DESIGN.md name
//! for reading and writing PMX, each named after the trap, with the seed it comes from in
//! a comment above it. Bytes are built by hand from the seed layouts.
//!
//! Seed files: 000 = `000_f2e3f77f1f809299.txt` (Japanese, PMX structure from a parser
//! that walked real models), 001 = `001_abd10db080fe994d.txt` (Chinese wiki, PMX 2.0/2.1),
//! 002 = `002_033f855be74107d0.txt` (English, the PMX spec fork), 003 =
//! `003_d2f1a0b9a90d623c.txt` (Japanese, bone flags and deform layers).

use mmd_formats::pmx::*;
use mmd_formats::samples::pmx_samples;
use mmd_formats::{
    BoneIndex, Encode, ErrorKind, MaterialIndex, TextEncoding, TextureIndex, VertexIndex,
};
use mmd_tests::pmx_bytes::*;

// ---------------------------------------------------------------------------------------
// Record writers for this suite, on the shared hand byte builder (seed layouts).
// ---------------------------------------------------------------------------------------

/// A vertex record: position (n, 0, 0), normal (0, 1, 0), uv 0, `uv_n` zero vec4s, weight,
/// edge scale 1.
fn vertex(b: &mut B, uv_n: u8, n: f32, weight: impl FnOnce(&mut B)) {
    b.f32s(&[n, 0.0, 0.0])
        .f32s(&[0.0, 1.0, 0.0])
        .f32s(&[0.0, 0.0]);
    for _ in 0..uv_n {
        b.f32s(&[0.0; 4]);
    }
    weight(b);
    b.f32s(&[1.0]);
}

/// A material record named `name` with the given toon and face count, the rest as
/// [`MaterialRecord::new`] gives it.
fn material(b: &mut B, name: &str, toon: T, faces: i32) {
    MaterialRecord::new(name, toon, faces).write(b);
}

/// A material "m" with every colour and edge value 0, shared toon 0, empty memo and no
/// faces, with the given draw flags, texture indices and sphere mode.
fn zeroed_material(
    flags: u8,
    texture: i64,
    sphere: i64,
    sphere_mode: u8,
) -> MaterialRecord<'static> {
    MaterialRecord {
        colours: [0.0; 11],
        flags,
        edge: [0.0; 5],
        texture,
        sphere,
        sphere_mode,
        ..MaterialRecord::new("m", T::S(0), 0)
    }
}

/// The size in bytes of one value written with the model's context.
fn size_of<T: Encode<PmxContext>>(v: &T, ctx: &PmxContext) -> usize {
    let mut out = Vec::new();
    v.encode(&mut out, ctx).unwrap();
    out.len()
}

/// The offset of every record of the nine counted sections (vertices .. joints), found by
/// writing each record with the model's context.
fn record_starts(p: &Pmx) -> Vec<Vec<usize>> {
    let ctx = p.context().unwrap();
    let mut at = size_of(&p.header, &ctx) + size_of(&p.model, &ctx);
    let mut out = Vec::new();
    let mut section = |sizes: Vec<usize>| {
        at += 4;
        let mut starts = Vec::new();
        for s in sizes {
            starts.push(at);
            at += s;
        }
        out.push(starts);
    };
    section(p.vertices.iter().map(|v| size_of(&v, &ctx)).collect());
    section(p.faces.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.textures.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.materials.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.bones.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.morphs.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.display_frames.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.rigid_bodies.iter().map(|v| size_of(v, &ctx)).collect());
    section(p.joints.iter().map(|v| size_of(v, &ctx)).collect());
    out
}

// ---------------------------------------------------------------------------------------
// Header.
// ---------------------------------------------------------------------------------------

// Seed 000 (設定バイトの数は8とは限らない: read 8, skip count - 8) and seed 002 (globals
// count "could be variable", "for v2.1 this number can change").
#[test]
fn globals_count_may_exceed_eight() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    f.globals.extend_from_slice(&[9, 9, 9]);
    f.set_info_texts(["名", "n", "", ""]);
    let mut b = f.b();
    plain_bone(&mut b, "b", [0.0; 3], -1);
    f.set(BONES, 1, &b);
    let p = f.read();
    assert_eq!(p.header.globals.len(), 11);
    assert_eq!(&p.header.globals[8..], &[9, 9, 9]);
    assert_eq!(p.model.name.to_str().as_deref(), Some("名"));
    assert_eq!(p.bones[0].name.to_str().as_deref(), Some("b"));
    // The extra globals do not change the context.
    assert_eq!(p.context().unwrap().widths(), [1; 6]);
    let (bytes, p) = sample("pmx/globals_10.pmx");
    assert_eq!(bytes[8], 10);
    assert_eq!(&p.header.globals[8..], &[0xab, 0xcd]);
}

// Seed 002: "Version | float | 2.0, 2.1 | Compare as floating point values". 2.1 as an f32
// is 2.0999999; the bits are kept as read, and it counts as 2.1 (soft bodies follow).
#[test]
fn version_compared_as_float() {
    let f = F::new(2.1, 0, 0, [1; 6]);
    let bytes = f.bytes();
    assert_eq!(&bytes[4..8], &[0x66, 0x66, 0x06, 0x40]);
    let p = roundtrip(&bytes);
    // As a double it is not 2.1; as the float32 it is stored as, it is.
    assert_ne!(p.header.version as f64, 2.1f64);
    assert_eq!(p.header.version, 2.1f32);
    assert!(p.context().unwrap().is_v21());
    assert_eq!(p.soft_bodies, Some(vec![]));
}

// Seed 000 (インデックスの幅はモデルごとに違います...決め打ちすると、大きいモデルだけ壊れます;
// the five real models declare different widths) and 001/002 (index size from the header).
#[test]
fn index_width_comes_from_the_header_per_kind() {
    // The same model at two width sets reads to the same values.
    let build = |w: [u8; 6]| {
        let mut f = F::v20(w);
        let mut b = f.b();
        vertex(&mut b, 0, 0.0, |b| {
            b.u8(1).bi(3).bi(-1).f32s(&[0.5]);
        });
        f.set(VERTICES, 1, &b);
        let mut b = f.b();
        b.vi(0).vi(1).vi(100);
        f.set(FACES, 3, &b);
        let mut b = f.b();
        material(&mut b, "m", T::X(5), 3);
        f.set(MATERIALS, 1, &b);
        let mut b = f.b();
        display_frame(&mut b, "f", "", 0, &[(0, 100), (1, -1)]);
        f.set(FRAMES, 1, &b);
        f.read()
    };
    let a = build([1; 6]);
    let b = build([4, 2, 1, 2, 4, 1]);
    assert_eq!(a.vertices, b.vertices);
    assert_eq!(a.faces, b.faces);
    assert_eq!(a.materials, b.materials);
    assert_eq!(a.display_frames, b.display_frames);
    assert_ne!(a.to_bytes().unwrap().len(), b.to_bytes().unwrap().len());
}

// ---------------------------------------------------------------------------------------
// Indices.
// ---------------------------------------------------------------------------------------

// Seed 000 (頂点インデックスは符号なし: 1 byte uint8, 2 bytes uint16), 001 (顶点索引 — 无符号),
// 002 (Vertex: ubyte / ushort / int, limits 255 / 65535).
#[test]
fn vertex_index_unsigned_at_one_and_two_bytes() {
    for (w, raw, want) in [
        (1u8, 0xffi64, 255u32),
        (1, 0x80, 128),
        (2, 0xffff, 65535),
        (2, 0x8000, 32768),
    ] {
        let mut f = F::v20([w, 1, 1, 1, 1, 1]);
        let mut b = f.b();
        b.vi(raw).vi(0).vi(1);
        f.set(FACES, 3, &b);
        let p = f.read();
        assert_eq!(p.faces[0], VertexIndex::from_raw(want), "width {w}");
        assert_eq!(p.faces[0].get(), Some(want as usize));
    }
}

// Seed 000 (ボーン・材質などの参照は「参照なし」を −1 で表すため符号付き), 001, 002 (Nil value -1).
#[test]
fn other_indices_signed_minus_one_is_none() {
    for w in [1u8, 2] {
        let mut f = F::v20([1, 1, 1, w, 1, 1]);
        let mut b = f.b();
        plain_bone(&mut b, "root", [0.0; 3], -1);
        plain_bone(&mut b, "max", [0.0; 3], if w == 1 { 127 } else { 32767 });
        f.set(BONES, 2, &b);
        let bytes = f.bytes();
        // The first parent is all 0xff bytes.
        let at = f.offset_of(BONES) + 4 + 4 + 8 + 4 + 12;
        assert!(bytes[at..at + w as usize].iter().all(|&x| x == 0xff));
        let p = roundtrip(&bytes);
        assert_eq!(p.bones[0].parent, BoneIndex::NONE);
        assert_eq!(p.bones[0].parent.get(), None);
        assert_eq!(
            p.bones[1].parent.get(),
            Some(if w == 1 { 127 } else { 32767 })
        );
    }
}

// Seed 000 (4バイトは常に int32) and 002 (Vertex at 4 bytes: int, limit 2147483647); seed
// 001 gives 0..4294967295 for size 4. The 4 bytes are kept as they are either way.
#[test]
fn four_byte_indices_are_i32() {
    let mut f = F::v20([4; 6]);
    let mut b = f.b();
    b.vi(0x7fff_ffff).vi(0xffff_ffff).vi(0);
    f.set(FACES, 3, &b);
    let mut b = f.b();
    plain_bone(&mut b, "b", [0.0; 3], -1);
    plain_bone(&mut b, "c", [0.0; 3], 0x7fff_ffff);
    f.set(BONES, 2, &b);
    let p = f.read();
    assert_eq!(p.faces[0].raw(), i32::MAX as u32);
    assert_eq!(p.faces[1].raw() as i32, -1);
    assert!(p.bones[0].parent.is_none());
    assert_eq!(p.bones[1].parent.raw(), i32::MAX);
}

// ---------------------------------------------------------------------------------------
// Text.
// ---------------------------------------------------------------------------------------

// Seed 001 (length 是字节数（不是字符数）... 与字符数混淆会立即损坏) and 000 (バイト長 + 本体).
#[test]
fn string_length_is_bytes_not_chars() {
    for (enc, bytes_len) in [(0u8, 2 * 3 + 4), (1, 3 * 3 + 4)] {
        let mut f = F::new(2.0, enc, 0, [1; 6]);
        let mut b = f.b();
        b.text("初音ミ\u{1F600}").text("x").text("").text("");
        assert_eq!(
            &b.buf[..4],
            &(bytes_len as i32).to_le_bytes(),
            "encoding {enc}"
        );
        f.info = b.buf;
        let p = f.read();
        assert_eq!(p.model.name.as_bytes().len(), bytes_len);
        assert_eq!(p.model.name.to_str().unwrap().chars().count(), 4);
        assert_eq!(p.model.name_en.to_str().as_deref(), Some("x"));
    }
}

// Seed 000 (文字コードはヘッダの宣言(UTF-16LE か UTF-8)に従います) and 002 (globals[0]).
#[test]
fn text_encoding_follows_the_header() {
    let mut a = F::new(2.0, 0, 0, [1; 6]);
    a.set_info_texts(["ミク", "", "", ""]);
    let mut c = F::new(2.0, 1, 0, [1; 6]);
    c.set_info_texts(["ミク", "", "", ""]);
    let pa = a.read();
    let pc = c.read();
    assert_eq!(pa.model.name.as_bytes(), &[0xdf, 0x30, 0xaf, 0x30]);
    assert_eq!(pc.model.name.as_bytes(), "ミク".as_bytes());
    assert_eq!(pa.model.name.to_str(), pc.model.name.to_str());
    // Reading UTF-8 bytes as UTF-16 would not give the same text.
    let mut swapped = c.bytes();
    swapped[9] = 0;
    let ps = roundtrip(&swapped);
    assert_ne!(ps.model.name.to_str().as_deref(), Some("ミク"));
}

// ---------------------------------------------------------------------------------------
// Vertices.
// ---------------------------------------------------------------------------------------

// Seed 000 (SDEFを読み飛ばす実装にする場合も、36バイトぶんは必ず進めること。ここを飛ばし忘れると、
// 以降の頂点が全部ずれます) and 001 (SDEF 是在 BDEF2 的数据上追加 3 个 float3).
#[test]
fn sdef_weights_take_36_more_bytes_than_bdef2() {
    for bw in [1u8, 2, 4] {
        let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1, 1, 1, bw, 1, 1]);
        let bdef2 = Weight::Bdef2 {
            bones: [BoneIndex::from_raw(0); 2],
            weight: 0.5,
        };
        let sdef = Weight::Sdef {
            bones: [BoneIndex::from_raw(0); 2],
            weight: 0.5,
            c: [0.0; 3],
            r0: [0.0; 3],
            r1: [0.0; 3],
        };
        assert_eq!(size_of(&bdef2, &ctx), 1 + 2 * bw as usize + 4);
        assert_eq!(size_of(&sdef, &ctx), size_of(&bdef2, &ctx) + 36);
    }
    // And a vertex after an SDEF one is read from the right place.
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 1.0, |b| {
        b.u8(3).bi(0).bi(1).f32s(&[0.5]).f32s(&[9.0; 9]);
    });
    vertex(&mut b, 0, 2.0, |b| {
        b.u8(0).bi(1);
    });
    f.set(VERTICES, 2, &b);
    let p = f.read();
    assert_eq!(p.vertices.get(1).unwrap().position[0], 2.0);
    assert_eq!(
        p.vertices.get(1).unwrap().weight,
        Weight::Bdef1 {
            bone: BoneIndex::from_raw(1)
        }
    );
    match p.vertices.get(0).unwrap().weight {
        Weight::Sdef { c, r0, r1, .. } => assert_eq!([c, r0, r1], [[9.0; 3]; 3]),
        ref w => panic!("{w:?}"),
    }
}

// Seed 000 (the weight table: BDEF1 B, BDEF2 2B + 4, BDEF4 4B + 16, SDEF 2B + 40,
// QDEF 4B + 16), 001 (QDEF 与 BDEF4 是同一结构), 002.
#[test]
fn weight_sizes_per_type_match_the_seed_table() {
    for bw in [1usize, 2, 4] {
        let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1, 1, 1, bw as u8, 1, 1]);
        let z = BoneIndex::from_raw(0);
        let sizes = [
            size_of(&Weight::Bdef1 { bone: z }, &ctx),
            size_of(
                &Weight::Bdef2 {
                    bones: [z; 2],
                    weight: 0.0,
                },
                &ctx,
            ),
            size_of(
                &Weight::Bdef4 {
                    bones: [z; 4],
                    weights: [0.0; 4],
                },
                &ctx,
            ),
            size_of(
                &Weight::Sdef {
                    bones: [z; 2],
                    weight: 0.0,
                    c: [0.0; 3],
                    r0: [0.0; 3],
                    r1: [0.0; 3],
                },
                &ctx,
            ),
            size_of(
                &Weight::Qdef {
                    bones: [z; 4],
                    weights: [0.0; 4],
                },
                &ctx,
            ),
        ];
        // One type byte each, then the seed's sizes.
        assert_eq!(
            sizes,
            [
                1 + bw,
                1 + 2 * bw + 4,
                1 + 4 * bw + 16,
                1 + 2 * bw + 4 + 36,
                1 + 4 * bw + 16
            ],
            "bone width {bw}"
        );
    }
}

// Seed 002: BDEF2 stores one weight ("Bone 2 weight = 1.0 - Bone 1 weight").
#[test]
fn bdef2_second_weight_is_implied() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(1).bi(0).bi(1).f32s(&[0.25]);
    });
    f.set(VERTICES, 1, &b);
    let p = f.read();
    match p.vertices.get(0).unwrap().weight {
        Weight::Bdef2 { weight, .. } => assert_eq!(1.0 - weight, 0.75),
        ref w => panic!("{w:?}"),
    }
}

// Seed 002: BDEF4/QDEF "Weight total not guaranteed to be 1.0": kept as read, not normalised.
#[test]
fn bdef4_weights_not_normalised() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(2).bi(0).bi(1).bi(2).bi(3).f32s(&[0.5, 0.5, 0.5, 0.5]);
    });
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(4)
            .bi(0)
            .bi(1)
            .bi(-1)
            .bi(-1)
            .f32s(&[0.1, 0.1, 0.0, 0.0]);
    });
    f.set(VERTICES, 2, &b);
    let p = f.read();
    assert_eq!(
        p.vertices.get(0).unwrap().weight,
        Weight::Bdef4 {
            bones: [0, 1, 2, 3].map(BoneIndex::from_raw),
            weights: [0.5; 4]
        }
    );
    match p.vertices.get(1).unwrap().weight {
        Weight::Qdef { weights, .. } => assert_eq!(weights, [0.1, 0.1, 0.0, 0.0]),
        ref w => panic!("{w:?}"),
    }
}

// DESIGN.md ("A PMX 2.0 file uses QDEF (a 2.1 weight type): pmx/uml_qdef_twist_cylinder.pmx")
// against seed 002 (QDEF "Version 2.1"): a weight type decides the layout, the version does
// not gate it.
#[test]
fn pmx20_file_may_use_qdef() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(4).bi(0).bi(1).bi(2).bi(3).f32s(&[0.25; 4]);
    });
    f.set(VERTICES, 1, &b);
    let p = f.read();
    assert!(!p.context().unwrap().is_v21());
    assert!(matches!(
        p.vertices.get(0).unwrap().weight,
        Weight::Qdef { .. }
    ));
    let (_, s) = sample("pmx/weights_all_types_v20.pmx");
    assert_eq!(s.header.version, 2.0);
    assert!(s
        .vertices
        .iter()
        .any(|v| matches!(v.weight, Weight::Qdef { .. })));
}

// Seed 002 ("Each vertex may gain up to 4 additional vec4 values as defined in the Globals").
#[test]
fn additional_vec4_count_comes_from_the_header() {
    for uv in 0..=4u8 {
        let mut f = F::new(2.0, 0, uv, [1; 6]);
        let mut b = f.b();
        vertex(&mut b, uv, 1.0, |b| {
            b.u8(0).bi(0);
        });
        vertex(&mut b, uv, 2.0, |b| {
            b.u8(0).bi(0);
        });
        assert_eq!(b.len(), 2 * (32 + 16 * uv as usize + 2 + 4));
        f.set(VERTICES, 2, &b);
        let p = f.read();
        assert_eq!(p.vertices.get(1).unwrap().position[0], 2.0);
        assert_eq!(p.vertices.get(1).unwrap().additional_uv.len(), uv as usize);
    }
}

// ---------------------------------------------------------------------------------------
// Faces and materials.
// ---------------------------------------------------------------------------------------

// Seed 001 (faceIndexCount 并不是面数 ... 面数 = faceIndexCount / 3), 000, 002 ("So if the
// model has 10 triangles the value here will be 30").
#[test]
fn face_count_is_indices_not_triangles() {
    let mut f = F::v20([2, 1, 1, 1, 1, 1]);
    let mut b = f.b();
    for i in 0..30 {
        b.vi(i);
    }
    f.set(FACES, 30, &b);
    let p = f.read();
    assert_eq!(p.faces.len(), 30);
    assert_eq!(p.triangles().count(), 10);
}

// Seed 002 ("the total surface count should be divisible by 3"): should, not must; a list
// that is not is kept as it is (the incomplete triangle is left out of `triangles()`).
#[test]
fn face_count_not_multiple_of_three_kept() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.vi(0).vi(1).vi(2).vi(3);
    f.set(FACES, 4, &b);
    let p = f.read();
    assert_eq!(p.faces.len(), 4);
    assert_eq!(p.triangles().count(), 1);
}

// Seed 000 (面は材質ごとに連続して並んでいます...開始位置は書かれていません。先頭から順に足していった
// 累積が開始位置), 002 (*** surface counts add up to the total).
#[test]
fn material_face_counts_sum_to_face_list() {
    let mut checked = 0;
    for (name, _) in pmx_samples() {
        let (_, p) = sample(&name);
        if p.materials.is_empty() {
            continue;
        }
        checked += 1;
        let mut start = 0usize;
        let mut ranges = Vec::new();
        for m in &p.materials {
            let n = usize::try_from(m.face_count).unwrap();
            assert_eq!(n % 3, 0, "{name}");
            ranges.push(start..start + n);
            start += n;
        }
        assert_eq!(start, p.faces.len(), "{name}");
        // The running sum places the last triangle of the full samples in the third
        // material.
        if name.contains("full_") {
            assert_eq!(ranges[2], 6..9, "{name}");
        }
    }
    // The six full models and the five built from them have materials.
    assert!(checked >= 11, "only {checked} samples with materials");
}

// Seed 000 (共有トゥーンフラグの分岐が最大の罠: flag 1 = one byte), 001 (toon 索引的分支),
// 002 (Toon value: index or byte).
#[test]
fn toon_branch_shared_flag_reads_one_byte() {
    let mut f = F::v20([1, 4, 1, 1, 1, 1]);
    let mut b = f.b();
    material(&mut b, "a", T::S(4), 0);
    let shared_len = b.len();
    material(&mut b, "a", T::X(4), 0);
    // The same material with a 4-byte texture index instead of the 1-byte shared toon.
    assert_eq!(b.len() - shared_len, shared_len + 3);
    f.set(MATERIALS, 2, &b);
    let mut bb = f.b();
    plain_bone(&mut bb, "after", [1.0, 2.0, 3.0], -1);
    f.set(BONES, 1, &bb);
    let p = f.read();
    assert_eq!(p.materials[0].toon, Toon::Shared(4));
    assert_eq!(
        p.materials[1].toon,
        Toon::Texture(TextureIndex::from_raw(4))
    );
    assert_eq!(p.bones[0].position, [1.0, 2.0, 3.0]);
}

// Seed 000 (ここを1バイト読み違えると、材質より後ろのブロック(ボーン・モーフ・剛体)が丸ごとずれます。
// 「材質までは読めるのにボーンで落ちる」ときは、まずここを疑ってください).
#[test]
fn toon_branch_misread_shifts_every_later_block() {
    // Texture index width 2: a shared toon (1 byte) read as a texture index takes one byte
    // of the memo length with it, and the other way round leaves one behind.
    let mut f = F::v20([1, 2, 1, 1, 1, 1]);
    let mut b = f.b();
    material(&mut b, "a", T::S(2), 0);
    f.set(MATERIALS, 1, &b);
    let mut bb = f.b();
    plain_bone(&mut bb, "センター", [0.0, 8.0, 0.0], -1);
    plain_bone(&mut bb, "上半身", [0.0, 10.0, 0.0], 0);
    f.set(BONES, 2, &bb);
    let bytes = f.bytes();
    let good = roundtrip(&bytes);
    // The flag byte: after the names ("a" and "", 6 + 4 bytes), 44 bytes of colours, the
    // draw flags, 20 bytes of edge, two 2-byte texture indices and the sphere mode.
    let flag_at = f.offset_of(MATERIALS) + 4 + 10 + 44 + 1 + 20 + 4 + 1;
    assert_eq!(bytes[flag_at], 1);
    assert_eq!(bytes[flag_at + 1], 2);
    let mut flipped = bytes.clone();
    flipped[flag_at] = 0;
    match Pmx::from_bytes(&flipped) {
        Err(e) => {
            // The error is at or after the material, never before it.
            assert!(e.offset() as usize > flag_at, "{e}");
        }
        Ok(p) => assert_ne!(p.bones, good.bones, "a misread toon must move the bones"),
    }
    // The other way round: a texture-index toon (2 bytes) read as a shared toon (1 byte).
    let mut f2 = f.clone();
    let mut b = f2.b();
    material(&mut b, "a", T::X(2), 0);
    f2.set(MATERIALS, 1, &b);
    let bytes2 = f2.bytes();
    assert_eq!(roundtrip(&bytes2).bones, good.bones);
    let mut flipped2 = bytes2.clone();
    flipped2[flag_at] = 1;
    match Pmx::from_bytes(&flipped2) {
        Err(e) => assert!(e.offset() as usize > flag_at, "{e}"),
        Ok(p) => assert_ne!(p.bones, good.bones, "a misread toon must move the bones"),
    }
}

// Seed 002 (** "If no toon is specified then there will be a value of -1. I have come across
// this value when the Toon reference is both 0 and 1"): a shared toon byte 0xff is kept.
#[test]
fn shared_toon_value_may_be_minus_one() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    material(&mut b, "a", T::S(0xff), 0);
    material(&mut b, "b", T::X(-1), 0);
    f.set(MATERIALS, 2, &b);
    let p = f.read();
    assert_eq!(p.materials[0].toon, Toon::Shared(255));
    assert_eq!(p.materials[1].toon, Toon::Texture(TextureIndex::NONE));
}

// DESIGN.md ("A material has sphere mode 255: pmx/nanoem_effects_main.pmx") and the seeds'
// disagreement on mode 3 (000 sub-texture, 001 subtract, 002 additional vec4): the byte is
// kept whatever it is.
#[test]
fn sphere_mode_255_kept() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    for mode in [3u8, 255] {
        zeroed_material(0, 0, 1, mode).write(&mut b);
    }
    f.set(MATERIALS, 2, &b);
    let p = f.read();
    assert_eq!(p.materials[0].sphere_mode, 3);
    assert_eq!(p.materials[1].sphere_mode, 255);
    let (_, s) = sample("pmx/full_v21_idx1_utf16_uv4.pmx");
    assert!(s.materials.iter().any(|m| m.sphere_mode == 255));
}

// Seed 001 lists draw flags 0x01-0x08 only; 002 adds 0x10 (edge) and the 2.1 bits 0x20,
// 0x40, 0x80. Every bit is kept, whatever the version.
#[test]
fn material_draw_flags_beyond_0x08_kept() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    for flags in [0x10u8, 0x20, 0x40, 0x80, 0xf0] {
        zeroed_material(flags, 0, 0, 0).write(&mut b);
    }
    f.set(MATERIALS, 5, &b);
    let p = f.read();
    let got: Vec<u8> = p.materials.iter().map(|m| m.flags.bits()).collect();
    assert_eq!(got, vec![0x10, 0x20, 0x40, 0x80, 0xf0]);
    assert!(p.materials[4]
        .flags
        .contains(MaterialFlags::LINE_DRAW | MaterialFlags::POINT_DRAW));
}

// Seed 000 (色を差し替えるときは拡散色のRGB 12バイトだけを書き換え、4つ目の不透明度は触らないこと).
#[test]
fn diffuse_alpha_untouched_by_rgb_edit() {
    let (bytes, mut p) = sample("pmx/full_v21_idx2_utf8_uv0.pmx");
    let alphas: Vec<u32> = p.materials.iter().map(|m| m.diffuse[3].to_bits()).collect();
    assert!(
        alphas.iter().all(|&a| a == 0.5f32.to_bits()),
        "semi-transparent samples"
    );
    for m in &mut p.materials {
        m.diffuse[0] = 1.0;
        m.diffuse[1] = 0.0;
        m.diffuse[2] = 0.25;
    }
    let out = p.to_bytes().unwrap();
    assert_eq!(out.len(), bytes.len());
    // The diffuse colour of material i starts after its two names; RGB are its first 12
    // bytes, alpha the next 4.
    let starts = &record_starts(&p)[MATERIALS];
    let mut rgb = Vec::new();
    for (m, at) in p.materials.iter().zip(starts) {
        let d = at + 8 + m.name.as_bytes().len() + m.name_en.as_bytes().len();
        assert_eq!(
            &bytes[d + 12..d + 16],
            &0.5f32.to_le_bytes(),
            "alpha located"
        );
        assert_eq!(
            &out[d + 12..d + 16],
            &bytes[d + 12..d + 16],
            "alpha unchanged"
        );
        rgb.push(d..d + 12);
    }
    let diffs: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != out[i]).collect();
    assert!(!diffs.is_empty());
    for i in diffs {
        assert!(
            rgb.iter().any(|r| r.contains(&i)),
            "byte {i:#x} changed outside RGB"
        );
    }
    let back = Pmx::from_bytes(&out).unwrap();
    let after: Vec<u32> = back
        .materials
        .iter()
        .map(|m| m.diffuse[3].to_bits())
        .collect();
    assert_eq!(after, alphas);
}

// ---------------------------------------------------------------------------------------
// Bones.
// ---------------------------------------------------------------------------------------

// Seed 000 (ボーンの位置は絶対座標で...ローカルの位置は「自分の座標 − 親の座標」), 003.
// Positions are read as stored, in model space: nothing is accumulated along parents.
#[test]
fn bone_position_is_absolute_not_relative() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    plain_bone(&mut b, "parent", [0.0, 10.0, 0.0], -1);
    plain_bone(&mut b, "child", [1.0, 15.0, 0.0], 0);
    f.set(BONES, 2, &b);
    let p = f.read();
    assert_eq!(p.bones[1].position, [1.0, 15.0, 0.0]);
    let parent = p.bones[1].parent.get().unwrap();
    let local: Vec<f32> = (0..3)
        .map(|k| p.bones[1].position[k] - p.bones[parent].position[k])
        .collect();
    assert_eq!(local, vec![1.0, 5.0, 0.0]);
}

// Seed 000 (「親は必ず自分より前にある」は成り立ちません。実物のモデル(ad_ik2.pmx)に、親の添字が自分より
// 後ろのボーンが1本ありました...トポロジカル順に並べ直してから処理してください).
#[test]
fn parent_may_come_after_child() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    plain_bone(&mut b, "child", [0.0, 12.0, 0.0], 2);
    plain_bone(&mut b, "root", [0.0, 0.0, 0.0], -1);
    plain_bone(&mut b, "parent", [0.0, 10.0, 0.0], 1);
    f.set(BONES, 3, &b);
    let p = f.read();
    assert_eq!(p.bones[0].parent.get(), Some(2));
    // A topological order exists and puts every parent first.
    let n = p.bones.len();
    let mut order = Vec::new();
    let mut placed = vec![false; n];
    while order.len() < n {
        let before = order.len();
        for i in 0..n {
            let ready = p.bones[i].parent.get().is_none_or(|q| q >= n || placed[q]);
            if !placed[i] && ready {
                placed[i] = true;
                order.push(i);
            }
        }
        assert!(order.len() > before, "parent cycle");
    }
    assert_eq!(order, vec![1, 2, 0]);
    let (_, s) = sample("pmx/full_v21_idx1_utf16_uv4.pmx");
    assert!(s
        .bones
        .iter()
        .enumerate()
        .any(|(i, b)| b.parent.get().is_some_and(|q| q > i)));
}

// Seed 000 (the bone table: 0x0001 tail bone else 12-byte offset; 0x0100/0x0200 inherit;
// 0x0400 axis; 0x0800 local axes; 0x2000 key; 0x0020 IK), 001 (条件字段), 003 (この順に進める
// 必要があります): the blocks follow in this order, whatever the bit order.
#[test]
fn bone_flag_blocks_follow_in_file_order() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(
        &mut b,
        "all",
        [0.0; 3],
        -1,
        0x0001 | 0x0020 | 0x0100 | 0x0400 | 0x0800 | 0x2000,
    );
    let start = b.len();
    b.bi(11) // tail bone
        .bi(12)
        .f32s(&[0.5]) // inherit
        .f32s(&[1.0, 0.0, 0.0]) // fixed axis
        .f32s(&[0.0, 1.0, 0.0, 0.0, 0.0, 1.0]) // local axes
        .i32(99) // external parent key
        .bi(13)
        .i32(5)
        .f32s(&[0.25])
        .i32(0); // IK
    assert_eq!(b.len() - start, 1 + 5 + 12 + 24 + 4 + 1 + 12);
    plain_bone(&mut b, "next", [7.0, 7.0, 7.0], 0);
    f.set(BONES, 2, &b);
    let p = f.read();
    let a = &p.bones[0];
    assert_eq!(a.tail, BoneTail::Bone(BoneIndex::from_raw(11)));
    assert_eq!(a.inherit.unwrap().parent.raw(), 12);
    assert_eq!(a.fixed_axis, Some([1.0, 0.0, 0.0]));
    assert_eq!(a.local_axes.unwrap().z, [0.0, 0.0, 1.0]);
    assert_eq!(a.external_parent, Some(99));
    assert_eq!(a.ik.as_ref().unwrap().target.raw(), 13);
    assert_eq!(p.bones[1].position, [7.0, 7.0, 7.0]);
}

// Seed 000 (0x0001: 立っていなければ代わりに座標オフセット 12バイト), 001, 003.
#[test]
fn bone_tail_is_an_index_with_flag_0x0001_else_an_offset() {
    for w in [1u8, 2, 4] {
        let mut f = F::v20([1, 1, 1, w, 1, 1]);
        let mut b = f.b();
        bone_head(&mut b, "a", [0.0; 3], -1, 0x0001);
        b.bi(1);
        bone_head(&mut b, "b", [0.0; 3], -1, 0x0000);
        b.f32s(&[1.0, 2.0, 3.0]);
        f.set(BONES, 2, &b);
        let p = f.read();
        assert_eq!(p.bones[0].tail, BoneTail::Bone(BoneIndex::from_raw(1)));
        assert_eq!(p.bones[1].tail, BoneTail::Offset([1.0, 2.0, 3.0]));
    }
}

// Seed 003 (the flag table: 0x0002 rotatable, 0x0004 translatable, 0x0008 visible, 0x0010
// operable, 0x0080 local inherit, 0x1000 deform after physics add no block) and 002.
#[test]
fn flags_without_blocks_add_no_bytes() {
    for flag in [0x0002u16, 0x0004, 0x0008, 0x0010, 0x0080, 0x1000] {
        let mut f = F::v20([1; 6]);
        let mut b = f.b();
        bone_head(&mut b, "a", [0.0; 3], -1, flag);
        b.f32s(&[0.0, 1.0, 0.0]);
        plain_bone(&mut b, "b", [3.0; 3], 0);
        f.set(BONES, 2, &b);
        let p = f.read();
        assert_eq!(p.bones[0].flags.bits(), flag);
        assert_eq!(p.bones[1].position, [3.0; 3], "flag {flag:#06x}");
    }
}

// DESIGN.md ("Keep ... unknown flag bits"): bits with no meaning (0x0040, 0x4000, 0x8000)
// add no block and are written back.
#[test]
fn unknown_bone_flag_bits_kept() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "a", [0.0; 3], -1, 0xc040);
    b.f32s(&[0.0, 1.0, 0.0]);
    plain_bone(&mut b, "b", [3.0; 3], 0);
    f.set(BONES, 2, &b);
    let p = f.read();
    assert_eq!(p.bones[0].flags.unknown_bits(), 0xc040);
    assert_eq!(p.bones[1].position, [3.0; 3]);
}

// Seed 000 (リンクごとに「ボーン(B)+ 角度制限の有無(uint8)」...制限ありのときだけ下限・上限の24バイト),
// 001 (hasLimit), 002 ("When equal to 1, use angle limits"; link count "can be zero").
#[test]
fn ik_link_limits_only_when_flagged() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    let links: [Link; 2] = [(2, 0, None), (3, 1, Some([-1.0, 0.0, 0.0, 1.0, 0.0, 0.0]))];
    ik_bone(&mut b, "ik", 1, 40, 2.0, &links);
    ik_bone(&mut b, "ik0", 1, 3, 1.0, &[]);
    plain_bone(&mut b, "after", [5.0; 3], -1);
    f.set(BONES, 3, &b);
    let p = f.read();
    let links = &p.bones[0].ik.as_ref().unwrap().links;
    assert_eq!((links[0].has_limit, links[0].limit_min), (0, None));
    assert_eq!(links[1].limit_min, Some([-1.0, 0.0, 0.0]));
    assert_eq!(links[1].limit_max, Some([1.0, 0.0, 0.0]));
    assert!(p.bones[1].ik.as_ref().unwrap().links.is_empty());
    assert_eq!(p.bones[2].position, [5.0; 3]);
}

// ---------------------------------------------------------------------------------------
// Morphs.
// ---------------------------------------------------------------------------------------

// Seed 000 (種別4〜7(追加UVモーフ)を読み飛ばさない実装が実在します...種別3と同じ並びとして進めれば
// 問題ありません), 001 (4〜7 与 UV 同结构).
#[test]
fn morph_types_4_to_7_laid_out_like_uv() {
    for w in [1u8, 2, 4] {
        let mut f = F::new(2.0, 0, 4, [w, 1, 1, 1, 1, 1]);
        let mut b = f.b();
        for ty in 3..=7u8 {
            b.text("uv").text("").u8(4).u8(ty).i32(2);
            for k in 0..2 {
                b.vi(ty as i64 * 10 + k)
                    .f32s(&[ty as f32, k as f32, 0.5, 0.25]);
            }
        }
        b.text("last")
            .text("")
            .u8(1)
            .u8(1)
            .i32(1)
            .vi(1)
            .f32s(&[1.0, 2.0, 3.0]);
        f.set(MORPHS, 6, &b);
        let p = f.read();
        let mut sizes = Vec::new();
        let ctx = p.context().unwrap();
        for (i, m) in p.morphs.iter().take(5).enumerate() {
            let ty = i as u32 + 3;
            let o = uv_offsets(&m.offsets);
            assert_eq!(o[1].vertex, VertexIndex::from_raw(ty * 10 + 1));
            assert_eq!(o[1].offset, [ty as f32, 1.0, 0.5, 0.25]);
            sizes.push(size_of(&m.offsets, &ctx));
        }
        assert!(sizes.iter().all(|s| *s == 1 + 4 + 2 * (w as usize + 16)));
        assert_eq!(p.morphs[5].name.to_str().as_deref(), Some("last"));
    }
}

// Seed 000 (the morph table: 1 element's size per type), 001, 002.
#[test]
fn morph_offset_sizes_per_type() {
    let ctx = PmxContext::new(2.1, TextEncoding::Utf16Le, 0, [2, 1, 4, 1, 2, 4]);
    let (v, m, b, mo, r) = (2usize, 4usize, 1usize, 2usize, 4usize);
    let z = |x: &MorphOffsets| size_of(x, &ctx) - 5;
    let g = GroupOffset {
        morph: mmd_formats::MorphIndex::from_raw(0),
        weight: 0.0,
    };
    let uv = UvOffset {
        vertex: VertexIndex::from_raw(0),
        offset: [0.0; 4],
    };
    let mat = MaterialOffset {
        material: MaterialIndex::from_raw(0),
        operation: 0,
        diffuse: [0.0; 4],
        specular: [0.0; 3],
        specular_strength: 0.0,
        ambient: [0.0; 3],
        edge_color: [0.0; 4],
        edge_size: 0.0,
        texture_tint: [0.0; 4],
        sphere_tint: [0.0; 4],
        toon_tint: [0.0; 4],
    };
    let cases = [
        (MorphOffsets::Group(vec![g]), mo + 4),
        (
            MorphOffsets::Vertex(vec![VertexOffset {
                vertex: VertexIndex::from_raw(0),
                offset: [0.0; 3],
            }]),
            v + 12,
        ),
        (
            MorphOffsets::Bone(vec![BoneOffset {
                bone: BoneIndex::from_raw(0),
                translation: [0.0; 3],
                rotation: [0.0; 4],
            }]),
            b + 12 + 16,
        ),
        (MorphOffsets::Uv(vec![uv]), v + 16),
        (MorphOffsets::AdditionalUv1(vec![uv]), v + 16),
        (MorphOffsets::AdditionalUv2(vec![uv]), v + 16),
        (MorphOffsets::AdditionalUv3(vec![uv]), v + 16),
        (MorphOffsets::AdditionalUv4(vec![uv]), v + 16),
        (
            MorphOffsets::Material(vec![mat]),
            m + 1 + 16 + 12 + 4 + 12 + 16 + 4 + 16 + 16 + 16,
        ),
        (MorphOffsets::Flip(vec![g]), mo + 4),
        (
            MorphOffsets::Impulse(vec![ImpulseOffset {
                rigid_body: mmd_formats::RigidBodyIndex::from_raw(0),
                local: 0,
                velocity: [0.0; 3],
                torque: [0.0; 3],
            }]),
            r + 1 + 12 + 12,
        ),
    ];
    for (ty, (offsets, want)) in cases.iter().enumerate() {
        assert_eq!(z(offsets), *want, "morph type {ty}");
    }
}

// Seed 001 (材质变形的偏移有 22 个字段 — 不要弄错顺序, and its code block): index, calc mode,
// diffuse 4, specular 3, shininess, ambient 3, edge colour 4, edge size, texture 4, sphere 4,
// toon 4 (the seed's "22" matches no way of counting these: 11 fields, 30 values; the order
// of its code block agrees with seeds 000 and 002).
#[test]
fn material_morph_offset_fields_in_order() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.text("m").text("").u8(4).u8(8).i32(1).mi(-1).u8(1);
    let vals: Vec<f32> = (1..=28).map(|k| k as f32).collect();
    b.f32s(&vals);
    f.set(MORPHS, 1, &b);
    let p = f.read();
    let MorphOffsets::Material(o) = &p.morphs[0].offsets else {
        panic!("{:?}", p.morphs[0].offsets)
    };
    let o = &o[0];
    // -1 = every material (seed 002).
    assert!(o.material.is_none());
    assert_eq!(o.operation, 1);
    let mut got = Vec::new();
    got.extend(o.diffuse);
    got.extend(o.specular);
    got.push(o.specular_strength);
    got.extend(o.ambient);
    got.extend(o.edge_color);
    got.push(o.edge_size);
    got.extend(o.texture_tint);
    got.extend(o.sphere_tint);
    got.extend(o.toon_tint);
    assert_eq!(got, vals);
}

// Seed 001 (骨骼变形的旋转以四元数（float4）存储。并非欧拉角) and 000 (回転 16).
#[test]
fn bone_morph_rotation_is_a_quaternion() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.text("m").text("").u8(4).u8(2).i32(2);
    b.bi(0)
        .f32s(&[1.0, 2.0, 3.0])
        .f32s(&[0.0, 0.0, 0.707, 0.707]);
    b.bi(1).f32s(&[0.0; 3]).f32s(&[0.0, 0.0, 0.0, 1.0]);
    f.set(MORPHS, 1, &b);
    let p = f.read();
    let MorphOffsets::Bone(o) = &p.morphs[0].offsets else {
        panic!()
    };
    assert_eq!(o[0].rotation, [0.0, 0.0, 0.707, 0.707]);
    assert_eq!(o[1].bone.raw(), 1);
    assert_eq!(o[1].rotation, [0.0, 0.0, 0.0, 1.0]);
}

// DESIGN.md ("be strict only where a value decides the layout"): the 2.1 morph types 9-10
// and joint types 1-5 in a 2.0 file are read by their layout, not refused by version.
#[test]
fn pmx20_file_may_use_21_morph_and_joint_types() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.text("flip")
        .text("")
        .u8(4)
        .u8(9)
        .i32(1)
        .moi(0)
        .f32s(&[1.0]);
    b.text("imp")
        .text("")
        .u8(4)
        .u8(10)
        .i32(1)
        .ri(0)
        .u8(0)
        .f32s(&[0.0; 6]);
    f.set(MORPHS, 2, &b);
    let mut b = f.b();
    b.text("j").text("").u8(5).ri(0).ri(1).f32s(&[0.0; 24]);
    f.set(JOINTS, 1, &b);
    let p = f.read();
    assert!(matches!(p.morphs[0].offsets, MorphOffsets::Flip(_)));
    assert!(matches!(p.morphs[1].offsets, MorphOffsets::Impulse(_)));
    assert_eq!(p.joints[0].kind, 5);
    assert_eq!(p.soft_bodies, None);
}

// ---------------------------------------------------------------------------------------
// Display frames, rigid bodies, joints, soft bodies.
// ---------------------------------------------------------------------------------------

// Seed 000 (対象が0ならボーン、1ならモーフなので、読むインデックスの幅が要素ごとに変わります), 001.
#[test]
fn display_frame_element_width_follows_its_target() {
    let mut f = F::v20([1, 1, 1, 1, 4, 1]);
    let mut b = f.b();
    display_frame(&mut b, "f", "", 0, &[(1, 1000), (0, 5), (1, -1)]);
    display_frame(&mut b, "g", "", 1, &[]);
    f.set(FRAMES, 2, &b);
    let p = f.read();
    assert_eq!(
        p.display_frames[0].elements,
        vec![
            FrameElement::Morph(mmd_formats::MorphIndex::from_raw(1000)),
            FrameElement::Bone(BoneIndex::from_raw(5)),
            FrameElement::Morph(mmd_formats::MorphIndex::NONE)
        ]
    );
    assert_eq!(p.display_frames[1].name.to_str().as_deref(), Some("g"));
}

// Seed 000 (剛体: 名前2つ + 関連ボーン(B) + グループ(1) + 非衝突グループ(2) + 形状(1) + 大きさ12 +
// 位置12 + 回転12 + (4 × 5) + 物理演算の種類(1)), 001, 002.
#[test]
fn rigid_body_record_layout() {
    let mut f = F::v20([1, 1, 1, 2, 1, 1]);
    let mut b = f.b();
    b.text("r").text("").bi(-1).u8(15).u16(0x8001).u8(2);
    b.f32s(&[1.0; 9]).f32s(&[2.0; 5]).u8(1);
    let len = b.len();
    assert_eq!(len, 6 + 4 + 2 + 1 + 2 + 1 + 36 + 20 + 1);
    b.text("s")
        .text("")
        .bi(3)
        .u8(0)
        .u16(0)
        .u8(0)
        .f32s(&[0.0; 14])
        .u8(2);
    f.set(RIGIDS, 2, &b);
    let p = f.read();
    let r = &p.rigid_bodies[0];
    assert!(r.bone.is_none());
    assert_eq!(
        (r.group, r.collision_mask, r.shape, r.mode),
        (15, 0x8001, 2, 1)
    );
    assert_eq!(r.friction, 2.0);
    assert_eq!(p.rigid_bodies[1].bone.raw(), 3);
    assert_eq!(p.rigid_bodies[1].mode, 2);
}

// Seed 000 (ジョイント: 名前2つ + 種類(1) + 剛体A・B + 位置12 + 回転12 + 12 × 6) and 002 (types
// 0-5, one layout).
#[test]
fn joint_types_share_one_layout() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    let mut b = f.b();
    let mut sizes = Vec::new();
    for kind in 0..=5u8 {
        let at = b.len();
        b.text("j").text("").u8(kind).ri(kind as i64).ri(-1);
        b.f32s(&[kind as f32; 24]);
        sizes.push(b.len() - at);
    }
    assert!(sizes.iter().all(|s| *s == 6 + 4 + 1 + 2 + 24 * 4));
    f.set(JOINTS, 6, &b);
    let p = f.read();
    for (k, j) in p.joints.iter().enumerate() {
        assert_eq!(j.kind as usize, k);
        assert_eq!(j.spring_rotation, [k as f32; 3]);
    }
}

// Seed 000 (PMX 2.1にはこの後にソフトボディのブロックが続きます...2.0のファイルにはそもそも存在
// しません), 002 (SoftBody count, 2.1).
#[test]
fn pmx20_has_no_soft_body_section() {
    let mut f = F::v20([1; 6]);
    // Four bytes after the joints of a 2.0 file are trailing bytes, not a soft-body count.
    f.trailing = 0i32.to_le_bytes().to_vec();
    let p = f.read();
    assert_eq!(p.soft_bodies, None);
    assert_eq!(p.trailing, vec![0, 0, 0, 0]);
}

// Seed 000 and 002: in 2.1 the soft bodies follow the joints; a 2.1 file may also end right
// after the joints (absent is not the same file as a count of 0).
#[test]
fn pmx21_soft_bodies_follow_joints() {
    let (bytes, p) = sample("pmx/full_v21_idx1_utf16_uv4.pmx");
    let s = p.soft_bodies.as_ref().unwrap();
    assert_eq!(s.len(), 2);
    assert!(!s[0].anchors.is_empty() && !s[0].pins.is_empty());
    let (none_bytes, none) = sample("pmx/v21_no_soft_body_section.pmx");
    let (zero_bytes, zero) = sample("pmx/v21_soft_body_count_0.pmx");
    assert_eq!(none.soft_bodies, None);
    assert_eq!(zero.soft_bodies, Some(vec![]));
    assert_eq!(zero_bytes.len(), none_bytes.len() + 4);
    assert_eq!(&zero_bytes[..none_bytes.len()], &none_bytes[..]);
    assert!(bytes.len() > zero_bytes.len());
}

// Seed 002 says LST/AST/VST are ints; DESIGN.md notes other readers take floats. The bytes
// are kept, so both readings stay possible.
#[test]
fn soft_body_stiffness_int_or_float_kept_as_bytes() {
    let (_, p) = sample("pmx/full_v21_idx2_utf8_uv0.pmx");
    let s = &p.soft_bodies.as_ref().unwrap()[0];
    assert_eq!(i32::from_le_bytes(s.lst), 1);
    assert_eq!(f32::from_le_bytes(s.ast), 0.5);
    assert_eq!(s.vst, [0x12, 0x34, 0x56, 0x78]);
}

// ---------------------------------------------------------------------------------------
// Counts and the end of the file.
// ---------------------------------------------------------------------------------------

// Seed 002 (every section "starts with an int ... (Note that it is a signed int)"): a
// negative count is an error, not a huge unsigned one.
#[test]
fn counts_are_signed_ints() {
    let mut f = F::v20([1; 6]);
    f.sec[BONES].0 = -2;
    let e = Pmx::from_bytes(&f.bytes()).unwrap_err();
    assert_eq!(e.path_string(), "bones", "{e}");
    assert_eq!(e.offset() as usize, f.offset_of(BONES));
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
}

// Seed 000 (ブロックの区切りはバイト数ではなく件数だけで示されます) and 001 (中途哪怕偏移 1 字节，
// 其后全都会损坏): a count is checked against the bytes left before anything is read.
#[test]
fn count_beyond_the_bytes_left_fails_at_once() {
    let mut f = F::v20([1; 6]);
    f.sec[VERTICES].0 = 100_000_000;
    let e = Pmx::from_bytes(&f.bytes()).unwrap_err();
    assert_eq!(e.path_string(), "vertices");
    assert!(matches!(e.kind(), ErrorKind::CountTooLarge { .. }), "{e}");
}

// Seed 001 (确认能否完整读到全部 chunk 末尾（剩余字节数是否为 0）): a well-formed file leaves
// nothing over; bytes after the last section are kept apart, in `trailing`.
#[test]
fn reading_ends_at_the_end_of_the_file() {
    let mut with_trailing = 0;
    for (name, _) in pmx_samples() {
        let (_, p) = sample(&name);
        // Only the two samples built with bytes after the last section have any.
        assert_eq!(p.trailing.is_empty(), !name.contains("trailing"), "{name}");
        with_trailing += usize::from(!p.trailing.is_empty());
    }
    assert_eq!(with_trailing, 2);
    let mut f = F::v20([1; 6]);
    f.trailing = b"extra".to_vec();
    assert_eq!(f.read().trailing, b"extra");
}

// ---------------------------------------------------------------------------------------
// Rewriting.
// ---------------------------------------------------------------------------------------

// Seed 000 (等倍(何も変えない設定)で焼き直したらバイト列が完全一致する、をテストで固定する) and 001
// (读入 → 写出 → 字节比较).
#[test]
fn rewrite_without_change_is_byte_exact() {
    let samples = pmx_samples();
    assert!(samples.len() >= 17);
    for (name, bytes) in samples {
        let out = Pmx::from_bytes(&bytes).unwrap().to_bytes().unwrap();
        mmd_tests::assert_bytes_eq(&out, &bytes, &name);
    }
}

// Seed 000 (法線の再正規化やfloat32の往復だけで下位ビットが動き、実際に全モデルが「差分あり」になりました):
// floats are stored as read, NaN payloads, -0.0, subnormals and unnormalised normals too.
#[test]
fn float_bits_survive_round_trip() {
    let odd = [
        f32::from_bits(0x7fc0_1234), // quiet NaN with a payload
        -0.0,
        f32::from_bits(1), // smallest subnormal
        f32::from_bits(0xff80_0000),
    ];
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.f32s(&odd[..3])
        .f32s(&[3.0, 4.0, 0.0]) // a normal of length 5
        .f32s(&[odd[3], 0.0])
        .u8(0)
        .bi(0)
        .f32s(&[odd[0]]);
    f.set(VERTICES, 1, &b);
    let bytes = f.bytes();
    let p = Pmx::from_bytes(&bytes).unwrap();
    let v = &p.vertices.get(0).unwrap();
    assert_eq!(v.position.map(f32::to_bits), [0x7fc0_1234, 0x8000_0000, 1]);
    assert_eq!(v.normal, [3.0, 4.0, 0.0]);
    assert_eq!(v.uv[0].to_bits(), 0xff80_0000);
    assert_eq!(v.edge_scale.to_bits(), 0x7fc0_1234);
    mmd_tests::assert_bytes_eq(&p.to_bytes().unwrap(), &bytes, "float bits");
}

// Seed 000 (文字列を差し替えると長さが変わる。モデル名を変えるだけでも後続のオフセットが全部ずれる...
// 前後を切って繋ぎ直す必要があります).
#[test]
fn rename_shifts_later_offsets() {
    let (bytes, mut p) = sample("pmx/full_v21_idx1_utf16_uv4.pmx");
    let old = p.bones[3].name.as_bytes().len();
    p.bones[3].name.set("ずっと長いボーンの名前");
    let grow = p.bones[3].name.as_bytes().len() - old;
    assert!(grow > 0);
    let out = p.to_bytes().unwrap();
    assert_eq!(out.len(), bytes.len() + grow);
    // Everything after the name moved by `grow` bytes and is otherwise the same.
    let name_at = (0..bytes.len())
        .find(|&i| bytes[i] != out[i])
        .expect("a difference");
    assert_eq!(&out[..name_at], &bytes[..name_at]);
    let tail = bytes.len() - name_at - old - 4;
    assert_eq!(&out[out.len() - tail..], &bytes[bytes.len() - tail..]);
    // It reads back with the new name and everything else as it was.
    let back = roundtrip(&out);
    assert_eq!(
        back.bones[3].name.to_str().as_deref(),
        Some("ずっと長いボーンの名前")
    );
    let orig = Pmx::from_bytes(&bytes).unwrap();
    assert_eq!(back.morphs, orig.morphs);
    assert_eq!(back.joints, orig.joints);
    assert_eq!(back.soft_bodies, orig.soft_bodies);
    assert_eq!(back.bones[4..], orig.bones[4..]);
}

// Seed 000 (走査時に書き換えたい場所のバイト位置だけを控えておき、そこだけ上書きするほうが安全です):
// editing one field through the model changes exactly that field's bytes.
#[test]
fn edit_changes_only_its_own_bytes() {
    let (bytes, mut p) = sample("pmx/full_v21_idx4_utf16_uv2.pmx");
    p.rigid_bodies[1].mass = 42.0;
    let out = p.to_bytes().unwrap();
    assert_eq!(out.len(), bytes.len());
    let diffs: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != out[i]).collect();
    // The mass follows the names, the bone index, group (1), mask (2), shape (1) and the
    // size, position and rotation (36).
    let r = &p.rigid_bodies[1];
    let at = record_starts(&p)[RIGIDS][1]
        + 8
        + r.name.as_bytes().len()
        + r.name_en.as_bytes().len()
        + 4
        + 1
        + 2
        + 1
        + 36;
    assert_eq!(&out[at..at + 4], &42f32.to_le_bytes());
    assert!(!diffs.is_empty());
    assert!(diffs.iter().all(|i| (at..at + 4).contains(i)), "{diffs:?}");
}

// ---------------------------------------------------------------------------------------
// More traps, from the checklist in /tmp/research/pmx.md (its numbers in brackets), each
// traced to the seed it cites.
// ---------------------------------------------------------------------------------------

// Seeds 000 (`PMX ` (末尾は空白)), 001 (`PMX `（0x50 0x4D 0x58 0x20）), 002 ("Notice the space at
// the end") [1].
#[test]
fn header_magic_requires_trailing_space() {
    for bad in [b"PMX\0", b"PMX_", b"pmx ", b"PMD "] {
        let mut bytes = F::v20([1; 6]).bytes();
        bytes[..4].copy_from_slice(bad);
        let e = Pmx::from_bytes(&bytes).unwrap_err();
        assert_eq!(
            (e.offset(), e.path_string().as_str()),
            (0, "header.magic"),
            "{e}"
        );
    }
}

// Seed 000 (read 8 globals, then count − 8 more) [4]: fewer than 8 leave the widths undefined.
#[test]
fn globals_count_below_8_is_an_error() {
    for n in [0usize, 5, 7] {
        let mut f = F::v20([1; 6]);
        f.globals.truncate(n);
        let e = f.read_err();
        assert_eq!(
            (e.offset(), e.path_string().as_str()),
            (8, "header.globals"),
            "{e}"
        );
    }
}

// Seeds 000 (header table offsets 9-16), 001, 002 (Globals index 0-7) [5]: encoding, UV
// count, then the widths of vertex, texture, material, bone, morph, rigid body.
#[test]
fn globals_order_maps_to_six_widths() {
    let f = F::new(2.0, 1, 2, [1, 2, 4, 1, 2, 4]);
    let bytes = f.bytes();
    assert_eq!(&bytes[9..17], &[1, 2, 1, 2, 4, 1, 2, 4]);
    let c = roundtrip(&bytes).context().unwrap();
    assert_eq!(c.encoding, mmd_formats::TextEncoding::Utf8);
    assert_eq!(c.additional_uv, 2);
    assert_eq!(c.widths(), [1, 2, 4, 1, 2, 4]);
}

// Seeds 001/002 (index size 1, 2 or 4) [10]: any other width is an error at its byte.
#[test]
fn index_width_3_is_an_error() {
    let mut f = F::v20([1; 6]);
    f.globals[5] = 3;
    let e = f.read_err();
    assert_eq!(e.offset(), 9 + 5);
    assert_eq!(e.path_string(), "header.globals[5]");
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }));
}

// DESIGN.md (text length is in bytes, so an unknown encoding byte does not change the layout)
// [6]: the text is kept raw and written back.
#[test]
fn unknown_encoding_keeps_text_raw() {
    let mut f = F::new(2.0, 2, 0, [1; 6]);
    f.set_info(|b| {
        b.i32(3).raw(&[0x81, 0x40, 0x41]).i32(0).i32(0).i32(0);
    });
    let p = f.read();
    assert_eq!(
        p.context().unwrap().encoding,
        mmd_formats::TextEncoding::Unknown(2)
    );
    assert_eq!(p.model.name.as_bytes(), &[0x81, 0x40, 0x41]);
}

// Seeds 001/002 (additional UV 0..4) [8]: a larger count still has a defined layout.
#[test]
fn additional_uv_count_above_4_still_read() {
    let mut f = F::new(2.0, 0, 5, [1; 6]);
    let mut b = f.b();
    vertex(&mut b, 5, 1.0, |b| {
        b.u8(0).bi(0);
    });
    vertex(&mut b, 5, 2.0, |b| {
        b.u8(0).bi(0);
    });
    f.set(VERTICES, 2, &b);
    let p = f.read();
    assert_eq!(p.vertices.get(1).unwrap().additional_uv.len(), 5);
    assert_eq!(p.vertices.get(1).unwrap().position[0], 2.0);
}

// DESIGN.md and seed 002's limits (127 / 255 at one byte) [14]: a write never truncates.
#[test]
fn writing_index_beyond_width_is_an_error() {
    let (_, mut p) = sample("pmx/full_v21_idx1_utf16_uv4.pmx");
    p.vertices.get_mut(0).unwrap().weight = Weight::Bdef1 {
        bone: BoneIndex::from_raw(128),
    };
    let e = p.to_bytes().unwrap_err();
    assert_eq!(e.path_string(), "vertices[0].weight.Bdef1.bone", "{e}");
    assert!(matches!(e.kind(), ErrorKind::Inconsistent { .. }));
    let (_, mut p) = sample("pmx/full_v21_idx1_utf16_uv4.pmx");
    p.faces[0] = VertexIndex::from_raw(256);
    assert_eq!(p.to_bytes().unwrap_err().path_string(), "faces[0]");
}

// DESIGN.md (a writer never recomputes widths) [15]: declared widths wider than needed stay.
#[test]
fn writer_keeps_declared_widths_wider_than_needed() {
    let mut f = F::v20([4; 6]);
    let mut b = f.b();
    plain_bone(&mut b, "only", [0.0; 3], -1);
    f.set(BONES, 1, &b);
    let bytes = f.bytes();
    let p = roundtrip(&bytes);
    assert_eq!(p.header.globals[2..8], [4; 6]);
    assert_eq!(p.to_bytes().unwrap().len(), bytes.len());
}

// Seeds 001/002 (text length: int) [17]: a negative length is an error; one beyond the end of
// the file fails before anything is allocated.
#[test]
fn text_negative_or_oversized_length_is_an_error() {
    let mut f = F::v20([1; 6]);
    f.set_info(|b| {
        b.i32(-2);
    });
    let e = f.read_err();
    assert_eq!(
        (e.offset(), e.path_string().as_str()),
        (17, "model.name"),
        "{e}"
    );
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }));
    f.set_info(|b| {
        b.i32(0x7fff_fff0);
    });
    let e = f.read_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "model.name");
}

// Seeds 000, 001, 002 [18]: four texts in this order: name, English name, comment, English
// comment.
#[test]
fn model_info_four_texts_in_order() {
    let mut f = F::v20([1; 6]);
    f.set_info_texts(["名前", "name", "コメント", "comment"]);
    let p = f.read();
    let got: Vec<String> = [
        &p.model.name,
        &p.model.name_en,
        &p.model.comment,
        &p.model.comment_en,
    ]
    .iter()
    .map(|t| t.to_str().unwrap().into_owned())
    .collect();
    assert_eq!(got, ["名前", "name", "コメント", "comment"]);
}

// DESIGN.md (text that does not decode is kept as raw bytes) [19].
#[test]
fn undecodable_text_kept_raw() {
    for (enc, raw) in [
        (0u8, vec![0x00u8, 0xd8]),
        (0, vec![0x41]),
        (1, vec![0xc3, 0x28]),
    ] {
        let mut f = F::new(2.0, enc, 0, [1; 6]);
        f.set_info(|b| {
            b.i32(raw.len() as i32).raw(&raw).i32(0).i32(0).i32(0);
        });
        let p = f.read();
        assert_eq!(p.model.name.to_str(), None);
        assert_eq!(p.model.name.as_bytes(), &raw[..]);
    }
}

// The fixtures' comments use CRLF and LF (pmx.md §3, [20]); the seeds' text is bytes (000,
// 002): line breaks are not normalised.
#[test]
fn text_newlines_not_normalised() {
    let mut f = F::v20([1; 6]);
    f.set_info_texts(["a\r\nb", "a\nb", "a\rb", "\r\n"]);
    let p = f.read();
    assert_eq!(p.model.name.as_bytes().len(), 8);
    assert_eq!(p.model.name_en.to_str().as_deref(), Some("a\nb"));
    assert_eq!(p.model.comment.to_str().as_deref(), Some("a\rb"));
    assert_eq!(p.model.comment_en.to_str().as_deref(), Some("\r\n"));
}

// Seeds 000 (数値はリトルエンディアン), 001, 002 ("Format is Little-Endian throughout") [25, 57]: the
// bone flags u16 is little-endian, so bits 8-15 are in the second byte.
#[test]
fn multi_byte_fields_are_little_endian() {
    let mut f = F::v20([1, 1, 1, 2, 1, 1]);
    let mut b = f.b();
    bone_head(&mut b, "b", [1.0, 0.0, 0.0], 0x0102, 0x0100);
    b.f32s(&[0.0; 3]).bi(0x0203).f32s(&[0.5]);
    f.set(BONES, 1, &b);
    let bytes = f.bytes();
    let at = f.offset_of(BONES) + 4 + 6 + 4 + 12;
    assert_eq!(&bytes[at..at + 2], &[0x02, 0x01]); // parent 0x0102
    assert_eq!(&bytes[at + 6..at + 8], &[0x00, 0x01]); // flags 0x0100
    assert_eq!(&bytes[at - 12..at - 8], &[0x00, 0x00, 0x80, 0x3f]); // 1.0f
    let p = roundtrip(&bytes);
    assert_eq!(p.bones[0].parent.raw(), 0x0102);
    assert_eq!(p.bones[0].flags.bits(), 0x0100);
    assert_eq!(p.bones[0].inherit.unwrap().parent.raw(), 0x0203);
}

// DESIGN.md (an unknown tag is an error with its offset) [27].
#[test]
fn unknown_weight_type_is_an_error_with_offset() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(0).bi(0);
    });
    vertex(&mut b, 0, 0.0, |b| {
        b.u8(7).bi(0);
    });
    f.set(VERTICES, 2, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "vertices[1].weight");
    assert_eq!(e.offset() as usize, f.offset_of(VERTICES) + 4 + 38 + 32);
}

// Seed 002 ("The bone index of -1 is a nil value, the bone should be ignored") [32] and
// 000/002 (edge scale is the last f32, after the weights) [33].
#[test]
fn weight_bone_minus_one_and_edge_scale_after_weights() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    b.f32s(&[0.0; 8]).u8(2).bi(-1).bi(-1).bi(0).bi(-1);
    b.f32s(&[0.0, 0.0, 1.0, 0.0]).f32s(&[0.75]);
    f.set(VERTICES, 1, &b);
    let p = f.read();
    assert_eq!(p.vertices.get(0).unwrap().edge_scale, 0.75);
    match p.vertices.get(0).unwrap().weight {
        Weight::Bdef4 { bones, .. } => {
            assert_eq!(bones.map(|b| b.get()), [None, None, Some(0), None])
        }
        ref w => panic!("{w:?}"),
    }
}

// Seeds 000/001/002 (paths are stored as written; Windows separators, relative or absolute)
// [40] and 002 (toon01.bmp-toon10.bmp are reserved, yet fixtures list them) [41].
#[test]
fn texture_paths_kept_verbatim() {
    let paths = [
        "tex\\_10.png",
        "tex/arm.png",
        "./ref.jpg",
        "C:\\abs\\x.bmp",
        "toon01.bmp",
    ];
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    for p in paths {
        b.text(p);
    }
    f.set(2, paths.len() as i32, &b);
    let p = f.read();
    let got: Vec<String> = p
        .textures
        .iter()
        .map(|t| t.to_str().unwrap().into_owned())
        .collect();
    assert_eq!(got, paths);
}

// DESIGN.md (a toon flag decides the layout) [44]: a flag other than 0 or 1 is an error.
#[test]
fn toon_flag_2_is_an_error() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    let at = MaterialRecord {
        toon: T::Raw(2, 0),
        ..zeroed_material(0, 0, 0, 0)
    }
    .write(&mut b);
    f.set(MATERIALS, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "materials[0].toon");
    assert_eq!(e.offset() as usize, f.offset_of(MATERIALS) + 4 + at);
}

// Seeds 000/001/002 (colour field order: diffuse vec4, specular vec3, strength, ambient vec3,
// flags, edge colour vec4, edge size) [51] and 002 (the memo is for scripts) [52].
#[test]
fn material_colour_field_order_and_memo() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    MaterialRecord {
        colours: std::array::from_fn(|k| (k + 1) as f32),
        edge: [12.0, 13.0, 14.0, 15.0, 16.0],
        texture: -1,
        memo: "#script\r\nline",
        ..MaterialRecord::new("m", T::S(0), 0)
    }
    .write(&mut b);
    f.set(MATERIALS, 1, &b);
    let p = f.read();
    let m = &p.materials[0];
    assert_eq!(m.diffuse, [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(m.specular, [5.0, 6.0, 7.0]);
    assert_eq!(m.specular_strength, 8.0);
    assert_eq!(m.ambient, [9.0, 10.0, 11.0]);
    assert_eq!(m.edge_color, [12.0, 13.0, 14.0, 15.0]);
    assert_eq!(m.edge_size, 16.0);
    assert_eq!(m.memo.to_str().as_deref(), Some("#script\r\nline"));
}

// Seeds 000 (0x0100 / 0x0200 → 付与親ボーン(B)+ 付与率), 001 (if (flag & 0x0100) or (flag &
// 0x0200)), 003 [55]: one inherit block when either or both bits are set. Seed 002 (rate)
// and the fixtures [70]: rates below 0 or above 1 and a parent of -1 are kept.
#[test]
fn bone_inherit_block_once_for_both_bits() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "both", [0.0; 3], -1, 0x0300);
    b.f32s(&[0.0; 3]).bi(-1).f32s(&[1.5]);
    bone_head(&mut b, "neg", [0.0; 3], -1, 0x0100);
    b.f32s(&[0.0; 3]).bi(0).f32s(&[-0.5]);
    plain_bone(&mut b, "next", [4.0; 3], -1);
    f.set(BONES, 3, &b);
    let p = f.read();
    let i = p.bones[0].inherit.unwrap();
    assert!(i.parent.is_none());
    assert_eq!(i.weight, 1.5);
    assert_eq!(p.bones[1].inherit.unwrap().weight, -0.5);
    assert_eq!(p.bones[2].position, [4.0; 3]);
}

// Seeds 000 (0x2000 → Key 4バイト), 001 (externalParentKey : int32), 003 (外部親のキー(Int32))
// against 002 (an "index") [56]: four bytes whatever the bone index width.
#[test]
fn external_parent_key_is_4_bytes_at_bone_width_1() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "ext", [0.0; 3], -1, 0x2000);
    b.f32s(&[0.0; 3]).i32(0x0102_0304);
    plain_bone(&mut b, "next", [4.0; 3], -1);
    f.set(BONES, 2, &b);
    let p = f.read();
    assert_eq!(p.bones[0].external_parent, Some(0x0102_0304));
    assert_eq!(p.bones[1].position, [4.0; 3]);
}

// Seeds 001 (if (hasLimit)) and 002 ("When equal to 1") disagree on a limit byte of 2 [60];
// the fixtures only hold 0 and 1. The reader follows seed 001: any byte but 0 means the two
// limits follow (the byte decides the layout, so it is read as 001 states it), and the byte
// is kept as it was.
#[test]
fn ik_has_limit_2_is_kept_or_refused() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    ik_bone(
        &mut b,
        "ik",
        0,
        1,
        1.0,
        &[(0, 2, Some([-1.0, 0.0, 0.0, 1.0, 0.0, 0.0]))],
    );
    f.set(BONES, 1, &b);
    let bytes = f.bytes();
    let p = Pmx::from_bytes(&bytes).unwrap_or_else(|e| panic!("a limit byte of 2: {e}"));
    assert_eq!(p.to_bytes().unwrap(), bytes);
    let link = &p.bones[0].ik.as_ref().unwrap().links[0];
    assert_eq!(link.has_limit, 2);
    assert_eq!(link.limit_min, Some([-1.0, 0.0, 0.0]));
    assert_eq!(link.limit_max, Some([1.0, 0.0, 0.0]));
}

// Seed 003 (付与先が付与元より前の番号にあるボーン: ひじ補助, 右目, 左目) [65]: an inherit source after its
// target reads and is kept.
#[test]
fn inherit_source_may_come_after_target() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "右目", [0.0; 3], -1, 0x0100);
    b.f32s(&[0.0; 3]).bi(1).f32s(&[1.0]);
    plain_bone(&mut b, "両目", [0.0; 3], -1);
    f.set(BONES, 2, &b);
    let p = f.read();
    assert_eq!(p.bones[0].inherit.unwrap().parent.get(), Some(1));
}

// DESIGN.md (a morph type decides the layout) [77]; seed 001 (panel 0-4) [78]; seed 002 (the
// offset count "can be zero") [79].
#[test]
fn morph_type_11_is_an_error_panel_and_empty_offsets_kept() {
    let mut f = F::new(2.1, 0, 0, [1; 6]);
    let mut b = f.b();
    b.text("p").text("").u8(9).u8(1).i32(0);
    b.text("q").text("").u8(255).u8(8).i32(0);
    f.set(MORPHS, 2, &b);
    let p = f.read();
    assert_eq!((p.morphs[0].panel, p.morphs[1].panel), (9, 255));
    assert_eq!(p.morphs[0].offsets, MorphOffsets::Vertex(vec![]));
    assert_eq!(p.morphs[1].offsets, MorphOffsets::Material(vec![]));
    let mut b = f.b();
    b.text("x").text("").u8(0).u8(11).i32(0);
    f.set(MORPHS, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "morphs[0].offsets");
    assert_eq!(e.offset() as usize, f.offset_of(MORPHS) + 4 + 6 + 4 + 1);
}

// DESIGN.md (a target byte decides the layout) [81] and seeds 001/002 (special flag) [82].
#[test]
fn display_frame_target_2_is_an_error_special_flag_kept() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    display_frame(&mut b, "Root", "", 1, &[]);
    display_frame(&mut b, "x", "", 7, &[]);
    f.set(FRAMES, 2, &b);
    let p = f.read();
    assert_eq!(
        (p.display_frames[0].special, p.display_frames[1].special),
        (1, 7)
    );
    let mut b = f.b();
    display_frame(&mut b, "f", "", 0, &[(2, 0)]);
    f.set(FRAMES, 1, &b);
    let e = f.read_err();
    assert_eq!(e.path_string(), "display_frames[0].elements[0]");
}

// Fixture `uml_hair_physics.pmx` (joints with rigid −1) [86] and seed 002 (rigid body index,
// nil −1).
#[test]
fn joint_rigid_minus_one_round_trips() {
    let mut f = F::v20([1, 1, 1, 1, 1, 2]);
    let mut b = f.b();
    b.text("j").text("").u8(0).ri(-1).ri(-1).f32s(&[0.0; 24]);
    f.set(JOINTS, 1, &b);
    let p = f.read();
    assert!(p.joints[0].rigid_a.is_none() && p.joints[0].rigid_b.is_none());
}

// Seed 002 (Anchor: rigid body index, vertex index, near mode; Pin: vertex index) [89] and
// (shape, flags, aero model enums) [90]: the anchors' vertex index is unsigned like every
// vertex index; odd enum values are kept.
#[test]
fn soft_body_anchor_and_pin_layout() {
    let mut f = F::new(2.1, 0, 0, [1, 1, 2, 1, 1, 4]);
    let mut b = f.b();
    b.text("s").text("").u8(7).mi(-1).u8(0).u16(0xffff).u8(0xf8);
    b.i32(0).i32(0).f32s(&[1.0, 0.05]).i32(9);
    b.f32s(&[0.0; 18])
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        .f32s(&[1.0; 3]);
    b.i32(2).ri(70000).vi(0xff).u8(1).ri(-1).vi(0).u8(0);
    b.i32(3).vi(0xff).vi(0x80).vi(0);
    f.soft = Some((1, b.buf.clone()));
    let p = f.read();
    let s = &p.soft_bodies.as_ref().unwrap()[0];
    assert_eq!((s.shape, s.flags.bits(), s.aero_model), (7, 0xf8, 9));
    assert_eq!(s.anchors[0].rigid_body.raw(), 70000);
    assert_eq!(s.anchors[0].vertex, VertexIndex::from_raw(255));
    assert_eq!(s.anchors[0].near_mode, 1);
    assert!(s.anchors[1].rigid_body.is_none());
    assert_eq!(
        s.pins,
        vec![
            VertexIndex::from_raw(255),
            VertexIndex::from_raw(128),
            VertexIndex::from_raw(0)
        ]
    );
    assert_eq!(s.lst, 1.0f32.to_le_bytes());
}

// Fixtures `nanoem_*.pmx` (0 vertices, 17 materials with 0 faces each) [94].
#[test]
fn zero_vertex_model_with_materials_round_trips() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    for _ in 0..3 {
        material(&mut b, "m", T::X(0), 0);
    }
    f.set(MATERIALS, 3, &b);
    let mut b = f.b();
    plain_bone(&mut b, "b", [0.0; 3], -1);
    f.set(BONES, 1, &b);
    let p = f.read();
    assert!(p.vertices.is_empty() && p.faces.is_empty());
    assert_eq!(p.materials.len(), 3);
    assert!(p.materials.iter().all(|m| m.face_count == 0));
}
