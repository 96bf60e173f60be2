//! The untyped tree a JSON document parses into ([`Json`]), which [`FromJson`] builds
//! format values from.
//!
//! [`FromJson`]: super::FromJson

use std::borrow::Cow;

/// A JSON value, as parsed: objects keep their members in document order, numbers keep
/// their text (so each is read exactly as the type it becomes), strings borrow from the
/// document where they hold no escape.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number<'a>),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object: its members in document order (a repeated key is kept twice, and
    /// [`FromJson`](super::FromJson) rejects it).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// A JSON number: its text as written (from [`parse`](super::parse)), or the value a
/// `serde` deserializer gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number<'a> {
    /// The number's text, valid JSON number syntax (`-12`, `0.5`, `1e-45`).
    Text(&'a str),
    /// A float from a deserializer.
    F64(f64),
    /// A negative integer from a deserializer.
    I64(i64),
    /// A non-negative integer from a deserializer.
    U64(u64),
}

impl Number<'_> {
    /// The value as an integer, when it is one (`1.0` and `1e3` are not: an integer field
    /// takes integer syntax only).
    pub fn as_integer(&self) -> Option<i128> {
        match *self {
            Number::Text(t) => t.parse().ok(),
            Number::I64(v) => Some(v.into()),
            Number::U64(v) => Some(v.into()),
            Number::F64(_) => None,
        }
    }

    /// The value as the nearest `f32` (from the text: correctly rounded).
    pub fn as_f32(&self) -> f32 {
        match *self {
            Number::Text(t) => t.parse().unwrap_or(f32::NAN),
            Number::F64(v) => v as f32,
            Number::I64(v) => v as f32,
            Number::U64(v) => v as f32,
        }
    }

    /// The value as the nearest `f64`.
    pub fn as_f64(&self) -> f64 {
        match *self {
            Number::Text(t) => t.parse().unwrap_or(f64::NAN),
            Number::F64(v) => v,
            Number::I64(v) => v as f64,
            Number::U64(v) => v as f64,
        }
    }
}

impl std::fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Text(t) => f.write_str(t),
            Number::F64(v) => write!(f, "{v:?}"),
            Number::I64(v) => write!(f, "{v}"),
            Number::U64(v) => write!(f, "{v}"),
        }
    }
}

impl Number<'_> {
    /// The number as a message quotes it: its text cut after 40 characters (`…` and the
    /// length follow), so a number of a million digits does not make a message of a
    /// million bytes.
    pub fn shown(&self) -> String {
        let text = self.to_string();
        let count = text.chars().count();
        if count <= 40 {
            return text;
        }
        let head: String = text.chars().take(40).collect();
        format!("{head}… ({count} characters)")
    }
}

impl<'a> Json<'a> {
    /// What the value is, for messages: `null`, `a string`, `the number 1.5`.
    pub fn describe(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => format!("`{b}`"),
            Json::Number(n) => format!("the number {}", n.shown()),
            Json::String(s) => {
                let mut shown: String = s.chars().take(40).collect();
                if shown.len() < s.len() {
                    shown.push('…');
                }
                format!("the string {shown:?}")
            }
            Json::Array(a) => format!("an array of {}", a.len()),
            Json::Object(_) => "an object".into(),
        }
    }

    /// The member `key` of an object (the first, if it is repeated).
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, when this is an object.
    pub fn as_object(&self) -> Option<&[(Cow<'a, str>, Json<'a>)]> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }
}
