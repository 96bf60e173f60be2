//! Text as stored: raw bytes kept whole, decoded views on demand.
//!
//! * [`PmxText`]: PMX strings, an `i32` byte length followed by that many bytes, in the
//!   encoding the header declares (0 = UTF-16LE, 1 = UTF-8). Text that does not decode
//!   cleanly (an unpaired surrogate, an odd byte length, invalid UTF-8) still writes back
//!   exactly, because the bytes are what is stored.
//! * [`ShiftJis<N>`]: the fixed-length Shift_JIS (code page 932) name fields of VMD and PMD.
//!   The whole `N` bytes are kept, including whatever follows the NUL terminator (0xFD
//!   padding is common) and names that fill the field with no NUL at all.
//! * [`NulText<E>`] and [`PaddedText<E>`]: text ended by a NUL, of any length, in the
//!   encoding `E` ([`Utf8`], [`Latin1`], [`Sjis`]): a C string, and the text of a region
//!   of a declared size with the bytes after its NUL kept (see [`terminated`]).

use crate::codec::{Decode, Encode};
use crate::error::{Error, Result};
use crate::fixed::{FixedBytes, FixedOut};
use crate::io::{Input, Output};
use crate::json::{FromJson, Json, JsonError};
use crate::layout::{Describe, LeafKind, LeafLayout, Prim, Shape, Size};
use crate::walk::{Leaf, Text, TextKind, Visitor, Walk};

pub use crate::kinds::TextEncoding;
pub use terminated::{Charset, Latin1, NulText, PaddedText, Sjis, Utf8};

pub mod terminated;
use std::borrow::Cow;
use std::fmt;

impl From<u8> for TextEncoding {
    fn from(b: u8) -> Self {
        TextEncoding::from_byte(b)
    }
}

/// A context that declares the encoding of length-prefixed text.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not declare a text encoding",
    note = "add `#[mmd(ctx = SomeContext)]` naming a context that implements `TextContext` (for PMX: `PmxContext`)"
)]
pub trait TextContext {
    /// The encoding of every [`PmxText`] read or written with this context.
    fn text_encoding(&self) -> TextEncoding;
}

/// A PMX string: `i32` byte length, then the bytes, in the header's encoding.
///
/// The encoding is remembered from the context it was read with; writing it with a context
/// that declares another encoding is an error (re-encoding is a separate, explicit step).
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct PmxText {
    raw: Vec<u8>,
    encoding: TextEncoding,
}

impl PmxText {
    /// Encodes `s` for a file of the given encoding.
    pub fn new(s: &str, encoding: TextEncoding) -> Self {
        PmxText {
            raw: encoding.encode(s),
            encoding,
        }
    }

    /// Text from raw bytes, kept as they are.
    pub fn from_raw(raw: Vec<u8>, encoding: TextEncoding) -> Self {
        PmxText { raw, encoding }
    }

    /// The stored bytes (without the length prefix).
    pub fn as_bytes(&self) -> &[u8] {
        &self.raw
    }

    /// The encoding the bytes are in.
    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// The text, if the bytes decode cleanly (`None` for an unpaired surrogate, an odd
    /// UTF-16 byte length or invalid UTF-8).
    pub fn to_str(&self) -> Option<Cow<'_, str>> {
        match self.encoding {
            TextEncoding::Utf16Le => {
                if !self.raw.len().is_multiple_of(2) {
                    return None;
                }
                let units = self
                    .raw
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]));
                char::decode_utf16(units)
                    .collect::<Result<String, _>>()
                    .ok()
                    .map(Cow::Owned)
            }
            _ => std::str::from_utf8(&self.raw).ok().map(Cow::Borrowed),
        }
    }

    /// The text, with U+FFFD for whatever does not decode.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        match self.encoding {
            TextEncoding::Utf16Le => {
                let units = self
                    .raw
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]));
                let mut s: String = char::decode_utf16(units)
                    .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect();
                // An odd byte length leaves half a code unit: show it as undecodable.
                if !self.raw.len().is_multiple_of(2) {
                    s.push(char::REPLACEMENT_CHARACTER);
                }
                Cow::Owned(s)
            }
            _ => String::from_utf8_lossy(&self.raw),
        }
    }

    /// Replaces the text, keeping the encoding.
    pub fn set(&mut self, s: &str) {
        self.raw = self.encoding.encode(s);
    }
}

