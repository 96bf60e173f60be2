//! What the runtime promises about errors, paths, input and the leaf types, stated where
//! a mutation test (`cargo mutants`, see `tests/MUTANTS.md`) showed that no other test
//! held the promise: each test names the rule it checks (the crate's documentation, the
//! design's "errors say where", or the seed whose layout it uses).

use mmd_formats::error::show_bytes;
use mmd_formats::file::decode_all;
use mmd_formats::path::{Path, Segment};
use mmd_formats::pmx::{Header, Pmx, PmxContext};
use mmd_formats::vmd::Vmd;
use mmd_formats::{
    BoneIndex, DeclaredContext, Error, ErrorKind, Mmd, MmdContext, TextEncoding, VertexIndex,
};
use std::error::Error as _;

// ---------------------------------------------------------------------------------------
// Paths (`path.rs`): one way to write a path, and the segments as given
// ---------------------------------------------------------------------------------------

#[test]
fn a_path_is_written_with_dots_and_brackets() {
    // The form every error, span and walk shares: `bones[12].ik.links[1].limit_min`, with
    // `.count` and `.tag` for the count and tag that precede a value.
    let path = Path(vec![
        Segment::Field("bones"),
        Segment::Index(12),
        Segment::Field("ik"),
        Segment::Field("links"),
        Segment::Count,
    ]);
    assert_eq!(path.to_string(), "bones[12].ik.links.count");
    assert_eq!(
        Path(vec![Segment::Index(3), Segment::Tag]).to_string(),
        "[3].tag"
    );
    assert_eq!(Path::default().to_string(), "");
    assert_eq!(
        path.segments(),
        &[
            Segment::Field("bones"),
            Segment::Index(12),
            Segment::Field("ik"),
            Segment::Field("links"),
            Segment::Count,
        ]
    );
}

// ---------------------------------------------------------------------------------------
// Errors (`error.rs`): what they show, what they chain to, where a cut falls
// ---------------------------------------------------------------------------------------

#[test]
fn signature_bytes_are_shown_as_ascii_with_escapes() {
    // Messages show a signature as quoted ASCII; a quote, a backslash and every byte
    // outside 0x20..0x7e are `\xNN`, so the text cannot be misread.
    assert_eq!(
        show_bytes(b"P\"\\ ~\x00\x1f\x7f\xff"),
        r#""P\x22\x5c ~\x00\x1f\x7f\xff""#
    );
    // Through a real read: a PMX whose signature is `PM"\` (seed 000: `PMX ` at 0).
    let mut b = b"PM\"\\".to_vec();
    b.extend([0u8; 40]);
    let e = Pmx::from_bytes(&b).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"header.magic: magic "PM\x22\x5c" at 0x0 (expected magic "PMX ")"#
    );
}

#[test]
fn an_error_debugs_as_its_message() {
    let e = Error::invalid(0x10, "0 or 1", "flag 7").in_field("toon");
    assert_eq!(
        format!("{e:?}"),
        "Error(toon: flag 7 at 0x10 (expected 0 or 1))"
    );
}

/// A path under the system's temporary folder that does not exist.
fn missing_file(name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("mmd-mutants-missing-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn a_missing_file_error_names_the_path_and_chains_to_the_system_error() {
    // `Error::io`: the message names the path and what failed, with no offset; the
    // source chain ends at the operating system's error, with its kind.
    let path = missing_file("model.pmx");
    let e = Pmx::read_path(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("cannot read {}: the file does not exist", path.display())
    );
    assert!(matches!(e.kind(), ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound));
    let io = e.source().expect("an I/O error has a source");
    let io = io
        .downcast_ref::<std::io::Error>()
        .expect("the source is the I/O error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    let os = io.source().expect("it chains to the system's error");
    let os = os
        .downcast_ref::<std::io::Error>()
        .expect("the system's error is an I/O error");
    assert_eq!(os.kind(), std::io::ErrorKind::NotFound);
    assert_eq!(os.raw_os_error(), Some(2), "ENOENT from the system");
}

#[test]
fn an_error_from_the_data_has_no_source() {
    let e = Pmx::from_bytes(b"PMX?").unwrap_err();
    assert!(e.source().is_none(), "{e}");
}

#[test]
fn a_plain_truncation_names_where_the_input_ends() {
    // A VMD whose bone count (at 0x32, after the 30-byte signature and 20-byte model
    // name of seed 004) is cut after 2 of its 4 bytes: the value the input ends inside
    // is the count of `bone_keys`, and the input ends at 0x34.
    let mut b = b"Vocaloid Motion Data 0002\0\0\0\0\0".to_vec();
    b.extend([0u8; 20]);
    b.extend([1, 0]);
    let e = Vmd::from_bytes(&b).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::Truncated {
            needed: 4,
            end: 0x34
        }
    ));
    assert_eq!(e.cut_path().as_deref(), Some("bone_keys"));
    assert_eq!(e.input_end(), Some(0x34));
}

