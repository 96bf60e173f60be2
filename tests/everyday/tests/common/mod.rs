//! The sample files, as literal bytes laid out by hand from the formats' descriptions (not
//! by the writer under test). Offsets in the comments are from the file's first byte.
#![allow(dead_code)]

/// `(name, bytes)` of every WAV sample.
pub fn wavs() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("pcm_info_odd_unknown", WAV_PCM_INFO.to_vec()),
        ("extensible_other_list_trailing", WAV_EXTENSIBLE.to_vec()),
        ("float_extension_size", WAV_FLOAT18.to_vec()),
    ]
}

/// `(name, bytes)` of every BMP sample.
pub fn bmps() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("core_1bpp_gap_padding", BMP_CORE.to_vec()),
        ("info_bitfields_top_down", BMP_INFO_BITFIELDS.to_vec()),
        ("v2_palette_trailing", BMP_V2.to_vec()),
        ("v3_alpha", BMP_V3.to_vec()),
        ("v4_srgb", BMP_V4.to_vec()),
        ("v5_embedded_profile", BMP_V5_EMBEDDED.to_vec()),
        ("v5_linked_profile_before_pixels", BMP_V5_LINKED.to_vec()),
        ("unknown_header_64", BMP_UNKNOWN_64.to_vec()),
    ]
}

/// `(name, bytes)` of every ICO sample.
pub fn icos() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("out_of_order_with_gaps", ICO_OUT_OF_ORDER.to_vec()),
        ("cursor_back_to_back", CUR_ONE.to_vec()),
        ("no_images", ICO_EMPTY.to_vec()),
    ]
}

// ---------------------------------------------------------------------------------------
// WAV
// ---------------------------------------------------------------------------------------

/// 8-bit mono PCM (a 16-byte `fmt `), 3 sample bytes (odd: a pad byte), a `LIST`/`INFO`
/// with a title (odd: padded), a comment with a byte after its NUL and the software, and
/// an unknown chunk `junk` of one byte (padded).
#[rustfmt::skip]
pub const WAV_PCM_INFO: [u8; 106] = [
    b'R', b'I', b'F', b'F', //   0: RIFF
    98, 0, 0, 0,            //   4: size 98 (106 - 8)
    b'W', b'A', b'V', b'E', //   8: form type
    b'f', b'm', b't', b' ', //  12: chunk "fmt "
    16, 0, 0, 0,            //  16:   size 16
    1, 0,                   //  20:   format tag 1 (PCM)
    1, 0,                   //  22:   1 channel
    0x40, 0x1f, 0, 0,       //  24:   8000 Hz
    0x40, 0x1f, 0, 0,       //  28:   8000 bytes/s
    1, 0,                   //  32:   block align 1
    8, 0,                   //  34:   8 bits
    b'd', b'a', b't', b'a', //  36: chunk "data"
    3, 0, 0, 0,             //  40:   size 3
    0x80, 0x81, 0x7f,       //  44:   samples
    0x00,                   //  47:   pad byte
    b'L', b'I', b'S', b'T', //  48: chunk "LIST"
    40, 0, 0, 0,            //  52:   size 40
    b'I', b'N', b'F', b'O', //  56:   list type INFO
    b'I', b'N', b'A', b'M', //  60:   item INAM
    3, 0, 0, 0,             //  64:     size 3
    b'H', b'i', 0,          //  68:     "Hi", NUL
    0x00,                   //  71:     pad byte
    b'I', b'C', b'M', b'T', //  72:   item ICMT (not listed: kept by id)
    4, 0, 0, 0,             //  76:     size 4
    b'o', b'k', 0, 0xee,    //  80:     "ok", NUL, a byte after it
    b'I', b'S', b'F', b'T', //  84:   item ISFT
    4, 0, 0, 0,             //  88:     size 4
    b'm', b'm', b'd', 0,    //  92:     "mmd", NUL
    b'j', b'u', b'n', b'k', //  96: chunk "junk" (unknown)
    1, 0, 0, 0,             // 100:   size 1
    0x55,                   // 104:   body
    0x00,                   // 105:   pad byte
];

