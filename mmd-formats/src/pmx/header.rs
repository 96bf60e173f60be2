//! The PMX header and the context it declares.

use crate::error::{PathSegment, Result};
use crate::index::{
    BoneIndex, IndexKind, MaterialIndex, MorphIndex, RigidBodyIndex, TextureIndex, VertexIndex,
};
use crate::text::{PmxText, TextEncoding};
use crate::{DeclaredContext, Mmd, MmdContext};

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

/// The context every PMX section after the header is read and written with, computed
/// from the header: the version, and the globals (text encoding, additional UVs, six
/// index widths).
///
/// Fewer than eight globals, or an index width other than 1, 2 or 4, is a read error:
/// those values decide how every later byte is read. The encoding byte and the number of
/// additional UVs are kept whatever they hold (with an encoding other than 0 or 1 every
/// text keeps its bytes and reads as UTF-8, lossily; the seeds give 0-4 additional UVs).
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: Header))]
pub struct PmxContext {
    /// The header version as read (2.0 or 2.1).
    #[mmd(from = header.version)]
    pub version: f32,
    /// Globals byte 0: the encoding of every text, 0 = UTF-16LE, 1 = UTF-8.
    #[mmd(from = header.globals[0], text_encoding, name = "text encoding")]
    pub encoding: TextEncoding,
    /// Globals byte 1: additional vec4 UVs per vertex (0-4 in the seeds).
    #[mmd(from = header.globals[1], name = "additional UV count")]
    pub additional_uv: u8,
    /// Globals byte 2: the width of vertex indices (1, 2 or 4 bytes); unsigned at 1 and 2
    /// bytes, `i32` at 4.
    #[mmd(
        from = header.globals[2],
        valid = [1, 2, 4],
        name = "vertex index width",
        index_width = VertexIndex
    )]
    pub vertex_index_size: u8,
    /// Globals byte 3: the width of texture indices (1, 2 or 4 bytes, signed; -1 = none).
    #[mmd(
        from = header.globals[3],
        valid = [1, 2, 4],
        name = "texture index width",
        index_width = TextureIndex
    )]
    pub texture_index_size: u8,
    /// Globals byte 4: the width of material indices (1, 2 or 4 bytes, signed).
    #[mmd(
        from = header.globals[4],
        valid = [1, 2, 4],
        name = "material index width",
        index_width = MaterialIndex
    )]
    pub material_index_size: u8,
    /// Globals byte 5: the width of bone indices (1, 2 or 4 bytes, signed; -1 = none).
    #[mmd(
        from = header.globals[5],
        valid = [1, 2, 4],
        name = "bone index width",
        index_width = BoneIndex
    )]
    pub bone_index_size: u8,
    /// Globals byte 6: the width of morph indices (1, 2 or 4 bytes, signed).
    #[mmd(
        from = header.globals[6],
        valid = [1, 2, 4],
        name = "morph index width",
        index_width = MorphIndex
    )]
    pub morph_index_size: u8,
    /// Globals byte 7: the width of rigid-body indices (1, 2 or 4 bytes, signed).
    #[mmd(
        from = header.globals[7],
        valid = [1, 2, 4],
        name = "rigid body index width",
        index_width = RigidBodyIndex
    )]
    pub rigid_body_index_size: u8,
    /// True for PMX 2.1 (a version above 2.05, since 2.1 is not exact in a float): the
    /// soft-body block may follow the joints.
    #[mmd(from = header.version > 2.05)]
    pub is_v21: bool,
}

impl PmxContext {
    /// A context with these values (the widths in [`IndexKind::ALL`] order).
    pub fn new(version: f32, encoding: TextEncoding, additional_uv: u8, widths: [u8; 6]) -> Self {
        let [vertex, texture, material, bone, morph, rigid_body] = widths;
        PmxContext {
            version,
            encoding,
            additional_uv,
            vertex_index_size: vertex,
            texture_index_size: texture,
            material_index_size: material,
            bone_index_size: bone,
            morph_index_size: morph,
            rigid_body_index_size: rigid_body,
            is_v21: version > 2.05,
        }
    }

    /// True for version 2.1 or later: the soft-body block follows the joints.
    pub fn is_v21(&self) -> bool {
        self.is_v21
    }

    /// The index widths in [`IndexKind::ALL`] order (the header's globals bytes 2-7).
    pub fn widths(&self) -> [u8; 6] {
        [
            self.vertex_index_size,
            self.texture_index_size,
            self.material_index_size,
            self.bone_index_size,
            self.morph_index_size,
            self.rigid_body_index_size,
        ]
    }

    /// The width of indices of `kind`.
    pub fn index_width(&self, kind: IndexKind) -> u8 {
        self.widths()[kind as usize]
    }
}

impl Default for PmxContext {
    fn default() -> Self {
        PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [4; 6])
    }
}

impl Header {
    /// A header for `context` with exactly eight globals.
    pub fn new(context: &PmxContext) -> Self {
        let mut globals = vec![context.encoding.to_byte(), context.additional_uv];
        globals.extend_from_slice(&context.widths());
        Header {
            version: context.version,
            globals,
        }
    }

    /// The context the globals declare ([`PmxContext`]). Offsets in its errors are from
    /// the start of the header (the start of the file).
    ///
    /// Fails when there are fewer than eight globals or an index width is not 1, 2 or 4:
    /// those values decide how every later byte is read.
    pub fn context(&self) -> Result<PmxContext> {
        PmxContext::compute((self,)).map_err(|fault| {
            let locate = |path: &[PathSegment]| crate::rt::offset_in(self, &(), path);
            crate::rt::context_error(fault, None, &[], 0, Some(&locate))
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
