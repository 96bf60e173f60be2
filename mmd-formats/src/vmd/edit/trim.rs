//! Cutting a motion to a frame range.

use super::{track_name, EditError};
use crate::vmd::eval::{Bracket, Track};
use crate::vmd::{
    Block, BlockCounts, BoneKey, CameraInterpolation, CameraKey, Interpolation, Keyframe, LightKey,
    MorphKey, SelfShadowKey, ShowIkKey, Vmd,
};

/// How [`Vmd::trim`] cuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrimOptions {
    /// Move the kept keys so that the first frame of the range becomes frame 0 (default
    /// on: playback starts at frame 0, and a merge expects files that start there).
    pub shift: bool,
    /// Add keys at the range's ends where the original pose there depends on keys that
    /// are cut away (default off: the spec's rule is that a trim only chooses records
    /// and rewrites frame numbers). See [`Vmd::trim`].
    pub boundary: bool,
}

impl Default for TrimOptions {
    fn default() -> Self {
        TrimOptions {
            shift: true,
            boundary: false,
        }
    }
}

/// A key that [`Vmd::trim`] added at a range end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundaryKey {
    /// Its block.
    pub block: Block,
    /// Its track (bone or morph name; empty for the other blocks).
    pub name: String,
    /// Its frame in the trimmed file.
    pub frame: u32,
}

/// What [`Vmd::trim`] kept, dropped and added.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrimReport {
    /// The first frame of the range.
    pub from: u32,
    /// The last frame of the range.
    pub to: u32,
    /// Frames subtracted from every kept key (`from`, or 0 without shifting).
    pub shift: u32,
    /// Keys kept, per block.
    pub kept: BlockCounts,
    /// Keys dropped (outside the range), per block.
    pub dropped: BlockCounts,
    /// Keys added at the range's ends (only with [`TrimOptions::boundary`]).
    pub added: Vec<BoundaryKey>,
    /// Kept keys whose curve was replaced by the part of it left inside the range.
    pub curves_cut: usize,
}

/// A key kind that [`Vmd::trim`] can add at a range end.
pub(crate) trait Trimmable: Keyframe + Clone {
    /// True for kinds that step (self-shadow, IK / show): only the start of the range
    /// needs a key, a copy of the one in force.
    const STEPS: bool;
    /// A key at `frame` holding the track's value there. Bytes the value does not set
    /// (name field, interpolation bytes) come from the key the bracket ends on.
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self>;
    /// Sets this key's curves to the part between `u0` and `u1` of `src`'s curves.
    fn cut_curves(&mut self, _src: &Self, _u0: f64, _u1: f64) {}
}

/// The key whose bytes a sampled key starts from, and the keys around the frame.
fn base<'a, K: Keyframe>(track: &Track<'a, K>, frame: u32) -> Option<(&'a K, Bracket<'a, K>)> {
    let bracket = track.bracket(f64::from(frame))?;
    let key = match bracket {
        Bracket::At(k) => k,
        Bracket::Between { to, .. } => to,
    };
    Some((key, bracket))
}

impl Trimmable for BoneKey {
    const STEPS: bool = false;
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self> {
        let (key, _) = base(track, frame)?;
        let pose = track.sample(f64::from(frame))?;
        Some(BoneKey {
            frame,
            position: pose.position,
            rotation: pose.rotation,
            ..*key
        })
    }
    fn cut_curves(&mut self, src: &Self, u0: f64, u1: f64) {
        let c = src.interpolation();
        self.set_interpolation(&Interpolation {
            x: c.x.segment(u0, u1),
            y: c.y.segment(u0, u1),
            z: c.z.segment(u0, u1),
            rotation: c.rotation.segment(u0, u1),
        });
    }
}

impl Trimmable for MorphKey {
    const STEPS: bool = false;
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self> {
        let (key, _) = base(track, frame)?;
        Some(MorphKey {
            frame,
            weight: track.sample(f64::from(frame))?,
            ..*key
        })
    }
}

impl Trimmable for CameraKey {
    const STEPS: bool = false;
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self> {
        let (key, _) = base(track, frame)?;
        let s = track.sample(f64::from(frame))?;
        Some(CameraKey {
            frame,
            distance: s.distance,
            target: s.target,
            rotation: s.rotation,
            // The field holds whole degrees.
            fov: s.fov.round().clamp(0.0, u32::MAX as f32) as u32,
            perspective: s.perspective,
            ..*key
        })
    }
    fn cut_curves(&mut self, src: &Self, u0: f64, u1: f64) {
        let c = src.interpolation();
        self.set_interpolation(&CameraInterpolation {
            target_x: c.target_x.segment(u0, u1),
            target_y: c.target_y.segment(u0, u1),
            target_z: c.target_z.segment(u0, u1),
            rotation: c.rotation.segment(u0, u1),
            distance: c.distance.segment(u0, u1),
            fov: c.fov.segment(u0, u1),
        });
    }
}

