//! Large synthetic PMX, PMD and VMD files for the `speed` bench and its tests, built byte
//! by byte from the seed layouts (not with the library's writer), so that the peer
//! readers can read them too.
//!
//! Each file is shaped like a real one and scales as a whole: every section grows in
//! proportion to the size parameter, so a file built with 10x the parameter is about
//! 10x the bytes with the same mix of records. The values are deterministic
//! (a fixed-seed xorshift), every index points at a record that exists, and every text
//! is valid in the file's encoding.
//!
//! - PMX ([`pmx`](crate::synth::pmx)): UTF-16LE, the smallest index widths that fit (as editors choose them),
//!   a BDEF1 / BDEF2 / BDEF4 / SDEF vertex mix, about five face indices per vertex,
//!   textures, materials with shared and texture toons, bones with bone and offset tails,
//!   inherit, fixed-axis, local-axes and IK bones (with and without limits), vertex, UV,
//!   bone, material and group morphs, display frames, rigid bodies and joints.
//! - PMD ([`pmd`](crate::synth::pmd)): every block including the English names, the toon textures, rigid
//!   bodies and joints. PMD's u16 face indices cap it at 65,536 vertices.
//! - VMD ([`vmd`](crate::synth::vmd)): version 2, bone keys over a real bone-name set, morph, camera, light,
//!   self-shadow and IK keys.

use crate::pmx_bytes::{display_frame, MaterialRecord, F, T};

/// A deterministic xorshift64 generator for plausible values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// A value in `[lo, hi)`.
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
    /// An integer in `[0, n)` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// A unit vector.
    fn unit(&mut self) -> [f32; 3] {
        let v = [self.f(-1.0, 1.0), self.f(-1.0, 1.0), self.f(-1.0, 1.0)];
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-6);
        [v[0] / len, v[1] / len, v[2] / len]
    }
}

/// The smallest signed index width for `count` records (PMX non-vertex indices).
fn signed_width(count: usize) -> u8 {
    if count < 128 {
        1
    } else if count < 32768 {
        2
    } else {
        4
    }
}

/// The smallest vertex index width for `count` vertices (unsigned in PMX 2.0 for 1 and 2).
fn vertex_width(count: usize) -> u8 {
    if count < 256 {
        1
    } else if count < 65536 {
        2
    } else {
        4
    }
}

/// Bone names as real models have them, numbered when there are more bones than names.
const BONE_NAMES: [&str; 24] = [
    "センター",
    "上半身",
    "上半身2",
    "首",
    "頭",
    "左肩",
    "左腕",
    "左ひじ",
    "左手首",
    "右肩",
    "右腕",
    "右ひじ",
    "右手首",
    "下半身",
    "左足",
    "左ひざ",
    "左足首",
    "右足",
    "右ひざ",
    "右足首",
    "左足ＩＫ",
    "右足ＩＫ",
    "髪",
    "スカート",
];

/// Morph names as real models have them.
const MORPH_NAMES: [&str; 12] = [
    "まばたき",
    "笑い",
    "あ",
    "い",
    "う",
    "え",
    "お",
    "にやり",
    "困る",
    "怒り",
    "真面目",
    "瞳小",
];

fn bone_name(i: usize) -> String {
    let base = BONE_NAMES[i % BONE_NAMES.len()];
    match i / BONE_NAMES.len() {
        0 => base.to_string(),
        k => format!("{base}{k}"),
    }
}

fn morph_name(i: usize) -> String {
    let base = MORPH_NAMES[i % MORPH_NAMES.len()];
    match i / MORPH_NAMES.len() {
        0 => base.to_string(),
        k => format!("{base}{k}"),
    }
}

/// The record counts of a synthetic PMX with `vertices` vertices (real models have about
/// 5 face indices, 1/130 of a bone and 1/150 of a morph per vertex).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PmxCounts {
    /// Vertices.
    pub vertices: usize,
    /// Face indices (a multiple of 3).
    pub face_indices: usize,
    /// Texture paths.
    pub textures: usize,
    /// Materials.
    pub materials: usize,
    /// Bones.
    pub bones: usize,
    /// Morphs.
    pub morphs: usize,
    /// Display frames.
    pub display_frames: usize,
    /// Rigid bodies.
    pub rigid_bodies: usize,
    /// Joints.
    pub joints: usize,
}

