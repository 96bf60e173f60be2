//! `#[derive(MmdContext)]`: a context computed from fields read earlier, declared once.
//!
//! The struct names its parameters (`#[mmd(from(header: Header))]`, the values a record
//! passes with `#[mmd(context = Ctx(header))]`); each member says the expression it comes
//! from (`#[mmd(from = header.globals[2])]`, in the language of conditions), the values it
//! accepts (`valid = [1, 2, 4]`) and what it means to leaf types (`text_encoding`,
//! `index_width = BoneIndex`). From that one statement come the computation (with checked
//! indexing: a missing element is an error, never a panic), its errors (which say the
//! member, the place it was read from and the values accepted; the record turns them into
//! an offset and a path), the trait impls leaf types read with, and the descriptor the
//! renderers use.
//!
//! The pipeline is the same as the format derive's: parse -> check -> generate.

use crate::ast::{expr_text, type_text};
use crate::attr::{self, Attrs, Place};
use crate::ctxt::Ctxt;
use crate::paths::Paths;
use crate::place::{first_place, seg_tokens};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use syn::{DeriveInput, Expr, Ident, Type};

struct Member<'a> {
    ident: &'a Ident,
    ty: &'a Type,
    doc: String,
    from: Expr,
    valid: Option<Vec<Expr>>,
    label: String,
    expected: Option<String>,
    text_encoding: bool,
    index_width: Option<Type>,
}

struct Context<'a> {
    ident: &'a Ident,
    doc: String,
    paths: Paths,
    params: Vec<(Ident, Type)>,
    members: Vec<Member<'a>>,
}

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = attr::parse(&cx, &input.attrs, Place::Context);
    let paths = Paths::new(attrs.ty("crate").map(|t| t.value.clone()));
    let model = parse(&cx, input, &attrs, paths);
    match (cx.check(), model) {
        (Ok(()), Some(m)) => generate(&m),
        (Err(errors), m) => fallback(input, m.as_ref(), errors),
        (Ok(()), None) => fallback(input, None, Vec::new()),
    }
}

