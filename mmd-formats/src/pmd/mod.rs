//! PMD models: MikuMikuDance's older model format ("Polygon Model Data").
//!
//! A PMD file is a [`Header`] (the 3-byte signature `Pmd`, a float32 version, Shift_JIS
//! name and comment), then the base sections, each a count followed by its records:
//! vertices (u32 count), faces (u32 count of u16 vertex indices), materials (u32), bones
//! (u16), IK chains (u16), morphs (u16), the morph display list (u8 count of u16 morph
//! indices), bone frame names (u8 count of 50-byte names) and the bone display list (u32).
//!
//! Then come the extensions, each of which may be missing at the end of the file: the
//! English names ([`English`]), the toon texture names ([`ToonTextures`]), the rigid
//! bodies and the joints. None of them has a length or an ID; a block is absent when the
//! file ends where it would start. "Absent" and "present with a count of 0" are different
//! files, and both are kept. Bytes after the last block are kept in [`Pmd::trailing`].
//!
//! Every name is a fixed-length Shift_JIS field ([`ShiftJis`]) kept whole, with whatever
//! follows its NUL, so every file that reads writes back byte for byte.

mod bone;
mod extension;
mod header;
mod model;
mod morph;
mod physics;

pub use crate::physics::{CollisionMask, RigidShape};
pub use bone::{Bone, BoneDisplay, BoneKind, IkChain};
pub use extension::{English, EnglishNames, ToonTextures};
pub use header::{Header, PmdCounts};
pub use model::{Material, TextureFiles, Vertex};
pub use morph::{Morph, MorphElement, MorphKind};
pub use physics::{Joint, RigidBody};

use crate::text::ShiftJis;
use crate::Mmd;

/// A whole PMD file.
///
/// PMD is the model format of MikuMikuDance before PMX. All numbers are little-endian;
/// indices are fixed-width `u16`/`u32`. Names are fixed-length Shift_JIS (code page 932)
/// fields, NUL-terminated when shorter than the field, with whatever junk follows the NUL
/// (0xFD padding, leftovers) kept as it is. The extension blocks (English names, toon
/// textures, rigid bodies, joints) may each be missing at the end of the file; missing and
/// present with count 0 are different files.
#[derive(Mmd, Debug, Clone, PartialEq, Default)]
#[mmd(
    ctx = (),
    file(id = "pmd", title = "PMD (Polygon Model Data)", application = "MikuMikuDance")
)]
pub struct Pmd {
    /// Signature, version, model name and comment (283 bytes).
    pub header: Header,
    /// Vertices, preceded by a u32 count.
    #[mmd(count = u32)]
    pub vertices: Vec<Vertex>,
    /// The face list: u16 vertex indices, three per triangle, preceded by a u32 count of
    /// **indices** (not of triangles). Materials take consecutive runs of it. The u16
    /// width caps a model at 65536 vertices.
    #[mmd(count = u32)]
    pub faces: Vec<u16>,
    /// Materials, preceded by a u32 count.
    #[mmd(count = u32)]
    pub materials: Vec<Material>,
    /// Bones, preceded by a **u16** count.
    #[mmd(count = u16)]
    pub bones: Vec<Bone>,
    /// IK chains, preceded by a **u16** count.
    #[mmd(count = u16)]
    pub ik_chains: Vec<IkChain>,
    /// Morphs, preceded by a **u16** count. Morph 0 is the base morph.
    #[mmd(count = u16)]
    pub morphs: Vec<Morph>,
    /// The morph display list (the morphs shown in MMD's facial panel), u16 morph indices
    /// preceded by a **u8** count. The base morph is never listed.
    #[mmd(count = u8)]
    pub morph_display: Vec<u16>,
    /// Bone frame (display group) names, 50 bytes each, preceded by a **u8** count.
    ///
    /// Trap: each name usually ends in LF (0x0A) before its NUL (`センター\n`), inside the
    /// 50 bytes; it is part of the stored name.
    ///
    /// After this field the counts of bones, morphs and bone frames are known; they are
    /// the context ([`PmdCounts`]) the English block is read with.
    #[mmd(count = u8, context = PmdCounts(bones, morphs, frame_names))]
    pub frame_names: Vec<ShiftJis<50>>,
    /// The bone display list: which bone shows in which bone frame, preceded by a u32
    /// count.
    #[mmd(count = u32)]
    pub bone_display: Vec<BoneDisplay>,
    /// The English block (a flag byte and, when it is not 0, the English names). `None`
    /// when the file ends after the bone display list.
    #[mmd(unless_eof)]
    pub english: Option<English>,
    /// The ten toon texture names. `None` when the file ends before them.
    #[mmd(unless_eof)]
    pub toon_textures: Option<ToonTextures>,
    /// Rigid bodies, preceded by a u32 count. `None` when the file ends before the count
    /// (which differs from a count of 0).
    #[mmd(unless_eof, count = u32)]
    pub rigid_bodies: Option<Vec<RigidBody>>,
    /// Joints, preceded by a u32 count. `None` when the file ends before the count.
    #[mmd(unless_eof, count = u32)]
    pub joints: Option<Vec<Joint>>,
    /// Bytes after the last block, kept verbatim.
    #[mmd(rest)]
    pub trailing: Vec<u8>,
}