impl fmt::Debug for PmxText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Some(s) => write!(f, "{s:?}"),
            None => write!(f, "PmxText(raw {:02x?})", self.raw),
        }
    }
}

impl fmt::Display for PmxText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl<C: TextContext + ?Sized> Decode<C> for PmxText {
    fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
        let at = input.position();
        let len = i32::from_le_bytes(input.read_array()?);
        if len < 0 {
            return Err(Error::invalid(
                at,
                "a text length of 0 or more",
                format!("text length {len}"),
            ));
        }
        let raw = input.read_vec(len as u64)?;
        Ok(PmxText {
            raw,
            encoding: ctx.text_encoding(),
        })
    }
}

impl<C: TextContext + ?Sized> Encode<C> for PmxText {
    fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
        if self.encoding != ctx.text_encoding() {
            return Err(Error::inconsistent(
                out.position(),
                format!("text in the header's encoding {:?}", ctx.text_encoding()),
                format!("text encoded as {:?}", self.encoding),
            ));
        }
        let len = i32::try_from(self.raw.len()).map_err(|_| {
            Error::inconsistent(
                out.position(),
                "a text length that fits an i32",
                format!("text of {} bytes", self.raw.len()),
            )
        })?;
        out.write_bytes(&len.to_le_bytes())?;
        out.write_bytes(&self.raw)
    }
    /// The `i32` length and the bytes.
    #[inline]
    fn size_hint(&self, _ctx: &C) -> usize {
        4usize.saturating_add(self.raw.len())
    }
    #[inline]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, ctx: &C) -> Option<()> {
        if self.encoding != ctx.text_encoding() {
            return None;
        }
        out.put(i32::try_from(self.raw.len()).ok()?.to_le_bytes())?;
        out.put_slice(&self.raw)
    }
}

impl Describe for PmxText {
    const SIZE: Size = Size::Text;
    const MIN_SIZE: u64 = 4;
    fn shape() -> Shape {
        Shape::Leaf(LeafLayout {
            name: "PmxText",
            doc: "Text: an `i32` byte length (not a character count), then that many bytes in \
                  the encoding the context declares. Text that does not decode cleanly is kept \
                  as stored.",
            kind: LeafKind::Text {
                length: Prim::I32,
                encodings: TextEncoding::CODES,
            },
        })
    }
}

/// A fixed-length Shift_JIS field of `N` bytes (VMD and PMD names), kept whole.
///
/// The text ends at the first NUL, or at the end of the field when there is none. Bytes
/// after the NUL are junk that MMD leaves in place (often 0xFD, sometimes the remains of
/// a longer earlier name); they are kept so the field writes back exactly. A name cut in
/// the middle of a two-byte character at the end of the field decodes without the broken
/// half rather than showing U+FFFD.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShiftJis<const N: usize>(pub [u8; N]);

impl<const N: usize> Default for ShiftJis<N> {
    fn default() -> Self {
        ShiftJis([0; N])
    }
}

impl<const N: usize> ShiftJis<N> {
    /// Encodes `s` as Shift_JIS, NUL-terminated when it leaves room, zero-padded.
    ///
    /// Fails if a character has no Shift_JIS form, the encoding is longer than `N` bytes
    /// (a name is never cut silently), or the text holds a NUL (which would end it early).
    pub fn new(s: &str) -> Result<Self> {
        if s.contains('\0') {
            return Err(Error::inconsistent(
                0,
                "a name without NUL (NUL ends the name in the field)",
                format!("{s:?}"),
            ));
        }
        let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(s);
        if unmappable {
            return Err(Error::inconsistent(
                0,
                "text that Shift_JIS can encode",
                format!("{s:?}"),
            ));
        }
        if bytes.len() > N {
            return Err(Error::inconsistent(
                0,
                format!("a name of at most {N} bytes in Shift_JIS"),
                format!("{s:?}, {} bytes", bytes.len()),
            ));
        }
        let mut raw = [0u8; N];
        raw[..bytes.len()].copy_from_slice(&bytes);
        Ok(ShiftJis(raw))
    }

