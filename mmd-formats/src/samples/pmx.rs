//! PMX samples, built in code as [`Pmx`] values and serialised with [`Pmx::to_bytes`].
//!
//! Together they cover every branch of the PMX grammar:
//!
//! * index widths 1, 2 and 4 for every kind, each at its boundary values (vertex 255 at
//!   width 1 and 65535 at width 2, unsigned; the signed kinds -1 and their maximum, 127 at
//!   width 1, 32767 at width 2, `i32::MAX` at width 4), and a model whose six kinds all have
//!   different widths;
//! * UTF-16LE and UTF-8 text, with a surrogate pair (U+1F600), and raw text that does not
//!   decode (unpaired surrogates, an odd UTF-16 byte length, invalid UTF-8);
//! * additional UV counts 0, 1, 2 and 4;
//! * every weight type (BDEF1/2/4, SDEF, QDEF, the last also in a 2.0 file);
//! * every material flag bit (the 2.1 bits 5-7 included), sphere modes 0-3 and 255, both
//!   toon branches (shared toon 0, 9 and 255; texture index -1 and the maximum);
//! * every bone flag block (tail index and tail offset, inherit rotation and translation,
//!   fixed axis, local axes, external parent, IK with links with and without limits and
//!   with no links), the flags with no block, unknown flag bits (0x0040, 0x4000, 0x8000),
//!   and a parent that comes after its child;
//! * every morph type 0-10, display frames with bone and morph elements, rigid bodies of
//!   every shape and mode, joints of types 0-5;
//! * PMX 2.1 with soft bodies (anchors, pins), with a soft-body count of 0, and with no
//!   soft-body section at all; PMX 2.0 (no soft-body section);
//! * a globals count of 10 (two extra bytes kept), trailing bytes after the last section
//!   (2.0 and 2.1), and a model whose every section has a count of 0.
//!
//! Index values are not checked against the section sizes by the format (nor by the
//! reader), so boundary values appear whatever the number of records.
//!
//! A sample that fails to serialise is left out rather than panicking; the test suite
//! checks the list of names, so a missing sample fails there.

use crate::index::{
    BoneIndex, MaterialIndex, MorphIndex, RigidBodyIndex, TextureIndex, VertexIndex,
};
use crate::pmx::*;
use crate::text::{PmxText, TextEncoding};

/// The largest value a signed index (texture, material, bone, morph, rigid body) can hold
/// at width `w`.
fn signed_max(w: u8) -> i32 {
    match w {
        1 => i8::MAX as i32,
        2 => i16::MAX as i32,
        _ => i32::MAX,
    }
}

/// The largest value a vertex index can hold at width `w` (unsigned at 1 and 2 bytes,
/// `i32` at 4).
fn vertex_max(w: u8) -> u32 {
    match w {
        1 => u8::MAX as u32,
        2 => u16::MAX as u32,
        _ => i32::MAX as u32,
    }
}

/// Index helpers for one context: boundary values per kind at the context's widths.
struct Ix {
    widths: [u8; 6],
}

impl Ix {
    fn new(ctx: &PmxContext) -> Self {
        Ix { widths: ctx.widths() }
    }
    fn v(&self, i: u32) -> VertexIndex {
        VertexIndex(i)
    }
    fn v_max(&self) -> VertexIndex {
        VertexIndex(vertex_max(self.widths[0]))
    }
    fn t(&self, i: i32) -> TextureIndex {
        TextureIndex::from_raw(i)
    }
    fn t_max(&self) -> TextureIndex {
        TextureIndex::from_raw(signed_max(self.widths[1]))
    }
    fn m(&self, i: i32) -> MaterialIndex {
        MaterialIndex::from_raw(i)
    }
    fn m_max(&self) -> MaterialIndex {
        MaterialIndex::from_raw(signed_max(self.widths[2]))
    }
    fn b(&self, i: i32) -> BoneIndex {
        BoneIndex::from_raw(i)
    }
    fn b_max(&self) -> BoneIndex {
        BoneIndex::from_raw(signed_max(self.widths[3]))
    }
    fn mo(&self, i: i32) -> MorphIndex {
        MorphIndex::from_raw(i)
    }
    fn mo_max(&self) -> MorphIndex {
        MorphIndex::from_raw(signed_max(self.widths[4]))
    }
    fn r(&self, i: i32) -> RigidBodyIndex {
        RigidBodyIndex::from_raw(i)
    }
    fn r_max(&self) -> RigidBodyIndex {
        RigidBodyIndex::from_raw(signed_max(self.widths[5]))
    }
}

