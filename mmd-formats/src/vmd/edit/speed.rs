//! Changing the speed of a motion: frame numbers rescaled and rounded.

use super::{track_name, EditError};
use crate::vmd::{Block, BlockCounts, Keyframe, Vmd};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// How [`Vmd::speed`] rescales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpeedOptions {
    /// Keep camera cuts: two camera keys one frame apart, alone (no camera key the frame
    /// before the first or after the second), stay one frame apart, the second placed
    /// one frame after the first's new frame. Otherwise a slowed-down cut would become a
    /// slide and a sped-up one could collide. Default on.
    pub keep_cuts: bool,
}

impl Default for SpeedOptions {
    fn default() -> Self {
        SpeedOptions { keep_cuts: true }
    }
}

/// A key [`Vmd::speed`] dropped because another key of its track landed on the same
/// frame.
#[derive(Debug, Clone, PartialEq)]
pub struct DroppedKey {
    /// Its block.
    pub block: Block,
    /// Its track (bone or morph name; empty for the other blocks).
    pub name: String,
    /// Its frame before the change.
    pub frame: u32,
    /// The frame it would have had.
    pub new_frame: u32,
    /// The original frame of the key kept at `new_frame`.
    pub kept_frame: u32,
}

/// What [`Vmd::speed`] did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpeedReport {
    /// The factor (2 = twice as fast).
    pub factor: f64,
    /// Every key dropped by a rounding collision, in file order within each block.
    pub dropped: Vec<DroppedKey>,
    /// The same, counted per block.
    pub dropped_counts: BlockCounts,
    /// Keys whose frame number changed, per block.
    pub moved: BlockCounts,
    /// Camera cuts kept one frame apart ([`SpeedOptions::keep_cuts`]).
    pub cuts_kept: usize,
}

/// The new frame of `frame`, and how far the rounding moved it (in new frames).
fn rescale(frame: u32, factor: f64, block: Block) -> Result<(u32, f64), EditError> {
    let exact = f64::from(frame) / factor;
    let new = exact.round();
    if !(0.0..=f64::from(u32::MAX)).contains(&new) {
        return Err(EditError::FrameOverflow {
            block,
            frame,
            new_frame: new,
        });
    }
    Ok((new as u32, (new - exact).abs()))
}

/// The planned new frame and rounding error of every key of a block.
fn plan<K: Keyframe>(
    keys: &[K],
    factor: f64,
    cuts: bool,
    cuts_kept: &mut usize,
) -> Result<Vec<(u32, f64)>, EditError> {
    let mut by_frame: HashMap<u32, (u32, f64)> = HashMap::new();
    for key in keys {
        let f = key.frame();
        if let Entry::Vacant(slot) = by_frame.entry(f) {
            slot.insert(rescale(f, factor, K::BLOCK)?);
        }
    }
    if cuts {
        let mut frames: Vec<u32> = by_frame.keys().copied().collect();
        frames.sort_unstable();
        let present = |f: Option<u32>| f.is_some_and(|f| by_frame.contains_key(&f));
        let mut moves = Vec::new();
        for pair in frames.windows(2) {
            let &[a, b] = pair else { continue };
            let alone = !present(a.checked_sub(1)) && !present(b.checked_add(1));
            if b.checked_sub(a) == Some(1) && alone {
                let Some(&(na, _)) = by_frame.get(&a) else {
                    continue;
                };
                let nb = na.checked_add(1).ok_or(EditError::FrameOverflow {
                    block: K::BLOCK,
                    frame: b,
                    new_frame: f64::from(na) + 1.0,
                })?;
                moves.push((b, nb));
            }
        }
        *cuts_kept += moves.len();
        for (b, nb) in moves {
            by_frame.insert(b, (nb, 0.0));
        }
    }
    Ok(keys
        .iter()
        .map(|k| {
            by_frame
                .get(&k.frame())
                .copied()
                .unwrap_or((k.frame(), 0.0))
        })
        .collect())
}

/// Applies a plan: of the keys of one track landing on one new frame, those whose
/// original frame rounded best (smallest error; on a tie, the earliest original frame)
/// stay; the others are dropped. Keys that already shared their original frame stay
/// together.
/// The keys of a block that may be absent (none when it is).
fn keys<K>(block: &Option<Vec<K>>) -> &[K] {
    block.as_deref().unwrap_or(&[])
}

/// [`apply`] to a block that may be absent (an absent block stays absent).
fn apply_block<K: Keyframe>(
    block: &mut Option<Vec<K>>,
    plan: &[(u32, f64)],
    report: &mut SpeedReport,
) {
    if let Some(keys) = block {
        apply(keys, plan, report);
    }
}

