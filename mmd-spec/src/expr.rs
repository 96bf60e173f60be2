//! Translates the expressions of the layout descriptors (the typed tree the derive builds
//! from the source, [`mmd_formats::layout::Expr`]) into Kaitai Struct expressions.
//!
//! Every node of the tree has a Kaitai form but for a few that depend on the
//! environment: a name that is not an earlier field, a context member the type cannot
//! reach, a flag constant of a type the format does not hold, `contains` on something
//! that is not a flag field. Those are errors that name the expression, so a condition
//! is never dropped.

use mmd_formats::layout::{
    BinOp, Body, Expr, Expression, FieldLayout, Helper, Prim, Repeat, Shape, TypeLayout, UnOp,
};

/// What the translator needs to know about the place an expression is evaluated.
pub trait Env {
    /// An earlier field of the same record: its Kaitai reference and, for a flag field,
    /// its flag type.
    fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)>;
    /// A context member (`is_v21`, `morphs`) as a Kaitai
    /// expression, or `None` when the context has no such member.
    fn ctx_member(&self, path: &str) -> Option<String>;
    /// Why a member the context has cannot be used here (it is switched in a type this
    /// one cannot reach), when [`Env::ctx_member`] gives `None` for that reason. By
    /// default, no reason.
    fn ctx_unreachable(&self, path: &str) -> Option<String> {
        let _ = path;
        None
    }
    /// The flag type of this name (`BoneFlags`).
    fn flags_type(&self, name: &str) -> Option<&'static TypeLayout>;
    /// What the name (an earlier field, a parameter) holds, when known. By default,
    /// unknown.
    fn name_ty(&self, name: &str) -> Option<Ty> {
        let _ = name;
        None
    }
    /// What a context member holds, when known. By default, unknown.
    fn ctx_ty(&self, name: &str) -> Option<Ty> {
        let _ = name;
        None
    }
    /// In the condition of an `until` list, the shape of its elements
    /// ([`Expr::Element`], Kaitai's `_`). By default, not in one.
    fn element(&self) -> Option<Shape> {
        None
    }
    /// In the position and size of a positioned list, how the index of the element being
    /// placed is written ([`Expr::ItemIndex`]). By default, not in one.
    fn item_index(&self) -> Option<String> {
        None
    }
    /// The record `levels` up from the one whose expression this is (1: the record that
    /// holds it, [`Expr::Parent`], Kaitai's `_parent`), when it names one. By default,
    /// none.
    fn parent(&self, levels: u32) -> Option<&'static TypeLayout> {
        let _ = levels;
        None
    }
    /// The condition of an earlier field that is present only when it holds
    /// (`#[mmd(if = ...)]`), for `x.unwrap_or(d)`. By default, none is known.
    fn condition(&self, name: &str) -> Option<&'static Expr> {
        let _ = name;
        None
    }
}

/// The record `levels` up from `here`, following each record's [`TypeLayout::parent`].
pub fn parent_of(here: &'static TypeLayout, levels: u32) -> Option<&'static TypeLayout> {
    let mut at = here;
    for _ in 0..levels {
        at = (at.parent?)()?;
    }
    Some(at)
}

/// The environment of an `until` condition: `inner`'s, with the element just read.
pub struct WithElement<'a> {
    /// The record's environment.
    pub inner: &'a dyn Env,
    /// The shape of the list's elements.
    pub shape: Shape,
}

impl Env for WithElement<'_> {
    fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
        self.inner.field(name)
    }
    fn ctx_member(&self, path: &str) -> Option<String> {
        self.inner.ctx_member(path)
    }
    fn ctx_unreachable(&self, path: &str) -> Option<String> {
        self.inner.ctx_unreachable(path)
    }
    fn flags_type(&self, name: &str) -> Option<&'static TypeLayout> {
        self.inner.flags_type(name)
    }
    fn name_ty(&self, name: &str) -> Option<Ty> {
        self.inner.name_ty(name)
    }
    fn ctx_ty(&self, name: &str) -> Option<Ty> {
        self.inner.ctx_ty(name)
    }
    fn condition(&self, name: &str) -> Option<&'static Expr> {
        self.inner.condition(name)
    }
    fn element(&self) -> Option<Shape> {
        Some(self.shape)
    }
    fn item_index(&self) -> Option<String> {
        self.inner.item_index()
    }
    fn parent(&self, levels: u32) -> Option<&'static TypeLayout> {
        self.inner.parent(levels)
    }
}

