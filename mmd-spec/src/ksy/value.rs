//! The Kaitai form of one field: its value's shape (a number, an array, a format type, a
//! leaf), its repetition and its condition.

use super::context::Scope;
use super::{entries, ident, paren, prim, snake, translate, FieldEnv, Place, Renderer};
use crate::yaml::{doc_entry, Y};
use mmd_formats::layout::{
    Body, ContextRole, Endian, Expression, FieldLayout, IndexSign, LeafKind, LeafLayout, Presence,
    Prim, Repeat, Shape, TagSource, TypeLayout, TEXT_FALLBACK,
};

/// The Kaitai form of one value: attribute entries (`type`, `size`, …), and the count of
/// a fixed-size array of such values.
pub(super) struct Elem {
    pub(super) entries: Vec<(String, Y)>,
    pub(super) fixed_repeat: Option<u64>,
    /// A name for a helper type holding an array of these.
    helper_name: Option<String>,
}

impl Elem {
    fn plain(entries: Vec<(String, Y)>, helper: Option<String>) -> Self {
        Elem {
            entries,
            fixed_repeat: None,
            helper_name: helper,
        }
    }
}

/// The byte order of a field's numbers, as Kaitai states it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum ByteOrder {
    /// The file's default (`meta/endian: le`): plain `u4`.
    Le,
    /// `u4be`.
    Be,
    /// `switch-on` the translated condition: `u4be` when it holds, else `u4le`.
    Switch(String),
}

impl Renderer {
    /// The Kaitai type of a number in the byte order of the field being rendered, and
    /// the name of a helper type holding arrays of them (none when a condition chooses
    /// the order: it would be evaluated inside the helper).
    fn prim_type(&self, p: Prim) -> (Y, Option<String>) {
        let name = prim(p);
        if p.size() == 1 {
            return (Y::p(name), Some(name.to_string()));
        }
        match &self.byte_order {
            ByteOrder::Le => (Y::p(name), Some(name.to_string())),
            ByteOrder::Be => (Y::p(format!("{name}be")), Some(format!("{name}be"))),
            ByteOrder::Switch(c) => (
                Y::map(vec![
                    ("switch-on", Y::s(c.clone())),
                    (
                        "cases",
                        Y::Map(vec![
                            ("true".to_string(), Y::p(format!("{name}be"))),
                            ("false".to_string(), Y::p(format!("{name}le"))),
                        ]),
                    ),
                ]),
                None,
            ),
        }
    }

    /// The Kaitai form of one value of shape `shape`.
    pub(super) fn elem(
        &mut self,
        shape: Shape,
        select: Option<Expression>,
        at: Place<'_>,
    ) -> Result<Elem, String> {
        let Place { scope, here, .. } = at;
        match shape {
            Shape::Prim(p) => {
                let (ty, helper) = self.prim_type(p);
                Ok(Elem::plain(entries(vec![("type", ty)]), helper))
            }
            Shape::Array { len, elem } => {
                let inner = elem();
                if matches!(inner, Shape::Prim(Prim::U8)) {
                    return Ok(Elem::plain(entries(vec![("size", Y::p(len))]), None));
                }
                let mut e = self.elem(inner, select, at)?;
                if e.fixed_repeat.is_some() {
                    // An array of arrays: each inner array is a helper type.
                    let h = self.array_type(inner, select, at, e)?;
                    e = Elem::plain(entries(vec![("type", Y::p(&h))]), Some(h));
                }
                Ok(Elem {
                    entries: e.entries,
                    fixed_repeat: Some(len),
                    helper_name: e.helper_name.map(|h| format!("{h}_x{len}")),
                })
            }
            Shape::Type(l) => self.type_elem(l, select, at),
            Shape::Leaf(leaf) => self.leaf_elem(&leaf, scope, here),
            Shape::Opaque => Err(
                "a type with its own codec that does not describe its layout \
                 (`Describe::shape` gives no leaf)"
                    .to_string(),
            ),
        }
    }

