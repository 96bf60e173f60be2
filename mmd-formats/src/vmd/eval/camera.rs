//! The camera at a frame, and where it is (see "Where the camera is" in the
//! [module documentation](super)).

use super::{mix, Bracket, Track};
use crate::coords::{
    camera_euler_to_rh, mat_apply, mat_mul, position_to_rh, quat_from_axis_angle, quat_mul, rot_x,
    rot_y, rot_z, Mat3,
};
use crate::vmd::CameraKey;

/// The camera at a frame, in MMD's coordinates (see [`CameraState::position`] for where
/// the camera is, and [`CameraState::to_right_handed`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraState {
    /// Distance from the target (negative = pulled back, as MMD writes it).
    pub distance: f32,
    /// The target ("注視点") position.
    pub target: [f32; 3],
    /// Euler angles (x, y, z), radians.
    pub rotation: [f32; 3],
    /// View angle in degrees (fractional between keys).
    pub fov: f32,
    /// Perspective flag of the key in force (0 = perspective on): it steps.
    pub perspective: u8,
}

impl CameraState {
    /// The state a key states.
    pub fn of(key: &CameraKey) -> Self {
        CameraState {
            distance: key.distance,
            target: key.target,
            rotation: key.rotation,
            fov: key.fov as f32,
            perspective: key.perspective,
        }
    }
}

impl Track<'_, CameraKey> {
    /// The camera at `frame`, each quantity by its curve from the later key. Between two
    /// keys exactly one frame apart (a cut) the earlier key holds: the camera jumps at the
    /// later key's frame instead of sliding. `None` when there is no camera key.
    pub fn sample(&self, frame: f64) -> Option<CameraState> {
        Some(match self.bracket(frame)? {
            Bracket::At(k) => CameraState::of(k),
            Bracket::Between { from, to, .. } if to.frame - from.frame == 1 => {
                CameraState::of(from)
            }
            Bracket::Between { from, to, progress } => {
                let c = to.interpolation();
                let axes = [c.target_x, c.target_y, c.target_z];
                let turn = c.rotation.eval(progress);
                CameraState {
                    distance: mix(from.distance, to.distance, c.distance.eval(progress)),
                    target: std::array::from_fn(|i| {
                        mix(from.target[i], to.target[i], axes[i].eval(progress))
                    }),
                    rotation: std::array::from_fn(|i| mix(from.rotation[i], to.rotation[i], turn)),
                    fov: mix(from.fov as f32, to.fov as f32, c.fov.eval(progress)),
                    perspective: from.perspective,
                }
            }
        })
    }
}

impl CameraKey {
    /// What this key states, as a [`CameraState`] (for [`CameraState::position`]).
    pub fn state(&self) -> CameraState {
        CameraState::of(self)
    }
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
        let qy = quat_from_axis_angle([0.0, 1.0, 0.0], y);
        let qx = quat_from_axis_angle([1.0, 0.0, 0.0], x);
        let qz = quat_from_axis_angle([0.0, 0.0, 1.0], -z);
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
    /// use mmd_formats::vmd::eval::CameraState;
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
