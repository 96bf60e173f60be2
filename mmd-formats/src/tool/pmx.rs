//! `mmd pmx`: edits of PMX models that change only the bytes they are asked to change
//! (`recolor`, `rename`), and a read-only listing of the bone tree (`bones`).
//!
//! The edits write where [`Destination`] says (`-o OUT`, `--in-place` or `--dry-run`, as
//! every edit does), never over their input unless `--in-place` is given, and atomically,
//! so a failed run leaves every file as it was. Before writing, the result is read back
//! and compared with the edited model.

use std::io::Write;
use std::path::{Path, PathBuf};

use mmd_formats::inspect::Format;
use mmd_formats::pmx::edit::{
    ColorTarget, EditError, Item, Lang, NameTarget, RecolorReport, RenameReport,
};
use mmd_formats::pmx::skeleton::deform_order;
use mmd_formats::pmx::{BoneFlags, Pmx};
use serde_json::{json, Value};

use crate::tool::exit::{self, Exit, Outcome, Stop};
use crate::tool::input::{self, Problem};
use crate::tool::output::{self, Destination};
use crate::tool::shown;

/// Exit codes of `mmd pmx recolor` and `mmd pmx rename`, as shown in `--help`.
pub const EDIT_EXIT_CODES: &str = "\
Exit codes:
  0  the edit was made and the result written (or, with --dry-run, computed)
  1  the input does not read as PMX, or the edit cannot be made: no such material, bone
     or morph, a name that several records share (give an index), or a result that does
     not write
  2  usage error; the input cannot be read or is not a PMX file; the output is the input
     and --in-place was not given; the output cannot be written";

/// Exit codes of `mmd pmx bones`, as shown in `--help`.
pub const BONES_EXIT_CODES: &str = "\
Exit codes:
  0  the bones were listed (bad parent links are listed as warnings, not failures)
  1  the input does not read as PMX
  2  usage error; the input cannot be read or is not a PMX file";

/// Exit codes of `mmd pmx`, as shown in `--help`.
pub const EXIT_CODES: &str = "\
Exit codes: 0 = done; 1 = the model does not read or the edit cannot be made; 2 = usage
error, unreadable input, not a PMX file, or an output that would overwrite the input
(see each subcommand's --help).";

/// The long description of `mmd pmx recolor`.
const RECOLOR_ABOUT: &str = "\
Set one or more RGB colours of a material, writing nothing else.

Only the three floats of each colour named are written (12 bytes each): the diffuse alpha
(the material's opacity) and the specular strength are kept. Without --diffuse,
--specular or --ambient, the diffuse colour is changed. A component outside 0 to 1 (the
range of MMD's colours) is written as given, with a warning.

The material is a name (local, then English) or, when no material has that name, an
index. Prints one line per colour changed (old and new values), then the bytes rewritten
and how many of them changed value: `wrote out.pmx (N bytes, 12 bytes rewritten, 2 of
them changed)`.";

/// The long description of `mmd pmx rename`.
const RENAME_ABOUT: &str = "\
Rename the model, a bone, a material or a morph, changing nothing else.

The new name is written in the model's text encoding (UTF-16LE or UTF-8); when its length
differs, every later byte moves. OLD is a name (local, then English) or, when no record
has that name, an index; --english renames the English name instead of the local one.
Warns when a bone or morph name does not fit a VMD key (15 bytes of Shift_JIS), or when
another record has the same name.";

/// The long description of `mmd pmx bones`.
const BONES_ABOUT: &str = "\
List the bones in topological order (every parent before its children, even where the file
puts a parent after its child), with each bone's parent, depth, layer, position relative to
its parent (absolute for a root) and whether physics drives it (a rigid body of mode 1 or 2
is attached: leave such bones out of a pose export).

Columns: index, parent (-1 = none), depth, layer, deform (the bone's place in the deform
order: physics pass, then layer, then index), physics ('physics' or '-'), local x y z,
name. Bad parent links (past the last bone, a cycle) are ignored in the tree and listed as
warnings on stderr.";

/// Arguments of `mmd pmx`.
#[derive(Debug, clap::Args)]
pub struct PmxArgs {
    /// The PMX subcommand.
    #[command(subcommand)]
    pub command: PmxCommand,
}

/// The `mmd pmx` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum PmxCommand {
    /// Set a material's colour (RGB only; the diffuse alpha is kept).
    #[command(long_about = RECOLOR_ABOUT, after_help = EDIT_EXIT_CODES)]
    Recolor(RecolorArgs),
    /// Rename the model, a bone, a material or a morph.
    #[command(long_about = RENAME_ABOUT, after_help = EDIT_EXIT_CODES)]
    Rename(RenameArgs),
    /// List the bones: topological order, local positions, physics bones.
    #[command(long_about = BONES_ABOUT, after_help = BONES_EXIT_CODES)]
    Bones(BonesArgs),
}

/// Arguments of `mmd pmx recolor`.
#[derive(Debug, clap::Args)]
pub struct RecolorArgs {
    /// The model to edit.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The material: its name (local, then English), or else its index.
    #[arg(long, value_name = "NAME|INDEX", allow_hyphen_values = true)]
    pub material: String,
    /// The new colour: three finite numbers, usually 0 to 1 (for example 1,0.5,0).
    #[arg(long, value_name = "R,G,B", value_parser = parse_rgb, allow_hyphen_values = true)]
    pub rgb: Rgb,
    /// Change the diffuse colour (the default when no colour is named).
    #[arg(long)]
    pub diffuse: bool,
    /// Change the specular colour.
    #[arg(long)]
    pub specular: bool,
    /// Change the ambient colour.
    #[arg(long)]
    pub ambient: bool,
    /// Where to write the result.
    #[command(flatten)]
    pub destination: Destination,
    /// Print what was changed as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Three colour components.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgb(pub [f32; 3]);

/// Parses `R,G,B`: three finite numbers separated by commas.
fn parse_rgb(s: &str) -> Result<Rgb, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [r, g, b] = parts.as_slice() else {
        return Err(format!(
            "expected three numbers R,G,B, found {} part(s)",
            parts.len()
        ));
    };
    let num = |t: &str| -> Result<f32, String> {
        match t.parse::<f32>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(x) => Err(format!("expected a finite number, found {x}")),
            Err(_) => Err(format!("expected a number, found {t:?}")),
        }
    };
    Ok(Rgb([num(r)?, num(g)?, num(b)?]))
}

