//! Text ended by a NUL byte, of any length, in an encoding the type names: C strings in
//! headers ([`NulText`]), and text that fills a region of a declared size, padded after its
//! NUL ([`PaddedText`], RIFF `INFO` values).
//!
//! Both keep every byte they read, so a value writes back exactly: the bytes after the NUL
//! inside a region (padding, the remains of a longer earlier value) belong to the value.
//! The encoding is a type parameter ([`Utf8`], [`Latin1`], [`Sjis`], or a [`Charset`] of
//! your own); the text views decode with it, and a JSON string is encoded with it.
//!
//! ```
//! use mmd_formats::file::{decode_all, encode_all};
//! use mmd_formats::text::{Latin1, NulText, PaddedText};
//! use mmd_formats::Mmd;
//!
//! /// A tag: a name ended by a NUL, then a value padded to its declared size.
//! #[derive(Mmd, Debug, PartialEq)]
//! struct Tag {
//!     /// The name.
//!     name: NulText,
//!     /// The value's size in bytes.
//!     size: u8,
//!     /// The value: its text ends at the first NUL; the bytes after it are kept.
//!     #[mmd(size = *size)]
//!     value: PaddedText<Latin1>,
//! }
//!
//! let bytes = b"IART\0\x06Caf\xe9\0\xaa";
//! let tag: Tag = decode_all(bytes, &()).unwrap();
//! assert_eq!(tag.name.text(), "IART");
//! assert_eq!(tag.value.text(), "Café");
//! assert_eq!(tag.value.after(), [0xaa]);
//! assert_eq!(encode_all(&tag, &()).unwrap(), bytes);
//! ```

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use crate::codec::{Decode, Encode};
use crate::error::{Error, Result};
use crate::io::{Input, Output};
use crate::json::{FromJson, Json, JsonError};
use crate::layout::{Describe, LeafKind, LeafLayout, Shape, Size};
use crate::walk::{Leaf, Text, TextKind, Visitor, Walk};

/// An encoding a NUL-terminated text type is read and written in.
///
/// `NAME` is the encoding's label, as the renderers write it (Kaitai's `encoding`, the
/// JSON form's `encoding` member); `encoding` is the codec that decodes and encodes it.
/// An encoding in which a character's bytes may hold 0x00 (UTF-16) is no charset for a
/// NUL-terminated text: the first zero byte ends the text.
pub trait Charset {
    /// The encoding's label (`UTF-8`, `windows-1252`, `Shift_JIS`).
    const NAME: &'static str;
    /// The codec.
    fn encoding() -> &'static encoding_rs::Encoding;
}

/// UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Utf8;

impl Charset for Utf8 {
    const NAME: &'static str = "UTF-8";
    fn encoding() -> &'static encoding_rs::Encoding {
        encoding_rs::UTF_8
    }
}

/// Windows-1252, the superset of ISO 8859-1 (Latin-1) that RIFF and BMP tools write, and
/// that the WHATWG Encoding Standard reads `ISO-8859-1` as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Latin1;

impl Charset for Latin1 {
    const NAME: &'static str = "windows-1252";
    fn encoding() -> &'static encoding_rs::Encoding {
        encoding_rs::WINDOWS_1252
    }
}

/// Shift_JIS (code page 932), the encoding of MMD's own names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sjis;

impl Charset for Sjis {
    const NAME: &'static str = "Shift_JIS";
    fn encoding() -> &'static encoding_rs::Encoding {
        encoding_rs::SHIFT_JIS
    }
}

/// `text` encoded in `E`, or why it cannot be a NUL-terminated text.
fn encode_text<E: Charset>(text: &str) -> std::result::Result<Vec<u8>, String> {
    if text.contains('\0') {
        return Err("a NUL in the text would end it early: the text holds no NUL".into());
    }
    let (bytes, _, unmappable) = E::encoding().encode(text);
    if unmappable {
        let c = text
            .chars()
            .find(|c| E::encoding().encode(&c.to_string()).2)
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        return Err(format!(
            "{c:?} (U+{:04X}) has no {} form",
            c as u32,
            E::NAME
        ));
    }
    Ok(bytes.into_owned())
}

