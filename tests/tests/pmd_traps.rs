//! PMD traps: one test per trap in the layout notes, each on a file built here by hand
//! from the byte layout (not with the library's writer) and, where a fixture shows the
//! trap, on that fixture too (the values asserted were checked against the research walk
//! of every fixture).

use mmd_formats::pmd::*;
use mmd_formats::{ErrorKind, ShiftJis};
use mmd_tests::assert_bytes_eq;

// ---------------------------------------------------------------------------------------
// A hand byte builder, written from the layout notes.
// ---------------------------------------------------------------------------------------

#[derive(Default, Clone)]
struct B(Vec<u8>);

impl B {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }
    fn f32s(&mut self, v: &[f32]) -> &mut Self {
        for x in v {
            self.raw(&x.to_le_bytes());
        }
        self
    }
    fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.0.extend_from_slice(v);
        self
    }
    /// A fixed field of `n` bytes: `bytes`, then `fill` to the end.
    fn name(&mut self, n: usize, bytes: &[u8], fill: u8) -> &mut Self {
        assert!(bytes.len() <= n);
        self.raw(bytes);
        for _ in bytes.len()..n {
            self.u8(fill);
        }
        self
    }
}

/// Shift_JIS bytes of `s` (encoded by the library's Shift_JIS field type, which is
/// not under test here: only the layout around the bytes is).
fn sjis(s: &str) -> Vec<u8> {
    ShiftJis::<256>::new(s).unwrap().name_bytes().to_vec()
}

/// `s` in Shift_JIS and a NUL (the fill is added by `B::name`).
fn z(s: &str) -> Vec<u8> {
    let mut v = sjis(s);
    v.push(0);
    v
}

/// The header: `Pmd`, version 1.0, name, comment.
fn header(b: &mut B) {
    b.raw(b"Pmd").raw(&[0x00, 0x00, 0x80, 0x3F]);
    b.name(20, &z("model"), 0xFD)
        .name(256, &z("comment\n"), 0xFD);
}

/// A 39-byte bone record.
fn bone(b: &mut B, name: &[u8], parent: u16, tail: u16, ty: u8, ik_parent: u16) {
    b.name(20, name, 0xFD)
        .u16(parent)
        .u16(tail)
        .u8(ty)
        .u16(ik_parent);
    b.f32s(&[0.0, 1.0, 0.0]);
}

/// A morph record: name, element count, type, elements.
fn morph(b: &mut B, name: &str, ty: u8, elements: &[(u32, [f32; 3])]) {
    b.name(20, &z(name), 0xFD).u32(elements.len() as u32).u8(ty);
    for (i, p) in elements {
        b.u32(*i).f32s(p);
    }
}

/// What the base sections of a hand-built file hold.
#[derive(Default)]
struct Base {
    /// Vertex records (38 bytes each).
    vertices: Vec<Vec<u8>>,
    faces: Vec<u16>,
    /// Material records (70 bytes each).
    materials: Vec<Vec<u8>>,
    /// Bone records (39 bytes each).
    bones: Vec<Vec<u8>>,
    /// Morph records.
    morphs: Vec<Vec<u8>>,
    morph_display: Vec<u16>,
    /// 50-byte frame names.
    frames: Vec<Vec<u8>>,
    bone_display: Vec<(u16, u8)>,
}

impl Base {
    fn bytes(&self) -> B {
        let mut b = B::default();
        header(&mut b);
        b.u32(self.vertices.len() as u32);
        self.vertices.iter().for_each(|v| {
            b.raw(v);
        });
        b.u32(self.faces.len() as u32);
        self.faces.iter().for_each(|f| {
            b.u16(*f);
        });
        b.u32(self.materials.len() as u32);
        self.materials.iter().for_each(|m| {
            b.raw(m);
        });
        b.u16(self.bones.len() as u16);
        self.bones.iter().for_each(|x| {
            b.raw(x);
        });
        b.u16(0); // IK chains
        b.u16(self.morphs.len() as u16);
        self.morphs.iter().for_each(|x| {
            b.raw(x);
        });
        b.u8(self.morph_display.len() as u8);
        self.morph_display.iter().for_each(|x| {
            b.u16(*x);
        });
        b.u8(self.frames.len() as u8);
        self.frames.iter().for_each(|x| {
            b.raw(x);
        });
        b.u32(self.bone_display.len() as u32);
        for (bone, frame) in &self.bone_display {
            b.u16(*bone).u8(*frame);
        }
        b
    }

