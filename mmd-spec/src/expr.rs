//! Translates the condition, length and selector expressions of the layout descriptors
//! (Rust source text over earlier fields and the context `ctx`) into Kaitai Struct
//! expressions.
//!
//! The subset understood: field references (`*has_limit`) and the fields and elements
//! below them (`header.globals[2]`), comparisons, arithmetic, `&&` / `||` / `!`, integer,
//! float and `true`/`false` literals, `if c { a } else { b }`, flag tests
//! (`flags.contains(BoneFlags::IK)`, `flags.intersects(A | B)`), `len()`,
//! `saturating_sub`, `starts_with(b"...")` on bytes, and members of the declared context
//! (`ctx.is_v21`). Anything else is an error that names the expression, so a new kind of
//! condition is never dropped.

use mmd_formats::layout::{Body, TypeLayout};

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
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Int(u64),
    Float(String),
    Bytes(Vec<u8>),
    Op(&'static str),
}

const OPS: [&str; 24] = [
    "::", "==", "!=", "<=", ">=", "&&", "||", "(", ")", "[", "]", "{", "}", ",", ".", "<", ">",
    "!", "*", "&", "|", "+", "-", "/",
];

fn tokenize(s: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'b' && b.get(i + 1) == Some(&b'"') {
            // A byte string: printable ASCII, with `\\` and `\"` escapes.
            let mut bytes = Vec::new();
            i += 2;
            loop {
                match b.get(i) {
                    None => return Err("unterminated byte string".to_string()),
                    Some(b'"') => break,
                    Some(b'\\') => match b.get(i + 1) {
                        Some(&e @ (b'\\' | b'"')) => {
                            bytes.push(e);
                            i += 2;
                        }
                        _ => return Err("unsupported escape in a byte string".to_string()),
                    },
                    Some(&c) => {
                        bytes.push(c);
                        i += 1;
                    }
                }
            }
            i += 1;
            out.push(Tok::Bytes(bytes));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(s[start..i].to_string()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                out.push(Tok::Float(s[start..i].to_string()));
                continue;
            }
            let text = s[start..i].replace('_', "");
            let v = if let Some(hex) = text.strip_prefix("0x") {
                u64::from_str_radix(hex, 16).ok()
            } else {
                text.parse::<u64>().ok()
            };
            match v {
                Some(v) => out.push(Tok::Int(v)),
                None => return Err(format!("unsupported number `{}`", &s[start..i])),
            }
        } else {
            let rest = &s[i..];
            match OPS.iter().find(|op| rest.starts_with(**op)) {
                Some(op) => {
                    out.push(Tok::Op(op));
                    i += op.len();
                }
                None => return Err(format!("unexpected character `{}`", c as char)),
            }
        }
    }
    Ok(out)
}

#[derive(Debug, Clone)]
enum E {
    Ident(String),
    Path(Vec<String>),
    Int(u64),
    Float(String),
    Bytes(Vec<u8>),
    Index(Box<E>, Box<E>),
    If(Box<E>, Box<E>, Box<E>),
    Field(Box<E>, String),
    Method(Box<E>, String, Vec<E>),
    Call(Vec<String>),
    Unary(&'static str, Box<E>),
    Binary(&'static str, Box<E>, Box<E>),
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.at) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(format!("expected `{op}`"))
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        match self.toks.get(self.at) {
            Some(Tok::Ident(s)) => {
                self.at += 1;
                Ok(s.clone())
            }
            _ => Err("expected a name".to_string()),
        }
    }