    fn type_elem(
        &mut self,
        l: &'static TypeLayout,
        select: Option<Expression>,
        at: Place<'_>,
    ) -> Result<Elem, String> {
        let Place { scope, here, .. } = at;
        let id = self.layout_type(l, scope);
        let selected = matches!(
            l.body,
            Body::Enum {
                tag: TagSource::Selected { .. },
                ..
            }
        );
        let ty = match (selected, select) {
            (true, Some(sel)) => {
                let env = FieldEnv {
                    r: self,
                    earlier: at.earlier,
                    scope,
                    here,
                    alias: None,
                };
                format!("{id}({})", translate(&env, &sel)?)
            }
            (true, None) => return Err(format!("`{}` needs a selector (`select = …`)", l.name)),
            (false, Some(_)) => {
                return Err(format!("a selector on `{}`, which takes none", l.name))
            }
            (false, None) => id.clone(),
        };
        Ok(Elem::plain(entries(vec![("type", Y::s(ty))]), Some(id)))
    }

    fn leaf_elem(&mut self, leaf: &LeafLayout, scope: &Scope, here: &str) -> Result<Elem, String> {
        match leaf.kind {
            LeafKind::Text { length, encodings } => {
                let id = self.text_type(leaf, length, encodings, scope)?;
                Ok(Elem::plain(entries(vec![("type", Y::p(&id))]), Some(id)))
            }
            LeafKind::FixedText {
                size,
                encoding,
                terminator,
            } => {
                let mut e = entries(vec![("type", Y::p("str")), ("size", Y::p(size))]);
                if let Some(t) = terminator {
                    e.push(("terminator".into(), Y::p(t)));
                }
                e.push(("encoding".into(), Y::p(encoding)));
                Ok(Elem::plain(e, Some(format!("{}{size}", snake(leaf.name)))))
            }
            LeafKind::TerminatedText {
                encoding,
                terminator,
                to_end,
            } => {
                let mut e = entries(vec![("type", Y::p("str"))]);
                if to_end {
                    // The field's `size`, when it has one, replaces this.
                    e.push(("size-eos".into(), Y::p(true)));
                }
                e.push(("terminator".into(), Y::p(terminator)));
                e.push(("encoding".into(), Y::p(encoding)));
                Ok(Elem::plain(e, None))
            }
            LeafKind::Index { kind, sign, .. } => {
                let (member, m) = scope.role(ContextRole::IndexWidth(kind)).ok_or_else(|| {
                    format!(
                        "a {kind} index needs a context that declares its width; `{}` \
                         declares none",
                        scope.name()
                    )
                })?;
                let owner = scope.owner().unwrap_or_default().to_string();
                let width = self.ctx_ref(&owner, here, &member)?;
                let widths = m.valid.ok_or_else(|| {
                    format!(
                        "the width of {kind} indices (`{}`) lists no accepted values, so the \
                         cases of the index cannot be written",
                        m.name
                    )
                })?;
                let mut cases = Vec::new();
                for w in widths {
                    let n: u64 = w
                        .parse()
                        .map_err(|_| format!("index width `{w}` is not a number"))?;
                    let signed = match sign {
                        IndexSign::Signed => true,
                        IndexSign::UnsignedNarrow => n >= 4,
                    };
                    cases.push((
                        n.to_string(),
                        Y::p(format!("{}{n}", if signed { "s" } else { "u" })),
                    ));
                }
                Ok(Elem::plain(
                    entries(vec![(
                        "type",
                        Y::map(vec![("switch-on", Y::s(width)), ("cases", Y::Map(cases))]),
                    )]),
                    Some(format!("{}_index", ident(kind))),
                ))
            }
            LeafKind::Bytes { size } => Ok(Elem::plain(entries(vec![("size", Y::p(size))]), None)),
        }
    }