    /// Two bones, three morphs (base, eye, lip), one frame.
    fn small() -> Base {
        let mut base = Base::default();
        for (name, parent, tail, ty) in [("センター", 0xFFFF, 1, 1), ("頭", 0, 0, 0)] {
            let mut b = B::default();
            bone(&mut b, &z(name), parent, tail, ty, 0);
            base.bones.push(b.0);
        }
        for (name, ty, els) in [
            ("base", 0, vec![(0, [0.0, 0.0, 0.0]), (1, [1.0, 0.0, 0.0])]),
            ("まばたき", 2, vec![(1, [0.0, -0.1, 0.0])]),
            ("あ", 3, vec![(0, [0.0, 0.0, 0.2])]),
        ] {
            let mut b = B::default();
            morph(&mut b, name, ty, &els);
            base.morphs.push(b.0);
        }
        base.morph_display = vec![1, 2];
        let mut f = B::default();
        f.name(50, &z("センター\n"), 0xFD);
        base.frames.push(f.0);
        base.bone_display = vec![(1, 1)];
        base
    }
}

/// English names for `bones` bones, `morph_names` morph names and `frames` frames.
fn english(b: &mut B, bones: usize, morph_names: usize, frames: usize) {
    b.u8(1)
        .name(20, &z("Model"), 0xFD)
        .name(256, &z("Comment"), 0xFD);
    for i in 0..bones {
        b.name(20, &z(&format!("bone{i}")), 0xFD);
    }
    for i in 0..morph_names {
        b.name(20, &z(&format!("morph{}", i + 1)), 0xFD);
    }
    for i in 0..frames {
        b.name(50, &z(&format!("frame{i}")), 0xFD);
    }
}

/// The toon block: toon01.bmp … toon10.bmp, NUL, 0xFD fill.
fn toon(b: &mut B) {
    for i in 1..=10 {
        b.name(100, &z(&format!("toon{i:02}.bmp")), 0xFD);
    }
}

/// An 83-byte rigid body record.
fn rigid(b: &mut B, name: &[u8], bone: u16) {
    b.name(20, name, 0xFD).u16(bone).u8(0).u16(0xFFFF).u8(0);
    b.f32s(&[1.0; 3]).f32s(&[0.0; 3]).f32s(&[0.0; 3]);
    b.f32s(&[1.0, 0.5, 0.5, 0.0, 0.5]).u8(0);
}

/// Reads `bytes`, checks that they write back exactly, and returns the model.
#[track_caller]
fn read_exact(bytes: &[u8]) -> Pmd {
    let m = Pmd::from_bytes(bytes).unwrap_or_else(|e| panic!("read: {e}"));
    assert_bytes_eq(&m.to_bytes().unwrap(), bytes, "round trip");
    m
}

/// The fixture `pmd/<name>.pmd`, read and checked to write back exactly. `None` without
/// the corpus; a failure when the corpus is there but the file is not.
fn fixture(name: &str) -> Option<Pmd> {
    let bytes = mmd_tests::fixture(&format!("pmd/{name}.pmd"))?;
    Some(read_exact(&bytes))
}

// ---------------------------------------------------------------------------------------
// The traps.
// ---------------------------------------------------------------------------------------

/// Trap 1: the bytes after a name's NUL are kept, whatever they are.
#[test]
fn name_junk_after_nul_kept() {
    let mut base = Base::small();
    let mut leftover = z("頭");
    leftover.extend(b"Y_0\0");
    let mut b = B::default();
    bone(&mut b, &leftover, 0, 0, 0, 0);
    base.bones[1] = b.0;
    let m = read_exact(&base.bytes().0);
    let name = &m.bones[1].name;
    assert_eq!(name.decode(), "頭");
    assert_eq!(&name.junk()[..4], b"Y_0\0");
    assert!(name.junk()[4..].iter().all(|&x| x == 0xFD));
    // A real file: 17 rigid-body names and 16 joint names with leftovers after the NUL.
    if let Some(m) = fixture("miku_v2") {
        let odd = |j: &[u8]| j.iter().any(|&x| x != 0 && x != 0xFD);
        let rb = m.rigid_bodies.as_ref().unwrap();
        assert_eq!(rb.iter().filter(|r| odd(r.name.junk())).count(), 17);
        assert_eq!(
            rb[0].name.0[..7],
            [0x93, 0xAA, 0x00, b'Y', b'_', b'0', 0x00]
        );
        let joints = m.joints.as_ref().unwrap();
        assert_eq!(joints.iter().filter(|r| odd(r.name.junk())).count(), 16);
    }
}

