//! Renders the MMD format reference from the layout descriptors that `#[derive(Mmd)]`
//! emits, so the reference is generated from the same statement as the reader and writer.
//!
//! [`documents`] lists every document with its path; [`render_markdown`] renders one
//! format's Markdown reference from its root type, [`ksy::render_ksy`] its Kaitai Struct
//! grammar.

#![deny(missing_docs)]

use mmd_formats::layout::{
    Body, Describe, FieldLayout, Presence, Repeat, Size, TagSource, TypeLayout,
};
use std::collections::HashSet;
use std::fmt::Write;

pub mod expr;
pub mod ksy;
mod yaml;

/// One generated document.
pub struct Document {
    /// The path under `mmd-spec/` (`reference/pmx.md`, `kaitai/pmx.ksy`).
    pub file: String,
    /// The rendered text.
    pub text: String,
}

/// One format of the reference: what its documents say besides the descriptors.
pub struct Format {
    /// The file stem and Kaitai id (`pmx`).
    pub id: &'static str,
    /// The document title.
    pub title: &'static str,
    /// The programs that read and write the format (Kaitai `meta/application`).
    pub application: &'static str,
    /// The introduction.
    pub intro: &'static str,
    /// The root type.
    pub root: &'static TypeLayout,
}

/// The formats the reference covers, with their root types.
pub fn formats() -> Vec<Format> {
    let mut out = Vec::new();
    if let Some(root) = mmd_formats::pmx::Pmx::layout() {
        out.push(Format {
            id: "pmx",
            title: "PMX 2.0 / 2.1",
            application: "PMX Editor, MikuMikuDance 7.39 and later",
            intro: "PMX is the model format of PMX Editor and MikuMikuDance 7.39 and later. \
                 All numbers are little-endian; `f32` is IEEE 754 single precision. The \
                 header's globals declare the text encoding, the number of additional UVs \
                 and six index widths; every later section is read with that context.",
            root,
        });
    }
    if let Some(root) = mmd_formats::pmd::Pmd::layout() {
        out.push(Format {
            id: "pmd",
            title: "PMD (Polygon Model Data)",
            application: "MikuMikuDance",
            intro: "PMD is the model format of MikuMikuDance before PMX. All numbers are \
                 little-endian; indices are fixed-width `u16`/`u32`. Names are fixed-length \
                 Shift_JIS (code page 932) fields, NUL-terminated when shorter than the \
                 field, with whatever junk follows the NUL (0xFD padding, leftovers) kept as \
                 it is. The extension blocks (English names, toon textures, rigid bodies, \
                 joints) may each be missing at the end of the file; missing and present \
                 with count 0 are different files.",
            root,
        });
    }
    if let Some(root) = mmd_formats::vmd::Vmd::layout() {
        out.push(Format {
            id: "vmd",
            title: "VMD (Vocaloid Motion Data)",
            application: "MikuMikuDance",
            intro: "VMD holds key frames: bone and morph motion, camera, light, self-shadow \
                 and IK/show states. All numbers are little-endian. Names are fixed-length \
                 Shift_JIS (code page 932) fields, NUL-terminated when shorter than the \
                 field, with whatever junk follows the NUL kept as it is. Every block after \
                 the bone keys may be missing at the end of the file; a missing block and a \
                 block with count 0 are different files.",
            root,
        });
    }
    out
}

/// Every generated document: the Markdown reference (`reference/*.md`) and the Kaitai
/// Struct grammars (`kaitai/*.ksy`) of each format.
///
/// Fails when a descriptor holds something the Kaitai renderer cannot express (the error
/// lists every such part).
pub fn documents() -> Result<Vec<Document>, ksy::KsyError> {
    let mut docs = Vec::new();
    let mut problems = Vec::new();
    for f in formats() {
        docs.push(Document {
            file: format!("reference/{}.md", f.id),
            text: render_markdown(f.title, f.intro, f.root),
        });
        let k = ksy::KsyFormat {
            id: f.id,
            title: f.title,
            application: f.application,
            intro: f.intro,
            root: f.root,
        };
        match ksy::render_ksy(&k) {
            Ok(text) => docs.push(Document {
                file: format!("kaitai/{}.ksy", f.id),
                text,
            }),
            Err(e) => problems.extend(e.problems),
        }
    }
    if problems.is_empty() {
        Ok(docs)
    } else {
        Err(ksy::KsyError { problems })
    }
}

