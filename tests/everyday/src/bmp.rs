//! Windows bitmaps (`.bmp`).
//!
//! All numbers are little-endian. A 14-byte file header (`BM`, the file size, two reserved
//! words, the offset of the pixels), then a DIB header whose first `u32` is its own size,
//! which says which header it is:
//!
//! | size | header | adds |
//! |---|---|---|
//! | 12 | `BITMAPCOREHEADER` | `u16` width and height, planes, bits per pixel |
//! | 40 | `BITMAPINFOHEADER` | `i32` width and height, compression, image size, resolution, colours used and important |
//! | 52 | `BITMAPV2INFOHEADER` | red, green and blue masks |
//! | 56 | `BITMAPV3INFOHEADER` | the alpha mask |
//! | 108 | `BITMAPV4HEADER` | the colour space: its type, end points, gamma |
//! | 124 | `BITMAPV5HEADER` | the rendering intent, the profile's offset (from the DIB header's first byte) and size |
//!
//! Another size of 16 or more reads as the largest of these it holds, its other bytes
//! kept. After a 40-byte header with compression `BI_BITFIELDS` (3) come three masks,
//! with `BI_ALPHABITFIELDS` (6) four. Then the colour table: `colours_used` entries (or
//! 2^bits for 8 bits per pixel or fewer, when 0), 3 bytes each after a core header, 4
//! after the others. The pixel rows start at the pixel offset, each rounded up to a
//! multiple of 4 bytes; a negative height stores them top-down. Every byte the fields do
//! not hold (between the colour table and the pixels, around the profile, after them) is
//! kept in `gaps`.

use mmd_formats::text::{Latin1, PaddedText};
use mmd_formats::{Mmd, MmdContext};

/// `BI_BITFIELDS`: three masks follow a 40-byte header.
pub const BI_BITFIELDS: u32 = 3;
/// `BI_ALPHABITFIELDS`: four masks follow a 40-byte header.
pub const BI_ALPHABITFIELDS: u32 = 6;
/// `PROFILE_EMBEDDED` (`MBED`): the V5 profile is an ICC profile in the file.
pub const PROFILE_EMBEDDED: u32 = 0x4D42_4544;
/// `PROFILE_LINKED` (`LINK`): the V5 profile is the name of a profile file.
pub const PROFILE_LINKED: u32 = 0x4C49_4E4B;

/// What the pixel rows are read with: the bytes of one row's pixels and its padding.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(width: i64, bits: u16))]
pub struct RowLayout {
    /// The bytes a row's pixels take: `width * bits` rounded up to whole bytes.
    #[mmd(from = (*width * i64::from(*bits) + 7) / 8)]
    pub used: i64,
    /// The bytes after them, to a multiple of 4.
    #[mmd(from = (*width * i64::from(*bits) + 31) / 32 * 4 - (*width * i64::from(*bits) + 7) / 8)]
    pub pad: i64,
}

