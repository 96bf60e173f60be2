//! What would break in MikuMikuDance: checks on a model (PMX or PMD) and on a motion (VMD)
//! or pose (VPD), alone or bound to a model, for exporters' regression tests.
//!
//! A byte-exact round trip says a file reads; it does not say that MMD will load the model,
//! that a motion will bind to it, or that it will move as intended. Each check here is a
//! [`Rule`] with a stable code (`E001`, `W012`, `I001`), a [`Severity`] and its
//! documentation (what, why it matters, the evidence, how to fix), all in one table,
//! [`RULES`], that `mmd lint` and the generated reference (`mmd-spec/reference/lint.md`)
//! read. A check gives [`Finding`]s: the rule, the field path (`bones[41].name`, spelled as
//! the rest of the crate spells paths) and a message stating the rule for this record.
//!
//! Text from a file (names, paths) reaches a message only quoted and escaped (`{:?}`), as
//! `mmd dump` shows it, so a finding is safe to print on a terminal.
//!
//! ```
//! use mmd_formats::lint::{self, Model, Severity};
//! use mmd_formats::pmx::{Bone, BoneFlags, BoneTail, Pmx, PmxContext};
//! use mmd_formats::{BoneIndex, PmxText, TextEncoding};
//!
//! let mut model = Pmx::new("model", &PmxContext::default());
//! model.bones.push(Bone {
//!     name: PmxText::new("右ひじ捩れ補助先", TextEncoding::Utf16Le),
//!     name_en: PmxText::new("", TextEncoding::Utf16Le),
//!     position: [0.0; 3],
//!     parent: BoneIndex::NONE,
//!     layer: 0,
//!     flags: BoneFlags::ROTATABLE,
//!     tail: BoneTail::Offset([0.0; 3]),
//!     inherit: None,
//!     fixed_axis: None,
//!     local_axes: None,
//!     external_parent: None,
//!     ik: None,
//! });
//! let findings = lint::check_model(Model::Pmx(&model));
//! let long = findings.iter().find(|f| f.code() == "W012").unwrap();
//! assert_eq!(long.severity(), Severity::Warning);
//! assert_eq!(long.path, "bones[0].name");
//! assert_eq!(
//!     long.to_string(),
//!     "warning W012 bones[0].name: \"右ひじ捩れ補助先\" is 16 bytes in Shift_JIS; \
//!      a VMD key holds 15, so no motion can move this bone"
//! );
//! ```

mod files;
mod motion;
mod pmd;
mod pmx;
mod rules;
mod shared;
#[cfg(test)]
mod tests;

use std::fmt;
use std::path::Path;

pub use rules::RULES;

use crate::pmd::Pmd;
use crate::vmd::Vmd;
use crate::vpd::Vpd;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// MMD fails to load the file or shows something broken.
    Error,
    /// It loads, but something does not work as the author meant (a bone no motion can
    /// move, a track that binds to nothing).
    Warning,
    /// Legal, and MMD handles it, but a trap for other tools.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`, as `mmd lint` prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a rule is about (the reference groups rules by topic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// Indices in range for their kind.
    References,
    /// Parents, deform order, inherits, IK.
    Skeleton,
    /// Bone and morph names, as motions name them.
    Names,
    /// Vertex weights and the vertices morphs move.
    Weights,
    /// The face list and the materials' runs of it.
    Faces,
    /// The editor's display frames.
    DisplayFrames,
    /// Rigid bodies and joints, and the bones physics drives.
    Physics,
    /// Texture files.
    Files,
    /// Motions and poses, alone or bound to a model.
    Motion,
}

impl Topic {
    /// The topic's name in the reference (`display frames`).
    pub const fn name(self) -> &'static str {
        match self {
            Topic::References => "references",
            Topic::Skeleton => "skeleton",
            Topic::Names => "names",
            Topic::Weights => "weights",
            Topic::Faces => "faces",
            Topic::DisplayFrames => "display frames",
            Topic::Physics => "physics",
            Topic::Files => "files",
            Topic::Motion => "motion",
        }
    }
}

