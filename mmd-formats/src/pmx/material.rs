//! Materials.

use super::PmxContext;
use crate::index::TextureIndex;
use crate::text::PmxText;
use crate::{mmd_flags, Mmd};

mmd_flags! {
    /// Material drawing flags (one byte). Bits 5-7 are PMX 2.1; unknown bits are kept.
    pub struct MaterialFlags(u8) {
        /// 0x01: draw both faces (no back-face culling).
        const DOUBLE_SIDED = 0x01;
        /// 0x02: cast a shadow on the ground.
        const GROUND_SHADOW = 0x02;
        /// 0x04: cast a shadow onto the self-shadow map.
        const SELF_SHADOW_MAP = 0x04;
        /// 0x08: receive self-shadows.
        const SELF_SHADOW = 0x08;
        /// 0x10: draw the pencil-outline edge.
        const EDGE = 0x10;
        /// 0x20 (2.1): use the first additional UV as a vertex colour.
        const VERTEX_COLOR = 0x20;
        /// 0x40 (2.1): draw as points.
        const POINT_DRAW = 0x40;
        /// 0x80 (2.1): draw as lines.
        const LINE_DRAW = 0x80;
    }
}

/// One material: the faces it covers are the next `face_count` vertex indices of the face
/// list (materials cover the face list in order; the start is the running sum).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Material {
    /// Material name (usually Japanese).
    pub name: PmxText,
    /// Material name in English.
    pub name_en: PmxText,
    /// Diffuse colour (R, G, B, A). Trap: when recolouring, change RGB only; A is the
    /// material's opacity (semi-transparent hair relies on it).
    pub diffuse: [f32; 4],
    /// Specular colour (R, G, B).
    pub specular: [f32; 3],
    /// Specular strength (the highlight's exponent).
    pub specular_strength: f32,
    /// Ambient colour (R, G, B).
    pub ambient: [f32; 3],
    /// Drawing flags.
    pub flags: MaterialFlags,
    /// Edge colour (R, G, B, A).
    pub edge_color: [f32; 4],
    /// Edge size (1.0 is about one pixel).
    pub edge_size: f32,
    /// Texture (-1 = none).
    pub texture: TextureIndex,
    /// Sphere (environment) texture (-1 = none).
    pub sphere_texture: TextureIndex,
    /// Sphere mode: 0 = off, 1 = multiply, 2 = add, 3 = sub-texture (seed 000; seed 001
    /// says "subtract", seed 002 "additional vec4 as UV"). Other values occur (255 in a
    /// real file) and are kept.
    pub sphere_mode: u8,
    /// Toon: a shared-toon flag byte, then a texture index (flag 0) or a one-byte shared
    /// toon number (flag 1).
    pub toon: Toon,
    /// Free-form memo (scripts, notes).
    pub memo: PmxText,
    /// How many vertex indices (three per triangle) of the face list this material uses.
    pub face_count: i32,
}

/// The toon branch, chosen by the shared-toon flag byte.
///
/// Trap: this is the one place where the material layout branches. Reading the flag as
/// anything but a branch (or reading a texture index when the flag is 1) misplaces every
/// later byte: materials read, then the bones fail.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext, tag = u8, name = "shared-toon flag")]
pub enum Toon {
    /// Flag 0: an individual toon texture (texture index width from the header; -1 = none).
    #[mmd(tag = 0)]
    Texture(TextureIndex),
    /// Flag 1: a shared toon, one byte: 0-9 for toon01.bmp-toon10.bmp.
    #[mmd(tag = 1)]
    Shared(u8),
}