fn parse<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    attrs: &Attrs,
    paths: Paths,
) -> Option<Context<'a>> {
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "`#[derive(MmdContext)]` does not support generic types",
        );
    }
    let syn::Data::Struct(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            "`#[derive(MmdContext)]` declares a context: a struct with named members",
        );
        return None;
    };
    let syn::Fields::Named(named) = &data.fields else {
        cx.error_spanned_by(
            &input.ident,
            "`#[derive(MmdContext)]` declares a context: a struct with named members",
        );
        return None;
    };
    let params: Vec<(Ident, Type)> = match attrs.params("from") {
        Some(p) => p.value.clone(),
        None => {
            if !attrs.poisoned {
                cx.error_spanned_by(
                    &input.ident,
                    "a context needs its parameters: `#[mmd(from(header: Header))]` names the \
                     values a record passes with `#[mmd(context = Ctx(header))]`",
                );
            }
            Vec::new()
        }
    };
    let param_names: Vec<String> = params.iter().map(|(n, _)| n.to_string()).collect();
    let mut members = Vec::new();
    let mut text_encoding: Option<&Ident> = None;
    let mut widths: Vec<(String, &Ident)> = Vec::new();
    for f in &named.named {
        let ident = f.ident.as_ref().expect("named");
        let a = attr::parse(cx, &f.attrs, Place::Member);
        let Some(from) = a.expr("from") else {
            if !a.poisoned {
                cx.error_spanned_by(
                    ident,
                    format!(
                        "member `{ident}` needs the expression it comes from: \
                         `#[mmd(from = expr)]`, over the parameters ({})",
                        param_names
                            .iter()
                            .map(|p| format!("`{p}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
            continue;
        };
        check_names(cx, from.value, &param_names, ident);
        let valid = a.list("valid").map(|l| {
            let items: Vec<Expr> = l.value.elems.iter().cloned().collect();
            check_valid(cx, &items, &f.ty, l.span());
            items
        });
        if let (Some(e), None) = (a.span_of("expected"), &valid) {
            cx.syn_error(syn::Error::new(
                e,
                "`expected` describes the values of `valid`; this member has no `valid`",
            ));
        }
        if a.flag("text_encoding").is_some() {
            if let Some(prev) = text_encoding {
                cx.error_spanned_by(
                    ident,
                    format!("`{prev}` already declares the text encoding"),
                );
            }
            text_encoding = Some(ident);
        }
        if let (Some(t), Some(values)) = (a.ty("index_width"), &valid) {
            check_widths(cx, values, t.value);
        }
        let index_width = a.ty("index_width").map(|t| {
            let key = type_text(t.value);
            if let Some((_, prev)) = widths.iter().find(|(k, _)| *k == key) {
                cx.error_spanned_by(
                    t.value,
                    format!("`{prev}` already declares the width of `{key}`"),
                );
            }
            widths.push((key, ident));
            t.value.clone()
        });
        members.push(Member {
            ident,
            ty: &f.ty,
            doc: attr::doc(&f.attrs),
            from: from.value.clone(),
            valid,
            label: a
                .str("name")
                .map(|s| s.value.value())
                .unwrap_or_else(|| ident.to_string().replace('_', " ")),
            expected: a.str("expected").map(|s| s.value.value()),
            text_encoding: a.has("text_encoding"),
            index_width,
        });
    }
    Some(Context {
        ident: &input.ident,
        doc: attr::doc(&input.attrs),
        paths,
        params,
        members,
    })
}

/// Every single name in a member expression must be a parameter (members are computed
/// from the parameters only, so that each one is a statement of its own).
fn check_names(cx: &Ctxt, e: &Expr, params: &[String], member: &Ident) {
    if let Err(err) = crate::tree::check(e) {
        cx.syn_error(err);
    }
    for id in crate::place::names_in(e).0 {
        let name = id.to_string();
        if !params.contains(&name) {
            let list = if params.is_empty() {
                "it has none".to_string()
            } else {
                format!(
                    "they are {}",
                    params
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            cx.error_spanned_by(
                &id,
                format!(
                    "`{name}` is not a parameter of this context ({list}): member `{member}` \
                     may only use the parameters"
                ),
            );
        }
    }
}

/// The kind of literal a member type takes in `valid`.
fn literal_kind(ty: &Type) -> Option<&'static str> {
    let Type::Path(p) = ty else { return None };
    let id = p.path.get_ident()?.to_string();
    Some(match id.as_str() {
        "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" => {
            "integer"
        }
        "f32" | "f64" => "float",
        "bool" => "bool",
        _ => return None,
    })
}

fn check_valid(cx: &Ctxt, items: &[Expr], ty: &Type, span: Span) {
    let Some(want) = literal_kind(ty) else {
        cx.syn_error(syn::Error::new(
            span,
            format!(
                "`valid` lists numbers or `true`/`false`; the member's type `{}` is neither",
                type_text(ty)
            ),
        ));
        return;
    };
    if items.is_empty() {
        cx.syn_error(syn::Error::new(span, "`valid` lists at least one value"));
    }
    let unsigned = type_text(ty).starts_with('u');
    for e in items {
        let (lit, neg) = match e {
            Expr::Lit(l) => (Some(&l.lit), false),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
                Expr::Lit(l) => (Some(&l.lit), true),
                _ => (None, true),
            },
            _ => (None, false),
        };
        let got = match lit {
            Some(syn::Lit::Int(_)) => "integer",
            Some(syn::Lit::Float(_)) => "float",
            Some(syn::Lit::Bool(_)) => "bool",
            Some(syn::Lit::Str(_)) => "string",
            _ => "expression",
        };
        // The values are compared with the member's value as written, so a float member
        // takes float literals (`2.0`; `2` would not compile) and an unsigned one no
        // negative values.
        if want == "integer" && got == "integer" && neg && unsigned {
            cx.error_spanned_by(
                e,
                format!(
                    "`valid` lists values of the member's type `{}`: integer literals of 0 or \
                     more, not a negative integer",
                    type_text(ty)
                ),
            );
            continue;
        }
        if got != want {
            let want = match want {
                "integer" => "integer literals",
                "float" => "float literals (`2.0`)",
                _ => "`true` or `false`",
            };
            let got = match got {
                "integer" | "expression" => format!("an {got}"),
                _ => format!("a {got}"),
            };
            cx.error_spanned_by(
                e,
                format!(
                    "`valid` lists values of the member's type `{}`: {want}, not {got}",
                    type_text(ty)
                ),
            );
        }
    }
}

/// The values of an `index_width` member are widths an index can have: 1, 2 or 4 bytes
/// (the index types read no other, and the Kaitai grammar has a case per value).
fn check_widths(cx: &Ctxt, values: &[Expr], index: &Type) {
    for e in values {
        let width = match e {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }) => n.base10_parse::<u64>().ok(),
            // Anything else is `check_valid`'s to report.
            _ => continue,
        };
        if !matches!(width, Some(1 | 2 | 4)) {
            cx.error_spanned_by(
                e,
                format!(
                    "`{}` indices are 1, 2 or 4 bytes wide: `valid` of their width lists only \
                     those, not `{}`",
                    type_text(index),
                    expr_text(e)
                ),
            );
        }
    }
}

/// "1, 2 or 4".
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
    }
}

