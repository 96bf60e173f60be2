//! The tree a parser compiled from the rendered grammar builds, predicted from a value read
//! by mmd-formats: every `seq` attribute, with the renderer's conventions (counts as
//! `num_<field>`, blocks absent at the end of the file as `{count, items}`, a tag then the
//! variant's attribute, flags as `bits`, text as `{len, value: {text}}`, fixed-length text
//! decoded up to its terminator, bytes as lower-case hex). `kaitai-check/tree.js` prints
//! the tree the real parser built; the two must be equal.

use super::{ident, snake};
use mmd_formats::layout::{
    Body, FieldLayout, IndexSign, LeafKind, Placement, Presence, Prim, Repeat, Shape, TagSource,
    TypeLayout, TEXT_FALLBACK,
};
use mmd_formats::walk::{hex, Leaf, Value};
use std::fmt::Write;

/// The JSON text of the tree a Kaitai parser of `root`'s grammar builds for `value` (the
/// walk of a value of the root type: `mmd_formats::walk::Value::of(&file)`).
///
/// Fails when the value does not fit the descriptor (which would be a bug in the derive).
pub fn expected_tree(value: &Value, root: &'static TypeLayout) -> Result<String, String> {
    let mut out = String::new();
    ty(&mut out, value, root)?;
    Ok(out)
}

fn ty(out: &mut String, v: &Value, l: &'static TypeLayout) -> Result<(), String> {
    match &l.body {
        Body::Struct(fields) => {
            out.push('{');
            let mut first = true;
            if let Some(m) = l.magic {
                key(out, &mut first, "magic");
                str_value(out, &hex(m));
            }
            record(out, &mut first, v, fields, l.name)?;
            out.push('}');
            Ok(())
        }
        Body::Enum { tag, variants } => {
            let Value::Variant { variant, body } = v else {
                return Err(format!(
                    "{}: expected a variant, found {}",
                    l.name,
                    v.summary()
                ));
            };
            let vl = variants
                .iter()
                .find(|x| x.name == variant.name)
                .ok_or_else(|| format!("{}: no variant {}", l.name, variant.name))?;
            out.push('{');
            let mut first = true;
            if let Some(m) = variant.magic {
                key(out, &mut first, "magic");
                str_value(out, &hex(m));
            }
            if let TagSource::Read { name, .. } = tag {
                key(out, &mut first, &ident(name));
                leaf(out, &variant.tag)?;
            }
            let vid = snake(vl.name);
            let lone = vl.fields.len() == 1 && vl.fields[0].name == "0";
            if vl.default {
                // The first field is the tag above; the rest are the variant's attribute.
                if vl.fields.len() > 1 && !lone {
                    key(out, &mut first, &vid);
                    out.push('{');
                    let mut f = true;
                    record(out, &mut f, body, &vl.fields[1..], vl.name)?;
                    out.push('}');
                }
            } else if lone {
                // The lone field is rendered as an attribute named after the variant.
                field(out, &mut first, &vid, &vl.fields[0], body)?;
            } else if !vl.fields.is_empty() {
                key(out, &mut first, &vid);
                out.push('{');
                let mut f = true;
                record(out, &mut f, body, vl.fields, vl.name)?;
                out.push('}');
            }
            out.push('}');
            Ok(())
        }
        Body::Flags { .. } => {
            let Value::Leaf(Leaf::Flags { bits, .. }) = v else {
                return Err(format!("{}: expected flags, found {}", l.name, v.summary()));
            };
            let _ = write!(out, "{{\"bits\":{bits}}}");
            Ok(())
        }
        Body::Opaque => Err(format!("{}: a type that does not describe itself", l.name)),
    }
}

fn record(
    out: &mut String,
    first: &mut bool,
    v: &Value,
    fields: &'static [FieldLayout],
    name: &str,
) -> Result<(), String> {
    for f in fields {
        let fv = v
            .field(f.name)
            .ok_or_else(|| format!("{name}: no field {} in {}", f.name, v.summary()))?;
        field(out, first, f.name, f, fv)?;
        // A context with accepted values computed from a sequence is checked by an
        // attribute of no bytes after it.
        let checks = f
            .context
            .is_some_and(|c| (c.layout)().members.iter().any(|m| m.valid.is_some()));
        if checks && super::repeated(Some(f)) {
            key(out, first, &super::valid_id(f.name));
            str_value(out, "");
        }
    }
    Ok(())
}

