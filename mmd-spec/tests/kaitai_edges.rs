//! Grammar features our own formats do not use, rendered for small made-up formats and run
//! through the real Kaitai compiler: the parser must read each hand-written sample to its
//! last byte into exactly the tree `mmd_spec::ksy::expected_tree` predicts from our reader
//! (the same cross-check as `kaitai_tree.rs`, for a downstream crate's shapes).
//!
//! Needs Node.js and `npm ci --prefix mmd-spec/kaitai-check`; without them each test says
//! it skipped and passes, unless `MMD_KAITAI=require`.

use mmd_formats::codec::Decode;
use mmd_formats::file::decode_all;
use mmd_formats::layout::Describe;
use mmd_formats::walk::{Value as Walked, Walk};
use mmd_formats::{Index, Mmd, MmdContext};
use mmd_spec::{render_ksy, Spec};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn checker() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kaitai-check");
    let ready = dir.join("node_modules/kaitai-struct-compiler").is_dir()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if ready {
        return Some(dir);
    }
    assert!(
        std::env::var("MMD_KAITAI").as_deref() != Ok("require"),
        "MMD_KAITAI=require but Node.js or {}/node_modules is missing",
        dir.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped: needs Node.js and `npm ci --prefix mmd-spec/kaitai-check`"
    );
    None
}

/// Renders `T`'s grammar, parses every sample with the compiled parser and compares the
/// trees; panics with every difference.
fn cross_check<T: Decode<()> + Walk + Describe>(name: &str, samples: &[&[u8]]) {
    let spec = Spec::of::<T>().unwrap();
    let ksy = render_ksy(&spec).unwrap_or_else(|e| panic!("{name}: {e}"));
    let Some(dir) = checker() else { return };
    let tmp = std::env::temp_dir().join(format!("mmd-kaitai-edges-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let grammar = tmp.join(format!("{}.ksy", spec.id));
    std::fs::write(&grammar, &ksy).unwrap();
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for (i, bytes) in samples.iter().enumerate() {
        let path = tmp.join(format!("sample{i}.bin"));
        std::fs::write(&path, bytes).unwrap();
        let value: T = decode_all(bytes, &()).unwrap_or_else(|e| panic!("sample {i}: {e}"));
        let tree = mmd_spec::ksy::expected_tree(&Walked::of(&value), spec.root)
            .unwrap_or_else(|e| panic!("sample {i}: {e}"));
        expected.push(serde_json::from_str::<Value>(&tree).unwrap());
        files.push(path);
    }
    let out = Command::new("node")
        .arg(dir.join("tree.js"))
        .arg(&grammar)
        .args(&files)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&tmp);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        files.len(),
        "{name}: the grammar does not compile:\n{}\n{ksy}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (i, (line, ours)) in lines.iter().zip(&expected).enumerate() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            r["ok"],
            Value::Bool(true),
            "{name}, sample {i}: {}\n{ksy}",
            r["error"]
        );
        assert_eq!(&r["tree"], ours, "{name}, sample {i}\n{ksy}");
    }
}

mmd_formats::index_kind! {
    /// Joints of a made-up skeleton.
    pub struct Joint = "joint";
}
type JointIndex = Index<Joint>;

/// A one-byte header: the joint index width.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct WidthHeader {
    /// 1, 2 or 4.
    width: u8,
}

/// The joint width, from the header.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: WidthHeader))]
struct WidthCtx {
    /// The joint index width.
    #[mmd(from = header.width, valid = [1, 2, 4], index_width = JointIndex)]
    width: u8,
}

// ---- an enum with a signature ----

/// A chunk: the signature `CK`, then a kind byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"CK", tag = u8, name = "chunk kind")]
enum Chunk {
    /// 0: nothing.
    #[mmd(tag = 0)]
    Empty,
    /// 1: a word.
    #[mmd(tag = 1)]
    Word(u16),
}

/// A file holding one chunk.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "chunked", title = "Chunked", application = "tests"))]
struct Chunked {
    /// The chunk.
    chunk: Chunk,
    /// A byte after it.
    after: u8,
}

#[test]
fn an_enum_with_a_signature_keeps_it_in_the_grammar() {
    cross_check::<Chunked>(
        "chunked",
        &[&[b'C', b'K', 1, 0x34, 0x12, 7], &[b'C', b'K', 0, 9]],
    );
}

// ---- indices inside helper types ----

/// Pairs of joints after the header that declares their width.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "pairs", title = "Pairs", application = "tests"))]
struct Pairs {
    /// The width.
    #[mmd(context = WidthCtx(header))]
    header: WidthHeader,
    /// Joint pairs, a u8 count first.
    #[mmd(count = u8)]
    pairs: Vec<[JointIndex; 2]>,
}

#[test]
fn indices_in_a_repeated_array_read_their_width() {
    cross_check::<Pairs>(
        "pairs",
        &[&[2, 2, 1, 0, 0xff, 0xff, 2, 0, 3, 0], &[1, 1, 5, 6]],
    );
}

/// Joints that may be absent at the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "tail", title = "Tail", application = "tests"))]
struct Tail {
    /// The width.
    #[mmd(context = WidthCtx(header))]
    header: WidthHeader,
    /// Joints, a u8 count first; absent when the file ends after the header.
    #[mmd(unless_eof, count = u8)]
    joints: Option<Vec<JointIndex>>,
}

#[test]
fn indices_in_a_block_absent_at_eof_read_their_width() {
    cross_check::<Tail>("tail", &[&[1, 2, 5, 0xff], &[2, 0], &[4]]);
}

// ---- two switches in one record ----

/// The joint width, from a byte.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(byte: u8))]
struct ByteWidthCtx {
    /// The joint index width.
    #[mmd(from = *byte, valid = [1, 2, 4], index_width = JointIndex)]
    width: u8,
}

/// Two sections, each with its own width.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "two_sections", title = "Two sections", application = "tests"))]
struct TwoSections {
    /// The first section's width.
    #[mmd(context = WidthCtx(first))]
    first: WidthHeader,
    /// A joint at the first width.
    a: JointIndex,
    /// The second section's width.
    #[mmd(context = ByteWidthCtx(second))]
    second: u8,
    /// A joint at the second width.
    b: JointIndex,
}

#[test]
fn a_record_may_switch_twice() {
    cross_check::<TwoSections>("two_sections", &[&[1, 5, 2, 6, 0], &[2, 1, 0, 1, 0xff]]);
}

// ---- a plain type on both sides of a switch ----

/// A point: no index, no text, nothing that needs a context.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Point {
    /// x.
    x: i8,
    /// y.
    y: i8,
}

/// A header with a point in it, then a point and a joint after the switch.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "points", title = "Points", application = "tests"))]
struct Points {
    /// Where it starts.
    origin: Point,
    /// The width.
    #[mmd(context = WidthCtx(header))]
    header: WidthHeader,
    /// Where it ends.
    target: Point,
    /// The joint.
    joint: JointIndex,
}

