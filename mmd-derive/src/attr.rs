//! The `#[mmd(...)]` keyword table and the parsing of attributes into typed values.
//!
//! Every keyword has one entry in [`KEYWORDS`]: its name, the places it may be written,
//! how its value is written (which also decides how it is parsed) and an example. Parsing,
//! the placement check and every message about a keyword come from that entry, so a new
//! keyword is one entry here plus its code generation. Unknown or misplaced keywords are
//! reported with a suggestion, and parsing carries on so that all mistakes are reported
//! together.

use crate::ctxt::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprArray, Ident, LitByteStr, LitStr, Path, Token, Type};

/// Where an attribute is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// On a `#[derive(Mmd)]` struct.
    Struct,
    /// On a `#[derive(Mmd)]` enum.
    Enum,
    /// On a variant of a `#[derive(Mmd)]` enum.
    Variant,
    /// On a field of a `#[derive(Mmd)]` struct or variant.
    Field,
    /// On a `#[derive(MmdContext)]` struct.
    Context,
    /// On a member (field) of a `#[derive(MmdContext)]` struct.
    Member,
}

impl Place {
    /// How a message names the place.
    fn text(self) -> &'static str {
        match self {
            Place::Struct => "a struct",
            Place::Enum => "an enum",
            Place::Variant => "an enum variant",
            Place::Field => "a field",
            Place::Context => "a context struct",
            Place::Member => "a context member",
        }
    }
}

/// How a keyword's value is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `key = Type`
    Type,
    /// `key = expr`
    Expr,
    /// `key = b"..."`
    ByteStr,
    /// `key = "..."`
    Str,
    /// `key` alone
    Flag,
    /// `key = [a, b, ...]`
    List,
    /// `key(name: Type, ...)`
    Params,
    /// `key(name = "...", ...)`
    Strings,
}

/// One keyword at the places where it has one meaning.
pub struct Keyword {
    pub name: &'static str,
    places: &'static [Place],
    form: Form,
    /// The keyword written out, as messages show it.
    example: &'static str,
    /// Where it belongs, as a message says it ("on a Vec field").
    belongs: &'static str,
}

use Place::*;