/// What a PMD file holds, section by section: the numbers `mmd info` shows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PmdSummary {
    /// The header version as stored (1.0 in known files).
    pub version: f32,
    /// Vertices.
    pub vertices: usize,
    /// Face-list entries (vertex indices; three per triangle).
    pub face_indices: usize,
    /// Materials.
    pub materials: usize,
    /// Bones.
    pub bones: usize,
    /// IK chains.
    pub ik_chains: usize,
    /// Morphs, the base morph included.
    pub morphs: usize,
    /// Morph display list entries.
    pub morph_display: usize,
    /// Bone frame names.
    pub bone_frames: usize,
    /// Bone display list entries.
    pub bone_display: usize,
    /// The English flag byte, or `None` when the file ends before it.
    pub english_flag: Option<u8>,
    /// True when the English names are present (the flag is there and not 0).
    pub english_names: bool,
    /// True when the toon texture block is present.
    pub toon_textures: bool,
    /// Rigid bodies, or `None` when the file ends before their count.
    pub rigid_bodies: Option<usize>,
    /// Joints, or `None` when the file ends before their count.
    pub joints: Option<usize>,
    /// Bytes after the last block.
    pub trailing_bytes: usize,
}

impl Pmd {
    /// A new model with no vertices, faces, materials, bones, IK chains, morphs or bone
    /// frames, named `name` (encoded as Shift_JIS, at most 20 bytes), with the extension
    /// blocks PMD editors write: the English flag 0 (no English names), the standard toon
    /// textures (`toon01.bmp` … `toon10.bmp`), and no rigid bodies or joints.
    /// [`Pmd::default`] is the same model with every extension absent and an empty name.
    ///
    /// ```
    /// use mmd_formats::pmd::Pmd;
    /// # fn main() -> Result<(), mmd_formats::Error> {
    /// let model = Pmd::new("ミク")?;
    /// assert_eq!(Pmd::from_bytes(&model.to_bytes()?)?, model);
    /// assert_eq!(model.summary().rigid_bodies, Some(0));
    /// # Ok(()) }
    /// ```
    pub fn new(name: &str) -> crate::error::Result<Self> {
        Ok(Pmd {
            header: Header {
                name: ShiftJis::new(name)?,
                ..Header::default()
            },
            english: Some(English::default()),
            toon_textures: Some(ToonTextures::standard()),
            rigid_bodies: Some(Vec::new()),
            joints: Some(Vec::new()),
            ..Pmd::default()
        })
    }

    /// Version, section counts and which extensions are present.
    pub fn summary(&self) -> PmdSummary {
        PmdSummary {
            version: self.header.version,
            vertices: self.vertices.len(),
            face_indices: self.faces.len(),
            materials: self.materials.len(),
            bones: self.bones.len(),
            ik_chains: self.ik_chains.len(),
            morphs: self.morphs.len(),
            morph_display: self.morph_display.len(),
            bone_frames: self.frame_names.len(),
            bone_display: self.bone_display.len(),
            english_flag: self.english.as_ref().map(|e| e.flag),
            english_names: self.english_names().is_some(),
            toon_textures: self.toon_textures.is_some(),
            rigid_bodies: self.rigid_bodies.as_ref().map(Vec::len),
            joints: self.joints.as_ref().map(Vec::len),
            trailing_bytes: self.trailing.len(),
        }
    }

    /// The counts the English block's lengths depend on.
    pub fn counts(&self) -> PmdCounts {
        PmdCounts {
            bones: self.bones.len(),
            morphs: self.morphs.len(),
            frames: self.frame_names.len(),
        }
    }

    /// The faces as triangles (a trailing incomplete triangle is left out).
    pub fn triangles(&self) -> impl Iterator<Item = [u16; 3]> + '_ {
        self.faces.chunks_exact(3).map(|c| [c[0], c[1], c[2]])
    }

    /// The English names, when the block is present with a flag other than 0.
    pub fn english_names(&self) -> Option<&EnglishNames> {
        self.english.as_ref().and_then(|e| e.names.as_ref())
    }

    /// The English name of morph `morph`: entry `morph - 1` of the English morph names.
    /// `None` for the base morph (0), which has none, and when there are no English names.
    pub fn english_morph_name(&self, morph: usize) -> Option<&ShiftJis<20>> {
        let i = morph.checked_sub(1)?;
        self.english_names()?.morph_names.get(i)
    }

    /// The toon file name a material uses, from the toon block; `None` for toon index 255
    /// (toon0.bmp), an index past the ten slots, or a file with no toon block.
    pub fn toon_texture(&self, material: &Material) -> Option<&ShiftJis<100>> {
        self.toon_textures.as_ref()?.name(material.toon_slot()?)
    }

    /// The base morph (morph 0), when there are morphs.
    pub fn base_morph(&self) -> Option<&Morph> {
        self.morphs.first()
    }

    /// The model vertex that element `element` of morph `morph` moves: for the base morph
    /// its own index; for every other morph the index of the base-morph element it points
    /// at. `None` when an index is out of range.
    pub fn morph_vertex(&self, morph: usize, element: usize) -> Option<u32> {
        let e = self.morphs.get(morph)?.elements.get(element)?;
        if morph == 0 {
            return Some(e.index);
        }
        let base = self.base_morph()?;
        let i = usize::try_from(e.index).ok()?;
        base.elements.get(i).map(|b| b.index)
    }

    /// The face-list range each material covers, in material order (the running sum of
    /// `face_vertex_count`). A range that runs past the face list is cut at its end.
    pub fn material_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let mut start = 0usize;
        let n = self.faces.len();
        self.materials
            .iter()
            .map(|m| {
                let len = usize::try_from(m.face_vertex_count).unwrap_or(usize::MAX);
                let end = start.saturating_add(len);
                let r = start.min(n)..end.min(n);
                start = end;
                r
            })
            .collect()
    }
}

crate::file::whole_file_api!(Pmd, "PMD");