/// Trap 1: all-zero fill, NUL NUL then 0xFD, and an empty name with 0xFD fill all write
/// back as they were.
#[test]
fn name_fill_variants_kept() {
    let mut base = Base::small();
    let mut m1 = B::default();
    m1.name(20, b"", 0x00);
    let mut m2 = B::default();
    m2.name(20, b"u_body2\0\0", 0xFD);
    let mut m3 = B::default();
    m3.name(20, b"\0", 0xFD);
    for (i, name) in [m1.0, m2.0, m3.0].into_iter().enumerate() {
        let mut b = B::default();
        bone(&mut b, &name, 0, 0, 0, 0);
        if i < 2 {
            base.bones[i] = b.0;
        } else {
            base.bones.push(b.0);
        }
    }
    let m = read_exact(&base.bytes().0);
    assert_eq!(m.bones[0].name.0, [0; 20]);
    assert_eq!(m.bones[1].name.decode(), "u_body2");
    assert_eq!(m.bones[1].name.junk()[0], 0);
    assert_eq!(m.bones[2].name.decode(), "");
    assert!(m.bones[2].name.junk().iter().all(|&x| x == 0xFD));
    if let Some(m) = fixture("miku_hatsune") {
        let rb = m.rigid_bodies.as_ref().unwrap();
        assert_eq!(&rb[1].name.0[..11], b"u_body1\0\0y\0");
        assert_eq!(&rb[2].name.0[..10], b"u_body2\0\0\xFD");
    }
}

/// Trap 2: a name may use all 19 content bytes and the NUL, or all 20 bytes with no NUL,
/// and may end in the first half of a two-byte character.
#[test]
fn names_may_fill_the_field() {
    let mut base = Base::small();
    let mut cut = b"x".to_vec();
    for _ in 0..9 {
        cut.extend(sjis("あ"));
    }
    cut.push(0x82); // a lead byte cut by the end of the field
    assert_eq!(cut.len(), 20);
    for (i, name) in [
        b"abcdefghijklmnopqrs\0".to_vec(),
        b"abcdefghijklmnopqrst".to_vec(),
    ]
    .into_iter()
    .enumerate()
    {
        let mut b = B::default();
        bone(&mut b, &name, 0, 0, 0, 0);
        base.bones[i] = b.0;
    }
    let mut b = B::default();
    bone(&mut b, &cut, 0, 0, 0, 0);
    base.bones.push(b.0);
    let m = read_exact(&base.bytes().0);
    assert_eq!(m.bones[0].name.decode(), "abcdefghijklmnopqrs");
    assert_eq!(m.bones[1].name.decode(), "abcdefghijklmnopqrst");
    assert!(m.bones[1].name.junk().is_empty());
    assert_eq!(m.bones[2].name.decode(), "xあああああああああ");
    assert_eq!(m.bones[2].name.name_bytes().len(), 20);
    // A real file: gene's English model name is 19 bytes and the NUL.
    if let Some(m) = fixture("gene") {
        let en = m.english_names().unwrap();
        assert_eq!(&en.model_name.0, b"CHMSgeneric.model.v\0");
    }
}

/// Trap 3: 0x81 0x60 decodes differently under Shift_JIS and cp932; the raw bytes are
/// what is kept and written.
#[test]
fn cp932_wave_dash_kept_raw() {
    let mut base = Base::small();
    let mut name = sjis("ﾎﾞｰﾝ02");
    name.extend([0x81, 0x60, 0x00]);
    let mut f = B::default();
    f.name(50, &name, 0xFD);
    base.frames[0] = f.0;
    let m = read_exact(&base.bytes().0);
    assert_eq!(m.frame_names[0].name_bytes(), &name[..name.len() - 1]);
    if let Some(m) = fixture("dummy_bone") {
        let frame = m.frame_names[0].name_bytes();
        assert_eq!(frame, [0xCE, 0xDE, 0xB0, 0xDD, b'0', b'2', 0x81, 0x60]);
    }
}

