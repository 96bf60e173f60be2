//! Evaluating a motion: the interpolation curves, and the value of a track at any frame.
//!
//! The rules, from the spec (seed 004) and MMD's behaviour:
//!
//! * Between two keys of the same track, progress follows the **later** key's curve (the
//!   curve says how the motion comes into that key); the earlier key's curve would swap
//!   acceleration and deceleration.
//! * Bones: each position axis follows its own curve (X, Y, Z); the rotation is a
//!   shortest-path spherical interpolation (slerp) following the rotation curve.
//! * Morph weights and light colour and direction: linear (no curves in the file).
//! * Self-shadow and IK / show keys: steps (a key holds until the next one).
//! * Camera: target X/Y/Z, rotation (one curve for the three angles, interpolated as
//!   Euler angles, not as a rotation), distance and view angle each follow their curve.
//!   Two camera keys exactly one frame apart are a **cut**: no interpolation between
//!   them, the earlier key holds until the later one.
//! * Before a track's first key, the first key holds; after its last, the last.
//! * Keys are taken in frame order, whatever their order in the file; of several keys of
//!   one track at the same frame, the one later in the file is used.
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

mod camera;

pub use camera::CameraState;

use crate::coords::{position_to_rh, quaternion_to_rh};
use crate::vmd::{
    BoneKey, CameraKey, Curve, Keyframe, LightKey, MorphKey, SelfShadowKey, ShowIkKey, Vmd,
};

/// Iterations of the bisection that finds the curve parameter for a time: each halves the
/// interval, so 52 reach the precision of an f64 in [0, 1].
const BISECTIONS: u32 = 52;

impl Curve {
    /// The control points as f64 in 0.0..=1.0 (stored bytes above 127, written by some
    /// non-MMD tools, count as 127).
    fn points(&self) -> [f64; 4] {
        let f = |v: u8| f64::from(v.min(127)) / 127.0;
        [f(self.x1), f(self.y1), f(self.x2), f(self.y2)]
    }

    /// The progress (0..=1) at time fraction `x` (0..=1) between two keys.
    ///
    /// The curve is the cubic Bézier from (0, 0) to (1, 1) with control points
    /// (x1, y1), (x2, y2) scaled by 1/127. The curve parameter t with Bx(t) = x is found by
    /// bisection (a fixed 52 steps, so it always ends); with control points in 0..=1, Bx
    /// and By never decrease, so the result never decreases as `x` grows. A linear curve
    /// (both points on the diagonal) returns `x` itself. `x` outside 0..=1 is clamped; NaN
    /// counts as 0.
    ///
    /// ```
    /// use mmd_formats::vmd::Curve;
    /// assert_eq!(Curve::LINEAR.eval(0.25), 0.25);
    /// // Ease-in (127, 0, 127, 127): x = 1 - (1 - t)^3, y = 3t^2 - 2t^3; at t = 1/2,
    /// // x = 7/8 and y = 1/2.
    /// let ease = Curve::new(127, 0, 127, 127);
    /// assert!((ease.eval(0.875) - 0.5).abs() < 1e-12);
    /// ```
    pub fn eval(&self, x: f64) -> f64 {
        if x.is_nan() || x <= 0.0 {
            return 0.0;
        }
        if x >= 1.0 {
            return 1.0;
        }
        if self.is_linear() {
            return x;
        }
        let [x1, y1, x2, y2] = self.points();
        let t = solve(x1, x2, x);
        bezier(y1, y2, t).clamp(0.0, 1.0)
    }

