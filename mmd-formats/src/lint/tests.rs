//! Every rule on a synthetic case that breaks it and on a near miss that does not (issue
//! 24: "each with a synthetic test that triggers it and one that does not"). The cases are
//! built in code from one clean PMX model, one clean PMD model, a clean motion and a clean
//! pose, each of which has no finding at all; every case changes one thing.

use std::path::PathBuf;

use super::*;
use crate::index::{
    BoneIndex, MaterialIndex, MorphIndex, RigidBodyIndex, TextureIndex, VertexIndex,
};
use crate::pmd;
use crate::pmx::{
    Bone, BoneFlags, BoneOffset, BoneTail, DisplayFrame, FrameElement, GroupOffset, Ik, IkLink,
    Inherit, Joint, Material, MaterialFlags, Morph, MorphOffsets, Pmx, PmxContext, RigidBody, Toon,
    UvOffset, Vertex, VertexOffset, Weight,
};
use crate::text::{PmxText, ShiftJis, TextEncoding};
use crate::vmd::{BoneKey, CameraKey, IkState, MorphKey, ShowIkKey, Vmd};
use crate::vpd::{BonePose, MorphPose, Pose};

fn t(s: &str) -> PmxText {
    PmxText::new(s, TextEncoding::Utf16Le)
}

fn b(i: i32) -> BoneIndex {
    BoneIndex::from_raw(i)
}

const SHOWN: BoneFlags =
    BoneFlags(BoneFlags::ROTATABLE.0 | BoneFlags::VISIBLE.0 | BoneFlags::ENABLED.0);

fn bone(name: &str, parent: i32) -> Bone {
    Bone {
        name: t(name),
        name_en: t(""),
        position: [0.0; 3],
        parent: b(parent),
        layer: 0,
        flags: SHOWN,
        tail: BoneTail::Offset([0.0, 1.0, 0.0]),
        inherit: None,
        fixed_axis: None,
        local_axes: None,
        external_parent: None,
        ik: None,
    }
}

fn vertex(weight: Weight) -> Vertex {
    Vertex {
        position: [0.0; 3],
        normal: [0.0, 1.0, 0.0],
        uv: [0.0; 2],
        additional_uv: Vec::new(),
        weight,
        edge_scale: 1.0,
    }
}

fn frame(name: &str, special: u8, elements: Vec<FrameElement>) -> DisplayFrame {
    DisplayFrame {
        name: t(name),
        name_en: t(""),
        special,
        elements,
    }
}

/// Bone names of the clean model (indices used by the cases).
const UPPER: usize = 1;
const LEG: usize = 2;
const KNEE: usize = 3;
const ANKLE: usize = 4;
const LEG_IK: usize = 5;
const HAIR: usize = 6;
const EYE: usize = 7;

/// A clean PMX model: no rule finds anything in it.
fn pmx() -> Pmx {
    let mut m = Pmx::new("clean", &PmxContext::default());
    m.vertices.push(vertex(Weight::Bdef1 { bone: b(0) }));
    m.vertices.push(vertex(Weight::Bdef2 {
        bones: [b(1), b(0)],
        weight: 0.75,
    }));
    m.vertices.push(vertex(Weight::Bdef4 {
        bones: [b(2), b(3), b(-1), b(-1)],
        weights: [0.5, 0.5, 0.0, 0.0],
    }));
    m.vertices.push(vertex(Weight::Sdef {
        bones: [b(3), b(2)],
        weight: 0.5,
        c: [0.0; 3],
        r0: [0.0, 1.0, 0.0],
        r1: [0.0, -1.0, 0.0],
    }));
    m.faces = [0, 1, 2, 0, 2, 3].map(VertexIndex::from_raw).to_vec();
    m.textures.push(t("tex\\body.png"));
    m.materials.push(Material {
        name: t("body"),
        name_en: t(""),
        diffuse: [1.0; 4],
        specular: [0.0; 3],
        specular_strength: 5.0,
        ambient: [0.5; 3],
        flags: MaterialFlags::default(),
        edge_color: [0.0, 0.0, 0.0, 1.0],
        edge_size: 1.0,
        texture: TextureIndex::from_raw(0),
        sphere_texture: TextureIndex::NONE,
        sphere_mode: 0,
        toon: Toon::Shared(0),
        memo: t(""),
        face_count: 6,
    });
    m.bones = vec![
        bone("センター", -1),
        bone("上半身", 0),
        bone("左足", 0),
        bone("左ひざ", 2),
        bone("左足首", 3),
        bone("左足ＩＫ", 0),
        bone("髪", 1),
        bone("左目", 1),
    ];
    m.bones[LEG_IK].flags = SHOWN | BoneFlags::IK | BoneFlags::TRANSLATABLE;
    m.bones[LEG_IK].layer = 1;
    m.bones[LEG_IK].ik = Some(Ik {
        target: b(ANKLE as i32),
        loop_count: 40,
        limit_angle: 2.0,
        links: vec![
            IkLink {
                bone: b(KNEE as i32),
                has_limit: 1,
                limit_min: Some([-3.0, 0.0, 0.0]),
                limit_max: Some([-0.008, 0.0, 0.0]),
            },
            IkLink {
                bone: b(LEG as i32),
                has_limit: 0,
                limit_min: None,
                limit_max: None,
            },
        ],
    });
    // The eye inherits from the upper body, which deforms before it (layer 1 > 0).
    m.bones[EYE].flags = SHOWN | BoneFlags::INHERIT_ROTATION;
    m.bones[EYE].layer = 1;
    m.bones[EYE].inherit = Some(Inherit {
        parent: b(UPPER as i32),
        weight: 1.0,
    });
    m.morphs = vec![
        Morph {
            name: t("あ"),
            name_en: t(""),
            panel: 3,
            offsets: MorphOffsets::Vertex(vec![VertexOffset {
                vertex: VertexIndex::from_raw(3),
                offset: [0.0, 0.1, 0.0],
            }]),
        },
        Morph {
            name: t("い"),
            name_en: t(""),
            panel: 3,
            offsets: MorphOffsets::Uv(vec![UvOffset {
                vertex: VertexIndex::from_raw(0),
                offset: [0.1, 0.0, 0.0, 0.0],
            }]),
        },
        Morph {
            name: t("笑い"),
            name_en: t(""),
            panel: 4,
            offsets: MorphOffsets::Group(vec![GroupOffset {
                morph: MorphIndex::from_raw(0),
                weight: 1.0,
            }]),
        },
        Morph {
            name: t("首振り"),
            name_en: t(""),
            panel: 4,
            offsets: MorphOffsets::Bone(vec![BoneOffset {
                bone: b(1),
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }]),
        },
    ];
    m.display_frames = vec![
        frame("Root", 1, vec![FrameElement::Bone(b(0))]),
        frame(
            "表情",
            1,
            (0..4)
                .map(|i| FrameElement::Morph(MorphIndex::from_raw(i)))
                .collect(),
        ),
        frame("体", 0, (1..8).map(|i| FrameElement::Bone(b(i))).collect()),
    ];
    let body = |name: &str, bone: usize, mode: u8| RigidBody {
        name: t(name),
        name_en: t(""),
        bone: b(bone as i32),
        group: 0,
        collision_mask: 0xFFFF,
        shape: 0,
        size: [1.0; 3],
        position: [0.0; 3],
        rotation: [0.0; 3],
        mass: 1.0,
        linear_damping: 0.5,
        angular_damping: 0.5,
        restitution: 0.0,
        friction: 0.5,
        mode,
    };
    m.rigid_bodies = vec![body("上半身", UPPER, 0), body("髪", HAIR, 1)];
    m.joints = vec![Joint {
        name: t("髪"),
        name_en: t(""),
        kind: 0,
        rigid_a: RigidBodyIndex::from_raw(0),
        rigid_b: RigidBodyIndex::from_raw(1),
        position: [0.0; 3],
        rotation: [0.0; 3],
        translation_min: [0.0; 3],
        translation_max: [0.0; 3],
        rotation_min: [0.0; 3],
        rotation_max: [0.0; 3],
        spring_translation: [0.0; 3],
        spring_rotation: [0.0; 3],
    }];
    m
}