#[test]
fn binrw_errors_keep_the_offset_binrw_reports() {
    // `Error::from_binrw`: converting back from binrw keeps the position of a bad
    // magic, a failed assertion, an enum that matched no variant.
    let magic = binrw::Error::BadMagic {
        pos: 7,
        found: Box::new(0u8),
    };
    assert_eq!(Error::from_binrw(magic).offset(), 7);
    let assert = binrw::Error::AssertFail {
        pos: 9,
        message: "nope".into(),
    };
    assert_eq!(Error::from_binrw(assert).offset(), 9);
    assert_eq!(
        Error::from_binrw(binrw::Error::NoVariantMatch { pos: 11 }).offset(),
        11
    );
}

// ---------------------------------------------------------------------------------------
// Context faults (`error.rs`, `ContextFault`)
// ---------------------------------------------------------------------------------------

#[test]
fn a_context_fault_names_the_member_and_says_what_was_found() {
    // Seed 000: globals byte 5 is the bone index width, 1, 2 or 4.
    let mut header = Header::new(&PmxContext::new(2.0, TextEncoding::Utf8, 0, [1; 6]));
    header.globals[5] = 3;
    let fault = PmxContext::compute((&header,)).unwrap_err();
    assert_eq!(fault.member(), "bone index width");
    assert_eq!(fault.param(), 0);
    assert_eq!(
        fault.place(),
        &[Segment::Field("globals"), Segment::Index(5)]
    );
    assert_eq!(
        fault.to_string(),
        "bone index width 3 (expected a bone index width of 1, 2 or 4)"
    );
}

/// Two parameters: the width is read from the second.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct First {
    /// Anything.
    pub a: u8,
}

/// The second parameter.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Second {
    /// A width of 1, 2 or 4.
    pub width: u8,
}

/// A context computed from two values.
#[derive(MmdContext, Debug, Clone, Copy)]
#[mmd(from(first: First, second: Second))]
pub struct TwoParams {
    /// From the first.
    #[mmd(from = first.a)]
    pub a: u8,
    /// From the second.
    #[mmd(from = second.width, valid = [1, 2, 4], name = "node width")]
    pub width: u8,
}

#[test]
fn a_context_fault_says_which_parameter_the_value_came_from() {
    let fault = TwoParams::compute((&First { a: 0 }, &Second { width: 3 })).unwrap_err();
    assert_eq!(
        fault.param(),
        1,
        "the width is read from the second parameter"
    );
    assert_eq!(fault.member(), "node width");
    assert_eq!(fault.place(), &[Segment::Field("width")]);
}

// ---------------------------------------------------------------------------------------
// Reading runs (`codec.rs`): an early end names the value where it falls
// ---------------------------------------------------------------------------------------

/// A byte, then three floats (a position, as in every format's records).
#[derive(Mmd, Debug, PartialEq)]
struct Positioned {
    tag: u8,
    pos: [f32; 3],
}

/// A byte, then four raw bytes.
#[derive(Mmd, Debug, PartialEq)]
struct Raw4 {
    tag: u8,
    raw: [u8; 4],
}

#[test]
fn an_array_cut_short_fails_at_the_element_where_the_input_ends() {
    // 1 tag byte, pos[0] and pos[1] whole (0x1..0x9), 2 bytes of pos[2]: the error is
    // at pos[2], 0x9, which needs 4 bytes; the input ends at 0xb.
    let b = [1, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0];
    let e = decode_all::<Positioned, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "pos[2]: expected 4 bytes at 0x9, file ends at 0xb"
    );
    assert_eq!(e.cut_path().as_deref(), Some("pos[2]"));
    // Whole, the same bytes read.
    let mut whole = b.to_vec();
    whole.extend([0x40, 0x40]);
    let v: Positioned = decode_all(&whole, &()).unwrap();
    assert_eq!(v.pos, [1.0, 2.0, 3.0]);
}

#[test]
fn a_byte_array_cut_short_fails_at_the_byte_where_the_input_ends() {
    // raw[0] and raw[1] are there (0x1, 0x2); raw[2] at 0x3 is not.
    let e = decode_all::<Raw4, _>(&[9, 1, 2], &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "raw[2]: expected 1 byte at 0x3, file ends at 0x3"
    );
    let v: Raw4 = decode_all(&[9, 1, 2, 3, 4], &()).unwrap();
    assert_eq!(v.raw, [1, 2, 3, 4]);
}

