//! Writing a field type by hand: the traits a type implements so that a derived struct can
//! hold it, the error helpers that keep offsets and paths exact, and how it describes
//! itself so that the reference, the JSON Schema and the Kaitai `.ksy` do not go blank
//! below it.
//!
//! Derive first. `#[derive(Mmd)]` states almost every layout (counts, lengths, conditions,
//! tags, lists until an end element or to the end of a region, values of a declared size,
//! the [leaf types](crate#leaf-types)), and everything it derives is carried through every
//! artifact. Write a type by hand only for bytes the grammar cannot state (a variable-length
//! integer, a checksum, a compressed block) or for a typed view over bytes the grammar does
//! state.
//!
//! # The five traits
//!
//! A field of type `T` in a struct derived with context `C` needs:
//!
//! | trait | what it does | must hold |
//! |---|---|---|
//! | [`Decode<C>`](crate::Decode) | `decode(input, ctx)` reads one value from an [`Input`](crate::Input) | every error names the offset where it was found ([`Input::position`](crate::Input::position)) |
//! | [`Encode<C>`](crate::Encode) | `encode(out, ctx)` writes it to an [`Output`](crate::Output); `size_hint` says how many bytes, so writers reserve once | `encode(decode(b)) == b` for every `b` that reads; a value that would read back differently is an error, never a silent change |
//! | [`Describe`](crate::Describe) | `SIZE` (fixed or variable), `MIN_SIZE` (checked against the remaining bytes before a list is allocated) and `shape()`, what the renderers state | `MIN_SIZE` is never more than a value takes |
//! | [`Walk`](crate::walk::Walk) | reports the value to a [`Visitor`](crate::walk::Visitor): the JSON form, `dump`, `explain` and `diff` are printed from it | what it reports has the shape `shape()` gives |
//! | [`FromJson<C>`](crate::json::FromJson) | builds the value back from its JSON form | `from_json(json(v)) == v`; every mistake names its JSON path |
//!
//! With the `serde` feature, the derive's `Serialize` goes through `Walk` and its
//! `Deserialize` through `FromJson`, so nothing more is needed for serde.
//!
//! # Errors with their place
//!
//! A read error is an [`Error`](crate::Error) at a byte offset, and the derive adds the
//! path as the error leaves each field and element. A type that reads parts of its own
//! adds theirs the same way, innermost first:
//!
//! * [`Error::truncated`](crate::Error::truncated)`(offset, needed, end)`: the input ended
//!   (a cut file); [`Error::invalid`](crate::Error::invalid)`(offset, expected, found)`: a
//!   value the format does not define; [`Error::inconsistent`](crate::Error::inconsistent):
//!   a value that cannot be written as it is.
//! * [`Error::in_index`](crate::Error::in_index)`(i)` and
//!   [`Error::in_field`](crate::Error::in_field)`(name)`: the error is inside element `i`
//!   or field `name` of this value, so its path reads `frames.deltas[3]`, not `frames`.
//! * [`Error::offset_by`](crate::Error::offset_by)`(base)`: for an offset computed relative
//!   to the start of a value, as a decoder of an in-memory block finds it.
//! * [`JsonError::new`](crate::json::JsonError::new) and
//!   [`JsonError::expected`](crate::json::JsonError::expected)`(what, found)`, with
//!   [`JsonError::in_field`](crate::json::JsonError::in_field) and
//!   [`JsonError::in_index`](crate::json::JsonError::in_index) for the JSON path.
//!
//! # Describing itself
//!
//! `Describe::shape()` is what the renderers see of the type:
//!
//! * **Its bytes as a number or an array** ([`Shape::Prim`](crate::layout::Shape::Prim),
//!   [`Shape::Array`](crate::layout::Shape::Array)): when the bytes are one number, the
//!   type is a typed view of it. `Walk` reports that number, the JSON form is that number.
//! * **The layout of a derived twin** ([`Shape::Type`](crate::layout::Shape::Type)): derive
//!   a plain struct with exactly the type's bytes and return its shape; `Walk` and
//!   `FromJson` go through the twin too. The reference, the Schema and the `.ksy` then
//!   state every field below the type, and the Kaitai cross-check reads them.
//! * **A leaf layout** ([`Shape::Leaf`](crate::layout::Shape::Leaf)): one of the
//!   [`LeafKind`](crate::layout::LeafKind)s the renderers know (text, indices, bytes).
//! * **Nothing** ([`Shape::Opaque`](crate::layout::Shape::Opaque), the default when a type
//!   has no layout): the Markdown names the type and its doc comment as a value with a codec
//!   of its own, the Schema accepts any JSON value there, and the `.ksy` renderer refuses the
//!   format, naming the field (`a type with its own codec that does not describe its
//!   layout`), since Kaitai could not read past it.
//!
//! # An example: a packed colour and frames stored as deltas
//!
//! `Rgb565` is a colour packed into a `u16` (red in the top 5 bits, green in the next 6,
//! blue in the low 5): it describes itself as the `u16` it is, and adds the typed view.
//! `Frames` are key frame numbers stored as a count and the difference from the frame
//! before; the type holds the frame numbers themselves and describes itself by its twin
//! `FrameDeltas`, so every renderer states the count and the deltas.
//!
//! ```
//! use mmd_formats::error::Result;
//! use mmd_formats::file::{decode_all, encode_all};
//! use mmd_formats::json::{self, FromJson, Json, JsonError};
//! use mmd_formats::layout::{Describe, Shape, Size};
//! use mmd_formats::walk::{Visitor, Walk};
//! use mmd_formats::{Decode, Encode, Error, Input, Mmd, Output};
//!
//! /// A colour packed into 16 bits: red (5), green (6), blue (5), red highest.
//! #[derive(Debug, Clone, Copy, PartialEq)]
//! pub struct Rgb565(pub u16);
//!
//! impl Rgb565 {
//!     /// Red, 0-31.
//!     pub fn red(self) -> u8 {
//!         (self.0 >> 11) as u8
//!     }
//!     /// Green, 0-63.
//!     pub fn green(self) -> u8 {
//!         (self.0 >> 5 & 0x3f) as u8
//!     }
//!     /// Blue, 0-31.
//!     pub fn blue(self) -> u8 {
//!         (self.0 & 0x1f) as u8
//!     }
//! }
//!
//! impl<C: ?Sized> Decode<C> for Rgb565 {
//!     fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
//!         u16::decode(input, ctx).map(Rgb565)
//!     }
//! }
//!
//! impl<C: ?Sized> Encode<C> for Rgb565 {
//!     fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
//!         self.0.encode(out, ctx)
//!     }
//!     fn size_hint(&self, _ctx: &C) -> usize {
//!         2
//!     }
//! }
//!
//! impl Describe for Rgb565 {
//!     const SIZE: Size = Size::Fixed(2);
//!     const MIN_SIZE: u64 = 2;
//!     fn shape() -> Shape {
//!         u16::shape()
//!     }
//! }
//!
//! impl Walk for Rgb565 {
//!     fn walk(&self, v: &mut dyn Visitor) {
//!         self.0.walk(v)
//!     }
//! }
//!
//! impl<C: ?Sized> FromJson<C> for Rgb565 {
//!     fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
//!         u16::from_json(json, ctx).map(Rgb565)
//!     }
//! }
//!
//! /// The bytes of `Frames`: a count, then each frame's distance from the one before.
//! #[derive(Mmd, Debug, Clone, PartialEq)]
//! pub struct FrameDeltas {
//!     /// Frames after the one before (the first: after frame 0).
//!     #[mmd(count = u16)]
//!     pub deltas: Vec<u16>,
//! }
//!
//! /// Key frame numbers, in order, stored as [`FrameDeltas`].
//! #[derive(Debug, Clone, PartialEq)]
//! pub struct Frames(pub Vec<u32>);
//!
//! impl FrameDeltas {
//!     fn frames(&self) -> Frames {
//!         // At most 65,535 deltas of at most 65,535: the sum fits a u32.
//!         let mut at = 0u32;
//!         Frames(self.deltas.iter().map(|d| { at += u32::from(*d); at }).collect())
//!     }
//! }
//!
//! impl Frames {
//!     /// The twin, or which frame cannot be stored and why.
//!     fn deltas(&self) -> std::result::Result<FrameDeltas, (usize, String)> {
//!         let mut before = 0u32;
//!         let mut deltas = Vec::with_capacity(self.0.len());
//!         for (i, f) in self.0.iter().enumerate() {
//!             let d = f.checked_sub(before).and_then(|d| u16::try_from(d).ok());
//!             deltas.push(d.ok_or((i, format!("frame {f} after frame {before}")))?);
//!             before = *f;
//!         }
//!         Ok(FrameDeltas { deltas })
//!     }
//! }
//!
//! impl<C: ?Sized> Decode<C> for Frames {
//!     fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
//!         FrameDeltas::decode(input, ctx).map(|d| d.frames())
//!     }
//! }
//!
//! impl<C: ?Sized> Encode<C> for Frames {
//!     fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
//!         let deltas = self.deltas().map_err(|(i, found)| {
//!             Error::inconsistent(out.position(), "frames in order, at most 65,535 apart", found)
//!                 .in_index(i)
//!                 .in_field("deltas")
//!         })?;
//!         deltas.encode(out, ctx)
//!     }
//!     fn size_hint(&self, _ctx: &C) -> usize {
//!         2 + 2 * self.0.len()
//!     }
//! }
//!
//! impl Describe for Frames {
//!     const SIZE: Size = FrameDeltas::SIZE;
//!     const MIN_SIZE: u64 = FrameDeltas::MIN_SIZE;
//!     fn shape() -> Shape {
//!         FrameDeltas::shape()
//!     }
//! }
//!
//! impl Walk for Frames {
//!     fn walk(&self, v: &mut dyn Visitor) {
//!         // Dump and JSON show what would be written; a value that cannot be written
//!         // shows no deltas (writing it says why).
//!         match self.deltas() {
//!             Ok(d) => d.walk(v),
//!             Err(_) => FrameDeltas { deltas: Vec::new() }.walk(v),
//!         }
//!     }
//! }
//!
//! impl<C: ?Sized> FromJson<C> for Frames {
//!     fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
//!         FrameDeltas::from_json(json, ctx).map(|d| d.frames())
//!     }
//! }
//!
//! /// A palette and the frames it changes at.
//! #[derive(Mmd, Debug, Clone, PartialEq)]
//! pub struct Palette {
//!     /// The colours.
//!     #[mmd(count = u8)]
//!     pub colours: Vec<Rgb565>,
//!     /// When it changes.
//!     pub frames: Frames,
//! }
//!
//! let bytes = [2, 0x1f, 0xf8, 0xe0, 0x07, 3, 0, 10, 0, 5, 0, 0, 0];
//! let p: Palette = decode_all(&bytes, &()).unwrap();
//! assert_eq!((p.colours[0].red(), p.colours[0].green(), p.colours[0].blue()), (31, 0, 31));
//! assert_eq!(p.colours[1].green(), 63);
//! assert_eq!(p.frames.0, [10, 15, 15]);
//! assert_eq!(encode_all(&p, &()).unwrap(), bytes);
//!
//! // The JSON form is the twin's, and builds the same bytes.
//! let text = json::to_string(&p);
//! assert_eq!(text, r#"{"colours":[63519,2016],"frames":{"deltas":[10,5,0]}}"#);
//! let back: Palette = json::from_str(&text, &()).unwrap();
//! assert_eq!(back, p);
//!
//! // A value the bytes cannot hold is a write error at its place.
//! let broken = Palette { frames: Frames(vec![10, 5]), ..p };
//! let e = encode_all(&broken, &()).unwrap_err();
//! assert_eq!(e.path_string(), "frames.deltas[1]");
//! assert!(e.to_string().contains("frame 5 after frame 10"), "{e}");
//! ```
//!
//! `mmd-spec`'s test `kaitai_edges.rs` renders this example's reference, Schema and `.ksy`, and
//! reads the sample with the grammar compiled by the Kaitai compiler.
