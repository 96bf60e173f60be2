//! Renders the layout descriptors as Kaitai Struct (`.ksy`) grammars.
//!
//! Everything comes from the descriptors; nothing here knows a format. Every format type
//! becomes a Kaitai type named in snake case (`IkLink` → `ik_link`):
//!
//! * a struct: its fields in file order; a counted field is a `num_<field>` count followed
//!   by the field with `repeat: expr`; a condition becomes `if:`, translated from the
//!   descriptor's expression tree by [`crate::expr`]; a field that is absent when the file ends
//!   gets `if: not _io.eof` (a counted one is wrapped in a `<field>_block` type holding its
//!   count and items, so "absent" and "count 0" stay apart); `rest` is `size-eos: true`;
//! * a tagged enum: the tag (with a Kaitai enum of the variant names and `valid: in-enum`)
//!   then one field per variant, `if:` the tag names it; an enum whose tag the enclosing
//!   record computes takes it as a parameter (`bone_tail(flags.tail_is_bone)`);
//! * a flag type: the raw integer `bits` and one boolean instance per named bit;
//! * a leaf type, by what it says it is ([`LeafKind`]):
//!   length-prefixed text (a type with the length and the text, its encoding switched on
//!   the context member that declares it), fixed-length text (`str` with `size`,
//!   `terminator` and `encoding`), an index (a switch on the context member that declares
//!   its width, one case per width that member accepts) or raw bytes;
//! * a switch to a declared context (`#[mmd(context = Ctx(args))]`): one instance per
//!   member of the context on the type that holds the switching field, its value the
//!   member's expression with the arguments put in for the parameters; the values a
//!   member accepts become a `valid` check on the switching field.
//!
//! An expression, context switch or type the renderer cannot express is an error naming
//! it, never a field left out.

mod context;
mod tree;
mod value;

pub use tree::expected_tree;

use crate::expr::{self, bit_id, Env};
use crate::yaml::{doc_entry, write_map, Y};
use crate::Spec;
use context::Scope;
use mmd_formats::layout::{
    Body, Expression, FieldLayout, LeafKind, Placement, Presence, Prim, Repeat, Shape, TagSource,
    TypeLayout, VariantLayout,
};
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// Why a grammar could not be rendered: every problem found, one per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KsyError {
    /// One message per untranslatable expression, unknown type or context.
    pub problems: Vec<String>,
}

