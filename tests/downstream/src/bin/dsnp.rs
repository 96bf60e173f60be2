//! `dsnp`: check, info, dump, explain, diff and build for DSNP files, the same commands
//! `mmd` gives its own formats, from one library call.

use mmd_downstream::Dsnp;
use mmd_formats::tool::{FileFormat, Tool};

fn main() -> std::process::ExitCode {
    Tool::new("dsnp", "Byte-exact tools for DSNP (dance snippet) files.")
        .format(FileFormat::derived::<Dsnp>("DSNP", b"DSNP").with_extensions(&["dsnp"]))
        .main()
}