#[test]
fn a_plain_type_may_be_used_before_and_after_a_switch() {
    cross_check::<Points>("points", &[&[1, 2, 1, 3, 4, 0xff]]);
}

// ---- a context switched below the root ----

/// Flags from a byte.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(byte: u8))]
struct ExtraCtx {
    /// True when the byte is not 0.
    #[mmd(from = *byte != 0)]
    extra: bool,
}

/// A record read with [`ExtraCtx`].
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ExtraCtx)]
struct Item {
    /// Present when the context says so.
    #[mmd(if = ctx.extra)]
    value: Option<u8>,
}

/// A section that switches the context for its items.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Section {
    /// Whether items carry a value.
    #[mmd(context = ExtraCtx(mode))]
    mode: u8,
    /// One item.
    item: Item,
}

/// A file with one section.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "sections", title = "Sections", application = "tests"))]
struct Sections {
    /// The section.
    section: Section,
}

#[test]
fn a_context_switched_below_the_root_is_refused_with_its_reason() {
    let e = render_ksy(&Spec::of::<Sections>().unwrap()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("only a context of the root type can be reached from other types"),
        "{text}"
    );
}

// ---- a context computed from a flag field ----

mmd_formats::mmd_flags! {
    /// Header flags.
    pub struct HeaderFlags(u8) {
        /// 0x01: joints are 2 bytes wide, else 1.
        const WIDE = 0x01;
    }
}

/// The joint width, from the header flags.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(flags: HeaderFlags))]
struct FlagWidthCtx {
    /// The joint index width: 2 when `WIDE` is set, else 1.
    #[mmd(
        from = if flags.contains(HeaderFlags::WIDE) { 2 } else { 1 },
        valid = [1, 2],
        index_width = JointIndex
    )]
    width: u8,
}

/// Flags, then a joint at the width they say.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "flagged", title = "Flagged", application = "tests"))]
struct Flagged {
    /// The flags.
    #[mmd(context = FlagWidthCtx(flags))]
    flags: HeaderFlags,
    /// A joint.
    joint: JointIndex,
}

#[test]
fn a_context_may_be_computed_from_a_flag_field() {
    cross_check::<Flagged>("flagged", &[&[1, 0x34, 0x12], &[0, 0xff], &[0x81, 0, 0]]);
}

// ---- shapes our formats do not use ----

/// A payload chosen by a tag byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u8, name = "payload kind")]
enum Payload {
    /// 0: nothing.
    #[mmd(tag = 0)]
    Nothing,
    /// 1: words, a u8 count first.
    #[mmd(tag = 1)]
    Words(#[mmd(count = u8)] Vec<u16>),
    /// 2: a grid and a note.
    #[mmd(tag = 2)]
    Grid {
        /// 2 x 2 bytes.
        cells: [[u8; 2]; 2],
        /// Notes, absent when the record ends the file.
        #[mmd(unless_eof, count = u8)]
        notes: Option<Vec<i8>>,
    },
}

/// A shape chosen by the record's `kind` byte (no tag of its own).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(selected_by = u8, name = "shape kind")]
enum Shape {
    /// 1: a radius.
    #[mmd(tag = 1)]
    Circle(f32),
    /// 2: two sides.
    #[mmd(tag = 2)]
    Rect {
        /// Width.
        w: u16,
        /// Height.
        h: u16,
    },
}

/// The tail of the file: joints at the header's width, absent when the file ends first.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = WidthCtx)]
struct Extension {
    /// As many bytes as the joint width.
    #[mmd(len = ctx.width)]
    pad: Vec<u8>,
    /// Joints, a u8 count first; absent at the end of the file.
    #[mmd(unless_eof, count = u8)]
    joints: Option<Vec<i16>>,
}

/// Every shape at once.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "sink", title = "Sink", application = "tests"))]
struct Sink {
    /// The width.
    #[mmd(context = WidthCtx(header))]
    header: WidthHeader,
    /// Which shape follows.
    kind: u8,
    /// The shape.
    #[mmd(select = *kind)]
    shape: Shape,
    /// The payload.
    payload: Payload,
    /// The rest.
    ext: Extension,
}

#[test]
fn shapes_our_formats_do_not_use_read_alike() {
    #[rustfmt::skip]
    let samples: [&[u8]; 3] = [
        &[
            2,                      // width 2
            1, 0, 0, 0x80, 0x3f,    // kind 1: Circle(1.0)
            1, 2, 0x34, 0x12, 7, 0, // payload Words [0x1234, 7]
            9, 9,                   // pad: 2 bytes
            2, 0xff, 0xff, 1, 0,    // joints [-1, 1]
        ],
        &[
            1,                      // width 1
            2, 3, 0, 4, 0,          // kind 2: Rect 3 x 4
            2, 1, 2, 3, 4,          // payload Grid [[1, 2], [3, 4]]
            0,                      //   notes: 0 of them
            5,                      // pad: 1 byte
            0,                      // joints: 0 of them
        ],
        &[
            4,                      // width 4
            1, 0, 0, 0, 0,          // kind 1: Circle(0.0)
            2, 1, 2, 3, 4,          // payload Grid
            1, 0xfe,                //   notes [-2]
            1, 2, 3, 4,             // pad: 4 bytes; joints absent
        ],
    ];
    cross_check::<Sink>("sink", &samples);
}

/// A nested array of numbers wider than a byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "matrix", title = "Matrix", application = "tests"))]
struct Matrix {
    /// 3 rows of 2 values.
    rows: [[i16; 2]; 3],
}

#[test]
fn a_nested_array_has_a_grammar() {
    cross_check::<Matrix>("matrix", &[&[1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0xff, 0xff]]);
}

// ---- two blocks of the same name ----

/// A record whose names may be absent at the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Left {
    /// Names, absent when the file ends first.
    #[mmd(unless_eof, count = u8)]
    names: Option<Vec<u8>>,
}

/// Another record with a field of the same name.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Right {
    /// Names, absent when the file ends first.
    #[mmd(unless_eof, count = u8)]
    names: Option<Vec<u16>>,
}

/// A choice of the two.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u8, name = "side")]
enum Side {
    /// 0: left.
    #[mmd(tag = 0)]
    L(Left),
    /// 1: right.
    #[mmd(tag = 1)]
    R(Right),
}

/// One side.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "sides", title = "Sides", application = "tests"))]
struct Sides {
    /// The side.
    side: Side,
}

#[test]
fn two_records_may_have_blocks_of_the_same_name() {
    cross_check::<Sides>("sides", &[&[0, 2, 7, 8], &[1, 1, 0x34, 0x12], &[1]]);
}

// ---- numbers past 2^53 ----

/// Two 64-bit numbers in a record of their own.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct WidePair {
    /// Any i64.
    signed_value: i64,
    /// Any u64.
    unsigned_value: u64,
}

/// 64-bit numbers alone, in a fixed array, counted and in a record.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "wide", title = "Wide", application = "tests"))]
struct Wide {
    /// Any u64.
    big_one: u64,
    /// Two i64.
    pair: [i64; 2],
    /// u64s, a u8 count first.
    #[mmd(count = u8)]
    many: Vec<u64>,
    /// A record of two.
    inner: WidePair,
}