fn generate(c: &Context) -> TokenStream {
    let p = &c.paths;
    let Paths { rt, ok, err, .. } = p;
    let result = p.std_result.clone();
    let Paths {
        layout, some, none, ..
    } = p;
    let ident = c.ident;
    let roots: Vec<String> = c.params.iter().map(|(n, _)| n.to_string()).collect();
    let param_decls = c.params.iter().map(|(n, t)| quote!(#n: &#t));
    let param_tys: Vec<&Type> = c.params.iter().map(|(_, t)| t).collect();
    let param_names: Vec<&Ident> = c.params.iter().map(|(n, _)| n).collect();
    let fault = p.context_fault.clone();
    let declared = p.declared_context.clone();
    let mut stmts = Vec::new();
    let mut inits = Vec::new();
    for m in &c.members {
        let mident = m.ident;
        let mty = m.ty;
        let binding = format_ident!("__mmd_m_{}", mident);
        let label = &m.label;
        let from = crate::place::checked(p, &m.from, None);
        let check = m.valid.as_ref().map(|valid| {
            let texts: Vec<String> = valid.iter().map(expr_text).collect();
            let expected = m
                .expected
                .clone()
                .unwrap_or_else(|| format!("a {label} of {}", or_list(&texts)));
            let (param, segs) = match first_place(&m.from, &roots) {
                Some(pl) => (
                    roots.iter().position(|r| pl.root == r).unwrap_or(0),
                    pl.segs,
                ),
                None => (0, Vec::new()),
            };
            let segs = seg_tokens(p, &segs);
            quote! {
                if !(#(__mmd_raw == #valid)||*) {
                    return #err(#fault::invalid(
                        #label,
                        #param,
                        #segs,
                        #expected,
                        #rt::member_found(#label, &__mmd_raw),
                    ));
                }
            }
        });
        stmts.push(quote! {
            let __mmd_raw = match #from {
                #ok(__mmd_v) => __mmd_v,
                #err(__mmd_f) => return #err(__mmd_f.in_context(#label, &[#(#roots),*])),
            };
            #check
            let #binding: #mty = #rt::FromMember::from_member(__mmd_raw);
        });
        inits.push(quote!(#mident: #binding));
    }
    let role_impls = role_impls(c, ident, true);
    let describe_context = p.describe_context.clone();
    let name = Literal::string(&ident.to_string());
    let doc = Literal::string(&c.doc);
    let params = c.params.iter().map(|(n, t)| {
        let n = Literal::string(&n.to_string());
        let t = Literal::string(&type_text(t));
        quote!(#layout::ContextParam { name: #n, ty: #t })
    });
    let members = c.members.iter().map(|m| {
        let n = Literal::string(&m.ident.to_string());
        let d = Literal::string(&m.doc);
        let t = Literal::string(&type_text(m.ty));
        let f = crate::tree::expression(p, &m.from);
        let label = Literal::string(&m.label);
        let valid = match &m.valid {
            Some(v) => {
                let texts = v.iter().map(|e| Literal::string(&expr_text(e)));
                quote!(#some(&[#(#texts),*]))
            }
            None => none.clone(),
        };
        let role = if m.text_encoding {
            quote!(#some(#layout::ContextRole::TextEncoding))
        } else if let Some(t) = &m.index_width {
            let it = p.index_type.clone();
            quote!(#some(#layout::ContextRole::IndexWidth(<#t as #it>::KIND)))
        } else {
            none.clone()
        };
        quote! {
            #layout::ContextMember {
                name: #n,
                doc: #d,
                ty: #t,
                from: #f,
                valid: #valid,
                role: #role,
                label: #label,
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #ident {
                /// Computes the context from its parameters (generated; the record that
                /// switches to it calls this).
                #[doc(hidden)]
                #[allow(unused_variables, unused_parens, clippy::all)]
                pub fn __mmd_context(#(#param_decls),*) -> #result<Self, #fault> {
                    #(#stmts)*
                    #ok(Self { #(#inits),* })
                }
            }

            #[automatically_derived]
            impl #declared for #ident {
                type Params<'__mmd_a> = (#(&'__mmd_a #param_tys,)*);
                #[inline]
                fn compute((#(#param_names,)*): Self::Params<'_>) -> #result<Self, #fault> {
                    Self::__mmd_context(#(#param_names),*)
                }
            }

            #(#role_impls)*

            #[automatically_derived]
            impl #describe_context for #ident {
                fn context_layout() -> &'static #layout::ContextLayout {
                    static LAYOUT: #layout::ContextLayout = #layout::ContextLayout {
                        name: #name,
                        doc: #doc,
                        params: &[#(#params),*],
                        members: &[#(#members),*],
                    };
                    &LAYOUT
                }
            }
        };
    }
}

/// The impls of the traits leaf types read with (`TextContext`, `IndexWidth<I>`), one per
/// member with a role; with `real` false (after a mistake), stubs, so that the records that
/// read with the context draw no error of their own.
fn role_impls(c: &Context, ident: &Ident, real: bool) -> Vec<TokenStream> {
    let p = &c.paths;
    let mut out = Vec::new();
    for m in &c.members {
        let mident = m.ident;
        if m.text_encoding {
            let tc = p.text_context.clone();
            let te = p.text_encoding.clone();
            let into = p.into.clone();
            let body = if real {
                quote!(#into(self.#mident))
            } else {
                p.unreachable.clone()
            };
            out.push(quote! {
                #[automatically_derived]
                impl #tc for #ident {
                    #[inline]
                    fn text_encoding(&self) -> #te {
                        #body
                    }
                }
            });
        }
        if let Some(t) = &m.index_width {
            let iw = p.index_width.clone();
            let body = if real {
                quote!(self.#mident)
            } else {
                p.unreachable.clone()
            };
            out.push(quote! {
                #[automatically_derived]
                impl #iw<#t> for #ident {
                    #[inline(always)]
                    fn width(&self) -> u8 {
                        #body
                    }
                }
            });
        }
    }
    out
}

/// On mistakes: the errors, plus what the records that use the context call and the
/// traits they read with, so that one mistake gives one error.
fn fallback(input: &DeriveInput, c: Option<&Context>, errors: Vec<syn::Error>) -> TokenStream {
    let errors = errors.into_iter().map(|e| e.to_compile_error());
    let ident = &input.ident;
    let stub = c.filter(|_| input.generics.params.is_empty()).map(|c| {
        let p = &c.paths;
        let Paths {
            layout,
            describe_context,
            ..
        } = p;
        let params = c.params.iter().map(|(n, t)| quote!(#n: &#t));
        let result = p.std_result.clone();
        let unreachable = p.unreachable.clone();
        let fault = p.context_fault.clone();
        let roles = role_impls(c, ident, false);
        quote! {
            #[allow(unreachable_code, unused_variables, clippy::all)]
            const _: () = {
                #(#roles)*
                impl #ident {
                    #[doc(hidden)]
                    pub fn __mmd_context(#(#params),*) -> #result<Self, #fault> {
                        #unreachable
                    }
                }
                impl #describe_context for #ident {
                    fn context_layout() -> &'static #layout::ContextLayout {
                        #unreachable
                    }
                }
            };
        }
    });
    quote! {
        #(#errors)*
        #stub
    }
}
