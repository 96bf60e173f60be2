//! What `mmd info` says about a file: named facts, in a fixed order per format, taken
//! from each format's summary ([`Pmx::summary`], [`Pmd::summary`], [`Vmd::summary`]) or,
//! for a pose, from [`Vpd::pose`]. [`info`](super::info) reads a file and collects them.

use std::fmt;

use super::Format;
use crate::error::Result;
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
    /// A piece of text.
    Text(String),
    /// A list of names.
    List(Vec<String>),
}

impl fmt::Display for InfoValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

/// The facts of a PMX model.
pub(super) fn pmx_facts(model: &Pmx) -> Result<Vec<Fact>> {
    use InfoValue::{Number, Text};
    let s = model.summary();
    let ctx = model.context()?;
    Ok(vec![
        ("version", Number(f64::from(s.version))),
        ("encoding", Text(format!("{:?}", ctx.encoding))),
        ("additional_uv", count(usize::from(ctx.additional_uv))),
        ("index_widths", Text(format!("{:?}", ctx.widths()))),
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
    use InfoValue::{MaybeCount, Number, Text};
    let s = model.summary();
    vec![
        ("version", Number(f64::from(s.version))),
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
    use InfoValue::{List, Number, Text};
    let s = motion.summary();
    let frame_range = s
        .frame_range
        .map_or_else(|| "none".into(), |(a, b)| format!("{a}..={b}"));
    vec![
        (
            "version",
            Text(s.version.map(|v| format!("{v:?}")).unwrap_or_default()),
        ),
        ("model_name", Text(s.model_name)),
        ("kind", Text(s.kind.name().to_owned())),
        ("bone_keys", count(s.bone_keys)),
        ("morph_keys", maybe(s.morph_keys)),
        ("camera_keys", maybe(s.camera_keys)),
        ("light_keys", maybe(s.light_keys)),
        ("self_shadow_keys", maybe(s.self_shadow_keys)),
        ("show_ik_keys", maybe(s.show_ik_keys)),
        ("trailing_bytes", count(s.trailing_bytes)),
        ("frame_range", Text(frame_range)),
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