/// The attributes of one field, named `id`: none when absent; a count and the items when
/// counted; the value otherwise.
fn field(
    out: &mut String,
    first: &mut bool,
    id: &str,
    f: &FieldLayout,
    fv: &Value,
) -> Result<(), String> {
    if matches!(fv, Value::Absent) {
        return Ok(());
    }
    match f.placement {
        Placement::Sequential => {}
        // The runs of bytes no attribute or positioned instance holds (`-mmd-gaps`).
        Placement::Gaps => {
            key(out, first, id);
            out.push('[');
            let Value::Seq(runs) = fv else {
                return Err(format!("{id}: expected the runs, found {}", fv.summary()));
            };
            for (i, r) in runs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                bytes_value(out, r)?;
            }
            out.push(']');
            return Ok(());
        }
        // A positioned list: one helper object per element, its `value` the element.
        Placement::At { .. } if matches!(f.repeat, Repeat::Len(_)) => {
            key(out, first, id);
            let Value::Seq(items) = fv else {
                return Err(format!("{id}: expected a sequence, found {}", fv.summary()));
            };
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"value\":");
                item(out, x, (f.shape)(), false)?;
                out.push('}');
            }
            out.push(']');
            return Ok(());
        }
        Placement::At { .. } => {}
    }
    let eof = matches!(f.presence, Presence::UnlessEof | Presence::IfUnlessEof(_));
    let bytes = matches!((f.shape)(), Shape::Prim(Prim::U8));
    match f.repeat {
        Repeat::Rest if bytes => {
            key(out, first, id);
            bytes_value(out, fv)?;
        }
        Repeat::Rest | Repeat::Until(_) => {
            key(out, first, id);
            seq(out, fv, (f.shape)())?;
        }
        Repeat::One => {
            key(out, first, id);
            item(out, fv, (f.shape)(), false)?;
        }
        Repeat::Len(_) => {
            key(out, first, id);
            seq(out, fv, (f.shape)())?;
        }
        Repeat::Counted { .. } => {
            let n = count(fv)?;
            if eof {
                key(out, first, id);
                let _ = write!(out, "{{\"count\":{n},\"items\":");
                seq(out, fv, (f.shape)())?;
                out.push('}');
            } else {
                key(out, first, &format!("num_{id}"));
                let _ = write!(out, "{n}");
                key(out, first, id);
                seq(out, fv, (f.shape)())?;
            }
        }
    }
    Ok(())
}

fn count(v: &Value) -> Result<usize, String> {
    match v {
        Value::Seq(items) => Ok(items.len()),
        Value::Leaf(Leaf::Bytes(b)) => Ok(b.len()),
        other => Err(format!("expected a sequence, found {}", other.summary())),
    }
}

/// The items of a repeated field; a sequence of single bytes is one byte array (`size:`
/// in the grammar), so it is its hex string here.
fn seq(out: &mut String, v: &Value, shape: Shape) -> Result<(), String> {
    if matches!(shape, Shape::Prim(Prim::U8)) {
        return match v {
            Value::Leaf(Leaf::Bytes(_)) => bytes_value(out, v),
            Value::Seq(items) => {
                let mut b = Vec::with_capacity(items.len());
                for x in items {
                    match x {
                        Value::Leaf(l) => b.push(
                            l.as_i128()
                                .and_then(|n| u8::try_from(n).ok())
                                .ok_or_else(|| format!("expected a byte, found {l:?}"))?,
                        ),
                        other => return Err(format!("expected a byte, found {}", other.summary())),
                    }
                }
                str_value(out, &hex(&b));
                Ok(())
            }
            other => Err(format!("expected bytes, found {}", other.summary())),
        };
    }
    out.push('[');
    match v {
        Value::Seq(items) => {
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                item(out, x, shape, true)?;
            }
        }
        other => return Err(format!("expected a sequence, found {}", other.summary())),
    }
    out.push(']');
    Ok(())
}

