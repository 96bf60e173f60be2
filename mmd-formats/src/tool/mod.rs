//! `mmd`: the command-line tool of mmd-formats.
//!
//! `mmd check [--json] [PATH...]` reads every file, writes it back in memory and reports
//! whether the bytes are the same (see `mmd check --help`); `mmd info [--json] FILE`
//! describes one file; `mmd pmx recolor|rename|bones` edits a PMX model or lists its bones;
//! `mmd vmd TOOL ...` edits or samples a motion (see `mmd vmd --help`); `mmd dump`,
//! `mmd explain` and `mmd diff` show a file's fields, the field at a byte, and the fields
//! two files differ in; `mmd pose` computes where a model's bones are at frames of a
//! motion; `mmd build` makes a file from its JSON dump; `mmd completions
//! SHELL` and `mmd man` print the shell completions and the manual pages.
//!
//! One way through for every command: [`input`] reads an input and tells what is wrong
//! with it, [`output`] is where every edit writes, and a command returns an
//! [`exit::Outcome`]: its [`Exit`] status, or a [`Stop`] whose message `main` prints after
//! `mmd COMMAND: `.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

mod build;
mod check;
mod cut;
mod diff;
mod docs;
mod dump;
mod exit;
mod explain;
mod guard;
mod info;
mod input;
mod lint;
mod output;
mod parallel;
mod pmx;
mod pose;
mod progress;
mod shown;
mod signals;
mod vmd;
mod walk;

use exit::{Exit, Outcome, Stop};

/// The exit codes of every command, in brief (each command's `--help` has its own).
const EXIT_CODES: &str = "\
Exit codes: (each command's --help has its own)
  0  success: every file byte-exact (check), described (info), dumped (dump), explained
     (explain), the files agree (diff)
  1  a file failed or does not read; for diff: the files differ
  2  usage error, unreadable path, a file in no supported format or not in the one the
     command takes, an output that cannot be written; for diff: any trouble
A closed output (`mmd dump big.pmx | head`) ends a command quietly, with the status of
what it had found (diff: 1 when the files differ); a report that cannot be printed
after the output file was written is a warning naming the file.
Inputs: a regular file, or - for standard input (at most 1 GiB); a device, a FIFO, a
socket or a directory is refused (exit 2) before it is opened.
Outputs: a regular file is replaced atomically through a temporary file beside it,
created with the file's permissions and owner, and removed on SIGINT, SIGTERM or SIGHUP;
a character device or a FIFO (-o /dev/stdout) is written into, never replaced; a FIFO no
one reads, a directory or a socket is refused (exit 2).
--in-place locks its input from the read to the rename: a second mmd edit of the file
waits and edits the first's result, and a change by any other program meanwhile is
refused (exit 2, nothing written).
Text from files (names, file names) is printed escaped as dump escapes it: \\n, \\u{1b}.";

/// The long description of `mmd`, the first section of its manual page.
const LONG_ABOUT: &str = "\
Byte-exact readers and writers for MikuMikuDance files (PMX, PMD, VMD, VPD).

Every file that reads writes back to the same bytes, so an edit changes only the bytes it
is asked to change. `mmd check` proves it on your files; `mmd info`, `dump`, `explain` and
`diff` look inside a file of any of the four formats; `mmd pmx` and `mmd vmd` edit models
and motions (never overwriting an input unless given --in-place). The format of every
input is told by its first bytes, whatever its name. Each command's --help (or its
manual page, mmd-COMMAND(1)) says what it does and what its exit codes mean.";