/// The text of `bytes` in `E`, and whether it decodes cleanly and encodes back to them.
fn decode_text<E: Charset>(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    let (text, had_errors) = E::encoding().decode_without_bom_handling(bytes);
    let clean = !had_errors && encode_text::<E>(&text).is_ok_and(|b| b == bytes);
    (text, clean)
}

/// Text ended by a NUL byte, of any length (a C string): the bytes up to the first NUL,
/// then the NUL, which is read and written but is not part of the text.
///
/// Reading stops at the first NUL; an input that ends before one is a read error at its
/// end (the text is cut). The writer writes the bytes, then one NUL; bytes that hold a
/// NUL are a write error, since they would read back shorter.
pub struct NulText<E = Utf8> {
    raw: Vec<u8>,
    charset: PhantomData<E>,
}

impl<E: Charset> NulText<E> {
    /// Encodes `text` in `E`. Fails when the text holds a NUL or a character `E` cannot
    /// encode.
    pub fn new(text: &str) -> Result<Self> {
        encode_text::<E>(text)
            .map(Self::from_raw)
            .map_err(|why| Error::inconsistent(0, format!("{} text", E::NAME), why))
    }

    /// The bytes before the NUL, as stored. A NUL among them makes the value fail to
    /// write.
    pub fn from_raw(raw: Vec<u8>) -> Self {
        NulText {
            raw,
            charset: PhantomData,
        }
    }

    /// The bytes of the text (without the NUL).
    pub fn as_bytes(&self) -> &[u8] {
        &self.raw
    }

    /// The text decoded, with U+FFFD for what does not decode.
    pub fn text(&self) -> Cow<'_, str> {
        decode_text::<E>(&self.raw).0
    }
}

/// Text that fills a region: the whole of its input (the region an enclosing
/// `#[mmd(size = expr)]` bounds, or the rest of the input), whose text ends at the first
/// NUL, or at the region's end when there is none. The bytes after the NUL (padding, the
/// remains of a longer earlier value) belong to the value and are written back as read.
///
/// Meant for a field with `size = expr`: without one, it takes every byte to the end of
/// the input.
pub struct PaddedText<E = Utf8> {
    raw: Vec<u8>,
    charset: PhantomData<E>,
}

impl<E: Charset> PaddedText<E> {
    /// Encodes `text` in `E`, then one NUL (a region of the text's length plus one).
    /// Fails when the text holds a NUL or a character `E` cannot encode.
    pub fn new(text: &str) -> Result<Self> {
        let mut raw = encode_text::<E>(text)
            .map_err(|why| Error::inconsistent(0, format!("{} text", E::NAME), why))?;
        raw.push(0);
        Ok(Self::from_raw(raw))
    }

    /// The whole region as stored: the text, and from the first NUL on, the NUL and the
    /// bytes after it.
    pub fn from_raw(raw: Vec<u8>) -> Self {
        PaddedText {
            raw,
            charset: PhantomData,
        }
    }

    /// Every byte of the region.
    pub fn as_bytes(&self) -> &[u8] {
        &self.raw
    }

    /// The bytes of the text: up to the first NUL, or the whole region.
    pub fn text_bytes(&self) -> &[u8] {
        let end = self
            .raw
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.raw.len());
        &self.raw[..end]
    }

    /// The bytes after the terminating NUL (empty when there is none).
    pub fn after(&self) -> &[u8] {
        match self.raw.iter().position(|&b| b == 0) {
            Some(i) => &self.raw[i + 1..],
            None => &[],
        }
    }

    /// The text decoded, with U+FFFD for what does not decode.
    pub fn text(&self) -> Cow<'_, str> {
        decode_text::<E>(self.text_bytes()).0
    }
}