#[rustfmt::skip]
pub const KEYWORDS: &[Keyword] = &[
    Keyword { name: "ctx", places: &[Struct, Enum], form: Form::Type, example: "ctx = Context", belongs: "on the struct or enum" },
    Keyword { name: "magic", places: &[Struct, Enum], form: Form::ByteStr, example: "magic = b\"...\"", belongs: "on the struct or enum" },
    Keyword { name: "crate", places: &[Struct, Enum, Context], form: Form::Type, example: "crate = ::mmd_formats", belongs: "on the struct or enum" },
    Keyword { name: "endian", places: &[Struct, Field], form: Form::Expr, example: "endian = big", belongs: "on a struct (its number fields) or on a field that is a number, an array of numbers or a Vec of them (`#[mmd(endian = big)]`, `little`, or `if cond { big } else { little }`)" },
    Keyword { name: "parent", places: &[Struct], form: Form::Type, example: "parent = Section", belongs: "on a struct read inside another record, naming that record's type (its fields are then `parent.field` in expressions)" },
    Keyword { name: "file", places: &[Struct], form: Form::Strings, example: "file(id = \"pmx\", title = \"PMX 2.0\", application = \"PMX Editor\")", belongs: "on the root struct of a file format" },
    Keyword { name: "tag", places: &[Enum], form: Form::Type, example: "tag = u8", belongs: "on an enum (`#[mmd(tag = u8)]`) or on its variants (`#[mmd(tag = 0)]`)" },
    Keyword { name: "tag_form", places: &[Enum], form: Form::Expr, example: "tag_form = fourcc", belongs: "on an enum with `tag = u32` (`#[mmd(tag = u32, tag_form = fourcc)]`: the tags are four ASCII bytes, shown as text)" },
    Keyword { name: "selected_by", places: &[Enum], form: Form::Type, example: "selected_by = bool", belongs: "on an enum" },
    Keyword { name: "name", places: &[Enum], form: Form::Str, example: "name = \"shared-toon flag\"", belongs: "on an enum (`#[mmd(name = \"weight type\")]`) or on a context member (`#[mmd(name = \"bone index width\")]`)" },
    Keyword { name: "default", places: &[Variant], form: Form::Flag, example: "default", belongs: "on the variant of a `tag` enum that keeps every tag no other variant lists" },
    Keyword { name: "tag", places: &[Variant], form: Form::Expr, example: "tag = 0", belongs: "on an enum (`#[mmd(tag = u8)]`) or on its variants (`#[mmd(tag = 0)]`)" },
    Keyword { name: "count", places: &[Field], form: Form::Type, example: "count = i32", belongs: "on a Vec field" },
    Keyword { name: "len", places: &[Field], form: Form::Expr, example: "len = expr", belongs: "on a Vec field" },
    Keyword { name: "item", places: &[Field], form: Form::Type, example: "item = T", belongs: "on a field with `count` or `len` whose container is not a Vec" },
    Keyword { name: "if", places: &[Field], form: Form::Expr, example: "if = expr", belongs: "on an Option field" },
    Keyword { name: "unless_eof", places: &[Field], form: Form::Flag, example: "unless_eof", belongs: "on an Option field" },
    Keyword { name: "rest", places: &[Field], form: Form::Flag, example: "rest", belongs: "on the last field, a Vec" },
    Keyword { name: "until", places: &[Field], form: Form::Expr, example: "until = |e| expr", belongs: "on a Vec field" },
    Keyword { name: "size", places: &[Field], form: Form::Expr, example: "size = expr", belongs: "on a field" },
    Keyword { name: "pos", places: &[Field], form: Form::Expr, example: "pos = expr", belongs: "on a field of a struct, with `size`" },
    Keyword { name: "pos_base", places: &[Field], form: Form::Expr, example: "pos_base = field", belongs: "on a field with `pos`" },
    Keyword { name: "gaps", places: &[Field], form: Form::Flag, example: "gaps", belongs: "on the last field of a struct with positioned fields, a Vec<Vec<u8>>" },
    Keyword { name: "with_parent", places: &[Field], form: Form::Flag, example: "with_parent", belongs: "on a struct field whose values' type names this record as its `parent`" },
    Keyword { name: "select", places: &[Field], form: Form::Expr, example: "select = expr", belongs: "on a field whose enum is `selected_by`" },
    Keyword { name: "switch_ctx", places: &[Field], form: Form::Expr, example: "switch_ctx = expr", belongs: "on a field" },
    Keyword { name: "context", places: &[Field], form: Form::Expr, example: "context = Context(field, ...)", belongs: "on a field, naming a `#[derive(MmdContext)]` type and its arguments" },
    Keyword { name: "from", places: &[Context], form: Form::Params, example: "from(header: Header)", belongs: "on a `#[derive(MmdContext)]` struct (`#[mmd(from(header: Header))]`) or on its members (`#[mmd(from = header.version)]`)" },
    Keyword { name: "from", places: &[Member], form: Form::Expr, example: "from = expr", belongs: "on a `#[derive(MmdContext)]` struct (`#[mmd(from(header: Header))]`) or on its members (`#[mmd(from = header.version)]`)" },
    Keyword { name: "valid", places: &[Member], form: Form::List, example: "valid = [1, 2, 4]", belongs: "on a context member" },
    Keyword { name: "name", places: &[Member], form: Form::Str, example: "name = \"bone index width\"", belongs: "on an enum (`#[mmd(name = \"weight type\")]`) or on a context member (`#[mmd(name = \"bone index width\")]`)" },
    Keyword { name: "expected", places: &[Member], form: Form::Str, example: "expected = \"a signature starting with ...\"", belongs: "on a context member with `valid`" },
    Keyword { name: "text_encoding", places: &[Member], form: Form::Flag, example: "text_encoding", belongs: "on a context member" },
    Keyword { name: "index_width", places: &[Member], form: Form::Type, example: "index_width = BoneIndex", belongs: "on a context member" },
];

