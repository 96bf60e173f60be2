//! Right-handed views of MMD's left-handed, Y-up coordinates (for three.js, glTF, OpenGL),
//! and where the camera is.
//!
//! The conversion flips the Z axis (the mirror S = diag(1, 1, −1)):
//!
//! * a position or direction (x, y, z) becomes (x, y, −z);
//! * a rotation quaternion (x, y, z, w) becomes (−x, −y, z, w): its axis is a
//!   pseudo-vector, so under a mirror of determinant −1 it becomes −S·axis;
//! * the camera's Euler angles (x, y, z) become (x, y, −z), and its target (x, y, −z).
//!
//! Mirroring a motion left-right is a different operation (see [`Vmd::mirror`](super::Vmd::mirror)).
//!
//! These are views: the stored values are never changed.
//!
//! # Where the camera is
//!
//! Seed 004: the camera position is **target + R · (0, 0, −distance)** (in the right-handed
//! frame), not R · (target + (0, 0, −distance)); the latter, which three.js r171's
//! `MMDLoader.buildCameraAnimation()` builds, drifts more the farther the target is from
//! the origin (a shot 16.40 away became 15.29 in the seed's measurement).
//!
//! R is built from the converted angles (x, y, −z) with yaw outermost:
//! R = Ry(y) · Rx(x) · Rz(−z), i.e. roll about the view axis first, then pitch, then yaw
//! about the world's vertical (three.js Euler order `YXZ`). In MMD's own coordinates the
//! same point is target + Ry(−y) · Rx(−x) · Rz(−z) · (0, 0, distance).
//!
//! Trap: the seed says to build the angles "in XYZ order", which is the order three.js's
//! loader uses (R = Rx · Ry · Rz). The players that reproduce MMD (babylon-mmd's
//! `MmdCamera`, MMDAgent's scene controller, Blender mmd_tools' camera rig) all put the
//! yaw outermost, as here; the two orders agree when the X or the Y angle is 0 and differ
//! when a shot is both pitched and turned (at 30° pitch and 45° yaw the elevation comes
//! out as 30° here and as 21° with XYZ).

use super::eval::{BonePose, CameraState, LightState};
use super::keys::{BoneKey, CameraKey, LightKey};

/// A position or direction in right-handed coordinates: Z negated.
pub fn position_to_rh(p: [f32; 3]) -> [f32; 3] {
    [p[0], p[1], -p[2]]
}

/// A rotation quaternion (x, y, z, w) in right-handed coordinates: (−x, −y, z, w).
pub fn quaternion_to_rh(q: [f32; 4]) -> [f32; 4] {
    [-q[0], -q[1], q[2], q[3]]
}

/// Camera Euler angles (x, y, z) in right-handed coordinates: (x, y, −z).
pub fn camera_euler_to_rh(r: [f32; 3]) -> [f32; 3] {
    [r[0], r[1], -r[2]]
}

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

impl BonePose {
    /// The pose in right-handed coordinates: position Z negated, rotation (−x, −y, z, w).
    pub fn to_right_handed(&self) -> BonePose {
        BonePose {
            position: position_to_rh(self.position),
            rotation: quaternion_to_rh(self.rotation),
        }
    }
}

impl CameraKey {
    /// What this key states, as a [`CameraState`] (for [`CameraState::position`]).
    pub fn state(&self) -> CameraState {
        CameraState::of(self)
    }

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

impl LightState {
    /// The light in right-handed coordinates: the direction's Z negated.
    pub fn to_right_handed(&self) -> LightState {
        LightState {
            color: self.color,
            direction: position_to_rh(self.direction),
        }
    }
}

/// A 3 × 3 matrix, rows first, acting on column vectors.
pub type Mat3 = [[f64; 3]; 3];

/// The product a · b.
pub fn mat_mul(a: &Mat3, b: &Mat3) -> Mat3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// The matrix applied to a column vector.
pub fn mat_apply(m: &Mat3, v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| (0..3).map(|k| m[i][k] * v[k]).sum())
}

/// The right-handed rotation by `angle` radians about the X axis.
pub fn rot_x(angle: f64) -> Mat3 {
    let (s, c) = angle.sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

/// The right-handed rotation by `angle` radians about the Y axis.
pub fn rot_y(angle: f64) -> Mat3 {
    let (s, c) = angle.sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}

/// The right-handed rotation by `angle` radians about the Z axis.
pub fn rot_z(angle: f64) -> Mat3 {
    let (s, c) = angle.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// The quaternion (x, y, z, w) of the rotation by `angle` about a unit axis.
fn axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// The Hamilton product a · b of quaternions (x, y, z, w): b is applied first.
pub fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The camera methods below read the state in MMD's coordinates, as stored and as
/// [`Track::sample`](super::Track) gives it, and do the conversion themselves; do not
/// call them on a state already passed through [`CameraState::to_right_handed`].
impl CameraState {
    /// The camera's rotation R in right-handed coordinates: Ry(y) · Rx(x) · Rz(−z) for the
    /// stored angles (x, y, z) (see the module docs for the order). The camera looks along
    /// R · (0, 0, −1), with R · (0, 1, 0) up.
    pub fn rotation_matrix_rh(&self) -> Mat3 {
        let [x, y, z] = self.rotation.map(f64::from);
        mat_mul(&mat_mul(&rot_y(y), &rot_x(x)), &rot_z(-z))
    }

    /// The same rotation as a quaternion (x, y, z, w), right-handed: what a three.js
    /// camera's `quaternion` should be.
    pub fn orientation_rh(&self) -> [f64; 4] {
        let [x, y, z] = self.rotation.map(f64::from);
        let qy = axis_angle([0.0, 1.0, 0.0], y);
        let qx = axis_angle([1.0, 0.0, 0.0], x);
        let qz = axis_angle([0.0, 0.0, 1.0], -z);
        quat_mul(quat_mul(qy, qx), qz)
    }

    /// The camera position in right-handed coordinates: target_rh + R · (0, 0, −distance),
    /// with target_rh the target with Z negated. Its distance from the target is
    /// |distance| whatever the target.
    pub fn position_rh(&self) -> [f64; 3] {
        let t = position_to_rh(self.target).map(f64::from);
        let d = mat_apply(
            &self.rotation_matrix_rh(),
            [0.0, 0.0, -f64::from(self.distance)],
        );
        [t[0] + d[0], t[1] + d[1], t[2] + d[2]]
    }

    /// The camera position in MMD's coordinates: [`position_rh`](Self::position_rh) with
    /// Z negated back, which is target + Ry(−y) · Rx(−x) · Rz(−z) · (0, 0, distance).
    ///
    /// ```
    /// use mmd_formats::vmd::{CameraState};
    /// // MMD's default view: target (0, 10, 0), distance −45, no rotation: the camera
    /// // stands 45 in front of the model, at z = −45.
    /// let cam = CameraState { distance: -45.0, target: [0.0, 10.0, 0.0],
    ///                         rotation: [0.0; 3], fov: 30.0, perspective: 0 };
    /// assert_eq!(cam.position(), [0.0, 10.0, -45.0]);
    /// ```
    pub fn position(&self) -> [f64; 3] {
        let p = self.position_rh();
        [p[0], p[1], -p[2]]
    }

    /// The state in right-handed coordinates: target Z negated, Euler angles (x, y, −z);
    /// distance, view angle and perspective unchanged.
    pub fn to_right_handed(&self) -> CameraState {
        CameraState {
            target: position_to_rh(self.target),
            rotation: camera_euler_to_rh(self.rotation),
            ..*self
        }
    }
}
