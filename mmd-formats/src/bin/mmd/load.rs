//! Reading one file argument for the read commands (`dump`, `explain`, `diff`): the bytes
//! and the format, or the message and exit code 2 that `mmd` gives for an unreadable path
//! or an unknown format.

use std::io::{self, Write};
use std::path::Path;

use mmd_formats::format::Format;

/// Exit code: usage error, unreadable path, unknown format.
pub const EXIT_USAGE: u8 = 2;

/// The bytes of `path` and their format; on failure the message is on stderr and the
/// result is the exit code.
pub fn load(command: &str, path: &Path) -> io::Result<Result<(Vec<u8>, Format), u8>> {
    let shown = path.display();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            writeln!(io::stderr(), "mmd {command}: cannot read {shown}: {e}")?;
            return Ok(Err(EXIT_USAGE));
        }
    };
    match Format::detect(&bytes) {
        Some(format) => Ok(Ok((bytes, format))),
        None => {
            writeln!(
                io::stderr(),
                "mmd {command}: {shown}: not a PMX, PMD, VMD or VPD file"
            )?;
            Ok(Err(EXIT_USAGE))
        }
    }
}

/// Runs library code on a file, turning a read error or a panic into a message on stderr
/// and an exit code: 1 for a file that does not read, 1 for an internal error.
pub fn run_lib<T>(
    command: &str,
    path: &Path,
    format: Format,
    f: impl FnOnce() -> mmd_formats::Result<T>,
) -> io::Result<Result<T, u8>> {
    let shown = path.display();
    match crate::guard::catch(f) {
        Ok(Ok(v)) => Ok(Ok(v)),
        Ok(Err(e)) => {
            writeln!(
                io::stderr(),
                "mmd {command}: {shown} ({}): {e}",
                format.name()
            )?;
            Ok(Err(1))
        }
        Err(panic) => {
            writeln!(
                io::stderr(),
                "mmd {command}: {shown}: internal error (this is a bug in mmd-formats): {panic}"
            )?;
            Ok(Err(1))
        }
    }
}