#[test]
fn a_vmd_cut_inside_its_signature_names_the_byte_where_it_ends() {
    // Seed 004: the signature is 30 bytes at offset 0. Cut after 10 of them, the error
    // is at signature byte 10 (offset 0xa), and the file is a cut VMD, not a bad one.
    let e = Vmd::from_bytes(b"Vocaloid M").unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.offset(), 10, "{e}");
    assert_eq!(e.path_string(), "header.signature[10]", "{e}");
}

// ---------------------------------------------------------------------------------------
// Indices (`index.rs`): how they show
// ---------------------------------------------------------------------------------------

#[test]
fn indices_debug_as_kind_and_raw_value() {
    assert_eq!(format!("{:?}", BoneIndex::from_raw(-1)), "bone#-1");
    assert_eq!(format!("{:?}", BoneIndex::from_raw(12)), "bone#12");
    assert_eq!(
        format!("{:?}", VertexIndex::from_raw(65535)),
        "vertex#65535"
    );
}

// ---------------------------------------------------------------------------------------
// Input (`io.rs`)
// ---------------------------------------------------------------------------------------

#[test]
fn a_slice_input_hands_back_the_bytes_not_yet_read() {
    use mmd_formats::{Decode, Input, SliceInput};
    let bytes = [7u8, 1, 0, 0, 0, 0xaa];
    let mut input = SliceInput::new(&bytes);
    assert_eq!(input.rest(), &bytes);
    assert_eq!(u8::decode(&mut input, &()).unwrap(), 7);
    assert_eq!(u32::decode(&mut input, &()).unwrap(), 1);
    assert_eq!(input.rest(), &[0xaa]);
    assert_eq!(input.position(), 5);
    assert_eq!(input.remaining(), 1);
}

/// A stream that holds `data` and then fails with an error that is not an early end.
struct Failing {
    data: std::io::Cursor<Vec<u8>>,
}

impl std::io::Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.data.read(buf)? {
            0 => Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "the device went away",
            )),
            n => Ok(n),
        }
    }
}

impl std::io::Seek for Failing {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        // Claims 8 bytes, holds 2.
        match pos {
            std::io::SeekFrom::End(d) => Ok((8 + d) as u64),
            other => self.data.seek(other),
        }
    }
}

#[test]
fn a_stream_failure_is_an_io_error_at_its_offset_not_a_cut_file() {
    // `ErrorKind::Io`: an error from the underlying reader other than an early end.
    use mmd_formats::{Decode, IoInput};
    use std::io::Read as _;
    let mut stream = Failing {
        data: std::io::Cursor::new(vec![1, 2]),
    };
    let mut input = IoInput::new(&mut stream).unwrap();
    assert_eq!(u8::decode(&mut input, &()).unwrap(), 1);
    let e = u32::decode(&mut input, &()).unwrap_err();
    assert!(!e.is_truncated(), "{e}");
    assert_eq!(e.offset(), 1, "{e}");
    match e.kind() {
        ErrorKind::Io(io) => assert_eq!(io.kind(), std::io::ErrorKind::PermissionDenied),
        other => panic!("expected an I/O error, got {other:?}"),
    }
    // The stream itself fails the same way when read directly.
    let mut direct = Failing {
        data: std::io::Cursor::new(vec![]),
    };
    assert!(direct.read(&mut [0u8; 1]).is_err());
}

// ---------------------------------------------------------------------------------------
// Text (`text.rs`, `kinds.rs`)
// ---------------------------------------------------------------------------------------

#[test]
fn a_header_byte_names_its_text_encoding() {
    // Seed 000: globals byte 0 is the encoding, 0 = UTF-16LE, 1 = UTF-8.
    assert_eq!(TextEncoding::from(0u8), TextEncoding::Utf16Le);
    assert_eq!(TextEncoding::from(1u8), TextEncoding::Utf8);
    assert_eq!(TextEncoding::from(7u8), TextEncoding::Unknown(7));
    assert_eq!(TextEncoding::Unknown(7).to_byte(), 7);
}

#[test]
fn only_the_empty_string_is_empty() {
    use mmd_formats::PmxText;
    assert!(PmxText::new("", TextEncoding::Utf16Le).is_empty());
    assert!(!PmxText::new("a", TextEncoding::Utf16Le).is_empty());
    assert!(!PmxText::from_raw(vec![0], TextEncoding::Utf8).is_empty());
}