#[test]
fn a_64_bit_value_compares_exactly() {
    // Kaitai's JavaScript runtime reads these into doubles (exact up to 2^53 only); the
    // checker reads them again as BigInts. Each value here is one a double cannot hold.
    let mut file = Vec::new();
    file.extend(0x0123_4567_89ab_cdefu64.to_le_bytes());
    file.extend((i64::MIN + 1).to_le_bytes());
    file.extend(0x7fff_ffff_ffff_fffdi64.to_le_bytes());
    file.push(2);
    file.extend(u64::MAX.to_le_bytes());
    file.extend(((1u64 << 53) + 1).to_le_bytes());
    file.extend((-(1i64 << 60) - 3).to_le_bytes());
    file.extend(((1u64 << 63) + 7).to_le_bytes());
    cross_check::<Wide>("wide", &[&file]);
}

/// Arrays of arrays of joints, and arrays of joints absent at the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "grids", title = "Grids", application = "tests"))]
struct Grids {
    /// The width.
    #[mmd(context = WidthCtx(header))]
    header: WidthHeader,
    /// 2 x 2 joints, a u8 count first.
    #[mmd(count = u8)]
    grids: Vec<[[JointIndex; 2]; 2]>,
    /// Joint pairs, a u8 count first; absent at the end of the file.
    #[mmd(unless_eof, count = u8)]
    pairs: Option<Vec<[JointIndex; 2]>>,
}

#[test]
fn indices_in_nested_helper_types_read_their_width() {
    cross_check::<Grids>(
        "grids",
        &[
            &[1, 1, 1, 2, 3, 4, 1, 5, 6],
            &[2, 1, 1, 0, 2, 0, 3, 0, 0xff, 0xff],
        ],
    );
}

// ---- a context computed from a sequence ----

/// One entry of a table.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Entry {
    /// A tag byte.
    tag: u8,
    /// The entry's value.
    x: u8,
}

/// The joint width, from entry 1 of a table.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(entries: [Entry]))]
struct EntriesCtx {
    /// Entry 1's value.
    #[mmd(from = entries[1].x, valid = [1, 2, 4], index_width = JointIndex)]
    width: u8,
}

/// A table, then a joint at the width its entry 1 gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "table", title = "Table", application = "tests"))]
struct Table {
    /// The entries, a u8 count first.
    #[mmd(count = u8, context = EntriesCtx(entries))]
    entries: Vec<Entry>,
    /// A joint.
    joint: JointIndex,
}

#[test]
fn a_context_may_be_computed_from_a_sequence() {
    cross_check::<Table>(
        "table",
        &[&[2, 0, 9, 1, 2, 0xff, 0xff], &[3, 0, 0, 0, 1, 0, 0, 7]],
    );
}

// ---- value lists of negative and float literals; an encoding member of type u8 ----

/// A header: an encoding byte, a signed delta and a scale.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct TunedHeader {
    /// 0 = UTF-16LE, 1 = UTF-8, anything else kept undecoded.
    enc: u8,
    /// -1, 0 or 1.
    delta: i8,
    /// 0.5 or 2.0.
    scale: f32,
}

/// The context of a tuned file.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: TunedHeader))]
struct TunedCtx {
    /// The text encoding, kept as the byte.
    #[mmd(from = header.enc, text_encoding)]
    enc: u8,
    /// The delta.
    #[mmd(from = header.delta, valid = [-1, 0, 1])]
    delta: i8,
    /// The scale.
    #[mmd(from = header.scale, valid = [0.5, 2.0])]
    scale: f32,
}

/// A record read with the tuned context.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = TunedCtx)]
struct Named {
    /// A name.
    name: mmd_formats::PmxText,
    /// Present when the delta is negative.
    #[mmd(if = ctx.delta < 0)]
    back: Option<u8>,
}

/// A tuned file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "tuned", title = "Tuned", application = "tests"))]
struct Tuned {
    /// The header.
    #[mmd(context = TunedCtx(header))]
    header: TunedHeader,
    /// One record.
    named: Named,
}

#[test]
fn negative_and_float_value_lists_and_a_byte_encoding_read_alike() {
    #[rustfmt::skip]
    let samples: [&[u8]; 4] = [
        &[1, 0xff, 0, 0, 0, 0x3f, 2, 0, 0, 0, b'h', b'i', 9], // UTF-8, delta -1, scale 0.5
        &[0, 1, 0, 0, 0, 0x40, 2, 0, 0, 0, b'h', 0],         // UTF-16LE, delta 1, scale 2.0
        &[7, 0, 0, 0, 0, 0x40, 1, 0, 0, 0, 0xfe],            // encoding 7: U+FFFD
        &[9, 0, 0, 0, 0, 0x40, 2, 0, 0, 0, 0xc3, 0xa9],      // encoding 9: UTF-8 "é"
    ];
    cross_check::<Tuned>("tuned", &samples);
    // The Rust view reads an unlisted encoding as UTF-8 too (issue 22: the `.ksy` kept
    // those bytes raw while Rust decoded them), and keeps the bytes as stored.
    let t: Tuned = decode_all(samples[3], &()).unwrap();
    assert_eq!(t.named.name.to_string_lossy(), "é");
    assert_eq!(t.named.name.as_bytes(), [0xc3, 0xa9]);
    let t: Tuned = decode_all(samples[2], &()).unwrap();
    assert_eq!(t.named.name.to_string_lossy(), "\u{FFFD}");
    let ksy = render_ksy(&Spec::of::<Tuned>().unwrap()).unwrap();
    assert!(
        ksy.contains("_: named_text_utf_8") || ksy.contains("_: pmx_text_utf_8"),
        "{ksy}"
    );
}

// ---- a signature with a NUL, a backtick and a byte above 0x7E ----

/// A file whose signature holds bytes no Markdown code span can show as they are.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"M`V\0\x01\xff ",
    file(id = "odd_signature", title = "Odd signature", application = "tests")
)]
struct OddSignature {
    /// A byte.
    value: u8,
}

#[test]
fn a_signature_of_any_bytes_is_escaped_in_the_reference_and_kept_in_the_grammar() {
    cross_check::<OddSignature>("odd_signature", &[b"M`V\0\x01\xff \x07"]);
    let md = mmd_spec::render_markdown(&Spec::of::<OddSignature>().unwrap());
    // Issue 22: the raw NUL made `grep` call the reference binary.
    assert!(!md.bytes().any(|b| b < 0x20 && b != b'\n'), "{md}");
    assert!(
        md.contains("Starts with the 7-byte signature `M\\x60V\\x00\\x01\\xFF␠`."),
        "{md}"
    );
}

// ---- `len()` and `starts_with` on bytes ----

/// A header: a fixed tag, then bytes with a u8 count.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct TaggedHeader {
    /// Four bytes.
    tag: [u8; 4],
    /// Bytes, a u8 count first.
    #[mmd(count = u8)]
    raw: Vec<u8>,
}