/// A soft body whose references hold in the clean model (taken from a PMX 2.1 sample).
fn soft_body() -> crate::pmx::SoftBody {
    let mut body = crate::samples::pmx_samples()
        .into_iter()
        .filter_map(|(_, bytes)| Pmx::from_bytes(&bytes).ok())
        .find_map(|m| {
            m.soft_bodies
                .and_then(|b| b.into_iter().find(|b| !b.anchors.is_empty()))
        })
        .expect("a PMX sample with a soft body");
    body.material = MaterialIndex::from_raw(0);
    body.anchors.truncate(1);
    body.anchors[0].rigid_body = RigidBodyIndex::from_raw(1);
    body.anchors[0].vertex = VertexIndex::from_raw(3);
    body.pins = vec![VertexIndex::from_raw(0)];
    body
}

fn sj<const N: usize>(s: &str) -> ShiftJis<N> {
    ShiftJis::new(s).unwrap()
}

/// A clean PMD model: no rule finds anything in it.
fn pmd() -> pmd::Pmd {
    let mut m = pmd::Pmd::new("clean").unwrap();
    let v = |b0: u16, b1: u16, weight: u8| pmd::Vertex {
        bones: [b0, b1],
        weight,
        ..pmd::Vertex::default()
    };
    m.vertices = vec![v(0, 0, 100), v(0, 1, 50), v(1, 2, 0)];
    m.faces = vec![0, 1, 2];
    m.materials = vec![pmd::Material {
        face_vertex_count: 3,
        toon_index: 0,
        ..pmd::Material::default()
    }];
    let bone = |name: &str, parent: u16, bone_type: u8| pmd::Bone {
        name: sj(name),
        parent,
        tail: 0,
        bone_type,
        ik_parent: 0,
        position: [0.0; 3],
    };
    m.bones = vec![
        bone("センター", 0xFFFF, 1),
        bone("左足", 0, 0),
        bone("左ひざ", 1, 0),
        bone("左足ＩＫ", 0, 2),
        bone("髪", 0, 0),
    ];
    m.ik_chains = vec![pmd::IkChain::new(3, 2, 40, 0.5, vec![1])];
    m.morphs = vec![
        pmd::Morph::new(
            sj("base"),
            0,
            vec![pmd::MorphElement {
                index: 2,
                position: [0.0; 3],
            }],
        ),
        pmd::Morph::new(
            sj("あ"),
            3,
            vec![pmd::MorphElement {
                index: 0,
                position: [0.0, 0.1, 0.0],
            }],
        ),
    ];
    m.morph_display = vec![1];
    m.frame_names = vec![sj("体")];
    m.bone_display = (1..5)
        .map(|bone| pmd::BoneDisplay { bone, frame: 1 })
        .collect();
    let body = |bone: u16, mode: u8| pmd::RigidBody {
        bone,
        mode,
        ..pmd::RigidBody::default()
    };
    m.rigid_bodies = Some(vec![body(0, 0), body(4, 1)]);
    m.joints = Some(vec![pmd::Joint {
        rigid_a: 0,
        rigid_b: 1,
        ..pmd::Joint::default()
    }]);
    m
}

