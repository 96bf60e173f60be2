//! Byte-exact readers and writers for MikuMikuDance files.
//!
//! Every format type is an annotated struct or enum; `#[derive(Mmd)]` turns it into a
//! reader ([`Decode`], `binrw::BinRead`), a writer ([`Encode`], `binrw::BinWrite`), a
//! layout descriptor ([`layout::Describe`]) and a reflective walk over its fields
//! ([`walk::Walk`]), and its inverse, a builder from the JSON form of the value
//! ([`json::FromJson`]). On the walk and the writer rest the [span maps](inspect::spans)
//! (the byte range of every field, and `explain`: which field holds a byte), the
//! [field-level differences](inspect::diff) and the [field dump](inspect::dump) (text,
//! and JSON with the `serde` feature); [`inspect`] offers them for whole files of any
//! [`inspect::Format`]. For every file that reads without error, writing the value back
//! gives the same bytes: raw values are stored, typed views are offered, and nothing is
//! normalised on the way through.
//!
//! # How the crate is laid out
//!
//! Each layer uses only the layers above it in this list:
//!
//! 1. **The runtime** the generated code calls, itself in one direction (each module uses
//!    only those before it): [`path`] (the one path type and how it is written) and
//!    [`kinds`] (index kinds, text encodings); [`layout`] (the descriptors); [`error`];
//!    [`io`]; [`codec`]; [`walk`]; [`json`] (the JSON form both ways); the leaf types ([`index`], [`text`], [`flags`]), each
//!    with its codec, descriptor and walk; `rt` (what only generated code calls); and
//!    [`file`](mod@file) (whole files in memory and on disk, written atomically).
//! 2. **Shared views** of MMD's conventions: [`coords`] (right-handed views and the little
//!    maths they need) and [`physics`] (the rigid-body shape and collision mask of both
//!    model formats).
//! 3. **The formats**: [`pmx`], [`pmd`], [`vmd`], [`vpd`]. Each module holds its layout
//!    types and their small typed views; what is done with a file is in named
//!    submodules: [`pmx::edit`] and [`pmx::skeleton`], [`vmd::eval`] and [`vmd::edit`].
//!    Every format has the same whole-file API (`new`, `from_bytes`, `to_bytes`,
//!    `read_path`, `write_path`, and [`Decode`]/[`Encode`] with the `()` context).
//! 4. **The inspection tools** for a file of any format: [`inspect`] (format detection,
//!    the round-trip check, `mmd info`'s facts, diff, dump, spans and explain).
//! 5. The built-in [`samples`], and (feature `cli`) the command-line tool of any format,
//!    `tool`: `check`, `info`, `dump`, `explain`, `diff` and `build` for a downstream
//!    crate's root types in a few lines (`tool::Tool`, `tool::FileFormat`), the same code the
//!    `mmd` binary runs for its four formats.
//!
//! ```
//! use mmd_formats::pmx::Pmx;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
//! let model = Pmx::from_bytes(&bytes)?;
//! assert_eq!(model.to_bytes()?, bytes);
//! # Ok(()) }
//! ```
//!
//! # The derive
//!
//! ```
//! use mmd_formats::{Mmd, Decode, Encode, SliceInput};
//!
//! /// A key of some downstream format.
//! #[derive(Mmd, Debug, PartialEq)]
//! struct Key {
//!     /// Frame number.
//!     frame: u32,
//!     /// Flags; bit 0 says a weight follows.
//!     flags: u8,
//!     /// Present when bit 0 of `flags` is set.
//!     #[mmd(if = *flags & 1 != 0)]
//!     weight: Option<f32>,
//!     /// Values, preceded by a `u16` count.
//!     #[mmd(count = u16)]
//!     values: Vec<i32>,
//! }
//!
//! let bytes = [7, 0, 0, 0, 1, 0, 0, 0x80, 0x3f, 1, 0, 5, 0, 0, 0];
//! let key = Key::decode(&mut SliceInput::new(&bytes), &()).unwrap();
//! assert_eq!(key.weight, Some(1.0));
//! let mut out = Vec::new();
//! key.encode(&mut out, &()).unwrap();
//! assert_eq!(out, bytes);
//! ```
//!
//! ## Attribute glossary
//!
//! On a struct or enum:
//!
//! | attribute | meaning |
//! |---|---|
//! | `ctx = Type` | the context the reader and writer take (also binrw's `Args`); without it the type works with any context and binrw's `Args` is `()` |
//! | `magic = b"..."` | fixed bytes that open the value; checked on read, written on write |
//! | `crate = path` | where the runtime is, when not at `::mmd_formats` (a renamed dependency, or a crate that re-exports it) |
//! | `tag = u8` (enum) | a tag of this integer type is read just before the variant's fields |
//! | `tag_form = fourcc` (enum, with `tag = u32`) | the tags are FourCCs (four ASCII bytes read as a little-endian `u32`, as RIFF chunk ids are): a variant may write its tag as the bytes, `#[mmd(tag = b"fmt ")]` (or as the number); messages show tags as text in double quotes, `"\x00"` for a byte outside printable ASCII (`unknown chunk id "junk" at 0x0 (expected "fmt " or "data")`); the reference shows the text beside the number and the `.ksy` the text as the enum value's doc. The JSON keeps the number (a default variant's first field is the `u32` as read). Any other form, or another tag type, is refused |
//! | `selected_by = bool` (enum) | no tag in the file: the enclosing struct computes the selector (`select = ...` on the field) |
//! | `name = "..."` (enum) | what the tag is called in messages (`unknown shared-toon flag 7`) |
//! | `parent = Record` (struct) | the struct is read inside `Record`, by a field of it marked `with_parent`: its expressions name the fields `Record` read before that field as `parent.field` (and, when `Record` names a parent of its own, that one's as `parent.parent.field`; Kaitai's `_parent`). Its reader, writer and JSON take the context [`Within`]`<C, Fields>` (the context in force and those fields), so such a struct is read and written inside its `Record` only. Not with `file` (a file's root type is inside nothing); no field of it may be named `parent` |
//! | `endian = big` (struct) | the byte order of the struct's number fields: `big`, `little` (the default) or `if cond { big } else { little }` (either way round; `cond` over earlier fields, as in `if`). It applies to every field that reads numbers of its own (a number, an array of them, a `Vec` of them, and the count of a counted field) and states no order itself; a nested format type keeps the order it declares on its own struct (little-endian unless it says otherwise), as each type of the `.ksy` states its own. With a condition, the order applies to the fields after the last one it reads (a TIFF-like `byte_order: [u8; 2]` then `endian = if byte_order.starts_with(b"MM") { big } else { little }`); a multi-byte field before that needs an order of its own |
//!
//! On a variant: `tag = VALUE`, the tag (or selector) value that picks it; every variant has
//! exactly one, and no two share one. Or `default`, on at most one variant of an enum whose
//! tag is read (`tag = u32`): that variant is read for every tag no other variant lists,
//! and its first field, of the tag's type and with no attributes, holds the tag as read
//! (`Other { id: u32, size: u32, #[mmd(len = size)] body: Vec<u8> }`, or `Unknown(u16)`
//! for a tag alone). The tag is read once: the first field's bytes are the tag's, and it is
//! written back as the variant's first bytes. A default variant holding a tag another
//! variant lists is a write error, since it would read back as that variant. Without a
//! default variant an unknown tag is a read error.
//!
//! On a field (all expressions may use earlier fields by name, as references, and `ctx`;
//! see [the expression language](#the-expression-language)):
//!
//! | attribute | field type | meaning |
//! |---|---|---|
//! | `count = i32` | `Vec<T>` | a count of this integer type precedes the elements; a negative count or one that exceeds the remaining bytes is an error |
//! | `len = expr` | `Vec<T>` | the number of elements comes from `expr` (earlier fields or the context); the writer checks the vector has that length |
//! | `item = T` (with `count` or `len`) | a container implementing [`Seq<T>`] | the elements are held in this container instead of a `Vec<T>` (a more compact form, as [`pmx::Vertices`] holds vertices); read, written, walked and described exactly as a `Vec<T>` would be |
//! | `if = expr` | `Option<T>` | present only when `expr` holds; the writer checks `Some` exactly when it holds |
//! | `unless_eof` | `Option<T>` | absent when the input ends exactly here; nothing may be written after an absent one, and a present one must write at least one byte. Meant for the last fields of a whole-file type: the end of the input is the end of the file |
//! | `rest` | `Vec<T>` | values up to the end of the input, or of the region an enclosing `size` bounds (Kaitai's `repeat: eos`); for `Vec<u8>`, every byte up to there, kept verbatim. Each value must take at least one byte. On the last field only |
//! | `until = \|e\| expr` | `Vec<T>` | values until `expr` holds of the one just read (`e`, a reference to it; earlier fields by name too), which is kept as the last (Kaitai's `repeat: until`, `_` for `e`): `until = \|s\| s.kind == 0xFF`. The input ending first is an error at the missing element; the writer checks that the last element, and only it, ends the list |
//! | `size = expr` | any (with a repeat: each element) | each value is read from exactly `expr` bytes: its reader sees no byte past them (reading past is an error at the value that crosses the end, not a truncation), and the value must account for every byte: a type that keeps bytes it does not know ends with a `rest` field (newer writers' extra fields). The writer checks each value writes exactly `expr` bytes, never cutting or padding. With `rest`: elements of that size to the end (`#[mmd(rest, size = item_size)]`). Needs an input that can be bounded ([`Input::set_end`]; both inputs of this crate can) |
//! | `pos = expr` (with `size = expr`) | any, `Option<T>` with `if`, `Vec<T>` with `len` (for the `.ksy`: a record, in the file's root type) | read at an offset of its own (Kaitai's `pos:` instances): `expr` bytes from the struct's first byte (for a file's root type, the file's first byte), the value from exactly `size` bytes there; with `len`, each element at its own offset, `_index` naming the element's index in `pos` and `size` (`#[mmd(len = count, pos = entries[_index].offset, size = entries[_index].size)]`). Positioned fields come after every sequential field and are read after them, in order, without moving the sequential position; their values may lie in any order, overlap each other and the sequential fields. A region past the end of the input is an error naming its offset and the field; a list has at most one element per byte of the input. The struct reaches to the end of its input and needs a `gaps` field. Writing puts the values in the order of their positions after the sequential fields, each exactly where its position says: a hole before one is filled with the next gap, which must fit it exactly; one that overlaps bytes already written must agree with them; each must write exactly `size` bytes; so a value whose positioned parts no longer fit is an error, never a file that reads back otherwise. Only in a struct with named fields (not an enum variant); not with `count`, `rest`, `until`, `unless_eof`, `item`, `context` or `switch_ctx`. Needs an input that can seek ([`Input::seek`]; both inputs of this crate can). In the `.ksy`: an instance with `pos:` and `size:` (a list, an instance repeated over a helper type `<field>_at(index)`), the gaps named by the key `-mmd-gaps` |
//! | `pos_base = field` (with `pos`) | | the position counts from the first byte of `field`, an earlier sequential field (BMP's colour profile, at an offset from the info header) |
//! | `gaps` | `Vec<Vec<u8>>` | in a struct with positioned fields, the last field: the bytes after the sequential fields that no positioned value holds, one byte string per run in file order (a run before each positioned value that does not start where the bytes before it end, and one to the end of the input), so that junk between and after the positioned parts is kept. A gap is never empty |
//! | `with_parent` | a struct that names this one as its `parent` (one, `Option`, `Vec` with `count`/`len`/`until`/`rest`, with `size`) | each value sees this record's fields read before the first `with_parent` field (`parent.item_count` in its `len`, `if`, `size` ...), on read, on write (where the writer checks the value against them, as against its own fields) and from JSON. Only in a struct with named fields; not on numbers, arrays, a selected enum, a positioned field or a counted `unless_eof` one (the `.ksy` reads those in helper types, whose `_parent` is the helper) |
//! | `select = expr` | an enum with `selected_by` | picks the enum's variant; the writer checks the variant matches |
//! | `context = Ctx(arg, ...)` | any | after this field, `ctx` becomes the declared context `Ctx` (see below) computed from the arguments (expressions over the fields read so far, this one included) |
//! | `endian = big` | a number (`u16` .. `u64`, `i16` .. `i64`, `f32`, `f64`; one byte has no order), an array of numbers, a `Vec` of them, or any field with a `count` (the count alone then: records keep their own order) | the byte order of the field's numbers, overriding its struct's: `big`, `little`, or `if cond { big } else { little }` (`cond` over earlier fields, evaluated before the field is read, and on write from the values). Rendered as `u4be` in the `.ksy`, or a `switch-on` the condition with cases `u4be` and `u4le`; a chosen order on an array of arrays, a list of arrays or a counted `unless_eof` field is refused (Kaitai would read those in helper types, where the condition's fields are out of reach). Such fields are read and written value by value, off the fixed path |
//! | `switch_ctx = expr` | any | after this field, `ctx` becomes the value of `expr` (a `Result<NewCtx, Error>`); opaque to the descriptors, so the reference cannot render it: prefer `context` |
//!
//! `count`/`len` combine with `if`/`unless_eof` on an `Option<Vec<T>>`.
//!
//! The same attributes make the JSON form both ways ([`json`]): the walk prints it, and
//! the derived [`json::FromJson`] builds the value back from it, checking what the writer
//! checks (`if` against `null`, `len`, `select`, counts, contexts) and naming the JSON path
//! of any mistake. With the `serde` feature the derive also implements `serde::Serialize`
//! and `serde::Deserialize` in that shape (in a downstream crate too, when it enables the
//! feature of mmd-formats). A field type written by hand implements `Decode`, `Encode`,
//! `Describe`, `Walk` and `FromJson`: [`handmade`] says what each must do, which error
//! helpers keep the offset and path, and how such a type still describes itself.
//!
//! ## The expression language
//!
//! `len`, `if`, `select`, the arguments of `context = Ctx(...)` and the `from` of a
//! context member are expressions: Rust syntax, compiled as Rust, and also held in the
//! layout descriptors as a tree ([`layout::Expr`]) that the reference, the JSON Schema and
//! the Kaitai `.ksy` render. The derive accepts only what every renderer can state, and
//! refuses anything else with an error at the expression (`count.unwrap_or_default()` is
//! refused: `unwrap_or_default` is no helper). The language:
//!
//! | form | example | meaning |
//! |---|---|---|
//! | literal | `2`, `0x10`, `3u8`, `2.05`, `true` | a number or `bool` |
//! | earlier field | `*flags`, `header.globals[2]`, `pair.0` | a field read before this one (in a context member: a parameter), the fields and elements below it; a missing element is an error |
//! | the element just read | `s.kind` in `until = \|s\| s.kind == 0xFF` | in an `until` condition only: the element the list may end with, and the fields below it (Kaitai's `_`) |
//! | the index of the element placed | `entries[_index].offset` | in `pos` and `size` of a positioned list only: the index (`usize`) of the element being placed (Kaitai's `_index`) |
//! | field of an enclosing record | `*parent.item_count`, `parent.parent.version` | in a type with `parent = Record`: a field `Record` read before the field that holds this value (Kaitai's `_parent.item_count`); `parent.parent.x` two levels up. A field `Record` does not have, or reads only later, is a compile error at the name (`no field `x` on type `SectionBeforeItems``) |
//! | context member | `ctx.bones` | a member of the context in force (the type's `ctx`, or the one a `context` switch made) |
//! | flag constant | `BoneFlags::IK` | a named bit of a flag type (`mmd_flags!`), for `contains` and `intersects` |
//! | arithmetic | `+ - * / %`, unary `-` | on numbers of one type (Rust does not mix `u16` and `i16`: widen first); `/` rounds toward 0 and `%` takes the sign of the dividend, as in Rust |
//! | bits | `& \| ^ << >> !` | `!` is bitwise on an integer, logical on a `bool` |
//! | comparison, logic | `== != < <= > >=`, `&& \|\|` | |
//! | choice | `if c { a } else { b }` | `else if` chains; the `else` is required |
//! | cast, widening | `*w as i32`, `i32::from(*w)` | to a number type (`u8`-`u64`, `i8`-`i64`, `usize`, `isize`, `f32`, `f64`); between integers a value the target type does not hold is an error, not a wrap; a float becomes an integer without its fraction |
//! | helpers | `x.len()`, `a.saturating_sub(b)`, `a.min(b)`, `a.max(b)`, `h.abs()`, `flags.contains(B)`, `flags.intersects(A \| B)`, `bytes.starts_with(b"VMD")`, `width.unwrap_or(0)` | the number of elements; `a - b` or 0; the smaller, the larger; the absolute value; every bit of `B` set; some bit set; a byte field starting with printable ASCII; the value of an earlier `Option` field of a number (one with `if = cond`), or the default where it is absent (the `.ksy` states it as `(cond ? x : d)`, so the field must be named directly) |
//!
//! `*x` and `&x` are the value of `x` (fields and parameters arrive as references:
//! `*version >= 2`; a field path or a method call reads through the reference by itself),
//! and parentheses group. Nothing in an expression panics: arithmetic that overflows,
//! divides by 0 or shifts by a negative amount or the width or more, `-i32::MIN`,
//! `i32::MIN.abs()`, a lossy cast and a missing element are each a read (and write) error
//! that names the field the expression reads and what it found
//! (`h: -(-2147483648), which overflows at 0x0 (expected `-*h` in range)`).
//!
//! What each keyword takes:
//!
//! * `if` and a `bool` `select`: a `bool`; `select` of an integer selector: that integer
//!   type (`selected_by = u8`).
//! * `len`: any integer (`u8`-`u64`, `usize`, `i8`-`i64`), so `len = *n` works for an
//!   `i32` field as it is; a negative length is an error ("a length of 0 or more"). The
//!   elements are checked against the remaining bytes before anything is allocated.
//! * `count = T`: the count's type on disk, one of `u8`, `u16`, `u32`, `u64`, `i8`, `i16`,
//!   `i32`; a negative count is an error, and so is one larger than the remaining bytes
//!   hold.
//! * a context argument: any value of the parameter's type, passed by reference (a field
//!   as it is, `header`; a computed value, `*half * 2`).
//! * a context member's `from`: a value of the member's type, over the parameters.
//!
//! Context parameters are the values a record passes with `context = Ctx(a, b)`, named by
//! `#[mmd(from(a: TypeA, b: TypeB))]` on the context: each member's `from` is computed
//! from them (and only them) right after the switching field, and the members are what
//! later fields read as `ctx.member`. `switch_ctx = expr` alone takes any Rust
//! expression, and is opaque to the descriptors: the reference shows its text and the
//! `.ksy` renderer refuses it, naming it.
//!
//! ```
//! use mmd_formats::file::decode_all;
//! use mmd_formats::Mmd;
//!
//! /// Rows of a bitmap: a negative height means the rows are stored top-down.
//! #[derive(Mmd, Debug)]
//! #[mmd(ctx = ())]
//! struct Bitmap {
//!     /// The width in bytes.
//!     width: u16,
//!     /// The height; negative for top-down rows.
//!     height: i16,
//!     /// `width * |height|` bytes: widened to `i32` first, as Rust wants one type.
//!     #[mmd(len = i32::from(*width) * i32::from(*height).abs())]
//!     pixels: Vec<u8>,
//! }
//!
//! let b = decode_all::<Bitmap, _>(&[2, 0, 0xfe, 0xff, 1, 2, 3, 4], &()).unwrap();
//! assert_eq!(b.pixels, [1, 2, 3, 4]);
//! ```
//!
//! ## Leaf types
//!
//! Besides numbers, arrays of them and derived types, a field may be one of these leaves,
//! each with its codec, walk, JSON form and descriptor (so every renderer states it):
//!
//! | type | bytes | JSON |
//! |---|---|---|
//! | [`PmxText`] | a byte length (`i32`), then the text in the encoding the context's `text_encoding` member declares | a string, or `{"text", "raw", "encoding"}` for bytes that do not decode cleanly |
//! | [`ShiftJis<N>`] | `N` bytes of Shift_JIS, ending at the first NUL; the bytes after it kept | the same |
//! | [`text::NulText<E>`] | text of any length in the encoding `E` ([`text::Utf8`] by default, [`text::Latin1`], [`text::Sjis`], or a [`text::Charset`] of your own), then a NUL (a C string); an input that ends before the NUL is an error at its end | the same; `raw` holds the NUL |
//! | [`text::PaddedText<E>`] | the whole of its region (a field with `size = expr`, else the rest of the input): the text ends at the first NUL or the region's end, the bytes after the NUL kept (RIFF `INFO` values) | the same; a string is written with one NUL after it |
//! | [`Index<K>`], [`VertexIndex`] | an index whose width the context's `index_width` member of kind `K` declares | its raw value |
//!
//! ## The fixed paths
//!
//! The derive also generates a second, faster reader and writer from the same fields,
//! which the ordinary ones above stay the reference for. A record whose size the context
//! alone fixes (every field one value, always present, of a type with a fixed size:
//! numbers, arrays of them, indices, fixed-length text, such records) is read from bytes
//! checked once for the whole record, and a run of them straight into the vector
//! ([`Decode::fixed_size`], [`Decode::decode_fixed`]); within any record, consecutive
//! such fields are read together. Every record without an end-of-file field, trailing
//! bytes or a context switch is written whole into a buffer, and a sequence of them goes
//! out a few hundred bytes at a time ([`Encode::encode_fixed`]). Both decline, and the
//! ordinary reader or writer takes over, whenever something is not as expected: too few
//! bytes, a tag no variant has, a value that would not read back the same. So every error
//! still comes from the ordinary paths, with its offset and field path; they also serve
//! streams and outputs that record spans.
//!
//! On the root struct of a file format, `file(id = "pmx", title = "...", application =
//! "...")` names the format in the reference that `mmd-spec` renders (the root's doc
//! comment is the introduction).
//!
//! ## Declared contexts
//!
//! `#[derive(MmdContext)]` on a struct declares a context computed from values read
//! earlier. The struct takes `#[mmd(from(name: Type, ...))]`, its parameters (the values a
//! record passes with `context = Ctx(...)`); each member takes:
//!
//! | attribute | meaning |
//! |---|---|
//! | `from = expr` | the expression the member comes from, over the parameters (the language of conditions; `a[i]` is checked: a missing element is an error, not a panic) |
//! | `valid = [1, 2, 4]` | the values it accepts, literals of the member's type (`2.0` for a float; for an `index_width` member, 1, 2 or 4 only); any other value is a read (and write) error at the place it was read from |
//! | `name = "bone index width"` | what messages call it |
//! | `expected = "..."` | what the error says is expected, instead of "a NAME of 1, 2 or 4" |
//! | `text_encoding` | the member is the encoding of length-prefixed text ([`TextContext`]) |
//! | `index_width = I` | the member is the width of the indices of type `I` ([`IndexWidth<I>`]) |
//!
//! The derive implements [`DeclaredContext`] (compute it from values you hold),
//! [`DescribeContext`] (its descriptor), and the traits of the roles. A downstream format
//! declares its own index kinds with [`index_kind!`].
//!
//! ## A downstream format, whole
//!
//! A header whose values decide how the rest is read, a declared context, an index kind
//! of the format's own, and how an invalid header value is reported:
//!
//! ```
//! use mmd_formats::{DeclaredContext, Index, Mmd, MmdContext, PmxText, TextEncoding};
//!
//! mmd_formats::index_kind! {
//!     /// Layers of the format.
//!     pub struct Layer = "layer";
//! }
//!
//! /// Signature and settings.
//! #[derive(Mmd, Debug, PartialEq)]
//! #[mmd(magic = b"LYR1")]
//! pub struct Header {
//!     /// 0 = UTF-16LE, 1 = UTF-8.
//!     pub encoding: u8,
//!     /// Width of layer indices: 1, 2 or 4.
//!     pub layer_width: u8,
//! }
//!
//! /// What the header declares for the rest.
//! #[derive(MmdContext, Debug, Clone, Copy)]
//! #[mmd(from(header: Header))]
//! pub struct Settings {
//!     /// The encoding of every text.
//!     #[mmd(from = header.encoding, text_encoding)]
//!     pub encoding: TextEncoding,
//!     /// The width of layer indices.
//!     #[mmd(from = header.layer_width, valid = [1, 2, 4], name = "layer index width", index_width = Index<Layer>)]
//!     pub layer_width: u8,
//! }
//!
//! /// One layer: a name and its parent (-1 = none).
//! #[derive(Mmd, Debug, PartialEq)]
//! #[mmd(ctx = Settings)]
//! pub struct Entry {
//!     /// The name, in the declared encoding.
//!     pub name: PmxText,
//!     /// The parent layer, at the declared width.
//!     pub parent: Index<Layer>,
//! }
//!
//! /// A whole file.
//! #[derive(Mmd, Debug, PartialEq)]
//! #[mmd(ctx = ())]
//! pub struct File {
//!     /// The header; the rest is read with the settings it declares.
//!     #[mmd(context = Settings(header))]
//!     pub header: Header,
//!     /// Layers, a u16 count first.
//!     #[mmd(count = u16)]
//!     pub layers: Vec<Entry>,
//! }
//!
//! let bytes = [b'L', b'Y', b'R', b'1', 1, 2, 1, 0, 1, 0, 0, 0, b'a', 0xff, 0xff];
//! let file: File = mmd_formats::file::decode_all(&bytes, &()).unwrap();
//! assert!(file.layers[0].parent.is_none());
//! assert_eq!(mmd_formats::file::encode_all(&file, &()).unwrap(), bytes);
//!
//! // An invalid header value is an error at its byte, with its path:
//! let mut bad = bytes;
//! bad[5] = 3;
//! let err = mmd_formats::file::decode_all::<File, _>(&bad, &()).unwrap_err();
//! assert_eq!(err.offset(), 5);
//! assert_eq!(err.path_string(), "header.layer_width");
//! // and code that holds a header computes the context the same way:
//! let fault = Settings::compute((&Header { encoding: 1, layer_width: 3 },)).unwrap_err();
//! assert_eq!(fault.member(), "layer index width");
//! ```
//!
//! ## Inside your own binrw structs
//!
//! Every derived type implements `binrw::BinRead` and `binrw::BinWrite` (add `binrw` to
//! your own dependencies to use its derive). The binrw arguments are the context itself,
//! not a tuple of it, so pass it with `args_raw`: `#[br(args(ctx))]` would build the
//! one-element tuple `(ctx,)` and fail to compile. A type with `ctx = ()` needs no
//! attribute.
//!
//! ```
//! use binrw::{BinRead, BinWrite};
//! use mmd_formats::pmx::PmxContext;
//! use mmd_formats::{BoneIndex, Mmd, PmxText, TextEncoding};
//!
//! /// A PMX-context record.
//! #[derive(Mmd, Debug, PartialEq)]
//! #[mmd(ctx = PmxContext)]
//! struct Named {
//!     /// A name in the context's encoding.
//!     name: PmxText,
//!     /// A bone at the context's width.
//!     bone: BoneIndex,
//! }
//!
//! #[derive(BinRead, BinWrite, Debug, PartialEq)]
//! #[brw(little, magic = b"BOX!")]
//! struct Boxed {
//!     bone_width: u8,
//!     #[br(args_raw = PmxContext::new(2.0, TextEncoding::Utf8, 0, [1, 1, 1, bone_width, 1, 1]))]
//!     #[bw(args_raw = PmxContext::new(2.0, TextEncoding::Utf8, 0, [1, 1, 1, *bone_width, 1, 1]))]
//!     named: Named,
//! }
//!
//! let bytes = [b'B', b'O', b'X', b'!', 2, 1, 0, 0, 0, b'x', 0xfe, 0xff];
//! let boxed = Boxed::read(&mut std::io::Cursor::new(&bytes)).unwrap();
//! assert_eq!(boxed.named.bone, BoneIndex::from_raw(-2));
//! let mut out = std::io::Cursor::new(Vec::new());
//! boxed.write(&mut out).unwrap();
//! assert_eq!(out.into_inner(), bytes);
//! ```

