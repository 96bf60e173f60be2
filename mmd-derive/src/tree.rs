//! Expressions of the grammar as the tree the descriptors hold (`layout::Expr`): the
//! tokens that build it, or an error spanned at the first part no renderer could state.
//! What this accepts is the expression language; the same source is also compiled as
//! Rust (through `place::checked`), so what is accepted here both runs and renders.

use crate::ast::expr_text;
use crate::paths::Paths;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, UnOp};

/// The helpers (methods of their first argument) and how many arguments each takes
/// after its receiver, with the `layout::Helper` variant.
const HELPERS: &[(&str, usize, &str)] = &[
    ("len", 0, "Len"),
    ("saturating_sub", 1, "SaturatingSub"),
    ("contains", 1, "Contains"),
    ("intersects", 1, "Intersects"),
    ("starts_with", 1, "StartsWith"),
    ("min", 1, "Min"),
    ("max", 1, "Max"),
    ("abs", 0, "Abs"),
    ("unwrap_or", 1, "UnwrapOr"),
];

/// The number types a cast may name.
pub const CAST_TARGETS: &[&str] = &[
    "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
];

/// The note every refusal ends with.
fn language() -> String {
    let helpers: Vec<String> = HELPERS.iter().map(|h| format!("`{}`", h.0)).collect();
    format!(
        "expressions are made of literals, earlier fields (and fields and elements below \
         them), `ctx.member`, flag constants (`Flags::BIT`), Rust's operators, `if .. else \
         ..`, `as` to a number type and the helpers {}, which the reference, the Schema and \
         the .ksy can state",
        helpers.join(", ")
    )
}

fn refuse(at: impl Spanned, what: String) -> syn::Error {
    syn::Error::new(at.span(), format!("{what}: {}", language()))
}

/// `t` without the invisible group of a `macro_rules!` substitution, or parentheses.
fn ungroup(t: &syn::Type) -> &syn::Type {
    match t {
        syn::Type::Group(g) => ungroup(&g.elem),
        syn::Type::Paren(p) => ungroup(&p.elem),
        other => other,
    }
}

/// The name of the number type `t` names, if it is a cast target.
pub fn cast_target(t: &syn::Type) -> Option<String> {
    match ungroup(t) {
        syn::Type::Path(p) if p.qself.is_none() => {
            let id = p.path.get_ident()?.to_string();
            CAST_TARGETS.contains(&id.as_str()).then_some(id)
        }
        _ => None,
    }
}

/// The value of the single expression of a block (`{ a }` of an `if`).
fn block_value(b: &syn::Block) -> Option<&Expr> {
    match b.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => Some(e),
        _ => None,
    }
}

/// Checks that `e` is in the expression language (the error is at the first part that
/// is not).
pub fn check(e: &Expr) -> Result<(), syn::Error> {
    let p = Paths::new(None);
    build(&p, e).map(|_| ())
}