fn key(name: &str, frame: u32) -> BoneKey {
    BoneKey::new(sj(name), frame, [0.0; 3], [0.0, 0.0, 0.0, 1.0])
}

/// A clean motion for the clean PMX model.
fn vmd() -> Vmd {
    let mut v = Vmd::new("clean").unwrap();
    v.bone_keys = vec![key("センター", 0), key("センター", 10), key("左足ＩＫ", 0)];
    v.morph_keys = Some(vec![MorphKey {
        name: sj("あ"),
        frame: 0,
        weight: 1.0,
    }]);
    v.camera_keys = Some(vec![CameraKey {
        frame: 0,
        distance: -45.0,
        target: [0.0, 10.0, 0.0],
        rotation: [0.0; 3],
        interpolation: crate::vmd::CameraInterpolation::LINEAR.to_bytes(),
        fov: 30,
        perspective: 0,
    }]);
    v.show_ik_keys = Some(vec![ShowIkKey {
        frame: 0,
        show: 1,
        ik: vec![IkState {
            name: sj("左足ＩＫ"),
            enabled: 0,
        }],
    }]);
    v
}

fn pose(bones: &[(&str, [f32; 4])], morphs: &[&str]) -> Vpd {
    Vpd::from_pose(&Pose {
        model_file: "clean.osm".into(),
        bones: bones
            .iter()
            .map(|(name, rotation)| BonePose {
                name: (*name).into(),
                translation: [0.0; 3],
                rotation: *rotation,
            })
            .collect(),
        morphs: morphs
            .iter()
            .map(|name| MorphPose {
                name: (*name).into(),
                weight: 1.0,
            })
            .collect(),
    })
    .unwrap()
}

const UNIT: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// What a case checks.
#[allow(clippy::large_enum_variant)] // a test table, built once per case
enum Input {
    Pmx(Pmx),
    Pmd(pmd::Pmd),
    Motion(Vmd, Option<Pmx>),
    Pose(Vpd, Option<Pmx>),
    /// The model, checked on disk in a folder holding these files.
    Disk(Pmx, &'static [&'static str]),
}

fn run(input: &Input) -> Vec<Finding> {
    match input {
        Input::Pmx(m) => check_model(Model::Pmx(m)),
        Input::Pmd(m) => check_model(Model::Pmd(m)),
        Input::Motion(v, m) => check_motion(v, m.as_ref().map(Model::Pmx)),
        Input::Pose(v, m) => check_pose(v, m.as_ref().map(Model::Pmx)),
        Input::Disk(m, files) => {
            let dir = temp_dir();
            for f in *files {
                let path = dir.join(f);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, b"").unwrap();
            }
            let found = check_texture_files(Model::Pmx(m), &dir);
            std::fs::remove_dir_all(&dir).unwrap();
            found
        }
    }
}

fn temp_dir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("mmd-lint-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn with(f: impl FnOnce(&mut Pmx)) -> Input {
    let mut m = pmx();
    f(&mut m);
    Input::Pmx(m)
}

fn with_pmd(f: impl FnOnce(&mut pmd::Pmd)) -> Input {
    let mut m = pmd();
    f(&mut m);
    Input::Pmd(m)
}

fn with_vmd(f: impl FnOnce(&mut Vmd)) -> Input {
    let mut v = vmd();
    f(&mut v);
    Input::Motion(v, Some(pmx()))
}

/// One case: the code, the input that breaks the rule (with the path of the finding),
/// and a near miss that does not.
struct Case {
    code: &'static str,
    path: &'static str,
    hit: Input,
    miss: Input,
}

fn case(code: &'static str, path: &'static str, hit: Input, miss: Input) -> Case {
    Case {
        code,
        path,
        hit,
        miss,
    }
}

