//! The progress bar of `mmd check`: drawn on stderr, only when stderr is a terminal and
//! the work is worth watching (several files, or large ones); otherwise nothing at all,
//! so pipes, logs and `--json` consumers see no trace of it. Lines printed while it is
//! shown are printed above it.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work of at least this many bytes gets a bar even for one file.
const LARGE: u64 = 8 << 20;

/// True when a bar is worth drawing for `files` files of `bytes` bytes in all.
pub fn worth_showing(files: usize, bytes: u64, stderr_is_terminal: bool) -> bool {
    stderr_is_terminal && (files >= 2 || bytes >= LARGE)
}

/// A bar over bytes checked, or nothing.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar for files of these sizes, when [`worth_showing`].
    pub fn for_files(sizes: &[u64]) -> Self {
        let total: u64 = sizes.iter().sum();
        if !worth_showing(sizes.len(), total, std::io::stderr().is_terminal()) {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    /// Shows `name` as the file being worked on.
    pub fn start(&self, name: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(name.to_owned());
        }
    }

    /// Counts `bytes` as done.
    pub fn done(&self, bytes: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(bytes);
        }
    }

    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_only_for_a_terminal_and_work_worth_watching() {
        assert!(
            !worth_showing(100, 1 << 30, false),
            "never without a terminal"
        );
        assert!(!worth_showing(1, 1000, true), "one small file: no bar");
        assert!(!worth_showing(0, 0, true));
        assert!(worth_showing(2, 10, true), "several files");
        assert!(worth_showing(1, LARGE, true), "one large file");
    }
}