/// Renders the reference of one format, starting at its root type and following every
/// field's type, each type once, in order of first appearance.
pub fn render_markdown(title: &str, intro: &str, root: &'static TypeLayout) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {title}\n");
    let _ = writeln!(
        out,
        "<!-- Generated by mmd-spec from the layout descriptors of mmd-formats. \
         Do not edit: run `cargo run -p mmd-spec`. -->\n"
    );
    let _ = writeln!(out, "{intro}\n");
    let _ = writeln!(
        out,
        "Sizes are in bytes. \"index (bone)\" means an index whose width (1, 2 or 4) the \
         header declares for that kind; \"text\" is an `i32` byte length followed by that \
         many bytes. Expressions in the condition column are over earlier fields of the \
         same record and the context (`ctx`).\n"
    );
    let mut seen = HashSet::new();
    let mut queue = vec![root];
    let mut i = 0;
    while i < queue.len() {
        let ty = queue[i];
        i += 1;
        if !seen.insert(ty.name) {
            continue;
        }
        render_type(&mut out, ty, &mut queue);
    }
    out
}

fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

fn size_text(size: Size) -> String {
    match size {
        Size::Fixed(n) => n.to_string(),
        Size::Index(kind) => format!("index ({})", kind.name()),
        Size::Text => "text (4 + length)".to_string(),
        Size::Variable => "variable".to_string(),
    }
}

fn field_size(f: &FieldLayout) -> String {
    let one = size_text(f.size);
    match f.repeat {
        Repeat::One => one,
        Repeat::Counted {
            count_ty,
            count_size,
        } => format!("{count_size} ({count_ty} count) + count × {one}"),
        Repeat::Len(e) => format!("`{e}` × {one}"),
        Repeat::Rest => "to the end of the file".to_string(),
    }
}

fn field_type(f: &FieldLayout) -> String {
    match f.repeat {
        Repeat::One => format!("`{}`", f.ty),
        Repeat::Counted { .. } | Repeat::Len(_) => format!("`{}`[]", f.ty),
        Repeat::Rest => "bytes".to_string(),
    }
}

fn condition(f: &FieldLayout) -> String {
    let mut parts = Vec::new();
    match f.presence {
        Presence::Always => {}
        Presence::If(c) => parts.push(format!("if `{c}`")),
        Presence::UnlessEof => parts.push("absent if the file ends here".to_string()),
        Presence::IfUnlessEof(c) => {
            parts.push(format!("if `{c}`, and absent if the file ends here"))
        }
    }
    if let Some(s) = f.select {
        parts.push(format!("variant chosen by `{s}`"));
    }
    if let Some(s) = f.switch_ctx {
        parts.push(format!("then the context becomes `{s}`"));
    }
    if parts.is_empty() {
        "always".to_string()
    } else {
        parts.join("; ")
    }
}

/// Byte offsets of the fields, when every field has a fixed size and is always present.
fn fixed_offsets(fields: &[FieldLayout], start: u64) -> Option<Vec<u64>> {
    let mut at = start;
    let mut out = Vec::new();
    for f in fields {
        match (f.size, f.repeat, f.presence) {
            (Size::Fixed(n), Repeat::One, Presence::Always) if f.select.is_none() => {
                out.push(at);
                at += n;
            }
            _ => return None,
        }
    }
    Some(out)
}

fn render_fields(
    out: &mut String,
    fields: &'static [FieldLayout],
    start: u64,
    queue: &mut Vec<&'static TypeLayout>,
) {
    if fields.is_empty() {
        let _ = writeln!(out, "No fields.\n");
        return;
    }
    let offsets = fixed_offsets(fields, start);
    if offsets.is_some() {
        let _ = writeln!(out, "| offset | field | type | size | description |");
        let _ = writeln!(out, "|---|---|---|---|---|");
    } else {
        let _ = writeln!(out, "| field | type | size | present | description |");
        let _ = writeln!(out, "|---|---|---|---|---|");
    }
    for (i, f) in fields.iter().enumerate() {
        if let Some(l) = (f.layout)() {
            queue.push(l);
        }
        let ty = match (f.layout)() {
            Some(l) => format!("{} ([{}](#{}))", field_type(f), l.name, anchor(l.name)),
            None => field_type(f),
        };
        match &offsets {
            Some(offs) => {
                let _ = writeln!(
                    out,
                    "| {} | `{}` | {} | {} | {} |",
                    offs[i],
                    f.name,
                    ty,
                    field_size(f),
                    cell(f.doc)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} |",
                    f.name,
                    ty,
                    field_size(f),
                    cell(&condition(f)),
                    cell(f.doc)
                );
            }
        }
    }
    let _ = writeln!(out);
}