fn cases() -> Vec<Case> {
    let sdef = |c: [f32; 3], bones: [BoneIndex; 2]| Weight::Sdef {
        bones,
        weight: 0.5,
        c,
        r0: [0.0; 3],
        r1: [0.0; 3],
    };
    vec![
        // References.
        case(
            "E001",
            "bones[3].parent",
            with(|m| m.bones[KNEE].parent = b(8)),
            with(|m| m.bones[KNEE].parent = b(7)),
        ),
        case(
            "E001",
            "materials[0].texture",
            with(|m| m.materials[0].texture = TextureIndex::from_raw(1)),
            with(|m| m.materials[0].texture = TextureIndex::NONE),
        ),
        case(
            "E001",
            "joints[0].rigid_b",
            with(|m| m.joints[0].rigid_b = RigidBodyIndex::from_raw(-2)),
            // A joint's body may be -1 (none), as uml_hair_physics.pmx in the corpus has.
            with(|m| m.joints[0].rigid_b = RigidBodyIndex::NONE),
        ),
        case(
            "E001",
            "rigid_bodies[1].bone",
            with(|m| m.rigid_bodies[1].bone = b(8)),
            with(|m| m.rigid_bodies[1].bone = BoneIndex::NONE),
        ),
        case(
            "E001",
            "vertices[2].weight.Bdef4.bones[1]",
            with(|m| {
                m.vertices.get_mut(2).unwrap().weight = Weight::Bdef4 {
                    bones: [b(2), b(8), b(-1), b(-1)],
                    weights: [0.5, 0.5, 0.0, 0.0],
                }
            }),
            with(|m| {
                m.vertices.get_mut(2).unwrap().weight = Weight::Bdef4 {
                    bones: [b(2), b(7), b(-1), b(-1)],
                    weights: [0.5, 0.5, 0.0, 0.0],
                }
            }),
        ),
        case(
            "E001",
            "soft_bodies[0].material",
            with(|m| {
                let mut body = soft_body();
                body.material = MaterialIndex::from_raw(1);
                m.soft_bodies = Some(vec![body]);
            }),
            with(|m| m.soft_bodies = Some(vec![soft_body()])),
        ),
        case(
            "E001",
            "soft_bodies[0].pins[0]",
            with(|m| {
                let mut body = soft_body();
                body.pins = vec![VertexIndex::from_raw(4)];
                m.soft_bodies = Some(vec![body]);
            }),
            with(|m| {
                let mut body = soft_body();
                body.anchors[0].rigid_body = RigidBodyIndex::NONE;
                m.soft_bodies = Some(vec![body]);
            }),
        ),
        case(
            "E001",
            "morph_display[0]",
            with_pmd(|m| m.morph_display = vec![2]),
            with_pmd(|m| m.morph_display = vec![0]),
        ),
        case(
            "E002",
            "bones[5].ik.target",
            with(|m| m.bones[LEG_IK].ik.as_mut().unwrap().target = BoneIndex::NONE),
            with(|m| m.bones[LEG_IK].ik.as_mut().unwrap().target = b(KNEE as i32)),
        ),
        case(
            "E002",
            "display_frames[2].elements[0].Bone",
            with(|m| m.display_frames[2].elements[0] = FrameElement::Bone(BoneIndex::NONE)),
            with(|m| m.display_frames[2].elements.push(FrameElement::Bone(b(1)))),
        ),
        case(
            "E002",
            "morphs[2].offsets.Group[0].morph",
            with(|m| {
                m.morphs[2].offsets = MorphOffsets::Group(vec![GroupOffset {
                    morph: MorphIndex::NONE,
                    weight: 1.0,
                }])
            }),
            // -1 is allowed in a material morph (every material).
            with(|m| {
                m.morphs[2].offsets = MorphOffsets::Material(vec![crate::pmx::MaterialOffset {
                    material: MaterialIndex::NONE,
                    operation: 0,
                    diffuse: [1.0; 4],
                    specular: [1.0; 3],
                    specular_strength: 1.0,
                    ambient: [1.0; 3],
                    edge_color: [1.0; 4],
                    edge_size: 1.0,
                    texture_tint: [1.0; 4],
                    sphere_tint: [1.0; 4],
                    toon_tint: [1.0; 4],
                }])
            }),
        ),
        // Skeleton.
        case(
            "E003",
            "bones[2].parent",
            with(|m| m.bones[LEG].parent = b(ANKLE as i32)),
            with(|m| m.bones[LEG].parent = b(UPPER as i32)),
        ),
        case(
            "E003",
            "bones[0].parent",
            with_pmd(|m| m.bones[0].parent = 0),
            with_pmd(|m| m.bones[0].parent = 0xFFFF),
        ),
        case(
            "I001",
            "bones[1].parent",
            with(|m| m.bones[UPPER].parent = b(LEG as i32)),
            with(|m| m.bones[LEG].parent = b(UPPER as i32)),
        ),
        case(
            "W001",
            "bones[4].layer",
            with(|m| m.bones[KNEE].layer = 2),
            with(|m| m.bones[ANKLE].layer = 2),
        ),
        case(
            "W001",
            "bones[4].layer",
            with(|m| m.bones[KNEE].flags = SHOWN | BoneFlags::PHYSICS_AFTER_DEFORM),
            with(|m| {
                m.bones[KNEE].flags = SHOWN | BoneFlags::PHYSICS_AFTER_DEFORM;
                m.bones[ANKLE].flags = SHOWN | BoneFlags::PHYSICS_AFTER_DEFORM;
            }),
        ),
        case(
            "W002",
            "bones[7].inherit.parent",
            // The source (layer 1) deforms after the target (layer 0).
            with(|m| {
                m.bones[EYE].inherit = Some(Inherit {
                    parent: b(LEG_IK as i32),
                    weight: 1.0,
                });
                m.bones[EYE].layer = 0;
            }),
            // The same layer: the source (bones[5]) comes before the target (bones[7]).
            with(|m| {
                m.bones[EYE].inherit = Some(Inherit {
                    parent: b(LEG_IK as i32),
                    weight: 1.0,
                })
            }),
        ),
        case(
            "W003",
            "bones[5].ik.links[0].bone",
            with(|m| {
                m.bones[KNEE].flags = SHOWN | BoneFlags::INHERIT_ROTATION;
                m.bones[KNEE].inherit = Some(Inherit {
                    parent: b(0),
                    weight: 0.5,
                });
            }),
            // Inheriting from -1 is no inherit.
            with(|m| {
                m.bones[KNEE].flags = SHOWN | BoneFlags::INHERIT_ROTATION;
                m.bones[KNEE].inherit = Some(Inherit {
                    parent: BoneIndex::NONE,
                    weight: 0.5,
                });
            }),
        ),
        case(
            "W004",
            "bones[5].ik.loop_count",
            with(|m| m.bones[LEG_IK].ik.as_mut().unwrap().loop_count = 0),
            with(|m| m.bones[LEG_IK].ik.as_mut().unwrap().loop_count = 1),
        ),
        case(
            "W004",
            "ik_chains[0].iterations",
            with_pmd(|m| m.ik_chains[0].iterations = 0),
            with_pmd(|m| m.ik_chains[0].iterations = 1),
        ),
        case(
            "W005",
            "bones[5].ik.loop_count",
            with(|m| m.bones[LEG_IK].ik.as_mut().unwrap().loop_count = 256),
            with(|m| m.bones[LEG_IK].ik.as_mut().unwrap().loop_count = 255),
        ),
        case(
            "W006",
            "bones[5].ik.links[0].limit_min",
            with(|m| {
                m.bones[LEG_IK].ik.as_mut().unwrap().links[0].limit_min = Some([-0.008, 0.0, 0.0]);
                m.bones[LEG_IK].ik.as_mut().unwrap().links[0].limit_max = Some([-3.0, 0.0, 0.0]);
            }),
            with(|m| {
                m.bones[LEG_IK].ik.as_mut().unwrap().links[0].limit_min = Some([0.5, 0.0, 0.0]);
                m.bones[LEG_IK].ik.as_mut().unwrap().links[0].limit_max = Some([0.5, 0.0, 0.0]);
            }),
        ),
        // Faces.
        case(
            "E004",
            "faces.count",
            with(|m| {
                m.faces.push(VertexIndex::from_raw(0));
                m.materials[0].face_count = 7;
            }),
            with(|m| {
                m.faces.extend([0, 1, 3].map(VertexIndex::from_raw));
                m.materials[0].face_count = 9;
            }),
        ),
        case(
            "E004",
            "materials[0].face_vertex_count",
            with_pmd(|m| {
                m.materials[0].face_vertex_count = 2;
                m.materials.push(pmd::Material {
                    face_vertex_count: 1,
                    ..pmd::Material::default()
                });
            }),
            with_pmd(|m| {
                m.materials[0].face_vertex_count = 0;
                m.materials.push(pmd::Material {
                    face_vertex_count: 3,
                    ..pmd::Material::default()
                });
            }),
        ),
        case(
            "E005",
            "faces[5]",
            with(|m| m.faces[5] = VertexIndex::from_raw(4)),
            with(|m| m.faces[5] = VertexIndex::from_raw(1)),
        ),
        case(
            "E005",
            "faces[2]",
            with_pmd(|m| m.faces[2] = 3),
            with_pmd(|m| m.faces[2] = 0),
        ),
        case(
            "E006",
            "materials",
            with(|m| m.materials[0].face_count = 9),
            with(|m| {
                m.materials[0].face_count = 3;
                let mut second = m.materials[0].clone();
                second.face_count = 3;
                m.materials.push(second);
            }),
        ),
        case(
            "E006",
            "materials[0].face_count",
            with(|m| m.materials[0].face_count = -3),
            with(|m| m.materials[0].face_count = 6),
        ),
        case(
            "W007",
            "materials",
            with(|m| m.materials[0].face_count = 3),
            with(|m| m.materials[0].face_count = 6),
        ),
        // Weights.
        case(
            "E007",
            "morphs[0].offsets.Vertex[0].vertex",
            with(|m| {
                m.morphs[0].offsets = MorphOffsets::Vertex(vec![VertexOffset {
                    vertex: VertexIndex::from_raw(4),
                    offset: [0.0; 3],
                }])
            }),
            with(|m| {
                m.morphs[0].offsets = MorphOffsets::Vertex(vec![VertexOffset {
                    vertex: VertexIndex::from_raw(3),
                    offset: [0.0; 3],
                }])
            }),
        ),
        case(
            "E007",
            "morphs[1].offsets.Uv[0].vertex",
            with(|m| {
                m.morphs[1].offsets = MorphOffsets::Uv(vec![UvOffset {
                    vertex: VertexIndex::from_raw(9),
                    offset: [0.0; 4],
                }])
            }),
            with(|m| {
                m.morphs[1].offsets = MorphOffsets::AdditionalUv1(vec![UvOffset {
                    vertex: VertexIndex::from_raw(3),
                    offset: [0.0; 4],
                }])
            }),
        ),
        case(
            "E007",
            "morphs[1].elements[0].index",
            // A PMD morph indexes the base morph's list (1 entry), not the vertices (3).
            with_pmd(|m| m.morphs[1].elements[0].index = 1),
            with_pmd(|m| m.morphs[0].elements[0].index = 2),
        ),
        case(
            "W008",
            "vertices[2].weight.Bdef4.weights",
            with(|m| {
                m.vertices.get_mut(2).unwrap().weight = Weight::Bdef4 {
                    bones: [b(2), b(3), b(-1), b(-1)],
                    weights: [0.5, 0.49, 0.0, 0.0],
                }
            }),
            with(|m| {
                m.vertices.get_mut(2).unwrap().weight = Weight::Qdef {
                    bones: [b(2), b(3), b(1), b(-1)],
                    weights: [0.3333, 0.3333, 0.3334, 0.0],
                }
            }),
        ),
        case(
            "W009",
            "vertices[1].weight.Bdef2.weight",
            with(|m| {
                m.vertices.get_mut(1).unwrap().weight = Weight::Bdef2 {
                    bones: [b(1), b(0)],
                    weight: 1.25,
                }
            }),
            with(|m| {
                m.vertices.get_mut(1).unwrap().weight = Weight::Bdef2 {
                    bones: [b(1), b(0)],
                    weight: 1.0,
                }
            }),
        ),
        case(
            "W009",
            "vertices[0].weight",
            with_pmd(|m| m.vertices[0].weight = 101),
            with_pmd(|m| m.vertices[0].weight = 0),
        ),
        case(
            "W010",
            "vertices[2].weight.Bdef4.bones[2]",
            with(|m| {
                m.vertices.get_mut(2).unwrap().weight = Weight::Bdef4 {
                    bones: [b(2), b(3), b(-1), b(-1)],
                    weights: [0.5, 0.25, 0.25, 0.0],
                }
            }),
            with(|m| {
                m.vertices.get_mut(2).unwrap().weight = Weight::Bdef4 {
                    bones: [b(2), b(3), b(1), b(-1)],
                    weights: [0.5, 0.25, 0.25, 0.0],
                }
            }),
        ),
        case(
            "W011",
            "vertices[3].weight.Sdef.c",
            with(|m| {
                m.vertices.get_mut(3).unwrap().weight = sdef([f32::NAN, 0.0, 0.0], [b(3), b(2)])
            }),
            with(|m| m.vertices.get_mut(3).unwrap().weight = sdef([1e30, 0.0, 0.0], [b(3), b(2)])),
        ),
        case(
            "W011",
            "vertices[3].weight.Sdef.bones",
            with(|m| m.vertices.get_mut(3).unwrap().weight = sdef([0.0; 3], [b(3), b(3)])),
            with(|m| m.vertices.get_mut(3).unwrap().weight = sdef([0.0; 3], [b(3), b(4)])),
        ),
        // Names.
        case(
            "W012",
            "bones[7].name",
            // 8 Japanese characters: 16 bytes.
            with(|m| m.bones[EYE].name = t("右ひじ捩れ補助先")),
            // 7 Japanese characters and one ASCII letter: 15 bytes.
            with(|m| m.bones[EYE].name = t("右ひじ捩れ補助A")),
        ),
        case(
            "W012",
            "bones[4].name",
            with_pmd(|m| m.bones[4].name = sj("右ひじ捩れ補助先")),
            with_pmd(|m| m.bones[4].name = sj("右ひじ捩れ補助")),
        ),
        case(
            "W013",
            "morphs[0].name",
            with(|m| m.morphs[0].name = t("ウィンク右目閉じ2つ目")),
            with(|m| m.morphs[0].name = t("ウィンク右2つ目")),
        ),
        case(
            "W013",
            "morphs[1].name",
            with_pmd(|m| m.morphs[1].name = sj("ウィンク右目閉じ2")),
            with_pmd(|m| m.morphs[1].name = sj("ウィンク右")),
        ),
        case(
            "W014",
            "bones[6].name",
            with(|m| m.bones[HAIR].name = t("髪😀")),
            with(|m| m.bones[HAIR].name = t("髪①")),
        ),
        case(
            "W015",
            "bones[7].name",
            with(|m| m.bones[EYE].name = t("髪")),
            with(|m| m.bones[EYE].name = t("髪2")),
        ),
        case(
            "W015",
            "bones[4].name",
            with_pmd(|m| m.bones[4].name = sj("左足")),
            with_pmd(|m| m.bones[4].name = sj("右足")),
        ),
        case(
            "W016",
            "morphs[1].name",
            with(|m| m.morphs[1].name = t("あ")),
            with(|m| m.morphs[1].name = t("ア")),
        ),
        // Display frames.
        case(
            "W017",
            "display_frames[1]",
            with(|m| m.display_frames[1].name = t("Exp")),
            with(|m| m.display_frames[2].name = t("Exp")),
        ),
        case(
            "W017",
            "display_frames[0]",
            with(|m| m.display_frames[0].special = 0),
            with(|m| m.display_frames[2].special = 0),
        ),
        case(
            "I002",
            "bones[6]",
            with(|m| {
                m.display_frames[2]
                    .elements
                    .retain(|e| *e != FrameElement::Bone(b(HAIR as i32)))
            }),
            with(|m| {
                m.display_frames[2]
                    .elements
                    .retain(|e| *e != FrameElement::Bone(b(HAIR as i32)));
                m.bones[HAIR].flags = BoneFlags::ROTATABLE | BoneFlags::ENABLED;
            }),
        ),
        case(
            "I002",
            "bones[4]",
            with_pmd(|m| m.bone_display.retain(|d| d.bone != 4)),
            with_pmd(|m| {
                m.bone_display.retain(|d| d.bone != 4);
                m.bones[4].bone_type = 7; // invisible
            }),
        ),
        // Physics.
        case(
            "W018",
            "joints[0].rigid_b",
            with(|m| m.joints[0].rigid_b = RigidBodyIndex::from_raw(0)),
            with(|m| {
                m.joints[0].rigid_a = RigidBodyIndex::from_raw(1);
                m.joints[0].rigid_b = RigidBodyIndex::from_raw(0);
            }),
        ),
        case(
            "W018",
            "joints[0].rigid_b",
            with_pmd(|m| m.joints.as_mut().unwrap()[0].rigid_b = 0),
            with_pmd(|m| {
                m.joints.as_mut().unwrap()[0].rigid_a = 1;
                m.joints.as_mut().unwrap()[0].rigid_b = 0;
            }),
        ),
        case(
            "W019",
            "bone_keys[3].name",
            with_vmd(|v| v.bone_keys.push(key("髪", 5))),
            // The same key with physics off for it: the motion does control the bone.
            with_vmd(|v| {
                let mut k = key("髪", 5);
                k.set_physics_off(true);
                v.bone_keys.push(k);
            }),
        ),
        case(
            "W019",
            "bones[1].name",
            Input::Pose(pose(&[("センター", UNIT), ("髪", UNIT)], &[]), Some(pmx())),
            Input::Pose(
                pose(&[("センター", UNIT), ("上半身", UNIT)], &[]),
                Some(pmx()),
            ),
        ),
        // Files.
        case(
            "W020",
            "textures[0]",
            Input::Disk(pmx(), &["tex/face.png"]),
            Input::Disk(pmx(), &["Tex/Body.PNG"]),
        ),
        case(
            "W021",
            "textures[0]",
            with(|m| m.textures[0] = t("C:\\Users\\me\\body.png")),
            with(|m| m.textures[0] = t("tex\\C_body.png")),
        ),
        case(
            "W021",
            "materials[0].texture",
            with_pmd(|m| m.materials[0].texture = sj("/tex/a.bmp")),
            with_pmd(|m| m.materials[0].texture = sj("tex/a.bmp*s.sph")),
        ),
        // Motions and poses.
        case(
            "W022",
            "bone_keys[3].name",
            with_vmd(|v| v.bone_keys.push(key("左足IK", 0))),
            with_vmd(|v| v.bone_keys.push(key("左足首", 0))),
        ),
        case(
            "W022",
            "bones[0].name",
            Input::Pose(pose(&[("右足", UNIT)], &[]), Some(pmx())),
            Input::Pose(pose(&[("左足", UNIT)], &[]), Some(pmx())),
        ),
        case(
            "W023",
            "morph_keys[1].name",
            with_vmd(|v| {
                v.morph_keys.as_mut().unwrap().push(MorphKey {
                    name: sj("う"),
                    frame: 0,
                    weight: 1.0,
                })
            }),
            with_vmd(|v| {
                v.morph_keys.as_mut().unwrap().push(MorphKey {
                    name: sj("い"),
                    frame: 0,
                    weight: 1.0,
                })
            }),
        ),
        case(
            "W024",
            "show_ik_keys[0].ik[1].name",
            with_vmd(|v| {
                v.show_ik_keys.as_mut().unwrap()[0].ik.push(IkState {
                    name: sj("左足"),
                    enabled: 0,
                })
            }),
            with_vmd(|v| {
                v.show_ik_keys.as_mut().unwrap()[0].ik.push(IkState {
                    name: sj("左足ＩＫ"),
                    enabled: 1,
                })
            }),
        ),
        case(
            "W025",
            "bone_keys[3].frame",
            with_vmd(|v| {
                let mut k = key("センター", 10);
                k.position[1] = 1.0;
                v.bone_keys.push(k);
            }),
            with_vmd(|v| v.bone_keys.push(key("左足ＩＫ", 10))),
        ),
        case(
            "W025",
            "bone_keys[3].frame",
            with_vmd(|v| {
                let mut k = key("センター", 10);
                k.interpolation[60] = 1;
                v.bone_keys.push(k);
            }),
            // The same key twice plays the same whichever a player takes (mei_anger.vmd in
            // the corpus repeats 106 identical "base" keys at frame 0).
            with_vmd(|v| v.bone_keys.push(key("センター", 10))),
        ),
        case(
            "W025",
            "camera_keys[1].frame",
            with_vmd(|v| {
                let mut k = v.camera_keys.as_ref().unwrap()[0];
                k.fov = 40;
                v.camera_keys.as_mut().unwrap().push(k);
            }),
            with_vmd(|v| {
                let mut k = v.camera_keys.as_ref().unwrap()[0];
                k.frame = 1;
                v.camera_keys.as_mut().unwrap().push(k);
            }),
        ),
        case(
            "W025",
            "bones[1].name",
            Input::Pose(
                pose(
                    &[("センター", UNIT), ("センター", [0.0, 0.6, 0.0, 0.8])],
                    &[],
                ),
                None,
            ),
            Input::Pose(pose(&[("センター", UNIT), ("センター", UNIT)], &[]), None),
        ),
        case(
            "W026",
            "bone_keys[0].rotation",
            with_vmd(|v| v.bone_keys[0].rotation = [0.0, 0.0, 0.0, 0.0]),
            with_vmd(|v| v.bone_keys[0].rotation = [0.0, 0.6, 0.0, 0.8]),
        ),
        case(
            "W026",
            "bones[0].rotation",
            Input::Pose(pose(&[("センター", [0.0, 0.0, 0.0, 1.02])], &[]), None),
            Input::Pose(pose(&[("センター", [0.0, 0.0, 0.0, 1.005])], &[]), None),
        ),
        case(
            "W027",
            "bone_keys[0].interpolation",
            with_vmd(|v| {
                let mut curves = crate::vmd::Interpolation::LINEAR;
                curves.rotation.y2 = 128;
                v.bone_keys[0].set_interpolation(&curves);
            }),
            with_vmd(|v| {
                let mut curves = crate::vmd::Interpolation::LINEAR;
                curves.rotation.y2 = 127;
                v.bone_keys[0].set_interpolation(&curves);
                // MMD's physics-off mark (99, 15) is not a control point.
                v.bone_keys[0].set_physics_off(true);
            }),
        ),
        case(
            "W027",
            "camera_keys[0].interpolation",
            with_vmd(|v| v.camera_keys.as_mut().unwrap()[0].interpolation[23] = 200),
            with_vmd(|v| v.camera_keys.as_mut().unwrap()[0].interpolation[23] = 127),
        ),
        case(
            "W028",
            "camera_keys[0].fov",
            with_vmd(|v| v.camera_keys.as_mut().unwrap()[0].fov = 0),
            with_vmd(|v| v.camera_keys.as_mut().unwrap()[0].fov = 1),
        ),
    ]
}