    /// The bytes of the name: up to the first NUL, or the whole field.
    pub fn name_bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        &self.0[..end]
    }

    /// The bytes after the terminating NUL (empty when there is none).
    pub fn junk(&self) -> &[u8] {
        match self.0.iter().position(|&b| b == 0) {
            Some(i) => &self.0[i + 1..],
            None => &[],
        }
    }

    /// The name decoded; a character cut at the end of the field is dropped, anything else
    /// that does not decode shows as U+FFFD.
    pub fn decode(&self) -> Cow<'_, str> {
        decode_sjis(self.name_bytes())
    }

    /// True when the name (up to the NUL) equals `s` once decoded.
    pub fn eq_str(&self, s: &str) -> bool {
        self.decode() == s
    }
}

/// Decodes Shift_JIS bytes, dropping a lead byte left alone at the end (a cut character).
pub fn decode_sjis(bytes: &[u8]) -> Cow<'_, str> {
    let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
    if !had_errors {
        return text;
    }
    if let Some((_, head)) = bytes.split_last() {
        let (t, e) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(head);
        if !e {
            return Cow::Owned(t.into_owned());
        }
    }
    text
}

impl<const N: usize> fmt::Debug for ShiftJis<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.decode())
    }
}

impl<const N: usize> fmt::Display for ShiftJis<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.decode())
    }
}

impl<C: ?Sized, const N: usize> Decode<C> for ShiftJis<N> {
    #[inline]
    fn decode<I: Input + ?Sized>(input: &mut I, _ctx: &C) -> Result<Self> {
        Ok(ShiftJis(input.read_array()?))
    }
    #[inline(always)]
    fn fixed_size(_ctx: &C) -> Option<usize> {
        Some(N)
    }
    #[inline(always)]
    fn decode_fixed(bytes: &mut FixedBytes<'_>, _ctx: &C) -> Option<Self> {
        bytes.take().map(ShiftJis)
    }
}

impl<C: ?Sized, const N: usize> Encode<C> for ShiftJis<N> {
    #[inline]
    fn encode<O: Output + ?Sized>(&self, out: &mut O, _ctx: &C) -> Result<()> {
        out.write_bytes(&self.0)
    }
    #[inline(always)]
    fn size_hint(&self, _ctx: &C) -> usize {
        N
    }
    #[inline(always)]
    fn seq_size_hint(items: &[Self], _ctx: &C) -> usize {
        N.saturating_mul(items.len())
    }
    #[inline(always)]
    fn encode_fixed(&self, out: &mut FixedOut<'_>, _ctx: &C) -> Option<()> {
        out.put(self.0)
    }
}

impl<const N: usize> Describe for ShiftJis<N> {
    const SIZE: Size = Size::Fixed(N as u64);
    const MIN_SIZE: u64 = N as u64;
    fn shape() -> Shape {
        Shape::Leaf(LeafLayout {
            name: "ShiftJis",
            doc: "A fixed-length Shift_JIS (code page 932) field: the text ends at the first NUL \
                  or at the end of the field; the bytes after the NUL (0xFD fill, leftovers of \
                  an earlier name) belong to the field and are kept.",
            kind: LeafKind::FixedText {
                size: N as u64,
                encoding: "Shift_JIS",
                terminator: Some(0),
            },
        })
    }
}

impl Walk for PmxText {
    fn walk(&self, v: &mut dyn Visitor) {
        let clean = self.to_str();
        v.leaf(Leaf::Text(Box::new(Text {
            raw: self.as_bytes().to_vec(),
            kind: TextKind::Pmx(self.encoding()),
            clean: clean.is_some(),
            text: match clean {
                Some(s) => s.into_owned(),
                None => self.to_string_lossy().into_owned(),
            },
        })));
    }
}

impl<const N: usize> Walk for ShiftJis<N> {
    fn walk(&self, v: &mut dyn Visitor) {
        let text = self.decode().into_owned();
        let clean = ShiftJis::<N>::new(&text).is_ok_and(|s| s == *self);
        v.leaf(Leaf::Text(Box::new(Text {
            raw: self.0.to_vec(),
            kind: TextKind::ShiftJisFixed(N),
            text,
            clean,
        })));
    }
}

