//! The code that switches to a declared context after a field (`#[mmd(context =
//! Ctx(args))]`), shared by the reader and the writer: both compute the new context from
//! the same arguments, and both turn its error into one with an offset and a path.

use crate::ast::{ContextCall, Fields, Presence, Repeat, Shape, Style};
use crate::paths::Paths;
use crate::place::seg_tokens;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The local holding where field `i` starts (in the input or the output).
fn pos_ident(fields: &Fields, i: usize) -> proc_macro2::Ident {
    format_ident!("__mmd_pos_{}", fields.fields[i].binding)
}

/// True when some expression of `fields` (a condition, length, selector or context
/// argument) reads field `i`: its start is kept, for the errors that point at it.
pub fn is_root(fields: &Fields, i: usize) -> bool {
    if fields.style != Style::Named {
        return false;
    }
    let name = &fields.fields[i].name;
    fields.fields.iter().any(|f| {
        let Some(s) = f.shape.as_ref() else {
            return false;
        };
        let exprs = [
            s.presence.condition(),
            s.repeat.len_expr(),
            s.repeat.until_cond(),
            s.size.as_ref(),
            s.pos.as_ref().map(|p| &p.at),
            s.select.as_ref(),
            s.switch_ctx.as_ref(),
            s.endian.condition(),
        ];
        if s.pos
            .as_ref()
            .and_then(|p| p.base.as_ref())
            .is_some_and(|b| b.1 == *name)
        {
            return true;
        }
        let args = s.context.iter().flat_map(|c| c.args.iter());
        exprs
            .into_iter()
            .flatten()
            .chain(args)
            .any(|e| crate::place::names_in(e).0.iter().any(|n| n == name))
    })
}

/// Expression `e` of the record evaluated so that it cannot panic: its value, or a
/// return of the error, at the start of the field it read from (one of the first `upto`
/// fields, the ones read so far), or at `here`, the current position.
pub fn eval(
    p: &Paths,
    fields: &Fields,
    upto: usize,
    e: &syn::Expr,
    here: &TokenStream,
) -> TokenStream {
    eval_as(p, fields, upto, e, here, None)
}

/// The type of a condition, spelt so that no `bool` of the user's shadows it.
pub fn bool_type() -> TokenStream {
    quote!(::core::primitive::bool)
}

/// [`eval`] of an expression that must have type `want` (a condition's `bool`): a
/// mistaken type is reported once, at the expression.
pub fn eval_as(
    p: &Paths,
    fields: &Fields,
    upto: usize,
    e: &syn::Expr,
    here: &TokenStream,
    want: Option<&TokenStream>,
) -> TokenStream {
    let Paths { ok, err, .. } = p;
    let checked = crate::place::checked(p, e, want);
    let arms = (0..upto.min(fields.fields.len()))
        .filter(|&i| is_root(fields, i))
        .map(|i| {
            let name = Literal::string(&fields.fields[i].name);
            let pos = pos_ident(fields, i);
            quote! { #name => #pos, }
        });
    quote! {
        {
            match #checked {
                #ok(__mmd_v) => __mmd_v,
                #err(__mmd_f) => {
                    let __mmd_at = match __mmd_f.root {
                        #(#arms)*
                        _ => #here,
                    };
                    return #err(__mmd_f.error_at(__mmd_at));
                }
            }
        }
    }
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

/// True when the start of field `i` is kept: an expression reads it, or it switches the
/// context (a fault of the context that no field is to blame for is put there).
fn captured(fields: &Fields, i: usize) -> bool {
    is_root(fields, i)
        || fields.fields[i]
            .shape
            .as_ref()
            .is_some_and(|s| s.context.is_some())
}

