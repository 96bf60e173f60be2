//! MMD's coordinates, and the little maths the tools need: right-handed views of MMD's
//! left-handed, Y-up coordinates (for three.js, glTF, OpenGL), 3 × 3 rotation matrices and
//! quaternion products.
//!
//! The conversion flips the Z axis (the mirror S = diag(1, 1, −1)):
//!
//! * a position or direction (x, y, z) becomes (x, y, −z);
//! * a rotation quaternion (x, y, z, w) becomes (−x, −y, z, w): its axis is a
//!   pseudo-vector, so under a mirror of determinant −1 it becomes −S·axis;
//! * the camera's Euler angles (x, y, z) become (x, y, −z), and its target (x, y, −z).
//!
//! Mirroring a motion left-right is a different operation (see [`Vmd::mirror`](crate::vmd::Vmd::mirror)).
//!
//! These are views: the stored values are never changed.
//!

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

/// The quaternion (x, y, z, w) of the rotation by `angle` radians about a unit axis.
pub fn quat_from_axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
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