    /// The part of this curve between time fractions `u0` and `u1` (0 ≤ u0 < u1 ≤ 1),
    /// rescaled to a curve of its own and rounded to the 0..127 grid: the curve a key
    /// needs when a segment is cut at `u0` and `u1` (used by [`Vmd::trim`]'s boundary
    /// keys). A linear curve gives itself; a piece with no rise, or arguments out of
    /// order or NaN, gives [`Curve::LINEAR`].
    pub fn segment(&self, u0: f64, u1: f64) -> Curve {
        if self.is_linear() {
            return *self;
        }
        if u0.is_nan() || u1.is_nan() {
            return Curve::LINEAR;
        }
        let (u0, u1) = (u0.clamp(0.0, 1.0), u1.clamp(0.0, 1.0));
        if u1 <= u0 {
            return Curve::LINEAR;
        }
        let [x1, y1, x2, y2] = self.points();
        let (t0, t1) = (solve(x1, x2, u0), solve(x1, x2, u1));
        // The piece of a cubic Bézier between t0 and t1 is a cubic Bézier whose inner
        // control points lie along the end tangents, a third of the way (scaled by t1 - t0).
        let h = (t1 - t0) / 3.0;
        let p0 = (bezier(x1, x2, t0), bezier(y1, y2, t0));
        let p3 = (bezier(x1, x2, t1), bezier(y1, y2, t1));
        let d0 = (slope(x1, x2, t0), slope(y1, y2, t0));
        let d3 = (slope(x1, x2, t1), slope(y1, y2, t1));
        let p1 = (p0.0 + h * d0.0, p0.1 + h * d0.1);
        let p2 = (p3.0 - h * d3.0, p3.1 - h * d3.1);
        let (w, rise) = (p3.0 - p0.0, p3.1 - p0.1);
        if w <= f64::EPSILON || rise <= f64::EPSILON {
            return Curve::LINEAR;
        }
        let q = |v: f64| (v * 127.0).round().clamp(0.0, 127.0) as u8;
        Curve::new(
            q((p1.0 - p0.0) / w),
            q((p1.1 - p0.1) / rise),
            q((p2.0 - p0.0) / w),
            q((p2.1 - p0.1) / rise),
        )
    }
}

/// One coordinate of the Bézier from 0 to 1 with inner control values `a`, `b`, at `t`.
fn bezier(a: f64, b: f64, t: f64) -> f64 {
    let s = 1.0 - t;
    3.0 * s * s * t * a + 3.0 * s * t * t * b + t * t * t
}

/// The derivative of [`bezier`] with respect to `t`.
fn slope(a: f64, b: f64, t: f64) -> f64 {
    let s = 1.0 - t;
    3.0 * s * s * a + 6.0 * s * t * (b - a) + 3.0 * t * t * (1.0 - b)
}

/// The parameter t in 0..=1 with bezier(a, b, t) = x, by bisection (monotone in x).
fn solve(a: f64, b: f64, x: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if bezier(a, b, mid) < x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Linear interpolation from `a` to `b` by `p`, computed in f64.
fn mix(a: f32, b: f32, p: f64) -> f32 {
    (f64::from(a) + (f64::from(b) - f64::from(a)) * p) as f32
}

/// Shortest-path spherical interpolation from `a` to `b` by `p` (quaternions x, y, z, w).
///
/// Both are normalised first; when they point to opposite hemispheres `b` is negated (the
/// same rotation) so the path is the short one. Nearly equal rotations are blended
/// linearly and renormalised. A quaternion of zero or non-finite length cannot be
/// normalised: then the two are blended component-wise.
pub fn slerp(a: [f32; 4], b: [f32; 4], p: f64) -> [f32; 4] {
    let a = a.map(f64::from);
    let b = b.map(f64::from);
    let (Some(a), Some(mut b)) = (normalised(a), normalised(b)) else {
        return std::array::from_fn(|i| (a[i] + (b[i] - a[i]) * p) as f32);
    };
    let mut dot: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    if dot < 0.0 {
        b = b.map(|v| -v);
        dot = -dot;
    }
    let (wa, wb) = if dot > 0.9995 {
        (1.0 - p, p)
    } else {
        let theta = dot.min(1.0).acos();
        let sin = theta.sin();
        (((1.0 - p) * theta).sin() / sin, (p * theta).sin() / sin)
    };
    let q: [f64; 4] = std::array::from_fn(|i| wa * a[i] + wb * b[i]);
    normalised(q).unwrap_or(q).map(|v| v as f32)
}

fn normalised(q: [f64; 4]) -> Option<[f64; 4]> {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    (n.is_finite() && n > 0.0).then(|| q.map(|v| v / n))
}

/// Where a frame falls in a track.
#[derive(Debug, Clone, Copy)]
pub enum Bracket<'a, K> {
    /// On a key, before the first key or after the last: that key's values hold.
    At(&'a K),
    /// Between two keys: `progress` is the time fraction 0 < x < 1 from `from` to `to`.
    Between {
        /// The key before the frame.
        from: &'a K,
        /// The key after the frame (its curve applies).
        to: &'a K,
        /// (frame − from.frame) / (to.frame − from.frame).
        progress: f64,
    },
}

/// One track's keys in frame order, one key per frame (of keys at the same frame, the one
/// later in the file), ready to be sampled at any frame.
#[derive(Debug, Clone)]
pub struct Track<'a, K> {
    keys: Vec<&'a K>,
}