fn show(found: &[Finding]) -> String {
    found.iter().map(|f| format!("\n  {f}")).collect()
}

#[test]
fn the_clean_inputs_have_no_finding() {
    for input in [
        Input::Pmx(pmx()),
        Input::Pmd(pmd()),
        Input::Motion(vmd(), Some(pmx())),
        Input::Pose(pose(&[("センター", UNIT)], &["あ"]), Some(pmx())),
        Input::Disk(pmx(), &["tex/body.png"]),
    ] {
        let found = run(&input);
        assert!(found.is_empty(), "{}", show(&found));
    }
}

#[test]
fn every_rule_fires_on_its_case_and_not_on_its_near_miss() {
    for c in cases() {
        let hit = run(&c.hit);
        assert!(
            hit.iter().any(|f| f.code() == c.code && f.path == c.path),
            "{} at {}: not found in{}",
            c.code,
            c.path,
            show(&hit)
        );
        let miss = run(&c.miss);
        assert!(
            miss.iter().all(|f| f.code() != c.code),
            "{} ({}): found in the near miss{}",
            c.code,
            c.path,
            show(&miss)
        );
    }
}

#[test]
fn every_rule_has_a_case_and_every_code_used_is_in_the_table() {
    let cases = cases();
    for rule in RULES {
        assert!(
            cases.iter().any(|c| c.code == rule.code),
            "{} has no case",
            rule.code
        );
    }
    for c in &cases {
        assert!(rule(c.code).is_some(), "{} is not in the table", c.code);
    }
    // Every code the checks can emit (they name it as a string) is in the table.
    for src in [
        include_str!("pmx.rs"),
        include_str!("pmd.rs"),
        include_str!("motion.rs"),
        include_str!("shared.rs"),
        include_str!("files.rs"),
    ] {
        for (at, _) in src.match_indices('"') {
            let code = src.get(at + 1..at + 5).unwrap_or("");
            let closed = src.get(at + 5..at + 6) == Some("\"");
            let shaped = code.len() == 4
                && matches!(code.as_bytes()[0], b'E' | b'W' | b'I')
                && code[1..].bytes().all(|c| c.is_ascii_digit());
            if closed && shaped {
                assert!(rule(code).is_some(), "{code} is used but not in the table");
            }
        }
    }
}

