//! Edits that change only what they are asked to change: material colours and names.
//!
//! Each edit works on a [`Pmx`] read from a file and returns a report of what it changed.
//! The writer is byte-exact, so after an edit the file differs from the original only in
//! the bytes of the edited field:
//!
//! * [`Pmx::recolor`] writes the three RGB floats of one colour (12 bytes) and leaves the
//!   diffuse alpha alone. Trap (seed 000): the fourth diffuse value is the material's
//!   opacity; a recolour that writes it too makes semi-transparent hair opaque.
//! * [`Pmx::rename`] replaces one name. A PMX text is a byte length and then the bytes, so
//!   a new name of another length moves every later byte (seed 000: a patch in place is
//!   not enough); nothing else changes, and renaming back gives the original file.
//!
//! ```
//! use mmd_formats::pmx::edit::{ColorTarget, Item, Lang, NameTarget};
//! use mmd_formats::pmx::Pmx;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
//! let mut model = Pmx::from_bytes(&bytes)?;
//! let name = model.materials[0].name.to_string_lossy().into_owned();
//! let first = model.find_name(Item::Material, &name)?.expect("the first material's name");
//! let report = model.recolor(first, ColorTarget::Diffuse, [1.0, 0.0, 0.0])?;
//! assert_eq!(report.new, [1.0, 0.0, 0.0]);
//! let recoloured = model.to_bytes()?;
//! let changed = bytes.iter().zip(&recoloured).filter(|(a, b)| a != b).count();
//! assert!(changed <= 12 && recoloured.len() == bytes.len());
//!
//! let report = model.rename(NameTarget::Model, Lang::Local, "新しい名前")?;
//! model.set_name(NameTarget::Model, Lang::Local, report.old.clone())?;
//! assert_eq!(model.to_bytes()?, recoloured);
//! # Ok(()) }
//! ```

use std::fmt;

use super::Pmx;
use crate::error::Error;
use crate::text::{PmxText, TextEncoding};

/// A kind of named record that an edit can look up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// A material.
    Material,
    /// A bone.
    Bone,
    /// A morph.
    Morph,
}

impl Item {
    /// The field path of the section (`materials`, `bones`, `morphs`).
    pub const fn section(self) -> &'static str {
        match self {
            Item::Material => "materials",
            Item::Bone => "bones",
            Item::Morph => "morphs",
        }
    }

    /// The record's name in messages (`material`, `bone`, `morph`).
    pub const fn noun(self) -> &'static str {
        match self {
            Item::Material => "material",
            Item::Bone => "bone",
            Item::Morph => "morph",
        }
    }
}

/// Which of a record's two names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// The local name (field `name`, usually Japanese): the one VMD keys refer to.
    #[default]
    Local,
    /// The English (universal) name (field `name_en`).
    English,
}

impl Lang {
    /// Of a record's local and English name, the one this says.
    fn pick<T>(self, local: T, english: T) -> T {
        match self {
            Lang::Local => local,
            Lang::English => english,
        }
    }

    /// The field name (`name` or `name_en`).
    pub const fn field(self) -> &'static str {
        match self {
            Lang::Local => "name",
            Lang::English => "name_en",
        }
    }
}

/// The record whose name a rename changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameTarget {
    /// The model itself (the model info's name).
    Model,
    /// The material of this index.
    Material(usize),
    /// The bone of this index.
    Bone(usize),
    /// The morph of this index.
    Morph(usize),
}

impl fmt::Display for NameTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameTarget::Model => f.write_str("model"),
            NameTarget::Material(i) => write!(f, "materials[{i}]"),
            NameTarget::Bone(i) => write!(f, "bones[{i}]"),
            NameTarget::Morph(i) => write!(f, "morphs[{i}]"),
        }
    }
}

/// One of a material's three RGB colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColorTarget {
    /// The diffuse colour's R, G, B (its alpha, the opacity, is kept).
    Diffuse,
    /// The specular colour (the specular strength is kept).
    Specular,
    /// The ambient colour.
    Ambient,
}

impl ColorTarget {
    /// The field name (`diffuse`, `specular`, `ambient`).
    pub const fn field(self) -> &'static str {
        match self {
            ColorTarget::Diffuse => "diffuse",
            ColorTarget::Specular => "specular",
            ColorTarget::Ambient => "ambient",
        }
    }
}