/// A context with the given version, encoding, additional UV count and widths.
fn context(version: f32, encoding: TextEncoding, additional_uv: u8, widths: [u8; 6]) -> PmxContext {
    PmxContext::new(version, encoding, additional_uv, widths)
}

/// A model with every section empty and empty names.
fn empty(ctx: &PmxContext) -> Pmx {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Pmx {
        header: Header::new(ctx),
        model: ModelInfo {
            name: t(""),
            name_en: t(""),
            comment: t(""),
            comment_en: t(""),
        },
        vertices: vec![],
        faces: vec![],
        textures: vec![],
        materials: vec![],
        bones: vec![],
        morphs: vec![],
        display_frames: vec![],
        rigid_bodies: vec![],
        joints: vec![],
        soft_bodies: if ctx.is_v21() { Some(vec![]) } else { None },
        trailing: vec![],
    }
}

/// One vertex with the given weight; the additional UVs follow the context.
fn vertex(ctx: &PmxContext, n: f32, weight: Weight) -> Vertex {
    Vertex {
        position: [n, n * 2.0, -n],
        normal: [0.0, 0.0, -1.0],
        uv: [n / 8.0, 1.0 - n / 8.0],
        additional_uv: (0..ctx.additional_uv)
            .map(|k| [n, k as f32, 0.5, 1.0])
            .collect(),
        weight,
        edge_scale: 1.0,
    }
}

/// One material; `textures` are the texture and the sphere texture.
fn material(
    ctx: &PmxContext,
    name: &str,
    flags: u8,
    [texture, sphere_texture]: [TextureIndex; 2],
    sphere_mode: u8,
    toon: Toon,
    face_count: i32,
) -> Material {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Material {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        diffuse: [0.8, 0.7, 0.6, 0.5],
        specular: [0.1, 0.2, 0.3],
        specular_strength: 5.0,
        ambient: [0.4, 0.35, 0.3],
        flags: MaterialFlags(flags),
        edge_color: [0.0, 0.0, 0.0, 1.0],
        edge_size: 1.0,
        texture,
        sphere_texture,
        sphere_mode,
        toon,
        memo: t("memo\r\n"),
        face_count,
    }
}

/// A bone with no optional blocks and an offset tail; callers set flags and blocks.
fn bone(ctx: &PmxContext, name: &str, position: [f32; 3], parent: BoneIndex) -> Bone {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Bone {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        position,
        parent,
        layer: 0,
        flags: BoneFlags::ROTATABLE | BoneFlags::VISIBLE | BoneFlags::ENABLED,
        tail: BoneTail::Offset([0.0, 1.0, 0.0]),
        inherit: None,
        fixed_axis: None,
        local_axes: None,
        external_parent: None,
        ik: None,
    }
}

/// A morph.
fn morph(ctx: &PmxContext, name: &str, panel: u8, offsets: MorphOffsets) -> Morph {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Morph {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        panel,
        offsets,
    }
}

/// A material-morph offset.
fn material_offset(material: MaterialIndex, operation: u8, k: f32) -> MaterialOffset {
    MaterialOffset {
        material,
        operation,
        diffuse: [k, k, k, 1.0],
        specular: [k, 0.0, 0.0],
        specular_strength: k * 10.0,
        ambient: [0.0, k, 0.0],
        edge_color: [0.0, 0.0, k, 1.0],
        edge_size: k,
        texture_tint: [1.0, 1.0, 1.0, k],
        sphere_tint: [1.0, 1.0, k, 1.0],
        toon_tint: [1.0, k, 1.0, 1.0],
    }
}

/// A rigid body.
fn rigid_body(
    ctx: &PmxContext,
    name: &str,
    bone: BoneIndex,
    group: u8,
    mask: u16,
    shape: u8,
    mode: u8,
) -> RigidBody {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    RigidBody {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        bone,
        group,
        no_collision_mask: mask,
        shape,
        size: [0.5, 1.0, 1.5],
        position: [0.0, 10.0, 0.0],
        rotation: [0.0, std::f32::consts::FRAC_PI_2, 0.0],
        mass: 1.0,
        linear_damping: 0.5,
        angular_damping: 0.5,
        restitution: 0.0,
        friction: 0.5,
        mode,
    }
}