/// Byte-exact readers and writers for MikuMikuDance files (PMX, PMD, VMD, VPD).
#[derive(Debug, Parser)]
#[command(
    name = "mmd",
    version,
    long_about = LONG_ABOUT,
    arg_required_else_help = true,
    after_help = EXIT_CODES
)]
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
    #[command(long_about = info::LONG_ABOUT, after_help = info::EXIT_CODES)]
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
    /// Print where every bone of a model is at frames of a motion, computed as MMD does.
    #[command(long_about = pose::LONG_ABOUT, after_help = pose::EXIT_CODES)]
    Pose(pose::PoseArgs),
    /// Report what would break in MMD: one line per finding, with a stable rule code.
    #[command(long_about = lint::LONG_ABOUT, after_help = lint::EXIT_CODES)]
    Lint(lint::LintArgs),
    /// Build a file from its JSON form (`mmd dump --json`), byte-exact.
    #[command(long_about = build::LONG_ABOUT, after_help = build::EXIT_CODES)]
    Build(build::BuildArgs),
    /// Print the shell completion script of mmd (bash, zsh, fish, elvish, powershell).
    #[command(long_about = docs::COMPLETIONS_ABOUT, after_help = docs::COMPLETIONS_EXIT_CODES)]
    Completions(docs::CompletionsArgs),
    /// Print the manual page of mmd, or write a page for every command into a folder.
    #[command(long_about = docs::MAN_ABOUT, after_help = docs::MAN_EXIT_CODES)]
    Man(docs::ManArgs),
}

/// The `mmd` command line: parses the process's arguments, runs the command and gives its
/// exit status. The `mmd` binary is this one call.
pub fn mmd_main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let outcome = run(&cli.command, &mut out).and_then(|exit| {
        out.flush().map_err(|e| Stop::from(e).closed_with(exit))?;
        Ok(exit)
    });
    finish(&command_name(&matches), outcome).into()
}

/// Runs one command, writing its output to `out`.
fn run(command: &Command, out: &mut dyn Write) -> Outcome {
    match command {
        Command::Check(args) => check::run(args, out),
        Command::Info(args) => info::run(args, out),
        Command::Pmx(args) => pmx::run(args, out),
        Command::Vmd(args) => vmd::run(args, out),
        Command::Dump(args) => dump::run(args, out),
        Command::Explain(args) => explain::run(args, out),
        Command::Diff(args) => diff::run(args, out),
        Command::Lint(args) => lint::run(args, out),
        Command::Pose(args) => pose::run(args, out),
        Command::Build(args) => build::run(args, out),
        Command::Completions(args) => docs::completions(args, Cli::command(), out),
        Command::Man(args) => docs::man(args, Cli::command(), out),
    }
}

/// The exit status of an outcome, after its message (if any) is printed on stderr as
/// `mmd COMMAND: message`.
fn finish(name: &str, outcome: Outcome) -> Exit {
    match outcome {
        Ok(exit) => exit,
        Err(Stop::Fail(exit, message)) => {
            let _ = writeln!(io::stderr(), "{name}: {}", shown::message(&message));
            exit
        }
        // The file was written; only its report could not be printed (stdout full, say):
        // the run did its work, and says what was lost.
        Err(Stop::Output(e)) if output::written().is_some() => {
            let file = output::written().unwrap_or_default();
            let _ = writeln!(
                io::stderr(),
                "{name}: warning: {file} was written, but its report cannot be printed on \
                 standard output: {e}"
            );
            Exit::Done
        }
        Err(Stop::Output(e)) => {
            let _ = writeln!(io::stderr(), "{name}: cannot write the output: {e}");
            Exit::Trouble
        }
        // The reader of a pipe had read what it wanted (`mmd dump big.pmx | head`): no
        // message, and the status of what the command had found.
        Err(Stop::Closed(exit)) => exit,
    }
}

/// `mmd` and the subcommands given, as the prefix of messages: `mmd vmd trim`.
fn command_name(matches: &ArgMatches) -> String {
    let mut name = String::from("mmd");
    let mut at = matches;
    while let Some((sub, inner)) = at.subcommand() {
        name.push(' ');
        name.push_str(sub);
        at = inner;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_name_follows_the_subcommands() {
        let matches = Cli::command()
            .try_get_matches_from(["mmd", "vmd", "trim", "a.vmd", "1", "2", "--dry-run"])
            .unwrap();
        assert_eq!(command_name(&matches), "mmd vmd trim");
        let matches = Cli::command()
            .try_get_matches_from(["mmd", "info", "a.pmx"])
            .unwrap();
        assert_eq!(command_name(&matches), "mmd info");
    }

    #[test]
    fn the_clap_definitions_are_consistent() {
        Cli::command().debug_assert();
    }
}
