//! The command-line tool for any format: `check`, `info`, `dump`, `explain`, `diff` and
//! `build` for the root types of a downstream crate, in a few lines, the same code the
//! `mmd` binary runs for PMX, PMD, VMD and VPD.
//!
//! A [`Tool`] is a name, a sentence about it and its formats; each [`FileFormat`] is a
//! name, the signature its files open with (the format of every input is told by it,
//! whatever the file's name) and a derived root type. [`Tool::main`] parses the process's
//! arguments and runs the command:
//!
//! ```no_run
//! use mmd_formats::tool::{FileFormat, Tool};
//!
//! /// A tiny format: a signature, then a count of 16-bit values.
//! #[derive(Debug, PartialEq, mmd_formats::Mmd)]
//! #[mmd(magic = b"LVL1", ctx = ())]
//! pub struct Levels {
//!     #[mmd(count = u8)]
//!     pub levels: Vec<u16>,
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     Tool::new("levels", "Byte-exact tools for LVL files.")
//!         .format(FileFormat::derived::<Levels>("LVL", b"LVL1").with_extensions(&["lvl"]))
//!         .main()
//! }
//! ```
//!
//! The commands behave as `mmd`'s (see `mmd COMMAND --help`, which each tool's `--help`
//! repeats): `check [--json] [--jobs N] PATH...` reads every file (directories walked),
//! writes it back in memory and reports whether the bytes are the same; `info [--json]
//! FILE` shows the format, the size and each top-level value of the file (a list as its
//! length, a record as its own values); `dump [--json] FILE` prints every field (the JSON
//! form `build` reads back); `explain [--json] FILE OFFSET...` names the field that holds
//! a byte, also in a file cut short; `diff [--json] A B` prints the fields two files differ
//! in (exit 1 when they differ); `build [--format NAME] IN.json -o OUT` makes the file a
//! dump describes, byte-exact. Inputs are regular files or `-`; devices, FIFOs and
//! directories are refused before they are opened; outputs are replaced atomically; every
//! error names the file, the byte offset (or JSON path) and the field path, and text from a
//! file is escaped before it reaches the terminal. Exit codes: 0 done, 1 a file failed
//! (diff: the files differ), 2 usage error or an input that cannot be used.
//!
//! Inside, one way through for every command: `input` reads an input and tells what is
//! wrong with it, `output` is where every edit writes, and a command returns an
//! `exit::Outcome`: its exit status, or a stop whose message is printed after
//! `TOOL COMMAND: `.

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
pub(crate) mod format;
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
pub use format::{identify, Document, FileFormat};

