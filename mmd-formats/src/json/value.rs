//! The untyped tree a JSON document parses into ([`Json`]), which [`FromJson`] builds
//! format values from.
//!
//! [`FromJson`]: super::FromJson

use std::borrow::Cow;

/// A JSON value, as parsed: objects keep their members in document order, numbers keep
/// their text (so each is read exactly as the type it becomes), strings borrow from the
/// document where they hold no escape.
///
/// A long array from [`parse`](super::parse) is [`Json::Lazy`]: kept as its text and read
/// an element at a time by [`Json::elements`], so that a document of millions of small
/// values (`[0,0,0,..]`, two bytes each) never becomes millions of 32-byte values at once.
/// Two values are equal when they hold the same values, whichever form an array is in.
#[derive(Debug, Clone)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number<'a>),
    /// A string.
    String(Cow<'a, str>),
    /// An array, its elements built.
    Array(Vec<Json<'a>>),
    /// An array whose text is longer than [`LAZY_ARRAY_BYTES`], checked and kept as text:
    /// its elements are parsed as [`Json::elements`] reaches them.
    Lazy(LazyArray<'a>),
    /// An object: its members in document order (a repeated key is kept twice, and
    /// [`FromJson`](super::FromJson) rejects it).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// How much text (from the `[`) an array from [`parse`](super::parse) may span and still
/// be built as a [`Json::Array`]; a longer one becomes a [`Json::Lazy`]. Every array of
/// the formats' fixed shapes (a vector, a quaternion, an interpolation curve) is far
/// shorter.
pub const LAZY_ARRAY_BYTES: usize = 4096;

/// A long array of a parsed document: where its text starts, how many elements it holds
/// and how deep it sits, so that its elements can be parsed when they are read. Made by
/// [`parse`](super::parse), which has checked the whole text already.
#[derive(Debug, Clone, Copy)]
pub struct LazyArray<'a> {
    /// The whole document.
    pub(super) doc: &'a str,
    /// The position of the array's `[` in `doc`.
    pub(super) start: usize,
    /// How many elements it holds.
    pub(super) len: usize,
    /// How deep its elements sit (for the nesting limit).
    pub(super) depth: usize,
}

impl<'a> LazyArray<'a> {
    /// How many elements the array holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds none (never, for an array that [`parse`](super::parse) made lazy).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Its text, from `[` to `]`.
    pub fn text(&self) -> &'a str {
        super::parse::array_text(self)
    }
}

/// The elements of an array in either form ([`Json::elements`]): those of a
/// [`Json::Array`] by reference, those of a [`Json::Lazy`] parsed one at a time.
pub struct Elements<'b, 'a> {
    inner: ElementsInner<'b, 'a>,
}

enum ElementsInner<'b, 'a> {
    Built(std::slice::Iter<'b, Json<'a>>),
    Lazy(super::parse::LazyElements<'a>),
}

impl<'b, 'a> Iterator for Elements<'b, 'a> {
    /// An element; an `Err` only if the array's text was not what `parse` checked.
    type Item = Result<Cow<'b, Json<'a>>, super::JsonError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            ElementsInner::Built(items) => items.next().map(|j| Ok(Cow::Borrowed(j))),
            ElementsInner::Lazy(items) => items.next().map(|r| r.map(Cow::Owned)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            ElementsInner::Built(items) => items.size_hint(),
            ElementsInner::Lazy(items) => items.size_hint(),
        }
    }
}

impl PartialEq for Json<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Number(a), Json::Number(b)) => a == b,
            (Json::String(a), Json::String(b)) => a == b,
            (Json::Object(a), Json::Object(b)) => a == b,
            (Json::Array(_) | Json::Lazy(_), Json::Array(_) | Json::Lazy(_)) => {
                let (Some(a), Some(b)) = (self.elements(), other.elements()) else {
                    return false;
                };
                if a.size_hint() != b.size_hint() {
                    return false;
                }
                a.zip(b).all(|(x, y)| match (x, y) {
                    (Ok(x), Ok(y)) => x == y,
                    _ => false,
                })
            }
            _ => false,
        }
    }
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
            Json::Lazy(a) => format!("an array of {}", a.len()),
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

    /// The elements, when this is a built array ([`Json::Array`]); `None` for a
    /// [`Json::Lazy`] one, whose elements [`elements`](Json::elements) gives.
    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements, in order, when this is an array of either form.
    ///
    /// ```
    /// use mmd_formats::json::parse;
    /// let long = format!("[{}0]", "0,".repeat(10_000));
    /// let doc = parse(&long).unwrap();
    /// assert!(doc.as_array().is_none()); // kept as text
    /// assert_eq!(doc.elements().unwrap().count(), 10_001);
    /// ```
    pub fn elements(&self) -> Option<Elements<'_, 'a>> {
        let inner = match self {
            Json::Array(a) => ElementsInner::Built(a.iter()),
            Json::Lazy(a) => ElementsInner::Lazy(super::parse::LazyElements::new(a)),
            _ => return None,
        };
        Some(Elements { inner })
    }

    /// The same value with every array built ([`Json::Lazy`] ones parsed, at every
    /// depth), for a caller that edits the tree or indexes into it; it costs a value per
    /// element, as a tree of values does.
    pub fn into_built(self) -> Result<Json<'a>, super::JsonError> {
        Ok(match self {
            Json::Array(items) => Json::Array(
                items
                    .into_iter()
                    .map(Json::into_built)
                    .collect::<Result<_, _>>()?,
            ),
            Json::Lazy(a) => Json::Array(
                super::parse::LazyElements::new(&a)
                    .map(|item| item.and_then(Json::into_built))
                    .collect::<Result<_, _>>()?,
            ),
            Json::Object(members) => Json::Object(
                members
                    .into_iter()
                    .map(|(k, v)| Ok((k, v.into_built()?)))
                    .collect::<Result<_, super::JsonError>>()?,
            ),
            other => other,
        })
    }

    /// How many elements, when this is an array of either form.
    pub fn array_len(&self) -> Option<usize> {
        match self {
            Json::Array(a) => Some(a.len()),
            Json::Lazy(a) => Some(a.len()),
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
