//! Joining two motions: the second is shifted, then appended.

use super::{close_gaps, track_name, EditError};
use crate::vmd::{Block, BlockCounts, Keyframe, Vmd};
use std::collections::HashSet;

/// Which key stays when both files have a key of the same track at the same frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MergeRule {
    /// The second file's key replaces the first's (the default).
    #[default]
    SecondWins,
    /// The first file's key stays; the second's is not added.
    FirstWins,
}

impl MergeRule {
    /// `second-wins` or `first-wins`.
    pub const fn name(self) -> &'static str {
        match self {
            MergeRule::SecondWins => "second-wins",
            MergeRule::FirstWins => "first-wins",
        }
    }
}

/// How [`Vmd::merge`] joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MergeOptions {
    /// Frames added to every key of the second file before it is appended. Both files
    /// usually start at frame 0: without an offset their keys collide.
    pub offset: u32,
    /// What happens at a (track, frame) both files have.
    pub rule: MergeRule,
}

/// A (track, frame) that both files had.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The block.
    pub block: Block,
    /// The track (bone or morph name; empty for the other blocks).
    pub name: String,
    /// The frame, after the offset.
    pub frame: u32,
}

/// What [`Vmd::merge`] added, replaced and left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MergeReport {
    /// The offset applied to the second file.
    pub offset: u32,
    /// The rule used at conflicts.
    pub rule: MergeRule,
    /// Keys of the second file added, per block.
    pub added: BlockCounts,
    /// Keys of the first file removed because the second had the same (track, frame)
    /// ([`MergeRule::SecondWins`]).
    pub replaced: BlockCounts,
    /// Keys of the second file not added because the first had the same (track, frame)
    /// ([`MergeRule::FirstWins`]).
    pub skipped: BlockCounts,
    /// Every distinct (block, track, frame) both files had, in the second file's order.
    pub conflicts: Vec<Conflict>,
    /// Bytes after the second file's last block, which have no place in the result.
    pub second_trailing_dropped: usize,
    /// Blocks absent in the first file that had to become present (empty) so that a later
    /// block could be written.
    pub blocks_made_present: usize,
}

/// Merges one block of `b` (already shifted) into `a`.
fn merge_block<K: Keyframe + Clone>(
    a: &mut Vec<K>,
    b: Vec<K>,
    rule: MergeRule,
    report: &mut MergeReport,
) {
    let in_a: HashSet<(Vec<u8>, u32)> = a.iter().map(|k| (k.track().to_vec(), k.frame())).collect();
    let in_b: HashSet<(Vec<u8>, u32)> = b.iter().map(|k| (k.track().to_vec(), k.frame())).collect();
    let mut seen: HashSet<(Vec<u8>, u32)> = HashSet::new();
    for key in &b {
        let id = (key.track().to_vec(), key.frame());
        if in_a.contains(&id) && seen.insert(id) {
            report.conflicts.push(Conflict {
                block: K::BLOCK,
                name: track_name(key),
                frame: key.frame(),
            });
        }
    }
    match rule {
        MergeRule::SecondWins => {
            let before = a.len();
            a.retain(|k| !in_b.contains(&(k.track().to_vec(), k.frame())));
            *report.replaced.get_mut(K::BLOCK) += before - a.len();
            *report.added.get_mut(K::BLOCK) += b.len();
            a.extend(b);
        }
        MergeRule::FirstWins => {
            for key in b {
                if in_a.contains(&(key.track().to_vec(), key.frame())) {
                    *report.skipped.get_mut(K::BLOCK) += 1;
                } else {
                    *report.added.get_mut(K::BLOCK) += 1;
                    a.push(key);
                }
            }
        }
    }
}

/// A copy of `keys` moved by `offset` frames, or the first key that would overflow.
fn shifted<K: Keyframe + Clone>(keys: &[K], offset: u32) -> Result<Vec<K>, EditError> {
    keys.iter()
        .map(|k| {
            let frame = k
                .frame()
                .checked_add(offset)
                .ok_or(EditError::FrameOverflow {
                    block: K::BLOCK,
                    frame: k.frame(),
                    new_frame: f64::from(k.frame()) + f64::from(offset),
                })?;
            let mut k = k.clone();
            k.set_frame(frame);
            Ok(k)
        })
        .collect()
}

