//! Generates the reader: one `let` per field in file order (a run of fields whose size
//! the context fixes in one `let`, see `fixed.rs`), then the value.

use crate::ast::{Container, Data, Fields, Presence, Repeat, Style, TagValue};
use crate::paths::Paths;
use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};

/// The statements that read `fields` and the expression that builds the value from them.
///
/// `ctx_ty` names the context type in `DecodeSelected<ctx_ty, _>`: `__C` in the generic
/// impl of a type without a declared context (so that an enum that needs a context is
/// reported as an unmet bound at the field's type, not as a mismatch at the derive), `_`
/// otherwise (after a `switch_ctx` the context type changes).
pub fn read_fields(
    p: &Paths,
    cont: &Container,
    fields: &Fields,
    build: TokenStream,
    ctx_ty: &TokenStream,
) -> TokenStream {
    let Paths {
        rt,
        decode,
        decode_selected,
        input,
        some,
        none,
        result,
        ..
    } = p;
    let mut stmts = Vec::new();
    let mut ctx_n = 0usize;
    let lone = fields.is_lone();
    let pos = quote!(#input::position(&*__mmd_input));
    let bool_ty = crate::switch::bool_type();
    // Each field's read of one value, for the positioned ones.
    let mut positioned: Vec<TokenStream> = Vec::new();
    let reads: Vec<TokenStream> = fields
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let shape = f.shape.as_ref().expect("checked");
            let name = Literal::string(&f.name);
            let vt = &shape.value_ty;
            // The field's numbers are read in the order `__mmd_big` says (see below).
            let endian = !shape.endian.is_little();
            let ordered = endian && crate::ast::is_numeric(vt);
            let one = match &shape.select {
                Some(sel) => {
                    let span = syn::spanned::Spanned::span(vt);
                    let path = quote_spanned!(span=> <#vt as #decode_selected<#ctx_ty, _>>::decode_selected);
                    let sel = crate::switch::eval(p, fields, i, sel, &pos);
                    quote! { #path(__mmd_input, ctx, #sel) }
                }
                // The default variant's first field: the tag the enum has read.
                None if f.from_tag => quote! { #result::<#vt>::Ok(__mmd_tag) },
                // A number in the byte order the field states.
                None if ordered => quote! { <#vt as #rt::Ordered>::read_ordered(__mmd_input, __mmd_big) },
                None => quote! { <#vt as #decode<_>>::decode(__mmd_input, ctx) },
            };
            positioned.push(one.clone());
            // One value from exactly `size` bytes.
            let sized = shape.size.as_ref().map(|e| {
                let text = Literal::string(&crate::ast::expr_text(e));
                let e = crate::switch::eval(p, fields, i, e, &pos);
                quote! { #rt::read_sized(__mmd_input, #e, #text, |__mmd_input| #one) }
            });
            let elem = sized.clone().unwrap_or_else(|| one.clone());
            let bytes = crate::ast::type_text(vt) == "u8";
            let value = match (&shape.repeat, &sized) {
                (Repeat::One, _) => elem,
                (Repeat::Count(n), None) if ordered => {
                    quote! { #rt::read_counted_ordered::<#n, #vt, _>(__mmd_input, __mmd_big) }
                }
                (Repeat::Count(n), None) if endian => {
                    quote! { #rt::read_counted_in::<#n, #vt, _, _, _>(__mmd_input, ctx, __mmd_big) }
                }
                (Repeat::Count(n), Some(_)) if endian => quote! {
                    <#n as #rt::CountInt>::read_count_in(__mmd_input, __mmd_big).and_then(|__mmd_n| {
                        #rt::read_len_with(__mmd_input, __mmd_n, |__mmd_input| #elem)
                    })
                },
                (Repeat::Len(e), None) if ordered => {
                    let e = crate::switch::eval(p, fields, i, e, &pos);
                    quote! { #rt::read_len_ordered::<#vt, _, _>(__mmd_input, #e, __mmd_big) }
                }
                (Repeat::Count(n), None) => {
                    quote! { #rt::read_counted::<#n, #vt, _, _, _>(__mmd_input, ctx) }
                }
                (Repeat::Count(n), Some(_)) => quote! {
                    <#n as #rt::CountInt>::read_count(__mmd_input).and_then(|__mmd_n| {
                        #rt::read_len_with(__mmd_input, __mmd_n, |__mmd_input| #elem)
                    })
                },
                (Repeat::Len(e), None) => {
                    let e = crate::switch::eval(p, fields, i, e, &pos);
                    quote! { #rt::read_len::<#vt, _, _, _, _>(__mmd_input, ctx, #e) }
                }
                (Repeat::Len(e), Some(_)) => {
                    let e = crate::switch::eval(p, fields, i, e, &pos);
                    quote! { #rt::read_len_with(__mmd_input, #e, |__mmd_input| #elem) }
                }
                (Repeat::Rest, None) if bytes => quote! { #rt::read_rest(__mmd_input) },
                (Repeat::Rest, _) => {
                    quote! { #rt::read_to_end(__mmd_input, |__mmd_input| #elem) }
                }
                (Repeat::Until(u), _) => {
                    let el = &u.element;
                    let at = quote!(__mmd_at);
                    let cond = crate::switch::eval_as(p, fields, i, &u.cond, &at, Some(&bool_ty));
                    let result = &p.result;
                    let ok = &p.ok;
                    quote! {
                        #rt::read_until(
                            __mmd_input,
                            |__mmd_input| #elem,
                            |__mmd_e: &#vt, __mmd_at: ::core::primitive::u64| -> #result<#bool_ty> {
                                let #el = __mmd_e;
                                #ok(#cond)
                            },
                        )
                    }
                }
            };
            let value = if lone {
                quote! { (#value)? }
            } else {
                quote! { (#value).map_err(|e| e.in_field(#name))? }
            };
            // The byte order, known before the field is read.
            let value = match &shape.endian {
                crate::ast::Endian::Little => value,
                crate::ast::Endian::Big => quote! {{ let __mmd_big = true; #value }},
                crate::ast::Endian::BigIf(c) => {
                    let c = crate::switch::eval_as(p, fields, i, c, &pos, Some(&bool_ty));
                    quote! {{ let __mmd_big: #bool_ty = #c; #value }}
                }
            };
            let at_end = quote! { #input::at_end(&*__mmd_input) };
            match &shape.presence {
                Presence::Always => value,
                Presence::If(c) => {
                    let c = crate::switch::eval_as(p, fields, i, c, &pos, Some(&bool_ty));
                    quote! { if #c { #some(#value) } else { #none } }
                }
                Presence::UnlessEof => quote! { if #at_end { #none } else { #some(#value) } },
                Presence::IfUnlessEof(c) => {
                    let c = crate::switch::eval_as(p, fields, i, c, &pos, Some(&bool_ty));
                    quote! { if #c && !#at_end { #some(#value) } else { #none } }
                }
            }
        })
        .collect();
    // Later expressions read a field through a reference named like the field.
    let bind = |i: usize| {
        let f = &fields.fields[i];
        let b = &f.binding;
        let v = &f.value_binding;
        match fields.style {
            Style::Named => quote! { let #b = &#v; },
            _ => quote!(),
        }
    };
    let runs = crate::fixed::runs(fields);
    let mut placed = false;
    let mut i = 0;
    while i < fields.fields.len() {
        if let Some(run) = runs.iter().find(|r| r.start == i) {
            // Consecutive fields whose size the context fixes: one bounds check for all.
            let vs = fields.fields[run.clone()].iter().map(|f| &f.value_binding);
            let tys = fields.fields[run.clone()].iter().map(|f| f.ty);
            let slow = &reads[run.clone()];
            let read = crate::fixed::run_expr(p, fields, run.clone(), quote!((#(#slow,)*)));
            stmts.push(quote! { let (#(#vs,)*): (#(#tys,)*) = #read; });
            stmts.extend(run.clone().map(bind));
            i = run.end;
            continue;
        }
        // The binding has the field's own type, so that a container other than a `Vec`
        // is known to every expression that reads the field before the value is built.
        let f = &fields.fields[i];
        let (v, fty, read) = (&f.value_binding, f.ty, &reads[i]);
        let shape = f.shape.as_ref().expect("checked");
        if !shape.sequential() {
            if !placed {
                // Where the sequential fields end, and the input the record reaches to.
                placed = true;
                stmts.push(quote! {
                    let __mmd_seq_end: u64 = #input::position(&*__mmd_input);
                    let __mmd_in_end: u64 = #input::end(&*__mmd_input);
                    let mut __mmd_pieces: ::std::vec::Vec<(u64, u64)> = ::std::vec::Vec::new();
                });
            }
            let read = placed_read(p, fields, i, &positioned[i]);
            stmts.push(quote! { let #v: #fty = #read; });
            stmts.push(bind(i));
            i += 1;
            continue;
        }
        stmts.push(crate::switch::capture_position(fields, i, &pos));
        stmts.push(crate::nest::build_before(cont, fields, i));
        let read = crate::nest::wrap(p, fields, i, read.clone());
        stmts.push(quote! { let #v: #fty = #read; });
        stmts.push(bind(i));
        if let Some(s) = crate::switch::after_field(p, fields, i, &mut ctx_n) {
            stmts.push(s);
        }
        i += 1;
    }
    let construct = construct(fields, &build);
    let slow = quote! {
        #(#stmts)*
        #construct
    };
    crate::fixed::with_fixed_path(p, fields, &build, slow)
}

/// The read of positioned field `i` (`one` reads one value from the input bounded to
/// its region), or of the gaps field.
fn placed_read(p: &Paths, fields: &Fields, i: usize, one: &TokenStream) -> TokenStream {
    let Paths {
        rt,
        input,
        some,
        none,
        ..
    } = p;
    let f = &fields.fields[i];
    let shape = f.shape.as_ref().expect("checked");
    let name = Literal::string(&f.name);
    let here = quote!(#input::position(&*__mmd_input));
    let Some(pos) = &shape.pos else {
        return quote! {
            #rt::read_gaps(__mmd_input, __mmd_seq_end, &mut __mmd_pieces)
                .map_err(|e| e.in_field(#name))?
        };
    };
    let base = match &pos.base {
        Some((b, _)) => {
            let id = quote::format_ident!("__mmd_pos_{}", fields.fields[*b].binding);
            quote!(#id)
        }
        None => quote!(__mmd_start),
    };
    let size = shape.size.as_ref().expect("checked: `pos` needs `size`");
    let pos_text = Literal::string(&crate::ast::expr_text(&pos.at));
    let size_text = Literal::string(&crate::ast::expr_text(size));
    let at = crate::switch::eval(p, fields, i, &pos.at, &here);
    let n = crate::switch::eval(p, fields, i, size, &here);
    let read_one = |wrap: TokenStream| {
        quote! {
            {
                let __mmd_place = #rt::place(#here, #base, #at, #n, #pos_text, #size_text, __mmd_in_end)
                    .map_err(#wrap)?;
                #rt::read_at(__mmd_input, __mmd_place, #size_text, &mut __mmd_pieces, |__mmd_input| #one)
                    .map_err(#wrap)?
            }
        }
    };
    let value = match &shape.repeat {
        Repeat::Len(len) => {
            let len = crate::switch::eval(p, fields, i, len, &here);
            let one = read_one(quote!(|e| e.in_index(_index).in_field(#name)));
            quote! {
                {
                    let __mmd_n = #rt::positioned_len(#here, #len, __mmd_start, __mmd_in_end)
                        .map_err(|e| e.in_field(#name))?;
                    let mut __mmd_items = ::std::vec::Vec::with_capacity(__mmd_n.min(4096));
                    for _index in 0..__mmd_n {
                        let _index: usize = _index;
                        __mmd_items.push(#one);
                    }
                    __mmd_items
                }
            }
        }
        _ => read_one(quote!(|e| e.in_field(#name))),
    };
    match shape.presence.condition() {
        Some(c) => {
            let c =
                crate::switch::eval_as(p, fields, i, c, &here, Some(&crate::switch::bool_type()));
            quote! { if #c { #some(#value) } else { #none } }
        }
        None => value,
    }
}

/// The value built from the fields' value bindings: `build { member: value, .. }` (or
/// `build` alone for a unit).
pub fn construct(fields: &Fields, build: &TokenStream) -> TokenStream {
    let values = fields.fields.iter().map(|f| &f.value_binding);
    let members = fields.fields.iter().map(|f| &f.member);
    match fields.style {
        Style::Named | Style::Unnamed => quote! { #build { #(#members: #values),* } },
        Style::Unit => quote! { #build },
    }
}

pub fn tag_pattern(t: &TagValue) -> TokenStream {
    match t {
        TagValue::Bool(b) => quote!(#b),
        TagValue::Int(i) => {
            let lit = Literal::i128_unsuffixed(i.abs());
            if *i < 0 {
                quote!(-#lit)
            } else {
                quote!(#lit)
            }
        }
    }
}

/// "0, 1, 2 or 3": the tag values an enum accepts.
pub fn expected_tags(cont: &Container) -> String {
    let Data::Enum(vs) = &cont.data else {
        return String::new();
    };
    let tags: Vec<String> = vs
        .iter()
        .filter_map(|v| {
            v.tag
                .as_ref()
                .map(|t| t.shown(cont.tag.as_ref().is_some_and(|s| s.fourcc)))
        })
        .collect();
    match tags.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
    }
}

/// The body of `decode` (or of `decode_selected`, where `__mmd_tag` is the selector).
pub fn expand(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let Paths {
        ok,
        err,
        decode,
        input,
        rt,
        result,
        ..
    } = p;
    let magic = cont.magic_stmt("expect_magic", "__mmd_input");
    let ctx_ty = if cont.attrs.has("ctx") {
        quote!(_)
    } else {
        quote!(__C)
    };
    let body = match &cont.data {
        Data::Struct(fields) => {
            let read = read_fields(p, cont, fields, quote!(Self), &ctx_ty);
            quote! { #ok({ #read }) }
        }
        Data::Enum(variants) => {
            let spec = cont.tag.as_ref().expect("checked");
            let tag_ty = &spec.ty;
            let arms = variants.iter().filter(|v| !v.default).map(|v| {
                let ident = v.ident;
                let pat = tag_pattern(v.tag.as_ref().expect("checked"));
                let read = read_fields(p, cont, &v.fields, quote!(Self::#ident), &ctx_ty);
                let name = Literal::string(&ident.to_string());
                quote! {
                    #pat => (|| -> #result<Self> {
                        #ok({ #read })
                    })().map_err(|e| e.in_field(#name)),
                }
            });
            let expected = Literal::string(&expected_tags(cont));
            let tag_name = Literal::string(&spec.name);
            // Every other tag: the default variant, which keeps it, or an error.
            let other = match variants.iter().find(|v| v.default) {
                Some(v) => {
                    let ident = v.ident;
                    let read = read_fields(p, cont, &v.fields, quote!(Self::#ident), &ctx_ty);
                    let name = Literal::string(&ident.to_string());
                    quote! {
                        _ => (|| -> #result<Self> {
                            #ok({ #read })
                        })().map_err(|e| e.in_field(#name)),
                    }
                }
                None if spec.fourcc => quote! {
                    other => #err(#rt::unknown_tag(
                        __mmd_tag_at, #tag_name, #rt::FourCc(other), #expected,
                    )),
                },
                None => quote! {
                    other => #err(#rt::unknown_tag(__mmd_tag_at, #tag_name, other, #expected)),
                },
            };
            let fetch = if spec.read {
                quote! {
                    let __mmd_tag_at = #input::position(&*__mmd_input);
                    let __mmd_tag: #tag_ty = <#tag_ty as #decode<_>>::decode(__mmd_input, ctx)?;
                }
            } else {
                quote! { let __mmd_tag_at = #input::position(&*__mmd_input); }
            };
            quote! {
                #fetch
                #[allow(unreachable_patterns)]
                match __mmd_tag {
                    #(#arms)*
                    #other
                }
            }
        }
    };
    let unwrap = crate::nest::unwrap(cont);
    quote! {
        #unwrap
        let __mmd_start = #input::position(&*__mmd_input);
        #magic
        #body
    }
}