#[test]
fn the_table_is_in_code_order_with_unique_codes_and_matching_severities() {
    let codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
    let mut sorted = codes.clone();
    sorted.sort_by_key(|c| (c.as_bytes()[0] != b'E', c.as_bytes()[0] == b'I', *c));
    assert_eq!(codes, sorted);
    sorted.dedup();
    assert_eq!(codes.len(), sorted.len(), "a code is used twice");
    for r in RULES {
        let letter = match r.severity {
            Severity::Error => 'E',
            Severity::Warning => 'W',
            Severity::Info => 'I',
        };
        assert!(r.code.starts_with(letter), "{}: {:?}", r.code, r.severity);
        for text in [r.title, r.what, r.why, r.evidence, r.fix, r.applies] {
            assert!(!text.trim().is_empty(), "{}: an empty field", r.code);
        }
    }
}

#[test]
fn messages_state_the_rule_and_escape_file_text() {
    // The example, word for word (seed 004: "ボーン名は15バイトに収まらないと書けません").
    let mut m = pmx();
    m.bones[EYE].name = t("右ひじ捩れ補助先");
    let found = check_model(Model::Pmx(&m));
    let w012 = found.iter().find(|f| f.code() == "W012").unwrap();
    assert_eq!(
        w012.to_string(),
        "warning W012 bones[7].name: \"右ひじ捩れ補助先\" is 16 bytes in Shift_JIS; a VMD key \
         holds 15, so no motion can move this bone"
    );
    // A control character in a name reaches the message escaped.
    m.bones[EYE].name = t("a\u{1b}[2Jb");
    m.bones[HAIR].name = t("a\u{1b}[2Jb");
    let found = check_model(Model::Pmx(&m));
    let dup = found.iter().find(|f| f.code() == "W015").unwrap();
    assert!(!dup.to_string().contains('\u{1b}'), "{dup}");
    assert!(dup.message.contains("\\u{1b}"), "{dup}");
}

