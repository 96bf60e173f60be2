//! The code that switches to a declared context after a field (`#[mmd(context =
//! Ctx(args))]`), shared by the reader and the writer: both compute the new context from
//! the same arguments, and both turn its error into one with an offset and a path.

use crate::ast::{ContextCall, Fields, Style};
use crate::paths::Paths;
use crate::place::seg_tokens;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The local holding where field `i` starts (in the input or the output).
fn pos_ident(fields: &Fields, i: usize) -> proc_macro2::Ident {
    format_ident!("__mmd_pos_{}", fields.fields[i].binding)
}

/// True when some context argument of `fields` reads field `i`.
pub fn is_root(fields: &Fields, i: usize) -> bool {
    fields.style == Style::Named
        && fields.fields.iter().any(|f| {
            f.shape
                .as_ref()
                .and_then(|s| s.context.as_ref())
                .is_some_and(|c| c.roots.iter().any(|r| matches!(r, Some((j, _)) if *j == i)))
        })
}

/// The statements after field `here` that switch the context, if it has a switch: a
/// declared context (`context = Ctx(...)`) or an expression (`switch_ctx = expr`). `n`
/// numbers the contexts of one body.
pub fn after_field(p: &Paths, fields: &Fields, here: usize, n: &mut usize) -> Option<TokenStream> {
    let f = &fields.fields[here];
    let shape = f.shape.as_ref()?;
    let code = match (&shape.context, &shape.switch_ctx) {
        (Some(call), _) => switch(p, fields, here, call, *n),
        (None, Some(sw)) => {
            let c = format_ident!("__mmd_ctx_{}", *n);
            let name = Literal::string(&f.name);
            let result = &p.result;
            quote! {
                let #c: #result<_> = (#sw);
                let #c = #c.map_err(|e| e.offset_by(__mmd_start).in_field(#name))?;
                let ctx = &#c;
            }
        }
        (None, None) => return None,
    };
    *n += 1;
    Some(code)
}

/// `let __mmd_pos_<field> = <pos>;` before field `i`, when a context argument reads it.
pub fn capture_position(fields: &Fields, i: usize, pos: &TokenStream) -> TokenStream {
    if !is_root(fields, i) {
        return quote!();
    }
    let id = pos_ident(fields, i);
    quote! { let #id: u64 = #pos; }
}

/// The statements, after field `here`, that compute the context `call` declares, make it
/// `ctx`, and on a fault return an error at the place the fault names.
pub fn switch(
    p: &Paths,
    fields: &Fields,
    here: usize,
    call: &ContextCall,
    n: usize,
) -> TokenStream {
    let Paths {
        rt,
        ok,
        err,
        some,
        none,
        ..
    } = p;
    let ty = &call.ty;
    let c = format_ident!("__mmd_ctx_{}", n);
    let args = call.args.iter().map(|a| quote!(&(#a)));
    // One arm per parameter; a fault of any other parameter (there is none) is put at the
    // switching field.
    let mut roots: Vec<(TokenStream, Option<&(usize, Vec<_>)>)> = call
        .roots
        .iter()
        .enumerate()
        .map(|(param, root)| (quote!(#param), root.as_ref()))
        .collect();
    roots.push((quote!(_), None));
    let arms = roots.into_iter().map(|(pat, root)| {
        let (i, segs) = match root {
            Some((i, segs)) => (*i, segs.as_slice()),
            None => (here, &[][..]),
        };
        let f = &fields.fields[i];
        let fname = Literal::string(&f.name);
        let segs = seg_tokens(p, segs);
        let single = f.shape.as_ref().is_some_and(|s| s.is_single());
        let start = if is_root(fields, i) {
            let id = pos_ident(fields, i);
            quote!(#id)
        } else {
            quote!(__mmd_start)
        };
        let locate = if single && root.is_some() {
            let b = &f.binding;
            quote!(#some(&|__mmd_p: &[_]| #rt::offset_in(#b, ctx, __mmd_p)))
        } else {
            none.clone()
        };
        quote! {
            #pat => #rt::context_error(__mmd_fault, #some(#fname), #segs, #start, #locate),
        }
    });
    quote! {
        let #c = match #ty::__mmd_context(#(#args),*) {
            #ok(__mmd_c) => __mmd_c,
            #err(__mmd_fault) => {
                return #err(match __mmd_fault.param() {
                    #(#arms)*
                });
            }
        };
        let ctx = &#c;
    }
}
