//! Renders the layout descriptors as Kaitai Struct (`.ksy`) grammars.
//!
//! Every format type becomes a Kaitai type named in snake case (`IkLink` → `ik_link`):
//!
//! * a struct: its fields in file order; a counted field is a `num_<field>` count followed
//!   by the field with `repeat: expr`; a condition becomes `if:`, translated from the
//!   descriptor's Rust text by [`crate::expr`]; a field that is absent when the file ends
//!   gets `if: not _io.eof` (a counted one is wrapped in a `<field>_block` type holding its
//!   count and items, so "absent" and "count 0" stay apart); `rest` is `size-eos: true`;
//! * a tagged enum: the tag (with a Kaitai enum of the variant names and `valid: in-enum`)
//!   then one field per variant, `if:` the tag names it; an enum whose tag the enclosing
//!   record computes takes it as a parameter (`bone_tail(flags.tail_is_bone)`);
//! * a flag type: the raw integer `bits` and one boolean instance per named bit.
//!
//! The leaf types with hand-written codecs have no descriptor of their own, so their Kaitai
//! form is written here by hand: PMX text (`pmx_text`, an `s4` length and the bytes in
//! the header's encoding), fixed-length Shift_JIS (`str`, `terminator: 0`), and the PMX
//! indices (a switch on the header's width: vertex indices `u1`/`u2`/`s4`, every other
//! kind `s1`/`s2`/`s4`).
//!
//! A context switch (`#[mmd(switch_ctx = …)]`) is looked up in the format's context table
//! below, which says what the context's members are in Kaitai terms (the PMX globals
//! become `text_encoding`, `additional_uv`, `bone_index_size`, …, `is_v21` instances of
//! the root type). An expression, context switch or type the renderer does not know is an
//! error naming it, never a field left out.

use crate::expr::{self, bit_id, Env};
use crate::yaml::{doc_entry, write_map, Y};
use mmd_formats::index::IndexKind;
use mmd_formats::layout::{
    Body, FieldLayout, Presence, Repeat, Size, TagSource, TypeLayout, VariantLayout,
};
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// What the Kaitai form of one format says about it besides its descriptors.
pub struct KsyFormat {
    /// The Kaitai id and file stem (`pmx`).
    pub id: &'static str,
    /// `meta/title`.
    pub title: &'static str,
    /// `meta/application`.
    pub application: &'static str,
    /// The introduction, the root type's doc.
    pub intro: &'static str,
    /// The root type.
    pub root: &'static TypeLayout,
}

/// A context that a field switches to, in Kaitai terms.
struct ContextDef {
    /// The `switch_ctx` expression as the descriptor has it.
    switch: &'static str,
    /// Instances added to the type that holds the switching field: name, value, doc.
    instances: &'static [(&'static str, &'static str, &'static str)],
    /// Context members as expressions use them (`is_v21()`) and the instance they are.
    members: &'static [(&'static str, &'static str)],
    /// The instance holding the text encoding (0 = UTF-16LE, 1 = UTF-8), if any.
    text_encoding: Option<&'static str>,
    /// The instances holding the index widths, in [`IndexKind::ALL`] order, if any.
    index_sizes: Option<[&'static str; 6]>,
    /// A `valid: expr` for the switching field: the values the context accepts.
    valid: Option<&'static str>,
}

const PMX_CONTEXTS: &[ContextDef] = &[ContextDef {
    switch: "header.context()",
    instances: &[
        (
            "text_encoding",
            "header.globals[0]",
            "Globals byte 0: the encoding of every text, 0 = UTF-16LE, 1 = UTF-8 (another \
             value leaves the text bytes undecoded).",
        ),
        (
            "additional_uv",
            "header.globals[1]",
            "Globals byte 1: additional vec4 UVs per vertex (0-4).",
        ),
        (
            "vertex_index_size",
            "header.globals[2]",
            "Globals byte 2: width of vertex indices (1, 2 or 4 bytes); unsigned at 1 and 2 \
             bytes, signed at 4.",
        ),
        (
            "texture_index_size",
            "header.globals[3]",
            "Globals byte 3: width of texture indices (1, 2 or 4 bytes, signed; -1 = none).",
        ),
        (
            "material_index_size",
            "header.globals[4]",
            "Globals byte 4: width of material indices (1, 2 or 4 bytes, signed).",
        ),
        (
            "bone_index_size",
            "header.globals[5]",
            "Globals byte 5: width of bone indices (1, 2 or 4 bytes, signed; -1 = none).",
        ),
        (
            "morph_index_size",
            "header.globals[6]",
            "Globals byte 6: width of morph indices (1, 2 or 4 bytes, signed).",
        ),
        (
            "rigid_body_index_size",
            "header.globals[7]",
            "Globals byte 7: width of rigid-body indices (1, 2 or 4 bytes, signed).",
        ),
        (
            "is_v21",
            "header.version > 2.05",
            "True for PMX 2.1 (a version above 2.05): the soft-body block may follow the \
             joints.",
        ),
    ],
    members: &[("is_v21()", "is_v21"), ("additional_uv", "additional_uv")],
    text_encoding: Some("text_encoding"),
    index_sizes: Some([
        "vertex_index_size",
        "texture_index_size",
        "material_index_size",
        "bone_index_size",
        "morph_index_size",
        "rigid_body_index_size",
    ]),
    valid: None,
}];