/// 16-bit stereo `WAVE_FORMAT_EXTENSIBLE` (a 40-byte `fmt `, cbSize 22), 4 sample bytes,
/// a `LIST` of another type (`adtl`, kept), and 2 bytes after the RIFF chunk.
#[rustfmt::skip]
pub const WAV_EXTENSIBLE: [u8; 90] = [
    b'R', b'I', b'F', b'F', //  0: RIFF
    80, 0, 0, 0,            //  4: size 80 (88 - 8)
    b'W', b'A', b'V', b'E', //  8: form type
    b'f', b'm', b't', b' ', // 12: chunk "fmt "
    40, 0, 0, 0,            // 16:   size 40
    0xfe, 0xff,             // 20:   format tag 0xFFFE (extensible)
    2, 0,                   // 22:   2 channels
    0x44, 0xac, 0, 0,       // 24:   44100 Hz
    0x10, 0xb1, 0x02, 0,    // 28:   176400 bytes/s
    4, 0,                   // 32:   block align 4
    16, 0,                  // 34:   16 bits
    22, 0,                  // 36:   cbSize 22
    16, 0,                  // 38:   16 valid bits
    3, 0, 0, 0,             // 40:   channel mask: front left, front right
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, // 44: sub-format GUID (PCM)
    0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
    b'd', b'a', b't', b'a', // 60: chunk "data"
    4, 0, 0, 0,             // 64:   size 4
    0x01, 0x00, 0xff, 0xff, // 68:   samples: left 1, right -1
    b'L', b'I', b'S', b'T', // 72: chunk "LIST"
    8, 0, 0, 0,             // 76:   size 8
    b'a', b'd', b't', b'l', // 80:   list type adtl (not listed: kept)
    1, 2, 3, 4,             // 84:   its bytes
    b'X', b'Y',             // 88: after the RIFF chunk
];

/// 32-bit float mono (an 18-byte `fmt ` whose cbSize is 0), one sample.
#[rustfmt::skip]
pub const WAV_FLOAT18: [u8; 50] = [
    b'R', b'I', b'F', b'F', //  0: RIFF
    42, 0, 0, 0,            //  4: size 42 (50 - 8)
    b'W', b'A', b'V', b'E', //  8: form type
    b'f', b'm', b't', b' ', // 12: chunk "fmt "
    18, 0, 0, 0,            // 16:   size 18
    3, 0,                   // 20:   format tag 3 (IEEE float)
    1, 0,                   // 22:   1 channel
    0x40, 0x1f, 0, 0,       // 24:   8000 Hz
    0x00, 0x7d, 0, 0,       // 28:   32000 bytes/s
    4, 0,                   // 32:   block align 4
    32, 0,                  // 34:   32 bits
    0, 0,                   // 36:   cbSize 0
    b'd', b'a', b't', b'a', // 38: chunk "data"
    4, 0, 0, 0,             // 42:   size 4
    0, 0, 0x80, 0x3f,       // 46:   1.0
];

// ---------------------------------------------------------------------------------------
// BMP
// ---------------------------------------------------------------------------------------

/// A 2×2 1-bit bitmap with a 12-byte core header: a 3-byte colour table of 2, two bytes
/// of junk before the pixel offset, rows of 1 byte padded to 4 (the second row's padding
/// is not zero, and kept).
#[rustfmt::skip]
pub const BMP_CORE: [u8; 42] = [
    b'B', b'M',             //  0: signature
    42, 0, 0, 0,            //  2: file size 42
    0, 0, 0, 0,             //  6: reserved
    34, 0, 0, 0,            // 10: pixel offset 34
    12, 0, 0, 0,            // 14: header size 12 (core)
    2, 0,                   // 18: width 2 (u16)
    2, 0,                   // 20: height 2 (u16, bottom-up)
    1, 0,                   // 22: planes
    1, 0,                   // 24: 1 bit per pixel
    0, 0, 0,                // 26: colour 0: black (3 bytes)
    0xff, 0xff, 0xff,       // 29: colour 1: white
    0xee, 0xee,             // 32: junk before the pixel offset
    0x80, 0, 0, 0,          // 34: row 0: 1 byte of pixels, 3 of padding
    0x40, 0xaa, 0xbb, 0xcc, // 38: row 1: padding kept as it is
];

