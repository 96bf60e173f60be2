//! Right-handed views of the stored keys (see [`crate::coords`]): the values are read, never
//! changed.

use super::keys::{BoneKey, CameraKey, LightKey};
use crate::coords::{camera_euler_to_rh, position_to_rh, quaternion_to_rh};

impl BoneKey {
    /// The position in right-handed coordinates (Z negated).
    pub fn position_rh(&self) -> [f32; 3] {
        position_to_rh(self.position)
    }

    /// The rotation in right-handed coordinates, (−x, −y, z, w).
    pub fn rotation_rh(&self) -> [f32; 4] {
        quaternion_to_rh(self.rotation)
    }
}

impl CameraKey {
    /// The target in right-handed coordinates (Z negated).
    pub fn target_rh(&self) -> [f32; 3] {
        position_to_rh(self.target)
    }

    /// The Euler angles in right-handed coordinates, (x, y, −z).
    pub fn rotation_rh(&self) -> [f32; 3] {
        camera_euler_to_rh(self.rotation)
    }
}

impl LightKey {
    /// The light direction in right-handed coordinates (Z negated).
    pub fn direction_rh(&self) -> [f32; 3] {
        position_to_rh(self.direction)
    }
}
