//! How every command ends: its exit status, and the failure that ends it early.
//!
//! A command returns an [`Outcome`]: `Ok(exit)` when it ran to its end, or a [`Stop`]
//! when it could not. `main` prints a stop's message on stderr after `mmd COMMAND: ` and
//! exits with its status, so no command prints its own failures or names its exit codes
//! as numbers.

use std::io;
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
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Output(e)
    }
}

impl From<serde_json::Error> for Stop {
    fn from(e: serde_json::Error) -> Self {
        Stop::Output(io::Error::from(e))
    }
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
}
