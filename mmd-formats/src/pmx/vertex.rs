//! Vertices and their bone weights.

use super::PmxContext;
use crate::index::BoneIndex;
use crate::Mmd;

/// One vertex.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Vertex {
    /// Position in model space (x, y, z).
    pub position: [f32; 3],
    /// Normal (x, y, z); not necessarily unit length, and kept as it is.
    pub normal: [f32; 3],
    /// Texture coordinate (u, v).
    pub uv: [f32; 2],
    /// Additional vec4 UVs: as many as the header's globals byte 1 says (0-4; each 16 bytes).
    /// Sphere mode 3 reads the first one as a UV.
    #[mmd(len = ctx.additional_uv)]
    pub additional_uv: Vec<[f32; 4]>,
    /// Bone weights: a weight-type byte, then the layout it names.
    pub weight: Weight,
    /// Edge (pencil outline) scale for this vertex.
    pub edge_scale: f32,
}

/// Bone weights, chosen by the weight-type byte (0-4).
///
/// Trap: the size differs per type (B = bone index width): BDEF1 B, BDEF2 2B + 4,
/// BDEF4 and QDEF 4B + 16, SDEF 2B + 4 + 36. A reader that treats SDEF as BDEF2 must still
/// step over the 36 bytes of C, R0 and R1, or every later vertex is misread.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext, tag = u8, name = "weight type")]
pub enum Weight {
    /// 0: one bone, weight 1.
    #[mmd(tag = 0)]
    Bdef1 {
        /// The bone.
        bone: BoneIndex,
    },
    /// 1: two bones; the second's weight is 1 - `weight`.
    #[mmd(tag = 1)]
    Bdef2 {
        /// The two bones.
        bones: [BoneIndex; 2],
        /// Weight of the first bone.
        weight: f32,
    },
    /// 2: four bones with four weights (the weights are not guaranteed to sum to 1).
    #[mmd(tag = 2)]
    Bdef4 {
        /// The four bones (-1 for unused slots).
        bones: [BoneIndex; 4],
        /// Their weights.
        weights: [f32; 4],
    },
    /// 3: spherical deform: like BDEF2, followed by C, R0 and R1 (36 bytes).
    #[mmd(tag = 3)]
    Sdef {
        /// The two bones.
        bones: [BoneIndex; 2],
        /// Weight of the first bone.
        weight: f32,
        /// SDEF centre C.
        c: [f32; 3],
        /// SDEF R0.
        r0: [f32; 3],
        /// SDEF R1.
        r1: [f32; 3],
    },
    /// 4: dual-quaternion deform (PMX 2.1), laid out like BDEF4. Real PMX 2.0 files use
    /// it too, so it is accepted whatever the version says.
    #[mmd(tag = 4)]
    Qdef {
        /// The four bones.
        bones: [BoneIndex; 4],
        /// Their weights.
        weights: [f32; 4],
    },
}
