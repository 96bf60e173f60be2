//! `mmd pose MODEL MOTION --frame F [--frame F2 ...] [--bone NAME ...] [--json]`: where
//! every bone of a model is at frames of a motion, computed the way MMD does
//! ([`mmd_formats::pose`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use mmd_formats::inspect::Format;
use mmd_formats::pmd::Pmd;
use mmd_formats::pmx::Pmx;
use mmd_formats::pose::{BindReport, Binding, Evaluator, Rig};
use mmd_formats::vmd::Vmd;
use mmd_formats::vpd::Vpd;
use serde_json::{json, Value};

use crate::tool::exit::{self, Exit, Outcome, Stop};
use crate::tool::input::{self, Problem};
use crate::tool::vmd::sample::parse_frame;

/// What `mmd pose` is called in messages.
const NAME: &str = "mmd pose";

/// The long description of `mmd pose`.
pub const LONG_ABOUT: &str = "\
Print where every bone of a model is at frames of a motion, computed the way MMD does.

MODEL is a PMX or PMD model; MOTION a VMD motion, a VPD pose, or - for none (the bind
pose). Formats are told by the files' first bytes. For each --frame (30 a second; a
fraction is a point between two frames; a pose is the same at every frame), in MMD's order:
the bone and morph tracks are sampled (bones and morphs bind to tracks by exact name, each
IK is on or off as the motion's IK block says at that frame), group and bone morphs are
applied (a group morph that reaches itself is refused), then each bone in deform order
(deform layer ascending, then bone index, the deform-after-physics bones last) takes its
append (付与: rotation and/or movement, any ratio), its local transform, its parent's
transform and, for an IK bone, the CCD solve of its chain (the model's loop count, the
per-iteration unit angle, the links' angle limits). PMD models go through the same rules
(IK chains after the other bones; the knees limited to -180..-0.5 degrees about X).
Physics is not simulated: bones that rigid bodies would move follow the motion.

Each line of the table is one bone: index, world position x y z, world rotation as a
unit quaternion x y z w (w >= 0), and the name (escaped). Positions and rotations are in
the model's own space, MMD's left-handed coordinates, as stored. --bone NAME (repeatable)
prints only the bones of that name. --json prints one document instead:
{\"frames\": [{\"frame\": F, \"bones\": [{\"index\": i, \"name\": \"...\", \"position\": [x, y, z],
\"rotation\": [x, y, z, w]}, ...]}]}.

On stderr: how many of the motion's bone and morph tracks and IK switches bind to the
model, naming those that do not, and what was wrong in the model and how it was repaired
(parent or append cycles, indices out of range, IK loop counts above 256, NaN limits).";

/// Exit codes of `mmd pose`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  the poses were printed
  1  MODEL or MOTION does not read as its format
  2  usage error (no --frame, a frame that is not a finite number, a --bone the model has
     not), a MODEL or MOTION that cannot be read, is in no supported format, or is not a
     model (PMX, PMD) or a motion or pose (VMD, VPD)";

/// Arguments of `mmd pose`.
#[derive(Debug, clap::Args)]
pub struct PoseArgs {
    /// The model (PMX or PMD).
    pub model: PathBuf,
    /// The motion (VMD), a pose (VPD), or - for the bind pose.
    pub motion: PathBuf,
    /// A frame to evaluate (30 a second, fractions allowed; before the first key every
    /// track holds its first key). Repeatable; at least one.
    #[arg(long, required = true, value_name = "F", allow_negative_numbers = true,
          value_parser = parse_frame)]
    pub frame: Vec<f64>,
    /// Print only the bones of this name. Repeatable.
    #[arg(long, value_name = "NAME")]
    pub bone: Vec<String>,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The motion given.
enum Motion {
    Rest,
    Vmd(Box<Vmd>),
    Vpd(mmd_formats::vpd::Pose),
}

/// Reads the model as a rig (`mmd vmd bake-ik` reads its model the same way).
pub(crate) fn load_rig(path: &Path) -> Outcome<Rig> {
    let at = |p: Problem| p.at(path);
    let loaded = input::open(path)?;
    let bytes = &loaded.bytes;
    match loaded.format {
        Format::Pmx => {
            let pmx: Pmx = input::decode(Format::Pmx, bytes).map_err(at)?;
            input::run_lib(path, Format::Pmx, || Ok(Rig::from_pmx(&pmx)))
        }
        Format::Pmd => {
            let pmd: Pmd = input::decode(Format::Pmd, bytes).map_err(at)?;
            input::run_lib(path, Format::Pmd, || Ok(Rig::from_pmd(&pmd)))
        }
        found => Err(Stop::trouble(format!(
            "{}: a {found} file, not a model (PMX or PMD)",
            path.display()
        ))),
    }
}

/// Reads the motion (`-`: none).
fn load_motion(path: &Path) -> Outcome<Motion> {
    if path == Path::new("-") {
        return Ok(Motion::Rest);
    }
    let at = |p: Problem| p.at(path);
    let loaded = input::open(path)?;
    match loaded.format {
        Format::Vmd => Ok(Motion::Vmd(Box::new(
            input::decode(Format::Vmd, &loaded.bytes).map_err(at)?,
        ))),
        Format::Vpd => {
            let pose = input::guarded(Format::Vpd, || Ok(Vpd::from_bytes(&loaded.bytes)?.pose()))
                .map_err(at)?;
            Ok(Motion::Vpd(pose))
        }
        found => Err(Stop::trouble(format!(
            "{}: a {found} file, not a motion (VMD) or a pose (VPD)",
            path.display()
        ))),
    }
}

/// A name from a file, safe for a terminal: control characters, quotes and backslashes
/// escaped.
fn shown(name: &str) -> String {
    name.escape_debug().to_string()
}

/// The bind report's lines for stderr.
fn bind_lines(report: &BindReport, motion: &Motion) -> Vec<String> {
    let kind = match motion {
        Motion::Rest => return vec!["no motion: the bind pose".to_owned()],
        Motion::Vmd(_) => "motion",
        Motion::Vpd(_) => "pose",
    };
    let line = |what: &str, bound: usize, total: usize, unbound: &[String]| {
        let mut s = format!("{kind}: {bound} of {total} {what} bind to the model");
        if !unbound.is_empty() {
            let names: Vec<String> = unbound.iter().map(|n| shown(n)).collect();
            s.push_str(&format!("; not bound: {}", names.join(", ")));
        }
        s
    };
    let mut lines = vec![
        line(
            "bone tracks",
            report.bone_bound,
            report.bone_tracks,
            &report.bone_unbound,
        ),
        line(
            "morph tracks",
            report.morph_bound,
            report.morph_tracks,
            &report.morph_unbound,
        ),
    ];
    if matches!(motion, Motion::Vmd(_)) {
        lines.push(line(
            "IK switches",
            report.ik_bound,
            report.ik_tracks,
            &report.ik_unbound,
        ));
    }
    lines
}

/// A number for JSON: the shortest decimal that reads back as the same f32; `null` for
/// NaN and infinities.
fn num(x: f32) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    format!("{x}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// Runs `mmd pose`.
pub fn run(a: &PoseArgs, out: &mut dyn Write) -> Outcome {
    let rig = load_rig(&a.model)?;
    let motion = load_motion(&a.motion)?;
    let mut selected: Vec<usize> = Vec::new();
    if a.bone.is_empty() {
        selected.extend(0..rig.bones().len());
    } else {
        for name in &a.bone {
            let matching: Vec<usize> = (0..rig.bones().len())
                .filter(|&i| rig.bones()[i].name == *name)
                .collect();
            if matching.is_empty() {
                return Err(Stop::trouble(format!(
                    "{}: no bone named \"{}\"",
                    a.model.display(),
                    shown(name)
                )));
            }
            for i in matching {
                if !selected.contains(&i) {
                    selected.push(i);
                }
            }
        }
    }
    let binding = match &motion {
        Motion::Rest => Binding::rest(),
        Motion::Vmd(vmd) => Binding::vmd(&rig, vmd),
        Motion::Vpd(pose) => Binding::vpd(&rig, pose),
    };
    for line in bind_lines(binding.report(), &motion) {
        let _ = writeln!(std::io::stderr(), "{NAME}: {line}");
    }
    for problem in rig.problems() {
        exit::warn(NAME, &format!("{}: {}", a.model.display(), problem));
    }
    let mut eval = Evaluator::new(&rig);
    let mut frames: Vec<String> = Vec::new();
    for &frame in &a.frame {
        input::guarded(Format::Pmx, || {
            eval.evaluate(&binding, frame);
            Ok(())
        })
        .map_err(|p| p.at(&a.model))?;
        let rows = selected.iter().map(|&i| {
            let p = eval.world_position(i);
            let mut q = eval.world_rotation(i);
            if q.w < 0.0 {
                q = -q;
            }
            (i, p, q)
        });
        if a.json {
            // Written by hand to keep the key order of the documented shape (serde_json's
            // maps sort their keys); each value goes through serde_json.
            let bones: Vec<String> = rows
                .map(|(i, p, q)| {
                    let list = |v: &[f32]| {
                        let items: Vec<String> = v.iter().map(|&x| num(x).to_string()).collect();
                        format!("[{}]", items.join(", "))
                    };
                    format!(
                        "{{\"index\": {i}, \"name\": {}, \"position\": {}, \"rotation\": {}}}",
                        Value::from(rig.bones()[i].name.as_str()),
                        list(&[p.x, p.y, p.z]),
                        list(&[q.x, q.y, q.z, q.w])
                    )
                })
                .collect();
            frames.push(format!(
                "{{\"frame\": {}, \"bones\": [{}]}}",
                json!(frame),
                bones.join(", ")
            ));
        } else {
            writeln!(out, "frame {frame}")?;
            writeln!(
                out,
                "{:>5} {:>38} {:>46}  name",
                "index", "position x y z", "rotation x y z w"
            )?;
            for (i, p, q) in rows {
                writeln!(
                    out,
                    "{:>5} {:>38} {:>46}  {}",
                    i,
                    format!("{} {} {}", p.x, p.y, p.z),
                    format!("{} {} {} {}", q.x, q.y, q.z, q.w),
                    shown(&rig.bones()[i].name)
                )?;
            }
        }
    }
    if a.json {
        writeln!(out, "{{\"frames\": [{}]}}", frames.join(", "))?;
    }
    Ok(Exit::Done)
}
