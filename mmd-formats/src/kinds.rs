//! The shared words of the formats, below every module that uses them: the kinds of
//! index a PMX header declares widths for, and the text encodings it names.

/// The six index kinds whose widths a PMX header declares, in header order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// Vertex indices (faces, vertex/UV morphs, soft-body anchors and pins): unsigned at 1/2 bytes.
    Vertex,
    /// Texture indices (material textures, sphere maps, individual toons): -1 = none.
    Texture,
    /// Material indices (material morphs, soft bodies): -1 = none (material morph: all).
    Material,
    /// Bone indices (weights, parents, IK, display frames, rigid bodies): -1 = none.
    Bone,
    /// Morph indices (group and flip morphs, display frames): -1 = none.
    Morph,
    /// Rigid-body indices (joints, impulse morphs, soft-body anchors): -1 = none.
    RigidBody,
}

impl IndexKind {
    /// All kinds, in the order their widths appear in the PMX header globals.
    pub const ALL: [IndexKind; 6] = [
        IndexKind::Vertex,
        IndexKind::Texture,
        IndexKind::Material,
        IndexKind::Bone,
        IndexKind::Morph,
        IndexKind::RigidBody,
    ];

    /// The lower-case name used in messages and the reference (`bone`, `rigid body`).
    pub const fn name(self) -> &'static str {
        match self {
            IndexKind::Vertex => "vertex",
            IndexKind::Texture => "texture",
            IndexKind::Material => "material",
            IndexKind::Bone => "bone",
            IndexKind::Morph => "morph",
            IndexKind::RigidBody => "rigid body",
        }
    }
}

/// The text encoding a PMX header declares (globals byte 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextEncoding {
    /// 0: UTF-16 little-endian, the encoding PMX Editor writes.
    #[default]
    Utf16Le,
    /// 1: UTF-8.
    Utf8,
    /// Any other value: the bytes are kept, the text views decode them as UTF-8, lossily.
    Unknown(u8),
}

impl TextEncoding {
    /// The encoding a header byte declares.
    pub const fn from_byte(b: u8) -> Self {
        match b {
            0 => TextEncoding::Utf16Le,
            1 => TextEncoding::Utf8,
            other => TextEncoding::Unknown(other),
        }
    }

    /// The header byte for this encoding.
    pub const fn to_byte(self) -> u8 {
        match self {
            TextEncoding::Utf16Le => 0,
            TextEncoding::Utf8 => 1,
            TextEncoding::Unknown(b) => b,
        }
    }

    /// The values a PMX header's encoding byte defines, with the encodings' names.
    pub const CODES: &'static [(u64, &'static str)] = &[(0, "UTF-16LE"), (1, "UTF-8")];

    /// Encodes `s` in this encoding (UTF-8 for unknown encodings).
    pub fn encode(self, s: &str) -> Vec<u8> {
        match self {
            TextEncoding::Utf16Le => s.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            _ => s.as_bytes().to_vec(),
        }
    }
}
