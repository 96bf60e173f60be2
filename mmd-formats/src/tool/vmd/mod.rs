//! `mmd vmd ...`: the VMD tools — mirror, trim, merge, speed, fill, bake-ik (edits that
//! write a new file) and sample (a read command).
//!
//! Every tool first tells the format of its inputs, as the PMX tools do: a file in another
//! format or in none is refused with the same status (2) and message. Every edit reads its
//! input whole, makes the edit in memory (changing only what it is asked to change), and
//! writes the result where [`Destination`] says (`-o OUT`, `--in-place` or `--dry-run`, as
//! every edit does), atomically; it never overwrites an input unless `--in-place` is
//! given, and refuses `-o` naming an input. It prints what changed and what was dropped,
//! as lines or (`--json`) as one JSON object, and says when the result is the input's
//! bytes unchanged.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use mmd_formats::inspect::Format;
use mmd_formats::vmd::edit::EditError;
use mmd_formats::vmd::{Block, BlockCounts, Vmd};
use serde_json::{json, Value};

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::input;
use crate::tool::output::{self, Destination};

mod edits;
mod help;
pub(crate) mod sample;

pub use help::EXIT_CODES;

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
    #[command(after_help = help::MIRROR)]
    Mirror(MirrorArgs),
    /// Keep the keys in FROM..=TO (both included), moved so that FROM becomes frame 0.
    #[command(after_help = help::TRIM)]
    Trim(TrimArgs),
    /// Append B's keys, moved OFFSET frames later, after A's; where both have a key of
    /// one track at one frame, B's wins (or A's with --first-wins).
    #[command(after_help = help::MERGE)]
    Merge(MergeArgs),
    /// Play FACTOR times as fast (2 = twice as fast): frame f becomes round(f / FACTOR);
    /// keys that land on a frame their track already has are dropped and listed.
    #[command(after_help = help::SPEED)]
    Speed(SpeedArgs),
    /// Give every bone that has keys a key at the first and the last frame where it has
    /// none: the rest pose (no move, no rotation), or with --hold the pose it has there.
    ///
    /// The frames are the same for every bone: --start (default 0) and --end (default the
    /// last frame of any bone key). Interpolation runs only between two keys of one bone,
    /// so a bone keyed only at frame 30 holds that pose from frame 0 to the end; filled
    /// in, it moves from the rest pose at frame 0 to its pose at frame 30.
    #[command(after_help = help::FILL)]
    Fill(FillArgs),
    /// Bake IK into the motion for MODEL: rotation keys for every IK link at every frame,
    /// and the IK switched off, so that it plays with IK off as it did with IK on.
    #[command(name = "bake-ik", after_help = help::BAKE_IK)]
    BakeIk(BakeIkArgs),
    /// Print the value of one track at a frame (fractional frames allowed).
    #[command(after_help = help::SAMPLE)]
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
    /// How many times as fast (2 = twice as fast, half as long; 0.5 = half speed): a
    /// finite number above 0.
    #[arg(allow_negative_numbers = true, value_parser = edits::parse_factor)]
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

/// Arguments of `mmd vmd bake-ik`.
#[derive(Debug, clap::Args)]
pub struct BakeIkArgs {
    /// The model (PMX or PMD) whose IK chains are baked.
    pub model: PathBuf,
    /// The motion to bake (--in-place rewrites it).
    pub input: PathBuf,
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
    /// The frame (30 a second; fractions allowed): a finite number, usually from 0 to the
    /// motion's last frame (before the first key a track holds that key's value, after
    /// the last key the last key's).
    #[arg(long, allow_negative_numbers = true, value_parser = sample::parse_frame)]
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
        VmdCommand::Mirror(a) => edits::mirror(a, out),
        VmdCommand::Trim(a) => edits::trim(a, out),
        VmdCommand::Merge(a) => edits::merge(a, out),
        VmdCommand::Speed(a) => edits::speed(a, out),
        VmdCommand::Fill(a) => edits::fill(a, out),
        VmdCommand::BakeIk(a) => edits::bake_ik(a, out),
        VmdCommand::Sample(a) => sample::sample(a, out),
    }
}

/// An edit that cannot be made: exit 1.
fn edit_error(e: &EditError) -> Stop {
    Stop::failed(e.to_string())
}

/// A VMD input: its bytes and the motion they read as.
struct Motion {
    bytes: Vec<u8>,
    vmd: Vmd,
}

/// Reads a VMD input, telling its format first as every command does: a file in another
/// format or in none is refused (exit 2); one that does not read as a VMD fails (exit 1),
/// the error naming its offset and field.
fn load(path: &Path) -> Outcome<Motion> {
    let (bytes, vmd) = input::open_as::<Vmd>(path, Format::Vmd)?;
    Ok(Motion { bytes, vmd })
}

/// Encodes the result and writes it to `dest` (nothing for a dry run); its bytes.
fn save(vmd: &Vmd, dest: Option<&Path>, held: Option<&output::Held>) -> Outcome<Vec<u8>> {
    let bytes = vmd
        .to_bytes()
        .map_err(|e| Stop::failed(format!("the result cannot be written: {e}")))?;
    if let Some(dest) = dest {
        output::write(dest, &bytes, held)?;
    }
    Ok(bytes)
}

/// What an edit made: the edited motion, its report's JSON object (`command`, `inputs`,
/// `output`, ... are added to it) and its text lines.
type Edited = (Vmd, Value, Vec<String>);

/// Runs one edit: reads the first input, gives its motion to `work`, writes the edited
/// motion `work` returns and prints its report. When the result has the input's bytes,
/// the report says so (`unchanged`).
fn edit(
    tool: &str,
    o: &OutputArgs,
    inputs: &[&Path],
    out: &mut dyn Write,
    work: impl FnOnce(Vmd) -> Outcome<Edited>,
) -> Outcome {
    let dest = o.destination.target(inputs)?;
    let first = inputs.first().ok_or_else(|| Stop::trouble("no input"))?;
    // Held from before the read until the rename: no concurrent edit is lost.
    let held = if o.destination.in_place && dest.is_some() {
        Some(output::Held::take(first)?)
    } else {
        None
    };
    let Motion { bytes: input, vmd } = load(first)?;
    let (vmd, mut report, mut lines) = work(vmd)?;
    let bytes = save(&vmd, dest.as_deref(), held.as_ref())?;
    let size = bytes.len();
    let unchanged = bytes == input;
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
            map.insert("unchanged".into(), json!(unchanged));
        }
        writeln!(out, "{report}")?;
    } else {
        let from: Vec<String> = inputs.iter().map(|p| crate::tool::shown::path(p)).collect();
        match shown.as_deref().map(crate::tool::shown::text) {
            Some(d) => writeln!(out, "{tool}: {} -> {d} ({size} bytes)", from.join(" + "))?,
            None => writeln!(
                out,
                "{tool}: {} (dry run, nothing written)",
                from.join(" + ")
            )?,
        }
        if unchanged {
            lines.push(format!(
                "unchanged: the result is the bytes of {}",
                from.first().map_or("the input", String::as_str)
            ));
        }
        // Lines name tracks from the files: escaped (issue 25 item 9).
        for line in lines {
            writeln!(out, "{}", crate::tool::shown::line(&line))?;
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
        format!("{block} {}", crate::tool::shown::text(name))
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
