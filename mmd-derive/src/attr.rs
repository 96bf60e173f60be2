//! The `#[mmd(...)]` keyword table and the parsing of each attribute into typed values.
//!
//! Every keyword is listed once, in [`KEYWORDS`], with where it belongs; unknown or
//! misplaced keywords are reported with a suggestion, and parsing carries on so that all
//! mistakes are reported together.

use crate::ctxt::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, LitByteStr, LitStr, Path, Type};

/// Where an attribute is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Container,
    Variant,
    Field,
}

/// One keyword: its name, where it belongs, and how that is said in a message.
struct Keyword {
    name: &'static str,
    place: Place,
    belongs: &'static str,
}

#[rustfmt::skip]
const KEYWORDS: &[Keyword] = &[
    Keyword { name: "ctx", place: Place::Container, belongs: "on the struct or enum: `#[mmd(ctx = Context)]`" },
    Keyword { name: "magic", place: Place::Container, belongs: "on the struct or enum: `#[mmd(magic = b\"...\")]`" },
    Keyword { name: "tag", place: Place::Container, belongs: "on an enum (`#[mmd(tag = u8)]`) or on its variants (`#[mmd(tag = 0)]`)" },
    Keyword { name: "selected_by", place: Place::Container, belongs: "on an enum: `#[mmd(selected_by = bool)]`" },
    Keyword { name: "name", place: Place::Container, belongs: "on an enum: `#[mmd(name = \"shared-toon flag\")]`" },
    Keyword { name: "tag", place: Place::Variant, belongs: "on an enum (`#[mmd(tag = u8)]`) or on its variants (`#[mmd(tag = 0)]`)" },
    Keyword { name: "count", place: Place::Field, belongs: "on a Vec field: `#[mmd(count = i32)]`" },
    Keyword { name: "len", place: Place::Field, belongs: "on a Vec field: `#[mmd(len = expr)]`" },
    Keyword { name: "if", place: Place::Field, belongs: "on an Option field: `#[mmd(if = expr)]`" },
    Keyword { name: "unless_eof", place: Place::Field, belongs: "on an Option field: `#[mmd(unless_eof)]`" },
    Keyword { name: "rest", place: Place::Field, belongs: "on the last field, a Vec<u8>: `#[mmd(rest)]`" },
    Keyword { name: "select", place: Place::Field, belongs: "on a field whose enum is `selected_by`: `#[mmd(select = expr)]`" },
    Keyword { name: "switch_ctx", place: Place::Field, belongs: "on a field: `#[mmd(switch_ctx = expr)]`" },
];

/// A parsed value with the keyword token it came from (for spans).
pub struct Spanned<T> {
    pub keyword: Path,
    pub value: T,
}

impl<T> Spanned<T> {
    pub fn span(&self) -> Span {
        syn::spanned::Spanned::span(&self.keyword)
    }
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub ctx: Option<Spanned<Type>>,
    pub magic: Option<Spanned<LitByteStr>>,
    pub tag: Option<Spanned<Type>>,
    pub selected_by: Option<Spanned<Type>>,
    pub name: Option<Spanned<LitStr>>,
    /// An attribute here could not be parsed (unknown keyword, bad value): checks that
    /// would only repeat that mistake ("an enum needs a tag") stay quiet.
    pub poisoned: bool,
}

#[derive(Default)]
pub struct VariantAttrs {
    pub tag: Option<Spanned<Expr>>,
    /// See [`ContainerAttrs::poisoned`].
    pub poisoned: bool,
}

#[derive(Default)]
pub struct FieldAttrs {
    pub count: Option<Spanned<Type>>,
    pub len: Option<Spanned<Expr>>,
    pub cond: Option<Spanned<Expr>>,
    pub unless_eof: Option<Spanned<()>>,
    pub rest: Option<Spanned<()>>,
    pub select: Option<Spanned<Expr>>,
    pub switch_ctx: Option<Spanned<Expr>>,
    /// See [`ContainerAttrs::poisoned`]: a misspelt `count` must not also be reported as
    /// "a Vec field needs a count".
    pub poisoned: bool,
}

fn keyword_name(path: &Path) -> String {
    path.get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| quote::quote!(#path).to_string().replace(' ', ""))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The error for a keyword that is not valid at `place`.
fn unknown_keyword(cx: &Ctxt, path: &Path, place: Place) {
    let name = keyword_name(path);
    if let Some(k) = KEYWORDS.iter().find(|k| k.name == name) {
        let _ = k.place;
        cx.error_spanned_by(path, format!("`{name}` belongs {}", k.belongs));
        return;
    }
    let best = KEYWORDS
        .iter()
        .filter(|k| k.place == place)
        .map(|k| (edit_distance(&name, k.name), k.name))
        .min();
    match best {
        Some((d, suggestion)) if d <= 2 => cx.error_spanned_by(
            path,
            format!("unknown mmd attribute `{name}`; did you mean `{suggestion}`?"),
        ),
        _ => {
            let known: Vec<String> = KEYWORDS
                .iter()
                .filter(|k| k.place == place)
                .map(|k| format!("`{}`", k.name))
                .collect();
            cx.error_spanned_by(
                path,
                format!(
                    "unknown mmd attribute `{name}`; expected one of {}",
                    known.join(", ")
                ),
            )
        }
    }
}

/// Skips whatever follows an unknown keyword so parsing can go on.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.input.step(|c| match c.token_tree() {
            Some((_, rest)) => Ok(((), rest)),
            None => Ok(((), *c)),
        });
    }
    Ok(())
}