impl<'a, K: Keyframe> Track<'a, K> {
    /// A track from keys in file order (all of one track: the caller picks them).
    pub fn new(keys: impl IntoIterator<Item = &'a K>) -> Self {
        let mut keys: Vec<&'a K> = keys.into_iter().collect();
        // Stable: keys at one frame stay in file order, so the last of them is the later.
        keys.sort_by_key(|k| k.frame());
        let mut out: Vec<&'a K> = Vec::with_capacity(keys.len());
        for key in keys {
            match out.last_mut() {
                Some(last) if last.frame() == key.frame() => *last = key,
                _ => out.push(key),
            }
        }
        Track { keys: out }
    }

    /// The keys, in frame order, one per frame.
    pub fn keys(&self) -> &[&'a K] {
        &self.keys
    }

    /// True when the track has no key (sampling gives `None`).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Where `frame` falls (`None` for an empty track). NaN counts as before the first key.
    pub fn bracket(&self, frame: f64) -> Option<Bracket<'a, K>> {
        let first = *self.keys.first()?;
        let last = *self.keys.last()?;
        if frame.is_nan() || frame <= f64::from(first.frame()) {
            return Some(Bracket::At(first));
        }
        if frame >= f64::from(last.frame()) {
            return Some(Bracket::At(last));
        }
        // The first key after `frame`; it exists and is not the first key.
        let i = self.keys.partition_point(|k| f64::from(k.frame()) <= frame);
        let (from, to) = (*self.keys.get(i.checked_sub(1)?)?, *self.keys.get(i)?);
        if f64::from(from.frame()) == frame {
            return Some(Bracket::At(from));
        }
        let (f0, f1) = (f64::from(from.frame()), f64::from(to.frame()));
        Some(Bracket::Between {
            from,
            to,
            progress: (frame - f0) / (f1 - f0),
        })
    }
}

/// A bone's pose at a frame: the offset from its initial position and its rotation, in
/// MMD's coordinates (see [`BoneState::to_right_handed`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneState {
    /// Position offset (x, y, z) from the initial pose.
    pub position: [f32; 3],
    /// Rotation quaternion (x, y, z, w).
    pub rotation: [f32; 4],
}

impl BoneState {
    /// The pose a key states.
    pub fn of(key: &BoneKey) -> Self {
        BoneState {
            position: key.position,
            rotation: key.rotation,
        }
    }
}

impl BoneState {
    /// The pose in right-handed coordinates: position Z negated, rotation (−x, −y, z, w).
    pub fn to_right_handed(&self) -> BoneState {
        BoneState {
            position: position_to_rh(self.position),
            rotation: quaternion_to_rh(self.rotation),
        }
    }
}

impl Track<'_, BoneKey> {
    /// The pose at `frame`: each position axis by its curve, the rotation by slerp along
    /// the rotation curve, all curves from the later key. `None` for an empty track.
    pub fn sample(&self, frame: f64) -> Option<BoneState> {
        Some(match self.bracket(frame)? {
            Bracket::At(k) => BoneState::of(k),
            Bracket::Between { from, to, progress } => {
                let c = to.interpolation();
                let axes = [c.x, c.y, c.z];
                BoneState {
                    position: std::array::from_fn(|i| {
                        mix(from.position[i], to.position[i], axes[i].eval(progress))
                    }),
                    rotation: slerp(from.rotation, to.rotation, c.rotation.eval(progress)),
                }
            }
        })
    }
}

impl Track<'_, MorphKey> {
    /// The weight at `frame`, interpolated linearly (morph keys have no curve).
    pub fn sample(&self, frame: f64) -> Option<f32> {
        Some(match self.bracket(frame)? {
            Bracket::At(k) => k.weight,
            Bracket::Between { from, to, progress } => mix(from.weight, to.weight, progress),
        })
    }
}

/// The light at a frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightState {
    /// Colour (r, g, b), 0.0 to 1.0.
    pub color: [f32; 3],
    /// Direction of the directional light (its length means nothing).
    pub direction: [f32; 3],
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

