//! Records that name fields of the record holding them (`#[mmd(parent = Section)]` on the
//! held type, `parent.item_count` in its expressions, `#[mmd(with_parent)]` on the field
//! of `Section` that holds it; Kaitai's `_parent`).
//!
//! The holder's derive declares the fields its held values see: a struct with a reference
//! to each field read before its first `with_parent` field (and `parent`, the holder's own
//! enclosing fields, when it names a parent too), and `Enclosing::Fields` naming it. Each
//! value of a `with_parent` field is read, written, sized and built from JSON with the
//! context `Within::new(ctx, &fields)`, which dereferences to the context in force. The held
//! type implements its traits for `Within<'_, C, <Section as Enclosing>::Fields<'_>>`, and
//! its bodies begin by taking the fields as `parent` and the context in force as `ctx`.

use crate::ast::{Container, Data, Fields};
use crate::paths::Paths;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The first field whose values see this record's fields, if any.
pub fn first(fields: &Fields) -> Option<usize> {
    fields
        .fields
        .iter()
        .position(|f| f.shape.as_ref().is_some_and(|s| s.with_parent))
}

/// True when field `i` is read with this record's fields in view.
pub fn is_with_parent(fields: &Fields, i: usize) -> bool {
    fields.fields[i]
        .shape
        .as_ref()
        .is_some_and(|s| s.with_parent)
}

/// The name of the fields struct: `SectionBeforeFrames` (the record, then the first field
/// that holds values that see it, in camel case), as rustc names it in a message about a
/// field that is not there.
fn view_ident(cont: &Container, fields: &Fields, first: usize) -> syn::Ident {
    let field = &fields.fields[first].name;
    let camel: String = field
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(h) => h.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect();
    format_ident!("{}Before{}", cont.ident, camel)
}

/// The fields struct and the `Enclosing` impl, for a struct with `with_parent` fields.
pub fn declare(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let enclosing = &p.enclosing;
    let ident = cont.ident;
    let first = match &cont.data {
        Data::Struct(fields) => first(fields).map(|i| (fields, i)),
        Data::Enum(_) => None,
    };
    let Some((fields, first)) = first else {
        return none_passed(p, ident);
    };
    let view = view_ident(cont, fields, first);
    let names: Vec<_> = fields.fields[..first].iter().map(|f| &f.binding).collect();
    let tys: Vec<_> = fields.fields[..first].iter().map(|f| f.ty).collect();
    let docs = fields.fields[..first]
        .iter()
        .map(|f| format!("`{}` as read.", f.name));
    let doc_none = "No field is read before the values that see this record.";
    let doc = format!(
        "The fields of `{ident}` read before `{}`, which the values of its `with_parent` \
         fields name as `parent.field`.",
        fields.fields[first].name
    );
    match cont.attrs.ty("parent").map(|t| t.value) {
        Some(up) => quote! {
            #[doc = #doc]
            #[allow(private_interfaces, dead_code, non_camel_case_types)]
            pub struct #view<'__mmd_p, __P: ?::core::marker::Sized> {
                #( #[doc = #docs] pub(crate) #names: &'__mmd_p #tys, )*
                /// The fields of the record that holds this one.
                pub(crate) parent: &'__mmd_p __P,
            }
            #[automatically_derived]
            impl #enclosing for #ident {
                type Fields<'__mmd_p> = #view<'__mmd_p, <#up as #enclosing>::Fields<'__mmd_p>>;
            }
        },
        // Nothing to hold: a unit struct, which a message names without a lifetime.
        None if first == 0 => quote! {
            #[doc = #doc]
            #[doc = #doc_none]
            #[allow(dead_code, non_camel_case_types)]
            pub struct #view;
            #[automatically_derived]
            impl #enclosing for #ident {
                type Fields<'__mmd_p> = #view;
            }
        },
        None => quote! {
            #[doc = #doc]
            #[allow(private_interfaces, dead_code, non_camel_case_types)]
            pub struct #view<'__mmd_p> {
                #( #[doc = #docs] pub(crate) #names: &'__mmd_p #tys, )*
            }
            #[automatically_derived]
            impl #enclosing for #ident {
                type Fields<'__mmd_p> = #view<'__mmd_p>;
            }
        },
    }
}

/// `impl Enclosing for T { type Fields = NoFieldsPassed; }`: for a type with no
/// `with_parent` field (and for the stub of a type whose attributes are wrong), so that a
/// type naming it as its parent is an error at the field that holds it, once.
pub fn none_passed(p: &Paths, ident: &syn::Ident) -> TokenStream {
    let Paths {
        enclosing,
        no_fields_passed,
        ..
    } = p;
    quote! {
        #[automatically_derived]
        impl #enclosing for #ident {
            type Fields<'__mmd_p> = #no_fields_passed;
        }
    }
}

/// `let __mmd_view = SectionBeforeFrames { .. };` from the field bindings (`&T`) in scope,
/// before field `i` when it is the first `with_parent` field.
pub fn build_before(cont: &Container, fields: &Fields, i: usize) -> TokenStream {
    if first(fields) != Some(i) {
        return quote!();
    }
    let view = view_ident(cont, fields, i);
    let names: Vec<_> = fields.fields[..i].iter().map(|f| &f.binding).collect();
    let up = cont.attrs.has("parent").then(|| quote!(parent: parent,));
    if i == 0 && up.is_none() {
        return quote! { let __mmd_view = #view; };
    }
    quote! {
        let __mmd_view = #view { #(#names: #names,)* #up };
    }
}

/// `code` run with `ctx` holding this record's fields, when field `i` is `with_parent`.
pub fn wrap(p: &Paths, fields: &Fields, i: usize, code: TokenStream) -> TokenStream {
    if !is_with_parent(fields, i) {
        return code;
    }
    let within = &p.within;
    quote! {{
        let ctx = &#within::new(ctx, &__mmd_view);
        #code
    }}
}

/// The statements that begin a body of a type that names its parent: `parent` is the
/// enclosing record's fields, `ctx` the context in force.
pub fn unwrap(cont: &Container) -> TokenStream {
    if !cont.attrs.has("parent") {
        return quote!();
    }
    let within = &cont.paths.within;
    quote! {
        let parent = #within::fields(ctx);
        let ctx = #within::outer(ctx);
    }
}

/// The context type a type that names its parent is read with, for the context `inner`
/// and the lifetime `lt`: `Within<'lt, inner, <Parent as Enclosing>::Fields<'lt>>`; else
/// `inner`.
pub fn ctx_type(cont: &Container, inner: TokenStream, lt: TokenStream) -> TokenStream {
    match cont.attrs.ty("parent").map(|t| t.value) {
        Some(up) => {
            let Paths {
                within, enclosing, ..
            } = &cont.paths;
            quote!(#within<#lt, #inner, <#up as #enclosing>::Fields<#lt>>)
        }
        None => inner,
    }
}