    /// The type of a length-prefixed text leaf: its length, then the text in the encoding
    /// the context's text-encoding member gives (one subtype per encoding).
    fn text_type(
        &mut self,
        leaf: &LeafLayout,
        length: Prim,
        encodings: &[(u64, &str)],
        scope: &Scope,
    ) -> Result<String, String> {
        let id = snake(leaf.name);
        let (member, _) = scope.role(ContextRole::TextEncoding).ok_or_else(|| {
            format!(
                "`{}` needs a context that declares the text encoding; `{}` declares none",
                leaf.name,
                scope.name()
            )
        })?;
        let owner = scope.owner().unwrap_or_default().to_string();
        let enc_ref = self.ctx_ref(&owner, &id, &member)?;
        if !self.claim(&id, format!("{} with context {}", leaf.name, scope.key())) {
            return Ok(id);
        }
        let mut len = entries(vec![("id", Y::p("len")), ("type", Y::p(prim(length)))]);
        if length.is_signed() {
            len.push(("valid".into(), Y::map(vec![("min", Y::p(0))])));
        }
        len.push((
            "doc".into(),
            Y::Doc("Byte length of the text (not characters).".into()),
        ));
        let mut cases = Vec::new();
        let mut subtypes = Vec::new();
        for (code, enc) in encodings {
            let sub = format!("{id}_{}", ident(enc));
            cases.push((code.to_string(), Y::p(&sub)));
            subtypes.push((sub, Some(*code), *enc));
        }
        // Any other value: the bytes read as the fallback encoding, as the text views do.
        let fallback = format!("{id}_{}", ident(TEXT_FALLBACK));
        cases.push(("_".to_string(), Y::p(&fallback)));
        if !subtypes.iter().any(|(sub, _, _)| *sub == fallback) {
            subtypes.push((fallback, None, TEXT_FALLBACK));
        }
        let mut body = Vec::new();
        body.extend(doc_entry(leaf.doc));
        body.push((
            "seq".to_string(),
            Y::Seq(vec![
                Y::Map(len),
                Y::map(vec![
                    ("id", Y::p("value")),
                    ("size", Y::p("len")),
                    (
                        "type",
                        Y::map(vec![("switch-on", Y::s(enc_ref)), ("cases", Y::Map(cases))]),
                    ),
                    (
                        "doc",
                        Y::Doc(
                            "The text, decoded as the context's encoding says (any other \
                             value: as UTF-8)."
                                .into(),
                        ),
                    ),
                ]),
            ]),
        ));
        self.bodies.insert(id.clone(), Y::Map(body));
        for (sub, code, enc) in subtypes {
            self.claim(&sub, id.clone());
            self.bodies.insert(
                sub,
                Y::Map(entries(vec![
                    (
                        "doc",
                        Y::Doc(match code {
                            Some(code) => format!("Text in {enc} (encoding {code})."),
                            None => format!("Text in {enc} (an encoding with no case of its own)."),
                        }),
                    ),
                    (
                        "seq",
                        Y::Seq(vec![Y::map(vec![
                            ("id", Y::p("text")),
                            ("type", Y::p("str")),
                            ("size-eos", Y::p(true)),
                            ("encoding", Y::s(enc)),
                        ])]),
                    ),
                ])),
            );
        }
        Ok(id)
    }

    /// A helper type `id` holding `n` values of `e` (for a repeated field of arrays).
    fn array_helper(&mut self, e: Elem, n: u64) -> Result<String, String> {
        let id = e
            .helper_name
            .clone()
            .ok_or("an array of this type cannot be repeated")?;
        if self.claim(&id, format!("array helper {id}")) {
            let mut item = vec![("id".to_string(), Y::p("items"))];
            item.extend(e.entries);
            item.push(("repeat".into(), Y::p("expr")));
            item.push(("repeat-expr".into(), Y::p(n)));
            self.bodies.insert(
                id.clone(),
                Y::Map(entries(vec![
                    ("doc", Y::Doc(format!("{n} consecutive values."))),
                    ("seq", Y::Seq(vec![Y::Map(item)])),
                ])),
            );
        }
        Ok(id)
    }

    /// The helper type holding the fixed-size array `shape`, whose form at `at` is `e`: the
    /// array is rendered again as seen from inside the helper, so that what its values
    /// refer to (a context member of the record) is reached from there.
    fn array_type(
        &mut self,
        shape: Shape,
        select: Option<Expression>,
        at: Place<'_>,
        e: Elem,
    ) -> Result<String, String> {
        let n = e
            .fixed_repeat
            .ok_or("an array helper for a value that is not an array")?;
        let id = e
            .helper_name
            .ok_or("an array of this type cannot be repeated")?;
        let inside = self.elem(shape, select, Place { here: &id, ..at })?;
        self.array_helper(
            Elem {
                fixed_repeat: None,
                ..inside
            },
            n,
        )
    }

