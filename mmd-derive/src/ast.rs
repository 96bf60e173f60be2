//! The typed model of an annotated struct or enum. Each node keeps the `syn` node it came
//! from, so errors point at the exact token; codegen never re-reads raw attributes.

use crate::attr::{self, Attrs, Place};
use crate::ctxt::Ctxt;
use crate::paths::Paths;
use proc_macro2::Span;
use quote::format_ident;
use syn::{DeriveInput, Expr, Ident, Member, Type};

pub struct Container<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    pub doc: String,
    pub attrs: Attrs,
    /// Where the runtime crate is (`#[mmd(crate = ...)]`, else `::mmd_formats`).
    pub paths: Paths,
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

impl Fields<'_> {
    /// True for a lone tuple field (`V1(ShiftJis<10>)`): it is its variant's or struct's
    /// body, with no name of its own in paths, spans and the walk.
    pub fn is_lone(&self) -> bool {
        self.style == Style::Unnamed && self.fields.len() == 1
    }
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub doc: String,
    pub attrs: Attrs,
    pub fields: Fields<'a>,
    /// Filled by `check` (`None` for the default variant).
    pub tag: Option<TagValue>,
    /// `#[mmd(default)]`: the variant read for every tag no other variant lists; its
    /// first field holds the tag (filled by `check`).
    pub default: bool,
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
    pub attrs: Attrs,
    /// Filled by `check`.
    pub shape: Option<Shape>,
    /// The first field of a default variant: its value is the tag the enum read, written
    /// back as the variant's first bytes (filled by `check`).
    pub from_tag: bool,
}

/// When a field is present.
#[derive(Clone)]
pub enum Presence {
    Always,
    If(Expr),
    UnlessEof,
    IfUnlessEof(Expr),
}

impl Presence {
    /// The condition, when there is one.
    pub fn condition(&self) -> Option<&Expr> {
        match self {
            Presence::If(c) | Presence::IfUnlessEof(c) => Some(c),
            Presence::Always | Presence::UnlessEof => None,
        }
    }
}

/// How many values a field holds.
#[derive(Clone)]
pub enum Repeat {
    One,
    Count(Type),
    Len(Expr),
    /// Values up to the end of the input (or of the region a `size` bounds); bytes when
    /// the value type is `u8`.
    Rest,
    /// Values until the condition holds of the one just read, which is kept as the last.
    Until(Until),
}

/// `until = |e| cond`, checked: the name the condition gives the element just read.
#[derive(Clone)]
pub struct Until {
    pub element: Ident,
    pub cond: Expr,
}

impl Repeat {
    /// The length expression, when there is one.
    pub fn len_expr(&self) -> Option<&Expr> {
        match self {
            Repeat::Len(e) => Some(e),
            _ => None,
        }
    }

    /// The condition of `until`, which may read earlier fields too.
    pub fn until_cond(&self) -> Option<&Expr> {
        match self {
            Repeat::Until(u) => Some(&u.cond),
            _ => None,
        }
    }
}

/// A field's checked shape: presence, repetition and the type of one value.
#[derive(Clone)]
pub struct Shape {
    pub presence: Presence,
    pub repeat: Repeat,
    pub value_ty: Type,
    pub select: Option<Expr>,
    pub switch_ctx: Option<Expr>,
    /// `size = expr`: each value is read from exactly that many bytes.
    pub size: Option<Expr>,
    /// `pos = expr` (with `size`): the values are read at that offset from the record's
    /// first byte (or from the start of the field `pos_base` names), after the sequential
    /// fields.
    pub pos: Option<Position>,
    /// `gaps`: the field holds the bytes no other field holds, after the sequential ones.
    pub gaps: bool,
    /// A switch to a declared context (`#[mmd(context = Ctx(args))]`).
    pub context: Option<ContextCall>,
    /// `with_parent`: each value is read and written with this record's earlier fields
    /// in view (its type names this record as its `parent`).
    pub with_parent: bool,
    /// The byte order of the field's numbers (its own `endian`, or its struct's for a
    /// field of numbers); little-endian, the default, for every other field.
    pub endian: Endian,
}

