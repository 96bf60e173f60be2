//! Checks the model and fills in the shapes codegen relies on. Every problem is recorded
//! in the [`Ctxt`]; checking carries on so that all of them are reported.

use crate::ast::{
    expr_text, generic_inner, type_text, Container, ContextCall, Data, Endian, Field, Fields,
    Presence, Repeat, Shape, Style, TagKind, TagSpec, TagValue,
};
use crate::ctxt::Ctxt;
use crate::COUNT_TYPES;
use syn::{Expr, Ident};

pub fn check(cx: &Ctxt, cont: &mut Container) {
    if !cont.original.generics.params.is_empty() {
        cx.error_spanned_by(
            &cont.original.generics,
            "`#[derive(Mmd)]` does not support generic types: a format type has one layout",
        );
    }
    if let Some(f) = cont.attrs.strings("file") {
        const KEYS: [&str; 3] = ["id", "title", "application"];
        for (k, _) in f.value.iter() {
            if !KEYS.iter().any(|want| k == want) {
                cx.error_spanned_by(
                    k,
                    format!("`file` takes `id`, `title` and `application`, not `{k}`"),
                );
            }
        }
        for want in KEYS {
            if !f.value.iter().any(|(k, _)| k == want) {
                cx.syn_error(syn::Error::new(
                    f.span(),
                    format!("`file` needs `{want} = \"...\"` (it takes `id`, `title` and `application`)"),
                ));
            }
        }
    }
    if let (Some(up), Some(_)) = (cont.attrs.ty("parent"), cont.attrs.strings("file")) {
        cx.syn_error(syn::Error::new(
            up.span(),
            "`parent` and `file` conflict: the root type of a file format is read inside no \
             other record, so it has no enclosing record to name",
        ));
    }
    let declared_ctx = cont.attrs.has("ctx");
    let type_name = cont.ident.to_string();
    match &mut cont.data {
        Data::Struct(fields) => {
            let order = cont
                .attrs
                .expr("endian")
                .and_then(|e| endian_value(cx, e.value));
            check_fields(cx, fields, declared_ctx, &type_name, true);
            if let Some(order) = order {
                inherit_endian(cx, fields, &order, declared_ctx, &type_name);
            }
        }
        Data::Enum(variants) => {
            let tag = check_tag_spec(cx, cont.ident, &cont.attrs);
            if variants.is_empty() {
                cx.error_spanned_by(cont.ident, "an mmd enum needs at least one variant");
            }
            let mut seen: Vec<(TagValue, String)> = Vec::new();
            // The tags as written, for suggesting one no variant uses yet.
            let written: Vec<String> = variants
                .iter()
                .filter_map(|v| v.attrs.expr("tag").map(|t| expr_text(t.value)))
                .collect();
            let free = free_tag(tag.as_ref().map(|t| t.kind), &written);
            let mut default: Option<String> = None;
            for v in variants.iter_mut() {
                check_fields(cx, &mut v.fields, declared_ctx, &type_name, false);
                if let Some(span) = v.attrs.flag("default") {
                    check_default(cx, v, span, tag.as_ref(), &mut default);
                    continue;
                }
                let Some(tag_attr) = v.attrs.expr("tag") else {
                    if v.attrs.poisoned {
                        continue;
                    }
                    cx.error_spanned_by(
                        v.ident,
                        format!(
                            "variant `{}` needs a tag value: `#[mmd(tag = {free})]`",
                            v.ident
                        ),
                    );
                    continue;
                };
                let Some(spec) = &tag else { continue };
                let Some(value) = tag_value(cx, tag_attr.value, spec) else {
                    continue;
                };
                if let Some((_, other)) = seen.iter().find(|(t, _)| *t == value) {
                    cx.error_spanned_by(
                        tag_attr.value,
                        format!(
                            "tag {} is already used by variant `{other}`",
                            value.shown(spec.fourcc)
                        ),
                    );
                    continue;
                }
                seen.push((value.clone(), v.ident.to_string()));
                v.tag = Some(value);
            }
            cont.tag = tag;
        }
    }
}

/// Checks the variant marked `#[mmd(default)]`: one per enum, of an enum that reads its
/// tag, with no tag of its own, its first field a plain value of the tag's type (the
/// tag read, written back as the variant's first bytes).
fn check_default(
    cx: &Ctxt,
    v: &mut crate::ast::Variant,
    span: proc_macro2::Span,
    spec: Option<&TagSpec>,
    seen: &mut Option<String>,
) {
    let name = v.ident.to_string();
    if let Some(t) = v.attrs.expr("tag") {
        cx.syn_error(syn::Error::new_spanned(
            t.value,
            "the default variant is read for every tag no other variant lists: \
             it has no tag value of its own (remove `tag = ...`)",
        ));
        return;
    }
    if let Some(other) = seen {
        cx.syn_error(syn::Error::new(
            span,
            format!("only one variant can be the default: `{other}` already is"),
        ));
        return;
    }
    *seen = Some(name.clone());
    let Some(spec) = spec else { return };
    if !spec.read {
        cx.syn_error(syn::Error::new(
            span,
            "`default` is for an enum whose tag is read from the file (`tag = u32`); \
             the variant of a `selected_by` enum is chosen by the enclosing struct, \
             whose selector field already keeps the value",
        ));
        return;
    }
    let tag_ty = type_text(&spec.ty);
    let hint = format!(
        "the default variant keeps the tag it read in its first field, of the tag's type \
         `{tag_ty}`: write `{name}({tag_ty}, ...)` or `{name} {{ id: {tag_ty}, ... }}`"
    );
    let Some(first) = v.fields.fields.first_mut() else {
        cx.error_spanned_by(v.ident, hint);
        return;
    };
    let plain = first.shape.as_ref().is_some_and(|s| {
        matches!(s.repeat, Repeat::One)
            && matches!(s.presence, Presence::Always)
            && s.select.is_none()
            && s.size.is_none()
            && s.switch_ctx.is_none()
            && s.context.is_none()
            && s.endian.is_little()
    });
    if type_text(first.ty) != tag_ty {
        cx.error_spanned_by(first.ty, hint);
        return;
    }
    if !plain {
        cx.error_spanned_by(
            first.ty,
            "the first field of the default variant is the tag as read: it takes no \
             attributes (no count, len, if, size, select, context or endian)",
        );
        return;
    }
    first.from_tag = true;
    v.default = true;
}

