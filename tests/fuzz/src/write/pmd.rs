//! PMD values made inconsistent through their public fields.

use arbitrary::Arbitrary;
use mmd_formats::pmd::{English, EnglishNames, Pmd, ToonTextures};
use mmd_formats::ShiftJis;

use super::{pick, resize, Edge, Len, Presence};

/// One fuzz case: which sample, then the edits in order.
#[derive(Debug, Arbitrary)]
pub struct Case {
    /// The sample (modulo the number of samples).
    pub sample: u8,
    /// The edits.
    pub edits: Vec<Edit>,
}

/// A list whose length an edit changes.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Section {
    /// Vertices (u32 count).
    Vertices,
    /// The face list (u32 count).
    Faces,
    /// Materials (u32 count).
    Materials,
    /// Bones (**u16** count).
    Bones,
    /// IK chains (u16 count).
    IkChains,
    /// Morphs (u16 count; the English block has one name fewer).
    Morphs,
    /// The morph display list (**u8** count).
    MorphDisplay,
    /// Bone frame names (u8 count).
    FrameNames,
    /// The bone display list (u32 count).
    BoneDisplay,
    /// Rigid bodies (when present).
    RigidBodies,
    /// Joints (when present).
    Joints,
    /// The English bone names (one per bone).
    EnglishBones,
    /// The English morph names (one per morph but the base).
    EnglishMorphs,
    /// The English bone frame names (one per frame).
    EnglishFrames,
}

/// A name field.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum NameSite {
    /// The model name (20 bytes).
    ModelName,
    /// A bone name (20 bytes).
    Bone,
    /// A morph name (20 bytes).
    Morph,
    /// A material's texture file (20 bytes).
    Texture,
    /// A rigid body name (20 bytes).
    RigidBody,
}

/// One edit through the public fields.
#[derive(Debug, Arbitrary)]
pub enum Edit {
    /// The header version (any float; kept as it is).
    Version(f32),
    /// The English block: absent, flag 0, or flag set with or without names.
    English {
        /// Absent (`None`) or present.
        present: bool,
        /// The flag byte.
        flag: u8,
        /// The names present (sized from the model, or empty lists).
        names: Option<bool>,
    },
    /// The toon textures: absent or present.
    ToonTextures(bool),
    /// The rigid bodies: absent, empty or kept.
    RigidBodies(Presence),
    /// The joints: absent, empty or kept.
    Joints(Presence),
    /// Bytes after the last block.
    Trailing(Vec<u8>),
    /// An IK chain's link count byte, its links left as they are.
    IkLinkCount {
        /// Which chain.
        chain: u16,
        /// The new count.
        count: u8,
    },
    /// A morph's element count, its elements left as they are.
    MorphElementCount {
        /// Which morph.
        morph: u16,
        /// The new count.
        count: Edge,
    },
    /// A name set from a string (a name longer than its field, or one Shift_JIS cannot
    /// encode, must be refused by `ShiftJis::new`).
    Name {
        /// Where.
        site: NameSite,
        /// Which record.
        item: u16,
        /// The text.
        text: String,
    },
    /// A list's length (grown with copies of its last element).
    Resize {
        /// Which list.
        section: Section,
        /// The new length.
        len: Len,
    },
    /// An IK chain's links (with the count byte left as it is).
    ResizeIkLinks {
        /// Which chain.
        chain: u16,
        /// The new length.
        len: Len,
    },
    /// A morph's elements (with the count left as it is).
    ResizeMorphElements {
        /// Which morph.
        morph: u16,
        /// The new length.
        len: Len,
    },
}

