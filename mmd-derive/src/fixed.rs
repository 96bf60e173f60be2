//! Generates the reader's fixed path. For a record (a struct, or a variant's fields)
//! whose every field is one value, always present, read with the record's own context:
//! the size of the record given the context (`Decode::fixed_size`, `None` as soon as a
//! field's type has no fixed size) and a decoder from bytes checked once for the whole
//! record (`Decode::decode_fixed`), also put in front of the record's ordinary reader. In
//! a record that cannot take the path as a whole, each run of two or more such fields is
//! read the same way. The ordinary reader (`read.rs`) stays the only one that reports
//! errors: the fixed path declines, and the fields are read one by one, when the bytes
//! run out or a field's type has no fixed size.

use crate::ast::{Container, Data, Field, Fields, Presence, Repeat};
use crate::paths::Paths;
use proc_macro2::TokenStream;
use quote::quote;
use std::ops::Range;

/// True when field `f` can take the fixed path: one value, always present, no selector,
/// no context switch (its layout is then fixed by the context alone, once its type says
/// it is).
fn simple(f: &Field) -> bool {
    !f.from_tag
        && f.shape.as_ref().is_some_and(|s| {
            matches!(s.repeat, Repeat::One)
                && matches!(s.presence, Presence::Always)
                && s.select.is_none()
                && s.size.is_none()
                && s.sequential()
                && s.switch_ctx.is_none()
                && s.context.is_none()
                && !s.with_parent
                // The fixed path decodes numbers little-endian.
                && s.endian.is_little()
        })
}

/// True when every field of `fields` can take the fixed path.
pub fn eligible(fields: &Fields) -> bool {
    fields.fields.iter().all(simple)
}

/// The runs of two or more consecutive fields that can take the fixed path together,
/// in a record that cannot take it as a whole (a record that can has no runs: it takes
/// the path as a whole). A field whose start a context argument needs is left out.
pub fn runs(fields: &Fields) -> Vec<Range<usize>> {
    if eligible(fields) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..=fields.fields.len() {
        let ok =
            fields.fields.get(i).is_some_and(|f| simple(f)) && !crate::switch::is_root(fields, i);
        if !ok {
            if i - start >= 2 {
                out.push(start..i);
            }
            start = i + 1;
        }
    }
    out
}

/// An expression of type `Option<usize>`: the size of `fields` with `ctx`, or `None`.
fn size_of(p: &Paths, fields: &[Field]) -> TokenStream {
    let Paths {
        decode,
        some,
        option,
        ..
    } = p;
    let parts = fields.iter().map(|f| {
        let vt = &f.shape.as_ref().expect("checked").value_ty;
        quote! { __mmd_n = __mmd_n.checked_add(<#vt as #decode<_>>::fixed_size(ctx)?)?; }
    });
    quote! {
        (|| -> #option<usize> {
            let mut __mmd_n: usize = 0;
            #(#parts)*
            #some(__mmd_n)
        })()
    }
}

/// The expressions that decode each of `fields` from `__mmd_b: &mut FixedBytes` (in an
/// `Option` context).
fn fixed_values<'a>(p: &'a Paths, fields: &'a [Field]) -> impl Iterator<Item = TokenStream> + 'a {
    let decode = &p.decode;
    fields.iter().map(move |f| {
        let vt = &f.shape.as_ref().expect("checked").value_ty;
        quote! { <#vt as #decode<_>>::decode_fixed(__mmd_b, ctx)? }
    })
}

/// An expression of type `Option<T>` that decodes the record built by `build` from
/// `__mmd_b: &mut FixedBytes`, field by field in file order.
fn decode_expr(p: &Paths, fields: &Fields, build: TokenStream) -> TokenStream {
    let some = &p.some;
    let members = fields.fields.iter().map(|f| &f.member);
    let values = fixed_values(p, &fields.fields);
    match fields.style {
        crate::ast::Style::Unit => quote! { #some(#build) },
        _ => quote! { #some(#build { #(#members: #values),* }) },
    }
}

/// An expression: the value `decode` (an `Option`, over `__mmd_b: &mut FixedBytes`)
/// builds from the next `size` bytes on the fixed path, else `slow`.
fn fixed_or(p: &Paths, size: TokenStream, decode: TokenStream, slow: TokenStream) -> TokenStream {
    let Paths {
        rt,
        option,
        fixed_bytes,
        some,
        ..
    } = p;
    quote! {
        if let #some(__mmd_fixed) = #rt::fixed_one(
            __mmd_input,
            #size,
            |__mmd_b: &mut #fixed_bytes<'_>| -> #option<_> { #decode },
        ) {
            __mmd_fixed
        } else {
            #slow
        }
    }
}

/// An expression that reads the fields `run` as a tuple: on the fixed path after one
/// bounds check, else with `slow` (a tuple of the ordinary reads).
pub fn run_expr(p: &Paths, fields: &Fields, run: Range<usize>, slow: TokenStream) -> TokenStream {
    let run = &fields.fields[run];
    let values = fixed_values(p, run);
    let some = &p.some;
    fixed_or(p, size_of(p, run), quote! { #some((#(#values,)*)) }, slow)
}

/// The reader of `fields` with the fixed path in front: `slow` (the statements and value
/// of the ordinary reader) runs when the fixed path declines.
pub fn with_fixed_path(
    p: &Paths,
    fields: &Fields,
    build: &TokenStream,
    slow: TokenStream,
) -> TokenStream {
    if !eligible(fields) {
        return slow;
    }
    let size = size_of(p, &fields.fields);
    fixed_or(p, size, decode_expr(p, fields, build.clone()), slow)
}

/// The `fixed_size` and `decode_fixed` methods of a struct's `Decode` impl, when it can
/// take the fixed path (none for enums: a tag decides their layout; none for a signature,
/// which is checked by the ordinary reader).
pub fn methods(cont: &Container, ctx_ty: &TokenStream) -> TokenStream {
    let Data::Struct(fields) = &cont.data else {
        return quote!();
    };
    // A type that names its parent is read with `Within`, whose fixed path would be its
    // fields' with the context in force: it takes the ordinary reader.
    if !eligible(fields) || cont.attrs.byte_str("magic").is_some() || cont.attrs.has("parent") {
        return quote!();
    }
    let p = &cont.paths;
    let Paths {
        option,
        fixed_bytes,
        ..
    } = p;
    let size = size_of(p, &fields.fields);
    let decode = decode_expr(p, fields, quote!(Self));
    quote! {
        #[inline]
        fn fixed_size(ctx: &#ctx_ty) -> #option<usize> {
            #size
        }
        #[inline]
        fn decode_fixed(__mmd_b: &mut #fixed_bytes<'_>, ctx: &#ctx_ty) -> #option<Self> {
            #decode
        }
    }
}
