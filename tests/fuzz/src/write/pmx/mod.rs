//! PMX values made inconsistent through their public fields: the edits and the check;
//! where the indices, texts and lists are is in `sites.rs`.

mod sites;

pub use sites::{IndexSite, Section, TextSite};

use arbitrary::Arbitrary;
use mmd_formats::index::Index;
use mmd_formats::pmx::{BoneFlags, BoneTail, Ik, IkLink, Inherit, LocalAxes, Pmx, Toon, Weight};
use mmd_formats::{PmxText, TextEncoding};

use super::{pick, pick_vertex, Edge, Len, Presence};

/// One fuzz case: which sample, then the edits in order.
#[derive(Debug, Arbitrary)]
pub struct Case {
    /// The sample (modulo the number of samples).
    pub sample: u8,
    /// The edits.
    pub edits: Vec<Edit>,
}

/// A header version.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Version {
    /// 2.0: no soft-body block.
    V20,
    /// 2.1: a soft-body block (or the end of the file) after the joints.
    V21,
    /// Any other float, NaN included.
    Raw(f32),
}

/// An optional block of a bone, each set by its own flag.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum BoneBlock {
    /// Inherit parent and weight (flags 0x0100 / 0x0200).
    Inherit,
    /// Fixed axis (0x0400).
    FixedAxis,
    /// Local axes (0x0800).
    LocalAxes,
    /// External parent key (0x2000).
    ExternalParent,
    /// IK block (0x0020).
    Ik,
}

/// One edit through the public fields.
#[derive(Debug, Arbitrary)]
pub enum Edit {
    /// The header version (2.1 wants the soft-body block; 2.0 forbids it).
    Version(Version),
    /// One globals byte: the encoding, the additional UVs, or an index width.
    Global {
        /// Which byte (modulo the number of globals).
        at: u8,
        /// Its new value.
        value: u8,
    },
    /// The number of globals (fewer than 8 cannot declare the layout; more are kept).
    GlobalsLen(u8),
    /// A bone's flags, its blocks left as they are (a flag that says IK with no IK data).
    BoneFlags {
        /// Which bone.
        bone: u16,
        /// The new flags.
        bits: u16,
    },
    /// A bone's optional block added or removed, its flags left as they are.
    BoneBlock {
        /// Which bone.
        bone: u16,
        /// Which block.
        block: BoneBlock,
        /// Present or absent.
        present: bool,
    },
    /// A bone's tail set to a bone or an offset, its flags left as they are.
    BoneTail {
        /// Which bone.
        bone: u16,
        /// A bone (else an offset).
        to_bone: bool,
        /// The tail bone's index.
        raw: Edge,
    },
    /// An IK link's limit flag and limits, each set on its own.
    IkLink {
        /// Which bone.
        bone: u16,
        /// Which link.
        link: u16,
        /// The limit flag.
        has_limit: u8,
        /// Lower limits present.
        min: bool,
        /// Upper limits present.
        max: bool,
    },
    /// An index anywhere, to a raw value that may not fit its width.
    Index {
        /// Where.
        site: IndexSite,
        /// Which record.
        item: u16,
        /// Which element within it (link, offset, element, weight slot).
        sub: u16,
        /// The raw value.
        raw: Edge,
    },
    /// A text replaced by raw bytes in a declared encoding (maybe not the header's).
    Text {
        /// Where.
        site: TextSite,
        /// Which record.
        item: u16,
        /// The bytes.
        raw: Vec<u8>,
        /// The encoding byte the text says it is in.
        encoding: u8,
    },
    /// A text set from a string, in the encoding it already had.
    SetText {
        /// Where.
        site: TextSite,
        /// Which record.
        item: u16,
        /// The text.
        text: String,
    },
    /// A vertex's number of additional UVs, the header left as it is.
    AdditionalUv {
        /// Which vertex.
        vertex: u16,
        /// How many.
        len: Len,
    },
    /// A vertex's weight type (0-4), with one raw bone index.
    Weight {
        /// Which vertex.
        vertex: u16,
        /// The weight type (modulo 5).
        kind: u8,
        /// The bone index in every slot.
        raw: Edge,
    },
    /// A material's toon: shared (a toon number) or a texture index.
    Toon {
        /// Which material.
        material: u16,
        /// Shared toon.
        shared: bool,
        /// The toon number or texture index.
        raw: Edge,
    },
    /// A morph's offsets replaced by another type's, with `len` default offsets.
    MorphKind {
        /// Which morph.
        morph: u16,
        /// The morph type (modulo 11).
        kind: u8,
        /// How many offsets.
        len: Len,
    },
    /// The soft-body block made absent, empty, or kept.
    SoftBodies(Presence),
    /// The bytes after the last block.
    Trailing(Vec<u8>),
    /// A list's length (grown with copies of its last element).
    Resize {
        /// Which list.
        section: Section,
        /// Which record holds it (for the lists inside records).
        item: u16,
        /// The new length.
        len: Len,
    },
}