/// What a part of an expression holds, as far as the renderer needs to know: Rust and
/// Kaitai divide, take remainders and cast differently by kind.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// An integer that is never negative (an unsigned type, a literal, a length).
    Unsigned,
    /// A signed integer.
    Signed,
    /// A float.
    Float,
    /// A `bool`.
    Bool,
    /// One value of this shape (a record, an array).
    Value(Shape),
    /// A sequence of values of this shape (a counted or `len` field, `rest`).
    Seq(Shape),
}

impl Ty {
    /// What a field holds.
    pub fn of_field(f: &FieldLayout) -> Ty {
        match f.repeat {
            Repeat::One => Ty::Value((f.shape)()).kind(),
            _ => Ty::Seq((f.shape)()),
        }
    }

    /// What a value of the Rust type `name` (`u8`, `f32`, `bool`) is.
    pub fn of_name(name: &str) -> Option<Ty> {
        Some(match name {
            "u8" | "u16" | "u32" | "u64" | "usize" => Ty::Unsigned,
            "i8" | "i16" | "i32" | "i64" | "isize" => Ty::Signed,
            "f32" | "f64" => Ty::Float,
            "bool" => Ty::Bool,
            _ => return None,
        })
    }

    /// A number's kind for a number shape.
    fn kind(self) -> Ty {
        match self {
            Ty::Value(Shape::Prim(Prim::Bool)) => Ty::Bool,
            Ty::Value(Shape::Prim(p)) if p.is_float() => Ty::Float,
            Ty::Value(Shape::Prim(p)) if p.is_signed() => Ty::Signed,
            Ty::Value(Shape::Prim(_)) => Ty::Unsigned,
            other => other,
        }
    }

    fn is(self, want: fn(Ty) -> bool) -> bool {
        want(self.kind())
    }
}

/// The kind of `a OP b` for an arithmetic operator: a float if either is one, signed if
/// either is, unsigned when both are.
fn merge(a: Option<Ty>, b: Option<Ty>) -> Option<Ty> {
    let (a, b) = (a?.kind(), b?.kind());
    match (a, b) {
        (Ty::Float, _) | (_, Ty::Float) => Some(Ty::Float),
        (Ty::Signed, Ty::Signed | Ty::Unsigned) | (Ty::Unsigned, Ty::Signed) => Some(Ty::Signed),
        (Ty::Unsigned, Ty::Unsigned) => Some(Ty::Unsigned),
        _ => None,
    }
}

/// What `e` holds, when the environment tells.
pub fn ty_of(env: &dyn Env, e: &Expr) -> Option<Ty> {
    Some(match e {
        Expr::Int(_) => Ty::Unsigned,
        Expr::Float(_) => Ty::Float,
        Expr::Bool(_) => Ty::Bool,
        Expr::Bytes(_) | Expr::Flag { .. } => return None,
        Expr::Name(n) => return env.name_ty(n),
        Expr::Element => Ty::Value(env.element()?).kind(),
        Expr::ItemIndex => Ty::Unsigned,
        Expr::Parent(n) => Ty::Value(Shape::Type(env.parent(*n)?)),
        Expr::Ctx(m) => return env.ctx_ty(m),
        Expr::Field(base, name) => match ty_of(env, base)? {
            Ty::Value(Shape::Type(l)) => match &l.body {
                Body::Struct(fields) => Ty::of_field(fields.iter().find(|f| f.name == *name)?),
                _ => return None,
            },
            _ => return None,
        },
        Expr::Index(base, _) => match ty_of(env, base)? {
            Ty::Seq(s) => Ty::Value(s).kind(),
            Ty::Value(Shape::Array { elem, .. }) => Ty::Value(elem()).kind(),
            _ => return None,
        },
        Expr::Unary(UnOp::Neg, a) => match ty_of(env, a)?.kind() {
            Ty::Float => Ty::Float,
            _ => Ty::Signed,
        },
        Expr::Unary(UnOp::Not, a) => ty_of(env, a)?.kind(),
        Expr::Binary(op, a, b) => match op {
            BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::And
            | BinOp::Or => Ty::Bool,
            BinOp::Shl | BinOp::Shr => ty_of(env, a)?.kind(),
            _ => return merge(ty_of(env, a), ty_of(env, b)),
        },
        Expr::If(_, a, b) => return merge(ty_of(env, a), ty_of(env, b)),
        Expr::Cast(_, t) => return Ty::of_name(t),
        Expr::Call(h, args) => match h {
            Helper::Len | Helper::SaturatingSub => Ty::Unsigned,
            Helper::Contains | Helper::Intersects | Helper::StartsWith => Ty::Bool,
            Helper::Min | Helper::Max => {
                return merge(ty_of(env, args.first()?), ty_of(env, args.get(1)?))
            }
            Helper::Abs => ty_of(env, args.first()?)?.kind(),
            Helper::UnwrapOr => return merge(ty_of(env, args.first()?), ty_of(env, args.get(1)?)),
        },
    })
}