const PMD_CONTEXTS: &[ContextDef] = &[ContextDef {
    switch: "PmdCounts::of(bones, morphs, frame_names)",
    instances: &[
        (
            "bone_count",
            "bones.size",
            "The number of bones: the English block has one name per bone.",
        ),
        (
            "morph_count",
            "morphs.size",
            "The number of morphs, the base morph included: the English block has one name \
             per morph except the base.",
        ),
        (
            "frame_count",
            "frame_names.size",
            "The number of bone frame names: the English block has one name per bone frame.",
        ),
    ],
    members: &[
        ("bones", "bone_count"),
        ("morphs", "morph_count"),
        ("frames", "frame_count"),
    ],
    text_encoding: None,
    index_sizes: None,
    valid: None,
}];

const VMD_SIGNATURE_VERSION: &str = "signature.to_s(\"ISO-8859-1\").substring(0, 25) == \
     \"Vocaloid Motion Data 0002\" ? 2 : (signature.to_s(\"ISO-8859-1\").substring(0, 25) == \
     \"Vocaloid Motion Data file\" ? 1 : 0)";

const VMD_CONTEXTS: &[ContextDef] = &[
    ContextDef {
        switch: "header.context()",
        instances: &[(
            "version_number",
            "header.version_number",
            "The version the signature declares: 1 or 2.",
        )],
        members: &[("version.number()", "version_number")],
        text_encoding: None,
        index_sizes: None,
        valid: None,
    },
    ContextDef {
        switch: "VmdContext::from_signature(signature)",
        instances: &[(
            "version_number",
            VMD_SIGNATURE_VERSION,
            "The version the signature declares: 2 for `Vocaloid Motion Data 0002`, 1 for \
             `Vocaloid Motion Data file` (it sets the width of the model name).",
        )],
        members: &[("version.number()", "version_number")],
        text_encoding: None,
        index_sizes: None,
        valid: Some(
            "_.to_s(\"ISO-8859-1\").substring(0, 25) == \"Vocaloid Motion Data 0002\" or \
             _.to_s(\"ISO-8859-1\").substring(0, 25) == \"Vocaloid Motion Data file\"",
        ),
    },
];

fn contexts(format: &str) -> &'static [ContextDef] {
    match format {
        "pmx" => PMX_CONTEXTS,
        "pmd" => PMD_CONTEXTS,
        "vmd" => VMD_CONTEXTS,
        _ => &[],
    }
}

/// Hand-written Kaitai forms for `Body::Opaque` types (hand-written codecs). None of the
/// PMX, PMD and VMD types is opaque today; a new one must be added here, or rendering
/// fails naming it.
fn opaque_type(_name: &str) -> Option<Y> {
    None
}

/// Why a format could not be rendered: every problem found, one per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KsyError {
    /// One message per untranslatable expression, unknown type or context.
    pub problems: Vec<String>,
}

impl fmt::Display for KsyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "the Kaitai renderer cannot express {} part(s) of the descriptors \
             (extend mmd-spec/src/ksy.rs or expr.rs):",
            self.problems.len()
        )?;
        for p in &self.problems {
            writeln!(f, "  - {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for KsyError {}

/// The context in force at a point: the definition and the type that holds its instances.
#[derive(Clone)]
struct Scope {
    ctx: Option<(&'static ContextDef, String)>,
}

impl Scope {
    fn none() -> Self {
        Scope { ctx: None }
    }

    fn key(&self) -> String {
        match &self.ctx {
            None => "()".to_string(),
            Some((d, owner)) => format!("{} in {owner}", d.switch),
        }
    }
}

/// Snake case of a Rust type or variant name (`AdditionalUv1` → `additional_uv1`).
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

/// A Kaitai id from a descriptive name (`shared-toon flag` → `shared_toon_flag`).
fn ident(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

fn prim(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "u8" => "u1",
        "i8" => "s1",
        "u16" => "u2",
        "i16" => "s2",
        "u32" => "u4",
        "i32" => "s4",
        "u64" => "u8",
        "i64" => "s8",
        "f32" => "f4",
        "f64" => "f8",
        "bool" => "bool",
        _ => return None,
    })
}

fn index_kind(ty: &str) -> Option<IndexKind> {
    Some(match ty {
        "VertexIndex" => IndexKind::Vertex,
        "TextureIndex" => IndexKind::Texture,
        "MaterialIndex" => IndexKind::Material,
        "BoneIndex" => IndexKind::Bone,
        "MorphIndex" => IndexKind::Morph,
        "RigidBodyIndex" => IndexKind::RigidBody,
        _ => return None,
    })
}

/// `[T; N]` → (`T`, N).
fn array(ty: &str) -> Option<(&str, u64)> {
    let inner = ty.strip_prefix('[')?.strip_suffix(']')?;
    let (t, n) = inner.rsplit_once(';')?;
    Some((t.trim(), n.trim().parse().ok()?))
}

/// The Kaitai form of one value: attribute entries (`type`, `size`, …), and the count of
/// a fixed-size array of such values.
struct Elem {
    entries: Vec<(String, Y)>,
    fixed_repeat: Option<u64>,
    /// A name for a helper type holding an array of these.
    helper_name: Option<String>,
}

fn entries(v: Vec<(&str, Y)>) -> Vec<(String, Y)> {
    v.into_iter().map(|(k, t)| (k.to_string(), t)).collect()
}

struct Renderer {
    format: &'static str,
    root_id: String,
    contexts: &'static [ContextDef],
    all: HashMap<&'static str, &'static TypeLayout>,
    /// Type ids in the order they were first needed, with their body once rendered.
    order: Vec<String>,
    bodies: HashMap<String, Y>,
    /// Which layout and scope each type id was claimed for.
    claims: HashMap<String, String>,
    queue: VecDeque<(&'static TypeLayout, Scope)>,
    problems: Vec<String>,
}

/// Where a field is rendered: the fields before it, the context, and the Kaitai type.
#[derive(Clone, Copy)]
struct Place<'a> {
    earlier: &'static [FieldLayout],
    scope: &'a Scope,
    here: &'a str,
}

/// Expression environment for one field of a record.
struct FieldEnv<'a> {
    r: &'a Renderer,
    earlier: &'a [FieldLayout],
    scope: &'a Scope,
    here: &'a str,
}

impl Env for FieldEnv<'_> {
    fn field(&self, name: &str) -> Option<(String, Option<&'static TypeLayout>)> {
        let f = self.earlier.iter().find(|f| f.name == name)?;
        let flags = (f.layout)().filter(|l| matches!(l.body, Body::Flags { .. }));
        Some((name.to_string(), flags))
    }

    fn ctx_member(&self, path: &str) -> Option<String> {
        let (def, owner) = self.scope.ctx.as_ref()?;
        let (_, inst) = def.members.iter().find(|(m, _)| *m == path)?;
        self.r.ctx_ref(owner, self.here, inst).ok()
    }

    fn flags_type(&self, name: &str) -> Option<&'static TypeLayout> {
        self.r
            .all
            .get(name)
            .copied()
            .filter(|l| matches!(l.body, Body::Flags { .. }))
    }
}