/// A tag value no variant is written with: the smallest one from 0 up (or the `bool`
/// left), for the suggestion in a message.
fn free_tag(kind: Option<TagKind>, written: &[String]) -> String {
    if kind == Some(TagKind::Bool) {
        let t = if written.iter().any(|w| w == "true") {
            "false"
        } else {
            "true"
        };
        return t.to_string();
    }
    (0u32..)
        .map(|n| n.to_string())
        .find(|n| !written.contains(n))
        .unwrap_or_default()
}

fn check_tag_spec(cx: &Ctxt, ident: &Ident, attrs: &crate::attr::Attrs) -> Option<TagSpec> {
    let name = attrs
        .str("name")
        .map(|n| n.value.value())
        .unwrap_or_else(|| format!("{ident} tag"));
    match (attrs.ty("tag"), attrs.ty("selected_by")) {
        (Some(_), Some(s)) => {
            cx.syn_error(syn::Error::new(
                s.span(),
                "`tag` and `selected_by` conflict: the tag is either read from the file \
                 (`tag = u8`) or computed by the enclosing struct (`selected_by = bool`)",
            ));
            None
        }
        (None, None) => {
            if attrs.poisoned {
                return None;
            }
            cx.error_spanned_by(
                ident,
                "an mmd enum needs `#[mmd(tag = u8)]` (a tag read before the variant) \
                 or `#[mmd(selected_by = bool)]` (chosen by the enclosing struct)",
            );
            None
        }
        (Some(t), None) => match TagKind::from_type(t.value) {
            Some(TagKind::Bool) | None => {
                cx.error_spanned_by(
                    t.value,
                    format!(
                        "a tag read from the file must be an integer type \
                         (u8, u16, u32, i8, i16, i32), not `{}`",
                        type_text(t.value)
                    ),
                );
                None
            }
            Some(kind) => Some(TagSpec {
                ty: t.value.clone(),
                kind,
                read: true,
                name,
                fourcc: tag_form(cx, attrs, kind),
            }),
        },
        (None, Some(s)) => match TagKind::from_type(s.value) {
            None => {
                cx.error_spanned_by(
                    s.value,
                    format!(
                        "a selector must be `bool` or an integer type, not `{}`",
                        type_text(s.value)
                    ),
                );
                None
            }
            Some(kind) => {
                if let Some(f) = attrs.expr("tag_form") {
                    cx.syn_error(syn::Error::new(
                        f.span(),
                        "`tag_form` is for a tag read from the file (`tag = u32`); \
                         a `selected_by` enum reads no tag",
                    ));
                }
                Some(TagSpec {
                    ty: s.value.clone(),
                    kind,
                    read: false,
                    name,
                    fourcc: false,
                })
            }
        },
    }
}

/// `tag_form = fourcc`: true when given (and the tag is a `u32`, the only type four
/// bytes of text fill); any other form, or another tag type, is refused here.
fn tag_form(cx: &Ctxt, attrs: &crate::attr::Attrs, kind: TagKind) -> bool {
    let Some(f) = attrs.expr("tag_form") else {
        return false;
    };
    let is_fourcc = matches!(f.value, Expr::Path(p) if p.path.is_ident("fourcc"));
    if !is_fourcc {
        cx.error_spanned_by(
            f.value,
            format!(
                "`tag_form` takes `fourcc` (four ASCII bytes read as a `u32`, shown as text), \
                 not `{}`",
                expr_text(f.value)
            ),
        );
        return false;
    }
    if kind
        != (TagKind::Int {
            signed: false,
            bits: 32,
        })
    {
        cx.syn_error(syn::Error::new(
            f.span(),
            "`tag_form = fourcc` needs `tag = u32`: a FourCC is four bytes, read as a \
             little-endian `u32`",
        ));
        return false;
    }
    true
}

fn tag_value(cx: &Ctxt, e: &Expr, spec: &TagSpec) -> Option<TagValue> {
    let (value, neg) = match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::ByteStr(b),
            ..
        }) => {
            let bytes = b.value();
            return match <[u8; 4]>::try_from(bytes.as_slice()) {
                Ok(four) if spec.fourcc => Some(TagValue::Int(u32::from_le_bytes(four).into())),
                Ok(_) => {
                    cx.error_spanned_by(
                        e,
                        "a byte-string tag is a FourCC: the enum needs \
                         `#[mmd(tag = u32, tag_form = fourcc)]`",
                    );
                    None
                }
                Err(_) => {
                    cx.error_spanned_by(
                        e,
                        format!(
                            "a FourCC tag is exactly four bytes (`b\"fmt \"`), not {}",
                            bytes.len()
                        ),
                    );
                    None
                }
            };
        }
        Expr::Lit(l) => (&l.lit, false),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            Expr::Lit(l) => (&l.lit, true),
            _ => {
                cx.error_spanned_by(e, "a tag value must be a literal");
                return None;
            }
        },
        _ => {
            cx.error_spanned_by(e, "a tag value must be a literal");
            return None;
        }
    };
    let ty = type_text(&spec.ty);
    match (value, spec.kind) {
        (syn::Lit::Bool(b), TagKind::Bool) if !neg => Some(TagValue::Bool(b.value)),
        (syn::Lit::Int(i), TagKind::Int { .. }) => {
            let v: i128 = match i.base10_parse() {
                Ok(v) => v,
                Err(err) => {
                    cx.syn_error(err);
                    return None;
                }
            };
            let v = if neg { -v } else { v };
            if !spec.kind.fits(v) {
                cx.error_spanned_by(
                    e,
                    format!(
                        "tag {v} does not fit the enum's tag type `{ty}` ({})",
                        spec.kind.range_text()
                    ),
                );
                return None;
            }
            Some(TagValue::Int(v))
        }
        (lit, kind) => {
            let what = match lit {
                syn::Lit::Bool(_) => "a bool",
                syn::Lit::Int(_) => "an integer",
                syn::Lit::Str(_) => "a string",
                syn::Lit::Float(_) => "a float",
                _ => "this literal",
            };
            let want = match kind {
                TagKind::Bool => "`true` or `false`",
                TagKind::Int { .. } => "an integer literal, e.g. `#[mmd(tag = 1)]`",
            };
            let what = if neg && matches!(kind, TagKind::Bool) {
                "a negated literal"
            } else {
                what
            };
            cx.error_spanned_by(
                e,
                format!(
                    "the enum's tag type is `{ty}`, but this tag value is {what}: write {want}"
                ),
            );
            None
        }
    }
}

