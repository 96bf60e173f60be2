//! The extension blocks after the bone display list: English names and toon textures.
//! (Rigid bodies and joints are in `physics`.)
//!
//! None of the extensions has a length or an ID: each one's presence is known only from
//! whether bytes remain where it would start.

use super::PmdCounts;
use crate::text::ShiftJis;
use crate::Mmd;

/// The English block: a flag byte, then (when the flag is not 0) the English names.
///
/// Trap: the flag may be 0 and still be followed by the toon textures and the physics
/// blocks (a real file does this): stopping after a 0 flag (as pymeshio does) loses them.
#[derive(Mmd, Debug, Clone, PartialEq, Default)]
#[mmd(ctx = PmdCounts)]
pub struct English {
    /// 1 = English names follow; 0 = none. Only 0 and 1 are seen; any value other than 0
    /// is read as "names follow" and kept.
    pub flag: u8,
    /// The English names; present when the flag is not 0.
    #[mmd(if = *flag != 0)]
    pub names: Option<EnglishNames>,
}

/// The English names: 276 + 20 × bones + 20 × (morphs - 1) + 50 × bone frames bytes.
///
/// The "English" fields are Shift_JIS too, and may hold Japanese text (copies of the
/// Japanese names occur).
#[derive(Mmd, Debug, Clone, PartialEq, Default)]
#[mmd(ctx = PmdCounts)]
pub struct EnglishNames {
    /// The model name in English (20 bytes; a name of 19 bytes and the NUL occurs).
    pub model_name: ShiftJis<20>,
    /// The comment in English (256 bytes).
    pub comment: ShiftJis<256>,
    /// One English name per bone, in bone order.
    #[mmd(len = ctx.bones)]
    pub bone_names: Vec<ShiftJis<20>>,
    /// One English name per morph **except the base**: entry i names morph i + 1.
    ///
    /// Trap: the base morph (index 0) is left out by position, not by type: a second
    /// morph of type 0 has its name here. With no morphs at all there are no entries (not
    /// -1).
    #[mmd(len = ctx.morphs.saturating_sub(1))]
    pub morph_names: Vec<ShiftJis<20>>,
    /// One English name per bone frame (50 bytes each; unlike the Japanese ones, they carry
    /// no trailing LF in known files).
    #[mmd(len = ctx.frames)]
    pub frame_names: Vec<ShiftJis<50>>,
}

/// The toon-texture block: ten file names of 100 bytes (1000 bytes).
///
/// Entry i is the file for toon slot i (toon01.bmp … toon10.bmp by default), the one
/// that material toon index i refers to. The block is present even when the English flag
/// is 0.
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct ToonTextures {
    /// The ten toon file names, Shift_JIS, 100 bytes each (`toonNN.bmp`, a NUL and 0xFD
    /// fill in known files).
    pub names: [ShiftJis<100>; 10],
}

impl ToonTextures {
    /// The default block: `toon01.bmp` … `toon10.bmp`, NUL-terminated, zero-filled.
    pub fn standard() -> Self {
        let mut names = [ShiftJis::<100>::default(); 10];
        for (i, slot) in names.iter_mut().enumerate() {
            let name = format!("toon{:02}.bmp", i + 1);
            if let Some(dst) = slot.0.get_mut(..name.len()) {
                dst.copy_from_slice(name.as_bytes());
            }
        }
        ToonTextures { names }
    }

    /// The file name for a material toon index: slot 0-9, or `None` for 255 and for any
    /// other index past the ten slots.
    pub fn name(&self, toon_index: u8) -> Option<&ShiftJis<100>> {
        self.names.get(usize::from(toon_index))
    }
}
