#![doc = include_str!("grammar.md")]
//!
//! # In this crate
//!
//! [`Vpd`] keeps the file's bytes and, for every value, where its text is. Reading
//! checks the grammar above; [`Vpd::pose`] gives the typed values; [`Vpd::set_bone`] and
//! [`Vpd::set_morph`] rewrite only the text of the numbers they change; [`Vpd::to_bytes`]
//! gives the bytes back, identical to the input for an unmodified pose. [`Vpd::from_pose`]
//! writes a new file the way MMD does.
//!
//! ```
//! use mmd_formats::vpd::{BonePose, Pose, Vpd};
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let pose = Pose {
//!     model_file: "初音ミク.osm".into(),
//!     bones: vec![BonePose {
//!         name: "センター".into(),
//!         translation: [0.0, 3.45, 0.0],
//!         rotation: [0.0, 0.0, 0.0, 1.0],
//!     }],
//!     morphs: vec![],
//! };
//! let mut vpd = Vpd::from_pose(&pose)?;
//! assert_eq!(Vpd::from_bytes(&vpd.to_bytes()?)?.pose(), vpd.pose());
//! vpd.set_bone(0, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0])?;
//! assert!(vpd.to_bytes()?.windows(28).any(|w| w == b"  0.000000,1.000000,0.000000"));
//! # Ok(()) }
//! ```

mod json;
mod parse;
mod walk;
mod write;

use crate::codec::{Decode, Encode};
use crate::error::{Error, Result};
use crate::io::{Input, Output};
use crate::layout::{Body, Describe, Size, TypeLayout};
use crate::text::decode_sjis;
use std::fmt;

/// The signature that opens every VPD file (23 ASCII bytes, no BOM before it).
pub const MAGIC: &[u8] = b"Vocaloid Pose Data file";

/// The line terminator [`Vpd::from_pose_with`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LineEnding {
    /// CR LF, as MMD writes (inferred: every Windows-side writer found writes CR LF).
    #[default]
    CrLf,
    /// LF alone, as the published files are after git's `text=auto` normalisation.
    Lf,
}

impl LineEnding {
    /// The terminator's bytes.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnding::CrLf => b"\r\n",
            LineEnding::Lf => b"\n",
        }
    }
}

/// The typed content of a pose file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pose {
    /// The parent model file as written before the first `;` of the third line; MMD
    /// writes the model name with `.osm` appended (`初音ミク.osm`).
    pub model_file: String,
    /// The bone blocks in file order.
    pub bones: Vec<BonePose>,
    /// The morph blocks (a MikuMikuMoving extension; MMD writes none) in file order.
    pub morphs: Vec<MorphPose>,
}

/// One `Bone<i>{name` block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BonePose {
    /// The bone name (Shift_JIS in the file, full length; bytes that do not decode show
    /// as U+FFFD here and are kept as bytes by [`Vpd`]).
    pub name: String,
    /// Offset x, y, z from the bone's rest position, in MMD units.
    pub translation: [f32; 3],
    /// Rotation quaternion x, y, z, w (MMD's left-handed frame, as in VMD), not
    /// necessarily normalised.
    pub rotation: [f32; 4],
}

/// One `Morph<i>{name` block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MorphPose {
    /// The morph name (Shift_JIS in the file).
    pub name: String,
    /// The morph weight, normally 0 to 1.
    pub weight: f32,
}

/// Something odd in a file that reads without error: the value is kept as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Byte offset of the odd text.
    pub offset: u64,
    /// Line number (1-based) of the odd text.
    pub line: usize,
    /// Field path of the value (`bone_count`, `bones[3].name`).
    pub path: String,
    /// What is odd, with what was expected.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} on line {} at {:#x}",
            self.path, self.message, self.line, self.offset
        )
    }
}

/// A byte range of the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Span {
    start: usize,
    end: usize,
}

/// One number: where its text is in the source, its value, and its new text if edited.
#[derive(Debug, Clone, PartialEq)]
struct Num {
    span: Span,
    value: f32,
    edited: Option<String>,
}

/// A bone block as read.
#[derive(Debug, Clone, PartialEq)]
struct BoneBlock {
    name: Span,
    translation: [Num; 3],
    rotation: [Num; 4],
}

