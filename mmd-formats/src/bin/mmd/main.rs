//! `mmd`: the command-line tool of mmd-formats, the one call [`mmd_formats::tool::mmd_main`].

fn main() -> std::process::ExitCode {
    mmd_formats::tool::mmd_main()
}