/// A translated value.
enum V {
    /// A Kaitai expression; `atomic` when it needs no parentheses as an operand.
    Expr { text: String, atomic: bool },
    /// A flag field (`flags`), whose raw integer is `<text>.bits`.
    Flags {
        text: String,
        ty: &'static TypeLayout,
    },
    /// A set of named bits of a flag type.
    Bits {
        ty: &'static TypeLayout,
        mask: u64,
        names: Vec<&'static str>,
    },
}

impl V {
    fn expr(self) -> Result<String, String> {
        match self {
            V::Expr { text, .. } => Ok(text),
            V::Flags { text, .. } => Ok(format!("{text}.bits")),
            V::Bits { mask, .. } => Ok(format!("{mask:#06x}")),
        }
    }

    fn operand(self) -> Result<String, String> {
        match self {
            V::Expr {
                text,
                atomic: false,
            } => Ok(format!("({text})")),
            other => other.expr(),
        }
    }
}

fn atom(text: String) -> V {
    V::Expr { text, atomic: true }
}

fn compound(text: String) -> V {
    V::Expr {
        text,
        atomic: false,
    }
}

/// The Kaitai instance name of a flag bit (`TAIL_IS_BONE` → `tail_is_bone`).
pub fn bit_id(name: &str) -> String {
    name.to_ascii_lowercase()
}

fn flags_of(v: &V) -> Option<(&str, &'static TypeLayout)> {
    match v {
        V::Flags { text, ty } => Some((text, ty)),
        _ => None,
    }
}

