//! Generates the layout descriptor (`Describe`) from the same model as the codec.

use crate::ast::{expr_text, type_text, Container, Data, Fields, Presence, Repeat};
use crate::paths::Paths;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

fn opt_str(p: &Paths, s: Option<String>) -> TokenStream {
    let Paths { some, none, .. } = p;
    match s {
        Some(s) => {
            let l = Literal::string(&s);
            quote!(#some(#l))
        }
        None => none.clone(),
    }
}

fn field_layouts(p: &Paths, fields: &Fields) -> TokenStream {
    let Paths {
        none,
        layout,
        describe,
        rt,
        ..
    } = p;
    let items = fields.fields.iter().map(|f| {
        let shape = f.shape.as_ref().expect("checked");
        let name = Literal::string(&f.name);
        let doc = Literal::string(&f.doc);
        let vt = &shape.value_ty;
        // A byte `rest` keeps the name it has always had in descriptors
        // (`Vec<u8>`); every other list names its element type.
        let ty = match &shape.repeat {
            _ if shape.gaps => Literal::string("Vec<Vec<u8>>"),
            Repeat::Rest if type_text(vt) == "u8" => Literal::string("Vec<u8>"),
            _ => Literal::string(&type_text(vt)),
        };
        let placement = match (&shape.pos, shape.gaps) {
            (_, true) => quote!(#layout::Placement::Gaps),
            (Some(pos), _) => {
                let t = crate::tree::expression(p, &pos.at);
                let base = opt_str(p, pos.base.as_ref().map(|b| b.1.clone()));
                quote!(#layout::Placement::At { pos: #t, base: #base })
            }
            (None, false) => quote!(#layout::Placement::Sequential),
        };
        let repeat = match &shape.repeat {
            _ if shape.gaps => quote!(#layout::Repeat::Rest),
            Repeat::One => quote!(#layout::Repeat::One),
            Repeat::Count(n) => {
                let nt = Literal::string(&type_text(n));
                let prim_type = p.prim_type.clone();
                quote!(#layout::Repeat::Counted {
                    count_ty: #nt,
                    count_size: <#n as #rt::CountInt>::SIZE,
                    count_prim: <#n as #prim_type>::PRIM,
                })
            }
            Repeat::Len(e) => {
                let t = crate::tree::expression(p, e);
                quote!(#layout::Repeat::Len(#t))
            }
            Repeat::Rest => quote!(#layout::Repeat::Rest),
            Repeat::Until(u) => {
                let t = crate::tree::expression_with_element(p, &u.cond, &u.element.to_string());
                quote!(#layout::Repeat::Until(#t))
            }
        };
        let bound = match &shape.size {
            Some(e) => {
                let t = crate::tree::expression(p, e);
                let some = p.some.clone();
                quote!(#some(#t))
            }
            None => none.clone(),
        };
        let presence = match &shape.presence {
            Presence::Always => quote!(#layout::Presence::Always),
            Presence::If(c) => {
                let t = crate::tree::expression(p, c);
                quote!(#layout::Presence::If(#t))
            }
            Presence::UnlessEof => quote!(#layout::Presence::UnlessEof),
            Presence::IfUnlessEof(c) => {
                let t = crate::tree::expression(p, c);
                quote!(#layout::Presence::IfUnlessEof(#t))
            }
        };
        let select = match &shape.select {
            Some(e) => {
                let t = crate::tree::expression(p, e);
                let some = p.some.clone();
                quote!(#some(#t))
            }
            None => none.clone(),
        };
        let switch = opt_str(
            p,
            shape
                .switch_ctx
                .as_ref()
                .map(expr_text)
                .or(shape.context.as_ref().map(|c| c.text.clone())),
        );
        let context = match &shape.context {
            Some(c) => {
                let ty = &c.ty;
                let dc = p.describe_context.clone();
                let args = c.args.iter().map(|a| crate::tree::expression(p, a));
                let some = p.some.clone();
                quote!(#some(#layout::ContextSwitch {
                    layout: <#ty as #dc>::context_layout,
                    args: &[#(#args),*],
                }))
            }
            None => none.clone(),
        };
        let endian = match &shape.endian {
            crate::ast::Endian::Little => quote!(#layout::Endian::Little),
            crate::ast::Endian::Big => quote!(#layout::Endian::Big),
            crate::ast::Endian::BigIf(c) => {
                let t = crate::tree::expression(p, c);
                quote!(#layout::Endian::BigIf(#t))
            }
        };
        let (size, layout_fn, shape_fn) = match &shape.repeat {
            // Runs of bytes: described as bytes, by the placement.
            _ if shape.gaps => (
                quote!(#layout::Size::Variable),
                quote!(|| #none),
                quote!(<u8 as #describe>::shape),
            ),
            // Every byte to the end: bytes, described by the `Rest` repeat.
            Repeat::Rest if crate::ast::type_text(vt) == "u8" => (
                quote!(#layout::Size::Variable),
                quote!(|| #none),
                quote!(<u8 as #describe>::shape),
            ),
            _ => (
                quote!(<#vt as #describe>::SIZE),
                quote!(<#vt as #describe>::layout),
                quote!(<#vt as #describe>::shape),
            ),
        };
        quote! {
            #layout::FieldLayout {
                name: #name,
                doc: #doc,
                ty: #ty,
                size: #size,
                layout: #layout_fn,
                shape: #shape_fn,
                repeat: #repeat,
                presence: #presence,
                bound: #bound,
                placement: #placement,
                select: #select,
                switch_ctx: #switch,
                context: #context,
                endian: #endian,
            }
        }
    });
    quote!(&[#(#items),*])
}

/// `(SIZE, MIN_SIZE)` of a run of fields.
fn field_sizes(p: &Paths, fields: &Fields, magic_len: u64) -> (TokenStream, TokenStream) {
    let Paths {
        layout,
        describe,
        rt,
        ..
    } = p;
    let mut sizes = vec![quote!(#layout::Size::Fixed(#magic_len))];
    let mut mins = vec![quote!(#magic_len)];
    for f in &fields.fields {
        let shape = f.shape.as_ref().expect("checked");
        if !shape.sequential() {
            // Not in sequence: the record's size is not a sum any more.
            sizes.push(quote!(#layout::Size::Variable));
            continue;
        }
        let vt = &shape.value_ty;
        let always = matches!(shape.presence, Presence::Always);
        match (&shape.repeat, always) {
            (Repeat::One, true) => {
                sizes.push(quote!(<#vt as #describe>::SIZE));
                mins.push(quote!(<#vt as #describe>::MIN_SIZE));
            }
            (Repeat::Count(n), true) => {
                sizes.push(quote!(#layout::Size::Variable));
                mins.push(quote!(<#n as #rt::CountInt>::SIZE));
            }
            _ => sizes.push(quote!(#layout::Size::Variable)),
        }
    }
    (
        quote!(#layout::Size::sum(&[#(#sizes),*])),
        quote!(#layout::sum_of(&[#(#mins),*])),
    )
}

/// The `Describe` impl.
pub fn expand(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let Paths {
        layout, describe, ..
    } = p;
    let ident = cont.ident;
    let name = Literal::string(&ident.to_string());
    let doc = Literal::string(&cont.doc);
    let context = opt_str(p, cont.attrs.ty("ctx").map(|c| type_text(c.value)));
    let magic_lit = cont.attrs.byte_str("magic").map(|m| m.value);
    let magic_len = magic_lit.map(|m| m.value().len() as u64).unwrap_or(0);
    let (some, none, option) = (p.some.clone(), p.none.clone(), p.option.clone());
    let magic = match magic_lit {
        Some(m) => quote!(#some(#m)),
        None => none.clone(),
    };
    let parent = match cont.attrs.ty("parent") {
        Some(t) => {
            let t = t.value;
            let some = &p.some;
            quote!(#some(<#t as #describe>::layout))
        }
        None => p.none.clone(),
    };
    let file = match cont.attrs.strings("file") {
        Some(f) => {
            let get = |k: &str| f.value.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            let (id, title, app) = (get("id"), get("title"), get("application"));
            quote!(#some(#layout::FileInfo { id: #id, title: #title, application: #app }))
        }
        None => none.clone(),
    };
    let (size, min, body) = match &cont.data {
        Data::Struct(fields) => {
            let (size, min) = field_sizes(p, fields, magic_len);
            let fl = field_layouts(p, fields);
            (size, min, quote!(#layout::Body::Struct(#fl)))
        }
        Data::Enum(variants) => {
            let spec = cont.tag.as_ref().expect("checked");
            let tag_size = if spec.read { spec.kind.size() } else { 0 } + magic_len;
            let tag_bytes = spec.kind.size();
            let mins = variants.iter().map(|v| {
                let min = field_sizes(p, &v.fields, 0).1;
                // The default variant's first field is the tag, counted once.
                if v.default {
                    quote!((#min).saturating_sub(#tag_bytes))
                } else {
                    min
                }
            });
            let vls = variants.iter().map(|v| {
                let vname = Literal::string(&v.ident.to_string());
                let vdoc = Literal::string(&v.doc);
                let tag = Literal::string(&v.tag.as_ref().map(|t| t.display()).unwrap_or_default());
                let fl = field_layouts(p, &v.fields);
                let default = v.default;
                quote! {
                    #layout::VariantLayout {
                        name: #vname,
                        doc: #vdoc,
                        tag: #tag,
                        fields: #fl,
                        default: #default,
                    }
                }
            });
            let tag_ty = Literal::string(&type_text(&spec.ty));
            let tag_name = Literal::string(&spec.name);
            let prim = {
                let t = &spec.ty;
                let pt = p.prim_type.clone();
                quote!(<#t as #pt>::PRIM)
            };
            let tag = if spec.read {
                let s = spec.kind.size();
                let fourcc = spec.fourcc;
                quote!(#layout::TagSource::Read {
                    ty: #tag_ty,
                    prim: #prim,
                    size: #s,
                    name: #tag_name,
                    fourcc: #fourcc,
                })
            } else {
                quote!(#layout::TagSource::Selected {
                    ty: #tag_ty,
                    prim: #prim,
                    name: #tag_name,
                })
            };
            (
                quote!(#layout::Size::Variable),
                quote!(#tag_size + #layout::min_of(&[#(#mins),*])),
                quote!(#layout::Body::Enum { tag: #tag, variants: &[#(#vls),*] }),
            )
        }
    };
    quote! {
        #[automatically_derived]
        impl #describe for #ident {
            const SIZE: #layout::Size = #size;
            const MIN_SIZE: u64 = #min;
            fn layout() -> #option<&'static #layout::TypeLayout> {
                static LAYOUT: #layout::TypeLayout = #layout::TypeLayout {
                    name: #name,
                    doc: #doc,
                    context: #context,
                    magic: #magic,
                    file: #file,
                    parent: #parent,
                    body: #body,
                };
                #some(&LAYOUT)
            }
        }
    }
}
