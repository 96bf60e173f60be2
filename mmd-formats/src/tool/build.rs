//! `mmd build [--format pmx|pmd|vmd|vpd] IN.json -o OUT`: a file from its JSON form, the
//! inverse of `mmd dump --json`.

use std::io::Write;
use std::path::{Path, PathBuf};

use mmd_formats::tool::FileFormat;

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::guard;
use crate::tool::input::{self, BUG};
use crate::tool::output::{self, Destination};
use crate::tool::Tool;

/// Arguments of `mmd build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The format to build; without it, the extension of OUT says (.pmx, .pmd, .vmd, .vpd).
    // The values are the tool's formats: set where the tool builds its command.
    #[arg(long, ignore_case = true)]
    pub format: Option<String>,
    /// The JSON document, as `mmd dump --json` prints it (`-` reads standard input).
    pub input: PathBuf,
    /// Where to write the file (atomically). It must not be the input.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
}

/// The long description of `mmd build`.
pub const LONG_ABOUT: &str = "\
Build a file from its JSON form, the inverse of `mmd dump --json`: a dump built again
gives the same bytes, and a value changed in the JSON gives a file in which only that
value differs (counts and text lengths follow; nothing else moves).

The JSON is read as `mmd dump --json` prints it: structs are objects (every field, in any
order), sequences arrays, absent blocks null, enum values {\"Variant\": body}, integers and
indices numbers (an index must fit the width the header declares), floats numbers or
{\"bits\": \"hex\"} (NaN and infinities), raw bytes {\"hex\": \"..\"}, flags {\"bits\", \"names\"}
(either one alone decides; both must agree), text a string (encoded in the field's
encoding; a fixed-width name must fit its field) or {\"text\", \"raw\", \"encoding\"}: then
`raw` is kept as it is unless `text` differs from what `raw` decodes to, in which case
the text was edited and is encoded. A VPD's `source` keeps its layout: values that differ
from it are rewritten in place.

Anything that breaks the format's grammar (an index past its width, a name too long for
its field, an unknown variant, a list whose length an earlier field fixes, a missing or
unknown member, a wrong type) is an error naming its JSON path, e.g.
  mmd build: a.json: $.bones[3].name: 22 bytes do not fit the 20-byte field
and nothing is written.

Example (a material's colour, checked with diff):
  mmd dump --json a.pmx | jq '.materials[0].diffuse = [1, 0, 0, 1]' \\
    | mmd build --format pmx - -o b.pmx && mmd diff a.pmx b.pmx";

/// Exit codes of `mmd build`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  the file was built and written
  1  the input is not JSON, or does not make a file of the format (the error names its
     line and column, or its JSON path); nothing was written
  2  usage error (no format from --format or OUT's extension), the input cannot be read,
     OUT is the input, or OUT cannot be written";

/// The format `--format` names, else OUT's extension.
fn format_of(tool: &Tool, args: &BuildArgs) -> Outcome<FileFormat> {
    let formats = tool.formats();
    let by_name = |name: &str| {
        formats
            .iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
            .copied()
    };
    if let Some(f) = args.format.as_deref().and_then(by_name) {
        return Ok(f);
    }
    let by_extension = |ext: &str| {
        formats
            .iter()
            .find(|f| f.extensions().iter().any(|e| e.eq_ignore_ascii_case(ext)))
            .copied()
    };
    args.output
        .extension()
        .and_then(|e| e.to_str())
        .and_then(by_extension)
        .ok_or_else(|| {
            let names: Vec<String> = formats.iter().map(|f| f.name().to_lowercase()).collect();
            let extensions: Vec<String> = formats
                .iter()
                .flat_map(|f| f.extensions())
                .map(|e| format!(".{e}"))
                .collect();
            let endings = match extensions.as_slice() {
                [] => String::new(),
                [one] => format!(", or an OUT ending in {one}"),
                [rest @ .., last] => format!(", or an OUT ending in {} or {last}", rest.join(", ")),
            };
            Stop::trouble(format!(
                "cannot tell which format to build: give --format {}{endings} (not {})",
                names.join("|"),
                args.output.display()
            ))
        })
}

/// The JSON text of the input (`-`: standard input).
fn read_input(path: &Path) -> Outcome<String> {
    let bytes = input::read(path).map_err(|p| match p {
        input::Problem::Unreadable(e) => Stop::trouble(format!("cannot read {}: {e}", shown(path))),
        other => other.at(path),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Stop::failed(format!(
            "{}: not JSON: the text is not UTF-8 (invalid byte at offset {})",
            shown(path),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// True when standard input is the file `path` names (`mmd build - -o a.json < a.json`).
fn stdin_is(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        let (Ok(ours), Ok(out)) = (std::fs::File::from(fd).metadata(), std::fs::metadata(path))
        else {
            return false;
        };
        ours.is_file() && ours.dev() == out.dev() && ours.ino() == out.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// Runs `mmd build`.
pub fn run(tool: &Tool, args: &BuildArgs, out: &mut dyn Write) -> Outcome {
    let format = format_of(tool, args)?;
    let inputs: Vec<&Path> = if args.input == Path::new("-") {
        Vec::new()
    } else {
        vec![args.input.as_path()]
    };
    let destination = Destination {
        output: Some(args.output.clone()),
        in_place: false,
        dry_run: false,
    };
    let target = destination
        .target(&inputs)?
        .ok_or_else(|| Stop::trouble("no output: give -o OUT"))?;
    if args.input == Path::new("-") && stdin_is(&target) {
        return Err(Stop::trouble(format!(
            "-o {} is the file behind standard input: refusing to overwrite the input",
            target.display()
        )));
    }
    let text = read_input(&args.input)?;
    let bytes = match guard::catch(|| format.build(&text)) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => return Err(Stop::failed(format!("{}: {e}", shown(&args.input)))),
        Err(message) => {
            return Err(Stop::failed(format!(
                "{}: {BUG}: {message}",
                shown(&args.input)
            )))
        }
    };
    output::write(&target, &bytes, None)?;
    writeln!(
        out,
        "wrote {} ({}, {} bytes)",
        target.display(),
        format.name(),
        bytes.len()
    )?;
    Ok(Exit::Done)
}
