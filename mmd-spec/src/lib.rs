//! Renders a format reference from the layout descriptors that `#[derive(Mmd)]` and
//! `#[derive(MmdContext)]` emit, so the reference is generated from the same statement as
//! the reader and writer: Markdown ([`render_markdown`]), the JSON Schema of the format's
//! JSON form ([`render_schema`]) and a Kaitai Struct grammar ([`render_ksy`]), for any root type that implements
//! [`Describe`], ours or one of a downstream crate.
//!
//! Nothing here knows a particular format: fields, tags, conditions, counts, contexts
//! and leaf types (text, fixed-length text, indices, bytes) all come from the descriptors.
//!
//! ```
//! use mmd_formats::{Describe, Mmd};
//!
//! /// A tiny file: a signature, then frames.
//! #[derive(Mmd)]
//! #[mmd(magic = b"TINY", file(id = "tiny", title = "Tiny", application = "Tiny Editor"))]
//! struct Tiny {
//!     /// Frame numbers, a u16 count first.
//!     #[mmd(count = u16)]
//!     frames: Vec<u32>,
//! }
//!
//! let spec = mmd_spec::Spec::of::<Tiny>().unwrap();
//! let markdown = mmd_spec::render_markdown(&spec);
//! assert!(markdown.starts_with("# Tiny"));
//! let ksy = mmd_spec::render_ksy(&spec).unwrap();
//! assert!(ksy.contains("id: num_frames"));
//! ```

#![deny(missing_docs)]

use mmd_formats::layout::{Describe, TypeLayout};
use std::fmt;

pub mod expr;
pub mod ksy;
mod lint;
mod markdown;
mod schema;
mod yaml;

pub use ksy::{render_ksy, KsyError};
pub use lint::{render_lint_reference, render_lint_schema};
pub use markdown::render_markdown;
pub use schema::render_schema;

/// One format to render: what its documents call it, and its root type.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The file stem and Kaitai id (`pmx`).
    pub id: String,
    /// The document title.
    pub title: String,
    /// The programs that read and write the format (Kaitai `meta/application`).
    pub application: String,
    /// The introduction (the root type's doc comment).
    pub intro: String,
    /// The licence of the rendered documents (Kaitai `meta/license`), if one is to be
    /// stated.
    pub license: Option<String>,
    /// The root type.
    pub root: &'static TypeLayout,
}

/// Why a type cannot be rendered as a format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

impl Spec {
    /// The format whose root type is `T`.
    pub fn of<T: Describe>() -> Result<Spec, SpecError> {
        let root = T::layout().ok_or_else(|| {
            SpecError(format!(
                "`{}` has no layout descriptor (derive `Mmd` on it)",
                std::any::type_name::<T>()
            ))
        })?;
        Ok(Spec::from_layout(root))
    }

    /// The format whose root type has this descriptor: the id, title and application its
    /// `#[mmd(file(...))]` attribute gives (else its snake-case name and its name), and its
    /// doc comment as the introduction.
    pub fn from_layout(root: &'static TypeLayout) -> Spec {
        let (id, title, application) = match &root.file {
            Some(f) => (
                f.id.to_string(),
                f.title.to_string(),
                f.application.to_string(),
            ),
            None => (ksy::snake(root.name), root.name.to_string(), String::new()),
        };
        Spec {
            id,
            title,
            application,
            intro: root.doc.trim().to_string(),
            license: None,
            root,
        }
    }

    /// The same, with the licence the documents state.
    pub fn with_license(mut self, license: impl Into<String>) -> Spec {
        self.license = Some(license.into());
        self
    }
}

/// One generated document.
pub struct Document {
    /// The path under `mmd-spec/` (`reference/pmx.md`, `kaitai/pmx.ksy`).
    pub file: String,
    /// The rendered text.
    pub text: String,
}

/// The Markdown reference (`reference/<id>.md`), the JSON Schema of its JSON form
/// (`schema/<id>.schema.json`) and the Kaitai grammar (`kaitai/<id>.ksy`) of each format.
///
/// Fails when a descriptor holds something the Kaitai renderer cannot express (the error
/// lists every such part).
pub fn documents_for(specs: &[Spec]) -> Result<Vec<Document>, KsyError> {
    let mut docs = Vec::new();
    let mut problems = Vec::new();
    for s in specs {
        docs.push(Document {
            file: format!("reference/{}.md", s.id),
            text: render_markdown(s),
        });
        docs.push(Document {
            file: format!("schema/{}.schema.json", s.id),
            text: render_schema(s),
        });
        match render_ksy(s) {
            Ok(text) => docs.push(Document {
                file: format!("kaitai/{}.ksy", s.id),
                text,
            }),
            Err(e) => problems.extend(e.problems),
        }
    }
    if problems.is_empty() {
        Ok(docs)
    } else {
        Err(KsyError { problems })
    }
}

/// The documents of every file format of `mmd-formats`
/// ([`mmd_formats::file_layouts`]), and the reference and JSON Schema of `mmd lint`
/// (`reference/lint.md`, `schema/lint.schema.json`), as this repository commits them.
pub fn documents() -> Result<Vec<Document>, KsyError> {
    let specs: Vec<Spec> = mmd_formats::file_layouts()
        .into_iter()
        .map(|l| Spec::from_layout(l).with_license("MIT OR Apache-2.0"))
        .collect();
    let mut docs = documents_for(&specs)?;
    docs.push(Document {
        file: "reference/lint.md".into(),
        text: render_lint_reference(),
    });
    docs.push(Document {
        file: "schema/lint.schema.json".into(),
        text: render_lint_schema(),
    });
    Ok(docs)
}