/// Trap 4: the English morph names are one fewer than the morphs: the base (index 0) has
/// none, and entry i names morph i + 1.
#[test]
fn english_morph_names_exclude_base_morph() {
    let base = Base::small();
    let mut b = base.bytes();
    english(&mut b, 2, 2, 1);
    let m = read_exact(&b.0);
    let en = m.english_names().unwrap();
    assert_eq!(en.morph_names.len(), 2);
    assert_eq!(m.english_morph_name(0), None);
    assert_eq!(m.english_morph_name(1).unwrap().decode(), "morph1");
    assert_eq!(m.english_morph_name(2).unwrap().decode(), "morph2");
    // One name per morph (3) leaves 20 bytes nothing accounts for: the toon block that
    // would follow is cut short, and the read fails.
    let mut wrong = base.bytes();
    english(&mut wrong, 2, 3, 1);
    let e = Pmd::from_bytes(&wrong.0).unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert!(e.path_string().starts_with("toon_textures"), "{e}");
}

/// Trap 4: with no morphs there are no English morph names (not -1 of them), and with
/// the base morph alone none either.
#[test]
fn english_morph_names_with_no_morphs_are_empty() {
    for morphs in [0, 1] {
        let mut base = Base::small();
        base.morphs.truncate(morphs);
        base.morph_display.clear();
        let mut b = base.bytes();
        english(&mut b, 2, 0, 1);
        toon(&mut b);
        let m = read_exact(&b.0);
        assert_eq!(m.morphs.len(), morphs);
        assert!(m.english_names().unwrap().morph_names.is_empty());
        assert!(m.toon_textures.is_some());
    }
}

/// Trap 4: only index 0 is the base: a later morph of type 0 is an ordinary morph, with
/// an English name of its own.
#[test]
fn second_base_type_morph_is_not_skipped() {
    let mut base = Base::small();
    let mut b = B::default();
    morph(&mut b, "頂点モーフ0.75", 0, &[(1, [0.01, 0.0, 0.0])]);
    base.morphs.push(b.0);
    let mut bytes = base.bytes();
    english(&mut bytes, 2, 3, 1);
    let m = read_exact(&bytes.0);
    assert_eq!(m.morphs[3].kind(), MorphKind::Base);
    assert_eq!(m.english_morph_name(3).unwrap().decode(), "morph3");
    if let Some(m) = fixture("mmdagent_glasses") {
        let type0: Vec<usize> = (0..m.morphs.len())
            .filter(|&i| m.morphs[i].morph_type == 0)
            .collect();
        assert_eq!(type0, [0, 7, 8]);
        assert_eq!(m.english_names().unwrap().morph_names.len(), 17);
        assert_eq!(m.english_morph_name(7).unwrap().decode(), "V_Morph0.75");
        assert_eq!(m.english_morph_name(8).unwrap().decode(), "V_Morph1.25");
        assert!(!m.morph_display.contains(&7) && !m.morph_display.contains(&0));
    }
}

/// A file that ends before a block and one that has it with a count of 0 are different
/// files; each reads as what it is and writes back as it was.
#[test]
fn extensions_absent_differs_from_present_empty() {
    let mut b = Base::small().bytes();
    english(&mut b, 2, 2, 1);
    toon(&mut b);
    let absent = b.0.clone();
    b.u32(0).u32(0);
    let empty = b.0;
    assert_eq!(empty.len(), absent.len() + 8);
    let a = read_exact(&absent);
    let e = read_exact(&empty);
    assert_eq!((a.rigid_bodies.clone(), a.joints.clone()), (None, None));
    assert_eq!((e.rigid_bodies, e.joints), (Some(vec![]), Some(vec![])));
    // Nothing may be written after an absent block.
    let mut bad = a;
    bad.joints = Some(vec![]);
    let err = bad.to_bytes().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Inconsistent { .. }),
        "{err}"
    );
    assert_eq!(err.path_string(), "joints");
    if let (Some(d), Some(boot)) = (fixture("dummy_bone"), fixture("mmdagent_bootscreen")) {
        assert_eq!((d.rigid_bodies, d.joints), (None, None));
        assert_eq!(
            (boot.rigid_bodies, boot.joints),
            (Some(vec![]), Some(vec![]))
        );
    }
}