/// Why an edit could not be made. The model is unchanged when an edit fails.
#[derive(Debug)]
#[non_exhaustive]
pub enum EditError {
    /// No record has this name (local or English), and it is not the index of one: what
    /// a lookup by name or index (such as `mmd pmx`'s) reports.
    NotFound {
        /// The kind of record looked for.
        item: Item,
        /// The name (or index) given.
        key: String,
        /// How many records of that kind the model has.
        count: usize,
    },
    /// More than one record has this name: give an index instead.
    Ambiguous {
        /// The kind of record looked for.
        item: Item,
        /// The name given.
        key: String,
        /// The name that matched (local or English).
        lang: Lang,
        /// The records with that name.
        indices: Vec<usize>,
    },
    /// The index is not that of a record.
    OutOfRange {
        /// The kind of record.
        item: Item,
        /// The index given.
        index: usize,
        /// How many records of that kind the model has.
        count: usize,
    },
    /// New text is in another encoding than the header declares (it could not be written).
    EncodingMismatch {
        /// The header's encoding.
        expected: TextEncoding,
        /// The text's encoding.
        found: TextEncoding,
    },
    /// The header's globals do not declare a usable context (a model that was read from
    /// a file always does).
    Header(Error),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NotFound { item, key, count } => write!(
                f,
                "no {} named {key:?} (local or English name), and it is not an index below {count}",
                item.noun()
            ),
            EditError::Ambiguous {
                item,
                key,
                lang,
                indices,
            } => {
                let list: Vec<String> = indices.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "{} {} of {} {key:?}: {}; give an index instead",
                    indices.len(),
                    item.section(),
                    lang.field(),
                    list.join(", ")
                )
            }
            EditError::OutOfRange { item, index, count } => write!(
                f,
                "{} index {index} is out of range (the model has {count})",
                item.noun()
            ),
            EditError::EncodingMismatch { expected, found } => write!(
                f,
                "text encoded as {found:?}, but the header declares {expected:?}"
            ),
            EditError::Header(e) => write!(f, "the header declares no usable context: {e}"),
        }
    }
}

impl std::error::Error for EditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EditError::Header(e) => Some(e),
            _ => None,
        }
    }
}

/// What a recolour changed.
#[derive(Debug, Clone, PartialEq)]
pub struct RecolorReport {
    /// The material's index.
    pub material: usize,
    /// The material's local name (lossily decoded).
    pub material_name: String,
    /// The colour changed.
    pub target: ColorTarget,
    /// R, G, B before.
    pub old: [f32; 3],
    /// R, G, B after.
    pub new: [f32; 3],
    /// For the diffuse colour: the alpha (opacity), which is kept as it was.
    pub alpha: Option<f32>,
}

impl RecolorReport {
    /// True when a stored value changed (compared bit for bit).
    pub fn changed(&self) -> bool {
        self.old
            .iter()
            .zip(&self.new)
            .any(|(a, b)| a.to_bits() != b.to_bits())
    }
}

impl fmt::Display for RecolorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rgb = |c: &[f32; 3]| format!("{}, {}, {}", c[0], c[1], c[2]);
        write!(
            f,
            "materials[{}] {:?}: {} RGB ({}) -> ({})",
            self.material,
            self.material_name,
            self.target.field(),
            rgb(&self.old),
            rgb(&self.new)
        )?;
        if let Some(a) = self.alpha {
            write!(f, ", alpha {a} kept")?;
        }
        if !self.changed() {
            f.write_str(" (unchanged)")?;
        }
        Ok(())
    }
}

/// Something worth knowing about a new name; the rename is made all the same.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenameWarning {
    /// The name has characters Shift_JIS cannot encode, so a VMD file (whose names are
    /// Shift_JIS) cannot refer to it.
    NotShiftJis,
    /// The name is longer in Shift_JIS than the VMD field that refers to it (15 bytes for
    /// bone and morph keys, 20 for the model name), so a VMD file cannot hold it whole.
    TooLongForVmd {
        /// The name's length in Shift_JIS.
        bytes: usize,
        /// The VMD field's length.
        limit: usize,
    },
    /// Another record of the same kind has the same local name; VMD keys refer to bones
    /// and morphs by name, so only one of them can be animated.
    SameNameAs {
        /// The other record.
        index: usize,
    },
}