fn method(env: &dyn Env, helper: Helper, args: &[Expr]) -> Result<V, String> {
    let name = helper.name();
    let [recv, rest @ ..] = args else {
        return Err(format!("`{name}` without a receiver"));
    };
    match (helper, rest) {
        (Helper::Contains | Helper::Intersects, [arg]) => {
            let recv = translate_e(env, recv)?;
            let (field, fty) =
                flags_of(&recv).ok_or_else(|| format!("`{name}` on something not a flag field"))?;
            let field = field.to_string();
            match translate_e(env, arg)? {
                V::Bits { ty, mask, names } if std::ptr::eq(ty, fty) => {
                    if names.len() == 1 {
                        return Ok(atom(format!("{field}.{}", bit_id(names[0]))));
                    }
                    Ok(compound(if helper == Helper::Contains {
                        format!("({field}.bits & {mask:#06x}) == {mask:#06x}")
                    } else {
                        format!("({field}.bits & {mask:#06x}) != 0")
                    }))
                }
                _ => Err(format!(
                    "`{name}` needs bits of {} as its argument",
                    fty.name
                )),
            }
        }
        (Helper::SaturatingSub, [arg]) => {
            let x = translate_e(env, recv)?.operand()?;
            let n = translate_e(env, arg)?.operand()?;
            Ok(atom(format!("({x} > {n} ? {x} - {n} : 0)")))
        }
        (Helper::Len, []) => Ok(atom(format!("{}.size", translate_e(env, recv)?.operand()?))),
        (Helper::StartsWith, [Expr::Bytes(prefix)]) => {
            // Kaitai compares strings, not byte arrays: every byte maps to one character
            // in ISO-8859-1, so the prefix compares byte for byte.
            if !prefix
                .iter()
                .all(|b| (0x20..0x7f).contains(b) && *b != b'"' && *b != b'\\')
            {
                return Err("`starts_with` of bytes other than printable ASCII".to_string());
            }
            let x = translate_e(env, recv)?.operand()?;
            Ok(compound(format!(
                "{x}.to_s(\"ISO-8859-1\").substring(0, {}) == \"{}\"",
                prefix.len(),
                String::from_utf8_lossy(prefix)
            )))
        }
        (Helper::Min | Helper::Max, [arg]) => {
            let a = translate_e(env, recv)?.operand()?;
            let b = translate_e(env, arg)?.operand()?;
            let cmp = if helper == Helper::Min { "<" } else { ">" };
            Ok(atom(format!("({a} {cmp} {b} ? {a} : {b})")))
        }
        (Helper::Abs, []) => Ok(atom(abs(&translate_e(env, recv)?.operand()?))),
        (Helper::UnwrapOr, [arg]) => {
            // The field is null in Kaitai where it is absent: the value is chosen by the
            // field's own condition, never read when it does not hold.
            let Expr::Name(field) = recv else {
                return Err("`unwrap_or` on something other than an earlier field".to_string());
            };
            let cond = env.condition(field).ok_or_else(|| {
                format!("`unwrap_or` on `{field}`, which is not a field with `if = ...`")
            })?;
            // The ternary binds loosest: the condition needs no parentheses.
            let c = translate_e(env, cond)?.expr()?;
            let x = translate_e(env, recv)?.operand()?;
            let d = translate_e(env, arg)?.operand()?;
            Ok(atom(format!("({c} ? {x} : {d})")))
        }
        _ => Err(format!("`{name}` with {} argument(s)", rest.len())),
    }
}

/// `|x|` in Kaitai terms (`x` an operand).
fn abs(x: &str) -> String {
    format!("({x} < 0 ? -{x} : {x})")
}

/// The Kaitai form of a binary operator (the same as Rust's but for `and`, `or`).
fn kaitai_op(op: BinOp) -> &'static str {
    match op {
        BinOp::And => "and",
        BinOp::Or => "or",
        other => other.symbol(),
    }
}

