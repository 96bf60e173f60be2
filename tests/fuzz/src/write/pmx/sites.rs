//! Where the indices, texts and lists of a PMX model are, for the edits.

use arbitrary::Arbitrary;
use mmd_formats::index::Index;
use mmd_formats::pmx::{
    BoneOffset, BoneTail, GroupOffset, ImpulseOffset, MaterialOffset, MorphOffsets, Pmx, SoftBody,
    Toon, UvOffset, VertexOffset, Weight,
};
use mmd_formats::{PmxText, VertexIndex};

use super::super::{pick, pick_vertex, resize, resize_vertices, Edge, Len};

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

pub(super) fn set_index(m: &mut Pmx, site: IndexSite, item: u16, sub: u16, raw: Edge) {
    let signed = Index::from_raw(raw.i32());
    let vertex = VertexIndex::from_raw(raw.u32());
    match site {
        IndexSite::Face => {
            if let Some(f) = pick(&mut m.faces, item) {
                *f = vertex;
            }
        }
        IndexSite::WeightBone => {
            if let Some(mut v) = pick_vertex(&mut m.vertices, item) {
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

pub(super) fn soft_body(m: &mut Pmx, item: u16) -> Option<&mut SoftBody> {
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
                o.vertex = VertexIndex::from_raw(raw.u32());
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
                o.vertex = VertexIndex::from_raw(raw.u32());
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
pub(super) fn offsets_of_kind(kind: u8, len: usize) -> MorphOffsets {
    let group = GroupOffset {
        morph: Index::from_raw(0),
        weight: 1.0,
    };
    let uv = UvOffset {
        vertex: VertexIndex::from_raw(0),
        offset: [0.0; 4],
    };
    match kind % 11 {
        0 => MorphOffsets::Group(vec![group; len]),
        1 => MorphOffsets::Vertex(vec![
            VertexOffset {
                vertex: VertexIndex::from_raw(0),
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

pub(super) fn text_at(m: &mut Pmx, site: TextSite, item: u16) -> Option<&mut PmxText> {
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

pub(super) fn resize_section(m: &mut Pmx, section: Section, item: u16, len: Len) {
    match section {
        Section::Vertices => resize_vertices(&mut m.vertices, len),
        Section::Faces => resize(&mut m.faces, len, Some(VertexIndex::from_raw(0))),
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
                resize(&mut s.pins, len, Some(VertexIndex::from_raw(0)));
            }
        }
    }
}
