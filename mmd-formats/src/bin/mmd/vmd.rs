//! `mmd vmd ...`: the VMD toolbox of seed 004 — mirror, trim, merge, speed, fill (edits
//! that write a new file) and sample (a read command).
//!
//! Every edit reads its input whole, makes the edit in memory (changing only what it is
//! asked to change), and writes the result where [`Destination`] says (`-o OUT`,
//! `--in-place` or `--dry-run`, as every edit does), atomically; it never overwrites an
//! input unless `--in-place` is given, and refuses `-o` naming an input. It prints what
//! changed and what was dropped, as lines or (`--json`) as one JSON object.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use mmd_formats::inspect::Format;
use mmd_formats::vmd::edit::{
    BoundaryKey, Conflict, DroppedKey, EditError, FillMode, FillOptions, FilledKey, MergeOptions,
    MergeRule, MirrorOptions, SpeedOptions, TrimOptions,
};
use mmd_formats::vmd::{Block, BlockCounts, Vmd};
use serde_json::{json, Value};

use crate::exit::{Exit, Outcome, Stop};
use crate::input::{self, Problem};
use crate::output::{self, Destination};

/// The exit codes of `mmd vmd`, as shown in `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  done: the result was written (or, with --dry-run, computed); for sample, the value
     was printed
  1  the edit cannot be made: an input is not a readable VMD, a value is out of range
     (FROM > TO, a factor not above 0, a frame beyond 4294967295), or the result cannot
     be written as a VMD; for sample, the track has no key
  2  usage error, an input cannot be read, the output cannot be written, or -o names an
     input without --in-place";

/// How many listed items (dropped keys, renames) the text output shows before `… N more`.
const SHOWN: usize = 10;

/// Arguments of `mmd vmd`.
#[derive(Debug, clap::Args)]
pub struct VmdArgs {
    /// The tool to run.
    #[command(subcommand)]
    pub command: VmdCommand,
}

/// The `mmd vmd` tools.
#[derive(Debug, Subcommand)]
pub enum VmdCommand {
    /// Mirror left to right: position X negated, rotation (x, -y, -z, w), 左 <-> 右 in
    /// bone and IK names; camera (target X, angles Y and Z) and light (direction X) too.
    #[command(after_help = EXIT_CODES)]
    Mirror(MirrorArgs),
    /// Keep the keys in FROM..=TO (both included), moved so that FROM becomes frame 0.
    #[command(after_help = EXIT_CODES)]
    Trim(TrimArgs),
    /// Append B's keys, moved OFFSET frames later, after A's; where both have a key of
    /// one track at one frame, B's wins (or A's with --first-wins).
    #[command(after_help = EXIT_CODES)]
    Merge(MergeArgs),
    /// Play FACTOR times as fast (2 = twice as fast): frame f becomes round(f / FACTOR);
    /// keys that land on a frame their track already has are dropped and listed.
    #[command(after_help = EXIT_CODES)]
    Speed(SpeedArgs),
    /// Give every bone the motion names rest keys (no move, no rotation) at the first and
    /// last frame where it has none (seed 004's union rule).
    #[command(after_help = EXIT_CODES)]
    Fill(FillArgs),
    /// Print the value of one track at a frame (fractional frames allowed).
    #[command(after_help = EXIT_CODES)]
    Sample(SampleArgs),
}

/// Where an edit writes, and how it reports, shared by every edit.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Where the result goes.
    #[command(flatten)]
    pub destination: Destination,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `mmd vmd mirror`.