macro_rules! common {
    ($t:ident) => {
        impl<E> Clone for $t<E> {
            fn clone(&self) -> Self {
                $t {
                    raw: self.raw.clone(),
                    charset: PhantomData,
                }
            }
        }

        impl<E> PartialEq for $t<E> {
            fn eq(&self, other: &Self) -> bool {
                self.raw == other.raw
            }
        }

        impl<E> Eq for $t<E> {}

        impl<E> std::hash::Hash for $t<E> {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.raw.hash(state);
            }
        }

        impl<E> Default for $t<E> {
            fn default() -> Self {
                $t {
                    raw: Vec::new(),
                    charset: PhantomData,
                }
            }
        }

        impl<E: Charset> fmt::Debug for $t<E> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{:?}", self.text())
            }
        }

        impl<E: Charset> fmt::Display for $t<E> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.text())
            }
        }
    };
}

common!(NulText);
common!(PaddedText);

impl<C: ?Sized, E: Charset> Decode<C> for NulText<E> {
    fn decode<I: Input + ?Sized>(input: &mut I, _ctx: &C) -> Result<Self> {
        let mut raw = Vec::new();
        loop {
            if input.remaining() == 0 {
                // Cut: the NUL that ends the text is the byte that is missing.
                return Err(Error::truncated(input.position(), 1, input.end()));
            }
            let [b] = input.read_array::<1>()?;
            if b == 0 {
                return Ok(NulText::from_raw(raw));
            }
            raw.push(b);
        }
    }
}

impl<C: ?Sized, E: Charset> Encode<C> for NulText<E> {
    fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
        if let Some(i) = self.raw.iter().position(|&b| b == 0) {
            return Err(Error::inconsistent(
                out.position(),
                "NUL-terminated text without a NUL before its end",
                format!(
                    "a NUL at byte {i} of {}: it would read back shorter",
                    self.raw.len()
                ),
            ));
        }
        out.write_bytes(&self.raw)?;
        out.write_bytes(&[0])
    }
    fn size_hint(&self, _ctx: &C) -> usize {
        self.raw.len() + 1
    }
}

impl<C: ?Sized, E: Charset> Decode<C> for PaddedText<E> {
    fn decode<I: Input + ?Sized>(input: &mut I, _ctx: &C) -> Result<Self> {
        let n = input.remaining();
        Ok(PaddedText::from_raw(input.read_vec(n)?))
    }
}

impl<C: ?Sized, E: Charset> Encode<C> for PaddedText<E> {
    fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
        out.write_bytes(&self.raw)
    }
    fn size_hint(&self, _ctx: &C) -> usize {
        self.raw.len()
    }
}

impl<E: Charset> Describe for NulText<E> {
    const SIZE: Size = Size::Variable;
    const MIN_SIZE: u64 = 1;
    fn shape() -> Shape {
        Shape::Leaf(LeafLayout {
            name: "NulText",
            doc: "Text ended by a NUL byte, of any length: the bytes up to the first NUL, then \
                  the NUL.",
            kind: LeafKind::TerminatedText {
                encoding: E::NAME,
                terminator: 0,
                to_end: false,
            },
        })
    }
}

impl<E: Charset> Describe for PaddedText<E> {
    const SIZE: Size = Size::Variable;
    const MIN_SIZE: u64 = 0;
    fn shape() -> Shape {
        Shape::Leaf(LeafLayout {
            name: "PaddedText",
            doc: "Text that fills its region (the field's size, or the rest of the input): it \
                  ends at the first NUL, or at the region's end; the bytes after the NUL belong \
                  to the field and are kept.",
            kind: LeafKind::TerminatedText {
                encoding: E::NAME,
                terminator: 0,
                to_end: true,
            },
        })
    }
}