/// `let __mmd_pos_<field> = <pos>;` before field `i`, when a context argument reads it or
/// it switches the context.
pub fn capture_position(fields: &Fields, i: usize, pos: &TokenStream) -> TokenStream {
    if !captured(fields, i) {
        return quote!();
    }
    let id = pos_ident(fields, i);
    quote! { let #id: u64 = #pos; }
}

/// A closure that finds where a place below field `f` starts, relative to the field: it
/// writes the field's value as the writer does (its count, each element, an optional
/// value when present) and notes where the place's span begins.
fn locate(p: &Paths, f: &crate::ast::Field, shape: &Shape) -> TokenStream {
    let Paths {
        rt,
        encode,
        output,
        some,
        none,
        ok,
        ..
    } = p;
    let b = &f.binding;
    let vt = &shape.value_ty;
    let write = match &shape.repeat {
        Repeat::One => quote!(<#vt as #encode<_>>::encode(__mmd_v, __mmd_o, ctx)),
        Repeat::Count(n) => quote!(#rt::write_counted::<#n, #vt, _, _, _>(__mmd_v, __mmd_o, ctx)),
        Repeat::Len(_) | Repeat::Until(_) => {
            quote!(<#vt as #encode<_>>::encode_seq(__mmd_v, __mmd_o, ctx))
        }
        Repeat::Rest if crate::ast::type_text(vt) == "u8" => {
            quote!(#output::write_bytes(__mmd_o, __mmd_v))
        }
        Repeat::Rest => quote!(<#vt as #encode<_>>::encode_seq(__mmd_v, __mmd_o, ctx)),
    };
    // A field whose values see the record's fields is written with them, as the writer does.
    let write = if shape.with_parent {
        let within = &p.within;
        quote!({
            let ctx = &#within::new(ctx, &__mmd_view);
            #write
        })
    } else {
        write
    };
    let body = match shape.presence {
        Presence::Always => quote!({
            let __mmd_v = #b;
            #write
        }),
        _ => quote!(match #b {
            #some(__mmd_v) => #write,
            #none => #ok(()),
        }),
    };
    quote!(#some(&|__mmd_p: &[_]| #rt::offset_in_with(__mmd_p, |__mmd_o| #body)))
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
    let Paths { rt, some, none, .. } = p;
    // A fault that no field read is to blame for is at the switching field.
    let here_pos = {
        let id = pos_ident(fields, here);
        quote!(#id)
    };
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
        let start = if captured(fields, i) {
            let id = pos_ident(fields, i);
            quote!(#id)
        } else {
            quote!(__mmd_start)
        };
        let locate = match (root, &f.shape) {
            (Some(_), Some(shape)) => locate(p, f, shape),
            _ => none.clone(),
        };
        quote! {
            #pat => #rt::context_error(__mmd_fault, #some(#fname), #segs, #start, #locate),
        }
    });
    let eval_arg = |a: &syn::Expr| eval(p, fields, here + 1, a, &here_pos);
    call_context(p, call, n, eval_arg, arms)
}

/// The statements that compute context `n` from `call` and bind `ctx` to it: each argument
/// in a local of its own (its type is its own, not the parameter's) from `eval_arg`, then
/// the context, or a return of the error `arms` (one per parameter, then `_`) make of its
/// fault. The reader, the writer and `FromJson` share it.
pub fn call_context(
    p: &Paths,
    call: &ContextCall,
    n: usize,
    eval_arg: impl Fn(&syn::Expr) -> TokenStream,
    arms: impl Iterator<Item = TokenStream>,
) -> TokenStream {
    let Paths { ok, err, .. } = p;
    let ty = &call.ty;
    let c = format_ident!("__mmd_ctx_{}", n);
    let names: Vec<proc_macro2::Ident> = (0..call.args.len())
        .map(|i| format_ident!("__mmd_arg_{}_{}", n, i))
        .collect();
    let lets = call.args.iter().zip(&names).map(|(a, name)| {
        let v = eval_arg(a);
        quote! { let #name = #v; }
    });
    quote! {
        #(#lets)*
        let #c = match #ty::__mmd_context(#(&#names),*) {
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