/// Lengths of the header's bytes.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: TaggedHeader))]
struct LenCtx {
    /// The tag's length (4).
    #[mmd(from = header.tag.len())]
    tag_len: usize,
    /// How many raw bytes.
    #[mmd(from = header.raw.len())]
    raw_len: usize,
}

/// The header, then as many bytes as the tag is long.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "lens", title = "Lens", application = "tests"))]
struct Lens {
    /// The header.
    #[mmd(context = LenCtx(header))]
    header: TaggedHeader,
    /// `tag_len` bytes.
    #[mmd(len = ctx.tag_len)]
    body: Vec<u8>,
    /// `raw_len` bytes.
    #[mmd(len = ctx.raw_len)]
    tail: Vec<u8>,
}

#[test]
fn lengths_of_bytes_and_byte_sequences_read_alike() {
    cross_check::<Lens>(
        "lens",
        &[
            &[1, 2, 3, 4, 2, 8, 9, 1, 2, 3, 4, 5, 6],
            &[1, 2, 3, 4, 0, 1, 2, 3, 4],
        ],
    );
}

/// Whether the header's counted bytes start with `ab`.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: TaggedHeader))]
struct PrefixCtx {
    /// True when `raw` starts with `ab`.
    #[mmd(from = header.raw.starts_with(b"ab"))]
    ab: bool,
}

/// The header, then a byte when its bytes start with `ab`.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "prefix", title = "Prefix", application = "tests"))]
struct Prefix {
    /// The header.
    #[mmd(context = PrefixCtx(header))]
    header: TaggedHeader,
    /// Present after `ab`.
    #[mmd(if = ctx.ab)]
    x: Option<u8>,
}

#[test]
fn starts_with_on_a_counted_byte_sequence() {
    cross_check::<Prefix>(
        "prefix",
        &[&[1, 2, 3, 4, 2, b'a', b'b', 9], &[1, 2, 3, 4, 0]],
    );
}

// ---- an argument that is an expression ----

/// Half the joint width, then a joint at twice that.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "doubled", title = "Doubled", application = "tests"))]
struct Doubled {
    /// Half the width.
    #[mmd(context = ByteWidthCtx(*half * 2))]
    half: u8,
    /// A joint.
    joint: JointIndex,
}

#[test]
fn a_context_argument_may_be_an_expression() {
    cross_check::<Doubled>("doubled", &[&[1, 0xfe, 0xff], &[2, 1, 0, 0, 0]]);
    let e = decode_all::<Doubled, _>(&[3, 0], &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "half: width 6 at 0x0 (expected a width of 1, 2 or 4)"
    );
}

// ---- operators Rust and Kaitai compute differently ----

/// Lengths from the operators whose Rust meaning Kaitai states another way: `/` toward 0
/// and `%` with the dividend's sign (Kaitai floors both), widening with `From` and `as`,
/// `abs`, `min`, `max`, a bitwise `!`, and a float cast to an integer (its fraction
/// dropped).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "arith", title = "Arithmetic", application = "tests"))]
struct Arith {
    /// A signed width.
    w: i16,
    /// A signed divisor.
    d: i8,
    /// An unsigned height.
    h: u16,
    /// A scale.
    s: f32,
    /// `w % d + 8` bytes.
    #[mmd(len = *w % i16::from(*d) + 8)]
    rem: Vec<u8>,
    /// `w / d + 8` bytes.
    #[mmd(len = *w / i16::from(*d) + 8)]
    quot: Vec<u8>,
    /// `|w * h|`, at most 5, bytes: a product that needs widening.
    #[mmd(len = (i32::from(*w) * *h as i32).abs().min(5))]
    prod: Vec<u8>,
    /// `max(h - 3, 0) % 4` bytes.
    #[mmd(len = (*h as i32 - 3).max(0) % 4)]
    cast: Vec<u8>,
    /// `h / 4` bytes, unsigned on both sides.
    #[mmd(len = *h / 4)]
    quarter: Vec<u8>,
    /// Present when `h` is even.
    #[mmd(if = !*h & 1 == 1)]
    even: Option<u8>,
    /// `s * 2` without its fraction, bytes.
    #[mmd(len = (*s * 2.0) as u8)]
    scaled: Vec<u8>,
}

/// The header of an `Arith` (w, d, h, s), then body bytes 1, 2, 3, ... for the lengths
/// its expressions give, worked out by hand by the caller (`lens`, in field order, and
/// whether `even` is there); checks that our reader reads those lengths.
fn arith_sample(w: i16, d: i8, h: u16, s: f32, lens: [usize; 6]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(w.to_le_bytes());
    b.extend(d.to_le_bytes());
    b.extend(h.to_le_bytes());
    b.extend(s.to_le_bytes());
    let body: usize = lens.iter().sum::<usize>() + usize::from(h.is_multiple_of(2));
    b.extend((1..=body).map(|i| i as u8));
    let a: Arith = decode_all(&b, &()).unwrap();
    let read = [
        a.rem.len(),
        a.quot.len(),
        a.prod.len(),
        a.cast.len(),
        a.quarter.len(),
        a.scaled.len(),
    ];
    assert_eq!(read, lens, "w={w} d={d} h={h} s={s}");
    assert_eq!(a.even.is_some(), h.is_multiple_of(2));
    b
}

#[test]
fn division_remainder_casts_and_helpers_read_alike() {
    // -7 % 2 = -1 (Kaitai's floored -7 % 2 would be 1), -7 / 2 = -3 (floored: -4);
    // |-7 * 3| = 21, at most 5; max(3 - 3, 0) % 4 = 0; 3 / 4 = 0; 1.75 * 2 = 3.5, 3.
    let a = arith_sample(-7, 2, 3, 1.75, [7, 5, 5, 0, 0, 3]);
    // 7 % -2 = 1, 7 / -2 = -3; |7 * 0| = 0; max(0 - 3, 0) = 0; 0 / 4 = 0; 0.5, 0;
    // h even.
    let b = arith_sample(7, -2, 0, 0.25, [9, 5, 0, 0, 0, 0]);
    // -7 % -2 = -1, -7 / -2 = 3; |-7 * 10| = 70, 5; (10 - 3) % 4 = 3; 10 / 4 = 2;
    // 2.5 * 2 = 5; h even.
    let c = arith_sample(-7, -2, 10, 2.5, [7, 11, 5, 3, 2, 5]);
    cross_check::<Arith>("arith", &[&a, &b, &c]);
    // A divisor of 0 is an error at the field the expression reads first, not a panic.
    let mut z = Vec::new();
    z.extend(5i16.to_le_bytes());
    z.extend([0, 0, 0]);
    z.extend(0f32.to_le_bytes());
    let e = decode_all::<Arith, _>(&z, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "w: 5 % 0, which overflows at 0x0 (expected `*w % i16::from(*d)` in range)"
    );
}

// ---- lists to an end element, to the end, and values of a declared size (issue 22) ----

/// A section: a kind byte, a length byte and that many bytes; kind 0xFF ends the list.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct ListSection {
    /// The kind (0xFF: the end).
    kind: u8,
    /// The number of data bytes.
    len: u8,
    /// The data.
    #[mmd(len = len)]
    data: Vec<u8>,
}