/// A morph block as read.
#[derive(Debug, Clone, PartialEq)]
struct MorphBlock {
    name: Span,
    weight: Num,
}

/// A whole VPD file: its bytes, where every value's text is, and any edits.
///
/// Reading keeps the exact source, so [`to_bytes`](Vpd::to_bytes) of an unmodified pose
/// reproduces the input whatever its line endings, indentation, comments, blank lines,
/// final newline or number formatting. See the [module documentation](self) for the
/// grammar.
///
/// Reading is strict where the grammar needs it (the signature, the count's digits, the
/// keyword and `{` of a block, the number of values on a line and their `;`, the closing
/// `}`); every other oddity (a count that disagrees with the blocks, out-of-sequence
/// block indices, names that are not valid Shift_JIS, text after the signature or after a
/// `;` that is not a comment, non-finite numbers) is kept and listed in
/// [`warnings`](Vpd::warnings).
///
/// Like the binary formats, it is [`Decode`] and [`Encode`] with the `()` context: reading
/// takes every byte from the input's position to its end.
#[derive(Clone, PartialEq)]
pub struct Vpd {
    src: Vec<u8>,
    model_file: Span,
    declared_bone_count: u32,
    /// Where the count's digits are.
    bone_count_span: Span,
    bones: Vec<BoneBlock>,
    morphs: Vec<MorphBlock>,
    warnings: Vec<Warning>,
}

impl fmt::Debug for Vpd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vpd")
            .field("model_file", &decode_sjis(self.model_file_bytes()))
            .field("declared_bone_count", &self.declared_bone_count)
            .field("bones", &self.bones.len())
            .field("morphs", &self.morphs.len())
            .field("bytes", &self.src.len())
            .field("warnings", &self.warnings.len())
            .finish()
    }
}

crate::file::whole_file_api!(Vpd, "VPD");

impl Vpd {
    /// Every number of the pose, in the order the file holds them.
    fn numbers(&self) -> impl Iterator<Item = &Num> {
        self.bones
            .iter()
            .flat_map(|b| b.translation.iter().chain(&b.rotation))
            .chain(self.morphs.iter().map(|m| &m.weight))
    }

    /// The file's bytes: the input as read, with the text of edited numbers replaced.
    fn text(&self) -> Vec<u8> {
        let mut edits: Vec<(Span, &str)> = self
            .numbers()
            .filter_map(|n| n.edited.as_deref().map(|t| (n.span, t)))
            .collect();
        if edits.is_empty() {
            return self.src.clone();
        }
        edits.sort_by_key(|(span, _)| span.start);
        let mut out = Vec::with_capacity(self.src.len() + 16 * edits.len());
        let mut pos = 0;
        for (span, text) in edits {
            out.extend_from_slice(self.src.get(pos..span.start).unwrap_or(&[]));
            out.extend_from_slice(text.as_bytes());
            pos = span.end;
        }
        out.extend_from_slice(self.src.get(pos..).unwrap_or(&[]));
        out
    }

    /// A new pose of no bones and no morphs for the model file `model_file` (MMD writes
    /// the model's name with `.osm` appended: `初音ミク.osm`), written the way MMD writes
    /// one (see [`from_pose`](Vpd::from_pose), which says when it fails).
    pub fn new(model_file: &str) -> Result<Self> {
        Self::from_pose(&Pose {
            model_file: model_file.to_owned(),
            ..Pose::default()
        })
    }