impl fmt::Display for KsyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "the Kaitai renderer cannot express {} part(s) of the descriptors:",
            self.problems.len()
        )?;
        for p in &self.problems {
            writeln!(f, "  - {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for KsyError {}

/// Snake case of a Rust type or variant name (`AdditionalUv1` → `additional_uv1`).
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// A Kaitai id from a descriptive name (`shared-toon flag` → `shared_toon_flag`).
pub fn ident(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// The Kaitai type of a number (`u1`, `s4`, `f8`); `bool` for a selector.
pub fn prim(p: Prim) -> &'static str {
    match p {
        Prim::U8 => "u1",
        Prim::I8 => "s1",
        Prim::U16 => "u2",
        Prim::I16 => "s2",
        Prim::U32 => "u4",
        Prim::I32 => "s4",
        Prim::U64 => "u8",
        Prim::I64 => "s8",
        Prim::F32 => "f4",
        Prim::F64 => "f8",
        Prim::Bool => "bool",
    }
}

pub(crate) fn entries(v: Vec<(&str, Y)>) -> Vec<(String, Y)> {
    v.into_iter().map(|(k, t)| (k.to_string(), t)).collect()
}

struct Renderer {
    format: String,
    root_id: String,
    all: HashMap<&'static str, &'static TypeLayout>,
    /// Type ids in the order they were first needed, with their body once rendered.
    order: Vec<String>,
    bodies: HashMap<String, Y>,
    /// Which layout and scope each type id was claimed for.
    claims: HashMap<String, String>,
    queue: VecDeque<(&'static TypeLayout, Scope)>,
    problems: Vec<String>,
    /// The root's gaps field (`#[mmd(gaps)]`), if it has one: `-mmd-gaps` names it.
    gaps: Option<String>,
    /// The byte order of the numbers of the field being rendered.
    byte_order: value::ByteOrder,
    /// The type whose body is being rendered (its `parent` is Kaitai's `_parent`).
    current: Option<&'static TypeLayout>,
}

/// Where a field is rendered: the fields before it, the context, and the Kaitai type.
#[derive(Clone, Copy)]
struct Place<'a> {
    earlier: &'static [FieldLayout],
    scope: &'a Scope,
    here: &'a str,
}

/// The environment of a positioned value's position and size: `inner`'s, the record's
/// fields written with `prefix` (`_parent.` inside the helper type of a list) and the
/// element's index as `index`.
struct Prefixed<'a> {
    inner: &'a dyn Env,
    prefix: &'a str,
    index: Option<String>,
}

impl Env for Prefixed<'_> {
    fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
        self.inner
            .field(name)
            .map(|(t, f)| (format!("{}{t}", self.prefix), f))
    }
    fn ctx_member(&self, path: &str) -> Option<String> {
        // A member of the record's own context is an instance of the record: from the
        // helper type of a list, its parent's (one of the root's is reached as it is).
        self.inner
            .ctx_member(path)
            .map(|t| match t.starts_with("_root.") {
                true => t,
                false => format!("{}{t}", self.prefix),
            })
    }
    fn ctx_unreachable(&self, path: &str) -> Option<String> {
        self.inner.ctx_unreachable(path)
    }
    fn flags_type(&self, name: &str) -> Option<&'static TypeLayout> {
        self.inner.flags_type(name)
    }
    fn name_ty(&self, name: &str) -> Option<expr::Ty> {
        self.inner.name_ty(name)
    }
    fn ctx_ty(&self, name: &str) -> Option<expr::Ty> {
        self.inner.ctx_ty(name)
    }
    fn item_index(&self) -> Option<String> {
        self.index.clone()
    }
    fn parent(&self, levels: u32) -> Option<&'static TypeLayout> {
        self.inner.parent(levels)
    }
    fn condition(&self, name: &str) -> Option<&'static mmd_formats::layout::Expr> {
        self.inner.condition(name)
    }
}

/// Expression environment for one field of a record.
struct FieldEnv<'a> {
    r: &'a Renderer,
    earlier: &'a [FieldLayout],
    scope: &'a Scope,
    here: &'a str,
    /// A field that is written differently (`_`, the value a `valid` check tests).
    alias: Option<(&'a str, &'a str)>,
}

impl Env for FieldEnv<'_> {
    fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
        let f = self.earlier.iter().find(|f| f.name == name)?;
        let flags = (f.layout)().filter(|l| matches!(l.body, Body::Flags { .. }));
        let text = match self.alias {
            Some((from, to)) if from == name => to.to_string(),
            _ => name.to_string(),
        };
        Some((text, flags))
    }

    fn ctx_member(&self, path: &str) -> Option<String> {
        let (id, _) = self.scope.member(path)?;
        self.r.ctx_ref(self.scope.owner()?, self.here, &id).ok()
    }

    fn ctx_unreachable(&self, path: &str) -> Option<String> {
        let (id, _) = self.scope.member(path)?;
        self.r.ctx_ref(self.scope.owner()?, self.here, &id).err()
    }

    fn name_ty(&self, name: &str) -> Option<expr::Ty> {
        let f = self.earlier.iter().find(|f| f.name == name)?;
        Some(expr::Ty::of_field(f))
    }

    fn ctx_ty(&self, name: &str) -> Option<expr::Ty> {
        let (_, m) = self.scope.member(name)?;
        expr::Ty::of_name(m.ty)
    }

    fn condition(&self, name: &str) -> Option<&'static mmd_formats::layout::Expr> {
        let f = self.earlier.iter().find(|f| f.name == name)?;
        match &f.presence {
            mmd_formats::layout::Presence::If(e) => Some(e.tree),
            _ => None,
        }
    }

    fn flags_type(&self, name: &str) -> Option<&'static TypeLayout> {
        self.r
            .all
            .get(name)
            .copied()
            .filter(|l| matches!(l.body, Body::Flags { .. }))
    }

    fn parent(&self, levels: u32) -> Option<&'static TypeLayout> {
        expr::parent_of(self.r.current?, levels)
    }
}