/// Trap 5: an English flag of 0 is still followed by the toon block and the physics.
#[test]
fn english_flag_zero_still_has_toon_and_physics() {
    let mut b = Base::small().bytes();
    b.u8(0);
    toon(&mut b);
    b.u32(1);
    rigid(&mut b, &z("body"), 0);
    b.u32(0);
    let m = read_exact(&b.0);
    assert_eq!(m.english.as_ref().map(|e| e.flag), Some(0));
    assert!(m.english_names().is_none());
    assert_eq!(m.toon_textures.unwrap().names[9].decode(), "toon10.bmp");
    assert_eq!(m.rigid_bodies.unwrap()[0].name.decode(), "body");
    if let Some(m) = fixture("rainbow_stage") {
        let s = m.summary();
        assert_eq!(s.english_flag, Some(0));
        assert!(s.toon_textures);
        assert_eq!((s.rigid_bodies, s.joints), (Some(0), Some(0)));
    }
}

/// Trap 6: a bone tail of 0 means "no tail" in files (never 0xFFFF); the raw 0 is kept.
#[test]
fn bone_tail_zero_means_none() {
    let mut base = Base::small();
    let mut b = B::default();
    bone(&mut b, &z("先"), 1, 0xFFFF, 7, 0);
    base.bones.push(b.0);
    let m = read_exact(&base.bytes().0);
    assert_eq!((m.bones[0].tail, m.bones[0].tail_index()), (1, Some(1)));
    assert_eq!((m.bones[1].tail, m.bones[1].tail_index()), (0, None));
    assert_eq!((m.bones[2].tail, m.bones[2].tail_index()), (0xFFFF, None));
    if let Some(m) = fixture("mei") {
        assert!(m.bones.iter().all(|b| b.tail != 0xFFFF));
        let ends = m.bones.iter().filter(|b| b.kind() == BoneKind::Invisible);
        assert!(ends.clone().count() > 0);
        assert!(ends.into_iter().all(|b| b.tail_index().is_none()));
    }
}

/// Trap 6: for a follow-rotate bone (type 9) `ik_parent` is a signed percentage.
#[test]
fn follow_rotate_coefficient_is_signed() {
    let mut base = Base::small();
    for v in [65436u16, 50] {
        let mut b = B::default();
        bone(&mut b, &z("捩"), 0, 0, 9, v);
        base.bones.push(b.0);
    }
    let mut b = B::default();
    bone(&mut b, &z("ひざ"), 0, 0, 4, 0); // type 4 with ik_parent 0 (as in mei)
    base.bones.push(b.0);
    let m = read_exact(&base.bytes().0);
    assert_eq!(m.bones[2].ik_parent, 65436);
    assert_eq!(m.bones[2].co_rotation_percent(), Some(-100));
    assert_eq!(m.bones[3].co_rotation_percent(), Some(50));
    assert_eq!(m.bones[4].kind(), BoneKind::UnderIk);
    assert_eq!(
        (m.bones[4].ik_parent, m.bones[4].co_rotation_percent()),
        (0, None)
    );
    if let Some(m) = fixture("mmdagent_glasses") {
        let neg: Vec<i16> = m
            .bones
            .iter()
            .filter_map(|b| b.co_rotation_percent())
            .filter(|&c| c < 0)
            .collect();
        assert_eq!(neg, [-100]);
    }
}

/// Every bone type byte has a view, and unknown ones are kept.
#[test]
fn bone_types_kept_with_views() {
    let mut base = Base::small();
    for ty in 0..=11u8 {
        let mut b = B::default();
        bone(&mut b, &z("b"), 0, 0, ty, 0);
        base.bones.push(b.0);
    }
    let m = read_exact(&base.bytes().0);
    for ty in 0..=11u8 {
        let kind = m.bones[2 + ty as usize].kind();
        assert_eq!(kind.to_byte(), ty);
        assert_eq!(matches!(kind, BoneKind::Other(_)), ty > 10);
    }
    assert_eq!(m.bones[2 + 9].kind(), BoneKind::FollowRotate);
    assert_eq!(m.bones[0].parent_index(), None);
    assert_eq!(m.bones[1].parent_index(), Some(0));
}

/// Trap 7: vertex edge flag 1 = no edge; material edge flag 1 = edge.
#[test]
fn vertex_and_material_edge_flags_are_opposite() {
    let mut base = Base::default();
    for edge in [0u8, 1] {
        let mut v = B::default();
        v.f32s(&[0.0; 8]).u16(0).u16(0).u8(100).u8(edge);
        assert_eq!(v.0.len(), 38);
        base.vertices.push(v.0);
        let mut mt = B::default();
        mt.f32s(&[1.0; 4])
            .f32s(&[5.0])
            .f32s(&[0.0; 6])
            .u8(0)
            .u8(edge)
            .u32(0);
        mt.name(20, b"", 0);
        assert_eq!(mt.0.len(), 70);
        base.materials.push(mt.0);
    }
    let m = read_exact(&base.bytes().0);
    assert!(m.vertices[0].draws_edge() && !m.vertices[1].draws_edge());
    assert!(!m.materials[0].draws_edge() && m.materials[1].draws_edge());
    assert_eq!(m.vertices[0].bone_weights(), [1.0, 0.0]);
}

