//! Bones, IK chains and the bone display list.

use crate::text::ShiftJis;
use crate::Mmd;

/// One bone: 39 bytes.
///
/// Trap: in known files every parent comes before its child, but nothing in the format
/// says so; walk bones in topological order when positions depend on parents.
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct Bone {
    /// Bone name, 20 bytes of Shift_JIS (VMD keys refer to bones by it).
    pub name: ShiftJis<20>,
    /// Parent bone index; **0xFFFF = no parent** (a root bone).
    pub parent: u16,
    /// Tail bone index: the bone the display arrow points at.
    ///
    /// Trap: the sources say -1 means none, but files use **0 for "none"** (the type-7 end
    /// bones and others) and never 0xFFFF. 0 is ambiguous with bone 0; the raw value is
    /// kept.
    pub tail: u16,
    /// Bone type, see [`BoneKind`]: 0 rotate, 1 rotate and move, 2 IK, 3 unknown, 4 under
    /// IK, 5 under rotate, 6 IK target, 7 invisible (end), 8 twist, 9 follow rotate,
    /// 10 follow move. Other values are kept.
    pub bone_type: u8,
    /// A number whose meaning depends on the type. Type 4 (under IK): the IK bone (but 0 in
    /// some files). Type 5 (under rotate): the bone whose rotation is copied. Type 9
    /// (follow rotate): the co-rotation coefficient in percent, a **signed** i16 stored in
    /// the same two bytes (65486 = -50, 65436 = -100). Other types: 0.
    pub ik_parent: u16,
    /// Head position (x, y, z) in model space (absolute, not relative to the parent).
    pub position: [f32; 3],
}

/// The bone type byte as a typed view (the byte itself is [`Bone::bone_type`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoneKind {
    /// 0: rotates.
    Rotate,
    /// 1: rotates and moves.
    RotateMove,
    /// 2: an IK bone (the goal an IK chain reaches for).
    Ik,
    /// 3: unknown; not seen in files.
    Unknown,
    /// 4: under the influence of an IK chain.
    UnderIk,
    /// 5: copies another bone's rotation (the bone in `ik_parent`).
    UnderRotate,
    /// 6: an IK target (the effector end).
    IkTarget,
    /// 7: invisible; the end bone of a chain.
    Invisible,
    /// 8: twist.
    Twist,
    /// 9: follows another bone's rotation by the coefficient in `ik_parent`.
    FollowRotate,
    /// 10: follows another bone's movement; not seen in files.
    FollowMove,
    /// Any other value, as stored.
    Other(u8),
}

impl BoneKind {
    /// The kind a type byte names.
    pub const fn from_byte(b: u8) -> Self {
        match b {
            0 => BoneKind::Rotate,
            1 => BoneKind::RotateMove,
            2 => BoneKind::Ik,
            3 => BoneKind::Unknown,
            4 => BoneKind::UnderIk,
            5 => BoneKind::UnderRotate,
            6 => BoneKind::IkTarget,
            7 => BoneKind::Invisible,
            8 => BoneKind::Twist,
            9 => BoneKind::FollowRotate,
            10 => BoneKind::FollowMove,
            other => BoneKind::Other(other),
        }
    }

    /// The type byte for this kind.
    pub const fn to_byte(self) -> u8 {
        match self {
            BoneKind::Rotate => 0,
            BoneKind::RotateMove => 1,
            BoneKind::Ik => 2,
            BoneKind::Unknown => 3,
            BoneKind::UnderIk => 4,
            BoneKind::UnderRotate => 5,
            BoneKind::IkTarget => 6,
            BoneKind::Invisible => 7,
            BoneKind::Twist => 8,
            BoneKind::FollowRotate => 9,
            BoneKind::FollowMove => 10,
            BoneKind::Other(b) => b,
        }
    }
}

impl Bone {
    /// The bone type as a typed view.
    pub fn kind(&self) -> BoneKind {
        BoneKind::from_byte(self.bone_type)
    }

    /// The parent bone index, or `None` for 0xFFFF (a root bone).
    pub fn parent_index(&self) -> Option<u16> {
        (self.parent != 0xFFFF).then_some(self.parent)
    }

    /// The tail bone index, or `None` for 0 (what files use for "no tail") and for 0xFFFF
    /// (what the sources say). A tail that really is bone 0 cannot be told apart.
    pub fn tail_index(&self) -> Option<u16> {
        (self.tail != 0 && self.tail != 0xFFFF).then_some(self.tail)
    }

    /// For a follow-rotate bone (type 9): the co-rotation coefficient in percent, read as
    /// the signed i16 it is (-100 to 100 in files). `None` for every other type.
    pub fn co_rotation_percent(&self) -> Option<i16> {
        (self.bone_type == 9).then_some(self.ik_parent as i16)
    }
}

/// One IK chain: 11 + 2 × links bytes.
#[derive(Mmd, Debug, Clone, PartialEq, Default)]
pub struct IkChain {
    /// The IK bone: the goal the chain reaches for (a type-2 bone in files). Named
    /// "target" by Kaitai and three.js, "destBoneID" by MMDAgent.
    pub ik_bone: u16,
    /// The effector: the end bone moved toward the goal (type 6 or 4 in files). Named
    /// "effector" by Kaitai and, confusingly, "targetBoneID" by MMDAgent.
    pub effector: u16,
    /// The number of links that follow (1-5 in files).
    ///
    /// Trap: the count is separated from the links by two fields; it must equal the
    /// number of links when writing.
    pub link_count: u8,
    /// Solver iterations (3-40 in files).
    pub iterations: u16,
    /// Rotation limit per step; MMDAgent multiplies it by pi to get radians.
    pub control_weight: f32,
    /// The chain's bones, from the effector's parent toward the root.
    #[mmd(len = *link_count)]
    pub links: Vec<u16>,
}

/// One entry of the bone display list: a bone shown in a bone frame (display group).
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoneDisplay {
    /// The bone index.
    pub bone: u16,
    /// The bone frame, **1-based**: 1 is the first bone frame name (0 is not used in
    /// files; it would be the root frame in PMX terms).
    pub frame: u8,
}

impl BoneDisplay {
    /// The 0-based index into the bone frame names, or `None` for frame 0.
    pub fn frame_index(&self) -> Option<usize> {
        usize::from(self.frame).checked_sub(1)
    }
}

impl IkChain {
    /// A chain with `links` and `link_count` set to their number (a chain of more than 255
    /// links keeps a count of 255, and writing it fails).
    pub fn new(
        ik_bone: u16,
        effector: u16,
        iterations: u16,
        control_weight: f32,
        links: Vec<u16>,
    ) -> Self {
        IkChain {
            ik_bone,
            effector,
            link_count: u8::try_from(links.len()).unwrap_or(u8::MAX),
            iterations,
            control_weight,
            links,
        }
    }
}
