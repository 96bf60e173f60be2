//! The full PMX sample model: every section used, every branch taken, boundary index
//! values at the declared widths.

use super::records::*;
use super::{empty, Decl};
use crate::pmx::*;
use crate::text::PmxText;

/// The full model for `ctx`: every section used, every branch taken, boundary index
/// values at the context's widths. With `v21` false, only PMX 2.0 features are used (no
/// QDEF, no flip or impulse morphs, joints of type 0 only, no 2.1 material flags).
pub(super) fn full(ctx: &Decl, v21: bool) -> Pmx {
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
    pmx.vertices = vertices.into();

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
