//! Format detection by signature, and the byte-exact round-trip check behind `mmd check`.

use crate::codec::Decode;
use crate::error::{Error, Result};
use crate::io::{Input, SliceInput};

/// The file formats this crate reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// PMX 2.0 / 2.1 model (`PMX ` signature).
    Pmx,
    /// PMD model (`Pmd` signature; Shift_JIS names).
    Pmd,
    /// VPD pose (`Vocaloid Pose Data file` signature; Shift_JIS text).
    Vpd,
    /// VMD motion, camera or light key frames (`Vocaloid Motion Data` signature).
    Vmd,
}

impl Format {
    /// The format's usual name (`PMX`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Pmx => "PMX",
            Format::Pmd => "PMD",
            Format::Vpd => "VPD",
            Format::Vmd => "VMD",
        }
    }

    /// Detects the format from the first bytes of a file.
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"PMX ") {
            Some(Format::Pmx)
        } else if bytes.starts_with(b"Pmd") {
            Some(Format::Pmd)
        } else if bytes.starts_with(crate::vmd::SIGNATURE_PREFIX) {
            Some(Format::Vmd)
        } else if bytes.starts_with(crate::vpd::MAGIC) {
            Some(Format::Vpd)
        } else {
            None
        }
    }
}

/// The outcome of reading a file and writing it back.
#[derive(Debug)]
pub enum CheckOutcome {
    /// The written bytes equal the input.
    ByteExact,
    /// Reading failed.
    ReadError(Error),
    /// Writing the value read failed.
    WriteError(Error),
    /// The written bytes differ from the input, first at `offset` (with the field there,
    /// when known); `written_len` is the length of what was written.
    Differs {
        /// The first differing offset.
        offset: u64,
        /// The length of the written bytes.
        written_len: u64,
    },
}

/// Reads `bytes` as `format`, writes the value back in memory and compares.
pub fn check_roundtrip(format: Format, bytes: &[u8]) -> CheckOutcome {
    let written: Result<Result<Vec<u8>>> = match format {
        Format::Pmx => crate::pmx::Pmx::from_bytes(bytes).map(|m| m.to_bytes()),
        Format::Pmd => crate::pmd::Pmd::from_bytes(bytes).map(|m| m.to_bytes()),
        Format::Vpd => crate::vpd::Vpd::from_bytes(bytes).map(|v| v.to_bytes()),
        Format::Vmd => crate::vmd::Vmd::from_bytes(bytes).map(|v| v.to_bytes()),
    };
    match written {
        Err(e) => CheckOutcome::ReadError(e),
        Ok(Err(e)) => CheckOutcome::WriteError(e),
        Ok(Ok(out)) => compare(bytes, &out),
    }
}

/// Compares input and output bytes.
pub fn compare(input: &[u8], output: &[u8]) -> CheckOutcome {
    if input == output {
        return CheckOutcome::ByteExact;
    }
    let offset = input
        .iter()
        .zip(output)
        .position(|(a, b)| a != b)
        .unwrap_or(input.len().min(output.len()));
    CheckOutcome::Differs {
        offset: offset as u64,
        written_len: output.len() as u64,
    }
}

/// The field path of the value that holds byte `offset` of a file, found by reading the
/// file cut at that offset (while count checks still see the whole file): the read fails
/// inside exactly that value.
pub fn field_at(format: Format, bytes: &[u8], offset: u64) -> Option<String> {
    let cut = bytes.get(..usize::try_from(offset).ok()?)?;
    let mut input = CutInput {
        inner: SliceInput::new(cut),
        end: bytes.len() as u64,
    };
    let err = match format {
        Format::Pmx => crate::pmx::Pmx::decode(&mut input, &()).err()?,
        Format::Pmd => crate::pmd::Pmd::decode(&mut input, &()).err()?,
        Format::Vpd => crate::vpd::Vpd::from_bytes(cut).err()?,
        Format::Vmd => crate::vmd::Vmd::decode(&mut input, &()).err()?,
    };
    Some(err.path_string())
}

/// An input that reports the whole file's end but holds only its first bytes.
struct CutInput<'a> {
    inner: SliceInput<'a>,
    end: u64,
}

impl Input for CutInput<'_> {
    fn position(&self) -> u64 {
        self.inner.position()
    }
    fn end(&self) -> u64 {
        self.end
    }
    fn read_into(&mut self, buf: &mut [u8]) -> Result<()> {
        self.inner.read_into(buf)
    }
}

/// One fact `mmd info` reports: a name and a value.
#[derive(Debug, Clone, PartialEq)]
pub enum InfoValue {
    /// A number.
    Count(u64),
    /// A number that may be absent (a block missing at the end of the file).
    MaybeCount(Option<u64>),
    /// A decimal number.
    Number(f64),
    /// A piece of text.
    Text(String),
    /// A list of names.
    List(Vec<String>),
}