    fn binary(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Self) -> Result<E, String>,
    ) -> Result<E, String> {
        let mut lhs = next(self)?;
        while let Some(op) = self.peek_op().filter(|o| ops.contains(o)) {
            self.at += 1;
            let rhs = next(self)?;
            lhs = E::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn or(&mut self) -> Result<E, String> {
        self.binary(&["||"], Self::and)
    }
    fn and(&mut self) -> Result<E, String> {
        self.binary(&["&&"], Self::cmp)
    }
    fn cmp(&mut self) -> Result<E, String> {
        self.binary(&["==", "!=", "<", ">", "<=", ">="], Self::bitor)
    }
    fn bitor(&mut self) -> Result<E, String> {
        self.binary(&["|"], Self::bitand)
    }
    fn bitand(&mut self) -> Result<E, String> {
        self.binary(&["&"], Self::add)
    }
    fn add(&mut self) -> Result<E, String> {
        self.binary(&["+", "-"], Self::mul)
    }
    fn mul(&mut self) -> Result<E, String> {
        self.binary(&["*", "/"], Self::unary)
    }

    fn unary(&mut self) -> Result<E, String> {
        for op in ["!", "*", "-"] {
            if self.eat(op) {
                return Ok(E::Unary(op, Box::new(self.unary()?)));
            }
        }
        self.postfix()
    }

    fn args(&mut self) -> Result<Vec<E>, String> {
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.or()?);
            if self.eat(")") {
                return Ok(args);
            }
            self.expect(",")?;
        }
    }

    fn postfix(&mut self) -> Result<E, String> {
        let mut e = self.primary()?;
        loop {
            if self.eat(".") {
                let name = self.ident()?;
                if self.eat("(") {
                    e = E::Method(Box::new(e), name, self.args()?);
                } else {
                    e = E::Field(Box::new(e), name);
                }
            } else if self.eat("[") {
                let i = self.or()?;
                self.expect("]")?;
                e = E::Index(Box::new(e), Box::new(i));
            } else {
                return Ok(e);
            }
        }
    }

    /// `{ expr }`
    fn block(&mut self) -> Result<E, String> {
        self.expect("{")?;
        let e = self.or()?;
        self.expect("}")?;
        Ok(e)
    }

    /// `if c { a } else { b }` or `... else if ...` (the `if` is already eaten).
    fn if_else(&mut self) -> Result<E, String> {
        let c = self.or()?;
        let a = self.block()?;
        match self.toks.get(self.at) {
            Some(Tok::Ident(k)) if k == "else" => self.at += 1,
            _ => return Err("an `if` needs an `else`".to_string()),
        }
        let b = match self.toks.get(self.at) {
            Some(Tok::Ident(k)) if k == "if" => {
                self.at += 1;
                self.if_else()?
            }
            _ => self.block()?,
        };
        Ok(E::If(Box::new(c), Box::new(a), Box::new(b)))
    }

    fn primary(&mut self) -> Result<E, String> {
        match self.toks.get(self.at).cloned() {
            Some(Tok::Int(v)) => {
                self.at += 1;
                Ok(E::Int(v))
            }
            Some(Tok::Float(v)) => {
                self.at += 1;
                Ok(E::Float(v))
            }
            Some(Tok::Bytes(v)) => {
                self.at += 1;
                Ok(E::Bytes(v))
            }
            Some(Tok::Ident(k)) if k == "if" => {
                self.at += 1;
                self.if_else()
            }
            Some(Tok::Ident(first)) => {
                self.at += 1;
                let mut path = vec![first];
                while self.eat("::") {
                    path.push(self.ident()?);
                }
                if self.eat("(") {
                    self.args()?;
                    return Ok(E::Call(path));
                }
                Ok(if path.len() == 1 {
                    E::Ident(path.remove(0))
                } else {
                    E::Path(path)
                })
            }
            Some(Tok::Op("(")) => {
                self.at += 1;
                let e = self.or()?;
                self.expect(")")?;
                Ok(e)
            }
            _ => Err("expected a value".to_string()),
        }
    }
}