impl PmxCounts {
    /// The counts for `vertices` vertices (at least 64).
    pub fn for_vertices(vertices: usize) -> Self {
        let vertices = vertices.max(64);
        let bones = (vertices / 130).max(24);
        PmxCounts {
            vertices,
            face_indices: (vertices * 5 / 3) * 3,
            textures: 8 + vertices / 10_000,
            materials: (vertices / 2_500).max(4),
            bones,
            morphs: (vertices / 150).max(16),
            display_frames: 2 + bones / 16,
            rigid_bodies: (vertices / 350).max(4),
            joints: (vertices / 350).max(4) - 1,
        }
    }
}

/// A synthetic PMX 2.0 model with `vertices` vertices (and every other section scaled
/// with it, see [`PmxCounts::for_vertices`]).
pub fn pmx(vertices: usize) -> Vec<u8> {
    pmx_with(vertices, true)
}

/// [`pmx`] with a group morph wherever [`pmx`] has a material morph: a file that readers
/// with a broken material-morph layout (pmx_parser 0.2.0 reads each offset 8 bytes short)
/// can still read, so they can be timed.
pub fn pmx_without_material_morphs(vertices: usize) -> Vec<u8> {
    pmx_with(vertices, false)
}

fn pmx_with(vertices: usize, material_morphs: bool) -> Vec<u8> {
    let c = PmxCounts::for_vertices(vertices);
    let w = [
        vertex_width(c.vertices),
        signed_width(c.textures),
        signed_width(c.materials),
        signed_width(c.bones),
        signed_width(c.morphs),
        signed_width(c.rigid_bodies),
    ];
    let mut f = F::new(2.0, 0, 0, w);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    f.set_info_texts([
        "合成モデル",
        "Synthetic model",
        "ベンチマーク用の合成モデルです。\r\n再配布自由。",
        "A synthetic model for benchmarks.\r\nFree to redistribute.",
    ]);

    // Vertices: 40% BDEF1, 35% BDEF2, 20% BDEF4, 5% SDEF.
    let mut b = f.b();
    for i in 0..c.vertices {
        let p = [rng.f(-10.0, 10.0), rng.f(0.0, 20.0), rng.f(-5.0, 5.0)];
        b.f32s(&p)
            .f32s(&rng.unit())
            .f32s(&[rng.f(0.0, 1.0), rng.f(0.0, 1.0)]);
        let bone = |rng: &mut Rng| rng.below(c.bones) as i64;
        match i % 20 {
            0..=7 => {
                b.u8(0).bi(bone(&mut rng));
            }
            8..=14 => {
                b.u8(1).bi(bone(&mut rng)).bi(bone(&mut rng));
                b.f32(rng.f(0.0, 1.0));
            }
            15..=18 => {
                b.u8(2);
                for _ in 0..4 {
                    b.bi(bone(&mut rng));
                }
                b.f32s(&[0.4, 0.3, 0.2, 0.1]);
            }
            _ => {
                b.u8(3).bi(bone(&mut rng)).bi(bone(&mut rng));
                b.f32(rng.f(0.0, 1.0));
                for _ in 0..3 {
                    b.f32s(&[rng.f(-1.0, 1.0), rng.f(0.0, 20.0), rng.f(-1.0, 1.0)]);
                }
            }
        }
        b.f32(1.0);
    }
    f.set(crate::pmx_bytes::VERTICES, c.vertices as i32, &b);

    // Faces: triangles over nearby vertices.
    let mut b = f.b();
    for t in 0..c.face_indices / 3 {
        let v0 = (t * 3 / 5) % c.vertices;
        for k in [0, 1, 2] {
            b.vi(((v0 + k * 7 + rng.below(5)) % c.vertices) as i64);
        }
    }
    f.set(crate::pmx_bytes::FACES, c.face_indices as i32, &b);

    let mut b = f.b();
    for i in 0..c.textures {
        b.text(&format!("tex\\テクスチャ{i:03}.png"));
    }
    f.set(crate::pmx_bytes::TEXTURES, c.textures as i32, &b);

    // Materials split the faces into runs of whole triangles; the last takes the rest.
    let mut b = f.b();
    let triangles = c.face_indices / 3;
    let per = triangles / c.materials;
    for i in 0..c.materials {
        let tris = if i + 1 == c.materials {
            triangles - per * (c.materials - 1)
        } else {
            per
        };
        let name = format!("材質{i}");
        let toon = if i % 2 == 0 {
            T::S((i % 10) as u8)
        } else {
            T::X((i % c.textures) as i64)
        };
        let mut m = MaterialRecord::new(&name, toon, (tris * 3) as i32);
        m.name_en = "material";
        m.texture = (i % c.textures) as i64;
        m.sphere = if i % 3 == 0 {
            ((i + 1) % c.textures) as i64
        } else {
            -1
        };
        m.sphere_mode = if m.sphere >= 0 { 1 } else { 0 };
        m.memo = if i % 4 == 0 { "メモ" } else { "" };
        m.write(&mut b);
    }
    f.set(crate::pmx_bytes::MATERIALS, c.materials as i32, &b);

    // Bones: a chain-ish tree; every 8th bone inherits, every 12th has a fixed axis,
    // every 10th local axes, every 40th is an IK bone over the three bones before it.
    let mut b = f.b();
    for i in 0..c.bones {
        let parent = if i == 0 {
            -1
        } else {
            (i - 1 - rng.below(i.min(4))) as i64
        };
        let pos = [rng.f(-2.0, 2.0), rng.f(0.0, 20.0), rng.f(-2.0, 2.0)];
        let ik = i % 40 == 39;
        let mut flags: u16 = 0x001a; // rotatable, visible, enabled
        if i % 2 == 0 && i + 1 < c.bones {
            flags |= 0x0001; // tail is a bone
        }
        if i % 5 == 0 {
            flags |= 0x0004; // translatable
        }
        if !ik && i % 8 == 7 {
            flags |= 0x0100; // inherit rotation
        }
        if !ik && i % 12 == 11 {
            flags |= 0x0400; // fixed axis
        }
        if !ik && i % 10 == 9 {
            flags |= 0x0800; // local axes
        }
        if ik {
            flags |= 0x0020 | 0x0004;
        }
        crate::pmx_bytes::bone_head(&mut b, &bone_name(i), pos, parent, flags);
        if flags & 0x0001 != 0 {
            b.bi((i + 1) as i64);
        } else {
            b.f32s(&[0.0, 0.5, 0.0]);
        }
        if flags & 0x0100 != 0 {
            b.bi((i - 1) as i64).f32(0.5);
        }
        if flags & 0x0400 != 0 {
            b.f32s(&[1.0, 0.0, 0.0]);
        }
        if flags & 0x0800 != 0 {
            b.f32s(&[1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        }
        if ik {
            b.bi((i - 1) as i64).i32(40).f32(2.0).i32(3);
            for k in 1..=3 {
                b.bi((i - k) as i64);
                if k == 2 {
                    b.u8(1).f32s(&[-3.1, 0.0, 0.0, -0.01, 0.0, 0.0]);
                } else {
                    b.u8(0);
                }
            }
        }
    }
    f.set(crate::pmx_bytes::BONES, c.bones as i32, &b);

    // Morphs: mostly vertex morphs (as in real models), then UV, bone, material, group.
    let mut b = f.b();
    let offsets = 320.min(c.vertices);
    for i in 0..c.morphs {
        b.text(&morph_name(i)).text("morph").u8(1 + (i % 4) as u8);
        match i % 16 {
            0..=10 => {
                b.u8(1).i32(offsets as i32);
                let start = rng.below(c.vertices - offsets + 1);
                for v in start..start + offsets {
                    b.vi(v as i64)
                        .f32s(&[rng.f(-0.1, 0.1), rng.f(-0.1, 0.1), 0.0]);
                }
            }
            11 | 12 => {
                b.u8(3).i32(64);
                for _ in 0..64 {
                    b.vi(rng.below(c.vertices) as i64).f32s(&[
                        rng.f(-0.1, 0.1),
                        rng.f(-0.1, 0.1),
                        0.0,
                        0.0,
                    ]);
                }
            }
            13 => {
                b.u8(2).i32(4);
                for _ in 0..4 {
                    b.bi(rng.below(c.bones) as i64)
                        .f32s(&[0.0, 0.1, 0.0])
                        .f32s(&[0.0, 0.0, 0.0, 1.0]);
                }
            }
            14 if material_morphs => {
                b.u8(8).i32(2);
                for k in 0..2 {
                    b.mi((k % c.materials) as i64).u8(k as u8);
                    b.f32s(&[1.0; 4]).f32s(&[0.0; 3]).f32(0.0).f32s(&[0.0; 3]);
                    b.f32s(&[0.0; 4]).f32(0.0).f32s(&[1.0; 4]).f32s(&[1.0; 4]);
                    b.f32s(&[1.0; 4]);
                }
            }
            _ => {
                b.u8(0).i32(3);
                for k in 1..=3 {
                    b.moi(((i + c.morphs - k) % c.morphs) as i64).f32(0.5);
                }
            }
        }
    }
    f.set(crate::pmx_bytes::MORPHS, c.morphs as i32, &b);

    // Display frames: Root (special) with bone 0, 表情 (special) with every morph, then
    // frames of 16 bones each.
    let mut b = f.b();
    display_frame(&mut b, "Root", "Root", 1, &[(0, 0)]);
    let morph_elems: Vec<(u8, i64)> = (0..c.morphs).map(|m| (1, m as i64)).collect();
    display_frame(&mut b, "表情", "Exp", 1, &morph_elems);
    for k in 0..c.display_frames - 2 {
        let elems: Vec<(u8, i64)> = (k * 16..((k + 1) * 16).min(c.bones))
            .map(|i| (0, i as i64))
            .collect();
        display_frame(&mut b, &format!("枠{k}"), "frame", 0, &elems);
    }
    f.set(crate::pmx_bytes::FRAMES, c.display_frames as i32, &b);

    let mut b = f.b();
    for i in 0..c.rigid_bodies {
        b.text(&format!("剛体{i}")).text("rigid");
        b.bi((i % c.bones) as i64)
            .u8((i % 16) as u8)
            .u16(0xffff ^ (1 << (i % 16)));
        b.u8((i % 3) as u8).f32s(&[0.5, 1.0, 0.5]);
        b.f32s(&[rng.f(-2.0, 2.0), rng.f(0.0, 20.0), 0.0])
            .f32s(&[0.0; 3]);
        b.f32s(&[1.0, 0.5, 0.5, 0.0, 0.5]).u8((i % 3) as u8);
    }
    f.set(crate::pmx_bytes::RIGIDS, c.rigid_bodies as i32, &b);

    let mut b = f.b();
    for i in 0..c.joints {
        b.text(&format!("ジョイント{i}")).text("joint").u8(0);
        b.ri(i as i64).ri((i + 1) as i64);
        b.f32s(&[0.0, rng.f(0.0, 20.0), 0.0]).f32s(&[0.0; 3]);
        b.f32s(&[0.0; 6]).f32s(&[-0.5, -0.5, -0.5, 0.5, 0.5, 0.5]);
        b.f32s(&[0.0; 3]).f32s(&[10.0; 3]);
    }
    f.set(crate::pmx_bytes::JOINTS, c.joints as i32, &b);
    f.bytes()
}

/// `s` in Shift_JIS in a fixed field of `n` bytes: the text, a NUL, zero padding. Panics
/// when the text does not fit (the names here are chosen to fit).
fn sjis(out: &mut Vec<u8>, s: &str, n: usize) {
    let (bytes, _, bad) = encoding_rs::SHIFT_JIS.encode(s);
    assert!(
        !bad && bytes.len() < n,
        "{s:?} does not fit {n} Shift_JIS bytes"
    );
    out.extend_from_slice(&bytes);
    out.resize(out.len() + n - bytes.len(), 0);
}

fn f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The record counts of a synthetic PMD with `vertices` vertices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PmdCounts {
    /// Vertices (at most 65,536).
    pub vertices: usize,
    /// Face indices (a multiple of 3).
    pub face_indices: usize,
    /// Materials.
    pub materials: usize,
    /// Bones.
    pub bones: usize,
    /// IK chains.
    pub ik_chains: usize,
    /// Morphs, the base morph included.
    pub morphs: usize,
    /// Base-morph elements.
    pub base_elements: usize,
    /// Elements of each other morph (a run of base elements).
    pub morph_elements: usize,
    /// Bone frame names.
    pub frames: usize,
    /// Rigid bodies.
    pub rigid_bodies: usize,
    /// Joints.
    pub joints: usize,
}

impl PmdCounts {
    /// The counts for `vertices` vertices (clamped to 64..=65,536).
    pub fn for_vertices(vertices: usize) -> Self {
        let vertices = vertices.clamp(64, 65_536);
        let bones = (vertices / 130).max(24);
        let rigid_bodies = (vertices / 330).max(4);
        PmdCounts {
            vertices,
            face_indices: (vertices * 5 / 3) * 3,
            materials: (vertices / 2_500).max(4),
            bones,
            ik_chains: bones / 40 + 1,
            morphs: (vertices / 160).max(12),
            base_elements: (vertices / 8).max(8),
            morph_elements: (vertices / 8).clamp(8, 200),
            frames: (bones / 16 + 1).min(255),
            rigid_bodies,
            joints: rigid_bodies - 1,
        }
    }
}

/// A synthetic PMD model with `vertices` vertices (clamped to 64..=65,536), with every
/// block: English names, toon textures, rigid bodies and joints.
pub fn pmd(vertices: usize) -> Vec<u8> {
    let c = PmdCounts::for_vertices(vertices);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut o = b"Pmd".to_vec();
    f32s(&mut o, &[1.0]);
    sjis(&mut o, "合成モデル", 20);
    sjis(&mut o, "ベンチマーク用の合成モデルです。", 256);

    u32le(&mut o, c.vertices as u32);
    for _ in 0..c.vertices {
        f32s(
            &mut o,
            &[rng.f(-10.0, 10.0), rng.f(0.0, 20.0), rng.f(-5.0, 5.0)],
        );
        f32s(&mut o, &rng.unit());
        f32s(&mut o, &[rng.f(0.0, 1.0), rng.f(0.0, 1.0)]);
        u16le(&mut o, rng.below(c.bones) as u16);
        u16le(&mut o, rng.below(c.bones) as u16);
        o.push(rng.below(101) as u8);
        o.push((rng.below(8) == 0) as u8);
    }

    u32le(&mut o, c.face_indices as u32);
    for t in 0..c.face_indices / 3 {
        let v0 = (t * 3 / 5) % c.vertices;
        for k in [0, 1, 2] {
            u16le(&mut o, ((v0 + k * 7 + rng.below(5)) % c.vertices) as u16);
        }
    }

    u32le(&mut o, c.materials as u32);
    let triangles = c.face_indices / 3;
    let per = triangles / c.materials;
    for i in 0..c.materials {
        let tris = if i + 1 == c.materials {
            triangles - per * (c.materials - 1)
        } else {
            per
        };
        f32s(
            &mut o,
            &[0.8, 0.6, 0.4, 1.0, 5.0, 0.1, 0.1, 0.1, 0.4, 0.3, 0.2],
        );
        o.push(if i % 3 == 0 { 255 } else { (i % 10) as u8 });
        o.push((i % 2) as u8);
        u32le(&mut o, (tris * 3) as u32);
        let tex = match i % 3 {
            0 => String::new(),
            1 => format!("tex{i}.bmp"),
            _ => format!("tex{i}.bmp*s{i}.spa"),
        };
        sjis(&mut o, &tex, 20);
    }

    // Bones: parents before children; the last bones of each 40 are IK bones.
    u16le(&mut o, c.bones as u16);
    for i in 0..c.bones {
        sjis(&mut o, &bone_name(i), 20);
        let parent = if i == 0 { 0xffff } else { (i - 1) as u16 };
        u16le(&mut o, parent);
        u16le(&mut o, if i + 1 < c.bones { (i + 1) as u16 } else { 0 });
        let ik = i % 40 == 39;
        o.push(if ik { 2 } else { [0, 1, 4, 5][i % 4] });
        u16le(&mut o, 0);
        f32s(
            &mut o,
            &[rng.f(-2.0, 2.0), rng.f(0.0, 20.0), rng.f(-2.0, 2.0)],
        );
    }

    u16le(&mut o, c.ik_chains as u16);
    for k in 0..c.ik_chains {
        let ik_bone = (k * 40 + 39).min(c.bones - 1);
        u16le(&mut o, ik_bone as u16);
        u16le(&mut o, ik_bone.saturating_sub(1) as u16);
        o.push(2);
        u16le(&mut o, 40);
        f32s(&mut o, &[0.5]);
        u16le(&mut o, ik_bone.saturating_sub(2) as u16);
        u16le(&mut o, ik_bone.saturating_sub(3) as u16);
    }

    // Morphs: the base morph lists vertices; each other morph moves a run of base
    // elements, by index into the base.
    u16le(&mut o, c.morphs as u16);
    sjis(&mut o, "base", 20);
    u32le(&mut o, c.base_elements as u32);
    o.push(0);
    for e in 0..c.base_elements {
        u32le(&mut o, ((e * 8) % c.vertices) as u32);
        f32s(&mut o, &[rng.f(-10.0, 10.0), rng.f(0.0, 20.0), 0.0]);
    }
    let moved = c.morph_elements;
    for m in 1..c.morphs {
        sjis(&mut o, &morph_name(m - 1), 20);
        u32le(&mut o, moved as u32);
        o.push(1 + (m % 4) as u8);
        let start = rng.below(c.base_elements - moved + 1);
        for e in start..start + moved {
            u32le(&mut o, e as u32);
            f32s(&mut o, &[rng.f(-0.1, 0.1), rng.f(-0.1, 0.1), 0.0]);
        }
    }

    // The morph display list holds at most 255 entries (a u8 count).
    let listed = (c.morphs - 1).min(255);
    o.push(listed as u8);
    for m in 1..=listed {
        u16le(&mut o, m as u16);
    }
    o.push(c.frames as u8);
    for k in 0..c.frames {
        sjis(&mut o, &format!("枠{k}\n"), 50);
    }
    let shown = c.bones - 1;
    u32le(&mut o, shown as u32);
    for i in 1..=shown {
        u16le(&mut o, i as u16);
        o.push((1 + (i - 1) % c.frames) as u8);
    }

    // English names.
    o.push(1);
    sjis(&mut o, "Synthetic model", 20);
    sjis(&mut o, "A synthetic model for benchmarks.", 256);
    for i in 0..c.bones {
        sjis(&mut o, &format!("bone{i}"), 20);
    }
    for m in 1..c.morphs {
        sjis(&mut o, &format!("morph{m}"), 20);
    }
    for k in 0..c.frames {
        sjis(&mut o, &format!("frame{k}"), 50);
    }

    for t in 1..=10 {
        sjis(&mut o, &format!("toon{t:02}.bmp"), 100);
    }

    u32le(&mut o, c.rigid_bodies as u32);
    for i in 0..c.rigid_bodies {
        sjis(&mut o, &format!("剛体{i}"), 20);
        u16le(&mut o, (i % c.bones) as u16);
        o.push((i % 16) as u8);
        u16le(&mut o, 0xffff ^ (1 << (i % 16)));
        o.push((i % 3) as u8);
        f32s(
            &mut o,
            &[0.5, 1.0, 0.5, rng.f(-2.0, 2.0), rng.f(0.0, 20.0), 0.0],
        );
        f32s(&mut o, &[0.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.0, 0.5]);
        o.push((i % 3) as u8);
    }
    u32le(&mut o, c.joints as u32);
    for i in 0..c.joints {
        sjis(&mut o, &format!("ジョイント{i}"), 20);
        u32le(&mut o, i as u32);
        u32le(&mut o, (i + 1) as u32);
        f32s(&mut o, &[0.0, rng.f(0.0, 20.0), 0.0, 0.0, 0.0, 0.0]);
        f32s(&mut o, &[0.0; 6]);
        f32s(&mut o, &[-0.5, -0.5, -0.5, 0.5, 0.5, 0.5]);
        f32s(&mut o, &[0.0, 0.0, 0.0, 10.0, 10.0, 10.0]);
    }
    o
}

/// The record counts of a synthetic VMD with `bone_keys` bone keys.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VmdCounts {
    /// Bone keys.
    pub bone_keys: usize,
    /// Morph keys.
    pub morph_keys: usize,
    /// Camera keys.
    pub camera_keys: usize,
    /// Light keys.
    pub light_keys: usize,
    /// Self-shadow keys.
    pub self_shadow_keys: usize,
    /// IK / show keys (8 IK states each).
    pub show_ik_keys: usize,
}

impl VmdCounts {
    /// The counts for `bone_keys` bone keys (at least 100).
    pub fn for_bone_keys(bone_keys: usize) -> Self {
        let bone_keys = bone_keys.max(100);
        VmdCounts {
            bone_keys,
            morph_keys: bone_keys / 20,
            camera_keys: bone_keys / 500,
            light_keys: bone_keys / 5_000 + 1,
            self_shadow_keys: bone_keys / 5_000 + 1,
            show_ik_keys: bone_keys / 2_000 + 1,
        }
    }
}

/// The 64 interpolation bytes of a bone key as MMD writes them: the 16 curve bytes, then
/// three copies each shifted by one more byte.
fn bone_interpolation(rng: &mut Rng) -> [u8; 64] {
    let mut row = [0u8; 16];
    for (i, b) in row.iter_mut().enumerate() {
        *b = if i < 8 { 20 } else { 107 } + rng.below(8) as u8;
    }
    let mut out = [0u8; 64];
    for r in 0..4 {
        for j in 0..16 {
            out[r * 16 + j] = row.get(j + r).copied().unwrap_or(0);
        }
    }
    out
}

/// A synthetic version 2 VMD motion with `bone_keys` bone keys (at least 100), and morph,
/// camera, light, self-shadow and IK keys in proportion (see [`VmdCounts::for_bone_keys`]).
pub fn vmd(bone_keys: usize) -> Vec<u8> {
    let c = VmdCounts::for_bone_keys(bone_keys);
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut o = b"Vocaloid Motion Data 0002".to_vec();
    o.resize(30, 0);
    sjis(&mut o, "初音ミク", 20);

    // Bone keys: 130 bones, as a real motion has; frames advance every 130 keys.
    u32le(&mut o, c.bone_keys as u32);
    for k in 0..c.bone_keys {
        sjis(&mut o, &bone_name(k % 130), 15);
        u32le(&mut o, (k / 130 * 3) as u32);
        f32s(
            &mut o,
            &[rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)],
        );
        let q = rng.unit();
        f32s(&mut o, &[q[0] * 0.3, q[1] * 0.3, q[2] * 0.3, 0.9]);
        o.extend_from_slice(&bone_interpolation(&mut rng));
    }
    u32le(&mut o, c.morph_keys as u32);
    for k in 0..c.morph_keys {
        sjis(&mut o, &morph_name(k % 45), 15);
        u32le(&mut o, (k / 45 * 2) as u32);
        f32s(&mut o, &[rng.f(0.0, 1.0)]);
    }
    u32le(&mut o, c.camera_keys as u32);
    for k in 0..c.camera_keys {
        u32le(&mut o, (k * 10) as u32);
        f32s(
            &mut o,
            &[
                -45.0,
                0.0,
                10.0,
                0.0,
                rng.f(-0.5, 0.5),
                rng.f(-3.0, 3.0),
                0.0,
            ],
        );
        for i in 0..24 {
            o.push(if i % 4 < 2 { 20 } else { 107 });
        }
        u32le(&mut o, 30);
        o.push(0);
    }
    u32le(&mut o, c.light_keys as u32);
    for k in 0..c.light_keys {
        u32le(&mut o, (k * 100) as u32);
        f32s(&mut o, &[0.6, 0.6, 0.6, -0.5, -1.0, 0.5]);
    }
    u32le(&mut o, c.self_shadow_keys as u32);
    for k in 0..c.self_shadow_keys {
        u32le(&mut o, (k * 100) as u32);
        o.push(1);
        f32s(&mut o, &[0.01]);
    }
    u32le(&mut o, c.show_ik_keys as u32);
    for k in 0..c.show_ik_keys {
        u32le(&mut o, (k * 60) as u32);
        o.push(1);
        u32le(&mut o, 8);
        for i in 0..8 {
            sjis(&mut o, &bone_name(20 + i % 2), 20);
            o.push(((k + i) % 3 != 0) as u8);
        }
    }
    o
}