impl std::fmt::Display for InfoValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InfoValue::Count(n) => write!(f, "{n}"),
            InfoValue::MaybeCount(Some(n)) => write!(f, "{n}"),
            InfoValue::MaybeCount(None) => f.write_str("absent"),
            InfoValue::Number(x) => write!(f, "{x}"),
            InfoValue::Text(s) => f.write_str(s),
            InfoValue::List(v) => write!(f, "{} ({})", v.len(), v.join(", ")),
        }
    }
}

/// What `mmd info` reports about a file: its format and named facts in a fixed order.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// The format.
    pub format: Format,
    /// Facts in display order (`version`, counts per section, ...).
    pub facts: Vec<(&'static str, InfoValue)>,
}

/// Reads `bytes` as `format` and collects what `mmd info` shows: version and counts per
/// section; for VMD also the kind, frame range, duration at 30 fps, distinct bone and morph
/// names and camera cuts.
pub fn info(format: Format, bytes: &[u8]) -> Result<Info> {
    use InfoValue::*;
    let n = |x: usize| Count(x as u64);
    let maybe = |x: Option<usize>| MaybeCount(x.map(|v| v as u64));
    let facts = match format {
        Format::Pmx => {
            let m = crate::pmx::Pmx::from_bytes(bytes)?;
            let ctx = m.context()?;
            vec![
                ("version", Number(f64::from(m.header.version))),
                ("encoding", Text(format!("{:?}", ctx.encoding))),
                ("additional_uv", n(ctx.additional_uv as usize)),
                ("index_widths", Text(format!("{:?}", ctx.widths))),
                ("name", Text(m.model.name.to_string_lossy().into_owned())),
                ("vertices", n(m.vertices.len())),
                ("face_indices", n(m.faces.len())),
                ("textures", n(m.textures.len())),
                ("materials", n(m.materials.len())),
                ("bones", n(m.bones.len())),
                ("morphs", n(m.morphs.len())),
                ("display_frames", n(m.display_frames.len())),
                ("rigid_bodies", n(m.rigid_bodies.len())),
                ("joints", n(m.joints.len())),
                ("soft_bodies", maybe(m.soft_bodies.as_ref().map(Vec::len))),
                ("trailing_bytes", n(m.trailing.len())),
            ]
        }
        Format::Pmd => {
            let s = crate::pmd::Pmd::from_bytes(bytes)?.summary();
            vec![
                ("version", Number(f64::from(s.version))),
                ("vertices", n(s.vertices)),
                ("face_indices", n(s.face_indices)),
                ("materials", n(s.materials)),
                ("bones", n(s.bones)),
                ("ik_chains", n(s.ik_chains)),
                ("morphs", n(s.morphs)),
                ("morph_display", n(s.morph_display)),
                ("bone_frames", n(s.bone_frames)),
                ("bone_display", n(s.bone_display)),
                ("english_flag", MaybeCount(s.english_flag.map(u64::from))),
                ("toon_textures", Text(s.toon_textures.to_string())),
                ("rigid_bodies", maybe(s.rigid_bodies)),
                ("joints", maybe(s.joints)),
                ("trailing_bytes", n(s.trailing_bytes)),
            ]
        }
        Format::Vmd => {
            let s = crate::vmd::Vmd::from_bytes(bytes)?.summary();
            vec![
                (
                    "version",
                    Text(s.version.map(|v| format!("{v:?}")).unwrap_or_default()),
                ),
                ("model_name", Text(s.model_name)),
                ("kind", Text(format!("{:?}", s.kind).to_lowercase())),
                ("bone_keys", n(s.bone_keys)),
                ("morph_keys", maybe(s.morph_keys)),
                ("camera_keys", maybe(s.camera_keys)),
                ("light_keys", maybe(s.light_keys)),
                ("self_shadow_keys", maybe(s.self_shadow_keys)),
                ("show_ik_keys", maybe(s.show_ik_keys)),
                ("trailing_bytes", n(s.trailing_bytes)),
                (
                    "frame_range",
                    Text(
                        s.frame_range
                            .map(|(a, b)| format!("{a}..={b}"))
                            .unwrap_or_else(|| "none".into()),
                    ),
                ),
                ("duration_secs", Number(s.duration_secs)),
                ("bone_names", List(s.bone_names)),
                ("morph_names", List(s.morph_names)),
                ("camera_cuts", n(s.camera_cuts)),
            ]
        }
        Format::Vpd => {
            let v = crate::vpd::Vpd::from_bytes(bytes)?;
            let pose = v.pose();
            vec![
                ("model_file", Text(pose.model_file.clone())),
                ("bones", n(pose.bones.len())),
                ("morphs", n(pose.morphs.len())),
                ("warnings", n(v.warnings().len())),
            ]
        }
    };
    Ok(Info { format, facts })
}