impl<E: Charset> Walk for NulText<E> {
    fn walk(&self, v: &mut dyn Visitor) {
        let (text, clean) = decode_text::<E>(&self.raw);
        let mut raw = self.raw.clone();
        raw.push(0);
        v.leaf(Leaf::Text(Box::new(Text {
            raw,
            kind: TextKind::NulTerminated(E::NAME),
            text: text.into_owned(),
            clean,
        })));
    }
}

impl<E: Charset> Walk for PaddedText<E> {
    fn walk(&self, v: &mut dyn Visitor) {
        let (text, clean) = decode_text::<E>(self.text_bytes());
        // Clean when the region is exactly what the text gives: its bytes, then one NUL.
        let clean = clean && self.raw.len() == self.text_bytes().len() + 1;
        v.leaf(Leaf::Text(Box::new(Text {
            raw: self.raw.clone(),
            kind: TextKind::NulPadded(E::NAME),
            text: text.into_owned(),
            clean,
        })));
    }
}

/// `{"text", "raw", "encoding"}` of a NUL-terminated text: the `raw` bytes (hex), and the
/// `text` when it is given.
fn parts<'j>(
    json: &'j Json<'_>,
    kind: TextKind,
) -> std::result::Result<(Option<&'j str>, Vec<u8>), JsonError> {
    super::text_parts(json, &kind.encoding_name())
}

const FORMS: &str = "text: a string, or {\"text\", \"raw\", \"encoding\"}";

/// A NUL-terminated text (see the [text rule](crate::json)): a string is encoded in `E`
/// and must hold no NUL; `{"text", "raw", "encoding"}` keeps `raw` (the bytes with their
/// NUL) unless `text` differs from what `raw` decodes to.
impl<C: ?Sized, E: Charset> FromJson<C> for NulText<E> {
    fn from_json(json: &Json<'_>, _ctx: &C) -> std::result::Result<Self, JsonError> {
        match json {
            Json::String(s) => encode_text::<E>(s)
                .map(NulText::from_raw)
                .map_err(JsonError::new),
            Json::Object(_) => {
                let (text, mut raw) = parts(json, TextKind::NulTerminated(E::NAME))?;
                if raw.pop() != Some(0) || raw.contains(&0) {
                    return Err(JsonError::new(
                        "the bytes of a NUL-terminated text end with their one NUL (`00`)",
                    )
                    .in_field("raw"));
                }
                let kept = NulText::from_raw(raw);
                match text {
                    Some(t) if t != kept.text() => encode_text::<E>(t)
                        .map(NulText::from_raw)
                        .map_err(|e| JsonError::new(e).in_field("text")),
                    _ => Ok(kept),
                }
            }
            other => Err(JsonError::expected(FORMS, other)),
        }
    }
}

/// A padded text (see the [text rule](crate::json)): a string is encoded in `E` and
/// followed by one NUL (so the field's size must be the text's length plus one);
/// `{"text", "raw", "encoding"}` keeps `raw` (the whole region) unless `text` differs from
/// what `raw` decodes to.
impl<C: ?Sized, E: Charset> FromJson<C> for PaddedText<E> {
    fn from_json(json: &Json<'_>, _ctx: &C) -> std::result::Result<Self, JsonError> {
        let fresh = |s: &str| {
            encode_text::<E>(s).map(|mut raw| {
                raw.push(0);
                PaddedText::from_raw(raw)
            })
        };
        match json {
            Json::String(s) => fresh(s).map_err(JsonError::new),
            Json::Object(_) => {
                let (text, raw) = parts(json, TextKind::NulPadded(E::NAME))?;
                let kept = PaddedText::from_raw(raw);
                match text {
                    Some(t) if t != kept.text() => {
                        fresh(t).map_err(|e| JsonError::new(e).in_field("text"))
                    }
                    _ => Ok(kept),
                }
            }
            other => Err(JsonError::expected(FORMS, other)),
        }
    }
}
