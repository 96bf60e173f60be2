//! Generates the writer's fixed path (`Encode::encode_fixed`): the whole record written
//! into a buffer, to go out with its neighbours a block at a time. It declines (`None`)
//! whenever the record does not fit or is not what reading would have produced (a
//! presence that disagrees with its condition, a length that disagrees with its field, a
//! variant that disagrees with its selector, an index too wide for its width): the
//! ordinary writer (`write.rs`) then writes it and reports the error. Records with an
//! end-of-file field, trailing bytes or a context switch have no fixed path.

use crate::ast::{Container, Data, Fields, Presence, Repeat};
use crate::paths::Paths;
use crate::read::tag_pattern;
use crate::write::bind_pattern;
use proc_macro2::TokenStream;
use quote::quote;

/// True when every field of `fields` can be written on the fixed path.
fn supported(fields: &Fields) -> bool {
    fields.fields.iter().all(|f| {
        f.shape.as_ref().is_some_and(|s| {
            matches!(s.presence, Presence::Always | Presence::If(_))
                && !matches!(s.repeat, Repeat::Rest | Repeat::Until(_))
                && s.size.is_none()
                && s.sequential()
                && s.switch_ctx.is_none()
                && s.context.is_none()
                && !s.with_parent
                // The fixed path encodes numbers little-endian.
                && s.endian.is_little()
        })
    })
}

/// Expression `e` of the record evaluated as the ordinary writer does it (checked, so
/// that it cannot panic; of type `want` when given), declining (`None`) where the
/// ordinary writer would report a fault.
fn checked(p: &Paths, e: &syn::Expr, want: Option<&TokenStream>) -> TokenStream {
    let c = crate::place::checked(p, e, want);
    quote! { (#c).ok()? }
}

/// Statements (in an `Option<()>` body) that write `fields`, whose bindings (`&T`) are in
/// scope, to `__mmd_w`.
fn write_fields(p: &Paths, fields: &Fields) -> TokenStream {
    let Paths {
        rt,
        encode,
        selected,
        seq,
        some,
        none,
        ..
    } = p;
    let each = fields.fields.iter().map(|f| {
        let shape = f.shape.as_ref().expect("checked");
        let vt = &shape.value_ty;
        let b = &f.binding;
        let bool_ty = crate::switch::bool_type();
        // Writes `__mmd_val: &FieldValue`.
        let write = match (&shape.repeat, &shape.select) {
            (Repeat::One, None) => {
                quote! { <#vt as #encode<_>>::encode_fixed(__mmd_val, __mmd_w, ctx)?; }
            }
            (Repeat::One, Some(sel)) => {
                let sel = checked(p, sel, None);
                quote! {
                    if !#rt::same_selector(&(#sel), &#selected::selector(__mmd_val)) {
                        return #none;
                    }
                    <#vt as #encode<_>>::encode_fixed(__mmd_val, __mmd_w, ctx)?;
                }
            }
            (Repeat::Count(n), _) => quote! {
                <#n as #rt::CountInt>::put_count(<_ as #seq<#vt>>::len(__mmd_val), __mmd_w)?;
                <_ as #seq<#vt>>::encode_fixed_all(__mmd_val, __mmd_w, ctx)?;
            },
            (Repeat::Len(e), _) => {
                let e = checked(p, e, None);
                quote! {
                    if #rt::fixed_len(#e)? != <_ as #seq<#vt>>::len(__mmd_val) {
                        return #none;
                    }
                    <_ as #seq<#vt>>::encode_fixed_all(__mmd_val, __mmd_w, ctx)?;
                }
            }
            (Repeat::Rest | Repeat::Until(_), _) => quote! { return #none; },
        };
        match &shape.presence {
            Presence::If(c) => {
                let c = checked(p, c, Some(&bool_ty));
                quote! {
                    match (#c, #b) {
                        (true, #some(__mmd_val)) => { #write }
                        (false, #none) => {}
                        _ => return #none,
                    }
                }
            }
            _ => quote! { { let __mmd_val = #b; #write } },
        }
    });
    quote! { #(#each)* }
}

/// The `encode_fixed` method of a type's `Encode` impl, when it has a fixed path.
pub fn expand(cont: &Container, ctx_ty: &TokenStream) -> TokenStream {
    let p = &cont.paths;
    let Paths {
        encode,
        option,
        fixed_out,
        some,
        ..
    } = p;
    if cont.attrs.has("parent") {
        // Written by the ordinary writer, which takes its parent's fields from `Within`.
        return quote!();
    }
    let magic = cont.attrs.byte_str("magic").map(|m| {
        let m = m.value;
        quote! { __mmd_w.put_slice(#m)?; }
    });
    let body = match &cont.data {
        Data::Struct(fields) => {
            if !supported(fields) {
                return quote!();
            }
            let pat = bind_pattern(fields, quote!(Self));
            let writes = write_fields(p, fields);
            quote! {
                let #pat = self;
                #writes
            }
        }
        Data::Enum(variants) => {
            if !variants.iter().all(|v| supported(&v.fields) && !v.default) {
                return quote!();
            }
            let spec = cont.tag.as_ref().expect("checked");
            let tag_ty = &spec.ty;
            let arms = variants.iter().map(|v| {
                let ident = v.ident;
                let pat = bind_pattern(&v.fields, quote!(Self::#ident));
                let writes = write_fields(p, &v.fields);
                let tag = tag_pattern(v.tag.as_ref().expect("checked"));
                let write_tag = spec.read.then(|| {
                    quote! {
                        let __mmd_tag: #tag_ty = #tag;
                        <#tag_ty as #encode<_>>::encode_fixed(&__mmd_tag, __mmd_w, ctx)?;
                    }
                });
                quote! { #pat => { #write_tag #writes } }
            });
            quote! {
                match self {
                    #(#arms)*
                }
            }
        }
    };
    quote! {
        #[inline]
        fn encode_fixed(&self, __mmd_w: &mut #fixed_out<'_>, ctx: &#ctx_ty) -> #option<()> {
            #magic
            #body
            #some(())
        }
    }
}
