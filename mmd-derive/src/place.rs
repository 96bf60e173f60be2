//! Places that expressions read (`header.globals[2]`: the root `header`, then `globals`,
//! then element 2), shared by the context derive and the records that switch to a context.

use crate::ast::{expr_text, Seg};
use crate::paths::Paths;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, Ident};

/// A place read by an expression: a root name (a parameter, or a record's field) and the
/// steps below it (`header.globals[2]` is `header` then `globals`, `[2]`).
#[derive(Clone, Debug)]
pub struct PlaceExpr {
    pub root: Ident,
    pub segs: Vec<Seg>,
}

/// The place an expression is, when it is one (`a`, `a.b`, `a.b[2]`, `*a`).
pub fn as_place(e: &Expr) -> Option<PlaceExpr> {
    match e {
        Expr::Path(p) if p.qself.is_none() => Some(PlaceExpr {
            root: p.path.get_ident()?.clone(),
            segs: Vec::new(),
        }),
        Expr::Field(f) => {
            let mut base = as_place(&f.base)?;
            match &f.member {
                syn::Member::Named(n) => base.segs.push(Seg::Field(n.to_string())),
                syn::Member::Unnamed(i) => base.segs.push(Seg::Field(i.index.to_string())),
            }
            Some(base)
        }
        Expr::Index(i) => {
            let mut base = as_place(&i.expr)?;
            let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }) = &*i.index
            else {
                return Some(base);
            };
            base.segs.push(Seg::Index(n.base10_parse().ok()?));
            Some(base)
        }
        Expr::Paren(p) => as_place(&p.expr),
        Expr::Group(g) => as_place(&g.expr),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => as_place(&u.expr),
        Expr::Reference(r) => as_place(&r.expr),
        _ => None,
    }
}

/// The first place (in source order) rooted at one of `roots`, anywhere in `e`.
pub fn first_place(e: &Expr, roots: &[String]) -> Option<PlaceExpr> {
    struct Find<'r> {
        roots: &'r [String],
        found: Option<PlaceExpr>,
    }
    impl<'ast> Visit<'ast> for Find<'_> {
        fn visit_expr(&mut self, e: &'ast Expr) {
            if self.found.is_some() {
                return;
            }
            if let Some(p) = as_place(e) {
                if self.roots.contains(&p.root.to_string()) {
                    self.found = Some(p);
                    return;
                }
            }
            syn::visit::visit_expr(self, e);
        }
    }
    let mut f = Find { roots, found: None };
    f.visit_expr(e);
    f.found
}

