//! Windows icons and cursors (`.ico`, `.cur`).
//!
//! All numbers are little-endian. A 6-byte header (reserved 0, the kind: 1 = icon,
//! 2 = cursor, the number of images), a directory of 16-byte entries, each giving its
//! image's size and its offset from the file's first byte, and the images where the
//! entries say: in any order, with any bytes between and after them (kept in `gaps`).
//! An image is a PNG file or a DIB (a BMP without its file header, twice the icon's
//! height: the colour rows, then the mask).

use mmd_formats::Mmd;

/// A whole ICO (or CUR) file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(
    id = "ico",
    title = "ICO (Windows icon)",
    application = "everyday-formats"
))]
pub struct Ico {
    /// Reserved, 0.
    pub reserved: u16,
    /// 1 for an icon, 2 for a cursor.
    pub kind: u16,
    /// The number of images.
    pub count: u16,
    /// The directory: one entry per image.
    #[mmd(len = *count)]
    pub entries: Vec<IconEntry>,
    /// The images, each where its entry says and of the size it says.
    #[mmd(len = *count, pos = entries[_index].offset, size = entries[_index].size)]
    pub images: Vec<IconImage>,
    /// The bytes no entry points at, kept.
    #[mmd(gaps)]
    pub gaps: Vec<Vec<u8>>,
}

/// One directory entry (16 bytes).
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct IconEntry {
    /// The width in pixels (0: 256).
    pub width: u8,
    /// The height in pixels (0: 256).
    pub height: u8,
    /// Palette colours (0: no palette).
    pub colours: u8,
    /// Reserved, 0.
    pub reserved: u8,
    /// Colour planes for an icon; the hot spot's x for a cursor.
    pub planes: u16,
    /// Bits per pixel for an icon; the hot spot's y for a cursor.
    pub bits_per_pixel: u16,
    /// The image's size in bytes.
    pub size: u32,
    /// The image's offset from the file's first byte.
    pub offset: u32,
}

/// An image, told by its first four bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "image signature")]
pub enum IconImage {
    /// A PNG file (`\x89PNG`, then the rest of its signature and its chunks).
    #[mmd(tag = b"\x89PNG")]
    Png {
        /// The rest of the PNG file.
        #[mmd(rest)]
        rest: Vec<u8>,
    },
    /// A DIB: its header's size first (40), then the header's other fields, the colour
    /// table, the colour rows and the mask rows.
    #[mmd(default)]
    Dib {
        /// The DIB header's size.
        header_size: u32,
        /// The rest of the DIB, as it is.
        #[mmd(rest)]
        rest: Vec<u8>,
    },
}