/// One value; `in_seq` when it is an element of a repeated field (an array then has its
/// own helper type, `{items}`).
fn item(out: &mut String, v: &Value, shape: Shape, in_seq: bool) -> Result<(), String> {
    match shape {
        Shape::Prim(_) => match v {
            Value::Leaf(l) => leaf(out, l),
            other => Err(format!("expected a number, found {}", other.summary())),
        },
        Shape::Array { elem, .. } => {
            let inner = elem();
            if matches!(inner, Shape::Prim(Prim::U8)) {
                return bytes_value(out, v);
            }
            if in_seq {
                out.push_str("{\"items\":");
            }
            seq(out, v, inner)?;
            if in_seq {
                out.push('}');
            }
            Ok(())
        }
        Shape::Type(l) => ty(out, v, l),
        Shape::Leaf(lf) => {
            let Value::Leaf(l) = v else {
                return Err(format!("expected a {}, found {}", lf.name, v.summary()));
            };
            match (lf.kind, l) {
                (LeafKind::Text { encodings, .. }, Leaf::Text(t)) => {
                    let _ = write!(out, "{{\"len\":{},\"value\":", t.raw.len());
                    let code = match t.kind {
                        mmd_formats::walk::TextKind::Pmx(e) => u64::from(e.to_byte()),
                        _ => u64::MAX,
                    };
                    let enc = encodings
                        .iter()
                        .find(|(c, _)| *c == code)
                        .map_or(TEXT_FALLBACK, |(_, enc)| *enc);
                    out.push_str("{\"text\":");
                    str_value(out, &decode(enc, &t.raw)?);
                    out.push('}');
                    out.push('}');
                    Ok(())
                }
                (
                    LeafKind::FixedText {
                        encoding,
                        terminator,
                        ..
                    },
                    Leaf::Text(t),
                ) => {
                    let end = terminator
                        .and_then(|z| t.raw.iter().position(|b| *b == z))
                        .unwrap_or(t.raw.len());
                    str_value(out, &decode(encoding, &t.raw[..end])?);
                    Ok(())
                }
                (
                    LeafKind::TerminatedText {
                        encoding,
                        terminator,
                        ..
                    },
                    Leaf::Text(t),
                ) => {
                    let end = t
                        .raw
                        .iter()
                        .position(|b| *b == terminator)
                        .unwrap_or(t.raw.len());
                    str_value(out, &decode(encoding, &t.raw[..end])?);
                    Ok(())
                }
                (LeafKind::Index { sign, .. }, Leaf::Index { raw, .. }) => {
                    // A 4-byte unsigned-narrow index is read as `s4`.
                    let raw = match sign {
                        IndexSign::UnsignedNarrow if *raw > i64::from(i32::MAX) => {
                            i64::from(*raw as u32 as i32)
                        }
                        _ => *raw,
                    };
                    let _ = write!(out, "{raw}");
                    Ok(())
                }
                (LeafKind::Bytes { .. }, Leaf::Bytes(b)) => {
                    str_value(out, &hex(b));
                    Ok(())
                }
                (_, other) => Err(format!("{}: unexpected leaf {other:?}", lf.name)),
            }
        }
        Shape::Opaque => Err("a type that does not describe itself".to_string()),
    }
}

fn decode(encoding: &str, bytes: &[u8]) -> Result<String, String> {
    let enc = encoding_rs::Encoding::for_label(encoding.as_bytes())
        .ok_or_else(|| format!("unknown encoding {encoding}"))?;
    Ok(enc.decode_without_bom_handling(bytes).0.into_owned())
}

fn bytes_value(out: &mut String, v: &Value) -> Result<(), String> {
    match v {
        Value::Leaf(Leaf::Bytes(b)) => {
            str_value(out, &hex(b));
            Ok(())
        }
        other => Err(format!("expected bytes, found {}", other.summary())),
    }
}

fn leaf(out: &mut String, l: &Leaf) -> Result<(), String> {
    match *l {
        Leaf::F32(x) => float(out, f64::from(x)),
        Leaf::F64(x) => float(out, x),
        Leaf::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        _ => match l.as_i128() {
            Some(n) => {
                let _ = write!(out, "{n}");
            }
            None => return Err(format!("expected a number, found {l:?}")),
        },
    }
    Ok(())
}

fn float(out: &mut String, x: f64) {
    if x.is_nan() {
        str_value(out, "NaN");
    } else if x.is_infinite() {
        str_value(out, if x > 0.0 { "inf" } else { "-inf" });
    } else if x == 0.0 && x.is_sign_negative() {
        str_value(out, "-0");
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        // A whole number as JavaScript writes it (`90`, not `90.0`).
        let _ = write!(out, "{}", x as i64);
    } else {
        // Rust's shortest round-trip form; JSON readers parse it to the same f64.
        let _ = write!(out, "{x:?}");
    }
}

fn key(out: &mut String, first: &mut bool, k: &str) {
    if !*first {
        out.push(',');
    }
    *first = false;
    str_value(out, k);
    out.push(':');
}

fn str_value(out: &mut String, s: &str) {
    mmd_formats::json::write_string(s, out);
}