/// Trap 8: the face count and a material's face_vertex_count count indices, not triangles.
#[test]
fn face_counts_count_indices_not_triangles() {
    let mut base = Base {
        faces: vec![0, 1, 2, 2, 1, 3],
        ..Base::default()
    };
    let mut mt = B::default();
    mt.f32s(&[1.0; 4])
        .f32s(&[5.0])
        .f32s(&[0.0; 6])
        .u8(255)
        .u8(0)
        .u32(6);
    mt.name(20, &z("a.bmp"), 0xFD);
    base.materials.push(mt.0);
    let bytes = base.bytes().0;
    // The count right after the empty vertex list: 6, and 12 bytes of indices follow.
    assert_eq!(bytes[287..291], [6, 0, 0, 0]);
    let m = read_exact(&bytes);
    assert_eq!(m.faces.len(), 6);
    assert_eq!(m.triangles().count(), 2);
    assert_eq!(m.material_ranges(), vec![0..6]);
    if let Some(m) = fixture("gene") {
        let sum: u64 = m
            .materials
            .iter()
            .map(|x| u64::from(x.face_vertex_count))
            .sum();
        assert_eq!(sum, m.faces.len() as u64);
        assert_eq!(m.faces.len(), 141318);
    }
}

/// Trap 9: morph 0's elements index the model's vertices; every other morph's index the
/// base morph's element list.
#[test]
fn morph_indices_are_base_relative() {
    let mut base = Base::small();
    let mut b = B::default();
    morph(&mut b, "base", 0, &[(5, [0.0; 3]), (2, [1.0, 0.0, 0.0])]);
    base.morphs[0] = b.0;
    let m = read_exact(&base.bytes().0);
    assert_eq!(m.morph_vertex(0, 0), Some(5));
    assert_eq!(
        m.morph_vertex(1, 0),
        Some(2),
        "まばたき element 0 -> base element 1"
    );
    assert_eq!(
        m.morph_vertex(2, 0),
        Some(5),
        "あ element 0 -> base element 0"
    );
    if let Some(m) = fixture("mei") {
        let base = m.base_morph().unwrap();
        for e in &base.elements {
            let v = &m.vertices[e.index as usize];
            assert_eq!(v.position.map(f32::to_bits), e.position.map(f32::to_bits));
        }
        for (i, morph) in m.morphs.iter().enumerate().skip(1) {
            for e in 0..morph.elements.len() {
                let v = m.morph_vertex(i, e).expect("base-relative index in range");
                assert!((v as usize) < m.vertices.len());
            }
        }
    }
}

/// Trap 10: float bits are copied, -0.0 and NaN payloads included.
#[test]
fn negative_zero_and_float_bits_kept() {
    let mut base = Base::default();
    let mut v = B::default();
    v.raw(&0x8000_0000u32.to_le_bytes())
        .raw(&0x7FC0_0001u32.to_le_bytes());
    v.raw(&0x0000_0001u32.to_le_bytes())
        .f32s(&[0.0; 5])
        .u16(0)
        .u16(0)
        .u8(0)
        .u8(0);
    base.vertices.push(v.0);
    let m = read_exact(&base.bytes().0);
    let bits = m.vertices[0].position.map(f32::to_bits);
    assert_eq!(bits, [0x8000_0000, 0x7FC0_0001, 0x0000_0001]);
}

/// Trap 11: counts have different widths (u32, u16, u8), and a list longer than its
/// count's width is a write error, not a silently cut file.
#[test]
fn count_widths_differ() {
    let base = Base::small();
    let bytes = base.bytes().0;
    let m = read_exact(&bytes);
    // Bone count: 2 bytes right after the (empty) materials.
    assert_eq!(bytes[283..295], [0; 12]);
    assert_eq!(bytes[295..297], [2, 0]);
    let mut too_many = m.clone();
    too_many.frame_names = vec![ShiftJis::default(); 256];
    let e = too_many.to_bytes().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Inconsistent { .. }), "{e}");
    assert_eq!(e.path_string(), "frame_names");
    let mut fits = m;
    fits.frame_names = vec![ShiftJis::default(); 255];
    let out = fits.to_bytes().unwrap();
    assert_eq!(Pmd::from_bytes(&out).unwrap().frame_names.len(), 255);
}

