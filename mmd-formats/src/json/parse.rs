//! A JSON text parser (RFC 8259) into the untyped [`Json`] tree: strict (no comments, no
//! trailing commas, nothing after the value but white space), with numbers kept as their
//! text, strings borrowed where they hold no escape, and nesting limited so that no input
//! exhausts the stack.

use super::error::JsonError;
use super::value::{Json, LazyArray, Number, LAZY_ARRAY_BYTES};
use std::borrow::Cow;

/// How deep arrays and objects may nest (every format is far shallower).
pub const MAX_DEPTH: usize = 128;

/// Parses a whole JSON document.
///
/// ```
/// use mmd_formats::json::{parse, Json};
/// let doc = parse(r#"{"a": [1, -0.0, "x"], "b": null}"#).unwrap();
/// assert_eq!(doc.get("b"), Some(&Json::Null));
/// let err = parse("[1, 2,]").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 7: expected a value, found `]`");
/// ```
pub fn parse(text: &str) -> Result<Json<'_>, JsonError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    p.skip_ws();
    let value = p.value()?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error(format!(
            "expected the end of the document, found {}",
            p.shown()
        )));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    #[cold]
    fn error(&self, message: impl Into<String>) -> JsonError {
        let head = &self.bytes[..self.pos.min(self.bytes.len())];
        let line = head.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = self.text[line_start..self.pos.min(self.text.len())]
            .chars()
            .count()
            + 1;
        JsonError::syntax(line, column, message)
    }

    /// The character at the position, for messages.
    fn shown(&self) -> String {
        match self.text.get(self.pos..).and_then(|r| r.chars().next()) {
            Some(c) => format!("`{c}`"),
            None => "the end of the text".into(),
        }
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn value(&mut self) -> Result<Json<'a>, JsonError> {
        match self.bytes.get(self.pos) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            _ => Err(self.error(format!("expected a value, found {}", self.shown()))),
        }
    }

    fn word(&mut self, word: &str, value: Json<'a>) -> Result<Json<'a>, JsonError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error(format!("expected a value, found {}", self.shown())))
        }
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!(
                "arrays and objects nest more than {MAX_DEPTH} deep"
            )));
        }
        self.pos += 1;
        self.skip_ws();
        Ok(())
    }

    /// An array: built while its text is short, then checked element by element and kept
    /// as text ([`Json::Lazy`]), so that no more than [`LAZY_ARRAY_BYTES`] of its text is
    /// ever held as values.
    fn array(&mut self) -> Result<Json<'a>, JsonError> {
        let start = self.pos;
        self.enter()?;
        let depth = self.depth;
        let mut items = Vec::new();
        let mut len = 0usize;
        let mut lazy = false;
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Json::Array(items));
        }
        loop {
            let item = self.value()?;
            len += 1;
            if !lazy {
                items.push(item);
                if self.pos - start > LAZY_ARRAY_BYTES {
                    lazy = true;
                    items = Vec::new();
                }
            }
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(b']') => {
                    self.pos += 1;
                    self.depth -= 1;
                    if lazy {
                        return Ok(Json::Lazy(LazyArray {
                            doc: self.text,
                            start,
                            len,
                            depth,
                        }));
                    }
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error(format!("expected `,` or `]`, found {}", self.shown()))),
            }
        }
    }

    fn object(&mut self) -> Result<Json<'a>, JsonError> {
        self.enter()?;
        let mut members = Vec::new();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Json::Object(members));
        }
        loop {
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.error(format!(
                    "expected a member name in quotes, found {}",
                    self.shown()
                )));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.error(format!("expected `:`, found {}", self.shown())));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value()?;
            members.push((key, value));
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(b'}') => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(Json::Object(members));
                }
                _ => {
                    return Err(self.error(format!("expected `,` or `}}`, found {}", self.shown())))
                }
            }
        }
    }

    fn number(&mut self) -> Result<Json<'a>, JsonError> {
        let start = self.pos;
        let b = self.bytes;
        let digits = |p: &mut usize| {
            let s = *p;
            while b.get(*p).is_some_and(u8::is_ascii_digit) {
                *p += 1;
            }
            *p > s
        };
        let mut p = self.pos;
        if b.get(p) == Some(&b'-') {
            p += 1;
        }
        match b.get(p) {
            Some(b'0') => p += 1,
            Some(b'1'..=b'9') => {
                digits(&mut p);
            }
            _ => {
                self.pos = p;
                return Err(self.error("a number needs a digit after `-`"));
            }
        }
        if b.get(p) == Some(&b'.') {
            p += 1;
            if !digits(&mut p) {
                self.pos = p;
                return Err(self.error("a number needs a digit after `.`"));
            }
        }
        if matches!(b.get(p), Some(b'e' | b'E')) {
            p += 1;
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if !digits(&mut p) {
                self.pos = p;
                return Err(self.error("a number needs a digit in its exponent"));
            }
        }
        self.pos = p;
        Ok(Json::Number(Number::Text(&self.text[start..p])))
    }

    /// A string at the position (on its opening quote).
    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.pos += 1;
        let start = self.pos;
        // The fast path: no escape before the closing quote.
        loop {
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    let s = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(0..=0x1f) => return Err(self.error("a control character in a string")),
                Some(_) => self.pos += 1,
                None => return Err(self.error("a string that does not end")),
            }
        }
        let mut out = String::from(&self.text[start..self.pos]);
        loop {
            let run = self.pos;
            while let Some(&c) = self.bytes.get(self.pos) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run..self.pos]);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = self.escape()?;
                    out.push(c);
                }
                Some(_) => return Err(self.error("a control character in a string")),
                None => return Err(self.error("a string that does not end")),
            }
        }
    }

    /// The character of an escape (after its backslash).
    fn escape(&mut self) -> Result<char, JsonError> {
        let c = match self.bytes.get(self.pos) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let hi = self.hex4()?;
                if !(0xD800..0xDC00).contains(&hi) {
                    return char::from_u32(hi.into())
                        .ok_or_else(|| self.error("an unpaired surrogate escape"));
                }
                if !self.bytes[self.pos..].starts_with(b"\\u") {
                    return Err(self.error("an unpaired surrogate escape"));
                }
                self.pos += 2;
                let lo = self.hex4()?;
                if !(0xDC00..0xE000).contains(&lo) {
                    return Err(self.error("an unpaired surrogate escape"));
                }
                let c = 0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(lo) - 0xDC00);
                return char::from_u32(c).ok_or_else(|| self.error("an invalid escape"));
            }
            _ => return Err(self.error(format!("an unknown escape `\\{}`", self.shown()))),
        };
        self.pos += 1;
        Ok(c)
    }

    fn hex4(&mut self) -> Result<u16, JsonError> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("`\\u` needs four hex digits"))?;
        self.pos += 4;
        u16::from_str_radix(digits, 16).map_err(|_| self.error("`\\u` needs four hex digits"))
    }
}