#[test]
fn pmx_text_shows_as_its_text_or_its_bytes() {
    use mmd_formats::PmxText;
    // UTF-16LE "センター" (U+30BB U+30F3 U+30BF U+30FC), as seed 000's bone names.
    let name = PmxText::from_raw(
        vec![0xbb, 0x30, 0xf3, 0x30, 0xbf, 0x30, 0xfc, 0x30],
        TextEncoding::Utf16Le,
    );
    assert_eq!(format!("{name:?}"), "\"センター\"");
    assert_eq!(name.to_string(), "センター");
    // An unpaired surrogate (0xD800) does not decode: Debug shows the bytes kept,
    // Display shows U+FFFD.
    let broken = PmxText::from_raw(vec![0x41, 0x00, 0x00, 0xd8], TextEncoding::Utf16Le);
    assert_eq!(format!("{broken:?}"), "PmxText(raw [41, 00, 00, d8])");
    assert_eq!(broken.to_string(), "A\u{fffd}");
}

#[test]
fn a_shift_jis_name_shows_and_compares_as_its_decoded_text() {
    use mmd_formats::ShiftJis;
    // "センター" in Shift_JIS (code page 932): 83 5A 83 93 83 5E 81 5B, then a NUL and
    // 0xFD junk (seed 004: junk after the NUL is kept but is not part of the name).
    let mut raw = [0xfdu8; 15];
    raw[..9].copy_from_slice(&[0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b, 0]);
    let name = ShiftJis(raw);
    assert_eq!(name.to_string(), "センター");
    assert_eq!(format!("{name:?}"), "\"センター\"");
    assert!(name.eq_str("センター"));
    assert!(!name.eq_str("センタ"));
    assert!(!name.eq_str("左足"));
}

// ---------------------------------------------------------------------------------------
// What generated code calls (`rt.rs`): counts, lengths, where a context fault is placed
// ---------------------------------------------------------------------------------------

/// A count, then that many values: the length is an earlier field (a reference in the
/// expression, as every earlier field is).
#[derive(Mmd, Debug, PartialEq)]
struct Lengthed {
    n: u8,
    #[mmd(len = n)]
    items: Vec<u16>,
}

#[test]
fn a_length_taken_from_an_earlier_field_reads_that_many_values() {
    let b = [2, 0x34, 0x12, 0x78, 0x56, 9];
    let mut input = mmd_formats::SliceInput::new(&b);
    let v = <Lengthed as mmd_formats::Decode<()>>::decode(&mut input, &()).unwrap();
    assert_eq!(v.items, [0x1234, 0x5678]);
    assert_eq!(input.rest(), &[9], "exactly n values were read");
    let back = mmd_formats::file::encode_all(&v, &()).unwrap();
    assert_eq!(back, &b[..5]);
    // The writer checks the vector against the field.
    let bad = Lengthed {
        n: 1,
        items: vec![1, 2],
    };
    let e = mmd_formats::file::encode_all(&bad, &()).unwrap_err();
    assert_eq!(e.path_string(), "items", "{e}");
}

/// A record of no bytes.
#[derive(Mmd, Debug, PartialEq)]
struct Nothing {
    none: [u8; 0],
}

/// A `u64` count of records of no bytes.
#[derive(Mmd, Debug, PartialEq)]
struct Nothings {
    #[mmd(count = u64)]
    items: Vec<Nothing>,
}

#[test]
fn a_huge_count_of_empty_records_fails_at_once() {
    // No input makes a reader hang: a count of 2^64-1 records that take no bytes each is
    // more than the (empty) input can hold, and telling a cut file from a corrupt one
    // must not read them one by one.
    let b = u64::MAX.to_le_bytes();
    let e = decode_all::<Nothings, _>(&b, &()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::CountTooLarge { count, .. } if *count == u64::MAX),
        "{e}"
    );
    assert!(!e.is_truncated(), "no record ends early: {e}");
    assert_eq!(e.path_string(), "items");
    // A count that fits (none left, none announced) reads.
    let v: Nothings = decode_all(&0u64.to_le_bytes(), &()).unwrap();
    assert!(v.items.is_empty());
}

/// The parameter of a context: numbers at fixed places, arrays of bytes and of `u16`,
/// then an optional trailing byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Settings {
    /// Anything.
    pub version: u32,
    /// Widths, one byte each.
    pub widths: [u8; 4],
    /// Limits, two bytes each.
    pub limits: [u16; 2],
    /// Absent when the input ends here.
    #[mmd(unless_eof)]
    pub extra: Option<u8>,
}

