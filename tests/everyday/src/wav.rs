//! RIFF WAVE audio (`.wav`).
//!
//! All numbers are little-endian. The file is one RIFF chunk: the id `RIFF`, a `u32` size,
//! then that many bytes: the form type `WAVE` and chunks to the end of the size. Each
//! chunk is a FourCC id, a `u32` size and that many bytes of body; a body of odd size is
//! followed by one pad byte (not counted in the size). Bytes after the RIFF chunk are kept.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | `RIFF` |
//! | 4 | 4 | size of what follows (the form type and the chunks) |
//! | 8 | 4 | `WAVE` |
//! | 12 | … | chunks: id (4), size (4), body (size), a pad byte when size is odd |

use mmd_formats::text::{Latin1, PaddedText};
use mmd_formats::Mmd;

/// A whole WAV file.
///
/// A RIFF chunk of form type `WAVE`: its chunks (`fmt `, `data`, `LIST`, any other kept as
/// it is) to the end of the RIFF size, and any bytes after it.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"RIFF",
    file(
        id = "wav",
        title = "WAV (RIFF WAVE audio)",
        application = "everyday-formats"
    )
)]
pub struct Wav {
    /// The size of the RIFF chunk's body: the form type and every chunk (pads included).
    pub riff_size: u32,
    /// The body: exactly `riff_size` bytes.
    #[mmd(size = *riff_size)]
    pub wave: Wave,
    /// Bytes after the RIFF chunk, kept as they are.
    #[mmd(rest)]
    pub trailing: Vec<u8>,
}

/// The RIFF body: the form type `WAVE`, then chunks to its end.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"WAVE")]
pub struct Wave {
    /// The chunks in file order.
    #[mmd(rest)]
    pub chunks: Vec<Chunk>,
}

/// One chunk, chosen by its FourCC id.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "chunk id")]
pub enum Chunk {
    /// `fmt `: how the samples are encoded.
    #[mmd(tag = b"fmt ")]
    Format {
        /// The body's size in bytes (16 for plain PCM, 18 or more with an extension).
        size: u32,
        /// The format, exactly `size` bytes.
        #[mmd(size = *size)]
        format: WaveFormat,
        /// The pad byte after an odd-sized body.
        #[mmd(if = *size % 2 == 1)]
        pad: Option<u8>,
    },
    /// `data`: the samples.
    #[mmd(tag = b"data")]
    Data {
        /// The number of sample bytes.
        size: u32,
        /// The samples, as they are.
        #[mmd(len = *size)]
        samples: Vec<u8>,
        /// The pad byte after an odd-sized body.
        #[mmd(if = *size % 2 == 1)]
        pad: Option<u8>,
    },
    /// `LIST`: a list of subchunks, of a type its first four bytes give.
    #[mmd(tag = b"LIST")]
    List {
        /// The body's size in bytes (the list type included).
        size: u32,
        /// The list, exactly `size` bytes.
        #[mmd(size = *size)]
        list: List,
        /// The pad byte after an odd-sized body.
        #[mmd(if = *size % 2 == 1)]
        pad: Option<u8>,
    },
    /// Any other chunk, kept with its id and body.
    #[mmd(default)]
    Other {
        /// The chunk id as read.
        id: u32,
        /// The body's size in bytes.
        size: u32,
        /// The body, as it is.
        #[mmd(len = *size)]
        body: Vec<u8>,
        /// The pad byte after an odd-sized body.
        #[mmd(if = *size % 2 == 1)]
        pad: Option<u8>,
    },
}

/// The `fmt ` chunk's body (`WAVEFORMAT`, `WAVEFORMATEX`, `WAVEFORMATEXTENSIBLE`).
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct WaveFormat {
    /// The encoding: 1 = PCM, 3 = IEEE float, 0xFFFE = extensible (see `extensible`).
    pub format_tag: u16,
    /// The number of channels.
    pub channels: u16,
    /// Samples per second.
    pub sample_rate: u32,
    /// Bytes per second (`sample_rate * block_align` for PCM).
    pub byte_rate: u32,
    /// Bytes of one sample frame, every channel.
    pub block_align: u16,
    /// Bits of one sample's container.
    pub bits_per_sample: u16,
    /// The size of the extension that follows (`cbSize`): absent in a 16-byte PCM format.
    #[mmd(unless_eof)]
    pub extension_size: Option<u16>,
    /// The extensible format's fields, for `format_tag` 0xFFFE.
    #[mmd(unless_eof, if = *format_tag == 0xFFFE)]
    pub extensible: Option<Extensible>,
    /// Any other bytes of the extension, kept.
    #[mmd(rest)]
    pub extra: Vec<u8>,
}

/// The 22 bytes `WAVE_FORMAT_EXTENSIBLE` adds.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Extensible {
    /// Bits of precision in each sample (at most `bits_per_sample`).
    pub valid_bits: u16,
    /// Which speaker each channel feeds (bit 0 front left, bit 1 front right, ...).
    pub channel_mask: u32,
    /// The encoding's GUID (PCM: `00000001-0000-0010-8000-00aa00389b71`, stored with its
    /// first three groups little-endian).
    pub sub_format: [u8; 16],
}

/// A `LIST` chunk's body, chosen by its list type.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "list type")]
pub enum List {
    /// `INFO`: text about the file, one subchunk per item.
    #[mmd(tag = b"INFO")]
    Info {
        /// The items in file order.
        #[mmd(rest)]
        items: Vec<InfoItem>,
    },
    /// Any other list type, kept with its bytes.
    #[mmd(default)]
    Other {
        /// The list type as read.
        list_type: u32,
        /// The rest of the list, as it is.
        #[mmd(rest)]
        bytes: Vec<u8>,
    },
}

/// One `INFO` item: a FourCC id, then NUL-terminated text.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "info id")]
pub enum InfoItem {
    /// `INAM`: the title.
    #[mmd(tag = b"INAM")]
    Title(InfoText),
    /// `IART`: the artist.
    #[mmd(tag = b"IART")]
    Artist(InfoText),
    /// `ISFT`: the software that wrote the file.
    #[mmd(tag = b"ISFT")]
    Software(InfoText),
    /// Any other item (`ICMT`, `ICRD`, ...), kept with its id.
    #[mmd(default)]
    Other {
        /// The item id as read.
        id: u32,
        /// Its text.
        text: InfoText,
    },
}

/// An `INFO` item's size and text.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct InfoText {
    /// The text's size in bytes, its NUL included.
    pub size: u32,
    /// The text (windows-1252) to its NUL; bytes after the NUL are kept.
    #[mmd(size = *size)]
    pub text: PaddedText<Latin1>,
    /// The pad byte after an odd-sized text.
    #[mmd(if = *size % 2 == 1)]
    pub pad: Option<u8>,
}