fn anchor(name: &str) -> String {
    name.to_lowercase()
}

fn render_type(out: &mut String, ty: &'static TypeLayout, queue: &mut Vec<&'static TypeLayout>) {
    let _ = writeln!(out, "## {}\n", ty.name);
    if !ty.doc.is_empty() {
        let _ = writeln!(out, "{}\n", ty.doc.trim());
    }
    if let Some(ctx) = ty.context {
        if ctx != "()" {
            let _ = writeln!(out, "Read with the context `{ctx}`.\n");
        }
    }
    let mut start = 0;
    if let Some(m) = ty.magic {
        let _ = writeln!(
            out,
            "Starts with the {}-byte signature `{}`.\n",
            m.len(),
            String::from_utf8_lossy(m).replace(' ', "␠")
        );
        start = m.len() as u64;
    }
    match &ty.body {
        Body::Struct(fields) => render_fields(out, fields, start, queue),
        Body::Enum { tag, variants } => {
            match tag {
                TagSource::Read { ty, size, name } => {
                    let _ = writeln!(
                        out,
                        "A {name} (`{ty}`, {size} byte{}) is read first; its value picks the \
                         layout that follows. Any other value is an error.\n",
                        if *size == 1 { "" } else { "s" }
                    );
                }
                TagSource::Selected { ty, name } => {
                    let _ = writeln!(
                        out,
                        "No tag in the file: the {name} (`{ty}`) is computed by the enclosing \
                         record (see its `variant chosen by` condition).\n"
                    );
                }
            }
            let _ = writeln!(out, "| value | variant | layout | description |");
            let _ = writeln!(out, "|---|---|---|---|");
            for v in variants.iter() {
                let lone = v.fields.len() == 1 && v.fields[0].name == "0";
                let layout = match v.fields.first() {
                    None => "nothing follows".to_string(),
                    Some(f) if lone => {
                        if let Some(l) = (f.layout)() {
                            queue.push(l);
                        }
                        let ty = match (f.layout)() {
                            Some(l) => format!("[{}](#{})", l.name, anchor(l.name)),
                            None => format!("`{}`", f.ty),
                        };
                        format!("{ty}: {}", field_size(f))
                    }
                    Some(_) => format!(
                        "see [{0}::{1}](#{2}{3})",
                        ty.name,
                        v.name,
                        anchor(ty.name),
                        anchor(v.name)
                    ),
                };
                let _ = writeln!(
                    out,
                    "| {} | `{}` | {} | {} |",
                    v.tag,
                    v.name,
                    cell(&layout),
                    cell(v.doc)
                );
            }
            let _ = writeln!(out);
            for v in variants.iter() {
                let lone = v.fields.len() == 1 && v.fields[0].name == "0";
                if v.fields.is_empty() || lone {
                    continue;
                }
                let _ = writeln!(out, "### {}::{}\n", ty.name, v.name);
                let _ = writeln!(out, "Value {}. {}\n", v.tag, cell(v.doc));
                render_fields(out, v.fields, 0, queue);
            }
        }
        Body::Flags { repr, bits } => {
            let _ = writeln!(
                out,
                "A bit set stored as `{repr}`. Bits without a name are kept as they are.\n"
            );
            let _ = writeln!(out, "| mask | name | description |");
            let _ = writeln!(out, "|---|---|---|");
            for b in bits.iter() {
                let _ = writeln!(out, "| {:#06x} | `{}` | {} |", b.mask, b.name, cell(b.doc));
            }
            let _ = writeln!(out);
        }
        Body::Opaque => {}
    }
}
