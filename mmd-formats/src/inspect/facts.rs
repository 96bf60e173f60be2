//! What `mmd info` says about a file: named facts, in a fixed order per format, taken
//! from each format's summary ([`Pmx::summary`], [`Pmd::summary`], [`Vmd::summary`]) or,
//! for a pose, from [`Vpd::pose`]. [`info`](super::info) reads a file and collects them.

use std::fmt;

use super::{escape_text, Format};
use crate::error::Result;
use crate::index::IndexKind;
use crate::pmd::Pmd;
use crate::pmx::Pmx;
use crate::vmd::Vmd;
use crate::vpd::Vpd;

/// One fact `mmd info` reports: a name and a value.
#[derive(Debug, Clone, PartialEq)]
pub enum InfoValue {
    /// A number.
    Count(u64),
    /// A number that may be absent (a block missing at the end of the file).
    MaybeCount(Option<u64>),
    /// A decimal number.
    Number(f64),
    /// A piece of text from the file (a name), printed escaped ([`escape_text`]).
    Text(String),
    /// Text already made printable (the bytes of a signature: printable ASCII, `\0`,
    /// `\\` and `\xNN`), printed as it is.
    Printable(String),
    /// A list of names, each printed escaped ([`escape_text`]).
    List(Vec<String>),
    /// Named values, in a fixed order (the six PMX index widths, by kind).
    Fields(Vec<(String, InfoValue)>),
    /// An inclusive range of frames, `None` when there is none (a motion without keys).
    Range(Option<(u64, u64)>),
    /// Yes or no.
    Flag(bool),
}

impl fmt::Display for InfoValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoValue::Count(n) => write!(f, "{n}"),
            InfoValue::MaybeCount(Some(n)) => write!(f, "{n}"),
            InfoValue::MaybeCount(None) => f.write_str("absent"),
            InfoValue::Number(x) => write!(f, "{x}"),
            InfoValue::Text(s) => f.write_str(&escape_text(s)),
            InfoValue::Printable(s) => f.write_str(s),
            InfoValue::List(v) => {
                write!(f, "{} (", v.len())?;
                for (i, name) in v.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{}", escape_text(name))?;
                }
                f.write_str(")")
            }
            InfoValue::Fields(fields) => {
                for (i, (name, value)) in fields.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{name} {value}")?;
                }
                Ok(())
            }
            InfoValue::Range(Some((first, last))) => write!(f, "{first}..={last}"),
            InfoValue::Range(None) => f.write_str("none"),
            InfoValue::Flag(yes) => f.write_str(if *yes { "yes" } else { "no" }),
        }
    }
}

/// A named fact, in display order.
pub type Fact = (&'static str, InfoValue);

/// What `mmd info` reports about a file: its format and named facts in a fixed order.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// The format.
    pub format: Format,
    /// Facts in display order (`version`, counts per section, ...).
    pub facts: Vec<Fact>,
}

fn count(x: usize) -> InfoValue {
    InfoValue::Count(x as u64)
}

fn maybe(x: Option<usize>) -> InfoValue {
    InfoValue::MaybeCount(x.map(|v| v as u64))
}

/// A version stored as an `f32` (PMX 2.0 or 2.1, PMD 1.0), as the number its shortest
/// decimal form names (2.1, not 2.0999999046325684).
fn version_number(v: f32) -> InfoValue {
    InfoValue::Number(v.to_string().parse().unwrap_or(f64::from(v)))
}

/// The bytes of a fixed signature as text: printable ASCII as it is, `\0` for NUL, `\xNN`
/// for any other byte.
pub(crate) fn escaped(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0 => "\\0".to_owned(),
            b'\\' => "\\\\".to_owned(),
            b' '..=b'~' => char::from(b).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}

/// The facts of a PMX model.
pub(super) fn pmx_facts(model: &Pmx) -> Result<Vec<Fact>> {
    use InfoValue::Text;
    let s = model.summary();
    let ctx = model.context()?;
    let widths = IndexKind::ALL
        .iter()
        .zip(ctx.widths())
        .map(|(kind, width)| (kind.name().replace(' ', "_"), count(usize::from(width))))
        .collect();
    Ok(vec![
        ("version", version_number(s.version)),
        ("encoding", Text(format!("{:?}", ctx.encoding))),
        ("additional_uv", count(usize::from(ctx.additional_uv))),
        ("index_widths", InfoValue::Fields(widths)),
        ("name", Text(s.name)),
        ("vertices", count(s.vertices)),
        ("face_indices", count(s.face_indices)),
        ("textures", count(s.textures)),
        ("materials", count(s.materials)),
        ("bones", count(s.bones)),
        ("morphs", count(s.morphs)),
        ("display_frames", count(s.display_frames)),
        ("rigid_bodies", count(s.rigid_bodies)),
        ("joints", count(s.joints)),
        ("soft_bodies", maybe(s.soft_bodies)),
        ("trailing_bytes", count(s.trailing_bytes)),
    ])
}