impl fmt::Display for RenameWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenameWarning::NotShiftJis => f.write_str(
                "the name has characters Shift_JIS cannot encode: VMD files cannot refer to it",
            ),
            RenameWarning::TooLongForVmd { bytes, limit } => write!(
                f,
                "the name is {bytes} bytes in Shift_JIS, more than the {limit} of a VMD name field"
            ),
            RenameWarning::SameNameAs { index } => {
                write!(f, "record {index} has the same name")
            }
        }
    }
}

/// What a rename changed.
#[derive(Debug, Clone, PartialEq)]
pub struct RenameReport {
    /// The record renamed.
    pub target: NameTarget,
    /// Which of its names.
    pub lang: Lang,
    /// The name before, as stored (give it to [`Pmx::set_name`] to undo the rename
    /// exactly, even when it did not decode).
    pub old: PmxText,
    /// The name after.
    pub new: PmxText,
    /// Things worth knowing about the new name.
    pub warnings: Vec<RenameWarning>,
}

impl RenameReport {
    /// True when the stored bytes changed.
    pub fn changed(&self) -> bool {
        self.old.as_bytes() != self.new.as_bytes()
    }

    /// How many bytes longer the file became (negative when shorter): every byte after
    /// the name moves by this much.
    pub fn length_change(&self) -> i64 {
        let len = |t: &PmxText| i64::try_from(t.as_bytes().len()).unwrap_or(i64::MAX);
        len(&self.new).saturating_sub(len(&self.old))
    }
}

impl fmt::Display for RenameReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {:?} -> {:?}",
            self.target,
            self.lang.field(),
            self.old,
            self.new
        )?;
        match self.length_change() {
            _ if !self.changed() => f.write_str(" (unchanged)"),
            0 => f.write_str(" (same length)"),
            d => write!(f, " ({d:+} bytes; every later byte moves by {d})"),
        }
    }
}

impl Pmx {
    /// The local and English names of every record of a kind.
    fn names(&self, item: Item) -> Vec<[&PmxText; 2]> {
        match item {
            Item::Material => self
                .materials
                .iter()
                .map(|m| [&m.name, &m.name_en])
                .collect(),
            Item::Bone => self.bones.iter().map(|b| [&b.name, &b.name_en]).collect(),
            Item::Morph => self.morphs.iter().map(|m| [&m.name, &m.name_en]).collect(),
        }
    }

    /// How many records of a kind the model has.
    pub fn count(&self, item: Item) -> usize {
        match item {
            Item::Material => self.materials.len(),
            Item::Bone => self.bones.len(),
            Item::Morph => self.morphs.len(),
        }
    }

    /// Finds a record by name: the record whose local name is `name`, else the one whose
    /// English name is `name`; `None` when no record has it. A name that more than one
    /// record has (among the local names, or else among the English ones) is
    /// [`EditError::Ambiguous`].
    pub fn find_name(&self, item: Item, name: &str) -> Result<Option<usize>, EditError> {
        let names = self.names(item);
        for lang in [Lang::Local, Lang::English] {
            let k = lang as usize;
            let indices: Vec<usize> = names
                .iter()
                .enumerate()
                .filter(|(_, n)| n[k].to_str().is_some_and(|s| s == name))
                .map(|(i, _)| i)
                .collect();
            match indices.as_slice() {
                [] => continue,
                [one] => return Ok(Some(*one)),
                _ => {
                    return Err(EditError::Ambiguous {
                        item,
                        key: name.to_owned(),
                        lang,
                        indices,
                    })
                }
            }
        }
        Ok(None)
    }

    /// The stored name of a record (`None` when the index is not that of a record).
    pub fn name_of(&self, target: NameTarget, lang: Lang) -> Option<&PmxText> {
        let pair: [&PmxText; 2] = match target {
            NameTarget::Model => [&self.model.name, &self.model.name_en],
            NameTarget::Material(i) => self.materials.get(i).map(|m| [&m.name, &m.name_en])?,
            NameTarget::Bone(i) => self.bones.get(i).map(|b| [&b.name, &b.name_en])?,
            NameTarget::Morph(i) => self.morphs.get(i).map(|m| [&m.name, &m.name_en])?,
        };
        let [local, english] = pair;
        Some(lang.pick(local, english))
    }

