//! Generates `FromJson`, the inverse of the walk: a value built from the untyped JSON tree
//! of the form the walk prints, field by field in file order, as the reader reads them
//! (earlier fields are in scope by name for conditions, lengths, selectors and contexts),
//! checking on the way what the writer checks; and the `serde` impls that go through it.

use crate::ast::{expr_text, Container, Data, Fields, Presence, Repeat, Style};
use crate::paths::Paths;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The statements that build `fields` from `__mmd_json` and the expression that makes the
/// value, for a struct or variant named `type_name` (with the signature `magic`).
fn build_fields(
    p: &Paths,
    cont: &Container,
    fields: &Fields,
    build: TokenStream,
    type_name: &str,
    magic: Option<TokenStream>,
) -> TokenStream {
    let Paths {
        json_rt,
        from_json,
        ok,
        err,
        some,
        none,
        option,
        ..
    } = p;
    let lone = fields.is_lone() && magic.is_none();
    let mut stmts = Vec::new();
    let mut names: Vec<Literal> = Vec::new();
    if magic.is_some() {
        names.push(Literal::string("magic"));
    }
    let first = names.len();
    names.extend(fields.fields.iter().map(|f| Literal::string(&f.name)));
    if lone {
        stmts.push(quote! { let __mmd_j0 = __mmd_json; });
    } else {
        let tn = Literal::string(type_name);
        stmts.push(quote! { let __mmd_o = #json_rt::object(__mmd_json, #tn, &[#(#names),*])?; });
        if let Some(m) = &magic {
            stmts.push(quote! { #json_rt::magic(__mmd_o.get(0), #m)?; });
        }
    }
    stmts.push(quote! { let mut __mmd_absent: #option<&'static str> = #none; });
    let mut ctx_n = 0usize;
    for (i, f) in fields.fields.iter().enumerate() {
        let shape = f.shape.as_ref().expect("checked");
        let name = Literal::string(&f.name);
        let v = &f.value_binding;
        let vt = &shape.value_ty;
        let j = if lone {
            quote!(__mmd_j0)
        } else {
            let k = first + i;
            quote!(__mmd_o.get(#k))
        };
        let one = match &shape.select {
            Some(sel) => {
                let text = Literal::string(&expr_text(sel));
                let sel = eval(p, fields, i, i, lone, sel, None);
                quote! {
                    {
                        let __mmd_s = #sel;
                        <#vt as #from_json<_>>::from_json(__mmd_jv, ctx)
                            .and_then(|__mmd_x| #json_rt::selected(__mmd_x, __mmd_s, #text))
                    }
                }
            }
            None => quote! { <#vt as #from_json<_>>::from_json(__mmd_jv, ctx) },
        };
        let value = match &shape.repeat {
            Repeat::One => one,
            Repeat::Count(n) => quote! { #json_rt::counted::<#n, #vt, _, _>(__mmd_jv, ctx) },
            Repeat::Len(e) => {
                let text = Literal::string(&expr_text(e));
                let e = eval(p, fields, i, i, lone, e, None);
                quote! { #json_rt::with_len::<#vt, _, _, _>(__mmd_jv, ctx, #e, #text) }
            }
            Repeat::Rest | Repeat::Until(_) if crate::ast::type_text(vt) != "u8" => quote! {
                #json_rt::with_any_len::<#vt, _, ::std::vec::Vec<#vt>>(__mmd_jv, ctx).and_then(|__mmd_b| match __mmd_absent {
                    #some(__mmd_a) if !__mmd_b.is_empty() => #err(#json_rt::after_absent(__mmd_a)),
                    _ => #ok(__mmd_b),
                })
            },
            Repeat::Until(_) => quote! { #json_rt::with_any_len::<#vt, _, _>(__mmd_jv, ctx) },
            Repeat::Rest => quote! {
                #json_rt::rest(__mmd_jv).and_then(|__mmd_b| match __mmd_absent {
                    #some(__mmd_a) if !__mmd_b.is_empty() => #err(#json_rt::after_absent(__mmd_a)),
                    _ => #ok(__mmd_b),
                })
            },
        };
        let value = if lone {
            quote! { (#value)? }
        } else {
            quote! { (#value).map_err(|e| e.in_field(#name))? }
        };
        let guard = quote! {
            if let #some(__mmd_a) = __mmd_absent {
                return #err(#json_rt::after_absent(__mmd_a).in_field(#name));
            }
        };
        let bool_ty = crate::switch::bool_type();
        let cond = |c: &syn::Expr| eval(p, fields, i, i, lone, c, Some(&bool_ty));
        let read = match &shape.presence {
            Presence::Always => quote! { { let __mmd_jv = #j; #value } },
            Presence::If(c) => {
                let text = Literal::string(&expr_text(c));
                let c = cond(c);
                quote! {
                    match (#c, #json_rt::present(#j)) {
                        (true, #some(__mmd_jv)) => #some(#value),
                        (false, #none) => #none,
                        (_, __mmd_opt) => {
                            return #err(#json_rt::presence_mismatch(#text, __mmd_opt.is_some())
                                .in_field(#name));
                        }
                    }
                }
            }
            Presence::UnlessEof => quote! {
                match #json_rt::present(#j) {
                    #some(__mmd_jv) => { #guard #some(#value) }
                    #none => { __mmd_absent = __mmd_absent.or(#some(#name)); #none }
                }
            },
            Presence::IfUnlessEof(c) => {
                let text = Literal::string(&expr_text(c));
                let c = cond(c);
                quote! {
                    match (#c, #json_rt::present(#j)) {
                        (true, #some(__mmd_jv)) => { #guard #some(#value) }
                        (true, #none) => { __mmd_absent = __mmd_absent.or(#some(#name)); #none }
                        (false, #none) => #none,
                        (false, #some(_)) => {
                            return #err(#json_rt::presence_mismatch(#text, true).in_field(#name));
                        }
                    }
                }
            }
        };
        // The field's own type, so that a container other than a `Vec` (`item = T`) is
        // known to the expressions that read the field.
        let fty = f.ty;
        stmts.push(crate::nest::build_before(cont, fields, i));
        let read = crate::nest::wrap(p, fields, i, read);
        stmts.push(quote! { let #v: #fty = #read; });
        if fields.style == Style::Named {
            let b = &f.binding;
            stmts.push(quote! { let #b = &#v; });
        }
        if let Some(s) = switch(p, fields, i, &mut ctx_n) {
            stmts.push(s);
        }
    }
    let construct = crate::read::construct(fields, &build);
    quote! {
        #(#stmts)*
        let _ = __mmd_absent;
        #construct
    }
}

/// The statements after field `here` that switch the context, as the reader does: a
/// fault of a declared context is an error at the member's JSON path.
fn switch(p: &Paths, fields: &Fields, here: usize, n: &mut usize) -> Option<TokenStream> {
    let f = &fields.fields[here];
    let shape = f.shape.as_ref()?;
    let Paths {
        json_rt, result, ..
    } = p;
    let c = format_ident!("__mmd_ctx_{}", *n);
    let here_name = Literal::string(&f.name);
    let code = match (&shape.context, &shape.switch_ctx) {
        (Some(call), _) => {
            let mut arms: Vec<TokenStream> = call
                .roots
                .iter()
                .enumerate()
                .map(|(param, root)| {
                    let (fname, segs) = match root {
                        Some((i, segs)) => (&fields.fields[*i].name, segs.as_slice()),
                        None => (&f.name, &[][..]),
                    };
                    let fname = Literal::string(fname);
                    let segs = crate::place::seg_tokens(p, segs);
                    quote! { #param => #json_rt::context_fault(__mmd_fault, #fname, #segs), }
                })
                .collect();
            arms.push(quote! { _ => #json_rt::context_fault(__mmd_fault, #here_name, &[]), });
            // Each argument evaluated so that it cannot panic; a fault no field is to blame
            // for is at the switching field.
            let eval_arg = |a: &syn::Expr| eval(p, fields, here + 1, here, false, a, None);
            crate::switch::call_context(p, call, *n, eval_arg, arms.into_iter())
        }
        (None, Some(sw)) => quote! {
            let #c: #result<_> = (#sw);
            let #c = #c.map_err(|e| #json_rt::switch_error(e, #here_name))?;
            let ctx = &#c;
        },
        (None, None) => return None,
    };
    *n += 1;
    Some(code)
}

/// Expression `e` of the record, evaluated so that it cannot panic (see
/// `place::checked`): its value, or a return of the error at the field it read from (one
/// of the first `upto` fields) or else at field `at` (none for a `lone` record, whose path
/// is its own).
#[allow(clippy::too_many_arguments)]
fn eval(
    p: &Paths,
    fields: &Fields,
    upto: usize,
    at: usize,
    lone: bool,
    e: &syn::Expr,
    want: Option<&TokenStream>,
) -> TokenStream {
    let Paths {
        json_rt, ok, err, ..
    } = p;
    let checked = crate::place::checked(p, e, want);
    let upto = upto.min(fields.fields.len());
    let here = if lone {
        Literal::string("")
    } else {
        Literal::string(&fields.fields[at].name)
    };
    let earlier = fields.fields[..upto]
        .iter()
        .filter(|_| fields.style == Style::Named)
        .map(|f| Literal::string(&f.name));
    quote! {
        match #checked {
            #ok(__mmd_v) => __mmd_v,
            #err(__mmd_f) => {
                let __mmd_field: &'static str = match __mmd_f.root {
                    #(#earlier => __mmd_f.root,)*
                    _ => #here,
                };
                return #err(#json_rt::expr_fault(__mmd_f, __mmd_field));
            }
        }
    }
}

/// The body of `from_json`.
fn body(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let Paths { ok, json_rt, .. } = p;
    let type_name = cont.ident.to_string();
    match &cont.data {
        Data::Struct(fields) => {
            let magic = cont.attrs.byte_str("magic").map(|m| {
                let m = m.value;
                quote!(#m)
            });
            let build = build_fields(p, cont, fields, quote!(Self), &type_name, magic);
            quote! { #ok({ #build }) }
        }
        Data::Enum(variants) => {
            let names = variants
                .iter()
                .map(|v| Literal::string(&v.ident.to_string()));
            let enum_name = Literal::string(&type_name);
            let json_error = &p.json_error;
            let std_result = &p.std_result;
            let arms = variants.iter().enumerate().map(|(i, v)| {
                let ident = v.ident;
                let vname = ident.to_string();
                let build = build_fields(p, cont, &v.fields, quote!(Self::#ident), &vname, None);
                let vname = Literal::string(&vname);
                quote! {
                    #i => (|| -> #std_result<Self, #json_error> {
                        let __mmd_json = __mmd_body;
                        #ok({ #build })
                    })().map_err(|e| e.in_field(#vname)),
                }
            });
            let unreachable = &p.unreachable;
            quote! {
                let (__mmd_i, __mmd_body) = #json_rt::variant(__mmd_json, #enum_name, &[#(#names),*])?;
                match __mmd_i {
                    #(#arms)*
                    _ => #unreachable,
                }
            }
        }
    }
}

/// The `FromJson` impl (and, through the runtime's `if_serde!`, the `serde` impls).
///
/// `generics` is `(impl generics, context type, where clause)` as for `Decode`.
pub fn expand(
    cont: &Container,
    impl_generics: &TokenStream,
    ctx_ty: &TokenStream,
    where_clause: &TokenStream,
) -> TokenStream {
    let p = &cont.paths;
    let Paths {
        from_json,
        json_value,
        json_error,
        std_result,
        json,
        if_serde,
        serde,
        ..
    } = p;
    let ident = cont.ident;
    let body = body(cont);
    let unwrap = crate::nest::unwrap(cont);
    let body = quote! { #unwrap #body };
    quote! {
        #[automatically_derived]
        impl #impl_generics #from_json<#ctx_ty> for #ident #where_clause {
            #[allow(unused_variables, unused_mut, unused_braces, unused_parens, clippy::all)]
            fn from_json(
                __mmd_json: &#json_value<'_>,
                ctx: &#ctx_ty,
            ) -> #std_result<Self, #json_error> {
                #body
            }
        }

        #if_serde! {
            #[automatically_derived]
            impl #serde::Serialize for #ident {
                fn serialize<__S: #serde::Serializer>(
                    &self,
                    __s: __S,
                ) -> #std_result<__S::Ok, __S::Error> {
                    #json::serialize(self, __s)
                }
            }

            /// Built with the `()` context (a type that needs another deserializes
            /// through `json::Seed`).
            #[automatically_derived]
            impl<'__mmd_de> #serde::Deserialize<'__mmd_de> for #ident
            where
                for<'__mmd_hr> #ident: #from_json<()>,
            {
                fn deserialize<__D: #serde::Deserializer<'__mmd_de>>(
                    __d: __D,
                ) -> #std_result<Self, __D::Error> {
                    #json::deserialize(__d)
                }
            }
        }
    }
}