/// A whole BMP file.
///
/// The file header, the DIB header (which fields it has depends on its size), the
/// bit-field masks, the colour table, then the rows where the pixel offset says and the
/// V5 profile where its offset says; the bytes between and after are kept.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    ctx = (),
    magic = b"BM",
    file(id = "bmp", title = "BMP (Windows bitmap)", application = "everyday-formats")
)]
pub struct Bmp {
    /// The file's size as the header states it (kept, not checked).
    pub file_size: u32,
    /// Reserved.
    pub reserved1: u16,
    /// Reserved.
    pub reserved2: u16,
    /// Where the pixel rows start, from the file's first byte.
    pub pixel_offset: u32,
    /// The DIB header's size, which says which header it is (12, 40, 52, 56, 108, 124).
    pub header_size: u32,
    /// The width in pixels, in a core header.
    #[mmd(if = *header_size == 12)]
    pub core_width: Option<u16>,
    /// The height in pixels, in a core header (rows stored bottom-up).
    #[mmd(if = *header_size == 12)]
    pub core_height: Option<u16>,
    /// The width in pixels, in every other header.
    #[mmd(if = *header_size != 12)]
    pub width: Option<i32>,
    /// The height in pixels, in every other header; negative for rows stored top-down.
    #[mmd(if = *header_size != 12)]
    pub height: Option<i32>,
    /// Colour planes (1).
    pub planes: u16,
    /// Bits per pixel: 1, 4, 8, 16, 24 or 32.
    #[mmd(context = RowLayout(
        i64::from(core_width.unwrap_or(0)) + i64::from(width.unwrap_or(0)),
        *bits_per_pixel
    ))]
    pub bits_per_pixel: u16,
    /// The compression: 0 = none, 3 = bit fields, 6 = bit fields with alpha, others kept.
    #[mmd(if = *header_size >= 40)]
    pub compression: Option<u32>,
    /// The pixels' size in bytes (0 allowed without compression).
    #[mmd(if = *header_size >= 40)]
    pub image_size: Option<u32>,
    /// Pixels per metre, across and down.
    #[mmd(if = *header_size >= 40)]
    pub resolution: Option<[i32; 2]>,
    /// Colour table entries (0: 2^bits for 8 bits per pixel or fewer).
    #[mmd(if = *header_size >= 40)]
    pub colours_used: Option<u32>,
    /// Colours needed to show the image (0: all).
    #[mmd(if = *header_size >= 40)]
    pub colours_important: Option<u32>,
    /// The red, green and blue masks of a V2 header and later.
    #[mmd(if = *header_size >= 52)]
    pub rgb_masks: Option<[u32; 3]>,
    /// The alpha mask of a V3 header and later.
    #[mmd(if = *header_size >= 56)]
    pub alpha_mask: Option<u32>,
    /// The colour space of a V4 header and later (`sRGB`, `Win `, `LINK`, `MBED`, or 0 for
    /// calibrated end points).
    #[mmd(if = *header_size >= 108)]
    pub colour_space: Option<u32>,
    /// The red, green and blue end points (x, y, z each, 2.30 fixed point).
    #[mmd(if = *header_size >= 108)]
    pub endpoints: Option<[i32; 9]>,
    /// The red, green and blue gamma (16.16 fixed point).
    #[mmd(if = *header_size >= 108)]
    pub gamma: Option<[u32; 3]>,
    /// The rendering intent of a V5 header.
    #[mmd(if = *header_size >= 124)]
    pub intent: Option<u32>,
    /// Where the profile starts, from the DIB header's first byte.
    #[mmd(if = *header_size >= 124)]
    pub profile_offset: Option<u32>,
    /// The profile's size in bytes.
    #[mmd(if = *header_size >= 124)]
    pub profile_size: Option<u32>,
    /// Reserved (V5).
    #[mmd(if = *header_size >= 124)]
    pub reserved: Option<u32>,
    /// Header bytes past the fields of the largest known header it holds, kept.
    #[mmd(len = *header_size - if *header_size >= 124 {
        124
    } else if *header_size >= 108 {
        108
    } else if *header_size >= 56 {
        56
    } else if *header_size >= 52 {
        52
    } else if *header_size >= 40 {
        40
    } else if *header_size == 12 {
        12
    } else {
        16
    })]
    pub header_extra: Vec<u8>,
    /// The masks after a 40-byte header with bit-field compression (3 masks; 4 with
    /// alpha).
    #[mmd(
        if = *header_size == 40
            && (compression.unwrap_or(0) == 3 || compression.unwrap_or(0) == 6),
        len = if compression.unwrap_or(0) == 6 { 4 } else { 3 }
    )]
    pub bitfields: Option<Vec<u32>>,
    /// The colour table: blue, green, red (and a reserved byte but after a core header).
    #[mmd(
        len = if colours_used.unwrap_or(0) != 0 {
            colours_used.unwrap_or(0)
        } else if *bits_per_pixel <= 8 {
            1u32 << *bits_per_pixel
        } else {
            0
        },
        size = if *header_size == 12 { 3 } else { 4 }
    )]
    pub colour_table: Vec<Colour>,
    /// The pixel rows in file order (bottom-up, or top-down for a negative height), each
    /// where the pixel offset and the row stride put it.
    #[mmd(
        len = if *header_size == 12 {
            i64::from(core_height.unwrap_or(0))
        } else {
            i64::from(height.unwrap_or(0).abs())
        },
        pos = i64::from(*pixel_offset) + _index as i64 * (ctx.used + ctx.pad),
        size = ctx.used + ctx.pad
    )]
    pub rows: Vec<Row>,
    /// An embedded ICC profile (V5, colour space `MBED`), where its offset says.
    #[mmd(
        if = colour_space.unwrap_or(0) == 0x4D42_4544 && profile_size.unwrap_or(0) > 0,
        pos = profile_offset.unwrap_or(0),
        pos_base = header_size,
        size = profile_size.unwrap_or(0)
    )]
    pub profile: Option<Profile>,
    /// A linked profile's file name (V5, colour space `LINK`), where its offset says.
    #[mmd(
        if = colour_space.unwrap_or(0) == 0x4C49_4E4B && profile_size.unwrap_or(0) > 0,
        pos = profile_offset.unwrap_or(0),
        pos_base = header_size,
        size = profile_size.unwrap_or(0)
    )]
    pub profile_name: Option<LinkedProfile>,
    /// The bytes no field holds: between the colour table and the pixels, around the
    /// profile, after everything.
    #[mmd(gaps)]
    pub gaps: Vec<Vec<u8>>,
}

/// One colour table entry.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Colour {
    /// Blue.
    pub blue: u8,
    /// Green.
    pub green: u8,
    /// Red.
    pub red: u8,
    /// The reserved fourth byte (none after a core header).
    #[mmd(rest)]
    pub reserved: Vec<u8>,
}

/// One row of pixels and the padding to its 4-byte boundary.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = RowLayout)]
pub struct Row {
    /// The pixels, `width * bits_per_pixel` bits rounded up to bytes.
    #[mmd(len = ctx.used)]
    pub pixels: Vec<u8>,
    /// The padding to a multiple of 4 bytes, kept as it is.
    #[mmd(len = ctx.pad)]
    pub padding: Vec<u8>,
}

/// An embedded ICC colour profile, kept as its bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Profile {
    /// The profile's bytes.
    #[mmd(rest)]
    pub bytes: Vec<u8>,
}

/// A linked colour profile: the name of its file.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct LinkedProfile {
    /// The file name (windows-1252) to its NUL, the whole region; bytes after the NUL are
    /// kept.
    pub name: PaddedText<Latin1>,
}