/// A 1×2 16-bit bitmap with a 40-byte header, `BI_BITFIELDS` (three 5-6-5 masks after
/// the header), no colour table, height -2 (rows stored top-down).
#[rustfmt::skip]
pub const BMP_INFO_BITFIELDS: [u8; 74] = [
    b'B', b'M',             //  0: signature
    74, 0, 0, 0,            //  2: file size 74
    0, 0, 0, 0,             //  6: reserved
    66, 0, 0, 0,            // 10: pixel offset 66
    40, 0, 0, 0,            // 14: header size 40 (info)
    1, 0, 0, 0,             // 18: width 1
    0xfe, 0xff, 0xff, 0xff, // 22: height -2 (top-down)
    1, 0,                   // 26: planes
    16, 0,                  // 28: 16 bits per pixel
    3, 0, 0, 0,             // 30: compression 3 (BI_BITFIELDS)
    8, 0, 0, 0,             // 34: image size 8
    0x13, 0x0b, 0, 0,       // 38: 2835 pixels/m across
    0x13, 0x0b, 0, 0,       // 42: 2835 pixels/m down
    0, 0, 0, 0,             // 46: colours used 0 (16 bits: no table)
    0, 0, 0, 0,             // 50: colours important 0
    0x00, 0xf8, 0, 0,       // 54: red mask 0xF800
    0xe0, 0x07, 0, 0,       // 58: green mask 0x07E0
    0x1f, 0x00, 0, 0,       // 62: blue mask 0x001F
    0x1f, 0x00, 0, 0,       // 66: row 0 (top): blue, 2 bytes of padding
    0x00, 0xf8, 0, 0,       // 70: row 1: red
];

/// A 3×1 8-bit bitmap with a 52-byte V2 header (RGB masks), a table of the 2 colours it
/// says it uses, a row of 3 bytes padded to 4, and a byte of junk after the pixels.
#[rustfmt::skip]
pub const BMP_V2: [u8; 79] = [
    b'B', b'M',             //  0: signature
    79, 0, 0, 0,            //  2: file size 79
    0, 0, 0, 0,             //  6: reserved
    74, 0, 0, 0,            // 10: pixel offset 74
    52, 0, 0, 0,            // 14: header size 52 (V2)
    3, 0, 0, 0,             // 18: width 3
    1, 0, 0, 0,             // 22: height 1
    1, 0,                   // 26: planes
    8, 0,                   // 28: 8 bits per pixel
    0, 0, 0, 0,             // 30: compression 0
    0, 0, 0, 0,             // 34: image size 0
    0, 0, 0, 0,             // 38: pixels/m across
    0, 0, 0, 0,             // 42: pixels/m down
    2, 0, 0, 0,             // 46: colours used 2
    0, 0, 0, 0,             // 50: colours important 0
    0, 0, 0xff, 0,          // 54: red mask 0x00FF0000
    0, 0xff, 0, 0,          // 58: green mask 0x0000FF00
    0xff, 0, 0, 0,          // 62: blue mask 0x000000FF
    0x10, 0x20, 0x30, 0,    // 66: colour 0 (blue, green, red, reserved)
    0x40, 0x50, 0x60, 0,    // 70: colour 1
    0, 1, 0, 0,             // 74: row 0: 3 pixels, 1 byte of padding
    0x99,                   // 78: junk after the pixels
];

/// A 1×1 32-bit bitmap with a 56-byte V3 header (RGB and alpha masks).
#[rustfmt::skip]
pub const BMP_V3: [u8; 74] = [
    b'B', b'M',             //  0: signature
    74, 0, 0, 0,            //  2: file size 74
    0, 0, 0, 0,             //  6: reserved
    70, 0, 0, 0,            // 10: pixel offset 70
    56, 0, 0, 0,            // 14: header size 56 (V3)
    1, 0, 0, 0,             // 18: width 1
    1, 0, 0, 0,             // 22: height 1
    1, 0,                   // 26: planes
    32, 0,                  // 28: 32 bits per pixel
    3, 0, 0, 0,             // 30: compression 3 (the masks are the header's)
    4, 0, 0, 0,             // 34: image size 4
    0, 0, 0, 0,             // 38: pixels/m across
    0, 0, 0, 0,             // 42: pixels/m down
    0, 0, 0, 0,             // 46: colours used 0
    0, 0, 0, 0,             // 50: colours important 0
    0, 0, 0xff, 0,          // 54: red mask
    0, 0xff, 0, 0,          // 58: green mask
    0xff, 0, 0, 0,          // 62: blue mask
    0, 0, 0, 0xff,          // 66: alpha mask 0xFF000000
    1, 2, 3, 4,             // 70: row 0: one pixel, no padding
];

