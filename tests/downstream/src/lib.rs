//! DSNP ("dance snippet"), a small made-up format derived with `mmd-formats` the way a
//! user's crate would: a header from which a context is declared (a text encoding and a
//! joint index width), length-prefixed and fixed-width Shift_JIS text, a count, a tagged
//! enum, a flag-conditional field and trailing bytes.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | signature `DSNP` |
//! | 4 | 1 | text encoding: 0 = UTF-16LE, 1 = UTF-8 |
//! | 5 | 1 | joint index width: 1, 2 or 4 |
//! | 6 | 4 + n | title (length-prefixed text) |
//! | … | 16 | author (Shift_JIS, NUL-terminated, junk after the NUL kept) |
//! | … | 2 + count × … | steps |
//! | … | to the end | trailing bytes |

#![deny(missing_docs)]

use mmd_formats::{Index, Mmd, MmdContext, PmxText, ShiftJis, TextEncoding};

mmd_formats::index_kind! {
    /// Joints of the dancer's skeleton.
    pub struct Joint = "joint";
}

/// A joint index (-1 = none), at the width the header declares.
pub type JointIndex = Index<Joint>;

/// The header: a signature and the two settings the rest is read with.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"DSNP")]
pub struct Header {
    /// The encoding of every length-prefixed text: 0 = UTF-16LE, 1 = UTF-8.
    pub encoding: u8,
    /// The width in bytes of every joint index: 1, 2 or 4.
    pub joint_width: u8,
}

/// The context the body is read with, computed from the header.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: Header))]
pub struct DsnpContext {
    /// The text encoding (header byte 4). Any value is kept; 0 and 1 decode.
    #[mmd(from = header.encoding, text_encoding, name = "text encoding")]
    pub encoding: TextEncoding,
    /// The joint index width (header byte 5).
    #[mmd(
        from = header.joint_width,
        valid = [1, 2, 4],
        name = "joint index width",
        index_width = JointIndex
    )]
    pub joint_width: u8,
}

mmd_formats::mmd_flags! {
    /// What a step carries.
    pub struct StepFlags(u8) {
        /// 0x01: a weight (f32) follows the joint.
        const WEIGHTED = 0x01;
        /// 0x02: the step mirrors the previous one (no data of its own).
        const MIRRORED = 0x02;
    }
}

/// One step: a joint, flags, a weight when the flags say so, and a motion.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = DsnpContext)]
pub struct Step {
    /// The joint that moves (-1 = the whole body).
    pub joint: JointIndex,
    /// What the step carries; unknown bits are kept.
    pub flags: StepFlags,
    /// The weight, 0.0-1.0: present when `flags` has `WEIGHTED`.
    #[mmd(if = flags.contains(StepFlags::WEIGHTED))]
    pub weight: Option<f32>,
    /// The motion, chosen by a tag byte.
    pub motion: Motion,
}

/// A motion, chosen by the byte before it.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u8, name = "motion kind")]
pub enum Motion {
    /// 0: hold still.
    #[mmd(tag = 0)]
    Hold,
    /// 1: turn by an angle, in degrees.
    #[mmd(tag = 1)]
    Turn(f32),
    /// 2: move by an offset.
    #[mmd(tag = 2)]
    Move {
        /// The offset (x, y, z).
        offset: [f32; 3],
        /// Frames the move takes.
        frames: u16,
    },
}

/// A whole DSNP file.
///
/// DSNP ("dance snippet") holds a titled list of dance steps. All numbers are
/// little-endian. The header declares the text encoding and the width of joint indices;
/// everything after is read with them.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    ctx = (),
    file(id = "dsnp", title = "DSNP (dance snippet)", application = "mmd-downstream")
)]
pub struct Dsnp {
    /// Signature and settings.
    #[mmd(context = DsnpContext(header))]
    pub header: Header,
    /// The title, in the header's encoding.
    pub title: PmxText,
    /// The author: 16 bytes of Shift_JIS, ending at a NUL (bytes after it are kept).
    pub author: ShiftJis<16>,
    /// The steps, a u16 count first.
    #[mmd(count = u16)]
    pub steps: Vec<Step>,
    /// Bytes after the last step, kept as they are.
    #[mmd(rest)]
    pub trailing: Vec<u8>,
}

impl Dsnp {
    /// Reads a whole file (every byte must belong to it: the trailing bytes do).
    pub fn from_bytes(bytes: &[u8]) -> mmd_formats::Result<Self> {
        mmd_formats::file::decode_all(bytes, &())
    }

    /// Writes the file back; for a value read with [`Dsnp::from_bytes`], the same bytes.
    pub fn to_bytes(&self) -> mmd_formats::Result<Vec<u8>> {
        mmd_formats::file::encode_all(self, &())
    }
}