/// Path segments as the runtime writes them (`PathSegment::Field("globals")`).
pub fn seg_tokens(p: &Paths, segs: &[Seg]) -> TokenStream {
    let ps = p.segment.clone();
    let items = segs.iter().map(|s| match s {
        Seg::Field(n) => quote!(#ps::Field(#n)),
        Seg::Index(i) => quote!(#ps::Index(#i)),
    });
    quote!(&[#(#items),*])
}

/// The single names (`flags`, `ctx`, `header`) an expression uses as values, in order,
/// and the spans of `self.` accesses (which expressions must not use). A method's name
/// is not a value.
pub fn names_in(e: &Expr) -> (Vec<Ident>, Vec<proc_macro2::Span>) {
    struct Names(Vec<Ident>, Vec<proc_macro2::Span>);
    impl<'ast> Visit<'ast> for Names {
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
    let mut n = Names(Vec::new(), Vec::new());
    n.visit_expr(e);
    (n.0, n.1)
}

/// An expression of the grammar rewritten so that it cannot panic: `a[i]` reads through
/// `rt::at`, `a + b` (also `-`, `*`, `/`, `%`) through `rt::arith`, `a << b` and `a >> b`
/// through `rt::shift`, `-a` through `rt::neg` and `a as T` (`T` a number type) through
/// `rt::cast`, `a.abs()` through `rt::abs`, each failing with an `rt::ExprFault` that names the root and place it read. The result is an expression
/// of type `Result<T, rt::ExprFault>` (a plain `Ok(expr)` when there is nothing to check),
/// `T` being `want` when given (so that a mistaken type is reported at the expression).
pub fn checked(p: &Paths, e: &Expr, want: Option<&TokenStream>) -> TokenStream {
    let Paths {
        rt, ok, std_result, ..
    } = p;
    let mut e = e.clone();
    let mut c = Checked { p, changed: false };
    c.visit_expr_mut(&mut e);
    // With a wanted type the value goes through a typed `let` spanned at the expression,
    // so that a mistake reads "expected `bool`, found `u8`" there and nowhere else.
    let value = match want {
        Some(t) => {
            let span = syn::spanned::Spanned::span(&e);
            let t = respan(t.clone(), span);
            quote::quote_spanned!(span=> { let __mmd_c: #t = #e; __mmd_c })
        }
        None => quote!(#e),
    };
    let t = want.cloned().unwrap_or_else(|| quote!(_));
    if c.changed {
        quote! { (|| -> #std_result<#t, #rt::ExprFault> { #ok(#value) })() }
    } else {
        quote! { #ok::<#t, #rt::ExprFault>(#value) }
    }
}

struct Checked<'p> {
    p: &'p Paths,
    changed: bool,
}

/// The root name and place tokens of the place `e` reads, if it is one.
fn root_and_place(p: &Paths, e: &Expr) -> (String, TokenStream) {
    match first_place_any(e) {
        Some(pl) => (pl.root.to_string(), seg_tokens(p, &pl.segs)),
        None => (String::new(), seg_tokens(p, &[])),
    }
}

/// The first place in `e`, whatever its root.
fn first_place_any(e: &Expr) -> Option<PlaceExpr> {
    struct Find(Option<PlaceExpr>);
    impl<'ast> Visit<'ast> for Find {
        fn visit_expr(&mut self, e: &'ast Expr) {
            if self.0.is_some() {
                return;
            }
            if let Some(p) = as_place(e) {
                self.0 = Some(p);
                return;
            }
            syn::visit::visit_expr(self, e);
        }
    }
    let mut f = Find(None);
    f.visit_expr(e);
    f.0
}

/// What a node of the expression becomes: a checked call of the runtime, or itself.
enum Rewrite {
    /// `a + b` and the rest of `rt::arith`'s operators.
    Arith(char),
    /// `a << b`, `a >> b`.
    Shift(char),
    /// `-a` (not of a literal: `-1` is a constant, checked by rustc).
    Neg,
    /// `a as T`, `T` a number type.
    Cast(Literal),
    /// `a[i]`.
    Index,
    /// `a.abs()`.
    Abs,
    None,
}

fn rewrite_of(e: &Expr) -> Rewrite {
    match e {
        Expr::Binary(b) => match b.op {
            BinOp::Add(_) => Rewrite::Arith('+'),
            BinOp::Sub(_) => Rewrite::Arith('-'),
            BinOp::Mul(_) => Rewrite::Arith('*'),
            BinOp::Div(_) => Rewrite::Arith('/'),
            BinOp::Rem(_) => Rewrite::Arith('%'),
            BinOp::Shl(_) => Rewrite::Shift('<'),
            BinOp::Shr(_) => Rewrite::Shift('>'),
            _ => Rewrite::None,
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match strip_parens(&u.expr) {
            Expr::Lit(_) => Rewrite::None,
            _ => Rewrite::Neg,
        },
        Expr::Cast(c) => match crate::tree::cast_target(&c.ty) {
            Some(name) => Rewrite::Cast(Literal::string(&name)),
            None => Rewrite::None,
        },
        Expr::Index(_) => Rewrite::Index,
        Expr::MethodCall(m) if m.method == "abs" && m.args.is_empty() => Rewrite::Abs,
        _ => Rewrite::None,
    }
}

/// `e` without the parentheses around it (an argument of a generated call needs none,
/// and rustc warns about them).
fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        other => other,
    }
}

/// True for what a rewritten node is (a call ending in `?`, or a parenthesized element
/// read), which binds tighter than any operator around it: parentheses around it are
/// redundant wherever it stands.
fn is_atomic(e: &Expr) -> bool {
    matches!(e, Expr::Try(_) | Expr::Paren(_))
}

impl VisitMut for Checked<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        // What the rewrite needs is read before the parts below are rewritten.
        let rewrite = rewrite_of(e);
        let text = Literal::string(&expr_text(e));
        let (root, place) = match &*e {
            Expr::Index(ix) => root_and_place(self.p, &ix.expr),
            _ => root_and_place(self.p, e),
        };
        syn::visit_mut::visit_expr_mut(self, e);
        let rt = &self.p.rt;
        let new: Option<Expr> = match (&*e, rewrite) {
            (Expr::Index(ix), Rewrite::Index) => {
                let (base, index) = (strip_parens(&ix.expr), strip_parens(&ix.index));
                Some(syn::parse_quote! { (*#rt::at(&(#base), #index, #root, #place)?) })
            }
            (Expr::Binary(b), Rewrite::Arith(op)) => {
                let (l, r) = (strip_parens(&b.left), strip_parens(&b.right));
                Some(syn::parse_quote! { #rt::arith(#l, #op, #r, #text, #root, #place)? })
            }
            (Expr::Binary(b), Rewrite::Shift(op)) => {
                let (l, r) = (strip_parens(&b.left), strip_parens(&b.right));
                Some(syn::parse_quote! { #rt::shift(#l, #op, #r, #text, #root, #place)? })
            }
            (Expr::Unary(u), Rewrite::Neg) => {
                let x = strip_parens(&u.expr);
                Some(syn::parse_quote! { #rt::neg(#x, #text, #root, #place)? })
            }
            (Expr::MethodCall(m), Rewrite::Abs) => {
                let x = strip_parens(&m.receiver);
                Some(syn::parse_quote! { #rt::abs(#x, #text, #root, #place)? })
            }
            (Expr::Cast(c), Rewrite::Cast(name)) => {
                let (x, ty) = (strip_parens(&c.expr), &c.ty);
                Some(syn::parse_quote! {
                    #rt::cast::<_, #ty>(#x, #name, #text, #root, #place)?
                })
            }
            // Parentheses the user wrote around what is now a call are redundant, and
            // rustc would warn about them at the user's code.
            (Expr::Paren(p), _) if is_atomic(&p.expr) => Some((*p.expr).clone()),
            _ => None,
        };
        if let Some(new) = new {
            if !matches!(e, Expr::Paren(_)) {
                self.changed = true;
            }
            *e = new;
        }
    }
}

/// `tokens` with every span set to `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let proc_macro2::TokenTree::Group(g) = &t {
                let mut n = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                n.set_span(span);
                t = proc_macro2::TokenTree::Group(n);
            } else {
                t.set_span(span);
            }
            t
        })
        .collect()
}