    fn name_slot(&mut self, target: NameTarget, lang: Lang) -> Result<&mut PmxText, EditError> {
        let (item, index) = match target {
            NameTarget::Model => {
                return Ok(lang.pick(&mut self.model.name, &mut self.model.name_en))
            }
            NameTarget::Material(i) => (Item::Material, i),
            NameTarget::Bone(i) => (Item::Bone, i),
            NameTarget::Morph(i) => (Item::Morph, i),
        };
        let count = self.count(item);
        let pair = match item {
            Item::Material => self
                .materials
                .get_mut(index)
                .map(|m| (&mut m.name, &mut m.name_en)),
            Item::Bone => self
                .bones
                .get_mut(index)
                .map(|b| (&mut b.name, &mut b.name_en)),
            Item::Morph => self
                .morphs
                .get_mut(index)
                .map(|m| (&mut m.name, &mut m.name_en)),
        };
        let (local, english) = pair.ok_or(EditError::OutOfRange { item, index, count })?;
        Ok(lang.pick(local, english))
    }

    /// Sets one RGB colour of material `material` to `rgb`, writing nothing else: the
    /// diffuse alpha (opacity) and the specular strength are kept.
    pub fn recolor(
        &mut self,
        material: usize,
        target: ColorTarget,
        rgb: [f32; 3],
    ) -> Result<RecolorReport, EditError> {
        let count = self.materials.len();
        let m = self
            .materials
            .get_mut(material)
            .ok_or(EditError::OutOfRange {
                item: Item::Material,
                index: material,
                count,
            })?;
        let (slot, alpha): (&mut [f32], Option<f32>) = match target {
            ColorTarget::Diffuse => {
                let alpha = m.diffuse[3];
                (&mut m.diffuse[..3], Some(alpha))
            }
            ColorTarget::Specular => (&mut m.specular[..], None),
            ColorTarget::Ambient => (&mut m.ambient[..], None),
        };
        let mut old = [0.0f32; 3];
        old.copy_from_slice(slot);
        slot.copy_from_slice(&rgb);
        Ok(RecolorReport {
            material,
            material_name: m.name.to_string_lossy().into_owned(),
            target,
            old,
            new: rgb,
            alpha,
        })
    }

    /// Renames a record (or the model): the new name is encoded in the header's text
    /// encoding (UTF-16LE or UTF-8). Only that text changes; its length may, and every
    /// later byte moves with it.
    pub fn rename(
        &mut self,
        target: NameTarget,
        lang: Lang,
        new_name: &str,
    ) -> Result<RenameReport, EditError> {
        let encoding = self.context().map_err(EditError::Header)?.encoding;
        self.set_name(target, lang, PmxText::new(new_name, encoding))
    }

    /// Sets a name to stored text as it is (for example the `old` text of a
    /// [`RenameReport`], to undo a rename exactly). The text must be in the header's
    /// encoding.
    pub fn set_name(
        &mut self,
        target: NameTarget,
        lang: Lang,
        text: PmxText,
    ) -> Result<RenameReport, EditError> {
        let encoding = self.context().map_err(EditError::Header)?.encoding;
        if text.encoding() != encoding {
            return Err(EditError::EncodingMismatch {
                expected: encoding,
                found: text.encoding(),
            });
        }
        let warnings = self.rename_warnings(target, lang, &text);
        let slot = self.name_slot(target, lang)?;
        let old = std::mem::replace(slot, text.clone());
        Ok(RenameReport {
            target,
            lang,
            old,
            new: text,
            warnings,
        })
    }

    /// What is worth knowing about giving `target` the name `text`.
    fn rename_warnings(
        &self,
        target: NameTarget,
        lang: Lang,
        text: &PmxText,
    ) -> Vec<RenameWarning> {
        let mut warnings = Vec::new();
        if lang != Lang::Local {
            return warnings;
        }
        let (item, index, limit) = match target {
            NameTarget::Model => (None, 0, Some(20)),
            NameTarget::Material(i) => (Some(Item::Material), i, None),
            NameTarget::Bone(i) => (Some(Item::Bone), i, Some(15)),
            NameTarget::Morph(i) => (Some(Item::Morph), i, Some(15)),
        };
        if let (Some(limit), Some(s)) = (limit, text.to_str()) {
            let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&s);
            if unmappable {
                warnings.push(RenameWarning::NotShiftJis);
            } else if sjis.len() > limit {
                warnings.push(RenameWarning::TooLongForVmd {
                    bytes: sjis.len(),
                    limit,
                });
            }
        }
        if let Some(item) = item {
            for (i, [local, _]) in self.names(item).iter().enumerate() {
                if i != index && local.as_bytes() == text.as_bytes() {
                    warnings.push(RenameWarning::SameNameAs { index: i });
                }
            }
        }
        warnings
    }
}
