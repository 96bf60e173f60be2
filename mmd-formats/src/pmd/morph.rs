//! Morphs ("skins" or "faces").

use crate::text::ShiftJis;
use crate::Mmd;

/// One morph: 25 + 16 × elements bytes.
///
/// Trap: morph 0 is the **base morph**, by position, not by type: its elements hold model
/// vertex indices and absolute positions. Every other morph's elements index the base
/// morph's element list and hold offsets. A second morph of type 0 is an ordinary morph
/// (a real file has two).
#[derive(Mmd, Debug, Clone, PartialEq, Default)]
pub struct Morph {
    /// Morph name, 20 bytes of Shift_JIS (VMD morph keys refer to it); `base` for morph 0
    /// in known files.
    pub name: ShiftJis<20>,
    /// The number of elements that follow the type byte.
    ///
    /// Trap: the count comes before the type byte, not just before the elements; it must
    /// equal the number of elements when writing.
    pub element_count: u32,
    /// The panel the morph shows in, see [`MorphKind`]: 0 base, 1 eyebrow, 2 eye, 3 lip,
    /// 4 other. Other values are kept.
    pub morph_type: u8,
    /// The elements: vertex indices and positions (base) or base-relative indices and
    /// offsets (every other morph).
    #[mmd(len = *element_count)]
    pub elements: Vec<MorphElement>,
}

/// One morph element: 16 bytes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct MorphElement {
    /// In the base morph (morph 0): a model vertex index. In every other morph: an index
    /// into the **base morph's element list**.
    pub index: u32,
    /// In the base morph: the vertex's absolute position (x, y, z), equal to the vertex
    /// position in known files. In every other morph: the offset from it.
    pub position: [f32; 3],
}

/// The morph type byte as a typed view (the byte itself is [`Morph::morph_type`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MorphKind {
    /// 0: base (only morph 0 is the base, whatever the type of the others).
    Base,
    /// 1: eyebrow panel.
    Eyebrow,
    /// 2: eye panel.
    Eye,
    /// 3: lip panel.
    Lip,
    /// 4: other panel.
    Other,
    /// Any other value, as stored.
    Unknown(u8),
}

impl MorphKind {
    /// The kind a type byte names.
    pub const fn from_byte(b: u8) -> Self {
        match b {
            0 => MorphKind::Base,
            1 => MorphKind::Eyebrow,
            2 => MorphKind::Eye,
            3 => MorphKind::Lip,
            4 => MorphKind::Other,
            other => MorphKind::Unknown(other),
        }
    }

    /// The type byte for this kind.
    pub const fn to_byte(self) -> u8 {
        match self {
            MorphKind::Base => 0,
            MorphKind::Eyebrow => 1,
            MorphKind::Eye => 2,
            MorphKind::Lip => 3,
            MorphKind::Other => 4,
            MorphKind::Unknown(b) => b,
        }
    }
}

impl Morph {
    /// The morph type as a typed view.
    pub fn kind(&self) -> MorphKind {
        MorphKind::from_byte(self.morph_type)
    }

    /// A morph with `elements` and `element_count` set to their number (more than
    /// `u32::MAX` elements keep a count of `u32::MAX`, and writing them fails).
    pub fn new(name: ShiftJis<20>, morph_type: u8, elements: Vec<MorphElement>) -> Self {
        Morph {
            name,
            element_count: u32::try_from(elements.len()).unwrap_or(u32::MAX),
            morph_type,
            elements,
        }
    }
}