/// The facts of a PMD model.
pub(super) fn pmd_facts(model: &Pmd) -> Vec<Fact> {
    use InfoValue::{MaybeCount, Text};
    let s = model.summary();
    vec![
        ("version", version_number(s.version)),
        ("vertices", count(s.vertices)),
        ("face_indices", count(s.face_indices)),
        ("materials", count(s.materials)),
        ("bones", count(s.bones)),
        ("ik_chains", count(s.ik_chains)),
        ("morphs", count(s.morphs)),
        ("morph_display", count(s.morph_display)),
        ("bone_frames", count(s.bone_frames)),
        ("bone_display", count(s.bone_display)),
        ("english_flag", MaybeCount(s.english_flag.map(u64::from))),
        ("toon_textures", Text(s.toon_textures.to_string())),
        ("rigid_bodies", maybe(s.rigid_bodies)),
        ("joints", maybe(s.joints)),
        ("trailing_bytes", count(s.trailing_bytes)),
    ]
}

/// The facts of a VMD motion.
pub(super) fn vmd_facts(motion: &Vmd) -> Vec<Fact> {
    use InfoValue::{Flag, List, MaybeCount, Number, Range, Text};
    let s = motion.summary();
    let frame_range = s.frame_range.map(|(a, b)| (u64::from(a), u64::from(b)));
    let header = &motion.header;
    vec![
        // The version the layout was read with (the width of the model name).
        (
            "version",
            MaybeCount(s.version.map(|v| u64::from(v.number()))),
        ),
        (
            "signature",
            InfoValue::Printable(escaped(&header.signature)),
        ),
        ("standard_signature", Flag(header.has_standard_signature())),
        ("model_name", Text(s.model_name)),
        ("kind", Text(s.kind.name().to_owned())),
        ("bone_keys", count(s.bone_keys)),
        ("morph_keys", maybe(s.morph_keys)),
        ("camera_keys", maybe(s.camera_keys)),
        ("light_keys", maybe(s.light_keys)),
        ("self_shadow_keys", maybe(s.self_shadow_keys)),
        ("show_ik_keys", maybe(s.show_ik_keys)),
        ("trailing_bytes", count(s.trailing_bytes)),
        ("frame_range", Range(frame_range)),
        ("duration_secs", Number(s.duration_secs)),
        ("bone_names", List(s.bone_names)),
        ("morph_names", List(s.morph_names)),
        ("camera_cuts", count(s.camera_cuts)),
    ]
}

/// The facts of a VPD pose.
pub(super) fn vpd_facts(pose_file: &Vpd) -> Vec<Fact> {
    let pose = pose_file.pose();
    vec![
        ("model_file", InfoValue::Text(pose.model_file)),
        ("bones", count(pose.bones.len())),
        ("morphs", count(pose.morphs.len())),
        ("warnings", count(pose_file.warnings().len())),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_numbers_in_their_shortest_form() {
        assert_eq!(version_number(2.1), InfoValue::Number(2.1));
        assert_eq!(version_number(2.0).to_string(), "2");
        assert_eq!(version_number(2.1).to_string(), "2.1");
    }

    #[test]
    fn a_signature_shows_nul_and_other_bytes_escaped() {
        assert_eq!(escaped(b"Data\0\0 a\\\xfd"), "Data\\0\\0 a\\\\\\xfd");
    }

    #[test]
    fn structured_values_display_on_one_line() {
        let widths = InfoValue::Fields(vec![
            ("vertex".into(), InfoValue::Count(2)),
            ("rigid_body".into(), InfoValue::Count(1)),
        ]);
        assert_eq!(widths.to_string(), "vertex 2, rigid_body 1");
        assert_eq!(InfoValue::Range(Some((0, 110))).to_string(), "0..=110");
        assert_eq!(InfoValue::Range(None).to_string(), "none");
        assert_eq!(InfoValue::Flag(false).to_string(), "no");
    }

    /// Issue 25 item 9: a name cannot print a line of its own or a control character; a
    /// signature, already printable, is not escaped twice.
    #[test]
    fn text_from_the_file_is_escaped_signatures_are_not_escaped_twice() {
        let name = InfoValue::Text("m\nformat: VMD\u{1b}[31m\u{7}\r".into());
        assert_eq!(name.to_string(), "m\\nformat: VMD\\u{1b}[31m\\u{7}\\r");
        let names = InfoValue::List(vec!["a\n".into(), "右腕".into()]);
        assert_eq!(names.to_string(), "2 (a\\n, 右腕)");
        let signature = InfoValue::Printable(escaped(b"Vocaloid\0"));
        assert_eq!(signature.to_string(), "Vocaloid\\0");
    }
}
