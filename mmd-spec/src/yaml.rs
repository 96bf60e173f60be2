//! A small YAML writer for the `.ksy` files: block mappings and sequences, quoted
//! scalars where YAML needs them, literal blocks for doc text.

use std::fmt::Write;

/// A YAML value.
#[derive(Debug, Clone, PartialEq)]
pub enum Y {
    /// A scalar written as it is (numbers, `true`, Kaitai type names).
    Plain(String),
    /// A string scalar, single-quoted unless it is a plain identifier or path.
    Str(String),
    /// Text written as a literal block (`|`), one line per line.
    Doc(String),
    /// A block mapping, in order.
    Map(Vec<(String, Y)>),
    /// A block sequence.
    Seq(Vec<Y>),
}

impl Y {
    /// A string scalar.
    pub fn s(s: impl Into<String>) -> Y {
        Y::Str(s.into())
    }

    /// A plain scalar.
    pub fn p(s: impl std::fmt::Display) -> Y {
        Y::Plain(s.to_string())
    }

    /// A mapping from `(key, value)` pairs.
    pub fn map(entries: Vec<(&str, Y)>) -> Y {
        Y::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }
}

/// A doc entry, or nothing for empty text.
pub fn doc_entry(text: &str) -> Option<(String, Y)> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines.iter().position(|l| !l.is_empty())?;
    let end = lines.iter().rposition(|l| !l.is_empty())? + 1;
    Some(("doc".to_string(), Y::Doc(lines[start..end].join("\n"))))
}

fn plain_ok(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        )
}

fn scalar(s: &str) -> String {
    if plain_ok(s) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// Writes a mapping's entries at `indent` spaces.
pub fn write_map(out: &mut String, entries: &[(String, Y)], indent: usize) {
    for (k, v) in entries {
        let _ = write!(out, "{:indent$}{}:", "", scalar_key(k));
        write_value(out, v, indent);
    }
}

fn scalar_key(k: &str) -> String {
    if k.parse::<i64>().is_ok() {
        k.to_string()
    } else {
        scalar(k)
    }
}

/// Writes the value after `key:` (the key is written, the line not ended).
fn write_value(out: &mut String, v: &Y, indent: usize) {
    match v {
        Y::Plain(s) => {
            let _ = writeln!(out, " {s}");
        }
        Y::Str(s) => {
            let _ = writeln!(out, " {}", scalar(s));
        }
        Y::Doc(text) => {
            let _ = writeln!(out, " |");
            for line in text.lines() {
                if line.is_empty() {
                    out.push('\n');
                } else {
                    let _ = writeln!(out, "{:w$}{line}", "", w = indent + 2);
                }
            }
        }
        Y::Map(m) if m.is_empty() => {
            let _ = writeln!(out, " {{}}");
        }
        Y::Map(m) => {
            out.push('\n');
            write_map(out, m, indent + 2);
        }
        Y::Seq(items) if items.is_empty() => {
            let _ = writeln!(out, " []");
        }
        Y::Seq(items) => {
            out.push('\n');
            write_seq(out, items, indent + 2);
        }
    }
}

fn write_seq(out: &mut String, items: &[Y], indent: usize) {
    for item in items {
        match item {
            Y::Map(m) if !m.is_empty() => {
                let _ = write!(out, "{:indent$}- ", "");
                let (k, v) = &m[0];
                let _ = write!(out, "{}:", scalar_key(k));
                write_value(out, v, indent + 2);
                write_map(out, &m[1..], indent + 2);
            }
            Y::Plain(s) => {
                let _ = writeln!(out, "{:indent$}- {s}", "");
            }
            Y::Str(s) => {
                let _ = writeln!(out, "{:indent$}- {}", "", scalar(s));
            }
            other => {
                let _ = write!(out, "{:indent$}-", "");
                write_value(out, other, indent);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(scalar("_root.bone_index_size"), "_root.bone_index_size");
        assert_eq!(scalar("not _io.eof"), "'not _io.eof'");
        assert_eq!(scalar("it's"), "'it''s'");
        assert_eq!(scalar("true"), "'true'");
        assert_eq!(scalar("PMX "), "'PMX '");
        assert_eq!(scalar("repeat-expr"), "repeat-expr");
        assert_eq!(scalar("-1"), "'-1'");
    }

    #[test]
    fn nesting() {
        let y = Y::map(vec![
            (
                "seq",
                Y::Seq(vec![Y::map(vec![("id", Y::p("a")), ("type", Y::p("u1"))])]),
            ),
            ("doc", Y::Doc("one\n\ntwo".into())),
        ]);
        let mut out = String::new();
        if let Y::Map(m) = &y {
            write_map(&mut out, m, 0);
        }
        assert_eq!(
            out,
            "seq:\n  - id: a\n    type: u1\ndoc: |\n  one\n\n  two\n"
        );
    }
}