/// What `mmd pmx rename` renames: exactly one of these.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
pub struct RenameWhat {
    /// Rename a bone: OLD is its name (local, then English) or index.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"], allow_hyphen_values = true)]
    pub bone: Option<Vec<String>>,
    /// Rename a material: OLD is its name (local, then English) or index.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"], allow_hyphen_values = true)]
    pub material: Option<Vec<String>>,
    /// Rename a morph: OLD is its name (local, then English) or index.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"], allow_hyphen_values = true)]
    pub morph: Option<Vec<String>>,
    /// Rename the model.
    #[arg(long, value_name = "NEW", allow_hyphen_values = true)]
    pub model: Option<String>,
}

/// Arguments of `mmd pmx rename`.
#[derive(Debug, clap::Args)]
pub struct RenameArgs {
    /// The model to edit.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// What to rename.
    #[command(flatten)]
    pub what: RenameWhat,
    /// Change the English name instead of the local (usually Japanese) one.
    #[arg(long)]
    pub english: bool,
    /// Where to write the result.
    #[command(flatten)]
    pub destination: Destination,
    /// Print what was changed as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `mmd pmx bones`.
#[derive(Debug, clap::Args)]
pub struct BonesArgs {
    /// The model to list.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `mmd pmx`.
pub fn run(args: &PmxArgs, out: &mut dyn Write) -> Outcome {
    match &args.command {
        PmxCommand::Recolor(a) => recolor(a, out),
        PmxCommand::Rename(a) => rename(a, out),
        PmxCommand::Bones(a) => bones(a, out),
    }
}

/// One change an edit made, for the report.
enum Change {
    Recolor(RecolorReport),
    Rename(RenameReport),
}

impl Change {
    fn line(&self) -> String {
        match self {
            Change::Recolor(r) => r.to_string(),
            Change::Rename(r) => r.to_string(),
        }
    }

    /// How many bytes the edit wrote over, when it is a fixed number: the three floats of
    /// a colour (12 bytes), whether or not their values changed. `None` for a rename,
    /// whose text may change length.
    fn rewritten(&self) -> Option<usize> {
        match self {
            Change::Recolor(r) => Some(std::mem::size_of_val(&r.new)),
            Change::Rename(_) => None,
        }
    }

