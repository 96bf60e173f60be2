//! What the six key kinds have in common: a frame number, and (for bones and morphs) the
//! name of the track they belong to. The edits and the samplers are written once against
//! [`Keyframe`].

use super::keys::{BoneKey, CameraKey, LightKey, MorphKey, SelfShadowKey, ShowIkKey};
use std::fmt;

/// The six blocks of a VMD, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Block {
    /// Bone keys (111 bytes each).
    Bone,
    /// Morph keys (23 bytes each).
    Morph,
    /// Camera keys (61 bytes each).
    Camera,
    /// Light keys (28 bytes each).
    Light,
    /// Self-shadow keys (9 bytes each).
    SelfShadow,
    /// IK / show keys (9 + 21 × IK count bytes each).
    ShowIk,
}

impl Block {
    /// Every block, in file order.
    pub const ALL: [Block; 6] = [
        Block::Bone,
        Block::Morph,
        Block::Camera,
        Block::Light,
        Block::SelfShadow,
        Block::ShowIk,
    ];

    /// The name used in reports and JSON: `bone`, `morph`, `camera`, `light`,
    /// `self_shadow`, `show_ik`.
    pub const fn name(self) -> &'static str {
        match self {
            Block::Bone => "bone",
            Block::Morph => "morph",
            Block::Camera => "camera",
            Block::Light => "light",
            Block::SelfShadow => "self_shadow",
            Block::ShowIk => "show_ik",
        }
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A key frame of any block: it has a frame number and belongs to a track.
///
/// Bone and morph keys belong to the track of their name, compared by the bytes up to the
/// NUL (as MMD matches names; the junk after the NUL does not count). Camera, light,
/// self-shadow and IK / show keys form one track per block, and their track name is empty.
pub trait Keyframe {
    /// The block this kind of key lives in.
    const BLOCK: Block;
    /// The frame number (30 frames a second).
    fn frame(&self) -> u32;
    /// Replaces the frame number; nothing else changes.
    fn set_frame(&mut self, frame: u32);
    /// The track this key belongs to: the name bytes up to the NUL for bone and morph
    /// keys, empty for the other blocks.
    fn track(&self) -> &[u8];
}

/// `impl Keyframe` for a key type: its block, and the track of a key `$key` (`&Self`).
macro_rules! keyframe {
    ($ty:ty, $block:expr, |$key:ident| $track:expr) => {
        impl Keyframe for $ty {
            const BLOCK: Block = $block;
            fn frame(&self) -> u32 {
                self.frame
            }
            fn set_frame(&mut self, frame: u32) {
                self.frame = frame;
            }
            fn track(&self) -> &[u8] {
                let $key = self;
                $track
            }
        }
    };
}

keyframe!(BoneKey, Block::Bone, |key| key.name.name_bytes());
keyframe!(MorphKey, Block::Morph, |key| key.name.name_bytes());
keyframe!(CameraKey, Block::Camera, |_key| &[]);
keyframe!(LightKey, Block::Light, |_key| &[]);
keyframe!(SelfShadowKey, Block::SelfShadow, |_key| &[]);
keyframe!(ShowIkKey, Block::ShowIk, |_key| &[]);

/// A number of keys per block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BlockCounts {
    /// Bone keys.
    pub bone: usize,
    /// Morph keys.
    pub morph: usize,
    /// Camera keys.
    pub camera: usize,
    /// Light keys.
    pub light: usize,
    /// Self-shadow keys.
    pub self_shadow: usize,
    /// IK / show keys.
    pub show_ik: usize,
}

impl BlockCounts {
    /// The count of one block.
    pub fn get(&self, block: Block) -> usize {
        match block {
            Block::Bone => self.bone,
            Block::Morph => self.morph,
            Block::Camera => self.camera,
            Block::Light => self.light,
            Block::SelfShadow => self.self_shadow,
            Block::ShowIk => self.show_ik,
        }
    }

    /// The count of one block, to change.
    pub fn get_mut(&mut self, block: Block) -> &mut usize {
        match block {
            Block::Bone => &mut self.bone,
            Block::Morph => &mut self.morph,
            Block::Camera => &mut self.camera,
            Block::Light => &mut self.light,
            Block::SelfShadow => &mut self.self_shadow,
            Block::ShowIk => &mut self.show_ik,
        }
    }

    /// The sum over all blocks.
    pub fn total(&self) -> usize {
        Block::ALL.iter().map(|b| self.get(*b)).sum()
    }

    /// The blocks with a non-zero count, with their counts, in file order.
    pub fn nonzero(&self) -> Vec<(Block, usize)> {
        Block::ALL
            .iter()
            .map(|b| (*b, self.get(*b)))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

impl fmt::Display for BlockCounts {
    /// `3 bone, 1 camera` (blocks with no keys left out), or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = self.nonzero();
        if parts.is_empty() {
            return f.write_str("none");
        }
        for (i, (block, n)) in parts.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n} {block}")?;
        }
        Ok(())
    }
}
