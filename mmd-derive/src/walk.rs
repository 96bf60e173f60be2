//! Generates the reflective walk (`Walk`): every field in file order, as the writer writes
//! them, with the same names the writer reports to the output (see `write.rs`), so that
//! paths in the walk and in the recorded spans agree.

use crate::ast::{Container, Data, Fields, TagKind, TagValue};
use crate::paths::Paths;
use crate::write::bind_pattern;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// Statements that walk `fields` (bindings in scope) as the body of a struct or variant
/// named `name`; a lone tuple field is walked as the body itself.
fn walk_fields(p: &Paths, fields: &Fields, name: &str, magic: Option<TokenStream>) -> TokenStream {
    let walk = p.walk.clone();
    let lone = fields.is_lone() && magic.is_none();
    if lone {
        let f = &fields.fields[0];
        let (b, ty) = (&f.binding, f.ty);
        return quote! { <#ty as #walk::Walk>::walk(#b, __mmd_v); };
    }
    let name = Literal::string(name);
    let each = fields.fields.iter().map(|f| {
        let (b, ty) = (&f.binding, f.ty);
        let fname = Literal::string(&f.name);
        quote! {
            #walk::Visitor::field(__mmd_v, #fname);
            <#ty as #walk::Walk>::walk(#b, __mmd_v);
        }
    });
    quote! {
        #walk::Visitor::begin_struct(__mmd_v, #name);
        #magic
        #(#each)*
        #walk::Visitor::end(__mmd_v);
    }
}

/// The tag of a variant as a `Leaf` of the tag's type (`check` has matched the value
/// to the kind).
fn tag_leaf(p: &Paths, kind: TagKind, tag: &TagValue) -> TokenStream {
    tag_value_leaf(p, kind, crate::read::tag_pattern(tag))
}

/// The tag held in `value` (an expression of the tag's type) as a `Leaf`.
fn tag_value_leaf(p: &Paths, kind: TagKind, value: TokenStream) -> TokenStream {
    let walk = p.walk.clone();
    let variant = match kind {
        TagKind::Bool => quote::format_ident!("Bool"),
        TagKind::Int { signed, bits } => {
            quote::format_ident!("{}{}", if signed { "I" } else { "U" }, bits)
        }
    };
    quote!(#walk::Leaf::#variant(#value))
}

/// The `Walk` impl.
pub fn expand(cont: &Container) -> TokenStream {
    let p = &cont.paths;
    let walk = p.walk.clone();
    let ident = cont.ident;
    let type_name = ident.to_string();
    let magic_bytes = cont.attrs.byte_str("magic").map(|m| {
        let m = m.value;
        quote!(#m)
    });
    let body = match &cont.data {
        Data::Struct(fields) => {
            let pat = bind_pattern(fields, quote!(Self));
            let magic = magic_bytes.as_ref().map(|m| {
                quote! {
                    #walk::Visitor::field(__mmd_v, "magic");
                    #walk::Visitor::leaf(__mmd_v, #walk::Leaf::Magic(#m));
                }
            });
            let body = walk_fields(p, fields, &type_name, magic);
            quote! {
                let #pat = self;
                #body
            }
        }
        Data::Enum(variants) => {
            let spec = cont.tag.as_ref().expect("checked");
            let in_file = spec.read;
            let enum_name = Literal::string(&type_name);
            let magic = match &magic_bytes {
                Some(m) => {
                    let some = p.some.clone();
                    quote!(#some(#m))
                }
                None => p.none.clone(),
            };
            let arms = variants.iter().map(|v| {
                let vident = v.ident;
                let vname = vident.to_string();
                let pat = bind_pattern(&v.fields, quote!(Self::#vident));
                // The default variant's tag is the value its first field holds, and the
                // bytes are that field's (so not the tag's too).
                let (tag, in_file) = match &v.tag {
                    Some(t) => (tag_leaf(p, spec.kind, t), in_file),
                    None => {
                        let b = &v.fields.fields[0].binding;
                        (tag_value_leaf(p, spec.kind, quote!(*#b)), false)
                    }
                };
                let body = walk_fields(p, &v.fields, &vname, None);
                let vname = Literal::string(&vname);
                quote! {
                    #pat => {
                        #walk::Visitor::begin_variant(__mmd_v, #walk::Variant {
                            enum_name: #enum_name,
                            name: #vname,
                            tag: #tag,
                            tag_in_file: #in_file,
                            magic: #magic,
                        });
                        #body
                        #walk::Visitor::end(__mmd_v);
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
    quote! {
        #[automatically_derived]
        impl #walk::Walk for #ident {
            #[allow(unused_variables, non_shorthand_field_patterns, clippy::all)]
            fn walk(&self, __mmd_v: &mut dyn #walk::Visitor) {
                #body
            }
        }
    }
}
