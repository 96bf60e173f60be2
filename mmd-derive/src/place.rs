//! Places that expressions read (`header.globals[2]`: the root `header`, then `globals`,
//! then element 2), shared by the context derive and the records that switch to a context.

use crate::paths::Paths;
use proc_macro2::TokenStream;
use quote::quote;
use syn::visit::Visit;
use syn::{Expr, Ident};

/// One step of the place an expression reads: a field or a fixed element.
#[derive(Clone, Debug)]
pub enum Seg {
    Field(String),
    Index(usize),
}

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
