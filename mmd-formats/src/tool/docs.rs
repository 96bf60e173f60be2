//! `mmd completions SHELL` and `mmd man`: shell completions and manual pages, generated
//! from the same clap definitions the command line is parsed with, so they list exactly
//! the commands and options there are (`clap_complete`, `clap_mangen`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Command;
use clap_complete::Shell;
use clap_mangen::Man;

use crate::tool::exit::{Exit, Outcome, Stop};
use crate::tool::output;

/// The long description of `mmd completions`.
pub const COMPLETIONS_ABOUT: &str = "\
Print the completion script of mmd for SHELL on stdout: subcommands, options and the values
they take complete on Tab. Install it where the shell looks, for example:

  bash   mmd completions bash > ~/.local/share/bash-completion/completions/mmd
  zsh    mmd completions zsh > ~/.zfunc/_mmd
         (with `fpath+=~/.zfunc` before `compinit` in ~/.zshrc)
  fish   mmd completions fish > ~/.config/fish/completions/mmd.fish
  elvish mmd completions elvish >> ~/.config/elvish/rc.elv
  powershell
         mmd completions powershell >> $PROFILE

Then open a new shell.";

/// The long description of `mmd man`.
pub const MAN_ABOUT: &str = "\
Print the manual page mmd(1) on stdout, in roff (view it with `mmd man | man -l -`), or
with --dir DIR write it and a page for every subcommand (mmd-check(1), mmd-vmd-trim(1), ...)
into DIR, each file written atomically, and list the files written. To install the pages
for your user:

  mmd man --dir ~/.local/share/man/man1
  man mmd-check

The pages say what --help says: they are made from the same definitions.";

/// The exit codes of `mmd completions`.
pub const COMPLETIONS_EXIT_CODES: &str =
    "Exit codes: 0 = the script was printed; 2 = usage error (an unknown shell).";

/// The exit codes of `mmd man`.
pub const MAN_EXIT_CODES: &str = "Exit codes: 0 = printed or written; 2 = usage error, or a \
page that cannot be written (the folder does not exist, no permission).";

/// Arguments of `mmd completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Arguments of `mmd man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write mmd.1 and one page per subcommand into DIR (which must exist) instead of
    /// printing mmd.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Runs `mmd completions`: the script for the shell, for `cli` (the whole command line).
pub fn completions(args: &CompletionsArgs, mut cli: Command, out: &mut dyn Write) -> Outcome {
    // Generated into memory first: clap_complete panics on a write that fails, and a
    // closed pipe is no failure.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "mmd", &mut script);
    out.write_all(&script)?;
    Ok(Exit::Done)
}

/// Every page of `cli`: the command's own, then each subcommand's (depth first), as file
/// names (`mmd-vmd-trim.1`) and roff text.
pub fn pages(cli: Command) -> Outcome<Vec<(String, Vec<u8>)>> {
    fn add(cmd: &Command, pages: &mut Vec<(String, Vec<u8>)>) -> Outcome<()> {
        // Every page names the tool and its version (a subcommand has none of its own).
        let man = Man::new(cmd.clone())
            .source(format!("mmd {}", env!("CARGO_PKG_VERSION")))
            .manual("mmd manual");
        let mut roff = Vec::new();
        man.render(&mut roff)
            .map_err(|e| Stop::failed(format!("cannot render a manual page: {e}")))?;
        pages.push((man.get_filename(), roff));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            add(sub, pages)?;
        }
        Ok(())
    }
    let mut cli = cli.disable_help_subcommand(true);
    // Building sets each subcommand's display name (`mmd-vmd-trim`), which names its page.
    cli.build();
    let mut pages = Vec::new();
    add(&cli, &mut pages)?;
    Ok(pages)
}

/// Runs `mmd man`.
pub fn man(args: &ManArgs, cli: Command, out: &mut dyn Write) -> Outcome {
    let pages = pages(cli)?;
    let Some(dir) = &args.dir else {
        let (_, top) = pages
            .first()
            .ok_or_else(|| Stop::failed("no manual page"))?;
        out.write_all(top)?;
        return Ok(Exit::Done);
    };
    for (name, roff) in &pages {
        let path = Path::new(dir).join(name);
        output::write(&path, roff, None)?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(Exit::Done)
}