/// A parsed value.
pub enum Value {
    Type(Type),
    Expr(Expr),
    ByteStr(LitByteStr),
    Str(LitStr),
    Flag,
    List(ExprArray),
    Params(Vec<(Ident, Type)>),
    Strings(Vec<(Ident, LitStr)>),
}

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

/// The attributes of one item, by keyword.
#[derive(Default)]
pub struct Attrs {
    entries: Vec<(&'static str, Spanned<Value>)>,
    /// An attribute here could not be parsed (unknown keyword, bad value): checks that
    /// would only repeat that mistake ("an enum needs a tag", "a Vec field needs a
    /// count") stay quiet.
    pub poisoned: bool,
}

/// One typed getter per value form.
macro_rules! getters {
    ($($name:ident -> $variant:ident($t:ty);)*) => {
        impl Attrs {
            $(
                pub fn $name(&self, name: &str) -> Option<Spanned<&$t>> {
                    self.typed(name, |v| match v {
                        Value::$variant(x) => Some(x),
                        _ => None,
                    })
                }
            )*
        }
    };
}

getters! {
    ty -> Type(Type);
    expr -> Expr(Expr);
    byte_str -> ByteStr(LitByteStr);
    str -> Str(LitStr);
    list -> List(ExprArray);
    params -> Params(Vec<(Ident, Type)>);
    strings -> Strings(Vec<(Ident, LitStr)>);
}

/// Typed access to the values; each getter names the form its keyword has in the table.
impl Attrs {
    fn get(&self, name: &str) -> Option<&Spanned<Value>> {
        debug_assert!(KEYWORDS.iter().any(|k| k.name == name), "{name}");
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    fn typed<'a, T>(
        &'a self,
        name: &str,
        pick: impl Fn(&'a Value) -> Option<&'a T>,
    ) -> Option<Spanned<&'a T>> {
        let v = self.get(name)?;
        Some(Spanned {
            keyword: v.keyword.clone(),
            value: pick(&v.value)?,
        })
    }

    /// The span of a flag keyword, when it is given.
    pub fn flag(&self, name: &str) -> Option<Span> {
        self.get(name).map(|v| v.span())
    }

    /// True when the keyword is given.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The span of the keyword, when it is given.
    pub fn span_of(&self, name: &str) -> Option<Span> {
        self.get(name).map(Spanned::span)
    }
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

/// The error for a keyword that has no entry for `place`.
fn not_here(cx: &Ctxt, path: &Path, place: Place) {
    let name = keyword_name(path);
    if let Some(k) = KEYWORDS.iter().find(|k| k.name == name) {
        let msg = if k.belongs.contains('`') {
            format!("`{name}` belongs {}", k.belongs)
        } else {
            format!("`{name}` belongs {}: `#[mmd({})]`", k.belongs, k.example)
        };
        let msg = match place {
            // Put plainly what the item is not.
            Struct if k.places == [Enum] => format!("`{name}` belongs on an enum, not on a struct"),
            // A format keyword on a declared context: say which derive it belongs to.
            Context | Member
                if !KEYWORDS.iter().any(|e| {
                    e.name == name && e.places.iter().any(|p| matches!(p, Context | Member))
                }) =>
            {
                format!(
                    "`{name}` is a keyword of `#[derive(Mmd)]` types, not of {}: it belongs {}",
                    place.text(),
                    k.belongs
                )
            }
            _ => msg,
        };
        cx.error_spanned_by(path, msg);
        return;
    }
    let here: Vec<&str> = KEYWORDS
        .iter()
        .filter(|k| k.places.contains(&place))
        .map(|k| k.name)
        .collect();
    let best = here.iter().map(|k| (edit_distance(&name, k), *k)).min();
    match best {
        Some((d, suggestion)) if d <= 2 => cx.error_spanned_by(
            path,
            format!("unknown mmd attribute `{name}`; did you mean `{suggestion}`?"),
        ),
        _ => {
            let known: Vec<String> = here.iter().map(|k| format!("`{k}`")).collect();
            cx.error_spanned_by(
                path,
                format!(
                    "unknown mmd attribute `{name}` on {}; expected one of {}",
                    place.text(),
                    known.join(", ")
                ),
            )
        }
    }
}

/// Skips whatever follows a keyword that could not be used, so parsing can go on.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.input.step(|c| match c.token_tree() {
            Some((_, rest)) => Ok(((), rest)),
            None => Ok(((), *c)),
        });
    }
    Ok(())
}

