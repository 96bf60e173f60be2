//! The typed model of an annotated struct or enum. Each node keeps the `syn` node it came
//! from, so errors point at the exact token; codegen never re-reads raw attributes.

use crate::attr::{self, ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::ctxt::Ctxt;
use proc_macro2::Span;
use quote::format_ident;
use syn::{DeriveInput, Expr, Ident, Member, Type};

pub struct Container<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    pub doc: String,
    pub attrs: ContainerAttrs,
    pub data: Data<'a>,
    /// Filled by `check` for enums.
    pub tag: Option<TagSpec>,
}

pub enum Data<'a> {
    Struct(Fields<'a>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Unnamed,
    Unit,
}

pub struct Fields<'a> {
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub doc: String,
    pub attrs: VariantAttrs,
    pub fields: Fields<'a>,
    /// Filled by `check`.
    pub tag: Option<TagValue>,
}

pub struct Field<'a> {
    pub original: &'a syn::Field,
    /// The name shown in paths and the reference (`bones`, or `0` for tuple fields).
    pub name: String,
    /// How the struct member is addressed.
    pub member: Member,
    /// The name earlier-field expressions use (the field's own name, or `__mmd_fN`).
    pub binding: Ident,
    /// The local that owns the value while reading.
    pub value_binding: Ident,
    pub ty: &'a Type,
    pub doc: String,
    pub attrs: FieldAttrs,
    /// Filled by `check`.
    pub shape: Option<Shape>,
}

/// When a field is present.
#[derive(Clone)]
pub enum Presence {
    Always,
    If(Expr),
    UnlessEof,
    IfUnlessEof(Expr),
}

/// How many values a field holds.
#[derive(Clone)]
pub enum Repeat {
    One,
    Count(Type),
    Len(Expr),
    Rest,
}

/// A field's checked shape: presence, repetition and the type of one value.
#[derive(Clone)]
pub struct Shape {
    pub presence: Presence,
    pub repeat: Repeat,
    pub value_ty: Type,
    pub select: Option<Expr>,
    pub switch_ctx: Option<Expr>,
}

/// The primitive types a tag or selector may have.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TagKind {
    Bool,
    Int { signed: bool, bits: u32 },
}

impl TagKind {
    pub fn from_type(ty: &Type) -> Option<TagKind> {
        let Type::Path(p) = ty else { return None };
        let id = p.path.get_ident()?.to_string();
        Some(match id.as_str() {
            "bool" => TagKind::Bool,
            "u8" => TagKind::Int { signed: false, bits: 8 },
            "u16" => TagKind::Int { signed: false, bits: 16 },
            "u32" => TagKind::Int { signed: false, bits: 32 },
            "i8" => TagKind::Int { signed: true, bits: 8 },
            "i16" => TagKind::Int { signed: true, bits: 16 },
            "i32" => TagKind::Int { signed: true, bits: 32 },
            _ => return None,
        })
    }

    pub fn fits(self, v: i128) -> bool {
        match self {
            TagKind::Bool => false,
            TagKind::Int { signed: false, bits } => v >= 0 && v < (1i128 << bits),
            TagKind::Int { signed: true, bits } => {
                v >= -(1i128 << (bits - 1)) && v < (1i128 << (bits - 1))
            }
        }
    }

    pub fn size(self) -> u64 {
        match self {
            TagKind::Bool => 1,
            TagKind::Int { bits, .. } => u64::from(bits / 8),
        }
    }
}

/// Where an enum's tag comes from, checked.
#[derive(Clone)]
pub struct TagSpec {
    pub ty: Type,
    pub kind: TagKind,
    /// True: read from the file; false: selected by the enclosing struct.
    pub read: bool,
    pub name: String,
}

/// A variant's tag value, checked against the tag kind.
#[derive(Clone, PartialEq, Eq)]
pub enum TagValue {
    Bool(bool),
    Int(i128),
}

impl TagValue {
    pub fn display(&self) -> String {
        match self {
            TagValue::Bool(b) => b.to_string(),
            TagValue::Int(i) => i.to_string(),
        }
    }
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let attrs = attr::container(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(s) => Data::Struct(Fields::from_ast(cx, &s.fields)),
            syn::Data::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| Variant {
                        ident: &v.ident,
                        doc: attr::doc(&v.attrs),
                        attrs: attr::variant(cx, &v.attrs),
                        fields: Fields::from_ast(cx, &v.fields),
                        tag: None,
                    })
                    .collect(),
            ),
            syn::Data::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "`#[derive(Mmd)]` supports structs and enums, not unions",
                );
                return None;
            }
        };
        Some(Container {
            original: input,
            ident: &input.ident,
            doc: attr::doc(&input.attrs),
            attrs,
            data,
            tag: None,
        })
    }

}

impl<'a> Fields<'a> {
    fn from_ast(cx: &Ctxt, fields: &'a syn::Fields) -> Fields<'a> {
        let style = match fields {
            syn::Fields::Named(_) => Style::Named,
            syn::Fields::Unnamed(_) => Style::Unnamed,
            syn::Fields::Unit => Style::Unit,
        };
        let fields = fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let (name, member, binding) = match &f.ident {
                    Some(id) => (id.to_string(), Member::Named(id.clone()), id.clone()),
                    None => (
                        i.to_string(),
                        Member::Unnamed(syn::Index {
                            index: i as u32,
                            span: Span::call_site(),
                        }),
                        format_ident!("__mmd_f{}", i),
                    ),
                };
                let value_binding = format_ident!("__mmd_v_{}", name);
                Field {
                    original: f,
                    name,
                    member,
                    binding,
                    value_binding,
                    ty: &f.ty,
                    doc: attr::doc(&f.attrs),
                    attrs: attr::field(cx, &f.attrs),
                    shape: None,
                }
            })
            .collect();
        Fields { style, fields }
    }
}

/// The `T` of `Wrapper<T>` when `ty` is `Wrapper<T>` (by last path segment).
pub fn generic_inner<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let seg = p.path.segments.last()?;
    if seg.ident != wrapper {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    if args.args.len() != 1 {
        return None;
    }
    match args.args.first()? {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// The token text of an expression, tidied for messages and the reference.
pub fn expr_text(e: &Expr) -> String {
    let s = quote::quote!(#e).to_string();
    tidy(&s)
}

/// Tidies token-stream text (`a . b (c)` -> `a.b(c)`).
pub fn tidy(s: &str) -> String {
    let mut out = s
        .replace(" . ", ".")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace(" :: ", "::")
        .replace("& ", "&")
        .replace("* ", "*")
        .replace(" [", "[")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace(" < ", "<")
        .replace(" >", ">");
    // `a & b` and `a * b` lost their right-hand space above; put binary spacing back.
    out = out.replace(" &", " & ").replace(" *", " * ").replace("  ", " ");
    out = out.replace("& &", "&&").replace("(& ", "(&").replace("(* ", "(*");
    out
}

pub fn type_text(t: &Type) -> String {
    tidy(&quote::quote!(#t).to_string())
}
