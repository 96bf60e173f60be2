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
//! ```
//! use mmd_formats::vmd::{BoneKey, Vmd};
//! use mmd_formats::ShiftJis;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let mut vmd = Vmd::new_v2("初音ミク")?;
//! vmd.bone_keys.push(BoneKey::new(ShiftJis::new("センター")?, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
//! let bytes = vmd.to_bytes()?;
//! assert_eq!(bytes.len(), 50 + 4 + 111 + 5 * 4);
//! assert_eq!(Vmd::from_bytes(&bytes)?, vmd);
//! # Ok(()) }
//! ```

mod coords;
mod edit;
mod eval;
mod fill;
mod header;
mod interpolation;
mod keyframe;
mod keys;
mod merge;
mod mirror;
mod speed;
mod summary;
mod trim;

pub use coords::{
    camera_euler_to_rh, mat_apply, mat_mul, position_to_rh, quat_mul, quaternion_to_rh, rot_x,
    rot_y, rot_z, Mat3,
};
pub use edit::EditError;
pub use eval::{slerp, BonePose, CameraState, LightState, Span, Track};
pub use fill::{FillMode, FillOptions, FillReport, FilledKey};
pub use keyframe::{Block, BlockCounts, Keyframe};
pub use merge::{Conflict, MergeOptions, MergeReport, MergeRule};
pub use mirror::{swap_left_right, MirrorOptions, MirrorReport};
pub use speed::{DroppedKey, SpeedOptions, SpeedReport};
pub use trim::{BoundaryKey, TrimOptions, TrimReport};

pub use header::{
    signature_bytes, Header, ModelName, VmdContext, VmdVersion, SIGNATURE_PREFIX, SIGNATURE_V1,
    SIGNATURE_V2,
};
pub use interpolation::{CameraInterpolation, Curve, Interpolation, InterpolationExtras};
pub use keys::{BoneKey, CameraKey, IkState, LightKey, MorphKey, SelfShadowKey, ShowIkKey};
pub use summary::{Kind, Summary, FPS};

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
    /// A new, empty version 2 file for a model (name encoded as Shift_JIS, at most 20
    /// bytes), with all six blocks present and empty, as MMD writes them.
    pub fn new_v2(model_name: &str) -> Result<Self> {
        Ok(Vmd {
            header: Header::new_v2(model_name)?,
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