/// An item: an id, then the bytes a newer writer added.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct ListItem {
    /// The id.
    id: u16,
    /// The rest of the item's bytes.
    #[mmd(rest)]
    extra: Vec<u8>,
}

/// A region of `u16` values to its end.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct ListExt {
    /// The values.
    #[mmd(rest)]
    values: Vec<u16>,
}

/// The file: a sized region, sections to the end section, items of a declared size to
/// the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"LST",
    file(id = "lists", title = "Lists", application = "tests")
)]
struct Lists {
    /// Each item's size.
    item_size: u8,
    /// The region's size.
    ext_size: u8,
    /// The region.
    #[mmd(size = ext_size)]
    ext: ListExt,
    /// Sections up to the end section.
    #[mmd(until = |s| s.kind == 0xFF && s.len < 200)]
    sections: Vec<ListSection>,
    /// Items to the end of the file.
    #[mmd(rest, size = item_size)]
    items: Vec<ListItem>,
}

#[test]
fn lists_to_an_end_element_to_the_end_and_of_a_declared_size_read_alike() {
    let mut a = b"LST".to_vec();
    a.extend([3, 4, 1, 0, 2, 0]);
    a.extend([5, 2, 0xAA, 0xBB, 6, 0, 0xFF, 1, 0x7E]);
    a.extend([10, 0, 0x99, 11, 0, 0x98]);
    // No items, an empty region, only the end section.
    let mut b = b"LST".to_vec();
    b.extend([2, 0, 0xFF, 0]);
    // Items of exactly their id (no extra bytes).
    let mut c = b"LST".to_vec();
    c.extend([2, 2, 7, 0, 0xFF, 0, 1, 0, 2, 0, 3, 0]);
    let ksy = render_ksy(&Spec::of::<Lists>().unwrap()).unwrap();
    assert!(ksy.contains("repeat: until"), "{ksy}");
    assert!(
        ksy.contains("repeat-until: '(_.kind == 255) and (_.len < 200)'"),
        "{ksy}"
    );
    assert!(ksy.contains("repeat: eos"), "{ksy}");
    assert!(ksy.contains("size: item_size"), "{ksy}");
    assert!(ksy.contains("size: ext_size"), "{ksy}");
    cross_check::<Lists>("lists", &[&a, &b, &c]);
}

/// A chunk whose kind picks its layout; kinds no variant lists are kept (issue 29 item 3).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u8, name = "chunk kind")]
enum KeptChunk {
    /// A number.
    #[mmd(tag = 1)]
    Num {
        /// The number.
        value: u16,
    },
    /// A lone mark with no body.
    #[mmd(tag = 2)]
    Mark,
    /// Any other kind: a size byte and that many bytes, kept.
    #[mmd(default)]
    Other {
        /// The kind as read.
        kind: u8,
        /// How many bytes follow.
        size: u8,
        /// The bytes.
        #[mmd(len = size)]
        body: Vec<u8>,
    },
}

/// Chunks to the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"CHK",
    file(id = "kept_chunks", title = "Kept chunks", application = "tests")
)]
struct KeptChunks {
    /// The chunks.
    #[mmd(rest)]
    chunks: Vec<KeptChunk>,
}

#[test]
fn a_default_variant_keeps_unknown_tags_alike() {
    let mut a = b"CHK".to_vec();
    a.extend([1, 2, 3, 7, 2, 0xAA, 0xBB, 2, 0, 0, 255, 1, 9]);
    let b = b"CHK".to_vec();
    let ksy = render_ksy(&Spec::of::<KeptChunks>().unwrap()).unwrap();
    assert!(
        ksy.contains("if: 'not (chunk_kind == chunk_kind::num or chunk_kind == chunk_kind::mark)'"),
        "{ksy}"
    );
    assert!(
        !ksy.contains("in-enum"),
        "unknown kinds are not an error: {ksy}"
    );
    cross_check::<KeptChunks>("kept_chunks", &[&a, &b]);
}

/// A RIFF-like chunk whose id is a FourCC, unknown ids kept.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "chunk id")]
enum FourCcChunk {
    /// A number.
    #[mmd(tag = b"fmt ")]
    Format(u16),
    /// Any other id: a size byte and that many bytes.
    #[mmd(default)]
    Other {
        /// The id as read.
        id: u32,
        /// How many bytes follow.
        size: u8,
        /// The bytes.
        #[mmd(len = size)]
        body: Vec<u8>,
    },
}

/// FourCC chunks to the end.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "fourcc_chunks", title = "FourCC chunks", application = "tests"))]
struct FourCcChunks {
    /// The chunks in file order.
    #[mmd(rest)]
    chunks: Vec<FourCcChunk>,
}

#[test]
fn fourcc_tags_read_alike_and_their_text_is_the_doc() {
    let mut a = b"fmt ".to_vec(); // a listed id
    a.extend([1, 2]);
    a.extend([b'a', 0, b'"', b'\\', 1, 9]); // an unknown id with escapes, 1 byte
    let ksy = render_ksy(&Spec::of::<FourCcChunks>().unwrap()).unwrap();
    assert!(ksy.contains("FourCC \"fmt \"."), "{ksy}");
    cross_check::<FourCcChunks>("fourcc_chunks", &[&a, b"fmt \x07\x00"]);
}

/// Dimensions read at one width or another by a header's size (a BMP's core header has
/// `u16` ones, the others `i32`), then bytes of their area.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "either_width", title = "Either width", application = "tests"))]
struct EitherWidth {
    /// 12 for the small header.
    header_size: u8,
    /// The width in the small header.
    #[mmd(if = *header_size == 12)]
    small: Option<u16>,
    /// The width in the others.
    #[mmd(if = *header_size != 12)]
    large: Option<i32>,
    /// As many bytes as the width says.
    #[mmd(len = i64::from(small.unwrap_or(0)) + i64::from(large.unwrap_or(0)))]
    bytes: Vec<u8>,
}

#[test]
fn an_absent_field_read_with_a_default_reads_alike() {
    let a = [12u8, 2, 0, 0xA, 0xB];
    let b = [40u8, 3, 0, 0, 0, 1, 2, 3];
    let ksy = render_ksy(&Spec::of::<EitherWidth>().unwrap()).unwrap();
    assert!(ksy.contains("(header_size == 12 ? small : 0)"), "{ksy}");
    cross_check::<EitherWidth>("either_width", &[&a, &b]);
}

/// The stride of the rows below, from the header.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(width: u8))]
struct Stride {
    /// The bytes of a row: the width rounded up to 2.
    #[mmd(from = (*width + 1) / 2 * 2)]
    stride: u8,
}

/// A row of `stride` bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = Stride)]
struct StrideRow {
    /// The row's bytes.
    #[mmd(len = ctx.stride)]
    bytes: Vec<u8>,
}

