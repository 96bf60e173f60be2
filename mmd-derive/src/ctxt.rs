//! Collects every attribute error so that users see all their mistakes at once.

use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;

/// An error sink, checked once at the end of parsing and checking.
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Vec::new()),
        }
    }

    /// Records an error spanned on `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, msg: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    /// Records a ready-made error.
    pub fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// How many errors have been recorded so far (to tell whether parsing one attribute
    /// list failed, so that follow-on checks can stay quiet).
    pub fn error_count(&self) -> usize {
        self.errors.borrow().len()
    }

    /// All errors recorded, or `Ok` if there were none.
    pub fn check(self) -> Result<(), Vec<syn::Error>> {
        let errors = self.errors.into_inner();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}
