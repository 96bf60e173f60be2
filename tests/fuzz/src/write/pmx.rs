//! PMX values made inconsistent through their public fields.

use arbitrary::Arbitrary;
use mmd_formats::index::Index;
use mmd_formats::pmx::{
    BoneFlags, BoneOffset, BoneTail, GroupOffset, Ik, IkLink, ImpulseOffset, Inherit, LocalAxes,
    MaterialOffset, MorphOffsets, Pmx, Toon, UvOffset, VertexOffset, Weight,
};
use mmd_formats::{PmxText, TextEncoding, VertexIndex};

use super::{pick, resize, Edge, Len, Presence};

/// One fuzz case: which sample, then the edits in order.
#[derive(Debug, Arbitrary)]
pub struct Case {
    /// The sample (modulo the number of samples).
    pub sample: u8,
    /// The edits.
    pub edits: Vec<Edit>,
}

/// A header version.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Version {
    /// 2.0: no soft-body block.
    V20,
    /// 2.1: a soft-body block (or the end of the file) after the joints.
    V21,
    /// Any other float, NaN included.
    Raw(f32),
}

/// An optional block of a bone, each set by its own flag.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum BoneBlock {
    /// Inherit parent and weight (flags 0x0100 / 0x0200).
    Inherit,
    /// Fixed axis (0x0400).
    FixedAxis,
    /// Local axes (0x0800).
    LocalAxes,
    /// External parent key (0x2000).
    ExternalParent,
    /// IK block (0x0020).
    Ik,
}

/// Where an index is.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum IndexSite {
    /// A face's vertex.
    Face,
    /// A vertex weight's bone.
    WeightBone,
    /// A bone's parent.
    BoneParent,
    /// A bone's tail bone (when the tail is a bone).
    BoneTail,
    /// A bone's inherit parent.
    InheritParent,
    /// A bone's IK target.
    IkTarget,
    /// A bone's IK link bone.
    IkLinkBone,
    /// A material's texture.
    MaterialTexture,
    /// A material's sphere texture.
    MaterialSphere,
    /// A material's toon texture (when it is not shared).
    MaterialToon,
    /// A morph offset's target (morph, vertex, bone, material or rigid body).
    MorphOffset,
    /// A display-frame element.
    FrameElement,
    /// A rigid body's bone.
    RigidBodyBone,
    /// A joint's first rigid body.
    JointRigidA,
    /// A joint's second rigid body.
    JointRigidB,
    /// A soft body's material.
    SoftBodyMaterial,
    /// A soft-body anchor's rigid body.
    AnchorRigidBody,
    /// A soft-body anchor's vertex.
    AnchorVertex,
    /// A soft-body pin.
    Pin,
}

/// Where a text is.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum TextSite {
    /// The model name.
    ModelName,
    /// The English comment.
    CommentEn,
    /// A texture path.
    Texture,
    /// A material name.
    MaterialName,
    /// A material memo.
    MaterialMemo,
    /// A bone name.
    BoneName,
    /// A morph's English name.
    MorphNameEn,
    /// A display frame name.
    FrameName,
    /// A rigid body name.
    RigidBodyName,
    /// A joint name.
    JointName,
    /// A soft body name.
    SoftBodyName,
}

/// A list whose length an edit changes.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Section {
    /// Vertices.
    Vertices,
    /// The face list.
    Faces,
    /// Textures.
    Textures,
    /// Materials.
    Materials,
    /// Bones.
    Bones,
    /// Morphs.
    Morphs,
    /// Display frames.
    Frames,
    /// Rigid bodies.
    RigidBodies,
    /// Joints.
    Joints,
    /// Soft bodies (when present).
    SoftBodies,
    /// The links of a bone's IK block.
    IkLinks,
    /// The elements of a display frame.
    FrameElements,
    /// The anchors of a soft body.
    Anchors,
    /// The pins of a soft body.
    Pins,
}

