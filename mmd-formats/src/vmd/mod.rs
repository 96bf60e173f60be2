//! VMD (Vocaloid Motion Data): motion, morph, camera and light key frames.
//!
//! A VMD file is a [`Header`] (30-byte signature, then the model name: 20 bytes in v2,
//! 10 in v1) and six blocks in this order, each a u32 count followed by its records:
//! bone keys (111 bytes), morph keys (23), camera keys (61), light keys (28), self-shadow
//! keys (9) and IK / show keys (9 + 21 × IK count). Everything is little-endian; integers
//! are u32, reals f32; text is fixed-length Shift_JIS; time is a frame number at 30 fps.
//!
//! Every block after the bone block may be absent: the file ends where its count would
//! start. That is a different file from one whose block is present with 0 records, so
//! the blocks are `Option`s. A file that ends inside a count or a record is an error.
//! Records stay in file order (real files are not sorted by frame, and hold repeated
//! (name, frame) pairs). Bytes after the last block are kept in [`Vmd::trailing`].
//!
//! This module holds the layout types and their small typed views (the interpolation
//! curves, the [`Keyframe`] every key is, the [`summary`](Vmd::summary)). What is done with
//! a motion is in two submodules: [`eval`] samples a track at any frame (curves, slerp,
//! camera position), and [`edit`] mirrors, trims, merges, retimes and fills a motion.
//! Right-handed views of positions and rotations are in [`crate::coords`].
//!
//! ```
//! use mmd_formats::vmd::{BoneKey, Vmd};
//! use mmd_formats::ShiftJis;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let mut vmd = Vmd::new("初音ミク")?;
//! vmd.bone_keys.push(BoneKey::new(ShiftJis::new("センター")?, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
//! let bytes = vmd.to_bytes()?;
//! assert_eq!(bytes.len(), 50 + 4 + 111 + 5 * 4);
//! assert_eq!(Vmd::from_bytes(&bytes)?, vmd);
//! # Ok(()) }
//! ```

pub mod edit;
pub mod eval;
mod header;
mod interpolation;
mod keyframe;
mod keys;
mod right_handed;
mod summary;

pub use header::{
    signature_bytes, Header, ModelName, VmdContext, VmdVersion, SIGNATURE_PREFIX, SIGNATURE_V1,
    SIGNATURE_V2,
};
pub use interpolation::{CameraInterpolation, Curve, Interpolation, InterpolationExtras};
pub use keyframe::{Block, BlockCounts, Keyframe};
pub use keys::{BoneKey, CameraKey, IkState, LightKey, MorphKey, SelfShadowKey, ShowIkKey};
pub use summary::{MotionKind, VmdSummary, FPS};

use crate::error::Result;
use crate::Mmd;

/// A whole VMD file.
///
/// VMD holds key frames: bone and morph motion, camera, light, self-shadow and IK/show
/// states. All numbers are little-endian. Names are fixed-length Shift_JIS (code page 932)
/// fields, NUL-terminated when shorter than the field, with whatever junk follows the NUL
/// kept as it is. Every block after the bone keys may be missing at the end of the file; a
/// missing block and a block with count 0 are different files.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    ctx = (),
    file(id = "vmd", title = "VMD (Vocaloid Motion Data)", application = "MikuMikuDance")
)]
pub struct Vmd {
    /// Signature and model name. The signature's version sets the width of the model
    /// name; the blocks after the header are the same in both versions.
    pub header: Header,
    /// Bone key frames, preceded by a u32 count. Not sorted: keep file order.
    #[mmd(count = u32)]
    pub bone_keys: Vec<BoneKey>,
    /// Morph key frames, preceded by a u32 count.
    ///
    /// Trap: this block and every later one may be missing, count included; stop when
    /// the file ends there. `None` = absent, `Some(vec![])` = present with count 0.
    #[mmd(unless_eof, count = u32)]
    pub morph_keys: Option<Vec<MorphKey>>,
    /// Camera key frames, preceded by a u32 count (`None`: the file ends before it).
    #[mmd(unless_eof, count = u32)]
    pub camera_keys: Option<Vec<CameraKey>>,
    /// Light key frames, preceded by a u32 count (`None`: the file ends before it).
    #[mmd(unless_eof, count = u32)]
    pub light_keys: Option<Vec<LightKey>>,
    /// Self-shadow key frames, preceded by a u32 count (`None`: the file ends before it;
    /// files from MMD 6.19 and earlier have no self-shadow block).
    #[mmd(unless_eof, count = u32)]
    pub self_shadow_keys: Option<Vec<SelfShadowKey>>,
    /// IK / show key frames, preceded by a u32 count (`None`: the file ends before it).
    #[mmd(unless_eof, count = u32)]
    pub show_ik_keys: Option<Vec<ShowIkKey>>,
    /// Bytes after the last block, kept verbatim (some tools append a signature of their
    /// own).
    #[mmd(rest)]
    pub trailing: Vec<u8>,
}

impl Vmd {
    /// A new, empty motion for a model: version 2 (the name encoded as Shift_JIS, at most
    /// 20 bytes), with all six blocks present and empty, as MMD writes them. The same as
    /// [`Vmd::new_v2`].
    pub fn new(model_name: &str) -> Result<Self> {
        Self::new_v2(model_name)
    }

    /// A new, empty version 2 file for a model (name encoded as Shift_JIS, at most 20
    /// bytes), with all six blocks present and empty, as MMD writes them.
    pub fn new_v2(model_name: &str) -> Result<Self> {
        Self::empty(Header::new_v2(model_name)?)
    }

    /// A new, empty version 1 file (`Vocaloid Motion Data file`) for a model (name encoded
    /// as Shift_JIS, at most 10 bytes), with all six blocks present and empty.
    pub fn new_v1(model_name: &str) -> Result<Self> {
        Self::empty(Header::new_v1(model_name)?)
    }

    /// A file with this header and all six blocks present and empty.
    fn empty(header: Header) -> Result<Self> {
        Ok(Vmd {
            header,
            bone_keys: Vec::new(),
            morph_keys: Some(Vec::new()),
            camera_keys: Some(Vec::new()),
            light_keys: Some(Vec::new()),
            self_shadow_keys: Some(Vec::new()),
            show_ik_keys: Some(Vec::new()),
            trailing: Vec::new(),
        })
    }

    /// The context the header declares.
    pub fn context(&self) -> Result<VmdContext> {
        self.header.context()
    }
}

crate::file::whole_file_api!(Vmd, "VMD");