/// A 1×1 24-bit bitmap with a 108-byte V4 header, colour space `sRGB`.
#[rustfmt::skip]
pub const BMP_V4: [u8; 126] = [
    b'B', b'M',             //   0: signature
    126, 0, 0, 0,           //   2: file size 126
    0, 0, 0, 0,             //   6: reserved
    122, 0, 0, 0,           //  10: pixel offset 122
    108, 0, 0, 0,           //  14: header size 108 (V4)
    1, 0, 0, 0,             //  18: width 1
    1, 0, 0, 0,             //  22: height 1
    1, 0,                   //  26: planes
    24, 0,                  //  28: 24 bits per pixel
    0, 0, 0, 0,             //  30: compression 0
    4, 0, 0, 0,             //  34: image size 4
    0, 0, 0, 0,             //  38: pixels/m across
    0, 0, 0, 0,             //  42: pixels/m down
    0, 0, 0, 0,             //  46: colours used 0 (24 bits: no table)
    0, 0, 0, 0,             //  50: colours important 0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 54: RGB masks 0
    0, 0, 0, 0,             //  66: alpha mask 0
    b'B', b'G', b'R', b's', //  70: colour space 0x73524742 ("sRGB")
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 74: end points (36 bytes)
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 110: gamma (12 bytes)
    0x11, 0x22, 0x33, 0,    // 122: row 0: one pixel, 1 byte of padding
];

/// A 1×1 24-bit bitmap with a 124-byte V5 header and an embedded profile (`MBED`) after
/// the pixels, a byte of junk between them.
#[rustfmt::skip]
pub const BMP_V5_EMBEDDED: [u8; 147] = [
    b'B', b'M',             //   0: signature
    147, 0, 0, 0,           //   2: file size 147
    0, 0, 0, 0,             //   6: reserved
    138, 0, 0, 0,           //  10: pixel offset 138
    124, 0, 0, 0,           //  14: header size 124 (V5)
    1, 0, 0, 0,             //  18: width 1
    1, 0, 0, 0,             //  22: height 1
    1, 0,                   //  26: planes
    24, 0,                  //  28: 24 bits per pixel
    0, 0, 0, 0,             //  30: compression 0
    4, 0, 0, 0,             //  34: image size 4
    0, 0, 0, 0,             //  38: pixels/m across
    0, 0, 0, 0,             //  42: pixels/m down
    0, 0, 0, 0,             //  46: colours used 0
    0, 0, 0, 0,             //  50: colours important 0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 54: RGB masks 0
    0, 0, 0, 0,             //  66: alpha mask 0
    b'D', b'E', b'B', b'M', //  70: colour space 0x4D424544 ("MBED": embedded)
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 74: end points (36 bytes)
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 110: gamma (12 bytes)
    4, 0, 0, 0,             // 122: intent 4 (images)
    129, 0, 0, 0,           // 126: profile at 129 from the DIB header (file offset 143)
    4, 0, 0, 0,             // 130: profile size 4
    0, 0, 0, 0,             // 134: reserved
    0xaa, 0xbb, 0xcc, 0,    // 138: row 0: one pixel, 1 byte of padding
    0x77,                   // 142: junk between the pixels and the profile
    b'a', b'c', b's', b'p', // 143: the profile
];

/// A 1×1 24-bit bitmap with a V5 header whose profile is linked (`LINK`): the profile's
/// file name, NUL-terminated, lies between the header and the pixels.
#[rustfmt::skip]
pub const BMP_V5_LINKED: [u8; 148] = [
    b'B', b'M',             //   0: signature
    148, 0, 0, 0,           //   2: file size 148
    0, 0, 0, 0,             //   6: reserved
    144, 0, 0, 0,           //  10: pixel offset 144
    124, 0, 0, 0,           //  14: header size 124 (V5)
    1, 0, 0, 0,             //  18: width 1
    1, 0, 0, 0,             //  22: height 1
    1, 0,                   //  26: planes
    24, 0,                  //  28: 24 bits per pixel
    0, 0, 0, 0,             //  30: compression 0
    4, 0, 0, 0,             //  34: image size 4
    0, 0, 0, 0,             //  38: pixels/m across
    0, 0, 0, 0,             //  42: pixels/m down
    0, 0, 0, 0,             //  46: colours used 0
    0, 0, 0, 0,             //  50: colours important 0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 54: RGB masks 0
    0, 0, 0, 0,             //  66: alpha mask 0
    b'K', b'N', b'I', b'L', //  70: colour space 0x4C494E4B ("LINK": linked)
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 74: end points (36 bytes)
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 110: gamma (12 bytes)
    8, 0, 0, 0,             // 122: intent 8 (absolute colorimetric)
    124, 0, 0, 0,           // 126: profile at 124 from the DIB header (file offset 138)
    6, 0, 0, 0,             // 130: profile size 6
    0, 0, 0, 0,             // 134: reserved
    b'c', b'.', b'i', b'c', b'c', 0, // 138: the profile's file name "c.icc", NUL
    1, 2, 3, 0,             // 144: row 0: one pixel, 1 byte of padding
];