/// One edit through the public fields.
#[derive(Debug, Arbitrary)]
pub enum Edit {
    /// The header version (2.1 wants the soft-body block; 2.0 forbids it).
    Version(Version),
    /// One globals byte: the encoding, the additional UVs, or an index width.
    Global {
        /// Which byte (modulo the number of globals).
        at: u8,
        /// Its new value.
        value: u8,
    },
    /// The number of globals (fewer than 8 cannot declare the layout; more are kept).
    GlobalsLen(u8),
    /// A bone's flags, its blocks left as they are (a flag that says IK with no IK data).
    BoneFlags {
        /// Which bone.
        bone: u16,
        /// The new flags.
        bits: u16,
    },
    /// A bone's optional block added or removed, its flags left as they are.
    BoneBlock {
        /// Which bone.
        bone: u16,
        /// Which block.
        block: BoneBlock,
        /// Present or absent.
        present: bool,
    },
    /// A bone's tail set to a bone or an offset, its flags left as they are.
    BoneTail {
        /// Which bone.
        bone: u16,
        /// A bone (else an offset).
        to_bone: bool,
        /// The tail bone's index.
        raw: Edge,
    },
    /// An IK link's limit flag and limits, each set on its own.
    IkLink {
        /// Which bone.
        bone: u16,
        /// Which link.
        link: u16,
        /// The limit flag.
        has_limit: u8,
        /// Lower limits present.
        min: bool,
        /// Upper limits present.
        max: bool,
    },
    /// An index anywhere, to a raw value that may not fit its width.
    Index {
        /// Where.
        site: IndexSite,
        /// Which record.
        item: u16,
        /// Which element within it (link, offset, element, weight slot).
        sub: u16,
        /// The raw value.
        raw: Edge,
    },
    /// A text replaced by raw bytes in a declared encoding (maybe not the header's).
    Text {
        /// Where.
        site: TextSite,
        /// Which record.
        item: u16,
        /// The bytes.
        raw: Vec<u8>,
        /// The encoding byte the text says it is in.
        encoding: u8,
    },
    /// A text set from a string, in the encoding it already had.
    SetText {
        /// Where.
        site: TextSite,
        /// Which record.
        item: u16,
        /// The text.
        text: String,
    },
    /// A vertex's number of additional UVs, the header left as it is.
    AdditionalUv {
        /// Which vertex.
        vertex: u16,
        /// How many.
        len: Len,
    },
    /// A vertex's weight type (0-4), with one raw bone index.
    Weight {
        /// Which vertex.
        vertex: u16,
        /// The weight type (modulo 5).
        kind: u8,
        /// The bone index in every slot.
        raw: Edge,
    },
    /// A material's toon: shared (a toon number) or a texture index.
    Toon {
        /// Which material.
        material: u16,
        /// Shared toon.
        shared: bool,
        /// The toon number or texture index.
        raw: Edge,
    },
    /// A morph's offsets replaced by another type's, with `len` default offsets.
    MorphKind {
        /// Which morph.
        morph: u16,
        /// The morph type (modulo 11).
        kind: u8,
        /// How many offsets.
        len: Len,
    },
    /// The soft-body block made absent, empty, or kept.
    SoftBodies(Presence),
    /// The bytes after the last block.
    Trailing(Vec<u8>),
    /// A list's length (grown with copies of its last element).
    Resize {
        /// Which list.
        section: Section,
        /// Which record holds it (for the lists inside records).
        item: u16,
        /// The new length.
        len: Len,
    },
}

