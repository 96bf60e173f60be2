//! Record builders for the PMX samples: one vertex, material, bone, morph, rigid body,
//! joint or soft body as a library value, and the boundary index values of each kind.

use super::Decl;
use crate::index::{
    BoneIndex, MaterialIndex, MorphIndex, RigidBodyIndex, TextureIndex, VertexIndex,
};
use crate::pmx::*;
use crate::text::PmxText;

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
pub(super) struct Ix {
    widths: [u8; 6],
}

impl Ix {
    pub(super) fn new(ctx: &Decl) -> Self {
        Ix { widths: ctx.widths }
    }
    pub(super) fn v(&self, i: u32) -> VertexIndex {
        VertexIndex::from_raw(i)
    }
    pub(super) fn v_max(&self) -> VertexIndex {
        VertexIndex::from_raw(vertex_max(self.widths[0]))
    }
    pub(super) fn t(&self, i: i32) -> TextureIndex {
        TextureIndex::from_raw(i)
    }
    pub(super) fn t_max(&self) -> TextureIndex {
        TextureIndex::from_raw(signed_max(self.widths[1]))
    }
    pub(super) fn m(&self, i: i32) -> MaterialIndex {
        MaterialIndex::from_raw(i)
    }
    pub(super) fn m_max(&self) -> MaterialIndex {
        MaterialIndex::from_raw(signed_max(self.widths[2]))
    }
    pub(super) fn b(&self, i: i32) -> BoneIndex {
        BoneIndex::from_raw(i)
    }
    pub(super) fn b_max(&self) -> BoneIndex {
        BoneIndex::from_raw(signed_max(self.widths[3]))
    }
    pub(super) fn mo(&self, i: i32) -> MorphIndex {
        MorphIndex::from_raw(i)
    }
    pub(super) fn mo_max(&self) -> MorphIndex {
        MorphIndex::from_raw(signed_max(self.widths[4]))
    }
    pub(super) fn r(&self, i: i32) -> RigidBodyIndex {
        RigidBodyIndex::from_raw(i)
    }
    pub(super) fn r_max(&self) -> RigidBodyIndex {
        RigidBodyIndex::from_raw(signed_max(self.widths[5]))
    }
}

/// One vertex with the given weight; the additional UVs follow the context.
pub(super) fn vertex(ctx: &Decl, n: f32, weight: Weight) -> Vertex {
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
pub(super) fn material(
    ctx: &Decl,
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
pub(super) fn bone(ctx: &Decl, name: &str, position: [f32; 3], parent: BoneIndex) -> Bone {
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
pub(super) fn morph(ctx: &Decl, name: &str, panel: u8, offsets: MorphOffsets) -> Morph {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Morph {
        name: t(name),
        name_en: t(&format!("{name}_en")),
        panel,
        offsets,
    }
}

/// A material-morph offset.
pub(super) fn material_offset(material: MaterialIndex, operation: u8, k: f32) -> MaterialOffset {
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
pub(super) fn rigid_body(
    ctx: &Decl,
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
        collision_mask: mask,
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
pub(super) fn joint(
    ctx: &Decl,
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
pub(super) fn soft_body(
    ctx: &Decl,
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
        collision_mask: 0xfff7,
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