fn parse(s: &str) -> Result<E, String> {
    let mut p = Parser {
        toks: tokenize(s)?,
        at: 0,
    };
    let e = p.or()?;
    if p.at != p.toks.len() {
        return Err("unexpected text after the expression".to_string());
    }
    Ok(e)
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

/// The context chain `ctx.a.b()` as segments (`a`, `b()`), if `e` is rooted at `ctx`.
fn ctx_chain(e: &E) -> Option<Vec<(String, Option<Vec<E>>)>> {
    match e {
        E::Ident(n) if n == "ctx" => Some(Vec::new()),
        E::Field(inner, name) => {
            let mut c = ctx_chain(inner)?;
            c.push((name.clone(), None));
            Some(c)
        }
        E::Method(inner, name, args) => {
            let mut c = ctx_chain(inner)?;
            c.push((name.clone(), Some(args.clone())));
            Some(c)
        }
        _ => None,
    }
}

fn seg_text(seg: &(String, Option<Vec<E>>)) -> String {
    match &seg.1 {
        None => seg.0.clone(),
        Some(args) if args.is_empty() => format!("{}()", seg.0),
        Some(_) => format!("{}(…)", seg.0),
    }
}

fn flags_of(v: &V) -> Option<(&str, &'static TypeLayout)> {
    match v {
        V::Flags { text, ty } => Some((text, ty)),
        _ => None,
    }
}

fn method(env: &dyn Env, recv: V, name: &str, args: &[E]) -> Result<V, String> {
    match (name, args) {
        ("contains" | "intersects", [arg]) => {
            let (field, fty) =
                flags_of(&recv).ok_or_else(|| format!("`{name}` on something not a flag field"))?;
            let field = field.to_string();
            match translate_e(env, arg)? {
                V::Bits { ty, mask, names } if std::ptr::eq(ty, fty) => {
                    if names.len() == 1 {
                        return Ok(atom(format!("{field}.{}", bit_id(names[0]))));
                    }
                    Ok(compound(if name == "contains" {
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
        ("saturating_sub", [arg]) => {
            let x = recv.operand()?;
            let n = translate_e(env, arg)?.operand()?;
            Ok(atom(format!("({x} > {n} ? {x} - {n} : 0)")))
        }
        ("len", []) => Ok(atom(format!("{}.size", recv.operand()?))),
        ("starts_with", [E::Bytes(prefix)]) => {
            // Kaitai compares strings, not byte arrays: every byte maps to one character
            // in ISO-8859-1, so the prefix compares byte for byte.
            if !prefix
                .iter()
                .all(|b| (0x20..0x7f).contains(b) && *b != b'"' && *b != b'\\')
            {
                return Err("`starts_with` of bytes other than printable ASCII".to_string());
            }
            let x = recv.operand()?;
            Ok(compound(format!(
                "{x}.to_s(\"ISO-8859-1\").substring(0, {}) == \"{}\"",
                prefix.len(),
                String::from_utf8_lossy(prefix)
            )))
        }
        _ => Err(format!("unsupported method `{name}`")),
    }
}

fn translate_e(env: &dyn Env, e: &E) -> Result<V, String> {
    if let Some(chain) = ctx_chain(e) {
        if chain.is_empty() {
            return Err("`ctx` itself has no Kaitai form; name a member".to_string());
        }
        for k in (1..=chain.len()).rev() {
            let path: Vec<String> = chain[..k].iter().map(seg_text).collect();
            if let Some(why) = env.ctx_unreachable(&path.join(".")) {
                return Err(why);
            }
            if let Some(text) = env.ctx_member(&path.join(".")) {
                let mut v = atom(text);
                for (name, args) in &chain[k..] {
                    match args {
                        Some(args) => v = method(env, v, name, args)?,
                        None => return Err(format!("unsupported field `.{name}`")),
                    }
                }
                return Ok(v);
            }
        }
        let path: Vec<String> = chain.iter().map(seg_text).collect();
        return Err(format!(
            "the context has no member `ctx.{}`",
            path.join(".")
        ));
    }
    match e {
        E::Int(v) => Ok(atom(v.to_string())),
        E::Float(v) => Ok(atom(v.clone())),
        E::Bytes(_) => Err("a byte string outside `starts_with`".to_string()),
        E::Index(base, i) => {
            let b = translate_e(env, base)?.operand()?;
            let i = translate_e(env, i)?.expr()?;
            Ok(atom(format!("{b}[{i}]")))
        }
        E::If(c, a, b) => {
            let c = translate_e(env, c)?.operand()?;
            let a = translate_e(env, a)?.operand()?;
            let b = translate_e(env, b)?.operand()?;
            Ok(atom(format!("({c} ? {a} : {b})")))
        }
        E::Ident(n) if n == "true" || n == "false" => Ok(atom(n.clone())),
        E::Ident(n) => match env.field(n) {
            Some((text, Some(ty))) => Ok(V::Flags { text, ty }),
            Some((text, None)) if is_path(&text) => Ok(atom(text)),
            Some((text, None)) => Ok(compound(text)),
            None => Err(format!("`{n}` is not an earlier field of this record")),
        },
        E::Path(p) if p.len() == 2 => {
            let ty = env
                .flags_type(&p[0])
                .ok_or_else(|| format!("`{}` is not a flag type of this format", p[0]))?;
            let Body::Flags { bits, .. } = &ty.body else {
                return Err(format!("`{}` is not a flag type", p[0]));
            };
            let bit = bits
                .iter()
                .find(|b| b.name == p[1])
                .ok_or_else(|| format!("{} has no bit `{}`", p[0], p[1]))?;
            Ok(V::Bits {
                ty,
                mask: bit.mask,
                names: vec![bit.name],
            })
        }
        E::Path(p) => Err(format!("unsupported path `{}`", p.join("::"))),
        E::Field(base, name) => match translate_e(env, base)? {
            V::Expr { text, atomic: true } => Ok(atom(format!("{text}.{name}"))),
            V::Expr { text, .. } => Ok(atom(format!("({text}).{name}"))),
            _ => Err(format!("unsupported field access `.{name}` on flags")),
        },
        E::Method(recv, name, args) => {
            let r = translate_e(env, recv)?;
            method(env, r, name, args)
        }
        E::Call(path) => Err(format!("unsupported call `{}(…)`", path.join("::"))),
        E::Unary("*", inner) => translate_e(env, inner),
        E::Unary("!", inner) => Ok(compound(format!(
            "not {}",
            translate_e(env, inner)?.operand()?
        ))),
        E::Unary(op, inner) => Ok(compound(format!(
            "{op}{}",
            translate_e(env, inner)?.operand()?
        ))),
        E::Binary(op, a, b) => {
            let a = translate_e(env, a)?;
            let b = translate_e(env, b)?;
            if *op == "|" {
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
            let kop = match *op {
                "&&" => "and",
                "||" => "or",
                other => other,
            };
            Ok(compound(format!("{} {kop} {}", a.operand()?, b.operand()?)))
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
pub fn translate(env: &dyn Env, expr: &str) -> Result<String, String> {
    let e = parse(expr).map_err(|why| format!("cannot parse `{expr}`: {why}"))?;
    translate_e(env, &e)
        .and_then(V::expr)
        .map_err(|why| format!("cannot translate `{expr}`: {why}"))
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

    fn tr(s: &str) -> Result<String, String> {
        translate(&T, s)
    }

    #[test]
    fn translates_the_subset() {
        assert_eq!(tr("*has_limit != 0").unwrap(), "has_limit != 0");
        assert_eq!(tr("ctx.is_v21").unwrap(), "_root.is_v21");
        assert_eq!(
            tr("flags.contains(BoneFlags::TAIL_IS_BONE)").unwrap(),
            "flags.tail_is_bone"
        );
        assert_eq!(
            tr("flags.intersects(BoneFlags::INHERIT_ROTATION | BoneFlags::INHERIT_TRANSLATION)")
                .unwrap(),
            "(flags.bits & 0x0300) != 0"
        );
        assert_eq!(
            tr("ctx.morphs.saturating_sub(1)").unwrap(),
            "(_root.morph_count > 1 ? _root.morph_count - 1 : 0)"
        );
        assert_eq!(
            tr("*count > 2 && !ctx.is_v21").unwrap(),
            "(count > 2) and (not _root.is_v21)"
        );
    }

    #[test]
    fn translates_what_contexts_use() {
        assert_eq!(tr("header.globals[2]").unwrap(), "header.globals[2]");
        assert_eq!(
            tr("header.version > 2.05").unwrap(),
            "header.version > 2.05"
        );
        assert_eq!(tr("header.globals.len()").unwrap(), "header.globals.size");
        assert_eq!(
            tr("signature.starts_with(b\"VMD\")").unwrap(),
            "signature.to_s(\"ISO-8859-1\").substring(0, 3) == \"VMD\""
        );
        assert_eq!(
            tr("if *count > 1 { 1 } else if *count > 0 { 2 } else { 0 }").unwrap(),
            "((count > 1) ? 1 : ((count > 0) ? 2 : 0))"
        );
        // An argument put in for a parameter keeps its own grouping.
        assert_eq!(tr("arg * 2").unwrap(), "(a + b) * 2");
        assert_eq!(tr("arg.size").unwrap(), "(a + b).size");
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        for (expr, why) in [
            ("ctx.widths", "no member `ctx.widths`"),
            ("later_field != 0", "not an earlier field"),
            ("flags.bits().count_ones()", "unsupported method `bits`"),
            ("BoneFlags::NOPE", "has no bit `NOPE`"),
            ("Foo::of(a)", "unsupported call"),
            ("count ? 1", "unexpected character"),
            ("signature.starts_with(b\"\\xff\")", "unsupported escape"),
            ("signature.starts_with(b\"\u{e9}\")", "printable ASCII"),
            ("if *count > 1 { 1 }", "needs an `else`"),
            ("b\"x\" == count", "outside `starts_with`"),
        ] {
            let e = tr(expr).unwrap_err();
            assert!(e.contains(why), "{expr}: {e}");
        }
    }
}
