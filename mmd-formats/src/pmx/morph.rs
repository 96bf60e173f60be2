//! Morphs: types 0-10, each with its own offset layout.

use super::PmxContext;
use crate::index::{BoneIndex, MaterialIndex, MorphIndex, RigidBodyIndex, VertexIndex};
use crate::text::PmxText;
use crate::Mmd;

/// One morph.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Morph {
    /// Morph name (usually Japanese; VMD morph keys refer to it).
    pub name: PmxText,
    /// Morph name in English.
    pub name_en: PmxText,
    /// Editor panel: 0 = hidden/system, 1 = eyebrow, 2 = eye, 3 = mouth, 4 = other.
    pub panel: u8,
    /// The morph type byte, then an i32 offset count and the offsets.
    pub offsets: MorphOffsets,
}

/// Morph offsets, chosen by the morph-type byte (0-10).
///
/// Trap: types 4-7 (additional UV 1-4) are laid out exactly like type 3 (UV); a reader
/// that does not step over them (three.js's mmd-parser) misreads every later morph.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext, tag = u8, name = "morph type")]
pub enum MorphOffsets {
    /// 0: group: weights of other morphs.
    #[mmd(tag = 0)]
    Group(#[mmd(count = i32)] Vec<GroupOffset>),
    /// 1: vertex position offsets.
    #[mmd(tag = 1)]
    Vertex(#[mmd(count = i32)] Vec<VertexOffset>),
    /// 2: bone translation and rotation.
    #[mmd(tag = 2)]
    Bone(#[mmd(count = i32)] Vec<BoneOffset>),
    /// 3: UV offsets.
    #[mmd(tag = 3)]
    Uv(#[mmd(count = i32)] Vec<UvOffset>),
    /// 4: additional UV 1 offsets (laid out like type 3).
    #[mmd(tag = 4)]
    AdditionalUv1(#[mmd(count = i32)] Vec<UvOffset>),
    /// 5: additional UV 2 offsets (laid out like type 3).
    #[mmd(tag = 5)]
    AdditionalUv2(#[mmd(count = i32)] Vec<UvOffset>),
    /// 6: additional UV 3 offsets (laid out like type 3).
    #[mmd(tag = 6)]
    AdditionalUv3(#[mmd(count = i32)] Vec<UvOffset>),
    /// 7: additional UV 4 offsets (laid out like type 3).
    #[mmd(tag = 7)]
    AdditionalUv4(#[mmd(count = i32)] Vec<UvOffset>),
    /// 8: material colour and texture-tint offsets.
    #[mmd(tag = 8)]
    Material(#[mmd(count = i32)] Vec<MaterialOffset>),
    /// 9 (2.1): flip: like a group morph, but only the one with the highest weight applies.
    #[mmd(tag = 9)]
    Flip(#[mmd(count = i32)] Vec<GroupOffset>),
    /// 10 (2.1): impulse applied to rigid bodies.
    #[mmd(tag = 10)]
    Impulse(#[mmd(count = i32)] Vec<ImpulseOffset>),
}

/// A group (type 0) or flip (type 9) offset.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct GroupOffset {
    /// The morph driven.
    pub morph: MorphIndex,
    /// Its weight.
    pub weight: f32,
}

/// A vertex (type 1) offset.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct VertexOffset {
    /// The vertex moved (unsigned at 1 and 2 bytes).
    pub vertex: VertexIndex,
    /// Its translation (x, y, z).
    pub offset: [f32; 3],
}

/// A bone (type 2) offset.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct BoneOffset {
    /// The bone moved.
    pub bone: BoneIndex,
    /// Translation (x, y, z).
    pub translation: [f32; 3],
    /// Rotation quaternion (x, y, z, w).
    pub rotation: [f32; 4],
}

/// A UV (type 3) or additional-UV (types 4-7) offset.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct UvOffset {
    /// The vertex whose UV moves.
    pub vertex: VertexIndex,
    /// The offset (u, v, and two more components used by additional UVs).
    pub offset: [f32; 4],
}

/// A material (type 8) offset.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct MaterialOffset {
    /// The material changed (-1 = every material).
    pub material: MaterialIndex,
    /// 0 = multiply, 1 = add.
    pub operation: u8,
    /// Diffuse (R, G, B, A).
    pub diffuse: [f32; 4],
    /// Specular (R, G, B).
    pub specular: [f32; 3],
    /// Specular strength.
    pub specular_strength: f32,
    /// Ambient (R, G, B).
    pub ambient: [f32; 3],
    /// Edge colour (R, G, B, A).
    pub edge_color: [f32; 4],
    /// Edge size.
    pub edge_size: f32,
    /// Texture tint (R, G, B, A).
    pub texture_tint: [f32; 4],
    /// Sphere texture tint (R, G, B, A).
    pub sphere_tint: [f32; 4],
    /// Toon texture tint (R, G, B, A).
    pub toon_tint: [f32; 4],
}

/// An impulse (type 10) offset.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct ImpulseOffset {
    /// The rigid body pushed.
    pub rigid_body: RigidBodyIndex,
    /// 0 = world space, 1 = local space.
    pub local: u8,
    /// Velocity (x, y, z).
    pub velocity: [f32; 3],
    /// Torque (x, y, z).
    pub torque: [f32; 3],
}
