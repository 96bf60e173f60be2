//! Derived types inside binrw's own derive: a `#[derive(BinRead, BinWrite)]` struct holds
//! fields of `#[derive(Mmd)]` types and passes them their context as binrw arguments; whole
//! PMX files read and write through `BinRead`/`BinWrite`; our errors survive the trip
//! through `binrw::Error` with their offset.
//!
//! How binrw 0.15 passes arguments: `#[br(args(a, b))]` builds the tuple `(a, b)`, so it
//! fits the `(context, selector)` arguments of a `selected_by` enum. A struct's arguments
//! are its context itself (not a 1-tuple), so `#[br(args(ctx))]` would build `(ctx,)` and
//! not compile; `#[br(args_raw = ctx)]` passes the value as it is.

use binrw::io::Cursor;
use binrw::{BinRead, BinReaderExt, BinWrite, BinWriterExt};
use mmd_formats::pmx::Pmx;
use mmd_formats::samples::pmx_samples;
use mmd_formats::{
    BoneIndex, Error, ErrorKind, IndexKind, IndexWidths, Mmd, PmxText, TextContext, TextEncoding,
};

/// A context with a bone index width and a text encoding.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ctx {
    bone_width: u8,
    encoding: TextEncoding,
}

impl Ctx {
    fn new(bone_width: u8, encoding: u8) -> Self {
        Ctx {
            bone_width,
            encoding: TextEncoding::from_byte(encoding),
        }
    }
}

impl IndexWidths for Ctx {
    fn index_width(&self, kind: IndexKind) -> u8 {
        match kind {
            IndexKind::Bone => self.bone_width,
            _ => 4,
        }
    }
}

impl TextContext for Ctx {
    fn text_encoding(&self) -> TextEncoding {
        self.encoding
    }
}

/// A context-driven Mmd struct: binrw `Args = Ctx`.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = Ctx)]
struct Named {
    /// A name in the context's encoding.
    name: PmxText,
    /// A bone at the context's width.
    bone: BoneIndex,
}

/// A selected Mmd enum without context: binrw `Args = ((), bool)` on read, `()` on write.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(selected_by = bool, name = "value kind")]
enum Value {
    /// Selector false: one byte.
    #[mmd(tag = false)]
    Small(u8),
    /// Selector true: four bytes.
    #[mmd(tag = true)]
    Large(u32),
}

/// A context-free Mmd struct: binrw `Args = ()`, so it needs no attribute.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Plain {
    /// Values, a u8 count first.
    #[mmd(count = u8)]
    values: Vec<i16>,
}

/// binrw's derive, holding Mmd fields.
#[derive(BinRead, BinWrite, Debug, Clone, PartialEq)]
#[brw(little, magic = b"BRW!")]
struct Container {
    bone_width: u8,
    encoding: u8,
    #[br(args_raw = Ctx::new(bone_width, encoding))]
    #[bw(args_raw = Ctx::new(*bone_width, *encoding))]
    named: Named,
    large: u8,
    #[br(args((), large != 0))]
    value: Value,
    plain: Plain,
    tail: u16,
}

#[rustfmt::skip]
const CONTAINER: [u8; 26] = [
    b'B', b'R', b'W', b'!',             // binrw magic
    0x02,                               // bone_width 2
    0x01,                               // encoding 1 (UTF-8)
    0x03, 0x00, 0x00, 0x00, b'a', b'b', b'c', // named.name: length 3, "abc"
    0xfe, 0xff,                         // named.bone: -2 (2 bytes)
    0x01,                               // large 1
    0x78, 0x56, 0x34, 0x12,             // value: Large(0x12345678)
    0x01, 0x05, 0x00,                   // plain.values: count 1, then 5
    0xcd, 0xab,                         // tail 0xabcd
    0x00,                               // (one byte past the container; see below)
];

fn container() -> Container {
    Container {
        bone_width: 2,
        encoding: 1,
        named: Named {
            name: PmxText::new("abc", TextEncoding::Utf8),
            bone: BoneIndex::from_raw(-2),
        },
        large: 1,
        value: Value::Large(0x1234_5678),
        plain: Plain { values: vec![5] },
        tail: 0xabcd,
    }
}

#[test]
fn binrw_struct_with_mmd_fields_round_trips() {
    let bytes = &CONTAINER[..25];
    // Reading stops after the container: the 26th byte is left in the stream.
    let mut cursor = Cursor::new(&CONTAINER[..]);
    let value: Container = cursor.read_le().unwrap();
    assert_eq!(value, container());
    assert_eq!(cursor.position(), 25);

    let mut out = Cursor::new(Vec::new());
    out.write_le(&value).unwrap();
    assert_eq!(out.into_inner(), bytes);

    // The small variant, chosen by `large` = 0.
    let mut small = container();
    small.large = 0;
    small.value = Value::Small(9);
    let mut out = Cursor::new(Vec::new());
    small.write_le(&mut out).unwrap();
    let written = out.into_inner();
    assert_eq!(&written[15..17], &[0x00, 0x09]); // large 0, Small(9)
    let back: Container = Cursor::new(&written).read_le().unwrap();
    assert_eq!(back, small);
}

#[test]
fn mmd_reader_inside_binrw_starts_at_the_stream_position() {
    // The container after a 3-byte prefix: the Mmd fields' offsets are stream offsets.
    let mut bytes = vec![0xee; 3];
    bytes.extend_from_slice(&CONTAINER[..25]);
    let mut cursor = Cursor::new(&bytes);
    cursor.set_position(3);
    let value: Container = cursor.read_le().unwrap();
    assert_eq!(value, container());
    assert_eq!(cursor.position(), 28);

    // An error in an Mmd field reports the stream offset: 3 + 13.
    let mut cursor = Cursor::new(&bytes[..3 + 14]);
    cursor.set_position(3);
    let err = cursor.read_le::<Container>().unwrap_err();
    let ours = err.custom_err::<Error>().expect("our error");
    assert!(ours.is_truncated(), "{ours}");
    assert_eq!(ours.offset(), 16);
}

