//! Running library code so that a panic becomes one file's error, not the end of the run.
//!
//! A panic inside mmd-formats is a bug, but one bad file must not hide the results for
//! the others. [`catch`] runs a closure under `catch_unwind` with a panic hook that stays
//! quiet (it only records where the panic happened), so the output keeps its one line per
//! file; panics anywhere else still go to the default hook.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// True while this thread runs inside [`catch`].
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last quiet panic happened (`src/pmx/bone.rs:12:5`).
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once per process, the hook that is quiet inside [`catch`].
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let location = info.location().map(|l| l.to_string());
                LOCATION.with(|l| *l.borrow_mut() = location);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; a panic inside it comes back as `Err` with its message and location.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    LOCATION.with(|l| l.borrow_mut().take());
    let was_quiet = QUIET.with(|q| q.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was_quiet));
    result.map_err(|payload| {
        let message = payload_message(payload.as_ref());
        match LOCATION.with(|l| l.borrow_mut().take()) {
            Some(location) => format!("{message} (at {location})"),
            None => message,
        }
    })
}

/// The text of a panic payload (`panic!("...")` gives a `&str` or a `String`).
fn payload_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-text payload".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message_and_location() {
        let err = catch(|| -> u8 { panic!("boom {}", 7) }).unwrap_err();
        assert!(err.starts_with("boom 7 (at "), "{err}");
        assert!(err.contains("guard.rs:"), "{err}");
    }

    #[test]
    fn a_str_payload_is_kept() {
        let err = catch(|| std::panic::panic_any("plain")).unwrap_err();
        assert!(err.starts_with("plain (at "), "{err}");
    }

    #[test]
    fn no_panic_passes_the_value_through() {
        assert_eq!(catch(|| 41 + 1), Ok(42));
        assert!(!QUIET.with(Cell::get), "quiet mode must end with the call");
    }
}