/// Checks an expression: that it is in the expression language (but for `switch_ctx`),
/// and the names it uses: earlier fields (and, with `this_too`, the field `here` itself:
/// a context computed after it), and `ctx` only where there is one.
#[allow(clippy::too_many_arguments)]
fn check_expr(
    cx: &Ctxt,
    e: &Expr,
    keyword: &str,
    fields: &[String],
    here: usize,
    this_too: bool,
    has_ctx: bool,
    type_name: &str,
) {
    // `switch_ctx` is opaque to the descriptors: any Rust expression.
    if keyword != "switch_ctx" {
        if let Err(err) = crate::tree::check(e) {
            cx.syn_error(err);
        }
    }
    check_expr_names(cx, e, keyword, fields, here, this_too, has_ctx, type_name);
}

/// The names `e` uses: earlier fields (and, with `this_too`, the field `here` itself), and
/// `ctx` only where there is one.
#[allow(clippy::too_many_arguments)]
fn check_expr_names(
    cx: &Ctxt,
    e: &Expr,
    keyword: &str,
    fields: &[String],
    here: usize,
    this_too: bool,
    has_ctx: bool,
    type_name: &str,
) {
    let (names, selfs) = crate::place::names_in(e);
    for span in selfs {
        cx.syn_error(syn::Error::new(
            span,
            format!("use earlier fields by name in `{keyword}`, not through `self`"),
        ));
    }
    for id in names {
        let name = id.to_string();
        if name == "parent" && !crate::tree::parent_on() && !fields.contains(&name) {
            cx.error_spanned_by(
                &id,
                format!(
                    "`parent` is used here but `{type_name}` names no enclosing record: add \
                     `#[mmd(parent = Record)]` (the record whose `with_parent` field holds \
                     `{type_name}`)"
                ),
            );
        }
        if name == "parent" && crate::tree::parent_on() {
            // The enclosing record, not a field of this one.
            continue;
        }
        if name == "ctx" && !has_ctx {
            cx.error_spanned_by(
                &id,
                format!(
                    "`ctx` is used here but `{type_name}` declares no context: \
                     add `#[mmd(ctx = Context)]`"
                ),
            );
        }
        if let Some(pos) = fields.iter().position(|f| *f == name) {
            let msg = match (pos.cmp(&here), this_too) {
                (std::cmp::Ordering::Less, _) | (std::cmp::Ordering::Equal, true) => None,
                (std::cmp::Ordering::Equal, false) => Some(format!(
                    "`{name}` is this field itself: `{keyword}` may only use fields read before \
                     this one"
                )),
                (std::cmp::Ordering::Greater, false) => Some(format!(
                    "`{name}` is a later field: `{keyword}` may only use fields read before \
                     this one"
                )),
                (std::cmp::Ordering::Greater, true) => Some(format!(
                    "`{name}` is a later field: `{keyword}` may only use this field and the \
                     ones read before it"
                )),
            };
            if let Some(msg) = msg {
                cx.error_spanned_by(&id, msg);
            }
        }
    }
}

/// The condition of `until`: in the expression language with the element as a name of
/// its own, over earlier fields and the element.
fn check_until(
    cx: &Ctxt,
    u: &crate::ast::Until,
    fields: &[String],
    here: usize,
    has_ctx: bool,
    type_name: &str,
) {
    let element = u.element.to_string();
    if fields.contains(&element) {
        cx.error_spanned_by(
            &u.element,
            format!(
                "`{element}` is also a field of `{type_name}`: give the element of `until` a \
                 name of its own"
            ),
        );
        return;
    }
    if let Err(err) = crate::tree::check_with_element(&u.cond, &element) {
        cx.syn_error(err);
        return;
    }
    check_expr_names(
        cx, &u.cond, "until", fields, here, false, has_ctx, type_name,
    );
}