fn collect(ty: &'static TypeLayout, all: &mut HashMap<&'static str, &'static TypeLayout>) {
    if all.insert(ty.name, ty).is_some() {
        return;
    }
    let mut visit = |fields: &'static [FieldLayout]| {
        for f in fields {
            if let Some(l) = (f.layout)() {
                collect(l, all);
            }
        }
    };
    match &ty.body {
        Body::Struct(fields) => visit(fields),
        Body::Enum { variants, .. } => {
            for v in variants.iter() {
                visit(v.fields);
            }
        }
        Body::Flags { .. } | Body::Opaque => {}
    }
}

/// True when rendering `l` reads the context in force: it (or a type it holds) has an
/// index or text leaf, or an expression over `ctx`. `seen` guards against cycles.
fn uses_context(l: &'static TypeLayout, seen: &mut Vec<&'static str>) -> bool {
    if seen.contains(&l.name) {
        return false;
    }
    seen.push(l.name);
    // A `switch_ctx` is Rust text, opaque to the descriptors: the word `ctx` in it.
    fn text_mentions_ctx(e: &str) -> bool {
        e.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == "ctx")
    }
    fn shape_uses(s: Shape, seen: &mut Vec<&'static str>) -> bool {
        match s {
            Shape::Leaf(leaf) => {
                matches!(leaf.kind, LeafKind::Index { .. } | LeafKind::Text { .. })
            }
            Shape::Array { elem, .. } => shape_uses(elem(), seen),
            Shape::Type(t) => uses_context(t, seen),
            Shape::Prim(_) | Shape::Opaque => false,
        }
    }
    let field_uses = |f: &FieldLayout, seen: &mut Vec<&'static str>| {
        let exprs = [
            match f.presence {
                Presence::If(c) | Presence::IfUnlessEof(c) => Some(c),
                Presence::Always | Presence::UnlessEof => None,
            },
            match f.repeat {
                Repeat::Len(e) => Some(e),
                _ => None,
            },
            f.select,
        ];
        exprs
            .into_iter()
            .flatten()
            .any(|e| expr::mentions_ctx(e.tree))
            || f.switch_ctx
                .filter(|_| f.context.is_none())
                .is_some_and(text_mentions_ctx)
            || shape_uses((f.shape)(), seen)
    };
    match &l.body {
        Body::Struct(fields) => fields.iter().any(|f| field_uses(f, seen)),
        Body::Enum { variants, .. } => variants
            .iter()
            .any(|v| v.fields.iter().any(|f| field_uses(f, seen))),
        Body::Flags { .. } => false,
        // Rendered as an error whatever the context.
        Body::Opaque => false,
    }
}

/// The `seq` entry of a fixed signature.
fn magic_entry(m: &[u8]) -> Y {
    let contents = if m.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        Y::s(String::from_utf8_lossy(m).into_owned())
    } else {
        Y::Seq(m.iter().map(|b| Y::p(format!("{b:#04x}"))).collect())
    };
    Y::Map(entries(vec![
        ("id", Y::p("magic")),
        ("contents", contents),
        ("doc", Y::Doc("The file signature.".into())),
    ]))
}

/// True when a field holds several values (Kaitai then checks `valid` per element).
pub(crate) fn repeated(f: Option<&FieldLayout>) -> bool {
    f.is_some_and(|f| !matches!(f.repeat, mmd_formats::layout::Repeat::One))
}

/// The id of the attribute of no bytes that checks a context computed from the sequence
/// `field`.
pub(crate) fn valid_id(field: &str) -> String {
    format!("{field}_valid")
}