fn translate_e(env: &dyn Env, e: &Expr) -> Result<V, String> {
    match e {
        Expr::Ctx(name) => {
            if let Some(why) = env.ctx_unreachable(name) {
                return Err(why);
            }
            env.ctx_member(name)
                .map(atom)
                .ok_or_else(|| format!("the context has no member `ctx.{name}`"))
        }
        Expr::Int(v) => Ok(atom(v.to_string())),
        Expr::Float(v) => Ok(atom(v.to_string())),
        Expr::Bool(b) => Ok(atom(b.to_string())),
        Expr::Bytes(_) => Err("a byte string outside `starts_with`".to_string()),
        Expr::Index(base, i) => {
            let b = translate_e(env, base)?.operand()?;
            let i = translate_e(env, i)?.expr()?;
            Ok(atom(format!("{b}[{i}]")))
        }
        Expr::If(c, a, b) => {
            let c = translate_e(env, c)?.operand()?;
            let a = translate_e(env, a)?.operand()?;
            let b = translate_e(env, b)?.operand()?;
            Ok(atom(format!("({c} ? {a} : {b})")))
        }
        Expr::Element => match env.element() {
            Some(_) => Ok(atom("_".to_string())),
            None => Err("the element just read is named only in an `until` condition".to_string()),
        },
        Expr::ItemIndex => match env.item_index() {
            Some(i) => Ok(atom(i)),
            None => Err(
                "`_index` is named only in the position and size of a positioned list".to_string(),
            ),
        },
        Expr::Parent(n) => {
            env.parent(*n).ok_or_else(|| no_parent(*n))?;
            Ok(atom(vec!["_parent"; *n as usize].join(".")))
        }
        // A field of an enclosing record: a flag field stays one, for `contains`.
        Expr::Field(Expr::Parent(n), name) => {
            let up = env.parent(*n).ok_or_else(|| no_parent(*n))?;
            let Body::Struct(fields) = &up.body else {
                return Err(format!(
                    "the enclosing record `{}` is not a struct",
                    up.name
                ));
            };
            let f = fields.iter().find(|f| f.name == *name).ok_or_else(|| {
                format!("the enclosing record `{}` has no field `{name}`", up.name)
            })?;
            let text = format!("{}.{name}", vec!["_parent"; *n as usize].join("."));
            match (f.layout)().filter(|l| matches!(l.body, Body::Flags { .. })) {
                Some(ty) => Ok(V::Flags { text, ty }),
                None => Ok(atom(text)),
            }
        }
        Expr::Name(n) => match env.field(n) {
            Some((text, Some(ty))) => Ok(V::Flags { text, ty }),
            Some((text, None)) if is_path(&text) => Ok(atom(text)),
            Some((text, None)) => Ok(compound(text)),
            None => Err(format!("`{n}` is not an earlier field of this record")),
        },
        Expr::Flag { ty: tname, name } => {
            let ty = env
                .flags_type(tname)
                .ok_or_else(|| format!("`{tname}` is not a flag type of this format"))?;
            let Body::Flags { bits, .. } = &ty.body else {
                return Err(format!("`{tname}` is not a flag type"));
            };
            let bit = bits
                .iter()
                .find(|b| b.name == *name)
                .ok_or_else(|| format!("{tname} has no bit `{name}`"))?;
            Ok(V::Bits {
                ty,
                mask: bit.mask,
                names: vec![bit.name],
            })
        }
        Expr::Field(base, name) => match translate_e(env, base)? {
            V::Expr { text, atomic: true } => Ok(atom(format!("{text}.{name}"))),
            V::Expr { text, .. } => Ok(atom(format!("({text}).{name}"))),
            _ => Err(format!("unsupported field access `.{name}` on flags")),
        },
        Expr::Call(helper, args) => method(env, *helper, args),
        // `!` is logical of a `bool` (and of what the renderer cannot tell), bitwise of an
        // integer.
        Expr::Unary(UnOp::Not, inner) => {
            let int =
                ty_of(env, inner).is_some_and(|t| t.is(|k| matches!(k, Ty::Signed | Ty::Unsigned)));
            let op = if int { "~" } else { "not " };
            Ok(compound(format!(
                "{op}{}",
                translate_e(env, inner)?.operand()?
            )))
        }
        Expr::Unary(UnOp::Neg, inner) => Ok(compound(format!(
            "-{}",
            translate_e(env, inner)?.operand()?
        ))),
        // Between integers a cast keeps the value (or the read fails), which is the
        // value Kaitai computes with; a float becomes an integer by dropping its fraction
        // (`to_i`), an integer a float by a float product.
        Expr::Cast(inner, target) => {
            let from_float = ty_of(env, inner).is_some_and(|t| t.is(|k| matches!(k, Ty::Float)));
            let to_float = matches!(Ty::of_name(target), Some(Ty::Float));
            let v = translate_e(env, inner)?;
            match (from_float, to_float) {
                (true, false) => Ok(atom(format!("{}.to_i", v.operand()?))),
                (false, true) => Ok(atom(format!("({} * 1.0)", v.operand()?))),
                _ => Ok(v),
            }
        }
        Expr::Binary(op @ (BinOp::Div | BinOp::Rem), a, b) => {
            let unsigned =
                |e: &Expr| ty_of(env, e).is_some_and(|t| t.is(|k| matches!(k, Ty::Unsigned)));
            let (ua, ub) = (unsigned(a), unsigned(b));
            let (a, b) = (
                translate_e(env, a)?.operand()?,
                translate_e(env, b)?.operand()?,
            );
            let sym = op.symbol();
            if ua && ub {
                return Ok(compound(format!("{a} {sym} {b}")));
            }
            // Rust divides toward 0 and its remainder takes the dividend's sign; Kaitai
            // floors (and its `%` is never negative). On magnitudes the two agree, so
            // the result is the magnitudes' quotient (remainder) with Rust's sign.
            let mag = |x: &str, u: bool| if u { x.to_string() } else { abs(x) };
            let (abs_a, abs_b) = (mag(&a, ua), mag(&b, ub));
            let neg = |x: &str, u: bool| {
                if u {
                    "false".to_string()
                } else {
                    format!("{x} < 0")
                }
            };
            let (na, nb) = (neg(&a, ua), neg(&b, ub));
            Ok(atom(match (op, ua, ub) {
                (BinOp::Rem, true, _) => format!("({abs_a} % {abs_b})"),
                (BinOp::Rem, false, _) => {
                    format!("({na} ? -({abs_a} % {abs_b}) : {abs_a} % {abs_b})")
                }
                (_, false, true) => format!("({na} ? -({abs_a} / {b}) : {a} / {b})"),
                (_, true, false) => format!("({nb} ? -({a} / {abs_b}) : {a} / {b})"),
                _ => format!("(({na}) == ({nb}) ? {abs_a} / {abs_b} : -({abs_a} / {abs_b}))"),
            }))
        }
        Expr::Binary(op, a, b) => {
            let a = translate_e(env, a)?;
            let b = translate_e(env, b)?;
            if *op == BinOp::BitOr {
                if let (
                    V::Bits {
                        ty: ta,
                        mask: ma,
                        names: na,
                    },
                    V::Bits {
                        ty: tb,
                        mask: mb,
                        names: nb,
                    },
                ) = (&a, &b)
                {
                    if std::ptr::eq(*ta, *tb) {
                        return Ok(V::Bits {
                            ty: ta,
                            mask: ma | mb,
                            names: na.iter().chain(nb).copied().collect(),
                        });
                    }
                    return Err("`|` of bits of two flag types".to_string());
                }
            }
            Ok(compound(format!(
                "{} {} {}",
                a.operand()?,
                kaitai_op(*op),
                b.operand()?
            )))
        }
    }
}