/// Rows placed by a root context member (the stride) from an offset.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = (), file(id = "strided", title = "Strided rows", application = "tests"))]
struct Strided {
    /// The width of a row.
    #[mmd(context = Stride(width))]
    width: u8,
    /// The number of rows.
    rows: u8,
    /// Where the rows start.
    offset: u8,
    /// The rows, each at `offset + index * stride`.
    #[mmd(
        len = *rows,
        pos = u32::from(*offset) + _index as u32 * u32::from(ctx.stride),
        size = ctx.stride
    )]
    data: Vec<StrideRow>,
    /// The bytes no row holds.
    #[mmd(gaps)]
    gaps: Vec<Vec<u8>>,
}

#[test]
fn a_positioned_list_placed_by_a_context_member_reads_alike() {
    // Width 3 (stride 4), 2 rows at 4: a junk byte at 3.
    let a = [3u8, 2, 4, 0xee, 1, 2, 3, 0, 4, 5, 6, 0];
    let ksy = render_ksy(&Spec::of::<Strided>().unwrap()).unwrap();
    assert!(
        ksy.contains("_parent.stride"),
        "the helper type reaches its parent's: {ksy}"
    );
    cross_check::<Strided>("strided", &[&a]);
}

// ---- positioned fields and the gaps between them (issue 29 item 2) ----

/// A directory entry: an image's size and absolute offset.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct PosEntry {
    /// A byte of the entry's own.
    width: u8,
    /// The image's size.
    size: u32,
    /// The image's offset from the start of the file.
    offset: u32,
}

/// An image: a kind byte, then its bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct PosImage {
    /// The kind.
    kind: u8,
    /// The rest of it.
    #[mmd(rest)]
    data: Vec<u8>,
}

/// A profile: its bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct PosProfile {
    /// Every byte of it.
    #[mmd(rest)]
    bytes: Vec<u8>,
}

/// A header whose profile offset counts from its first byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct PosInfo {
    /// The profile's offset from this header's first byte.
    profile_offset: u32,
    /// The profile's size (0: none).
    profile_size: u32,
}

/// An ICO-like file: images where the directory says, in any order, with junk between;
/// and a profile at an offset from the info header.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"PS",
    file(id = "positions", title = "Positions", application = "tests")
)]
struct Positions {
    /// The number of images.
    count: u8,
    /// The info header.
    info: PosInfo,
    /// The directory.
    #[mmd(len = count)]
    entries: Vec<PosEntry>,
    /// The images.
    #[mmd(len = count, pos = entries[_index].offset, size = entries[_index].size)]
    images: Vec<PosImage>,
    /// The profile, when there is one.
    #[mmd(
        if = info.profile_size > 0,
        pos = info.profile_offset,
        pos_base = info,
        size = info.profile_size
    )]
    profile: Option<PosProfile>,
    /// The bytes no other field holds.
    #[mmd(gaps)]
    gaps: Vec<Vec<u8>>,
}

#[test]
fn positioned_fields_and_their_gaps_read_alike() {
    // 2 magic + 1 count + 8 info + 2 × 9 entries = 29 bytes of sequence.
    let mut a = b"PS".to_vec();
    a.push(2);
    a.extend(9u32.to_le_bytes()); // the profile at info (3) + 9 = 12: the first entry's size
    a.extend(2u32.to_le_bytes());
    a.push(1);
    a.extend(3u32.to_le_bytes());
    a.extend(36u32.to_le_bytes());
    a.push(2);
    a.extend(2u32.to_le_bytes());
    a.extend(31u32.to_le_bytes());
    a.extend([0xEE, 0xEE]); // 29-30 junk
    a.extend([5, 0xB1]); // 31-32 image 1
    a.extend([0xDD, 0xDD, 0xDD]); // 33-35 junk
    a.extend([4, 0xA1, 0xA2]); // 36-38 image 0
    a.push(0xCC); // trailing junk
                  // No profile, no images, trailing bytes only.
    let mut b = b"PS".to_vec();
    b.push(0);
    b.extend([0; 8]);
    b.extend([1, 2, 3]);
    // Back to back to the end: no gaps.
    let mut c = b"PS".to_vec();
    c.push(1);
    c.extend(0u32.to_le_bytes());
    c.extend(0u32.to_le_bytes());
    c.push(9);
    c.extend(2u32.to_le_bytes());
    c.extend(20u32.to_le_bytes());
    c.extend([7, 8]);
    for s in [&a, &b, &c] {
        let v: Positions = decode_all(s, &()).unwrap();
        assert_eq!(&mmd_formats::file::encode_all(&v, &()).unwrap(), s);
    }
    let v: Positions = decode_all(&a, &()).unwrap();
    assert_eq!(v.images[0].kind, 4);
    assert_eq!(v.profile.as_ref().unwrap().bytes, vec![3, 0]);
    assert_eq!(v.gaps.len(), 3);
    cross_check::<Positions>("positions", &[&a, &b, &c]);
}

// ---- byte order (issue 29 item 5) ----

/// A record that keeps the file's little-endian order inside a big-endian one.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct LePair {
    /// A little-endian word.
    w: u16,
}

/// A big-endian record: numbers, an array, counted lists of numbers and of records.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    endian = big,
    file(id = "big_rec", title = "Big-endian record", application = "tests")
)]
struct BigRec {
    /// 2 bytes.
    a: u16,
    /// 4 bytes.
    b: u32,
    /// Signed.
    c: i32,
    /// A float.
    d: f32,
    /// 8 bytes.
    e: u64,
    /// Its own order: little-endian.
    #[mmd(endian = little)]
    f: u16,
    /// An array of big-endian words.
    g: [i16; 2],
    /// A big-endian count and values.
    #[mmd(count = u16)]
    list: Vec<u32>,
    /// A big-endian count of little-endian records.
    #[mmd(count = u16)]
    pairs: Vec<LePair>,
    /// A double.
    h: f64,
    /// One byte.
    tail: u8,
}

/// A TIFF-like header: "MM" makes the numbers after it big-endian, "II" little-endian.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    endian = if byte_order.starts_with(b"MM") { big } else { little },
    file(id = "tiffish", title = "TIFF-like header", application = "tests")
)]
struct Tiffish {
    /// "II" or "MM".
    byte_order: [u8; 2],
    /// 42.
    magic: u16,
    /// An offset.
    offset: u32,
    /// Counted values.
    #[mmd(count = u16)]
    values: Vec<u32>,
    /// Three values.
    triple: [i16; 3],
    /// A scale.
    scale: f32,
    /// A signed difference.
    delta: i16,
    /// Always big-endian.
    #[mmd(endian = big)]
    fixed: u16,
    /// Its own order, chosen by `delta`.
    #[mmd(endian = if *delta < 0 { little } else { big })]
    last: u32,
    /// Values to the end, in the header's order.
    #[mmd(rest)]
    more: Vec<u16>,
}

