//! Bones and their flag-driven blocks.

use super::PmxContext;
use crate::index::BoneIndex;
use crate::text::PmxText;
use crate::{mmd_flags, Mmd};

mmd_flags! {
    /// Bone flags (u16). The flags decide which blocks follow, in this file order: tail
    /// (0x0001), inherit (0x0100 | 0x0200), fixed axis (0x0400), local axes (0x0800),
    /// external parent (0x2000), IK (0x0020). Unknown bits are kept.
    pub struct BoneFlags(u16) {
        /// 0x0001: the tail is a bone index (otherwise a position offset of 12 bytes).
        const TAIL_IS_BONE = 0x0001;
        /// 0x0002: rotatable.
        const ROTATABLE = 0x0002;
        /// 0x0004: translatable.
        const TRANSLATABLE = 0x0004;
        /// 0x0008: visible (shown in the editor).
        const VISIBLE = 0x0008;
        /// 0x0010: enabled (operable in the editor).
        const ENABLED = 0x0010;
        /// 0x0020: IK: an IK block follows.
        const IK = 0x0020;
        /// 0x0080: inherit from the parent's local transform (local grant).
        const INHERIT_LOCAL = 0x0080;
        /// 0x0100: inherit rotation: an inherit block follows.
        const INHERIT_ROTATION = 0x0100;
        /// 0x0200: inherit translation: an inherit block follows.
        const INHERIT_TRANSLATION = 0x0200;
        /// 0x0400: fixed axis: an axis vector follows.
        const FIXED_AXIS = 0x0400;
        /// 0x0800: local axes: X and Z axis vectors follow.
        const LOCAL_AXES = 0x0800;
        /// 0x1000: deform after physics.
        const PHYSICS_AFTER_DEFORM = 0x1000;
        /// 0x2000: external parent deform: a key follows.
        const EXTERNAL_PARENT = 0x2000;
    }
}

/// One bone.
///
/// Trap: a bone's parent may come after it in the list (a real model has one); walk bones
/// in topological order, not file order, when positions depend on parents.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Bone {
    /// Bone name (usually Japanese; VMD keys refer to bones by this name).
    pub name: PmxText,
    /// Bone name in English.
    pub name_en: PmxText,
    /// Position in model space (absolute, not relative to the parent).
    pub position: [f32; 3],
    /// Parent bone (-1 = none).
    pub parent: BoneIndex,
    /// Deform layer (transform order).
    pub layer: i32,
    /// Flags: which of the following blocks are present.
    pub flags: BoneFlags,
    /// Tail: a bone (flag 0x0001) or an offset from this bone's position.
    #[mmd(select = flags.contains(BoneFlags::TAIL_IS_BONE))]
    pub tail: BoneTail,
    /// Inherit (grant) parent and weight; present with flag 0x0100 or 0x0200.
    #[mmd(if = flags.intersects(BoneFlags::INHERIT_ROTATION | BoneFlags::INHERIT_TRANSLATION))]
    pub inherit: Option<Inherit>,
    /// Fixed axis direction; present with flag 0x0400.
    #[mmd(if = flags.contains(BoneFlags::FIXED_AXIS))]
    pub fixed_axis: Option<[f32; 3]>,
    /// Local X and Z axes; present with flag 0x0800.
    #[mmd(if = flags.contains(BoneFlags::LOCAL_AXES))]
    pub local_axes: Option<LocalAxes>,
    /// External parent key; present with flag 0x2000.
    #[mmd(if = flags.contains(BoneFlags::EXTERNAL_PARENT))]
    pub external_parent: Option<i32>,
    /// IK block; present with flag 0x0020.
    #[mmd(if = flags.contains(BoneFlags::IK))]
    pub ik: Option<Ik>,
}

/// The bone tail, chosen by bone flag 0x0001 (no tag byte in the file).
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext, selected_by = bool, name = "tail kind")]
pub enum BoneTail {
    /// Flag clear: an offset from the bone's position (x, y, z).
    #[mmd(tag = false)]
    Offset([f32; 3]),
    /// Flag set: the tail bone (-1 = none).
    #[mmd(tag = true)]
    Bone(BoneIndex),
}

/// Inherit (grant): this bone takes a share of another bone's rotation and/or translation.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Inherit {
    /// The bone inherited from.
    pub parent: BoneIndex,
    /// The share (1.0 = all; negative values invert).
    pub weight: f32,
}

/// Local axes of a bone.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct LocalAxes {
    /// X axis direction.
    pub x: [f32; 3],
    /// Z axis direction.
    pub z: [f32; 3],
}

/// An IK block.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Ik {
    /// The IK target (effector) bone.
    pub target: BoneIndex,
    /// Solver iterations.
    pub loop_count: i32,
    /// Limit angle per iteration, in radians.
    pub limit_angle: f32,
    /// The chain of links, from the effector's parent upwards, preceded by an i32 count.
    #[mmd(count = i32)]
    pub links: Vec<IkLink>,
}

/// One IK link.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct IkLink {
    /// The link bone.
    pub bone: BoneIndex,
    /// Angle-limit flag: 0 = none; any other value = the two limit vectors follow.
    pub has_limit: u8,
    /// Lower angle limit (x, y, z radians); present when `has_limit` is not 0.
    #[mmd(if = *has_limit != 0)]
    pub limit_min: Option<[f32; 3]>,
    /// Upper angle limit (x, y, z radians); present when `has_limit` is not 0.
    #[mmd(if = *has_limit != 0)]
    pub limit_max: Option<[f32; 3]>,
}
