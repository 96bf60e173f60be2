//! JSON text of a walked value, in the shape of this module, without `serde`: what
//! [`from_str`](super::from_str) reads back. (`mmd dump --json` prints the same shape
//! through `serde`; floats may be spelt differently, `1e-7` or `1E-7`, with the same value.)

use crate::walk::{hex, Leaf, Value, Walk};
use std::fmt::Write;

/// The JSON text of `value` (compact, one line).
pub fn to_string<T: Walk + ?Sized>(value: &T) -> String {
    let mut out = String::new();
    write_json(&Value::of(value), &mut out);
    out
}

/// The JSON text of a walked tree (compact, one line): for a whole file of any format,
/// of [`Format::json_tree`](crate::inspect::Format::json_tree).
pub fn value_to_string(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

/// Appends the JSON text of a walked tree to `out`.
pub fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Leaf(l) => leaf(l, out),
        Value::Absent => out.push_str("null"),
        Value::Struct { fields, .. } => {
            out.push('{');
            for (i, (name, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(name, out);
                out.push(':');
                write_json(v, out);
            }
            out.push('}');
        }
        Value::Seq(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(v, out);
            }
            out.push(']');
        }
        Value::Variant { variant, body } => {
            out.push('{');
            write_string(variant.name, out);
            out.push(':');
            write_json(body, out);
            out.push('}');
        }
    }
}

fn hex_member(bytes: &[u8], out: &mut String) {
    out.push_str("{\"hex\":\"");
    out.push_str(&hex(bytes));
    out.push_str("\"}");
}

fn float(finite: bool, name: String, bits: String, out: &mut String) {
    if finite {
        out.push_str(&name);
    } else {
        let _ = write!(out, "{{\"float\":\"{name}\",\"bits\":\"{bits}\"}}");
    }
}

fn leaf(l: &Leaf, out: &mut String) {
    let _ = match l {
        Leaf::Bool(b) => write!(out, "{b}"),
        Leaf::U8(v) => write!(out, "{v}"),
        Leaf::I8(v) => write!(out, "{v}"),
        Leaf::U16(v) => write!(out, "{v}"),
        Leaf::I16(v) => write!(out, "{v}"),
        Leaf::U32(v) => write!(out, "{v}"),
        Leaf::I32(v) => write!(out, "{v}"),
        Leaf::U64(v) => write!(out, "{v}"),
        Leaf::I64(v) => write!(out, "{v}"),
        Leaf::Count(v) => write!(out, "{v}"),
        Leaf::Index { raw, .. } => write!(out, "{raw}"),
        Leaf::F32(x) => {
            float(
                x.is_finite(),
                format!("{x:?}"),
                format!("{:08x}", x.to_bits()),
                out,
            );
            Ok(())
        }
        Leaf::F64(x) => {
            float(
                x.is_finite(),
                format!("{x:?}"),
                format!("{:016x}", x.to_bits()),
                out,
            );
            Ok(())
        }
        Leaf::Bytes(b) => {
            hex_member(b, out);
            Ok(())
        }
        Leaf::Magic(m) => {
            if m.iter().all(|c| (0x20..0x7f).contains(c)) {
                write_string(&String::from_utf8_lossy(m), out);
            } else {
                hex_member(m, out);
            }
            Ok(())
        }
        Leaf::Text(t) => {
            if t.clean {
                write_string(&t.text, out);
            } else {
                out.push_str("{\"text\":");
                write_string(&t.text, out);
                out.push_str(",\"raw\":\"");
                out.push_str(&hex(&t.raw));
                out.push_str("\",\"encoding\":");
                write_string(&t.kind.encoding_name(), out);
                out.push('}');
            }
            Ok(())
        }
        Leaf::Flags { bits, .. } => {
            let _ = write!(out, "{{\"bits\":{bits},\"names\":[");
            for (i, n) in l.flag_names().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(n, out);
            }
            out.push_str("]}");
            Ok(())
        }
    };
}

/// Appends `s` to `out` as a JSON string literal (quotes, backslash escapes, control
/// characters as `\u00XX`).
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