    /// Writes a new file for `pose` the way MMD writes one, with CR LF line endings.
    ///
    /// The layout (signature, one empty line, the model line with 2 TABs before
    /// `// 親ファイル名`, the count line with 4 TABs before `// 総ポーズボーン数`, one empty
    /// line, then per bone `Bone<i>{name`, the translation with 4 TABs before
    /// `// trans x,y,z`, the rotation with 2 TABs before `// Quaternion x,y,z,w`, `}` and
    /// one empty line; numbers as C `%f`, indented by two spaces) is the one every
    /// published MMD pose file has, byte for byte. The line ending is inferred, not seen:
    /// the published files are LF, but they come from a git repository that normalises
    /// text files to LF (`* text=auto`), and every Windows-side writer found (mmd_tools
    /// "as MMD does", Keystone) writes CR LF. Morph blocks, which MMD does not write, are
    /// written in the mmd_tools / MikuMikuMoving form: `Morph<i>{name`, the weight with 4
    /// TABs before `// weight`, `}`, one empty line.
    ///
    /// Numbers are rounded to six decimals as Rust's `{:.6}` does: correctly, with exact
    /// ties (odd multiples of 1/128 and the like) to even, as glibc's `printf` does.
    /// Whether MMD's C runtime breaks such ties the same way is not known.
    ///
    /// Fails (never panics) on a name Shift_JIS cannot encode or does not give back
    /// exactly (`¥` becomes `\`), a name with a line break, a model file name that could
    /// not be read back as written (with `;`, starting with `//`, or with spaces or TABs
    /// at either end), and on a value that is not finite.
    pub fn from_pose(pose: &Pose) -> Result<Self> {
        Self::from_pose_with(pose, LineEnding::CrLf)
    }

    /// [`from_pose`](Vpd::from_pose) with a chosen line terminator ([`LineEnding::Lf`]
    /// gives the published files' bytes).
    pub fn from_pose_with(pose: &Pose, eol: LineEnding) -> Result<Self> {
        let bytes = write::write_pose(pose, eol)?;
        Self::from_bytes(&bytes)
    }

    /// The typed values. Names are decoded from Shift_JIS; undecodable bytes show as
    /// U+FFFD (the bytes themselves stay in the file: see [`bone_name_bytes`](Vpd::bone_name_bytes)).
    pub fn pose(&self) -> Pose {
        let text = |span: Span| decode_sjis(self.bytes(span)).into_owned();
        Pose {
            model_file: text(self.model_file),
            bones: self
                .bones
                .iter()
                .map(|b| BonePose {
                    name: text(b.name),
                    translation: b.translation.each_ref().map(|n| n.value),
                    rotation: b.rotation.each_ref().map(|n| n.value),
                })
                .collect(),
            morphs: self
                .morphs
                .iter()
                .map(|m| MorphPose {
                    name: text(m.name),
                    weight: m.weight.value,
                })
                .collect(),
        }
    }

    /// The parent model file's raw Shift_JIS bytes.
    pub fn model_file_bytes(&self) -> &[u8] {
        self.bytes(self.model_file)
    }

    /// The bone count the count line declares (which may disagree with
    /// [`bone_count`](Vpd::bone_count): see [`warnings`](Vpd::warnings)).
    pub fn declared_bone_count(&self) -> u32 {
        self.declared_bone_count
    }

    /// The number of bone blocks.
    pub fn bone_count(&self) -> usize {
        self.bones.len()
    }

    /// The number of morph blocks.
    pub fn morph_count(&self) -> usize {
        self.morphs.len()
    }

    /// The raw Shift_JIS bytes of bone `i`'s name (`None` past the last bone).
    pub fn bone_name_bytes(&self, i: usize) -> Option<&[u8]> {
        self.bones.get(i).map(|b| self.bytes(b.name))
    }

    /// The raw Shift_JIS bytes of morph `i`'s name (`None` past the last morph).
    pub fn morph_name_bytes(&self, i: usize) -> Option<&[u8]> {
        self.morphs.get(i).map(|m| self.bytes(m.name))
    }

    /// The oddities found while reading (empty for MMD's own files). They describe the
    /// file as read; edits do not change them.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Sets bone `i`'s translation and rotation, rewriting only the text of its seven
    /// numbers, in MMD's `%f` form (six decimals); every other byte stays as it is.
    ///
    /// The stored values become those the new text reads back as (rounded to six
    /// decimals). Fails on an index past the last bone or a value that is not finite;
    /// then nothing changes.
    pub fn set_bone(&mut self, i: usize, translation: [f32; 3], rotation: [f32; 4]) -> Result<()> {
        let out_len = self.src.len() as u64;
        let texts_t = write::number_texts(&translation, "translation", out_len)
            .map_err(|e| e.in_index(i).in_field("bones"))?;
        let texts_r = write::number_texts(&rotation, "rotation", out_len)
            .map_err(|e| e.in_index(i).in_field("bones"))?;
        let count = self.bones.len();
        let bone = self.bones.get_mut(i).ok_or_else(|| {
            Error::inconsistent(
                out_len,
                format!("a bone index below {count}"),
                format!("bone {i}"),
            )
            .in_field("bones")
        })?;
        for (num, text) in bone.translation.iter_mut().zip(texts_t) {
            num.set(text);
        }
        for (num, text) in bone.rotation.iter_mut().zip(texts_r) {
            num.set(text);
        }
        Ok(())
    }