fn check_fields(
    cx: &Ctxt,
    fields: &mut Fields,
    declared_ctx: bool,
    type_name: &str,
    is_struct: bool,
) {
    let names: Vec<String> = if fields.style == Style::Named {
        fields.fields.iter().map(|f| f.name.clone()).collect()
    } else {
        Vec::new()
    };
    let n = fields.fields.len();
    let mut has_ctx = declared_ctx;
    let mut after_eof: Option<String> = None;
    for (i, f) in fields.fields.iter_mut().enumerate() {
        if f.name == "ctx" {
            cx.error_spanned_by(
                f.original.ident.as_ref(),
                "a format field may not be named `ctx`: that name is the context in expressions",
            );
        }
        if f.name == "parent" && crate::tree::parent_on() {
            cx.error_spanned_by(
                f.original.ident.as_ref(),
                format!(
                    "a field of `{type_name}` may not be named `parent`: `{type_name}` names \
                     its enclosing record, which expressions call `parent`"
                ),
            );
        }
        let mut shape = field_shape(cx, f, i + 1 == n);
        if let (Some(span), Some(sh)) = (f.attrs.span_of("with_parent"), shape.as_ref()) {
            check_with_parent(cx, span, sh, is_struct && fields.style == Style::Named);
        }
        if let (Some(e), Some(sh)) = (f.attrs.expr("endian"), shape.as_mut()) {
            if let Some(order) = endian_value(cx, e.value) {
                if let Endian::BigIf(c) = &order {
                    check_expr(cx, c, "endian", &names, i, false, has_ctx, type_name);
                }
                if !has_numbers(sh) {
                    cx.syn_error(syn::Error::new(
                        e.span(),
                        format!(
                            "`endian` is the byte order of a field's numbers, and `{}` holds none of \
                             its own: it belongs on a number (`u16` .. `u64`, `i16` .. `i64`, \
                             `f32`, `f64`), an array or a Vec of them, or a field with a `count`; \
                             a format type states its own byte order on its struct",
                            type_text(f.ty)
                        ),
                    ));
                } else if generic_inner(f.ty, "Vec").is_none() && !matches!(sh.repeat, Repeat::One)
                {
                    cx.syn_error(syn::Error::new(
                        e.span(),
                        "`endian` on a list belongs on a `Vec` field, not on another container                          (`item = T`)",
                    ));
                } else if let Some(why) = unrenderable_choice(&order, sh) {
                    cx.syn_error(syn::Error::new(e.span(), why));
                } else {
                    sh.endian = order;
                }
            }
        }
        let positioned_list = f.attrs.has("pos") && f.attrs.has("len");
        for keyword in ["len", "if", "select", "size", "pos"] {
            if let Some(e) = f.attrs.expr(keyword) {
                check_expr(cx, e.value, keyword, &names, i, false, has_ctx, type_name);
                let index_ok = positioned_list && matches!(keyword, "pos" | "size");
                if !index_ok {
                    if let Some(id) = crate::place::names_in(e.value)
                        .0
                        .into_iter()
                        .find(|id| id == "_index")
                    {
                        cx.error_spanned_by(
                            &id,
                            "`_index` is the index of the element being placed: it is named \
                             only in `pos` and `size` of a positioned list (`len` with `pos`)",
                        );
                    }
                }
            }
        }
        if let Some(sh) = shape.as_mut() {
            check_base(cx, f, sh, &names, i);
        }
        if let Some(Repeat::Until(u)) = shape.as_ref().map(|s| &s.repeat) {
            check_until(cx, u, &names, i, has_ctx, type_name);
        }
        let call = f
            .attrs
            .expr("context")
            .and_then(|c| context_call(cx, c.value, &names, i, has_ctx, type_name));
        if let (Some(c), true) = (f.attrs.span_of("context"), f.attrs.has("switch_ctx")) {
            cx.syn_error(syn::Error::new(
                c,
                "`context` and `switch_ctx` conflict: the context after a field is either a \
                 declared context (`context = Ctx(field, ...)`) or an expression (`switch_ctx = expr`)",
            ));
        }
        if let Some(c) = f.attrs.span_of("context") {
            if !is_struct {
                cx.syn_error(syn::Error::new(
                    c,
                    "`context` belongs on a struct field, not in an enum variant",
                ));
            } else if !declared_ctx {
                cx.syn_error(syn::Error::new(
                    c,
                    format!(
                        "`context` needs `{type_name}` to declare the context it starts \
                         with: add `#[mmd(ctx = ())]` or another context"
                    ),
                ));
            }
            has_ctx = true;
        }
        if let Some(sw) = f.attrs.expr("switch_ctx") {
            // The new context is computed after this field, so the field itself may be used.
            check_expr(
                cx,
                sw.value,
                "switch_ctx",
                &names,
                i,
                true,
                has_ctx,
                type_name,
            );
            if !is_struct {
                cx.syn_error(syn::Error::new(
                    sw.span(),
                    "`switch_ctx` belongs on a struct field, not in an enum variant",
                ));
            } else if !declared_ctx {
                cx.syn_error(syn::Error::new(
                    sw.span(),
                    format!(
                        "`switch_ctx` needs `{type_name}` to declare the context it starts \
                         with: add `#[mmd(ctx = ())]` or another context"
                    ),
                ));
            }
            has_ctx = true;
        }
        if let Some(shape) = &shape {
            let eof = matches!(
                shape.presence,
                Presence::UnlessEof | Presence::IfUnlessEof(_)
            );
            let rest = matches!(shape.repeat, Repeat::Rest);
            if let Some(prev) = &after_eof {
                if !eof && !rest {
                    cx.error_spanned_by(
                        f.ty,
                        format!(
                            "a field after the `unless_eof` field `{prev}` must be \
                             `unless_eof` or `rest` too: the input may already have ended"
                        ),
                    );
                }
            }
            if eof && after_eof.is_none() {
                after_eof = Some(f.name.clone());
            }
        }
        f.shape = shape.map(|mut s| {
            s.context = call;
            s
        });
    }
    check_placement(cx, fields, is_struct);
}

/// `with_parent`: on a field of a struct with named fields, whose values are records (the
/// type that names this record as its `parent`), read in place (not positioned, selected
/// or wrapped in a block by the Kaitai reference, where `_parent` would be the block).
fn check_with_parent(cx: &Ctxt, span: proc_macro2::Span, s: &Shape, named_struct: bool) {
    let why = if !named_struct {
        Some(
            "`with_parent` belongs on a field of a struct with named fields: the values it holds \
             name the fields before it (`parent.field`)"
                .to_string(),
        )
    } else if is_numeric(&s.value_ty) || matches!(s.value_ty, syn::Type::Array(_)) {
        Some(format!(
            "`with_parent` belongs on a field whose values are a record type that names this \
             one as its `parent` (`#[mmd(parent = ...)]`); `{}` is not one",
            type_text(&s.value_ty)
        ))
    } else if s.select.is_some() {
        Some(
            "`with_parent` and `select` conflict: an enum is not a record that names its parent \
             (put the enum in a struct that does)"
                .to_string(),
        )
    } else if matches!(s.repeat, Repeat::Count(_))
        && matches!(s.presence, Presence::UnlessEof | Presence::IfUnlessEof(_))
    {
        Some(
            "`with_parent` cannot be stated for a counted `unless_eof` field (the Kaitai \
             reference reads it in a block type of its own, whose `_parent` is the block): \
             give the list a `len` or drop `unless_eof`"
                .to_string(),
        )
    } else {
        None
    };
    if let Some(why) = why {
        cx.syn_error(syn::Error::new(span, why));
    }
}

