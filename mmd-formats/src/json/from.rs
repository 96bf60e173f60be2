//! [`FromJson`]: building a value from the untyped tree, the inverse of the
//! [walk](crate::walk); its impls for numbers, bytes, arrays, `Vec` and `Option`.

use super::error::JsonError;
use super::value::{Json, Number};

/// Builds a value from the JSON form [`mmd dump --json`](super) prints, given the
/// format's context `C` (text encodings and index widths come from it, as on read).
///
/// `#[derive(Mmd)]` implements it from the same annotations as the reader and writer:
/// fields by name in file order, `{"Variant": body}` for enums, `null` for absent
/// optional fields, and every consistency the writer checks (presence against its
/// condition, `len` against its expression, a selected variant against its selector,
/// counts against their type), each error naming the JSON path. Leaf types implement it
/// by hand beside their codecs.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be built from JSON with the context `{C}`",
    note = "`#[derive(Mmd)]` implements `FromJson` for derived types; a hand-written leaf type implements it beside its `Decode`"
)]
pub trait FromJson<C: ?Sized>: Sized {
    /// Builds one value.
    fn from_json(json: &Json<'_>, ctx: &C) -> Result<Self, JsonError>;

    /// Builds the elements of a sequence: by default a JSON array of values; `u8`
    /// overrides it with `{"hex": ".."}` (the walk's form of bytes).
    ///
    /// Room is made for the elements as they are built, never for the array's length up
    /// front: an element can be two bytes of JSON (`0,`) and hundreds of bytes in memory
    /// (a PMX bone is 208), so an array that fails at its first element must not have
    /// reserved a hundred times its size for the rest.
    fn seq_from_json(json: &Json<'_>, ctx: &C) -> Result<Vec<Self>, JsonError> {
        let items = json
            .elements()
            .ok_or_else(|| JsonError::expected("an array", json))?;
        items
            .enumerate()
            .map(|(i, item)| {
                item.and_then(|j| Self::from_json(&j, ctx))
                    .map_err(|e| e.in_index(i))
            })
            .collect()
    }

    /// Builds a fixed-length array (`[f32; 3]`): exactly `N` elements, in the form of
    /// [`seq_from_json`](FromJson::seq_from_json).
    fn array_from_json<const N: usize>(json: &Json<'_>, ctx: &C) -> Result<[Self; N], JsonError> {
        if let Some(len) = json.array_len() {
            if len != N {
                return Err(JsonError::new(format!(
                    "expected an array of {N}, found an array of {len}"
                )));
            }
        }
        let items = Self::seq_from_json(json, ctx)?;
        let len = items.len();
        <[Self; N]>::try_from(items)
            .map_err(|_| JsonError::new(format!("expected {N} elements, found {len}")))
    }
}

/// The integer of a JSON number for a field of type `ty` that holds `min..=max`.
pub(crate) fn integer(json: &Json<'_>, ty: &str, min: i128, max: i128) -> Result<i128, JsonError> {
    let Json::Number(n) = json else {
        return Err(JsonError::expected(&format!("an integer ({ty})"), json));
    };
    match n.as_integer() {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        Some(v) => Err(JsonError::new(format!(
            "{v} does not fit {ty} ({min} to {max})"
        ))),
        None => Err(JsonError::new(format!(
            "expected an integer ({ty}), found the number {}",
            n.shown()
        ))),
    }
}

macro_rules! int_from_json {
    ($($t:ty),*) => {$(
        impl<C: ?Sized> FromJson<C> for $t {
            #[inline]
            fn from_json(json: &Json<'_>, _ctx: &C) -> Result<Self, JsonError> {
                // Small numbers, written as digits: the fast path.
                if let Json::Number(Number::Text(t)) = json {
                    if let Ok(v) = t.parse::<$t>() {
                        return Ok(v);
                    }
                }
                let v = integer(json, stringify!($t), <$t>::MIN.into(), <$t>::MAX.into())?;
                Ok(v as $t)
            }
        }
    )*};
}
int_from_json!(i8, u16, i16, u32, i32, u64, i64);

impl<C: ?Sized> FromJson<C> for u8 {
    #[inline]
    fn from_json(json: &Json<'_>, _ctx: &C) -> Result<Self, JsonError> {
        Ok(integer(json, "u8", 0, 255)? as u8)
    }

    /// Bytes: `{"hex": "00ff.."}`.
    fn seq_from_json(json: &Json<'_>, _ctx: &C) -> Result<Vec<Self>, JsonError> {
        hex_object(json)
    }