/// `s` as an operand of `and`: parenthesised unless it is a plain name or path
/// (`header.globals[2]`).
fn paren(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'))
    {
        s.to_string()
    } else {
        format!("({s})")
    }
}

impl Renderer {
    /// A reference from type `here` to an instance of the context owner `owner`.
    fn ctx_ref(&self, owner: &str, here: &str, inst: &str) -> Result<String, String> {
        if owner == here {
            Ok(inst.to_string())
        } else if owner == self.root_id {
            Ok(format!("_root.{inst}"))
        } else {
            Err(format!(
                "the context switched in `{owner}` is used in `{here}`; only a context of the \
                 root type can be reached from other types"
            ))
        }
    }

    fn problem(&mut self, at: &str, msg: impl fmt::Display) {
        self.problems.push(format!("{}: {at}: {msg}", self.format));
    }

    /// Claims a type id for `what`; false (and a problem) when it is taken by another.
    fn claim(&mut self, id: &str, what: String) -> bool {
        match self.claims.get(id) {
            Some(w) if *w == what => false,
            Some(w) => {
                let msg = format!("type id `{id}` is needed for {what} and for {w}");
                self.problem(id, msg);
                false
            }
            None => {
                self.claims.insert(id.to_string(), what);
                self.order.push(id.to_string());
                true
            }
        }
    }

    fn layout_type(&mut self, l: &'static TypeLayout, scope: &Scope) -> String {
        let id = snake(l.name);
        // A type that reads nothing of the context renders alike under any: one type,
        // whatever context its uses are under.
        let scope = if uses_context(l, &mut Vec::new()) {
            scope.clone()
        } else {
            Scope::none()
        };
        if self.claim(&id, format!("{} with context {}", l.name, scope.key())) {
            self.queue.push_back((l, scope));
        }
        id
    }

    /// The `seq` and `instances` of a record.
    fn record(
        &mut self,
        here: &str,
        type_name: &str,
        fields: &'static [FieldLayout],
        magic: Option<&[u8]>,
        start: &Scope,
    ) -> (Vec<Y>, Vec<(String, Y)>) {
        let mut seq = Vec::new();
        let mut instances = Vec::new();
        seq.extend(magic.map(magic_entry));
        let mut scope = start.clone();
        for (i, f) in fields.iter().enumerate() {
            let at = format!("{type_name}.{}", f.name);
            let place = Place {
                earlier: &fields[..i],
                scope: &scope,
                here,
            };
            match f.placement {
                Placement::Sequential => {}
                _ if here != self.root_id => {
                    self.problem(
                        &at,
                        "a positioned field in a type other than the file's root (Kaitai \
                         counts positions from the stream of the type that holds them)",
                    );
                    continue;
                }
                Placement::Gaps => {
                    self.gaps = Some(f.name.to_string());
                    continue;
                }
                Placement::At { pos, base } => {
                    match self.positioned(f, place, pos, base, magic.map_or(0, |m| m.len() as u64))
                    {
                        Ok(inst) => instances.push((f.name.to_string(), inst)),
                        Err(e) => self.problem(&at, e),
                    }
                    continue;
                }
            }
            match self.field_attrs(f, place, f.name, f.doc, None) {
                Ok(attrs) => seq.extend(attrs),
                Err(e) => self.problem(&at, e),
            }
            match (f.switch_ctx, f.context) {
                (_, Some(sw)) => {
                    let here_fields = &fields[..=i];
                    let taken: Vec<&str> = instances
                        .iter()
                        .map(|(k, _): &(String, Y)| k.as_str())
                        .collect();
                    match self.switch(here, f.name, here_fields, sw, &scope, fields, &taken) {
                        Ok((valid, inst, next)) => {
                            match (valid, repeated(Some(f))) {
                                (Some(v), false) => {
                                    if let Some(Y::Map(last)) = seq.last_mut() {
                                        last.push((
                                            "valid".into(),
                                            Y::map(vec![("expr", Y::s(v))]),
                                        ));
                                    }
                                }
                                (Some(v), true) => seq.push(Y::Map(entries(vec![
                                    ("id", Y::p(valid_id(f.name))),
                                    ("size", Y::p(0)),
                                    ("valid", Y::map(vec![("expr", Y::s(v))])),
                                    (
                                        "doc",
                                        Y::Doc(format!(
                                            "No bytes: checks the values the context computed \
                                             from `{}` accepts.",
                                            f.name
                                        )),
                                    ),
                                ]))),
                                (None, _) => {}
                            }
                            instances.extend(inst);
                            scope = next;
                        }
                        Err(e) => self.problem(&at, e),
                    }
                }
                (Some(sw), None) => self.problem(
                    &at,
                    format!(
                        "the context switch `{sw}` is an expression the descriptors do not \
                         describe; declare the context with `#[derive(MmdContext)]` and switch \
                         with `#[mmd(context = Ctx(...))]`"
                    ),
                ),
                (None, None) => {}
            }
        }
        (seq, instances)
    }

