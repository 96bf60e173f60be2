//! The JSON Schema (draft 2020-12) of a format's JSON form, the one `mmd dump --json`
//! prints and `mmd build` reads (the rules are in `mmd_formats::json`), rendered from the
//! layout descriptors alone: structs are objects with every field required and no other,
//! enums `{"Variant": body}`, optional fields `null` too, byte runs `{"hex": ..}`, text a
//! string or `{"text", "raw", "encoding"}`, flags `{"bits", "names"}`, floats a number or
//! `{"float", "bits"}`.
//!
//! What a schema cannot say (an index's width, which the header declares; a `len`
//! expression over earlier fields; a condition) is said in the descriptions, and checked
//! by the builder, which names the JSON path.

use crate::Spec;
use mmd_formats::layout::{
    Body, FieldLayout, IndexSign, LeafKind, Placement, Presence, Prim, Repeat, Shape, TagSource,
    TypeLayout, VariantLayout,
};
use std::fmt::Write;

/// A JSON value to print (members in insertion order).
#[derive(Debug, Clone)]
pub(crate) enum J {
    Str(String),
    Int(i128),
    Bool(bool),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

pub(crate) fn s(v: impl Into<String>) -> J {
    J::Str(v.into())
}

pub(crate) fn obj(members: Vec<(&str, J)>) -> J {
    J::Obj(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

impl J {
    fn with(mut self, key: &str, value: J) -> J {
        if let J::Obj(m) = &mut self {
            m.push((key.to_string(), value));
        }
        self
    }

    /// `text` as the `$comment`, after the one there is, if any.
    fn commented(mut self, text: String) -> J {
        if let J::Obj(m) = &mut self {
            if let Some((_, J::Str(c))) = m.iter_mut().find(|(k, _)| k == "$comment") {
                *c = format!("{c}; {text}");
                return self;
            }
        }
        self.with("$comment", J::Str(text))
    }

    fn described(self, doc: &str) -> J {
        let doc = doc.trim();
        if doc.is_empty() {
            self
        } else {
            self.with("description", s(doc))
        }
    }

    pub(crate) fn write(&self, out: &mut String, depth: usize) {
        let pad = |d: usize| "  ".repeat(d);
        match self {
            J::Str(t) => mmd_formats::json::write_string(t, out),
            J::Int(i) => {
                let _ = write!(out, "{i}");
            }
            J::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            J::Arr(items) if items.iter().all(|i| matches!(i, J::Str(_) | J::Int(_))) => {
                out.push('[');
                for (n, i) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    i.write(out, depth);
                }
                out.push(']');
            }
            J::Arr(items) => {
                out.push_str("[\n");
                for (n, i) in items.iter().enumerate() {
                    out.push_str(&pad(depth + 1));
                    i.write(out, depth + 1);
                    out.push_str(if n + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(depth));
                out.push(']');
            }
            J::Obj(m) if m.is_empty() => out.push_str("{}"),
            J::Obj(m) => {
                out.push_str("{\n");
                for (n, (k, v)) in m.iter().enumerate() {
                    out.push_str(&pad(depth + 1));
                    J::Str(k.clone()).write(out, depth + 1);
                    out.push_str(": ");
                    v.write(out, depth + 1);
                    out.push_str(if n + 1 < m.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(depth));
                out.push('}');
            }
        }
    }
}

/// `{"hex": ".."}`, of exactly `size` bytes when given.
fn hex(size: Option<u64>) -> J {
    let pattern = match size {
        Some(n) => format!("^([0-9a-fA-F]{{2}}){{{n}}}$"),
        None => "^([0-9a-fA-F]{2})*$".to_string(),
    };
    obj(vec![
        ("type", s("object")),
        (
            "properties",
            obj(vec![(
                "hex",
                obj(vec![("type", s("string")), ("pattern", s(pattern))]),
            )]),
        ),
        ("required", J::Arr(vec![s("hex")])),
        ("additionalProperties", J::Bool(false)),
    ])
    .described(match size {
        Some(_) => "Bytes, as pairs of hex digits (exactly the field's size).",
        None => "Bytes, as pairs of hex digits.",
    })
}

fn int(min: i128, max: i128) -> J {
    obj(vec![
        ("type", s("integer")),
        ("minimum", J::Int(min)),
        ("maximum", J::Int(max)),
    ])
}

fn prim(p: Prim) -> J {
    let bits = p.size() * 8;
    match p {
        Prim::F32 | Prim::F64 => obj(vec![("$ref", s(format!("#/$defs/{}", p.name())))]),
        Prim::Bool => obj(vec![("type", s("boolean"))]),
        _ if p.is_signed() => int(-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        _ => int(0, (1i128 << bits) - 1),
    }
}

/// The float definitions (`#/$defs/f32`, `#/$defs/f64`).
fn float_def(digits: usize) -> J {
    obj(vec![(
        "anyOf",
        J::Arr(vec![
            obj(vec![("type", s("number"))]),
            obj(vec![
                ("type", s("object")),
                (
                    "properties",
                    obj(vec![
                        ("float", obj(vec![("type", s("string"))])),
                        (
                            "bits",
                            obj(vec![
                                ("type", s("string")),
                                ("pattern", s(format!("^[0-9a-fA-F]{{{digits}}}$"))),
                            ]),
                        ),
                    ]),
                ),
                ("required", J::Arr(vec![s("bits")])),
                ("additionalProperties", J::Bool(false)),
            ]),
        ]),
    )])
    .described(
        "A float: a number (read as the nearest value of the type, so the printed form gives \
         the same bits), or {\"float\": name, \"bits\": hex} for NaN and the infinities \
         (the bits decide).",
    )
}

fn text(raw_size: Option<u64>, doc: &str) -> J {
    let raw = match raw_size {
        Some(n) => format!("^([0-9a-fA-F]{{2}}){{{n}}}$"),
        None => "^([0-9a-fA-F]{2})*$".to_string(),
    };
    obj(vec![(
        "anyOf",
        J::Arr(vec![
            obj(vec![("type", s("string"))]),
            obj(vec![
                ("type", s("object")),
                (
                    "properties",
                    obj(vec![
                        ("text", obj(vec![("type", s("string"))])),
                        ("raw", obj(vec![("type", s("string")), ("pattern", s(raw))])),
                        ("encoding", obj(vec![("type", s("string"))])),
                    ]),
                ),
                ("required", J::Arr(vec![s("raw")])),
                ("additionalProperties", J::Bool(false)),
            ]),
        ]),
    )])
    .described(doc)
}

/// The renderer's state: the definitions, each type once.
struct Render {
    defs: Vec<(String, J)>,
    queue: Vec<&'static TypeLayout>,
}

impl Render {
    fn reference(&mut self, t: &'static TypeLayout) -> J {
        if !self.queue.iter().any(|q| q.name == t.name) {
            self.queue.push(t);
        }
        obj(vec![("$ref", s(format!("#/$defs/{}", t.name)))])
    }

    fn shape(&mut self, shape: Shape) -> J {
        match shape {
            Shape::Prim(p) => prim(p),
            Shape::Array { len, elem } => match elem() {
                Shape::Prim(Prim::U8) => hex(Some(len)),
                e => obj(vec![
                    ("type", s("array")),
                    ("items", self.shape(e)),
                    ("minItems", J::Int(len.into())),
                    ("maxItems", J::Int(len.into())),
                ]),
            },
            Shape::Type(t) => self.reference(t),
            Shape::Leaf(l) => match l.kind {
                LeafKind::Text { .. } => text(
                    None,
                    "Text: a string (encoded in the encoding the context declares), or \
                     {\"text\", \"raw\", \"encoding\"} for bytes that do not decode cleanly: \
                     `raw` is kept unless `text` differs from what it decodes to.",
                ),
                LeafKind::FixedText { size, encoding, .. } => text(
                    Some(size),
                    &format!(
                        "A {size}-byte {encoding} field: a string that fits it (followed by a \
                         NUL and zeros), or {{\"text\", \"raw\", \"encoding\"}} with all \
                         {size} bytes: `raw` is kept unless `text` differs from what it \
                         decodes to."
                    ),
                ),
                LeafKind::TerminatedText {
                    encoding, to_end, ..
                } => text(
                    None,
                    &if to_end {
                        format!(
                            "{encoding} text filling its region: a string (written with one \
                             NUL after it), or {{\"text\", \"raw\", \"encoding\"}} with the \
                             region's bytes: `raw` is kept unless `text` differs from what it \
                             decodes to."
                        )
                    } else {
                        format!(
                            "{encoding} text ended by a NUL: a string without NUL, or \
                             {{\"text\", \"raw\", \"encoding\"}} with the bytes and their \
                             NUL: `raw` is kept unless `text` differs from what it decodes to."
                        )
                    },
                ),
                LeafKind::Index { kind, sign, none } => {
                    let (min, max) = match sign {
                        IndexSign::Signed => (-(1i128 << 31), (1i128 << 31) - 1),
                        IndexSign::UnsignedNarrow => (0, (1i128 << 32) - 1),
                    };
                    let none = none.map_or(String::new(), |n| format!(" ({n} = none)"));
                    int(min, max).described(&format!(
                        "A {kind} index: its raw value{none}, which must fit the width the \
                         context declares for {kind} indices."
                    ))
                }
                LeafKind::Bytes { size } => hex(Some(size)),
            },
            Shape::Opaque => obj(vec![]),
        }
    }

    fn field(&mut self, f: &FieldLayout) -> J {
        match f.placement {
            Placement::Gaps => {
                return obj(vec![("type", s("array")), ("items", hex(None))])
                    .with(
                        "$comment",
                        s(
                            "the runs of bytes after the sequential fields that no positioned \
                           field holds, in file order, none empty",
                        ),
                    )
                    .described(f.doc)
            }
            Placement::At { pos, base } => {
                let from = base.map_or(String::new(), |b| format!(" from the start of `{b}`"));
                let v = self.field_value(f);
                return v
                    .commented(format!(
                        "read at offset `{pos}`{from}, from exactly `{}` bytes",
                        f.bound.map_or("?", |b| b.text)
                    ))
                    .described(f.doc);
            }
            Placement::Sequential => {}
        }
        self.field_value(f).described(f.doc)
    }

    fn field_value(&mut self, f: &FieldLayout) -> J {
        let one = self.shape((f.shape)());
        let mut v = match f.repeat {
            Repeat::One => one,
            Repeat::Counted { .. } | Repeat::Len(_) | Repeat::Rest | Repeat::Until(_) => {
                match (f.shape)() {
                    Shape::Prim(Prim::U8) => hex(None),
                    _ => obj(vec![("type", s("array")), ("items", one)]),
                }
            }
        };
        match f.repeat {
            Repeat::Len(e) => v = v.with("$comment", s(format!("as many elements as `{e}`"))),
            Repeat::Until(e) => {
                v = v.with(
                    "$comment",
                    s(format!(
                        "elements up to and including the first for which `{e}` holds"
                    )),
                )
            }
            _ => {}
        }
        let v = match f.presence {
            Presence::Always => v,
            Presence::If(c) | Presence::IfUnlessEof(c) => obj(vec![(
                "anyOf",
                J::Arr(vec![v, obj(vec![("type", s("null"))])]),
            )])
            .with(
                "$comment",
                s(format!("null exactly when `{c}` does not hold")),
            ),
            Presence::UnlessEof => obj(vec![(
                "anyOf",
                J::Arr(vec![v, obj(vec![("type", s("null"))])]),
            )])
            .with("$comment", s("null when the file ends before it")),
        };
        v
    }

    /// An object of `fields` (with the signature first), or the lone field itself.
    fn fields(&mut self, fields: &'static [FieldLayout], magic: Option<&[u8]>) -> J {
        if magic.is_none() && fields.len() == 1 && fields[0].name == "0" {
            return self.field(&fields[0]);
        }
        let mut props = Vec::new();
        if let Some(m) = magic {
            let sig = if m.iter().all(|c| (0x20..0x7f).contains(c)) {
                obj(vec![("const", s(String::from_utf8_lossy(m)))])
            } else {
                let h: String = m.iter().map(|b| format!("{b:02x}")).collect();
                hex(Some(m.len() as u64)).with("$comment", s(format!("the signature {h}")))
            };
            props.push(("magic".to_string(), sig));
        }
        for f in fields {
            let v = self.field(f);
            props.push((f.name.to_string(), v));
        }
        let required = props.iter().map(|(k, _)| s(k.clone())).collect();
        obj(vec![
            ("type", s("object")),
            ("properties", J::Obj(props)),
            ("required", J::Arr(required)),
            ("additionalProperties", J::Bool(false)),
        ])
    }

    fn variant(&mut self, v: &'static VariantLayout) -> J {
        let body = self.fields(v.fields, None);
        obj(vec![
            ("type", s("object")),
            ("properties", J::Obj(vec![(v.name.to_string(), body)])),
            ("required", J::Arr(vec![s(v.name)])),
            ("additionalProperties", J::Bool(false)),
        ])
        .described(v.doc)
    }

    fn ty(&mut self, t: &'static TypeLayout) -> J {
        let v = match &t.body {
            Body::Struct(fields) => self.fields(fields, t.magic),
            Body::Enum { tag, variants } => {
                let name = match tag {
                    TagSource::Read { name, .. } | TagSource::Selected { name, .. } => name,
                };
                let vs = variants.iter().map(|v| self.variant(v)).collect();
                obj(vec![("oneOf", J::Arr(vs))]).with(
                    "$comment",
                    s(format!("{{\"Variant\": body}}; the variant is the {name}")),
                )
            }
            Body::Flags { prim: p, bits, .. } => {
                let names = bits.iter().map(|b| s(b.name)).collect();
                obj(vec![
                    ("type", s("object")),
                    (
                        "properties",
                        obj(vec![
                            ("bits", prim(*p)),
                            (
                                "names",
                                obj(vec![
                                    ("type", s("array")),
                                    ("items", obj(vec![("enum", J::Arr(names))])),
                                    ("uniqueItems", J::Bool(true)),
                                ]),
                            ),
                        ]),
                    ),
                    ("minProperties", J::Int(1)),
                    ("additionalProperties", J::Bool(false)),
                ])
                .with(
                    "$comment",
                    s("`bits` (unknown bits kept) or `names` (exactly the named bits) decides; both must agree"),
                )
            }
            Body::Opaque => obj(vec![]),
        };
        v.described(t.doc)
    }
}

/// The JSON Schema of the format's JSON form, as pretty-printed JSON text.
///
/// ```
/// use mmd_formats::{Describe, Mmd};
/// /// A tiny file.
/// #[derive(Mmd)]
/// #[mmd(magic = b"TINY", file(id = "tiny", title = "Tiny", application = "Tiny Editor"))]
/// struct Tiny {
///     /// Frames, a u16 count first.
///     #[mmd(count = u16)]
///     frames: Vec<u32>,
/// }
/// let schema = mmd_spec::render_schema(&mmd_spec::Spec::of::<Tiny>().unwrap());
/// assert!(schema.contains("\"const\": \"TINY\""));
/// ```
pub fn render_schema(spec: &Spec) -> String {
    let mut r = Render {
        defs: Vec::new(),
        queue: vec![spec.root],
    };
    let mut i = 0;
    while i < r.queue.len() {
        let t = r.queue[i];
        i += 1;
        let v = r.ty(t);
        r.defs.push((t.name.to_string(), v));
    }
    let mut defs = r.defs;
    defs.push(("f32".into(), float_def(8)));
    defs.push(("f64".into(), float_def(16)));
    let doc = obj(vec![
        ("$schema", s("https://json-schema.org/draft/2020-12/schema")),
        ("title", s(format!("{} (JSON form)", spec.title))),
        (
            "description",
            s(format!(
                "The JSON form of a {} file, as `mmd dump --json` prints it and `mmd build` \
                 reads it. Generated by mmd-spec from the layout descriptors of `{}`. Do not \
                 edit: regenerate it.",
                spec.title, spec.root.name
            )),
        ),
        ("$ref", s(format!("#/$defs/{}", spec.root.name))),
        ("$defs", J::Obj(defs)),
    ]);
    let mut out = String::new();
    doc.write(&mut out, 0);
    out.push('\n');
    out
}