fn apply<K: Keyframe>(keys: &mut Vec<K>, plan: &[(u32, f64)], report: &mut SpeedReport) {
    let mut best: HashMap<(&[u8], u32), (f64, u32)> = HashMap::new();
    for (key, &(new, err)) in keys.iter().zip(plan) {
        let slot = best.entry((key.track(), new)).or_insert((err, key.frame()));
        if (err, key.frame()) < *slot {
            *slot = (err, key.frame());
        }
    }
    let keep: Vec<Option<u32>> = keys
        .iter()
        .zip(plan)
        .map(|(key, &(new, _))| {
            let kept = best.get(&(key.track(), new)).map_or(key.frame(), |b| b.1);
            if kept == key.frame() {
                None
            } else {
                Some(kept)
            }
        })
        .collect();
    let mut out = Vec::with_capacity(keys.len());
    for ((mut key, &(new, _)), dropped_for) in keys.drain(..).zip(plan).zip(keep) {
        if let Some(kept_frame) = dropped_for {
            *report.dropped_counts.get_mut(K::BLOCK) += 1;
            report.dropped.push(DroppedKey {
                block: K::BLOCK,
                name: track_name(&key),
                frame: key.frame(),
                new_frame: new,
                kept_frame,
            });
            continue;
        }
        if key.frame() != new {
            *report.moved.get_mut(K::BLOCK) += 1;
            key.set_frame(new);
        }
        out.push(key);
    }
    *keys = out;
}

impl Vmd {
    /// Plays the motion `factor` times as fast: every frame number f becomes
    /// round(f / factor) (rounded half away from zero; 2 halves the length, 0.5 doubles it).
    ///
    /// Rounding can put two keys of one track (bone or morph name; the block for the
    /// others) on one frame. Then the key whose frame rounded least stays (on a tie, the
    /// earlier original frame) and the others are dropped; every dropped key is listed in
    /// the report. Camera cuts stay cuts ([`SpeedOptions::keep_cuts`]). Kept records keep
    /// their bytes and file order except their frame numbers.
    ///
    /// Fails, changing nothing, when `factor` is not a finite number above 0 or a new
    /// frame would not fit the u32 field.
    ///
    /// ```
    /// use mmd_formats::vmd::edit::SpeedOptions;
    /// use mmd_formats::vmd::{MorphKey, Vmd};
    /// use mmd_formats::ShiftJis;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut vmd = Vmd::new_v2("model")?;
    /// let key = |frame| MorphKey { name: ShiftJis::new("あ").unwrap(), frame, weight: 1.0 };
    /// vmd.morph_keys = Some(vec![key(0), key(1), key(2), key(3)]);
    /// let report = vmd.speed(2.0, &SpeedOptions::default())?;
    /// // 0 → 0, 1 → 0.5 → 1, 2 → 1, 3 → 1.5 → 2: frames 1 and 2 collide at 1, and 2
    /// // (exactly 1) stays.
    /// assert_eq!(report.dropped.len(), 1);
    /// assert_eq!(report.dropped[0].frame, 1);
    /// let frames: Vec<u32> = vmd.morph_keys.iter().flatten().map(|k| k.frame).collect();
    /// assert_eq!(frames, [0, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn speed(&mut self, factor: f64, options: &SpeedOptions) -> Result<SpeedReport, EditError> {
        if !(factor.is_finite() && factor > 0.0) {
            return Err(EditError::Factor(factor));
        }
        let mut cuts = 0;
        let mut no_cuts = 0;
        // Plan every block before changing any, so a failure changes nothing.
        let bone = plan(&self.bone_keys, factor, false, &mut no_cuts)?;
        let morph = plan(keys(&self.morph_keys), factor, false, &mut no_cuts)?;
        let camera = plan(
            keys(&self.camera_keys),
            factor,
            options.keep_cuts,
            &mut cuts,
        )?;
        let light = plan(keys(&self.light_keys), factor, false, &mut no_cuts)?;
        let shadow = plan(keys(&self.self_shadow_keys), factor, false, &mut no_cuts)?;
        let show_ik = plan(keys(&self.show_ik_keys), factor, false, &mut no_cuts)?;
        let mut report = SpeedReport {
            factor,
            cuts_kept: cuts,
            ..SpeedReport::default()
        };
        apply(&mut self.bone_keys, &bone, &mut report);
        apply_block(&mut self.morph_keys, &morph, &mut report);
        apply_block(&mut self.camera_keys, &camera, &mut report);
        apply_block(&mut self.light_keys, &light, &mut report);
        apply_block(&mut self.self_shadow_keys, &shadow, &mut report);
        apply_block(&mut self.show_ik_keys, &show_ik, &mut report);
        Ok(report)
    }
}