    /// The instance of a positioned field (Kaitai's `pos:` and `size:`): for a list, an
    /// instance repeated `len` times over a helper type `<field>_at(index)` whose one
    /// instance `value` is the element at its own position (Kaitai evaluates `pos` once
    /// per instance, not per element).
    fn positioned(
        &mut self,
        f: &'static FieldLayout,
        at: Place<'_>,
        pos: Expression,
        base: Option<&'static str>,
        magic_len: u64,
    ) -> Result<Y, String> {
        if !matches!((f.shape)(), Shape::Type(_)) {
            return Err(format!(
                "a positioned `{}`, which is not a record (Kaitai bounds only user types)",
                f.ty
            ));
        }
        let size = f.bound.ok_or("a positioned field without a size")?;
        // A base field's offset, when the fields before it have fixed sizes.
        let base_off = match base {
            None => None,
            Some(b) => {
                let mut off = magic_len;
                let mut found = None;
                for e in at.earlier {
                    if e.name == b {
                        found = Some(off);
                        break;
                    }
                    match (e.size, e.repeat, e.presence, e.placement) {
                        (
                            mmd_formats::layout::Size::Fixed(n),
                            Repeat::One,
                            Presence::Always,
                            Placement::Sequential,
                        ) => off += n,
                        _ => {
                            return Err(format!(
                                "the position counts from `{b}`, whose offset Kaitai cannot \
                                 know: `{}` before it has no fixed size",
                                e.name
                            ))
                        }
                    }
                }
                Some(found.ok_or_else(|| format!("`{b}` is not an earlier field"))?)
            }
        };
        let elem = self.elem((f.shape)(), f.select, at)?;
        if elem.fixed_repeat.is_some() {
            return Err(format!("a positioned array `{}`", f.ty));
        }
        let list = matches!(f.repeat, Repeat::Len(_));
        let env = FieldEnv {
            r: self,
            earlier: at.earlier,
            scope: at.scope,
            here: at.here,
            alias: None,
        };
        let prefixed = Prefixed {
            inner: &env,
            prefix: if list { "_parent." } else { "" },
            index: list.then(|| "index".to_string()),
        };
        let p = expr::translate(&prefixed, &pos)?;
        let p = match base_off {
            Some(o) if o > 0 => format!("{o} + {}", paren(&p)),
            _ => p,
        };
        let n = expr::translate(&prefixed, &size)?;
        let cond = match f.presence {
            Presence::Always => None,
            Presence::If(c) => Some(translate(&env, &c)?),
            _ => return Err("a positioned field absent at the end of the file".to_string()),
        };
        let len = match f.repeat {
            Repeat::Len(l) => Some(translate(&env, &l)?),
            Repeat::One => None,
            _ => return Err("a positioned list whose length no expression gives".to_string()),
        };
        let mut value = vec![("pos".to_string(), Y::s(p)), ("size".to_string(), Y::s(n))];
        value.extend(elem.entries);
        let Some(len) = len else {
            if let Some(c) = cond {
                value.push(("if".into(), Y::s(c)));
            }
            value.extend(doc_entry(f.doc));
            return Ok(Y::Map(value));
        };
        let helper = format!("{}_at", f.name);
        if self.claim(&helper, format!("the positions of `{}`", f.name)) {
            let mut body = Vec::new();
            body.extend(doc_entry(&format!(
                "Element `index` of `{}`, read at its own position.",
                f.name
            )));
            body.push((
                "params".to_string(),
                Y::Seq(vec![Y::Map(entries(vec![
                    ("id", Y::p("index")),
                    ("type", Y::p("u4")),
                ]))]),
            ));
            body.push((
                "instances".to_string(),
                Y::Map(vec![("value".to_string(), Y::Map(value))]),
            ));
            self.bodies.insert(helper.clone(), Y::Map(body));
        }
        let mut m = entries(vec![
            ("type", Y::p(format!("{helper}(_index)"))),
            ("repeat", Y::p("expr")),
            ("repeat-expr", Y::s(len)),
        ]);
        if let Some(c) = cond {
            m.push(("if".into(), Y::s(c)));
        }
        m.extend(doc_entry(f.doc));
        Ok(Y::Map(m))
    }

