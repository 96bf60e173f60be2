//! The JSON form of every file, both ways: what `mmd dump --json` prints and what `mmd
//! build` reads. A file dumped and built again gives the same bytes; a value changed in
//! the JSON gives a file in which only that value (and the counts and lengths that
//! follow it) differ.
//!
//! The printing side is the [walk](crate::walk) (the tree of every field in file order,
//! serialized by [`dump`](crate::inspect::dump)); the reading side is [`FromJson`], which
//! `#[derive(Mmd)]` generates from the same annotations as the reader and the writer, so
//! a downstream crate's format gets it too. [`parse`] reads JSON text into the untyped
//! [`Json`] tree that [`FromJson`] builds from; [`from_str`] does both and [`to_string`]
//! the reverse. With the `serde` feature every derived type also implements
//! `serde::Serialize` and `serde::Deserialize` in this shape (types that need a context,
//! such as a PMX `Bone`, deserialize through [`Seed`]).
//!
//! # The rules, one place for all of them
//!
//! | value | JSON printed | read back |
//! |---|---|---|
//! | struct | an object, fields in file order | every field, in any order; a missing or unknown member is an error |
//! | fixed signature (`magic`) | a string (`"PMX "`) when printable ASCII, else `{"hex": ..}` | must be the signature |
//! | sequence, array | an array | an array; an array of fixed length (`[f32; 3]`) needs exactly that many elements |
//! | count before a sequence | not printed | follows the elements; an error if it cannot hold their number (300 globals for a `u8` count) |
//! | `len = expr` sequence | an array | must have the length the expression gives (`additional_uv` must have `globals[1]` elements) |
//! | absent optional block or field | `null` | `null` exactly when absent: its condition must say so (`"ik": null` only when the IK flag is clear), and nothing but `null` (or no bytes) may follow a block absent at the end of the file |
//! | enum value | `{"Variant": body}`; a unit variant's body is `{}`, a one-field tuple variant's body is the field | one of the variant names; a variant that an earlier field selects (`select`) must be the one it selects |
//! | integer | a number | an integer in the type's range (`1.0` is not an integer) |
//! | index | a number: its raw value (-1 = none) | must fit the width the header declares for its kind (`bone index 200 does not fit the declared 1-byte width`); vertex indices are unsigned at 1 and 2 bytes, the `i32` bit pattern as unsigned at 4 |
//! | float | a number that reads back as the same `f32` (the shortest such form; `-0.0`, denormals included); NaN and the infinities, which JSON cannot hold, as `{"float": "NaN", "bits": "7fc00001"}` | a number (read as the nearest `f32`, so the printed form gives the same bits); or `{"bits": "3f800000"}` for any float, where the bits decide and `float`, if given, must be their name |
//! | raw bytes | `{"hex": "00ff.."}` | the same; a fixed-size field (`[u8; 30]`) needs exactly its size |
//! | clean text | a string | encoded in the field's encoding |
//! | other text | `{"text": "..", "raw": "hex", "encoding": "utf-16le"}` | see the text rule below |
//! | flags | `{"bits": 2075, "names": ["ROTATABLE", ..]}` | either alone decides (`names` gives exactly the named bits); both must agree |
//! | trailing bytes | `{"hex": ..}` | the same (`""` for none) |
//!
//! "Clean" text is text whose bytes are exactly the encoding of the string: for PMX text,
//! bytes that decode in the header's encoding; for a fixed Shift_JIS field, the name, then
//! (when it leaves room) a NUL and zeros. Everything else (an unpaired UTF-16 surrogate, a
//! name cut in the middle of a character, junk after the NUL) is printed with its raw
//! bytes, and `text` is what the format's views show (U+FFFD where PMX text does not
//! decode, a Shift_JIS name without its cut character).
//!
//! **The text rule.** Where the JSON gives text with its raw bytes, `raw` is kept as it
//! is if `text` is what `raw` decodes to (the text as printed); if `text` differs, the
//! text was edited: it is encoded (as a clean string would be), which is an error if it
//! cannot be encoded or does not fit its field. `raw` alone keeps the bytes; `encoding`,
//! when given, must be the field's encoding (for PMX, the one the header declares).
//! A clean string is encoded: in the header's encoding for PMX text; as Shift_JIS for a
//! fixed field, which must fit (`$.bones[3].name: 22 bytes do not fit the 20-byte
//! field`), hold no NUL and use only characters Shift_JIS has, and is then followed by a
//! NUL and zeros.
//!
//! **The context.** PMX text is encoded, and an index is checked, with the context the
//! header declares, computed from the header in the JSON as the reader computes it from
//! the file; a header that declares no valid context (an index width of 3) is an error at
//! the member that says so.
//!
//! **Errors** name the JSON path of the value at fault and what was expected
//! (`$.vertices[0].weight: unknown variant `Bdef9` of Weight; expected `Bdef1`, ..`);
//! text that is not JSON is an error at its line and column. Nothing is built, and
//! `mmd build` writes nothing, when there is an error.
//!
//! VPD, a text format with a hand-written codec, has its own JSON form (see
//! [`vpd`](crate::vpd)), built by hand with the same rules for its values.
//!
//! ```
//! use mmd_formats::json;
//! use mmd_formats::vmd::Vmd;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
//! let vmd = Vmd::from_bytes(&bytes)?;
//! let text = json::to_string(&vmd);
//! let back: Vmd = json::from_str(&text, &())?;
//! assert_eq!(back.to_bytes()?, bytes);
//!
//! let err = json::from_str::<Vmd, _>(&text.replacen("\"bone_keys\"", "\"bone_kyes\"", 1), &())
//!     .unwrap_err();
//! assert!(err.to_string().starts_with("$: unknown member `bone_kyes` of a Vmd"), "{err}");
//! # Ok(()) }
//! ```

mod error;
mod from;
mod parse;
#[doc(hidden)]
pub mod rt;
#[cfg(feature = "serde")]
mod serde;
mod value;
mod write;

pub use error::JsonError;
pub use from::{hex_decode, hex_object, FromJson};
pub use parse::{parse, MAX_DEPTH};
#[cfg(feature = "serde")]
pub use serde::Seed;
#[doc(hidden)]
#[cfg(feature = "serde")]
pub use serde::{deserialize, serialize};
pub use value::{Elements, Json, LazyArray, Number, LAZY_ARRAY_BYTES};
pub use write::{to_string, value_to_string, write_json, write_string};

/// Parses `text` and builds a `T` from it with the context `ctx` (`&()` for a whole file).
pub fn from_str<T: FromJson<C>, C: ?Sized>(text: &str, ctx: &C) -> Result<T, JsonError> {
    T::from_json(&parse(text)?, ctx)
}
