//! `#[derive(Mmd)]`: one annotated struct or enum becomes a byte-exact reader, a writer
//! and a layout descriptor. The attribute glossary lives in the `mmd-formats` docs.
//!
//! The pipeline is `parse -> check -> generate` (see `expand.rs`); attribute mistakes are
//! collected, all reported at once, and a stub impl is still emitted so that one mistake
//! gives one error.

mod ast;
mod attr;
mod check;
mod context;
mod ctxt;
mod describe;
mod expand;
mod fixed;
mod fixed_write;
mod from_json;
mod nest;
mod paths;
mod place;
mod read;
mod size;
mod switch;
mod tree;
mod walk;
mod write;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// The integer types a count may have on disk: the one list, used by the derive's check
/// and, through [`__for_each_count_type`], by the runtime's `CountInt` impls.
const COUNT_TYPES: &[&str] = &["u8", "u16", "u32", "u64", "i8", "i16", "i32"];

/// Derives `Decode`, `Encode`, `Describe`, `Walk`, `FromJson`, `binrw::BinRead` and
/// `binrw::BinWrite` (and, when mmd-formats has its `serde` feature, `serde::Serialize` and
/// `serde::Deserialize`).
///
/// Use it through `mmd_formats::Mmd`. The `mmd-formats` crate documentation has the
/// attribute glossary, a whole downstream format (a header, a declared context, an index
/// kind of its own, errors), and how the derived types sit inside `#[binrw]` structs.
#[proc_macro_derive(Mmd, attributes(mmd))]
pub fn derive_mmd(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}

/// Derives a context computed from fields read earlier: the computation (with its errors),
/// the traits leaf types read with (`TextContext`, `IndexWidth<I>`), and the context's
/// layout descriptor (`DescribeContext`).
///
/// Use it through `mmd_formats::MmdContext`; the `mmd-formats` crate documentation lists
/// its attributes ("Declared contexts") and shows it in a whole downstream format.
#[proc_macro_derive(MmdContext, attributes(mmd))]
pub fn derive_mmd_context(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    context::derive(&input).into()
}

/// `__for_each_count_type!(m)` expands to `m!(u8, u16, ...)` with the count types the
/// derive accepts, so that the runtime implements `CountInt` for exactly those. Not a
/// stable interface.
#[doc(hidden)]
#[proc_macro]
pub fn __for_each_count_type(input: TokenStream) -> TokenStream {
    let name = parse_macro_input!(input as syn::Path);
    let types = COUNT_TYPES
        .iter()
        .map(|t| syn::Ident::new(t, proc_macro2::Span::call_site()));
    quote::quote!(#name!(#(#types),*);).into()
}