    fn enum_body(
        &mut self,
        here: &str,
        ty: &'static TypeLayout,
        tag: &TagSource,
        variants: &'static [VariantLayout],
        scope: &Scope,
    ) -> Vec<(String, Y)> {
        let mut body = Vec::new();
        // The signature comes first, before the tag (as the reader reads it).
        let mut seq: Vec<Y> = ty.magic.map(magic_entry).into_iter().collect();
        let (tag_id, read) = match tag {
            TagSource::Read {
                prim: p,
                name,
                fourcc,
                ..
            } => {
                let tag_id = ident(name);
                let mut values = Vec::new();
                for v in variants.iter().filter(|v| !v.default) {
                    let mut m = entries(vec![("id", Y::p(snake(v.name)))]);
                    // A FourCC: the number is the key Kaitai compares, the text its doc.
                    let text = match v.tag.parse::<u32>() {
                        Ok(n) if *fourcc => {
                            Some(format!("FourCC {}.", mmd_formats::layout::fourcc_text(n)))
                        }
                        _ => None,
                    };
                    let doc = match text {
                        Some(t) if v.doc.trim().is_empty() => t,
                        Some(t) => format!("{t} {}", v.doc),
                        None => v.doc.to_string(),
                    };
                    m.extend(doc_entry(&doc));
                    values.push((v.tag.to_string(), Y::Map(m)));
                }
                let default = variants.iter().find(|v| v.default);
                let mut attr = vec![
                    ("id", Y::p(&tag_id)),
                    ("type", Y::p(prim(*p))),
                    ("enum", Y::p(&tag_id)),
                ];
                let other = match default {
                    Some(d) => format!("Any other value reads as {} (kept).", snake(d.name)),
                    None => {
                        attr.push(("valid", Y::map(vec![("in-enum", Y::p(true))])));
                        "Any other value is an error.".to_string()
                    }
                };
                attr.push((
                    "doc",
                    Y::Doc(format!(
                        "The {name}: picks the layout that follows. {other}"
                    )),
                ));
                seq.push(Y::Map(entries(attr)));
                body.push((
                    "enums".to_string(),
                    Y::Map(vec![(tag_id.clone(), Y::Map(values))]),
                ));
                (tag_id, true)
            }
            TagSource::Selected { prim: p, name, .. } => {
                let tag_id = ident(name);
                body.push((
                    "params".to_string(),
                    Y::Seq(vec![Y::Map(entries(vec![
                        ("id", Y::p(&tag_id)),
                        ("type", Y::p(prim(*p))),
                        (
                            "doc",
                            Y::Doc(format!(
                                "The {name}, computed by the enclosing record: it picks the \
                                 layout (no tag in the file)."
                            )),
                        ),
                    ]))]),
                ));
                (tag_id, false)
            }
        };
        for v in variants {
            let vid = snake(v.name);
            let at = format!("{}::{}", ty.name, v.name);
            // The default variant: every value no other variant lists; its first field
            // is the tag attribute itself, so only the fields after it follow.
            let (cond, fields) = if v.default {
                let listed: Vec<String> = variants
                    .iter()
                    .filter(|o| !o.default)
                    .map(|o| format!("{tag_id} == {tag_id}::{}", snake(o.name)))
                    .collect();
                let cond = match listed.is_empty() {
                    true => "true".to_string(),
                    false => format!("not ({})", listed.join(" or ")),
                };
                let rest = if v.fields.len() == 1 && v.fields[0].name == "0" {
                    &v.fields[..0]
                } else {
                    &v.fields[1..]
                };
                (cond, rest)
            } else {
                (String::new(), v.fields)
            };
            let cond = match (read, v.tag) {
                _ if v.default => cond,
                (true, _) => format!("{tag_id} == {tag_id}::{vid}"),
                (false, "true") => tag_id.clone(),
                (false, "false") => format!("not {tag_id}"),
                (false, t) => match t.parse::<i64>() {
                    Ok(n) => format!("{tag_id} == {n}"),
                    Err(_) => {
                        self.problem(&at, format!("tag value `{t}`"));
                        continue;
                    }
                },
            };
            if read && !v.default && v.tag.parse::<i64>().is_err() {
                self.problem(&at, format!("tag value `{}`", v.tag));
            }
            let lone = !v.default && v.fields.len() == 1 && v.fields[0].name == "0";
            if fields.is_empty() {
                continue;
            }
            if lone {
                let f = &v.fields[0];
                let doc = if f.doc.trim().is_empty() {
                    v.doc
                } else {
                    f.doc
                };
                let place = Place {
                    earlier: &[],
                    scope,
                    here,
                };
                match self.field_attrs(f, place, &vid, doc, Some(cond)) {
                    Ok(attrs) => seq.extend(attrs),
                    Err(e) => self.problem(&at, e),
                }
                continue;
            }
            let vty = format!("{here}_{vid}");
            if self.claim(&vty, format!("variant {at}")) {
                let (vseq, vinst) = self.record(&vty, &at, fields, None, scope);
                let mut b = Vec::new();
                b.extend(doc_entry(v.doc));
                b.push(("seq".to_string(), Y::Seq(vseq)));
                if !vinst.is_empty() {
                    b.push(("instances".to_string(), Y::Map(vinst)));
                }
                self.bodies.insert(vty.clone(), Y::Map(b));
            }
            let mut m = entries(vec![
                ("id", Y::p(&vid)),
                ("type", Y::p(&vty)),
                ("if", Y::s(cond)),
            ]);
            m.extend(doc_entry(v.doc));
            seq.push(Y::Map(m));
        }
        // Kaitai's usual key order: params, seq, enums.
        let at = usize::from(!read);
        body.insert(at, ("seq".to_string(), Y::Seq(seq)));
        body
    }

