//! Rigid bodies and joints.

use super::PmxContext;
use crate::index::{BoneIndex, RigidBodyIndex};
use crate::physics::{CollisionMask, RigidShape};
use crate::text::PmxText;
use crate::Mmd;

/// One rigid body.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct RigidBody {
    /// Rigid-body name.
    pub name: PmxText,
    /// Rigid-body name in English.
    pub name_en: PmxText,
    /// The related bone (-1 = none).
    pub bone: BoneIndex,
    /// Collision group (0-15).
    pub group: u8,
    /// The groups the body collides with (16 bits): bit n set = collides with group n.
    /// Editors show the clear bits as the "non-collision groups" (the documents call the
    /// field 非衝突グループ, noCollisionGroupFlag, "non-collision mask"); a body of group 0
    /// that ignores its own group stores 0xFFFE. Kept as stored.
    pub collision_mask: u16,
    /// Shape: 0 = sphere, 1 = box, 2 = capsule.
    pub shape: u8,
    /// Size (x, y, z); meaning depends on the shape (radius, half extents, radius and height).
    pub size: [f32; 3],
    /// Position in model space.
    pub position: [f32; 3],
    /// Rotation (Euler angles in radians).
    pub rotation: [f32; 3],
    /// Mass.
    pub mass: f32,
    /// Linear damping.
    pub linear_damping: f32,
    /// Angular damping.
    pub angular_damping: f32,
    /// Restitution (bounce).
    pub restitution: f32,
    /// Friction.
    pub friction: f32,
    /// Physics mode: 0 = follows the bone, 1 = physics, 2 = physics with bone position.
    /// Bones of bodies with a mode other than 0 are driven by physics every frame, so a
    /// pose export should leave them out.
    pub mode: u8,
}

impl RigidBody {
    /// The shape as a typed view.
    pub fn shape_kind(&self) -> RigidShape {
        RigidShape::from_byte(self.shape)
    }

    /// The collision mask ([`collision_mask`](Self::collision_mask)) as a typed view:
    /// which groups the body collides with.
    pub fn collides_with(&self) -> CollisionMask {
        CollisionMask(self.collision_mask)
    }
}

/// One joint (constraint between two rigid bodies).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct Joint {
    /// Joint name.
    pub name: PmxText,
    /// Joint name in English.
    pub name_en: PmxText,
    /// Joint type: 0 = spring 6DOF; PMX 2.1 adds 1 = 6DOF, 2 = point-to-point,
    /// 3 = cone-twist, 4 = slider, 5 = hinge. Every type has the same layout.
    pub kind: u8,
    /// Rigid body A.
    pub rigid_a: RigidBodyIndex,
    /// Rigid body B.
    pub rigid_b: RigidBodyIndex,
    /// Position in model space.
    pub position: [f32; 3],
    /// Rotation (Euler angles in radians).
    pub rotation: [f32; 3],
    /// Translation limit, lower (x, y, z).
    pub translation_min: [f32; 3],
    /// Translation limit, upper (x, y, z).
    pub translation_max: [f32; 3],
    /// Rotation limit, lower (radians).
    pub rotation_min: [f32; 3],
    /// Rotation limit, upper (radians).
    pub rotation_max: [f32; 3],
    /// Spring constant for translation.
    pub spring_translation: [f32; 3],
    /// Spring constant for rotation.
    pub spring_rotation: [f32; 3],
}
