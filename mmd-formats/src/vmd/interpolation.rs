//! Typed views of the interpolation bytes: four curves per bone key, six per camera key.
//!
//! A curve is a cubic Bézier from (0, 0) to (1, 1) with two control points (x1, y1) and
//! (x2, y2), each coordinate stored as a byte in 0..127 where 127 = 1.0. Control points on
//! the diagonal give a straight line; MMD puts (20, 20) and (107, 107) in every new key.

/// One cubic Bézier curve: control points (x1, y1) and (x2, y2), 0..127 = 0.0..1.0.
///
/// The values are kept as stored; bytes above 127 (written by some non-MMD tools) are
/// kept too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Curve {
    /// First control point, x (time).
    pub x1: u8,
    /// First control point, y (progress).
    pub y1: u8,
    /// Second control point, x (time).
    pub x2: u8,
    /// Second control point, y (progress).
    pub y2: u8,
}

impl Curve {
    /// MMD's default for a new key: (20, 20) and (107, 107), a straight line.
    pub const LINEAR: Curve = Curve::new(20, 20, 107, 107);

    /// A curve from its control points.
    pub const fn new(x1: u8, y1: u8, x2: u8, y2: u8) -> Self {
        Curve { x1, y1, x2, y2 }
    }

    /// True when both control points are on the diagonal (the curve is a straight line).
    pub fn is_linear(&self) -> bool {
        self.x1 == self.y1 && self.x2 == self.y2
    }

    /// The control points scaled to 0.0..1.0 (value / 127): `[(x1, y1), (x2, y2)]`.
    pub fn control_points(&self) -> [(f32, f32); 2] {
        let f = |v: u8| f32::from(v) / 127.0;
        [(f(self.x1), f(self.y1)), (f(self.x2), f(self.y2))]
    }
}

impl Default for Curve {
    fn default() -> Self {
        Curve::LINEAR
    }
}

/// The four curves of a bone key: X move, Y move, Z move, rotation.
///
/// The 64-byte block is four rows of 16 bytes. Row 0 holds the 16 values in the order
/// X_x1, Y_x1, Z_x1, R_x1, X_y1, Y_y1, Z_y1, R_y1, X_x2, …, R_x2, X_y2, …, R_y2; each
/// later row holds the same sequence shifted left by one more byte, so the bytes shifted
/// out at the end of a row (one in row 1, two in row 2, three in row 3) carry no curve.
/// Row 0's bytes 2 and 3 (Z_x1, R_x1 by the pattern) are not curve data in real files:
/// MMD writes its physics flag there (0, 0 = on; 99, 15 = off), older writers a copy.
///
/// MMD reads curve k (0 = X, 1 = Y, 2 = Z, 3 = rotation) from row k: x1 = byte 16k,
/// y1 = 16k + 4, x2 = 16k + 8, y2 = 16k + 12. That is what [`Interpolation::from_bytes`]
/// does. It agrees with the spec's rule (row 0, with Z_x1 and R_x1 from bytes 17 and 18 of
/// row 1) on every block MMD writes; where a non-MMD tool wrote inconsistent rows, this
/// reading is the one MMD plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Interpolation {
    /// X move.
    pub x: Curve,
    /// Y move.
    pub y: Curve,
    /// Z move.
    pub z: Curve,
    /// Rotation.
    pub rotation: Curve,
}

/// The positions in the 64-byte block of the six row-end bytes that carry no curve:
/// byte 15 of row 1, bytes 14-15 of row 2, bytes 13-15 of row 3.
const TAIL_AT: [usize; 6] = [31, 46, 47, 61, 62, 63];

impl Interpolation {
    /// All four curves linear: MMD's default for a new key.
    pub const LINEAR: Interpolation = Interpolation {
        x: Curve::LINEAR,
        y: Curve::LINEAR,
        z: Curve::LINEAR,
        rotation: Curve::LINEAR,
    };

    /// The curves in block order: X, Y, Z, rotation.
    pub fn curves(&self) -> [Curve; 4] {
        [self.x, self.y, self.z, self.rotation]
    }

    /// Curves from block order (X, Y, Z, rotation).
    pub fn from_curves(c: [Curve; 4]) -> Self {
        Interpolation {
            x: c[0],
            y: c[1],
            z: c[2],
            rotation: c[3],
        }
    }

    /// Reads the curves where MMD reads them: curve k from row k, bytes 16k, 16k + 4,
    /// 16k + 8 and 16k + 12.
    pub fn from_bytes(b: &[u8; 64]) -> Self {
        let curve = |k: usize| Curve::new(b[16 * k], b[16 * k + 4], b[16 * k + 8], b[16 * k + 12]);
        Interpolation::from_curves([curve(0), curve(1), curve(2), curve(3)])
    }

