//! Checks the model and fills in the shapes codegen relies on. Every problem is recorded
//! in the [`Ctxt`]; checking carries on so that all of them are reported.

use crate::ast::{
    generic_inner, type_text, Container, Data, Field, Fields, Presence, Repeat, Shape, Style,
    TagKind, TagSpec, TagValue,
};
use crate::ctxt::Ctxt;
use syn::visit::Visit;
use syn::{Expr, Ident};

const COUNT_TYPES: &[&str] = &["u8", "u16", "u32", "u64", "i8", "i16", "i32"];

pub fn check(cx: &Ctxt, cont: &mut Container) {
    if !cont.original.generics.params.is_empty() {
        cx.error_spanned_by(
            &cont.original.generics,
            "`#[derive(Mmd)]` does not support generic types: a format type has one layout",
        );
    }
    let declared_ctx = cont.attrs.ctx.is_some();
    let type_name = cont.ident.to_string();
    match &mut cont.data {
        Data::Struct(fields) => {
            for (key, span) in [
                ("tag", cont.attrs.tag.as_ref().map(|a| a.span())),
                (
                    "selected_by",
                    cont.attrs.selected_by.as_ref().map(|a| a.span()),
                ),
                ("name", cont.attrs.name.as_ref().map(|a| a.span())),
            ] {
                if let Some(span) = span {
                    cx.syn_error(syn::Error::new(
                        span,
                        format!("`{key}` belongs on an enum, not on a struct"),
                    ));
                }
            }
            check_fields(cx, fields, declared_ctx, &type_name, true);
        }
        Data::Enum(variants) => {
            let tag = check_tag_spec(cx, cont.ident, &cont.attrs);
            if variants.is_empty() {
                cx.error_spanned_by(cont.ident, "an mmd enum needs at least one variant");
            }
            let mut seen: Vec<(TagValue, String)> = Vec::new();
            for v in variants.iter_mut() {
                check_fields(cx, &mut v.fields, declared_ctx, &type_name, false);
                let Some(tag_attr) = &v.attrs.tag else {
                    if v.attrs.poisoned {
                        continue;
                    }
                    cx.error_spanned_by(
                        v.ident,
                        format!("variant `{}` needs a tag value: `#[mmd(tag = 0)]`", v.ident),
                    );
                    continue;
                };
                let Some(spec) = &tag else { continue };
                let Some(value) = tag_value(cx, &tag_attr.value, spec) else {
                    continue;
                };
                if let Some((_, other)) = seen.iter().find(|(t, _)| *t == value) {
                    cx.error_spanned_by(
                        &tag_attr.value,
                        format!(
                            "tag {} is already used by variant `{other}`",
                            value.display()
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

fn check_tag_spec(
    cx: &Ctxt,
    ident: &Ident,
    attrs: &crate::attr::ContainerAttrs,
) -> Option<TagSpec> {
    let name = attrs
        .name
        .as_ref()
        .map(|n| n.value.value())
        .unwrap_or_else(|| format!("{ident} tag"));
    match (&attrs.tag, &attrs.selected_by) {
        (Some(t), Some(s)) => {
            cx.syn_error(syn::Error::new(
                s.span(),
                "`tag` and `selected_by` conflict: the tag is either read from the file \
                 (`tag = u8`) or computed by the enclosing struct (`selected_by = bool`)",
            ));
            let _ = t;
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
        (Some(t), None) => match TagKind::from_type(&t.value) {
            Some(TagKind::Bool) | None => {
                cx.error_spanned_by(
                    &t.value,
                    format!(
                        "a tag read from the file must be an integer type \
                         (u8, u16, u32, i8, i16, i32), not `{}`",
                        type_text(&t.value)
                    ),
                );
                None
            }
            Some(kind) => Some(TagSpec {
                ty: t.value.clone(),
                kind,
                read: true,
                name,
            }),
        },
        (None, Some(s)) => match TagKind::from_type(&s.value) {
            None => {
                cx.error_spanned_by(
                    &s.value,
                    format!(
                        "a selector must be `bool` or an integer type, not `{}`",
                        type_text(&s.value)
                    ),
                );
                None
            }
            Some(kind) => Some(TagSpec {
                ty: s.value.clone(),
                kind,
                read: false,
                name,
            }),
        },
    }
}

fn tag_value(cx: &Ctxt, e: &Expr, spec: &TagSpec) -> Option<TagValue> {
    let (value, neg) = match e {
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

/// Single-identifier paths used in an expression (`flags`, `ctx`), in order.
struct Idents(Vec<Ident>, Vec<proc_macro2::Span>);

impl<'ast> Visit<'ast> for Idents {
    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if p.qself.is_none() {
            if let Some(id) = p.path.get_ident() {
                self.0.push(id.clone());
            }
        }
        syn::visit::visit_expr_path(self, p);
    }
    fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
        if let Expr::Path(p) = &*f.base {
            if p.path.is_ident("self") {
                self.1.push(syn::spanned::Spanned::span(&p.path));
            }
        }
        syn::visit::visit_expr_field(self, f);
    }
}

fn check_expr(
    cx: &Ctxt,
    e: &Expr,
    keyword: &str,
    fields: &[String],
    here: usize,
    has_ctx: bool,
    type_name: &str,
) {
    let mut v = Idents(Vec::new(), Vec::new());
    v.visit_expr(e);
    for span in v.1 {
        cx.syn_error(syn::Error::new(
            span,
            format!("use earlier fields by name in `{keyword}`, not through `self`"),
        ));
    }
    for id in v.0 {
        let name = id.to_string();
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
            if pos >= here {
                let what = if pos == here {
                    "this field itself"
                } else {
                    "a later field"
                };
                cx.error_spanned_by(
                    &id,
                    format!(
                        "`{name}` is {what}: `{keyword}` may only use fields read before this one"
                    ),
                );
            }
        }
    }
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
        let shape = field_shape(cx, f, i + 1 == n);
        for (keyword, e) in [
            ("len", f.attrs.len.as_ref().map(|a| &a.value)),
            ("if", f.attrs.cond.as_ref().map(|a| &a.value)),
            ("select", f.attrs.select.as_ref().map(|a| &a.value)),
        ] {
            if let Some(e) = e {
                check_expr(cx, e, keyword, &names, i, has_ctx, type_name);
            }
        }
        if let Some(sw) = &f.attrs.switch_ctx {
            // The new context is computed after this field, so the field itself may be used.
            check_expr(
                cx,
                &sw.value,
                "switch_ctx",
                &names,
                i + 1,
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
        f.shape = shape;
    }
}

fn field_shape(cx: &Ctxt, f: &Field, is_last: bool) -> Option<Shape> {
    let a = &f.attrs;
    // Conflicting directives. A conflict is one mistake: report it once and check this
    // field no further (its type would only draw follow-on errors).
    let mut conflict = false;
    if let (Some(_), Some(l)) = (&a.count, &a.len) {
        cx.syn_error(syn::Error::new(
            l.span(),
            "`count` and `len` conflict: either a count precedes the elements (`count = i32`) \
             or an expression gives their number (`len = expr`)",
        ));
        conflict = true;
    }
    if a.rest.is_some() {
        let others = [
            ("count", a.count.as_ref().map(|x| x.span())),
            ("len", a.len.as_ref().map(|x| x.span())),
            ("if", a.cond.as_ref().map(|x| x.span())),
            ("unless_eof", a.unless_eof.as_ref().map(|x| x.span())),
            ("select", a.select.as_ref().map(|x| x.span())),
        ];
        for (key, span) in others {
            if let Some(span) = span {
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`rest` and `{key}` conflict: `rest` takes every byte up to the end of \
                         the input, always (possibly none), so its field has no other directive"
                    ),
                ));
                conflict = true;
            }
        }
    }
    if let Some(s) = &a.select {
        for (key, present) in [("count", a.count.is_some()), ("len", a.len.is_some())] {
            if present {
                cx.syn_error(syn::Error::new(
                    s.span(),
                    format!(
                        "`select` and `{key}` conflict: `select` picks the variant of one enum \
                         value, not of each element of a Vec"
                    ),
                ));
                conflict = true;
            }
        }
    }
    if conflict {
        return None;
    }
    let mut ok = true;
    if let Some(r) = &a.rest {
        if !is_last {
            cx.syn_error(syn::Error::new(
                r.span(),
                "`rest` must be on the last field: it takes every byte up to the end of the input",
            ));
            ok = false;
        }
    }
    // Presence: Option<..>.
    let optional = a.cond.is_some() || a.unless_eof.is_some();
    let mut ty = f.ty;
    if optional {
        match generic_inner(ty, "Option") {
            Some(inner) => ty = inner,
            None => {
                let key = if a.cond.is_some() { "if" } else { "unless_eof" };
                let span = a
                    .cond
                    .as_ref()
                    .map(|c| c.span())
                    .or(a.unless_eof.as_ref().map(|c| c.span()));
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
    let repeat = if let Some(c) = &a.count {
        let name = type_text(&c.value);
        if !COUNT_TYPES.contains(&name.as_str()) {
            cx.error_spanned_by(
                &c.value,
                format!(
                    "a count must be one of {}; `{name}` is not",
                    COUNT_TYPES.join(", ")
                ),
            );
            ok = false;
        }
        Repeat::Count(c.value.clone())
    } else if let Some(l) = &a.len {
        Repeat::Len(l.value.clone())
    } else if a.rest.is_some() {
        Repeat::Rest
    } else {
        Repeat::One
    };
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
        Repeat::Count(_) | Repeat::Len(_) => match generic_inner(ty, "Vec") {
            Some(inner) => inner.clone(),
            None => {
                let (key, span) = match &a.count {
                    Some(c) => ("count", c.span()),
                    None => (
                        "len",
                        a.len
                            .as_ref()
                            .map_or_else(proc_macro2::Span::call_site, |l| l.span()),
                    ),
                };
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`{key}` belongs on a Vec field; `{}` is not a Vec",
                        type_text(ty)
                    ),
                ));
                ok = false;
                ty.clone()
            }
        },
        Repeat::Rest => {
            let is_bytes = generic_inner(ty, "Vec").map(type_text).as_deref() == Some("u8");
            if !is_bytes {
                cx.syn_error(syn::Error::new(
                    a.rest
                        .as_ref()
                        .map(|r| r.span())
                        .unwrap_or_else(proc_macro2::Span::call_site),
                    format!(
                        "`rest` belongs on a Vec<u8> field; `{}` is not one",
                        type_text(ty)
                    ),
                ));
                ok = false;
            }
            ty.clone()
        }
    };
    let presence = match (&a.cond, &a.unless_eof) {
        (Some(c), Some(_)) => Presence::IfUnlessEof(c.value.clone()),
        (Some(c), None) => Presence::If(c.value.clone()),
        (None, Some(_)) => Presence::UnlessEof,
        (None, None) => Presence::Always,
    };
    ok.then(|| Shape {
        presence,
        repeat,
        value_ty,
        select: a.select.as_ref().map(|s| s.value.clone()),
        switch_ctx: a.switch_ctx.as_ref().map(|s| s.value.clone()),
    })
}
