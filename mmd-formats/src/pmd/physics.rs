//! Rigid bodies and joints (the physics extension).

use crate::physics::{CollisionMask, RigidShape};
use crate::text::ShiftJis;
use crate::Mmd;

/// One rigid body: 83 bytes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct RigidBody {
    /// Rigid-body name, 20 bytes of Shift_JIS.
    ///
    /// Trap: bytes after the NUL are often left over from an earlier, longer name
    /// (`u_body1\0\0y\0` then 0xFD): they are kept.
    pub name: ShiftJis<20>,
    /// The related bone; **0xFFFF = none** (MMDAgent then uses bone 0).
    pub bone: u16,
    /// Collision group, 0-15.
    pub group: u8,
    /// Collision mask, 16 bits, as in PMX: bit n set = collides with group n (editors
    /// show the clear bits as "non-collision groups"). Other readers name it
    /// "collisionMask" (MMDAgent, which passes it to Bullet as the collide-with mask),
    /// "group_target" (Kaitai), "no_collision_group" (pymeshio). Kept as stored.
    pub collision_mask: u16,
    /// Shape, see [`RigidShape`]: 0 sphere, 1 box, 2 capsule.
    pub shape: u8,
    /// Size (x, y, z): sphere: radius only; box: all three; capsule: radius and height.
    pub size: [f32; 3],
    /// Position (x, y, z), relative to the related bone.
    pub position: [f32; 3],
    /// Rotation (x, y, z), in radians.
    pub rotation: [f32; 3],
    /// Mass.
    pub mass: f32,
    /// Linear (movement) damping.
    pub linear_damping: f32,
    /// Angular (rotation) damping.
    pub angular_damping: f32,
    /// Restitution (bounce).
    pub restitution: f32,
    /// Friction.
    pub friction: f32,
    /// Physics mode: 0 follows the bone (kinematic), 1 physics, 2 physics with the bone
    /// aligned to the body's position.
    pub mode: u8,
}

impl RigidBody {
    /// The related bone, or `None` for 0xFFFF.
    pub fn bone_index(&self) -> Option<u16> {
        (self.bone != 0xFFFF).then_some(self.bone)
    }

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

/// One joint (a spring constraint between two rigid bodies): 124 bytes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct Joint {
    /// Joint name, 20 bytes of Shift_JIS (junk after the NUL is common and kept).
    pub name: ShiftJis<20>,
    /// Rigid body A (a rigid-body index).
    pub rigid_a: u32,
    /// Rigid body B (a rigid-body index).
    pub rigid_b: u32,
    /// Position (x, y, z) in model space.
    pub position: [f32; 3],
    /// Rotation (x, y, z), in radians.
    pub rotation: [f32; 3],
    /// Translation limit, lower (x, y, z).
    pub position_min: [f32; 3],
    /// Translation limit, upper (x, y, z).
    pub position_max: [f32; 3],
    /// Rotation limit, lower (x, y, z), in radians.
    pub rotation_min: [f32; 3],
    /// Rotation limit, upper (x, y, z), in radians.
    pub rotation_max: [f32; 3],
    /// Spring stiffness for translation (x, y, z).
    pub spring_position: [f32; 3],
    /// Spring stiffness for rotation (x, y, z).
    pub spring_rotation: [f32; 3],
}
