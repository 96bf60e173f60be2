//! Typed views shared by the rigid bodies of PMX and PMD models: the shape byte and the
//! 16-bit collision mask mean the same in both formats.
//!
//! ```
//! use mmd_formats::physics::{CollisionMask, RigidShape};
//! assert_eq!(RigidShape::from_byte(2), RigidShape::Capsule);
//! // A body of group 0 that collides with every group but its own.
//! let mask = CollisionMask(0xfffe);
//! assert!(!mask.collides_with(0));
//! assert!(mask.collides_with(1));
//! assert_eq!(mask.non_collision_groups().collect::<Vec<_>>(), [0]);
//! ```

/// The rigid-body shape byte as a typed view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RigidShape {
    /// 0: sphere (size x is the radius).
    Sphere,
    /// 1: box (size x, y, z are the half extents).
    Box,
    /// 2: capsule (size x is the radius, y the height).
    Capsule,
    /// Any other value, as stored.
    Other(u8),
}

impl RigidShape {
    /// The shape a stored byte names.
    pub const fn from_byte(byte: u8) -> Self {
        match byte {
            0 => RigidShape::Sphere,
            1 => RigidShape::Box,
            2 => RigidShape::Capsule,
            other => RigidShape::Other(other),
        }
    }

    /// The byte that stores this shape.
    pub const fn to_byte(self) -> u8 {
        match self {
            RigidShape::Sphere => 0,
            RigidShape::Box => 1,
            RigidShape::Capsule => 2,
            RigidShape::Other(byte) => byte,
        }
    }
}

/// A rigid body's 16-bit collision mask as a typed view: bit n **set** means the body
/// collides with the bodies of group n, bit n **clear** means it passes through them.
///
/// The format documents call the field the "non-collision group" flags (非衝突グループ,
/// `noCollisionGroupFlag`): an editor shows the clear bits as the groups the body does not
/// collide with. Real models store it that way round: a body usually leaves out its own
/// group (group 0 with `0xfffe`, group 3 with `0xfff7`), and MMDAgent hands the value to
/// Bullet as the mask of groups to collide with. Group n is the byte 0-15 in the file (an
/// editor shows it as n + 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CollisionMask(pub u16);

impl CollisionMask {
    /// True when the body collides with the bodies of `group` (0-15); false for a group
    /// past 15, which no bit stands for.
    pub fn collides_with(self, group: u8) -> bool {
        group < 16 && self.0 & (1 << group) != 0
    }

    /// The groups (0-15) the body does not collide with: the clear bits, ascending.
    pub fn non_collision_groups(self) -> impl Iterator<Item = u8> {
        (0..16u8).filter(move |&g| !self.collides_with(g))
    }
}