/// The members of text printed with its bytes: `{"text", "raw", "encoding"}`, checked
/// (`raw` hex and required, `encoding` the field's when given, nothing else).
fn text_parts<'j>(
    json: &'j Json<'_>,
    encoding: &str,
) -> std::result::Result<(Option<&'j str>, Vec<u8>), JsonError> {
    for (k, _) in json.as_object().unwrap_or(&[]) {
        if !matches!(k.as_ref(), "text" | "raw" | "encoding") {
            return Err(JsonError::new(format!(
                "unknown member `{k}` of text (it has `text`, `raw` and `encoding`)"
            )));
        }
    }
    if let Some(e) = json.get("encoding") {
        if e.as_str() != Some(encoding) {
            return Err(JsonError::new(format!(
                "the field's encoding is {encoding}, not {}",
                e.describe()
            ))
            .in_field("encoding"));
        }
    }
    let text = match json.get("text") {
        None => None,
        Some(t) => Some(
            t.as_str()
                .ok_or_else(|| JsonError::expected("a string", t).in_field("text"))?,
        ),
    };
    let raw = json
        .get("raw")
        .ok_or_else(|| JsonError::new("text given as an object needs its bytes: `raw` (hex)"))?;
    let raw = raw
        .as_str()
        .ok_or_else(|| JsonError::expected("hex digits", raw))
        .and_then(crate::json::hex_decode)
        .map_err(|e| e.in_field("raw"))?;
    Ok((text, raw))
}

const TEXT_FORMS: &str = "text: a string, or {\"text\", \"raw\", \"encoding\"}";

/// Text (see the [text rule](crate::json)): a string is encoded in the context's
/// encoding; `{"text", "raw", "encoding"}` keeps `raw` unless `text` differs from what
/// `raw` decodes to.
impl<C: TextContext + ?Sized> FromJson<C> for PmxText {
    fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
        let encoding = ctx.text_encoding();
        match json {
            Json::String(s) => Ok(PmxText::new(s, encoding)),
            Json::Object(_) => {
                let (text, raw) = text_parts(json, &TextKind::Pmx(encoding).encoding_name())?;
                let kept = PmxText::from_raw(raw, encoding);
                match text {
                    Some(t) if t != kept.to_string_lossy() => Ok(PmxText::new(t, encoding)),
                    _ => Ok(kept),
                }
            }
            other => Err(JsonError::expected(TEXT_FORMS, other)),
        }
    }
}

impl<const N: usize> ShiftJis<N> {
    /// The field for a name given in JSON: Shift_JIS, then a NUL and zeros, with the
    /// reason in the words of the JSON form when it cannot be.
    fn from_json_str(s: &str) -> std::result::Result<Self, JsonError> {
        if s.contains('\0') {
            return Err(JsonError::new(
                "a NUL in a name would end it early: a name holds no NUL",
            ));
        }
        let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(s);
        if unmappable {
            let c = s
                .chars()
                .find(|c| encoding_rs::SHIFT_JIS.encode(&c.to_string()).2)
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            return Err(JsonError::new(format!(
                "{c:?} (U+{:04X}) has no Shift_JIS form",
                c as u32
            )));
        }
        if bytes.len() > N {
            return Err(JsonError::new(format!(
                "{} bytes do not fit the {N}-byte field",
                bytes.len()
            )));
        }
        let mut raw = [0u8; N];
        raw[..bytes.len()].copy_from_slice(&bytes);
        Ok(ShiftJis(raw))
    }
}

/// A fixed Shift_JIS field (see the [text rule](crate::json)): a string is encoded and
/// must fit; `{"text", "raw", "encoding"}` keeps `raw` (exactly `N` bytes) unless `text`
/// differs from what `raw` decodes to.
impl<C: ?Sized, const N: usize> FromJson<C> for ShiftJis<N> {
    fn from_json(json: &Json<'_>, _ctx: &C) -> std::result::Result<Self, JsonError> {
        match json {
            Json::String(s) => Self::from_json_str(s),
            Json::Object(_) => {
                let (text, raw) = text_parts(json, &TextKind::ShiftJisFixed(N).encoding_name())?;
                let len = raw.len();
                let kept = ShiftJis(<[u8; N]>::try_from(raw).map_err(|_| {
                    JsonError::new(format!(
                        "{len} bytes do not fill the {N}-byte field (exactly {N} are stored)"
                    ))
                    .in_field("raw")
                })?);
                match text {
                    Some(t) if t != kept.decode() => Self::from_json_str(t),
                    _ => Ok(kept),
                }
            }
            other => Err(JsonError::expected(TEXT_FORMS, other)),
        }
    }
}