/// The text of a lazy array, from `[` to `]`.
pub(super) fn array_text<'a>(a: &LazyArray<'a>) -> &'a str {
    let mut p = Parser {
        text: a.doc,
        bytes: a.doc.as_bytes(),
        pos: a.start,
        depth: a.depth - 1,
    };
    // The text was checked when the array was made; should it not be (a bug), the rest of
    // the document stands for it.
    let end = match p.array() {
        Ok(_) => p.pos,
        Err(_) => a.doc.len(),
    };
    &a.doc[a.start..end]
}

/// The elements of a [`Json::Lazy`] array, parsed one at a time.
pub(super) struct LazyElements<'a> {
    p: Parser<'a>,
    left: usize,
}

impl<'a> LazyElements<'a> {
    pub(super) fn new(a: &LazyArray<'a>) -> Self {
        LazyElements {
            p: Parser {
                text: a.doc,
                bytes: a.doc.as_bytes(),
                pos: a.start + 1,
                depth: a.depth,
            },
            left: a.len,
        }
    }

    pub(super) fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a> Iterator for LazyElements<'a> {
    type Item = Result<Json<'a>, JsonError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let p = &mut self.p;
        p.skip_ws();
        let item = p.value();
        if item.is_err() {
            // Nothing after an element that does not parse.
            self.left = 0;
        }
        p.skip_ws();
        // The `,` (or the closing `]`) after the element.
        p.pos += 1;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_as_written() {
        let doc = parse(
            " {\"a\": [true, false, null, -1.5e3, 0, \"x\\u00e9\\ud83d\\ude00\\n\"], \"\": {}} ",
        )
        .unwrap();
        let a = doc.get("a").unwrap().as_array().unwrap();
        assert_eq!(a[0], Json::Bool(true));
        assert_eq!(a[2], Json::Null);
        assert_eq!(a[3], Json::Number(Number::Text("-1.5e3")));
        assert_eq!(a[5].as_str(), Some("xé😀\n"));
        assert_eq!(doc.get(""), Some(&Json::Object(Vec::new())));
    }

