//! Edits of a motion: mirror, trim, merge, speed and fill, each an inherent method of
//! [`Vmd`] ([`Vmd::mirror`], [`Vmd::trim`], [`Vmd::merge`], [`Vmd::speed`],
//! [`Vmd::fill_rest_keys`]) with its options and the report of what it changed.
//!
//! Every edit works on the stored records and changes only what it is asked to change:
//! the 64 interpolation bytes, the junk after a name's NUL, the header, the trailing
//! bytes and the order of the records it keeps are left as they are, and an absent block
//! stays absent. An edit that fails leaves the value untouched and says why
//! ([`EditError`]).
//!
//! ```
//! use mmd_formats::vmd::edit::TrimOptions;
//! use mmd_formats::vmd::{BoneKey, Vmd};
//! use mmd_formats::ShiftJis;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut vmd = Vmd::new("model")?;
//! for frame in [0, 10, 20] {
//!     let name = ShiftJis::new("center")?;
//!     vmd.bone_keys.push(BoneKey::new(name, frame, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
//! }
//! let report = vmd.trim(10, 20, &TrimOptions::default())?;
//! assert_eq!((report.kept.bone, report.dropped.bone), (2, 1));
//! assert_eq!(vmd.bone_keys[0].frame, 0, "frame 10 became frame 0");
//! # Ok(()) }
//! ```

mod fill;
mod merge;
mod mirror;
mod speed;
mod trim;

pub use fill::{FillMode, FillOptions, FillReport, FilledKey};
pub use merge::{Conflict, MergeOptions, MergeReport, MergeRule};
pub use mirror::{swap_left_right, MirrorOptions, MirrorReport};
pub use speed::{DroppedKey, SpeedOptions, SpeedReport};
pub use trim::{BoundaryKey, TrimOptions, TrimReport};

use crate::text::decode_sjis;
use crate::vmd::{Block, Keyframe, Vmd};
use std::fmt;

/// Why an edit cannot be made. Each says what was expected and what was given.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EditError {
    /// A frame range whose start is after its end.
    Range {
        /// What the range is for (`trim`, `fill`).
        what: &'static str,
        /// The first frame asked for.
        from: u32,
        /// The last frame asked for.
        to: u32,
    },
    /// A speed factor that is not a finite number above 0.
    Factor(f64),
    /// A key's new frame number would not fit the u32 frame field.
    FrameOverflow {
        /// The block of the key.
        block: Block,
        /// The key's frame before the edit.
        frame: u32,
        /// The frame number it would get.
        new_frame: f64,
    },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Range { what, from, to } => write!(
                f,
                "expected a {what} range whose first frame is at or before its last, found \
                 {from} > {to}"
            ),
            EditError::Factor(x) => write!(
                f,
                "expected a finite speed factor above 0 (2 = twice as fast), found {x}"
            ),
            EditError::FrameOverflow {
                block,
                frame,
                new_frame,
            } => write!(
                f,
                "a {block} key at frame {frame} would move to frame {new_frame}, expected at \
                 most {} (the u32 frame field)",
                u32::MAX
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// A track name for reports: the name bytes decoded (empty for the unnamed blocks).
pub(crate) fn track_name<K: Keyframe>(key: &K) -> String {
    decode_sjis(key.track()).into_owned()
}

/// Makes the block sequence writable again after blocks were filled in: a present block
/// after an absent one cannot be written, so every absent block before the last present
/// one becomes present and empty. Returns how many were made present.
pub(crate) fn close_gaps(vmd: &mut Vmd) -> usize {
    let present = [
        vmd.morph_keys.is_some(),
        vmd.camera_keys.is_some(),
        vmd.light_keys.is_some(),
        vmd.self_shadow_keys.is_some(),
        vmd.show_ik_keys.is_some(),
    ];
    let Some(last) = present.iter().rposition(|p| *p) else {
        return 0;
    };
    let mut made = 0;
    let mut fill = |slot: usize, missing: bool| {
        if missing && slot < last {
            made += 1;
            true
        } else {
            false
        }
    };
    if fill(0, vmd.morph_keys.is_none()) {
        vmd.morph_keys = Some(Vec::new());
    }
    if fill(1, vmd.camera_keys.is_none()) {
        vmd.camera_keys = Some(Vec::new());
    }
    if fill(2, vmd.light_keys.is_none()) {
        vmd.light_keys = Some(Vec::new());
    }
    if fill(3, vmd.self_shadow_keys.is_none()) {
        vmd.self_shadow_keys = Some(Vec::new());
    }
    made
}