    /// The 16 values in row-0 order: x1 of X, Y, Z, R; then y1; then x2; then y2.
    pub fn values(&self) -> [u8; 16] {
        let c = self.curves();
        let mut v = [0u8; 16];
        for (k, curve) in c.iter().enumerate() {
            v[k] = curve.x1;
            v[4 + k] = curve.y1;
            v[8 + k] = curve.x2;
            v[12 + k] = curve.y2;
        }
        v
    }

    /// The block as MMD writes it for a new key: physics on (row 0 bytes 2, 3 = 0, 0) and
    /// zeros at the row ends. For the linear curves this is the spec's default listing.
    pub fn to_bytes(&self) -> [u8; 64] {
        self.to_bytes_with(&InterpolationExtras::default())
    }

    /// The block in MMD's layout, with the given physics flag and row-end bytes. For a
    /// block MMD wrote, `Interpolation::from_bytes(b).to_bytes_with(&extras(b)) == b`.
    pub fn to_bytes_with(&self, extras: &InterpolationExtras) -> [u8; 64] {
        let v = self.values();
        let mut out = [0u8; 64];
        for (row, chunk) in out.chunks_exact_mut(16).enumerate() {
            for (j, byte) in chunk.iter_mut().enumerate() {
                if let Some(value) = v.get(j + row) {
                    *byte = *value;
                }
            }
        }
        out[2..4].copy_from_slice(&extras.physics);
        for (at, byte) in TAIL_AT.iter().zip(extras.tail) {
            out[*at] = byte;
        }
        out
    }
}

/// The bytes of a bone key's interpolation block that are not curve values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct InterpolationExtras {
    /// Row 0, bytes 2 and 3: MMD's physics flag (0, 0 = physics on; 99, 15 = off), or in
    /// files from older writers a copy of Z_x1 and R_x1.
    pub physics: [u8; 2],
    /// The six row-end bytes (row 1 byte 15, row 2 bytes 14-15, row 3 bytes 13-15): 0 from
    /// newer MMD, `01` / `01 00` / `01 00 00` from older MMD, sometimes junk.
    pub tail: [u8; 6],
}

impl InterpolationExtras {
    /// The physics-off marker: 99, 15 (0x63 0x0F; 3939 as a little-endian u16).
    pub const PHYSICS_OFF: [u8; 2] = [99, 15];
    /// The physics-on flag MMD writes: 0, 0.
    pub const PHYSICS_ON: [u8; 2] = [0, 0];

    /// The extras of a block.
    pub fn from_bytes(b: &[u8; 64]) -> Self {
        let mut tail = [0u8; 6];
        for (slot, at) in tail.iter_mut().zip(TAIL_AT) {
            *slot = b[at];
        }
        InterpolationExtras {
            physics: [b[2], b[3]],
            tail,
        }
    }

    /// True when the physics flag is the off marker 99, 15.
    pub fn physics_off(&self) -> bool {
        self.physics == Self::PHYSICS_OFF
    }
}

/// The six curves of a camera key, in file order.
///
/// Each curve takes 4 bytes in the order x1, x2, y1, y2 (not x1, y1, …), with no shifted
/// copies; MMD's linear default is stored as `20 107 20 107`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CameraInterpolation {
    /// Target X.
    pub target_x: Curve,
    /// Target Y.
    pub target_y: Curve,
    /// Target Z.
    pub target_z: Curve,
    /// Rotation (one curve for all three angles).
    pub rotation: Curve,
    /// Distance.
    pub distance: Curve,
    /// View angle.
    pub fov: Curve,
}

impl CameraInterpolation {
    /// All six curves linear.
    pub const LINEAR: CameraInterpolation = CameraInterpolation {
        target_x: Curve::LINEAR,
        target_y: Curve::LINEAR,
        target_z: Curve::LINEAR,
        rotation: Curve::LINEAR,
        distance: Curve::LINEAR,
        fov: Curve::LINEAR,
    };

    /// The curves in file order.
    pub fn curves(&self) -> [Curve; 6] {
        [
            self.target_x,
            self.target_y,
            self.target_z,
            self.rotation,
            self.distance,
            self.fov,
        ]
    }

    /// Reads the 24 bytes: six curves of x1, x2, y1, y2.
    pub fn from_bytes(b: &[u8; 24]) -> Self {
        let c = |i: usize| Curve::new(b[4 * i], b[4 * i + 2], b[4 * i + 1], b[4 * i + 3]);
        CameraInterpolation {
            target_x: c(0),
            target_y: c(1),
            target_z: c(2),
            rotation: c(3),
            distance: c(4),
            fov: c(5),
        }
    }

    /// The 24 bytes: six curves of x1, x2, y1, y2.
    pub fn to_bytes(&self) -> [u8; 24] {
        let mut out = [0u8; 24];
        for (chunk, c) in out.chunks_exact_mut(4).zip(self.curves()) {
            chunk.copy_from_slice(&[c.x1, c.x2, c.y1, c.y2]);
        }
        out
    }
}