/// A 1×1 1-bit bitmap whose header is 64 bytes (not one this crate lists: read as a V3
/// header and 8 bytes more, kept), a table of 2^1 colours.
#[rustfmt::skip]
pub const BMP_UNKNOWN_64: [u8; 90] = [
    b'B', b'M',             //  0: signature
    90, 0, 0, 0,            //  2: file size 90
    0, 0, 0, 0,             //  6: reserved
    86, 0, 0, 0,            // 10: pixel offset 86
    64, 0, 0, 0,            // 14: header size 64
    1, 0, 0, 0,             // 18: width 1
    1, 0, 0, 0,             // 22: height 1
    1, 0,                   // 26: planes
    1, 0,                   // 28: 1 bit per pixel
    0, 0, 0, 0,             // 30: compression 0
    0, 0, 0, 0,             // 34: image size 0
    0, 0, 0, 0,             // 38: pixels/m across
    0, 0, 0, 0,             // 42: pixels/m down
    0, 0, 0, 0,             // 46: colours used 0 (1 bit: 2 colours)
    0, 0, 0, 0,             // 50: colours important 0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 54: RGB masks 0
    0, 0, 0, 0,             // 66: alpha mask 0
    1, 2, 3, 4, 5, 6, 7, 8, // 70: the header's 8 other bytes
    0, 0, 0, 0,             // 78: colour 0: black
    0xff, 0xff, 0xff, 0,    // 82: colour 1: white
    0x80, 0, 0, 0,          // 86: row 0: 1 byte of pixels, 3 of padding
];

// ---------------------------------------------------------------------------------------
// ICO
// ---------------------------------------------------------------------------------------

/// An icon of two images stored in the other order than the directory's: a byte of junk
/// after the directory, image 1 (a DIB), 3 bytes of junk, image 0 (a PNG signature), and
/// 2 bytes of junk at the end.
#[rustfmt::skip]
pub const ICO_OUT_OF_ORDER: [u8; 58] = [
    0, 0,                   //  0: reserved
    1, 0,                   //  2: kind 1 (icon)
    2, 0,                   //  4: 2 images
    16, 16, 0, 0,           //  6: entry 0: 16×16, no palette, reserved
    1, 0, 32, 0,            // 10:   1 plane, 32 bits
    8, 0, 0, 0,             // 14:   size 8
    48, 0, 0, 0,            // 18:   offset 48
    32, 32, 0, 0,           // 22: entry 1: 32×32
    1, 0, 32, 0,            // 26:   1 plane, 32 bits
    6, 0, 0, 0,             // 30:   size 6
    39, 0, 0, 0,            // 34:   offset 39
    0xee,                   // 38: junk
    40, 0, 0, 0, 0xd1, 0xd2, // 39: image 1: a DIB (header size 40), 2 more bytes
    0xdd, 0xdd, 0xdd,       // 45: junk
    0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, // 48: image 0: a PNG signature
    0xcc, 0xcc,             // 56: junk at the end
];

/// A cursor of one image right after its directory.
#[rustfmt::skip]
pub const CUR_ONE: [u8; 27] = [
    0, 0,                   //  0: reserved
    2, 0,                   //  2: kind 2 (cursor)
    1, 0,                   //  4: 1 image
    1, 1, 0, 0,             //  6: entry 0: 1×1
    3, 0, 4, 0,             // 10:   hot spot (3, 4)
    5, 0, 0, 0,             // 14:   size 5
    22, 0, 0, 0,            // 18:   offset 22
    40, 0, 0, 0, 0x77,      // 22: image 0: a DIB (header size 40), 1 more byte
];

/// An icon with no images.
#[rustfmt::skip]
pub const ICO_EMPTY: [u8; 6] = [
    0, 0,                   // 0: reserved
    1, 0,                   // 2: kind 1 (icon)
    0, 0,                   // 4: no images
];
