//! The PMX header and the context it declares.

use crate::error::{Error, Result};
use crate::index::{IndexKind, IndexWidths};
use crate::text::{PmxText, TextContext, TextEncoding};
use crate::Mmd;

/// The PMX header: signature, version and the "globals" that set the layout of the rest.
///
/// | globals byte | meaning |
/// |---|---|
/// | 0 | text encoding: 0 = UTF-16LE, 1 = UTF-8 |
/// | 1 | additional UV vectors per vertex (0-4) |
/// | 2-7 | index widths (1, 2 or 4 bytes) of vertex, texture, material, bone, morph, rigid body |
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"PMX ")]
pub struct Header {
    /// Format version as stored: 2.0 or 2.1 (a float32; 2.1 is stored as 0x40066666).
    /// Kept exactly as read; the layout depends on it only for the 2.1 soft-body block.
    pub version: f32,
    /// The globals, preceded by their count (a u8). Trap: the count is 8 in every known
    /// file, but a reader must not assume it: bytes beyond the eighth are kept as they are.
    #[mmd(count = u8)]
    pub globals: Vec<u8>,
}

/// The context every PMX section after the header is read and written with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PmxContext {
    /// The header version as read.
    pub version: f32,
    /// The text encoding of every string.
    pub encoding: TextEncoding,
    /// Additional vec4 UVs per vertex.
    pub additional_uv: u8,
    /// Index widths in [`IndexKind::ALL`] order.
    pub widths: [u8; 6],
}

impl PmxContext {
    /// True for version 2.1 or later: the soft-body block follows the joints.
    pub fn is_v21(&self) -> bool {
        self.version > 2.05
    }
}

impl Default for PmxContext {
    fn default() -> Self {
        PmxContext {
            version: 2.0,
            encoding: TextEncoding::Utf16Le,
            additional_uv: 0,
            widths: [4; 6],
        }
    }
}

impl IndexWidths for PmxContext {
    #[inline]
    fn index_width(&self, kind: IndexKind) -> u8 {
        self.widths[kind as usize]
    }
}

impl TextContext for PmxContext {
    #[inline]
    fn text_encoding(&self) -> TextEncoding {
        self.encoding
    }
}

impl Header {
    /// A header for `context` with exactly eight globals.
    pub fn new(context: &PmxContext) -> Self {
        let mut globals = vec![context.encoding.to_byte(), context.additional_uv];
        globals.extend_from_slice(&context.widths);
        Header {
            version: context.version,
            globals,
        }
    }

    /// The context the globals declare. Offsets in its errors are from the start of the
    /// header (the start of the file).
    ///
    /// Fails when there are fewer than eight globals or an index width is not 1, 2 or 4:
    /// those values decide how every later byte is read.
    pub fn context(&self) -> Result<PmxContext> {
        const GLOBALS_AT: u64 = 9;
        if self.globals.len() < 8 {
            return Err(Error::invalid(
                8,
                "at least 8 globals",
                format!("{} globals", self.globals.len()),
            )
            .in_field("globals"));
        }
        let mut widths = [0u8; 6];
        for (i, kind) in IndexKind::ALL.iter().enumerate() {
            let w = self.globals[2 + i];
            if !matches!(w, 1 | 2 | 4) {
                return Err(Error::invalid(
                    GLOBALS_AT + 2 + i as u64,
                    "an index width of 1, 2 or 4",
                    format!("{} index width {w}", kind.name()),
                )
                .in_index(2 + i)
                .in_field("globals"));
            }
            widths[i] = w;
        }
        Ok(PmxContext {
            version: self.version,
            encoding: TextEncoding::from_byte(self.globals[0]),
            additional_uv: self.globals[1],
            widths,
        })
    }
}

/// Model name and comment, each in Japanese and English.
#[derive(Mmd, Debug, Clone, PartialEq, Default)]
#[mmd(ctx = PmxContext)]
pub struct ModelInfo {
    /// Model name (usually Japanese).
    pub name: PmxText,
    /// Model name in English.
    pub name_en: PmxText,
    /// Comment (usually Japanese; often the licence text, with CR LF line breaks).
    pub comment: PmxText,
    /// Comment in English.
    pub comment_en: PmxText,
}