/// What `Settings` declares.
#[derive(MmdContext, Debug, Clone, Copy)]
#[mmd(from(settings: Settings))]
pub struct Declared {
    /// Width 2: 1, 2 or 4.
    #[mmd(from = settings.widths[2], valid = [1, 2, 4], name = "item width")]
    pub width: u8,
    /// Limit 1: 0 or 1.
    #[mmd(from = settings.limits[1], valid = [0, 1], name = "limit")]
    pub limit: u16,
}

/// A file: the settings, then one byte read with the context they declare.
#[derive(Mmd, Debug, PartialEq)]
#[mmd(ctx = ())]
struct WithSettings {
    #[mmd(context = Declared(settings))]
    settings: Settings,
    value: u8,
}

/// version 7 (0x0..0x4), widths 1 1 2 1 (0x4..0x8), limits 0 1 (0x8..0xc), extra 5
/// (0xc), value 9 (0xd).
fn settings_bytes() -> Vec<u8> {
    vec![7, 0, 0, 0, 1, 1, 2, 1, 0, 0, 1, 0, 5, 9]
}

#[test]
fn a_context_fault_in_a_byte_array_is_placed_at_its_byte() {
    // Errors say where: widths[2] is at 0x4 + 2.
    let mut b = settings_bytes();
    b[6] = 3;
    let e = decode_all::<WithSettings, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "settings.widths[2]: item width 3 at 0x6 (expected a item width of 1, 2 or 4)"
    );
    let v: WithSettings = decode_all(&settings_bytes(), &()).unwrap();
    assert_eq!(v.settings.extra, Some(5));
}

#[test]
fn a_context_fault_in_an_array_of_numbers_is_placed_at_its_element() {
    // limits[1] is at 0x8 + 1 * 2.
    let mut b = settings_bytes();
    b[10] = 5;
    let e = decode_all::<WithSettings, _>(&b, &()).unwrap_err();
    assert_eq!(e.offset(), 0xa, "{e}");
    assert_eq!(e.path_string(), "settings.limits[1]", "{e}");
}

// ---------------------------------------------------------------------------------------
// Input (`io.rs`): the provided methods, for an input that implements only the required ones
// ---------------------------------------------------------------------------------------

/// An input with only `Input`'s required methods; it counts the calls to `read_into`.
struct Minimal {
    data: Vec<u8>,
    pos: usize,
    reads: usize,
}

impl mmd_formats::Input for Minimal {
    fn position(&self) -> u64 {
        self.pos as u64
    }
    fn end(&self) -> u64 {
        self.data.len() as u64
    }
    fn read_into(&mut self, buf: &mut [u8]) -> mmd_formats::Result<()> {
        self.reads += 1;
        let end = self.pos + buf.len();
        let Some(src) = self.data.get(self.pos..end) else {
            return Err(Error::truncated(
                self.pos as u64,
                buf.len() as u64,
                self.data.len() as u64,
            ));
        };
        buf.copy_from_slice(src);
        self.pos = end;
        Ok(())
    }
}

#[test]
fn an_input_with_only_the_required_methods_reads_through_the_defaults() {
    // A user's own input (a stream, a memory map) implements three methods; the rest of
    // `Input` is provided: a stream by default, never in memory, read in 64 KiB chunks so
    // that memory grows with the bytes actually read, and skipping by reading.
    use mmd_formats::Input;
    let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let mut input = Minimal {
        data: data.clone(),
        pos: 0,
        reads: 0,
    };
    assert!(!input.holds_all());
    assert!(input.in_memory().is_none());
    assert_eq!(input.remaining(), 200_000);
    assert!(!input.at_end());
    assert_eq!(input.read_array::<2>().unwrap(), [0, 1]);
    input.skip(3).unwrap();
    assert_eq!(input.position(), 5);
    assert_eq!(input.read_array::<1>().unwrap(), [5]);
    input.reads = 0;
    let bytes = input.read_vec(150_000).unwrap();
    assert_eq!(bytes, data[6..150_006]);
    assert_eq!(input.reads, 3, "150,000 bytes in chunks of 64 KiB");
    let sum = input
        .read_with(10, |b| b.iter().map(|&x| u32::from(x)).sum::<u32>())
        .unwrap();
    assert_eq!(
        sum,
        data[150_006..150_016]
            .iter()
            .map(|&x| u32::from(x))
            .sum::<u32>()
    );
    // More than is left: an error at the position, and nothing read.
    let left = input.remaining();
    let e = input.read_vec(left + 1).unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.offset(), 150_016, "{e}");
    assert_eq!(input.position(), 150_016);
    assert_eq!(input.read_vec(left).unwrap(), data[150_016..]);
    assert!(input.at_end());
    assert_eq!(input.read_vec(0).unwrap(), Vec::<u8>::new());
}