use crate::inspect::Format;
use crate::samples::Sample;

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
    let matches = mmd_command().get_matches();
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
    let tool = Tool::mmd();
    match command {
        Command::Check(args) => check::run(&tool, args, out),
        Command::Info(args) => info::run(&tool, args, out),
        Command::Pmx(args) => pmx::run(args, out),
        Command::Vmd(args) => vmd::run(args, out),
        Command::Dump(args) => dump::run(&tool, args, out),
        Command::Explain(args) => explain::run(&tool, args, out),
        Command::Diff(args) => diff::run(&tool, args, out),
        Command::Lint(args) => lint::run(args, out),
        Command::Pose(args) => pose::run(args, out),
        Command::Build(args) => build::run(&tool, args, out),
        Command::Completions(args) => docs::completions(args, mmd_command(), out),
        Command::Man(args) => docs::man(args, mmd_command(), out),
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

/// `mmd`'s command: its clap definitions, with the values of `build --format` taken from
/// its formats as every tool's are.
fn mmd_command() -> clap::Command {
    Tool::mmd().with_format_values(Cli::command())
}

/// The formats of `mmd`: PMX, PMD, VMD and VPD, in the order their signatures are tried.
pub(crate) fn mmd_formats() -> Vec<FileFormat> {
    Format::ALL.into_iter().map(FileFormat::builtin).collect()
}

/// A command-line tool: its name, a sentence about it, and the formats it reads (see the
/// [module docs](self)).
#[derive(Debug, Clone)]
pub struct Tool {
    name: &'static str,
    about: &'static str,
    formats: Vec<FileFormat>,
    samples: Option<fn() -> Vec<Sample>>,
}

impl Tool {
    /// A tool named `name` (the binary's name, the prefix of its messages) that reads no
    /// format yet; `about` is the first line of its `--help`.
    pub fn new(name: &'static str, about: &'static str) -> Tool {
        Tool {
            name,
            about,
            formats: Vec::new(),
            samples: None,
        }
    }

    /// `mmd` itself: PMX, PMD, VMD and VPD, with the built-in samples.
    pub fn mmd() -> Tool {
        Tool {
            name: "mmd",
            about: "Byte-exact readers and writers for MikuMikuDance files (PMX, PMD, VMD, VPD).",
            formats: mmd_formats(),
            samples: Some(crate::samples::all),
        }
    }

    /// The tool, reading `format` too. Signatures are tried in the order the formats were
    /// added: a signature that begins another one goes after it.
    pub fn format(mut self, format: FileFormat) -> Tool {
        self.formats.push(format);
        self
    }

    /// The tool, with the files `check` checks when given no PATH (named
    /// `<builtin>/NAME`). Without them, `check` needs a PATH.
    pub fn samples(mut self, samples: fn() -> Vec<Sample>) -> Tool {
        self.samples = Some(samples);
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The formats the tool reads, in the order their signatures are tried.
    pub fn formats(&self) -> &[FileFormat] {
        &self.formats
    }

    /// The built-in samples, if the tool has them.
    pub(crate) fn samples_fn(&self) -> Option<fn() -> Vec<Sample>> {
        self.samples
    }

    /// The clap definitions of the tool's commands: `check`, `info`, `dump`, `explain`,
    /// `diff` and `build`, with the help texts `mmd` gives them.
    pub fn command(&self) -> clap::Command {
        let names: Vec<String> = self.formats.iter().map(|f| f.name().to_owned()).collect();
        // The subcommands first: the enum's own doc comment would else replace the about.
        let command = AnyCommand::augment_subcommands(clap::Command::new(self.name))
            .about(self.about)
            .long_about(format!(
                "{}\n\nFormats: {}. The format of every input is told by its first bytes, \
                 whatever its name. Each command's --help says what it does and what its exit \
                 codes mean.",
                self.about,
                names.join(", ")
            ))
            .version(env!("CARGO_PKG_VERSION"))
            .arg_required_else_help(true)
            .after_help(EXIT_CODES);
        self.with_format_values(command)
    }

    /// `command` with the values of `build --format` set to the tool's formats, lowercase.
    fn with_format_values(&self, command: clap::Command) -> clap::Command {
        let values: Vec<clap::builder::PossibleValue> = self
            .formats
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name().to_lowercase()))
            .collect();
        command.mut_subcommand("build", |build| {
            build.mut_arg("format", |arg| {
                arg.value_parser(clap::builder::PossibleValuesParser::new(values))
            })
        })
    }

    /// Runs the tool on the process's arguments, printing on standard output and error,
    /// and gives the exit status (see the [module docs](self)).
    pub fn main(&self) -> ExitCode {
        self.run_args(std::env::args_os())
    }

    /// Runs the tool on `args` (the first is the program's name), printing on standard
    /// output and error; a usage error prints clap's message and ends the process, as
    /// [`Tool::main`] does.
    pub fn run_args<I, T>(&self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = self.command().get_matches_from(args);
        let command = match AnyCommand::from_arg_matches(&matches) {
            Ok(command) => command,
            Err(e) => e.exit(),
        };
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let outcome = self.run_command(&command, &mut out).and_then(|exit| {
            out.flush().map_err(|e| Stop::from(e).closed_with(exit))?;
            Ok(exit)
        });
        let mut name = String::from(self.name);
        if let Some((sub, _)) = matches.subcommand() {
            name.push(' ');
            name.push_str(sub);
        }
        finish(&name, outcome).into()
    }

    fn run_command(&self, command: &AnyCommand, out: &mut dyn Write) -> Outcome {
        match command {
            AnyCommand::Check(args) => check::run(self, args, out),
            AnyCommand::Info(args) => info::run(self, args, out),
            AnyCommand::Dump(args) => dump::run(self, args, out),
            AnyCommand::Explain(args) => explain::run(self, args, out),
            AnyCommand::Diff(args) => diff::run(self, args, out),
            AnyCommand::Build(args) => build::run(self, args, out),
        }
    }
}

/// The commands of every tool, with `mmd`'s help texts.
#[derive(Debug, Subcommand)]
enum AnyCommand {
    /// Check that files read and write back byte for byte.
    #[command(long_about = check::LONG_ABOUT, after_help = check::EXIT_CODES)]
    Check(check::CheckArgs),
    /// Describe a file: format, size, and each top-level value (a list as its length).
    #[command(after_help = info::EXIT_CODES)]
    Info(info::InfoArgs),
    /// Print every field of a file, as indented text or JSON.
    #[command(long_about = dump::LONG_ABOUT, after_help = dump::EXIT_CODES)]
    Dump(dump::DumpArgs),
    /// Tell which field holds a byte: its path, byte range and value.
    #[command(long_about = explain::LONG_ABOUT, after_help = explain::EXIT_CODES)]
    Explain(explain::ExplainArgs),
    /// Compare two files field by field (exit 0 when they agree, 1 when they differ).
    #[command(long_about = diff::LONG_ABOUT, after_help = diff::EXIT_CODES)]
    Diff(diff::DiffArgs),
    /// Build a file from its JSON form (`dump --json`), byte-exact.
    #[command(long_about = build::LONG_ABOUT, after_help = build::EXIT_CODES)]
    Build(build::BuildArgs),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_name_follows_the_subcommands() {
        let matches = mmd_command()
            .try_get_matches_from(["mmd", "vmd", "trim", "a.vmd", "1", "2", "--dry-run"])
            .unwrap();
        assert_eq!(command_name(&matches), "mmd vmd trim");
        let matches = mmd_command()
            .try_get_matches_from(["mmd", "info", "a.pmx"])
            .unwrap();
        assert_eq!(command_name(&matches), "mmd info");
    }

    #[test]
    fn the_clap_definitions_are_consistent() {
        mmd_command().debug_assert();
    }
}