/// Merges an optional block: present in the result when present in either file.
/// [`shifted`] for a block that may be absent.
fn shifted_block<K: Keyframe + Clone>(
    keys: &Option<Vec<K>>,
    offset: u32,
) -> Result<Option<Vec<K>>, EditError> {
    keys.as_deref().map(|k| shifted(k, offset)).transpose()
}

fn merge_optional<K: Keyframe + Clone>(
    a: &mut Option<Vec<K>>,
    b: Option<Vec<K>>,
    rule: MergeRule,
    report: &mut MergeReport,
) {
    if let Some(b) = b {
        merge_block(a.get_or_insert_with(Vec::new), b, rule, report);
    }
}

impl Vmd {
    /// Appends the keys of `other`, each moved `offset` frames later, block by block after
    /// this file's keys. Where both files have a key of the same track (bone or morph
    /// name, by the bytes before the NUL; the block itself for the others) at the same
    /// frame, [`MergeRule`] decides which stays, and the report lists every such conflict.
    ///
    /// This file's header and trailing bytes are kept; the second file's model name is
    /// ignored and its trailing bytes dropped (counted in the report). A block absent in
    /// this file but present in `other` becomes present; blocks before it that are absent
    /// become present and empty, since a present block cannot follow an absent one.
    ///
    /// Fails, changing nothing, when a shifted frame would not fit the u32 field.
    ///
    /// ```
    /// use mmd_formats::vmd::edit::MergeOptions;
    /// use mmd_formats::vmd::{MorphKey, Vmd};
    /// use mmd_formats::ShiftJis;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let key = |frame| MorphKey { name: ShiftJis::new("あ").unwrap(), frame, weight: 1.0 };
    /// let mut a = Vmd::new_v2("model")?;
    /// a.morph_keys = Some(vec![key(0), key(30)]);
    /// let mut b = Vmd::new_v2("model")?;
    /// b.morph_keys = Some(vec![key(0), key(10)]);
    /// let report = a.merge(&b, &MergeOptions { offset: 30, ..Default::default() })?;
    /// // b's frame 0 lands on a's frame 30: one conflict, the second file's key wins.
    /// assert_eq!(report.conflicts.len(), 1);
    /// let frames: Vec<u32> = a.morph_keys.iter().flatten().map(|k| k.frame).collect();
    /// assert_eq!(frames, [0, 30, 40]);
    /// # Ok(()) }
    /// ```
    pub fn merge(&mut self, other: &Vmd, options: &MergeOptions) -> Result<MergeReport, EditError> {
        let off = options.offset;
        let bone = shifted(&other.bone_keys, off)?;
        let morph = shifted_block(&other.morph_keys, off)?;
        let camera = shifted_block(&other.camera_keys, off)?;
        let light = shifted_block(&other.light_keys, off)?;
        let shadow = shifted_block(&other.self_shadow_keys, off)?;
        let show_ik = shifted_block(&other.show_ik_keys, off)?;
        let mut report = MergeReport {
            offset: off,
            rule: options.rule,
            second_trailing_dropped: other.trailing.len(),
            ..MergeReport::default()
        };
        let rule = options.rule;
        merge_block(&mut self.bone_keys, bone, rule, &mut report);
        merge_optional(&mut self.morph_keys, morph, rule, &mut report);
        merge_optional(&mut self.camera_keys, camera, rule, &mut report);
        merge_optional(&mut self.light_keys, light, rule, &mut report);
        merge_optional(&mut self.self_shadow_keys, shadow, rule, &mut report);
        merge_optional(&mut self.show_ik_keys, show_ik, rule, &mut report);
        report.blocks_made_present = close_gaps(self);
        Ok(report)
    }
}