/// `pos_base = field`: an earlier field, whose start the position is counted from.
fn check_base(cx: &Ctxt, f: &Field, shape: &mut Shape, names: &[String], here: usize) {
    let (Some(b), Some(pos)) = (f.attrs.expr("pos_base"), shape.pos.as_mut()) else {
        return;
    };
    let name = match b.value {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    };
    match name.and_then(|n| names.iter().position(|x| *x == n).map(|i| (i, n))) {
        Some((i, n)) if i < here => pos.base = Some((i, n)),
        _ => cx.error_spanned_by(
            b.value,
            "`pos_base` names an earlier field of the struct (`pos_base = header`): the \
             position is counted from that field's first byte",
        ),
    }
}

/// Where positioned fields and the gaps may stand: in a struct with named fields, the
/// positioned fields after every sequential one, the gaps field last, and one exactly
/// when there are the others.
fn check_placement(cx: &Ctxt, fields: &Fields, is_struct: bool) {
    let mut first_pos: Option<&Field> = None;
    let mut gaps: Option<&Field> = None;
    // By the attributes, so that a field refused for another reason draws no second error.
    for f in &fields.fields {
        let (is_gaps, is_pos) = (f.attrs.has("gaps"), f.attrs.has("pos"));
        let key = if is_gaps {
            "gaps"
        } else if is_pos {
            "pos"
        } else {
            ""
        };
        if !key.is_empty() && (!is_struct || fields.style != Style::Named) {
            let span = f
                .attrs
                .span_of(key)
                .unwrap_or_else(proc_macro2::Span::call_site);
            let what = if is_struct {
                "a tuple struct"
            } else {
                "an enum variant"
            };
            cx.syn_error(syn::Error::new(
                span,
                format!(
                    "`{key}` belongs on a field of a struct with named fields, not of {what}: \
                     positions are counted from the struct's first byte, and the struct keeps \
                     the bytes around them to the end of its input"
                ),
            ));
            return;
        }
        if is_gaps {
            gaps = Some(f);
        } else if is_pos {
            first_pos = first_pos.or(Some(f));
        } else if let Some(p) = first_pos {
            cx.error_spanned_by(
                f.original.ident.as_ref(),
                format!(
                    "`{}` is read in sequence but follows the positioned field `{}`: \
                     positioned fields are read after every sequential one, so they come last \
                     (before the `gaps` field)",
                    f.name, p.name
                ),
            );
        }
    }
    match (first_pos, gaps) {
        (Some(p), None) => cx.syn_error(syn::Error::new(
            p.attrs
                .span_of("pos")
                .unwrap_or_else(proc_macro2::Span::call_site),
            "a struct with positioned fields keeps the bytes around them: end it with \
             `#[mmd(gaps)] gaps: Vec<Vec<u8>>` (the bytes after the sequential fields that no \
             positioned value holds), so that it writes back byte for byte",
        )),
        (None, Some(g)) => cx.syn_error(syn::Error::new(
            g.attrs
                .span_of("gaps")
                .unwrap_or_else(proc_macro2::Span::call_site),
            "`gaps` keeps the bytes between positioned fields (`pos = expr`), and this struct \
             has none: keep trailing bytes with `rest` instead",
        )),
        _ => {}
    }
}

/// `String`, `str`, `&str` or `char`, alone or in an `Option`/`Vec`, as written.
fn std_text_type(ty: &syn::Type) -> Option<String> {
    let inner = generic_inner(ty, "Vec")
        .or_else(|| generic_inner(ty, "Option"))
        .unwrap_or(ty);
    let base = match inner {
        syn::Type::Reference(r) => &*r.elem,
        t => t,
    };
    let name = type_text(base);
    matches!(
        name.as_str(),
        "String" | "str" | "char" | "std::string::String"
    )
    .then(|| type_text(inner))
}

/// Checks `context = Ctx(arg, ...)`: the form, and that the arguments use fields read so
/// far (this one included: the context is computed after it).
fn context_call(
    cx: &Ctxt,
    e: &Expr,
    names: &[String],
    here: usize,
    has_ctx: bool,
    type_name: &str,
) -> Option<ContextCall> {
    let call = match e {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) if p.qself.is_none() => Some((p.path.clone(), c)),
            _ => None,
        },
        _ => None,
    };
    let Some((ty, call)) = call else {
        cx.error_spanned_by(
            e,
            "`context` names a `#[derive(MmdContext)]` type and the values of its \
             parameters: `context = Ctx(field, ...)`",
        );
        return None;
    };
    let args: Vec<Expr> = call.args.iter().cloned().collect();
    let mut roots = Vec::new();
    for a in &args {
        check_expr(cx, a, "context", names, here, true, has_ctx, type_name);
        roots.push(crate::place::first_place(a, names).and_then(|pl| {
            let i = names.iter().position(|n| pl.root == n)?;
            Some((i, pl.segs))
        }));
    }
    Some(ContextCall {
        ty,
        args,
        roots,
        text: expr_text(e),
    })
}