fn collect(ty: &'static TypeLayout, all: &mut HashMap<&'static str, &'static TypeLayout>) {
    if all.insert(ty.name, ty).is_some() {
        return;
    }
    let mut visit = |fields: &'static [FieldLayout]| {
        for f in fields {
            if let Some(l) = (f.layout)() {
                collect(l, all);
            }
        }
    };
    match &ty.body {
        Body::Struct(fields) => visit(fields),
        Body::Enum { variants, .. } => {
            for v in variants.iter() {
                visit(v.fields);
            }
        }
        Body::Flags { .. } | Body::Opaque => {}
    }
}

/// `s` as an operand of `and`: parenthesised unless it is a plain name or path.
fn paren(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        s.to_string()
    } else {
        format!("({s})")
    }
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Renderer {
    /// A reference from type `here` to an instance of the context owner `owner`.
    fn ctx_ref(&self, owner: &str, here: &str, inst: &str) -> Result<String, String> {
        if owner == here {
            Ok(inst.to_string())
        } else if owner == self.root_id {
            Ok(format!("_root.{inst}"))
        } else {
            Err(format!(
                "the context switched in `{owner}` is used in `{here}`; only a context of the \
                 root type can be reached from other types"
            ))
        }
    }

    fn problem(&mut self, at: &str, msg: impl fmt::Display) {
        self.problems.push(format!("{}: {at}: {msg}", self.format));
    }

    /// Claims a type id for `what`; false (and a problem) when it is taken by another.
    fn claim(&mut self, id: &str, what: String) -> bool {
        match self.claims.get(id) {
            Some(w) if *w == what => false,
            Some(w) => {
                let msg = format!("type id `{id}` is needed for {what} and for {w}");
                self.problem(id, msg);
                false
            }
            None => {
                self.claims.insert(id.to_string(), what);
                self.order.push(id.to_string());
                true
            }
        }
    }

    fn layout_type(&mut self, l: &'static TypeLayout, scope: &Scope) -> String {
        let id = snake(l.name);
        if self.claim(&id, format!("{} with context {}", l.name, scope.key())) {
            self.queue.push_back((l, scope.clone()));
        }
        id
    }

    fn pmx_text(&mut self, scope: &Scope, here: &str) -> Result<String, String> {
        let (def, owner) = scope
            .ctx
            .as_ref()
            .ok_or("PMX text needs a context that declares the text encoding")?;
        let enc = def
            .text_encoding
            .ok_or("PMX text needs a context that declares the text encoding")?;
        let enc_ref = self.ctx_ref(owner, "pmx_text", enc)?;
        let _ = here;
        if self.claim("pmx_text", format!("PmxText with context {}", scope.key())) {
            // Hand-written: PmxText has its own codec (no descriptor).
            self.bodies.insert(
                "pmx_text".into(),
                Y::Map(entries(vec![
                    (
                        "doc",
                        Y::Doc(
                            "PMX text: an s4 byte length, then that many bytes in the \
                             header's encoding (globals byte 0: 0 = UTF-16LE, 1 = UTF-8). \
                             Text that does not decode cleanly is still kept as stored."
                                .into(),
                        ),
                    ),
                    (
                        "seq",
                        Y::Seq(vec![
                            Y::map(vec![
                                ("id", Y::p("len")),
                                ("type", Y::p("s4")),
                                ("valid", Y::map(vec![("min", Y::p(0))])),
                                (
                                    "doc",
                                    Y::Doc("Byte length of the text (not characters).".into()),
                                ),
                            ]),
                            Y::map(vec![
                                ("id", Y::p("value")),
                                ("size", Y::p("len")),
                                (
                                    "type",
                                    Y::map(vec![
                                        ("switch-on", Y::s(enc_ref)),
                                        (
                                            "cases",
                                            Y::map(vec![
                                                ("0", Y::p("pmx_text_utf16le")),
                                                ("1", Y::p("pmx_text_utf8")),
                                            ]),
                                        ),
                                    ]),
                                ),
                                (
                                    "doc",
                                    Y::Doc(
                                        "The text, decoded as the header's encoding says \
                                         (raw bytes for an unknown encoding)."
                                            .into(),
                                    ),
                                ),
                            ]),
                        ]),
                    ),
                ])),
            );
            for (id, enc, doc) in [
                (
                    "pmx_text_utf16le",
                    "UTF-16LE",
                    "Text in UTF-16LE (encoding 0).",
                ),
                ("pmx_text_utf8", "UTF-8", "Text in UTF-8 (encoding 1)."),
            ] {
                self.claim(id, "pmx_text".into());
                self.bodies.insert(
                    id.into(),
                    Y::Map(entries(vec![
                        ("doc", Y::Doc(doc.into())),
                        (
                            "seq",
                            Y::Seq(vec![Y::map(vec![
                                ("id", Y::p("text")),
                                ("type", Y::p("str")),
                                ("size-eos", Y::p(true)),
                                ("encoding", Y::s(enc)),
                            ])]),
                        ),
                    ])),
                );
            }
        }
        Ok("pmx_text".to_string())
    }

    /// The Kaitai form of one value of type `ty`.
    fn elem(
        &mut self,
        ty: &str,
        size: Size,
        layout: Option<&'static TypeLayout>,
        select: Option<&str>,
        at: Place<'_>,
    ) -> Result<Elem, String> {
        let Place { scope, here, .. } = at;
        if let Some((inner, n)) = array(ty) {
            if inner == "u8" {
                return Ok(Elem {
                    entries: entries(vec![("size", Y::p(n))]),
                    fixed_repeat: None,
                    helper_name: None,
                });
            }
            let inner_size = match index_kind(inner) {
                Some(k) => Size::Index(k),
                None => Size::Variable,
            };
            let e = self.elem(inner, inner_size, layout, select, at)?;
            if e.fixed_repeat.is_some() {
                return Err(format!("nested arrays (`{ty}`) are not supported"));
            }
            return Ok(Elem {
                entries: e.entries,
                fixed_repeat: Some(n),
                helper_name: e.helper_name.map(|h| format!("{h}_x{n}")),
            });
        }
        if let Some(l) = layout {
            if matches!(l.body, Body::Opaque) && opaque_type(l.name).is_none() {
                return Err(format!(
                    "`{}` has a hand-written codec and no hand-written Kaitai form",
                    l.name
                ));
            }
            let id = self.layout_type(l, scope);
            let ty = match (&l.body, select) {
                (
                    Body::Enum {
                        tag: TagSource::Selected { .. },
                        ..
                    },
                    Some(sel),
                ) => {
                    let env = FieldEnv {
                        r: self,
                        earlier: at.earlier,
                        scope,
                        here,
                    };
                    format!("{id}({})", expr::translate(&env, sel)?)
                }
                (
                    Body::Enum {
                        tag: TagSource::Selected { .. },
                        ..
                    },
                    None,
                ) => return Err(format!("`{}` needs a selector (`select = …`)", l.name)),
                (_, Some(_)) => {
                    return Err(format!("a selector on `{}`, which takes none", l.name))
                }
                _ => id.clone(),
            };
            return Ok(Elem {
                entries: entries(vec![("type", Y::s(ty))]),
                fixed_repeat: None,
                helper_name: Some(id),
            });
        }
        if let Some(p) = prim(ty) {
            return Ok(Elem {
                entries: entries(vec![("type", Y::p(p))]),
                fixed_repeat: None,
                helper_name: Some(p.to_string()),
            });
        }
        if ty == "PmxText" {
            if size != Size::Text {
                return Err(format!("`PmxText` described with size {size:?}"));
            }
            let id = self.pmx_text(scope, here)?;
            return Ok(Elem {
                entries: entries(vec![("type", Y::p(&id))]),
                fixed_repeat: None,
                helper_name: Some(id),
            });
        }
        if let Some(n) = ty
            .strip_prefix("ShiftJis<")
            .and_then(|t| t.strip_suffix('>'))
            .and_then(|t| t.trim().parse::<u64>().ok())
        {
            // Hand-written: ShiftJis<N> has its own codec. The name ends at the first NUL;
            // the bytes after it (0xFD fill, leftovers) are part of the field.
            return Ok(Elem {
                entries: entries(vec![
                    ("type", Y::p("str")),
                    ("size", Y::p(n)),
                    ("terminator", Y::p(0)),
                    ("encoding", Y::p("Shift_JIS")),
                ]),
                fixed_repeat: None,
                helper_name: Some(format!("sjis{n}")),
            });
        }
        if let Some(kind) = index_kind(ty) {
            if size != Size::Index(kind) {
                return Err(format!("`{ty}` described with size {size:?}"));
            }
            // Hand-written: indices have their own codec; the header declares the width.
            let (def, owner) = scope
                .ctx
                .as_ref()
                .ok_or_else(|| format!("`{ty}` needs a context that declares index widths"))?;
            let sizes = def
                .index_sizes
                .ok_or_else(|| format!("`{ty}` needs a context that declares index widths"))?;
            let at = IndexKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
            let width = self.ctx_ref(owner, here, sizes[at])?;
            let (one, two) = if kind == IndexKind::Vertex {
                ("u1", "u2")
            } else {
                ("s1", "s2")
            };
            return Ok(Elem {
                entries: entries(vec![(
                    "type",
                    Y::map(vec![
                        ("switch-on", Y::s(width)),
                        (
                            "cases",
                            Y::map(vec![("1", Y::p(one)), ("2", Y::p(two)), ("4", Y::p("s4"))]),
                        ),
                    ]),
                )]),
                fixed_repeat: None,
                helper_name: Some(snake(ty)),
            });
        }
        Err(format!("no Kaitai form for the type `{ty}`"))
    }

    /// A helper type `id` holding `n` values of `e` (for a repeated field of arrays).
    fn array_helper(&mut self, e: Elem, n: u64) -> Result<String, String> {
        let id = e
            .helper_name
            .clone()
            .ok_or("an array of this type cannot be repeated")?;
        if self.claim(&id, format!("array helper {id}")) {
            let mut item = vec![("id".to_string(), Y::p("items"))];
            item.extend(e.entries);
            item.push(("repeat".into(), Y::p("expr")));
            item.push(("repeat-expr".into(), Y::p(n)));
            self.bodies.insert(
                id.clone(),
                Y::Map(entries(vec![
                    ("doc", Y::Doc(format!("{n} consecutive values."))),
                    ("seq", Y::Seq(vec![Y::Map(item)])),
                ])),
            );
        }
        Ok(id)
    }

    /// The attributes of one field (one, or a count and the field).
    fn field_attrs(
        &mut self,
        f: &'static FieldLayout,
        at: Place<'_>,
        id: &str,
        doc: &str,
        extra_cond: Option<String>,
    ) -> Result<Vec<Y>, String> {
        let Place {
            earlier,
            scope,
            here,
        } = at;
        let env = FieldEnv {
            r: self,
            earlier,
            scope,
            here,
        };
        let (cond, eof) = match f.presence {
            Presence::Always => (None, false),
            Presence::If(c) => (Some(expr::translate(&env, c)?), false),
            Presence::UnlessEof => (Some("not _io.eof".to_string()), true),
            Presence::IfUnlessEof(c) => (
                Some(format!(
                    "{} and not _io.eof",
                    paren(&expr::translate(&env, c)?)
                )),
                true,
            ),
        };
        let cond = match (extra_cond, cond) {
            (Some(a), Some(b)) => Some(format!("{} and {}", paren(&a), paren(&b))),
            (a, b) => a.or(b),
        };
        let with_cond = |mut m: Vec<(String, Y)>| {
            if let Some(c) = &cond {
                m.push(("if".into(), Y::s(c.clone())));
            }
            m
        };
        let with_doc = |mut m: Vec<(String, Y)>, d: &str| {
            m.extend(doc_entry(d));
            m
        };
        if let Repeat::Rest = f.repeat {
            if f.ty != "Vec<u8>" && f.ty != "u8" {
                return Err(format!("`rest` of `{}` (only bytes are supported)", f.ty));
            }
            let m = entries(vec![("id", Y::p(id)), ("size-eos", Y::p(true))]);
            return Ok(vec![Y::Map(with_doc(with_cond(m), doc))]);
        }
        let e = self.elem(f.ty, f.size, (f.layout)(), f.select, at)?;
        // The element with its own fixed repeat, or a helper type when it is repeated.
        let repeated = |r: &mut Self, e: Elem| -> Result<Vec<(String, Y)>, String> {
            match e.fixed_repeat {
                None => Ok(e.entries),
                Some(n) => {
                    let h = r.array_helper(
                        Elem {
                            fixed_repeat: None,
                            ..e
                        },
                        n,
                    )?;
                    Ok(entries(vec![("type", Y::p(h))]))
                }
            }
        };
        match f.repeat {
            Repeat::One => {
                let mut m = vec![("id".to_string(), Y::p(id))];
                let n = e.fixed_repeat;
                m.extend(e.entries);
                if let Some(n) = n {
                    m.push(("repeat".into(), Y::p("expr")));
                    m.push(("repeat-expr".into(), Y::p(n)));
                }
                Ok(vec![Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Len(len) => {
                let env = FieldEnv {
                    r: self,
                    earlier,
                    scope,
                    here,
                };
                let n = expr::translate(&env, len)?;
                let mut m = vec![("id".to_string(), Y::p(id))];
                m.extend(repeated(self, e)?);
                m.push(("repeat".into(), Y::p("expr")));
                m.push(("repeat-expr".into(), Y::s(n)));
                Ok(vec![Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Counted { count_ty, .. } => {
                let ct = prim(count_ty)
                    .filter(|t| *t != "bool" && !t.starts_with('f'))
                    .ok_or_else(|| format!("count type `{count_ty}`"))?;
                let count = |cid: &str| {
                    let mut m = entries(vec![("id", Y::p(cid)), ("type", Y::p(ct))]);
                    if ct.starts_with('s') {
                        m.push(("valid".into(), Y::map(vec![("min", Y::p(0))])));
                    }
                    m
                };
                let items = repeated(self, e)?;
                if eof {
                    // Absent at the end of the file, count included: wrap count and
                    // items so that "absent" and "count 0" stay different.
                    let block = format!("{id}_block");
                    if self.claim(&block, format!("block of {here}.{id}")) {
                        let mut c = count("count");
                        c.extend(doc_entry(&format!("The {count_ty} count of `{id}`.")));
                        let mut it = vec![("id".to_string(), Y::p("items"))];
                        it.extend(items);
                        it.push(("repeat".into(), Y::p("expr")));
                        it.push(("repeat-expr".into(), Y::p("count")));
                        let mut body = Vec::new();
                        body.extend(doc_entry(&format!(
                            "`{id}` of `{here}`: a {count_ty} count and the items."
                        )));
                        body.push(("seq".to_string(), Y::Seq(vec![Y::Map(c), Y::Map(it)])));
                        self.bodies.insert(block.clone(), Y::Map(body));
                    }
                    let m = entries(vec![("id", Y::p(id)), ("type", Y::p(&block))]);
                    return Ok(vec![Y::Map(with_doc(with_cond(m), doc))]);
                }
                let num = format!("num_{id}");
                let c = with_doc(
                    with_cond(count(&num)),
                    &format!("The {count_ty} count of `{id}`."),
                );
                let mut m = vec![("id".to_string(), Y::p(id))];
                m.extend(items);
                m.push(("repeat".into(), Y::p("expr")));
                m.push(("repeat-expr".into(), Y::p(&num)));
                Ok(vec![Y::Map(c), Y::Map(with_doc(with_cond(m), doc))])
            }
            Repeat::Rest => Err("`rest` is handled above".to_string()),
        }
    }

    /// The `seq` and `instances` of a record.
    fn record(
        &mut self,
        here: &str,
        type_name: &str,
        fields: &'static [FieldLayout],
        magic: Option<&[u8]>,
        start: &Scope,
    ) -> (Vec<Y>, Vec<(String, Y)>) {
        let mut seq = Vec::new();
        let mut instances = Vec::new();
        if let Some(m) = magic {
            let contents = if m.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
                Y::s(String::from_utf8_lossy(m).into_owned())
            } else {
                Y::Seq(m.iter().map(|b| Y::p(format!("{b:#04x}"))).collect())
            };
            seq.push(Y::Map(entries(vec![
                ("id", Y::p("magic")),
                ("contents", contents),
                ("doc", Y::Doc("The file signature.".into())),
            ])));
        }
        let mut scope = start.clone();
        for (i, f) in fields.iter().enumerate() {
            let at = format!("{type_name}.{}", f.name);
            let place = Place {
                earlier: &fields[..i],
                scope: &scope,
                here,
            };
            match self.field_attrs(f, place, f.name, f.doc, None) {
                Ok(attrs) => seq.extend(attrs),
                Err(e) => self.problem(&at, e),
            }
            if let Some(sw) = f.switch_ctx {
                match self.contexts.iter().find(|d| norm(d.switch) == norm(sw)) {
                    Some(def) => {
                        if let (Some(v), Some(Y::Map(last))) = (def.valid, seq.last_mut()) {
                            last.push(("valid".into(), Y::map(vec![("expr", Y::s(v))])));
                        }
                        for (name, value, doc) in def.instances {
                            let mut m = entries(vec![("value", Y::s(*value))]);
                            m.extend(doc_entry(doc));
                            instances.push((name.to_string(), Y::Map(m)));
                        }
                        scope = Scope {
                            ctx: Some((def, here.to_string())),
                        };
                    }
                    None => self.problem(
                        &at,
                        format!(
                            "the context switch `{sw}` is not in the {} context table",
                            self.format
                        ),
                    ),
                }
            }
        }
        (seq, instances)
    }

    fn enum_body(
        &mut self,
        here: &str,
        ty: &'static TypeLayout,
        tag: &TagSource,
        variants: &'static [VariantLayout],
        scope: &Scope,
    ) -> Vec<(String, Y)> {
        let mut body = Vec::new();
        let mut seq = Vec::new();
        let (tag_id, read) = match tag {
            TagSource::Read { ty: tty, name, .. } => {
                let tag_id = ident(name);
                let mut values = Vec::new();
                for v in variants {
                    let mut m = entries(vec![("id", Y::p(snake(v.name)))]);
                    m.extend(doc_entry(v.doc));
                    values.push((v.tag.to_string(), Y::Map(m)));
                }
                match prim(tty) {
                    Some(p) => seq.push(Y::Map(entries(vec![
                        ("id", Y::p(&tag_id)),
                        ("type", Y::p(p)),
                        ("enum", Y::p(&tag_id)),
                        ("valid", Y::map(vec![("in-enum", Y::p(true))])),
                        (
                            "doc",
                            Y::Doc(format!(
                                "The {name}: picks the layout that follows. Any other value \
                                 is an error."
                            )),
                        ),
                    ]))),
                    None => self.problem(ty.name, format!("tag type `{tty}`")),
                }
                body.push((
                    "enums".to_string(),
                    Y::Map(vec![(tag_id.clone(), Y::Map(values))]),
                ));
                (tag_id, true)
            }
            TagSource::Selected { ty: tty, name } => {
                let tag_id = ident(name);
                match prim(tty) {
                    Some(p) => body.push((
                        "params".to_string(),
                        Y::Seq(vec![Y::Map(entries(vec![
                            ("id", Y::p(&tag_id)),
                            ("type", Y::p(p)),
                            (
                                "doc",
                                Y::Doc(format!(
                                    "The {name}, computed by the enclosing record: it picks \
                                     the layout (no tag in the file)."
                                )),
                            ),
                        ]))]),
                    )),
                    None => self.problem(ty.name, format!("selector type `{tty}`")),
                }
                (tag_id, false)
            }
        };
        for v in variants {
            let vid = snake(v.name);
            let at = format!("{}::{}", ty.name, v.name);
            let cond = match (read, v.tag) {
                (true, _) => format!("{tag_id} == {tag_id}::{vid}"),
                (false, "true") => tag_id.clone(),
                (false, "false") => format!("not {tag_id}"),
                (false, t) => match t.parse::<i64>() {
                    Ok(n) => format!("{tag_id} == {n}"),
                    Err(_) => {
                        self.problem(&at, format!("tag value `{t}`"));
                        continue;
                    }
                },
            };
            if read && v.tag.parse::<i64>().is_err() {
                self.problem(&at, format!("tag value `{}`", v.tag));
            }
            let lone = v.fields.len() == 1 && v.fields[0].name == "0";
            if v.fields.is_empty() {
                continue;
            }
            if lone {
                let f = &v.fields[0];
                let doc = if f.doc.trim().is_empty() {
                    v.doc
                } else {
                    f.doc
                };
                let place = Place {
                    earlier: &[],
                    scope,
                    here,
                };
                match self.field_attrs(f, place, &vid, doc, Some(cond)) {
                    Ok(attrs) => seq.extend(attrs),
                    Err(e) => self.problem(&at, e),
                }
                continue;
            }
            let vty = format!("{here}_{vid}");
            if self.claim(&vty, format!("variant {at}")) {
                let (vseq, vinst) = self.record(&vty, &at, v.fields, None, scope);
                let mut b = Vec::new();
                b.extend(doc_entry(v.doc));
                b.push(("seq".to_string(), Y::Seq(vseq)));
                if !vinst.is_empty() {
                    b.push(("instances".to_string(), Y::Map(vinst)));
                }
                self.bodies.insert(vty.clone(), Y::Map(b));
            }
            let mut m = entries(vec![
                ("id", Y::p(&vid)),
                ("type", Y::p(&vty)),
                ("if", Y::s(cond)),
            ]);
            m.extend(doc_entry(v.doc));
            seq.push(Y::Map(m));
        }
        // Kaitai's usual key order: params, seq, enums.
        let at = usize::from(!read);
        body.insert(at, ("seq".to_string(), Y::Seq(seq)));
        body
    }

    fn flags_body(
        &mut self,
        repr: &str,
        bits: &[mmd_formats::layout::FlagBit],
    ) -> Vec<(String, Y)> {
        let mut inst = Vec::new();
        for b in bits {
            let mut m = entries(vec![(
                "value",
                Y::s(format!("(bits & {:#06x}) != 0", b.mask)),
            )]);
            m.extend(doc_entry(b.doc));
            inst.push((bit_id(b.name), Y::Map(m)));
        }
        let Some(p) = prim(repr) else {
            self.problems
                .push(format!("{}: flag representation `{repr}`", self.format));
            return Vec::new();
        };
        vec![
            (
                "seq".to_string(),
                Y::Seq(vec![Y::Map(entries(vec![
                    ("id", Y::p("bits")),
                    ("type", Y::p(p)),
                    (
                        "doc",
                        Y::Doc("The raw bits; bits without a name are kept as they are.".into()),
                    ),
                ]))]),
            ),
            ("instances".to_string(), Y::Map(inst)),
        ]
    }

    fn type_body(&mut self, ty: &'static TypeLayout, scope: &Scope) -> Vec<(String, Y)> {
        let here = snake(ty.name);
        let mut body = Vec::new();
        body.extend(doc_entry(ty.doc));
        match &ty.body {
            Body::Struct(fields) => {
                let (seq, inst) = self.record(&here, ty.name, fields, ty.magic, scope);
                body.push(("seq".to_string(), Y::Seq(seq)));
                if !inst.is_empty() {
                    body.push(("instances".to_string(), Y::Map(inst)));
                }
            }
            Body::Enum { tag, variants } => {
                body.extend(self.enum_body(&here, ty, tag, variants, scope));
            }
            Body::Flags { repr, bits } => body.extend(self.flags_body(repr, bits)),
            Body::Opaque => match opaque_type(ty.name) {
                Some(Y::Map(m)) => body.extend(m),
                _ => self.problem(ty.name, "opaque type with no hand-written Kaitai form"),
            },
        }
        body
    }
}

/// Renders one format as a `.ksy` document.
pub fn render_ksy(format: &KsyFormat) -> Result<String, KsyError> {
    let mut all = HashMap::new();
    collect(format.root, &mut all);
    let mut r = Renderer {
        format: format.id,
        root_id: format.id.to_string(),
        contexts: contexts(format.id),
        all,
        order: Vec::new(),
        bodies: HashMap::new(),
        claims: HashMap::new(),
        queue: VecDeque::new(),
        problems: Vec::new(),
    };
    // The root type is the file; its id is the format's.
    r.claims.insert(
        format.id.to_string(),
        format!("{} (root)", format.root.name),
    );
    let root_scope = Scope::none();
    let root_body = {
        let mut body = Vec::new();
        match &format.root.body {
            Body::Struct(fields) => {
                let (seq, inst) = r.record(
                    format.id,
                    format.root.name,
                    fields,
                    format.root.magic,
                    &root_scope,
                );
                body.push(("seq".to_string(), Y::Seq(seq)));
                if !inst.is_empty() {
                    body.push(("instances".to_string(), Y::Map(inst)));
                }
            }
            _ => r.problem(format.root.name, "the root type must be a struct"),
        }
        body
    };
    while let Some((ty, scope)) = r.queue.pop_front() {
        let body = r.type_body(ty, &scope);
        r.bodies.insert(snake(ty.name), Y::Map(body));
    }
    if !r.problems.is_empty() {
        return Err(KsyError {
            problems: r.problems,
        });
    }
    let mut top = vec![(
        "meta".to_string(),
        Y::map(vec![
            ("id", Y::p(format.id)),
            ("title", Y::s(format.title)),
            ("application", Y::s(format.application)),
            ("file-extension", Y::p(format.id)),
            ("license", Y::s("MIT OR Apache-2.0")),
            ("ks-version", Y::s("0.11")),
            ("endian", Y::p("le")),
        ]),
    )];
    let mut intro = String::new();
    intro.push_str(format.intro);
    if !format.root.doc.trim().is_empty() {
        intro.push_str("\n\n");
        intro.push_str(format.root.doc.trim());
    }
    top.extend(doc_entry(&intro));
    top.extend(root_body);
    let mut types = Vec::new();
    for id in &r.order {
        if let Some(b) = r.bodies.remove(id) {
            types.push((id.clone(), b));
        }
    }
    top.push(("types".to_string(), Y::Map(types)));
    let mut out = String::new();
    out.push_str(
        "# Generated by mmd-spec from the layout descriptors of mmd-formats.\n\
         # Do not edit: run `cargo run -p mmd-spec`.\n",
    );
    write_map(&mut out, &top, 0);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmd_formats::layout::Describe;

    fn no_layout() -> Option<&'static TypeLayout> {
        None
    }

    const fn field(
        name: &'static str,
        ty: &'static str,
        size: Size,
        repeat: Repeat,
        presence: Presence,
        switch_ctx: Option<&'static str>,
    ) -> FieldLayout {
        FieldLayout {
            name,
            doc: "A field.",
            ty,
            size,
            layout: no_layout,
            repeat,
            presence,
            select: None,
            switch_ctx,
        }
    }

    static ODD_FIELDS: [FieldLayout; 5] = [
        field(
            "a",
            "u8",
            Size::Fixed(1),
            Repeat::One,
            Presence::Always,
            None,
        ),
        field(
            "b",
            "u8",
            Size::Fixed(1),
            Repeat::One,
            Presence::If("a.count_ones() > 1"),
            None,
        ),
        field(
            "c",
            "u32",
            Size::Fixed(4),
            Repeat::Len("ctx.frames"),
            Presence::Always,
            Some("Other::of(a)"),
        ),
        field(
            "d",
            "Mystery",
            Size::Fixed(4),
            Repeat::One,
            Presence::Always,
            None,
        ),
        field(
            "e",
            "u8",
            Size::Fixed(1),
            Repeat::Len("ctx.frames"),
            Presence::Always,
            None,
        ),
    ];

    static ODD: TypeLayout = TypeLayout {
        name: "Odd",
        doc: "A made-up type with parts the renderer cannot express.",
        context: None,
        magic: None,
        body: Body::Struct(&ODD_FIELDS),
    };

    fn odd_format(id: &'static str, root: &'static TypeLayout) -> KsyFormat {
        KsyFormat {
            id,
            title: "Odd",
            application: "none",
            intro: "Made up.",
            root,
        }
    }

    #[test]
    fn every_unknown_part_is_listed() {
        let err = render_ksy(&odd_format("odd", &ODD)).unwrap_err();
        let text = err.to_string();
        assert_eq!(err.problems.len(), 5, "{text}");
        for part in [
            "Odd.b: cannot translate `a.count_ones() > 1`",
            "Odd.c: cannot translate `ctx.frames`",
            "the context switch `Other::of(a)` is not in the odd context table",
            "Odd.d: no Kaitai form for the type `Mystery`",
            "Odd.e: cannot translate `ctx.frames`: the context has no member",
        ] {
            assert!(text.contains(part), "missing {part:?} in:\n{text}");
        }
    }

    #[test]
    fn the_formats_render_with_their_traps() {
        let pmx = mmd_formats::pmx::Pmx::layout().unwrap();
        let text = render_ksy(&odd_format("pmx", pmx)).unwrap();
        // Vertex indices are unsigned at 1 and 2 bytes, every other kind signed.
        assert!(text.contains(
            "switch-on: vertex_index_size\n      cases:\n        1: u1\n        2: u2\n        4: s4"
        ));
        assert!(text.contains(
            "switch-on: _root.bone_index_size\n          cases:\n            1: s1\n            2: s2\n            4: s4"
        ));
        assert!(text.contains("if: 'shared_toon_flag == shared_toon_flag::shared'"));
        assert!(text.contains("if: 'is_v21 and not _io.eof'"));
        assert!(text.contains("type: 'bone_tail(flags.tail_is_bone)'"));
        assert!(text.contains("encoding: UTF-16LE"));
        let vmd = mmd_formats::vmd::Vmd::layout().unwrap();
        let text = render_ksy(&odd_format("vmd", vmd)).unwrap();
        assert!(text.contains("type: morph_keys_block\n    if: 'not _io.eof'"));
        assert!(text.contains("type: 'model_name(version_number)'"));
    }

    #[test]
    fn names() {
        assert_eq!(snake("AdditionalUv1"), "additional_uv1");
        assert_eq!(snake("IkLink"), "ik_link");
        assert_eq!(snake("V1"), "v1");
        assert_eq!(ident("shared-toon flag"), "shared_toon_flag");
        assert_eq!(ident("VMD version"), "vmd_version");
        assert_eq!(array("[f32; 3]"), Some(("f32", 3)));
        assert_eq!(array("[ShiftJis<100>; 10]"), Some(("ShiftJis<100>", 10)));
    }
}