/// Applies one edit; an edit whose target does not exist in this model does nothing.
pub fn apply(m: &mut Pmx, edit: Edit) {
    match edit {
        Edit::Version(v) => {
            m.header.version = match v {
                Version::V20 => 2.0,
                Version::V21 => 2.1,
                Version::Raw(x) => x,
            }
        }
        Edit::Global { at, value } => {
            if let Some(b) = pick(&mut m.header.globals, at.into()) {
                *b = value;
            }
        }
        Edit::GlobalsLen(n) => m.header.globals.resize(n.into(), 1),
        Edit::BoneFlags { bone, bits } => {
            if let Some(b) = pick(&mut m.bones, bone) {
                b.flags = BoneFlags(bits);
            }
        }
        Edit::BoneBlock {
            bone,
            block,
            present,
        } => {
            if let Some(b) = pick(&mut m.bones, bone) {
                set_bone_block(b, block, present);
            }
        }
        Edit::BoneTail { bone, to_bone, raw } => {
            if let Some(b) = pick(&mut m.bones, bone) {
                b.tail = if to_bone {
                    BoneTail::Bone(Index::from_raw(raw.i32()))
                } else {
                    BoneTail::Offset([0.0, 1.0, 0.0])
                };
            }
        }
        Edit::IkLink {
            bone,
            link,
            has_limit,
            min,
            max,
        } => {
            let ik = pick(&mut m.bones, bone).and_then(|b| b.ik.as_mut());
            if let Some(l) = ik.and_then(|ik| pick(&mut ik.links, link)) {
                l.has_limit = has_limit;
                l.limit_min = min.then_some([-1.0, 0.0, 0.0]);
                l.limit_max = max.then_some([1.0, 0.0, 0.0]);
            }
        }
        Edit::Index {
            site,
            item,
            sub,
            raw,
        } => set_index(m, site, item, sub, raw),
        Edit::Text {
            site,
            item,
            raw,
            encoding,
        } => {
            if let Some(t) = text_at(m, site, item) {
                *t = PmxText::from_raw(raw, TextEncoding::from_byte(encoding));
            }
        }
        Edit::SetText { site, item, text } => {
            if let Some(t) = text_at(m, site, item) {
                t.set(&text);
            }
        }
        Edit::AdditionalUv { vertex, len } => {
            if let Some(v) = pick(&mut m.vertices, vertex) {
                v.additional_uv.resize(len.0.min(16), [0.0; 4]);
            }
        }
        Edit::Weight { vertex, kind, raw } => {
            if let Some(v) = pick(&mut m.vertices, vertex) {
                let b = Index::from_raw(raw.i32());
                v.weight = match kind % 5 {
                    0 => Weight::Bdef1 { bone: b },
                    1 => Weight::Bdef2 {
                        bones: [b; 2],
                        weight: 0.5,
                    },
                    2 => Weight::Bdef4 {
                        bones: [b; 4],
                        weights: [0.25; 4],
                    },
                    3 => Weight::Sdef {
                        bones: [b; 2],
                        weight: 0.5,
                        c: [0.0; 3],
                        r0: [0.0; 3],
                        r1: [0.0; 3],
                    },
                    _ => Weight::Qdef {
                        bones: [b; 4],
                        weights: [0.25; 4],
                    },
                };
            }
        }
        Edit::Toon {
            material,
            shared,
            raw,
        } => {
            if let Some(mat) = pick(&mut m.materials, material) {
                mat.toon = if shared {
                    Toon::Shared(raw.u8())
                } else {
                    Toon::Texture(Index::from_raw(raw.i32()))
                };
            }
        }
        Edit::MorphKind { morph, kind, len } => {
            if let Some(mo) = pick(&mut m.morphs, morph) {
                mo.offsets = offsets_of_kind(kind, len.0);
            }
        }
        Edit::SoftBodies(p) => p.apply(&mut m.soft_bodies),
        Edit::Trailing(bytes) => m.trailing = bytes,
        Edit::Resize { section, item, len } => resize_section(m, section, item, len),
    }
}

