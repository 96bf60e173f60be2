//! `mmd`: the command-line tool of mmd-formats.
//!
//! `mmd check [--json] [PATH...]` reads every file, writes it back in memory and reports
//! whether the bytes are the same (see `mmd check --help`); `mmd info [--json] FILE`
//! describes one file; `mmd pmx recolor|rename|bones` edits a PMX model or lists its bones;
//! `mmd vmd TOOL ...` edits or samples a motion (see `mmd vmd --help`); `mmd dump`,
//! `mmd explain` and `mmd diff` show a file's fields, the field at a byte, and the fields
//! two files differ in.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[path = "mmd/check.rs"]
mod check;
#[path = "mmd/diff.rs"]
mod diff;
#[path = "mmd/dump.rs"]
mod dump;
#[path = "mmd/explain.rs"]
mod explain;
#[path = "mmd/guard.rs"]
mod guard;
#[path = "mmd/info.rs"]
mod info;
#[path = "mmd/load.rs"]
mod load;
#[path = "mmd/pmx.rs"]
mod pmx;
#[path = "mmd/progress.rs"]
mod progress;
#[path = "mmd/vmd.rs"]
mod vmd;
#[path = "mmd/walk.rs"]
mod walk;

/// The exit codes of every command, in brief (each command's `--help` has its own).
const EXIT_CODES: &str = "\
Exit codes: (each command's --help has its own)
  0  success: every file byte-exact (check), described (info), dumped (dump), explained
     (explain), the files agree (diff)
  1  a file failed or does not read; for diff: the files differ
  2  usage error, unreadable path or unknown format; for diff: any trouble";

/// Byte-exact readers and writers for MikuMikuDance files (PMX, PMD, VMD, VPD).
#[derive(Debug, Parser)]
#[command(name = "mmd", version, arg_required_else_help = true, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Check that files read and write back byte for byte.
    #[command(long_about = check::LONG_ABOUT, after_help = check::EXIT_CODES)]
    Check(check::CheckArgs),
    /// Describe a file: format, version, counts per section; for VMD also the kind,
    /// frame range, duration at 30 fps, bone and morph names and camera cuts.
    #[command(after_help = info::EXIT_CODES)]
    Info(info::InfoArgs),
    /// Edit a PMX model (recolor a material, rename the model, a bone, a material or a
    /// morph), never overwriting the input unless asked; list its bones.
    #[command(after_help = pmx::EXIT_CODES)]
    Pmx(pmx::PmxArgs),
    /// Edit or sample a VMD motion: mirror, trim, merge, speed, fill, sample.
    #[command(after_help = vmd::EXIT_CODES)]
    Vmd(vmd::VmdArgs),
    /// Print every field of a file, as indented text or JSON.
    #[command(long_about = dump::LONG_ABOUT, after_help = dump::EXIT_CODES)]
    Dump(dump::DumpArgs),
    /// Tell which field holds a byte: its path, byte range and value.
    #[command(long_about = explain::LONG_ABOUT, after_help = explain::EXIT_CODES)]
    Explain(explain::ExplainArgs),
    /// Compare two files field by field (exit 0 when they agree, 1 when they differ).
    #[command(long_about = diff::LONG_ABOUT, after_help = diff::EXIT_CODES)]
    Diff(diff::DiffArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match &cli.command {
        Command::Check(args) => check::run(args, &mut out),
        Command::Info(args) => info::run(args, &mut out),
        Command::Pmx(args) => pmx::run(args, &mut out),
        Command::Vmd(args) => vmd::run(args, &mut out),
        Command::Dump(args) => dump::run(args, &mut out),
        Command::Explain(args) => explain::run(args, &mut out),
        Command::Diff(args) => diff::run(args, &mut out),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // A closed pipe (`mmd check | head`) is not worth a message.
            if e.kind() != io::ErrorKind::BrokenPipe {
                let _ = writeln!(io::stderr(), "mmd: cannot write the output: {e}");
            }
            ExitCode::from(2)
        }
    }
}