fn field_shape(cx: &Ctxt, f: &Field, is_last: bool) -> Option<Shape> {
    let a = &f.attrs;
    // Conflicting directives. A conflict is one mistake: report it once and check this
    // field no further (its type would only draw follow-on errors).
    let mut conflict = false;
    if let (true, Some(l)) = (a.has("count"), a.span_of("len")) {
        cx.syn_error(syn::Error::new(
            l,
            "`count` and `len` conflict: either a count precedes the elements (`count = i32`) \
             or an expression gives their number (`len = expr`)",
        ));
        conflict = true;
    }
    if a.has("rest") {
        for key in ["count", "len", "until", "if", "unless_eof", "select"] {
            if let Some(span) = a.span_of(key) {
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`rest` and `{key}` conflict: `rest` takes every value up to the end of \
                         the input, always (possibly none), so its field has no other directive"
                    ),
                ));
                conflict = true;
            }
        }
    }
    if let Some(u) = a.span_of("until") {
        for key in ["count", "len", "select"] {
            if a.has(key) {
                cx.syn_error(syn::Error::new(
                    u,
                    format!(
                        "`until` and `{key}` conflict: the elements run until the condition \
                         holds of the one just read, so nothing else gives their number"
                    ),
                ));
                conflict = true;
            }
        }
    }
    if let Some(s) = a.span_of("select") {
        for key in ["count", "len"] {
            if a.has(key) {
                cx.syn_error(syn::Error::new(
                    s,
                    format!(
                        "`select` and `{key}` conflict: `select` picks the variant of one enum \
                         value, not of each element of a Vec"
                    ),
                ));
                conflict = true;
            }
        }
    }
    if let Some(g) = a.span_of("gaps") {
        for key in [
            "count",
            "len",
            "rest",
            "until",
            "if",
            "unless_eof",
            "select",
            "size",
            "pos",
            "pos_base",
            "item",
            "context",
            "switch_ctx",
            "with_parent",
        ] {
            if a.has(key) {
                cx.syn_error(syn::Error::new(
                    g,
                    format!(
                        "`gaps` and `{key}` conflict: the gaps are the bytes no other field \
                         holds, found by reading the others, so their field has no other \
                         directive"
                    ),
                ));
                conflict = true;
            }
        }
        if !conflict {
            if !is_last {
                cx.syn_error(syn::Error::new(
                    g,
                    "`gaps` must be on the last field: it keeps the bytes left once every \
                     other field is read",
                ));
                return None;
            }
            let inner = generic_inner(f.ty, "Vec").and_then(|t| generic_inner(t, "Vec"));
            if inner.map(type_text).as_deref() != Some("u8") {
                cx.syn_error(syn::Error::new(
                    g,
                    format!(
                        "`gaps` belongs on a `Vec<Vec<u8>>` field (one byte string per run of \
                         bytes no field holds); `{}` is not one",
                        type_text(f.ty)
                    ),
                ));
                return None;
            }
            return Some(Shape {
                presence: Presence::Always,
                repeat: Repeat::One,
                value_ty: f.ty.clone(),
                select: None,
                switch_ctx: None,
                size: None,
                pos: None,
                gaps: true,
                context: None,
                with_parent: false,
                endian: Endian::Little,
            });
        }
    }
    if let Some(p) = a.span_of("pos") {
        for (key, why) in [
            ("count", "a positioned list gives its number with `len = expr`"),
            ("rest", "the values at a position end where their size says"),
            ("until", "the values at a position end where their size says"),
            ("unless_eof", "a positioned value does not follow the sequential fields, so the end of the input says nothing of it"),
            ("item", "a positioned list is a Vec"),
            ("context", "positioned fields are read after every sequential one, so no later field could see the context"),
            ("switch_ctx", "positioned fields are read after every sequential one, so no later field could see the context"),
            ("endian", "a positioned value is read little-endian (a byte order at a position is not supported yet)"),
            ("with_parent", "the Kaitai reference reads a positioned value in an instance (or a list of them in a helper type), whose `_parent` is not this record"),
        ] {
            if let Some(span) = a.span_of(key) {
                cx.syn_error(syn::Error::new(
                    span,
                    format!("`pos` and `{key}` conflict: {why}"),
                ));
                conflict = true;
            }
        }
        if !conflict && !a.has("size") {
            cx.syn_error(syn::Error::new(
                p,
                "`pos` needs `size = expr`: a positioned value is read from exactly that many \
                 bytes at its position (the bytes around it are kept by the `gaps` field)",
            ));
            conflict = true;
        }
    } else if let Some(b) = a.span_of("pos_base") {
        cx.syn_error(syn::Error::new(
            b,
            "`pos_base` belongs on a field with `pos`: it names the field the position is \
             counted from",
        ));
        conflict = true;
    }
    if conflict {
        return None;
    }
    let mut ok = true;
    if let Some(r) = a.span_of("rest") {
        if !is_last {
            cx.syn_error(syn::Error::new(
                r,
                "`rest` must be on the last field: it takes every byte up to the end of the input",
            ));
            ok = false;
        }
    }
    // Presence: Option<..>.
    let optional = a.has("if") || a.has("unless_eof");
    let mut ty = f.ty;
    if optional {
        match generic_inner(ty, "Option") {
            Some(inner) => ty = inner,
            None => {
                let key = if a.has("if") { "if" } else { "unless_eof" };
                let span = a.span_of("if").or(a.span_of("unless_eof"));
                cx.syn_error(syn::Error::new(
                    span.unwrap_or_else(proc_macro2::Span::call_site),
                    format!(
                        "`{key}` belongs on an Option field; `{}` is not an Option",
                        type_text(f.ty)
                    ),
                ));
                ok = false;
            }
        }
    } else if generic_inner(ty, "Option").is_some() {
        if !a.poisoned {
            cx.error_spanned_by(
            f.ty,
                "an Option field needs `#[mmd(if = expr)]` or `#[mmd(unless_eof)]` to say when it is present",
            );
        }
        ok = false;
    }
    // Repetition: Vec<..>.
    let repeat = if let Some(c) = a.ty("count") {
        let name = type_text(c.value);
        if !COUNT_TYPES.contains(&name.as_str()) {
            cx.error_spanned_by(
                c.value,
                format!(
                    "a count must be one of {}; `{name}` is not",
                    COUNT_TYPES.join(", ")
                ),
            );
            ok = false;
        }
        Repeat::Count(c.value.clone())
    } else if let Some(l) = a.expr("len") {
        Repeat::Len(l.value.clone())
    } else if a.has("rest") {
        Repeat::Rest
    } else if let Some(u) = a.expr("until") {
        match until_closure(u.value) {
            Ok(until) => Repeat::Until(until),
            Err(e) => {
                cx.syn_error(e);
                return None;
            }
        }
    } else {
        Repeat::One
    };
    // Rust's own text types have no byte layout: say what to use instead, once.
    if let Some(text) = std_text_type(ty) {
        cx.error_spanned_by(
            ty,
            format!(
                "`{text}` has no byte layout of its own: use `PmxText` (a byte length, then the \
                 text in the context's encoding) or `ShiftJis<N>` (N fixed bytes of Shift_JIS)"
            ),
        );
        return None;
    }
    let value_ty = match &repeat {
        Repeat::One => {
            if ok && generic_inner(ty, "Vec").is_some() {
                if !a.poisoned {
                    cx.error_spanned_by(
                        ty,
                        "a Vec field needs `#[mmd(count = i32)]`, `#[mmd(len = expr)]` or \
                         `#[mmd(rest)]` to say how many elements it has",
                    );
                }
                ok = false;
            }
            ty.clone()
        }
        Repeat::Count(_) | Repeat::Len(_) => match (generic_inner(ty, "Vec"), a.ty("item")) {
            (Some(inner), None) => inner.clone(),
            // Another container (`Seq<T>`), named with the type of its values.
            (None, Some(item)) => item.value.clone(),
            (Some(_), Some(item)) => {
                cx.error_spanned_by(
                    item.keyword,
                    "`item` names the values of a container other than a Vec; a Vec<T> \
                     field's values are T",
                );
                ok = false;
                ty.clone()
            }
            (None, None) => {
                let (key, span) = match a.span_of("count") {
                    Some(c) => ("count", c),
                    None => (
                        "len",
                        a.span_of("len")
                            .unwrap_or_else(proc_macro2::Span::call_site),
                    ),
                };
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`{key}` belongs on a Vec field; `{}` is not a Vec (another container \
                         names the type of its values with `item = T`)",
                        type_text(ty)
                    ),
                ));
                ok = false;
                ty.clone()
            }
        },
        Repeat::Rest | Repeat::Until(_) => {
            let key = if a.has("rest") { "rest" } else { "until" };
            match generic_inner(ty, "Vec") {
                Some(inner) => inner.clone(),
                None => {
                    cx.syn_error(syn::Error::new(
                        a.span_of(key).unwrap_or_else(proc_macro2::Span::call_site),
                        format!(
                            "`{key}` belongs on a Vec field; `{}` is not a Vec",
                            type_text(ty)
                        ),
                    ));
                    ok = false;
                    ty.clone()
                }
            }
        }
    };
    if let (Some(span), true) = (a.span_of("size"), matches!(repeat, Repeat::Rest)) {
        if type_text(&value_ty) == "u8" {
            cx.syn_error(syn::Error::new(
                span,
                "`size` bounds each value of a field, and the bytes of a `rest` byte field are \
                 not values of their own: give the bytes a number with `len = expr` instead",
            ));
            ok = false;
        }
    }
    if let (Some(span), Repeat::One | Repeat::Rest | Repeat::Until(_)) =
        (a.span_of("item"), &repeat)
    {
        cx.syn_error(syn::Error::new(
            span,
            "`item` belongs on a field with `count` or `len` whose container is not a Vec",
        ));
        ok = false;
    }
    let presence = match (a.expr("if"), a.has("unless_eof")) {
        (Some(c), true) => Presence::IfUnlessEof(c.value.clone()),
        (Some(c), false) => Presence::If(c.value.clone()),
        (None, true) => Presence::UnlessEof,
        (None, false) => Presence::Always,
    };
    ok.then(|| Shape {
        presence,
        repeat,
        value_ty,
        select: a.expr("select").map(|s| s.value.clone()),
        switch_ctx: a.expr("switch_ctx").map(|s| s.value.clone()),
        size: a.expr("size").map(|s| s.value.clone()),
        pos: a.expr("pos").map(|p| crate::ast::Position {
            at: p.value.clone(),
            base: None,
        }),
        gaps: false,
        context: None,
        with_parent: a.has("with_parent"),
        endian: Endian::Little,
    })
}