/// True for a plain name or a path of names (`header.globals`), which needs no
/// parentheses as an operand.
fn is_path(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Translates one expression; the error says why it has no Kaitai form.
pub fn translate(env: &dyn Env, expr: &Expression) -> Result<String, String> {
    translate_e(env, expr.tree)
        .and_then(V::expr)
        .map_err(|why| format!("cannot translate `{}`: {why}", expr.text))
}

/// The message for a `parent` that names no record.
fn no_parent(levels: u32) -> String {
    if levels == 1 {
        "`parent` names the enclosing record, and this type names none".to_string()
    } else {
        format!("`parent` {levels} levels up names a record that does not exist")
    }
}

/// True when `e` reads a member of the context.
pub fn mentions_ctx(e: &Expr) -> bool {
    match e {
        Expr::Ctx(_) => true,
        Expr::Int(_)
        | Expr::Float(_)
        | Expr::Bool(_)
        | Expr::Bytes(_)
        | Expr::Name(_)
        | Expr::Element
        | Expr::ItemIndex
        | Expr::Parent(_)
        | Expr::Flag { .. } => false,
        Expr::Field(a, _) | Expr::Unary(_, a) | Expr::Cast(a, _) => mentions_ctx(a),
        Expr::Index(a, b) | Expr::Binary(_, a, b) => mentions_ctx(a) || mentions_ctx(b),
        Expr::If(c, a, b) => mentions_ctx(c) || mentions_ctx(a) || mentions_ctx(b),
        Expr::Call(_, args) => args.iter().any(mentions_ctx),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmd_formats::layout::Describe;
    use mmd_formats::pmx::BoneFlags;

    struct T;
    impl Env for T {
        fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
            match name {
                "flags" => Some(("flags".into(), BoneFlags::layout())),
                "has_limit" | "count" | "header" | "signature" => Some((name.into(), None)),
                "arg" => Some(("a + b".into(), None)),
                _ => None,
            }
        }
        fn ctx_member(&self, path: &str) -> Option<String> {
            match path {
                "is_v21" => Some("_root.is_v21".into()),
                "morphs" => Some("_root.morph_count".into()),
                _ => None,
            }
        }
        fn flags_type(&self, name: &str) -> Option<&'static TypeLayout> {
            (name == "BoneFlags").then(|| BoneFlags::layout()).flatten()
        }
    }

    // Trees built by hand, as the derive builds them.
    fn leak(e: Expr) -> &'static Expr {
        Box::leak(Box::new(e))
    }
    fn name(n: &'static str) -> &'static Expr {
        leak(Expr::Name(n))
    }
    fn int(v: u64) -> &'static Expr {
        leak(Expr::Int(v))
    }
    fn ctx(n: &'static str) -> &'static Expr {
        leak(Expr::Ctx(n))
    }
    fn bin(op: BinOp, a: &'static Expr, b: &'static Expr) -> &'static Expr {
        leak(Expr::Binary(op, a, b))
    }
    fn flag(name: &'static str) -> &'static Expr {
        leak(Expr::Flag {
            ty: "BoneFlags",
            name,
        })
    }
    fn call(h: Helper, args: Vec<Expr>) -> &'static Expr {
        leak(Expr::Call(h, Box::leak(args.into_boxed_slice())))
    }

    fn tr(tree: &'static Expr) -> Result<String, String> {
        translate(&T, &Expression { text: "E", tree })
    }

    #[test]
    fn translates_the_subset() {
        assert_eq!(
            tr(bin(BinOp::Ne, name("has_limit"), int(0))).unwrap(),
            "has_limit != 0"
        );
        assert_eq!(tr(ctx("is_v21")).unwrap(), "_root.is_v21");
        assert_eq!(
            tr(call(
                Helper::Contains,
                vec![*name("flags"), *flag("TAIL_IS_BONE")]
            ))
            .unwrap(),
            "flags.tail_is_bone"
        );
        let both = bin(
            BinOp::BitOr,
            flag("INHERIT_ROTATION"),
            flag("INHERIT_TRANSLATION"),
        );
        assert_eq!(
            tr(call(Helper::Intersects, vec![*name("flags"), *both])).unwrap(),
            "(flags.bits & 0x0300) != 0"
        );
        assert_eq!(
            tr(call(Helper::SaturatingSub, vec![*ctx("morphs"), *int(1)])).unwrap(),
            "(_root.morph_count > 1 ? _root.morph_count - 1 : 0)"
        );
        let not_v21 = leak(Expr::Unary(UnOp::Not, ctx("is_v21")));
        assert_eq!(
            tr(bin(
                BinOp::And,
                bin(BinOp::Gt, name("count"), int(2)),
                not_v21
            ))
            .unwrap(),
            "(count > 2) and (not _root.is_v21)"
        );
    }

    #[test]
    fn translates_what_contexts_use() {
        let globals = leak(Expr::Field(name("header"), "globals"));
        assert_eq!(
            tr(leak(Expr::Index(globals, int(2)))).unwrap(),
            "header.globals[2]"
        );
        let version = leak(Expr::Field(name("header"), "version"));
        assert_eq!(
            tr(bin(BinOp::Gt, version, leak(Expr::Float("2.05")))).unwrap(),
            "header.version > 2.05"
        );
        assert_eq!(
            tr(call(Helper::Len, vec![*globals])).unwrap(),
            "header.globals.size"
        );
        assert_eq!(
            tr(call(
                Helper::StartsWith,
                vec![*name("signature"), Expr::Bytes(b"VMD")]
            ))
            .unwrap(),
            "signature.to_s(\"ISO-8859-1\").substring(0, 3) == \"VMD\""
        );
        let inner = leak(Expr::If(
            bin(BinOp::Gt, name("count"), int(0)),
            int(2),
            int(0),
        ));
        assert_eq!(
            tr(leak(Expr::If(
                bin(BinOp::Gt, name("count"), int(1)),
                int(1),
                inner
            )))
            .unwrap(),
            "((count > 1) ? 1 : ((count > 0) ? 2 : 0))"
        );
        // An argument put in for a parameter keeps its own grouping.
        assert_eq!(
            tr(bin(BinOp::Mul, name("arg"), int(2))).unwrap(),
            "(a + b) * 2"
        );
        assert_eq!(
            tr(leak(Expr::Field(name("arg"), "size"))).unwrap(),
            "(a + b).size"
        );
    }

    struct Typed;
    impl Env for Typed {
        fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
            Some((name.into(), None))
        }
        fn ctx_member(&self, _: &str) -> Option<String> {
            None
        }
        fn flags_type(&self, _: &str) -> Option<&'static TypeLayout> {
            None
        }
        fn name_ty(&self, name: &str) -> Option<Ty> {
            match name {
                "u" => Some(Ty::Unsigned),
                "i" => Some(Ty::Signed),
                "f" => Some(Ty::Float),
                "b" => Some(Ty::Bool),
                _ => None,
            }
        }
    }

    fn typed(tree: &'static Expr) -> String {
        translate(&Typed, &Expression { text: "E", tree }).unwrap()
    }

    #[test]
    fn renders_by_what_the_values_are() {
        // `!` is bitwise of an integer, logical of a bool.
        assert_eq!(typed(leak(Expr::Unary(UnOp::Not, name("u")))), "~u");
        assert_eq!(typed(leak(Expr::Unary(UnOp::Not, name("b")))), "not b");
        // Unsigned division and remainder are Kaitai's; signed ones keep Rust's sign.
        assert_eq!(typed(bin(BinOp::Div, name("u"), int(4))), "u / 4");
        assert_eq!(typed(bin(BinOp::Rem, name("u"), int(4))), "u % 4");
        assert_eq!(
            typed(bin(BinOp::Rem, name("i"), int(4))),
            "(i < 0 ? -((i < 0 ? -i : i) % 4) : (i < 0 ? -i : i) % 4)"
        );
        assert_eq!(
            typed(bin(BinOp::Div, name("i"), int(4))),
            "(i < 0 ? -((i < 0 ? -i : i) / 4) : i / 4)"
        );
        // Casts: a float loses its fraction, an integer becomes a float, integers keep
        // their value.
        assert_eq!(typed(leak(Expr::Cast(name("f"), "u8"))), "f.to_i");
        assert_eq!(typed(leak(Expr::Cast(name("u"), "f32"))), "(u * 1.0)");
        assert_eq!(typed(leak(Expr::Cast(name("u"), "i64"))), "u");
        // The helpers.
        assert_eq!(
            typed(call(Helper::Min, vec![*name("u"), *int(5)])),
            "(u < 5 ? u : 5)"
        );
        assert_eq!(
            typed(call(Helper::Max, vec![*name("i"), *int(0)])),
            "(i > 0 ? i : 0)"
        );
        assert_eq!(
            typed(call(Helper::Abs, vec![*name("i")])),
            "(i < 0 ? -i : i)"
        );
    }

    #[test]
    fn refuses_what_the_environment_does_not_hold() {
        for (tree, why) in [
            (ctx("widths"), "no member `ctx.widths`"),
            (
                bin(BinOp::Ne, name("later_field"), int(0)),
                "not an earlier field",
            ),
            (flag("NOPE"), "has no bit `NOPE`"),
            (
                leak(Expr::Flag {
                    ty: "Foo",
                    name: "A",
                }),
                "not a flag type of this format",
            ),
            (
                call(
                    Helper::StartsWith,
                    vec![*name("signature"), Expr::Bytes(b"\xe9")],
                ),
                "printable ASCII",
            ),
            (
                call(Helper::Contains, vec![*name("count"), *flag("IK")]),
                "not a flag field",
            ),
            (
                bin(BinOp::Eq, leak(Expr::Bytes(b"x")), name("count")),
                "outside `starts_with`",
            ),
        ] {
            let e = tr(tree).unwrap_err();
            assert!(e.contains(why), "{tree:?}: {e}");
            assert!(e.starts_with("cannot translate `E`: "), "{e}");
        }
    }
}