std::thread_local! {
    /// The name an `until` condition gives the element just read, while its tree is built.
    static ELEMENT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

std::thread_local! {
    /// True while the expressions of a type that names an enclosing record
    /// (`#[mmd(parent = T)]`) are checked and built: `parent` then names that record.
    static PARENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with `parent` naming the enclosing record ([`layout::Expr::Parent`]) when `on`.
pub fn with_parent<R>(on: bool, f: impl FnOnce() -> R) -> R {
    let before = PARENT.with(|p| p.replace(on));
    let r = f();
    PARENT.with(|p| p.set(before));
    r
}

/// True when `parent` names the enclosing record here.
pub fn parent_on() -> bool {
    PARENT.with(|p| p.get())
}

/// How many levels up `e` names (`parent` 1, `parent.parent` 2), when it names only the
/// enclosing record.
fn parent_levels(e: &Expr) -> Option<u32> {
    match e {
        Expr::Path(p) if p.qself.is_none() && p.path.is_ident("parent") && parent_on() => Some(1),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(n) if n == "parent" => parent_levels(&f.base).map(|n| n + 1),
            _ => None,
        },
        Expr::Paren(p) => parent_levels(&p.expr),
        Expr::Group(g) => parent_levels(&g.expr),
        _ => None,
    }
}

/// Runs `f` with `element` naming [`layout::Expr::Element`].
fn with_element<R>(element: &str, f: impl FnOnce() -> R) -> R {
    ELEMENT.with(|e| *e.borrow_mut() = Some(element.to_string()));
    let r = f();
    ELEMENT.with(|e| *e.borrow_mut() = None);
    r
}

fn is_element(name: &str) -> bool {
    ELEMENT.with(|e| e.borrow().as_deref() == Some(name))
}

/// [`check`] of an `until` condition, where `element` names the element just read.
pub fn check_with_element(e: &Expr, element: &str) -> Result<(), syn::Error> {
    with_element(element, || check(e))
}

/// [`expression`] of an `until` condition, where `element` names the element just read.
pub fn expression_with_element(p: &Paths, e: &Expr, element: &str) -> TokenStream {
    with_element(element, || expression(p, e))
}

/// The tokens of a `layout::Expression` for `e` (its text and tree).
pub fn expression(p: &Paths, e: &Expr) -> TokenStream {
    let layout = &p.layout;
    let text = Literal::string(&expr_text(e));
    match build(p, e) {
        Ok(tree) => quote!(#layout::Expression { text: #text, tree: &#tree }),
        // Refused by the check, whose error is reported instead.
        Err(err) => err.to_compile_error(),
    }
}

/// The tokens of the `layout::Expr` for `e`.
fn build(p: &Paths, e: &Expr) -> Result<TokenStream, syn::Error> {
    let layout = &p.layout;
    let x = quote!(#layout::Expr);
    Ok(match e {
        Expr::Paren(inner) => build(p, &inner.expr)?,
        Expr::Group(inner) => build(p, &inner.expr)?,
        Expr::Reference(r) => build(p, &r.expr)?,
        Expr::Unary(u) => match u.op {
            UnOp::Deref(_) => build(p, &u.expr)?,
            UnOp::Not(_) => {
                let inner = build(p, &u.expr)?;
                quote!(#x::Unary(#layout::UnOp::Not, &#inner))
            }
            UnOp::Neg(_) => {
                let inner = build(p, &u.expr)?;
                quote!(#x::Unary(#layout::UnOp::Neg, &#inner))
            }
            _ => return Err(refuse(e, format!("`{}` is not an operator", expr_text(e)))),
        },
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => {
                let v: u64 = i.base10_parse()?;
                quote!(#x::Int(#v))
            }
            Lit::Float(f) => {
                let digits = Literal::string(f.base10_digits());
                quote!(#x::Float(#digits))
            }
            Lit::Bool(b) => {
                let v = b.value;
                quote!(#x::Bool(#v))
            }
            Lit::ByteStr(_) => {
                return Err(refuse(
                    e,
                    "a byte string is only the argument of `starts_with`".to_string(),
                ))
            }
            _ => {
                return Err(refuse(
                    e,
                    format!("`{}` is not a number or `bool` literal", expr_text(e)),
                ))
            }
        },
        Expr::Path(path) if path.qself.is_none() => {
            let segs: Vec<_> = path.path.segments.iter().collect();
            let plain = segs.iter().all(|s| s.arguments.is_none());
            match segs.as_slice() {
                [one] if plain && path.path.leading_colon.is_none() => {
                    let name = one.ident.to_string();
                    if name == "ctx" {
                        return Err(refuse(
                            e,
                            "`ctx` itself is not a value: name a member (`ctx.member`)".to_string(),
                        ));
                    }
                    if is_element(&name) {
                        return Ok(quote!(#x::Element));
                    }
                    if name == "_index" {
                        return Ok(quote!(#x::ItemIndex));
                    }
                    if name == "parent" && parent_on() {
                        return Err(refuse(
                            e,
                            "`parent` itself is not a value: name a field of the enclosing \
                             record (`parent.field`)"
                                .to_string(),
                        ));
                    }
                    let n = Literal::string(&name);
                    quote!(#x::Name(#n))
                }
                [ty, name] if plain && path.path.leading_colon.is_none() => {
                    let (ty, name) = (
                        Literal::string(&ty.ident.to_string()),
                        Literal::string(&name.ident.to_string()),
                    );
                    quote!(#x::Flag { ty: #ty, name: #name })
                }
                _ => {
                    return Err(refuse(
                        e,
                        format!("`{}` is not a field or a flag constant", expr_text(e)),
                    ))
                }
            }
        }
        Expr::Field(f) => {
            let member = match &f.member {
                syn::Member::Named(n) => n.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            let m = Literal::string(&member);
            if parent_levels(e).is_some() {
                return Err(refuse(
                    e,
                    "`parent.parent` is not a value: name a field of the record two levels \
                     up (`parent.parent.field`)"
                        .to_string(),
                ));
            }
            if let Some(n) = parent_levels(&f.base) {
                quote!(#x::Field(&#x::Parent(#n), #m))
            } else if is_ctx(&f.base) {
                quote!(#x::Ctx(#m))
            } else {
                let base = build(p, &f.base)?;
                quote!(#x::Field(&#base, #m))
            }
        }
        Expr::Index(i) => {
            let (base, index) = (build(p, &i.expr)?, build(p, &i.index)?);
            quote!(#x::Index(&#base, &#index))
        }
        Expr::Binary(b) => {
            let op = match b.op {
                BinOp::Add(_) => quote!(Add),
                BinOp::Sub(_) => quote!(Sub),
                BinOp::Mul(_) => quote!(Mul),
                BinOp::Div(_) => quote!(Div),
                BinOp::Rem(_) => quote!(Rem),
                BinOp::Shl(_) => quote!(Shl),
                BinOp::Shr(_) => quote!(Shr),
                BinOp::BitAnd(_) => quote!(BitAnd),
                BinOp::BitOr(_) => quote!(BitOr),
                BinOp::BitXor(_) => quote!(BitXor),
                BinOp::Eq(_) => quote!(Eq),
                BinOp::Ne(_) => quote!(Ne),
                BinOp::Lt(_) => quote!(Lt),
                BinOp::Le(_) => quote!(Le),
                BinOp::Gt(_) => quote!(Gt),
                BinOp::Ge(_) => quote!(Ge),
                BinOp::And(_) => quote!(And),
                BinOp::Or(_) => quote!(Or),
                _ => {
                    return Err(refuse(
                        b.op,
                        "an assignment is not part of an expression".to_string(),
                    ))
                }
            };
            let (l, r) = (build(p, &b.left)?, build(p, &b.right)?);
            quote!(#x::Binary(#layout::BinOp::#op, &#l, &#r))
        }
        Expr::If(i) => {
            let c = build(p, &i.cond)?;
            let a = block_value(&i.then_branch).ok_or_else(|| {
                refuse(
                    &i.then_branch,
                    "each branch of an `if` is one expression".to_string(),
                )
            })?;
            let a = build(p, a)?;
            let Some((_, other)) = &i.else_branch else {
                return Err(refuse(
                    e,
                    "an `if` needs an `else`: the expression has a value either way".to_string(),
                ));
            };
            let b = match &**other {
                Expr::Block(b) if b.label.is_none() => block_value(&b.block).ok_or_else(|| {
                    refuse(
                        other,
                        "each branch of an `if` is one expression".to_string(),
                    )
                })?,
                nested => nested,
            };
            let b = build(p, b)?;
            quote!(#x::If(&#c, &#a, &#b))
        }
        Expr::Cast(c) => {
            let Some(ty) = cast_target(&c.ty) else {
                return Err(refuse(
                    &c.ty,
                    format!(
                        "a cast to `{}`, which is not a number type ({})",
                        crate::ast::type_text(&c.ty),
                        CAST_TARGETS.join(", ")
                    ),
                ));
            };
            let inner = build(p, &c.expr)?;
            quote!(#x::Cast(&#inner, #ty))
        }
        Expr::MethodCall(m) => {
            let name = m.method.to_string();
            let Some((_, n, variant)) = HELPERS.iter().find(|h| h.0 == name) else {
                return Err(refuse(
                    &m.method,
                    format!("`{name}` is not a helper of the expression language"),
                ));
            };
            if let Some(t) = &m.turbofish {
                return Err(refuse(t, format!("`{name}` takes no type arguments")));
            }
            if m.args.len() != *n {
                return Err(refuse(
                    e,
                    format!("`{name}` takes {n} argument(s), not {}", m.args.len()),
                ));
            }
            let mut args = vec![build(p, &m.receiver)?];
            for a in &m.args {
                let byte_str = matches!(a, Expr::Lit(l) if matches!(l.lit, Lit::ByteStr(_)));
                args.push(match (name.as_str(), a) {
                    ("starts_with", Expr::Lit(l)) if byte_str => {
                        let Lit::ByteStr(b) = &l.lit else {
                            unreachable!("matched above")
                        };
                        let bytes = Literal::byte_string(&b.value());
                        quote!(#x::Bytes(#bytes))
                    }
                    ("starts_with", _) => {
                        return Err(refuse(
                            a,
                            "`starts_with` takes a byte string literal (`b\"...\"`)".to_string(),
                        ))
                    }
                    _ => build(p, a)?,
                });
            }
            let v = syn::Ident::new(variant, proc_macro2::Span::call_site());
            quote!(#x::Call(#layout::Helper::#v, &[#(#args),*]))
        }
        // `i32::from(x)`: a widening Rust allows only where it keeps every value, so the
        // same as a cast.
        Expr::Call(c) if from_call(c).is_some() => {
            let (ty, arg) = from_call(c).expect("matched");
            let inner = build(p, arg)?;
            quote!(#x::Cast(&#inner, #ty))
        }
        Expr::Call(c) => {
            return Err(refuse(
                &c.func,
                format!(
                    "a call of `{}` is not part of the expression language",
                    expr_text(&c.func)
                ),
            ))
        }
        _ => {
            return Err(refuse(
                e,
                format!("`{}` is not part of the expression language", expr_text(e)),
            ))
        }
    })
}

/// `T::from(x)` with `T` a number type: `T`'s name and `x`.
fn from_call(c: &syn::ExprCall) -> Option<(String, &Expr)> {
    let Expr::Path(f) = &*c.func else { return None };
    let segs: Vec<_> = f.path.segments.iter().collect();
    let [ty, from] = segs.as_slice() else {
        return None;
    };
    let ty = ty.ident.to_string();
    let ok = f.qself.is_none()
        && from.ident == "from"
        && from.arguments.is_none()
        && CAST_TARGETS.contains(&ty.as_str())
        && c.args.len() == 1;
    Some((ty, c.args.first()?)).filter(|_| ok)
}

/// True for the name `ctx` (through parentheses).
fn is_ctx(e: &Expr) -> bool {
    match e {
        Expr::Path(p) => p.qself.is_none() && p.path.is_ident("ctx"),
        Expr::Paren(p) => is_ctx(&p.expr),
        Expr::Group(g) => is_ctx(&g.expr),
        _ => false,
    }
}
