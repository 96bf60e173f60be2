//! Generates the writer: it writes each field in file order and checks, as it goes, that
//! the value is what reading would have produced (presence matches conditions, lengths
//! match, variants match selectors, nothing follows an absent end-of-file field).

use crate::ast::{expr_text, Container, Data, Fields, Presence, Repeat, Style};
use crate::paths::Paths;
use crate::read::tag_pattern;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// Statements that write `fields`, whose bindings (`&T`) are already in scope.
fn write_fields(p: &Paths, cont: &Container, fields: &Fields) -> TokenStream {
    let Paths {
        rt,
        encode,
        selected,
        output,
        err,
        some,
        none,
        option,
        segment,
        ..
    } = p;
    let lone = fields.is_lone();
    let mut stmts = Vec::new();
    let mut ctx_n = 0usize;
    let here = quote!(#output::position(&*__mmd_out));
    for (i, f) in fields.fields.iter().enumerate() {
        let shape = f.shape.as_ref().expect("checked");
        if !shape.sequential() {
            continue;
        }
        let name = Literal::string(&f.name);
        let b = &f.binding;
        let vt = &shape.value_ty;
        let pos = quote! { #output::position(&*__mmd_out) };
        // The field's numbers are written in the order `__mmd_big` says (see below).
        let endian = !shape.endian.is_little();
        let ordered = endian && crate::ast::is_numeric(vt);
        // The output is told where the field starts and ends (spans); a lone tuple field
        // is its variant's body and has no name of its own, as in error paths.
        let wrap = |body: TokenStream| {
            if lone {
                body
            } else {
                quote! {
                    {
                        #output::enter(__mmd_out, #segment::Field(#name));
                        let __mmd_r = (#body).map_err(|e| e.in_field(#name));
                        #output::leave(__mmd_out);
                        __mmd_r
                    }
                }
            }
        };
        // Writes the value `__mmd_val: &FieldValue`.
        let one = match &shape.select {
            Some(sel) => {
                let text = Literal::string(&expr_text(sel));
                let sel = crate::switch::eval(p, fields, i, sel, &here);
                quote! {
                    {
                        let __mmd_want = #sel;
                        let __mmd_have = #selected::selector(__mmd_val);
                        if !#rt::same_selector(&__mmd_want, &__mmd_have) {
                            #err(#rt::selector_mismatch(#pos, #text, __mmd_want, __mmd_have))
                        } else {
                            <#vt as #encode<_>>::encode(__mmd_val, __mmd_out, ctx)
                        }
                    }
                }
            }
            None if ordered => {
                quote! { <#vt as #rt::Ordered>::write_ordered(__mmd_val, __mmd_out, __mmd_big) }
            }
            None => quote! { <#vt as #encode<_>>::encode(__mmd_val, __mmd_out, ctx) },
        };
        // One value that must take exactly `size` bytes.
        let sized = shape.size.as_ref().map(|e| {
            let text = Literal::string(&expr_text(e));
            let e = crate::switch::eval(p, fields, i, e, &here);
            quote! { #rt::write_sized(__mmd_out, #e, #text, |__mmd_out| #one) }
        });
        // Values in a byte order are written one by one, like values of a declared size.
        let each = sized.as_ref().or(ordered.then_some(&one)).map(|elem| {
            quote! { #rt::write_each(__mmd_val, __mmd_out, |__mmd_val, __mmd_out| #elem) }
        });
        let seq = each.clone().unwrap_or_else(
            || quote! { <#vt as #encode<_>>::encode_seq(__mmd_val, __mmd_out, ctx) },
        );
        let bytes = crate::ast::type_text(vt) == "u8";
        let write = match &shape.repeat {
            Repeat::One => sized.unwrap_or(one),
            Repeat::Count(n) if endian => match &each {
                None => quote! {
                    #rt::write_counted_in::<#n, #vt, _, _, _>(__mmd_val, __mmd_out, ctx, __mmd_big)
                },
                Some(each) => quote! {
                    #rt::write_count_ordered::<#n, _>(__mmd_val.len(), __mmd_out, __mmd_big)
                        .and_then(|()| #each)
                },
            },
            Repeat::Count(n) => match &each {
                None => {
                    quote! { #rt::write_counted::<#n, #vt, _, _, _>(__mmd_val, __mmd_out, ctx) }
                }
                Some(each) => quote! {
                    #rt::write_count::<#n, _>(__mmd_val.len(), __mmd_out).and_then(|()| #each)
                },
            },
            Repeat::Len(e) => {
                let text = Literal::string(&expr_text(e));
                let e = crate::switch::eval(p, fields, i, e, &here);
                match &each {
                    None => quote! {
                        #rt::write_len::<#vt, _, _, _, _>(__mmd_val, __mmd_out, ctx, #e, #text)
                    },
                    Some(each) => quote! {
                        #rt::check_len(__mmd_val.len(), #pos, #e, #text).and_then(|()| #each)
                    },
                }
            }
            Repeat::Rest if !bytes || each.is_some() => seq,
            Repeat::Until(u) => {
                let el = &u.element;
                let text = Literal::string(&expr_text(&u.cond));
                let at = quote!(__mmd_at);
                let bool_ty = crate::switch::bool_type();
                let cond = crate::switch::eval_as(p, fields, i, &u.cond, &at, Some(&bool_ty));
                let result = &p.result;
                let ok = &p.ok;
                quote! {
                    {
                        let __mmd_at = #pos;
                        #rt::check_until(__mmd_val, __mmd_at, #text, |__mmd_e: &#vt| -> #result<#bool_ty> {
                            let #el = __mmd_e;
                            #ok(#cond)
                        })
                        .and_then(|()| #seq)
                    }
                }
            }
            Repeat::Rest => quote! {
                if let #some(__mmd_absent) = __mmd_absent.filter(|_| !__mmd_val.is_empty()) {
                    #err(#rt::after_absent(#pos, __mmd_absent))
                } else {
                    #output::write_bytes(__mmd_out, __mmd_val)
                }
            },
        };
        let write = wrap(write);
        // The byte order, known before the field is written.
        let write = match &shape.endian {
            crate::ast::Endian::Little => write,
            crate::ast::Endian::Big => quote! {{ let __mmd_big = true; #write }},
            crate::ast::Endian::BigIf(c) => {
                let c = bool_cond(p, fields, i, c, &here);
                quote! {{ let __mmd_big: ::core::primitive::bool = #c; #write }}
            }
        };
        // Any field that writes bytes after an absent end-of-file field is an error.
        let guard = quote! {
            if let #some(__mmd_absent) = __mmd_absent {
                return #err(#rt::after_absent(#pos, __mmd_absent).in_field(#name));
            }
        };
        // A present end-of-file field must write at least one byte, or it reads back absent.
        let eof_write = quote! {
            let __mmd_before = #pos;
            #write?;
            if #output::position(&*__mmd_out) == __mmd_before {
                return #err(#rt::empty_at_eof(__mmd_before).in_field(#name));
            }
        };
        let stmt = match &shape.presence {
            Presence::Always => quote! { { let __mmd_val = #b; #write?; } },
            Presence::If(c) => {
                let text = Literal::string(&expr_text(c));
                let c = bool_cond(p, fields, i, c, &here);
                quote! {
                    match (#c, #b) {
                        (true, #some(__mmd_val)) => { #write?; }
                        (false, #none) => {}
                        (_, __mmd_opt) => {
                            return #err(#rt::presence_mismatch(#pos, #text, __mmd_opt.is_some())
                                .in_field(#name));
                        }
                    }
                }
            }
            Presence::UnlessEof => quote! {
                match #b {
                    #some(__mmd_val) => { #guard #eof_write }
                    #none => { __mmd_absent = __mmd_absent.or(#some(#name)); }
                }
            },
            Presence::IfUnlessEof(c) => {
                let text = Literal::string(&expr_text(c));
                let c = bool_cond(p, fields, i, c, &here);
                quote! {
                    match (#c, #b) {
                        (true, #some(__mmd_val)) => { #guard #eof_write }
                        (true, #none) => { __mmd_absent = __mmd_absent.or(#some(#name)); }
                        (false, #none) => {}
                        (false, #some(_)) => {
                            return #err(#rt::presence_mismatch(#pos, #text, true).in_field(#name));
                        }
                    }
                }
            }
        };
        stmts.push(crate::switch::capture_position(fields, i, &here));
        stmts.push(crate::nest::build_before(cont, fields, i));
        stmts.push(crate::nest::wrap(p, fields, i, stmt));
        if let Some(s) = crate::switch::after_field(p, fields, i, &mut ctx_n) {
            stmts.push(s);
        }
    }
    let placed = write_placed(p, fields);
    quote! {
        let mut __mmd_absent: #option<&'static str> = #none;
        #(#stmts)*
        let _ = __mmd_absent;
        #placed
    }
}

/// True when `fields` has positioned fields (and so a gaps field).
pub fn has_positions(fields: &Fields) -> bool {
    fields
        .fields
        .iter()
        .any(|f| f.shape.as_ref().is_some_and(|s| s.pos.is_some()))
}

/// After the sequential fields: the positioned values, each at its place, and the gaps
/// between them (`rt::write_placed`), `__mmd_out` being the record's `rt::Tee`.
fn write_placed(p: &Paths, fields: &Fields) -> TokenStream {
    if !has_positions(fields) {
        return quote!();
    }
    let Paths {
        rt,
        encode,
        selected,
        output,
        err,
        ok,
        some,
        none,
        result,
        ..
    } = p;
    let here = quote!(#output::position(&*__mmd_out));
    let mut collect = Vec::new();
    let mut arms = Vec::new();
    let mut names = Vec::new();
    let mut gaps = None;
    let mut k = 0usize;
    for (i, f) in fields.fields.iter().enumerate() {
        let shape = f.shape.as_ref().expect("checked");
        let b = &f.binding;
        let name = Literal::string(&f.name);
        if shape.gaps {
            gaps = Some((b.clone(), name));
            continue;
        }
        let Some(pos) = &shape.pos else { continue };
        let vt = &shape.value_ty;
        let size = shape.size.as_ref().expect("checked: `pos` needs `size`");
        let base = match &pos.base {
            Some((bi, _)) => {
                let id = quote::format_ident!("__mmd_pos_{}", fields.fields[*bi].binding);
                quote!(#id)
            }
            None => quote!(__mmd_start),
        };
        let pos_text = Literal::string(&expr_text(&pos.at));
        let size_text = Literal::string(&expr_text(size));
        let at = crate::switch::eval(p, fields, i, &pos.at, &here);
        let n = crate::switch::eval(p, fields, i, size, &here);
        let list = matches!(shape.repeat, Repeat::Len(_));
        let wrap = if list {
            quote!(|e| e.in_index(_index).in_field(#name))
        } else {
            quote!(|e| e.in_field(#name))
        };
        let push = quote! {
            {
                let (__mmd_at, __mmd_n) = #rt::place(#here, #base, #at, #n, #pos_text, #size_text, ::core::primitive::u64::MAX)
                    .map_err(#wrap)?;
                __mmd_pieces.push(#rt::Piece { at: __mmd_at, size: __mmd_n, field: #k, index: _index });
            }
        };
        let each = match &shape.repeat {
            Repeat::Len(len) => {
                let text = Literal::string(&expr_text(len));
                let len = crate::switch::eval(p, fields, i, len, &here);
                quote! {
                    #rt::check_len(__mmd_val.len(), #here, #len, #text).map_err(|e| e.in_field(#name))?;
                    for _index in 0..__mmd_val.len() {
                        let _index: usize = _index;
                        #push
                    }
                }
            }
            _ => quote! {
                let _index: usize = 0;
                #push
            },
        };
        // The value to write, `__mmd_val`, for element `__mmd_i`.
        let (collect_stmt, value) = match &shape.presence {
            crate::ast::Presence::If(c) => {
                let text = Literal::string(&expr_text(c));
                let c = bool_cond(p, fields, i, c, &here);
                (
                    quote! {
                        match (#c, #b) {
                            (true, #some(__mmd_val)) => { #each }
                            (false, #none) => {}
                            (_, __mmd_opt) => {
                                return #err(#rt::presence_mismatch(#here, #text, __mmd_opt.is_some())
                                    .in_field(#name));
                            }
                        }
                    },
                    quote! {
                        match #b {
                            #some(__mmd_v) => __mmd_v,
                            #none => return #ok(()),
                        }
                    },
                )
            }
            _ => (quote! { { let __mmd_val = #b; #each } }, quote!(#b)),
        };
        let elem = if list {
            quote!(&(#value)[__mmd_i])
        } else {
            quote!(#value)
        };
        let one = match &shape.select {
            Some(sel) => {
                let text = Literal::string(&expr_text(sel));
                let sel = crate::switch::eval(p, fields, i, sel, &here);
                quote! {
                    {
                        let __mmd_want = #sel;
                        let __mmd_have = #selected::selector(__mmd_val);
                        if !#rt::same_selector(&__mmd_want, &__mmd_have) {
                            #err(#rt::selector_mismatch(#here, #text, __mmd_want, __mmd_have))
                        } else {
                            <#vt as #encode<_>>::encode(__mmd_val, __mmd_out, ctx)
                        }
                    }
                }
            }
            None => quote! { <#vt as #encode<_>>::encode(__mmd_val, __mmd_out, ctx) },
        };
        collect.push(collect_stmt);
        arms.push(quote! {
            #k => {
                let __mmd_val: &#vt = #elem;
                #one
            }
        });
        let list_lit = list;
        names.push(quote!((#name, #list_lit)));
        k += 1;
    }
    let (gb, gname) = gaps.expect("checked: positioned fields come with a gaps field");
    quote! {
        let mut __mmd_pieces: ::std::vec::Vec<#rt::Piece> = ::std::vec::Vec::new();
        #(#collect)*
        #rt::write_placed(
            __mmd_out,
            __mmd_pieces,
            #gb,
            #gname,
            &[#(#names),*],
            |__mmd_out: &mut dyn #output, __mmd_k: usize, __mmd_i: usize| -> #result<()> {
                let _ = __mmd_i;
                match __mmd_k {
                    #(#arms)*
                    _ => #ok(()),
                }
            },
        )?;
    }
}

/// A condition as a `bool` typed at the condition's own tokens, so that a condition of
/// another type is an error there, not at the derive.
fn bool_cond(
    p: &Paths,
    fields: &Fields,
    upto: usize,
    c: &syn::Expr,
    here: &TokenStream,
) -> TokenStream {
    crate::switch::eval_as(p, fields, upto, c, here, Some(&crate::switch::bool_type()))
}

/// A pattern that binds every field of `fields` by reference under its binding name.
pub fn bind_pattern(fields: &Fields, path: TokenStream) -> TokenStream {
    let members = fields.fields.iter().map(|f| &f.member);
    let bindings = fields.fields.iter().map(|f| &f.binding);
    match fields.style {
        Style::Unit => path,
        _ => quote! { #path { #(#members: #bindings),* } },
    }
}

/// The body of `encode`.
pub fn expand(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let Paths {
        ok,
        encode,
        output,
        segment,
        result,
        rt,
        err,
        some,
        none,
        option,
        ..
    } = p;
    let magic = cont.magic_stmt("write_magic", "__mmd_out");
    let body = match &cont.data {
        Data::Struct(fields) => {
            let pat = bind_pattern(fields, quote!(Self));
            let write = write_fields(p, cont, fields);
            quote! {
                let #pat = self;
                #write
            }
        }
        Data::Enum(variants) => {
            let spec = cont.tag.as_ref().expect("checked");
            let tag_ty = &spec.ty;
            let arms = variants.iter().map(|v| {
                let ident = v.ident;
                let pat = bind_pattern(&v.fields, quote!(Self::#ident));
                let write = write_fields(p, cont, &v.fields);
                let name = Literal::string(&ident.to_string());
                let write_tag = if v.default {
                    // The first field holds the tag and writes it; a tag another
                    // variant lists would read back as that variant.
                    let b = &v.fields.fields[0].binding;
                    let listed = variants.iter().filter(|o| !o.default).map(|o| {
                        let pat = tag_pattern(o.tag.as_ref().expect("checked"));
                        let oname = Literal::string(&o.ident.to_string());
                        quote! { #pat => #some(#oname), }
                    });
                    let tag_name = Literal::string(&spec.name);
                    let found = if spec.fourcc {
                        quote!(#rt::FourCc(*#b))
                    } else {
                        quote!(*#b)
                    };
                    // At the field that holds the tag (the variant itself when that
                    // field is its lone body).
                    let at_field = (!v.fields.is_lone()).then(|| {
                        let f = Literal::string(&v.fields.fields[0].name);
                        quote!(.in_field(#f))
                    });
                    Some(quote! {
                        let __mmd_listed: #option<&str> = match *#b {
                            #(#listed)*
                            _ => #none,
                        };
                        if let #some(__mmd_listed) = __mmd_listed {
                            return #err(#rt::default_holds_listed(
                                #output::position(&*__mmd_out), #tag_name, #found, __mmd_listed, #name,
                            )#at_field.in_field(#name));
                        }
                    })
                } else {
                    let tag = tag_pattern(v.tag.as_ref().expect("checked"));
                    spec.read.then(|| {
                        quote! {
                            let __mmd_tag: #tag_ty = #tag;
                            #output::enter(__mmd_out, #segment::Tag);
                            <#tag_ty as #encode<_>>::encode(&__mmd_tag, __mmd_out, ctx)?;
                            #output::leave(__mmd_out);
                        }
                    })
                };
                quote! {
                    #pat => {
                        #write_tag
                        #output::enter(__mmd_out, #segment::Field(#name));
                        (|| -> #result<()> {
                            #write
                            #ok(())
                        })().map_err(|e| e.in_field(#name))?;
                        #output::leave(__mmd_out);
                    }
                }
            });
            quote! {
                match self {
                    #(#arms)*
                }
            }
        }
    };
    // A record with positioned fields writes through a `Tee`, which keeps what it wrote
    // for the positioned values that overlap it.
    let tee = match &cont.data {
        Data::Struct(fields) if has_positions(fields) => quote! {
            let mut __mmd_tee = #rt::Tee::new(__mmd_out);
            let __mmd_out = &mut __mmd_tee;
        },
        _ => quote!(),
    };
    let unwrap = crate::nest::unwrap(cont);
    quote! {
        #unwrap
        let __mmd_start = #output::position(&*__mmd_out);
        #tee
        #magic
        #body
        #ok(())
    }
}

/// The body of `Selected::selector` for a `selected_by` enum.
pub fn expand_selector(cont: &Container) -> TokenStream {
    let Data::Enum(variants) = &cont.data else {
        return quote!();
    };
    let arms = variants.iter().map(|v| {
        let ident = v.ident;
        if v.default {
            // The default variant selects by the tag it holds (its first field).
            let pat = bind_pattern(&v.fields, quote!(Self::#ident));
            let b = &v.fields.fields[0].binding;
            return quote! { #pat => *#b, };
        }
        let tag = tag_pattern(v.tag.as_ref().expect("checked"));
        let pat = match v.fields.style {
            Style::Unit => quote!(Self::#ident),
            Style::Named => quote!(Self::#ident { .. }),
            Style::Unnamed => quote!(Self::#ident(..)),
        };
        quote! { #pat => #tag, }
    });
    quote! { match self { #(#arms)* } }
}