#[test]
fn binrw_errors_carry_our_error_and_offset() {
    // Cut inside `named.bone`: the text reads, the 2-byte bone index does not.
    let bytes = &CONTAINER[..14];
    let err = Cursor::new(bytes).read_le::<Container>().unwrap_err();
    let ours = err
        .custom_err::<Error>()
        .unwrap_or_else(|| panic!("not our error: {err:?}"));
    assert!(ours.is_truncated(), "{ours}");
    assert_eq!(ours.offset(), 13);
    assert_eq!(ours.path_string(), "bone");
    match err.root_cause() {
        binrw::Error::Custom { pos, .. } => assert_eq!(*pos, 13),
        other => panic!("root cause is not Custom: {other:?}"),
    }
}

#[test]
fn binrw_write_errors_carry_our_error() {
    let mut bad = container();
    bad.named.bone = BoneIndex::from_raw(40000); // does not fit the 2-byte width
    let err = bad.write_le(&mut Cursor::new(Vec::new())).unwrap_err();
    let ours = err
        .custom_err::<Error>()
        .unwrap_or_else(|| panic!("not our error: {err:?}"));
    assert!(
        matches!(ours.kind(), ErrorKind::Inconsistent { .. }),
        "{ours}"
    );
    assert_eq!(ours.path_string(), "bone");
    // magic 4 + widths 2 + name 7: the bone starts at 13.
    assert_eq!(ours.offset(), 13);
}

#[test]
fn pmx_reads_and_writes_through_binrw() {
    let samples = pmx_samples();
    assert!(samples.len() >= 17, "only {} PMX samples", samples.len());
    for (name, bytes) in &samples {
        let via_binrw =
            Pmx::read_le(&mut Cursor::new(bytes)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let direct = Pmx::from_bytes(bytes).unwrap();
        assert_eq!(via_binrw, direct, "{name}");
        let mut out = Cursor::new(Vec::new());
        via_binrw.write_le(&mut out).unwrap();
        mmd_tests::assert_bytes_eq(&out.into_inner(), bytes, name);
    }
}

#[test]
fn pmx_binrw_error_is_our_error_with_its_offset() {
    let (name, bytes) = pmx_samples().remove(0);
    let cut = &bytes[..bytes.len() / 2];
    let direct = Pmx::from_bytes(cut).unwrap_err();
    let err = Pmx::read_le(&mut Cursor::new(cut)).unwrap_err();
    let binrw::Error::Custom { pos, err: boxed } = &err else {
        panic!("{name}: not a Custom error: {err:?}");
    };
    let ours = boxed
        .downcast_ref::<Error>()
        .unwrap_or_else(|| panic!("{name}: not our error"));
    assert_eq!(*pos, ours.offset());
    assert!(ours.is_truncated() || matches!(ours.kind(), ErrorKind::CountTooLarge { .. }));
    // The same error as reading from memory: same offset, path and text.
    assert_eq!(ours.offset(), direct.offset());
    assert_eq!(ours.to_string(), direct.to_string());
}

/// An error that travels through binrw's own derive (wrapped in its backtrace) converts
/// back into our `Error` with its offset and path.
#[test]
fn from_binrw_unwraps_binrw_backtraces() {
    let inner = mmd_formats::Error::truncated(7, 4, 9).in_field("weight");
    let wrapped = binrw::Error::Backtrace(binrw::error::Backtrace::new(
        binrw::Error::from(inner),
        vec![],
    ));
    let back = mmd_formats::Error::from_binrw(wrapped);
    assert_eq!(back.offset(), 7);
    assert_eq!(back.path_string(), "weight");
    assert!(back.is_truncated());
}

/// A stream whose `seek(End)` claims far more bytes than it holds (a file inside an
/// archive, a sparse file): counts checked against that end must not reserve memory for
/// records that are not there. This used to abort with a 60 GB allocation.
#[test]
fn stream_that_lies_about_its_end_fails_without_huge_allocation() {
    use std::io::{Read, Seek, SeekFrom};
    struct Liar {
        data: Vec<u8>,
        pos: u64,
    }
    impl Read for Liar {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let rest = self.data.get(self.pos as usize..).unwrap_or(&[]);
            let n = rest.len().min(buf.len());
            buf[..n].copy_from_slice(&rest[..n]);
            self.pos += n as u64;
            Ok(n)
        }
    }
    impl Seek for Liar {
        fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
            self.pos = match to {
                SeekFrom::Start(p) => p,
                SeekFrom::End(d) => ((1u64 << 40) as i64 + d) as u64,
                SeekFrom::Current(d) => (self.pos as i64 + d) as u64,
            };
            Ok(self.pos)
        }
    }
    // A VMD header (30 + 20 bytes) and a bone count of 536,870,911 with nothing after it.
    let mut data = b"Vocaloid Motion Data 0002\0\0\0\0\0".to_vec();
    data.extend_from_slice(&[0u8; 20]);
    data.extend_from_slice(&0x1fff_ffffu32.to_le_bytes());
    let mut liar = Liar { data, pos: 0 };
    let err = <mmd_formats::vmd::Vmd as binrw::BinRead>::read_le(&mut liar).unwrap_err();
    let err = mmd_formats::Error::from_binrw(err);
    assert!(err.is_truncated(), "{err}");
    assert_eq!(err.offset(), 54, "{err}");
}
