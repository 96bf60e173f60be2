//! Generates `Encode::size_hint` and `Encode::seq_size_hint`: how many bytes the writer
//! (`write.rs`) writes for a value, for a writer to reserve before it writes. It follows
//! the writer field by field (magic, tag, counts, lengths, optional fields, the context
//! switches) and adds up what each part writes, without writing it. What the writer would
//! refuse (a context that cannot be computed from the fields) gives 0, unknown.

use crate::ast::{Container, Data, Fields, Presence, Repeat};
use crate::paths::Paths;
use crate::read::tag_pattern;
use crate::write::bind_pattern;
use proc_macro2::TokenStream;
use quote::quote;

/// Statements (in a `Result<usize>` closure) that add the size of `fields`, whose bindings
/// (`&T`) are in scope, to `__mmd_size`.
fn size_fields(p: &Paths, cont: &Container, fields: &Fields) -> TokenStream {
    let Paths {
        rt,
        encode,
        seq,
        some,
        ..
    } = p;
    let here = quote!((__mmd_size as u64));
    let mut stmts = Vec::new();
    let mut ctx_n = 0usize;
    for (i, f) in fields.fields.iter().enumerate() {
        let shape = f.shape.as_ref().expect("checked");
        let b = &f.binding;
        let vt = &shape.value_ty;
        // The size of `__mmd_val: &FieldValue`.
        let size = match &shape.repeat {
            // The gaps: their bytes (positioned values add their own sizes, exact unless
            // they overlap).
            Repeat::One if shape.gaps => quote! {
                __mmd_val.iter().fold(0usize, |__mmd_s, __mmd_g| __mmd_s.saturating_add(__mmd_g.len()))
            },
            Repeat::One => quote! { <#vt as #encode<_>>::size_hint(__mmd_val, ctx) },
            Repeat::Count(n) => quote! {
                (<#n as #rt::CountInt>::SIZE as usize)
                    .saturating_add(<_ as #seq<#vt>>::size_hint_all(__mmd_val, ctx))
            },
            Repeat::Len(_) => quote! { <_ as #seq<#vt>>::size_hint_all(__mmd_val, ctx) },
            // Every element to the end, or up to and including the one that ends the
            // list: what is written is the elements, nothing else. (A `size` bound
            // adds nothing: the writer refuses a value that does not fill it.)
            Repeat::Rest | Repeat::Until(_) => {
                quote! { <_ as #seq<#vt>>::size_hint_all(__mmd_val, ctx) }
            }
        };
        let add = quote! { __mmd_size = __mmd_size.saturating_add(#size); };
        let stmt = match &shape.presence {
            Presence::Always => quote! { { let __mmd_val = #b; #add } },
            _ => quote! {
                if let #some(__mmd_val) = #b {
                    #add
                }
            },
        };
        // The context switches are the writer's: the same arguments, the same faults
        // (which end the closure: the size is then unknown).
        stmts.push(crate::switch::capture_position(fields, i, &here));
        stmts.push(crate::nest::build_before(cont, fields, i));
        stmts.push(crate::nest::wrap(p, fields, i, stmt));
        if let Some(s) = crate::switch::after_field(p, fields, i, &mut ctx_n) {
            stmts.push(s);
        }
    }
    quote! { #(#stmts)* }
}

/// The `size_hint` and `seq_size_hint` methods of a type's `Encode` impl.
pub fn expand(cont: &Container, ctx_ty: &TokenStream) -> TokenStream {
    let p = &cont.paths;
    let Paths {
        encode,
        result,
        ok,
        describe,
        layout,
        sized,
        ..
    } = p;
    let unwrap = crate::nest::unwrap(cont);
    let magic = cont.attrs.byte_str("magic").map(|m| {
        let len = m.value.value().len();
        quote! { __mmd_size = __mmd_size.saturating_add(#len); }
    });
    let body = match &cont.data {
        Data::Struct(fields) => {
            let pat = bind_pattern(fields, quote!(Self));
            let sizes = size_fields(p, cont, fields);
            quote! {
                let #pat = self;
                #sizes
            }
        }
        Data::Enum(variants) => {
            let spec = cont.tag.as_ref().expect("checked");
            let tag_ty = &spec.ty;
            let arms = variants.iter().map(|v| {
                let ident = v.ident;
                let pat = bind_pattern(&v.fields, quote!(Self::#ident));
                let sizes = size_fields(p, cont, &v.fields);
                // The default variant's tag is its first field, counted with the fields.
                let tag = v.tag.as_ref().map(tag_pattern);
                let tag_size = tag.filter(|_| spec.read).map(|tag| {
                    quote! {
                        let __mmd_tag: #tag_ty = #tag;
                        __mmd_size = __mmd_size
                            .saturating_add(<#tag_ty as #encode<_>>::size_hint(&__mmd_tag, ctx));
                    }
                });
                quote! { #pat => { #tag_size #sizes } }
            });
            quote! {
                match self {
                    #(#arms)*
                }
            }
        }
    };
    quote! {
        #[allow(unused_variables, unused_mut, unused_braces, unreachable_code, non_shorthand_field_patterns, clippy::all)]
        #[inline]
        fn size_hint(&self, ctx: &#ctx_ty) -> usize {
            #unwrap
            let __mmd_hint = || -> #result<usize> {
                let __mmd_start: u64 = 0;
                let mut __mmd_size: usize = 0;
                #magic
                #body
                #ok(__mmd_size)
            };
            match __mmd_hint() {
                #ok(__mmd_n) => __mmd_n,
                _ => 0,
            }
        }

        #[inline]
        fn seq_size_hint(items: &[Self], ctx: &#ctx_ty) -> usize
        where
            Self: #sized,
        {
            if let #layout::Size::Fixed(__mmd_each) = <Self as #describe>::SIZE {
                return (__mmd_each as usize).saturating_mul(items.len());
            }
            let mut __mmd_total = 0usize;
            for __mmd_v in items {
                __mmd_total = __mmd_total.saturating_add(<Self as #encode<#ctx_ty>>::size_hint(__mmd_v, ctx));
            }
            __mmd_total
        }
    }
}
