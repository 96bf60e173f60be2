//! Soft bodies (PMX 2.1 only).

use super::PmxContext;
use crate::index::{MaterialIndex, RigidBodyIndex, VertexIndex};
use crate::text::PmxText;
use crate::{mmd_flags, Mmd};

mmd_flags! {
    /// Soft-body flags (one byte).
    pub struct SoftBodyFlags(u8) {
        /// 0x01: create bending links (B-Link).
        const B_LINK = 0x01;
        /// 0x02: create clusters.
        const CLUSTER = 0x02;
        /// 0x04: link crossing (randomise constraints).
        const LINK_CROSSING = 0x04;
    }
}

/// One soft body (Bullet soft-body parameters).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct SoftBody {
    /// Soft-body name.
    pub name: PmxText,
    /// Soft-body name in English.
    pub name_en: PmxText,
    /// Shape: 0 = triangle mesh, 1 = rope.
    pub shape: u8,
    /// The material whose faces form the soft body.
    pub material: MaterialIndex,
    /// Collision group.
    pub group: u8,
    /// The groups the soft body collides with (16 bits): bit n set = collides with group
    /// n; editors show the clear bits as the "non-collision groups". Kept as stored.
    pub collision_mask: u16,
    /// Flags.
    pub flags: SoftBodyFlags,
    /// B-link creation distance.
    pub b_link_distance: i32,
    /// Number of clusters.
    pub cluster_count: i32,
    /// Total mass.
    pub total_mass: f32,
    /// Collision margin.
    pub collision_margin: f32,
    /// Aerodynamics model: 0 = V_Point, 1 = V_TwoSided, 2 = V_OneSided, 3 = F_TwoSided,
    /// 4 = F_OneSided.
    pub aero_model: i32,
    /// Config VCF: velocities correction factor (Baumgarte).
    pub vcf: f32,
    /// Config DP: damping coefficient.
    pub dp: f32,
    /// Config DG: drag coefficient.
    pub dg: f32,
    /// Config LF: lift coefficient.
    pub lf: f32,
    /// Config PR: pressure coefficient.
    pub pr: f32,
    /// Config VC: volume conservation coefficient.
    pub vc: f32,
    /// Config DF: dynamic friction coefficient.
    pub df: f32,
    /// Config MT: pose matching coefficient.
    pub mt: f32,
    /// Config CHR: rigid contacts hardness.
    pub chr: f32,
    /// Config KHR: kinetic contacts hardness.
    pub khr: f32,
    /// Config SHR: soft contacts hardness.
    pub shr: f32,
    /// Config AHR: anchors hardness.
    pub ahr: f32,
    /// Cluster SRHR_CL: soft vs rigid hardness.
    pub srhr_cl: f32,
    /// Cluster SKHR_CL: soft vs kinetic hardness.
    pub skhr_cl: f32,
    /// Cluster SSHR_CL: soft vs soft hardness.
    pub sshr_cl: f32,
    /// Cluster SR_SPLT_CL: soft vs rigid impulse split.
    pub sr_splt_cl: f32,
    /// Cluster SK_SPLT_CL: soft vs kinetic impulse split.
    pub sk_splt_cl: f32,
    /// Cluster SS_SPLT_CL: soft vs soft impulse split.
    pub ss_splt_cl: f32,
    /// Iteration V_IT: velocities solver iterations.
    pub v_it: i32,
    /// Iteration P_IT: positions solver iterations.
    pub p_it: i32,
    /// Iteration D_IT: drift solver iterations.
    pub d_it: i32,
    /// Iteration C_IT: cluster solver iterations.
    pub c_it: i32,
    /// Material LST: linear stiffness coefficient. Trap: seed 002 says int, other readers
    /// float; the 4 bytes are stored as they are (`i32::from_le_bytes` / `f32::from_le_bytes`).
    pub lst: [u8; 4],
    /// Material AST: area/angular stiffness coefficient (int or float; see `lst`).
    pub ast: [u8; 4],
    /// Material VST: volume stiffness coefficient (int or float; see `lst`).
    pub vst: [u8; 4],
    /// Anchor rigid bodies, preceded by an i32 count.
    #[mmd(count = i32)]
    pub anchors: Vec<SoftBodyAnchor>,
    /// Pinned vertices, preceded by an i32 count.
    #[mmd(count = i32)]
    pub pins: Vec<VertexIndex>,
}

/// A soft-body anchor: a vertex tied to a rigid body.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct SoftBodyAnchor {
    /// The rigid body.
    pub rigid_body: RigidBodyIndex,
    /// The vertex.
    pub vertex: VertexIndex,
    /// Near mode (0 = off, 1 = on).
    pub near_mode: u8,
}
