//! Filling in rest keys: every bone the motion names gets keys at its start and end.

use super::EditError;
use crate::text::{decode_sjis, ShiftJis};
use crate::vmd::{BoneKey, Vmd};

/// What a filled-in key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FillMode {
    /// The initial pose: no move, no rotation (seed 004's rule for building a motion from
    /// keys: what is not written is the rest pose). The default.
    #[default]
    Rest,
    /// The pose the track already has at that frame (playback does not change; useful
    /// before a merge, so that the other file's keys do not bend the ends).
    Hold,
}

/// What [`Vmd::fill_rest_keys`] fills, and where.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FillOptions {
    /// The first frame (default 0: playback starts at frame 0).
    pub start: u32,
    /// The last frame (`None`: the last frame of any bone key, or `start` when there are
    /// none).
    pub end: Option<u32>,
    /// What the new keys hold.
    pub mode: FillMode,
    /// More bone names to give keys (say, every bone of the model), after those the
    /// bone keys name. A name already named counts once.
    pub names: Vec<ShiftJis<15>>,
}

/// A key [`Vmd::fill_rest_keys`] added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilledKey {
    /// The bone name.
    pub name: String,
    /// The frame.
    pub frame: u32,
}

/// What [`Vmd::fill_rest_keys`] added.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FillReport {
    /// The first frame filled.
    pub start: u32,
    /// The last frame filled.
    pub end: u32,
    /// How many distinct bone names the union has.
    pub bones: usize,
    /// The keys added, in the order appended.
    pub added: Vec<FilledKey>,
}

impl Vmd {
    /// Gives every bone named anywhere (the union of the bone keys' names, then
    /// [`FillOptions::names`]) a key at `start` and at `end`, where it has none: seed
    /// 004's rule, since interpolation only works between keys of the same bone (a bone
    /// keyed only at frame 30 is held in that pose from frame 0 to the end).
    ///
    /// New keys are appended after the existing ones, with MMD's default linear curves
    /// and physics on; their 15-byte name field is copied from the bone's first key (junk
    /// after the NUL included). Names are compared by their bytes before the NUL.
    /// [`FillMode::Hold`] keys hold the track's sampled pose, which keeps playback as it
    /// was when `start` and `end` lie outside the track's keys (the usual case).
    ///
    /// Fails, changing nothing, when `end < start`.
    ///
    /// ```
    /// use mmd_formats::vmd::edit::FillOptions;
    /// use mmd_formats::vmd::{BoneKey, Vmd};
    /// use mmd_formats::ShiftJis;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut vmd = Vmd::new_v2("model")?;
    /// let up = [0.0, 0.0, 0.7071, 0.7071];
    /// vmd.bone_keys.push(BoneKey::new(ShiftJis::new("左腕")?, 30, [0.0; 3], up));
    /// vmd.bone_keys.push(BoneKey::new(ShiftJis::new("頭")?, 60, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
    /// let report = vmd.fill_rest_keys(&FillOptions::default())?;
    /// // 左腕 gets rest keys at 0 and 60, 頭 at 0.
    /// assert_eq!(report.added.len(), 3);
    /// assert_eq!(vmd.bone_track("左腕").sample(0.0).unwrap().rotation, [0.0, 0.0, 0.0, 1.0]);
    /// # Ok(()) }
    /// ```
    pub fn fill_rest_keys(&mut self, options: &FillOptions) -> Result<FillReport, EditError> {
        let start = options.start;
        let end = options.end.unwrap_or_else(|| {
            self.bone_keys
                .iter()
                .map(|k| k.frame)
                .max()
                .unwrap_or(start)
                .max(start)
        });
        if end < start {
            return Err(EditError::Range {
                what: "fill",
                from: start,
                to: end,
            });
        }
        let mut union: Vec<ShiftJis<15>> = Vec::new();
        for name in self
            .bone_keys
            .iter()
            .map(|k| k.name)
            .chain(options.names.iter().copied())
        {
            if !union.iter().any(|n| n.name_bytes() == name.name_bytes()) {
                union.push(name);
            }
        }
        let mut report = FillReport {
            start,
            end,
            bones: union.len(),
            added: Vec::new(),
        };
        let mut added = Vec::new();
        for name in &union {
            let track = self.bone_track_bytes(name.name_bytes());
            let frames: Vec<u32> = track.keys().iter().map(|k| k.frame).collect();
            let ends: &[u32] = if start == end {
                &[start]
            } else {
                &[start, end]
            };
            for &frame in ends {
                if frames.contains(&frame) {
                    continue;
                }
                let (position, rotation) = match (options.mode, track.sample(f64::from(frame))) {
                    (FillMode::Hold, Some(pose)) => (pose.position, pose.rotation),
                    _ => ([0.0; 3], [0.0, 0.0, 0.0, 1.0]),
                };
                let key = BoneKey::new(*name, frame, position, rotation);
                report.added.push(FilledKey {
                    name: decode_sjis(name.name_bytes()).into_owned(),
                    frame,
                });
                added.push(key);
            }
        }
        self.bone_keys.extend(added);
        Ok(report)
    }
}