impl Trimmable for LightKey {
    const STEPS: bool = false;
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self> {
        let s = track.sample(f64::from(frame))?;
        Some(LightKey {
            frame,
            color: s.color,
            direction: s.direction,
        })
    }
}

impl Trimmable for SelfShadowKey {
    const STEPS: bool = true;
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self> {
        Some(SelfShadowKey {
            frame,
            ..*track.sample(f64::from(frame))?
        })
    }
}

impl Trimmable for ShowIkKey {
    const STEPS: bool = true;
    fn sampled(track: &Track<'_, Self>, frame: u32) -> Option<Self> {
        let mut key = track.sample(f64::from(frame))?.clone();
        key.frame = frame;
        Some(key)
    }
}

/// The indices of `keys`, grouped by track in the order tracks are first met, each group
/// sorted by frame with one index per frame (the later record of a repeated frame).
pub(crate) fn tracks<K: Keyframe>(keys: &[K]) -> Vec<Vec<usize>> {
    let mut order: Vec<&[u8]> = Vec::new();
    let mut groups: std::collections::HashMap<&[u8], Vec<usize>> = Default::default();
    for (i, key) in keys.iter().enumerate() {
        let group = groups.entry(key.track()).or_insert_with(|| {
            order.push(key.track());
            Vec::new()
        });
        group.push(i);
    }
    order
        .into_iter()
        .filter_map(|name| groups.remove(name))
        .map(|mut idx| {
            idx.sort_by_key(|&i| keys.get(i).map_or(0, Keyframe::frame));
            let mut out: Vec<usize> = Vec::with_capacity(idx.len());
            for i in idx {
                let frame = keys.get(i).map(Keyframe::frame);
                match out.last_mut() {
                    Some(last) if keys.get(*last).map(Keyframe::frame) == frame => *last = i,
                    _ => out.push(i),
                }
            }
            out
        })
        .collect()
}