fn set<T>(cx: &Ctxt, slot: &mut Option<Spanned<T>>, keyword: &Path, value: T) {
    if slot.is_some() {
        cx.error_spanned_by(
            keyword,
            format!(
                "duplicate mmd attribute `{}`: each keyword is given once per item",
                keyword_name(keyword)
            ),
        );
    } else {
        *slot = Some(Spanned {
            keyword: keyword.clone(),
            value,
        });
    }
}

fn value<T: syn::parse::Parse>(cx: &Ctxt, meta: &ParseNestedMeta, example: &str) -> Option<T> {
    if !meta.input.peek(syn::Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{}` needs a value: `{example}`", keyword_name(&meta.path)),
        );
        let _ = skip_value(meta);
        return None;
    }
    match meta.value().and_then(|v| v.parse::<T>()) {
        Ok(v) => Some(v),
        Err(e) => {
            cx.syn_error(e);
            None
        }
    }
}

fn flag(cx: &Ctxt, meta: &ParseNestedMeta) -> bool {
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{}` takes no value", keyword_name(&meta.path)),
        );
        let _ = skip_value(meta);
        return false;
    }
    true
}

/// Calls `each` on every keyword in every `#[mmd(...)]` attribute.
fn for_each_keyword(cx: &Ctxt, attrs: &[Attribute], mut each: impl FnMut(&ParseNestedMeta)) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("mmd")) {
        if let syn::Meta::Path(p) = &attr.meta {
            cx.error_spanned_by(p, "expected `#[mmd(...)]` with at least one keyword");
            continue;
        }
        let r = attr.parse_nested_meta(|meta| {
            each(&meta);
            Ok(())
        });
        if let Err(e) = r {
            cx.syn_error(e);
        }
    }
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let before = cx.error_count();
    let mut out = ContainerAttrs::default();
    for_each_keyword(cx, attrs, |meta| {
        let p = &meta.path;
        let name = keyword_name(p);
        match name.as_str() {
            "ctx" => {
                if let Some(v) = value(cx, meta, "ctx = Context") {
                    set(cx, &mut out.ctx, p, v)
                }
            }
            "magic" => {
                if let Some(v) = value(cx, meta, "magic = b\"PMX \"") {
                    set(cx, &mut out.magic, p, v)
                }
            }
            "tag" => {
                if let Some(v) = value(cx, meta, "tag = u8") {
                    set(cx, &mut out.tag, p, v)
                }
            }
            "selected_by" => {
                if let Some(v) = value(cx, meta, "selected_by = bool") {
                    set(cx, &mut out.selected_by, p, v)
                }
            }
            "name" => {
                if let Some(v) = value(cx, meta, "name = \"weight type\"") {
                    set(cx, &mut out.name, p, v)
                }
            }
            _ => {
                unknown_keyword(cx, p, Place::Container);
                let _ = skip_value(meta);
            }
        }
    });
    out.poisoned = cx.error_count() > before;
    out
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let before = cx.error_count();
    let mut out = VariantAttrs::default();
    for_each_keyword(cx, attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("tag") {
            if let Some(v) = value(cx, meta, "tag = 0") {
                set(cx, &mut out.tag, p, v)
            }
        } else {
            unknown_keyword(cx, p, Place::Variant);
            let _ = skip_value(meta);
        }
    });
    out.poisoned = cx.error_count() > before;
    out
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let before = cx.error_count();
    let mut out = FieldAttrs::default();
    for_each_keyword(cx, attrs, |meta| {
        let p = &meta.path;
        let name = keyword_name(p);
        match name.as_str() {
            "count" => {
                if let Some(v) = value(cx, meta, "count = i32") {
                    set(cx, &mut out.count, p, v)
                }
            }
            "len" => {
                if let Some(v) = value(cx, meta, "len = expr") {
                    set(cx, &mut out.len, p, v)
                }
            }
            "if" => {
                if let Some(v) = value(cx, meta, "if = expr") {
                    set(cx, &mut out.cond, p, v)
                }
            }
            "select" => {
                if let Some(v) = value(cx, meta, "select = expr") {
                    set(cx, &mut out.select, p, v)
                }
            }
            "switch_ctx" => {
                if let Some(v) = value(cx, meta, "switch_ctx = expr") {
                    set(cx, &mut out.switch_ctx, p, v)
                }
            }
            "unless_eof" => {
                if flag(cx, meta) {
                    set(cx, &mut out.unless_eof, p, ())
                }
            }
            "rest" => {
                if flag(cx, meta) {
                    set(cx, &mut out.rest, p, ())
                }
            }
            _ => {
                unknown_keyword(cx, p, Place::Field);
                let _ = skip_value(meta);
            }
        }
    });
    out.poisoned = cx.error_count() > before;
    out
}

/// The `///` doc comment of an item, one line per `#[doc]`, with the leading space trimmed.
pub fn doc(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                let v = s.value();
                lines.push(v.strip_prefix(' ').unwrap_or(&v).to_string());
            }
        }
    }
    lines.join("\n").trim().to_string()
}