impl Track<'_, LightKey> {
    /// The light at `frame`, colour and direction interpolated linearly (no curves).
    pub fn sample(&self, frame: f64) -> Option<LightState> {
        Some(match self.bracket(frame)? {
            Bracket::At(k) => LightState {
                color: k.color,
                direction: k.direction,
            },
            Bracket::Between { from, to, progress } => LightState {
                color: std::array::from_fn(|i| mix(from.color[i], to.color[i], progress)),
                direction: std::array::from_fn(|i| {
                    mix(from.direction[i], to.direction[i], progress)
                }),
            },
        })
    }
}

/// The key of a step track in force at `frame`: the last key at or before it (the first
/// key before the first).
fn step<'a, K: Keyframe>(track: &Track<'a, K>, frame: f64) -> Option<&'a K> {
    Some(match track.bracket(frame)? {
        Bracket::At(k) => k,
        Bracket::Between { from, .. } => from,
    })
}

impl<'a> Track<'a, SelfShadowKey> {
    /// The self-shadow key in force at `frame` (self-shadow keys step, they do not blend).
    pub fn sample(&self, frame: f64) -> Option<&'a SelfShadowKey> {
        step(self, frame)
    }
}

impl<'a> Track<'a, ShowIkKey> {
    /// The IK / show key in force at `frame` (these keys step).
    pub fn sample(&self, frame: f64) -> Option<&'a ShowIkKey> {
        step(self, frame)
    }
}

impl Vmd {
    /// The keys of one bone, by its name bytes (up to the NUL; the junk after the NUL in
    /// the file's fields does not count).
    pub fn bone_track_bytes(&self, name: &[u8]) -> Track<'_, BoneKey> {
        Track::new(self.bone_keys.iter().filter(|k| k.track() == name))
    }

    /// The keys of one bone by name (encoded as Shift_JIS; a name Shift_JIS cannot encode
    /// gives an empty track).
    ///
    /// ```
    /// use mmd_formats::vmd::{BoneKey, Vmd};
    /// use mmd_formats::ShiftJis;
    /// # fn main() -> Result<(), mmd_formats::Error> {
    /// let mut vmd = Vmd::new_v2("model")?;
    /// let arm = ShiftJis::new("左腕")?;
    /// vmd.bone_keys.push(BoneKey::new(arm, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
    /// vmd.bone_keys.push(BoneKey::new(arm, 10, [2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]));
    /// // Linear curves: a quarter of the way at frame 2.5.
    /// let pose = vmd.bone_track("左腕").sample(2.5).unwrap();
    /// assert_eq!(pose.position, [0.5, 0.0, 0.0]);
    /// # Ok(()) }
    /// ```
    pub fn bone_track(&self, name: &str) -> Track<'_, BoneKey> {
        self.bone_track_bytes(&encode_name(name))
    }

    /// The keys of one morph, by its name bytes (up to the NUL).
    pub fn morph_track_bytes(&self, name: &[u8]) -> Track<'_, MorphKey> {
        Track::new(
            self.morph_keys
                .iter()
                .flatten()
                .filter(|k| k.track() == name),
        )
    }

    /// The keys of one morph by name (encoded as Shift_JIS).
    pub fn morph_track(&self, name: &str) -> Track<'_, MorphKey> {
        self.morph_track_bytes(&encode_name(name))
    }

    /// The camera keys (one track).
    pub fn camera_track(&self) -> Track<'_, CameraKey> {
        Track::new(self.camera_keys.iter().flatten())
    }

    /// The light keys (one track).
    pub fn light_track(&self) -> Track<'_, LightKey> {
        Track::new(self.light_keys.iter().flatten())
    }

    /// The self-shadow keys (one track).
    pub fn self_shadow_track(&self) -> Track<'_, SelfShadowKey> {
        Track::new(self.self_shadow_keys.iter().flatten())
    }

    /// The IK / show keys (one track).
    pub fn show_ik_track(&self) -> Track<'_, ShowIkKey> {
        Track::new(self.show_ik_keys.iter().flatten())
    }
}

/// Shift_JIS bytes of a name (a name that does not encode matches no field: a NUL can
/// never be part of a stored name, so it is the result).
fn encode_name(name: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(name);
    if unmappable || name.contains('\0') {
        vec![0]
    } else {
        bytes.into_owned()
    }
}