fn set_bone_block(b: &mut mmd_formats::pmx::Bone, block: BoneBlock, present: bool) {
    match block {
        BoneBlock::Inherit => {
            b.inherit = present.then_some(Inherit {
                parent: Index::NONE,
                weight: 1.0,
            })
        }
        BoneBlock::FixedAxis => b.fixed_axis = present.then_some([1.0, 0.0, 0.0]),
        BoneBlock::LocalAxes => {
            b.local_axes = present.then_some(LocalAxes {
                x: [1.0, 0.0, 0.0],
                z: [0.0, 0.0, 1.0],
            })
        }
        BoneBlock::ExternalParent => b.external_parent = present.then_some(0),
        BoneBlock::Ik => {
            if !present {
                b.ik = None;
            } else if b.ik.is_none() {
                b.ik = Some(Ik {
                    target: Index::NONE,
                    loop_count: 40,
                    limit_angle: 0.5,
                    links: vec![IkLink {
                        bone: Index::NONE,
                        has_limit: 0,
                        limit_min: None,
                        limit_max: None,
                    }],
                });
            }
        }
    }
}

fn set_index(m: &mut Pmx, site: IndexSite, item: u16, sub: u16, raw: Edge) {
    let signed = Index::from_raw(raw.i32());
    let vertex = VertexIndex(raw.u32());
    match site {
        IndexSite::Face => {
            if let Some(f) = pick(&mut m.faces, item) {
                *f = vertex;
            }
        }
        IndexSite::WeightBone => {
            if let Some(v) = pick(&mut m.vertices, item) {
                let bones: &mut [_] = match &mut v.weight {
                    Weight::Bdef1 { bone } => std::slice::from_mut(bone),
                    Weight::Bdef2 { bones, .. } | Weight::Sdef { bones, .. } => bones,
                    Weight::Bdef4 { bones, .. } | Weight::Qdef { bones, .. } => bones,
                };
                if let Some(b) = pick(bones, sub) {
                    *b = Index::from_raw(raw.i32());
                }
            }
        }
        IndexSite::BoneParent => {
            if let Some(b) = pick(&mut m.bones, item) {
                b.parent = Index::from_raw(raw.i32());
            }
        }
        IndexSite::BoneTail => {
            if let Some(BoneTail::Bone(t)) = pick(&mut m.bones, item).map(|b| &mut b.tail) {
                *t = Index::from_raw(raw.i32());
            }
        }
        IndexSite::InheritParent => {
            if let Some(i) = pick(&mut m.bones, item).and_then(|b| b.inherit.as_mut()) {
                i.parent = Index::from_raw(raw.i32());
            }
        }
        IndexSite::IkTarget => {
            if let Some(ik) = pick(&mut m.bones, item).and_then(|b| b.ik.as_mut()) {
                ik.target = Index::from_raw(raw.i32());
            }
        }
        IndexSite::IkLinkBone => {
            let ik = pick(&mut m.bones, item).and_then(|b| b.ik.as_mut());
            if let Some(l) = ik.and_then(|ik| pick(&mut ik.links, sub)) {
                l.bone = Index::from_raw(raw.i32());
            }
        }
        IndexSite::MaterialTexture => {
            if let Some(mat) = pick(&mut m.materials, item) {
                mat.texture = signed;
            }
        }
        IndexSite::MaterialSphere => {
            if let Some(mat) = pick(&mut m.materials, item) {
                mat.sphere_texture = signed;
            }
        }
        IndexSite::MaterialToon => {
            if let Some(Toon::Texture(t)) = pick(&mut m.materials, item).map(|m| &mut m.toon) {
                *t = signed;
            }
        }
        IndexSite::MorphOffset => {
            if let Some(mo) = pick(&mut m.morphs, item) {
                set_offset_index(&mut mo.offsets, sub, raw);
            }
        }
        IndexSite::FrameElement => {
            let frame = pick(&mut m.display_frames, item);
            if let Some(e) = frame.and_then(|f| pick(&mut f.elements, sub)) {
                *e = match e {
                    mmd_formats::pmx::FrameElement::Bone(_) => {
                        mmd_formats::pmx::FrameElement::Bone(Index::from_raw(raw.i32()))
                    }
                    mmd_formats::pmx::FrameElement::Morph(_) => {
                        mmd_formats::pmx::FrameElement::Morph(Index::from_raw(raw.i32()))
                    }
                };
            }
        }
        IndexSite::RigidBodyBone => {
            if let Some(r) = pick(&mut m.rigid_bodies, item) {
                r.bone = Index::from_raw(raw.i32());
            }
        }
        IndexSite::JointRigidA => {
            if let Some(j) = pick(&mut m.joints, item) {
                j.rigid_a = Index::from_raw(raw.i32());
            }
        }
        IndexSite::JointRigidB => {
            if let Some(j) = pick(&mut m.joints, item) {
                j.rigid_b = Index::from_raw(raw.i32());
            }
        }
        IndexSite::SoftBodyMaterial => {
            if let Some(s) = soft_body(m, item) {
                s.material = Index::from_raw(raw.i32());
            }
        }
        IndexSite::AnchorRigidBody => {
            if let Some(a) = soft_body(m, item).and_then(|s| pick(&mut s.anchors, sub)) {
                a.rigid_body = Index::from_raw(raw.i32());
            }
        }
        IndexSite::AnchorVertex => {
            if let Some(a) = soft_body(m, item).and_then(|s| pick(&mut s.anchors, sub)) {
                a.vertex = vertex;
            }
        }
        IndexSite::Pin => {
            if let Some(p) = soft_body(m, item).and_then(|s| pick(&mut s.pins, sub)) {
                *p = vertex;
            }
        }
    }
}