    fn flags_body(&mut self, p: Prim, bits: &[mmd_formats::layout::FlagBit]) -> Vec<(String, Y)> {
        let mut inst = Vec::new();
        for b in bits {
            let mut m = entries(vec![(
                "value",
                Y::s(format!("(bits & {:#06x}) != 0", b.mask)),
            )]);
            m.extend(doc_entry(b.doc));
            inst.push((bit_id(b.name), Y::Map(m)));
        }
        vec![
            (
                "seq".to_string(),
                Y::Seq(vec![Y::Map(entries(vec![
                    ("id", Y::p("bits")),
                    ("type", Y::p(prim(p))),
                    (
                        "doc",
                        Y::Doc("The raw bits; bits without a name are kept as they are.".into()),
                    ),
                ]))]),
            ),
            ("instances".to_string(), Y::Map(inst)),
        ]
    }

    fn type_body(&mut self, ty: &'static TypeLayout, scope: &Scope) -> Vec<(String, Y)> {
        let here = snake(ty.name);
        let mut body = Vec::new();
        body.extend(doc_entry(ty.doc));
        match &ty.body {
            Body::Struct(fields) => {
                let (seq, inst) = self.record(&here, ty.name, fields, ty.magic, scope);
                body.push(("seq".to_string(), Y::Seq(seq)));
                if !inst.is_empty() {
                    body.push(("instances".to_string(), Y::Map(inst)));
                }
            }
            Body::Enum { tag, variants } => {
                body.extend(self.enum_body(&here, ty, tag, variants, scope));
            }
            Body::Flags { prim: p, bits, .. } => body.extend(self.flags_body(*p, bits)),
            Body::Opaque => self.problem(
                ty.name,
                "a type with its own codec that does not describe its layout \
                 (`Describe::shape` gives no leaf)",
            ),
        }
        body
    }
}