#[derive(Debug, clap::Args)]
pub struct MirrorArgs {
    /// The motion to mirror.
    pub input: PathBuf,
    /// Leave the camera keys as they are.
    #[arg(long)]
    pub no_camera: bool,
    /// Leave the light keys as they are.
    #[arg(long)]
    pub no_light: bool,
    /// Swap 左 and 右 in morph names too.
    #[arg(long)]
    pub morph_names: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `mmd vmd trim`.
#[derive(Debug, clap::Args)]
pub struct TrimArgs {
    /// The motion to trim.
    pub input: PathBuf,
    /// The first frame to keep.
    pub from: u32,
    /// The last frame to keep.
    pub to: u32,
    /// Keep the frame numbers as they are (FROM does not become 0).
    #[arg(long)]
    pub no_shift: bool,
    /// Add keys at FROM and TO where the pose there depends on keys cut away, so the
    /// trimmed motion starts and ends in the original's pose.
    #[arg(long)]
    pub boundary: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `mmd vmd merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The first motion (its header and trailing bytes are kept).
    pub first: PathBuf,
    /// The motion appended after it.
    pub second: PathBuf,
    /// Frames added to every key of the second motion [default: one frame after the first
    /// motion's last key].
    #[arg(long, value_name = "N")]
    pub offset: Option<u32>,
    /// Keep the first motion's key where both have one (default: the second's wins).
    #[arg(long)]
    pub first_wins: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `mmd vmd speed`.
#[derive(Debug, clap::Args)]
pub struct SpeedArgs {
    /// The motion to retime.
    pub input: PathBuf,
    /// How many times as fast (2 = twice as fast, half as long; 0.5 = half speed).
    #[arg(allow_negative_numbers = true)]
    pub factor: f64,
    /// Rescale camera cuts like any other keys (by default a lone pair of camera keys one
    /// frame apart stays one frame apart, so a cut stays a cut).
    #[arg(long)]
    pub no_keep_cuts: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `mmd vmd fill`.
#[derive(Debug, clap::Args)]
pub struct FillArgs {
    /// The motion to fill in.
    pub input: PathBuf,
    /// The first frame.
    #[arg(long, default_value_t = 0)]
    pub start: u32,
    /// The last frame [default: the last frame of any bone key].
    #[arg(long)]
    pub end: Option<u32>,
    /// Hold the pose the bone already has there instead of the rest pose.
    #[arg(long)]
    pub hold: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `mmd vmd sample`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("track").required(true)
    .args(["bone", "morph", "camera", "light"])))]
pub struct SampleArgs {
    /// The motion to read.
    pub input: PathBuf,
    /// A bone track, by name.
    #[arg(long, value_name = "NAME")]
    pub bone: Option<String>,
    /// A morph track, by name.
    #[arg(long, value_name = "NAME")]
    pub morph: Option<String>,
    /// The camera track.
    #[arg(long)]
    pub camera: bool,
    /// The light track.
    #[arg(long)]
    pub light: bool,
    /// The frame (30 a second; fractions allowed).
    #[arg(long, allow_negative_numbers = true)]
    pub frame: f64,
    /// Give positions and rotations in right-handed coordinates (three.js): Z negated,
    /// quaternions (-x, -y, z, w), camera angles (x, y, -z).
    #[arg(long)]
    pub right_handed: bool,
    /// Print one JSON object instead of `name: value` lines.
    #[arg(long)]
    pub json: bool,
}

/// Runs `mmd vmd`.
pub fn run(args: &VmdArgs, out: &mut dyn Write) -> Outcome {
    match &args.command {
        VmdCommand::Mirror(a) => mirror(a, out),
        VmdCommand::Trim(a) => trim(a, out),
        VmdCommand::Merge(a) => merge(a, out),
        VmdCommand::Speed(a) => speed(a, out),
        VmdCommand::Fill(a) => fill(a, out),
        VmdCommand::Sample(a) => sample(a, out),
    }
}

/// An edit that cannot be made: exit 1.
fn edit_error(e: &EditError) -> Stop {
    Stop::failed(e.to_string())
}

/// Reads and parses a VMD. The VMD tools read any file as a VMD (a file that is not one
/// fails as "not a readable VMD", exit 1).
fn load(path: &Path) -> Outcome<Vmd> {
    let bytes = input::read(path).map_err(|p| p.at(path))?;
    input::decode(Format::Vmd, &bytes).map_err(|problem| match problem {
        Problem::Read { error, .. } => {
            Stop::failed(format!("{}: not a readable VMD: {error}", path.display()))
        }
        other => other.at(path),
    })
}

/// Encodes the result and writes it to `dest` (nothing for a dry run); its size.
fn save(vmd: &Vmd, dest: Option<&Path>) -> Outcome<usize> {
    let bytes = vmd
        .to_bytes()
        .map_err(|e| Stop::failed(format!("the result cannot be written: {e}")))?;
    if let Some(dest) = dest {
        output::write(dest, &bytes)?;
    }
    Ok(bytes.len())
}

/// Runs one edit: `work` gives the edited motion and its report (JSON object, text
/// lines), which is printed after the result is written.
fn edit(
    tool: &str,
    o: &OutputArgs,
    inputs: &[&Path],
    out: &mut dyn Write,
    work: impl FnOnce() -> Outcome<(Vmd, Value, Vec<String>)>,
) -> Outcome {
    let dest = o.destination.target(inputs)?;
    let (vmd, mut report, lines) = work()?;
    let size = save(&vmd, dest.as_deref())?;
    let shown = dest.as_ref().map(|d| d.display().to_string());
    if o.json {
        if let Value::Object(map) = &mut report {
            map.insert("command".into(), json!(tool));
            map.insert(
                "inputs".into(),
                json!(inputs
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()),
            );
            map.insert("output".into(), json!(shown));
            map.insert("written".into(), json!(dest.is_some()));
            map.insert("size".into(), json!(size));
        }
        writeln!(out, "{report}")?;
    } else {
        let from: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        match &shown {
            Some(d) => writeln!(out, "{tool}: {} -> {d} ({size} bytes)", from.join(" + "))?,
            None => writeln!(
                out,
                "{tool}: {} (dry run, nothing written)",
                from.join(" + ")
            )?,
        }
        for line in lines {
            writeln!(out, "{line}")?;
        }
    }
    Ok(Exit::Done)
}

/// `3 bone, 1 camera keys`, or `none`.
fn keys(c: &BlockCounts) -> String {
    if c.total() == 0 {
        "none".to_owned()
    } else {
        format!("{c} keys")
    }
}

fn counts_json(c: &BlockCounts) -> Value {
    let mut map = serde_json::Map::new();
    for block in Block::ALL {
        map.insert(block.name().into(), json!(c.get(block)));
    }
    map.insert("total".into(), json!(c.total()));
    Value::Object(map)
}

/// A track in reports: `bone センター`, or the block alone for the unnamed blocks
/// (`camera`).
fn track(block: Block, name: &str) -> String {
    if name.is_empty() {
        block.to_string()
    } else {
        format!("{block} {name}")
    }
}

/// `a -> b, c -> d, … and N more`.
fn list<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    let mut parts: Vec<String> = items.iter().take(SHOWN).map(show).collect();
    if items.len() > SHOWN {
        parts.push(format!("… and {} more (see --json)", items.len() - SHOWN));
    }
    parts.join(", ")
}

fn pairs_json(p: &[(String, String)]) -> Value {
    json!(p
        .iter()
        .map(|(a, b)| json!({"from": a, "to": b}))
        .collect::<Vec<_>>())
}

fn mirror(a: &MirrorArgs, out: &mut dyn Write) -> Outcome {
    edit("mirror", &a.out, &[&a.input], out, || {
        let mut vmd = load(&a.input)?;
        let options = MirrorOptions {
            camera: !a.no_camera,
            light: !a.no_light,
            morph_names: a.morph_names,
        };
        let r = vmd.mirror(&options);
        let report = json!({
            "changed": counts_json(&r.changed),
            "renamed": {
                "bone": pairs_json(&r.bone_names),
                "ik": pairs_json(&r.ik_names),
                "morph": pairs_json(&r.morph_names),
            },
            "dropped": counts_json(&BlockCounts::default()),
        });
        let mut lines = vec![format!("changed: {}", keys(&r.changed))];
        let show = |p: &(String, String)| format!("{} -> {}", p.0, p.1);
        for (what, pairs) in [
            ("bone", &r.bone_names),
            ("IK", &r.ik_names),
            ("morph", &r.morph_names),
        ] {
            if !pairs.is_empty() {
                lines.push(format!("renamed {what} names: {}", list(pairs, show)));
            }
        }
        if r.is_empty() {
            lines.push("nothing to mirror: the output is the input's bytes".into());
        }
        lines.push("dropped: nothing".into());
        Ok((vmd, report, lines))
    })
}

fn trim(a: &TrimArgs, out: &mut dyn Write) -> Outcome {
    edit("trim", &a.out, &[&a.input], out, || {
        let mut vmd = load(&a.input)?;
        let options = TrimOptions {
            shift: !a.no_shift,
            boundary: a.boundary,
        };
        let r = vmd
            .trim(a.from, a.to, &options)
            .map_err(|e| edit_error(&e))?;
        let added: Vec<Value> = r
            .added
            .iter()
            .map(|k| json!({"block": k.block.name(), "name": k.name, "frame": k.frame}))
            .collect();
        let report = json!({
            "from": r.from, "to": r.to, "shift": r.shift,
            "kept": counts_json(&r.kept),
            "dropped": counts_json(&r.dropped),
            "added": added,
            "curves_cut": r.curves_cut,
        });
        let mut lines = vec![
            format!("range: {}..={}, frames moved by -{}", r.from, r.to, r.shift),
            format!("kept: {}", keys(&r.kept)),
            format!("dropped (outside the range): {}", keys(&r.dropped)),
        ];
        if a.boundary {
            let show = |k: &BoundaryKey| format!("{} at {}", track(k.block, &k.name), k.frame);
            lines.push(format!(
                "added: {} boundary keys{}{}",
                r.added.len(),
                if r.added.is_empty() { "" } else { ": " },
                list(&r.added, show)
            ));
            lines.push(format!("curves cut: {}", r.curves_cut));
        }
        Ok((vmd, report, lines))
    })
}

fn merge(a: &MergeArgs, out: &mut dyn Write) -> Outcome {
    edit("merge", &a.out, &[&a.first, &a.second], out, || {
        let mut first = load(&a.first)?;
        let second = load(&a.second)?;
        let offset = match a.offset {
            Some(n) => n,
            None => first
                .frames()
                .max()
                .map_or(Ok(0), |last| last.checked_add(1).ok_or(()))
                .map_err(|()| {
                    Stop::failed("the first motion ends at frame 4294967295: give --offset")
                })?,
        };
        let rule = if a.first_wins {
            MergeRule::FirstWins
        } else {
            MergeRule::SecondWins
        };
        let r = first
            .merge(&second, &MergeOptions { offset, rule })
            .map_err(|e| edit_error(&e))?;
        let conflicts: Vec<Value> = r
            .conflicts
            .iter()
            .map(|c| json!({"block": c.block.name(), "name": c.name, "frame": c.frame}))
            .collect();
        let dropped = match rule {
            MergeRule::SecondWins => r.replaced,
            MergeRule::FirstWins => r.skipped,
        };
        let report = json!({
            "offset": r.offset,
            "rule": r.rule.name(),
            "added": counts_json(&r.added),
            "conflicts": conflicts,
            "dropped": counts_json(&dropped),
            "dropped_from": match rule { MergeRule::SecondWins => "first", MergeRule::FirstWins => "second" },
            "second_trailing_dropped": r.second_trailing_dropped,
            "blocks_made_present": r.blocks_made_present,
        });
        let show = |c: &Conflict| format!("{} at {}", track(c.block, &c.name), c.frame);
        let mut lines = vec![
            format!("offset: {} frames, rule: {}", r.offset, r.rule.name()),
            format!("added from the second motion: {}", keys(&r.added)),
            format!(
                "conflicts: {}{}{}",
                r.conflicts.len(),
                if r.conflicts.is_empty() { "" } else { ": " },
                list(&r.conflicts, show)
            ),
        ];
        lines.push(match rule {
            MergeRule::SecondWins => {
                format!(
                    "dropped from the first motion (replaced): {}",
                    keys(&r.replaced)
                )
            }
            MergeRule::FirstWins => {
                format!(
                    "dropped from the second motion (skipped): {}",
                    keys(&r.skipped)
                )
            }
        });
        if r.second_trailing_dropped > 0 {
            lines.push(format!(
                "dropped: {} trailing bytes of the second motion",
                r.second_trailing_dropped
            ));
        }
        Ok((first, report, lines))
    })
}

fn speed(a: &SpeedArgs, out: &mut dyn Write) -> Outcome {
    edit("speed", &a.out, &[&a.input], out, || {
        let mut vmd = load(&a.input)?;
        let options = SpeedOptions {
            keep_cuts: !a.no_keep_cuts,
        };
        let r = vmd.speed(a.factor, &options).map_err(|e| edit_error(&e))?;
        let dropped: Vec<Value> = r
            .dropped
            .iter()
            .map(|d| {
                json!({"block": d.block.name(), "name": d.name, "frame": d.frame,
                       "new_frame": d.new_frame, "kept_frame": d.kept_frame})
            })
            .collect();
        let report = json!({
            "factor": r.factor,
            "changed": counts_json(&r.moved),
            "dropped": counts_json(&r.dropped_counts),
            "dropped_keys": dropped,
            "cuts_kept": r.cuts_kept,
        });
        let show = |d: &DroppedKey| {
            format!(
                "{} at {} (-> {}, where {} stays)",
                track(d.block, &d.name),
                d.frame,
                d.new_frame,
                d.kept_frame
            )
        };
        let mut lines = vec![
            format!("factor: {} (frame f -> round(f / {}))", r.factor, r.factor),
            format!("moved: {}", keys(&r.moved)),
            format!(
                "dropped (rounded onto a frame their track already has): {}{}{}",
                keys(&r.dropped_counts),
                if r.dropped.is_empty() { "" } else { ": " },
                list(&r.dropped, show)
            ),
        ];
        if r.cuts_kept > 0 {
            lines.push(format!("camera cuts kept one frame apart: {}", r.cuts_kept));
        }
        Ok((vmd, report, lines))
    })
}

fn fill(a: &FillArgs, out: &mut dyn Write) -> Outcome {
    edit("fill", &a.out, &[&a.input], out, || {
        let mut vmd = load(&a.input)?;
        let options = FillOptions {
            start: a.start,
            end: a.end,
            mode: if a.hold {
                FillMode::Hold
            } else {
                FillMode::Rest
            },
            names: Vec::new(),
        };
        let r = vmd.fill_rest_keys(&options).map_err(|e| edit_error(&e))?;
        let added: Vec<Value> = r
            .added
            .iter()
            .map(|k| json!({"name": k.name, "frame": k.frame}))
            .collect();
        let report = json!({
            "start": r.start, "end": r.end, "bones": r.bones,
            "added": added,
            "changed": counts_json(&BlockCounts { bone: r.added.len(), ..BlockCounts::default() }),
            "dropped": counts_json(&BlockCounts::default()),
        });
        let show = |k: &FilledKey| format!("{} at {}", k.name, k.frame);
        let lines = vec![
            format!("frames: {} and {}, {} bones named", r.start, r.end, r.bones),
            format!(
                "added: {} {} keys{}{}",
                r.added.len(),
                if a.hold { "hold" } else { "rest" },
                if r.added.is_empty() { "" } else { ": " },
                list(&r.added, show)
            ),
            "dropped: nothing".into(),
        ];
        Ok((vmd, report, lines))
    })
}

fn sample(a: &SampleArgs, out: &mut dyn Write) -> Outcome {
    let vmd = load(&a.input)?;
    let f = a.frame;
    let rh = a.right_handed;
    let (track, value): (String, Option<Value>) = if let Some(name) = &a.bone {
        let pose = vmd
            .bone_track(name)
            .sample(f)
            .map(|p| if rh { p.to_right_handed() } else { p });
        (
            format!("bone {name}"),
            pose.map(|p| json!({"position": p.position, "rotation": p.rotation})),
        )
    } else if let Some(name) = &a.morph {
        (
            format!("morph {name}"),
            vmd.morph_track(name)
                .sample(f)
                .map(|w| json!({"weight": w})),
        )
    } else if a.camera {
        let state = vmd.camera_track().sample(f).map(|s| {
            let position = if rh { s.position_rh() } else { s.position() };
            let shown = if rh { s.to_right_handed() } else { s };
            json!({"distance": shown.distance, "target": shown.target, "rotation": shown.rotation,
                   "fov": shown.fov, "perspective": shown.perspective, "position": position})
        });
        ("camera".to_owned(), state)
    } else {
        let light = vmd
            .light_track()
            .sample(f)
            .map(|l| if rh { l.to_right_handed() } else { l });
        (
            "light".to_owned(),
            light.map(|l| json!({"color": l.color, "direction": l.direction})),
        )
    };
    let Some(value) = value else {
        return Err(Stop::failed(format!(
            "{}: no key on the {track} track",
            a.input.display()
        )));
    };
    let coordinates = if rh { "right-handed" } else { "mmd" };
    if a.json {
        let mut obj = json!({"input": a.input.display().to_string(), "track": track,
                             "frame": f, "coordinates": coordinates});
        if let (Value::Object(map), Value::Object(v)) = (&mut obj, value) {
            map.extend(v);
        }
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "track: {track}")?;
        writeln!(out, "frame: {f}")?;
        writeln!(out, "coordinates: {coordinates}")?;
        if let Value::Object(v) = value {
            for (k, x) in v {
                writeln!(out, "{k}: {x}")?;
            }
        }
    }
    Ok(Exit::Done)
}