    /// Bytes: `{"hex": ".."}` of exactly `N` bytes.
    fn array_from_json<const N: usize>(json: &Json<'_>, _ctx: &C) -> Result<[Self; N], JsonError> {
        let bytes = hex_object(json)?;
        let len = bytes.len();
        <[u8; N]>::try_from(bytes).map_err(|_| {
            JsonError::new(format!(
                "{len} bytes do not fill the {N}-byte field (exactly {N} are stored)"
            ))
        })
    }
}

impl<C: ?Sized> FromJson<C> for bool {
    fn from_json(json: &Json<'_>, _ctx: &C) -> Result<Self, JsonError> {
        match json {
            Json::Bool(b) => Ok(*b),
            other => Err(JsonError::expected("`true` or `false`", other)),
        }
    }
}

/// A float: a number, or `{"float": "NaN", "bits": "7fc00000"}` (the bits decide; the
/// name, when given, must be what they are).
macro_rules! float_from_json {
    ($($t:ty => $bits:ty, $digits:literal, $as:ident);*) => {$(
        impl<C: ?Sized> FromJson<C> for $t {
            #[inline]
            fn from_json(json: &Json<'_>, _ctx: &C) -> Result<Self, JsonError> {
                match json {
                    Json::Number(n) => Ok(n.$as()),
                    Json::Object(_) => {
                        let bits = json.get("bits").ok_or_else(|| {
                            JsonError::new(concat!(
                                "a float as an object needs its bits: {\"bits\": \"",
                                $digits, " hex digits\"}"
                            ))
                        })?;
                        let text = bits.as_str().filter(|s| s.len() == $digits).ok_or_else(|| {
                            JsonError::expected(concat!("bits as ", $digits, " hex digits"), bits)
                        }).map_err(|e| e.in_field("bits"))?;
                        let bits = <$bits>::from_str_radix(text, 16).map_err(|_| {
                            JsonError::new(format!("{text:?} is not hex")).in_field("bits")
                        })?;
                        let value = <$t>::from_bits(bits);
                        if let Some(name) = json.get("float") {
                            let want = format!("{value:?}");
                            if name.as_str() != Some(want.as_str()) {
                                return Err(JsonError::new(format!(
                                    "the bits {text} are {want}, not {}",
                                    name.describe()
                                )).in_field("float"));
                            }
                        }
                        for (k, _) in json.as_object().unwrap_or(&[]) {
                            if k != "bits" && k != "float" {
                                return Err(JsonError::new(format!(
                                    "unknown member `{k}` of a float (it has `float` and `bits`)"
                                )));
                            }
                        }
                        Ok(value)
                    }
                    other => Err(JsonError::expected(
                        "a number (or {\"float\", \"bits\"})",
                        other,
                    )),
                }
            }
        }
    )*};
}
float_from_json!(f32 => u32, 8, as_f32; f64 => u64, 16, as_f64);

impl<C: ?Sized, T: FromJson<C>, const N: usize> FromJson<C> for [T; N] {
    #[inline]
    fn from_json(json: &Json<'_>, ctx: &C) -> Result<Self, JsonError> {
        T::array_from_json(json, ctx)
    }
}

impl<C: ?Sized, T: FromJson<C>> FromJson<C> for Vec<T> {
    fn from_json(json: &Json<'_>, ctx: &C) -> Result<Self, JsonError> {
        T::seq_from_json(json, ctx)
    }
}

impl<C: ?Sized, T: FromJson<C>> FromJson<C> for Option<T> {
    /// `null` is `None`.
    fn from_json(json: &Json<'_>, ctx: &C) -> Result<Self, JsonError> {
        match json {
            Json::Null => Ok(None),
            other => T::from_json(other, ctx).map(Some),
        }
    }
}

/// The bytes of `{"hex": "00ff.."}`.
pub fn hex_object(json: &Json<'_>) -> Result<Vec<u8>, JsonError> {
    match json.as_object() {
        Some([(k, v)]) if k == "hex" => {
            let text = v
                .as_str()
                .ok_or_else(|| JsonError::expected("hex digits", v).in_field("hex"))?;
            hex_decode(text).map_err(|e| e.in_field("hex"))
        }
        _ => Err(JsonError::expected("bytes as {\"hex\": \"..\"}", json)),
    }
}

/// The bytes that pairs of hex digits spell (either case).
pub fn hex_decode(text: &str) -> Result<Vec<u8>, JsonError> {
    let b = text.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(JsonError::new(format!(
            "an odd number of hex digits ({}): each byte is two",
            b.len()
        )));
    }
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(b.len() / 2);
    for (i, pair) in b.chunks_exact(2).enumerate() {
        match (nibble(pair[0]), nibble(pair[1])) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => {
                let shown = text
                    .get(i * 2..i * 2 + 2)
                    .unwrap_or("a non-ASCII character");
                return Err(JsonError::new(format!(
                    "{shown:?} at digit {} is not hex",
                    i * 2
                )));
            }
        }
    }
    Ok(out)
}
