//! How every command ends: its exit status, and the failure that ends it early.
//!
//! A command returns an [`Outcome`]: `Ok(exit)` when it ran to its end, or a [`Stop`]
//! when it could not. `main` prints a stop's message on stderr after `mmd COMMAND: ` and
//! exits with its status, so no command prints its own failures or names its exit codes
//! as numbers.

use std::io::{self, Write};
use std::process::ExitCode;

/// The exit status of every command: each command's `--help` says what each means for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done (check: every supported file is byte-exact; diff: the files agree).
    Done,
    /// 1: a file failed or does not read, or an edit cannot be made (diff: the files
    /// differ).
    Failed,
    /// 2: usage error, an input that cannot be read or is in no supported format, an output
    /// that cannot be written (diff: any trouble).
    Trouble,
}

impl Exit {
    /// The status number.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Done => 0,
            Exit::Failed => 1,
            Exit::Trouble => 2,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit.code())
    }
}

/// Why a command ended before its end.
#[derive(Debug)]
pub enum Stop {
    /// A failure: the message for stderr (without the `mmd COMMAND: ` before it) and the
    /// status to exit with.
    Fail(Exit, String),
    /// Writing the output (stdout) failed.
    Output(io::Error),
    /// The reader of the output closed it (`mmd dump big.pmx | head`): the command ends
    /// quietly, with the status of what it had found before (see [`Stop::closed_with`]).
    Closed(Exit),
}

impl Stop {
    /// A failure with exit status 1 ([`Exit::Failed`]).
    pub fn failed(message: impl Into<String>) -> Self {
        Stop::Fail(Exit::Failed, message.into())
    }

    /// A failure with exit status 2 ([`Exit::Trouble`]).
    pub fn trouble(message: impl Into<String>) -> Self {
        Stop::Fail(Exit::Trouble, message.into())
    }

    /// For an output closed by its reader, the status to end with: `exit`, what the
    /// command had found when the pipe closed (for `diff`, that the files differ). A closed
    /// pipe is not trouble: the reader had read what it wanted. Other stops pass through.
    pub fn closed_with(self, exit: Exit) -> Self {
        match self {
            Stop::Closed(_) => Stop::Closed(exit),
            other => other,
        }
    }
}

impl From<io::Error> for Stop {
    /// A write to the output that failed; a closed pipe ends the command with status 0
    /// unless the command says otherwise ([`Stop::closed_with`]).
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Stop::Closed(Exit::Done)
        } else {
            Stop::Output(e)
        }
    }
}

impl From<serde_json::Error> for Stop {
    fn from(e: serde_json::Error) -> Self {
        Stop::from(io::Error::from(e))
    }
}

/// Prints a warning on stderr as `COMMAND: warning: MESSAGE` (`mmd vmd sample: warning:
/// ...`): something unusual that the command still did as asked. A warning never changes
/// the exit status, and a stderr that cannot be written loses it silently.
pub fn warn(command: &str, message: &str) {
    let _ = writeln!(
        io::stderr(),
        "{command}: warning: {}",
        crate::tool::shown::line(message)
    );
}

/// What a command gives back: the status it ends with, or why it stopped.
pub type Outcome<T = Exit> = Result<T, Stop>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_statuses() {
        assert_eq!(
            [Exit::Done, Exit::Failed, Exit::Trouble].map(Exit::code),
            [0, 1, 2]
        );
        assert!(matches!(Stop::failed("x"), Stop::Fail(Exit::Failed, m) if m == "x"));
        assert!(matches!(Stop::trouble("y"), Stop::Fail(Exit::Trouble, _)));
    }

    #[test]
    fn a_closed_pipe_is_no_trouble() {
        let closed = Stop::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(matches!(closed, Stop::Closed(Exit::Done)));
        assert!(matches!(
            closed.closed_with(Exit::Failed),
            Stop::Closed(Exit::Failed)
        ));
        let full = Stop::from(io::Error::from(io::ErrorKind::StorageFull));
        assert!(matches!(full, Stop::Output(_)));
        assert!(matches!(
            Stop::failed("x").closed_with(Exit::Done),
            Stop::Fail(Exit::Failed, _)
        ));
    }
}
