//! Where an edit writes its result, the same for every edit: `-o OUT`, `--in-place` or
//! `--dry-run`, and one atomic write.
//!
//! An edit never overwrites an input unless `--in-place` is given (an `-o` that names an
//! input, through any spelling or link, is refused). Writing goes through the library's
//! [`write_atomic`](mmd_formats::file::write_atomic): a temporary file beside the target,
//! renamed over it, so a failed run leaves every file as it was; a symbolic link given
//! with `--in-place` stays a link (the file it points to is replaced) and a replaced file
//! keeps its permissions.

use std::path::{Path, PathBuf};

use crate::exit::{Outcome, Stop};

/// Where an edit writes its result: exactly one of `-o OUT`, `--in-place` and `--dry-run`.
#[derive(Debug, Clone, clap::Args)]
pub struct Destination {
    /// Write the result to OUT (atomically). It must not be an input.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        required_unless_present_any = ["in_place", "dry_run"],
        conflicts_with = "in_place"
    )]
    pub output: Option<PathBuf>,
    /// Replace the input (for merge, the first input) with the result, atomically; a
    /// symbolic link stays a link and the file keeps its permissions.
    #[arg(long)]
    pub in_place: bool,
    /// Make the edit and print the report, but write nothing.
    #[arg(long, conflicts_with_all = ["output", "in_place"])]
    pub dry_run: bool,
}

impl Destination {
    /// The file to write (`None` for a dry run): OUT, or with `--in-place` the first input.
    /// Refuses an OUT that is one of `inputs`.
    pub fn target(&self, inputs: &[&Path]) -> Outcome<Option<PathBuf>> {
        if self.dry_run {
            return Ok(None);
        }
        if self.in_place {
            return Ok(inputs.first().map(|p| p.to_path_buf()));
        }
        let Some(out) = &self.output else {
            // clap asks for one of the three; a value built in code may still lack them.
            return Err(Stop::trouble(
                "no output: give -o OUT, --in-place or --dry-run",
            ));
        };
        if let Some(input) = inputs.iter().find(|i| same_file(i, out)) {
            return Err(Stop::trouble(format!(
                "-o {} is the input {}: refusing to overwrite it (use --in-place to replace \
                 it)",
                out.display(),
                input.display()
            )));
        }
        Ok(Some(out.clone()))
    }
}

/// Writes `bytes` to `target` atomically; a failure names the path and what is missing.
pub fn write(target: &Path, bytes: &[u8]) -> Outcome<()> {
    mmd_formats::file::write_atomic(target, bytes).map_err(|e| Stop::trouble(e.to_string()))
}

/// True when `a` and `b` are the same path, or name the same existing file (through
/// links and other spellings too).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::Exit;

    fn destination(output: Option<&str>, in_place: bool, dry_run: bool) -> Destination {
        Destination {
            output: output.map(PathBuf::from),
            in_place,
            dry_run,
        }
    }

    #[test]
    fn each_destination_names_its_target() {
        let input = Path::new("in.vmd");
        let to = |d: Destination| d.target(&[input]).map_err(|_| ()).unwrap();
        assert_eq!(to(destination(None, false, true)), None);
        assert_eq!(
            to(destination(None, true, false)),
            Some(PathBuf::from("in.vmd"))
        );
        assert_eq!(
            to(destination(Some("out.vmd"), false, false)),
            Some(PathBuf::from("out.vmd"))
        );
        match destination(Some("in.vmd"), false, false).target(&[input]) {
            Err(Stop::Fail(Exit::Trouble, m)) => assert!(m.contains("refusing"), "{m}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert!(matches!(
            destination(None, false, false).target(&[input]),
            Err(Stop::Fail(Exit::Trouble, _))
        ));
    }
}