/// The fraction of the way `frame` is from key `a` to key `b` (by their frames).
fn fraction<K: Keyframe>(a: &K, b: &K, frame: u32) -> f64 {
    let (fa, fb) = (f64::from(a.frame()), f64::from(b.frame()));
    if fb > fa {
        ((f64::from(frame) - fa) / (fb - fa)).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Trims one block; boundary keys are appended after the kept ones.
fn trim_block<K: Trimmable>(
    keys: &mut Vec<K>,
    (from, to): (u32, u32),
    options: &TrimOptions,
    report: &mut TrimReport,
) {
    let shift = if options.shift { from } else { 0 };
    let mut added: Vec<K> = Vec::new();
    if options.boundary {
        for group in tracks(keys) {
            let at = |i: usize| keys.get(i);
            let frames: Vec<u32> = group
                .iter()
                .filter_map(|&i| at(i).map(Keyframe::frame))
                .collect();
            let before = frames.iter().rposition(|&f| f < from);
            let inside: Vec<usize> = (0..frames.len())
                .filter(|&j| (from..=to).contains(&frames[j]))
                .collect();
            let after = frames.iter().position(|&f| f > to);
            let track = Track::new(group.iter().filter_map(|&i| at(i)));
            let has = |f: u32| frames.contains(&f);
            let need_from =
                !has(from) && (before.is_some() || (inside.is_empty() && after.is_some()));
            let need_to = !K::STEPS
                && !has(to)
                && after.is_some()
                && (before.is_some() || !inside.is_empty());
            let key_of = |j: Option<usize>| j.and_then(|j| group.get(j)).and_then(|&i| at(i));
            // Where the range start cuts the segment it falls in (0 when it cuts none).
            let u_from = match (key_of(before), key_of(inside.first().copied().or(after))) {
                (Some(a), Some(b)) if need_from => fraction(a, b, from),
                _ => 0.0,
            };
            let mut cut_first: Option<(usize, K)> = None;
            if need_from {
                if let Some(k) = K::sampled(&track, from) {
                    added.push(k);
                }
                if let (false, Some(&j), Some(_)) = (K::STEPS, inside.first(), before) {
                    if let Some((&i, key)) = group.get(j).and_then(|i| Some((i, at(*i)?))) {
                        let mut cut = key.clone();
                        cut.cut_curves(key, u_from, 1.0);
                        cut_first = Some((i, cut));
                    }
                }
            }
            if need_to {
                let prev = inside.last().copied().or(before);
                if let (Some(mut k), Some(p), Some(a)) =
                    (K::sampled(&track, to), key_of(prev), key_of(after))
                {
                    let u0 = if inside.is_empty() { u_from } else { 0.0 };
                    k.cut_curves(a, u0, fraction(p, a, to));
                    added.push(k);
                }
            }
            if let Some((i, cut)) = cut_first {
                if let Some(slot) = keys.get_mut(i) {
                    *slot = cut;
                    report.curves_cut += 1;
                }
            }
        }
    }
    let before = keys.len();
    keys.retain(|k| (from..=to).contains(&k.frame()));
    *report.kept.get_mut(K::BLOCK) += keys.len();
    *report.dropped.get_mut(K::BLOCK) += before - keys.len();
    for key in &mut added {
        report.added.push(BoundaryKey {
            block: K::BLOCK,
            name: track_name(key),
            frame: key.frame() - shift,
        });
    }
    keys.extend(added);
    for key in keys.iter_mut() {
        key.set_frame(key.frame() - shift);
    }
}

impl Vmd {
    /// Keeps the keys of every block whose frame is in `from..=to`, and by default moves
    /// them so that `from` becomes frame 0 ([`TrimOptions::shift`]). The kept records are
    /// otherwise unchanged and stay in file order; absent blocks stay absent, present ones
    /// stay present (possibly empty); header and trailing bytes are kept.
    ///
    /// With [`TrimOptions::boundary`], a track whose pose inside the range depends on keys
    /// outside it gets keys at the range's ends, appended after the kept keys of its
    /// block, holding the value the original has there: at `from` when the track has no
    /// key there and has one before it (or only keys after the range), at `to` when it has
    /// no key there, one after it and one at or before it. Bone and camera keys also get
    /// the matching part of the curve: the first kept key after an added `from` key takes
    /// the part of its curve after `from`, and an added `to` key the part of the next key's
    /// curve before `to` (rounded to the 0..127 grid, so the easing is close, not exact).
    /// Self-shadow and IK / show keys step, so they only need the key at `from`. A camera
    /// view angle sampled between keys is rounded to whole degrees (the field's unit).
    ///
    /// Fails, changing nothing, when `from > to`.
    ///
    /// ```
    /// use mmd_formats::vmd::edit::TrimOptions;
    /// use mmd_formats::vmd::{MorphKey, Vmd};
    /// use mmd_formats::ShiftJis;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut vmd = Vmd::new_v2("model")?;
    /// let blink = ShiftJis::new("まばたき")?;
    /// for (frame, weight) in [(0, 0.0), (10, 1.0), (20, 0.0)] {
    ///     vmd.morph_keys.get_or_insert_with(Vec::new).push(MorphKey { name: blink, frame, weight });
    /// }
    /// let report = vmd.trim(5, 20, &TrimOptions::default())?;
    /// assert_eq!((report.kept.morph, report.dropped.morph), (2, 1));
    /// let frames: Vec<u32> = vmd.morph_keys.iter().flatten().map(|k| k.frame).collect();
    /// assert_eq!(frames, [5, 15]);
    /// # Ok(()) }
    /// ```
    pub fn trim(
        &mut self,
        from: u32,
        to: u32,
        options: &TrimOptions,
    ) -> Result<TrimReport, EditError> {
        if from > to {
            return Err(EditError::Range {
                what: "trim",
                from,
                to,
            });
        }
        let mut report = TrimReport {
            from,
            to,
            shift: if options.shift { from } else { 0 },
            ..TrimReport::default()
        };
        let range = (from, to);
        trim_block(&mut self.bone_keys, range, options, &mut report);
        if let Some(keys) = &mut self.morph_keys {
            trim_block(keys, range, options, &mut report);
        }
        if let Some(keys) = &mut self.camera_keys {
            trim_block(keys, range, options, &mut report);
        }
        if let Some(keys) = &mut self.light_keys {
            trim_block(keys, range, options, &mut report);
        }
        if let Some(keys) = &mut self.self_shadow_keys {
            trim_block(keys, range, options, &mut report);
        }
        if let Some(keys) = &mut self.show_ik_keys {
            trim_block(keys, range, options, &mut report);
        }
        Ok(report)
    }
}
