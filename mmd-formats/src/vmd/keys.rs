//! The six kinds of key frame record.

use super::interpolation::{CameraInterpolation, Interpolation, InterpolationExtras};
use crate::text::ShiftJis;
use crate::Mmd;

/// A bone key frame: 111 bytes.
///
/// | offset | size | type | field |
/// |---|---|---|---|
/// | 0 | 15 | Shift_JIS | bone name |
/// | 15 | 4 | u32 | frame number |
/// | 19 | 12 | f32 × 3 | position |
/// | 31 | 16 | f32 × 4 | rotation quaternion (x, y, z, w) |
/// | 47 | 64 | u8 × 64 | interpolation curves |
///
/// Interpolation between two keys applies only between keys of the same bone, and uses
/// the curve of the later key (it says how the motion comes into that key); taking the
/// earlier key's curve swaps acceleration and deceleration.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct BoneKey {
    /// Bone name, 15 bytes of Shift_JIS, fixed length.
    ///
    /// Trap: a name must fit 15 bytes; Japanese takes 2 bytes a character in Shift_JIS,
    /// so at most 7 Japanese characters. A writer must check the encoded length
    /// ([`ShiftJis::new`] fails rather than cut).
    ///
    /// Trap: the spec says the rest of the field is zero-filled; real files hold 0xFD
    /// after the NUL, or fill all 15 bytes with no NUL. Different model bones cut to the
    /// same 15 bytes collide, so (name, frame) is not unique in real files.
    pub name: ShiftJis<15>,
    /// Frame number (30 frames a second; the file stores no frame rate).
    pub frame: u32,
    /// Position (x, y, z): the offset from the bone's initial pose, not an absolute
    /// position. Usually 0 except for the centre and IK bones.
    pub position: [f32; 3],
    /// Rotation, a quaternion in the order x, y, z, w (identity = 0, 0, 0, 1), in MMD's
    /// left-handed, Y-up coordinates.
    pub rotation: [f32; 4],
    /// Interpolation: four cubic Bézier curves (X move, Y move, Z move, rotation), each
    /// with control points (x1, y1) and (x2, y2) in 0..127 (127 = 1.0). The same 16 values
    /// are written four times, each row shifted left by one byte. Read them with
    /// [`BoneKey::interpolation`].
    ///
    /// Trap: the spec says bytes 2 and 3 of the first row are 0 in real files and the true
    /// values are in the second row's copy (bytes 17, 18); reading only the first 16
    /// bytes changes the easing. Real files also hold the curve's own values there, or 99
    /// and 15 where MMD marks physics as off for this key ([`BoneKey::physics_off`]).
    ///
    /// Trap: the six bytes the shifting leaves at the row ends are 0, `01 00 00` or junk.
    /// All 64 bytes are kept as read: rebuilding them from the curves loses those bytes.
    pub interpolation: [u8; 64],
}

impl BoneKey {
    /// A key with MMD's default (linear) interpolation and physics on.
    pub fn new(name: ShiftJis<15>, frame: u32, position: [f32; 3], rotation: [f32; 4]) -> Self {
        BoneKey {
            name,
            frame,
            position,
            rotation,
            interpolation: Interpolation::LINEAR.to_bytes(),
        }
    }

    /// The four curves, read where MMD reads them (see [`Interpolation::from_bytes`]).
    pub fn interpolation(&self) -> Interpolation {
        Interpolation::from_bytes(&self.interpolation)
    }

    /// The bytes of the block that carry no curve: the physics flag (row 0, bytes 2 and 3)
    /// and the six row-end bytes.
    pub fn interpolation_extras(&self) -> InterpolationExtras {
        InterpolationExtras::from_bytes(&self.interpolation)
    }

    /// Writes new curves in MMD's layout, keeping this key's physics flag and row-end bytes.
    pub fn set_interpolation(&mut self, curves: &Interpolation) {
        self.interpolation = curves.to_bytes_with(&self.interpolation_extras());
    }

    /// True when row 0 bytes 2 and 3 hold 99 and 15 (0x63 0x0F; 3939 as a little-endian
    /// u16): MMD's marker that physics is off for the bone at this key.
    pub fn physics_off(&self) -> bool {
        self.interpolation[2..4] == InterpolationExtras::PHYSICS_OFF
    }

    /// Sets the physics flag bytes: 99, 15 (off) or 0, 0 (on, what MMD writes).
    pub fn set_physics_off(&mut self, off: bool) {
        let flag = if off {
            InterpolationExtras::PHYSICS_OFF
        } else {
            InterpolationExtras::PHYSICS_ON
        };
        self.interpolation[2..4].copy_from_slice(&flag);
    }
}

