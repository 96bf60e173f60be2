//! `#[derive(Mmd)]`: one annotated struct or enum becomes a byte-exact reader, a writer
//! and a layout descriptor. The attribute glossary lives in the `mmd-formats` docs.
//!
//! The pipeline is `parse -> check -> generate` (see `expand.rs`); attribute mistakes are
//! collected, all reported at once, and a stub impl is still emitted so that one mistake
//! gives one error.

mod ast;
mod attr;
mod check;
mod ctxt;
mod describe;
mod expand;
mod paths;
mod read;
mod walk;
mod write;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `Decode`, `Encode`, `Describe`, `Walk`, `binrw::BinRead` and `binrw::BinWrite`.
///
/// See the `mmd-formats` crate documentation for the attributes.
#[proc_macro_derive(Mmd, attributes(mmd))]
pub fn derive_mmd(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