/// `|e| cond`: the element's name and the condition.
fn until_closure(e: &Expr) -> syn::Result<crate::ast::Until> {
    let refuse = |at: &dyn quote::ToTokens| {
        syn::Error::new_spanned(
            at,
            "`until` takes a closure of the element just read, `|e| condition` (for example \
             `until = |s| s.kind == 0xFF`)",
        )
    };
    let Expr::Closure(c) = e else {
        return Err(refuse(e));
    };
    if c.inputs.len() != 1 || c.asyncness.is_some() || c.capture.is_some() {
        return Err(refuse(c));
    }
    let element = match &c.inputs[0] {
        syn::Pat::Ident(p)
            if p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none() =>
        {
            p.ident.clone()
        }
        other => return Err(refuse(other)),
    };
    Ok(crate::ast::Until {
        element,
        cond: (*c.body).clone(),
    })
}

/// The number types whose bytes have an order.
const NUMBERS: &[&str] = &[
    "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64",
];

/// True when `ty` is a number or a (nested) array of numbers, as written.
pub fn is_numeric(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .get_ident()
            .is_some_and(|i| NUMBERS.contains(&i.to_string().as_str())),
        syn::Type::Array(a) => is_numeric(&a.elem),
        syn::Type::Paren(p) => is_numeric(&p.elem),
        _ => false,
    }
}

/// True when every number of `ty` (a number or an array of numbers) is one byte.
fn single_byte(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(_) => matches!(type_text(ty).as_str(), "u8" | "i8"),
        syn::Type::Array(a) => single_byte(&a.elem),
        syn::Type::Paren(p) => single_byte(&p.elem),
        _ => false,
    }
}