    #[test]
    fn syntax_errors_say_where() {
        let cases = [
            (
                "",
                "line 1, column 1: expected a value, found the end of the text",
            ),
            ("{\"a\" 1}", "line 1, column 6: expected `:`, found `1`"),
            (
                "[1\n, 01]",
                "line 2, column 4: expected `,` or `]`, found `1`",
            ),
            ("\"a", "line 1, column 3: a string that does not end"),
            ("-", "line 1, column 2: a number needs a digit after `-`"),
            ("1.", "line 1, column 3: a number needs a digit after `.`"),
            (
                "\"\\ud800\"",
                "line 1, column 8: an unpaired surrogate escape",
            ),
            (
                "[] x",
                "line 1, column 4: expected the end of the document, found `x`",
            ),
            (
                "{1: 2}",
                "line 1, column 2: expected a member name in quotes, found `1`",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).unwrap_err().to_string(), want, "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        let err = parse(&deep).unwrap_err();
        assert!(err.message().contains("nest more than"), "{err}");
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
    }

    /// Issue 25 item 10: a long array is kept as text and read an element at a time; its
    /// elements, their order and their count are those of the built form, nested long
    /// arrays included, and errors in it are found by `parse`, at their line and column.
    #[test]
    fn long_arrays_are_kept_as_text_and_read_alike() {
        let n = LAZY_ARRAY_BYTES; // "0," per element: twice the bound of text
        let inner = format!("[{}\"x\", [1, 2], {{\"k\": null}}, 7]", "0, ".repeat(n));
        let text = format!("{{\"a\": [{inner}, {inner}], \"b\": [1, 2]}}");
        let doc = parse(&text).unwrap();
        let a = doc.get("a").unwrap();
        assert!(matches!(a, Json::Lazy(_)), "the outer array is long too");
        assert!(
            matches!(doc.get("b"), Some(Json::Array(_))),
            "a short one is built"
        );
        let outer: Vec<Json> = a
            .elements()
            .unwrap()
            .map(|e| e.unwrap().into_owned())
            .collect();
        assert_eq!(outer.len(), 2);
        for arr in &outer {
            let Json::Lazy(lazy) = arr else {
                panic!("inner array built: {arr:?}")
            };
            assert_eq!(lazy.len(), n + 4);
            assert_eq!(lazy.text(), inner);
            let items: Vec<Json> = arr
                .elements()
                .unwrap()
                .map(|e| e.unwrap().into_owned())
                .collect();
            assert_eq!(items.len(), n + 4);
            assert!(items[..n]
                .iter()
                .all(|j| *j == Json::Number(Number::Text("0"))));
            assert_eq!(items[n].as_str(), Some("x"));
            assert_eq!(
                items[n + 1],
                Json::Array(vec![
                    Json::Number(Number::Text("1")),
                    Json::Number(Number::Text("2"))
                ])
            );
            assert_eq!(items[n + 2].get("k"), Some(&Json::Null));
            assert_eq!(items[n + 3], Json::Number(Number::Text("7")));
            // Equal to the same array built.
            assert_eq!(*arr, Json::Array(items.clone()));
            assert_ne!(*arr, Json::Array(items[1..].to_vec()));
        }
        assert_eq!(a.describe(), "an array of 2");
        // An error after the bound is still an error of parse, at its place.
        let bad = format!("[{}01]", "0,".repeat(n));
        let err = parse(&bad).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "line 1, column {}: expected `,` or `]`, found `1`",
                2 * n + 3
            )
        );
        // The nesting limit holds inside a lazy array.
        let deep = format!(
            "[{}{}{}]",
            "0,".repeat(n),
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert!(parse(&deep)
            .unwrap_err()
            .message()
            .contains("nest more than"));
    }
}
