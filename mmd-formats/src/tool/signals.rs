//! Removing the temporary file of a write when the run is stopped (issue 25 item 7).
//!
//! Every output is written to a temporary file beside it and renamed over it
//! ([`write_atomic_with`](mmd_formats::file::write_atomic_with)). A SIGINT (Ctrl-C),
//! SIGTERM or SIGHUP in between would leave that file behind; the handler installed here
//! removes it (`unlink`, which a signal handler may call), then ends the process by the
//! same signal, as if no handler were there. A signal that was ignored when the run began
//! (`nohup` ignores SIGHUP) stays ignored.
//!
//! On systems other than Unix nothing is installed: [`temporary`] only records the path.

use std::path::Path;

/// Holds back SIGINT, SIGTERM and SIGHUP until [`temporary`] records the temporary file
/// about to be created (or [`release`] is called): a signal between its creation and its
/// recording would otherwise leave it. A signal held back is delivered, and handled, as
/// soon as the path is recorded.
pub fn hold() {
    #[cfg(unix)]
    unix::mask(libc::SIG_BLOCK);
}

/// Lets the signals [`hold`] held back through again.
pub fn release() {
    #[cfg(unix)]
    unix::mask(libc::SIG_UNBLOCK);
}

/// Records `path` as the temporary file to remove if the run is stopped, or, with `None`,
/// that there is none any more (it was renamed or removed); then [`release`]s the signals.
pub fn temporary(path: Option<&Path>) {
    #[cfg(unix)]
    unix::temporary(path);
    #[cfg(not(unix))]
    let _ = path;
    release();
}

#[cfg(unix)]
mod unix {
    use std::ffi::CString;
    use std::os::raw::{c_char, c_int};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::atomic::{AtomicPtr, Ordering};
    use std::sync::Once;

    /// The temporary file to remove, as a NUL-terminated path (null: none). A path once
    /// stored is never freed: the handler may be reading it on another thread, and a run
    /// writes one or two files.
    static TEMPORARY: AtomicPtr<c_char> = AtomicPtr::new(ptr::null_mut());

    /// The signals that stop a run and after which the temporary file is removed.
    const SIGNALS: [c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    pub fn temporary(path: Option<&Path>) {
        install();
        let new = path
            .and_then(|p| CString::new(p.as_os_str().as_bytes()).ok())
            .map_or(ptr::null_mut(), CString::into_raw);
        TEMPORARY.store(new, Ordering::SeqCst);
    }

    /// Blocks (`SIG_BLOCK`) or unblocks (`SIG_UNBLOCK`) [`SIGNALS`] for this thread, the
    /// one that writes; the handler is installed first.
    pub fn mask(how: c_int) {
        install();
        // SAFETY: a sigset_t initialised by sigemptyset before use; pthread_sigmask with
        // a valid set and no old set.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for signal in SIGNALS {
                libc::sigaddset(&mut set, signal);
            }
            libc::pthread_sigmask(how, &set, ptr::null_mut());
        }
    }

    /// Installs the handler for [`SIGNALS`], once, leaving an ignored signal ignored.
    fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for signal in SIGNALS {
                // SAFETY: `on_signal` is an `extern "C" fn(c_int)` that only calls
                // async-signal-safe functions (unlink, signal, raise).
                unsafe {
                    let handler = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                    let previous = libc::signal(signal, handler);
                    if previous == libc::SIG_IGN {
                        libc::signal(signal, libc::SIG_IGN);
                    }
                }
            }
        });
    }

    /// Removes the temporary file, if any, then ends the process by `signal`.
    extern "C" fn on_signal(signal: c_int) {
        let path = TEMPORARY.swap(ptr::null_mut(), Ordering::SeqCst);
        // SAFETY: a non-null `path` is a NUL-terminated string that is never freed;
        // unlink, signal and raise are async-signal-safe.
        unsafe {
            if !path.is_null() {
                libc::unlink(path);
            }
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}