fn soft_body(m: &mut Pmx, item: u16) -> Option<&mut mmd_formats::pmx::SoftBody> {
    m.soft_bodies.as_mut().and_then(|s| pick(s, item))
}

fn set_offset_index(offsets: &mut MorphOffsets, sub: u16, raw: Edge) {
    match offsets {
        MorphOffsets::Group(v) | MorphOffsets::Flip(v) => {
            if let Some(o) = pick(v, sub) {
                o.morph = Index::from_raw(raw.i32());
            }
        }
        MorphOffsets::Vertex(v) => {
            if let Some(o) = pick(v, sub) {
                o.vertex = VertexIndex(raw.u32());
            }
        }
        MorphOffsets::Bone(v) => {
            if let Some(o) = pick(v, sub) {
                o.bone = Index::from_raw(raw.i32());
            }
        }
        MorphOffsets::Uv(v)
        | MorphOffsets::AdditionalUv1(v)
        | MorphOffsets::AdditionalUv2(v)
        | MorphOffsets::AdditionalUv3(v)
        | MorphOffsets::AdditionalUv4(v) => {
            if let Some(o) = pick(v, sub) {
                o.vertex = VertexIndex(raw.u32());
            }
        }
        MorphOffsets::Material(v) => {
            if let Some(o) = pick(v, sub) {
                o.material = Index::from_raw(raw.i32());
            }
        }
        MorphOffsets::Impulse(v) => {
            if let Some(o) = pick(v, sub) {
                o.rigid_body = Index::from_raw(raw.i32());
            }
        }
    }
}

/// Offsets of morph type `kind % 11`: `len` zero offsets aimed at element 0.
fn offsets_of_kind(kind: u8, len: usize) -> MorphOffsets {
    let group = GroupOffset {
        morph: Index::from_raw(0),
        weight: 1.0,
    };
    let uv = UvOffset {
        vertex: VertexIndex(0),
        offset: [0.0; 4],
    };
    match kind % 11 {
        0 => MorphOffsets::Group(vec![group; len]),
        1 => MorphOffsets::Vertex(vec![
            VertexOffset {
                vertex: VertexIndex(0),
                offset: [0.0; 3],
            };
            len
        ]),
        2 => MorphOffsets::Bone(vec![
            BoneOffset {
                bone: Index::from_raw(0),
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            };
            len
        ]),
        3 => MorphOffsets::Uv(vec![uv; len]),
        4 => MorphOffsets::AdditionalUv1(vec![uv; len]),
        5 => MorphOffsets::AdditionalUv2(vec![uv; len]),
        6 => MorphOffsets::AdditionalUv3(vec![uv; len]),
        7 => MorphOffsets::AdditionalUv4(vec![uv; len]),
        8 => MorphOffsets::Material(vec![
            MaterialOffset {
                material: Index::NONE,
                operation: 0,
                diffuse: [1.0; 4],
                specular: [0.0; 3],
                specular_strength: 0.0,
                ambient: [0.0; 3],
                edge_color: [0.0; 4],
                edge_size: 0.0,
                texture_tint: [1.0; 4],
                sphere_tint: [1.0; 4],
                toon_tint: [1.0; 4],
            };
            len
        ]),
        9 => MorphOffsets::Flip(vec![group; len]),
        _ => MorphOffsets::Impulse(vec![
            ImpulseOffset {
                rigid_body: Index::from_raw(0),
                local: 0,
                velocity: [0.0; 3],
                torque: [0.0; 3],
            };
            len
        ]),
    }
}