    /// Sets morph `i`'s weight, rewriting only the text of that number in `%f` form.
    /// Fails on an index past the last morph or a value that is not finite.
    pub fn set_morph(&mut self, i: usize, weight: f32) -> Result<()> {
        let out_len = self.src.len() as u64;
        let [text] = write::number_texts(&[weight], "weight", out_len)
            .map_err(|e| e.in_index(i).in_field("morphs"))?;
        let count = self.morphs.len();
        let morph = self.morphs.get_mut(i).ok_or_else(|| {
            Error::inconsistent(
                out_len,
                format!("a morph index below {count}"),
                format!("morph {i}"),
            )
            .in_field("morphs")
        })?;
        morph.weight.set(text);
        Ok(())
    }

    fn bytes(&self, span: Span) -> &[u8] {
        self.src.get(span.start..span.end).unwrap_or(&[])
    }
}

impl Num {
    /// Replaces the text (and the value with what the text reads as).
    fn set(&mut self, text: (String, f32)) {
        self.value = text.1;
        self.edited = Some(text.0);
    }
}

static LAYOUT: TypeLayout = TypeLayout {
    name: "Vpd",
    doc: include_str!("grammar.md"),
    context: None,
    magic: Some(MAGIC),
    file: None,
    parent: None,
    body: Body::Opaque,
};

impl Describe for Vpd {
    const SIZE: Size = Size::Variable;
    /// The signature, an LF, a one-byte model line (`;`), an LF and a one-digit count.
    const MIN_SIZE: u64 = MAGIC.len() as u64 + 4;
    fn layout() -> Option<&'static TypeLayout> {
        Some(&LAYOUT)
    }
}

/// Reading takes every byte from the input's position to its end and parses them; the
/// offsets in its errors count from the start of the input.
impl Decode<()> for Vpd {
    fn decode<I: Input + ?Sized>(input: &mut I, _ctx: &()) -> Result<Self> {
        let start = input.position();
        let bytes = input.read_vec(input.remaining())?;
        parse::parse(&bytes).map_err(|e| e.offset_by(start))
    }
}

/// Writes the text: the input as read, with the text of edited numbers replaced.
impl Encode<()> for Vpd {
    fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &()) -> Result<()> {
        out.write_bytes(&self.text())
    }
    /// The source's length, with each edited number's text in place of the text it
    /// replaces (without building the text).
    fn size_hint(&self, _ctx: &()) -> usize {
        let mut len = self.src.len();
        for n in self.numbers() {
            if let Some(t) = n.edited.as_deref() {
                let replaced = n.span.end.saturating_sub(n.span.start);
                len = len.saturating_sub(replaced).saturating_add(t.len());
            }
        }
        len
    }
}

/// VPD is a whole-file text format: reading through binrw takes every byte from the
/// stream's position to its end and parses them; writing writes the text. `Args` is `()`.
impl binrw::BinRead for Vpd {
    type Args<'a> = ();

    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        _endian: binrw::Endian,
        _args: Self::Args<'_>,
    ) -> binrw::BinResult<Self> {
        let start = reader.stream_position()?;
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes)?;
        Vpd::from_bytes(&bytes).map_err(|e| e.offset_by(start).into())
    }
}

impl binrw::BinWrite for Vpd {
    type Args<'a> = ();

    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        _endian: binrw::Endian,
        _args: Self::Args<'_>,
    ) -> binrw::BinResult<()> {
        writer.write_all(&self.text())?;
        Ok(())
    }
}