/// Trap 11: the frame of a bone display entry is 1-based.
#[test]
fn bone_display_frame_is_one_based() {
    let mut base = Base::small();
    base.bone_display = vec![(1, 1), (0, 0)];
    let m = read_exact(&base.bytes().0);
    assert_eq!(m.bone_display[0].frame_index(), Some(0));
    assert_eq!(
        m.frame_names[m.bone_display[0].frame_index().unwrap()].decode(),
        "センター\n"
    );
    assert_eq!(m.bone_display[1].frame_index(), None);
}

/// Trap 12: bone frame names end in LF inside the field; it is part of the name.
#[test]
fn frame_names_keep_trailing_lf() {
    let m = read_exact(&Base::small().bytes().0);
    assert_eq!(m.frame_names[0].name_bytes().last(), Some(&b'\n'));
    if let Some(m) = fixture("sd_mei") {
        assert_eq!(m.frame_names.len(), 8);
        assert!(m
            .frame_names
            .iter()
            .all(|f| f.name_bytes().last() == Some(&b'\n')));
        let en = m.english_names().unwrap();
        assert!(en
            .frame_names
            .iter()
            .all(|f| !f.name_bytes().contains(&b'\n')));
    }
}

/// Trap 13: the version is a float32 (1.0 is 00 00 80 3F), kept as read; the signature
/// is three bytes.
#[test]
fn version_is_a_float_after_a_three_byte_magic() {
    let mut bytes = Base::default().bytes().0;
    assert_eq!(bytes[3..7], [0x00, 0x00, 0x80, 0x3F]);
    assert_eq!(read_exact(&bytes).header.version, 1.0);
    bytes[3..7].copy_from_slice(&0x3F80_0001u32.to_le_bytes());
    assert_eq!(read_exact(&bytes).header.version.to_bits(), 0x3F80_0001);
    bytes[..3].copy_from_slice(b"PMD");
    let e = Pmd::from_bytes(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert_eq!((e.offset(), e.path_string().as_str()), (0, "header.magic"));
}

/// A rigid body's bone 0xFFFF means none.
#[test]
fn rigid_body_bone_ffff_is_none() {
    let mut b = Base::small().bytes();
    english(&mut b, 2, 2, 1);
    toon(&mut b);
    b.u32(2);
    rigid(&mut b, &z("skirt"), 0xFFFF);
    rigid(&mut b, &z("head"), 1);
    b.u32(0);
    let m = read_exact(&b.0);
    let rb = m.rigid_bodies.unwrap();
    assert_eq!((rb[0].bone, rb[0].bone_index()), (0xFFFF, None));
    assert_eq!(rb[1].bone_index(), Some(1));
    assert_eq!(rb[0].shape_kind(), RigidShape::Sphere);
    if let Some(m) = fixture("miku_hatsune") {
        let none: Vec<String> = m
            .rigid_bodies
            .unwrap()
            .iter()
            .filter(|r| r.bone_index().is_none())
            .map(|r| r.name.decode().into_owned())
            .collect();
        assert_eq!(
            none,
            ["f_skirt2_R", "f_skirt2_L", "b_skirt2_R", "b_skirt2_L"]
        );
    }
}

/// Toon index 255 means none; 0-9 pick an entry of the toon block.
#[test]
fn toon_index_255_is_none() {
    let mut base = Base::default();
    for t in [255u8, 1, 10] {
        let mut mt = B::default();
        mt.f32s(&[1.0; 4])
            .f32s(&[5.0])
            .f32s(&[0.0; 6])
            .u8(t)
            .u8(0)
            .u32(0);
        mt.name(20, b"", 0);
        base.materials.push(mt.0);
    }
    let mut b = base.bytes();
    b.u8(0);
    toon(&mut b);
    let m = read_exact(&b.0);
    assert_eq!(m.materials[0].toon_slot(), None);
    assert_eq!(m.toon_texture(&m.materials[0]), None);
    assert_eq!(
        m.toon_texture(&m.materials[1]).unwrap().decode(),
        "toon02.bmp"
    );
    assert_eq!(m.materials[2].toon_slot(), Some(10));
    assert_eq!(m.toon_texture(&m.materials[2]), None, "past the ten slots");
}

/// The texture field holds `texture*sphere`; `*` separates them.
#[test]
fn texture_and_sphere_split_at_star() {
    let mut base = Base::default();
    for name in ["mfgl1.png*metal.sph", "tex.bmp", "env.SPA", "", "*s.sph"] {
        let mut mt = B::default();
        mt.f32s(&[1.0; 4])
            .f32s(&[5.0])
            .f32s(&[0.0; 6])
            .u8(0)
            .u8(0)
            .u32(0);
        mt.name(20, &z(name), 0xFD);
        base.materials.push(mt.0);
    }
    let m = read_exact(&base.bytes().0);
    let parts: Vec<(Option<String>, Option<String>)> = m
        .materials
        .iter()
        .map(|x| {
            let t = x.texture_files();
            (
                t.texture_name().map(Into::into),
                t.sphere_name().map(Into::into),
            )
        })
        .collect();
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        parts,
        [
            (s("mfgl1.png"), s("metal.sph")),
            (s("tex.bmp"), None),
            (None, s("env.SPA")),
            (None, None),
            (None, s("s.sph")),
        ]
    );
    assert!(m.materials[2].texture_files().sphere_is_additive());
    assert!(!m.materials[0].texture_files().sphere_is_additive());
}

