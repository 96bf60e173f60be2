//! The PMD header and the section counts that size the English block.

use crate::error::Result;
use crate::text::ShiftJis;
use crate::{ContextFault, DeclaredContext, Mmd, MmdContext};

use super::{Bone, Morph};

/// The PMD header: 283 bytes at offset 0.
///
/// Trap: the signature is the three bytes `Pmd` (50 6D 64), with no NUL and no fourth byte;
/// the version follows at once, at offset 3.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"Pmd")]
pub struct Header {
    /// Format version, a float32: 1.0 (`00 00 80 3F`) in every known file. Kept exactly as
    /// read; no later layout depends on it.
    ///
    /// Trap: Kaitai's `mmd_pmd.ksy` types it as u4; the bytes are the same, but the value
    /// is a float (MMDAgent rejects anything other than 1.0f).
    pub version: f32,
    /// Model name: 20 bytes of Shift_JIS (code page 932), ending at the first NUL.
    pub name: ShiftJis<20>,
    /// Comment: 256 bytes of Shift_JIS, usually the licence text, with LF (0x0A) line
    /// breaks (no CR LF in known files).
    pub comment: ShiftJis<256>,
}

impl Default for Header {
    /// Version 1.0, empty (all-zero) name and comment.
    fn default() -> Self {
        Header {
            version: 1.0,
            name: ShiftJis::default(),
            comment: ShiftJis::default(),
        }
    }
}

/// The counts of the earlier sections that decide the English block's length: it has one
/// name per bone, one per morph except the base, and one per bone frame.
///
/// This is the context the extension blocks are read and written with; [`super::Pmd`]
/// switches to it after the bone frame names.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[mmd(from(bones: [Bone], morphs: [Morph], frame_names: [ShiftJis<50>]))]
pub struct PmdCounts {
    /// The number of bones: the English block has one name per bone.
    #[mmd(from = bones.len())]
    pub bones: usize,
    /// The number of morphs, the base morph (index 0) included: the English block has one
    /// name per morph except the base.
    #[mmd(from = morphs.len())]
    pub morphs: usize,
    /// The number of bone frame (display group) names: the English block has one name per
    /// bone frame.
    #[mmd(from = frame_names.len())]
    pub frames: usize,
}

impl PmdCounts {
    /// The counts of the given sections.
    ///
    /// Never fails; it returns a `Result` because that is what a context switch takes.
    pub fn of(bones: &[Bone], morphs: &[Morph], frames: &[ShiftJis<50>]) -> Result<Self> {
        PmdCounts::compute((bones, morphs, frames)).map_err(ContextFault::into_error)
    }

    /// The number of English morph names: `morphs - 1`, because the base morph (index 0)
    /// has none; 0 when there are no morphs at all.
    pub fn english_morph_names(&self) -> usize {
        self.morphs.saturating_sub(1)
    }
}