/// Applies one edit; an edit whose target does not exist in this model does nothing.
pub fn apply(m: &mut Pmx, edit: Edit) {
    match edit {
        Edit::Version(v) => {
            m.header.version = match v {
                Version::V20 => 2.0,
                Version::V21 => 2.1,
                Version::Raw(x) => x,
            }
        }
        Edit::Global { at, value } => {
            if let Some(b) = pick(&mut m.header.globals, at.into()) {
                *b = value;
            }
        }
        Edit::GlobalsLen(n) => m.header.globals.resize(n.into(), 1),
        Edit::BoneFlags { bone, bits } => {
            if let Some(b) = pick(&mut m.bones, bone) {
                b.flags = BoneFlags(bits);
            }
        }
        Edit::BoneBlock {
            bone,
            block,
            present,
        } => {
            if let Some(b) = pick(&mut m.bones, bone) {
                set_bone_block(b, block, present);
            }
        }
        Edit::BoneTail { bone, to_bone, raw } => {
            if let Some(b) = pick(&mut m.bones, bone) {
                b.tail = if to_bone {
                    BoneTail::Bone(Index::from_raw(raw.i32()))
                } else {
                    BoneTail::Offset([0.0, 1.0, 0.0])
                };
            }
        }
        Edit::IkLink {
            bone,
            link,
            has_limit,
            min,
            max,
        } => {
            let ik = pick(&mut m.bones, bone).and_then(|b| b.ik.as_mut());
            if let Some(l) = ik.and_then(|ik| pick(&mut ik.links, link)) {
                l.has_limit = has_limit;
                l.limit_min = min.then_some([-1.0, 0.0, 0.0]);
                l.limit_max = max.then_some([1.0, 0.0, 0.0]);
            }
        }
        Edit::Index {
            site,
            item,
            sub,
            raw,
        } => sites::set_index(m, site, item, sub, raw),
        Edit::Text {
            site,
            item,
            raw,
            encoding,
        } => {
            if let Some(t) = sites::text_at(m, site, item) {
                *t = PmxText::from_raw(raw, TextEncoding::from_byte(encoding));
            }
        }
        Edit::SetText { site, item, text } => {
            if let Some(t) = sites::text_at(m, site, item) {
                t.set(&text);
            }
        }
        Edit::AdditionalUv { vertex, len } => {
            if let Some(mut v) = pick_vertex(&mut m.vertices, vertex) {
                v.additional_uv.resize(len.0.min(16), [0.0; 4]);
            }
        }
        Edit::Weight { vertex, kind, raw } => {
            if let Some(mut v) = pick_vertex(&mut m.vertices, vertex) {
                let b = Index::from_raw(raw.i32());
                v.weight = match kind % 5 {
                    0 => Weight::Bdef1 { bone: b },
                    1 => Weight::Bdef2 {
                        bones: [b; 2],
                        weight: 0.5,
                    },
                    2 => Weight::Bdef4 {
                        bones: [b; 4],
                        weights: [0.25; 4],
                    },
                    3 => Weight::Sdef {
                        bones: [b; 2],
                        weight: 0.5,
                        c: [0.0; 3],
                        r0: [0.0; 3],
                        r1: [0.0; 3],
                    },
                    _ => Weight::Qdef {
                        bones: [b; 4],
                        weights: [0.25; 4],
                    },
                };
            }
        }
        Edit::Toon {
            material,
            shared,
            raw,
        } => {
            if let Some(mat) = pick(&mut m.materials, material) {
                mat.toon = if shared {
                    Toon::Shared(raw.u8())
                } else {
                    Toon::Texture(Index::from_raw(raw.i32()))
                };
            }
        }
        Edit::MorphKind { morph, kind, len } => {
            if let Some(mo) = pick(&mut m.morphs, morph) {
                mo.offsets = sites::offsets_of_kind(kind, len.small().0);
            }
        }
        Edit::SoftBodies(p) => p.apply(&mut m.soft_bodies),
        Edit::Trailing(bytes) => m.trailing = bytes,
        // Every PMX count is an i32: no writer check depends on a list's length.
        Edit::Resize { section, item, len } => sites::resize_section(m, section, item, len.small()),
    }
}

fn set_bone_block(b: &mut mmd_formats::pmx::Bone, block: BoneBlock, present: bool) {
    match block {
        BoneBlock::Inherit => {
            b.inherit = present.then_some(Inherit {
                parent: Index::NONE,
                weight: 1.0,
            })
        }
        BoneBlock::FixedAxis => b.fixed_axis = present.then_some([1.0, 0.0, 0.0]),
        BoneBlock::LocalAxes => {
            b.local_axes = present.then_some(LocalAxes {
                x: [1.0, 0.0, 0.0],
                z: [0.0, 0.0, 1.0],
            })
        }
        BoneBlock::ExternalParent => b.external_parent = present.then_some(0),
        BoneBlock::Ik => {
            if !present {
                b.ik = None;
            } else if b.ik.is_none() {
                b.ik = Some(Ik {
                    target: Index::NONE,
                    loop_count: 40,
                    limit_angle: 0.5,
                    links: vec![IkLink {
                        bone: Index::NONE,
                        has_limit: 0,
                        limit_min: None,
                        limit_max: None,
                    }],
                });
            }
        }
    }
}

/// Builds the case's value and checks the writer's rule on it
/// ([`check_binary`](super::check_binary)).
pub fn check(case: Case) {
    static SAMPLES: std::sync::OnceLock<Vec<Pmx>> = std::sync::OnceLock::new();
    let samples = SAMPLES.get_or_init(|| {
        super::samples(mmd_formats::inspect::Format::Pmx, |b| {
            Pmx::from_bytes(b).ok()
        })
    });
    let mut m = samples[usize::from(case.sample) % samples.len()].clone();
    for edit in case.edits {
        apply(&mut m, edit);
    }
    let _ = m.context();
    let _ = m.triangles().count();
    super::check_binary(&m);
}