#![deny(missing_docs)]

extern crate self as mmd_formats;

pub mod codec;
pub mod coords;
pub mod error;
pub mod file;
pub mod fixed;
pub mod flags;
pub mod handmade;
pub mod index;
pub mod inspect;
pub mod io;
pub mod json;
pub mod kinds;
pub mod layout;
pub mod lint;
pub mod path;
pub mod physics;
pub mod pmd;
pub mod pmx;
pub mod pose;
pub mod samples;
pub mod seq;
pub mod text;
#[cfg(feature = "cli")]
pub mod tool;
pub mod vmd;
pub mod vpd;
pub mod walk;

// The paths the inspection tools had before they moved under `inspect`, kept so that code
// written against them still compiles.
#[doc(hidden)]
pub use inspect::{diff, dump, spans};

/// The paths of format detection, the round-trip check and `mmd info` before they moved
/// under [`inspect`]; kept so that code written against them still compiles.
#[doc(hidden)]
pub mod format {
    pub use crate::inspect::{
        check_roundtrip, compare, field_at, info, CheckOutcome, Format, Info, InfoValue,
    };
}

#[doc(hidden)]
pub mod rt;

pub use codec::{
    DeclaredContext, Decode, DecodeSelected, Enclosing, Encode, NoFieldsPassed, Selected, Within,
};
pub use error::{ContextFault, Error, ErrorKind, PathSegment, Result};
pub use fixed::{FixedBytes, FixedOut};
pub use index::{
    BoneIndex, Index, IndexKind, IndexType, IndexWidth, IndexWidths, MaterialIndex, MorphIndex,
    RigidBodyIndex, TextureIndex, VertexIndex,
};
pub use io::{Input, IoInput, IoOutput, Output, SliceInput};
pub use layout::{Describe, DescribeContext};
pub use mmd_derive::{Mmd, MmdContext};
pub use seq::Seq;
pub use text::{PmxText, ShiftJis, TextContext, TextEncoding};