/// The English lists are sized by the section counts: writing a model whose lists
/// disagree with them fails at the list, rather than writing a file that reads back
/// differently.
#[test]
fn english_lists_must_match_section_counts_on_write() {
    let mut b = Base::small().bytes();
    english(&mut b, 2, 2, 1);
    let mut m = read_exact(&b.0);
    let extra = m.bones[1];
    m.bones.push(extra);
    let e = m.to_bytes().unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Inconsistent { .. }), "{e}");
    assert_eq!(e.path_string(), "english.names.bone_names");
    let en = m.english.as_mut().and_then(|e| e.names.as_mut()).unwrap();
    en.bone_names.push(ShiftJis::new("bone2").unwrap());
    let back = read_exact(&m.to_bytes().unwrap());
    assert_eq!(back, m);
}

/// The stored counts that are not next to their lists (IK link count, morph element
/// count) must match them on write.
#[test]
fn stored_counts_must_match_their_lists_on_write() {
    let mut m = read_exact(&Base::small().bytes().0);
    m.morphs[1].elements.clear();
    let e = m.to_bytes().unwrap_err();
    assert_eq!(e.path_string(), "morphs[1].elements");
    m.morphs[1].element_count = 0;
    m.ik_chains.push(IkChain::new(0, 1, 10, 0.5, vec![1]));
    m.ik_chains[0].links.push(0);
    let e = m.to_bytes().unwrap_err();
    assert_eq!(e.path_string(), "ik_chains[0].links");
    m.ik_chains[0].link_count = 2;
    let back = Pmd::from_bytes(&m.to_bytes().unwrap()).unwrap();
    assert_eq!(back.ik_chains[0].links, [1, 0]);
    assert!(back.morphs[1].elements.is_empty());
}

/// A cut inside an extension is an error at the field it cuts, with its offset.
#[test]
fn cut_extension_is_an_error_with_its_path() {
    let mut b = Base::small().bytes();
    b.u8(0);
    let toon_at = b.0.len();
    toon(&mut b);
    let cut = &b.0[..toon_at + 350];
    let e = Pmd::from_bytes(cut).unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.offset(), (toon_at + 300) as u64);
    assert_eq!(e.path_string(), "toon_textures.names[3]");
}

/// A count larger than the bytes left is rejected before anything is allocated.
#[test]
fn huge_count_rejected_before_allocating() {
    let mut bytes = Base::default().bytes().0;
    bytes[283..287].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = Pmd::from_bytes(&bytes).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::CountTooLarge {
                count: 0xFFFF_FFFF,
                min_record_size: 38,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!((e.offset(), e.path_string().as_str()), (283, "vertices"));
    let mut b = Base::small().bytes();
    b.u8(1).name(20, b"", 0).name(256, b"", 0);
    b.u8(0xFF); // the first English bone name is cut after one byte
    let e = Pmd::from_bytes(&b.0).unwrap_err();
    assert!(
        e.is_truncated() || matches!(e.kind(), ErrorKind::CountTooLarge { .. }),
        "{e}"
    );
    assert_eq!(e.path_string(), "english.names.bone_names");
}
