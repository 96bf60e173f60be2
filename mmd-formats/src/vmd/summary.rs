//! What `mmd info` prints about a VMD: version, counts, kind, frame range, names, cuts.

use super::{Vmd, VmdVersion};
use std::collections::HashSet;

/// What a VMD holds, told by how many keys each block has (the file has no marker).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MotionKind {
    /// More than 10 bone keys.
    Motion,
    /// More than 10 morph keys and at most 10 bone keys.
    Morph,
    /// More than 10 camera keys and at most 10 bone keys.
    Camera,
    /// At least 1 light key, and at most 10 bone keys and 10 camera keys.
    Light,
    /// None of the above (usually a fragment with very few keys).
    Unknown,
}

impl MotionKind {
    /// The kind by the spec's thresholds (the same as mmdbox.net's), tried in this order:
    /// motion if bone keys > 10; morph if morph keys > 10 and bone keys ≤ 10; camera if
    /// camera keys > 10 and bone keys ≤ 10; light if light keys ≥ 1 and bone keys ≤ 10
    /// and camera keys ≤ 10; otherwise unknown. An absent block counts as 0.
    ///
    /// The light threshold is 0 because many files change the light colour for only a
    /// few frames.
    pub fn classify(bone: usize, morph: usize, camera: usize, light: usize) -> MotionKind {
        if bone > 10 {
            MotionKind::Motion
        } else if morph > 10 {
            MotionKind::Morph
        } else if camera > 10 {
            MotionKind::Camera
        } else if light >= 1 && camera <= 10 {
            MotionKind::Light
        } else {
            MotionKind::Unknown
        }
    }

    /// The lower-case name (`motion`, `morph`, `camera`, `light`, `unknown`).
    pub fn name(self) -> &'static str {
        match self {
            MotionKind::Motion => "motion",
            MotionKind::Morph => "morph",
            MotionKind::Camera => "camera",
            MotionKind::Light => "light",
            MotionKind::Unknown => "unknown",
        }
    }
}

/// A summary of a VMD (see [`Vmd::summary`]).
#[derive(Debug, Clone, PartialEq)]
pub struct VmdSummary {
    /// The version the signature declares (`None` if it declares none, which only a value
    /// built in code can have).
    pub version: Option<VmdVersion>,
    /// The model name decoded for display (half a character cut at the end dropped).
    pub model_name: String,
    /// Number of bone keys.
    pub bone_keys: usize,
    /// Number of morph keys (`None`: the file ends before the block).
    pub morph_keys: Option<usize>,
    /// Number of camera keys (`None`: the file ends before the block).
    pub camera_keys: Option<usize>,
    /// Number of light keys (`None`: the file ends before the block).
    pub light_keys: Option<usize>,
    /// Number of self-shadow keys (`None`: the file ends before the block).
    pub self_shadow_keys: Option<usize>,
    /// Number of IK / show keys (`None`: the file ends before the block).
    pub show_ik_keys: Option<usize>,
    /// Bytes after the last block.
    pub trailing_bytes: usize,
    /// The kind by the spec's thresholds ([`MotionKind::classify`]).
    pub kind: MotionKind,
    /// The first and last frame number over the keys of every block (`None`: no keys).
    pub frame_range: Option<(u32, u32)>,
    /// The length in seconds at 30 fps: the last frame / 30 (playback starts at frame 0).
    /// 0 when there are no keys.
    pub duration_secs: f64,
    /// The distinct bone names of the bone keys, in the order first seen (names are
    /// compared by their bytes up to the NUL, as MMD matches them).
    pub bone_names: Vec<String>,
    /// The distinct morph names of the morph keys, in the order first seen.
    pub morph_names: Vec<String>,
    /// Camera cuts: pairs of camera keys exactly one frame apart, counted after sorting
    /// the keys by frame (counting in file order finds too few).
    pub camera_cuts: usize,
}

/// The frame rate VMD frame numbers assume (not stored in the file).
pub const FPS: f64 = 30.0;

impl Vmd {
    /// What `mmd info` prints: version, model name, counts, kind, frames, names, cuts.
    pub fn summary(&self) -> VmdSummary {
        let morph_keys = self.morph_keys.as_ref().map(Vec::len);
        let camera_keys = self.camera_keys.as_ref().map(Vec::len);
        let light_keys = self.light_keys.as_ref().map(Vec::len);
        let kind = MotionKind::classify(
            self.bone_keys.len(),
            morph_keys.unwrap_or(0),
            camera_keys.unwrap_or(0),
            light_keys.unwrap_or(0),
        );
        let frame_range = self.frames().fold(None, |acc: Option<(u32, u32)>, f| {
            Some(match acc {
                None => (f, f),
                Some((lo, hi)) => (lo.min(f), hi.max(f)),
            })
        });
        VmdSummary {
            version: self.header.version(),
            model_name: self.header.model_name.decode().into_owned(),
            bone_keys: self.bone_keys.len(),
            morph_keys,
            camera_keys,
            light_keys,
            self_shadow_keys: self.self_shadow_keys.as_ref().map(Vec::len),
            show_ik_keys: self.show_ik_keys.as_ref().map(Vec::len),
            trailing_bytes: self.trailing.len(),
            kind,
            frame_range,
            duration_secs: frame_range.map_or(0.0, |(_, last)| f64::from(last) / FPS),
            bone_names: distinct(self.bone_keys.iter().map(|k| &k.name)),
            morph_names: distinct(self.morph_keys.iter().flatten().map(|k| &k.name)),
            camera_cuts: self.camera_cuts(),
        }
    }

    /// Every frame number of every key, block by block, in file order.
    pub fn frames(&self) -> impl Iterator<Item = u32> + '_ {
        let bone = self.bone_keys.iter().map(|k| k.frame);
        let morph = self.morph_keys.iter().flatten().map(|k| k.frame);
        let camera = self.camera_keys.iter().flatten().map(|k| k.frame);
        let light = self.light_keys.iter().flatten().map(|k| k.frame);
        let shadow = self.self_shadow_keys.iter().flatten().map(|k| k.frame);
        let ik = self.show_ik_keys.iter().flatten().map(|k| k.frame);
        bone.chain(morph)
            .chain(camera)
            .chain(light)
            .chain(shadow)
            .chain(ik)
    }

    /// Camera cuts: after sorting the camera keys by frame, the number of neighbours
    /// exactly one frame apart. The records themselves are not reordered.
    pub fn camera_cuts(&self) -> usize {
        let mut frames: Vec<u32> = self.camera_keys.iter().flatten().map(|k| k.frame).collect();
        frames.sort_unstable();
        frames
            .windows(2)
            .filter(|w| matches!(w, [a, b] if b.checked_sub(*a) == Some(1)))
            .count()
    }
}

fn distinct<'a, const N: usize>(
    names: impl Iterator<Item = &'a crate::text::ShiftJis<N>>,
) -> Vec<String> {
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let mut out = Vec::new();
    for name in names {
        if seen.insert(name.name_bytes()) {
            out.push(name.decode().into_owned());
        }
    }
    out
}