/// Paths the generated code uses. Not a stable interface.
#[doc(hidden)]
pub mod __private {
    pub use crate::__mmd_if_serde as if_serde;
    pub use crate::codec::{
        DeclaredContext, Decode, DecodeSelected, Enclosing, Encode, NoFieldsPassed, Selected,
        Within,
    };
    pub use crate::error::{ContextFault, Error, PathSegment, Result};
    pub use crate::fixed::{FixedBytes, FixedOut};
    pub use crate::index::{IndexType, IndexWidth};
    pub use crate::io::{Input, Output};
    pub use crate::json;
    pub use crate::json::{FromJson, Json, JsonError};
    pub use crate::layout;
    pub use crate::layout::Describe;
    pub use crate::path::Segment;
    pub use crate::rt;
    pub use crate::seq::Seq;
    pub use crate::text::{TextContext, TextEncoding};
    pub use crate::walk;
    pub use binrw;
    #[cfg(feature = "serde")]
    pub use serde;
}

/// Expands to its input when mmd-formats is built with the `serde` feature, to nothing
/// otherwise: the generated `serde` impls of a derived type go through it, so that a
/// downstream crate gets them exactly when mmd-formats has the feature. Not a stable
/// interface.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __mmd_if_serde {
    ($($t:tt)*) => { $($t)* };
}

/// Expands to its input when mmd-formats is built with the `serde` feature, to nothing
/// otherwise (here: nothing). Not a stable interface.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __mmd_if_serde {
    ($($t:tt)*) => {};
}

/// The root types of the binary file formats (PMX, PMD, VMD), whose layout descriptors
/// the format reference is rendered from (`mmd-spec`). VPD is text and is described by
/// its own grammar ([`vpd`]).
pub fn file_layouts() -> Vec<&'static layout::TypeLayout> {
    [pmx::Pmx::layout(), pmd::Pmd::layout(), vmd::Vmd::layout()]
        .into_iter()
        .flatten()
        .collect()
}