/// A joint of the given type.
fn joint(
    ctx: &PmxContext,
    name: &str,
    kind: u8,
    rigid_a: RigidBodyIndex,
    rigid_b: RigidBodyIndex,
) -> Joint {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    let k = kind as f32;
    Joint {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        kind,
        rigid_a,
        rigid_b,
        position: [k, 11.0, 0.0],
        rotation: [0.0, 0.0, k / 10.0],
        translation_min: [-k, -1.0, -1.0],
        translation_max: [k, 1.0, 1.0],
        rotation_min: [-0.5, -0.25, -0.125],
        rotation_max: [0.5, 0.25, 0.125],
        spring_translation: [k * 100.0, 0.0, 0.0],
        spring_rotation: [0.0, k * 10.0, 0.0],
    }
}

/// A soft body.
fn soft_body(
    ctx: &PmxContext,
    name: &str,
    shape: u8,
    material: MaterialIndex,
    anchors: Vec<SoftBodyAnchor>,
    pins: Vec<VertexIndex>,
) -> SoftBody {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    SoftBody {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        shape,
        material,
        group: 3,
        no_collision_mask: 0xfff7,
        flags: SoftBodyFlags(0x07),
        b_link_distance: 2,
        cluster_count: 4,
        total_mass: 1.5,
        collision_margin: 0.05,
        aero_model: 1,
        vcf: 1.0,
        dp: 0.1,
        dg: 0.2,
        lf: 0.3,
        pr: 0.4,
        vc: 0.5,
        df: 0.6,
        mt: 0.7,
        chr: 0.8,
        khr: 0.9,
        shr: 1.0,
        ahr: 0.75,
        srhr_cl: 0.11,
        skhr_cl: 0.12,
        sshr_cl: 0.13,
        sr_splt_cl: 0.21,
        sk_splt_cl: 0.22,
        ss_splt_cl: 0.23,
        v_it: 1,
        p_it: 2,
        d_it: 3,
        c_it: 4,
        // LST as an int (seed 002), AST as a float (other readers), VST with both bytes
        // patterns possible: the bytes are stored, whatever they mean.
        lst: 1i32.to_le_bytes(),
        ast: 0.5f32.to_le_bytes(),
        vst: [0x12, 0x34, 0x56, 0x78],
        anchors,
        pins,
    }
}