fn text_at(m: &mut Pmx, site: TextSite, item: u16) -> Option<&mut PmxText> {
    match site {
        TextSite::ModelName => Some(&mut m.model.name),
        TextSite::CommentEn => Some(&mut m.model.comment_en),
        TextSite::Texture => pick(&mut m.textures, item),
        TextSite::MaterialName => pick(&mut m.materials, item).map(|x| &mut x.name),
        TextSite::MaterialMemo => pick(&mut m.materials, item).map(|x| &mut x.memo),
        TextSite::BoneName => pick(&mut m.bones, item).map(|x| &mut x.name),
        TextSite::MorphNameEn => pick(&mut m.morphs, item).map(|x| &mut x.name_en),
        TextSite::FrameName => pick(&mut m.display_frames, item).map(|x| &mut x.name),
        TextSite::RigidBodyName => pick(&mut m.rigid_bodies, item).map(|x| &mut x.name),
        TextSite::JointName => pick(&mut m.joints, item).map(|x| &mut x.name),
        TextSite::SoftBodyName => soft_body(m, item).map(|x| &mut x.name),
    }
}

fn resize_section(m: &mut Pmx, section: Section, item: u16, len: Len) {
    match section {
        Section::Vertices => resize(&mut m.vertices, len, None),
        Section::Faces => resize(&mut m.faces, len, Some(VertexIndex(0))),
        Section::Textures => resize(&mut m.textures, len, None),
        Section::Materials => resize(&mut m.materials, len, None),
        Section::Bones => resize(&mut m.bones, len, None),
        Section::Morphs => resize(&mut m.morphs, len, None),
        Section::Frames => resize(&mut m.display_frames, len, None),
        Section::RigidBodies => resize(&mut m.rigid_bodies, len, None),
        Section::Joints => resize(&mut m.joints, len, None),
        Section::SoftBodies => {
            if let Some(s) = m.soft_bodies.as_mut() {
                resize(s, len, None);
            }
        }
        Section::IkLinks => {
            if let Some(ik) = pick(&mut m.bones, item).and_then(|b| b.ik.as_mut()) {
                resize(&mut ik.links, len, None);
            }
        }
        Section::FrameElements => {
            if let Some(f) = pick(&mut m.display_frames, item) {
                resize(&mut f.elements, len, None);
            }
        }
        Section::Anchors => {
            if let Some(s) = soft_body(m, item) {
                resize(&mut s.anchors, len, None);
            }
        }
        Section::Pins => {
            if let Some(s) = soft_body(m, item) {
                resize(&mut s.pins, len, Some(VertexIndex(0)));
            }
        }
    }
}

/// Builds the case's value and checks the writer's rule on it
/// ([`check_binary`](super::check_binary)).
pub fn check(case: Case) {
    static SAMPLES: std::sync::OnceLock<Vec<Pmx>> = std::sync::OnceLock::new();
    let samples = SAMPLES.get_or_init(|| {
        super::samples(mmd_formats::format::Format::Pmx, |b| {
            Pmx::from_bytes(b).ok()
        })
    });
    let mut m = samples[usize::from(case.sample) % samples.len()].clone();
    for edit in case.edits {
        apply(&mut m, edit);
    }
    let _ = m.context();
    let _ = m.triangles().count();
    super::check_binary(&m);
}