#[test]
fn big_endian_fields_and_a_header_chosen_order_read_alike() {
    let mut a = vec![0x12, 0x34, 0xDE, 0xAD, 0xBE, 0xEF, 0xFF, 0xFF, 0xFF, 0xFE];
    a.extend([
        0x3F, 0xC0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12, 0, 7, 0xFF, 0xF9,
    ]);
    a.extend([0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 2]);
    a.extend([0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18, 0x99]);
    let ksy = render_ksy(&Spec::of::<BigRec>().unwrap()).unwrap();
    for t in [
        "type: u2be",
        "type: u4be",
        "type: s4be",
        "type: f4be",
        "type: u8be",
    ] {
        assert!(ksy.contains(t), "{t}: {ksy}");
    }
    assert!(ksy.contains("type: s2be\n    repeat: expr"), "{ksy}");
    cross_check::<BigRec>("big_rec", &[&a]);

    let mut mm = b"MM".to_vec();
    mm.extend([0, 42, 0, 0, 1, 8, 0, 2, 0, 0, 0, 1, 1, 2, 3, 4]);
    mm.extend([
        0, 1, 0xFF, 0xFE, 0x7F, 0xFF, 0xC0, 0, 0, 0, 0xFE, 0xD4, 0xAB, 0xCD,
    ]);
    mm.extend([0x44, 0x33, 0x22, 0x11, 0x01, 0x02, 0x03, 0x04]);
    let mut ii = b"II".to_vec();
    ii.extend([42, 0, 8, 1, 0, 0, 2, 0, 1, 0, 0, 0, 4, 3, 2, 1]);
    ii.extend([
        1, 0, 0xFE, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0xC0, 0xD4, 0xFE, 0xAB, 0xCD,
    ]);
    ii.extend([0x44, 0x33, 0x22, 0x11, 0x02, 0x01, 0x04, 0x03]);
    // delta positive: `last` big-endian; the header little-endian.
    let mut pos = ii.clone();
    pos[26] = 0x2C;
    pos[27] = 0x01;
    let ksy = render_ksy(&Spec::of::<Tiffish>().unwrap()).unwrap();
    assert!(ksy.contains("switch-on: "), "{ksy}");
    assert!(ksy.contains("'true': u4be"), "{ksy}");
    assert!(ksy.contains("'false': u4le"), "{ksy}");
    let (m, i): (Tiffish, Tiffish) = (decode_all(&mm, &()).unwrap(), decode_all(&ii, &()).unwrap());
    assert_eq!(
        Tiffish {
            byte_order: *b"MM",
            ..i
        },
        m
    );
    cross_check::<Tiffish>("tiffish", &[&mm, &ii, &pos]);
}

// ---- NUL-terminated text: a C string, and text padded within a region ----

/// An entry: a tag, a size, the text padded within it, a pad byte after an odd size.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct InfoEntry {
    /// The tag.
    id: [u8; 4],
    /// The value's size.
    size: u32,
    /// The value: text up to its NUL, the bytes after it kept.
    #[mmd(size = *size)]
    value: mmd_formats::text::PaddedText<mmd_formats::text::Latin1>,
    /// A pad byte after an odd size.
    #[mmd(if = *size % 2 == 1)]
    pad: Option<u8>,
}

/// Two C strings, then entries to the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "infos", title = "Infos", application = "tests"))]
struct Infos {
    /// A UTF-8 title.
    title: mmd_formats::text::NulText,
    /// A Shift_JIS name.
    name: mmd_formats::text::NulText<mmd_formats::text::Sjis>,
    /// The entries.
    #[mmd(rest)]
    entries: Vec<InfoEntry>,
}

#[test]
fn nul_terminated_and_padded_text_read_alike() {
    let mut a = b"H\xc3\xa9\0".to_vec(); // "Hé"
    a.extend(b"\x96\xbc\x91\x4f\0"); // "名前" in Shift_JIS
    a.extend(b"IART\x06\0\0\0Caf\xe9\0\xaa"); // "Café", one byte kept after the NUL
    a.extend(b"INAM\x05\0\0\0abcd\0\0"); // odd size: a pad byte
    a.extend(b"ICMT\x03\0\0\0xyz\0"); // no NUL in the region: the whole region is the text
    let b = b"\0\0".to_vec();
    cross_check::<Infos>("infos", &[&a, &b]);
    let infos: Infos = decode_all(&a, &()).unwrap();
    assert_eq!(infos.title.text(), "Hé");
    assert_eq!(infos.name.text(), "名前");
    let texts: Vec<String> = infos
        .entries
        .iter()
        .map(|e| e.value.text().into())
        .collect();
    assert_eq!(texts, ["Café", "abcd", "xyz"]);
    assert_eq!(infos.entries[0].value.after(), [0xaa]);
    let ksy = render_ksy(&Spec::of::<Infos>().unwrap()).unwrap();
    assert!(ksy.contains("terminator: 0"), "{ksy}");
    assert!(
        !ksy.contains("size-eos"),
        "a padded text with a size takes `size:`: {ksy}"
    );
}

// ---- hand-made field types that describe themselves (mmd_formats::handmade's example) ----

mod handmade {
    use mmd_formats::error::Result;
    use mmd_formats::json::{FromJson, Json, JsonError};
    use mmd_formats::layout::{Describe, Shape, Size};
    use mmd_formats::walk::{Visitor, Walk};
    use mmd_formats::{Decode, Encode, Error, Input, Mmd, Output};

    /// A colour packed into 16 bits.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Rgb565(pub u16);