/// A morph (facial expression) key frame: 23 bytes.
///
/// Morphs have no interpolation curve: the weight is interpolated linearly between keys.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct MorphKey {
    /// Morph name, 15 bytes of Shift_JIS, fixed length.
    ///
    /// Trap: as for bone names, the field may carry 0xFD after the NUL or have no NUL at
    /// all; it is kept whole.
    pub name: ShiftJis<15>,
    /// Frame number (30 frames a second).
    pub frame: u32,
    /// Weight, 0.0 to 1.0.
    pub weight: f32,
}

/// A camera key frame: 61 bytes.
///
/// | offset | size | type | field |
/// |---|---|---|---|
/// | 0 | 4 | u32 | frame number |
/// | 4 | 4 | f32 | distance from the target |
/// | 8 | 12 | f32 × 3 | target (x, y, z) |
/// | 20 | 12 | f32 × 3 | rotation (Euler angles, radians) |
/// | 32 | 24 | u8 × 24 | interpolation (6 curves × 4 bytes) |
/// | 56 | 4 | u32 | view angle (degrees) |
/// | 60 | 1 | u8 | perspective (0 = on) |
///
/// Trap: the camera position is target + R · (0, 0, −distance); building it as
/// R · (target + (0, 0, −distance)) drifts more the farther the target is from the origin.
///
/// Trap: two keys exactly one frame apart are a cut, not a move: do not interpolate
/// between them. Count cuts after sorting by frame, not in file order.
///
/// Version 1 files are read with the same 61-byte record (no version 1 camera file has
/// been seen to check another layout against).
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct CameraKey {
    /// Frame number (30 frames a second).
    pub frame: u32,
    /// Distance from the target. Negative = the camera is pulled back (MMD writes negative
    /// values).
    pub distance: f32,
    /// Target ("注視点") position (x, y, z).
    pub target: [f32; 3],
    /// Rotation: Euler angles (x, y, z) in radians, not a quaternion.
    pub rotation: [f32; 3],
    /// Interpolation: six curves of 4 bytes each, stored as x1, x2, y1, y2 (values 0..127),
    /// with no shifted copies. Curve order: target X, target Y, target Z, rotation (one
    /// curve for all three angles), distance, view angle. Read them with
    /// [`CameraKey::interpolation`].
    pub interpolation: [u8; 24],
    /// View angle (field of view) in whole degrees.
    pub fov: u32,
    /// Perspective: 0 = perspective on. Kept as stored.
    pub perspective: u8,
}

impl CameraKey {
    /// The six curves.
    pub fn interpolation(&self) -> CameraInterpolation {
        CameraInterpolation::from_bytes(&self.interpolation)
    }

    /// Replaces the six curves.
    pub fn set_interpolation(&mut self, curves: &CameraInterpolation) {
        self.interpolation = curves.to_bytes();
    }
}

/// A light key frame: 28 bytes. No curve: light keys are interpolated linearly.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct LightKey {
    /// Frame number (30 frames a second).
    pub frame: u32,
    /// Colour (r, g, b), 0.0 to 1.0.
    pub color: [f32; 3],
    /// "Position" (x, y, z) in the spec: really the direction of a directional light. Its
    /// length means nothing; place the source at a distance chosen when rendering.
    ///
    /// Trap: three.js's mmd-parser does not read the light block at all.
    pub direction: [f32; 3],
}

/// A self-shadow key frame: 9 bytes (the f32 is unaligned, at offset 5).
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct SelfShadowKey {
    /// Frame number (30 frames a second).
    pub frame: u32,
    /// Mode: 0 = no self-shadow, 1 = mode 1, 2 = mode 2.
    pub mode: u8,
    /// Shadow distance, as stored (MMD stores (10000 − the panel value) / 100000).
    pub distance: f32,
}

/// An IK / show key frame: variable length, 9 + 21 × the IK count.
///
/// Trap: the record length depends on its own IK count, so the block cannot be skipped by
/// its count alone: each record's count is read in turn.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct ShowIkKey {
    /// Frame number (30 frames a second).
    pub frame: u32,
    /// Show: 1 = the model is visible, 0 = hidden.
    pub show: u8,
    /// IK on/off states, preceded by a u32 count.
    #[mmd(count = u32)]
    pub ik: Vec<IkState>,
}

impl ShowIkKey {
    /// True when the model is shown (`show` is not 0).
    pub fn visible(&self) -> bool {
        self.show != 0
    }
}

/// One IK bone's state in an IK / show key: 21 bytes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
pub struct IkState {
    /// IK bone name, 20 bytes of Shift_JIS.
    ///
    /// Trap: 20 bytes here, not the 15 of bone keys.
    pub name: ShiftJis<20>,
    /// Enabled: 1 = IK on, 0 = off.
    pub enabled: u8,
}

impl IkState {
    /// True when the IK is on (`enabled` is not 0).
    pub fn is_enabled(&self) -> bool {
        self.enabled != 0
    }
}