/// Renders a format as a `.ksy` document, from its root type's descriptor.
pub fn render_ksy(spec: &Spec) -> Result<String, KsyError> {
    let mut all = HashMap::new();
    collect(spec.root, &mut all);
    let mut r = Renderer {
        format: spec.id.clone(),
        root_id: spec.id.clone(),
        all,
        order: Vec::new(),
        bodies: HashMap::new(),
        claims: HashMap::new(),
        queue: VecDeque::new(),
        problems: Vec::new(),
        gaps: None,
        byte_order: value::ByteOrder::Le,
        current: None,
    };
    // The root type is the file; its id is the format's.
    r.claims
        .insert(spec.id.clone(), format!("{} (root)", spec.root.name));
    let root_scope = Scope::none();
    r.current = Some(spec.root);
    let root_body = {
        let mut body = Vec::new();
        match &spec.root.body {
            Body::Struct(fields) => {
                let (seq, inst) = r.record(
                    &spec.id,
                    spec.root.name,
                    fields,
                    spec.root.magic,
                    &root_scope,
                );
                // The bytes no attribute or instance holds, which Kaitai does not read: a
                // key of this project's own (Kaitai ignores keys starting with `-`), which
                // names the field that keeps them.
                if let Some(g) = r.gaps.take() {
                    body.push(("-mmd-gaps".to_string(), Y::p(g)));
                }
                body.push(("seq".to_string(), Y::Seq(seq)));
                if !inst.is_empty() {
                    body.push(("instances".to_string(), Y::Map(inst)));
                }
            }
            _ => r.problem(spec.root.name, "the root type must be a struct"),
        }
        body
    };
    while let Some((ty, scope)) = r.queue.pop_front() {
        r.current = Some(ty);
        let body = r.type_body(ty, &scope);
        r.bodies.insert(snake(ty.name), Y::Map(body));
    }
    if !r.problems.is_empty() {
        return Err(KsyError {
            problems: r.problems,
        });
    }
    let mut meta = vec![
        ("id", Y::p(&spec.id)),
        ("title", Y::s(&spec.title)),
        ("application", Y::s(&spec.application)),
        ("file-extension", Y::p(&spec.id)),
    ];
    if let Some(l) = &spec.license {
        meta.push(("license", Y::s(l)));
    }
    meta.push(("ks-version", Y::s("0.11")));
    meta.push(("endian", Y::p("le")));
    let mut top = vec![("meta".to_string(), Y::map(meta))];
    top.extend(doc_entry(&spec.intro));
    top.extend(root_body);
    let mut types = Vec::new();
    for id in &r.order {
        if let Some(b) = r.bodies.remove(id) {
            types.push((id.clone(), b));
        }
    }
    top.push(("types".to_string(), Y::Map(types)));
    let mut out = String::new();
    out.push_str(&format!(
        "# Generated by mmd-spec from the layout descriptors of `{}`.\n\
         # Do not edit: regenerate it.\n",
        spec.root.name
    ));
    write_map(&mut out, &top, 0);
    Ok(out)
}

/// Translates `expr` in the environment of a field.
fn translate(env: &FieldEnv<'_>, expr: &Expression) -> Result<String, String> {
    expr::translate(env, expr)
}

#[cfg(test)]
mod tests;