/// Applies one edit; an edit whose target does not exist in this model does nothing.
pub fn apply(m: &mut Pmd, edit: Edit) {
    match edit {
        Edit::Version(v) => m.header.version = v,
        Edit::English {
            present,
            flag,
            names,
        } => {
            m.english = present.then(|| English {
                flag,
                names: names.map(|sized| english_names(m, sized)),
            })
        }
        Edit::ToonTextures(present) => {
            m.toon_textures = present.then(ToonTextures::standard);
        }
        Edit::RigidBodies(p) => p.apply(&mut m.rigid_bodies),
        Edit::Joints(p) => p.apply(&mut m.joints),
        Edit::Trailing(bytes) => m.trailing = bytes,
        Edit::IkLinkCount { chain, count } => {
            if let Some(c) = pick(&mut m.ik_chains, chain) {
                c.link_count = count;
            }
        }
        Edit::MorphElementCount { morph, count } => {
            if let Some(mo) = pick(&mut m.morphs, morph) {
                mo.element_count = count.u32();
            }
        }
        Edit::Name { site, item, text } => {
            // Refused names must be an `Err`; accepted ones are written.
            if let Ok(name) = ShiftJis::<20>::new(&text) {
                let field = match site {
                    NameSite::ModelName => Some(&mut m.header.name),
                    NameSite::Bone => pick(&mut m.bones, item).map(|b| &mut b.name),
                    NameSite::Morph => pick(&mut m.morphs, item).map(|b| &mut b.name),
                    NameSite::Texture => pick(&mut m.materials, item).map(|b| &mut b.texture),
                    NameSite::RigidBody => m
                        .rigid_bodies
                        .as_mut()
                        .and_then(|r| pick(r, item))
                        .map(|b| &mut b.name),
                };
                if let Some(f) = field {
                    *f = name;
                }
            }
            let _ = ShiftJis::<50>::new(&text);
            let _ = ShiftJis::<256>::new(&text);
        }
        Edit::Resize { section, len } => resize_section(m, section, len),
        Edit::ResizeIkLinks { chain, len } => {
            if let Some(c) = pick(&mut m.ik_chains, chain) {
                resize(&mut c.links, len.small(), Some(0));
            }
        }
        Edit::ResizeMorphElements { morph, len } => {
            if let Some(mo) = pick(&mut m.morphs, morph) {
                resize(&mut mo.elements, len.small(), None);
            }
        }
    }
}

/// English names: one per bone, per morph but the base and per frame (`sized`), or none.
fn english_names(m: &Pmd, sized: bool) -> EnglishNames {
    let n = |count: usize| if sized { count } else { 0 };
    EnglishNames {
        model_name: ShiftJis::default(),
        comment: ShiftJis::default(),
        bone_names: vec![ShiftJis::default(); n(m.bones.len())],
        morph_names: vec![ShiftJis::default(); n(m.morphs.len().saturating_sub(1))],
        frame_names: vec![ShiftJis::default(); n(m.frame_names.len())],
    }
}

fn english(m: &mut Pmd) -> Option<&mut EnglishNames> {
    m.english.as_mut().and_then(|e| e.names.as_mut())
}

/// Lists under a `u32` count take [`Len::small`]; those under a `u16` or `u8` count, and
/// the English names (one per bone, morph and frame), take every length.
fn resize_section(m: &mut Pmd, section: Section, len: Len) {
    match section {
        Section::Vertices => resize(&mut m.vertices, len.small(), None),
        Section::Faces => resize(&mut m.faces, len.small(), Some(0)),
        Section::Materials => resize(&mut m.materials, len.small(), None),
        Section::Bones => resize(&mut m.bones, len, Some(Default::default())),
        Section::IkChains => resize(&mut m.ik_chains, len, None),
        Section::Morphs => resize(&mut m.morphs, len, None),
        Section::MorphDisplay => resize(&mut m.morph_display, len, Some(0)),
        Section::FrameNames => resize(&mut m.frame_names, len, Some(ShiftJis::default())),
        Section::BoneDisplay => resize(&mut m.bone_display, len.small(), None),
        Section::RigidBodies => {
            if let Some(r) = m.rigid_bodies.as_mut() {
                resize(r, len.small(), None);
            }
        }
        Section::Joints => {
            if let Some(j) = m.joints.as_mut() {
                resize(j, len.small(), None);
            }
        }
        Section::EnglishBones => {
            if let Some(e) = english(m) {
                resize(&mut e.bone_names, len, Some(ShiftJis::default()));
            }
        }
        Section::EnglishMorphs => {
            if let Some(e) = english(m) {
                resize(&mut e.morph_names, len, Some(ShiftJis::default()));
            }
        }
        Section::EnglishFrames => {
            if let Some(e) = english(m) {
                resize(&mut e.frame_names, len, Some(ShiftJis::default()));
            }
        }
    }
}

/// Builds the case's value and checks the writer's rule on it
/// ([`check_binary`](super::check_binary)).
pub fn check(case: Case) {
    static SAMPLES: std::sync::OnceLock<Vec<Pmd>> = std::sync::OnceLock::new();
    let samples = SAMPLES.get_or_init(|| {
        super::samples(mmd_formats::inspect::Format::Pmd, |b| {
            Pmd::from_bytes(b).ok()
        })
    });
    let mut m = samples[usize::from(case.sample) % samples.len()].clone();
    for edit in case.edits {
        apply(&mut m, edit);
    }
    let _ = m.summary();
    super::check_binary(&m);
}