/// `(name: T, ...)` (with `colon`) or `(name = T, ...)`.
fn pairs<T: syn::parse::Parse>(
    meta: &ParseNestedMeta,
    colon: bool,
) -> syn::Result<Vec<(Ident, T)>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let mut items = Vec::new();
    while !content.is_empty() {
        let name: Ident = content.parse()?;
        if colon {
            let _: Token![:] = content.parse()?;
        } else {
            let _: Token![=] = content.parse()?;
        }
        items.push((name, content.parse()?));
        if content.is_empty() {
            break;
        }
        let _: Token![,] = content.parse()?;
    }
    Ok(items)
}

/// Parses the value of `k` as its form says.
fn parse_value(cx: &Ctxt, meta: &ParseNestedMeta, k: &Keyword) -> Option<Value> {
    let has_eq = meta.input.peek(Token![=]);
    let has_paren = meta.input.peek(syn::token::Paren);
    let needs_eq = !matches!(k.form, Form::Flag | Form::Params | Form::Strings);
    if k.form == Form::Flag {
        if has_eq || has_paren {
            cx.error_spanned_by(&meta.path, format!("`{}` takes no value", k.name));
            let _ = skip_value(meta);
            return None;
        }
        return Some(Value::Flag);
    }
    if needs_eq != has_eq || (!needs_eq && !has_paren) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{}` needs a value: `{}`", k.name, k.example),
        );
        let _ = skip_value(meta);
        return None;
    }
    let parsed = match k.form {
        Form::Type => meta.value().and_then(|v| v.parse()).map(Value::Type),
        Form::Expr => meta.value().and_then(|v| v.parse()).map(Value::Expr),
        Form::ByteStr => meta.value().and_then(|v| v.parse()).map(Value::ByteStr),
        Form::Str => meta.value().and_then(|v| v.parse()).map(Value::Str),
        Form::List => meta.value().and_then(|v| v.parse()).map(Value::List),
        Form::Params => pairs::<Type>(meta, true).map(Value::Params),
        Form::Strings => pairs::<LitStr>(meta, false).map(Value::Strings),
        Form::Flag => unreachable!("handled above"),
    };
    match parsed {
        Ok(v) => Some(v),
        Err(e) => {
            cx.syn_error(e);
            None
        }
    }
}

/// Parses every `#[mmd(...)]` attribute of an item at `place`.
pub fn parse(cx: &Ctxt, attrs: &[Attribute], place: Place) -> Attrs {
    let before = cx.error_count();
    let mut out = Attrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("mmd")) {
        if let syn::Meta::Path(p) = &attr.meta {
            cx.error_spanned_by(p, "expected `#[mmd(...)]` with at least one keyword");
            continue;
        }
        let r = attr.parse_nested_meta(|meta| {
            let name = keyword_name(&meta.path);
            let Some(k) = KEYWORDS
                .iter()
                .find(|k| k.name == name && k.places.contains(&place))
            else {
                not_here(cx, &meta.path, place);
                return skip_value(&meta);
            };
            let Some(value) = parse_value(cx, &meta, k) else {
                return Ok(());
            };
            if out.entries.iter().any(|(n, _)| *n == k.name) {
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "duplicate mmd attribute `{}`: each keyword is given once per item",
                        k.name
                    ),
                );
            } else {
                out.entries.push((
                    k.name,
                    Spanned {
                        keyword: meta.path.clone(),
                        value,
                    },
                ));
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.syn_error(e);
        }
    }
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