/// The full model for `ctx`: every section used, every branch taken, boundary index
/// values at the context's widths. With `v21` false, only PMX 2.0 features are used (no
/// QDEF, no flip or impulse morphs, joints of type 0 only, no 2.1 material flags).
fn full(ctx: &PmxContext, v21: bool) -> Pmx {
    let ix = Ix::new(ctx);
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    let mut pmx = empty(ctx);
    pmx.model = ModelInfo {
        name: t("サンプル\u{1F600}"),
        name_en: t("sample model"),
        comment: t("コメント\r\n二行目 \u{1F600}"),
        comment_en: t("comment\r\nsecond line"),
    };

    // Vertices: every weight type, bone indices at their boundary values.
    let mut vertices = vec![
        vertex(ctx, 0.0, Weight::Bdef1 { bone: ix.b(0) }),
        vertex(
            ctx,
            1.0,
            Weight::Bdef2 {
                bones: [ix.b(0), ix.b_max()],
                weight: 0.25,
            },
        ),
        vertex(
            ctx,
            2.0,
            Weight::Bdef4 {
                bones: [ix.b(0), ix.b(1), ix.b(-1), ix.b_max()],
                // Not summing to 1: kept as stored.
                weights: [0.5, 0.25, 0.125, 0.0625],
            },
        ),
        vertex(
            ctx,
            3.0,
            Weight::Sdef {
                bones: [ix.b(1), ix.b(0)],
                weight: 0.75,
                c: [0.0, 12.5, 0.25],
                r0: [0.0, 12.0, 0.5],
                r1: [0.0, 13.0, -0.5],
            },
        ),
        vertex(ctx, 4.0, Weight::Bdef1 { bone: ix.b(-1) }),
    ];
    if v21 {
        vertices.push(vertex(
            ctx,
            5.0,
            Weight::Qdef {
                bones: [ix.b_max(), ix.b(2), ix.b(1), ix.b(0)],
                weights: [0.25, 0.25, 0.25, 0.25],
            },
        ));
    }
    // A normal that is not unit length, a negative zero and a subnormal: kept bit for bit.
    if let Some(v) = vertices.get_mut(4) {
        v.normal = [0.0, -0.0, 2.0];
        v.edge_scale = f32::from_bits(1);
    }
    pmx.vertices = vertices;

    // Faces: three triangles; the last uses the largest vertex index of the width.
    pmx.faces = vec![
        ix.v(0),
        ix.v(1),
        ix.v(2),
        ix.v(2),
        ix.v(3),
        ix.v(4),
        ix.v(0),
        ix.v_max(),
        ix.v(1),
    ];

    pmx.textures = vec![t("tex\\body.png"), t("sphere.spa"), t("toon\\toon_a.bmp")];

    // Materials: face counts 3 + 3 + 3 + 0 + 0 = 9, the length of the face list. Flags:
    // 0x15 and 0x0a together set every 2.0 bit (0x01-0x10); 0xe0 the 2.1 bits; 0xff all.
    let flags_21 = if v21 { 0xe0 } else { 0x00 };
    let flags_all = if v21 { 0xff } else { 0x1f };
    pmx.materials = vec![
        material(ctx, "肌", 0x15, [ix.t(0), ix.t(-1)], 0, Toon::Shared(0), 3),
        material(
            ctx,
            "髪",
            0x0a,
            [ix.t_max(), ix.t(1)],
            1,
            Toon::Texture(ix.t_max()),
            3,
        ),
        material(
            ctx,
            "服",
            flags_21,
            [ix.t(-1), ix.t(1)],
            2,
            Toon::Texture(ix.t(-1)),
            3,
        ),
        material(
            ctx,
            "目",
            flags_all,
            [ix.t(0), ix.t(1)],
            3,
            Toon::Shared(9),
            0,
        ),
        // Sphere mode 255 occurs in a real file; shared toon 255 (-1 as a byte) too (seed 002).
        material(
            ctx,
            "影",
            0x00,
            [ix.t(2), ix.t(-1)],
            255,
            Toon::Shared(255),
            0,
        ),
    ];

    // Bones.
    let mut bones = Vec::new();
    // 0: root, tail is a bone.
    let mut b = bone(ctx, "センター", [0.0, 8.0, 0.0], ix.b(-1));
    b.flags = b.flags | BoneFlags::TAIL_IS_BONE | BoneFlags::TRANSLATABLE;
    b.tail = BoneTail::Bone(ix.b(1));
    bones.push(b);
    // 1: its parent (bone 2) comes after it.
    let mut b = bone(ctx, "上半身", [0.0, 10.0, 0.0], ix.b(2));
    b.layer = 1;
    bones.push(b);
    // 2: inherit rotation, tail bone -1.
    let mut b = bone(ctx, "腰", [0.0, 9.0, 0.0], ix.b(0));
    b.flags = b.flags | BoneFlags::TAIL_IS_BONE | BoneFlags::INHERIT_ROTATION;
    b.tail = BoneTail::Bone(ix.b(-1));
    b.inherit = Some(Inherit {
        parent: ix.b(1),
        weight: 0.5,
    });
    bones.push(b);
    // 3: inherit translation (local), negative weight.
    let mut b = bone(ctx, "付与", [1.0, 9.0, 0.0], ix.b(2));
    b.flags = b.flags | BoneFlags::INHERIT_TRANSLATION | BoneFlags::INHERIT_LOCAL;
    b.inherit = Some(Inherit {
        parent: ix.b_max(),
        weight: -1.0,
    });
    bones.push(b);
    // 4: fixed axis.
    let mut b = bone(ctx, "捩", [2.0, 12.0, 0.0], ix.b(1));
    b.flags = b.flags | BoneFlags::FIXED_AXIS;
    b.fixed_axis = Some([0.8, -0.6, 0.0]);
    bones.push(b);
    // 5: local axes.
    let mut b = bone(ctx, "腕", [3.0, 12.0, 0.0], ix.b(1));
    b.flags = b.flags | BoneFlags::LOCAL_AXES;
    b.local_axes = Some(LocalAxes {
        x: [1.0, 0.0, 0.0],
        z: [0.0, 0.0, 1.0],
    });
    bones.push(b);
    // 6: external parent, deform after physics.
    let mut b = bone(ctx, "外親", [0.0, 0.0, 0.0], ix.b(-1));
    b.flags = b.flags | BoneFlags::EXTERNAL_PARENT | BoneFlags::PHYSICS_AFTER_DEFORM;
    b.external_parent = Some(7);
    b.layer = 2;
    bones.push(b);
    // 7: IK with one limited and one unlimited link.
    let mut b = bone(ctx, "足ＩＫ", [1.0, 1.0, 0.0], ix.b(0));
    b.flags = b.flags | BoneFlags::IK | BoneFlags::TRANSLATABLE;
    b.ik = Some(Ik {
        target: ix.b(4),
        loop_count: 40,
        limit_angle: 2.0,
        links: vec![
            IkLink {
                bone: ix.b(5),
                has_limit: 1,
                limit_min: Some([-std::f32::consts::PI, 0.0, 0.0]),
                limit_max: Some([-0.008_726_646, 0.0, 0.0]),
            },
            IkLink {
                bone: ix.b(1),
                has_limit: 0,
                limit_min: None,
                limit_max: None,
            },
        ],
    });
    bones.push(b);
    // 8: every block at once, plus unknown bits 0x0040, 0x4000 and 0x8000.
    let mut b = bone(ctx, "全部", [0.5, 0.5, 0.5], ix.b_max());
    b.flags = BoneFlags(0xffff);
    b.tail = BoneTail::Bone(ix.b_max());
    b.inherit = Some(Inherit {
        parent: ix.b(-1),
        weight: 1.0,
    });
    b.fixed_axis = Some([0.0, 1.0, 0.0]);
    b.local_axes = Some(LocalAxes {
        x: [0.0, 1.0, 0.0],
        z: [1.0, 0.0, 0.0],
    });
    b.external_parent = Some(-1);
    b.ik = Some(Ik {
        target: ix.b_max(),
        loop_count: 3,
        limit_angle: 1.0,
        links: vec![IkLink {
            bone: ix.b(-1),
            has_limit: 1,
            limit_min: Some([-1.0, -2.0, -3.0]),
            limit_max: Some([1.0, 2.0, 3.0]),
        }],
    });
    bones.push(b);
    // 9: IK with no links; no flag at all besides IK.
    let mut b = bone(ctx, "空IK", [0.0, 2.0, 0.0], ix.b(7));
    b.flags = BoneFlags::IK;
    b.ik = Some(Ik {
        target: ix.b(-1),
        loop_count: 0,
        limit_angle: 0.0,
        links: vec![],
    });
    bones.push(b);
    pmx.bones = bones;

    // Morphs: every type (9 and 10 only in 2.1 models).
    let mut morphs = vec![
        morph(
            ctx,
            "グループ",
            4,
            MorphOffsets::Group(vec![
                GroupOffset {
                    morph: ix.mo(1),
                    weight: 0.5,
                },
                GroupOffset {
                    morph: ix.mo(-1),
                    weight: 1.0,
                },
                GroupOffset {
                    morph: ix.mo_max(),
                    weight: -0.25,
                },
            ]),
        ),
        morph(
            ctx,
            "あ",
            3,
            MorphOffsets::Vertex(vec![
                VertexOffset {
                    vertex: ix.v(0),
                    offset: [0.0, 0.1, 0.0],
                },
                VertexOffset {
                    vertex: ix.v_max(),
                    offset: [0.0, -0.1, 0.0],
                },
            ]),
        ),
        morph(
            ctx,
            "ボーン",
            4,
            MorphOffsets::Bone(vec![
                BoneOffset {
                    bone: ix.b(0),
                    translation: [0.0, 1.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                },
                BoneOffset {
                    bone: ix.b_max(),
                    translation: [0.0, 0.0, 0.0],
                    rotation: [0.0, 0.707_106_77, 0.0, 0.707_106_77],
                },
            ]),
        ),
        morph(
            ctx,
            "UV",
            4,
            MorphOffsets::Uv(vec![UvOffset {
                vertex: ix.v(1),
                offset: [0.1, 0.2, 0.0, 0.0],
            }]),
        ),
        morph(
            ctx,
            "追加UV1",
            4,
            MorphOffsets::AdditionalUv1(vec![UvOffset {
                vertex: ix.v_max(),
                offset: [1.0, 2.0, 3.0, 4.0],
            }]),
        ),
        morph(
            ctx,
            "追加UV2",
            4,
            MorphOffsets::AdditionalUv2(vec![
                UvOffset {
                    vertex: ix.v(0),
                    offset: [0.5, 0.5, 0.5, 0.5],
                },
                UvOffset {
                    vertex: ix.v(2),
                    offset: [-0.5, -0.5, -0.5, -0.5],
                },
            ]),
        ),
        morph(ctx, "追加UV3", 4, MorphOffsets::AdditionalUv3(vec![])),
        morph(
            ctx,
            "追加UV4",
            4,
            MorphOffsets::AdditionalUv4(vec![UvOffset {
                vertex: ix.v(3),
                offset: [0.0, 0.0, 0.0, 1.0],
            }]),
        ),
        morph(
            ctx,
            "材質",
            0,
            MorphOffsets::Material(vec![
                material_offset(ix.m(-1), 0, 0.5),
                material_offset(ix.m_max(), 1, 0.25),
            ]),
        ),
    ];
    if v21 {
        morphs.push(morph(
            ctx,
            "フリップ",
            4,
            MorphOffsets::Flip(vec![
                GroupOffset {
                    morph: ix.mo(0),
                    weight: 1.0,
                },
                GroupOffset {
                    morph: ix.mo_max(),
                    weight: 0.0,
                },
            ]),
        ));
        morphs.push(morph(
            ctx,
            "インパルス",
            4,
            MorphOffsets::Impulse(vec![
                ImpulseOffset {
                    rigid_body: ix.r(0),
                    local: 1,
                    velocity: [0.0, 5.0, 0.0],
                    torque: [0.0, 0.0, 1.0],
                },
                ImpulseOffset {
                    rigid_body: ix.r_max(),
                    local: 0,
                    velocity: [1.0, 0.0, 0.0],
                    torque: [0.0, 0.0, 0.0],
                },
            ]),
        ));
    }
    pmx.morphs = morphs;

    pmx.display_frames = vec![
        DisplayFrame {
            name: t("Root"),
            name_en: t("Root"),
            special: 1,
            elements: vec![FrameElement::Bone(ix.b(0))],
        },
        DisplayFrame {
            name: t("表情"),
            name_en: t("Exp"),
            special: 1,
            elements: vec![
                FrameElement::Morph(ix.mo(0)),
                FrameElement::Morph(ix.mo_max()),
            ],
        },
        DisplayFrame {
            name: t("混在"),
            name_en: t("mixed"),
            special: 0,
            elements: vec![
                FrameElement::Bone(ix.b_max()),
                FrameElement::Morph(ix.mo(-1)),
                FrameElement::Bone(ix.b(-1)),
                FrameElement::Morph(ix.mo(1)),
            ],
        },
        DisplayFrame {
            name: t("空"),
            name_en: t(""),
            special: 0,
            elements: vec![],
        },
    ];

    pmx.rigid_bodies = vec![
        rigid_body(ctx, "頭", ix.b(1), 0, 0xffff, 0, 0),
        rigid_body(ctx, "髪", ix.b_max(), 15, 0x8001, 1, 1),
        rigid_body(ctx, "裾", ix.b(-1), 7, 0x0000, 2, 2),
    ];

    let mut joints = vec![joint(ctx, "J0", 0, ix.r(0), ix.r(1))];
    if v21 {
        joints.push(joint(ctx, "J1", 1, ix.r(1), ix.r_max()));
        joints.push(joint(ctx, "J2", 2, ix.r_max(), ix.r(-1)));
        joints.push(joint(ctx, "J3", 3, ix.r(-1), ix.r(0)));
        joints.push(joint(ctx, "J4", 4, ix.r(2), ix.r(1)));
        joints.push(joint(ctx, "J5", 5, ix.r(0), ix.r(2)));
    } else {
        joints.push(joint(ctx, "J0b", 0, ix.r_max(), ix.r(-1)));
    }
    pmx.joints = joints;

    pmx.soft_bodies = if ctx.is_v21() {
        Some(vec![
            soft_body(
                ctx,
                "布",
                0,
                ix.m_max(),
                vec![
                    SoftBodyAnchor {
                        rigid_body: ix.r(0),
                        vertex: ix.v(0),
                        near_mode: 0,
                    },
                    SoftBodyAnchor {
                        rigid_body: ix.r_max(),
                        vertex: ix.v_max(),
                        near_mode: 1,
                    },
                ],
                vec![ix.v(1), ix.v_max()],
            ),
            soft_body(ctx, "紐", 1, ix.m(-1), vec![], vec![]),
        ])
    } else {
        None
    };
    pmx
}

/// A model with one vertex of each given weight and nothing else.
fn weights_only(ctx: &PmxContext, weights: Vec<Weight>) -> Pmx {
    let mut pmx = empty(ctx);
    pmx.model.name = PmxText::new("weights", ctx.encoding);
    pmx.vertices = weights
        .into_iter()
        .enumerate()
        .map(|(i, w)| vertex(ctx, i as f32, w))
        .collect();
    pmx.bones = vec![bone(ctx, "root", [0.0; 3], BoneIndex::NONE)];
    pmx
}

/// A model whose names hold raw bytes that do not decode in the declared encoding.
fn raw_text(ctx: &PmxContext, raws: [Vec<u8>; 4]) -> Pmx {
    let mut pmx = empty(ctx);
    let [a, b, c, d] = raws;
    pmx.model = ModelInfo {
        name: PmxText::from_raw(a, ctx.encoding),
        name_en: PmxText::from_raw(b, ctx.encoding),
        comment: PmxText::from_raw(c, ctx.encoding),
        comment_en: PmxText::from_raw(d.clone(), ctx.encoding),
    };
    pmx.textures = vec![PmxText::from_raw(d, ctx.encoding)];
    let mut b = bone(ctx, "", [0.0; 3], BoneIndex::NONE);
    b.name = pmx.model.name.clone();
    pmx.bones = vec![b];
    pmx
}

/// The minimal model: one BDEF1 vertex, nothing else.
fn minimal() -> Pmx {
    let ctx = PmxContext::default();
    let mut pmx = empty(&ctx);
    pmx.model.name = PmxText::new("sample", ctx.encoding);
    pmx.model.name_en = PmxText::new("sample", ctx.encoding);
    pmx.vertices = vec![Vertex {
        position: [0.0, 1.0, 2.0],
        normal: [0.0, 0.0, 1.0],
        uv: [0.5, 0.5],
        additional_uv: vec![],
        weight: Weight::Bdef1 {
            bone: BoneIndex::from_raw(0),
        },
        edge_scale: 1.0,
    }];
    pmx
}

/// Every sample model with its name.
fn models() -> Vec<(&'static str, Pmx)> {
    use TextEncoding::{Utf16Le, Utf8};
    let v20 = 2.0f32;
    let v21 = 2.1f32;
    let mut out = Vec::new();

    // The full models: every section, every branch, at every width.
    let c = context(v21, Utf16Le, 4, [1; 6]);
    out.push(("pmx/full_v21_idx1_utf16_uv4.pmx", full(&c, true)));
    let c = context(v21, Utf8, 0, [2; 6]);
    out.push(("pmx/full_v21_idx2_utf8_uv0.pmx", full(&c, true)));
    let c = context(v21, Utf16Le, 2, [4; 6]);
    out.push(("pmx/full_v21_idx4_utf16_uv2.pmx", full(&c, true)));
    // Every kind a different width from its neighbours: a reader that uses the wrong
    // kind's width misreads this one.
    let c = context(v21, Utf8, 1, [4, 1, 2, 1, 2, 4]);
    out.push(("pmx/full_v21_idx_mixed_utf8_uv1.pmx", full(&c, true)));
    let c = context(v20, Utf16Le, 0, [2, 1, 1, 2, 1, 1]);
    out.push(("pmx/full_v20_idx_mixed_utf16.pmx", full(&c, false)));
    let c = context(v20, Utf8, 4, [1, 2, 4, 4, 2, 1]);
    out.push(("pmx/full_v20_idx_mixed_utf8_uv4.pmx", full(&c, false)));

    out.push(("pmx/minimal.pmx", minimal()));

    // Weights: every type at 2-byte bone indices, and QDEF in a 2.0 file (a real file
    // does this).
    let c = context(v20, Utf16Le, 0, [2; 6]);
    let bone = BoneIndex::from_raw;
    out.push((
        "pmx/weights_all_types_v20.pmx",
        weights_only(
            &c,
            vec![
                Weight::Bdef1 { bone: bone(0) },
                Weight::Bdef2 {
                    bones: [bone(0), bone(-1)],
                    weight: 1.0,
                },
                Weight::Bdef4 {
                    bones: [bone(0), bone(32767), bone(-1), bone(-1)],
                    weights: [1.0, 0.0, 0.0, 0.0],
                },
                Weight::Sdef {
                    bones: [bone(0), bone(32767)],
                    weight: 0.5,
                    c: [1.0, 2.0, 3.0],
                    r0: [4.0, 5.0, 6.0],
                    r1: [7.0, 8.0, 9.0],
                },
                Weight::Qdef {
                    bones: [bone(-1), bone(0), bone(-1), bone(0)],
                    weights: [0.0, 0.5, 0.0, 0.5],
                },
            ],
        ),
    ));

    // PMX 2.1 with no soft-body section at all (the file ends after the joints), and with
    // a soft-body count of 0: different files.
    let c = context(v21, Utf16Le, 0, [1, 1, 1, 1, 1, 1]);
    let mut m = full(&c, true);
    m.soft_bodies = None;
    out.push(("pmx/v21_no_soft_body_section.pmx", m));
    let mut m = full(&c, true);
    m.soft_bodies = Some(vec![]);
    out.push(("pmx/v21_soft_body_count_0.pmx", m));

    // Globals count 10: two bytes beyond the eight known ones, kept.
    let c = context(v20, Utf16Le, 0, [2, 1, 1, 2, 1, 1]);
    let mut m = full(&c, false);
    m.header.globals.extend_from_slice(&[0xab, 0xcd]);
    out.push(("pmx/globals_10.pmx", m));

    // Trailing bytes after the last section, in 2.0 and after the 2.1 soft bodies.
    let c = context(v20, Utf8, 0, [4; 6]);
    let mut m = full(&c, false);
    m.trailing = b"\0\0\0\0TRAILING\xff\xfe".to_vec();
    out.push(("pmx/trailing_bytes_v20.pmx", m));
    let c = context(v21, Utf16Le, 1, [2; 6]);
    let mut m = full(&c, true);
    m.trailing = vec![0x01, 0x00, 0x00, 0x00, 0xfd];
    out.push(("pmx/trailing_bytes_v21.pmx", m));

    // Every section present with a count of 0, every name empty (2.0 and 2.1).
    out.push((
        "pmx/zero_counts_v20.pmx",
        empty(&context(v20, Utf16Le, 0, [1; 6])),
    ));
    out.push((
        "pmx/zero_counts_v21.pmx",
        empty(&context(v21, Utf8, 0, [4; 6])),
    ));

    // Raw text that does not decode: UTF-16LE with a lone high surrogate, a lone low
    // surrogate, an odd byte length; UTF-8 with a stray continuation byte, a cut
    // three-byte sequence, an overlong NUL. Each next to a valid surrogate pair (U+1F600).
    let c = context(v20, Utf16Le, 0, [1; 6]);
    out.push((
        "pmx/text_utf16_undecodable.pmx",
        raw_text(
            &c,
            [
                vec![0x41, 0x00, 0x00, 0xd8, 0x42, 0x00],
                vec![0x00, 0xdc, 0x3d, 0xd8, 0x00, 0xde],
                vec![0x41, 0x00, 0x42],
                vec![0x3d, 0xd8, 0x00, 0xde, 0x3d, 0xd8],
            ],
        ),
    ));
    let c = context(v20, Utf8, 0, [1; 6]);
    out.push((
        "pmx/text_utf8_undecodable.pmx",
        raw_text(
            &c,
            [
                vec![b'a', 0x80, b'b'],
                vec![0xe3, 0x81],
                vec![0xc0, 0x80, 0xf0, 0x9f, 0x98, 0x80],
                vec![0xff, 0xfe, 0x00],
            ],
        ),
    ));
    out
}

/// Every PMX sample as `(name, bytes)`. A model that fails to serialise is left out (the
/// tests check the list of names, so it shows there).
pub fn pmx_samples() -> Vec<(String, Vec<u8>)> {
    models()
        .into_iter()
        .filter_map(|(name, pmx)| pmx.to_bytes().ok().map(|b| (name.to_string(), b)))
        .collect()
}