    fn warnings(&self) -> Vec<String> {
        match self {
            Change::Recolor(r) => {
                if r.new.iter().all(|c| (0.0..=1.0).contains(c)) {
                    return Vec::new();
                }
                let [red, green, blue] = r.new;
                vec![format!(
                    "materials[{}].{}: the colour {red},{green},{blue} has a component outside \
                     0 to 1, the range of MMD's colours: written as given",
                    r.material,
                    r.target.field()
                )]
            }
            Change::Rename(r) => r
                .warnings
                .iter()
                .map(|w| format!("{}: {w}", r.target))
                .collect(),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Change::Recolor(r) => json!({
                "edit": "recolor",
                "field": format!("materials[{}].{}", r.material, r.target.field()),
                "material": r.material,
                "material_name": r.material_name,
                "old": r.old.map(num),
                "new": r.new.map(num),
                "alpha_kept": r.alpha.map(num),
                "changed": r.changed(),
            }),
            Change::Rename(r) => {
                let field = match r.target {
                    NameTarget::Model => format!("model.{}", r.lang.field()),
                    t => format!("{t}.{}", r.lang.field()),
                };
                json!({
                    "edit": "rename",
                    "field": field,
                    "old": r.old.to_string_lossy(),
                    "new": r.new.to_string_lossy(),
                    "old_bytes": r.old.as_bytes().len(),
                    "new_bytes": r.new.as_bytes().len(),
                    "length_change": r.length_change(),
                    "changed": r.changed(),
                    "warnings": r.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })
            }
        }
    }
}

/// An `f32` as a JSON number with its shortest decimal form (0.8, not 0.800000011920929);
/// `null` when it is not finite.
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

fn recolor(args: &RecolorArgs, out: &mut dyn Write) -> Outcome {
    let mut targets = Vec::new();
    if args.diffuse || !(args.specular || args.ambient) {
        targets.push(ColorTarget::Diffuse);
    }
    if args.specular {
        targets.push(ColorTarget::Specular);
    }
    if args.ambient {
        targets.push(ColorTarget::Ambient);
    }
    let edit = |pmx: &mut Pmx| -> Result<Vec<Change>, EditError> {
        let m = find(pmx, Item::Material, &args.material)?;
        targets
            .iter()
            .map(|&t| pmx.recolor(m, t, args.rgb.0).map(Change::Recolor))
            .collect()
    };
    run_edit(
        "recolor",
        &args.input,
        &args.destination,
        args.json,
        out,
        edit,
    )
}

fn rename(args: &RenameArgs, out: &mut dyn Write) -> Outcome {
    let lang = if args.english {
        Lang::English
    } else {
        Lang::Local
    };
    let w = &args.what;
    let pick = [
        (Item::Bone, &w.bone),
        (Item::Material, &w.material),
        (Item::Morph, &w.morph),
    ]
    .into_iter()
    .find_map(|(item, v)| match v.as_deref() {
        Some([old, new]) => Some((Some((item, old.clone())), new.clone())),
        _ => None,
    })
    .or_else(|| w.model.clone().map(|new| (None, new)));
    let Some((record, new_name)) = pick else {
        // clap requires exactly one of the four with the right number of values.
        return Err(Stop::trouble(
            "give one of --bone, --material, --morph (OLD NEW) or --model NEW",
        ));
    };
    let edit = |pmx: &mut Pmx| -> Result<Vec<Change>, EditError> {
        let target = match &record {
            None => NameTarget::Model,
            Some((item, key)) => {
                let i = find(pmx, *item, key)?;
                match item {
                    Item::Bone => NameTarget::Bone(i),
                    Item::Material => NameTarget::Material(i),
                    Item::Morph => NameTarget::Morph(i),
                }
            }
        };
        Ok(vec![Change::Rename(pmx.rename(target, lang, &new_name)?)])
    };
    run_edit(
        "rename",
        &args.input,
        &args.destination,
        args.json,
        out,
        edit,
    )
}

/// A record by name (local, then English) or, when no record has that name, by a decimal
/// index.
fn find(pmx: &Pmx, item: Item, key: &str) -> Result<usize, EditError> {
    if let Some(index) = pmx.find_name(item, key)? {
        return Ok(index);
    }
    let count = pmx.count(item);
    match key.parse::<usize>() {
        Ok(index) if index < count => Ok(index),
        Ok(index) if key.bytes().all(|b| b.is_ascii_digit()) => {
            Err(EditError::OutOfRange { item, index, count })
        }
        _ => Err(EditError::NotFound {
            item,
            key: key.to_owned(),
            count,
        }),
    }
}

/// Reads the input, applies `edit`, checks the result reads back as the edited model,
/// writes it atomically (unless it is a dry run) and reports the changes.
fn run_edit(
    cmd: &str,
    input: &Path,
    destination: &Destination,
    json: bool,
    out: &mut dyn Write,
    edit: impl FnOnce(&mut Pmx) -> Result<Vec<Change>, EditError>,
) -> Outcome {
    let shown = input.display();
    let target = destination.target(&[input])?;
    // Held from before the read until the rename: no concurrent edit is lost.
    let held = if destination.in_place && target.is_some() {
        Some(output::Held::take(input)?)
    } else {
        None
    };
    let (before, mut pmx) = input::open_as::<Pmx>(input, Format::Pmx)?;
    let changes = input::guarded(Format::Pmx, || Ok(edit(&mut pmx)))
        .map_err(|p| p.at(input))?
        .map_err(|e| Stop::failed(format!("{shown}: {e}")))?;
    let (after, same) = input::guarded(Format::Pmx, || {
        let bytes = pmx.to_bytes()?;
        let again = Pmx::from_bytes(&bytes)?;
        Ok((bytes, again == pmx))
    })
    .map_err(|problem| match problem {
        Problem::Read { error, .. } => {
            Stop::failed(format!("{shown}: cannot write the result: {error}"))
        }
        other => other.at(input),
    })?;
    if !same {
        return Err(Stop::failed(format!(
            "{shown}: the edited model reads back differently (this is a bug in \
             mmd-formats); nothing written"
        )));
    }
    if let Some(target) = &target {
        output::write(target, &after, held.as_ref())?;
    }
    let changed_bytes = if before.len() == after.len() {
        Some(before.iter().zip(&after).filter(|(a, b)| a != b).count())
    } else {
        None
    };
    let rewritten: Option<usize> = changes.iter().map(Change::rewritten).sum();
    let warnings: Vec<String> = changes.iter().flat_map(Change::warnings).collect();
    if json {
        let doc = json!({
            "input": shown.to_string(),
            "output": target.as_ref().map(|t| t.display().to_string()),
            "in_place": destination.in_place,
            "written": target.is_some(),
            "size_before": before.len(),
            "size_after": after.len(),
            "bytes_rewritten": rewritten,
            "bytes_changed": changed_bytes,
            "changes": changes.iter().map(Change::to_json).collect::<Vec<_>>(),
            "warnings": warnings,
        });
        writeln!(out, "{doc}")?;
    } else {
        for c in &changes {
            writeln!(out, "{}", shown::line(&c.line()))?;
        }
        for w in &warnings {
            exit::warn(&format!("mmd pmx {cmd}"), w);
        }
        let delta = after.len() as i64 - before.len() as i64;
        let detail = match (rewritten, changed_bytes) {
            (Some(r), Some(n)) => format!("{r} bytes rewritten, {n} of them changed"),
            (None, Some(n)) => format!("{n} bytes changed"),
            (_, None) => format!("{delta:+} bytes"),
        };
        match &target {
            Some(t) => writeln!(
                out,
                "wrote {} ({} bytes, {detail})",
                shown::path(t),
                after.len()
            )?,
            None => writeln!(
                out,
                "dry run, nothing written ({} bytes, {detail})",
                after.len()
            )?,
        }
    }
    Ok(Exit::Done)
}

fn bones(args: &BonesArgs, out: &mut dyn Write) -> Outcome {
    let (_, pmx) = input::open_as::<Pmx>(&args.input, Format::Pmx)?;
    let skeleton = pmx.skeleton();
    let physics = pmx.physics_bones();
    let local = skeleton.local_positions(&pmx.bones);
    let deform = deform_order(&pmx.bones);
    let mut deform_rank = vec![0usize; pmx.bones.len()];
    for (rank, &i) in deform.iter().enumerate() {
        if let Some(slot) = deform_rank.get_mut(i) {
            *slot = rank;
        }
    }
    let mut warnings: Vec<String> = skeleton
        .problems()
        .iter()
        .map(ToString::to_string)
        .collect();
    warnings.extend(physics.unresolved().iter().map(|(body, bone)| {
        format!("rigid_bodies[{body}]: bone index {bone} is not a bone (ignored)")
    }));
    if args.json {
        let bones: Vec<Value> = skeleton
            .order()
            .iter()
            .filter_map(|&i| {
                let b = pmx.bones.get(i)?;
                Some(json!({
                    "index": i,
                    "name": b.name.to_string_lossy(),
                    "name_en": b.name_en.to_string_lossy(),
                    "parent": b.parent.raw(),
                    "tree_parent": skeleton.parent(i),
                    "depth": skeleton.depth(i),
                    "layer": b.layer,
                    "after_physics": b.flags.contains(BoneFlags::PHYSICS_AFTER_DEFORM),
                    "deform_rank": deform_rank.get(i),
                    "physics": physics.contains(i),
                    "physics_body": physics.driven_by(i),
                    "position": b.position.map(num),
                    "local": local.get(i).map(|p| p.map(num)),
                }))
            })
            .collect();
        let doc = json!({
            "path": args.input.display().to_string(),
            "count": pmx.bones.len(),
            "order": skeleton.order(),
            "deform_order": deform,
            "physics_bones": physics.bones().collect::<Vec<_>>(),
            "bones": bones,
            "warnings": warnings,
        });
        writeln!(out, "{doc}")?;
        return Ok(Exit::Done);
    }
    writeln!(out, "file: {}", shown::path(&args.input))?;
    writeln!(
        out,
        "bones: {} ({} driven by physics)",
        pmx.bones.len(),
        physics.len()
    )?;
    writeln!(
        out,
        "{:>5} {:>6} {:>5} {:>5} {:>6} {:<7} {:>32}  name",
        "index", "parent", "depth", "layer", "deform", "physics", "local x y z"
    )?;
    for &i in skeleton.order() {
        let Some(b) = pmx.bones.get(i) else { continue };
        let p = local.get(i).copied().unwrap_or(b.position);
        let xyz = format!("{} {} {}", p[0], p[1], p[2]);
        writeln!(
            out,
            "{:>5} {:>6} {:>5} {:>5} {:>6} {:<7} {:>32}  {}",
            i,
            b.parent.raw(),
            skeleton.depth(i).unwrap_or(0),
            b.layer,
            deform_rank.get(i).copied().unwrap_or(0),
            if physics.contains(i) { "physics" } else { "-" },
            xyz,
            shown::text(&b.name.to_string())
        )?;
    }
    for w in &warnings {
        exit::warn("mmd pmx bones", w);
    }
    Ok(Exit::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A built-in sample with at least two materials, bones and morphs.
    fn model() -> Pmx {
        mmd_formats::samples::pmx_samples()
            .into_iter()
            .map(|(_, b)| Pmx::from_bytes(&b).unwrap())
            .find(|p| p.materials.len() >= 2 && !p.bones.is_empty() && !p.morphs.is_empty())
            .expect("a sample with two materials")
    }

    #[test]
    fn a_record_is_a_name_first_then_a_decimal_index() {
        let mut p = model();
        let count = p.materials.len();
        let second = p.materials[1].name.to_string_lossy().into_owned();
        assert_eq!(find(&p, Item::Material, &second).unwrap(), 1, "by name");
        assert_eq!(find(&p, Item::Material, "1").unwrap(), 1, "by index");
        // A name that is a number wins over the index it spells.
        let encoding = p.context().unwrap().encoding;
        p.materials[1].name = mmd_formats::PmxText::new("0", encoding);
        assert_eq!(
            find(&p, Item::Material, "0").unwrap(),
            1,
            "a name before an index"
        );
        match find(&p, Item::Material, &count.to_string()).unwrap_err() {
            EditError::OutOfRange {
                index, count: c, ..
            } => assert_eq!((index, c), (count, count)),
            e => panic!("{e}"),
        }
        for key in ["no such material", "-1", "99999999999999999999999999"] {
            match find(&p, Item::Material, key).unwrap_err() {
                EditError::NotFound { count: c, .. } => assert_eq!(c, count, "{key}"),
                e => panic!("{key}: {e}"),
            }
        }
    }
}