/// One rule: its stable code, severity and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable code: `E` (error), `W` (warning) or `I` (information) and three digits.
    pub code: &'static str,
    /// How bad a finding of this rule is.
    pub severity: Severity,
    /// What it is about.
    pub topic: Topic,
    /// The files it checks (`PMX, PMD`; `VMD, VPD with --model`).
    pub applies: &'static str,
    /// The rule in a few words (`a parent cycle`).
    pub title: &'static str,
    /// What is checked, exactly.
    pub what: &'static str,
    /// Why it matters: what breaks in MMD or in other players.
    pub why: &'static str,
    /// The evidence for the rule: the format fact or observed behaviour it rests on.
    pub evidence: &'static str,
    /// How to fix a file that breaks it.
    pub fix: &'static str,
}

/// The rule with this code (`E001`), if there is one; letter case is ignored.
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code.eq_ignore_ascii_case(code))
}

/// One thing found: the rule broken, where, and what exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: &'static Rule,
    /// The field path (`bones[41].name`, `bone_keys[3].rotation`), in the form of
    /// [`crate::path`].
    pub path: String,
    /// The rule stated for this record, file text quoted and escaped.
    pub message: String,
}

impl Finding {
    /// The rule's code.
    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    /// The rule's severity.
    pub fn severity(&self) -> Severity {
        self.rule.severity
    }
}

impl fmt::Display for Finding {
    /// `SEVERITY CODE path: message`, as `mmd lint` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}: {}",
            self.rule.severity, self.rule.code, self.path, self.message
        )
    }
}

/// A model to check, or to bind a motion or pose to.
#[derive(Debug, Clone, Copy)]
pub enum Model<'a> {
    /// A PMX model.
    Pmx(&'a crate::pmx::Pmx),
    /// A PMD model.
    Pmd(&'a Pmd),
}

/// Checks a model: references, skeleton, names, weights, faces, display frames, physics
/// and the texture paths' form (not whether the files exist: [`check_texture_files`]).
/// Findings come in the order of the model's sections.
pub fn check_model(model: Model<'_>) -> Vec<Finding> {
    match model {
        Model::Pmx(m) => pmx::check(m),
        Model::Pmd(m) => pmd::check(m),
    }
}

/// Checks that every texture the model names exists under `dir`, the model's folder
/// (rule W020). Paths are taken with Windows separators and letter case ignored, as MMD
/// on Windows finds them; absolute paths are left to [`check_model`] (W021).
pub fn check_texture_files(model: Model<'_>, dir: &Path) -> Vec<Finding> {
    files::check_on_disk(model, dir)
}

/// Checks a motion: keys for the same track and frame, rotations far from unit length,
/// interpolation beyond 127, cameras with no field of view; with a model, also the tracks
/// and IK switches that bind to nothing and the physics-driven bones it keys.
pub fn check_motion(motion: &Vmd, model: Option<Model<'_>>) -> Vec<Finding> {
    motion::check_vmd(motion, model)
}

/// Checks a pose: two entries for one bone or morph, rotations far from unit length; with
/// a model, also the names that bind to nothing and the physics-driven bones it poses.
pub fn check_pose(pose: &Vpd, model: Option<Model<'_>>) -> Vec<Finding> {
    motion::check_vpd(pose, model)
}

/// The findings of `code`'s rule (a helper the checks share).
fn finding(code: &str, path: impl Into<String>, message: impl Into<String>) -> Finding {
    // Every code the checks use is in the table (a unit test checks it); an unknown one
    // would be a bug, reported as the first rule rather than a panic.
    let rule = rule(code).unwrap_or(&RULES[0]);
    Finding {
        rule,
        path: path.into(),
        message: message.into(),
    }
}
