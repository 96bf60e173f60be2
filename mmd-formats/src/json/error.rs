//! The error of building a value from JSON: where in the document (a JSON path such as
//! `$.bones[3].name`, or a line and column for text that is not JSON) and what is wrong.

use crate::path::Segment;
use std::fmt;

/// Why a JSON document does not build a value: the JSON path of the value at fault (or
/// the line and column of a syntax error) and what is wrong with it.
///
/// ```
/// use mmd_formats::json::{self, FromJson};
/// use mmd_formats::ShiftJis;
/// let doc = json::parse(r#"{"name": "センター上半身下半身"}"#).unwrap();
/// let name = doc.get("name").unwrap();
/// let err = ShiftJis::<15>::from_json(name, &()).unwrap_err().in_field("name");
/// assert_eq!(err.to_string(), "$.name: 20 bytes do not fit the 15-byte field");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// The path, innermost segment first (errors are built from the inside out).
    rev_path: Vec<Segment>,
    /// Line and column (1-based) of a syntax error.
    at: Option<(usize, usize)>,
    message: String,
}

impl JsonError {
    /// An error about the value at hand; the callers above add the path.
    pub fn new(message: impl Into<String>) -> Self {
        JsonError {
            rev_path: Vec::new(),
            at: None,
            message: message.into(),
        }
    }

    /// "expected WHAT, found the string ..." for the value `found`.
    pub fn expected(what: &str, found: &super::Json<'_>) -> Self {
        JsonError::new(format!("expected {what}, found {}", found.describe()))
    }

    /// A syntax error at a line and column (1-based).
    pub fn syntax(line: usize, column: usize, message: impl Into<String>) -> Self {
        JsonError {
            rev_path: Vec::new(),
            at: Some((line, column)),
            message: message.into(),
        }
    }

    /// The same error, inside the field `name` of the enclosing object.
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.rev_path.push(Segment::Field(name));
        self
    }

    /// The same error, inside element `index` of the enclosing array.
    pub fn in_index(mut self, index: usize) -> Self {
        self.rev_path.push(Segment::Index(index));
        self
    }

    /// The same error, inside `segment`.
    pub fn in_segment(mut self, segment: Segment) -> Self {
        self.rev_path.push(segment);
        self
    }

    /// The JSON path of the value at fault, outermost first (empty for the whole
    /// document and for syntax errors).
    pub fn path(&self) -> impl Iterator<Item = &Segment> {
        self.rev_path.iter().rev()
    }

    /// The path as written in messages: `$.bones[3].name` (`$` for the document).
    pub fn path_string(&self) -> String {
        use std::fmt::Write;
        let mut s = String::from("$");
        for seg in self.path() {
            let _ = match seg {
                Segment::Field(name) => write!(s, ".{name}"),
                Segment::Index(i) => write!(s, "[{i}]"),
                Segment::Count => write!(s, ".count"),
                Segment::Tag => write!(s, ".tag"),
            };
        }
        s
    }

    /// The line and column (1-based) of a syntax error.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        self.at
    }

    /// What is wrong, without the where.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error of writing a value that was built: the writer's own error (which names
    /// the field path, which is the JSON path too).
    pub fn from_write(e: &crate::Error) -> Self {
        let mut err = JsonError::new(match e.kind() {
            crate::ErrorKind::Invalid { expected, found }
            | crate::ErrorKind::Inconsistent { expected, found } => {
                format!("cannot be written: expected {expected}, found {found}")
            }
            _ => format!("cannot be written: {e}"),
        });
        let segs: Vec<Segment> = e
            .path()
            .copied()
            .filter(|s| matches!(s, Segment::Field(_) | Segment::Index(_)))
            .collect();
        for seg in segs.into_iter().rev() {
            err.rev_path.push(seg);
        }
        err
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "line {line}, column {column}: {}", self.message),
            None => write!(f, "{}: {}", self.path_string(), self.message),
        }
    }
}

impl std::error::Error for JsonError {}