/// A byte order, checked (`#[mmd(endian = ...)]`).
#[derive(Clone)]
pub enum Endian {
    Little,
    Big,
    /// Big-endian when the condition holds, else little-endian.
    BigIf(Box<Expr>),
}

impl Endian {
    pub fn is_little(&self) -> bool {
        matches!(self, Endian::Little)
    }

    /// The condition, when the order is chosen by one.
    pub fn condition(&self) -> Option<&Expr> {
        match self {
            Endian::BigIf(c) => Some(c),
            _ => None,
        }
    }
}

/// `pos = expr` and `pos_base = field`, checked.
#[derive(Clone)]
pub struct Position {
    pub at: Expr,
    /// The field (its index and name) whose start the position is relative to.
    pub base: Option<(usize, String)>,
}

impl Shape {
    /// True for a field read in sequence (not positioned, not the gaps).
    pub fn sequential(&self) -> bool {
        self.pos.is_none() && !self.gaps
    }
}

/// `#[mmd(context = Ctx(arg, ...))]`, checked.
#[derive(Clone)]
pub struct ContextCall {
    /// The context type (`PmxContext`).
    pub ty: syn::Path,
    /// One expression per parameter, over the fields read so far.
    pub args: Vec<Expr>,
    /// For each argument: the field of the record it reads (its index in the fields) and
    /// the place below that field (`header.signature` is field `header`, then
    /// `signature`); `None` when it reads no field.
    pub roots: Vec<Option<(usize, Vec<Seg>)>>,
    /// The text as written, for the reference: `PmxContext(header)`.
    pub text: String,
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
        if id == "bool" {
            return Some(TagKind::Bool);
        }
        // `u8` .. `i32`: the sign from the first letter, the width from the rest.
        let (sign, bits) = id.split_at(1);
        let signed = match sign {
            "u" => false,
            "i" => true,
            _ => return None,
        };
        match bits.parse() {
            Ok(bits @ (8 | 16 | 32)) => Some(TagKind::Int { signed, bits }),
            _ => None,
        }
    }

    pub fn fits(self, v: i128) -> bool {
        match self {
            TagKind::Bool => false,
            TagKind::Int {
                signed: false,
                bits,
            } => v >= 0 && v < (1i128 << bits),
            TagKind::Int { signed: true, bits } => {
                v >= -(1i128 << (bits - 1)) && v < (1i128 << (bits - 1))
            }
        }
    }

    /// The values the kind holds, for messages (`0 to 255`).
    pub fn range_text(self) -> String {
        match self {
            TagKind::Bool => "`true` or `false`".to_string(),
            TagKind::Int {
                signed: false,
                bits,
            } => format!("0 to {}", (1i128 << bits) - 1),
            TagKind::Int { signed: true, bits } => format!(
                "{} to {}",
                -(1i128 << (bits - 1)),
                (1i128 << (bits - 1)) - 1
            ),
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
    /// `tag_form = fourcc`: the tag is four bytes of text read as a `u32`; messages and
    /// the reference show it as text (`"fmt "`).
    pub fourcc: bool,
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

    /// The value as messages show it: its number, or for a FourCC tag its text
    /// (`"fmt "`, the way `mmd_formats::layout::fourcc_text` shows it).
    pub fn shown(&self, fourcc: bool) -> String {
        match self {
            TagValue::Int(i) if fourcc => match u32::try_from(*i) {
                Ok(v) => fourcc_text(v),
                Err(_) => i.to_string(),
            },
            _ => self.display(),
        }
    }
}

/// A FourCC's text: its four bytes in file order (little-endian), in double quotes, with
/// `"` and `\` escaped and any byte outside printable ASCII as `\xNN`. The same rule as
/// `mmd_formats::layout::fourcc_text` (the messages the derive writes at compile time
/// must match those the runtime writes).
pub fn fourcc_text(v: u32) -> String {
    let mut s = String::from("\"");
    for b in v.to_le_bytes() {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    s
}

impl Container<'_> {
    /// The statement that reads (`expect_magic`) or writes (`write_magic`) the type's
    /// signature, if it has one, on the input or output named `io`.
    pub fn magic_stmt(&self, rt_fn: &str, io: &str) -> Option<proc_macro2::TokenStream> {
        let m = self.attrs.byte_str("magic")?.value;
        let rt = &self.paths.rt;
        let f = quote::format_ident!("{rt_fn}");
        let io = quote::format_ident!("{io}");
        Some(quote::quote! { #rt::#f(#io, #m)?; })
    }
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let place = match &input.data {
            syn::Data::Enum(_) => Place::Enum,
            _ => Place::Struct,
        };
        let attrs = attr::parse(cx, &input.attrs, place);
        let data = match &input.data {
            syn::Data::Struct(s) => Data::Struct(Fields::from_ast(cx, &s.fields)),
            syn::Data::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| Variant {
                        ident: &v.ident,
                        doc: attr::doc(&v.attrs),
                        attrs: attr::parse(cx, &v.attrs, Place::Variant),
                        fields: Fields::from_ast(cx, &v.fields),
                        tag: None,
                        default: false,
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
        let paths = Paths::new(attrs.ty("crate").map(|c| c.value.clone()));
        Some(Container {
            original: input,
            ident: &input.ident,
            doc: attr::doc(&input.attrs),
            attrs,
            paths,
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
                    attrs: attr::parse(cx, &f.attrs, Place::Field),
                    shape: None,
                    from_tag: false,
                }
            })
            .collect();
        Fields { style, fields }
    }
}

pub use crate::check::is_numeric;

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

/// The token text of an expression, as a person would write it, for messages and the
/// reference: `*flags & 1 != 0`, `ctx.is_v21()`, `*version >= 2`.
pub fn expr_text(e: &Expr) -> String {
    token_text(quote::quote!(#e), false)
}

/// The token text of a type: `Vec<[f32; 4]>`, `Option<Vec<u8>>`.
pub fn type_text(t: &Type) -> String {
    token_text(quote::quote!(#t), true)
}

/// One printable unit: a word (identifier, literal, lifetime), an operator (joint
/// punctuation glued together: `!=`, `::`, `>>`), or a delimiter.
enum Atom {
    Word(String),
    Op(String),
    Open(char),
    Close(char),
}

fn atoms(ts: proc_macro2::TokenStream, out: &mut Vec<Atom>) {
    use proc_macro2::{Delimiter, Spacing, TokenTree};
    let mut pending = String::new();
    for tt in ts {
        if let TokenTree::Punct(p) = &tt {
            pending.push(p.as_char());
            if p.spacing() == Spacing::Alone {
                out.push(Atom::Op(std::mem::take(&mut pending)));
            }
            continue;
        }
        if pending == "'" {
            // A lifetime: `'` joined to the identifier that follows.
            pending.clear();
            out.push(Atom::Word(format!("'{tt}")));
            continue;
        }
        if !pending.is_empty() {
            out.push(Atom::Op(std::mem::take(&mut pending)));
        }
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => (Some('('), Some(')')),
                    Delimiter::Bracket => (Some('['), Some(']')),
                    Delimiter::Brace => (Some('{'), Some('}')),
                    Delimiter::None => (None, None),
                };
                if let Some(o) = open {
                    out.push(Atom::Open(o));
                }
                atoms(g.stream(), out);
                if let Some(c) = close {
                    out.push(Atom::Close(c));
                }
            }
            other => out.push(Atom::Word(other.to_string())),
        }
    }
    if !pending.is_empty() {
        out.push(Atom::Op(pending));
    }
}

/// Prints tokens with conventional spacing: binary operators spaced, unary ones and
/// `.`/`::` tight, calls and indexing tight. With `angles` (types), `<` and `>` are
/// brackets; in expressions they are comparisons, except in a turbofish (`::<`).
fn token_text(ts: proc_macro2::TokenStream, angles: bool) -> String {
    let mut list = Vec::new();
    atoms(ts, &mut list);
    let mut out = String::new();
    let mut prev: Option<&Atom> = None;
    let mut prev_unary = false;
    let mut prev_close_angle = false;
    // Angle brackets currently open as brackets (in types, or after `::` in expressions).
    let mut depth = 0usize;
    for atom in &list {
        let mut bracket_angle = false;
        if let Atom::Op(o) = atom {
            let after_path = matches!(prev, Some(Atom::Op(p)) if p == "::");
            if o == "<" && (angles || after_path) {
                depth += 1;
                bracket_angle = true;
            } else if depth > 0 && !o.is_empty() && o.chars().all(|c| c == '>') {
                depth = depth.saturating_sub(o.len());
                bracket_angle = true;
            }
        }
        let prev_bracket = match prev {
            Some(Atom::Op(p)) => p == "<" && depth > 0,
            _ => false,
        };
        let space = match (prev, atom) {
            (None, _) | (Some(Atom::Open(_)), _) | (_, Atom::Close(_)) => false,
            (_, Atom::Op(o)) if matches!(o.as_str(), "," | ";" | "." | "::" | "?") => false,
            (Some(Atom::Op(p)), _) if p == "." || p == "::" => false,
            (Some(Atom::Op(_)), _) if prev_unary || prev_bracket => false,
            (_, Atom::Op(_)) if bracket_angle => false,
            (Some(Atom::Word(_) | Atom::Close(_)), Atom::Open('(' | '[')) => false,
            (Some(Atom::Op(_)), Atom::Open('(')) if prev_close_angle => false,
            _ => true,
        };
        if space {
            out.push(' ');
        }
        prev_unary = match atom {
            Atom::Op(o) => {
                matches!(o.as_str(), "*" | "&" | "&&" | "!" | "-")
                    && matches!(prev, None | Some(Atom::Open(_)) | Some(Atom::Op(_)))
                    && !matches!(prev, Some(Atom::Op(p)) if p.chars().all(|c| c == '>') && depth > 0)
            }
            _ => false,
        };
        prev_close_angle = bracket_angle && matches!(atom, Atom::Op(o) if o.starts_with('>'));
        match atom {
            Atom::Word(w) | Atom::Op(w) => out.push_str(w),
            Atom::Open(c) | Atom::Close(c) => out.push(*c),
        }
        prev = Some(atom);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{expr_text, type_text};

    fn e(s: &str) -> String {
        expr_text(&syn::parse_str(s).unwrap())
    }

    #[test]
    fn expressions_read_as_written() {
        for s in [
            "*flags & 1 != 0",
            "*version >= 2",
            "*a < 3 && *b > 4",
            "*n >> 4",
            "ctx.is_v21()",
            "ctx.additional_uv",
            "flags.contains(BoneFlags::TAIL_IS_BONE)",
            "flags.intersects(BoneFlags::INHERIT_ROTATION | BoneFlags::INHERIT_TRANSLATION)",
            "*has_limit != 0",
            "PmdCounts::of(bones, morphs, frame_names)",
            "header.context()",
            "-1",
            "*n - 1",
            "!ctx.is_v21() && *a == -2",
            "x::<u8>(*a, [1, 2][0])",
            "(*a as usize) * 2",
        ] {
            assert_eq!(e(s), s);
        }
    }

    #[test]
    fn tag_ranges() {
        use super::TagKind;
        let u8k = TagKind::Int {
            signed: false,
            bits: 8,
        };
        let i8k = TagKind::Int {
            signed: true,
            bits: 8,
        };
        assert_eq!(u8k.range_text(), "0 to 255");
        assert_eq!(i8k.range_text(), "-128 to 127");
        assert!(u8k.fits(255) && !u8k.fits(256) && !u8k.fits(-1));
        assert!(i8k.fits(-128) && i8k.fits(127) && !i8k.fits(128) && !i8k.fits(-129));
    }

    #[test]
    fn types_close_their_angles() {
        let t: syn::Type = syn::parse_str("Vec < [f32; 4] >").unwrap();
        assert_eq!(type_text(&t), "Vec<[f32; 4]>");
        for s in [
            "Option<Vec<u8>>",
            "[BoneIndex; 2]",
            "::core::option::Option<&'static str>",
            "mmd_formats::ShiftJis<20>",
            "(u8, Vec<i16>)",
        ] {
            let t: syn::Type = syn::parse_str(s).unwrap();
            assert_eq!(type_text(&t), s);
        }
    }
}

/// One step of the place an expression reads: a field or a fixed element.
#[derive(Clone, Debug)]
pub enum Seg {
    Field(String),
    Index(usize),
}