    impl<C: ?Sized> Decode<C> for Rgb565 {
        fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
            u16::decode(input, ctx).map(Rgb565)
        }
    }
    impl<C: ?Sized> Encode<C> for Rgb565 {
        fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
            self.0.encode(out, ctx)
        }
    }
    impl Describe for Rgb565 {
        const SIZE: Size = Size::Fixed(2);
        const MIN_SIZE: u64 = 2;
        fn shape() -> Shape {
            u16::shape()
        }
    }
    impl Walk for Rgb565 {
        fn walk(&self, v: &mut dyn Visitor) {
            self.0.walk(v)
        }
    }
    impl<C: ?Sized> FromJson<C> for Rgb565 {
        fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
            u16::from_json(json, ctx).map(Rgb565)
        }
    }

    /// The bytes of `Frames`: a count, then each frame's distance from the one before.
    #[derive(Mmd, Debug, Clone, PartialEq)]
    pub struct FrameDeltas {
        /// Frames after the one before.
        #[mmd(count = u16)]
        pub deltas: Vec<u16>,
    }

    /// Key frame numbers, stored as deltas.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Frames(pub Vec<u32>);

    impl FrameDeltas {
        fn frames(&self) -> Frames {
            let mut at = 0u32;
            Frames(
                self.deltas
                    .iter()
                    .map(|d| {
                        at += u32::from(*d);
                        at
                    })
                    .collect(),
            )
        }
    }
    impl Frames {
        fn deltas(&self) -> Option<FrameDeltas> {
            let mut before = 0u32;
            let mut deltas = Vec::new();
            for f in &self.0 {
                deltas.push(u16::try_from(f.checked_sub(before)?).ok()?);
                before = *f;
            }
            Some(FrameDeltas { deltas })
        }
    }
    impl<C: ?Sized> Decode<C> for Frames {
        fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
            FrameDeltas::decode(input, ctx).map(|d| d.frames())
        }
    }
    impl<C: ?Sized> Encode<C> for Frames {
        fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
            let d = self.deltas().ok_or_else(|| {
                Error::inconsistent(out.position(), "frames in order", "frames out of order")
            })?;
            d.encode(out, ctx)
        }
    }
    impl Describe for Frames {
        const SIZE: Size = FrameDeltas::SIZE;
        const MIN_SIZE: u64 = FrameDeltas::MIN_SIZE;
        fn shape() -> Shape {
            FrameDeltas::shape()
        }
    }
    impl Walk for Frames {
        fn walk(&self, v: &mut dyn Visitor) {
            self.deltas()
                .unwrap_or(FrameDeltas { deltas: Vec::new() })
                .walk(v)
        }
    }
    impl<C: ?Sized> FromJson<C> for Frames {
        fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
            FrameDeltas::from_json(json, ctx).map(|d| d.frames())
        }
    }

    /// A codec of its own that does not describe itself.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Blob(pub u8);
    impl<C: ?Sized> Decode<C> for Blob {
        fn decode<I: Input + ?Sized>(input: &mut I, ctx: &C) -> Result<Self> {
            u8::decode(input, ctx).map(Blob)
        }
    }
    impl<C: ?Sized> Encode<C> for Blob {
        fn encode<O: Output + ?Sized>(&self, out: &mut O, ctx: &C) -> Result<()> {
            self.0.encode(out, ctx)
        }
    }
    impl Describe for Blob {
        const SIZE: Size = Size::Fixed(1);
        const MIN_SIZE: u64 = 1;
    }
    impl Walk for Blob {
        fn walk(&self, v: &mut dyn Visitor) {
            self.0.walk(v)
        }
    }
    impl<C: ?Sized> FromJson<C> for Blob {
        fn from_json(json: &Json<'_>, ctx: &C) -> std::result::Result<Self, JsonError> {
            u8::from_json(json, ctx).map(Blob)
        }
    }

    /// A palette and the frames it changes at.
    #[derive(Mmd, Debug, Clone, PartialEq)]
    #[mmd(file(id = "palette", title = "Palette", application = "tests"))]
    pub struct Palette {
        /// The colours.
        #[mmd(count = u8)]
        pub colours: Vec<Rgb565>,
        /// When it changes.
        pub frames: Frames,
    }

    /// A record holding a type that does not describe itself.
    #[derive(Mmd, Debug, Clone, PartialEq)]
    #[mmd(file(id = "blobbed", title = "Blobbed", application = "tests"))]
    pub struct Blobbed {
        /// The blob.
        pub blob: Blob,
    }
}

#[test]
fn hand_made_types_that_describe_themselves_are_rendered_and_read_alike() {
    let bytes = [2, 0x1f, 0xf8, 0xe0, 0x07, 3, 0, 10, 0, 5, 0, 0, 0];
    cross_check::<handmade::Palette>("palette", &[&bytes, &[0, 0, 0]]);
    let spec = Spec::of::<handmade::Palette>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    // The twin's fields are stated below the hand-made type.
    assert!(md.contains("## FrameDeltas"), "{md}");
    assert!(md.contains("`deltas`"), "{md}");
    let schema = mmd_spec::render_schema(&spec);
    assert!(schema.contains("\"deltas\""), "{schema}");
}

#[test]
fn a_hand_made_type_that_does_not_describe_itself_is_named_by_the_ksy_renderer() {
    let spec = Spec::of::<handmade::Blobbed>().unwrap();
    let e = render_ksy(&spec).unwrap_err().to_string();
    assert!(e.contains("blob"), "{e}");
    assert!(e.contains("does not describe"), "{e}");
    // The reference still names the field and its type.
    let md = mmd_spec::render_markdown(&spec);
    assert!(md.contains("`blob`") && md.contains("Blob"), "{md}");
}

// ---- fields of enclosing records (`parent.field`, Kaitai's `_parent`) ----

/// A file whose version decides a field of each section.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"NS",
    file(id = "nest", title = "Nested", application = "none")
)]
struct Nest {
    /// 2 adds a flag byte to each section.
    version: u8,
    /// The number of sections.
    section_count: u8,
    /// The sections.
    #[mmd(len = section_count, with_parent)]
    sections: Vec<NestSection>,
}

/// A section: its minor version, the size and number of its items, then the items.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(parent = Nest)]
struct NestSection {
    /// 1 adds a weight to each item.
    minor: u8,
    /// The size of each item.
    item_size: u8,
    /// The number of items.
    item_count: u8,
    /// From file version 2.
    #[mmd(if = *parent.version >= 2)]
    flags: Option<u8>,
    /// `item_size` bytes each.
    #[mmd(len = item_count, size = item_size, with_parent)]
    items: Vec<NestItem>,
    /// One value per item.
    #[mmd(with_parent)]
    row: NestRow,
}

/// An item: a weight from the section's minor version 1, a byte per file version.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(parent = NestSection)]
struct NestItem {
    /// The id.
    id: u16,
    /// From minor version 1.
    #[mmd(if = *parent.minor >= 1)]
    weight: Option<u16>,
    /// One byte per file version, two levels up.
    #[mmd(len = parent.parent.version)]
    marks: Vec<u8>,
    /// What a newer writer added.
    #[mmd(rest)]
    extra: Vec<u8>,
}

/// One value per item of the section.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(parent = NestSection)]
struct NestRow {
    /// The values.
    #[mmd(len = parent.item_count)]
    values: Vec<u16>,
}

#[test]
fn fields_of_enclosing_records_read_alike() {
    let mut v2 = b"NS".to_vec();
    v2.extend([2, 2]);
    v2.extend([1, 7, 2, 0x5A]);
    v2.extend([0x0A, 0x00, 0x34, 0x12, 0xE1, 0xE2, 0x99]);
    v2.extend([0x0B, 0x00, 0x01, 0x00, 0xE3, 0xE4, 0x98]);
    v2.extend([0x01, 0x00, 0x02, 0x00]);
    v2.extend([0, 4, 1, 0x00]);
    v2.extend([0x0C, 0x00, 0xE5, 0xE6]);
    v2.extend([0x03, 0x00]);
    // Version 1: no flag byte, one mark per item; a section of no items.
    let mut v1 = b"NS".to_vec();
    v1.extend([1, 2]);
    v1.extend([1, 5, 1]);
    v1.extend([0x0A, 0x00, 0x34, 0x12, 0xE1]);
    v1.extend([0x07, 0x00]);
    v1.extend([0, 9, 0]);
    let ksy = render_ksy(&Spec::of::<Nest>().unwrap()).unwrap();
    assert!(ksy.contains("_parent.version >= 2"), "{ksy}");
    assert!(ksy.contains("_parent.minor >= 1"), "{ksy}");
    assert!(ksy.contains("_parent._parent.version"), "{ksy}");
    assert!(ksy.contains("_parent.item_count"), "{ksy}");
    cross_check::<Nest>("nest", &[&v2, &v1]);
}
