//! Three everyday formats that have nothing to do with MikuMikuDance, stated with the
//! `mmd-formats` derive grammar alone: no hand-written `Decode`, `Encode`, `Walk`,
//! `FromJson` or `Describe` anywhere in this crate (a test greps for one). Each reads and
//! writes back byte-exactly, round-trips through JSON, and renders a reference, a JSON
//! Schema and a whole-file Kaitai `.ksy` that the real Kaitai compiler reads alike.
//!
//! * [`wav::Wav`]: RIFF WAVE audio: chunks to the end of the RIFF size, odd sizes padded,
//!   `fmt ` (PCM and `WAVE_FORMAT_EXTENSIBLE`), `data`, `LIST`/`INFO` text, unknown chunks
//!   kept, chunk ids shown as text.
//! * [`bmp::Bmp`]: Windows bitmaps: every DIB header by its size (12, 40, 52, 56, 108, 124
//!   and unknown ones), bit-field masks, the colour table, padded rows where the pixel
//!   offset says, the V5 colour profile by its position, and every byte between kept.
//! * [`ico::Ico`]: Windows icons: the directory, and each image by its offset and size, in
//!   any order, with the bytes between and after kept.
//!
//! The formats' facts come from their public descriptions (Microsoft's documentation of
//! the structures, the RIFF and BMP articles); the samples in the tests are laid out by
//! hand.

#![deny(missing_docs)]

pub mod bmp;
pub mod ico;
pub mod wav;

/// Reads a whole file of format `T` (every byte must belong to it).
pub fn read<T: mmd_formats::codec::Decode<()>>(bytes: &[u8]) -> mmd_formats::Result<T> {
    mmd_formats::file::decode_all(bytes, &())
}

/// Writes a whole file back; for a value [`read`] gave, the same bytes.
pub fn write<T: mmd_formats::codec::Encode<()>>(value: &T) -> mmd_formats::Result<Vec<u8>> {
    mmd_formats::file::encode_all(value, &())
}