#[test]
fn a_parent_after_its_child_in_a_real_shape() {
    // Seed 000: "実物のモデル(ad_ik2.pmx)に、親の添字が自分より後ろのボーンが1本ありました" —
    // legal, so information only, and no cycle.
    let mut m = pmx();
    m.bones[UPPER].parent = b(EYE as i32);
    m.bones[EYE].parent = b(0);
    let found = check_model(Model::Pmx(&m));
    let codes: Vec<&str> = found.iter().map(Finding::code).collect();
    assert!(codes.contains(&"I001"), "{}", show(&found));
    assert!(!codes.contains(&"E003"), "{}", show(&found));
}

#[test]
fn many_bad_face_indices_give_one_finding_with_the_count() {
    let mut m = pmx();
    m.faces = [7, 8, 9, 0, 1, 2].map(VertexIndex::from_raw).to_vec();
    let found = check_model(Model::Pmx(&m));
    let e005: Vec<&Finding> = found.iter().filter(|f| f.code() == "E005").collect();
    assert_eq!(e005.len(), 1, "{}", show(&found));
    assert_eq!(e005[0].path, "faces[0]");
    assert_eq!(
        e005[0].message,
        "vertex 7 does not exist: the model has 4 vertices (3 face indices name no vertex)"
    );
}
