//! Display frames (the editor's bone and morph panels).

use super::PmxContext;
use crate::index::{BoneIndex, MorphIndex};
use crate::text::PmxText;
use crate::Mmd;

/// One display frame.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = PmxContext)]
pub struct DisplayFrame {
    /// Frame name (the first two are usually "Root" and "表情").
    pub name: PmxText,
    /// Frame name in English.
    pub name_en: PmxText,
    /// 1 = special frame (Root, 表情), 0 = normal.
    pub special: u8,
    /// The elements, preceded by an i32 count.
    #[mmd(count = i32)]
    pub elements: Vec<FrameElement>,
}

/// A display-frame element, chosen by its target byte.
///
/// Trap: the index width differs per element (bone width vs morph width), so each element
/// must be read by its own target byte.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(ctx = PmxContext, tag = u8, name = "display-frame element target")]
pub enum FrameElement {
    /// 0: a bone.
    #[mmd(tag = 0)]
    Bone(BoneIndex),
    /// 1: a morph.
    #[mmd(tag = 1)]
    Morph(MorphIndex),
}