    /// The attributes of one field (one, or a count and the field), its numbers in the
    /// field's byte order.
    pub(super) fn field_attrs(
        &mut self,
        f: &'static FieldLayout,
        at: Place<'_>,
        id: &str,
        doc: &str,
        extra_cond: Option<String>,
    ) -> Result<Vec<Y>, String> {
        let order = match f.endian {
            Endian::Little => ByteOrder::Le,
            Endian::Big => ByteOrder::Be,
            Endian::BigIf(c) => {
                let env = FieldEnv {
                    r: self,
                    earlier: at.earlier,
                    scope: at.scope,
                    here: at.here,
                    alias: None,
                };
                ByteOrder::Switch(translate(&env, &c)?)
            }
        };
        self.byte_order = order;
        let r = self.field_attrs_in_order(f, at, id, doc, extra_cond);
        self.byte_order = ByteOrder::Le;
        r
    }

    fn field_attrs_in_order(
        &mut self,
        f: &'static FieldLayout,
        at: Place<'_>,
        id: &str,
        doc: &str,
        extra_cond: Option<String>,
    ) -> Result<Vec<Y>, String> {
        let Place {
            earlier,
            scope,
            here,
        } = at;
        let env = FieldEnv {
            r: self,
            earlier,
            scope,
            here,
            alias: None,
        };
        let (cond, eof) = match f.presence {
            Presence::Always => (None, false),
            Presence::If(c) => (Some(translate(&env, &c)?), false),
            Presence::UnlessEof => (Some("not _io.eof".to_string()), true),
            Presence::IfUnlessEof(c) => (
                Some(format!("{} and not _io.eof", paren(&translate(&env, &c)?))),
                true,
            ),
        };
        let cond = match (extra_cond, cond) {
            (Some(a), Some(b)) => Some(format!("{} and {}", paren(&a), paren(&b))),
            (a, b) => a.or(b),
        };
        let with_cond = |mut m: Vec<(String, Y)>| {
            if let Some(c) = &cond {
                m.push(("if".into(), Y::s(c.clone())));
            }
            m
        };
        let with_doc = |mut m: Vec<(String, Y)>, d: &str| {
            m.extend(doc_entry(d));
            m
        };
        // A sequence of single bytes is a byte array in Kaitai (`size:`), so that `.to_s`,
        // `.length` and the rest work on it as they do on `[u8; N]`.
        let bytes = matches!((f.shape)(), Shape::Prim(Prim::U8));
        if let (Repeat::Rest, true) = (f.repeat, bytes) {
            let m = entries(vec![("id", Y::p(id)), ("size-eos", Y::p(true))]);
            return Ok(vec![Y::Map(with_doc(with_cond(m), doc))]);
        }
        let mut e = self.elem((f.shape)(), f.select, at)?;
        // Each value from exactly `size` bytes: a substream per value, as in Kaitai.
        if let Some(bound) = f.bound {
            let padded = matches!(
                (f.shape)(),
                Shape::Leaf(LeafLayout {
                    kind: LeafKind::TerminatedText { to_end: true, .. },
                    ..
                })
            );
            if padded {
                // A padded text takes exactly its region: `size:` in place of `size-eos:`.
                e.entries.retain(|(k, _)| k != "size-eos");
            } else if !matches!((f.shape)(), Shape::Type(_)) || e.fixed_repeat.is_some() {
                return Err(format!(
                    "`size` on `{}`, which is not a record (Kaitai bounds only user types)",
                    f.ty
                ));
            }
            let env = FieldEnv {
                r: self,
                earlier,
                scope,
                here,
                alias: None,
            };
            let n = translate(&env, &bound)?;
            e.entries.push(("size".into(), Y::s(n)));
        }
        // The element with its own fixed repeat, or a helper type when it is repeated.
        let repeated = |r: &mut Self, e: Elem, at: Place<'_>| -> Result<Vec<(String, Y)>, String> {
            match e.fixed_repeat {
                None => Ok(e.entries),
                Some(_) => {
                    let h = r.array_type((f.shape)(), f.select, at, e)?;
                    Ok(entries(vec![("type", Y::p(h))]))
                }
            }
        };
        match f.repeat {
            Repeat::One => {
                let mut m = vec![("id".to_string(), Y::p(id))];
                let n = e.fixed_repeat;
                m.extend(e.entries);
                if let Some(n) = n {
                    m.push(("repeat".into(), Y::p("expr")));
                    m.push(("repeat-expr".into(), Y::p(n)));
                }
                Ok(vec![Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Len(len) => {
                let env = FieldEnv {
                    r: self,
                    earlier,
                    scope,
                    here,
                    alias: None,
                };
                let n = translate(&env, &len)?;
                let mut m = vec![("id".to_string(), Y::p(id))];
                if bytes {
                    m.push(("size".into(), Y::s(n)));
                } else {
                    m.extend(repeated(self, e, at)?);
                    m.push(("repeat".into(), Y::p("expr")));
                    m.push(("repeat-expr".into(), Y::s(n)));
                }
                Ok(vec![Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Counted {
                count_ty,
                count_prim,
                ..
            } => {
                if count_prim.is_float() || count_prim == Prim::Bool {
                    return Err(format!("count type `{count_ty}`"));
                }
                let (ct, _) = self.prim_type(count_prim);
                if eof && matches!(self.byte_order, ByteOrder::Switch(_)) {
                    return Err(
                        "a byte order chosen by a condition on a counted field absent at the \
                         end of the file (its count is read inside a block type)"
                            .to_string(),
                    );
                }
                let count = |cid: &str| {
                    let mut m = entries(vec![("id", Y::p(cid)), ("type", ct.clone())]);
                    if count_prim.is_signed() {
                        m.push(("valid".into(), Y::map(vec![("min", Y::p(0))])));
                    }
                    m
                };
                if eof {
                    // Absent at the end of the file, count included: wrap count and
                    // items so that "absent" and "count 0" stay different. The items are
                    // rendered as seen from inside the block.
                    let what = format!("block of {here}.{id}");
                    let mut block = format!("{id}_block");
                    if self.claims.get(&block).is_some_and(|w| *w != what) {
                        // Another record has a block of that name.
                        block = format!("{here}_{id}_block");
                    }
                    let inside = Place { here: &block, ..at };
                    let e = self.elem((f.shape)(), f.select, inside)?;
                    let items = repeated(self, e, inside)?;
                    if self.claim(&block, what) {
                        let mut c = count("count");
                        c.extend(doc_entry(&format!("The {count_ty} count of `{id}`.")));
                        let mut it = vec![("id".to_string(), Y::p("items"))];
                        if bytes {
                            it.push(("size".into(), Y::p("count")));
                        } else {
                            it.extend(items);
                            it.push(("repeat".into(), Y::p("expr")));
                            it.push(("repeat-expr".into(), Y::p("count")));
                        }
                        let mut body = Vec::new();
                        body.extend(doc_entry(&format!(
                            "`{id}` of `{here}`: a {count_ty} count and the items."
                        )));
                        body.push(("seq".to_string(), Y::Seq(vec![Y::Map(c), Y::Map(it)])));
                        self.bodies.insert(block.clone(), Y::Map(body));
                    }
                    let m = entries(vec![("id", Y::p(id)), ("type", Y::p(&block))]);
                    return Ok(vec![Y::Map(with_doc(with_cond(m), doc))]);
                }
                let items = repeated(self, e, at)?;
                let num = format!("num_{id}");
                let c = with_doc(
                    with_cond(count(&num)),
                    &format!("The {count_ty} count of `{id}`."),
                );
                let mut m = vec![("id".to_string(), Y::p(id))];
                if bytes {
                    m.push(("size".into(), Y::p(&num)));
                } else {
                    m.extend(items);
                    m.push(("repeat".into(), Y::p("expr")));
                    m.push(("repeat-expr".into(), Y::p(&num)));
                }
                Ok(vec![Y::Map(c), Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Rest => {
                let mut m = vec![("id".to_string(), Y::p(id))];
                m.extend(repeated(self, e, at)?);
                m.push(("repeat".into(), Y::p("eos")));
                Ok(vec![Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Until(cond) => {
                let env = FieldEnv {
                    r: self,
                    earlier,
                    scope,
                    here,
                    alias: None,
                };
                let env = crate::expr::WithElement {
                    inner: &env,
                    shape: (f.shape)(),
                };
                let c = crate::expr::translate(&env, &cond)?;
                let mut m = vec![("id".to_string(), Y::p(id))];
                m.extend(repeated(self, e, at)?);
                m.push(("repeat".into(), Y::p("until")));
                m.push(("repeat-until".into(), Y::s(c)));
                Ok(vec![Y::Map(with_doc(with_cond(m), doc))])
            }
        }
    }
}