/// True when the field reads numbers of its own: its values are numbers (or arrays of
/// them), or a count precedes them. The byte order applies to exactly those.
fn has_numbers(s: &Shape) -> bool {
    is_numeric(&s.value_ty) || matches!(s.repeat, Repeat::Count(_))
}

/// True when the order of the field's numbers makes a difference: a count, or values
/// of more than one byte.
fn order_matters(s: &Shape) -> bool {
    matches!(s.repeat, Repeat::Count(_)) || (is_numeric(&s.value_ty) && !single_byte(&s.value_ty))
}

/// `big`, `little`, or `if cond { big } else { little }` (either way round).
fn endian_value(cx: &Ctxt, e: &Expr) -> Option<Endian> {
    fn word(e: &Expr) -> Option<bool> {
        let e = match e {
            Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                syn::Stmt::Expr(e, None) => e,
                _ => return None,
            },
            e => e,
        };
        match e {
            Expr::Path(p) if p.qself.is_none() && p.path.is_ident("big") => Some(true),
            Expr::Path(p) if p.qself.is_none() && p.path.is_ident("little") => Some(false),
            _ => None,
        }
    }
    let refuse = |at: &dyn quote::ToTokens| {
        cx.syn_error(syn::Error::new_spanned(
            at,
            "`endian` takes `big`, `little` or `if cond { big } else { little }` (the \
             condition over earlier fields, as in `if`)",
        ));
        None
    };
    if let Some(big) = word(e) {
        return Some(if big { Endian::Big } else { Endian::Little });
    }
    let Expr::If(i) = e else {
        return refuse(e);
    };
    let then = match i.then_branch.stmts.as_slice() {
        [syn::Stmt::Expr(t, None)] => word(t),
        _ => None,
    };
    let other = i.else_branch.as_ref().and_then(|(_, el)| word(el));
    match (then, other) {
        (Some(true), Some(false)) => Some(Endian::BigIf(i.cond.clone())),
        (Some(false), Some(true)) => {
            let c = &i.cond;
            Some(Endian::BigIf(Box::new(syn::parse_quote!(!(#c)))))
        }
        (Some(_), Some(_)) => {
            cx.error_spanned_by(
                e,
                "both branches of this `endian` give the same byte order: write it alone \
                 (`endian = big`)",
            );
            None
        }
        _ => refuse(e),
    }
}

/// Gives the struct's byte order to each field of numbers that states none of its own.
/// A byte order chosen by a condition applies to the fields after the ones it reads; a
/// field before them whose numbers' order matters needs one of its own.
fn inherit_endian(cx: &Ctxt, fields: &mut Fields, order: &Endian, has_ctx: bool, type_name: &str) {
    let names: Vec<String> = if fields.style == Style::Named {
        fields.fields.iter().map(|f| f.name.clone()).collect()
    } else {
        Vec::new()
    };
    // The last field the condition reads: the byte order is known after it.
    let known_after = match order {
        Endian::BigIf(c) => {
            let n = names.len();
            check_expr(cx, c, "endian", &names, n, false, has_ctx, type_name);
            let (used, _) = crate::place::names_in(c);
            used.iter()
                .filter_map(|u| names.iter().position(|n| u == n))
                .max()
        }
        _ => None,
    };
    for (i, f) in fields.fields.iter_mut().enumerate() {
        if f.attrs.has("endian") || f.from_tag {
            continue;
        }
        let Some(s) = f.shape.as_mut() else { continue };
        if !has_numbers(s) || !order_matters(s) {
            continue;
        }
        if s.pos.is_some() {
            cx.error_spanned_by(
                f.ty,
                format!(
                    "`{}` is positioned (`pos`), and a positioned value is read little-endian: \
                     a struct with a byte order of its own cannot hold a positioned number yet \
                     (put the value in a record type of its own)",
                    f.name
                ),
            );
            continue;
        }
        // Another container's list is read through its own impls, in little-endian.
        if generic_inner(f.ty, "Vec").is_none() && !matches!(s.repeat, Repeat::One) {
            continue;
        }
        if let Some(k) = known_after {
            if i <= k {
                cx.error_spanned_by(
                    f.ty,
                    format!(
                        "`{}` is read before the byte order of `{type_name}` is known (its \
                         `endian` condition reads `{}`): give it a byte order of its own \
                         (`#[mmd(endian = little)]` or `big`)",
                        f.name, names[k]
                    ),
                );
                continue;
            }
        }
        if let Some(why) = unrenderable_choice(order, s) {
            cx.error_spanned_by(f.ty, format!("`{}`: {why}", f.name));
            continue;
        }
        s.endian = order.clone();
    }
}

/// Why a byte order chosen by a condition cannot be stated for this field in the Kaitai
/// reference (where the choice is a `switch-on` in the field's own type), if it cannot.
fn unrenderable_choice(order: &Endian, s: &Shape) -> Option<&'static str> {
    if !matches!(order, Endian::BigIf(_)) {
        return None;
    }
    let array = match &s.value_ty {
        syn::Type::Array(a) => Some(&*a.elem),
        _ => None,
    };
    let eof = matches!(s.presence, Presence::UnlessEof | Presence::IfUnlessEof(_));
    match array {
        Some(syn::Type::Array(_)) => Some(
            "a byte order chosen by a condition cannot be stated for an array of arrays (Kaitai \
             would read each inner array in a helper type, where the condition's fields are \
             out of reach): choose `big` or `little`, or use a Vec of numbers",
        ),
        Some(_) if !matches!(s.repeat, Repeat::One) => Some(
            "a byte order chosen by a condition cannot be stated for a list of arrays (Kaitai \
             would read each array in a helper type, where the condition's fields are out of \
             reach): choose `big` or `little`, or use a Vec of numbers",
        ),
        _ if eof && matches!(s.repeat, Repeat::Count(_)) => Some(
            "a byte order chosen by a condition cannot be stated for a counted `unless_eof` \
             field (Kaitai reads its count inside a block type, where the condition's fields \
             are out of reach): choose `big` or `little`",
        ),
        _ => None,
    }
}
